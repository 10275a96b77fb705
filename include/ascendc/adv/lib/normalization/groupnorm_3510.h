// lngrad: GroupNorm on the 950 (arch 3510; the toolkit's groupnorm_3510_impl.h), the register
// code's order over all n * g groups at once (no chunks), in float (half x, gamma, beta widened):
//   mean = the group's dhwAlignSize values (padding included) summed level by level in 64-lane
//     register trees (one level up to 64 values, two up to 4096, three beyond), * factor;
//   variance = the same sums of (x - mean)^2 over each channel's hw values, its padding lanes
//     0 (the masked Sub and Mul zero them), * factor;
//   rstd = 1 / sqrt(variance + epsilon) (Adds, Sqrt, Div of ones);
//   y = fma((x - mean) * rstd, gamma[ch], beta[ch]) over each channel's hwAlignSize values
//     (FusedMulDstAdd: one rounding; the padding too), half y rounded to nearest even.
// Float: mean and variance written to the outputs; half: cast (round to nearest even) from the
// float values, which the later steps use. x is not written (isReuseSource changes nothing).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/norm_ext_common.h"
#include "lib/reduce/reduce_3510.h"

namespace lngrad::adv::ext {

// One group of GroupNorm on 3510: x and y point at the group's d * hwAlignSize values, gamma and
// beta at its d channels'.
template <typename D>
void GroupNormGroup3510(const GroupNormTiling& t, const D* x, const D* gamma, const D* beta, D* y,
                        float eps, float* mean, float* var) {
  namespace rd = lngrad::aicore::reduce_detail;
  const uint32_t hwA = t.hwAlignSize, n = t.d * hwA;
  std::vector<float> xs(n), sq(n, 0.0f), row(hwA);
  ToFloat(xs.data(), x, n);
  const float m = rd::SumRow3510(xs.data(), n) * t.factor;
  for (uint32_t c = 0; c < t.d; ++c) {
    for (uint32_t k = 0; k < t.hw; ++k) {
      const float dx = xs[c * hwA + k] - m;
      sq[c * hwA + k] = dx * dx;
    }
  }
  const float v = rd::SumRow3510(sq.data(), n) * t.factor;
  const float rstd = 1.0f / std::sqrt(v + eps);
  for (uint32_t c = 0; c < t.d; ++c) {
    float g, b;
    ToFloat(&g, gamma + c, 1);
    ToFloat(&b, beta + c, 1);
    for (uint32_t k = 0; k < hwA; ++k) row[k] = std::fma((xs[c * hwA + k] - m) * rstd, g, b);
    FromFloat(y + uint64_t{c} * hwA, row.data(), hwA);
  }
  *mean = m;
  *var = v;
}

template <typename D>
void GroupNorm3510(const GroupNormTiling& t, const D* x, const D* gamma, const D* beta, D* y,
                   D* outMean, D* outVar, float eps) {
  const uint64_t groups = uint64_t{t.n} * t.g, dhwA = t.dhwAlignSize;
  std::vector<float> mean(groups), var(groups);
  for (uint64_t i = 0; i < groups; ++i) {
    const uint64_t ch = (i % t.g) * t.d;
    GroupNormGroup3510(t, x + i * dhwA, gamma + ch, beta + ch, y + i * dhwA, eps, &mean[i],
                       &var[i]);
  }
  FromFloat(outMean, mean.data(), groups);
  FromFloat(outVar, var.data(), groups);
}

}  // namespace lngrad::adv::ext
