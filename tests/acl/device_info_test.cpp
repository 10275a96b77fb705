// Tests of aclrtGetDeviceInfo (the simulated product's attributes) and of the thread's last
// runtime error (aclrtGetLastError, aclrtPeekAtLastError) after failed runtime calls.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "lngrad/product.h"

#include "acl_test_util.h"

namespace {

using lngrad::acl_test::TakeMsg;

// The product of one test, restored afterwards.
class OnProduct : public ::testing::Test {
 protected:
  void TearDown() override { ASSERT_TRUE(lngrad::SetCurrentSoc(saved_).ok()); }
  static int64_t Info(aclrtDevAttr attr, uint32_t device = 0) {
    int64_t v = -1;
    EXPECT_EQ(aclrtGetDeviceInfo(device, attr, &v), ACL_SUCCESS) << attr << ": " << TakeMsg();
    return v;
  }
  std::string saved_{lngrad::CurrentProduct().soc};
};

TEST(AclDeviceInfo, AttributeValuesAreTheVendors) {
  EXPECT_EQ(ACL_DEV_ATTR_AICPU_CORE_NUM, 1);
  EXPECT_EQ(ACL_DEV_ATTR_AICORE_CORE_NUM, 101);
  EXPECT_EQ(ACL_DEV_ATTR_CUBE_CORE_NUM, 102);
  EXPECT_EQ(ACL_DEV_ATTR_VECTOR_CORE_NUM, 201);
  EXPECT_EQ(ACL_DEV_ATTR_WARP_SIZE, 202);
  EXPECT_EQ(ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE, 203);
  EXPECT_EQ(ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, 204);
  EXPECT_EQ(ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, 301);
  EXPECT_EQ(ACL_DEV_ATTR_L2_CACHE_SIZE, 302);
  EXPECT_EQ(ACL_DEV_ATTR_SMP_ID, 401);
  EXPECT_EQ(ACL_DEV_ATTR_MAINBOARD_ID, 407);
  EXPECT_EQ(ACL_DEV_ATTR_IS_VIRTUAL, 501);
  EXPECT_EQ(ACL_RT_THREAD_LEVEL, 0);
}

TEST_F(OnProduct, The950HasTheSimtAttributes) {
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend950PR_9599").ok());
  EXPECT_EQ(Info(ACL_DEV_ATTR_AICORE_CORE_NUM), 24);
  EXPECT_EQ(Info(ACL_DEV_ATTR_CUBE_CORE_NUM), 24);
  EXPECT_EQ(Info(ACL_DEV_ATTR_VECTOR_CORE_NUM), 48);
  EXPECT_EQ(Info(ACL_DEV_ATTR_WARP_SIZE), 32);
  EXPECT_EQ(Info(ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE), 2048);
  EXPECT_EQ(Info(ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE), 248 * 1024);
  EXPECT_GT(Info(ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE), 0);
  EXPECT_EQ(Info(ACL_DEV_ATTR_PHY_CHIP_ID, 3), 3);
  EXPECT_EQ(Info(ACL_DEV_ATTR_IS_VIRTUAL), 0);
}

TEST_F(OnProduct, CoupledProductsHaveNoSeparateVectorCores) {
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend310P1").ok());
  EXPECT_EQ(Info(ACL_DEV_ATTR_AICORE_CORE_NUM), 10);
  EXPECT_EQ(Info(ACL_DEV_ATTR_VECTOR_CORE_NUM), 10);
  int64_t v = 7;
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v), ACL_ERROR_INVALID_PARAM)
      << "SIMT exists on the 950 only";
  EXPECT_EQ(v, 7);
  EXPECT_NE(TakeMsg().find("Ascend310P1"), std::string::npos);
}

TEST(AclDeviceInfo, Misuse) {
  int64_t v = 0;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclrtGetDeviceInfo(8, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v), ACL_ERROR_INVALID_PARAM);
  // 300: inside the enumeration's range (0 ... 511), no attribute.
  EXPECT_EQ(aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(300), &v), ACL_ERROR_INVALID_PARAM);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("aclrtGetDeviceInfo: deviceId 8"), std::string::npos) << err;
  EXPECT_NE(err.find("value is nullptr"), std::string::npos) << err;
  EXPECT_NE(err.find("attribute 300"), std::string::npos) << err;
  (void)TakeMsg();
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
}

TEST(AclLastError, ClearedByGetKeptByPeekPerThread) {
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);
  (void)::testing::internal::GetCapturedStderr();
  (void)TakeMsg();
  // The latest failure wins; a success in between does not clear it.
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  std::thread([] {
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS) << "per thread";
  }).join();
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

TEST(AclLastError, AnUnknownLevelIsRefusedAndKeepsTheError) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  const auto level = static_cast<aclrtLastErrLevel>(1);
  EXPECT_EQ(aclrtGetLastError(level), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtPeekAtLastError(level), ACL_ERROR_INVALID_PARAM);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("aclrtGetLastError: level 1 is not ACL_RT_THREAD_LEVEL"), std::string::npos)
      << err;
  (void)TakeMsg();
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM) << "aclrtFree's";
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

}  // namespace
