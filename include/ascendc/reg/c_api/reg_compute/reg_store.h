// lngrad C API: register stores to UB (the vendor's c_api/reg_compute/reg_store.h). Every store
// is a PIPE_V instruction: it writes the lanes the mask selects (the others keep their UB
// contents), checked and recorded as loads are (lngrad_reg/ub_access.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "c_api/utils_intf.h"
#include "c_api/reg_compute/reg_load.h"
#include "lngrad_reg/ub_access.h"

// asc_storealign (NORM mode): the selected lanes of src to dst_align32b (+ offset elements).
template <typename T>
inline void asc_storealign(__ubuf__ T* dst_align32b, const ::lngrad::reg::VecReg<T>& src,
                           vector_bool mask,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::StoreLanes(dst_align32b, src.lane, sizeof(T), mask, 32, "asc_storealign",
                                    loc);
}
template <typename T>
inline void asc_storealign(__ubuf__ T* dst_align32b, const ::lngrad::reg::VecReg<T>& src,
                           int32_t offset, vector_bool mask,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_storealign(dst_align32b + offset, src, mask, loc);
}

// asc_storealign_postupdate: asc_storealign to dst, then dst += offset elements.
template <typename T>
inline void asc_storealign_postupdate(
    __ubuf__ T*& dst_align32b, const ::lngrad::reg::VecReg<T>& src, int32_t offset,
    vector_bool mask, ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_storealign(dst_align32b, src, mask, loc);
  dst_align32b += offset;
}

template <typename T>
inline void asc_storealign(__ubuf__ T* dst_align32b, const ::lngrad::reg::VecReg<T>& src,
                           addr_reg offset, vector_bool mask,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_storealign(::lngrad::reg::detail::AtAddrReg(dst_align32b, offset), src, mask, loc);
}

// The data-block form: the register's 32-byte block b to dst + b * block_stride blocks, the
// selected lanes only; _postupdate then advances dst by repeat_stride blocks (the C++ flavour's
// StoreAlign<T, DATA_BLOCK_COPY>).
template <typename T>
inline void asc_storealign(__ubuf__ T* dst_align32b, const ::lngrad::reg::VecReg<T>& src,
                           uint16_t block_stride, uint16_t /*repeat_stride*/, vector_bool mask,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::StoreBlocks(dst_align32b, src.lane, sizeof(T), mask, block_stride,
                                     "asc_storealign", loc);
}
template <typename T>
inline void asc_storealign_postupdate(
    __ubuf__ T*& dst_align32b, const ::lngrad::reg::VecReg<T>& src, uint16_t block_stride,
    uint16_t repeat_stride, vector_bool mask,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::StoreBlocks(dst_align32b, src.lane, sizeof(T), mask, block_stride,
                                     "asc_storealign_postupdate", loc);
  dst_align32b += uint32_t{repeat_stride} * 32 / sizeof(T);
}

// asc_store: the first count lanes (all VL bytes without count) to an element-aligned dst; a
// count outside [1, lanes] raises reg_args.
template <typename T>
inline void asc_store(__ubuf__ T* dst, const ::lngrad::reg::VecReg<T>& src, uint32_t count,
                      ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::RequireCount(count, ::lngrad::reg::kLanes<T>, "asc_store", loc);
  const uint32_t lanes = count < ::lngrad::reg::kLanes<T> ? count : ::lngrad::reg::kLanes<T>;
  ::lngrad::reg::detail::StoreBytes(dst, src.lane, lanes * sizeof(T), sizeof(T), "asc_store", loc);
}
template <typename T>
inline void asc_store(__ubuf__ T* dst, const ::lngrad::reg::VecReg<T>& src,
                      ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_store(dst, src, ::lngrad::reg::kLanes<T>, loc);
}

// asc_storealign_pack (b16, b32, b64 lanes): the low half of each selected lane, stored
// contiguously (lane i's half at half-element i); unselected lanes leave their UB bytes alone.
template <typename T>
requires(sizeof(T) >= 2) inline void asc_storealign_pack(
    __ubuf__ T* dst_align32b, const ::lngrad::reg::VecReg<T>& src, vector_bool mask,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::StorePacked(dst_align32b, src.lane, sizeof(T), mask, 32,
                                     "asc_storealign_pack", loc);
}
template <typename T>
requires(sizeof(T) >= 2) inline void asc_storealign_pack(
    __ubuf__ T* dst_align32b, const ::lngrad::reg::VecReg<T>& src, int32_t offset, vector_bool mask,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_storealign_pack(dst_align32b + offset, src, mask, loc);
}

// asc_storealign of a mask register: its 32 bytes to dst (uint8_t, uint16_t or uint32_t).
template <typename U>
requires(std::is_same_v<U, uint8_t> || std::is_same_v<U, uint16_t> ||
         std::is_same_v<
             U, uint32_t>) inline void asc_storealign(__ubuf__ U* dst, vector_bool src,
                                                      ::lngrad::aicore::SrcLoc loc =
                                                          ::lngrad::aicore::SrcLoc::Current()) {
  vector_bool all;  // 32 one-byte lanes: the mask register's bytes
  for (uint32_t k = 0; k < ::lngrad::reg::kMaskBytes; ++k) all.SetBit(k, true);
  ::lngrad::reg::detail::StoreLanes(dst, src.bits, 1, all, 32, "asc_storealign", loc);
}

// asc_scatter: each selected lane to dst + index lane i (elements); 8-bit elements come from
// the low byte of the index's 16-bit lanes.
template <typename T, typename I>
requires(std::is_unsigned_v<I>) inline void asc_scatter(
    __ubuf__ T* dst, const ::lngrad::reg::VecReg<T>& src, const ::lngrad::reg::VecReg<I>& index,
    vector_bool mask, ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  constexpr uint32_t laneBytes = sizeof(T) < sizeof(I) ? sizeof(I) : sizeof(T);
  ::lngrad::reg::detail::ScatterElements(dst, sizeof(T), src.lane, laneBytes, index.lane, sizeof(I),
                                         mask, "asc_scatter", loc);
}

// The unaligned stores: count elements of src1 to dst (up to the last 32-byte boundary now, the
// rest kept in src0); _postupdate advances dst by count. The AR form stores the byte count the
// last asc_squeeze_with_status left, at dst + AR, and advances AR. asc_storeunalign_post writes
// what the register keeps.
template <typename T>
inline void asc_storeunalign(__ubuf__ T* dst, vector_store_unalign& src0,
                             ::lngrad::reg::VecReg<T> src1, uint32_t count,
                             ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::StoreUnaligned(src0, dst, src1.lane,
                                        count * static_cast<uint32_t>(sizeof(T)), sizeof(T),
                                        "asc_storeunalign", loc);
}
template <typename T>
inline void asc_storeunalign_postupdate(
    __ubuf__ T*& dst, vector_store_unalign& src0, const ::lngrad::reg::VecReg<T>& src1,
    uint32_t count, ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_storeunalign(dst, src0, src1, count, loc);
  dst += count;
}
template <typename T>
inline void asc_storeunalign_postupdate(
    __ubuf__ T* dst, vector_store_unalign& src0, const ::lngrad::reg::VecReg<T>& src1,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  uint32_t& ar = ::lngrad::reg::detail::SpecialAr();
  const uint32_t bytes = ::lngrad::reg::detail::SqueezedBytes();
  ::lngrad::reg::detail::StoreUnaligned(src0, reinterpret_cast<__ubuf__ uint8_t*>(dst) + ar,
                                        src1.lane, bytes, sizeof(T), "asc_storeunalign", loc);
  ar += bytes;
}
template <typename T>
inline void asc_storeunalign_post(
    __ubuf__ T* /*dst*/, vector_store_unalign src, int32_t /*offset*/ = 0,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::FlushUnaligned(src, "asc_storeunalign_post", loc);
}
