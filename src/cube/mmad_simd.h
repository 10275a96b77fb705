// Mmad's inner product with Highway (mmad_simd.cpp): the same operations in the same order as the
// scalar reading of the accumulation order (mmad.cpp), on decoded operands, lanes across n.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lngrad::cube::detail {

// Where C's element (r, n) is: rows of np values (blocks 0), or in place in L0C's NZ layout
// (16 x 16 blocks, row r's 16 values of a block contiguous, `blocks` 16-row blocks per 16-column
// block). The kernels read and write vectors from columns that are multiples of their lanes
// (at most 16), contiguous either way.
struct CLayout {
  uint32_t np;  // B's (and C's) columns: a multiple of 16
  uint32_t blocks;
  size_t At(size_t r, size_t n) const {
    return blocks == 0 ? r * np + n : ((n / 16) * blocks + r / 16) * 256 + (r % 16) * 16 + n % 16;
  }
};

// C (m rows, the initial values) += for each K fractal of c0 values in k order, the fractal's
// products summed from 0 in k order. a: m rows of k values; b: k rows of np values. Float: each
// product rounded, then each sum; exact_products (a and b widened from half, so every product is
// exact in float) may fuse the two, which gives the same bits.
void MmadRowsF32(const float* a, const float* b, float* c, const CLayout& lay, uint32_t m,
                 uint32_t k, uint32_t c0, bool exact_products);
// The same in int32 with wrapping sums (the products of int8 and int4 values are exact).
void MmadRowsS32(const int32_t* a, const int32_t* b, int32_t* c, const CLayout& lay, uint32_t m,
                 uint32_t k, uint32_t c0);

// A whole ZN fractal of half B (16 n rows of 16 k values, raw bits) as 16 k rows of 16 floats
// (dst_ld apart), exactly.
void HalfFractalToRows(const std::byte* src, float* dst, size_t dst_ld);

// count half values (raw bits) from src to float, exactly.
void HalfToFloat(const std::byte* src, uint64_t count, float* dst);

}  // namespace lngrad::cube::detail
