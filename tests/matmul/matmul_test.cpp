// AscendC::Matmul with the host tiling, as the kit's samples drive it: each block takes its
// singleCoreM x singleCoreN (x singleCoreK with split K) piece, SetTail on the edges, IterateAll
// or Iterate/GetTensorC. Results against a float64 oracle with the cube's stated bound.
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

namespace {

using AscendC::TPosition;
namespace mt = matmul_tiling;

constexpr const char* kA2 = "Ascend910B1";
constexpr const char* k950 = "Ascend950PR_9589";

struct Case {
  int32_t m, n, k;
  bool trans_a = false, trans_b = false, bias = false;
  int32_t cores = 1;
  bool split_k = false;
  int32_t base[3] = {-1, -1, -1};
  bool iterate = false;  // Iterate/GetTensorC instead of IterateAll
};

template <typename T>
mt::DataType TypeOf() {
  if constexpr (std::is_same_v<T, half>) return mt::DataType::DT_FLOAT16;
  if constexpr (std::is_same_v<T, bfloat16_t>) return mt::DataType::DT_BF16;
  if constexpr (std::is_same_v<T, float>) return mt::DataType::DT_FLOAT;
  if constexpr (std::is_same_v<T, int8_t>) return mt::DataType::DT_INT8;
  return mt::DataType::DT_INT32;
}

template <typename T, typename C>
int64_t Tiling(const char* soc, const Case& c, TCubeTiling* t) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(c.cores);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, TypeOf<T>(), c.trans_a);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, TypeOf<T>(), c.trans_b);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, TypeOf<C>());
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, TypeOf<C>());
  api.SetOrgShape(c.m, c.n, c.k);
  api.SetShape(c.m, c.n, c.k);
  api.EnableBias(c.bias);
  api.EnableMultiCoreSplitK(c.split_k);
  api.SetFixSplit(c.base[0], c.base[1], c.base[2]);
  return api.GetTiling(*t);
}

// The block's piece of C, as the kit's samples compute it.
struct Piece {
  uint32_t a, b, c, bias, tail_m, tail_n, tail_k;
};
Piece PieceOf(const TCubeTiling& t, const Case& c, uint32_t block) {
  auto div = [](int64_t x, int64_t y) { return static_cast<uint32_t>((x + y - 1) / y); };
  const uint32_t mb = div(t.M, t.singleCoreM), nb = div(t.N, t.singleCoreN);
  const uint32_t mn = mb * nb;
  const uint32_t mi = (block % mn) % mb, ni = (block % mn) / mb, ki = block / mn;
  Piece p{};
  const uint32_t m0 = mi * t.singleCoreM, n0 = ni * t.singleCoreN, k0 = ki * t.singleCoreK;
  p.a = c.trans_a ? k0 * t.M + m0 : m0 * t.Ka + k0;
  p.b = c.trans_b ? n0 * t.Kb + k0 : k0 * t.N + n0;
  p.c = m0 * t.N + n0;
  p.bias = n0;
  p.tail_m = std::min<uint32_t>(t.singleCoreM, t.M - m0);
  p.tail_n = std::min<uint32_t>(t.singleCoreN, t.N - n0);
  p.tail_k = std::min<uint32_t>(t.singleCoreK, t.Ka - k0);
  return p;
}

template <typename T, typename C>
std::string RunMatmul(const char* soc, const Case& c, const TCubeTiling& t, std::vector<T>& a,
                      std::vector<T>& b, std::vector<C>& bias, std::vector<C>& out) {
  const bool split = t.singleCoreK < t.Ka;
  auto kernel = [&] {
    using A = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CT = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, C>;
    AscendC::Matmul<A, A, CT, CT> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const Piece p = PieceOf(t, c, static_cast<uint32_t>(AscendC::GetBlockIdx()));
    AscendC::GlobalTensor<T> ga, gb;
    AscendC::GlobalTensor<C> gbias, gc;
    ga.SetGlobalBuffer(a.data() + p.a, a.size() - p.a);
    gb.SetGlobalBuffer(b.data() + p.b, b.size() - p.b);
    gbias.SetGlobalBuffer(bias.data() + p.bias, bias.size() - p.bias);
    gc.SetGlobalBuffer(out.data() + p.c, out.size() - p.c);
    mm.SetTail(p.tail_m, p.tail_n, p.tail_k);
    mm.SetTensorA(ga, c.trans_a);
    mm.SetTensorB(gb, c.trans_b);
    if (c.bias) mm.SetBias(gbias);
    if (c.iterate) {
      while (mm.Iterate()) mm.GetTensorC(gc, split ? 1 : 0);
    } else {
      mm.IterateAll(gc, split ? 1 : 0);
    }
    mm.End();
  };
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  std::vector<lngrad::aicore::BlockFailure> failures;
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks(
      "matmul", static_cast<uint32_t>(t.usedCoreNum), kernel, o, &failures);
  std::string text = s.ok() ? "" : "failed: ";
  for (const auto& f : failures) text += "[" + f.check + "] " + f.message + "\n";
  return text;
}

double ToD(half v) { return static_cast<double>(static_cast<float>(v)); }
double ToD(bfloat16_t v) { return static_cast<double>(static_cast<float>(v)); }
double ToD(float v) { return v; }
double ToD(int8_t v) { return v; }
double ToD(int32_t v) { return v; }

template <typename T>
std::vector<T> Random(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_integral_v<T>) {
      x = static_cast<T>(static_cast<int>(g() % 255) - 127);
    } else {
      x = T(d(g));
    }
  }
  return v;
}

// A logical (m, k) of A stored as the case says, and B's (k, n).
template <typename T>
double AAt(const std::vector<T>& a, const Case& c, int32_t i, int32_t k) {
  return ToD(c.trans_a ? a[size_t(k) * c.m + i] : a[size_t(i) * c.k + k]);
}
template <typename T>
double BAt(const std::vector<T>& b, const Case& c, int32_t k, int32_t j) {
  return ToD(c.trans_b ? b[size_t(j) * c.k + k] : b[size_t(k) * c.n + j]);
}

// C against the float64 oracle: |error| <= 2^-24 (2K + 1) (|bias| + sum |a b|) (the cube's
// bound for float inputs, which covers half and bfloat16), plus half an ulp of C's type; int32
// exactly.
template <typename T, typename C>
void ExpectOracle(const Case& c, const std::vector<T>& a, const std::vector<T>& b,
                  const std::vector<C>& bias, const std::vector<C>& out) {
  for (int32_t i = 0; i < c.m; ++i) {
    for (int32_t j = 0; j < c.n; ++j) {
      double ref = c.bias ? ToD(bias[j]) : 0.0, mag = std::fabs(ref);
      for (int32_t k = 0; k < c.k; ++k) {
        const double p = AAt(a, c, i, k) * BAt(b, c, k, j);
        ref += p;
        mag += std::fabs(p);
      }
      const double got = ToD(out[size_t(i) * c.n + j]);
      if constexpr (std::is_integral_v<C>) {
        ASSERT_EQ(got, ref) << i << "," << j;
      } else {
        const double ulp = std::is_same_v<C, float> ? 0.0 : std::fabs(ref) * std::ldexp(1.0, -8);
        const double bound = std::ldexp(1.0, -24) * (2.0 * c.k + 1) * mag + ulp;
        ASSERT_LE(std::fabs(got - ref), bound) << i << "," << j << " ref " << ref;
      }
    }
  }
}

template <typename T, typename C>
std::vector<C> Check(const char* soc, const Case& c, uint32_t seed = 1) {
  TCubeTiling t;
  EXPECT_EQ((Tiling<T, C>(soc, c, &t)), 0);
  auto a = Random<T>(size_t(c.m) * c.k, seed), b = Random<T>(size_t(c.k) * c.n, seed + 1);
  auto bias = Random<C>(size_t(c.n), seed + 2);
  std::vector<C> out(size_t(c.m) * c.n, C(0));
  EXPECT_EQ((RunMatmul<T, C>(soc, c, t, a, b, bias, out)), "");
  ExpectOracle(c, a, b, bias, out);
  return out;
}

class MatmulOnSoc : public ::testing::TestWithParam<const char*> {};

TEST_P(MatmulOnSoc, HalfToFloatShapesTailsTransposesBias) {
  const Case cases[] = {
      {16, 16, 16},
      {128, 256, 64, false, false, true},
      {37, 53, 70, true, false, true, 4},
      {100, 33, 129, false, true, false, 8},
      {70, 300, 45, true, true, true, 24},
      {1, 17, 300, false, false, true, 2},
      {257, 129, 33, false, false, false, 3, false, {32, 48, 16}},
      {64, 80, 96, false, true, true, 1, false, {-1, -1, -1}, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k));
    Check<half, float>(GetParam(), c);
  }
}

TEST_P(MatmulOnSoc, OtherTypes) {
  Check<bfloat16_t, float>(GetParam(), {45, 70, 90, false, true, true, 4});
  Check<float, float>(GetParam(), {33, 40, 50, true, false, true, 2});
  Check<half, half>(GetParam(), {48, 64, 100, false, false, false, 2});
  Check<int8_t, int32_t>(GetParam(), {50, 70, 200, false, true, true, 4});
  Check<int8_t, int32_t>(GetParam(), {20, 36, 70, false, false, false, 1, false, {-1, -1, 32}});
}

// The same inputs give the same bits for every base block and every core split over M and N
// (the K order does not depend on them).
TEST_P(MatmulOnSoc, SameBitsForEveryTiling) {
  const std::vector<float> ref = Check<half, float>(GetParam(), {90, 70, 200, false, false, true});
  const int32_t bases[][3] = {{16, 16, 16}, {32, 64, 48}, {96, 80, 208}, {-1, -1, 64}};
  for (const auto& base : bases) {
    for (int32_t cores : {1, 3, 8}) {
      Case c{90, 70, 200, false, false, true, cores};
      std::copy(base, base + 3, c.base);
      const std::vector<float> got = Check<half, float>(GetParam(), c);
      ASSERT_EQ(std::memcmp(got.data(), ref.data(), ref.size() * 4), 0)
          << base[0] << " " << base[1] << " " << base[2] << " cores " << cores;
    }
  }
}

// Split K across cores: each core's partial sum is added to C in GM (enAtomic).
TEST_P(MatmulOnSoc, SplitKAddsPartialSums) {
  Check<half, float>(GetParam(), {16, 16, 1024, false, false, false, 8, true});
  Check<int8_t, int32_t>(GetParam(), {32, 48, 512, false, false, false, 6, true});
}

INSTANTIATE_TEST_SUITE_P(Socs, MatmulOnSoc, ::testing::Values(kA2, k950));

std::string RunMisuse(const std::function<void(TCubeTiling&)>& body) {
  lngrad::aicore::LaunchOptions o;
  o.soc = kA2;
  std::vector<lngrad::aicore::BlockFailure> failures;
  TCubeTiling t;
  Case c{32, 32, 32};
  EXPECT_EQ((Tiling<half, float>(kA2, c, &t)), 0);
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks(
      "matmul", 1, [&] { body(t); }, o, &failures);
  std::string text = s.ok() ? "" : "failed: ";
  for (const auto& f : failures) text += "[" + f.check + "] " + f.message + "\n";
  return text;
}
using Half = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using Float = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>;

TEST(MatmulChecks, SetTensorABeforeInit) {
  const std::string r = RunMisuse([](TCubeTiling&) {
    AscendC::Matmul<Half, Half, Float> mm;
    AscendC::GlobalTensor<half> g;
    mm.SetTensorA(g);
  });
  EXPECT_NE(r.find("[matmul.usage] Matmul::SetTensorA: called before Init"), std::string::npos)
      << r;
}

TEST(MatmulChecks, ShapesBeyondTheTiling) {
  const std::string r = RunMisuse([](TCubeTiling& t) {
    AscendC::Matmul<Half, Half, Float> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTail(64, 32, 32);
  });
  EXPECT_NE(r.find("single-core shape exceeds the original shape"), std::string::npos) << r;
}

TEST(MatmulChecks, IterateWithoutOperandsAndAfterEnd) {
  std::string r = RunMisuse([](TCubeTiling& t) {
    AscendC::Matmul<Half, Half, Float> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.Iterate();
  });
  EXPECT_NE(r.find("SetTensorA and SetTensorB come first"), std::string::npos) << r;
  r = RunMisuse([](TCubeTiling& t) {
    AscendC::Matmul<Half, Half, Float> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.End();
    mm.SetTail(16, 16, 16);
  });
  EXPECT_NE(r.find("called after End"), std::string::npos) << r;
}

TEST(MatmulChecks, TensorShorterThanTheShape) {
  const std::string r = RunMisuse([](TCubeTiling& t) {
    AscendC::Matmul<Half, Half, Float> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    static std::vector<half> small(100);
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer(small.data(), small.size());
    mm.SetTensorA(g);
    mm.SetTensorB(g);
    mm.Iterate();
  });
  EXPECT_NE(r.find("A reads 1024 elements past a tensor of 100"), std::string::npos) << r;
}

}  // namespace
