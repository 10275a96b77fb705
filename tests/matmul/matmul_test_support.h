// What the Matmul tests share: one AI core's launch with its failures as text, and the float64
// oracle of a half product with its bound.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace lngrad::matmul_test {

// `kernel` on one AI core of `soc` (its AIC and AIVs where `split` says so); "" when it passed,
// else "failed: " and each block's "[check] message".
inline std::string RunOneCore(const char* soc, const char* name,
                              const std::function<void()>& kernel,
                              std::optional<lngrad::aicore::CoreSplit> split = std::nullopt) {
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  if (split) o.split = *split;
  std::vector<lngrad::aicore::BlockFailure> failures;
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks(name, 1, kernel, o, &failures);
  std::string text = s.ok() ? "" : "failed: ";
  for (const auto& f : failures) text += "[" + f.check + "] " + f.message + "\n";
  return text;
}

// Random half A (m x k) and B (k x n), row-major logical values in [-2, 2), and their product in
// float64 with the bound 2^-24 (2k + 1) sum|a b| of the cube's float accumulation.
struct HalfProduct {
  std::vector<half> a, b;
  std::vector<double> c, bound;
  HalfProduct(int32_t m, int32_t k, int32_t n, unsigned seed)
      : a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n), bound(c.size()) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(-2.0f, 2.0f);
    for (auto& x : a) x = half(d(g));
    for (auto& x : b) x = half(d(g));
    for (int32_t i = 0; i < m; ++i) {
      for (int32_t j = 0; j < n; ++j) {
        double s = 0, mag = 0;
        for (int32_t q = 0; q < k; ++q) {
          const double p = static_cast<double>(static_cast<float>(a[size_t(i) * k + q])) *
                           static_cast<float>(b[size_t(q) * n + j]);
          s += p;
          mag += std::fabs(p);
        }
        c[size_t(i) * n + j] = s;
        bound[size_t(i) * n + j] = std::ldexp(1.0, -24) * (2.0 * k + 1) * mag;
      }
    }
  }
};

}  // namespace lngrad::matmul_test
