// lngrad: AscendC::GroupNorm over [N, C, H, W] (the toolkit's adv_api/normalization/groupnorm.h),
// C in groupNum groups of d = C/groupNum channels, each channel's H*W padded to hwAlignSize
// (32 bytes); mean and variance per (n, group) over its d*H*W values; y = gamma[ch] *
// (x - mean) * rstd + beta[ch]. Both prototypes:
//
//   GroupNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
//                               sharedTmpBuffer, epsilon, tiling);
//   GroupNorm<T, isReuseSource>(..., beta, epsilon, tiling);  // scratch from PopStackBuffer
//
// T = half or float; tiling from GetGroupNormNDTilingInfo. The steps of
// groupnorm_common_impl.h, chunk by chunk of bsCurLength groups:
//   sums over each group's dhwAlignSize values (padding included): the level-2 ReduceSum
//   (the rounds of lngrad's ReduceSum instruction) or, for tiling.smallShape, a WholeReduceSum of
//   mask1-wide trees then one tree over the partials laid 8 apart among zeros; * factor
//   (1/(d*H*W)); x + (-mean) over each channel's H*W values; its square summed the same way, *
//   factor; rstd = 1 / sqrt(var + eps) (Adds, Sqrt, Div of ones) per group, kept in 64 slots (group
//   index mod 64) and multiplied over the group's dhwAlignSize values; then * gamma[ch] and
//   + beta[ch] over each channel's H*W values (half: x, gamma, beta cast to float first, y cast
//   back, mean/variance staged in float and cast at the end).
// Float: the output tensor serves as the work buffer and its padding ends 0 (a small-shape tail
// chunk at a nonzero group offset keeps the output's old padding, which enters the variance, as
// on the device); float + isReuseSource: x's base is the device's tmp A. Half: x's padding
// (cast) stays in the work buffer and enters the variance sums, as on the device. Arch 3510 runs
// the register code's order instead (groupnorm_3510.h).
//
// Always raised: Atlas inference (2002), training and 200I/500 A2 products (the page's
// 不支持), operands shorter than the tiling's sizes, a scratch below the layout, a tiling whose
// chunks do not cover the input. Checked mode adds the tensor checks.
#pragma once

#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/groupnorm_3510.h"
#include "lib/normalization/norm_ext_common.h"

namespace lngrad::adv::ext {

struct GroupNormWork {
  float* a;
  float* b;
  float* c;
  float* mean;  // the call's float mean / variance (the outputs for float)
  float* var;
  float* reuseX = nullptr;  // float + isReuseSource: x's base, the device's tmp A
};

// The small shape's first WholeReduceSum mask: dhw up to 64, else the largest multiple of 8
// below 64 dividing it.
inline uint32_t GroupNormMask1(uint32_t dhw) {
  uint32_t mask1 = dhw;
  if (dhw > kLanes) {
    mask1 = kLanes;
    while (mask1 != 0 && dhw % mask1 != 0) mask1 -= 8;
  }
  return mask1;
}

// One group's sum over its dhw values at src (small shape: mask1-wide trees, then the tree of
// mask2 lanes holding the partials 8 apart among zeros; else the level-2 ReduceSum). partOut
// (small shape, nullable): where the device's first trees land, partOut[8k].
inline float GroupNormGroupSum(const GroupNormTiling& t, const float* src,
                               float* partOut = nullptr) {
  const uint32_t dhw = t.dhwAlignSize;
  if (!t.smallShape) return Level2SumTrees(src, dhw);
  const uint32_t mask1 = GroupNormMask1(dhw);
  const uint32_t parts = dhw / mask1;
  float lanes[kLanes] = {};
  for (uint32_t k = 0; k < parts; ++k) lanes[8 * k] = Tree(src + uint64_t{k} * mask1, mask1);
  for (uint32_t k = 0; partOut != nullptr && k < parts; ++k) partOut[8 * k] = lanes[8 * k];
  return Tree(lanes, parts * 8);
}

// One chunk of `groups` groups starting at group g0 of the call (element offset off); tailOffset:
// the tail chunk at a nonzero group offset (the device's mvOffset != 0).
template <typename D>
void GroupNormChunk(const GroupNormTiling& t, const GroupNormWork& w, const D* x, const D* gamma,
                    const D* beta, D* y, float eps, uint64_t off, uint32_t groups, uint32_t g0,
                    bool tailOffset = false) {
  const Ops& ops = StepOps();
  const uint32_t dhw = t.dhwAlignSize;
  const uint32_t hwa = t.hwAlignSize;
  const uint64_t n = uint64_t{groups} * dhw;
  const uint32_t channels = groups * t.d;
  // The work buffer: the output itself for float, B for half (x cast into it).
  float* work = nullptr;
  const float* xf = nullptr;
  if constexpr (std::is_same_v<D, float>) {
    work = y + off;
    xf = x + off;
  } else {
    work = w.b;
    ToFloat(w.b, x + off, n);
    xf = w.b;
  }
  // Means: group sums.
  for (uint32_t i = 0; i < groups; ++i) {
    w.mean[g0 + i] = GroupNormGroupSum(t, xf + uint64_t{i} * dhw);
  }
  for (uint32_t i = 0; i < groups; ++i) ops.Muls(w.mean + g0 + i, w.mean + g0 + i, t.factor, 1);
  if constexpr (std::is_same_v<D, float>) {
    if (t.smallShape && tailOffset) {
      // groupnorm_common_impl.h, small shape with mvOffset: only output[group] is zeroed (a
      // one-lane Duplicate per group), so the output's old padding enters the variance sums.
      for (uint32_t i = 0; i < groups; ++i) {
        if (g0 + i < n) work[g0 + i] = 0.0f;
      }
    } else {
      ops.Fill(work, 0.0f, n);
    }
  }
  for (uint32_t ch = 0; ch < channels; ++ch) {
    ops.Adds(work + uint64_t{ch} * hwa, xf + uint64_t{ch} * hwa, -w.mean[g0 + ch / t.d], t.hw);
  }
  ops.Mul(w.c, work, work, n);
  // float + isReuseSource: the device's tmp A is x's base; the small shape zeroes it and keeps
  // the variance's first trees there (8 apart), both paths the rstd slots.
  float* a = w.reuseX;
  const uint32_t mask2 = dhw / GroupNormMask1(dhw) * 8;
  if (a != nullptr && t.smallShape) ops.Fill(a, 0.0f, t.inputRoundSize);
  for (uint32_t i = 0; i < groups; ++i) {
    float* part = a != nullptr && t.smallShape ? a + uint64_t{i} * mask2 : nullptr;
    w.var[g0 + i] = GroupNormGroupSum(t, w.c + uint64_t{i} * dhw, part);
  }
  for (uint32_t i = 0; i < groups; ++i) ops.Muls(w.var + g0 + i, w.var + g0 + i, t.factor, 1);
  float slots[kLanes] = {};
  const float one = 1.0f;
  for (uint32_t i = 0; i < groups; ++i) {
    float* s = slots + (g0 + i) % kLanes;
    ops.Adds(s, w.var + g0 + i, eps, 1);
    ops.Sqrt(s, s, 1);
    ops.Div(s, &one, s, 1);
    if (a != nullptr) a[(g0 + i) % kLanes] = *s;
  }
  for (uint32_t i = 0; i < groups; ++i) {
    float* grp = work + uint64_t{i} * dhw;
    ops.Muls(grp, grp, slots[(g0 + i) % kLanes], dhw);
  }
  const uint32_t ch0 = g0 * t.d;
  float gb[2];
  for (uint32_t ch = 0; ch < channels; ++ch) {
    ToFloat(gb, gamma + (ch0 + ch) % t.c, 1);
    ops.Muls(work + uint64_t{ch} * hwa, work + uint64_t{ch} * hwa, gb[0], t.hw);
  }
  for (uint32_t ch = 0; ch < channels; ++ch) {
    ToFloat(gb + 1, beta + (ch0 + ch) % t.c, 1);
    ops.Adds(work + uint64_t{ch} * hwa, work + uint64_t{ch} * hwa, gb[1], t.hw);
  }
  if constexpr (!std::is_same_v<D, float>) FromFloat(y + off, work, n);
}

// float + isReuseSource: x is the first work tensor, the scratch holds two.
inline uint64_t GroupNormScratchFloats(const GroupNormTiling& t, bool half, bool reuse) {
  uint64_t end =
      uint64_t{(reuse && !half) ? t.secondTmpStartPos : t.thirdTmpStartPos} + t.oneTmpSize;
  if (half) end = std::max<uint64_t>(end, uint64_t{t.varianceTmpTensorPos} + t.meanVarSize);
  return std::max<uint64_t>(end, t.tmpBufSize);
}

}  // namespace lngrad::adv::ext

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                                 GroupNormTiling& tiling,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GroupNorm only support data type: float/half");
  namespace ne = lngrad::adv::ext;
  namespace nd = lngrad::adv::detail;
  constexpr const char* kApi = "GroupNorm";
  constexpr bool kHalf = std::is_same_v<T, half>;
  if ASCEND_IS_AIC {
    return;
  }
  ne::RequireProduct(kApi);
  const lngrad::Product& p = lngrad::aicore::CurrentBlockProduct();
  if (p.arch == lngrad::NpuArch::k2002) nd::RaiseUnsupported(kApi, p);
  if (lngrad::aicore::CheckedMode()) {
    nd::CheckTensors(kApi, "output", output, "outputMean", outputMean, "outputVariance",
                     outputVariance, "inputX", inputX, "gamma", gamma, "beta", beta,
                     "sharedTmpBuffer", sharedTmpBuffer);
  }
  GroupNormTiling& t = tiling;
  ne::Require(t.d > 0 && t.dhwAlignSize == t.d * t.hwAlignSize && t.hw <= t.hwAlignSize &&
                  t.meanVarSize == t.n * t.g && t.inputXSize == t.meanVarSize * t.dhwAlignSize &&
                  t.bsCurLength > 0 && t.inputRoundSize == t.bsCurLength * t.dhwAlignSize &&
                  uint64_t{t.loopRound} * t.inputRoundSize + t.inputTailSize == t.inputXSize,
              kApi, "tiling", "the tiling's sizes do not describe [N, C, H, W] in its chunks");
  ne::CheckHolds(kApi, "inputX", inputX, t.inputXSize);
  ne::CheckHolds(kApi, "output", output, t.inputXSize);
  ne::CheckHolds(kApi, "outputMean", outputMean, t.meanVarSize);
  ne::CheckHolds(kApi, "outputVariance", outputVariance, t.meanVarSize);
  ne::CheckHolds(kApi, "gamma", gamma, t.c);
  ne::CheckHolds(kApi, "beta", beta, t.c);
  constexpr bool kReuse = isReuseSource && !kHalf;
  const uint64_t scratch = ne::GroupNormScratchFloats(t, kHalf, isReuseSource) * 4;
  ne::CheckScratch(kApi, sharedTmpBuffer, scratch, "the tiling's layout");
  ne::Record(kApi, loc,
             {{inputX.HostPtr(), uint64_t{t.inputXSize} * sizeof(T), kReuse},
              {gamma.HostPtr(), uint64_t{t.c} * sizeof(T), false},
              {beta.HostPtr(), uint64_t{t.c} * sizeof(T), false},
              {sharedTmpBuffer.HostPtr(), scratch, true},
              {output.HostPtr(), uint64_t{t.inputXSize} * sizeof(T), true},
              {outputMean.HostPtr(), uint64_t{t.meanVarSize} * sizeof(T), true},
              {outputVariance.HostPtr(), uint64_t{t.meanVarSize} * sizeof(T), true}});
  const auto* x = ne::Ptr(inputX);
  const auto* g = ne::Ptr(gamma);
  const auto* b = ne::Ptr(beta);
  auto* y = ne::Ptr(output);
  const float eps = ne::ScalarOf(epsilon);
  if (ne::RegBase()) {
    ne::GroupNorm3510(t, x, g, b, y, ne::Ptr(outputMean), ne::Ptr(outputVariance), eps);
    return;
  }
  float* stack = reinterpret_cast<float*>(sharedTmpBuffer.HostPtr());
  ne::GroupNormWork w{stack + t.firstTmpStartPos, stack + t.secondTmpStartPos,
                      stack + t.thirdTmpStartPos, nullptr, nullptr};
  if constexpr (kHalf) {
    w.mean = stack + t.meanTmpTensorPos;
    w.var = stack + t.varianceTmpTensorPos;
  } else {
    w.mean = outputMean.HostPtr();
    w.var = outputVariance.HostPtr();
    if constexpr (kReuse) {
      w.reuseX = inputX.HostPtr();
      w.c = stack + t.secondTmpStartPos;
    }
  }
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    ne::GroupNormChunk(t, w, x, g, b, y, eps, uint64_t{i} * t.inputRoundSize, t.bsCurLength,
                       i * t.bsCurLength);
  }
  if (t.inputTailSize > 0) {
    t.bshCurLength = t.inputTailSize;
    t.bsCurLength = t.meanVarTailSize;
    ne::GroupNormChunk(t, w, x, g, b, y, eps, t.inputTailPos, t.meanVarTailSize, t.meanVarTailPos,
                       t.meanVarTailPos != 0);
    t.bshCurLength = t.inputRoundSize;
    t.bsCurLength = t.meanVarRoundSize;
  }
  if constexpr (kHalf) {
    ne::FromFloat(ne::Ptr(outputMean), w.mean, t.meanVarSize);
    ne::FromFloat(ne::Ptr(outputVariance), w.var, t.meanVarSize);
  }
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const T epsilon, GroupNormTiling& tiling,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if ASCEND_IS_AIC {
    return;
  }
  const LocalTensor<uint8_t> stack = lngrad::adv::detail::PopStackBufferFor("GroupNorm");
  GroupNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, stack,
                              epsilon, tiling, loc);
}

}  // namespace AscendC
