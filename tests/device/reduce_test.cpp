// The reduction trees of spec §1.8 on hand-built rows where the association is visible.
// Values use 2^24: 2^24 + 1 is not representable and rounds (ties to even) back to 2^24, while
// 2^24 + 2 is exact, so the order of additions decides the result.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "device_test_util.h"

namespace lngrad::devmath {
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

}  // namespace
}  // namespace lngrad::devmath
