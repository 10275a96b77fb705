// The compile-time default product (LNGRAD_DEFAULT_SOC, as the compiler driver passes it for the
// --npu-arch). This file is compiled with -DLNGRAD_DEFAULT_SOC=<soc> and run by CTest once per
// environment, with LNGRAD_TEST_EXPECTED_SOC naming the product the setting must select:
//   LNGRAD_SOC unset            -> the compiled default
//   LNGRAD_SOC=<known product>  -> that product (the environment wins)
//   LNGRAD_SOC=<unknown name>   -> an error: every launch fails its stream, naming LNGRAD_SOC
//                                  (only AclDefaultSoc.UnknownEnvironment* run in that entry)
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "lngrad/product.h"
#include "lngrad_acl/launch.h"

#ifndef LNGRAD_DEFAULT_SOC
#error "compile this test with -DLNGRAD_DEFAULT_SOC=<soc>"
#endif

namespace {

// A static initialiser of this translation unit, after the header: already sees the default.
const std::string g_soc_at_static_init = aclrtGetSocName();

uint32_t g_ub_bytes = 0;
__global__ __aicore__ void read_ub_size() { g_ub_bytes = AscendC::GetUBSizeInBytes(); }

std::string Expected() {
  const char* e = std::getenv("LNGRAD_TEST_EXPECTED_SOC");
  return e != nullptr ? e : LNGRAD_DEFAULT_SOC;
}

TEST(AclDefaultSoc, SelectsTheProductBeforeMain) {
  EXPECT_EQ(g_soc_at_static_init, Expected());
  EXPECT_STREQ(aclrtGetSocName(), Expected().c_str());
  EXPECT_EQ(std::string(lngrad::CurrentProduct().soc), Expected());
}

TEST(AclDefaultSoc, KernelsRunOnThatProduct) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ::lngrad::acl::LaunchKernel("read_ub_size", __FILE__, __LINE__, (1), (nullptr), (nullptr),
                              [&](auto&&... lngrad_args) { read_ub_size(lngrad_args...); });
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  const lngrad::Product* p = lngrad::FindProduct(Expected());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(g_ub_bytes, p->ub_bytes);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST(AclDefaultSoc, SetCurrentSocStillOverrides) {
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend310P1").ok());
  EXPECT_STREQ(aclrtGetSocName(), "Ascend310P1");
}

TEST(AclDefaultSoc, AnUnknownDefaultIsReportedAndChangesNothing) {
  const std::string before(lngrad::CurrentProduct().soc);
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(::lngrad::acl::detail::ApplyDefaultSoc("Ascend999"));
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("LNGRAD_DEFAULT_SOC \"Ascend999\" is not a known SoC name"), std::string::npos)
      << err;
  EXPECT_EQ(std::string(lngrad::CurrentProduct().soc), before);
}

TEST(AclDefaultSoc, UnknownEnvironmentFailsEveryLaunch) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ::testing::internal::CaptureStderr();
  ::lngrad::acl::LaunchKernel("read_ub_size", __FILE__, __LINE__, (1), (nullptr), (nullptr),
                              [&](auto&&... lngrad_args) { read_ub_size(lngrad_args...); });
  const aclError rc = aclrtSynchronizeStream(nullptr);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(rc, ACL_SUCCESS);
  EXPECT_NE(err.find("LNGRAD_SOC"), std::string::npos) << err;
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("LNGRAD_SOC"), std::string::npos);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

}  // namespace
