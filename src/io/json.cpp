#include "io/json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>

namespace lngrad::io {
namespace {

// The layout the CLI has always printed: objects one member a line, arrays of scalars on one line.
// Scalars other than floating-point numbers are nlohmann's own text.
void DumpTo(const Json& j, int indent, int level, std::string* out) {
  auto newline = [&](int lvl) {
    if (indent <= 0) return;
    *out += '\n';
    out->append(static_cast<size_t>(indent * lvl), ' ');
  };
  if (j.is_object()) {
    *out += '{';
    bool first = true;
    for (const auto& [key, value] : j.items()) {
      if (!first) *out += ',';
      first = false;
      newline(level + 1);
      DumpTo(Json(key), indent, level + 1, out);
      *out += indent > 0 ? ": " : ":";
      DumpTo(value, indent, level + 1, out);
    }
    if (!j.empty()) newline(level);
    *out += '}';
  } else if (j.is_array()) {
    bool flat = true;
    for (const Json& v : j) flat = flat && !v.is_structured();
    *out += '[';
    for (size_t i = 0; i < j.size(); ++i) {
      if (i) *out += flat ? ", " : ",";
      if (!flat) newline(level + 1);
      DumpTo(j[i], indent, level + 1, out);
    }
    if (!flat && !j.empty()) newline(level);
    *out += ']';
  } else if (j.is_number_float()) {
    // Shortest text that reads back to the same double, in std::to_chars' form (1e-04); nlohmann
    // writes 0.0001, and the manifests and --json output the CLI's users diff keep the old text.
    const double d = j.get<double>();
    if (!std::isfinite(d)) {
      *out += "null";
      return;
    }
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    out->append(buf, r.ptr);
  } else {
    *out += j.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
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
  bool start_object(size_t) { return Open(Json::object()); }
  bool key(Types::string_t& k) {
    Frame& f = open_.back();
    if (f.value.contains(k)) return Fail(Read(), "repeated member \"" + k + "\"");
    f.key = std::move(k);
    return true;
  }
  bool end_object() { return Close(); }
  bool start_array(size_t) { return Open(Json::array()); }
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
      f.value.push_back(std::move(v));
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

Status ParseJson(std::string_view text, std::string_view what, Json* out) {
  Json v;
  LNGRAD_RETURN_IF_ERROR(Builder(text, what, &v).Run());
  *out = std::move(v);
  return Status::Ok();
}

std::string DumpJson(const Json& j, int indent) {
  std::string out;
  DumpTo(j, indent, 0, &out);
  return out;
}

const Json* FindMember(const Json& j, std::string_view key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

bool JsonInteger(const Json& j, int64_t* out) {
  if (j.is_number_integer() && !j.is_number_unsigned()) {
    *out = j.get<int64_t>();
    return true;
  }
  if (j.is_number_unsigned()) {
    const uint64_t u = j.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
    *out = static_cast<int64_t>(u);
    return true;
  }
  if (!j.is_number_float()) return false;
  const double d = j.get<double>();
  if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) >= 9e15) return false;
  *out = static_cast<int64_t>(d);
  return true;
}

}  // namespace lngrad::io
