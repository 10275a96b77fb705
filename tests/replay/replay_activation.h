// lngrad_replay, the element-wise activations: Gelu, FasterGelu, FasterGeluV2, Sigmoid, Swish,
// Silu, GeGLU, ReGlu and SwiGLU on arch 2201/2002, replayed one vector instruction at a time from
// a second reading of the toolkit's sources (impl/adv_api/detail/activation/{gelu,sigmoid,swish,
// silu,geglu,reglu,swiglu}/, the 2201 branches), written without reading lngrad's implementation.
// No code shared with src/ or include/ascendc/adv.
//
// Each instruction is one loop over the count, element by element in increasing index order,
// reading and writing the caller's arrays where the source does (so an output that is also an
// input behaves as on the device). The element type T is float, Half or, for ReGlu, Bf16; a Half
// instruction computes in float on the exact operands and rounds once to half (RNE), Exp is
// computed in double and rounded once to the element type, Div and 1/x are IEEE divisions, Mins
// and Maxs return the scalar unless the element compares below / above it (so NaN gives the
// scalar), casts half/bfloat16 -> float are exact and float -> half/bfloat16 round to nearest
// even with overflow to infinity (docs/ascendc_kernels.md §2). The Replay* functions leave the
// scratch out (chunking changes no element); the Replay*Scratch functions below run the loops.
//
// The scratch (the Replay*Scratch functions): a later, separate reading of the same 2201/2002
// files by helper act1 (session 17), of the loops only: which temp tensors each API takes from
// sharedTmpBuffer (or the stack buffer), at which offsets, the chunk length derived from the
// scratch's size, the rounds and the tail. Written from the kit's source, and committed, before
// lngrad modelled the scratch; its author had read lngrad's element sequences (lib/activation/)
// before, not any scratch code of lngrad (there was none). No code shared.
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// Bf16, Bf16ToFloat and FloatToBf16: replay.h.
Half DoubleToHalf(double d);  // one rounding to nearest even, overflow -> inf

enum class GeluForm { kGelu, kFasterGelu, kFasterGeluV2 };

// Gelu / FasterGelu / FasterGeluV2 (gelu_impl.h). T = float or Half; highPrecision computes a
// Half call in float (cast in, sequence, cast out); highPerformance replaces each Div by
// Reciprocal then Mul. dst may be src.
template <class T>
void ReplayGelu(GeluForm form, bool highPrecision, bool highPerformance, const T* src, T* dst,
                uint32_t count);

// Sigmoid (sigmoid_impl.h): 1 / (e^(-x) + 1) in T, the numerator a Duplicate of 1.
template <class T>
void ReplaySigmoid(const T* src, T* dst, uint32_t count);

// Swish (swish_common_impl.h): x / (e^(x * s) + 1) in T, s = T(-1.0f * float(beta)).
template <class T>
void ReplaySwish(const T* src, T* dst, uint32_t count, T beta);

// Silu (silu_common_impl.h): x / (e^(x * T(-1)) + 1) in T.
template <class T>
void ReplaySilu(const T* src, T* dst, uint32_t count);

// GeGLU (geglu_common_impl.h): src0 * (src1 / (e^(((src1*src1 + A)*src1)*B) + 1)); float: in
// dst, Half: in float (the half specialisation of GeGLUCompute).
template <class T>
void ReplayGeGLU(const T* src0, const T* src1, T* dst, uint32_t count);

// ReGlu (reglu_common_impl.h, reglu_v220_impl.h): src0 * max(src1, 0) in float; T = float (in
// dst), Half or Bf16 (cast in, cast out).
template <class T>
void ReplayReGlu(const T* src0, const T* src1, T* dst, uint32_t count);

// SwiGLU (swiglu_common_impl.h): src0 * (src1 / (e^(src1 * (-1.0f * beta)) + 1)) in float;
// float: in dst, Half: in float.
template <class T>
void ReplaySwiGLU(const T* src0, const T* src1, T* dst, uint32_t count, float beta);

// The same APIs on arch 2201/2002 with their scratch: tmp, tmpBytes bytes, is the
// sharedTmpBuffer (or the stack buffer the overloads without it pop) and is left as the kit's
// loops leave it (the bytes they do not write as they were); dst gets count elements. Returns
// false where the kit asserts or cannot advance (a chunk of 0 elements; SwiGLU: buffers past
// the scratch), leaving tmp unspecified.
//  - Gelu family (GeluFormulas, GeluFormulasTmpCalc): chunks of stackSize = (tmpBytes /
//    sizeof(C)) / (buffers + highPrecision) rounded down to 32, buffers = 2 Gelu, 1 FasterGelu,
//    3 FasterGeluV2 temp tensors of C at k * stackSize, the float copy (highPrecision half) after
//    them; C = float for highPrecision half, T otherwise.
//  - Sigmoid: chunks of tmpBytes / sizeof(T); the Duplicate of 1 at the scratch's start.
//  - GeGLU, ReGlu, SwiGLU: float (T = float) computes in dst, the scratch untouched; half
//    (bfloat16) in float buffers: GeGLU chunks of tmpBytes / 8 rounded down to 16, buffers at 0
//    and n rounded up to 16; ReGlu chunks of (tmpBytes / 4) / 3 rounded down to 32, buffers at
//    0, stackSize, 2 stackSize; SwiGLU chunks of (tmpBytes / 4) / 3 rounded down to 16 (16 if
//    0), buffers at 0, c, 2c with c the chunk's count rounded up to 16.
template <class T>
bool ReplayGeluScratch(GeluForm form, bool highPrecision, bool highPerformance, const T* src,
                       T* dst, uint32_t count, uint8_t* tmp, uint32_t tmpBytes);
template <class T>
bool ReplaySigmoidScratch(const T* src, T* dst, uint32_t count, uint8_t* tmp, uint32_t tmpBytes);
template <class T>
bool ReplayGeGLUScratch(const T* src0, const T* src1, T* dst, uint32_t count, uint8_t* tmp,
                        uint32_t tmpBytes);
template <class T>
bool ReplayReGluScratch(const T* src0, const T* src1, T* dst, uint32_t count, uint8_t* tmp,
                        uint32_t tmpBytes);
template <class T>
bool ReplaySwiGLUScratch(const T* src0, const T* src1, T* dst, uint32_t count, float beta,
                         uint8_t* tmp, uint32_t tmpBytes);

// ReGlu on arch 3510 (reglu_3510_impl.h), one float lane: x0 * Maxs(x1, 0) with the register
// Maxs (a NaN lane stays NaN; the scalar replaces the element only where strictly larger, so -0
// stays -0); half widened by the caller and rounded back to nearest even (FloatToHalf).
float ReplayReGlu3510(float x0, float x1);

}  // namespace lngrad_replay
