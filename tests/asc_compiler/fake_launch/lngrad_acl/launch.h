// TEST-ONLY stand-in for include/ascendc/lngrad_acl/launch.h, the ACL runtime's launcher that
// the driver's rewrite calls (written separately, issue 15). Same LaunchKernel signature; the
// arguments are evaluated once, by value, and every block of lngrad::aicore::Launch calls the
// kernel with them. There is no stream here: a failed launch is printed and remembered in
// g_fakeLaunchFailed. Put its directory first on the include path (-I) to use it; once the real
// header exists, drop that -I and this file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <tuple>
#include <utility>

#include "lngrad_aicore/launch.h"

namespace lngrad::acl {

inline bool g_fakeLaunchFailed = false;

template <typename L2Ctrl, typename Stream, typename Body, typename... Args>
void LaunchKernel(const char* kernel, const char* file, int line, uint32_t numBlocks, L2Ctrl&&,
                  Stream&&, Body&& body, Args... args) {
  std::tuple<Args...> values(std::move(args)...);
  const Status st = ::lngrad::aicore::Launch(numBlocks, [&] { std::apply(body, values); });
  if (!st.ok()) {
    std::fprintf(stderr, "%s:%d: launch of %s failed: %s\n", file, line, kernel,
                 st.ToString().c_str());
    g_fakeLaunchFailed = true;
  }
}

}  // namespace lngrad::acl
