// Tests of the operators of src/ops: the LayerNormGrad operator gives the device
// algorithm's bits (checked against the independent replay run on the whole problem: rows are
// independent, so blocks and tiles must not change a bit), on every supported arch, float and
// half, with and without isReuseSource, tmp min/max/bytes, both prototypes; the
// LayerNormGradBeta operator equals the API with one block and stays within the float64 sum
// bound with many; the forward operator does not depend on blocks and tiles; bad arguments are
// refused without touching the outputs; outputs written in place and staged (and outputs that
// alias inputs) give the same bits in checked and unchecked mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "ops/op_host.h"
#include "ops/sample_data.h"
#include "ops/layernorm_op.h"
#include "ops/layernorm_grad_op.h"
#include "ops/layernorm_grad_beta_op.h"
#include "lngrad/product.h"
#include "lngrad/half.h"
#include "lngrad_aicore/check.h"
#include "oracle.h"
#include "replay.h"
#include "tiling/tiling_api.h"

#include "../aicore/checked_mode_scope.h"

namespace {

namespace ex = lngrad::ops;
namespace smp = lngrad::ops::sample;

constexpr double kU = 0x1.0p-24;

class SocScope {
 public:
  explicit SocScope(const std::string& soc) : previous_(lngrad::CurrentProduct().soc) {
    EXPECT_TRUE(lngrad::SetCurrentSoc(soc).ok());
  }
  ~SocScope() { (void)lngrad::SetCurrentSoc(previous_); }

 private:
  std::string previous_;
};

struct GradData {
  ex::OpDType dtype;
  uint32_t rows, h;
  smp::HostTensor dy, x, mean, variance, gamma;
};

GradData MakeGradData(ex::OpDType dtype, uint32_t rows, uint32_t h, uint64_t seed) {
  GradData d{dtype, rows, h, {}, {}, {}, {}, {}};
  d.dy = smp::MakeTensor(dtype, smp::Uniform(size_t{rows} * h, -10, 10, seed));
  d.x = smp::MakeTensor(dtype, smp::Uniform(size_t{rows} * h, -10, 10, seed + 1));
  d.gamma = smp::MakeTensor(dtype, smp::Uniform(h, -2, 2, seed + 2));
  std::vector<double> mean, var;
  smp::RowStatistics(rows, h, d.x.values, &mean, &var);
  d.mean = smp::MakeTensor(dtype, mean);
  d.variance = smp::MakeTensor(dtype, var);
  return d;
}

// The replay on the whole problem with the API's tiling for [1, rows, H, H] (min tmp size).
void ReplayGrad(const GradData& d, const std::string& soc, bool reuse, float epsilon,
                std::vector<uint8_t>* pd_x, std::vector<uint8_t>* res) {
  const bool half = d.dtype == ex::OpDType::kFloat16;
  AscendC::tiling::LayerNormGradTiling t;
  bool regbase = false;
  {
    SocScope scope(soc);
    regbase = lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch);
    const ge::Shape shape({1, d.rows, d.h, d.h});
    uint32_t max_v = 0, min_v = 0;
    ASSERT_TRUE(
        lngrad::tiling::LayerNormGradMaxMinTmpSize(shape, half ? 2 : 4, reuse, max_v, min_v).ok());
    // At least one float row per buffer (the half minimum of a single row is below that).
    const uint32_t bytes = std::max<uint32_t>(min_v, 9 * d.h * 4);
    ASSERT_TRUE(
        lngrad::tiling::LayerNormGradNDTilingInfo(shape, bytes, half ? 2 : 4, reuse, t).ok());
  }
  lngrad_replay::GradTiling rt;
  std::memcpy(&rt, &t, sizeof(rt));
  std::vector<float> scratch(size_t{t.oneCalSize} * 9 + 2 * (d.h + 8), 0.0f);
  std::vector<uint8_t> dy = d.dy.bytes, x = d.x.bytes;
  pd_x->assign(d.dy.bytes.size(), 0);
  res->assign(d.dy.bytes.size(), 0);
  bool ok = false;
  if (half) {
    using H = lngrad_replay::Half;
    auto p = [](std::vector<uint8_t>& v) { return reinterpret_cast<H*>(v.data()); };
    auto cp = [](const smp::HostTensor& v) { return reinterpret_cast<const H*>(v.bytes.data()); };
    const H eps{lngrad::FloatToHalfBits(epsilon)};
    ok = regbase ? lngrad_replay::ReplayLayerNormGrad3510<H>(rt, p(dy), p(x), cp(d.variance),
                                                             cp(d.mean), cp(d.gamma), eps, p(*pd_x),
                                                             p(*res), scratch.data(), reuse)
                 : lngrad_replay::ReplayLayerNormGrad<H>(rt, p(dy), p(x), cp(d.variance),
                                                         cp(d.mean), cp(d.gamma), eps, p(*pd_x),
                                                         p(*res), scratch.data(), reuse);
  } else {
    auto p = [](std::vector<uint8_t>& v) { return reinterpret_cast<float*>(v.data()); };
    auto cp = [](const smp::HostTensor& v) {
      return reinterpret_cast<const float*>(v.bytes.data());
    };
    ok = regbase ? lngrad_replay::ReplayLayerNormGrad3510<float>(
                       rt, p(dy), p(x), cp(d.variance), cp(d.mean), cp(d.gamma), epsilon, p(*pd_x),
                       p(*res), scratch.data(), reuse)
                 : lngrad_replay::ReplayLayerNormGrad<float>(
                       rt, p(dy), p(x), cp(d.variance), cp(d.mean), cp(d.gamma), epsilon, p(*pd_x),
                       p(*res), scratch.data(), reuse);
  }
  ASSERT_TRUE(ok);
}

ex::LayerNormGradOpArgs GradArgs(GradData& d, smp::HostTensor* pd_x, smp::HostTensor* res) {
  ex::LayerNormGradOpArgs a;
  a.SetShape(d.dtype, 1, d.rows, d.h);
  a.SetTensors(d.dy.data(), d.x.data(), d.mean.data(), d.variance.data(), d.gamma.data(),
               pd_x->data(), res->data());
  a.epsilon = 1e-5f;
  return a;
}

struct GradShape {
  uint32_t rows, h_float, h_half;
};
// Many tiles over several blocks; rows that are not a multiple of 8 or 16; a single row.
const GradShape kGradShapes[] = {{300, 64, 64}, {7, 16, 16}, {1, 16, 16}, {40, 320, 96}};

using GradParam = std::tuple<std::string, bool, bool, int>;  // soc, half, reuse, shape

class GradOpTest : public ::testing::TestWithParam<GradParam> {};

TEST_P(GradOpTest, EveryConfigurationGivesTheReplaysBits) {
  const auto& [soc, half, reuse, shape] = GetParam();
  const GradShape& s = kGradShapes[shape];
  const ex::OpDType dtype = half ? ex::OpDType::kFloat16 : ex::OpDType::kFloat32;
  GradData d = MakeGradData(dtype, s.rows, half ? s.h_half : s.h_float, 40 + shape);
  std::vector<uint8_t> want_pd_x, want_res;
  ReplayGrad(d, soc, reuse, 1e-5f, &want_pd_x, &want_res);
  struct Config {
    uint32_t blocks;
    ex::TmpSize tmp;
    bool shared;
  };
  const Config configs[] = {
      {1, {ex::TmpSize::Kind::kMin, 0}, false},
      {3, {ex::TmpSize::Kind::kMin, 0}, true},
      {4, {ex::TmpSize::Kind::kMax, 0}, false},
      {2, {ex::TmpSize::Kind::kBytes, 65536}, true},
  };
  for (const Config& cfg : configs) {
    SCOPED_TRACE("blocks " + std::to_string(cfg.blocks) + ", tmp " + ex::TmpSizeText(cfg.tmp) +
                 (cfg.shared ? ", sharedTmpBuffer" : ", PopStackBuffer"));
    smp::HostTensor pd_x = smp::ZeroTensor(dtype, size_t{d.rows} * d.h), res = pd_x;
    ex::LayerNormGradOpArgs a = GradArgs(d, &pd_x, &res);
    a.reuse_source = reuse;
    a.tmp = cfg.tmp;
    a.launch.blocks = cfg.blocks;
    a.launch.soc = soc;
    a.launch.shared_tmp_buffer = cfg.shared;
    ex::LayerNormGradOpInfo info;
    const lngrad::Status st = ex::RunLayerNormGradOp(a, &info);
    if (cfg.tmp.kind == ex::TmpSize::Kind::kMax && st.code() == lngrad::StatusCode::kOutOfRange) {
      // The maximum (n * H * H * sizeof(T) for short tiles) can exceed the UB: refused, fine.
      continue;
    }
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(info.soc, soc);
    EXPECT_LE(info.blocks_used, cfg.blocks);
    EXPECT_EQ(pd_x.bytes, want_pd_x) << "outputPdX differs from the replay";
    EXPECT_EQ(res.bytes, want_res) << "resForGamma differs from the replay";
  }
}

std::string GradParamName(const ::testing::TestParamInfo<GradParam>& info) {
  const auto& [soc, half, reuse, shape] = info.param;
  return soc + (half ? "_half" : "_float") + (reuse ? "_reuse_" : "_") + std::to_string(shape);
}

INSTANTIATE_TEST_SUITE_P(
    Products, GradOpTest,
    ::testing::Combine(::testing::Values("Ascend910B1", "Ascend310P1", "Ascend950PR_9599"),
                       ::testing::Bool(), ::testing::Bool(),
                       ::testing::Range(0, static_cast<int>(std::size(kGradShapes)))),
    GradParamName);

TEST(GradOpPlanTest, RowsSplitOverBlocksAndTilesWithinTheUb) {
  GradData d = MakeGradData(ex::OpDType::kFloat32, 1000, 128, 5);
  smp::HostTensor pd_x = smp::ZeroTensor(d.dtype, size_t{d.rows} * d.h), res = pd_x;
  ex::LayerNormGradOpArgs a = GradArgs(d, &pd_x, &res);
  a.launch.blocks = 3;
  ex::LayerNormGradOpInfo info;
  ASSERT_TRUE(ex::RunLayerNormGradOp(a, &info).ok());
  EXPECT_EQ(info.blocks_used, 3u);
  ASSERT_EQ(info.blocks.size(), 3u);
  uint32_t next = 0;
  for (const auto& b : info.blocks) {
    EXPECT_EQ(b.row_start, next);
    EXPECT_EQ(b.row_start % 8, 0u) << "block boundaries keep the mean/variance 32-byte aligned";
    EXPECT_EQ(b.tile_num * b.tile_rows + b.tail_rows, b.row_count);
    EXPECT_EQ(b.tile_tiling.bLength * b.tile_tiling.sLength, b.tile_rows);
    if (b.tail_rows != 0) {
      EXPECT_EQ(b.tail_tiling.sLength, b.tail_rows);
    }
    next += b.row_count;
  }
  EXPECT_EQ(next, 1000u);
  EXPECT_GT(info.tiles, 3u) << "a block's rows do not fit one tile";
  EXPECT_LE(info.ub_bytes, 192u * 1024);
  EXPECT_FALSE(info.single_chunk_tiling);
}

// 5 rows of H = 2048 float on Atlas A2: the API's tiling rounds rows per loop up to 8, so its
// layout needs 6 * 8 * 2048 floats (384 KiB) for any tile; one chunk of 2 rows fits.
struct LongRows {
  LongRows() { a.launch.soc = "Ascend910B1"; }
  GradData d = MakeGradData(ex::OpDType::kFloat32, 5, 2048, 6);
  smp::HostTensor pd_x = smp::ZeroTensor(d.dtype, size_t{d.rows} * d.h), res = pd_x;
  ex::LayerNormGradOpArgs a = GradArgs(d, &pd_x, &res);
  ex::LayerNormGradOpInfo info;
};

TEST(GradOpPlanTest, LongRowsUseTheSingleChunkTilingAndKeepTheBits) {
  LongRows r;
  const lngrad::Status st = ex::RunLayerNormGradOp(r.a, &r.info);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(r.info.single_chunk_tiling);
  EXPECT_EQ(r.info.blocks[0].tile_tiling.loopNum, 1u);
  EXPECT_EQ(r.info.blocks[0].tile_tiling.tailSize, 0u);
  EXPECT_EQ(r.info.blocks[0].tile_tiling.nohCalSize, r.info.blocks[0].tile_rows);
  std::vector<uint8_t> want_pd_x, want_res;
  ReplayGrad(r.d, "Ascend910B1", false, 1e-5f, &want_pd_x, &want_res);
  EXPECT_EQ(r.pd_x.bytes, want_pd_x);
  EXPECT_EQ(r.res.bytes, want_res);
  // With max or a byte count there is no fallback: refused with the sizes.
  r.a.tmp = {ex::TmpSize::Kind::kMax, 0};
  EXPECT_EQ(ex::RunLayerNormGradOp(r.a).code(), lngrad::StatusCode::kOutOfRange);
}

TEST(GradOpPlanTest, TheSingleChunkTilingIsTheTilingLayersUnchanged) {
  // Single-chunk tiles of 2 rows and a tail of 1, as src/tiling has them.
  LongRows r;
  ASSERT_TRUE(ex::RunLayerNormGradOp(r.a, &r.info).ok() && r.info.single_chunk_tiling);
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend910B1").ok());  // the tiling functions' product
  const auto& b = r.info.blocks[0];
  for (const auto* got : {&b.tile_tiling, &b.tail_tiling}) {
    AscendC::tiling::LayerNormGradTiling t;
    const ge::Shape shape({1, got->sLength, 2048, 2048});
    ASSERT_TRUE(lngrad::tiling::LayerNormGradSingleChunkTilingInfo(shape, 4, false, t).ok());
    EXPECT_EQ(std::memcmp(got, &t, sizeof(t)), 0) << got->sLength << " rows";
  }
}

TEST(GradOpErrorTest, RefusedWithoutTouchingTheOutputs) {
  GradData d = MakeGradData(ex::OpDType::kFloat32, 8, 16, 7);
  smp::HostTensor pd_x = smp::MakeTensor(d.dtype, std::vector<double>(128, 42.0)), res = pd_x;
  const std::vector<uint8_t> sentinel = pd_x.bytes;
  struct Bad {
    const char* what;
    std::function<void(ex::LayerNormGradOpArgs&)> change;
    lngrad::StatusCode code;
    const char* message;
  };
  const Bad bad[] = {
      {"H not aligned without DataCopyPad",
       [](auto& a) { a.h = 12, a.s = 10, a.launch.soc = "Ascend310P1"; },
       lngrad::StatusCode::kInvalidArgument, "H = 12"},
      {"zero dim", [](auto& a) { a.b = 0; }, lngrad::StatusCode::kInvalidArgument,
       "every dimension > 0"},
      {"null gamma", [](auto& a) { a.gamma = nullptr; }, lngrad::StatusCode::kInvalidArgument,
       "gamma is null"},
      {"blocks 0", [](auto& a) { a.launch.blocks = 0; }, lngrad::StatusCode::kInvalidArgument,
       "blocks = 0"},
      {"unknown soc", [](auto& a) { a.launch.soc = "Ascend999"; },
       lngrad::StatusCode::kInvalidArgument, "\"Ascend999\""},
      {"unsupported", [](auto& a) { a.launch.soc = "Ascend910A"; },
       lngrad::StatusCode::kUnsupported, "not supported on Ascend910A"},
      {"tmp too small",
       [](auto& a) {
         a.tmp = {ex::TmpSize::Kind::kBytes, 64};
       },
       lngrad::StatusCode::kInvalidArgument, "stackBufferSize is not enough"},
      {"row too long", [](auto& a) { a.h = 65536, a.s = 1, a.b = 1; },
       lngrad::StatusCode::kOutOfRange, "needs"},
  };
  std::vector<uint8_t> big(65536 * 4, 0);
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    ex::LayerNormGradOpArgs a = GradArgs(d, &pd_x, &res);
    b.change(a);
    if (a.h == 65536) a.dy = a.x = a.gamma = big.data();
    const lngrad::Status st = ex::RunLayerNormGradOp(a);
    EXPECT_EQ(st.code(), b.code) << st.ToString();
    EXPECT_NE(st.message().find(b.message), std::string::npos) << st.message();
    EXPECT_EQ(pd_x.bytes, sentinel);
    EXPECT_EQ(res.bytes, sentinel);
  }
}

// LayerNormGradBeta operator.
struct BetaData {
  ex::OpDType dtype;
  uint32_t rows, h;
  smp::HostTensor dy, res;
};

BetaData MakeBetaData(ex::OpDType dtype, uint32_t rows, uint32_t h, uint64_t seed) {
  return {dtype, rows, h, smp::MakeTensor(dtype, smp::Uniform(size_t{rows} * h, -3, 3, seed)),
          smp::MakeTensor(dtype, smp::Uniform(size_t{rows} * h, -2, 2, seed + 1))};
}

ex::LayerNormGradBetaOpArgs BetaArgs(BetaData& d, smp::HostTensor* g, smp::HostTensor* b) {
  ex::LayerNormGradBetaOpArgs a;
  a.SetShape(d.dtype, 1, d.rows, d.h);
  a.SetTensors(d.res.data(), d.dy.data(), g->data(), b->data());
  return a;
}

class BetaOpTest : public ::testing::TestWithParam<std::tuple<std::string, bool>> {};

TEST_P(BetaOpTest, OneTileEqualsTheApiAndManyStayWithinTheSumBound) {
  const auto& [soc, half] = GetParam();
  const ex::OpDType dtype = half ? ex::OpDType::kFloat16 : ex::OpDType::kFloat32;
  BetaData d = MakeBetaData(dtype, 60, 64, 11);
  // One block, one tile: the API's own bits, which the replay reproduces (any chunking gives
  // the same row-sequential float sums, spec §3.3).
  {
    smp::HostTensor g = smp::ZeroTensor(dtype, d.h), b = g;
    ex::LayerNormGradBetaOpArgs a = BetaArgs(d, &g, &b);
    a.launch.soc = soc;
    ex::LayerNormGradBetaOpInfo info;
    ASSERT_TRUE(ex::RunLayerNormGradBetaOp(a, &info).ok());
    ASSERT_EQ(info.tiles, 1u);
    AscendC::tiling::LayerNormGradBetaTiling t = info.blocks[0].tile_tiling;
    lngrad_replay::GradBetaTiling rt;
    std::memcpy(&rt, &t, sizeof(rt));
    std::vector<uint8_t> res = d.res.bytes, want_g(g.bytes.size()), want_b(b.bytes.size());
    std::vector<float> scratch(4 * size_t{d.rows} * d.h + 4 * d.h, 0.0f);
    const bool regbase = lngrad::IsRegBaseArch(lngrad::FindProduct(soc)->arch);
    bool ok;
    if (half) {
      using H = lngrad_replay::Half;
      auto p = [](std::vector<uint8_t>& v) { return reinterpret_cast<H*>(v.data()); };
      const H* dy = reinterpret_cast<const H*>(d.dy.bytes.data());
      ok = regbase
               ? lngrad_replay::ReplayLayerNormGradBeta3510<H>(rt, p(res), dy, p(want_g), p(want_b))
               : lngrad_replay::ReplayLayerNormGradBeta<H>(rt, p(res), dy, p(want_g), p(want_b),
                                                           scratch.data(), false);
    } else {
      auto p = [](std::vector<uint8_t>& v) { return reinterpret_cast<float*>(v.data()); };
      const float* dy = reinterpret_cast<const float*>(d.dy.bytes.data());
      ok = regbase ? lngrad_replay::ReplayLayerNormGradBeta3510<float>(rt, p(res), dy, p(want_g),
                                                                       p(want_b))
                   : lngrad_replay::ReplayLayerNormGradBeta<float>(
                         rt, p(res), dy, p(want_g), p(want_b), scratch.data(), false);
    }
    ASSERT_TRUE(ok);
    EXPECT_EQ(g.bytes, want_g);
    EXPECT_EQ(b.bytes, want_b);
  }
  // Several blocks and tiles: float sums in another order, and for half each tile's sums rounded
  // to half by the API. Bound (docs/math.md §6.3): a float sum of rows terms each rounded once,
  // (rows + 1) u sum|term|; half adds 2^-11 sum|term| (the tiles' roundings, each at most 2^-11
  // of its tile's part) and half a half spacing for the final rounding.
  const lngrad::oracle::BetaOutputs o =
      lngrad::oracle::LayerNormGradBeta(d.rows, d.h, d.dy.values, d.res.values);
  for (ex::TmpSize tmp :
       {ex::TmpSize{ex::TmpSize::Kind::kMin, 0}, ex::TmpSize{ex::TmpSize::Kind::kMax, 0}}) {
    for (bool shared : {false, true}) {
      smp::HostTensor g = smp::ZeroTensor(dtype, d.h), b = g;
      ex::LayerNormGradBetaOpArgs a = BetaArgs(d, &g, &b);
      a.launch.soc = soc;
      a.launch.blocks = 4;
      a.launch.shared_tmp_buffer = shared;
      a.tmp = tmp;
      ex::LayerNormGradBetaOpInfo info;
      ASSERT_TRUE(ex::RunLayerNormGradBetaOp(a, &info).ok());
      EXPECT_EQ(info.blocks_used, 4u);
      const std::vector<double> gv = smp::Values(dtype, g.data(), d.h),
                                bv = smp::Values(dtype, b.data(), d.h);
      for (uint32_t c = 0; c < d.h; ++c) {
        for (const auto& [got, want, mag] : {std::tuple{gv[c], o.dgamma[c], o.dgamma_mag[c]},
                                             std::tuple{bv[c], o.dbeta[c], o.dbeta_mag[c]}}) {
          double bound = (d.rows + 1) * kU * mag;
          if (half)
            bound += 0x1.0p-11 * mag + 0.5 * lngrad::oracle::HalfSpacing(std::fabs(want) + bound);
          EXPECT_LE(std::fabs(got - want), bound) << "column " << c;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Products, BetaOpTest,
                         ::testing::Combine(::testing::Values("Ascend910B1", "Ascend310P1",
                                                              "Ascend950PR_9599"),
                                            ::testing::Bool()));

TEST(BetaOpErrorTest, RefusedWithoutTouchingTheOutputs) {
  BetaData d = MakeBetaData(ex::OpDType::kFloat16, 4, 16, 3);
  smp::HostTensor g = smp::MakeTensor(d.dtype, std::vector<double>(16, 7.0)), b = g;
  const std::vector<uint8_t> sentinel = g.bytes;
  ex::LayerNormGradBetaOpArgs a = BetaArgs(d, &g, &b);
  a.h = 8;  // 16 bytes of half per row, on a product without DataCopyPad
  a.launch.soc = "Ascend310P1";
  EXPECT_EQ(ex::RunLayerNormGradBetaOp(a).code(), lngrad::StatusCode::kInvalidArgument);
  a = BetaArgs(d, &g, &b);
  a.launch.soc = "Ascend310B1";
  EXPECT_EQ(ex::RunLayerNormGradBetaOp(a).code(), lngrad::StatusCode::kUnsupported);
  a = BetaArgs(d, &g, &b);
  a.dy = nullptr;
  EXPECT_EQ(ex::RunLayerNormGradBetaOp(a).code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_EQ(g.bytes, sentinel);
  EXPECT_EQ(b.bytes, sentinel);
}

// Any H (src/ops, "Any H"): rows that are not 32 bytes long are padded in UB. Float64 agreement
// within the documented bounds (docs/math.md §6.1-§6.4, §6.8) for every H of issue 17, float
// and half, on both algorithms, over several blocks and tiles; LayerNormGradBeta consumes the
// res_for_gamma LayerNormGrad produced, as `lngrad run --impl ascendc` does.
using AnyHParam = std::tuple<std::string, bool, uint32_t>;  // soc, half, H

class AnyHOpTest : public ::testing::TestWithParam<AnyHParam> {};

TEST_P(AnyHOpTest, WithinTheFloat64BoundsForAnyH) {
  // Plain variables: clang 14 cannot capture structured bindings in lambdas.
  const auto& soc = std::get<0>(GetParam());
  const bool half = std::get<1>(GetParam());
  const auto h = std::get<2>(GetParam());
  const ex::OpDType dtype = half ? ex::OpDType::kFloat16 : ex::OpDType::kFloat32;
  const uint32_t rows = h >= 1000 ? 9 : 37;
  GradData d = MakeGradData(dtype, rows, h, 70 + h);
  smp::HostTensor pd_x = smp::ZeroTensor(dtype, size_t{rows} * h), res = pd_x;
  ex::LayerNormGradOpArgs a = GradArgs(d, &pd_x, &res);
  a.launch.soc = soc;
  a.launch.blocks = 3;
  ex::LayerNormGradOpInfo info;
  const lngrad::Status st = ex::RunLayerNormGradOp(a, &info);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const uint32_t storage = (h + (half ? 15 : 7)) / (half ? 16 : 8) * (half ? 16 : 8);
  EXPECT_EQ(info.blocks[0].tile_tiling.hLength, storage);
  EXPECT_EQ(info.blocks[0].tile_tiling.originalHLength, h);

  const double eps = smp::RoundTo(dtype, 1e-5);
  const lngrad::oracle::GradOutputs o = lngrad::oracle::LayerNormGrad(
      rows, h, d.dy.values, d.x.values, d.mean.values, d.variance.values, d.gamma.values, eps);
  // Half outputs: computed in float and rounded once, so half a half spacing more.
  auto rounding = [&](double want, double bound) {
    return half ? 0.5 * lngrad::oracle::HalfSpacing(std::fabs(want) + bound) : 0.0;
  };
  const double k_pdx = 2.0 * (std::ceil(h / 16.0) + 9) + 14;  // (2D + 14), D = ceil(H/16) + 9
  const std::vector<double> got_pdx = smp::Values(dtype, pd_x.data(), size_t{rows} * h);
  const std::vector<double> got_res = smp::Values(dtype, res.data(), size_t{rows} * h);
  size_t bad = 0;
  for (size_t i = 0; i < got_pdx.size(); ++i) {
    const double b_pdx = k_pdx * kU * o.pd_x_mag[i];
    const double b_res = 4 * kU * o.res_mag[i];
    if (!(std::fabs(got_pdx[i] - o.pd_x[i]) <= b_pdx + rounding(o.pd_x[i], b_pdx)) ||
        !(std::fabs(got_res[i] - o.res_for_gamma[i]) <=
          b_res + rounding(o.res_for_gamma[i], b_res))) {
      if (++bad <= 5) {
        ADD_FAILURE() << "row " << i / h << " column " << i % h << ": pd_x " << got_pdx[i] << " vs "
                      << o.pd_x[i] << ", res " << got_res[i] << " vs " << o.res_for_gamma[i];
      }
    }
  }
  EXPECT_EQ(bad, 0u);

  BetaData bd{dtype, rows, h, d.dy, res};
  smp::HostTensor g = smp::ZeroTensor(dtype, h), be = g;
  ex::LayerNormGradBetaOpArgs ba = BetaArgs(bd, &g, &be);
  ba.launch.soc = soc;
  ba.launch.blocks = 3;
  ASSERT_TRUE(ex::RunLayerNormGradBetaOp(ba).ok());
  const lngrad::oracle::BetaOutputs ob =
      lngrad::oracle::LayerNormGradBeta(rows, h, d.dy.values, got_res);
  const std::vector<double> gv = smp::Values(dtype, g.data(), h),
                            bv = smp::Values(dtype, be.data(), h);
  for (uint32_t c = 0; c < h; ++c) {
    for (const auto& [got, want, mag] : {std::tuple{gv[c], ob.dgamma[c], ob.dgamma_mag[c]},
                                         std::tuple{bv[c], ob.dbeta[c], ob.dbeta_mag[c]}}) {
      double bound = (rows + 1) * kU * mag;
      if (half) bound += 0x1.0p-11 * mag;
      EXPECT_LE(std::fabs(got - want), bound + rounding(want, bound)) << "column " << c;
    }
  }
}

std::string AnyHParamName(const ::testing::TestParamInfo<AnyHParam>& info) {
  const auto& [soc, half, h] = info.param;
  return soc + (half ? "_half_H" : "_float_H") + std::to_string(h);
}

INSTANTIATE_TEST_SUITE_P(
    Products, AnyHOpTest,
    ::testing::Combine(::testing::Values("Ascend910B1", "Ascend950PR_9599"), ::testing::Bool(),
                       ::testing::Values(1u, 3u, 7u, 17u, 20u, 100u, 1000u, 4095u)),
    AnyHParamName);

// Padding in UB changes no bit: the operator's real columns equal the replay of the device
// algorithm on rows the test pads itself (dy and gamma with 0, x with the row's mean) under the
// API's tiling for [1, rows, storage H, H].
TEST(AnyHOpTest, PaddedRowsGiveTheReplaysBits) {
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    SCOPED_TRACE(soc);
    const uint32_t rows = 12, h = 13, hs = 16;
    GradData d = MakeGradData(ex::OpDType::kFloat32, rows, h, 90);
    smp::HostTensor pd_x = smp::ZeroTensor(d.dtype, size_t{rows} * h), res = pd_x;
    ex::LayerNormGradOpArgs a = GradArgs(d, &pd_x, &res);
    a.launch.soc = soc;
    ASSERT_TRUE(ex::RunLayerNormGradOp(a).ok());
    // Unchecked mode (outputs in place, no padding check): the same bits.
    {
      lngrad::aicore::test::CheckedModeScope unchecked(false);
      smp::HostTensor u_pd_x = smp::ZeroTensor(d.dtype, size_t{rows} * h), u_res = u_pd_x;
      ex::LayerNormGradOpArgs u = GradArgs(d, &u_pd_x, &u_res);
      u.launch.soc = soc;
      ASSERT_TRUE(ex::RunLayerNormGradOp(u).ok());
      EXPECT_EQ(u_pd_x.bytes, pd_x.bytes);
      EXPECT_EQ(u_res.bytes, res.bytes);
    }

    AscendC::tiling::LayerNormGradTiling t;
    bool regbase = false;
    {
      SocScope scope(soc);
      regbase = lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch);
      const ge::Shape shape({1, rows, hs, h});
      uint32_t max_v = 0, min_v = 0;
      ASSERT_TRUE(lngrad::tiling::LayerNormGradMaxMinTmpSize(shape, 4, false, max_v, min_v).ok());
      ASSERT_TRUE(lngrad::tiling::LayerNormGradNDTilingInfo(shape, min_v, 4, false, t).ok());
    }
    lngrad_replay::GradTiling rt;
    std::memcpy(&rt, &t, sizeof(rt));
    const float* dy = reinterpret_cast<const float*>(d.dy.bytes.data());
    const float* x = reinterpret_cast<const float*>(d.x.bytes.data());
    const float* mean = reinterpret_cast<const float*>(d.mean.bytes.data());
    const float* gamma = reinterpret_cast<const float*>(d.gamma.bytes.data());
    std::vector<float> pdy(rows * hs, 0.0f), px(rows * hs), pg(hs, 0.0f);
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < hs; ++c) {
        px[r * hs + c] = c < h ? x[r * h + c] : mean[r];
        if (c < h) pdy[r * hs + c] = dy[r * h + c];
      }
    }
    std::copy(gamma, gamma + h, pg.begin());
    std::vector<float> want_pdx(rows * hs), want_res(rows * hs);
    std::vector<float> scratch(size_t{t.oneCalSize} * 9 + 2 * (hs + 8), 0.0f);
    const auto* var = reinterpret_cast<const float*>(d.variance.bytes.data());
    const bool ok = regbase ? lngrad_replay::ReplayLayerNormGrad3510<float>(
                                  rt, pdy.data(), px.data(), var, mean, pg.data(), 1e-5f,
                                  want_pdx.data(), want_res.data(), scratch.data(), false)
                            : lngrad_replay::ReplayLayerNormGrad<float>(
                                  rt, pdy.data(), px.data(), var, mean, pg.data(), 1e-5f,
                                  want_pdx.data(), want_res.data(), scratch.data(), false);
    ASSERT_TRUE(ok);
    const float* got_pdx = reinterpret_cast<const float*>(pd_x.bytes.data());
    const float* got_res = reinterpret_cast<const float*>(res.bytes.data());
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < h; ++c) {
        EXPECT_EQ(std::bit_cast<uint32_t>(got_pdx[r * h + c]),
                  std::bit_cast<uint32_t>(want_pdx[r * hs + c]))
            << "pd_x row " << r << " column " << c;
        EXPECT_EQ(std::bit_cast<uint32_t>(got_res[r * h + c]),
                  std::bit_cast<uint32_t>(want_res[r * hs + c]))
            << "res row " << r << " column " << c;
      }
    }
  }
}

// Without DataCopyPad (Atlas inference series) an unaligned H is refused before any launch.
TEST(AnyHOpTest, ProductsWithoutDataCopyPadRefuseUnalignedH) {
  GradData d = MakeGradData(ex::OpDType::kFloat32, 4, 12, 91);
  smp::HostTensor pd_x = smp::MakeTensor(d.dtype, std::vector<double>(48, 42.0)), res = pd_x;
  const std::vector<uint8_t> sentinel = pd_x.bytes;
  ex::LayerNormGradOpArgs a = GradArgs(d, &pd_x, &res);
  a.launch.soc = "Ascend310P1";
  lngrad::Status st = ex::RunLayerNormGradOp(a);
  EXPECT_EQ(st.code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("has no DataCopyPad"), std::string::npos) << st.message();
  EXPECT_EQ(pd_x.bytes, sentinel);
  BetaData bd = MakeBetaData(ex::OpDType::kFloat16, 4, 12, 92);
  smp::HostTensor g = smp::ZeroTensor(bd.dtype, 12), b = g;
  ex::LayerNormGradBetaOpArgs ba = BetaArgs(bd, &g, &b);
  ba.launch.soc = "Ascend310P1";
  st = ex::RunLayerNormGradBetaOp(ba);
  EXPECT_EQ(st.code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("has no DataCopyPad"), std::string::npos) << st.message();
}

// Forward operator: rows are independent, so blocks and tiles must not change a bit.
TEST(LayerNormOpTest, BlocksAndTilesDoNotChangeTheBits) {
  for (const char* soc : {"Ascend910B1", "Ascend310P1", "Ascend950PR_9599"}) {
    for (ex::OpDType dtype : {ex::OpDType::kFloat32, ex::OpDType::kFloat16}) {
      SCOPED_TRACE(std::string(soc) + " " + ex::DTypeName(dtype));
      const uint32_t rows = 200, h = 64;
      const smp::HostTensor x = smp::MakeTensor(dtype, smp::Uniform(rows * h, -5, 5, 1));
      const smp::HostTensor gamma = smp::MakeTensor(dtype, smp::Uniform(h, -1, 1, 2));
      const smp::HostTensor beta = smp::MakeTensor(dtype, smp::Uniform(h, -1, 1, 3));
      smp::HostTensor y[2], mean[2], var[2];
      ex::LayerNormOpInfo info[2];
      for (int i = 0; i < 2; ++i) {
        y[i] = smp::ZeroTensor(dtype, rows * h);
        mean[i] = smp::ZeroTensor(dtype, rows);
        var[i] = smp::ZeroTensor(dtype, rows);
        ex::LayerNormOpArgs a;
        a.dtype = dtype;
        a.b = 4;
        a.s = rows / 4;
        a.h = h;
        a.x = x.data();
        a.gamma = gamma.data();
        a.beta = beta.data();
        a.y = y[i].data();
        a.mean = mean[i].data();
        a.variance = var[i].data();
        a.launch.soc = soc;
        // Second run: 3 blocks, and a tmp size that makes each LayerNorm call loop over chunks.
        if (i == 1) {
          a.launch.blocks = 3;
          a.tmp = {ex::TmpSize::Kind::kBytes, 8192};
          a.launch.shared_tmp_buffer = true;
        }
        const lngrad::Status st = ex::RunLayerNormOp(a, &info[i]);
        ASSERT_TRUE(st.ok()) << st.ToString();
      }
      EXPECT_EQ(info[0].blocks_used, 1u);
      EXPECT_EQ(info[1].blocks_used, 3u);
      EXPECT_EQ(y[1].bytes, y[0].bytes);
      EXPECT_EQ(mean[1].bytes, mean[0].bytes);
      EXPECT_EQ(var[1].bytes, var[0].bytes);
      // And the values are LayerNorm's: mean and variance within the sample rule of float64.
      std::vector<double> want_y, want_mean, want_var;
      smp::LayerNormGolden(rows, h, x.values, gamma.values, beta.values, smp::RoundTo(dtype, 1e-5),
                           &want_y, &want_mean, &want_var);
      const double tol = dtype == ex::OpDType::kFloat16 ? 1e-3 : 1e-4;
      EXPECT_EQ(smp::CheckRule(smp::Values(dtype, mean[0].data(), rows), want_mean, tol).wrong, 0u);
      EXPECT_EQ(smp::CheckRule(smp::Values(dtype, var[0].data(), rows), want_var, tol).wrong, 0u);
      EXPECT_EQ(smp::CheckRule(smp::Values(dtype, y[0].data(), rows * h), want_y, tol).wrong, 0u);
    }
  }
}

// GM of the operators: inputs read in place, outputs in place or staged (LaunchConfig::outputs).
using lngrad::aicore::test::CheckedModeScope;

using Outputs = ex::LaunchConfig::Outputs;
const Outputs kAllOutputs[] = {Outputs::kAuto, Outputs::kStaged, Outputs::kInPlace};
const char* OutputsName(Outputs o) {
  return o == Outputs::kAuto ? "auto" : o == Outputs::kStaged ? "staged" : "in place";
}

TEST(OpGmTest, StagingFollowsCheckedModeUnlessForcedOrAliased) {
  std::vector<uint8_t> in(256), out(256), out2(256);
  ex::LaunchConfig c;
  const std::initializer_list<ex::host::HostRange> inputs = {{in.data(), 256}};
  {
    CheckedModeScope on(true);
    EXPECT_TRUE(ex::host::StagedOutputs(c, inputs, {{out.data(), 256}}));
  }
  {
    CheckedModeScope off(false);
    EXPECT_FALSE(ex::host::StagedOutputs(c, inputs, {{out.data(), 256}}));
    c.outputs = Outputs::kStaged;
    EXPECT_TRUE(ex::host::StagedOutputs(c, inputs, {{out.data(), 256}}));
  }
  CheckedModeScope on(true);
  c.outputs = Outputs::kInPlace;
  EXPECT_FALSE(ex::host::StagedOutputs(c, inputs, {{out.data(), 256}, {out2.data(), 256}}));
  // Overlaps force staging: output on input, output on output; touching ranges do not.
  EXPECT_TRUE(ex::host::StagedOutputs(c, inputs, {{in.data() + 255, 16}}));
  EXPECT_TRUE(ex::host::StagedOutputs(c, inputs, {{out.data(), 128}, {out.data() + 64, 128}}));
  EXPECT_FALSE(ex::host::StagedOutputs(c, inputs, {{out.data(), 128}, {out.data() + 128, 128}}));
  EXPECT_FALSE(ex::host::StagedOutputs(c, {{in.data(), 128}}, {{in.data() + 128, 128}}));
}

TEST(OpGmTest, StagedOutputReachesTheCallerOnlyOnCommit) {
  std::vector<uint8_t> host(100, 7);
  {
    const ex::host::GmOutput staged(host.data(), host.size(), true);
    EXPECT_NE(staged.data(), host.data());
    std::memset(staged.data(), 1, host.size());
    EXPECT_EQ(host, std::vector<uint8_t>(100, 7));  // a launch that fails stops here
    staged.Commit();
    EXPECT_EQ(host, std::vector<uint8_t>(100, 1));
  }
  const ex::host::GmOutput in_place(host.data(), host.size(), false);
  EXPECT_EQ(in_place.data(), host.data());
  in_place.Commit();  // nothing to copy
  EXPECT_EQ(host, std::vector<uint8_t>(100, 1));
}

TEST(OpGmTest, GradOutputsInPlaceAndStagedGiveTheReplaysBits) {
  for (ex::OpDType dtype : {ex::OpDType::kFloat32, ex::OpDType::kFloat16}) {
    GradData d = MakeGradData(dtype, 300, 64, 77);
    std::vector<uint8_t> want_pd_x, want_res;
    ReplayGrad(d, "Ascend910B1", false, 1e-5f, &want_pd_x, &want_res);
    for (bool checked : {true, false}) {
      CheckedModeScope mode(checked);
      for (Outputs o : kAllOutputs) {
        for (uint32_t blocks : {1u, 3u}) {
          SCOPED_TRACE(std::string(ex::DTypeName(dtype)) + (checked ? " checked " : " unchecked ") +
                       OutputsName(o) + ", blocks " + std::to_string(blocks));
          smp::HostTensor pd_x = smp::ZeroTensor(dtype, size_t{d.rows} * d.h), res = pd_x;
          ex::LayerNormGradOpArgs a = GradArgs(d, &pd_x, &res);
          a.launch.blocks = blocks;
          a.launch.outputs = o;
          const lngrad::Status st = ex::RunLayerNormGradOp(a);
          ASSERT_TRUE(st.ok()) << st.ToString();
          EXPECT_EQ(pd_x.bytes, want_pd_x);
          EXPECT_EQ(res.bytes, want_res);
        }
      }
    }
  }
}

// Outputs that alias inputs: exactly (pd_x on dy, res_for_gamma on x) and shifted so that, in
// place, a tile would overwrite dy rows that a later tile still has to read. Both are staged
// whatever launch.outputs says, so the bits are those of separate buffers.
TEST(OpGmTest, GradOutputsAliasingInputsAreStaged) {
  GradData d = MakeGradData(ex::OpDType::kFloat32, 300, 64, 78);
  std::vector<uint8_t> want_pd_x, want_res;
  ReplayGrad(d, "Ascend910B1", false, 1e-5f, &want_pd_x, &want_res);
  const size_t bytes = d.dy.bytes.size(), shift = 150 * 64 * sizeof(float);
  for (bool checked : {true, false}) {
    CheckedModeScope mode(checked);
    SCOPED_TRACE(checked ? "checked" : "unchecked");
    smp::HostTensor unused = smp::ZeroTensor(d.dtype, size_t{d.rows} * d.h);
    {
      std::vector<uint8_t> dy = d.dy.bytes, x = d.x.bytes;
      ex::LayerNormGradOpArgs a = GradArgs(d, &unused, &unused);
      a.dy = a.pd_x = dy.data();
      a.x = a.res_for_gamma = x.data();
      a.launch.outputs = Outputs::kInPlace;
      ASSERT_TRUE(ex::RunLayerNormGradOp(a).ok());
      EXPECT_EQ(dy, want_pd_x);
      EXPECT_EQ(x, want_res);
    }
    {
      std::vector<uint8_t> buffer(bytes + shift);
      std::memcpy(buffer.data(), d.dy.bytes.data(), bytes);
      smp::HostTensor res = smp::ZeroTensor(d.dtype, size_t{d.rows} * d.h);
      ex::LayerNormGradOpArgs a = GradArgs(d, &unused, &res);
      a.dy = buffer.data();
      a.pd_x = buffer.data() + shift;
      a.launch.outputs = Outputs::kInPlace;
      ASSERT_TRUE(ex::RunLayerNormGradOp(a).ok());
      EXPECT_EQ(std::vector<uint8_t>(buffer.begin() + shift, buffer.end()), want_pd_x);
      EXPECT_EQ(res.bytes, want_res);
    }
  }
}

TEST(OpGmTest, BetaAndForwardOutputsDoNotDependOnPlacement) {
  const ex::OpDType dtype = ex::OpDType::kFloat32;
  BetaData bd = MakeBetaData(dtype, 100, 64, 5);
  const uint32_t rows = 100, h = 64;
  const smp::HostTensor x = smp::MakeTensor(dtype, smp::Uniform(rows * h, -5, 5, 6));
  const smp::HostTensor gamma = smp::MakeTensor(dtype, smp::Uniform(h, -1, 1, 7));
  const smp::HostTensor beta = smp::MakeTensor(dtype, smp::Uniform(h, -1, 1, 8));
  std::vector<std::vector<uint8_t>> results;
  for (bool checked : {true, false}) {
    CheckedModeScope mode(checked);
    for (Outputs o : kAllOutputs) {
      SCOPED_TRACE(std::string(checked ? "checked " : "unchecked ") + OutputsName(o));
      smp::HostTensor g = smp::ZeroTensor(dtype, h), b = g;
      ex::LayerNormGradBetaOpArgs ba = BetaArgs(bd, &g, &b);
      ba.launch.blocks = 2;
      ba.launch.outputs = o;
      ASSERT_TRUE(ex::RunLayerNormGradBetaOp(ba).ok());
      smp::HostTensor y = smp::ZeroTensor(dtype, rows * h), mean = smp::ZeroTensor(dtype, rows),
                      var = mean;
      ex::LayerNormOpArgs fa;
      fa.SetShape(dtype, 1, rows, h);
      fa.SetTensors(x.data(), gamma.data(), beta.data(), y.data(), mean.data(), var.data());
      fa.launch.blocks = 2;
      fa.launch.outputs = o;
      ASSERT_TRUE(ex::RunLayerNormOp(fa).ok());
      std::vector<uint8_t> all = g.bytes;
      for (const smp::HostTensor* t : {&b, &y, &mean, &var}) {
        all.insert(all.end(), t->bytes.begin(), t->bytes.end());
      }
      results.push_back(std::move(all));
    }
  }
  for (size_t i = 1; i < results.size(); ++i) EXPECT_EQ(results[i], results[0]) << "run " << i;
  // And the forward outputs are not left at their zero fill.
  EXPECT_NE(results[0], std::vector<uint8_t>(results[0].size(), 0));
}

}  // namespace
