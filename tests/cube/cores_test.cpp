// The cores of an AI core: the AIC/AIV split of each kernel type (GetBlockIdx, GetBlockNum,
// GetSubBlockIdx, GetTaskRation per core against a table written from the reference pages
// GetBlockIdx, GetBlockNum and GetSubBlockIdx, separately from the implementation), the
// cross-core flags in every mode (what a wait lets through, read back from GM), the deadlock
// of a wait with no set and the kernel-type rule, each a named check.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "kernel_operator.h"

namespace {

using lngrad::aicore::CoreSplit;

std::string RunCores(CoreSplit split, uint32_t blocks, const std::function<void()>& kernel,
                     const char* soc = "Ascend910B1", uint32_t tools = 0) {
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  o.sanitize = tools;
  o.split = split;
  std::vector<lngrad::aicore::BlockFailure> failures;
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks("cores", blocks, kernel, o, &failures);
  std::string text = s.ok() ? "" : "failed: ";
  for (const auto& f : failures) text += "[" + f.check + "] " + f.message + "\n";
  return text;
}

// (core type, GetBlockIdx, GetBlockNum, GetSubBlockIdx, GetTaskRation) of every core.
using Seen = std::tuple<int32_t, int64_t, int64_t, int64_t, int64_t>;

std::vector<Seen> Indices(KernelMetaType type, uint32_t blocks) {
  std::mutex mu;
  std::vector<Seen> seen;
  const std::string r = RunCores(lngrad::aicore::SplitOf(type), blocks, [&] {
    const Seen s{ASCEND_IS_AIC ? 1 : 2, AscendC::GetBlockIdx(), AscendC::GetBlockNum(),
                 AscendC::GetSubBlockIdx(), AscendC::GetTaskRation()};
    std::lock_guard lock(mu);
    seen.push_back(s);
  });
  EXPECT_EQ(r, "");
  std::sort(seen.begin(), seen.end());
  return seen;
}

TEST(Cores, BlockIndicesPerKernelType) {
  // The reference: AIV_ONLY / AIC_ONLY start numBlocks cores of one type, indices [0, n);
  // MIX 1:1 starts n AICs and n AIVs, both [0, n); MIX 1:2 n AICs [0, n) and 2n AIVs [0, 2n),
  // the AIVs of AI core i being 2i (sub-block 0) and 2i + 1 (sub-block 1). GetBlockNum is n on
  // every core; GetTaskRation 1 on an AIC, the AIVs per AI core on an AIV.
  const std::vector<Seen> aiv = {{2, 0, 3, 0, 1}, {2, 1, 3, 0, 1}, {2, 2, 3, 0, 1}};
  const std::vector<Seen> aic = {{1, 0, 3, 0, 1}, {1, 1, 3, 0, 1}, {1, 2, 3, 0, 1}};
  std::vector<Seen> mix11 = aic;
  mix11.insert(mix11.end(), aiv.begin(), aiv.end());
  std::vector<Seen> mix12 = aic;
  for (int64_t i = 0; i < 6; ++i) mix12.emplace_back(2, i, 3, i % 2, 2);
  EXPECT_EQ(Indices(KERNEL_TYPE_AIV_ONLY, 3), aiv);
  EXPECT_EQ(Indices(KERNEL_TYPE_AIC_ONLY, 3), aic);
  EXPECT_EQ(Indices(KERNEL_TYPE_MIX_AIC_1_1, 3), mix11);
  EXPECT_EQ(Indices(KERNEL_TYPE_MIX_AIC_1_2, 3), mix12);
}

TEST(Cores, TheA2KeepsTheEndOfL1InMixedKernelsOnly) {
  // The 2201 page (架构规格 NPU架构版本2201): L1 is 512 KiB, of which the framework keeps 256 B in
  // cube-and-vector kernels (ASC_L1_SIZE = 512 * 1024 - 256). A B1 tile ending at 512 KiB: a
  // cube-only kernel may take it, a mixed one may not; the 950 keeps nothing.
  constexpr uint32_t kEnd = 512 * 1024, kTile = 64 * 1024;
  auto tile = [] {
    if ASCEND_IS_AIC {
      AscendC::LocalTensor<half> b1(AscendC::TPosition::B1, kEnd - kTile, kTile / 2);
      b1.SetValue(kTile / 2 - 1, half(1.0f));
    }
  };
  EXPECT_EQ(RunCores(lngrad::aicore::SplitOf(KERNEL_TYPE_AIC_ONLY), 1, tile), "");
  const std::string mixed = RunCores(lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2), 1, tile);
  EXPECT_NE(mixed.find("[ub_bounds]"), std::string::npos) << mixed;
  EXPECT_NE(mixed.find("[458752, 524288)"), std::string::npos) << mixed;
  EXPECT_NE(mixed.find("524032 B"), std::string::npos) << mixed;
  EXPECT_EQ(RunCores(lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2), 1, tile, "Ascend950PR_9599"),
            "");
}

TEST(Cores, OutsideALaunchTheBlockIsOneAiv) {
  EXPECT_TRUE(ASCEND_IS_AIV);
  EXPECT_EQ(AscendC::GetSubBlockIdx(), 0);
  EXPECT_EQ(AscendC::GetTaskRation(), 1);
}

// Mode 0: every AIV of the launch writes its slot, sets and waits; after the wait it must see
// every slot written (the flag's round needs every AIV's set). Twice, to check the counter.
TEST(Cores, Mode0SyncsEveryCoreOfTheType) {
  constexpr uint32_t kBlocks = 4;
  std::vector<std::atomic<int>> slot(kBlocks * 2);
  std::atomic<int> missed{0};
  const std::string r = RunCores(lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2), kBlocks, [&] {
    if ASCEND_IS_AIC {
      return;
    }
    for (int round = 1; round <= 2; ++round) {
      slot[AscendC::GetBlockIdx()] = round;
      AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(3);
      AscendC::CrossCoreWaitFlag(3);
      for (auto& s : slot) missed += s.load() < round ? 1 : 0;
    }
  });
  EXPECT_EQ(r, "");
  EXPECT_EQ(missed, 0);
}

// Mode 1: the two AIVs of one AI core; mode 2: the AIC waits for both AIVs, then the AIVs for
// the AIC (each sees the other side's value after its wait).
TEST(Cores, Modes1And2SyncWithinTheAiCore) {
  constexpr uint32_t kBlocks = 3;
  std::vector<std::atomic<int>> aiv(kBlocks * 2), aic(kBlocks);
  std::atomic<int> wrong{0};
  const std::string r = RunCores(lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2), kBlocks, [&] {
    const int64_t i = AscendC::GetBlockIdx();
    if ASCEND_IS_AIV {
      aiv[i] = 1;
      AscendC::CrossCoreSetFlag<1, PIPE_V>(5);
      AscendC::CrossCoreWaitFlag(5);
      wrong += aiv[i ^ 1].load() == 1 ? 0 : 1;  // the other AIV of the AI core
      AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(6);
      AscendC::CrossCoreWaitFlag(7);
      wrong += aic[i / 2].load() == 1 ? 0 : 1;
    } else {
      AscendC::CrossCoreWaitFlag(6);
      wrong += aiv[2 * i].load() + aiv[2 * i + 1].load() == 2 ? 0 : 1;
      aic[i] = 1;
      AscendC::CrossCoreSetFlag<2, PIPE_FIX>(7);
    }
  });
  EXPECT_EQ(r, "");
  EXPECT_EQ(wrong, 0);
}

// Mode 4 (950): AIV1's flag 2 is the AIC's 18; the AIC's 16 + 3 is AIV1's 3.
TEST(Cores, Mode4PairsTheAicWithOneAiv) {
  std::atomic<int> order{0}, wrong{0};
  const std::string r = RunCores(
      lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2), 1,
      [&] {
        if ASCEND_IS_AIV {
          if (AscendC::GetSubBlockIdx() == 0) return;
          order = 1;
          AscendC::CrossCoreSetFlag<4, PIPE_MTE3>(2);
          AscendC::CrossCoreWaitFlag<4, PIPE_V>(3);
          wrong += order.load() == 2 ? 0 : 1;
        } else {
          AscendC::CrossCoreWaitFlag<4, PIPE_MTE1>(18);
          wrong += order.load() == 1 ? 0 : 1;
          order = 2;
          AscendC::CrossCoreSetFlag<4, PIPE_FIX>(19);
        }
      },
      "Ascend950PR_9599");
  EXPECT_EQ(r, "");
  EXPECT_EQ(wrong, 0);
}

TEST(Cores, AWaitNoSetCanEndIsNamed) {
  const std::string r = RunCores(lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2), 2, [] {
    if ASCEND_IS_AIV {
      AscendC::CrossCoreWaitFlag(9);
    }
  });
  EXPECT_NE(r.find("[cross_core] CrossCoreWaitFlag at"), std::string::npos) << r;
  EXPECT_NE(r.find("waits for flagId 9 (mode 0), which no CrossCoreSetFlag raised"),
            std::string::npos)
      << r;
}

TEST(Cores, FlagsNeedAMixedKernelAndADocumentedMode) {
  const std::string plain = RunCores({}, 1, [] { AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(0); });
  EXPECT_NE(plain.find("[cross_core]"), std::string::npos) << plain;
  EXPECT_NE(plain.find("is not a mixed kernel"), std::string::npos) << plain;
  const std::string mode4 = RunCores(lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2), 1,
                                     [] { AscendC::CrossCoreSetFlag<4, PIPE_MTE3>(0); });
  EXPECT_NE(mode4.find("modeId 4 must be 0, 1 or 2 (4 on Ascend 950)"), std::string::npos) << mode4;
  const std::string pipe = RunCores(lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2), 1,
                                    [] { AscendC::CrossCoreSetFlag<2, PIPE_ALL>(0); });
  EXPECT_NE(pipe.find("pipe must not be PIPE_ALL"), std::string::npos) << pipe;
}

// The sanitizer: an AIV's MTE3 write to GM, its own mode-0 set on MTE3 and wait, then an MTE2
// read of the same bytes is ordered (no finding); without the flags it is a race.
TEST(Cores, TheSanitizerSeesCrossCoreFlagsAsSync) {
  auto* gm = static_cast<float*>(AscendC::GmAlloc(64 * sizeof(float)));
  auto kernel = [gm](bool flags) {
    return [gm, flags] {
      if ASCEND_IS_AIC {
        return;
      }
      AscendC::GlobalTensor<float> g;
      g.SetGlobalBuffer(gm + AscendC::GetBlockIdx() * 32, 32);
      AscendC::LocalTensor<float> x(AscendC::TPosition::VECCALC, 0, 32);
      AscendC::Duplicate(x, 1.0f, 32);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::DataCopy(g, x, 32);
      if (flags) {
        AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(0);
        AscendC::CrossCoreWaitFlag(0);
      }
      AscendC::DataCopy(x, g, 32);
      AscendC::PipeBarrier<PIPE_ALL>();
    };
  };
  const auto split = lngrad::aicore::SplitOf(KERNEL_TYPE_MIX_AIC_1_2);
  EXPECT_EQ(RunCores(split, 1, kernel(true), "Ascend910B1", lngrad::aicore::san::kAllTools), "");
  const std::string race =
      RunCores(split, 1, kernel(false), "Ascend910B1", lngrad::aicore::san::kAllTools);
  EXPECT_NE(race.find("read-after-write hazard on GM"), std::string::npos) << race;
  AscendC::GmFree(gm);
}

}  // namespace
