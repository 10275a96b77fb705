// lngrad_replay, the math family: the arch-2201 instruction sequences of the element-wise
// transcendental high-level APIs (Exp with its Taylor levels, Log/Log2/Log10, Erf, Erfc, Tanh,
// Sin, Cos, Tan, Atan, Asin, Acos, Acosh, Asinh, Atanh, Cosh, Sinh, Sign, Power), replayed one
// element at a time from a second reading of the toolkit's impl/adv_api/detail/math/<api>/
// sources (README.md, "The math family"). No code shared with src/ or include/ascendc/adv.
#pragma once

#include <cstddef>
#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// The unary APIs whose result depends on the element alone.
enum class MathOp : int {
  kExpBasic,  // Exp<T, 0>: the basic Exp instruction
  kLog,
  kLog2,
  kLog10,
  kErf,
  kErfc,
  kTanh,
  kSin,
  kCos,
  kTan,
  kAtan,
  kAsin,
  kAcos,
  kAcosh,
  kAsinh,
  kAtanh,
  kCosh,
  kSinh,
  kSign,
};

// dst[i] = op(src[i]) on arch 2201, float or half operands.
void ReplayMath(MathOp op, const float* src, float* dst, size_t n);
void ReplayMath(MathOp op, const Half* src, Half* dst, size_t n);
// Tanh on arch 3510 (tanh_3510_impl.h, re-derived from it): TanhIntrinsicImpl, or with
// `compensation` TanhCompensationImpl; register Mins/Maxs pass a NaN on; half widened, the float
// result rounded to nearest even.
float ReplayTanh3510(float x, bool compensation);
// Sinh and Cosh on arch 3510 (sinh_3510_impl.h, cosh_3510_impl.h): e = Exp(x + (-ln2)),
// e - 0.25 / e and e + 0.25 / e in float.
float ReplaySinh3510(float x);
float ReplayCosh3510(float x);
// Asinh on arch 3510 (asinh_3510_impl.h): s = Ln(Sqrt(x * x + 1) + |x|); the lanes with x < 0
// get Muls(s, -1) (the others 0), then the bits are or-ed with s's.
float ReplayAsinh3510(float x);
// Lgamma on arch 3510 (lgamma_3510_impl.h; replay_lgamma_3510.cpp): the 64-lane register passes
// of the source; half widened, the float result cast with saturation (+-inf to +-65504, NaN to
// +0). `work` (if not null) gets the n floats the first pass stores to the work buffer (the
// sharedTmpBuffer's first 4n bytes).
void ReplayLgamma3510(const float* src, float* dst, size_t n, float* work = nullptr);
void ReplayLgamma3510(const Half* src, Half* dst, size_t n, float* work = nullptr);
// Exp<T, level> (level >= 1), Log2 and Log10 on arch 3510 (replay_math_3510.cpp), one float lane;
// half: widened first, the result cast back with FloatToHalfSaturate.
float ReplayExpTaylor3510(uint32_t level, float x);
// What Exp<T, level >= 1> on arch 3510 stores in sharedTmpBuffer (exp_3510_impl.h,
// ExpCompute): the register Div(Duplicate(1), Arange(2)), all 64 float lanes, at its start.
void ReplayExpTable3510(float table[64]);
float ReplayLog2_3510(float x);
float ReplayLog10_3510(float x);
// Acosh on arch 3510: half rounded back to nearest even without saturation (FloatToHalf).
float ReplayAcosh3510(float x);
// Erf on arch 3510 (erf_3510_impl.h): PADE_APPROXIMATION, or with `subsection`
// SUBSECTION_POLYNOMIAL_APPROXIMATION; half rounded back without saturation (FloatToHalf).
float ReplayErf3510(float x, bool subsection);
// Erfc on arch 3510 (erfc_3510_impl.h); half as Erf's.
float ReplayErfc3510(float x);
// Tan on arch 3510 (tan_3510_impl.h); half cast back with saturation (FloatToHalfSaturate).
float ReplayTan3510(float x);
// Asin / Acos on arch 3510 (asin_3510_impl.h): the float result of the float path, or with
// `half_path` of the half path on a widened half (the caller casts it back with saturation).
float ReplayAsin3510(float x, bool half_path);
float ReplayAcos3510(float x, bool half_path);
// Atan on arch 3510 (atan_3510_impl.h): TAYLOR_EXPANSION, or with `polynomial`
// POLYNOMIAL_APPROXIMATION (float only); half rounded back without saturation (FloatToHalf).
float ReplayAtan3510(float x, bool polynomial);
// Sin / Cos on arch 3510 (replay_trig_3510.cpp): the POLYNOMIAL_APPROXIMATION register code
// (sin_3510_impl.h, cos_3510_impl.h), or with `radian` the RADIAN_REDUCTION one
// (sincos_3510_impl.h: `half_path` the half reduction on a widened half, else the float one);
// half rounded back to nearest even without saturation (FloatToHalf).
float ReplaySin3510(float x, bool radian, bool half_path);
float ReplayCos3510(float x, bool radian, bool half_path);
// What their RADIAN_REDUCTION forms leave in sharedTmpBuffer (tmpBytes bytes): `chunked` for Sin
// and Cos (chunks of tmpBytes / 8 aligned up to 32 bytes, in elements), else SinCos's one call.
// Float: the six words of 2/pi at the start, R (float) at byte 32 and I (int32) after R's count
// rounded up to 32; half: R at the start. The bytes it does not write are left alone.
void ReplayTrigRadianScratch3510(const float* src, uint32_t n, uint32_t tmpBytes, bool chunked,
                                 uint8_t* scratch);
void ReplayTrigRadianScratch3510(const Half* src, uint32_t n, uint32_t tmpBytes, bool chunked,
                                 uint8_t* scratch);
// Power on arch 3510 (replay_power_3510.cpp, power_3510_impl.h): the float lane of PowerConfig
// INTRINSIC, or with `double_float` DOUBLE_FLOAT_TECH, on widened operands (the caller rounds
// half back to nearest even, FloatToHalf).
float ReplayPower3510(float base, float expo, bool double_float);
// What DOUBLE_FLOAT_TECH leaves in sharedTmpBuffer (tmpBytes): chunks of tmpBytes / 12 rounded
// up to 32 elements, each of len elements three float arrays of len rounded up to 32 (the exp
// core's result before the special cases, the log's low part, step two's polynomial). base[k *
// baseStride], expo[k * expStride] (stride 0: a scalar), widened to float. Other bytes untouched.
void ReplayPowerScratch3510(const float* base, uint32_t baseStride, const float* expo,
                            uint32_t expStride, uint32_t n, uint32_t tmpBytes, uint8_t* scratch);
// int32 Power on arch 3510 (PowI): `max_loop` = the bit length of the largest exponent of the call
// (GetMaxLoop's ReduceMax; 32 where it is negative).
int32_t ReplayPowerInt3510(int32_t base, int32_t expo, uint32_t max_loop);
// Fmod on arch 3510, FmodConfig NORMAL (replay_math_3510.cpp); half widened, rounded back to
// nearest even without saturation (FloatToHalf).
float ReplayFmod3510(float a, float b);

// Sin / Cos with isReuseSource on float: as ReplayMath, and src[i] ends as the reduced argument
// (the sequence computes it in the source tensor).
void ReplaySinCosReuse(MathOp op, float* src, float* dst, size_t n);

// Exp<T, level, isReuseSource> (level >= 1: floor split and Taylor sum). Float with
// isReuseSource: the fractional parts are computed in the source tensor at its base, chunk by
// chunk of ((tmpBytes / 4) / 2) rounded down to 8 floats, so src[0, chunk) ends with the last
// chunks' fractional parts; tmpBytes is sharedTmpBuffer's size in bytes.
void ReplayExpTaylor(uint32_t level, const float* src, float* dst, size_t n);
void ReplayExpTaylor(uint32_t level, const Half* src, Half* dst, size_t n);
void ReplayExpTaylorReuse(uint32_t level, float* src, float* dst, size_t n, uint32_t tmpBytes);

// Power(x, y) element-wise (the tensor-scalar forms broadcast the scalar first).
void ReplayPower(const float* x, const float* y, float* dst, size_t n);
void ReplayPower(const Half* x, const Half* y, Half* dst, size_t n);
void ReplayPower(const int32_t* x, const int32_t* y, int32_t* dst, size_t n);

// CumSum<T, {isLastAxis, ..., outputLastRow}> over an [outer, inner] tensor (cumsum_common_impl.h):
// last axis: each row's running sum prev + x in float (half: widened, each sum rounded once),
// then `+ 0` on the stored value; first axis: float rows dst[r] = dst[r - 1] + src[r] after
// dst[0] = src[0] + 0, half summed in float and rounded (no `+ 0`). lastRow (when not null) =
// the last row of dst + 0.
void ReplayCumSum(const float* src, float* dst, float* lastRow, uint32_t outer, uint32_t inner,
                  bool lastAxis);
void ReplayCumSum(const Half* src, Half* dst, Half* lastRow, uint32_t outer, uint32_t inner,
                  bool lastAxis);
// CumSum LINEBYLINE on arch 3510 (replay_math_cumsum.cpp): the same running float sums, every
// copy plain (no + 0: a -0 stays), half rounded back to nearest even.
void ReplayCumSum3510(const float* src, float* dst, float* lastRow, uint32_t outer, uint32_t inner,
                      bool lastAxis);
void ReplayCumSum3510(const Half* src, Half* dst, Half* lastRow, uint32_t outer, uint32_t inner,
                      bool lastAxis);
// The same on arch 3510, LINEBYLINE or SKLANSKY, with what its code leaves in sharedTmpBuffer
// (replay_cumsum_3510.cpp): dst (outer * inner) and the scratch's bytes it writes, the chunks of
// rows of the last axis sized by tmpBytes as the kit sizes them; other bytes are left alone.
void ReplayCumSum3510Scratch(const float* src, float* dst, uint32_t outer, uint32_t inner,
                             bool lastAxis, bool sklansky, uint8_t* scratch, uint32_t tmpBytes);
void ReplayCumSum3510Scratch(const Half* src, Half* dst, uint32_t outer, uint32_t inner,
                             bool lastAxis, bool sklansky, uint8_t* scratch, uint32_t tmpBytes);

// Digamma on arch 3510 (replay_digamma_3510.cpp): the float register sequence; half widens src
// into scratch[0, n) as floats, leaves the float results at scratch float (n rounded up to 16)
// and rounds them to half in dst. ReplayDigamma3510Float: one element of the float sequence.
void ReplayDigamma3510(const float* src, float* dst, size_t n);
void ReplayDigamma3510(const Half* src, Half* dst, size_t n, uint8_t* scratch);
float ReplayDigamma3510Float(float x);

// The float element-wise kernels (exposed for the hand-worked checks of the replay's tests).
float ReplayMathFloat(MathOp op, float x);
float ReplayPowerFloat(float x, float y);

// A double rounded once to binary16: to nearest even (away = false) or to nearest with ties
// away from zero (away = true, Cast CAST_ROUND); overflow to +-inf, NaN to a quiet NaN.
Half DoubleToHalf(double d, bool away = false);

}  // namespace lngrad_replay
