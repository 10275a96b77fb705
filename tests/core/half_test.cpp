// binary16 conversions: lngrad/half.h (scalar), the SIMD kernels' conversions (through the
// public API), both against the oracle's frexp/ldexp conversions.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "lngrad/half.h"
#include "oracle.h"
#include "test_util.h"

namespace lngrad {
namespace {

float FloatFromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof(f));
  return f;
}

bool IsHalfNaN(uint16_t b) { return (b & 0x7C00) == 0x7C00 && (b & 0x3FF) != 0; }

TEST(Half, AllBitPatternsWidenExactlyAndRoundTrip) {
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    const float f = HalfBitsToFloat(bits);
    const double want = oracle::HalfToDouble(bits);
    if (IsHalfNaN(bits)) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << b;
      EXPECT_TRUE(IsHalfNaN(FloatToHalfBits(f))) << std::hex << b;
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), want) << std::hex << b;
    ASSERT_EQ(std::signbit(f), (bits & 0x8000) != 0) << std::hex << b;
    ASSERT_EQ(FloatToHalfBits(f), bits) << std::hex << b;
  }
}

TEST(Half, NaNPayloadTopBitsKept) {
  // float NaN 0x7FC12345: payload bits 22..13 = 0x209 -> quiet half NaN 0x7E09.
  EXPECT_EQ(FloatToHalfBits(FloatFromBits(0x7FC12345u)), 0x7E09);
  EXPECT_EQ(FloatToHalfBits(FloatFromBits(0xFF800001u)) & 0xFE00, 0xFE00);  // signalling -> quiet
  const float widened = HalfBitsToFloat(0x7E09);
  uint32_t widened_bits;
  std::memcpy(&widened_bits, &widened, sizeof(widened_bits));
  EXPECT_EQ(widened_bits, 0x7FC12000u) << "payload shifted into place";
  EXPECT_TRUE(std::isnan(HalfBitsToFloat(0x7C01)));
}

// The rounding cases the issue lists, with the expected bits worked out by hand.
TEST(Half, RoundingEdgeCases) {
  struct Case {
    float in;
    uint16_t want;
    const char* why;
  };
  const Case cases[] = {
      {1.0f, 0x3C00, "exact"},
      {1.0f + 0x1p-11f, 0x3C00, "tie between 1 and 1+2^-10, even is 1"},
      {1.0f + 3 * 0x1p-11f, 0x3C02, "tie between 1+2^-10 (odd) and 1+2^-9 (even): up"},
      {1.0f + 0x1p-11f + 0x1p-23f, 0x3C01, "just above the tie: up"},
      {1.0f + 3 * 0x1p-11f - 0x1p-23f, 0x3C01, "just below the tie: down"},
      {2048.0f + 1.0f, 0x6800, "tie at 2049: even 2048"},
      {2048.0f + 3.0f, 0x6802, "tie at 2051: even 2052"},
      {65504.0f, 0x7BFF, "largest finite"},
      {65519.99f, 0x7BFF, "below the overflow tie: 65504"},
      {65520.0f, 0x7C00, "the overflow tie rounds to even = inf"},
      {1e6f, 0x7C00, "overflow"},
      {-65520.0f, 0xFC00, "negative overflow"},
      {std::numeric_limits<float>::infinity(), 0x7C00, "inf"},
      {0x1p-14f, 0x0400, "smallest normal"},
      {0x1p-14f - 0x1p-25f, 0x0400, "tie between largest subnormal (odd) and 2^-14: up"},
      {0x1p-24f, 0x0001, "smallest subnormal"},
      {0x1p-25f, 0x0000, "tie between 0 and 2^-24: even is 0"},
      {0x1p-25f + 0x1p-40f, 0x0001, "just above that tie"},
      {3 * 0x1p-25f, 0x0002, "tie between 1 and 2 subnormal steps: 2"},
      {5 * 0x1p-25f, 0x0002, "tie between 2 and 3 subnormal steps: 2"},
      {0x1p-26f, 0x0000, "below half the smallest subnormal"},
      {std::numeric_limits<float>::denorm_min(), 0x0000, "float subnormal"},
      {-0.0f, 0x8000, "negative zero"},
      {-0x1p-24f, 0x8001, "negative subnormal"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(FloatToHalfBits(c.in), c.want) << c.why << " (" << c.in << ")";
    EXPECT_EQ(oracle::DoubleToHalfBits(c.in), c.want) << "oracle: " << c.why;
  }
}

// Every tie and its neighbours: for each pair of adjacent finite halves, the float midpoint
// (exact in float) and the floats one step either side, against the oracle's rounding.
TEST(Half, FloatToHalfMatchesOracleAroundEveryMidpoint) {
  int checked = 0;
  // 0x7BFF (65504) has no finite successor; the overflow tie is a case of RoundingEdgeCases.
  for (uint32_t b = 0; b < 0x7BFF; ++b) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const double lo = oracle::HalfToDouble(static_cast<uint16_t>(b | sign));
      const double hi = oracle::HalfToDouble(static_cast<uint16_t>((b + 1) | sign));
      const auto mid = static_cast<float>((lo + hi) / 2);
      ASSERT_EQ(static_cast<double>(mid), (lo + hi) / 2) << "midpoint not exact in float";
      for (float f :
           {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f * (sign ? -1 : 1))}) {
        ASSERT_EQ(FloatToHalfBits(f), oracle::DoubleToHalfBits(f)) << f;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 2 * 3 * 0x7BFF);
}

TEST(Half, FloatToHalfMatchesOracleOnRandomFloats) {
  std::mt19937 rng(7);
  for (int i = 0; i < 1000000; ++i) {
    const float f = FloatFromBits(static_cast<uint32_t>(rng()));
    if (std::isnan(f)) {
      EXPECT_TRUE(IsHalfNaN(FloatToHalfBits(f)));
      continue;
    }
    ASSERT_EQ(FloatToHalfBits(f), oracle::DoubleToHalfBits(f)) << f;
  }
}

// The SIMD kernels convert with their own code on targets without F16C. Push every finite half
// value through LayerNormGradBeta with rows = 1, res = 1: dbeta = dy exactly (widen + round
// trip) and dgamma = dy*1; then a set of floats that need rounding, through dy*res.
TEST(Half, SimdConversionsOnEveryTarget) {
  std::vector<Half> all;
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    if (!IsHalfNaN(static_cast<uint16_t>(b)))
      all.push_back(Half::FromBits(static_cast<uint16_t>(b)));
  }
  const auto h = static_cast<int64_t>(all.size());
  const std::vector<Half> ones(all.size(), Half(1.0f));
  // Products dy*res that need rounding to half: res = 2^-11 * (1 + k/1024) (subnormal results,
  // many ties), and res = 1 + 2^-10 (ties at m = 1536, overflow past 65504).
  std::vector<Half> scaled(all.size()), widened(all.size(), Half(1.0f + 0x1p-10f));
  for (size_t i = 0; i < scaled.size(); ++i) {
    scaled[i] = Half::FromBits(static_cast<uint16_t>(0x1000 | (i * 7 % 1024)));
  }
  for (const test::Path& p : test::AllPaths()) {
    test::TargetScope scope(p);
    RunInfo info;
    Options o = test::PathOptions(p, &info);
    o.num_threads = 1;
    std::vector<Half> g(all.size()), b(all.size());
    ASSERT_TRUE(LayerNormGradBeta({1, h}, all.data(), ones.data(), g.data(), b.data(), o).ok());
    test::ExpectRan(p, info);
    for (size_t i = 0; i < all.size(); ++i) {
      // The sums start at +0, and +0 + -0 = +0.
      const uint16_t want = all[i].bits == 0x8000 ? 0 : all[i].bits;
      ASSERT_EQ(b[i].bits, want) << p.name << " dbeta " << std::hex << all[i].bits;
      ASSERT_EQ(g[i].bits, want) << p.name << " dgamma " << std::hex << all[i].bits;
    }
    for (const std::vector<Half>* res : {&scaled, &widened}) {
      ASSERT_TRUE(LayerNormGradBeta({1, h}, all.data(), res->data(), g.data(), b.data(), o).ok());
      for (size_t i = 0; i < all.size(); ++i) {
        // dy*res is exact in float (11 x 11 bits): the half result is its single rounding.
        const double product = test::ToDouble(all[i]) * test::ToDouble((*res)[i]);
        ASSERT_EQ(g[i].bits, oracle::DoubleToHalfBits(product == 0.0 ? 0.0 : product))
            << p.name << " " << test::ToDouble(all[i]) << " * " << test::ToDouble((*res)[i]);
      }
    }
  }
}

TEST(Half, NanAndInfPassThroughSimdConversions) {
  const std::vector<Half> dy = {Half::FromBits(0x7C00), Half::FromBits(0xFC00),
                                Half::FromBits(0x7E00), Half::FromBits(0x7C01)};
  const std::vector<Half> ones(dy.size(), Half(1.0f));
  for (const test::Path& p : test::AllPaths()) {
    test::TargetScope scope(p);
    Options o;
    o.impl = p.impl;
    std::vector<Half> g(dy.size()), b(dy.size());
    ASSERT_TRUE(LayerNormGradBeta({1, 4}, dy.data(), ones.data(), g.data(), b.data(), o).ok());
    EXPECT_EQ(b[0].bits, 0x7C00) << p.name;
    EXPECT_EQ(b[1].bits, 0xFC00) << p.name;
    EXPECT_TRUE(IsHalfNaN(b[2].bits)) << p.name;
    EXPECT_TRUE(IsHalfNaN(b[3].bits)) << p.name;
  }
}

}  // namespace
}  // namespace lngrad
