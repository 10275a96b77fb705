// Power's scratch on 2201/2002 (tests/sanitizer/scratch_test.cpp's harness and findings): float
// and half, and int32 where its loops end, write what the kit's rounds leave there (clean);
// int32 with an exponent whose loop does not end (INT_MIN), unchecked, leaves it marked: a read
// after the call, a copy out to GM and the stack buffer are reported, naming Power.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "kernel_operator.h"
#include "../aicore/checked_mode_scope.h"
#include "scratch_harness.h"

namespace {

using namespace AscendC;                            // NOLINT(google-build-using-namespace)
using namespace lngrad::aicore::san_test::scratch;  // NOLINT(google-build-using-namespace)

// initcheck's report names this file at the call's line.
void ExpectLoud(const char* soc, const char* api, const Call& call, Then read = Then::kRead) {
  ExpectLoudIn("scratch_power_test.cpp", soc, api, call, read);
}

// Math (2201): Power<int32_t> with the exponent INT_MIN, whose loop (power_int_impl.h's
// CommonPowerI) does not end: checked mode refuses it (power_exponent); unchecked, what the
// scratch would hold is not modelled and the call leaves it marked. (Power's scratch is
// modelled where the loops end: PowerInt32ScratchIsModelledNotMarked; the activation APIs' on
// 2201/2002 too: ActivationScratchReplay; so is Acosh's, which these tests used before:
// MathScratchInverse.)
void PowerCall(Ops& o) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  Power<int32_t>(o.a.ReinterpretCast<int32_t>(), o.b.ReinterpretCast<int32_t>(), INT32_MIN, o.tmp,
                 256);
}

TEST(ScratchInitcheck, PowerReadAfterTheCall) { ExpectLoud(k910, "Power", PowerCall); }

// A copy of the scratch out to GM reads it too.
TEST(ScratchInitcheck, PowerCopiedOut) { ExpectLoud(k910, "Power", PowerCall, Then::kCopyOut); }

// The overload without sharedTmpBuffer leaves the stack buffer: reading it (a tensor of the UB
// no TPipe buffer covers) after the call is reported too.
TEST(ScratchInitcheck, PowerStackBuffer) {
  const Outcome r = RunScratch(k910, san::kInitcheck, Then::kRead, [](Ops& o) {
    const lngrad::aicore::test::CheckedModeScope unchecked(false);
    Power<int32_t>(o.a.ReinterpretCast<int32_t>(), o.b.ReinterpretCast<int32_t>(), INT32_MIN, 256);
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::VECCALC>(stack);
    LocalTensor<half> s16 = stack.ReinterpretCast<half>();
    Adds(o.c.ReinterpretCast<half>(), s16, half(0.0f), 128);
  });
  ASSERT_EQ(r.r.failures.size(), 1u) << r.r.AllText();
  EXPECT_NE(r.r.failures[0].message.find("read of scratch Power left"), std::string::npos)
      << r.r.AllText();
}

// Math (2201): Power<int32_t> on two tensors, an exponent INT_MIN among them, unchecked (Asinh
// before its scratch was modelled, then Power<float> before its scratch was).
TEST(ScratchInitcheck, PowerTensorsReadAfterTheCall) {
  ExpectLoud(k910, "Power", [](Ops& o) {
    const lngrad::aicore::test::CheckedModeScope unchecked(false);
    Duplicate(o.c.ReinterpretCast<int32_t>(), INT32_MIN, 8);
    PipeBarrier<PIPE_V>();
    Power<int32_t>(o.a.ReinterpretCast<int32_t>(), o.b.ReinterpretCast<int32_t>(),
                   o.c.ReinterpretCast<int32_t>(), o.tmp, 256);
  });
}

// Math (2201, 2002): Power<int32_t>'s three forms write what the kit's rounds leave in the
// scratch where its loops end (PowerIntScratch, power_int_work.h; replay.MathScratchPower.
// PowerInt32*): reading it afterwards is clean.
TEST(ScratchInitcheck, PowerInt32ScratchIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Power<int32_t>(o.a.ReinterpretCast<int32_t>(), o.b.ReinterpretCast<int32_t>(),
                                 o.c.ReinterpretCast<int32_t>(), o.tmp, 256);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Power<int32_t>(o.a.ReinterpretCast<int32_t>(), o.b.ReinterpretCast<int32_t>(),
                                 int32_t{-3}, o.tmp, 256);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Power<int32_t>(o.a.ReinterpretCast<int32_t>(), int32_t{7},
                                 o.b.ReinterpretCast<int32_t>(), o.tmp, 256);
                }).r);
  }
}

// Math (2201, 2002): Power<float>'s three forms and Power<half> write what the kit's rounds leave
// in the scratch (PowerFloatScratch): reading it afterwards is clean.
TEST(ScratchInitcheck, PowerFloatScratchIsModelledNotMarked) {
  for (const char* soc : {k910, "Ascend310P1"}) {
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Power<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(),
                               o.c.ReinterpretCast<float>(), o.tmp, 256);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Power<float>(o.a.ReinterpretCast<float>(), o.b.ReinterpretCast<float>(), 3.0f,
                               o.tmp, 256);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Power<float>(o.a.ReinterpretCast<float>(), -2.0f, o.b.ReinterpretCast<float>(),
                               o.tmp, 256);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Power<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(),
                              o.c.ReinterpretCast<half>(), o.tmp, 512);
                }).r);
    ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [](Ops& o) {
                  Power<half>(o.a.ReinterpretCast<half>(), o.b.ReinterpretCast<half>(), half(2.0f),
                              o.tmp, 512);
                }).r);
  }
}

}  // namespace
