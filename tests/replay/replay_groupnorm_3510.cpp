// GroupNorm on the 950 (replay_norm_ext.h), re-derived from the kit's groupnorm_3510_impl.h, not
// from lngrad's implementation: GroupNormRegbaseImpl's four passes (ReduceMeanCount per group,
// CalcVariance, CalcTmpOutput, CalcOutput) on 64-lane float registers. Reg::ReduceSum is lngrad's
// register tree (adjacent pairs, a lane outside the mask taking no part); masked Sub/Mul zero
// their inactive lanes; FusedMulDstAdd is one fused multiply-add.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "replay.h"
#include "replay_norm_ext.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kVl = 64;

// ReduceSumOrMean: `repeat` registers of src (count lanes in all), each register's sum stored.
std::vector<float> SumRegisters(const std::vector<float>& src, uint32_t count, uint32_t repeat) {
  std::vector<float> out(repeat);
  for (uint32_t i = 0; i < repeat; ++i) {
    const uint32_t active = std::min(count, kVl);
    count -= active;
    std::vector<float> reg(kVl, 0.0f);
    std::copy_n(src.begin() + i * kVl, std::min<size_t>(kVl, src.size() - i * kVl), reg.begin());
    out[i] = RegReduceSum(reg.data(), active, kVl);
  }
  return out;
}

// ReduceMeanCount<Scope> over `count` values (Scope from dhwAlignSize: one register, two levels
// up to 64 * 64, three beyond), the last register's sum times factor.
float MeanCount(const std::vector<float>& src, uint32_t count, uint32_t dhwAlign, float factor) {
  if (dhwAlign <= kVl) return SumRegisters(src, count, 1)[0] * factor;
  const uint32_t count2 = (count + kVl - 1) / kVl;
  std::vector<float> level = SumRegisters(src, count, count2);
  if (dhwAlign <= kVl * kVl) return SumRegisters(level, count2, 1)[0] * factor;
  const uint32_t count3 = (count2 + kVl - 1) / kVl;
  level = SumRegisters(level, count2, count3);
  return SumRegisters(level, count3, 1)[0] * factor;
}

}  // namespace

template <class T>
void ReplayGroupNorm3510(const GnPlan& p, const T* x, const T* gamma, const T* beta, T epsilon,
                         T* y, T* mean, T* var) {
  const uint32_t groups = p.n * p.g, hwA = p.hwAlignSize, dhwA = hwA * p.d;
  const uint32_t hwRepeat = (hwA + kVl - 1) / kVl;
  const bool alignedHw = p.hw % kVl == 0;
  std::vector<float> meanF(groups), varF(groups), rstd(groups);
  for (uint32_t i = 0; i < groups; ++i) {
    std::vector<float> xs(dhwA);
    for (uint32_t e = 0; e < dhwA; ++e) xs[e] = ToFloat(x[size_t{i} * dhwA + e]);
    meanF[i] = MeanCount(xs, dhwA, dhwA, p.factor);
  }
  for (uint32_t i = 0; i < groups; ++i) {  // CalcVariance
    std::vector<float> sq(dhwA, 0.0f);
    for (uint32_t c = 0; c < p.d; ++c) {
      uint32_t hwCount = alignedHw ? hwRepeat * kVl : p.hw;
      for (uint32_t j = 0; j < hwRepeat; ++j) {
        const uint32_t active = std::min(hwCount, kVl);
        hwCount -= active;
        for (uint32_t l = 0; l < kVl && j * kVl + l < hwA; ++l) {
          const float d = ToFloat(x[size_t{i} * dhwA + c * hwA + j * kVl + l]) - meanF[i];
          sq[c * hwA + j * kVl + l] = l < active ? d * d : 0.0f;
        }
      }
    }
    varF[i] = MeanCount(sq, dhwA, dhwA, p.factor);
  }
  const float eps = ToFloat(epsilon);
  for (uint32_t i = 0; i < groups; ++i) {  // CalcTmpOutput
    mean[i] = FromFloat<T>(meanF[i]);
    var[i] = FromFloat<T>(varF[i]);
    rstd[i] = 1.0f / std::sqrt(varF[i] + eps);
  }
  for (uint32_t i = 0; i < groups; ++i) {  // CalcOutput
    const uint32_t gi = i % p.g;
    for (uint32_t c = 0; c < p.d; ++c) {
      const float g = ToFloat(gamma[gi * p.d + c]), b = ToFloat(beta[gi * p.d + c]);
      for (uint32_t e = 0; e < hwA; ++e) {
        const size_t at = size_t{i} * dhwA + c * hwA + e;
        y[at] = FromFloat<T>(std::fma((ToFloat(x[at]) - meanF[i]) * rstd[i], g, b));
      }
    }
  }
}

template void ReplayGroupNorm3510<float>(const GnPlan&, const float*, const float*, const float*,
                                         float, float*, float*, float*);
template void ReplayGroupNorm3510<Half>(const GnPlan&, const Half*, const Half*, const Half*, Half,
                                        Half*, Half*, Half*);

}  // namespace lngrad_replay
