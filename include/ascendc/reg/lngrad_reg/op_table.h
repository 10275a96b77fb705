// lngrad register API: the ONE table of register operations. Each row names an operation, its
// per-element function (lngrad::reg::ops, written from the reference's per-element definition),
// the lane types the reference lists for it and what masked-off lanes of the destination get
// (kZeroing: 0, as the C API documents for its compute functions; kMerging: unchanged). The C
// API's asc_* overloads (c_api/reg_compute/reg_vector.h) are generated from these rows, and the
// C++ flavour (AscendC::Reg) runs the same engines (lngrad_reg/engine.h): adding an operation
// or a type is adding or widening a row.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace lngrad::reg {

// Lane types as bits, for the table's type column.
enum TypeBit : uint32_t {
  kI8 = 1u << 0,
  kU8 = 1u << 1,
  kI16 = 1u << 2,
  kU16 = 1u << 3,
  kI32 = 1u << 4,
  kU32 = 1u << 5,
  kI64 = 1u << 6,
  kU64 = 1u << 7,
  kF32 = 1u << 8,
};
template <typename T>
inline constexpr uint32_t kTypeBit = std::is_same_v<T, int8_t>     ? kI8
                                     : std::is_same_v<T, uint8_t>  ? kU8
                                     : std::is_same_v<T, int16_t>  ? kI16
                                     : std::is_same_v<T, uint16_t> ? kU16
                                     : std::is_same_v<T, int32_t>  ? kI32
                                     : std::is_same_v<T, uint32_t> ? kU32
                                     : std::is_same_v<T, int64_t>  ? kI64
                                     : std::is_same_v<T, uint64_t> ? kU64
                                     : std::is_same_v<T, float>    ? kF32
                                                                   : 0u;
template <uint32_t types, typename T>
inline constexpr bool kAllows = (kTypeBit<T> & types) != 0;

inline constexpr uint32_t kB8 = kI8 | kU8;
inline constexpr uint32_t kB16 = kI16 | kU16;
inline constexpr uint32_t kB32 = kI32 | kU32 | kF32;
inline constexpr uint32_t kArith = kB8 | kB16 | kB32;  // add, sub (half, bfloat16: not yet)

enum class MaskMode : uint8_t { kZeroing, kMerging };

namespace ops {

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;

// Integers wrap (two's complement), floats are IEEE binary32 rounded to nearest even.
struct Add {
  template <typename T>
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(uint64_t(a) + uint64_t(b));
    else
      return a + b;
  }
};
struct Sub {
  template <typename T>
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(uint64_t(a) - uint64_t(b));
    else
      return a - b;
  }
};
struct Mul {
  template <typename T>
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(uint64_t(a) * uint64_t(b));
    else
      return a * b;
  }
};
// float: correctly rounded, IEEE specials (the reference's INF/NAN mode table; the vector Div's
// choice). Integers truncate toward zero; what the reference leaves open is lngrad's choice
// (docs/ascendc_compat.md, "C API"): x / 0 is all ones (-1, or the unsigned maximum) and
// INT_MIN / -1 wraps to INT_MIN.
struct Div {
  template <typename T>
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return static_cast<T>(~T{0});
      if constexpr (std::is_signed_v<T>) {
        if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
      }
      return static_cast<T>(a / b);
    } else {
      return a / b;
    }
  }
};
// Bitwise on the lanes' bits (float lanes too).
struct And {
  template <typename T>
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(a & b);
    } else {
      Bits<T> x, y;
      std::memcpy(&x, &a, sizeof(T));
      std::memcpy(&y, &b, sizeof(T));
      x &= y;
      T r;
      std::memcpy(&r, &x, sizeof(T));
      return r;
    }
  }
  static bool Bit(bool a, bool b) { return a && b; }
};
// Comparisons: a float comparison with NaN gives "not equal" (the reference: 1 for ne).
struct Ne {
  template <typename T>
  static bool Apply(T a, T b) {
    return a != b;
  }
};

}  // namespace ops
}  // namespace lngrad::reg

// The table. X(name, element function, lane types, mask mode).
// dst = op(src0, src1) per lane (vector registers):
#define LNGRAD_REG_BINARY_TABLE(X)                                                              \
  X(asc_add, ::lngrad::reg::ops::Add, ::lngrad::reg::kArith, ::lngrad::reg::MaskMode::kZeroing) \
  X(asc_sub, ::lngrad::reg::ops::Sub, ::lngrad::reg::kArith, ::lngrad::reg::MaskMode::kZeroing) \
  X(asc_mul, ::lngrad::reg::ops::Mul, ::lngrad::reg::kArith, ::lngrad::reg::MaskMode::kZeroing) \
  X(asc_div, ::lngrad::reg::ops::Div,                                                           \
    ::lngrad::reg::kI32 | ::lngrad::reg::kU32 | ::lngrad::reg::kF32,                            \
    ::lngrad::reg::MaskMode::kZeroing)                                                          \
  X(asc_and, ::lngrad::reg::ops::And, ::lngrad::reg::kArith, ::lngrad::reg::MaskMode::kZeroing)
// dst = op(src, value) per lane, value a scalar of the lane type:
#define LNGRAD_REG_SCALAR_TABLE(X) \
  X(asc_add_scalar, ::lngrad::reg::ops::Add, ::lngrad::reg::kB32, ::lngrad::reg::MaskMode::kZeroing)
// mask lane = op(src0, src1) (the _scalar row: op(src, value)); masked-off lanes 0:
#define LNGRAD_REG_COMPARE_TABLE(X) \
  X(asc_ne, asc_ne_scalar, ::lngrad::reg::ops::Ne, ::lngrad::reg::kArith)
// mask register = op(src0, src1) bit by bit where mask is set, 0 elsewhere:
#define LNGRAD_REG_MASK_TABLE(X) X(asc_and, ::lngrad::reg::ops::And)
