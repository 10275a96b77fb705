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
//  - "LayerNormGrad.padded_h": tiling.hLength != tiling.originalHLength (§1.11; the device
//    gives biased results there) unless lngrad::aicore::SetReproducePaddedH(true) asks for the
//    device's result;
//  - "LayerNormGrad.scratch_overrun": the tiling's scratch layout ends beyond sharedTmpBuffer
//    (§2.8); "LayerNormGrad.operand_bounds": the tiling reaches past an operand tensor.
// With checked mode off the call behaves like the device (no checks; overruns write the
// following UB; a non-ND shapeInfo makes it a no-op).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "../../kernel_tiling/kernel_tiling.h"
#include "../../lngrad_aicore/check.h"
#include "../../lngrad_aicore/defs.h"
#include "../../lngrad_aicore/half.h"
#include "../../lngrad_aicore/pipe.h"
#include "../../lngrad_aicore/tensor.h"
#include "lngrad/product.h"
#include "lngrad_adv/normalization.h"

namespace AscendC {

// The shape description of LayerNormGrad (toolkit: layernormgrad_utils.h). Only ND exists.
struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

}  // namespace AscendC

namespace lngrad::aicore {

namespace normdetail {
inline std::atomic<int>& ReproducePaddedHFlag() {
  // -1: not decided yet (read LNGRAD_REPRODUCE_PADDED_H once), 0 / 1: off / on.
  static std::atomic<int> flag{-1};
  return flag;
}
}  // namespace normdetail

// Opt-in for storage H != original H (spec §1.11): when on, LayerNormGrad and
// LayerNormGradBeta reproduce the device's (biased) result in checked mode too instead of
// raising "<api>.padded_h". Off by default; LNGRAD_REPRODUCE_PADDED_H=1 in the environment
// turns it on at first use. Process-wide.
inline void SetReproducePaddedH(bool on) { normdetail::ReproducePaddedHFlag().store(on ? 1 : 0); }
inline bool ReproducePaddedH() {
  auto& flag = normdetail::ReproducePaddedHFlag();
  int v = flag.load();
  if (v < 0) {
    const char* env = std::getenv("LNGRAD_REPRODUCE_PADDED_H");
    v = (env != nullptr && std::strcmp(env, "1") == 0) ? 1 : 0;
    int expected = -1;
    flag.compare_exchange_strong(expected, v);
    v = flag.load();
  }
  return v == 1;
}

namespace normdetail {

// Elements of T from the tensor's first element to the end of the block's UB: what the device
// can reach through it.
template <typename T>
uint64_t UbCapacity(const AscendC::LocalTensor<T>& t) {
  const auto v = t.View();
  if (v.ptr == nullptr || v.ub == nullptr) return 0;
  const std::byte* end = v.ub + v.ub_size;
  return v.ptr < end ? static_cast<uint64_t>(end - v.ptr) / sizeof(T) : 0;
}

// The device element type of T inside lngrad_adv.
template <typename T>
using DevType = std::conditional_t<std::is_same_v<T, half>, lngrad::Half, float>;

template <typename U, typename T>
lngrad::adv::Buffer<U> UbBuffer(const AscendC::LocalTensor<T>& t) {
  static_assert(sizeof(U) == sizeof(T));
  return {reinterpret_cast<U*>(t.HostPtr()), UbCapacity(t)};
}

inline lngrad::adv::Buffer<float> ScratchBuffer(const AscendC::LocalTensor<uint8_t>& t) {
  return {reinterpret_cast<float*>(t.HostPtr()), UbCapacity(t) / sizeof(float)};
}

inline lngrad::adv::Algorithm AlgorithmFor(const Product& p) {
  return IsRegBaseArch(p.arch) ? lngrad::adv::Algorithm::kRegBase
                               : lngrad::adv::Algorithm::kVector;
}

inline std::string ProductText(const Product& p) {
  return std::string(p.soc) + " (" + std::string(p.product_line) + ", __NPU_ARCH__ " +
         NpuArchName(p.arch) + ")";
}

[[noreturn]] inline void RaiseUnsupported(const char* api, const Product& p) {
  RaiseKernelCheck(std::string(api) + ".unsupported_product",
                   std::string(api) + " is not supported on " + ProductText(p) +
                       ": the device compiles the call to nothing. Select a product that has it "
                       "(e.g. Ascend910B1, Ascend310P1, Ascend950PR_9599).");
}

// `message` is a string or a callable returning one; a callable is only called on failure, so
// checked mode builds no strings for checks that pass.
template <class Message>
void Check(bool ok, const char* api, const char* what, Message&& message) {
  if (ok) return;
  if constexpr (std::is_invocable_v<Message>) {
    RaiseKernelCheck(std::string(api) + "." + what, std::string(message()));
  } else {
    RaiseKernelCheck(std::string(api) + "." + what, std::string(message));
  }
}

// The CPU-debug checks every high-level API applies to each tensor operand (S6
// single_tensor_check): UB position, 0 < size < UB size, 32-byte aligned address.
template <typename T>
void CheckTensor(const char* api, const char* name, const AscendC::LocalTensor<T>& t) {
  const auto pos = static_cast<AscendC::TPosition>(t.GetPosition());
  Check(AscendC::IsUbPosition(pos), api, "position", [&] {
    return std::string("[") + api + "] Failed to check tensor position of " + name +
           ", current api support positions are UB(VECIN/VECOUT/VECCALC), current position is " +
           AscendC::PositionName(pos) + ".";
  });
  const uint64_t ub_elems = CurrentBlockProduct().ub_bytes / sizeof(T);
  Check(t.GetSize() > 0 && t.GetSize() < ub_elems, api, "tensor_size", [&] {
    return std::string("[") + api + "] Failed to check tensor size of " + name +
           ", current tensor size is " + std::to_string(t.GetSize()) +
           ", should be greater than 0 and less than the hardware memory size.";
  });
  Check(t.GetPhyAddr() % 32 == 0, api, "address_alignment", [&] {
    return std::string("[") + api + "] Failed to check " + name +
           " physical address, address must be 32-byte aligned, current physical address is " +
           std::to_string(t.GetPhyAddr()) + ".";
  });
}

// Two operands that must not be the same tensor (same address and same byte size).
template <typename A, typename B>
void CheckNotSame(const char* api, const char* name_a, const AscendC::LocalTensor<A>& a,
                  const char* name_b, const AscendC::LocalTensor<B>& b) {
  Check(!(a.GetPhyAddr() == b.GetPhyAddr() && a.GetLength() == b.GetLength()), api, "tensor_reuse",
        [&] {
          return std::string("[") + api + "] " + name_a + " and " + name_b +
                 " are the same tensor (same address " + std::to_string(a.GetPhyAddr()) +
                 " and size " + std::to_string(a.GetLength()) + " B); they must be different.";
        });
}

inline void WarnReuseIgnoredForHalf(const char* api) {
  std::fprintf(stderr, "[WARNING] [%s] isReuseSource is true, may not be effective for half.\n",
               api);
}

// Checked mode: every operand's footprint must lie inside its tensor.
inline void CheckFootprint(const char* api, const char* name, uint64_t need, uint64_t have) {
  Check(need <= have, api, "operand_bounds", [&] {
    return std::string("[") + api + "] the tiling makes the API access " + std::to_string(need) +
           " elements of " + name + ", which has only " + std::to_string(have) +
           "; the device would read or write the UB that follows it.";
  });
}

inline void CheckScratch(const char* api, uint64_t need_floats, uint64_t have_bytes) {
  Check(need_floats * sizeof(float) <= have_bytes, api, "scratch_overrun", [&] {
    return std::string("[") + api + "] the tiling's scratch layout ends at byte " +
           std::to_string(need_floats * sizeof(float)) + " but sharedTmpBuffer has " +
           std::to_string(have_bytes) +
           " bytes; the device would overwrite the UB that follows it (spec §2.8: nohCalSize is "
           "rounded up after sizing from stackBufferSize). Pass a larger buffer or the max tmp "
           "size.";
  });
}

// A devmath error after the checks: the access would leave the simulated UB, or the shape is
// one lngrad does not model.
[[noreturn]] inline void RaiseDevmathError(const char* api, const lngrad::Status& st) {
  const bool bounds = st.code() == lngrad::StatusCode::kOutOfRange;
  RaiseKernelCheck(std::string(api) + (bounds ? ".ub_bounds" : ".unsupported_shape"),
                   st.message() + (bounds ? " (the access would leave the block's UB)" : ""));
}

}  // namespace normdetail
}  // namespace lngrad::aicore

namespace AscendC {

// Caller-provided scratch (spec §1.1, prototype 1). sharedTmpBuffer: at least the tiling's
// stackBufferSize bytes; contents are overwritten.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX,
                                     const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance,
                                     const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma,
                                     LocalTensor<uint8_t>& sharedTmpBuffer,
                                     std::type_identity_t<T> epsilon, LayerNormGradTiling& tiling,
                                     const LayerNormGradShapeInfo& shapeInfo = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNormGrad: template parameter (T) is not half or float");
  namespace nd = lngrad::aicore::normdetail;
  namespace dm = lngrad::adv;
  constexpr const char* kApi = "LayerNormGrad";
  constexpr bool kHalf = std::is_same_v<T, half>;
  const lngrad::Product& product = lngrad::aicore::CurrentBlockProduct();
  if (!product.supports_layernormgrad) nd::RaiseUnsupported(kApi, product);
  const dm::Algorithm algo = nd::AlgorithmFor(product);

  dm::LayerNormGradTilingData t;
  static_assert(sizeof(t) == sizeof(tiling));
#define LNGRAD_COPY_FIELD(type, name) t.name = tiling.name;
  LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(LNGRAD_COPY_FIELD)
#undef LNGRAD_COPY_FIELD

  const bool checked = lngrad::aicore::CheckedMode();
  if (checked) {
    if (kHalf && isReuseSource) nd::WarnReuseIgnoredForHalf(kApi);
    nd::CheckTensor(kApi, "outputPdX", outputPdX);
    nd::CheckTensor(kApi, "resForGamma", resForGamma);
    nd::CheckTensor(kApi, "inputDy", inputDy);
    nd::CheckTensor(kApi, "inputX", inputX);
    nd::CheckTensor(kApi, "inputVariance", inputVariance);
    nd::CheckTensor(kApi, "inputMean", inputMean);
    nd::CheckTensor(kApi, "inputGamma", inputGamma);
    nd::CheckTensor(kApi, "sharedTmpBuffer", sharedTmpBuffer);
    nd::CheckNotSame(kApi, "outputPdX", outputPdX, "resForGamma", resForGamma);
    nd::Check(uint64_t{inputGamma.GetSize()} * sizeof(T) % 32 == 0, kApi, "gamma_alignment", [&] {
      return "[LayerNormGrad] The inputGamma length is " +
             std::to_string(uint64_t{inputGamma.GetSize()} * sizeof(T)) +
             ", should be 32B aligned.";
    });
    nd::Check(shapeInfo.dataFormat == DataFormat::ND, kApi, "data_format",
              "[LayerNormGrad] Only support ND data format.");
    nd::Check(sharedTmpBuffer.GetSize() >= tiling.stackBufferSize, kApi, "stack_buffer", [&] {
      return "Stack buffer size not enough. (sharedTmpBuffer has " +
             std::to_string(sharedTmpBuffer.GetSize()) + " B, tiling.stackBufferSize is " +
             std::to_string(tiling.stackBufferSize) + " B)";
    });
    nd::Check(tiling.hLength != 0, kApi, "shape", "error shape for layernormgrad.");
    nd::Check(
        tiling.hLength == tiling.originalHLength || lngrad::aicore::ReproducePaddedH(), kApi,
        "padded_h", [&] {
          return "[LayerNormGrad] tiling.hLength (storage H) is " + std::to_string(tiling.hLength) +
                 " but tiling.originalHLength is " + std::to_string(tiling.originalHLength) +
                 ": the padded columns take part in every sum and the device's result is biased "
                 "(spec §1.11). Call lngrad::aicore::SetReproducePaddedH(true) to get the device's "
                 "result anyway.";
        });
    dm::LayerNormGradFootprint f;
    const lngrad::Status st = dm::LayerNormGradFootprintFor(algo, t, kHalf, isReuseSource, &f);
    if (!st.ok()) nd::RaiseDevmathError(kApi, st);
    nd::CheckScratch(kApi, f.scratch, sharedTmpBuffer.GetSize());
    nd::CheckFootprint(kApi, "outputPdX", f.outputPdX, outputPdX.GetSize());
    nd::CheckFootprint(kApi, "resForGamma", f.resForGamma, resForGamma.GetSize());
    nd::CheckFootprint(kApi, "inputDy", f.inputDy, inputDy.GetSize());
    nd::CheckFootprint(kApi, "inputX", f.inputX, inputX.GetSize());
    nd::CheckFootprint(kApi, "inputVariance", f.inputVariance, inputVariance.GetSize());
    nd::CheckFootprint(kApi, "inputMean", f.inputMean, inputMean.GetSize());
    nd::CheckFootprint(kApi, "inputGamma", f.inputGamma, inputGamma.GetSize());
  }
  // On the device a non-ND format skips the computation (the assert is compiled out).
  if (shapeInfo.dataFormat != DataFormat::ND) return;

  using D = nd::DevType<T>;
  dm::LayerNormGradOperands<D> o;
  o.outputPdX = nd::UbBuffer<D>(outputPdX);
  o.resForGamma = nd::UbBuffer<D>(resForGamma);
  o.inputDy = nd::UbBuffer<D>(inputDy);
  o.inputX = nd::UbBuffer<D>(inputX);
  const auto var = nd::UbBuffer<D>(inputVariance);
  const auto mean = nd::UbBuffer<D>(inputMean);
  const auto gamma = nd::UbBuffer<D>(inputGamma);
  o.inputVariance = {var.data, var.capacity};
  o.inputMean = {mean.data, mean.capacity};
  o.inputGamma = {gamma.data, gamma.capacity};
  o.scratch = nd::ScratchBuffer(sharedTmpBuffer);
  lngrad::Status st;
  if constexpr (kHalf) {
    st = dm::LayerNormGrad(algo, t, o, epsilon.ToLngrad(), isReuseSource);
  } else {
    st = dm::LayerNormGrad(algo, t, o, epsilon, isReuseSource);
  }
  if (!st.ok()) nd::RaiseDevmathError(kApi, st);
}

// Framework-provided scratch (spec §1.1, prototype 2): all UB left after the TPipe's buffers,
// from PopStackBuffer<uint8_t, TPosition::LCM>.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX,
                                     const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance,
                                     const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma,
                                     std::type_identity_t<T> epsilon, LayerNormGradTiling& tiling,
                                     const LayerNormGradShapeInfo& shapeInfo = {}) {
  LocalTensor<uint8_t> stackBuffer;
  const bool ans = PopStackBuffer<uint8_t, TPosition::LCM>(stackBuffer);
  if (!ans) lngrad::aicore::RaiseKernelCheck("LayerNormGrad.stack_buffer", "PopStackBuffer Error!");
  LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                  inputGamma, stackBuffer, epsilon, tiling, shapeInfo);
}

}  // namespace AscendC
