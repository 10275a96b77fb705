// lngrad: AscendC::Normalize, the [A, R] normalization with given mean and variance (spec §10),
// on the simulated device. Both prototypes of the toolkit:
//
//   Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX,
//                                          gamma, beta, sharedTmpBuffer, epsilon, para);
//   Normalize<U, T, isReuseSource, config>(..., gamma, beta, epsilon, para);  // PopStackBuffer
//
// T (x, y) half or float; U (gamma, beta) float, or half when T is half; on the 950 (arch 3510)
// also T bfloat16_t with U bfloat16_t or float (normalize_3510_impl.h; elsewhere refused,
// "Normalize.dtype"); mean, variance and rstd float. rstd = 1/sqrt(variance + epsilon), y = (x -
// mean) * rstd * gamma + beta per row (config.isNoGamma / isNoBeta drop a term). Arch 2002/2201:
// the vector path, which also writes the padded columns of y (from whatever sharedTmpBuffer held
// there); arch 3510: the register path, which writes only rLength columns of each row and uses no
// scratch (half and bfloat16 loads widen exactly, y rounds to nearest even without saturation).
//
// Checked mode raises KernelCheckError for the toolkit's CPU-debug checks (data types, UB
// positions, sizes and alignment of every tensor, tensors that must not be the same,
// config.reducePattern AR, config.aLength -1 or para.aLength, para.aLength * para.rLength
// within inputX, rLengthWithPadding 32-byte aligned, para.aLength at most 65535 on the 950
// (its code keeps it in 16 bits; unchecked mode runs aLength mod 65536 rows, as the device
// does: none, touching nothing, for a multiple of 65536; para.aLength 0 likewise in both modes,
// which the kit does not assert), isReuseSource false off the 950 (its
// register path ignores the flag, as normalize_3510_impl.h does), a sharedTmpBuffer of at least
// aLength floats holding one row group) and for accesses beyond an operand
// ("Normalize.operand_bounds").
#pragma once

#include <string>
#include <type_traits>

#include "lngrad_adv/checks.h"
#include "lngrad_aicore/sanitizer.h"
#include "normalize_utils.h"

namespace lngrad::adv::detail {

// The operands' element types: T half or float, U float or (with T half) half.
template <typename U, typename T>
constexpr bool kArTypesValid = (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                               (std::is_same_v<T, half> &&
                                (std::is_same_v<U, half> || std::is_same_v<U, float>));

// Normalize's also: T bfloat16_t with U bfloat16_t or float, on the 950 only.
template <typename U, typename T>
constexpr bool kNormalizeBf16 = std::is_same_v<T, bfloat16_t> &&
                                (std::is_same_v<U, bfloat16_t> || std::is_same_v<U, float>);

// The checks the [A, R] APIs share: para against inputX and the alignment of the padded rows.
template <typename T>
void CheckArPara(const char* api, const char* tag, uint32_t aLength, uint32_t rLength,
                 uint32_t rLengthWithPadding, const AscendC::LocalTensor<T>& inputX) {
  const uint64_t ar = uint64_t{aLength} * rLength;
  Check(ar <= inputX.GetSize(), api, "para", [&] {
    return std::string("[") + tag + "] The result of para.aLength * para.rLength is " +
           std::to_string(ar) + ", should not be greater than inputX size " +
           std::to_string(inputX.GetSize()) + ".";
  });
  Check(uint64_t{rLengthWithPadding} * sizeof(T) % 32 == 0, api, "para", [&] {
    return std::string("[") + tag + "] The para.rLengthWithPadding is " +
           std::to_string(rLengthWithPadding) + ", should be 32B aligned.";
  });
}

inline void CheckReuseFalse(const char* api, bool isReuseSource) {
  Check(!isReuseSource, api, "reuse_source", [&] {
    return std::string("[") + api + "] isReuseSource is true, but only false is supported.";
  });
}

// The sanitizer's view of a row-wise operand: `rows` rows of `cols` elements, `pitch` apart
// (one range when the rows are contiguous).
template <typename T>
void ReadRows(lngrad::aicore::san::Instr& in, const T* p, uint64_t rows, uint64_t cols,
              uint64_t pitch) {
  if (rows == 0 || cols == 0) return;
  if (cols == pitch) {
    in.Read(p, rows * cols * sizeof(T));
  } else {
    in.ReadBlocks(p, rows, cols * sizeof(T), pitch * sizeof(T));
  }
}
template <typename T>
void WriteRows(lngrad::aicore::san::Instr& in, T* p, uint64_t rows, uint64_t cols, uint64_t pitch) {
  if (rows == 0 || cols == 0) return;
  if (cols == pitch) {
    in.Write(p, rows * cols * sizeof(T));
  } else {
    in.WriteBlocks(p, rows, cols * sizeof(T), pitch * sizeof(T));
  }
}

}  // namespace lngrad::adv::detail

namespace AscendC {

template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean,
                                 const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                                 const LocalTensor<U>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
                                 const NormalizePara& para,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(
      lngrad::adv::detail::kArTypesValid<U, T> || lngrad::adv::detail::kNormalizeBf16<U, T>,
      "Failed to check dtype in Normalize, current api support dtype combination is "
      "T: float, U: float; T: half, U: half / float; T: bfloat16_t, U: bfloat16_t / "
      "float (Ascend 950).");
  static_assert(config.isOnlyOutput == false, "isOnlyOutput must be set false for now.");
  static_assert(config.aLength != 1, "aLength in config must not be 1.");
  namespace nd = lngrad::adv::detail;
  namespace dm = lngrad::adv;
  constexpr const char* kApi = "Normalize";
  if ASCEND_IS_AIC {
    return;
  }
  const dm::Algorithm algo = nd::SupportedAlgorithm(kApi, &lngrad::Product::supports_layernorm);
  const bool vector = algo == dm::Algorithm::kVector;
  if constexpr (nd::kNormalizeBf16<U, T>) {
    // normalize_common_impl.h (2201/2002) has no bfloat16 form: the device build fails there.
    nd::Check(!vector, kApi, "dtype",
              "[Normalize] T bfloat16_t exists on Ascend 950 (arch 3510) only "
              "(normalize_3510_impl.h); this block's product has the vector path");
  }
  // normalize_3510_impl.h keeps aLength in a uint16_t (NormalizeImpl's static_cast, then
  // NormalizeVFImpl's row loops): past 65535 the device runs aLength mod 65536 rows.
  const uint32_t aLength = vector ? para.aLength : static_cast<uint16_t>(para.aLength);
  dm::ArShape shape{aLength,          para.rLength,    para.rLengthWithPadding,
                    config.isNoGamma, config.isNoBeta, true};
  const uint64_t stack_floats = sharedTmpBuffer.GetSize() / sizeof(float);
  dm::NormalizeFootprint f;
  const lngrad::Status plan =
      dm::NormalizeFootprintFor(algo, shape, sizeof(T) == 2, sizeof(U) == 2, stack_floats, &f);
  if (lngrad::aicore::CheckedMode()) {
    nd::CheckTensors(kApi, "output", output, "outputRstd", outputRstd, "inputMean", inputMean,
                     "inputVariance", inputVariance, "inputX", inputX, "gamma", gamma, "beta",
                     beta);
    if (vector) nd::CheckTensor(kApi, "sharedTmpBuffer", sharedTmpBuffer);
    // The toolkit's groups: output and outputRstd against each other and each input.
    nd::CheckOutputsNotReused(kApi, {{"output", output}, {"outputRstd", outputRstd}},
                              {{"inputMean", inputMean},
                               {"inputVariance", inputVariance},
                               {"inputX", inputX},
                               {"gamma", gamma},
                               {"beta", beta}});
    // normalize_3510_impl.h takes isReuseSource and ignores it.
    if (vector) nd::CheckReuseFalse(kApi, isReuseSource);
    nd::Check(config.reducePattern == ReducePattern::AR, kApi, "config",
              "[Normalize] The config.reducePattern should be ReducePattern::AR.");
    nd::Check(config.aLength == -1 || static_cast<uint32_t>(config.aLength) == para.aLength, kApi,
              "config", [&] {
                return "[Normalize] The config.aLength is " + std::to_string(config.aLength) +
                       ", should be equal to -1 or equal to para.aLength " +
                       std::to_string(para.aLength) + ".";
              });
    nd::Check(vector || para.aLength <= 0xFFFF, kApi, "para", [&] {
      return "[Normalize] The para.aLength is " + std::to_string(para.aLength) +
             ", Ascend 950 (arch 3510) keeps it in 16 bits (normalize_3510_impl.h): at most 65535 "
             "(the device would run " +
             std::to_string(aLength) + " rows)";
    });
    nd::CheckArPara(kApi, "Normalize", para.aLength, para.rLength, para.rLengthWithPadding, inputX);
    if (vector) {
      nd::Check(stack_floats >= para.aLength, kApi, "stack_buffer",
                "StackBuffer size must be at least A FP32!");
    }
    if (plan.ok()) {
      nd::CheckFootprints(kApi, {{"output", f.output, output.GetSize()},
                                 {"outputRstd", f.outputRstd, outputRstd.GetSize()},
                                 {"inputMean", f.inputMean, inputMean.GetSize()},
                                 {"inputVariance", f.inputVariance, inputVariance.GetSize()},
                                 {"inputX", f.inputX, inputX.GetSize()},
                                 {"gamma", f.gamma, gamma.GetSize()},
                                 {"beta", f.beta, beta.GetSize()}});
      if (vector) nd::CheckScratch(kApi, f.scratch, sharedTmpBuffer.GetSize());
    } else if (vector && para.aLength > 0 && para.rLength > 0) {
      nd::Check(false, kApi, "stack_buffer", plan.message());
    }
  }
  // normalize_3510_impl.h with a 16-bit aLength of 0 (para.aLength 0, or unchecked a multiple
  // of 65536): halfA and tailARepeatTimes are 0, so no loop runs and nothing is read or written.
  if (!vector && aLength == 0) return;
  nd::RaiseIfError(kApi, plan);

  using DT = nd::DevType<T>;
  using DU = nd::DevType<U>;
  dm::NormalizeOperands<DT, DU> o;
  o.output = nd::UbBuffer<DT>(output);
  o.outputRstd = nd::UbBuffer<float>(outputRstd);
  o.inputMean = nd::UbBuffer<const float>(inputMean);
  o.inputVariance = nd::UbBuffer<const float>(inputVariance);
  o.inputX = nd::UbBuffer<const DT>(inputX);
  o.gamma = nd::UbBuffer<const DU>(gamma);
  o.beta = nd::UbBuffer<const DU>(beta);
  if (vector) {
    o.scratch = nd::ScratchBuffer(sharedTmpBuffer);
    o.scratchSize = stack_floats;
  }
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, kApi, loc);
  if (in) {
    const uint64_t a = aLength;
    const uint64_t rp = para.rLengthWithPadding;
    // The vector path reads and writes whole padded rows; the register path uses rLength
    // columns (its whole-register loads past them feed only masked-off lanes).
    const uint64_t cols = vector ? rp : para.rLength;
    nd::ReadRows(in, inputX.HostPtr(), a, cols, rp);
    in.Read(inputMean.HostPtr(), a * sizeof(float));
    in.Read(inputVariance.HostPtr(), a * sizeof(float));
    if (!config.isNoGamma) in.Read(gamma.HostPtr(), uint64_t{para.rLength} * sizeof(U));
    if (!config.isNoBeta) in.Read(beta.HostPtr(), uint64_t{para.rLength} * sizeof(U));
    nd::WriteRows(in, output.HostPtr(), a, cols, rp);
    in.Write(outputRstd.HostPtr(), a * sizeof(float));
    if (vector) in.Write(sharedTmpBuffer.HostPtr(), f.scratch * sizeof(float));
  }
  nd::RaiseIfError(kApi, dm::Normalize(algo, shape, f, o, epsilon));
}

template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean,
                                 const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                                 const LocalTensor<U>& beta, const float epsilon,
                                 const NormalizePara& para,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  const LocalTensor<uint8_t> sharedTmpBuffer =
      lngrad::adv::detail::PopStackBufferUnlessRegBase("Normalize");
  Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX,
                                         gamma, beta, sharedTmpBuffer, epsilon, para, loc);
}

}  // namespace AscendC
