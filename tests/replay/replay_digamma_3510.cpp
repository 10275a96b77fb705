// Digamma on arch 3510 with what its half path leaves in sharedTmpBuffer (replay_math.h,
// ReplayDigamma3510). Provenance: a separate reading, by the helper who also changed lngrad to
// match, of the toolkit's impl/adv_api/detail/math/digamma/digamma_3510_impl.h (mirror commit
// 82b89a15f), written before lngrad's scratch code and only then compared with it (the helper
// had read lngrad's digamma.h, whose float chain this replay now checks bit for bit). It
// follows, per lane of DigammaComputeImpl (every instruction under the full mask, one IEEE
// binary32 operation each, Ln in double rounded once; the store masked to calCount):
// - the sum starts at +0 and each case adds Select(value, 0, mask) to it: the NaN constant
//   0x7fc00000 for x <= -2^23, for the negative integers above it (x == float(int(x)), the casts
//   CAST_ROUND) and for NaN x (neither x < 0 nor x >= 0: the constant again, not x), then
//   P(x) for x >= 0 and P(1 - x) + pi * R(x) for x < 0;
// - P(x) = (ln(x + 10) - (1 / (x + 10)) * 0.5 - z * c) - (1 / x + sum 1 / (x + k), k = 1..9),
//   z = (1 / (x + 10))^2, c from 1/12 by c = k_i - z * c over the six constants;
// - R(x): t = 2x, r = round(t) (half away), f = (t - r) * (pi / 2), the parity r & 1 (And of the
//   int32 lanes with 1); p = 0.0093383789065 and p = p * f^2 + c_i over five constants, then
//   p * f^2 * f + f: selected where the parity is 1, -1 over it where it is 0, times pi.
// - half: Cast CAST_NONE widens src into work[0, n) as floats, the float results go to
//   work[countAlign, countAlign + n) (countAlign = n rounded up to 16), and the Cast back
//   (to nearest even) writes dst. Float: no scratch.
// No code shared with lngrad.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "replay_math.h"

namespace lngrad_replay {
namespace {

float Sel(bool m, float v) { return m ? v : 0.0f; }

float Positive(float x) {
  const float one = 1.0f;
  float t1 = x + 10.0f;
  float d = static_cast<float>(std::log(static_cast<double>(t1)));
  t1 = one / t1;
  float t2 = t1 * 0.5f;
  d = d - t2;
  t1 = t1 * t1;
  t2 = static_cast<float>(8.33333333333333333333e-2);
  const float ks[] = {2.10927960927960927961e-2f, 7.57575757575757575758e-3f,
                      4.16666666666666666667e-3f, 3.96825396825396825397e-3f,
                      8.33333333333333333333e-3f, 8.33333333333333333333e-2f};
  for (float k : ks) {
    t2 = t1 * t2;
    t2 = k - t2;
  }
  t2 = t1 * t2;
  d = d - t2;
  float s = one / x;
  for (int k = 1; k <= 9; ++k) {
    float u = x + static_cast<float>(k);
    u = one / u;
    s = s + u;
  }
  return d - s;
}

float Reflection(float x) {
  float t1 = x + x;
  const float r = std::round(t1);  // CAST_ROUND to int32, back to float: exact here
  t1 = t1 - r;
  t1 = t1 * 1.5707963267948966f;
  const int64_t ri = std::fabs(r) < 2147483648.0f ? static_cast<int64_t>(r) : 0;
  const float parity = static_cast<float>(static_cast<int32_t>(ri) & 1);
  const bool m1 = parity < 0.5f, m2 = parity >= 0.5f;
  const float t2 = t1 * t1;
  float d = 0.0093383789065f;
  const float cs[] = {0.00326538085938f, 0.0242919921875f, 0.053466796875f, 0.133377909660f,
                      0.333332300186f};
  for (float c : cs) {
    d = d * t2;
    d = d + c;
  }
  d = d * t2;
  d = d * t1;
  t1 = d + t1;
  float out = 0.0f;
  out = Sel(m2, t1) + out;
  t1 = -1.0f / t1;
  out = Sel(m1, t1) + out;
  return out * 3.141592653589793238f;
}

float Digamma(float x) {
  const float nan = std::bit_cast<float>(0x7fc00000u);
  float d = 0.0f;
  d = Sel(x <= -8388608.0f, nan) + d;
  const float xr = std::fabs(x) < 2147483648.0f ? std::round(x) : x;
  d = Sel(x < 0.0f && x > -8388608.0f && x == xr, nan) + d;
  d = Sel(!(x < 0.0f) && !(x >= 0.0f), nan) + d;
  d = Sel(x >= 0.0f, Positive(x)) + d;
  float y = x * -1.0f;
  y = y + 1.0f;
  const float neg = Positive(y) + Reflection(x);
  d = Sel(x < 0.0f, neg) + d;
  return d;
}

}  // namespace

float ReplayDigamma3510Float(float x) { return Digamma(x); }

void ReplayDigamma3510(const float* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = Digamma(src[i]);
}

void ReplayDigamma3510(const Half* src, Half* dst, size_t n, uint8_t* scratch) {
  const size_t align = (n + 15) / 16 * 16;
  float* work = reinterpret_cast<float*>(scratch);
  for (size_t i = 0; i < n; ++i) work[i] = HalfToFloat(src[i]);
  for (size_t i = 0; i < n; ++i) work[align + i] = Digamma(work[i]);
  for (size_t i = 0; i < n; ++i) dst[i] = FloatToHalf(work[align + i]);
}

}  // namespace lngrad_replay
