// lngrad_replay, the scratch of Fmod and Xor on arch 2201/2002: what their instruction
// sequences (impl/adv_api/detail/math/fmod/fmod_common_impl.h with the Trunc it calls,
// trunc/trunc_common_impl.h, trunc_v220_impl.h and trunc_v200_impl.h; xor/xor_membase_impl.h)
// leave in sharedTmpBuffer (or the stack buffer), written from those sources
// (replay_math_scratch_fmod_xor.cpp says how), with no code shared with include/ or src/.
//
// Each function runs the source's loop over the count, every vector instruction applied over
// the round's elements in the source's order on the scratch's bytes (`scratch`, tmpBytes long;
// bytes no instruction stores to keep what they held). dst gets the results. They return false
// where the kit's code would assert (a chunk of 0).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// Fmod<float> (FmodCompute on the whole count: Div, Trunc, Mul, Sub). Trunc runs its own
// rounds of tmpBytes / 4 down to 32 floats; on 2002 (`arch2002`) each round's truncation goes
// through int32 in the scratch's first words (CAST_TRUNC, saturating, NaN to 0; back CAST_NONE),
// on 2201 it is one float cast and the scratch is not written.
bool ReplayFmodScratch(const float* a, const float* b, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes, bool arch2002);

// Fmod<half> (FmodImpl's rounds): stackSize = tmpBytes / 2 / 8 down to 32, at most src0Size;
// float temps at 0 (the result), stackSize (a) and 2 stackSize (b); Trunc gets the scratch from
// byte 12 stackSize on (its rounds sized by what is left). The half result rounded to nearest
// even.
bool ReplayFmodScratch(const Half* a, const Half* b, Half* dst, uint32_t n, uint32_t src0Size,
                       uint8_t* scratch, uint32_t tmpBytes, bool arch2002);

// Xor<int16_t / uint16_t> (XorImpl, XorCalcSimplified): stackSize = tmpBytes / 2 down to 32;
// per round dst = x & y, tmp (the scratch's start) = x | y, dst = ~dst, dst = tmp & dst.
bool ReplayXorScratch(const uint16_t* a, const uint16_t* b, uint16_t* dst, uint32_t n,
                      uint8_t* scratch, uint32_t tmpBytes);

// Power's float result on arch 2002 (power_float_impl.h's CommonPowerF with power_v200_impl.h's
// CastFloat2Float: CAST_RINT / CAST_FLOOR through int32, saturating, NaN to 0, back CAST_NONE;
// and its GrepSignBit: the 16-bit And / Or with 0x8000 / 0x3f80, then < 0), one element.
float ReplayPowerFloat2002(float x, float y);

}  // namespace lngrad_replay
