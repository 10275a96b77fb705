// Element-wise vector primitives of the simulated device (internal to lngrad_adv).
//
// Each primitive is one device instruction over n elements: every element gets exactly one
// IEEE binary32 operation, with the operands in the order written here. The SIMD versions
// (Google Highway, dynamic dispatch) give the same bits as the scalar loops because each lane
// does the same single correctly rounded operation. dst may be identical to an input (in-place,
// as the device allows); when dst overlaps an input only partly the scalar loop runs, in
// increasing index order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lngrad/half.h"

namespace lngrad::adv::detail {

enum class BinaryOp : int { kAdd, kSub, kMul, kDiv };     // dst = a op b
enum class ScalarOp : int { kAdds, kSubs, kMuls, kDivs };  // dst = a op s
enum class UnaryOp : int { kSqrt, kRecip };                // dst = sqrt(a), 1.0f / a

// Which implementation the element-wise steps use.
struct Ops {
  bool simd = true;
  // Row fusion where a kernel has it (LayerNormGrad's vector path): Impl::kSimd.
  bool fuse = false;

  void Binary(BinaryOp op, float* dst, const float* a, const float* b, size_t n) const;
  void Scalar(ScalarOp op, float* dst, const float* a, float s, size_t n) const;
  void Unary(UnaryOp op, float* dst, const float* a, size_t n) const;

  void Add(float* d, const float* a, const float* b, size_t n) const { Binary(BinaryOp::kAdd, d, a, b, n); }
  void Sub(float* d, const float* a, const float* b, size_t n) const { Binary(BinaryOp::kSub, d, a, b, n); }
  void Mul(float* d, const float* a, const float* b, size_t n) const { Binary(BinaryOp::kMul, d, a, b, n); }
  void Div(float* d, const float* a, const float* b, size_t n) const { Binary(BinaryOp::kDiv, d, a, b, n); }
  void Adds(float* d, const float* a, float s, size_t n) const { Scalar(ScalarOp::kAdds, d, a, s, n); }
  void Subs(float* d, const float* a, float s, size_t n) const { Scalar(ScalarOp::kSubs, d, a, s, n); }
  void Muls(float* d, const float* a, float s, size_t n) const { Scalar(ScalarOp::kMuls, d, a, s, n); }
  void Divs(float* d, const float* a, float s, size_t n) const { Scalar(ScalarOp::kDivs, d, a, s, n); }
  void Sqrt(float* d, const float* a, size_t n) const { Unary(UnaryOp::kSqrt, d, a, n); }
  void Recip(float* d, const float* a, size_t n) const { Unary(UnaryOp::kRecip, d, a, n); }

  // Data movement, casts and reduction trees with this path's implementation.
  void Fill(float* d, float v, size_t n) const;
  void BroadcastRows(float* d, const float* src, size_t rows, size_t h) const;
  void CastHalfToFloat(float* d, const Half* s, size_t n) const;
  void CastFloatToHalf(Half* d, const float* s, size_t n) const;
  float Tree(const float* src, uint32_t n) const;
  void ReduceSumRows(float* dst, const float* src, uint32_t cal, uint32_t h) const;
};

// Copies and fills move bits; no arithmetic, so both versions give the same bits trivially.
// `simd` = false runs the scalar loop (the reference path, Impl::kScalar).
void Fill(float* dst, float value, size_t n, bool simd = true);
// Writes `rows` rows of `h` copies of src[r] (Brcb on 2201 / Duplicate on 2002: same bits),
// row by row, each src[r] read just before its row is written.
void BroadcastRows(float* dst, const float* src, size_t rows, size_t h, bool simd = true);

// Casts (spec §1.10): half -> float exact, NaN payloads kept as they are (not quieted);
// float -> half round to nearest even, overflow to infinity (CAST_NONE / CAST_RINT without
// saturation), NaN -> quiet NaN with the top payload bits (lngrad/half.h). The SIMD version
// (F16C, AVX2 targets and above; the scalar loop elsewhere) gives the same bits for every input.
void CastHalfToFloat(float* dst, const Half* src, size_t n, bool simd = true);
void CastFloatToHalf(Half* dst, const float* src, size_t n, bool simd = true);

// The reduction tree of one WholeReduceSum repeat (spec §1.8): adjacent pairs, level by level,
// left + right, over 64 lanes; lanes >= n (n <= 64) enter as +0. Scalar reference.
float ScalarTree64(const float* src, uint32_t n);
// ReduceSumImpl (spec §1.8) with the scalar tree; see ReduceSumRows in devmath.h.
void ScalarReduceSumRows(float* dst, const float* src, uint32_t calSize, uint32_t hLength);
// out[t] = the tree over src[t*stride .. t*stride + lanes) for t < count; the SIMD version
// evaluates several trees at once with the same additions (reduce_ops.cpp). A group of trees
// is read completely before its sums are written; out may overlap src only the way
// ReduceSumRows' later passes do (out[t] at or below src + t*stride).
void TreeSums(bool simd, const float* src, size_t stride, uint32_t lanes, size_t count,
              float* out);
// ReduceSumRows with the scalar (simd = false) or the SIMD trees: identical slots and bits.
void ReduceSumRowsWith(bool simd, float* dst, const float* src, uint32_t calSize,
                       uint32_t hLength);

// float -> half RNE with saturation (3510 LayerNormGradBeta stores, [inference]): finite
// results beyond the half range and infinities become +-65504; NaN stays NaN.
Half FloatToHalfSaturate(float f);

// One row of ReduceSumImpl (spec §1.8): the passes of ReduceSumRows for a row of h values at
// `row`, pass-1 (and later) partial sums written to partials[0..), the row's sum to *final
// (the slots ReduceSumRows uses are partials = dst + i*h, final = dst + i).
void ReduceRow(bool simd, const float* row, uint32_t h, float* partials, float* final_sum);

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
// half casts happen inside the row kernels (reduce_ops.cpp, docs/math.md §8). Half: dy_h/x_h/mean_h/var_h are read instead
// of the float pointers, each x row is cast into tmp1 (its final content there) and the float
// pd_x/res rows are cast to pd_x_h/res_h. SIMD only: Impl::kScalar runs the steps.
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

// Name of the Highway target chosen by dynamic dispatch.
const char* DispatchedTargetName();

}  // namespace lngrad::adv::detail
