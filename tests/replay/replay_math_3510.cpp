// The element-wise math APIs on arch 3510 (replay_math.h), each re-read from the toolkit's
// impl/adv_api/detail/math/<api>/<api>_3510_impl.h: the register instructions on one lane, one
// IEEE binary32 operation each, the register Exp and Log in double rounded once to float.
// Half sources are widened exactly by the caller; the saturating cast back is the caller's
// (FloatToHalfSaturate). No code shared with lngrad.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "replay_math.h"

namespace lngrad_replay {
namespace {

float RegExp(float v) { return static_cast<float>(std::exp(static_cast<double>(v))); }
float RegLog(float v) { return static_cast<float>(std::log(static_cast<double>(v))); }

uint32_t BitsOf(float v) {
  uint32_t b = 0;
  std::memcpy(&b, &v, 4);
  return b;
}

}  // namespace

// ExpCompute: the factor table is Div(1, Arange(2)): lane j holds 1 / (j + 2); per lane
// i = Truncate<FLOOR>(x), d = x - i, e = Exp(i), s = d + 1, then for j < level - 1:
// p = p * d, p = p * table[j], s = s + p (p starting at d); r = e * s; the -inf lanes select 0,
// then the +inf lanes select +inf (both found by comparing the bits).
float ReplayExpTaylor3510(uint32_t level, float x) {
  const float i = std::floor(x);
  const float d = x - i;
  const float e = RegExp(i);
  float s = d + 1.0f;
  float p = d;
  for (uint32_t j = 0; level > 1 && j < level - 1u; ++j) {
    const float table_j = 1.0f / static_cast<float>(j + 2);
    p = p * d;
    p = p * table_j;
    s = s + p;
  }
  float r = e * s;
  if (BitsOf(x) == 0xff800000u) r = 0.0f;
  if (BitsOf(x) == 0x7f800000u) r = x;
  return r;
}

// LogXImpl: Log, then Muls by the float of 1.4426950408889634 (Log2) or 0.43429448190325176
// (Log10).
float ReplayLog2_3510(float x) { return RegLog(x) * static_cast<float>(1.4426950408889634); }
float ReplayLog10_3510(float x) { return RegLog(x) * static_cast<float>(0.43429448190325176); }

// AcoshImplVF: t = x * x, t = t + (-1), Sqrt, t = t + x, Ln (no t / t step).
float ReplayAcosh3510(float x) {
  float t = x * x;
  t = t + -1.0f;
  t = std::sqrt(t);
  t = t + x;
  return RegLog(t);
}

}  // namespace lngrad_replay
