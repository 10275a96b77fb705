// Shared helpers of the softmax replay tests (softmax_replay_test.cpp,
// softmax_flash_replay_test.cpp): UB staging, seeded inputs, the host tilings and the bitwise
// comparison against lngrad_replay.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "replay_softmax.h"
#include "tiling/tiling_api.h"

namespace softmax_replay_test {

using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;
using lngrad_replay::Half;
using lngrad_replay::SmxTiling;

inline constexpr const char* k910B = "Ascend910B1";
inline constexpr const char* k950 = "Ascend950PR_9599";
static_assert(sizeof(SoftMaxTiling) == sizeof(SmxTiling));

// The device element type of a replay type.
template <class T>
using Dev = std::conditional_t<std::is_same_v<T, Half>, half, float>;

struct Shape {
  uint32_t m, k, oriK;
};

inline std::string Name(const Shape& s) {
  return "m " + std::to_string(s.m) + " k " + std::to_string(s.k) + " oriK " +
         std::to_string(s.oriK);
}

// Seeded inputs: uniform in [-8, 8]; every third row spans [-110, 12] (exp underflows to
// subnormals and zero); every row repeats its first value (ties of the max) and has -inf at
// one column of the reduced part when oriK > 2.
template <class T>
std::vector<T> Inputs(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::vector<T> v(s.m * s.k);
  for (uint32_t r = 0; r < s.m; ++r) {
    const bool wide = r % 3 == 2;
    std::uniform_real_distribution<float> d(wide ? -110.0f : -8.0f, wide ? 12.0f : 8.0f);
    for (uint32_t c = 0; c < s.k; ++c) v[r * s.k + c] = lngrad_replay::FromFloat<T>(d(gen));
    if (s.oriK > 2) {
      v[r * s.k + s.oriK - 1] = v[r * s.k];
      v[r * s.k + (seed + r) % (s.oriK - 1)] = lngrad_replay::FromFloat<T>(-INFINITY);
    }
  }
  return v;
}

template <class T>
void Put(Ub& ub, int buf, const std::vector<T>& v, uint32_t at = 0) {
  if (v.empty()) return;  // memcpy from an empty vector's null data() is undefined
  std::memcpy(ub.Get<uint8_t>(buf).HostPtr() + at * sizeof(T), v.data(), v.size() * sizeof(T));
}

template <class T>
std::vector<T> Take(Ub& ub, int buf, size_t n, uint32_t at = 0) {
  std::vector<T> v(n);
  if (n == 0) return v;
  std::memcpy(v.data(), ub.Get<uint8_t>(buf).HostPtr() + at * sizeof(T), n * sizeof(T));
  return v;
}

template <class T>
uint32_t BitsOf(T v) {
  if constexpr (std::is_same_v<T, Half>) {
    return v.bits;
  } else {
    return lngrad_replay::Bits(v);
  }
}

// Bitwise comparison; the first mismatch is reported with both values.
template <class T>
void ExpectSameBits(const std::vector<T>& got, const std::vector<T>& want,
                    const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (BitsOf(got[i]) != BitsOf(want[i])) {
      ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad "
                    << lngrad_replay::ToFloat(got[i]) << " (0x" << std::hex << BitsOf(got[i])
                    << "), replay " << std::dec << lngrad_replay::ToFloat(want[i]) << " (0x"
                    << std::hex << BitsOf(want[i]) << ")";
      return;
    }
  }
}

// dst, sum and max against the replay's (`what` prefixes the names).
template <class T, class S>
void ExpectOutputs(const std::string& what, const std::vector<T>& y, const std::vector<T>& wy,
                   const std::vector<S>& sum, const std::vector<S>& wsum, const std::vector<S>& max,
                   const std::vector<S>& wmax) {
  ExpectSameBits(y, wy, what + "dst");
  ExpectSameBits(sum, wsum, what + "sum");
  ExpectSameBits(max, wmax, what + "max");
}

// The host tiling for [m, k] with a tmp budget of `splitRows` rows' minimum (0: the maximum
// size, capped at the scratch buffer), as lngrad's SoftMaxTilingFunc computes it.
inline SoftMaxTiling HostTiling(const Shape& s, uint32_t typeSize, uint32_t splitRows) {
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxMaxTmpSize(shape, typeSize, false);
  if (splitRows != 0) {
    budget = AscendC::GetSoftMaxMinTmpSize(ge::Shape({1, s.k}), typeSize, false) * splitRows;
  }
  budget = std::min(budget, kUbBufBytes);
  SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(shape, typeSize, budget, t);
  return t;
}

inline SmxTiling Mirror(const SoftMaxTiling& t) {
  SmxTiling r;
  std::memcpy(&r, &t, sizeof r);
  return r;
}

// Statistics live in buffer 2: sum from element 0, max from the buffer's middle.
template <class S>
inline constexpr uint32_t kMaxAt = kUbBufBytes / 2 / sizeof(S);

// Uniform values in [lo, hi) as T.
template <class T>
std::vector<T> Uniform(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<T> v(n);
  for (T& e : v) e = lngrad_replay::FromFloat<T>(d(gen));
  return v;
}

// Statistics [m, reduceK] for SimpleSoftMax: laneWise: every entry its own value (the source
// reads lane c % 8 of the row for column c); else one value per row.
template <class S>
std::vector<S> Stats(uint32_t seed, uint32_t m, uint32_t reduceK, float lo, float hi,
                     bool laneWise) {
  std::vector<S> v = Uniform<S>(seed, m * reduceK, lo, hi);
  if (!laneWise) {
    for (uint32_t i = 0; i < v.size(); ++i) v[i] = v[i - i % reduceK];
  }
  return v;
}

// The flash tests' tensors: src buffer 0, dst buffer 1, sum at 0 and max at the middle of
// buffer 2, expMax in buffer 3's second half (the first half is the tmp).
template <class T, class S>
struct FlashTensors {
  explicit FlashTensors(Ub& ub)
      : sum(ub.Get<Dev<S>>(2)[0]),
        max(ub.Get<Dev<S>>(2)[kMaxAt<S>]),
        em(ub.Get<Dev<T>>(3)[kUbBufBytes / 2 / sizeof(T)]),
        tmp(ub.Get<uint8_t>(3)),
        dst(ub.Get<Dev<T>>(1)),
        src(ub.Get<Dev<T>>(0)) {
    tmp.SetSize(kUbBufBytes / 2);
  }
  AscendC::LocalTensor<Dev<S>> sum, max;
  AscendC::LocalTensor<Dev<T>> em;
  AscendC::LocalTensor<uint8_t> tmp;
  AscendC::LocalTensor<Dev<T>> dst, src;
};

// A dst that starts as -77 everywhere (the 3510 code leaves the columns past oriSrcK alone).
template <class T>
std::vector<T> Sentinel(size_t n) {
  return std::vector<T>(n, lngrad_replay::FromFloat<T>(-77.0f));
}

// SoftMax's operands with statistics: src x in buffer 0, a sentinel dst of n elements in buffer
// 1 (unless in place), sentinel sum and max of `stats` elements in buffer 2 (max at kMaxAt).
template <class T, class S>
void PutSoftMaxOperands(Ub& ub, const std::vector<T>& x, uint32_t n, uint32_t stats,
                        bool inPlace = false) {
  Put(ub, 0, x);
  if (!inPlace) Put(ub, 1, Sentinel<T>(n));
  Put(ub, 2, Sentinel<S>(stats));
  Put(ub, 2, Sentinel<S>(stats), kMaxAt<S>);
}

// SimpleSoftMax on soc: src buffer 0, statistics in buffer 2 (sum at 0, max at the middle), dst
// buffer 1; returns dst.
template <class T, class S>
std::vector<T> RunSimpleSoftMax(const Shape& s, const std::vector<T>& x,
                                const std::vector<S>& inSum, const std::vector<S>& inMax,
                                const SoftMaxTiling& t, const char* soc) {
  std::vector<T> y;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        const AscendC::SoftMaxShapeInfo shape{s.m, s.k, s.m, s.oriK};
        AscendC::SimpleSoftMax<Dev<T>>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0),
                                       ub.Get<uint8_t>(3), t, shape);
        y = Take<T>(ub, 1, x.size());
      },
      soc);
  return y;
}

// SoftmaxGrad<nz> (isFront) or SoftmaxGradFront<basic> (frontApi) on soc: grad buffer 0, src
// buffer 1, dst buffer 2 (a sentinel first); returns the first n elements of dst.
template <class T, bool basic, bool nz = false>
std::vector<T> RunSoftmaxGrad(const AscendC::SoftMaxShapeInfo& si, const std::vector<T>& grad,
                              const std::vector<T>& y, const SoftMaxTiling& t, bool isFront,
                              bool frontApi, size_t n, const char* soc) {
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, grad);
        Put(ub, 1, y);
        Put(ub, 2, Sentinel<T>(grad.size()));
        auto dst = ub.Get<Dev<T>>(2);
        if (frontApi) {
          AscendC::SoftmaxGradFront<Dev<T>, basic, nz>(dst, ub.Get<Dev<T>>(0), ub.Get<Dev<T>>(1),
                                                       ub.Get<uint8_t>(3), t, si);
        } else {
          AscendC::SoftmaxGrad<Dev<T>, false, nz>(dst, ub.Get<Dev<T>>(0), ub.Get<Dev<T>>(1),
                                                  ub.Get<uint8_t>(3), t, isFront, si);
        }
        out = Take<T>(ub, 2, n);
      },
      soc);
  return out;
}

// SoftmaxFlashV3 on soc: unless `separate`, no update on block a, then update (loopCnt) on block b
// with mean/expSum/max in place (aliased, as the toolkit's sample); `separate`: one update from
// lane-varying inputs into other tensors. Buffer 2 holds the statistics at multiples of 1024
// floats (out: mean, expSum, max; separate inputs from 3072), starting as st0; expMax in buffer
// 3's second half.
struct FlashV3Out {
  std::vector<Half> y0, y, em;
  std::vector<float> st1, st;  // the statistics after the no-update and the update call
};
inline constexpr uint32_t kFlashV3EmAt = kUbBufBytes / 4;
inline FlashV3Out RunFlashV3(const Shape& s, const std::vector<Half>& a, const std::vector<Half>& b,
                             const std::vector<float>& st0, const SoftMaxTiling& t,
                             const AscendC::SoftMaxParams& p, bool separate, const char* soc) {
  const uint32_t inAt = separate ? 3072 : 0;
  FlashV3Out o;
  OnBlock(
      [&](Ub& ub) {
        auto f = ub.Get<float>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(kUbBufBytes / 2);
        Put(ub, 2, st0);
        if (!separate) {
          Put(ub, 0, a);
          AscendC::SoftmaxFlashV3<half, float, false>(
              ub.Get<half>(1), f[0], f[1024], f[2048], ub.Get<half>(0),
              ub.Get<half>(3)[kFlashV3EmAt], f[0], f[1024], f[2048], tmp, t, p);
          o.y0 = Take<Half>(ub, 1, a.size());
          o.st1 = Take<float>(ub, 2, 6 * 1024);
        }
        Put(ub, 0, b);
        AscendC::SoftmaxFlashV3<half, float, true>(
            ub.Get<half>(1), f[0], f[1024], f[2048], ub.Get<half>(0), ub.Get<half>(3)[kFlashV3EmAt],
            f[inAt], f[inAt + 1024], f[inAt + 2048], tmp, t, p);
        o.y = Take<Half>(ub, 1, b.size());
        o.st = Take<float>(ub, 2, 6 * 1024);
        o.em = Take<Half>(ub, 3, s.m * 16, kFlashV3EmAt);
      },
      soc);
  return o;
}

// RunFlashV3 on inputs from seed (a with -inf and ties, b uniform, statistics uniform) compared
// with replay(isUpdate, src, dst, expMax, stats), which updates the statistics copy in place.
template <class Replay>
void CheckFlashV3Against(const Shape& s, const SoftMaxTiling& t, uint32_t loopCnt, bool separate,
                         uint32_t seed, const char* soc, Replay replay) {
  SCOPED_TRACE(Name(s) + " loopCnt " + std::to_string(loopCnt) + " seed " + std::to_string(seed));
  const auto a = Inputs<Half>(seed, s), b = Uniform<Half>(seed + 1, s.m * s.k, -3.0f, 9.0f);
  const uint32_t inAt = separate ? 3072 : 0;
  const AscendC::SoftMaxParams p{s.m, s.k, s.m, s.k, loopCnt, 8, 0.9375f};
  const std::vector<float> st0 = Uniform<float>(seed + 2, 6 * 1024, 0.5f, 9.0f);
  const FlashV3Out o = RunFlashV3(s, a, b, st0, t, p, separate, soc);
  std::vector<float> w = st0;
  std::vector<Half> wy0(a.size()), wy(b.size()), wem(s.m * 16);
  auto stats3 = [&](uint32_t in) {
    return lngrad_replay::FlashV3Stats{w.data(),      w.data() + 1024,      w.data() + 2048,
                                       w.data() + in, w.data() + in + 1024, w.data() + in + 2048};
  };
  if (!separate) {
    replay(false, a.data(), wy0.data(), nullptr, stats3(0));
    ExpectSameBits(o.y0, wy0, "no update dst");
    ExpectSameBits(o.st1, w, "no update statistics");
  }
  replay(true, b.data(), wy.data(), wem.data(), stats3(inAt));
  ExpectSameBits(o.y, wy, "update dst");
  ExpectSameBits(o.st, w, "update statistics");
  ExpectSameBits(o.em, wem, "update expMax");
}

// AdjustSoftMaxRes: rows whose max (lane 0 of its block, or element r with stepSizeMode 1) has
// the bits of `from` get `to`; the other lanes of a block do not count. nz: the NZ form (the
// max at 32 bytes per row whatever stepSizeMode; the row's 16 columns of every fractal).
template <class T, class S, uint8_t stepSizeMode, bool nz = false>
void CheckAdjust(uint32_t m, uint32_t k, uint32_t seed) {
  SCOPED_TRACE("m " + std::to_string(m) + " k " + std::to_string(k) + " seed " +
               std::to_string(seed));
  const uint32_t step = stepSizeMode && !nz ? 1 : 32 / sizeof(S);
  const auto res = Uniform<T>(seed, m * k, 0.0f, 1.0f);
  std::vector<S> max = Uniform<S>(seed + 1, m * step, -4.0f, 4.0f);
  const uint32_t from = sizeof(S) == 2 ? 0xFBFFu : 0xFF7FFFFFu;  // the lowest finite value
  S marker;
  std::memcpy(&marker, &from, sizeof marker);
  for (uint32_t r = 0; r < m; r += 3) max[r * step] = marker;
  if (step > 1) max[1 * step + 1] = marker;  // not lane 0: no match
  const T to = lngrad_replay::FromFloat<T>(-0.5f);
  std::vector<T> got;
  bool any = false;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, res);
        Put(ub, 1, max);
        any = AscendC::AdjustSoftMaxRes<Dev<T>, Dev<S>, nz, stepSizeMode>(
            ub.Get<Dev<T>>(0), ub.Get<Dev<S>>(1), from, *reinterpret_cast<const Dev<T>*>(&to),
            {m, k, m, k});
        got = Take<T>(ub, 0, res.size());
      },
      k910B);
  std::vector<T> want = res;
  bool wantAny = false;
  if constexpr (nz) {
    wantAny = lngrad_replay::ReplayAdjustSoftMaxResNz(m, k, want.data(), max.data(), from, to);
  } else {
    wantAny = lngrad_replay::ReplayAdjustSoftMaxRes(m, k, want.data(), max.data(), from, to,
                                                    stepSizeMode != 0);
  }
  EXPECT_EQ(any, wantAny);
  ExpectSameBits(got, want, "softMaxRes");
}

}  // namespace softmax_replay_test
