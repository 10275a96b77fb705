// lngrad Ascend C runtime: the element-wise vector instructions, in their count form
// (Add(dst, a, b, count)) and their mask/repeat forms (Add(dst, a, b, mask, repeatTime,
// repeatParams), mask continuous or bit-wise; mask.h says which elements run): Add, Sub, Mul,
// Div, Max, Min, Adds, Muls, Maxs, Mins, Exp, Ln, Abs, Reciprocal, Sqrt, Rsqrt, Relu,
// Duplicate, Cast and Copy (UB -> UB).
//
// Each element is one IEEE binary32 operation (half: computed in float, rounded once to half,
// which equals the correctly rounded half operation). The arithmetic is the instruction set's
// (instructions.h: scalar loops or Highway SIMD, same bits, chosen by LNGRAD_IMPL), compiled in
// the library without FMA contraction or fast-math, so the bits do not depend on how the kernel
// itself is compiled. Sqrt, Div and Reciprocal are correctly rounded here; Exp, Ln and Rsqrt are
// computed in double and rounded once. The device's "intrinsic" versions may differ by 1 ulp and
// flush subnormals (spec §1.14; the vendor documents Rsqrt's intrinsic as "at most 1 ulp").
// A mask/repeat form runs repeat by repeat, and a run of active elements in increasing order.
//
// Operand rules of the count forms (checked mode): count <= every operand's GetSize(), every
// operand 32-byte aligned in UB, dst and a source either identical or disjoint. count < 0 is
// always an error. Unchecked, partially overlapping operands run element by element in
// increasing order. The mask/repeat forms' rules are mask.h's (CheckRepeatOperands).
//
// Every instruction records its exact reads and writes for the sanitizer (Pipe::kV), after its
// checks: masked-off lanes are neither read nor written.
#pragma once

#include <array>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "bfloat16.h"
#include "check.h"
#include "instructions.h"
#include "mask.h"
#include "sanitizer.h"
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
template <typename T>
inline constexpr bool kIsSignedVecInt = std::is_same_v<T, int32_t> || std::is_same_v<T, int16_t>;

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
T IntOp(BinaryOp op, T x, T y) {
  using U = std::make_unsigned_t<T>;
  const U a = static_cast<U>(x);
  const U b = static_cast<U>(y);
  switch (op) {
    case BinaryOp::kAdd:
      return static_cast<T>(static_cast<U>(a + b));
    case BinaryOp::kSub:
      return static_cast<T>(static_cast<U>(a - b));
    case BinaryOp::kMul:
      return static_cast<T>(static_cast<U>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)));
    case BinaryOp::kMax:
      return x > y ? x : y;
    case BinaryOp::kMin:
      return x < y ? x : y;
    default:
      return T{0};
  }
}
template <typename T>
void IntBinary(BinaryOp op, T* dst, const T* a, const T* b, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) dst[i] = IntOp(op, a[i], b[i]);
}
inline BinaryOp ScalarToBinary(ScalarOp op) {
  switch (op) {
    case ScalarOp::kMuls:
      return BinaryOp::kMul;
    case ScalarOp::kMaxs:
      return BinaryOp::kMax;
    case ScalarOp::kMins:
      return BinaryOp::kMin;
    default:
      return BinaryOp::kAdd;
  }
}

// The arithmetic of one contiguous run (every form ends here).
template <typename T>
void BinaryRun(BinaryOp op, T* dst, const T* a, const T* b, uint64_t n) {
  if constexpr (kIsVecFloat<T>) {
    MakeOps(Impl::kAuto).Binary(op, InstrPtr(dst), InstrPtr(a), InstrPtr(b), n);
  } else {
    IntBinary(op, dst, a, b, n);
  }
}
template <typename T>
void ScalarRun(ScalarOp op, T* dst, const T* a, T s, uint64_t n) {
  if constexpr (kIsVecFloat<T>) {
    MakeOps(Impl::kAuto).Scalar(op, InstrPtr(dst), InstrPtr(a), static_cast<float>(s), n);
  } else {
    // Element by element in increasing order, also when dst overlaps a.
    for (uint64_t i = 0; i < n; ++i) dst[i] = IntOp(ScalarToBinary(op), a[i], s);
  }
}
template <typename T>
void UnaryRun(UnaryOp op, T* dst, const T* a, uint64_t n) {
  if constexpr (kIsVecFloat<T>) {
    MakeOps(Impl::kAuto).Unary(op, InstrPtr(dst), InstrPtr(a), n);
  } else {
    for (uint64_t i = 0; i < n; ++i) dst[i] = a[i] > T{0} ? a[i] : T{0};  // Relu
  }
}
// Checked mode: 1- and 8-byte element types exist on Ascend 950PR/950DT only
// (checks::kVectorType, naming the API and the product).
void RequireWideTypeProduct(const char* api, uint32_t elem_size);

// A fill moves bits: every 4-byte type fills as float, every 2-byte type as half.
template <typename T>
void FillRun(T* dst, T v, uint64_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  const Ops ops = MakeOps(Impl::kAuto);
  if constexpr (sizeof(T) == 1 || sizeof(T) == 8) {
    for (uint64_t i = 0; i < n; ++i) std::memcpy(dst + i, &v, sizeof(T));
  } else if constexpr (sizeof(T) == 4) {
    ops.Fill(reinterpret_cast<float*>(dst), std::bit_cast<float>(v), n);
  } else {
    ops.Fill(reinterpret_cast<Half*>(dst), std::bit_cast<Half>(v), n);
  }
}

// The sanitizer's record of a count form: srcs read, dst written, `bytes` each (the size of
// the element type of that operand times count).
struct CountAccess {
  const void* p;
  uint64_t bytes;
};
inline void RecordCount(san::Instr& in, CountAccess dst, std::initializer_list<CountAccess> srcs) {
  if (!in) return;
  for (const CountAccess& s : srcs) in.Read(s.p, s.bytes);
  in.Write(dst.p, dst.bytes);
}

template <typename T>
void Binary(BinaryOp op, const char* api, const AscendC::LocalTensor<T>& dst,
            const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1, int32_t count,
            SrcLoc loc) {
  CheckVectorOperands(api, count,
                      {{dst.View(), sizeof(T), "dst"},
                       {src0.View(), sizeof(T), "src0"},
                       {src1.View(), sizeof(T), "src1"}});
  RestoreMaskAfterCount(MaskContext(api));
  const uint64_t n = static_cast<uint32_t>(count);
  san::Instr in(Pipe::kV, api, loc);
  RecordCount(in, {dst.HostPtr(), n * sizeof(T)},
              {{src0.HostPtr(), n * sizeof(T)}, {src1.HostPtr(), n * sizeof(T)}});
  BinaryRun(op, dst.HostPtr(), src0.HostPtr(), src1.HostPtr(), n);
}

template <typename T>
void Scalar(ScalarOp op, const char* api, const AscendC::LocalTensor<T>& dst,
            const AscendC::LocalTensor<T>& src, T s, int32_t count, SrcLoc loc) {
  CheckVectorOperands(api, count, {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(T), "src"}});
  RestoreMaskAfterCount(MaskContext(api));
  const uint64_t n = static_cast<uint32_t>(count);
  san::Instr in(Pipe::kV, api, loc);
  RecordCount(in, {dst.HostPtr(), n * sizeof(T)}, {{src.HostPtr(), n * sizeof(T)}});
  ScalarRun(op, dst.HostPtr(), src.HostPtr(), s, n);
}

template <typename T>
void Unary(UnaryOp op, const char* api, const AscendC::LocalTensor<T>& dst,
           const AscendC::LocalTensor<T>& src, int32_t count, SrcLoc loc) {
  CheckVectorOperands(api, count, {{dst.View(), sizeof(T), "dst"}, {src.View(), sizeof(T), "src"}});
  RestoreMaskAfterCount(MaskContext(api));
  const uint64_t n = static_cast<uint32_t>(count);
  san::Instr in(Pipe::kV, api, loc);
  RecordCount(in, {dst.HostPtr(), n * sizeof(T)}, {{src.HostPtr(), n * sizeof(T)}});
  UnaryRun(op, dst.HostPtr(), src.HostPtr(), n);
}

// ---------------------------------------------------------------------------------------------
// Mask/repeat forms: plan (mask.h), checks, then the runs, each recorded for the sanitizer.

template <typename T>
RepeatOperand Operand(const AscendC::LocalTensor<T>& t, uint32_t blk, uint32_t rep,
                      const char* name, const char* blk_name, const char* rep_name,
                      bool is_dst = false) {
  RepeatOperand o;
  o.view = t.View();
  o.elem_size = sizeof(T);
  o.blk_stride = blk;
  o.rep_stride = rep;
  o.name = name;
  o.blk_name = blk_name;
  o.rep_name = rep_name;
  o.is_dst = is_dst;
  return o;
}

// Runs kernel(ptrs, n) over the active runs of `plan` (ops[0] is the destination).
template <size_t N, class K>
void RunPlan(const char* api, SrcLoc loc, const RepeatPlan& plan,
             const std::array<RepeatOperand, N>& ops, bool accumulate_src1, K&& kernel) {
  CheckRepeatOperands(api, plan, ops.data(), N, accumulate_src1);
  san::Instr in(Pipe::kV, api, loc);
  std::array<const RepeatOperand*, N> p{};
  for (size_t i = 0; i < N; ++i) p[i] = &ops[i];
  ForEachRun(plan, p, [&](const std::array<std::byte*, N>& at, uint64_t n) {
    if (in) {
      for (size_t i = 1; i < N; ++i) in.Read(at[i], n * ops[i].elem_size);
      in.Write(at[0], n * ops[0].elem_size);
    }
    kernel(at, n);
  });
}

template <size_t N, class K>
void RunRepeat(const char* api, SrcLoc loc, uint32_t mask_elem_size, const MaskArg& mask,
               int64_t repeat_time, const std::array<RepeatOperand, N>& ops, bool accumulate_src1,
               K&& kernel) {
  const RepeatPlan plan = PlanRepeats(api, mask_elem_size, mask, repeat_time);
  RunPlan(api, loc, plan, ops, accumulate_src1, kernel);
}

template <typename T>
std::array<RepeatOperand, 3> BinaryOperands(const AscendC::LocalTensor<T>& dst,
                                            const AscendC::LocalTensor<T>& src0,
                                            const AscendC::LocalTensor<T>& src1,
                                            const AscendC::BinaryRepeatParams& p) {
  return {
      Operand(dst, p.dstBlkStride, p.dstRepStride, "dst", "dstBlkStride", "dstRepStride", true),
      Operand(src0, p.src0BlkStride, p.src0RepStride, "src0", "src0BlkStride", "src0RepStride"),
      Operand(src1, p.src1BlkStride, p.src1RepStride, "src1", "src1BlkStride", "src1RepStride")};
}
template <typename T, typename U>
std::array<RepeatOperand, 2> UnaryOperands(const AscendC::LocalTensor<T>& dst,
                                           const AscendC::LocalTensor<U>& src,
                                           const AscendC::UnaryRepeatParams& p) {
  return {Operand(dst, p.dstBlkStride, p.dstRepStride, "dst", "dstBlkStride", "dstRepStride", true),
          Operand(src, p.srcBlkStride, p.srcRepStride, "src", "srcBlkStride", "srcRepStride")};
}

template <typename T>
void BinaryRepeat(BinaryOp op, const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                  const MaskArg& mask, int64_t repeat_time, const AscendC::BinaryRepeatParams& p) {
  // The vendor's exception to the overlap rule (通用地址重叠约束): Add, Sub, Mul, Max, Min on
  // half, float and int32 may accumulate into src1.
  constexpr bool kAccType =
      std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>;
  const bool acc = kAccType && op != BinaryOp::kDiv;
  RunRepeat(api, loc, sizeof(T), mask, repeat_time, BinaryOperands(dst, src0, src1, p), acc,
            [op](const std::array<std::byte*, 3>& at, uint64_t n) {
              BinaryRun(op, reinterpret_cast<T*>(at[0]), reinterpret_cast<const T*>(at[1]),
                        reinterpret_cast<const T*>(at[2]), n);
            });
}

template <typename T>
void ScalarRepeat(ScalarOp op, const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, T s, const MaskArg& mask, int64_t repeat_time,
                  const AscendC::UnaryRepeatParams& p) {
  RunRepeat(api, loc, sizeof(T), mask, repeat_time, UnaryOperands(dst, src, p), false,
            [op, s](const std::array<std::byte*, 2>& at, uint64_t n) {
              ScalarRun(op, reinterpret_cast<T*>(at[0]), reinterpret_cast<const T*>(at[1]), s, n);
            });
}

template <typename T>
void UnaryRepeat(UnaryOp op, const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const MaskArg& mask, int64_t repeat_time,
                 const AscendC::UnaryRepeatParams& p) {
  RunRepeat(api, loc, sizeof(T), mask, repeat_time, UnaryOperands(dst, src, p), false,
            [op](const std::array<std::byte*, 2>& at, uint64_t n) {
              UnaryRun(op, reinterpret_cast<T*>(at[0]), reinterpret_cast<const T*>(at[1]), n);
            });
}

// A count form with isSetMask = false: one repeat with the default strides under the mask
// register as it is (the vendor's Level 2 implementation); count is not read.
inline AscendC::UnaryRepeatParams DefaultUnaryParams() { return {}; }

}  // namespace lngrad::aicore::detail

// The kernel-facing forms of one instruction family. They only forward: the behaviour is the
// detail:: drivers'.
#define LNGRAD_SRCLOC_ARG lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()

// Binary: Name(dst, src0, src1, count) and the two mask/repeat prototypes.
#define LNGRAD_VEC_BINARY(Name, Op, TypeOk, TypeMsg)                                            \
  template <typename T>                                                                         \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                          \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                  \
    lngrad::aicore::detail::Binary(lngrad::aicore::BinaryOp::Op, #Name, dst, src0, src1, count, \
                                   loc);                                                        \
  }                                                                                             \
  template <typename T, bool isSetMask = true>                                                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            const uint64_t mask[], const int32_t repeatTime,                                    \
            const BinaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {                        \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                  \
    lngrad::aicore::detail::BinaryRepeat(                                                       \
        lngrad::aicore::BinaryOp::Op, #Name, loc, dst, src0, src1,                              \
        lngrad::aicore::detail::BitsMaskArg(mask, isSetMask), repeatTime, repeatParams);        \
  }                                                                                             \
  template <typename T, bool isSetMask = true>                                                  \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            uint64_t mask, const int32_t repeatTime, const BinaryRepeatParams& repeatParams,    \
            LNGRAD_SRCLOC_ARG) {                                                                \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                  \
    lngrad::aicore::detail::BinaryRepeat(                                                       \
        lngrad::aicore::BinaryOp::Op, #Name, loc, dst, src0, src1,                              \
        lngrad::aicore::detail::LenMaskArg(mask, isSetMask), repeatTime, repeatParams);         \
  }

// Tensor-scalar: Name(dst, src, scalar, count) and the mask/repeat prototypes, each with the
// vendor's two templates: <T, isSetMask> with a T scalar, and <T, U, isSetMask> (here: any
// scalar type, converted to T first, as the instruction takes a T).
#define LNGRAD_VEC_SCALAR(Name, Op, TypeOk, TypeMsg)                                          \
  template <typename T, bool isSetMask = true>                                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,       \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                        \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                \
    namespace d = lngrad::aicore::detail;                                                     \
    if constexpr (isSetMask) {                                                                \
      d::Scalar(lngrad::aicore::ScalarOp::Op, #Name, dst, src, scalarValue, count, loc);      \
    } else {                                                                                  \
      d::ScalarRepeat(lngrad::aicore::ScalarOp::Op, #Name, loc, dst, src, scalarValue,        \
                      d::MaskArg{}, 1, d::DefaultUnaryParams());                              \
    }                                                                                         \
  }                                                                                           \
  template <typename T, typename U, bool isSetMask = true>                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,       \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                        \
    Name<T, isSetMask>(dst, src, static_cast<T>(scalarValue), count, loc);                    \
  }                                                                                           \
  template <typename T, bool isSetMask = true>                                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,       \
            const uint64_t mask[], const int32_t repeatTime,                                  \
            const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {                       \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                \
    lngrad::aicore::detail::ScalarRepeat(                                                     \
        lngrad::aicore::ScalarOp::Op, #Name, loc, dst, src, scalarValue,                      \
        lngrad::aicore::detail::BitsMaskArg(mask, isSetMask), repeatTime, repeatParams);      \
  }                                                                                           \
  template <typename T, typename U, bool isSetMask = true>                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,       \
            const uint64_t mask[], const int32_t repeatTime,                                  \
            const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {                       \
    Name<T, isSetMask>(dst, src, static_cast<T>(scalarValue), mask, repeatTime, repeatParams, \
                       loc);                                                                  \
  }                                                                                           \
  template <typename T, bool isSetMask = true>                                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,       \
            uint64_t mask, const int32_t repeatTime, const UnaryRepeatParams& repeatParams,   \
            LNGRAD_SRCLOC_ARG) {                                                              \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                \
    lngrad::aicore::detail::ScalarRepeat(                                                     \
        lngrad::aicore::ScalarOp::Op, #Name, loc, dst, src, scalarValue,                      \
        lngrad::aicore::detail::LenMaskArg(mask, isSetMask), repeatTime, repeatParams);       \
  }                                                                                           \
  template <typename T, typename U, bool isSetMask = true>                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,       \
            uint64_t mask, const int32_t repeatTime, const UnaryRepeatParams& repeatParams,   \
            LNGRAD_SRCLOC_ARG) {                                                              \
    Name<T, isSetMask>(dst, src, static_cast<T>(scalarValue), mask, repeatTime, repeatParams, \
                       loc);                                                                  \
  }

// Unary: Name(dst, src, count) and the mask/repeat prototypes.
#define LNGRAD_VEC_UNARY(Name, Op, TypeOk, TypeMsg)                                               \
  template <typename T>                                                                           \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,           \
            LNGRAD_SRCLOC_ARG) {                                                                  \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                    \
    lngrad::aicore::detail::Unary(lngrad::aicore::UnaryOp::Op, #Name, dst, src, count, loc);      \
  }                                                                                               \
  template <typename T, bool isSetMask = true>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],          \
            const int32_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) { \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                    \
    lngrad::aicore::detail::UnaryRepeat(lngrad::aicore::UnaryOp::Op, #Name, loc, dst, src,        \
                                        lngrad::aicore::detail::BitsMaskArg(mask, isSetMask),     \
                                        repeatTime, repeatParams);                                \
  }                                                                                               \
  template <typename T, bool isSetMask = true>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,                  \
            const int32_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) { \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                    \
    lngrad::aicore::detail::UnaryRepeat(lngrad::aicore::UnaryOp::Op, #Name, loc, dst, src,        \
                                        lngrad::aicore::detail::LenMaskArg(mask, isSetMask),      \
                                        repeatTime, repeatParams);                                \
  }

namespace AscendC {

namespace vec_types {
template <typename T>
inline constexpr bool kArith =
    lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsVecInt<T>;
template <typename T>
inline constexpr bool kFloat = lngrad::aicore::detail::kIsVecFloat<T>;
template <typename T>
inline constexpr bool kMinMax =
    lngrad::aicore::detail::kIsVecFloat<T> || lngrad::aicore::detail::kIsSignedVecInt<T>;
template <typename T>
inline constexpr bool kRelu = kFloat<T> || std::is_same_v<T, int32_t>;
}  // namespace vec_types

// dst = src0 + src1, - , *, / (IEEE, correctly rounded), max, min. Add/Sub/Mul: half, float,
// int16_t, int32_t (and the unsigned twins, wrapping); Div: half, float; Max/Min: half, float,
// int16_t, int32_t. The repeatTime parameter is int32_t here (the vendor's uint8_t) so that
// checked mode can report a value above 255 instead of the device's silent wrap.
LNGRAD_VEC_BINARY(Add, kAdd, vec_types::kArith<T>, "unsupported type")
LNGRAD_VEC_BINARY(Sub, kSub, vec_types::kArith<T>, "unsupported type")
LNGRAD_VEC_BINARY(Mul, kMul, vec_types::kArith<T>, "unsupported type")
LNGRAD_VEC_BINARY(Div, kDiv, vec_types::kFloat<T>, "T must be half or float")
LNGRAD_VEC_BINARY(Max, kMax, vec_types::kMinMax<T>, "T must be half, float, int16_t or int32_t")
LNGRAD_VEC_BINARY(Min, kMin, vec_types::kMinMax<T>, "T must be half, float, int16_t or int32_t")

// dst = src + scalar, * scalar, max(src, scalar), min(src, scalar); the scalar is first
// converted to T (as the instruction takes a T). Adds/Muls: the Add types; Maxs/Mins: half,
// float, int16_t, int32_t.
LNGRAD_VEC_SCALAR(Adds, kAdds, vec_types::kArith<T>, "unsupported type")
LNGRAD_VEC_SCALAR(Muls, kMuls, vec_types::kArith<T>, "unsupported type")
LNGRAD_VEC_SCALAR(Maxs, kMaxs, vec_types::kMinMax<T>, "T must be half, float, int16_t or int32_t")
LNGRAD_VEC_SCALAR(Mins, kMins, vec_types::kMinMax<T>, "T must be half, float, int16_t or int32_t")

// Sqrt, Reciprocal (correctly rounded), Exp, Ln, Rsqrt (double, rounded once), Abs (sign
// cleared), Relu (x > 0 ? x : +0): half, float; Relu also int32_t.
LNGRAD_VEC_UNARY(Sqrt, kSqrt, vec_types::kFloat<T>, "T must be half or float")
LNGRAD_VEC_UNARY(Reciprocal, kRecip, vec_types::kFloat<T>, "T must be half or float")
LNGRAD_VEC_UNARY(Exp, kExp, vec_types::kFloat<T>, "T must be half or float")
LNGRAD_VEC_UNARY(Ln, kLn, vec_types::kFloat<T>, "T must be half or float")
LNGRAD_VEC_UNARY(Rsqrt, kRsqrt, vec_types::kFloat<T>, "T must be half or float")
LNGRAD_VEC_UNARY(Abs, kAbs, vec_types::kFloat<T>, "T must be half or float")
LNGRAD_VEC_UNARY(Relu, kRelu, vec_types::kRelu<T>, "T must be half, float or int32_t")

// dst[i] = scalar for i < count; the scalar is first converted to T. T: any 2- or 4-byte type;
// 1- and 8-byte types (int8_t, uint8_t, int64_t, uint64_t, ...) on Ascend 950PR/950DT only, as
// the vendor documents (checked mode: checks::kVectorType on another product).
template <typename T, typename U>
void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, const int32_t& count,
               LNGRAD_SRCLOC_ARG) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "Duplicate: T must be a 1-, 2-, 4- or 8-byte type");
  namespace d = lngrad::aicore::detail;
  if constexpr (sizeof(T) == 1 || sizeof(T) == 8) d::RequireWideTypeProduct("Duplicate", sizeof(T));
  d::CheckVectorOperands("Duplicate", count, {{dst.View(), sizeof(T), "dst"}});
  d::RestoreMaskAfterCount(d::MaskContext("Duplicate"));
  const uint64_t n = static_cast<uint32_t>(count);
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "Duplicate", loc);
  if (in) in.Write(dst.HostPtr(), n * sizeof(T));
  d::FillRun(dst.HostPtr(), static_cast<T>(scalarValue), n);
}

// The mask/repeat forms: dstBlockStride, dstRepeatStride in 32-byte blocks.
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const uint64_t mask[],
               const int32_t repeatTime, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride, LNGRAD_SRCLOC_ARG);
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask,
               const int32_t repeatTime, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride, LNGRAD_SRCLOC_ARG);

// UB -> UB copy (mask/repeat form), strides in 32-byte blocks. (The vendor declares it in its
// data-copy structures.)
struct CopyRepeatParams {
  CopyRepeatParams() {}
  CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                   uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = 1;
  uint16_t srcStride = 1;
  uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
  uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC

namespace lngrad::aicore::detail {

template <typename T>
void DuplicateRepeat(SrcLoc loc, const AscendC::LocalTensor<T>& dst, T v, const MaskArg& mask,
                     int64_t repeat_time, uint32_t blk, uint32_t rep) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Duplicate: T must be a 2- or 4-byte type");
  const std::array<RepeatOperand, 1> ops{
      Operand(dst, blk, rep, "dst", "dstBlockStride", "dstRepeatStride", true)};
  RunRepeat("Duplicate", loc, sizeof(T), mask, repeat_time, ops, false,
            [v](const std::array<std::byte*, 1>& at, uint64_t n) {
              FillRun(reinterpret_cast<T*>(at[0]), v, n);
            });
}

// Copy's Counter mode differs from the other instructions' (the Copy documentation): the count
// is the number of elements of each repeat, which may span more than 8 blocks
// (ceil(count * sizeof(T) / 32) blocks at the block stride), and repeatTime counts.
template <typename T>
void CopyRepeat(SrcLoc loc, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const MaskArg& mask, int64_t repeat_time, const AscendC::CopyRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy: T must be a 2- or 4-byte type");
  RepeatPlan plan = PlanRepeats("Copy", sizeof(T), mask, repeat_time);
  if (plan.counter) {
    const uint64_t per = plan.count < UINT32_MAX ? plan.count : UINT32_MAX;
    plan.lanes = static_cast<uint32_t>(per);
    plan.repeats = per == 0 ? 0 : static_cast<uint32_t>(static_cast<uint64_t>(repeat_time) & 0xFFu);
    plan.count = per * plan.repeats;  // every position of every repeat
  }
  const std::array<RepeatOperand, 2> ops{
      Operand(dst, p.dstStride, p.dstRepeatSize, "dst", "dstStride", "dstRepeatSize", true),
      Operand(src, p.srcStride, p.srcRepeatSize, "src", "srcStride", "srcRepeatSize")};
  RunPlan("Copy", loc, plan, ops, false, [](const std::array<std::byte*, 2>& at, uint64_t n) {
    // Element by element in increasing order: a copy onto an overlapping source (unchecked)
    // sees what the earlier elements wrote.
    T* d = reinterpret_cast<T*>(at[0]);
    const T* s = reinterpret_cast<const T*>(at[1]);
    for (uint64_t i = 0; i < n; ++i) d[i] = s[i];
  });
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

template <typename T, bool isSetMask>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const uint64_t mask[],
               const int32_t repeatTime, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride, lngrad::aicore::SrcLoc loc) {
  namespace d = lngrad::aicore::detail;
  d::DuplicateRepeat(loc, dst, scalarValue, d::BitsMaskArg(mask, isSetMask), repeatTime,
                     dstBlockStride, dstRepeatStride);
}
template <typename T, bool isSetMask>
void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask,
               const int32_t repeatTime, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride, lngrad::aicore::SrcLoc loc) {
  namespace d = lngrad::aicore::detail;
  d::DuplicateRepeat(loc, dst, scalarValue, d::LenMaskArg(mask, isSetMask), repeatTime,
                     dstBlockStride, dstRepeatStride);
}

// dst = src, UB -> UB, with the mask/repeat semantics (Copy's own Counter mode: the count is
// per repeat). T: any 2- or 4-byte type.
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
          const int32_t repeatTime, const CopyRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {
  namespace d = lngrad::aicore::detail;
  d::CopyRepeat(loc, dst, src, d::BitsMaskArg(mask, isSetMask), repeatTime, repeatParams);
}
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
          const int32_t repeatTime, const CopyRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {
  namespace d = lngrad::aicore::detail;
  d::CopyRepeat(loc, dst, src, d::LenMaskArg(mask, isSetMask), repeatTime, repeatParams);
}

}  // namespace AscendC

namespace lngrad::aicore::detail {

// ---------------------------------------------------------------------------------------------
// Cast: every pair of the vendor's tables (Atlas A2/A3, 950, 200I/500 A2, inference AI Core,
// training series) among half, float, bfloat16_t, int4b_t, int8/uint8, int16/uint16, int32/uint32
// and int64. The pair is a compile-time choice; whether the running product has it, and with
// which round modes, is checked at run time in checked mode (vector_ops.cpp holds the tables).

enum class CastType : uint8_t {
  kHalf,
  kFloat,
  kBf16,
  kInt4,
  kInt8,
  kUint8,
  kInt16,
  kUint16,
  kInt32,
  kUint32,
  kInt64,
  kNone
};
template <typename T>
constexpr CastType CastTypeOf() {
  using V = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<V, half>) return CastType::kHalf;
  if constexpr (std::is_same_v<V, float>) return CastType::kFloat;
  if constexpr (std::is_same_v<V, bfloat16_t>) return CastType::kBf16;
  if constexpr (std::is_same_v<V, AscendC::int4b_t>) return CastType::kInt4;
  if constexpr (std::is_same_v<V, int8_t>) return CastType::kInt8;
  if constexpr (std::is_same_v<V, uint8_t>) return CastType::kUint8;
  if constexpr (std::is_same_v<V, int16_t>) return CastType::kInt16;
  if constexpr (std::is_same_v<V, uint16_t>) return CastType::kUint16;
  if constexpr (std::is_same_v<V, int32_t>) return CastType::kInt32;
  if constexpr (std::is_same_v<V, uint32_t>) return CastType::kUint32;
  if constexpr (std::is_same_v<V, int64_t>) return CastType::kInt64;
  return CastType::kNone;
}
const char* CastTypeName(CastType t) noexcept;

// How one Cast runs on the running product.
struct CastCtx {
  AscendC::RoundMode mode;
  bool saturate;     // the block's overflow mode (ctrl.h FloatSaturation)
  double deq_scale;  // int32 -> half: the DEQSCALE register's half (1 where the product has none)
};
// True when some product of the vendor's tables has the pair (the compile-time rule).
bool CastPairExists(CastType src, CastType dst) noexcept;
// Checked mode: the running product has the pair (checks::kCastPair) and roundMode is one the
// table lists for it (checks::kCastRoundMode). Returns the context for the run either way.
CastCtx PrepareCast(CastType src, CastType dst, AscendC::RoundMode mode);

template <typename T>
inline constexpr bool kCastFloatLike =
    std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t>;
template <typename T>
inline constexpr bool kCastExactInFloat =
    kCastFloatLike<T> || std::is_same_v<T, AscendC::int4b_t> || std::is_same_v<T, int8_t> ||
    std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>;

// Element i of a run (int4b_t: nibble i % 2 of byte i / 2, low nibble first).
template <typename U>
U LoadElem(const std::byte* p, uint64_t i) {
  if constexpr (std::is_same_v<U, AscendC::int4b_t>) {
    const uint8_t b = static_cast<uint8_t>(p[i / 2]);
    return AscendC::int4b_t(static_cast<int32_t>((i % 2) != 0 ? b >> 4 : b & 0xF));
  } else {
    U v;
    std::memcpy(&v, p + i * sizeof(U), sizeof(U));
    return v;
  }
}
template <typename T>
void StoreElem(std::byte* p, uint64_t i, T v) {
  if constexpr (std::is_same_v<T, AscendC::int4b_t>) {
    const uint8_t b = static_cast<uint8_t>(p[i / 2]);
    const uint8_t nib = v.storage & 0xFu;
    p[i / 2] = static_cast<std::byte>((i % 2) != 0 ? (b & 0x0Fu) | (nib << 4) : (b & 0xF0u) | nib);
  } else {
    std::memcpy(p + i * sizeof(T), &v, sizeof(T));
  }
}

template <typename T>
T SaturateFloat(T r, bool saturate) {
  // Saturation mode: an infinite result becomes the largest finite value of its sign, NaN +0.
  if (!saturate) return r;
  const float f = static_cast<float>(r);
  if (std::isnan(f)) return T(0.0f);
  if (std::isinf(f))
    return f > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
  return r;
}

// One element U -> T.
template <typename T, typename U>
T CastElem(U v, const CastCtx& c) {
  using AscendC::RoundMode;
  if constexpr (std::is_same_v<T, half>) {
    if constexpr (std::is_same_v<U, int32_t>) {
      // The product of the integer and the DEQSCALE half, rounded once to nearest even
      // [inference: the documentation does not say how the hardware rounds].
      return SaturateFloat(half(static_cast<double>(v) * c.deq_scale), c.saturate);
    } else {
      return SaturateFloat(FloatToHalf(static_cast<float>(v), c.mode), c.saturate);
    }
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return SaturateFloat(bfloat16_t::FromBits(FloatToBf16Bits(static_cast<float>(v), c.mode)),
                         c.saturate);
  } else if constexpr (std::is_same_v<T, float>) {
    float r;
    if constexpr (std::is_same_v<U, float>) {
      r = RoundToIntegral(v, c.mode);
    } else if constexpr (std::is_same_v<U, int32_t>) {
      r = Int32ToFloat(v, c.mode);
    } else if constexpr (std::is_same_v<U, int64_t>) {
      r = Int64ToFloat(v, c.mode);
    } else {
      r = static_cast<float>(v);  // exact
    }
    return SaturateFloat(r, c.saturate);
  } else {
    // An integer destination saturates to its range in either overflow mode.
    using Lim = std::conditional_t<std::is_same_v<T, AscendC::int4b_t>, int8_t, T>;
    const int64_t lo =
        std::is_same_v<T, AscendC::int4b_t> ? -8 : int64_t{std::numeric_limits<Lim>::min()};
    const int64_t hi = std::is_same_v<T, AscendC::int4b_t>
                           ? 7
                           : static_cast<int64_t>(std::min<uint64_t>(
                                 std::numeric_limits<Lim>::max(), uint64_t{INT64_MAX}));
    int64_t r;
    if constexpr (kCastExactInFloat<U>) {
      r = FloatToIntSat(static_cast<float>(v), c.mode, lo, hi);
    } else {
      const int64_t x = static_cast<int64_t>(v);
      r = x < lo ? lo : (x > hi ? hi : x);
    }
    if constexpr (std::is_same_v<T, AscendC::int4b_t>) {
      return AscendC::int4b_t(static_cast<int32_t>(r));
    } else {
      return static_cast<T>(r);
    }
  }
}

// Saturation mode after the bulk half <-> float conversions.
void SaturateHalfRun(Half* d, uint64_t n);
void SaturateFloatRun(float* d, uint64_t n);

// One contiguous run of n elements.
template <typename T, typename U>
void CastRun(std::byte* dst, const std::byte* src, uint64_t n, const CastCtx& c) {
  const Ops ops = MakeOps(Impl::kAuto);
  if constexpr (std::is_same_v<T, float> && std::is_same_v<U, half>) {
    float* d = reinterpret_cast<float*>(dst);
    ops.CastHalfToFloat(d, reinterpret_cast<const Half*>(src), n);
    if (c.saturate) SaturateFloatRun(d, n);
  } else if constexpr (std::is_same_v<T, half> && std::is_same_v<U, float>) {
    Half* d = reinterpret_cast<Half*>(dst);
    ops.CastFloatToHalf(d, reinterpret_cast<const float*>(src), n, c.mode);
    if (c.saturate) SaturateHalfRun(d, n);
  } else {
    for (uint64_t i = 0; i < n; ++i) StoreElem<T>(dst, i, CastElem<T, U>(LoadElem<U>(src, i), c));
  }
}

template <typename T, typename U>
CastCtx PrepareCastOf(AscendC::RoundMode mode) {
  static_assert(CastTypeOf<T>() != CastType::kNone && CastTypeOf<U>() != CastType::kNone,
                "Cast: unsupported element type");
  static_assert(!std::is_same_v<T, AscendC::int4b_t> || !std::is_same_v<U, AscendC::int4b_t>);
  return PrepareCast(CastTypeOf<U>(), CastTypeOf<T>(), mode);
}

// int4b_t runs by byte pairs: the count, the continuous mask and the bit-wise mask must keep the
// two nibbles of a byte together (the vendor's rule; checks::kCastInt4 in checked mode).
void CheckInt4Count(uint64_t count);
RepeatPlan PairPlan(const RepeatPlan& plan);

}  // namespace lngrad::aicore::detail

namespace AscendC {

// Element type conversion U -> T in roundMode, for the pairs of the vendor's Cast tables
// (docs/ascendc_compat.md, "Cast"). Checked mode rejects a pair the running product lacks
// (cast_pair) and a round mode its table does not list (cast_round_mode); int32_t -> half
// ignores roundMode and scales by SetDeqScale's value. To an integer: rounded, then saturated,
// NaN -> 0. To half, bfloat16_t or float: rounded as named; in the saturation mode (the default,
// AscendCUtils::SetOverflow) an infinite result becomes +-max and NaN +0, in the inf/NaN mode
// they pass through.
template <typename T, typename U>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode,
          const uint32_t count, LNGRAD_SRCLOC_ARG) {
  namespace d = lngrad::aicore::detail;
  constexpr bool kInt4 = std::is_same_v<T, int4b_t> || std::is_same_v<U, int4b_t>;
  const int64_t n = count;
  if constexpr (kInt4) d::CheckInt4Count(count);
  // int4b_t: checked in byte pairs (one byte against two elements of the other type).
  const int64_t units = kInt4 ? n / 2 : n;
  constexpr uint32_t kDstUnit =
      kInt4 ? (std::is_same_v<T, int4b_t> ? 1 : 2 * sizeof(T)) : sizeof(T);
  constexpr uint32_t kSrcUnit =
      kInt4 ? (std::is_same_v<U, int4b_t> ? 1 : 2 * sizeof(U)) : sizeof(U);
  d::CheckVectorOperands("Cast", units > INT32_MAX ? -1 : units,
                         {{dst.View(), kDstUnit, "dst"}, {src.View(), kSrcUnit, "src"}});
  const d::CastCtx ctx = d::PrepareCastOf<T, U>(round_mode);
  d::RestoreMaskAfterCount(d::MaskContext("Cast"));
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "Cast", loc);
  d::RecordCount(in, {dst.HostPtr(), lngrad::aicore::ElemBytes<T>(count)},
                 {{src.HostPtr(), lngrad::aicore::ElemBytes<U>(count)}});
  d::CastRun<T, U>(reinterpret_cast<std::byte*>(dst.HostPtr()),
                   reinterpret_cast<const std::byte*>(src.HostPtr()), count, ctx);
}

// The mask/repeat forms: the mask counts elements of the wider type (256 / max(sizeof) per
// repeat), the strides are each operand's own.
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
          const uint64_t mask[], const int32_t repeatTime, const UnaryRepeatParams& repeatParams,
          LNGRAD_SRCLOC_ARG);
template <typename T, typename U, bool isSetMask = true>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
          const uint64_t mask, const int32_t repeatTime, const UnaryRepeatParams& repeatParams,
          LNGRAD_SRCLOC_ARG);

}  // namespace AscendC

namespace lngrad::aicore::detail {

template <typename T, typename U>
void CastRepeat(SrcLoc loc, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                AscendC::RoundMode mode, const MaskArg& mask, int64_t repeat_time,
                const AscendC::UnaryRepeatParams& p) {
  const CastCtx ctx = PrepareCastOf<T, U>(mode);
  constexpr uint32_t kMaskSize = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
  const RepeatPlan plan = PlanRepeats("Cast", kMaskSize, mask, repeat_time);
  std::array<RepeatOperand, 2> ops = UnaryOperands(dst, src, p);
  constexpr bool kInt4 = std::is_same_v<T, AscendC::int4b_t> || std::is_same_v<U, AscendC::int4b_t>;
  if constexpr (kInt4) {
    // Byte pairs: one int4b_t byte against two elements of the other operand.
    ops[0].elem_size = std::is_same_v<T, AscendC::int4b_t> ? 1 : 2 * sizeof(T);
    ops[1].elem_size = std::is_same_v<U, AscendC::int4b_t> ? 1 : 2 * sizeof(U);
    RunPlan("Cast", loc, PairPlan(plan), ops, false,
            [&ctx](const std::array<std::byte*, 2>& at, uint64_t n) {
              CastRun<T, U>(at[0], at[1], 2 * n, ctx);
            });
  } else {
    RunPlan("Cast", loc, plan, ops, false, [&ctx](const std::array<std::byte*, 2>& at, uint64_t n) {
      CastRun<T, U>(at[0], at[1], n, ctx);
    });
  }
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

template <typename T, typename U, bool isSetMask>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
          const uint64_t mask[], const int32_t repeatTime, const UnaryRepeatParams& repeatParams,
          lngrad::aicore::SrcLoc loc) {
  namespace d = lngrad::aicore::detail;
  d::CastRepeat(loc, dst, src, roundMode, d::BitsMaskArg(mask, isSetMask), repeatTime,
                repeatParams);
}
template <typename T, typename U, bool isSetMask>
void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
          const uint64_t mask, const int32_t repeatTime, const UnaryRepeatParams& repeatParams,
          lngrad::aicore::SrcLoc loc) {
  namespace d = lngrad::aicore::detail;
  d::CastRepeat(loc, dst, src, roundMode, d::LenMaskArg(mask, isSetMask), repeatTime, repeatParams);
}

}  // namespace AscendC

#undef LNGRAD_VEC_BINARY
#undef LNGRAD_VEC_SCALAR
#undef LNGRAD_VEC_UNARY
#undef LNGRAD_SRCLOC_ARG
