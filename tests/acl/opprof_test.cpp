// msopprof's record (LNGRAD_OPPROF_OUTPUT, set by CTest to a file of this test's own): one line per
// launch with the description of the aclprofRangePushEx range around it. The expected lines are
// written out here from the description the test gives, not computed by the runtime's code.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "lngrad_acl/launch.h"

// The description, laid out as the kit's torch_library_report_tensor sample defines it.
struct aclprofTensor {
  uint32_t type;
  uint32_t format;
  uint32_t dataType;
  uint32_t shapeDim;
  uint32_t shape[8];
};
struct aclprofTensorInfo {
  uint64_t opNameId;
  uint64_t opTypeId;
  uint32_t resv;
  uint32_t tensorNum;
  uint32_t kernelType;
  uint32_t blockNums;
  void* stream;
  aclprofTensor* tensors;
};
struct aclprofEventAttributes {
  uint16_t version;
  uint16_t size;
  uint32_t messageType;
  union message {
    aclprofTensorInfo* tensorInfo;
  } message;
};

namespace {

__global__ __aicore__ void touch(GM_ADDR x) {
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 8);
  g.SetValue(AscendC::GetBlockIdx(), 1.0f);
}

std::vector<std::vector<std::string>> RecordLines(const char* file) {
  std::vector<std::vector<std::string>> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, '\t');) fields.push_back(f);
    if (!line.empty() && line.back() == '\t') fields.emplace_back();
    lines.push_back(fields);
  }
  return lines;
}

void Launch(void* dev, aclrtStream stream, uint32_t blocks) {
  ::lngrad::acl::LaunchKernel(
      "touch", __FILE__, __LINE__, (blocks), (nullptr), (stream),
      [&](auto&&... lngrad_args) { touch(lngrad_args...); }, dev);
}

TEST(AclOpprof, EachLaunchIsRecordedWithItsRange) {
  const char* file = std::getenv("LNGRAD_OPPROF_OUTPUT");
  ASSERT_NE(file, nullptr) << "CTest sets LNGRAD_OPPROF_OUTPUT";
  std::remove(file);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 8 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);

  aclprofTensor tensors[] = {{0, ACL_FORMAT_ND, ACL_FLOAT16, 2, {8, 2048}},
                             {0, ACL_FORMAT_NCL, ACL_FLOAT, 3, {2, 3, 4}},
                             {1, ACL_FORMAT_NCHW, ACL_INT32, 1, {7}}};
  aclprofTensorInfo info{
      aclprofStr2Id("my_add"), aclprofStr2Id("MyAdd"), 0, 3, 0, 4, stream, tensors};
  aclprofEventAttributes attr{1, 8, 0, {&info}};
  ASSERT_EQ(aclprofRangePushEx(&attr), ACL_SUCCESS);
  Launch(dev, stream, 4);
  ASSERT_EQ(aclprofRangePop(), ACL_SUCCESS);
  Launch(dev, stream, 2);  // outside any range
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);

  const auto lines = RecordLines(file);
  ASSERT_EQ(lines.size(), 2U);
  const std::vector<std::string> described = {"my_add", "MyAdd", "8,2048;2,3,4", "FLOAT16;FLOAT",
                                              "ND;NCL", "7",     "INT32",        "NCHW"};
  ASSERT_EQ(lines[0].size(), 11U);
  EXPECT_EQ(lines[0][0], "touch");
  EXPECT_EQ(lines[0][1], "4");
  EXPECT_GE(std::stod(lines[0][2]), 0.0);
  EXPECT_EQ(std::vector<std::string>(lines[0].begin() + 3, lines[0].end()), described);
  ASSERT_EQ(lines[1].size(), 11U);
  EXPECT_EQ(lines[1][1], "2");
  EXPECT_EQ(std::vector<std::string>(lines[1].begin() + 3, lines[1].end()),
            std::vector<std::string>(8, ""));
  aclrtFree(dev);
  aclrtDestroyStream(stream);
}

}  // namespace
