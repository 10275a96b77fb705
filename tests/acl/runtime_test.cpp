// Tests of the ACL host runtime (src/acl, include/ascendc/acl): every function, every misuse,
// the vendor's numeric values, and the error reporting (return code, one stderr line,
// aclGetRecentErrMsg).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "lngrad_aicore/launch.h"
#include "lngrad/product.h"

#include "acl_test_util.h"

namespace {

using lngrad::acl_test::TakeMsg;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// Runs a call that must fail: checks the code, that stderr got exactly one line naming the API,
// and that aclGetRecentErrMsg holds the message; returns that message.
template <typename F>
std::string ExpectFailure(aclError expected, const std::string& api, F&& call) {
  (void)TakeMsg();
  ::testing::internal::CaptureStderr();
  const aclError got = call();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(got, expected) << api;
  EXPECT_EQ(Count(err, "lngrad acl: "), 1u) << err;
  EXPECT_NE(err.find(api), std::string::npos) << err;
  const std::string msg = TakeMsg();
  EXPECT_NE(msg.find(api), std::string::npos) << msg;
  EXPECT_NE(msg.find(std::to_string(expected)), std::string::npos) << msg;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "aclGetRecentErrMsg clears the messages";
  return msg;
}

// A device set on this thread for the test's duration.
class WithDevice : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
  void TearDown() override { EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS); }
};

TEST(AclValues, ReturnCodesAreTheVendors) {
  EXPECT_EQ(ACL_SUCCESS, 0);
  EXPECT_EQ(ACL_ERROR_NONE, 0);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, 100000);
  EXPECT_EQ(ACL_ERROR_UNINITIALIZE, 100001);
  EXPECT_EQ(ACL_ERROR_REPEAT_INITIALIZE, 100002);
  EXPECT_EQ(ACL_ERROR_INVALID_FILE, 100003);
  EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, 100037);
  EXPECT_EQ(ACL_ERROR_BAD_ALLOC, 200000);
  EXPECT_EQ(ACL_ERROR_INVALID_DEVICE, 200002);
  EXPECT_EQ(ACL_ERROR_STORAGE_OVER_LIMIT, 300000);
  EXPECT_EQ(ACL_ERROR_INTERNAL_ERROR, 500000);
  EXPECT_EQ(ACL_ERROR_RT_FAILURE, 500003);
  EXPECT_EQ(ACL_RT_SUCCESS, 0);
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, 107000);
  EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, 107001);
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, 107002);
  EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000);
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, 207001);
  EXPECT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, 507000);
  EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, 507015);
  EXPECT_EQ(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, 507035);
}

TEST(AclValues, EnumsAreTheVendors) {
  EXPECT_EQ(ACL_MEMCPY_HOST_TO_HOST, 0);
  EXPECT_EQ(ACL_MEMCPY_HOST_TO_DEVICE, 1);
  EXPECT_EQ(ACL_MEMCPY_DEVICE_TO_HOST, 2);
  EXPECT_EQ(ACL_MEMCPY_DEVICE_TO_DEVICE, 3);
  EXPECT_EQ(ACL_MEMCPY_DEFAULT, 4);
  EXPECT_EQ(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, 5);
  EXPECT_EQ(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, 6);
  EXPECT_EQ(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 7);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE_FIRST, 0);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE_ONLY, 1);
  EXPECT_EQ(ACL_MEM_MALLOC_NORMAL_ONLY, 2);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE_FIRST_P2P, 3);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE_ONLY_P2P, 4);
  EXPECT_EQ(ACL_MEM_MALLOC_NORMAL_ONLY_P2P, 5);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE1G_ONLY, 6);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, 7);
  EXPECT_EQ(ACL_MEM_TYPE_LOW_BAND_WIDTH, 0x0100);
  EXPECT_EQ(ACL_MEM_TYPE_HIGH_BAND_WIDTH, 0x1000);
  EXPECT_EQ(ACL_MEM_ACCESS_USER_SPACE_READONLY, 0x100000);
}

// --- aclInit / aclFinalize -------------------------------------------------------------------

TEST(AclInit, InitFinalizeAndTheirRepeats) {
  // This process's first aclFinalize: aclInit never ran.
  ExpectFailure(ACL_ERROR_UNINITIALIZE, "aclFinalize", [] { return aclFinalize(); });
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ExpectFailure(ACL_ERROR_REPEAT_INITIALIZE, "aclInit", [] { return aclInit(nullptr); });
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  ExpectFailure(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize", [] { return aclFinalize(); });
  // Initialising again after a finalisation is allowed.
  EXPECT_EQ(aclInit(""), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(AclInit, ConfigPathMustBeReadable) {
  const std::string missing = ::testing::TempDir() + "/lngrad_acl_no_such_config.json";
  std::remove(missing.c_str());
  const std::string msg =
      ExpectFailure(ACL_ERROR_INVALID_FILE, "aclInit", [&] { return aclInit(missing.c_str()); });
  EXPECT_NE(msg.find(missing), std::string::npos) << msg;
  const std::string present = ::testing::TempDir() + "/lngrad_acl_config.json";
  std::FILE* f = std::fopen(present.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("{}", f);
  std::fclose(f);
  EXPECT_EQ(aclInit(present.c_str()), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(AclInit, RuntimeCallsDoNotNeedAclInit) {
  // As with the vendor's runtime: aclInit loads configuration, the devices work without it.
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

// --- devices and contexts --------------------------------------------------------------------

TEST(AclDevice, SetGetReset) {
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 8u);
  int32_t id = -1;
  ExpectFailure(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice", [&] { return aclrtGetDevice(&id); });
  ASSERT_EQ(aclrtSetDevice(3), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  EXPECT_EQ(id, 3);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  EXPECT_EQ(id, 1);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(3), ACL_SUCCESS);
  ExpectFailure(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice", [&] { return aclrtGetDevice(&id); });
  // Resetting a device that holds no reference does nothing.
  EXPECT_EQ(aclrtResetDevice(2), ACL_SUCCESS);
}

TEST(AclDevice, InvalidIdsAndNullArguments) {
  ExpectFailure(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice", [] { return aclrtSetDevice(8); });
  ExpectFailure(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice", [] { return aclrtSetDevice(-1); });
  ExpectFailure(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice",
                [] { return aclrtResetDevice(99); });
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice", [] { return aclrtGetDevice(nullptr); });
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount",
                [] { return aclrtGetDeviceCount(nullptr); });
}

TEST(AclDevice, TheCurrentDeviceIsPerThread) {
  ASSERT_EQ(aclrtSetDevice(2), ACL_SUCCESS);
  aclError other = ACL_SUCCESS;
  std::thread t([&] {
    int32_t id = -1;
    other = aclrtGetDevice(&id);
    (void)aclGetRecentErrMsg();
  });
  t.join();
  EXPECT_EQ(other, ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtResetDevice(2), ACL_SUCCESS);
}

TEST(AclDevice, TheLastResetDestroysTheDefaultStreamsContext) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // two references
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << "one reference left";
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtSynchronizeStream",
                [&] { return aclrtSynchronizeStream(s); });
  ExpectFailure(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream",
                [&] { return aclrtCreateStream(&s); });
}

TEST(AclContext, CreateDestroy) {
  aclrtContext ctx = nullptr;
  ASSERT_EQ(aclrtCreateContext(&ctx, 5), ACL_SUCCESS);
  ASSERT_NE(ctx, nullptr);
  int32_t id = -1;
  ASSERT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  EXPECT_EQ(id, 5) << "the new context is current";
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
  ExpectFailure(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice", [&] { return aclrtGetDevice(&id); });
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyStream",
                [&] { return aclrtDestroyStream(s); });
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyContext",
                [&] { return aclrtDestroyContext(ctx); });
}

TEST(AclContext, Misuse) {
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext",
                [] { return aclrtCreateContext(nullptr, 0); });
  aclrtContext ctx = nullptr;
  ExpectFailure(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtCreateContext",
                [&] { return aclrtCreateContext(&ctx, 8); });
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext",
                [] { return aclrtDestroyContext(nullptr); });
  int not_a_context = 0;
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyContext",
                [&] { return aclrtDestroyContext(&not_a_context); });
}

// --- streams ---------------------------------------------------------------------------------

TEST_F(WithDevice, StreamCreateSynchronizeDestroy) {
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "the default stream";
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyStream",
                [&] { return aclrtDestroyStream(s); });
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtSynchronizeStream",
                [&] { return aclrtSynchronizeStream(s); });
}

TEST_F(WithDevice, StreamMisuse) {
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream",
                [] { return aclrtCreateStream(nullptr); });
  const std::string msg = ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream",
                                        [] { return aclrtDestroyStream(nullptr); });
  EXPECT_NE(msg.find("nullptr"), std::string::npos) << msg;
  int not_a_stream = 0;
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtSynchronizeStream",
                [&] { return aclrtSynchronizeStream(&not_a_stream); });
}

TEST(AclStream, NeedsADevice) {
  aclrtStream s = nullptr;
  ExpectFailure(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream",
                [&] { return aclrtCreateStream(&s); });
  ExpectFailure(ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeStream",
                [] { return aclrtSynchronizeStream(nullptr); });
}

// --- memory ----------------------------------------------------------------------------------

TEST_F(WithDevice, MallocFreeRoundTrip) {
  std::vector<float> in(100), out(100, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = 0.5f * static_cast<float>(i);
  const size_t bytes = in.size() * sizeof(float);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  // 512-byte aligned like device memory (GroupBarrier needs it of its workspace).
  EXPECT_EQ(reinterpret_cast<uintptr_t>(dev) % 512, 0u);
  std::vector<float> zero(100, 1.0f);
  ASSERT_EQ(aclrtMemcpy(zero.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(zero, std::vector<float>(100, 0.0f)) << "device memory starts zeroed";
  ASSERT_EQ(aclrtMemcpy(dev, bytes, in.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  void* dev2 = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev2, bytes, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev2, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(out.data(), bytes, dev2, bytes, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(out, in);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev2), ACL_SUCCESS);
}

TEST_F(WithDevice, MallocMisuse) {
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtMalloc",
                [] { return aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST); });
  void* p = nullptr;
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtMalloc",
                [&] { return aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST); });
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtFree", [] { return aclrtFree(nullptr); });
}

// Sizes the process cannot have are refused before any rounding (issue 27: SIZE_MAX used to
// wrap to a tiny block recorded as 2^64 bytes, after which a memset overflowed the heap).
TEST_F(WithDevice, MallocOfSizesNoProcessCanHave) {
  for (size_t size :
       {SIZE_MAX, SIZE_MAX - 10, SIZE_MAX - 511, size_t{1} << 63, (size_t{1} << 47) + 1}) {
    void* p = reinterpret_cast<void*>(uintptr_t{1});
    const std::string msg = ExpectFailure(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc", [&] {
      return aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST);
    });
    EXPECT_NE(msg.find(std::to_string(size)), std::string::npos) << msg;
    EXPECT_EQ(p, reinterpret_cast<void*>(uintptr_t{1})) << "devPtr is left alone";
  }
  // No host pointer became device memory on the way.
  std::vector<char> host(1 << 20);
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset",
                [&] { return aclrtMemset(host.data(), host.size(), 0, host.size()); });
  EXPECT_THROW(AscendC::GmAlloc(SIZE_MAX), std::bad_alloc);
  EXPECT_THROW(lngrad::aicore::GmPoolAlloc(SIZE_MAX - 100), std::bad_alloc);
}

// A count near 2^64 must not wrap the range check (offset + count).
TEST_F(WithDevice, CopyOfHugeCountsIsBounded) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<char> host(256, 1);
  char* at = static_cast<char*>(dev) + 60;
  for (size_t count : {SIZE_MAX, SIZE_MAX - 59, SIZE_MAX - 30}) {
    ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy", [&] {
      return aclrtMemcpy(at, SIZE_MAX, host.data(), count, ACL_MEMCPY_HOST_TO_DEVICE);
    });
    ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset",
                  [&] { return aclrtMemset(at, SIZE_MAX, 0, count); });
  }
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

// ACL_MEMCPY_DEFAULT: a pointer just past a device allocation is an off-by-one, not host memory.
TEST_F(WithDevice, DefaultCopyRefusesPointersJustPastDeviceMemory) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<char> host(64, 1);
  for (size_t past : {size_t{100}, size_t{101}, size_t{511}, size_t{512}}) {
    char* p = static_cast<char*>(dev) + past;
    std::string msg = ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy", [&] {
      return aclrtMemcpy(p, 16, host.data(), 16, ACL_MEMCPY_DEFAULT);
    });
    EXPECT_NE(msg.find("dst"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(past - 100) + " B past the end of the 100 B device"),
              std::string::npos)
        << msg;
    msg = ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy",
                        [&] { return aclrtMemcpy(host.data(), 64, p, 16, ACL_MEMCPY_DEFAULT); });
    EXPECT_NE(msg.find("src"), std::string::npos) << msg;
  }
  EXPECT_EQ(host, std::vector<char>(64, 1)) << "nothing was copied";
  // Inside it, and plain host memory, DEFAULT still copies.
  EXPECT_EQ(aclrtMemcpy(static_cast<char*>(dev) + 84, 16, host.data(), 16, ACL_MEMCPY_DEFAULT),
            ACL_SUCCESS);
  std::vector<char> other(16, 0);
  EXPECT_EQ(aclrtMemcpy(other.data(), 16, host.data(), 16, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(other, std::vector<char>(16, 1));
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST(AclMemory, DeviceMemoryNeedsADevice) {
  void* p = nullptr;
  ExpectFailure(ACL_ERROR_RT_CONTEXT_NULL, "aclrtMalloc",
                [&] { return aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST); });
  char a[8] = {}, b[8] = {};
  ExpectFailure(ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemcpy",
                [&] { return aclrtMemcpy(a, 8, b, 8, ACL_MEMCPY_HOST_TO_HOST); });
  ExpectFailure(ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemset", [&] { return aclrtMemset(a, 8, 0, 8); });
}

TEST_F(WithDevice, DoubleFree) {
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
  const std::string msg =
      ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtFree", [&] { return aclrtFree(p); });
  EXPECT_NE(msg.find("freed already"), std::string::npos) << msg;
}

TEST_F(WithDevice, FreeOfForeignPointers) {
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtFree",
                [&] { return aclrtFree(static_cast<char*>(p) + 32); });
  void* h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 64), ACL_SUCCESS);
  const std::string msg =
      ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtFree", [&] { return aclrtFree(h); });
  EXPECT_NE(msg.find("aclrtFreeHost"), std::string::npos) << msg;
  const std::string msg2 =
      ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtFreeHost", [&] { return aclrtFreeHost(p); });
  EXPECT_NE(msg2.find("aclrtFree"), std::string::npos) << msg2;
  int local = 0;
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtFree", [&] { return aclrtFree(&local); });
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
}

TEST(AclMemory, HostMemory) {
  void* h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 100), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(h) % 64, 0u);
  std::memset(h, 0x5a, 100);
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost",
                [] { return aclrtMallocHost(nullptr, 8); });
  void* q = nullptr;
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost", [&] { return aclrtMallocHost(&q, 0); });
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost", [] { return aclrtFreeHost(nullptr); });
  ASSERT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  // Kept until aclFinalize: the data is still there and the address is not handed out again.
  EXPECT_EQ(static_cast<unsigned char*>(h)[99], 0x5a);
  void* again = nullptr;
  ASSERT_EQ(aclrtMallocHost(&again, 100), ACL_SUCCESS);
  EXPECT_NE(again, h);
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtFreeHost", [&] { return aclrtFreeHost(h); });
  EXPECT_EQ(aclrtFreeHost(again), ACL_SUCCESS);
}

TEST_F(WithDevice, CopyPastAnAllocation) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<char> host(256, 1);
  std::string msg = ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy", [&] {
    return aclrtMemcpy(dev, 256, host.data(), 101, ACL_MEMCPY_HOST_TO_DEVICE);
  });
  EXPECT_NE(msg.find("[0, 101)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("100 B device allocation"), std::string::npos) << msg;
  msg = ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy", [&] {
    return aclrtMemcpy(host.data(), 256, static_cast<char*>(dev) + 60, 41,
                       ACL_MEMCPY_DEVICE_TO_HOST);
  });
  EXPECT_NE(msg.find("[60, 101)"), std::string::npos) << msg;
  // Exactly to the end is fine.
  EXPECT_EQ(
      aclrtMemcpy(host.data(), 256, static_cast<char*>(dev) + 60, 40, ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  // aclrtMallocHost blocks are bounded too.
  void* h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 50), ACL_SUCCESS);
  msg = ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy",
                      [&] { return aclrtMemcpy(h, 256, dev, 51, ACL_MEMCPY_DEVICE_TO_HOST); });
  EXPECT_NE(msg.find("host block"), std::string::npos) << msg;
  EXPECT_EQ(host[0], 0) << "the good copy above read zeroed device memory";
  EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(WithDevice, CopyKindMustMatchThePointers) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<char> host(64, 7), host2(64, 0);
  std::string msg = ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy", [&] {
    return aclrtMemcpy(host.data(), 64, dev, 64, ACL_MEMCPY_HOST_TO_DEVICE);
  });
  EXPECT_NE(msg.find("ACL_MEMCPY_HOST_TO_DEVICE"), std::string::npos) << msg;
  EXPECT_EQ(host[0], 7) << "nothing was copied";
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy",
                [&] { return aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_DEVICE_TO_HOST); });
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy",
                [&] { return aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_DEVICE_TO_DEVICE); });
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy",
                [&] { return aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_HOST); });
  // Host to host and the host-buffer kind work.
  EXPECT_EQ(aclrtMemcpy(host2.data(), 64, host.data(), 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host2, host);
  EXPECT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(WithDevice, CopyArgumentChecks) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char host[64] = {};
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy",
                [&] { return aclrtMemcpy(nullptr, 64, host, 8, ACL_MEMCPY_HOST_TO_DEVICE); });
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy",
                [&] { return aclrtMemcpy(dev, 64, nullptr, 8, ACL_MEMCPY_HOST_TO_DEVICE); });
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy",
                [&] { return aclrtMemcpy(dev, 64, dev, 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE); });
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy",
                [&] { return aclrtMemcpy(dev, 64, dev, 8, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE); });
  const std::string msg = ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy", [&] {
    return aclrtMemcpy(dev, 16, host, 32, ACL_MEMCPY_HOST_TO_DEVICE);
  });
  EXPECT_NE(msg.find("destMax 16"), std::string::npos) << msg;
  // count == 0 succeeds without looking at anything else, as the vendor's runtime does.
  EXPECT_EQ(aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(WithDevice, MemcpyAsync) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const char in[32] = "asynchronous copy, synchronous!";
  char out[32] = {};
  ASSERT_EQ(aclrtMemcpyAsync(dev, 32, in, 32, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(out, 32, dev, 32, ACL_MEMCPY_DEVICE_TO_HOST, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_STREQ(out, in);
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyAsync",
                [&] { return aclrtMemcpyAsync(dev, 32, in, 33, ACL_MEMCPY_HOST_TO_DEVICE, s); });
  ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyAsync",
                [&] { return aclrtMemcpyAsync(dev, 32, in, 32, ACL_MEMCPY_HOST_TO_DEVICE, s); });
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(WithDevice, Memset) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(dev, 64, 0x1ab, 40), ACL_SUCCESS);  // only the low byte counts
  unsigned char out[64];
  ASSERT_EQ(aclrtMemcpy(out, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(out[0], 0xab);
  EXPECT_EQ(out[39], 0xab);
  EXPECT_EQ(out[40], 0);
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset",
                [&] { return aclrtMemset(dev, 8, 0, 9); });
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset",
                [&] { return aclrtMemset(static_cast<char*>(dev) + 32, 64, 0, 33); });
  ExpectFailure(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset",
                [&] { return aclrtMemset(out, 64, 0, 8); });
  ExpectFailure(ACL_ERROR_INVALID_PARAM, "aclrtMemset",
                [] { return aclrtMemset(nullptr, 8, 0, 8); });
  EXPECT_EQ(aclrtMemset(nullptr, 0, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

// --- SoC name and error messages -------------------------------------------------------------

TEST(AclSoc, NameIsTheSimulatedProduct) {
  EXPECT_STREQ(aclrtGetSocName(), std::string(lngrad::CurrentProduct().soc).c_str());
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend310P3").ok());
  EXPECT_STREQ(aclrtGetSocName(), "Ascend310P3");
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend910B1").ok());
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B1");
}

TEST(AclErrMsg, LatestFirstClearedAndPerThread) {
  (void)TakeMsg();
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDevice(100), ACL_ERROR_RT_INVALID_DEVICEID);
  (void)::testing::internal::GetCapturedStderr();
  std::string other;
  std::thread t([&] {
    const char* m = aclGetRecentErrMsg();
    other = m == nullptr ? "none" : m;
  });
  t.join();
  EXPECT_EQ(other, "none") << "messages belong to the thread that failed";
  const std::string msg = TakeMsg();
  const size_t first = msg.find("aclrtSetDevice");
  const size_t second = msg.find("aclrtFree");
  ASSERT_NE(first, std::string::npos) << msg;
  ASSERT_NE(second, std::string::npos) << msg;
  EXPECT_LT(first, second) << "latest on top: " << msg;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

// --- securec ---------------------------------------------------------------------------------

TEST(AclSecurec, MemcpyS) {
  char dst[8] = "abcdefg";
  const char src[8] = "1234567";
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 4), EOK);
  EXPECT_EQ(std::string(dst), "1234efg");
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 0), EOK);
  EXPECT_EQ(memcpy_s(dst, 0, src, 4), ERANGE);
  EXPECT_EQ(std::string(dst), "1234efg") << "ERANGE writes nothing";
  EXPECT_EQ(memcpy_s(nullptr, 8, src, 4), EINVAL);
  EXPECT_EQ(memcpy_s(dst, sizeof dst, nullptr, 4), EINVAL_AND_RESET);
  EXPECT_EQ(dst[0], 0);
  std::memcpy(dst, "abcdefg", 8);
  EXPECT_EQ(memcpy_s(dst, 4, src, 5), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(dst, 8), std::string("\0\0\0\0efg\0", 8));
  std::memcpy(dst, "abcdefg", 8);
  EXPECT_EQ(memcpy_s(dst + 1, 7, dst, 3), EOVERLAP_AND_RESET);
  EXPECT_EQ(dst[0], 'a');
  EXPECT_EQ(dst[1], 0);
  EXPECT_EQ(EINVAL_AND_RESET, 150);
  EXPECT_EQ(ERANGE_AND_RESET, 162);
  EXPECT_EQ(EOVERLAP_AND_RESET, 182);
}

TEST(AclSecurec, MemsetS) {
  char dst[8] = "abcdefg";
  EXPECT_EQ(memset_s(dst, sizeof dst, 'x', 3), EOK);
  EXPECT_EQ(std::string(dst), "xxxdefg");
  EXPECT_EQ(memset_s(dst, 0, 'y', 3), ERANGE);
  EXPECT_EQ(memset_s(nullptr, 8, 'y', 3), EINVAL);
  EXPECT_EQ(memset_s(dst, 4, 'z', 6), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(dst), "zzzzefg");
  EXPECT_EQ(memset_s(dst, sizeof dst, 'q', 0), EOK);
}

}  // namespace
