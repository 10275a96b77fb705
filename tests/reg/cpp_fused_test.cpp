// Tests of layer reg: the fused functions (ExpSub, AbsSub, MulDstAdd, MulsCast), the named
// reductions (ReduceSum, ReduceMax, ReduceMin and their WithDataBlock forms), Duplicate from a
// register lane, and the C flavour's asc_exp_sub / asc_abs_sub, against reg_model.h (a separate
// reading of the reference) and C against C++ bit for bit.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cpp_test_util.h"

namespace {

namespace Reg = AscendC::Reg;

using namespace lngrad::reg::testing;

constexpr uint32_t kF = kN<float>;

std::vector<float> Values(std::mt19937& rng) {
  std::uniform_real_distribution<float> d(-8.0f, 8.0f);
  std::vector<float> v(kF);
  for (float& x : v) x = d(rng);
  return v;
}

TEST(CppFused, ExpSubAbsSubMulDstAddFollowTheModel) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    const auto a = Values(rng), b = Values(rng), d = Values(rng);
    ModelMask mm;
    const vector_bool mask = RandomMask<float>(rng, &mm);
    Reg::RegTensor<float> ta = Tensor(a), tb = Tensor(b), e, s, m = Tensor(d);
    Reg::ExpSub(e, ta, tb, mask);
    Reg::AbsSub(s, ta, tb, mask);
    Reg::MulDstAdd(m, ta, tb, mask);
    vector_float ce, cs;
    asc_exp_sub(ce, Fill(a), Fill(b), mask);
    asc_abs_sub(cs, Fill(a), Fill(b), mask);
    EXPECT_TRUE(SameRegs<float>(ce, e));
    EXPECT_TRUE(SameRegs<float>(cs, s));
    for (uint32_t i = 0; i < kF; ++i) {
      const bool on = mm.bit[i * 4];
      EXPECT_TRUE(SameBits(e.lane[i], on ? ModelExpSub(a[i], b[i]) : 0.0f)) << i;
      EXPECT_TRUE(SameBits(s.lane[i], on ? ModelAbsSub(a[i], b[i]) : 0.0f)) << i;
      EXPECT_TRUE(SameBits(m.lane[i], on ? ModelMulDstAdd(d[i], a[i], b[i]) : 0.0f)) << i;
    }
  }
}

// Half sources: lane i of the float result from half lanes 2i (ZERO) or 2i + 1 (ONE), converted
// exactly; the mask selects by the half lanes.
TEST(CppFused, ExpSubOfHalfPicksItsLayout) {
  std::vector<half> a(kN<half>), b(kN<half>);
  for (uint32_t k = 0; k < kN<half>; ++k) {
    a[k] = half(0.125f * float(k % 17));
    b[k] = half(0.25f * float(k % 5));
  }
  vector_bool mask = asc_create_mask_b16(PAT_ALL);
  mask.SetLane<half>(6, false);  // float lane 3 of layout ZERO
  Reg::RegTensor<float> zero, one;
  Reg::ExpSub(zero, Tensor(a), Tensor(b), mask);
  Reg::ExpSub<float, half, Reg::RegLayout::ONE>(one, Tensor(a), Tensor(b), mask);
  vector_float c;
  asc_exp_sub(c, Fill(a), Fill(b), mask);
  EXPECT_TRUE(SameRegs<float>(c, zero));
  for (uint32_t i = 0; i < kF; ++i) {
    const float want0 = i == 3 ? 0.0f : ModelExpSub(float(a[2 * i]), float(b[2 * i]));
    EXPECT_TRUE(SameBits(zero.lane[i], want0)) << i;
    EXPECT_TRUE(SameBits(one.lane[i], ModelExpSub(float(a[2 * i + 1]), float(b[2 * i + 1])))) << i;
  }
}

// MulsCast: float * scalar, then to half rounding ties away from zero (CAST_ROUND), in lane 2i.
TEST(CppFused, MulsCastRoundsTiesAway) {
  std::vector<float> src(kF, 0.0f);
  src[0] = 2049.0f;   // between 2048 and 2050 in half: away gives 2050
  src[1] = -2049.0f;  // -2050
  src[2] = 1.5f;      // exact
  const vector_bool mask = asc_create_mask_b32(PAT_ALL);
  Reg::RegTensor<half> dst;
  Reg::MulsCast(dst, Tensor(src), 1.0f, mask);
  EXPECT_EQ(float(dst.lane[0]), 2050.0f);
  EXPECT_EQ(float(dst.lane[2]), -2050.0f);
  EXPECT_EQ(float(dst.lane[4]), 1.5f);
  EXPECT_EQ(float(dst.lane[1]), 0.0f);  // the odd lanes: zero
}

TEST(CppFused, NamedReductionsAreTheTableRows) {
  std::mt19937 rng(11);
  for (int round = 0; round < 10; ++round) {
    const auto a = Values(rng);
    ModelMask mm;
    const vector_bool mask = RandomMask<float>(rng, &mm);
    Reg::RegTensor<float> sum, mx, mn, sumBlk, viaReduce;
    Reg::ReduceSum(sum, Tensor(a), mask);
    Reg::ReduceMax(mx, Tensor(a), mask);
    Reg::ReduceMin(mn, Tensor(a), mask);
    Reg::ReduceSumWithDataBlock(sumBlk, Tensor(a), mask);
    Reg::Reduce<AscendC::ReduceType::MIN>(viaReduce, Tensor(a), mask);
    EXPECT_TRUE(SameRegs<float>(mn, viaReduce));
    EXPECT_TRUE(SameBits(sum.lane[0], ModelTreeSum(a, mm, 0, kF)));
    EXPECT_EQ(mx.lane[0], ModelMax(a, mm, 0, kF));
    for (uint32_t k = 0; k < 8; ++k) {
      EXPECT_TRUE(SameBits(sumBlk.lane[k], ModelTreeSum(a, mm, 8 * k, 8))) << k;
    }
    for (uint32_t i = 1; i < kF; ++i) EXPECT_EQ(sum.lane[i], 0.0f) << i;
  }
}

TEST(CppFused, DuplicateOfARegisterTakesItsLowestLane) {
  std::vector<int32_t> v(kN<int32_t>);
  for (uint32_t i = 0; i < v.size(); ++i) v[i] = int32_t(i) - 5;
  vector_bool mask = asc_create_mask_b32(PAT_H);
  Reg::RegTensor<int32_t> src = Tensor(v), dst = Tensor(v);
  Reg::Duplicate(dst, src, mask);
  Reg::RegTensor<int32_t> merged = Tensor(v);
  Reg::Duplicate<int32_t, Reg::HighLowPart::LOWEST, Reg::MaskMergeMode::MERGING>(merged, src, mask);
  for (uint32_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(dst.lane[i], i < v.size() / 2 ? -5 : 0) << i;
    EXPECT_EQ(merged.lane[i], i < v.size() / 2 ? -5 : v[i]) << i;
  }
}

}  // namespace
