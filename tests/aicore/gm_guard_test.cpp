// GM accesses that start outside every live GM region (issue 27): a tile just past the end of a
// GmAlloc block (its red zone), memory used after GmFree / GmPoolFree (gm_freed), a scalar
// SetValue and an atomic copy out of range, in checked and unchecked mode; and checks that a
// kernel's own catch (...) cannot swallow.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel_operator.h"

#include "checked_mode_scope.h"

namespace {

using namespace AscendC;
namespace checks = lngrad::aicore::checks;
using lngrad::aicore::BlockFailure;
using lngrad::aicore::KernelCheckError;
using lngrad::aicore::test::CheckedModeScope;

constexpr uint32_t kTile = 64;  // floats: 256 B

// Runs `body` in one block; returns the block's failure (check "" when the launch succeeded).
BlockFailure RunBlock(const std::function<void()>& body) {
  std::vector<BlockFailure> failures;
  testing::internal::CaptureStderr();  // the launcher reports failed blocks there
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks("guard", 1, body, {}, &failures);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(s.ok(), failures.empty()) << s.ToString();
  return failures.empty() ? BlockFailure{} : failures.front();
}

// One tile from UB to GM at `at` (a GlobalTensor of unknown size: only GM regions bound it).
void TileOut(float* at) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, 7.0f, kTile);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(at);
  PipeBarrier<PIPE_ALL>();
  DataCopy(g, t, kTile);
}

// One tile from GM at `at` into UB.
void TileIn(const float* at) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  GlobalTensor<float> g;
  g.SetGlobalBuffer(const_cast<float*>(at));
  DataCopy(buf.Get<float>(), g, kTile);
}

std::string Hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return buf;
}

// The block's buffer is `tiles` tiles; the kernel writes tile number `tiles` (an off-by-one):
// it starts exactly at the end of the allocation. 8 tiles = 2048 B, a multiple of 512, so no
// rounding of the block lies behind it: only the red zone.
TEST(GmGuard, TileJustPastTheEndIsRefusedInBothModes) {
  for (uint32_t tiles : {8u, 3u}) {
    for (bool checked : {true, false}) {
      SCOPED_TRACE(::testing::Message()
                   << tiles << " tiles, " << (checked ? "checked" : "unchecked"));
      CheckedModeScope mode(checked);
      auto* gm = static_cast<float*>(GmAlloc(tiles * kTile * sizeof(float)));
      float* end = gm + tiles * kTile;
      const BlockFailure out = RunBlock([&] { TileOut(end); });
      EXPECT_EQ(out.check, checks::kGmBounds) << out.message;
      EXPECT_NE(out.message.find("DataCopy"), std::string::npos) << out.message;
      EXPECT_NE(out.message.find(Hex(end)), std::string::npos) << out.message;
      EXPECT_NE(out.message.find("GmAlloc block at " + Hex(gm)), std::string::npos) << out.message;
      EXPECT_NE(out.message.find("starts past its end"), std::string::npos) << out.message;
      // Nothing was written past the block (the red zone is the runtime's to read).
      for (uint32_t i = 0; i < kTile; ++i) ASSERT_NE(end[i], 7.0f) << i;
      EXPECT_EQ(RunBlock([&] { TileIn(end); }).check, checks::kGmBounds);
      // The last whole tile is fine.
      EXPECT_EQ(RunBlock([&] { TileOut(end - kTile); }).check, "");
      GmFree(gm);
    }
  }
}

TEST(GmGuard, AccessAfterGmFreeIsGmFreed) {
  for (bool checked : {true, false}) {
    SCOPED_TRACE(checked ? "checked" : "unchecked");
    CheckedModeScope mode(checked);
    auto* gm = static_cast<float*>(GmAlloc(4 * kTile * sizeof(float)));
    GmFree(gm);
    const BlockFailure out = RunBlock([&] { TileOut(gm + kTile); });
    EXPECT_EQ(out.check, checks::kGmFreed) << out.message;
    EXPECT_EQ(out.block_idx, 0);
    EXPECT_NE(out.message.find(Hex(gm + kTile)), std::string::npos) << out.message;
    EXPECT_NE(out.message.find("1024 B GmAlloc block at " + Hex(gm)), std::string::npos)
        << out.message;
    EXPECT_NE(out.message.find("freed"), std::string::npos) << out.message;
    EXPECT_EQ(RunBlock([&] { TileIn(gm); }).check, checks::kGmFreed);
  }
}

// Blocks of 1 MiB and more give their pages back at the free; they are still recognised.
TEST(GmGuard, AccessAfterFreeOfALargeBlockIsGmFreed) {
  const size_t bytes = size_t{4} << 20;
  auto* gm = static_cast<float*>(GmAlloc(bytes));
  GmFree(gm);
  EXPECT_EQ(RunBlock([&] { TileOut(gm + bytes / sizeof(float) / 2); }).check, checks::kGmFreed);
}

TEST(GmGuard, AccessToAFreePooledBlockIsGmFreed) {
  auto* p = static_cast<float*>(lngrad::aicore::GmPoolAlloc(kTile * sizeof(float)));
  EXPECT_EQ(RunBlock([&] { TileOut(p); }).check, "");
  lngrad::aicore::GmPoolFree(p);
  const BlockFailure out = RunBlock([&] { TileOut(p); });
  EXPECT_EQ(out.check, checks::kGmFreed) << out.message;
  EXPECT_NE(out.message.find("pooled GM block"), std::string::npos) << out.message;
  // Reused, it is live again.
  auto* q = static_cast<float*>(lngrad::aicore::GmPoolAlloc(kTile * sizeof(float)));
  if (q == p) {
    EXPECT_EQ(RunBlock([&] { TileOut(q); }).check, "");
  }
  lngrad::aicore::GmPoolFree(q);
}

TEST(GmGuard, ScalarAccessOutOfRange) {
  for (bool checked : {true, false}) {
    SCOPED_TRACE(checked ? "checked" : "unchecked");
    CheckedModeScope mode(checked);
    auto* gm = static_cast<int32_t*>(GmAlloc(128 * sizeof(int32_t)));
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(gm);  // size unknown: the GmAlloc block bounds it
    BlockFailure out = RunBlock([&] { g.SetValue(128, 5); });
    EXPECT_EQ(out.check, checks::kGmBounds) << out.message;
    EXPECT_NE(out.message.find("GlobalTensor::SetValue"), std::string::npos) << out.message;
    EXPECT_EQ(RunBlock([&] { (void)g.GetValue(130); }).check, checks::kGmBounds);
    EXPECT_EQ(RunBlock([&] { g.SetValue(127, 5); }).check, "");
    EXPECT_EQ(gm[127], 5);
    GmFree(gm);
    out = RunBlock([&] { (void)g.GetValue(0); });
    EXPECT_EQ(out.check, checks::kGmFreed) << out.message;
    EXPECT_NE(out.message.find("GlobalTensor::GetValue"), std::string::npos) << out.message;
  }
}

TEST(GmGuard, AtomicCopyOutOfRange) {
  for (bool checked : {true, false}) {
    SCOPED_TRACE(checked ? "checked" : "unchecked");
    CheckedModeScope mode(checked);
    auto* gm = static_cast<float*>(GmAlloc(2 * kTile * sizeof(float)));
    const BlockFailure out = RunBlock([&] {
      SetAtomicAdd<float>();
      TileOut(gm + 2 * kTile);
    });
    EXPECT_EQ(out.check, checks::kGmBounds) << out.message;
    EXPECT_EQ(RunBlock([&] {
                SetAtomicAdd<float>();
                TileOut(gm + kTile);
              }).check,
              "");
    EXPECT_EQ(gm[kTile], 7.0f);
    GmFree(gm);
  }
}

TEST(GmGuard, DataCopyPadPastTheEnd) {
  auto* gm = static_cast<float*>(GmAlloc(kTile * sizeof(float)));
  const BlockFailure out = RunBlock([&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm + kTile);
    DataCopyPad(buf.Get<float>(), g, DataCopyExtParams{1, 12, 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
  });
  EXPECT_EQ(out.check, checks::kGmBounds) << out.message;
  EXPECT_NE(out.message.find("DataCopyPad"), std::string::npos) << out.message;
  GmFree(gm);
}

// ---- A check, once raised, fails the launch ------------------------------------------------

TEST(RaisedChecks, CatchAllInTheKernelCannotSwallowACheck) {
  auto* gm = static_cast<float*>(GmAlloc(kTile * sizeof(float)));
  bool caught = false;
  auto kernel = [&] {
    try {
      TileOut(gm + kTile);
    } catch (...) {
      caught = true;  // and carries on as if nothing happened
    }
  };
  const BlockFailure out = RunBlock(kernel);
  EXPECT_TRUE(caught);
  EXPECT_EQ(out.check, checks::kGmBounds) << out.message;
  // ICPU_RUN_KF rethrows the check.
  testing::internal::CaptureStderr();
  try {
    ICPU_RUN_KF(kernel, 2);
    ADD_FAILURE() << "the launch succeeded";
  } catch (const KernelCheckError& e) {
    EXPECT_EQ(e.check(), checks::kGmBounds);
  }
  testing::internal::GetCapturedStderr();
  GmFree(gm);
}

TEST(RaisedChecks, TheFirstCheckIsReportedWhateverTheKernelThrowsInstead) {
  auto* gm = static_cast<float*>(GmAlloc(kTile * sizeof(float)));
  const BlockFailure out = RunBlock([&] {
    try {
      TileOut(gm + kTile);
    } catch (const std::exception&) {
      throw std::runtime_error("something else");
    }
  });
  EXPECT_EQ(out.check, checks::kGmBounds) << out.message;
  GmFree(gm);
}

TEST(RaisedChecks, ADismissedCheckDoesNotFailTheLaunch) {
  auto* gm = static_cast<float*>(GmAlloc(kTile * sizeof(float)));
  std::string seen;
  const BlockFailure out = RunBlock([&] {
    try {
      TileOut(gm + kTile);
    } catch (const KernelCheckError& e) {
      lngrad::aicore::DismissKernelCheck(e);
      seen = e.check();
    }
  });
  EXPECT_EQ(seen, checks::kGmBounds);
  EXPECT_EQ(out.check, "") << out.message;
  GmFree(gm);
}

}  // namespace
