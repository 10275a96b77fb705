// The element-wise arithmetic of the vector instructions. Built with lngrad_strict_fp
// (-ffp-contract=off, no fast-math): one IEEE binary32 operation per element and instruction.
#include <cmath>
#include <cstdint>

#include "lngrad_aicore/vector_ops.h"

namespace lngrad::aicore::detail {
namespace {

template <typename F>
void ForEach(uint32_t n, F f) {
  for (uint32_t i = 0; i < n; ++i) f(i);
}

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

const char* VecOpName(VecOp op) noexcept {
  switch (op) {
    case VecOp::kAdd: return "Add";
    case VecOp::kSub: return "Sub";
    case VecOp::kMul: return "Mul";
    case VecOp::kDiv: return "Div";
    case VecOp::kSqrt: return "Sqrt";
  }
  return "?";
}

const char* RoundModeName(AscendC::RoundMode mode) noexcept {
  switch (mode) {
    case AscendC::RoundMode::CAST_NONE: return "CAST_NONE";
    case AscendC::RoundMode::CAST_RINT: return "CAST_RINT";
    case AscendC::RoundMode::CAST_FLOOR: return "CAST_FLOOR";
    case AscendC::RoundMode::CAST_CEIL: return "CAST_CEIL";
    case AscendC::RoundMode::CAST_ROUND: return "CAST_ROUND";
    case AscendC::RoundMode::CAST_TRUNC: return "CAST_TRUNC";
    case AscendC::RoundMode::CAST_ODD: return "CAST_ODD";
  }
  return "?";
}

void VecBinary(VecOp op, float* dst, const float* a, const float* b, uint32_t n) {
  switch (op) {
    case VecOp::kAdd: ForEach(n, [&](uint32_t i) { dst[i] = a[i] + b[i]; }); break;
    case VecOp::kSub: ForEach(n, [&](uint32_t i) { dst[i] = a[i] - b[i]; }); break;
    case VecOp::kMul: ForEach(n, [&](uint32_t i) { dst[i] = a[i] * b[i]; }); break;
    case VecOp::kDiv: ForEach(n, [&](uint32_t i) { dst[i] = a[i] / b[i]; }); break;
    case VecOp::kSqrt: break;
  }
}

void VecBinary(VecOp op, half* dst, const half* a, const half* b, uint32_t n) {
  switch (op) {
    case VecOp::kAdd: ForEach(n, [&](uint32_t i) { dst[i] = half(float(a[i]) + float(b[i])); }); break;
    case VecOp::kSub: ForEach(n, [&](uint32_t i) { dst[i] = half(float(a[i]) - float(b[i])); }); break;
    case VecOp::kMul: ForEach(n, [&](uint32_t i) { dst[i] = half(float(a[i]) * float(b[i])); }); break;
    case VecOp::kDiv: ForEach(n, [&](uint32_t i) { dst[i] = half(float(a[i]) / float(b[i])); }); break;
    case VecOp::kSqrt: break;
  }
}

void VecScalar(VecOp op, float* dst, const float* a, float s, uint32_t n) {
  switch (op) {
    case VecOp::kAdd: ForEach(n, [&](uint32_t i) { dst[i] = a[i] + s; }); break;
    case VecOp::kMul: ForEach(n, [&](uint32_t i) { dst[i] = a[i] * s; }); break;
    default: break;
  }
}

void VecScalar(VecOp op, half* dst, const half* a, half s, uint32_t n) {
  const float fs = float(s);
  switch (op) {
    case VecOp::kAdd: ForEach(n, [&](uint32_t i) { dst[i] = half(float(a[i]) + fs); }); break;
    case VecOp::kMul: ForEach(n, [&](uint32_t i) { dst[i] = half(float(a[i]) * fs); }); break;
    default: break;
  }
}

void VecUnary(VecOp op, float* dst, const float* a, uint32_t n) {
  if (op == VecOp::kSqrt) ForEach(n, [&](uint32_t i) { dst[i] = std::sqrt(a[i]); });
}

void VecUnary(VecOp op, half* dst, const half* a, uint32_t n) {
  if (op == VecOp::kSqrt) ForEach(n, [&](uint32_t i) { dst[i] = half(std::sqrt(float(a[i]))); });
}

void VecCast(float* dst, const half* src, uint32_t n) {
  ForEach(n, [&](uint32_t i) { dst[i] = HalfBitsToFloat(src[i].bits); });
}

half FloatToHalf(float f, AscendC::RoundMode mode) noexcept {
  const uint16_t rne = FloatToHalfBits(f);
  if (mode == AscendC::RoundMode::CAST_NONE || mode == AscendC::RoundMode::CAST_RINT || std::isnan(f)) {
    return half::FromBits(rne);
  }
  const float back = HalfBitsToFloat(rne);
  if (back == f) return half::FromBits(rne);  // exact (including +-0 and +-inf)
  const uint16_t lo = back > f ? HalfNextDown(rne) : rne;
  const uint16_t hi = back > f ? rne : HalfNextUp(rne);
  uint16_t r = rne;
  switch (mode) {
    case AscendC::RoundMode::CAST_FLOOR: r = lo; break;
    case AscendC::RoundMode::CAST_CEIL: r = hi; break;
    case AscendC::RoundMode::CAST_TRUNC: r = f > 0 ? lo : hi; break;
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
    case AscendC::RoundMode::CAST_ODD: r = (lo & 1u) ? lo : hi; break;
    default: break;
  }
  return half::FromBits(r);
}

void VecCast(half* dst, const float* src, AscendC::RoundMode mode, uint32_t n) {
  if (mode == AscendC::RoundMode::CAST_NONE || mode == AscendC::RoundMode::CAST_RINT) {
    ForEach(n, [&](uint32_t i) { dst[i] = half::FromBits(FloatToHalfBits(src[i])); });
  } else {
    ForEach(n, [&](uint32_t i) { dst[i] = FloatToHalf(src[i], mode); });
  }
}

}  // namespace lngrad::aicore::detail
