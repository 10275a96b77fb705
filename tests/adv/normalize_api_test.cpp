// The [A, R] family through the Ascend C API on the simulated device (kernel code written as for
// the device, only "kernel_operator.h"): the vendor layernorm_v2 sample's shape through both
// LayerNorm prototypes, Normalize, the product's algorithm, and each checked-mode rule.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"
#include "tiling/tiling_api.h"

namespace {

using lngrad::aicore::BlockFailure;

using lngrad::adv::testing::FirstCheck;
using lngrad::adv::testing::RunOn;

std::vector<float> Uniform(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& e : v) e = d(gen);
  return v;
}

// The sample's host side for `soc`: the minimum of the isComputeRstd sizes, then the tiling.
LayerNormSeparateTiling SampleTiling(const std::string& soc, uint32_t a, uint32_t r,
                                     uint32_t type_size, uint32_t* bytes) {
  EXPECT_TRUE(lngrad::SetCurrentSoc(soc).ok());
  const ge::Shape shape({a, r});
  uint32_t max_v = 0, min_v = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, type_size, false, true, false, max_v, min_v);
  *bytes = min_v;
  LayerNormSeparateTiling t;
  AscendC::GetLayerNormNDTilingInfo(shape, min_v, type_size, false, true, t);
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok());
  EXPECT_TRUE(lngrad::SetCurrentSoc("Ascend910B1").ok());
  return t;
}

struct Result {
  std::vector<float> y, mean, rstd;
};

constexpr AscendC::LayerNormConfig kSampleConfig = {
    .isNoBeta = false, .isNoGamma = false, .isOnlyOutput = false};

// [a, r] float through LayerNorm, with sharedTmpBuffer (`tmp`) or from the stack.
Result RunLayerNorm(const std::string& soc, uint32_t a, uint32_t r, bool tmp, uint32_t seed,
                    std::string* check = nullptr) {
  uint32_t bytes = 0;
  const LayerNormSeparateTiling tiling = SampleTiling(soc, a, r, 4, &bytes);
  const uint32_t rp = (r + 7) / 8 * 8;
  const std::vector<float> x = Uniform(size_t{a} * rp, -10.0f, 10.0f, seed);
  const std::vector<float> g = Uniform(rp, -2.0f, 2.0f, seed + 1);
  const std::vector<float> b = Uniform(rp, -2.0f, 2.0f, seed + 2);
  Result res{std::vector<float>(size_t{a} * rp), std::vector<float>(a), std::vector<float>(a)};
  const auto f = RunOn(soc, [&] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> in_x, in_g, in_b, out_y, out_m, out_r, work;
    pipe.InitBuffer(in_x, a * rp * 4);
    pipe.InitBuffer(in_g, rp * 4);
    pipe.InitBuffer(in_b, rp * 4);
    pipe.InitBuffer(out_y, a * rp * 4);
    pipe.InitBuffer(out_m, (a + 7) / 8 * 32);
    pipe.InitBuffer(out_r, (a + 7) / 8 * 32);
    pipe.InitBuffer(work, std::max<uint32_t>(bytes, 32));
    LocalTensor<float> lx = in_x.Get<float>(), lg = in_g.Get<float>(), lb = in_b.Get<float>();
    for (uint32_t i = 0; i < a * rp; ++i) lx.SetValue(i, x[i]);
    for (uint32_t i = 0; i < rp; ++i) lg.SetValue(i, g[i]);
    for (uint32_t i = 0; i < rp; ++i) lb.SetValue(i, b[i]);
    LocalTensor<float> y = out_y.Get<float>(), m = out_m.Get<float>(), rs = out_r.Get<float>();
    // Defined where the API does not write (y's padded columns on the register path).
    Duplicate(y, 0.0f, static_cast<int32_t>(a * rp));
    const LayerNormPara para = {a, r, rp};
    if (tmp) {
      LayerNorm<float, float, false, kSampleConfig>(y, m, rs, lx, lg, lb, 1e-4f,
                                                    work.Get<uint8_t>(), para, tiling);
    } else {
      LayerNorm<float, float, false, kSampleConfig>(y, m, rs, lx, lg, lb, 1e-4f, para, tiling);
    }
    for (uint32_t i = 0; i < a * rp; ++i) res.y[i] = y.GetValue(i);
    for (uint32_t i = 0; i < a; ++i) res.mean[i] = m.GetValue(i);
    for (uint32_t i = 0; i < a; ++i) res.rstd[i] = rs.GetValue(i);
  });
  if (check != nullptr) *check = FirstCheck(f);
  EXPECT_TRUE(check != nullptr || f.empty())
      << FirstCheck(f) << ": " << (f.empty() ? "" : f[0].message);
  // The sample's own golden rule (|a-b| <= 1e-5 or relative 1e-5) against float64.
  for (uint32_t i = 0; i < a && f.empty(); ++i) {
    double mean = 0, var = 0;
    for (uint32_t k = 0; k < r; ++k) mean += x[i * rp + k];
    mean /= r;
    for (uint32_t k = 0; k < r; ++k) var += (x[i * rp + k] - mean) * (x[i * rp + k] - mean);
    var /= r;
    const double rstd = 1 / std::sqrt(var + 1e-4);
    auto close = [](double got, double want) {
      return std::fabs(got - want) <= 1e-5 || std::fabs(got - want) <= 1e-5 * std::fabs(want);
    };
    EXPECT_TRUE(close(res.mean[i], mean)) << i << " " << res.mean[i] << " " << mean;
    EXPECT_TRUE(close(res.rstd[i], rstd)) << i << " " << res.rstd[i] << " " << rstd;
    for (uint32_t k = 0; k < r; ++k) {
      const double want = g[k] * ((x[i * rp + k] - mean) * rstd) + b[k];
      EXPECT_TRUE(std::fabs(res.y[i * rp + k] - want) <= 1e-4 * std::max(1.0, std::fabs(want)))
          << i << "," << k << " " << res.y[i * rp + k] << " " << want;
    }
  }
  return res;
}

TEST(AscendLayerNormRstd, VendorSampleShapeThroughBothPrototypes) {
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    SCOPED_TRACE(soc);
    const Result with_tmp = RunLayerNorm(soc, 32, 32, true, 1);
    const Result from_stack = RunLayerNorm(soc, 32, 32, false, 1);
    EXPECT_EQ(with_tmp.y, from_stack.y);
    EXPECT_EQ(with_tmp.mean, from_stack.mean);
    EXPECT_EQ(with_tmp.rstd, from_stack.rstd);
  }
}

TEST(AscendLayerNormRstd, PaddedRowsAndTailChunks) {
  // R = 20 (padded to 24) and R = 100 with the minimum scratch, which gives chunks of one row.
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    SCOPED_TRACE(soc);
    RunLayerNorm(soc, 5, 20, true, 3);
    RunLayerNorm(soc, 9, 100, true, 4);
  }
}

TEST(AscendLayerNormRstd, LongRowsOn3510AreFolded) {
  // R > 128 takes the rHeadLength folding on 3510 (200: head 128; 1000: head 512).
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    SCOPED_TRACE(soc);
    RunLayerNorm(soc, 2, 200, true, 5);
    RunLayerNorm(soc, 3, 1000, true, 6);
  }
}

TEST(AscendNormalize, HalfInputsWithFloatGamma) {
  // [4, 24] half (padded to 32), float gamma/beta, with sharedTmpBuffer and from the stack.
  constexpr uint32_t a = 4, r = 24, rp = 32;
  const std::vector<float> x = Uniform(a * rp, -4.0f, 4.0f, 9);
  const std::vector<float> g = Uniform(rp, -2.0f, 2.0f, 10);
  const std::vector<float> b = Uniform(rp, -2.0f, 2.0f, 11);
  std::vector<float> mean(a), var(a);
  for (uint32_t i = 0; i < a; ++i) {
    mean[i] = 0.5f * static_cast<float>(i);
    var[i] = 1.0f + static_cast<float>(i);
  }
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    for (bool tmp : {true, false}) {
      std::vector<float> y(a * rp), rstd(a);
      const auto f = RunOn(soc, [&] {
        using namespace AscendC;
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 8192);
        auto lx = buf.GetWithOffset<half>(a * rp, 0);
        auto ly = buf.GetWithOffset<half>(a * rp, 256);
        auto lg = buf.GetWithOffset<float>(rp, 512);
        auto lb = buf.GetWithOffset<float>(rp, 640);
        auto lm = buf.GetWithOffset<float>(8, 768);
        auto lv = buf.GetWithOffset<float>(8, 800);
        auto lr = buf.GetWithOffset<float>(8, 832);
        auto work = buf.GetWithOffset<uint8_t>(4096, 4096);
        for (uint32_t i = 0; i < a * rp; ++i) lx.SetValue(i, half(x[i]));
        for (uint32_t i = 0; i < rp; ++i) lg.SetValue(i, g[i]);
        for (uint32_t i = 0; i < rp; ++i) lb.SetValue(i, b[i]);
        for (uint32_t i = 0; i < a; ++i) lm.SetValue(i, mean[i]);
        for (uint32_t i = 0; i < a; ++i) lv.SetValue(i, var[i]);
        Duplicate(ly, half(0.0f), static_cast<int32_t>(a * rp));
        const NormalizePara para = {a, r, rp};
        if (tmp) {
          Normalize<float, half>(ly, lr, lm, lv, lx, lg, lb, work, 1e-5f, para);
        } else {
          Normalize<float, half>(ly, lr, lm, lv, lx, lg, lb, 1e-5f, para);
        }
        for (uint32_t i = 0; i < a * rp; ++i) y[i] = static_cast<float>(ly.GetValue(i));
        for (uint32_t i = 0; i < a; ++i) rstd[i] = lr.GetValue(i);
      });
      ASSERT_TRUE(f.empty()) << FirstCheck(f) << ": " << f[0].message;
      for (uint32_t i = 0; i < a; ++i) {
        const double rs = 1 / std::sqrt(double{var[i]} + 1e-5);
        EXPECT_NEAR(rstd[i], rs, 1e-6 * rs);
        for (uint32_t k = 0; k < r; ++k) {
          const double xh = static_cast<float>(half(x[i * rp + k]));
          const double want = (xh - mean[i]) * rs * g[k] + b[k];
          EXPECT_NEAR(y[i * rp + k], want, 2e-3 * std::max(1.0, std::fabs(want)));
        }
      }
    }
  }
}

// ----------------------------------------------------------------------------------------
// Checked mode: each rule, with the rest of the call valid.

enum class Bend {
  kNone,
  kSameOutputs,
  kLongPara,
  kUnalignedPadding,
  kSmallTmp,
  kShortGamma,
  kConfigA,
  kReuse
};

constexpr AscendC::NormalizeConfig kConfigA7 = {.aLength = 7};

// [4, 16] float operands carved from one TBuf, with the rule `bend` names broken; the scratch
// holds `work_bytes` (32 fewer for kSmallTmp).
struct Carved {
  AscendC::LocalTensor<float> x, y, gamma, beta, mean, var, rstd;
  AscendC::LocalTensor<uint8_t> work;
  AscendC::NormalizePara para;
};

Carved Carve(AscendC::TBuf<AscendC::TPosition::VECCALC>& buf, Bend bend, uint32_t work_bytes) {
  Carved c;
  // Every operand defined (clean under the sanitizer's initcheck): gamma, beta, mean 0.
  AscendC::Duplicate(buf.GetWithOffset<float>(8192 / 4, 0), 0.0f, 8192 / 4);
  c.x = buf.GetWithOffset<float>(4 * 16, 0);
  c.y = bend == Bend::kSameOutputs ? c.x : buf.GetWithOffset<float>(4 * 16, 256);
  c.gamma = buf.GetWithOffset<float>(bend == Bend::kShortGamma ? 8 : 16, 512);
  c.beta = buf.GetWithOffset<float>(16, 576);
  c.mean = buf.GetWithOffset<float>(8, 640);
  c.var = buf.GetWithOffset<float>(8, 672);
  c.rstd = buf.GetWithOffset<float>(8, 704);
  c.work = buf.GetWithOffset<uint8_t>(bend == Bend::kSmallTmp ? work_bytes - 32 : work_bytes, 8192);
  for (uint32_t i = 0; i < 64; ++i) c.x.SetValue(i, static_cast<float>(i % 5));
  for (uint32_t i = 0; i < 4; ++i) c.var.SetValue(i, 1.0f);
  c.para = {4, bend == Bend::kLongPara ? 17u : 16u, 16};
  if (bend == Bend::kUnalignedPadding) c.para = {4, 12, 12};
  return c;
}

std::string NormalizeCheck(Bend bend, const char* soc = "Ascend910B1") {
  return FirstCheck(RunOn(soc, [&] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16384);
    // 96 bytes = 24 floats: fewer than 2 * 16 for one group.
    Carved c = Carve(buf, bend, bend == Bend::kSmallTmp ? 96 : 4096);
    if (bend == Bend::kConfigA) {
      Normalize<float, float, false, kConfigA7>(c.y, c.rstd, c.mean, c.var, c.x, c.gamma, c.beta,
                                                c.work, 1e-5f, c.para);
    } else if (bend == Bend::kReuse) {
      Normalize<float, float, true>(c.y, c.rstd, c.mean, c.var, c.x, c.gamma, c.beta, c.work, 1e-5f,
                                    c.para);
    } else {
      Normalize<float, float>(c.y, c.rstd, c.mean, c.var, c.x, c.gamma, c.beta, c.work, 1e-5f,
                              c.para);
    }
  }));
}

// The bends both [A, R] APIs check alike, and the check each one raises ("<api>.<check>"; none
// for kNone).
struct BendCheck {
  Bend bend;
  const char* check;
};
constexpr BendCheck kArBendChecks[] = {
    {Bend::kNone, nullptr},
    {Bend::kSameOutputs, "tensor_reuse"},
    {Bend::kLongPara, "para"},
    {Bend::kUnalignedPadding, "para"},
    {Bend::kSmallTmp, "stack_buffer"},
    {Bend::kShortGamma, "operand_bounds"},
};

std::string Expected(const char* api, const char* check) {
  return check == nullptr ? "" : std::string(api) + "." + check;
}

TEST(AscendNormalize, CheckedModeReportsTheDeviceChecks) {
  for (const BendCheck& b : kArBendChecks) {
    EXPECT_EQ(NormalizeCheck(b.bend), Expected("Normalize", b.check));
  }
  EXPECT_EQ(NormalizeCheck(Bend::kConfigA), "Normalize.config");
  EXPECT_EQ(NormalizeCheck(Bend::kReuse), "Normalize.reuse_source");
  EXPECT_EQ(NormalizeCheck(Bend::kNone, "Ascend310B1"), "Normalize.unsupported_product");
  // The register path needs no scratch: a small one is fine there.
  EXPECT_EQ(NormalizeCheck(Bend::kSmallTmp, "Ascend950PR_9599"), "");
  // normalize_3510_impl.h takes isReuseSource and ignores it.
  EXPECT_EQ(NormalizeCheck(Bend::kReuse, "Ascend950PR_9599"), "");
}

// bfloat16 on the 950 (normalize_3510_impl.h: T bfloat16_t, U bfloat16_t or float) against the
// float64 formula y = (x - mean) / sqrt(var + eps) * gamma + beta with x, gamma, beta the
// bfloat16 (or float) operands. Bound: |y - y64| <= 2^-8 |y64| (the final rounding to bfloat16, 8
// bits)
// + 2^-20 (|gamma (x - mean) rstd| + |beta|) (the float Sub, Mul and fused multiply-add, and
// rstd within a few float ulps) + 2^-133 (half the smallest bfloat16 subnormal). Off the 950 the
// type is refused (Normalize.dtype).
template <typename U>
void Bf16Normalize(const char* soc, std::vector<float>* y, std::vector<float>* rstd,
                   std::vector<float>* x, std::vector<float>* g, std::vector<float>* b,
                   std::vector<float>* mean, std::vector<float>* var,
                   std::vector<BlockFailure>* failures) {
  constexpr uint32_t a = 5, r = 40, rp = 48;
  *x = Uniform(a * rp, -6.0f, 6.0f, 21);
  *g = Uniform(rp, -2.0f, 2.0f, 22);
  *b = Uniform(rp, -2.0f, 2.0f, 23);
  *mean = Uniform(a, -1.0f, 1.0f, 24);
  *var = Uniform(a, 0.1f, 9.0f, 25);
  // The operands as the kernel holds them.
  for (float& v : *x) v = static_cast<float>(bfloat16_t(v));
  if constexpr (std::is_same_v<U, bfloat16_t>) {
    for (float& v : *g) v = static_cast<float>(bfloat16_t(v));
    for (float& v : *b) v = static_cast<float>(bfloat16_t(v));
  }
  y->assign(a * rp, 0.0f);
  rstd->assign(a, 0.0f);
  *failures = RunOn(soc, [&] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    auto lx = buf.GetWithOffset<bfloat16_t>(a * rp, 0);
    auto ly = buf.GetWithOffset<bfloat16_t>(a * rp, 1024);
    auto lg = buf.GetWithOffset<U>(rp, 2048);
    auto lb = buf.GetWithOffset<U>(rp, 2304);
    auto lm = buf.GetWithOffset<float>(8, 2560);
    auto lv = buf.GetWithOffset<float>(8, 2592);
    auto lr = buf.GetWithOffset<float>(8, 2624);
    for (uint32_t i = 0; i < a * rp; ++i) lx.SetValue(i, bfloat16_t((*x)[i]));
    for (uint32_t i = 0; i < rp; ++i) lg.SetValue(i, U((*g)[i]));
    for (uint32_t i = 0; i < rp; ++i) lb.SetValue(i, U((*b)[i]));
    for (uint32_t i = 0; i < a; ++i) lm.SetValue(i, (*mean)[i]);
    for (uint32_t i = 0; i < a; ++i) lv.SetValue(i, (*var)[i]);
    Duplicate(ly.template ReinterpretCast<int16_t>(), int16_t{0}, static_cast<int32_t>(a * rp));
    Normalize<U, bfloat16_t>(ly, lr, lm, lv, lx, lg, lb, 1e-5f, NormalizePara{a, r, rp});
    for (uint32_t i = 0; i < a * rp; ++i) (*y)[i] = static_cast<float>(ly.GetValue(i));
    for (uint32_t i = 0; i < a; ++i) (*rstd)[i] = lr.GetValue(i);
  });
}

template <typename U>
void CheckBf16Normalize() {
  constexpr uint32_t a = 5, r = 40, rp = 48;
  std::vector<float> y, rstd, x, g, b, mean, var;
  std::vector<BlockFailure> f;
  Bf16Normalize<U>("Ascend950PR_9599", &y, &rstd, &x, &g, &b, &mean, &var, &f);
  ASSERT_TRUE(f.empty()) << FirstCheck(f) << ": " << f[0].message;
  for (uint32_t i = 0; i < a; ++i) {
    const double rs = 1 / std::sqrt(double{var[i]} + double{1e-5f});
    EXPECT_NEAR(rstd[i], rs, 4 * 0x1p-24 * rs);
    for (uint32_t k = 0; k < r; ++k) {
      const double core = (double{x[i * rp + k]} - mean[i]) * rs * g[k];
      const double want = core + b[k];
      const double bound =
          0x1p-8 * std::fabs(want) + 0x1p-20 * (std::fabs(core) + std::fabs(b[k])) + 0x1p-133;
      EXPECT_NEAR(y[i * rp + k], want, bound) << "row " << i << " column " << k;
    }
    for (uint32_t k = r; k < rp; ++k) EXPECT_EQ(y[i * rp + k], 0.0f) << "padding written";
  }
  Bf16Normalize<U>("Ascend910B1", &y, &rstd, &x, &g, &b, &mean, &var, &f);
  EXPECT_EQ(FirstCheck(f), "Normalize.dtype");
}

TEST(AscendNormalize, Bf16On950AgainstFloat64) {
  CheckBf16Normalize<bfloat16_t>();
  CheckBf16Normalize<float>();
}

std::string LayerNormCheck(Bend bend) {
  uint32_t bytes = 0;
  const LayerNormSeparateTiling tiling = SampleTiling("Ascend910B1", 4, 16, 4, &bytes);
  return FirstCheck(RunOn("Ascend910B1", [&] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16384);
    Carved c = Carve(buf, bend, bytes);
    const LayerNormPara para = {c.para.aLength, c.para.rLength, c.para.rLengthWithPadding};
    LayerNorm<float, float>(c.y, c.mean, c.rstd, c.x, c.gamma, c.beta, 1e-5f, c.work, para, tiling);
  }));
}

TEST(AscendLayerNormRstd, CheckedModeReportsTheDeviceChecks) {
  for (const BendCheck& b : kArBendChecks) {
    EXPECT_EQ(LayerNormCheck(b.bend), Expected("LayerNorm", b.check));
  }
}

TEST(AscendLayerNormRstd, HalfWithReuseSourceIsRefused) {
  uint32_t bytes = 0;
  const LayerNormSeparateTiling tiling = SampleTiling("Ascend910B1", 2, 16, 2, &bytes);
  const auto f = RunOn("Ascend910B1", [&] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    auto lx = buf.GetWithOffset<half>(32, 0);
    auto ly = buf.GetWithOffset<half>(32, 64);
    auto lg = buf.GetWithOffset<half>(16, 128);
    auto lb = buf.GetWithOffset<half>(16, 160);
    auto lm = buf.GetWithOffset<float>(8, 192);
    auto lr = buf.GetWithOffset<float>(8, 224);
    auto work = buf.GetWithOffset<uint8_t>(bytes, 4096);
    LayerNorm<half, half, true>(ly, lm, lr, lx, lg, lb, 1e-5f, work, {2, 16, 16}, tiling);
  });
  EXPECT_EQ(FirstCheck(f), "LayerNorm.reuse_source");
}

}  // namespace
