// A unary math API's scratch, dst and source against a replay of the kit's loop, on arch 2201
// (Ascend910B1) and 2002 (Ascend310P1): the sharedTmpBuffer overload and the one that pops the
// stack buffer (the TPipe sized to leave exactly the scratch), scratch sizes from the minimum to
// one chunk for every count (and one no multiple of 32), counts with tails, float inputs with
// NaN, +-inf, +-0, subnormals and values past 2^31 * pi, every binary16 pattern for half. The
// whole scratch is compared (a 0xa5 fill where nothing is written; two NaNs match, as for dst),
// dst bit for bit with 40 sentinel elements past the count, the source as the replay leaves it.
// (math_replay_scratch_test.cpp has the same comparison for the APIs of session 17.)
#pragma once

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
#include "replay.h"
#include "scratch_test_util.h"

namespace lngrad_replay::scratch_sweep {

using AscendC::LocalTensor;

inline constexpr uint8_t kFill = 0xa5;
inline constexpr uint32_t kPast = 40;
inline constexpr const char* kSocs[] = {"Ascend910B1", "Ascend310P1"};

template <class T>
T Sentinel() {
  const uint32_t bits = sizeof(T) == 2 ? 0x5a5bu : 0x5a5b5c5du;
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

// The API under test: (dst, src, tmp, count) or, `stack`, (dst, src, count).
template <class T>
using Call = std::function<void(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LocalTensor<uint8_t>& tmp, uint32_t count, bool stack)>;
template <class T>
using R = std::conditional_t<sizeof(T) == 2, Half, float>;
// The replay: arch2002 true on Ascend310P1; src may be written (isReuseSource).
template <class T>
using ReplayFn = std::function<bool(bool arch2002, R<T>* src, R<T>* dst, uint32_t n,
                                    uint8_t* scratch, uint32_t tmpBytes)>;

struct Got {
  std::vector<uint8_t> dst, src, tmp;
};

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
    pipe.InitBuffer(bs, scratch_test::Aligned32(ns * sizeof(T)));
    pipe.InitBuffer(bd, scratch_test::Aligned32(nd * sizeof(T)));
    LocalTensor<uint8_t> tmp;
    scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
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
      if (test::IsNan(a) && test::IsNan(b)) continue;
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
void Compare(const char* soc, const std::string& api, const std::vector<T>& in, uint32_t count,
             uint32_t tmpBytes, bool stack, const Call<T>& call, const ReplayFn<T>& replay) {
  const std::string what = api + (sizeof(T) == 2 ? "<half>" : "<float>") + " on " + soc +
                           ", count " + std::to_string(count) + ", scratch " +
                           std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  std::vector<T> want_dst(count + kPast, Sentinel<T>()), want_src = in;
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  const bool arch2002 = std::string(soc) == "Ascend310P1";
  ASSERT_TRUE(replay(arch2002, reinterpret_cast<R<T>*>(want_src.data()),
                     reinterpret_cast<R<T>*>(want_dst.data()), count, want_tmp.data(), tmpBytes))
      << what;
  const Got got = RunKernel(soc, in, count, tmpBytes, stack, call);
  ExpectWords<T>(got.dst, BytesOf(want_dst), what + " dst");
  ExpectWords<T>(got.src, BytesOf(want_src), what + " src");
  ExpectWords<float>(got.tmp, want_tmp, what + " scratch");
}

// n values in [lo, hi) with the specials at random places (about one in 20): +-0, +-inf, NaN,
// subnormals, values whose quotient by pi passes 2^31 (the int32 casts of 2002 saturate) and
// the largest floats.
inline std::vector<float> Mixed(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::uniform_int_distribution<int> pick(0, 299);
  const float inf = test::kInf, nan = test::kNan;
  const float sp[] = {0.0f,  -0.0f, inf,    -inf, nan,     1e-40f,  -1e-40f, 3e9f,
                      -3e9f, 1e10f, -1e10f, 7e9f, -6.8e9f, 3.4e38f, -3.4e38f};
  std::vector<float> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    x = k < 15 ? sp[k] : u(gen);
  }
  return v;
}

// Every binary16 pattern, from `start`, n of them.
inline std::vector<half> AllHalves(uint32_t start, uint32_t n) {
  std::vector<half> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint16_t b = static_cast<uint16_t>(start + i);
    std::memcpy(&v[i], &b, 2);
  }
  return v;
}

inline const std::vector<uint32_t> kCounts = {0, 1, 37, 255, 257, 1000, 1537, 4099};

// The minimum, one block more, six blocks more, odd multiples plus odd blocks, one chunk for
// every count, and (sharedTmpBuffer only) a size that is no multiple of 32.
inline std::vector<uint32_t> Sizes(uint32_t min, bool stack) {
  std::vector<uint32_t> v = {min, min + 32, min + 192, 3 * min + 96, 5 * min + 160, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

// Every count and size, both overloads, on both socs; float inputs Mixed in [lo, hi), half
// ones every binary16 pattern in slices, then every binary16 pattern through one scratch.
template <class T>
void Sweep(const std::string& api, uint32_t min, const Call<T>& call, const ReplayFn<T>& replay,
           float lo = -12.0f, float hi = 12.0f) {
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
            in = Mixed(seed, n, lo, hi);
          }
          Compare<T>(soc, api, in, n, tmp, stack, call, replay);
        }
      }
    }
  }
  if constexpr (sizeof(T) == 2) {
    for (const char* soc : kSocs) {
      for (uint32_t start = 0; start < 65536; start += 8192) {
        Compare<T>(soc, api, AllHalves(start, 8192), 8192, min + 96, false, call, replay);
      }
    }
  }
}

}  // namespace lngrad_replay::scratch_sweep
