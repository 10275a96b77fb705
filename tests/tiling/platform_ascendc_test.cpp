// platform_ascendc::PlatformAscendCManager answering for the simulated products.
#include <gtest/gtest.h>

#include <string>

#include "lngrad/product.h"
#include "tiling/platform/platform_ascendc.h"

namespace {

using platform_ascendc::CoreMemType;
using platform_ascendc::PlatformAscendC;
using platform_ascendc::PlatformAscendCManager;
using platform_ascendc::ReservedSize;
using platform_ascendc::SocVersion;

constexpr uint32_t kKiB = 1024;
constexpr uint32_t kMiB = 1024 * 1024;

uint64_t UbOf(const PlatformAscendC& p) {
  uint64_t size = 12345;
  p.GetCoreMemSize(CoreMemType::UB, size);
  return size;
}

TEST(PlatformAscendC, EnumValuesAreTheVendors) {
  EXPECT_EQ(static_cast<int>(CoreMemType::UB), 5);
  EXPECT_EQ(static_cast<int>(CoreMemType::L1), 3);
  EXPECT_EQ(static_cast<int>(SocVersion::ASCEND910B), 1);
  EXPECT_EQ(static_cast<int>(SocVersion::ASCEND310P), 2);
  EXPECT_EQ(static_cast<int>(SocVersion::ASCEND950), 4);
  EXPECT_EQ(SocVersion::ASCEND910_95, SocVersion::ASCEND950);
  // ASCEND910_95 = ASCEND950 restarts the count: AS31XM1 shares 5 with ASCEND910_55, as upstream.
  EXPECT_EQ(static_cast<int>(SocVersion::AS31XM1), 5);
  EXPECT_EQ(static_cast<int>(SocVersion::ASCEND350), 22);
  EXPECT_EQ(static_cast<int>(SocVersion::RESERVED_VERSION), 99999);
}

// The tests run with LNGRAD_SOC unset: the default product, Ascend910B1.
TEST(PlatformAscendC, DefaultInstanceIsTheCurrentProduct) {
  PlatformAscendC* p = PlatformAscendCManager::GetInstance();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(&p->SimulatedProduct(), &lngrad::CurrentProduct());
  EXPECT_EQ(p->SimulatedProduct().soc, "Ascend910B1");
  EXPECT_EQ(p->GetSocVersion(), SocVersion::ASCEND910B);
  EXPECT_EQ(p->GetCoreNumAiv(), 48u);
  EXPECT_EQ(p->GetCoreNum(), 48u);
  EXPECT_EQ(p->GetCoreNumAic(), 24u);
  EXPECT_EQ(p->GetCoreNumVector(), 0u);
  EXPECT_EQ(UbOf(*p), 192u * kKiB - 256u);  // the vendor keeps 256 B back on A2/A3
  // The cube's buffers, from the 2201 page's table (L1: ASC_L1_SIZE, 512 KB less 256 B).
  const std::pair<CoreMemType, uint64_t> cube[] = {{CoreMemType::L1, 512u * kKiB - 256u},
                                                   {CoreMemType::L0_A, 64u * kKiB},
                                                   {CoreMemType::L0_B, 64u * kKiB},
                                                   {CoreMemType::L0_C, 128u * kKiB},
                                                   {CoreMemType::BT, 1u * kKiB},
                                                   {CoreMemType::FB, 2u * kKiB},
                                                   {CoreMemType::L2, 0u}};
  for (const auto& [type, bytes] : cube) {
    uint64_t size = 1;
    p->GetCoreMemSize(type, size);
    EXPECT_EQ(size, bytes) << static_cast<int>(type);
  }
  EXPECT_EQ(p->GetLibApiWorkSpaceSize(), 16u * kMiB);
  EXPECT_EQ(PlatformAscendCManager::GetInstance(), p);  // one instance per product
}

TEST(PlatformAscendC, NamedSocs) {
  PlatformAscendC* a3 = PlatformAscendCManager::GetInstance("Ascend910_9392");
  ASSERT_NE(a3, nullptr);
  EXPECT_EQ(a3->GetSocVersion(), SocVersion::ASCEND910B);
  EXPECT_EQ(UbOf(*a3), 192u * kKiB - 256u);

  PlatformAscendC* n950 = PlatformAscendCManager::GetInstance("Ascend950PR_9599");
  ASSERT_NE(n950, nullptr);
  EXPECT_EQ(n950->GetSocVersion(), SocVersion::ASCEND950);
  EXPECT_EQ(UbOf(*n950), 248u * kKiB);
  EXPECT_EQ(n950->GetCoreNumAiv(), 48u);
  EXPECT_EQ(n950->GetLibApiWorkSpaceSize(), 16u * kMiB);

  PlatformAscendC* p310 = PlatformAscendCManager::GetInstance("Ascend310P3");
  ASSERT_NE(p310, nullptr);
  EXPECT_EQ(p310->GetSocVersion(), SocVersion::ASCEND310P);
  EXPECT_EQ(p310->GetCoreNum(), 10u);  // coupled: AI cores
  EXPECT_EQ(p310->GetCoreNumAiv(), 10u);
  EXPECT_EQ(p310->GetCoreNumVector(), 8u);
  EXPECT_EQ(UbOf(*p310), 256u * kKiB);
  EXPECT_EQ(p310->GetLibApiWorkSpaceSize(), 2u * kMiB);

  PlatformAscendC* n350 = PlatformAscendCManager::GetInstance("Ascend350_354f");
  ASSERT_NE(n350, nullptr);
  EXPECT_EQ(n350->GetSocVersion(), SocVersion::ASCEND350);

  EXPECT_EQ(PlatformAscendCManager::GetInstance(nullptr), PlatformAscendCManager::GetInstance());
}

TEST(PlatformAscendC, UnknownSocIsNullWithAMessage) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(PlatformAscendCManager::GetInstance("Ascend999"), nullptr);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("\"Ascend999\" is not simulated"), std::string::npos) << err;
}

TEST(PlatformAscendC, FollowsTheCurrentProduct) {
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend950PR_9599").ok());
  EXPECT_EQ(PlatformAscendCManager::GetInstance()->GetSocVersion(), SocVersion::ASCEND950);
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend910B1").ok());
  EXPECT_EQ(PlatformAscendCManager::GetInstance()->GetSocVersion(), SocVersion::ASCEND910B);
}

TEST(PlatformAscendC, ReservedLocalMemoryComesOffTheUb) {
  PlatformAscendC p(*lngrad::FindProduct("Ascend910B1"));  // not the shared instance
  p.ReserveLocalMemory(ReservedSize::RESERVED_SIZE_8K);
  EXPECT_EQ(UbOf(p), 192u * kKiB - 256u - 8u * kKiB);
  p.ReserveLocalMemory(ReservedSize::RESERVED_SIZE_32K);
  EXPECT_EQ(UbOf(p), 192u * kKiB - 256u - 32u * kKiB);
  EXPECT_EQ(UbOf(*PlatformAscendCManager::GetInstance("Ascend910B1")), 192u * kKiB - 256u);
}

TEST(PlatformAscendC, UnmodelledMemoriesReadZero) {
  // L2 and HBM everywhere; the cube's buffers on a product whose cube is not modelled (310P).
  const PlatformAscendC* a2 = PlatformAscendCManager::GetInstance();
  const PlatformAscendC* p310 = PlatformAscendCManager::GetInstance("Ascend310P1");
  ASSERT_NE(p310, nullptr);
  for (CoreMemType t : {CoreMemType::L0_A, CoreMemType::L0_B, CoreMemType::L0_C, CoreMemType::L1,
                        CoreMemType::L2, CoreMemType::HBM, CoreMemType::FB, CoreMemType::BT}) {
    uint64_t size = 99;
    p310->GetCoreMemSize(t, size);
    EXPECT_EQ(size, 0u) << static_cast<int>(t);
  }
  for (CoreMemType t : {CoreMemType::L2, CoreMemType::HBM}) {
    uint64_t size = 99;
    a2->GetCoreMemSize(t, size);
    EXPECT_EQ(size, 0u) << static_cast<int>(t);
  }
}

TEST(PlatformAscendC, CalcTschNumBlocks) {
  const PlatformAscendC* p = PlatformAscendCManager::GetInstance();
  EXPECT_EQ(p->CalcTschNumBlocks(40, 24, 48), 20u);  // two AIV per AIC
  EXPECT_EQ(p->CalcTschNumBlocks(41, 24, 48), 21u);
  EXPECT_EQ(p->CalcTschNumBlocks(7, 0, 48), 7u);   // no cube cores: unchanged
  EXPECT_EQ(p->CalcTschNumBlocks(7, 48, 24), 7u);  // more AIC than AIV: unchanged
  testing::internal::CaptureStderr();
  EXPECT_EQ(p->CalcTschNumBlocks(50, 24, 48), 0u);  // 25 pairs > 24 cube cores
  EXPECT_NE(testing::internal::GetCapturedStderr().find("CalcTschNumBlocks"), std::string::npos);
  EXPECT_EQ(p->CalcTschBlockDim(40, 24, 48), 20u);
}

}  // namespace
