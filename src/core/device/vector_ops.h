// Element-wise vector primitives of the simulated device (internal to lngrad_devmath).
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

namespace lngrad::devmath::detail {

enum class BinaryOp : int { kAdd, kSub, kMul, kDiv };     // dst = a op b
enum class ScalarOp : int { kAdds, kSubs, kMuls, kDivs };  // dst = a op s
enum class UnaryOp : int { kSqrt, kRecip };                // dst = sqrt(a), 1.0f / a

// Which implementation the element-wise steps use.
struct Ops {
  bool simd = true;

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
};

// Copies and fills move bits; no arithmetic, so one implementation serves both paths.
void Fill(float* dst, float value, size_t n);
// Writes `rows` rows of `h` copies of src[r] (Brcb on 2201 / Duplicate on 2002: same bits).
void BroadcastRows(float* dst, const float* src, size_t rows, size_t h);

// Casts (spec §1.10): half -> float exact; float -> half round to nearest even, overflow to
// infinity (CAST_NONE / CAST_RINT without saturation).
void CastHalfToFloat(float* dst, const Half* src, size_t n);
void CastFloatToHalf(Half* dst, const float* src, size_t n);
// float -> half RNE with saturation (3510 LayerNormGradBeta stores, [inference]): finite
// results beyond the half range and infinities become +-65504; NaN stays NaN.
Half FloatToHalfSaturate(float f);

// Name of the Highway target chosen by dynamic dispatch.
const char* DispatchedTargetName();

}  // namespace lngrad::devmath::detail
