// lngrad_replay, Power<int32_t> on arch 2201/2002: the element result and, on 2002, whether the
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

}  // namespace lngrad_replay
