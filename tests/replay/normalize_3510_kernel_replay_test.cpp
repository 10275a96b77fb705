// AscendC::Normalize on the 950 (Ascend950PR_9589, arch 3510) run as a kernel and compared bit for
// bit with ReplayNormalize3510 (replay_normalize.h, the replay of normalize_3510_impl.h:
// RsqrtUtil's Div, Sqrt and fused steps, (x − mean)·rstd, FusedMulDstAdd with gamma and beta or the
// separate Mul / Add of NLCFG_NOBETA / NLCFG_NOGAMMA, the half store rounded to nearest even
// without saturation, rLength columns of each padded row): every config, T/U float/float, half/half
// and half/float, an odd and an even aLength (the source's row pairs and its last row), variances
// that make var + ε zero, negative, subnormal, infinite or NaN, inputs with NaN, ±inf, ±0 and
// subnormals, ε 0 and 1e-5. rstd, the output (its padding untouched) and the kept inputs. Also
// the bfloat16 forms and isReuseSource = true (session 14).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "activation_replay_test_util.h"
#include "kernel_operator.h"
#include "replay_normalize.h"

namespace {

using namespace activation_replay_test;  // NOLINT(google-build-using-namespace)
using AscendC::LocalTensor;
using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::Ub;

constexpr const char* kSoc = "Ascend950PR_9589";
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct ArCase {
  uint32_t a, r, rPad;
};

// got equals want bit for bit, a NaN matching any NaN.
template <class T>
void ExpectSame(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    const bool bothNan = std::isnan(Value(got[i])) && std::isnan(Value(want[i]));
    if (BitsOf(got[i]) != BitsOf(want[i]) && !bothNan) {
      ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad " << Value(got[i]) << " (0x"
                    << std::hex << BitsOf(got[i]) << "), replay " << std::dec << Value(want[i])
                    << " (0x" << std::hex << BitsOf(want[i]) << ")";
      return;
    }
  }
}

// Variances: the special ones first (var + 1e-5 = 0, negative, subnormal, zero of both signs,
// infinite, NaN, huge), then uniform in [0, 40).
std::vector<float> Variances(uint32_t seed, uint32_t a) {
  static const float kSpecial[] = {-1e-5f, -3.0f, 1e-40f, 0.0f, -0.0f, kInf, kNaN, 3e38f, 1e-30f};
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(0.0f, 40.0f);
  std::vector<float> v(a);
  for (uint32_t j = 0; j < a; ++j) v[j] = j % 3 == 1 ? kSpecial[(seed + j) % 9] : d(gen);
  return v;
}

std::vector<float> Means(uint32_t seed, uint32_t a) {
  static const float kSpecial[] = {0.0f, -0.0f, kInf, -kInf, kNaN, 1e-40f, 65504.0f};
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-5.0f, 5.0f);
  std::vector<float> v(a);
  for (uint32_t j = 0; j < a; ++j) v[j] = j % 4 == 2 ? kSpecial[(seed + j) % 7] : d(gen);
  return v;
}

// Operands in a block of the 950: output in buffer 0, x in 1, gamma and beta in halves of 2,
// mean, variance and rstd in thirds of 3, the scratch a pipe buffer of its own.
template <class T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, half>) return "half";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
  return "float";
}

// reuse: isReuseSource true, which normalize_3510_impl.h takes and ignores (x stays as it was).
// paraA: para.aLength when not c.a (the device keeps it in 16 bits: c.a is what it runs).
// memcmp's operands must not be null even for 0 bytes (an empty vector's data() may be).
bool SameBytes(const void* a, const void* b, size_t n) {
  return n == 0 || std::memcmp(a, b, n) == 0;
}

template <class U, class T, const AscendC::NormalizeConfig& C>
void CheckCase(const ArCase& c, float eps, uint32_t seed, bool reuse = false, uint32_t paraA = 0) {
  const uint32_t rows = c.a * c.rPad;
  const std::vector<T> x = Inputs<T>(seed, rows, 8.0f);
  const std::vector<U> gamma = Inputs<U>(seed + 1, c.r, 3.0f);
  const std::vector<U> beta = Inputs<U>(seed + 2, c.r, 3.0f);
  const std::vector<float> mean = Means(seed + 3, c.a);
  const std::vector<float> var = Variances(seed + 4, c.a);
  constexpr uint32_t kThird = kUbBufBytes / 4 / 3 / 8 * 8;  // floats, 32-byte aligned
  constexpr uint32_t kHalfU = kUbBufBytes / sizeof(U) / 2;
  std::vector<T> out;
  std::vector<float> stats;
  std::vector<T> xAfter;
  std::vector<U> gb;
  lngrad::aicore::test::OnBlock(
      [&](Ub& ub) {
        AscendC::TBuf<> tmpBuf;
        ub.pipe.InitBuffer(tmpBuf, 1024);
        ub.Put<T>(0, {}, Sentinel<T>());
        ub.Put<T>(1, x, Sentinel<T>());
        std::vector<U> gbIn(kUbBufBytes / sizeof(U), Make<U>(-7.25f));
        std::copy(gamma.begin(), gamma.end(), gbIn.begin());
        std::copy(beta.begin(), beta.end(), gbIn.begin() + kHalfU);
        ub.Put<U>(2, gbIn);
        std::vector<float> st(kUbBufBytes / 4, -7.25f);
        std::copy(mean.begin(), mean.end(), st.begin());
        std::copy(var.begin(), var.end(), st.begin() + kThird);
        ub.Put<float>(3, st);
        LocalTensor<T> output = ub.Get<T>(0);
        output.SetSize(std::max(rows, c.rPad));  // a row at least: 0 elements is refused
        LocalTensor<T> inputX = ub.Get<T>(1);
        inputX.SetSize(std::max(rows, c.rPad));
        LocalTensor<U> g = ub.Get<U>(2);
        LocalTensor<U> b = g[kHalfU];
        g.SetSize(kHalfU);
        b.SetSize(kHalfU);
        LocalTensor<float> s = ub.Get<float>(3);
        LocalTensor<float> m = s, v = s[kThird], r = s[2 * kThird];
        m.SetSize(kThird);
        v.SetSize(kThird);
        r.SetSize(kThird);
        const AscendC::NormalizePara para{paraA != 0 ? paraA : c.a, c.r, c.rPad};
        if (reuse) {
          AscendC::Normalize<U, T, true, C>(output, r, m, v, inputX, g, b, tmpBuf.Get<uint8_t>(),
                                            eps, para);
        } else {
          AscendC::Normalize<U, T, false, C>(output, r, m, v, inputX, g, b, tmpBuf.Get<uint8_t>(),
                                             eps, para);
        }
        out = ub.Take<T>(0);
        xAfter = ub.Take<T>(1);
        gb = ub.Take<U>(2);
        stats = ub.Take<float>(3);
      },
      kSoc);
  std::vector<T> want(kUbBufBytes / sizeof(T), Sentinel<T>());
  std::vector<float> rstd(kThird, -7.25f);
  const rp::ArPara p{c.a, c.r, c.rPad, C.isNoGamma, C.isNoBeta};
  rp::ReplayNormalize3510(p, mean.data(), var.data(), reinterpret_cast<const R<T>*>(x.data()),
                          reinterpret_cast<const R<U>*>(gamma.data()),
                          reinterpret_cast<const R<U>*>(beta.data()), eps,
                          reinterpret_cast<R<T>*>(want.data()), rstd.data());
  const std::string what = std::string("Normalize<") + TypeName<U>() + ", " + TypeName<T>() +
                           (reuse ? ", true" : "") + "> noGamma " + std::to_string(C.isNoGamma) +
                           " noBeta " + std::to_string(C.isNoBeta) + " A " + std::to_string(c.a) +
                           " R " + std::to_string(c.r) + " pad " + std::to_string(c.rPad) +
                           " eps " + std::to_string(eps);
  ASSERT_EQ(stats.size(), kUbBufBytes / 4) << what;
  ExpectSame(out, want, what + " output");
  ExpectSame(std::vector<float>(stats.begin() + 2 * kThird, stats.begin() + 3 * kThird), rstd,
             what + " rstd");
  EXPECT_TRUE(SameBytes(stats.data(), mean.data(), c.a * 4)) << what << " mean changed";
  EXPECT_TRUE(SameBytes(stats.data() + kThird, var.data(), c.a * 4)) << what << " var changed";
  EXPECT_TRUE(SameBytes(xAfter.data(), x.data(), rows * sizeof(T))) << what << " x changed";
  EXPECT_TRUE(SameBytes(gb.data(), gamma.data(), c.r * sizeof(U))) << what;
  EXPECT_TRUE(SameBytes(gb.data() + kHalfU, beta.data(), c.r * sizeof(U))) << what;
}

template <class U, class T>
void CheckTypes(uint32_t unit, bool reuse = false) {
  // rPad: r rounded up to 32 bytes of T, and once more.
  const auto pad = [unit](uint32_t r, uint32_t more) {
    return (r + unit - 1) / unit * unit + more;
  };
  const ArCase cases[] = {{1, 8, pad(8, 0)},      {3, 20, pad(20, unit)}, {8, 64, pad(64, 0)},
                          {5, 100, pad(100, 0)},  {7, 33, pad(33, 0)},    {4, 200, pad(200, unit)},
                          {9, 1000, pad(1000, 0)}};
  uint32_t seed = 900 + unit;
  for (const ArCase& c : cases) {
    for (float eps : {1e-5f, 0.0f}) {
      CheckCase<U, T, AscendC::NLCFG_NORM>(c, eps, ++seed, reuse);
      CheckCase<U, T, AscendC::NLCFG_NOBETA>(c, eps, ++seed, reuse);
      CheckCase<U, T, AscendC::NLCFG_NOGAMMA>(c, eps, ++seed, reuse);
      CheckCase<U, T, AscendC::NLCFG_NOOPT>(c, eps, ++seed, reuse);
    }
  }
}

TEST(NormalizeReplay3510, FloatBitwise) { CheckTypes<float, float>(8); }
TEST(NormalizeReplay3510, HalfBitwise) { CheckTypes<half, half>(16); }
TEST(NormalizeReplay3510, HalfWithFloatGammaBitwise) { CheckTypes<float, half>(16); }
// Session 14 (helper aqn): the 950's bfloat16 forms (T bfloat16_t, U bfloat16_t or float; the
// Cast to bfloat16 rounds to nearest even without saturation), and isReuseSource = true, which
// the 3510 code ignores.
TEST(NormalizeReplay3510, Bf16Bitwise) { CheckTypes<bfloat16_t, bfloat16_t>(16); }
TEST(NormalizeReplay3510, Bf16WithFloatGammaBitwise) { CheckTypes<float, bfloat16_t>(16); }
TEST(NormalizeReplay3510, ReuseSourceIsIgnored) {
  CheckTypes<float, float>(8, true);
  CheckTypes<half, half>(16, true);
  CheckTypes<bfloat16_t, bfloat16_t>(16, true);
}

// Session 15 (helper aqn2): NormalizeImpl casts para.aLength to uint16_t and NormalizeVFImpl
// runs its row loops on that: past 65535 the device runs aLength mod 65536 rows (the pairs and
// the odd last row of that count). Unchecked mode follows it; checked mode refuses such an
// aLength ("Normalize.para": the kit neither asserts nor limits it).
TEST(NormalizeReplay3510, ALengthPast65535RunsItsLow16Bits) {
  lngrad::aicore::test::CheckedModeScope unchecked(false);
  CheckCase<float, float, AscendC::NLCFG_NORM>({3, 20, 24}, 1e-5f, 2001, false, 65536 + 3);
  CheckCase<half, half, AscendC::NLCFG_NOBETA>({4, 33, 48}, 1e-5f, 2002, false, 2 * 65536 + 4);
  CheckCase<float, bfloat16_t, AscendC::NLCFG_NORM>({5, 40, 48}, 0.0f, 2003, false, 65536 + 5);
}

TEST(NormalizeReplay3510, CheckedModeRefusesALengthPast65535) {
  lngrad::aicore::test::CheckedModeScope checked(true);
  auto run = [](uint32_t a) {
    return lngrad::aicore::test::CheckOf(
        [a](Ub& ub) {
          AscendC::TBuf<> tmpBuf;
          ub.pipe.InitBuffer(tmpBuf, 1024);
          LocalTensor<float> s = ub.Get<float>(3);
          LocalTensor<float> m = s, v = s[1024], r = s[2048];
          m.SetSize(1024);
          v.SetSize(1024);
          r.SetSize(1024);
          LocalTensor<float> g = ub.Get<float>(2), b = g[64];
          g.SetSize(64);
          b.SetSize(64);
          AscendC::Normalize<float, float>(ub.Get<float>(0), r, m, v, ub.Get<float>(1), g, b,
                                           tmpBuf.Get<uint8_t>(), 1e-5f, {a, 8, 8});
        },
        kSoc);
  };
  const auto big = run(65536 + 3);
  EXPECT_EQ(big.first, "Normalize.para") << big.second;
  EXPECT_NE(big.second.find("keeps it in 16 bits"), std::string::npos) << big.second;
  EXPECT_NE(big.second.find("would run 3 rows"), std::string::npos) << big.second;
  EXPECT_EQ(run(3).first, "");
  // A multiple of 65536 (0 rows on the device) is refused the same; para.aLength 0, which the
  // kit does not assert, runs (nothing).
  const auto zero = run(2 * 65536);
  EXPECT_EQ(zero.first, "Normalize.para") << zero.second;
  EXPECT_NE(zero.second.find("would run 0 rows"), std::string::npos) << zero.second;
  EXPECT_EQ(run(0).first, "");
}

// Session 16 (helper aqn3): a 16-bit aLength of 0 (para.aLength a multiple of 65536 unchecked,
// or 0 in either mode): NormalizeVFImpl's halfA and tailARepeatTimes are 0, no loop runs, so
// the device reads and writes nothing (lngrad had raised "aLength 0"). The replay of 0 rows:
// output, rstd and every input as they were.
TEST(NormalizeReplay3510, ALengthOf0In16BitsTouchesNothing) {
  {
    lngrad::aicore::test::CheckedModeScope unchecked(false);
    CheckCase<float, float, AscendC::NLCFG_NORM>({0, 20, 24}, 1e-5f, 2011, false, 65536);
    CheckCase<half, half, AscendC::NLCFG_NOBETA>({0, 33, 48}, 1e-5f, 2012, false, 2 * 65536);
    CheckCase<float, bfloat16_t, AscendC::NLCFG_NORM>({0, 40, 48}, 0.0f, 2013, false, 3 * 65536);
    CheckCase<half, half, AscendC::NLCFG_NORM>({0, 33, 48}, 1e-5f, 2014);
  }
  lngrad::aicore::test::CheckedModeScope checked(true);
  CheckCase<float, float, AscendC::NLCFG_NOGAMMA>({0, 20, 24}, 1e-5f, 2015);
}

// Session 16 (helper aqn4): rLength 0 on the 950. normalize_3510_impl.h asserts no rLength
// (its kernel check, normalize_check_aicore.h, is empty) and CeilDivision(0, 64) gives no column
// repeat, while the rstd loops run over every row: the device writes rstd and nothing else
// (lngrad had raised "para.rLength = 0 must be greater than 0"). Against the replay: rstd bit
// for bit, output's sentinels, x, gamma, beta, mean and variance unchanged; both modes.
TEST(NormalizeReplay3510, RLengthOf0WritesOnlyRstd) {
  {
    lngrad::aicore::test::CheckedModeScope unchecked(false);
    CheckCase<float, float, AscendC::NLCFG_NORM>({5, 0, 8}, 1e-5f, 2021);
    CheckCase<half, half, AscendC::NLCFG_NOBETA>({4, 0, 16}, 0.0f, 2022);
    CheckCase<float, bfloat16_t, AscendC::NLCFG_NOGAMMA>({3, 0, 32}, 1e-5f, 2023, false, 65536 + 3);
  }
  lngrad::aicore::test::CheckedModeScope checked(true);
  CheckCase<float, float, AscendC::NLCFG_NOGAMMA>({7, 0, 8}, 1e-5f, 2024);
  CheckCase<half, half, AscendC::NLCFG_NORM>({1, 0, 16}, 1e-5f, 2025);
  CheckCase<float, half, AscendC::NLCFG_NOBETA>({6, 0, 16}, 0.0f, 2026);
  CheckCase<bfloat16_t, bfloat16_t, AscendC::NLCFG_NORM>({2, 0, 16}, 1e-5f, 2027);
}

}  // namespace
