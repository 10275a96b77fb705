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
