// WelfordFinalize on the 950 (replay_norm_ext.h), re-derived from the kit's
// welfordfinalize_3510_impl.h, not from lngrad's implementation: WelfordFinalizeForB32 (with and
// without a tail), WelfordFinalizeWithCounts and BinaryReduceSum (ComputeMean64 / ComputeMeanVF)
// walked loop by loop on 64-lane registers. Reg::ReduceSum is lngrad's register tree (adjacent
// pairs, a lane outside the mask taking no part); masked Muls zero their inactive lanes.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "replay.h"
#include "replay_norm_ext.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kVl = 64;

// CalculateMainBlock: the top bit of count.
uint32_t MainBlock(uint32_t count) {
  for (uint32_t s : {1u, 2u, 4u, 8u, 16u}) count |= count >> s;
  return (count + 1) >> 1;
}

// BinaryReduceSum(dst, src, work, rLength, rHeadLength, k2Rec, k2RRec).
float BinaryReduceSum(const float* src, uint32_t rLength, uint32_t rHead, float k2Rec,
                      float k2RRec) {
  float reg[kVl];
  if (rLength < kVl) {  // ComputeMean64
    for (uint32_t l = 0; l < kVl; ++l) reg[l] = l < rLength ? src[l] * k2Rec : 0.0f;
    return RegReduceSum(reg, rLength, kVl) * k2RRec;
  }
  const uint32_t padded = (rLength + kVl - 1) / kVl * kVl;
  uint32_t headTmp = kVl, k = 6;  // CalculatePower<64>
  for (uint32_t i = 0; i < padded; ++i) {
    if (headTmp * 2 > padded) {
      k += i;
      break;
    }
    headTmp *= 2;
  }
  const int32_t halfAddRepeatTimes = std::max<int32_t>(0, static_cast<int32_t>(k) - 12);
  const uint32_t m = rLength - rHead, mVL = (m + kVl - 1) / kVl * kVl;
  const uint32_t mainTailCount = rHead - mVL, halfAddCount = (rHead + kVl - 1) / kVl;
  const uint32_t halfAddTimes = (halfAddCount + kVl - 1) / kVl;
  std::vector<float> work(std::max(halfAddTimes, 1u) * kVl, 0.0f);
  uint32_t count = m;
  const uint32_t repeatTimes1 = (m + kVl - 1) / kVl;
  for (uint32_t i = 0; i < repeatTimes1; ++i) {
    const uint32_t active = std::min(count, kVl);
    count -= active;
    for (uint32_t l = 0; l < kVl; ++l) {
      const float tail = l < active ? src[rHead + i * kVl + l] * k2Rec : 0.0f;
      reg[l] = src[i * kVl + l] * k2Rec + tail;
    }
    work[i] = RegReduceSum(reg, kVl, kVl);
  }
  for (uint32_t i = 0; i < (mainTailCount + kVl - 1) / kVl; ++i) {
    for (uint32_t l = 0; l < kVl; ++l) reg[l] = src[mVL + i * kVl + l] * k2Rec;
    work[repeatTimes1 + i] = RegReduceSum(reg, kVl, kVl);
  }
  uint32_t current = halfAddTimes;
  for (int32_t r = 0; r < halfAddRepeatTimes; ++r) {
    current /= 2;
    for (uint32_t i = 0; i < current * kVl; ++i) work[i] = work[i] + work[current * kVl + i];
  }
  return RegReduceSum(work.data(), std::min(halfAddCount, kVl), kVl) * k2RRec;
}

}  // namespace

void ReplayWelfordFinalize3510(const FinPara& p, float varRec, const float* inMean,
                               const float* inVar, const int32_t* counts, float* outMean,
                               float* outVar) {
  const uint32_t K = p.abLength;
  std::vector<float> tmp(K);
  if (counts != nullptr) {  // WelfordFinalizeWithCounts
    const uint32_t k = MainBlock(K), kOv = k < K ? k << 1 : k;
    for (uint32_t i = 0; i < K; ++i) tmp[i] = static_cast<float>(counts[i]) * inMean[i];
    *outMean = BinaryReduceSum(tmp.data(), K, k, 1 / static_cast<float>(kOv), p.rRec * kOv);
    for (uint32_t i = 0; i < K; ++i) {
      float d = inMean[i] - *outMean;
      d = d * d;
      tmp[i] = d * static_cast<float>(counts[i]) + inVar[i];
    }
    *outVar = BinaryReduceSum(tmp.data(), K, k, 1 / static_cast<float>(kOv), varRec * kOv);
    return;
  }
  if (p.tailCount == 0 || p.tailCountLength == 0) {
    const uint32_t k = MainBlock(p.headCountLength), kOv = k < K ? k << 1 : k;
    *outMean =
        BinaryReduceSum(inMean, p.headCountLength, k, 1 / static_cast<float>(kOv), p.abRec * kOv);
    const float rn = static_cast<float>(p.rnLength);
    for (uint32_t i = 0; i < p.headCountLength; ++i) {
      float d = inMean[i] - *outMean;
      d = d * d;
      tmp[i] = inVar[i] + d * rn;
    }
    *outVar = BinaryReduceSum(tmp.data(), p.headCountLength, k, 1 / static_cast<float>(kOv),
                              varRec * kOv);
    return;
  }
  const uint32_t k = MainBlock(K), kOv = k < K ? k << 1 : k;
  const float head = static_cast<float>(p.headCount) / static_cast<float>(p.tailCount);
  const float tail = static_cast<float>(p.tailCount);
  for (uint32_t i = 0; i < K; ++i) tmp[i] = inMean[i] * tail;
  for (uint32_t i = 0; i < p.headCountLength; ++i) tmp[i] = tmp[i] * head;
  *outMean = BinaryReduceSum(tmp.data(), K, k, 1 / static_cast<float>(kOv), p.rRec * kOv);
  for (uint32_t i = 0; i < K; ++i) {
    float d = inMean[i] - *outMean;
    d = d * d;
    tmp[i] = d * tail;
  }
  for (uint32_t i = 0; i < p.headCountLength; ++i) tmp[i] = tmp[i] * head;
  for (uint32_t i = 0; i < K; ++i) tmp[i] = inVar[i] + tmp[i];
  *outVar = BinaryReduceSum(tmp.data(), K, k, 1 / static_cast<float>(kOv), varRec * kOv);
}

}  // namespace lngrad_replay
