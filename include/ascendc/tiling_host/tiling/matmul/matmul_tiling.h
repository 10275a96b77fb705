// The Matmul high-level API's host tiling (the vendor's adv_api/matmul/matmul_tiling.h,
// bmm_tiling.h, matmul_tiling_base.h and matmul_tilingdata.h, reached through
// tiling/tiling_api.h): matmul_tiling::MatmulApiTiling (one core), MultiCoreMatmulTiling and the
// optiling::TCubeTiling class whose image is the kernel's TCubeTiling. GetTiling returns 0, or
// -1 for an impossible request (the reason in lngrad::tiling::LastTilingStatus()). The search is
// lngrad's own (lngrad::tiling::MatmulTilingPlan; docs/ascendc_kernels.md, "The Matmul API"): it
// always yields base blocks that fit L0A, L0B, L0C, the BiasTable and the L1 of the product.
#pragma once

#include <array>
#include <cstdint>
#include <iostream>  // the vendor's tiling headers bring it; the samples use std::cout

#include "kernel_tiling/kernel_tiling.h"
#include "lngrad/ascendc_enums.h"
#include "lngrad/product.h"
#include "lngrad/status.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_data_def.h"

namespace optiling {
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(TCubeTiling, LNGRAD_TCUBE_TILING_FIELDS);
}  // namespace optiling

namespace matmul_tiling {

// The vendor's values (matmul_tiling_base.h).
enum class DataType : int32_t {
  LNGRAD_GE_BASIC_DATA_TYPES(LNGRAD_ENUMERATOR_VALUE) DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_BFLOAT16 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E4M3FN = 35,
  DT_FLOAT8_E5M2 = 36,
  DT_FLOAT4_E2M1 = 37,
  DT_FLOAT8_E8M0 = 38,
  DT_FLOAT4_E1M2 = 39,
  DT_MAX = 40,
};
enum class TPosition : int32_t {
  LNGRAD_ASCENDC_TPOSITIONS(LNGRAD_ENUMERATOR, LNGRAD_ENUMERATOR_ALIAS) MAX,
};
enum class CubeFormat : int32_t {
  LNGRAD_ASCENDC_CUBE_FORMATS(LNGRAD_ENUMERATOR_VALUE, LNGRAD_ENUMERATOR_ALIAS)
};
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

// SetMatmulConfigParams' arguments as one object.
struct MatmulConfigParams {
  int32_t mmConfigType;
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

struct SysTilingTempBufSize {
  int32_t ubSize = 0;
  int32_t l1Size = 0;
  int32_t l0cSize = 0;
};
struct MatTilingType {
  TPosition pos = TPosition::GM;
  CubeFormat type = CubeFormat::ND;
  DataType dataType = DataType::DT_FLOAT;
  bool isTrans = false;
  bool isDB = false;
};
struct PlatformInfo {
  platform_ascendc::SocVersion socVersion;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};

class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase();
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MatmulApiTilingBase(const PlatformInfo& platform);
  virtual ~MatmulApiTilingBase() = default;
  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetDequantType(DequantType dequantType) {
    deqType = dequantType;
    return 0;
  }
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
  int32_t EnableBias(bool isBiasIn = false);
  int32_t SetBias(bool isBiasIn = false) { return EnableBias(isBiasIn); }
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1,
                         int32_t btSize = -1);
  int32_t SetTraverse(MatrixTraverse traverse);
  int32_t SetMadType(MatrixMadType madType);
  // MX (MatrixMadType::MXMODE): where A's and B's e8m0 scales lie; recorded, the plan needs none.
  int32_t SetScaleAType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = false);
  int32_t SetScaleBType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = true);
  // 2:4 sparse B (SparseMatmulType): recorded; the plan is that of the dense shape.
  int32_t SetSparse(bool isSparseIn = false) {
    isSparse_ = isSparseIn;
    return 0;
  }
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true,
                          bool transNZ2ND = true);
  void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                             ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                             bool enVecND2NZIn = false);
  void SetMatmulConfigParams(const MatmulConfigParams& p) {
    SetMatmulConfigParams(p.mmConfigType, p.enableL1CacheUB, p.scheduleType, p.traverse,
                          p.enVecND2NZ);
  }
  int32_t GetBaseM() const { return baseM; }
  int32_t GetBaseN() const { return baseN; }
  int32_t GetBaseK() const { return baseK; }

  // Batch Matmul (IterateBatch): A's, B's and C's layout axes (B, S, N, G, D; C's D is S2),
  // the most batches one IterateBatch computes, and the NORMAL layout's batches and M/N/K
  // (batchA x M x K, batchB x K x N into max(batchA, batchB) x M x N).
  int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBatchNum(int32_t batch);
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k);

  virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;
  virtual int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) = 0;

  optiling::TCubeTiling tiling_;
  MatTilingType aType_;
  MatTilingType bType_;
  MatTilingType cType_;
  MatTilingType biasType_;
  bool isBias = false;
  int32_t blockDim = 0;
  int32_t orgM = 0, orgN = 0, orgKa = 0, orgKb = 0;
  int32_t singleM = 0, singleN = 0, singleK = 0;
  int32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  int32_t baseM = 0, baseN = 0, baseK = 0;
  MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
  MatrixMadType madType_ = MatrixMadType::NORMAL;
  DequantType deqType = DequantType::SCALAR;
  bool enableSplitK_ = false;
  int32_t mmConfigType = 1;  // 0: Norm; 1: MDL

 protected:
  // lngrad: the request GetTiling plans from, and its result into both tiling forms.
  int64_t Plan(int32_t cores, AscendC::tiling::TCubeTiling& out);
  uint32_t caps_[5] = {0, 0, 0, 0, 0};  // the product's L1, L0A, L0B, L0C, BiasTable bytes
  int32_t fixBase_[3] = {-1, -1, -1};
  int32_t fixSingle_[3] = {-1, -1, -1};
  int32_t bufferSpace_[4] = {-1, -1, -1, -1};  // L1, L0C, UB, BiasTable
  int32_t SetLayout(int which, std::array<int32_t, 5> axes, const char* api);
  int32_t layout_[3][5] = {{-1, -1, -1, -1, -1}, {-1, -1, -1, -1, -1}, {-1, -1, -1, -1, -1}};
  int32_t batchNum_ = -1;
  ScheduleType scheduleType_ = ScheduleType::INNER_PRODUCT;
  MatTilingType scaleAType_, scaleBType_;
  bool isSparse_ = false;
};

class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  int64_t GetTiling(optiling::TCubeTiling& tiling) override;
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;
  bool EnableL1BankConflictOptimise() { return false; }
};

// One core's batch Matmul tiling (SetBatchInfoForNormal or the layouts, SetBatchNum).
class BatchMatmulTiling : public MatmulApiTiling {
 public:
  using MatmulApiTiling::MatmulApiTiling;
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  int32_t SetDim(int32_t dim);
  int32_t SetShape(int32_t m, int32_t n, int32_t k) override;
  int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1);
  int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1,
                         int32_t minN = -1, int32_t minK = -1);
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK);
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim);
  void EnableMultiCoreSplitK(bool flag) { enableSplitK_ = flag; }
  void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }
  bool EnableL1BankConflictOptimise() { return false; }
  int64_t GetTiling(optiling::TCubeTiling& tiling) override;
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;
};

}  // namespace matmul_tiling

namespace lngrad::tiling {

// What a Matmul tiling is planned from (every size in elements, every capacity in bytes).
struct MatmulTilingRequest {
  int32_t m = 0, n = 0, k = 0;                           // the shape the cores share (SetShape)
  int32_t org_m = 0, org_n = 0, org_ka = 0, org_kb = 0;  // the whole matrices (SetOrgShape)
  int32_t a_bits = 16, b_bits = 16;                      // A's and B's element sizes
  int32_t cores = 1;                                     // at most this many cores
  bool split_k = false, bias = false, traverse_n = false;
  bool a_whole = false, b_whole = false;  // A (B) in TSCM: one core holds all its rows (columns)
  bool a_trans = false, b_trans = false;  // SetAType/SetBType's isTrans
  bool a_nz = false, b_nz = false, c_nz = false;       // CubeFormat::NZ operands
  bool n_buffer_33 = false;                            // ScheduleType::N_BUFFER_33
  int32_t fix_base[3] = {-1, -1, -1};                  // SetFixSplit: baseM, baseN, baseK or -1
  int32_t fix_single[3] = {-1, -1, -1};                // SetSingleShape
  uint32_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, bt = 0;  // the capacities it must fit
};

// How the cores share the shape: the per-core extents and the cores used.
struct CoreSplit {
  int64_t m = 0, n = 0, k = 0;
  int64_t cores = 0;
};

// The vendor's multi-core split of `r` (src/tiling/matmul/matmul_tiling_dims.cpp): its dims
// search over the request's cores, or its N_BUFFER_33 rule; InvalidArgument where it has none.
Status VendorCoreSplit(const MatmulTilingRequest& r, CoreSplit* out);

// The TCubeTiling of `r` (docs/ascendc_kernels.md, "The Matmul API"): InvalidArgument for an
// impossible request, and then *out is unchanged.
Status MatmulTilingPlan(const MatmulTilingRequest& r, AscendC::tiling::TCubeTiling* out);

}  // namespace lngrad::tiling
