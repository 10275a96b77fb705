// Lgamma on arch 2201 (Ascend910B1) and 2002 (Ascend310P1) against the replay of the kit's
// sequence (replay_math_scratch_lgamma.h): the sharedTmpBuffer overload and the one that pops
// the stack buffer (the TPipe sized so that it leaves exactly the scratch's bytes), half and
// float with and without isReuseSource, scratch sizes from the tiling minimum up (one no
// multiple of 32), counts 0, 1, tails no multiple of the chunk or of a repeat and a few
// thousand, inputs with NaN, +-inf, +-0, subnormals, negative integers and values past int32
// (every binary16 pattern for half). dst is compared bit for bit (two NaNs match) with the
// elements past the count (the sentinel), and the source as the kit leaves it (float
// isReuseSource: the zero scalar written at its base each round), and the whole scratch (the
// bytes the kit's code does not write keep their 0xa5 fill).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "math_scratch_sweep.h"
#include "replay_math_scratch_lgamma.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace sw = lngrad_replay::scratch_sweep;
using AscendC::LocalTensor;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;
using sw::R;

constexpr uint32_t kPast = 128;  // dst and src elements past the count (covers a repeat)

// n values, most in [-40, 40) (every interval of |x|), the specials at random places.
std::vector<float> Mixed(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-40.0f, 40.0f);
  std::uniform_real_distribution<float> wide(-1e12f, 1e12f);
  std::uniform_int_distribution<int> pick(0, 299);
  const float sp[] = {0.0f,   -0.0f,   kInf,    -kInf,  kNan,   1e-40f,         -1e-40f,
                      -3.0f,  -4.0f,   -0.5f,   -2.5f,  0.7f,   1.5f,           5.8f,
                      1e-20f, -1e-20f, -1e-19f, 3e9f,   -3e9f,  -2147483648.0f, -1.5e9f,
                      -1e30f, 1e30f,   3e38f,   -3e38f, -7.25f, 2.0f,           1.0f};
  constexpr int kSp = sizeof(sp) / sizeof(sp[0]);
  std::vector<float> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    x = k < kSp ? sp[k] : (k < kSp + 20 ? wide(gen) : u(gen));
  }
  return v;
}

template <class T, bool kReuse>
void CallLgamma(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
                uint32_t n, bool stack) {
  stack ? AscendC::Lgamma<T, kReuse>(d, s, n) : AscendC::Lgamma<T, kReuse>(d, s, t, n);
}

// Lgamma<T, kReuse>: float inputs Mixed, half ones every binary16 pattern from a place the seed
// picks, kPast source and dst elements past the count, the sizes of sw::SizesWide.
template <class T, bool kReuse>
sw::Case<T> LgammaCase(uint32_t min) {
  sw::Case<T> c = sw::UnaryCase<T>(
      kReuse ? "Lgamma reuse" : "Lgamma", min, CallLgamma<T, kReuse>,
      [](bool is2002, R<T>* src, R<T>* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
        if constexpr (sizeof(T) == 2) {
          return rp::ReplayLgammaScratch(is2002, src, dst, n, scratch, tmpBytes);
        } else {
          return rp::ReplayLgammaScratch(is2002, kReuse, src, dst, n, scratch, tmpBytes);
        }
      },
      Mixed, kPast);
  c.dstPast = kPast;
  c.sizes = sw::SizesWide;
  c.seed = kReuse ? 1000 : 1;
  return c;
}

TEST(MathScratchLgamma, Float) { sw::Sweep(LgammaCase<float, false>(2048)); }

TEST(MathScratchLgamma, FloatReuseSource) { sw::Sweep(LgammaCase<float, true>(1792)); }

TEST(MathScratchLgamma, Half) { sw::Sweep(LgammaCase<half, false>(6656)); }

// The specials cycled through every round (so the last one, whose values stay in the scratch,
// holds them too): +-inf (2002's floor saturates through int32), NaN, +-0, subnormals, +-65504,
// negative integers and halves.
TEST(MathScratchLgamma, HalfSpecialsInEveryRound) {
  const uint16_t sp[] = {0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x0000, 0x8000, 0x0001,
                         0x8001, 0x7bff, 0xfbff, 0xc400, 0xc500, 0xb800, 0x3c00,
                         0x4000, 0xc0a0, 0x03ff, 0x83ff, 0x3555, 0xd640};
  const sw::Case<half> c = LgammaCase<half, false>(6656);
  for (const uint32_t n : {1u, 20u, 37u, 300u, 1000u}) {
    std::vector<half> in(n + kPast);
    for (size_t i = 0; i < in.size(); ++i) std::memcpy(&in[i], &sp[i % 20], 2);
    for (const char* soc : sw::kSocs) {
      for (bool stack : {false, true}) sw::Compare<half>(soc, c, {in}, n, 6656, stack);
    }
  }
}

// Every binary16 pattern on both socs.
TEST(MathScratchLgamma, HalfEveryPattern) { sw::EveryPattern(LgammaCase<half, false>(6656)); }

}  // namespace
