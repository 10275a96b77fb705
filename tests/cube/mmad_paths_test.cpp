// Mmad's type paths and initial matrices on operands written straight into L0A/L0B in the
// documented layouts (docs/ascendc_kernels.md, "The cube"), against a float64 oracle (float
// paths, with the stated bound) or exactly (integer paths).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"

namespace {

using AscendC::TPosition;

struct Shape {
  uint32_t m, n, k;
  bool k_align = false;  // kDirectionAlign (float A)
};

// bits per element, as the cube stores it; values are small integers (exact in every type).
template <typename T>
constexpr uint32_t kBits = lngrad::aicore::kElemBits<T>;

template <typename T>
void Put(std::byte* base, uint64_t i, int v) {
  if constexpr (kBits<T> == 4) {
    auto& b = base[i / 2];
    const auto nib = static_cast<uint8_t>(v & 0xF);
    b = static_cast<std::byte>(i % 2 == 0 ? (static_cast<uint8_t>(b) & 0xF0) | nib
                                          : (static_cast<uint8_t>(b) & 0x0F) | (nib << 4));
  } else {
    const T t = static_cast<T>(static_cast<float>(v));
    std::memcpy(base + i * sizeof(T), &t, sizeof(T));
  }
}

uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// C = A x B (+ init) through Mmad; returns C [m, n] and the oracle's.
template <typename T, typename R>
void RunPath(const Shape& s, const AscendC::MmadParams& extra, std::vector<double>* got,
             std::vector<double>* want, double* abs_sum_max) {
  const uint32_t c0 = 256 / kBits<T>, mb = Ceil(s.m, 16), nb = Ceil(s.n, 16), kb = Ceil(s.k, c0);
  const uint32_t ka = s.k_align ? Ceil(s.k, 16) * 2 : kb;
  const bool nz = lngrad::IsRegBaseArch(lngrad::aicore::CurrentBlockProduct().arch);
  AscendC::LocalTensor<T> a(TPosition::A2, 0, mb * ka * 512 * 8 / kBits<T>);
  AscendC::LocalTensor<T> b(TPosition::B2, 0, kb * nb * 512 * 8 / kBits<T>);
  AscendC::LocalTensor<R> c(TPosition::CO1, 0, mb * nb * 256);
  AscendC::LocalTensor<R> bias(TPosition::C2, 0, 64);
  auto* pa = static_cast<std::byte*>(static_cast<void*>(static_cast<T*>(a.GetPhyAddr())));
  auto* pb = static_cast<std::byte*>(static_cast<void*>(static_cast<T*>(b.GetPhyAddr())));
  R* pc = static_cast<R*>(c.GetPhyAddr());
  R* pbias = static_cast<R*>(bias.GetPhyAddr());
  std::mt19937 rng(s.m * 7 + s.n * 3 + s.k);
  std::uniform_int_distribution<int> d(kBits<T> == 4 ? -8 : -60, kBits<T> == 4 ? 7 : 60);
  std::vector<int> av(s.m * s.k), bv(s.k * s.n);
  for (auto& v : av) v = d(rng);
  for (auto& v : bv) v = d(rng);
  const uint32_t fe = 4096 / kBits<T>;  // elements per fractal
  for (uint32_t m = 0; m < s.m; ++m) {
    for (uint32_t k = 0; k < s.k; ++k) {
      const uint64_t f = nz ? uint64_t{k / c0} * mb + m / 16 : uint64_t{m / 16} * ka + k / c0;
      Put<T>(pa, f * fe + (m % 16) * c0 + k % c0, av[m * s.k + k]);
    }
  }
  for (uint32_t k = 0; k < s.k; ++k) {
    for (uint32_t n = 0; n < s.n; ++n) {
      Put<T>(pb, (uint64_t{k / c0} * nb + n / 16) * fe + (n % 16) * c0 + k % c0, bv[k * s.n + n]);
    }
  }
  const auto ci = [&](uint32_t m, uint32_t n) {
    return (uint64_t{n / 16} * mb + m / 16) * 256 + (m % 16) * 16 + n % 16;
  };
  std::vector<double> init(s.m * s.n, 0.0);
  for (uint32_t n = 0; n < s.n && n < 64; ++n) pbias[n] = static_cast<R>(n * 3 - 40);
  for (uint32_t m = 0; m < s.m; ++m) {
    for (uint32_t n = 0; n < s.n; ++n) {
      pc[ci(m, n)] = static_cast<R>(static_cast<int>(m) - static_cast<int>(n));
      if (!extra.cmatrixInitVal) {
        init[m * s.n + n] = extra.cmatrixSource ? pbias[n] : pc[ci(m, n)];
      }
    }
  }
  AscendC::MmadParams p = extra;
  p.m = static_cast<uint16_t>(s.m);
  p.n = static_cast<uint16_t>(s.n);
  p.k = static_cast<uint16_t>(s.k);
  p.kDirectionAlign = s.k_align;
  AscendC::Mmad(c, a, b, p);
  got->assign(s.m * s.n, 0.0);
  want->assign(init.begin(), init.end());
  *abs_sum_max = 0;
  for (uint32_t m = 0; m < s.m; ++m) {
    for (uint32_t n = 0; n < s.n; ++n) {
      double sum = std::fabs(init[m * s.n + n]);
      for (uint32_t k = 0; k < s.k; ++k) {
        (*want)[m * s.n + n] += double{1.0} * av[m * s.k + k] * bv[k * s.n + n];
        sum += std::fabs(double{1.0} * av[m * s.k + k] * bv[k * s.n + n]);
      }
      *abs_sum_max = std::max(*abs_sum_max, sum);
      (*got)[m * s.n + n] = static_cast<double>(pc[ci(m, n)]);
    }
  }
}

template <typename T, typename R>
void ExpectPath(const Shape& s, const AscendC::MmadParams& extra) {
  std::vector<double> got, want;
  double abs_sum = 0;
  RunPath<T, R>(s, extra, &got, &want, &abs_sum);
  // Float paths: |err| <= 2^-24 (2K + 1) sum |a b| (docs/ascendc_kernels.md); integers exact.
  const double bound = std::is_same_v<R, float> ? std::ldexp(abs_sum * (2 * s.k + 1), -24) : 0;
  for (size_t i = 0; i < got.size(); ++i) ASSERT_LE(std::fabs(got[i] - want[i]), bound) << i;
}

AscendC::MmadParams Init(bool init_zero, bool from_bias_table) {
  AscendC::MmadParams p;
  p.cmatrixInitVal = init_zero;
  p.cmatrixSource = from_bias_table;
  return p;
}

TEST(MmadPaths, HalfBf16FloatToFloat) {
  ExpectPath<half, float>({30, 40, 70}, Init(true, false));
  ExpectPath<bfloat16_t, float>({17, 33, 45}, Init(true, false));
  ExpectPath<float, float>({30, 40, 70}, Init(true, false));
  ExpectPath<float, float>({30, 40, 70, true}, Init(true, false));  // kDirectionAlign
}

TEST(MmadPaths, IntegersAreExact) {
  ExpectPath<int8_t, int32_t>({30, 64, 70}, Init(true, false));
  ExpectPath<AscendC::int4b_t, int32_t>({30, 40, 70}, Init(true, false));
}

TEST(MmadPaths, InitialMatrices) {
  ExpectPath<half, float>({20, 40, 33}, Init(false, false));  // accumulate onto L0C
  ExpectPath<half, float>({20, 40, 33}, Init(false, true));   // the BiasTable
  ExpectPath<int8_t, int32_t>({20, 40, 33}, Init(false, true));
}

TEST(MmadPaths, The950sNzL0A) {
  EXPECT_EQ(lngrad::cube::test::RunOn("Ascend950PR_9599",
                                      [] {
                                        ExpectPath<half, float>({30, 40, 70}, Init(true, false));
                                      }),
            "");
}

}  // namespace

namespace {

// GEMV (m = 1): A's k elements contiguous in L0A.
TEST(MmadPaths, GemvReadsOneContiguousRow) {
  constexpr uint32_t kK = 40, kN = 20, kNb = 2;
  AscendC::LocalTensor<half> a(TPosition::A2, 0, 256 * 3);
  AscendC::LocalTensor<half> b(TPosition::B2, 0, 256 * 3 * kNb);
  AscendC::LocalTensor<float> c(TPosition::CO1, 0, 256 * kNb);
  half* pa = static_cast<half*>(a.GetPhyAddr());
  half* pb = static_cast<half*>(b.GetPhyAddr());
  for (uint32_t k = 0; k < kK; ++k) pa[k] = half(static_cast<float>(k % 7) - 3.0f);
  for (uint32_t k = 0; k < kK; ++k) {
    for (uint32_t n = 0; n < kN; ++n) {
      pb[((k / 16) * kNb + n / 16) * 256 + (n % 16) * 16 + k % 16] =
          half(static_cast<float>((k + n) % 5));
    }
  }
  AscendC::Mmad(c, a, b, AscendC::MmadParams(1, kN, kK, 0, false, true));
  const float* pc = static_cast<float*>(c.GetPhyAddr());
  for (uint32_t n = 0; n < kN; ++n) {
    double want = 0;
    for (uint32_t k = 0; k < kK; ++k) want += (k % 7 - 3.0) * ((k + n) % 5);
    ASSERT_EQ(pc[(n / 16) * 256 + n % 16], want) << n;
  }
}

}  // namespace

namespace {

// 4:2 sparsity: each dense B value multiplies the A element its 2-bit index picks in its group
// of 4 (the second index counts from the group's second element).
TEST(MmadPaths, SparsePicksAByTheIndex) {
  constexpr uint32_t kK = 64, kKd = 32;  // one A fractal column, one dense B fractal
  AscendC::LocalTensor<int8_t> a(TPosition::A2, 0, 1024);  // two fractals: k 0-31, 32-63
  AscendC::LocalTensor<int8_t> b1(TPosition::B1, 0, 512);
  AscendC::LocalTensor<uint8_t> idx(TPosition::B1, 512, 128);
  AscendC::LocalTensor<int8_t> b(TPosition::B2, 0, 512);
  AscendC::LocalTensor<int32_t> c(TPosition::CO1, 0, 256);
  int8_t* pa = static_cast<int8_t*>(a.GetPhyAddr());
  int8_t* pb = static_cast<int8_t*>(b1.GetPhyAddr());
  uint8_t* pi = static_cast<uint8_t*>(idx.GetPhyAddr());
  for (uint32_t m = 0; m < 16; ++m) {
    for (uint32_t k = 0; k < kK; ++k) {
      pa[k / 32 * 512 + m * 32 + k % 32] = static_cast<int8_t>((m * 3 + k) % 11 - 5);
    }
  }
  uint32_t sel[16][kKd];
  for (uint32_t n = 0; n < 16; ++n) {
    for (uint32_t kd = 0; kd < kKd; ++kd) pb[n * 32 + kd] = static_cast<int8_t>((n + kd) % 7 - 3);
    for (uint32_t g = 0; g < kKd / 2; ++g) {                      // group g: original k 4g..4g+3
      const uint32_t i0 = (n + g) % 3, i1 = i0 + (g % (3 - i0));  // second after the first
      sel[n][2 * g] = 4 * g + i0;
      sel[n][2 * g + 1] = 4 * g + 1 + i1;
      uint8_t& byte = pi[n * 8 + g / 2];
      if (g % 2 == 0) byte = 0;
      byte = static_cast<uint8_t>(byte | ((i0 | (i1 << 2)) << (g % 2 * 4)));
    }
  }
  AscendC::LoadData2DParams p;
  p.repeatTimes = 1;
  AscendC::LoadDataWithSparse(b, b1, idx, p);
  AscendC::MmadWithSparse(c, a, b, AscendC::MmadParams(16, 16, kK, false, 0, false, false, false));
  const int32_t* pc = static_cast<int32_t*>(c.GetPhyAddr());
  for (uint32_t m = 0; m < 16; ++m) {
    for (uint32_t n = 0; n < 16; ++n) {
      int32_t want = 0;
      for (uint32_t kd = 0; kd < kKd; ++kd)
        want += pa[m * 32 + sel[n][kd] % 32 + sel[n][kd] / 32 * 512] * pb[n * 32 + kd];
      ASSERT_EQ(pc[m * 16 + n], want) << m << "," << n;
    }
  }
}

}  // namespace
