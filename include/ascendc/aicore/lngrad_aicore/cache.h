// lngrad Ascend C runtime: the data cache and the CTRL register. DataCacheCleanAndInvalid
// (CacheLine, DcciDst), ReadGmByPassDCache/WriteGmByPassDCache, and SetCtrlSpr/GetCtrlSpr/
// ResetCtrlSpr (docs/ascendc_compat.md, "Inter-block synchronisation and atomics").
//
// The simulator has no data cache: scalar GM accesses go to memory at once, so cleaning and
// invalidating has nothing to do. ReadGmByPassDCache/WriteGmByPassDCache are atomic loads and
// stores, so that a block may poll a flag another block writes; a block that reads the same
// value from the same address many times in a row waits (keeping its thread, like SyncAll) until
// the value changes, and raises block_sync if no running block is left to change it. For the
// sanitizer they are synchronisation, not data: a write releases, a read acquires (a block that
// reads what another wrote is ordered after that block's earlier GM accesses), and neither is
// checked for races (they are single atomic accesses).
//
// The sanitizer models the data cache's hand-over too (san::DcacheStore and its neighbours): a
// clean towards GM after a GlobalTensor::SetValue releases, a GetValue after an invalidate that
// sees the stored value acquires.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "check.h"
#include "sanitizer.h"
#include "tensor.h"

namespace lngrad::aicore {

namespace checks {
inline constexpr const char* kCtrlSpr =
    "ctrl_spr";  // CTRL bits the product does not document, or a value wider than the bits
}  // namespace checks

namespace detail {
void DcciCheck(SrcLoc loc);
void BypassCheck(const char* api, const void* p, uint64_t bytes, SrcLoc loc);
// The poll detection of ReadGmByPassDCache: called with each value read.
void BypassPolled(const void* p, uint64_t value, uint64_t bytes, SrcLoc loc);
void BypassWritten();
void SetCtrlBits(int start, int end, int64_t value, SrcLoc loc);
int64_t GetCtrlBits(int start, int end, SrcLoc loc);
void ResetCtrlBits(int start, int end, SrcLoc loc);
}  // namespace detail
}  // namespace lngrad::aicore

namespace AscendC {

enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

// Writes back and drops the cache line(s) of dst (or the whole cache): nothing to do here but
// tell the sanitizer, for which a clean towards GM (CACHELINE_OUT and CACHELINE_ALL, which the
// vendor documents as the same; the prototype without dcciDst) orders the block's earlier GM
// accesses before a scalar load in another block that sees what it writes back. Not on the
// Atlas training series and the Atlas inference series' vector cores.
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst,
                              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::DcciCheck(loc);
  if constexpr (dcciDst == DcciDst::CACHELINE_OUT || dcciDst == DcciDst::CACHELINE_ALL) {
    lngrad::aicore::san::DcacheCleanInvalidate(dst.GetPhyAddr(),
                                               entireType == CacheLine::ENTIRE_DATA_CACHE);
  }
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>&,
                              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::DcciCheck(loc);
}
template <typename T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst,
                              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::DcciCheck(loc);
  lngrad::aicore::san::DcacheCleanInvalidate(dst.GetPhyAddr(),
                                             entireType == CacheLine::ENTIRE_DATA_CACHE);
}

namespace detail_cache {
template <typename T>
constexpr bool kBypassType =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>;
}  // namespace detail_cache

// The GM value at addr, read past the data cache (pipe S). Integer types of 1 to 8 bytes; Atlas
// A2/A3 and Ascend 950.
template <typename T>
T ReadGmByPassDCache(__gm__ T* addr,
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(detail_cache::kBypassType<T>,
                "ReadGmByPassDCache: T must be an 8-, 16-, 32- or 64-bit integer");
  lngrad::aicore::detail::BypassCheck("ReadGmByPassDCache", addr, sizeof(T), loc);
  const T v = std::atomic_ref<T>(*addr).load(std::memory_order_acquire);
  lngrad::aicore::san::Acquire(reinterpret_cast<uintptr_t>(addr));
  lngrad::aicore::detail::BypassPolled(addr, static_cast<uint64_t>(v), sizeof(T), loc);
  return v;
}
// Writes value to GM at addr past the data cache (pipe S).
template <typename T>
void WriteGmByPassDCache(__gm__ T* addr, T value,
                         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(detail_cache::kBypassType<T>,
                "WriteGmByPassDCache: T must be an 8-, 16-, 32- or 64-bit integer");
  lngrad::aicore::detail::BypassCheck("WriteGmByPassDCache", addr, sizeof(T), loc);
  lngrad::aicore::san::Release(reinterpret_cast<uintptr_t>(addr));
  std::atomic_ref<T>(*addr).store(value, std::memory_order_release);
  lngrad::aicore::detail::BypassWritten();
}

// CTRL[endBit:startBit] of the running block. Ascend 950 documents CTRL[8:6] (DMA atomic type),
// CTRL[10:9] (atomic operation), 45, 48 (1: no float saturation), 50, 53, 59 and 60 (default 1);
// Atlas A2/A3 only CTRL[48]. CTRL[48] is the overflow mode AscendCUtils::SetOverflow sets and
// the instructions read; CTRL[10:6] the mode SetAtomicAdd/Max/Min set (atomic.h); the other bits
// are kept but change nothing. Checked mode raises ctrl_spr for a range that is not made of whole
// documented fields and for a value wider than the range.
template <int8_t startBit, int8_t endBit>
void SetCtrlSpr(int64_t value, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(0 <= startBit && startBit <= endBit && endBit <= 63,
                "SetCtrlSpr: need 0 <= startBit <= endBit <= 63");
  lngrad::aicore::detail::SetCtrlBits(startBit, endBit, value, loc);
}
template <int8_t startBit, int8_t endBit>
int64_t GetCtrlSpr(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(0 <= startBit && startBit <= endBit && endBit <= 63,
                "GetCtrlSpr: need 0 <= startBit <= endBit <= 63");
  return lngrad::aicore::detail::GetCtrlBits(startBit, endBit, loc);
}
// Back to the defaults (Ascend 950 only).
template <int8_t startBit, int8_t endBit>
void ResetCtrlSpr(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(0 <= startBit && startBit <= endBit && endBit <= 63,
                "ResetCtrlSpr: need 0 <= startBit <= endBit <= 63");
  lngrad::aicore::detail::ResetCtrlBits(startBit, endBit, loc);
}

}  // namespace AscendC
