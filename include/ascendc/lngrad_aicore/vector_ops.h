// lngrad Ascend C runtime: count-based vector instructions (Add, Sub, Mul, Div, Adds, Muls, Sqrt,
// Duplicate, Cast).
//
// Each element is one IEEE binary32 operation (half: computed in float, rounded once to half,
// which equals the correctly rounded half operation). The float arithmetic runs inside the
// lngrad_ascendc library, compiled without FMA contraction or fast-math, so the bits do not
// depend on how the kernel itself is compiled. Sqrt and Div are correctly rounded here; the
// device's "intrinsic" Div/Sqrt may differ by 1 ulp and flush subnormals (spec §1.14).
//
// Operand rules (checked mode): count <= every operand's GetSize(), every operand 32-byte aligned
// in UB, dst and a source either identical or disjoint. count < 0 is always an error.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "check.h"
#include "tensor.h"

namespace AscendC {

enum class RoundMode : uint8_t {
  CAST_NONE = 0,  // the type pair's default: exact widening, RNE narrowing
  CAST_RINT,      // round to nearest, ties to even
  CAST_FLOOR,     // toward -inf
  CAST_CEIL,      // toward +inf
  CAST_ROUND,     // to nearest, ties away from zero
  CAST_TRUNC,     // toward zero
  CAST_ODD,       // to odd (von Neumann)
};

}  // namespace AscendC

namespace lngrad::aicore::detail {

enum class VecOp : uint8_t { kAdd, kSub, kMul, kDiv, kSqrt };
const char* VecOpName(VecOp op) noexcept;

struct VecOperand {
  TensorView view;
  uint32_t elem_size;
  const char* name;
};
// Applies the operand rules above; operands[0] is the destination.
void CheckVectorOperands(const char* api, int64_t count, std::initializer_list<VecOperand> operands);

// The arithmetic, compiled in the library with strict IEEE float semantics.
void VecBinary(VecOp op, float* dst, const float* a, const float* b, uint32_t n);
void VecBinary(VecOp op, half* dst, const half* a, const half* b, uint32_t n);
void VecScalar(VecOp op, float* dst, const float* a, float s, uint32_t n);
void VecScalar(VecOp op, half* dst, const half* a, half s, uint32_t n);
void VecUnary(VecOp op, float* dst, const float* a, uint32_t n);
void VecUnary(VecOp op, half* dst, const half* a, uint32_t n);
void VecCast(float* dst, const half* src, uint32_t n);
void VecCast(half* dst, const float* src, AscendC::RoundMode mode, uint32_t n);
// One float -> half conversion in the given mode (exposed for tests and other layers).
half FloatToHalf(float f, AscendC::RoundMode mode) noexcept;
const char* RoundModeName(AscendC::RoundMode mode) noexcept;

template <typename T>
inline constexpr bool kIsVecFloat = std::is_same_v<T, float> || std::is_same_v<T, half>;
template <typename T>
inline constexpr bool kIsVecInt = std::is_same_v<T, int32_t> || std::is_same_v<T, int16_t> ||
                                  std::is_same_v<T, uint32_t> || std::is_same_v<T, uint16_t>;

// Integer lanes wrap modulo 2^bits like the hardware; computed unsigned to stay defined in C++.
template <typename T>
void IntBinary(VecOp op, T* dst, const T* a, const T* b, uint32_t n) {
  using U = std::make_unsigned_t<T>;
  for (uint32_t i = 0; i < n; ++i) {
    const U x = static_cast<U>(a[i]);
    const U y = static_cast<U>(b[i]);
    U r = 0;
    switch (op) {
      case VecOp::kAdd: r = static_cast<U>(x + y); break;
      case VecOp::kSub: r = static_cast<U>(x - y); break;
      case VecOp::kMul: r = static_cast<U>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)); break;
      default: break;
    }
    dst[i] = static_cast<T>(r);
  }
}

template <typename T>
void Binary(VecOp op, const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
            const AscendC::LocalTensor<T>& src1, int32_t count) {
  CheckVectorOperands(api, count,
                      {{dst.View(), sizeof(T), "dst"}, {src0.View(), sizeof(T), "src0"}, {src1.View(), sizeof(T), "src1"}});
  const uint32_t n = static_cast<uint32_t>(count);
  if constexpr (kIsVecFloat<T>) {
    VecBinary(op, dst.HostPtr(), src0.HostPtr(), src1.HostPtr(), n);
  } else {
    IntBinary(op, dst.HostPtr(), src0.HostPtr(), src1.HostPtr(), n);
  }
}

template <typename T>
void Scalar(VecOp op, const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, T s,
            int32_t count) {
  CheckVectorOperands(api, count, {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(T), "src"}});
  const uint32_t n = static_cast<uint32_t>(count);
  if constexpr (kIsVecFloat<T>) {
    VecScalar(op, dst.HostPtr(), src.HostPtr(), s, n);
  } else {
    T* d = dst.HostPtr();
    const T* a = src.HostPtr();
    for (uint32_t i = 0; i < n; ++i) IntBinary(op, d + i, a + i, &s, 1);
  }
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

// dst[i] = src0[i] + src1[i], i < count. T: half, float, int16_t, int32_t (and unsigned twins).
template <typename T>
void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>, "Add: unsupported type");
  lngrad::aicore::detail::Binary(lngrad::aicore::detail::VecOp::kAdd, "Add", dst, src0, src1, count);
}

// dst[i] = src0[i] - src1[i].
template <typename T>
void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>, "Sub: unsupported type");
  lngrad::aicore::detail::Binary(lngrad::aicore::detail::VecOp::kSub, "Sub", dst, src0, src1, count);
}

// dst[i] = src0[i] * src1[i].
template <typename T>
void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>, "Mul: unsupported type");
  lngrad::aicore::detail::Binary(lngrad::aicore::detail::VecOp::kMul, "Mul", dst, src0, src1, count);
}

// dst[i] = src0[i] / src1[i] (IEEE, correctly rounded). T: half, float.
template <typename T>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T>, "Div: T must be half or float");
  lngrad::aicore::detail::Binary(lngrad::aicore::detail::VecOp::kDiv, "Div", dst, src0, src1, count);
}

// dst[i] = src[i] + scalar; the scalar is first converted to T (as the instruction takes a T).
template <typename T, typename U, bool isSetMask = true>
void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>, "Adds: unsupported type");
  lngrad::aicore::detail::Scalar(lngrad::aicore::detail::VecOp::kAdd, "Adds", dst, src, static_cast<T>(scalarValue),
                                 count);
}

// dst[i] = src[i] * scalar; the scalar is first converted to T.
template <typename T, typename U, bool isSetMask = true>
void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>, "Muls: unsupported type");
  lngrad::aicore::detail::Scalar(lngrad::aicore::detail::VecOp::kMul, "Muls", dst, src, static_cast<T>(scalarValue),
                                 count);
}

// dst[i] = sqrt(src[i]) (IEEE, correctly rounded). T: half, float.
template <typename T>
void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T>, "Sqrt: T must be half or float");
  lngrad::aicore::detail::CheckVectorOperands("Sqrt", count, {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(T), "src"}});
  lngrad::aicore::detail::VecUnary(lngrad::aicore::detail::VecOp::kSqrt, dst.HostPtr(), src.HostPtr(),
                                   static_cast<uint32_t>(count));
}

// dst[i] = scalar for i < count; the scalar is first converted to T. T: any 2- or 4-byte type.
template <typename T, typename U>
void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, const int32_t& count) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Duplicate: T must be a 2- or 4-byte type");
  lngrad::aicore::detail::CheckVectorOperands("Duplicate", count, {{dst.View(), sizeof(T), "dst"}});
  const T v = static_cast<T>(scalarValue);
  T* d = dst.HostPtr();
  for (int32_t i = 0; i < count; ++i) d[i] = v;
}

// Element type conversion. Supported: half -> float (exact; CAST_NONE), float -> half (CAST_NONE
// and CAST_RINT round to nearest even; FLOOR, CEIL, ROUND, TRUNC, ODD as named), and the
// identity copy for T == U. Overflow gives +-inf in the nearest modes (IEEE), the largest finite
// value in the directed modes that round toward zero.
template <typename T, typename U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const uint32_t count) {
  namespace d = lngrad::aicore::detail;
  constexpr bool kHalfToFloat = std::is_same_v<T, float> && std::is_same_v<U, half>;
  constexpr bool kFloatToHalf = std::is_same_v<T, half> && std::is_same_v<U, float>;
  static_assert(kHalfToFloat || kFloatToHalf, "Cast: lngrad emulates half<->float only");
  const int64_t n = count;
  d::CheckVectorOperands("Cast", n > INT32_MAX ? -1 : n, {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(U), "src"}});
  if constexpr (kHalfToFloat) {
    if (round_mode != RoundMode::CAST_NONE && lngrad::aicore::CheckedMode()) {
      lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kCastRoundMode,
                                       std::string("Cast half->float: round mode ") + d::RoundModeName(round_mode) +
                                           " is not defined for a widening cast; use RoundMode::CAST_NONE");
    }
    d::VecCast(dst.HostPtr(), src.HostPtr(), count);
  } else {
    d::VecCast(dst.HostPtr(), src.HostPtr(), round_mode, count);
  }
}

}  // namespace AscendC
