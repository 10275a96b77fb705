// lngrad register API: the per-element functions of the register table (lngrad_reg/op_table.h),
// written from the reference's per-element definitions. Integers wrap (two's complement);
// half, bfloat16_t and float are computed in float and rounded once to the lane type (for
// +, -, *, / and sqrt that is the correctly rounded operation of the lane type); exp and ln are
// computed in double and rounded to float, then to a 16-bit lane type (the vector Exp and Ln
// round once to half: docs/ascendc_kernels.md, "Arithmetic" of the register API).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "lngrad_reg/lane_types.h"

namespace lngrad::reg::ops {

// The unsigned integer of a lane's width (bitwise operations on float lanes).
template <typename T>
using Bits =
    std::conditional_t<sizeof(T) == 1, uint8_t,
                       std::conditional_t<sizeof(T) == 2, uint16_t,
                                          std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

template <typename T>
Bits<T> ToBits(T v) {
  Bits<T> b;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <typename T>
T FromBits(Bits<T> b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// A float lane's function f(float) -> float, rounded once to T; integers: g(T) -> T.
template <typename T, class F>
T OnFloat(T a, F f) {
  return static_cast<T>(f(static_cast<float>(a)));
}
template <typename T, class F>
T OnFloat(T a, T b, F f) {
  return static_cast<T>(f(static_cast<float>(a), static_cast<float>(b)));
}

// The arithmetic of one lane: integers wrap (computed in 64 bits, the low bits kept).
#define LNGRAD_REG_ARITH_OP(Name, expr)                                            \
  struct Name {                                                                    \
    template <typename T>                                                          \
    static T Apply(T a, T b) {                                                     \
      if constexpr (std::is_integral_v<T>) {                                       \
        const uint64_t x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b); \
        return static_cast<T>(expr);                                               \
      } else {                                                                     \
        return OnFloat(a, b, [](float x, float y) { return expr; });               \
      }                                                                            \
    }                                                                              \
  };
LNGRAD_REG_ARITH_OP(Add, x + y)
LNGRAD_REG_ARITH_OP(Sub, x - y)
LNGRAD_REG_ARITH_OP(Mul, x* y)
#undef LNGRAD_REG_ARITH_OP

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
      return OnFloat(a, b, [](float x, float y) { return x / y; });
    }
  }
};
// max / min: a NaN operand gives NaN (lngrad's choice, as the vector Max/Min).
#define LNGRAD_REG_PICK_OP(Name, b_wins) \
  struct Name {                          \
    template <typename T>                \
    static T Apply(T a, T b) {           \
      if constexpr (kIsFloat<T>) {       \
        if (a != a) return a;            \
        if (b != b) return b;            \
      }                                  \
      return (b_wins) ? b : a;           \
    }                                    \
  };
LNGRAD_REG_PICK_OP(Max, a < b)
LNGRAD_REG_PICK_OP(Min, b < a)
#undef LNGRAD_REG_PICK_OP

// Bitwise on the lanes' bits (float lanes too).
#define LNGRAD_REG_BIT_OP(Name, op)                                     \
  struct Name {                                                         \
    template <typename T>                                               \
    static T Apply(T a, T b) {                                          \
      return FromBits<T>(static_cast<Bits<T>>(ToBits(a) op ToBits(b))); \
    }                                                                   \
    static bool Bit(bool a, bool b) { return a op b; }                  \
  };
LNGRAD_REG_BIT_OP(And, &)
LNGRAD_REG_BIT_OP(Or, |)
LNGRAD_REG_BIT_OP(Xor, ^)
#undef LNGRAD_REG_BIT_OP

// Comparisons: a float comparison with NaN is false, but "not equal" is true (the reference: 1
// for ne).
#define LNGRAD_REG_CMP_OP(Name, op) \
  struct Name {                     \
    template <typename T>           \
    static bool Apply(T a, T b) {   \
      return a op b;                \
    }                               \
  };
LNGRAD_REG_CMP_OP(Eq, ==)
LNGRAD_REG_CMP_OP(Ne, !=)
LNGRAD_REG_CMP_OP(Gt, >)
LNGRAD_REG_CMP_OP(Ge, >=)
LNGRAD_REG_CMP_OP(Lt, <)
LNGRAD_REG_CMP_OP(Le, <=)
#undef LNGRAD_REG_CMP_OP

// Unary functions. Abs and Neg of a float flip or clear the sign bit (NaN keeps its payload);
// of an integer they wrap (abs(INT_MIN) = INT_MIN). Relu: x > 0 ? x : 0 (NaN -> +0, the vector
// Relu's choice). Not: the bits inverted.
struct Abs {
  template <typename T>
  static T Apply(T a) {
    if constexpr (kIsFloat<T>) {
      const auto sign = static_cast<Bits<T>>(Bits<T>{1} << (8 * sizeof(T) - 1));
      return FromBits<T>(static_cast<Bits<T>>(ToBits(a) & ~sign));
    } else {
      return a < 0 ? static_cast<T>(0 - static_cast<uint64_t>(a)) : a;
    }
  }
};
struct Neg {
  template <typename T>
  static T Apply(T a) {
    if constexpr (kIsFloat<T>) {
      const auto sign = static_cast<Bits<T>>(Bits<T>{1} << (8 * sizeof(T) - 1));
      return FromBits<T>(static_cast<Bits<T>>(ToBits(a) ^ sign));
    } else {
      return static_cast<T>(0 - static_cast<uint64_t>(a));
    }
  }
};
struct Relu {
  template <typename T>
  static T Apply(T a) {
    return a > T(0) ? a : T(0);
  }
};
struct Not {
  template <typename T>
  static T Apply(T a) {
    return FromBits<T>(static_cast<Bits<T>>(~ToBits(a)));
  }
};
// The lane unchanged (asc_copy; a merging row keeps the unselected lanes).
struct Copy {
  template <typename T>
  static T Apply(T a) {
    return a;
  }
};
// sqrt: correctly rounded; exp, ln: in double, rounded to float (then to a 16-bit lane type).
#define LNGRAD_REG_MATH_OP(Name, expr)                 \
  struct Name {                                        \
    template <typename T>                              \
    static T Apply(T a) {                              \
      return OnFloat(a, [](float x) { return expr; }); \
    }                                                  \
  };
LNGRAD_REG_MATH_OP(Sqrt, std::sqrt(x))
LNGRAD_REG_MATH_OP(Exp, static_cast<float>(std::exp(static_cast<double>(x))))
LNGRAD_REG_MATH_OP(Ln, static_cast<float>(std::log(static_cast<double>(x))))
// The float-to-integral-float roundings (floor, ceil, trunc; round: half away from zero; rint:
// half to even). Exact in every lane type, so computing in float is exact.
LNGRAD_REG_MATH_OP(Floor, std::floor(x))
LNGRAD_REG_MATH_OP(Ceil, std::ceil(x))
LNGRAD_REG_MATH_OP(Trunc, std::trunc(x))
LNGRAD_REG_MATH_OP(Round, std::round(x))
LNGRAD_REG_MATH_OP(Rint, std::nearbyint(x))
#undef LNGRAD_REG_MATH_OP

// The fused functions (the reference's ExpSub, AbsSub): the difference rounded to the lane type,
// then the exponential (as Exp) or the absolute value (exact).
struct ExpSub {
  template <typename T>
  static T Apply(T a, T b) {
    return Exp::Apply(Sub::Apply(a, b));
  }
};
struct AbsSub {
  template <typename T>
  static T Apply(T a, T b) {
    return Abs::Apply(Sub::Apply(a, b));
  }
};

// Flush-to-zero around an element function (the C++ flavour's *_FTZ_TRUE precision modes):
// subnormal float operands and results become a zero of their sign (float lanes; a half lane's
// subnormals are normal floats and are kept).
template <class Op>
struct FlushToZero {
  template <typename T>
  static T Flush(T v) {
    if constexpr (kIsFloat<T>) {
      const float f = static_cast<float>(v);
      if (std::fpclassify(f) == FP_SUBNORMAL) return static_cast<T>(std::copysign(0.0f, f));
    }
    return v;
  }
  template <typename T>
  static T Apply(T a, T b) {
    return Flush(Op::Apply(Flush(a), Flush(b)));
  }
  template <typename T>
  static T Apply(T a) {
    return Flush(Op::Apply(Flush(a)));
  }
};

}  // namespace lngrad::reg::ops
