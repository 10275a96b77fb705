// The vector instruction set of the simulated AI core (library lngrad_aicore): each device
// instruction implemented once, as a scalar loop and as Google Highway code compiled for every
// SIMD target and chosen at run time (src/aicore/instructions.cpp, instructions-inl.h). Used by
// the kernel API (AscendC::Add & co., vector_ops.h) and by the high-level APIs (src/adv).
//
// Element-wise instructions: every element gets exactly one IEEE binary32 operation, with the
// operands in the order written here (half: widened exactly, computed in float, rounded once to
// nearest even, which equals the correctly rounded half operation). The SIMD versions give the
// scalar loops' bits because each lane does the same single correctly rounded operation; the
// library is built with -ffp-contract=off and no fast-math. dst may be identical to an input
// (in place, as the device allows); when dst overlaps an input only partly the scalar loop runs,
// element by element in increasing index order. NaN payloads are not promised where two NaNs
// meet (the compiler may commute the operands of + and *).
#pragma once

#include <cstddef>
#include <cstdint>

#include "lngrad/environment.h"
#include "lngrad/half.h"

namespace AscendC {

// Rounding of Cast (the instruction's operand).
enum class RoundMode : uint8_t {
  CAST_NONE = 0,   // the type pair's default: exact widening, RNE narrowing
  CAST_RINT,       // round to nearest, ties to even
  CAST_FLOOR,      // toward -inf
  CAST_CEIL,       // toward +inf
  CAST_ROUND,      // to nearest, ties away from zero
  CAST_TRUNC,      // toward zero
  CAST_ODD,        // to odd (von Neumann)
  CAST_HYBRID,     // hifloat8_t destinations only (lngrad_aicore/fp8.h); no vector Cast takes it
  UNKNOWN = 0xFF,  // not set (the register API's CastTrait default: the pair's default)
};

}  // namespace AscendC

namespace lngrad::aicore {

// Implementation: Highway SIMD or scalar loops (the reference); all give the same bits in every
// buffer. The user's names mean what they mean for the native library (lngrad::Impl,
// lngrad/environment.h): kAuto, kSimd and kScalar have the values of lngrad::Impl's (auto = the
// fastest, simd; scalar = the reference). kSimd also lets a high-level API fuse its steps row by
// row where that provably leaves the same memory (LayerNormGrad's vector path); kSimdSteps, a
// debugging mode of this layer only (LNGRAD_ADV_FUSE=0, no user name), is SIMD with every step a
// separate pass, as the device runs it.
enum class Impl {
  kAuto = static_cast<int>(lngrad::Impl::kAuto),
  kSimd = static_cast<int>(lngrad::Impl::kSimd),
  kScalar = static_cast<int>(lngrad::Impl::kScalar),
  kSimdSteps,
};
// The user's choice (the CLI's --impl, LNGRAD_IMPL) as this layer's Impl.
constexpr Impl FromUserImpl(lngrad::Impl impl) { return static_cast<Impl>(impl); }
// kAuto -> kScalar when LNGRAD_IMPL is "scalar", else kSimdSteps when LNGRAD_ADV_FUSE is "0",
// else kSimd: lngrad::ProcessEnvironment(), the library's one reader of these variables, read
// once per process. Other values are returned unchanged.
Impl ResolveImpl(Impl requested);
// Name of the Highway target the SIMD path dispatches to on this machine (e.g. "AVX2").
const char* SimdTargetName();

inline constexpr uint32_t kRepeatLanes = 64;  // floats per 256-byte repeat / register

// kMax: a > b ? a : b, kMin: a < b ? a : b (so a NaN operand or two zeros of either sign give b);
// exact, one comparison per element.
enum class BinaryOp : int { kAdd, kSub, kMul, kDiv, kMax, kMin };        // dst = a op b
enum class ScalarOp : int { kAdds, kSubs, kMuls, kDivs, kMaxs, kMins };  // dst = a op s
// kSqrt: sqrt(a), kRecip: 1.0f / a (correctly rounded); kAbs: |a| (sign cleared); kRelu:
// a > 0 ? a : +0 (NaN -> +0); kExp: e^a, kLn: ln a, kRsqrt: 1 / sqrt(a), each computed in double
// and rounded once to the element type (half: through round-to-odd float, so a single correct
// rounding of the double result). kExp, kLn and kRsqrt have no SIMD version: the scalar loop
// runs on every path.
enum class UnaryOp : int { kSqrt, kRecip, kAbs, kRelu, kExp, kLn, kRsqrt };

// One implementation of the instructions: simd = false runs the scalar loops.
struct Ops {
  bool simd = true;
  // Row fusion where a high-level API has it (Impl::kSimd); not read by the instructions.
  bool fuse = false;

  void Binary(BinaryOp op, float* dst, const float* a, const float* b, size_t n) const;
  void Scalar(ScalarOp op, float* dst, const float* a, float s, size_t n) const;
  void Unary(UnaryOp op, float* dst, const float* a, size_t n) const;
  // Half operands; s is the scalar's value (the half scalar widened).
  void Binary(BinaryOp op, Half* dst, const Half* a, const Half* b, size_t n) const;
  void Scalar(ScalarOp op, Half* dst, const Half* a, float s, size_t n) const;
  void Unary(UnaryOp op, Half* dst, const Half* a, size_t n) const;

  void Add(float* d, const float* a, const float* b, size_t n) const {
    Binary(BinaryOp::kAdd, d, a, b, n);
  }
  void Sub(float* d, const float* a, const float* b, size_t n) const {
    Binary(BinaryOp::kSub, d, a, b, n);
  }
  void Mul(float* d, const float* a, const float* b, size_t n) const {
    Binary(BinaryOp::kMul, d, a, b, n);
  }
  void Div(float* d, const float* a, const float* b, size_t n) const {
    Binary(BinaryOp::kDiv, d, a, b, n);
  }
  void Adds(float* d, const float* a, float s, size_t n) const {
    Scalar(ScalarOp::kAdds, d, a, s, n);
  }
  void Subs(float* d, const float* a, float s, size_t n) const {
    Scalar(ScalarOp::kSubs, d, a, s, n);
  }
  void Muls(float* d, const float* a, float s, size_t n) const {
    Scalar(ScalarOp::kMuls, d, a, s, n);
  }
  void Divs(float* d, const float* a, float s, size_t n) const {
    Scalar(ScalarOp::kDivs, d, a, s, n);
  }
  void Sqrt(float* d, const float* a, size_t n) const { Unary(UnaryOp::kSqrt, d, a, n); }
  void Recip(float* d, const float* a, size_t n) const { Unary(UnaryOp::kRecip, d, a, n); }

  // Data movement, casts and reduction trees with this path's implementation (the free
  // functions below say what they do).
  void Fill(float* d, float v, size_t n) const;
  void Fill(Half* d, Half v, size_t n) const;
  void BroadcastRows(float* d, const float* src, size_t rows, size_t h) const;
  void CastHalfToFloat(float* d, const Half* s, size_t n) const;
  void CastFloatToHalf(Half* d, const float* s, size_t n) const;
  void CastFloatToHalf(Half* d, const float* s, size_t n, AscendC::RoundMode mode) const;
  float Tree(const float* src, uint32_t n) const;
  void ReduceSumRows(float* dst, const float* src, uint32_t cal, uint32_t h) const;
};

// The implementation `impl` resolves to (ResolveImpl): simd unless kScalar, fuse for kSimd.
inline Ops MakeOps(Impl impl) {
  const Impl r = ResolveImpl(impl);
  return Ops{r != Impl::kScalar, r == Impl::kSimd};
}

// Copies and fills move bits (NaN payloads included); no arithmetic.
void Fill(float* dst, float value, size_t n, bool simd = true);
void Fill(Half* dst, Half value, size_t n, bool simd = true);
// Writes `rows` rows of `h` copies of src[r] (Brcb on 2201 / Duplicate on 2002: same bits),
// row by row, each src[r] read just before its row is written.
void BroadcastRows(float* dst, const float* src, size_t rows, size_t h, bool simd = true);

// Casts (spec §1.10): half -> float exact, NaN payloads kept as they are (not quieted);
// float -> half round to nearest even, overflow to infinity (CAST_NONE / CAST_RINT without
// saturation), NaN -> quiet NaN with the top payload bits (lngrad/half.h). The SIMD version
// (F16C, AVX2 targets and above; the scalar loop elsewhere) gives the same bits for every input.
// dst and src either disjoint or, float -> half only, dst at or below src (in place); other
// overlaps run the scalar loop, element by element in increasing order.
void CastHalfToFloat(float* dst, const Half* src, size_t n, bool simd = true);
void CastFloatToHalf(Half* dst, const float* src, size_t n, bool simd = true);
// float -> half in `mode`: CAST_NONE / CAST_RINT as CastFloatToHalf; FLOOR, CEIL, ROUND, TRUNC,
// ODD as named, overflow to +-inf or the largest finite value as the direction says, NaN ->
// quiet NaN.
Half FloatToHalf(float f, AscendC::RoundMode mode) noexcept;
// Conversions of Cast beyond half <-> float (the vendor's Cast table for Atlas A2/A3; precision
// conversion rules: the modes as named, CAST_NONE = CAST_RINT where precision is lost, overflow
// saturates, NaN -> 0 for an integer destination [inference: the saturation mode's NaN rule]).
// RoundToIntegral: float -> float rounded to an integral value in `mode` (+-0, +-inf and NaN
// unchanged, the sign of a zero result kept).
float RoundToIntegral(float f, AscendC::RoundMode mode) noexcept;
int32_t FloatToInt32(float f, AscendC::RoundMode mode) noexcept;
int16_t FloatToInt16(float f, AscendC::RoundMode mode) noexcept;
// int32 -> float in `mode` (exact below 2^24).
float Int32ToFloat(int32_t v, AscendC::RoundMode mode) noexcept;
// int32 -> int16 with saturation.
int16_t Int32ToInt16(int32_t v) noexcept;
// float -> bfloat16 bits in `mode` (CAST_NONE = CAST_RINT): the magnitude rounded as named,
// overflow to +-inf or the largest finite value as the direction says, NaN -> quiet NaN.
uint16_t FloatToBf16Bits(float f, AscendC::RoundMode mode) noexcept;
// int64 -> float in `mode` (exact below 2^24).
float Int64ToFloat(int64_t v, AscendC::RoundMode mode) noexcept;
// float -> an integer in [lo, hi]: rounded to an integral value in `mode` (CAST_NONE = CAST_RINT),
// then saturated; NaN -> 0.
int64_t FloatToIntSat(float f, AscendC::RoundMode mode, int64_t lo, int64_t hi) noexcept;
// A double rounded once to half, to nearest even (overflow to +-inf, NaN -> quiet NaN).
Half DoubleToHalf(double d) noexcept;

// The mode's name as the Ascend C API spells it ("CAST_RINT").
const char* RoundModeName(AscendC::RoundMode mode) noexcept;
// float -> half RNE in the Reg Cast's saturation mode (SatMode::SAT; 3510 LayerNormGradBeta
// stores): finite results beyond the half range and infinities become +-65504, NaN becomes +0,
// as the Cast documentation states for float-to-float conversions (the sign of that 0 is not
// stated: +0 is an inference).
Half FloatToHalfSaturate(float f);

// The reduction tree of one WholeReduceSum repeat (spec §1.8): adjacent pairs, level by level,
// left + right, over 64 lanes; lanes >= n (n <= 64) enter as +0. Scalar reference.
float ScalarTree64(const float* src, uint32_t n);
// ReduceSumImpl (spec §1.8) with the scalar tree; see ReduceSumRows.
void ScalarReduceSumRows(float* dst, const float* src, uint32_t calSize, uint32_t hLength);
// out[t] = the tree over src[t*stride .. t*stride + lanes) for t < count; the SIMD version
// evaluates several trees at once with the same additions. A group of trees is read completely
// before its sums are written; out may overlap src only the way ReduceSumRows' later passes do
// (out[t] at or below src + t*stride).
void TreeSums(bool simd, const float* src, size_t stride, uint32_t lanes, size_t count, float* out);
// ReduceSumRows with the scalar (simd = false) or the SIMD trees: identical slots and bits.
void ReduceSumRowsWith(bool simd, float* dst, const float* src, uint32_t calSize, uint32_t hLength);
// One row of ReduceSumImpl (spec §1.8): the passes of ReduceSumRows for a row of h values at
// `row`, pass-1 (and later) partial sums written to partials[0..), the row's sum to *final_sum
// (the slots ReduceSumRows uses are partials = dst + i*h, final = dst + i).
void ReduceRow(bool simd, const float* row, uint32_t h, float* partials, float* final_sum);
// Highest element index + 1 that ReduceSumRows(dst, src, calSize, h) writes in dst.
uint64_t ReduceSumRowsExtent(uint64_t calSize, uint64_t h);

// One WholeReduceSum repeat (spec §1.8): the adjacent-pair binary tree over 64 lanes, lanes
// >= n taken as +0. n in [0, 64].
float ReduceRepeat64(const float* src, uint32_t n, Impl impl = Impl::kAuto);
// ReduceSumImpl(dst, src, calSize, H) of the vector path (spec §1.8), partial sums included.
// Writes dst[i] for i < calSize/H and partials at dst[i*H ...]; dst and src must not overlap.
// hLength == 0 writes nothing.
void ReduceSumRows(float* dst, const float* src, uint32_t calSize, uint32_t hLength,
                   Impl impl = Impl::kAuto);

}  // namespace lngrad::aicore
