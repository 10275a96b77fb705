// SoftmaxFlash (the deprecated first flash API) on Ascend910B1 (arch 2201) and Ascend310P1 (2002):
// lngrad against the replay of the kit's update sequence (replay_softmaxflash_scratch.h, the
// generic split loop, float, half, half data with float statistics): the whole work buffer byte
// for byte (0xa5 where nothing is written; two NaNs match), and for half data with half
// statistics the stack buffer the kit pops instead (the buffer passed left untouched), dst with
// 40 sentinels past it, expSum, max and expMax, the sources unchanged. Without update the kit
// runs SoftMax's SoftMaxNDImpl: lngrad against sm1's SoftMax work replay on 2201
// (replay_softmax_scratch.h) and s2k's on 2002 (replay_softmax_v200_scratch.h) over the kernel's
// tiling (on 2201 also the results with NaN against ReplaySoftMax: the re-tile's splits). The
// 2201 isBasicBlock update: softmaxflash_basic_scratch_replay_test.cpp; the shared harness:
// softmaxflash_scratch_test_util.h.
// Sources with NaN (at column 0 too), rows of signed zeros, infinities and subnormals (NaN only
// with update); inMax different per lane, with NaN and -inf lanes. Both overloads; scratch sizes:
// the minimum, three times it plus 12 bytes (shared only), the maximum (capped); the host tiling
// and a tiling for another shape (the kernel's re-tile). Session 23 (sf3, who also changed
// lngrad: softmaxflash_work.h FlashStatK): host tilings whose reduceK is not the statistics' 32
// bytes (SoftMaxFlashTilingFunc's dataTypeSize not the statistics'), the replay's generic update
// (softmax_flash_nd_process_impl.h, reduceK a row; SingleBlockBroadCastImpl's 16-float form)
// with that tiling, unchecked; checked mode refuses them. Session 24 (l0c, who also changed
// lngrad's FlashRow): tilings made for a larger buffer than the call's (the row model's rows,
// BroadCastLastImpl's lane per arch), against the replay over a buffer of the tiling's size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay.h"
#include "replay_softmax.h"
#include "replay_softmax_scratch.h"
#include "replay_softmax_v200_scratch.h"
#include "replay_softmaxflash_scratch.h"
#include "softmaxflash_scratch_test_util.h"
#include "scratch_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace sflash_test;  // NOLINT(build/namespaces)
using lngrad_replay::Bits;
using lngrad_replay::Half;
using lngrad_replay::SmxTiling;

// Without update: SoftMax's work replay with the kernel's tiling (2201: sm1's; 2002: s2k's
// ReplaySoftMaxV200, SoftMaxNDImpl with statistics).
template <class T, class S>
void ReplayNoUpdate(const SmxTiling& kt, const Shape& s, Io<T, S>& want, bool v200) {
  auto* work = reinterpret_cast<float*>(want.tmp.data());
  if (v200) {
    lngrad_replay::ReplaySoftMaxV200<T, S>(
        kt, s.oriK,
        {want.src.data(), want.dst.data(), want.sum.data(), want.max.data(), work, false});
    return;
  }
  if constexpr (std::is_same_v<T, float>) {
    lngrad_replay::SmxFloatWork io{
        want.src.data(), want.dst.data(), want.sum.data(), want.max.data(), work, false};
    lngrad_replay::ReplaySoftMaxFloatWork(kt, s.oriK, io);
  } else {
    lngrad_replay::SmxHalfWork io{want.src.data(), want.dst.data(), nullptr, nullptr,
                                  nullptr,         nullptr,         work};
    if constexpr (std::is_same_v<S, float>) {
      io.sumF = want.sum.data(), io.maxF = want.max.data();
    } else {
      io.sumH = want.sum.data(), io.maxH = want.max.data();
    }
    lngrad_replay::ReplaySoftMaxHalfWork(kt, s.oriK, io);
  }
}

template <class T, class S>
void Check(const char* soc, const Shape& s, uint32_t tmpBytes, How how, bool update,
           uint32_t seed) {
  constexpr bool kHH = std::is_same_v<T, Half> && std::is_same_v<S, Half>;
  constexpr uint32_t kBlk = std::is_same_v<S, float> ? 8 : 16;
  const bool v200 = std::string(soc) == "Ascend310P1";
  SoftMaxTiling t{};
  const uint32_t tilingM = how == How::kHost ? s.m : s.m + 1;
  AscendC::SoftMaxFlashTilingFunc(ge::Shape({tilingM, s.k}), sizeof(S), tmpBytes, t, update);
  // NaN and zero ties: not without update on 2201 (sm1's replay predates the kit's max order).
  const Io<T, S> in = Operands<T, S>(s, seed, kBlk, 32 / sizeof(T), update || v200);
  for (const bool stack : {false, true}) {
    if (stack && tmpBytes % 32 != 0) continue;
    SmxTiling kt;
    if (how == How::kHost) {
      std::memcpy(&kt, &t, sizeof kt);
    } else {
      kt = KernelTiling(tmpBytes / 4, s.m, s.k, kBlk, update);
    }
    SCOPED_TRACE(std::string(soc) + (std::is_same_v<T, float> ? " float" : " half") +
                 (std::is_same_v<S, float> ? "/float" : "/half") + " m " + std::to_string(s.m) +
                 " k " + std::to_string(s.k) + " oriK " + std::to_string(s.oriK) + " tmp " +
                 std::to_string(tmpBytes) + (how == How::kHost ? " host" : " re-tile") +
                 " splitM " + std::to_string(kt.splitM) + " tailM " + std::to_string(kt.tailM) +
                 (update ? " update" : " no update") + (stack ? " stack" : " shared"));
    if (kt.splitM == 0) return;  // no row fits the re-tile: the kit asserts
    const Io<T, S> got = RunLngrad<T, S>(soc, s, update, stack, tmpBytes, t, in);
    if (::testing::Test::HasFatalFailure()) return;
    ++checksRun;
    Io<T, S> want = in;
    want.tmp.assign(tmpBytes, kFill);
    want.stack.assign(got.stack.size(), kFill);
    if (update) {
      std::vector<uint8_t>& work = kHH && !stack ? want.stack : want.tmp;
      const lngrad_replay::SflIo<T, S> io{in.src.data(),   want.dst.data(), want.sum.data(),
                                          want.max.data(), want.em.data(),  in.inSum.data(),
                                          in.inMax.data()};
      ASSERT_TRUE((lngrad_replay::ReplaySoftmaxFlashUpdate<T, S>(kt, s.oriK, io, work, v200)));
      EXPECT_NE(work, std::vector<uint8_t>(work.size(), kFill)) << "the replay wrote no scratch";
    } else {
      ReplayNoUpdate<T, S>(kt, s, want, v200);
    }
    ExpectBytes(got.tmp, want.tmp, "work buffer");
    ExpectBytes(got.stack, want.stack, "stack buffer (shared overload)");
    ExpectBits(got.dst, want.dst, "dst");
    ExpectBits(got.sum, want.sum, "sum");
    ExpectBits(got.max, want.max, "max");
    ExpectBits(got.em, want.em, "expMax");
    ExpectBits(got.src, in.src, "src");
    ExpectBits(got.inSum, in.inSum, "inSum");
    ExpectBits(got.inMax, in.inMax, "inMax");
  }
}

const Shape kShapes[] = {{1, 8, 8},      {3, 24, 20},   {1, 64, 64},   {5, 72, 70},
                         {9, 136, 130},  {4, 200, 196}, {2, 520, 520}, {3, 600, 588},
                         {17, 64, 64},   {40, 16, 16},  {11, 48, 48},  {2, 1040, 1030},
                         {13, 128, 128}, {6, 256, 250}, {7, 192, 100}, {21, 96, 96}};

template <class T, class S>
void Sweep(const char* soc, bool update, uint32_t seed) {
  checksRun = 0;
  for (const Shape& s : kShapes) {
    if (s.k * sizeof(T) % 32 != 0) continue;
    const ge::Shape shape({s.m, s.k});
    const uint32_t min = AscendC::GetSoftMaxFlashMinTmpSize(shape, sizeof(T), update, false);
    const uint32_t max = std::min<uint32_t>(
        AscendC::GetSoftMaxFlashMaxTmpSize(shape, sizeof(T), update, false), 40 * 1024);
    // Half data with float statistics: the kernel takes a tiling of its own form only from the
    // re-tile (the host's has half blocks).
    const bool host = !(std::is_same_v<T, Half> && std::is_same_v<S, float>);
    for (const uint32_t bytes : {min, min * 3 + 12, max}) {
      if (host) Check<T, S>(soc, s, bytes, How::kHost, update, seed += 10);
      Check<T, S>(soc, s, bytes, How::kRetile, update, seed += 10);
    }
  }
  EXPECT_GT(checksRun, 30) << "calls compared";
  std::printf("%s: %d calls compared\n", soc, checksRun);
}

TEST(SoftmaxFlashScratchReplay, UpdateFloatOn2201) {
  Sweep<float, float>("Ascend910B1", true, 100);
}
TEST(SoftmaxFlashScratchReplay, UpdateHalfOn2201) { Sweep<Half, Half>("Ascend910B1", true, 200); }
TEST(SoftmaxFlashScratchReplay, UpdateHalfFloatStatisticsOn2201) {
  Sweep<Half, float>("Ascend910B1", true, 300);
}
TEST(SoftmaxFlashScratchReplay, UpdateFloatOn2002) {
  Sweep<float, float>("Ascend310P1", true, 400);
}
TEST(SoftmaxFlashScratchReplay, UpdateHalfOn2002) { Sweep<Half, Half>("Ascend310P1", true, 500); }
TEST(SoftmaxFlashScratchReplay, UpdateHalfFloatStatisticsOn2002) {
  Sweep<Half, float>("Ascend310P1", true, 600);
}
TEST(SoftmaxFlashScratchReplay, NoUpdateOn2201) {
  Sweep<float, float>("Ascend910B1", false, 700);
  Sweep<Half, Half>("Ascend910B1", false, 800);
  Sweep<Half, float>("Ascend910B1", false, 900);
}
// Without update on 2201 the splits SoftMax's reductions get wrong (softmax_v200_work.h
// V220Defect; refused in checked mode): unchecked, lngrad follows the device's wrapped operands
// (softmax_v220_device.h), against sm1's replay with them (u22). srcK 2048 with oriSrcK 128 and
// 200 (the repeat stride 256 blocks wraps to 0; splits of several rows), one half row of oriSrcK
// 16896 and 17000 (BigBlockReduce*'s remainRepeat).
TEST(SoftmaxFlashScratchReplay, NoUpdateWrappedOperandsFollowTheDeviceUncheckedOn2201) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  const char* soc = "Ascend910B1";
  uint32_t seed = 3000;
  for (const Shape& s : {Shape{3, 2048, 128}, Shape{3, 2048, 200}}) {
    Check<float, float>(soc, s, 40000, How::kHost, false, seed += 10);
    Check<float, float>(soc, s, 40000, How::kRetile, false, seed += 10);
    Check<Half, Half>(soc, s, 60000, How::kHost, false, seed += 10);
    Check<Half, float>(soc, s, 60000, How::kRetile, false, seed += 10);
  }
  // Half rows with the host tiling (a float row, its dst and its buffer exceed the UB out of
  // place; the re-tile of half data with float statistics asks for 2 k floats a row).
  for (const Shape& s : {Shape{1, 16896, 16896}, Shape{1, 17008, 17000}}) {
    Check<Half, Half>(soc, s, 70000, How::kHost, false, seed += 10);
  }
}

// Without update on 2002 the kit runs membase/v200's SoftMaxNDImpl with statistics: lngrad's
// softmax_v200_work.h over the kernel's tiling (the buffer was left marked before session 21).
TEST(SoftmaxFlashScratchReplay, NoUpdateOn2002) {
  Sweep<float, float>("Ascend310P1", false, 1300);
  Sweep<Half, Half>("Ascend310P1", false, 1400);
  Sweep<Half, float>("Ascend310P1", false, 1500);
}

// Without update on 2201, the results (NaN, zero ties) against ReplaySoftMax's kit row max over
// the kernel's tiling: for another shape's tiling the kernel re-tiles, and NewReduceMaxLastNDImpl's
// operand order for [128, 512) columns depends on the split's rows (lngrad took the whole call as
// one split before, session 21).
template <class T, class S>
void NoUpdateResults(uint32_t seed) {
  int compared = 0;
  for (const Shape& s : kShapes) {
    if (s.k * sizeof(T) % 32 != 0) continue;
    const uint32_t min =
        AscendC::GetSoftMaxFlashMinTmpSize(ge::Shape({s.m, s.k}), sizeof(T), false, false);
    for (const uint32_t bytes : {min, 2 * min, 4 * min}) {
      SoftMaxTiling t{};
      AscendC::SoftMaxFlashTilingFunc(ge::Shape({s.m + 1, s.k}), sizeof(S), bytes, t, false);
      const SmxTiling kt = KernelTiling(bytes / 4, s.m, s.k, 32 / sizeof(S), false);
      if (kt.splitM == 0) continue;
      SCOPED_TRACE("m " + std::to_string(s.m) + " k " + std::to_string(s.k) + " splitM " +
                   std::to_string(kt.splitM));
      Io<T, S> in = Operands<T, S>(s, seed += 10, 32 / sizeof(S), 32 / sizeof(T), true);
      // Row 0: a NaN in chunk 2's last lane (past the tail's lanes), kept by Max(acc, chunk) when
      // the split has more rows than oriK / 64, dropped by Max(chunk, acc) otherwise.
      if (s.oriK >= 192) in.src[191] = lngrad_replay::FromFloat<T>(NAN);
      const Io<T, S> got = RunLngrad<T, S>("Ascend910B1", s, false, false, bytes, t, in);
      Io<T, S> want = in;
      lngrad_replay::ReplaySoftMax<T, S>(kt, s.oriK, in.src.data(), want.dst.data(),
                                         want.sum.data(), want.max.data());
      ExpectBits(got.dst, want.dst, "dst");
      ExpectBits(got.sum, want.sum, "sum");
      ExpectBits(got.max, want.max, "max");
      ++compared;
    }
  }
  EXPECT_GT(compared, 10);
}

TEST(SoftmaxFlashScratchReplay, NoUpdateRowMaxTakesTheKernelsSplitsOn2201) {
  NoUpdateResults<float, float>(2000);
  NoUpdateResults<Half, Half>(2100);
  NoUpdateResults<Half, float>(2200);
}

// The update's row max is ReduceMaxLastNDImpl's (each chunk's block maxima, Max(acc, chunk),
// the tail's Max(acc, tail); a NaN or a zero tie gives the later operand): a NaN at column 0 is
// dropped by chunk 1's Max, one in the tail wins, -0 then +0 gives +0. lngrad folded the row
// left to right before (NaN kept from column 0, lost from the tail; -0 kept).
TEST(SoftmaxFlashScratchReplay, UpdateRowMaxFollowsReduceMaxLastNDImpl) {
  const Shape s{3, 128, 120};
  for (const char* soc : {"Ascend910B1", "Ascend310P1"}) {
    SCOPED_TRACE(soc);
    std::vector<float> src = Uniform(7, uint64_t{s.m} * s.k, -4.0f, 4.0f);
    src[0] = NAN;                 // row 0, chunk 0
    src[s.k + s.oriK - 1] = NAN;  // row 1, the tail
    for (uint32_t c = 0; c < s.k; ++c) src[2 * s.k + c] = c == 0 ? -0.0f : 0.0f;
    Io<float, float> in;
    in.src = src;
    in.dst.assign(uint64_t{s.m} * s.k + kPast, -77.0f);
    in.sum.assign(s.m * 8, 2.0f);
    in.max.assign(s.m * 8, 2.0f);
    in.em.assign(s.m * 8, 2.0f);
    in.inSum.assign(s.m * 8, 1.0f);
    in.inMax.assign(s.m * 8, -INFINITY);
    SoftMaxTiling t{};
    AscendC::SoftMaxFlashTilingFunc(ge::Shape({s.m, s.k}), 4, 8192, t, true);
    SmxTiling kt;
    std::memcpy(&kt, &t, sizeof kt);
    const Io<float, float> got = RunLngrad<float, float>(soc, s, true, false, 8192, t, in);
    Io<float, float> want = in;
    std::vector<uint8_t> work(8192, kFill);
    ASSERT_TRUE((lngrad_replay::ReplaySoftmaxFlashUpdate<float, float>(
        kt, s.oriK,
        {in.src.data(), want.dst.data(), want.sum.data(), want.max.data(), want.em.data(),
         in.inSum.data(), in.inMax.data()},
        work, std::string(soc) == "Ascend310P1")));
    ExpectBits(got.max, want.max, "max");
    ExpectBits(got.dst, want.dst, "dst");
    ExpectBytes(got.tmp, work, "work buffer");
    EXPECT_FALSE(std::isnan(got.max[0])) << "row 0: chunk 1's Max drops column 0's NaN";
    EXPECT_TRUE(std::isnan(got.max[8])) << "row 1: the tail's Max keeps its NaN";
    EXPECT_EQ(Bits(got.max[16]), 0u) << "row 2: Max(-0, +0) gives +0";
  }
}

// The statistics updated in place (inSum = sum, inMax = max, as the kit's flash samples pass
// them): each split copies inMax and inSum into the buffer before it writes max and sum.
template <class T, class S>
void CheckInPlace(const char* soc, const Shape& s, uint32_t seed) {
  constexpr uint32_t kBlk = std::is_same_v<S, float> ? 8 : 16;
  const uint32_t bytes = 3000;
  SoftMaxTiling t{};
  AscendC::SoftMaxFlashTilingFunc(ge::Shape({s.m + 1, s.k}), sizeof(S), bytes, t, true);
  const SmxTiling kt = KernelTiling(bytes / 4, s.m, s.k, kBlk, true);
  Io<T, S> in = Operands<T, S>(s, seed, kBlk, 32 / sizeof(T), true);
  in.sum = in.inSum;
  in.max = in.inMax;
  const Io<T, S> got = RunLngrad<T, S>(soc, s, true, false, bytes, t, in, true);
  Io<T, S> want = in;
  want.tmp.assign(bytes, kFill);
  want.stack.assign(got.stack.size(), kFill);
  constexpr bool kHH = std::is_same_v<T, Half> && std::is_same_v<S, Half>;
  std::vector<uint8_t>& work = kHH ? want.stack : want.tmp;
  ASSERT_TRUE((lngrad_replay::ReplaySoftmaxFlashUpdate<T, S>(
      kt, s.oriK,
      {in.src.data(), want.dst.data(), want.sum.data(), want.max.data(), want.em.data(),
       want.sum.data(), want.max.data()},
      work, std::string(soc) == "Ascend310P1")));
  ExpectBytes(got.tmp, want.tmp, "work buffer");
  ExpectBytes(got.stack, want.stack, "stack buffer");
  ExpectBits(got.dst, want.dst, "dst");
  ExpectBits(got.sum, want.sum, "sum");
  ExpectBits(got.max, want.max, "max");
  ExpectBits(got.em, want.em, "expMax");
}

TEST(SoftmaxFlashScratchReplay, UpdateInPlaceStatistics) {
  for (const char* soc : {"Ascend910B1", "Ascend310P1"}) {
    SCOPED_TRACE(soc);
    CheckInPlace<float, float>(soc, {9, 136, 130}, 11);
    CheckInPlace<Half, Half>(soc, {9, 144, 130}, 12);
    CheckInPlace<Half, float>(soc, {9, 144, 130}, 13);
  }
}

// isBasicBlock on 2201, half data: SoftmaxFlashBasicBlock computes the rangeM full splits, the
// tail split runs the generic update's tail code, so its rows' results are the generic replay's
// (their row max in ReduceMaxLastNDImpl's order; lngrad's row model folded left to right before).
TEST(SoftmaxFlashScratchReplay, BasicBlockHalfTailSplitFollowsTheGenericOrder) {
  const Shape s{10, 128, 128};
  Io<Half, Half> in = Operands<Half, Half>(s, 31, 16, 16, true);
  for (uint32_t c = 0; c < s.k; ++c) {
    in.src[8 * s.k + c] = lngrad_replay::FromFloat<Half>(c == 0 ? NAN : float(c % 7) - 3.0f);
    in.src[9 * s.k + c] = lngrad_replay::FromFloat<Half>(c == 0 ? -0.0f : 0.0f);
  }
  for (uint32_t l = 0; l < 32; ++l)
    in.inMax[8 * 16 + l] = lngrad_replay::FromFloat<Half>(-INFINITY);
  const SmxTiling kt = KernelTiling(4 * (4 * 16 + 2 * s.k), s.m, s.k, 16, true);  // 4 rows a split
  ASSERT_EQ(kt.tailM, 2u);
  SoftMaxTiling t{};
  std::memcpy(static_cast<void*>(&t), &kt, sizeof kt);
  Io<Half, Half> got = in;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = "Ascend910B1";
  const uint64_t n = uint64_t{s.m} * s.k;
  const auto status = lngrad::aicore::Launch(
      1,
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<> b[7], tb;
        const uint64_t sizes[7] = {n * 2, n * 2, 320, 320, 320, 320, 320};
        for (int i = 0; i < 7; ++i) pipe.InitBuffer(b[i], Al(sizes[i]));
        pipe.InitBuffer(tb, 2800);
        LocalTensor<half> x[7];
        for (int i = 0; i < 7; ++i) x[i] = b[i].Get<half>();
        Load(x[0], in.src), Load(x[2], in.em), Load(x[3], in.sum), Load(x[4], in.max);
        Load(x[5], in.inSum), Load(x[6], in.inMax);
        x[0].SetSize(static_cast<uint32_t>(n));
        x[1].SetSize(static_cast<uint32_t>(n));
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.k};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        AscendC::SoftmaxFlash<half, false, true>(x[1], x[3], x[4], x[0], x[2], x[5], x[6],
                                                 tb.Get<uint8_t>(), t, true, si);
#pragma GCC diagnostic pop
        got.dst.resize(n);
        Keep(x[1], got.dst), Keep(x[2], got.em), Keep(x[3], got.sum), Keep(x[4], got.max);
      },
      opts);
  ASSERT_TRUE(status.ok()) << status.message();
  Io<Half, Half> want = in;
  std::vector<uint8_t> stackImage(64 * 1024, kFill);
  ASSERT_TRUE((lngrad_replay::ReplaySoftmaxFlashUpdate<Half, Half>(
      kt, s.oriK,
      {in.src.data(), want.dst.data(), want.sum.data(), want.max.data(), want.em.data(),
       in.inSum.data(), in.inMax.data()},
      stackImage, false)));
  const uint64_t r0 = uint64_t{kt.rangeM} * kt.splitM;
  const auto rows = [](const std::vector<Half>& v, uint64_t from, uint64_t to) {
    return std::vector<Half>(v.begin() + static_cast<std::ptrdiff_t>(from),
                             v.begin() + static_cast<std::ptrdiff_t>(to));
  };
  ExpectBits(rows(got.dst, r0 * s.k, n), rows(want.dst, r0 * s.k, n), "the tail split's dst");
  ExpectBits(rows(got.max, r0 * 16, s.m * 16), rows(want.max, r0 * 16, s.m * 16), "max");
  ExpectBits(rows(got.sum, r0 * 16, s.m * 16), rows(want.sum, r0 * 16, s.m * 16), "sum");
  ExpectBits(rows(got.em, r0 * 16, s.m * 16), rows(want.em, r0 * 16, s.m * 16), "expMax");
}

// Without update, a tiling for another shape makes the kernel re-tile (SoftMaxFlashTilingFunc
// over the buffer's floats w: w / (2 blk + 2 srcK) rows per split), which asserts at least one
// row: checked mode refuses a buffer below that (tmp_buffer), as it does with update.
TEST(SoftmaxFlashScratchReplay, NoUpdateRetileWithoutARowIsRefused) {
  const Shape s{4, 200, 200};
  SoftMaxTiling t{};
  AscendC::SoftMaxFlashTilingFunc(ge::Shape({1, s.k}), 4, 8192, t, false);
  const uint32_t bytes = (2 * 8 + 2 * s.k) * 4 - 32;
  for (const char* soc : {"Ascend910B1", "Ascend310P1"}) {
    lngrad::aicore::LaunchOptions opts;
    opts.soc = soc;
    const auto status = lngrad::aicore::Launch(
        1,
        [&] {
          AscendC::TPipe pipe;
          AscendC::TBuf<> b, st, tb;
          pipe.InitBuffer(b, 4 * s.m * s.k * 4);
          pipe.InitBuffer(st, 6 * s.m * 32);
          pipe.InitBuffer(tb, bytes);
          const LocalTensor<float> x = b.Get<float>(), stat = st.Get<float>();
          LocalTensor<float> src = x, dst = x[s.m * s.k];
          src.SetSize(s.m * s.k);
          dst.SetSize(s.m * s.k);
          const uint32_t sr = s.m * 8;
          const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.k};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
          AscendC::SoftmaxFlash<float>(dst, stat, stat[sr], src, stat[2 * sr], stat[3 * sr],
                                       stat[4 * sr], tb.Get<uint8_t>(), t, false, si);
#pragma GCC diagnostic pop
        },
        opts);
    EXPECT_FALSE(status.ok()) << soc;
    EXPECT_NE(status.message().find("tmp_buffer"), std::string::npos) << status.message();
  }
}

// A host tiling whose reduceK is not the statistics' 32 bytes (SoftMaxFlashTilingFunc given the
// data's size for half data with float statistics: 16; float data given 2: 16; half data with
// half statistics given 4: 8): the kit's generic update indexes inMax, inSum, max, sum and expMax
// reduceK a row, so the rows differ from the tensors' [rows, 32 B]. Checked mode refuses it
// (softmax_device_defect) before writing anything; unchecked, lngrad follows the kit's sequence:
// the work buffer, dst and the statistics as the replay (tensors sized for the kit's rows).
template <class T, class S>
void WideReduceK(const char* soc, uint32_t tsz, uint32_t seed) {
  const bool v200 = std::string(soc) == "Ascend310P1";
  const uint32_t rk = 32 / tsz, ek = rk * sizeof(S) / sizeof(T);
  int compared = 0;
  for (const Shape& s : kShapes) {
    if (s.k * sizeof(T) % 32 != 0) continue;
    const ge::Shape shape({s.m, s.k});
    const uint32_t min = AscendC::GetSoftMaxFlashMinTmpSize(shape, tsz, true, false);
    for (const uint32_t bytes : {min, min * 3 + 12}) {
      SoftMaxTiling t{};
      AscendC::SoftMaxFlashTilingFunc(shape, tsz, bytes, t, true);
      SmxTiling kt;
      std::memcpy(&kt, &t, sizeof kt);
      if (kt.splitM == 0) continue;
      const Io<T, S> in = Operands<T, S>(s, seed += 10, rk, ek, true);
      for (const bool stack : {false, true}) {
        if (stack && bytes % 32 != 0) continue;
        SCOPED_TRACE(std::string(soc) + " m " + std::to_string(s.m) + " k " + std::to_string(s.k) +
                     " tmp " + std::to_string(bytes) + " splitM " + std::to_string(kt.splitM) +
                     (stack ? " stack" : " shared"));
        std::string refused;
        const Io<T, S> kept = RunLngrad<T, S>(soc, s, true, stack, bytes, t, in, false, &refused);
        EXPECT_NE(refused.find("softmax_device_defect"), std::string::npos) << refused;
        ExpectBits(kept.dst, in.dst, "dst (refused)");
        ExpectBits(kept.sum, in.sum, "sum (refused)");
        ExpectBits(kept.max, in.max, "max (refused)");
        ExpectBits(kept.em, in.em, "expMax (refused)");
        EXPECT_EQ(kept.tmp, std::vector<uint8_t>(bytes, kFill)) << "buffer (refused)";
        Io<T, S> got;
        {
          const lngrad::aicore::test::CheckedModeScope unchecked(false);
          got = RunLngrad<T, S>(soc, s, true, stack, bytes, t, in);
        }
        if (::testing::Test::HasFatalFailure()) return;
        Io<T, S> want = in;
        want.tmp.assign(bytes, kFill);
        want.stack.assign(got.stack.size(), kFill);
        constexpr bool kHH = std::is_same_v<T, Half> && std::is_same_v<S, Half>;
        std::vector<uint8_t>& work = kHH && !stack ? want.stack : want.tmp;
        const lngrad_replay::SflIo<T, S> io{in.src.data(),   want.dst.data(), want.sum.data(),
                                            want.max.data(), want.em.data(),  in.inSum.data(),
                                            in.inMax.data()};
        ASSERT_TRUE((lngrad_replay::ReplaySoftmaxFlashUpdate<T, S>(kt, s.oriK, io, work, v200)));
        ++compared;
        ExpectBytes(got.tmp, want.tmp, "work buffer");
        ExpectBytes(got.stack, want.stack, "stack buffer (shared overload)");
        ExpectBits(got.dst, want.dst, "dst");
        ExpectBits(got.sum, want.sum, "sum");
        ExpectBits(got.max, want.max, "max");
        ExpectBits(got.em, want.em, "expMax");
      }
    }
  }
  EXPECT_GT(compared, 10);
}

TEST(SoftmaxFlashScratchReplay, ReduceKNotTheStatisticsBlockFollowsTheKitUnchecked) {
  for (const char* soc : {"Ascend910B1", "Ascend310P1"}) {
    WideReduceK<Half, float>(soc, 2, 2000);
    WideReduceK<float, float>(soc, 2, 2100);
    WideReduceK<Half, Half>(soc, 4, 2200);
  }
}

// A tiling made for a larger buffer than the call passes (session 24, l0c, who also changed
// lngrad's FlashRow): its splits' 2 splitSize + 4 reduceSize floats pass the buffer's end, so
// lngrad's FlashWorkRun does not take it and the row model FlashRow computes the rows (the buffer
// stays unwritten). The kit's sequence runs that tiling as given; its pieces past the buffer's
// end land in whatever UB follows (no operand here), so the results are the replay's over a
// buffer of the tiling's size. inMax's lanes differ within a row: dst's columns (and half data's
// expMax from float statistics) take each row's lane 0 on 2002 (v200 BroadCastLastImpl's scalar
// loop), lane c % 8 on 2201 (FlashRow took c % 8 on both before). Both overloads; float data and
// half data with float statistics (half statistics: the kernel pops its own stack buffer).
template <class T, class S>
void ShortBuffer(const char* soc, uint32_t seed) {
  const bool v200 = std::string(soc) == "Ascend310P1";
  constexpr uint32_t kBlk = 8;
  int compared = 0;
  for (const Shape& s : kShapes) {
    if (s.k * sizeof(T) % 32 != 0) continue;
    const ge::Shape shape({s.m, s.k});
    const uint32_t bytes = AscendC::GetSoftMaxFlashMinTmpSize(shape, sizeof(T), true, false);
    const SmxTiling kt = KernelTiling((4 * bytes + 64) / 4, s.m, s.k, kBlk, true);  // 4 times
    const uint64_t need = 2 * uint64_t{kt.splitSize} + 4 * uint64_t{kt.reduceSize};
    if (need * 4 <= bytes) continue;  // the splits fit: not the row model
    SoftMaxTiling t{};
    std::memcpy(static_cast<void*>(&t), &kt, sizeof kt);
    const Io<T, S> in = Operands<T, S>(s, seed += 10, kBlk, 32 / sizeof(T), true);
    for (const bool stack : {false, true}) {
      if (stack && bytes % 32 != 0) continue;
      SCOPED_TRACE(std::string(soc) + " m " + std::to_string(s.m) + " k " + std::to_string(s.k) +
                   " tmp " + std::to_string(bytes) + " splitM " + std::to_string(kt.splitM) +
                   (stack ? " stack" : " shared"));
      const Io<T, S> got = RunLngrad<T, S>(soc, s, true, stack, bytes, t, in);
      if (::testing::Test::HasFatalFailure()) return;
      EXPECT_EQ(got.tmp, std::vector<uint8_t>(bytes, kFill)) << "the row model writes no buffer";
      Io<T, S> want = in;
      std::vector<uint8_t> work(need * 4, kFill);
      const lngrad_replay::SflIo<T, S> io{in.src.data(),   want.dst.data(), want.sum.data(),
                                          want.max.data(), want.em.data(),  in.inSum.data(),
                                          in.inMax.data()};
      ASSERT_TRUE((lngrad_replay::ReplaySoftmaxFlashUpdate<T, S>(kt, s.oriK, io, work, v200)));
      ++compared;
      ExpectBits(got.dst, want.dst, "dst");
      ExpectBits(got.sum, want.sum, "sum");
      ExpectBits(got.max, want.max, "max");
      ExpectBits(got.em, want.em, "expMax");
    }
  }
  EXPECT_GT(compared, 10);
}

TEST(SoftmaxFlashScratchReplay, BufferShortOfTheTilingTakesTheBroadcastLaneOfTheArch) {
  for (const char* soc : {"Ascend910B1", "Ascend310P1"}) {
    ShortBuffer<float, float>(soc, 3000);
    ShortBuffer<Half, float>(soc, 3100);
  }
}

}  // namespace
