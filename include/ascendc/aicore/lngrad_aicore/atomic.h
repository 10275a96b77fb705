// lngrad Ascend C runtime: atomic operations. The DMA atomic modes (SetAtomicAdd/Max/Min,
// SetAtomicType, DisableDmaAtomic, SetAtomicNone) make later UB -> GM copies (DataCopy,
// DataCopyPad) combine each element with what GM holds instead of overwriting it; the scalar
// atomics (AtomicAdd, AtomicMax, AtomicMin, AtomicCas, AtomicExch) update one GM value and
// return the old one (docs/ascendc_compat.md, "Inter-block synchronisation and atomics").
//
// The mode is per block, like the CTRL bits it lives in on the device (CTRL[8:6] the type,
// CTRL[10:9] the operation on Ascend 950): every block of a launch starts with atomics off.
// Atomic copies and scalar atomics of all blocks are serialised by one process-wide lock, so the
// result is exact (each element combined once, in some order) whatever the blocks' threads do;
// element arithmetic: float in float, half and bfloat16 through double rounded once to the type
// (the exact sum rounded to nearest even), integers wrapping in two's complement. Max/Min: the
// larger/smaller value; a NaN on either side gives NaN. Sanitizer: several blocks' atomic copies
// with the same operation and type to one GM range are no race (they are the documented way to
// accumulate), and neither are two such copies of one block without a PipeBarrier between them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "check.h"
#include "half.h"
#include "sanitizer.h"

namespace lngrad::aicore {

namespace checks {
inline constexpr const char* kAtomicType =
    "atomic_type";  // an atomic data type or operation the product does not have
}  // namespace checks

namespace detail {

// CTRL[10:9]: the operation, CTRL[8:6]: the data type (0: atomics off), as on Ascend 950.
enum class AtomicOp : uint8_t { kAdd = 0, kMax = 1, kMin = 2 };
enum class AtomicType : uint8_t {
  kOff = 0,
  kFloat = 1,
  kHalf = 2,
  kInt16 = 3,
  kInt32 = 4,
  kInt8 = 5,
  kBf16 = 6
};
struct DmaAtomic {
  AtomicType type = AtomicType::kOff;
  AtomicOp op = AtomicOp::kAdd;
};
// The running block's mode.
DmaAtomic CurrentDmaAtomic() noexcept;
void SetDmaAtomic(DmaAtomic a) noexcept;
// Checked mode: the product has `type` for operation `op` (SetAtomicAdd/Max/Min's tables);
// api names the call in the message.
void SetDmaAtomicChecked(const char* api, DmaAtomic a, SrcLoc loc);
void SetAtomicTypeChecked(AtomicType type, SrcLoc loc);
void DisableDmaAtomicChecked(const char* api, SrcLoc loc);

template <typename T>
constexpr AtomicType AtomicTypeOf() {
  if constexpr (std::is_same_v<T, float>) return AtomicType::kFloat;
  if constexpr (std::is_same_v<T, ::half>) return AtomicType::kHalf;
  if constexpr (std::is_same_v<T, int16_t>) return AtomicType::kInt16;
  if constexpr (std::is_same_v<T, int32_t>) return AtomicType::kInt32;
  if constexpr (std::is_same_v<T, int8_t>) return AtomicType::kInt8;
  return AtomicType::kOff;
}

// The hook of the UB -> GM copies: when the running block has an atomic mode on, combines
// `count` rows of `len` bytes (row i from ub + i * ub_pitch into gm + i * gm_pitch) with GM and
// returns true; returns false (the caller copies) when atomics are off.
bool AtomicCopyToGm(std::byte* gm, const std::byte* ub, uint64_t count, uint64_t len,
                    uint64_t gm_pitch, uint64_t ub_pitch);

// Scalar atomics (Ascend 950): op 0 add, 1 max, 2 min, 3 exchange, 4 compare-and-swap (with
// `expected`). Returns the old value.
enum class ScalarAtomicOp : uint8_t { kAdd, kMax, kMin, kExch, kCas };
void ScalarAtomicPrologue(const char* api, const void* p, uint64_t bytes, SrcLoc loc);
void LockAtomics() noexcept;
void UnlockAtomics() noexcept;
// Runs fn() under the lock the atomic copies take.
template <typename Fn>
auto UnderAtomicLock(Fn&& fn) {
  struct Guard {
    Guard() { LockAtomics(); }
    ~Guard() { UnlockAtomics(); }
  } guard;
  return fn();
}

template <typename T>
T ScalarAtomic(const char* api, ScalarAtomicOp op, T* address, T value, T expected, SrcLoc loc) {
  ScalarAtomicPrologue(api, address, sizeof(T), loc);
  // An atomic read-modify-write never races with another; for the sanitizer it orders like a
  // release and an acquire of its address (a block that sees another's update sees what that
  // block did before it).
  san::Release(reinterpret_cast<uintptr_t>(address));
  struct AcquireAfter {
    const void* p;
    ~AcquireAfter() { san::Acquire(reinterpret_cast<uintptr_t>(p)); }
  } acquire{address};
  return UnderAtomicLock([&] {
    const T old = *address;
    T now = old;
    switch (op) {
      case ScalarAtomicOp::kAdd:
        if constexpr (std::is_integral_v<T>) {
          using U = std::make_unsigned_t<T>;
          now = static_cast<T>(static_cast<U>(old) + static_cast<U>(value));  // wraps
        } else {
          now = old + value;
        }
        break;
      case ScalarAtomicOp::kMax:
        now =
            old != old || value != value ? (old != old ? old : value) : (value > old ? value : old);
        break;
      case ScalarAtomicOp::kMin:
        now =
            old != old || value != value ? (old != old ? old : value) : (value < old ? value : old);
        break;
      case ScalarAtomicOp::kExch:
        now = value;
        break;
      case ScalarAtomicOp::kCas:
        now = old == expected ? value : old;
        break;
    }
    *address = now;
    return old;
  });
}

}  // namespace detail
}  // namespace lngrad::aicore

namespace AscendC {

// DMA atomics. Types: int8_t, int16_t, half, int32_t, float (bfloat16_t where the product has
// it is not modelled: lngrad has no bfloat16_t type yet). Checked mode raises atomic_type for a
// type the product lacks and unsupported_on_product where the API is missing.
template <typename T>
void SetAtomicType(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  constexpr auto kType = lngrad::aicore::detail::AtomicTypeOf<T>();
  static_assert(kType != lngrad::aicore::detail::AtomicType::kOff,
                "SetAtomicType: T must be int8_t, int16_t, half, int32_t or float");
  lngrad::aicore::detail::SetAtomicTypeChecked(kType, loc);
}
#define LNGRAD_SET_ATOMIC(Name, Op)                                                               \
  template <typename T>                                                                           \
  void Name(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                     \
    constexpr auto kType = lngrad::aicore::detail::AtomicTypeOf<T>();                             \
    static_assert(kType != lngrad::aicore::detail::AtomicType::kOff,                              \
                  #Name ": T must be int8_t, int16_t, half, int32_t or float");                   \
    lngrad::aicore::detail::SetDmaAtomicChecked(#Name, {kType, lngrad::aicore::detail::Op}, loc); \
  }
LNGRAD_SET_ATOMIC(SetAtomicAdd, AtomicOp::kAdd)
LNGRAD_SET_ATOMIC(SetAtomicMax, AtomicOp::kMax)
LNGRAD_SET_ATOMIC(SetAtomicMin, AtomicOp::kMin)
#undef LNGRAD_SET_ATOMIC
// Later UB -> GM copies overwrite GM again.
inline void DisableDmaAtomic(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::DisableDmaAtomicChecked("DisableDmaAtomic", loc);
}
// The older name of DisableDmaAtomic.
inline void SetAtomicNone(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::DisableDmaAtomicChecked("SetAtomicNone", loc);
}

// Scalar atomics on one GM value (Ascend 950 only), on pipe S, bypassing the data cache.
// AtomicAdd/Max/Min: int32_t, uint32_t, float, int64_t, uint64_t; AtomicExch likewise;
// AtomicCas: uint32_t, uint64_t. Return the value before the operation.
#define LNGRAD_SCALAR_ATOMIC(Name, Op)                                                             \
  template <typename T>                                                                            \
  T Name(T* address, T value, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {    \
    static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||                     \
                      std::is_same_v<T, float> || std::is_same_v<T, int64_t> ||                    \
                      std::is_same_v<T, uint64_t>,                                                 \
                  #Name ": T must be int32_t, uint32_t, float, int64_t or uint64_t");              \
    return lngrad::aicore::detail::ScalarAtomic(#Name, lngrad::aicore::detail::ScalarAtomicOp::Op, \
                                                address, value, T{}, loc);                         \
  }
LNGRAD_SCALAR_ATOMIC(AtomicAdd, kAdd)
LNGRAD_SCALAR_ATOMIC(AtomicMax, kMax)
LNGRAD_SCALAR_ATOMIC(AtomicMin, kMin)
LNGRAD_SCALAR_ATOMIC(AtomicExch, kExch)
#undef LNGRAD_SCALAR_ATOMIC
// old == value1 ? value2 : old is written; returns old.
template <typename T>
T AtomicCas(T* address, T value1, T value2,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>,
                "AtomicCas: T must be uint32_t or uint64_t");
  return lngrad::aicore::detail::ScalarAtomic(
      "AtomicCas", lngrad::aicore::detail::ScalarAtomicOp::kCas, address, value2, value1, loc);
}

}  // namespace AscendC
