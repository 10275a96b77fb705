// Test helper: runs kernel code as one block of a launch on the named product (the standalone
// block is the default product's); tools: the sanitizer's.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace lngrad::cube::test {

// The launch's failures as "[check] message" lines; "" when it succeeded.
inline std::string RunOn(const char* soc, const std::function<void()>& kernel, uint32_t tools = 0) {
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  o.sanitize = tools;
  std::vector<lngrad::aicore::BlockFailure> failures;
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks("cube", 1, kernel, o, &failures);
  std::string text = s.ok() ? "" : "failed: ";
  for (const auto& f : failures) text += "[" + f.check + "] " + f.message + "\n";
  return text;
}

// A GlobalTensor over v.
template <typename T>
AscendC::GlobalTensor<T> Gm(std::vector<T>& v) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(v.data(), v.size());
  return g;
}

// An L0C tensor (from address 0) of ceil(cols / 16) column blocks ms rows apart, holding
// value(m, n) at row m < rows, column n < cols of its NZ layout.
template <typename T, typename F>
AscendC::LocalTensor<T> NzL0c(uint32_t rows, uint32_t cols, uint32_t ms, F value) {
  AscendC::LocalTensor<T> c(AscendC::TPosition::CO1, 0, (cols + 15) / 16 * ms * 16);
  T* p = static_cast<T*>(c.GetPhyAddr());
  for (uint32_t m = 0; m < rows; ++m) {
    for (uint32_t n = 0; n < cols; ++n) p[(n / 16) * ms * 16 + m * 16 + n % 16] = value(m, n);
  }
  return c;
}

}  // namespace lngrad::cube::test
