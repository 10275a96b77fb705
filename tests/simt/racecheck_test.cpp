// Layer simt: the race checker between threads (src/simt/racecheck.h). This file is compiled
// with the instrumentation lngrad-asc --enable-simt --sanitizer adds (tests/simt/CMakeLists.txt),
// so its kernels' accesses reach the checker. Planted bugs must be found, with both threads and
// source lines; correct kernels must run clean. No EXPECT inside a kernel: gtest's own state is
// instrumented too.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "lngrad_aicore/sanitizer.h"
#include "run_simt.h"
#include "simt_api/asc_simt.h"

namespace lngrad::simt::testing {
namespace {

constexpr uint32_t kTools = aicore::san::kRacecheck | aicore::san::kInitcheck;

struct Outcome {
  bool ok = false;
  std::vector<aicore::BlockFailure> failures;
};

template <typename F>
Outcome Check(dim3 grid, dim3 block, F kernel, uint64_t dynamic_ub = 0) {
  Outcome o;
  o.ok = RunSimt(grid, block, kernel, dynamic_ub, 0, &o.failures, k950, kTools).ok();
  return o;
}

// The tree reduction of shared memory, with or without the barrier inside the loop.
void Reduce(bool barrier_in_loop, std::vector<float>& out) {
  auto& buf = BlockArray<float[256]>(BlockKey([] {}), "buf");
  const uint32_t t = threadIdx.x;
  buf[t] = static_cast<float>(t);
  asc_syncthreads();
  for (uint32_t half = 128; half > 0; half /= 2) {
    if (t < half) buf[t] += buf[t + half];
    if (barrier_in_loop) asc_syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}

TEST(SimtRacecheck, MissingBarrierInAReductionIsFound) {
  std::vector<float> out(2, 0.0f);
  const Outcome bad = Check(dim3(2), dim3(256), [&] { Reduce(false, out); });
  EXPECT_FALSE(bad.ok);
  ASSERT_FALSE(bad.failures.empty());
  const aicore::BlockFailure& f = bad.failures[0];
  EXPECT_EQ(f.check, "racecheck");
  EXPECT_NE(f.message.find("race on byte"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("thread ("), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("racecheck_test.cpp:"), std::string::npos) << f.message;

  const Outcome good = Check(dim3(2), dim3(256), [&] { Reduce(true, out); });
  EXPECT_TRUE(good.ok) << (good.failures.empty() ? "" : good.failures[0].message);
  EXPECT_EQ(out[0], 255.0f * 256.0f / 2.0f);
}

TEST(SimtRacecheck, NonAtomicHistogramIsFoundAtomicOneIsClean) {
  std::vector<uint32_t> bins(8, 0);
  const Outcome bad = Check(dim3(1), dim3(64), [&] {
    auto& local = BlockArray<uint32_t[8]>(BlockKey([] {}), "local");
    if (threadIdx.x < 8) local[threadIdx.x] = 0;
    asc_syncthreads();
    local[threadIdx.x % 8] += 1;  // the planted bug: no atomic
    asc_syncthreads();
    if (threadIdx.x < 8) bins[threadIdx.x] = local[threadIdx.x];
  });
  EXPECT_FALSE(bad.ok);
  ASSERT_FALSE(bad.failures.empty());
  EXPECT_EQ(bad.failures[0].check, "racecheck");
  EXPECT_NE(bad.failures[0].message.find("write"), std::string::npos);

  const Outcome good = Check(dim3(1), dim3(64), [&] {
    auto& local = BlockArray<uint32_t[8]>(BlockKey([] {}), "local");
    if (threadIdx.x < 8) local[threadIdx.x] = 0;
    asc_syncthreads();
    asc_atomic_add(&local[threadIdx.x % 8], 1u);
    asc_syncthreads();
    if (threadIdx.x < 8) bins[threadIdx.x] = local[threadIdx.x];
  });
  EXPECT_TRUE(good.ok) << (good.failures.empty() ? "" : good.failures[0].message);
  for (uint32_t b = 0; b < 8; ++b) EXPECT_EQ(bins[b], 8u);
}

// A lock made of atomics orders the plain accesses it protects.
TEST(SimtRacecheck, DataUnderAnAtomicLockIsClean) {
  int64_t total = 0;
  const Outcome o = Check(dim3(1), dim3(96), [&] {
    auto& lock = BlockArray<int32_t>(BlockKey([] {}), "lock");
    auto& sum = BlockArray<int64_t>(BlockKey([] {}), "sum");
    if (threadIdx.x == 0) {
      lock = 0;
      sum = 0;
    }
    asc_syncthreads();
    while (asc_atomic_cas(&lock, 0, 1) != 0) {
    }
    sum += threadIdx.x;
    asc_atomic_exch(&lock, 0);
    asc_syncthreads();
    if (threadIdx.x == 0) total = sum;
  });
  EXPECT_TRUE(o.ok) << (o.failures.empty() ? "" : o.failures[0].message);
  EXPECT_EQ(total, 95 * 96 / 2);
}

// Lanes that meet in a warp function are ordered; other warps are not.
TEST(SimtRacecheck, WarpFunctionsOrderTheirLanes) {
  const Outcome clean = Check(dim3(1), dim3(64), [&] {
    auto& buf = BlockArray<int32_t[64]>(BlockKey([] {}), "buf");
    buf[threadIdx.x] = static_cast<int32_t>(threadIdx.x);
    (void)asc_activemask();
    const uint32_t lane = threadIdx.x % 32;
    const volatile int32_t v = buf[threadIdx.x - lane + (lane + 1) % 32];  // same warp's lane
    (void)v;
  });
  EXPECT_TRUE(clean.ok) << (clean.failures.empty() ? "" : clean.failures[0].message);
  const Outcome racy = Check(dim3(1), dim3(64), [&] {
    auto& buf = BlockArray<int32_t[64]>(BlockKey([] {}), "buf");
    buf[threadIdx.x] = static_cast<int32_t>(threadIdx.x);
    (void)asc_activemask();
    const volatile int32_t v = buf[(threadIdx.x + 32) % 64];  // the other warp's lane
    (void)v;
  });
  EXPECT_FALSE(racy.ok);
  ASSERT_FALSE(racy.failures.empty());
  EXPECT_EQ(racy.failures[0].check, "racecheck");
}

// Publication by a fence and a flag read through volatile (insert_hash_table's pattern): the
// device runs it correctly, so it must not be reported; without the volatile read it races.
TEST(SimtRacecheck, FenceAndVolatileFlagPublish) {
  int64_t seen = 0;
  const Outcome o = Check(dim3(1), dim3(64), [&] {
    auto& slot = BlockArray<int64_t>(BlockKey([] {}), "slot");
    auto& state = BlockArray<uint32_t>(BlockKey([] {}), "state");
    if (threadIdx.x == 0) state = 0;
    asc_syncthreads();
    if (threadIdx.x == 40) {
      slot = 12345;
      asc_threadfence();
      state = 1;
    }
    if (threadIdx.x == 3) {
      while (*reinterpret_cast<volatile uint32_t*>(&state) != 1) {
        asc_nop();
      }
      seen = slot;
    }
  });
  EXPECT_TRUE(o.ok) << (o.failures.empty() ? "" : o.failures[0].message);
  EXPECT_EQ(seen, 12345);
}

TEST(SimtRacecheck, ReadsOfSharedMemoryNothingWroteAreFound) {
  const Outcome o = Check(
      dim3(1), dim3(32),
      [&] {
        float* dyn = DynamicArray<float>("dyn");
        dyn[threadIdx.x] = 1.0f;
        asc_syncthreads();
        volatile float v = dyn[threadIdx.x + 1];  // thread 31 reads dyn[32]: never written
        (void)v;
      },
      64 * sizeof(float));
  EXPECT_FALSE(o.ok);
  ASSERT_FALSE(o.failures.empty());
  EXPECT_EQ(o.failures[0].check, "initcheck");
  EXPECT_NE(o.failures[0].message.find("thread (31,0,0)"), std::string::npos)
      << o.failures[0].message;
}

// The shadow keeps whole 4-byte words while accesses cover them and single bytes once one does
// not: neighbouring bytes of one word written by different threads are no race; a byte a thread
// writes inside a word another writes whole is one; a word written whole, then read bytewise
// after a barrier, is clean, and read bytewise without one races.
TEST(SimtRacecheck, BytesOfOneWordAreToldApart) {
  const auto bytes = [](bool word_writer, bool barrier) {
    return Check(dim3(1), dim3(8), [=] {
      auto& buf = BlockArray<uint8_t[8]>(BlockKey([] {}), "bytes");
      auto* words = reinterpret_cast<uint32_t*>(&buf[0]);
      if (word_writer && threadIdx.x == 0) {
        words[0] = 0x01020304u;
      } else if (!word_writer) {
        buf[threadIdx.x] = static_cast<uint8_t>(threadIdx.x);
      }
      if (barrier) asc_syncthreads();
      if (word_writer && threadIdx.x == 5) buf[2] = 7;  // inside thread 0's word
      volatile uint8_t v = buf[threadIdx.x ^ 1];        // a neighbour's byte
      (void)v;
    });
  };
  const Outcome neighbours = bytes(false, true);
  EXPECT_TRUE(neighbours.ok) << (neighbours.failures.empty() ? "" : neighbours.failures[0].message);
  const Outcome inside = bytes(true, true);
  EXPECT_FALSE(inside.ok);
  ASSERT_FALSE(inside.failures.empty());
  EXPECT_EQ(inside.failures[0].check, "racecheck");
  EXPECT_NE(inside.failures[0].message.find("thread (5,0,0)"), std::string::npos)
      << inside.failures[0].message;
  const Outcome unordered = bytes(false, false);  // bytewise writes, reads with no barrier
  EXPECT_FALSE(unordered.ok);
  ASSERT_FALSE(unordered.failures.empty());
  EXPECT_NE(unordered.failures[0].message.find("write-read"), std::string::npos)
      << unordered.failures[0].message;
}

// Past the shadow memory's budget GM goes unchecked, with a warning naming the bytes; the UB is
// still checked.
TEST(SimtRacecheck, ShadowBudgetLeavesGmUncheckedWithAWarning) {
  auto* gm = static_cast<float*>(AscendC::GmAlloc(64 * sizeof(float)));
  ::setenv("LNGRAD_RACECHECK_SHADOW_MIB", "0", 1);
  ::testing::internal::CaptureStderr();
  const Outcome gm_race =
      Check(dim3(1), dim3(32), [&] { gm[0] = static_cast<float>(threadIdx.x); });
  const std::string warning = ::testing::internal::GetCapturedStderr();
  const Outcome ub_race = Check(dim3(1), dim3(32), [&] {
    auto& ub = BlockArray<float[4]>(BlockKey([] {}), "ub");
    ub[0] = static_cast<float>(threadIdx.x);
  });
  ::unsetenv("LNGRAD_RACECHECK_SHADOW_MIB");
  EXPECT_TRUE(gm_race.ok);
  EXPECT_NE(warning.find("128 bytes of GM accessed after that were not checked"), std::string::npos)
      << warning;
  EXPECT_FALSE(ub_race.ok);
  const Outcome found = Check(dim3(1), dim3(32), [&] { gm[0] = static_cast<float>(threadIdx.x); });
  EXPECT_FALSE(found.ok);  // within the budget again, the same race is found
  AscendC::GmFree(gm);
}

// Raw GM accesses of instrumented SIMT code are bounded like the kernel APIs' (gm_bounds).
TEST(SimtRacecheck, GmOutOfBoundsStoreFailsTheThread) {
  auto* gm = static_cast<float*>(AscendC::GmAlloc(64 * sizeof(float)));
  std::vector<aicore::BlockFailure> failures;
  const Status st = RunSimt(
      dim3(1), dim3(96), [&] { gm[threadIdx.x] = 1.0f; }, 0, 0, &failures, k950, 0);
  EXPECT_FALSE(st.ok());
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "gm_bounds");
  EXPECT_NE(failures[0].message.find("a SIMT thread's store"), std::string::npos)
      << failures[0].message;
  EXPECT_EQ(gm[63], 1.0f);  // the threads before the faulting one ran
  AscendC::GmFree(gm);
}

}  // namespace
}  // namespace lngrad::simt::testing
