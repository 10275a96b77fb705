// lngrad Ascend C cube: the transpose of a 16 x 16 block of 16-bit elements (with Highway,
// chosen at run time), which the L0B layout (16 n rows of 16 k values per fractal of half or
// bfloat16) and B's rows exchange: the cube's Mmad and the Matmul's L0B loads use it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lngrad::cube {

// dst's row i (dst_ld elements apart) = src's column i (src's rows src_ld elements apart), for i
// in [0, 16); the blocks must not overlap.
void Transpose16x16(const uint16_t* src, size_t src_ld, uint16_t* dst, size_t dst_ld);

}  // namespace lngrad::cube
