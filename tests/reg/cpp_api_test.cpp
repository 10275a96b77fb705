// Tests of layer reg: the C++ flavour AscendC::Reg against the scalar model of reg_model.h
// (written from the reference, not from lngrad_reg) and against the C flavour on the same inputs
// (the same bits: both run the engines of lngrad_reg/engine.h); its loads and stores on the
// simulated 950, and the checks they raise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "basic_api/reg_compute/kernel_reg_compute_intf.h"
#include "c_api/asc_simd.h"
#include "capi_test_util.h"
#include "cpp_test_util.h"
#include "lngrad_aicore/check.h"
#include "reg_model.h"

namespace {

namespace Reg = AscendC::Reg;
namespace aicore = lngrad::aicore;
using namespace lngrad::reg::testing;

// cpp(d, a, b, mask) against the model's op in the selected lanes (the others: 0, or dst's
// lanes when merging) and against c(d, a, b, mask) of the C flavour.
template <typename T, bool merging, typename Cpp, typename C>
void CheckBinary(Op op, Cpp cpp, C c) {
  std::mt19937 rng(11 + static_cast<int>(op));
  for (int round = 0; round < 20; ++round) {
    const auto a = RandomLanes<T>(rng, kN<T>), b = RandomLanes<T>(rng, kN<T>);
    const auto old = RandomLanes<T>(rng, kN<T>);
    ModelMask mm;
    const Reg::MaskReg mask = RandomMask<T>(rng, &mm);
    Reg::RegTensor<T> dst = Tensor(old), x = Tensor(a), y = Tensor(b);
    cpp(dst, x, y, mask);
    for (uint32_t i = 0; i < kN<T>; ++i) {
      const T keep = merging ? old[i] : T{};
      const T want = mm.bit[i * sizeof(T)] ? ModelBinary(op, a[i], b[i]) : keep;
      ASSERT_TRUE(SameBits(dst.lane[i], want)) << "lane " << i;
    }
    if (!merging) {
      lngrad::reg::VecReg<T> viaC;
      c(viaC, Fill(a), Fill(b), mask);
      ASSERT_TRUE(SameRegs<T>(dst, viaC));
    }
  }
}

template <typename T>
void CheckArith() {
  const auto none = [](auto&, auto, auto, auto) {};
  CheckBinary<T, false>(
      Op::kAdd, [](auto& d, auto& x, auto& y, auto& m) { Reg::Add(d, x, y, m); },
      [](auto& d, auto x, auto y, auto m) { asc_add(d, x, y, m); });
  CheckBinary<T, false>(
      Op::kSub, [](auto& d, auto& x, auto& y, auto& m) { Reg::Sub<T>(d, x, y, m); },
      [](auto& d, auto x, auto y, auto m) { asc_sub(d, x, y, m); });
  CheckBinary<T, false>(
      Op::kMul, [](auto& d, auto& x, auto& y, auto& m) { Reg::Mul(d, x, y, m); },
      [](auto& d, auto x, auto y, auto m) { asc_mul(d, x, y, m); });
  CheckBinary<T, true>(
      Op::kAdd,
      [](auto& d, auto& x, auto& y, auto& m) {
        Reg::Add<T, Reg::MaskMergeMode::MERGING>(d, x, y, m);
      },
      none);
}

TEST(CppApiCompute, BinaryAgainstModelAndCFlavour) {
  CheckArith<int8_t>();
  CheckArith<uint16_t>();
  CheckArith<int32_t>();
  CheckArith<float>();
  const auto div = [](auto& d, auto x, auto y, auto m) { asc_div(d, x, y, m); };
  CheckBinary<float, false>(
      Op::kDiv, [](auto& d, auto& x, auto& y, auto& m) { Reg::Div(d, x, y, m); }, div);
  static constexpr Reg::DivSpecificMode kMode = {Reg::MaskMergeMode::ZEROING, false,
                                                 AscendC::DivAlgo::PRECISION_1ULP_FTZ_FALSE};
  CheckBinary<float, false>(
      Op::kDiv, [](auto& d, auto& x, auto& y, auto& m) { Reg::Div<float, &kMode>(d, x, y, m); },
      div);
}

// DivSpecificMode's PRECISION_1ULP_FTZ_TRUE flushes subnormal operands and results to zero
// (the reference's subnormal sample); FTZ_FALSE keeps them, as the C flavour.
TEST(CppApiCompute, DivFlushToZeroMode) {
  static constexpr Reg::DivSpecificMode kFtz = {Reg::MaskMergeMode::ZEROING, false,
                                                AscendC::DivAlgo::PRECISION_1ULP_FTZ_TRUE};
  static constexpr Reg::DivSpecificMode kKeep = {Reg::MaskMergeMode::ZEROING, false,
                                                 AscendC::DivAlgo::PRECISION_1ULP_FTZ_FALSE};
  Reg::RegTensor<float> x, y, ftz, keep;
  for (uint32_t i = 0; i < kN<float>; ++i) x.lane[i] = 1e-39f, y.lane[i] = i % 2 ? 1.0f : 1e-39f;
  const Reg::MaskReg all = Reg::CreateMask<float>();
  Reg::Div<float, &kFtz>(ftz, x, y, all);
  Reg::Div<float, &kKeep>(keep, x, y, all);
  for (uint32_t i = 0; i < kN<float>; ++i) {
    EXPECT_EQ(keep.lane[i], i % 2 ? 1e-39f : 1.0f) << i;
    if (i % 2) {
      EXPECT_EQ(ftz.lane[i], 0.0f) << i;
    } else {
      EXPECT_TRUE(std::isnan(ftz.lane[i])) << i;  // 0 / 0
    }
  }
}

TEST(CppApiCompute, ScalarUnaryAndTruncateAgainstModelAndCFlavour) {
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    const auto a = RandomLanes<float>(rng, kN<float>);
    ModelMask mm;
    const Reg::MaskReg mask = RandomMask<float>(rng, &mm);
    Reg::RegTensor<float> x = Tensor(a), muls, absd, expd, floord, relud;
    vector_float cMuls, cExp, cFloor;
    Reg::Muls(muls, x, 1.5f, mask);
    Reg::Abs(absd, x, mask);
    Reg::Exp(expd, x, mask);
    Reg::Relu(relud, x, mask);
    Reg::Truncate<float, AscendC::RoundMode::CAST_FLOOR>(floord, x, mask);
    asc_mul_scalar(cMuls, Fill(a), 1.5f, mask);
    asc_exp(cExp, Fill(a), mask);
    asc_floor(cFloor, Fill(a), mask);
    for (uint32_t i = 0; i < kN<float>; ++i) {
      const bool on = mm.bit[i * 4];
      ASSERT_TRUE(SameBits(muls.lane[i], on ? a[i] * 1.5f : 0.0f)) << i;
      ASSERT_TRUE(SameBits(absd.lane[i], on ? ModelUnary(UOp::kAbs, a[i]) : 0.0f)) << i;
      ASSERT_TRUE(SameBits(expd.lane[i], on ? ModelUnary(UOp::kExp, a[i]) : 0.0f)) << i;
      ASSERT_TRUE(SameBits(relud.lane[i], on ? ModelUnary(UOp::kRelu, a[i]) : 0.0f)) << i;
      ASSERT_TRUE(SameBits(floord.lane[i], on ? ModelUnary(UOp::kFloor, a[i]) : 0.0f)) << i;
    }
    ASSERT_TRUE(SameRegs<float>(muls, cMuls));
    ASSERT_TRUE(SameRegs<float>(expd, cExp));
    ASSERT_TRUE(SameRegs<float>(floord, cFloor));
  }
}

TEST(CppApiCompute, CompareSelectReduceAgainstModelAndCFlavour) {
  std::mt19937 rng(9);
  for (int round = 0; round < 20; ++round) {
    const auto a = RandomLanes<float>(rng, kN<float>), b = RandomLanes<float>(rng, kN<float>);
    ModelMask mm;
    const Reg::MaskReg mask = RandomMask<float>(rng, &mm);
    Reg::RegTensor<float> x = Tensor(a), y = Tensor(b), sel, sum, mx;
    Reg::MaskReg gt, gts, cGt;
    Reg::Compare<float, AscendC::CMPMODE::GT>(gt, x, y, mask);
    Reg::Compares<float, AscendC::CMPMODE::LT>(gts, x, 2.0f, mask);
    Reg::Select(sel, x, y, gt);
    Reg::Reduce<AscendC::ReduceType::SUM>(sum, x, mask);
    Reg::Reduce<AscendC::ReduceType::MAX>(mx, x, mask);
    asc_gt(cGt, Fill(a), Fill(b), mask);
    vector_float cSum;
    asc_reduce_sum(cSum, Fill(a), mask);
    ASSERT_EQ(std::memcmp(gt.bits, cGt.bits, sizeof(gt.bits)), 0);
    ASSERT_TRUE(SameRegs<float>(sum, cSum));
    for (uint32_t i = 0; i < kN<float>; ++i) {
      const bool on = mm.bit[i * 4], g = on && ModelCompare(2, a[i], b[i]);
      ASSERT_EQ(gt.Lane<float>(i), g) << i;
      ASSERT_EQ(gts.Lane<float>(i), on && ModelCompare(4, a[i], 2.0f)) << i;
      ASSERT_TRUE(SameBits(sel.lane[i], g ? a[i] : b[i])) << i;
    }
    ASSERT_TRUE(SameBits(sum.lane[0], ModelTreeSum(a, mm, 0, kN<float>)));
    bool any = false;
    for (uint32_t i = 0; i < kN<float>; ++i) any = any || mm.bit[i * 4];
    ASSERT_TRUE(SameBits(mx.lane[0], any ? ModelMax(a, mm, 0, kN<float>) : 0.0f));
  }
}

TEST(CppApiCompute, MasksDuplicateArange) {
  uint32_t n = 70, cn = 70;
  const Reg::MaskReg m = Reg::UpdateMask<float>(n), cm = asc_update_mask_b32(cn);
  EXPECT_EQ(n, 6u);
  EXPECT_EQ(std::memcmp(m.bits, cm.bits, sizeof(m.bits)), 0);
  const Reg::MaskReg h = Reg::CreateMask<half, Reg::MaskPattern::H>();
  const vector_bool ch = asc_create_mask_b16(PAT_H);
  EXPECT_EQ(std::memcmp(h.bits, ch.bits, sizeof(h.bits)), 0);
  Reg::RegTensor<int32_t> d, ar, mergeD;
  Reg::Duplicate(d, 7);
  Reg::Arange(ar, 3);
  Reg::Duplicate(mergeD, 1);
  Reg::Duplicate<int32_t, Reg::MaskMergeMode::MERGING>(
      mergeD, 9, Reg::CreateMask<int32_t, Reg::MaskPattern::VL4>());
  for (uint32_t i = 0; i < kN<int32_t>; ++i) {
    EXPECT_EQ(d.lane[i], 7);
    EXPECT_EQ(ar.lane[i], int32_t(3 + i));
    EXPECT_EQ(mergeD.lane[i], i < 4 ? 9 : 1);
  }
}

// Half to int32 (floor, the even half lanes) and float to int16 (round, saturated, into the low
// half of each b32 lane), as the vector Cast converts one element.
TEST(CppApiCompute, CastLayoutsRoundingAndSaturation) {
  static constexpr Reg::CastTrait kWiden = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN,
                                            Reg::MaskMergeMode::ZEROING,
                                            AscendC::RoundMode::CAST_FLOOR};
  static constexpr Reg::CastTrait kNarrow = {Reg::RegLayout::ZERO, Reg::SatMode::SAT,
                                             Reg::MaskMergeMode::ZEROING,
                                             AscendC::RoundMode::CAST_ROUND};
  Reg::RegTensor<half> h;
  Reg::RegTensor<float> f;
  for (uint32_t i = 0; i < kN<half>; ++i) h.lane[i] = half(float(i) * 0.75f - 40.0f);
  for (uint32_t i = 0; i < kN<float>; ++i) f.lane[i] = float(i) * 1000.5f - 30000.0f;
  Reg::RegTensor<int32_t> wide;
  Reg::RegTensor<int16_t> narrow;
  Reg::Cast<int32_t, half, kWiden>(wide, h, Reg::CreateMask<int32_t>());
  Reg::Cast<int16_t, float, kNarrow>(narrow, f, Reg::CreateMask<float>());
  for (uint32_t i = 0; i < kN<int32_t>; ++i) {
    EXPECT_EQ(wide.lane[i], int32_t(std::floor(float(h.lane[2 * i])))) << i;
    const double r = std::round(double(f.lane[i]));
    EXPECT_EQ(narrow.lane[2 * i], int16_t(std::fmin(32767.0, std::fmax(-32768.0, r)))) << i;
    EXPECT_EQ(narrow.lane[2 * i + 1], 0) << i;
  }
}

}  // namespace
