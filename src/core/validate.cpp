#include "validate.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace lngrad::core {
namespace {

constexpr size_t kMaxBytes = static_cast<size_t>(std::numeric_limits<std::ptrdiff_t>::max());

std::string Prefix(const char* fn, const char* name) {
  return std::string(fn) + ": argument '" + name + "' ";
}

bool Overlap(const BufferArg& a, const BufferArg& b) {
  if (a.bytes == 0 || b.bytes == 0) return false;  // an empty buffer shares no byte
  const auto a0 = reinterpret_cast<uintptr_t>(a.ptr);
  const auto b0 = reinterpret_cast<uintptr_t>(b.ptr);
  return a0 < b0 + b.bytes && b0 < a0 + a.bytes;
}

Status CheckRange(const char* fn, const BufferArg& a) {
  const auto p = reinterpret_cast<uintptr_t>(a.ptr);
  if (p > std::numeric_limits<uintptr_t>::max() - a.bytes) {
    return Status::OutOfRange(Prefix(fn, a.name) + "(" + std::to_string(a.bytes) +
                              " bytes) wraps around the end of the address space");
  }
  return Status::Ok();
}

}  // namespace

std::string FormatValue(float v) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, result.ptr);
}

Status CheckShape(const char* fn, RowShape shape, size_t elem_size, TensorBytes* bytes,
                  int64_t min_rows) {
  if (shape.rows < min_rows) {
    return Status::InvalidArgument(Prefix(fn, "shape.rows") +
                                   "must be >= " + std::to_string(min_rows) + " (got " +
                                   std::to_string(shape.rows) + ")");
  }
  if (shape.h < 1) {
    return Status::InvalidArgument(Prefix(fn, "shape.h") + "must be >= 1 (got " +
                                   std::to_string(shape.h) + ")");
  }
  int64_t elements = 0;
  if (__builtin_mul_overflow(shape.rows, shape.h, &elements)) {
    return Status::OutOfRange(Prefix(fn, "shape") + "rows*h = " + std::to_string(shape.rows) + "*" +
                              std::to_string(shape.h) + " overflows int64");
  }
  size_t matrix = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(elements), elem_size, &matrix) ||
      matrix > kMaxBytes) {
    return Status::OutOfRange(Prefix(fn, "shape") + "rows*h = " + std::to_string(elements) +
                              " elements of " + std::to_string(elem_size) +
                              " bytes exceed the addressable size (PTRDIFF_MAX bytes)");
  }
  // rows >= 1 bounds h by the matrix; an empty batch (rows = 0) does not, and the [h] tensors
  // must be addressable too.
  size_t per_col = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(shape.h), elem_size, &per_col) ||
      per_col > kMaxBytes) {
    return Status::OutOfRange(Prefix(fn, "shape.h") + "= " + std::to_string(shape.h) +
                              " elements of " + std::to_string(elem_size) +
                              " bytes exceed the addressable size (PTRDIFF_MAX bytes)");
  }
  *bytes = {matrix, static_cast<size_t>(shape.rows) * elem_size, per_col};
  return Status::Ok();
}

Status CheckCount(const char* fn, const char* name, int64_t n, size_t elem_size, size_t* bytes) {
  if (n < 1) {
    return Status::InvalidArgument(Prefix(fn, name) + "must be >= 1 (got " + std::to_string(n) +
                                   ")");
  }
  if (__builtin_mul_overflow(static_cast<uint64_t>(n), elem_size, bytes) || *bytes > kMaxBytes) {
    return Status::OutOfRange(Prefix(fn, name) + std::to_string(n) + " elements of " +
                              std::to_string(elem_size) +
                              " bytes exceed the addressable size (PTRDIFF_MAX bytes)");
  }
  return Status::Ok();
}

Status CheckNotNull(const char* fn, std::span<const BufferArg> args) {
  for (const BufferArg& a : args) {
    if (a.ptr == nullptr && a.bytes > 0)
      return Status::InvalidArgument(Prefix(fn, a.name) + "is null");
  }
  return Status::Ok();
}

Status CheckEpsilon(const char* fn, float epsilon) {
  if (!std::isfinite(epsilon) || epsilon < 0.0f) {
    return Status::InvalidArgument(Prefix(fn, "epsilon") + "must be finite and >= 0 (got " +
                                   FormatValue(epsilon) + ")");
  }
  return Status::Ok();
}

Status CheckOptions(const char* fn, const Options& options) {
  if (options.num_threads < 0) {
    return Status::InvalidArgument(Prefix(fn, "options.num_threads") + "must be >= 0 (got " +
                                   std::to_string(options.num_threads) + ")");
  }
  if (options.half_eval != HalfEval::kFast && options.half_eval != HalfEval::kCorrectlyRounded) {
    return Status::InvalidArgument(Prefix(fn, "options.half_eval") +
                                   "is not a declared HalfEval value (" +
                                   std::to_string(static_cast<int>(options.half_eval)) + ")");
  }
  switch (options.impl) {
    case Impl::kAuto:
    case Impl::kSimd:
    case Impl::kScalar:
      return Status::Ok();
  }
  return Status::InvalidArgument(Prefix(fn, "options.impl") + "is not a declared Impl value (" +
                                 std::to_string(static_cast<int>(options.impl)) + ")");
}

Status CheckNoOverlap(const char* fn, std::span<const BufferArg> outputs,
                      std::span<const BufferArg> inputs) {
  for (const BufferArg& a : outputs) LNGRAD_RETURN_IF_ERROR(CheckRange(fn, a));
  for (const BufferArg& a : inputs) LNGRAD_RETURN_IF_ERROR(CheckRange(fn, a));
  for (auto out = outputs.begin(); out != outputs.end(); ++out) {
    for (auto other = outputs.begin(); other != out; ++other) {
      if (Overlap(*out, *other)) {
        return Status::InvalidArgument(Prefix(fn, out->name) + "overlaps '" + other->name + "'");
      }
    }
    for (const BufferArg& in : inputs) {
      if (Overlap(*out, in)) {
        return Status::InvalidArgument(Prefix(fn, out->name) + "overlaps '" + in.name + "'");
      }
    }
  }
  return Status::Ok();
}

}  // namespace lngrad::core
