// ASCENDC_DUMP=0 (defined before the header) silences the kernel printf, not host code's.
#define ASCENDC_DUMP 0
#undef NDEBUG  // so that only ASCENDC_DUMP=0 compiles ascendc_assert out
#include <gtest/gtest.h>

#include <string>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "lngrad_acl/launch.h"

namespace {

TEST(KernelPrintfNoDump, KernelMessagesAreDroppedHostOnesKept) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  testing::internal::CaptureStdout();
  ::lngrad::acl::LaunchKernel("quiet", __FILE__, __LINE__, (4), (0), (nullptr),
                              [&](auto&&...) { AscendC::printf("kernel %d\n", 1); });
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ::lngrad::aicore::debug::printf("host %d\n", 2);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "host 2\n");
  aclrtResetDevice(0);
}

}  // namespace
