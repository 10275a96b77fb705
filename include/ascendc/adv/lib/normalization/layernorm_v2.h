// lngrad: AscendC::LayerNorm over [A, R] with mean and rstd outputs (spec §10), the toolkit's
// second LayerNorm family, on the simulated device. Both prototypes:
//
//   LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta,
//                                          epsilon, sharedTmpBuffer, para, tiling);
//   LayerNorm<U, T, isReuseSource, config>(..., beta, epsilon, para, tiling);  // PopStackBuffer
//
// T (x, y) half or float; U (gamma, beta) float, or half when T is half; mean and rstd float;
// para = {aLength, rLength, rLengthWithPadding}; tiling from the isComputeRstd overload of
// GetLayerNormNDTilingInfo. Arch 2002/2201: mean and variance chunk by chunk as the tiling
// says (the variance in sharedTmpBuffer), then Normalize on the scratch after it; with
// rLength < rLengthWithPadding the padded columns of inputX are first multiplied by 0 in place
// (the device's preprocessing), and a tail chunk leaves the tiling holding its lengths
// (arCurLength, aCurLength), as the device does. Arch 3510: the register path (rows longer
// than 128 folded at tiling.rHeadLength); config.isOutputRstd = false there outputs the
// variance instead of rstd.
//
// Checked mode raises KernelCheckError for the toolkit's CPU-debug checks (data types, UB
// positions, sizes and alignment, tensors that must not be the same, para against inputX,
// rLengthWithPadding 32-byte aligned, isReuseSource false for half, sharedTmpBuffer larger than
// rLengthWithPadding floats and at least tiling.tmpBufSize, secondTmpStartPos + oneTmpSize
// within tmpBufSize, the inner Normalize's scratch) and for accesses beyond an operand
// ("LayerNorm.operand_bounds").
#pragma once

#include <string>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "layernorm_utils.h"
#include "normalize.h"

namespace AscendC {

template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 const LayerNormPara& para, const LayerNormSeparateTiling& tiling,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(lngrad::adv::detail::kArTypesValid<U, T>,
                "current data type is not supported on current device!");
  static_assert(config.isOnlyOutput == false, "current value is not supported on current device!");
  namespace nd = lngrad::adv::detail;
  namespace dm = lngrad::adv;
  constexpr const char* kApi = "LayerNorm";
  if ASCEND_IS_AIC {
    return;
  }
  const dm::Algorithm algo = nd::SupportedAlgorithm(kApi, &lngrad::Product::supports_layernorm);
  const bool vector = algo == dm::Algorithm::kVector;
  // The device casts the constness of the tiling away and writes the tail lengths into it.
  auto& t = const_cast<LayerNormSeparateTiling&>(tiling);
  const dm::ArShape shape{para.aLength,     para.rLength,    para.rLengthWithPadding,
                          config.isNoGamma, config.isNoBeta, config.isOutputRstd};
  const uint64_t stack_floats = sharedTmpBuffer.GetSize() / sizeof(float);
  dm::LayerNormRstdFootprint f;
  const lngrad::Status plan = dm::LayerNormRstdFootprintFor(
      algo, t, shape, std::is_same_v<T, half>, std::is_same_v<U, half>, stack_floats, &f);
  if (lngrad::aicore::CheckedMode()) {
    nd::CheckTensors(kApi, "output", output, "outputMean", outputMean, "outputRstd", outputRstd,
                     "inputX", inputX, "gamma", gamma, "beta", beta);
    if (vector) nd::CheckTensor(kApi, "sharedTmpBuffer", sharedTmpBuffer);
    // The toolkit's groups: the outputs against each other and each input, then the scratch
    // against every operand.
    nd::CheckOutputsNotReused(
        kApi, {{"output", output}, {"outputMean", outputMean}, {"outputRstd", outputRstd}},
        {{"inputX", inputX}, {"gamma", gamma}, {"beta", beta}});
    if (vector) {
      nd::CheckNotSameAsAny(kApi,
                            {{"output", output},
                             {"outputMean", outputMean},
                             {"outputRstd", outputRstd},
                             {"inputX", inputX},
                             {"gamma", gamma},
                             {"beta", beta}},
                            {"sharedTmpBuffer", sharedTmpBuffer});
    }
    if (std::is_same_v<T, half>) nd::CheckReuseFalse(kApi, isReuseSource);
    nd::CheckArPara(kApi, "LayerNorm Rtsd", para.aLength, para.rLength, para.rLengthWithPadding,
                    inputX);
    if (vector) {
      nd::Check(stack_floats > para.rLengthWithPadding, kApi, "stack_buffer",
                "sharedTmpBuffer size must > LayerNormMinTmpSize!");
      nd::CheckTmpBufSize(kApi, "secondTmpStartPos + oneTmpSize",
                          uint64_t{tiling.secondTmpStartPos} + tiling.oneTmpSize, stack_floats,
                          tiling.tmpBufSize);
    }
    if (plan.ok()) {
      nd::CheckFootprints(kApi, {{"output", f.output, output.GetSize()},
                                 {"outputMean", f.outputMean, outputMean.GetSize()},
                                 {"outputRstd", f.outputRstd, outputRstd.GetSize()},
                                 {"inputX", f.inputX, inputX.GetSize()},
                                 {"gamma", f.gamma, gamma.GetSize()},
                                 {"beta", f.beta, beta.GetSize()}});
      nd::Check(f.scratch * sizeof(float) <= sharedTmpBuffer.GetSize(), kApi, "scratch_overrun",
                [&] {
                  return "[LayerNorm] the call uses " + std::to_string(f.scratch * sizeof(float)) +
                         " bytes of sharedTmpBuffer, which has " +
                         std::to_string(sharedTmpBuffer.GetSize()) +
                         "; the device would overwrite the UB that follows it.";
                });
    }
  }
  nd::RaiseIfError(kApi, plan);

  using DT = nd::DevType<T>;
  using DU = nd::DevType<U>;
  dm::LayerNormRstdOperands<DT, DU> o;
  o.output = nd::UbBuffer<DT>(output);
  o.outputMean = nd::UbBuffer<float>(outputMean);
  o.outputRstd = nd::UbBuffer<float>(outputRstd);
  o.inputX = nd::UbBuffer<DT>(inputX);
  o.gamma = nd::UbBuffer<const DU>(gamma);
  o.beta = nd::UbBuffer<const DU>(beta);
  o.scratch = nd::ScratchBuffer(sharedTmpBuffer);
  o.scratchSize = stack_floats;
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, kApi, loc);
  if (in) {
    const uint64_t a = para.aLength;
    const uint64_t rp = para.rLengthWithPadding;
    const uint64_t r = vector ? para.rLength : tiling.rLength;
    // The vector path reduces whole padded rows (so their padding must hold finite values: it
    // is multiplied by 0 and summed) and writes y's padding; the register path uses R columns.
    const uint64_t cols = vector ? rp : r;
    nd::ReadRows(in, inputX.HostPtr(), a, cols, rp);
    if (vector && para.rLength != rp) in.Write(inputX.HostPtr(), a * rp * sizeof(T));
    if (!config.isNoGamma) in.Read(gamma.HostPtr(), r * sizeof(U));
    if (!config.isNoBeta) in.Read(beta.HostPtr(), r * sizeof(U));
    nd::WriteRows(in, output.HostPtr(), a, cols, rp);
    in.Write(outputMean.HostPtr(), a * sizeof(float));
    in.Write(outputRstd.HostPtr(), a * sizeof(float));
    if (f.scratch > 0) in.Write(sharedTmpBuffer.HostPtr(), f.scratch * sizeof(float));
  }
  nd::RaiseIfError(kApi, dm::LayerNormRstd(algo, t, shape, f, o, epsilon));
}

template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const float epsilon, const LayerNormPara& para,
                                 const LayerNormSeparateTiling& tiling,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  // The 3510 path keeps its variance (or rstd) in the scratch too, so both pop the stack.
  LocalTensor<uint8_t> sharedTmpBuffer = lngrad::adv::detail::PopStackBufferFor("LayerNorm");
  LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta,
                                         epsilon, sharedTmpBuffer, para, tiling, loc);
}

}  // namespace AscendC
