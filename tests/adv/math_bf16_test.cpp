// The bfloat16_t forms of Power and Hypot (lib/math/power.h, hypot.h; Ascend 950 only) against a
// float64 oracle: both compute in float and round once to bfloat16 (Power CAST_RINT, Hypot
// CAST_RINT with saturation), and the float sequences' relative errors (Power: about
// |y ln x| 2^-24, at most 2^-17 here; Hypot: an ulp of float) are far below bfloat16's 2^-8:
// within 0.502 ulps of bfloat16 at the oracle's value. Checked mode refuses both on arch 2201,
// and Power's 950-only integer types there too.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "math_transcendental_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

constexpr uint32_t kCount = 1000;

double UlpBf16(double v) {
  const int e = v == 0 ? -126 : std::max(std::ilogb(v), -126);
  return std::ldexp(1.0, e - 7);
}

void ExpectBf16Within(const std::vector<bfloat16_t>& x, const std::vector<bfloat16_t>& y,
                      const std::vector<bfloat16_t>& got,
                      const std::function<double(double, double)>& oracle,
                      const std::string& what) {
  for (size_t i = 0; i < got.size(); ++i) {
    const double want = oracle(static_cast<float>(x[i]), static_cast<float>(y[i]));
    const double g = static_cast<float>(got[i]);
    if (!(std::fabs(g - want) <= 0.502 * UlpBf16(want))) {
      ADD_FAILURE() << what << ": element " << i << " x = " << static_cast<float>(x[i])
                    << " y = " << static_cast<float>(y[i]) << " gives " << g << ", oracle " << want;
      return;
    }
  }
}

// Runs f(dst, x, y, tmp) on the 950 and returns dst's first kCount elements.
template <typename F>
std::vector<bfloat16_t> RunBf16(const std::vector<bfloat16_t>& x, const std::vector<bfloat16_t>& y,
                                F f) {
  std::vector<bfloat16_t> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<bfloat16_t>(0, x);
        ub.Put<bfloat16_t>(1, y);
        f(ub.Get<bfloat16_t>(2), ub.Get<bfloat16_t>(0), ub.Get<bfloat16_t>(1), ub.Get<uint8_t>(3));
        out = ub.Take<bfloat16_t>(2);
      },
      k950);
  out.resize(kCount);
  return out;
}

TEST(MathBf16, PowerEveryFormWithinHalfAnUlp) {
  const auto x = Uniform<bfloat16_t>(1, kCount, 0.05f, 8.0f);
  const auto y = Uniform<bfloat16_t>(2, kCount, -6.0f, 6.0f);
  const std::vector<bfloat16_t> xs(kCount, x[3]), ys(kCount, y[3]);
  const auto pow = [](double a, double b) { return std::pow(a, b); };
  ExpectBf16Within(x, y,
                   RunBf16(x, y, [](auto d, auto a, auto b, auto t) { Power(d, a, b, t, kCount); }),
                   pow, "tensor^tensor");
  ExpectBf16Within(x, y, RunBf16(x, y, [](auto d, auto a, auto b, auto) { Power(d, a, b); }), pow,
                   "tensor^tensor, stack");
  ExpectBf16Within(
      x, ys, RunBf16(x, y, [&](auto d, auto a, auto, auto t) { Power(d, a, ys[0], t, kCount); }),
      pow, "tensor^scalar");
  ExpectBf16Within(xs, y,
                   RunBf16(x, y, [&](auto d, auto, auto b, auto) { Power(d, xs[0], b, kCount); }),
                   pow, "scalar^tensor");
  // Negative bases with integral exponents keep the sign of the odd powers.
  const std::vector<bfloat16_t> nx(kCount, bfloat16_t(-1.5f)), iy(kCount, bfloat16_t(3.0f));
  ExpectBf16Within(nx, iy,
                   RunBf16(nx, iy, [](auto d, auto a, auto b, auto) { Power(d, a, b, kCount); }),
                   pow, "negative base");
}

TEST(MathBf16, HypotWithinHalfAnUlpAndSaturates) {
  const auto x = Uniform<bfloat16_t>(3, kCount, -1e30f, 1e30f);
  const auto y = LogUniform<bfloat16_t>(4, kCount, -60, 90);
  const auto hyp = [](double a, double b) { return std::hypot(a, b); };
  ExpectBf16Within(x, y,
                   RunBf16(x, y, [](auto d, auto a, auto b, auto t) { Hypot(d, a, b, t, kCount); }),
                   hyp, "Hypot");
  ExpectBf16Within(x, y, RunBf16(x, y, [](auto d, auto a, auto b, auto) { Hypot(d, a, b); }), hyp,
                   "Hypot, no scratch");
  // Beyond bfloat16's largest finite value the result saturates to it; infinities give +inf.
  const std::vector<bfloat16_t> big(kCount, bfloat16_t(3.0e38f));
  std::vector<bfloat16_t> inf = big;
  inf[0] = bfloat16_t(-std::numeric_limits<float>::infinity());
  const auto out = RunBf16(big, inf, [](auto d, auto a, auto b, auto) { Hypot(d, a, b); });
  EXPECT_EQ(static_cast<float>(out[0]), std::numeric_limits<float>::infinity());
  EXPECT_EQ(static_cast<float>(out[1]), static_cast<float>(std::numeric_limits<bfloat16_t>::max()));
}

TEST(MathBf16, RefusedOffThe950) {
  ExpectCheck(
      [](Ub& ub) {
        Power(ub.Get<bfloat16_t>(2), ub.Get<bfloat16_t>(0), ub.Get<bfloat16_t>(1), 64);
      },
      "product", "Ascend 950");
  ExpectCheck([](Ub& ub) { Power(ub.Get<int8_t>(2), ub.Get<int8_t>(0), ub.Get<int8_t>(1), 64); },
              "product", "Ascend 950");
  ExpectCheck(
      [](Ub& ub) {
        Hypot(ub.Get<bfloat16_t>(2), ub.Get<bfloat16_t>(0), ub.Get<bfloat16_t>(1), 64);
      },
      "product", "Ascend 950");
  // half, float and int32_t stay on every product.
  ExpectCheck([](Ub& ub) { Power(ub.Get<int32_t>(2), ub.Get<int32_t>(0), ub.Get<int32_t>(1), 64); },
              "", "");
}

}  // namespace
