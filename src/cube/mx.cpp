// The MX forms' element codes and their scales' buffers (L0A_MX, L0B_MX) and 2D load.
//
// The codes (OCP Microscaling formats, as the vendor's MmadMx and LoadData 2D MX pages name
// them): e8m0 is 2^(code - 127), 0xFF NaN; fp4 e2m1 has a sign, 2 exponent bits (bias 1) and one
// mantissa bit (exponent 0: subnormal, mantissa x 0.5); fp4 e1m2 a sign, 1 exponent bit (bias 1)
// and 2 mantissa bits (exponent 0: mantissa x 0.25); fp8 e4m3fn and e5m2 as the vector Cast's.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "cube_internal.h"
#include "lngrad_aicore/fp8.h"

namespace lngrad::cube {
namespace {
using P = AscendC::TPosition;

float Fp4Value(uint32_t code, uint32_t exp_bits) {
  const uint32_t man_bits = 3 - exp_bits;
  const uint32_t e = (code >> man_bits) & ((1u << exp_bits) - 1u);
  const uint32_t m = code & ((1u << man_bits) - 1u);
  const float frac = static_cast<float>(m) / static_cast<float>(1u << man_bits);
  // bias 1: exponent field 0 is subnormal (2^0 x 0.m), field e normal (2^(e - 1) x 1.m).
  const float mag = e == 0 ? frac : std::ldexp(1.0f + frac, static_cast<int>(e) - 1);
  return (code & 0x8u) != 0 ? -mag : mag;
}

}  // namespace

float MxValue(Elem e, uint32_t code) noexcept {
  switch (e) {
    case Elem::kE8M0:
      return (code & 0xFFu) == 0xFFu ? std::numeric_limits<float>::quiet_NaN()
                                     : std::ldexp(1.0f, static_cast<int>(code & 0xFFu) - 127);
    case Elem::kF8E4M3:
      return aicore::fp8::E4m3ToFloat(static_cast<uint8_t>(code));
    case Elem::kF8E5M2:
      return aicore::fp8::E5m2ToFloat(static_cast<uint8_t>(code));
    case Elem::kHif8:
      return aicore::fp8::Hif8ToFloat(static_cast<uint8_t>(code));
    case Elem::kF4E2M1:
      return Fp4Value(code & 0xFu, 2);
    case Elem::kF4E1M2:
      return Fp4Value(code & 0xFu, 1);
    default:
      return std::numeric_limits<float>::quiet_NaN();
  }
}

std::byte* MxScales(const View& l0, const char* api, uint64_t* offset) {
  RequirePosition(l0, api, "the L0 operand", {P::A2, P::B2});
  const aicore::BlockContext& ctx = aicore::RequireBlockContext(api);
  if (!IsRegBaseArch(ctx.product->arch)) {
    Raise(checks::kType, api, "the MX forms are the Ascend 950's (L0A_MX/L0B_MX)");
  }
  std::vector<std::byte>& mx = Registers(api).mx[l0.pos == P::A2 ? 0 : 1];
  if (mx.size() < kMxBytes) mx.assign(kMxBytes, std::byte{0});
  *offset = static_cast<uint64_t>(l0.ptr - l0.ub) / 16;
  return mx.data();
}

// Fractal (x, y) of the source at ((xStart + x) x srcStride + yStart + y) x 32 B, of the
// destination at (x x dstStride + y) x 32 B from byte `base` of MX buffer `side` (0: L0A_MX).
void LoadMxScalesAt(int side, uint64_t base, const View& src, const AscendC::LoadData2DMxParams& p,
                    aicore::SrcLoc loc) {
  constexpr const char* kApi = "LoadData(L1->L0 MX scales, LoadData2DMxParams)";
  RequirePosition(src, kApi, "srcMx", {P::A1, P::B1});
  RequireAligned(src, kApi, "srcMx", 32);
  if (!IsRegBaseArch(aicore::RequireBlockContext(kApi).product->arch)) {
    Raise(checks::kType, kApi, "the MX forms are the Ascend 950's (L0A_MX/L0B_MX)");
  }
  std::vector<std::byte>& buffer = Registers(kApi).mx[side];
  if (buffer.size() < kMxBytes) buffer.assign(kMxBytes, std::byte{0});
  std::byte* mx = buffer.data();
  if (p.xStep == 0 || p.yStep == 0) return;
  aicore::san::Instr in(aicore::Pipe::kMte1, kApi, loc);
  for (uint32_t x = 0; x < p.xStep; ++x) {
    for (uint32_t y = 0; y < p.yStep; ++y) {
      const uint64_t s =
          ((uint64_t{p.xStartPosition} + x) * p.srcStride + p.yStartPosition + y) * 32;
      const uint64_t d = base + (uint64_t{x} * p.dstStride + y) * 32;
      RequireRange(src, kApi, "srcMx", s, 32);
      if (d + 32 > kMxBytes) {
        Raise(checks::kBounds, kApi,
              "fractal (" + std::to_string(x) + ", " + std::to_string(y) + ") ends at byte " +
                  std::to_string(d + 32) + " of the 4 KiB " + (side == 0 ? "L0A_MX" : "L0B_MX") +
                  " buffer (its first fractal at byte " + std::to_string(base) + ")");
      }
      std::memcpy(mx + d, src.ptr + s, 32);
      // The MX buffers are not among the memories the sanitizer knows as the block's own (a
      // record would be taken for GM, shared by the blocks): only the L1 read is recorded.
      if (in) in.Read(src.ptr + s, 32);
    }
  }
}

void LoadMxScales(const View& dst, const View& src, const AscendC::LoadData2DMxParams& p,
                  aicore::SrcLoc loc) {
  uint64_t base = 0;
  MxScales(dst, "LoadData(L1->L0 MX scales, LoadData2DMxParams)", &base);
  LoadMxScalesAt(dst.pos == P::A2 ? 0 : 1, base, src, p, loc);
}

}  // namespace lngrad::cube
