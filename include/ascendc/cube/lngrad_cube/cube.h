// lngrad Ascend C cube: the AI core's matrix unit on the CPU (layer cube, issue 29).
//
// Memories: L1 (positions A1, B1, C1), L0A (A2), L0B (B2), BiasTable (C2), L0C (CO1) and the
// Fixpipe Buffer (C2PIPE2GM), per block, with the product's sizes (lngrad::CubeBuffers); TPipe,
// TQue, TBuf and LocalTensor(pos, addr, size) reach them through aicore's LocalMemoryHook.
// Instructions: LoadData (2D, L1 -> L0A/L0B), LoadDataWithTranspose, Mmad, Fixpipe (L0C -> GM) and
// DataCopy L1 -> BiasTable; each runs in program order and records its pipe (MTE1, M, FIX) for
// the sanitizer. Layouts, the accumulation order and what is not emulated: docs/ascendc_kernels.md,
// "The cube".
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "lngrad_aicore/bfloat16.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/cores.h"
#include "lngrad_aicore/defs.h"
#include "lngrad_aicore/fp8.h"
#include "lngrad_aicore/half.h"
#include "lngrad_aicore/sanitizer.h"
#include "lngrad_aicore/tensor.h"
#include "lngrad_cube/mx_types.h"
#include "lngrad_cube/params.h"

namespace lngrad::cube {

// The element types the cube moves and multiplies.
// The MX forms' (the 950): fp8 e4m3/e5m2, fp4 e2m1/e1m2 (4-bit values, two to a byte), e8m0.
enum class Elem : uint8_t {
  kS4,
  kS8,
  kU8,
  kS16,
  kU16,
  kF16,
  kBf16,
  kF32,
  kS32,
  kU32,
  kF8E4M3,
  kF8E5M2,
  kF4E2M1,
  kF4E1M2,
  kE8M0,
  kHif8,
  kOther
};
template <typename T>
constexpr Elem ElemOf() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, AscendC::int4b_t>) return Elem::kS4;
  if constexpr (std::is_same_v<U, int8_t>) return Elem::kS8;
  if constexpr (std::is_same_v<U, uint8_t>) return Elem::kU8;
  if constexpr (std::is_same_v<U, int16_t>) return Elem::kS16;
  if constexpr (std::is_same_v<U, uint16_t>) return Elem::kU16;
  if constexpr (std::is_same_v<U, half>) return Elem::kF16;
  if constexpr (std::is_same_v<U, bfloat16_t>) return Elem::kBf16;
  if constexpr (std::is_same_v<U, float>) return Elem::kF32;
  if constexpr (std::is_same_v<U, int32_t>) return Elem::kS32;
  if constexpr (std::is_same_v<U, uint32_t>) return Elem::kU32;
  if constexpr (std::is_same_v<U, fp8_e4m3fn_t>) return Elem::kF8E4M3;
  if constexpr (std::is_same_v<U, fp8_e5m2_t>) return Elem::kF8E5M2;
  if constexpr (std::is_same_v<U, fp4x2_e2m1_t>) return Elem::kF4E2M1;
  if constexpr (std::is_same_v<U, fp4x2_e1m2_t>) return Elem::kF4E1M2;
  if constexpr (std::is_same_v<U, fp8_e8m0_t>) return Elem::kE8M0;
  if constexpr (std::is_same_v<U, hifloat8_t>) return Elem::kHif8;
  return Elem::kOther;
}
uint32_t ElemBits(Elem e) noexcept;
const char* ElemName(Elem e) noexcept;

using View = aicore::detail::TensorView;

// Installs the cube's memories and copies into aicore's hooks; true. kernel_operator.h calls it
// before main (kInstalled), so every program that includes it has the cube.
bool Install() noexcept;
inline const bool kInstalled = Install();

// The C API's cube arrays (`__cbuf__ T name[N];` in a kernel: L1; `__ca__` L0A, `__cb__` L0B,
// `__cc__` L0C, `__fbuf__` the Fixpipe Buffer), which lngrad-asc rewrites into CubeArray calls:
// one object per block and declaration, placed after the block's earlier arrays in that memory.
void* CubeStatic(const void* key, uint64_t bytes, AscendC::TPosition pos, const char* name,
                 aicore::SrcLoc loc);
template <typename Tag>
const void* ArrayKey(Tag) {
  static const char key = 0;
  return &key;
}
template <typename T>
T& CubeArray(const void* key, const char* name, AscendC::TPosition pos,
             aicore::SrcLoc loc = aicore::SrcLoc::Current()) {
  return *static_cast<T*>(CubeStatic(key, sizeof(T), pos, name, loc));
}

void LoadData2d(const View& dst, const View& src, const AscendC::LoadData2DParams& p, Elem e,
                aicore::SrcLoc loc);
// A feature map's description (SetFmatrix, or LoadData 3Dv2's own).
struct Fmatrix {
  uint32_t l1h, l1w;
  uint8_t pad[4];  // left, right, top, bottom
};
// LoadData 3Dv2's parameters in a form every arch compiles alike.
struct Load3dArgs {
  Fmatrix fm;
  bool own_fmatrix, own_pad;  // take fm / pad_value from here, else from SetFmatrix / padding
  bool fmatrix_right;
  uint32_t pad_value;  // raw bits
  uint32_t channel, k_ext, m_ext, k_start, m_start;
  uint32_t stride_w, stride_h, filter_w, filter_h, dil_w, dil_h;
  bool transpose;
  bool with_stride;  // LoadDataWithStride: the repeats and K stride of SetLoadDataRepeatWithStride
};
void LoadData3dV2(const View& dst, const View& src, const Load3dArgs& a, Elem e,
                  aicore::SrcLoc loc);
void SetFmatrix(const Fmatrix& fm, bool right);
// DataCopy GM -> L1 with Dn2NzParams (950): the elements read from src (for its bounds check).
uint64_t Dn2NzSrcExtent(const AscendC::Dn2NzParams& p) noexcept;
void CopyDn2Nz(const View& dst, const std::byte* src, const AscendC::Dn2NzParams& p,
               uint32_t elem_bytes, aicore::SrcLoc loc);
// Fill / InitConstValue: `value` (raw bits of `bits` bits) into repeat rows of `blocks` blocks.
void FillConst(const View& dst, uint32_t repeat, uint32_t blocks, uint32_t gap, uint32_t value,
               uint32_t bits, aicore::SrcLoc loc);
void LoadDataSparse(const View& dst, const View& src, const View& idx,
                    const AscendC::LoadData2DParams& p, aicore::SrcLoc loc);
void MmadSparse(const View& c, const View& a, const View& b, const AscendC::MmadParams& p,
                aicore::SrcLoc loc);
void SetPaddingValue(uint32_t bits);
void SetRepeatWithStride(uint32_t repeat_stride, uint32_t repeat_time, uint32_t repeat_mode,
                         uint32_t dst_stride);
template <typename T>
uint32_t RawBits(const T& v) {
  uint32_t r = 0;
  std::memcpy(&r, &v, sizeof(T) < 4 ? sizeof(T) : 4);
  return r;
}
template <typename T, typename P>
Load3dArgs Load3dArgsOf(const P& p, bool own_fmatrix, bool own_pad) {
  Load3dArgs a{};
  a.fm = {p.l1H, p.l1W, {p.padList[0], p.padList[1], p.padList[2], p.padList[3]}};
  a.own_fmatrix = own_fmatrix;
  a.own_pad = own_pad;
  a.fmatrix_right = p.fMatrixCtrl;
  a.pad_value = RawBits(p.padValue);
  a.channel = p.channelSize;
  a.k_ext = p.kExtension;
  a.m_ext = p.mExtension;
  a.k_start = p.kStartPt;
  a.m_start = p.mStartPt;
  a.stride_w = p.strideW;
  a.stride_h = p.strideH;
  a.filter_w = p.filterW + (p.filterSizeW ? 256u : 0u);
  a.filter_h = p.filterH + (p.filterSizeH ? 256u : 0u);
  a.dil_w = p.dilationFilterW;
  a.dil_h = p.dilationFilterH;
  a.transpose = p.enTranspose;
  return a;
}
Load3dArgs Load3dArgsOfPro(const AscendC::LoadData3DParamsV2Pro& p);
void SetRepeat(uint32_t repeat_stride, uint32_t repeat_time, uint32_t repeat_mode);
void SetBoundary(uint32_t bytes);
void LoadData2dV2(const View& dst, const View& src, const AscendC::LoadData2DParamsV2& p, Elem e,
                  aicore::SrcLoc loc);
void LoadDataTranspose(const View& dst, const View& src,
                       const AscendC::LoadData2dTransposeParams& p, Elem e, aicore::SrcLoc loc);
// bias: nullptr without a bias tensor. gemv: A is one row stored contiguously (m == 1 turns
// the GEMV mode on; the 950's disableGemv turns it off), as GemvMode tells.
void Mmad(const View& c, const View& a, const View& b, const View* bias,
          const AscendC::MmadParams& p, bool gemv, Elem a_elem, Elem b_elem, Elem out,
          aicore::SrcLoc loc);
inline bool GemvMode(const AscendC::MmadParams& p) {
#if __NPU_ARCH__ == 3510
  return p.m == 1 && !p.disableGemv;
#else
  return p.m == 1;
#endif
}
// One Fixpipe's parameters in a form every arch compiles alike (the parameter structs' layouts
// follow the kernel's __NPU_ARCH__). Strides in elements.
struct FixArgs {
  AscendC::CO2Layout layout;
  uint32_t n, m;
  uint64_t src_stride;  // elements between column blocks of L0C (srcStride x 16)
  uint64_t dst_stride;  // ND: between rows; DN: between columns; NZ: between column blocks
  uint32_t nd_num;
  uint64_t src_nd_stride, dst_nd_stride;  // elements between the ndNum matrices
  int quant;
  uint64_t deq_scalar;
  bool relu, channel_split;
  uint8_t dual = 0;           // the 950's dualDstCtl (to UB)
  int32_t sub_block = 0;      // the 950's subBlockId (to UB, dualDstCtl 0)
  uint8_t unit_flag = 0;      // unitFlag (3: waits for the L0C's Mmad, releases it after)
  const char* api = nullptr;  // the API its checks name (nullptr: Fixpipe's)
};
// gm: the destination's first element (its range checked by the caller: FixpipeExtent).
// quant: the vector modes' per-column values (L1), else nullptr.
void FixpipeToGm(void* gm, const View& src, const View* quant, const FixArgs& a, Elem dst,
                 Elem src_elem, aicore::SrcLoc loc);
// L0C -> L1 (dst at A1, B1 or C1): the same, into the tensor.
void FixpipeToL1(const View& dst, const View& src, const View* quant, const FixArgs& a,
                 Elem dst_elem, Elem src_elem, aicore::SrcLoc loc);
// L0C -> the UB of an AIV of this AI core (the 950's isToUB configs, on the AIC of a __mix__
// kernel): dst is a UB tensor, which names the address in that AIV's UB.
void FixpipeToUb(const View& dst, const View& src, const View* quant, const FixArgs& a,
                 Elem dst_elem, Elem src_elem, aicore::SrcLoc loc);
// The elements (of dbits bits) a Fixpipe writes from its destination's first.
uint64_t FixpipeExtent(const FixArgs& a, uint32_t dbits) noexcept;

// DataCopy CO1 -> GM/L1: the Fixpipe arguments of p (dst_bytes: the output element's size) with
// the block's registers; *quant: the Fixpipe Buffer tensor SetFixPipeConfig named for the vector
// modes, else nullptr.
FixArgs CopyOutArgs(const AscendC::DataCopyCO12DstParams& p, uint32_t dst_bytes, bool to_gm,
                    const View** quant);
// The Fixpipe registers: the scalar quantisation value, the NZ2ND settings, the vector modes'
// Fixpipe Buffer tensor.
void SetPreQuant(uint64_t config);
void SetNz2nd(uint16_t nd_num, uint16_t src_nd_stride, uint32_t dst_nd_stride);
void SetQuantTensor(const View& fb);

// The unit of srcNdStride (the L0C distance between the ndNum matrices), in elements: 16 x C0
// (256) on Atlas A2/A3, C0 (16) on the 950 (the batch_matmul sample's two settings).
inline constexpr uint64_t kSrcNdUnit = __NPU_ARCH__ == 3510 ? 16 : 256;

// The fields every parameter struct has.
template <typename P>
FixArgs BaseArgs(const P& p, AscendC::CO2Layout layout, uint64_t dst_stride) {
  FixArgs a{};
  a.layout = layout;
  a.n = p.nSize;
  a.m = p.mSize;
  a.src_stride = uint64_t{p.srcStride} * 16;
  a.dst_stride = dst_stride;
  a.nd_num = 1;
  a.quant = static_cast<int>(p.quantPre);
  a.deq_scalar = p.deqScalar;
  a.relu = p.reluEn;
  a.channel_split = p.isChannelSplit;
  if constexpr (requires { p.unitFlag; }) a.unit_flag = p.unitFlag;
  return a;
}
template <typename T>
FixArgs FixArgsOf(const AscendC::FixpipeParamsV220& p, AscendC::CO2Layout layout) {
  // NZ output: dstStride counts 32-byte blocks here.
  FixArgs a = BaseArgs(p, layout,
                       layout == AscendC::CO2Layout::NZ ? uint64_t{p.dstStride} * 32 / sizeof(T)
                                                        : uint64_t{p.dstStride});
  a.nd_num = p.ndNum;
  a.src_nd_stride = uint64_t{p.srcNdStride} * kSrcNdUnit;
  a.dst_nd_stride = p.dstNdStride;
  return a;
}
template <AscendC::CO2Layout F>
FixArgs FixArgsOf(const AscendC::FixpipeParamsArch3510<F>& p) {
  FixArgs a = BaseArgs(p, F, p.dstStride);
  if constexpr (F == AscendC::CO2Layout::ROW_MAJOR) {
    a.nd_num = p.params.ndNum;
    a.src_nd_stride = uint64_t{p.params.srcNdStride} * kSrcNdUnit;
    a.dst_nd_stride = p.params.dstNdStride;
  } else if constexpr (F == AscendC::CO2Layout::COLUMN_MAJOR) {
    a.nd_num = p.params.dnNum;
    a.src_nd_stride = uint64_t{p.params.srcNzMatrixStride} * kSrcNdUnit;
    a.dst_nd_stride = p.params.dstDnMatrixStride;
  }
  a.dual = p.dualDstCtl;
  a.sub_block = p.subBlockId ? 1 : 0;
  return a;
}

template <typename T, typename U>
void FixpipeTo(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
               const View* quant, const FixArgs& a, aicore::SrcLoc loc) {
  dst.Access(0, FixpipeExtent(a, aicore::kElemBits<T>), "Fixpipe(CO1->GM)");
  FixpipeToGm(const_cast<T*>(dst.GetPhyAddr()), src.View(), quant, a, ElemOf<T>(), ElemOf<U>(),
              loc);
}
template <typename T, typename U>
void FixpipeTo(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
               const View* quant, const FixArgs& a, aicore::SrcLoc loc, bool to_ub = false) {
  if (to_ub) return FixpipeToUb(dst.View(), src.View(), quant, a, ElemOf<T>(), ElemOf<U>(), loc);
  FixpipeToL1(dst.View(), src.View(), quant, a, ElemOf<T>(), ElemOf<U>(), loc);
}
template <typename T, typename U>
void FixpipeTo(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
               const View* quant, const FixArgs& a, aicore::SrcLoc loc, bool to_ub) {
  if (to_ub) {
    aicore::RaiseKernelCheck("cube.position",
                             "Fixpipe: an isToUB config needs a UB LocalTensor as dst, not GM");
  }
  FixpipeTo(dst, src, quant, a, loc);
}
// Whether the config names the UB (the 950's isToUB).
template <const AscendC::FixpipeConfig& config>
constexpr bool ToUb() {
#if __NPU_ARCH__ == 3510
  return config.isToUB;
#else
  return false;
#endif
}

}  // namespace lngrad::cube

namespace AscendC {

template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData2DParams& loadDataParams,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::LoadData2d(dst.View(), src.View(), loadDataParams, lngrad::cube::ElemOf<T>(), loc);
}

template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData2DParamsV2& loadDataParams,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::LoadData2dV2(dst.View(), src.View(), loadDataParams, lngrad::cube::ElemOf<T>(),
                             loc);
}

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG,
          typename U = T, std::enable_if_t<std::is_same_v<T, U>, bool> = true>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData3DParamsV2<U>& loadDataParams,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::LoadData3dV2(
      dst.View(), src.View(),
      lngrad::cube::Load3dArgsOf<T>(loadDataParams, defaultConfig.isSetFMatrix,
                                    defaultConfig.isSetPadding),
      lngrad::cube::ElemOf<T>(), loc);
}

// The 950's LoadData 3Dv2 with the K stride (and repeats) SetLoadDataRepeatWithStride set.
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG,
          typename U = T, std::enable_if_t<std::is_same_v<T, U>, bool> = true>
void LoadDataWithStride(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LoadData3DParamsV2<U>& loadDataParams,
                        lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::Load3dArgs a = lngrad::cube::Load3dArgsOf<T>(
      loadDataParams, defaultConfig.isSetFMatrix, defaultConfig.isSetPadding);
  a.with_stride = true;
  lngrad::cube::LoadData3dV2(dst.View(), src.View(), a, lngrad::cube::ElemOf<T>(), loc);
}
// The packed LoadData 3Dv2 (feature map and pad value from SetFmatrix, SetLoadDataPaddingValue).
template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData3DParamsV2Pro& loadDataParams,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::LoadData3dV2(dst.View(), src.View(), lngrad::cube::Load3dArgsOfPro(loadDataParams),
                             lngrad::cube::ElemOf<T>(), loc);
}
// LoadData 3Dv2's repeats (Atlas A2/A3) and the L1 boundary past which its reads wrap to L1's
// start (bytes; 0: none).
inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) {
  lngrad::cube::SetRepeat(repeatParams.repeatStride, repeatParams.repeatTime,
                          repeatParams.repeatMode);
}
inline void SetLoadDataBoundary(uint32_t boundaryValue) {
  lngrad::cube::SetBoundary(boundaryValue);
}
inline void SetLoadDataRepeatWithStride(const LoadDataRepeatParamWithStride& repeatParams) {
  lngrad::cube::SetRepeatWithStride(repeatParams.repeatStride, repeatParams.repeatTime,
                                    repeatParams.repeatMode, repeatParams.dstStride);
}

// 4:2 sparsity (Atlas A2/A3): the dense B and its index; C = A x B with A's elements picked by
// the index (docs/ascendc_kernels.md).
template <typename T, typename U, std::enable_if_t<std::is_same_v<T, int8_t>, bool> = true,
          std::enable_if_t<std::is_same_v<U, uint8_t>, bool> = true>
void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LocalTensor<U>& idx, const LoadData2DParams& loadDataParam,
                        lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::LoadDataSparse(dst.View(), src.View(), idx.View(), loadDataParam, loc);
}
template <typename T, typename U, std::enable_if_t<std::is_same_v<T, int32_t>, bool> = true,
          std::enable_if_t<std::is_same_v<U, int8_t>, bool> = true>
void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
                    const LocalTensor<U>& filter, const MmadParams& mmadParams,
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::MmadSparse(dst.View(), fm.View(), filter.View(), mmadParams, loc);
}

// GM (DN) -> L1 (NZ) on the 950; 4-bit types move as bytes (nValue counts bytes, as the reference
// says).
template <typename T, bool enableSmallC0 = false>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Dn2NzParams& intriParams,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(!enableSmallC0, "lngrad: the 950's enableSmallC0 DN2NZ mode is not emulated");
  constexpr uint32_t kBytes = sizeof(T);
  src.Access(0, lngrad::cube::Dn2NzSrcExtent(intriParams), "DataCopy(GM->L1, Dn2NzParams)");
  lngrad::cube::CopyDn2Nz(dst.View(), reinterpret_cast<const std::byte*>(src.GetPhyAddr()),
                          intriParams, kBytes, loc);
}

// L1 (A1/B1/C1) or, on Atlas A2/A3, L0A/L0B filled with one value (MTE1).
template <typename T, typename U = T, std::enable_if_t<std::is_same_v<T, U>, bool> = true>
void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& initConstValueParams,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "Fill: int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t or float");
  lngrad::cube::FillConst(dst.View(), initConstValueParams.repeatTimes,
                          initConstValueParams.blockNum, initConstValueParams.dstGap,
                          lngrad::cube::RawBits(initConstValueParams.initValue), 8 * sizeof(T),
                          loc);
}
template <typename T, typename U = T, std::enable_if_t<std::is_same_v<T, U>, bool> = true>
void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& initConstValueParams,
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Fill(dst, initConstValueParams, loc);
}

// The feature map LoadData 3Dv2 reads when its config leaves it out.
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4],
                       const FmatrixMode& fmatrixMode) {
  lngrad::cube::SetFmatrix({l1H, l1W, {padList[0], padList[1], padList[2], padList[3]}},
                           fmatrixMode == FmatrixMode::FMATRIX_RIGHT);
}
template <typename T>
void SetLoadDataPaddingValue(const T padValue) {
  lngrad::cube::SetPaddingValue(lngrad::cube::RawBits(padValue));
}

template <typename T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParams& loadDataParams,
                           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::LoadDataTranspose(dst.View(), src.View(), loadDataParams, lngrad::cube::ElemOf<T>(),
                                  loc);
}

// C (L0C) = A (L0A) x B (L0B) + the initial matrix of mmadParams.
template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const MmadParams& mmadParams,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::Mmad(dst.View(), fm.View(), filter.View(), nullptr, mmadParams,
                     lngrad::cube::GemvMode(mmadParams), lngrad::cube::ElemOf<U>(),
                     lngrad::cube::ElemOf<S>(), lngrad::cube::ElemOf<T>(), loc);
}

// C = A x B + bias (BiasTable, one value per column).
template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const LocalTensor<V>& bias, const MmadParams& mmadParams,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, V>, "Mmad: the bias has the type of the result");
  const lngrad::aicore::detail::TensorView b = bias.View();
  lngrad::cube::Mmad(dst.View(), fm.View(), filter.View(), &b, mmadParams,
                     lngrad::cube::GemvMode(mmadParams), lngrad::cube::ElemOf<U>(),
                     lngrad::cube::ElemOf<S>(), lngrad::cube::ElemOf<T>(), loc);
}

// L0C (NZ) -> GM (a GlobalTensor dst) or L1 (a LocalTensor at A1/B1/C1): ND (CFG_ROW_MAJOR), NZ
// (CFG_NZ) or, on the 950, DN (CFG_COLUMN_MAJOR), with the conversion the types and quantPre name.
// cbufWorkspace: the per-column quantisation values (uint64_t, L1) of the vector modes.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR,
          template <typename> class D>
void Fixpipe(const D<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& intriParams,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::FixpipeTo(dst, src, nullptr, lngrad::cube::FixArgsOf<T>(intriParams, config.format),
                          loc);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR,
          template <typename> class D, typename S>
void Fixpipe(const D<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsV220& intriParams,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<S, uint64_t>, "Fixpipe: cbufWorkspace holds uint64_t values");
  const lngrad::aicore::detail::TensorView q = cbufWorkspace.View();
  lngrad::cube::FixpipeTo(dst, src, &q, lngrad::cube::FixArgsOf<T>(intriParams, config.format),
                          loc);
}
// The 950's parameters (dstStride of NZ output in elements).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR,
          template <typename> class D>
void Fixpipe(const D<T>& dst, const LocalTensor<U>& src,
             const FixpipeParamsArch3510<config.format>& intriParams,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::cube::FixpipeTo(dst, src, nullptr, lngrad::cube::FixArgsOf(intriParams), loc,
                          lngrad::cube::ToUb<config>());
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR,
          template <typename> class D, typename S>
void Fixpipe(const D<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsArch3510<config.format>& intriParams,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<S, uint64_t>, "Fixpipe: cbufWorkspace holds uint64_t values");
  const lngrad::aicore::detail::TensorView q = cbufWorkspace.View();
  lngrad::cube::FixpipeTo(dst, src, &q, lngrad::cube::FixArgsOf(intriParams), loc,
                          lngrad::cube::ToUb<config>());
}

// The Fixpipe registers' tensors (the DataCopy CO1 -> GM forms' quantisation values) and the
// unitFlag reset. lngrad runs Mmad and Fixpipe in program order (the sanitizer sees their unit
// flags as ordering them); the call checks where its tensors are.
template <typename T, bool setRelu = false>
void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false) {
  static_assert(!setRelu, "SetFixPipeConfig: setRelu must be false (only quantPre is set)");
  const TPosition pos = preData.View().pos;
  if (pos != TPosition::C2PIPE2GM && !(isUnitFlag && pos == TPosition::CO1)) {
    lngrad::aicore::RaiseKernelCheck(
        "cube.position", std::string("SetFixPipeConfig: preData is at ") + PositionName(pos) +
                             "; it must be at C2PIPE2GM (or CO1 "
                             "for the unitFlag reset)");
  }
  if (pos == TPosition::C2PIPE2GM) lngrad::cube::SetQuantTensor(preData.View());
}
// The scalar quantisation value of DataCopy CO1 -> GM (M1, offset, sign: as deqScalar).
inline void SetFixpipePreQuantFlag(uint64_t config) { lngrad::cube::SetPreQuant(config); }
// DataCopy CO1 -> GM's NZ2ND: ndNum matrices, srcNdStride (L0C, units as Fixpipe's) and
// dstNdStride (elements) apart.
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint32_t dstNdStride) {
  lngrad::cube::SetNz2nd(ndNum, srcNdStride, dstNdStride);
}

// L0C (NZ) -> GM or L1 through the Fixpipe registers (DataCopyCO12DstParams): NZ, or ND with
// nz2ndEn; the conversion quantPre names (the vector modes' values from SetFixPipeConfig).
template <typename T, typename U, template <typename> class D>
void DataCopy(const D<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& intriParams,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  const lngrad::aicore::detail::TensorView* q = nullptr;
  const auto a =
      lngrad::cube::CopyOutArgs(intriParams, sizeof(T), std::is_same_v<D<T>, GlobalTensor<T>>, &q);
  lngrad::cube::FixpipeTo(dst, src, q, a, loc);
}

template <typename T>
void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre,
                      bool isUnitFlag = false) {
  (void)reluPre;
  SetFixPipeConfig<T>(quantPre, isUnitFlag);
}

}  // namespace AscendC

#include "lngrad_cube/mx.h"
