// matmul_tiling::MatmulApiTiling and MultiCoreMatmulTiling: the setters record the request,
// GetTiling plans it (lngrad::tiling::MatmulTilingPlan) and fills both tiling forms.
#include <algorithm>
#include <string>

#include "tiling/matmul/matmul_tiling.h"
#include "../tiling_common.h"

namespace matmul_tiling {
namespace {

// A setter's refusal: reported as the tiling's other errors are, then -1.
int32_t Refuse(const std::string& what) {
  lngrad::tiling::internal::Report(lngrad::Status::InvalidArgument("matmul_tiling::" + what));
  return -1;
}

// Bits of an A or B element; 0 for a type the cube does not multiply.
int32_t InputBits(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16:
    case DataType::DT_BFLOAT16:
      return 16;
    case DataType::DT_FLOAT:
      return 32;
    case DataType::DT_INT8:
    case DataType::DT_UINT8:
    case DataType::DT_HIFLOAT8:
    case DataType::DT_FLOAT8_E4M3FN:
    case DataType::DT_FLOAT8_E5M2:
      return 8;
    case DataType::DT_INT4:
    case DataType::DT_FLOAT4_E2M1:
    case DataType::DT_FLOAT4_E1M2:
      return 4;
    default:
      return 0;
  }
}

void CapsOf(const lngrad::Product& p, uint32_t caps[5]) {
  caps[0] = p.cube.l1_bytes - p.cube.l1_mix_reserve_bytes;  // the Matmul API's kernels are mixed
  caps[1] = p.cube.l0a_bytes;
  caps[2] = p.cube.l0b_bytes;
  caps[3] = p.cube.l0c_bytes;
  caps[4] = p.cube.bt_bytes;
}

// A set capacity (>= 0) in place of the product's.
uint32_t Cap(int32_t set, uint32_t product) {
  return set >= 0 ? std::min<uint32_t>(static_cast<uint32_t>(set), product) : product;
}

}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase() { CapsOf(lngrad::CurrentProduct(), caps_); }
MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform) {
  CapsOf(ascendcPlatform.SimulatedProduct(), caps_);
}
MatmulApiTilingBase::MatmulApiTilingBase(const PlatformInfo& platform) {
  caps_[0] = static_cast<uint32_t>(platform.l1Size);
  caps_[1] = static_cast<uint32_t>(platform.l0ASize);
  caps_[2] = static_cast<uint32_t>(platform.l0BSize);
  caps_[3] = static_cast<uint32_t>(platform.l0CSize);
  caps_[4] = 1024;  // the smallest BiasTable (Atlas A2/A3)
}

int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType,
                                      bool isTrans) {
  aType_ = {pos, type, dataType, isTrans, false};
  return 0;
}
int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType,
                                      bool isTrans) {
  bType_ = {pos, type, dataType, isTrans, false};
  return 0;
}
int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  cType_ = {pos, type, dataType, false, false};
  return 0;
}
int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  biasType_ = {pos, type, dataType, false, false};
  return 0;
}
int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
  singleM = m;
  singleN = n;
  singleK = k;
  return 0;
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn,
                                         int32_t orgKbIn) {
  orgM = orgMIn;
  orgN = orgNIn;
  orgKa = orgKaIn;
  orgKb = orgKbIn;
  return 0;
}
int32_t MatmulApiTilingBase::EnableBias(bool isBiasIn) {
  isBias = isBiasIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
  fixBase_[0] = baseMIn;
  fixBase_[1] = baseNIn;
  fixBase_[2] = baseKIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t ubSize,
                                            int32_t btSize) {
  bufferSpace_[0] = l1Size;
  bufferSpace_[1] = l0CSize;
  bufferSpace_[2] = ubSize;
  bufferSpace_[3] = btSize;
  return 0;
}
int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
  traverse_ = traverse;
  return 0;
}
int32_t MatmulApiTilingBase::SetMadType(MatrixMadType madType) {
  madType_ = madType;
  return 0;
}
int32_t MatmulApiTilingBase::SetScaleAType(TPosition scalePos, CubeFormat scaleType,
                                           bool isScaleTrans) {
  scaleAType_ = {scalePos, scaleType, DataType::DT_FLOAT8_E8M0, isScaleTrans, false};
  return 0;
}
int32_t MatmulApiTilingBase::SetScaleBType(TPosition scalePos, CubeFormat scaleType,
                                           bool isScaleTrans) {
  scaleBType_ = {scalePos, scaleType, DataType::DT_FLOAT8_E8M0, isScaleTrans, false};
  return 0;
}
int32_t MatmulApiTilingBase::SetDoubleBuffer(bool, bool, bool, bool, bool, bool) { return 0; }
void MatmulApiTilingBase::SetMatmulConfigParams(int32_t mmConfigTypeIn, bool,
                                                ScheduleType scheduleTypeIn,
                                                MatrixTraverse traverseIn, bool) {
  mmConfigType = mmConfigTypeIn;
  scheduleType_ = scheduleTypeIn;
  if (traverseIn != MatrixTraverse::NOSET) traverse_ = traverseIn;
}

int64_t MatmulApiTilingBase::Plan(int32_t cores, AscendC::tiling::TCubeTiling& out) {
  lngrad::tiling::MatmulTilingRequest r;
  // SetShape's -1: the original shape's extent.
  r.m = singleM > 0 ? singleM : orgM;
  r.n = singleN > 0 ? singleN : orgN;
  r.k = singleK > 0 ? singleK : orgKa;
  r.org_m = orgM > 0 ? orgM : singleM;
  r.org_n = orgN > 0 ? orgN : singleN;
  r.org_ka = orgKa > 0 ? orgKa : singleK;
  r.org_kb = orgKb > 0 ? orgKb : singleK;
  r.a_bits = InputBits(aType_.dataType);
  r.b_bits = InputBits(bType_.dataType);
  r.cores = cores;
  r.split_k = enableSplitK_;
  r.a_whole = aType_.pos == TPosition::TSCM;
  r.b_whole = bType_.pos == TPosition::TSCM;
  r.a_trans = aType_.isTrans;
  r.b_trans = bType_.isTrans;
  r.a_nz = aType_.type == CubeFormat::NZ;
  r.b_nz = bType_.type == CubeFormat::NZ;
  r.c_nz = cType_.type == CubeFormat::NZ;
  r.n_buffer_33 = scheduleType_ == ScheduleType::N_BUFFER_33;
  r.bias = isBias;
  r.traverse_n = traverse_ == MatrixTraverse::FIRSTN;
  std::copy(fixBase_, fixBase_ + 3, r.fix_base);
  std::copy(fixSingle_, fixSingle_ + 3, r.fix_single);
  r.l1 = Cap(bufferSpace_[0], caps_[0]);
  r.l0a = caps_[1];
  r.l0b = caps_[2];
  r.l0c = Cap(bufferSpace_[1], caps_[3]);
  r.bt = Cap(bufferSpace_[3], caps_[4]);
  const lngrad::Status st = lngrad::tiling::MatmulTilingPlan(r, &out);
  lngrad::tiling::internal::Report(st);
  if (!st.ok()) return -1;
  int32_t* const fields[3][5] = {{&out.ALayoutInfoB, &out.ALayoutInfoS, &out.ALayoutInfoN,
                                  &out.ALayoutInfoG, &out.ALayoutInfoD},
                                 {&out.BLayoutInfoB, &out.BLayoutInfoS, &out.BLayoutInfoN,
                                  &out.BLayoutInfoG, &out.BLayoutInfoD},
                                 {&out.CLayoutInfoB, &out.CLayoutInfoS1, &out.CLayoutInfoN,
                                  &out.CLayoutInfoG, &out.CLayoutInfoS2}};
  for (int m = 0; m < 3; ++m)
    for (int a = 0; a < 5; ++a) *fields[m][a] = layout_[m][a];
  out.BatchNum = batchNum_;
  lngrad::tiling::internal::CopyToOptiling(out, tiling_);
  singleCoreM = out.singleCoreM;
  singleCoreN = out.singleCoreN;
  singleCoreK = out.singleCoreK;
  baseM = out.baseM;
  baseN = out.baseN;
  baseK = out.baseK;
  return 0;
}

// The layouts' axes and the batch count, each at least 1.
int32_t MatmulApiTilingBase::SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  return SetLayout(0, {b, s, n, g, d}, "SetALayout");
}
int32_t MatmulApiTilingBase::SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  return SetLayout(1, {b, s, n, g, d}, "SetBLayout");
}
int32_t MatmulApiTilingBase::SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  return SetLayout(2, {b, s, n, g, d}, "SetCLayout");
}
int32_t MatmulApiTilingBase::SetBatchNum(int32_t batch) {
  if (batch < 1) return Refuse("SetBatchNum: batch must be at least 1");
  batchNum_ = batch;
  return 0;
}
int32_t MatmulApiTilingBase::SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m,
                                                   int32_t n, int32_t k) {
  if (SetALayout(batchA, m, 1, 1, k) != 0 || SetBLayout(batchB, n, 1, 1, k) != 0) return -1;
  return SetCLayout(std::max(batchA, batchB), m, 1, 1, n);
}
int32_t MatmulApiTilingBase::SetLayout(int which, std::array<int32_t, 5> axes, const char* api) {
  for (int32_t v : axes)
    if (v < 1) return Refuse(std::string(api) + ": every axis (b, s, n, g, d) must be at least 1");
  std::copy(axes.begin(), axes.end(), layout_[which]);
  return 0;
}

int64_t MatmulApiTiling::GetTiling(AscendC::tiling::TCubeTiling& tiling) { return Plan(1, tiling); }
int64_t MatmulApiTiling::GetTiling(optiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling t;
  const int64_t rc = Plan(1, t);
  if (rc == 0) lngrad::tiling::internal::CopyToOptiling(t, tiling);
  return rc;
}

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  blockDim = dim;
  return 0;
}
int32_t MultiCoreMatmulTiling::SetShape(int32_t m, int32_t n, int32_t k) {
  return MatmulApiTilingBase::SetShape(m, n, k);
}
int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn,
                                              int32_t singleKIn) {
  fixSingle_[0] = singleMIn;
  fixSingle_[1] = singleNIn;
  fixSingle_[2] = singleKIn;
  return 0;
}
int32_t MultiCoreMatmulTiling::SetSingleRange(int32_t, int32_t, int32_t, int32_t, int32_t,
                                              int32_t) {
  return 0;
}
int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
  shapeM = singleCoreM;
  shapeN = singleCoreN;
  shapeK = singleCoreK;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
  if (singleCoreM <= 0 || singleCoreN <= 0) return -1;
  mDim = (singleM + singleCoreM - 1) / singleCoreM;
  nDim = (singleN + singleCoreN - 1) / singleCoreN;
  dim = tiling_.get_usedCoreNum();
  return 0;
}
int64_t MultiCoreMatmulTiling::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  return Plan(blockDim > 0 ? blockDim : 1, tiling);
}
int64_t MultiCoreMatmulTiling::GetTiling(optiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling t;
  const int64_t rc = GetTiling(t);
  if (rc == 0) lngrad::tiling::internal::CopyToOptiling(t, tiling);
  return rc;
}

}  // namespace matmul_tiling
