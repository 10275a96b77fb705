// lngrad_replay: the arch 2002 (Atlas inference AI Core) paths of ReduceXorSum and
// SelectWithBytesMask, beside their 2201 paths, replayed from a reading of the kit's sources:
// reduce_xor_sum_common_impl.h with reduce_xor_sum_v200_impl.h; selectwithbytesmask_impl.h,
// selectwithbytesmask_common_impl.h, selectwithbytesmask_v200_impl.h and
// selectwithbytesmask_v220_impl.h. A separate reading by the same helper (session 18, v2a) who
// also changed lngrad's 2002 paths in that session: written from the kit's files, not from
// lngrad's code (whose headers for these APIs the helper had read for their 2201 paths). No
// code shared with src/ or include/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "replay.h"

namespace lngrad_replay {

// ReduceXorSum on arch 2002: x = ~(a & b) & (a | b) (int16); Cast int16 -> half CAST_NONE
// (nearest even) in place, half -> float (exact), the basic ReduceSum over calCount floats,
// Cast float -> half CAST_NONE (nearest even; an overflow saturates either way below), Cast
// half -> int16 CAST_RINT (saturated). The sum is taken exactly: valid where every partial
// sum of the half values is an integer below 2^24 (calCount <= 512, or smaller values), as the
// 2201 replay (replay_reduce_quant.h).
int16_t ReplayReduceXorSum2002(const std::vector<int16_t>& a, const std::vector<int16_t>& b,
                               uint32_t calCount);

// SelectWithBytesMask on 2201 (arch2002 false) and 2002: dst[e] for the elements the device
// processes, and the mask as the call leaves it. Elements are carried as raw bits (T: uint16_t
// for half, uint32_t for float; maskBytes 1, 2 or 4 per mask element). A mask element counts as
// zero when its Cast to half is 0 (1 and 2 bytes: the integer is 0; 4 bytes: read as float,
// Cast CAST_ODD, so +-0.0f, since round-to-odd never makes a nonzero number 0, and NaN where
// the block's overflow mode is saturation, the default, in which the Cast gives NaN as 0:
// nanIsZero); zero selects the first operand (scalarFirst: the scalar, else the tensor).
// 2201: maskLastAxis != srcLastAxis packs each row's first srcLastAxis * maskBytes bytes
// (GatherMask of uint16 words) into the mask itself when isReuseMask (else into the scratch),
// then tensorSize elements are processed against the packed mask. 2002: no packing; equal
// axes process tensorSize elements, different axes firstAxis rows of srcLastAxis elements
// against mask row r at r * maskLastAxis. Returns the number of elements processed.
struct SelectBytesCall {
  bool arch2002, isReuseMask, scalarFirst, nanIsZero;
  uint32_t firstAxis, srcLastAxis, maskLastAxis, maskBytes;
};
template <class T>
size_t ReplaySelectBytes(const SelectBytesCall& c, const std::vector<T>& tensor, T scalar,
                         std::vector<uint8_t>& mask, std::vector<T>& dst);

}  // namespace lngrad_replay
