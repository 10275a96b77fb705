// lngrad Ascend C cube: which memory of the running block a pointer lies in (layer cube).
//
// The arrays a kernel declares in the cube's memories (`__cbuf__` L1, `__ca__` L0A, `__cb__` L0B,
// `__cc__` L0C, `__biasbuf__` BiasTable, `__fbuf__` Fixpipe Buffer: lngrad-asc rewrites them into
// CubeArray calls, lngrad_cube/cube.h) and the UB's (`__ubuf__`, layer simt) are plain host arrays
// inside the simulated memories; the tensor API's copies find from a pointer which memory it is.
#pragma once

#include <cstdint>

#include "lngrad_aicore/tensor.h"

namespace lngrad::cube {

// The cube memory (or UB) that holds p in the running block: its position (A1 for L1, A2, B2,
// CO1, C2, C2PIPE2GM, VECCALC for the UB) and p's byte address in it. False: none (global
// memory, or outside a block).
bool LocateLocal(const void* p, AscendC::TPosition* pos, uint32_t* addr) noexcept;

}  // namespace lngrad::cube
