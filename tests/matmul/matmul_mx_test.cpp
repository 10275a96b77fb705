// The Matmul's MX forms on the 950: fp8 A and B with e8m0 scales (MatmulTypeWithScale,
// MatmulWithScalePolicy, SetTensorScaleA/B in both ND scale layouts and in NZ, from GM and from
// a TSCM tensor), a K that is not a multiple of 64, a bias, and a plain fp8 Matmul (every scale
// 1). The NZ scales are stored by loops over the axes of matmul_mx_ub_tscm_nz's gen_data.py
// (16-row blocks, pairs of groups, rows, the pair), not by the Matmul's formula. C against a
// float64 oracle built from a separate decoding of the fp8 and e8m0 codes written here, with the
// cube's documented MX bound 2^-24 (K + 2) sum|a b| (docs/ascendc_kernels.md, "The MX forms").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"
#include "matmul_test_support.h"

namespace {

using AscendC::TPosition;
namespace mt = matmul_tiling;

constexpr const char* kSoc = "Ascend950PR_9589";
constexpr int32_t kM = 40, kN = 72, kK = 160;  // K: two groups of 64 and a half one
constexpr int32_t kGroups = (kK + 63) / 64 * 2;

// An fp8 code's value: e5m2 (bias 15) or e4m3fn (bias 7), subnormals included.
double Fp8(uint8_t c, bool e5m2) {
  const int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const int e = (c & 0x7F) >> mbits, m = c & ((1 << mbits) - 1);
  const double v =
      e == 0 ? std::ldexp(m, 1 - bias - mbits) : std::ldexp((1 << mbits) + m, e - bias - mbits);
  return (c & 0x80) != 0 ? -v : v;
}

// Random finite fp8 codes (no infinity or NaN exponent) and e8m0 codes 2^-6 .. 2^6.
uint8_t Code(std::mt19937& g, bool e5m2) {
  for (;;) {
    const auto c = static_cast<uint8_t>(g());
    const int e = (c & 0x7F) >> (e5m2 ? 2 : 3);
    if (e != (e5m2 ? 31 : 15)) return c;
  }
}

struct MxProblem {
  bool a_e5m2, b_e5m2, scale_a_trans, scale_b_trans, scaled, bias;
  std::vector<uint8_t> a, b, sa, sb;  // A m x k, B k x n; scales as stored (NZ: row-major)
  std::vector<float> bias_row;
  std::vector<double> c, bound;
  bool nz = false;  // SCALE_FORMAT NZ: sa_nz and sb_nz are what the Matmul reads
  std::vector<uint8_t> sa_nz, sb_nz;

  // Scale codes of A (row i, group q) and B (group q, column j) as the Matmul reads them.
  size_t AtA(int32_t i, int32_t q) const {
    if (nz) return size_t(i) * kGroups + q;
    return scale_a_trans ? (size_t(q / 2) * kM + i) * 2 + q % 2 : size_t(i) * kGroups + q;
  }
  size_t AtB(int32_t q, int32_t j) const {
    if (nz) return size_t(j) * kGroups + q;
    return scale_b_trans ? size_t(j) * kGroups + q : (size_t(q / 2) * kN + j) * 2 + q % 2;
  }
  // NZ as gen_data.py stores it: blocks of 16 rows, in each the pairs of groups, in each the
  // rows, in each the pair; rows past the matrix hold 127.
  static std::vector<uint8_t> Nz(const std::vector<uint8_t>& rows_by_groups, int32_t rows) {
    std::vector<uint8_t> out;
    for (int32_t rb = 0; rb < (rows + 15) / 16; ++rb)
      for (int32_t gp = 0; gp < kGroups / 2; ++gp)
        for (int32_t r = rb * 16; r < rb * 16 + 16; ++r)
          for (int32_t g = gp * 2; g < gp * 2 + 2; ++g)
            out.push_back(r < rows ? rows_by_groups[size_t(r) * kGroups + g] : uint8_t{127});
    return out;
  }
  double ScaleA(int32_t i, int32_t q) const {
    return scaled ? std::ldexp(1.0, sa[AtA(i, q)] - 127) : 1;
  }
  double ScaleB(int32_t q, int32_t j) const {
    return scaled ? std::ldexp(1.0, sb[AtB(q, j)] - 127) : 1;
  }

  void Build(unsigned seed) {
    std::mt19937 g(seed);
    a.resize(size_t(kM) * kK);
    b.resize(size_t(kK) * kN);
    sa.resize(size_t(kM) * kGroups);
    sb.resize(size_t(kGroups) * kN);
    for (auto& x : a) x = Code(g, a_e5m2);
    for (auto& x : b) x = Code(g, b_e5m2);
    for (auto& x : sa) x = static_cast<uint8_t>(121 + g() % 13);
    for (auto& x : sb) x = static_cast<uint8_t>(121 + g() % 13);
    if (nz) {
      sa_nz = Nz(sa, kM);
      sb_nz = Nz(sb, kN);
    }
    bias_row.resize(kN);
    for (auto& x : bias_row) x = bias ? static_cast<float>(int(g() % 17) - 8) : 0.0f;
    c.resize(size_t(kM) * kN);
    bound.resize(c.size());
    for (int32_t i = 0; i < kM; ++i) {
      for (int32_t j = 0; j < kN; ++j) {
        double s = bias_row[j], mag = std::fabs(s);
        for (int32_t q = 0; q < kK; ++q) {
          const double p = Fp8(a[size_t(i) * kK + q], a_e5m2) * ScaleA(i, q / 32) *
                           Fp8(b[size_t(q) * kN + j], b_e5m2) * ScaleB(q / 32, j);
          s += p;
          mag += std::fabs(p);
        }
        c[size_t(i) * kN + j] = s;
        bound[size_t(i) * kN + j] = std::ldexp(1.0, -24) * (kK + 2) * mag;
      }
    }
  }
};

TCubeTiling TilingOf(bool bias) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(kSoc);
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(1);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT8_E5M2);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT8_E4M3FN);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetScaleAType(mt::TPosition::GM, mt::CubeFormat::ND);
  api.SetScaleBType(mt::TPosition::GM, mt::CubeFormat::ND);
  api.SetMadType(mt::MatrixMadType::MXMODE);
  api.SetOrgShape(kM, kN, kK);
  api.SetShape(kM, kN, kK);
  api.SetFixSplit(32, 48, 64);  // tail blocks in M and N, K in 64, 64, 32
  api.EnableBias(bias);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

using FloatNd = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>;
template <class T>
using Scaled = AscendC::MatmulTypeWithScale<TPosition::GM, TPosition::GM, CubeFormat::ND, T>;
template <class T>
using Plain = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, T>;
template <class T, TPosition SCALE_POS>
using ScaledNz = AscendC::MatmulTypeWithScale<TPosition::GM, SCALE_POS, CubeFormat::ND, T, false,
                                              TPosition::GM, CubeFormat::NZ>;

// The scales in a TSCM tensor (as matmul_mx_ub_tscm_nz's AIV fills them), or none.
template <class MM>
void SetLocalScales(MM& mm, AscendC::TPipe& pipe, const MxProblem& p) {
  // In one pipe the Matmul's own L1 stage (the block's scales) starts at L1 byte 0, and so would
  // the first TSCM tensor (TSCM has its own cursor, for the AIVs that fill it): 4 KiB kept first.
  static AscendC::TBuf<TPosition::TSCM> bufs[3];
  pipe.InitBuffer(bufs[2], 4096);
  const std::vector<uint8_t>* src[2] = {&p.sa_nz, &p.sb_nz};
  AscendC::LocalTensor<fp8_e8m0_t> local[2];
  for (int i = 0; i < 2; ++i) {
    pipe.InitBuffer(bufs[i], static_cast<uint32_t>(src[i]->size() + 31) / 32 * 32);
    local[i] = bufs[i].Get<fp8_e8m0_t>();
    for (size_t k = 0; k < src[i]->size(); ++k)
      local[i].SetValue(k, fp8_e8m0_t::FromBits((*src[i])[k]));
  }
  mm.SetTensorScaleA(local[0], p.scale_a_trans);
  mm.SetTensorScaleB(local[1], p.scale_b_trans);
}

template <class AT, class BT, bool kLocalScales = false>
std::vector<float> RunMx(const MxProblem& p, std::string* failures) {
  const TCubeTiling t = TilingOf(p.bias);
  std::vector<uint8_t> a = p.a, b = p.b, sa = p.nz ? p.sa_nz : p.sa, sb = p.nz ? p.sb_nz : p.sb;
  std::vector<float> bias = p.bias_row, c(size_t(kM) * kN, -1.0f);
  *failures = lngrad::matmul_test::RunOneCore(kSoc, "matmul_mx", [&] {
    AscendC::Matmul<AT, BT, FloatNd, FloatNd, CFG_MDL, AscendC::MatmulCallBackFunc<>,
                    AscendC::Impl::Detail::MatmulWithScalePolicy>
        mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<typename AT::T> ga;
    AscendC::GlobalTensor<typename BT::T> gb;
    AscendC::GlobalTensor<fp8_e8m0_t> gsa, gsb;
    AscendC::GlobalTensor<float> gc, gbias;
    ga.SetGlobalBuffer(reinterpret_cast<typename AT::T*>(a.data()), a.size());
    gb.SetGlobalBuffer(reinterpret_cast<typename BT::T*>(b.data()), b.size());
    gsa.SetGlobalBuffer(reinterpret_cast<fp8_e8m0_t*>(sa.data()), sa.size());
    gsb.SetGlobalBuffer(reinterpret_cast<fp8_e8m0_t*>(sb.data()), sb.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    gbias.SetGlobalBuffer(bias.data(), bias.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    if constexpr (kLocalScales) {
      SetLocalScales(mm, pipe, p);
    } else if (p.scaled) {
      mm.SetTensorScaleA(gsa, p.scale_a_trans);
      mm.SetTensorScaleB(gsb, p.scale_b_trans);
    }
    if (p.bias) mm.SetBias(gbias);
    mm.IterateAll(gc);
    mm.End();
  });
  return c;
}

void ExpectC(const MxProblem& p, const std::vector<float>& c) {
  for (size_t i = 0; i < c.size(); ++i)
    ASSERT_LE(std::fabs(c[i] - p.c[i]), p.bound[i]) << i / kN << "," << i % kN;
}

TEST(MatmulMx, ScaledFp8InTheSamplesLayouts) {
  MxProblem p{true, false, false, false, true, false, {}, {}, {}, {}, {}, {}, {}, false, {}, {}};
  p.Build(11);
  std::string failures;
  const auto c = RunMx<Scaled<fp8_e5m2_t>, Scaled<fp8_e4m3fn_t>>(p, &failures);
  ASSERT_EQ(failures, "");
  ExpectC(p, c);
}

TEST(MatmulMx, TransposedScalesAndBias) {
  MxProblem p{true, false, true, true, true, true, {}, {}, {}, {}, {}, {}, {}, false, {}, {}};
  p.Build(12);
  std::string failures;
  const auto c = RunMx<Scaled<fp8_e5m2_t>, Scaled<fp8_e4m3fn_t>>(p, &failures);
  ASSERT_EQ(failures, "");
  ExpectC(p, c);
  // The scales matter: the same run with every scale 1 is far from this oracle.
  MxProblem unit = p;
  unit.scaled = false;
  unit.Build(12);
  double far = 0;
  for (size_t i = 0; i < c.size(); ++i) far = std::max(far, std::fabs(c[i] - unit.c[i]));
  EXPECT_GT(far, 1.0);
}

TEST(MatmulMx, PlainFp8IsEveryScaleOne) {
  MxProblem p{true, false, false, false, false, true, {}, {}, {}, {}, {}, {}, {}, false, {}, {}};
  p.Build(13);
  std::string failures;
  const auto c = RunMx<Plain<fp8_e5m2_t>, Plain<fp8_e4m3fn_t>>(p, &failures);
  ASSERT_EQ(failures, "");
  ExpectC(p, c);
}

TEST(MatmulMx, NzScalesFromGmEitherTranspose) {
  for (const bool trans : {false, true}) {
    MxProblem p{true, false, trans, !trans, true, true, {}, {}, {}, {}, {}, {}, {}, true, {}, {}};
    p.Build(14 + trans);
    std::string failures;
    const auto c =
        RunMx<ScaledNz<fp8_e5m2_t, TPosition::GM>, ScaledNz<fp8_e4m3fn_t, TPosition::GM>>(
            p, &failures);
    ASSERT_EQ(failures, "");
    ExpectC(p, c);
  }
}

TEST(MatmulMx, NzScalesFromTscmTensors) {
  MxProblem p{true, false, false, true, true, false, {}, {}, {}, {}, {}, {}, {}, true, {}, {}};
  p.Build(16);
  std::string failures;
  const auto c =
      RunMx<ScaledNz<fp8_e5m2_t, TPosition::TSCM>, ScaledNz<fp8_e4m3fn_t, TPosition::TSCM>, true>(
          p, &failures);
  ASSERT_EQ(failures, "");
  ExpectC(p, c);
}

// fp4 (e2m1) A in a UB tensor (VECOUT): its 4-bit elements, two a byte, are what the Matmul's
// range check counts (a 16 x 128 A is 1024 bytes, 2048 elements). Oracle: e2m1 codes decoded by a
// table of the eight magnitudes (0, 0.5, 1, 1.5, 2, 3, 4, 6; bit 3 the sign), first code in the
// low nibble; every scale 1, so C is exact in float.
TEST(MatmulMx, Fp4AInAUbTensorCountsItsNibbles) {
  constexpr int32_t m = 16, n = 32, k = 128;
  constexpr double kMag[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  auto value = [&](const std::vector<uint8_t>& v, size_t i) {
    const uint8_t code = (v[i / 2] >> (i % 2 * 4)) & 0xF;
    return (code & 8) != 0 ? -kMag[code & 7] : kMag[code & 7];
  };
  std::mt19937 g(21);
  std::vector<uint8_t> a(m * k / 2), b(k * n / 2);
  for (auto& x : a) x = static_cast<uint8_t>(g());
  for (auto& x : b) x = static_cast<uint8_t>(g());
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(kSoc);
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(1);
  api.SetAType(mt::TPosition::VECOUT, mt::CubeFormat::ND, mt::DataType::DT_FLOAT4_E2M1);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT4_E2M1);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetMadType(mt::MatrixMadType::MXMODE);
  api.SetOrgShape(m, n, k);
  api.SetShape(m, n, k);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  std::vector<float> c(m * n, -1.0f);
  const std::string failures = lngrad::matmul_test::RunOneCore(kSoc, "matmul_fp4_ub", [&] {
    using AT = AscendC::MatmulType<TPosition::VECOUT, CubeFormat::ND, fp4x2_e2m1_t>;
    using BT = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, fp4x2_e2m1_t>;
    AscendC::Matmul<AT, BT, FloatNd, FloatNd, CFG_MDL> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::TBuf<TPosition::VECOUT> ub;
    pipe.InitBuffer(ub, static_cast<uint32_t>(a.size()));
    AscendC::LocalTensor<uint8_t> bytes = ub.Get<uint8_t>();
    for (size_t i = 0; i < a.size(); ++i) bytes.SetValue(i, a[i]);
    AscendC::GlobalTensor<fp4x2_e2m1_t> gb;
    AscendC::GlobalTensor<float> gc;
    gb.SetGlobalBuffer(reinterpret_cast<fp4x2_e2m1_t*>(b.data()), size_t(k) * n);
    gc.SetGlobalBuffer(c.data(), c.size());
    mm.SetTensorA(bytes.ReinterpretCast<fp4x2_e2m1_t>());
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
  });
  ASSERT_EQ(failures, "");
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      double s = 0;
      for (int32_t q = 0; q < k; ++q)
        s += value(a, size_t(i) * k + q) * value(b, size_t(q) * n + j);
      ASSERT_EQ(c[size_t(i) * n + j], static_cast<float>(s)) << i << "," << j;
    }
  }
}

}  // namespace
