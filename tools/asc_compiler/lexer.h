// lngrad-asc's lexer (rewrite.cpp): a .asc source as tokens, enough of C++ and the preprocessor
// for the rewrites (strings, characters, comments, directives and header names kept whole).
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace lngrad::asc_compiler::lexing {

enum class Kind { kSpace, kNewline, kComment, kString, kChar, kNumber, kIdent, kPunct, kHeader };

struct Token {
  Kind kind;
  size_t begin, end;  // byte offsets into the source
  int line;           // 1-based line of the first byte
  bool in_directive;  // part of a preprocessor directive (its continuation lines included)
  bool in_define;     // ... of a #define
};

inline bool IsIdentStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
inline bool IsIdentChar(unsigned char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
inline bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }

// Splits the source into tokens that cover it without gaps.
class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}

  std::vector<Token> Run() {
    while (pos_ < src_.size()) Next();
    return std::move(tokens_);
  }

 private:
  char At(size_t i) const { return i < src_.size() ? src_[i] : '\0'; }

  // A backslash-newline (line splice) starting at i: its length, or 0.
  size_t SpliceAt(size_t i) const {
    if (At(i) != '\\') return 0;
    if (At(i + 1) == '\n') return 2;
    if (At(i + 1) == '\r' && At(i + 2) == '\n') return 3;
    return 0;
  }

  void Push(Kind kind, size_t end) {
    tokens_.push_back({kind, pos_, end, line_, directive_, define_});
    for (size_t i = pos_; i < end; ++i) {
      if (src_[i] == '\n') ++line_;
    }
    if (kind != Kind::kSpace && kind != Kind::kComment && kind != Kind::kNewline) {
      at_line_start_ = false;
    }
    pos_ = end;
  }

  // Up to the closing quote; a lone newline ends an unterminated literal (the compiler will say
  // so), a backslash escapes the next character, a newline included.
  size_t QuotedEnd(size_t open, char quote) const {
    size_t i = open + 1;
    while (i < src_.size()) {
      const char c = src_[i];
      if (c == '\\') {
        i += 2;
      } else if (c == quote) {
        return i + 1;
      } else if (c == '\n') {
        return i;
      } else {
        ++i;
      }
    }
    return src_.size();
  }

  // R"delim( ... )delim" with `open` on the quote.
  size_t RawStringEnd(size_t open) const {
    const size_t paren = src_.find('(', open + 1);
    if (paren == std::string_view::npos || paren - open - 1 > 16) return QuotedEnd(open, '"');
    const std::string close = ")" + std::string(src_.substr(open + 1, paren - open - 1)) + "\"";
    const size_t end = src_.find(close, paren + 1);
    return end == std::string_view::npos ? src_.size() : end + close.size();
  }

  size_t NumberEnd(size_t i) const {
    while (i < src_.size()) {
      const unsigned char c = src_[i];
      if ((c == '+' || c == '-') && i > 0 &&
          (src_[i - 1] == 'e' || src_[i - 1] == 'E' || src_[i - 1] == 'p' || src_[i - 1] == 'P')) {
        ++i;
      } else if (c == '\'' && IsIdentChar(static_cast<unsigned char>(At(i + 1)))) {
        i += 2;  // digit separator: 1'000'000
      } else if (IsIdentChar(c) || c == '.') {
        ++i;
      } else {
        break;
      }
    }
    return i;
  }

  void Next() {
    const char c = src_[pos_];
    if (c == '\n') {
      Push(Kind::kNewline, pos_ + 1);
      // A newline outside a comment and not spliced ends the directive.
      directive_ = define_ = false;
      at_line_start_ = true;
      expect_directive_name_ = header_name_allowed_ = false;
      return;
    }
    if (const size_t n = SpliceAt(pos_)) {
      Push(Kind::kSpace, pos_ + n);
      return;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      size_t i = pos_;
      while (i < src_.size() && (src_[i] == ' ' || src_[i] == '\t' || src_[i] == '\r' ||
                                 src_[i] == '\f' || src_[i] == '\v')) {
        ++i;
      }
      Push(Kind::kSpace, i);
      return;
    }
    if (c == '/' && At(pos_ + 1) == '/') {
      size_t i = pos_ + 2;
      for (; i < src_.size(); ++i) {
        if (src_[i] != '\n') continue;
        // A spliced line comment goes on over the next line.
        const bool spliced = src_[i - 1] == '\\' || (src_[i - 1] == '\r' && src_[i - 2] == '\\');
        if (!spliced) break;
      }
      Push(Kind::kComment, i);
      return;
    }
    if (c == '/' && At(pos_ + 1) == '*') {
      const size_t close = src_.find("*/", pos_ + 2);
      Push(Kind::kComment, close == std::string_view::npos ? src_.size() : close + 2);
      return;
    }
    if (c == '#' && at_line_start_ && !directive_) {
      directive_ = true;
      expect_directive_name_ = true;
      Push(Kind::kPunct, pos_ + 1);
      return;
    }
    if (c == '<' && header_name_allowed_) {
      header_name_allowed_ = false;
      size_t i = pos_ + 1;
      while (i < src_.size() && src_[i] != '>' && src_[i] != '\n') ++i;
      if (At(i) == '>') {
        Push(Kind::kHeader, i + 1);
        return;
      }
    }
    header_name_allowed_ = false;
    if (c == '"') {
      Push(Kind::kString, QuotedEnd(pos_, '"'));
      return;
    }
    if (c == '\'') {
      Push(Kind::kChar, QuotedEnd(pos_, '\''));
      return;
    }
    if (IsDigit(static_cast<unsigned char>(c)) ||
        (c == '.' && IsDigit(static_cast<unsigned char>(At(pos_ + 1))))) {
      Push(Kind::kNumber, NumberEnd(pos_ + 1));
      return;
    }
    if (IsIdentStart(static_cast<unsigned char>(c))) {
      size_t i = pos_;
      while (i < src_.size() && IsIdentChar(static_cast<unsigned char>(src_[i]))) ++i;
      const std::string_view word = src_.substr(pos_, i - pos_);
      // Encoding prefixes glue onto the literal that follows them.
      if (At(i) == '"' &&
          (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
        Push(Kind::kString, RawStringEnd(i));
        return;
      }
      if ((At(i) == '"' || At(i) == '\'') &&
          (word == "u8" || word == "u" || word == "U" || word == "L")) {
        Push(At(i) == '"' ? Kind::kString : Kind::kChar, QuotedEnd(i, At(i)));
        return;
      }
      if (expect_directive_name_) {
        expect_directive_name_ = false;
        define_ = word == "define";
        Push(Kind::kIdent, i);
        header_name_allowed_ = word == "include" || word == "include_next" || word == "import";
        return;
      }
      Push(Kind::kIdent, i);
      return;
    }
    expect_directive_name_ = false;
    if (c == ':' && At(pos_ + 1) == ':') {
      Push(Kind::kPunct, pos_ + 2);
      return;
    }
    Push(Kind::kPunct, pos_ + 1);
  }

  std::string_view src_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
  bool directive_ = false;
  bool define_ = false;
  bool expect_directive_name_ = false;
  bool header_name_allowed_ = false;
};

}  // namespace lngrad::asc_compiler::lexing
