// What the ACL runtime's test files share: the calling thread's recent error messages and a
// fixture holding device 0 and a stream for each test.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "acl/acl.h"

namespace lngrad::acl_test {

// The calling thread's recent messages (and clears them); "" when there are none.
inline std::string TakeMsg() {
  const char* m = aclGetRecentErrMsg();
  return m == nullptr ? std::string() : std::string(m);
}

// Device 0 set on this thread and a stream created on it, both for the test's duration.
class StreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }
  aclrtStream stream_ = nullptr;
};

}  // namespace lngrad::acl_test
