// Global memory beyond GmAlloc: caller memory registered as GM (GmRegistration), pooled GM
// (GmPoolAlloc), the per-thread region cache of the bounds check, DataCopy's streaming stores
// and read-ahead (which must not change a byte), and the launcher's reuse of helper threads.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kernel_operator.h"

#include "checked_mode_scope.h"

namespace {

using namespace AscendC;
namespace checks = lngrad::aicore::checks;
using lngrad::aicore::GmRegistration;
using lngrad::aicore::KernelCheckError;

using lngrad::aicore::test::CheckedModeScope;

// Copies `count` floats at `src` (a GlobalTensor of unknown size: only GM regions bound it)
// into UB in one block. Returns the check that failed, or "" when the copy went through.
std::string CopyIn(const float* src, uint32_t count) {
  std::string failed;
  testing::internal::CaptureStderr();  // the launcher reports failed blocks there
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(const_cast<float*>(src));
    try {
      DataCopy(buf.Get<float>(), g, count);
    } catch (const KernelCheckError& e) {
      failed = e.check();
      throw;
    }
  });
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(s.ok(), failed.empty()) << s.ToString();
  return failed;
}

TEST(AscendcGm, RegisteredHostMemoryIsBoundedInBothModes) {
  std::vector<float> host(64, 1.0f);  // 256 B of valid memory; 128 B of it registered
  for (bool checked : {true, false}) {
    SCOPED_TRACE(checked ? "checked" : "unchecked");
    CheckedModeScope mode(checked);
    EXPECT_EQ(CopyIn(host.data(), 32), "");  // unknown memory: nothing to check
    {
      GmRegistration reg(host.data(), 128);
      EXPECT_EQ(CopyIn(host.data(), 32), "");
      EXPECT_EQ(CopyIn(host.data() + 8, 24), "");
      // No 32-byte rounding to lean on: the registered extent is the bound in unchecked mode too.
      EXPECT_EQ(CopyIn(host.data(), 40), checks::kGmBounds);
      EXPECT_EQ(CopyIn(host.data() + 8, 32), checks::kGmBounds);
    }
    EXPECT_EQ(CopyIn(host.data(), 40), "");  // registration over
  }
}

TEST(AscendcGm, IdenticalRegistrationsAreCountedAndOverlapsAccepted) {
  std::vector<float> host(64, 0.0f);
  {
    GmRegistration a(host.data(), 128);
    {
      GmRegistration b(host.data(), 128);  // another user of the same input
      EXPECT_EQ(CopyIn(host.data(), 40), checks::kGmBounds);
    }
    EXPECT_EQ(CopyIn(host.data(), 40), checks::kGmBounds);  // `a` still holds the region
    // An overlapping larger region (an output that aliases the input) holds the access.
    GmRegistration whole(host.data(), 256);
    EXPECT_EQ(CopyIn(host.data(), 40), "");
    EXPECT_EQ(CopyIn(host.data() + 8, 56), "");
    EXPECT_EQ(CopyIn(host.data() + 8, 64), checks::kGmBounds);
  }
  EXPECT_EQ(CopyIn(host.data(), 64), "");
}

TEST(AscendcGm, RegionCacheForgetsEndedRegions) {
  std::vector<float> host(64, 0.0f);
  {
    GmRegistration big(host.data(), 256);
    EXPECT_EQ(CopyIn(host.data(), 64), "");  // cached on the thread that ran the block
    EXPECT_EQ(CopyIn(host.data(), 64), "");
  }
  GmRegistration small(host.data(), 128);
  EXPECT_EQ(CopyIn(host.data(), 64), checks::kGmBounds);
}

TEST(AscendcGm, MovedRegistrationEndsOnce) {
  std::vector<float> host(64, 0.0f);
  GmRegistration outer;
  {
    GmRegistration inner(host.data(), 128);
    outer = std::move(inner);
  }
  EXPECT_EQ(CopyIn(host.data(), 40), checks::kGmBounds);  // still registered through `outer`
  GmRegistration none(nullptr, 64);                       // registers nothing
  GmRegistration empty(host.data(), 0);
  outer = GmRegistration();
  EXPECT_EQ(CopyIn(host.data(), 40), "");
}

TEST(AscendcGm, FreeFunctionsRefuseForeignMemory) {
  std::vector<float> host(16);
  GmRegistration reg(host.data(), 64);
  EXPECT_THROW(GmFree(host.data()), std::invalid_argument);
  void* pooled = lngrad::aicore::GmPoolAlloc(64);
  EXPECT_THROW(GmFree(pooled), std::invalid_argument);
  void* alloc = GmAlloc(64);
  EXPECT_THROW(lngrad::aicore::GmPoolFree(alloc), std::invalid_argument);
  EXPECT_THROW(lngrad::aicore::GmPoolFree(host.data()), std::invalid_argument);
  lngrad::aicore::GmPoolFree(pooled);
  EXPECT_THROW(lngrad::aicore::GmPoolFree(pooled), std::invalid_argument);  // twice
  lngrad::aicore::GmPoolFree(nullptr);
  GmFree(alloc);
}

TEST(AscendcGm, PooledBlocksAreAlignedBoundedReusedAndLimited) {
  lngrad::aicore::SetGmPoolLimit(size_t{1} << 20);
  void* a = lngrad::aicore::GmPoolAlloc(100 * sizeof(float));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 32, 0u);
  std::memset(a, 0, 100 * sizeof(float));
  {
    CheckedModeScope mode(true);
    EXPECT_EQ(CopyIn(static_cast<float*>(a), 96), "");
    EXPECT_EQ(CopyIn(static_cast<float*>(a) + 8, 96),
              checks::kGmBounds);  // past the 400 B asked for
  }
  {
    CheckedModeScope mode(false);
    // Unchecked mode bounds pooled blocks like GmAlloc: by the 32-byte-rounded size (416 B).
    EXPECT_EQ(CopyIn(static_cast<float*>(a) + 8, 96), "");
    EXPECT_EQ(CopyIn(static_cast<float*>(a) + 16, 96), checks::kGmBounds);
  }
  lngrad::aicore::GmPoolFree(a);
  EXPECT_GE(lngrad::aicore::GmPoolCachedBytes(), 400u);
  // Freed memory is no longer GM: a block of the same size comes back from the pool.
  void* b = lngrad::aicore::GmPoolAlloc(90 * sizeof(float));
  EXPECT_EQ(b, a);
  lngrad::aicore::GmPoolFree(b);
  lngrad::aicore::SetGmPoolLimit(0);
  EXPECT_EQ(lngrad::aicore::GmPoolCachedBytes(), 0u);
  void* c = lngrad::aicore::GmPoolAlloc(64);
  lngrad::aicore::GmPoolFree(c);
  EXPECT_EQ(lngrad::aicore::GmPoolCachedBytes(), 0u);  // a limit of 0 keeps nothing
  lngrad::aicore::SetGmPoolLimit(size_t{256} << 20);
}

TEST(AscendcGm, PoolIsThreadSafe) {
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const size_t bytes = 64 + 32 * ((i + t) % 7);
        auto* p = static_cast<uint8_t*>(lngrad::aicore::GmPoolAlloc(bytes));
        std::memset(p, t + 1, bytes);
        for (size_t k = 0; k < bytes; ++k) bad += p[k] != t + 1;
        lngrad::aicore::GmPoolFree(p);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
}

// One block's GM -> UB -> GM round trip of `count` floats through a UB buffer of its own.
void CopyThroughUb(float* to, const float* from, uint32_t count) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, count * sizeof(float));
  GlobalTensor<float> in, out;
  in.SetGlobalBuffer(const_cast<float*>(from), count);
  out.SetGlobalBuffer(to, count);
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, in, count);
  SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
  DataCopy(out, t, count);
  // The next round trip reuses the buffer: its copy-in waits for this copy-out.
  SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
}

// UB -> GM copies into a region of kStreamRegionBytes or more use streaming stores, GM -> UB
// copies from large regions read ahead: the bytes must be exactly those of plain copies, at
// every alignment DataCopy allows (GM aligned to sizeof(T) only), including the region's end.
TEST(AscendcGm, LargeRegionCopiesMoveExactlyTheBytes) {
  const size_t floats = lngrad::aicore::detail::kStreamRegionBytes / sizeof(float) + 1024;
  std::vector<float> src(floats), dst(floats, -1.0f);
  std::iota(src.begin(), src.end(), 0.5f);
  GmRegistration rs(src.data(), floats * sizeof(float)), rd(dst.data(), floats * sizeof(float));
  // Offsets in floats: 16-byte aligned, 4-byte aligned (peel), the last tile of the region;
  // copies of whole 256-byte pieces (CopyFromGm's read-ahead step) and with a 32-byte tail.
  // 8 KiB and more: above kStreamMinCopy, a whole number of 32 B.
  for (uint32_t count : {2048u, 2056u}) {
    SCOPED_TRACE(::testing::Message() << "count " << count);
    std::fill(dst.begin(), dst.end(), -1.0f);
    const size_t offsets[] = {0, 1, 3, 4096 + 7, floats - count};
    ASSERT_TRUE(lngrad::aicore::Launch(1, [&] {
                  for (size_t off : offsets) {
                    CopyThroughUb(dst.data() + off, src.data() + off, count);
                  }
                }).ok());
    std::vector<float> want(floats, -1.0f);
    for (size_t off : offsets) {
      std::memcpy(want.data() + off, src.data() + off, count * sizeof(float));
    }
    EXPECT_EQ(std::memcmp(dst.data(), want.data(), floats * sizeof(float)), 0);
  }
}

// Streamed UB -> GM copies are fenced once per block (and at each launch), not per copy: a
// block reads its own streamed stores back in program order, the caller sees every block's
// after the launch, and the blocks of a launch made from inside a block see what that block
// streamed before it. Four blocks each stream a tile into `mid`, read it back and copy it on
// into `out`; block 0 also launches two inner blocks that copy its tile from `mid` to `inner`.
TEST(AscendcGm, StreamedCopiesAreSeenByTheBlockTheCallerAndInnerLaunches) {
  const size_t floats = lngrad::aicore::detail::kStreamRegionBytes / sizeof(float) + 1024;
  constexpr uint32_t kBlocks = 4;
  constexpr uint32_t kCount = 4096;  // 16 KiB per block
  std::vector<float> src(floats), mid(floats, -1.0f), out(floats, -1.0f), inner(floats, -1.0f);
  std::iota(src.begin(), src.end(), 0.25f);
  GmRegistration rs(src.data(), floats * sizeof(float)), rm(mid.data(), floats * sizeof(float));
  GmRegistration ro(out.data(), floats * sizeof(float)), ri(inner.data(), floats * sizeof(float));
  for (int round = 0; round < 3; ++round) {
    std::fill(mid.begin(), mid.end(), -1.0f);
    std::fill(out.begin(), out.end(), -1.0f);
    std::fill(inner.begin(), inner.end(), -1.0f);
    std::atomic<bool> inner_ok{true};
    ASSERT_TRUE(lngrad::aicore::Launch(kBlocks, [&] {
                  const size_t off = static_cast<size_t>(GetBlockIdx()) * kCount;
                  CopyThroughUb(mid.data() + off, src.data() + off, kCount);
                  CopyThroughUb(out.data() + off, mid.data() + off, kCount);
                  if (GetBlockIdx() == 0) {
                    constexpr uint32_t kHalf = kCount / 2;
                    const bool ok = lngrad::aicore::Launch(2, [&] {
                                      const size_t o = static_cast<size_t>(GetBlockIdx()) * kHalf;
                                      CopyThroughUb(inner.data() + o, mid.data() + o, kHalf);
                                    }).ok();
                    if (!ok) inner_ok = false;
                  }
                }).ok());
    EXPECT_TRUE(inner_ok.load());
    const size_t n = size_t{kBlocks} * kCount;
    EXPECT_EQ(std::memcmp(mid.data(), src.data(), n * sizeof(float)), 0) << "round " << round;
    EXPECT_EQ(std::memcmp(out.data(), src.data(), n * sizeof(float)), 0) << "round " << round;
    EXPECT_EQ(std::memcmp(inner.data(), src.data(), kCount * sizeof(float)), 0)
        << "round " << round;
    EXPECT_EQ(mid[n], -1.0f);
    EXPECT_EQ(out[n], -1.0f);
    EXPECT_EQ(inner[kCount], -1.0f);
  }
}

// Launches reuse pooled helper threads, the calling thread runs blocks too, and a kernel may
// launch from inside a block.
std::set<std::thread::id> HelperThreads(uint32_t blocks) {
  std::mutex mu;
  std::set<std::thread::id> ids;
  EXPECT_TRUE(lngrad::aicore::Launch(blocks, [&] {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                std::lock_guard lock(mu);
                ids.insert(std::this_thread::get_id());
              }).ok());
  return ids;
}

TEST(AscendcGm, HelperThreadsAreReusedAcrossLaunches) {
  const uint32_t participants = std::max(2u, std::thread::hardware_concurrency());
  std::set<std::thread::id> all;
  bool helper_ran = false;
  for (int i = 0; i < 10; ++i) {
    std::set<std::thread::id> ids = HelperThreads(32);
    ids.erase(std::this_thread::get_id());
    helper_ran = helper_ran || !ids.empty();
    all.insert(ids.begin(), ids.end());
  }
  EXPECT_TRUE(helper_ran);
  // Thread-per-launch would show up to 10 * participants distinct threads.
  EXPECT_LE(all.size(), participants - 1);
}

TEST(AscendcGm, ConcurrentAndNestedLaunchesComplete) {
  std::atomic<int> inner_blocks{0};
  auto outer = [&] {
    for (int i = 0; i < 20; ++i) {
      std::vector<int32_t> out(16, -1);
      const lngrad::Status s = lngrad::aicore::Launch(16, [&] {
        const int64_t b = GetBlockIdx();
        if (b == 3) {
          // A launch from inside a block: the block's thread runs it (the helpers may be busy).
          EXPECT_TRUE(lngrad::aicore::Launch(4, [&] { ++inner_blocks; }).ok());
          EXPECT_EQ(GetBlockIdx(), 3);  // the outer block's context is back
        }
        out[static_cast<size_t>(b)] = static_cast<int32_t>(b * 10);
      });
      EXPECT_TRUE(s.ok()) << s.ToString();
      for (int b = 0; b < 16; ++b) EXPECT_EQ(out[static_cast<size_t>(b)], b * 10);
    }
  };
  std::thread t1(outer), t2(outer);
  t1.join();
  t2.join();
  EXPECT_EQ(inner_blocks.load(), 2 * 20 * 4);
}

}  // namespace
