// lngrad Ascend C runtime: the compound element-wise instructions of the basic API (复合计算)
// and LeakyRelu, in their count and mask/repeat forms: AddRelu, SubRelu, AddReluCast,
// SubReluCast, MulAddDst, FusedMulAdd, MulAddRelu, Axpy, LeakyRelu.
//
// Semantics (vendor docs, Atlas A2/A3 type tables):
//   AddRelu / SubRelu     dst = max(src0 +- src1, 0)          int16_t, half, float
//   AddReluCast / ...Cast dst = Cast(max(src0 +- src1, 0))    float->half, half->int8_t,
//                                                             int16_t->int8_t
//   MulAddDst             dst = src0 * src1 + dst             half, float, half->float
//   FusedMulAdd           dst = src0 * dst + src1             half, float
//   MulAddRelu            dst = max(src0 * dst + src1, 0)     half, float
//   Axpy                  dst = scalar * src + dst            half, float, half->float
//   LeakyRelu             dst = src >= 0 ? src : scalar * src half, float
// The arithmetic is float (half and int16 widened exactly), each step rounded to float like the
// separate instructions (no fused multiply-add), the result rounded once to the destination
// type: round to nearest even for half; to int8_t round to nearest even and saturate to
// [0, 127] (the Relu leaves no negatives). int16_t AddRelu/SubRelu wrap modulo 2^16 before the
// Relu, as Add/Sub do. The docs do not say how the device rounds the intermediate product of
// the half forms; here the product is exact in float and only the sum rounds.
//
// The mask counts elements of the wider operand type (256 / max(sizeof) per repeat), each
// operand keeps its own strides; the operand rules are vector_ops.h's (count forms) and mask.h's
// (repeat forms). Instructions that read dst (MulAddDst, FusedMulAdd, MulAddRelu, Axpy) record
// that read for the sanitizer and take part in the overlap rules as a source.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "mask.h"
#include "sanitizer.h"
#include "vector_ops.h"

namespace lngrad::aicore::detail::ew {

// One element of a source as float (half and integers widened exactly).
template <typename T>
float Wide(T v) {
  return static_cast<float>(v);
}
// A float result into T: half round to nearest even, int8_t/int16_t round to nearest even and
// saturate.
template <typename T>
T Narrow(float v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, float>) {
    return static_cast<T>(v);
  } else {
    static_assert(std::is_integral_v<T>);
    if (v != v) return T{0};
    const float r = std::nearbyint(v);
    const float lo = static_cast<float>(std::numeric_limits<T>::min());
    const float hi = static_cast<float>(std::numeric_limits<T>::max());
    return static_cast<T>(std::clamp(r, lo, hi));
  }
}
inline float ReluF(float x) { return x > 0.0f ? x : 0.0f; }

// A count form over NS sources of type S and a destination of type D: checks (vector_ops.h's
// rules), the mask register left full, the sanitizer record, then f(d, s) element by element
// in increasing order (d: the destination element, s: the NS source values). kReadsDst: the
// instruction also reads dst.
template <bool kReadsDst, typename D, typename S, size_t NS, class F>
void Count(const char* api, SrcLoc loc, int64_t count, const AscendC::LocalTensor<D>& dst,
           const std::array<const AscendC::LocalTensor<S>*, NS>& srcs, F&& f) {
  static_assert(NS == 1 || NS == 2);
  const int32_t c = count > INT32_MAX ? -1 : static_cast<int32_t>(count);
  if constexpr (NS == 1) {
    CheckVectorOperands(api, c,
                        {{dst.View(), sizeof(D), "dst"}, {srcs[0]->View(), sizeof(S), "src"}});
  } else {
    CheckVectorOperands(api, c,
                        {{dst.View(), sizeof(D), "dst"},
                         {srcs[0]->View(), sizeof(S), "src0"},
                         {srcs[1]->View(), sizeof(S), "src1"}});
  }
  RestoreMaskAfterCount(MaskContext(api));
  const uint64_t n = static_cast<uint32_t>(c);
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    for (const auto* s : srcs) in.Read(s->HostPtr(), n * sizeof(S));
    if (kReadsDst) in.Read(dst.HostPtr(), n * sizeof(D));
    in.Write(dst.HostPtr(), n * sizeof(D));
  }
  D* d = dst.HostPtr();
  for (uint64_t i = 0; i < n; ++i) {
    std::array<S, NS> v;
    for (size_t k = 0; k < NS; ++k) v[k] = srcs[k]->HostPtr()[i];
    f(d[i], v);
  }
}

// The strides of one operand of a repeat form.
struct Strides {
  uint32_t blk;
  uint32_t rep;
  const char* name;
  const char* blk_name;
  const char* rep_name;
};
inline std::array<Strides, 3> BinaryStrides(const AscendC::BinaryRepeatParams& p) {
  return {{{p.dstBlkStride, p.dstRepStride, "dst", "dstBlkStride", "dstRepStride"},
           {p.src0BlkStride, p.src0RepStride, "src0", "src0BlkStride", "src0RepStride"},
           {p.src1BlkStride, p.src1RepStride, "src1", "src1BlkStride", "src1RepStride"}}};
}
inline std::array<Strides, 2> UnaryStrides(const AscendC::UnaryRepeatParams& p) {
  return {{{p.dstBlkStride, p.dstRepStride, "dst", "dstBlkStride", "dstRepStride"},
           {p.srcBlkStride, p.srcRepStride, "src", "srcBlkStride", "srcRepStride"}}};
}

// A mask/repeat form of the same shape: st[0] the destination's strides, st[1 + k] source k's.
// A destination that is read is a further source operand with the destination's strides, so
// that the overlap rules and the sanitizer see the read.
template <bool kReadsDst, typename D, typename S, size_t NS, class F>
void Repeat(const char* api, SrcLoc loc, const MaskArg& mask, int64_t repeat_time,
            const AscendC::LocalTensor<D>& dst,
            const std::array<const AscendC::LocalTensor<S>*, NS>& srcs,
            const std::array<Strides, NS + 1>& st, F&& f) {
  constexpr size_t kN = NS + 1 + (kReadsDst ? 1 : 0);
  std::array<RepeatOperand, kN> ops;
  ops[0] = Operand(dst, st[0].blk, st[0].rep, st[0].name, st[0].blk_name, st[0].rep_name, true);
  for (size_t k = 0; k < NS; ++k) {
    const Strides& s = st[k + 1];
    ops[k + 1] = Operand(*srcs[k], s.blk, s.rep, s.name, s.blk_name, s.rep_name);
  }
  if constexpr (kReadsDst) {
    ops[NS + 1] = Operand(dst, st[0].blk, st[0].rep, "dst", st[0].blk_name, st[0].rep_name);
  }
  constexpr uint32_t kMaskSize = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
  RunRepeat(api, loc, kMaskSize, mask, repeat_time, ops, false,
            [&f](const std::array<std::byte*, kN>& at, uint64_t n) {
              D* d = reinterpret_cast<D*>(at[0]);
              for (uint64_t i = 0; i < n; ++i) {
                std::array<S, NS> v;
                for (size_t k = 0; k < NS; ++k) v[k] = reinterpret_cast<const S*>(at[k + 1])[i];
                f(d[i], v);
              }
            });
}

// The element functions. The Relu of a sum or difference: integers wrap first (as Add/Sub
// do), then the result is rounded to D (int16_t -> int8_t saturates).
template <typename D, typename S, BinaryOp kOp>
inline constexpr auto ReluOf = [](D& d, const std::array<S, 2>& s) {
  if constexpr (std::is_integral_v<S>) {
    const S r = IntOp(kOp, s[0], s[1]);
    d = Narrow<D>(static_cast<float>(r > 0 ? r : S{0}));
  } else {
    const float a = Wide(s[0]), b = Wide(s[1]);
    d = Narrow<D>(ReluF(kOp == BinaryOp::kAdd ? a + b : a - b));
  }
};
template <typename D, typename S>
inline constexpr auto AddRelu = ReluOf<D, S, BinaryOp::kAdd>;
template <typename D, typename S>
inline constexpr auto SubRelu = ReluOf<D, S, BinaryOp::kSub>;
template <typename D, typename S>
inline constexpr auto AddReluCast = ReluOf<D, S, BinaryOp::kAdd>;
template <typename D, typename S>
inline constexpr auto SubReluCast = ReluOf<D, S, BinaryOp::kSub>;
template <typename D, typename S>
inline constexpr auto MulAddDst =
    [](D& d, const std::array<S, 2>& s) { d = Narrow<D>(Wide(s[0]) * Wide(s[1]) + Wide(d)); };
template <typename T>
auto FusedMulAdd(bool relu) {
  return [relu](T& d, const std::array<T, 2>& s) {
    const float r = Wide(s[0]) * Wide(d) + Wide(s[1]);
    d = Narrow<T>(relu ? ReluF(r) : r);
  };
}
template <typename D, typename S>
auto Axpy(S a) {
  return [a](D& d, const std::array<S, 1>& s) { d = Narrow<D>(Wide(a) * Wide(s[0]) + Wide(d)); };
}
template <typename T>
auto LeakyRelu(T a) {
  return [a](T& d, const std::array<T, 1>& s) {
    const float x = Wide(s[0]);
    d = Narrow<T>(x >= 0.0f ? x : Wide(a) * x);
  };
}

template <typename D, typename S>
inline constexpr bool kReluCastPair = (std::is_same_v<S, float> && std::is_same_v<D, half>) ||
                                      (std::is_same_v<S, half> && std::is_same_v<D, int8_t>) ||
                                      (std::is_same_v<S, int16_t> && std::is_same_v<D, int8_t>);
template <typename T>
inline constexpr bool kReluType =
    std::is_same_v<T, int16_t> || std::is_same_v<T, half> || std::is_same_v<T, float>;
template <typename D, typename S>
inline constexpr bool kMulAddPair = (std::is_same_v<D, S> && kIsVecFloat<S>) ||
                                    (std::is_same_v<S, half> && std::is_same_v<D, float>);

}  // namespace lngrad::aicore::detail::ew

#define LNGRAD_SRCLOC_ARG lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()

// The three forms of a two-source instruction with destination type D and source type S:
// count, bit-wise mask, continuous mask. Elem: the ew:: element function; ReadsDst: bool.
// A mask form: MASK `const uint64_t mask[]` (MASK_FN BitsMaskArg) or `uint64_t mask` (LenMaskArg);
// the variadic tail is the template parameters (TParams, which may hold commas).
#define LNGRAD_EW_BINARY_MASK(Name, D, S, TypeOk, TypeMsg, ReadsDst, MASK, MASK_FN, ...)          \
  template <__VA_ARGS__, bool isSetMask = true>                                                   \
  void Name(const LocalTensor<D>& dst, const LocalTensor<S>& src0, const LocalTensor<S>& src1,    \
            MASK, const int32_t repeatTime, const BinaryRepeatParams& repeatParams,               \
            LNGRAD_SRCLOC_ARG) {                                                                  \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                    \
    namespace e = lngrad::aicore::detail::ew;                                                     \
    e::Repeat<ReadsDst, D, S, 2>(#Name, loc, lngrad::aicore::detail::MASK_FN(mask, isSetMask),    \
                                 repeatTime, dst, {&src0, &src1}, e::BinaryStrides(repeatParams), \
                                 e::Name<D, S>);                                                  \
  }
#define LNGRAD_EW_BINARY(Name, TParams, D, S, TypeOk, TypeMsg, ReadsDst, CountT)                   \
  template <TParams>                                                                               \
  void Name(const LocalTensor<D>& dst, const LocalTensor<S>& src0, const LocalTensor<S>& src1,     \
            const CountT count, LNGRAD_SRCLOC_ARG) {                                               \
    static_assert(TypeOk, #Name ": " TypeMsg);                                                     \
    namespace e = lngrad::aicore::detail::ew;                                                      \
    e::Count<ReadsDst, D, S, 2>(#Name, loc, static_cast<int64_t>(count), dst, {&src0, &src1},      \
                                e::Name<D, S>);                                                    \
  }                                                                                                \
  LNGRAD_EW_BINARY_MASK(Name, D, S, TypeOk, TypeMsg, ReadsDst, const uint64_t mask[], BitsMaskArg, \
                        TParams)                                                                   \
  LNGRAD_EW_BINARY_MASK(Name, D, S, TypeOk, TypeMsg, ReadsDst, uint64_t mask, LenMaskArg, TParams)

#define LNGRAD_EW_COMMA ,

namespace AscendC {

// dst = max(src0 + src1, 0), max(src0 - src1, 0): int16_t, half, float.
LNGRAD_EW_BINARY(AddRelu, typename T, T, T, lngrad::aicore::detail::ew::kReluType<T>,
                 "T must be int16_t, half or float", false, int32_t&)
LNGRAD_EW_BINARY(SubRelu, typename T, T, T, lngrad::aicore::detail::ew::kReluType<T>,
                 "T must be int16_t, half or float", false, int32_t&)
// dst = Cast(max(src0 +- src1, 0)): float -> half, half -> int8_t, int16_t -> int8_t.
LNGRAD_EW_BINARY(AddReluCast, typename T LNGRAD_EW_COMMA typename U, T, U,
                 (lngrad::aicore::detail::ew::kReluCastPair<T, U>),
                 "(U, T) must be (float, half), (half, int8_t) or (int16_t, int8_t)", false,
                 uint32_t)
LNGRAD_EW_BINARY(SubReluCast, typename T LNGRAD_EW_COMMA typename U, T, U,
                 (lngrad::aicore::detail::ew::kReluCastPair<T, U>),
                 "(U, T) must be (float, half), (half, int8_t) or (int16_t, int8_t)", false,
                 uint32_t)
// dst = src0 * src1 + dst: half, float, half -> float.
LNGRAD_EW_BINARY(MulAddDst, typename T LNGRAD_EW_COMMA typename U, T, U,
                 (lngrad::aicore::detail::ew::kMulAddPair<T, U>),
                 "(U, T) must be (half, half), (float, float) or (half, float)", true, int32_t&)

// dst = src0 * dst + src1 (FusedMulAdd), max(src0 * dst + src1, 0) (MulAddRelu): half, float.
#define LNGRAD_EW_FMA_MASK(Name, Relu, MASK, MASK_FN)                                          \
  template <typename T, bool isSetMask = true>                                                 \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
            MASK, const int32_t repeatTime, const BinaryRepeatParams& repeatParams,            \
            LNGRAD_SRCLOC_ARG) {                                                               \
    static_assert(lngrad::aicore::detail::kIsVecFloat<T>, #Name ": T must be half or float");  \
    namespace e = lngrad::aicore::detail::ew;                                                  \
    e::Repeat<true, T, T, 2>(#Name, loc, lngrad::aicore::detail::MASK_FN(mask, isSetMask),     \
                             repeatTime, dst, {&src0, &src1}, e::BinaryStrides(repeatParams),  \
                             e::FusedMulAdd<T>(Relu));                                         \
  }
#define LNGRAD_EW_FMA(Name, Relu)                                                              \
  template <typename T>                                                                        \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
            const int32_t& count, LNGRAD_SRCLOC_ARG) {                                         \
    static_assert(lngrad::aicore::detail::kIsVecFloat<T>, #Name ": T must be half or float");  \
    namespace e = lngrad::aicore::detail::ew;                                                  \
    e::Count<true, T, T, 2>(#Name, loc, count, dst, {&src0, &src1}, e::FusedMulAdd<T>(Relu));  \
  }                                                                                            \
  LNGRAD_EW_FMA_MASK(Name, Relu, const uint64_t mask[], BitsMaskArg)                           \
  LNGRAD_EW_FMA_MASK(Name, Relu, uint64_t mask, LenMaskArg)
LNGRAD_EW_FMA(FusedMulAdd, false)
LNGRAD_EW_FMA(MulAddRelu, true)

// dst = scalar * src + dst: (src, scalar, dst) = half, float, or half/half/float. The scalar
// is converted to U first.
template <typename T, typename U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
          const int32_t& count, LNGRAD_SRCLOC_ARG) {
  namespace e = lngrad::aicore::detail::ew;
  static_assert(e::kMulAddPair<T, U>,
                "Axpy: (U, T) must be (half, half), (float, float) or "
                "(half, float)");
  e::Count<true, T, U, 1>("Axpy", loc, count, dst, {&src}, e::Axpy<T, U>(scalarValue));
}
#define LNGRAD_EW_AXPY_MASK(MASK, MASK_FN)                                                        \
  template <typename T, typename U, bool isSetMask = true>                                        \
  void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, MASK,     \
            const int32_t repeatTime, const UnaryRepeatParams& repeatParams, LNGRAD_SRCLOC_ARG) { \
    namespace e = lngrad::aicore::detail::ew;                                                     \
    static_assert(e::kMulAddPair<T, U>,                                                           \
                  "Axpy: (U, T) must be (half, half), (float, float) or "                         \
                  "(half, float)");                                                               \
    e::Repeat<true, T, U, 1>("Axpy", loc, lngrad::aicore::detail::MASK_FN(mask, isSetMask),       \
                             repeatTime, dst, {&src}, e::UnaryStrides(repeatParams),              \
                             e::Axpy<T, U>(scalarValue));                                         \
  }
LNGRAD_EW_AXPY_MASK(const uint64_t mask[], BitsMaskArg)
LNGRAD_EW_AXPY_MASK(uint64_t mask, LenMaskArg)

// dst = src >= 0 ? src : scalar * src: half, float. isSetMask = false on the count form: one
// repeat under the mask register as it is (count not read), as for Adds.
template <typename T, bool isSetMask = true>
void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
               const int32_t& count, LNGRAD_SRCLOC_ARG) {
  namespace d = lngrad::aicore::detail;
  static_assert(d::kIsVecFloat<T>, "LeakyRelu: T must be half or float");
  if constexpr (isSetMask) {
    d::ew::Count<false, T, T, 1>("LeakyRelu", loc, count, dst, {&src},
                                 d::ew::LeakyRelu<T>(scalarValue));
  } else {
    d::ew::Repeat<false, T, T, 1>("LeakyRelu", loc, d::MaskArg{}, 1, dst, {&src},
                                  d::ew::UnaryStrides(d::DefaultUnaryParams()),
                                  d::ew::LeakyRelu<T>(scalarValue));
  }
}
#define LNGRAD_EW_LEAKY_RELU_MASK(MASK, MASK_FN)                                                   \
  template <typename T, bool isSetMask = true>                                                     \
  void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, MASK, \
                 const int32_t repeatTime, const UnaryRepeatParams& repeatParams,                  \
                 LNGRAD_SRCLOC_ARG) {                                                              \
    namespace d = lngrad::aicore::detail;                                                          \
    static_assert(d::kIsVecFloat<T>, "LeakyRelu: T must be half or float");                        \
    d::ew::Repeat<false, T, T, 1>("LeakyRelu", loc, d::MASK_FN(mask, isSetMask), repeatTime, dst,  \
                                  {&src}, d::ew::UnaryStrides(repeatParams),                       \
                                  d::ew::LeakyRelu<T>(scalarValue));                               \
  }
LNGRAD_EW_LEAKY_RELU_MASK(const uint64_t mask[], BitsMaskArg)
LNGRAD_EW_LEAKY_RELU_MASK(uint64_t mask, LenMaskArg)

}  // namespace AscendC

#undef LNGRAD_EW_FMA
#undef LNGRAD_EW_FMA_MASK
#undef LNGRAD_EW_AXPY_MASK
#undef LNGRAD_EW_LEAKY_RELU_MASK
#undef LNGRAD_EW_COMMA
#undef LNGRAD_EW_BINARY
#undef LNGRAD_EW_BINARY_MASK
#undef LNGRAD_SRCLOC_ARG
