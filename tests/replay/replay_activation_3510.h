// lngrad_replay, the element-wise activations on arch 3510 (the 950): Gelu, FasterGelu,
// FasterGeluV2, Sigmoid, Swish, Silu, GeGLU and SwiGLU as the toolkit's register sequences
// (impl/adv_api/detail/activation/{gelu,sigmoid,swish,silu,geglu,swiglu}/*_3510_impl.h, kit
// commit 82b89a15f), from a separate reading of those files: each line below is one register
// instruction of the source, in its order, with its operands and constants. Its author had read
// lngrad's implementation (lib/activation/*.h) before, which models the 950 as the 2201 steps;
// this replay does not follow that model (it replays the register loop and takes the register
// API's Exp and Mins, below). No code shared with src/ or include/ascendc.
//
// The device loop is replayed as written: repeats of one 256-byte register (64 float lanes, 128
// half lanes; the sequences that widen half to float take 64 elements a repeat), the mask of
// UpdateMask selecting the leading `remaining` lanes, every instruction on the selected lanes, and
// a store of those lanes only (nothing past the count is written). The register instructions as
// lngrad's register API documents them (docs/ascendc_kernels.md, "Arithmetic" of the register
// section, and §2): a half or float lane computes in float on the exact operands and rounds once
// to the lane type (RNE); Exp is e^x in double rounded to float, then to the lane type (a half
// lane: a second rounding, float to half); a float scalar of Muls/Adds/Mins becomes the lane type
// first (RNE); the register Mins gives a NaN operand (the element's first), else the scalar where
// strictly smaller, else the element (a +-0 tie keeps the element); Abs clears the sign bit;
// Div is the IEEE division; the casts are half -> float exactly and float -> half CAST_RINT
// without saturation (overflow to infinity, NaN stays NaN). Subnormals are kept (no flushing).
#pragma once

#include <cstdint>

#include "replay.h"
#include "replay_activation.h"

namespace lngrad_replay {

// Gelu / FasterGelu / FasterGeluV2 (gelu_3510_impl.h): T = float or Half; highPrecision with
// Half widens to float (64 a repeat) and casts back; highPerformance is ignored by the source, so
// it is no argument here. dst may be src.
template <class T>
void ReplayGelu3510(GeluForm form, bool highPrecision, const T* src, T* dst, uint32_t count);

// Sigmoid (sigmoid_3510_impl.h): float lanes for both types, 1 / (e^(-x) + 1) with the numerator
// a Duplicate of 1.0f; half widened and cast back.
template <class T>
void ReplaySigmoid3510(const T* src, T* dst, uint32_t count);

// Swish (swish_3510_impl.h): lanes of T, x / (e^(x * s) + 1), s = T(-1.0f * float(beta)).
template <class T>
void ReplaySwish3510(const T* src, T* dst, uint32_t count, T beta);

// Silu (silu_3510_impl.h): lanes of T, x / (e^(x * -1) + 1).
template <class T>
void ReplaySilu3510(const T* src, T* dst, uint32_t count);

// GeGLU (geglu_3510_impl.h): float lanes, src0 * (src1 / (e^(((src1*src1 + A)*src1)*B) + 1)) with
// the 3510 constants A = 22.36386f, B = -0.071354814f; half widened and cast back.
template <class T>
void ReplayGeGLU3510(const T* src0, const T* src1, T* dst, uint32_t count);

// SwiGLU (swiglu_3510_impl.h): float lanes, src0 * (src1 / (e^(src1 * s) + 1)),
// s = float(-1.0f * beta); half widened and cast back.
template <class T>
void ReplaySwiGLU3510(const T* src0, const T* src1, T* dst, uint32_t count, float beta);

}  // namespace lngrad_replay
