// Layer simt: threads, barriers and block UB arrays (lngrad_simt/runtime.h), through the
// kernel-side API (simt_api/).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sanitizer.h"
#include "lngrad_aicore/sync.h"
#include "run_simt.h"
#include "simt_api/asc_simt.h"

namespace lngrad::simt::testing {
namespace {

std::string Checks(const std::vector<aicore::BlockFailure>& failures) {
  std::string s;
  for (const aicore::BlockFailure& f : failures) s += f.check + ": " + f.message + "\n";
  return s;
}

// Every thread of every block runs once and sees its own indices.
TEST(SimtEngine, EveryThreadRunsWithItsBuiltInVariables) {
  const dim3 grid(3, 2, 1);
  const dim3 block(5, 4, 3);  // 60 threads: two warps, the second of 28
  std::vector<uint32_t> seen(6 * 60, 0);
  std::atomic<int> wrong{0};
  ASSERT_TRUE(RunSimt(grid, block, [&] {
                const uint32_t b = blockIdx.x + blockIdx.y * gridDim.x;
                const uint32_t t =
                    threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
                if (blockDim.x != 5 || blockDim.y != 4 || blockDim.z != 3 || gridDim.x != 3 ||
                    gridDim.y != 2 || gridDim.z != 1 || laneid() != static_cast<int>(t % 32)) {
                  ++wrong;
                }
                ++seen[b * 60 + t];
              }).ok());
  EXPECT_EQ(wrong.load(), 0);
  for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1u) << i;
}

// A shared-memory tree reduction needs every barrier: each level reads what other threads
// wrote before it.
TEST(SimtEngine, BarriersOrderSharedMemoryPhases) {
  for (const uint32_t n : {1u, 31u, 100u, 1024u, 2048u}) {
    std::vector<float> out(2, -1.0f);
    ASSERT_TRUE(RunSimt(dim3(2), dim3(n),
                        [&] {
                          auto& buf = BlockArray<float[2048]>(BlockKey([] {}), "buf");
                          const uint32_t t = threadIdx.x;
                          buf[t] = static_cast<float>(t + 1 + blockIdx.x);
                          asc_syncthreads();
                          for (uint32_t half = 1024; half > 0; half /= 2) {
                            if (t < half && t + half < blockDim.x) buf[t] += buf[t + half];
                            asc_syncthreads();
                          }
                          if (t == 0) out[blockIdx.x] = buf[0];
                        })
                    .ok())
        << n;
    for (uint32_t b = 0; b < 2; ++b) {
      EXPECT_EQ(out[b], static_cast<float>(n) * (n + 1) / 2 + static_cast<float>(b) * n) << n;
    }
  }
}

// Threads that finish while others wait at asc_syncthreads: the device deadlocks; lngrad fails
// the block naming the barrier.
TEST(SimtEngine, BarrierSomeThreadsNeverReachIsReported) {
  std::vector<aicore::BlockFailure> failures;
  const Status st = RunSimt(
      dim3(1), dim3(64),
      [&] {
        if (threadIdx.x >= 40) return;
        asc_syncthreads();
      },
      0, 0, &failures);
  EXPECT_FALSE(st.ok());
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, "simt_barrier");
  EXPECT_NE(failures[0].message.find("40 thread(s)"), std::string::npos) << failures[0].message;
  EXPECT_NE(failures[0].message.find("24 finished"), std::string::npos) << failures[0].message;
  EXPECT_NE(failures[0].message.find("engine_test.cpp"), std::string::npos);
}

// A thread that throws unwinds the others (their destructors run) and fails the block.
TEST(SimtEngine, AThreadsFailureUnwindsTheOthers) {
  std::atomic<int> constructed{0};
  std::atomic<int> destroyed{0};
  struct Guard {
    std::atomic<int>* d;
    ~Guard() { ++*d; }
  };
  std::vector<aicore::BlockFailure> failures;
  const Status st = RunSimt(
      dim3(2), dim3(96),
      [&] {
        ++constructed;
        const Guard g{&destroyed};
        asc_syncthreads();
        if (threadIdx.x == 70) {
          aicore::RaiseKernelCheck("test_check", "thread 70 fails");
        }
        asc_syncthreads();
        asc_syncthreads();
      },
      0, 0, &failures);
  EXPECT_FALSE(st.ok());
  ASSERT_EQ(failures.size(), 2u) << Checks(failures);
  EXPECT_EQ(failures[0].check, "test_check");
  EXPECT_EQ(constructed.load(), 2 * 96);
  EXPECT_EQ(destroyed.load(), 2 * 96);
}

TEST(SimtEngine, LaunchLimitsAreChecked) {
  std::vector<aicore::BlockFailure> failures;
  auto nothing = [] {};
  EXPECT_FALSE(RunSimt(dim3(1), dim3(2049), nothing, 0, 0, &failures).ok());
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "simt_launch");
  EXPECT_NE(failures[0].message.find("2049 is outside [1, 2048]"), std::string::npos)
      << failures[0].message;
  failures.clear();
  // Without __launch_bounds__ the bound is 1024.
  EXPECT_FALSE(RunSimt(dim3(1), dim3(32, 33), nothing, 0, kDefaultLaunchBound, &failures).ok());
  ASSERT_FALSE(failures.empty());
  EXPECT_NE(failures[0].message.find("1056 is outside [1, 1024]"), std::string::npos)
      << failures[0].message;
  EXPECT_TRUE(RunSimt(dim3(1), dim3(1024), nothing, 0, kDefaultLaunchBound).ok());
  failures.clear();
  // Dynamic UB beyond 256 KB - 8 KB - 32 KB.
  EXPECT_FALSE(RunSimt(dim3(1), dim3(32), nothing, kMaxSharedUbBytes + 1, 0, &failures).ok());
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "simt_ub");
  EXPECT_TRUE(RunSimt(dim3(1), dim3(32), nothing, kMaxSharedUbBytes).ok());
  failures.clear();
  // SIMT is the 950's.
  EXPECT_FALSE(RunSimt(dim3(1), dim3(32), nothing, 0, 0, &failures, "Ascend910B1").ok());
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "unsupported_on_product");
}

// Static arrays: one per block and declaration, shared by the block's threads, after the
// dynamic UB; together at most 216 KB.
TEST(SimtEngine, BlockArraysAreSharedPerBlockAndDeclaration) {
  std::vector<uintptr_t> a_addr(2), b_addr(2), dyn_addr(2);
  std::atomic<int> mismatch{0};
  ASSERT_TRUE(RunSimt(
                  dim3(2), dim3(64),
                  [&] {
                    auto& a = BlockArray<int32_t[16]>(BlockKey([] {}), "a");
                    auto& b = BlockArray<uint32_t>(BlockKey([] {}), "b");
                    float* dyn = DynamicArray<float>("dyn");
                    if (threadIdx.x == 0) {
                      a_addr[blockIdx.x] = reinterpret_cast<uintptr_t>(&a[0]);
                      b_addr[blockIdx.x] = reinterpret_cast<uintptr_t>(&b);
                      dyn_addr[blockIdx.x] = reinterpret_cast<uintptr_t>(dyn);
                      b = 0;
                    }
                    asc_syncthreads();
                    asc_atomic_add(&b, 1u);
                    dyn[threadIdx.x] = 1.0f;
                    asc_syncthreads();
                    if (b != 64 || reinterpret_cast<uintptr_t>(&a[0]) != a_addr[blockIdx.x]) {
                      ++mismatch;
                    }
                  },
                  1000)
                  .ok());
  EXPECT_EQ(mismatch.load(), 0);
  for (int k = 0; k < 2; ++k) {
    EXPECT_GE(a_addr[k], dyn_addr[k] + 1000);  // after the dynamic UB
    EXPECT_EQ(a_addr[k] % 32, 0u);
    EXPECT_GE(b_addr[k], a_addr[k] + 64);
  }
  std::vector<aicore::BlockFailure> failures;
  EXPECT_FALSE(RunSimt(
                   dim3(1), dim3(32), [] { BlockArray<char[100 << 10]>(BlockKey([] {}), "big"); },
                   120 << 10, 0, &failures)
                   .ok());
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "simt_ub");
  EXPECT_NE(failures[0].message.find("'big'"), std::string::npos) << failures[0].message;
}

// Outside a SIMT thread the built-in variables are an error, not garbage.
TEST(SimtEngine, BuiltInsOutsideAThreadRaise) {
  EXPECT_THROW((void)threadIdx.x, aicore::KernelCheckError);
}

// A spin lock over an atomic: the waiting threads yield, and so does the holder after a long run
// of atomics, so every thread gets the lock in turn.
TEST(SimtEngine, SpinLocksOnAtomicsMakeProgress) {
  int32_t lock = 0;
  int32_t inside = 0;
  uint32_t counter = 0;
  int64_t total = 0;
  bool overlap = false;
  ASSERT_TRUE(RunSimt(dim3(1), dim3(256), [&] {
                while (asc_atomic_cas(&lock, 0, 1) != 0) {
                }
                overlap = overlap || ++inside != 1;
                for (int i = 0; i < 200; ++i) asc_atomic_add(&counter, 1u);  // yields inside
                total += threadIdx.x;
                --inside;
                asc_atomic_exch(&lock, 0);
              }).ok());
  EXPECT_FALSE(overlap);
  EXPECT_EQ(counter, 256u * 200u);
  EXPECT_EQ(total, 255 * 256 / 2);
}

}  // namespace
}  // namespace lngrad::simt::testing

namespace lngrad::simt::testing {
namespace {

// A hybrid kernel: a vector kernel's SIMT vector function writes its dynamic UB, then an MTE3
// instruction reads it after a V -> MTE3 flag. Under the pipeline sanitizer the vector function
// counts as a V instruction that wrote the block's __ubuf__ arrays (this test's code is not
// instrumented), so the read is of written UB; without the flag it is a race.
Status RunHybrid(bool with_flag, std::vector<aicore::BlockFailure>* failures) {
  aicore::LaunchOptions o;
  o.soc = k950;
  o.sanitize = aicore::san::kAllTools;
  return aicore::RunBlocks(
      "hybrid_test", 1,
      [&] {
        const BlockScope scope(dim3(1), 128);  // a vector kernel's launch (not a SIMT kernel's)
        float* out = DynamicArray<float>("out");
        RunThreads(
            dim3(32), 0, [&] { out[threadIdx.x] = 1.0f; }, aicore::SrcLoc::Current());
        const aicore::SrcLoc here = aicore::SrcLoc::Current();
        if (with_flag) {
          aicore::san::SetFlag(AscendC::HardEvent::V_MTE3, 0, here);
          aicore::san::WaitFlag(AscendC::HardEvent::V_MTE3, 0, here);
        }
        aicore::san::Instr in(aicore::Pipe::kMte3, "DataCopy", here);
        if (in) in.Read(out, 128);
      },
      o, failures);
}

TEST(SimtHybrid, AVectorFunctionsUbWritesAreInThePipelineSanitizersRecord) {
  std::vector<aicore::BlockFailure> failures;
  EXPECT_TRUE(RunHybrid(true, &failures).ok()) << Checks(failures);
  failures.clear();
  EXPECT_FALSE(RunHybrid(false, &failures).ok());
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "racecheck") << Checks(failures);
}

}  // namespace
}  // namespace lngrad::simt::testing

namespace lngrad::simt::testing {
namespace {

// A vector (SIMD-only) kernel's __ubuf__ arrays may use the UB up to the 8 KB the system keeps
// (it has no SIMT data cache); SIMT threads launched from it need the 32 KB data cache again.
std::vector<aicore::BlockFailure> VectorBlock(const std::function<void()>& body) {
  aicore::LaunchOptions o;
  o.soc = k950;
  std::vector<aicore::BlockFailure> failures;
  (void)aicore::RunBlocks(
      "vector_test", 1,
      [&] {
        const BlockScope scope(dim3(1), 0);
        body();
      },
      o, &failures);
  return failures;
}

TEST(SimtEngine, VectorKernelArraysMayUseTheUbUpToTheReserve) {
  EXPECT_TRUE(VectorBlock([] { BlockArray<char[240 << 10]>(BlockKey([] {}), "big"); }).empty());
  auto failures = VectorBlock([] { BlockArray<char[249 << 10]>(BlockKey([] {}), "huge"); });
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "simt_ub");
  EXPECT_NE(failures[0].message.find("(256 KB less 8 KB reserved)"), std::string::npos)
      << failures[0].message;
  failures = VectorBlock([] {
    BlockArray<char[240 << 10]>(BlockKey([] {}), "big");
    RunThreads(
        dim3(32), 0, [] {}, aicore::SrcLoc::Current());
  });
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "simt_ub");
}

}  // namespace
}  // namespace lngrad::simt::testing
