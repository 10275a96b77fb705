// Many threads calling the native API and launching simulated kernels at once give the same
// bits as one call at a time. Run under ThreadSanitizer by the "tsan" preset (label "tsan",
// not part of the default run): TSan reports any data race as a failure.
//
// Each worker owns its problems and outputs; the shared state under test is the library's:
// the native thread pool, the Ascend C runtime's GM registry and launch workers, the current
// product that the example operators switch while tiling (different workers ask for different
// SoCs at the same time), and the per-thread tiling status.
#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "hardening_util.h"
#include "tiling/tiling_api.h"

namespace lngrad::hardening {
namespace {

constexpr int kWorkers = 8;
constexpr int kRounds = 3;

const char* const kSocs[] = {"Ascend910B1", "Ascend310P1", "Ascend950PR_9599"};

template <typename T>
struct Job {
  Problem<T> problem;
  std::string soc;
  std::vector<T> native_pd_x, native_res, device_pd_x, device_res;
  Job(int64_t rows, int64_t h, uint32_t seed, std::string s)
      : problem(rows, h, seed), soc(std::move(s)) {}
};

template <typename T>
bool Equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <typename T>
std::vector<Job<T>> MakeJobs(uint32_t seed0) {
  std::vector<Job<T>> jobs;
  for (int w = 0; w < kWorkers; ++w) {
    // >= 65536 elements, so that the native calls use the thread pool (smaller problems run
    // on the calling thread).
    jobs.emplace_back(520 + 7 * w, 32 * (4 + w % 3), seed0 + static_cast<uint32_t>(w),
                      kSocs[w % 3]);
  }
  return jobs;
}

// One at a time: the reference bits.
template <typename T>
void RunSequentially(std::vector<Job<T>>& jobs) {
  for (auto& j : jobs) {
    Options o;
    o.num_threads = 2;
    ASSERT_TRUE(j.problem.RunNative(1e-5f, o).ok());
    j.native_pd_x = j.problem.pd_x;
    j.native_res = j.problem.res;
    const Status s = j.problem.RunDevice(1e-5f, 3, j.soc, /*sequential=*/true);
    ASSERT_TRUE(s.ok()) << j.soc << ": " << s.ToString();
    j.device_pd_x = j.problem.pd_x;
    j.device_res = j.problem.res;
  }
}

template <typename T>
void RunConcurrently(std::vector<Job<T>>& jobs, std::atomic<int>* mismatches) {
  std::vector<std::thread> threads;
  for (int w = 0; w < kWorkers; ++w) {
    threads.emplace_back([&, w] {
      Problem<T> mine = jobs[w].problem;  // own copy of inputs and outputs
      for (int round = 0; round < kRounds; ++round) {
        Options o;
        o.num_threads = round % 3;  // default, caller only, 2 pool threads
        if (!mine.RunNative(1e-5f, o).ok() || !Equal(mine.pd_x, jobs[w].native_pd_x) ||
            !Equal(mine.res, jobs[w].native_res)) {
          ++*mismatches;
        }
        // Several blocks on runtime threads, while other workers launch on other SoCs.
        if (!mine.RunDevice(1e-5f, 3, jobs[w].soc).ok() || !Equal(mine.pd_x, jobs[w].device_pd_x) ||
            !Equal(mine.res, jobs[w].device_res)) {
          ++*mismatches;
        }
        // The official tiling API's per-thread status must not leak between threads.
        uint32_t mx = 0, mn = 0;
        AscendC::GetLayerNormGradMaxMinTmpSize(ge::Shape({1, 2, 3}), 4, false, mx, mn);
        if (lngrad::tiling::LastTilingStatus().ok()) ++*mismatches;  // 3 dims is an error
      }
    });
  }
  for (auto& t : threads) t.join();
}

template <typename T>
void ExpectConcurrentBitsEqualSequential(uint32_t seed0) {
  auto jobs = MakeJobs<T>(seed0);
  RunSequentially(jobs);
  std::atomic<int> mismatches{0};
  RunConcurrently(jobs, &mismatches);
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(Concurrency, NativeAndDeviceFloatGiveTheSameBitsAsSequential) {
  ExpectConcurrentBitsEqualSequential<float>(100);
}

TEST(Concurrency, NativeAndDeviceHalfGiveTheSameBitsAsSequential) {
  ExpectConcurrentBitsEqualSequential<Half>(200);
}

}  // namespace
}  // namespace lngrad::hardening
