// lngrad: AscendC::LayerNormGradBeta (spec §3) on the simulated device: pd_gamma[c] =
// sum over rows of dy*resForGamma, pd_beta[c] = sum of dy. Both prototypes of the toolkit:
//
//   LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
//                                       sharedTmpBuffer, tiling);   // const tiling
//   LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
//                                       tiling);                    // PopStackBuffer, non-const
//
// T = half or float; tiling from GetLayerNormGradBetaNDTilingInfo (stackBufferSize in floats).
// Arch 2002/2201: chunked row-sequential sums over the first originalHLength columns (row
// stride originalHLength); half casts the float sums to the outputs after every chunk; float
// with isReuseSource overwrites resForGamma with dy*resForGamma. Arch 3510: per 64 columns,
// sums over all bLength*sLength rows (stride hLength); half stores saturate to +-65504.
//
// Checked mode raises for the device's CPU-debug checks (positions, sizes, addresses, outputs
// identical, output lengths 32-byte aligned, oneCalSize == 0, scratch smaller than
// tiling.stackBufferSize or than resForGammaTmpTensorPos + oneCalSize; 3510: hLength*sizeof(T)
// not 32-byte aligned), for "LayerNormGradBeta.padded_h" (hLength != originalHLength on the
// vector path when a chunk sums more than one row, which the device then misreads; hLength <
// originalHLength always; unless lngrad::adv::SetReproducePaddedH(true)) and for operand or scratch
// accesses beyond their tensors ("operand_bounds", "scratch_overrun").
#pragma once

#include <type_traits>

#include "lngrad_adv/checks.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(
    const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
    const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
    const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormGradBetaTiling& tiling,
    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNormGradBeta: template parameter (T) is not half or float");
  namespace nd = lngrad::adv::detail;
  namespace dm = lngrad::adv;
  constexpr const char* kApi = "LayerNormGradBeta";
  constexpr bool kHalf = std::is_same_v<T, half>;
  const dm::Algorithm algo =
      nd::SupportedAlgorithm(kApi, &lngrad::Product::supports_layernormgradbeta);
  if ASCEND_IS_AIC {
    return;
  }
  const bool vector = algo == dm::Algorithm::kVector;
  // The one validation of the tiling for this call: what it touches of every operand.
  dm::LayerNormGradBetaFootprint f;
  const lngrad::Status plan =
      dm::LayerNormGradBetaFootprintFor(algo, tiling, kHalf, isReuseSource, &f);
  const nd::Operand operands[] = {
      nd::WrittenOperand("outputPdGamma", outputPdGamma, f.outputPdGamma),
      nd::WrittenOperand("outputPdBeta", outputPdBeta, f.outputPdBeta),
      nd::ReadOperand("resForGamma", resForGamma, f.resForGamma),
      nd::ReadOperand("inputDy", inputDy, f.inputDy)};

  if (lngrad::aicore::CheckedMode()) {
    if (vector) {
      nd::Check(tiling.oneCalSize > 0, kApi, "tiling", "tiling.oneCalSize must > 0!");
    }
    if (kHalf && isReuseSource) nd::WarnReuseIgnoredForHalf(kApi);
    nd::CheckTensors(kApi, "outputPdGamma", outputPdGamma, "outputPdBeta", outputPdBeta,
                     "resForGamma", resForGamma, "inputDy", inputDy, "sharedTmpBuffer",
                     sharedTmpBuffer);
    nd::CheckNotSame(kApi, "outputPdGamma", outputPdGamma, "outputPdBeta", outputPdBeta);
    nd::CheckLengthAligned(kApi, "output_alignment", "outputPdGamma", outputPdGamma);
    nd::CheckLengthAligned(kApi, "output_alignment", "outputPdBeta", outputPdBeta);
    const uint64_t stack_floats = sharedTmpBuffer.GetSize() / sizeof(float);
    if (vector) {
      if (kHalf || !isReuseSource) {
        nd::CheckLayoutEnd(kApi, "resForGammaTmpTensorPos + oneCalSize",
                           uint64_t{tiling.resForGammaTmpTensorPos} + tiling.oneCalSize,
                           "stackBufferSize", tiling.stackBufferSize);
      }
      nd::CheckStackFloats(kApi, stack_floats, ">= tiling.stackBufferSize", tiling.stackBufferSize);
      nd::CheckPaddedHBeta(kApi, tiling);
    } else {
      // The device's own check and message; `plan` refuses the same tilings.
      nd::Check(uint64_t{tiling.hLength} * sizeof(T) % 32 == 0, kApi, "h_alignment",
                "The value of hLength * sizeof(T) must be an integer multiple of 32.");
    }
    nd::CheckPlan(kApi, plan, f.scratch, sharedTmpBuffer, operands);
  }
  nd::RaiseIfError(kApi, plan);

  using D = nd::DevType<T>;
  dm::LayerNormGradBetaOperands<D> o;
  o.outputPdGamma = nd::UbBuffer<D>(outputPdGamma);
  o.outputPdBeta = nd::UbBuffer<D>(outputPdBeta);
  o.resForGamma = nd::UbBuffer<D>(resForGamma);
  o.inputDy = nd::UbBuffer<const D>(inputDy);
  o.scratch = nd::ScratchBuffer(sharedTmpBuffer);
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, kApi, loc);
  if (in) nd::SanRecord(in, operands, sharedTmpBuffer, f.scratch);
  // Unchecked mode too: every access stays inside the simulated UB.
  nd::RaiseIfError(kApi, dm::LayerNormGradBeta(algo, tiling, f, o, isReuseSource));
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(
    const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
    const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
    LayerNormGradBetaTiling& tiling,
    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  const LocalTensor<uint8_t> sharedTmpBuffer =
      lngrad::adv::detail::PopStackBufferFor("LayerNormGradBeta");
  LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                      sharedTmpBuffer,
                                      static_cast<const LayerNormGradBetaTiling&>(tiling), loc);
}

}  // namespace AscendC
