// Power<float> on arch 2201 (Ascend910B1) and 2002 (Ascend310P1) against the replay of the
// kit's sequence (replay_math_scratch_power.h): tensor^tensor, tensor^scalar and scalar^tensor,
// the sharedTmpBuffer overload and the one that pops the stack buffer (the TPipe sized so that
// it leaves exactly the scratch's bytes), scratch sizes from the tiling minimum up (one no
// multiple of 32, a large one), counts 0, 1, tails no multiple of the chunk or of a repeat and a
// few thousand, inputs with NaN, +-inf, +-0, subnormals, +-1, integers and values past int32.
// dst is compared bit for bit (two NaNs match) with the elements past the count (the sentinel),
// the sources, and the whole scratch (bytes the kit's code does not write keep their 0xa5
// fill; the Compares' lanes past the count read the sources' following elements).
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "math_scratch_sweep.h"
#include "replay_math_scratch_power.h"
#include "replay_power_int.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace sw = lngrad_replay::scratch_sweep;
using AscendC::LocalTensor;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;

constexpr uint32_t kPast = 128;  // dst and source elements past the count (covers a repeat)

// n values: most in [-8, 8) and integers in [-9, 9], specials at random places.
std::vector<float> Mixed(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-8.0f, 8.0f);
  std::uniform_int_distribution<int> whole(-9, 9);
  std::uniform_int_distribution<int> pick(0, 99);
  const float sp[] = {0.0f,  -0.0f,          kInf,  -kInf,  kNan,  1e-40f, -1e-40f,
                      1.0f,  -1.0f,          0.5f,  -0.5f,  2.5f,  3e9f,   -3e9f,
                      1e-9f, -2147483648.0f, 3e38f, -3e38f, 1e-8f, 4.5e9f};
  constexpr int kSp = sizeof(sp) / sizeof(sp[0]);
  std::vector<float> v(n);
  for (auto& e : v) {
    const int k = pick(gen);
    e = k < kSp ? sp[k] : (k < 60 ? static_cast<float>(whole(gen)) : u(gen));
  }
  return v;
}

std::vector<half> Halves(uint32_t seed, size_t n, bool every) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> bits(0, 65535);
  std::uniform_int_distribution<int> small(-6, 6);
  std::vector<half> v(n);
  for (size_t i = 0; i < n; ++i) {
    const int k = static_cast<int>(gen() % 4);
    uint16_t b = every ? static_cast<uint16_t>(seed * 4099u + i) : static_cast<uint16_t>(bits(gen));
    if (!every && k == 0) {  // small integers, so that the sign and parity paths are taken
      const half h(static_cast<float>(small(gen)));
      std::memcpy(&b, &h, 2);
    }
    std::memcpy(&v[i], &b, 2);
  }
  return v;
}

// Power<T> in form 0: x ^ y, 1: x ^ y[0], 2: x[0] ^ y; sources x and y.
template <class T>
void CallPower(int form, const LocalTensor<T>& d, const std::vector<LocalTensor<T>>& s,
               const LocalTensor<uint8_t>& t, uint32_t n, bool stack) {
  const LocalTensor<T>&x = s[0], &y = s[1];
  if (form == 0) {
    stack ? AscendC::Power<T>(d, x, y, n) : AscendC::Power<T>(d, x, y, t, n);
  } else if (form == 1) {
    const T b = y.HostPtr()[0];
    stack ? AscendC::Power<T>(d, x, b, n) : AscendC::Power<T>(d, x, b, t, n);
  } else {
    const T a = x.HostPtr()[0];
    stack ? AscendC::Power<T>(d, a, y, n) : AscendC::Power<T>(d, a, y, t, n);
  }
}

// Power<T> in `form` (GetPowerMaxMinTmpSize's minimum on 2201): sources from the seed (float:
// Mixed, half: every pattern in turn as x, random ones as y, swapped for form 2), kPast source
// and dst elements past the count, the sizes of sw::SizesWide.
template <class T>
sw::Case<T> PowerCase(int form) {
  sw::Case<T> c;
  c.api = "Power form " + std::to_string(form);
  c.call = [form](const LocalTensor<T>& d, const std::vector<LocalTensor<T>>& s,
                  const LocalTensor<uint8_t>& t, uint32_t n,
                  bool stack) { CallPower<T>(form, d, s, t, n, stack); };
  c.replay = [form](bool is2002, sw::Sources<T>& s, T* dst, uint32_t n, uint8_t* sc, uint32_t b) {
    if constexpr (sizeof(T) == 2) {
      return rp::ReplayPowerHalfScratch(is2002, form,
                                        reinterpret_cast<const rp::Half*>(s[0].data()),
                                        reinterpret_cast<const rp::Half*>(s[1].data()),
                                        reinterpret_cast<rp::Half*>(dst), n, sc, b);
    } else {
      return rp::ReplayPowerFloatScratch(is2002, form, s[0].data(), s[1].data(), dst, n, sc, b);
    }
  };
  c.make = [form](uint32_t seed, uint32_t n) -> sw::Sources<T> {
    static_cast<void>(form);  // half only
    if constexpr (sizeof(T) == 2) {
      std::vector<half> x = Halves(seed, n + kPast, true),
                        y = Halves(seed * 7 + 3, n + kPast, false);
      if (form == 2) std::swap(x, y);
      return {x, y};
    } else {
      return {Mixed(seed, n + kPast), Mixed(seed * 31 + 5, n + kPast)};
    }
  };
  c.min = sizeof(T) == 2 ? 2048 : (form == 0 ? 1280 : 1536);
  c.sizes = sw::SizesWide;
  c.dstPast = kPast;
  c.srcPast = kPast;
  c.seed = sizeof(T) == 2 ? 17 + 100 * static_cast<uint32_t>(form)
                          : 7 + 1000 * static_cast<uint32_t>(form);
  return c;
}

TEST(MathScratchPower, PowerFloatTensorTensor) { sw::Sweep(PowerCase<float>(0)); }
TEST(MathScratchPower, PowerFloatTensorScalar) { sw::Sweep(PowerCase<float>(1)); }
TEST(MathScratchPower, PowerFloatScalarTensor) { sw::Sweep(PowerCase<float>(2)); }

// Every special as the scalar, against every special and a few ordinary values in the tensor.
TEST(MathScratchPower, PowerFloatScalarSpecials) {
  const std::vector<float> sp = {0.0f,  -0.0f, kInf,  -kInf, kNan, 1e-40f, -1e-40f,       1.0f,
                                 -1.0f, 2.0f,  -3.0f, 0.5f,  3e9f, -3e9f,  -2147483648.0f};
  std::vector<float> t = Mixed(99, 333 + kPast);
  for (size_t i = 0; i < sp.size(); ++i) t[i] = sp[i];
  for (const char* soc : sw::kSocs) {
    for (float s : sp) {
      std::vector<float> one(t.size(), s);
      sw::Compare<float>(soc, PowerCase<float>(1), {t, one}, 333, 1536 + 44, false);
      sw::Compare<float>(soc, PowerCase<float>(2), {one, t}, 333, 1536, true);
    }
  }
}

// Power<half>: the same comparison with binary16 sources.
TEST(MathScratchPower, PowerHalfTensorTensor) { sw::Sweep(PowerCase<half>(0)); }
TEST(MathScratchPower, PowerHalfTensorScalar) { sw::Sweep(PowerCase<half>(1)); }
TEST(MathScratchPower, PowerHalfScalarTensor) { sw::Sweep(PowerCase<half>(2)); }

// Every binary16 pattern as the tensor operand (four slices of 16384), on both socs.
TEST(MathScratchPower, PowerHalfEveryPattern) {
  constexpr uint32_t kSlice = 16384;
  for (const char* soc : sw::kSocs) {
    for (uint32_t start = 0; start < 65536; start += kSlice) {
      const std::vector<half> x = sw::AllHalves(start, kSlice + kPast);
      const std::vector<half> y = Halves(start + 5, x.size(), false);
      sw::Compare<half>(soc, PowerCase<half>(0), {x, y}, kSlice, 49152, false);
      sw::Compare<half>(soc, PowerCase<half>(0), {y, x}, kSlice, 20000, false);
      sw::Compare<half>(soc, PowerCase<half>(1), {x, std::vector<half>(x.size(), half(-3.0f))},
                        kSlice, 2048 + 44, false);
      sw::Compare<half>(soc, PowerCase<half>(2), {std::vector<half>(x.size(), half(-2.0f)), x},
                        kSlice, 2048, false);
    }
  }
}

// Power<int32_t> on 2002 halves the exponent through float (power_v200_impl.h's
// ShiftRightOneBit): an exponent just below 2^k (k >= 26) rounds up to 2^k, the squarings pass
// it and the remainder loop runs about 2^32 rounds; |y| = 2^31 never halves to 0. Checked mode
// refuses those exponents (power_exponent) on 2002 (2201 halves in int32: only INT_MIN, below);
// the others give the replay's x^|y|. Exponents 2^k + d around every power of two, their
// negations, random ones; tensor^tensor, tensor^scalar and scalar^tensor.
std::pair<std::string, std::vector<int32_t>> RunPowerInt(const char* soc, int form,
                                                         const std::vector<int32_t>& x, int32_t y) {
  std::pair<std::string, std::vector<int32_t>> r;
  const auto n = static_cast<uint32_t>(x.size());
  lngrad_replay::test::OnBlock(
      [&](lngrad_replay::test::Ub& ub) {
        ub.Put<int32_t>(0, x);
        ub.Put<int32_t>(1, std::vector<int32_t>(n, y));
        const LocalTensor<int32_t> d = ub.Get<int32_t>(2), a = ub.Get<int32_t>(0),
                                   b = ub.Get<int32_t>(1);
        const LocalTensor<uint8_t> t = ub.Get<uint8_t>(3);
        try {
          if (form == 0) AscendC::Power(d, a, b, t, n);
          if (form == 1) AscendC::Power(d, a, y, t, n);
          if (form == 2) AscendC::Power(d, x[0], b, t, n);
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          r.first = e.check();
        }
        r.second = ub.Take<int32_t>(2);
        r.second.resize(n);
      },
      soc);
  return r;
}

TEST(MathScratchPower, PowerInt2002RefusesExponentsItsHalvingsOvershoot) {
  // Worked by hand: 2^26 - 2 is a tie between 2^26 - 4 and 2^26 in float and goes to 2^26;
  // 2^26 - 4 and 2^25 - 2 are exact.
  EXPECT_EQ(rp::ReplayPowerIntHalve2002((1 << 26) - 2), 1 << 25);
  EXPECT_FALSE(rp::ReplayPowerInt2002Ends((1 << 26) - 2));
  EXPECT_TRUE(rp::ReplayPowerInt2002Ends((1 << 26) - 4));
  EXPECT_TRUE(rp::ReplayPowerInt2002Ends((1 << 25) - 1));
  EXPECT_FALSE(rp::ReplayPowerInt2002Ends(INT_MIN));
  EXPECT_FALSE(rp::ReplayPowerInt2002Ends(INT_MAX));
  std::vector<int32_t> ys = {0, 1, -1, INT_MAX, INT_MIN, INT_MIN + 1};
  for (int k = 0; k < 31; ++k) {
    for (int d = -4; d <= 4; ++d) {
      const int64_t v = (int64_t{1} << k) + d;
      if (v < 0 || v > INT_MAX) continue;
      ys.push_back(static_cast<int32_t>(v));
      ys.push_back(static_cast<int32_t>(-v));
    }
  }
  std::mt19937 gen(11);
  for (int i = 0; i < 40; ++i) ys.push_back(static_cast<int32_t>(gen()));
  const std::vector<int32_t> x = {3, -3, 2, -1, 1, 0, 5, 7, -2, 65537, 1 << 16, -7};
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  int refused = 0;
  for (const char* soc : sw::kSocs) {
    const bool is2002 = sw::Is2002(soc);
    for (const int32_t y : ys) {
      // INT_MIN: refused on both (PowerInt32MinExponentIsRefusedOn2201).
      const bool ends = y != INT_MIN && (!is2002 || rp::ReplayPowerInt2002Ends(y));
      for (int form = 0; form < 3; ++form) {
        const auto got = RunPowerInt(soc, form, x, y);
        const std::string what =
            std::string(soc) + " form " + std::to_string(form) + " y " + std::to_string(y);
        EXPECT_EQ(got.first, ends ? "" : "power_exponent") << what;
        if (!ends) {
          ++refused;
          continue;
        }
        for (size_t i = 0; i < x.size(); ++i) {
          ASSERT_EQ(got.second[i], rp::ReplayPowerInt(form == 2 ? x[0] : x[i], y))
              << what << " x " << x[i];
        }
      }
    }
  }
  EXPECT_GT(refused, 30);
  lngrad::aicore::SetCheckedMode(was);
}

// On 2201 the exponent INT_MIN stays INT_MIN through the Muls by -1, its arithmetic halvings
// (ShiftRight on int32) reach -1 and stay there, so the float sum of the exponents never reaches
// 0 (unless the others' cancel it): checked mode refuses it (power_exponent), in every form.
TEST(MathScratchPower, PowerInt32MinExponentIsRefusedOn2201) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  const std::vector<int32_t> x = {3, -3, 2, -1, 1, 0, 5, 7};
  for (int form = 0; form < 3; ++form) {
    EXPECT_EQ(RunPowerInt(sw::kSocs[0], form, x, INT_MIN).first, "power_exponent") << form;
    EXPECT_EQ(RunPowerInt(sw::kSocs[0], form, x, INT_MIN + 1).first, "") << form;
  }
  lngrad::aicore::SetCheckedMode(was);
}

}  // namespace
