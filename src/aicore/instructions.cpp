// The vector instruction set: the Highway versions (instructions-inl.h, compiled once per target
// by foreach_target and chosen at run time), the scalar loops (the reference path,
// Impl::kScalar), and the choice between them. Built with -ffp-contract=off: a Mul followed by
// an Add stays two roundings, in both paths.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "instructions.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "lngrad_aicore/instructions-inl.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::aicore {
namespace HWY_NAMESPACE {

void BinarySimd(int op, float* dst, const float* a, const float* b, size_t n) {
  BinaryLanes(static_cast<BinaryOp>(op), dst, a, b, n);
}
void BinaryHalfSimd(int op, Half* dst, const Half* a, const Half* b, size_t n) {
  BinaryLanes(static_cast<BinaryOp>(op), dst, a, b, n);
}
void ScalarSimd(int op, float* dst, const float* a, float s, size_t n) {
  ScalarLanes(static_cast<ScalarOp>(op), dst, a, s, n);
}
void ScalarHalfSimd(int op, Half* dst, const Half* a, float s, size_t n) {
  ScalarLanes(static_cast<ScalarOp>(op), dst, a, s, n);
}
void UnarySimd(int op, float* dst, const float* a, size_t n) {
  UnaryLanes(static_cast<UnaryOp>(op), dst, a, n);
}
void UnaryHalfSimd(int op, Half* dst, const Half* a, size_t n) {
  UnaryLanes(static_cast<UnaryOp>(op), dst, a, n);
}
void FillSimd(float* dst, float value, size_t n) { FillLanes(dst, value, n); }
void FillHalfSimd(Half* dst, Half value, size_t n) { FillLanes(dst, value, n); }
void BroadcastRowsSimd(float* dst, const float* src, size_t rows, size_t h) {
  BroadcastRowsLanes(dst, src, rows, h);
}
void CastHalfToFloatSimd(float* dst, const Half* src, size_t n) {
  CastHalfToFloatLanes(dst, src, n);
}
void CastFloatToHalfSimd(Half* dst, const float* src, size_t n) {
  CastFloatToHalfLanes(dst, src, n);
}
void TreeSumsSimd(const float* src, size_t stride, uint32_t lanes, size_t count, float* out) {
  TreeSumsLanes(src, stride, lanes, count, out);
}
void ReduceSumRowsSimd(float* dst, const float* src, uint32_t cal, uint32_t h) {
  ReduceSumRowsLanes(dst, src, cal, h);
}
void ReduceRowSimd(const float* row, uint32_t h, float* partials, float* final_sum) {
  ReduceRowLanes(row, h, partials, final_sum);
}
const char* TargetNameSimd() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::aicore
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "name_table.h"

namespace lngrad::aicore {

HWY_EXPORT(BinarySimd);
HWY_EXPORT(BinaryHalfSimd);
HWY_EXPORT(ScalarSimd);
HWY_EXPORT(ScalarHalfSimd);
HWY_EXPORT(UnarySimd);
HWY_EXPORT(UnaryHalfSimd);
HWY_EXPORT(FillSimd);
HWY_EXPORT(FillHalfSimd);
HWY_EXPORT(BroadcastRowsSimd);
HWY_EXPORT(CastHalfToFloatSimd);
HWY_EXPORT(CastFloatToHalfSimd);
HWY_EXPORT(TreeSumsSimd);
HWY_EXPORT(ReduceSumRowsSimd);
HWY_EXPORT(ReduceRowSimd);
HWY_EXPORT(TargetNameSimd);

namespace {

// True when the byte ranges [a, a+na) and [b, b+nb) share memory.
bool Overlap(const void* a, size_t na, const void* b, size_t nb) {
  const auto pa = reinterpret_cast<uintptr_t>(a);
  const auto pb = reinterpret_cast<uintptr_t>(b);
  return na != 0 && nb != 0 && pa < pb + nb && pb < pa + na;
}
// True when [a, a+n) and [b, b+n) share memory but do not start at the same element: the
// vector loop would then read elements that an earlier lane group already wrote.
template <typename T>
bool PartialOverlap(const T* a, const T* b, size_t n) {
  return a != b && Overlap(a, n * sizeof(T), b, n * sizeof(T));
}

float Widen(Half h) { return HalfBitsToFloat(h.bits); }

bool SimdUnary(UnaryOp op) {
  return op == UnaryOp::kSqrt || op == UnaryOp::kRecip || op == UnaryOp::kAbs ||
         op == UnaryOp::kRelu;
}
// The transcendental ops in double; the caller rounds once to its element type.
double UnaryDouble(UnaryOp op, float x) {
  const double d = x;
  switch (op) {
    case UnaryOp::kExp:
      return std::exp(d);
    case UnaryOp::kLn:
      return std::log(d);
    default:
      return 1.0 / std::sqrt(d);
  }
}
Half Narrow(float f) { return Half::FromBits(FloatToHalfBits(f)); }

// Binary16 neighbours in value order (bit patterns are sign-magnitude).
uint16_t HalfNextUp(uint16_t h) {
  if ((h & 0x7FFFu) == 0) return 0x0001;  // +-0 -> smallest positive subnormal
  return (h & 0x8000u) ? static_cast<uint16_t>(h - 1) : static_cast<uint16_t>(h + 1);
}
uint16_t HalfNextDown(uint16_t h) {
  if ((h & 0x7FFFu) == 0) return 0x8001;
  return (h & 0x8000u) ? static_cast<uint16_t>(h + 1) : static_cast<uint16_t>(h - 1);
}
// Value of a half for distance comparisons; +-inf stand for +-2^16, where the next binade would
// start, so that ties-away rounding overflows exactly where IEEE says it does.
double HalfValueForDistance(uint16_t h) {
  if ((h & 0x7FFFu) == 0x7C00u) return (h & 0x8000u) ? -65536.0 : 65536.0;
  return static_cast<double>(HalfBitsToFloat(h));
}

}  // namespace

Impl ResolveImpl(Impl requested) {
  if (requested != Impl::kAuto) return requested;
  // One atomic load: the settings are read once per process (lngrad/environment.h). A
  // misspelt LNGRAD_IMPL resolves like auto here; a launch reports it (launch.cpp).
  const lngrad::Environment& env = lngrad::ProcessEnvironment();
  if (env.impl == lngrad::Impl::kScalar) return Impl::kScalar;
  return env.adv_fuse ? Impl::kSimd : Impl::kSimdSteps;
}

const char* SimdTargetName() { return HWY_DYNAMIC_DISPATCH(TargetNameSimd)(); }

// ---------------------------------------------------------------------------------------------
// Element-wise instructions.

namespace {

// The scalar loops of the element-wise instructions, once for float and Half: each element is
// widened to float, computed in float and narrowed back (rounded once for Half, exact for float),
// dst[i] written after a[i] and b[i] are read, in increasing i.
float Widen(float f) { return f; }
// d = a float result (rounded once for Half), d = a double one (rounded once to E).
void Put(float& d, float f) { d = f; }
void Put(Half& d, float f) { d = Narrow(f); }
void PutDouble(float& d, double x) { d = static_cast<float>(x); }
void PutDouble(Half& d, double x) { d = DoubleToHalf(x); }

template <typename E>
void BinaryLoop(BinaryOp op, E* dst, const E* a, const E* b, size_t n) {
  const auto each = [&](auto f) {
    for (size_t i = 0; i < n; ++i) Put(dst[i], f(Widen(a[i]), Widen(b[i])));
  };
  switch (op) {
    case BinaryOp::kAdd:
      return each([](float x, float y) { return x + y; });
    case BinaryOp::kSub:
      return each([](float x, float y) { return x - y; });
    case BinaryOp::kMul:
      return each([](float x, float y) { return x * y; });
    case BinaryOp::kDiv:
      return each([](float x, float y) { return x / y; });
    case BinaryOp::kMax:
      return each([](float x, float y) { return x > y ? x : y; });
    case BinaryOp::kMin:
      return each([](float x, float y) { return x < y ? x : y; });
  }
}

template <typename E>
void ScalarLoop(ScalarOp op, E* dst, const E* a, float s, size_t n) {
  const auto each = [&](auto f) {
    for (size_t i = 0; i < n; ++i) Put(dst[i], f(Widen(a[i])));
  };
  switch (op) {
    case ScalarOp::kAdds:
      return each([s](float x) { return x + s; });
    case ScalarOp::kSubs:
      return each([s](float x) { return x - s; });
    case ScalarOp::kMuls:
      return each([s](float x) { return x * s; });
    case ScalarOp::kDivs:
      return each([s](float x) { return x / s; });
    case ScalarOp::kMaxs:
      return each([s](float x) { return x > s ? x : s; });
    case ScalarOp::kMins:
      return each([s](float x) { return x < s ? x : s; });
  }
}

template <typename E>
void UnaryLoop(UnaryOp op, E* dst, const E* a, size_t n) {
  const auto each = [&](auto f) {
    for (size_t i = 0; i < n; ++i) Put(dst[i], f(Widen(a[i])));
  };
  switch (op) {
    case UnaryOp::kSqrt:
      return each([](float x) { return std::sqrt(x); });
    case UnaryOp::kRecip:
      return each([](float x) { return 1.0f / x; });
    case UnaryOp::kAbs:
      return each([](float x) { return std::fabs(x); });
    case UnaryOp::kRelu:
      return each([](float x) { return x > 0.0f ? x : 0.0f; });
    case UnaryOp::kExp:
    case UnaryOp::kLn:
    case UnaryOp::kRsqrt:
      // In double, rounded once to E.
      for (size_t i = 0; i < n; ++i) PutDouble(dst[i], UnaryDouble(op, Widen(a[i])));
      return;
  }
}

}  // namespace

void Ops::Binary(BinaryOp op, float* dst, const float* a, const float* b, size_t n) const {
  if (simd && !PartialOverlap(dst, a, n) && !PartialOverlap(dst, b, n)) {
    return HWY_DYNAMIC_DISPATCH(BinarySimd)(static_cast<int>(op), dst, a, b, n);
  }
  BinaryLoop(op, dst, a, b, n);
}
void Ops::Binary(BinaryOp op, Half* dst, const Half* a, const Half* b, size_t n) const {
  if (simd && !PartialOverlap(dst, a, n) && !PartialOverlap(dst, b, n)) {
    return HWY_DYNAMIC_DISPATCH(BinaryHalfSimd)(static_cast<int>(op), dst, a, b, n);
  }
  BinaryLoop(op, dst, a, b, n);
}
void Ops::Scalar(ScalarOp op, float* dst, const float* a, float s, size_t n) const {
  if (simd && !PartialOverlap(dst, a, n)) {
    return HWY_DYNAMIC_DISPATCH(ScalarSimd)(static_cast<int>(op), dst, a, s, n);
  }
  ScalarLoop(op, dst, a, s, n);
}
void Ops::Scalar(ScalarOp op, Half* dst, const Half* a, float s, size_t n) const {
  if (simd && !PartialOverlap(dst, a, n)) {
    return HWY_DYNAMIC_DISPATCH(ScalarHalfSimd)(static_cast<int>(op), dst, a, s, n);
  }
  ScalarLoop(op, dst, a, s, n);
}
void Ops::Unary(UnaryOp op, float* dst, const float* a, size_t n) const {
  if (simd && SimdUnary(op) && !PartialOverlap(dst, a, n)) {
    return HWY_DYNAMIC_DISPATCH(UnarySimd)(static_cast<int>(op), dst, a, n);
  }
  UnaryLoop(op, dst, a, n);
}
void Ops::Unary(UnaryOp op, Half* dst, const Half* a, size_t n) const {
  if (simd && SimdUnary(op) && !PartialOverlap(dst, a, n)) {
    return HWY_DYNAMIC_DISPATCH(UnaryHalfSimd)(static_cast<int>(op), dst, a, n);
  }
  UnaryLoop(op, dst, a, n);
}

// ---------------------------------------------------------------------------------------------
// Fills, broadcasts and casts.

void Fill(float* dst, float value, size_t n, bool simd) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(FillSimd)(dst, value, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) dst[i] = value;
}

void Fill(Half* dst, Half value, size_t n, bool simd) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(FillHalfSimd)(dst, value, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) dst[i] = value;
}

void BroadcastRows(float* dst, const float* src, size_t rows, size_t h, bool simd) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(BroadcastRowsSimd)(dst, src, rows, h);
    return;
  }
  for (size_t r = 0; r < rows; ++r) {
    // Row by row in increasing order, each value read just before its row is written.
    const float v = src[r];
    for (size_t i = 0; i < h; ++i) dst[r * h + i] = v;
  }
}

void CastHalfToFloat(float* dst, const Half* src, size_t n, bool simd) {
  // Widening writes ahead of what it reads: any overlap runs element by element.
  if (simd && !Overlap(dst, n * sizeof(float), src, n * sizeof(Half))) {
    HWY_DYNAMIC_DISPATCH(CastHalfToFloatSimd)(dst, src, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) dst[i] = HalfBitsToFloat(src[i].bits);
}

void CastFloatToHalf(Half* dst, const float* src, size_t n, bool simd) {
  // Narrowing with dst at or below src writes only below what is still to be read.
  const auto pd = reinterpret_cast<uintptr_t>(dst);
  const auto ps = reinterpret_cast<uintptr_t>(src);
  if (simd && (pd <= ps || !Overlap(dst, n * sizeof(Half), src, n * sizeof(float)))) {
    HWY_DYNAMIC_DISPATCH(CastFloatToHalfSimd)(dst, src, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) dst[i] = Half::FromBits(FloatToHalfBits(src[i]));
}

Half FloatToHalf(float f, AscendC::RoundMode mode) noexcept {
  if (mode == AscendC::RoundMode::CAST_ROUND) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint32_t abs = x & 0x7FFFFFFFu;
    if (abs < 0x477FF000u) {  // finite results (65520 and above round away to inf, as with RNE)
      // The magnitude's half bits: half a unit of the last kept place added, then truncated,
      // rounds ties away from zero.
      uint32_t m = 0;
      if (abs >= 0x38800000u) {  // half normal range: drop 13 fraction bits, rebias
        m = (abs + 0x1000u - 0x38000000u) >> 13;
      } else if (abs >= 0x33000000u) {
        // [2^-25, 2^-14): half subnormals, multiples of 2^-24 (below 2^-25: +-0).
        const uint32_t shift = 126u - (abs >> 23);  // 14..24
        m = (((abs & 0x7FFFFFu) | 0x800000u) + (1u << (shift - 1))) >> shift;
      }
      return Half::FromBits(static_cast<uint16_t>(((x >> 16) & 0x8000u) | m));
    }
  }
  const uint16_t rne = FloatToHalfBits(f);
  if (mode == AscendC::RoundMode::CAST_NONE || mode == AscendC::RoundMode::CAST_RINT ||
      std::isnan(f)) {
    return Half::FromBits(rne);
  }
  const float back = HalfBitsToFloat(rne);
  if (back == f) return Half::FromBits(rne);  // exact (including +-0 and +-inf)
  const uint16_t lo = back > f ? HalfNextDown(rne) : rne;
  const uint16_t hi = back > f ? rne : HalfNextUp(rne);
  uint16_t r = rne;
  switch (mode) {
    case AscendC::RoundMode::CAST_FLOOR:
      r = lo;
      break;
    case AscendC::RoundMode::CAST_CEIL:
      r = hi;
      break;
    case AscendC::RoundMode::CAST_TRUNC:
      r = f > 0 ? lo : hi;
      break;
    case AscendC::RoundMode::CAST_ROUND: {
      const double d_lo = static_cast<double>(f) - HalfValueForDistance(lo);
      const double d_hi = HalfValueForDistance(hi) - static_cast<double>(f);
      if (d_lo < d_hi) {
        r = lo;
      } else if (d_hi < d_lo) {
        r = hi;
      } else {
        r = f > 0 ? hi : lo;  // tie: away from zero
      }
      break;
    }
    case AscendC::RoundMode::CAST_ODD:
      r = (lo & 1u) ? lo : hi;
      break;
    default:
      break;
  }
  return Half::FromBits(r);
}

const char* RoundModeName(AscendC::RoundMode mode) noexcept {
  static constexpr const char* kNames[] = {"CAST_NONE",  "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
                                           "CAST_ROUND", "CAST_TRUNC", "CAST_ODD",   "CAST_HYBRID"};
  return detail::NameAt(kNames, mode, "?");
}

Half FloatToHalfSaturate(float f) {
  // The Cast documentation (float to float, saturation mode): NaN gives 0.
  if (std::isnan(f)) return Half::FromBits(0);
  uint16_t bits = FloatToHalfBits(f);
  if ((bits & 0x7FFFu) == 0x7C00u) bits = static_cast<uint16_t>((bits & 0x8000u) | 0x7BFFu);
  return Half::FromBits(bits);
}

namespace {

// x (a float's value) rounded to an integral value in `mode`; the sign of a zero result is x's.
double RoundIntegral(double x, AscendC::RoundMode mode) {
  using AscendC::RoundMode;
  if (mode == RoundMode::CAST_FLOOR) return std::floor(x);
  if (mode == RoundMode::CAST_CEIL) return std::ceil(x);
  if (mode == RoundMode::CAST_TRUNC) return std::trunc(x);
  if (mode == RoundMode::CAST_ROUND) return std::round(x);  // ties away from zero
  const double f = std::floor(x);
  double r = 0;
  if (mode == RoundMode::CAST_ODD) {
    r = (f == x || std::fmod(f, 2.0) != 0) ? f : f + 1;
  } else {  // CAST_NONE, CAST_RINT: ties to even
    const double diff = x - f;
    r = (diff > 0.5 || (diff == 0.5 && std::fmod(f, 2.0) != 0)) ? f + 1 : f;
  }
  return r == 0 ? std::copysign(0.0, x) : r;
}

template <typename I>
I FloatToInt(float f, AscendC::RoundMode mode) {
  if (std::isnan(f)) return 0;
  const double r = RoundIntegral(f, mode);
  constexpr double kLo = static_cast<double>(std::numeric_limits<I>::min());
  constexpr double kHi = static_cast<double>(std::numeric_limits<I>::max());
  return static_cast<I>(std::clamp(r, kLo, kHi));
}

}  // namespace

float RoundToIntegral(float f, AscendC::RoundMode mode) noexcept {
  if (!std::isfinite(f)) return f;
  return static_cast<float>(RoundIntegral(f, mode));
}

int32_t FloatToInt32(float f, AscendC::RoundMode mode) noexcept {
  return FloatToInt<int32_t>(f, mode);
}
int16_t FloatToInt16(float f, AscendC::RoundMode mode) noexcept {
  return FloatToInt<int16_t>(f, mode);
}

float Int32ToFloat(int32_t v, AscendC::RoundMode mode) noexcept {
  using AscendC::RoundMode;
  const double d = v;
  const float rne = static_cast<float>(d);
  if (static_cast<double>(rne) == d || mode == RoundMode::CAST_NONE ||
      mode == RoundMode::CAST_RINT) {
    return rne;
  }
  const bool above = static_cast<double>(rne) > d;
  const float lo = above ? std::nextafter(rne, -INFINITY) : rne;
  const float hi = above ? rne : std::nextafter(rne, INFINITY);
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      return lo;
    case RoundMode::CAST_CEIL:
      return hi;
    case RoundMode::CAST_TRUNC:
      return d > 0 ? lo : hi;
    case RoundMode::CAST_ROUND: {
      const double dl = d - lo;
      const double dh = static_cast<double>(hi) - d;
      if (dl != dh) return dl < dh ? lo : hi;
      return d > 0 ? hi : lo;
    }
    case RoundMode::CAST_ODD:
      return (std::bit_cast<uint32_t>(lo) & 1u) ? lo : hi;
    default:
      return rne;
  }
}

namespace {

// `kept` (a magnitude with `rem` below it, `halfway` = half a unit of kept's last place) rounded
// in `mode` for a value of sign `neg`.
uint64_t RoundKept(uint64_t kept, uint64_t rem, uint64_t halfway, bool neg,
                   AscendC::RoundMode mode) noexcept {
  using AscendC::RoundMode;
  if (rem == 0) return kept;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      return neg ? kept + 1 : kept;
    case RoundMode::CAST_CEIL:
      return neg ? kept : kept + 1;
    case RoundMode::CAST_TRUNC:
      return kept;
    case RoundMode::CAST_ROUND:
      return rem >= halfway ? kept + 1 : kept;
    case RoundMode::CAST_ODD:
      return kept | 1u;
    default:  // CAST_NONE, CAST_RINT
      return (rem > halfway || (rem == halfway && (kept & 1u) != 0)) ? kept + 1 : kept;
  }
}

}  // namespace

uint16_t FloatToBf16Bits(float f, AscendC::RoundMode mode) noexcept {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  const uint32_t mag = u & 0x7FFFFFFFu;
  const uint32_t sign = (u >> 16) & 0x8000u;
  if (mag > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
  // The bit pattern of a binary32 magnitude is monotonic, so rounding its top 16 bits rounds
  // the value; a carry into the exponent reaches the next binade or infinity, as it should.
  const uint64_t r = RoundKept(mag >> 16, mag & 0xFFFFu, 0x8000u, sign != 0, mode);
  return static_cast<uint16_t>(sign | r);
}

float Int64ToFloat(int64_t v, AscendC::RoundMode mode) noexcept {
  const bool neg = v < 0;
  const uint64_t mag = neg ? ~static_cast<uint64_t>(v) + 1 : static_cast<uint64_t>(v);
  const int width = 64 - std::countl_zero(mag);
  if (width <= 24) return static_cast<float>(v);
  int shift = width - 24;
  const uint64_t rem = mag & ((uint64_t{1} << shift) - 1);
  uint64_t kept = RoundKept(mag >> shift, rem, uint64_t{1} << (shift - 1), neg, mode);
  const float r = std::ldexp(static_cast<float>(kept), shift);  // kept <= 2^24: exact
  return neg ? -r : r;
}

int64_t FloatToIntSat(float f, AscendC::RoundMode mode, int64_t lo, int64_t hi) noexcept {
  if (std::isnan(f)) return 0;
  const double r = RoundIntegral(f, mode);
  // Compared as doubles: 2^63 (hi = INT64_MAX) is exact there and above every int64.
  if (r >= static_cast<double>(hi)) return hi;
  if (r <= static_cast<double>(lo)) return lo;
  return static_cast<int64_t>(r);
}

int16_t Int32ToInt16(int32_t v) noexcept {
  return static_cast<int16_t>(std::clamp<int32_t>(v, INT16_MIN, INT16_MAX));
}

Half DoubleToHalf(double d) noexcept {
  float f = static_cast<float>(d);
  if (std::isfinite(f) && static_cast<double>(f) != d) {
    // Round to odd at float precision (24 bits >= 11 + 2), then once to nearest even at half
    // precision: the same as rounding d to half directly.
    uint32_t b = std::bit_cast<uint32_t>(f);
    if (std::fabs(static_cast<double>(f)) > std::fabs(d)) --b;
    f = std::bit_cast<float>(b | 1u);
  }
  return Half::FromBits(FloatToHalfBits(f));
}

void Ops::Fill(float* d, float v, size_t n) const { aicore::Fill(d, v, n, simd); }
void Ops::Fill(Half* d, Half v, size_t n) const { aicore::Fill(d, v, n, simd); }
void Ops::BroadcastRows(float* d, const float* src, size_t rows, size_t h) const {
  aicore::BroadcastRows(d, src, rows, h, simd);
}
void Ops::CastHalfToFloat(float* d, const Half* s, size_t n) const {
  aicore::CastHalfToFloat(d, s, n, simd);
}
void Ops::CastFloatToHalf(Half* d, const float* s, size_t n) const {
  aicore::CastFloatToHalf(d, s, n, simd);
}
void Ops::CastFloatToHalf(Half* d, const float* s, size_t n, AscendC::RoundMode mode) const {
  if (mode == AscendC::RoundMode::CAST_NONE || mode == AscendC::RoundMode::CAST_RINT) {
    aicore::CastFloatToHalf(d, s, n, simd);
    return;
  }
  // The directed modes have no vector version: element by element, in increasing order.
  for (size_t i = 0; i < n; ++i) d[i] = FloatToHalf(s[i], mode);
}

// ---------------------------------------------------------------------------------------------
// Reduction trees.

namespace {
// One level of the tree: lane[j] = lane[2j] + lane[2j+1] for j < kSums (every sum from the
// previous level's lanes).
template <uint32_t kSums>
inline void TreeLevel(float* lane) {
  float sum[kSums];
  for (uint32_t j = 0; j < kSums; ++j) sum[j] = lane[2 * j] + lane[2 * j + 1];
  std::memcpy(lane, sum, sizeof sum);
}
}  // namespace

float ScalarTree64(const float* src, uint32_t n) {
  // Masked lanes enter the tree as +0 (spec §1.8 [inference]); the tree adds adjacent pairs,
  // level by level, always left + right.
  float lane[kRepeatLanes];
  if (n >= kRepeatLanes) {
    std::memcpy(lane, src, sizeof lane);
  } else {
    std::memcpy(lane, src, n * sizeof(float));
    std::fill(lane + n, lane + kRepeatLanes, 0.0f);
  }
  // Level by level with fixed trip counts (32, 16, ..., 1 sums): the compiler unrolls them.
  TreeLevel<32>(lane);
  TreeLevel<16>(lane);
  TreeLevel<8>(lane);
  TreeLevel<4>(lane);
  TreeLevel<2>(lane);
  TreeLevel<1>(lane);
  return lane[0];
}

void ScalarReduceSumRows(float* dst, const float* src, uint32_t calSize, uint32_t hLength) {
  // Row i's passes: the first reads the row, the later ones its partial sums at dst + i*h; a
  // pass of exactly one 64-value repeat (or less) is the row's final sum and goes to dst[i].
  const uint32_t count = calSize / hLength;
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t base = static_cast<uint64_t>(i) * hLength;
    ReduceRow(false, src + base, hLength, dst + base, dst + i);
  }
}

void TreeSums(bool simd, const float* src, size_t stride, uint32_t lanes, size_t count,
              float* out) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(TreeSumsSimd)(src, stride, lanes, count, out);
    return;
  }
  for (size_t t = 0; t < count; ++t) out[t] = ScalarTree64(src + t * stride, lanes);
}

void ReduceSumRowsWith(bool simd, float* dst, const float* src, uint32_t cal, uint32_t h) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(ReduceSumRowsSimd)(dst, src, cal, h);
    return;
  }
  ScalarReduceSumRows(dst, src, cal, h);
}

void ReduceRow(bool simd, const float* row, uint32_t h, float* partials, float* final_sum) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(ReduceRowSimd)(row, h, partials, final_sum);
    return;
  }
  const float* pass_src = row;
  uint32_t total = h;
  while (total > 1) {
    const uint32_t repeats = total / kRepeatLanes;
    const uint32_t tail = total % kRepeatLanes;
    // Full repeats land in consecutive slots (one WholeReduceSum, repeats in order); a single
    // repeat of exactly 64 values is the row's final sum.
    for (uint32_t j = 0; j < repeats; ++j) {
      (total == kRepeatLanes ? *final_sum : partials[j]) =
          ScalarTree64(pass_src + uint64_t{j} * kRepeatLanes, kRepeatLanes);
    }
    if (tail > 0) {
      (total < kRepeatLanes ? *final_sum : partials[repeats]) =
          ScalarTree64(pass_src + uint64_t{repeats} * kRepeatLanes, tail);
    }
    total = (total + kRepeatLanes - 1) / kRepeatLanes;
    pass_src = partials;
  }
}

uint64_t ReduceSumRowsExtent(uint64_t calSize, uint64_t h) {
  if (h == 0) return 0;
  const uint64_t count = calSize / h;
  if (count == 0 || h == 1) return 0;
  // Final sums at dst[0..count); the first pass of a row wider than 64 fills ceil(h/64) slots
  // from its base, later passes fewer.
  const uint64_t slots = h > kRepeatLanes ? (h + kRepeatLanes - 1) / kRepeatLanes : 0;
  return std::max(count, (count - 1) * h + slots);
}

void Ops::ReduceSumRows(float* dst, const float* src, uint32_t cal, uint32_t h) const {
  ReduceSumRowsWith(simd, dst, src, cal, h);
}

float Ops::Tree(const float* src, uint32_t n) const {
  float out;
  TreeSums(simd, src, 0, n, 1, &out);
  return out;
}

float ReduceRepeat64(const float* src, uint32_t n, Impl impl) { return MakeOps(impl).Tree(src, n); }

void ReduceSumRows(float* dst, const float* src, uint32_t calSize, uint32_t hLength, Impl impl) {
  if (hLength == 0) return;
  MakeOps(impl).ReduceSumRows(dst, src, calSize, hLength);
}

}  // namespace lngrad::aicore
#endif  // HWY_ONCE
