// What the toolkit's samples and unit tests use besides the kernel API proper: cpu_debug_launch.h,
// the global pipe_t/event_t names, the named constants, KERNEL_LOG and the assertion macros,
// LOCAL_TENSOR_REGISTER, ICPU_RUN_KF with template kernels, and kernel code run outside a launch
// (the standalone block).
#include "cpu_debug_launch.h"  // alone: it must bring the whole kernel API, as the vendor's does

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>

#include "lngrad/product.h"

// Kernel code written as in the vendor's samples: no `using namespace AscendC`, pipe and event
// names unqualified.
namespace vendor_style {

template <typename T, uint32_t kLength>
__global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, float factor) {
  AscendC::GlobalTensor<T> xGm;
  AscendC::GlobalTensor<T> yGm;
  const uint32_t offset = static_cast<uint32_t>(AscendC::GetBlockIdx()) * kLength;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + offset, kLength);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, kLength);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kLength * sizeof(T));
  AscendC::LocalTensor<T> local = buf.Get<T>();
  AscendC::DataCopy(local, xGm, kLength);
  event_t toV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(toV);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(toV);
  AscendC::Muls(local, local, static_cast<T>(factor), kLength);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(event_t::EVENT_ID0);
  AscendC::DataCopy(yGm, local, kLength);
  AscendC::PipeBarrier<PIPE_ALL>();
}

}  // namespace vendor_style

namespace {

using namespace AscendC;  // both spellings of the global names must stay unambiguous with it
namespace checks = lngrad::aicore::checks;
using lngrad::aicore::KernelCheckError;

// The KernelCheckError that f() raises; none, and a test failure saying `what`, when it returns.
template <class F>
std::optional<KernelCheckError> RaisedBy(const F& f, const char* what) {
  try {
    f();
    ADD_FAILURE() << what;
  } catch (const KernelCheckError& e) {
    return e;
  }
  return std::nullopt;
}

// Switches standalone blocks off for one test and drops the thread's standalone block before and
// after, so that tests do not share its UB.
struct StandaloneScope {
  explicit StandaloneScope(bool on) : was_(lngrad::aicore::StandaloneBlocks()) {
    lngrad::aicore::ResetStandaloneBlock();
    lngrad::aicore::SetStandaloneBlocks(on);
  }
  ~StandaloneScope() {
    lngrad::aicore::ResetStandaloneBlock();
    lngrad::aicore::SetStandaloneBlocks(was_);
  }
  bool was_;
};

struct Gm {
  explicit Gm(size_t bytes) : p(static_cast<uint8_t*>(GmAlloc(bytes))) {}
  ~Gm() { GmFree(p); }
  Gm(const Gm&) = delete;
  Gm& operator=(const Gm&) = delete;
  float* f() const { return reinterpret_cast<float*>(p); }
  uint8_t* p;
};

// ---- global names ----

TEST(AscendcCompat, PipeAndEventNamesAreGlobalAndInAscendC) {
  static_assert(std::is_same_v<decltype(::PIPE_ALL), ::pipe_t>);
  static_assert(std::is_same_v<decltype(::EVENT_ID0), ::event_t>);
  static_assert(std::is_same_v<AscendC::pipe_t, ::pipe_t>);
  static_assert(std::is_same_v<AscendC::event_t, ::event_t>);
  EXPECT_EQ(AscendC::PIPE_ALL, ::PIPE_ALL);
  EXPECT_EQ(static_cast<int>(PIPE_S), 0);
  EXPECT_EQ(static_cast<int>(PIPE_V), 1);
  EXPECT_EQ(static_cast<int>(PIPE_MTE2), 4);
  EXPECT_EQ(static_cast<int>(PIPE_MTE3), 5);
  EXPECT_EQ(static_cast<int>(PIPE_ALL), 6);
  const ::event_t ids[] = {EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3,
                           EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(static_cast<int>(ids[i]), i);
  EXPECT_EQ(event_t::EVENT_ID7, EVENT_ID7);
}

TEST(AscendcCompat, VendorStyleKernelRuns) {
  constexpr uint32_t kLen = 64;
  Gm x(2 * kLen * sizeof(float));
  Gm y(2 * kLen * sizeof(float));
  for (uint32_t i = 0; i < 2 * kLen; ++i) x.f()[i] = static_cast<float>(i);
  ICPU_RUN_KF(vendor_style::scale_custom<float, kLen>, 2, x.p, y.p, 3.0f);
  for (uint32_t i = 0; i < 2 * kLen; ++i) EXPECT_EQ(y.f()[i], 3.0f * static_cast<float>(i)) << i;
}

// ---- constants ----

TEST(AscendcCompat, ConstantsHaveTheVendorsTypesAndValues) {
  static_assert(std::is_same_v<std::remove_cv_t<decltype(B16_BYTE_SIZE)>, uint8_t>);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(B32_BYTE_SIZE)>, uint8_t>);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(TWO_OF_STACK_BUFFER)>, uint32_t>);
  static_assert(std::is_same_v<std::remove_cv_t<decltype(ONE_REPEAT_BYTE_SIZE)>, int32_t>);
  EXPECT_EQ(B8_BYTE_SIZE, 1);
  EXPECT_EQ(B16_BYTE_SIZE, sizeof(half));
  EXPECT_EQ(B32_BYTE_SIZE, sizeof(float));
  EXPECT_EQ(B64_BYTE_SIZE, 8);
  EXPECT_EQ(TWO_OF_STACK_BUFFER, 2u);
  EXPECT_EQ(THREE_OF_STACK_BUFFER, 3u);
  EXPECT_EQ(B16_DATA_NUM_PER_BLOCK, 16);
  EXPECT_EQ(B32_DATA_NUM_PER_BLOCK, 8);
  EXPECT_EQ(B16_DATA_NUM_PER_REPEAT, 128);
  EXPECT_EQ(B32_DATA_NUM_PER_REPEAT, 64);
  EXPECT_EQ(ONE_REPEAT_BYTE_SIZE, 256);
  EXPECT_EQ(ONE_REPEAT_FLOAT_SIZE, 64u);
  EXPECT_EQ(ONE_REPEAT_HALF_SIZE, 128u);
  EXPECT_EQ(ONE_BLK_FLOAT_NUM, 8u);
  EXPECT_EQ(ONE_BLK_HALF_NUM, 16u);
  EXPECT_EQ(MAX_REPEAT_TIMES, 255);
  EXPECT_EQ(MAX_REPEAT_FLOAT_SIZE, 64u * 255u);
  EXPECT_EQ(DEFAULT_REPEAT_STRIDE, 8);
  EXPECT_EQ(BRCB_MAX_REPEAT_SIZE, 8u * 255u);
}

// ---- KERNEL_LOG, ASSERT, ASCENDC_ASSERT ----

TEST(AscendcCompat, KernelLogPrintsLevelBlockPlaceAndMessage) {
  testing::internal::CaptureStdout();
  auto kernel = [] {
    if (GetBlockIdx() == 1) KERNEL_LOG(KERNEL_ERROR, "value %d of %s", 42, "x");
  };
  ICPU_RUN_KF(kernel, 2);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("[ERROR] [block 1] "), std::string::npos) << out;
  EXPECT_NE(out.find("compat_test.cpp:"), std::string::npos) << out;
  EXPECT_NE(out.find("value 42 of x\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("[block 0]"), std::string::npos) << out;

  testing::internal::CaptureStdout();
  KERNEL_LOG(KERNEL_WARN, "no arguments");
  KERNEL_LOG(KERNEL_INFO, "%u", 7u);
  KERNEL_LOG(KERNEL_DEBUG, "d");
  const std::string host = testing::internal::GetCapturedStdout();
  EXPECT_NE(host.find("[WARN] "), std::string::npos) << host;
  EXPECT_NE(host.find("no arguments\n"), std::string::npos) << host;
  EXPECT_NE(host.find("[INFO] "), std::string::npos) << host;
  EXPECT_NE(host.find(" 7\n"), std::string::npos) << host;
  EXPECT_NE(host.find("[DEBUG] "), std::string::npos) << host;
}

TEST(AscendcCompat, AscendcAssertRunsItsBehaviourAndFailsTheBlock) {
  int ran = 0;
  auto kernel = [&] {
    const bool good = GetBlockIdx() != 2;
    ASCENDC_ASSERT(good, { KERNEL_LOG(KERNEL_ERROR, "block %ld is bad", GetBlockIdx()); });
    ASCENDC_ASSERT(true, { ++ran; });
  };
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  if (const auto e = RaisedBy([&] { ICPU_RUN_KF(kernel, 4); },
                              "ASCENDC_ASSERT(false) did not fail the launch")) {
    EXPECT_EQ(e->check(), checks::kAssert);
    EXPECT_EQ(e->block_idx(), 2);
    EXPECT_NE(e->message().find("ASCENDC_ASSERT(good) failed at "), std::string::npos)
        << e->message();
  }
  testing::internal::GetCapturedStderr();
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("block 2 is bad"), std::string::npos) << out;
  EXPECT_EQ(ran, 0);  // a true condition skips the behaviour
}

TEST(AscendcCompat, AssertIsCheckedWhateverNdebugSays) {
  StandaloneScope scope(true);
  EXPECT_NO_THROW(ASSERT(1 + 1 == 2));
  if (const auto e = RaisedBy([] { ASSERT(1 + 1 == 3); }, "ASSERT(false) did not raise")) {
    EXPECT_EQ(e->check(), checks::kAssert);
    EXPECT_NE(e->message().find("ASSERT(1 + 1 == 3)"), std::string::npos) << e->message();
  }
}

// ---- LOCAL_TENSOR_REGISTER ----

TEST(AscendcCompat, LocalTensorRegisterPlacesATensorInTheUb) {
  auto kernel = [] {
    LOCAL_TENSOR_REGISTER(a, float, VECCALC, 1024, 64);
    LOCAL_TENSOR_REGISTER(b, half, VECIN, 2048, 32)
    EXPECT_EQ(a.GetPhyAddr(), 1024u);
    EXPECT_EQ(a.GetSize(), 64u);
    EXPECT_EQ(a.GetPosition(), static_cast<int32_t>(TPosition::VECCALC));
    EXPECT_EQ(b.GetPhyAddr(), 2048u);
    EXPECT_EQ(b.GetSize(), 32u);
    Duplicate(a, 2.5f, 64);
    EXPECT_EQ(a.GetValue(63), 2.5f);
  };
  ICPU_RUN_KF(kernel, 1);
  EXPECT_EQ(ALIGN_ADDR(33), 64);
  EXPECT_EQ(ALIGN_ADDR(64), 64);
}

// GetValue of a bool element reads its byte: any nonzero byte is true (1), not an undefined bool
// (UBSan stops a C++ bool load of bytes such as 2 or 0xff; gcc gave 2 back).
TEST(AscendcCompat, GetValueOfABoolIsItsByteNonzero) {
  auto kernel = [] {
    LOCAL_TENSOR_REGISTER(raw, uint8_t, VECCALC, 0, 32);
    const uint8_t bytes[] = {0, 1, 2, 0x80, 0xff};
    for (uint32_t i = 0; i < 5; ++i) raw.SetValue(i, bytes[i]);
    const LocalTensor<bool> b = raw.ReinterpretCast<bool>();
    for (uint32_t i = 0; i < 5; ++i) {
      EXPECT_EQ(static_cast<int>(b.GetValue(i)), bytes[i] != 0 ? 1 : 0) << i;
    }
  };
  ICPU_RUN_KF(kernel, 1);
}

TEST(AscendcCompat, LocalTensorRegisterKeepsTheUbChecks) {
  const uint32_t ub = lngrad::CurrentProduct().ub_bytes;
  auto outside = [&] { LOCAL_TENSOR_REGISTER(t, float, VECCALC, ub - 64, 32); };
  testing::internal::CaptureStderr();
  if (const auto e =
          RaisedBy([&] { ICPU_RUN_KF(outside, 1); }, "a tensor past the UB was accepted")) {
    EXPECT_EQ(e->check(), checks::kUbBounds);
  }
  auto gm = [] { LOCAL_TENSOR_REGISTER(t, float, GM, 0, 32); };
  if (const auto e = RaisedBy([&] { ICPU_RUN_KF(gm, 1); }, "a GM position was accepted")) {
    EXPECT_EQ(e->check(), checks::kPosition);
  }
  testing::internal::GetCapturedStderr();
}

// ---- ICPU_RUN_KF with template kernels ----

template <typename T, int kValue>
void fill_custom(GM_ADDR out) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out) + GetBlockIdx() * 8, 8);
  for (uint32_t i = 0; i < 8; ++i) g.SetValue(i, static_cast<T>(kValue + GetBlockIdx()));
}

template <typename T, bool kFail>
void maybe_fail_custom(GM_ADDR) {
  ASSERT(!kFail || GetBlockIdx() != 1);
}

TEST(AscendcCompat, IcpuRunKfTakesTemplateKernelsWithCommas) {
  Gm out(2 * 8 * sizeof(float));
  ICPU_RUN_KF(fill_custom<float, 5>, 2, out.p);  // the vendor's spelling, commas and all
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out.f()[i], i < 8 ? 5.0f : 6.0f) << i;
  ICPU_RUN_KF((fill_custom<float, 9>), 2, out.p);  // parenthesised
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out.f()[i], i < 8 ? 9.0f : 10.0f) << i;
  const int blocks = 2;
  ICPU_RUN_KF(fill_custom < float, (1 > 0) ? 3 : 4 >, blocks - 1, out.p);
  EXPECT_EQ(out.f()[0], 3.0f);
  EXPECT_EQ(out.f()[8], 10.0f);  // one block only
}

TEST(AscendcCompat, IcpuRunKfReportsTheTemplateKernelByName) {
  Gm out(64);
  testing::internal::CaptureStderr();
  EXPECT_THROW(ICPU_RUN_KF(maybe_fail_custom<float, true>, 2, out.p), KernelCheckError);
  const std::string report = testing::internal::GetCapturedStderr();
  EXPECT_NE(report.find("maybe_fail_custom<float, true>"), std::string::npos) << report;
  EXPECT_EQ(report.find("maybe_fail_custom<float, true>, 2"), std::string::npos) << report;
  EXPECT_NO_THROW(ICPU_RUN_KF(maybe_fail_custom<float, false>, 2, out.p));
}

TEST(AscendcCompat, KernelNameOfTakesTheFirstTopLevelArgument) {
  using lngrad::aicore::detail::KernelNameOf;
  EXPECT_EQ(KernelNameOf("add_custom, 8, x, y"), "add_custom");
  EXPECT_EQ(KernelNameOf("add<float, 8>, 8, x"), "add<float, 8>");
  EXPECT_EQ(KernelNameOf(" ( add<float, 8> ) , 8"), "add<float, 8>");
  EXPECT_EQ(KernelNameOf("((k<A, B<C, D>>)), n"), "k<A, B<C, D>>");
  EXPECT_EQ(KernelNameOf("(a)(b), 1"), "(a)(b)");
  EXPECT_EQ(KernelNameOf("k"), "k");
}

// ---- kernel code outside a launch: the standalone block ----

// A kernel function as the vendor's unit tests write one: called directly from the test body.
void double_custom(float* x, float* y, uint32_t n) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> in;
  TQue<TPosition::VECOUT, 1> out;
  pipe.InitBuffer(in, 1, n * sizeof(float));
  pipe.InitBuffer(out, 1, n * sizeof(float));
  GlobalTensor<float> xGm;
  GlobalTensor<float> yGm;
  xGm.SetGlobalBuffer(x, n);
  yGm.SetGlobalBuffer(y, n);
  LocalTensor<float> a = in.AllocTensor<float>();
  DataCopy(a, xGm, n);
  in.EnQue(a);
  a = in.DeQue<float>();
  LocalTensor<float> b = out.AllocTensor<float>();
  Add(b, a, a, static_cast<int32_t>(n));
  out.EnQue(b);
  in.FreeTensor(a);
  b = out.DeQue<float>();
  DataCopy(yGm, b, n);
  out.FreeTensor(b);
}

TEST(AscendcStandalone, KernelCodeOutsideALaunchRunsAsBlock0Of1) {
  StandaloneScope scope(true);
  EXPECT_EQ(GetBlockIdx(), 0);
  EXPECT_EQ(GetBlockNum(), 1);
  ASSERT_NE(lngrad::aicore::CurrentBlockContext(), nullptr);
  EXPECT_TRUE(lngrad::aicore::CurrentBlockContext()->standalone);
  EXPECT_EQ(GetUBSizeInBytes(), lngrad::CurrentProduct().ub_bytes);

  // Host arrays, as the vendor's tests pass them: not GmAlloc'd.
  float x[64];
  float direct[64] = {};
  float launched[64] = {};
  for (int i = 0; i < 64; ++i) x[i] = 0.5f * static_cast<float>(i) - 3.0f;
  double_custom(x, direct, 64);
  ICPU_RUN_KF(double_custom, 1, x, launched, 64u);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(direct[i], 2.0f * x[i]) << i;
    EXPECT_EQ(direct[i], launched[i]) << i;
  }
}

TEST(AscendcStandalone, ALaunchRunsItsOwnBlocksAndTheStandaloneBlockComesBack) {
  StandaloneScope scope(true);
  EXPECT_EQ(GetBlockNum(), 1);
  const lngrad::aicore::BlockContext* standalone = lngrad::aicore::CurrentBlockContext();
  std::atomic<int> seen{0};
  auto kernel = [&] {
    EXPECT_EQ(GetBlockNum(), 3);
    EXPECT_FALSE(lngrad::aicore::CurrentBlockContext()->standalone);
    seen += static_cast<int>(GetBlockIdx()) + 1;
  };
  ICPU_RUN_KF(kernel, 3);
  EXPECT_EQ(seen.load(), 6);
  EXPECT_EQ(lngrad::aicore::CurrentBlockContext(), standalone);
  EXPECT_EQ(GetBlockNum(), 1);
}

TEST(AscendcStandalone, TheUbPersistsUntilReset) {
  StandaloneScope scope(true);
  {
    LOCAL_TENSOR_REGISTER(t, float, VECCALC, 0, 8);
    t.SetValue(3, 7.0f);
  }
  {
    LOCAL_TENSOR_REGISTER(t, float, VECCALC, 0, 8);
    EXPECT_EQ(t.GetValue(3), 7.0f);  // like a device core's UB between two kernels
  }
  lngrad::aicore::ResetStandaloneBlock();
  LOCAL_TENSOR_REGISTER(t, float, VECCALC, 0, 8);
  EXPECT_EQ(t.GetValue(3), 0.0f);  // a fresh, zeroed UB
}

TEST(AscendcStandalone, EachThreadHasItsOwnStandaloneBlock) {
  StandaloneScope scope(true);
  LOCAL_TENSOR_REGISTER(mine, float, VECCALC, 0, 8);
  mine.SetValue(0, 1.0f);
  float theirs = -1.0f;
  const void* their_ub = nullptr;
  std::thread other([&] {
    LOCAL_TENSOR_REGISTER(t, float, VECCALC, 0, 8);
    theirs = t.GetValue(0);
    their_ub = t.HostPtr();
  });
  other.join();
  EXPECT_EQ(theirs, 0.0f);
  EXPECT_NE(their_ub, static_cast<const void*>(mine.HostPtr()));
}

TEST(AscendcStandalone, ChecksNameTheStandaloneBlock) {
  StandaloneScope scope(true);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  if (const auto e = RaisedBy([&] { pipe.InitBuffer(buf, lngrad::CurrentProduct().ub_bytes + 32); },
                              "no ub_overflow")) {
    EXPECT_EQ(e->check(), checks::kUbOverflow);
    EXPECT_EQ(e->block_idx(), 0);
    EXPECT_NE(std::string(e->what()).find("standalone block 0 (outside a launch)"),
              std::string::npos)
        << e->what();
  }
}

TEST(AscendcStandalone, SwitchedOffKernelApisOutsideALaunchFail) {
  StandaloneScope scope(false);
  if (const auto e =
          RaisedBy([] { (void)GetBlockIdx(); }, "GetBlockIdx outside a launch did not raise")) {
    EXPECT_EQ(e->check(), checks::kOutsideLaunch);
    EXPECT_EQ(e->block_idx(), -1);
  }
  EXPECT_THROW(TPipe pipe, KernelCheckError);
  EXPECT_EQ(lngrad::aicore::CurrentBlockContext(), nullptr);
  // A launch is unaffected.
  auto kernel = [] { EXPECT_EQ(GetBlockNum(), 2); };
  ICPU_RUN_KF(kernel, 2);
}

TEST(AscendcStandalone, SwitchingOffAlsoStopsALiveStandaloneBlock) {
  StandaloneScope scope(true);
  EXPECT_EQ(GetBlockIdx(), 0);  // the standalone block now exists
  lngrad::aicore::SetStandaloneBlocks(false);
  if (const auto e =
          RaisedBy([] { (void)GetBlockNum(); },
                   "the standalone block kept running after SetStandaloneBlocks(false)")) {
    EXPECT_EQ(e->check(), checks::kOutsideLaunch);
  }
}

TEST(AscendcStandalone, APipeOfTheStandaloneBlockIsForeignInALaunch) {
  StandaloneScope scope(true);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  auto kernel = [&] { pipe.InitBuffer(buf, 64); };
  testing::internal::CaptureStderr();
  if (const auto e =
          RaisedBy([&] { ICPU_RUN_KF(kernel, 1); }, "a standalone TPipe served a launch's block")) {
    EXPECT_EQ(e->check(), checks::kForeignBlock);
    EXPECT_EQ(e->block_idx(), 0);
  }
  testing::internal::GetCapturedStderr();
  EXPECT_NO_THROW(pipe.InitBuffer(buf, 64));  // its own block still may
}

TEST(AscendcStandalone, APipeKeptPastItsLaunchIsForeign) {
  StandaloneScope scope(true);
  std::unique_ptr<TPipe> kept;
  auto kernel = [&] { kept = std::make_unique<TPipe>(); };
  ICPU_RUN_KF(kernel, 1);
  TBuf<TPosition::VECCALC> buf;
  if (const auto e = RaisedBy([&] { kept->InitBuffer(buf, 64); },
                              "a TPipe of an ended launch handed out UB")) {
    EXPECT_EQ(e->check(), checks::kForeignBlock);
  }
  EXPECT_THROW(kept->Init(), KernelCheckError);
}

}  // namespace

// The device compiler's built-ins that AOT-compiled kernels and the MX samples name.
namespace builtins {

struct Tiling {
  int32_t m, n;
  uint16_t k;
  uint8_t flag;
};
constexpr uint8_t kTilingBytes[sizeof(Tiling)] = {0x00, 0x02, 0,    0,    0xFF, 0xFF,
                                                  0xFF, 0xFF, 0x80, 0x00, 0x07, 0x00};
// A constant of the bytes, as `static constexpr T value = convert_from_bytes<T>(bytes)` makes
// (little-endian: the device's byte order and this host's).
constexpr Tiling kConst = convert_from_bytes<Tiling>(kTilingBytes);
static_assert(kConst.m == 512 && kConst.n == -1 && kConst.k == 128 && kConst.flag == 7);

TEST(AscendcBuiltins, ConvertFromBytesReadsTheBytesAsMemcpyDoes) {
  uint8_t bytes[sizeof(Tiling)];
  for (size_t i = 0; i < sizeof(bytes); ++i) bytes[i] = static_cast<uint8_t>(37 * i + 11);
  Tiling viaMemcpy{};
  std::memcpy(&viaMemcpy, bytes, sizeof(Tiling));
  const Tiling got = convert_from_bytes<Tiling>(bytes);
  EXPECT_EQ(std::memcmp(&got, &viaMemcpy, offsetof(Tiling, flag) + 1), 0);
}

// The MX element types under both names (matmul_mxfp4_high_performance writes AscendC::...).
static_assert(std::is_same_v<AscendC::fp8_e8m0_t, ::fp8_e8m0_t>);
static_assert(std::is_same_v<AscendC::fp4x2_e2m1_t, ::fp4x2_e2m1_t>);
static_assert(std::is_same_v<AscendC::fp4x2_e1m2_t, ::fp4x2_e1m2_t>);

}  // namespace builtins
