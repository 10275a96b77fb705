// lngrad_replay: what SelectWithBytesMask leaves in its sharedTmpBuffer on 2201 and 2002,
// replayed from a reading of the kit's selectwithbytesmask_impl.h,
// selectwithbytesmask_common_impl.h, selectwithbytesmask_v220_impl.h and
// selectwithbytesmask_v200_impl.h (read whole). A separate reading by the same helper (session 18,
// inv) who then wrote lngrad's model of it: this file was written from the kit's files before
// lngrad's code was changed, and shares no code with src/ or include/. dst is replayed by
// replay_v200.h (helper v2a).
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay {

// The call: tensorSize the tensor operand's size, elemBytes sizeof(T) (2 or 4), maskBytes
// sizeof(U) (1, 2 or 4), scalarFirst the (dst, scalar, tensor, ...) overload (the kit's
// `reverse`: CompareScalar NE instead of EQ). The block's overflow mode is saturation (the
// default): a float mask element NaN casts to +0, an infinite one to +-65504.
struct SelectScratchCall {
  bool arch2002, isReuseMask, scalarFirst;
  uint32_t firstAxis, srcLastAxis, maskLastAxis, maskBytes, elemBytes, tensorSize;
};

// The scratch after the call, from its bytes before (`scratch`, rewritten in place), the mask
// as the caller passed it and the scalar's bits (elemBytes bytes):
//  1. InitScalarSelectMask: Duplicate of the scalar over one repeat (bytes [0, 256)).
//  2. 2201, axes differ and !isReuseMask: GatherMask packs each mask row's first srcLastAxis
//     elements to scratch [0, firstAxis * srcLastAxis * maskBytes); the work area then starts at
//     AlignUp(tensorSize * maskBytes, 32). (isReuseMask packs into the mask itself.)
//  3. loopSize = (size - extra - 256) / 2 rounded down to 32 elements, at most 255 * 128; the
//     elements run in rounds of loopSize (2002 with differing axes: row by row, mask row r at
//     r * maskLastAxis). Each round: Cast of its `len` mask elements to half at the work area's
//     base (4 bytes: float CAST_ODD; 2: int16 to nearest; 1: uint8, exact) in counter mode
//     (len halves written), then CompareScalar(half, 0, EQ or NE) over ceil(len / 128) whole
//     repeats (the mask is ignored by Compare on these products: every lane, the halves past
//     len included, is compared), its 16 bytes per repeat written packed at the same base.
void ReplaySelectBytesScratch(const SelectScratchCall& c, const std::vector<uint8_t>& mask,
                              const uint8_t* scalar, std::vector<uint8_t>& scratch);

}  // namespace lngrad_replay
