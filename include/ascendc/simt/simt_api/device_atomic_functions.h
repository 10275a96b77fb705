// lngrad SIMT API: the atomics (the vendor's simt_api/device_atomic_functions.h) on UB or GM.
//
// Each is one host atomic read-modify-write (blocks run on host threads in parallel), sequentially
// consistent, and returns the old value. Floating-point updates are a compare-and-swap loop over
// the value's bits: float add/sub round once in float; half and bfloat16_t round once to their
// own type; half2 and bfloat16x2_t update both halves in one 32-bit swap, each rounded on its own.
// max/min of a NaN give NaN; cas compares bits. The address must be aligned to the value's size
// (simt_atomic otherwise, as the device faults). Every atomic is a point where a spinning thread
// yields to the others of its block (lngrad::simt::AtomicPoint).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lngrad_simt/lane_ops.h"
#include "simt_api/device_types.h"

namespace lngrad::simt::detail {

void RequireAtomicAlignment(const void* address, size_t bytes, const char* api, aicore::SrcLoc loc);

template <size_t N>
struct BitsOf;
template <>
struct BitsOf<2> {
  using type = uint16_t;
};
template <>
struct BitsOf<4> {
  using type = uint32_t;
};
template <>
struct BitsOf<8> {
  using type = uint64_t;
};

// half2 / bfloat16x2_t: two components x and y.
template <typename T>
concept Pair = requires(T v) {
  v.x;
  v.y;
}
&&sizeof(T) == 4;

template <typename T>
concept AtomicInt = std::is_integral_v<T> &&(sizeof(T) == 4 || sizeof(T) == 8);
template <typename T>
concept AtomicValue = AtomicInt<T> || std::is_same_v<T, float> ||
    (!std::is_arithmetic_v<T> && std::is_trivially_copyable_v<T> &&
     (sizeof(T) == 2 || sizeof(T) == 4));

// Applies f to *address atomically; returns the old value.
template <typename T, typename F>
T AtomicUpdate(T* address, F f, const char* api, aicore::SrcLoc loc) {
  RequireAtomicAlignment(address, sizeof(T), api, loc);
  AtomicPoint();
  using U = typename BitsOf<sizeof(T)>::type;
  U* p = reinterpret_cast<U*>(address);
  U old = __atomic_load_n(p, __ATOMIC_RELAXED);
  for (;;) {
    const T value = std::bit_cast<T>(old);
    const U next = std::bit_cast<U>(static_cast<T>(f(value)));
    if (__atomic_compare_exchange_n(p, &old, next, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
      return value;
    }
  }
}

template <typename T, typename Op>
T Componentwise(T a, T b, Op op) {
  if constexpr (Pair<T>) {
    T r = a;
    r.x = op(a.x, b.x);
    r.y = op(a.y, b.y);
    return r;
  } else {
    return op(a, b);
  }
}

}  // namespace lngrad::simt::detail

#define LNGRAD_SIMT_ATOMIC_LOC ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()

#define LNGRAD_SIMT_ATOMIC_BINARY(name, op)                                               \
  template <::lngrad::simt::detail::AtomicValue T>                                        \
  T name(T* address, std::type_identity_t<T> val, LNGRAD_SIMT_ATOMIC_LOC) {               \
    return ::lngrad::simt::detail::AtomicUpdate(                                          \
        address,                                                                          \
        [&](T old) {                                                                      \
          return ::lngrad::simt::detail::Componentwise(                                   \
              old, val, [](auto a, auto b) { return ::lngrad::simt::detail::op(a, b); }); \
        },                                                                                \
        #name, loc);                                                                      \
  }
LNGRAD_SIMT_ATOMIC_BINARY(asc_atomic_add, LaneAdd)
LNGRAD_SIMT_ATOMIC_BINARY(asc_atomic_sub, LaneSub)
LNGRAD_SIMT_ATOMIC_BINARY(asc_atomic_max, LaneMax)
LNGRAD_SIMT_ATOMIC_BINARY(asc_atomic_min, LaneMin)
#undef LNGRAD_SIMT_ATOMIC_BINARY

template <::lngrad::simt::detail::AtomicValue T>
T asc_atomic_exch(T* address, std::type_identity_t<T> val, LNGRAD_SIMT_ATOMIC_LOC) {
  return ::lngrad::simt::detail::AtomicUpdate(
      address, [&](T) { return val; }, "asc_atomic_exch", loc);
}

template <::lngrad::simt::detail::AtomicValue T>
T asc_atomic_cas(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> val,
                 LNGRAD_SIMT_ATOMIC_LOC) {
  using U = typename ::lngrad::simt::detail::BitsOf<sizeof(T)>::type;
  return ::lngrad::simt::detail::AtomicUpdate(
      address,
      [&](T old) { return std::bit_cast<U>(old) == std::bit_cast<U>(compare) ? val : old; },
      "asc_atomic_cas", loc);
}

#define LNGRAD_SIMT_ATOMIC_BITS(name, expr)                                 \
  template <::lngrad::simt::detail::AtomicInt T>                            \
  T name(T* address, std::type_identity_t<T> val, LNGRAD_SIMT_ATOMIC_LOC) { \
    return ::lngrad::simt::detail::AtomicUpdate(                            \
        address, [&](T old) { return static_cast<T>(expr); }, #name, loc);  \
  }
LNGRAD_SIMT_ATOMIC_BITS(asc_atomic_and, old& val)
LNGRAD_SIMT_ATOMIC_BITS(asc_atomic_or, old | val)
LNGRAD_SIMT_ATOMIC_BITS(asc_atomic_xor, old ^ val)
#undef LNGRAD_SIMT_ATOMIC_BITS

// inc: 0 once the old value reaches val, else old + 1. dec: val when the old value is 0 or above
// val, else old - 1. Unsigned 32- and 64-bit.
template <::lngrad::simt::detail::AtomicInt T>
requires std::is_unsigned_v<T> T asc_atomic_inc(T* address, std::type_identity_t<T> val,
                                                LNGRAD_SIMT_ATOMIC_LOC) {
  return ::lngrad::simt::detail::AtomicUpdate(
      address, [&](T old) { return old >= val ? T{0} : static_cast<T>(old + 1); }, "asc_atomic_inc",
      loc);
}
template <::lngrad::simt::detail::AtomicInt T>
requires std::is_unsigned_v<T> T asc_atomic_dec(T* address, std::type_identity_t<T> val,
                                                LNGRAD_SIMT_ATOMIC_LOC) {
  return ::lngrad::simt::detail::AtomicUpdate(
      address, [&](T old) { return old == 0 || old > val ? val : static_cast<T>(old - 1); },
      "asc_atomic_dec", loc);
}

#undef LNGRAD_SIMT_ATOMIC_LOC
