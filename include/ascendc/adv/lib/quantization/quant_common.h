// lngrad: what the quantization, filter, select and random high-level APIs share (issue 28):
// the element conversions of the device's Cast with a named round mode, the half arithmetic of
// one vector instruction (operands widened exactly, one float operation, rounded back once),
// operand and scratch checks, and the sanitizer record of a pass that reads and writes ranges
// of different lengths.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/math/math_common.h"
#include "lngrad_aicore/ctrl.h"
#include "lngrad_aicore/sys.h"
#include "lngrad_aicore/vector_ops.h"

// The vendor's [firstAxis, lastAxis] shape structs of the filter and select APIs
// (DropOutShapeInfo, SelectWithBytesMaskShapeInfo): one field list.
#define LNGRAD_AXES_SHAPE_INFO(Name) \
  struct Name {                      \
    Name() {}                        \
    uint32_t firstAxis = 0;          \
    uint32_t srcLastAxis = 0;        \
    uint32_t maskLastAxis = 0;       \
  };

// The policy and the shape parameters of Quantize, Dequantize and AntiQuantize (the vendor
// declares the three alike): Name##Policy, Name##Params.
#define LNGRAD_QUANTIZE_POLICY_AND_PARAMS(Name)                                     \
  enum class Name##Policy : int32_t{PER_TENSOR, PER_CHANNEL, PER_TOKEN, PER_GROUP}; \
  struct Name##Params {                                                             \
    uint32_t m;                                                                     \
    uint32_t n;                                                                     \
    uint32_t groupSize = 0;                                                         \
  };

namespace lngrad::aicore::checks {
// An argument of a quantization, filter, select or random API outside the rules of its page
// (shape fields, counts that must divide, the policy's operand kinds).
inline constexpr const char* kQuantFilterArg = "quant_filter_arg";
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::quant_detail {

using AscendC::RoundMode;

// The conversion of one element U -> T by the device's Cast in `mode`, under the block's
// overflow mode (lngrad_aicore/vector_cast.h; no table check: the pairs are the vendor's own
// steps of the algorithm).
template <typename T, typename U>
T Conv(U v, RoundMode mode) {
  const detail::CastCtx c{mode, FloatSaturation(), 1.0};
  return detail::CastElem<T, U>(v, c);
}

// Whether a 3510 register Cast to a float destination saturates (+-inf and results past the
// largest value -> the largest finite value, NaN -> 0), by the register Cast page's table 5:
// with CTRL[60] set (every block's default) the global mode decides, CTRL[48] (the block's
// overflow mode, AscendCUtils::SetOverflow); with CTRL[60] clear the instruction's trait does
// (traitSat: SatMode::SAT).
inline bool RegCastSaturates(bool traitSat) {
  const bool global = (detail::CurrentBlockSys().ctrl >> 60 & 1u) != 0;
  return global ? FloatSaturation() : traitSat;
}

// A register Cast of the 3510 sequences with a LayoutZMrgZRnd?SatS / MrgZRnd?SatS trait: the
// trait's SAT where CTRL[60] is clear, else the block's overflow mode (RegCastSaturates).
template <typename T, typename U>
T SatConv(U v, RoundMode mode) {
  const detail::CastCtx c{mode, RegCastSaturates(true), 1.0};
  return detail::CastElem<T, U>(v, c);
}

template <typename T>
float F(T v) {
  return static_cast<float>(v);
}

// One half instruction: the float result of the exact operands, rounded to half once.
inline half HMul(half a, half b) { return half(F(a) * F(b)); }
inline half HAdd(half a, half b) { return half(F(a) + F(b)); }

inline bool Is3510() { return detail::rep::RunningArch() == NpuArch::k3510; }

// A conversion that the 2201 / 2002 sequences make with the vector Cast (the block's overflow
// mode) and the 3510 ones with a SatS register Cast (SatConv).
template <typename T, typename U>
T ArchConv(U v, RoundMode mode) {
  return Is3510() ? SatConv<T, U>(v, mode) : Conv<T, U>(v, mode);
}

// Checked mode: the API exists on the running product.
inline void CheckProduct(const char* api, bool only3510) {
  if (!CheckedMode() || !only3510 || Is3510()) return;
  RaiseKernelCheck(checks::kProduct,
                   std::string(api) +
                       ": exists on Ascend 950 (arch 3510) only; this block runs arch " +
                       std::to_string(static_cast<uint32_t>(detail::rep::RunningArch())));
}

// Checked mode: an argument rule of the API's page.
inline void Require(bool ok, const char* api, const std::string& rule) {
  if (ok || !CheckedMode()) return;
  RaiseKernelCheck(checks::kQuantFilterArg, std::string(api) + ": " + rule);
}

// The row parameters of the 950's policy forms (PER_TOKEN, PER_GROUP): n nonzero with rows of
// src_row_bytes and dst_row_bytes 32-byte aligned, calCount a multiple of n, and for PER_GROUP
// groupSize a nonzero multiple of 32.
template <typename Param>
void CheckRowParams(const char* api, const Param& para, uint64_t src_row_bytes,
                    uint64_t dst_row_bytes, bool per_group) {
  Require(para.n > 0 && src_row_bytes % 32 == 0 && dst_row_bytes % 32 == 0, api,
          "n " + std::to_string(para.n) + " must be nonzero and 32-byte aligned in src and dst");
  Require(para.n > 0 && para.calCount % para.n == 0, api,
          "calCount " + std::to_string(para.calCount) + " must be a multiple of n");
  if (per_group) {
    Require(para.groupSize > 0 && para.groupSize % 32 == 0, api,
            "PER_GROUP groupSize " + std::to_string(para.groupSize) +
                " must be a nonzero multiple of 32");
  }
}

// The elements [0, count) of `t` exist (always; an overrun is the runtime's tensor overrun).
template <typename T>
void CheckCount(const char* api, const AscendC::LocalTensor<T>& t, uint64_t count,
                const char* name) {
  const detail::TensorView v = t.View();
  const uint64_t bytes = ElemBytes<T>(count);  // the 4-bit types: half a byte each
  if (bytes > v.size_bytes || (count != 0 && v.ptr == nullptr)) {
    const std::string where = std::string(api) + " " + name;
    detail::OnTensorOverrun(v, 0, bytes, 1, where.c_str());
  }
  if (CheckedMode() && count != 0) detail::CheckUbAligned(v, api, name);
}

// Checked mode: sharedTmpBuffer holds min_bytes and is 32-byte aligned.
inline void CheckTmp(const char* api, const AscendC::LocalTensor<uint8_t>& tmp,
                     uint64_t min_bytes) {
  if (!CheckedMode()) return;
  const detail::TensorView v = tmp.View();
  if (v.size_bytes < min_bytes) {
    RaiseKernelCheck(checks::kTmpBuffer,
                     std::string(api) + ": sharedTmpBuffer holds " + std::to_string(v.size_bytes) +
                         " bytes, less than the " + std::to_string(min_bytes) + " the API needs");
  }
  if (v.size_bytes != 0) detail::CheckUbAligned(v, api, "sharedTmpBuffer");
}

// One byte range an API pass reads or writes.
struct Span {
  const void* p;
  uint64_t bytes;
};
template <typename T>
Span SpanOf(const AscendC::LocalTensor<T>& t, uint64_t count) {
  return {t.View().ptr, ElemBytes<T>(count)};
}

// Records the pass on the vector pipe for the sanitizer and leaves the mask as the vendor's
// sequences do (Normal mode, full mask).
// RecordSpans takes the lists built at run time (several spans of one destination).
inline void RecordSpans(const char* api, SrcLoc loc, const std::vector<Span>& reads,
                        const std::vector<Span>& writes) {
  detail::RestoreMaskAfterCount(detail::MaskContext(api));
  san::Instr in(Pipe::kV, api, loc);
  if (!in) return;
  for (const Span& s : reads) {
    if (s.bytes != 0) in.Read(s.p, s.bytes);
  }
  for (const Span& s : writes) {
    if (s.bytes != 0) in.Write(s.p, s.bytes);
  }
}
inline void Record(const char* api, SrcLoc loc, std::initializer_list<Span> reads,
                   std::initializer_list<Span> writes) {
  RecordSpans(api, loc, std::vector<Span>(reads), std::vector<Span>(writes));
}

// Where the scale (offset) of element [i, j] of an [m, n] source lies for the policies of
// Quantize / Dequantize / AntiQuantize (their enums share the order PER_TENSOR, PER_CHANNEL,
// PER_TOKEN, PER_GROUP): per channel j, per token i, per group with kDim 1 (groups of g along
// a row) i * ceil(n / g) + j / g, with kDim 0 (groups of g rows) (i / g) * n + j.
struct ParamLayout {
  int policy;  // 0 tensor, 1 channel, 2 token, 3 group
  int32_t kDim;
  uint64_t m, n, g;
  uint64_t Index(uint64_t i, uint64_t j) const {
    switch (policy) {
      case 1:
        return j;
      case 2:
        return i;
      case 3:
        return kDim == 1 ? i * ((n + g - 1) / g) + j / g : (i / g) * n + j;
      default:
        return 0;
    }
  }
  // The elements the scale (offset) tensor holds.
  uint64_t Count() const {
    if (policy == 3) return kDim == 1 ? m * ((n + g - 1) / g) : (m + g - 1) / g * n;
    return policy == 2 ? m : (policy == 1 ? n : 1);
  }
};

// The operand rule of the kernels' templates: a LocalTensor or a scalar.
template <typename X>
struct IsTensor : std::false_type {};
template <typename E>
struct IsTensor<AscendC::LocalTensor<E>> : std::true_type {
  using Elem = E;
};

}  // namespace lngrad::aicore::quant_detail
