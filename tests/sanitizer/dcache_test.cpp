// The data cache's hand-over between blocks (san::DcacheStore and its neighbours): block 0
// copies a tile to GM, then writes a flag with GlobalTensor::SetValue and writes it back with
// DataCacheCleanAndInvalid; block 1 polls the flag (DataCacheCleanAndInvalid, then GetValue)
// and copies the tile in once it sees the flag (the kit's gm_by_dcache). Ordered as the vendor
// documents it, the hand-over is clean; every way of breaking it is still a cross-block hazard.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

#include "kernel_operator.h"
#include "san_test_util.h"

namespace {

using namespace lngrad::aicore::san_test;
using AscendC::CacheLine;
using AscendC::DcciDst;

constexpr uint32_t kN = 256;  // floats per tile (1 KiB)

enum class Mode {
  kOrdered,          // store, clean; invalidate, load that sees it, then read
  kEntireCache,      // the same with ENTIRE_DATA_CACHE and the prototype without dcciDst
  kNoClean,          // the flag is never written back
  kUbClean,          // written back with CACHELINE_UB, which keeps the cache coherent with UB
  kNoInvalidate,     // the consumer polls its cached copy
  kReadFirst,        // the consumer reads the tile before it sees the flag
  kWriteAfterClean,  // the producer writes the tile after the clean
};

// Block 0 hands the tile at gm over to block 1 through the flag at gm + kN (0 before).
void Handover(float* gm, Mode mode) {
  AscendC::GlobalTensor<float> data;
  data.SetGlobalBuffer(gm, kN);
  AscendC::GlobalTensor<int32_t> flag;
  flag.SetGlobalBuffer(reinterpret_cast<int32_t*>(gm + kN), 16);
  AscendC::LocalTensor<float> t(AscendC::TPosition::VECCALC, 0, kN);
  if (AscendC::GetBlockIdx() == 0) {
    AscendC::Duplicate(t, 3.0f, kN);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    if (mode != Mode::kWriteAfterClean) AscendC::DataCopy(data, t, kN);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
    flag.SetValue(0, 1);
    if (mode == Mode::kEntireCache) {
      AscendC::DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE>(flag);
    } else if (mode == Mode::kUbClean) {
      AscendC::DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE,
                                        DcciDst::CACHELINE_UB>(flag);
    } else if (mode != Mode::kNoClean) {
      AscendC::DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE,
                                        DcciDst::CACHELINE_OUT>(flag);
    }
    if (mode == Mode::kWriteAfterClean) AscendC::DataCopy(data, t, kN);
    return;
  }
  if (mode == Mode::kReadFirst) AscendC::DataCopy(t, data, kN);
  for (;;) {
    if (mode == Mode::kEntireCache) {
      AscendC::DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE,
                                        DcciDst::CACHELINE_ALL>(flag);
    } else if (mode != Mode::kNoInvalidate) {
      AscendC::DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE,
                                        DcciDst::CACHELINE_OUT>(flag);
    }
    if (flag.GetValue(0) == 1) break;
  }
  if (mode != Mode::kReadFirst) AscendC::DataCopy(t, data, kN);
}

Result RunHandover(Mode mode) {
  Gm gm(kN + 16);
  std::memset(gm.p + kN, 0, 16 * sizeof(float));
  return LaunchSanitized({.blocks = 2}, [&] { Handover(gm.p, mode); });
}

void ExpectHazard(const Result& r) {
  ASSERT_FALSE(r.failures.empty()) << "no finding";
  EXPECT_NE(r.AllText().find("cross-block hazard on GM: block 0"), std::string::npos)
      << r.AllText();
}

TEST(Dcache, CleanAfterTheStoreAndLoadAfterTheInvalidateOrderTheBlocks) {
  ExpectClean(RunHandover(Mode::kOrdered));
}

TEST(Dcache, WholeCacheOperationsOrderTheBlocksToo) {
  ExpectClean(RunHandover(Mode::kEntireCache));
}

TEST(Dcache, WithoutTheCleanTheBlocksRace) { ExpectHazard(RunHandover(Mode::kNoClean)); }

TEST(Dcache, ACleanTowardsUbDoesNotWriteTheFlagToGm) { ExpectHazard(RunHandover(Mode::kUbClean)); }

TEST(Dcache, PollingTheCachedCopyDoesNotAcquire) { ExpectHazard(RunHandover(Mode::kNoInvalidate)); }

TEST(Dcache, ReadingBeforeTheFlagIsSeenRaces) {
  const Result r = RunHandover(Mode::kReadFirst);
  ExpectHazard(r);
  EXPECT_NE(r.AllText().find("DataCopy(GM->UB)"), std::string::npos) << r.AllText();
}

TEST(Dcache, WritesAfterTheCleanAreNotReleased) {
  ExpectHazard(RunHandover(Mode::kWriteAfterClean));
}

// Fill on 2002 (init_global_memory_v200_impl.h) writes the elements past its last whole 32-byte
// block with GlobalTensor::SetValue (the S pipe, which cce-auto-sync does not order), the rest
// by DataCopy (MTE3). The block then reads the 250 floats back by DataCopy (MTE2): an
// MTE3_MTE2 flag orders the copies but not the scalar stores of the last 2 on 2002; a
// PipeBarrier<PIPE_ALL> orders both.
enum class FillSync { kMte3Mte2, kAll };

Result RunFillThenCopyIn(const char* soc, FillSync sync) {
  Gm gm(kN);
  return LaunchSanitized({.soc = soc}, [&] {
    AscendC::GlobalTensor<float> data;
    data.SetGlobalBuffer(gm.p, kN);
    AscendC::Fill(data, 250, 2.5f);
    if (sync == FillSync::kAll) {
      AscendC::PipeBarrier<PIPE_ALL>();
    } else {
      AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    AscendC::LocalTensor<float> t(AscendC::TPosition::VECCALC, 0, kN);
    AscendC::DataCopy(t, data, kN);
  });
}

TEST(Dcache, FillOn2002WritesItsTailByScalarStores) {
  ExpectClean(RunFillThenCopyIn("Ascend910B1", FillSync::kMte3Mte2));  // 2201: DataCopy only
  const Result r = RunFillThenCopyIn("Ascend310P1", FillSync::kMte3Mte2);
  ASSERT_FALSE(r.failures.empty()) << "no finding";
  EXPECT_NE(r.AllText().find("Fill"), std::string::npos) << r.AllText();
  EXPECT_NE(r.AllText().find("S"), std::string::npos) << r.AllText();
  ExpectClean(RunFillThenCopyIn("Ascend310P1", FillSync::kAll));
}

// The block's own scalar read of the tail after Fill on 2002 is clean (the S pipe in order).
TEST(Dcache, FillOn2002TailReadByTheSameBlockIsClean) {
  Gm gm(kN);
  float got = 0.0f;
  ExpectClean(LaunchSanitized({.soc = "Ascend310P1"}, [&] {
    AscendC::GlobalTensor<float> data;
    data.SetGlobalBuffer(gm.p, kN);
    AscendC::Fill(data, 250, 2.5f);
    got = data.GetValue(249);
  }));
  EXPECT_EQ(got, 2.5f);
}

}  // namespace
