// lngrad Ascend C runtime: Cast, the element type conversions of the vector instructions
// (included by vector_ops.h; the operand rules and forms are those of vector_base.h).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "bfloat16.h"
#include "fp4.h"
#include "fp8.h"
#include "vector_base.h"

#define LNGRAD_SRCLOC_ARG lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()

namespace lngrad::aicore::detail {

// ---------------------------------------------------------------------------------------------
// Cast: every pair of the vendor's tables (Atlas A2/A3, 950, 200I/500 A2, inference AI Core,
// training series) among half, float, bfloat16_t, int4b_t, int8/uint8, int16/uint16, int32/uint32,
// int64, the 950's 8-bit floats (hifloat8_t, fp8_e5m2_t, fp8_e4m3fn_t: lngrad_aicore/fp8.h) and
// 4-bit floats (fp4x2_e2m1_t, fp4x2_e1m2_t: lngrad_aicore/fp4.h, to and from bfloat16_t). The
// pair is a compile-time choice; whether the running product has it, and with which round modes, is
// checked at run time in checked mode (vector_ops.cpp holds the tables).

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
  kHif8,
  kE5m2,
  kE4m3,
  kFp4E2m1,
  kFp4E1m2,
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
  if constexpr (std::is_same_v<V, hifloat8_t>) return CastType::kHif8;
  if constexpr (std::is_same_v<V, fp8_e5m2_t>) return CastType::kE5m2;
  if constexpr (std::is_same_v<V, fp8_e4m3fn_t>) return CastType::kE4m3;
  if constexpr (std::is_same_v<V, fp4x2_e2m1_t>) return CastType::kFp4E2m1;
  if constexpr (std::is_same_v<V, fp4x2_e1m2_t>) return CastType::kFp4E1m2;
  return CastType::kNone;
}
const char* CastTypeName(CastType t) noexcept;

// How one Cast runs on the running product.
struct CastCtx {
  AscendC::RoundMode mode;
  bool saturate;     // the block's overflow mode (ctrl.h FloatSaturation)
  double deq_scale;  // int32 -> half: the DEQSCALE register's half (1 where the product has none)
  // int32 -> half on arch 3510: the kit's float sequence (x to float, times 2^-17, the scale and
  // 2^17, each rounded to float, then to half) instead of the product rounded once.
  bool deq_float_steps = false;
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

// The 4-bit types (int4b_t and the fp4 floats): two elements to a byte.
template <typename T>
inline constexpr bool kCast4Bit = IsFourBit<std::remove_cv_t<T>>::value;
template <typename T>
inline constexpr bool kCastFp4 = std::is_same_v<T, fp4x2_e2m1_t> || std::is_same_v<T, fp4x2_e1m2_t>;

// Element i of a run (4-bit types: nibble i % 2 of byte i / 2, low nibble first).
template <typename U>
U LoadElem(const std::byte* p, uint64_t i) {
  if constexpr (kCast4Bit<U>) {
    const uint8_t b = static_cast<uint8_t>(p[i / 2]);
    const uint8_t nib = (i % 2) != 0 ? b >> 4 : b & 0xF;
    if constexpr (kCastFp4<U>) {
      return U::FromBits(nib);
    } else {
      return AscendC::int4b_t(static_cast<int32_t>(nib));
    }
  } else {
    U v;
    std::memcpy(&v, p + i * sizeof(U), sizeof(U));
    return v;
  }
}
template <typename T>
void StoreElem(std::byte* p, uint64_t i, T v) {
  if constexpr (kCast4Bit<T>) {
    const uint8_t b = static_cast<uint8_t>(p[i / 2]);
    uint8_t nib;
    if constexpr (kCastFp4<T>) {
      nib = v.bits & 0xFu;
    } else {
      nib = v.storage & 0xFu;
    }
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

template <typename T>
inline constexpr bool kCastFp8 = std::is_same_v<T, hifloat8_t> || std::is_same_v<T, fp8_e5m2_t> ||
                                 std::is_same_v<T, fp8_e4m3fn_t>;

// To an 8-bit float (950: half or float sources): hifloat8_t rounds half away from zero
// (CAST_ROUND) or in the hybrid mode (CAST_HYBRID), e5m2/e4m3 to nearest even (CAST_RINT), as
// the Cast table allows; another mode (refused in checked mode) runs as that default. In the
// saturation mode an overflow becomes the largest finite value and NaN +0; in the inf/NaN mode
// the format's infinity or NaN (fp8.h).
template <typename T, typename U>
T CastToFp8(U v, const CastCtx& c) {
  namespace f8 = lngrad::aicore::fp8;
  if constexpr (std::is_same_v<T, hifloat8_t>) {
    const auto mode =
        c.mode == AscendC::RoundMode::CAST_HYBRID ? f8::Hif8Round::kHybrid : f8::Hif8Round::kRound;
    if constexpr (std::is_same_v<U, half>) {
      return T::FromBits(f8::HalfToHif8(v.bits, mode, c.saturate));
    } else {
      return T::FromBits(f8::FloatToHif8(static_cast<float>(v), mode, c.saturate));
    }
  } else if constexpr (std::is_same_v<T, fp8_e5m2_t>) {
    return T::FromBits(f8::FloatToE5m2(static_cast<float>(v), c.saturate));
  } else {
    return T::FromBits(f8::FloatToE4m3(static_cast<float>(v), c.saturate));
  }
}

// The Cast's round mode for the 4-bit floats (another mode, refused in checked mode, runs as
// CAST_RINT).
inline fp4::Fp4Round Fp4RoundOf(AscendC::RoundMode m) {
  using AscendC::RoundMode;
  using F = fp4::Fp4Round;
  return m == RoundMode::CAST_FLOOR   ? F::kFloor
         : m == RoundMode::CAST_CEIL  ? F::kCeil
         : m == RoundMode::CAST_ROUND ? F::kRound
         : m == RoundMode::CAST_TRUNC ? F::kTrunc
                                      : F::kRint;
}

// One element U -> T.
template <typename T, typename U>
T CastElem(U v, const CastCtx& c) {
  using AscendC::RoundMode;
  if constexpr (kCastFp4<U>) {  // exact in bfloat16_t
    return CastElem<T, float>(fp4::Fp4ToFloat(v.bits, std::is_same_v<U, fp4x2_e1m2_t>), c);
  } else if constexpr (kCastFp4<T>) {  // rounded in roundMode, saturated, NaN -> 0 (fp4.h)
    return T::FromBits(fp4::FloatToFp4(static_cast<float>(v), std::is_same_v<T, fp4x2_e1m2_t>,
                                       Fp4RoundOf(c.mode)));
  } else if constexpr (kCastFp8<T>) {
    return CastToFp8<T>(v, c);
  } else if constexpr (std::is_same_v<T, half>) {
    if constexpr (std::is_same_v<U, int32_t>) {
      if (c.deq_float_steps) {  // dav_3510: Cast s32 -> f32, Muls 2^-17, scale, 2^17 (RINT)
        float f = static_cast<float>(v);
        f = f * (1.0f / 131072.0f);
        f = f * static_cast<float>(c.deq_scale);
        f = f * 131072.0f;
        return SaturateFloat(FloatToHalf(f, AscendC::RoundMode::CAST_RINT), c.saturate);
      }
      // The A2/A3 (vconv_deq; asc_deq_int322half.md: Cast(src * scale)): the product of the
      // integer and the DEQSCALE half, rounded once to nearest even.
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
  static_assert(!kCast4Bit<T> || !kCast4Bit<U>);
  return PrepareCast(CastTypeOf<U>(), CastTypeOf<T>(), mode);
}

// The 4-bit types run by byte pairs: the count, the continuous mask and the bit-wise mask must keep
// the two nibbles of a byte together (the vendor's rule; checks::kCastInt4 in checked mode).
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
  constexpr bool kInt4 = d::kCast4Bit<T> || d::kCast4Bit<U>;
  const int64_t n = count;
  if constexpr (kInt4) d::CheckInt4Count(count);
  // 4-bit types: checked in byte pairs (one byte against two elements of the other type).
  const int64_t units = kInt4 ? n / 2 : n;
  constexpr uint32_t kDstUnit = kInt4 ? (d::kCast4Bit<T> ? 1 : 2 * sizeof(T)) : sizeof(T);
  constexpr uint32_t kSrcUnit = kInt4 ? (d::kCast4Bit<U> ? 1 : 2 * sizeof(U)) : sizeof(U);
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
  if constexpr (kCast4Bit<T> || kCast4Bit<U>) {
    // Byte pairs: one 4-bit byte against two elements of the other operand.
    ops[0].elem_size = kCast4Bit<T> ? 1 : 2 * sizeof(T);
    ops[1].elem_size = kCast4Bit<U> ? 1 : 2 * sizeof(U);
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

#undef LNGRAD_SRCLOC_ARG
