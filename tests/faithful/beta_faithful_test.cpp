// AscendC::LayerNormGradBeta on the simulated device against the independent replay: bitwise
// outputs, the same overwritten resForGamma (float + isReuseSource) and scratch, on arch 2201,
// 2002 and 3510, float and half, several chunkings; and the documentation example exactly.
#include <gtest/gtest.h>

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
  BetaCase c;
  c.soc = soc;
  c.half = half;
  c.reuse = reuse;
  c.proto = proto;
  c.rows = s.rows;
  c.h = half ? s.h_half : s.h_float;
  const uint64_t seed = 500 + static_cast<uint64_t>(index) * 7 + (half ? 1 : 0);
  c.dy = MakeTensor(half, Uniform(size_t{c.rows} * c.h, -4, 4, seed));
  c.res_for_gamma = MakeTensor(half, Uniform(size_t{c.rows} * c.h, -2, 2, seed + 1));
  SetBetaTiling(c, s.tmp);
  return c;
}

void ExpectSame(const char* what, const Tensor& got, const Tensor& want) {
  const int64_t i = FirstDifference(got, want);
  EXPECT_EQ(i, -1) << what << " differs first at element " << i;
}

class BetaBitwiseTest : public ::testing::TestWithParam<Param> {};

TEST_P(BetaBitwiseTest, OutputsInputsAndScratchEqualTheReplay) {
  const BetaCase c = MakeCase(GetParam());
  BetaResult got;
  const lngrad::Status st = RunBeta(c, &got);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const BetaResult want = ReplayBeta(c);
  ExpectSame("outputPdGamma", got.pd_gamma, want.pd_gamma);
  ExpectSame("outputPdBeta", got.pd_beta, want.pd_beta);
  ExpectSame("resForGamma after", got.res_for_gamma, want.res_for_gamma);
  ExpectSame("inputDy after", got.dy, c.dy);
  ASSERT_EQ(got.scratch.size(), want.scratch.size());
  for (size_t i = 0; i < got.scratch.size(); ++i) {
    ASSERT_EQ(FloatBits(got.scratch[i]), FloatBits(want.scratch[i])) << "scratch float " << i;
  }
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

TEST(BetaReuseSourceTest, FloatOverwritesResForGammaWithTheProducts) {
  for (const char* soc : {kA2, kInfer}) {
    SCOPED_TRACE(soc);
    const BetaCase c = MakeCase({soc, false, true, 2});
    BetaResult got;
    ASSERT_TRUE(RunBeta(c, &got).ok());
    const std::vector<double> dy = Values(c.dy), res = Values(c.res_for_gamma),
                              after = Values(got.res_for_gamma);
    // The code reuses resForGamma (the documentation says inputDy; spec §3.3).
    for (size_t k = 0; k < dy.size(); ++k) {
      const float want = static_cast<float>(dy[k]) * static_cast<float>(res[k]);
      ASSERT_EQ(FloatBits(static_cast<float>(after[k])), FloatBits(want)) << "element " << k;
    }
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
    BetaCase c;
    c.soc = soc;
    c.half = true;
    c.rows = rows;
    c.h = h;
    c.dy = MakeTensor(true, v);
    c.res_for_gamma = MakeTensor(true, v);
    SetBetaTiling(c, TmpKind::kRows);
    BetaResult got;
    ASSERT_TRUE(RunBeta(c, &got).ok());
    EXPECT_EQ(Values(got.pd_gamma), want_gamma);
    EXPECT_EQ(Values(got.pd_beta), want_beta);
  }
}

}  // namespace
}  // namespace faithful
