// Tests of layer reg: the engines' fast path, on every SIMD target the machine runs. The
// whole-register kernels (lngrad_reg/simd.h) against a float64 oracle (an IEEE float operation
// is the double operation rounded once to float: +, -, *, /, sqrt), the copy against the bytes,
// and the mask register's whole-word forms (FirstLanes, AllLanes) against a bit-by-bit reading
// of the layout the reference gives (one bit per byte of a register, lane i of bN at bit
// i * N / 8).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "hwy/targets.h"
#include "lngrad_reg/registers.h"
#include "lngrad_reg/simd.h"

namespace {

namespace reg = lngrad::reg;
using reg::detail::g_simd;

constexpr uint32_t kLanes = reg::kLanes<float>;

// 64 operands: signed zeros, infinities, NaN, subnormals, the extremes, then random floats of
// every magnitude.
void Fill(float* v, uint32_t seed) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f,    -0.0f, kInf,  -kInf,   std::nanf(""), 1e-45f,
                            -3e-39f, 1.0f,  -1.0f, 3.4e38f, -2.0f,         1.17549435e-38f};
  std::mt19937 rng(seed);
  for (uint32_t i = 0; i < kLanes; ++i) {
    if (i < std::size(specials)) {
      v[(i * 5 + seed) % 12] = specials[i];  // the specials meet each other in other pairs
    } else {
      uint32_t bits = rng();
      std::memcpy(&v[i], &bits, 4);
    }
  }
}

bool SameFloat(float got, double want) {
  const auto w = static_cast<float>(want);
  if (std::isnan(w)) return std::isnan(got);  // NaN payloads are not compared
  return std::memcmp(&got, &w, 4) == 0;
}

// Runs body once per target the machine supports among simd.cpp's, with g_simd on it.
template <class Body>
void EachTarget(Body body) {
  hwy::SetSupportedTargetsForTest(0);
  const int64_t usable = reg::detail::SimdTargets() & hwy::SupportedTargets();
  ASSERT_NE(usable, 0);
  for (int64_t t = usable; t != 0; t &= t - 1) {
    hwy::SetSupportedTargetsForTest(t & -t);
    reg::detail::ChooseSimdForTest();
    SCOPED_TRACE(hwy::TargetName(t & -t));
    body();
  }
  hwy::SetSupportedTargetsForTest(0);
  reg::detail::ChooseSimdForTest();
}

TEST(RegFastPath, BinaryKernelsAgainstDouble) {
  EachTarget([] {
    using Op = reg::detail::VlBinary;
    const auto oracle = [](Op op, double x, double y) {
      return op == Op::kAdd ? x + y : op == Op::kSub ? x - y : op == Op::kMul ? x * y : x / y;
    };
    for (uint32_t seed = 0; seed < 8; ++seed) {
      alignas(32) float a[kLanes], b[kLanes], d[kLanes];
      Fill(a, seed);
      Fill(b, seed + 100);
      for (int k = 0; k < static_cast<int>(Op::kCount); ++k) {
        g_simd.binary[k](d, a, b);
        for (uint32_t i = 0; i < kLanes; ++i) {
          ASSERT_TRUE(SameFloat(d[i], oracle(static_cast<Op>(k), a[i], b[i])))
              << "op " << k << " lane " << i << ": " << a[i] << ", " << b[i] << " -> " << d[i];
        }
      }
      // dst the same register as an operand (asc_add(a, a, b)).
      float in_place[kLanes];
      std::memcpy(in_place, a, sizeof a);
      g_simd.binary[static_cast<int>(Op::kMul)](in_place, in_place, b);
      for (uint32_t i = 0; i < kLanes; ++i)
        ASSERT_TRUE(SameFloat(in_place[i], double{a[i]} * b[i]));
    }
  });
}

TEST(RegFastPath, SqrtAndCopyKernels) {
  EachTarget([] {
    alignas(32) float a[kLanes], d[kLanes];
    Fill(a, 7);
    g_simd.unary[static_cast<int>(reg::detail::VlUnary::kSqrt)](d, a);
    for (uint32_t i = 0; i < kLanes; ++i) {
      ASSERT_TRUE(SameFloat(d[i], std::sqrt(double{a[i]}))) << "lane " << i << ": " << a[i];
    }
    alignas(32) uint8_t src[reg::kVectorBytes + 1], dst[reg::kVectorBytes + 2] = {};
    for (uint32_t i = 0; i < sizeof src; ++i) src[i] = static_cast<uint8_t>(i * 37 + 1);
    g_simd.copy(dst + 1, src + 1);  // UB side unaligned for the vectors: any address works
    EXPECT_EQ(std::memcmp(dst + 1, src + 1, reg::kVectorBytes), 0);
    EXPECT_EQ(dst[0], 0);
    EXPECT_EQ(dst[reg::kVectorBytes + 1], 0);
  });
}

// Lane i of bN: bit i * N / 8; the lane's other bits clear.
TEST(RegFastPath, MaskWordsAgainstBits) {
  for (uint32_t lane_bytes : {1u, 2u, 4u, 8u}) {
    const uint32_t lanes = reg::kVectorBytes / lane_bytes;
    for (uint32_t n = 0; n <= lanes; ++n) {
      const reg::MaskReg m = reg::MaskReg::FirstLanes(n, lane_bytes);
      for (uint32_t k = 0; k < reg::kMaskBytes * 8; ++k) {
        const bool want = k % lane_bytes == 0 && k / lane_bytes < n;
        ASSERT_EQ(((m.bits[k / 8] >> (k % 8)) & 1) != 0, want)
            << "b" << 8 * lane_bytes << " n " << n << " bit " << k;
      }
      // AllLanes of each type: the lowest bit of each of its lanes set (other bits do not matter).
      const auto all = [&](uint32_t bytes) {
        for (uint32_t k = 0; k < reg::kMaskBytes * 8; k += bytes) {
          if (((m.bits[k / 8] >> (k % 8)) & 1) == 0) return false;
        }
        return true;
      };
      EXPECT_EQ(m.AllLanes<uint8_t>(), all(1));
      EXPECT_EQ(m.AllLanes<uint16_t>(), all(2));
      EXPECT_EQ(m.AllLanes<uint32_t>(), all(4));
      EXPECT_EQ(m.AllLanes<uint64_t>(), all(8));
      EXPECT_EQ(m.AllLanes<uint64_t>(), n * lane_bytes > reg::kVectorBytes - 8);  // bit 248 is set
    }
  }
  // One missing lane bit in any of the four words; a set non-lane bit does not count.
  for (uint32_t k = 0; k < reg::kMaskBytes * 8; k += 4) {
    reg::MaskReg m = reg::MaskReg::FirstLanes(64, 4);
    m.SetBit(k, false);
    EXPECT_FALSE(m.AllLanes<float>()) << k;
    m.SetBit(k, true);
    m.SetBit(k + 1, true);
    EXPECT_TRUE(m.AllLanes<float>()) << k;
  }
}

}  // namespace
