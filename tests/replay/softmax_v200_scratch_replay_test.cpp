// SoftMax, LogSoftMax and SimpleSoftMax<half> on arch 2002 (Ascend310P1) against the replay of
// the kit's membase/v200 generic loops (replay_softmax_v200_scratch.h): float and half data, half
// or float statistics or none (isReuseSource on float data, which 2002 does not read), both
// overloads (sharedTmpBuffer; the stack buffer, the TPipe sized so it leaves exactly the
// scratch's bytes), the kernel's re-tile and the host tiling, work buffers from the minimum to
// large (one size no multiple of 32), shapes through every branch of the row reductions (oriSrcK
// < 64, [64, 128), [128, 512), >= 512, tails of oriSrcK % 64, one-row splits, tail splits, a few
// thousand elements). Inputs: softmax_replay_util.h's, rows whose maximum is -0 (the 2002 Adds 0
// stores it as +0 where the split has more than one row or oriSrcK is in [64, 128)), NaN rows,
// and NaN, +-inf, +-0 and subnormals in the padding columns. Compared bit for bit: dst and 40
// elements past it, src, the statistics and 40 past them, and the whole work buffer, whose bytes
// the kit does not write keep their 0xa5 fill. Unchecked: the splits whose uint8_t operands wrap
// (the device's numbers, the rows the reductions skip reducing that fill), also for SoftmaxFlash
// without update (results only) and SoftmaxFlashV2's generic loop and constant-shape config path
// (results, expMax, work buffer; the config's row stride below srcK too). SoftmaxFlashV2's generic
// loop and its constant-shape config path on splits that do not wrap, checked and unchecked:
// results, expMax and work buffer (session 23); its update with inMax lanes that differ within a
// row through both overloads (session 23, l0), also with a tiling whose pieces pass the buffer
// (the row model; session 24, l0c). The update's -0 inMax rows (session 24, mz; Initial): 2002's
// float update stores the max with Adds 0 (+0), half data with float statistics copies inMax with
// Adds 0 but only into exp(inMax - max) (both zeros give 1), the rest reads inMax and inExpSum (-0
// too) directly: lngrad already follows all three overloads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_softmax_v200_scratch.h"
#include "scratch_test_util.h"
#include "softmax_replay_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using softmax_replay_test::Dev;
using softmax_replay_test::Shape;

constexpr uint8_t kFill = 0xa5;
constexpr uint32_t kPast = 40;
constexpr const char* kSoc = "Ascend310P1";

// kFlash: SoftmaxFlash without update, whose membase code is SoftMaxNDImpl's with statistics
// (results only: its work buffer stays marked).
// kFlashV2 / kFlashV2Update: SoftmaxFlashV2's generic loop (inExpSum and inMax are expSum and
// max).
// kFlashV2Cfg / kFlashV2CfgUpdate: the same with config {oriSrcM 1, oriSrcK 130} (not its basic
// block; shapes of oriSrcK 130, srcK 136 = cfgK or above it), or {1, 140} for oriSrcK 140 (srcK
// 144 = cfgK, half data); kFlashV2Cfg16900 / kFlashV2Cfg16900Update: config {1, 16900} (cfgK
// 16904; oriSrcK 16900 only).
enum class Api {
  kSoftMax,
  kLog,
  kSimple,
  kFlash,
  kFlashV2,
  kFlashV2Update,
  kFlashV2Cfg,
  kFlashV2CfgUpdate,
  kFlashV2Cfg16900,
  kFlashV2Cfg16900Update
};
constexpr AscendC::SoftmaxConfig kCfg130{true, 1, 130};
constexpr AscendC::SoftmaxConfig kCfg16900{true, 1, 16900};
constexpr AscendC::SoftmaxConfig kCfg140{true, 1, 140};
bool IsFlashV2(Api api) { return api >= Api::kFlashV2; }
bool IsUpdate(Api api) {
  return api == Api::kFlashV2Update || api == Api::kFlashV2CfgUpdate ||
         api == Api::kFlashV2Cfg16900Update;
}
// The config's ReduceLastND row stride (config.oriSrcK rounded up to 8; 0: no config).
uint32_t CfgK(Api api, uint32_t oriK) {
  if (api == Api::kFlashV2Cfg || api == Api::kFlashV2CfgUpdate) return oriK == 140 ? 144 : 136;
  return api >= Api::kFlashV2Cfg16900 ? 16904 : 0;
}

// One case: data T, statistics S (none: stats false), the API and its options.
// inPlace: dst is src (two tensors of the 256-row splits below do not fit the UB).
struct Case {
  Api api = Api::kSoftMax;
  bool stats = true, reuse = false, stack = false, host = false, inPlace = false;
  // flashTiling: a tiling made for the shape by the kernel's SoftMaxFlashV2TilingFunc (splits of
  // w / (32 / sizeof(S) + 64) rows for float data), which SoftmaxFlash runs as given.
  bool flashTiling = false;
  // work: compare the work buffer.
  bool work = true;
  // tilingBytes: with flashTiling, the tiling made for this buffer size (above tmpBytes: the
  // splits' pieces pass the buffer's end; the replay runs over a buffer of this size).
  uint32_t tilingBytes = 0;
  bool cfg = false;  // the constant-shape config kCfg (SoftMax, SimpleSoftMax)
  uint32_t tmpBytes = 0;
};

// Every tensor of one call, as bytes.
struct Mem {
  std::vector<uint8_t> src, dst, sum, max, tmp, expMax;
};

template <class T>
std::vector<uint8_t> AsBytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// Row r % 7 == 3: its maximum -0 (every third reduced column -0, the others negative, -0 at the
// first column of the tail too); r % 7 == 5: a NaN at column (r * 13) % oriK; update (the
// SoftmaxFlashV2 update's -0 inMax rows, Initial): r % 7 == 6 all negative, so inMax's -0 is its
// new max.
template <class T>
std::vector<T> Source(const Shape& s, uint32_t seed, bool update = false) {
  std::vector<T> v = softmax_replay_test::Inputs<T>(seed, s);
  const float pad[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -3e-39f, 2.5f};
  for (uint32_t r = 0; r < s.m; ++r) {
    T* row = v.data() + uint64_t{r} * s.k;
    if (r % 7 == 3) {
      for (uint32_t c = 0; c < s.oriK; ++c) {
        row[c] = rp::FromFloat<T>(c % 3 == 0 ? -0.0f : -1.0f - 0.25f * static_cast<float>(c % 9));
      }
      if (s.oriK % 64 != 0) row[s.oriK / 64 * 64] = rp::FromFloat<T>(-0.0f);
    }
    if (r % 7 == 5) row[(r * 13) % s.oriK] = rp::FromFloat<T>(NAN);
    for (uint32_t c = 0; update && r % 7 == 6 && c < s.oriK; ++c) {
      row[c] = rp::FromFloat<T>(-0.5f - std::fabs(rp::ToFloat(row[c])));
    }
    for (uint32_t c = s.oriK; c < s.k; ++c) row[c] = rp::FromFloat<T>(pad[(r + c) % 8]);
  }
  return v;
}

template <class T, class S>
Mem Initial(const Shape& s, const Case& c, uint32_t statElems, uint32_t seed) {
  Mem m;
  m.src = AsBytes(Source<T>(s, seed, IsUpdate(c.api)));
  std::vector<T> dst(uint64_t{s.m} * s.k + kPast);
  for (size_t i = 0; i < dst.size(); ++i) {
    dst[i] = rp::FromFloat<T>(-100.0f - static_cast<float>(i % 500));
  }
  m.dst = AsBytes(dst);
  if (c.stats) {
    std::vector<S> sum(statElems + kPast), max(sum.size());
    for (size_t i = 0; i < sum.size(); ++i) {
      sum[i] = rp::FromFloat<S>(1.5f + 0.5f * static_cast<float>(i % 900));
      const bool in = c.api == Api::kSimple || IsUpdate(c.api);  // read as inputs
      max[i] = rp::FromFloat<S>(in ? 2.0f - 0.25f * static_cast<float>(i % 40)
                                   : -700.0f - 0.25f * static_cast<float>(i));
      // The update's -0 inMax rows: r % 7 == 3 (the row's own max -0, or +0 where 2002's Adds
      // stored it) and 6 (negative: the new max is inMax's -0, 2002's float Adds stores +0);
      // inExpSum -0 on rows r % 7 == 3.
      const uint32_t row = static_cast<uint32_t>(i / (statElems / s.m));
      if (IsUpdate(c.api) && i < statElems && (row % 7 == 3 || row % 7 == 6)) {
        max[i] = rp::FromFloat<S>(-0.0f);
        if (row % 7 == 3) sum[i] = rp::FromFloat<S>(-0.0f);
      }
    }
    m.sum = AsBytes(sum);
    m.max = AsBytes(max);
    if (IsFlashV2(c.api)) {
      std::vector<T> em(statElems * (sizeof(S) / sizeof(T)) + kPast);  // [m, 32 B] of T
      for (size_t i = 0; i < em.size(); ++i)
        em[i] = rp::FromFloat<T>(-3.0f - 0.5f * static_cast<float>(i % 11));
      m.expMax = AsBytes(em);
    }
  }
  m.tmp.assign(c.tmpBytes, kFill);
  return m;
}

template <class T>
LocalTensor<Dev<T>> Staged(AscendC::TPipe& pipe, AscendC::TBuf<>& b,
                           const std::vector<uint8_t>& v) {
  pipe.InitBuffer(b, Aligned32(static_cast<uint32_t>(v.size())));
  LocalTensor<uint8_t> t = b.Get<uint8_t>();
  std::memcpy(t.HostPtr(), v.data(), v.size());
  return t.ReinterpretCast<Dev<T>>();
}

template <class T>
void Back(std::vector<uint8_t>& out, const LocalTensor<T>& t) {
  std::memcpy(out.data(), t.HostPtr(), out.size());
}

// A constant-shape config (SoftmaxConfig with oriSrcM and oriSrcK set): the 2002 SoftMaxNDImpl
// does not read it; SimpleSoftMaxGenericNDImpl's config path swaps srcK for splitK and the
// statistics stride for 32 bytes a row, the tiling's own values here.
constexpr AscendC::SoftmaxConfig kCfg{true, 8, 36};

template <class T, class S>
void CallCfg(const Case& c, const LocalTensor<Dev<T>>& dst, const LocalTensor<Dev<S>>& sum,
             const LocalTensor<Dev<S>>& max, const LocalTensor<Dev<T>>& src,
             const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
             const AscendC::SoftMaxShapeInfo& shape) {
  using DT = Dev<T>;
  if (c.api == Api::kSimple) {
    if (c.stack) {
      AscendC::SimpleSoftMax<DT, false, false, false, kCfg>(dst, sum, max, src, tiling, shape);
    } else {
      AscendC::SimpleSoftMax<DT, false, false, false, kCfg>(dst, sum, max, src, tmp, tiling, shape);
    }
  } else if (!c.stats) {
    if (c.stack) {
      AscendC::SoftMax<DT, false, false, kCfg>(dst, src, tiling, shape);
    } else {
      AscendC::SoftMax<DT, false, false, kCfg>(dst, src, tmp, tiling, shape);
    }
  } else if (c.stack) {
    AscendC::SoftMax<DT, false, false, false, kCfg>(dst, sum, max, src, tiling, shape);
  } else {
    AscendC::SoftMax<DT, false, false, false, kCfg>(dst, sum, max, src, tmp, tiling, shape);
  }
}

template <class T, class S>
void Call(const Case& c, const LocalTensor<Dev<T>>& dst, const LocalTensor<Dev<S>>& sum,
          const LocalTensor<Dev<S>>& max, const LocalTensor<Dev<T>>& src,
          const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
          const AscendC::SoftMaxShapeInfo& shape, const LocalTensor<Dev<T>>& expMax) {
  using DT = Dev<T>;
  if (c.cfg) {
    CallCfg<T, S>(c, dst, sum, max, src, tmp, tiling, shape);
  } else if (c.api == Api::kFlashV2) {
    AscendC::SoftmaxFlashV2<DT, false>(dst, sum, max, src, expMax, sum, max, tmp, tiling, shape);
  } else if (c.api == Api::kFlashV2Update && c.stack) {
    AscendC::SoftmaxFlashV2<DT, true>(dst, sum, max, src, expMax, sum, max, tiling, shape);
  } else if (c.api == Api::kFlashV2Update) {
    AscendC::SoftmaxFlashV2<DT, true>(dst, sum, max, src, expMax, sum, max, tmp, tiling, shape);
  } else if (c.api == Api::kFlashV2Cfg && shape.oriSrcK == 140) {
    AscendC::SoftmaxFlashV2<DT, false, false, false, false, kCfg140>(dst, sum, max, src, expMax,
                                                                     sum, max, tmp, tiling, shape);
  } else if (c.api == Api::kFlashV2CfgUpdate && shape.oriSrcK == 140) {
    AscendC::SoftmaxFlashV2<DT, true, false, false, false, kCfg140>(dst, sum, max, src, expMax, sum,
                                                                    max, tmp, tiling, shape);
  } else if (c.api == Api::kFlashV2Cfg) {
    AscendC::SoftmaxFlashV2<DT, false, false, false, false, kCfg130>(dst, sum, max, src, expMax,
                                                                     sum, max, tmp, tiling, shape);
  } else if (c.api == Api::kFlashV2CfgUpdate) {
    AscendC::SoftmaxFlashV2<DT, true, false, false, false, kCfg130>(dst, sum, max, src, expMax, sum,
                                                                    max, tmp, tiling, shape);
  } else if (c.api == Api::kFlashV2Cfg16900) {
    AscendC::SoftmaxFlashV2<DT, false, false, false, false, kCfg16900>(
        dst, sum, max, src, expMax, sum, max, tmp, tiling, shape);
  } else if (c.api == Api::kFlashV2Cfg16900Update) {
    AscendC::SoftmaxFlashV2<DT, true, false, false, false, kCfg16900>(dst, sum, max, src, expMax,
                                                                      sum, max, tmp, tiling, shape);
  } else if (c.api == Api::kLog) {
    if constexpr (std::is_same_v<T, S>) {
      AscendC::LogSoftMax<DT>(dst, sum, max, src, tmp, LogSoftMaxTiling{}, shape);
    }
  } else if (c.api == Api::kFlash) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    AscendC::SoftmaxFlash<DT>(dst, sum, max, src, dst, sum, max, tmp, tiling, false, shape);
#pragma GCC diagnostic pop
  } else if (c.api == Api::kSimple) {
    if (c.stack) {
      AscendC::SimpleSoftMax<DT>(dst, sum, max, src, tiling, shape);
    } else {
      AscendC::SimpleSoftMax<DT>(dst, sum, max, src, tmp, tiling, shape);
    }
  } else if (!c.stats) {
    if (c.reuse) {
      if (c.stack) {
        AscendC::SoftMax<DT, true>(dst, src, tiling, shape);
      } else {
        AscendC::SoftMax<DT, true>(dst, src, tmp, tiling, shape);
      }
    } else if (c.stack) {
      AscendC::SoftMax<DT>(dst, src, tiling, shape);
    } else {
      AscendC::SoftMax<DT>(dst, src, tmp, tiling, shape);
    }
  } else if (c.stack) {
    AscendC::SoftMax<DT>(dst, sum, max, src, tiling, shape);
  } else {
    AscendC::SoftMax<DT>(dst, sum, max, src, tmp, tiling, shape);
  }
}

template <class T, class S>
Mem Run(const Shape& s, const Case& c, const Mem& in, const SoftMaxTiling& tiling) {
  Mem g = in;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = kSoc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt, filler, bexp;
    const LocalTensor<Dev<T>> src = Staged<T>(pipe, bs, in.src);
    const LocalTensor<Dev<T>> dst = c.inPlace ? src : Staged<T>(pipe, bd, in.dst);
    LocalTensor<Dev<S>> sum, max;
    if (c.stats) {
      sum = Staged<S>(pipe, bsum, in.sum);
      max = Staged<S>(pipe, bmax, in.max);
    }
    LocalTensor<Dev<T>> expMax;
    if (!in.expMax.empty()) expMax = Staged<T>(pipe, bexp, in.expMax);
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, c.stack, c.tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    std::copy(in.tmp.begin(), in.tmp.end(), tmp.HostPtr());
    const AscendC::SoftMaxShapeInfo shape{s.m, s.k, s.m, s.oriK};
    Call<T, S>(c, dst, sum, max, src, tmp, tiling, shape, expMax);
    if (!in.expMax.empty()) Back(g.expMax, expMax);
    Back(g.src, src);
    Back(g.dst, dst);
    if (c.stats) {
      Back(g.sum, sum);
      Back(g.max, max);
    }
    if (c.stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + c.tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

void ExpectSame(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, uint32_t elem,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const auto at = std::mismatch(got.begin(), got.end(), want.begin());
  if (at.first == got.end()) return;
  const size_t i = static_cast<size_t>(at.first - got.begin());
  ADD_FAILURE() << what << ": byte " << i << " of " << got.size() << " (element " << i / elem
                << ") differs: lngrad 0x" << std::hex << int{*at.first} << ", replay 0x"
                << int{*at.second};
}

template <class T, class S>
void Compare(const Shape& s, const Case& c, uint32_t seed) {
  const char* api = c.api == Api::kLog                     ? "LogSoftMax"
                    : c.api == Api::kSimple                ? "SimpleSoftMax"
                    : c.api == Api::kFlash                 ? "SoftmaxFlash"
                    : c.api == Api::kSoftMax               ? "SoftMax"
                    : c.api == Api::kFlashV2               ? "SoftmaxFlashV2"
                    : c.api == Api::kFlashV2Cfg            ? "SoftmaxFlashV2 config"
                    : c.api == Api::kFlashV2CfgUpdate      ? "SoftmaxFlashV2 config update"
                    : c.api == Api::kFlashV2Cfg16900       ? "SoftmaxFlashV2 config 16900"
                    : c.api == Api::kFlashV2Cfg16900Update ? "SoftmaxFlashV2 config 16900 update"
                                                           : "SoftmaxFlashV2 update";
  const std::string what =
      std::string(api) + (std::is_same_v<T, float> ? "<float" : "<half") +
      (c.stats ? (std::is_same_v<S, float> ? ", float stats" : ", half stats") : ", no stats") +
      (c.reuse ? ", reuse" : "") + (c.cfg ? ", config 8x36" : "") + "> " +
      softmax_replay_test::Name(s) + ", work " + std::to_string(c.tmpBytes) +
      (c.stack ? " (stack)" : "") + (c.host ? ", host tiling" : "");
  SCOPED_TRACE(what);
  const uint32_t typeSize2 = c.stats ? sizeof(S) : 4;
  SoftMaxTiling tiling{};
  rp::SmxTiling t;
  if (c.host) {
    AscendC::SoftMaxTilingFunc(ge::Shape({s.m, s.k}), typeSize2, c.tmpBytes, tiling);
    t = softmax_replay_test::Mirror(tiling);
  } else if (c.flashTiling) {
    tiling = AscendC::SoftMaxFlashV2TilingFunc({s.m, s.k, s.m, s.oriK}, sizeof(T), typeSize2,
                                               std::max(c.tmpBytes, c.tilingBytes));
    t = softmax_replay_test::Mirror(tiling);
  } else {
    t = rp::SmxKernelTiling(c.tmpBytes / 4, s.m, s.k, s.m, sizeof(T), typeSize2, false);
  }
  ASSERT_GT(t.splitM, 0u);
  Mem in = Initial<T, S>(s, c, s.m * t.reduceK, seed);
  if (c.inPlace) in.dst = in.src;
  Mem want = in;
  if (c.tilingBytes > c.tmpBytes) want.tmp.resize(c.tilingBytes, kFill);
  auto* work = reinterpret_cast<float*>(want.tmp.data());
  auto* dst = reinterpret_cast<T*>(c.inPlace ? want.src.data() : want.dst.data());
  const auto* src = reinterpret_cast<const T*>(want.src.data());
  S* sum = c.stats ? reinterpret_cast<S*>(want.sum.data()) : nullptr;
  S* max = c.stats ? reinterpret_cast<S*>(want.max.data()) : nullptr;
  if (c.api == Api::kSimple) {
    if constexpr (std::is_same_v<T, rp::Half>) {
      rp::ReplaySimpleSoftMaxHalfV200<S>(t, src, sum, max, dst, work);
    }
  } else if (IsFlashV2(c.api)) {
    rp::ReplaySoftmaxFlashV2V200<T, S>(
        t, s.oriK,
        {src, dst, sum, max, reinterpret_cast<T*>(want.expMax.data()), sum, max, work,
         IsUpdate(c.api), CfgK(c.api, s.oriK)});
  } else {
    rp::ReplaySoftMaxV200<T, S>(t, s.oriK, {src, dst, sum, max, work, c.api == Api::kLog});
  }
  if (c.inPlace) want.dst = want.src;
  const Mem got = Run<T, S>(s, c, in, tiling);
  ExpectSame(got.dst, want.dst, sizeof(T), "dst");
  ExpectSame(got.src, want.src, sizeof(T), "src");
  ExpectSame(got.sum, want.sum, sizeof(S), "sum");
  ExpectSame(got.max, want.max, sizeof(S), "max");
  ExpectSame(got.expMax, want.expMax, sizeof(T), "expMax");
  if (c.api != Api::kFlash && c.work) ExpectSame(got.tmp, want.tmp, 4, "work buffer");
  if (c.tilingBytes > c.tmpBytes) {  // not modelled: the buffer stays unwritten
    EXPECT_EQ(got.tmp, std::vector<uint8_t>(c.tmpBytes, kFill)) << "work buffer";
  }
}

const std::vector<Shape> kFloatShapes = {
    {1, 8, 8},      {1, 64, 64},    {1, 72, 70},   {1, 600, 600}, {3, 24, 20},
    {8, 64, 64},    {9, 200, 130},  {5, 136, 136}, {2, 192, 192}, {13, 1040, 1030},
    {40, 64, 60},   {17, 264, 260}, {33, 16, 16},  {37, 96, 90},  {2, 4096, 4090},
    {11, 512, 512}, {6, 328, 321},  {12, 80, 72},  {1, 2048, 300}};
const std::vector<Shape> kHalfShapes = {
    {1, 16, 16},   {1, 64, 64},     {1, 80, 70},      {1, 608, 600}, {3, 32, 20},    {8, 64, 64},
    {9, 208, 130}, {5, 144, 136},   {13, 1040, 1030}, {40, 64, 60},  {17, 272, 260}, {33, 16, 16},
    {37, 96, 90},  {2, 2048, 2000}, {6, 336, 321},    {12, 80, 72},  {1, 2048, 100}};

// The minimum (GetSoftMaxMinTmpSize, which checked mode asks for), one no multiple of 32, large.
std::vector<uint32_t> Sizes(const Shape& s, uint32_t typeSize) {
  const uint32_t min = AscendC::GetSoftMaxMinTmpSize(ge::Shape({s.m, s.k}), typeSize, false);
  return {min, 3 * min + 12, std::max<uint32_t>(40000, 3 * min + 64)};
}

template <class T, class S>
void Sweep(Case c, uint32_t seed) {
  const bool isHalf = std::is_same_v<T, rp::Half>;
  const std::vector<Shape>& shapes = isHalf ? kHalfShapes : kFloatShapes;
  for (const Shape& s : shapes) {
    for (const uint32_t bytes : Sizes(s, sizeof(T))) {
      c.tmpBytes = bytes;
      c.host = false;
      for (const bool stack : {false, true}) {
        if (c.api == Api::kFlash) break;  // its host tiling only, below
        // The stack buffer comes in 32-byte blocks; LogSoftMax has no overload without one.
        if (stack && (bytes % 32 != 0 || c.api == Api::kLog)) continue;
        c.stack = stack;
        Compare<T, S>(s, c, ++seed);
      }
      if (c.api == Api::kLog) continue;  // LogSoftMax always re-tiles
      c.stack = false;
      c.host = true;
      Compare<T, S>(s, c, ++seed);
    }
  }
}

Case Results(Api api, bool stats, bool reuse = false) {
  Case c;
  c.api = api;
  c.stats = stats;
  c.reuse = reuse;
  return c;
}

TEST(SoftMaxV200Replay, FloatResultsAndWork) {
  Sweep<float, float>(Results(Api::kSoftMax, true), 100);
  Sweep<float, float>(Results(Api::kSoftMax, false), 200);
}
TEST(SoftMaxV200Replay, FloatReuseSourceIsNotRead) {
  Sweep<float, float>(Results(Api::kSoftMax, false, true), 300);
}
TEST(SoftMaxV200Replay, HalfResultsAndWork) {
  Sweep<rp::Half, rp::Half>(Results(Api::kSoftMax, true), 400);
  Sweep<rp::Half, float>(Results(Api::kSoftMax, true), 500);
  Sweep<rp::Half, rp::Half>(Results(Api::kSoftMax, false), 600);
}
TEST(SoftMaxV200Replay, LogSoftMaxResultsAndWork) {
  Sweep<float, float>(Results(Api::kLog, true), 700);
  Sweep<rp::Half, rp::Half>(Results(Api::kLog, true), 800);
}
TEST(SoftMaxV200Replay, SimpleSoftMaxHalfResultsAndWork) {
  Sweep<rp::Half, rp::Half>(Results(Api::kSimple, true), 900);
  Sweep<rp::Half, float>(Results(Api::kSimple, true), 1000);
}

// The constant-shape config on 2002: SoftMax's membase/v200 SoftMaxNDImpl does not read it, and
// SimpleSoftMax's config path takes the tiling's splitK and 32-byte statistics rows: the same
// buffer as the default config (marked before session 22).
Case Config(Api api, bool stats) {
  Case c = Results(api, stats);
  c.cfg = true;
  return c;
}
TEST(SoftMaxV200Replay, ConstantShapeConfigResultsAndWork) {
  Sweep<float, float>(Config(Api::kSoftMax, true), 1300);
  Sweep<float, float>(Config(Api::kSoftMax, false), 1400);
  Sweep<rp::Half, rp::Half>(Config(Api::kSoftMax, true), 1500);
  Sweep<rp::Half, float>(Config(Api::kSoftMax, true), 1600);
  Sweep<rp::Half, rp::Half>(Config(Api::kSoftMax, false), 1700);
  Sweep<rp::Half, rp::Half>(Config(Api::kSimple, true), 1800);
  Sweep<rp::Half, float>(Config(Api::kSimple, true), 1900);
}

// SoftmaxFlash without update on 2002 runs SoftMaxNDImpl with statistics: its quotients too are
// x * (1 / sum) (TransDivToMulImpl).
TEST(SoftMaxV200Replay, SoftmaxFlashWithoutUpdateResults) {
  Sweep<float, float>(Results(Api::kFlash, true), 1100);
  Sweep<rp::Half, rp::Half>(Results(Api::kFlash, true), 1200);
  Sweep<rp::Half, float>(Results(Api::kFlash, true), 1300);
}

// The splits whose NewReduce{Max,Sum}LastNDImpl the device gets wrong (uint8_t operands that wrap;
// checked mode refuses them, tests/adv softmax_defect_test.cpp): unchecked, lngrad gives the
// device's dst, statistics and work buffer. Splits of 256 to 300 rows with oriSrcK in [128, 512)
// (the first Max/Add and NextBlock run m mod 256 rows; the others reduce the buffer's 0xa5 bytes
// or the max pass's), in place; srcK of 2048 and more with oriSrcK in [64, 512) and several rows
// a split (row r read at r * 8 ((srcK / 8) mod 256)); oriSrcK from 16896 (BigBlockReduce's
// remaining repeats mod 256).
TEST(SoftMaxV200Replay, WrappedOperandsFollowTheDeviceUnchecked) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  uint32_t seed = 1400;
  for (const Api api : {Api::kSoftMax, Api::kLog}) {
    for (const bool stats : {false, true}) {
      if (api == Api::kLog && !stats) continue;
      Case c = Results(api, stats);
      c.inPlace = true;
      for (const Shape& s : {Shape{300, 128, 128}, Shape{256, 128, 128}, Shape{270, 136, 130}}) {
        if (stats && s.m * s.k > 256 * 128) continue;  // with the statistics: too big for the UB
        c.tmpBytes = s.m * 72 * 4;                     // splits of all m rows
        Compare<float, float>(s, c, ++seed);
      }
    }
  }
  const std::vector<Shape> strided = {
      {3, 2048, 100}, {4, 2048, 300}, {5, 2048, 192}, {3, 2056, 500}, {2, 2064, 64}};
  const std::vector<Shape> halfStrided = {{3, 2048, 130}, {2, 2064, 64}, {5, 2048, 200}};
  for (const bool stats : {false, true}) {
    Case c = Results(Api::kSoftMax, stats);
    for (const Shape& s : strided) {
      for (const uint32_t bytes : Sizes(s, 4)) {
        c.tmpBytes = bytes;
        Compare<float, float>(s, c, ++seed);
      }
    }
    for (const Shape& s : halfStrided) {
      for (const uint32_t bytes : Sizes(s, 2)) {
        c.tmpBytes = bytes;
        Compare<rp::Half, rp::Half>(s, c, ++seed);
        if (stats) Compare<rp::Half, float>(s, c, ++seed);
      }
    }
  }
  Case c = Results(Api::kSoftMax, true);
  c.tmpBytes = 70000;  // half: the split's float copy too
  Compare<float, float>({1, 16904, 16900}, c, ++seed);
  Compare<float, float>({1, 16960, 16960}, c, ++seed);
  Compare<rp::Half, rp::Half>({1, 16896, 16896}, c, ++seed);
  c.api = Api::kLog;
  Compare<float, float>({1, 16904, 16900}, c, ++seed);
  lngrad::aicore::SetCheckedMode(was);
}

// SoftmaxFlash without update on 2002 runs SoftMaxNDImpl, whose splits the device gets wrong as
// SoftMax's (checked mode refuses them, tests/adv softmax_defect_test.cpp): unchecked, lngrad
// gives the device's dst and statistics (its work buffer stays marked). Tilings made for the
// shape: splits of 256 rows with oriSrcK in [128, 512), in place; srcK of 2048 and more with
// several rows a split; oriSrcK from 16896.
TEST(SoftMaxV200Replay, SoftmaxFlashWrappedOperandsFollowTheDeviceUnchecked) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  uint32_t seed = 1500;
  Case c = Results(Api::kFlash, true);
  c.flashTiling = true;
  c.inPlace = true;
  c.tmpBytes = 256 * 72 * 4;  // splits of all 256 rows
  Compare<float, float>({256, 128, 128}, c, ++seed);
  c.inPlace = false;
  for (const Shape& s : {Shape{3, 2048, 100}, Shape{4, 2048, 300}, Shape{2, 2064, 64}}) {
    c.tmpBytes = 40000;
    Compare<float, float>(s, c, ++seed);
  }
  for (const Shape& s : {Shape{3, 2048, 130}, Shape{5, 2048, 200}}) {
    c.tmpBytes = 60000;
    Compare<rp::Half, rp::Half>(s, c, ++seed);
    Compare<rp::Half, float>(s, c, ++seed);
  }
  c.tmpBytes = 70000;
  Compare<float, float>({1, 16904, 16900}, c, ++seed);
  Compare<rp::Half, rp::Half>({1, 16896, 16896}, c, ++seed);
  lngrad::aicore::SetCheckedMode(was);
}

// SoftmaxFlashV2's generic loop on 2002 (no update and update; float, half data with half or
// float statistics) runs the same reductions (checked mode refuses the splits that wrap, tests/adv
// softmax_defect_test.cpp): unchecked, lngrad gives the device's dst, statistics, expMax and
// work buffer. Tilings made for the shape: float splits of 256 and 270 rows with
// oriSrcK in [128, 512), in place (the float update's Sub leaves inMax - max at the scratch's
// start, which the skipped rows reduce); srcK of 2048 and more with several rows a split (one
// split, and splits of 2 rows with a tail); oriSrcK from 16896.
TEST(SoftMaxV200Replay, SoftmaxFlashV2WrappedOperandsFollowTheDeviceUnchecked) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  uint32_t seed = 1600;
  for (const Api api : {Api::kFlashV2, Api::kFlashV2Update}) {
    Case c = Results(api, true);
    c.flashTiling = true;
    c.inPlace = true;
    for (const Shape& s : {Shape{256, 128, 128}, Shape{270, 136, 130}}) {
      c.tmpBytes = s.m * 72 * 4;  // splits of all the rows
      Compare<float, float>(s, c, ++seed);
    }
    c.inPlace = false;
    for (const Shape& s : {Shape{3, 2048, 100}, Shape{4, 2048, 300}, Shape{2, 2064, 64}}) {
      c.tmpBytes = 40000;
      Compare<float, float>(s, c, ++seed);
    }
    c.tmpBytes = 70000;
    Compare<float, float>({1, 16904, 16900}, c, ++seed);
    // Half data (splits of more than 255 rows do not fit the UB with the buffer they need).
    for (const Shape& s : {Shape{3, 2048, 130}, Shape{5, 2048, 200}, Shape{2, 2064, 64}}) {
      c.tmpBytes = 60000;
      Compare<rp::Half, rp::Half>(s, c, ++seed);
      Compare<rp::Half, float>(s, c, ++seed);
    }
    c.tmpBytes = 17152;  // splits of 2 rows, then the tail
    Compare<rp::Half, rp::Half>({5, 2048, 200}, c, ++seed);
    Compare<rp::Half, float>({5, 2048, 200}, c, ++seed);
    c.tmpBytes = 576;
    Compare<float, float>({5, 2048, 300}, c, ++seed);
    c.tmpBytes = 70000;
    Compare<rp::Half, rp::Half>({1, 16896, 16896}, c, ++seed);
    Compare<rp::Half, float>({1, 16904, 16900}, c, ++seed);
  }
  // The constant-shape config path with config.oriSrcK rounded up to 8 = srcK: the same
  // reductions over config.oriSrcK columns.
  for (const Api api : {Api::kFlashV2Cfg, Api::kFlashV2CfgUpdate}) {
    Case c = Results(api, true);
    c.flashTiling = true;
    c.inPlace = true;
    c.tmpBytes = 270 * 72 * 4;
    Compare<float, float>({270, 136, 130}, c, ++seed);
    c.inPlace = false;
    c.tmpBytes = 1152;  // splits of 4 rows, which do not wrap (their buffer: session 23)
    Compare<float, float>({9, 136, 130}, c, ++seed);
  }
  lngrad::aicore::SetCheckedMode(was);
}

// The config path with config.oriSrcK rounded up to 8 (cfgK) below srcK on 2002 (softmaxflashv2.h
// FlashV2ConfigSplits; checked mode refuses it): the reductions read row i of a split at i * cfgK,
// the Sub and Exp keep srcK. Where their operands wrap lngrad gives the device's dst, statistics,
// expMax and work buffer too (FlashV2DeviceV200 with the config's stride; lngrad's rows before
// session 23): float splits of 256 rows with config.oriSrcK 130 (cfgK 136, srcK 144), in place;
// config.oriSrcK 16900 (cfgK 16904, srcK 16912: BigBlockReduce's count), one row, splits of two
// rows with a tail, half data with half or float statistics.
TEST(SoftMaxV200Replay, SoftmaxFlashV2ConfigBelowSrcKWrappedOperandsFollowTheDeviceUnchecked) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  uint32_t seed = 1700;
  for (const bool update : {false, true}) {
    Case c = Results(update ? Api::kFlashV2CfgUpdate : Api::kFlashV2Cfg, true);
    c.flashTiling = true;
    c.inPlace = true;
    c.tmpBytes = 256 * 72 * 4;  // splits of all 256 rows
    Compare<float, float>({256, 144, 130}, c, ++seed);
    c = Results(update ? Api::kFlashV2Cfg16900Update : Api::kFlashV2Cfg16900, true);
    c.flashTiling = true;
    c.tmpBytes = 70000;
    Compare<float, float>({1, 16912, 16900}, c, ++seed);
    Compare<rp::Half, rp::Half>({1, 16912, 16900}, c, ++seed);
    Compare<rp::Half, float>({1, 16912, 16900}, c, ++seed);
    c.inPlace = true;
    c.tmpBytes = 576;  // splits of 2 rows, then the tail
    Compare<float, float>({3, 16912, 16900}, c, ++seed);
  }
  lngrad::aicore::SetCheckedMode(was);
}

// SoftmaxFlashV2's generic loop on 2002 on splits that do not wrap (session 23, fnz: the work
// buffer was marked there): float, half data with half or float statistics, no update and
// update, both overloads, tilings of SoftMaxFlashV2TilingFunc for the minimum buffer
// (GetSoftMaxFlashV2MinTmpSize), one no multiple of 32 and a large one, checked and unchecked
// mode: results, expMax and the whole work buffer against the replay.
template <class T, class S>
void FlashV2Sweep(Api api, const std::vector<Shape>& shapes, uint32_t seed) {
  const bool was = lngrad::aicore::CheckedMode();
  for (const bool checked : {true, false}) {
    lngrad::aicore::SetCheckedMode(checked);
    for (const Shape& s : shapes) {
      const uint32_t min = AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({s.m, s.k}), sizeof(T),
                                                                sizeof(S), IsUpdate(api));
      for (const uint32_t bytes : {min, 3 * min + 12, std::max<uint32_t>(40000, 3 * min + 64)}) {
        for (const bool stack : {false, true}) {
          if (stack && bytes % 32 != 0) continue;  // the stack buffer comes in 32-byte blocks
          Case c = Results(api, true);
          c.flashTiling = true;
          c.stack = stack;
          c.tmpBytes = bytes;
          SCOPED_TRACE(checked ? "checked" : "unchecked");
          Compare<T, S>(s, c, ++seed);
        }
      }
    }
  }
  lngrad::aicore::SetCheckedMode(was);
}

TEST(SoftMaxV200Replay, SoftmaxFlashV2SplitsThatDoNotWrapWriteTheWorkBuffer) {
  for (const Api api : {Api::kFlashV2, Api::kFlashV2Update}) {
    FlashV2Sweep<float, float>(api, kFloatShapes, 2000 + 1000 * IsUpdate(api));
    FlashV2Sweep<rp::Half, rp::Half>(api, kHalfShapes, 2300 + 1000 * IsUpdate(api));
    FlashV2Sweep<rp::Half, float>(api, kHalfShapes, 2600 + 1000 * IsUpdate(api));
  }
}

// The constant-shape config's generic path with config.oriSrcK rounded up to 8 = srcK (its
// ReduceLastND reduces config.oriSrcK columns): the same buffer.
TEST(SoftMaxV200Replay, SoftmaxFlashV2ConfigSplitsThatDoNotWrapWriteTheWorkBuffer) {
  for (const Api api : {Api::kFlashV2Cfg, Api::kFlashV2CfgUpdate}) {
    const uint32_t seed = 4000 + 1000 * IsUpdate(api);
    FlashV2Sweep<float, float>(api, {{1, 136, 130}, {9, 136, 130}, {40, 136, 130}}, seed);
    FlashV2Sweep<rp::Half, rp::Half>(api, {{1, 144, 140}, {9, 144, 140}, {37, 144, 140}},
                                     seed + 300);
    FlashV2Sweep<rp::Half, float>(api, {{1, 144, 140}, {9, 144, 140}, {37, 144, 140}}, seed + 600);
  }
}

// The minimum buffer of SoftmaxFlashV2's update (data of t1 bytes, statistics of t2), three
// times it, and a large one.
std::vector<uint32_t> FlashV2Sizes(const Shape& s, uint32_t t1, uint32_t t2) {
  const uint32_t min = AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({s.m, s.k}), t1, t2, true);
  return {min, 3 * min + 64, std::max<uint32_t>(40000, 3 * min + 64)};
}

// SoftmaxFlashV2's generic update on 2002, checked mode (splits that do not wrap), both overloads
// (sharedTmpBuffer and the stack buffer): inMax's lanes differ within each row (Initial's
// 2 - 0.25 (i % 40)), so half data with float statistics gets a row's 16 expMax halves from lane
// 0 (BroadCastLastImpl's scalar loop). Tilings made for the shape, from the minimum buffer to a
// large one; the work buffer not compared here (SoftmaxFlashV2SplitsThatDoNotWrap... does).
TEST(SoftMaxV200Replay, SoftmaxFlashV2UpdateExpMaxTakesLaneZeroOfUnequalLanes) {
  uint32_t seed = 1700;
  Case c = Results(Api::kFlashV2Update, true);
  c.flashTiling = true;
  c.work = false;
  for (const Shape& s : {Shape{1, 16, 16}, Shape{3, 32, 20}, Shape{9, 208, 130}, Shape{12, 80, 72},
                         Shape{40, 64, 60}, Shape{6, 336, 321}}) {
    for (const bool stack : {false, true}) {
      c.stack = stack;  // the stack buffer comes in 32-byte blocks
      for (const uint32_t bytes : FlashV2Sizes(s, 2, 4)) {
        c.tmpBytes = bytes;
        if (!stack || bytes % 32 == 0) Compare<rp::Half, float>(s, c, ++seed);
      }
      for (const uint32_t bytes : FlashV2Sizes(s, 2, 2)) {
        c.tmpBytes = bytes;
        if (!stack || bytes % 32 == 0) Compare<rp::Half, rp::Half>(s, c, ++seed);
      }
      for (const uint32_t bytes : FlashV2Sizes(s, 4, 4)) {
        c.tmpBytes = bytes;
        if (!stack || bytes % 32 == 0) Compare<float, float>(s, c, ++seed);
      }
    }
  }
}

// SoftmaxFlashV2's generic update on 2002 where FlashV2DeviceV200 does not run (session 24, l0c,
// who also changed lngrad's ExpMaxLane): a tiling made for the shape and four times the buffer
// the call passes, so its splits' pieces pass the buffer's end (the kit runs it as given, those
// pieces landing in whatever UB follows, no operand here; the replay runs over a buffer of the
// tiling's size). lngrad's FlashV2Rows computes the rows and the buffer stays unwritten. inMax's
// lanes differ within a row: half data with float statistics gets each row's 16 expMax halves
// from lane 0 (BroadCastLastImpl's scalar loop; FlashV2Rows took lane l % 8 there before), both
// overloads.
TEST(SoftMaxV200Replay, SoftmaxFlashV2BufferShortOfTheTilingTakesLaneZero) {
  uint32_t seed = 1900, compared = 0;
  Case c = Results(Api::kFlashV2Update, true);
  c.flashTiling = true;
  c.work = false;
  for (const Shape& s : {Shape{12, 80, 72}, Shape{40, 64, 60}, Shape{9, 208, 130},
                         Shape{37, 96, 90}, Shape{17, 272, 260}}) {
    const uint32_t min = AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({s.m, s.k}), 2, 4, true);
    for (const uint32_t bytes : {min, 2 * min + 32}) {
      c.tmpBytes = bytes;
      c.tilingBytes = 4 * bytes;
      const SoftMaxTiling t =
          AscendC::SoftMaxFlashV2TilingFunc({s.m, s.k, s.m, s.oriK}, 2, 4, c.tilingBytes);
      // The pieces FlashV2DeviceV200 needs (floats): the split's copy, the statistics twice and
      // the accumulators.
      if ((t.splitSize + 2 * t.reduceSize + t.splitM * 64) * 4 <= bytes) continue;
      for (const bool stack : {false, true}) {
        c.stack = stack;  // the stack buffer comes in 32-byte blocks
        if (stack && bytes % 32 != 0) continue;
        Compare<rp::Half, float>(s, c, ++seed);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 10u);
}

}  // namespace
