// Layer simt: the functions ThreadSanitizer's instrumentation calls (racecheck.h), defined here
// instead of in its run-time library: plain accesses and atomics of instrumented SIMT kernel code
// go to the running block's race checker; outside a SIMT thread (host code of the same source)
// they do nothing but the access itself. Not built when lngrad itself is built with
// ThreadSanitizer (its run-time library defines them). Nothing else lives in this file, so that
// only a program with instrumented objects pulls it out of the static library.
#include <cstddef>
#include <cstdint>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/gm.h"
#include "racecheck.h"
#include "state.h"

#if defined(__SANITIZE_THREAD__)
#define LNGRAD_SIMT_OWN_TSAN 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LNGRAD_SIMT_OWN_TSAN 0
#endif
#endif
#ifndef LNGRAD_SIMT_OWN_TSAN
#define LNGRAD_SIMT_OWN_TSAN 1
#endif

namespace lngrad::simt::detail {
namespace {

// Marks the checker's own run (t_in_checker) for its scope.
struct InChecker {
  InChecker() { t_in_checker = true; }
  ~InChecker() { t_in_checker = false; }
};

// A SIMT thread's access that starts inside a GM block and leaves it (or one to a freed block)
// fails the thread as the device's would (gm_bounds, gm_freed). The block's UB is left alone.
inline void CheckGm(const void* addr, size_t bytes, bool write) {
  if (t_thread == nullptr || t_in_checker) return;
  const InChecker in;
  const aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  const auto a = reinterpret_cast<uintptr_t>(addr);
  if (ctx != nullptr && a >= reinterpret_cast<uintptr_t>(ctx->ub) &&
      a < reinterpret_cast<uintptr_t>(ctx->ub) + ctx->ub_size) {
    return;
  }
  aicore::detail::CheckGmRawAccess(addr, bytes,
                                   write ? "a SIMT thread's store" : "a SIMT thread's load");
}

// A plain or volatile access of a SIMT thread: the GM bounds, the vector function's UB log, then
// the race checker's `access` (RaceChecker::Access or VolatileAccess).
template <void (RaceChecker::*access)(uint32_t, uintptr_t, size_t, bool, const void*)>
inline void Observe(const void* addr, size_t bytes, bool write, const void* pc) {
  CheckGm(addr, bytes, write);
  if (VfUbLog* log = t_vf_log; log != nullptr && t_thread != nullptr && !t_in_checker) {
    log->Note(reinterpret_cast<uintptr_t>(addr), bytes, write);
  }
  RaceChecker* r = t_race;
  if (r == nullptr || t_thread == nullptr || t_in_checker) return;
  const InChecker in;
  (r->*access)(t_thread->linear, reinterpret_cast<uintptr_t>(addr), bytes, write, pc);
}
inline void Plain(const void* addr, size_t bytes, bool write, const void* pc) {
  Observe<&RaceChecker::Access>(addr, bytes, write, pc);
}
inline void Volatile(const void* addr, size_t bytes, bool write, const void* pc) {
  Observe<&RaceChecker::VolatileAccess>(addr, bytes, write, pc);
}

inline void FenceHere() {
  RaceChecker* r = t_race;
  if (r == nullptr || t_thread == nullptr || t_in_checker) return;
  const InChecker in;
  r->Fence(t_thread->linear);
}

inline void AtomicAt(const volatile void* addr, size_t bytes) {
  if (VfUbLog* log = t_vf_log; log != nullptr && t_thread != nullptr && !t_in_checker) {
    const auto a = reinterpret_cast<uintptr_t>(const_cast<const void*>(addr));
    log->Note(a, bytes, false);
    log->Note(a, bytes, true);
  }
  RaceChecker* r = t_race;
  if (r == nullptr || t_thread == nullptr || t_in_checker) return;
  const InChecker in;
  r->Atomic(t_thread->linear, reinterpret_cast<uintptr_t>(const_cast<const void*>(addr)));
}

}  // namespace
}  // namespace lngrad::simt::detail

#if LNGRAD_SIMT_OWN_TSAN

namespace sd = lngrad::simt::detail;

#define LNGRAD_PC __builtin_return_address(0)

extern "C" {

void __tsan_init() { sd::MarkInstrumentedCodeLoaded(); }
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_ignore_thread_begin() {}
void __tsan_ignore_thread_end() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}

#define LNGRAD_TSAN_SIZED(N)                                                                \
  void __tsan_read##N(void* a) { sd::Plain(a, N, false, LNGRAD_PC); }                       \
  void __tsan_write##N(void* a) { sd::Plain(a, N, true, LNGRAD_PC); }                       \
  void __tsan_unaligned_read##N(void* a) { sd::Plain(a, N, false, LNGRAD_PC); }             \
  void __tsan_unaligned_write##N(void* a) { sd::Plain(a, N, true, LNGRAD_PC); }             \
  void __tsan_volatile_read##N(void* a) { sd::Volatile(a, N, false, LNGRAD_PC); }           \
  void __tsan_volatile_write##N(void* a) { sd::Volatile(a, N, true, LNGRAD_PC); }           \
  void __tsan_unaligned_volatile_read##N(void* a) { sd::Volatile(a, N, false, LNGRAD_PC); } \
  void __tsan_unaligned_volatile_write##N(void* a) { sd::Volatile(a, N, true, LNGRAD_PC); } \
  void __tsan_read##N##_pc(void* a, void* pc) { sd::Plain(a, N, false, pc); }               \
  void __tsan_write##N##_pc(void* a, void* pc) { sd::Plain(a, N, true, pc); }
LNGRAD_TSAN_SIZED(1)
LNGRAD_TSAN_SIZED(2)
LNGRAD_TSAN_SIZED(4)
LNGRAD_TSAN_SIZED(8)
LNGRAD_TSAN_SIZED(16)
#undef LNGRAD_TSAN_SIZED

void __tsan_read_range(void* a, size_t n) { sd::Plain(a, n, false, LNGRAD_PC); }
void __tsan_write_range(void* a, size_t n) { sd::Plain(a, n, true, LNGRAD_PC); }
void __tsan_read_range_pc(void* a, size_t n, void* pc) { sd::Plain(a, n, false, pc); }
void __tsan_write_range_pc(void* a, size_t n, void* pc) { sd::Plain(a, n, true, pc); }

// Atomics: done here with the compiler's builtins (sequentially consistent whatever order the
// caller asked for: stronger is allowed), then an acquire and release of the address for the
// checker.
// One read-modify-write: name and the builtin that does it.
#define LNGRAD_TSAN_RMW(N, T, name, builtin)             \
  T __tsan_atomic##N##_##name(volatile T* a, T v, int) { \
    sd::AtomicAt(a, sizeof(T));                          \
    return builtin(a, v, __ATOMIC_SEQ_CST);              \
  }
#define LNGRAD_TSAN_ATOMICS(N, T)                                                           \
  T __tsan_atomic##N##_load(const volatile T* a, int) {                                     \
    sd::AtomicAt(a, sizeof(T));                                                             \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                            \
  }                                                                                         \
  void __tsan_atomic##N##_store(volatile T* a, T v, int) {                                  \
    sd::AtomicAt(a, sizeof(T));                                                             \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                               \
  }                                                                                         \
  LNGRAD_TSAN_RMW(N, T, exchange, __atomic_exchange_n)                                      \
  LNGRAD_TSAN_RMW(N, T, fetch_add, __atomic_fetch_add)                                      \
  LNGRAD_TSAN_RMW(N, T, fetch_sub, __atomic_fetch_sub)                                      \
  LNGRAD_TSAN_RMW(N, T, fetch_and, __atomic_fetch_and)                                      \
  LNGRAD_TSAN_RMW(N, T, fetch_or, __atomic_fetch_or)                                        \
  LNGRAD_TSAN_RMW(N, T, fetch_xor, __atomic_fetch_xor)                                      \
  LNGRAD_TSAN_RMW(N, T, fetch_nand, __atomic_fetch_nand)                                    \
  int __tsan_atomic##N##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) {      \
    sd::AtomicAt(a, sizeof(T));                                                             \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
  }                                                                                         \
  int __tsan_atomic##N##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {        \
    sd::AtomicAt(a, sizeof(T));                                                             \
    return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
  }                                                                                         \
  T __tsan_atomic##N##_compare_exchange_val(volatile T* a, T c, T v, int, int) {            \
    sd::AtomicAt(a, sizeof(T));                                                             \
    __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
    return c;                                                                               \
  }
LNGRAD_TSAN_ATOMICS(8, uint8_t)
LNGRAD_TSAN_ATOMICS(16, uint16_t)
LNGRAD_TSAN_ATOMICS(32, uint32_t)
LNGRAD_TSAN_ATOMICS(64, uint64_t)
#undef LNGRAD_TSAN_ATOMICS
#undef LNGRAD_TSAN_RMW

void* __tsan_memcpy(void* d, const void* src, size_t n) {
  sd::Plain(src, n, false, LNGRAD_PC);
  sd::Plain(d, n, true, LNGRAD_PC);
  return __builtin_memcpy(d, src, n);
}
void* __tsan_memmove(void* d, const void* src, size_t n) {
  sd::Plain(src, n, false, LNGRAD_PC);
  sd::Plain(d, n, true, LNGRAD_PC);
  return __builtin_memmove(d, src, n);
}
void* __tsan_memset(void* d, int c, size_t n) {
  sd::Plain(d, n, true, LNGRAD_PC);
  return __builtin_memset(d, c, n);
}

void __tsan_atomic_thread_fence(int) {
  sd::FenceHere();
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int) {
  sd::FenceHere();
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

}  // extern "C"

#endif  // LNGRAD_SIMT_OWN_TSAN
