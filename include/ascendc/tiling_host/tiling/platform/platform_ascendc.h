// The toolkit's platform query for host tiling code (platform_ascendc::PlatformAscendCManager),
// answering for the simulated products of lngrad (lngrad/product.h) instead of a device's
// platform configuration. Names, enum values and signatures are the vendor's; what the values
// are and where they differ from a device: docs/ascendc_compat.md, "Platform queries".
#pragma once

#include <cstdint>

#include "lngrad/product.h"

namespace platform_ascendc {

enum class CoreMemType {
  L0_A = 0,
  L0_B = 1,
  L0_C = 2,
  L1 = 3,
  L2 = 4,
  UB = 5,
  HBM = 6,
  FB = 7,
  BT = 8,
  RESERVED
};

enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND310P,
  ASCEND310B,
  ASCEND950,
  ASCEND910_55,
  ASCEND910_95 = ASCEND950,
  AS31XM1,
  ASCEND031,
  ASCEND035,
  ASCEND310,
  ASCEND610,
  ASCEND610Lite,
  ASCEND910_93,
  BS9SX1A,
  BS9SX2A,
  HI3796CV300CS,
  HI3796CV300ES,
  MC61AM21A,
  MC62,
  SD3403,
  KIRINX90,
  KIRIN9030,
  MC32DM11A,
  ASCEND350,
  RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

// The platform of one simulated product.
class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  // lngrad: the platform of `product` (the vendor's constructor takes its platform info).
  explicit PlatformAscendC(const lngrad::Product& product) : product_(&product) {}

  // Cube/vector split products (A2, A3, 950): the vector core count; others: the AI core count.
  uint32_t GetCoreNum() const;
  uint32_t GetCoreNumAic() const;
  uint32_t GetCoreNumAiv() const;
  // Ascend310P: its separate vector cores; 0 elsewhere.
  uint32_t GetCoreNumVector() const;
  // sliceNum blocks of vector work spread over AIC/AIV pairs (the vendor's rule); 0 when the
  // result exceeds aicCoreNum at the 1:2 ratio.
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
  }
  // Workspace the high-level APIs need: 16 MiB on A2/A3 and 950, 2 MiB elsewhere.
  uint32_t GetLibApiWorkSpaceSize() const;
  // UB: the product's UB bytes, less 256 on A2/A3 (as the vendor reports) and less what
  // ReserveLocalMemory reserved. L1, L0_A, L0_B, L0_C, FB, BT: the product's cube buffers (L1
  // less the 256 bytes A2/A3 keep in mixed kernels; 0 without a cube). L2 and HBM read 0.
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  void ReserveLocalMemory(ReservedSize size);
  SocVersion GetSocVersion() const;

  // lngrad: the product answered for.
  const lngrad::Product& SimulatedProduct() const { return *product_; }

 private:
  const lngrad::Product* product_;
  uint32_t reservedMemSize_ = 0;
};

class PlatformAscendCManager {
 public:
  // The platform of the product in force (lngrad::CurrentProduct(): LNGRAD_SOC, the compile
  // default of the .asc driver, or Ascend910B1). Never null.
  static PlatformAscendC* GetInstance();
  // The platform of the named SoC ("Ascend910B1"); nullptr and a message on stderr for a name
  // lngrad does not simulate.
  static PlatformAscendC* GetInstance(const char* customSocVersion);

  PlatformAscendCManager() = delete;
};

}  // namespace platform_ascendc
