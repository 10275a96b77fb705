// lngrad_replay, Power<int32_t> on arch 2201/2002: the element result, on 2002 whether the
// kit's sequence (impl/adv_api/detail/math/power/power_int_impl.h's CommonPowerI with
// power_v200_impl.h's ShiftRightOneBit) ends; written from those sources with no code shared
// with include/ or src/ (replay_power_int.cpp says what was read).
#pragma once

#include <cstdint>

namespace lngrad_replay {

// 2002's ShiftRightOneBit on one element: e & 0xfffffffe through float (CAST_NONE, to nearest
// even), times 0.5f, back to int32 CAST_RINT.
int32_t ReplayPowerIntHalve2002(int32_t e);

// Whether CommonPowerI on 2002 ends for an element with exponent y with the result x^|y|: its
// squarings (one for each halving of |y| before 0) stay within |y|, so that the remainder loop
// counts down to 0 from |y| - 2^squarings >= 0. False where the halvings never reach 0 (|y|
// wraps to 0x80000000, -0.0f as a float: stuck at -1) or overshoot (an exponent just below 2^k,
// k >= 26, that the float rounds up to 2^k): the remainder starts below 0 and the loop runs
// until it wraps back to 0, about 2^32 rounds.
bool ReplayPowerInt2002Ends(int32_t y);

// The element result where the sequence ends: x^|y| with wrapping products (the squarings, then
// one product a remainder unit; the product modulo 2^32 does not depend on their order); y < 0:
// HandleNegativeExpPowerI's trunc(1.0f / float(p)) (CAST_NONE, Div, CAST_TRUNC), 0 for p == 0.
int32_t ReplayPowerInt(int32_t x, int32_t y);

// Power<int32_t>'s whole sequence on arch 2201/2002 (replay_power_int_scratch.cpp): every
// instruction of CommonPowerI's rounds (the chunk splitSize = tmpBytes / 4 / factor down to 32,
// factor 6 tensor^tensor, 7 with a scalar, one more on 2002; then the tail) over dst and the
// scratch's bytes, counter mode, the loops run until the float sums are 0 (exponents whose
// loops end: not INT_MIN, on 2002 ReplayPowerInt2002Ends). CompareScalar compares every lane of
// DivCeil(len * 4, 256) repeats: up to 63 lanes past the round (the next temp tensor, or on 2201
// dst's following elements, which dst must hold: dstElems >= n + 64; a lane past dstElems
// compares false). form: 0 tensor^tensor, 1 tensor^scalar (y[0] the scalar), 2 scalar^tensor
// (x[0]); scratchAddr: the scratch's UB byte address (VselPowerTensorTensor stores the select
// mask's address in tmpScalar). Bytes no instruction stores to keep what they held. False
// where the kit's code asserts (a chunk of 0).
bool ReplayPowerIntScratch(bool arch2002, int form, const int32_t* x, const int32_t* y,
                           int32_t* dst, uint32_t n, uint32_t dstElems, uint8_t* scratch,
                           uint32_t tmpBytes, uint32_t scratchAddr);

}  // namespace lngrad_replay
