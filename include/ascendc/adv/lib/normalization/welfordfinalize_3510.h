// lngrad: WelfordFinalize on the 950 (arch 3510; the toolkit's welfordfinalize_3510_impl.h), the
// register code's order, each step one float operation:
//
// Terms (K = abLength):
//   counts: mean t = float(count) * inMean; variance t = ((inMean - m)^2 * float(count)) + inVar;
//   no tail (tailCount or tailCountLength 0): mean t = inMean (over headCountLength), variance
//     t = inVar + (inMean - m)^2 * float(rnLength);
//   tail: mean t = inMean * float(tailCount), the first headCountLength then
//     * (float(headCount) / float(tailCount)); variance t = (inMean - m)^2 * float(tailCount)
//     (the head * the same ratio), then inVar + t.
// BinaryReduceSum of the n terms with h = the largest power of two <= n (no tail: <= abLength),
// c = h if h == K else 2h, s = the scale (abRec, rRec or, for the variance with
// config.isCorrection, rRecWithCorrection) times c:
//   n < 64: the register tree of the n values t * (1/c), times s;
//   else: for each 64-lane vector i of the n - h tail terms, the register tree of
//     t[64i + l] * (1/c) + (t[h + 64i + l] * (1/c), or +0 past the tail); then the register trees
//     of the remaining whole vectors of t[0, h) (t * (1/c)); those h / 64 partial sums halved as
//     64-value vectors (v[i] += v[i + half]) down to one vector, its register tree over
//     min(h / 64, 64) lanes, times s.
// outputMean[0] and outputVariance[0] get the results (elements 1..7 are not written); the
// variance uses the stored mean.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lib/normalization/welfordfinalize_utils.h"
#include "lib/reduce/reduce_3510.h"

namespace lngrad::adv::ext {

inline float RegTree3510(const float* v, uint32_t n) {
  namespace rd = lngrad::aicore::reduce_detail;
  return rd::LaneTree(rd::Op::kSum, v, n, rd::kVl3510);
}

// BinaryReduceSum: the sum of t[0, n) (h, c and s as above).
inline float WelfordBinarySum3510(const float* t, uint32_t n, uint32_t h, uint32_t c, float s) {
  constexpr uint32_t kVl = 64;
  const float rec = 1.0f / static_cast<float>(c);
  float v[kVl];
  if (n < kVl) {
    for (uint32_t i = 0; i < n; ++i) v[i] = t[i] * rec;
    return RegTree3510(v, n) * s;
  }
  const uint32_t tail = n - h, tailVl = (tail + kVl - 1) / kVl * kVl;
  std::vector<float> work;
  for (uint32_t b = 0; b < tailVl; b += kVl) {
    for (uint32_t l = 0; l < kVl; ++l) {
      v[l] = t[b + l] * rec + (b + l < tail ? t[h + b + l] * rec : 0.0f);
    }
    work.push_back(RegTree3510(v, kVl));
  }
  for (uint32_t b = tailVl; b < h; b += kVl) {
    for (uint32_t l = 0; l < kVl; ++l) v[l] = t[b + l] * rec;
    work.push_back(RegTree3510(v, kVl));
  }
  const uint32_t count = static_cast<uint32_t>(work.size());
  for (uint32_t vecs = (count + kVl - 1) / kVl; vecs > 1;) {
    vecs /= 2;
    for (uint32_t i = 0; i < vecs * kVl; ++i) work[i] += work[vecs * kVl + i];
  }
  return RegTree3510(work.data(), std::min(count, kVl)) * s;
}

// The terms of one of the three forms (mean when `mean`, else the variance about m).
inline void WelfordTerms3510(const AscendC::WelfordFinalizePara& p, const float* inMean,
                             const float* inVar, const int32_t* counts, bool mean, float m,
                             std::vector<float>& t) {
  const uint32_t ab = p.abLength;
  const bool noTail = p.tailCount == 0 || p.tailCountLength == 0;
  const float k = counts != nullptr ? 0.0f : static_cast<float>(noTail ? p.rnLength : p.tailCount);
  const float ratio = static_cast<float>(p.headCount) / static_cast<float>(p.tailCount);
  for (uint32_t i = 0; i < ab; ++i) {
    const float w = counts != nullptr ? static_cast<float>(counts[i]) : k;
    if (mean) {
      t[i] = counts != nullptr ? w * inMean[i] : (noTail ? inMean[i] : inMean[i] * w);
    } else {
      const float d = inMean[i] - m;
      t[i] = (d * d) * w;
    }
    if (counts == nullptr && !noTail && i < p.headCountLength) t[i] = t[i] * ratio;
    if (!mean) t[i] = counts != nullptr ? t[i] + inVar[i] : inVar[i] + t[i];
  }
}

template <bool isCorrection, class Para>
void WelfordFinalize3510(float* outMean, float* outVar, const float* inMean, const float* inVar,
                         const int32_t* counts, const Para& p) {
  const bool noTail = counts == nullptr && (p.tailCount == 0 || p.tailCountLength == 0);
  const uint32_t n = noTail ? p.headCountLength : p.abLength;
  uint32_t h = 1;
  while (h <= n / 2) h *= 2;
  const uint32_t c = h < p.abLength ? 2 * h : h;
  const float meanRec = noTail ? p.abRec : p.rRec;
  float varRec = p.rRec;
  if constexpr (isCorrection && requires { p.rRecWithCorrection; }) varRec = p.rRecWithCorrection;
  std::vector<float> t(p.abLength);
  WelfordTerms3510(p, inMean, inVar, counts, true, 0.0f, t);
  outMean[0] = WelfordBinarySum3510(t.data(), n, h, c, meanRec * static_cast<float>(c));
  WelfordTerms3510(p, inMean, inVar, counts, false, outMean[0], t);
  outVar[0] = WelfordBinarySum3510(t.data(), n, h, c, varRec * static_cast<float>(c));
}

}  // namespace lngrad::adv::ext
