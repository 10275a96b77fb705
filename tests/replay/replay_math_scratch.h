// lngrad_replay, the math family's scratch on arch 2201/2002: what the transcendental APIs'
// instruction sequences (impl/adv_api/detail/math/<api>/<api>_common_impl.h, asc-devkit commit
// 82b89a15f) leave in sharedTmpBuffer (or the stack buffer), written from those sources
// (replay_math_scratch.cpp says which, per API), with no code shared with include/ or src/.
//
// Each function runs the source's loop: the scratch cut into the temp tensors its TmpCalc /
// UpdateParams function places, the count in rounds of the chunk then a tail, every vector
// instruction applied over the round's elements in the source's order on the scratch's bytes
// (`scratch`, tmpBytes long: the bytes no instruction stores to are left as they are). dst gets
// the results (half: the rounded floats, CAST_NONE to nearest even). They return false where the
// kit's code would assert (a chunk of 0).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// Tanh (tanh_common_impl.h).
bool ReplayTanhScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes);
bool ReplayTanhScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes);

// Exp<T, level, reuse> with level >= 1 (exp_common_impl.h): the temp tensors of
// UpdateExpParams / GetExpTensorInfo (float: FloorX, FloorXPow, IntPart; with reuse FloorX is
// src itself, at its base; half: FloorX, FloorXPow, Res, IntPart), chunks of the scratch's
// floats / tensors rounded down to 32 bytes of T. `arch2002`: GetExpFloorInput's 2002 branch
// (floor through int32: saturated, NaN to 0, back to float CAST_NONE) instead of 2201's
// Cast<float, float> CAST_FLOOR. src is written only with reuse (float).
bool ReplayExpScratch(uint32_t level, bool reuse, bool arch2002, float* src, float* dst, uint32_t n,
                      uint8_t* scratch, uint32_t tmpBytes);
bool ReplayExpScratch(uint32_t level, bool arch2002, const Half* src, Half* dst, uint32_t n,
                      uint8_t* scratch, uint32_t tmpBytes);

// Erf (erf_common_impl.h, ErfImpl / ErfCompute / ErfClip / ErfComputeP / ErfComputeQ): calSize
// = tmpBytes / sizeof(T) / (3 float, 8 half) down to 32; float temp tensors at k * calSize
// floats (float: three; half: four, the fourth the widened source). `castRound`: the half
// result cast CAST_ROUND (2201/2002's GetErfCastType), else CAST_NONE.
bool ReplayErfScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                      uint32_t tmpBytes);
bool ReplayErfScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes,
                      bool castRound);

// Erfc (erfc_common_impl.h, ErfcImpl / ErfcCompute / ErfcClip / ErfcPreCompute /
// ErfcPublicSteps / ErfcComputeR / ErfcComputeS / ErfcPostCompute): calSize = tmpBytes /
// sizeof(T) / (5 float, 12 half) down to 32; float temp tensors at k * calSize floats (five;
// half six, the sixth the widened source, then the sign). `castRound` as Erf's.
bool ReplayErfcScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes);
bool ReplayErfcScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes,
                       bool castRound);

// Sinh (sinh_common_impl.h, SinhImpl / SinhCompute): splitCount = tmpBytes / sizeof(T) / (1
// float, 4 half) down to 32; float: Exp(x * -1 + (-ln2)) at the scratch's start; half: that
// (of the widened source) at 0 and the float result at splitCount floats.
bool ReplaySinhScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes);
bool ReplaySinhScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes);

// Cosh (cosh_common_impl.h with cosh_v220_impl.h / cosh_v200_impl.h): calSize = tmpBytes /
// sizeof(T) / (2 float, 6 half) down to 32; float temps at k * calSize: e = Exp(x + (-ln2)),
// 0.25 / e; half: those and the float result e + 0.25 / e (the widened source there before).
// `castRound`: the half cast CAST_ROUND (v220, arch 2201), else CAST_NONE (v200, 2002).
bool ReplayCoshScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes);
bool ReplayCoshScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes,
                       bool castRound);

// Log2 on half (log_common_impl.h, Log2Impl / Log2Compute with a tmpTensor); float and the
// other Logs use no scratch.
bool ReplayLog2HalfScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                           uint32_t tmpBytes);

}  // namespace lngrad_replay
