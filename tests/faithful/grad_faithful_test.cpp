// AscendC::LayerNormGrad, called from a device-style kernel on the simulated device, against
// the independent replay of the device algorithm (tests/replay): bitwise equal outputs, the
// same clobbered inputs and the same scratch contents, for float and half, with and without
// isReuseSource, on products of arch 2201, 2002 and 3510; shapes with a row loop and a tail,
// H <= 64, 64 < H <= 4096 and H > 4096; tmp sizes min, max and a few rows per loop; both
// prototypes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "faithful_util.h"
#include "lngrad_aicore/check.h"

namespace faithful {
namespace {

struct ShapeCase {
  const char* name;
  uint32_t rows_float, h_float;  // float shape
  uint32_t rows_half, h_half;    // half shape (H a multiple of 16; fits the UB with 9 buffers)
  TmpKind tmp;                   // on 2201/2002; arch 3510 always uses its own tiling
};

// H <= 64: one 64-lane tree; 64 < H <= 4096: a tree of 64-lane sums (with a partial repeat);
// H > 4096: three levels. Rows per loop from the tiling give loop + tail.
const ShapeCase kShapes[] = {
    {"h16_min", 26, 16, 26, 16, TmpKind::kMin},
    {"h16_max", 26, 16, 26, 16, TmpKind::kMax},
    {"h16_loop_tail", 26, 16, 26, 16, TmpKind::kRows},
    {"h40_loop_tail", 19, 40, 21, 48, TmpKind::kRows},
    {"h320_loop_tail", 10, 320, 20, 96, TmpKind::kRows},
    {"h1088_single_chunk", 3, 1088, 3, 1088, TmpKind::kSingleChunk},
    {"h4160_single_chunk", 1, 4160, 1, 4224, TmpKind::kSingleChunk},
};

GradCase MakeCase(const Param& p, Proto proto = Proto::kSharedTmpBuffer) {
  const auto& [soc, half, reuse, shape_index] = p;
  const ShapeCase& s = kShapes[shape_index];
  GradCase c = NewCase<GradCase>(soc, half, reuse, half ? s.rows_half : s.rows_float,
                                 half ? s.h_half : s.h_float, proto);
  c.epsilon_bits = EpsilonBits(half, 1e-5);
  // Same data for the same shape, whatever the tmp size.
  FillGradInputs(c, 1000 + uint64_t{c.rows} * 7919 + c.h + (half ? 3 : 0));
  SetGradTiling(c, s.tmp);
  return c;
}

// The outputs, the inputs the device overwrites and the scratch, against the replay.
void ExpectSameAsReplay(const GradResult& got, const GradResult& want) {
  ExpectSame("outputPdX", got.pd_x, want.pd_x);
  ExpectSame("resForGamma", got.res_for_gamma, want.res_for_gamma);
  ExpectSame("inputDy after", got.dy, want.dy);
  ExpectSame("inputX after", got.x, want.x);
  ExpectSameScratch(got.scratch, want.scratch);
}

class GradBitwiseTest : public ::testing::TestWithParam<Param> {};

TEST_P(GradBitwiseTest, OutputsInputsAndScratchEqualTheReplay) {
  const GradCase c = MakeCase(GetParam());
  GradResult got;
  const lngrad::Status st = RunGrad(c, &got);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ExpectSameAsReplay(got, ReplayGrad(c));
  ExpectSame("inputVariance after", got.variance, c.variance);
  ExpectSame("inputMean after", got.mean, c.mean);
  ExpectSame("inputGamma after", got.gamma, c.gamma);
}

INSTANTIATE_TEST_SUITE_P(AllProducts, GradBitwiseTest, AllParams(kShapes), ParamNames(kShapes));

// The tiling exercises what the names promise (so the cases above cover loop + tail).
TEST(GradBitwiseCoverageTest, TilingsHaveLoopsTailsAndDeepTrees) {
  const GradCase loop_tail = MakeCase({kA2, false, false, 2});
  EXPECT_GE(loop_tail.tiling.loopNum, 2u);
  EXPECT_NE(loop_tail.tiling.tailSize, 0u);
  const GradCase half_loop_tail = MakeCase({kInfer, true, false, 4});
  EXPECT_GE(half_loop_tail.tiling.loopNum, 1u);
  EXPECT_NE(half_loop_tail.tiling.tailSize, 0u);
  EXPECT_GT(half_loop_tail.h, 64u);
  const GradCase deep = MakeCase({kA2, false, false, 6});
  EXPECT_GT(deep.h, 4096u);
  // Half the min tmp size rounds rows up past the buffer (spec §2.8): the layout is larger.
  const GradCase half_min = MakeCase({kA2, true, false, 0});
  EXPECT_GT(half_min.scratch_bytes, half_min.tiling.stackBufferSize);
}

// tmp size min, max and a few rows per loop: the same bits.
class GradTmpSizeTest : public ::testing::TestWithParam<std::tuple<std::string, bool, bool>> {};

TEST_P(GradTmpSizeTest, MinMaxAndRowsGiveTheSameBits) {
  const auto& [soc, half, reuse] = GetParam();
  GradResult results[3];
  const int shapes[3] = {0, 1, 2};  // h16 with min, max, rows
  for (int i = 0; i < 3; ++i) {
    const GradCase c = MakeCase({soc, half, reuse, shapes[i]});
    ASSERT_TRUE(RunGrad(c, &results[i]).ok());
  }
  for (int i = 1; i < 3; ++i) {
    ExpectSame("outputPdX", results[i].pd_x, results[0].pd_x);
    ExpectSame("resForGamma", results[i].res_for_gamma, results[0].res_for_gamma);
  }
}

INSTANTIATE_TEST_SUITE_P(AllProducts, GradTmpSizeTest,
                         ::testing::Combine(::testing::ValuesIn(kProducts), ::testing::Bool(),
                                            ::testing::Bool()));

// The framework-scratch prototype (PopStackBuffer) and the sharedTmpBuffer prototype agree, down
// to the scratch contents (positions are relative to the buffer either way).
class GradPrototypeTest : public ::testing::TestWithParam<Param> {};

TEST_P(GradPrototypeTest, BothPrototypesAgree) {
  const GradCase shared = MakeCase(GetParam(), Proto::kSharedTmpBuffer);
  const GradCase stack = MakeCase(GetParam(), Proto::kStack);
  GradResult a, b;
  ASSERT_TRUE(RunGrad(shared, &a).ok());
  const lngrad::Status st = RunGrad(stack, &b);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ExpectSame("outputPdX", b.pd_x, a.pd_x);
  ExpectSame("resForGamma", b.res_for_gamma, a.res_for_gamma);
  ExpectSame("inputDy after", b.dy, a.dy);
  ExpectSame("inputX after", b.x, a.x);
  ExpectSameScratch(b.scratch, a.scratch);
}

INSTANTIATE_TEST_SUITE_P(AllProducts, GradPrototypeTest,
                         ::testing::Combine(::testing::ValuesIn(kProducts), ::testing::Bool(),
                                            ::testing::Bool(), ::testing::Values(0, 2, 4)),
                         ParamNames(kShapes));

// isReuseSource, spec §1.9: float overwrites inputX with x - mean and inputDy with the partial
// pd_x (checked against the replay above); half ignores the flag; without it no input changes.
TEST(GradReuseSourceTest, FloatOverwritesXWithXMinusMeanAndDyWithThePartialPdX) {
  for (const char* soc : {kA2, kInfer}) {
    SCOPED_TRACE(soc);
    const GradCase c = MakeCase({soc, false, true, 2});
    GradResult got;
    ASSERT_TRUE(RunGrad(c, &got).ok());
    const std::vector<double> x = Values(c.x), mean = Values(c.mean), x_after = Values(got.x);
    for (size_t k = 0; k < x.size(); ++k) {
      const float want = static_cast<float>(x[k]) - static_cast<float>(mean[k / c.h]);
      ASSERT_EQ(FloatBits(static_cast<float>(x_after[k])), FloatBits(want))
          << "inputX element " << k;
    }
    EXPECT_NE(FirstDifference(got.dy, c.dy), -1) << "inputDy was not overwritten";
    // The final dy holds (pd_var*2/N)*x2 + pd_mean/N, i.e. pd_x minus x1*rstd: adding that back
    // gives pd_x within rounding (the device's last step is exactly dy_after + x3).
    const std::vector<double> dy_after = Values(got.dy), pdx = Values(got.pd_x);
    const std::vector<double> dy = Values(c.dy), gamma = Values(c.gamma), var = Values(c.variance);
    for (size_t k = 0; k < dy.size(); ++k) {
      const float v = static_cast<float>(var[k / c.h]) + 1e-5f;  // the case's epsilon
      const float rstd = 1.0f / std::sqrt(v);
      const float x3 = (static_cast<float>(dy[k]) * static_cast<float>(gamma[k % c.h])) * rstd;
      ASSERT_EQ(FloatBits(static_cast<float>(dy_after[k]) + x3),
                FloatBits(static_cast<float>(pdx[k])))
          << "element " << k;
    }
  }
}

TEST(GradReuseSourceTest, FloatWithoutReuseAndHalfLeaveTheInputs) {
  for (const std::string& soc : kProducts) {
    for (bool half : {false, true}) {
      for (bool reuse : {false, true}) {
        if (!half && reuse) continue;
        SCOPED_TRACE(soc + (half ? " half" : " float") + (reuse ? " reuse" : ""));
        const GradCase c = MakeCase({soc, half, reuse, 4});
        GradResult got;
        ASSERT_TRUE(RunGrad(c, &got).ok());
        ExpectSame("inputDy", got.dy, c.dy);
        ExpectSame("inputX", got.x, c.x);
      }
    }
  }
}

TEST(GradReuseSourceTest, HalfIgnoresTheFlag) {
  for (const std::string& soc : kProducts) {
    SCOPED_TRACE(soc);
    GradResult plain, reuse;
    ASSERT_TRUE(RunGrad(MakeCase({soc, true, false, 2}), &plain).ok());
    ASSERT_TRUE(RunGrad(MakeCase({soc, true, true, 2}), &reuse).ok());
    ExpectSame("outputPdX", reuse.pd_x, plain.pd_x);
    ExpectSame("resForGamma", reuse.res_for_gamma, plain.res_for_gamma);
  }
}

// shapeInfo.dataFormat other than ND. Checked mode: "LayerNormGrad.data_format" on every arch
// (the CPU-debug check). Unchecked, as on the device: 2201/2002 skip the computation (the
// non-ND branch holds only an assert), 3510 only asserts ND and computes the ND result.
class UncheckedScope {
 public:
  UncheckedScope() : previous_(lngrad::aicore::CheckedMode()) {
    lngrad::aicore::SetCheckedMode(false);
  }
  ~UncheckedScope() { lngrad::aicore::SetCheckedMode(previous_); }
  UncheckedScope(const UncheckedScope&) = delete;
  UncheckedScope& operator=(const UncheckedScope&) = delete;

 private:
  bool previous_;
};

TEST(GradDataFormatTest, CheckedModeRefusesNonNdOnEveryArch) {
  for (const std::string& soc : kProducts) {
    SCOPED_TRACE(soc);
    GradCase c = MakeCase({soc, false, false, 2});
    c.nd_format = false;
    GradResult got;
    const lngrad::Status st = RunGrad(c, &got);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("LayerNormGrad.data_format"), std::string::npos) << st.message();
  }
}

TEST(GradDataFormatTest, UncheckedNonNdSkipsOnArch2201And2002AndComputesOnArch3510) {
  const UncheckedScope unchecked;
  for (const std::string& soc : kProducts) {
    for (bool half : {false, true}) {
      for (bool reuse : {false, true}) {
        SCOPED_TRACE(soc + (half ? " half" : " float") + (reuse ? " reuse" : ""));
        GradCase c = MakeCase({soc, half, reuse, 2});
        GradResult nd;
        ASSERT_TRUE(RunGrad(c, &nd).ok());
        c.nd_format = false;
        GradResult got;
        const lngrad::Status st = RunGrad(c, &got);
        ASSERT_TRUE(st.ok()) << st.ToString();
        ExpectSameAsReplay(got, ReplayGrad(c));
        if (IsArch3510(soc)) {
          ExpectSame("outputPdX vs ND", got.pd_x, nd.pd_x);
          ExpectSame("resForGamma vs ND", got.res_for_gamma, nd.res_for_gamma);
          ExpectSame("inputDy vs ND", got.dy, nd.dy);
        } else {
          // Nothing written: the outputs keep the UB's zeros, the inputs and scratch stay.
          const Tensor zeros = MakeTensor(half, std::vector<double>(size_t{c.rows} * c.h, 0.0));
          ExpectSame("outputPdX untouched", got.pd_x, zeros);
          ExpectSame("resForGamma untouched", got.res_for_gamma, zeros);
          ExpectSame("inputDy untouched", got.dy, c.dy);
          ExpectSame("inputX untouched", got.x, c.x);
          ExpectSameScratch(got.scratch, std::vector<float>(got.scratch.size(), 0.0f));
        }
      }
    }
  }
}

TEST(GradReuseSourceTest, Arch3510FloatOverwritesOnlyTheFirstRow) {
  const GradCase c = MakeCase({k950, false, true, 4});
  GradResult got;
  ASSERT_TRUE(RunGrad(c, &got).ok());
  const std::vector<double> x = Values(c.x), mean = Values(c.mean), x_after = Values(got.x);
  const std::vector<double> dy = Values(c.dy), dy_after = Values(got.dy);
  for (size_t k = c.h; k < x.size(); ++k) {
    ASSERT_EQ(x_after[k], x[k]) << "inputX element " << k;
    ASSERT_EQ(dy_after[k], dy[k]) << "inputDy element " << k;
  }
  // The first row ends holding the last row's x - mean (every row is written there in turn).
  const size_t last = c.rows - 1;
  for (size_t col = 0; col < c.h; ++col) {
    const float want = static_cast<float>(x[last * c.h + col]) - static_cast<float>(mean[last]);
    ASSERT_EQ(FloatBits(static_cast<float>(x_after[col])), FloatBits(want)) << "column " << col;
  }
}

}  // namespace
}  // namespace faithful
