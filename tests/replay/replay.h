// lngrad_replay: an independent scalar replay of the device algorithms, for bitwise comparison
// tests. Written from the spec (docs/spec/ascendc-layernormgrad.md §1.5-§1.10, §1.13, §3.3)
// with no code shared with src/: own binary16 conversions, own loops, own tiling mirrors.
//
// Every function mirrors the device's memory effects on raw pointers: what it writes to the
// outputs, to the float scratch, and to the inputs it clobbers (float + isReuseSource), in the
// device's order, one IEEE binary32 operation at a time (built with -ffp-contract=off).
// See README.md for the conventions and the points the spec leaves open.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace lngrad_replay {

// A float's bit pattern and back (the tiling keeps 1/N and 2/N as bits).
inline uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }
inline float FromBits(uint32_t u) { return std::bit_cast<float>(u); }

// binary16 storage. Any 2-byte IEEE half type can be passed by reinterpret_cast.
struct Half {
  uint16_t bits;
};
static_assert(sizeof(Half) == 2);

float HalfToFloat(Half h);  // exact
Half FloatToHalf(float f);  // round to nearest even; overflow -> inf (CAST_NONE / RINT)
Half FloatToHalfSaturate(
    float f);  // as FloatToHalf, but out-of-range and inf -> +-65504, NaN -> +0

// bfloat16 storage (1 sign, 8 exponent, 7 fraction bits): the widening is exact; the rounding is
// to nearest even on the 32-bit pattern (CAST_RINT without saturation: overflow -> inf, a
// subnormal result kept), a NaN kept quiet with its sign and top payload bits.
struct Bf16 {
  uint16_t bits;
};
static_assert(sizeof(Bf16) == 2);
float Bf16ToFloat(Bf16 b);
Bf16 FloatToBf16(float f);
// float -> bfloat16 CAST_RINT in the saturation mode: NaN -> +0, infinities and values that
// round past the largest finite bfloat16 -> +-0x7F7F (the antiquant casts).
Bf16 FloatToBf16Saturate(float f);

// An operand element (float or Half) as float, exactly, and a float stored as T (FloatToHalf).
inline float ToFloat(float v) { return v; }
inline float ToFloat(Half v) { return HalfToFloat(v); }
template <class T>
T FromFloat(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalf(v);
  } else {
    return v;
  }
}

// The 30 uint32 fields of LayerNormGradTiling, spec §2.1 order (same bytes as the kernel struct).
struct GradTiling {
  uint32_t stackBufferSize, bLength, sLength, hLength, originalHLength, oneCalSize, nohCalSize,
      loopNum, tailSize, nohTailSize, tmpTensorBSHPos, tmpTensorBSHSize, pdVarTensorPos,
      pdVarTensorSize, pdMeanTensorPos, pdMeanTensorSize, x1TensorPos, x1TensorSize, x2TensorPos,
      x2TensorSize, x3TensorPos, x3TensorSize, tmpTensorPos, tmpTensorSize, tmpTensor1Pos,
      tmpTensor1Size, tmpTensor2Pos, tmpTensor2Size, lastDimValueBack, lastDimValueBackMulTwo;
};
static_assert(sizeof(GradTiling) == 120);

// The 20 uint32 fields of LayerNormGradBetaTiling, spec §3.4 order.
struct GradBetaTiling {
  uint32_t stackBufferSize, bLength, sLength, hLength, originalHLength, bshLength, bsLength,
      oneCalSize, numberOfTmpBuf, loopRound, inputTailSize, inputTailPos, bsTailSize, bshCurLength,
      bsCurLength, gammaTempTensorPos, betaTempTensorPos, inputDyTmpTensorPos,
      resForGammaTmpTensorPos, reserved;
};
static_assert(sizeof(GradBetaTiling) == 80);

// LayerNormGrad on arch 2201/2002 (spec §1.5-§1.10). T = float or Half.
// Reads/writes: outputPdX, resForGamma ([B,S,H] with row stride hLength); scratch (floats, at the
// tiling's positions; must hold the layout end, see README); float: outputPdX is per-row scratch
// before its final value; float + isReuseSource: inputDy and inputX are overwritten (§1.9).
// Returns false, writing nothing, when hLength, oneCalSize or nohCalSize is 0. isNdFormat false
// (shapeInfo.dataFormat other than ND): the kernel computes nothing; true is returned.
template <class T>
bool ReplayLayerNormGrad(const GradTiling& tiling, T* inputDy, T* inputX, const T* inputVariance,
                         const T* inputMean, const T* inputGamma, T epsilon, T* outputPdX,
                         T* resForGamma, float* scratch, bool isReuseSource,
                         bool isNdFormat = true);

// LayerNormGrad on arch 3510 (spec §1.13): one row at a time over all B*S rows, 64-lane chunks.
// Scratch: x1 row at scratch[0, H), x2 row at scratch[ceil8(H), ceil8(H)+H); for float +
// isReuseSource they are inputDy[0, H) and inputX[0, H) instead (the first row is overwritten
// by every row's values; the last row's stay). Returns false when hLength is 0. isNdFormat is
// ignored: the 3510 kernel only asserts ND and computes for any format.
template <class T>
bool ReplayLayerNormGrad3510(const GradTiling& tiling, T* inputDy, T* inputX,
                             const T* inputVariance, const T* inputMean, const T* inputGamma,
                             T epsilon, T* outputPdX, T* resForGamma, float* scratch,
                             bool isReuseSource, bool isNdFormat = true);

// LayerNormGradBeta on arch 2201/2002 (spec §3.3 common implementation). Outputs [originalH].
// Scratch: float no reuse: dy*res at scratch[resForGammaTmpTensorPos]; float + isReuseSource:
// each chunk's dy*res goes to resForGamma[0, bshCur) instead (the base, whatever the chunk's
// offset), the rest of resForGamma keeps its values; half: float accumulators and float copies
// at the tiling's positions. Returns false when originalHLength or oneCalSize is 0.
template <class T>
bool ReplayLayerNormGradBeta(const GradBetaTiling& tiling, T* resForGamma, const T* inputDy,
                             T* outputPdGamma, T* outputPdBeta, float* scratch, bool isReuseSource);

// LayerNormGradBeta on arch 3510 (spec §3.3 last bullet): per 64 columns of hLength, rows
// accumulated from +0 in order; half stores saturate (+-65504; NaN -> +0). No scratch, no input
// writes.
template <class T>
bool ReplayLayerNormGradBeta3510(const GradBetaTiling& tiling, const T* resForGamma,
                                 const T* inputDy, T* outputPdGamma, T* outputPdBeta);

// The per-repeat reduction of §1.8: adjacent-pair binary tree over 64 lanes, lanes >= n as +0.
float TreeSum64(const float* lanes, uint32_t n);
// The 950's register ReduceSum over `width` lanes (replay_reg_3510.cpp): adjacent pairs level by
// level, a lane past `active` taking no part (no +0), no active lane giving 0; each sum rounded
// to half when isHalf.
float RegReduceSum(const float* lanes, uint32_t active, uint32_t width, bool isHalf = false);

}  // namespace lngrad_replay
