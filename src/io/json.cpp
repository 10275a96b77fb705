#include "io/json.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace lngrad::io {
namespace {

void AppendEscaped(std::string* out, const std::string& s) {
  *out += '"';
  for (char c : s) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
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

class Parser {
 public:
  Parser(std::string_view text, std::string_view what) : t_(text), what_(what) {}

  Status Run(Json* out) {
    LNGRAD_RETURN_IF_ERROR(Value(out, 0));
    Space();
    if (p_ != t_.size()) return Error("unexpected text after the value");
    return Status::Ok();
  }

 private:
  Status Error(const std::string& m) const {
    return Status::InvalidArgument(std::string(what_) + ": invalid JSON at byte " +
                                   std::to_string(p_) + ": " + m);
  }
  void Space() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) {
      ++p_;
    }
  }
  bool Literal(std::string_view word) {
    if (t_.substr(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  Status Value(Json* out, int depth) {
    if (depth > 64) return Error("nesting deeper than 64");
    Space();
    if (p_ >= t_.size()) return Error("unexpected end");
    const char c = t_[p_];
    if (c == '{') return Object(out, depth);
    if (c == '[') return Array(out, depth);
    if (c == '"') {
      std::string s;
      LNGRAD_RETURN_IF_ERROR(String(&s));
      *out = Json(std::move(s));
      return Status::Ok();
    }
    if (Literal("true")) {
      *out = Json(true);
      return Status::Ok();
    }
    if (Literal("false")) {
      *out = Json(false);
      return Status::Ok();
    }
    if (Literal("null")) {
      *out = Json();
      return Status::Ok();
    }
    return Number(out);
  }

  Status Number(Json* out) {
    const size_t start = p_;
    if (p_ < t_.size() && t_[p_] == '-') ++p_;
    auto digits = [&] {
      const size_t s = p_;
      while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') ++p_;
      return p_ - s;
    };
    const size_t int_start = p_;
    const size_t n_int = digits();
    if (n_int == 0) return Error("expected a value");
    if (n_int > 1 && t_[int_start] == '0') return Error("leading zero in a number");
    bool integral = true;
    if (p_ < t_.size() && t_[p_] == '.') {
      ++p_;
      integral = false;
      if (digits() == 0) return Error("digits expected after '.'");
    }
    if (p_ < t_.size() && (t_[p_] == 'e' || t_[p_] == 'E')) {
      ++p_;
      integral = false;
      if (p_ < t_.size() && (t_[p_] == '+' || t_[p_] == '-')) ++p_;
      if (digits() == 0) return Error("digits expected in the exponent");
    }
    const std::string_view text = t_.substr(start, p_ - start);
    if (integral) {
      int64_t v = 0;
      const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
      if (r.ec == std::errc() && r.ptr == text.data() + text.size()) {
        *out = Json(v);
        return Status::Ok();
      }
    }
    double d = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), d);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
      return Error("number out of range");
    }
    *out = Json(d);
    return Status::Ok();
  }

  Status String(std::string* out) {
    ++p_;  // opening quote
    std::string s;
    while (true) {
      if (p_ >= t_.size()) return Error("unterminated string");
      const char c = t_[p_++];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in a string");
      if (c != '\\') {
        s += c;
        continue;
      }
      if (p_ >= t_.size()) return Error("unterminated escape");
      const char e = t_[p_++];
      switch (e) {
        case '"': s += '"'; break;
        case '\\': s += '\\'; break;
        case '/': s += '/'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'u': {
          if (p_ + 4 > t_.size()) return Error("short \\u escape");
          unsigned v = 0;
          const auto r = std::from_chars(t_.data() + p_, t_.data() + p_ + 4, v, 16);
          if (r.ec != std::errc() || r.ptr != t_.data() + p_ + 4) return Error("bad \\u escape");
          p_ += 4;
          // Manifests are ASCII; other code points are kept as UTF-8 of the BMP value.
          if (v < 0x80) {
            s += static_cast<char>(v);
          } else if (v < 0x800) {
            s += static_cast<char>(0xC0 | (v >> 6));
            s += static_cast<char>(0x80 | (v & 0x3F));
          } else {
            s += static_cast<char>(0xE0 | (v >> 12));
            s += static_cast<char>(0x80 | ((v >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (v & 0x3F));
          }
          break;
        }
        default: return Error("unknown escape");
      }
    }
    *out = std::move(s);
    return Status::Ok();
  }

  Status Array(Json* out, int depth) {
    ++p_;
    Json a = Json::Array();
    Space();
    if (p_ < t_.size() && t_[p_] == ']') {
      ++p_;
      *out = std::move(a);
      return Status::Ok();
    }
    while (true) {
      Json v;
      LNGRAD_RETURN_IF_ERROR(Value(&v, depth + 1));
      a.Push(std::move(v));
      Space();
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        continue;
      }
      if (p_ < t_.size() && t_[p_] == ']') {
        ++p_;
        break;
      }
      return Error("expected ',' or ']'");
    }
    *out = std::move(a);
    return Status::Ok();
  }

  Status Object(Json* out, int depth) {
    ++p_;
    Json o = Json::Object();
    Space();
    if (p_ < t_.size() && t_[p_] == '}') {
      ++p_;
      *out = std::move(o);
      return Status::Ok();
    }
    while (true) {
      Space();
      if (p_ >= t_.size() || t_[p_] != '"') return Error("expected a member name");
      std::string key;
      LNGRAD_RETURN_IF_ERROR(String(&key));
      if (o.Find(key) != nullptr) return Error("repeated member \"" + key + "\"");
      Space();
      if (p_ >= t_.size() || t_[p_] != ':') return Error("expected ':'");
      ++p_;
      LNGRAD_RETURN_IF_ERROR(Value(&o[key], depth + 1));
      Space();
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        continue;
      }
      if (p_ < t_.size() && t_[p_] == '}') {
        ++p_;
        break;
      }
      return Error("expected ',' or '}'");
    }
    *out = std::move(o);
    return Status::Ok();
  }

  std::string_view t_;
  std::string_view what_;
  size_t p_ = 0;
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
    case Kind::kNull: *out += "null"; break;
    case Kind::kBool: *out += bool_ ? "true" : "false"; break;
    case Kind::kNumber:
      if (integer_) {
        *out += std::to_string(int_);
      } else {
        AppendNumber(out, number_);
      }
      break;
    case Kind::kString: AppendEscaped(out, string_); break;
    case Kind::kArray: {
      // Arrays of scalars stay on one line (shapes, index lists).
      bool flat = true;
      for (const Json& v : values_) flat = flat && v.kind_ != Kind::kArray && v.kind_ != Kind::kObject;
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
  Parser p(text, what);
  Json v;
  LNGRAD_RETURN_IF_ERROR(p.Run(&v));
  *out = std::move(v);
  return Status::Ok();
}

}  // namespace lngrad::io
