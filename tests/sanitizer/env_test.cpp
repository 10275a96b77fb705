// LNGRAD_SANITIZE=all (set by CTest): launches that do not name their tools take them from the
// environment. ICPU_RUN_KF throws the finding as a KernelCheckError; the ACL runtime fails the
// stream, and aclrtSynchronizeStream returns ACL_ERROR_RT_AICORE_EXCEPTION.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "lngrad_acl/launch.h"

namespace {

constexpr uint32_t kN = 64;

// z = 2 * x on a static tensor; with kSynced false the kernel forgets the MTE2 -> V flag.
template <bool kSynced>
void Doubling(GM_ADDR x, GM_ADDR z) {
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + AscendC::GetBlockIdx() * kN, kN);
  zg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + AscendC::GetBlockIdx() * kN, kN);
  AscendC::LocalTensor<float> t(AscendC::TPosition::VECCALC, 0, kN);
  AscendC::DataCopy(t, xg, kN);
  if constexpr (kSynced) {
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  }
  AscendC::Muls(t, t, 2.0f, kN);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(zg, t, kN);
}

// The kernel that forgets its flag, and its fixed twin.
void Unsynced(GM_ADDR x, GM_ADDR z) { Doubling<false>(x, z); }
void Synced(GM_ADDR x, GM_ADDR z) { Doubling<true>(x, z); }

// What `kernel<<<1, nullptr, nullptr>>>(x, z)` becomes (lngrad-asc's rewrite), in a plain C++ test.
void LaunchOneBlock(const char* name, void (*kernel)(GM_ADDR, GM_ADDR), void* x, void* z) {
  ::lngrad::acl::LaunchKernel(
      name, __FILE__, __LINE__, (1), (nullptr), (nullptr), [&](auto&&... a) { kernel(a...); },
      static_cast<GM_ADDR>(x), static_cast<GM_ADDR>(z));
}

TEST(IcpuRunKf, ThrowsTheFinding) {
  uint8_t* x = static_cast<uint8_t*>(AscendC::GmAlloc(2 * kN * sizeof(float)));
  uint8_t* z = static_cast<uint8_t*>(AscendC::GmAlloc(2 * kN * sizeof(float)));
  try {
    ICPU_RUN_KF(Unsynced, 2, x, z);
    ADD_FAILURE() << "ICPU_RUN_KF did not throw";
  } catch (const lngrad::aicore::KernelCheckError& e) {
    EXPECT_EQ(e.check(), "racecheck");
    EXPECT_NE(e.message().find("HardEvent::MTE2_V"), std::string::npos) << e.message();
  }
  EXPECT_NO_THROW(ICPU_RUN_KF(Synced, 2, x, z));
  AscendC::GmFree(x);
  AscendC::GmFree(z);
}

class Acl : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
};

TEST_F(Acl, UnsyncedKernelFailsTheStream) {
  void *x = nullptr, *z = nullptr;
  ASSERT_EQ(aclrtMalloc(&x, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&z, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<float> host(kN, 1.0f);
  ASSERT_EQ(aclrtMemcpy(x, kN * sizeof(float), host.data(), kN * sizeof(float),
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  LaunchOneBlock("Unsynced", Unsynced, x, z);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("[racecheck]"), std::string::npos) << msg;
  LaunchOneBlock("Synced", Synced, x, z);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(x), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(z), ACL_SUCCESS);
}

// Device memory is not zeroed on the NPU: a kernel that reads an input nobody copied in.
TEST_F(Acl, DeviceMemoryWithoutACopyIsUninitialised) {
  void *x = nullptr, *z = nullptr;
  ASSERT_EQ(aclrtMalloc(&x, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&z, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  LaunchOneBlock("Synced", Synced, x, z);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("[initcheck]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("came from aclrtMalloc"), std::string::npos) << msg;
  // aclrtMemset counts as a write; the kernel's own output then counts as written too.
  ASSERT_EQ(aclrtMemset(x, kN * sizeof(float), 0, kN * sizeof(float)), ACL_SUCCESS);
  LaunchOneBlock("Synced", Synced, x, z);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  LaunchOneBlock("Synced", Synced, z, x);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(x), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(z), ACL_SUCCESS);
}

}  // namespace
