// Tests of the independent replay: its own binary16 conversions, the reduction tree, the
// documentation examples (LayerNormGrad within the official sample rule, LayerNormGradBeta
// exactly), and the memory effects the spec describes. Tilings are written out by hand from
// the spec's worked examples (§2.7, §3.6); nothing here uses src/.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "doc_example.h"  // the data/ reader shared by the tests (standard library only)
#include "lngrad/half.h"  // independent oracle for the replay's own conversions only
#include "replay.h"

namespace lngrad_replay {
namespace {

// ---- data files ----
struct DocExample {
  std::map<std::string, std::vector<float>> tensors;
  float epsilon = 0;
};

DocExample ReadExample(const std::string& name) {
  DocExample ex;
  bool opened = false;
  ex.tensors = lngrad::test::ReadDocExample<float>(name, &opened);
  EXPECT_TRUE(opened) << name;
  if (const auto eps = ex.tensors.find("epsilon"); eps != ex.tensors.end()) {
    ex.epsilon = eps->second.at(0);
    ex.tensors.erase(eps);
  }
  return ex;
}

// The official sample's rule (spec §5.5): wrong iff abs err > 1e-4 AND rel err > 1e-4.
int CountWrong(const std::vector<float>& got, const std::vector<float>& want) {
  EXPECT_EQ(got.size(), want.size());
  int wrong = 0;
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    const double abs_err = std::fabs(static_cast<double>(got[i]) - want[i]);
    const double rel_err = abs_err / std::fabs(static_cast<double>(want[i]));
    if (abs_err > 1e-4 && rel_err > 1e-4) {
      ++wrong;
      ADD_FAILURE() << "element " << i << ": got " << got[i] << " want " << want[i];
    }
  }
  return wrong;
}

// ---- hand-written tilings (spec §2.1 / §2.7) ----
GradTiling FloatGradTiling(uint32_t b, uint32_t s, uint32_t h, uint32_t one, uint32_t noh,
                           bool reuse) {
  GradTiling t{};
  const uint32_t bsh = b * s * h;
  t.stackBufferSize = (reuse ? 4 : 6) * one * 4;
  t.bLength = b;
  t.sLength = s;
  t.hLength = h;
  t.originalHLength = h;
  t.oneCalSize = one;
  t.nohCalSize = noh;
  t.loopNum = bsh / one;
  t.tailSize = bsh % one;
  t.nohTailSize = t.tailSize / h;
  t.tmpTensorBSHPos = 0;
  t.pdVarTensorPos = one;
  t.pdMeanTensorPos = 2 * one;
  t.x1TensorPos = reuse ? 0 : 3 * one;
  t.x2TensorPos = reuse ? 0 : 4 * one;
  t.x3TensorPos = reuse ? 3 * one : 5 * one;
  t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = t.x1TensorSize = t.x2TensorSize =
      one;
  t.x3TensorSize = t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = one;
  t.lastDimValueBack = Bits(1.0f / static_cast<float>(h));
  t.lastDimValueBackMulTwo = Bits(2.0f / static_cast<float>(h));
  return t;
}

// E2 of spec §2.7: [1,8,8,8] float, stack 1536: one 64, 8 rows, 1 loop; 1/8 = 0x3E000000.
GradTiling E2(bool reuse) {
  GradTiling t = FloatGradTiling(1, 8, 8, 64, 8, reuse);
  EXPECT_EQ(t.lastDimValueBack, 0x3E000000u);
  EXPECT_EQ(t.lastDimValueBackMulTwo, 0x3E800000u);
  return t;
}

// [1,8,8,8] half with the minimum buffer 9*64*2 = 1152 B: 1152/4/9 = 32 floats -> 4 rows ->
// rounded up to 16 rows -> oneCalSize 128 > B*S*H, so loopNum 0 and the whole input is a tail.
GradTiling HalfDocTiling() {
  GradTiling t{};
  t.stackBufferSize = 1152;
  t.bLength = 1;
  t.sLength = 8;
  t.hLength = 8;
  t.originalHLength = 8;
  t.oneCalSize = 128;
  t.nohCalSize = 16;
  t.loopNum = 0;
  t.tailSize = 64;
  t.nohTailSize = 8;
  t.tmpTensorBSHPos = 0;
  t.pdVarTensorPos = 128;
  t.pdMeanTensorPos = 256;
  t.x1TensorPos = 384;
  t.x2TensorPos = 512;
  t.x3TensorPos = 640;
  t.tmpTensorPos = 768;
  t.tmpTensor1Pos = 896;
  t.tmpTensor2Pos = 1024;
  t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = t.x1TensorSize = t.x2TensorSize =
      128;
  t.x3TensorSize = t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = 128;
  t.lastDimValueBack = 0x3E000000u;
  t.lastDimValueBackMulTwo = 0x3E800000u;
  return t;
}

struct GradInputs {
  std::vector<float> dy, x, var, mean, gamma;
  float eps;
};

GradInputs DocInputs(int copies = 1) {
  const DocExample ex = ReadExample("layernormgrad_doc_example.txt");
  GradInputs in;
  for (int c = 0; c < copies; ++c) {
    for (const char* n : {"inputDy", "inputX", "inputMean", "inputVariance"}) {
      const std::vector<float>& v = ex.tensors.at(n);
      std::vector<float>& dst = std::string(n) == "inputDy"     ? in.dy
                                : std::string(n) == "inputX"    ? in.x
                                : std::string(n) == "inputMean" ? in.mean
                                                                : in.var;
      dst.insert(dst.end(), v.begin(), v.end());
    }
  }
  in.gamma = ex.tensors.at("inputGamma");
  in.eps = ex.epsilon;
  return in;
}

struct GradOutputs {
  std::vector<float> pdX, res, scratch, dy, x;
};

GradOutputs RunFloat(const GradTiling& t, GradInputs in, bool reuse, bool arch3510 = false,
                     size_t scratch = 4096) {
  GradOutputs o;
  const size_t n = in.dy.size();
  o.pdX.assign(n, FromBits(0x7FC00001u));
  o.res.assign(n, FromBits(0x7FC00001u));
  o.scratch.assign(scratch, FromBits(0x7FC00002u));
  const bool ok =
      arch3510 ? ReplayLayerNormGrad3510<float>(t, in.dy.data(), in.x.data(), in.var.data(),
                                                in.mean.data(), in.gamma.data(), in.eps,
                                                o.pdX.data(), o.res.data(), o.scratch.data(), reuse)
               : ReplayLayerNormGrad<float>(t, in.dy.data(), in.x.data(), in.var.data(),
                                            in.mean.data(), in.gamma.data(), in.eps, o.pdX.data(),
                                            o.res.data(), o.scratch.data(), reuse);
  EXPECT_TRUE(ok);
  o.dy = in.dy;
  o.x = in.x;
  return o;
}

bool SameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * 4) == 0;
}

std::vector<Half> ToHalf(const std::vector<float>& v) {
  std::vector<Half> h;
  for (float f : v) h.push_back(FloatToHalf(f));
  return h;
}

// ---- conversions and the tree ----

TEST(ReplayHalfTest, HalfToFloatMatchesOracleForEveryPattern) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const float mine = HalfToFloat(Half{static_cast<uint16_t>(b)});
    const float oracle = lngrad::HalfBitsToFloat(static_cast<uint16_t>(b));
    ASSERT_EQ(Bits(mine), Bits(oracle)) << std::hex << b;
    if (!std::isnan(mine)) {
      ASSERT_EQ(FloatToHalf(mine).bits, b) << std::hex << b;  // round trip
    }
  }
}

TEST(ReplayHalfTest, FloatToHalfMatchesOracle) {
  // Every float whose low 7 bits are a fixed pattern: 2^25 values cover every exponent and
  // every rounding case (below, at and above the halfway point).
  for (uint32_t hi = 0; hi < (1u << 25); ++hi) {
    const uint32_t u = (hi << 7) | ((hi * 37u) & 0x7Fu);
    const float f = FromBits(u);
    ASSERT_EQ(FloatToHalf(f).bits, lngrad::FloatToHalfBits(f)) << std::hex << u;
  }
  // Exact ties.
  EXPECT_EQ(FloatToHalf(1.0f + 1.0f / 2048).bits, 0x3C00u);     // tie -> even (down)
  EXPECT_EQ(FloatToHalf(1.0f + 3.0f / 2048).bits, 0x3C02u);     // tie -> even (up)
  EXPECT_EQ(FloatToHalf(65520.0f).bits, 0x7C00u);               // rounds to inf
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)).bits, 0x0000u);  // tie -> 0
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25)).bits, 0x0001u);
}

// replay.h's bfloat16 conversions: the widening puts the 16 bits on top (every pattern round
// trips); the rounding picks, by value in double, the nearer of the two bfloat16 neighbours that
// bound |f| (the step past 0x7F7F being 2^128, i.e. infinity), a tie to the even pattern.
TEST(ReplayBf16Test, FloatToBf16IsNearestEvenByValue) {
  for (uint32_t b = 0; b < 0x10000u; ++b) {
    const float w = Bf16ToFloat(Bf16{static_cast<uint16_t>(b)});
    ASSERT_EQ(Bits(w), b << 16) << std::hex << b;
    if (!std::isnan(w)) {
      ASSERT_EQ(FloatToBf16(w).bits, b) << std::hex << b;
    }
  }
  const auto magnitude = [](uint32_t m) {  // the value of a bfloat16 magnitude pattern
    return m >= 0x7F80u ? std::ldexp(1.0, 128) : static_cast<double>(FromBits(m << 16));
  };
  for (uint32_t hi = 0; hi < (1u << 25); ++hi) {
    const uint32_t u = (hi << 7) | ((hi * 37u) & 0x7Fu);
    const float f = FromBits(u);
    const uint16_t got = FloatToBf16(f).bits;
    if (std::isnan(f)) {
      ASSERT_EQ(got & 0xFFC0u, ((u >> 16) & 0xFFC0u) | 0x7FC0u) << std::hex << u;  // quiet
      continue;
    }
    const uint32_t lo = (u & 0x7FFFFFFFu) >> 16;
    const double a = std::fabs(static_cast<double>(f));
    const double dlo = a - magnitude(lo), dhi = magnitude(lo + 1) - a;
    const uint32_t mag = dlo < dhi ? lo : dhi < dlo ? lo + 1 : (lo % 2 == 0 ? lo : lo + 1);
    const uint16_t want = static_cast<uint16_t>(((u >> 16) & 0x8000u) | std::min(mag, 0x7F80u));
    ASSERT_EQ(got, want) << std::hex << u;
  }
}

TEST(ReplayHalfTest, SaturatingConversion) {
  EXPECT_EQ(FloatToHalfSaturate(70000.0f).bits, 0x7BFFu);
  EXPECT_EQ(FloatToHalfSaturate(-70000.0f).bits, 0xFBFFu);
  EXPECT_EQ(FloatToHalfSaturate(INFINITY).bits, 0x7BFFu);
  EXPECT_EQ(FloatToHalfSaturate(65504.0f).bits, 0x7BFFu);
  EXPECT_EQ(FloatToHalfSaturate(1.0f).bits, 0x3C00u);
  // The Cast documentation: float-to-float in saturation mode gives 0 for NaN.
  EXPECT_EQ(FloatToHalfSaturate(NAN).bits, 0x0000u);
  EXPECT_EQ(FloatToHalfSaturate(-NAN).bits, 0x0000u);
  EXPECT_EQ(FloatToHalfSaturate(-INFINITY).bits, 0xFBFFu);
}

TEST(ReplayTreeTest, AdjacentPairsWithMaskedLanesAsZero) {
  float lanes[64] = {};
  // Adjacent pairs: (2^24 + 0) + (1 + 1) = 2^24 + 2 exactly. A strided or sequential order
  // would give 2^24 (the +1s are lost one at a time).
  lanes[0] = 16777216.0f;
  lanes[1] = 0.0f;
  lanes[2] = 1.0f;
  lanes[3] = 1.0f;
  EXPECT_EQ(TreeSum64(lanes, 64), 16777218.0f);
  EXPECT_EQ(TreeSum64(lanes, 4), 16777218.0f);
  // Lanes beyond n do not count.
  for (int i = 4; i < 64; ++i) lanes[i] = 1000.0f;
  EXPECT_EQ(TreeSum64(lanes, 4), 16777218.0f);
  // All -0: a full repeat keeps -0, a masked one adds +0 lanes and gives +0.
  float neg[64];
  for (float& f : neg) f = -0.0f;
  EXPECT_TRUE(std::signbit(TreeSum64(neg, 64)));
  EXPECT_FALSE(std::signbit(TreeSum64(neg, 63)));
}

// ---- LayerNormGrad, documentation example ----

TEST(ReplayLayerNormGradTest, DocExampleWithinOfficialRule) {
  const DocExample ex = ReadExample("layernormgrad_doc_example.txt");
  const GradOutputs o = RunFloat(E2(false), DocInputs(), false);
  EXPECT_EQ(CountWrong(o.pdX, ex.tensors.at("outputPdX")), 0);
  EXPECT_EQ(CountWrong(o.res, ex.tensors.at("resForGamma")), 0);
  // Spec §1.14 quotes what a §1.7/§1.8 emulation with IEEE sqrt and 1/x gives for the first and
  // last element (8 significant digits): within half a float ulp (2^-23 at 2..4) of those.
  EXPECT_NEAR(o.pdX.front(), 3.0548177f, 1.2e-7);
  EXPECT_NEAR(o.pdX.back(), 3.0568695f, 1.2e-7);
}

TEST(ReplayLayerNormGradTest, FloatScratchHoldsTheDeviceIntermediates) {
  const GradInputs in = DocInputs();
  const GradTiling t = E2(false);
  const GradOutputs o = RunFloat(t, in, false);
  const float* x1 = o.scratch.data() + t.x1TensorPos;
  const float* x2 = o.scratch.data() + t.x2TensorPos;
  const float* x3 = o.scratch.data() + t.x3TensorPos;
  const float* bsh = o.scratch.data() + t.tmpTensorBSHPos;
  const float* pdMean = o.scratch.data() + t.pdMeanTensorPos;
  for (uint32_t k = 0; k < 64; ++k) {
    const uint32_t r = k / 8;
    EXPECT_EQ(Bits(x2[k]), Bits(in.x[k] - in.mean[r])) << k;  // step 2
    EXPECT_EQ(Bits(o.pdX[k]), Bits(x1[k] + x3[k])) << k;      // last op of step 5
    EXPECT_EQ(Bits(bsh[k]), Bits(pdMean[r])) << k;            // last broadcast: pd_mean/N
  }
  // Inputs untouched without reuse; scratch past the layout end (6*64 floats) untouched.
  EXPECT_TRUE(SameBits(o.dy, in.dy));
  EXPECT_TRUE(SameBits(o.x, in.x));
  EXPECT_EQ(Bits(o.scratch[6 * 64]), 0x7FC00002u);
}

TEST(ReplayLayerNormGradTest, FloatReuseClobbersDyAndX) {
  const GradInputs in = DocInputs();
  const GradOutputs plain = RunFloat(E2(false), in, false);
  const GradTiling t = E2(true);
  const GradOutputs o = RunFloat(t, in, true);
  EXPECT_TRUE(SameBits(o.pdX, plain.pdX));
  EXPECT_TRUE(SameBits(o.res, plain.res));
  const float* x3 = o.scratch.data() + t.x3TensorPos;
  for (uint32_t k = 0; k < 64; ++k) {
    EXPECT_EQ(Bits(o.x[k]), Bits(in.x[k] - in.mean[k / 8])) << k;  // inputX := x - mean
    EXPECT_EQ(Bits(o.pdX[k]), Bits(o.dy[k] + x3[k])) << k;         // inputDy := pd_x - x3 part
  }
  EXPECT_FALSE(SameBits(o.dy, in.dy));
  EXPECT_EQ(Bits(o.scratch[4 * 64]), 0x7FC00002u);  // 4 buffers only
}

TEST(ReplayLayerNormGradTest, ChunksAndTailGiveTheSameRows) {
  const GradOutputs one = RunFloat(E2(false), DocInputs(), false);
  // [2,8,8,8]: two loops of 8 rows.
  const GradOutputs two = RunFloat(FloatGradTiling(2, 8, 8, 64, 8, false), DocInputs(2), false);
  // [3,8,8,8] with 16 rows per loop: one loop and a tail of 8 rows.
  const GradTiling t3 = FloatGradTiling(3, 8, 8, 128, 16, false);
  ASSERT_EQ(t3.loopNum, 1u);
  ASSERT_EQ(t3.tailSize, 64u);
  const GradOutputs three = RunFloat(t3, DocInputs(3), false);
  for (int c = 0; c < 3; ++c) {
    for (int k = 0; k < 64; ++k) {
      if (c < 2) {
        EXPECT_EQ(Bits(two.pdX[c * 64 + k]), Bits(one.pdX[k]));
      }
      EXPECT_EQ(Bits(three.pdX[c * 64 + k]), Bits(one.pdX[k]));
      EXPECT_EQ(Bits(three.res[c * 64 + k]), Bits(one.res[k]));
    }
  }
}

TEST(ReplayLayerNormGradTest, HalfPathIsTheFloatPathRounded) {
  // Doc inputs are exact in binary16; the half path computes in float with the same
  // operations, so its outputs are the float path's rounded to half, given the same epsilon
  // (the half epsilon widened: 1e-4 -> 1.0001659393310547e-4, spec §1.10).
  GradInputs in = DocInputs();
  const Half eps = FloatToHalf(in.eps);
  EXPECT_EQ(HalfToFloat(eps), 1.0001659393310547e-4f);
  std::vector<Half> dy = ToHalf(in.dy), x = ToHalf(in.x), var = ToHalf(in.var),
                    mean = ToHalf(in.mean), gamma = ToHalf(in.gamma);
  std::vector<Half> pdX(64, Half{0x7E01}), res(64, Half{0x7E01});
  std::vector<float> scratch(1200, FromBits(0x7FC00002u));
  const GradTiling t = HalfDocTiling();
  ASSERT_TRUE(ReplayLayerNormGrad<Half>(t, dy.data(), x.data(), var.data(), mean.data(),
                                        gamma.data(), eps, pdX.data(), res.data(), scratch.data(),
                                        true));
  in.eps = HalfToFloat(eps);
  const GradOutputs f = RunFloat(E2(false), in, false);
  for (int k = 0; k < 64; ++k) {
    EXPECT_EQ(pdX[k].bits, FloatToHalf(f.pdX[k]).bits) << k;
    EXPECT_EQ(res[k].bits, FloatToHalf(f.res[k]).bits) << k;
    EXPECT_EQ(Bits(scratch[t.tmpTensorPos + k]), Bits(f.pdX[k])) << k;   // float pd_x
    EXPECT_EQ(Bits(scratch[t.tmpTensor2Pos + k]), Bits(f.res[k])) << k;  // float resForGamma
  }
  // isReuseSource has no effect on half: inputs unchanged.
  EXPECT_EQ(dy[63].bits, FloatToHalf(63.0f).bits);
  EXPECT_EQ(x[10].bits, FloatToHalf(10.0f).bits);
  // The layout (9 buffers of 128 floats) is touched up to float 1024 + 64.
  EXPECT_EQ(Bits(scratch[1024 + 64]), 0x7FC00002u);
}

TEST(ReplayLayerNormGradTest, Arch3510MatchesBlockPathForShortRows) {
  // H = 8 <= 64: one chunk per row, so the lane-wise accumulation is a single +0 + v and the
  // in-register tree is the same 64-lane tree: results equal the 2201 path bit for bit.
  const GradInputs in = DocInputs();
  const GradOutputs block = RunFloat(E2(false), in, false);
  const GradOutputs reg = RunFloat(E2(false), in, false, true);
  EXPECT_TRUE(SameBits(reg.pdX, block.pdX));
  EXPECT_TRUE(SameBits(reg.res, block.res));
  // Scratch: x1 row (x1*rstd after loop 2) at 0, x2 row at ceil8(H) = 8, last row's values.
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(Bits(reg.scratch[8 + c]), Bits(in.x[56 + c] - in.mean[7])) << c;
    EXPECT_EQ(Bits(reg.scratch[c]), Bits(block.scratch[E2(false).x3TensorPos + 56 + c])) << c;
  }
  EXPECT_EQ(Bits(reg.scratch[16]), 0x7FC00002u);
  EXPECT_TRUE(SameBits(reg.dy, in.dy));
}

TEST(ReplayLayerNormGradTest, Arch3510ReuseWritesTheFirstRow) {
  const GradInputs in = DocInputs();
  const GradOutputs plain = RunFloat(E2(false), in, false, true);
  const GradOutputs o = RunFloat(E2(true), in, true, true);
  EXPECT_TRUE(SameBits(o.pdX, plain.pdX));
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(Bits(o.x[c]), Bits(plain.scratch[8 + c])) << c;  // last row's x - mean
    EXPECT_EQ(Bits(o.dy[c]), Bits(plain.scratch[c])) << c;     // last row's x1 * rstd
  }
  for (int k = 8; k < 64; ++k) {
    EXPECT_EQ(Bits(o.dy[k]), Bits(in.dy[k])) << k;
    EXPECT_EQ(Bits(o.x[k]), Bits(in.x[k])) << k;
  }
  EXPECT_EQ(Bits(o.scratch[0]), 0x7FC00002u);  // no scratch used
}

// ---- long rows: the two reduction orders against a float64 reference ----

TEST(ReplayLayerNormGradTest, LongRowsBothArchsMatchFloat64Reference) {
  const uint32_t b = 2, s = 4, h = 200;
  GradInputs in;
  uint32_t state = 12345;
  const auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>((state >> 8) % 2001) / 1000.0f - 1.0f;  // [-1, 1]
  };
  for (uint32_t i = 0; i < b * s * h; ++i) {
    in.dy.push_back(next());
    in.x.push_back(next() * 3.0f);
  }
  for (uint32_t c = 0; c < h; ++c) in.gamma.push_back(next());
  for (uint32_t r = 0; r < b * s; ++r) {
    double m = 0;
    for (uint32_t c = 0; c < h; ++c) m += in.x[r * h + c];
    m /= h;
    double v = 0;
    for (uint32_t c = 0; c < h; ++c) v += (in.x[r * h + c] - m) * (in.x[r * h + c] - m);
    in.mean.push_back(static_cast<float>(m));
    in.var.push_back(static_cast<float>(v / h));
  }
  in.eps = 1e-5f;
  // 8 rows fit one block of rows: one = 8*200.
  const GradTiling t = FloatGradTiling(b, s, h, 8 * h, 8, false);
  const GradOutputs block = RunFloat(t, in, false, false, 6 * 8 * h);
  const GradOutputs reg = RunFloat(t, in, false, true, 6 * 8 * h);
  // float64 reference from spec §1.4.
  for (uint32_t r = 0; r < b * s; ++r) {
    const double v = static_cast<double>(in.var[r]) + in.eps;
    double pv = 0, pm1 = 0, s2 = 0;
    for (uint32_t c = 0; c < h; ++c) {
      const double x1 = static_cast<double>(in.dy[r * h + c]) * in.gamma[c];
      const double x2 = static_cast<double>(in.x[r * h + c]) - in.mean[r];
      pv += -0.5 * x1 * x2 * std::pow(v, -1.5);
      pm1 += -x1 / std::sqrt(v);
      s2 += -2.0 * x2;
    }
    const double pm = pm1 + pv * s2 / h;
    for (uint32_t c = 0; c < h; ++c) {
      const double x1 = static_cast<double>(in.dy[r * h + c]) * in.gamma[c];
      const double x2 = static_cast<double>(in.x[r * h + c]) - in.mean[r];
      const double want = x1 / std::sqrt(v) + pv * 2.0 / h * x2 + pm / h;
      // Tolerance: float32 evaluation of sums of 200 terms of size <= ~10 with values of
      // order 1: a few hundred ulp of the term scale, far below 1e-3; the official 1e-4
      // abs-and-rel rule is too tight for the cancellation in pd_mean on random data.
      EXPECT_NEAR(block.pdX[r * h + c], want, 1e-3) << r << "," << c;
      EXPECT_NEAR(reg.pdX[r * h + c], want, 1e-3) << r << "," << c;
    }
  }
}

// ---- LayerNormGradBeta ----

GradBetaTiling BetaTiling(uint32_t st, uint32_t one, uint32_t loopRound, uint32_t tail,
                          uint32_t tailPos, uint32_t bsTail, bool half) {
  GradBetaTiling t{};
  t.stackBufferSize = st;
  t.bLength = 1;
  t.sLength = 8;
  t.hLength = 8;
  t.originalHLength = 8;
  t.bshLength = 64;
  t.bsLength = 8;
  t.oneCalSize = one;
  t.numberOfTmpBuf = half ? 2 : 1;
  t.loopRound = loopRound;
  t.inputTailSize = tail;
  t.inputTailPos = tailPos;
  t.bsTailSize = bsTail;
  t.bshCurLength = one;
  t.bsCurLength = one / 8;
  if (half) {
    t.gammaTempTensorPos = 0;
    t.betaTempTensorPos = 8;
    t.inputDyTmpTensorPos = 16;
    t.resForGammaTmpTensorPos = 16 + one;
  }
  return t;
}

class ReplayBetaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const DocExample ex = ReadExample("layernormgradbeta_doc_example.txt");
    dy_ = ex.tensors.at("inputDy");
    res_ = ex.tensors.at("resForGamma");
    gamma_ = ex.tensors.at("outputPdGamma");
    beta_ = ex.tensors.at("outputPdBeta");
    ASSERT_EQ(dy_.size(), 64u);
    ASSERT_EQ(gamma_.size(), 8u);
  }
  std::vector<float> dy_, res_, gamma_, beta_;
};

TEST_F(ReplayBetaTest, FloatDocExampleExact) {
  // [1,8,8,8] float: min 64 B -> 16 floats = 2 rows per chunk, 4 rounds (spec §3.6 rule);
  // max 512 B -> clamped to 64 = 1 round; 96 B -> 24 floats = 3 rows, 2 rounds + 2-row tail.
  for (const GradBetaTiling& t :
       {BetaTiling(16, 16, 4, 0, 64, 0, false), BetaTiling(128, 64, 1, 0, 64, 0, false),
        BetaTiling(24, 24, 2, 16, 48, 2, false)}) {
    for (bool reuse : {false, true}) {
      std::vector<float> res = res_;
      std::vector<float> g(8, -1), b(8, -1), scratch(64, FromBits(0x7FC00002u));
      ASSERT_TRUE(ReplayLayerNormGradBeta<float>(t, res.data(), dy_.data(), g.data(), b.data(),
                                                 scratch.data(), reuse));
      EXPECT_EQ(g, gamma_) << "one " << t.oneCalSize;
      EXPECT_EQ(b, beta_) << "one " << t.oneCalSize;
      if (reuse) {
        // The product buffer is resForGamma's base for every chunk: element k holds the
        // product of the last chunk longer than k (at that chunk's offset + k); elements past
        // oneCalSize keep their input. One round: all 64 are products; 4 rounds of 16:
        // [0,16) from the last round (48..64); 2 rounds of 24 + a 16 tail at 48: [0,16) from
        // the tail, [16,24) from round 1 (40..48).
        std::vector<float> want = res_;
        if (t.oneCalSize == 64) {
          for (int k = 0; k < 64; ++k) want[k] = dy_[k] * res_[k];
        } else if (t.oneCalSize == 16) {
          for (int k = 0; k < 16; ++k) want[k] = dy_[48 + k] * res_[48 + k];
        } else {
          for (int k = 0; k < 16; ++k) want[k] = dy_[48 + k] * res_[48 + k];
          for (int k = 16; k < 24; ++k) want[k] = dy_[24 + k] * res_[24 + k];
        }
        EXPECT_EQ(res, want) << "one " << t.oneCalSize;
        EXPECT_EQ(Bits(scratch[0]), 0x7FC00002u);
      } else {
        EXPECT_EQ(res, res_);
        // Scratch holds the last chunk's dy*res (its first bshCur elements).
        const uint32_t last = t.inputTailSize ? t.inputTailPos : (t.loopRound - 1) * t.oneCalSize;
        const uint32_t len = t.inputTailSize ? t.inputTailSize : t.oneCalSize;
        for (uint32_t k = 0; k < len; ++k)
          EXPECT_EQ(scratch[k], dy_[last + k] * res_[last + k]) << k;
      }
    }
  }
}

TEST_F(ReplayBetaTest, HalfDocExampleExact) {
  // half: min 128 B -> 32 floats; (32 - 2*8)/2 = 8 = one row per chunk, 8 rounds; positions
  // 0 / 8 / 16 / 24. All values (and partial sums) are exact in binary16 and float.
  const GradBetaTiling t = BetaTiling(32, 8, 8, 0, 64, 0, true);
  std::vector<Half> dy = ToHalf(dy_), res = ToHalf(res_), g(8, Half{0}), b(8, Half{0});
  std::vector<float> scratch(64, FromBits(0x7FC00002u));
  ASSERT_TRUE(ReplayLayerNormGradBeta<Half>(t, res.data(), dy.data(), g.data(), b.data(),
                                            scratch.data(), false));
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(HalfToFloat(g[c]), gamma_[c]) << c;
    EXPECT_EQ(HalfToFloat(b[c]), beta_[c]) << c;
    EXPECT_EQ(scratch[c], gamma_[c]) << c;  // float accumulators stay in the scratch
    EXPECT_EQ(scratch[8 + c], beta_[c]) << c;
    EXPECT_EQ(scratch[16 + c], dy_[56 + c]) << c;  // last chunk's float dy
  }
  EXPECT_EQ(Bits(scratch[32]), 0x7FC00002u);
}

TEST_F(ReplayBetaTest, Arch3510DocExampleExact) {
  const GradBetaTiling t = BetaTiling(16, 16, 4, 0, 64, 0, false);
  std::vector<float> g(8, -1), b(8, -1);
  ASSERT_TRUE(ReplayLayerNormGradBeta3510<float>(t, res_.data(), dy_.data(), g.data(), b.data()));
  EXPECT_EQ(g, gamma_);
  EXPECT_EQ(b, beta_);
  std::vector<Half> dy = ToHalf(dy_), res = ToHalf(res_), gh(8), bh(8);
  ASSERT_TRUE(ReplayLayerNormGradBeta3510<Half>(t, res.data(), dy.data(), gh.data(), bh.data()));
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(HalfToFloat(gh[c]), gamma_[c]);
    EXPECT_EQ(HalfToFloat(bh[c]), beta_[c]);
  }
}

TEST_F(ReplayBetaTest, Arch3510HalfSaturatesAndCommonPathOverflows) {
  // 8 rows of 60000*1: pd_beta = 480000, beyond binary16: 3510 stores +65504, the common path
  // (CAST_NONE, round to nearest) +inf.
  std::vector<Half> dy(64, FloatToHalf(60000.0f)), res(64, FloatToHalf(1.0f)), g(8), b(8);
  const GradBetaTiling t = BetaTiling(32, 8, 8, 0, 64, 0, true);
  ASSERT_TRUE(ReplayLayerNormGradBeta3510<Half>(t, res.data(), dy.data(), g.data(), b.data()));
  EXPECT_EQ(b[0].bits, 0x7BFFu);
  std::vector<float> scratch(64);
  ASSERT_TRUE(ReplayLayerNormGradBeta<Half>(t, res.data(), dy.data(), g.data(), b.data(),
                                            scratch.data(), false));
  EXPECT_EQ(b[0].bits, 0x7C00u);
}

TEST_F(ReplayBetaTest, Arch3510HalfStoresNanAsZero) {
  // Column 0: a NaN dy makes both sums NaN -> +0; column 1: +inf -> +65504 (gamma: inf * 1),
  // column 2: inf and -inf -> NaN -> +0. The common path keeps NaN and inf.
  std::vector<Half> dy(64, FloatToHalf(1.0f)), res(64, FloatToHalf(1.0f)), g(8), b(8);
  dy[0] = Half{0x7E00};
  dy[1] = Half{0x7C00};
  dy[2] = Half{0x7C00};
  dy[8 + 2] = Half{0xFC00};
  const GradBetaTiling t = BetaTiling(32, 8, 8, 0, 64, 0, true);
  ASSERT_TRUE(ReplayLayerNormGradBeta3510<Half>(t, res.data(), dy.data(), g.data(), b.data()));
  EXPECT_EQ(g[0].bits, 0x0000u);
  EXPECT_EQ(b[0].bits, 0x0000u);
  EXPECT_EQ(g[1].bits, 0x7BFFu);
  EXPECT_EQ(b[1].bits, 0x7BFFu);
  EXPECT_EQ(g[2].bits, 0x0000u);
  EXPECT_EQ(b[2].bits, 0x0000u);
  EXPECT_EQ(HalfToFloat(b[3]), 8.0f);
  std::vector<float> scratch(64);
  ASSERT_TRUE(ReplayLayerNormGradBeta<Half>(t, res.data(), dy.data(), g.data(), b.data(),
                                            scratch.data(), false));
  EXPECT_TRUE(std::isnan(HalfToFloat(b[0])));
  EXPECT_EQ(b[1].bits, 0x7C00u);
}

TEST(ReplayLayerNormGradFormatTest, NonNdIsANoOpOnlyOffArch3510) {
  // [1,8,8] float, one chunk (E2). A non-ND format: the 2201/2002 kernel computes nothing; the
  // 3510 kernel ignores it and gives the ND result.
  const GradTiling t = E2(false);
  GradInputs in = DocInputs();
  for (bool arch3510 : {false, true}) {
    const GradOutputs nd = RunFloat(t, in, false, arch3510);
    std::vector<float> dy = in.dy, x = in.x, pdX(64, 7.0f), res(64, 7.0f), scratch(512, 3.0f);
    const auto replay = arch3510 ? &ReplayLayerNormGrad3510<float> : &ReplayLayerNormGrad<float>;
    ASSERT_TRUE(replay(t, dy.data(), x.data(), in.var.data(), in.mean.data(), in.gamma.data(),
                       in.eps, pdX.data(), res.data(), scratch.data(), false, false));
    if (arch3510) {
      EXPECT_EQ(pdX, nd.pdX);
      EXPECT_EQ(res, nd.res);
    } else {
      EXPECT_EQ(pdX, std::vector<float>(64, 7.0f));
      EXPECT_EQ(res, std::vector<float>(64, 7.0f));
      EXPECT_EQ(scratch, std::vector<float>(512, 3.0f));
    }
    EXPECT_EQ(dy, in.dy);
    EXPECT_EQ(x, in.x);
  }
}

TEST(ReplayInvalidTest, RefusesZeroSizes) {
  GradTiling t{};
  float f = 0;
  EXPECT_FALSE(ReplayLayerNormGrad<float>(t, &f, &f, &f, &f, &f, 0.0f, &f, &f, &f, false));
  EXPECT_FALSE(ReplayLayerNormGrad3510<float>(t, &f, &f, &f, &f, &f, 0.0f, &f, &f, &f, false));
  GradBetaTiling bt{};
  EXPECT_FALSE(ReplayLayerNormGradBeta<float>(bt, &f, &f, &f, &f, &f, false));
  EXPECT_FALSE(ReplayLayerNormGradBeta3510<float>(bt, &f, &f, &f, &f));
}

}  // namespace
}  // namespace lngrad_replay
