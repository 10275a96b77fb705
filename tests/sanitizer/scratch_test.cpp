// Scratch a high-level API leaves holding the device's intermediates, which lngrad does not
// model (san::LeaveScratchUnmodelled, math_detail::LeaveScratch): initcheck reports a later read
// of those bytes, naming the API, until something writes them; racecheck sees the call as a
// write of them; without initcheck nothing is reported and the kernel computes what it computed
// before. One API of each family whose scratch is checked, not modelled (docs/ascendc_kernels.md),
// and, clean, the 950's Tanh and AntiQuantize, whose sources never touch their sharedTmpBuffer,
// and the 2201 Gelu, Tanh, Exp, Log2, Erf, Erfc, Sinh, Cosh, Sin, Cos, Tan, Atan, Asin, Acos,
// Acosh, Asinh, Atanh, Fmod, Xor, CumSum, ConfusionTranspose's 0213 and NZ 012 types, TransData,
// Pad and UnPad, whose scratch is modelled (or left alone). Power's: scratch_power_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "kernel_operator.h"
#include "../aicore/checked_mode_scope.h"
#include "scratch_harness.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;                            // NOLINT(google-build-using-namespace)
using namespace lngrad::aicore::san_test::scratch;  // NOLINT(google-build-using-namespace)

// initcheck's report names this file at the call's line.
void ExpectLoud(const char* soc, const char* api, const Call& call, Then read = Then::kRead) {
  ExpectLoudIn("scratch_test.cpp", soc, api, call, read);
}

// racecheck sees the call as a V write of the scratch: copying it out with no V -> MTE3 order
// is a read-after-write race with Acosh (only racecheck on: no initcheck finding).
TEST(ScratchInitcheck, RacecheckSeesTheCallWriteTheScratch) {
  Gm g(64);
  LaunchSpec spec;
  spec.tools = san::kRacecheck;
  const Result r = LaunchSanitized(spec, [&] {
    TPipe pipe;
    TBuf<> ta, tb, tt;
    pipe.InitBuffer(ta, kOpBytes);
    pipe.InitBuffer(tb, kOpBytes);
    pipe.InitBuffer(tt, kTmpBytes);
    LocalTensor<half> a = ta.Get<half>(), b = tb.Get<half>();
    LocalTensor<uint8_t> tmp = tt.Get<uint8_t>();
    Duplicate(b, half(0.0f), 512);
    PipeBarrier<PIPE_V>();
    Acosh<half>(a, b, tmp, 512);
    GlobalTensor<float> gt;
    gt.SetGlobalBuffer(g.p, 64);
    DataCopy(gt, tmp.ReinterpretCast<float>(), 64);
  });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "racecheck");
  EXPECT_NE(r.failures[0].message.find("read-after-write hazard on UB"), std::string::npos)
      << r.AllText();
  EXPECT_NE(r.failures[0].message.find("V Acosh at"), std::string::npos) << r.AllText();
}

// Activation (2201): Gelu writes what the device's loop leaves in its scratch (ChunkScratch),
// so reading it afterwards is clean: no mark (the mark would report bytes that hold defined
// values, the same as the device's).
TEST(ScratchInitcheck, GeluOn2201ScratchIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Gelu<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 512);
              }).r);
}

// Math (2201): Tanh, Exp<T, level>, Log2<half>, Erf, Erfc, Sinh, Cosh, Sin, Cos, Tan, Atan, Asin,
// Acos, Acosh, Asinh, Atanh and Digamma<float> write what the device's rounds leave in their
// scratch (math_scratch.h): reading it afterwards is clean, as for Gelu. The last ten with counts
// whose temp tensors leave gaps in the bytes read (Sin's and Digamma's 32 floats, 128 of the 256
// bytes; Tan's and the inverse functions' 16: their rounds write the probe's first 64 bytes only),
// which the kit's code does not write and a mark would report.
TEST(ScratchInitcheck, MathOn2201ScratchIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Tanh<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 512);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Exp<float, 10>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp,
                               256);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Log2<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 512);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Erf<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 256);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Erfc<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 256);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Sinh<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 256);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Cosh<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 256);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Atan<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 16);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Asin<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 16);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Acos<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 16);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Acosh<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 16);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Asinh<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 16);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Atanh<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 16);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Sin<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 32);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Cos<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 32);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Tan<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 16);
              }).r);
  // Digamma<float>: 32 elements write the probe's first 128 bytes (result's first 32 floats).
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Digamma<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp,
                               32);
              }).r);
}

// Math (2201, 2002): Digamma<half> writes what the kit's rounds leave in its scratch (the Tan,
// Sin and Cos temps included; DigammaScratch): reading it afterwards is clean.
TEST(ScratchInitcheck, DigammaHalfScratchIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Digamma<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp,
                                512);
                }).r);
  }
}

// Math (2201): Digamma<float>'s Compare lanes past a round are modelled too (DigammaScratch runs
// the rounds over a copy of the UB): a split of 96 floats (2688 bytes) and 96 elements, whose
// masks' last Compare repeat writes bytes [12, 16) of each mask (at byte 24 * 96) from lanes
// past the round; reading result's and mask's first 16 bytes afterwards is clean (the mask's
// bytes past them the kit does not write).
TEST(ScratchInitcheck, DigammaFloatComparePastTheRoundIsModelledNotMarked) {
  constexpr uint32_t kSplit = 96, kBytes = 7 * 4 * kSplit;
  for (const uint32_t at : {uint32_t{0}, 24 * kSplit}) {  // result, then mask
    LaunchSpec spec;
    spec.soc = k910;
    spec.tools = san::kAllTools;
    const Result r = LaunchSanitized(spec, [&] {
      TPipe pipe;
      TBuf<> ta, tb, tt, tp;
      pipe.InitBuffer(ta, kOpBytes);
      pipe.InitBuffer(tb, kOpBytes);
      pipe.InitBuffer(tt, kBytes);
      pipe.InitBuffer(tp, 32);
      LocalTensor<float> a = ta.Get<float>(), b = tb.Get<float>();
      Duplicate(b, 1.5f, kSplit);
      PipeBarrier<PIPE_V>();
      Digamma<float>(a, b, tt.Get<uint8_t>(), kSplit);
      PipeBarrier<PIPE_V>();
      LocalTensor<half> probe = tp.Get<half>();
      Adds(probe, tt.Get<uint8_t>()[at].ReinterpretCast<half>(), half(0.0f), 8);
    });
    ExpectClean(r);
  }
}

// Math (2201, 2002): Fmod (half; float on 2002, whose Trunc goes through int32 words there; float
// on 2201 leaves the scratch alone) and Xor write what the kit's rounds leave in their scratch:
// reading it afterwards is clean.
TEST(ScratchInitcheck, FmodAndXorScratchIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Fmod<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(),
                            o.c.ReinterpretCast<float>(), o.tmp, 256);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Fmod<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(),
                           o.c.ReinterpretCast<half>(), o.tmp, 512);
              }).r);
  ExpectClean(RunScratch("Ascend310P1", san::kAllTools, Then::kRead, [](Ops& o) {
                Fmod<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(),
                            o.c.ReinterpretCast<float>(), o.tmp, 256);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                Xor<int16_t>(o.a.ReinterpretCast<int16_t>(), o.b.ReinterpretCast<int16_t>(),
                             o.c.ReinterpretCast<int16_t>(), o.tmp, 16);  // 32 bytes of 256 read
              }).r);
}

// Math (2201): CumSum writes what the kit's transposes and casts leave in its scratch
// (StoreCumSumScratch; replay.CumSumScratchReplay): reading it afterwards is clean, both axes.
constexpr CumSumConfig kLastAxis = {true, false, true};
constexpr CumSumConfig kFirstAxis = {false, false, true};
TEST(ScratchInitcheck, CumSumOn2201ScratchIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const CumSumInfo info{4, 64};
                CumSum<float, kLastAxis>(o.a.ReinterpretCast<float>(), o.c.ReinterpretCast<float>(),
                                         o.b.ReinterpretCast<float>(), o.tmp, info);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const CumSumInfo info{4, 64};
                CumSum<half, kFirstAxis>(o.a.ReinterpretCast<half>(), o.c.ReinterpretCast<half>(),
                                         o.b.ReinterpretCast<half>(), o.tmp, info);
              }).r);
}

// Math on the 950: Tanh's register code takes no scratch, so the bytes stay the kernel's.
TEST(ScratchInitcheck, TanhOn950LeavesTheScratchAlone) {
  ExpectClean(RunScratch(k950, san::kAllTools, Then::kRead, [](Ops& o) {
                Tanh<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 256);
              }).r);
}

// Quantization (2201): AscendQuant writes what the device's chunks leave in its scratch (the
// halves before the int8 Cast; QuantScratchReplay), so reading it afterwards is clean, per tensor
// and per channel. The family's unmodelled example is AscendAntiQuant's bfloat16 path below.
TEST(ScratchInitcheck, AscendQuantOn2201ScratchIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                AscendQuant<half>(o.a.ReinterpretCast<int8_t>(), o.b.ReinterpretCast<half>(), o.tmp,
                                  2.0f, 0.5f, 256);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                AscendQuant<float>(o.a.ReinterpretCast<int8_t>(), o.b.ReinterpretCast<float>(),
                                   o.tmp, o.c.ReinterpretCast<float>(), 0.5f, 64, 256);
              }).r);
}

// Quantization (2201): AscendDequant's DequantParams form writes what the device leaves in its
// scratch (the float scales, then the last rounds' float rows; DequantScratchReplay): clean.
TEST(ScratchInitcheck, AscendDequantOn2201ScratchIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                AscendDequant(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<int32_t>(),
                              o.c.ReinterpretCast<float>(), o.tmp, DequantParams{4, 64, 64});
              }).r);
}

// Quantization (950): AntiQuantize takes sharedTmpBuffer and its source never touches it
// (antiquantize_3510_impl.h takes its address only), so reading it after the call is clean.
constexpr AntiQuantizeConfig kAqChannel = {AntiQuantizePolicy::PER_CHANNEL, true, -1};
TEST(ScratchInitcheck, AntiQuantizeOn950LeavesTheScratchAlone) {
  ExpectClean(RunScratch(k950, san::kAllTools, Then::kRead, [](Ops& o) {
                AntiQuantize<kAqChannel>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<int8_t>(),
                                         o.c.ReinterpretCast<half>(), o.d.ReinterpretCast<half>(),
                                         o.tmp, AntiQuantizeParams{2, 64, 0});
              }).r);
}

// Quantization (2201): AscendAntiQuant's bfloat16 performance path (not transposed, offset
// tensor [1, n], k 8): PreCast's floats and the slices' intermediates, modelled where lngrad
// follows the path (n a multiple of 32: AntiQuantBf16PerformanceScratch), left to initcheck
// where it does not (unchecked mode, n 40: the truncated strides); the half forms leave
// sharedTmpBuffer alone (the kit's antiquant sample: half, N 128, k 8).
void AntiQuantCall(Ops& o, bool bf16, uint32_t n = 64) {
  LocalTensor<int8_t> src = o.b.ReinterpretCast<int8_t>();
  src.SetSize(8 * n);
  const AntiQuantShapeInfo info{1, n, 1, n};
  if (bf16) {
    LocalTensor<bfloat16_t> off = o.c.ReinterpretCast<bfloat16_t>(),
                            scl = o.d.ReinterpretCast<bfloat16_t>();
    off.SetSize(n);
    scl.SetSize(n);
    AscendAntiQuant<int8_t, bfloat16_t, false>(o.a.ReinterpretCast<bfloat16_t>(), src, off, scl,
                                               o.tmp, 8, info);
  } else {
    LocalTensor<half> off = o.c.ReinterpretCast<half>(), scl = o.d.ReinterpretCast<half>();
    off.SetSize(64);
    scl.SetSize(64);
    AscendAntiQuant<int8_t, half, false>(o.a.ReinterpretCast<half>(), src, off, scl, o.tmp, 8,
                                         info);
  }
}
TEST(ScratchInitcheck, AscendAntiQuantBf16PerformancePathUnfollowedReadAfterTheCall) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  ExpectLoud(k910, "AscendAntiQuant", [](Ops& o) { AntiQuantCall(o, true, 40); });
  lngrad::aicore::SetCheckedMode(was);
}
TEST(ScratchInitcheck, AscendAntiQuantBf16PerformancePathIsModelledNotMarked) {
  ExpectClean(
      RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) { AntiQuantCall(o, true); }).r);
}
TEST(ScratchInitcheck, AscendAntiQuantHalfLeavesTheScratchAlone) {
  ExpectClean(
      RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) { AntiQuantCall(o, false); }).r);
}

// Transform (2201): Broadcast along axis 1 (its Brcb and copy buffers, rows of whole blocks and
// not) and for 1-byte T (the half copies, then the half sequence) writes what the kit's
// sequence leaves in the scratch (replay.BroadcastScratch2201.*): reading it afterwards is
// clean.
TEST(ScratchInitcheck, BroadcastOn2201ScratchIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t dst_shape[2] = {16, 32}, src_shape[2] = {16, 1};
                Broadcast<half, 2, 1>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(),
                                      dst_shape, src_shape, o.tmp);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t dst_shape[2] = {9, 13}, src_shape[2] = {9, 1};
                Broadcast<float, 2, 1>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(),
                                       dst_shape, src_shape, o.tmp);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t dst_shape[2] = {16, 32}, src_shape[2] = {16, 1};
                Broadcast<int8_t, 2, 1>(o.a.ReinterpretCast<int8_t>(),
                                        o.b.ReinterpretCast<int8_t>(), dst_shape, src_shape, o.tmp);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t dst_shape[2] = {16, 32}, src_shape[2] = {1, 32};
                Broadcast<uint8_t, 2, 0>(o.a, o.b, dst_shape, src_shape, o.tmp);
              }).r);
}

// Reduce (2201): half ReduceMean over the last axis writes what its sequence (ReduceSum's
// float-sized steps on half rows) leaves in the scratch (reduce_ar_mean_half_2201.h;
// replay.ReduceArMeanHalfScratchReplay.*): reading it afterwards is clean. Power<int32_t> with
// an exponent whose loop does not end stays the marked example (scratch_power_test.cpp). Rows
// longer than 64 (the only ones that use the scratch) are refused in checked mode
// (reduce_device_defect: the device's means are wrong there), so the calls run unchecked, as the
// device would run them.
TEST(ScratchInitcheck, ReduceMeanHalfArIsModelledNotMarked) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  for (uint32_t last : {65u, 200u, 256u}) {
    ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [last](Ops& o) {
                  const uint32_t shape[2] = {4, last};
                  ReduceMean<half, Pattern::Reduce::AR>(
                      o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, shape, true);
                }).r);
  }
}

// Reduce (2201): float ReduceSum/Mean/Max/Min/Prod/Any/All, half ReduceMax/Min and uint8_t
// ReduceAny/All over the last axis write what their sequences leave in the scratch
// (reduce_ar_2201.h; replay.ReduceArScratchReplay.*): reading it afterwards is clean.
TEST(ScratchInitcheck, ReduceArOn2201ScratchIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t shape[2] = {8, 100};
                ReduceSum<float, Pattern::Reduce::AR>(
                    o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, shape, true);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t shape[2] = {4, 256};
                ReduceMean<float, Pattern::Reduce::AR>(
                    o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, shape, true);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t shape[2] = {8, 64};
                ReduceMax<float, Pattern::Reduce::AR>(
                    o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, shape, true);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t shape[2] = {8, 40};
                ReduceMin<half, Pattern::Reduce::AR>(
                    o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, shape, true);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t shape[2] = {8, 20};
                ReduceProd<float, Pattern::Reduce::AR>(
                    o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, shape, true);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t shape[2] = {8, 100};
                ReduceAny<uint8_t, Pattern::Reduce::AR>(o.a, o.b, o.tmp, shape, true);
              }).r);
}

// Reduce (2201): the RA pattern's fold writes what BinaryReduceByFirstAxis leaves in the scratch
// (FoldRowsInto; replay.ReduceRaScratchReplay.*): reading it afterwards is clean.
TEST(ScratchInitcheck, ReduceRaOn2201ScratchIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t shape[2] = {8, 64};
                ReduceSum<float, Pattern::Reduce::RA>(
                    o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, shape, true);
              }).r);
}

// Transform (2201, 2002): ConfusionTranspose's 0213 types, Pad of unaligned rows, Broadcast
// along axis 0 and UnPad on 2002 write what the device's passes leave in their scratch, and
// UnPad's GatherMask (2201) leaves it alone: reading it afterwards is clean. (Broadcast along
// axis 1 and for 1-byte T: above.)
TEST(ScratchInitcheck, TransformOn2201ScratchIsModelledNotMarked) {
  uint32_t mx = 0, mn = 0;
  const ge::Shape shape({1, 2, 20, 24});
  const auto type = static_cast<uint32_t>(TransposeType::TRANSPOSE_NZ2ND_0213);
  GetTransposeMaxMinTmpSize(shape, sizeof(half), type, mx, mn);
  tiling::ConfusionTransposeTiling ct;
  GetTransposeTilingInfo(shape, mn, sizeof(half), type, ct);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&ct](Ops& o) {
                ConfusionTranspose(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp,
                                   TransposeType::TRANSPOSE_NZ2ND_0213, ct);
              }).r);
  uint32_t pmx = 0, pmn = 0;
  GetPadMaxMinTmpSize(ge::Shape({5, 13}), sizeof(float), pmx, pmn);
  tiling::PadTiling pt;
  PadTilingFunc(ge::Shape({5, 13}), ge::Shape({5, 13}), pmn, sizeof(float), pt);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&pt](Ops& o) {
                PadParams p(1, 2, -7);
                Pad(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), p, o.tmp, pt);
              }).r);
  tiling::UnPadTiling ut;
  UnPadTilingFunc(ge::Shape({4, 32}), 0, sizeof(half), ut);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&ut](Ops& o) {
                UnPadParams p(0, 3);
                UnPad(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), p, o.tmp, ut);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t dst_shape[2] = {16, 32}, src_shape[2] = {1, 32};
                Broadcast<half, 2, 0>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(),
                                      dst_shape, src_shape, o.tmp);
              }).r);
  tiling::UnPadTiling vt;  // arch 2002: the v200 sequence through the scratch, modelled
  UnPadTilingFunc(ge::Shape({5, 16}), kTmpBytes, sizeof(float), vt);
  ExpectClean(RunScratch("Ascend310P1", san::kAllTools, Then::kRead, [&vt](Ops& o) {
                UnPadParams p(0, 3);
                UnPad(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), p, o.tmp, vt);
              }).r);
}

// Transform (2201): ConfusionTranspose's NZ 012 types run the kit's step sequence in their
// scratch (replay.Transpose012Scratch.*) and TransData's conversions write what the kit's
// sequences leave there (replay.TransDataScratch.*): reading it afterwards is clean.
TEST(ScratchInitcheck, Transpose012AndTransDataScratchIsModelledNotMarked) {
  const ge::Shape shape({1, 2, 20, 10});
  for (const auto type :
       {TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N, TransposeType::TRANSPOSE_NZ2ND_012_WITHOUT_N}) {
    tiling::ConfusionTransposeTiling ct;
    GetTransposeTilingInfo(shape, 1024, sizeof(half), static_cast<uint32_t>(type), ct);
    ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&ct, type](Ops& o) {
                  Transpose(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, type,
                            ct);
                }).r);
  }
  static constexpr TransDataConfig kTo6Hd = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
  static constexpr TransDataConfig kFrom6Hd = {DataFormat::NDC1HWC0, DataFormat::NCDHW};
  auto nc = MakeLayout(MakeShape(1u, 3u, 1u, 2u, 5u), MakeStride());
  auto hd = MakeLayout(MakeShape(1u, 1u, 1u, 2u, 5u, 16u), MakeStride());
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&](Ops& o) {
                TransDataParams<decltype(nc), decltype(hd)> p = {nc, hd};
                TransData<kTo6Hd>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp,
                                  p);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&](Ops& o) {
                TransDataParams<decltype(hd), decltype(nc)> p = {hd, nc};
                TransData<kFrom6Hd>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp,
                                    p);
              }).r);
}

// TopK's radix select on the 950 (lib/sort/topk_3510.h) writes the kit's bytes in tmpLocal
// (the index row, the gathered keys and indexes over the last histogram, the twiddled keys):
// reading the scratch's head afterwards is clean, sorted or not.
constexpr TopKConfig kRadix = {TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, true};
constexpr TopKConfig kRadixUnsorted = {TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, false};
template <const TopKConfig& config>
void TopKRadixCall(Ops& o) {
  TopkTiling tiling;
  tiling.tmpLocalSize = 0;
  const TopKInfo info{2, 64, 64};
  TopK<float, false, false, false, TopKMode::TOPK_NORMAL, config>(
      o.a.ReinterpretCast<float>(), o.d.ReinterpretCast<int32_t>(), o.b.ReinterpretCast<float>(),
      o.c.ReinterpretCast<int32_t>(), o.c.ReinterpretCast<bool>(), o.tmp, 8, tiling, info, true);
}

TEST(ScratchInitcheck, TopKRadixSelect950ScratchIsModelledNotMarked) {
  for (const Call& call : {Call(TopKRadixCall<kRadix>), Call(TopKRadixCall<kRadixUnsorted>)}) {
    ExpectClean(RunScratch(k950, san::kAllTools, Then::kRead, call).r);
  }
}

// What the radix Sort of a `sorted` config leaves in its own scratch is modelled
// (lib/sort/radix_sort_950_scratch.h): uint8_t keys with isInitIndex, the largest (no twiddle),
// inner 32: that scratch starts 160 bytes in (after 32 gathered keys and 128 bytes of gathered
// indexes) with its 512-byte exclusive sum, so reading the scratch's head afterwards is clean.
TEST(ScratchInitcheck, TopKRadixSelectSortScratchIsModelledNotMarked) {
  const Call call = [](Ops& o) {
    TopkTiling tiling;
    tiling.tmpLocalSize = 0;
    const TopKInfo info{2, 32, 32};
    TopK<uint8_t, true, false, false, TopKMode::TOPK_NORMAL, kRadix>(
        o.a, o.d.ReinterpretCast<int32_t>(), o.b, o.c.ReinterpretCast<int32_t>(),
        o.c.ReinterpretCast<bool>(), o.tmp, 8, tiling, info, true);
  };
  ExpectClean(RunScratch(k950, san::kAllTools, Then::kRead, call).r);
  ExpectClean(RunScratch(k950, san::kAllTools, Then::kWriteThenRead, call).r);
}

// TopK on 2201 runs the kit's sequence on lngrad's instructions (lib/sort/topk_2201.h): the
// scratch holds what Sort32, MrgSort, DataCopy, ArithProgression and the pattern words leave,
// so reading it afterwards is clean (TOPK_NORMAL smallest with finish flags, TOPK_NSMALL float
// and half smallest; the probe reads the sorted structures).
template <typename T, TopKMode mode>
void TopK2201Call(Ops& o) {
  constexpr bool nsmall = mode == TopKMode::TOPK_NSMALL;
  const int32_t inner = nsmall ? 32 : 64, outter = 2, k = 8;
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k910);
  ASSERT_TRUE(TopKTilingFunc(*platform, inner, outter, k, sizeof(T), false, mode, false, tiling));
  const TopKInfo info{outter, inner, inner};
  TopK<T, false, !nsmall, false, mode>(o.a.ReinterpretCast<T>(), o.d.ReinterpretCast<int32_t>(),
                                       o.b.ReinterpretCast<T>(), o.c.ReinterpretCast<int32_t>(),
                                       o.c.ReinterpretCast<bool>(), o.tmp, k, tiling, info, false);
}

TEST(ScratchInitcheck, TopKMergeOn2201ScratchIsModelledNotMarked) {
  for (const Call& call : {Call(TopK2201Call<float, TopKMode::TOPK_NORMAL>),
                           Call(TopK2201Call<half, TopKMode::TOPK_NORMAL>),
                           Call(TopK2201Call<float, TopKMode::TOPK_NSMALL>),
                           Call(TopK2201Call<half, TopKMode::TOPK_NSMALL>)}) {
    ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, call).r);
  }
}

// TopK on 2002 (topk_v200_impl.h, lib/sort/topk_v200.h) runs the kit's sequence on lngrad's
// instructions in tmpLocal: reading the scratch afterwards is clean, both modes, both types.
TEST(ScratchInitcheck, TopKOn2002IsModelledNotMarked) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P1");
  for (const TopKMode mode : {TopKMode::TOPK_NORMAL, TopKMode::TOPK_NSMALL}) {
    const bool nsmall = mode == TopKMode::TOPK_NSMALL;
    const TopKInfo info{2, nsmall ? 32 : 64, nsmall ? 32 : 60};
    for (const uint32_t bytes : {2u, 4u}) {
      TopkTiling tiling;
      ASSERT_TRUE(
          TopKTilingFunc(*platform, info.inner, info.outter, 8, bytes, false, mode, true, tiling));
      const Call call = [&](Ops& o) {
        if (bytes == 2 && nsmall) {
          TopK<half, false, false, false, TopKMode::TOPK_NSMALL>(
              o.a.ReinterpretCast<half>(), o.d.ReinterpretCast<int32_t>(),
              o.b.ReinterpretCast<half>(), o.c.ReinterpretCast<int32_t>(),
              o.c.ReinterpretCast<bool>(), o.tmp, 8, tiling, info, true);
        } else if (bytes == 2) {
          TopK<half>(o.a.ReinterpretCast<half>(), o.d.ReinterpretCast<int32_t>(),
                     o.b.ReinterpretCast<half>(), o.c.ReinterpretCast<int32_t>(),
                     o.c.ReinterpretCast<bool>(), o.tmp, 8, tiling, info, true);
        } else if (nsmall) {
          TopK<float, false, false, false, TopKMode::TOPK_NSMALL>(
              o.a.ReinterpretCast<float>(), o.d.ReinterpretCast<int32_t>(),
              o.b.ReinterpretCast<float>(), o.c.ReinterpretCast<int32_t>(),
              o.c.ReinterpretCast<bool>(), o.tmp, 8, tiling, info, true);
        } else {
          TopK<float>(o.a.ReinterpretCast<float>(), o.d.ReinterpretCast<int32_t>(),
                      o.b.ReinterpretCast<float>(), o.c.ReinterpretCast<int32_t>(),
                      o.c.ReinterpretCast<bool>(), o.tmp, 8, tiling, info, true);
        }
      };
      ExpectClean(RunScratch("Ascend310P1", san::kAllTools, Then::kRead, call).r);
    }
  }
}

// Math (2201): the rounding APIs and Sign write what the kit's rounds leave in their scratch
// (rounding.h, sign.h), ClampMin / ClampMax leave it alone: reading it afterwards is clean.
TEST(ScratchInitcheck, RoundingSignClampScratchIsModelledNotMarked) {
  const Call calls[] = {
      [](Ops& o) {
        Ceil<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 512);
      },
      [](Ops& o) {
        Floor<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 512);
      },
      [](Ops& o) {
        Trunc<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 256);
      },
      [](Ops& o) {
        Round<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 512);
      },
      [](Ops& o) {
        Frac<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 512);
      },
      [](Ops& o) {
        Sign<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 200);
      },
      [](Ops& o) {
        ClampMin<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp, 1.0f,
                        256);
      },
      [](Ops& o) {
        ClampMax<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, half(1.0f),
                       512);
      },
  };
  for (const Call& call : calls) ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, call).r);
}

// Lgamma on 2201/2002 writes what the device's rounds leave in its scratch (lgamma_scratch.h;
// float with 16 elements, so a mark on the rest of the probe would show; half's rounds write
// the probe's bytes whole).
TEST(ScratchInitcheck, LgammaScratchIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Lgamma<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp,
                                16);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Lgamma<float, true>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(),
                                      o.tmp, 16);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Lgamma<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp, 16);
                }).r);
  }
}

// Sum and Mean on 2201/2002 write what the kit's loops leave in their scratch (sum.h
// LeaveSumLevels, mean.h LeaveMeanCastScratch): the last row's level sums (Mean<half, float>:
// its float row, levels and the cast half); reading the scratch afterwards is clean (the bytes
// past the levels keep the zeros written before the call).
TEST(ScratchInitcheck, SumAndMeanScratchIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Sum(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp,
                      SumParams{2, 256, 200});
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Mean(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.tmp,
                       MeanParams{2, 128, 100});
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Mean<half, float>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.tmp,
                                    MeanParams{2, 256, 200});
                }).r);
  }
}

// DropOut (2201, 2002) writes what the kit's sequence leaves in its scratch (dropout.h
// LeaveDropOutScratch; DropOutScratchReplay): the byte modes' mask casts (half; float: and the
// float casts after them), the bit modes' zeroed CMPMASK block, so reading it is clean.
TEST(ScratchInitcheck, DropOutIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    DropOutShapeInfo bytes;
    bytes.firstAxis = 2;
    bytes.srcLastAxis = 256;
    bytes.maskLastAxis = 256;
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [bytes](Ops& o) {
                  DropOut<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.c,
                                o.tmp, 0.5f, bytes);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [bytes](Ops& o) {
                  DropOut<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), o.c,
                                 o.tmp, 0.5f, bytes);
                }).r);
    DropOutShapeInfo bits = bytes;
    bits.maskLastAxis = 32;
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [bits](Ops& o) {
                  DropOut<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), o.c,
                                o.tmp, 0.5f, bits);
                }).r);
  }
}

// Axpy with half sources on 2201/2002 writes what AxpySub's rounds leave in its scratch
// (fma.h LeaveAxpyScratch): reading it afterwards is clean, the (half, half) form's 16 elements
// leaving most of the probe as the zeros written before the call.
TEST(ScratchInitcheck, AxpyHalfScratchIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    for (uint32_t n : {16u, 512u}) {
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [n](Ops& o) {
                    Axpy<half, half, false>(o.a.ReinterpretCast<half>(),
                                            o.b.ReinterpretCast<half>(), half(2.0f), o.tmp, n);
                  }).r);
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [n](Ops& o) {
                    Axpy<float, half, false>(o.a.ReinterpretCast<float>(),
                                             o.b.ReinterpretCast<half>(), half(2.0f), o.tmp, n);
                  }).r);
    }
  }
}

// WelfordUpdate on 2201/2002 writes what the kit's rounds leave in their float temps
// (welfordupdate.h LeaveWelfordScratch): float, float with isReuseSource and half, reading the
// scratch afterwards is clean.
TEST(ScratchInitcheck, WelfordUpdateScratchIsModelledNotMarked) {
  const WelfordUpdateParam p{1, 64, 64, 0.5f};
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [p](Ops& o) {
                  WelfordUpdate<float, float>(
                      o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(),
                      o.c.ReinterpretCast<float>(), o.d.ReinterpretCast<float>(),
                      o.d.ReinterpretCast<float>()[512], o.tmp, p);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [p](Ops& o) {
                  WelfordUpdate<float, float, true>(
                      o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(),
                      o.c.ReinterpretCast<float>(), o.d.ReinterpretCast<float>(),
                      o.d.ReinterpretCast<float>()[512], o.tmp, p);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [p](Ops& o) {
                  WelfordUpdate<half, float>(
                      o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(),
                      o.c.ReinterpretCast<float>(), o.d.ReinterpretCast<float>(),
                      o.d.ReinterpretCast<half>()[1024], o.tmp, p);
                }).r);
  }
}

// Broadcast on 2002 (broadcast_v200_impl.h) writes what its sequence leaves in the scratch (the
// zero block, the [cols, rows] matrix; replay.BroadcastScratch2002.*): reading it afterwards
// is clean. Unchecked, a scratch the chunked sequence would write past is still marked.
TEST(ScratchInitcheck, BroadcastOn2002ScratchIsModelledNotMarked) {
  ExpectClean(RunScratch("Ascend310P1", san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t dst_shape[2] = {16, 32}, src_shape[2] = {16, 1};
                Broadcast<half, 2, 1>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(),
                                      dst_shape, src_shape, o.tmp);
              }).r);
  ExpectClean(RunScratch("Ascend310P1", san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t dst_shape[2] = {16, 32}, src_shape[2] = {1, 32};
                Broadcast<half, 2, 0>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(),
                                      dst_shape, src_shape, o.tmp);
              }).r);
  ExpectClean(RunScratch("Ascend310P1", san::kAllTools, Then::kRead, [](Ops& o) {
                const uint32_t dst_shape[2] = {32, 8}, src_shape[2] = {32, 1};
                Broadcast<int8_t, 2, 1>(o.a.ReinterpretCast<int8_t>(),
                                        o.b.ReinterpretCast<int8_t>(), dst_shape, src_shape, o.tmp);
              }).r);
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  ExpectLoud("Ascend310P1", "Broadcast", [](Ops& o) {
    const uint32_t dst_shape[2] = {32, 8}, src_shape[2] = {32, 1};
    LocalTensor<uint8_t> small = o.tmp;
    small.SetSize(256);  // the [8, 32] matrix (512 bytes) passes its end
    Broadcast<half, 2, 1>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), dst_shape,
                          src_shape, small);
  });
  lngrad::aicore::SetCheckedMode(was);
}

}  // namespace
