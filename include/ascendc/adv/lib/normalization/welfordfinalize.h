// lngrad: AscendC::WelfordFinalize (the toolkit's adv_api/normalization/welfordfinalize.h): the
// mean and variance of [abLength] Welford partial results, written to outputMean[0] and
// outputVariance[0] (elements 1..7 set to 0 on 2201). Four prototypes (with or without counts, with
// or without sharedTmpBuffer), template <isReuseSource, config>:
//
//   WelfordFinalize<isReuseSource, config>(outMean, outVar, inMean, inVar, [counts,]
//                                          [sharedTmpBuffer,] para);
//
// Algorithm (welfordfinalize_common_impl.h), over chunks of computeLength =
// 64 * ((tmpFloats - 128) / 128) elements, each chunk's sum a LayerNormReduceSumImpl fold + tree
// into a 64-slot list that is itself reduced (one 64-lane tree) when full and at the end:
//   mean terms: counts: (inMean * float(count)) * rRec; no counts and no tail (tailCount == 0 or
//     tailCountLength == 0): inMean * abRec; with tail: (inMean * tailCount) * rRec, the first
//     headCountLength elements then * (headCount / tailCount);
//   variance terms, with m the mean: counts: (inVar + ((inMean - m)^2 * float(count))) * rRec;
//     no tail: (inVar + (inMean - m)^2 * rnLength) * rRec; with tail: (inVar + ((inMean - m)^2
//     * tailCount) [* headCount / tailCount on the head]) * rRec.
// Arch 3510: the register code's terms and halving sums (welfordfinalize_3510.h);
// config.isCorrection scales the variance by rRecWithCorrection instead of rRec; only element 0
// of the outputs is written. The overloads without sharedTmpBuffer take the stack buffer.
//
// Always raised: abLength 0 or not a multiple of 8, headCountLength + tailCountLength !=
// abLength, operands shorter than abLength (outputs than 8), a scratch below 1024 bytes (3510:
// below the host tiling's minimum),
// tailCount == 0 with tailCountLength != 0.
#pragma once

#include <type_traits>
#include <vector>

#include "lib/normalization/norm_ext_common.h"
#include "lib/normalization/welfordfinalize_3510.h"
#include "lib/normalization/welfordfinalize_utils.h"

namespace lngrad::adv::ext {

struct WelfordTerms {
  const float* inMean;
  const float* inVar;
  const int32_t* counts;  // null: the overloads without counts
  float* tmpA;            // computeLength floats (tempMean)
  float* tmpB;            // computeLength floats (tempVariance)
};

// The mean terms of the chunk [off, off + len) in tmpA (tmpB as the device's second buffer).
inline void WelfordMeanTerms(const AscendC::WelfordFinalizePara& p, const WelfordTerms& w,
                             uint32_t off, uint32_t len) {
  const Ops& ops = StepOps();
  const float* im = w.inMean + off;
  if (w.counts != nullptr) {
    for (uint32_t i = 0; i < len; ++i) w.tmpA[i] = static_cast<float>(w.counts[off + i]);
    ops.Mul(w.tmpA, im, w.tmpA, len);
    ops.Muls(w.tmpA, w.tmpA, p.rRec, len);
  } else if (p.tailCountLength == 0 || p.tailCount == 0) {
    ops.Muls(w.tmpA, im, p.abRec, len);
  } else {
    ops.Muls(w.tmpB, im, static_cast<float>(static_cast<int32_t>(p.tailCount)), len);
    ops.Muls(w.tmpA, w.tmpB, p.rRec, len);
    const int64_t head = std::clamp<int64_t>(int64_t{p.headCountLength} - off, 0, len);
    const float ratio = static_cast<float>(static_cast<int32_t>(p.headCount)) /
                        static_cast<float>(static_cast<int32_t>(p.tailCount));
    if (head > 0) ops.Muls(w.tmpA, w.tmpA, ratio, static_cast<size_t>(head));
  }
}

// The variance terms of the chunk in tmpB, the mean m broadcast in tmpA first.
inline void WelfordVarianceTerms(const AscendC::WelfordFinalizePara& p, const WelfordTerms& w,
                                 uint32_t off, uint32_t len, float m, float rRec) {
  const Ops& ops = StepOps();
  const float* im = w.inMean + off;
  const float* iv = w.inVar + off;
  ops.Fill(w.tmpA, m, len);
  ops.Sub(w.tmpB, im, w.tmpA, len);
  ops.Mul(w.tmpA, w.tmpB, w.tmpB, len);
  if (w.counts != nullptr) {
    for (uint32_t i = 0; i < len; ++i) w.tmpB[i] = static_cast<float>(w.counts[off + i]);
    ops.Mul(w.tmpA, w.tmpA, w.tmpB, len);
    ops.Add(w.tmpB, w.tmpA, iv, len);
    ops.Muls(w.tmpB, w.tmpB, rRec, len);
    return;
  }
  const bool noTail = p.tailCountLength == 0 || p.tailCount == 0;
  const float k = noTail ? static_cast<float>(static_cast<int32_t>(p.rnLength))
                         : static_cast<float>(static_cast<int32_t>(p.tailCount));
  ops.Muls(w.tmpB, w.tmpA, k, len);
  if (!noTail) {
    const int64_t head = std::clamp<int64_t>(int64_t{p.headCountLength} - off, 0, len);
    const float ratio = static_cast<float>(static_cast<int32_t>(p.headCount)) /
                        static_cast<float>(static_cast<int32_t>(p.tailCount));
    if (head > 0) ops.Muls(w.tmpB, w.tmpB, ratio, static_cast<size_t>(head));
  }
  ops.Add(w.tmpA, iv, w.tmpB, len);
  ops.Muls(w.tmpB, w.tmpA, rRec, len);
}

// Sums chunk by chunk into the 64-slot list `slots` (terms(off, len) leaves the chunk's terms
// in `buf`); returns the final tree.
template <class Terms>
float WelfordChunkedSum(float* slots, float* buf, uint32_t ab, uint32_t cl, Terms&& terms) {
  uint32_t used = 0;
  for (uint32_t off = 0; off < ab; off += cl) {
    const uint32_t len = std::min(cl, ab - off);
    terms(off, len);
    slots[used++] = FoldTree(buf, len);
    if (used == kLanes) {
      slots[0] = Tree(slots, kLanes);
      used = 1;
    }
  }
  slots[0] = Tree(slots, used);
  return slots[0];
}

// The 2201/2002 sequence (the 950 runs WelfordFinalize3510).
inline void WelfordFinalizeRun(float* outMean, float* outVar, const float* inMean,
                               const float* inVar, const int32_t* counts, float* stack,
                               uint64_t stackFloats, const AscendC::WelfordFinalizePara& p) {
  const uint32_t cl = static_cast<uint32_t>((stackFloats - 2 * kLanes) / (2 * kLanes) * kLanes);
  float* slotsMean = stack;
  float* slotsVar = stack + kLanes;
  WelfordTerms w{inMean, inVar, counts, stack + 2 * kLanes, stack + 2 * kLanes + cl};
  const float mean =
      WelfordChunkedSum(slotsMean, w.tmpA, p.abLength, cl,
                        [&](uint32_t o, uint32_t n) { WelfordMeanTerms(p, w, o, n); });
  // The device passes the mean through two Adds of 0 before broadcasting it.
  const float m = (mean + 0.0f) + 0.0f;
  const float rRec = p.rRec;
  const float var =
      WelfordChunkedSum(slotsVar, w.tmpB, p.abLength, cl,
                        [&](uint32_t o, uint32_t n) { WelfordVarianceTerms(p, w, o, n, m, rRec); });
  outMean[0] = mean + 0.0f;
  outVar[0] = var + 0.0f;
  std::fill(outMean + 1, outMean + 8, 0.0f);
  std::fill(outVar + 1, outVar + 8, 0.0f);
}

// The scratch refused below: 1024 bytes; on 3510 the host tiling's minimum, abLength +
// ceil128(p / 64) floats (p the largest power of two <= abLength), where it is smaller (the
// terms and the partial sums; lngrad keeps them in buffers of its own there).
inline uint64_t WelfordFinalizeScratchBytes(uint32_t ab, bool reg) {
  uint64_t p2 = 1;
  while (p2 * 2 <= ab) p2 *= 2;
  return reg ? std::min<uint64_t>(4 * (ab + (p2 / 64 + 127) / 128 * 128), 4 * 256) : 4 * 256;
}

// The four prototypes' one body; counts null for the overloads without it.
template <bool isCorrection>
void WelfordFinalizeCall(const AscendC::LocalTensor<float>& outputMean,
                         const AscendC::LocalTensor<float>& outputVariance,
                         const AscendC::LocalTensor<float>& inputMean,
                         const AscendC::LocalTensor<float>& inputVariance,
                         const AscendC::LocalTensor<int32_t>* countsPtr,
                         const AscendC::LocalTensor<uint8_t>& sharedTmpBuffer,
                         const AscendC::WelfordFinalizePara& para, lngrad::aicore::SrcLoc loc) {
  namespace ne = lngrad::adv::ext;
  namespace nd = lngrad::adv::detail;
  constexpr const char* kApi = "WelfordFinalize";
  ne::RequireProduct(kApi);
  const bool withCounts = countsPtr != nullptr;
  const AscendC::LocalTensor<int32_t> counts =
      withCounts ? *countsPtr : AscendC::LocalTensor<int32_t>{};
  if (lngrad::aicore::CheckedMode()) {
    nd::CheckTensors(kApi, "outputMean", outputMean, "outputVariance", outputVariance, "inputMean",
                     inputMean, "inputVariance", inputVariance, "sharedTmpBuffer", sharedTmpBuffer);
    if (withCounts) nd::CheckTensor(kApi, "counts", counts);
  }
  const uint32_t ab = para.abLength;
  ne::Require(ab > 0 && ab % 8 == 0, kApi, "para",
              "para.abLength must be > 0 and 32 bytes aligned (float)");
  ne::Require(uint64_t{para.headCountLength} + para.tailCountLength == ab, kApi, "para",
              "para.headCountLength + para.tailCountLength must equal para.abLength");
  ne::Require(withCounts || para.tailCountLength == 0 || para.tailCount != 0, kApi, "para",
              "para.tailCount should not be zero when para.tailCountLength is non-zero");
  ne::CheckHolds(kApi, "inputMean", inputMean, ab);
  ne::CheckHolds(kApi, "inputVariance", inputVariance, ab);
  ne::CheckHolds(kApi, "outputMean", outputMean, 8);
  ne::CheckHolds(kApi, "outputVariance", outputVariance, 8);
  if (withCounts) ne::CheckHolds(kApi, "counts", counts, ab);
  const bool reg = RegBase();
  const uint64_t need = WelfordFinalizeScratchBytes(ab, reg);
  ne::CheckScratch(kApi, sharedTmpBuffer, need,
                   reg ? "sharedTmpBuffer size must >= min(1024, 4 * (abLength + ceil128(p / "
                         "64))) Bytes"
                       : "sharedTmpBuffer size must >= 1024 Bytes");
  float* stack = reinterpret_cast<float*>(sharedTmpBuffer.HostPtr());
  const uint64_t stackFloats = sharedTmpBuffer.GetSize() / 4;
  const uint64_t cl = (stackFloats - 128) / 128 * 64;
  const uint64_t used = reg ? need / 4 : 128 + 2 * std::min<uint64_t>(cl, ab);
  ne::Record(kApi, loc,
             {{inputMean.HostPtr(), uint64_t{ab} * 4, false},
              {inputVariance.HostPtr(), uint64_t{ab} * 4, false},
              {withCounts ? counts.HostPtr() : nullptr, withCounts ? uint64_t{ab} * 4 : 0, false},
              {sharedTmpBuffer.HostPtr(), used * 4, true},
              {outputMean.HostPtr(), 32, true},
              {outputVariance.HostPtr(), 32, true}});
  const int32_t* countsHost = withCounts ? counts.HostPtr() : nullptr;
  if (reg) {
    ne::WelfordFinalize3510<isCorrection>(outputMean.HostPtr(), outputVariance.HostPtr(),
                                          inputMean.HostPtr(), inputVariance.HostPtr(), countsHost,
                                          para);
    return;
  }
  ne::WelfordFinalizeRun(outputMean.HostPtr(), outputVariance.HostPtr(), inputMean.HostPtr(),
                         inputVariance.HostPtr(), countsHost, stack, stackFloats, para);
}

}  // namespace lngrad::adv::ext

namespace AscendC {

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(
    const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
    const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
    const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
    WelfordFinalizePara& para, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if ASCEND_IS_AIC {
    return;
  }
  lngrad::adv::ext::WelfordFinalizeCall<config.isCorrection>(
      outputMean, outputVariance, inputMean, inputVariance, &counts, sharedTmpBuffer, para, loc);
}

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(
    const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
    const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
    const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para,
    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if ASCEND_IS_AIC {
    return;
  }
  lngrad::adv::ext::WelfordFinalizeCall<config.isCorrection>(
      outputMean, outputVariance, inputMean, inputVariance, nullptr, sharedTmpBuffer, para, loc);
}

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(
    const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
    const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
    const LocalTensor<int32_t>& counts, WelfordFinalizePara& para,
    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  const LocalTensor<uint8_t> stack = lngrad::adv::detail::PopStackBufferFor("WelfordFinalize");
  WelfordFinalize<isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                         counts, stack, para, loc);
}

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(
    const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
    const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
    WelfordFinalizePara& para, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if ASCEND_IS_AIC {
    return;
  }
  const LocalTensor<uint8_t> stack = lngrad::adv::detail::PopStackBufferFor("WelfordFinalize");
  lngrad::adv::ext::WelfordFinalizeCall<config.isCorrection>(
      outputMean, outputVariance, inputMean, inputVariance, nullptr, stack, para, loc);
}

}  // namespace AscendC
