// The SoftMax family's work buffer on 2201 and 2002 (split from scratch_test.cpp, whose harness
// it shares: scratch_harness.h): the paths lngrad models read clean after the call, those it
// does not are reported by initcheck, and the family never reads the buffer itself.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "../aicore/checked_mode_scope.h"
#include "kernel_operator.h"
#include "scratch_harness.h"
#include "scratch_softmax_ops.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;                            // NOLINT(google-build-using-namespace)
using namespace lngrad::aicore::san_test::scratch;  // NOLINT(google-build-using-namespace)

// initcheck's report names this file at the call's line.
void ExpectLoud(const char* soc, const char* api, const Call& call, Then read = Then::kRead) {
  ExpectLoudIn("scratch_softmax_test.cpp", soc, api, call, read);
}

// The SoftMax family on 2201 and 2002: the kit keeps its row maxima, sums, exponentials and casts
// in the work buffer, which lngrad computes aside and does not write back
// (softmax_common.h LeaveWorkBuffer): initcheck reports a read of it after the call (SoftmaxGrad
// and SoftmaxGradFront write it, ND and NZ: SoftmaxGrad[Nz]IsModelledNotMarked below). 8 rows of
// 64 floats (halves for FlashV3): src in b, dst in a, the statistics in c and d. SoftMax<float>'s
// and SoftMax<half>'s generic loops on 2201 and 2002 write what the kit leaves (softmax_work.h,
// softmax_v200_work.h; SoftMaxIsModelledNotMarked, SoftMaxOn2002IsModelledNotMarked), as do
// isBasicBlock on 2201 and 2002 and SimpleSoftMax<half> (softmax_basic_work.h;
// SoftMaxBasicAndSimpleHalfAreModelledNotMarked), and SoftMax and SimpleSoftMax in NZ
// (softmax_nz_work.h; SoftMaxNzIsModelledNotMarked); SoftmaxFlashV2's NZ forms stay marked.
// kSmM, kSmK, SmTiling, F, H, kSmShape: scratch_softmax_ops.h.

// SoftmaxFlashV2's isBasicBlock tiling of kSmShape, without update, cut into splits of 4 rows
// (on 2002 FlashV2BasicScratch takes float data in splits of a multiple of 8 rows only: the
// buffer stays marked; half data since session 25).
SoftMaxTiling SplitsOf4(uint32_t dataBytes, uint32_t statBytes) {
  SoftMaxTiling t;
  SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), dataBytes, statBytes, kTmpBytes, t, false,
                           true);
  t.splitM = t.reduceM = 4, t.rangeM = kSmM / 4, t.tailM = 0;
  t.splitSize = 4 * kSmK, t.reduceSize = 4 * t.reduceK;
  return t;
}

TEST(ScratchInitcheck, SoftMaxFamilyReadAfterTheCall) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    // SoftmaxFlashV2's generic split loop and its basic-block path (float and, session 22, half
    // data) are modelled on 2201 (SoftmaxFlashV2IsModelledNotMarked); on 2002 the generic loop
    // (session 23, SoftmaxFlashV2On2002IsModelledNotMarked) and the basic-block path (session 24,
    // SoftmaxFlashV2BasicBlockOn2002IsModelledNotMarked), but for float splits not a multiple of
    // 8 rows (refused in checked mode, session 24: softmax_device_defect; unchecked, marked on
    // 2002; half data modelled since session 25: SoftmaxFlashV2BasicHalfSplitsNotAMultipleOf8...).
    if (std::string(soc) != k910) {
      const lngrad::aicore::test::CheckedModeScope unchecked(false);
      ExpectLoud(soc, "SoftmaxFlashV2", [](Ops& o) {
        SoftMaxTiling t = SplitsOf4(4, 4);
        SoftmaxFlashV2<float, false, false, true>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512],
                                                  F(o.c), F(o.d), o.tmp, t, kSmShape);
      });
    }
    // SoftmaxGrad / SoftmaxGradFront write their buffer, ND (isBasicBlock included) and NZ
    // (SoftmaxGradIsModelledNotMarked, SoftmaxGradNzIsModelledNotMarked); SoftmaxGradFront's
    // isBasicBlock with splitK not a multiple of 64 is still marked.
    ExpectLoud(soc, "SoftmaxGradFront", [](Ops& o) {
      const SoftMaxShapeInfo shape{kSmM, 40, kSmM, 40};
      SoftMaxTiling t;
      SoftMaxGradTilingFunc(ge::Shape({kSmM, 40}), 4, kTmpBytes, t, true);
      SoftmaxGradFront<float, true>(F(o.a), F(o.b), F(o.c), o.tmp, t, shape);
    });
  }
  // SoftmaxFlash is modelled on 2201/2002 with and without update, 2201's isBasicBlock included
  // (SoftmaxFlashIsModelledNotMarked), for tilings of SoftMaxFlashTilingFunc's form and (unchecked,
  // session 23) a reduceK of 8 or 16 other than the statistics'; a tiling whose splits need more
  // than the buffer (here made for four times it: 2 splitSize + 4 reduceSize floats past 8 KiB)
  // stays marked.
  ExpectLoud(k910, "SoftmaxFlash", [](Ops& o) {
    SoftMaxTiling t;
    SoftMaxFlashTilingFunc(ge::Shape({kSmM, 128}), 4, 4 * kTmpBytes, t, true);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    SoftmaxFlash<float>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512], F(o.c)[256], F(o.d)[256],
                        o.tmp, t, true, {kSmM, 128, kSmM, 128});
#pragma GCC diagnostic pop
  });
  // SoftmaxFlashV3 is modelled on 2201 for tilings of SoftMaxFlashV3TilingFunc's per-split form
  // (SoftmaxFlashV3IsModelledNotMarked); one not of it (here reduceK 16), refused in checked
  // mode (softmax_device_defect), stays marked unchecked.
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  ExpectLoud(k910, "SoftmaxFlashV3", [](Ops& o) {
    const SoftMaxParams p{2, 512, 2, 512, 1, 8, 0.9375f};
    SoftMaxTiling t;
    SoftMaxFlashV3TilingFunc(ge::Shape({2, 512}), 2, 4, kTmpBytes, t, false, false);
    t.reduceK = 16;
    SoftmaxFlashV3<half, float, false>(
        o.a.ReinterpretCast<half>(), F(o.c), F(o.c)[256], F(o.c)[512], o.b.ReinterpretCast<half>(),
        o.d.ReinterpretCast<half>(), F(o.c), F(o.c)[256], F(o.c)[512], o.tmp, t, p);
  });
}

// SoftmaxGrad (half and float, isFront both ways) and SoftmaxGradFront (and with isBasicBlock) on
// soc, the scratch read after the call: clean.
void SoftmaxGradReadsClean(const char* soc) {
  for (const bool front : {false, true}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [front](Ops& o) {
                  SoftMaxTiling t;
                  SoftMaxGradTilingFunc(ge::Shape({kSmM, kSmK}), 4, kTmpBytes, t, front);
                  SoftmaxGrad<float>(F(o.a), F(o.b), F(o.c), o.tmp, t, front, kSmShape);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [front](Ops& o) {
                  SoftMaxTiling t;
                  SoftMaxGradTilingFunc(ge::Shape({kSmM, kSmK}), 2, kTmpBytes, t, front);
                  SoftmaxGrad<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(),
                                    o.c.ReinterpretCast<half>(), o.tmp, t, front, kSmShape);
                }).r);
  }
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling t;
                SoftMaxGradTilingFunc(ge::Shape({kSmM, kSmK}), 4, kTmpBytes, t, true);
                SoftmaxGradFront<float>(F(o.a), F(o.b), F(o.c), o.tmp, t, kSmShape);
              }).r);
  // isBasicBlock (softmax_grad_basic_work.h; replay.SoftmaxGradFrontBasicScratchReplay.*).
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling t;
                SoftMaxGradTilingFunc(ge::Shape({kSmM, kSmK}), 4, kTmpBytes, t, true);
                SoftmaxGradFront<float, true>(F(o.a), F(o.b), F(o.c), o.tmp, t, kSmShape);
              }).r);
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling t;
                SoftMaxGradTilingFunc(ge::Shape({kSmM, kSmK}), 2, kTmpBytes, t, true);
                SoftmaxGradFront<half, true>(o.a.ReinterpretCast<half>(),
                                             o.b.ReinterpretCast<half>(),
                                             o.c.ReinterpretCast<half>(), o.tmp, t, kSmShape);
              }).r);
}

// SoftmaxGrad and SoftmaxGradFront ND (isBasicBlock too) on 2201 and 2002 write what the kit's
// sequence leaves in the work buffer (softmax_grad_work.h, softmax_grad_basic_work.h;
// replay.SoftmaxGradScratchReplay.*, replay.SoftmaxGradFrontBasicScratchReplay.*):
// reading it afterwards is clean, half and float, isFront both ways (no mark: it would report
// bytes that hold the device's values).
TEST(ScratchInitcheck, SoftmaxGradIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    SCOPED_TRACE(soc);
    SoftmaxGradReadsClean(soc);
  }
}

// SoftmaxGrad and SoftmaxGradFront in the NZ format on 2201 and 2002 write what the kit's NZ
// sequence leaves in the work buffer (softmax_grad_nz_work.h; replay.SoftmaxGradNzScratchReplay.*):
// reading it afterwards is clean, half and float, SoftmaxGrad with isFront both ways and
// SoftmaxGradFront.
TEST(ScratchInitcheck, SoftmaxGradNzIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    SCOPED_TRACE(soc);
    for (const bool front : {false, true}) {
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [front](Ops& o) {
                    SoftMaxTiling t;
                    SoftMaxGradTilingFunc(ge::Shape({kSmM, kSmK}), 4, kTmpBytes, t, front);
                    SoftmaxGrad<float, false, true>(F(o.a), F(o.b), F(o.c), o.tmp, t, front,
                                                    kSmShape);
                  }).r);
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [front](Ops& o) {
                    SoftMaxTiling t;
                    SoftMaxGradTilingFunc(ge::Shape({kSmM, kSmK}), 2, kTmpBytes, t, front);
                    SoftmaxGrad<half, false, true>(H(o.a), H(o.b), H(o.c), o.tmp, t, front,
                                                   kSmShape);
                  }).r);
    }
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SoftMaxTiling t;
                  SoftMaxGradTilingFunc(ge::Shape({kSmM, kSmK}), 4, kTmpBytes, t, true);
                  SoftmaxGradFront<float, false, true>(F(o.a), F(o.b), F(o.c), o.tmp, t, kSmShape);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SoftMaxTiling t;
                  SoftMaxGradTilingFunc(ge::Shape({kSmM, kSmK}), 2, kTmpBytes, t, true);
                  SoftmaxGradFront<half, false, true>(H(o.a), H(o.b), H(o.c), o.tmp, t, kSmShape);
                }).r);
  }
}

// SoftMax (with statistics) and SimpleSoftMax in the NZ format on 2201 and 2002 write what the
// kit's NZ sequence leaves in the work buffer (softmax_nz_work.h; replay.SoftMaxNzScratchReplay.*,
// replay.SimpleSoftMaxNzScratchReplay.*): reading it afterwards is clean, float, half and half with
// float statistics, the host tiling kept (kSmShape) and the kernel's NZ re-tile (oriSrcM < srcM
// for SoftMax, a tiling of another srcM for SimpleSoftMax).
TEST(ScratchInitcheck, SoftMaxNzIsModelledNotMarked) {
  const SoftMaxShapeInfo retile{kSmM, kSmK, 6, 50};
  for (const char* soc : {k910, "Ascend310P1"}) {
    for (const SoftMaxShapeInfo& shape : {kSmShape, retile}) {
      SCOPED_TRACE(std::string(soc) + " oriSrcM " + std::to_string(shape.oriSrcM));
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&shape](Ops& o) {
                    SoftMax<float, false, false, true>(F(o.a), F(o.c), F(o.d), F(o.b), o.tmp,
                                                       SmTiling(4), shape);
                  }).r);
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&shape](Ops& o) {
                    SoftMax<half, false, false, true>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp,
                                                      SmTiling(2), shape);
                  }).r);
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&shape](Ops& o) {
                    SoftMax<half, false, false, true>(H(o.a), F(o.c), F(o.d), H(o.b), o.tmp,
                                                      SmTiling(4), shape);
                  }).r);
    }
    SoftMaxTiling other = SmTiling(4);
    other.srcM = kSmM + 16;  // SimpleSoftMax re-tiles for srcM
    for (const SoftMaxTiling& t : {SmTiling(4), other}) {
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&t](Ops& o) {
                    SimpleSoftMax<float, false, false, true>(F(o.a), F(o.c), F(o.d), F(o.b), o.tmp,
                                                             t, kSmShape);
                  }).r);
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&t](Ops& o) {
                    SimpleSoftMax<half, false, false, true>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp,
                                                            t, kSmShape);
                  }).r);
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&t](Ops& o) {
                    SimpleSoftMax<half, false, false, true>(H(o.a), F(o.c), F(o.d), H(o.b), o.tmp,
                                                            t, kSmShape);
                  }).r);
    }
  }
}

// SoftmaxFlashV3 on 2201 writes what the kit leaves in its work buffer (softmax_flashv3_scratch.h;
// replay.SoftmaxFlashV3ScratchReplay.*), without and with update: read after the call, clean.
TEST(ScratchInitcheck, SoftmaxFlashV3IsModelledNotMarked) {
  for (const bool update : {false, true}) {
    ExpectClean(
        RunScratch(k910, san::kAllTools, Then::kRead, [update](Ops& o) {
          const SoftMaxParams p{2, 512, 2, 512, 2, 8, 0.9375f};
          SoftMaxTiling t;
          SoftMaxFlashV3TilingFunc(ge::Shape({2, 512}), 2, 4, kTmpBytes, t, update, false);
          const LocalTensor<half> dst = H(o.a), src = H(o.b), em = H(o.d);
          if (update) {
            SoftmaxFlashV3<half, float, true>(dst, F(o.c), F(o.c)[16], F(o.c)[32], src, em,
                                              F(o.c)[48], F(o.c)[64], F(o.c)[80], o.tmp, t, p);
          } else {
            SoftmaxFlashV3<half, float, false>(dst, F(o.c), F(o.c)[16], F(o.c)[32], src, em,
                                               F(o.c)[48], F(o.c)[64], F(o.c)[80], o.tmp, t, p);
          }
        }).r);
  }
}

// SoftmaxFlashV3 on 2201 with a tiling of the per-split form made for another srcM, which the
// kernel does not read (checked mode), and unchecked with splits covering fewer rows than the
// call (checked mode refuses it, softmax_device_defect) or none (rangeM and tailM 0: nothing
// written): read after the call, clean (replay.SoftmaxFlashV3ScratchReplay.
// TilingsOfOtherRowsFollowTheKit).
TEST(ScratchInitcheck, SoftmaxFlashV3OtherRowsTilingsAreModelledNotMarked) {
  for (const int form : {0, 1, 2}) {
    SCOPED_TRACE(form);
    const lngrad::aicore::test::CheckedModeScope checked(form == 0);
    ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [form](Ops& o) {
                  const SoftMaxParams p{3, 512, 3, 512, 2, 8, 0.9375f};
                  SoftMaxTiling t;
                  SoftMaxFlashV3TilingFunc(ge::Shape({form == 0 ? 3u : 2u, 512}), 2, 4, kTmpBytes,
                                           t, true, false);
                  if (form == 0) t.srcM = 11;
                  if (form == 2) t.rangeM = 0, t.tailM = 0;
                  SoftmaxFlashV3<half, float, true>(H(o.a), F(o.c), F(o.c)[32], F(o.c)[64], H(o.b),
                                                    H(o.d), F(o.c)[96], F(o.c)[128], F(o.c)[160],
                                                    o.tmp, t, p);
                }).r);
  }
}

// SoftmaxFlash on 2201 and 2002 writes what the kit's update sequence leaves in its work buffer
// (softmaxflash_work.h; replay.SoftmaxFlashScratchReplay.*): float, half (whose statistics the
// kit computes in the stack buffer it pops: the buffer passed is left as it was) and half with
// float statistics; with isBasicBlock on 2201 SoftmaxFlashBasicBlockFloat's
// (softmaxflash_basic_work.h); without update SoftMax's model (2201 softmax_work.h, 2002
// softmax_v200_work.h). Read after the call: clean.
TEST(ScratchInitcheck, SoftmaxFlashIsModelledNotMarked) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  for (const char* soc : {k910, "Ascend310P1"}) {
    SCOPED_TRACE(soc);
    for (const bool update : {false, true}) {
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [update](Ops& o) {
                    SoftMaxTiling t;
                    SoftMaxFlashTilingFunc(ge::Shape({kSmM, kSmK}), 4, kTmpBytes, t, update);
                    SoftmaxFlash<float>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512], F(o.c)[256],
                                        F(o.d)[256], o.tmp, t, update, kSmShape);
                  }).r);
      ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [update](Ops& o) {
                    SoftMaxTiling t;
                    SoftMaxFlashTilingFunc(ge::Shape({kSmM, kSmK}), 2, kTmpBytes, t, update);
                    SoftmaxFlash<half>(H(o.a), H(o.c), H(o.d), H(o.b), H(o.c)[1024], H(o.c)[512],
                                       H(o.d)[512], o.tmp, t, update, kSmShape);
                  }).r);
    }
    // isBasicBlock (2201: SoftmaxFlashBasicBlockFloat; 2002: the generic update).
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SoftMaxTiling t;
                  SoftMaxFlashTilingFunc(ge::Shape({kSmM, kSmK}), 4, kTmpBytes, t, true);
                  SoftmaxFlash<float, false, true>(F(o.a), F(o.c), F(o.d), F(o.b), F(o.c)[512],
                                                   F(o.c)[256], F(o.d)[256], o.tmp, t, true,
                                                   kSmShape);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SoftMaxTiling t;  // another shape's: the kernel re-tiles with float blocks
                  SoftMaxFlashTilingFunc(ge::Shape({1, kSmK}), 4, kTmpBytes, t, true);
                  SoftmaxFlash<half>(H(o.a), F(o.c), F(o.d), H(o.b), H(o.c)[1024], F(o.c)[256],
                                     F(o.d)[256], o.tmp, t, true, kSmShape);
                }).r);
  }
#pragma GCC diagnostic pop
}

// SoftmaxFlash's update with a tiling whose reduceK is not the statistics' 32 bytes (half data
// with float statistics and the host tiling of dataTypeSize 2: reduceK 16) runs the kit's generic
// update over the buffer in unchecked mode (softmaxflash_work.h FlashStatK; checked mode refuses
// it, softmax_device_defect; replay.SoftmaxFlashScratchReplay.
// ReduceKNotTheStatisticsBlockFollowsTheKitUnchecked), 2201 and 2002: read after the call, clean.
TEST(ScratchInitcheck, SoftmaxFlashWideReduceKIsModelledNotMarked) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  for (const char* soc : {k910, "Ascend310P1"}) {
    SCOPED_TRACE(soc);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SoftMaxTiling t;
                  SoftMaxFlashTilingFunc(ge::Shape({kSmM, kSmK}), 2, kTmpBytes, t, true);
                  SoftmaxFlash<half>(H(o.a), F(o.c), F(o.d), H(o.b), H(o.c)[1024], F(o.c)[256],
                                     F(o.d)[256], o.tmp, t, true, kSmShape);
                }).r);
  }
#pragma GCC diagnostic pop
}

// lngrad's SoftMax family never reads the work buffer: a kernel that runs SoftMax and then another
// API of the family on the same buffer (the kit's samples do) stays clean.
TEST(ScratchInitcheck, SoftMaxThenAnotherOnTheSameBufferIsClean) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(
        RunScratch(soc, san::kAllTools, Then::kWriteThenRead, [](Ops& o) {
          SoftMax<float>(F(o.a), F(o.c), F(o.d), F(o.b), o.tmp, SmTiling(4), kSmShape);
          PipeBarrier<PIPE_V>();
          SimpleSoftMax<float>(F(o.b), F(o.c), F(o.d), F(o.a), o.tmp, SmTiling(4), kSmShape);
          PipeBarrier<PIPE_V>();
          SoftmaxGradFront<float>(F(o.c)[512], F(o.a), F(o.b), o.tmp, SmTiling(4), kSmShape);
        }).r);
  }
}

// The generic loops on 2002 (softmax_v200_work.h; replay.SoftMaxV200Replay.* compares the
// buffer with the replay of membase/v200): SoftMax<float> and SoftMax<half> with and without
// statistics, LogSoftMax<float>, SimpleSoftMax<half>; reading the buffer afterwards is clean.
TEST(ScratchInitcheck, SoftMaxOn2002IsModelledNotMarked) {
  const char* soc = "Ascend310P1";
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<float>(F(o.a), F(o.c), F(o.d), F(o.b), o.tmp, SmTiling(4), kSmShape);
              }).r);
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<float>(F(o.a), F(o.b), o.tmp, SmTiling(4), kSmShape);
              }).r);
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<half>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, SmTiling(2), kSmShape);
              }).r);
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<half>(H(o.a), H(o.b), o.tmp, SmTiling(2), kSmShape);
              }).r);
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                LogSoftMaxTiling t;
                LogSoftMaxTilingFunc(ge::Shape({kSmM, kSmK}), 4, kTmpBytes, t);
                LogSoftMax<float>(F(o.a), F(o.c), F(o.d), F(o.b), o.tmp, t, kSmShape);
              }).r);
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                SimpleSoftMax<half>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, SmTiling(2), kSmShape);
              }).r);
}

// SoftMax with statistics and isBasicBlock (float; half with half or float statistics; the
// constant-shape config's basic shapes and its generic path with the tiling's parameters) and
// SimpleSoftMax with half data (generic loop and isBasicBlock, half or float statistics) on 2201:
// lngrad writes what the kit's splits leave in the work buffer (softmax_basic_work.h;
// replay.SoftMaxBasicScratchReplay.*, replay.SimpleSoftMaxHalfScratchReplay.*): no mark.
// The constant-shape config: [8, 64] passes the basic-block test (SoftMaxBasicBlock); [8, 60]
// (rounded up to srcK = 64) runs the generic loop with the tiling's parameters (softmax_work.h).
constexpr SoftmaxConfig kCfgBasic{true, kSmM, kSmK}, kCfgGeneric{true, kSmM, 60};
TEST(ScratchInitcheck, SoftMaxBasicAndSimpleHalfAreModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<float, false, false, false, kCfgBasic>(F(o.a), F(o.c), F(o.d), F(o.b),
                                                               o.tmp, SmTiling(4), kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<float, false, false, false, kCfgGeneric>(F(o.a), F(o.c), F(o.d), F(o.b),
                                                                 o.tmp, SmTiling(4), kSmShape);
              }).r);
  const SoftMaxShapeInfo wide{kSmM, 128, kSmM, 128};
  const auto tiling = [](uint32_t k, uint32_t typeSize) {
    SoftMaxTiling t;
    SoftMaxTilingFunc(ge::Shape({kSmM, k}), typeSize, kTmpBytes, t);
    return t;
  };
  for (const char* soc : {k910, "Ascend310P1"}) {  // 2002: SoftMaxBasicSeq's AlignedBrcbs
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SoftMax<float, false, true>(F(o.a), F(o.c), F(o.d), F(o.b), o.tmp, SmTiling(4),
                                              kSmShape);
                }).r);
  }
  ExpectClean(RunScratch("Ascend310P1", san::kAllTools, Then::kRead, [&](Ops& o) {
                SoftMax<half, false, true>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, tiling(128, 2),
                                           wide);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&](Ops& o) {
                SoftMax<half, false, true>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, tiling(128, 2),
                                           wide);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&](Ops& o) {
                SoftMax<half, false, true>(H(o.a), F(o.c), F(o.d), H(o.b), o.tmp, tiling(128, 4),
                                           wide);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SimpleSoftMax<half>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, SmTiling(2), kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SimpleSoftMax<half>(H(o.a), F(o.c), F(o.d), H(o.b), o.tmp, SmTiling(4), kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [&](Ops& o) {
                SimpleSoftMax<half, false, true>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp,
                                                 tiling(128, 2), wide);
              }).r);
}

// SimpleSoftMax<half> isBasicBlock with a hand-made tiling whose ceil(reduceSize / 64) passes
// SimpleSoftMaxBasicBlock's uint8_t (257: the statistics' Cast makes 1 repeat), unchecked on 2201
// and 2002: lngrad writes what the device's wrapped sequence leaves (softmax_basic_work.h
// SimpleHalfPrepare; replay.SimpleSoftMaxHalfScratchReplay.BasicBlockWrappedCounts...): no mark.
TEST(ScratchInitcheck, SimpleHalfBasicWrappedIsModelledNotMarked) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SoftMaxTiling t;
                  SoftMaxTilingFunc(ge::Shape({kSmM, 128}), 2, kTmpBytes, t);
                  t.splitM = t.reduceM = kSmM;
                  t.splitSize = kSmM * 128;
                  t.reduceSize = 16448;
                  t.rangeM = 1;
                  t.tailM = t.tailSplitSize = t.tailReduceSize = 0;
                  SimpleSoftMax<half, false, true>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, t,
                                                   {kSmM, 128, kSmM, 128});
                }).r);
  }
}

// SimpleSoftMax<half> isBasicBlock with srcK not a multiple of 64 (80), unchecked on 2201 and
// 2002 (session 25, sbw): lngrad writes what SimpleSoftMaxBasicBlock's whole chunks leave in the
// buffer (softmax_basic_work.h SimpleHalfPrepare, from simplesoftmax.h SimpleBasicRowsMembase;
// replay.SimpleSoftMaxHalfScratchReplay.BasicBlockWrappedCountsWithSrcKNotWholeChunks...), half
// and float statistics: no mark (before, the buffer was marked).
TEST(ScratchInitcheck, SimpleHalfBasicNotWholeChunksIsModelledNotMarked) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  const auto tiling = [](uint32_t typeSize) {
    SoftMaxTiling t;
    SoftMaxTilingFunc(ge::Shape({kSmM, 80}), typeSize, kTmpBytes, t);
    return t;
  };
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&](Ops& o) {
                  SimpleSoftMax<half, false, true>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp,
                                                   tiling(2));
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [&](Ops& o) {
                  SimpleSoftMax<half, false, true>(H(o.a), F(o.c), F(o.d), H(o.b), o.tmp,
                                                   tiling(4));
                }).r);
  }
}

// The constant-shape config on 2002 (SoftMax: membase/v200 does not read it; SimpleSoftMax<half>:
// its config path takes the tiling's splitK and 32-byte statistics rows), SimpleSoftMax<half>'s
// config on 2201 and its isBasicBlock on 2002 (membase/common's SimpleSoftMaxBasicBlock): lngrad
// writes the default loops' buffer (softmax_v200_work.h, softmax_basic_work.h;
// replay.SoftMaxV200Replay.ConstantShapeConfigResultsAndWork, replay.SimpleSoftMaxHalfScratch-
// Replay.{ConstantShapeConfig,BasicBlockOn2002}MatchesTheKitsBufferByteForByte): no mark.
TEST(ScratchInitcheck, SoftMaxConfigAndSimpleOn2002AreModelledNotMarked) {
  const char* v200 = "Ascend310P1";
  ExpectClean(RunScratch(v200, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<float, false, false, false, kCfgGeneric>(F(o.a), F(o.c), F(o.d), F(o.b),
                                                                 o.tmp, SmTiling(4), kSmShape);
              }).r);
  ExpectClean(RunScratch(v200, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<half, false, false, kCfgGeneric>(H(o.a), H(o.b), o.tmp, SmTiling(2),
                                                         kSmShape);
              }).r);
  for (const char* soc : {k910, v200}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SimpleSoftMax<half, false, false, false, kCfgGeneric>(
                      H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, SmTiling(2), kSmShape);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SimpleSoftMax<half, false, false, false, kCfgGeneric>(
                      H(o.a), F(o.c), F(o.d), H(o.b), o.tmp, SmTiling(4), kSmShape);
                }).r);
  }
  const SoftMaxShapeInfo wide{kSmM, 128, kSmM, 128};
  SoftMaxTiling t;
  SoftMaxTilingFunc(ge::Shape({kSmM, 128}), 2, kTmpBytes, t);
  ExpectClean(RunScratch(v200, san::kAllTools, Then::kRead, [&](Ops& o) {
                SimpleSoftMax<half, false, true>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, t, wide);
              }).r);
}

// SimpleSoftMax<half>'s config path with a tiling made for the other statistics type (reduceK 16
// with float statistics; 8 with half ones, whose rows past the split's copy the device reads from
// the buffer: unchecked, checked mode refuses it) on 2201 and 2002: lngrad writes what the kit's
// splits leave (softmax_basic_work.h SimpleHalfPrepare's cfg form; replay.SimpleSoftMaxHalf-
// ScratchReplay.ConstantShapeConfigWithAnotherReduceKMatchesTheKit): no mark.
TEST(ScratchInitcheck, SimpleSoftMaxConfigWithAnotherReduceKIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SimpleSoftMax<half, false, false, false, kCfgGeneric>(
                      H(o.a), F(o.c), F(o.d), H(o.b), o.tmp, SmTiling(2), kSmShape);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  const lngrad::aicore::test::CheckedModeScope unchecked(false);
                  SimpleSoftMax<half, false, false, false, kCfgGeneric>(
                      H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, SmTiling(4), kSmShape);
                }).r);
  }
}

// SimpleSoftMax<half>'s default config on 2002 with a tiling made for the other statistics type
// (session 23, sx2; marked before): float statistics read 8 floats a row whatever reduceK
// (SimpleSoftMaxWorkV200), half statistics (unchecked: checked mode refuses it) take
// SimpleHalfPrepare's default form (replay.SimpleSoftMaxHalfScratchReplay.GenericLoopWith-
// AnotherReduceKMatchesTheKit): no mark.
TEST(ScratchInitcheck, SimpleSoftMaxWithAnotherReduceKOn2002IsModelledNotMarked) {
  ExpectClean(RunScratch("Ascend310P1", san::kAllTools, Then::kRead, [](Ops& o) {
                SimpleSoftMax<half>(H(o.a), F(o.c), F(o.d), H(o.b), o.tmp, SmTiling(2), kSmShape);
              }).r);
  ExpectClean(RunScratch("Ascend310P1", san::kAllTools, Then::kRead, [](Ops& o) {
                const lngrad::aicore::test::CheckedModeScope unchecked(false);
                SimpleSoftMax<half>(H(o.a), H(o.c), H(o.d), H(o.b), o.tmp, SmTiling(4), kSmShape);
              }).r);
}

// SoftMax<float> and SoftMax<half> on 2201, the generic loop with and without statistics, and
// LogSoftMax<float>: lngrad writes what the kit's splits leave in the work buffer (softmax_work.h;
// softmax_scratch_replay_test compares it with the replay), so reading the buffer afterwards is
// clean: no mark.
TEST(ScratchInitcheck, SoftMaxIsModelledNotMarked) {
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<float>(F(o.a), F(o.c), F(o.d), F(o.b), o.tmp, SmTiling(4), kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<float>(F(o.a), F(o.b), o.tmp, SmTiling(4), kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                const auto h = [](const LocalTensor<uint8_t>& t) {
                  return t.ReinterpretCast<half>();
                };
                SoftMax<half>(h(o.a), h(o.c), h(o.d), h(o.b), o.tmp, SmTiling(2), kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                LogSoftMaxTiling t;
                LogSoftMaxTilingFunc(ge::Shape({kSmM, kSmK}), 4, kTmpBytes, t);
                LogSoftMax<float>(F(o.a), F(o.c), F(o.d), F(o.b), o.tmp, t, kSmShape);
              }).r);
  // SimpleSoftMax<float> in ND, 2201 and 2002: the kit's code never touches the buffer.
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  SimpleSoftMax<float>(F(o.a), F(o.c), F(o.d), F(o.b), o.tmp, SmTiling(4),
                                       kSmShape);
                }).r);
  }
}

}  // namespace
