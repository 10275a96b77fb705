// lngrad Ascend C Matmul: the kernel-side types that name a Matmul (MatmulType, MatmulConfig and
// its CFG_* values, CubeFormat, LayoutMode, MatmulCallBackFunc), with the vendor's names, values
// and field order (matmul_config.h, matmul_type.h).
#pragma once

#include <cstdint>
#include <type_traits>

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
enum class DecompressionMode {
  DECOMP_NONE = 0b0000,
  DECOMP_2bitTo8bit = 0b0001,
  DECOMP_3bitTo8bit = 0b0010,
  DECOMP_4bitTo8bit = 0b0011,
  DECOMP_16bitTo64bit = 0b0100,
  DECOMP_1bitTo8bit = 0b0101,
  DECOMP_1bitTo4bit = 0b0110,
  DECOMP_2bitTo4bit = 0b0111,
  DECOMP_3bitTo4bit = 0b1000,
};
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
  bool enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

// The configurations' common base: every field at the vendor's default, the kind's flag set.
enum class MatmulKind { kNorm, kMdl, kSpecialMdl, kBasic, kIbShare };
constexpr MatmulConfig MatmulConfigOf(MatmulKind kind) {
  MatmulConfig c{};
  c.doNorm = kind == MatmulKind::kNorm;
  c.doMultiDataLoad = kind == MatmulKind::kMdl;
  c.doSpecialMDL = kind == MatmulKind::kSpecialMdl;
  c.doBasicBlock = kind == MatmulKind::kBasic;
  c.doIBShareNorm = kind == MatmulKind::kIbShare;
  c.batchMode = BatchMode::BATCH_LESS_THAN_L1;
  c.scheduleType = ScheduleType::INNER_PRODUCT;
  c.enableUBReuse = true;
  return c;
}

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                       bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       bool enUnitFlag = true, bool enableMixDualMaster = false,
                                       BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
  MatmulConfig c = MatmulConfigOf(MatmulKind::kNorm);
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enUnitFlag = enUnitFlag;
  c.enableMixDualMaster = enableMixDualMaster;
  c.bmmOutMode = bmmOutMode;
  return c;
}

// The MDL (and special MDL) configurations' shared arguments.
constexpr MatmulConfig LoadConfig(MatmulKind kind, bool intrinsicsLimit, bool batchLoop,
                                  uint32_t doMTE2Preload, bool isVecND2NZ, bool isPerTensor,
                                  bool hasAntiQuantOffset) {
  MatmulConfig c = MatmulConfigOf(kind);
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.batchMode = BatchMode::NONE;
  c.enUnitFlag = false;
  return c;
}

constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                    uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true,
                                    bool enableUBReuse = true, bool enableL1CacheUB = false,
                                    bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false,
                                    bool enableL1BankConflictOptimise = false) {
  MatmulConfig c = LoadConfig(MatmulKind::kMdl, intrinsicsLimit, batchLoop, doMTE2Preload,
                              isVecND2NZ, isPerTensor, hasAntiQuantOffset);
  c.enUnitFlag = enUnitFlag;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  c.enableL1BankConflictOptimise = enableL1BankConflictOptimise;
  return c;
}

constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                           bool isPerTensor = false,
                                           bool hasAntiQuantOffset = false) {
  return LoadConfig(MatmulKind::kSpecialMdl, intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ,
                    isPerTensor, hasAntiQuantOffset);
}

constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK,
                                      bool intrinsicsLimit = false, bool batchLoop = false,
                                      BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = MatmulConfigOf(MatmulKind::kBasic);
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.batchMode = bmmMode;
  c.enUnitFlag = false;
  return c;
}

constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false,
                                            BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            bool isDoubleCache = false, bool enUnitFlag = true) {
  MatmulConfig c = MatmulConfigOf(MatmulKind::kIbShare);
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableDoubleCache = isDoubleCache;
  c.enUnitFlag = enUnitFlag;
  return c;
}

inline constexpr MatmulConfig CFG_NORM = GetNormalConfig();
inline constexpr MatmulConfig CFG_MDL = GetMDLConfig();
inline constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
inline constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

// GetMMConfig's parameter groups, with the vendor's fields.
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
struct MatmulShapeParams {
  uint32_t singleCoreM, singleCoreN, singleCoreK, basicM, basicN, basicK;
};
struct MatmulQuantParams {
  bool isPerTensor, hasAntiQuantOffset;
};
struct MatmulBatchParams {
  bool isNBatch;
  BatchMode batchMode;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
  bool intrinsicsCheck;
  bool enVecND2NZ;
  bool enableDoubleCache;
  bool enableL1CacheUB;
  uint32_t doMTE2Preload;
  IterateOrder iterateOrder;
  ScheduleType scheduleType;
  bool enableReuse = true;
  bool enableUBReuse;
  bool isPartialOutput = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
struct MatmulBiasParams {
  bool enableSetBias = true;
};
struct MatrixOffset {
  int32_t offset, row, col, height, width;
};

// One parameter group onto c (the vendor's field-by-field copy).
template <typename P>
constexpr void ApplyMMConfig(MatmulConfig& c, const P& p) {
  if constexpr (std::is_same_v<P, MatmulShapeParams>) {
    c.singleCoreM = p.singleCoreM, c.singleCoreN = p.singleCoreN, c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM, c.basicN = p.basicN, c.basicK = p.basicK;
  } else if constexpr (std::is_same_v<P, MatmulQuantParams>) {
    c.isPerTensor = p.isPerTensor, c.hasAntiQuantOffset = p.hasAntiQuantOffset;
  } else if constexpr (std::is_same_v<P, MatmulBatchParams>) {
    c.isNBatch = p.isNBatch, c.batchMode = p.batchMode, c.isBiasBatch = p.isBiasBatch;
    c.bmmOutMode = p.bmmOutMode;
  } else if constexpr (std::is_same_v<P, MatmulFuncParams>) {
    c.intrinsicsCheck = p.intrinsicsCheck, c.enVecND2NZ = p.enVecND2NZ;
    c.enableDoubleCache = p.enableDoubleCache, c.enableL1CacheUB = p.enableL1CacheUB;
    c.doMTE2Preload = p.doMTE2Preload, c.iterateOrder = p.iterateOrder;
    c.scheduleType = p.scheduleType, c.enableReuse = p.enableReuse;
    c.enableUBReuse = p.enableUBReuse, c.isPartialOutput = p.isPartialOutput;
    c.isA2B2Shared = p.isA2B2Shared, c.isEnableChannelSplit = p.isEnableChannelSplit;
    c.enableKdimReorderLoad = p.enableKdimReorderLoad;
    c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
    c.enableRelu = p.enableRelu, c.decompMode = p.decompMode;
  } else if constexpr (std::is_same_v<P, MatmulBiasParams>) {
    c.enableSetBias = p.enableSetBias;
  }
}

// The mode's configuration with each given parameter group applied in order.
template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
  MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL          ? CFG_MDL
                   : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                   : configMode == MatmulConfigMode::CONFIG_IBSHARE    ? CFG_IBSHARE_NORM
                                                                       : CFG_NORM;
  (ApplyMMConfig(c, std::decay_t<ArgTypes>(args)), ...);
  return c;
}

// A constant tiling (the Matmul's configuration parameter in place of a MatmulConfig; its Init
// then takes a null TCubeTiling): the vendor's fields, -1 where unset, and the configuration.
struct MatmulApiStaticTiling {
  int32_t usedCoreNum = -1, M = -1, N = -1, Ka = -1, Kb = -1;
  int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1;
  int32_t baseM = -1, baseN = -1, baseK = -1;
  int32_t depthA1 = -1, depthB1 = -1, stepM = -1, stepN = -1, isBias = -1, transLength = -1;
  int32_t iterateOrder = -1, shareMode = -1, shareL1Size = -1, shareL0CSize = -1, shareUbSize = -1;
  int32_t stepKa = -1, stepKb = -1, depthAL1CacheUB = -1, depthBL1CacheUB = -1;
  int32_t dbL0A = -1, dbL0B = -1, dbL0C = -1;
  int32_t ALayoutInfoB = -1, ALayoutInfoS = -1, ALayoutInfoN = -1, ALayoutInfoG = -1,
          ALayoutInfoD = -1;
  int32_t BLayoutInfoB = -1, BLayoutInfoS = -1, BLayoutInfoN = -1, BLayoutInfoG = -1,
          BLayoutInfoD = -1;
  int32_t CLayoutInfoB = -1, CLayoutInfoS1 = -1, CLayoutInfoN = -1, CLayoutInfoG = -1,
          CLayoutInfoS2 = -1;
  int32_t BatchNum = -1, mxTypePara = -1;
  MatmulConfig cfg = CFG_NORM;
};

// The constant tiling of a configuration whose MatmulShapeParams give the single-core shape
// (the original shape starts there; SetOrgShape sets the real one) and the base block; with no
// single-core shape, only the base block. lngrad's L1 stage is not modelled, so the L1 fields
// get a plain valid choice (one base block per step, two in depth) and change no number.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                   int32_t l1Size = 512 * 1024) {
  (void)l1Size;
  MatmulApiStaticTiling t;
  t.cfg = mmCFG;
  const bool base = mmCFG.basicM != 0 && mmCFG.basicN != 0 && mmCFG.basicK != 0;
  if (base) {
    t.baseM = static_cast<int32_t>(mmCFG.basicM);
    t.baseN = static_cast<int32_t>(mmCFG.basicN);
    t.baseK = static_cast<int32_t>(mmCFG.basicK);
    t.dbL0A = t.dbL0B = 2;
    t.isBias = mmCFG.enableSetBias ? 1 : 0;
  }
  if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0) return t;
  t.M = t.singleCoreM = static_cast<int32_t>(mmCFG.singleCoreM);
  t.N = t.singleCoreN = static_cast<int32_t>(mmCFG.singleCoreN);
  t.Ka = t.Kb = t.singleCoreK = static_cast<int32_t>(mmCFG.singleCoreK);
  t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
  t.depthA1 = t.depthB1 = 2;
  t.iterateOrder = 0;
  t.dbL0C = 1;
  t.shareMode = 0;
  t.shareL0CSize = base ? t.baseM * t.baseN * 4 : -1;
  t.shareUbSize = 0;
  return t;
}

// A, B, C or bias of a Matmul: where it lives, its format and element type (SRCPOS: where a
// TSCM operand was copied from, GM or VECOUT; the same bytes for lngrad).
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false,
          TPosition SRCPOS = TPosition::GM>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
  constexpr static TPosition srcPos = SRCPOS;
};

// B of a 2:4 sparse Matmul (SparseMatmulType): B holds two of every four K values (dense, K / 2
// per column) and an index matrix (INDEX_POSITION, SetSparseIndex) says which two.
template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT, typename TYPE,
          bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE> {
  constexpr static TPosition indexPosition = INDEX_POSITION;
};

// An MX operand (MatmulTypeWithScale; the 950's fp8/fp4 Matmul): A or B with its e8m0 scales,
// one per 32 K values, at SCALE_POSITION in SCALE_FORMAT (GM, ND: the forms lngrad runs).
template <TPosition POSITION, TPosition SCALE_POSITION, CubeFormat FORMAT, typename TYPE,
          bool ISTRANS = false, TPosition SRCPOS = TPosition::GM, CubeFormat SCALE_FORMAT = FORMAT,
          bool SCALE_ISTRANS = ISTRANS, TPosition SCALE_SRCPOS = SRCPOS>
struct MatmulTypeWithScale
    : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LayoutMode::NONE, false, SRCPOS> {
  constexpr static TPosition scalePosition = SCALE_POSITION;
  constexpr static CubeFormat scaleFormat = SCALE_FORMAT;
  constexpr static bool isScaleTrans = SCALE_ISTRANS;
  constexpr static TPosition srcScalePos = SCALE_SRCPOS;
};

// The user's copy callbacks: CopyA1 / CopyB1 fill A's / B's L1 tile of each K slice
// (docs/ascendc_kernels.md, "The Matmul API"); DataCopyOut is not run yet.
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {
  static_assert(DataCopyOut == nullptr,
                "lngrad's Matmul does not run a DataCopyOut callback yet (docs/ascendc_compat.md)");
  static constexpr auto DataCopyOutPtr = DataCopyOut;
  static constexpr auto CopyA1Ptr = CopyA1;
  static constexpr auto CopyB1Ptr = CopyB1;
};

}  // namespace AscendC

// Kernels name the configurations without a namespace, as the vendor declares them.
using AscendC::BatchMode;
using AscendC::BatchOutMode;
using AscendC::CFG_IBSHARE_NORM;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::DecompressionMode;
using AscendC::GetBasicConfig;
using AscendC::GetIBShareNormConfig;
using AscendC::GetMDLConfig;
using AscendC::GetMMConfig;
using AscendC::GetNormalConfig;
using AscendC::GetSpecialMDLConfig;
using AscendC::IterateMode;
using AscendC::IterateOrder;
using AscendC::MatmulApiStaticTiling;
using AscendC::MatmulBatchParams;
using AscendC::MatmulBiasParams;
using AscendC::MatmulConfig;
using AscendC::MatmulConfigMode;
using AscendC::MatmulFuncParams;
using AscendC::MatmulQuantParams;
using AscendC::MatmulShapeParams;
using AscendC::MatrixOffset;
using AscendC::MM_CFG_BB;
using AscendC::ScheduleType;
