// Fixpipe L0C (NZ) -> GM (ND) on the FIX pipe, with ReLU and the float -> half/bfloat16
// conversions (round to nearest, ties to even).
#include <algorithm>
#include <cstring>
#include <string>

#include "cube_internal.h"
#include "lngrad/half.h"

namespace lngrad::cube {
namespace {
using P = AscendC::TPosition;

// One converted element: float -> float/half/bf16, int32 -> int32.
uint32_t Convert(uint32_t raw, Elem src, Elem dst, bool relu) {
  if (src == Elem::kS32) {
    const auto v = static_cast<int32_t>(raw);
    return static_cast<uint32_t>(relu ? std::max(v, 0) : v);
  }
  float f;
  std::memcpy(&f, &raw, 4);
  if (relu && !(f >= 0.0f)) f = f != f ? f : 0.0f;
  if (dst == Elem::kF16) return FloatToHalfBits(f);
  if (dst == Elem::kBf16) return aicore::detail::FloatToBf16BitsRne(f);
  std::memcpy(&raw, &f, 4);
  return raw;
}

void CheckTypes(Elem dst, Elem src, const AscendC::FixpipeParamsV220& p, const char* api) {
  using Q = AscendC::QuantMode_t;
  const bool to_float = src == Elem::kF32 && dst == Elem::kF32 && p.quantPre == Q::NoQuant;
  const bool to_int = src == Elem::kS32 && dst == Elem::kS32 && p.quantPre == Q::NoQuant;
  const bool to_half = src == Elem::kF32 && dst == Elem::kF16 &&
                       (p.quantPre == Q::F322F16 || p.quantPre == Q::NoQuant);
  const bool to_bf16 = src == Elem::kF32 && dst == Elem::kBf16 &&
                       (p.quantPre == Q::F322BF16 || p.quantPre == Q::NoQuant);
  if (!(to_float || to_int || to_half || to_bf16)) {
    Raise(checks::kType, api,
          std::string(ElemName(src)) + " -> " + ElemName(dst) + " with quantPre " +
              std::to_string(static_cast<int>(p.quantPre)) +
              " is not emulated (float -> float/half/bfloat16_t, int32_t -> int32_t are)");
  }
  if (p.ndNum != 1) {
    Raise(checks::kParams, api, "ndNum " + std::to_string(p.ndNum) + " is not emulated (1 is)");
  }
}

}  // namespace

uint64_t FixpipeExtent(const AscendC::FixpipeParamsV220& p) noexcept {
  if (p.mSize == 0 || p.nSize == 0) return 0;
  return uint64_t{p.mSize - 1u} * p.dstStride + p.nSize;
}

void FixpipeToGm(void* gm, const View& src, const AscendC::FixpipeParamsV220& p, Elem dst,
                 Elem src_elem, aicore::SrcLoc loc) {
  constexpr const char* kApi = "Fixpipe(CO1->GM)";
  RequirePosition(src, kApi, "src", {P::CO1});
  CheckTypes(dst, src_elem, p, kApi);
  if (p.nSize > 0 && p.srcStride < p.mSize) {
    Raise(checks::kParams, kApi,
          "srcStride " + std::to_string(p.srcStride) + " is below mSize " +
              std::to_string(p.mSize) + " (the L0C column blocks would overlap)");
  }
  const uint32_t nb = (p.nSize + 15u) / 16u;
  const uint64_t src_bytes =
      nb == 0 ? 0 : (uint64_t{nb - 1} * p.srcStride * 16 + uint64_t{p.mSize} * 16) * 4;
  RequireRange(src, kApi, "src", 0, src_bytes);
  const uint32_t dbits = ElemBits(dst);
  auto* out = static_cast<std::byte*>(gm);
  aicore::san::Instr in(aicore::Pipe::kFix, kApi, loc);
  for (uint32_t m = 0; m < p.mSize; ++m) {
    for (uint32_t n = 0; n < p.nSize; ++n) {
      const uint64_t si = (uint64_t{n / 16} * p.srcStride + m) * 16 + n % 16;
      SetBits(out, uint64_t{m} * p.dstStride + n, dbits,
              Convert(GetBits(src.ptr, si, 32), src_elem, dst, p.reluEn));
    }
  }
  if (in) {
    in.Read(src.ptr, src_bytes);
    in.WriteBlocks(out, p.mSize, uint64_t{p.nSize} * dbits / 8, uint64_t{p.dstStride} * dbits / 8);
  }
}

}  // namespace lngrad::cube
