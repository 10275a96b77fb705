// The pipeline sanitizer (lngrad_aicore/sanitizer.h): for each rule a kernel that breaks it and
// its corrected twin. The broken kernels are the device's failure modes (docs/ascendc_compat.md,
// "The pipeline sanitizer"); each finding must name both accesses' lines and the fix.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "san_test_util.h"

namespace {

using lngrad::aicore::BlockFailure;
namespace san = lngrad::aicore::san;
using namespace lngrad::aicore::san_test;

constexpr uint32_t kN = 256;  // floats per tile (1 KiB)

Result Launch(uint32_t blocks, const std::function<void()>& kernel, uint32_t tools = san::kAllTools,
              bool auto_sync = true) {
  return LaunchSanitized({.blocks = blocks, .tools = tools, .auto_sync = auto_sync}, kernel);
}

std::string L(int line) { return "sanitizer_test.cpp:" + std::to_string(line); }

// Fills a UB tensor on V, so that its later uses are initialised.
void Fill(const AscendC::LocalTensor<float>& t, float v) { AscendC::Duplicate(t, v, kN); }

// --- The vendor's counter-example 1: static tensors, no MTE2 -> V flag. ------------------------

void StaticAdd(float* x, float* y, float* z, bool synced, int* copy_line, int* add_line) {
  AscendC::GlobalTensor<float> xg, yg, zg;
  xg.SetGlobalBuffer(x, kN);
  yg.SetGlobalBuffer(y, kN);
  zg.SetGlobalBuffer(z, kN);
  AscendC::LocalTensor<float> xl(AscendC::TPosition::VECCALC, 0, kN);
  AscendC::LocalTensor<float> yl(AscendC::TPosition::VECCALC, 1024, kN);
  AscendC::LocalTensor<float> zl(AscendC::TPosition::VECCALC, 2048, kN);
  AscendC::DataCopy(xl, xg, kN);
  *copy_line = __LINE__ - 1;
  AscendC::DataCopy(yl, yg, kN);
  if (synced) {
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  }
  AscendC::Add(zl, xl, yl, kN);
  *add_line = __LINE__ - 1;
  if (synced) {
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  }
  AscendC::DataCopy(zg, zl, kN);
}

TEST(Racecheck, StaticTensorsWithoutMte2VFlag) {
  Gm x(kN), y(kN), z(kN);
  int copy_line = 0, add_line = 0;
  const Result r = Launch(1, [&] { StaticAdd(x.p, y.p, z.p, false, &copy_line, &add_line); });
  EXPECT_FALSE(r.status.ok());
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const BlockFailure& f = r.failures[0];
  EXPECT_EQ(f.check, "racecheck");
  const std::string& m = f.message;
  EXPECT_NE(m.find("read-after-write hazard on UB bytes [0, 1024)"), std::string::npos) << m;
  EXPECT_NE(m.find("MTE2 DataCopy(GM->UB) at " + L(copy_line)), std::string::npos) << m;
  EXPECT_NE(m.find("V Add at " + L(add_line)), std::string::npos) << m;
  EXPECT_NE(m.find("insert SetFlag<HardEvent::MTE2_V>(id) after line " + std::to_string(copy_line) +
                   " and WaitFlag<HardEvent::MTE2_V>(id) before line " + std::to_string(add_line)),
            std::string::npos)
      << m;
  // The Add's result goes out with no V -> MTE3 flag either.
  EXPECT_NE(m.find("HardEvent::V_MTE3"), std::string::npos) << m;
  // The launch's failure is a KernelCheckError naming the tool.
  try {
    std::rethrow_exception(f.error);
  } catch (const lngrad::aicore::KernelCheckError& e) {
    EXPECT_EQ(e.check(), "racecheck");
    EXPECT_EQ(e.block_idx(), 0);
  }
}

TEST(Racecheck, StaticTensorsWithFlagsAreClean) {
  Gm x(kN), y(kN), z(kN);
  int a = 0, b = 0;
  ExpectClean(Launch(1, [&] { StaticAdd(x.p, y.p, z.p, true, &a, &b); }));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(z.p[i], 2.0f * static_cast<float>(i % 17));
}

// --- The vendor's counter-example 2: an input used without its DeQue. --------------------------
// On the device y's EnQue is a SetFlag<MTE2_V>, which fires once every earlier MTE2 instruction is
// complete, so x's copy is ordered by y's DeQue when it comes before y's EnQue (the counter-example
// as the vendor prints it; queue_sync_test.cpp). Here x is copied after y's EnQue: nothing orders
// that copy before the Add unless x is dequeued. The kernel is san_test_util.h's QueueAdd.

TEST(Racecheck, InputUsedWithoutItsDeQue) {
  Gm x(kN), y(kN), z(kN);
  int add_line = 0;
  const Result r = Launch(1, [&] { QueueAdd(x.p, y.p, z.p, kN, {}, &add_line); });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string& m = r.failures[0].message;
  EXPECT_EQ(r.failures[0].check, "racecheck");
  EXPECT_NE(m.find("V Add at san_test_util.h:" + std::to_string(add_line)), std::string::npos) << m;
  EXPECT_NE(m.find("or EnQue the tensor after line"), std::string::npos) << m;
  // Exactly one hazard: x; y was dequeued and the output goes through its queue.
  EXPECT_NE(m.find("1 sanitizer finding(s)"), std::string::npos) << m;
}

TEST(Racecheck, InputWithItsDeQueIsClean) {
  Gm x(kN), y(kN), z(kN);
  ExpectClean(Launch(1, [&] { QueueAdd(x.p, y.p, z.p, kN, {.dequeue_x_before_add = true}); }));
}

// --- A VECCALC TBuf filled by DataCopy and read by a vector instruction. -----------------------

void TBufKernel(float* x, float* z, bool synced) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outZ;
  pipe.InitBuffer(buf, kN * sizeof(float));
  pipe.InitBuffer(outZ, 1, kN * sizeof(float));
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer(x, kN);
  zg.SetGlobalBuffer(z, kN);
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::DataCopy(t, xg, kN);
  if (synced) {
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
  }
  AscendC::LocalTensor<float> zl = outZ.AllocTensor<float>();
  AscendC::Muls(zl, t, 2.0f, kN);
  outZ.EnQue(zl);
  zl = outZ.DeQue<float>();
  AscendC::DataCopy(zg, zl, kN);
  outZ.FreeTensor(zl);
}

TEST(Racecheck, TBufWithoutFlag) {
  Gm x(kN), z(kN);
  const Result r = Launch(1, [&] { TBufKernel(x.p, z.p, false); });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_NE(r.failures[0].message.find("MTE2_V"), std::string::npos) << r.AllText();
  EXPECT_NE(r.failures[0].message.find("V Muls"), std::string::npos) << r.AllText();
}

TEST(Racecheck, TBufWithFlagIsClean) {
  Gm x(kN), z(kN);
  ExpectClean(Launch(1, [&] { TBufKernel(x.p, z.p, true); }));
}

// --- A scalar read right after a DataCopy, with and without cce-auto-sync. ---------------------

void ScalarAfterCopy(float* x, float* out, bool flag, int* copy_line, int* get_line) {
  AscendC::GlobalTensor<float> xg, og;
  xg.SetGlobalBuffer(x, kN);
  og.SetGlobalBuffer(out, kN);
  AscendC::LocalTensor<float> t(AscendC::TPosition::VECIN, 0, kN);
  AscendC::DataCopy(t, xg, kN);
  *copy_line = __LINE__ - 1;
  if (flag) {
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
  }
  const float v = t.GetValue(3);
  *get_line = __LINE__ - 1;
  out[0] = v;  // host-side result check only (plain pointer: not a kernel access)
}

TEST(Racecheck, GetValueAfterDataCopyWithAutoSyncOff) {
  Gm x(kN), out(kN);
  int c = 0, g = 0;
  const Result r = Launch(
      1, [&] { ScalarAfterCopy(x.p, out.p, false, &c, &g); }, san::kAllTools, false);
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string& m = r.failures[0].message;
  EXPECT_NE(m.find("UB bytes [12, 16)"), std::string::npos) << m;
  EXPECT_NE(m.find("S LocalTensor::GetValue at " + L(g)), std::string::npos) << m;
  EXPECT_NE(m.find("SetFlag<HardEvent::MTE2_S>(id) after line " + std::to_string(c)),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("--cce-auto-sync=off"), std::string::npos) << m;
}

TEST(Racecheck, GetValueAfterDataCopyIsCleanWithAutoSyncOrAFlag) {
  Gm x(kN), out(kN);
  int c = 0, g = 0;
  ExpectClean(Launch(1, [&] { ScalarAfterCopy(x.p, out.p, false, &c, &g); }));
  ExpectClean(Launch(
      1, [&] { ScalarAfterCopy(x.p, out.p, true, &c, &g); }, san::kAllTools, false));
  EXPECT_EQ(out.p[0], 3.0f);
}

// cce-auto-sync's list has GlobalTensor::GetValue and operator(), not SetValue.
TEST(Racecheck, GlobalSetValueIsNotAutoSynced) {
  Gm z(kN);
  const Result r = Launch(1, [&] {
    AscendC::GlobalTensor<float> zg;
    zg.SetGlobalBuffer(z.p, kN);
    AscendC::LocalTensor<float> t(AscendC::TPosition::VECOUT, 0, kN);
    Fill(t, 1.0f);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zg, t, kN);
    zg.SetValue(5, 7.0f);
  });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_NE(r.failures[0].message.find("write-after-write hazard on GM bytes"), std::string::npos)
      << r.AllText();
  EXPECT_NE(r.failures[0].message.find("cce-auto-sync does not order this scalar access"),
            std::string::npos)
      << r.AllText();
}

// --- Overlapping MTE3 copies need a barrier. ----------------------------------------------------

void OverlappingCopyOut(float* z, bool barrier) {
  AscendC::GlobalTensor<float> zg;
  zg.SetGlobalBuffer(z, 2 * kN);
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECOUT, 0, kN);
  AscendC::LocalTensor<float> b(AscendC::TPosition::VECOUT, 1024, kN);
  Fill(a, 1.0f);
  Fill(b, 2.0f);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(zg, a, kN);
  if (barrier) AscendC::PipeBarrier<PIPE_MTE3>();
  AscendC::DataCopy(zg[kN / 2], b, kN);
}

TEST(Racecheck, OverlappingMte3WritesWithoutBarrier) {
  Gm z(2 * kN);
  const Result r = Launch(1, [&] { OverlappingCopyOut(z.p, false); });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string& m = r.failures[0].message;
  EXPECT_NE(m.find("write-after-write hazard on GM bytes"), std::string::npos) << m;
  EXPECT_NE(m.find("insert PipeBarrier<PIPE_MTE3>() between line"), std::string::npos) << m;
}

TEST(Racecheck, OverlappingMte3WritesWithBarrierAreClean) {
  Gm z(2 * kN);
  ExpectClean(Launch(1, [&] { OverlappingCopyOut(z.p, true); }));
  EXPECT_EQ(z.p[kN / 2], 2.0f);
  EXPECT_EQ(z.p[0], 1.0f);
}

// --- Write-only races: repeated copies into one UB buffer (the kit's data_copy samples). --------
// Three unordered MTE2 copies into one TBuf race on the device, but when nothing reads the bytes
// no result depends on their order: a warning on stderr, not a failure. Once something reads
// them (here V after an MTE2_V flag), the value it sees depends on the order: a finding.

void RepeatedCopyIn(float* x, float* z, bool read_after, int* first_line) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf, out;
  pipe.InitBuffer(buf, kN * sizeof(float));
  pipe.InitBuffer(out, kN * sizeof(float));
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer(x, 3 * kN);
  zg.SetGlobalBuffer(z, kN);
  AscendC::LocalTensor<float> t = buf.Get<float>();
  *first_line = __LINE__ + 1;
  for (int i = 0; i < 3; ++i) AscendC::DataCopy(t, xg[i * kN], kN);
  if (!read_after) return;
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::LocalTensor<float> o = out.Get<float>();
  AscendC::Muls(o, t, 2.0f, kN);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(zg, o, kN);
}

TEST(Racecheck, WriteOnlyRaceIsAWarning) {
  Gm x(3 * kN), z(kN);
  int line = 0;
  testing::internal::CaptureStderr();
  const Result r = Launch(1, [&] { RepeatedCopyIn(x.p, z.p, false, &line); });
  const std::string err = testing::internal::GetCapturedStderr();
  ExpectClean(r);
  EXPECT_NE(err.find("[racecheck warning] write-only race"), std::string::npos) << err;
  EXPECT_NE(err.find("write-after-write hazard on UB bytes [0, 1024): MTE2 DataCopy(GM->UB) at " +
                     L(line)),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("PipeBarrier<PIPE_MTE2>()"), std::string::npos) << err;
}

TEST(Racecheck, WriteOnlyRaceThenReadIsAFinding) {
  Gm x(3 * kN), z(kN);
  int line = 0;
  testing::internal::CaptureStderr();
  const Result r = Launch(1, [&] { RepeatedCopyIn(x.p, z.p, true, &line); });
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "racecheck");
  EXPECT_NE(r.failures[0].message.find("write-after-write hazard on UB bytes [0, 1024)"),
            std::string::npos)
      << r.AllText();
  EXPECT_EQ(err.find("warning"), std::string::npos) << err;
}

// TPipe::Destroy ends with PipeBarrier<PIPE_ALL> (the vendor's): the kit's tpipe_reuse sample
// runs a second pipe's copy-out to the same GM after destroying the first.
void CopyOutWith(AscendC::TPipe& pipe, AscendC::GlobalTensor<float>& zg, float v) {
  AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
  pipe.InitBuffer(buf, kN * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  Fill(t, v);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(zg, t, kN);
}

void CopyOutTwicePipes(float* z, bool destroy) {
  AscendC::GlobalTensor<float> zg;
  zg.SetGlobalBuffer(z, 2 * kN);
  AscendC::TPipe pipe1;
  CopyOutWith(pipe1, zg, 1.0f);
  if (destroy) pipe1.Destroy();
  AscendC::TPipe pipe2;  // pipe1 is still alive: only Destroy orders the copies
  CopyOutWith(pipe2, zg, 2.0f);
}

TEST(Racecheck, TPipeDestroyIsAPipeBarrier) {
  Gm z(2 * kN);
  const Result racy = Launch(1, [&] { CopyOutTwicePipes(z.p, false); });
  ASSERT_FALSE(racy.failures.empty());
  EXPECT_NE(racy.AllText().find("write-after-write hazard on GM"), std::string::npos)
      << racy.AllText();
  ExpectClean(Launch(1, [&] { CopyOutTwicePipes(z.p, true); }));
  EXPECT_EQ(z.p[0], 2.0f);
}

// GM order through the queues is transitive: an MTE3 write of z, MTE3_MTE2, x copied in and
// DeQue'd by V, the result EnQue'd to MTE3 and copied over z (the kit's fill sample). Without
// the MTE3_MTE2 flag nothing orders the two writes of z.
void RewriteThroughQueues(float* x, float* z, bool flag) {
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer(x, kN);
  zg.SetGlobalBuffer(z, kN);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECOUT> first;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> in;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> out;
  pipe.InitBuffer(first, kN * sizeof(float));
  pipe.InitBuffer(in, 1, kN * sizeof(float));
  pipe.InitBuffer(out, 1, kN * sizeof(float));
  AscendC::LocalTensor<float> f = first.Get<float>();
  Fill(f, 0.0f);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(zg, f, kN);
  if (flag) {
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  AscendC::LocalTensor<float> a = in.AllocTensor<float>();
  AscendC::DataCopy(a, xg, kN);
  in.EnQue(a);
  a = in.DeQue<float>();
  AscendC::LocalTensor<float> b = out.AllocTensor<float>();
  AscendC::Adds(b, a, 1.0f, kN);
  out.EnQue(b);
  in.FreeTensor(a);
  b = out.DeQue<float>();
  AscendC::DataCopy(zg, b, kN);
  out.FreeTensor(b);
}

TEST(Racecheck, GmOrderThroughQueuesIsTransitive) {
  Gm x(kN), z(kN);
  const Result racy = Launch(1, [&] { RewriteThroughQueues(x.p, z.p, false); });
  ASSERT_FALSE(racy.failures.empty());
  EXPECT_NE(racy.AllText().find("write-after-write hazard on GM"), std::string::npos)
      << racy.AllText();
  ExpectClean(Launch(1, [&] { RewriteThroughQueues(x.p, z.p, true); }));
}

// --- A double-buffered loop that frees a buffer before its copy-out (WAR). ---------------------

void DoubleBuffered(float* z, bool free_after_copy) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> outZ;
  pipe.InitBuffer(outZ, 2, kN * sizeof(float));
  AscendC::GlobalTensor<float> zg;
  zg.SetGlobalBuffer(z, 4 * kN);
  for (int i = 0; i < 4; ++i) {
    AscendC::LocalTensor<float> zl = outZ.AllocTensor<float>();
    AscendC::Duplicate(zl, static_cast<float>(i), kN);
    outZ.EnQue(zl);
    zl = outZ.DeQue<float>();
    if (!free_after_copy) outZ.FreeTensor(zl);
    AscendC::DataCopy(zg[i * kN], zl, kN);
    if (free_after_copy) outZ.FreeTensor(zl);
  }
}

TEST(Racecheck, BufferReallocatedBeforeItsCopyOut) {
  Gm z(4 * kN);
  const Result r = Launch(1, [&] { DoubleBuffered(z.p, false); });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string& m = r.failures[0].message;
  EXPECT_NE(m.find("write-after-read hazard on UB bytes"), std::string::npos) << m;
  EXPECT_NE(m.find("MTE3 DataCopy(UB->GM)"), std::string::npos) << m;
  EXPECT_NE(m.find("V Duplicate"), std::string::npos) << m;
  EXPECT_NE(m.find("FreeTensor the buffer only after line"), std::string::npos) << m;
}

TEST(Racecheck, BufferFreedAfterItsCopyOutIsClean) {
  Gm z(4 * kN);
  ExpectClean(Launch(1, [&] { DoubleBuffered(z.p, true); }));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(z.p[i * kN + 7], static_cast<float>(i));
}

// --- Two blocks writing one GM range. ----------------------------------------------------------

void BlockWrite(float* z, bool own_range) {
  AscendC::GlobalTensor<float> zg;
  zg.SetGlobalBuffer(z, 2 * kN);
  AscendC::LocalTensor<float> t(AscendC::TPosition::VECOUT, 0, kN);
  Fill(t, static_cast<float>(AscendC::GetBlockIdx()));
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(zg[own_range ? AscendC::GetBlockIdx() * kN : 0], t, kN);
}

TEST(Racecheck, TwoBlocksWriteOneGmRange) {
  Gm z(2 * kN);
  const Result r = Launch(2, [&] { BlockWrite(z.p, false); });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].block_idx, 0);
  const std::string& m = r.failures[0].message;
  EXPECT_NE(m.find("cross-block hazard on GM: block 0"), std::string::npos) << m;
  EXPECT_NE(m.find("and block 1"), std::string::npos) << m;
  EXPECT_NE(m.find("the same 1024 bytes"), std::string::npos) << m;
}

// Every block computing the whole tensor and writing the same bytes (as the development kit's
// layernorm samples do) has no effect that depends on the order: not reported.
TEST(Racecheck, TwoBlocksWritingTheSameBytesAreClean) {
  Gm z(2 * kN);
  ExpectClean(Launch(2, [&] {
    AscendC::GlobalTensor<float> zg;
    zg.SetGlobalBuffer(z.p, kN);
    AscendC::LocalTensor<float> t(AscendC::TPosition::VECOUT, 0, kN);
    Fill(t, 5.0f);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zg, t, kN);
  }));
}

TEST(Racecheck, TwoBlocksWithTheirOwnRangesAreClean) {
  Gm z(2 * kN);
  ExpectClean(Launch(2, [&] { BlockWrite(z.p, true); }));
  EXPECT_EQ(z.p[kN + 3], 1.0f);
}

// Block 1 reads what block 0 wrote: a race unless SyncAll orders them.
void WriteThenReadOther(float* z, bool sync_all) {
  AscendC::GlobalTensor<float> zg;
  zg.SetGlobalBuffer(z, 2 * kN);
  AscendC::LocalTensor<float> t(AscendC::TPosition::VECOUT, 0, kN);
  Fill(t, static_cast<float>(AscendC::GetBlockIdx() + 1));
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(zg[AscendC::GetBlockIdx() * kN], t, kN);
  if (sync_all) AscendC::SyncAll<true>();
  AscendC::LocalTensor<float> u(AscendC::TPosition::VECIN, 1024, kN);
  // The copy-in reuses nothing the copy-out read: no intra-block order is needed.
  AscendC::DataCopy(u, zg[(1 - AscendC::GetBlockIdx()) * kN], kN);
}

TEST(Racecheck, ReadingAnotherBlocksOutputNeedsSyncAll) {
  Gm z(2 * kN);
  const Result r = Launch(2, [&] { WriteThenReadOther(z.p, false); });
  ASSERT_FALSE(r.failures.empty()) << r.AllText();
  EXPECT_NE(r.AllText().find("cross-block hazard on GM: block 0"), std::string::npos)
      << r.AllText();
  EXPECT_NE(r.AllText().find("order them with SyncAll"), std::string::npos) << r.AllText();
}

TEST(Racecheck, SyncAllOrdersTheBlocks) {
  Gm z(2 * kN);
  ExpectClean(Launch(2, [&] { WriteThenReadOther(z.p, true); }));
}

// SyncAll begins with PipeBarrier<PIPE_ALL> (both vendor implementations): the vector write of
// a tile its copy-out still read before SyncAll is ordered (the kit's sync_all sample does that).
void OverwriteAfter(float* z, bool sync_all) {
  AscendC::GlobalTensor<float> zg;
  zg.SetGlobalBuffer(z, 2 * kN);
  AscendC::LocalTensor<float> t(AscendC::TPosition::VECOUT, 0, kN);
  Fill(t, 1.0f);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(zg[AscendC::GetBlockIdx() * kN], t, kN);
  if (sync_all) AscendC::SyncAll<true>();
  AscendC::Adds(t, t, 1.0f, kN);
}

TEST(Racecheck, SyncAllIsAPipeBarrierToo) {
  Gm z(2 * kN);
  const Result racy = Launch(1, [&] { OverwriteAfter(z.p, false); });
  ASSERT_FALSE(racy.failures.empty());
  EXPECT_NE(racy.AllText().find("write-after-read"), std::string::npos) << racy.AllText();
  ExpectClean(Launch(2, [&] { OverwriteAfter(z.p, true); }));
}

// --- initcheck: an uninitialised TBuf read, and device memory nothing wrote. -------------------

void UninitTBuf(float* z, bool init) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kN * sizeof(float));
  AscendC::TBuf<AscendC::TPosition::VECCALC> out;
  pipe.InitBuffer(out, kN * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::LocalTensor<float> o = out.Get<float>();
  if (init) Fill(t, 0.5f);
  AscendC::Adds(o, t, 1.0f, kN);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::GlobalTensor<float> zg;
  zg.SetGlobalBuffer(z, kN);
  AscendC::DataCopy(zg, o, kN);
}

TEST(Initcheck, UninitialisedTBufRead) {
  Gm z(kN);
  const Result r = Launch(1, [&] { UninitTBuf(z.p, false); });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "initcheck");
  EXPECT_NE(r.failures[0].message.find("read of uninitialised UB: V Adds"), std::string::npos)
      << r.AllText();
  EXPECT_NE(r.failures[0].message.find("UB bytes [0, 1024)"), std::string::npos) << r.AllText();
}

TEST(Initcheck, InitialisedTBufIsClean) {
  Gm z(kN);
  ExpectClean(Launch(1, [&] { UninitTBuf(z.p, true); }));
  EXPECT_EQ(z.p[9], 1.5f);
}

// Only the tools asked for run.
TEST(Initcheck, OffWhenNotAsked) {
  Gm z(kN);
  ExpectClean(Launch(
      1, [&] { UninitTBuf(z.p, false); }, san::kRacecheck | san::kSynccheck));
}

// Device memory nobody wrote: a copy into UB carries "unwritten" with the bytes (the device
// copies whatever they hold), and initcheck reports the instruction that reads them.
TEST(Initcheck, DeviceMemoryNobodyWrote) {
  float* dev = static_cast<float*>(AscendC::GmAlloc(kN * sizeof(float)));
  san::GmMarkUninitialised(dev, kN * sizeof(float));
  san::GmMarkWritten(dev, 16 * sizeof(float));  // a host copy of the first 16 floats
  int line = 0;
  auto kernel = [&](uint32_t used) {
    return [&, used] {
      AscendC::GlobalTensor<float> g;
      g.SetGlobalBuffer(dev, kN);
      AscendC::LocalTensor<float> t(AscendC::TPosition::VECIN, 0, kN);
      AscendC::DataCopy(t, g, kN);
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      if (used != 0) AscendC::Adds(t, t, 1.0f, used);
      line = __LINE__ - 1;
    };
  };
  const Result r = Launch(1, kernel(kN));
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "initcheck");
  const std::string& m = r.failures[0].message;
  EXPECT_NE(m.find("read of uninitialised UB: V Adds at " + L(line) + " reads UB bytes [64, 1024)"),
            std::string::npos)
      << r.AllText();
  EXPECT_NE(m.find("came from aclrtMalloc"), std::string::npos) << r.AllText();
  // The copy alone, and a use of the written bytes only, are what the device runs correctly.
  ExpectClean(Launch(1, kernel(0)));
  ExpectClean(Launch(1, kernel(16)));
  // A write into UB after the copy initialises the bytes again.
  ExpectClean(Launch(1, [&] {
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(dev, kN);
    AscendC::LocalTensor<float> t(AscendC::TPosition::VECIN, 0, kN);
    AscendC::DataCopy(t, g, kN);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Duplicate(t, 2.0f, kN);
    AscendC::Adds(t, t, 1.0f, kN);
  }));
  san::GmMarkWritten(dev, kN * sizeof(float));
  ExpectClean(Launch(1, kernel(kN)));
  AscendC::GmFree(dev);
}

// A read of device memory that does not land in UB (a scalar load) is reported where it reads.
TEST(Initcheck, ScalarReadOfDeviceMemoryNobodyWrote) {
  float* dev = static_cast<float*>(AscendC::GmAlloc(kN * sizeof(float)));
  san::GmMarkUninitialised(dev, kN * sizeof(float));
  float seen = 0.0f;
  const Result r = Launch(1, [&] {
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(dev, kN);
    seen = g.GetValue(3);
  });
  (void)seen;
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "initcheck");
  EXPECT_NE(r.failures[0].message.find("reads GM bytes [0, 4) of its range"), std::string::npos)
      << r.AllText();
  san::GmMarkWritten(dev, kN * sizeof(float));
  AscendC::GmFree(dev);
}

// --- synccheck ---------------------------------------------------------------------------------

TEST(Synccheck, WaitFlagWithoutSetFlag) {
  int line = 0;
  const Result r = Launch(1, [&] {
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID2);
    line = __LINE__ - 1;
  });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "synccheck");
  const std::string& m = r.failures[0].message;
  EXPECT_NE(m.find("WaitFlag<HardEvent::MTE2_V>(2) at " + L(line) + " has no SetFlag"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("waits forever"), std::string::npos) << m;
}

TEST(Synccheck, SetFlagLeftSet) {
  int line = 0;
  const Result r = Launch(1, [&] {
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
    line = __LINE__ - 1;
  });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "synccheck");
  EXPECT_NE(r.failures[0].message.find("SetFlag<HardEvent::V_MTE3>(3) at " + L(line) +
                                       " is still set when the kernel ends"),
            std::string::npos)
      << r.AllText();
}

TEST(Synccheck, PairedFlagsAreClean) {
  ExpectClean(Launch(1, [&] {
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
    AscendC::TQueSync<PIPE_S, PIPE_MTE3> sync;
    sync.SetFlag(0);
    sync.WaitFlag(0);
  }));
}

TEST(Synccheck, EventIdOutOfRange) {
  const Result r = Launch(1, [&] {
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(8);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(8);
  });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_NE(r.failures[0].message.find("event ID 8 is out of range; the IDs are 0-7"),
            std::string::npos)
      << r.AllText();
}

TEST(Synccheck, AllocEventIdNeverReleased) {
  const Result r = Launch(1, [&] {
    AscendC::TPipe pipe;
    const auto id = pipe.AllocEventID<AscendC::HardEvent::MTE2_V>();
    EXPECT_EQ(id, 0);
    EXPECT_EQ(pipe.FetchEventID(AscendC::HardEvent::MTE2_V), 1);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id);
  });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_NE(r.failures[0].message.find("handed out event ID 0, which is never released"),
            std::string::npos)
      << r.AllText();
}

TEST(Synccheck, ReleasedAndFetchedEventIdsAreClean) {
  ExpectClean(Launch(1, [&] {
    AscendC::TPipe pipe;
    const auto id = pipe.AllocEventID<AscendC::HardEvent::MTE2_V>();
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id);
    pipe.ReleaseEventID<AscendC::HardEvent::MTE2_V>(id);
    const auto f = pipe.FetchEventID(AscendC::HardEvent::V_MTE3);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(f);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(f);
  }));
}

TEST(Synccheck, EightIdsAndThenNone) {
  const Result r = Launch(1, [&] {
    AscendC::TPipe pipe;
    for (int i = 0; i < 8; ++i) {
      EXPECT_EQ(pipe.AllocEventID<AscendC::HardEvent::V_S>(), i);
    }
    EXPECT_EQ(pipe.AllocEventID<AscendC::HardEvent::V_S>(), -1);
    for (int8_t i = 0; i < 8; ++i) pipe.ReleaseEventID<AscendC::HardEvent::V_S>(i);
  });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_NE(r.failures[0].message.find("all 8 event IDs of this event are taken"),
            std::string::npos)
      << r.AllText();
}

// --- The tools' names. -------------------------------------------------------------------------

TEST(Tools, Parse) {
  uint32_t t = 0;
  std::string error;
  ASSERT_TRUE(san::ParseTools("racecheck,synccheck", &t, &error));
  EXPECT_EQ(t, san::kRacecheck | san::kSynccheck);
  ASSERT_TRUE(san::ParseTools("all", &t, &error));
  EXPECT_EQ(t, san::kAllTools);
  ASSERT_TRUE(san::ParseTools("none", &t, &error));
  EXPECT_EQ(t, 0u);
  EXPECT_FALSE(san::ParseTools("racecheck,memcheck", &t, &error));
  EXPECT_NE(error.find("unknown sanitizer tool 'memcheck'"), std::string::npos) << error;
  EXPECT_EQ(san::ToolsText(san::kInitcheck | san::kRacecheck), "racecheck,initcheck");
}

}  // namespace
