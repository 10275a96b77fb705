// Mmad's bits against a separate scalar reading of the documented accumulation order
// (docs/ascendc_kernels.md, "The cube"): for each C element, the products of one K fractal
// (C0 = 32 bytes of elements) summed in float from 0 in k order, each product and each sum
// rounded to float, then each fractal's sum added to the initial value in k order. Values span
// several binades so that another order would change bits; A2 (ZZ L0A) and the 950 (NZ L0A),
// the SIMD paths on every target the machine runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <random>
#include <vector>

#include "hwy/targets.h"
#include "kernel_operator.h"
#include "lngrad_cube/transpose.h"
#include "run_on.h"

namespace {

using AscendC::TPosition;
using lngrad::cube::test::RunOn;

uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// body once per SIMD target the machine runs (hwy::SetSupportedTargetsForTest), the machine's
// own choice restored after, also when an assertion leaves body early.
template <class Body>
void EachSimdTarget(Body body) {
  struct Restore {
    ~Restore() { hwy::SetSupportedTargetsForTest(0); }
  } restore;
  for (const int64_t t : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(t);
    SCOPED_TRACE(hwy::TargetName(t));
    body();
    if (::testing::Test::HasFatalFailure()) return;
  }
}

struct Shape {
  uint32_t m, n, k;
};

// The scalar reading: init, then per fractal (sum from 0 of a*b in k order) added in k order.
float Reference(const std::vector<float>& a, const std::vector<float>& b, const Shape& s,
                uint32_t c0, uint32_t m, uint32_t n, float init) {
  volatile float acc = init;  // volatile: one rounding per operation, as stated
  for (uint32_t k0 = 0; k0 < s.k; k0 += c0) {
    volatile float part = 0.0f;
    for (uint32_t k = k0; k < s.k && k < k0 + c0; ++k) {
      volatile float prod = a[size_t{m} * s.k + k] * b[size_t{k} * s.n + n];
      part = part + prod;
    }
    acc = acc + part;
  }
  return acc;
}

// mode 0: C from 0; 1: from the BiasTable; 2: onto L0C's values.
template <typename T>
void ExpectOrder(const char* soc, const Shape& s, int mode) {
  const std::string r = RunOn(soc, [&] {
    const uint32_t c0 = 32 / sizeof(T), mb = Ceil(s.m, 16), nb = Ceil(s.n, 16);
    const uint32_t kb = Ceil(s.k, c0), fe = 512 / sizeof(T);
    const bool nz = lngrad::IsRegBaseArch(lngrad::aicore::CurrentBlockProduct().arch);
    AscendC::LocalTensor<T> a(TPosition::A2, 0, mb * kb * fe);
    AscendC::LocalTensor<T> b(TPosition::B2, 0, kb * nb * fe);
    AscendC::LocalTensor<float> c(TPosition::CO1, 0, mb * nb * 256);
    AscendC::LocalTensor<float> bias(TPosition::C2, 0, nb * 16);
    std::mt19937 rng(s.m * 131 + s.n * 7 + s.k + mode);
    std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
    std::uniform_int_distribution<int> expo(-6, 6);
    auto value = [&] { return static_cast<float>(T(std::ldexp(mant(rng), expo(rng)))); };
    std::vector<float> av(size_t{s.m} * s.k), bv(size_t{s.k} * s.n), init(size_t{s.m} * s.n);
    for (uint32_t m = 0; m < s.m; ++m) {
      for (uint32_t k = 0; k < s.k; ++k) {
        av[size_t{m} * s.k + k] = value();
        const uint64_t f = nz ? uint64_t{k / c0} * mb + m / 16 : uint64_t{m / 16} * kb + k / c0;
        a.SetValue(f * fe + (m % 16) * c0 + k % c0, T(av[size_t{m} * s.k + k]));
      }
    }
    for (uint32_t k = 0; k < s.k; ++k) {
      for (uint32_t n = 0; n < s.n; ++n) {
        bv[size_t{k} * s.n + n] = value();
        b.SetValue((uint64_t{k / c0} * nb + n / 16) * fe + (n % 16) * c0 + k % c0,
                   T(bv[size_t{k} * s.n + n]));
      }
    }
    const auto ci = [&](uint32_t m, uint32_t n) {
      return (uint64_t{n / 16} * mb + m / 16) * 256 + (m % 16) * 16 + n % 16;
    };
    for (uint32_t n = 0; n < s.n; ++n) bias.SetValue(n, std::ldexp(mant(rng), 4));
    for (uint32_t m = 0; m < s.m; ++m) {
      for (uint32_t n = 0; n < s.n; ++n) {
        c.SetValue(ci(m, n), std::ldexp(mant(rng), 3));
        init[size_t{m} * s.n + n] = mode == 0   ? 0.0f
                                    : mode == 1 ? bias.GetValue(n)
                                                : c.GetValue(ci(m, n));
      }
    }
    AscendC::MmadParams p;
    p.m = static_cast<uint16_t>(s.m);
    p.n = static_cast<uint16_t>(s.n);
    p.k = static_cast<uint16_t>(s.k);
    p.cmatrixInitVal = mode == 0;
    p.cmatrixSource = mode == 1;
    AscendC::Mmad(c, a, b, p);
    for (uint32_t m = 0; m < s.m; ++m) {
      for (uint32_t n = 0; n < s.n; ++n) {
        const float want = Reference(av, bv, s, c0, m, n, init[size_t{m} * s.n + n]);
        const float got = c.GetValue(ci(m, n));
        uint32_t wb, gb;
        std::memcpy(&wb, &want, 4);
        std::memcpy(&gb, &got, 4);
        ASSERT_EQ(gb, wb) << m << "," << n << " want " << want << " got " << got;
      }
    }
  });
  EXPECT_EQ(r, "");
}

// Each shape with every initial matrix (mode 0, 1 and 2).
template <typename T>
void ExpectOrderEachMode(const char* soc, std::initializer_list<Shape> shapes) {
  for (int mode : {0, 1, 2}) {
    for (const Shape& s : shapes) ExpectOrder<T>(soc, s, mode);
  }
}

class MmadOrder : public ::testing::TestWithParam<const char*> {};

TEST_P(MmadOrder, HalfBitsFollowTheStatedOrder) {
  ExpectOrderEachMode<half>(GetParam(), {{16, 16, 16}, {33, 47, 100}, {5, 80, 257}});
}

TEST_P(MmadOrder, Bfloat16AndFloatBitsFollowTheStatedOrder) {
  ExpectOrder<bfloat16_t>(GetParam(), {30, 40, 77}, 0);
  ExpectOrder<bfloat16_t>(GetParam(), {17, 64, 33}, 2);
  ExpectOrder<float>(GetParam(), {30, 40, 77}, 0);
  ExpectOrder<float>(GetParam(), {21, 18, 45}, 1);
}

// n a multiple of 16 (no padding lanes: the sums go straight into L0C), several bands of rows,
// whole and partial K fractals.
TEST_P(MmadOrder, WholeColumnBlocksFollowTheStatedOrder) {
  ExpectOrderEachMode<half>(GetParam(), {{37, 64, 96}});
  ExpectOrderEachMode<float>(GetParam(), {{20, 32, 44}});
  ExpectOrderEachMode<bfloat16_t>(GetParam(), {{19, 48, 40}});
}

// The Highway paths (the register tiles, in rows and in L0C; half B's fractals widened and
// transposed) on every SIMD target the machine runs, not only the best.
TEST_P(MmadOrder, EverySimdTargetFollowsTheStatedOrder) {
  EachSimdTarget([&] {
    ExpectOrder<half>(GetParam(), {37, 64, 96}, 2);
    ExpectOrder<half>(GetParam(), {33, 47, 100}, 1);
    ExpectOrder<float>(GetParam(), {20, 32, 44}, 0);
  });
}

INSTANTIATE_TEST_SUITE_P(Socs, MmadOrder, ::testing::Values("Ascend910B1", "Ascend950PR_9589"));

// The 16 x 16 transpose of 16-bit elements (lngrad_cube/transpose.h: the Matmul's L0B loads) on
// every SIMD target, against the element-by-element reading of its definition: rows 21 apart in
// src, 19 apart in dst, whose elements between the rows stay untouched.
TEST(CubeTranspose, SixteenBitBlocksOnEveryTarget) {
  constexpr size_t kSrcLd = 21, kDstLd = 19;
  constexpr uint16_t kUntouched = 0xBEEF;
  std::vector<uint16_t> src(16 * kSrcLd);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint16_t>(i * 37 + 5);
  EachSimdTarget([&] {
    std::vector<uint16_t> dst(16 * kDstLd, kUntouched);
    lngrad::cube::Transpose16x16(src.data(), kSrcLd, dst.data(), kDstLd);
    for (size_t i = 0; i < 16; ++i) {
      for (size_t j = 0; j < kDstLd; ++j) {
        ASSERT_EQ(dst[i * kDstLd + j], j < 16 ? src[j * kSrcLd + i] : kUntouched) << i << "," << j;
      }
    }
  });
}

}  // namespace
