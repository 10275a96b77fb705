// lngrad_io: a small JSON value for the CLI's --json output and its manifest files.
// Objects keep insertion order (stable, diff-friendly output). Non-finite numbers are written
// as null (JSON has no NaN or infinity). Text is read by nlohmann/json, which no header of ours
// includes; the writer is ours, for the layout and the number text the CLI's output promises.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lngrad/status.h"

namespace lngrad::io {

class Json {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : kind_(Kind::kBool), bool_(b) {}
  Json(double d) : kind_(Kind::kNumber), number_(d) {}
  Json(float f) : Json(static_cast<double>(f)) {}
  Json(int v) : Json(static_cast<int64_t>(v)) {}
  Json(unsigned v) : Json(static_cast<int64_t>(v)) {}
  Json(int64_t v)
      : kind_(Kind::kNumber), number_(static_cast<double>(v)), integer_(true), int_(v) {}
  Json(uint64_t v) : Json(static_cast<int64_t>(v)) {}
  Json(const char* s) : kind_(Kind::kString), string_(s) {}
  Json(std::string s) : kind_(Kind::kString), string_(std::move(s)) {}
  Json(std::string_view s) : kind_(Kind::kString), string_(s) {}
  static Json Array() { return Json(Kind::kArray); }
  static Json Object() { return Json(Kind::kObject); }
  template <typename T>
  static Json ArrayOf(const std::vector<T>& v) {
    Json a = Array();
    for (const T& x : v) a.Push(Json(x));
    return a;
  }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_object() const { return kind_ == Kind::kObject; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool AsBool() const { return bool_; }
  double AsNumber() const { return number_; }
  // True when the number is an integer that int64 holds exactly.
  bool IsInteger() const;
  int64_t AsInteger() const;
  const std::string& AsString() const { return string_; }

  // Arrays.
  void Push(Json v) { values_.push_back(std::move(v)); }
  const std::vector<Json>& items() const { return values_; }
  // Objects: operator[] inserts a null member when the key is new.
  Json& operator[](std::string_view key);
  const Json* Find(std::string_view key) const;
  const std::vector<std::string>& keys() const { return keys_; }
  const std::vector<Json>& values() const { return values_; }

  // Text with `indent` spaces per level (0: one line); arrays of scalars stay on one line.
  // Numbers: integers as integers, other numbers as the shortest text that reads back the same
  // double (std::to_chars: 1e-04, 0.125, 1e+20).
  std::string Dump(int indent = 2) const;
  // Strict RFC 8259 (UTF-8, no comments, no trailing commas), and also refused: a repeated member,
  // nesting deeper than 64, a number beyond double's range. Integers that int64 holds stay
  // integers. The error names `what`, the 0-based byte offset, line and column, and the reason.
  static Status Parse(std::string_view text, std::string_view what, Json* out);

 private:
  explicit Json(Kind k) : kind_(k) {}
  void DumpTo(std::string* out, int indent, int level) const;

  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  double number_ = 0;
  bool integer_ = false;
  int64_t int_ = 0;
  std::string string_;
  std::vector<std::string> keys_;  // objects
  std::vector<Json> values_;       // arrays and object values
};

}  // namespace lngrad::io
