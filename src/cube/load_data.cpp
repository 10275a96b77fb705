// LoadData 2D and LoadDataWithTranspose: L1 -> L0A/L0B in 512-byte fractals, on MTE1, and the
// copy L1 -> BiasTable.
#include <cstring>
#include <set>
#include <string>

#include "cube_internal.h"

namespace lngrad::cube {
namespace {
using P = AscendC::TPosition;

void RequireLoadOperands(const View& dst, const View& src, const char* api) {
  RequirePosition(dst, api, "dst", {P::A2, P::B2});
  RequirePosition(src, api, "src", {P::A1, P::B1, P::C1});
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

void LoadData2dV2(const View& dst, const View& src, const AscendC::LoadData2DParamsV2& p, Elem e,
                  aicore::SrcLoc loc) {
  constexpr const char* kApi = "LoadData(L1->L0, LoadData2DParamsV2)";
  RequireLoadOperands(dst, src, kApi);
  const aicore::BlockContext& ctx = aicore::RequireBlockContext(kApi);
  if (!IsRegBaseArch(ctx.product->arch)) {
    Raise(checks::kParams, kApi, "LoadData2DParamsV2 is the Ascend 950's (use LoadData2DParams)");
  }
  const uint32_t bits = ElemBits(e);
  const uint32_t c0 = 256 / bits;  // elements per 32 bytes
  // The transposes need whole squares: b32 kStep even, b8 mStep even, b4 mStep a multiple of 4.
  const uint32_t m_unit = bits == 8 ? 2 : (bits == 4 ? 4 : 1);
  if (p.ifTranspose && ((bits == 32 && p.kStep % 2 != 0) || p.mStep % m_unit != 0)) {
    Raise(checks::kParams, kApi,
          "ifTranspose with " + std::string(ElemName(e)) + " needs " +
              (bits == 32 ? "an even kStep" : "mStep a multiple of " + std::to_string(m_unit)));
  }
  aicore::san::Instr in(aicore::Pipe::kMte1, kApi, loc);
  // Source S: rows in 16-element blocks (mStep), columns in C0 chunks (kStep); fractal (r, c) at
  // ((kStart + c) * srcStride + mStart + r) x 512 B. Without transpose D = S, else D = S^T, both
  // in the destination's NZ grid: fractal (r, c) at (c * dstStride + r) x 512 B.
  const uint32_t rows = p.mStep * 16u, cols = p.kStep * c0;
  const auto src_frac = [&](uint32_t r, uint32_t c) {
    return ((uint64_t{p.kStartPosition} + c / c0) * static_cast<uint64_t>(p.srcStride) +
            p.mStartPosition + r / 16) *
           kFractalBytes;
  };
  const auto dst_frac = [&](uint32_t r, uint32_t c) {
    return (uint64_t{c / c0} * p.dstStride + r / 16) * kFractalBytes;
  };
  std::set<uint64_t> written;  // a b32 or b8 transpose fills one fractal from two sources
  for (uint32_t r = 0; r < rows; r += 16) {
    for (uint32_t c = 0; c < cols; c += c0) {
      RequireRange(src, kApi, "src", src_frac(r, c), kFractalBytes);
      if (in) in.Read(src.ptr + src_frac(r, c), kFractalBytes);
      const uint64_t d = p.ifTranspose ? dst_frac(c, r) : dst_frac(r, c);
      RequireRange(dst, kApi, "dst", d, kFractalBytes);
      written.insert(d);
    }
  }
  if (in) {
    for (const uint64_t d : written) in.Write(dst.ptr + d, kFractalBytes);
  }
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const uint32_t v = GetBits(src.ptr + src_frac(r, c), (r % 16) * c0 + c % c0, bits);
      const uint32_t dr = p.ifTranspose ? c : r, dc = p.ifTranspose ? r : c;
      SetBits(Mutable(dst) + dst_frac(dr, dc), (dr % 16) * c0 + dc % c0, bits, v);
    }
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

namespace {

// blockCount blocks of len bytes, src_pitch and dst_pitch apart, on `pipe`.
void CopyBlocks(const char* api, aicore::Pipe pipe, const View& dst, const View& src,
                const AscendC::DataCopyParams& params, uint64_t len, uint64_t src_pitch,
                uint64_t dst_pitch, aicore::SrcLoc loc) {
  if (params.blockCount == 0 || len == 0) return;
  RequireRange(src, api, "src", 0, (params.blockCount - 1) * src_pitch + len);
  RequireRange(dst, api, "dst", 0, (params.blockCount - 1) * dst_pitch + len);
  aicore::san::Instr in(pipe, api, loc);
  if (in) {
    in.ReadBlocks(src.ptr, params.blockCount, len, src_pitch);
    in.WriteBlocks(dst.ptr, params.blockCount, len, dst_pitch);
  }
  for (uint32_t i = 0; i < params.blockCount; ++i) {
    std::memmove(Mutable(dst) + i * dst_pitch, src.ptr + i * src_pitch, len);
  }
}

}  // namespace

// L1 -> BiasTable on MTE1: blockLen and the gaps count 64-byte blocks on Atlas A2/A3 and 32-byte
// ones on the 950 (the mmad sample's C1 -> C2 copy). L1 -> Fixpipe Buffer on FIX: blockLen counts
// 128 bytes (the 950's API doubles it for its 64-byte instruction unit), srcStride and dstStride
// are head-to-head distances of 32 and 128 bytes (0 repeats the first block).
void CopyToBiasTable(const View& dst, const View& src, const AscendC::DataCopyParams& params,
                     aicore::SrcLoc loc) {
  if (dst.pos == P::C2PIPE2GM) {
    constexpr const char* kFbApi = "DataCopy(C1->C2PIPE2GM, DataCopyParams)";
    RequirePosition(src, kFbApi, "src", {P::C1, P::A1, P::B1});
    RequireAligned(dst, kFbApi, "dst", 128);
    RequireAligned(src, kFbApi, "src", 32);
    const uint64_t len = params.blockLen * uint64_t{128},
                   dst_pitch = params.dstStride * uint64_t{128};
    CopyBlocks(kFbApi, aicore::Pipe::kFix, dst, src, params, len, params.srcStride * uint64_t{32},
               dst_pitch, loc);
    if (IsRegBaseArch(aicore::RequireBlockContext(kFbApi).product->arch)) {
      // The 950's Fixpipe Buffer keeps the quantisation value's fields only (its DumpTensor
      // page): bits [7:0], [31:13] and [46:37] of each 8 bytes.
      for (uint32_t i = 0; i < params.blockCount; ++i) {
        std::byte* block = Mutable(dst) + i * dst_pitch;
        for (uint64_t b = 0; b + 8 <= len; b += 8) {
          uint64_t v;
          std::memcpy(&v, block + b, 8);
          v &= 0x00007FE0FFFFE0FFull;
          std::memcpy(block + b, &v, 8);
        }
      }
    }
    return;
  }
  constexpr const char* kApi = "DataCopy(C1->C2, DataCopyParams)";
  RequirePosition(dst, kApi, "dst", {P::C2});
  RequirePosition(src, kApi, "src", {P::C1});
  const aicore::BlockContext& ctx = aicore::RequireBlockContext(kApi);
  const uint64_t unit = IsRegBaseArch(ctx.product->arch) ? 32 : 64;
  RequireAligned(dst, kApi, "dst", 64);
  RequireAligned(src, kApi, "src", 32);
  const uint64_t len = params.blockLen * unit;
  CopyBlocks(kApi, aicore::Pipe::kMte1, dst, src, params, len, len + params.srcStride * unit,
             len + params.dstStride * unit, loc);
}

void FillConst(const View& dst, uint32_t repeat, uint32_t blocks, uint32_t gap, uint32_t value,
               uint32_t bits, aicore::SrcLoc loc) {
  constexpr const char* kApi = "Fill";
  const aicore::BlockContext& ctx = aicore::RequireBlockContext(kApi);
  const bool is950 = IsRegBaseArch(ctx.product->arch);
  if (is950) {
    RequirePosition(dst, kApi, "dst", {P::A1, P::B1, P::C1});
  } else {
    RequirePosition(dst, kApi, "dst", {P::A1, P::B1, P::C1, P::A2, P::B2});
  }
  const bool l0 = dst.pos == P::A2 || dst.pos == P::B2;
  const uint64_t unit = l0 ? kFractalBytes : 32;
  RequireAligned(dst, kApi, "dst", static_cast<uint32_t>(unit));
  if (repeat == 0 || blocks == 0) return;
  const uint64_t len = blocks * unit, pitch = (uint64_t{blocks} + gap) * unit;
  RequireRange(dst, kApi, "dst", 0, (repeat - 1) * pitch + len);
  aicore::san::Instr in(aicore::Pipe::kMte1, kApi, loc);
  if (in) in.WriteBlocks(dst.ptr, repeat, len, pitch);
  for (uint32_t r = 0; r < repeat; ++r) {
    for (uint64_t i = 0; i < len * 8 / bits; ++i) SetBits(Mutable(dst) + r * pitch, i, bits, value);
  }
}

uint64_t Dn2NzSrcExtent(const AscendC::Dn2NzParams& p) noexcept {
  if (p.dnNum == 0 || p.nValue == 0 || p.dValue == 0) return 0;
  return (uint64_t{p.dnNum} - 1) * p.srcDnMatrixStride + (uint64_t{p.dValue} - 1) * p.srcDValue +
         p.nValue;
}

void CopyDn2Nz(const View& dst, const std::byte* src, const AscendC::Dn2NzParams& p,
               uint32_t elem_bytes, aicore::SrcLoc loc) {
  constexpr const char* kApi = "DataCopy(GM->L1, Dn2NzParams)";
  const aicore::BlockContext& ctx = aicore::RequireBlockContext(kApi);
  if (!IsRegBaseArch(ctx.product->arch)) {
    Raise(checks::kType, kApi, "DN2NZ is the 950's (Ascend 950PR/950DT only)");
  }
  RequirePosition(dst, kApi, "dst", {P::A1, P::B1, P::C1});
  RequireAligned(dst, kApi, "dst", 32);
  if (p.dnNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  const uint64_t c0 = 32 / elem_bytes, chunks = (uint64_t{p.dValue} + c0 - 1) / c0;
  const uint64_t extent = (uint64_t{p.dnNum} - 1) * p.dstNzMatrixStride * elem_bytes +
                          (chunks - 1) * p.dstNzC0Stride * 32 +
                          (uint64_t{p.nValue} - 1) * p.dstNzNStride * 32 + 32;
  RequireRange(dst, kApi, "dst", 0, extent);
  aicore::san::Instr in(aicore::Pipe::kMte2, kApi, loc);
  for (uint64_t m = 0; m < p.dnNum; ++m) {
    for (uint64_t n = 0; n < p.nValue; ++n) {
      std::byte* row =
          Mutable(dst) + m * p.dstNzMatrixStride * elem_bytes + n * p.dstNzNStride * 32;
      for (uint64_t c = 0; c < chunks; ++c) {
        std::byte* out = row + c * p.dstNzC0Stride * 32;
        std::memset(out, 0, 32);
        for (uint64_t k = 0; k < c0 && c * c0 + k < p.dValue; ++k) {
          const std::byte* e =
              src + (m * p.srcDnMatrixStride + (c * c0 + k) * p.srcDValue + n) * elem_bytes;
          std::memcpy(out + k * elem_bytes, e, elem_bytes);
          if (in) in.Read(e, elem_bytes);
        }
        if (in) in.Write(out, 32);
      }
    }
  }
}

}  // namespace lngrad::cube
