// lngrad_replay, Digamma on arch 2201/2002 (impl/adv_api/detail/math/digamma/
// digamma_common_impl.h with digamma_common_basic_impl.h, and the DigammaCast of
// digamma_v220_impl.h / digamma_v200_impl.h), written from those sources with no code shared
// with include/ or src/ (replay_math_scratch_digamma.cpp says what was read).
//
// The kit's loop: splitSize = tmpBytes / 4 / K (K = 7 float, 6 float with isReuseSource, 8 half)
// rounded down to 32 elements; full rounds of splitSize, then the tail rounded up to 8 elements
// (so src and dst are read and written up to n rounded up to 8). Every element's result is the
// sum, from +0, of the case values its Compare masks select (Select against 0, then Add).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// dst[0, n rounded up to 8) from src (as many elements); float with `reuse` (isReuseSource) the
// reflection term pi * cot-like value of each round is computed in srcTensor at its BASE (the
// kit's tmpCal4 is srcTensor, not srcTensor[offset]), so src[0, splitSize) ends with the last
// rounds' terms and the rest of src keeps its values. `arch2002`: DigammaCast (and TanCast,
// SinCast, CosCast of the half path's Tan/Sin/Cos) round through int32 (saturating, NaN -> 0).
// Returns false where the kit's code would assert (a split size of 0).
bool ReplayDigamma(float* src, float* dst, uint32_t n, uint32_t tmpBytes, bool arch2002,
                   bool reuse);
bool ReplayDigamma(const Half* src, Half* dst, uint32_t n, uint32_t tmpBytes, bool arch2002);

// The float path with its scratch (tmp, tmpBytes: the bytes as the kit's rounds leave them,
// instruction by instruction): `known` (tmpBytes flags, set by the caller) is cleared for the
// mask bytes whose bits come from the lanes a Compare's last 64-lane repeat runs past the
// round's count (elements this replay does not follow); src and dst as ReplayDigamma.
bool ReplayDigammaScratch(float* src, float* dst, uint32_t n, uint8_t* tmp, uint8_t* known,
                          uint32_t tmpBytes, bool arch2002, bool reuse);

// One element of each path (the hand-checked tests): the float sequence's sum and its
// reflection term (what isReuseSource leaves in srcTensor), the half sequence's float sum.
float ReplayDigammaFloat(float x, bool arch2002);
float ReplayDigammaReflection(float x, bool arch2002);
float ReplayDigammaHalfSum(float x, bool arch2002);

}  // namespace lngrad_replay
