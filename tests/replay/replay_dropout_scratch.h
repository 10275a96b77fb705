// lngrad_replay: DropOut on 2201 and 2002 - dst, the mask and the sharedTmpBuffer after the call -
// replayed from a reading of the kit's impl/adv_api/detail/filter/dropout/dropout_impl.h,
// dropout_membase_impl.h, dropout_c220_impl.h (2201) and dropout_m200_impl.h (2002), each read
// whole. A separate reading by the same helper (session 19, dt) who then wrote lngrad's model of
// it: this file was written from the kit's files before lngrad's code was changed, and shares no
// code with src/ or include/.
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay {

// The call: dropOutMode the template argument (0: DropOutImpl picks 1 to 4 from the axes),
// elemBytes sizeof(T) (2: half, 4: float).
struct DropOutScratchCall {
  bool arch2002, isInitBitMode;
  uint32_t dropOutMode, firstAxis, srcLastAxis, maskLastAxis, elemBytes;
};

// The mode DropOutImpl dispatches to: srcLastAxis < maskLastAxis 1 (bytes, misaligned), == 2,
// == 8 * maskLastAxis 3 (bits), otherwise 4 (bits, misaligned).
uint32_t DropOutScratchMode(const DropOutScratchCall& c);

// The whole call over host copies: `src` (firstAxis * srcLastAxis elements of T's bits), `dst`
// (written there), `mask` (the caller's bytes, rewritten as the kit leaves them) and `scratch`
// (the sharedTmpBuffer's GetSize() bytes, rewritten in place). keepProb as passed. Returns
// false where the kit's byte mode would divide by a zero chunk (a buffer under 192 bytes for
// float, 64 for half) and writes nothing then.
//  - div = T(1.0f / keepProb) (one float division, one conversion).
//  - bit modes, !isInitBitMode: DropOutBitModeInit - Muls(int16, 0) over one full repeat: the
//    scratch's first 256 bytes become 0 (the CMPMASK the Select reads as its scalar).
//  - 2201, modes 1 and 4: GatherMask (mode 7, counter) packs each mask row's first
//    srcLastAxis bytes (mode 4: srcLastAxis / 8) from row pitch maskLastAxis to the front of the
//    mask, in place; the rest of the mask stays. 2002: no packing, the rows run one by one (mode
//    4: the Select row by row from mask row i at i * maskLastAxis, then one Muls over all; mode
//    1: the byte mode per row, its rounds restarting at each row).
//  - bit mode: dst = (bit ? src : 0) * div, bit j of mask byte b for element 8b + j.
//  - byte mode over n elements: chunk = half: (size / 2) rounded down to 32; float:
//    size / 6 rounded down to 32, the half casts at byte 0 and the float casts at byte 2 * chunk.
//    Each round of `len` (the chunk, the tail last) writes half(mask byte) to half slots
//    [0, len) (float: and float(that) to float slots [0, len) of the second area), then
//    dst = T(T(mask) * src) * div, each Mul rounded once to T.
template <class T>
bool ReplayDropOutScratch(const DropOutScratchCall& c, float keepProb, const T* src, T* dst,
                          std::vector<uint8_t>& mask, std::vector<uint8_t>& scratch);

}  // namespace lngrad_replay
