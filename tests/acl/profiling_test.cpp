// The profiling ranges of acl/acl_prof.h: ids of strings, balanced ranges per thread, and each
// misuse's code and message.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "acl/acl.h"

// The description an operator reports (layout of the kit's torch_library_report_tensor sample).
struct aclprofEventAttributes {
  uint16_t version;
  uint16_t size;
  uint32_t messageType;
  void* message;
};

namespace {

std::string RecentMessage() {
  const char* m = aclGetRecentErrMsg();
  return m == nullptr ? "" : m;
}

TEST(AclProf, Str2IdIsStableAndDistinct) {
  const uint64_t a = aclprofStr2Id("add_custom");
  EXPECT_NE(a, 0U);
  EXPECT_EQ(aclprofStr2Id("add_custom"), a);
  EXPECT_EQ(aclprofStr2Id(std::string("add_custom").c_str()), a);
  EXPECT_NE(aclprofStr2Id("AddCustom"), a);
  EXPECT_EQ(aclprofStr2Id(nullptr), 0U);
}

TEST(AclProf, RangesNest) {
  aclprofEventAttributes attr{1, 8, 0, nullptr};
  ASSERT_EQ(aclprofRangePushEx(&attr), ACL_SUCCESS);
  ASSERT_EQ(aclprofRangePushEx(&attr), ACL_SUCCESS);
  EXPECT_EQ(aclprofRangePop(), ACL_SUCCESS);
  EXPECT_EQ(aclprofRangePop(), ACL_SUCCESS);
  aclGetRecentErrMsg();
  EXPECT_EQ(aclprofRangePop(), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(RecentMessage().find("aclprofRangePop: no range is open"), std::string::npos);
}

TEST(AclProf, NullAttributesAreInvalid) {
  aclGetRecentErrMsg();
  EXPECT_EQ(aclprofRangePushEx(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(RecentMessage().find("aclprofRangePushEx: attr is nullptr"), std::string::npos);
  EXPECT_EQ(aclprofRangePop(), ACL_ERROR_INVALID_PARAM);  // the failed push opened nothing
}

TEST(AclProf, RangesArePerThread) {
  aclprofEventAttributes attr{1, 8, 0, nullptr};
  ASSERT_EQ(aclprofRangePushEx(&attr), ACL_SUCCESS);
  aclError other = ACL_SUCCESS;
  std::thread([&] { other = aclprofRangePop(); }).join();
  EXPECT_EQ(other, ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofRangePop(), ACL_SUCCESS);
}

}  // namespace

namespace {

// aclFormat's values, as the CANN documentation's table gives them.
TEST(AclFormat, VendorValues) {
  EXPECT_EQ(ACL_FORMAT_UNDEFINED, -1);
  EXPECT_EQ(ACL_FORMAT_NCHW, 0);
  EXPECT_EQ(ACL_FORMAT_ND, 2);
  EXPECT_EQ(ACL_FORMAT_FRACTAL_NZ, 29);
  EXPECT_EQ(ACL_FORMAT_NCDHW, 30);
  EXPECT_EQ(ACL_FORMAT_NC, 35);
  EXPECT_EQ(ACL_FORMAT_NCL, 47);
  EXPECT_EQ(ACL_FORMAT_FRACTAL_NZ_C0_8, 54);
}

}  // namespace
