// Mmad's inner product with Highway (mmad_simd.cpp): the same operations in the same order as the
// scalar reading of the accumulation order (mmad.cpp), on decoded operands, lanes across n.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lngrad::cube::detail {

// c (m rows of np values, the initial C) += for each K fractal of c0 values in k order, the
// fractal's products summed from 0 in k order. a: m rows of k values; b: k rows of np values;
// np a multiple of 16. Float: each product rounded, then each sum; exact_products (a and b
// widened from half, so every product is exact in float) may fuse the two, which gives the same
// bits.
void MmadRowsF32(const float* a, const float* b, float* c, uint32_t m, uint32_t k, uint32_t np,
                 uint32_t c0, bool exact_products);
// The same in int32 with wrapping sums (the products of int8 and int4 values are exact).
void MmadRowsS32(const int32_t* a, const int32_t* b, int32_t* c, uint32_t m, uint32_t k,
                 uint32_t np, uint32_t c0);

// count half values (raw bits) from src to float, exactly.
void HalfToFloat(const std::byte* src, uint64_t count, float* dst);

}  // namespace lngrad::cube::detail
