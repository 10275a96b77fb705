// lngrad: AscendC::LayerNorm, forward, the [B,S,H] family with mean and variance outputs
// (spec §4), on the simulated device. Both prototypes of the toolkit:
//
//   LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
//                               sharedTmpBuffer, epsilon, tiling);
//   LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
//                               epsilon, tiling);   // scratch from PopStackBuffer (not on 3510)
//
// T = half or float (mean/variance are T); epsilon a T; tiling a non-const LayerNormTiling&.
// Arch 2002/2201 (chunked, docs/ascendc_kernels.md): mean = tree(fold(x*(1/H))),
// variance = tree(fold(((x-mean)^2)*(1/H))), out = ((1/sqrt(var+eps))*(x-mean))*gamma + beta;
// when the tiling has a tail chunk the device leaves the tail lengths in
// tiling.bshCurLength / bsCurLength, and so does this call. Float with isReuseSource uses the
// start of inputX as scratch. Arch 3510: one row at a time, out = ((x-mean)/sqrt(var+eps))*
// gamma + beta, no scratch.
//
// Checked mode raises for the device's CPU-debug checks (oneTmpSize == 0, positions, sizes,
// addresses, identical tensors, gamma/beta lengths 32-byte aligned, empty sharedTmpBuffer,
// scratch layout past tmpBufSize, sharedTmpBuffer smaller than tmpBufSize) and for accesses
// beyond an operand ("operand_bounds") or beyond sharedTmpBuffer ("scratch_overrun").
#pragma once

#include <type_traits>

#include "lngrad_adv/checks.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 const std::type_identity_t<T> epsilon, LayerNormTiling& tiling,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNorm: template parameter (T) is not half or float");
  namespace nd = lngrad::adv::detail;
  namespace dm = lngrad::adv;
  constexpr const char* kApi = "LayerNorm";
  constexpr bool kHalf = std::is_same_v<T, half>;
  const dm::Algorithm algo = nd::SupportedAlgorithm(kApi, &lngrad::Product::supports_layernorm);
  const bool vector = algo == dm::Algorithm::kVector;
  const bool checked = lngrad::aicore::CheckedMode();

  if (vector) {
    if (checked) nd::Check(tiling.oneTmpSize > 0, kApi, "tiling", "tiling.oneTmpSize must > 0!");
    if ASCEND_IS_AIC {
      return;
    }
  }
  // The one validation of the tiling for this call: what it touches of every operand.
  dm::LayerNormFootprint f;
  const lngrad::Status plan = dm::LayerNormFootprintFor(algo, tiling, kHalf, isReuseSource, &f);
  const nd::Operand operands[] = {
      nd::WrittenOperand("output", output, f.output),
      nd::WrittenOperand("outputMean", outputMean, f.outputMean),
      nd::WrittenOperand("outputVariance", outputVariance, f.outputVariance),
      nd::ReadOperand("inputX", inputX, f.inputX),
      nd::ReadOperand("gamma", gamma, f.gamma),
      nd::ReadOperand("beta", beta, f.beta)};
  if (checked) {
    if (kHalf && isReuseSource) nd::WarnReuseIgnoredForHalf(kApi);
    nd::CheckTensors(kApi, "output", output, "outputMean", outputMean, "outputVariance",
                     outputVariance, "inputX", inputX, "gamma", gamma, "beta", beta);
    if (vector) nd::CheckTensor(kApi, "sharedTmpBuffer", sharedTmpBuffer);
    // The toolkit's groups of tensors that must not be the same tensor.
    nd::CheckNotSame(kApi, "output", output, "outputMean", outputMean);
    nd::CheckNotSame(kApi, "output", output, "outputVariance", outputVariance);
    nd::CheckNotSame(kApi, "output", output, "gamma", gamma);
    nd::CheckNotSame(kApi, "output", output, "beta", beta);
    nd::CheckNotSame(kApi, "outputMean", outputMean, "outputVariance", outputVariance);
    nd::CheckNotSame(kApi, "outputMean", outputMean, "gamma", gamma);
    nd::CheckNotSame(kApi, "outputMean", outputMean, "beta", beta);
    nd::CheckNotSame(kApi, "outputMean", outputMean, "inputX", inputX);
    nd::CheckNotSame(kApi, "outputVariance", outputVariance, "gamma", gamma);
    nd::CheckNotSame(kApi, "outputVariance", outputVariance, "beta", beta);
    nd::CheckNotSame(kApi, "outputVariance", outputVariance, "inputX", inputX);
    if (vector) {
      nd::CheckNotSameAsAny(kApi,
                            {{"output", output},
                             {"outputMean", outputMean},
                             {"outputVariance", outputVariance},
                             {"inputX", inputX}},
                            {"sharedTmpBuffer", sharedTmpBuffer});
    }
    nd::CheckLengthAligned(kApi, "gamma_alignment", "gamma", gamma);
    nd::CheckLengthAligned(kApi, "gamma_alignment", "beta", beta);
    if (vector) {
      const uint64_t stack_floats = sharedTmpBuffer.GetSize() / sizeof(float);
      nd::Check(stack_floats > 0, kApi, "stack_buffer", "sharedTmpBuffer size must > 0!");
      const bool float_reuse = !kHalf && isReuseSource;
      const uint64_t last_pos = float_reuse ? tiling.secondTmpStartPos : tiling.thirdTmpStartPos;
      nd::CheckTmpBufSize(
          kApi, float_reuse ? "secondTmpStartPos + oneTmpSize" : "thirdTmpStartPos + oneTmpSize",
          last_pos + tiling.oneTmpSize, stack_floats, tiling.tmpBufSize);
    }
    // f.scratch is 0 on the register path, which uses no scratch.
    nd::CheckPlan(kApi, plan, f.scratch, sharedTmpBuffer, operands);
  }
  nd::RaiseIfError(kApi, plan);

  using D = nd::DevType<T>;
  dm::LayerNormOperands<D> o;
  o.output = nd::UbBuffer<D>(output);
  o.outputMean = nd::UbBuffer<D>(outputMean);
  o.outputVariance = nd::UbBuffer<D>(outputVariance);
  o.inputX = nd::UbBuffer<D>(inputX);
  o.gamma = nd::UbBuffer<const D>(gamma);
  o.beta = nd::UbBuffer<const D>(beta);
  if (vector) o.scratch = nd::ScratchBuffer(sharedTmpBuffer);
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, kApi, loc);
  if (in) {
    nd::SanRecord(in, operands, sharedTmpBuffer, f.scratch);
    if (isReuseSource && !kHalf) in.Write(inputX.HostPtr(), f.inputX * sizeof(T));
  }
  // Writes the tail lengths into the caller's tiling, as the device does. Unchecked mode too:
  // every access stays inside the simulated UB.
  nd::RaiseIfError(kApi, dm::LayerNorm(algo, tiling, f, o, nd::DevScalar(epsilon), isReuseSource));
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const std::type_identity_t<T> epsilon, LayerNormTiling& tiling,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  const LocalTensor<uint8_t> sharedTmpBuffer =
      lngrad::adv::detail::PopStackBufferUnlessRegBase("LayerNorm");
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                              sharedTmpBuffer, epsilon, tiling, loc);
}

}  // namespace AscendC

// The toolkit declares the [A, R] family with rstd output in this header too.
#include "layernorm_v2.h"
