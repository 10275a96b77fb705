// Tests of layer reg: the register compute functions of the C API (asc_add ... asc_select,
// asc_update_mask_bN) on every lane type of their rows, under random masks, against the scalar
// model of reg_model.h (written from the reference, not from lngrad_reg).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "c_api/asc_simd.h"
#include "capi_test_util.h"
#include "reg_model.h"

namespace {

using lngrad::reg::VecReg;
using namespace lngrad::reg::testing;

template <typename T, typename F>
void CheckBinary(Op op, F call) {
  std::mt19937 rng(7 + static_cast<int>(op));
  for (int round = 0; round < 20; ++round) {
    const auto a = RandomLanes<T>(rng, kN<T>), b = RandomLanes<T>(rng, kN<T>);
    ModelMask mm;
    const vector_bool mask = RandomMask<T>(rng, &mm);
    VecReg<T> dst = Fill(RandomLanes<T>(rng, kN<T>));
    call(dst, Fill(a), Fill(b), mask);
    for (uint32_t i = 0; i < kN<T>; ++i) {
      const T want = mm.bit[i * sizeof(T)] ? ModelBinary(op, a[i], b[i]) : T{};  // zeroing
      ASSERT_TRUE(SameBits(dst.lane[i], want)) << "lane " << i;
    }
  }
}

template <typename T>
void CheckArith() {
  CheckBinary<T>(Op::kAdd, [](auto& d, auto x, auto y, auto m) { asc_add(d, x, y, m); });
  CheckBinary<T>(Op::kSub, [](auto& d, auto x, auto y, auto m) { asc_sub(d, x, y, m); });
  CheckBinary<T>(Op::kMul, [](auto& d, auto x, auto y, auto m) { asc_mul(d, x, y, m); });
  CheckBinary<T>(Op::kAnd, [](auto& d, auto x, auto y, auto m) { asc_and(d, x, y, m); });
}

TEST(CApiCompute, ArithmeticOnEveryLaneType) {
  CheckArith<int8_t>();
  CheckArith<uint8_t>();
  CheckArith<int16_t>();
  CheckArith<uint16_t>();
  CheckArith<int32_t>();
  CheckArith<uint32_t>();
  CheckArith<float>();
}

TEST(CApiCompute, DivOnItsTypes) {
  const auto div = [](auto& d, auto x, auto y, auto m) { asc_div(d, x, y, m); };
  CheckBinary<int32_t>(Op::kDiv, div);
  CheckBinary<uint32_t>(Op::kDiv, div);
  CheckBinary<float>(Op::kDiv, div);
}

TEST(CApiCompute, DivEdgeCases) {
  vector_int32_t a, b, d;
  a.lane[0] = std::numeric_limits<int32_t>::min();
  b.lane[0] = -1;
  a.lane[1] = 7;
  b.lane[1] = 0;
  a.lane[2] = -7;
  b.lane[2] = 2;
  uint32_t n = 3;
  asc_div(d, a, b, asc_update_mask_b32(n));
  EXPECT_EQ(d.lane[0], std::numeric_limits<int32_t>::min());
  EXPECT_EQ(d.lane[1], -1);
  EXPECT_EQ(d.lane[2], -3);  // toward zero
  vector_float x, y, z;
  x.lane[0] = 1.0f;  // 1 / +0 = +inf, 0 / 0 = nan (the reference's INF/NAN mode table)
  x.lane[1] = 0.0f;
  n = 2;
  asc_div(z, x, y, asc_update_mask_b32(n));
  EXPECT_TRUE(std::isinf(z.lane[0]) && z.lane[0] > 0);
  EXPECT_TRUE(std::isnan(z.lane[1]));
}

TEST(CApiCompute, ScalarFormsAndDuplicate) {
  std::mt19937 rng(3);
  const auto a = RandomLanes<float>(rng, 64);
  ModelMask mm;
  const vector_bool mask = RandomMask<float>(rng, &mm);
  vector_float d;
  asc_add_scalar(d, Fill(a), 1.5f, mask);
  vector_int32_t dup, all;
  asc_duplicate_scalar(dup, int32_t(-9), mask);
  asc_duplicate_scalar(all, int32_t(4));
  for (uint32_t i = 0; i < 64; ++i) {
    const bool on = mm.bit[i * 4];
    EXPECT_EQ(d.lane[i], on ? a[i] + 1.5f : 0.0f);
    EXPECT_EQ(dup.lane[i], on ? -9 : 0);
    EXPECT_EQ(all.lane[i], 4);
  }
}

TEST(CApiCompute, CompareSelectAndMaskLogic) {
  std::mt19937 rng(5);
  auto a = RandomLanes<int32_t>(rng, 64), b = a;
  for (uint32_t i = 0; i < 64; i += 3) b[i] ^= 1;  // every third lane differs
  ModelMask mm;
  const vector_bool mask = RandomMask<int32_t>(rng, &mm);
  vector_bool ne, ne0, both;
  asc_ne(ne, Fill(a), Fill(b), mask);
  asc_ne_scalar(ne0, Fill(a), a[5], mask);
  asc_and(both, ne, ne0, mask);
  vector_int32_t sel;
  asc_select(sel, Fill(a), Fill(b), ne);
  for (uint32_t i = 0; i < 64; ++i) {
    const bool on = mm.bit[i * 4];
    EXPECT_EQ(ne.Lane<int32_t>(i), on && a[i] != b[i]) << i;
    EXPECT_EQ(ne0.Lane<int32_t>(i), on && a[i] != a[5]) << i;
    EXPECT_EQ(both.Lane<int32_t>(i), on && a[i] != b[i] && a[i] != a[5]) << i;
    EXPECT_EQ(sel.lane[i], (on && a[i] != b[i]) ? a[i] : b[i]) << i;   // no zeroing
    for (uint32_t k = 1; k < 4; ++k) EXPECT_FALSE(ne.Bit(i * 4 + k));  // only the lowest bit
  }
  vector_float nan_lanes;
  nan_lanes.lane[0] = std::numeric_limits<float>::quiet_NaN();
  uint32_t one = 1;
  vector_bool r;
  asc_ne_scalar(r, nan_lanes, std::numeric_limits<float>::quiet_NaN(), asc_update_mask_b32(one));
  EXPECT_TRUE(r.Lane<float>(0));  // a comparison with NaN: 1 for ne
}

TEST(CApiCompute, UpdateMaskTails) {
  for (uint32_t width : {1u, 2u, 4u}) {
    const uint32_t lanes = kVl / width;
    uint32_t count = lanes + lanes / 2 + 3;  // one full register, then a tail
    for (int step = 0; step < 3; ++step) {
      const uint32_t expect_on = std::min(count, lanes);
      const vector_bool m = width == 1   ? asc_update_mask_b8(count)
                            : width == 2 ? asc_update_mask_b16(count)
                                         : asc_update_mask_b32(count);
      for (uint32_t k = 0; k < kVl; ++k) {
        EXPECT_EQ(m.Bit(k), k % width == 0 && k / width < expect_on) << width << " " << k;
      }
    }
    EXPECT_EQ(count, 0u);
  }
}

}  // namespace
