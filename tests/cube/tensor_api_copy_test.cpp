// The tensor API's copies and Mmad (AscendC::Te, built for the 950) through whole kernels on the
// simulated 950: GM -> L1 (ND into NZ, DN into ZN), L1 -> L0A / L0B (direct and transposed), a
// half bias through the BiasTable, Mmad and L0C -> GM, against a float64 oracle with the cube's
// stated bound (docs/ascendc_kernels.md, "The cube": |error| <= 2^-24 (K + 1) (|bias| + sum |a b|)
// for half inputs); int8 through the per-column dequantisation (VDEQF16) against the exact int32
// product times the scale, rounded once to half. Misuse: the named checks of the atoms; the
// sanitizer: Mutex Lock / Unlock order the cube's pipes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"
#include "tensor_api/tensor.h"

namespace {

using AscendC::TPosition;
// `__cbuf__ T name[N];` and the other cube arrays, as lngrad-asc rewrites them.
#define CUBE_ARRAY(pos, type, name) \
  auto& name = lngrad::cube::CubeArray<type>(lngrad::cube::ArrayKey([] {}), #name, TPosition::pos)
namespace te = AscendC::Te;
constexpr const char* kSoc = "Ascend950PR_9599";

float Input(uint32_t i, uint32_t salt) {
  return static_cast<float>(static_cast<int32_t>((i * 2654435761u + salt * 40503u) % 61u) - 30) /
         16.0f;
}

struct Problem {
  uint32_t m, n, k;
  bool b_dn;         // B stored DN in GM (into ZN in L1) instead of ND (into NZ)
  bool bias;         // a half bias per column through the BiasTable
  bool sync = true;  // the Mutex pairs that order the pipes
  // M -> FIX through a nested pair on MutexID 1 (Lock<M>, Lock<FIX>, Fixpipe, Unlock<FIX>,
  // Unlock<M>: the conv2d sample's form) instead of Unlock<M>(0), Lock<FIX>(0).
  bool nested = false;
};

// Hands MutexID 0 from pipe P to pipe Q (Unlock<P>, Lock<Q>) when sync.
template <pipe_t P, pipe_t Q>
void Pass(bool sync) {
  if (!sync) return;
  AscendC::Mutex::Unlock<P>(0);
  AscendC::Mutex::Lock<Q>(0);
}

// C (float, ND) = A (T, ND) x B (+ bias, T) through the tensor API, one block (T half or float;
// a half bias widens into the BiasTable).
template <typename T>
std::string RunMatmul(const Problem& p, const std::vector<T>& a, const std::vector<T>& b,
                      const std::vector<T>& bias, std::vector<float>* c, uint32_t tools = 0) {
  const auto kernel = [&] {
    CUBE_ARRAY(A1, T[64 * 64], l1a);
    CUBE_ARRAY(A1, T[64 * 64], l1b);
    CUBE_ARRAY(A1, T[64], l1bias);
    CUBE_ARRAY(A2, T[64 * 64], l0a);
    CUBE_ARRAY(B2, T[64 * 64], l0b);
    CUBE_ARRAY(CO1, float[64 * 64], l0c);
    CUBE_ARRAY(C2, float[64], bt);
    auto gmA = te::MakeTensor(te::MakeMemPtr(const_cast<T*>(a.data())),
                              te::MakeFrameLayout<te::NDExtLayoutPtn>(p.m, p.k));
    auto gmB = te::MakeTensor(te::MakeMemPtr(const_cast<T*>(b.data())),
                              p.b_dn ? te::MakeFrameLayout<te::DNExtLayoutPtn>(p.k, p.n)
                                     : te::MakeFrameLayout<te::NDExtLayoutPtn>(p.k, p.n));
    auto gmC = te::MakeTensor(te::MakeMemPtr(c->data()),
                              te::MakeFrameLayout<te::NDExtLayoutPtn>(p.m, p.n));
    auto l1A =
        te::MakeTensor(te::MakeMemPtr(l1a), te::MakeFrameLayout<te::NZLayoutPtn, T>(p.m, p.k));
    auto l1B = te::MakeTensor(te::MakeMemPtr(l1b),
                              p.b_dn ? te::MakeFrameLayout<te::ZNLayoutPtn, T>(p.k, p.n)
                                     : te::MakeFrameLayout<te::NZLayoutPtn, T>(p.k, p.n));
    auto l0A =
        te::MakeTensor(te::MakeMemPtr(l0a), te::MakeFrameLayout<te::NZLayoutPtn, T>(p.m, p.k));
    auto l0B =
        te::MakeTensor(te::MakeMemPtr(l0b), te::MakeFrameLayout<te::ZNLayoutPtn, T>(p.k, p.n));
    auto l0C = te::MakeTensor(te::MakeMemPtr(l0c), te::MakeFrameLayout<te::NZLayoutPtn>(p.m, p.n));
    const auto gm2l1 = te::MakeCopy(te::CopyGM2L1{}, te::CopyGM2L1TraitDefault{});
    if (p.sync) AscendC::Mutex::Lock<PIPE_MTE2>(0);
    te::Copy(gm2l1, l1A, gmA);
    te::Copy(gm2l1, l1B, gmB);
    Pass<PIPE_MTE2, PIPE_MTE1>(p.sync);
    te::Copy(te::MakeCopy(te::CopyL12L0A{}, te::CopyL12L0ATraitDefault{}), l0A, l1A);
    te::Copy(te::MakeCopy(te::CopyL12L0B{}, te::CopyL12L0BTraitDefault{}), l0B, l1B);
    const auto mmad = te::MakeMmad(te::MmadOperation{}, te::MmadTraitDefault{})
                          .with(te::MmadParams(p.m, p.n, p.k, 0, true));
    if (p.bias) {
      auto gmBias = te::MakeTensor(te::MakeMemPtr(const_cast<T*>(bias.data())),
                                   te::MakeFrameLayout<te::NDExtLayoutPtn>(1, p.n));
      auto l1Bias =
          te::MakeTensor(te::MakeMemPtr(l1bias), te::MakeFrameLayout<te::NDExtLayoutPtn>(1, p.n));
      auto btBias =
          te::MakeTensor(te::MakeMemPtr(bt), te::MakeFrameLayout<te::NDExtLayoutPtn>(1, p.n));
      Pass<PIPE_MTE1, PIPE_MTE2>(p.sync);
      te::Copy(gm2l1, l1Bias, gmBias);
      Pass<PIPE_MTE2, PIPE_MTE1>(p.sync);
      te::Copy(te::MakeCopy(te::CopyL12BT{}, te::CopyL12BTTraitDefault{}), btBias, l1Bias);
      Pass<PIPE_MTE1, PIPE_M>(p.sync);
      te::Mmad(mmad, l0C, l0A, l0B, btBias);
    } else {
      Pass<PIPE_MTE1, PIPE_M>(p.sync);
      te::Mmad(mmad, l0C, l0A, l0B);
    }
    const auto l0c2gm = te::MakeCopy(te::CopyL0C2GM{}, te::CopyL0C2GMTraitDefault{});
    if (p.nested) {
      AscendC::Mutex::Unlock<PIPE_M>(0);
      AscendC::Mutex::Lock<PIPE_M>(1);
      AscendC::Mutex::Lock<PIPE_FIX>(1);
      te::Copy(l0c2gm, gmC, l0C);
      AscendC::Mutex::Unlock<PIPE_FIX>(1);
      AscendC::Mutex::Unlock<PIPE_M>(1);
      return;
    }
    Pass<PIPE_M, PIPE_FIX>(p.sync);
    te::Copy(l0c2gm, gmC, l0C);
    if (p.sync) AscendC::Mutex::Unlock<PIPE_FIX>(0);
  };
  return lngrad::cube::test::RunOn(kSoc, kernel, tools);
}

template <typename T>
void ExpectMatmul(const Problem& p) {
  std::vector<T> a(p.m * p.k), b(p.k * p.n), bias(p.n);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = T(Input(i, 1));
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = T(Input(i, 2));
  for (uint32_t i = 0; i < bias.size(); ++i) bias[i] = T(Input(i, 3) * 4.0f);
  std::vector<float> c(p.m * p.n, -7.0f);
  ASSERT_EQ(RunMatmul(p, a, b, bias, &c), "");
  for (uint32_t i = 0; i < p.m; ++i) {
    for (uint32_t j = 0; j < p.n; ++j) {
      double sum = p.bias ? static_cast<double>(static_cast<float>(bias[j])) : 0.0;
      double mag = std::fabs(sum);
      for (uint32_t kk = 0; kk < p.k; ++kk) {
        // B's (k, j): ND at k * n + j, DN at j * k + k.
        const double bv = static_cast<float>(p.b_dn ? b[j * p.k + kk] : b[kk * p.n + j]);
        const double prod = static_cast<double>(static_cast<float>(a[i * p.k + kk])) * bv;
        sum += prod;
        mag += std::fabs(prod);
      }
      // Half products are exact in float; a float product rounds once more (the cube's bound).
      const double bound =
          std::ldexp(1.0, -24) * (std::is_same_v<T, float> ? 2 * p.k + 1 : p.k + 1) * mag;
      ASSERT_LE(std::fabs(c[i * p.n + j] - sum), bound) << i << "," << j;
    }
  }
}

TEST(TensorApiCopy, NdIntoNzMatmulMatchesTheOracle) {
  ExpectMatmul<half>({32, 48, 64, false, false});
}
TEST(TensorApiCopy, DnIntoZnMatmulMatchesTheOracle) {
  ExpectMatmul<half>({48, 32, 64, true, false});
}
// Float: NZ into L0B is a b32 transpose, whose column count the destination's 16-aligned extent
// sets (40 columns: 6 chunks of 8, even).
TEST(TensorApiCopy, FloatMatmulsAndTails) {
  ExpectMatmul<float>({32, 40, 32, false, true});
  ExpectMatmul<float>({20, 24, 40, true, true});
}

TEST(TensorApiCopy, TailsAndHalfBias) {
  ExpectMatmul<half>({20, 24, 40, false, true});
  // One row: MmadTraitDefault turns GEMV off, so A is read in its NZ form like any other.
  ExpectMatmul<half>({1, 32, 32, false, false});
  ExpectMatmul<half>({17, 40, 48, true, true});
}

// The Mutex pairs of RunMatmul order MTE2 -> MTE1 -> M -> FIX: the sanitizer finds nothing.
TEST(TensorApiCopy, MutexOrdersTheCubePipes) {
  const Problem p{32, 32, 32, false, true};
  std::vector<half> a(p.m * p.k, half(1.0f)), b(p.k * p.n, half(1.0f)), bias(p.n, half(0.5f));
  std::vector<float> c(p.m * p.n);
  EXPECT_EQ(RunMatmul(p, a, b, bias, &c, lngrad::aicore::san::kAllTools), "");
  Problem unsynced = p;
  unsynced.sync = false;
  const std::string races = RunMatmul(unsynced, a, b, bias, &c, lngrad::aicore::san::kAllTools);
  EXPECT_NE(races.find("hazard on L1"), std::string::npos) << races;
  EXPECT_NE(races.find("hazard on L0C"), std::string::npos) << races;
  Problem nested = p;
  nested.nested = true;
  EXPECT_EQ(RunMatmul(nested, a, b, bias, &c, lngrad::aicore::san::kAllTools), "");
}

// Int8 A x B into int32, out as half through one scale per column (VDEQF16, a quant tensor in
// L1): the exact int32 sum times the scale, rounded once to half.
TEST(TensorApiCopy, Int8DequantisedPerColumn) {
  constexpr uint32_t kM = 32, kN = 32, kK = 64;
  std::vector<int8_t> a(kM * kK), b(kK * kN);
  for (uint32_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<int8_t>(static_cast<int>(i * 7 % 19) - 9);
  for (uint32_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<int8_t>(static_cast<int>(i * 5 % 23) - 11);
  std::vector<uint64_t> quant(kN);
  std::vector<float> scale(kN);
  for (uint32_t j = 0; j < kN; ++j) {
    scale[j] = 0.125f * static_cast<float>(j % 5 + 1);  // low mantissa bits zero (bits 13..31 kept)
    uint32_t bits = 0;
    std::memcpy(&bits, &scale[j], 4);
    quant[j] = bits;
  }
  std::vector<half> c(kM * kN, half(-1.0f));
  const auto kernel = [&] {
    CUBE_ARRAY(A1, int8_t[kM * kK], l1a);
    CUBE_ARRAY(A1, int8_t[kK * kN], l1b);
    CUBE_ARRAY(A1, uint64_t[kN], l1q);
    CUBE_ARRAY(A2, int8_t[kM * kK], l0a);
    CUBE_ARRAY(B2, int8_t[kK * kN], l0b);
    CUBE_ARRAY(CO1, int32_t[kM * kN], l0c);
    const auto gm2l1 = te::MakeCopy(te::CopyGM2L1{}, te::CopyGM2L1TraitDefault{});
    auto l1A =
        te::MakeTensor(te::MakeMemPtr(l1a), te::MakeFrameLayout<te::NZLayoutPtn, int8_t>(kM, kK));
    auto l1B =
        te::MakeTensor(te::MakeMemPtr(l1b), te::MakeFrameLayout<te::ZNLayoutPtn, int8_t>(kK, kN));
    auto l1Q = te::MakeTensor(te::MakeMemPtr(l1q), te::MakeFrameLayout<te::NDExtLayoutPtn>(1, kN));
    te::Copy(
        gm2l1, l1A,
        te::MakeTensor(te::MakeMemPtr(a.data()), te::MakeFrameLayout<te::NDExtLayoutPtn>(kM, kK)));
    te::Copy(
        gm2l1, l1B,
        te::MakeTensor(te::MakeMemPtr(b.data()), te::MakeFrameLayout<te::DNExtLayoutPtn>(kK, kN)));
    te::Copy(gm2l1, l1Q,
             te::MakeTensor(te::MakeMemPtr(quant.data()),
                            te::MakeFrameLayout<te::NDExtLayoutPtn>(1, kN)));
    auto l0A =
        te::MakeTensor(te::MakeMemPtr(l0a), te::MakeFrameLayout<te::NZLayoutPtn, int8_t>(kM, kK));
    auto l0B =
        te::MakeTensor(te::MakeMemPtr(l0b), te::MakeFrameLayout<te::ZNLayoutPtn, int8_t>(kK, kN));
    auto l0C = te::MakeTensor(te::MakeMemPtr(l0c), te::MakeFrameLayout<te::NZLayoutPtn>(kM, kN));
    te::Copy(te::MakeCopy(te::CopyL12L0A{}, te::CopyL12L0ATraitDefault{}), l0A, l1A);
    te::Copy(te::MakeCopy(te::CopyL12L0B{}, te::CopyL12L0BTraitDefault{}), l0B, l1B);
    te::Mmad(te::MakeMmad(te::MmadOperation{}, te::MmadTraitDefault{}), l0C, l0A, l0B);
    auto gmC =
        te::MakeTensor(te::MakeMemPtr(c.data()), te::MakeFrameLayout<te::NDExtLayoutPtn>(kM, kN));
    te::Copy(te::MakeCopy(te::CopyL0C2GM{}, te::CopyL0C2GMTraitDefault{}), gmC, l0C, l1Q);
  };
  ASSERT_EQ(lngrad::cube::test::RunOn(kSoc, kernel), "");
  for (uint32_t i = 0; i < kM; ++i) {
    for (uint32_t j = 0; j < kN; ++j) {
      int32_t sum = 0;
      for (uint32_t kk = 0; kk < kK; ++kk) sum += a[i * kK + kk] * b[j * kK + kk];
      const half want(static_cast<float>(sum) * scale[j]);
      ASSERT_EQ(static_cast<float>(c[i * kN + j]), static_cast<float>(want)) << i << "," << j;
    }
  }
}

// Four blocks, each its own arrays (one per block and declaration) and its own rows of C: the
// result of each block matches the float64 oracle with the bound of ExpectMatmul.
TEST(TensorApiCopy, BlocksHaveTheirOwnArrays) {
  constexpr uint32_t kBlocks = 4, kRows = 16, kM = kBlocks * kRows, kN = 32, kK = 32;
  std::vector<half> a(kM * kK), b(kK * kN);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = half(Input(i, 4));
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = half(Input(i, 5));
  std::vector<float> c(kM * kN, -7.0f);
  lngrad::aicore::LaunchOptions o;
  o.soc = kSoc;
  std::vector<lngrad::aicore::BlockFailure> failures;
  const auto kernel = [&] {
    CUBE_ARRAY(A1, half[kRows * kK], l1a);
    CUBE_ARRAY(A1, half[kK * kN], l1b);
    CUBE_ARRAY(A2, half[kRows * kK], l0a);
    CUBE_ARRAY(B2, half[kK * kN], l0b);
    CUBE_ARRAY(CO1, float[kRows * kN], l0c);
    const uint32_t row = AscendC::GetBlockIdx() * kRows;
    auto gmA =
        te::MakeTensor(te::MakeMemPtr(a.data()), te::MakeFrameLayout<te::NDExtLayoutPtn>(kM, kK));
    auto gmB =
        te::MakeTensor(te::MakeMemPtr(b.data()), te::MakeFrameLayout<te::NDExtLayoutPtn>(kK, kN));
    auto gmC =
        te::MakeTensor(te::MakeMemPtr(c.data()), te::MakeFrameLayout<te::NDExtLayoutPtn>(kM, kN));
    auto l1A =
        te::MakeTensor(te::MakeMemPtr(l1a), te::MakeFrameLayout<te::NZLayoutPtn, half>(kRows, kK));
    auto l1B =
        te::MakeTensor(te::MakeMemPtr(l1b), te::MakeFrameLayout<te::NZLayoutPtn, half>(kK, kN));
    auto l0A =
        te::MakeTensor(te::MakeMemPtr(l0a), te::MakeFrameLayout<te::NZLayoutPtn, half>(kRows, kK));
    auto l0B =
        te::MakeTensor(te::MakeMemPtr(l0b), te::MakeFrameLayout<te::ZNLayoutPtn, half>(kK, kN));
    auto l0C = te::MakeTensor(te::MakeMemPtr(l0c), te::MakeFrameLayout<te::NZLayoutPtn>(kRows, kN));
    const auto gm2l1 = te::MakeCopy(te::CopyGM2L1{}, te::CopyGM2L1TraitDefault{});
    te::Copy(gm2l1, l1A, gmA.Slice(te::MakeCoord(row, 0u), te::MakeShape(kRows, kK)));
    te::Copy(gm2l1, l1B, gmB);
    AscendC::PipeBarrier<PIPE_ALL>();
    te::Copy(te::MakeCopy(te::CopyL12L0A{}, te::CopyL12L0ATraitDefault{}), l0A, l1A);
    te::Copy(te::MakeCopy(te::CopyL12L0B{}, te::CopyL12L0BTraitDefault{}), l0B, l1B);
    AscendC::PipeBarrier<PIPE_ALL>();
    te::Mmad(te::MakeMmad(te::MmadOperation{}, te::MmadTraitDefault{}), l0C, l0A, l0B);
    AscendC::PipeBarrier<PIPE_ALL>();
    te::Copy(te::MakeCopy(te::CopyL0C2GM{}, te::CopyL0C2GMTraitDefault{}),
             gmC.Slice(te::MakeCoord(row, 0u), te::MakeShape(kRows, kN)), l0C);
  };
  ASSERT_TRUE(lngrad::aicore::detail::RunBlocks("blocks", kBlocks, kernel, o, &failures).ok());
  for (uint32_t i = 0; i < kM; ++i) {
    for (uint32_t j = 0; j < kN; ++j) {
      double sum = 0, mag = 0;
      for (uint32_t kk = 0; kk < kK; ++kk) {
        const double prod = static_cast<double>(static_cast<float>(a[i * kK + kk])) *
                            static_cast<float>(b[kk * kN + j]);
        sum += prod;
        mag += std::fabs(prod);
      }
      ASSERT_LE(std::fabs(c[i * kN + j] - sum), std::ldexp(1.0, -24) * (kK + 1) * mag)
          << i << "," << j;
    }
  }
}

// Feature maps: NHWC and NCHW into an NC1HWC0 L1 map (channel ch of pixel (h, w) at
// ((ch / 16) x h x w + h x W + w) x 16 + ch % 16), and an L0C (NZ, float) out into DN (NCHW: the
// channel's plane) and NC1HWC0 as half.
TEST(TensorApiCopy, FeatureMapsInAndOut) {
  constexpr uint32_t kH = 3, kW = 5, kC = 32, kHw = kH * kW;
  std::vector<half> nhwc(kHw * kC), nchw(kHw * kC);
  for (uint32_t hw = 0; hw < kHw; ++hw) {
    for (uint32_t ch = 0; ch < kC; ++ch) {
      nhwc[hw * kC + ch] = half(static_cast<float>(hw * 100 + ch));
      nchw[ch * kHw + hw] = half(static_cast<float>(hw * 100 + ch));
    }
  }
  std::vector<half> dn(kHw * 16, half(-1.0f)), nc1(kHw * 16, half(-1.0f));
  std::vector<half> l1_seen[2];
  const std::string err = lngrad::cube::test::RunOn(kSoc, [&] {
    CUBE_ARRAY(A1, half[kHw * kC], fmap);
    CUBE_ARRAY(CO1, float[16 * 16], l0c);
    const auto gm2l1 = te::MakeCopy(te::CopyGM2L1{}, te::CopyGM2L1TraitDefault{});
    auto l1 = te::MakeTensor(te::MakeMemPtr(fmap),
                             te::MakeFrameLayout<te::NC1HWC0LayoutPtn>(1, kC / 16, kH, kW, 16));
    for (int which = 0; which < 2; ++which) {
      std::fill(fmap, fmap + kHw * kC, half(-1.0f));
      if (which == 0) {
        te::Copy(gm2l1, l1,
                 te::MakeTensor(te::MakeMemPtr(nhwc.data()),
                                te::MakeFrameLayout<te::NHWCLayoutPtn>(1, kH, kW, kC)));
      } else {
        te::Copy(gm2l1, l1,
                 te::MakeTensor(te::MakeMemPtr(nchw.data()),
                                te::MakeFrameLayout<te::NCHWLayoutPtn>(1, kC, kH, kW)));
      }
      AscendC::PipeBarrier<PIPE_ALL>();
      l1_seen[which].assign(fmap, fmap + kHw * kC);
    }
    // L0C (16 x 16, NZ: one fractal): (m, n) = m * 16 + n.
    for (uint32_t i = 0; i < 256; ++i) l0c[i] = static_cast<float>(i);
    auto c = te::MakeTensor(te::MakeMemPtr(l0c), te::MakeFrameLayout<te::NZLayoutPtn>(16, 16))
                 .Slice(te::MakeCoord(0, 0), te::MakeShape(kHw, 16));
    const auto out = te::MakeCopy(te::CopyL0C2GM{}, te::CopyL0C2GMTraitDefault{});
    te::Copy(out,
             te::MakeTensor(te::MakeMemPtr(dn.data()),
                            te::MakeFrameLayout<te::NCHWLayoutPtn>(1, 16, kH, kW)),
             c);
    te::Copy(out,
             te::MakeTensor(te::MakeMemPtr(nc1.data()),
                            te::MakeFrameLayout<te::NC1HWC0LayoutPtn>(1, 1, kH, kW, 16)),
             c);
  });
  ASSERT_EQ(err, "");
  for (int which = 0; which < 2; ++which) {
    for (uint32_t hw = 0; hw < kHw; ++hw) {
      for (uint32_t ch = 0; ch < kC; ++ch) {
        ASSERT_EQ(static_cast<float>(l1_seen[which][((ch / 16) * kHw + hw) * 16 + ch % 16]),
                  static_cast<float>(hw * 100 + ch))
            << which << ": " << hw << "," << ch;
      }
    }
  }
  for (uint32_t m = 0; m < kHw; ++m) {
    for (uint32_t n = 0; n < 16; ++n) {
      ASSERT_EQ(static_cast<float>(dn[n * kHw + m]), static_cast<float>(m * 16 + n))
          << m << "," << n;
      ASSERT_EQ(static_cast<float>(nc1[m * 16 + n]), static_cast<float>(m * 16 + n))
          << m << "," << n;
    }
  }
}

// Misuse names its check: an operand in the wrong memory, a layout pair the atom does not move,
// an origin off the fractal grid.
TEST(TensorApiCopy, MisuseIsNamed) {
  std::vector<half> g(64 * 64, half(1.0f));
  const auto run = [&](int which) {
    return lngrad::cube::test::RunOn(kSoc, [&] {
      CUBE_ARRAY(A2, half[64 * 64], l0a);
      CUBE_ARRAY(A1, half[64 * 64], l1);
      auto gm =
          te::MakeTensor(te::MakeMemPtr(g.data()), te::MakeFrameLayout<te::NDExtLayoutPtn>(64, 64));
      auto nz =
          te::MakeTensor(te::MakeMemPtr(l1), te::MakeFrameLayout<te::NZLayoutPtn, half>(64, 64));
      const auto gm2l1 = te::MakeCopy(te::CopyGM2L1{}, te::CopyGM2L1TraitDefault{});
      if (which == 0) {  // GM -> L1 into L0A
        te::Copy(
            gm2l1,
            te::MakeTensor(te::MakeMemPtr(l0a), te::MakeFrameLayout<te::NZLayoutPtn, half>(64, 64)),
            gm);
      } else if (which == 1) {  // NZ in GM is no source of CopyGM2L1
        te::Copy(gm2l1, nz,
                 te::MakeTensor(te::MakeMemPtr(g.data()),
                                te::MakeFrameLayout<te::NZLayoutPtn, half>(64, 64)));
      } else {  // an L1 origin inside a fractal
        te::Copy(gm2l1, nz.Slice(te::MakeCoord(8, 0), te::MakeShape(16, 16)),
                 gm.Slice(te::MakeCoord(0, 0), te::MakeShape(16, 16)));
      }
    });
  };
  EXPECT_NE(run(0).find("[tensor_api.position] Copy(CopyGM2L1): dst is in L0A; it must be in L1"),
            std::string::npos)
      << run(0);
  EXPECT_NE(run(1).find("[tensor_api.layout] Copy(CopyGM2L1): no copy from NZ to NZ"),
            std::string::npos)
      << run(1);
  EXPECT_NE(run(2).find("[tensor_api.alignment]"), std::string::npos) << run(2);
}

// A cube array past its memory: cube.bounds, naming the array.
TEST(CubeLocalArray, PlacedInOrderAndBounded) {
  const std::string ok = lngrad::cube::test::RunOn(kSoc, [] {
    CUBE_ARRAY(A2, half[100], x);
    CUBE_ARRAY(A2, half[10], y);
    TPosition pos{};
    uint32_t addr = 1;
    ASSERT_TRUE(lngrad::cube::LocateLocal(x, &pos, &addr));
    EXPECT_EQ(addr, 0u);
    ASSERT_TRUE(lngrad::cube::LocateLocal(y, &pos, &addr));
    EXPECT_EQ(addr, 512u);  // the next 512-byte L0A fractal
    EXPECT_EQ(pos, TPosition::A2);
  });
  EXPECT_EQ(ok, "");
  const std::string big = lngrad::cube::test::RunOn(kSoc, [] {
    (void)lngrad::cube::CubeArray<float[20000]>(lngrad::cube::ArrayKey([] {}), "big",
                                                TPosition::B2);
  });
  EXPECT_NE(big.find("[cube.bounds]"), std::string::npos) << big;
  EXPECT_NE(big.find("big"), std::string::npos) << big;
}

}  // namespace
