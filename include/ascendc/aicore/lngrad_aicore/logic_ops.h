// lngrad Ascend C runtime: the bitwise instructions of the basic API (逻辑计算): And, Or, Not,
// ShiftLeft, ShiftRight (scalar and, on the 950, per-element shift amounts), Ands / Ors (the
// 950's scalar forms whose scalar may be one element of a LocalTensor, BinaryConfig), the
// BinaryConfig form of Select, CreateVecIndex, and the type helper AscendC::Conditional.
//
// Semantics (vendor docs):
// - And / Or / Not: bit by bit. Types: int16_t and uint16_t on A2/A3 (the 950 adds other
//   widths); lngrad accepts every 2- and 4-byte integer (the bits do not depend on the width).
// - ShiftLeft / ShiftRight: unsigned types shift logically; signed types arithmetically: a
//   left shift keeps the sign bit and drops the bit below it, a right shift copies the sign.
//   Amounts of at least the width give 0 (logical), the sign alone (signed left: 0 or the most
//   negative value), 0 or -1 (signed right). A2/A3 allow amounts in [0, bits]: checked mode
//   raises checks::kShiftAmount outside that range. ShiftRight's roundEn (signed types only)
//   adds the last bit shifted out. Types: int16_t, uint16_t, int32_t, uint32_t.
// - CreateVecIndex: dst[i] = firstValue + i (half, float, int16_t, int32_t).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "compare_ops.h"
#include "compound_ops.h"
#include "mask.h"
#include "vector_ops.h"

namespace lngrad::aicore::checks {
inline constexpr const char* kShiftAmount = "shift_amount";  // a shift outside [0, bits]
}  // namespace lngrad::aicore::checks

namespace AscendC {

// Type selection (the vendor's utility): type is T1 if B, else T2.
template <bool B, typename T1, typename T2>
struct Conditional {
  using type = T1;
};
template <typename T1, typename T2>
struct Conditional<false, T1, T2> {
  using type = T2;
};

// The 950's tensor-scalar forms: which operand is the scalar when both are LocalTensors
// (its element 0): 0 the left one, 1 the right one.
struct BinaryConfig {
  int8_t scalarTensorIndex = 1;
};
inline constexpr BinaryConfig DEFAULT_BINARY_CONFIG = {1};
// The reserved first template parameter of those forms.
struct BinaryDefaultType {};

}  // namespace AscendC

namespace lngrad::aicore::detail::logic {

template <typename T>
inline constexpr bool kBitType = std::is_integral_v<T> && (sizeof(T) == 2 || sizeof(T) == 4) &&
                                 !std::is_same_v<T, bool>;

enum class Bit : uint8_t { kAnd, kOr };
template <typename T>
T BitOp(Bit op, T a, T b) {
  using U = std::make_unsigned_t<T>;
  const U x = static_cast<U>(a);
  const U y = static_cast<U>(b);
  return static_cast<T>(op == Bit::kAnd ? static_cast<U>(x & y) : static_cast<U>(x | y));
}

// One shift by n (already known to be >= 0).
template <typename T>
T ShiftLeftOne(T v, uint64_t n) {
  using U = std::make_unsigned_t<T>;
  constexpr uint32_t kBits = sizeof(T) * 8;
  const U x = static_cast<U>(v);
  const U shifted = n >= kBits ? U{0} : static_cast<U>(x << n);
  if constexpr (std::is_signed_v<T>) {
    constexpr U kSign = static_cast<U>(U{1} << (kBits - 1));
    return static_cast<T>(static_cast<U>((x & kSign) | (shifted & static_cast<U>(~kSign))));
  } else {
    return static_cast<T>(shifted);
  }
}
template <typename T>
T ShiftRightOne(T v, uint64_t n, bool round) {
  constexpr uint32_t kBits = sizeof(T) * 8;
  if constexpr (std::is_signed_v<T>) {
    const int64_t x = v;
    const int64_t r = x >> (n >= kBits ? kBits - 1 : n);  // 64-bit: defined, copies the sign
    const int64_t carry = round && n >= 1 && n <= kBits ? (x >> (n - 1)) & 1 : 0;
    return static_cast<T>(r + carry);
  } else {
    using U = std::make_unsigned_t<T>;
    return n >= kBits ? T{0} : static_cast<T>(static_cast<U>(v) >> n);
  }
}

// A2/A3: amounts in [0, bits] (checked mode).
template <typename T>
void CheckShift(const char* api, const char* name, int64_t n) {
  constexpr int64_t kBits = sizeof(T) * 8;
  if ((n < 0 || n > kBits) && CheckedMode()) {
    RaiseKernelCheck(checks::kShiftAmount, std::string(api) + ": " + name + " is " +
                                               std::to_string(n) + ", which must be in [0, " +
                                               std::to_string(kBits) + "] for this type");
  }
}
// The amount the device takes: negative amounts are undefined there; lngrad shifts by the
// amount as unsigned (at least the width: all bits out).
template <typename T>
uint64_t Amount(T n) {
  return n < T{0} ? UINT64_MAX : static_cast<uint64_t>(n);
}

template <typename T>
auto BinaryBits(Bit op) {
  return [op](T& d, const std::array<T, 2>& s) { d = BitOp(op, s[0], s[1]); };
}
template <typename T>
auto ScalarBits(Bit op, T scalar) {
  return [op, scalar](T& d, const std::array<T, 1>& s) { d = BitOp(op, s[0], scalar); };
}
template <typename T>
auto NotBits() {
  return [](T& d, const std::array<T, 1>& s) {
    d = static_cast<T>(
        static_cast<std::make_unsigned_t<T>>(~static_cast<std::make_unsigned_t<T>>(s[0])));
  };
}
template <typename T>
auto ShiftBy(bool left, T n, bool round) {
  const uint64_t a = Amount(n);
  return [left, a, round](T& d, const std::array<T, 1>& s) {
    d = left ? ShiftLeftOne(s[0], a) : ShiftRightOne(s[0], a, round);
  };
}

// The scalar of a BinaryConfig form: a scalar argument as it is, a LocalTensor's element 0
// (which the instruction reads: recorded, and checked to lie inside the tensor).
template <typename X>
struct IsLocal : std::false_type {};
template <typename T>
struct IsLocal<AscendC::LocalTensor<T>> : std::true_type {};

}  // namespace lngrad::aicore::detail::logic

#define LNGRAD_SRCLOC_ARG lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()

namespace AscendC {

// And, Or: count and mask/repeat forms.
#define LNGRAD_LOGIC_BINARY_MASK(Name, Op, MASK, MASK_FN)                                      \
  template <typename T, bool isSetMask = true>                                                 \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
            MASK, const int32_t repeatTime, const BinaryRepeatParams& repeatParams,            \
            LNGRAD_SRCLOC_ARG) {                                                               \
    namespace l = lngrad::aicore::detail::logic;                                               \
    namespace e = lngrad::aicore::detail::ew;                                                  \
    static_assert(l::kBitType<T>, #Name ": T must be a 2- or 4-byte integer");                 \
    e::Repeat<false, T, T, 2>(#Name, loc, lngrad::aicore::detail::MASK_FN(mask, isSetMask),    \
                              repeatTime, dst, {&src0, &src1}, e::BinaryStrides(repeatParams), \
                              l::BinaryBits<T>(l::Bit::Op));                                   \
  }
#define LNGRAD_LOGIC_BINARY(Name, Op)                                                          \
  template <typename T>                                                                        \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                         \
    namespace l = lngrad::aicore::detail::logic;                                               \
    static_assert(l::kBitType<T>, #Name ": T must be a 2- or 4-byte integer");                 \
    lngrad::aicore::detail::ew::Count<false, T, T, 2>(#Name, loc, count, dst, {&src0, &src1},  \
                                                      l::BinaryBits<T>(l::Bit::Op));           \
  }                                                                                            \
  LNGRAD_LOGIC_BINARY_MASK(Name, Op, const uint64_t mask[], BitsMaskArg)                       \
  LNGRAD_LOGIC_BINARY_MASK(Name, Op, uint64_t mask, LenMaskArg)
LNGRAD_LOGIC_BINARY(And, kAnd)
LNGRAD_LOGIC_BINARY(Or, kOr)
#undef LNGRAD_LOGIC_BINARY
#undef LNGRAD_LOGIC_BINARY_MASK

template <typename T>
void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,
         LNGRAD_SRCLOC_ARG) {
  namespace l = lngrad::aicore::detail::logic;
  static_assert(l::kBitType<T>, "Not: T must be a 2- or 4-byte integer");
  lngrad::aicore::detail::ew::Count<false, T, T, 1>("Not", loc, count, dst, {&src},
                                                    l::NotBits<T>());
}
template <typename T, bool isSetMask = true>
void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
         const int32_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {
  namespace l = lngrad::aicore::detail::logic;
  namespace e = lngrad::aicore::detail::ew;
  static_assert(l::kBitType<T>, "Not: T must be a 2- or 4-byte integer");
  e::Repeat<false, T, T, 1>("Not", loc, lngrad::aicore::detail::BitsMaskArg(mask, isSetMask),
                            repeatTime, dst, {&src}, e::UnaryStrides(repeatParams),
                            l::NotBits<T>());
}
template <typename T, bool isSetMask = true>
void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,
         const int32_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {
  namespace l = lngrad::aicore::detail::logic;
  namespace e = lngrad::aicore::detail::ew;
  static_assert(l::kBitType<T>, "Not: T must be a 2- or 4-byte integer");
  e::Repeat<false, T, T, 1>("Not", loc, lngrad::aicore::detail::LenMaskArg(mask, isSetMask),
                            repeatTime, dst, {&src}, e::UnaryStrides(repeatParams),
                            l::NotBits<T>());
}

}  // namespace AscendC

namespace lngrad::aicore::detail::logic {

template <typename T>
inline constexpr bool kShiftType = std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                                   std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>;

template <typename T>
void ShiftCount(const char* api, SrcLoc loc, bool left, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, T n, int32_t count) {
  static_assert(kShiftType<T>,
                "ShiftLeft/ShiftRight: T must be int16_t, uint16_t, int32_t or "
                "uint32_t");
  CheckShift<T>(api, "scalarValue", static_cast<int64_t>(n));
  ew::Count<false, T, T, 1>(api, loc, count, dst, {&src}, ShiftBy<T>(left, n, false));
}
template <typename T>
void ShiftRepeat(const char* api, SrcLoc loc, bool left, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, T n, const MaskArg& mask, int32_t repeat,
                 const AscendC::UnaryRepeatParams& p, bool round) {
  static_assert(kShiftType<T>,
                "ShiftLeft/ShiftRight: T must be int16_t, uint16_t, int32_t or "
                "uint32_t");
  CheckShift<T>(api, "scalarValue", static_cast<int64_t>(n));
  ew::Repeat<false, T, T, 1>(api, loc, mask, repeat, dst, {&src}, ew::UnaryStrides(p),
                             ShiftBy<T>(left, n, round && std::is_signed_v<T>));
}

// The per-element forms (950): src1[i] is the amount for src0[i]; U has T's size.
template <typename T, typename U>
void ShiftTensor(const char* api, SrcLoc loc, bool left, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<U>& src1,
                 int32_t count) {
  static_assert(kShiftType<T> && std::is_integral_v<U> && sizeof(U) == sizeof(T),
                "ShiftLeft/ShiftRight: T must be a 2- or 4-byte integer, U an integer of T's size");
  const AscendC::LocalTensor<T> amounts = src1.template ReinterpretCast<T>();
  ew::Count<false, T, T, 2>(api, loc, count, dst, {&src0, &amounts},
                            [left](T& d, const std::array<T, 2>& s) {
                              const uint64_t a = Amount(static_cast<U>(s[1]));
                              d = left ? ShiftLeftOne(s[0], a) : ShiftRightOne(s[0], a, false);
                            });
}

}  // namespace lngrad::aicore::detail::logic

namespace AscendC {

// dst = src << scalarValue, >> scalarValue; the scalar of another type U is converted to T.
// A mask form: MASK `const uint64_t mask[]` (MASK_FN BitsMaskArg) or `uint64_t mask`
// (LenMaskArg); the variadic tail is ShiftRight's `, bool roundEn = false`.
#define LNGRAD_SHIFT_MASK(Name, Left, MASK, MASK_FN, ROUND_ARG, ...)                            \
  template <typename T, bool isSetMask = true>                                                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, MASK,   \
            const int32_t repeatTime, const UnaryRepeatParams& repeatParams __VA_ARGS__,        \
            LNGRAD_SRCLOC_ARG) {                                                                \
    namespace d = lngrad::aicore::detail;                                                       \
    d::logic::ShiftRepeat(#Name, loc, Left, dst, src, scalarValue, d::MASK_FN(mask, isSetMask), \
                          repeatTime, repeatParams, ROUND_ARG);                                 \
  }
#define LNGRAD_SHIFT(Name, Left, ROUND_ARG, ...)                                               \
  template <typename T>                                                                        \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,        \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                         \
    lngrad::aicore::detail::logic::ShiftCount(#Name, loc, Left, dst, src, scalarValue, count); \
  }                                                                                            \
  LNGRAD_SHIFT_MASK(Name, Left, const uint64_t mask[], BitsMaskArg, ROUND_ARG, __VA_ARGS__)    \
  LNGRAD_SHIFT_MASK(Name, Left, uint64_t mask, LenMaskArg, ROUND_ARG, __VA_ARGS__)             \
  template <typename T, typename U>                                                            \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1, \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                         \
    lngrad::aicore::detail::logic::ShiftTensor(#Name, loc, Left, dst, src0, src1, count);      \
  }
LNGRAD_SHIFT(ShiftLeft, true, false)
LNGRAD_SHIFT(ShiftRight, false, roundEn, , bool roundEn = false)
#undef LNGRAD_SHIFT
#undef LNGRAD_SHIFT_MASK

}  // namespace AscendC

namespace lngrad::aicore::detail::logic {

// Resolves the (vector, scalar) pair of a BinaryConfig form. The scalar read from a tensor is
// recorded for the sanitizer and must lie in the tensor (checked: kTensorBounds via the count
// form's rules on a one-element operand).
template <typename T, const AscendC::BinaryConfig& config, typename S, typename V>
std::pair<const AscendC::LocalTensor<T>*, T> VectorAndScalar(const char* api, SrcLoc loc,
                                                             const S& src0, const V& src1) {
  constexpr bool kL0 = IsLocal<S>::value;
  constexpr bool kL1 = IsLocal<V>::value;
  static_assert(kL0 || kL1, "one of src0 and src1 must be a LocalTensor (the vector)");
  auto element = [&](const AscendC::LocalTensor<T>& t) {
    CheckVectorOperands(api, 1, {{t.View(), sizeof(T), "scalar tensor"}});
    san::Instr in(Pipe::kV, api, loc);
    if (in) in.Read(t.HostPtr(), sizeof(T));
    return t.HostPtr()[0];
  };
  if constexpr (kL0 && kL1) {
    if constexpr (config.scalarTensorIndex == 0) {
      return {&src1, element(src0)};
    } else {
      return {&src0, element(src1)};
    }
  } else if constexpr (kL0) {
    return {&src0, static_cast<T>(src1)};
  } else {
    return {&src1, static_cast<T>(src0)};
  }
}

template <typename X>
struct ElemOf;
template <typename T>
struct ElemOf<AscendC::LocalTensor<T>> {
  using type = T;
};

}  // namespace lngrad::aicore::detail::logic

namespace AscendC {

// Ands / Ors (950): dst = src | scalar or scalar | src (the same bits), the scalar an argument
// or element 0 of a LocalTensor (config says which LocalTensor when both are). T: the reserved
// BinaryDefaultType.
#define LNGRAD_LOGIC_SCALAR_MASK(Name, Op, MASK, MASK_FN)                                     \
  template <typename T = BinaryDefaultType, bool isSetMask = true,                            \
            const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename U, typename S,       \
            typename V>                                                                       \
  void Name(const U& dst, const S& src0, const V& src1, MASK, const int32_t repeatTime,       \
            const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {                       \
    namespace l = lngrad::aicore::detail::logic;                                              \
    namespace e = lngrad::aicore::detail::ew;                                                 \
    using E = typename l::ElemOf<U>::type;                                                    \
    static_assert(l::kBitType<E>, #Name ": the element type must be a 2- or 4-byte integer"); \
    const auto vs = l::VectorAndScalar<E, config>(#Name, loc, src0, src1);                    \
    e::Repeat<false, E, E, 1>(#Name, loc, lngrad::aicore::detail::MASK_FN(mask, isSetMask),   \
                              repeatTime, dst, {vs.first}, e::UnaryStrides(repeatParams),     \
                              l::ScalarBits<E>(l::Bit::Op, vs.second));                       \
  }
#define LNGRAD_LOGIC_SCALAR(Name, Op)                                                              \
  template <typename T = BinaryDefaultType, bool isSetMask = true,                                 \
            const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename U, typename S,            \
            typename V>                                                                            \
  void Name(const U& dst, const S& src0, const V& src1, const int32_t& count, LNGRAD_SRCLOC_ARG) { \
    namespace l = lngrad::aicore::detail::logic;                                                   \
    using E = typename l::ElemOf<U>::type;                                                         \
    static_assert(l::kBitType<E>, #Name ": the element type must be a 2- or 4-byte integer");      \
    const auto vs = l::VectorAndScalar<E, config>(#Name, loc, src0, src1);                         \
    lngrad::aicore::detail::ew::Count<false, E, E, 1>(#Name, loc, count, dst, {vs.first},          \
                                                      l::ScalarBits<E>(l::Bit::Op, vs.second));    \
  }                                                                                                \
  LNGRAD_LOGIC_SCALAR_MASK(Name, Op, const uint64_t mask[], BitsMaskArg)                           \
  LNGRAD_LOGIC_SCALAR_MASK(Name, Op, uint64_t mask, LenMaskArg)
LNGRAD_LOGIC_SCALAR(Ands, kAnd)
LNGRAD_LOGIC_SCALAR(Ors, kOr)
#undef LNGRAD_LOGIC_SCALAR
#undef LNGRAD_LOGIC_SCALAR_MASK

// Select's BinaryConfig form (950): src1 is element 0 of a LocalTensor (or a scalar), mode
// VSEL_TENSOR_SCALAR_MODE. lngrad models the scalar on the right (scalarTensorIndex 1) only.
template <typename T, typename U, const BinaryConfig& config, typename D, typename S0, typename S1>
void Select(const D& dst, const LocalTensor<U>& selMask, const S0& src0, const S1& src1,
            SELMODE selMode, uint32_t count, LNGRAD_SRCLOC_ARG) {
  namespace l = lngrad::aicore::detail::logic;
  using E = typename l::ElemOf<D>::type;
  static_assert(config.scalarTensorIndex == 1,
                "Select: lngrad models the BinaryConfig form with the scalar on the right");
  static_assert(l::IsLocal<S0>::value, "Select: src0 must be a LocalTensor");
  const auto vs = l::VectorAndScalar<E, config>("Select", loc, src0, src1);
  Select(dst, selMask, *vs.first, vs.second, selMode, count, loc);
}

// Compares' BinaryConfig form (950): the scalar is element 0 of a LocalTensor (config says
// which when both operands are tensors) or a scalar argument, on either side; a scalar on the
// left compares with the mirrored mode (scalar < x is x > scalar).
template <typename T = BinaryDefaultType, bool isSetMask = true,
          const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename U, typename S, typename V>
void Compares(const U& dst, const S& src0, const V& src1, CMPMODE cmpMode, uint32_t count,
              LNGRAD_SRCLOC_ARG) {
  namespace l = lngrad::aicore::detail::logic;
  using E = typename l::ElemOf<std::conditional_t<l::IsLocal<S>::value, S, V>>::type;
  constexpr bool kScalarLeft =
      !l::IsLocal<S>::value || (l::IsLocal<V>::value && config.scalarTensorIndex == 0);
  const auto vs = l::VectorAndScalar<E, config>("Compares", loc, src0, src1);
  CMPMODE mode = cmpMode;
  if constexpr (kScalarLeft) {
    switch (cmpMode) {
      case CMPMODE::LT:
        mode = CMPMODE::GT;
        break;
      case CMPMODE::GT:
        mode = CMPMODE::LT;
        break;
      case CMPMODE::LE:
        mode = CMPMODE::GE;
        break;
      case CMPMODE::GE:
        mode = CMPMODE::LE;
        break;
      default:
        break;
    }
  }
  Compares(dst, *vs.first, vs.second, mode, count, loc);
}

// dst[i] = firstValue + i, i < count (half: the sum rounded to half; int16_t/int32_t wrap).
template <typename T>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint32_t count, LNGRAD_SRCLOC_ARG) {
  namespace d = lngrad::aicore::detail;
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int16_t> ||
                    std::is_same_v<T, int32_t>,
                "CreateVecIndex: T must be half, float, int16_t or int32_t");
  const int32_t c = count > INT32_MAX ? -1 : static_cast<int32_t>(count);
  d::CheckVectorOperands("CreateVecIndex", c, {{dst.View(), sizeof(T), "dst"}});
  d::RestoreMaskAfterCount(d::MaskContext("CreateVecIndex"));
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "CreateVecIndex", loc);
  if (in) in.Write(dst.HostPtr(), uint64_t{count} * sizeof(T));
  T* p = dst.HostPtr();
  for (uint32_t i = 0; i < count; ++i) {
    if constexpr (std::is_integral_v<T>) {
      using UT = std::make_unsigned_t<T>;
      p[i] = static_cast<T>(static_cast<UT>(static_cast<UT>(firstValue) + static_cast<UT>(i)));
    } else {
      p[i] = static_cast<T>(static_cast<float>(firstValue) + static_cast<float>(i));
    }
  }
}

}  // namespace AscendC

#undef LNGRAD_SRCLOC_ARG
