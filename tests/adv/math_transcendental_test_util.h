// Test helpers of the transcendental math API tests (math_transcendental_*_test.cpp): the
// products, inputs, a one-block runner and comparisons against a float64 oracle with a bound in
// ulps of the operand type or an absolute one.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "math_api_test_util.h"

namespace lngrad::adv::testing {

inline const char* const kSocs[] = {k910B, k950};

// n values uniform in [lo, hi) (repeat_test_util.h's generator).
template <typename T>
std::vector<T> Uniform(uint32_t seed, uint32_t n, float lo, float hi) {
  return lngrad::aicore::test::RandomValues<T>(seed, n, lo, hi);
}

// 2^e with e uniform in [lo, hi), times a uniform mantissa in [1, 2).
template <typename T>
std::vector<T> LogUniform(uint32_t seed, uint32_t n, int lo, int hi) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> e(lo, hi - 1);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  std::vector<T> v(n);
  for (auto& x : v) x = T(std::ldexp(m(gen), e(gen)));
  return v;
}

// One ulp of T at the value v (the spacing of T's values in v's binade; subnormal spacing
// below the normal range).
template <typename T>
double UlpAt(double v) {
  const bool is_float = std::is_same_v<T, float>;
  const int digits = is_float ? 23 : 10, min_exp = is_float ? -126 : -14;
  const int e = v == 0 ? min_exp : std::max(std::ilogb(v), min_exp);
  return std::ldexp(1.0, e - digits);
}

template <typename T>
double MaxFinite() {
  return std::is_same_v<T, float> ? 3.4028234663852886e38 : 65504.0;
}

// The error of got against the oracle's want, or 0 when both are the same special (NaN, or an
// infinity that T's rounding of want also gives); infinity on a mismatch.
template <typename T>
double ErrorOf(T got, double want) {
  const double g = D(got);
  if (std::isnan(want) || std::isnan(g)) return std::isnan(want) && std::isnan(g) ? 0 : INFINITY;
  const double overflow = MaxFinite<T>() + UlpAt<T>(MaxFinite<T>()) / 2;
  if (std::isinf(g) || std::isinf(want)) {
    const bool want_inf = std::fabs(want) >= overflow;
    return want_inf && std::isinf(g) && (g > 0) == (want > 0) ? 0 : INFINITY;
  }
  return std::fabs(g - want);
}

// Every element within `ulps` ulps of T at the oracle's value.
template <typename T>
void ExpectWithinUlps(const std::vector<T>& in, const std::vector<T>& got,
                      const std::function<double(double)>& oracle, double ulps,
                      const std::string& what) {
  for (size_t i = 0; i < in.size(); ++i) {
    const double want = oracle(D(in[i]));
    const double err = ErrorOf(got[i], want);
    if (err > ulps * UlpAt<T>(want)) {
      ADD_FAILURE() << what << ": element " << i << " x = " << D(in[i]) << " gives " << D(got[i])
                    << ", oracle " << want << ": " << err / UlpAt<T>(want) << " ulps > " << ulps;
      return;
    }
  }
}

// Every element within `abs` of the oracle's value.
template <typename T>
void ExpectWithinAbs(const std::vector<T>& in, const std::vector<T>& got,
                     const std::function<double(double)>& oracle, double abs,
                     const std::string& what) {
  for (size_t i = 0; i < in.size(); ++i) {
    const double want = oracle(D(in[i]));
    if (ErrorOf(got[i], want) > abs) {
      ADD_FAILURE() << what << ": element " << i << " x = " << D(in[i]) << " gives " << D(got[i])
                    << ", oracle " << want << " (bound " << abs << ")";
      return;
    }
  }
}

// Every element within `abs` or within `ulps` ulps of the oracle's value (the larger).
template <typename T>
void ExpectWithinAbsOrUlps(const std::vector<T>& in, const std::vector<T>& got,
                           const std::function<double(double)>& oracle, double abs, double ulps,
                           const std::string& what) {
  for (size_t i = 0; i < in.size(); ++i) {
    const double want = oracle(D(in[i]));
    if (ErrorOf(got[i], want) > std::max(abs, ulps * UlpAt<T>(want))) {
      ADD_FAILURE() << what << ": element " << i << " x = " << D(in[i]) << " gives " << D(got[i])
                    << ", oracle " << want;
      return;
    }
  }
}

// Runs api(dst, src, sharedTmpBuffer, count) on one block of `soc` (src = in in UB buffer 0,
// dst buffer 1, the scratch buffer 2) and returns dst's first `count` elements.
template <typename T, typename Api>
std::vector<T> RunUnary(const char* soc, const std::vector<T>& in, uint32_t count, Api api) {
  std::vector<T> out;
  lngrad::aicore::test::OnBlock(
      [&](lngrad::aicore::test::Ub& ub) {
        ub.Put<T>(0, in);
        api(ub.Get<T>(1), ub.Get<T>(0), ub.Get<uint8_t>(2), count);
        out = ub.Take<T>(1);
      },
      soc);
  out.resize(count);
  return out;
}

}  // namespace lngrad::adv::testing
