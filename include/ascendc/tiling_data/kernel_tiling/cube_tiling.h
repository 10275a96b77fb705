// Kernel-side tiling struct of the Matmul high-level API (lib/matmul_intf.h), included by
// kernel_tiling.h. Same conventions as there: an X-macro field list (X(type, name), in the
// toolkit's order: optiling::TCubeTiling's image is this struct), every field 0.
#pragma once

#include <cstdint>

// clang-format off
#define LNGRAD_TCUBE_TILING_FIELDS(X)                                                          \
  X(int32_t, usedCoreNum) X(int32_t, M) X(int32_t, N) X(int32_t, Ka) X(int32_t, Kb)            \
  X(int32_t, singleCoreM) X(int32_t, singleCoreN) X(int32_t, singleCoreK)                      \
  X(int32_t, baseM) X(int32_t, baseN) X(int32_t, baseK)                                        \
  X(int32_t, depthA1) X(int32_t, depthB1) X(int32_t, stepM) X(int32_t, stepN)                  \
  X(int32_t, isBias) X(int32_t, transLength) X(int32_t, iterateOrder) X(int32_t, shareMode)    \
  X(int32_t, shareL1Size) X(int32_t, shareL0CSize) X(int32_t, shareUbSize)                     \
  X(int32_t, batchM) X(int32_t, batchN) X(int32_t, singleBatchM) X(int32_t, singleBatchN)      \
  X(int32_t, stepKa) X(int32_t, stepKb) X(int32_t, depthAL1CacheUB) X(int32_t, depthBL1CacheUB) \
  X(int32_t, dbL0A) X(int32_t, dbL0B) X(int32_t, dbL0C)                                        \
  X(int32_t, ALayoutInfoB) X(int32_t, ALayoutInfoS) X(int32_t, ALayoutInfoN)                   \
  X(int32_t, ALayoutInfoG) X(int32_t, ALayoutInfoD)                                            \
  X(int32_t, BLayoutInfoB) X(int32_t, BLayoutInfoS) X(int32_t, BLayoutInfoN)                   \
  X(int32_t, BLayoutInfoG) X(int32_t, BLayoutInfoD)                                            \
  X(int32_t, CLayoutInfoB) X(int32_t, CLayoutInfoS1) X(int32_t, CLayoutInfoN)                  \
  X(int32_t, CLayoutInfoG) X(int32_t, CLayoutInfoS2)                                           \
  X(int32_t, BatchNum) X(int32_t, mxTypePara)
// clang-format on

#define LNGRAD_CUBE_TILING_FIELD(type, name) type name = 0;

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)

// Matmul: 50 x int32, 200 bytes. Shapes in elements; baseM/baseN/baseK the block of one
// Iterate (L0A/L0B/L0C), stepM/stepN/stepKa/stepKb base blocks per L1 load, depthA1/depthB1
// base blocks the L1 holds, iterateOrder 0 (M first) or 1 (N first).
struct TCubeTiling {
  LNGRAD_TCUBE_TILING_FIELDS(LNGRAD_CUBE_TILING_FIELD)
};

#pragma pack(pop)

}  // namespace tiling
}  // namespace AscendC

#undef LNGRAD_CUBE_TILING_FIELD

static_assert(sizeof(AscendC::tiling::TCubeTiling) == 200);

using AscendC::tiling::TCubeTiling;
