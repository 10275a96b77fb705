// The pipeline sanitizer on the cube's pipes: a missing MTE2 -> MTE1, MTE1 -> M or M -> FIX flag
// is a race, found as the vector pipes' are; with every flag the kernel is clean.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"

namespace {

using AscendC::HardEvent;
using AscendC::TPosition;

struct Flags {
  bool mte2_mte1 = true;
  bool mte1_m = true;
  bool m_fix = true;
  bool unit_flag = false;  // Mmad and Fixpipe with unitFlag 3
  bool twice = false;      // a second Mmad and Fixpipe of the same L0C
  bool a_twice = false;    // A copied into A1 a second time, no barrier between (LoadData reads it)
  bool spare_twice = false;  // two copies into L1 bytes [4096, 4608) that nothing reads
};

// C [16, 16] float = A [16, 16] half x B^T [16, 16] half, static tensors, the flags of `f`.
void Kernel(half* a, half* bt, float* c, Flags f) {
  AscendC::GlobalTensor<half> ga, gb;
  AscendC::GlobalTensor<float> gc;
  ga.SetGlobalBuffer(a, 256);
  gb.SetGlobalBuffer(bt, 256);
  gc.SetGlobalBuffer(c, 256);
  AscendC::LocalTensor<half> a1(TPosition::A1, 0, 256), b1(TPosition::B1, 512, 256);
  AscendC::LocalTensor<half> a2(TPosition::A2, 0, 256), b2(TPosition::B2, 0, 256);
  AscendC::LocalTensor<float> co1(TPosition::CO1, 0, 256);
  const AscendC::Nd2NzParams nd{1, 16, 16, 0, 16, 16, 1, 0};
  AscendC::DataCopy(a1, ga, nd);
  if (f.a_twice) AscendC::DataCopy(a1, ga, nd);
  AscendC::DataCopy(b1, gb, nd);
  if (f.spare_twice) {
    AscendC::LocalTensor<half> spare(TPosition::A1, 4096, 256);
    AscendC::DataCopy(spare, ga, nd);
    AscendC::DataCopy(spare, gb, nd);
  }
  if (f.mte2_mte1) {
    AscendC::SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  }
  AscendC::LoadData2DParams ld;
  ld.repeatTimes = 1;
  AscendC::LoadData(a2, a1, ld);
  AscendC::LoadData(b2, b1, ld);
  if (f.mte1_m) {
    AscendC::SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
  }
  const uint8_t unit = f.unit_flag ? 3 : 0;
  AscendC::FixpipeParamsV220 out(16, 16, 16, 16, false);
  out.unitFlag = unit;
  for (int round = 0; round < (f.twice ? 2 : 1); ++round) {
    AscendC::Mmad(co1, a2, b2, AscendC::MmadParams(16, 16, 16, unit, false, true));
    if (f.m_fix) {
      AscendC::SetFlag<HardEvent::M_FIX>(EVENT_ID0);
      AscendC::WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    }
    AscendC::Fixpipe(gc, co1, out);
    if (f.twice && f.m_fix) {
      AscendC::SetFlag<HardEvent::FIX_M>(EVENT_ID0);
      AscendC::WaitFlag<HardEvent::FIX_M>(EVENT_ID0);
    }
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}

std::string RunCube(Flags f) {
  auto* a = static_cast<half*>(AscendC::GmAlloc(256 * sizeof(half)));
  auto* bt = static_cast<half*>(AscendC::GmAlloc(256 * sizeof(half)));
  auto* c = static_cast<float*>(AscendC::GmAlloc(256 * sizeof(float)));
  for (int i = 0; i < 256; ++i) a[i] = bt[i] = half(static_cast<float>(i % 5));
  const std::string text = lngrad::cube::test::RunOn(
      "Ascend910B1", [&] { Kernel(a, bt, c, f); }, lngrad::aicore::san::kAllTools);
  AscendC::GmFree(a);
  AscendC::GmFree(bt);
  AscendC::GmFree(c);
  return text;
}

TEST(CubeSanitizer, EveryFlagIsClean) { EXPECT_EQ(RunCube({}), ""); }

TEST(CubeSanitizer, UnitFlagsOrderMmadAndFixpipe) {
  // Mmad and Fixpipe with unitFlag 3 and no M_FIX / FIX_M flags, twice on one L0C (the kit's
  // matmul_basic_api_high_performance): the unit flags order them; without them both directions
  // race.
  EXPECT_EQ(RunCube({true, true, false, true, true}), "");
  const std::string t = RunCube({true, true, false, false, true});
  EXPECT_NE(t.find("read-after-write hazard on L0C"), std::string::npos) << t;
  EXPECT_NE(t.find("write-after-read hazard on L0C"), std::string::npos) << t;
}

TEST(CubeSanitizer, MissingMte2Mte1) {
  const std::string t = RunCube({false, true, true});
  EXPECT_NE(t.find("MTE2 DataCopy(GM->L1, Nd2NzParams)"), std::string::npos) << t;
  EXPECT_NE(t.find("HardEvent::MTE2_MTE1"), std::string::npos) << t;
}

TEST(CubeSanitizer, MissingMte1M) {
  const std::string t = RunCube({true, false, true});
  EXPECT_NE(t.find("MTE1 LoadData"), std::string::npos) << t;
  EXPECT_NE(t.find("HardEvent::MTE1_M"), std::string::npos) << t;
  EXPECT_NE(t.find("hazard on L0A bytes [0, 512)"), std::string::npos) << t;
}

// Two unordered MTE2 writes of the block's own L1 that nothing reads are a write-only race: a
// warning, as in UB; once LoadData reads the bytes it is a finding. A report names the first
// 32-byte burst of the Nd2Nz copy that raced.
TEST(CubeSanitizer, WriteOnlyRaceOfL1IsAWarning) {
  Flags f;
  f.spare_twice = true;
  testing::internal::CaptureStderr();
  const std::string t = RunCube(f);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(t, "");
  EXPECT_NE(err.find("[racecheck warning] write-only race"), std::string::npos) << err;
  EXPECT_NE(err.find("write-after-write hazard on L1 bytes [4096, 4128)"), std::string::npos)
      << err;
}

TEST(CubeSanitizer, WriteOnlyRaceOfL1ThenReadIsAFinding) {
  Flags f;
  f.a_twice = true;
  const std::string t = RunCube(f);
  EXPECT_NE(t.find("[racecheck]"), std::string::npos) << t;
  EXPECT_NE(t.find("write-after-write hazard on L1 bytes [0, 32)"), std::string::npos) << t;
}

TEST(CubeSanitizer, MissingMFix) {
  const std::string t = RunCube({true, true, false});
  EXPECT_NE(t.find("M Mmad"), std::string::npos) << t;
  EXPECT_NE(t.find("HardEvent::M_FIX"), std::string::npos) << t;
}

}  // namespace
