// lngrad: the Ascend C high-level API Power (the vendor's adv_api/math/power.h): tensor^tensor,
// tensor^scalar and scalar^tensor, half, float and int32_t (the 950 also bfloat16_t: the float
// sequence, the result rounded to bfloat16 (CAST_RINT); and its other integer types: the same
// integer algorithm; checked mode refuses those elsewhere).
//
// Floating point: the device's sequence on arch 2201 (power_float_impl.h), per element in float
// (half widened exactly, the result rounded to half, CAST_NONE), each step one instruction
// (math_steps.h):
//   d = Exp(y * Ln(|x|));
//   s = (Rint(|y|) - Floor(Rint(|y|) * 0.5) * 2) * -2 + 1, then Rint (+1 for even |y|, -1 odd);
//   yInt = |(|y| - Rint(|y|))| < 1e-8f;  d = (signbit(x) && yInt ? s : 1) * d;
//   d = 1 where y == 0, x == 1, or x == -1 and |y| == inf;
//   d = NaN unless |y| == inf, yInt, x >= 0 or x == -inf;
// comparisons are IEEE (a NaN operand compares unequal, not less, not greater). On 2002 the two
// Rints and the Floor go through int32 (power_v200_impl.h's CastFloat2Float: saturated at
// +-2^31, NaN to 0), so a finite |y| > 2^31 is not integral there: a negative base gives NaN
// (2201: |x|^y). Integers: x^|y|
// with wrapping multiplications (power_int_impl.h's squarings, then the remaining products; the
// product modulo 2^32 does not depend on their order); y < 0 gives trunc(1.0f / float(p)) for a
// nonzero p (so 1, -1 or 0) and 0 for p = 0. Arch 3510, floating point: its register code by
// PowerConfig.algo (power_3510.h: INTRINSIC Exp(b * Ln|a|), DOUBLE_FLOAT_TECH CUDA's powf, each
// with the 950's special cases), half and bfloat16 cast back CAST_RINT without saturation;
// integers the same wrapping power (power_3510_impl.h's PowI loop over the exponent's bits),
// a negative exponent by its special cases (PowerInt). DOUBLE_FLOAT_TECH leaves its
// intermediates in the scratch as the 950 does (PowerScratch3510; the kit's minimum, 12 bytes an
// element, is short of them for a count not a multiple of 32: the device's overrun).
// The config is the 950's (off it the 2201 sequence runs whatever it says). Float on 2201/2002
// and half leave in the scratch what the kit's rounds leave there (power_scratch.h), and int32
// where its loops end (power_int_work.h; an exponent whose loop does not end, unchecked, leaves
// the scratch marked unmodelled for initcheck).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// the sources, sharedTmpBuffer at least GetPowerMaxMinTmpSize's minimum on 2201/2002 (on 3510
// none, DOUBLE_FLOAT_TECH 12 bytes an element, its three float arrays) and disjoint from the
// operands; int32 on 2201/2002: no exponent whose loop does not end (INT_MIN; on 2002 those
// whose float halvings never finish, PowerInt2002Ends; power_exponent; unchecked, such an
// element gets the wrapped power and the scratch is left marked).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "lib/math/math_steps.h"
#include "lib/math/power_3510.h"
#include "lib/math/power_int_work.h"
#include "lib/math/power_scratch.h"

namespace AscendC {

enum class PowerAlgo {
  INTRINSIC = 0,
  DOUBLE_FLOAT_TECH,
};

struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};

constexpr PowerConfig defaultPowerConfig = {PowerAlgo::INTRINSIC};

}  // namespace AscendC

namespace lngrad::aicore::checks {
// Power<int32_t> on 2201/2002 with an exponent whose loop does not end: INT_MIN, on 2002 those
// its float halvings cannot finish with (math_detail::PowerIntLoopsEnd).
inline constexpr const char* kPowerExponent = "power_exponent";
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::math_detail {

// Cast<float, float> in `mode` on 2201; on 2002 (power_v200_impl.h's CastFloat2Float) through
// int32 and back: saturated at +-2^31, NaN to 0.
inline float PowerRound(float v, AscendC::RoundMode mode, bool via_int32) {
  if (via_int32) return static_cast<float>(FloatToInt32(v, mode));
  return mode == AscendC::RoundMode::CAST_RINT ? RintF(v) : FloorF(v);
}

inline float PowerF(float x, float y, bool via_int32 = false) {
  constexpr auto kRint = AscendC::RoundMode::CAST_RINT;
  const float ay = std::fabs(y);
  float d = y * LnF(std::fabs(x));
  d = ExpF(d);
  const float r = PowerRound(ay, kRint, via_int32);
  float half_r = r * 0.5f;
  half_r = PowerRound(half_r, AscendC::RoundMode::CAST_FLOOR, via_int32);
  half_r = half_r * 2.0f;
  float s = r - half_r;
  s = s * -2.0f;
  s = s + 1.0f;
  s = PowerRound(s, kRint, via_int32);
  const bool y_int = std::fabs(ay - r) < 1e-8f;
  const float sel = (std::signbit(x) && y_int) ? s : 1.0f;
  d = sel * d;
  const float inf = std::numeric_limits<float>::infinity();
  const bool keep = ay != 0.0f && x != 1.0f && (x != -1.0f || ay != inf);
  if (!keep) d = 1.0f;
  const bool defined = ay == inf || y_int || x >= 0.0f || x == -inf;
  return defined ? d : std::numeric_limits<float>::quiet_NaN();
}

// x^|y| with wrapping products (|y| wrapping too): the kit's dst before its negative
// exponents are handled (2201/2002: HandleNegativeExpPowerI).
template <typename T>
T PowerIntMagnitude(T x, T y) {
  using U = std::make_unsigned_t<T>;
  const bool neg = std::is_signed_v<T> && y < T{0};
  U e = neg ? static_cast<U>(U{0} - static_cast<U>(y)) : static_cast<U>(y);
  U p = 1, b = static_cast<U>(x);
  for (; e != 0; e >>= 1) {
    if (e & 1u) p = static_cast<U>(p * b);
    b = static_cast<U>(b * b);
  }
  return static_cast<T>(p);
}

template <typename T>
T PowerInt(T x, T y) {
  const bool neg = std::is_signed_v<T> && y < T{0};
  // The 950's ProcessSpecialCaseForPowI: a negative exponent gives 1 for x = 1, +-1 by y's
  // parity for x = -1, 0 otherwise (2201's trunc(1 / p) differs at y = the type's minimum, where
  // an odd x gives p = 1).
  if (neg && On3510()) return x == T{1} ? T{1} : x == T(-1) ? ((y & T{1}) ? T(-1) : T{1}) : T{0};
  const T v = PowerIntMagnitude(x, y);
  if (!neg) return v;
  if (v == T{0}) return T{0};
  return static_cast<T>(std::trunc(1.0f / static_cast<float>(v)));
}

// Whether power_int_impl.h's CommonPowerI ends on 2002 for exponent y: |y| (wrapping) halved
// as above until 0, one squaring each, must leave a remainder |y| - 2^squarings >= 0 for the
// loop that counts it down. An exponent just below 2^k (k >= 26) rounds up to 2^k and overshoots
// (the remainder loop then runs about 2^32 rounds); |y| = 2^31 (y the minimum) halves to -1 and
// stays there.
inline bool PowerInt2002Ends(int32_t y) {
  const uint32_t abs_y = y < 0 ? 0u - static_cast<uint32_t>(y) : static_cast<uint32_t>(y);
  if (abs_y == 0x80000000u) return false;
  uint64_t squared = abs_y == 0 ? 0 : 1;
  for (int32_t e = PowerHalve2002(static_cast<int32_t>(abs_y)); e != 0; e = PowerHalve2002(e)) {
    squared *= 2;
  }
  return squared <= abs_y;
}

// Whether the kit's int32 loops (power_int_impl.h's CommonPowerI) end for every exponent of the
// first `count` (within the tensor) on 2201/2002: not for INT_MIN (its halvings stay at -1 and
// its float sum below 0), nor on 2002 for the overshooting halvings (PowerInt2002Ends).
template <typename Exp>
bool PowerIntLoopsEnd(const Exp& exp, uint32_t count) {
  const bool v200 = detail::rep::RunningArch() == NpuArch::k2002;
  const auto ends = [v200](int32_t y) {
    return v200 ? PowerInt2002Ends(y) : y != std::numeric_limits<int32_t>::min();
  };
  if constexpr (std::is_same_v<Exp, AscendC::LocalTensor<int32_t>>) {
    const uint64_t n = std::min<uint64_t>(count, exp.GetSize());
    for (uint64_t i = 0; i < n; ++i) {
      if (!ends(exp.HostPtr()[i])) return false;
    }
    return true;
  } else {
    return count == 0 || ends(exp);
  }
}

// Checked mode on 2201/2002, int32: refuses the exponents of the first `count` (within the
// tensor) whose loops do not end (PowerIntLoopsEnd: INT_MIN, on 2002 PowerInt2002Ends); lngrad
// would give the wrapped power where the device loops about 2^32 rounds (or for ever).
template <typename T, typename Exp>
void CheckPowerExponents(const Exp& exp, uint32_t count) {
  if constexpr (std::is_same_v<T, int32_t>) {
    if (!CheckedMode() || On3510()) return;
    const bool v200 = detail::rep::RunningArch() == NpuArch::k2002;
    const auto refuse = [v200](int32_t y) {
      RaiseKernelCheck(
          checks::kPowerExponent,
          "Power<int32_t> on " + std::string(v200 ? "2002" : "2201") + ": exponent " +
              std::to_string(y) +
              (v200 ? " halves through float (ShiftRightOneBit) past |y| or never to 0; "
                      "the device's loop would run about 2^32 rounds or not end"
                    : " stays INT_MIN through the Muls by -1 and its arithmetic halvings "
                      "(ShiftRight) stop at -1: the device's loop on the exponents' float sum "
                      "does not end"));
    };
    if constexpr (std::is_same_v<Exp, AscendC::LocalTensor<T>>) {
      const uint64_t n = std::min<uint64_t>(count, exp.GetSize());
      for (uint64_t i = 0; i < n; ++i) {
        if (!PowerIntLoopsEnd(exp.HostPtr()[i], 1)) refuse(exp.HostPtr()[i]);
      }
    } else if (!PowerIntLoopsEnd(exp, count)) {
      refuse(exp);
    }
  }
}

// Power's float result rounded to T.
template <typename T>
T PowerNarrow(float r) {
  if constexpr (std::is_same_v<T, bfloat16_t>) {
    return bfloat16_t(r);  // Cast CAST_RINT, no saturation
  } else {
    return Narrow<T>(r);
  }
}

template <typename T, AscendC::PowerAlgo kAlgo = AscendC::PowerAlgo::INTRINSIC>
T PowerOf(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    return PowerInt(x, y);
  } else {
    const float a = Widen(x), b = Widen(y);
    return PowerNarrow<T>(On3510()
                              ? PowerF3510(a, b, kAlgo == AscendC::PowerAlgo::DOUBLE_FLOAT_TECH)
                              : PowerF(a, b, detail::rep::RunningArch() == NpuArch::k2002));
  }
}

template <typename T>
inline constexpr bool kPowerType =
    kHalfOrFloat<T> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>;

// GetPowerMaxMinTmpSize's minimum on 2201 (on 3510 none, or for DOUBLE_FLOAT_TECH its three
// float arrays of `count`): tensor^tensor or with a scalar.
template <typename T>
uint64_t PowerTmpMin(bool tensor_tensor, bool double_float, uint32_t count) {
  if (detail::rep::RunningArch() == NpuArch::k3510) {
    return double_float && !std::is_integral_v<T> ? uint64_t{12} * count : 0;
  }
  if constexpr (std::is_integral_v<T>) {
    return 256u * (tensor_tensor ? 6 : 7);
  } else if constexpr (std::is_same_v<T, float>) {
    return 256u * (tensor_tensor ? 4 : 5) + 256;
  } else {
    return 256u * 14 / 2 + 256;
  }
}

// Runs Power over `count` elements: base and exponent from a tensor or a scalar.
template <AscendC::PowerAlgo kAlgo, typename T, typename Base, typename Exp>
void PowerRun(const AscendC::LocalTensor<T>& dst, const Base& base, const Exp& exp,
              const AscendC::LocalTensor<uint8_t>& tmp, uint32_t count, SrcLoc loc) {
  static_assert(kPowerType<T>, "Power: T must be half, float or an integer type up to 32 bits");
  constexpr bool kBaseT = std::is_same_v<Base, AscendC::LocalTensor<T>>;
  constexpr bool kExpT = std::is_same_v<Exp, AscendC::LocalTensor<T>>;
  constexpr bool kDouble = kAlgo == AscendC::PowerAlgo::DOUBLE_FLOAT_TECH;
  const uint64_t tmp_min = PowerTmpMin<T>(kBaseT && kExpT, kDouble, count);
  // Atlas A2/A3 and the inference AI Core take half, float and int32_t; the rest is the 950's.
  constexpr Products kOn =
      kHalfOrFloat<T> || std::is_same_v<T, int32_t> ? Products::kAll : Products::kOnly3510;
  // The 950's DOUBLE_FLOAT_TECH leaves its intermediates in the scratch (PowerScratch3510): the
  // passes run the elements in order, i counts them.
  CheckPowerExponents<T>(exp, count);
  PowerScratch3510 work(tmp, count, kDouble && !std::is_integral_v<T> && On3510());
  uint64_t i = 0;
  const auto of = [&](T x, T y) -> T {
    if constexpr (!std::is_integral_v<T>) {
      if (work.Active()) return PowerNarrow<T>(work.Element(i++, Widen(x), Widen(y)));
    }
    return PowerOf<T, kAlgo>(x, y);
  };
  // Float on 2201/2002 writes what the device leaves in the scratch (PowerFloatScratch).
  constexpr bool kFloat = std::is_same_v<T, float>;
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr bool kInt32 = std::is_same_v<T, int32_t>;
  constexpr PassScratch kS =
      kFloat || kHalf || kInt32 ? PassScratch::kModelled : PassScratch::kUnmodelled;
  // Int32 on 2201/2002 writes the last values of the kit's rounds (PowerIntScratch), where its
  // loops end; it reads dst past the count as the call finds it.
  bool int_model = false;
  if constexpr (kInt32) int_model = !On3510() && PowerIntLoopsEnd(exp, count);
  AscendC::LocalTensor<int32_t> dst32;
  if constexpr (kInt32) dst32 = dst;
  PowerIntScratch int_scratch(tmp, !(kBaseT && kExpT), dst32, count, int_model);
  if constexpr (kBaseT && kExpT) {
    BinaryPass<kS>("Power", kOn, Overlap::kNone, dst, base, exp, &tmp, tmp_min, count, loc, of);
  } else if constexpr (kBaseT) {
    UnaryPass<kS>("Power", kOn, Overlap::kNone, dst, base, &tmp, tmp_min, count, loc,
                  [&of, y = exp](T x) { return of(x, y); });
  } else {
    UnaryPass<kS>("Power", kOn, Overlap::kNone, dst, exp, &tmp, tmp_min, count, loc,
                  [&of, x = base](T y) { return of(x, y); });
  }
  work.Record(loc);
  if constexpr (kInt32) {
    if (int_scratch.Active()) {
      const auto x = [&](uint64_t i) -> int32_t {
        if constexpr (kBaseT) {
          return base.HostPtr()[i];
        } else {
          return base;
        }
      };
      const auto y = [&](uint64_t i) -> int32_t {
        if constexpr (kExpT) {
          return exp.HostPtr()[i];
        } else {
          return exp;
        }
      };
      if constexpr (!kBaseT) int_scratch.SetScalar(base);
      if constexpr (!kExpT) int_scratch.SetScalar(exp);
      int_scratch.Run("Power", loc, count, x, y,
                      [&](uint64_t i) { return PowerIntMagnitude<int32_t>(x(i), y(i)); });
    } else if (!On3510() && count != 0 && tmp_min != 0) {
      LeaveScratch("Power", loc, tmp.View());  // a loop that does not end (unchecked)
    }
  }
  if constexpr (kFloat || kHalf) {
    const AscendC::LocalTensor<T>* b = nullptr;
    const AscendC::LocalTensor<T>* e = nullptr;
    T scalar{};
    if constexpr (kBaseT) {
      b = &base;
    } else {
      scalar = base;
    }
    if constexpr (kExpT) {
      e = &exp;
    } else {
      scalar = exp;
    }
    PowerFloatScratch scratch(tmp, !kBaseT, !kExpT, kHalf);
    if constexpr (kFloat) {
      scratch.Run("Power", loc, b, e, scalar, count);
    } else {
      const bool v200 = detail::rep::RunningArch() == NpuArch::k2002;
      scratch.RunHalf("Power", loc, b, e, scalar, count,
                      [v200](float x, float y) { return PowerF(x, y, v200); });
    }
  }
}

}  // namespace lngrad::aicore::math_detail

// The twelve prototypes: (tensor, tensor), (tensor, scalar), (scalar, tensor), each with and
// without sharedTmpBuffer and calCount.
#define LNGRAD_POWER_FORMS(BaseType, ExpType, SizeOf)                                          \
  template <typename T, bool isReuseSource = false,                                            \
            const PowerConfig& config = defaultPowerConfig>                                    \
  void Power(const LocalTensor<T>& dstTensor, BaseType src0, ExpType src1,                     \
             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount,                   \
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                 \
    lngrad::aicore::math_detail::PowerRun<config.algo>(dstTensor, src0, src1, sharedTmpBuffer, \
                                                       calCount, loc);                         \
  }                                                                                            \
  template <typename T, bool isReuseSource = false,                                            \
            const PowerConfig& config = defaultPowerConfig>                                    \
  void Power(const LocalTensor<T>& dstTensor, BaseType src0, ExpType src1, uint32_t calCount,  \
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                 \
    lngrad::aicore::math_detail::PowerRun<config.algo>(                                        \
        dstTensor, src0, src1, lngrad::aicore::math_detail::StackTmp(), calCount, loc);        \
  }                                                                                            \
  template <typename T, bool isReuseSource = false,                                            \
            const PowerConfig& config = defaultPowerConfig>                                    \
  void Power(const LocalTensor<T>& dstTensor, BaseType src0, ExpType src1,                     \
             const LocalTensor<uint8_t>& sharedTmpBuffer,                                      \
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                 \
    lngrad::aicore::math_detail::PowerRun<config.algo>(                                        \
        dstTensor, src0, src1, sharedTmpBuffer, static_cast<uint32_t>(SizeOf.GetSize()), loc); \
  }                                                                                            \
  template <typename T, bool isReuseSource = false,                                            \
            const PowerConfig& config = defaultPowerConfig>                                    \
  void Power(const LocalTensor<T>& dstTensor, BaseType src0, ExpType src1,                     \
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                 \
    lngrad::aicore::math_detail::PowerRun<config.algo>(                                        \
        dstTensor, src0, src1, lngrad::aicore::math_detail::StackTmp(),                        \
        static_cast<uint32_t>(SizeOf.GetSize()), loc);                                         \
  }

namespace AscendC {

LNGRAD_POWER_FORMS(const LocalTensor<T>&, const LocalTensor<T>&, src0)
LNGRAD_POWER_FORMS(const LocalTensor<T>&, const T&, src0)
LNGRAD_POWER_FORMS(const T&, const LocalTensor<T>&, src1)

}  // namespace AscendC

#undef LNGRAD_POWER_FORMS
