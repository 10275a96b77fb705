// lngrad Ascend C Matmul: the kernel-side types that name a Matmul (MatmulType, MatmulConfig and
// its CFG_* values, CubeFormat, LayoutMode, MatmulCallBackFunc), with the vendor's names, values
// and field order (matmul_config.h, matmul_type.h).
#pragma once

#include <cstdint>

#include "lngrad/ascendc_enums.h"
#include "lngrad_aicore/defs.h"

// Kernels name these without a namespace, as the vendor defines them.
enum class CubeFormat : int32_t {
  LNGRAD_ASCENDC_CUBE_FORMATS(LNGRAD_ENUMERATOR_VALUE, LNGRAD_ENUMERATOR_ALIAS)
};
enum class LayoutMode : int32_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

namespace AscendC {

using ::CubeFormat;
using ::LayoutMode;

inline constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};

// The vendor's fields in its order. lngrad runs every configuration through one engine
// (docs/ascendc_kernels.md, "The Matmul API"): the fields change no number.
struct MatmulConfig {
  bool doNorm;
  bool doBasicBlock;
  bool doMultiDataLoad;
  uint32_t basicM;
  uint32_t basicN;
  uint32_t basicK;
  bool intrinsicsCheck;
  bool isNBatch;
  bool enVecND2NZ;
  bool doSpecialBasicBlock;
  uint32_t doMTE2Preload;
  uint32_t singleCoreM;
  uint32_t singleCoreN;
  uint32_t singleCoreK;
  uint32_t stepM;
  uint32_t stepN;
  uint32_t baseMN;
  uint32_t singleCoreMN;
  bool enUnitFlag = true;
  bool isPerTensor;
  bool hasAntiQuantOffset;
  bool doIBShareNorm;
  bool doSpecialMDL;
  bool enableInit = true;
  BatchMode batchMode;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse;
  bool enableL1CacheUB;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder{IterateOrder::UNDEF};
  ScheduleType scheduleType;
  bool enableDoubleCache;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool isCO1Shared = false;
  uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
  bool enableL1BankConflictOptimise = false;
};

constexpr MatmulConfig MatmulConfigOf(bool norm, bool mdl, bool ibshare) {
  MatmulConfig c{};
  c.doNorm = norm;
  c.doMultiDataLoad = mdl;
  c.doIBShareNorm = ibshare;
  c.batchMode = BatchMode::NONE;
  c.scheduleType = ScheduleType::INNER_PRODUCT;
  return c;
}
inline constexpr MatmulConfig CFG_NORM = MatmulConfigOf(true, false, false);
inline constexpr MatmulConfig CFG_MDL = MatmulConfigOf(false, true, false);
inline constexpr MatmulConfig CFG_IBSHARE_NORM = MatmulConfigOf(false, false, true);
inline constexpr MatmulConfig MM_CFG_BB = MatmulConfigOf(false, false, false);
constexpr MatmulConfig GetNormalConfig() { return CFG_NORM; }
constexpr MatmulConfig GetMDLConfig() { return CFG_MDL; }

// A, B, C or bias of a Matmul: where it lives, its format and element type.
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

// The user's copy callbacks; lngrad accepts only none (nullptr).
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {
  static_assert(DataCopyOut == nullptr && CopyA1 == nullptr && CopyB1 == nullptr,
                "lngrad's Matmul does not run copy callbacks yet (docs/ascendc_compat.md)");
};

}  // namespace AscendC

// Kernels name the configurations without a namespace, as the vendor declares them.
using AscendC::CFG_IBSHARE_NORM;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::MatmulConfig;
using AscendC::MM_CFG_BB;
