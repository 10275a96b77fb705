// Row kernels of the high-level APIs (internal to lngrad_adv), built on the instruction set's
// loops, trees and half codec (lngrad_aicore/instructions.h, src/aicore/instructions-inl.h):
// LayerNormGrad's fused vector-path rows and LayerNorm's 64-lane fold. SIMD only; the scalar
// path runs the APIs' steps through the instructions instead.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lngrad/half.h"

namespace lngrad::adv::detail {

// Row kernels of the fused vector-path LayerNormGrad (layernormgrad.cpp, RowFusedChunk): the
// element-wise steps of spec §1.7 for one row, each element with exactly the operations and
// operand order of the step-by-step path. Every pointer is a row of h floats; outputs must not
// overlap each other or the inputs, except x2 == x (isReuseSource).
struct GradRowPass1 {
  const float* dy;
  const float* x;
  const float* gamma;
  float mean, rstd3, rstd;
  float* x2;   // x - mean
  float* res;  // x2 * rstd
  float* x3;   // (dy * gamma) * rstd
  float* p1;   // ((dy * gamma) * (x2 * rstd3)) * k_half
  float* p2;   // x3 * k_neg1
  float* p3;   // x2 * k_neg2
  size_t h;
  // -0.5, -1, -2, passed at run time as the steps pass them: a constant -1 would let the
  // compiler turn the multiplication into a sign flip, which differs for NaN (sign, quieting).
  float k_half, k_neg1, k_neg2;
};
struct GradRowPass2 {
  const float* x2;
  const float* x3;
  float pd_var, pd_mean;  // already scaled by 2/N and 1/N
  float* x1;              // (pd_var * x2) + pd_mean
  float* pd_x;            // x1 + x3
  float* bsh;             // pd_mean, broadcast
  size_t h;
};
// A chunk's rows through GradRowPass1, the three row trees (ReduceRow), the per-row scalars of
// ComputePdMean/ComputePdX, and GradRowPass2 (layernormgrad.cpp, RowFusedChunk, says which
// final memory this leaves and when it may run). On fixed-width SIMD targets with h > 64 the
// product rows are not stored: their first-pass tree sums are computed in registers and the
// half casts happen inside the row kernels (row_kernels.cpp, docs/math.md §8). Half:
// dy_h/x_h/mean_h/var_h are read instead of the float pointers, each x row is cast into tmp1 (its
// final content there) and the float pd_x/res rows are cast to pd_x_h/res_h. SIMD only:
// Impl::kScalar runs the steps.
struct FusedGradArgs {
  uint32_t rows = 0, h = 0;
  float eps = 0, one_over_n = 0, two_over_n = 0, k_half = 0, k_neg1 = 0, k_neg2 = 0;
  const float* dy = nullptr;
  const float* x = nullptr;
  const float* mean = nullptr;
  const float* var = nullptr;
  const Half* dy_h = nullptr;
  const Half* x_h = nullptr;
  const Half* mean_h = nullptr;
  const Half* var_h = nullptr;
  const float* gamma = nullptr;  // float gamma (cast once for half)
  float* x1 = nullptr;
  float* x2 = nullptr;
  float* x3 = nullptr;
  float* res = nullptr;
  float* pd_x = nullptr;
  float* bsh = nullptr;
  float* pd_var = nullptr;
  float* pd_mean = nullptr;
  float* tmp1 = nullptr;
  Half* pd_x_h = nullptr;
  Half* res_h = nullptr;
  float* priv = nullptr;  // 4*h + h/64 + 2 floats of private rows
};
void FusedGradRows(const FusedGradArgs& c);

// LayerNorm's per-row fold onto the first 64 lanes (layernorm.cpp, FoldReduce), h > 64, SIMD.
void FoldRows(float* src, size_t rows, size_t h);

}  // namespace lngrad::adv::detail
