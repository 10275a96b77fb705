// GroupNorm (lib/normalization/groupnorm.h) through the Ascend C API on Ascend910B1 and
// Ascend950PR_9599, half and float, both prototypes, small and general shapes, group-chunk
// tails, against a float64 oracle of the documented formula with the bound of
// docs/ascendc_kernels.md; the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "norm_ext_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace norm_ext_test;

struct GnCase {
  uint32_t n, c, h, w, groups;
  uint32_t stackBytes;  // 0: the maximum, 1: the minimum
  bool withTmp;
  bool reuse = false;  // float isReuseSource: tmp size and tiling for two scratch buffers
};

template <typename T>
void CheckGroupNorm(const GnCase& k, const char* soc, uint32_t seed) {
  const uint32_t sz = sizeof(T), hw = k.h * k.w;
  const uint32_t hwa = (hw * sz + 31) / 32 * 32 / sz;
  const uint32_t total = k.n * k.c * hwa, mv = k.n * k.groups, d = k.c / k.groups;
  // x with zero padding after each channel's H*W values.
  const std::vector<T> raw = Random<T>(seed, total);
  std::vector<T> x(total, T(0.0f));
  for (uint32_t ch = 0; ch < k.n * k.c; ++ch) {
    for (uint32_t j = 0; j < hw; ++j) x[ch * hwa + j] = raw[ch * hwa + j];
  }
  const std::vector<T> gamma = Random<T>(seed + 1, k.c, 0.5f, 1.5f);
  const std::vector<T> beta = Random<T>(seed + 2, k.c);
  const T eps = T(1e-3f);
  const ge::Shape shape({k.n, k.c, k.h, k.w});
  uint32_t mx = 0, mn = 0;
  GetGroupNormMaxMinTmpSize(shape, sz, k.reuse, k.groups, mx, mn);
  const uint32_t stack = k.stackBytes == 0 ? mx : k.stackBytes == 1 ? mn : k.stackBytes;
  GroupNormTiling tiling;
  GetGroupNormNDTilingInfo(shape, stack, sz, k.reuse, k.groups, tiling);
  ASSERT_TRUE(lngrad::tiling::LastTilingStatus().ok());
  std::vector<T> y, mean, var;
  const std::string check = RunBlock(soc, [&] {
    Bufs u({total * sz, k.c * sz, k.c * sz, total * sz, mv * sz, mv * sz, stack});
    u.Put(0, x);
    u.Put(1, gamma);
    u.Put(2, beta);
    GroupNormTiling t = tiling;
    if (k.reuse) {
      GroupNorm<T, true>(u.Get<T>(3), u.Get<T>(4), u.Get<T>(5), u.Get<T>(0), u.Get<T>(1),
                         u.Get<T>(2), u.Get<uint8_t>(6), eps, t);
    } else if (k.withTmp) {
      GroupNorm<T, false>(u.Get<T>(3), u.Get<T>(4), u.Get<T>(5), u.Get<T>(0), u.Get<T>(1),
                          u.Get<T>(2), u.Get<uint8_t>(6), eps, t);
    } else {
      GroupNorm<T, false>(u.Get<T>(3), u.Get<T>(4), u.Get<T>(5), u.Get<T>(0), u.Get<T>(1),
                          u.Get<T>(2), eps, t);
    }
    y = u.Take<T>(3, total);
    mean = u.Take<T>(4, mv);
    var = u.Take<T>(5, mv);
  });
  ASSERT_EQ(check, "");
  ASSERT_EQ(y.size(), total);
  const double hu = std::is_same_v<T, half> ? kUh : 0.0;
  const uint32_t cnt = d * hw;
  const int depth = Log2Ceil(d * hwa) + 12;
  for (uint32_t gi = 0; gi < mv; ++gi) {
    const uint32_t base = gi * d * hwa;
    double m = 0, a = 0;
    for (uint32_t e = 0; e < d * hwa; ++e) {
      m += D(x[base + e]);
      a = std::max(a, std::fabs(D(x[base + e])));
    }
    m /= cnt;
    double v = 0;
    for (uint32_t ch = 0; ch < d; ++ch) {
      for (uint32_t j = 0; j < hw; ++j) {
        const double c = D(x[base + ch * hwa + j]) - m;
        v += c * c;
      }
    }
    v /= cnt;
    const double rstd = 1.0 / std::sqrt(v + D(eps));
    const double e = (depth + 4) * kU * a;
    const std::string grp = "group " + std::to_string(gi);
    ExpectWithin(D(mean[gi]), m, (depth + 2) * kU * a + hu * std::fabs(m), "GroupNorm mean " + grp);
    const double dv = 2 * std::sqrt(v) * e + e * e + (depth + 3) * kU * v;
    ExpectWithin(D(var[gi]), v, dv + hu * v, "GroupNorm variance " + grp);
    for (uint32_t ch = 0; ch < d; ++ch) {
      const uint32_t cc = (gi * d + ch) % k.c;
      for (uint32_t j = 0; j < hw; ++j) {
        const double c = D(x[base + ch * hwa + j]) - m;
        const double want = c * rstd * D(gamma[cc]) + D(beta[cc]);
        const double bound =
            std::fabs(D(gamma[cc])) * rstd * (e + std::fabs(c) * (dv / (v + D(eps)) / 2 + 8 * kU)) +
            2 * kU * (std::fabs(want) + std::fabs(D(beta[cc]))) + hu * std::fabs(want);
        ExpectWithin(
            D(y[base + ch * hwa + j]), want, bound,
            "GroupNorm y " + grp + " ch " + std::to_string(ch) + " col " + std::to_string(j));
      }
    }
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(NormExtGroupNorm, FloatAndHalfOnBothArchs) {
  for (const char* soc : {k910B, k950}) {
    SCOPED_TRACE(soc);
    CheckGroupNorm<float>({2, 6, 4, 5, 3, 0, true}, soc, 1);        // small shape
    CheckGroupNorm<float>({2, 6, 4, 5, 3, 4 * 576, true}, soc, 2);  // chunks of 4 groups, tail 2
    CheckGroupNorm<float>({1, 4, 16, 16, 2, 0, false}, soc, 3);     // general: ReduceSum
    CheckGroupNorm<half>({2, 6, 4, 5, 3, 0, true}, soc, 4);
    CheckGroupNorm<half>({2, 4, 9, 9, 2, 0, false}, soc, 5);
    // isReuseSource with the minimum two-buffer scratch of the reuse tiling (the kernel took
    // three buffers and refused it).
    CheckGroupNorm<float>({2, 6, 4, 6, 3, 1, true, true}, soc, 6);
  }
}

TEST(NormExtGroupNorm, Refusals) {
  const ge::Shape shape({1, 4, 4, 4});
  GroupNormTiling t;
  GetGroupNormNDTilingInfo(shape, 4096, 4, false, 2, t);
  auto run = [&](const char* soc, uint32_t tmpBytes) {
    return RunBlock(soc, [&] {
      Bufs u({256, 32, 32, 256, 32, 32, tmpBytes});
      GroupNormTiling tt = t;
      GroupNorm<float>(u.Get<float>(3), u.Get<float>(4), u.Get<float>(5), u.Get<float>(0),
                       u.Get<float>(1), u.Get<float>(2), u.Get<uint8_t>(6), 1e-5f, tt);
    });
  };
  EXPECT_EQ(run(k910B, 4096), "");
  EXPECT_EQ(run(k910B, 1024), "GroupNorm.tmp_buffer");
  EXPECT_EQ(run(k310P, 4096), "GroupNorm.unsupported_product");
  EXPECT_EQ(run(k310B, 4096), "GroupNorm.unsupported_product");
}

}  // namespace
