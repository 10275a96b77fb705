// A math API's scratch, dst and sources against a replay of the kit's loop, on arch 2201
// (Ascend910B1) and 2002 (Ascend310P1): the sharedTmpBuffer overload and the one that pops the
// stack buffer (the TPipe sized to leave exactly the scratch), scratch sizes from the minimum to
// one chunk for every count (and one no multiple of 32), counts with tails, inputs with NaN,
// +-inf, +-0, subnormals and values past int32, every binary16 pattern for half. The whole
// scratch is compared (a 0xa5 fill where nothing is written; two NaNs match, as for dst), dst
// bit for bit with the elements past the count (the sentinel), the sources as the replay leaves
// them. The math scratch replay tests share it (math_replay_scratch_*_test.cpp): a Case says
// what differs between them (the sources, counts, sizes, the elements past the count, how the
// scratch's words are compared).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "math_replay_test_util.h"
#include "replay.h"
#include "scratch_test_util.h"

namespace lngrad_replay::scratch_sweep {

using AscendC::LocalTensor;

inline constexpr uint8_t kFill = 0xa5;
inline constexpr uint32_t kPast = 40;
inline constexpr const char* kSocs[] = {"Ascend910B1", "Ascend310P1"};

inline bool Is2002(const char* soc) { return std::string(soc) == "Ascend310P1"; }

template <class T>
T Sentinel() {
  const uint32_t bits = sizeof(T) == 2 ? 0x5a5bu : 0x5a5b5c5du;
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

template <class T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, float>) return "<float>";
  if constexpr (std::is_same_v<T, int16_t>) return "<int16_t>";
  if constexpr (std::is_same_v<T, uint16_t>) return "<uint16_t>";
  return "<half>";
}

template <class T>
std::vector<uint8_t> BytesOf(const T* p, size_t n) {
  const auto* b = reinterpret_cast<const uint8_t*>(p);
  return std::vector<uint8_t>(b, b + n * sizeof(T));
}

template <class T>
std::vector<uint8_t> BytesOf(const std::vector<T>& v) {
  return BytesOf(v.data(), v.size());
}

// got[from, to) == want[from, to) as elements of E (two NaNs match where E is a floating type),
// the bytes past the last whole element exactly; to past the end: to the end.
template <class E>
void ExpectWords(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                 const std::string& what, size_t from = 0, size_t to = SIZE_MAX) {
  ASSERT_EQ(got.size(), want.size()) << what;
  to = std::min(to, got.size());
  if (from >= to) return;
  const size_t whole = from + (to - from) / sizeof(E) * sizeof(E);
  for (size_t i = from; i < to; i += (i < whole ? sizeof(E) : 1)) {
    const size_t len = i < whole ? sizeof(E) : 1;
    if (std::memcmp(&got[i], &want[i], len) == 0) continue;
    if constexpr (!std::is_integral_v<E>) {
      if (len == sizeof(E)) {
        E a, b;
        std::memcpy(&a, &got[i], sizeof(E));
        std::memcpy(&b, &want[i], sizeof(E));
        if (test::IsNan(a) && test::IsNan(b)) continue;
      }
    }
    uint32_t a = 0, b = 0;
    std::memcpy(&a, &got[i], len);
    std::memcpy(&b, &want[i], len);
    ADD_FAILURE() << what << ": bytes " << i << ".." << i + len - 1 << " of " << got.size()
                  << " differ: lngrad 0x" << std::hex << a << ", replay 0x" << b;
    return;
  }
}

// ---------------------------------------------------------------------------------------------
// Any number of sources.

template <class T>
using Sources = std::vector<std::vector<T>>;
// The API: dst, the sources, the scratch, the count; `stack`: the overload without the scratch.
template <class T>
using CallN = std::function<void(const LocalTensor<T>& dst, const std::vector<LocalTensor<T>>& src,
                                 const LocalTensor<uint8_t>& tmp, uint32_t count, bool stack)>;
// The replay: on copies of the sources (it may write them: isReuseSource), dst (count + the
// case's dstPast elements of the sentinel), the scratch (kFill); arch2002 true on Ascend310P1.
template <class T>
using ReplayN = std::function<bool(bool arch2002, Sources<T>& src, T* dst, uint32_t n,
                                   uint8_t* scratch, uint32_t tmpBytes)>;
// The sources of one case of the sweep (seed: the case's, n: its count).
template <class T>
using MakeSources = std::function<Sources<T>(uint32_t seed, uint32_t n)>;
// How the scratch is compared (got, want, what).
using ScratchCheck = std::function<void(const std::vector<uint8_t>&, const std::vector<uint8_t>&,
                                        const std::string&)>;

// The tiling minimum, one block more, six blocks more, odd multiples plus odd blocks, one chunk
// for every count, and (sharedTmpBuffer only) a size that is no multiple of 32.
inline std::vector<uint32_t> Sizes(uint32_t min, bool stack) {
  std::vector<uint32_t> v = {min, min + 32, min + 192, 3 * min + 96, 5 * min + 160, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

// The same with 13 blocks more in place of six, without five times the minimum (Lgamma, Power).
inline std::vector<uint32_t> SizesWide(uint32_t min, bool stack) {
  std::vector<uint32_t> v = {min, min + 32, min + 416, 3 * min + 96, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

inline const std::vector<uint32_t> kCounts = {0, 1, 37, 255, 257, 1000, 1537, 4099};

// One API on T and what its sweep runs over.
template <class T>
struct Case {
  std::string api;
  uint32_t min = 0;      // the tiling minimum on 2201
  uint32_t min2002 = 0;  // on 2002 (0: as min)
  CallN<T> call;
  ReplayN<T> replay;
  MakeSources<T> make;
  std::vector<uint32_t> counts = kCounts;
  std::function<std::vector<uint32_t>(uint32_t min, bool stack)> sizes = Sizes;
  uint32_t dstPast = kPast;  // dst elements past the count
  uint32_t srcPast = 0;      // source elements past the count (the unary sources, the patterns)
  uint32_t seed = 1;         // the sweep's first case takes seed + 1
  ScratchCheck check = [](const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                          const std::string& what) { ExpectWords<float>(got, want, what); };

  uint32_t Min(const char* soc) const { return Is2002(soc) && min2002 != 0 ? min2002 : min; }
};

struct Got {
  std::vector<uint8_t> dst, tmp;
  std::vector<std::vector<uint8_t>> src;
};

// One block of soc: the sources (their own sizes), dst (nd elements of the sentinel), the
// scratch of tmpBytes filled with kFill (a TBuf, or the stack buffer with a filler buffer
// before it).
template <class T>
Got RunKernelN(const char* soc, const Sources<T>& in, uint32_t nd, uint32_t count,
               uint32_t tmpBytes, bool stack, const CallN<T>& call) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    std::vector<AscendC::TBuf<>> bs(in.size());
    AscendC::TBuf<> bd, bt, filler;
    for (size_t i = 0; i < in.size(); ++i) {
      const auto ns = std::max<uint32_t>(static_cast<uint32_t>(in[i].size()), 1);
      pipe.InitBuffer(bs[i], scratch_test::Aligned32(ns * sizeof(T)));
    }
    pipe.InitBuffer(bd, scratch_test::Aligned32(nd * sizeof(T)));
    LocalTensor<uint8_t> tmp;
    scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    std::vector<LocalTensor<T>> s;
    for (size_t i = 0; i < in.size(); ++i) {
      s.push_back(bs[i].template Get<T>(static_cast<uint32_t>(in[i].size())));
      std::copy(in[i].begin(), in[i].end(), s[i].HostPtr());
    }
    LocalTensor<T> d = bd.Get<T>(nd);
    std::fill(d.HostPtr(), d.HostPtr() + nd, Sentinel<T>());
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    call(d, s, tmp, count, stack);
    g.dst = BytesOf(d.HostPtr(), nd);
    for (size_t i = 0; i < in.size(); ++i) g.src.push_back(BytesOf(s[i].HostPtr(), in[i].size()));
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// One case: lngrad's dst (count + c.dstPast elements), sources and scratch against the replay's.
template <class T>
void Compare(const char* soc, const Case<T>& c, const Sources<T>& in, uint32_t count,
             uint32_t tmpBytes, bool stack) {
  std::string what = c.api + TypeName<T>() + " on " + soc + ", count " + std::to_string(count);
  if (!in.empty() && in[0].size() != count) what += " of " + std::to_string(in[0].size());
  what += ", scratch " + std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  std::vector<T> want_dst(count + c.dstPast, Sentinel<T>());
  Sources<T> want_src = in;
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  ASSERT_TRUE(c.replay(Is2002(soc), want_src, want_dst.data(), count, want_tmp.data(), tmpBytes))
      << what;
  const Got got = RunKernelN(soc, in, count + c.dstPast, count, tmpBytes, stack, c.call);
  ASSERT_EQ(got.src.size(), in.size()) << what;
  ExpectWords<T>(got.dst, BytesOf(want_dst), what + " dst");
  for (size_t i = 0; i < in.size(); ++i) {
    ExpectWords<T>(got.src[i], BytesOf(want_src[i]), what + " src" + std::to_string(i));
  }
  c.check(got.tmp, want_tmp, what + " scratch");
}

// Every count and size of the case, both overloads, on both socs; stops at the first failure.
template <class T>
void Sweep(const Case<T>& c) {
  uint32_t seed = c.seed;
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : c.sizes(c.Min(soc), stack)) {
        for (uint32_t n : c.counts) {
          ++seed;
          Compare<T>(soc, c, c.make(seed, n), n, tmp, stack);
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
}

// Every binary16 pattern, from `start`, n of them.
template <class T = half>
std::vector<T> AllHalves(uint32_t start, uint32_t n) {
  std::vector<T> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint16_t b = static_cast<uint16_t>(start + i);
    std::memcpy(&v[i], &b, 2);
  }
  return v;
}

// A unary half case: every binary16 pattern in slices of 8192 (and c.srcPast more) through the
// minimum plus three blocks, on both socs.
inline void EveryPattern(const Case<half>& c) {
  for (const char* soc : kSocs) {
    for (uint32_t start = 0; start < 65536; start += 8192) {
      Compare<half>(soc, c, {AllHalves(start, 8192 + c.srcPast)}, 8192, c.Min(kSocs[1]) + 96,
                    false);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Unary APIs: (dst, src, tmp, count) or, `stack`, (dst, src, count).

template <class T>
using Call = std::function<void(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LocalTensor<uint8_t>& tmp, uint32_t count, bool stack)>;
template <class T>
using R = std::conditional_t<sizeof(T) == 2, Half, float>;
// The replay: arch2002 true on Ascend310P1; src may be written (isReuseSource).
template <class T>
using ReplayFn = std::function<bool(bool arch2002, R<T>* src, R<T>* dst, uint32_t n,
                                    uint8_t* scratch, uint32_t tmpBytes)>;
// Float inputs of one case: n of them from the seed.
using FloatInputs = std::function<std::vector<float>(uint32_t seed, size_t n)>;

template <class T>
CallN<T> Unary(const Call<T>& call) {
  return
      [call](const LocalTensor<T>& d, const std::vector<LocalTensor<T>>& s,
             const LocalTensor<uint8_t>& t, uint32_t n, bool stack) { call(d, s[0], t, n, stack); };
}

template <class T>
ReplayN<T> Unary(const ReplayFn<T>& replay) {
  return [replay](bool arch2002, Sources<T>& s, T* d, uint32_t n, uint8_t* sc, uint32_t b) {
    return replay(arch2002, reinterpret_cast<R<T>*>(s[0].data()), reinterpret_cast<R<T>*>(d), n, sc,
                  b);
  };
}

// The default specials of Mixed: +-0, +-inf, NaN, subnormals, values whose quotient by pi passes
// 2^31 (the int32 casts of 2002 saturate) and the largest floats.
inline const std::vector<float> kSpecials = {0.0f,   -0.0f,   test::kInf, -test::kInf, test::kNan,
                                             1e-40f, -1e-40f, 3e9f,       -3e9f,       1e10f,
                                             -1e10f, 7e9f,    -6.8e9f,    3.4e38f,     -3.4e38f};

// n values in [lo, hi) with the specials at random places (each one in 300).
inline std::vector<float> Mixed(uint32_t seed, size_t n, float lo, float hi,
                                const std::vector<float>& sp = kSpecials) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::uniform_int_distribution<int> pick(0, 299);
  std::vector<float> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    x = k < static_cast<int>(sp.size()) ? sp[static_cast<size_t>(k)] : u(gen);
  }
  return v;
}

inline FloatInputs MixedIn(float lo, float hi, const std::vector<float>& sp = kSpecials) {
  return [lo, hi, sp](uint32_t seed, size_t n) { return Mixed(seed, n, lo, hi, sp); };
}

// One source of n + srcPast elements: floats from `floats`, halves every binary16 pattern from a
// place the seed picks.
template <class T>
MakeSources<T> UnarySources(const FloatInputs& floats, uint32_t srcPast = 0) {
  return [floats, srcPast](uint32_t seed, uint32_t n) -> Sources<T> {
    if constexpr (sizeof(T) == 2) {
      return {AllHalves<T>(seed * 4099u % 65536u, n + srcPast)};
    } else {
      return {floats(seed, n + srcPast)};
    }
  };
}

// A unary case: float inputs from `floats`, half ones every binary16 pattern from a place the
// seed picks; c.srcPast elements past the count.
template <class T>
Case<T> UnaryCase(const std::string& api, uint32_t min, const Call<T>& call,
                  const ReplayFn<T>& replay, const FloatInputs& floats = MixedIn(-12.0f, 12.0f),
                  uint32_t srcPast = 0) {
  Case<T> c;
  c.api = api;
  c.min = min;
  c.call = Unary<T>(call);
  c.replay = Unary<T>(replay);
  c.srcPast = srcPast;
  c.make = UnarySources<T>(floats, srcPast);
  return c;
}

// The sweep of a unary case, then (half) every binary16 pattern.
template <class T>
void SweepAll(const Case<T>& c) {
  Sweep<T>(c);
  if constexpr (sizeof(T) == 2) {
    if (!::testing::Test::HasFailure()) EveryPattern(c);
  }
}

// Every count and size, both overloads, on both socs; float inputs Mixed in [lo, hi), half
// ones every binary16 pattern in slices, then every binary16 pattern through one scratch.
template <class T>
void Sweep(const std::string& api, uint32_t min, const Call<T>& call, const ReplayFn<T>& replay,
           float lo = -12.0f, float hi = 12.0f) {
  SweepAll(UnaryCase<T>(api, min, call, replay, MixedIn(lo, hi)));
}

// One unary comparison (dst of count + kPast elements).
template <class T>
void Compare(const char* soc, const std::string& api, const std::vector<T>& in, uint32_t count,
             uint32_t tmpBytes, bool stack, const Call<T>& call, const ReplayFn<T>& replay) {
  Compare<T>(soc, UnaryCase<T>(api, 0, call, replay), {in}, count, tmpBytes, stack);
}

template <class T>
Got RunKernel(const char* soc, const std::vector<T>& in, uint32_t count, uint32_t tmpBytes,
              bool stack, const Call<T>& call) {
  return RunKernelN<T>(soc, {in}, count + kPast, count, tmpBytes, stack, Unary<T>(call));
}

}  // namespace lngrad_replay::scratch_sweep
