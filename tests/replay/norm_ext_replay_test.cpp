// RmsNorm, DeepNorm, BatchNorm, WelfordUpdate and WelfordFinalize of lngrad run as kernels on
// Ascend910B1 (arch 2201), compared bit for bit with the independent replay of the toolkit's
// kernel sources (replay_norm_ext.h): outputs, the memory the kernel clobbers (RmsNorm's
// sharedTmpBuffer, DeepNorm's float x with isReuseSrc, WelfordUpdate's float x with
// isReuseSource) and the tail lengths written back into the tiling. Tilings from lngrad's host
// tiling functions, as tests/adv does. Equal means equal bits, or both NaN (payloads are not
// promised, docs/ascendc_kernels.md §2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "../adv/norm_ext_test_util.h"
#include "kernel_operator.h"
#include "replay_norm_ext.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace norm_ext_test;
namespace rp = lngrad_replay;

template <class T>
using Rp = std::conditional_t<std::is_same_v<T, half>, rp::Half, float>;

template <class T>
Rp<T>* R(std::vector<T>& v) {
  return reinterpret_cast<Rp<T>*>(v.data());
}
template <class T>
const Rp<T>* R(const std::vector<T>& v) {
  return reinterpret_cast<const Rp<T>*>(v.data());
}
template <class T>
Rp<T> R(T v) {
  Rp<T> r;
  std::memcpy(&r, &v, sizeof(T));
  return r;
}

template <class T>
bool IsNan(T v) {
  return std::isnan(static_cast<float>(v));
}

// The first element whose bits differ (and that is not NaN in both), with both values.
template <class T>
void ExpectSameBits(const std::vector<T>& got, const std::vector<T>& want, size_t n,
                    const std::string& what) {
  ASSERT_GE(got.size(), n) << what;
  ASSERT_GE(want.size(), n) << what;
  for (size_t i = 0; i < n; ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) == 0 || (IsNan(got[i]) && IsNan(want[i]))) {
      continue;
    }
    uint32_t gb = 0, wb = 0;
    std::memcpy(&gb, &got[i], sizeof(T));
    std::memcpy(&wb, &want[i], sizeof(T));
    ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad " << D(got[i]) << " (0x"
                  << std::hex << gb << "), replay " << D(want[i]) << " (0x" << wb << ")"
                  << std::dec;
    return;
  }
}
template <class T>
void ExpectSameBits(const std::vector<T>& got, const std::vector<T>& want,
                    const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  ExpectSameBits(got, want, got.size(), what);
}

// Rows of special magnitudes among random ones: row 1 zeros, row 2 values whose squares
// overflow float (or reach half's top), row 3 values whose squares underflow, row 4 one
// infinity and one NaN.
template <class T>
void SpecialRows(std::vector<T>& x, uint32_t rows, uint32_t h) {
  const bool halfT = std::is_same_v<T, half>;
  const float big = halfT ? 3.0e4f : 3.0e20f, tiny = halfT ? 1.0e-4f : 1.0e-25f;
  for (uint32_t j = 0; j < h; ++j) {
    if (rows > 1) x[1 * h + j] = T(0.0f);
    if (rows > 2) x[2 * h + j] = T(static_cast<float>(x[2 * h + j]) * big);
    if (rows > 3) x[3 * h + j] = T(static_cast<float>(x[3 * h + j]) * tiny);
  }
  if (rows > 4) {
    x[4 * h] = T(std::numeric_limits<float>::infinity());
    x[4 * h + 1] = T(std::numeric_limits<float>::quiet_NaN());
  }
}

// The scratch bytes of a case (0: the maximum maxMin(mx, mn) reports) and, through
// tiling(stack), its tiling; false when either host function refuses.
template <class MaxMin, class Tiling>
bool PlanScratch(uint32_t wanted, MaxMin&& maxMin, Tiling&& tiling, uint32_t& stack) {
  uint32_t mx = 0, mn = 0;
  if (!maxMin(mx, mn)) return false;
  stack = wanted == 0 ? mx : wanted;
  return tiling(stack);
}

// Buffers 0, 1, 2: x, gamma, beta; buffer 6: the scratch's starting pattern (BatchNorm and
// GroupNorm).
template <class T>
void PutXGammaBeta(Bufs& u, const std::vector<T>& x, const std::vector<T>& gamma,
                   const std::vector<T>& beta, const std::vector<float>& scratch) {
  u.Put(0, x);
  u.Put(1, gamma);
  u.Put(2, beta);
  u.Put(6, scratch);
}

// ---- RmsNorm ---------------------------------------------------------------------------------

// [B, S, H] with originalHLength oh (RmsNorm and DeepNorm cases).
struct RowsCase {
  uint32_t b, s, h, oh;
  uint32_t stackBytes;  // 0: the maximum
  bool withTmp;
};
using RmsCase = RowsCase;
using DnCase = RowsCase;

rp::RmsPlan Plan(const RmsNormTiling& t) {
  return {t.hLength,       t.originalHLength,   t.reciprocalOfHLength, t.mainBshLength,
          t.mainBsLength,  t.mainBsLengthAlign, t.loopRound,           t.inputTailPos,
          t.tailBshLength, t.tailBsLength};
}

// On the 950 against the register path's replay (rmsnorm_3510_impl.h; isBasicBlock has no
// effect there); y starts as a pattern (the 950 leaves the padding columns alone).
template <typename T, bool basic>
void CompareRmsNorm(const RmsCase& c, uint32_t seed, const char* soc = k910B) {
  SCOPED_TRACE("RmsNorm seed " + std::to_string(seed) + " on " + soc);
  const uint32_t rows = c.b * c.s, n = rows * c.h, sz = sizeof(T);
  std::vector<T> x = Random<T>(seed, n), g = Random<T>(seed + 1, c.h, 0.5f, 1.5f);
  SpecialRows(x, rows, c.h);
  const T eps = T(1e-5f);
  const ge::Shape shape({c.b, c.s, c.h}), origin({c.b, c.s, c.oh});
  RmsNormTiling tiling;
  uint32_t stack = 0;
  ASSERT_TRUE(PlanScratch(
      c.stackBytes,
      [&](uint32_t& mx, uint32_t& mn) { return GetRmsNormMaxMinTmpSize(shape, sz, mx, mn, basic); },
      [&](uint32_t st) { return GetRmsNormTilingInfo(shape, origin, st, sz, tiling, basic); },
      stack));
  const std::vector<float> pattern(stack / 4, 7.0f);
  const std::vector<T> y0(n, T(0.5f));
  std::vector<T> y;
  std::vector<float> scratch;
  ASSERT_EQ(RunBlock(soc,
                     [&] {
                       Bufs u({n * sz, c.h * sz, n * sz, stack});
                       u.Put(0, x);
                       u.Put(1, g);
                       u.Put(2, y0);
                       u.Put(3, pattern);
                       if (c.withTmp) {
                         RmsNorm<T, basic>(u.Get<T>(2), u.Get<T>(0), u.Get<T>(1), u.Get<uint8_t>(3),
                                           eps, tiling);
                       } else {
                         RmsNorm<T, basic>(u.Get<T>(2), u.Get<T>(0), u.Get<T>(1), eps, tiling);
                       }
                       y = u.Take<T>(2, n);
                       scratch = u.Take<float>(3, stack / 4);
                     }),
            "");
  std::vector<T> want = y0;
  std::vector<float> wantScratch = pattern;
  if (std::string(soc) == k950) {
    rp::ReplayRmsNorm3510(Plan(tiling), R(x), R(g), R(eps), R(want), wantScratch.data());
  } else {
    rp::ReplayRmsNorm(Plan(tiling), R(x), R(g), R(eps), R(want), wantScratch.data(), basic);
  }
  ExpectSameBits(y, want, "RmsNorm y");
  if (c.withTmp) ExpectSameBits(scratch, wantScratch, "RmsNorm sharedTmpBuffer");
}

TEST(ReplayNormExt, RmsNormFloatBitwise) {
  CompareRmsNorm<float, false>({1, 1, 64, 64, 0, true}, 1);                 // one row
  CompareRmsNorm<float, false>({2, 5, 40, 37, 4 * (3 * 40 + 8), true}, 2);  // tail chunk, padding
  CompareRmsNorm<float, false>({1, 4, 200, 200, 0, false}, 3);              // two passes
  CompareRmsNorm<float, false>({1, 1, 4160, 4150, 0, true}, 4);             // three passes
  CompareRmsNorm<float, true>({2, 8, 128, 128, 0, true}, 5);                // basic block
  CompareRmsNorm<float, true>({1, 16, 64, 64, 0, false}, 6);                // basic, Brcb
}

TEST(ReplayNormExt, RmsNormOn950Bitwise) {
  CompareRmsNorm<float, false>({1, 1, 64, 64, 0, true}, 12, k950);
  CompareRmsNorm<float, false>({2, 5, 40, 37, 4 * (3 * 40 + 8), true}, 13, k950);
  CompareRmsNorm<float, false>({1, 4, 200, 200, 0, false}, 14, k950);
  CompareRmsNorm<float, false>({1, 1, 4160, 4150, 0, true}, 15, k950);
  CompareRmsNorm<float, true>({2, 8, 128, 128, 0, true}, 16, k950);
  CompareRmsNorm<half, false>({3, 3, 48, 45, 4 * (2 * 2 * 48 + 8), true}, 17, k950);
  CompareRmsNorm<half, false>({1, 4, 144, 130, 0, false}, 18, k950);
}

TEST(ReplayNormExt, RmsNormHalfBitwise) {
  CompareRmsNorm<half, false>({3, 3, 48, 45, 4 * (2 * 2 * 48 + 8), true}, 7);
  CompareRmsNorm<half, false>({1, 4, 144, 130, 0, false}, 8);
  CompareRmsNorm<half, false>({1, 1, 16, 16, 0, true}, 9);
  CompareRmsNorm<half, true>({1, 16, 64, 64, 0, true}, 10);
  CompareRmsNorm<half, true>({2, 4, 192, 192, 0, false}, 11);
}

// ---- DeepNorm --------------------------------------------------------------------------------

rp::DnPlan Plan(const DeepNormTiling& t) {
  return {t.hLength,          t.originalHLength, t.meanVarSize,    t.oneTmpSize,
          t.loopRound,        t.inputRoundSize,  t.inputTailSize,  t.inputTailPos,
          t.meanVarRoundSize, t.meanVarTailSize, t.meanVarTailPos, t.bshCurLength,
          t.bsCurLength,      t.lastDimValueBack};
}

template <typename T>
struct DnData {
  std::vector<T> x, gx, gamma, beta, y, mean, var;
};

// On the 950 against the register path's replay (deepnorm_3510_impl.h: rows over hLength, x and
// the tiling left alone).
template <typename T, bool reuse, bool basic>
void CompareDeepNorm(const DnCase& c, uint32_t seed, const char* soc = k910B) {
  SCOPED_TRACE("DeepNorm seed " + std::to_string(seed) + " on " + soc);
  const uint32_t bs = c.b * c.s, n = bs * c.h, sz = sizeof(T);
  DnData<T> in{Random<T>(seed, n),
               Random<T>(seed + 1, n),
               Random<T>(seed + 2, c.h, 0.5f, 1.5f),
               Random<T>(seed + 3, c.h),
               {},
               {},
               {}};
  SpecialRows(in.x, bs, c.h);
  const T alpha = T(1.75f), eps = T(1e-4f);
  const ge::Shape shape({c.b, c.s, c.h}), origin({c.b, c.s, c.oh});
  DeepNormTiling tiling;
  uint32_t stack = 0;
  ASSERT_TRUE(PlanScratch(
      c.stackBytes,
      [&](uint32_t& mx, uint32_t& mn) {
        return GetDeepNormMaxMinTmpSize(shape, sz, reuse, basic, mx, mn);
      },
      [&](uint32_t st) {
        return GetDeepNormTilingInfo(shape, origin, st, sz, reuse, basic, tiling);
      },
      stack));
  const uint32_t mv = std::max(bs, tiling.meanVarSize);
  DnData<T> got;
  DeepNormTiling after = tiling;
  ASSERT_EQ(
      RunBlock(soc,
               [&] {
                 Bufs u({n * sz, n * sz, c.h * sz, c.h * sz, n * sz, mv * sz, mv * sz, stack});
                 u.Put(0, in.x);
                 u.Put(1, in.gx);
                 u.Put(2, in.beta);
                 u.Put(3, in.gamma);
                 if (c.withTmp) {
                   DeepNorm<T, reuse, basic>(u.Get<T>(4), u.Get<T>(5), u.Get<T>(6), u.Get<T>(0),
                                             u.Get<T>(1), u.Get<T>(2), u.Get<T>(3),
                                             u.Get<uint8_t>(7), alpha, eps, after);
                 } else {
                   DeepNorm<T, reuse, basic>(u.Get<T>(4), u.Get<T>(5), u.Get<T>(6), u.Get<T>(0),
                                             u.Get<T>(1), u.Get<T>(2), u.Get<T>(3), alpha, eps,
                                             after);
                 }
                 got = {u.Take<T>(0, n), {}, {}, {}, u.Take<T>(4, n), u.Take<T>(5, mv),
                        u.Take<T>(6, mv)};
               }),
      "");
  DnData<T> want{in.x, {}, {}, {}, std::vector<T>(n), std::vector<T>(mv), std::vector<T>(mv)};
  rp::DnPlan plan = Plan(tiling);
  if (std::string(soc) == k950) {
    rp::ReplayDeepNorm3510(plan, bs, R(in.x), R(in.gx), R(in.beta), R(in.gamma), R(alpha), R(eps),
                           R(want.y), R(want.mean), R(want.var));
  } else {
    rp::ReplayDeepNorm(plan, R(want.x), R(in.gx), R(in.beta), R(in.gamma), R(alpha), R(eps),
                       R(want.y), R(want.mean), R(want.var), reuse, basic);
  }
  ExpectSameBits(got.y, want.y, "DeepNorm y");
  // half: the kernel casts meanVarSize staged values; those past B*S are scratch contents.
  ExpectSameBits(got.mean, want.mean, bs, "DeepNorm mean");
  ExpectSameBits(got.var, want.var, bs, "DeepNorm variance");
  ExpectSameBits(got.x, want.x, "DeepNorm x after the call");
  EXPECT_EQ(after.bshCurLength, plan.bshCurLength);
  EXPECT_EQ(after.bsCurLength, plan.bsCurLength);
}

TEST(ReplayNormExt, DeepNormFloatBitwise) {
  CompareDeepNorm<float, false, false>({1, 1, 64, 64, 0, true}, 21);
  CompareDeepNorm<float, false, false>({1, 5, 40, 40, 4 * (3 * 80 + 8), true}, 22);  // tail
  CompareDeepNorm<float, false, false>({1, 4, 200, 200, 0, false}, 23);
  CompareDeepNorm<float, false, false>({2, 2, 48, 45, 0, true}, 24);  // padded H
  CompareDeepNorm<float, true, false>({1, 5, 40, 40, 4 * (2 * 80 + 8), true}, 25);
  CompareDeepNorm<float, true, false>({2, 3, 72, 72, 0, false}, 26);
  CompareDeepNorm<float, false, true>({2, 8, 128, 128, 0, true}, 27);
  CompareDeepNorm<float, true, true>({1, 16, 64, 64, 0, true}, 28);
}

TEST(ReplayNormExt, DeepNormOn950Bitwise) {
  CompareDeepNorm<float, false, false>({1, 1, 64, 64, 0, true}, 36, k950);
  CompareDeepNorm<float, false, false>({1, 5, 40, 40, 4 * (3 * 80 + 8), true}, 37, k950);
  CompareDeepNorm<float, true, false>({1, 4, 200, 200, 0, false}, 38, k950);
  CompareDeepNorm<float, false, true>({2, 8, 128, 128, 0, true}, 39, k950);
  CompareDeepNorm<half, false, false>({2, 3, 48, 48, 0, true}, 40, k950);
  CompareDeepNorm<half, false, false>({1, 4, 160, 160, 0, false}, 20, k950);
}

TEST(ReplayNormExt, DeepNormHalfBitwise) {
  CompareDeepNorm<half, false, false>({2, 3, 48, 48, 0, true}, 31);
  CompareDeepNorm<half, false, false>({1, 5, 32, 32, 4 * (16 + 3 * 3 * 32), true}, 32);
  CompareDeepNorm<half, true, false>({1, 4, 160, 160, 0, false}, 33);  // isReuseSrc: no effect
  CompareDeepNorm<half, false, true>({1, 8, 64, 64, 0, false}, 34);
  CompareDeepNorm<half, false, true>({2, 8, 128, 128, 0, true}, 35);
}

// ---- BatchNorm -------------------------------------------------------------------------------

struct BnCase {
  uint32_t b, s, h;
  uint32_t stackBytes;  // 0: the maximum
  bool withTmp;
  // beta -0 in every row, gamma negative in odd rows, x 0 in every fifth column: y is
  // beta + (-0) there, -0 where the broadcast keeps beta's sign, +0 where Adds(+0) made it +0.
  bool signedZeros = false;
};

rp::BnPlan Plan(const BatchNormTiling& t) {
  return {t.originalBLength, t.meanVarSize,         t.loopRound,        t.inputTailSize,
          t.inputTailPos,    t.meanVarTailSize,     t.meanVarTailPos,   t.bshCurLength,
          t.shCurLength,     t.shCurLengthBlockNum, t.firstDimValueBack};
}

// On the 950 against the register path's replay (batchnorm_3510_impl.h), its scratch (float
// mean and variance) too.
template <typename T, bool basic>
void CompareBatchNorm(const BnCase& c, uint32_t seed, const char* soc = k910B) {
  SCOPED_TRACE("BatchNorm seed " + std::to_string(seed) + " on " + soc);
  const uint32_t f = c.s * c.h, n = c.b * f, sz = sizeof(T);
  std::vector<T> x = Random<T>(seed, n), gamma = Random<T>(seed + 1, c.b, 0.5f, 1.5f),
                 beta = Random<T>(seed + 2, c.b);
  // Column 0: variance 0; column 1: squares that overflow; columns 2, 3: an infinity, a NaN.
  const float big = std::is_same_v<T, half> ? 2.0e4f : 3.0e20f;
  for (uint32_t r = 0; r < c.b; ++r) {
    x[r * f] = T(0.0f);
    x[r * f + 1] = T(static_cast<float>(x[r * f + 1]) * big);
  }
  x[2] = T(std::numeric_limits<float>::infinity());
  x[f + 3] = T(std::numeric_limits<float>::quiet_NaN());
  if (c.signedZeros) {
    for (uint32_t r = 0; r < c.b; ++r) {
      beta[r] = T(-0.0f);
      if (r % 2 == 1) gamma[r] = T(-static_cast<float>(gamma[r]));
      for (uint32_t j = 5; j < f; j += 5) x[r * f + j] = T(0.0f);
    }
  }
  const T eps = T(1e-3f);
  const ge::Shape shape({c.b, c.s, c.h});
  BatchNormTiling tiling;
  uint32_t stack = 0;
  ASSERT_TRUE(PlanScratch(
      c.stackBytes,
      [&](uint32_t& mx, uint32_t& mn) {
        return GetBatchNormMaxMinTmpSize(shape, shape, sz, false, mx, mn, basic);
      },
      [&](uint32_t st) {
        return GetBatchNormNDTilingInfo(shape, shape, st, sz, false, tiling, basic);
      },
      stack));
  std::vector<T> y, mean, var;
  BatchNormTiling after = tiling;
  const uint32_t scratchBytes = std::max(stack, 8 * f);
  const std::vector<float> pattern(scratchBytes / 4, 3.0f);
  std::vector<float> scratch;
  ASSERT_EQ(RunBlock(soc,
                     [&] {
                       Bufs u({n * sz, c.b * sz, c.b * sz, n * sz, f * sz, f * sz, scratchBytes});
                       PutXGammaBeta(u, x, gamma, beta, pattern);
                       if (c.withTmp) {
                         BatchNorm<T, false, basic>(u.Get<T>(3), u.Get<T>(4), u.Get<T>(5),
                                                    u.Get<T>(0), u.Get<T>(1), u.Get<T>(2),
                                                    u.Get<uint8_t>(6), eps, after);
                       } else {
                         BatchNorm<T, false, basic>(u.Get<T>(3), u.Get<T>(4), u.Get<T>(5),
                                                    u.Get<T>(0), u.Get<T>(1), u.Get<T>(2), eps,
                                                    after);
                       }
                       y = u.Take<T>(3, n);
                       mean = u.Take<T>(4, f);
                       var = u.Take<T>(5, f);
                       scratch = u.Take<float>(6, scratchBytes / 4);
                     }),
            "");
  std::vector<T> wy(n), wm(f), wv(f);
  rp::BnPlan plan = Plan(tiling);
  if (std::string(soc) == k950) {
    std::vector<float> wantScratch = pattern;
    rp::ReplayBatchNorm3510(plan, R(x), R(gamma), R(beta), R(eps), R(wy), R(wm), R(wv),
                            wantScratch.data());
    if (c.withTmp) ExpectSameBits(scratch, wantScratch, "BatchNorm sharedTmpBuffer");
  } else {
    rp::ReplayBatchNorm(plan, R(x), R(gamma), R(beta), R(eps), R(wy), R(wm), R(wv), basic,
                        std::string(soc) == k310P);
  }
  ExpectSameBits(y, wy, "BatchNorm y");
  ExpectSameBits(mean, wm, "BatchNorm mean");
  ExpectSameBits(var, wv, "BatchNorm variance");
  EXPECT_EQ(after.bshCurLength, plan.bshCurLength);
  EXPECT_EQ(after.shCurLength, plan.shCurLength);
  EXPECT_EQ(after.shCurLengthBlockNum, plan.shCurLengthBlockNum);
}

TEST(ReplayNormExt, BatchNormBitwise) {
  CompareBatchNorm<float, false>({8, 1, 64, 0, true}, 41);
  CompareBatchNorm<float, false>({4, 2, 40, 0, false}, 42);
  CompareBatchNorm<float, false>({16, 3, 40, 4 * (3 * 16 * 24 + 2 * 120), true}, 43);  // tail
  CompareBatchNorm<float, true>({8, 2, 64, 0, true}, 44);
  CompareBatchNorm<half, false>({8, 1, 64, 0, true}, 45);
  CompareBatchNorm<half, false>({16, 3, 48, 4 * (3 * 16 * 32 + 2 * 144), false}, 46);
  CompareBatchNorm<half, true>({8, 2, 64, 0, true}, 47);
}

TEST(ReplayNormExt, BatchNormOn950Bitwise) {
  CompareBatchNorm<float, false>({8, 1, 64, 0, true}, 48, k950);
  CompareBatchNorm<float, false>({4, 2, 40, 0, true}, 49, k950);  // 80 columns: a tail chunk
  CompareBatchNorm<float, false>({16, 3, 40, 4 * (3 * 16 * 24 + 2 * 120), true}, 50, k950);
  CompareBatchNorm<half, false>({16, 3, 48, 4 * (3 * 16 * 32 + 2 * 144), false}, 60, k950);
  CompareBatchNorm<half, true>({8, 2, 64, 0, true}, 61, k950);
}

// ---- WelfordUpdate ---------------------------------------------------------------------------

constexpr WelfordUpdateConfig kInplace = {true};
constexpr WelfordUpdateConfig kNotInplace = {false};

// Also on the 950: welford_3510_impl.h runs the same register steps (Sub, Muls, Add, Sub, Mul,
// Add; no fused operation) and leaves x alone whatever isReuseSource.
template <typename T, bool reuse, const WelfordUpdateConfig& cfg>
void CompareWelfordUpdate(uint32_t ab, uint32_t comp, bool withTmp, uint32_t seed,
                          const char* soc = k910B) {
  SCOPED_TRACE("WelfordUpdate seed " + std::to_string(seed) + " on " + soc);
  std::vector<T> x = Random<T>(seed, ab);
  const std::vector<float> im = Random<float>(seed + 1, ab),
                           iv = Random<float>(seed + 2, ab, 0.0f, 3.0f), sentinel(ab, 99.0f);
  const float nRec = 1.0f / 7.0f;
  const std::vector<float>* ins[] = {&im, &iv, &sentinel, &sentinel};
  std::vector<float> om, ov;
  std::vector<T> xAfter;
  ASSERT_EQ(RunBlock(soc,
                     [&] {
                       Bufs u({ab * uint32_t{sizeof(T)}, ab * 4, ab * 4, ab * 4, ab * 4, 1024});
                       u.Put(0, x);
                       for (size_t i = 0; i < 4; ++i) u.Put(i + 1, *ins[i]);
                       const WelfordUpdateParam p{1, ab, comp, nRec};
                       if (withTmp) {
                         WelfordUpdate<T, float, reuse, cfg>(u.Get<float>(3), u.Get<float>(4),
                                                             u.Get<float>(1), u.Get<float>(2),
                                                             u.Get<T>(0), u.Get<uint8_t>(5), p);
                       } else {
                         WelfordUpdate<T, float, reuse, cfg>(u.Get<float>(3), u.Get<float>(4),
                                                             u.Get<float>(1), u.Get<float>(2),
                                                             u.Get<T>(0), p);
                       }
                       om = u.Take<float>(3, ab);
                       ov = u.Take<float>(4, ab);
                       xAfter = u.Take<T>(0, ab);
                     }),
            "");
  std::vector<float> wm = sentinel, wv = sentinel;
  const bool clobbers = reuse && std::string(soc) != k950;
  rp::ReplayWelfordUpdate(ab, comp, nRec, cfg.isInplace, clobbers, R(x), im.data(), iv.data(),
                          wm.data(), wv.data());
  ExpectSameBits(om, wm, "WelfordUpdate outputMean");
  ExpectSameBits(ov, wv, "WelfordUpdate outputVariance");
  ExpectSameBits(xAfter, x, "WelfordUpdate inputX after the call");
}

TEST(ReplayNormExt, WelfordUpdateBitwise) {
  CompareWelfordUpdate<float, false, kNotInplace>(64, 64, true, 51);
  CompareWelfordUpdate<float, false, kInplace>(200, 130, true, 52);
  CompareWelfordUpdate<float, false, kNotInplace>(200, 130, false, 53);
  CompareWelfordUpdate<float, true, kInplace>(512, 300, true, 54);  // several 64·k rounds
  CompareWelfordUpdate<float, true, kNotInplace>(96, 96, false, 55);
  CompareWelfordUpdate<half, false, kInplace>(208, 131, true, 56);
  CompareWelfordUpdate<half, true, kNotInplace>(64, 64, false, 57);  // isReuseSource: no effect
  CompareWelfordUpdate<float, true, kInplace>(512, 300, true, 58, k950);
  CompareWelfordUpdate<half, false, kInplace>(208, 131, false, 59, k950);
}

// isBasicBlock's broadcast of gamma and beta keeps their value in each chunk row's first 8
// columns on 2201 (Brcb) and 16 on 2002 (TransDataTo5HD, batchnorm_v200_impl.h); the Adds(+0)
// copies make a -0 +0 in the others, which shows where gamma * 0 is -0 and beta is -0.
TEST(ReplayNormExt, BatchNormBasicBlockBroadcastPerProduct) {
  for (const char* soc : {k910B, k310P}) {
    CompareBatchNorm<float, true>({8, 2, 64, 0, true, true}, 62, soc);
    CompareBatchNorm<float, true>({16, 1, 192, 4 * (3 * 16 * 64 + 2 * 192), false, true}, 63, soc);
    CompareBatchNorm<half, true>({8, 2, 64, 0, true, true}, 64, soc);
    CompareBatchNorm<float, false>({8, 2, 64, 0, true, true}, 65, soc);  // Duplicate: raw
  }
}

// Atlas inference (Ascend310P1, arch 2002): the toolkit's *_v200_impl.h files of RmsNorm,
// DeepNorm and BatchNorm differ from the 2201 ones only in how they broadcast (TransDataTo5HD,
// then Adds(+0), where 2201 uses Brcb); the end state differs only in BatchNorm's basic block
// (above), so the 2201 replay applies to these forms.
TEST(ReplayNormExt, On310PWithThe2201Replay) {
  CompareRmsNorm<float, false>({2, 5, 40, 37, 4 * (3 * 40 + 8), true}, 91, k310P);
  CompareRmsNorm<half, false>({1, 4, 144, 130, 0, false}, 92, k310P);
  CompareDeepNorm<float, true, false>({1, 5, 40, 40, 4 * (2 * 80 + 8), true}, 93, k310P);
  CompareDeepNorm<half, false, false>({2, 3, 48, 48, 0, true}, 94, k310P);
  CompareBatchNorm<float, false>({16, 3, 40, 4 * (3 * 16 * 24 + 2 * 120), true}, 95, k310P);
  CompareBatchNorm<half, false>({8, 1, 64, 0, true}, 96, k310P);
  CompareWelfordUpdate<float, true, kInplace>(200, 130, true, 97, k310P);
}

// ---- WelfordFinalize -------------------------------------------------------------------------

struct FinCase {
  uint32_t ab, headCount, headLen, tailCount;
  bool counts;
  uint32_t tmpBytes;  // 0: the stack-buffer prototypes (ab <= 64: one chunk whatever their size)
};

// On the 950 the 3510 replay, which writes element 0 only (the sentinels stay in 1..7).
void CompareWelfordFinalize(const FinCase& c, uint32_t seed, const char* soc = k910B) {
  SCOPED_TRACE("WelfordFinalize seed " + std::to_string(seed) + " on " + soc);
  const std::vector<float> im = Random<float>(seed, c.ab),
                           iv = Random<float>(seed + 1, c.ab, 0.0f, 3.0f);
  std::vector<int32_t> cnt(c.ab);
  for (uint32_t i = 0; i < c.ab; ++i) cnt[i] = static_cast<int32_t>(1 + (i * 7 + seed) % 9);
  double total = 0;
  for (uint32_t i = 0; i < c.ab; ++i) {
    total += c.counts ? cnt[i] : (i < c.headLen ? c.headCount : c.tailCount);
  }
  const WelfordFinalizePara p{c.headCount,
                              c.ab,
                              c.headCount,
                              c.headLen,
                              c.tailCount,
                              c.ab - c.headLen,
                              1.0f / static_cast<float>(c.ab),
                              static_cast<float>(1.0 / total)};
  const std::vector<float> sentinel(8, 99.0f);
  std::vector<float> om, ov;
  ASSERT_EQ(RunBlock(soc,
                     [&] {
                       Bufs u({c.ab * 4, c.ab * 4, c.ab * 4, 32, 32, std::max(c.tmpBytes, 32u)});
                       u.Put(0, im);
                       u.Put(1, iv);
                       u.Put(2, cnt);
                       u.Put(3, sentinel);
                       u.Put(4, sentinel);
                       WelfordFinalizePara pp = p;
                       const LocalTensor<int32_t> n = u.Get<int32_t>(2);
                       const auto m = u.Get<float>(3), v = u.Get<float>(4);
                       const auto a = u.Get<float>(0), b = u.Get<float>(1);
                       if (c.tmpBytes != 0 && c.counts) {
                         WelfordFinalize<false>(m, v, a, b, n, u.Get<uint8_t>(5), pp);
                       } else if (c.tmpBytes != 0) {
                         WelfordFinalize<false>(m, v, a, b, u.Get<uint8_t>(5), pp);
                       } else if (c.counts) {
                         WelfordFinalize<false>(m, v, a, b, n, pp);
                       } else {
                         WelfordFinalize<false>(m, v, a, b, pp);
                       }
                       om = u.Take<float>(3, 8);
                       ov = u.Take<float>(4, 8);
                     }),
            "");
  std::vector<float> wm(sentinel), wv(sentinel);
  const rp::FinPara rpp{p.rnLength,  p.abLength,        p.headCount, p.headCountLength,
                        p.tailCount, p.tailCountLength, p.abRec,     p.rRec};
  if (std::string(soc) == k950) {
    rp::ReplayWelfordFinalize3510(rpp, p.rRec, im.data(), iv.data(),
                                  c.counts ? cnt.data() : nullptr, wm.data(), wv.data());
  } else {
    rp::ReplayWelfordFinalize(rpp, c.tmpBytes == 0 ? 256 : c.tmpBytes / 4, im.data(), iv.data(),
                              c.counts ? cnt.data() : nullptr, wm.data(), wv.data());
  }
  ExpectSameBits(om, wm, "WelfordFinalize outputMean");
  ExpectSameBits(ov, wv, "WelfordFinalize outputVariance");
}

TEST(ReplayNormExt, WelfordFinalizeBitwise) {
  CompareWelfordFinalize({8, 1, 8, 0, true, 1024}, 61);         // the sample's shape
  CompareWelfordFinalize({200, 4, 200, 0, false, 1024}, 62);    // no tail: 3 chunks + 8
  CompareWelfordFinalize({200, 5, 131, 3, false, 2048}, 63);    // head and tail counts
  CompareWelfordFinalize({4480, 5, 1000, 3, false, 1024}, 64);  // 70 chunks: the list folds
  CompareWelfordFinalize({4480, 1, 4480, 0, true, 1024}, 65);
  CompareWelfordFinalize({1000, 2, 520, 7, true, 4096}, 66);  // chunks of 448, fold tails
  CompareWelfordFinalize({40, 3, 24, 2, false, 0}, 67);
  CompareWelfordFinalize({64, 1, 64, 0, true, 0}, 68);
}

// The 950's register order (welfordfinalize_3510_impl.h): every form, below one register, one
// register, tails of whole and partial registers, the halving of the partial sums past 4096.
TEST(ReplayNormExt, WelfordFinalize950Bitwise) {
  uint32_t seed = 160;
  for (const FinCase& c :
       {FinCase{8, 1, 8, 0, true, 1024}, FinCase{40, 3, 24, 2, false, 0},
        FinCase{64, 1, 64, 0, true, 0}, FinCase{64, 4, 64, 0, false, 1024},
        FinCase{200, 4, 200, 0, false, 1024}, FinCase{200, 5, 131, 3, false, 2048},
        FinCase{1000, 2, 520, 7, true, 4096}, FinCase{4480, 5, 1000, 3, false, 1024},
        FinCase{4480, 1, 4480, 0, true, 1024}, FinCase{8200, 2, 8200, 0, false, 1024},
        FinCase{9000, 3, 5000, 1, false, 0}, FinCase{128, 2, 128, 0, true, 0}}) {
    CompareWelfordFinalize(c, ++seed, k950);
  }
  // The two orders differ in the bits (so the 2201 replay would fail the comparisons above).
  uint32_t differ = 0;
  for (uint32_t ab : {200u, 1000u, 8200u}) {
    const std::vector<float> im = Random<float>(ab, ab), iv = Random<float>(ab + 1, ab, 0.0f, 3.0f);
    const rp::FinPara p{2, ab, 2, ab, 0, 0, 1.0f / static_cast<float>(ab), 0.5f / ab};
    float m2201[8], v2201[8], m3510[8], v3510[8];
    rp::ReplayWelfordFinalize(p, 256, im.data(), iv.data(), nullptr, m2201, v2201);
    rp::ReplayWelfordFinalize3510(p, p.rRec, im.data(), iv.data(), nullptr, m3510, v3510);
    differ += m2201[0] != m3510[0] || v2201[0] != v3510[0];
  }
  EXPECT_GE(differ, 2u);
}

// ---- GroupNorm -------------------------------------------------------------------------------

struct GnCase {
  uint32_t n, c, h, w, groups;
  uint32_t stackBytes;  // 0: the maximum
  bool withTmp;
};

rp::GnPlan Plan(const GroupNormTiling& t) {
  return {t.n,
          t.c,
          t.hw,
          t.g,
          t.d,
          t.hwAlignSize,
          t.dhwAlignSize,
          t.numberOfTmpBuf,
          t.meanTmpTensorPos,
          t.varianceTmpTensorPos,
          t.firstTmpStartPos,
          t.secondTmpStartPos,
          t.thirdTmpStartPos,
          t.loopRound,
          t.inputRoundSize,
          t.inputTailSize,
          t.inputTailPos,
          t.meanVarRoundSize,
          t.meanVarTailSize,
          t.meanVarTailPos,
          t.bshCurLength,
          t.bsCurLength,
          t.factor,
          t.smallShape};
}

// x's padding holds values too (they enter the sums as on the device); y starts as a pattern
// (a small-shape tail chunk keeps y's padding); the scratch starts as another. On the 950 the
// 3510 replay (every group at once, the tiling unchanged).
template <typename T, bool reuse>
void CompareGroupNorm(const GnCase& k, bool wantSmall, uint32_t seed, const char* soc = k910B) {
  SCOPED_TRACE("GroupNorm seed " + std::to_string(seed) + " on " + soc);
  const uint32_t sz = sizeof(T), hw = k.h * k.w;
  const uint32_t hwa = (hw * sz + 31) / 32 * 32 / sz;
  const uint32_t total = k.n * k.c * hwa, mv = k.n * k.groups;
  std::vector<T> x = Random<T>(seed, total), y0(total, T(0.75f));
  const std::vector<T> gamma = Random<T>(seed + 1, k.c, 0.5f, 1.5f),
                       beta = Random<T>(seed + 2, k.c);
  const T eps = T(1e-3f);
  const ge::Shape shape({k.n, k.c, k.h, k.w});
  GroupNormTiling tiling;
  uint32_t stack = 0;
  ASSERT_TRUE(PlanScratch(
      k.stackBytes,
      [&](uint32_t& mx, uint32_t& mn) {
        GetGroupNormMaxMinTmpSize(shape, sz, reuse, k.groups, mx, mn);
        return mx > 0;
      },
      [&](uint32_t st) {
        GetGroupNormNDTilingInfo(shape, st, sz, reuse, k.groups, tiling);
        return lngrad::tiling::LastTilingStatus().ok();
      },
      stack));
  if (std::string(soc) != k950) {  // 3510 does not read smallShape
    ASSERT_EQ(tiling.smallShape, wantSmall);
  }
  const std::vector<float> pattern(stack / 4, 3.0f);
  std::vector<T> y, mean, var, xAfter;
  GroupNormTiling after = tiling;
  ASSERT_EQ(
      RunBlock(soc,
               [&] {
                 Bufs u({total * sz, k.c * sz, k.c * sz, total * sz, mv * sz, mv * sz, stack});
                 PutXGammaBeta(u, x, gamma, beta, pattern);
                 u.Put(3, y0);
                 const auto o = u.Get<T>(3), m = u.Get<T>(4), v = u.Get<T>(5);
                 const auto a = u.Get<T>(0), g = u.Get<T>(1), b = u.Get<T>(2);
                 if (k.withTmp) {
                   GroupNorm<T, reuse>(o, m, v, a, g, b, u.Get<uint8_t>(6), eps, after);
                 } else {
                   GroupNorm<T, reuse>(o, m, v, a, g, b, eps, after);
                 }
                 y = u.Take<T>(3, total);
                 mean = u.Take<T>(4, mv);
                 var = u.Take<T>(5, mv);
                 xAfter = u.Take<T>(0, total);
               }),
      "");
  std::vector<T> wy = y0, wm(mv), wv(mv);
  std::vector<float> scratch = pattern;
  rp::GnPlan plan = Plan(tiling);
  if (std::string(soc) == k950) {
    rp::ReplayGroupNorm3510(plan, R(x), R(gamma), R(beta), R(eps), R(wy), R(wm), R(wv));
  } else {
    rp::ReplayGroupNorm(plan, R(x), R(gamma), R(beta), R(eps), R(wy), R(wm), R(wv), total,
                        scratch.data(), stack / 4, reuse);
  }
  ExpectSameBits(y, wy, "GroupNorm y");
  ExpectSameBits(mean, wm, "GroupNorm mean");
  ExpectSameBits(var, wv, "GroupNorm variance");
  ExpectSameBits(xAfter, x, "GroupNorm x after the call");
  EXPECT_EQ(after.bshCurLength, plan.bshCurLength);
  EXPECT_EQ(after.bsCurLength, plan.bsCurLength);
}

TEST(ReplayNormExt, GroupNormFloatBitwise) {
  CompareGroupNorm<float, false>({2, 6, 4, 5, 3, 0, true}, true, 71);        // small shape
  CompareGroupNorm<float, false>({2, 6, 4, 5, 3, 4 * 576, true}, true, 72);  // tail of 2 groups
  CompareGroupNorm<float, false>({1, 4, 16, 16, 2, 0, false}, false, 73);    // general
  CompareGroupNorm<float, false>({2, 4, 9, 9, 2, 0, true}, false, 74);       // 64-tails
  CompareGroupNorm<float, false>({2, 4, 9, 9, 2, 6336, true}, false, 69);    // tail of 1 group
  CompareGroupNorm<float, false>({1, 1, 72, 64, 1, 0, true}, false, 75);     // 72 repeats
  CompareGroupNorm<float, false>({4, 8, 10, 10, 4, 0, true}, false, 78);     // 3 repeats + tail
  CompareGroupNorm<float, false>({1, 1, 90, 50, 1, 0, false}, false, 79);    // 70 repeats + tail
  CompareGroupNorm<float, true>({2, 6, 4, 5, 3, 0, true}, true, 76);
  CompareGroupNorm<float, true>({1, 4, 16, 16, 2, 0, true}, false, 77);
  CompareGroupNorm<float, true>({2, 6, 4, 5, 3, 4 * 288, true}, true, 70);  // 2 chunks, no tail
}

TEST(ReplayNormExt, GroupNormHalfBitwise) {
  CompareGroupNorm<half, false>({2, 6, 4, 5, 3, 0, true}, true, 81);
  CompareGroupNorm<half, false>({2, 4, 9, 9, 2, 0, false}, false, 82);
  CompareGroupNorm<half, false>({2, 6, 4, 5, 3, 3136, true}, true, 86);   // tail of 2 groups
  CompareGroupNorm<half, false>({2, 4, 9, 9, 2, 6976, true}, false, 87);  // tail of 1 group
  CompareGroupNorm<half, false>({1, 4, 16, 16, 2, 0, true}, false, 83);
  CompareGroupNorm<half, false>({1, 4, 10, 10, 2, 0, true}, false, 85);
  CompareGroupNorm<half, true>({2, 6, 4, 5, 3, 0, false}, true, 84);  // isReuseSource: no effect
}

// The 950's register order (groupnorm_3510_impl.h): one register, two and three levels of sums,
// hw a multiple of 64 and not, float (with isReuseSource) and half, both prototypes.
TEST(ReplayNormExt, GroupNorm950Bitwise) {
  uint32_t seed = 170;
  for (const GnCase& k : {GnCase{2, 6, 4, 5, 3, 0, true}, GnCase{1, 4, 16, 16, 2, 0, false},
                          GnCase{2, 4, 9, 9, 2, 0, true}, GnCase{1, 1, 72, 64, 1, 0, true},
                          GnCase{4, 8, 10, 10, 4, 0, true}, GnCase{1, 2, 8, 8, 1, 0, false}}) {
    CompareGroupNorm<float, false>(k, false, ++seed, k950);
    CompareGroupNorm<float, true>(k, false, ++seed, k950);
    CompareGroupNorm<half, false>(k, false, ++seed, k950);
  }
}

}  // namespace
