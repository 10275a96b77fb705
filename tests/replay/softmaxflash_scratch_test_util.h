// The harness of the SoftmaxFlash scratch replay tests (softmaxflash_scratch_replay_test.cpp: the
// generic update and no update; softmaxflash_basic_scratch_replay_test.cpp: the 2201 isBasicBlock
// update): operands with NaN / signed zeros / infinities / subnormals, lngrad's call on a block
// with the work buffer and the stack filled with 0xa5, bitwise comparisons, the kernel's re-tile.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay.h"
#include "replay_softmax.h"
#include "scratch_test_util.h"
#include "tiling/tiling_api.h"

namespace sflash_test {

using AscendC::LocalTensor;
using lngrad_replay::Bits;
using lngrad_replay::Half;
using lngrad_replay::SmxTiling;

constexpr uint32_t kPast = 40;
constexpr uint8_t kFill = 0xa5;

struct Shape {
  uint32_t m, k, oriK;
};
enum class How { kHost, kRetile };

template <class T>
using Dev = std::conditional_t<std::is_same_v<T, Half>, half, float>;

template <class T>
std::vector<T> As(const std::vector<float>& v) {
  std::vector<T> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = lngrad_replay::FromFloat<T>(v[i]);
  return r;
}
template <class T>
float Wide(T v) {
  return lngrad_replay::ToFloat(v);
}

// Rows: r % 6 == 1 a NaN at column 0, == 2 signed zeros only (-0 first), == 3 specials (inf,
// subnormals, -0) at random columns, == 4 a NaN in the tail columns, == 5 in (-8.5, -0.5] (an
// inMax of -0 is their max, Operands); the others in [-8, 8).
inline std::vector<float> Source(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-8.0f, 8.0f);
  std::vector<float> v(uint64_t{s.m} * s.k);
  const float specials[] = {INFINITY, -INFINITY, 1e-40f, -3e-39f, 1e-45f, -0.0f, 0.0f};
  for (uint32_t r = 0; r < s.m; ++r) {
    float* row = v.data() + uint64_t{r} * s.k;
    for (uint32_t c = 0; c < s.k; ++c) row[c] = d(gen);
    switch (r % 6) {
      case 1:
        row[0] = NAN;
        break;
      case 2:
        for (uint32_t c = 0; c < s.k; ++c) row[c] = c % 3 == 0 ? -0.0f : 0.0f;
        break;
      case 3:
        for (uint32_t i = 0; i < 3; ++i) row[gen() % s.oriK] = specials[gen() % 7];
        break;
      case 4:
        row[s.oriK - 1 - gen() % (s.oriK < 5 ? s.oriK : 5)] = NAN;
        break;
      case 5:
        for (uint32_t c = 0; c < s.k; ++c) row[c] = -0.5f - std::fabs(row[c]);
        break;
      default:
        break;
    }
  }
  return v;
}

inline std::vector<float> Uniform(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& e : v) e = d(gen);
  return v;
}

template <class T, class S>
struct Io {
  std::vector<T> src, dst, em;
  std::vector<S> sum, max, inSum, inMax;
  std::vector<uint8_t> tmp, stack;
};

template <class T, class S>
Io<T, S> Operands(const Shape& s, uint32_t seed, uint32_t lanesS, uint32_t lanesE, bool nan) {
  const uint64_t n = uint64_t{s.m} * s.k, st = uint64_t{s.m} * lanesS;
  Io<T, S> in;
  std::vector<float> src = Source(seed, s);
  if (!nan) {  // SoftMax's work replay predates the kit's NaN and zero-tie order
    for (uint64_t i = 0; i < src.size(); ++i) {  // (replay.SoftMaxNanReplay.* has it)
      if (std::isnan(src[i]) || (i / s.k) % 6 == 2) src[i] = 1.5f - float(i % 5);
    }
  }
  in.src = As<T>(src);
  in.dst.assign(n + kPast, lngrad_replay::FromFloat<T>(-77.0f));
  in.sum = As<S>(Uniform(seed + 1, st + kPast, -3.0f, 3.0f));  // kPast sentinels after each
  in.max = As<S>(Uniform(seed + 2, st + kPast, -3.0f, 3.0f));
  in.em = As<T>(Uniform(seed + 3, uint64_t{s.m} * lanesE + kPast, -3.0f, 3.0f));
  in.inSum = As<S>(Uniform(seed + 4, st + kPast, 0.5f, 40.0f));
  std::vector<float> inMax = Uniform(seed + 5, st + kPast, -6.0f, 9.0f);
  for (uint64_t i = 0; i < st; ++i) {
    if (i % 23 == 9) inMax[i] = NAN;
    if ((i / lanesS) % 6 == 2) inMax[i] = -INFINITY;  // the zero rows: max is the row's
    // -0 (session 24): rows r % 6 == 5 (negative: the new max is -0, which 2002 moves with
    // DataCopy as 2201 does, so it stays -0) and every other zero row.
    if ((i / lanesS) % 6 == 5 || (i / lanesS) % 12 == 8) inMax[i] = -0.0f;
  }
  in.inMax = As<S>(inMax);
  return in;
}

inline uint32_t Al(uint64_t bytes) {
  return lngrad_replay::scratch_test::Aligned32(static_cast<uint32_t>(bytes));
}
template <class V, class D>
void Load(const LocalTensor<D>& t, const std::vector<V>& v) {
  if (!v.empty()) std::memcpy(t.HostPtr(), v.data(), v.size() * sizeof(V));
}
template <class V, class D>
void Keep(const LocalTensor<D>& t, std::vector<V>& v) {
  if (!v.empty()) std::memcpy(v.data(), t.HostPtr(), v.size() * sizeof(V));
}

// SoftmaxFlash<T> on a block of soc with the operands of `in`; got.stack: with the shared
// overload, the stack buffer left after the TPipe (filled with kFill before the call).
template <class T, class S, bool kBasic = false>
Io<T, S> RunLngrad(const char* soc, const Shape& s, bool update, bool stack, uint32_t tmpBytes,
                   const SoftMaxTiling& t, const Io<T, S>& in, bool alias = false,
                   std::string* refused = nullptr) {
  using DT = Dev<T>;
  using DS = Dev<S>;
  Io<T, S> got = in;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const uint64_t n = uint64_t{s.m} * s.k;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> b[7], own, filler;
    const uint64_t sizes[7] = {n * sizeof(T),
                               (n + kPast) * sizeof(T),
                               in.em.size() * sizeof(T),
                               in.sum.size() * sizeof(S),
                               in.sum.size() * sizeof(S),
                               in.sum.size() * sizeof(S),
                               in.sum.size() * sizeof(S)};
    for (int i = 0; i < 7; ++i) pipe.InitBuffer(b[i], Al(sizes[i]));
    LocalTensor<uint8_t> tmp, rest;
    lngrad_replay::scratch_test::TakeScratch(pipe, own, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    if (!stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(rest)));
      std::memset(rest.HostPtr(), kFill, rest.GetSize());
    }
    LocalTensor<DT> src = b[0].Get<DT>(), dstAll = b[1].Get<DT>(), em = b[2].Get<DT>();
    LocalTensor<DT> dst = dstAll[0];
    dst.SetSize(static_cast<uint32_t>(n));
    LocalTensor<DS> sum = b[3].Get<DS>(), max = b[4].Get<DS>(), inSum = b[5].Get<DS>(),
                    inMax = b[6].Get<DS>();
    Load(src, in.src), Load(dstAll, in.dst), Load(em, in.em), Load(sum, in.sum);
    Load(max, in.max), Load(inSum, in.inSum), Load(inMax, in.inMax);
    std::memset(tmp.HostPtr(), kFill, tmpBytes);
    const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    const LocalTensor<DS>& inS = alias ? sum : inSum;  // the statistics updated in place
    const LocalTensor<DS>& inM = alias ? max : inMax;
    const auto keep = [&] {  // also after a refusal: what the call left
      Keep(src, got.src), Keep(dstAll, got.dst), Keep(em, got.em), Keep(sum, got.sum);
      Keep(max, got.max), Keep(inSum, got.inSum), Keep(inMax, got.inMax);
      got.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
      if (!stack) got.stack.assign(rest.HostPtr(), rest.HostPtr() + rest.GetSize());
    };
    try {
      if (stack) {
        AscendC::SoftmaxFlash<DT, false, kBasic>(dst, sum, max, src, em, inS, inM, t, update, si);
      } else {
        AscendC::SoftmaxFlash<DT, false, kBasic>(dst, sum, max, src, em, inS, inM, tmp, t, update,
                                                 si);
      }
    } catch (...) {
      keep();
      throw;
    }
#pragma GCC diagnostic pop
    keep();
  };
  const auto status = lngrad::aicore::Launch(1, kernel, opts);
  if (refused != nullptr) {
    *refused = status.ok() ? "" : std::string(status.message());
  } else {
    EXPECT_TRUE(status.ok()) << status.message();
  }
  return got;
}

inline bool Same(float a, float b) {
  return Bits(a) == Bits(b) || (std::isnan(a) && std::isnan(b));
}
template <class T>
bool SameT(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    return Same(a, b);
  } else {
    return a.bits == b.bits || (std::isnan(Wide(a)) && std::isnan(Wide(b)));
  }
}
template <class T>
void ExpectBits(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!SameT(got[i], want[i])) {
      ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad " << Wide(got[i])
                    << ", replay " << Wide(want[i]);
      return;
    }
  }
}
inline void ExpectBytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                        const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    const size_t at = i / 4 * 4;
    float g = 0, w = 0;
    if (at + 4 <= got.size()) {
      std::memcpy(&g, got.data() + at, 4);
      std::memcpy(&w, want.data() + at, 4);
      if (Same(g, w)) continue;
    }
    ADD_FAILURE() << what << ": first mismatch at byte " << i << " (float " << i / 4
                  << "): lngrad 0x" << std::hex << Bits(g) << ", replay 0x" << Bits(w);
    return;
  }
}

// The kit's SoftMaxFlashTilingFunc (softmax_tiling_func.h) over w floats, blocks of blk (basic:
// isBasicBlock, which keeps more than 8 rows a multiple of 8 dividing m when m % 8 == 0).
inline SmxTiling KernelTiling(uint32_t w, uint32_t m, uint32_t k, uint32_t blk, bool update,
                              bool basic = false) {
  SmxTiling t{};
  uint32_t rows = w / (blk * (update ? 4 : 2) + k * 2);
  rows = rows < m ? rows : m;
  if (basic && rows > 8 && m % 8 == 0) {
    rows = rows / 8 * 8;
    while (m % rows != 0) rows -= 8;
  }
  t.srcM = m, t.srcK = k, t.srcSize = m * k, t.outMaxM = m, t.outMaxK = blk;
  t.outMaxSize = m * blk;
  t.reduceM = t.splitM = rows, t.reduceK = blk, t.reduceSize = rows * blk;
  t.splitK = k, t.splitSize = rows * k;
  t.rangeM = rows == 0 ? 0 : m / rows, t.tailM = rows == 0 ? 0 : m % rows;
  t.tailSplitSize = t.tailM * k, t.tailReduceSize = t.tailM * blk;
  return t;
}

inline int checksRun = 0;  // calls compared by the current sweep

}  // namespace sflash_test
