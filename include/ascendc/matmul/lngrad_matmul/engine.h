// lngrad Ascend C Matmul: the non-template engine under AscendC::Matmul (layer matmul, issue 29).
// One base block of C at a time: A's and B's slices of baseK columns copied into L0A and L0B in
// the cube's layouts, Mmad into L0C (the bias as the first slice's initial value), then L0C to
// GM (the cube's Fixpipe) or to a local tensor. The K order and the choices:
// docs/ascendc_kernels.md, "The Matmul API".
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "lngrad_aicore/check.h"
#include "lngrad_cube/cube.h"

namespace lngrad::matmul {

using cube::Elem;
using View = aicore::detail::TensorView;

// kColumn: COLUMN_MAJOR, element (r, c) at c * ld + r (an ND matrix of the transpose).
enum class Fmt : uint8_t { kNd, kNz, kNdAlign, kColumn };

// A matrix as stored (before its transpose): ND rows ld elements apart, or NZ with ld rows
// (16-aligned) per column block of C0 elements.
struct Matrix {
  const std::byte* data = nullptr;
  Elem elem = Elem::kOther;
  Fmt fmt = Fmt::kNd;
  bool trans = false;
  uint64_t ld = 0;
};

// The block's memories: L0A, L0B, L0C, the BiasTable and (MX) an L1 stage for the scales.
struct Buffers {
  View l0a, l0b, l0c, bt;
  View l1mx;
};

// One operand's MX scales (e8m0, one per 32 K values; MatmulTypeWithScale): the code of row r
// (A's m, B's n) and K group g. kRows: r x ld + g (ND, A's scales untransposed, B's
// transposed); kPairs: two groups side by side, ((g / 2) x ld + r) x 2 + g mod 2 (ND, the other
// two); kNz (SCALE_FORMAT NZ, either transpose): 32-byte fractals of 16 rows x 2 groups, those of
// a 16-row block side by side, ((r / 16 x ld / 2 + g / 2) x 16 + r mod 16) x 2 + g mod 2 with
// ld the groups of a row. No data: every scale 1 (code 127): a plain fp8 Matmul.
enum class MxLayout : uint8_t { kRows, kPairs, kNz };
struct MxScale {
  const std::byte* data = nullptr;
  MxLayout layout = MxLayout::kRows;
  uint64_t ld = 0, groups = 0;  // groups: the K groups stored per row (past them: 127)
  uint8_t At(uint64_t r, uint64_t g) const;
};
struct MxScales {
  MxScale a, b;
};
// The scales as SetTensorScaleA/B set them; local: in a local tensor (the single-core shape's).
struct MxSource {
  const std::byte* data = nullptr;
  MxLayout layout = MxLayout::kRows;
  bool local = false;
};

// C's block [m0, m0 + m) x [n0, n0 + n) over K's [k_begin, k_begin + k), in slices of base_k.
struct Block {
  uint32_t m0, n0, m, n, k, base_k;
  uint32_t k_begin = 0;
};

// A's or B's K slice [k0, k0 + k) as a copy callback left it in L1 (NZ, from its element 0).
using SliceTile = std::function<Matrix(uint32_t k0, uint32_t k)>;

// L0C = A x B (+ bias, one row of n values from n0) for one block; acc: kF32 or kS32. tile_a /
// tile_b (when set) give each K slice of A / B instead of a and bmat.
// mx (fp8/fp4 A and B on the 950): each slice through MmadMx with these scales, K padded with
// zeros to 64.
void ComputeBlock(const Buffers& b, const Matrix& a, const Matrix& bmat, const Matrix* bias,
                  Elem acc, const Block& blk, aicore::SrcLoc loc, const SliceTile* tile_a = nullptr,
                  const SliceTile* tile_b = nullptr, const MxScales* mx = nullptr);

// 2:4 sparse B (int8, SparseMatmulType): B's stored values (dense: K / 2 a column, b.trans:
// n x K / 2) and the index: 2 bits a value, four to a byte, in NZ fractals of 16 columns x 8
// bytes with `index_ld` (16-aligned N) columns to a block of bytes. L0C = A x B (+ bias) for the
// block, summed in int32 (exact in any order).
void ComputeSparseBlock(const Buffers& b, const Matrix& a, const Matrix& bdense,
                        const std::byte* index, uint64_t index_ld, const Matrix* bias,
                        const Block& blk);

// Where a block of C goes: data is the block's first element.
struct Output {
  std::byte* data = nullptr;
  Elem elem = Elem::kOther;
  Fmt fmt = Fmt::kNd;
  uint64_t ld = 0;  // ND: elements between rows; NZ: rows per column block; column: between columns
  bool gm = true;
  bool atomic = false;
  uint32_t nz_c0 = 16;  // NZ: columns per block (8: float C with the channel split)
  // The block's first row in L0C and L0C's rows (0: the m written), for a write of some rows.
  uint32_t l0c_row0 = 0, l0c_m = 0;
  // int32 -> half: DEQF16 with deq_scalar, or VDEQF16 with the block's n values (8 bytes each,
  // in L1) in deq_vector.
  int quant = 0;
  uint64_t deq_scalar = 0;
  const View* deq_vector = nullptr;
};

// L0C's m x n block (the last ComputeBlock's) to `out`.
void WriteBlock(const Buffers& b, Elem acc, const Output& out, uint32_t m, uint32_t n,
                aicore::SrcLoc loc);

// The elements a write of m x n covers from out.data (for the caller's range check).
uint64_t OutputExtent(const Output& out, uint32_t m, uint32_t n) noexcept;

// Checked-mode and always-on misuse of the Matmul object ("matmul.*" checks).
[[noreturn]] void Fail(const char* api, const std::string& what);

}  // namespace lngrad::matmul
