// Tests of layer reg: the register table's newer rows (unary functions, max/min/or/xor, the
// scalar forms, every comparison, the reductions, pair reduction, masks from patterns, arange,
// asc_copy) on their lane types, half included, against the scalar model (reg_model.h, written
// from the reference, not from lngrad_reg).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "c_api/asc_simd.h"
#include "capi_test_util.h"
#include "reg_model.h"

namespace {

using lngrad::reg::VecReg;
using namespace lngrad::reg::testing;

// Every lane: dst = mask ? want(i) : (merging ? old : 0).
template <typename T, typename Want>
void ExpectLanes(const VecReg<T>& dst, const ModelMask& mm, Want want,
                 const VecReg<std::type_identity_t<T>>* old) {
  for (uint32_t i = 0; i < kN<T>; ++i) {
    const T expect = mm.bit[i * sizeof(T)] ? want(i) : (old ? old->lane[i] : T{});
    ASSERT_TRUE(SameBits(dst.lane[i], expect)) << "lane " << i;
  }
}

TEST(CApiRows, UnaryFloat) {
  std::mt19937 rng(11);
  const auto a = RandomLanes<float>(rng, kN<float>);
  ModelMask mm;
  const vector_bool mask = RandomMask<float>(rng, &mm);
  vector_float d;
  asc_abs(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kAbs, a[i]); }, nullptr);
  asc_neg(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kNeg, a[i]); }, nullptr);
  asc_relu(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kRelu, a[i]); }, nullptr);
  asc_sqrt(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kSqrt, a[i]); }, nullptr);
  asc_exp(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kExp, a[i]); }, nullptr);
  asc_ln(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kLn, a[i]); }, nullptr);
  asc_floor(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kFloor, a[i]); }, nullptr);
  asc_ceil(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kCeil, a[i]); }, nullptr);
  asc_trunc(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kTrunc, a[i]); }, nullptr);
  asc_round(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kRound, a[i]); }, nullptr);
  asc_rint(d, Fill(a), mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelUnary(UOp::kRint, a[i]); }, nullptr);
}

TEST(CApiRows, RoundingTiesAndHalfLanes) {
  vector_float x, r, n;
  const float ties[] = {0.5f, 1.5f, 2.5f, -0.5f, -2.5f};
  for (int i = 0; i < 5; ++i) x.lane[i] = ties[i];
  const vector_bool all = asc_create_mask_b32(PAT_ALL);
  asc_round(r, x, all);  // half away from zero
  asc_rint(n, x, all);   // half to even
  const float away[] = {1, 2, 3, -1, -3}, even[] = {0, 2, 2, -0.0f, -2};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(r.lane[i], away[i]) << i;
    EXPECT_EQ(n.lane[i], even[i]) << i;
  }
  vector_half h, s;
  for (uint32_t i = 0; i < kN<half>; ++i) h.lane[i] = half(static_cast<float>(i) * 0.37f - 20.0f);
  asc_sqrt(s, h, asc_create_mask_b16(PAT_ALL));
  for (uint32_t i = 0; i < kN<half>; ++i) {
    const half want = half(std::sqrt(static_cast<float>(h.lane[i])));  // rounded once to half
    EXPECT_TRUE(SameBits(s.lane[i], want)) << i;
  }
  vector_half a, b, c;
  for (uint32_t i = 0; i < kN<half>; ++i) {
    a.lane[i] = half(static_cast<float>(i) / 3.0f);
    b.lane[i] = half(1.0f / 7.0f);
  }
  asc_add(c, a, b, asc_create_mask_b16(PAT_ALL));
  for (uint32_t i = 0; i < kN<half>; ++i) {
    EXPECT_TRUE(
        SameBits(c.lane[i], half(static_cast<float>(a.lane[i]) + static_cast<float>(b.lane[i]))));
  }
}

template <typename T>
void CheckMinMaxBits() {
  std::mt19937 rng(13);
  const auto a = RandomLanes<T>(rng, kN<T>), b = RandomLanes<T>(rng, kN<T>);
  ModelMask mm;
  const vector_bool mask = RandomMask<T>(rng, &mm);
  VecReg<T> d;
  for (BOp op : {BOp::kMax, BOp::kMin, BOp::kOr, BOp::kXor}) {
    if (op == BOp::kMax) asc_max(d, Fill(a), Fill(b), mask);
    if (op == BOp::kMin) asc_min(d, Fill(a), Fill(b), mask);
    if (op == BOp::kOr) asc_or(d, Fill(a), Fill(b), mask);
    if (op == BOp::kXor) asc_xor(d, Fill(a), Fill(b), mask);
    ExpectLanes(
        d, mm, [&](uint32_t i) { return ModelBinary2(op, a[i], b[i]); }, nullptr);
  }
  const T s = a[3];
  asc_mul_scalar(d, Fill(a), s, mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelBinary(Op::kMul, a[i], s); }, nullptr);
  asc_max_scalar(d, Fill(a), s, mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelBinary2(BOp::kMax, a[i], s); }, nullptr);
  asc_min_scalar(d, Fill(a), s, mask);
  ExpectLanes(
      d, mm, [&](uint32_t i) { return ModelBinary2(BOp::kMin, a[i], s); }, nullptr);
}

TEST(CApiRows, MinMaxLogicAndScalarForms) {
  CheckMinMaxBits<int8_t>();
  CheckMinMaxBits<uint16_t>();
  CheckMinMaxBits<int32_t>();
  CheckMinMaxBits<uint32_t>();
  CheckMinMaxBits<float>();
}

TEST(CApiRows, EveryComparison) {
  std::mt19937 rng(17);
  auto a = RandomLanes<int16_t>(rng, kN<int16_t>), b = a;
  for (uint32_t i = 0; i < kN<int16_t>; i += 2) b[i] = static_cast<int16_t>(rng());
  ModelMask mm;
  const vector_bool mask = RandomMask<int16_t>(rng, &mm);
  vector_bool r[6], rs[6];
  asc_eq(r[0], Fill(a), Fill(b), mask);
  asc_ne(r[1], Fill(a), Fill(b), mask);
  asc_gt(r[2], Fill(a), Fill(b), mask);
  asc_ge(r[3], Fill(a), Fill(b), mask);
  asc_lt(r[4], Fill(a), Fill(b), mask);
  asc_le(r[5], Fill(a), Fill(b), mask);
  asc_eq_scalar(rs[0], Fill(a), a[1], mask);
  asc_ne_scalar(rs[1], Fill(a), a[1], mask);
  asc_gt_scalar(rs[2], Fill(a), a[1], mask);
  asc_ge_scalar(rs[3], Fill(a), a[1], mask);
  asc_lt_scalar(rs[4], Fill(a), a[1], mask);
  asc_le_scalar(rs[5], Fill(a), a[1], mask);
  for (int c = 0; c < 6; ++c) {
    for (uint32_t i = 0; i < kN<int16_t>; ++i) {
      const bool on = mm.bit[2 * i];
      EXPECT_EQ(r[c].Lane<int16_t>(i), on && ModelCompare(c, a[i], b[i])) << c << " " << i;
      EXPECT_EQ(rs[c].Lane<int16_t>(i), on && ModelCompare(c, a[i], a[1])) << c << " " << i;
    }
  }
}

TEST(CApiRows, ReductionsAreBinaryTrees) {
  std::mt19937 rng(19);
  const auto a = RandomLanes<float>(rng, kN<float>);
  ModelMask mm;
  const vector_bool mask = RandomMask<float>(rng, &mm);
  vector_float s, mx, blk, pair;
  asc_reduce_sum(s, Fill(a), mask);
  asc_reduce_max(mx, Fill(a), mask);
  asc_reduce_sum_datablock(blk, Fill(a), mask);
  asc_pair_reduce_sum(pair, Fill(a), mask);
  EXPECT_TRUE(SameBits(s.lane[0], ModelTreeSum(a, mm, 0, kN<float>)));
  EXPECT_EQ(mx.lane[0], ModelMax(a, mm, 0, kN<float>));
  for (uint32_t i = 1; i < kN<float>; ++i) EXPECT_EQ(s.lane[i], 0.0f);
  for (uint32_t k = 0; k < 8; ++k)
    EXPECT_TRUE(SameBits(blk.lane[k], ModelTreeSum(a, mm, 8 * k, 8)));
  for (uint32_t k = 8; k < kN<float>; ++k) EXPECT_EQ(blk.lane[k], 0.0f);
  for (uint32_t i = 0; i < kN<float> / 2; ++i) {
    const float l = mm.bit[8 * i] ? a[2 * i] : 0.0f, r = mm.bit[8 * i + 4] ? a[2 * i + 1] : 0.0f;
    EXPECT_EQ(pair.lane[i], l + r) << i;
    EXPECT_EQ(pair.lane[i + kN<float> / 2], 0.0f);
  }
  vector_float none;
  asc_reduce_sum(none, Fill(a), asc_create_mask_b32(PAT_ALLF));
  EXPECT_TRUE(SameBits(none.lane[0], 0.0f));  // no lane selected: +0
}

TEST(CApiRows, PatternsArangeAndCopy) {
  const struct {
    ::lngrad::reg::Pattern p;
    uint32_t first;  // lanes of b16 selected from 0 (or 0 for M3/M4)
  } rows[] = {{PAT_ALL, 128}, {PAT_VL1, 1}, {PAT_VL3, 3}, {PAT_VL128, 128},
              {PAT_H, 64},    {PAT_Q, 32},  {PAT_ALLF, 0}};
  for (const auto& row : rows) {
    const vector_bool m = asc_create_mask_b16(row.p);
    for (uint32_t k = 0; k < kVl; ++k) EXPECT_EQ(m.Bit(k), k % 2 == 0 && k / 2 < row.first) << k;
  }
  const vector_bool m3 = asc_create_mask_b32(PAT_M3), m4 = asc_create_mask_b8(PAT_M4);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(m3.Lane<float>(i), i % 3 == 0);
  for (uint32_t i = 0; i < 256; ++i) EXPECT_EQ(m4.Bit(i), i % 4 == 0);
  vector_int8_t up, down;
  asc_arange(up, int8_t(120));  // wraps
  asc_arange_descend(down, int8_t(0));
  for (uint32_t i = 0; i < 256; ++i) {
    EXPECT_EQ(up.lane[i], Wrap<int8_t>(120 + int64_t(i)));
    EXPECT_EQ(down.lane[i], Wrap<int8_t>(255 - int64_t(i)));
  }
  std::mt19937 rng(23);
  const auto a = RandomLanes<int32_t>(rng, 64), b = RandomLanes<int32_t>(rng, 64);
  ModelMask mm;
  const vector_bool mask = RandomMask<int32_t>(rng, &mm);
  vector_int32_t dst = Fill(b);
  const vector_int32_t old = dst;
  asc_copy(dst, Fill(a), mask);  // merging: unselected lanes keep dst
  ExpectLanes(
      dst, mm, [&](uint32_t i) { return a[i]; }, &old);
}

}  // namespace
