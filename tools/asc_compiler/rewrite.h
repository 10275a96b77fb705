// lngrad-asc: the source rewrite of an Ascend C (.asc) file into C++ for the simulated device.
//
// Every kernel launch `kernel<A, B><<<blocks, l2ctrl, stream>>>(a1, a2)` becomes a call of the
// ACL runtime's launcher (include/ascendc/lngrad_acl/launch.h):
//   ::lngrad::acl::LaunchKernel("kernel<A, B>", __FILE__, __LINE__, (blocks), (l2ctrl), (stream),
//       [&](auto&&... lngrad_args) { kernel<A, B>(lngrad_args...); }, a1, a2)
// Nothing else changes: comments, string, character and raw string literals are copied as they
// are, and every newline of the input is kept, so with the leading #line directive each line of
// the output is the same line of the .asc (compiler errors, __LINE__ and gdb point into it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lngrad::asc_compiler {

// A launch that cannot be rewritten, at a 1-based line of the input.
struct Diagnostic {
  int line = 0;
  std::string message;
};

struct RewriteResult {
  std::string text;                // `#line 1 "<file>"` and the rewritten source
  std::vector<Diagnostic> errors;  // when not empty, `text` must not be compiled
  int launches = 0;                // launches rewritten
};

// Rewrites the launches of `source`; `file` is the name the #line directive gives the output
// (so also its __FILE__). Launches inside a preprocessor directive (a #define body, also on its
// continuation lines) are errors, as are launches whose kernel name, configuration or argument
// list cannot be read; the message says what was expected. A launch may sit inside the
// configuration or the arguments of another one.
RewriteResult RewriteLaunches(std::string_view source, std::string_view file);

// "<file>:<line>: error: <message>", the form compilers and IDEs recognise.
std::string FormatDiagnostic(std::string_view file, const Diagnostic& d);

}  // namespace lngrad::asc_compiler
