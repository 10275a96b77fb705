// The <<<>>> rewrite: a pass over the tokens of lexer.h's small C++ lexer (enough to know what is
// code, what is a comment or a literal, and what belongs to a preprocessor directive).
#include "rewrite.h"

#include "lexer.h"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lngrad::asc_compiler {
namespace {

using lexing::Kind;
using lexing::Lexer;
using lexing::Token;

class Rewriter {
 public:
  Rewriter(std::string_view src, RewriteResult* result, RewriteOptions options)
      : src_(src), toks_(Lexer(src).Run()), result_(result), options_(options) {
    if (options_.simt) FindLaunchBounds();
    FindKernelCores();
  }

  std::string Run() { return Emit(0, toks_.size()); }

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  static constexpr const char* kPrintf = "::lngrad::aicore::debug::printf";
  static constexpr const char* kUbCast = "::lngrad::aicore::UbCast";

  bool Significant(size_t i) const {
    const Kind k = toks_[i].kind;
    return k != Kind::kSpace && k != Kind::kNewline && k != Kind::kComment;
  }
  std::string_view Text(size_t i) const {
    return src_.substr(toks_[i].begin, toks_[i].end - toks_[i].begin);
  }
  bool IsPunct(size_t i, std::string_view p) const {
    return i < toks_.size() && toks_[i].kind == Kind::kPunct && Text(i) == p;
  }
  // Three adjacent one-character tokens `c` from i: `<<<` or `>>>`.
  bool IsTriple(size_t i, char c) const {
    const std::string_view p(&c, 1);
    return i + 2 < toks_.size() && IsPunct(i, p) && IsPunct(i + 1, p) && IsPunct(i + 2, p) &&
           toks_[i].end == toks_[i + 1].begin && toks_[i + 1].end == toks_[i + 2].begin;
  }
  // The previous significant token at or after `lo`, or kNone.
  size_t PrevSig(size_t i, size_t lo) const {
    while (i > lo) {
      --i;
      if (Significant(i)) return i;
    }
    return kNone;
  }
  size_t NextSig(size_t i, size_t hi) const {
    for (++i; i < hi; ++i) {
      if (Significant(i)) return i;
    }
    return kNone;
  }
  int Newlines(size_t from, size_t to) const {
    int n = 0;
    if (from >= to) return n;
    for (size_t i = toks_[from].begin; i < toks_[to - 1].end; ++i) {
      if (src_[i] == '\n') ++n;
    }
    return n;
  }
  std::string Raw(size_t from, size_t to) const {
    if (from >= to) return {};
    return std::string(src_.substr(toks_[from].begin, toks_[to - 1].end - toks_[from].begin));
  }

  void Error(size_t tok, std::string message) {
    result_->errors.push_back({toks_[tok].line, std::move(message)});
  }

  // The first token of the kernel name that ends right before `<<<` at `launch`: an
  // identifier, optionally qualified (ns::, ::, A<T>::, template) and with template arguments.
  size_t NameStart(size_t launch, size_t lo) {
    size_t j = PrevSig(launch, lo);
    for (;;) {
      if (j == kNone) return kNone;
      if (IsPunct(j, ">")) {
        int angle = 0;
        int nest = 0;
        size_t k = j;
        for (; k != kNone; k = PrevSig(k, lo)) {
          if (IsPunct(k, ")") || IsPunct(k, "]") || IsPunct(k, "}")) {
            ++nest;
          } else if (IsPunct(k, "(") || IsPunct(k, "[") || IsPunct(k, "{")) {
            if (nest == 0) return kNone;
            --nest;
          } else if (nest == 0 && IsPunct(k, ";")) {
            return kNone;
          } else if (nest == 0 && IsPunct(k, ">")) {
            ++angle;
          } else if (nest == 0 && IsPunct(k, "<") && --angle == 0) {
            break;
          }
        }
        if (k == kNone) return kNone;
        j = PrevSig(k, lo);
        if (j == kNone) return kNone;
      }
      if (toks_[j].kind != Kind::kIdent) return kNone;
      size_t start = j;
      size_t p = PrevSig(j, lo);
      if (p != kNone && Text(p) == "template") {
        start = p;
        p = PrevSig(p, lo);
      }
      if (p == kNone || !IsPunct(p, "::")) return start;
      const size_t q = PrevSig(p, lo);
      if (q != kNone && (toks_[q].kind == Kind::kIdent || IsPunct(q, ">"))) {
        j = q;
        continue;
      }
      return p;  // ::kernel
    }
  }

  // The kernel name as one line: significant tokens, one space where the source had any.
  std::string NameText(size_t from, size_t to) const {
    std::string s;
    bool gap = false;
    for (size_t i = from; i < to; ++i) {
      if (!Significant(i)) {
        gap = true;
        continue;
      }
      if (gap && !s.empty()) s += ' ';
      gap = false;
      s += Text(i);
    }
    return s;
  }

  static std::string Quote(std::string_view s) {
    std::string q = "\"";
    for (const char c : s) {
      if (c == '"' || c == '\\') q += '\\';
      q += c;
    }
    return q + "\"";
  }

  // The configuration of the launch whose `<<<` starts at token `launch`: one to three
  // arguments separated by top-level commas, up to `>>>`, as token ranges in *config. Returns
  // the token of `>>>`, or kNone when none closes it.
  size_t LaunchConfig(size_t launch, size_t hi, std::vector<std::pair<size_t, size_t>>* config) {
    size_t arg_begin = launch + 3;
    int nest = 0;
    for (size_t i = arg_begin; i < hi; ++i) {
      if (!Significant(i)) continue;
      if (nest == 0 && IsTriple(i, '>')) {
        config->emplace_back(arg_begin, i);
        return i;
      }
      if (IsPunct(i, "(") || IsPunct(i, "[") || IsPunct(i, "{")) {
        ++nest;
      } else if (IsPunct(i, ")") || IsPunct(i, "]") || IsPunct(i, "}")) {
        if (--nest < 0) break;
      } else if (nest == 0 && IsPunct(i, ";")) {
        break;
      } else if (nest == 0 && IsPunct(i, ",")) {
        config->emplace_back(arg_begin, i);
        arg_begin = i + 1;
      }
    }
    return kNone;
  }

  // The bracket that closes the one at token `open` (of any kind), or kNone.
  size_t ClosingBracket(size_t open, size_t hi) const {
    int nest = 0;
    for (size_t i = open; i < hi; ++i) {
      if (IsPunct(i, "(") || IsPunct(i, "[") || IsPunct(i, "{")) {
        ++nest;
      } else if ((IsPunct(i, ")") || IsPunct(i, "]") || IsPunct(i, "}")) && --nest == 0) {
        return i;
      }
    }
    return kNone;
  }

  // Rewrites the launch whose `<<<` starts at token `launch`; tokens [flushed, ...) are not
  // emitted yet. On success appends the name's prefix and the call to `out` and returns the
  // token after the launch's closing parenthesis; on error returns kNone.
  size_t RewriteOne(size_t launch, size_t flushed, size_t hi, std::string& out) {
    if (toks_[launch].in_directive) {
      Error(launch, toks_[launch].in_define
                        ? "a <<<...>>> kernel launch inside a macro body (#define) cannot be "
                          "rewritten; write the launch outside the macro"
                        : "a <<<...>>> kernel launch inside a preprocessor directive cannot be "
                          "rewritten");
      return kNone;
    }
    const size_t name = NameStart(launch, flushed);
    if (name == kNone) {
      Error(launch,
            "cannot find the kernel name before '<<<' (expected kernel<<<...>>>(...) with the "
            "kernel named by an identifier, optionally qualified and with template arguments)");
      return kNone;
    }
    std::vector<std::pair<size_t, size_t>> config;
    const size_t close = LaunchConfig(launch, hi, &config);
    if (close == kNone) {
      Error(launch, "no '>>>' closes the kernel launch configuration opened by '<<<'");
      return kNone;
    }
    // dynUBufSize (l2ctrl) and stream have defaults, 0 and nullptr (the default stream), as in
    // the vendor's programming guide: <<<numBlocks>>> and <<<numBlocks, 0>>> are launches too.
    const bool simt_launch = options_.simt && config.size() == 4;
    if (config.size() > 3 && !simt_launch) {
      Error(launch,
            options_.simt
                ? "a kernel launch takes three configuration arguments <<<numBlocks, "
                  "dynUbBytes, stream>>> or, for a SIMT kernel, four <<<blocksPerGrid, "
                  "threadsPerBlock, dynUbBytes, stream>>>, found " +
                      std::to_string(config.size()) +
                      " (wrap an argument that holds a comma in parentheses)"
                : "a kernel launch takes at most three configuration arguments "
                  "<<<numBlocks, l2ctrl, stream>>>, found " +
                      std::to_string(config.size()) +
                      (config.size() == 4
                           ? " (a SIMT launch <<<grid, threads, dynUbBytes, stream>>> needs "
                             "--enable-simt)"
                           : " (wrap an argument that holds a comma in parentheses)"));
      return kNone;
    }
    static constexpr const char* kConfigNames[] = {"numBlocks", "l2ctrl", "stream", "stream"};
    for (size_t a = 0; a < config.size(); ++a) {
      const size_t first = NextSig(config[a].first - 1, config[a].second);
      if (first == kNone) {
        Error(launch,
              std::string("the launch configuration argument ") + kConfigNames[a] + " is empty");
        return kNone;
      }
    }
    const size_t open = NextSig(close + 2, hi);
    if (open == kNone || !IsPunct(open, "(")) {
      Error(launch, "expected '(' and the kernel arguments after '>>>'");
      return kNone;
    }
    const size_t args_end = ClosingBracket(open, hi);
    if (args_end == kNone || !IsPunct(args_end, ")")) {
      Error(launch, "the kernel argument list after '>>>' is not closed by ')'");
      return kNone;
    }

    const size_t name_end = PrevSig(launch, flushed) + 1;
    const std::string kernel = NameText(name, name_end);
    out += Raw(flushed, name);
    if (simt_launch) {
      out += "::lngrad::acl::LaunchSimtKernel(" + Quote(kernel) + ", __FILE__, __LINE__, (" +
             LaunchBound(name, name_end) + "), ";
    } else {
      const std::string cores = KernelCores(name, name_end);
      out += "::lngrad::acl::LaunchKernel(" + (cores.empty() ? "" : cores + ", ") + Quote(kernel) +
             ", __FILE__, __LINE__, ";
    }
    out.append(Newlines(name, launch), '\n');
    static constexpr const char* kConfigDefaults[] = {"", "0", "nullptr"};
    for (size_t a = 0; a < (simt_launch ? 4u : 3u); ++a) {
      out += '(' +
             (a < config.size() ? Emit(config[a].first, config[a].second) : kConfigDefaults[a]) +
             ')';
      out += a + 1 < (simt_launch ? 4u : 3u) ? "," : ", ";
    }
    out.append(Newlines(close, open), '\n');
    out += "[&](auto&&... lngrad_args) { " + kernel + "(lngrad_args...); }";
    const std::string args = Emit(open + 1, args_end);
    if (NextSig(open, args_end) != kNone) out += ", ";
    out += args + ')';
    ++result_->launches;
    return args_end + 1;
  }

  // An unqualified call of printf at token i (not a member, not a declaration `int printf(`).
  bool IsPrintfCall(size_t i, size_t lo, size_t hi) const {
    if (toks_[i].kind != Kind::kIdent || Text(i) != "printf") return false;
    if (toks_[i].in_directive && !toks_[i].in_define) return false;
    const size_t next = NextSig(i, hi);
    if (next == kNone || !IsPunct(next, "(")) return false;
    const size_t before = PrevSig(i, lo);
    if (before == kNone) return true;
    if (IsPunct(before, "::") || IsPunct(before, ".") || IsPunct(before, ">") ||
        IsPunct(before, "*") || IsPunct(before, "&") || IsPunct(before, "~")) {
      return false;  // qualified, a member (a.printf, p->printf), or a declarator
    }
    if (toks_[before].kind == Kind::kIdent) {
      const std::string_view w = Text(before);
      return w == "return" || w == "else" || w == "do" || w == "co_return";
    }
    return true;
  }

  // `reinterpret_cast<__ubuf__ ...>` at token i: the register API's samples cast
  // LocalTensor::GetPhyAddr() so, which C++ allows for an integer but not for lngrad's UbAddr.
  bool IsUbufCast(size_t i, size_t hi) const {
    if (toks_[i].kind != Kind::kIdent || Text(i) != "reinterpret_cast") return false;
    const size_t open = NextSig(i, hi);
    if (open == kNone || !IsPunct(open, "<")) return false;
    const size_t type = NextSig(open, hi);
    return type != kNone && Text(type) == "__ubuf__";
  }

  // The function declared from token `from` (up to the '(' after its name, the name's token
  // after `lo`): the name's token when this file defines it (a body follows), else kNone. Each
  // identifier before the name goes to on_word, with the text inside the parentheses that follow
  // __launch_bounds__ and __mix__ (skipped).
  size_t DefinedFunction(size_t from, size_t lo,
                         const std::function<void(std::string_view, std::string)>& on_word) const {
    const size_t n = toks_.size();
    size_t j = from, name = kNone;
    for (; j != kNone && j < n; j = NextSig(j, n)) {
      if (IsPunct(j, ";") || IsPunct(j, "{") || IsPunct(j, "}")) return kNone;
      if (toks_[j].kind == Kind::kIdent &&
          (Text(j) == "__launch_bounds__" || Text(j) == "__mix__")) {
        const size_t open = NextSig(j, n);
        const size_t close = open == kNone ? kNone : ClosingBracket(open, n);
        if (close == kNone || !IsPunct(open, "(")) return kNone;
        on_word(Text(j), NameText(open + 1, close));
        j = close;
        continue;
      }
      if (toks_[j].kind == Kind::kIdent) on_word(Text(j), "");
      if (IsPunct(j, "(")) {
        const size_t prev = PrevSig(j, lo);
        if (prev != kNone && toks_[prev].kind == Kind::kIdent) name = prev;
        break;
      }
    }
    if (name == kNone || j == kNone || j >= n) return kNone;
    const size_t close = ClosingBracket(j, n);
    size_t body = close == kNone ? kNone : NextSig(close, n);
    // A signature chosen by #if/#else before a shared body: past the directives.
    while (body != kNone && toks_[body].in_directive) body = NextSig(body, n);
    return body != kNone && IsPunct(body, "{") ? name : kNone;  // else a declaration
  }

  // --enable-simt: each function defined here with __global__ or __launch_bounds__, its bound
  // (the bound's expression; 1024 for a __global__ function without one).
  void FindLaunchBounds() {
    const size_t n = toks_.size();
    for (size_t i = 0; i < n; ++i) {
      if (toks_[i].kind != Kind::kIdent || toks_[i].in_directive ||
          (Text(i) != "__global__" && Text(i) != "__launch_bounds__")) {
        continue;
      }
      std::string bound;
      const size_t name = DefinedFunction(i, i, [&](std::string_view word, std::string args) {
        if (word == "__launch_bounds__") bound = std::move(args);
      });
      if (name == kNone) continue;
      bounds_[std::string(Text(name))] = bound.empty() ? "1024" : bound;
    }
  }

  // The kernel named by tokens [from, to): its last identifier outside template arguments.
  std::string_view LastName(size_t from, size_t to) const {
    int angle = 0;
    size_t last = kNone;
    for (size_t i = from; i < to; ++i) {
      if (IsPunct(i, "<")) ++angle;
      if (IsPunct(i, ">")) --angle;
      if (angle == 0 && toks_[i].kind == Kind::kIdent && Text(i) != "template") last = i;
    }
    return last == kNone ? std::string_view() : Text(last);
  }
  // The launch bound of the kernel named by tokens [from, to), looked up in bounds_; "0" when
  // this file does not define it.
  std::string LaunchBound(size_t from, size_t to) const {
    const auto it = bounds_.find(LastName(from, to));
    return it == bounds_.end() ? "0" : it->second;
  }
  // Its cores (::lngrad::aicore::CoreSplit{...}) when this file defines it with __cube__ or
  // __mix__(aic, aiv); "" otherwise (a vector kernel).
  std::string KernelCores(size_t from, size_t to) const {
    const auto it = cores_.find(LastName(from, to));
    if (it == cores_.end()) return "";
    if (it->second == kMixUnlessCubeOnly) return it->second;
    return "::lngrad::aicore::CoreSplit{" + it->second + "}";
  }

  // The identifier `word` in the body of the function named at token `name`: its token, or
  // kNone; *end receives the body's closing brace.
  size_t FindInBody(size_t name, std::string_view word, size_t* end) const {
    const size_t n = toks_.size();
    const size_t params = NextSig(name, n);
    const size_t close = params == kNone ? kNone : ClosingBracket(params, n);
    const size_t body = close == kNone ? kNone : NextSig(close, n);
    *end = body == kNone ? kNone : ClosingBracket(body, n);
    for (size_t j = body; j != kNone && *end != kNone && j < *end; j = NextSig(j, *end)) {
      if (toks_[j].kind == Kind::kIdent && Text(j) == word) return j;
    }
    return kNone;
  }

  // At token i, `ICPU_RUN_KF ( kernel ,` of a kernel this file types: its CoreSplit expression,
  // else "".
  std::string IcpuRunKfCores(size_t i, size_t hi) const {
    if (toks_[i].kind != Kind::kIdent || toks_[i].in_directive || Text(i) != "ICPU_RUN_KF") {
      return "";
    }
    const size_t open = NextSig(i, hi);
    const size_t name = open == kNone ? kNone : NextSig(open, hi);
    const size_t comma = name == kNone ? kNone : NextSig(name, hi);
    if (comma == kNone || !IsPunct(open, "(") || !IsPunct(comma, ",")) return "";
    return KernelCores(name, name + 1);
  }

  // The cores KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_...) in the body of the function named at
  // token `name` asks for ("" when it has none); it wins over the qualifier.
  std::string TaskTypeInBody(size_t name) const {
    static const std::map<std::string_view, const char*> kTypes = {
        {"KERNEL_TYPE_AIV_ONLY", "0, 1, false"},   {"KERNEL_TYPE_AIC_ONLY", "1, 0, false"},
        {"KERNEL_TYPE_MIX_AIV_1_0", "0, 1, true"}, {"KERNEL_TYPE_MIX_AIC_1_0", "1, 0, true"},
        {"KERNEL_TYPE_MIX_AIC_1_1", "1, 1, true"}, {"KERNEL_TYPE_MIX_AIC_1_2", "1, 2, true"}};
    size_t end = kNone;
    const size_t j = FindInBody(name, "KERNEL_TASK_TYPE_DEFAULT", &end);
    const size_t open = j == kNone ? kNone : NextSig(j, end);
    const size_t type = open == kNone ? kNone : NextSig(open, end);
    if (type == kNone || !IsPunct(open, "(")) return "";
    const auto it = kTypes.find(Text(type));
    return it == kTypes.end() ? "" : it->second;
  }

  // A kernel with no type of its own that registers a Matmul object (REGIST_MATMUL_OBJ in its
  // body) in a file that does not define ASCENDC_CUBE_ONLY is a mixed kernel, one AIC and two
  // AIVs per AI core, as the device compiler makes it (the kit's __aicore__ Matmul samples
  // launch usedCoreNum / 2 cores for usedCoreNum AIVs): "1, 2, true". A file whose directives
  // name ASCENDC_CUBE_ONLY (perhaps under #if) gets the split chosen where the kernel is
  // launched, by whether the macro is defined there (lngrad_matmul/matmul.h, MixUnlessCubeOnly).
  std::string MatmulMixKernel(size_t name) const {
    size_t end = kNone;
    if (FindInBody(name, "REGIST_MATMUL_OBJ", &end) == kNone) return "";
    for (size_t j = 0; j < toks_.size(); ++j) {
      if (toks_[j].in_directive && Text(j) == "ASCENDC_CUBE_ONLY") return kMixUnlessCubeOnly;
    }
    return "1, 2, true";
  }
  static constexpr const char* kMixUnlessCubeOnly =
      "::lngrad::matmul::MixUnlessCubeOnly(LNGRAD_MATMUL_STR(ASCENDC_CUBE_ONLY))";

  // Each function defined here with __global__ and __cube__ or __mix__(aic, aiv) among the
  // qualifiers of its declaration, or KERNEL_TASK_TYPE_DEFAULT in its body, or a Matmul object
  // registered in an untyped kernel (MatmulMixKernel): "1, 0, false" or "aic, aiv, true".
  void FindKernelCores() {
    const size_t n = toks_.size();
    for (size_t i = 0; i < n; ++i) {
      if (toks_[i].kind != Kind::kIdent || toks_[i].in_directive || Text(i) != "__global__") {
        continue;
      }
      size_t start = i;  // back to the end of the previous declaration
      for (size_t p = PrevSig(i, 0); p != kNone && !IsPunct(p, ";") && !IsPunct(p, "{") &&
                                     !IsPunct(p, "}") && !toks_[p].in_directive;
           p = PrevSig(p, 0)) {
        start = p;
      }
      std::string cores;
      const size_t name = DefinedFunction(start, i, [&](std::string_view word, std::string args) {
        if (word == "__cube__") cores = "1, 0, false";
        if (word == "__mix__") cores = std::move(args) + ", true";
      });
      if (name == kNone) continue;
      const std::string typed = TaskTypeInBody(name);
      if (!typed.empty()) cores = typed == "0, 1, false" ? "" : typed;
      if (typed.empty() && cores.empty()) cores = MatmulMixKernel(name);
      if (!cores.empty()) cores_[std::string(Text(name))] = cores;
    }
  }

  // Whether the braces around token i are a function body or a block inside one.
  bool InCode(size_t i) const {
    std::vector<bool> code;  // the open braces before i: code or not
    for (size_t j = 0; j < i; ++j) {
      if (IsPunct(j, "}")) {
        if (!code.empty()) code.pop_back();
        continue;
      }
      if (!IsPunct(j, "{")) continue;
      if (!code.empty() && code.back()) {
        code.push_back(true);
        continue;
      }
      const size_t prev = PrevSig(j, 0);
      const std::string_view p = prev == kNone ? std::string_view() : Text(prev);
      code.push_back(p == ")" || p == "const" || p == "noexcept" || p == "override" ||
                     p == "final" || p == "mutable" || p == "try" || p == "do" || p == "else");
    }
    return !code.empty() && code.back();
  }

  // The address spaces whose arrays a kernel may declare: the UB, and the cube's memories (the
  // C API's `__cbuf__` L1, `__ca__` L0A, `__cb__` L0B, `__cc__` L0C, `__fbuf__` Fixpipe Buffer;
  // the tensor API's `__biasbuf__` BiasTable) with their positions.
  static const char* CubePosition(std::string_view space) {
    if (space == "__cbuf__") return "A1";
    if (space == "__ca__") return "A2";
    if (space == "__cb__") return "B2";
    if (space == "__cc__") return "CO1";
    if (space == "__fbuf__") return "C2PIPE2GM";
    if (space == "__biasbuf__") return "C2";
    return nullptr;
  }
  static bool IsArraySpace(std::string_view space) {
    return space == "__ubuf__" || CubePosition(space) != nullptr;
  }

  // A statement that starts with `__ubuf__` (or another IsArraySpace) or `extern __ubuf__` at
  // token i.
  bool IsUbufStatement(size_t i, size_t lo) const {
    if (toks_[i].kind != Kind::kIdent || toks_[i].in_directive) return false;
    size_t k = i;
    if (Text(i) == "extern") {
      k = NextSig(i, toks_.size());
      if (k == kNone) return false;
    }
    if (toks_[k].kind != Kind::kIdent || !IsArraySpace(Text(k))) return false;
    if (Text(k) != "__ubuf__" && Text(i) == "extern") return false;
    const size_t prev = PrevSig(i, lo);
    if (prev != kNone && !IsPunct(prev, ";") && !IsPunct(prev, "{") && !IsPunct(prev, "}")) {
      return false;
    }
    return Text(i) == "extern" || InCode(i);
  }

  // Rewrites the __ubuf__ declaration statement at token i (see rewrite.h); kNone when it is no
  // block-shared declaration (a pointer, a function) and leaves it as it is.
  size_t RewriteUbuf(size_t i, size_t flushed, size_t hi, std::string& out) {
    const bool is_extern = Text(i) == "extern";
    const size_t ubuf = is_extern ? NextSig(i, hi) : i;
    std::vector<std::vector<size_t>> decls(1);  // the significant tokens of each declarator
    int bracket = 0;
    int angle = 0;
    size_t end = kNone;
    for (size_t j = NextSig(ubuf, hi); j != kNone; j = NextSig(j, hi)) {
      if (bracket == 0 && IsPunct(j, ";")) {
        end = j;
        break;
      }
      if (IsPunct(j, "[")) ++bracket;
      if (IsPunct(j, "]")) --bracket;
      if (bracket == 0 && IsPunct(j, "<")) ++angle;
      if (bracket == 0 && IsPunct(j, ">")) --angle;
      if (bracket == 0 && (IsPunct(j, "(") || IsPunct(j, ")") || IsPunct(j, "*") ||
                           IsPunct(j, "&") || IsPunct(j, "{") || IsPunct(j, "}"))) {
        return kNone;
      }
      if (bracket == 0 && IsPunct(j, "=")) {
        Error(j, "a __ubuf__ variable is block-shared UB and cannot have an initializer");
        return kNone;
      }
      if (bracket == 0 && angle == 0 && IsPunct(j, ",")) {
        decls.emplace_back();
        continue;
      }
      decls.back().push_back(j);
    }
    if (end == kNone) return kNone;
    // The first declarator holds the type: the tokens before the name (the identifier before the
    // first '[', or the last one).
    std::vector<size_t>& first = decls.front();
    size_t name_at = first.size();
    for (size_t k = 0; k < first.size(); ++k) {
      if (IsPunct(first[k], "[")) break;
      name_at = k;
    }
    if (name_at == 0 || name_at >= first.size() || toks_[first[name_at]].kind != Kind::kIdent) {
      return kNone;
    }
    const std::string type = NameText(first.front(), first[name_at - 1] + 1);
    first.erase(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(name_at));
    // Outside a function the dynamic UB has no block yet: the name becomes a macro that asks
    // for it where it is used (a pointer as before, so every use of an array still compiles).
    const bool at_scope = is_extern && !InCode(i);
    std::string stmt;
    for (const std::vector<size_t>& d : decls) {
      if (d.empty() || toks_[d.front()].kind != Kind::kIdent) return kNone;
      const std::string name(Text(d.front()));
      const std::string extents = d.size() > 1 ? NameText(d[1], d.back() + 1) : "";
      if (is_extern) {
        if (extents != "[ ]" && extents != "[]") return kNone;
        if (at_scope) {
          stmt += "\n#define " + name + " (::lngrad::simt::DynamicArray<" + type + ">(" +
                  Quote(name) + "))";
          continue;
        }
        stmt += type + "* const " + name + " = ::lngrad::simt::DynamicArray<" + type + ">(" +
                Quote(name) + "); ";
      } else if (const char* pos = CubePosition(Text(ubuf))) {
        stmt += "auto& " + name + " = ::lngrad::cube::CubeArray<" + type + extents +
                ">(::lngrad::cube::ArrayKey([] {}), " + Quote(name) +
                ", ::AscendC::TPosition::" + pos + "); ";
      } else {
        stmt += "auto& " + name + " = ::lngrad::simt::BlockArray<" + type + extents +
                ">(::lngrad::simt::BlockKey([] {}), " + Quote(name) + "); ";
      }
    }
    out += Raw(flushed, i);
    out += stmt;
    if (at_scope) {
      // The rest of the statement's last line keeps its number.
      out += "\n#line " + std::to_string(toks_[end].line) + "\n";
    } else {
      out.append(Newlines(i, end + 1), '\n');
    }
    return end + 1;
  }

  // Tokens [lo, hi) with their launches, unqualified printf calls and UB casts rewritten.
  std::string Emit(size_t lo, size_t hi) {
    std::string out;
    size_t flushed = lo;
    for (size_t i = lo; i < hi;) {
      const bool ubCast = IsUbufCast(i, hi);
      if (ubCast || IsPrintfCall(i, lo, hi)) {
        out += Raw(flushed, i);
        out += ubCast ? kUbCast : kPrintf;
        flushed = ++i;
        if (!ubCast) ++result_->printfs;
        continue;
      }
      if (const std::string cores = IcpuRunKfCores(i, hi); !cores.empty()) {
        // ICPU_RUN_KF(kernel, ...) of a typed kernel: with its cores.
        out += Raw(flushed, i);
        out += "LNGRAD_ICPU_RUN_KF_CORES((" + cores + "), ";
        flushed = i = NextSig(i, hi) + 1;  // past "ICPU_RUN_KF ("
        continue;
      }
      if ((options_.simt || options_.block_ub) && IsUbufStatement(i, lo)) {
        const size_t next = RewriteUbuf(i, flushed, hi, out);
        if (next != kNone) {
          flushed = i = next;
          continue;
        }
      }
      if (!IsTriple(i, '<')) {
        ++i;
        continue;
      }
      // operator<<<T> names a template specialisation of operator<<, not a launch.
      const size_t before = PrevSig(i, lo);
      if (before != kNone && Text(before) == "operator") {
        i += 2;
        continue;
      }
      const size_t next = RewriteOne(i, flushed, hi, out);
      if (next == kNone) {
        i += 3;
        continue;
      }
      flushed = i = next;
    }
    out += Raw(flushed, hi);
    return out;
  }

  std::string_view src_;
  std::vector<Token> toks_;
  RewriteResult* result_;
  RewriteOptions options_;
  std::map<std::string, std::string, std::less<>> bounds_;  // kernel name -> launch bound
  std::map<std::string, std::string, std::less<>> cores_;   // kernel name -> its CoreSplit
};

}  // namespace

RewriteResult RewriteLaunches(std::string_view source, std::string_view file,
                              RewriteOptions options) {
  RewriteResult result;
  // A UTF-8 byte order mark may only start a file; the #line directive comes first now.
  if (source.substr(0, 3) == "\xEF\xBB\xBF") source.remove_prefix(3);
  std::string name;
  for (const char c : file) {
    if (c == '"' || c == '\\') name += '\\';
    name += c;
  }
  result.text = "#line 1 \"" + name + "\"\n";
  result.text += Rewriter(source, &result, options).Run();
  return result;
}

std::string FormatDiagnostic(std::string_view file, const Diagnostic& d) {
  return std::string(file) + ":" + std::to_string(d.line) + ": error: " + d.message;
}

}  // namespace lngrad::asc_compiler
