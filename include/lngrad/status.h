// lngrad: result type of every library call.
#pragma once

#include <string>
#include <utility>

namespace lngrad {

enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument = 1,  // an argument broke a documented rule; the message names it
  kUnsupported = 2,      // valid request that this product/dtype/build does not support
  kOutOfRange = 3,       // sizes that overflow the index type or a buffer that is too small
  kInternal = 4,         // a bug in lngrad
};

// Status: a code plus a message naming the argument and the rule it broke.
// Library functions never throw for bad input and never call exit(); they return a Status.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) {
    return {StatusCode::kInvalidArgument, std::move(m)};
  }
  static Status Unsupported(std::string m) { return {StatusCode::kUnsupported, std::move(m)}; }
  static Status OutOfRange(std::string m) { return {StatusCode::kOutOfRange, std::move(m)}; }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "OK" or "<code name>: <message>".
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

const char* StatusCodeName(StatusCode code);

}  // namespace lngrad

// Propagates a non-OK Status to the caller.
#define LNGRAD_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::lngrad::Status lngrad_status_ = (expr);        \
    if (!lngrad_status_.ok()) return lngrad_status_; \
  } while (0)
