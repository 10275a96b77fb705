#include "io/json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

namespace lngrad::io {
namespace {

void AppendEscaped(std::string* out, const std::string& s) {
  *out += '"';
  for (char c : s) {
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\t':
        *out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          *out += buf;
        } else {
          *out += c;
        }
    }
  }
  *out += '"';
}

void AppendNumber(std::string* out, double d) {
  if (!std::isfinite(d)) {
    *out += "null";
    return;
  }
  // Shortest text that reads back to the same double.
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, d);
  out->append(buf, r.ptr);
}

// nlohmann's lexer reads the text through this iterator, which records how far it has read: the
// SAX events carry no position, and the errors the handler raises (a repeated member, too deep a
// nesting, a number out of range) name a byte offset like the lexer's own errors do.
class TrackedChar {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackedChar(const char* p, const char** read) : p_(p), read_(read) {}
  reference operator*() const { return *p_; }
  TrackedChar& operator++() {
    *read_ = ++p_;
    return *this;
  }
  TrackedChar operator++(int) {
    TrackedChar before = *this;
    ++*this;
    return before;
  }
  bool operator==(const TrackedChar& o) const { return p_ == o.p_; }

 private:
  const char* p_;
  const char** read_;
};

// Builds a Json from nlohmann's SAX events and adds what RFC 8259 leaves open but a manifest must
// not have: repeated members, nesting deeper than kMaxDepth, numbers beyond double's range.
class Builder {
 public:
  using Types = nlohmann::json;  // the value types of the SAX interface
  static constexpr size_t kMaxDepth = 64;

  Builder(std::string_view text, std::string_view what, Json* root)
      : text_(text), what_(what), root_(root), read_(text.data()) {}

  Status Run() {
    const char* begin = text_.data();
    const char* end = begin + text_.size();
    const bool ok = Types::sax_parse(TrackedChar(begin, &read_), TrackedChar(end, &read_), this);
    return ok ? Status::Ok() : error_;
  }

  // nlohmann's SAX interface.
  bool null() { return Add(Json()); }
  bool boolean(bool b) { return Add(Json(b)); }
  bool number_integer(Types::number_integer_t v) { return Add(Json(static_cast<int64_t>(v))); }
  bool number_unsigned(Types::number_unsigned_t v) {
    if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Add(Json(static_cast<int64_t>(v)));
    }
    return Add(Json(static_cast<double>(v)));
  }
  bool number_float(Types::number_float_t, const Types::string_t& text) {
    // Read the text again with from_chars: locale-independent, and it refuses underflow (1e-400),
    // which nlohmann's strtod reads as 0. Overflow nlohmann reports itself (parse_error 406).
    double d = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), d);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
      return Fail(NumberEnd(), "number out of range");
    }
    return Add(Json(d));
  }
  bool string(Types::string_t& s) { return Add(Json(std::move(s))); }
  bool binary(Types::binary_t&) { return Fail(Read(), "binary value"); }
  bool start_object(size_t) { return Open(Json::Object()); }
  bool key(Types::string_t& k) {
    Frame& f = open_.back();
    if (f.value.Find(k) != nullptr) return Fail(Read(), "repeated member \"" + k + "\"");
    f.key = std::move(k);
    return true;
  }
  bool end_object() { return Close(); }
  bool start_array(size_t) { return Open(Json::Array()); }
  bool end_array() { return Close(); }
  bool parse_error(size_t position, const std::string&, const Types::exception& e) {
    // Number overflow (406) is reported at the end of the number; syntax errors at the character
    // the lexer failed on, which nlohmann counts from 1.
    if (e.id == 406) return Fail(std::min(position, text_.size()), "number out of range");
    return Fail(std::min(position > 0 ? position - 1 : 0, text_.size()), Description(e.what()));
  }

 private:
  struct Frame {
    Json value;       // an array or object being filled
    std::string key;  // objects: the member name the next value goes to
  };

  static std::string TooDeep() { return "nesting deeper than " + std::to_string(kMaxDepth); }
  size_t Read() const { return static_cast<size_t>(read_ - text_.data()); }
  // A number's token ends one character before what the lexer has read, unless it ended the text.
  size_t NumberEnd() const {
    const size_t n = Read();
    return n > 0 && (text_[n - 1] < '0' || text_[n - 1] > '9') ? n - 1 : n;
  }
  static std::string Description(std::string_view what) {
    // what(): "[json.exception.parse_error.N] parse error at line L, column C: <description>";
    // the line and column are ours to give, from the byte offset.
    const size_t column = what.find(", column ");
    const size_t colon = column == std::string_view::npos ? column : what.find(": ", column);
    return std::string(colon == std::string_view::npos ? what : what.substr(colon + 2));
  }

  bool Add(Json v) {
    if (open_.size() > kMaxDepth) return Fail(Read(), TooDeep());
    Place(std::move(v));
    return true;
  }
  bool Open(Json container) {
    if (open_.size() > kMaxDepth) return Fail(Read() - 1, TooDeep());
    open_.push_back({std::move(container), {}});
    return true;
  }
  bool Close() {
    Json done = std::move(open_.back().value);
    open_.pop_back();
    Place(std::move(done));
    return true;
  }
  // A finished value goes into the innermost open container, or is the document.
  void Place(Json v) {
    if (open_.empty()) {
      *root_ = std::move(v);
    } else if (Frame& f = open_.back(); f.value.is_array()) {
      f.value.Push(std::move(v));
    } else {
      f.value[f.key] = std::move(v);
    }
  }
  bool Fail(size_t at, const std::string& message) {
    size_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < at && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    error_ = Status::InvalidArgument(
        std::string(what_) + ": invalid JSON at byte " + std::to_string(at) + " (line " +
        std::to_string(line) + ", column " + std::to_string(at - line_start + 1) + "): " + message);
    return false;
  }

  std::string_view text_;
  std::string_view what_;
  Json* root_;
  const char* read_;         // where the lexer has read to
  std::vector<Frame> open_;  // innermost last
  Status error_ = Status::Ok();
};

}  // namespace

bool Json::IsInteger() const {
  if (kind_ != Kind::kNumber) return false;
  if (integer_) return true;
  return std::isfinite(number_) && std::trunc(number_) == number_ && std::fabs(number_) < 9e15;
}

int64_t Json::AsInteger() const { return integer_ ? int_ : static_cast<int64_t>(number_); }

Json& Json::operator[](std::string_view key) {
  if (kind_ == Kind::kNull) kind_ = Kind::kObject;
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return values_[i];
  }
  keys_.emplace_back(key);
  values_.emplace_back();
  return values_.back();
}

const Json* Json::Find(std::string_view key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return &values_[i];
  }
  return nullptr;
}

void Json::DumpTo(std::string* out, int indent, int level) const {
  auto newline = [&](int lvl) {
    if (indent <= 0) return;
    *out += '\n';
    out->append(static_cast<size_t>(indent * lvl), ' ');
  };
  switch (kind_) {
    case Kind::kNull:
      *out += "null";
      break;
    case Kind::kBool:
      *out += bool_ ? "true" : "false";
      break;
    case Kind::kNumber:
      if (integer_) {
        *out += std::to_string(int_);
      } else {
        AppendNumber(out, number_);
      }
      break;
    case Kind::kString:
      AppendEscaped(out, string_);
      break;
    case Kind::kArray: {
      // Arrays of scalars stay on one line (shapes, index lists).
      bool flat = true;
      for (const Json& v : values_)
        flat = flat && v.kind_ != Kind::kArray && v.kind_ != Kind::kObject;
      *out += '[';
      for (size_t i = 0; i < values_.size(); ++i) {
        if (i) *out += flat ? ", " : ",";
        if (!flat) newline(level + 1);
        values_[i].DumpTo(out, indent, level + 1);
      }
      if (!flat && !values_.empty()) newline(level);
      *out += ']';
      break;
    }
    case Kind::kObject: {
      *out += '{';
      for (size_t i = 0; i < keys_.size(); ++i) {
        if (i) *out += ',';
        newline(level + 1);
        AppendEscaped(out, keys_[i]);
        *out += indent > 0 ? ": " : ":";
        values_[i].DumpTo(out, indent, level + 1);
      }
      if (!keys_.empty()) newline(level);
      *out += '}';
      break;
    }
  }
}

std::string Json::Dump(int indent) const {
  std::string out;
  DumpTo(&out, indent, 0);
  return out;
}

Status Json::Parse(std::string_view text, std::string_view what, Json* out) {
  Json v;
  LNGRAD_RETURN_IF_ERROR(Builder(text, what, &v).Run());
  *out = std::move(v);
  return Status::Ok();
}

}  // namespace lngrad::io
