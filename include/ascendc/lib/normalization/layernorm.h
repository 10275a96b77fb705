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

#include <string>
#include <type_traits>

#include "layernormgrad.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 const std::type_identity_t<T> epsilon, LayerNormTiling& tiling) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNorm: template parameter (T) is not half or float");
  namespace nd = lngrad::aicore::normdetail;
  namespace dm = lngrad::adv;
  constexpr const char* kApi = "LayerNorm";
  constexpr bool kHalf = std::is_same_v<T, half>;
  const lngrad::Product& product = lngrad::aicore::CurrentBlockProduct();
  if (!product.supports_layernorm) nd::RaiseUnsupported(kApi, product);
  const dm::Algorithm algo = nd::AlgorithmFor(product);
  const bool vector = algo == dm::Algorithm::kVector;

  dm::LayerNormTilingData t;
  static_assert(sizeof(t) == sizeof(tiling));
#define LNGRAD_COPY_FIELD(type, name) t.name = tiling.name;
  LNGRAD_LAYERNORM_TILING_FIELDS(LNGRAD_COPY_FIELD)
#undef LNGRAD_COPY_FIELD

  if (lngrad::aicore::CheckedMode()) {
    if (vector) nd::Check(tiling.oneTmpSize > 0, kApi, "tiling", "tiling.oneTmpSize must > 0!");
  }
  if (vector) {
    if ASCEND_IS_AIC {
      return;
    }
  }
  if (lngrad::aicore::CheckedMode()) {
    if (kHalf && isReuseSource) nd::WarnReuseIgnoredForHalf(kApi);
    nd::CheckTensor(kApi, "output", output);
    nd::CheckTensor(kApi, "outputMean", outputMean);
    nd::CheckTensor(kApi, "outputVariance", outputVariance);
    nd::CheckTensor(kApi, "inputX", inputX);
    nd::CheckTensor(kApi, "gamma", gamma);
    nd::CheckTensor(kApi, "beta", beta);
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
      nd::CheckNotSame(kApi, "output", output, "sharedTmpBuffer", sharedTmpBuffer);
      nd::CheckNotSame(kApi, "outputMean", outputMean, "sharedTmpBuffer", sharedTmpBuffer);
      nd::CheckNotSame(kApi, "outputVariance", outputVariance, "sharedTmpBuffer", sharedTmpBuffer);
      nd::CheckNotSame(kApi, "inputX", inputX, "sharedTmpBuffer", sharedTmpBuffer);
    }
    nd::Check(uint64_t{gamma.GetSize()} * sizeof(T) % 32 == 0, kApi, "gamma_alignment", [&] {
      return "[LayerNorm] The gamma length is " +
             std::to_string(uint64_t{gamma.GetSize()} * sizeof(T)) + ", should be 32B aligned.";
    });
    nd::Check(uint64_t{beta.GetSize()} * sizeof(T) % 32 == 0, kApi, "gamma_alignment", [&] {
      return "[LayerNorm] The beta length is " +
             std::to_string(uint64_t{beta.GetSize()} * sizeof(T)) + ", should be 32B aligned.";
    });
    if (vector) {
      const uint64_t stack_floats = sharedTmpBuffer.GetSize() / sizeof(float);
      nd::Check(stack_floats > 0, kApi, "stack_buffer", "sharedTmpBuffer size must > 0!");
      const bool float_reuse = !kHalf && isReuseSource;
      const uint64_t last_pos = float_reuse ? tiling.secondTmpStartPos : tiling.thirdTmpStartPos;
      const uint64_t end = last_pos + tiling.oneTmpSize;
      nd::Check(end <= tiling.tmpBufSize, kApi, "stack_buffer", [&] {
        return std::string(float_reuse ? "secondTmpStartPos" : "thirdTmpStartPos") +
               " + oneTmpSize is (" + std::to_string(end) + ") should <= tmpBufSize is (" +
               std::to_string(tiling.tmpBufSize) + ")";
      });
      nd::Check(stack_floats >= tiling.tmpBufSize, kApi, "stack_buffer", [&] {
        return "stackBuffer.GetSize is (" + std::to_string(stack_floats) +
               ") should >= tiling.tmpBufSize is (" + std::to_string(tiling.tmpBufSize) + ")";
      });
    }
    dm::LayerNormFootprint f;
    const lngrad::Status st = dm::LayerNormFootprintFor(algo, t, kHalf, isReuseSource, &f);
    if (!st.ok()) nd::RaiseDevmathError(kApi, st);
    if (vector) nd::CheckScratch(kApi, f.scratch, sharedTmpBuffer.GetSize());
    nd::CheckFootprint(kApi, "output", f.output, output.GetSize());
    nd::CheckFootprint(kApi, "outputMean", f.outputMean, outputMean.GetSize());
    nd::CheckFootprint(kApi, "outputVariance", f.outputVariance, outputVariance.GetSize());
    nd::CheckFootprint(kApi, "inputX", f.inputX, inputX.GetSize());
    nd::CheckFootprint(kApi, "gamma", f.gamma, gamma.GetSize());
    nd::CheckFootprint(kApi, "beta", f.beta, beta.GetSize());
  }

  using D = nd::DevType<T>;
  dm::LayerNormOperands<D> o;
  o.output = nd::UbBuffer<D>(output);
  o.outputMean = nd::UbBuffer<D>(outputMean);
  o.outputVariance = nd::UbBuffer<D>(outputVariance);
  o.inputX = nd::UbBuffer<D>(inputX);
  const auto g = nd::UbBuffer<D>(gamma);
  const auto b = nd::UbBuffer<D>(beta);
  o.gamma = {g.data, g.capacity};
  o.beta = {b.data, b.capacity};
  if (vector) o.scratch = nd::ScratchBuffer(sharedTmpBuffer);
  lngrad::Status st;
  if constexpr (kHalf) {
    st = dm::LayerNorm(algo, t, o, epsilon.ToLngrad(), isReuseSource);
  } else {
    st = dm::LayerNorm(algo, t, o, epsilon, isReuseSource);
  }
  if (!st.ok()) nd::RaiseDevmathError(kApi, st);
  // The device writes the tail lengths into the caller's tiling.
  tiling.bshCurLength = t.bshCurLength;
  tiling.bsCurLength = t.bsCurLength;
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const std::type_identity_t<T> epsilon, LayerNormTiling& tiling) {
  LocalTensor<uint8_t> sharedTmpBuffer;
  // The 3510 implementation uses no scratch and does not pop the stack.
  if (!lngrad::IsRegBaseArch(lngrad::aicore::CurrentBlockProduct().arch)) {
    const bool ans = PopStackBuffer<uint8_t, TPosition::LCM>(sharedTmpBuffer);
    if (!ans) lngrad::aicore::RaiseKernelCheck("LayerNorm.stack_buffer", "PopStackBuffer Error!");
  }
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                              sharedTmpBuffer, epsilon, tiling);
}

}  // namespace AscendC
