// lngrad Ascend C runtime: count-based vector instructions (Add, Sub, Mul, Div, Adds, Muls, Sqrt,
// Duplicate, Cast).
//
// Each element is one IEEE binary32 operation (half: computed in float, rounded once to half,
// which equals the correctly rounded half operation). The arithmetic is the instruction set's
// (instructions.h: scalar loops or Highway SIMD, same bits, chosen by LNGRAD_IMPL), compiled in
// the library without FMA contraction or fast-math, so the bits do not depend on how the kernel
// itself is compiled. Sqrt and Div are correctly rounded here; the device's "intrinsic" Div/Sqrt
// may differ by 1 ulp and flush subnormals (spec §1.14).
//
// Operand rules (checked mode): count <= every operand's GetSize(), every operand 32-byte aligned
// in UB, dst and a source either identical or disjoint. count < 0 is always an error. Unchecked,
// partially overlapping operands run element by element in increasing order.
#pragma once

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "check.h"
#include "instructions.h"
#include "mask.h"
#include "tensor.h"

namespace lngrad::aicore::detail {

struct VecOperand {
  TensorView view;
  uint32_t elem_size;
  const char* name;
};
// Applies the operand rules above; operands[0] is the destination.
void CheckVectorOperands(const char* api, int64_t count,
                         std::initializer_list<VecOperand> operands);

template <typename T>
inline constexpr bool kIsVecFloat = std::is_same_v<T, float> || std::is_same_v<T, half>;
template <typename T>
inline constexpr bool kIsVecInt = std::is_same_v<T, int32_t> || std::is_same_v<T, int16_t> ||
                                  std::is_same_v<T, uint32_t> || std::is_same_v<T, uint16_t>;

static_assert(sizeof(half) == sizeof(Half) && alignof(half) == alignof(Half));
// The instruction set's view of kernel operands: `half` and lngrad::Half share the binary16
// storage.
inline Half* AsHalf(half* p) { return reinterpret_cast<Half*>(p); }
inline const Half* AsHalf(const half* p) { return reinterpret_cast<const Half*>(p); }
template <typename T>
auto InstrPtr(T* p) {
  if constexpr (std::is_same_v<std::remove_const_t<T>, half>) {
    return AsHalf(p);
  } else {
    return p;
  }
}

// One float -> half conversion in the given mode (the instruction set's FloatToHalf, as `half`).
inline half FloatToHalf(float f, AscendC::RoundMode mode) noexcept {
  return half::FromBits(lngrad::aicore::FloatToHalf(f, mode).bits);
}
using lngrad::aicore::RoundModeName;

// Integer lanes wrap modulo 2^bits like the hardware; computed unsigned to stay defined in C++.
template <typename T>
void IntBinary(BinaryOp op, T* dst, const T* a, const T* b, uint32_t n) {
  using U = std::make_unsigned_t<T>;
  for (uint32_t i = 0; i < n; ++i) {
    const U x = static_cast<U>(a[i]);
    const U y = static_cast<U>(b[i]);
    U r = 0;
    switch (op) {
      case BinaryOp::kAdd:
        r = static_cast<U>(x + y);
        break;
      case BinaryOp::kSub:
        r = static_cast<U>(x - y);
        break;
      case BinaryOp::kMul:
        r = static_cast<U>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
        break;
      default:
        break;
    }
    dst[i] = static_cast<T>(r);
  }
}

template <typename T>
void Binary(BinaryOp op, const char* api, const AscendC::LocalTensor<T>& dst,
            const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
            int32_t count) {
  CheckVectorOperands(api, count,
                      {{dst.View(), sizeof(T), "dst"},
                       {src0.View(), sizeof(T), "src0"},
                       {src1.View(), sizeof(T), "src1"}});
  const uint32_t n = static_cast<uint32_t>(count);
  if constexpr (kIsVecFloat<T>) {
    MakeOps(Impl::kAuto)
        .Binary(op, InstrPtr(dst.HostPtr()), InstrPtr(src0.HostPtr()), InstrPtr(src1.HostPtr()), n);
  } else {
    IntBinary(op, dst.HostPtr(), src0.HostPtr(), src1.HostPtr(), n);
  }
}

// op: kAdds or kMuls (the integer lanes know these two).
template <typename T>
void Scalar(ScalarOp op, const char* api, const AscendC::LocalTensor<T>& dst,
            const AscendC::LocalTensor<T>& src, T s, int32_t count) {
  CheckVectorOperands(api, count, {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(T), "src"}});
  const uint32_t n = static_cast<uint32_t>(count);
  if constexpr (kIsVecFloat<T>) {
    MakeOps(Impl::kAuto)
        .Scalar(op, InstrPtr(dst.HostPtr()), InstrPtr(src.HostPtr()), static_cast<float>(s), n);
  } else {
    T* d = dst.HostPtr();
    const T* a = src.HostPtr();
    const BinaryOp bop = op == ScalarOp::kMuls ? BinaryOp::kMul : BinaryOp::kAdd;
    for (uint32_t i = 0; i < n; ++i) IntBinary(bop, d + i, a + i, &s, 1);
  }
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

// dst[i] = src0[i] + src1[i], i < count. T: half, float, int16_t, int32_t (and unsigned twins).
template <typename T>
void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>,
                "Add: unsupported type");
  lngrad::aicore::detail::Binary(lngrad::aicore::BinaryOp::kAdd, "Add", dst, src0, src1, count);
}

// dst[i] = src0[i] - src1[i].
template <typename T>
void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>,
                "Sub: unsupported type");
  lngrad::aicore::detail::Binary(lngrad::aicore::BinaryOp::kSub, "Sub", dst, src0, src1, count);
}

// dst[i] = src0[i] * src1[i].
template <typename T>
void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>,
                "Mul: unsupported type");
  lngrad::aicore::detail::Binary(lngrad::aicore::BinaryOp::kMul, "Mul", dst, src0, src1, count);
}

// dst[i] = src0[i] / src1[i] (IEEE, correctly rounded). T: half, float.
template <typename T>
void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T>, "Div: T must be half or float");
  lngrad::aicore::detail::Binary(lngrad::aicore::BinaryOp::kDiv, "Div", dst, src0, src1, count);
}

// dst[i] = src[i] + scalar; the scalar is first converted to T (as the instruction takes a T).
template <typename T, typename U, bool isSetMask = true>
void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,
          const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>,
                "Adds: unsupported type");
  lngrad::aicore::detail::Scalar(lngrad::aicore::ScalarOp::kAdds, "Adds", dst, src,
                                 static_cast<T>(scalarValue), count);
}

// dst[i] = src[i] * scalar; the scalar is first converted to T.
template <typename T, typename U, bool isSetMask = true>
void Muls(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,
          const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>,
                "Muls: unsupported type");
  lngrad::aicore::detail::Scalar(lngrad::aicore::ScalarOp::kMuls, "Muls", dst, src,
                                 static_cast<T>(scalarValue), count);
}

// dst[i] = sqrt(src[i]) (IEEE, correctly rounded). T: half, float.
template <typename T>
void Sqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {
  static_assert(lngrad::aicore::detail::kIsVecFloat<T>, "Sqrt: T must be half or float");
  lngrad::aicore::detail::CheckVectorOperands(
      "Sqrt", count, {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(T), "src"}});
  namespace d = lngrad::aicore::detail;
  lngrad::aicore::MakeOps(lngrad::aicore::Impl::kAuto)
      .Unary(lngrad::aicore::UnaryOp::kSqrt, d::InstrPtr(dst.HostPtr()), d::InstrPtr(src.HostPtr()),
             static_cast<uint32_t>(count));
}

// dst[i] = scalar for i < count; the scalar is first converted to T. T: any 2- or 4-byte type.
template <typename T, typename U>
void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, const int32_t& count) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Duplicate: T must be a 2- or 4-byte type");
  lngrad::aicore::detail::CheckVectorOperands("Duplicate", count, {{dst.View(), sizeof(T), "dst"}});
  static_assert(std::is_trivially_copyable_v<T>);
  // A fill moves bits: every 4-byte type fills as float, every 2-byte type as half.
  const T v = static_cast<T>(scalarValue);
  const lngrad::aicore::Ops ops = lngrad::aicore::MakeOps(lngrad::aicore::Impl::kAuto);
  if constexpr (sizeof(T) == 4) {
    ops.Fill(reinterpret_cast<float*>(dst.HostPtr()), std::bit_cast<float>(v),
             static_cast<uint32_t>(count));
  } else {
    ops.Fill(reinterpret_cast<lngrad::Half*>(dst.HostPtr()), std::bit_cast<lngrad::Half>(v),
             static_cast<uint32_t>(count));
  }
}

// Element type conversion. Supported: half -> float (exact; CAST_NONE), float -> half (CAST_NONE
// and CAST_RINT round to nearest even; FLOOR, CEIL, ROUND, TRUNC, ODD as named), and the
// identity copy for T == U. Overflow gives +-inf in the nearest modes (IEEE), the largest finite
// value in the directed modes that round toward zero.
template <typename T, typename U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode,
          const uint32_t count) {
  namespace d = lngrad::aicore::detail;
  constexpr bool kHalfToFloat = std::is_same_v<T, float> && std::is_same_v<U, half>;
  constexpr bool kFloatToHalf = std::is_same_v<T, half> && std::is_same_v<U, float>;
  static_assert(kHalfToFloat || kFloatToHalf, "Cast: lngrad emulates half<->float only");
  const int64_t n = count;
  d::CheckVectorOperands("Cast", n > INT32_MAX ? -1 : n,
                         {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(U), "src"}});
  if constexpr (kHalfToFloat) {
    if (round_mode != RoundMode::CAST_NONE && lngrad::aicore::CheckedMode()) {
      lngrad::aicore::RaiseKernelCheck(
          lngrad::aicore::checks::kCastRoundMode,
          std::string("Cast half->float: round mode ") + lngrad::aicore::RoundModeName(round_mode) +
              " is not defined for a widening cast; use RoundMode::CAST_NONE");
    }
    lngrad::aicore::MakeOps(lngrad::aicore::Impl::kAuto)
        .CastHalfToFloat(dst.HostPtr(), d::AsHalf(src.HostPtr()), count);
  } else {
    lngrad::aicore::MakeOps(lngrad::aicore::Impl::kAuto)
        .CastFloatToHalf(d::AsHalf(dst.HostPtr()), src.HostPtr(), count, round_mode);
  }
}

}  // namespace AscendC
