// What the math APIs leave in their scratch on arch 2201 (Ascend910B1) and 2002 (Ascend310P1)
// against the replay of the kit's loops (replay_math_scratch.h): the sharedTmpBuffer overloads
// and those that pop the stack buffer (the TPipe sized so that it leaves exactly the scratch's
// bytes), scratch sizes from the tiling minimum to one chunk for every count, counts whose tails
// are no multiple of the chunk or of a repeat, inputs with NaN, +-inf, +-0 and subnormals (every
// binary16 pattern for the half paths). The whole scratch is compared after the call (the bytes
// the kit's code does not write keep their 0xa5 fill; two NaNs match, as for dst), dst bit for
// bit with the elements past the count untouched, and the source unchanged (Exp<float> with
// isReuseSource: as the replay leaves it).
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
#include "scratch_test_util.h"
#include "math_replay_test_util.h"
#include "replay_math_scratch.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using lngrad_replay::test::BitsOf;
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
template <class T>
using ReplayFn =
    std::function<bool(R<T>* src, R<T>* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes)>;

// The soc the current comparison runs on (the replays of Exp take 2002's branch on Ascend310P1).
const char* g_soc = "";
const char* CurrentSoc() { return g_soc; }

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

// got == want as elements of E (two NaNs match), bytes past the last whole element exactly.
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
    uint32_t a = 0, b = 0;
    std::memcpy(&a, &got[i], len);
    std::memcpy(&b, &want[i], len);
    ADD_FAILURE() << what << ": bytes " << i << ".." << i + len - 1 << " of " << got.size()
                  << " differ: lngrad 0x" << std::hex << a << ", replay 0x" << b;
    return;
  }
}

template <class T>
void Compare(const char* soc, const std::string& api, const std::vector<T>& in, uint32_t count,
             uint32_t tmpBytes, bool stack, const Call<T>& call, const ReplayFn<T>& replay) {
  const std::string what = api + (sizeof(T) == 2 ? "<half>" : "<float>") + " on " + soc +
                           ", count " + std::to_string(count) + ", scratch " +
                           std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  std::vector<T> want_dst(count + kPast, Sentinel<T>()), want_src = in;
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  g_soc = soc;
  ASSERT_TRUE(replay(reinterpret_cast<R<T>*>(want_src.data()),
                     reinterpret_cast<R<T>*>(want_dst.data()), count, want_tmp.data(), tmpBytes))
      << what;
  const Got got = RunKernel(soc, in, count, tmpBytes, stack, call);
  const auto* wd = reinterpret_cast<const uint8_t*>(want_dst.data());
  ExpectWords<T>(got.dst, std::vector<uint8_t>(wd, wd + want_dst.size() * sizeof(T)),
                 what + " dst");
  const auto* ws = reinterpret_cast<const uint8_t*>(want_src.data());
  ExpectWords<T>(got.src, std::vector<uint8_t>(ws, ws + want_src.size() * sizeof(T)),
                 what + " src");
  ExpectWords<float>(got.tmp, want_tmp, what + " scratch");
}

// n values in [lo, hi) with the specials at random places (about one in 30).
std::vector<float> Mixed(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::uniform_int_distribution<int> pick(0, 299);
  const float sp[] = {0.0f, -0.0f, kInf, -kInf, kNan, 1e-40f, -1e-40f, 8.8f, -3e9f, 3e9f};
  std::vector<float> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    x = k < 10 ? sp[k] : u(gen);
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

const std::vector<uint32_t> kCounts = {1, 37, 255, 257, 1000, 1537, 4099};

// The minimum, one block more, six blocks more, odd multiples plus odd blocks, one chunk for
// every count, and (sharedTmpBuffer only) a size that is no multiple of 32.
std::vector<uint32_t> Sizes(uint32_t min, bool stack) {
  std::vector<uint32_t> v = {min, min + 32, min + 192, 3 * min + 96, 5 * min + 160, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

// Every count and size, both overloads, on both socs; float inputs Mixed, half ones every
// binary16 pattern in slices.
template <class T>
void Sweep(const std::string& api, uint32_t min, const Call<T>& call, const ReplayFn<T>& replay) {
  uint32_t seed = 1;
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : Sizes(min, stack)) {
        for (uint32_t n : kCounts) {
          ++seed;
          std::vector<T> in;
          if constexpr (sizeof(T) == 2) {
            in = AllHalves(seed * 4099u % 65536u, n);
          } else {
            in = Mixed(seed, n, -12.0f, 12.0f);
          }
          Compare<T>(soc, api, in, n, tmp, stack, call, replay);
        }
      }
    }
  }
  // Every binary16 pattern through the minimum scratch (half only).
  if constexpr (sizeof(T) == 2) {
    for (uint32_t start = 0; start < 65536; start += 8192) {
      Compare<T>(kSocs[0], api, AllHalves(start, 8192), 8192, min + 96, false, call, replay);
    }
  }
}

// ---------------------------------------------------------------------------------------------

template <class T>
void CallTanh(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
              uint32_t n, bool stack) {
  stack ? AscendC::Tanh<T, false>(d, s, n) : AscendC::Tanh<T, false>(d, s, t, n);
}

TEST(MathScratch, Tanh) {
  Sweep<float>("Tanh", 256, CallTanh<float>, [](auto... a) { return rp::ReplayTanhScratch(a...); });
  Sweep<half>("Tanh", 1024, CallTanh<half>, [](auto... a) { return rp::ReplayTanhScratch(a...); });
}

// Log2<half> with its scratch (Log2<float>, Log and Log10 take none on these arches).
template <class T>
void CallLog2(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
              uint32_t n, bool stack) {
  stack ? AscendC::Log2<T, false>(d, s, n) : AscendC::Log2<T, false>(d, s, t, n);
}

TEST(MathScratch, Log2Half) {
  Sweep<half>("Log2", 256, CallLog2<half>,
              [](auto... a) { return rp::ReplayLog2HalfScratch(a...); });
}

// Exp<T, level, reuse> (level >= 1): levels 1, 3 and 10; float also with isReuseSource (the
// source then compared with the replay's, not unchanged).
template <class T, uint8_t L, bool kReuse>
void CallExp(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
             uint32_t n, bool stack) {
  stack ? AscendC::Exp<T, L, kReuse>(d, s, n) : AscendC::Exp<T, L, kReuse>(d, s, t, n);
}

template <class T, uint8_t L, bool kReuse>
void ExpCases() {
  const uint32_t min = sizeof(T) == 2 ? 1024 : (kReuse ? 512 : 768);
  Sweep<T>("Exp" + std::to_string(L) + (kReuse ? " reuse" : ""), min, CallExp<T, L, kReuse>,
           [](R<T>* src, R<T>* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
             const bool is2002 = std::string(CurrentSoc()) == "Ascend310P1";
             if constexpr (sizeof(T) == 2) {
               return rp::ReplayExpScratch(L, is2002, src, dst, n, scratch, tmpBytes);
             } else {
               return rp::ReplayExpScratch(L, kReuse, is2002, src, dst, n, scratch, tmpBytes);
             }
           });
}

TEST(MathScratch, ExpFloat) {
  ExpCases<float, 1, false>();
  ExpCases<float, 3, false>();
  ExpCases<float, 10, false>();
  ExpCases<float, 10, true>();
  ExpCases<float, 2, true>();
}

TEST(MathScratch, ExpHalf) {
  ExpCases<half, 1, false>();
  ExpCases<half, 10, false>();
}

// Erf (ErfConfig default; off the 950 the 2201 sequence): half cast CAST_ROUND on 2201 only.
template <class T>
void CallErf(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
             uint32_t n, bool stack) {
  stack ? AscendC::Erf<T, false>(d, s, n) : AscendC::Erf<T, false>(d, s, t, n);
}

TEST(MathScratch, Erf) {
  Sweep<float>("Erf", 768, CallErf<float>, [](auto... a) { return rp::ReplayErfScratch(a...); });
  Sweep<half>("Erf", 2048, CallErf<half>,
              [](const rp::Half* src, rp::Half* dst, uint32_t n, uint8_t* sc, uint32_t b) {
                const bool round = std::string(CurrentSoc()) == "Ascend910B1";
                return rp::ReplayErfScratch(src, dst, n, sc, b, round);
              });
}

template <class T>
void CallErfc(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
              uint32_t n, bool stack) {
  stack ? AscendC::Erfc<T, false>(d, s, n) : AscendC::Erfc<T, false>(d, s, t, n);
}

TEST(MathScratch, Erfc) {
  Sweep<float>("Erfc", 1792, CallErfc<float>,
               [](auto... a) { return rp::ReplayErfcScratch(a...); });
  Sweep<half>("Erfc", 4096, CallErfc<half>,
              [](const rp::Half* src, rp::Half* dst, uint32_t n, uint8_t* sc, uint32_t b) {
                const bool round = std::string(CurrentSoc()) == "Ascend910B1";
                return rp::ReplayErfcScratch(src, dst, n, sc, b, round);
              });
}

template <class T>
void CallSinh(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
              uint32_t n, bool stack) {
  stack ? AscendC::Sinh<T, false>(d, s, n) : AscendC::Sinh<T, false>(d, s, t, n);
}

TEST(MathScratch, Sinh) {
  Sweep<float>("Sinh", 256, CallSinh<float>, [](auto... a) { return rp::ReplaySinhScratch(a...); });
  Sweep<half>("Sinh", 1024, CallSinh<half>, [](auto... a) { return rp::ReplaySinhScratch(a...); });
}

template <class T>
void CallCosh(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
              uint32_t n, bool stack) {
  stack ? AscendC::Cosh<T, false>(d, s, n) : AscendC::Cosh<T, false>(d, s, t, n);
}

// Cosh: half cast CAST_ROUND on 2201 only (every binary16 pattern on 2201; the slices on both).
TEST(MathScratch, Cosh) {
  Sweep<float>("Cosh", 512, CallCosh<float>, [](auto... a) { return rp::ReplayCoshScratch(a...); });
  Sweep<half>("Cosh", 1536, CallCosh<half>,
              [](const rp::Half* src, rp::Half* dst, uint32_t n, uint8_t* sc, uint32_t b) {
                const bool round = std::string(CurrentSoc()) == "Ascend910B1";
                return rp::ReplayCoshScratch(src, dst, n, sc, b, round);
              });
}

// Erfc<half> on 2002 rounds its float result to nearest even (GetErfcCastType: CAST_ROUND on
// 2201 only): every binary16 input against the replay's float Erfc rounded so.
TEST(MathScratch, ErfcHalfOn2002CastsToNearestEven) {
  for (uint32_t start = 0; start < 65536; start += 8192) {
    const std::vector<half> in = AllHalves(start, 8192);
    std::vector<half> got;
    lngrad_replay::test::OnBlock(
        [&](lngrad_replay::test::Ub& ub) {
          ub.Put<half>(0, in);
          AscendC::Erfc<half, false>(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(2), 8192);
          got = ub.Take<half>(1);
        },
        "Ascend310P1");
    std::vector<half> want(8192);
    for (uint32_t i = 0; i < 8192; ++i) {
      const float r =
          rp::ReplayMathFloat(rp::MathOp::kErfc, lngrad_replay::test::ReplayWiden(in[i]));
      want[i] = lngrad_replay::test::ReplayRound<half>(r);
    }
    lngrad_replay::test::ExpectBitsEqual(got.data(), want.data(), 8192, "Erfc<half> on 2002",
                                         in.data());
  }
}

}  // namespace
