// lngrad_replay, Sin, Cos and Tan on arch 2201/2002: what their instruction sequences
// (impl/adv_api/detail/math/{sin,cos,tan}/<api>_common_impl.h with <api>_v220_impl.h (2201) and
// <api>_v200_impl.h (2002), asc-devkit commit 82b89a15f) leave in sharedTmpBuffer (or the stack
// buffer), in dst and (float Sin/Cos with isReuseSource) in the source; written from those
// sources (replay_math_scratch_trig.cpp says which), with no code shared with include/ or src/.
//
// Each function runs the source's loop: the scratch cut into its float temp tensors, the count in
// rounds of the chunk then a tail (counter mode: an instruction touches exactly the round's
// elements), each vector instruction over the round's elements in the source's order on the
// scratch's bytes; the bytes no instruction stores to are left as they are. `arch2002`: the
// <api>_v200_impl.h cast (float -> int32 in the mode, saturating, NaN -> 0, then int32 -> float
// to nearest even) in place of 2201's Cast<float, float>. They return false where the kit's code
// would assert (a chunk of 0).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// Sin (SinImpl, SinCompute, SinRound, SinKpi, SinPolynomialApproximation, SinSignCompute) and,
// `cos`, Cos (CosImpl, CosCompute, CosRound, KPI, CosPolynomialApproximation, SignCompute):
// chunk = tmpBytes / 4 / (3 float, 2 float with reuse, 4 half) down to 32; float: k and then the
// polynomial at 0, x0 * x0 at chunk, x0 at 2 * chunk (reuse: x0 in src); half: the widened
// source and then the float result at 0, the others one chunk further on.
bool ReplaySinCosScratch(bool cos, bool reuse, bool arch2002, float* src, float* dst, uint32_t n,
                         uint8_t* scratch, uint32_t tmpBytes);
bool ReplaySinCosScratch(bool cos, bool arch2002, const Half* src, Half* dst, uint32_t n,
                         uint8_t* scratch, uint32_t tmpBytes);

// Tan (TanImpl, TanCompute, TanRound, KPI_0..KPI_4, TanPolynomialApproximation): splitCount =
// tmpBytes / sizeof(T) / (4 float, 10 half) down to 32; the tail's temp tensors placed by its
// count rounded up to 32 (not by splitCount).
bool ReplayTanScratch(bool arch2002, const float* src, float* dst, uint32_t n, uint8_t* scratch,
                      uint32_t tmpBytes);
bool ReplayTanScratch(bool arch2002, const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                      uint32_t tmpBytes);

}  // namespace lngrad_replay
