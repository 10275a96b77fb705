// The SoftMax family's row sums against the toolkit's instruction sequence, replayed here with
// lngrad's basic instructions (Adds, Exp, Add, BlockReduceSum, WholeReduceSum): the sums of
// SoftMax (NewReduceSumLastNDImpl) and SoftmaxGradFront (ReduceSumLastNDImpl) must have the
// same bits, for row lengths in every branch (< 64, [64, 128), [128, 512), >= 512, tails).
// Also the deprecated SoftmaxFlash against a float64 oracle, and SoftMax isBasicBlock's half
// statistics in splits of one row (the work buffer's overrun: refused checked, followed unchecked).
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::RandomValues;
using lngrad::aicore::test::Ub;

constexpr uint32_t kLanes = 64;

uint32_t BitsOf(float f) {
  uint32_t b = 0;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// NewReduceSumLastNDImpl for one row of k values at v (scratch acc, 64 floats): the 64-lane
// accumulator, the tail, then one WholeReduceSum over the 64 lanes into out[0]. basic: the
// basic-block path's BasicBlockAddImpl (every chunk added from the first two on).
void SoftMaxSumSequence(const AscendC::LocalTensor<float>& out,
                        const AscendC::LocalTensor<float>& v,
                        const AscendC::LocalTensor<float>& acc, uint32_t k, bool basic = false) {
  if (k < kLanes) {
    AscendC::WholeReduceSum<float>(out, v, static_cast<int32_t>(k), 1, 1, 1, 8);
    return;
  }
  const uint32_t blocks = k / kLanes, tail = k % kLanes;
  uint32_t next = 1;
  if (k >= 512 && !basic) {
    AscendC::BlockReduceSum<float>(acc, v, 8, 64, 1, 1, 8);
    next = 8;
  } else if (k >= 128) {
    AscendC::Add(acc, v, v[kLanes], kLanes);
    next = 2;
  } else {
    AscendC::Adds(acc, v, 0.0f, kLanes);
  }
  for (uint32_t b = next; b < blocks; ++b) AscendC::Add(acc, v[b * kLanes], acc, kLanes);
  if (tail != 0) AscendC::Add(acc, acc, v[blocks * kLanes], tail);
  AscendC::WholeReduceSum<float>(out, acc, 64, 1, 1, 1, 8);
}

// ReduceSumLastNDImpl for one row: each chunk's eight block sums added chunk by chunk, their
// block sum, then the tail's masked WholeReduceSum added.
void GradSumSequence(const AscendC::LocalTensor<float>& out, const AscendC::LocalTensor<float>& v,
                     const AscendC::LocalTensor<float>& acc, uint32_t k) {
  const uint32_t blocks = k / kLanes, tail = k % kLanes;
  auto b8 = acc, t8 = acc[64], tailSum = acc[128];
  for (uint32_t b = 0; b < blocks; ++b) {
    AscendC::BlockReduceSum<float>(b == 0 ? b8 : t8, v[b * kLanes], 1, 64, 1, 1, 8);
    if (b > 0) AscendC::Add(b8, b8, t8, 8);
  }
  if (blocks > 0) AscendC::BlockReduceSum<float>(out, b8, 1, 8, 1, 1, 8);
  if (tail == 0) return;
  AscendC::WholeReduceSum<float>(blocks > 0 ? tailSum : out, v[blocks * kLanes],
                                 static_cast<int32_t>(tail), 1, 1, 1, 8);
  if (blocks > 0) AscendC::Add(out, out, tailSum, 1);
}

TEST(SoftMaxOrder, RowSumsAreTheInstructionSequence) {
  for (uint32_t k : {40u, 64u, 72u, 128u, 200u, 512u, 600u, 1040u}) {
    SCOPED_TRACE("k " + std::to_string(k));
    const uint32_t m = 3;
    const auto x = RandomValues<float>(k, m * k);
    OnBlock([&](Ub& ub) {
      ub.Put(0, x);
      auto src = ub.Get<float>(0);
      auto dst = ub.Get<float>(1);
      auto st = ub.Get<float>(2);
      auto work = ub.Get<float>(3);
      SoftMaxTiling t;
      AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), 4, 8192, t);
      AscendC::SoftMax<float>(dst, st[0], st[1024], src, t, {m, k, m, k});
      for (uint32_t r = 0; r < m; ++r) {
        const float mx = st.HostPtr()[1024 + r * 8];
        auto v = work[0];
        AscendC::Adds(v, src[r * k], -mx, k);
        AscendC::Exp(v, v, k);
        SoftMaxSumSequence(work[2048], v, work[4096], k);
        EXPECT_EQ(BitsOf(work.HostPtr()[2048]), BitsOf(st.HostPtr()[r * 8])) << "row " << r;
      }
      AscendC::SoftmaxGradFront<float>(st[2048], src, dst, t, {m, k, m, k});
      for (uint32_t r = 0; r < m; ++r) {
        auto p = work[0];
        AscendC::Mul(p, dst[r * k], src[r * k], k);
        GradSumSequence(work[2048], p, work[4096], k);
        EXPECT_EQ(BitsOf(work.HostPtr()[2048]), BitsOf(st.HostPtr()[2048 + r * 8])) << "grad " << r;
      }
    });
  }
}

TEST(SoftMaxOrder, BasicBlockSumsAreBasicBlockAddImpl) {
  const uint32_t m = 8, k = 640;
  const auto x = RandomValues<float>(99, m * k);
  OnBlock([&](Ub& ub) {
    ub.Put(0, x);
    auto src = ub.Get<float>(0);
    auto st = ub.Get<float>(2);
    auto work = ub.Get<float>(3);
    SoftMaxTiling t;
    AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), 4, 40960, t);
    AscendC::SoftMax<float, false, true>(ub.Get<float>(1), st[0], st[1024], src, t, {m, k, m, k});
    for (uint32_t r = 0; r < m; ++r) {
      auto v = work[0];
      AscendC::Adds(v, src[r * k], -st.HostPtr()[1024 + r * 8], k);
      AscendC::Exp(v, v, k);
      SoftMaxSumSequence(work[2048], v, work[4096], k, true);
      EXPECT_EQ(BitsOf(work.HostPtr()[2048]), BitsOf(st.HostPtr()[r * 8])) << "row " << r;
    }
  });
}

}  // namespace

namespace {

// SoftmaxFlash (deprecated V1): a row in two blocks, no update then update; the second call's
// dst is exp(x - max) / sum over the whole row, sum the whole row's, expMax the first block's
// share. Bounds as SoftmaxFlashV2's (softmax_api_test.cpp), doubled for the two-step sum.
// basic: isBasicBlock on 2201 (rows a multiple of 8, k of 64), whose float update leaves the
// result in src (SoftmaxFlashBasicBlockFloat), in the order (e / s) * (a s / sum); same bounds.
template <bool basic>
void CheckFlashTwoBlocks(uint32_t m, uint32_t k) {
  const auto a = RandomValues<float>(71, m * k);
  const auto b = RandomValues<float>(72, m * k, -4.0f, 6.0f);
  std::vector<float> y, st;
  OnBlock([&](Ub& ub) {
    SoftMaxTiling t;
    AscendC::SoftMaxFlashTilingFunc(ge::Shape({m, k}), 4, 40960, t, true);
    // A tail split would stay uncomputed on the basic path (the device's float form has none).
    if (basic) {
      ASSERT_EQ(t.tailM, 0u) << m << "x" << k << " splitM " << t.splitM;
    }
    auto s = ub.Get<float>(2);
    const AscendC::SoftMaxShapeInfo shape{m, k, m, k};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ub.Put(0, a);
    AscendC::SoftmaxFlash<float, false, basic>(ub.Get<float>(1), s[0], s[1024], ub.Get<float>(0),
                                               s[2048], s[0], s[1024], ub.Get<uint8_t>(3), t, false,
                                               shape);
    ub.Put(0, b);
    AscendC::SoftmaxFlash<float, false, basic>(ub.Get<float>(1), s[0], s[1024], ub.Get<float>(0),
                                               s[2048], s[0], s[1024], t, true, shape);
#pragma GCC diagnostic pop
    y = ub.Take<float>(basic ? 0 : 1);
    st = ub.Take<float>(2);
  });
  for (uint32_t r = 0; r < m; ++r) {
    double ma = -INFINITY, mb = -INFINITY;
    for (uint32_t j = 0; j < k; ++j) {
      ma = std::max(ma, static_cast<double>(a[r * k + j]));
      mb = std::max(mb, static_cast<double>(b[r * k + j]));
    }
    const double mx = std::max(ma, mb);
    double sa = 0, sb = 0;
    for (uint32_t j = 0; j < k; ++j) {
      sa += std::exp(a[r * k + j] - mx);
      sb += std::exp(b[r * k + j] - mx);
    }
    const double sum = sa + sb;
    EXPECT_EQ(st[1024 + r * 8], static_cast<float>(mx));
    EXPECT_NEAR(st[r * 8], sum, 4e-6 * sum);
    EXPECT_NEAR(st[2048 + r * 8], sa / sum, 4e-6 * sa / sum);
    for (uint32_t j = 0; j < k; ++j) {
      const double want = std::exp(b[r * k + j] - mx) / sum;
      EXPECT_NEAR(y[r * k + j], want, 4e-6 * want + std::ldexp(1.0, -25));
    }
  }
}

TEST(SoftmaxFlashApi, UpdateNormalisesOverBothBlocks) { CheckFlashTwoBlocks<false>(3, 80); }

TEST(SoftmaxFlashApi, BasicBlockUpdateNormalisesOverBothBlocks) {
  CheckFlashTwoBlocks<true>(8, 256);
  CheckFlashTwoBlocks<true>(8, 384);
  CheckFlashTwoBlocks<true>(16, 192);
}

constexpr AscendC::SoftmaxConfig kNoBrc = {true, 0, 0,
                                           AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

// SOFTMAX_OUTPUT_WITHOUT_BRC: one statistic per row, the same values as the broadcast form;
// outReduceMax is the block's own row max. The outReduceMax form in the normal mode writes
// nothing (as the toolkit's).
TEST(SoftmaxFlashV2Api, WithoutBroadcastKeepsOneValuePerRow) {
  const uint32_t m = 5, k = 72;
  const auto a = RandomValues<float>(81, m * k);
  const auto b = RandomValues<float>(82, m * k, -4.0f, 6.0f);
  OnBlock([&](Ub& ub) {
    SoftMaxTiling t;
    AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({m, k}), 4, 4, 40960, t, true);
    const AscendC::SoftMaxShapeInfo shape{m, k, m, k};
    auto s = ub.Get<float>(2);
    auto x = ub.Get<float>(0);
    ub.Put(0, a);
    AscendC::SoftmaxFlashV2<float, false>(ub.Get<float>(1), s[0], s[64], x, s[128], s[0], s[64], t,
                                          shape);
    AscendC::SoftmaxFlashV2<float, false, false, false, false, kNoBrc>(
        ub.Get<float>(1), s[512], s[640], x, s[768], s[512], s[640], t, shape);
    ub.Put(0, b);
    AscendC::SoftmaxFlashV2<float, true>(ub.Get<float>(1), s[0], s[64], x, s[128], s[0], s[64], t,
                                         shape);
    const std::vector<float> y = ub.Take<float>(1);
    AscendC::SoftmaxFlashV2<float, true, false, false, false, kNoBrc>(
        ub.Get<float>(1), s[1024], s[512], s[640], x, s[768], s[512], s[640], t, shape);
    EXPECT_EQ(y, ub.Take<float>(1));
    for (uint32_t r = 0; r < m; ++r) {
      EXPECT_EQ(s.HostPtr()[r * 8], s.HostPtr()[512 + r]) << "sum row " << r;
      EXPECT_EQ(s.HostPtr()[64 + r * 8], s.HostPtr()[640 + r]) << "max row " << r;
      EXPECT_EQ(s.HostPtr()[128 + r * 8], s.HostPtr()[768 + r]) << "expMax row " << r;
      float rmax = b[r * k];
      for (uint32_t j = 1; j < k; ++j) rmax = std::max(rmax, b[r * k + j]);
      EXPECT_EQ(s.HostPtr()[1024 + r], rmax);
    }
    s.HostPtr()[2048] = 7.0f;
    AscendC::SoftmaxFlashV2<float, true>(ub.Get<float>(1), s[2048], s[512], s[640], x, s[768],
                                         s[512], s[640], t, shape);
    EXPECT_EQ(s.HostPtr()[2048], 7.0f);
  });
}

// Basic-block SoftmaxFlashV2 with oriSrcK below srcK: the toolkit's 2201 basic-block code does
// not read oriSrcK, so every srcK column takes part in the max and the sum (its docs: the padded
// data joins part of the computation); the 3510 one runs ceil(oriSrcK / 64) whole registers
// (oriSrcK 70: 128 columns); the generic path reduces the oriSrcK columns only. float64 oracle
// over the columns each path reduces: max exact, sum within 2e-6 relative, dst within 2e-6 |exact|
// + 2^-25 (softmax_api_test.cpp's bounds). Each row's padding holds 6 below column 128 and 6.5 past
// it, above its own values, so the three column counts cannot give the same statistics.
template <bool basic>
void CheckPaddingColumns(bool update, const char* soc) {
  const bool is3510 = std::string(soc) == "Ascend950PR_9589";
  const uint32_t m = 8, k = 192, oriK = 70, cols = basic ? (is3510 ? 128 : k) : oriK;
  auto a = RandomValues<float>(91, m * k);
  for (uint32_t r = 0; r < m; ++r) a[r * k + oriK + r] = 6.0f;
  for (uint32_t r = 0; r < m; ++r) a[r * k + 128 + r] = 6.5f;
  const std::vector<float> inMax(m * 8, -30.0f), inSum(m * 8, 1.0f);
  std::vector<float> y, st;
  OnBlock(
      [&](Ub& ub) {
        SoftMaxTiling t;
        AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({m, k}), 4, 4, 40960, t, update, basic);
        const AscendC::SoftMaxShapeInfo shape{m, k, m, oriK};
        auto s = ub.Get<float>(2);
        ub.Put(0, a);
        std::memcpy(s.HostPtr() + 256, inSum.data(), inSum.size() * 4);
        std::memcpy(s.HostPtr() + 512, inMax.data(), inMax.size() * 4);
        if (update) {
          AscendC::SoftmaxFlashV2<float, true, false, basic>(
              ub.Get<float>(1), s[0], s[1024], ub.Get<float>(0), s[2048], s[256], s[512], t, shape);
        } else {
          AscendC::SoftmaxFlashV2<float, false, false, basic>(
              ub.Get<float>(1), s[0], s[1024], ub.Get<float>(0), s[2048], s[256], s[512], t, shape);
        }
        y = ub.Take<float>(1);
        st = ub.Take<float>(2);
      },
      soc);
  for (uint32_t r = 0; r < m; ++r) {
    SCOPED_TRACE(std::string(soc) + " row " + std::to_string(r) + " basic " +
                 std::to_string(basic));
    double mx = -30.0;  // inMax (no update: below every value)
    for (uint32_t j = 0; j < cols; ++j) mx = std::max(mx, static_cast<double>(a[r * k + j]));
    double sum = update ? std::exp(-30.0 - mx) : 0.0;
    for (uint32_t j = 0; j < cols; ++j) sum += std::exp(a[r * k + j] - mx);
    EXPECT_EQ(st[1024 + r * 8], static_cast<float>(mx));
    EXPECT_NEAR(st[r * 8], sum, 2e-6 * sum);
    for (uint32_t j = 0; j < cols; ++j) {
      const double want = std::exp(a[r * k + j] - mx);
      EXPECT_NEAR(y[r * k + j], want, 2e-6 * want + std::ldexp(1.0, -25)) << "column " << j;
    }
  }
}

TEST(SoftmaxFlashV2Api, BasicBlockReducesThePaddingColumns) {
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9589"}) {
    for (const bool update : {false, true}) {
      CheckPaddingColumns<true>(update, soc);
      CheckPaddingColumns<false>(update, soc);
    }
  }
}

// SOFTMAX_OUTPUT_WITHOUT_BRC on 2002: membase/v200/softmax_flashv2_impl.h's
// SoftmaxFlashV2M1PostProcess only asserts "not supported on current device" (both forms, with
// and without update): checked mode refuses it (product), unchecked nothing is written; 2201 runs
// it.
TEST(SoftmaxFlashV2Api, WithoutBroadcastIsNotSupportedOn2002) {
  const uint32_t m = 5, k = 72;
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({m, k}), 4, 4, 40960, t, true);
  const AscendC::SoftMaxShapeInfo shape{m, k, m, k};
  const auto call = [&](Ub& ub, int form) {
    auto s = ub.Get<float>(2);
    auto x = ub.Get<float>(0);
    if (form == 0) {
      AscendC::SoftmaxFlashV2<float, false, false, false, false, kNoBrc>(
          ub.Get<float>(1), s[512], s[640], x, s[768], s[512], s[640], t, shape);
    } else if (form == 1) {
      AscendC::SoftmaxFlashV2<float, true, false, false, false, kNoBrc>(
          ub.Get<float>(1), s[512], s[640], x, s[768], s[896], s[1024], t, shape);
    } else {
      AscendC::SoftmaxFlashV2<float, true, false, false, false, kNoBrc>(
          ub.Get<float>(1), s[0], s[512], s[640], x, s[768], s[896], s[1024], t, shape);
    }
  };
  const bool was = lngrad::aicore::CheckedMode();
  for (int form = 0; form < 3; ++form) {
    SCOPED_TRACE(form);
    lngrad::aicore::SetCheckedMode(true);
    const auto r = lngrad::aicore::test::CheckOf([&](Ub& ub) { call(ub, form); }, "Ascend310P1");
    EXPECT_EQ(r.first, "product") << r.second;
    EXPECT_EQ(lngrad::aicore::test::CheckOf([&](Ub& ub) { call(ub, form); }, "Ascend910B1").first,
              "");
    lngrad::aicore::SetCheckedMode(false);
    OnBlock(
        [&](Ub& ub) {
          ub.Put(0, RandomValues<float>(83, m * k));
          ub.Put(1, std::vector<float>(), -2.5f);
          ub.Put(2, std::vector<float>(), 3.25f);
          call(ub, form);
          for (const float v : ub.Take<float>(1)) ASSERT_EQ(v, -2.5f);
          for (const float v : ub.Take<float>(2)) ASSERT_EQ(v, 3.25f);
        },
        "Ascend310P1");
  }
  lngrad::aicore::SetCheckedMode(was);
}

// SOFTMAX_OUTPUT_WITHOUT_BRC, update, float statistics: the generic path (M1UpdateImpl) multiplies
// expMax * inExpSum into expSum and leaves inExpSum alone; the basic-block path on 2201
// (SoftmaxFlashV2M1BasicBlockImpl) multiplies into inExpSum. outReduceMax gets the row max with
// update; without update neither 2201 nor 3510 writes it (their no-update M1 code has no such
// operand).
TEST(SoftmaxFlashV2Api, WithoutBroadcastInExpSumAndOutReduceMax) {
  const uint32_t m = 8, k = 64;
  const auto a = RandomValues<float>(93, m * k);
  std::vector<float> inSum(m), inMax(m, 1.0f);
  for (uint32_t r = 0; r < m; ++r) inSum[r] = 1.0f + 0.375f * static_cast<float>(r);
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9589"}) {
    for (const bool basic : {false, true}) {
      SCOPED_TRACE(std::string(soc) + " basic " + std::to_string(basic));
      OnBlock(
          [&](Ub& ub) {
            SoftMaxTiling t;
            AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({m, k}), 4, 4, 40960, t, true, basic);
            const AscendC::SoftMaxShapeInfo shape{m, k, m, k};
            auto s = ub.Get<float>(2);
            ub.Put(0, a);
            std::memcpy(s.HostPtr() + 192, inSum.data(), m * 4);
            std::memcpy(s.HostPtr() + 256, inMax.data(), m * 4);
            for (uint32_t r = 0; r < m; ++r) s.HostPtr()[320 + r] = 7.0f;
            auto x = ub.Get<float>(0);
            if (basic) {
              AscendC::SoftmaxFlashV2<float, false, false, true, false, kNoBrc>(
                  ub.Get<float>(1), s[320], s[0], s[64], x, s[128], s[192], s[256], t, shape);
            } else {
              AscendC::SoftmaxFlashV2<float, false, false, false, false, kNoBrc>(
                  ub.Get<float>(1), s[320], s[0], s[64], x, s[128], s[192], s[256], t, shape);
            }
            for (uint32_t r = 0; r < m; ++r) EXPECT_EQ(s.HostPtr()[320 + r], 7.0f) << r;
            ub.Put(0, a);
            if (basic) {
              AscendC::SoftmaxFlashV2<float, true, false, true, false, kNoBrc>(
                  ub.Get<float>(1), s[320], s[0], s[64], x, s[128], s[192], s[256], t, shape);
            } else {
              AscendC::SoftmaxFlashV2<float, true, false, false, false, kNoBrc>(
                  ub.Get<float>(1), s[320], s[0], s[64], x, s[128], s[192], s[256], t, shape);
            }
            const bool product = basic && std::string(soc) == "Ascend910B1";
            for (uint32_t r = 0; r < m; ++r) {
              const float em = s.HostPtr()[128 + r];
              EXPECT_EQ(s.HostPtr()[192 + r], product ? em * inSum[r] : inSum[r]) << r;
              EXPECT_EQ(s.HostPtr()[320 + r], *std::max_element(&a[r * k], &a[r * k + k])) << r;
            }
          },
          soc);
    }
  }
}

// Half results round as the device's Cast in each implementation: CAST_ROUND (ties away from
// zero) on 2201 (membase/v220 FLOAT2HALF_ROUND_MODE), RNE on 3510 (the register Cast's
// CAST_RINT). Row: grad [1.5, -1.5, 1, 0...], src [1, 1, -2^-11, 0...], so s = -2^-11 exactly,
// dst0 = 1.5 + 2^-11 and dst2 = -(2^-11 + 2^-22): both exact ties between two halves.
TEST(SoftmaxGradApi, HalfResultsRoundAsTheDevicesCast) {
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9589"}) {
    std::vector<half> g(16, half(0.0f)), y(16, half(0.0f)), out;
    g[0] = half(1.5f);
    g[1] = half(-1.5f);
    g[2] = half(1.0f);
    y[0] = half(1.0f);
    y[1] = half(1.0f);
    y[2] = half(-std::ldexp(1.0f, -11));
    OnBlock(
        [&](Ub& ub) {
          ub.Put(0, g);
          ub.Put(1, y);
          SoftMaxTiling t;
          AscendC::SoftmaxGrad<half>(ub.Get<half>(2), ub.Get<half>(0), ub.Get<half>(1), t, false,
                                     {1, 16, 1, 16});
          out = ub.Take<half>(2);
        },
        soc);
    const bool away = std::string(soc) == "Ascend910B1";
    EXPECT_EQ(out[0].bits, away ? 0x3E01 : 0x3E00) << soc;
    EXPECT_EQ(out[2].bits, away ? 0x9001 : 0x9000) << soc;
  }
}

// SoftMax<half, isBasicBlock> with half statistics in splits of one row ([8, 128], the host tiling
// for GetSoftMaxMinTmpSize's minimum: 208 floats). SoftMaxBasicBlock's two Brcbs write 128 floats
// from tmpBuffer1 at splitSize (128), 48 past that buffer. Checked mode refuses the call
// (tensor_bounds) before writing anything; 256 floats are taken. Unchecked, the device's
// statistics for either buffer: lanes 0..7 the row max, lanes 8..15 the block the first Brcb put
// over the group results at tmpBuffer1 + 64 (BlockReduceMax of BasicBlockMaxImpl's lanes 32..39:
// the max of columns 32..39 and 96..103); the second Brcb's last block lands past the buffer.
TEST(SoftMaxBasicHalfStatistics, OneRowSplitsWritePastTheWorkBufferAsTheDevice) {
  constexpr uint32_t kM = 8, kK = 128;
  const ge::Shape shape({kM, kK});
  const uint32_t minBytes = AscendC::GetSoftMaxMinTmpSize(shape, 2, false);
  ASSERT_EQ(minBytes, (16 + kK + 64) * 4);
  const std::vector<half> x = RandomValues<half>(5, kM * kK);
  const bool was = lngrad::aicore::CheckedMode();
  for (const uint32_t bytes : {minBytes, (kK + 128) * 4}) {
    SoftMaxTiling t;
    AscendC::SoftMaxTilingFunc(shape, 2, bytes, t);
    ASSERT_EQ(t.splitM, 1u);
    for (const bool checked : {true, false}) {
      SCOPED_TRACE(std::to_string(bytes) + (checked ? " bytes, checked" : " bytes, unchecked"));
      lngrad::aicore::SetCheckedMode(checked);
      std::string check, msg;
      std::vector<half> dst, st;
      std::vector<float> work;
      OnBlock([&](Ub& ub) {
        ub.Put<half>(0, x);
        ub.Put<half>(1, {}, half(7.0f));
        ub.Put<half>(2, {}, half(7.0f));  // sum at 0, max at 1024
        ub.Put<float>(3, {}, -3.0f);
        AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(bytes);
        AscendC::LocalTensor<half> s = ub.Get<half>(2);
        try {
          AscendC::SoftMax<half, false, true>(ub.Get<half>(1), s[0], s[1024], ub.Get<half>(0), tmp,
                                              t, {kM, kK, kM, kK});
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          check = e.check();
          msg = e.message();
        }
        dst = ub.Take<half>(1);
        st = ub.Take<half>(2);
        work = ub.Take<float>(3);
      });
      const bool refused = checked && bytes == minBytes;
      EXPECT_EQ(check, refused ? "tensor_bounds" : "") << msg;
      if (refused) {
        EXPECT_NE(msg.find("Brcbs"), std::string::npos) << msg;
        EXPECT_NE(msg.find("1024 bytes"), std::string::npos) << msg;
        const auto is7 = [](half v) { return static_cast<float>(v) == 7.0f; };
        EXPECT_TRUE(std::all_of(dst.begin(), dst.end(), is7) &&
                    std::all_of(st.begin(), st.end(), is7) &&
                    std::all_of(work.begin(), work.end(), [](float v) { return v == -3.0f; }))
            << "the refused call wrote";
        continue;
      }
      for (uint32_t r = 0; r < kM; ++r) {
        float rowMax = -INFINITY, part = -INFINITY;
        for (uint32_t c = 0; c < kK; ++c) {
          const float v = static_cast<float>(x[r * kK + c]);
          rowMax = std::max(rowMax, v);
          if (c % 64 >= 32 && c % 64 < 40) part = std::max(part, v);
        }
        for (uint32_t j = 0; j < 16; ++j) {
          EXPECT_EQ(static_cast<float>(st[1024 + r * 16 + j]), j < 8 ? rowMax : part)
              << "row " << r << " max lane " << j;
        }
        EXPECT_LT(static_cast<float>(st[r * 16 + 8]), static_cast<float>(st[r * 16]))
            << "row " << r << ": sum lanes 8..15 are the sum over 16 columns";
      }
      // The second Brcb's blocks: the last pass's lanes 8..15 at tmpBuffer1 + 8 and + 120.
      EXPECT_EQ(work[kK + 120], work[kK + 8]);
      EXPECT_EQ(work[kK + 127], work[kK + 8]);
    }
  }
  lngrad::aicore::SetCheckedMode(was);
}

// A caller's tiling made for a larger buffer than the one passed (4 rows a split, a buffer of one
// row's minimum): SoftMaxBasicBlock's split reaches past sharedTmpBuffer whatever the statistics'
// type; checked mode refuses it (tensor_bounds) before writing anything.
TEST(SoftMaxBasicWorkBuffer, TilingForALargerBufferIsRefusedInCheckedMode) {
  constexpr uint32_t kM = 8, kK = 128;
  const ge::Shape shape({kM, kK});
  SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(shape, 4, (8 + kK + 64) * 4 * 4, t);
  ASSERT_EQ(t.splitM, 4u);
  const auto r = lngrad::aicore::test::CheckOf([&](Ub& ub) {
    ub.Put<float>(1, {}, 7.0f);
    AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
    tmp.SetSize((16 + kK + 64) * 4);
    AscendC::LocalTensor<float> s = ub.Get<float>(2);
    try {
      AscendC::SoftMax<half, false, true>(ub.Get<half>(1), s[0], s[1024], ub.Get<half>(0), tmp, t,
                                          {kM, kK, kM, kK});
    } catch (...) {
      const std::vector<float> d = ub.Take<float>(1);
      EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](float v) { return v == 7.0f; }));
      throw;
    }
  });
  EXPECT_EQ(r.first, "tensor_bounds") << r.second;
  EXPECT_NE(r.second.find("made for a larger buffer"), std::string::npos) << r.second;
}

}  // namespace
