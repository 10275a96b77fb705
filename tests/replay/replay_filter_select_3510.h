// lngrad_replay, DropOut and SelectWithBytesMask on the 950 (arch 3510), re-derived from the kit's
// impl/adv_api/detail/filter/dropout/dropout_3510_impl.h (with dropout_impl.h's mode choice and
// its float 1/keepProb) and impl/adv_api/detail/select/selectwithbytesmask/
// selectwithbytesmask_3510_impl.h at commit 82b89a15f, written without reading lngrad's
// implementation of these APIs (include/ascendc/adv/lib/filter/dropout.h,
// lib/select/selectwithbytesmask.h): a separate reading by the same helper that then compared it.
// No code shared with src/ or include/.
//
// Each register step is replayed lane by lane: a Mul on half or bfloat16 lanes is the exact
// product rounded once to the type (the float product of two such values is exact, so float then
// one rounding), masked-off lanes of Select/Mul are +0 (ZEROING), StoreAlign writes only the lanes
// that UpdateMask left active, so nothing past a row's or the call's count is written. The mask
// register's lane k is bit k of the loaded bytes (byte k / 8, bit k % 8 from the least
// significant), as the register API numbers them.
#pragma once

#include <cstdint>

#include "replay.h"
#include "replay_activation.h"  // Bf16

namespace lngrad_replay {

// DropOutShapeInfo.
struct DropOutShape {
  uint32_t firstAxis, srcLastAxis, maskLastAxis;
};

// The mode DropOutImpl runs for a template dropOutMode (0 infers it from the shape): 1 byte mode
// with padded mask rows, 2 byte mode dense, 3 bit mode dense, 4 bit mode with padded mask rows.
uint32_t DropOutMode3510(const DropOutShape& s, uint32_t dropOutMode);

// DropOut on arch 3510. T = float, Half or Bf16. div = T(1.0f / keepProb) (one float division,
// then rounded to T). Byte modes: dst = div * (T(maskByte) * src), every element (a dropped NaN or
// infinity gives NaN, a dropped negative value −0). Bit modes: dst = div * src where the bit is
// set, +0 where it is not. Bit mode 4 reads row r's bits from byte r * 4 * (maskLastAxis >> 2)
// (the source's word offset). dst may be src. Returns the mode run.
template <class T>
uint32_t ReplayDropOut3510(const DropOutShape& s, uint32_t dropOutMode, const T* src,
                           const uint8_t* mask, float keepProb, T* dst);

// SelectWithBytesMask on arch 3510 (firstAxis rows of srcLastAxis elements; the mask's rows are
// maskLastAxis elements of U apart). scalarFirst false: Select(dst, tensor, scalar, mask), a mask
// element 0 keeps the tensor's value, any other the scalar's; true: Select(dst, scalar, tensor,
// mask), a nonzero mask element takes the tensor's. Values are copied as bits. The mask and the
// scratch are only read (isReuseMask changes nothing). T = float or Half; U = uint8_t, int8_t,
// uint16_t, int16_t, uint32_t or int32_t (bool as uint8_t).
template <class T, class U>
void ReplaySelectWithBytesMask3510(uint32_t firstAxis, uint32_t srcLastAxis, uint32_t maskLastAxis,
                                   const T* tensor, T scalar, const U* mask, bool scalarFirst,
                                   T* dst);

}  // namespace lngrad_replay
