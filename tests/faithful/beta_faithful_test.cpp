// AscendC::LayerNormGradBeta on the simulated device against the independent replay: bitwise
// outputs, the same overwritten resForGamma (float + isReuseSource) and scratch, on arch 2201,
// 2002 and 3510, float and half, several chunkings; and the documentation example exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "doc_example.h"
#include "faithful_util.h"

namespace faithful {
namespace {

struct BetaShape {
  const char* name;
  uint32_t rows, h_float, h_half;
  TmpKind tmp;
};
const BetaShape kShapes[] = {
    {"h32_min", 13, 32, 32, TmpKind::kMin},
    {"h32_max", 13, 32, 32, TmpKind::kMax},
    {"h32_rows", 13, 32, 32, TmpKind::kRows},
    // Not a multiple of 64 columns: the 3510 kernel's last column chunk is partial.
    {"h80_rows", 11, 80, 96, TmpKind::kRows},
};

BetaCase MakeCase(const Param& p, Proto proto = Proto::kSharedTmpBuffer) {
  const auto& [soc, half, reuse, index] = p;
  const BetaShape& s = kShapes[index];
  BetaCase c = NewCase<BetaCase>(soc, half, reuse, s.rows, half ? s.h_half : s.h_float, proto);
  const uint64_t seed = 500 + static_cast<uint64_t>(index) * 7 + (half ? 1 : 0);
  c.dy = MakeTensor(half, Uniform(size_t{c.rows} * c.h, -4, 4, seed));
  c.res_for_gamma = MakeTensor(half, Uniform(size_t{c.rows} * c.h, -2, 2, seed + 1));
  SetBetaTiling(c, s.tmp);
  return c;
}

// A half case of `rows` x `h` on `soc` with the given dy and res_for_gamma values and the tiling
// of `kind`.
BetaCase HalfCase(const std::string& soc, uint32_t rows, uint32_t h, const std::vector<double>& dy,
                  const std::vector<double>& res, TmpKind kind) {
  BetaCase c = NewCase<BetaCase>(soc, true, false, rows, h);
  c.dy = MakeTensor(true, dy);
  c.res_for_gamma = MakeTensor(true, res);
  SetBetaTiling(c, kind);
  return c;
}

// The outputs and the inputs after the call (the replay's, and inputDy unchanged).
void ExpectSameAsReplay(const BetaCase& c, const BetaResult& got, const BetaResult& want) {
  ExpectSame("outputPdGamma", got.pd_gamma, want.pd_gamma);
  ExpectSame("outputPdBeta", got.pd_beta, want.pd_beta);
  ExpectSame("resForGamma after", got.res_for_gamma, want.res_for_gamma);
  ExpectSame("inputDy after", got.dy, c.dy);
}

class BetaBitwiseTest : public ::testing::TestWithParam<Param> {};

TEST_P(BetaBitwiseTest, OutputsInputsAndScratchEqualTheReplay) {
  const BetaCase c = MakeCase(GetParam());
  BetaResult got;
  const lngrad::Status st = RunBeta(c, &got);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const BetaResult want = ReplayBeta(c);
  ExpectSameAsReplay(c, got, want);
  ExpectSameScratch(got.scratch, want.scratch);
}

INSTANTIATE_TEST_SUITE_P(AllProducts, BetaBitwiseTest, AllParams(kShapes), ParamNames(kShapes));

TEST(BetaBitwiseCoverageTest, RowsTilingHasChunksAndATail) {
  const BetaCase c = MakeCase({kA2, false, false, 2});
  EXPECT_GE(c.tiling.loopRound, 2u);
  EXPECT_NE(c.tiling.inputTailSize, 0u);
  const BetaCase h = MakeCase({kA2, true, false, 3});
  EXPECT_GE(h.tiling.loopRound, 2u);
  EXPECT_NE(h.tiling.inputTailSize, 0u);
}

// float + isReuseSource on 2201/2002: the kernel's product tensor is resForGamma's base
// (params.resForGammaTmpTensor = resForGamma, not resForGamma[offset]), so every chunk writes
// its dy*res to resForGamma[0, bshCur): element k < inputTailSize ends with the tail's product,
// k < oneCalSize with the last full chunk's, and the rest keeps its input. A closed form from
// the tiling, not a second simulation.
std::vector<double> ReuseResForGammaAfter(const BetaCase& c) {
  const auto& t = c.tiling;
  const std::vector<double> dy = Values(c.dy), res = Values(c.res_for_gamma);
  const auto prod = [&](uint64_t i) {
    return static_cast<double>(static_cast<float>(dy[i]) * static_cast<float>(res[i]));
  };
  const uint64_t last_full = uint64_t{t.loopRound - 1} * t.oneCalSize;
  std::vector<double> want = res;
  for (uint64_t k = 0; k < want.size(); ++k) {
    if (k < t.inputTailSize) {
      want[k] = prod(t.inputTailPos + k);
    } else if (k < t.oneCalSize) {
      want[k] = prod(last_full + k);
    }
  }
  return want;
}

void ExpectSameValues(const char* what, const std::vector<double>& got,
                      const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t k = 0; k < got.size(); ++k) {
    ASSERT_EQ(FloatBits(static_cast<float>(got[k])), FloatBits(static_cast<float>(want[k])))
        << what << " element " << k;
  }
}

TEST(BetaReuseSourceTest, FloatWritesEveryChunksProductsAtResForGammasBase) {
  for (const char* soc : {kA2, kInfer}) {
    SCOPED_TRACE(soc);
    const BetaCase c = MakeCase({soc, false, true, 2});
    // [1,13,32] with 3 rows per chunk: 4 chunks of 96 and a one-row tail.
    ASSERT_EQ(c.tiling.oneCalSize, 96u);
    ASSERT_EQ(c.tiling.loopRound, 4u);
    ASSERT_EQ(c.tiling.inputTailSize, 32u);
    BetaResult got;
    ASSERT_TRUE(RunBeta(c, &got).ok());
    // The code reuses resForGamma (the documentation says inputDy; spec §3.3).
    ExpectSameValues("resForGamma", Values(got.res_for_gamma), ReuseResForGammaAfter(c));
    ExpectSame("inputDy", got.dy, c.dy);
  }
  // Without reuse, and for half or on 3510, resForGamma stays.
  for (const std::string& soc : kProducts) {
    for (bool half : {false, true}) {
      for (bool reuse : {false, true}) {
        if (!half && reuse && soc != k950) continue;
        SCOPED_TRACE(soc + (half ? " half" : " float") + (reuse ? " reuse" : ""));
        const BetaCase c = MakeCase({soc, half, reuse, 2});
        BetaResult got;
        ASSERT_TRUE(RunBeta(c, &got).ok());
        ExpectSame("resForGamma", got.res_for_gamma, c.res_for_gamma);
      }
    }
  }
}

// Issue 14's example: [2,32,16] float, isReuseSource, stackBufferSize 128 B = 32 floats: 32
// chunks of 32 (two rows), no tail. The device leaves resForGamma[0,32) = dy[992,1024) *
// res[992,1024) and [32,1024) as it was. With 192 B (48 floats): 21 chunks and a 16-element
// tail at 1008: [0,16) from the tail, [16,48) from the chunk at 960, [48,1024) untouched.
TEST(BetaReuseSourceTest, ChunkedExampleLeavesOnlyTheBaseOverwritten) {
  struct Example {
    uint32_t stack_bytes, one, loop_round, tail;
  };
  for (const Example& e : {Example{128, 32, 32, 0}, Example{192, 48, 21, 16}}) {
    for (const char* soc : {kA2, kInfer}) {
      SCOPED_TRACE(std::string(soc) + " stackBufferSize " + std::to_string(e.stack_bytes));
      BetaCase c = NewCase<BetaCase>(soc, false, true, 64, 16);
      c.dy = MakeTensor(false, Uniform(1024, -4, 4, 77));
      c.res_for_gamma = MakeTensor(false, Uniform(1024, -2, 2, 78));
      {
        SocScope scope(soc);
        const lngrad::Status st = lngrad::tiling::LayerNormGradBetaNDTilingInfo(
            ge::Shape({2, 32, 16, 16}), e.stack_bytes, 4, true, c.tiling);
        ASSERT_TRUE(st.ok()) << st.ToString();
      }
      ASSERT_EQ(c.tiling.oneCalSize, e.one);
      ASSERT_EQ(c.tiling.loopRound, e.loop_round);
      ASSERT_EQ(c.tiling.inputTailSize, e.tail);
      c.scratch_bytes = c.tmp_buffer_bytes = e.stack_bytes;
      BetaResult got;
      const lngrad::Status st = RunBeta(c, &got);
      ASSERT_TRUE(st.ok()) << st.ToString();
      const std::vector<double> dy = Values(c.dy), res = Values(c.res_for_gamma),
                                after = Values(got.res_for_gamma);
      const auto prod = [&](size_t i) {
        return FloatBits(static_cast<float>(dy[i]) * static_cast<float>(res[i]));
      };
      for (size_t k = 0; k < 1024; ++k) {
        uint32_t want = FloatBits(static_cast<float>(res[k]));  // untouched
        if (e.tail == 0 && k < 32) want = prod(992 + k);
        if (e.tail != 0 && k < 16) want = prod(1008 + k);
        if (e.tail != 0 && k >= 16 && k < 48) want = prod(960 + k);
        ASSERT_EQ(FloatBits(static_cast<float>(after[k])), want) << "resForGamma element " << k;
      }
      // The replay (re-derived from the kernel source) agrees, outputs and scratch included;
      // the outputs are those of the run without reuse.
      ExpectSameAsReplay(c, got, ReplayBeta(c));
      BetaCase plain = c;
      plain.reuse = false;
      BetaResult no_reuse;
      ASSERT_TRUE(RunBeta(plain, &no_reuse).ok());
      ExpectSame("outputPdGamma vs no reuse", got.pd_gamma, no_reuse.pd_gamma);
      ExpectSame("outputPdBeta vs no reuse", got.pd_beta, no_reuse.pd_beta);
    }
  }
}

// Arch 3510 half stores the accumulators with the saturating Cast (SatMode::SAT): by the Cast
// documentation, NaN -> 0 and beyond the range (inf included) -> +-65504. The vector path's
// CAST_NONE keeps NaN and inf.
TEST(BetaSaturationTest, Arch3510HalfStoresNanAsZeroAndInfAsMax) {
  const uint32_t rows = 4, h = 16;
  std::vector<double> dy(rows * h, 1.0), res(rows * h, 1.0);
  const double inf = INFINITY;
  dy[0] = NAN;              // column 0: both sums NaN
  dy[1] = inf;              // column 1: both +inf
  dy[2] = inf;              // column 2: inf + -inf = NaN
  dy[h + 2] = -inf;         //
  dy[3] = -inf;             // column 3: both -inf
  res[4] = NAN;             // column 4: gamma NaN, beta 4
  res[5] = 40000.0;         // column 5: gamma 40000 + 3 rounds to 40000 in half
  dy[2 * h + 6] = 60000.0;  // column 6: 60003 -> finite
  dy[3 * h + 6] = 60000.0;  //   then 120002: beyond the range -> 65504
  for (const std::string& soc : kProducts) {
    SCOPED_TRACE(soc);
    const BetaCase c = HalfCase(soc, rows, h, dy, res, TmpKind::kMax);
    BetaResult got;
    ASSERT_TRUE(RunBeta(c, &got).ok());
    const BetaResult want = ReplayBeta(c);
    ExpectSame("outputPdGamma", got.pd_gamma, want.pd_gamma);
    ExpectSame("outputPdBeta", got.pd_beta, want.pd_beta);
    const auto bits = [](const Tensor& t, size_t i) {
      uint16_t b;
      std::memcpy(&b, t.bytes.data() + 2 * i, 2);
      return b;
    };
    const Tensor& g = got.pd_gamma;
    const Tensor& b = got.pd_beta;
    if (IsArch3510(soc)) {
      EXPECT_EQ(bits(g, 0), 0x0000);
      EXPECT_EQ(bits(b, 0), 0x0000);
      EXPECT_EQ(bits(g, 1), 0x7BFF);
      EXPECT_EQ(bits(b, 1), 0x7BFF);
      EXPECT_EQ(bits(g, 2), 0x0000);
      EXPECT_EQ(bits(b, 2), 0x0000);
      EXPECT_EQ(bits(g, 3), 0xFBFF);
      EXPECT_EQ(bits(b, 3), 0xFBFF);
      EXPECT_EQ(bits(g, 4), 0x0000);
      EXPECT_EQ(bits(b, 6), 0x7BFF);
    } else {
      EXPECT_TRUE(std::isnan(g.At(0)) && std::isnan(b.At(0)));
      EXPECT_EQ(bits(g, 1), 0x7C00);
      EXPECT_EQ(bits(b, 1), 0x7C00);
      EXPECT_TRUE(std::isnan(g.At(2)) && std::isnan(b.At(2)));
      EXPECT_EQ(bits(b, 3), 0xFC00);
      EXPECT_TRUE(std::isnan(g.At(4)));
      EXPECT_EQ(bits(b, 6), 0x7C00);
    }
    EXPECT_EQ(b.At(4), 4.0);
    EXPECT_EQ(g.At(5), 40000.0);
    EXPECT_EQ(b.At(7), 4.0);
  }
}

TEST(BetaPrototypeTest, BothPrototypesAgree) {
  for (const std::string& soc : kProducts) {
    for (bool half : {false, true}) {
      SCOPED_TRACE(soc + (half ? " half" : " float"));
      BetaResult a, b;
      ASSERT_TRUE(RunBeta(MakeCase({soc, half, false, 2}, Proto::kSharedTmpBuffer), &a).ok());
      ASSERT_TRUE(RunBeta(MakeCase({soc, half, false, 2}, Proto::kStack), &b).ok());
      ExpectSame("outputPdGamma", b.pd_gamma, a.pd_gamma);
      ExpectSame("outputPdBeta", b.pd_beta, a.pd_beta);
    }
  }
}

// Spec §8.5 / data/layernormgradbeta_doc_example.txt: [1,8,8] float, dy = resForGamma = 0..63;
// every sum is a small integer, so the outputs are exact whatever the chunking.
TEST(BetaDocExampleTest, ExactOnEveryProductAndChunking) {
  bool opened = false;
  const auto doc = lngrad::test::ReadDocExample("layernormgradbeta_doc_example.txt", &opened);
  EXPECT_TRUE(opened) << "layernormgradbeta_doc_example.txt";
  ASSERT_EQ(doc.at("inputDy").size(), 64u);
  for (const std::string& soc : kProducts) {
    for (TmpKind kind : {TmpKind::kMin, TmpKind::kMax, TmpKind::kRows}) {
      for (bool reuse : {false, true}) {
        for (Proto proto : {Proto::kSharedTmpBuffer, Proto::kStack}) {
          SCOPED_TRACE(soc + " tmp " + TmpKindName(kind) + (reuse ? " reuse" : "") +
                       (proto == Proto::kStack ? " PopStackBuffer" : " sharedTmpBuffer"));
          BetaCase c = DocExampleCase<BetaCase>(soc, reuse, proto);
          c.dy = MakeTensor(false, doc.at("inputDy"));
          c.res_for_gamma = MakeTensor(false, doc.at("resForGamma"));
          SetBetaTiling(c, kind);
          BetaResult got;
          const lngrad::Status st = RunBeta(c, &got);
          ASSERT_TRUE(st.ok()) << st.ToString();
          EXPECT_EQ(Values(got.pd_gamma), doc.at("outputPdGamma"));
          EXPECT_EQ(Values(got.pd_beta), doc.at("outputPdBeta"));
        }
      }
    }
  }
}

// The same example widened to half ([1,8,16] so that a row is 32 bytes): integer sums below
// 2^14 that are multiples of 8 are exact in half; expected values from integer arithmetic.
TEST(BetaDocExampleTest, HalfIntegerSumsExact) {
  const uint32_t rows = 8, h = 16;
  std::vector<double> v(rows * h);
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<double>(k % 64);
  std::vector<double> want_gamma(h, 0), want_beta(h, 0);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t col = 0; col < h; ++col) {
      const int64_t k = (r * h + col) % 64;
      want_gamma[col] += static_cast<double>(k * k);
      want_beta[col] += static_cast<double>(k);
    }
  }
  for (double g : want_gamma)
    ASSERT_EQ(lngrad::HalfBitsToFloat(lngrad::FloatToHalfBits(static_cast<float>(g))), g);
  for (const std::string& soc : kProducts) {
    SCOPED_TRACE(soc);
    const BetaCase c = HalfCase(soc, rows, h, v, v, TmpKind::kRows);
    BetaResult got;
    ASSERT_TRUE(RunBeta(c, &got).ok());
    EXPECT_EQ(Values(got.pd_gamma), want_gamma);
    EXPECT_EQ(Values(got.pd_beta), want_beta);
  }
}

}  // namespace
}  // namespace faithful
