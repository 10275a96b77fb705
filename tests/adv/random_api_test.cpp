// PhiloxRandom (lib/random/philox.h) against the Random123 known-answer vectors of
// Philox4x32-10 and an independent reference written here from the paper's definition, the
// count and stride forms, the float mapping and the checked-mode refusals.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#include "quant_api_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace lngrad::adv::testing {
namespace {

using Block = std::array<uint32_t, 4>;

// Philox4x32-R from the paper: R rounds, key bumped between rounds.
Block Reference(Block c, std::array<uint32_t, 2> k, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    if (r > 0) {
      k[0] += 0x9E3779B9u;
      k[1] += 0xBB67AE85u;
    }
    const uint64_t a = uint64_t{0xD2511F53u} * c[0], b = uint64_t{0xCD9E8D57u} * c[2];
    c = {static_cast<uint32_t>(b >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(b),
         static_cast<uint32_t>(a >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(a)};
  }
  return c;
}

Block Plus(Block c, uint64_t i) {
  for (uint32_t& w : c) {
    const uint64_t s = uint64_t{w} + i;
    w = static_cast<uint32_t>(s);
    i = s >> 32;
  }
  return c;
}

std::vector<uint32_t> RunCount(uint32_t k0, uint32_t k1, const Block& c, uint16_t count) {
  std::vector<uint32_t> got;
  OnBlock(
      [&](Ub& ub) {
        AscendC::PhiloxRandom<10>(ub.Get<uint32_t>(0), {k0, k1}, {c[0], c[1], c[2], c[3]}, count);
        got = ub.Take<uint32_t>(0);
      },
      k950);
  return got;
}

TEST(RandomPhilox, Random123KnownAnswers) {
  // Philox4x32-10 known-answer tests of the Random123 distribution (kat_vectors).
  const struct {
    Block ctr;
    uint32_t k0, k1;
    Block want;
  } kat[] = {
      {{0, 0, 0, 0}, 0, 0, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       0xffffffff,
       0xffffffff,
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       0xa4093822,
       0x299f31d0,
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const auto& t : kat) {
    const std::vector<uint32_t> got = RunCount(t.k0, t.k1, t.ctr, 4);
    for (int j = 0; j < 4; ++j) EXPECT_EQ(got[j], t.want[j]) << std::hex << got[j];
    EXPECT_EQ(Reference(t.ctr, {t.k0, t.k1}, 10), t.want);
  }
}

TEST(RandomPhilox, CountFormCarriesTheCounterAndStopsAtCount) {
  const Block c = {0xfffffffe, 0xffffffff, 7, 0};
  const std::vector<uint32_t> got = RunCount(3, 4, c, 1003);  // a partial last counter
  for (uint32_t i = 0; i < 1003; ++i) {
    ASSERT_EQ(got[i], Reference(Plus(c, i / 4), {3, 4}, 10)[i % 4]) << i;
  }
  EXPECT_EQ(got[1003], 0u);  // untouched
}

TEST(RandomPhilox, StrideFormFloatAndInt32SevenRounds) {
  constexpr uint32_t stride = 40, row = 5, column = 12;
  std::vector<float> f;
  std::vector<int32_t> s;
  OnBlock(
      [&](Ub& ub) {
        AscendC::PhiloxRandom<7>(ub.Get<float>(0), {11, 12}, {1, 2, 3, 4},
                                 AscendC::PhiloxRandomParams{stride, row, column});
        AscendC::PhiloxRandom<7>(ub.Get<int32_t>(1), {11, 12}, {1, 2, 3, 4},
                                 AscendC::PhiloxRandomParams{stride, row, column});
        f = ub.Take<float>(0);
        s = ub.Take<int32_t>(1);
      },
      k950);
  for (uint32_t r = 0; r < row; ++r) {
    for (uint32_t c = 0; c < column; ++c) {
      const uint32_t bits =
          Reference(Plus({1, 2, 3, 4}, r * stride / 4 + c / 4), {11, 12}, 7)[c % 4];
      const uint32_t e = r * column + c;
      ASSERT_EQ(static_cast<uint32_t>(s[e]), bits) << e;
      uint32_t fb = (bits & 0x7fffff) | 0x3f800000;
      float one;
      std::memcpy(&one, &fb, 4);
      ASSERT_EQ(f[e], one - 1.0f) << e;
      ASSERT_TRUE(f[e] >= 0.0f && f[e] < 1.0f);
    }
  }
}

TEST(RandomPhilox, CheckedModeRules) {
  ExpectCheck(
      [](Ub& ub) {
        AscendC::PhiloxRandom<10>(ub.Get<float>(0), {0, 0}, {0, 0, 0, 0}, uint16_t(64));
      },
      "product", "PhiloxRandom");
  ExpectCheck(
      [](Ub& ub) {
        AscendC::PhiloxRandom<10>(ub.Get<float>(0), {0, 0}, {0, 0, 0, 0},
                                  AscendC::PhiloxRandomParams{30, 2, 12});
      },
      "quant_filter_arg", "multiples of 4", k950);
}

}  // namespace
}  // namespace lngrad::adv::testing
