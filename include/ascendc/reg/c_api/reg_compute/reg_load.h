// lngrad C API: register loads from UB (the vendor's c_api/reg_compute/reg_load.h). Every load
// is a PIPE_V instruction: checked against the block's UB and the 32-byte alignment, recorded
// by the sanitizer (lngrad_reg/ub_access.h).
#pragma once

#include <cstdint>

#include "c_api/utils_intf.h"
#include "lngrad_reg/ub_access.h"

// asc_loadalign (NORM mode): VL bytes from src (+ offset elements).
template <typename T>
inline void asc_loadalign(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::LoadBytes(dst.lane, src, ::lngrad::reg::kVectorBytes, 32, "asc_loadalign",
                                   loc);
}
template <typename T>
inline void asc_loadalign(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src, int32_t offset,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_loadalign(dst, src + offset, loc);
}

// asc_loadalign_postupdate: asc_loadalign from src, then src += offset elements.
template <typename T>
inline void asc_loadalign_postupdate(
    ::lngrad::reg::VecReg<T>& dst, __ubuf__ T*& src, int32_t offset,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_loadalign(dst, src, loc);
  src += offset;
}
// The mask register form: VL / 8 = 32 bytes from src, then src advances by offset bytes (the
// reference gives no unit; its examples step one mask register, VL / 8, per call).
inline void asc_loadalign_postupdate(
    vector_bool& dst, __ubuf__ uint32_t*& src, int32_t offset,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::LoadBytes(dst.bits, src, ::lngrad::reg::kMaskBytes, 32,
                                   "asc_loadalign_postupdate", loc);
  src = reinterpret_cast<__ubuf__ uint32_t*>(reinterpret_cast<__ubuf__ uint8_t*>(src) + offset);
}

// asc_update_addr_reg_b8/b16/b32(offset) (the one-dimensional form): the address register of
// the innermost loop's iteration i, i * offset elements of 1, 2 or 4 bytes (i counted per call
// site from the start of the vector function, lngrad_reg/ub_access.h LoopIndex).
#define LNGRAD_C_ADDR_REG(bits)                                                              \
  inline addr_reg asc_update_addr_reg_b##bits(                                               \
      uint32_t offset, ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) { \
    return addr_reg{::lngrad::reg::detail::LoopIndex(loc) * offset * (bits / 8)};            \
  }
LNGRAD_C_ADDR_REG(8)
LNGRAD_C_ADDR_REG(16)
LNGRAD_C_ADDR_REG(32)
#undef LNGRAD_C_ADDR_REG

namespace lngrad::reg::detail {
// A UB pointer moved by an address register's bytes.
template <typename T>
__ubuf__ T* AtAddrReg(__ubuf__ T* p, addr_reg offset) {
  return reinterpret_cast<__ubuf__ T*>(reinterpret_cast<__ubuf__ uint8_t*>(p) + offset.bytes);
}
}  // namespace lngrad::reg::detail

template <typename T>
inline void asc_loadalign(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src, addr_reg offset,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_loadalign(dst, ::lngrad::reg::detail::AtAddrReg(src, offset), loc);
}

// The shaped aligned loads, X(C name, lngrad_reg LoadShape): one element broadcast (brc_elem;
// asc_loadalign_brc its older name), VL / 2 bytes each element twice (upsample), 2 * VL bytes
// every other element (downsample), VL / 2 (VL / 4) bytes each element followed by one (three)
// zero elements (unpack, unpack4), one 32-byte block repeated (brc_datablock), VL / 32 elements
// each over a 32-byte block (brc_elem2datablock). The reference's deprecated _v2/_v3 names are
// rows of their own. Each name has the plain, element-offset, address-register and _postupdate
// (src += offset elements after the load) forms, on LoadShaped, the engine of the C++ flavour's
// LoadAlign<T, LoadDist>.
#define LNGRAD_C_LOAD_SHAPE_TABLE(X)                \
  X(asc_loadalign_brc, kBroadcast)                  \
  X(asc_loadalign_brc_elem, kBroadcast)             \
  X(asc_loadalign_upsample, kUpsample)              \
  X(asc_loadalign_downsample, kDownsample)          \
  X(asc_loadalign_unpack, kUnpack)                  \
  X(asc_loadalign_unpack4, kUnpack4)                \
  X(asc_loadalign_unpack_v2, kUnpack4)              \
  X(asc_loadalign_brc_datablock, kBlock)            \
  X(asc_loadalign_brc_v2, kBlock)                   \
  X(asc_loadalign_brc_elem2datablock, kElemToBlock) \
  X(asc_loadalign_brc_v3, kElemToBlock)

#define LNGRAD_C_LOAD_SHAPE(name, shape)                                                      \
  template <typename T>                                                                       \
  inline void name(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src,                            \
                   ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {      \
    ::lngrad::reg::detail::LoadShaped(dst.lane, src, ::lngrad::reg::detail::LoadShape::shape, \
                                      sizeof(T), #name, loc);                                 \
  }                                                                                           \
  template <typename T>                                                                       \
  inline void name(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src, int32_t offset,            \
                   ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {      \
    name(dst, src + offset, loc);                                                             \
  }                                                                                           \
  template <typename T>                                                                       \
  inline void name(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src, addr_reg offset,           \
                   ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {      \
    name(dst, ::lngrad::reg::detail::AtAddrReg(src, offset), loc);                            \
  }                                                                                           \
  template <typename T>                                                                       \
  inline void name##_postupdate(                                                              \
      ::lngrad::reg::VecReg<T>& dst, __ubuf__ T*& src, int32_t offset,                        \
      ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {                   \
    name(dst, src, loc);                                                                      \
    src += offset;                                                                            \
  }
LNGRAD_C_LOAD_SHAPE_TABLE(LNGRAD_C_LOAD_SHAPE)
#undef LNGRAD_C_LOAD_SHAPE

// The data-block form: the register's 32-byte block b from src + b * block_stride blocks, the
// blocks with a lane the mask selects (the others 0); _postupdate then advances src by
// repeat_stride blocks (the C++ flavour's LoadAlign<T, DATA_BLOCK_COPY>).
template <typename T>
inline void asc_loadalign(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src, uint16_t block_stride,
                          uint16_t /*repeat_stride*/, vector_bool mask,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::LoadBlocks(dst.lane, src, sizeof(T), mask, block_stride, "asc_loadalign",
                                    loc);
}
template <typename T>
inline void asc_loadalign_postupdate(
    ::lngrad::reg::VecReg<T>& dst, __ubuf__ T*& src, uint16_t block_stride, uint16_t repeat_stride,
    vector_bool mask, ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::LoadBlocks(dst.lane, src, sizeof(T), mask, block_stride,
                                    "asc_loadalign_postupdate", loc);
  src += uint32_t{repeat_stride} * 32 / sizeof(T);
}

// asc_load: VL bytes from an element-aligned src (no 32-byte rule).
template <typename T>
inline void asc_load(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src,
                     ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::LoadBytes(dst.lane, src, ::lngrad::reg::kVectorBytes, sizeof(T),
                                   "asc_load", loc);
}

// asc_loadalign of a mask register: VL / 8 = 32 bytes from src (+ offset uint32_t elements).
inline void asc_loadalign(vector_bool& dst, __ubuf__ uint32_t* src,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::LoadBytes(dst.bits, src, ::lngrad::reg::kMaskBytes, 32, "asc_loadalign",
                                   loc);
}
inline void asc_loadalign(vector_bool& dst, __ubuf__ uint32_t* src, int32_t offset,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_loadalign(dst, src + offset, loc);
}
inline void asc_loadalign(vector_bool& dst, __ubuf__ uint32_t* src, addr_reg offset,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_loadalign(dst, ::lngrad::reg::detail::AtAddrReg(src, offset), loc);
}

// asc_gather (from UB): lane i = the element at src + index lane i (elements), 8-bit elements
// extended to the index's 16-bit lanes; unselected lanes 0. asc_gather_datablock: 32-byte block
// b < 8 from src + index lane b bytes where the mask's b32 lane b is set.
template <typename D, typename T, typename I>
requires(sizeof(D) >= sizeof(T) && std::is_unsigned_v<I>) inline void asc_gather(
    ::lngrad::reg::VecReg<D>& dst, __ubuf__ T* src, const ::lngrad::reg::VecReg<I>& index,
    vector_bool mask, ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::GatherElements(dst.lane, sizeof(D), src, sizeof(T), std::is_signed_v<T>,
                                        index.lane, sizeof(I), mask, "asc_gather", loc);
}
template <typename T>
inline void asc_gather_datablock(
    ::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src, vector_uint32_t index, vector_bool mask,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::GatherBlocks(dst.lane, src, index.lane, mask, "asc_gather_datablock", loc);
}

// The unaligned loads: VL bytes at an element-aligned src (the _postupdate form then advances
// src by count elements); asc_loadunalign_pre checks src.
template <typename T>
inline void asc_loadunalign_pre(
    vector_load_unalign& dst, __ubuf__ T* src,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  uint8_t none = 0;
  ::lngrad::reg::detail::LoadBytes(&none, src, 0, sizeof(T), "asc_loadunalign_pre", loc);
  dst = {};
}
template <typename T>
inline void asc_loadunalign(::lngrad::reg::VecReg<T>& dst, vector_load_unalign& /*src0*/,
                            __ubuf__ T* src1,
                            ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::LoadBytes(dst.lane, src1, ::lngrad::reg::kVectorBytes, sizeof(T),
                                   "asc_loadunalign", loc);
}
template <typename T>
inline void asc_loadunalign_postupdate(
    ::lngrad::reg::VecReg<T>& dst, vector_load_unalign& src0, __ubuf__ T*& src1, uint32_t count,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_loadunalign(dst, src0, src1, loc);
  src1 += count;
}
