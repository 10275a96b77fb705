// lngrad C API: GM <-> UB copies (the vendor's c_api/vector_datamove/vector_datamove.h), the 950
// forms, on the simulated AI core's DataCopyPad (lngrad_aicore/data_copy_pad.h): the same
// checks, the same pad-value register, the same records for the sanitizer (PIPE_MTE2 for
// GM -> UB, PIPE_MTE3 for UB -> GM). Strides here are start to start in bytes, as the reference
// gives them; DataCopyPad's are gaps (GM bytes, UB 32-byte blocks): lngrad_reg/copy.h converts.
// The L2 cache mode changes no data (docs/ascendc_compat.md, "C API").
#pragma once

#include <cstdint>

#include "c_api/utils_intf.h"
#include "lngrad_aicore/sanitizer.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_reg/copy.h"
#include "lngrad_reg/ub_access.h"

// GM -> UB: n_burst rows of len_burst bytes, left/right padding in elements around each row
// (enable_constant_pad: the asc_set_copy_pad_val register's value; else the row data's first
// element). Mode: asc_load_l2_cache_mode, or a number (the deprecated prototype).
template <typename T, typename Mode>
requires(
    ::lngrad::reg::kCopyable<T>&& ::lngrad::reg::kL2Mode<
        Mode, asc_load_l2_cache_mode>) inline void asc_copy_gm2ub_align(__ubuf__ T* dst,
                                                                        __gm__ T* src,
                                                                        uint16_t n_burst,
                                                                        uint32_t len_burst,
                                                                        uint8_t left_padding_num,
                                                                        uint8_t right_padding_num,
                                                                        bool enable_constant_pad,
                                                                        Mode, uint64_t src_stride,
                                                                        uint32_t dst_stride,
                                                                        ::lngrad::aicore::SrcLoc
                                                                            loc = ::lngrad::aicore::
                                                                                SrcLoc::Current()) {
  ::lngrad::reg::detail::CopyIn(dst, src,
                                {n_burst, len_burst, left_padding_num, right_padding_num,
                                 enable_constant_pad, src_stride, dst_stride},
                                loc);
}
// The first size bytes (a multiple of 32).
template <typename T>
requires(::lngrad::reg::kCopyable<T>) inline void asc_copy_gm2ub_align(
    __ubuf__ T* dst, __gm__ T* src, uint32_t size,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::RequireWholeBlocks(size, "asc_copy_gm2ub_align", loc);
  ::lngrad::reg::detail::CopyIn(dst, src, {1, size, 0, 0, true, 0, 0}, loc);
}

// UB -> GM: n_burst rows of len_burst bytes. Mode: asc_store_l2_cache_mode, or a number.
template <typename T, typename Mode>
requires(::lngrad::reg::kCopyable<T>&& ::lngrad::reg::kL2Mode<
         Mode,
         asc_store_l2_cache_mode>) inline void asc_copy_ub2gm_align(__gm__ T* dst, __ubuf__ T* src,
                                                                    uint16_t n_burst,
                                                                    uint32_t len_burst, Mode,
                                                                    uint64_t dst_stride,
                                                                    uint32_t src_stride,
                                                                    ::lngrad::aicore::SrcLoc loc =
                                                                        ::lngrad::aicore::SrcLoc::
                                                                            Current()) {
  ::lngrad::reg::detail::CopyOut(dst, src, {n_burst, len_burst, 0, 0, true, dst_stride, src_stride},
                                 loc);
}
template <typename T>
requires(::lngrad::reg::kCopyable<T>) inline void asc_copy_ub2gm_align(
    __gm__ T* dst, __ubuf__ T* src, uint32_t size,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::RequireWholeBlocks(size, "asc_copy_ub2gm_align", loc);
  ::lngrad::reg::detail::CopyOut(dst, src, {1, size, 0, 0, true, 0, 0}, loc);
}

// The 32-byte block copies (no padding): size bytes (a multiple of 32), or n_burst rows of
// len_burst 32-byte blocks with src_gap / dst_gap blocks between rows. The _sync forms also wait
// for the copy (PipeBarrier<PIPE_ALL>: later instructions of any pipe see its data).
namespace lngrad::reg::detail {
inline CopyShape BlockRows(uint16_t n_burst, uint16_t len_burst, uint16_t gm_gap, uint16_t ub_gap) {
  const uint32_t row = uint32_t{len_burst} * 32;
  return {n_burst, row, 0, 0, true, row + uint64_t{gm_gap} * 32, row + uint32_t{ub_gap} * 32};
}
}  // namespace lngrad::reg::detail

inline void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint32_t size,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::RequireWholeBlocks(size, "asc_copy_gm2ub", loc);
  ::lngrad::reg::detail::CopyIn(static_cast<uint8_t*>(dst), static_cast<uint8_t*>(src),
                                {1, size, 0, 0, true, 0, 0}, loc);
}
inline void asc_copy_gm2ub(__ubuf__ void* dst, __gm__ void* src, uint16_t n_burst,
                           uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::CopyIn(
      static_cast<uint8_t*>(dst), static_cast<uint8_t*>(src),
      ::lngrad::reg::detail::BlockRows(n_burst, len_burst, src_gap, dst_gap), loc);
}
inline void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint32_t size,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::RequireWholeBlocks(size, "asc_copy_ub2gm", loc);
  ::lngrad::reg::detail::CopyOut(static_cast<uint8_t*>(dst), static_cast<uint8_t*>(src),
                                 {1, size, 0, 0, true, 0, 0}, loc);
}
inline void asc_copy_ub2gm(__gm__ void* dst, __ubuf__ void* src, uint16_t n_burst,
                           uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::CopyOut(
      static_cast<uint8_t*>(dst), static_cast<uint8_t*>(src),
      ::lngrad::reg::detail::BlockRows(n_burst, len_burst, dst_gap, src_gap), loc);
}
inline void asc_copy_gm2ub_sync(
    __ubuf__ void* dst, __gm__ void* src, uint32_t size,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_copy_gm2ub(dst, src, size, loc);
  ::lngrad::aicore::san::Barrier(PIPE_ALL, loc);
}
inline void asc_copy_ub2gm_sync(
    __gm__ void* dst, __ubuf__ void* src, uint32_t size,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::aicore::san::Barrier(PIPE_ALL, loc);
  asc_copy_ub2gm(dst, src, size, loc);
  ::lngrad::aicore::san::Barrier(PIPE_ALL, loc);
}

// UB -> UB on PIPE_V (DataCopy UB -> UB): size bytes, or n_burst bursts of len_burst 32-byte
// blocks with the gaps (end to start, in blocks) between them.
namespace lngrad::reg::detail {
inline AscendC::LocalTensor<uint8_t> UbBytes(void* p, uint64_t bytes, const char* api,
                                             aicore::SrcLoc loc) {
  return AscendC::LocalTensor<uint8_t>(AscendC::TPosition::VECCALC, UbOffset(p, bytes, api, loc),
                                       static_cast<uint32_t>(bytes));
}
inline uint64_t BurstBytes(uint16_t n_burst, uint16_t len_burst, uint16_t gap) {
  return n_burst == 0 ? 0 : (uint64_t{n_burst} * (len_burst + gap) - gap) * 32;
}
}  // namespace lngrad::reg::detail
inline void asc_copy_ub2ub(__ubuf__ void* dst, __ubuf__ void* src, uint32_t size,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  namespace d = ::lngrad::reg::detail;
  AscendC::DataCopy(d::UbBytes(dst, size, "asc_copy_ub2ub", loc),
                    d::UbBytes(src, size, "asc_copy_ub2ub", loc), size, loc);
}
inline void asc_copy_ub2ub(__ubuf__ void* dst, __ubuf__ void* src, uint16_t n_burst,
                           uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  namespace d = ::lngrad::reg::detail;
  AscendC::DataCopy(
      d::UbBytes(dst, d::BurstBytes(n_burst, len_burst, dst_gap), "asc_copy_ub2ub", loc),
      d::UbBytes(src, d::BurstBytes(n_burst, len_burst, src_gap), "asc_copy_ub2ub", loc),
      AscendC::DataCopyParams(n_burst, len_burst, src_gap, dst_gap), loc);
}
