// What Fmod and Xor leave in their scratch on arch 2201 (Ascend910B1) and 2002 (Ascend310P1)
// against the replay of the kit's loops (replay_math_scratch_fmod_xor.h): the sharedTmpBuffer
// overloads and those that pop the stack buffer (the TPipe sized so that it leaves exactly the
// scratch's bytes), scratch sizes from the minimum to one chunk for every count and one no
// multiple of 32, counts 0, 1 and tails no multiple of the chunk or of a repeat, sources of
// exactly the count and longer (Fmod<half> clamps its chunk to src0's size), inputs with NaN,
// +-inf, +-0, subnormals and quotients past 2^31 (every binary16 pattern as Fmod<half>'s
// dividend). The whole scratch is compared after the call (the bytes the kit's code does not
// write keep their 0xa5 fill; two NaNs match, as in dst), dst bit for bit with the 40 elements
// past the count untouched, and both sources unchanged. And Power's float result on 2002
// (power_v200_impl.h's rounding through int32) against its replay, in the three forms.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "math_scratch_sweep.h"
#include "replay_math.h"
#include "replay_math_scratch_fmod_xor.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace sw = lngrad_replay::scratch_sweep;
using AscendC::LocalTensor;
using lngrad_replay::test::ExpectBitsEqual;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;
using lngrad_replay::test::OnBlock;
using lngrad_replay::test::Ub;

template <class T>
using Call =
    std::function<void(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                       const LocalTensor<uint8_t>& tmp, uint32_t count, bool stack)>;
// The replay on copies of the sources (src0's size: Fmod<half> clamps its chunk to it).
template <class T>
using ReplayFn = std::function<bool(const std::vector<T>& a, const std::vector<T>& b, T* dst,
                                    uint32_t n, uint8_t* scratch, uint32_t tmpBytes, bool is2002)>;

// n floats: magnitudes over many binades (so quotients reach 2^31 and beyond) with the specials
// at random places (about one in 20).
std::vector<float> Mixed(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> ex(-20, 40), pick(0, 199), sign(0, 1);
  const float sp[] = {0.0f, -0.0f, kInf, -kInf, kNan, 1e-40f, -1e-40f, 3e9f, -3e9f, 1.0f};
  std::vector<float> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    if (k < 10) {
      x = sp[k];
    } else {
      x = std::ldexp(mant(gen), ex(gen)) * (sign(gen) != 0 ? -1.0f : 1.0f);
    }
  }
  return v;
}

template <class T>
std::vector<T> Bits16(uint32_t start, uint32_t n, uint32_t stride) {
  std::vector<T> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    const auto bits = static_cast<uint16_t>(start + i * stride);
    std::memcpy(&v[i], &bits, 2);
  }
  return v;
}

// A binary API whose scratch holds words of E (Fmod: float, Xor: 16-bit words compared
// exactly): sources of the count, or kPast longer on every other case; make(seed, n): one source
// of n elements.
template <class T, class E>
sw::Case<T> BinaryCase(const std::string& api, uint32_t min, const Call<T>& call,
                       const ReplayFn<T>& replay,
                       const std::function<std::vector<T>(uint32_t, uint32_t)>& make = nullptr) {
  sw::Case<T> c;
  c.api = api;
  c.min = min;
  c.call = [call](const LocalTensor<T>& d, const std::vector<LocalTensor<T>>& s,
                  const LocalTensor<uint8_t>& t, uint32_t n,
                  bool stack) { call(d, s[0], s[1], t, n, stack); };
  c.replay = [replay](bool is2002, sw::Sources<T>& s, T* d, uint32_t n, uint8_t* sc, uint32_t b) {
    return replay(s[0], s[1], d, n, sc, b, is2002);
  };
  c.make = [make](uint32_t seed, uint32_t n) -> sw::Sources<T> {
    const uint32_t len = n + (seed % 2 == 0 ? 0 : sw::kPast);
    return {make(2 * seed, len), make(2 * seed + 1, len)};
  };
  c.check = [](const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
               const std::string& what) { sw::ExpectWords<E>(got, want, what); };
  return c;
}

// ---------------------------------------------------------------------------------------------

template <class T>
void CallFmod(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b,
              const LocalTensor<uint8_t>& t, uint32_t n, bool stack) {
  stack ? AscendC::Fmod<T, false>(d, a, b, n) : AscendC::Fmod<T, false>(d, a, b, t, n);
}

bool ReplayFmodFloat(const std::vector<float>& a, const std::vector<float>& b, float* dst,
                     uint32_t n, uint8_t* scratch, uint32_t tmpBytes, bool is2002) {
  return rp::ReplayFmodScratch(a.data(), b.data(), dst, n, scratch, tmpBytes, is2002);
}

bool ReplayFmodHalf(const std::vector<half>& a, const std::vector<half>& b, half* dst, uint32_t n,
                    uint8_t* scratch, uint32_t tmpBytes, bool is2002) {
  return rp::ReplayFmodScratch(reinterpret_cast<const rp::Half*>(a.data()),
                               reinterpret_cast<const rp::Half*>(b.data()),
                               reinterpret_cast<rp::Half*>(dst), n, static_cast<uint32_t>(a.size()),
                               scratch, tmpBytes, is2002);
}

TEST(MathScratchFmodXor, FmodFloat) {
  sw::Sweep(BinaryCase<float, float>("Fmod", 256, CallFmod<float>, ReplayFmodFloat, Mixed));
}

TEST(MathScratchFmodXor, FmodHalf) {
  const sw::Case<half> c = BinaryCase<half, float>(
      "Fmod", 2048, CallFmod<half>, ReplayFmodHalf,
      [](uint32_t seed, uint32_t n) { return Bits16<half>(seed * 7919u, n, 40503u); });
  sw::Sweep(c);
  // Every binary16 pattern as the dividend, on both socs, against divisors spread over the
  // patterns.
  for (const char* soc : sw::kSocs) {
    for (uint32_t start = 0; start < 65536; start += 8192) {
      sw::Compare<half>(soc, c,
                        {Bits16<half>(start, 8192, 1), Bits16<half>(start * 3u + 1u, 8192, 12345u)},
                        8192, 2048 + 96, false);
    }
  }
}

// Fmod's result on 2002 truncates the quotient through int32 (trunc_v200_impl.h): saturated
// beyond +-2^31, 0 for NaN, +0 for -0; 2201 truncates in float. The cases where they part.
TEST(MathScratchFmodXor, FmodTruncatesThroughInt32On2002) {
  const std::vector<float> a = {1e10f, -1e10f, kInf, -0.0f, -0.5f, 5.0f, 3e9f, 7.0f};
  const std::vector<float> b = {1.0f, 3.0f, 2.0f, 1.0f, 1.0f, 0.0f, 1.0f, 2.0f};
  for (const char* soc : sw::kSocs) {
    const bool is2002 = sw::Is2002(soc);
    std::vector<float> want(a.size());
    std::vector<uint8_t> scratch(256, sw::kFill);
    ASSERT_TRUE(
        rp::ReplayFmodScratch(a.data(), b.data(), want.data(), 8, scratch.data(), 256, is2002));
    // Worked by hand: 1e10 - 2147483648 on 2002 (0 on 2201), -0 - (+0) = -0 on 2002.
    EXPECT_EQ(want[0], is2002 ? 1e10f - 2147483648.0f : 0.0f) << soc;
    EXPECT_EQ(std::signbit(want[3]), is2002) << soc;
    sw::Compare<float>(
        soc, BinaryCase<float, float>("Fmod cases", 256, CallFmod<float>, ReplayFmodFloat), {a, b},
        8, 256, false);
  }
}

template <class T>
void CallXor(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b,
             const LocalTensor<uint8_t>& t, uint32_t n, bool stack) {
  stack ? AscendC::Xor<T, false>(d, a, b, n) : AscendC::Xor<T, false>(d, a, b, t, n);
}

template <class T>
bool ReplayXor(const std::vector<T>& a, const std::vector<T>& b, T* dst, uint32_t n,
               uint8_t* scratch, uint32_t tmpBytes, bool) {
  return rp::ReplayXorScratch(reinterpret_cast<const uint16_t*>(a.data()),
                              reinterpret_cast<const uint16_t*>(b.data()),
                              reinterpret_cast<uint16_t*>(dst), n, scratch, tmpBytes);
}

TEST(MathScratchFmodXor, Xor) {
  sw::Sweep(BinaryCase<int16_t, uint16_t>(
      "Xor", 256, CallXor<int16_t>, ReplayXor<int16_t>,
      [](uint32_t seed, uint32_t n) { return Bits16<int16_t>(seed * 2654435761u, n, 40503u); }));
  sw::Sweep(BinaryCase<uint16_t, uint16_t>(
      "Xor", 256, CallXor<uint16_t>, ReplayXor<uint16_t>,
      [](uint32_t seed, uint32_t n) { return Bits16<uint16_t>(seed * 97u, n, 31337u); }));
}

// Power<float> on one block of soc: x in buffer 0, y in 1, dst 2, tmp 3; form 0 tensor^tensor
// (sharedTmpBuffer), 1 the same from the stack buffer, 2 tensor^y[0], 3 x[0]^tensor.
std::vector<float> RunPower(const char* soc, const std::vector<float>& x,
                            const std::vector<float>& y, int form) {
  std::vector<float> out;
  const auto n = static_cast<uint32_t>(x.size());
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(0, x);
        ub.Put<float>(1, y);
        const LocalTensor<float> d = ub.Get<float>(2), a = ub.Get<float>(0), b = ub.Get<float>(1);
        const LocalTensor<uint8_t> t = ub.Get<uint8_t>(3);
        if (form == 0) AscendC::Power(d, a, b, t, n);
        if (form == 1) AscendC::Power(d, a, b, n);
        if (form == 2) AscendC::Power(d, a, y[0], t, n);
        if (form == 3) AscendC::Power(d, x[0], b, t, n);
        out = ub.Take<float>(2);
        out.resize(n);
      },
      soc);
  return out;
}

// Power's float exponents past 2^31 on 2002: CastFloat2Float (power_v200_impl.h) rounds |y|
// through int32, saturating at 2^31, so such a y is not integral there and a negative base
// gives NaN (2201: |x|^y). Every pair of a grid of bases and exponents, and random ones, in
// the three forms, against ReplayPowerFloat2002 on Ascend310P1 and ReplayPowerFloat on
// Ascend910B1.
TEST(MathScratchFmodXor, PowerFloatOn2002RoundsThroughInt32) {
  const float xs[] = {-2.0f, -1.0f, -0.5f, -0.0f, 0.0f,   0.5f,    1.0f,        2.0f,
                      -kInf, kInf,  kNan,  -3e9f, 1e-40f, -1e-40f, -1.0000001f, 3.0f};
  const float ys[] = {1e10f,         -1e10f, 2147483648.0f, -2147483648.0f, 2147483904.0f,
                      4294967296.0f, 3e9f,   16777218.0f,   3.0f,           -3.0f,
                      2.5f,          0.0f,   -0.0f,         kInf,           -kInf,
                      kNan,          1e-40f, 1e38f,         -1e38f,         2147483520.0f};
  std::vector<float> x, y;
  for (float a : xs) {
    for (float b : ys) {
      x.push_back(a);
      y.push_back(b);
    }
  }
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  std::uniform_int_distribution<int> e(-3, 40), sg(0, 1);
  while (x.size() < 1000) {
    x.push_back(std::ldexp(m(gen), e(gen) / 8) * (sg(gen) != 0 ? -1.0f : 1.0f));
    y.push_back(std::ldexp(std::floor(m(gen) * 64.0f), e(gen)) * (sg(gen) != 0 ? -1.0f : 1.0f));
  }
  // Worked by hand: (-2)^(1e10) is NaN on 2002, +inf on 2201.
  EXPECT_TRUE(std::isnan(rp::ReplayPowerFloat2002(-2.0f, 1e10f)));
  EXPECT_EQ(rp::ReplayPowerFloat(-2.0f, 1e10f), kInf);
  for (const char* soc : sw::kSocs) {
    const bool is2002 = sw::Is2002(soc);
    const auto one = [is2002](float a, float b) {
      return is2002 ? rp::ReplayPowerFloat2002(a, b) : rp::ReplayPowerFloat(a, b);
    };
    for (int form = 0; form < 4; ++form) {
      std::vector<float> want(x.size());
      for (size_t i = 0; i < x.size(); ++i) {
        want[i] = one(form == 3 ? x[0] : x[i], form == 2 ? y[0] : y[i]);
      }
      ExpectBitsEqual(RunPower(soc, x, y, form).data(), want.data(), x.size(),
                      std::string("Power<float> form ") + std::to_string(form) + " on " + soc,
                      y.data());
    }
  }
}

}  // namespace
