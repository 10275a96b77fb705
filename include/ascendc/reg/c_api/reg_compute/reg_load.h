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

// asc_loadalign_unpack: VL / 2 bytes of b8/b16/b32 elements, element j into the low half of
// lane j of the twice-as-wide lanes (lane 2j of T; the high half, lane 2j + 1, is 0).
template <typename T>
requires(sizeof(T) <= 4) inline void asc_loadalign_unpack(
    ::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  T half_reg[::lngrad::reg::kLanes<T> / 2];
  ::lngrad::reg::detail::LoadBytes(half_reg, src, ::lngrad::reg::kVectorBytes / 2, 32,
                                   "asc_loadalign_unpack", loc);
  dst = {};
  for (uint32_t j = 0; j < ::lngrad::reg::kLanes<T> / 2; ++j) dst.lane[2 * j] = half_reg[j];
}
template <typename T>
requires(sizeof(T) <= 4) inline void asc_loadalign_unpack(
    ::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src, int32_t offset,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_loadalign_unpack(dst, src + offset, loc);
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

// asc_gather (from UB): lane i = the element at src + index lane i (elements), 8-bit elements
// extended to the index's 16-bit lanes; unselected lanes 0. asc_gather_datablock: 32-byte block
// b < 8 from src + index lane b bytes where the mask's b32 lane b is set.
template <typename D, typename T, typename I>
requires(sizeof(D) >= sizeof(T) && std::is_unsigned_v<I>) inline void asc_gather(
    ::lngrad::reg::VecReg<D>& dst, __ubuf__ T* src, ::lngrad::reg::VecReg<I> index,
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
