// LoadData 2D and LoadDataWithTranspose: L1 -> L0A/L0B in 512-byte fractals, on MTE1, and the
// copy L1 -> BiasTable.
#include <cstring>
#include <string>

#include "cube_internal.h"

namespace lngrad::cube {
namespace {
using P = AscendC::TPosition;

void RequireLoadOperands(const View& dst, const View& src, const char* api) {
  RequirePosition(dst, api, "dst", {P::A2, P::B2});
  RequirePosition(src, api, "src", {P::A1, P::B1});
  RequireAligned(dst, api, "dst", kFractalBytes);
  RequireAligned(src, api, "src", 32);
}

// One 512-byte fractal, copied or (b16) transposed as a 16 x 16 matrix.
void MoveFractal(std::byte* d, const std::byte* s, bool transpose, uint32_t bits) {
  if (!transpose) {
    std::memcpy(d, s, kFractalBytes);
    return;
  }
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t c = 0; c < 16; ++c) SetBits(d, r * 16 + c, bits, GetBits(s, c * 16 + r, bits));
  }
}

}  // namespace

void LoadData2d(const View& dst, const View& src, const AscendC::LoadData2DParams& p, Elem e,
                aicore::SrcLoc loc) {
  constexpr const char* kApi = "LoadData(L1->L0, LoadData2DParams)";
  RequireLoadOperands(dst, src, kApi);
  const uint32_t bits = ElemBits(e);
  if (p.ifTranspose && bits != 16) {
    Raise(checks::kType, kApi,
          std::string("ifTranspose moves 16-bit fractals, not ") + ElemName(e) +
              " (LoadDataWithTranspose transposes the others)");
  }
  const int64_t dir = p.addrMode == 0 ? 1 : -1;
  aicore::san::Instr in(aicore::Pipe::kMte1, kApi, loc);
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const int64_t frac = int64_t{p.startIndex} + dir * int64_t{p.srcStride} * i;
    if (frac < 0) Raise(checks::kParams, kApi, "the source address runs below the tensor");
    const uint64_t s = static_cast<uint64_t>(frac) * kFractalBytes;
    const uint64_t d = uint64_t{i} * (p.dstGap + 1u) * kFractalBytes;
    RequireRange(src, kApi, "src", s, kFractalBytes);
    RequireRange(dst, kApi, "dst", d, kFractalBytes);
    if (in) {
      in.Read(src.ptr + s, kFractalBytes);
      in.Write(dst.ptr + d, kFractalBytes);
    }
    MoveFractal(Mutable(dst) + d, src.ptr + s, p.ifTranspose, bits);
  }
}

namespace {
// The square of one LoadDataWithTranspose repeat: side S elements, made of F fractals. b32: two
// 16 x 8 fractals side by side (column blocks); the others: F fractals of 16 x S stacked.
struct Square {
  uint32_t side;
  uint32_t fractals;
  bool column_blocks;
};
// Element (r, c) of a square stored as `sq`, as an index from its first element.
uint64_t SquareIndex(const Square& q, uint32_t r, uint32_t c) {
  if (q.column_blocks) return (c / 8) * 128 + r * 8 + c % 8;
  return uint64_t{r} * q.side + c;
}
}  // namespace

void LoadDataTranspose(const View& dst, const View& src,
                       const AscendC::LoadData2dTransposeParams& p, Elem e, aicore::SrcLoc loc) {
  constexpr const char* kApi = "LoadDataWithTranspose";
  RequireLoadOperands(dst, src, kApi);
  const uint32_t bits = ElemBits(e);
  if (bits == 0) Raise(checks::kType, kApi, std::string("no transpose of ") + ElemName(e));
  // b16: 16 x 16, one fractal; b8: 32 x 32, two; b4: 64 x 64, four; b32: 16 x 16, two.
  const Square q = bits == 32 ? Square{16, 2, true} : Square{256u / bits, 16u / bits, false};
  const uint32_t frac_elems = kFractalBytes * 8 / bits;
  const uint64_t square_bytes = uint64_t{q.fractals} * kFractalBytes;
  aicore::san::Instr in(aicore::Pipe::kMte1, kApi, loc);
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const int64_t sq =
        int64_t{p.startIndex} + (p.addrMode == 0 ? 1 : -1) * int64_t{p.srcStride} * i;
    if (sq < 0) Raise(checks::kParams, kApi, "the source address runs below the tensor");
    const uint64_t s = static_cast<uint64_t>(sq) * square_bytes;
    const uint64_t d0 = uint64_t{i} * (p.dstGap + 1u) * kFractalBytes;
    const uint64_t frac_pitch = (p.dstFracGap + 1u) * uint64_t{kFractalBytes};
    RequireRange(src, kApi, "src", s, square_bytes);
    RequireRange(dst, kApi, "dst", d0, (q.fractals - 1) * frac_pitch + kFractalBytes);
    if (in) {
      in.Read(src.ptr + s, square_bytes);
      in.WriteBlocks(dst.ptr + d0, q.fractals, kFractalBytes, frac_pitch);
    }
    for (uint32_t r = 0; r < q.side; ++r) {
      for (uint32_t c = 0; c < q.side; ++c) {
        // T(r, c) = S(c, r); T is stored as the source is, its fractals frac_pitch apart.
        const uint64_t t = SquareIndex(q, r, c);
        const uint64_t frac = t / frac_elems;
        std::byte* d = Mutable(dst) + d0 + frac * frac_pitch;
        SetBits(d, t % frac_elems, bits, GetBits(src.ptr + s, SquareIndex(q, c, r), bits));
      }
    }
  }
}

void CopyToBiasTable(const View& dst, const View& src, const AscendC::DataCopyParams& params,
                     aicore::SrcLoc loc) {
  constexpr const char* kApi = "DataCopy(C1->C2, DataCopyParams)";
  RequirePosition(dst, kApi, "dst", {P::C2});
  RequirePosition(src, kApi, "src", {P::C1});
  // blockLen and the strides count 64-byte blocks on Atlas A2/A3 and 32-byte ones on the 950
  // (the mmad sample's C1 -> C2 copy).
  const aicore::BlockContext& ctx = aicore::RequireBlockContext(kApi);
  const uint64_t unit = IsRegBaseArch(ctx.product->arch) ? 32 : 64;
  RequireAligned(dst, kApi, "dst", 64);
  RequireAligned(src, kApi, "src", 32);
  const uint64_t len = params.blockLen * unit;
  const uint64_t src_pitch = len + params.srcStride * unit;
  const uint64_t dst_pitch = len + params.dstStride * unit;
  if (params.blockCount == 0) return;
  RequireRange(src, kApi, "src", 0, (params.blockCount - 1) * src_pitch + len);
  RequireRange(dst, kApi, "dst", 0, (params.blockCount - 1) * dst_pitch + len);
  aicore::san::Instr in(aicore::Pipe::kMte1, kApi, loc);
  if (in) {
    in.ReadBlocks(src.ptr, params.blockCount, len, src_pitch);
    in.WriteBlocks(dst.ptr, params.blockCount, len, dst_pitch);
  }
  for (uint32_t i = 0; i < params.blockCount; ++i) {
    std::memmove(Mutable(dst) + i * dst_pitch, src.ptr + i * src_pitch, len);
  }
}

}  // namespace lngrad::cube
