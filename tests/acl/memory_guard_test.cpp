// Device memory that kernels and copies cannot use to reach host memory (issue 27): a kernel
// writing a tile just past the end of an aclrtMalloc allocation or into memory freed by
// aclrtFree fails its stream with ACL_ERROR_RT_AICORE_EXCEPTION in checked and unchecked mode
// (and writes nothing); a kernel that catches the check still fails; aclrtMemcpy refuses a freed
// device pointer whatever the kind.
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "lngrad_acl/launch.h"
#include "lngrad_aicore/gm.h"

#include "acl_test_util.h"
#include "write_tile_kernel.h"

namespace {

using lngrad::acl_test::kTile;
using lngrad::acl_test::kTileValue;
using lngrad::acl_test::TakeMsg;

// Writes kTileValue to one tile at element `at` of z (a GlobalTensor of unknown size); with
// `catch_all`, the kernel catches whatever that raises and returns normally.
__global__ __aicore__ void write_tile(GM_ADDR z, uint32_t at, bool catch_all) {
  if (!catch_all) {
    lngrad::acl_test::WriteTileAt(z, at);
    return;
  }
  try {
    lngrad::acl_test::WriteTileAt(z, at);
  } catch (...) {  // NOLINT(bugprone-empty-catch): the kernel under test swallows the check
  }
}

class MemoryGuard : public lngrad::acl_test::StreamTest {
 protected:
  void TearDown() override {
    StreamTest::TearDown();
    lngrad::aicore::SetCheckedMode(true);
  }
  // write_tile<<<1, nullptr, stream_>>>(z, at, catch_all); returns the stream's status and
  // leaves its message in *msg.
  aclError WriteTile(void* z, uint32_t at, bool catch_all, std::string* msg) {
    ::testing::internal::CaptureStderr();
    ::lngrad::acl::LaunchKernel(
        "write_tile", __FILE__, __LINE__, (1), (nullptr), (stream_),
        [&](auto&&... lngrad_args) { write_tile(lngrad_args...); }, z, at, catch_all);
    (void)::testing::internal::GetCapturedStderr();
    const aclError rc = aclrtSynchronizeStream(stream_);
    *msg = TakeMsg();
    return rc;
  }
  // A launch that writes tile `at` of z fails its stream with ACL_ERROR_RT_AICORE_EXCEPTION and
  // a message that holds each of `needles`.
  void ExpectRefused(void* z, uint32_t at, std::initializer_list<const char*> needles,
                     bool catch_all = false) {
    std::string msg;
    EXPECT_EQ(WriteTile(z, at, catch_all, &msg), ACL_ERROR_RT_AICORE_EXCEPTION);
    for (const char* needle : needles) EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
  // A device pointer to `tiles` tiles, freed again; nullptr (and a failure) if a call fails.
  static void* FreedTiles(uint32_t tiles) {
    void* p = nullptr;
    if (aclrtMalloc(&p, tiles * kTile * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtFree(p) != ACL_SUCCESS) {
      ADD_FAILURE() << "aclrtMalloc or aclrtFree failed";
      return nullptr;
    }
    return p;
  }
  // A launch that writes tile `at` of z succeeds.
  void ExpectWritten(void* z, uint32_t at, bool catch_all = false) {
    std::string msg;
    EXPECT_EQ(WriteTile(z, at, catch_all, &msg), ACL_SUCCESS) << msg;
  }
  // body() in checked, then unchecked mode (traced); a fatal failure ends the loop.
  template <class Body>
  void InBothModes(Body body) {
    for (bool checked : {true, false}) {
      SCOPED_TRACE(checked ? "checked" : "unchecked");
      lngrad::aicore::SetCheckedMode(checked);
      body();
      if (HasFatalFailure()) return;
    }
  }
};

// The off-by-one: 8 tiles allocated (2048 B, a multiple of 512: no rounding behind the end),
// tile 8 written. It used to succeed and corrupt the heap (SIGSEGV later).
TEST_F(MemoryGuard, TileJustPastTheEndFailsTheStreamInBothModes) {
  InBothModes([&] {
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 8 * kTile * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ExpectRefused(dev, 8 * kTile, {"[gm_bounds]"});
    const float* end = static_cast<const float*>(dev) + 8 * kTile;
    for (uint32_t i = 0; i < kTile; ++i) ASSERT_NE(end[i], kTileValue) << i;
    ExpectWritten(dev, 7 * kTile);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  });
}

TEST_F(MemoryGuard, WriteAfterFreeFailsTheStreamInBothModes) {
  InBothModes([&] {
    void* dev = FreedTiles(4);
    ASSERT_NE(dev, nullptr);
    ExpectRefused(dev, kTile, {"[gm_freed]"});
  });
}

TEST_F(MemoryGuard, AKernelThatCatchesTheCheckStillFails) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, kTile * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ExpectRefused(dev, kTile, {"[gm_bounds]"}, true);
  ExpectWritten(dev, 0, true);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(MemoryGuard, CopiesRefuseAFreedDevicePointerWhateverTheKind) {
  const size_t bytes = 4 * kTile * sizeof(float);
  void* dev = FreedTiles(4);
  ASSERT_NE(dev, nullptr);
  std::vector<char> host(bytes, 1);
  char* inside = static_cast<char*>(dev) + 100;
  struct Case {
    void* dst;
    const void* src;
    aclrtMemcpyKind kind;
  };
  for (const Case& c :
       {Case{dev, host.data(), ACL_MEMCPY_DEFAULT}, Case{host.data(), inside, ACL_MEMCPY_DEFAULT},
        Case{dev, host.data(), ACL_MEMCPY_HOST_TO_DEVICE},
        Case{host.data(), dev, ACL_MEMCPY_DEVICE_TO_HOST},
        Case{inside, host.data(), ACL_MEMCPY_HOST_TO_HOST}}) {
    SCOPED_TRACE(::testing::Message() << "kind " << static_cast<int>(c.kind));
    (void)TakeMsg();
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(aclrtMemcpy(c.dst, 512, c.src, 512, c.kind), ACL_ERROR_RT_PARAM_INVALID);
    (void)::testing::internal::GetCapturedStderr();
    const std::string msg = TakeMsg();
    EXPECT_NE(msg.find("which was freed (aclrtFree)"), std::string::npos) << msg;
  }
  EXPECT_EQ(host, std::vector<char>(bytes, 1)) << "nothing was copied";
}

// A kernel on the device sees only device memory: a <<<>>> launch refuses GM accesses that start
// outside every live GM region (a host array, an aclrtMallocHost block), in both modes, before
// a byte is written. They used to be taken as host memory the caller bounds, and written.
TEST_F(MemoryGuard, HostMemoryIsNotDeviceMemoryInALaunch) {
  InBothModes([&] {
    std::vector<float> host(4 * kTile, 1.0f);
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 4 * kTile * sizeof(float)), ACL_SUCCESS);
    std::memset(pinned, 0, 4 * kTile * sizeof(float));
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 4 * kTile * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (void* z : {static_cast<void*>(host.data()), pinned}) {
      ExpectRefused(z, kTile,
                    {"[gm_bounds]", "are not device memory", "the nearest GM region is the"});
    }
    EXPECT_EQ(host, std::vector<float>(4 * kTile, 1.0f)) << "nothing was written";
    const float* p = static_cast<const float*>(pinned);
    EXPECT_EQ(std::vector<float>(p, p + 4 * kTile), std::vector<float>(4 * kTile, 0.0f));
    ExpectWritten(dev, kTile);
    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  });
}

// A block freed so long ago that the runtime gave it back to the host (kGmFreedKeepBlocks
// younger frees followed it) is no longer gm_freed but host memory: still refused in a launch.
TEST_F(MemoryGuard, MemoryFreedLongAgoIsNotDeviceMemoryInALaunch) {
  InBothModes([&] {
    void* old = FreedTiles(4);
    ASSERT_NE(old, nullptr);
    std::vector<void*> younger(lngrad::aicore::detail::kGmFreedKeepBlocks);
    for (void*& y : younger) ASSERT_EQ(aclrtMalloc(&y, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (void* y : younger) ASSERT_EQ(aclrtFree(y), ACL_SUCCESS);
    lngrad::aicore::detail::FreedGm freed;
    ASSERT_FALSE(lngrad::aicore::detail::FindFreedGm(old, &freed)) << "still held";
    ExpectRefused(old, 0, {"are not device memory"});
  });
}

}  // namespace
