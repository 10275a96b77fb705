// lngrad register API, the C++ flavour: the register loads and stores (the vendor's
// basic_api/reg_compute/kernel_reg_compute_datacopy_intf.h). Each is a PIPE_V instruction on
// lngrad_reg/ub_access.h, as the C flavour's asc_loadalign / asc_storealign: an address outside
// the block's UB raises reg_ub_bounds, one off the distribution's alignment reg_align (checked
// mode); the sanitizer sees the bytes. Post-update forms advance the address after the access
// (in elements; the data-block forms by repeatStride blocks).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "basic_api/reg_compute/kernel_reg_compute_struct_intf.h"
#include "lngrad_reg/ub_access.h"

namespace lngrad::reg::detail {

// The shape and element width of a LoadDist (the distributions lngrad models).
constexpr LoadShape ShapeOf(AscendC::Reg::LoadDist d) {
  using D = AscendC::Reg::LoadDist;
  switch (d) {
    case D::DIST_BRC_B8:
    case D::DIST_BRC_B16:
    case D::DIST_BRC_B32:
      return LoadShape::kBroadcast;
    case D::DIST_US_B8:
    case D::DIST_US_B16:
      return LoadShape::kUpsample;
    case D::DIST_DS_B8:
    case D::DIST_DS_B16:
      return LoadShape::kDownsample;
    case D::DIST_UNPACK_B8:
    case D::DIST_UNPACK_B16:
    case D::DIST_UNPACK_B32:
      return LoadShape::kUnpack;
    case D::DIST_UNPACK4_B8:
      return LoadShape::kUnpack4;
    case D::DIST_BLK:
      return LoadShape::kBlock;
    case D::DIST_E2B_B16:
    case D::DIST_E2B_B32:
      return LoadShape::kElemToBlock;
    default:
      return LoadShape::kNorm;
  }
}
template <AscendC::Reg::LoadDist dist, typename T>
constexpr uint32_t DistElemBytes() {
  using D = AscendC::Reg::LoadDist;
  if constexpr (dist == D::DIST_BRC_B8 || dist == D::DIST_US_B8 || dist == D::DIST_DS_B8 ||
                dist == D::DIST_UNPACK_B8 || dist == D::DIST_UNPACK4_B8) {
    return 1;
  } else if constexpr (dist == D::DIST_BRC_B16 || dist == D::DIST_US_B16 ||
                       dist == D::DIST_DS_B16 || dist == D::DIST_UNPACK_B16 ||
                       dist == D::DIST_E2B_B16) {
    return 2;
  } else if constexpr (dist == D::DIST_BRC_B32 || dist == D::DIST_UNPACK_B32 ||
                       dist == D::DIST_E2B_B32) {
    return 4;
  } else {
    return sizeof(T);
  }
}
template <AscendC::Reg::LoadDist dist, typename T>
void LoadDist(void* reg, const T* src, Loc loc) {
  static_assert(dist != AscendC::Reg::LoadDist::DIST_BDINTLV &&
                    dist < AscendC::Reg::LoadDist::DIST_SPLT4CHN_B8,
                "lngrad: this LoadDist is not yet modelled");
  LoadShaped(reg, src, ShapeOf(dist), DistElemBytes<dist, T>(), "LoadAlign", loc);
}

// One lane (lane 0) of mask, for the first-element stores.
template <typename T>
MaskReg FirstLane(const MaskReg& mask) {
  MaskReg m;
  m.SetLane<T>(0, mask.Lane<T>(0));
  return m;
}
template <AscendC::Reg::StoreDist dist, typename T>
void StoreDist(T* dst, const void* reg, const MaskReg& mask, Loc loc) {
  using D = AscendC::Reg::StoreDist;
  if constexpr (dist == D::DIST_PACK_B16 || dist == D::DIST_PACK_B32 || dist == D::DIST_PACK_B64) {
    constexpr uint32_t lane = dist == D::DIST_PACK_B16 ? 2 : dist == D::DIST_PACK_B32 ? 4 : 8;
    StorePacked(dst, reg, lane, mask, 32, "StoreAlign", loc);
  } else if constexpr (dist == D::DIST_FIRST_ELEMENT_B8 || dist == D::DIST_FIRST_ELEMENT_B16 ||
                       dist == D::DIST_FIRST_ELEMENT_B32) {
    StoreLanes(dst, reg, sizeof(T), FirstLane<T>(mask), sizeof(T), "StoreAlign", loc);
  } else {
    static_assert(dist == D::DIST_NORM || dist == D::DIST_NORM_B8 || dist == D::DIST_NORM_B16 ||
                      dist == D::DIST_NORM_B32,
                  "lngrad: this StoreDist is not yet modelled");
    StoreLanes(dst, reg, sizeof(T), mask, 32, "StoreAlign", loc);
  }
}

// A load or store of a register or, for a two-register tensor (RegTraitNumTwo, NORM only), of
// its two parts from / to consecutive VL bytes (the mask split between them).
template <AscendC::Reg::LoadDist dist, typename T, typename U>
void LoadReg(U& reg, const T* src, Loc loc) {
  if constexpr (kTwoRegs<U>) {
    static_assert(dist == AscendC::Reg::LoadDist::DIST_NORM, "RegTraitNumTwo: DIST_NORM");
    for (uint32_t h = 0; h < 2; ++h) LoadDist<dist>(reg.part[h].lane, src + h * kLanes<T>, loc);
  } else {
    LoadDist<dist>(reg.lane, src, loc);
  }
}
template <AscendC::Reg::StoreDist dist, typename T, typename U>
void StoreReg(T* dst, const U& reg, const MaskReg& mask, Loc loc) {
  if constexpr (kTwoRegs<U>) {
    static_assert(dist == AscendC::Reg::StoreDist::DIST_NORM, "RegTraitNumTwo: DIST_NORM");
    for (uint32_t h = 0; h < 2; ++h) {
      StoreDist<dist>(dst + h * kLanes<T>, reg.part[h].lane, PartMask<T>(mask, h), loc);
    }
  } else {
    StoreDist<dist>(dst, reg.lane, mask, loc);
  }
}

// The two-register distributions: DIST_DINTLV_Bn loads 2 VL bytes, element 2i (of n bits) to
// lane i of the first register and element 2i + 1 to lane i of the second; DIST_INTLV_Bn stores
// them back interleaved, all 2 VL bytes whatever the mask (the reference's tables).
template <AscendC::Reg::LoadDist dist>
constexpr uint32_t DualElemBytes() {
  using D = AscendC::Reg::LoadDist;
  static_assert(
      dist == D::DIST_DINTLV_B8 || dist == D::DIST_DINTLV_B16 || dist == D::DIST_DINTLV_B32,
      "lngrad: a two-register LoadAlign takes DIST_DINTLV_B8, _B16 or _B32");
  return dist == D::DIST_DINTLV_B8 ? 1 : dist == D::DIST_DINTLV_B16 ? 2 : 4;
}
template <AscendC::Reg::StoreDist dist>
constexpr uint32_t DualElemBytes() {
  using D = AscendC::Reg::StoreDist;
  static_assert(dist == D::DIST_INTLV_B8 || dist == D::DIST_INTLV_B16 || dist == D::DIST_INTLV_B32,
                "lngrad: a two-register StoreAlign takes DIST_INTLV_B8, _B16 or _B32");
  return dist == D::DIST_INTLV_B8 ? 1 : dist == D::DIST_INTLV_B16 ? 2 : 4;
}
inline void LoadDeinterleaved(void* reg0, void* reg1, const void* src, uint32_t elem, Loc loc) {
  alignas(32) uint8_t both[2 * kVectorBytes];
  for (uint32_t h = 0; h < 2; ++h) {
    LoadShaped(both + h * kVectorBytes, static_cast<const uint8_t*>(src) + h * kVectorBytes,
               LoadShape::kNorm, elem, "LoadAlign", loc);
  }
  auto* r0 = static_cast<uint8_t*>(reg0);
  auto* r1 = static_cast<uint8_t*>(reg1);
  for (uint32_t i = 0; i < kVectorBytes / elem; ++i) {
    std::memcpy(r0 + i * elem, both + 2 * i * elem, elem);
    std::memcpy(r1 + i * elem, both + (2 * i + 1) * elem, elem);
  }
}
inline void StoreInterleaved(void* dst, const void* reg0, const void* reg1, uint32_t elem,
                             Loc loc) {
  alignas(32) uint8_t both[2 * kVectorBytes];
  const auto* r0 = static_cast<const uint8_t*>(reg0);
  const auto* r1 = static_cast<const uint8_t*>(reg1);
  for (uint32_t i = 0; i < kVectorBytes / elem; ++i) {
    std::memcpy(both + 2 * i * elem, r0 + i * elem, elem);
    std::memcpy(both + (2 * i + 1) * elem, r1 + i * elem, elem);
  }
  MaskReg all;
  for (uint32_t k = 0; k < kVectorBytes; ++k) all.SetBit(k, true);
  for (uint32_t h = 0; h < 2; ++h) {
    StoreLanes(static_cast<uint8_t*>(dst) + h * kVectorBytes, both + h * kVectorBytes, 1, all, 32,
               "StoreAlign", loc);
  }
}

}  // namespace lngrad::reg::detail

namespace AscendC::Reg {

// LoadAlign: the register from srcAddr (+ an address register's offset), in the distribution.
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void LoadAlign(
    U& dstReg, __ubuf__ T* srcAddr,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::LoadReg<dist>(dstReg, srcAddr, loc);
}
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void LoadAlign(
    U& dstReg, __ubuf__ T*& srcAddr, int32_t postUpdateStride,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::LoadReg<dist>(dstReg, srcAddr, loc);
  if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += postUpdateStride;
}
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void LoadAlign(
    U& dstReg, __ubuf__ T* srcAddr, AddrReg offset,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::LoadDist<dist>(dstReg.lane, srcAddr + offset.offset, loc);
}

// StoreAlign: the lanes the mask selects to dstAddr (+ an address register's offset).
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void StoreAlign(
    __ubuf__ T* dstAddr, const U& srcReg, const MaskReg& mask,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::StoreReg<dist>(dstAddr, srcReg, mask, loc);
}
template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void StoreAlign(
    __ubuf__ T*& dstAddr, const U& srcReg, int32_t postUpdateStride, const MaskReg& mask,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::StoreReg<dist>(dstAddr, srcReg, mask, loc);
  if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += postUpdateStride;
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void StoreAlign(
    __ubuf__ T* dstAddr, const U& srcReg, AddrReg offset, const MaskReg& mask,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::StoreDist<dist>(dstAddr + offset.offset, srcReg.lane, mask, loc);
}

// The two-register forms (DIST_DINTLV_B8/B16/B32 loads, DIST_INTLV_B8/B16/B32 stores).
template <typename T = DefaultType, LoadDist dist, ::lngrad::reg::detail::DataReg U>
requires(!::lngrad::reg::detail::kTwoRegs<U>) __simd_callee__
    inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr,
                          ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::LoadDeinterleaved(dstReg0.lane, dstReg1.lane, srcAddr,
                                           ::lngrad::reg::detail::DualElemBytes<dist>(), loc);
}
template <typename T = DefaultType, StoreDist dist, ::lngrad::reg::detail::DataReg U>
requires(!::lngrad::reg::detail::kTwoRegs<U>) __simd_callee__
    inline void StoreAlign(__ubuf__ T* dstAddr, const U& srcReg0, const U& srcReg1,
                           const MaskReg& mask,
                           ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  (void)mask;  // the interleaving stores ignore the mask
  ::lngrad::reg::detail::StoreInterleaved(dstAddr, srcReg0.lane, srcReg1.lane,
                                          ::lngrad::reg::detail::DualElemBytes<dist>(), loc);
}

// The data-block forms: block b of the register at b * dataBlockStride blocks of 32 bytes; the
// post-update form then advances the address by repeatStride blocks (POST_MODE_NORMAL: accesses
// at that address).
template <typename T = DefaultType, DataCopyMode dataMode, ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void LoadAlign(
    U& dstReg, __ubuf__ T* srcAddr, uint32_t dataBlockStride, const MaskReg& mask,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::LoadBlocks(dstReg.lane, srcAddr, sizeof(T), mask, dataBlockStride,
                                    "LoadAlign", loc);
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void LoadAlign(
    U& dstReg, __ubuf__ T*& srcAddr, uint32_t dataBlockStride, uint32_t repeatStride,
    const MaskReg& mask, ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  const uint32_t step = repeatStride * 32 / sizeof(T);
  const bool update = postMode == PostLiteral::POST_MODE_UPDATE;
  ::lngrad::reg::detail::LoadBlocks(dstReg.lane, update ? srcAddr : srcAddr + step, sizeof(T), mask,
                                    dataBlockStride, "LoadAlign", loc);
  if (update) srcAddr += step;
}
template <typename T = DefaultType, DataCopyMode dataMode, ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void StoreAlign(
    __ubuf__ T* dstAddr, const U& srcReg, uint32_t dataBlockStride, const MaskReg& mask,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::StoreBlocks(dstAddr, srcReg.lane, sizeof(T), mask, dataBlockStride,
                                     "StoreAlign", loc);
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void StoreAlign(
    __ubuf__ T*& dstAddr, const U& srcReg, uint32_t dataBlockStride, uint32_t repeatStride,
    const MaskReg& mask, ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  const uint32_t step = repeatStride * 32 / sizeof(T);
  const bool update = postMode == PostLiteral::POST_MODE_UPDATE;
  ::lngrad::reg::detail::StoreBlocks(update ? dstAddr : dstAddr + step, srcReg.lane, sizeof(T),
                                     mask, dataBlockStride, "StoreAlign", loc);
  if (update) dstAddr += step;
}

// Mask registers: VL / 8 = 32 bytes (MaskDist::DIST_NORM).
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
__simd_callee__ inline void LoadAlign(
    MaskReg& mask, __ubuf__ T* srcAddr,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  static_assert(dist == MaskDist::DIST_NORM, "lngrad: this MaskDist is not yet modelled");
  ::lngrad::reg::detail::LoadBytes(mask.bits, srcAddr, ::lngrad::reg::kMaskBytes, 32, "LoadAlign",
                                   loc);
}
template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>
__simd_callee__ inline void LoadAlign(
    MaskReg& mask, __ubuf__ T*& srcAddr, int32_t offset,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  LoadAlign<T, dist>(mask, srcAddr, loc);
  if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += offset;
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
__simd_callee__ inline void StoreAlign(
    __ubuf__ T* dstAddr, const MaskReg& mask,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  static_assert(dist == MaskDist::DIST_NORM, "lngrad: this MaskDist is not yet modelled");
  MaskReg all;
  for (uint32_t k = 0; k < ::lngrad::reg::kMaskBytes; ++k) all.SetBit(k, true);
  ::lngrad::reg::detail::StoreLanes(dstAddr, mask.bits, 1, all, 32, "StoreAlign", loc);
}
template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>
__simd_callee__ inline void StoreAlign(
    __ubuf__ T*& dstAddr, const MaskReg& mask, int32_t offset,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  StoreAlign<T, dist>(dstAddr, mask, loc);
  if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += offset;
}

// The unaligned-access registers (lngrad_reg/registers.h).
using UnalignReg = ::lngrad::reg::UnalignReg;
using UnalignRegForLoad = UnalignReg;
using UnalignRegForStore = UnalignReg;

// Gather from UB: lane i = the element at baseAddr + index lane i (elements), 8-bit elements
// extended to 16-bit lanes; unselected lanes 0.
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType,
          ::lngrad::reg::detail::DataReg T3, ::lngrad::reg::detail::DataReg T4>
__simd_callee__ inline void Gather(
    T3& dstReg, __ubuf__ T1* baseAddr, const T4& index, const MaskReg& mask,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  using Lane = typename T3::ActualT;
  ::lngrad::reg::detail::GatherElements(dstReg.lane, sizeof(Lane), baseAddr, sizeof(T1),
                                        std::is_signed_v<T1>, index.lane,
                                        sizeof(typename T4::ActualT), mask, "Gather", loc);
}
// GatherB: 32-byte block b < 8 from baseAddr + index lane b (bytes).
template <typename T = DefaultType, ::lngrad::reg::detail::DataReg U,
          ::lngrad::reg::detail::DataReg S>
__simd_callee__ inline void GatherB(
    U& dstReg, __ubuf__ T* baseAddr, const S& index, const MaskReg& mask,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  static_assert(std::is_same_v<typename S::ActualT, uint32_t>, "GatherB: uint32_t indices");
  ::lngrad::reg::detail::GatherBlocks(dstReg.lane, baseAddr, index.lane, mask, "GatherB", loc);
}
// Scatter: each selected lane to baseAddr + index lane i (elements).
template <typename T = DefaultType, typename U = DefaultType, ::lngrad::reg::detail::DataReg S,
          ::lngrad::reg::detail::DataReg V>
__simd_callee__ inline void Scatter(
    __ubuf__ T* baseAddr, const S& srcReg, const V& index, const MaskReg& mask,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  using Lane = typename S::ActualT;
  using Index = typename V::ActualT;
  constexpr uint32_t laneBytes = sizeof(Lane) < sizeof(Index) ? sizeof(Index) : sizeof(Lane);
  ::lngrad::reg::detail::ScatterElements(baseAddr, sizeof(T), srcReg.lane, laneBytes, index.lane,
                                         sizeof(Index), mask, "Scatter", loc);
}

// The unaligned loads: LoadUnAlignPre checks the address; LoadUnAlign reads VL bytes at srcAddr
// (element-aligned) and, post-update, advances it by stride elements.
template <typename T>
__simd_callee__ inline void LoadUnAlignPre(
    UnalignReg& ureg, __ubuf__ T* srcAddr,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  uint8_t none = 0;
  ::lngrad::reg::detail::LoadBytes(&none, srcAddr, 0, sizeof(T), "LoadUnAlignPre", loc);
  ureg = {};
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void LoadUnAlign(
    U& dstReg, UnalignReg& /*ureg*/, __ubuf__ T*& srcAddr, uint32_t stride,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::LoadBytes(dstReg.lane, srcAddr, ::lngrad::reg::kVectorBytes, sizeof(T),
                                   "LoadUnAlign", loc);
  if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += stride;
}
template <typename T = DefaultType, ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void LoadUnAlign(
    U& dstReg, UnalignReg& /*ureg*/, __ubuf__ T* srcAddr,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::LoadBytes(dstReg.lane, srcAddr, ::lngrad::reg::kVectorBytes, sizeof(T),
                                   "LoadUnAlign", loc);
}

// The unaligned stores: postUpdateStride elements of srcReg to dstAddr (written up to the last
// 32-byte boundary, the rest kept in ureg for the next store or StoreUnAlignPost).
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void StoreUnAlign(
    __ubuf__ T*& dstAddr, const U& srcReg, UnalignReg& ureg, uint32_t postUpdateStride,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::StoreUnaligned(ureg, dstAddr, srcReg.lane,
                                        postUpdateStride * static_cast<uint32_t>(sizeof(T)),
                                        sizeof(T), "StoreUnAlign", loc);
  if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += postUpdateStride;
}
template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
__simd_callee__ inline void StoreUnAlignPost(
    __ubuf__ T*& dstAddr, UnalignReg& ureg, int32_t postUpdateStride,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::FlushUnaligned(ureg, "StoreUnAlignPost", loc);
  if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += postUpdateStride;
}
// The AR forms: the byte count the last storing Squeeze left, at dstAddr + AR; AR advances.
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void StoreUnAlign(
    __ubuf__ T* dstAddr, const U& srcReg, UnalignReg& ureg,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  uint32_t& ar = ::lngrad::reg::detail::SpecialAr();
  const uint32_t bytes = ::lngrad::reg::detail::SqueezedBytes();
  ::lngrad::reg::detail::StoreUnaligned(ureg, reinterpret_cast<__ubuf__ uint8_t*>(dstAddr) + ar,
                                        srcReg.lane, bytes, sizeof(T), "StoreUnAlign", loc);
  if constexpr (postMode == PostLiteral::POST_MODE_UPDATE) ar += bytes;
}
template <typename T>
__simd_callee__ inline void StoreUnAlignPost(
    __ubuf__ T* /*dstAddr*/, UnalignReg& ureg,
    ::lngrad::reg::detail::Loc loc = ::lngrad::reg::detail::Loc::Current()) {
  ::lngrad::reg::detail::FlushUnaligned(ureg, "StoreUnAlignPost", loc);
}

}  // namespace AscendC::Reg
