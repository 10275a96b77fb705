// lngrad_replay: GroupNorm on arch 2201 (groupnorm_common_impl.h), general and small-shape
// paths, one element operation at a time on a model of the sharedTmpBuffer (README.md).
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "replay_norm_ext.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kLanes = 64;

// The level-2 ReduceSum (count form) as lngrad's basic instruction computes it: below 64 one
// tree; else one tree per full repeat, trees over groups of 64 repeat sums, one tree over
// those, and the count % 64 tail's tree added to the body.
float Level2Sum(const float* v, uint32_t n) {
  if (n < kLanes) return TreeSum64(v, n);
  const uint32_t reps = n / kLanes, tail = n % kLanes;
  std::vector<float> t(reps);
  for (uint32_t r = 0; r < reps; ++r) t[r] = TreeSum64(v + kLanes * r, kLanes);
  float value = t[0];
  if (reps > 1) {
    const uint32_t groups = (reps + kLanes - 1) / kLanes;
    for (uint32_t j = 0; j < groups; ++j) {
      t[j] = TreeSum64(t.data() + kLanes * j, std::min(kLanes, reps - kLanes * j));
    }
    value = groups == 1 ? t[0] : TreeSum64(t.data(), groups);
  }
  return tail == 0 ? value : value + TreeSum64(v + kLanes * reps, tail);
}

// WholeReduceSum's first mask of the small shape: dhwA itself up to 64, else the largest
// multiple of 8 below 64 that divides it.
uint32_t Mask1(uint32_t dhwA) {
  if (dhwA <= kLanes) return dhwA;
  uint32_t m = kLanes;
  while (m != 0 && dhwA % m != 0) m -= 8;
  return m;
}

struct GnChunk {
  uint32_t kb;    // the chunk's first group (loopCount·bsCurLength + mvOffset)
  bool mvOffset;  // a tail chunk with a nonzero group offset
  float* a;       // the three work tensors (float + isReuseSource: a is x's base)
  float* b;
  float* c;
  float* mean;  // float statistics, indexed by group
  float* var;
  float eps;
};

// rstd per group into tmp[group % 64] (Adds, Duplicate 1, Sqrt, Div under a one-lane mask),
// then the group's dhwA values scaled by it.
void Pre(const GnPlan& p, const GnChunk& k, float* inout, float* tmp, float* ones) {
  for (uint32_t i = 0; i < p.bsCurLength; ++i) {
    const uint32_t grp = k.kb + i, bit = grp % kLanes;
    tmp[bit] = k.var[grp] + k.eps;
    ones[bit] = 1.0f;
    tmp[bit] = std::sqrt(tmp[bit]);
    tmp[bit] = ones[bit] / tmp[bit];
  }
  for (uint32_t i = 0; i < p.bsCurLength; ++i) {
    const float r = tmp[(k.kb + i) % kLanes];
    for (uint32_t e = 0; e < p.dhwAlignSize; ++e) {
      inout[i * p.dhwAlignSize + e] = inout[i * p.dhwAlignSize + e] * r;
    }
  }
}

// ·gamma, then +beta, over each channel's hw values.
void Output(const GnPlan& p, const GnChunk& k, float* inout, const float* gammaF,
            const float* betaF) {
  const uint32_t channels = p.bsCurLength * p.d;
  for (uint32_t ch = 0; ch < channels; ++ch) {
    const float gv = gammaF[(k.kb * p.d + ch) % p.c];
    for (uint32_t j = 0; j < p.hw; ++j) inout[ch * p.hwAlignSize + j] *= gv;
  }
  for (uint32_t ch = 0; ch < channels; ++ch) {
    const float bv = betaF[(k.kb * p.d + ch) % p.c];
    for (uint32_t j = 0; j < p.hw; ++j) inout[ch * p.hwAlignSize + j] += bv;
  }
}

// dst = src + (-mean) over each channel's hw values (the padding not written).
void Centre(const GnPlan& p, const GnChunk& k, float* dst, const float* src) {
  for (uint32_t ch = 0; ch < p.bsCurLength * p.d; ++ch) {
    const float neg = -1.0f * k.mean[k.kb + ch / p.d];
    for (uint32_t j = 0; j < p.hw; ++j) {
      dst[ch * p.hwAlignSize + j] = src[ch * p.hwAlignSize + j] + neg;
    }
  }
}

// Scales stat[group] by factor: the general path's mask 1 << group on stat[0]'s repeat.
void Scale(const GnPlan& p, const GnChunk& k, float* stat) {
  for (uint32_t i = 0; i < p.bsCurLength; ++i) stat[k.kb + i] = stat[k.kb + i] * p.factor;
}

// General path: level-2 ReduceSum per group over dhwA values; src is x (float: work is the
// output, zeroed after the mean) or its float copy (half: work is src, centred in place).
void General(const GnPlan& p, const GnChunk& k, const float* src, float* work, float* sq,
             bool zeroWork) {
  const uint32_t dhwA = p.dhwAlignSize;
  for (uint32_t i = 0; i < p.bsCurLength; ++i) k.mean[k.kb + i] = Level2Sum(src + i * dhwA, dhwA);
  Scale(p, k, k.mean);
  if (zeroWork) std::fill(work, work + p.bshCurLength, 0.0f);
  Centre(p, k, work, src);
  for (uint32_t e = 0; e < p.bshCurLength; ++e) sq[e] = work[e] * work[e];
  for (uint32_t i = 0; i < p.bsCurLength; ++i) k.var[k.kb + i] = Level2Sum(sq + i * dhwA, dhwA);
  Scale(p, k, k.var);
}

// Small shape: WholeReduceSum trees of mask1 lanes into every 8th slot of part, then trees of
// mask2 lanes over those (meanVarRoundSize groups' worth of first trees, as the device).
void SmallSums(const GnPlan& p, const GnChunk& k, const float* src, float* part, float* stat) {
  const uint32_t m1 = Mask1(p.dhwAlignSize), per = p.dhwAlignSize / m1, m2 = per * 8;
  for (uint32_t r = 0; r < per * p.meanVarRoundSize; ++r) part[8 * r] = TreeSum64(src + r * m1, m1);
  for (uint32_t i = 0; i < p.bsCurLength; ++i) stat[k.kb + i] = TreeSum64(part + i * m2, m2);
  Scale(p, k, stat);
}

}  // namespace

template <class T>
void ReplayGroupNorm(GnPlan& p, T* x, const T* gamma, const T* beta, T epsilon, T* y, T* mean,
                     T* var, uint32_t total, float* scratch, uint32_t scratchFloats,
                     bool isReuseSource) {
  constexpr bool kHalf = std::is_same_v<T, Half>;
  const uint32_t groups = p.n * p.g, round = p.inputRoundSize;
  // x and y as float with room for the device's reads and writes past the tensors.
  const size_t room = static_cast<size_t>(total) + round + groups + kLanes;
  std::vector<float> xf(room, 0.0f), yf(room, 0.0f), gf(p.c), bf(p.c);
  for (uint32_t i = 0; i < total; ++i) xf[i] = ToFloat(x[i]);
  for (uint32_t i = 0; i < total; ++i) yf[i] = ToFloat(y[i]);
  for (uint32_t i = 0; i < p.c; ++i) gf[i] = ToFloat(gamma[i]);
  for (uint32_t i = 0; i < p.c; ++i) bf[i] = ToFloat(beta[i]);
  std::vector<float> mvf(2 * static_cast<size_t>(groups) + kLanes, 0.0f);
  GnChunk k{0,
            false,
            scratch + p.firstTmpStartPos,
            scratch + p.secondTmpStartPos,
            scratch + p.thirdTmpStartPos,
            nullptr,
            nullptr,
            ToFloat(epsilon)};
  if (kHalf) {
    k.mean = scratch + p.meanTmpTensorPos;
    k.var = scratch + p.varianceTmpTensorPos;
  } else {
    k.mean = mvf.data();
    k.var = mvf.data() + groups;
    if (isReuseSource) {
      k = GnChunk{
          0,      false, xf.data(), scratch + p.firstTmpStartPos, scratch + p.secondTmpStartPos,
          k.mean, k.var, k.eps};
    }
  }
  const auto chunk = [&](size_t off) {
    float* src = xf.data() + off;
    float* out = yf.data() + off;
    if (!kHalf && !p.smallShape) {
      General(p, k, src, out, k.c, true);
      Pre(p, k, out, k.a, k.b);
      Output(p, k, out, gf.data(), bf.data());
      return;
    }
    if (!kHalf) {
      if (k.mvOffset) {
        for (uint32_t i = 0; i < p.bsCurLength; ++i) out[k.kb + i] = 0.0f;
      } else {
        std::fill(out, out + round, 0.0f);
      }
      std::fill(k.c, k.c + round, 0.0f);
      SmallSums(p, k, src, k.c, k.mean);
      Centre(p, k, out, src);
      for (uint32_t e = 0; e < p.bshCurLength; ++e) k.c[e] = out[e] * out[e];
      std::fill(k.a, k.a + round, 0.0f);
      SmallSums(p, k, k.c, k.a, k.var);
      Pre(p, k, out, k.a, k.b);
      Output(p, k, out, gf.data(), bf.data());
      return;
    }
    const size_t room3 = static_cast<size_t>(scratchFloats - p.firstTmpStartPos);
    const size_t zero = p.smallShape
                            ? std::min(static_cast<size_t>(round) * p.numberOfTmpBuf, room3)
                            : p.bshCurLength;
    std::fill(k.a, k.a + zero, 0.0f);
    std::copy(src, src + round, k.b);
    if (p.smallShape) {
      SmallSums(p, k, k.b, k.c, k.mean);
      Centre(p, k, k.b, k.b);
      for (uint32_t e = 0; e < p.bshCurLength; ++e) k.c[e] = k.b[e] * k.b[e];
      SmallSums(p, k, k.c, k.a, k.var);
    } else {
      General(p, k, k.b, k.b, k.c, false);
    }
    Pre(p, k, k.b, k.a, k.c);
    std::copy(gf.begin(), gf.end(), k.a);
    std::copy(bf.begin(), bf.end(), k.c);
    Output(p, k, k.b, k.a, k.c);
    for (uint32_t e = 0; e < round; ++e) out[e] = ToFloat(FloatToHalf(k.b[e]));
  };
  for (uint32_t i = 0; i < p.loopRound; ++i) {
    k.kb = i * p.bsCurLength;
    chunk(static_cast<size_t>(i) * round);
  }
  if (p.inputTailSize > 0) {
    p.bshCurLength = p.inputTailSize;
    p.bsCurLength = p.meanVarTailSize;
    k.kb = p.meanVarTailPos;
    k.mvOffset = p.meanVarTailPos != 0;
    chunk(p.inputTailPos);
    p.bshCurLength = p.inputRoundSize;
    p.bsCurLength = p.meanVarRoundSize;
  }
  for (uint32_t i = 0; i < total; ++i) y[i] = FromFloat<T>(yf[i]);
  if constexpr (std::is_same_v<T, float>) {
    if (isReuseSource) std::copy(xf.begin(), xf.begin() + total, x);
  }
  for (uint32_t i = 0; i < groups; ++i) mean[i] = FromFloat<T>(k.mean[i]);
  for (uint32_t i = 0; i < groups; ++i) var[i] = FromFloat<T>(k.var[i]);
}

template void ReplayGroupNorm<float>(GnPlan&, float*, const float*, const float*, float, float*,
                                     float*, float*, uint32_t, float*, uint32_t, bool);
template void ReplayGroupNorm<Half>(GnPlan&, Half*, const Half*, const Half*, Half, Half*, Half*,
                                    Half*, uint32_t, float*, uint32_t, bool);

}  // namespace lngrad_replay
