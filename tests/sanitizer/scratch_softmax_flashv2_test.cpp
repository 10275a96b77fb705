// SoftmaxFlashV2's work buffer on 2201 and 2002 (split from scratch_softmax_test.cpp, session
// 24; the harness: scratch_harness.h): the paths lngrad models read clean after the call.
#include <gtest/gtest.h>

#include <cstdint>

#include "../aicore/checked_mode_scope.h"
#include "kernel_operator.h"
#include "scratch_harness.h"
#include "scratch_softmax_ops.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;                            // NOLINT(google-build-using-namespace)
using namespace lngrad::aicore::san_test::scratch;  // NOLINT(google-build-using-namespace)

// SoftmaxFlashV2 on 2201 (the broadcast mode's generic split loop; float, half, half with float
// statistics) writes what the kit's reductions and broadcasts leave in the work buffer
// (softmax_flash_scratch.h; replay.SoftmaxFlashV2ScratchReplay.*): reading it afterwards is clean,
// without and with update.
TEST(ScratchInitcheck, SoftmaxFlashV2IsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling t;
                SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 2, 2, kTmpBytes, t, false);
                SoftmaxFlashV2<half, false>(H(o.a), H(o.c), H(o.d), H(o.b), H(o.c)[512], H(o.c),
                                            H(o.d), o.tmp, t, kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling t;
                SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 2, 4, kTmpBytes, t, true);
                SoftmaxFlashV2<half, true>(H(o.a), F(o.c), F(o.d), H(o.b), H(o.c)[1024],
                                           F(o.c)[256], F(o.d)[256], o.tmp, t, kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling t;
                SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 4, 4, kTmpBytes, t, false);
                SoftmaxFlashV2<float, false>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512], F(o.c),
                                             F(o.d), o.tmp, t, kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling t;
                SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 4, 4, kTmpBytes, t, true);
                SoftmaxFlashV2<float, true>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512],
                                            F(o.c)[256], F(o.d)[256], o.tmp, t, kSmShape);
              }).r);
  // isBasicBlock, half data with half and with float statistics (session 22), then float
  // (softmax_flashv2_paths.h; replay.SoftmaxFlashV2BasicScratchReplay.*).
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling t;
                SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 2, 2, kTmpBytes, t, false, true);
                SoftmaxFlashV2<half, false, false, true>(H(o.a), H(o.c), H(o.d), H(o.b),
                                                         H(o.c)[512], H(o.c), H(o.d), o.tmp, t,
                                                         kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling t;
                SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 2, 4, kTmpBytes, t, true, true);
                SoftmaxFlashV2<half, true, false, true>(H(o.a), F(o.c), F(o.d), H(o.b),
                                                        H(o.c)[1024], F(o.c)[256], F(o.d)[256],
                                                        o.tmp, t, kSmShape);
              }).r);
  for (const bool update : {false, true}) {
    ExpectClean(
        RunScratch(k910, san::kAllTools, Then::kRead, [update](Ops& o) {
          SoftMaxTiling t;
          SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 4, 4, kTmpBytes, t, update, true);
          if (update) {
            SoftmaxFlashV2<float, true, false, true>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512],
                                                     F(o.c)[256], F(o.d)[256], o.tmp, t, kSmShape);
          } else {
            SoftmaxFlashV2<float, false, false, true>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512],
                                                      F(o.c), F(o.d), o.tmp, t, kSmShape);
          }
        }).r);
  }
}

// Session 23 (bb): SoftmaxFlashV2 isBasicBlock, float data, in splits not a multiple of 8 rows
// (refused in checked mode, softmax_device_defect): unchecked, the work buffer is what the kit's
// sequence leaves (softmax_flashv2_paths.h FlashV2BasicScratch's device mode;
// replay.SoftmaxFlashV2BasicScratchReplay.FloatDataSplitsNotAMultipleOf8Rows), so reading it
// after the call is clean. [8, 128] in one split of 6 rows (its statistics' 8 rows in the tensors).
TEST(ScratchInitcheck, SoftmaxFlashV2BasicSplitsNotAMultipleOf8IsModelledNotMarked) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  const SoftMaxShapeInfo shape{8, 128, 8, 128};
  for (const bool update : {false, true}) {
    ExpectClean(
        RunScratch(k910, san::kAllTools, Then::kRead, [update, &shape](Ops& o) {
          SoftMaxTiling t;
          SoftMaxFlashV2TilingFunc(ge::Shape({8, 128}), 4, 4, kTmpBytes, t, update, true);
          t.splitM = t.reduceM = 6, t.reduceSize = 48, t.splitSize = 768, t.rangeM = 1;
          t.tailM = 2, t.tailSplitSize = 256, t.tailReduceSize = 16;
          if (update) {
            SoftmaxFlashV2<float, true, false, true>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512],
                                                     F(o.c)[256], F(o.d)[256], o.tmp, t, shape);
          } else {
            SoftmaxFlashV2<float, false, false, true>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512],
                                                      F(o.c), F(o.d), o.tmp, t, shape);
          }
        }).r);
  }
}

// Session 25 (bbu): half data in splits not a multiple of 8 rows likewise (FlashV2BasicScratch's
// HalfSplit in device mode; replay.SoftmaxFlashV2BasicScratchReplay.
// HalfDataSplitsNotAMultipleOf8Rows), half and float statistics, on 2201 and 2002: [8, 128] in
// one split of 6 rows (the statistics' reduceCeilValue repeats inside the tensors).
template <typename S, bool update>
void HalfRows6(Ops& o, const SoftMaxShapeInfo& shape) {
  constexpr uint32_t ls = 32 / sizeof(S);
  const auto v = [](const LocalTensor<uint8_t>& b) { return b.ReinterpretCast<S>(); };
  SoftMaxTiling t;
  SoftMaxFlashV2TilingFunc(ge::Shape({8, 128}), 2, sizeof(S), kTmpBytes, t, update, true);
  t.splitM = t.reduceM = 6, t.reduceSize = 6 * ls, t.splitSize = 768, t.rangeM = 1;
  t.tailM = 2, t.tailSplitSize = 256, t.tailReduceSize = 2 * ls;
  SoftmaxFlashV2<half, update, false, true>(H(o.a), v(o.c), v(o.d), H(o.b), H(o.c)[1024],
                                            v(o.c)[256], v(o.d)[256], o.tmp, t, shape);
}
TEST(ScratchInitcheck, SoftmaxFlashV2BasicHalfSplitsNotAMultipleOf8IsModelledNotMarked) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  const SoftMaxShapeInfo shape{8, 128, 8, 128};
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&](Ops& o) {
                  HalfRows6<half, false>(o, shape);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&](Ops& o) {
                  HalfRows6<half, true>(o, shape);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&](Ops& o) {
                  HalfRows6<float, false>(o, shape);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&](Ops& o) {
                  HalfRows6<float, true>(o, shape);
                }).r);
  }
}

// SoftmaxFlashV2 in SOFTMAX_OUTPUT_WITHOUT_BRC mode, the generic path on 2201, writes what the
// kit's M1 sequence leaves in its work buffer (softmax_flashv2_nobrc_device.h;
// replay.SoftmaxFlashV2M1WorkReplay.*): float data and half data with half statistics (both
// overloads), half data with float statistics (without update unchecked: checked mode refuses
// it), without and with update. Read after the call: clean.
constexpr SoftmaxConfig kNoBrc{true, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
template <typename T, bool update>
void NoBrcCall(Ops& o, bool reduceMax) {
  constexpr bool h = std::is_same_v<T, half>;
  const auto v = [](const LocalTensor<uint8_t>& b) { return b.ReinterpretCast<T>(); };
  SoftMaxTiling t;
  SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), sizeof(T), sizeof(T), kTmpBytes, t, update,
                           false, true);
  const uint32_t at = h ? 512 : 256;
  if (reduceMax) {
    SoftmaxFlashV2<T, update, false, false, false, kNoBrc>(v(o.a), v(o.d)[2 * at], v(o.c), v(o.d),
                                                           v(o.b), v(o.c)[2 * at], v(o.c)[at],
                                                           v(o.d)[at], o.tmp, t, kSmShape);
  } else {
    SoftmaxFlashV2<T, update, false, false, false, kNoBrc>(
        v(o.a), v(o.c), v(o.d), v(o.b), v(o.c)[2 * at], v(o.c)[at], v(o.d)[at], o.tmp, t, kSmShape);
  }
}
template <bool update>
void NoBrcHalfFloatCall(Ops& o) {
  SoftMaxTiling t;
  SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 2, 4, kTmpBytes, t, update, false, true);
  SoftmaxFlashV2<half, update, false, false, false, kNoBrc>(
      H(o.a), F(o.c), F(o.d), H(o.b), H(o.c)[1024], F(o.c)[256], F(o.d)[256], o.tmp, t, kSmShape);
}
TEST(ScratchInitcheck, SoftmaxFlashV2WithoutBrcIsModelledNotMarked) {
  for (const bool reduceMax : {false, true}) {
    SCOPED_TRACE(reduceMax ? "outReduceMax" : "");
    ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&](Ops& o) {
                  NoBrcCall<float, false>(o, reduceMax);
                }).r);
    ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&](Ops& o) {
                  NoBrcCall<float, true>(o, reduceMax);
                }).r);
    ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&](Ops& o) {
                  NoBrcCall<half, false>(o, reduceMax);
                }).r);
    ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&](Ops& o) {
                  NoBrcCall<half, true>(o, reduceMax);
                }).r);
  }
  ExpectClean(
      RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) { NoBrcHalfFloatCall<true>(o); }).r);
  lngrad::aicore::test::CheckedModeScope unchecked(false);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                NoBrcHalfFloatCall<false>(o);
              }).r);
}

// SoftmaxFlashV2 on 2002 with the generic split loop (kBasic false) or isBasicBlock, float, half
// and half with float statistics, without and with update: reading the buffer afterwards is clean.
template <bool kBasic>
void FlashV2On2002ReadsClean() {
  const char* soc = "Ascend310P1";
  for (const bool update : {false, true}) {
    SCOPED_TRACE(update ? "update" : "no update");
    ExpectClean(
        RunScratch(soc, san::kAllTools, Then::kRead, [update](Ops& o) {
          SoftMaxTiling t;
          SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 4, 4, kTmpBytes, t, update, kBasic);
          if (update) {
            SoftmaxFlashV2<float, true, false, kBasic>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512],
                                                       F(o.c)[256], F(o.d)[256], o.tmp, t,
                                                       kSmShape);
          } else {
            SoftmaxFlashV2<float, false, false, kBasic>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512],
                                                        F(o.c), F(o.d), o.tmp, t, kSmShape);
          }
        }).r);
    ExpectClean(
        RunScratch(soc, san::kAllTools, Then::kRead, [update](Ops& o) {
          SoftMaxTiling t;
          SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 2, 2, kTmpBytes, t, update, kBasic);
          if (update) {
            SoftmaxFlashV2<half, true, false, kBasic>(H(o.a), H(o.c), H(o.d), H(o.b), H(o.c)[1024],
                                                      H(o.c)[512], H(o.d)[512], o.tmp, t, kSmShape);
          } else {
            SoftmaxFlashV2<half, false, false, kBasic>(H(o.a), H(o.c), H(o.d), H(o.b), H(o.c)[1024],
                                                       H(o.c), H(o.d), o.tmp, t, kSmShape);
          }
        }).r);
    ExpectClean(
        RunScratch(soc, san::kAllTools, Then::kRead, [update](Ops& o) {
          SoftMaxTiling t;
          SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 2, 4, kTmpBytes, t, update, kBasic);
          if (update) {
            SoftmaxFlashV2<half, true, false, kBasic>(H(o.a), F(o.c), F(o.d), H(o.b), H(o.c)[1024],
                                                      F(o.c)[256], F(o.d)[256], o.tmp, t, kSmShape);
          } else {
            SoftmaxFlashV2<half, false, false, kBasic>(H(o.a), F(o.c), F(o.d), H(o.b), H(o.c)[1024],
                                                       F(o.c), F(o.d), o.tmp, t, kSmShape);
          }
        }).r);
  }
}

// SoftmaxFlashV2's generic split loop on 2002 (session 23): every split, wrapping or not, runs
// the kit's steps over the work buffer (softmax_flashv2_v200_work.h over softmax_v200_work.h
// FlashV2DeviceV200; replay.SoftMaxV200Replay.SoftmaxFlashV2*): reading it afterwards is clean,
// float, half, half with float statistics, without and with update.
TEST(ScratchInitcheck, SoftmaxFlashV2On2002IsModelledNotMarked) {
  FlashV2On2002ReadsClean<false>();
}

// SoftmaxFlashV2's isBasicBlock path on 2002 (session 24): the kit runs membase/common's
// basic-block functions there too (their 2002 branches: AlignedBrcbImpl loops, Adds of 0 for
// the Copies), which FlashV2BasicScratch writes (softmax_flashv2_paths.h;
// replay.SoftmaxFlashV2BasicScratchReplay.On2002MatchesTheKitsBufferByteForByte): reading the
// buffer afterwards is clean, float, half, half with float statistics, without and with update.
TEST(ScratchInitcheck, SoftmaxFlashV2BasicBlockOn2002IsModelledNotMarked) {
  FlashV2On2002ReadsClean<true>();
}

// The constant-shape config's generic path with config.oriSrcK rounded up to 8 = srcK (here
// {oriSrcM 1, oriSrcK 64}: not its basic block, oriSrcM not a multiple of 8) on 2201 and 2002
// (session 23): the generic loop's buffer over config.oriSrcK columns (FlashV2Scratch,
// FlashV2WorkV200; replay.SoftmaxFlashV2ScratchReplay.ConstantShapeConfigGenericPath,
// replay.SoftMaxV200Replay.SoftmaxFlashV2ConfigSplitsThatDoNotWrapWriteTheWorkBuffer).
constexpr SoftmaxConfig kFlashCfg{true, 1, 64};
TEST(ScratchInitcheck, SoftmaxFlashV2ConfigIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    for (const bool update : {false, true}) {
      SCOPED_TRACE(std::string(soc) + (update ? " update" : " no update"));
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [update](Ops& o) {
                    SoftMaxTiling t;
                    SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 4, 4, kTmpBytes, t, update);
                    if (update) {
                      SoftmaxFlashV2<float, true, false, false, false, kFlashCfg>(
                          F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512], F(o.c)[256], F(o.d)[256],
                          o.tmp, t, kSmShape);
                    } else {
                      SoftmaxFlashV2<float, false, false, false, false, kFlashCfg>(
                          F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512], F(o.c), F(o.d), o.tmp, t,
                          kSmShape);
                    }
                  }).r);
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [update](Ops& o) {
                    SoftMaxTiling t;
                    SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), 2, 4, kTmpBytes, t, update);
                    if (update) {
                      SoftmaxFlashV2<half, true, false, false, false, kFlashCfg>(
                          H(o.a), F(o.c), F(o.d), H(o.b), H(o.c)[1024], F(o.c)[256], F(o.d)[256],
                          o.tmp, t, kSmShape);
                    } else {
                      SoftmaxFlashV2<half, false, false, false, false, kFlashCfg>(
                          H(o.a), F(o.c), F(o.d), H(o.b), H(o.c)[1024], F(o.c), F(o.d), o.tmp, t,
                          kSmShape);
                    }
                  }).r);
    }
  }
}

}  // namespace
