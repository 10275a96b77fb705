// The reduction trees of spec §1.8 on hand-built rows where the association is visible.
// Values use 2^24: 2^24 + 1 is not representable and rounds (ties to even) back to 2^24, while
// 2^24 + 2 is exact, so the order of additions decides the result.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "../../src/adv/vector_ops.h"
#include "adv_test_util.h"

namespace lngrad::adv {
namespace {

constexpr float k24 = 16777216.0f;  // 2^24

TEST(ReduceRepeat64, AddsAdjacentPairsFirst) {
  // lanes [2^24, 0, 1, 1, 0...]: adjacent pairs give 2^24 and 2, then 2^24 + 2 (exact).
  // A left-to-right sum gives 2^24 (each +1 is lost), and a stride-halving tree
  // ((l0+l4), (l1+l5), ... then (l0+l2) ...) pairs 2^24 with 1 first and also gives 2^24.
  std::vector<float> lanes(64, 0.0f);
  lanes[0] = k24;
  lanes[2] = 1.0f;
  lanes[3] = 1.0f;
  EXPECT_EQ(ReduceRepeat64(lanes.data(), 64), k24 + 2.0f);
}

TEST(ReduceRepeat64, MaskedLanesCountAsPositiveZero) {
  // With lane 3 masked off, (1 + 0) replaces (1 + 1): 2^24 + 1 rounds to 2^24.
  std::vector<float> lanes(64, 0.0f);
  lanes[0] = k24;
  lanes[2] = 1.0f;
  lanes[3] = 1.0f;
  lanes[4] = 1e30f;  // beyond the mask: must not be read into the sum
  EXPECT_EQ(ReduceRepeat64(lanes.data(), 3), k24);
  EXPECT_EQ(ReduceRepeat64(lanes.data(), 4), k24 + 2.0f);
  // All -0: the full tree keeps -0; one masked lane (+0) turns the sum into +0.
  std::vector<float> neg(64, -0.0f);
  EXPECT_TRUE(std::signbit(ReduceRepeat64(neg.data(), 64)));
  EXPECT_FALSE(std::signbit(ReduceRepeat64(neg.data(), 63)));
  EXPECT_FALSE(std::signbit(ReduceRepeat64(neg.data(), 0)));
}

TEST(ReduceSumRows, ShortRowsAreOneTreeWithTheResultInSlotI) {
  // calSize 48, H = 16: three rows; dst[i] receives row i's tree; no other slot is touched.
  std::vector<float> src(48);
  for (int i = 0; i < 48; ++i) src[i] = static_cast<float>(i);
  std::vector<float> dst(48, -7.0f);
  ReduceSumRows(dst.data(), src.data(), 48, 16);
  EXPECT_EQ(dst[0], 120.0f);   // 0 + ... + 15
  EXPECT_EQ(dst[1], 376.0f);   // 16 + ... + 31
  EXPECT_EQ(dst[2], 632.0f);   // 32 + ... + 47
  for (int i = 3; i < 48; ++i) EXPECT_EQ(dst[i], -7.0f) << i;
}

TEST(ReduceSumRows, RowOf72KeepsItsPartialSumsAtItsBase) {
  // H = 72 = 64 + 8: pass 1 writes the 64-lane tree to dst[base] and the 8-lane tail tree to
  // dst[base + 1]; pass 2 adds the two into dst[i]. Row 1 has base 72.
  const uint32_t h = 72;
  std::vector<float> src(2 * h, 0.0f);
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t c = 0; c < 64; ++c) src[r * h + c] = 1.0f;     // tree: 64
    for (uint32_t c = 64; c < h; ++c) src[r * h + c] = 0.5f;     // tree: 4
  }
  std::vector<float> dst(2 * h, -1.0f);
  ReduceSumRows(dst.data(), src.data(), 2 * h, h);
  EXPECT_EQ(dst[0], 68.0f);
  EXPECT_EQ(dst[1], 68.0f);
  EXPECT_EQ(dst[72], 64.0f);  // row 1, first repeat
  EXPECT_EQ(dst[73], 4.0f);   // row 1, tail repeat
  EXPECT_EQ(dst[74], -1.0f);  // untouched
}

TEST(ReduceSumRows, ThreePassesForRowsWiderThan4096) {
  // H = 4160 = 65 repeats. Pass 1 sums: s0 = 2^24 (x[0]), s2 = 1 (x[128]), s3 = 1 (x[192]),
  // s64 = 1 (x[4096], the tail repeat). Pass 2: the first 64 sums form one tree,
  // (2^24 + 0) + (1 + 1) = 2^24 + 2, and s64 alone gives 1. Pass 3: (2^24 + 2) + 1 =
  // 16777219, a tie between 16777218 and 16777220, rounds to even: 16777220.
  // Summing left to right would lose every +1 and give 2^24.
  const uint32_t h = 4160;
  std::vector<float> src(h, 0.0f);
  src[0] = k24;
  src[128] = 1.0f;
  src[192] = 1.0f;
  src[4096] = 1.0f;
  std::vector<float> dst(h, 0.0f);
  ReduceSumRows(dst.data(), src.data(), h, h);
  EXPECT_EQ(dst[0], 16777220.0f);
}

TEST(ReduceSumRows, ExactlyOneRepeatOfSumsGoesStraightToTheRow) {
  // H = 4096: pass 1 fills 64 slots at the row base, pass 2 (total == 64) writes dst[i]
  // directly. Row 1's base slots keep its pass-1 sums.
  const uint32_t h = 4096;
  std::vector<float> src(2 * h, 0.0f);
  for (uint32_t j = 0; j < 64; ++j) src[h + j * 64] = static_cast<float>(j + 1);
  std::vector<float> dst(2 * h, -3.0f);
  ReduceSumRows(dst.data(), src.data(), 2 * h, h);
  EXPECT_EQ(dst[0], 0.0f);
  EXPECT_EQ(dst[1], 2080.0f);  // 1 + ... + 64
  for (uint32_t j = 0; j < 64; ++j) EXPECT_EQ(dst[h + j], static_cast<float>(j + 1)) << j;
  EXPECT_EQ(dst[h + 64], -3.0f);
}

TEST(ReduceSumRows, SimdMatchesScalarInEverySlot) {
  // The whole dst buffer (final sums, partial sums of every pass, untouched slots) must be the
  // scalar version's bit for bit: one, two and three passes, rows narrower than 64 (one
  // masked tree each, powers of two and not), tails of every kind.
  const uint32_t hs[] = {1, 2, 8, 16, 24, 40, 56, 64, 72, 128, 136, 200, 768, 1000, 1024,
                         4032, 4096, 4104, 4160, 5000, 12288, 262144, 262208};
  for (uint32_t h : hs) {
    for (uint32_t rows : {1u, 3u}) {
      if (h > 8192 && rows > 1) continue;
      const uint32_t cal = rows * h + (h > 1 ? h / 2 : 0);  // a partial row is not reduced
      auto src = testing::Uniform(cal, -1.0f, 1.0f, h + rows);
      for (uint32_t i = 0; i < cal; ++i) src[i] = std::ldexp(src[i], static_cast<int>(i % 37) - 10);
      if (cal > 3) src[3] = -0.0f;
      std::vector<float> s(cal + 70, -5.0f), v(cal + 70, -5.0f);
      ReduceSumRows(s.data(), src.data(), cal, h, Impl::kScalar);
      ReduceSumRows(v.data(), src.data(), cal, h, Impl::kSimd);
      for (size_t i = 0; i < s.size(); ++i) {
        ASSERT_TRUE(testing::SameBits(s[i], v[i])) << "h " << h << " rows " << rows << " slot " << i;
      }
    }
  }
}

TEST(ReduceSumRows, SimdMatchesScalarWithSpecialValues) {
  // Inf, -Inf (Inf - Inf = NaN), -0 rows, subnormals, overflow to Inf inside the tree.
  const float inf = std::numeric_limits<float>::infinity();
  for (uint32_t h : {16u, 72u, 768u, 4160u}) {
    std::vector<float> src(4 * h, 0.0f);
    for (uint32_t c = 0; c < h; ++c) {
      src[c] = (c == 5) ? inf : 1.0f;                    // row 0: +Inf
      src[h + c] = (c == 1) ? inf : (c == h - 1 ? -inf : 2.0f);  // row 1: NaN
      src[2 * h + c] = -0.0f;                            // row 2: -0 (+0 where masked lanes enter)
      src[3 * h + c] = (c % 2) ? 3.0e38f : 1e-45f;       // row 3: overflows, subnormals
    }
    std::vector<float> s(4 * h, 9.0f), v(4 * h, 9.0f);
    ReduceSumRows(s.data(), src.data(), 4 * h, h, Impl::kScalar);
    ReduceSumRows(v.data(), src.data(), 4 * h, h, Impl::kSimd);
    EXPECT_EQ(testing::FirstBitDifference(s.data(), v.data(), s.size()), -1) << "h " << h;
    for (size_t i = 0; i < s.size(); ++i) ASSERT_EQ(std::isnan(s[i]), std::isnan(v[i])) << i;
    EXPECT_TRUE(std::isinf(v[0]));
    EXPECT_TRUE(std::isnan(v[1]));
  }
}

TEST(ReduceRow, SimdMatchesScalarAndReduceSumRowsSlots) {
  // One row through the passes with explicit slots: the same partial sums and final sum as
  // the scalar version, and as ReduceSumRows' row 0 (partials = dst, final = dst[0]).
  for (uint32_t h : {8u, 24u, 64u, 72u, 768u, 4096u, 4160u, 5000u}) {
    auto row = testing::Uniform(h, -1.0f, 1.0f, h);
    for (uint32_t i = 0; i < h; ++i) row[i] = std::ldexp(row[i], static_cast<int>(i % 31) - 8);
    const uint32_t slots = h / 64 + 2;
    std::vector<float> ps(slots, -2.0f), pv(slots, -2.0f);
    float fs = -3.0f, fv = -3.0f;
    detail::ReduceRow(false, row.data(), h, ps.data(), &fs);
    detail::ReduceRow(true, row.data(), h, pv.data(), &fv);
    EXPECT_TRUE(testing::SameBits(fs, fv)) << h;
    for (uint32_t j = 0; j < slots; ++j) EXPECT_TRUE(testing::SameBits(ps[j], pv[j])) << h << " " << j;
    std::vector<float> dst(h, -2.0f);
    ReduceSumRows(dst.data(), row.data(), h, h, Impl::kScalar);
    EXPECT_TRUE(testing::SameBits(dst[0], fs)) << h;
    if (h > 64) {
      for (uint32_t j = 1; j < h / 64; ++j) EXPECT_TRUE(testing::SameBits(dst[j], ps[j])) << h;
    }
  }
}

TEST(ReduceRepeat64, SimdAndScalarAgreeOnEveryMask) {
  std::vector<float> lanes(64);
  for (int i = 0; i < 64; ++i) lanes[i] = (i % 3 == 0 ? k24 : 1.0f) * (i % 2 ? -1.0f : 1.0f);
  for (uint32_t n = 0; n <= 64; ++n) {
    EXPECT_TRUE(testing::SameBits(ReduceRepeat64(lanes.data(), n, Impl::kScalar),
                                  ReduceRepeat64(lanes.data(), n, Impl::kSimd)))
        << n;
  }
}

}  // namespace
}  // namespace lngrad::adv
