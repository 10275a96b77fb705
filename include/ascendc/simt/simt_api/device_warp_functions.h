// lngrad SIMT API: the warp functions (the vendor's simt_api/device_warp_functions.h): shuffles,
// votes, reductions and lane masks.
//
// Every function but the lane masks is a rendezvous of the warp's active lanes
// (lngrad::simt::WarpSync: the lanes waiting at the same call site; lngrad_simt/runtime.h).
// A shuffle whose source lane is inactive returns the caller's own var (the device returns an
// uninitialised register). The reductions combine the active lanes in the halving order the
// reference describes (offset 16, 8, 4, 2, 1: lane i takes lane i + offset), an inactive lane
// contributing nothing; half sums are rounded to half at every step.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lngrad_aicore/half.h"
#include "lngrad_simt/lane_ops.h"
#include "simt_api/device_types.h"

namespace lngrad::simt::detail {

template <typename T>
inline constexpr bool kWarpValue = std::is_trivially_copyable_v<T> && sizeof(T) <= 8;

template <typename T>
uint64_t ToBits(const T& v) {
  static_assert(kWarpValue<T>, "a warp function exchanges values of at most 8 bytes");
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <typename T>
T FromBits(uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// Raises simt_warp unless width is a power of two in [1, 32] (the device returns garbage).
void RequireWarpWidth(int32_t width, const char* api, aicore::SrcLoc loc);

// Shuffles: the value of lane `src` of the exchange, or `own` when src is no active lane.
template <typename T>
T ShflFrom(const T& own, const WarpExchange& x, int64_t src) {
  if (src < 0 || src >= static_cast<int64_t>(kWarpSize) || ((x.active >> src) & 1u) == 0) {
    return own;
  }
  return FromBits<T>(x.values[src]);
}

enum class ShflKind { kIdx, kUp, kDown, kXor };

template <typename T>
T Shfl(ShflKind kind, T var, int64_t arg, int32_t width, const char* api, Site loc) {
  RequireWarpWidth(width, api, loc);
  const WarpExchange& x = WarpSync(ToBits(var), loc);
  const int64_t lane = CurrentThread(api).lane;
  const int64_t w = width;
  const int64_t base = lane & ~(w - 1);
  const int64_t pos = lane - base;
  switch (kind) {
    case ShflKind::kIdx:
      return ShflFrom(var, x, base + ((arg % w) + w) % w);
    case ShflKind::kUp:
      return arg <= pos ? ShflFrom(var, x, lane - arg) : var;
    case ShflKind::kDown:
      return pos + arg < w ? ShflFrom(var, x, lane + arg) : var;
    case ShflKind::kXor: {
      const int64_t dst = lane ^ arg;
      return dst < base + w ? ShflFrom(var, x, dst) : var;
    }
  }
  return var;
}

// The halving reduction over the active lanes (see the header comment).
template <typename T, typename Op>
T WarpReduce(T val, Op op, const char* api, Site loc) {
  const WarpExchange& x = WarpSync(ToBits(val), loc);
  (void)api;
  T v[kWarpSize];
  uint32_t present = x.active;
  for (uint32_t i = 0; i < kWarpSize; ++i) {
    if ((present >> i) & 1u) v[i] = FromBits<T>(x.values[i]);
  }
  for (uint32_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
    for (uint32_t i = 0; i < offset; ++i) {
      const bool a = (present >> i) & 1u;
      const bool b = (present >> (i + offset)) & 1u;
      if (a && b) {
        v[i] = op(v[i], v[i + offset]);
      } else if (b) {
        v[i] = v[i + offset];
        present |= 1u << i;
      }
    }
  }
  return v[0];
}

// The documented scalar types of the shuffles; other types of at most 8 bytes that are not
// arithmetic (half, bfloat16_t, half2, bfloat16x2_t) go through the template below.
#define LNGRAD_SIMT_SHFL_TYPES(X) X(int32_t) X(uint32_t) X(float) X(int64_t) X(uint64_t)

}  // namespace lngrad::simt::detail

#define LNGRAD_SIMT_SHFL(T)                                                                       \
  inline T asc_shfl(T var, int32_t src_lane, int32_t width = warpSize,                            \
                    ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {                 \
    return ::lngrad::simt::detail::Shfl(::lngrad::simt::detail::ShflKind::kIdx, var, src_lane,    \
                                        width, "asc_shfl", loc);                                  \
  }                                                                                               \
  inline T asc_shfl_up(T var, uint32_t delta, int32_t width = warpSize,                           \
                       ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {              \
    return ::lngrad::simt::detail::Shfl(::lngrad::simt::detail::ShflKind::kUp, var, delta, width, \
                                        "asc_shfl_up", loc);                                      \
  }                                                                                               \
  inline T asc_shfl_down(T var, uint32_t delta, int32_t width = warpSize,                         \
                         ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {            \
    return ::lngrad::simt::detail::Shfl(::lngrad::simt::detail::ShflKind::kDown, var, delta,      \
                                        width, "asc_shfl_down", loc);                             \
  }                                                                                               \
  inline T asc_shfl_xor(T var, int32_t lane_mask, int32_t width = warpSize,                       \
                        ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {             \
    return ::lngrad::simt::detail::Shfl(::lngrad::simt::detail::ShflKind::kXor, var, lane_mask,   \
                                        width, "asc_shfl_xor", loc);                              \
  }
LNGRAD_SIMT_SHFL_TYPES(LNGRAD_SIMT_SHFL)
#undef LNGRAD_SIMT_SHFL

// half, bfloat16_t, half2, bfloat16x2_t.
template <typename T>
requires(!std::is_arithmetic_v<T> && ::lngrad::simt::detail::kWarpValue<T>) T
    asc_shfl(T var, int32_t src_lane, int32_t width = warpSize,
             ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {
  return ::lngrad::simt::detail::Shfl(::lngrad::simt::detail::ShflKind::kIdx, var, src_lane, width,
                                      "asc_shfl", loc);
}
template <typename T>
requires(!std::is_arithmetic_v<T> && ::lngrad::simt::detail::kWarpValue<T>) T
    asc_shfl_up(T var, uint32_t delta, int32_t width = warpSize,
                ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {
  return ::lngrad::simt::detail::Shfl(::lngrad::simt::detail::ShflKind::kUp, var, delta, width,
                                      "asc_shfl_up", loc);
}
template <typename T>
requires(!std::is_arithmetic_v<T> && ::lngrad::simt::detail::kWarpValue<T>) T
    asc_shfl_down(T var, uint32_t delta, int32_t width = warpSize,
                  ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {
  return ::lngrad::simt::detail::Shfl(::lngrad::simt::detail::ShflKind::kDown, var, delta, width,
                                      "asc_shfl_down", loc);
}
template <typename T>
requires(!std::is_arithmetic_v<T> && ::lngrad::simt::detail::kWarpValue<T>) T
    asc_shfl_xor(T var, int32_t lane_mask, int32_t width = warpSize,
                 ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {
  return ::lngrad::simt::detail::Shfl(::lngrad::simt::detail::ShflKind::kXor, var, lane_mask, width,
                                      "asc_shfl_xor", loc);
}

// Votes.
inline int32_t asc_all(int32_t predicate,
                       ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {
  const ::lngrad::simt::WarpExchange& x = ::lngrad::simt::WarpSync(predicate != 0, loc);
  for (uint32_t i = 0; i < ::lngrad::simt::kWarpSize; ++i) {
    if (((x.active >> i) & 1u) != 0 && x.values[i] == 0) return 0;
  }
  return 1;
}
inline int32_t asc_any(int32_t predicate,
                       ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {
  const ::lngrad::simt::WarpExchange& x = ::lngrad::simt::WarpSync(predicate != 0, loc);
  for (uint32_t i = 0; i < ::lngrad::simt::kWarpSize; ++i) {
    if (((x.active >> i) & 1u) != 0 && x.values[i] != 0) return 1;
  }
  return 0;
}
inline uint32_t asc_ballot(int32_t predicate,
                           ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {
  const ::lngrad::simt::WarpExchange& x = ::lngrad::simt::WarpSync(predicate != 0, loc);
  uint32_t mask = 0;
  for (uint32_t i = 0; i < ::lngrad::simt::kWarpSize; ++i) {
    if (((x.active >> i) & 1u) != 0 && x.values[i] != 0) mask |= 1u << i;
  }
  return mask;
}
inline uint32_t asc_activemask(::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) {
  return ::lngrad::simt::ActiveMask(loc);
}

// Reductions: int32_t, uint32_t, float, half.
#define LNGRAD_SIMT_REDUCE(T)                                                                  \
  inline T asc_reduce_add(T val, ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) { \
    return ::lngrad::simt::detail::WarpReduce(val, &::lngrad::simt::detail::LaneAdd<T>,        \
                                              "asc_reduce_add", loc);                          \
  }                                                                                            \
  inline T asc_reduce_max(T val, ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) { \
    return ::lngrad::simt::detail::WarpReduce(val, &::lngrad::simt::detail::LaneMax<T>,        \
                                              "asc_reduce_max", loc);                          \
  }                                                                                            \
  inline T asc_reduce_min(T val, ::lngrad::simt::Site loc = ::lngrad::simt::Site::Current()) { \
    return ::lngrad::simt::detail::WarpReduce(val, &::lngrad::simt::detail::LaneMin<T>,        \
                                              "asc_reduce_min", loc);                          \
  }
LNGRAD_SIMT_REDUCE(int32_t)
LNGRAD_SIMT_REDUCE(uint32_t)
LNGRAD_SIMT_REDUCE(float)
LNGRAD_SIMT_REDUCE(half)
#undef LNGRAD_SIMT_REDUCE

// Lane IDs and masks: pure functions of the calling thread's lane.
inline int32_t laneid() {
  return static_cast<int32_t>(::lngrad::simt::detail::CurrentThread("laneid").lane);
}
inline int32_t lanemask_eq() { return static_cast<int32_t>(1u << laneid()); }
inline int32_t lanemask_lt() { return static_cast<int32_t>((1u << laneid()) - 1u); }
inline int32_t lanemask_le() {
  return static_cast<int32_t>(static_cast<uint32_t>(lanemask_lt()) | (1u << laneid()));
}
inline int32_t lanemask_gt() { return static_cast<int32_t>(~static_cast<uint32_t>(lanemask_le())); }
inline int32_t lanemask_ge() { return static_cast<int32_t>(~static_cast<uint32_t>(lanemask_lt())); }
