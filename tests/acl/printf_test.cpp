// The kernel printf (utils/debug/asc_printf.h) and asc_dump (utils/debug/asc_dump.h): the
// device's "[AIV Block i/n] " prefix (none inside a vector function), each
// <<<>>> launch's messages printed block by block when it ends, the documented argument types,
// host code printing as the C library does, and ascendc_assert. Also the global GetTPipePtr.

// ascendc_assert is compiled out under NDEBUG, which this build defines.
#undef NDEBUG
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <string>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "lngrad_acl/launch.h"
#include "utils/debug/asc_dump.h"
#include "utils/debug/asc_printf.h"

#include "acl_test_util.h"

namespace {

// What the device prints for one message of block `idx` of `num`: the prefix, then the text.
std::string Msg(int idx, int num, const std::string& text) {
  return "[AIV Block " + std::to_string(idx) + "/" + std::to_string(num) + "] " + text;
}

__global__ __vector__ void hello() {
  printf("Hello World!!!\n");  // nothing after fmt: the C library's printf would win, so the
                               // driver rewrites this call; here, as after the rewrite:
  ::lngrad::aicore::debug::printf("block %ld of %ld\n", static_cast<long>(AscendC::GetBlockIdx()),
                                  static_cast<long>(AscendC::GetBlockNum()));
}

__global__ __vector__ void hello_rewritten() {
  ::lngrad::aicore::debug::printf("Hello World!!!\n");
  printf("block %ld of %ld\n", static_cast<long>(AscendC::GetBlockIdx()),
         static_cast<long>(AscendC::GetBlockNum()));
}

using KernelPrintf = lngrad::acl_test::StreamTest;

TEST_F(KernelPrintf, EachBlocksMessagesInBlockOrderAfterTheLaunch) {
  constexpr int kBlocks = 8;
  testing::internal::CaptureStdout();
  // hello_rewritten<<<8, 0, stream_>>>(), as lngrad-asc rewrites it.
  ::lngrad::acl::LaunchKernel("hello_rewritten", __FILE__, __LINE__, (kBlocks), (0), (stream_),
                              [&](auto&&... lngrad_args) { hello_rewritten(lngrad_args...); });
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::string out = testing::internal::GetCapturedStdout();
  std::string expected;
  for (int b = 0; b < kBlocks; ++b) {
    expected += Msg(b, kBlocks, "Hello World!!!\n");
    expected += Msg(b, kBlocks, "block " + std::to_string(b) + " of 8\n");
  }
  EXPECT_EQ(out, expected);
}

TEST_F(KernelPrintf, TheDefaultStreamOfATwoArgumentLaunch) {
  // hello_rewritten<<<2, 0>>>(): the stream defaults to nullptr, the default stream.
  testing::internal::CaptureStdout();
  ::lngrad::acl::LaunchKernel("hello_rewritten", __FILE__, __LINE__, (2), (0), (nullptr),
                              [&](auto&&... lngrad_args) { hello_rewritten(lngrad_args...); });
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            Msg(0, 2, "Hello World!!!\n") + Msg(0, 2, "block 0 of 2\n") +
                Msg(1, 2, "Hello World!!!\n") + Msg(1, 2, "block 1 of 2\n"));
}

TEST_F(KernelPrintf, ArgumentsAsDocumented) {
  // %d/%i/%ld, %u, %x, %f of float and half, %s, %p; the model is the C library's snprintf.
  const int8_t i8 = -5;
  const int64_t i64 = -1234567890123;
  const uint16_t u16 = 65535;
  const uint32_t x = 0xBEEF;
  const float f = 3.14f;
  const half h(1.5f);
  const char* s = "str";
  void* p = reinterpret_cast<void*>(uintptr_t{0x1000});
  char model[256];
  std::snprintf(model, sizeof(model), "%d %i %lld %u %x %f %f %s %p\n", i8, -7,
                static_cast<long long>(i64), u16, x, static_cast<double>(f), 1.5, s, p);
  testing::internal::CaptureStdout();
  ::lngrad::acl::LaunchKernel("args", __FILE__, __LINE__, (1), (0), (stream_), [&](auto&&...) {
    AscendC::printf("%d %i %lld %u %x %f %f %s %p\n", i8, -7, static_cast<long long>(i64), u16, x,
                    f, h, s, p);
  });
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), Msg(0, 1, model));
}

TEST_F(KernelPrintf, OnePrefixPerCallAndPrintfIsPrintf) {
  testing::internal::CaptureStdout();
  ::lngrad::acl::LaunchKernel("lines", __FILE__, __LINE__, (1), (0), (stream_), [&](auto&&...) {
    AscendC::PRINTF("a\nb %d\n", 2);
    PRINTF("c\n");
  });
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), Msg(0, 1, "a\nb 2\n") + Msg(0, 1, "c\n"));
}

TEST(KernelPrintfOutsideAclLaunches, PrintedAtOnceWithThePrefix) {
  lngrad::aicore::LaunchOptions sequential;
  sequential.sequential = true;
  testing::internal::CaptureStdout();
  const lngrad::Status st = lngrad::aicore::Launch(
      3, [] { hello(); }, sequential);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(st.ok()) << st.ToString();
  // hello()'s first call has nothing after fmt: compiled as C++ (not through lngrad-asc), the
  // C library's printf takes it, without a prefix.
  std::string expected;
  for (int b = 0; b < 3; ++b) {
    expected += "Hello World!!!\n" + Msg(b, 3, "block " + std::to_string(b) + " of 3\n");
  }
  EXPECT_EQ(out, expected);
}

TEST(KernelPrintfOutsideAclLaunches, HostCodeHasNoPrefix) {
  testing::internal::CaptureStdout();
  printf("host %d\n", 42);
  ::lngrad::aicore::debug::printf("plain\n");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "host 42\nplain\n");
}

// ascendc_assert: the failed condition printed as the kernel's message, then the block fails.
std::string g_function;  // written by the failing block only
std::atomic<int> g_line{0};
__global__ __vector__ void asserting(int bad_block) {
  const int v = static_cast<int>(AscendC::GetBlockIdx());
  if (v == bad_block) g_function = __PRETTY_FUNCTION__;
  g_line = __LINE__ + 1;
  ascendc_assert(v != bad_block, "v is %d, half %f\n", v, half(0.5f));
  ascendc_assert(v >= 0);
}

TEST_F(KernelPrintf, AscendcAssertPrintsAndFailsTheBlock) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  ::lngrad::acl::LaunchKernel(
      "asserting", __FILE__, __LINE__, (3), (0), (stream_),
      [&](auto&&... lngrad_args) { asserting(lngrad_args...); }, 1);
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("block 1: [assert]"), std::string::npos) << msg;
  EXPECT_EQ(std::string(msg).find("block 0:"), std::string::npos) << msg;
  EXPECT_EQ(out, Msg(1, 3,
                     "[ASSERT] " + std::string(__FILE__) + ":" + std::to_string(g_line.load()) +
                         ": " + g_function + ": Assertion `v != bad_block' failed. v is 1, half " +
                         "0.500000\n"));
  EXPECT_NE(err.find("v != bad_block"), std::string::npos) << err;
}

// The standard assert in a kernel (the kit's 09_log): the block fails as with ascendc_assert, the
// message is the C library's text after "[ASSERT] ", and the synchronisation returns the error.
__global__ __vector__ void std_asserting(int bad_block) {
  const int v = static_cast<int>(AscendC::GetBlockIdx());
  if (v == bad_block) g_function = __PRETTY_FUNCTION__;
  g_line = __LINE__ + 1;
  assert(v != bad_block);
}

TEST_F(KernelPrintf, StandardAssertFailsTheBlock) {
  testing::internal::CaptureStdout();
  ::lngrad::acl::LaunchKernel(
      "std_asserting", __FILE__, __LINE__, (3), (0), (stream_),
      [&](auto&&... lngrad_args) { std_asserting(lngrad_args...); }, 2);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("block 2: [assert]"), std::string::npos) << msg;
  EXPECT_EQ(out, Msg(2, 3,
                     "[ASSERT] " + std::string(__FILE__) + ":" + std::to_string(g_line.load()) +
                         ": " + g_function + ": Assertion `v != bad_block' failed.\n"));
}

// GetTPipePtr is a global name in the vendor's headers; AscendC::GetTPipePtr is the same one.
TEST(GlobalGetTPipePtr, IsTheBlocksPipeUnqualifiedAndQualified) {
  const lngrad::Status st = lngrad::aicore::Launch(2, [] {
    AscendC::TPipe pipe;
    EXPECT_EQ(::GetTPipePtr(), &pipe);
    EXPECT_EQ(GetTPipePtr(), &pipe);
    {
      using namespace AscendC;
      EXPECT_EQ(GetTPipePtr(), &pipe);  // not ambiguous with AscendC's
    }
    const int32_t id = GetTPipePtr()->AllocEventID<AscendC::HardEvent::V_S>();
    EXPECT_GE(id, 0);
    GetTPipePtr()->ReleaseEventID<AscendC::HardEvent::V_S>(id);
  });
  EXPECT_TRUE(st.ok()) << st.ToString();
}

}  // namespace

namespace {

// What a one-block launch of kernel on the Ascend 950 prints (the current product restored).
template <class Kernel>
std::string PrintedOn950(aclrtStream stream, const char* name, Kernel kernel) {
  const std::string soc(lngrad::CurrentProduct().soc);
  EXPECT_TRUE(lngrad::SetCurrentSoc("Ascend950PR_9599").ok());
  testing::internal::CaptureStdout();
  ::lngrad::acl::LaunchKernel(name, __FILE__, __LINE__, (1), (0), (stream),
                              [&](auto&&... lngrad_args) { kernel(lngrad_args...); });
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(lngrad::SetCurrentSoc(soc).ok());
  return out;
}

__simd_vf__ void VfPrint(int v) { ::lngrad::aicore::debug::printf("[simd_vf] v=%d\n", v); }

__global__ __vector__ void vf_print() {
  AscendC::printf("[aicore] start\n");  // fmt alone: still the kernel's printf
  asc_vf_call<VfPrint>(7);
  AscendC::printf("[aicore] end %d\n", 1);
}

// A vector function's printf prints the text alone, in program order with the block's messages
// (the vendor's simd_vf_printf sample shows this output).
TEST_F(KernelPrintf, AVectorFunctionPrintsWithoutTheBlockPrefix) {
  const std::string out = PrintedOn950(stream_, "vf_print", [] { vf_print(); });
  EXPECT_EQ(out, Msg(0, 1, "[aicore] start\n") + "[simd_vf] v=7\n" + Msg(0, 1, "[aicore] end 1\n"));
}

}  // namespace

namespace {

__simd_vf__ void VfDump(__ubuf__ half* ub) {
  AscendC::Reg::RegTensor<int32_t> r;
  AscendC::Reg::Arange(r, -1);
  asc_dump_reg<int32_t>(r, 7, 3);
  asc_dump<half>(ub, 8, 2);
}

__global__ __vector__ void vf_dump() {
  AscendC::LocalTensor<half> t(AscendC::TPosition::VECCALC, 64, 16);
  AscendC::Duplicate(t, half(1.5f), 16);
  AscendC::PipeBarrier<PIPE_V>();
  asc_vf_call<VfDump>(reinterpret_cast<__ubuf__ half*>(t.HostPtr()));
  asc_dump_ubuf<half>(reinterpret_cast<__ubuf__ half*>(t.HostPtr()), 9, 1);
}

// asc_dump prints the reference's DumpTensor form through the kernel printf: without the block
// prefix inside a vector function, with it outside.
TEST_F(KernelPrintf, AscDumpPrintsDumpTensorLines) {
  const std::string out = PrintedOn950(stream_, "vf_dump", [] { vf_dump(); });
  EXPECT_EQ(out,
            "DumpTensor: desc=7, addr=0, data_type=int32, position=REG, dump_size=3\n"
            "[-1, 0, 1]\n"
            "DumpTensor: desc=8, addr=64, data_type=float16, position=UB, dump_size=2\n"
            "[1.500000, 1.500000]\n" +
                Msg(0, 1,
                    "DumpTensor: desc=9, addr=64, data_type=float16, position=UB, dump_size=1\n"
                    "[1.500000]\n"));
}

}  // namespace
