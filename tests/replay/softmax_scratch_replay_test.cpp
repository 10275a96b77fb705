// What SoftMax and LogSoftMax leave in their work buffer on arch 2201 (Ascend910B1) against the
// replay of the kit's generic ND loops (replay_softmax_scratch.h): float and half data (half or
// float statistics), with statistics (SoftMaxGenericNDImpl, LogSoftMaxGenericNDImpl) and without
// (SingleSoftMaxImpl, isReuseSource false and true), the sharedTmpBuffer overload and
// the one that pops the stack buffer (the TPipe sized so that it leaves exactly the scratch's
// bytes), the kernel's re-tile of a tiling made for another shape and the host tiling made for
// the shape, work buffers from the minimum to many rows (one size no multiple of 32), shapes
// through every branch of the row reductions (oriSrcK < 64, 64, [64, 128), [128, 512), >= 512,
// tails of oriSrcK % 64, one row, splits with a tail split, a few thousand elements). Inputs:
// softmax_replay_util.h's (-inf, repeated maxima, exponentials underflowing to subnormals and
// zero) with NaN, +-inf, +-0 and subnormals in the padding columns past oriSrcK. Compared bit for
// bit: the whole work buffer (the bytes the kit's code does not write keep their 0xa5 fill), dst
// with 40 elements past it, sum and max with 40 past them (they start as a pattern, which the
// kit's broadcast reads past a split's rows), and src. Unchecked, the splits whose uint8_t
// operands wrap (WrappedOperandsFollowTheDeviceUnchecked; session 23, u22).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_softmax_scratch.h"
#include "scratch_test_util.h"
#include "softmax_replay_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using softmax_replay_test::Shape;

constexpr uint8_t kFill = 0xa5;
constexpr uint32_t kPast = 40;
constexpr const char* kSoc = "Ascend910B1";

// Float calls with dst = src (the in-place rows of WrappedOperandsFollowTheDeviceUnchecked).
bool gInPlace = false;

// The state of every tensor of one call, as bytes of floats.
struct Mem {
  std::vector<float> src, dst, sum, max;
  std::vector<uint8_t> tmp;
};

// specials: rows with a NaN inside the reduced columns (at a column that moves with the row, or
// the last one) and rows whose maximum is a tie of +0 and -0 (the max reductions' lane rule and
// operand orders decide those rows' statistics, results and accumulators).
float Special(uint32_t r, uint32_t c, uint32_t oriK, float v) {
  if (r % 4 == 1 && c == (r * 37 + 5) % oriK) return NAN;
  if (r % 4 == 3 && c == oriK - 1) return -NAN;
  if (r % 4 == 2) return c % 3 == 0 ? 0.0f : (c % 3 == 1 ? -0.0f : -1.5f);
  return v;
}

Mem Initial(const Shape& s, uint32_t seed, uint32_t tmpBytes, bool stats, bool specials) {
  Mem m;
  m.src = softmax_replay_test::Inputs<float>(seed, s);
  for (uint32_t r = 0; specials && r < s.m; ++r) {
    for (uint32_t c = 0; c < s.oriK; ++c) {
      m.src[r * s.k + c] = Special(r, c, s.oriK, m.src[r * s.k + c]);
    }
  }
  const float sp[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -3e-39f, 2.5f};
  for (uint32_t r = 0; r < s.m; ++r) {
    for (uint32_t c = s.oriK; c < s.k; ++c) m.src[r * s.k + c] = sp[(r + c) % 8];
  }
  m.dst.assign(uint64_t{s.m} * s.k + kPast, 0.0f);
  for (size_t i = 0; i < m.dst.size(); ++i) m.dst[i] = -1000.0f - static_cast<float>(i);
  if (stats) {
    m.sum.resize(uint64_t{s.m} * 8 + kPast);
    m.max.resize(m.sum.size());
    for (size_t i = 0; i < m.sum.size(); ++i) {
      m.sum[i] = 3000.0f + 0.5f * static_cast<float>(i);
      m.max[i] = -7000.0f - 0.25f * static_cast<float>(i);
    }
  }
  m.tmp.assign(tmpBytes, kFill);
  return m;
}

template <bool kReuse>
Mem RunKernel(const Shape& s, const Mem& in, const SoftMaxTiling& tiling, bool stack,
              bool log = false) {
  Mem g = in;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = kSoc;
  const uint32_t tmpBytes = static_cast<uint32_t>(in.tmp.size());
  const bool stats = !in.sum.empty();
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt, filler;
    pipe.InitBuffer(bs, Aligned32(in.src.size() * 4));
    if (!gInPlace) pipe.InitBuffer(bd, Aligned32(in.dst.size() * 4));
    if (stats) {
      pipe.InitBuffer(bsum, Aligned32(in.sum.size() * 4));
      pipe.InitBuffer(bmax, Aligned32(in.max.size() * 4));
    }
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<float> src = bs.Get<float>(in.src.size());
    LocalTensor<float> dst = gInPlace ? src : bd.Get<float>(in.dst.size());
    std::copy(in.src.begin(), in.src.end(), src.HostPtr());
    if (!gInPlace) std::copy(in.dst.begin(), in.dst.end(), dst.HostPtr());
    std::copy(in.tmp.begin(), in.tmp.end(), tmp.HostPtr());
    const AscendC::SoftMaxShapeInfo shape{s.m, s.k, s.m, s.oriK};
    LocalTensor<float> sum, max;
    if (stats) {
      sum = bsum.Get<float>(in.sum.size());
      max = bmax.Get<float>(in.max.size());
      std::copy(in.sum.begin(), in.sum.end(), sum.HostPtr());
      std::copy(in.max.begin(), in.max.end(), max.HostPtr());
      if (log) {
        AscendC::LogSoftMax<float>(dst, sum, max, src, tmp, LogSoftMaxTiling{}, shape);
      } else if (stack) {
        AscendC::SoftMax<float, kReuse>(dst, sum, max, src, tiling, shape);
      } else {
        AscendC::SoftMax<float, kReuse>(dst, sum, max, src, tmp, tiling, shape);
      }
      std::copy(sum.HostPtr(), sum.HostPtr() + g.sum.size(), g.sum.begin());
      std::copy(max.HostPtr(), max.HostPtr() + g.max.size(), g.max.begin());
    } else if (stack) {
      AscendC::SoftMax<float, kReuse>(dst, src, tiling, shape);
    } else {
      AscendC::SoftMax<float, kReuse>(dst, src, tmp, tiling, shape);
    }
    std::copy(src.HostPtr(), src.HostPtr() + g.src.size(), g.src.begin());
    if (!gInPlace) std::copy(dst.HostPtr(), dst.HostPtr() + g.dst.size(), g.dst.begin());
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

template <class T>
void ExpectSame(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  if (got.empty()) return;
  const size_t bytes = got.size() * sizeof(T);
  const auto* g = reinterpret_cast<const uint8_t*>(got.data());
  const auto* w = reinterpret_cast<const uint8_t*>(want.data());
  const auto at = std::mismatch(g, g + bytes, w);
  if (at.first == g + bytes) return;
  const size_t i = static_cast<size_t>(at.first - g);
  ADD_FAILURE() << what << ": byte " << i << " of " << bytes << " (element " << i / sizeof(T)
                << ") differs: lngrad 0x" << std::hex << int{*at.first} << ", replay 0x"
                << int{*at.second};
}

enum class Tiling { kRetile, kHost };

template <bool kReuse>
void Compare(const Shape& s, uint32_t tmpBytes, bool stack, bool stats, Tiling how, uint32_t seed,
             bool log = false, bool specials = false) {
  const std::string what =
      std::string(log ? "Log" : "") + "SoftMax<float" + std::string(kReuse ? ", reuse" : "") +
      "> " + softmax_replay_test::Name(s) + (stats ? " with" : " without") + " statistics, work " +
      std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)") +
      (how == Tiling::kRetile ? ", re-tile" : ", host tiling") + (specials ? ", NaN/±0 rows" : "") +
      (gInPlace ? ", in place" : "");
  SCOPED_TRACE(what);
  const Mem in = Initial(s, seed, tmpBytes, stats, specials);
  SoftMaxTiling tiling{};
  rp::SmxTiling t;
  if (how == Tiling::kHost) {
    AscendC::SoftMaxTilingFunc(ge::Shape({s.m, s.k}), 4, tmpBytes, tiling);
    t = softmax_replay_test::Mirror(tiling);
  } else {
    t = rp::SmxKernelTiling(tmpBytes / 4, s.m, s.k, s.m, 4, 4, false);
  }
  ASSERT_GT(t.splitM, 0u);
  Mem want = in;
  rp::SmxFloatWork io{want.src.data(),
                      gInPlace ? want.src.data() : want.dst.data(),
                      stats ? want.sum.data() : nullptr,
                      stats ? want.max.data() : nullptr,
                      reinterpret_cast<float*>(want.tmp.data()),
                      kReuse && !stats,
                      log};
  rp::ReplaySoftMaxFloatWork(t, s.oriK, io);
  const Mem got = RunKernel<kReuse>(s, in, tiling, stack, log);
  ExpectSame(got.tmp, want.tmp, "work buffer");
  ExpectSame(got.dst, want.dst, "dst");
  ExpectSame(got.src, want.src, "src");
  ExpectSame(got.sum, want.sum, "sum");
  ExpectSame(got.max, want.max, "max");
}

const Shape kShapes[] = {
    {1, 8, 8},     {1, 64, 64},   {1, 72, 70},     {1, 600, 600},    {3, 24, 20},  {8, 64, 64},
    {9, 200, 130}, {5, 136, 136}, {2, 192, 192},   {13, 1040, 1030}, {40, 64, 60}, {17, 264, 260},
    {33, 16, 16},  {37, 96, 90},  {2, 4096, 4090}, {11, 512, 512},   {6, 328, 321}};

// The work buffer sizes: the minimum (GetSoftMaxMinTmpSize, which checked mode asks for), one
// no multiple of 32 (about three times that), a large one.
std::vector<uint32_t> Sizes(const Shape& s) {
  const uint32_t min = AscendC::GetSoftMaxMinTmpSize(ge::Shape({s.m, s.k}), 4, false);
  return {min, 3 * min + 12, std::max<uint32_t>(40000, 3 * min + 64)};
}

template <bool kReuse>
void Sweep(bool stats) {
  uint32_t seed = stats ? 500 : 900;
  for (const Shape& s : kShapes) {
    for (const uint32_t bytes : Sizes(s)) {
      for (const bool stack : {false, true}) {
        if (stack && bytes % 32 != 0) continue;  // the stack buffer comes in 32-byte blocks
        Compare<kReuse>(s, bytes, stack, stats, Tiling::kRetile, ++seed);
      }
      Compare<kReuse>(s, bytes, false, stats, Tiling::kHost, ++seed);
    }
  }
}

// Half data: src, dst and half statistics as halves, float statistics as floats.
template <class S>
struct HalfMem {
  std::vector<rp::Half> src, dst;
  std::vector<S> sum, max;
  std::vector<uint8_t> tmp;
};

template <class S>
HalfMem<S> HalfInitial(const Shape& s, uint32_t seed, uint32_t tmpBytes, uint32_t statFloats,
                       bool specials) {
  HalfMem<S> m;
  m.src = softmax_replay_test::Inputs<rp::Half>(seed, s);
  for (uint32_t r = 0; specials && r < s.m; ++r) {
    for (uint32_t c = 0; c < s.oriK; ++c) {
      const float v = rp::HalfToFloat(m.src[r * s.k + c]);
      m.src[r * s.k + c] = rp::FromFloat<rp::Half>(Special(r, c, s.oriK, v));
    }
  }
  const float sp[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 3e-7f, -6e-8f, 2.5f};
  for (uint32_t r = 0; r < s.m; ++r) {
    for (uint32_t c = s.oriK; c < s.k; ++c) {
      m.src[r * s.k + c] = rp::FromFloat<rp::Half>(sp[(r + c) % 8]);
    }
  }
  m.dst.resize(uint64_t{s.m} * s.k + kPast);
  for (size_t i = 0; i < m.dst.size(); ++i) {
    m.dst[i] = rp::FromFloat<rp::Half>(-100.0f - static_cast<float>(i % 500));
  }
  m.sum.resize(statFloats == 0 ? 0 : statFloats + kPast);
  m.max.resize(m.sum.size());
  for (size_t i = 0; i < m.sum.size(); ++i) {
    m.sum[i] = rp::FromFloat<S>(300.0f + 0.5f * static_cast<float>(i % 900));
    m.max[i] = rp::FromFloat<S>(-700.0f - 0.25f * static_cast<float>(i % 900));
  }
  m.tmp.assign(tmpBytes, kFill);
  return m;
}

template <class T>
LocalTensor<uint8_t> Staged(AscendC::TPipe& pipe, AscendC::TBuf<>& b, const std::vector<T>& v) {
  pipe.InitBuffer(b, Aligned32(static_cast<uint32_t>(v.size() * sizeof(T))));
  LocalTensor<uint8_t> t = b.Get<uint8_t>();
  std::memcpy(t.HostPtr(), v.data(), v.size() * sizeof(T));
  return t;
}

template <class S>
HalfMem<S> RunHalf(const Shape& s, const HalfMem<S>& in, const SoftMaxTiling& tiling, bool stack,
                   bool log) {
  using DS = softmax_replay_test::Dev<S>;
  HalfMem<S> g = in;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = kSoc;
  const uint32_t tmpBytes = static_cast<uint32_t>(in.tmp.size());
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt, filler;
    const LocalTensor<uint8_t> s8 = Staged(pipe, bs, in.src), d8 = Staged(pipe, bd, in.dst);
    LocalTensor<uint8_t> sum8, max8;
    if (!in.sum.empty()) {
      sum8 = Staged(pipe, bsum, in.sum);
      max8 = Staged(pipe, bmax, in.max);
    }
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    std::copy(in.tmp.begin(), in.tmp.end(), tmp.HostPtr());
    const LocalTensor<half> src = s8.ReinterpretCast<half>(), dst = d8.ReinterpretCast<half>();
    const AscendC::SoftMaxShapeInfo shape{s.m, s.k, s.m, s.oriK};
    if (!in.sum.empty()) {
      const LocalTensor<DS> sum = sum8.ReinterpretCast<DS>(), max = max8.ReinterpretCast<DS>();
      if (log) {  // LogSoftMax takes statistics of the data type only
        if constexpr (std::is_same_v<DS, half>) {
          AscendC::LogSoftMax<half>(dst, sum, max, src, tmp, LogSoftMaxTiling{}, shape);
        }
      } else if (stack) {
        AscendC::SoftMax<half>(dst, sum, max, src, tiling, shape);
      } else {
        AscendC::SoftMax<half>(dst, sum, max, src, tmp, tiling, shape);
      }
      std::memcpy(g.sum.data(), sum8.HostPtr(), g.sum.size() * sizeof(S));
      std::memcpy(g.max.data(), max8.HostPtr(), g.max.size() * sizeof(S));
    } else if (stack) {
      AscendC::SoftMax<half>(dst, src, tiling, shape);
    } else {
      AscendC::SoftMax<half>(dst, src, tmp, tiling, shape);
    }
    std::memcpy(g.src.data(), s8.HostPtr(), g.src.size() * 2);
    std::memcpy(g.dst.data(), d8.HostPtr(), g.dst.size() * 2);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// S: the statistics' type (rp::Half or float); stats false: the overloads without them.
template <class S>
void CompareHalf(const Shape& s, uint32_t tmpBytes, bool stack, bool stats, Tiling how,
                 uint32_t seed, bool log = false, bool specials = false) {
  const bool fs = stats && std::is_same_v<S, float>;
  const std::string what =
      std::string(log ? "Log" : "") + "SoftMax<half> " + softmax_replay_test::Name(s) +
      (stats ? (fs ? " with float" : " with half") : " without") + " statistics, work " +
      std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)") +
      (how == Tiling::kRetile ? ", re-tile" : ", host tiling") + (specials ? ", NaN/±0 rows" : "");
  SCOPED_TRACE(what);
  SoftMaxTiling tiling{};
  rp::SmxTiling t;
  if (how == Tiling::kHost) {
    AscendC::SoftMaxTilingFunc(ge::Shape({s.m, s.k}), fs ? 4 : 2, tmpBytes, tiling);
    t = softmax_replay_test::Mirror(tiling);
  } else {
    t = rp::SmxKernelTiling(tmpBytes / 4, s.m, s.k, s.m, 2, stats && !fs ? 2 : 4, false);
  }
  ASSERT_GT(t.splitM, 0u);
  const HalfMem<S> in = HalfInitial<S>(s, seed, tmpBytes, stats ? s.m * t.reduceK : 0, specials);
  HalfMem<S> want = in;
  float* work = reinterpret_cast<float*>(want.tmp.data());
  rp::SmxHalfWork io{want.src.data(), want.dst.data(), nullptr, nullptr,
                     nullptr,         nullptr,         work,    log};
  if constexpr (std::is_same_v<S, float>) {
    if (stats) io.sumF = want.sum.data(), io.maxF = want.max.data();
  } else {
    if (stats) io.sumH = want.sum.data(), io.maxH = want.max.data();
  }
  rp::ReplaySoftMaxHalfWork(t, s.oriK, io);
  const HalfMem<S> got = RunHalf<S>(s, in, tiling, stack, log);
  ExpectSame(got.tmp, want.tmp, "work buffer");
  ExpectSame(got.dst, want.dst, "dst");
  ExpectSame(got.src, want.src, "src");
  ExpectSame(got.sum, want.sum, "sum");
  ExpectSame(got.max, want.max, "max");
}

const Shape kHalfShapes[] = {{1, 16, 16},      {1, 64, 64},     {1, 80, 70},    {1, 608, 600},
                             {3, 32, 20},      {8, 64, 64},     {9, 208, 130},  {5, 144, 136},
                             {13, 1040, 1030}, {40, 64, 60},    {17, 272, 260}, {33, 16, 16},
                             {37, 96, 90},     {2, 2048, 2000}, {6, 336, 321}};

std::vector<uint32_t> HalfSizes(const Shape& s) {
  const uint32_t min = AscendC::GetSoftMaxMinTmpSize(ge::Shape({s.m, s.k}), 2, false);
  return {min, 3 * min + 12, std::max<uint32_t>(40000, 3 * min + 64)};
}

template <class S>
void HalfSweep(bool stats) {
  uint32_t seed = stats ? 1500 : 1900;
  for (const Shape& s : kHalfShapes) {
    for (const uint32_t bytes : HalfSizes(s)) {
      for (const bool stack : {false, true}) {
        if (stack && bytes % 32 != 0) continue;
        CompareHalf<S>(s, bytes, stack, stats, Tiling::kRetile, ++seed);
      }
      CompareHalf<S>(s, bytes, false, stats, Tiling::kHost, ++seed);
    }
  }
}

TEST(SoftMaxScratchReplay, HalfWithHalfStatisticsOn2201) { HalfSweep<rp::Half>(true); }

TEST(SoftMaxScratchReplay, HalfWithFloatStatisticsOn2201) { HalfSweep<float>(true); }

TEST(SoftMaxScratchReplay, HalfWithoutStatisticsOn2201) { HalfSweep<rp::Half>(false); }

// LogSoftMax (sharedTmpBuffer only; the kernel always re-tiles from the buffer's size), float
// and half data with statistics of the data type.
TEST(SoftMaxScratchReplay, LogSoftMaxOn2201) {
  uint32_t seed = 3000;
  for (const Shape& s : kShapes) {
    for (const uint32_t bytes : Sizes(s)) {
      Compare<false>(s, bytes, false, true, Tiling::kRetile, ++seed, true);
    }
  }
  for (const Shape& s : kHalfShapes) {
    for (const uint32_t bytes : HalfSizes(s)) {
      CompareHalf<rp::Half>(s, bytes, false, true, Tiling::kRetile, ++seed, true);
    }
  }
}

// Rows with NaN and rows whose maximum ties +0 and -0 (Special), every shape, the minimum
// buffer and a large one: float with and without statistics (and isReuseSource), LogSoftMax,
// half with half and float statistics.
TEST(SoftMaxScratchReplay, NanAndSignedZeroRowsOn2201) {
  uint32_t seed = 4000;
  for (const Shape& s : kShapes) {
    for (const uint32_t bytes : {Sizes(s)[0], Sizes(s)[2]}) {
      Compare<false>(s, bytes, false, true, Tiling::kRetile, ++seed, false, true);
      Compare<false>(s, bytes, false, false, Tiling::kRetile, ++seed, false, true);
      Compare<true>(s, bytes, false, false, Tiling::kRetile, ++seed, false, true);
      Compare<false>(s, bytes, false, true, Tiling::kRetile, ++seed, true, true);
    }
  }
  for (const Shape& s : kHalfShapes) {
    for (const uint32_t bytes : {HalfSizes(s)[0], HalfSizes(s)[2]}) {
      CompareHalf<rp::Half>(s, bytes, false, true, Tiling::kRetile, ++seed, false, true);
      CompareHalf<float>(s, bytes, false, true, Tiling::kRetile, ++seed, false, true);
    }
  }
}

TEST(SoftMaxScratchReplay, FloatWithStatisticsOn2201) { Sweep<false>(true); }

TEST(SoftMaxScratchReplay, FloatWithoutStatisticsOn2201) { Sweep<false>(false); }

TEST(SoftMaxScratchReplay, FloatReuseSourceWithoutStatisticsOn2201) { Sweep<true>(false); }

// The splits the 2201 reductions get wrong (softmax_v200_work.h V220Defect; checked mode refuses
// them, tests/adv softmax_defect_test.cpp): unchecked, lngrad follows the device's wrapped
// uint8_t operands (softmax_v220_device.h) and gives its work buffer, dst and statistics, bit for
// bit against the replay. srcK 2048 (srcK / 8 = 256 blocks: the first Max/Add's repeat stride
// wraps to 0) with oriSrcK 128 and 200 and splits of several rows (the larger buffers; the
// minimum's splits of one row are right and compared too); one row of oriSrcK 16896 and 17000
// (BigBlockReduce*'s remainRepeat 256 and 257: 8 + 0 and 8 + 1 chunks), in place. Float with
// and without statistics (isReuseSource too), both overloads, the re-tile and the host tiling,
// LogSoftMax; half data with half, float and no statistics, LogSoftMax.
TEST(SoftMaxV220Replay, WrappedOperandsFollowTheDeviceUnchecked) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  uint32_t seed = 5000;
  for (const Shape& s : {Shape{3, 2048, 128}, Shape{3, 2048, 200}}) {
    for (const uint32_t bytes : Sizes(s)) {
      for (const bool stats : {false, true}) {
        Compare<false>(s, bytes, false, stats, Tiling::kRetile, ++seed);
        Compare<false>(s, bytes, bytes % 32 == 0, stats, Tiling::kRetile, ++seed);
        Compare<false>(s, bytes, false, stats, Tiling::kHost, ++seed);
      }
      Compare<true>(s, bytes, false, false, Tiling::kRetile, ++seed);
      Compare<false>(s, bytes, false, true, Tiling::kRetile, ++seed, true);
    }
    for (const uint32_t bytes : HalfSizes(s)) {
      for (const bool stats : {false, true}) {
        CompareHalf<rp::Half>(s, bytes, false, stats, Tiling::kRetile, ++seed);
      }
      CompareHalf<float>(s, bytes, false, true, Tiling::kRetile, ++seed);
      CompareHalf<rp::Half>(s, bytes, false, true, Tiling::kRetile, ++seed, true);
    }
  }
  gInPlace = true;
  for (const Shape& s : {Shape{1, 16896, 16896}, Shape{1, 17000, 17000}}) {
    const uint32_t bytes = Sizes(s)[0];
    for (const bool stats : {false, true}) {
      Compare<false>(s, bytes, false, stats, Tiling::kRetile, ++seed);
    }
    Compare<false>(s, bytes, false, true, Tiling::kRetile, ++seed, true);
  }
  gInPlace = false;
  CompareHalf<rp::Half>({1, 16896, 16896}, 70000, false, true, Tiling::kRetile, ++seed);
  CompareHalf<float>({1, 17000, 17000}, 70000, false, true, Tiling::kRetile, ++seed);
  lngrad::aicore::SetCheckedMode(was);
}

}  // namespace
