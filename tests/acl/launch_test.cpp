// Tests of the <<<>>> launcher (lngrad_acl/launch.h): LaunchKernel called exactly as the compiler
// driver emits it, with template kernels of several template arguments, several launches per
// stream, argument handling, and failures that fail the stream.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "lngrad_acl/launch.h"

#include "acl_test_util.h"

namespace {

constexpr int32_t kTile = 64;  // elements per block

// z = x * kScale + y for one tile per block: a template kernel with a type, a value and a
// second type argument, in the vendor's style (TPipe, TQue, DataCopy).
template <typename T, int32_t kScale, typename Index>
__global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, Index tile) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> qx, qy;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> qz;
  AscendC::GlobalTensor<T> gx, gy, gz;
  const int64_t off = AscendC::GetBlockIdx() * tile;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + off, tile);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + off, tile);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + off, tile);
  pipe.InitBuffer(qx, 1, tile * sizeof(T));
  pipe.InitBuffer(qy, 1, tile * sizeof(T));
  pipe.InitBuffer(qz, 1, tile * sizeof(T));
  AscendC::LocalTensor<T> lx = qx.AllocTensor<T>();
  AscendC::LocalTensor<T> ly = qy.AllocTensor<T>();
  AscendC::DataCopy(lx, gx, tile);
  AscendC::DataCopy(ly, gy, tile);
  qx.EnQue(lx);
  qy.EnQue(ly);
  lx = qx.DeQue<T>();
  ly = qy.DeQue<T>();
  AscendC::LocalTensor<T> lz = qz.AllocTensor<T>();
  AscendC::Muls(lz, lx, static_cast<T>(kScale), tile);
  AscendC::Add(lz, lz, ly, tile);
  qz.EnQue(lz);
  qx.FreeTensor(lx);
  qy.FreeTensor(ly);
  lz = qz.DeQue<T>();
  AscendC::DataCopy(gz, lz, tile);
  qz.FreeTensor(lz);
}

// Reads one tile more than it was given in the last block: fails the GM bounds check there.
__global__ __aicore__ void overread(GM_ADDR x, GM_ADDR z, uint32_t tile) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * tile * sizeof(float));
  AscendC::LocalTensor<float> l = buf.Get<float>();
  AscendC::GlobalTensor<float> gx;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
  const uint32_t n = AscendC::GetBlockIdx() + 1 == AscendC::GetBlockNum() ? 2 * tile : tile;
  AscendC::DataCopy(l, gx[AscendC::GetBlockIdx() * tile], n);
  (void)z;
}

std::atomic<int> g_calls{0};
std::atomic<int> g_seen_value{0};
__global__ __aicore__ void count_calls(int value, float* unused) {
  g_calls.fetch_add(1);
  g_seen_value.store(value);
  (void)unused;
}

// Takes its argument by reference and modifies it: each block must see the launch's value, so
// each block needs its own copy.
std::atomic<int> g_bad_copies{0};
struct Arg {
  int v;
};
__global__ __aicore__ void mutate(Arg& a) {
  if (a.v != 7) g_bad_copies.fetch_add(1);
  a.v = 99;
}

using lngrad::acl_test::TakeMsg;

class Launch : public lngrad::acl_test::StreamTest {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    StreamTest::SetUp();
    if (HasFatalFailure()) return;
    (void)TakeMsg();
  }
  void TearDown() override {
    StreamTest::TearDown();
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }

  template <typename T>
  uint8_t* Upload(const std::vector<T>& v) {
    uint8_t* d = nullptr;
    EXPECT_EQ(
        aclrtMalloc(reinterpret_cast<void**>(&d), v.size() * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST),
        ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(d, v.size() * sizeof(T), v.data(), v.size() * sizeof(T),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    return d;
  }
  template <typename T>
  std::vector<T> Download(const uint8_t* d, size_t n) {
    std::vector<T> v(n);
    EXPECT_EQ(aclrtMemcpy(v.data(), n * sizeof(T), d, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return v;
  }
};

TEST_F(Launch, TemplateKernelSeveralLaunchesOneStream) {
  constexpr uint32_t kBlocks = 4;
  constexpr size_t n = kBlocks * kTile;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.25f * static_cast<float>(i % 7);
  }
  uint8_t* dx = Upload(x);
  uint8_t* dy = Upload(y);
  uint8_t* dz = Upload(std::vector<float>(n, 0.0f));
  uint8_t* dw = Upload(std::vector<float>(n, 0.0f));
  // kernel<<<kBlocks, nullptr, stream_>>>(...) twice, as the driver rewrites it.
  ::lngrad::acl::LaunchKernel(
      "scale_add<float, 3, int32_t>", __FILE__, __LINE__, (kBlocks), (nullptr), (stream_),
      [&](auto&&... lngrad_args) { scale_add<float, 3, int32_t>(lngrad_args...); }, dx, dy, dz,
      kTile);
  ::lngrad::acl::LaunchKernel(
      "scale_add<float, -2, uint32_t>", __FILE__, __LINE__, (kBlocks), (nullptr), (stream_),
      [&](auto&&... lngrad_args) { scale_add<float, -2, uint32_t>(lngrad_args...); }, dz, dy, dw,
      static_cast<uint32_t>(kTile));
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << TakeMsg();
  const std::vector<float> z = Download<float>(dz, n);
  const std::vector<float> w = Download<float>(dw, n);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(z[i], x[i] * 3.0f + y[i]) << i;
    ASSERT_EQ(w[i], z[i] * -2.0f + y[i]) << i;
  }
  for (uint8_t* p : {dx, dy, dz, dw}) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}

TEST_F(Launch, HalfKernelOnTheDefaultStream) {
  constexpr uint32_t kBlocks = 2;
  constexpr size_t n = kBlocks * kTile;
  std::vector<half> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = half(static_cast<float>(i % 16));
    y[i] = half(1.5f);
  }
  uint8_t* dx = Upload(x);
  uint8_t* dy = Upload(y);
  uint8_t* dz = Upload(std::vector<half>(n, half(0.0f)));
  ::lngrad::acl::LaunchKernel(
      "scale_add<half, 2, int>", __FILE__, __LINE__, (kBlocks), (nullptr), (nullptr),
      [&](auto&&... lngrad_args) { scale_add<half, 2, int>(lngrad_args...); }, dx, dy, dz,
      static_cast<int>(kTile));
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << TakeMsg();
  const std::vector<half> z = Download<half>(dz, n);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(static_cast<float>(z[i]), static_cast<float>(i % 16) * 2.0f + 1.5f) << i;
  }
  for (uint8_t* p : {dx, dy, dz}) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}

TEST_F(Launch, EveryBlockRunsOnceWithTheArguments) {
  g_calls = 0;
  int value = 41;
  ::lngrad::acl::LaunchKernel(
      "count_calls", __FILE__, __LINE__, (5u), (nullptr), (stream_),
      [&](auto&&... lngrad_args) { count_calls(lngrad_args...); }, value + 1, nullptr);
  value = 0;  // arguments were evaluated (and copied) at the launch
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(g_calls.load(), 5);
  EXPECT_EQ(g_seen_value.load(), 42);
}

TEST_F(Launch, EachBlockGetsItsOwnCopy) {
  g_bad_copies = 0;
  Arg a{7};
  ::lngrad::acl::LaunchKernel(
      "mutate", __FILE__, __LINE__, (8), (nullptr), (stream_),
      [&](auto&&... lngrad_args) { mutate(lngrad_args...); }, a);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(g_bad_copies.load(), 0);
  EXPECT_EQ(a.v, 7) << "the caller's object is not the kernel's";
}

TEST_F(Launch, VoidPointersConvertToKernelPointerTypes) {
  void* dx = nullptr;
  ASSERT_EQ(aclrtMalloc(&dx, kTile * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* dy = nullptr;
  ASSERT_EQ(aclrtMalloc(&dy, kTile * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  // Device memory is not zeroed on the NPU: give the input defined contents.
  ASSERT_EQ(aclrtMemset(dx, kTile * sizeof(float), 0, kTile * sizeof(float)), ACL_SUCCESS);
  ::lngrad::acl::LaunchKernel(
      "scale_add<float, 1, int>", __FILE__, __LINE__, (1), (nullptr), (stream_),
      [&](auto&&... lngrad_args) { scale_add<float, 1, int>(lngrad_args...); }, dx, dx, dy, kTile);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << TakeMsg();
  EXPECT_EQ(aclrtFree(dx), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dy), ACL_SUCCESS);
}

TEST_F(Launch, AFailedCheckFailsTheStream) {
  constexpr uint32_t kBlocks = 3;
  constexpr uint32_t tile = 64;
  uint8_t* dx = Upload(std::vector<float>(kBlocks * tile, 1.0f));
  ::testing::internal::CaptureStderr();
  const int line = __LINE__ + 1;
  ::lngrad::acl::LaunchKernel(
      "overread", __FILE__, line, (kBlocks), (nullptr), (stream_),
      [&](auto&&... lngrad_args) { overread(lngrad_args...); }, dx, dx, tile);
  const std::string err = ::testing::internal::GetCapturedStderr();
  // stderr at the launch: the blocks' report and one line naming the launch site.
  EXPECT_NE(err.find("kernel 'overread' failed in 1 of 3 block(s)"), std::string::npos) << err;
  EXPECT_NE(err.find("block 2: [gm_bounds]"), std::string::npos) << err;
  const std::string site = std::string(__FILE__) + ":" + std::to_string(line);
  EXPECT_NE(err.find(site), std::string::npos) << err;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "reported by the synchronisation, not the launch";
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << "printed once, at the launch";
  const std::string msg = TakeMsg();
  EXPECT_NE(msg.find(site + ": kernel 'overread'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("block 2: [gm_bounds]"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("block 0"), std::string::npos) << msg;
  // The failure is reported once; the stream works again.
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dx), ACL_SUCCESS);
}

// aclrtGetLastError: a failed kernel is the thread's last error once a synchronisation returned
// it (the device runs the kernel asynchronously); a launch that cannot start is one at once.
TEST_F(Launch, TheLastErrorFollowsTheSynchronisation) {
  uint8_t* dx = Upload(std::vector<float>(64, 1.0f));
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);  // what earlier tests left
  ::testing::internal::CaptureStderr();
  ::lngrad::acl::LaunchKernel(
      "overread", __FILE__, __LINE__, (1), (nullptr), (stream_),
      [&](auto&&... lngrad_args) { overread(lngrad_args...); }, dx, dx, 64u);
  (void)::testing::internal::GetCapturedStderr();
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS) << "not before the sync";
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  (void)TakeMsg();
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS) << "read once";
  // count_calls<<<0, nullptr, stream>>>: not launched, a launch error at once.
  ::testing::internal::CaptureStderr();
  ::lngrad::acl::LaunchKernel(
      "count_calls", __FILE__, __LINE__, (0), (nullptr), (stream_),
      [&](auto&&... lngrad_args) { count_calls(lngrad_args...); }, 1, nullptr);
  (void)::testing::internal::GetCapturedStderr();
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_PARAM_INVALID);
  (void)TakeMsg();
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(aclrtFree(dx), ACL_SUCCESS);
}

TEST_F(Launch, AFailureStaysOnItsStream) {
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  uint8_t* dx = Upload(std::vector<float>(64, 1.0f));
  ::testing::internal::CaptureStderr();
  ::lngrad::acl::LaunchKernel(
      "overread", __FILE__, __LINE__, (1), (nullptr), (stream_),
      [&](auto&&... lngrad_args) { overread(lngrad_args...); }, dx, dx, 64u);
  (void)::testing::internal::GetCapturedStderr();
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  (void)TakeMsg();
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dx), ACL_SUCCESS);
}

// aclrtSynchronizeDevice reports the failures of every stream of the device, then clears them.
TEST_F(Launch, SynchronizeDeviceCoversEveryStreamOfTheDevice) {
  uint8_t* dx = Upload(std::vector<float>(64, 1.0f));
  ::testing::internal::CaptureStderr();
  ::lngrad::acl::LaunchKernel(
      "overread", "mine.asc", 5, (1), (0), (stream_),
      [&](auto&&... lngrad_args) { overread(lngrad_args...); }, dx, dx, 64u);
  // count_calls<<<0, 0>>>(...) on the default stream: numBlocks 0 fails it.
  ::lngrad::acl::LaunchKernel(
      "count_calls", "mine.asc", 6, (0), (0), (nullptr),
      [&](auto&&... lngrad_args) { count_calls(lngrad_args...); }, 1, nullptr);
  (void)::testing::internal::GetCapturedStderr();
  // The default stream was created first (aclrtSetDevice): its failure comes first.
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_PARAM_INVALID);
  const std::string msg = TakeMsg();
  EXPECT_NE(msg.find("mine.asc:5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("mine.asc:6"), std::string::npos) << msg;
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dx), ACL_SUCCESS);
  aclError no_device = ACL_SUCCESS;
  std::thread t([&] {
    ::testing::internal::CaptureStderr();
    no_device = aclrtSynchronizeDevice();
    (void)::testing::internal::GetCapturedStderr();
    (void)TakeMsg();
  });
  t.join();
  EXPECT_EQ(no_device, ACL_ERROR_RT_CONTEXT_NULL);
}

TEST_F(Launch, BadBlockCountsFailTheStream) {
  g_calls = 0;
  for (long long blocks : {0LL, -3LL, 65536LL}) {
    ::testing::internal::CaptureStderr();
    ::lngrad::acl::LaunchKernel(
        "count_calls", "host.asc", 12, (blocks), (nullptr), (stream_),
        [&](auto&&... lngrad_args) { count_calls(lngrad_args...); }, 1, nullptr);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("host.asc:12: kernel 'count_calls': not launched: numBlocks"),
              std::string::npos)
        << err;
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_PARAM_INVALID) << blocks;
    EXPECT_NE(TakeMsg().find("outside [1, 65535]"), std::string::npos);
  }
  EXPECT_EQ(g_calls.load(), 0);
}

TEST_F(Launch, ADeadStreamOrNoDeviceFailsTheNextSynchronisation) {
  g_calls = 0;
  aclrtStream dead = nullptr;
  ASSERT_EQ(aclrtCreateStream(&dead), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(dead), ACL_SUCCESS);
  ::testing::internal::CaptureStderr();
  ::lngrad::acl::LaunchKernel(
      "count_calls", "host.asc", 30, (1), (nullptr), (dead),
      [&](auto&&... lngrad_args) { count_calls(lngrad_args...); }, 1, nullptr);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("not a live stream"), std::string::npos);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(TakeMsg().find("host.asc:30"), std::string::npos);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);

  // A launch on the default stream of a thread without a device.
  aclError sync = ACL_SUCCESS;
  std::string msg;
  std::thread t([&] {
    ::testing::internal::CaptureStderr();
    ::lngrad::acl::LaunchKernel(
        "count_calls", "host.asc", 31, (1), (nullptr), (nullptr),
        [&](auto&&... lngrad_args) { count_calls(lngrad_args...); }, 1, nullptr);
    (void)::testing::internal::GetCapturedStderr();
    sync = aclrtSynchronizeStream(nullptr);
    msg = TakeMsg();
  });
  t.join();
  EXPECT_EQ(sync, ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_NE(msg.find("host.asc:31"), std::string::npos) << msg;
  EXPECT_EQ(g_calls.load(), 0);
}

// Several host threads, each with its device, stream and memory, launching at the same time.
TEST(LaunchThreads, IndependentStreamsOnSeveralThreads) {
  constexpr int kThreads = 4;
  std::vector<int> bad(kThreads, -1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &bad] {
      int wrong = 0;
      if (aclrtSetDevice(t % 2) != ACL_SUCCESS) return;
      aclrtStream s = nullptr;
      if (aclrtCreateStream(&s) != ACL_SUCCESS) return;
      constexpr size_t n = 2 * kTile;
      std::vector<float> x(n, static_cast<float>(t)), y(n, 1.0f), z(n, 0.0f);
      void *dx = nullptr, *dy = nullptr, *dz = nullptr;
      for (void** p : {&dx, &dy, &dz}) {
        if (aclrtMalloc(p, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return;
      }
      aclrtMemcpy(dx, n * sizeof(float), x.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
      aclrtMemcpy(dy, n * sizeof(float), y.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
      for (int round = 0; round < 5; ++round) {
        ::lngrad::acl::LaunchKernel(
            "scale_add<float, 2, int>", __FILE__, __LINE__, (2), (nullptr), (s),
            [&](auto&&... lngrad_args) { scale_add<float, 2, int>(lngrad_args...); }, dx, dy, dz,
            kTile);
        if (aclrtSynchronizeStream(s) != ACL_SUCCESS) ++wrong;
        aclrtMemcpy(z.data(), n * sizeof(float), dz, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
        for (float v : z) wrong += v != 2.0f * static_cast<float>(t) + 1.0f;
      }
      for (void* p : {dx, dy, dz}) aclrtFree(p);
      aclrtDestroyStream(s);
      aclrtResetDevice(t % 2);
      bad[t] = wrong;
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(bad[t], 0) << "thread " << t;
}

}  // namespace
