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

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sys.h"
#include "vector_base.h"
#include "vector_cast.h"
#include "cast_dequant.h"

// The kernel-facing forms of one instruction family. They only forward: the behaviour is the
// detail:: drivers'.
#define LNGRAD_SRCLOC_ARG lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()

// The mask/repeat prototypes come in pairs: MASK is `const uint64_t mask[]` (bit-wise; MASK_FN
// BitsMaskArg) or `uint64_t mask` (continuous; MASK_FN LenMaskArg).
// Binary: Name(dst, src0, src1, count) and the two mask/repeat prototypes.
#define LNGRAD_VEC_BINARY_MASK(Name, Op, TypeOk, TypeMsg, MASK, MASK_FN)                         \
  template <typename T, bool isSetMask = true>                                                   \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
            MASK, const int32_t repeatTime, const BinaryRepeatParams& repeatParams,              \
            LNGRAD_SRCLOC_ARG) {                                                                 \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                   \
    lngrad::aicore::detail::BinaryRepeat(lngrad::aicore::BinaryOp::Op, #Name, loc, dst, src0,    \
                                         src1, lngrad::aicore::detail::MASK_FN(mask, isSetMask), \
                                         repeatTime, repeatParams);                              \
  }
#define LNGRAD_VEC_BINARY(Name, Op, TypeOk, TypeMsg)                                            \
  template <typename T>                                                                         \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                          \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                  \
    lngrad::aicore::detail::Binary(lngrad::aicore::BinaryOp::Op, #Name, dst, src0, src1, count, \
                                   loc);                                                        \
  }                                                                                             \
  LNGRAD_VEC_BINARY_MASK(Name, Op, TypeOk, TypeMsg, const uint64_t mask[], BitsMaskArg)         \
  LNGRAD_VEC_BINARY_MASK(Name, Op, TypeOk, TypeMsg, uint64_t mask, LenMaskArg)

// Tensor-scalar: Name(dst, src, scalar, count) and the mask/repeat prototypes, each with the
// vendor's two templates: <T, isSetMask> with a T scalar, and <T, U, isSetMask> (here: any
// scalar type, converted to T first, as the instruction takes a T).
#define LNGRAD_VEC_SCALAR_MASK(Name, Op, TypeOk, TypeMsg, MASK, MASK_FN)                          \
  template <typename T, bool isSetMask = true>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, MASK,     \
            const int32_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) { \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                    \
    lngrad::aicore::detail::ScalarRepeat(                                                         \
        lngrad::aicore::ScalarOp::Op, #Name, loc, dst, src, scalarValue,                          \
        lngrad::aicore::detail::MASK_FN(mask, isSetMask), repeatTime, repeatParams);              \
  }                                                                                               \
  template <typename T, typename U, bool isSetMask = true>                                        \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, MASK,     \
            const int32_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) { \
    Name<T, isSetMask>(dst, src, static_cast<T>(scalarValue), mask, repeatTime, repeatParams,     \
                       loc);                                                                      \
  }
#define LNGRAD_VEC_SCALAR(Name, Op, TypeOk, TypeMsg)                                     \
  template <typename T, bool isSetMask = true>                                           \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,  \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                   \
    static_assert(TypeOk, #Name ": " TypeMsg);                                           \
    namespace d = lngrad::aicore::detail;                                                \
    if constexpr (isSetMask) {                                                           \
      d::Scalar(lngrad::aicore::ScalarOp::Op, #Name, dst, src, scalarValue, count, loc); \
    } else {                                                                             \
      d::ScalarRepeat(lngrad::aicore::ScalarOp::Op, #Name, loc, dst, src, scalarValue,   \
                      d::MaskArg{}, 1, d::DefaultUnaryParams());                         \
    }                                                                                    \
  }                                                                                      \
  template <typename T, typename U, bool isSetMask = true>                               \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,  \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                   \
    Name<T, isSetMask>(dst, src, static_cast<T>(scalarValue), count, loc);               \
  }                                                                                      \
  LNGRAD_VEC_SCALAR_MASK(Name, Op, TypeOk, TypeMsg, const uint64_t mask[], BitsMaskArg)  \
  LNGRAD_VEC_SCALAR_MASK(Name, Op, TypeOk, TypeMsg, uint64_t mask, LenMaskArg)

// Unary: Name(dst, src, count) and the mask/repeat prototypes.
#define LNGRAD_VEC_UNARY_MASK(Name, Op, TypeOk, TypeMsg, MASK, MASK_FN)                           \
  template <typename T, bool isSetMask = true>                                                    \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, MASK, const int32_t repeatTime, \
            const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) {                           \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                    \
    lngrad::aicore::detail::UnaryRepeat(lngrad::aicore::UnaryOp::Op, #Name, loc, dst, src,        \
                                        lngrad::aicore::detail::MASK_FN(mask, isSetMask),         \
                                        repeatTime, repeatParams);                                \
  }
#define LNGRAD_VEC_UNARY(Name, Op, TypeOk, TypeMsg)                                          \
  template <typename T>                                                                      \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,      \
            LNGRAD_SRCLOC_ARG) {                                                             \
    static_assert(TypeOk, #Name ": " TypeMsg);                                               \
    lngrad::aicore::detail::Unary(lngrad::aicore::UnaryOp::Op, #Name, dst, src, count, loc); \
  }                                                                                          \
  LNGRAD_VEC_UNARY_MASK(Name, Op, TypeOk, TypeMsg, const uint64_t mask[], BitsMaskArg)       \
  LNGRAD_VEC_UNARY_MASK(Name, Op, TypeOk, TypeMsg, uint64_t mask, LenMaskArg)

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

// dst[i] = src[0] for i < count, src a LocalTensor (Ascend 950PR/950DT only, checked mode:
// checks::kUnsupportedOnProduct elsewhere): the instruction reads src[0] on PIPE_V.
template <typename T>
void Duplicate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,
               LNGRAD_SRCLOC_ARG) {
  namespace d = lngrad::aicore::detail;
  d::RequireProduct("Duplicate (LocalTensor src)", d::ArchBit::k3510, "Ascend 950PR/950DT", loc);
  d::CheckVectorOperands("Duplicate", count, {{dst.View(), sizeof(T), "dst"}});
  d::CheckVectorOperands("Duplicate", 1, {{src.View(), sizeof(T), "src"}});
  d::RestoreMaskAfterCount(d::MaskContext("Duplicate"));
  T value;
  std::memcpy(&value, src.HostPtr(), sizeof(T));
  const uint64_t n = static_cast<uint32_t>(count);
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "Duplicate", loc);
  if (in) {
    in.Read(src.HostPtr(), sizeof(T));
    in.Write(dst.HostPtr(), n * sizeof(T));
  }
  d::FillRun(dst.HostPtr(), value, n);
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

#undef LNGRAD_VEC_BINARY
#undef LNGRAD_VEC_BINARY_MASK
#undef LNGRAD_VEC_SCALAR
#undef LNGRAD_VEC_SCALAR_MASK
#undef LNGRAD_VEC_UNARY
#undef LNGRAD_VEC_UNARY_MASK
#undef LNGRAD_SRCLOC_ARG
