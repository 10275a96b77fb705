// lngrad SIMT runtime: the address-space predicates and conversions of SIMT threads (the vendor's
// __isGlobal, __isUbuf, __isLocal, __cvta_generic_to_{global,ubuf,local},
// __cvta_{global,ubuf,local}_to_generic; reached through simt_api/device_functions.h).
//
// On the device a generic pointer falls in one of three windows: Global Memory, the core's
// Unified Buffer, or the thread's stack ("local"); the conversions map a pointer to its offset in
// its window's own address space and back. On lngrad every pointer is a host address, and:
// - UB is the running block's simulated UB, [ub, ub + ub_size) of
//   lngrad::aicore::CurrentBlockContext() (the SIMT kernel's __ubuf__ arrays and dynamic UB, a
//   vector kernel's LocalTensors); a UB address value is the byte offset from UB byte 0, so
//   __cvta_ubuf_to_generic(0) is UB byte 0;
// - local is the running SIMT thread's stack: the addresses within the size of a thread's stack
//   (kThreadStackBytes) of the calling function's frame, outside UB (every local variable of the
//   thread is there; an address of another mapping that close is misread as local);
// - GM is every other address from kFirstGmAddress up (the host's null page and what lies below
//   is no one's memory): whatever the kernel may touch besides UB and its stack, device memory
//   from aclrtMalloc, or the host memory that lngrad::aicore::Launch lets a kernel use as GM.
// A GM or local address value is the host address itself.
// The documents' answers for nullptr and small or all-ones values hold: no predicate accepts
// nullptr or (void*)1, __isGlobal accepts the all-ones address, __cvta_global_to_generic(0) and
// (1) are not GM, and the conversions of nullptr return 0 (GM), 0xfff80000 (UB) and 0xfff00000
// (local). Other invalid inputs, which the documents leave unreliable, get what the mapping
// above gives.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lngrad_aicore/check.h"
#include "lngrad_simt/runtime.h"

namespace lngrad::simt {

// The stack of one SIMT thread (the fibers' usable stack size).
inline constexpr uintptr_t kThreadStackBytes = uintptr_t{256} << 10;
// The lowest host address classified as GM.
inline constexpr uintptr_t kFirstGmAddress = uintptr_t{64} << 10;
// What the conversions of nullptr to a UB or local address value return, as documented.
inline constexpr size_t kNullUbufAddress = 0xfff80000u;
inline constexpr size_t kNullLocalAddress = 0xfff00000u;

namespace address_detail {

inline uintptr_t Bits(const void* ptr) noexcept { return reinterpret_cast<uintptr_t>(ptr); }

inline uintptr_t UbBase() noexcept {
  const aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  return ctx == nullptr ? 0 : Bits(ctx->ub);
}

}  // namespace address_detail

inline bool IsUbAddress(const void* ptr) noexcept {
  const aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  if (ctx == nullptr || ctx->ub == nullptr || ptr == nullptr) return false;
  const uintptr_t p = address_detail::Bits(ptr), base = address_detail::Bits(ctx->ub);
  return p >= base && p - base < ctx->ub_size;
}

// In a SIMT thread: its own stack (lngrad::simt::OnRunningThreadStack, exact; under
// AddressSanitizer also its fake stack). Elsewhere (host code): the fake stack, or within a
// thread stack's size of the caller's frame. noinline: the frame it measures
// from is the caller's.
[[gnu::noinline]] inline bool IsLocalAddress(const void* ptr) noexcept {
  if (ptr == nullptr || IsUbAddress(ptr)) return false;
  if (OnRunningThreadStack(ptr)) return true;
  if (detail::t_thread != nullptr) return false;
  const uintptr_t p = address_detail::Bits(ptr);
  const uintptr_t frame = address_detail::Bits(__builtin_frame_address(0));
  const uintptr_t distance = p > frame ? p - frame : frame - p;
  return distance < kThreadStackBytes;
}

inline bool IsGmAddress(const void* ptr) noexcept {
  return address_detail::Bits(ptr) >= kFirstGmAddress && !IsUbAddress(ptr) && !IsLocalAddress(ptr);
}

}  // namespace lngrad::simt

inline unsigned int __isGlobal(const void* ptr) { return lngrad::simt::IsGmAddress(ptr) ? 1 : 0; }
inline unsigned int __isUbuf(const void* ptr) { return lngrad::simt::IsUbAddress(ptr) ? 1 : 0; }
inline unsigned int __isLocal(const void* ptr) { return lngrad::simt::IsLocalAddress(ptr) ? 1 : 0; }

inline size_t __cvta_generic_to_global(const void* ptr) {
  return lngrad::simt::address_detail::Bits(ptr);
}
inline size_t __cvta_generic_to_ubuf(const void* ptr) {
  if (ptr == nullptr) return lngrad::simt::kNullUbufAddress;
  namespace d = lngrad::simt::address_detail;
  return d::Bits(ptr) - d::UbBase();
}
inline size_t __cvta_generic_to_local(const void* ptr) {
  if (ptr == nullptr) return lngrad::simt::kNullLocalAddress;
  return lngrad::simt::address_detail::Bits(ptr);
}
inline void* __cvta_global_to_generic(size_t rawbits) {
  return reinterpret_cast<void*>(rawbits);  // NOLINT(performance-no-int-to-ptr)
}
inline void* __cvta_ubuf_to_generic(size_t rawbits) {
  return reinterpret_cast<void*>(  // NOLINT(performance-no-int-to-ptr)
      lngrad::simt::address_detail::UbBase() + rawbits);
}
inline void* __cvta_local_to_generic(size_t rawbits) {
  return reinterpret_cast<void*>(rawbits);  // NOLINT(performance-no-int-to-ptr)
}
