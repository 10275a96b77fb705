// lngrad: AscendC::LayerNormGrad, the Ascend C high-level API for the LayerNorm backward pass
// (spec §1), on the simulated device. Both prototypes of the toolkit:
//
//   LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance,
//                                   inputMean, inputGamma, sharedTmpBuffer, epsilon, tiling,
//                                   shapeInfo = {});
//   LayerNormGrad<T, isReuseSource>(... same without sharedTmpBuffer ...)   // PopStackBuffer
//
// T = half or float; epsilon is a T; tiling is a non-const LayerNormGradTiling& from
// GetLayerNormGradNDTilingInfo; shapeInfo.dataFormat must be ND. The running block's product
// (lngrad::aicore::CurrentBlockProduct) selects the algorithm: arch 2002/2201 the chunked
// vector path (§1.5-§1.10), arch 3510 the register path (§1.13); a product without
// LayerNormGrad is refused (the device would compile the call to nothing).
//
// Bits and memory effects are the device's (lngrad_adv/normalization.h): the scratch layout at
// the tiling's positions, outputPdX used as scratch, inputDy/inputX overwritten for float with
// isReuseSource. Accesses past a tensor land in the neighbouring UB as on the device; an access
// that would leave the simulated UB raises "LayerNormGrad.ub_bounds".
//
// Checked mode (lngrad::aicore::CheckedMode(), default on) raises KernelCheckError for:
//  - the CPU-debug checks of §1.12 with the device's messages (positions, sizes, addresses,
//    outputs identical, gamma alignment, ND only, sharedTmpBuffer smaller than
//    tiling.stackBufferSize, hLength == 0);
//  - "LayerNormGrad.padded_h": tiling.hLength < tiling.originalHLength, or hLength >
//    originalHLength with padded columns that would bias the sums (§1.11: in some row and padded
//    column dy*gamma != 0 or x != the row's mean; the message names the first), unless
//    lngrad::adv::SetReproducePaddedH(true) asks for the device's result;
//  - "LayerNormGrad.scratch_overrun": the tiling's scratch layout ends beyond sharedTmpBuffer
//    (§2.8); "LayerNormGrad.operand_bounds": the tiling reaches past an operand tensor.
// With checked mode off the call behaves like the device (no checks; overruns write the
// following UB; a non-ND shapeInfo makes it a no-op on arch 2002/2201 and is ignored on arch
// 3510, whose kernel only asserts ND).
#pragma once

#include "lngrad_adv/checks.h"

namespace AscendC {

// The shape description of LayerNormGrad (toolkit: layernormgrad_utils.h). Only ND exists.
struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

// Caller-provided scratch (spec §1.1, prototype 1). sharedTmpBuffer: at least the tiling's
// stackBufferSize bytes; contents are overwritten.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(
    const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
    const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
    const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
    const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer,
    std::type_identity_t<T> epsilon, LayerNormGradTiling& tiling,
    const LayerNormGradShapeInfo& shapeInfo = {},
    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNormGrad: template parameter (T) is not half or float");
  namespace nd = lngrad::adv::detail;
  namespace dm = lngrad::adv;
  constexpr const char* kApi = "LayerNormGrad";
  constexpr bool kHalf = std::is_same_v<T, half>;
  const dm::Algorithm algo = nd::SupportedAlgorithm(kApi, &lngrad::Product::supports_layernormgrad);
  // The one validation of the tiling for this call: what it touches of every operand.
  dm::LayerNormGradFootprint f;
  const lngrad::Status plan = dm::LayerNormGradFootprintFor(algo, tiling, kHalf, isReuseSource, &f);
  const nd::Operand operands[] = {nd::WrittenOperand("outputPdX", outputPdX, f.outputPdX),
                                  nd::WrittenOperand("resForGamma", resForGamma, f.resForGamma),
                                  nd::ReadOperand("inputDy", inputDy, f.inputDy),
                                  nd::ReadOperand("inputX", inputX, f.inputX),
                                  nd::ReadOperand("inputVariance", inputVariance, f.inputVariance),
                                  nd::ReadOperand("inputMean", inputMean, f.inputMean),
                                  nd::ReadOperand("inputGamma", inputGamma, f.inputGamma)};

  const bool checked = lngrad::aicore::CheckedMode();
  if (checked) {
    if (kHalf && isReuseSource) nd::WarnReuseIgnoredForHalf(kApi);
    nd::CheckTensors(kApi, "outputPdX", outputPdX, "resForGamma", resForGamma, "inputDy", inputDy,
                     "inputX", inputX, "inputVariance", inputVariance, "inputMean", inputMean,
                     "inputGamma", inputGamma, "sharedTmpBuffer", sharedTmpBuffer);
    nd::CheckNotSame(kApi, "outputPdX", outputPdX, "resForGamma", resForGamma);
    nd::CheckLengthAligned(kApi, "gamma_alignment", "inputGamma", inputGamma);
    nd::Check(shapeInfo.dataFormat == DataFormat::ND, kApi, "data_format",
              "[LayerNormGrad] Only support ND data format.");
    nd::Check(sharedTmpBuffer.GetSize() >= tiling.stackBufferSize, kApi, "stack_buffer", [&] {
      return "Stack buffer size not enough. (sharedTmpBuffer has " +
             std::to_string(sharedTmpBuffer.GetSize()) + " B, tiling.stackBufferSize is " +
             std::to_string(tiling.stackBufferSize) + " B)";
    });
    // The device's own check and message; `plan` refuses hLength == 0 as well.
    nd::Check(tiling.hLength != 0, kApi, "shape", "error shape for layernormgrad.");
    nd::CheckPlan(kApi, plan, f.scratch, sharedTmpBuffer, operands);
    nd::CheckPaddedH(kApi, tiling.hLength, tiling.originalHLength,
                     std::min({f.inputMean, f.inputDy / tiling.hLength, f.inputX / tiling.hLength}),
                     inputDy, inputX, inputMean, inputGamma);
  }
  // Unchecked, as on the device: arch 2002/2201 skip the computation for a non-ND format (the
  // else branch holds only an assert, compiled out); arch 3510 only asserts ND and computes.
  if (shapeInfo.dataFormat != DataFormat::ND && algo != dm::Algorithm::kRegBase) return;
  nd::RaiseIfError(kApi, plan);

  using D = nd::DevType<T>;
  dm::LayerNormGradOperands<D> o;
  o.outputPdX = nd::UbBuffer<D>(outputPdX);
  o.resForGamma = nd::UbBuffer<D>(resForGamma);
  o.inputDy = nd::UbBuffer<D>(inputDy);
  o.inputX = nd::UbBuffer<D>(inputX);
  o.inputVariance = nd::UbBuffer<const D>(inputVariance);
  o.inputMean = nd::UbBuffer<const D>(inputMean);
  o.inputGamma = nd::UbBuffer<const D>(inputGamma);
  o.scratch = nd::ScratchBuffer(sharedTmpBuffer);
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, kApi, loc);
  if (in) {
    nd::SanRecord(in, operands, sharedTmpBuffer, f.scratch);
    if (isReuseSource && !kHalf) {
      in.Write(inputDy.HostPtr(), f.inputDy * sizeof(T));
      in.Write(inputX.HostPtr(), f.inputX * sizeof(T));
    }
  }
  // Unchecked mode too: every access stays inside the simulated UB ("LayerNormGrad.ub_bounds").
  nd::RaiseIfError(kApi,
                   dm::LayerNormGrad(algo, tiling, f, o, nd::DevScalar(epsilon), isReuseSource));
}

// Framework-provided scratch (spec §1.1, prototype 2): all UB left after the TPipe's buffers,
// from PopStackBuffer<uint8_t, TPosition::LCM>.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(
    const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
    const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
    const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
    const LocalTensor<T>& inputGamma, std::type_identity_t<T> epsilon, LayerNormGradTiling& tiling,
    const LayerNormGradShapeInfo& shapeInfo = {},
    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  LocalTensor<uint8_t> stackBuffer = lngrad::adv::detail::PopStackBufferFor("LayerNormGrad");
  LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                  inputGamma, stackBuffer, epsilon, tiling, shapeInfo, loc);
}

}  // namespace AscendC
