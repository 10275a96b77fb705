// WelfordUpdate and WelfordFinalize (lib/normalization/welford*.h) through the Ascend C API on
// Ascend910B1 and Ascend950PR_9599: every prototype (with and without sharedTmpBuffer / counts),
// isInplace, float isReuseSource, half inputX, head/tail counts, against float64 oracles of the
// documented formulas with the bounds of docs/ascendc_kernels.md; the checked refusals; the
// host scratch sizes pinned.
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

constexpr WelfordUpdateConfig kInplace = {true};
constexpr WelfordUpdateConfig kNotInplace = {false};
constexpr WelfordFinalizeConfig kCorrection = {true};

template <typename T, bool reuse, const WelfordUpdateConfig& cfg>
void CheckUpdate(uint32_t ab, uint32_t n, bool withTmp, const char* soc, uint32_t seed) {
  const std::vector<T> x = Random<T>(seed, ab);
  const std::vector<float> im = Random<float>(seed + 1, ab);
  const std::vector<float> iv = Random<float>(seed + 2, ab, 0.0f, 3.0f);
  const std::vector<float> sentinel(ab, 99.0f);
  const float nRec = 1.0f / 7.0f;
  std::vector<float> om, ov;
  std::vector<T> xAfter;
  const std::string check = RunBlock(soc, [&] {
    Bufs u({ab * uint32_t{sizeof(T)}, ab * 4, ab * 4, ab * 4, ab * 4, 1024});
    u.Put(0, x);
    u.Put(1, im);
    u.Put(2, iv);
    u.Put(3, sentinel);
    u.Put(4, sentinel);
    const WelfordUpdateParam p{1, ab, n, nRec};
    if (withTmp) {
      WelfordUpdate<T, float, reuse, cfg>(u.Get<float>(3), u.Get<float>(4), u.Get<float>(1),
                                          u.Get<float>(2), u.Get<T>(0), u.Get<uint8_t>(5), p);
    } else {
      WelfordUpdate<T, float, reuse, cfg>(u.Get<float>(3), u.Get<float>(4), u.Get<float>(1),
                                          u.Get<float>(2), u.Get<T>(0), p);
    }
    om = u.Take<float>(3, ab);
    ov = u.Take<float>(4, ab);
    xAfter = u.Take<T>(0, ab);
  });
  ASSERT_EQ(check, "");
  ASSERT_EQ(om.size(), ab);
  for (uint32_t i = 0; i < n; ++i) {
    const double d = D(x[i]) - im[i];
    const double m = im[i] + d * nRec;
    const double v = iv[i] + d * (D(x[i]) - m);
    // Float steps: d (u), d * nRec (2u incl. nRec's rounding), + inMean (u); x - outMean carries
    // outMean's error; the product and the sum: a few u of the magnitudes involved.
    const double s = std::fabs(D(x[i])) + std::fabs(im[i]);
    ExpectWithin(om[i], m, 4 * kU * s, "outMean " + std::to_string(i));
    ExpectWithin(ov[i], v, 8 * kU * (s * s + std::fabs(iv[i])), "outVar " + std::to_string(i));
  }
  const uint32_t copy = cfg.isInplace && n < ab ? (ab - n + 7) / 8 * 8 : 0;
  for (uint32_t i = n; i < ab; ++i) {
    const bool copied = i >= ab - copy;
    EXPECT_EQ(om[i], copied ? im[i] : 99.0f) << i;
    EXPECT_EQ(ov[i], copied ? iv[i] : 99.0f) << i;
  }
  if (reuse && std::string(soc) == k910B) {
    // The device overwrites inputX with x - inMean.
    EXPECT_EQ(D(xAfter[0]), static_cast<double>(static_cast<float>(D(x[0])) - im[0]));
  }
}

TEST(NormExtWelfordUpdate, EveryPrototypeOnBothArchs) {
  for (const char* soc : {k910B, k950, k310P}) {
    SCOPED_TRACE(soc);
    CheckUpdate<float, false, kNotInplace>(200, 200, true, soc, 1);
    CheckUpdate<float, false, kInplace>(200, 131, false, soc, 2);
    CheckUpdate<float, false, kNotInplace>(64, 35, true, soc, 3);
    CheckUpdate<half, false, kInplace>(96, 77, true, soc, 4);
    CheckUpdate<half, false, kNotInplace>(160, 160, false, soc, 5);
  }
  CheckUpdate<float, true, kNotInplace>(200, 150, true, k910B, 6);
}

TEST(NormExtWelfordUpdate, CheckedRefusals) {
  auto run = [](WelfordUpdateParam p, uint32_t tmpBytes) {
    return RunBlock(k910B, [&] {
      Bufs u({256, 256, 256, 256, 256, tmpBytes});
      WelfordUpdate<float, float>(u.Get<float>(3), u.Get<float>(4), u.Get<float>(1),
                                  u.Get<float>(2), u.Get<float>(0), u.Get<uint8_t>(5), p);
    });
  };
  EXPECT_EQ(run({1, 64, 64, 0.5f}, 512), "");
  EXPECT_EQ(run({2, 64, 64, 0.5f}, 512), "WelfordUpdate.para");
  EXPECT_EQ(run({1, 64, 65, 0.5f}, 512), "WelfordUpdate.para");
  EXPECT_EQ(run({1, 60, 60, 0.5f}, 512), "WelfordUpdate.para");
  EXPECT_EQ(run({1, 64, 64, 0.5f}, 256), "WelfordUpdate.tmp_buffer");
  EXPECT_EQ(RunBlock(k310B,
                     [&] {
                       Bufs u({256, 256, 256, 256, 256, 512});
                       WelfordUpdate<float, float>(
                           u.Get<float>(3), u.Get<float>(4), u.Get<float>(1), u.Get<float>(2),
                           u.Get<float>(0), u.Get<uint8_t>(5), {1, 64, 64, 0.5f});
                     }),
            "WelfordUpdate.unsupported_product");
  EXPECT_EQ(run({1, 128, 64, 0.5f}, 512), "WelfordUpdate.operand_bounds");
}

// ---- WelfordFinalize -------------------------------------------------------------------------

struct FinCase {
  uint32_t ab, headCount, headLen, tailCount;
  bool counts;
  uint32_t tmpBytes;  // 0: the stack-buffer prototypes
};

template <bool correction>
void CheckFinalize(const FinCase& c, const char* soc, uint32_t seed) {
  const std::vector<float> im = Random<float>(seed, c.ab);
  const std::vector<float> iv = Random<float>(seed + 1, c.ab, 0.0f, 3.0f);
  std::vector<int32_t> cnt(c.ab);
  for (uint32_t i = 0; i < c.ab; ++i) cnt[i] = static_cast<int32_t>(1 + (i * 7 + seed) % 9);
  const uint32_t tailLen = c.ab - c.headLen;
  double total = 0;
  for (uint32_t i = 0; i < c.ab; ++i) {
    total += c.counts ? cnt[i] : (i < c.headLen ? c.headCount : c.tailCount);
  }
  WelfordFinalizePara p{};
  p.rnLength = c.headCount;
  p.abLength = c.ab;
  p.headCount = c.headCount;
  p.headCountLength = c.headLen;
  p.tailCount = c.tailCount;
  p.tailCountLength = tailLen;
  p.abRec = 1.0f / static_cast<float>(c.ab);
  p.rRec = static_cast<float>(1.0 / total);
  std::vector<float> om, ov;
  const std::string check = RunBlock(soc, [&] {
    Bufs u({c.ab * 4, c.ab * 4, c.ab * 4, 32, 32, c.tmpBytes == 0 ? 32 : c.tmpBytes});
    u.Put(0, im);
    u.Put(1, iv);
    u.Put(2, cnt);
    WelfordFinalizePara pp = p;
    const LocalTensor<int32_t> counts = u.Get<int32_t>(2);
    if (c.tmpBytes != 0 && c.counts) {
      WelfordFinalize<false, correction ? kCorrection : WFFINALIZE_DEFAULT_CFG>(
          u.Get<float>(3), u.Get<float>(4), u.Get<float>(0), u.Get<float>(1), counts,
          u.Get<uint8_t>(5), pp);
    } else if (c.tmpBytes != 0) {
      WelfordFinalize<false>(u.Get<float>(3), u.Get<float>(4), u.Get<float>(0), u.Get<float>(1),
                             u.Get<uint8_t>(5), pp);
    } else if (c.counts) {
      WelfordFinalize<false>(u.Get<float>(3), u.Get<float>(4), u.Get<float>(0), u.Get<float>(1),
                             counts, pp);
    } else {
      WelfordFinalize<false>(u.Get<float>(3), u.Get<float>(4), u.Get<float>(0), u.Get<float>(1),
                             pp);
    }
    om = u.Take<float>(3, 8);
    ov = u.Take<float>(4, 8);
  });
  ASSERT_EQ(check, "");
  ASSERT_EQ(om.size(), 8u);
  // The oracle: weights w_i (counts, or head/tail counts; abRec weights when there is no tail).
  const bool noTail = !c.counts && (tailLen == 0 || c.tailCount == 0);
  double m = 0, scale = 0;
  std::vector<double> w(c.ab);
  for (uint32_t i = 0; i < c.ab; ++i) {
    w[i] = c.counts ? cnt[i] : (i < c.headLen ? c.headCount : c.tailCount);
    m += noTail ? im[i] / c.ab : im[i] * w[i] / total;
    scale += std::fabs(im[i]) * (noTail ? 1.0 / c.ab : w[i] / total);
  }
  double v = 0, vs = 0;
  for (uint32_t i = 0; i < c.ab; ++i) {
    const double k = noTail ? c.headCount : w[i];
    v += (iv[i] + (im[i] - m) * (im[i] - m) * k) / total;
    vs +=
        (iv[i] + (std::fabs(im[i]) + std::fabs(m)) * (std::fabs(im[i]) + std::fabs(m)) * k) / total;
  }
  // Terms: 3 roundings (weights, rRec); the fold and the trees: depth = ab/64 folds + 6 + 6.
  const int depth = static_cast<int>(c.ab / 64) + 12;
  ExpectWithin(om[0], m, (depth + 4) * kU * scale, "mean");
  ExpectWithin(ov[0], v, (depth + 10) * kU * vs + 2 * kU * scale * scale, "variance");
  // Elements 1..7: zeroed on 2201/2002; the 950's code writes element 0 only (the buffers start
  // zeroed here, so they read 0 too).
  for (int i = 1; i < 8; ++i) {
    EXPECT_EQ(om[i], 0.0f);
    EXPECT_EQ(ov[i], 0.0f);
  }
}

TEST(NormExtWelfordFinalize, EveryPrototypeOnBothArchs) {
  for (const char* soc : {k910B, k950, k310P}) {
    SCOPED_TRACE(soc);
    CheckFinalize<false>({8, 1, 8, 0, true, 1024}, soc, 1);         // the sample's shape
    CheckFinalize<false>({200, 4, 200, 0, false, 1024}, soc, 2);    // no tail, 4 chunks of 64
    CheckFinalize<false>({200, 5, 131, 3, false, 2048}, soc, 3);    // head and tail counts
    CheckFinalize<false>({8200, 2, 8200, 0, false, 1024}, soc, 4);  // > 64 chunk sums
    CheckFinalize<false>({96, 1, 96, 0, true, 0}, soc, 5);
    CheckFinalize<false>({96, 3, 40, 2, false, 0}, soc, 6);
  }
}

TEST(NormExtWelfordFinalize, CorrectionOn950) {
  // isCorrection scales the variance by rRecWithCorrection (a 3510-only field): with the field
  // absent from this build's para (__NPU_ARCH__ 2201), the correction is rRec itself.
  CheckFinalize<true>({64, 1, 64, 0, true, 1024}, k950, 7);
}

TEST(NormExtWelfordFinalize, HostMinimumScratchOn950) {
  // The 3510 minimum of GetWelfordFinalizeMaxMinTmpSize (4 * (abLength + ceil128(p / 64))
  // bytes) where it is below the 2201 kernel's 1024: the 950 took the 2201 check and refused it.
  CheckFinalize<false>({40, 1, 40, 0, true, 160}, k950, 8);
  CheckFinalize<false>({72, 5, 40, 4, false, 800}, k950, 9);
  CheckFinalize<false>({16, 2, 16, 0, false, 64}, k950, 10);
}

TEST(NormExtWelfordFinalize, CheckedRefusals) {
  auto run = [](WelfordFinalizePara p, uint32_t tmpBytes) {
    return RunBlock(k910B, [&] {
      Bufs u({256, 256, 32, 32, tmpBytes});
      WelfordFinalize<false>(u.Get<float>(2), u.Get<float>(3), u.Get<float>(0), u.Get<float>(1),
                             u.Get<uint8_t>(4), p);
    });
  };
  EXPECT_EQ(run({1, 64, 1, 64, 0, 0, 1.0f / 64, 1.0f / 64}, 1024), "");
  EXPECT_EQ(run({1, 60, 1, 60, 0, 0, 1.0f / 60, 1.0f / 60}, 1024), "WelfordFinalize.para");
  EXPECT_EQ(run({1, 64, 1, 60, 0, 0, 1.0f / 64, 1.0f / 64}, 1024), "WelfordFinalize.para");
  EXPECT_EQ(run({1, 64, 1, 32, 0, 32, 1.0f / 64, 1.0f / 64}, 1024), "WelfordFinalize.para");
  EXPECT_EQ(run({1, 64, 1, 64, 0, 0, 1.0f / 64, 1.0f / 64}, 512), "WelfordFinalize.tmp_buffer");
  EXPECT_EQ(RunBlock(k310B,
                     [&] {
                       Bufs u({256, 256, 32, 32, 1024});
                       WelfordFinalizePara p{1, 64, 1, 64, 0, 0, 1.0f / 64, 1.0f / 64};
                       WelfordFinalize<false>(u.Get<float>(2), u.Get<float>(3), u.Get<float>(0),
                                              u.Get<float>(1), u.Get<uint8_t>(4), p);
                     }),
            "WelfordFinalize.unsupported_product");
  EXPECT_EQ(run({1, 128, 1, 128, 0, 0, 1.0f / 128, 1.0f / 128}, 1024),
            "WelfordFinalize.operand_bounds");
}

TEST(NormExtWelfordTiling, SizesPinnedOn910B) {
  uint32_t mx = 1, mn = 1;
  GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 64}), 4, 4, false, true, mx, mn);
  EXPECT_EQ(mn, 512u);
  EXPECT_EQ(mx, 512u);
  GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 200}), 2, 4, false, false, mx, mn);
  EXPECT_EQ(mn, 768u);
  EXPECT_EQ(mx, 4u * 768);
  GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 200}), 4, 4, true, false, mx, mn);
  EXPECT_EQ(mn, 256u);
  EXPECT_EQ(mx, 4u * 256);
  GetWelfordFinalizeMaxMinTmpSize(ge::Shape({8}), 4, false, mx, mn);
  EXPECT_EQ(mn, 1024u);
  EXPECT_EQ(mx, 1024u);
  GetWelfordFinalizeMaxMinTmpSize(ge::Shape({256}), 4, false, mx, mn);
  EXPECT_EQ(mn, 1024u);
  EXPECT_EQ(mx, 4u * (128 + 512));
  mx = mn = 7;
  GetWelfordFinalizeMaxMinTmpSize(ge::Shape({12}), 4, false, mx, mn);
  EXPECT_EQ(mx, 7u);  // refused: not a multiple of 8
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

}  // namespace
