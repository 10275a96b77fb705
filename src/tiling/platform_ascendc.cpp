// platform_ascendc::PlatformAscendC for the simulated products.
#include "tiling/platform/platform_ascendc.h"

#include <cstdio>
#include <string_view>
#include <vector>

namespace platform_ascendc {
namespace {

constexpr uint64_t kA2UbReserved = 256;  // the vendor's LOCAL_RESERV_SIZE on ASCEND910B
constexpr uint32_t kMiB = 1024 * 1024;

PlatformAscendC& InstanceFor(const lngrad::Product& product) {
  // One platform per product, made once; leaked so that host code running from static
  // destructors may still ask.
  static std::vector<PlatformAscendC>* all = [] {
    auto* v = new std::vector<PlatformAscendC>;
    for (const lngrad::Product& p : lngrad::AllProducts()) v->emplace_back(p);
    return v;
  }();
  for (PlatformAscendC& p : *all) {
    if (&p.SimulatedProduct() == &product) return p;
  }
  // CurrentProduct() and FindProduct() return entries of AllProducts().
  return all->front();
}

// The cube's buffers as a kernel may use them (0: none, or a type not modelled). L1 without the
// A2's 256 bytes kept in mixed kernels, as the UB without its own (ASC_L1_SIZE, ASC_UB_SIZE).
uint64_t CubeMemSize(const lngrad::CubeBuffers& c, CoreMemType t) {
  switch (t) {
    case CoreMemType::L0_A:
      return c.l0a_bytes;
    case CoreMemType::L0_B:
      return c.l0b_bytes;
    case CoreMemType::L0_C:
      return c.l0c_bytes;
    case CoreMemType::L1:
      return c.l1_bytes - c.l1_mix_reserve_bytes;
    case CoreMemType::FB:
      return c.fb_bytes;
    case CoreMemType::BT:
      return c.bt_bytes;
    default:
      return 0;
  }
}

}  // namespace

uint32_t PlatformAscendC::GetCoreNum() const { return GetCoreNumAiv(); }

uint32_t PlatformAscendC::GetCoreNumAic() const { return product_->aicore_count; }

uint32_t PlatformAscendC::GetCoreNumAiv() const {
  return product_->split_cores ? product_->vector_core_count : product_->aicore_count;
}

uint32_t PlatformAscendC::GetCoreNumVector() const {
  return GetSocVersion() == SocVersion::ASCEND310P ? product_->vector_core_count : 0;
}

uint32_t PlatformAscendC::CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum,
                                            uint32_t aivCoreNum) const {
  if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
  const uint32_t ratio = aivCoreNum / aicCoreNum;
  const uint32_t blocks = (sliceNum + (ratio - 1)) / ratio;
  if (ratio == 2 && blocks > aicCoreNum) {
    std::fprintf(stderr, "CalcTschNumBlocks: %u blocks for %u slices exceed the %u cube cores\n",
                 blocks, sliceNum, aicCoreNum);
    return 0;
  }
  return blocks;
}

uint32_t PlatformAscendC::GetLibApiWorkSpaceSize() const {
  const lngrad::NpuArch a = product_->arch;
  return (a == lngrad::NpuArch::k2201 || a == lngrad::NpuArch::k3510) ? 16 * kMiB : 2 * kMiB;
}

void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
  if (memType != CoreMemType::UB) {
    size = CubeMemSize(product_->cube, memType);
    return;
  }
  size = product_->ub_bytes;
  if (GetSocVersion() == SocVersion::ASCEND910B) size -= kA2UbReserved;
  size = size > reservedMemSize_ ? size - reservedMemSize_ : 0;
}

void PlatformAscendC::ReserveLocalMemory(ReservedSize size) {
  switch (size) {
    case ReservedSize::RESERVED_SIZE_8K:
      reservedMemSize_ = 8 * 1024;
      return;
    case ReservedSize::RESERVED_SIZE_16K:
      reservedMemSize_ = 16 * 1024;
      return;
    case ReservedSize::RESERVED_SIZE_32K:
      reservedMemSize_ = 32 * 1024;
      return;
  }
  std::fprintf(stderr, "ReserveLocalMemory: unknown ReservedSize %d; nothing reserved\n",
               static_cast<int>(size));
}

SocVersion PlatformAscendC::GetSocVersion() const {
  const std::string_view v = product_->soc_version;
  if (v == "ASCEND910B") return SocVersion::ASCEND910B;
  if (v == "ASCEND910") return SocVersion::ASCEND910;
  if (v == "ASCEND310P") return SocVersion::ASCEND310P;
  if (v == "ASCEND310B") return SocVersion::ASCEND310B;
  if (v == "ASCEND950") return SocVersion::ASCEND950;
  if (v == "ASCEND350") return SocVersion::ASCEND350;
  return SocVersion::RESERVED_VERSION;
}

PlatformAscendC* PlatformAscendCManager::GetInstance() {
  return &InstanceFor(lngrad::CurrentProduct());
}

PlatformAscendC* PlatformAscendCManager::GetInstance(const char* customSocVersion) {
  if (customSocVersion == nullptr) return GetInstance();
  const lngrad::Product* p = lngrad::FindProduct(customSocVersion);
  if (p == nullptr) {
    std::fprintf(stderr,
                 "PlatformAscendCManager::GetInstance: SoC \"%s\" is not simulated by lngrad "
                 "(e.g. Ascend910B1, Ascend950PR_9599); returning nullptr\n",
                 customSocVersion);
    return nullptr;
  }
  return &InstanceFor(*p);
}

}  // namespace platform_ascendc
