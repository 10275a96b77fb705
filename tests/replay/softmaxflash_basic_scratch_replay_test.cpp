// SoftmaxFlash's update with isBasicBlock on Ascend910B1 (arch 2201: SoftmaxFlashBasicBlock and
// SoftmaxFlashBasicBlockFloat, lngrad's softmaxflash_basic_work.h) against
// ReplaySoftmaxFlashBasicUpdate (replay_softmaxflash_scratch.h, session 21): the whole work buffer
// byte for byte (0xa5 where nothing is written), for half statistics the stack buffer the kit pops,
// dst with 40 sentinels past it, src (float data's result), the statistics with 40 past them; NaN,
// signed zeros, infinities and subnormals; both overloads; buffers from the minimum up; the host
// tiling and the kernel's re-tile. The shapes the kit computes wrongly: refused in checked mode
// (softmax_device_defect), compared unchecked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "replay_softmaxflash_scratch.h"
#include "softmaxflash_scratch_test_util.h"

namespace {

using namespace sflash_test;  // NOLINT(build/namespaces)
using lngrad_replay::Bits;
using lngrad_replay::Half;
using lngrad_replay::SmxTiling;

int footprintPast = 0;

// isBasicBlock on 2201 (SoftmaxFlashBasicBlock[Float], softmaxflash_basic_work.h): lngrad against
// ReplaySoftmaxFlashBasicUpdate, the whole work buffer (half data with half statistics: the stack
// buffer; the passed one untouched), dst with 40 past it, src (float data: the result), the
// statistics. Unchecked where lngrad's checked mode refuses the shape (softmax_device_defect).
template <class T, class S>
void CheckBasic(const Shape& s, uint32_t tmpBytes, How how, uint32_t seed) {
  constexpr bool kHH = std::is_same_v<T, Half> && std::is_same_v<S, Half>;
  constexpr uint32_t kBlk = std::is_same_v<S, float> ? 8 : 16;
  SoftMaxTiling t{};
  AscendC::SoftMaxFlashTilingFunc(ge::Shape({how == How::kHost ? s.m : s.m + 1, s.k}), sizeof(S),
                                  tmpBytes, t, true);
  const Io<T, S> in = Operands<T, S>(s, seed, kBlk, 32 / sizeof(T), true);
  for (const bool stack : {false, true}) {
    if (stack && tmpBytes % 32 != 0) continue;
    SmxTiling kt;
    if (how == How::kHost) {
      std::memcpy(&kt, &t, sizeof kt);
    } else {
      kt = KernelTiling(tmpBytes / 4, s.m, s.k, kBlk, true, true);
    }
    const bool wrong = (!std::is_same_v<T, float> && s.k == 64) || kt.splitM > 255 ||
                       kt.splitSize / 64 > 255 || (s.k >= 2048 && kt.splitM > 1);
    SCOPED_TRACE(std::string(std::is_same_v<T, float> ? "float" : "half") +
                 (std::is_same_v<S, float> ? "/float" : "/half") + " m " + std::to_string(s.m) +
                 " k " + std::to_string(s.k) + " tmp " + std::to_string(tmpBytes) +
                 (how == How::kHost ? " host" : " re-tile") + " splitM " +
                 std::to_string(kt.splitM) + " rangeM " + std::to_string(kt.rangeM) + " tailM " +
                 std::to_string(kt.tailM) + (stack ? " stack" : " shared") +
                 (wrong ? " unchecked" : ""));
    if (kt.splitM == 0) return;
    const lngrad::aicore::test::CheckedModeScope mode(lngrad::aicore::CheckedMode() && !wrong);
    const Io<T, S> got = RunLngrad<T, S, true>("Ascend910B1", s, true, stack, tmpBytes, t, in);
    if (::testing::Test::HasFatalFailure()) return;
    Io<T, S> want = in;
    want.tmp.assign(tmpBytes, kFill);
    want.stack.assign(got.stack.size(), kFill);
    std::vector<uint8_t>& work = kHH && !stack ? want.stack : want.tmp;
    const lngrad_replay::SflIo<T, S> io{in.src.data(),   want.dst.data(), want.sum.data(),
                                        want.max.data(), want.em.data(),  in.inSum.data(),
                                        in.inMax.data()};
    // The kit's Brcb rows past the buffer's end (one-row splits of half statistics): lngrad
    // does not model that buffer (the row model computes the results, the buffer stays marked).
    if (!lngrad_replay::ReplaySoftmaxFlashBasicUpdate<T, S>(kt, s.k, io, want.src.data(), work)) {
      ++footprintPast;
      continue;
    }
    ++checksRun;
    EXPECT_NE(work, std::vector<uint8_t>(work.size(), kFill)) << "the replay wrote no scratch";
    ExpectBytes(got.tmp, want.tmp, "work buffer");
    ExpectBytes(got.stack, want.stack, "stack buffer (shared overload)");
    ExpectBits(got.dst, want.dst, "dst");
    ExpectBits(got.src, want.src, "src");
    ExpectBits(got.sum, want.sum, "sum");
    ExpectBits(got.max, want.max, "max");
    ExpectBits(got.em, want.em, "expMax");
    ExpectBits(got.inSum, in.inSum, "inSum");
    ExpectBits(got.inMax, in.inMax, "inMax");
  }
}

const Shape kBasicShapes[] = {{1, 64, 64},     {16, 64, 64},   {8, 128, 128},  {3, 192, 192},
                              {9, 256, 256},   {24, 128, 128}, {2, 512, 512},  {10, 320, 320},
                              {4, 1024, 1024}, {40, 128, 128}, {2, 2048, 2048}};

template <class T, class S>
void BasicSweep(uint32_t seed) {
  checksRun = 0, footprintPast = 0;
  for (const Shape& s : kBasicShapes) {
    const ge::Shape shape({s.m, s.k});
    const uint32_t min = AscendC::GetSoftMaxFlashMinTmpSize(shape, sizeof(T), true, false);
    const uint32_t max = std::min<uint32_t>(
        AscendC::GetSoftMaxFlashMaxTmpSize(shape, sizeof(T), true, false), 60 * 1024);
    const bool host = !(std::is_same_v<T, Half> && std::is_same_v<S, float>);
    for (const uint32_t bytes : {min, min * 3 + 12, max}) {
      if (host) CheckBasic<T, S>(s, bytes, How::kHost, seed += 10);
      CheckBasic<T, S>(s, bytes, How::kRetile, seed += 10);
    }
  }
  EXPECT_GT(checksRun, 30) << "calls compared";
  std::printf("basic block: %d calls compared, %d with the kit's footprint past the buffer\n",
              checksRun, footprintPast);
}

// The basic-block row max (SoftmaxFlashBasicBlockFloat): Max(chunk 0, chunk 1), Max(acc, chunk 2),
// then the BlockReduceMax lane reductions; the vector Max gives its second operand on a NaN or a
// zero tie. Row 0: a NaN at column 0 is dropped by chunk 1; row 1: one in the last chunk is kept;
// row 2: one in chunk 1 is dropped by chunk 2; row 3: chunks of -0, +0, -0 give -0. lngrad's row
// model (FlashBasicRow, a left-to-right fold) gives other maxima here.
TEST(SoftmaxFlashScratchReplay, BasicBlockRowMaxFollowsTheKitsOrder) {
  const Shape s{8, 192, 192};
  std::vector<float> src = Uniform(17, uint64_t{s.m} * s.k, -4.0f, 4.0f);
  src[0] = NAN;
  src[s.k + 150] = NAN;
  src[2 * s.k + 70] = NAN;
  for (uint32_t c = 0; c < s.k; ++c) src[3 * s.k + c] = c / 64 == 1 ? 0.0f : -0.0f;
  Io<float, float> in;
  in.src = src;
  in.dst.assign(uint64_t{s.m} * s.k + kPast, -77.0f);
  in.sum.assign(s.m * 8 + kPast, 2.0f);
  in.max.assign(s.m * 8 + kPast, 2.0f);
  in.em.assign(s.m * 8 + kPast, 2.0f);
  in.inSum.assign(s.m * 8 + kPast, 1.0f);
  in.inMax.assign(s.m * 8 + kPast, -INFINITY);
  const uint32_t bytes = 16384;
  SoftMaxTiling t{};
  AscendC::SoftMaxFlashTilingFunc(ge::Shape({s.m, s.k}), 4, bytes, t, true);
  SmxTiling kt;
  std::memcpy(&kt, &t, sizeof kt);
  const Io<float, float> got =
      RunLngrad<float, float, true>("Ascend910B1", s, true, false, bytes, t, in);
  Io<float, float> want = in;
  std::vector<uint8_t> work(bytes, kFill);
  ASSERT_TRUE((lngrad_replay::ReplaySoftmaxFlashBasicUpdate<float, float>(
      kt, s.k,
      {in.src.data(), want.dst.data(), want.sum.data(), want.max.data(), want.em.data(),
       in.inSum.data(), in.inMax.data()},
      want.src.data(), work)));
  ExpectBits(got.max, want.max, "max");
  ExpectBits(got.src, want.src, "src (the result)");
  ExpectBits(got.sum, want.sum, "sum");
  ExpectBytes(got.tmp, work, "work buffer");
  EXPECT_FALSE(std::isnan(got.max[0])) << "row 0: chunk 1's Max drops column 0's NaN";
  EXPECT_TRUE(std::isnan(got.max[8])) << "row 1: the last chunk's NaN is kept";
  EXPECT_FALSE(std::isnan(got.max[16])) << "row 2: chunk 2's Max drops chunk 1's NaN";
  EXPECT_EQ(Bits(got.max[24]), 0x80000000u) << "row 3: Max(Max(-0, +0), -0) gives -0";
}

TEST(SoftmaxFlashScratchReplay, BasicBlockUpdateFloat) { BasicSweep<float, float>(1000); }
TEST(SoftmaxFlashScratchReplay, BasicBlockUpdateHalf) { BasicSweep<Half, Half>(1100); }
TEST(SoftmaxFlashScratchReplay, BasicBlockUpdateHalfFloatStatistics) {
  BasicSweep<Half, float>(1200);
}

}  // namespace

namespace {

// The shapes SoftmaxFlashBasicBlock[Float] computes wrongly (FlashBasicDefect): checked mode
// refuses them (softmax_device_defect) before anything is written; unchecked mode follows the
// kit (the sweeps above compare them unchecked). Half data with srcK 64: the first Max and Add
// pair each row with the next; srcK 2048 with splits of more than one row: the uint8_t row
// stride 256 blocks is 0.
template <class T, class S>
void ExpectRefused(const Shape& s, const char* what) {
  constexpr uint32_t kBlk = std::is_same_v<S, float> ? 8 : 16;
  const uint32_t bytes =
      std::max((4 * kBlk + 2 * s.k) * 4 * s.m,  // one split of every row
               AscendC::GetSoftMaxFlashMinTmpSize(ge::Shape({s.m, s.k}), sizeof(T), true, false));
  SoftMaxTiling t{};
  AscendC::SoftMaxFlashTilingFunc(ge::Shape({s.m, s.k}), sizeof(S), bytes, t, true);
  const Io<T, S> in = Operands<T, S>(s, 77, kBlk, 32 / sizeof(T), true);
  for (const bool checked : {true, false}) {
    SCOPED_TRACE(std::string(what) + (checked ? " checked" : " unchecked"));
    const lngrad::aicore::test::CheckedModeScope mode(checked);
    std::string refused;
    const Io<T, S> got =
        RunLngrad<T, S, true>("Ascend910B1", s, true, false, bytes, t, in, false, &refused);
    if (!checked) {
      EXPECT_EQ(refused, "");
      continue;
    }
    EXPECT_NE(refused.find("softmax_device_defect"), std::string::npos) << refused;
    EXPECT_NE(refused.find(what), std::string::npos) << refused;
    ExpectBits(got.dst, in.dst, "dst");
    ExpectBits(got.src, in.src, "src");
    ExpectBits(got.sum, in.sum, "sum");
    ExpectBits(got.max, in.max, "max");
    ExpectBits(got.em, in.em, "expMax");
    EXPECT_EQ(got.tmp, std::vector<uint8_t>(bytes, kFill)) << "the work buffer";
    EXPECT_EQ(got.stack, std::vector<uint8_t>(got.stack.size(), kFill)) << "the stack buffer";
  }
}

TEST(SoftmaxFlashScratchReplay, BasicBlockShapesTheDeviceComputesWronglyAreRefusedInCheckedMode) {
  ExpectRefused<Half, Half>({8, 64, 64}, "srcK 64");
  ExpectRefused<Half, float>({8, 64, 64}, "srcK 64");
  ExpectRefused<float, float>({2, 2048, 2048}, "srcK 2048");
  ExpectRefused<Half, float>({2, 2048, 2048}, "srcK 2048");
}

}  // namespace
