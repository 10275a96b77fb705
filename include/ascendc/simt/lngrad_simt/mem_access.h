// lngrad SIMT runtime: the memory-access functions of SIMT threads (the vendor's asc_ldcg,
// asc_ldca, asc_stcg, asc_stwt, asc_dcci_single, asc_dcci_entire, asc_nop; reached through
// simt_api/device_functions.h).
//
// On the device these choose a cache path for a Global Memory access: asc_ldca (the default path
// of a plain load) may hit the core's data cache, which other cores' writes do not update;
// asc_ldcg reads through L2, which is always coherent with GM; the stores write GM at once and
// differ only in what they leave cached; asc_dcci_* drop cached lines so that the next load sees
// other cores' writes; asc_nop idles the thread 15 cycles, which the documents recommend to keep
// threads that poll one address from starving the others.
//
// lngrad has no data cache: every load reads host memory and every store writes it, so the hints
// have no effect on values. What remains is ordering and progress:
// - asc_ldcg and the stores are plain accesses of sizeof(T) bytes that the host compiler may not
//   move across one another or keep in a register (a compiler barrier on each side), so a loop
//   polling a flag with asc_ldcg re-reads it every turn;
// - asc_dcci_single / asc_dcci_entire are an acquire fence (another block's writes, released by
//   asc_threadfence or an atomic, are seen by the loads after them), a compiler barrier, and a
//   point where the thread lets the other threads of its block run (simt::AtomicPoint): a thread
//   that polls a flag another thread of its block sets makes progress, as on the device;
// - asc_nop is such a point alone.
// Accessed types: the documented ones (the integer types of 1, 2, 4 and 8 bytes but plain char,
// float, half, bfloat16_t, and their vectors of 2 and 4: char2 ... ulonglong4, float2, float4,
// half2, bfloat16x2_t); other types do not compile, as on the device.
#pragma once

#include <atomic>
#include <cstring>
#include <type_traits>

#include "lngrad_aicore/bfloat16.h"
#include "lngrad_aicore/half.h"
#include "lngrad_simt/runtime.h"

namespace lngrad::simt {

namespace mem_detail {

template <typename T, typename... Ts>
inline constexpr bool kOneOf = (std::is_same_v<T, Ts> || ...);

// The element types the memory-access functions document.
template <typename T>
inline constexpr bool kAccessElement =
    kOneOf<T, signed char, unsigned char, short, unsigned short, int, unsigned int, long,
           unsigned long, long long, unsigned long long, float, half, bfloat16_t>;

// A vector type of the kit (char2 ... float4, half2, bfloat16x2_t): a trivially copyable class
// whose `x` is a documented element, 2 or 4 of them.
template <typename T>
constexpr bool IsAccessVector() {
  if constexpr (!std::is_class_v<T> || !std::is_trivially_copyable_v<T>) {
    return false;
  } else if constexpr (!requires(const T& v) { v.x; }) {
    return false;
  } else {
    using E = std::remove_cvref_t<decltype(std::declval<const T&>().x)>;
    return kAccessElement<E> && (sizeof(T) == 2 * sizeof(E) || sizeof(T) == 4 * sizeof(E));
  }
}

inline void CompilerBarrier() noexcept { asm volatile("" ::: "memory"); }

}  // namespace mem_detail

// The types asc_ldcg, asc_ldca, asc_stcg and asc_stwt accept.
template <typename T>
concept GmAccessType = mem_detail::kAccessElement<T> || mem_detail::IsAccessVector<T>();

// One load or store of a memory-access function (see the header comment).
template <GmAccessType T>
T LoadGm(const T* address) noexcept {
  mem_detail::CompilerBarrier();
  T value;
  std::memcpy(static_cast<void*>(&value), static_cast<const void*>(address), sizeof(T));
  mem_detail::CompilerBarrier();
  return value;
}

template <GmAccessType T>
void StoreGm(T* address, const T& value) noexcept {
  mem_detail::CompilerBarrier();
  std::memcpy(static_cast<void*>(address), static_cast<const void*>(&value), sizeof(T));
  mem_detail::CompilerBarrier();
}

// asc_dcci_*: see the header comment.
inline void RefreshDataCache() {
  ::lngrad::simt::ThreadFence(false);
  mem_detail::CompilerBarrier();
  AtomicPoint();
}

}  // namespace lngrad::simt

template <lngrad::simt::GmAccessType T>
inline T asc_ldcg(T* address) {
  return lngrad::simt::LoadGm(address);
}
template <lngrad::simt::GmAccessType T>
inline T asc_ldca(T* address) {
  return lngrad::simt::LoadGm(address);
}
template <lngrad::simt::GmAccessType T>
inline void asc_stcg(T* address, std::type_identity_t<T> val) {
  lngrad::simt::StoreGm(address, val);
}
template <lngrad::simt::GmAccessType T>
inline void asc_stwt(T* address, std::type_identity_t<T> val) {
  lngrad::simt::StoreGm(address, val);
}
inline void asc_dcci_single(void* /*dst*/) { lngrad::simt::RefreshDataCache(); }
inline void asc_dcci_entire(void* /*dst*/) { lngrad::simt::RefreshDataCache(); }
inline void asc_nop() { lngrad::simt::AtomicPoint(); }
