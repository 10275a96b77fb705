// What Atan, Asin, Acos, Acosh, Asinh and Atanh leave in their scratch on arch 2201
// (Ascend910B1) and 2002 (Ascend310P1, the same kit file) against the replay of the kit's loops
// (replay_math_scratch_inverse.h): the sharedTmpBuffer overloads and those that pop the stack
// buffer (the TPipe sized so that it leaves exactly the scratch's bytes), scratch sizes from the
// tiling minimum to one chunk for every count, a size that is no multiple of 32, counts 0, 1 and
// tails that are no multiple of the chunk or of a repeat, inputs with NaN, +-inf, +-0,
// subnormals and values past the clips (every binary16 pattern on both arches for the half
// paths). The whole scratch is compared after the call (the bytes the kit's code does not write
// keep their 0xa5 fill; two NaNs match, as for dst; Asin's and Acos's half tensors as halves),
// dst bit for bit with the 40 elements past the count untouched, and the source unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "math_replay_test_util.h"
#include "replay_math_scratch_inverse.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using lngrad_replay::test::IsNan;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;

constexpr uint8_t kFill = 0xa5;
constexpr uint32_t kPast = 40;
const char* const kSocs[] = {"Ascend910B1", "Ascend310P1"};

using lngrad_replay::scratch_test::Aligned32;

template <class T>
T Sentinel() {
  const uint32_t bits = sizeof(T) == 2 ? 0x5a5bu : 0x5a5b5c5du;
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

template <class T>
using Call = std::function<void(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LocalTensor<uint8_t>& tmp, uint32_t count, bool stack)>;
template <class T>
using R = std::conditional_t<sizeof(T) == 2, rp::Half, float>;

// One API on T: how lngrad is called, the replay, the tiling minimum, and where its scratch
// holds half elements (from that byte on; tmpBytes: none).
template <class T>
struct Case {
  std::string api;
  uint32_t min;
  Call<T> call;
  std::function<bool(const R<T>* src, R<T>* dst, uint32_t n, uint8_t* scratch, uint32_t bytes)>
      replay;
  std::function<uint32_t(uint32_t bytes)> halvesFrom = [](uint32_t bytes) { return bytes; };
};

struct Got {
  std::vector<uint8_t> dst, src, tmp;
};

// One block of soc: src, dst (count + kPast elements of the sentinel), the scratch of tmpBytes
// filled with kFill (a TBuf, or the stack buffer with a filler buffer before it).
template <class T>
Got RunKernel(const char* soc, const std::vector<T>& in, uint32_t count, uint32_t tmpBytes,
              bool stack, const Call<T>& call) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bt, filler;
    const uint32_t ns = std::max<uint32_t>(static_cast<uint32_t>(in.size()), 1);
    const uint32_t nd = count + kPast;
    pipe.InitBuffer(bs, Aligned32(ns * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(nd * sizeof(T)));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<T> s = bs.Get<T>(ns), d = bd.Get<T>(nd);
    std::copy(in.begin(), in.end(), s.HostPtr());
    std::fill(d.HostPtr(), d.HostPtr() + nd, Sentinel<T>());
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    call(d, s, tmp, count, stack);
    const auto* db = reinterpret_cast<const uint8_t*>(d.HostPtr());
    const auto* sb = reinterpret_cast<const uint8_t*>(s.HostPtr());
    g.dst.assign(db, db + nd * sizeof(T));
    g.src.assign(sb, sb + in.size() * sizeof(T));
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// got[from, to) == want[from, to) as elements of E (two NaNs match), bytes past the last whole
// element exactly.
template <class E>
void ExpectWords(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, size_t from,
                 size_t to, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const size_t whole = from + (to - from) / sizeof(E) * sizeof(E);
  for (size_t i = from; i < to; i += (i < whole ? sizeof(E) : 1)) {
    const size_t len = i < whole ? sizeof(E) : 1;
    if (std::memcmp(&got[i], &want[i], len) == 0) continue;
    if (len == sizeof(E)) {
      E a, b;
      std::memcpy(&a, &got[i], sizeof(E));
      std::memcpy(&b, &want[i], sizeof(E));
      if (IsNan(a) && IsNan(b)) continue;
    }
    uint32_t a = 0, b = 0;
    std::memcpy(&a, &got[i], len);
    std::memcpy(&b, &want[i], len);
    ADD_FAILURE() << what << ": bytes " << i << ".." << i + len - 1 << " of " << got.size()
                  << " differ: lngrad 0x" << std::hex << a << ", replay 0x" << b;
    return;
  }
}

template <class T>
std::vector<uint8_t> BytesOf(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v.data());
  return std::vector<uint8_t>(p, p + v.size() * sizeof(T));
}

template <class T>
void Compare(const char* soc, const Case<T>& c, const std::vector<T>& in, uint32_t count,
             uint32_t tmpBytes, bool stack) {
  const std::string what = c.api + (sizeof(T) == 2 ? "<half>" : "<float>") + " on " + soc +
                           ", count " + std::to_string(count) + ", scratch " +
                           std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  std::vector<T> want_dst(count + kPast, Sentinel<T>());
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  ASSERT_TRUE(c.replay(reinterpret_cast<const R<T>*>(in.data()),
                       reinterpret_cast<R<T>*>(want_dst.data()), count, want_tmp.data(), tmpBytes))
      << what;
  const Got got = RunKernel(soc, in, count, tmpBytes, stack, c.call);
  ExpectWords<T>(got.dst, BytesOf(want_dst), 0, got.dst.size(), what + " dst");
  ExpectWords<T>(got.src, BytesOf(in), 0, got.src.size(), what + " src");
  const uint32_t halves = std::min(c.halvesFrom(tmpBytes), tmpBytes);
  ExpectWords<float>(got.tmp, want_tmp, 0, halves, what + " scratch");
  ExpectWords<half>(got.tmp, want_tmp, halves, tmpBytes, what + " scratch (half tensors)");
}

// n values in [lo, hi) with the specials at random places (about one in 25).
std::vector<float> Mixed(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::uniform_int_distribution<int> pick(0, 299);
  const float sp[] = {0.0f, -0.0f, kInf,  -kInf, kNan,    1e-40f, -1e-40f,
                      1.0f, -1.0f, -3e9f, 3e9f,  12000.f, 1e20f,  -3.4e38f};
  std::vector<float> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    x = k < 14 ? sp[k] : u(gen);
  }
  return v;
}

// Every binary16 pattern, from `start`, n of them.
std::vector<half> AllHalves(uint32_t start, uint32_t n) {
  std::vector<half> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint16_t b = static_cast<uint16_t>(start + i);
    std::memcpy(&v[i], &b, 2);
  }
  return v;
}

const std::vector<uint32_t> kCounts = {0, 1, 37, 255, 257, 1000, 1537, 4099};

// The minimum, one block more, six blocks more, odd multiples plus odd blocks, one chunk for
// every count, and (sharedTmpBuffer only) a size that is no multiple of 32.
std::vector<uint32_t> Sizes(uint32_t min, bool stack) {
  std::vector<uint32_t> v = {min, min + 32, min + 192, 3 * min + 96, 5 * min + 160, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

// Every count and size, both overloads, on both socs; float inputs Mixed over [lo, hi), half
// ones slices of the binary16 patterns, then every pattern through a small scratch on both.
template <class T>
void Sweep(const Case<T>& c, float lo, float hi) {
  uint32_t seed = 1;
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : Sizes(c.min, stack)) {
        for (uint32_t n : kCounts) {
          ++seed;
          std::vector<T> in;
          if constexpr (sizeof(T) == 2) {
            in = AllHalves(seed * 4099u % 65536u, n);
          } else {
            in = Mixed(seed, n, lo, hi);
          }
          Compare<T>(soc, c, in, n, tmp, stack);
        }
      }
    }
    if constexpr (sizeof(T) == 2) {
      for (uint32_t start = 0; start < 65536; start += 8192) {
        Compare<T>(soc, c, AllHalves(start, 8192), 8192, c.min + 96, false);
      }
    }
  }
}

#define LNGRAD_SCRATCH_CALL(Name)                                                                  \
  template <class T>                                                                               \
  void Call##Name(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t, \
                  uint32_t n, bool stack) {                                                        \
    stack ? AscendC::Name<T, false>(d, s, n) : AscendC::Name<T, false>(d, s, t, n);                \
  }                                                                                                \
  template <class T>                                                                               \
  Case<T> Name##Case(uint32_t min) {                                                               \
    return {#Name, min, Call##Name<T>,                                                             \
            [](const R<T>* src, R<T>* dst, uint32_t n, uint8_t* sc, uint32_t b) {                  \
              return rp::Replay##Name##Scratch(src, dst, n, sc, b);                                \
            }};                                                                                    \
  }

LNGRAD_SCRATCH_CALL(Atan)
LNGRAD_SCRATCH_CALL(Asin)
LNGRAD_SCRATCH_CALL(Acos)
LNGRAD_SCRATCH_CALL(Acosh)
LNGRAD_SCRATCH_CALL(Asinh)
LNGRAD_SCRATCH_CALL(Atanh)
#undef LNGRAD_SCRATCH_CALL

TEST(MathScratchInverse, Atan) {
  Sweep(AtanCase<float>(1280), -12.0f, 12.0f);
  Sweep(AtanCase<half>(3072), 0, 0);
}

// Asin and Acos: half keeps two half tensors after its two float ones (4 calSize halves on).
uint32_t AsinHalvesFrom(uint32_t bytes) { return bytes / 2 / 6 / 32 * 32 * 8; }

TEST(MathScratchInverse, Asin) {
  Sweep(AsinCase<float>(512), -1.25f, 1.25f);
  Case<half> h = AsinCase<half>(1536);
  h.halvesFrom = AsinHalvesFrom;
  Sweep(h, 0, 0);
}

TEST(MathScratchInverse, Acos) {
  Sweep(AcosCase<float>(512), -1.25f, 1.25f);
  Case<half> h = AcosCase<half>(1536);
  h.halvesFrom = AsinHalvesFrom;
  Sweep(h, 0, 0);
}

TEST(MathScratchInverse, Acosh) {
  Sweep(AcoshCase<float>(256), 0.5f, 40.0f);
  Sweep(AcoshCase<half>(512), 0, 0);
}

TEST(MathScratchInverse, Asinh) {
  Sweep(AsinhCase<float>(768), -40.0f, 40.0f);
  Sweep(AsinhCase<half>(768), 0, 0);
}

TEST(MathScratchInverse, Atanh) {
  Sweep(AtanhCase<float>(256), -1.25f, 1.25f);
  Sweep(AtanhCase<half>(1024), 0, 0);
}

}  // namespace
