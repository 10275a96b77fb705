// lngrad-asc: the source rewrite of an Ascend C (.asc) file into C++ for the simulated device.
//
// Every kernel launch `kernel<A, B><<<blocks, l2ctrl, stream>>>(a1, a2)` becomes a call of the
// ACL runtime's launcher (include/ascendc/lngrad_acl/launch.h):
//   ::lngrad::acl::LaunchKernel("kernel<A, B>", __FILE__, __LINE__, (blocks), (l2ctrl), (stream),
//       [&](auto&&... lngrad_args) { kernel<A, B>(lngrad_args...); }, a1, a2)
// A configuration of one or two arguments gets the documented defaults of the others:
// <<<blocks>>> is <<<blocks, 0, nullptr>>>, <<<blocks, size>>> is <<<blocks, size, nullptr>>>
// (nullptr: the default stream). Every unqualified call `printf(` (not `x.printf(`, `ns::printf(`
// or a declaration `int printf(`) becomes `::lngrad::aicore::debug::printf(`, the kernel printf
// of utils/debug/asc_printf.h (which prints like the C library's in host code): with nothing
// after the format the C library's printf would win overload resolution against the kernel's.
// `reinterpret_cast<__ubuf__ T*>(x)` becomes `::lngrad::aicore::UbCast<__ubuf__ T*>(x)`
// (lngrad_aicore/tensor.h): kernels cast LocalTensor::GetPhyAddr() so, a class on lngrad.
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
  int printfs = 0;                 // unqualified printf calls rewritten
};

// Rewrites the launches of `source`; `file` is the name the #line directive gives the output
// (so also its __FILE__). Launches inside a preprocessor directive (a #define body, also on its
// continuation lines) are errors, as are launches whose kernel name, configuration or argument
// list cannot be read; the message says what was expected. A launch may sit inside the
// configuration or the arguments of another one.
//
// With `simt` (lngrad-asc --enable-simt), a launch of four arguments
// `kernel<<<grid, threads, dynUbBytes, stream>>>(args)` becomes a call of
// ::lngrad::acl::LaunchSimtKernel with the kernel's __launch_bounds__ (from its definition in the
// same file: the bound's expression, 1024 when it has none, 0 when the file does not define it);
// and the block-shared UB declarations inside functions become block storage: a statement
// `__ubuf__ T name[N]...;` (or a scalar `__ubuf__ T name;`) becomes
// `auto& name = ::lngrad::simt::BlockArray<T[N]...>(<key of this declaration>, "name");` and
// `extern __ubuf__ T name[];` becomes `T* const name = ::lngrad::simt::DynamicArray<T>("name");`
// (the launch's dynamic UB). `__ubuf__` pointers and parameters are left alone; a `__ubuf__`
// variable with an initializer is an error.
// The C API's cube arrays (`__cbuf__`, `__ca__`, `__cb__`, `__cc__`, `__fbuf__ T name[N];` in a
// function) become `auto& name = ::lngrad::cube::CubeArray<T[N]>(<key>, "name", <position>);`.
// `block_ub` alone (lngrad-asc sets it for every build: vector kernels of the C API declare UB
// arrays too, and hybrid SIMD + SIMT kernels, whose C-API front door excludes --enable-simt)
// rewrites the __ubuf__ declarations as `simt` does and leaves the launches in their vector form.
// It also rewrites the cube memories' array declarations inside functions (`__cbuf__` L1,
// `__ca__` L0A, `__cb__` L0B, `__cc__` L0C, `__fbuf__` Fixpipe Buffer, `__biasbuf__` BiasTable):
// `__cbuf__ T name[N];` becomes `auto& name = ::lngrad::cube::CubeArray<T[N]>(
// ::lngrad::cube::ArrayKey([] {}), "name", ::AscendC::TPosition::A1);`, an array in the running
// block's memory (lngrad_cube/cube.h).
struct RewriteOptions {
  bool simt = false;
  bool block_ub = false;
};
RewriteResult RewriteLaunches(std::string_view source, std::string_view file,
                              RewriteOptions options = {});

// "<file>:<line>: error: <message>", the form compilers and IDEs recognise.
std::string FormatDiagnostic(std::string_view file, const Diagnostic& d);

}  // namespace lngrad::asc_compiler
