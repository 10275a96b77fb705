// SyncAll: every block of a launch waits for all the others, whatever the number of host cores,
// in parallel and sequential launches; calls that could never complete on the device are
// errors instead of hangs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "checked_mode_scope.h"
#include "gm_buffer.h"
#include "run_kernel.h"
#include "kernel_operator.h"

namespace {

using lngrad::aicore::BlockFailure;
using lngrad::aicore::LaunchOptions;
using namespace lngrad::aicore::test;

// The value block b publishes in round r.
int32_t Stamp(int64_t b, int r) { return static_cast<int32_t>(1000 * (r + 1) + b); }

// Rounds of: every block writes its GM slot, SyncAll, every block reads its right neighbour's
// slot of that round. Block 0 dawdles before writing, so a SyncAll that did not wait would let
// the others read a stale value. `soft`: the workspace form. Returns what each block read.
std::vector<int32_t> Exchange(uint32_t n, int rounds, const LaunchOptions& options, bool soft,
                              std::vector<BlockFailure>* failures = nullptr) {
  GmBuffer slots(size_t{n} * rounds * sizeof(int32_t));
  GmBuffer seen(size_t{n} * rounds * sizeof(int32_t));
  GmBuffer work(size_t{n} * 32);
  int32_t* sp = slots.as<int32_t>();
  int32_t* rp = seen.as<int32_t>();
  int32_t* wp = work.as<int32_t>();
  const auto kernel = [=] {
    AscendC::GlobalTensor<int32_t> slot, out, ws;
    slot.SetGlobalBuffer(sp, uint64_t{n} * rounds);
    out.SetGlobalBuffer(rp, uint64_t{n} * rounds);
    ws.SetGlobalBuffer(wp, uint64_t{n} * 8);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<int32_t> ubWork = ub.Alloc<int32_t>(n * 8);
    for (int r = 0; r < rounds; ++r) {
      if (block_idx == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      slot.SetValue(r * n + block_idx, Stamp(block_idx, r));
      if (soft) {
        AscendC::SyncAll(ws, ubWork);
      } else {
        AscendC::SyncAll();
      }
      const int64_t right = (block_idx + 1) % block_num;
      out.SetValue(r * n + block_idx, slot.GetValue(r * n + right));
    }
  };
  std::vector<BlockFailure> f = RunKernel(n, kernel, options);
  EXPECT_TRUE(failures != nullptr || f.empty()) << f.front().message;
  if (failures != nullptr) *failures = f;
  return {rp, rp + size_t{n} * rounds};
}

std::vector<int32_t> Expected(uint32_t n, int rounds) {
  std::vector<int32_t> e;
  for (int r = 0; r < rounds; ++r) {
    for (uint32_t b = 0; b < n; ++b) e.push_back(Stamp((b + 1) % n, r));
  }
  return e;
}

TEST(SyncAll, EveryBlockSeesEveryOtherBlocksWritesOfTheRound) {
  EXPECT_EQ(Exchange(6, 3, On("Ascend910B1"), false), Expected(6, 3));
  EXPECT_EQ(Exchange(6, 3, On("Ascend950PR_9599"), false), Expected(6, 3));
}

TEST(SyncAll, ALaunchOfMoreBlocksThanHostCoresFinishes) {
  const uint32_t cores = std::max(2u, std::thread::hardware_concurrency());
  const uint32_t n = std::min(4 * cores + 3, lngrad::aicore::kSyncAllMaxBlocks);
  EXPECT_EQ(Exchange(n, 2, On("Ascend910B1"), false), Expected(n, 2));
}

TEST(SyncAll, SequentialLaunchesRunOneBlockAtATimeInBlockOrder) {
  constexpr uint32_t kBlocks = 5;
  std::mutex mu;
  std::vector<std::string> trace;
  std::atomic<int> running{0};
  std::atomic<int> most{0};
  const auto note = [&](const std::string& what) {
    std::lock_guard lock(mu);
    trace.push_back(what + std::to_string(block_idx));
  };
  std::vector<BlockFailure> f = RunKernel(
      kBlocks,
      [&] {
        const int now = ++running;
        most = std::max(most.load(), now);
        note("a");
        --running;
        AscendC::SyncAll();
        const int again = ++running;
        most = std::max(most.load(), again);
        note("b");
        --running;
      },
      On("Ascend910B1", /*sequential=*/true));
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(most.load(), 1);
  EXPECT_EQ(trace,
            (std::vector<std::string>{"a0", "a1", "a2", "a3", "a4", "b4", "b0", "b1", "b2", "b3"}));
  // The exchange works sequentially too.
  EXPECT_EQ(Exchange(4, 2, On("Ascend910B1", true), false), Expected(4, 2));
}

TEST(SyncAll, OneBlockAndStandaloneBlocksDoNotWait) {
  EXPECT_EQ(Exchange(1, 2, On("Ascend910B1"), false), Expected(1, 2));
  AscendC::SyncAll();  // the thread's standalone block is block 0 of 1
}

TEST(SyncAll, ABlockThatEndsOrFailsWithoutTheCallIsAnErrorNotAHang) {
  for (bool sequential : {false, true}) {
    std::vector<BlockFailure> f = RunKernel(
        4,
        [] {
          if (block_idx == 2) return;
          AscendC::SyncAll();
        },
        On("Ascend910B1", sequential));
    ASSERT_EQ(f.size(), 3u) << sequential;
    for (const BlockFailure& b : f) {
      EXPECT_NE(b.block_idx, 2);
      EXPECT_EQ(b.check, "sync_all");
      EXPECT_NE(b.message.find("block 2 ended after 0 SyncAll call(s), so this SyncAll can never "
                               "complete"),
                std::string::npos)
          << b.message;
      EXPECT_NE(b.message.find("sync_all_test.cpp:"), std::string::npos) << b.message;
    }
  }
  // A block calling once more than the others.
  std::vector<BlockFailure> f = RunKernel(3, [] {
    AscendC::SyncAll();
    if (block_idx == 1) AscendC::SyncAll();
  });
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].block_idx, 1);
  EXPECT_NE(f[0].message.find("(call 2 of block 1)"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("after 1 SyncAll call(s)"), std::string::npos) << f[0].message;
  // A failing block names its failure.
  f = RunKernel(3, [] {
    if (block_idx == 0) {
      AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
      ub.Alloc<uint8_t>(1u << 30);
    }
    AscendC::SyncAll();
  });
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].check, "ub_overflow");
  EXPECT_NE(f[1].message.find("block 0 failed ([ub_overflow]) after 0 SyncAll call(s)"),
            std::string::npos)
      << f[1].message;
}

TEST(SyncAll, MoreBlocksThanCanBeResidentIsAnError) {
  const uint32_t n = lngrad::aicore::kSyncAllMaxBlocks + 1;
  std::vector<BlockFailure> f = RunKernel(n, [] { AscendC::SyncAll(); });
  ASSERT_EQ(f.size(), n);
  EXPECT_EQ(f[0].check, "sync_all");
  EXPECT_NE(f[0].message.find("the launch has 257 blocks"), std::string::npos) << f[0].message;
  // The same launch without SyncAll is fine.
  EXPECT_TRUE(RunKernel(n, [] {}).empty());
}

TEST(SyncAll, TheWorkspaceFormWaitsLikeTheHardwareForm) {
  EXPECT_EQ(Exchange(5, 2, On("Ascend910B1"), true), Expected(5, 2));
  // The Atlas inference series has only this form.
  EXPECT_EQ(Exchange(3, 2, On("Ascend310P1"), true), Expected(3, 2));
}

TEST(SyncAll, CheckedModeRefusesBadWorkspacesAndUnsupportedForms) {
  CheckedModeScope mode(true);
  GmBuffer work(4 * 32);
  int32_t* wp = work.as<int32_t>();
  const auto soft = [wp](uint64_t gm_elems, uint32_t ub_elems, int32_t used) {
    return [=] {
      AscendC::GlobalTensor<int32_t> ws;
      ws.SetGlobalBuffer(wp, gm_elems);
      AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
      AscendC::SyncAll(ws, ub.Alloc<int32_t>(ub_elems), used);
    };
  };
  std::vector<BlockFailure> f = RunKernel(4, soft(31, 32, 0));
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].check, "sync_all");
  EXPECT_NE(f[0].message.find("gmWorkspace has 31 int32_t elements; it needs GetBlockNum() * 32 "
                              "B = 32 elements"),
            std::string::npos)
      << f[0].message;
  f = RunKernel(4, soft(32, 8, 0));
  ASSERT_EQ(f.size(), 4u);
  EXPECT_NE(f[0].message.find("ubWorkspace has 8 int32_t elements"), std::string::npos);
  f = RunKernel(4, soft(32, 32, 2));
  ASSERT_EQ(f.size(), 4u);
  EXPECT_NE(f[0].message.find("usedCores 2 of 4 blocks"), std::string::npos) << f[0].message;
  f = RunKernel(4, soft(32, 32, 5));
  ASSERT_EQ(f.size(), 4u);
  EXPECT_NE(f[0].message.find("usedCores is 5, which must be in [0, numBlocks 4]"),
            std::string::npos)
      << f[0].message;
  EXPECT_TRUE(RunKernel(4, soft(32, 32, 4)).empty());

  f = RunKernel(
      2, [] { AscendC::SyncAll(); }, On("Ascend310P1"));
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].check, "unsupported_on_product");
  EXPECT_NE(f[0].message.find("SyncAll() at "), std::string::npos) << f[0].message;
}

TEST(SyncAll, IcpuRunKfRethrowsTheSyncAllError) {
  const auto kernel = [] {
    if (block_idx != 0) AscendC::SyncAll();
  };
  try {
    ICPU_RUN_KF(kernel, 2);
    ADD_FAILURE() << "no error";
  } catch (const lngrad::aicore::KernelCheckError& e) {
    EXPECT_EQ(e.check(), "sync_all");
    EXPECT_EQ(e.block_idx(), 1);
  }
}

}  // namespace
