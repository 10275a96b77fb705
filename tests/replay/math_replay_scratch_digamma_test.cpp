// Digamma on arch 2201 (Ascend910B1) and 2002 (Ascend310P1) against the replay of the kit's
// digamma files (replay_math_scratch_digamma.h): the sharedTmpBuffer overload and the one that pops
// the stack buffer (left at exactly the scratch's bytes), float with and without isReuseSource
// and half, scratch sizes from the tiling minimum (one that is no multiple of 32, a large one),
// counts 0, 1, tails that are no multiple of 8, of a repeat or of the split size, up to a few
// thousand, inputs with NaN, +-inf, +-0, subnormals, negative integers, -2^23 and values past
// int32 (every binary16 pattern on both arches for half). dst is compared bit for bit (two NaNs
// match) with the 40 elements past the count (the kit writes up to the count rounded up to 8,
// the rest keeps the sentinel), and the source (isReuseSource: the rounds' reflection terms at
// its base).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "math_replay_test_util.h"
#include "replay_math_scratch_digamma.h"
#include "replay_math_scratch_digamma_ub.h"
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
constexpr uint32_t kPast = 40;
const char* const kSocs[] = {"Ascend910B1", "Ascend310P1"};

template <class T>
T Sentinel() {
  const uint32_t bits = sizeof(T) == 2 ? 0x5a5bu : 0x5a5b5c5du;
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

uint32_t Dev(uint32_t n) { return (n + 7) / 8 * 8; }

struct Got {
  std::vector<uint8_t> dst, src, tmp;
  std::vector<uint8_t> ub_before, ub_after;  // the whole UB around the call
  rp::DigammaUbCall call;
};

// One block of soc: src (`in`, the count rounded up to 8 elements), dst (count + kPast of the
// sentinel), the scratch of tmpBytes filled with kFill; Digamma<T, reuse> through
// sharedTmpBuffer or the stack buffer.
template <class T, bool reuse>
Got Run(const char* soc, const std::vector<T>& in, uint32_t count, uint32_t tmpBytes, bool stack,
        bool src_last = false) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bt, filler, filler2;
    const uint32_t ns = std::max<uint32_t>(static_cast<uint32_t>(in.size()), 1);
    const uint32_t nd = count + kPast;
    if (!src_last) pipe.InitBuffer(bs, Aligned32(ns * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(nd * sizeof(T)));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    if (src_last) {  // the source ends where the stack buffer does
      LocalTensor<uint8_t> left;
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(left)));
      ASSERT_GE(left.GetSize(), ns * sizeof(T));
      if (left.GetSize() > ns * sizeof(T))
        pipe.InitBuffer(filler2, left.GetSize() - ns * sizeof(T));
      pipe.InitBuffer(bs, ns * sizeof(T));
    }
    LocalTensor<T> s = bs.Get<T>(ns), d = bd.Get<T>(nd);
    std::copy(in.begin(), in.end(), s.HostPtr());
    std::fill(d.HostPtr(), d.HostPtr() + nd, Sentinel<T>());
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    const lngrad::aicore::detail::TensorView v = s.View();
    const auto* ub = reinterpret_cast<const uint8_t*>(v.ub);
    const auto at = [&](const void* p) {
      return static_cast<uint32_t>(reinterpret_cast<const uint8_t*>(p) - ub);
    };
    g.call.src = at(s.HostPtr());
    g.call.dst = at(d.HostPtr());
    g.call.tmp = at(tmp.HostPtr());
    g.call.tmpBytes = tmpBytes;
    g.call.count = count;
    g.ub_before.assign(ub, ub + v.ub_size);
    if (stack) {
      AscendC::Digamma<T, reuse>(d, s, count);
    } else {
      AscendC::Digamma<T, reuse>(d, s, tmp, count);
    }
    const auto* db = reinterpret_cast<const uint8_t*>(d.HostPtr());
    const auto* sb = reinterpret_cast<const uint8_t*>(s.HostPtr());
    g.dst.assign(db, db + nd * sizeof(T));
    g.src.assign(sb, sb + in.size() * sizeof(T));
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
    g.ub_after.assign(ub, ub + v.ub_size);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// got == want as elements of E (two NaNs match).
template <class E>
void ExpectWords(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i + sizeof(E) <= got.size(); i += sizeof(E)) {
    if (std::memcmp(&got[i], &want[i], sizeof(E)) == 0) continue;
    E a, b;
    std::memcpy(&a, &got[i], sizeof(E));
    std::memcpy(&b, &want[i], sizeof(E));
    if (IsNan(a) && IsNan(b)) continue;
    uint32_t x = 0, y = 0;
    std::memcpy(&x, &got[i], sizeof(E));
    std::memcpy(&y, &want[i], sizeof(E));
    ADD_FAILURE() << what << ": element " << i / sizeof(E) << " differs: lngrad 0x" << std::hex << x
                  << ", replay 0x" << y;
    return;
  }
}

template <class T>
std::vector<uint8_t> BytesOf(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v.data());
  return std::vector<uint8_t>(p, p + v.size() * sizeof(T));
}

template <class E>
bool BothNan(const uint8_t* a, const uint8_t* b) {
  E x, y;
  std::memcpy(&x, a, sizeof(E));
  std::memcpy(&y, b, sizeof(E));
  return IsNan(x) && IsNan(y);
}

// The whole UB after the call against the instruction-by-instruction replay run over the UB as
// the call found it: dst and the source as elements of T, the scratch's float temps as floats
// (two NaNs match: which NaN a sum of NaNs gives is the host compiler's operand order), every
// other byte (the masks, the UB around the operands) exactly.
template <class T, bool reuse>
void CompareUb(const Got& got, bool a2002, const std::string& what) {
  ASSERT_EQ(got.ub_before.size(), got.ub_after.size()) << what;
  std::vector<uint8_t> want = got.ub_before;
  rp::DigammaUbCall call = got.call;
  call.arch2002 = a2002;
  bool ok = false;
  if constexpr (sizeof(T) == 2) {
    ok = rp::ReplayDigammaUbHalf(want.data(), static_cast<uint32_t>(want.size()), call);
  } else {
    ok = rp::ReplayDigammaUbFloat(want.data(), static_cast<uint32_t>(want.size()), call, reuse);
  }
  ASSERT_TRUE(ok) << what;
  const uint32_t k = sizeof(T) == 2 ? 8 : (reuse ? 6 : 7);
  const uint32_t split = call.tmpBytes / 4 / k / 32 * 32;
  struct Words {
    uint32_t off, bytes, size;
    const char* name;
  };
  const Words words[] = {{call.dst, (call.count + kPast) * uint32_t{sizeof(T)}, sizeof(T), "dst"},
                         {call.src, Dev(call.count) * uint32_t{sizeof(T)}, sizeof(T), "src"},
                         {call.tmp, 4 * (k - 1) * split, 4, "scratch temps"}};
  std::vector<uint8_t> done(want.size(), 0);
  for (const Words& w : words) {
    for (uint32_t i = 0; i + w.size <= w.bytes; i += w.size) {
      const uint32_t b = w.off + i;
      std::fill(done.begin() + b, done.begin() + b + w.size, uint8_t{1});
      if (std::memcmp(&got.ub_after[b], &want[b], w.size) == 0) continue;
      if (w.size == 2 ? BothNan<half>(&got.ub_after[b], &want[b])
                      : BothNan<float>(&got.ub_after[b], &want[b])) {
        continue;
      }
      uint32_t x = 0, y = 0;
      std::memcpy(&x, &got.ub_after[b], w.size);
      std::memcpy(&y, &want[b], w.size);
      ADD_FAILURE() << what << ": " << w.name << " byte " << i << " (split " << split
                    << ") differs: lngrad 0x" << std::hex << x << ", replay 0x" << y;
      return;
    }
  }
  for (size_t b = 0; b < want.size(); ++b) {
    if (done[b] || got.ub_after[b] == want[b]) continue;
    const int64_t rel = static_cast<int64_t>(b) - call.tmp;
    ADD_FAILURE() << what << ": UB byte " << b << " (scratch byte " << rel << ", split " << split
                  << ") differs: lngrad 0x" << std::hex << int{got.ub_after[b]} << ", replay 0x"
                  << int{want[b]};
    return;
  }
}

template <class T, bool reuse>
void Compare(const char* soc, const std::vector<T>& in, uint32_t count, uint32_t tmpBytes,
             bool stack) {
  const bool a2002 = std::string(soc) == "Ascend310P1";
  const std::string what = std::string("Digamma<") + (sizeof(T) == 2 ? "half" : "float") +
                           (reuse ? ", reuse>" : ">") + " on " + soc + ", count " +
                           std::to_string(count) + ", scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : " (sharedTmpBuffer)");
  std::vector<T> want_dst(count + kPast, Sentinel<T>());
  std::vector<T> want_src = in;
  bool ok = false;
  if constexpr (sizeof(T) == 2) {
    ok = rp::ReplayDigamma(reinterpret_cast<const rp::Half*>(want_src.data()),
                           reinterpret_cast<rp::Half*>(want_dst.data()), count, tmpBytes, a2002);
  } else {
    ok = rp::ReplayDigamma(want_src.data(), want_dst.data(), count, tmpBytes, a2002, reuse);
  }
  ASSERT_TRUE(ok) << what;
  const Got got = Run<T, reuse>(soc, in, count, tmpBytes, stack);
  ExpectWords<T>(got.dst, BytesOf(want_dst), what + " dst");
  ExpectWords<T>(got.src, BytesOf(want_src), what + " src");
  if constexpr (sizeof(T) == 4) {
    // The scratch against session 18's known-mask replay (its dst and src must agree with the
    // per-element one above), every byte it knows compared bit for bit.
    std::vector<T> dst2(count + kPast, Sentinel<T>()), src2 = in;
    std::vector<uint8_t> tmp(tmpBytes, kFill), known(tmpBytes, 1);
    ASSERT_TRUE(rp::ReplayDigammaScratch(src2.data(), dst2.data(), count, tmp.data(), known.data(),
                                         tmpBytes, a2002, reuse))
        << what;
    ExpectWords<T>(BytesOf(dst2), BytesOf(want_dst), what + " dst of the scratch replay");
    ExpectWords<T>(BytesOf(src2), BytesOf(want_src), what + " src of the scratch replay");
    ASSERT_EQ(got.tmp.size(), tmp.size()) << what;
    // The float temps before the masks as words (two NaNs match: which NaN a sum of NaNs gives
    // is the host compiler's operand order, as for dst), the masks byte for byte.
    const uint32_t temps = 4 * (reuse ? 5 : 6) * (tmpBytes / 4 / (reuse ? 6 : 7) / 32 * 32);
    for (uint32_t i = 0; i < tmpBytes; ++i) {
      if (!known[i] || got.tmp[i] == tmp[i]) continue;
      if (i < temps) {
        const uint32_t w = i / 4 * 4;
        float a, b;
        std::memcpy(&a, &got.tmp[w], 4);
        std::memcpy(&b, &tmp[w], 4);
        if (IsNan(a) && IsNan(b)) continue;
      }
      ADD_FAILURE() << what << ": scratch byte " << i << " (split "
                    << tmpBytes / 4 / (reuse ? 6 : 7) / 32 * 32 << ") differs: lngrad 0x"
                    << std::hex << int{got.tmp[i]} << ", replay 0x" << int{tmp[i]};
      break;
    }
  }
  CompareUb<T, reuse>(got, a2002, what);
}

// n values: the specials at random places (about one in 12), else uniform in [lo, hi).
std::vector<float> Mixed(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::uniform_int_distribution<int> pick(0, 299);
  const float sp[] = {0.0f,      -0.0f,    kInf,    -kInf,       kNan,        1e-40f,      -1e-40f,
                      1.0f,      -1.0f,    -3.0f,   -8388608.0f, -8388607.0f, -8388607.5f, -3e9f,
                      3e9f,      1.5e9f,   -1.5e9f, 1e20f,       -3.4e38f,    -0.5f,       -2.5f,
                      -0.00005f, -0.0001f, 0.5f,    12000.f};
  constexpr int kSp = sizeof(sp) / sizeof(sp[0]);
  std::vector<float> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    x = k < kSp ? sp[k] : u(gen);
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

const std::vector<uint32_t> kCounts = {0, 1, 37, 64, 200, 255, 1000, 1537, 4099};

std::vector<uint32_t> Sizes(uint32_t min, bool stack) {
  // min + min / 2: a split of 96 floats (float), min + min / 4 one of 160 (half): odd multiples
  // of 32, so a full round's last Compare repeat runs 32 lanes past it (tmpScalar's lanes there
  // are the masks, the one being written among them).
  std::vector<uint32_t> v = {min, min + 32, min + min / 4, min + min / 2, 3 * min + 96, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

template <class T, bool reuse>
void Sweep(uint32_t min) {
  uint32_t seed = reuse ? 100 : 1;
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : Sizes(min, stack)) {
        for (uint32_t n : kCounts) {
          ++seed;
          std::vector<T> in;
          if constexpr (sizeof(T) == 2) {
            in = AllHalves(seed * 4099u % 65536u, Dev(n));
          } else {
            in = Mixed(seed, Dev(n), -40.0f, 40.0f);
          }
          Compare<T, reuse>(soc, in, n, tmp, stack);
        }
      }
    }
    if constexpr (sizeof(T) == 2) {
      for (uint32_t start = 0; start < 65536; start += 8192) {
        Compare<T, false>(soc, AllHalves(start, 8192), 8192, min + 96, false);
      }
    }
  }
}

TEST(MathScratchDigamma, DigammaFloat) { Sweep<float, false>(7 * 256); }

TEST(MathScratchDigamma, DigammaFloatReuseSource) { Sweep<float, true>(6 * 256); }

TEST(MathScratchDigamma, DigammaHalf) { Sweep<half, false>(16 * 256); }

// The source as far up the UB as a buffer goes (the stack buffer ends 64 bytes short of the UB's
// end; float, whose Compares read srcTensor's lanes past the round): the last Compare repeat of a
// round of 40 (or 104) runs 24 lanes past it, 16 inside the UB and 8 past its end, which read NaN
// (false for every comparison), as in the replay.
TEST(MathScratchDigamma, DigammaFloatSourceAtTheUbsEnd) {
  for (const char* soc : kSocs) {
    for (const uint32_t n : {40u, 104u}) {
      const std::vector<float> in = Mixed(7 + n, n, -40.0f, 40.0f);
      const std::string what = std::string("Digamma<float> with the source last on ") + soc +
                               ", count " + std::to_string(n);
      const Got got = ::Run<float, false>(soc, in, n, 7 * 256, false, true);
      ASSERT_GT(got.call.src + n * 4 + 24 * 4, got.ub_after.size()) << what;
      CompareUb<float, false>(got, std::string(soc) == "Ascend310P1", what);
    }
  }
}

// Hand-worked values of the replay itself: the reflection term -pi cot(pi x) from an odd
// round(2x) (x = 0.25: pi * f30, f30 = tan(-pi/4)) and an even one (x = 0.125: pi * -1 / f30,
// f30 = tan(pi/8)); 2x past 2^31 saturates Cast<int32_t> at 2^31 - 1 (odd: pi * f30 = 0, not
// -1 / 0); x = -inf: 2201's float round gives inf - inf (NaN), 2002's int32 round -2^31, f36 =
// -inf and -1 / f30 = +0.
TEST(MathScratchDigamma, ReplayHandChecks) {
  EXPECT_NEAR(rp::ReplayDigammaReflection(0.25f, false), -3.14159265f, 2e-5f);
  EXPECT_NEAR(rp::ReplayDigammaReflection(0.125f, true), -7.5844756f, 4e-5f);
  EXPECT_EQ(rp::ReplayDigammaReflection(3e9f, false), 0.0f);
  EXPECT_TRUE(std::isinf(rp::ReplayDigammaReflection(0.0f, false)));
  EXPECT_TRUE(std::isnan(rp::ReplayDigammaReflection(-kInf, false)));
  EXPECT_EQ(rp::ReplayDigammaReflection(-kInf, true), 0.0f);
  EXPECT_NEAR(rp::ReplayDigammaFloat(1.0f, false), -0.5772157f, 2e-6f);
  EXPECT_NEAR(rp::ReplayDigammaFloat(-0.5f, true), 0.03648998f, 2e-5f);
  EXPECT_NEAR(rp::ReplayDigammaHalfSum(1.0f, true), -0.5772157f, 2e-3f);
  EXPECT_NEAR(rp::ReplayDigammaHalfSum(-0.00005f, false), 19999.42f, 0.5f);
}

}  // namespace
