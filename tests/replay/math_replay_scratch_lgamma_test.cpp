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

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "math_replay_test_util.h"
#include "replay_math_scratch_lgamma.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using lngrad_replay::test::IsNan;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;

constexpr uint8_t kFill = 0xa5;
constexpr uint32_t kPast = 128;  // dst and src elements past the count (covers a repeat)
const char* const kSocs[] = {"Ascend910B1", "Ascend310P1"};

template <class T>
T Sentinel() {
  const uint32_t bits = sizeof(T) == 2 ? 0x5a5bu : 0x5a5b5c5du;
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

template <class T>
using R = std::conditional_t<sizeof(T) == 2, rp::Half, float>;

struct Got {
  std::vector<uint8_t> dst, src, tmp;
};

template <class T>
std::vector<uint8_t> BytesOf(const T* p, size_t n) {
  const auto* b = reinterpret_cast<const uint8_t*>(p);
  return std::vector<uint8_t>(b, b + n * sizeof(T));
}

template <class T, bool kReuse>
Got RunKernel(const char* soc, const std::vector<T>& in, uint32_t count, uint32_t tmpBytes,
              bool stack) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bt, filler;
    const uint32_t ns = static_cast<uint32_t>(in.size());
    pipe.InitBuffer(bs, Aligned32(ns * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(ns * sizeof(T)));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<T> s = bs.Get<T>(ns), d = bd.Get<T>(ns);
    std::copy(in.begin(), in.end(), s.HostPtr());
    std::fill(d.HostPtr(), d.HostPtr() + ns, Sentinel<T>());
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    if (stack) {
      AscendC::Lgamma<T, kReuse>(d, s, count);
    } else {
      AscendC::Lgamma<T, kReuse>(d, s, tmp, count);
    }
    g.dst = BytesOf(d.HostPtr(), ns);
    g.src = BytesOf(s.HostPtr(), ns);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// got == want as elements of E (two NaNs match), the bytes past the last whole element exactly.
template <class E>
void ExpectWords(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const size_t whole = got.size() / sizeof(E) * sizeof(E);
  for (size_t i = 0; i < got.size(); i += (i < whole ? sizeof(E) : 1)) {
    const size_t len = i < whole ? sizeof(E) : 1;
    if (std::memcmp(&got[i], &want[i], len) == 0) continue;
    if (len == sizeof(E)) {
      E a, b;
      std::memcpy(&a, &got[i], sizeof(E));
      std::memcpy(&b, &want[i], sizeof(E));
      if (IsNan(a) && IsNan(b)) continue;
    }
    uint32_t x = 0, y = 0;
    std::memcpy(&x, &got[i], len);
    std::memcpy(&y, &want[i], len);
    ADD_FAILURE() << what << ": bytes " << i << ".." << i + len - 1 << " of " << got.size()
                  << " differ: lngrad 0x" << std::hex << x << ", replay 0x" << y;
    return;
  }
}

template <class T, bool kReuse>
void Compare(const char* soc, const std::vector<T>& in, uint32_t count, uint32_t tmpBytes,
             bool stack) {
  const std::string what = std::string("Lgamma<") + (sizeof(T) == 2 ? "half" : "float") +
                           (kReuse ? ", reuse>" : ">") + " on " + soc + ", count " +
                           std::to_string(count) + ", scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : " (sharedTmpBuffer)");
  std::vector<T> want_dst(in.size(), Sentinel<T>()), want_src = in;
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  const bool is2002 = std::string(soc) == "Ascend310P1";
  bool ok = false;
  if constexpr (sizeof(T) == 2) {
    ok = rp::ReplayLgammaScratch(is2002, reinterpret_cast<const rp::Half*>(want_src.data()),
                                 reinterpret_cast<rp::Half*>(want_dst.data()), count,
                                 want_tmp.data(), tmpBytes);
  } else {
    ok = rp::ReplayLgammaScratch(is2002, kReuse, want_src.data(), want_dst.data(), count,
                                 want_tmp.data(), tmpBytes);
  }
  ASSERT_TRUE(ok) << what;
  const Got got = RunKernel<T, kReuse>(soc, in, count, tmpBytes, stack);
  ExpectWords<T>(got.dst, BytesOf(want_dst.data(), want_dst.size()), what + " dst");
  ExpectWords<T>(got.src, BytesOf(want_src.data(), want_src.size()), what + " src");
  ExpectWords<float>(got.tmp, want_tmp, what + " scratch");
}

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

std::vector<half> AllHalves(uint32_t start, uint32_t n) {
  std::vector<half> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint16_t b = static_cast<uint16_t>(start + i);
    std::memcpy(&v[i], &b, 2);
  }
  return v;
}

const std::vector<uint32_t> kCounts = {0, 1, 37, 255, 257, 1000, 1537, 4099};

std::vector<uint32_t> Sizes(uint32_t min, bool stack) {
  std::vector<uint32_t> v = {min, min + 32, min + 416, 3 * min + 96, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

template <class T, bool kReuse>
void Sweep(uint32_t min) {
  uint32_t seed = kReuse ? 1000 : 1;
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : Sizes(min, stack)) {
        for (uint32_t n : kCounts) {
          ++seed;
          std::vector<T> in;
          if constexpr (sizeof(T) == 2) {
            in = AllHalves(seed * 4099u % 65536u, n + kPast);
          } else {
            in = Mixed(seed, n + kPast);
          }
          Compare<T, kReuse>(soc, in, n, tmp, stack);
        }
      }
    }
  }
}

TEST(MathScratchLgamma, Float) { Sweep<float, false>(2048); }

TEST(MathScratchLgamma, FloatReuseSource) { Sweep<float, true>(1792); }

TEST(MathScratchLgamma, Half) { Sweep<half, false>(6656); }

// The specials cycled through every round (so the last one, whose values stay in the scratch,
// holds them too): +-inf (2002's floor saturates through int32), NaN, +-0, subnormals, +-65504,
// negative integers and halves.
TEST(MathScratchLgamma, HalfSpecialsInEveryRound) {
  const uint16_t sp[] = {0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x0000, 0x8000, 0x0001,
                         0x8001, 0x7bff, 0xfbff, 0xc400, 0xc500, 0xb800, 0x3c00,
                         0x4000, 0xc0a0, 0x03ff, 0x83ff, 0x3555, 0xd640};
  for (const uint32_t n : {1u, 20u, 37u, 300u, 1000u}) {
    std::vector<half> in(n + kPast);
    for (size_t i = 0; i < in.size(); ++i) std::memcpy(&in[i], &sp[i % 20], 2);
    for (const char* soc : kSocs) {
      for (bool stack : {false, true}) Compare<half, false>(soc, in, n, 6656, stack);
    }
  }
}

// Every binary16 pattern on both socs.
TEST(MathScratchLgamma, HalfEveryPattern) {
  for (const char* soc : kSocs) {
    for (uint32_t start = 0; start < 65536; start += 8192) {
      Compare<half, false>(soc, AllHalves(start, 8192 + kPast), 8192, 6656 + 96, false);
    }
  }
}

}  // namespace
