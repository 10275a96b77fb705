// lngrad register API: the engines of the register conversions (the C++ flavour's Cast and
// Truncate), shared by both flavours as engine.h's are. One element converts as the vector
// instruction Cast converts it (lngrad_aicore/vector_cast.h, CastElem): a register kernel and a
// basic-API kernel that cast the same value in the same RoundMode give the same bits.
//
// When the two lane types differ in width, one instruction covers the lanes of the wider type
// (the reference's Cast page): with r = wide bytes / narrow bytes, wide lane i pairs with narrow
// lane r * i + layout (layout 0 ... r - 1, the CastTrait's RegLayout). The mask selects by the
// source's lanes; narrow lanes that no wide lane pairs with, like unselected lanes, get 0
// (kZeroing) or keep their value (kMerging).
#pragma once

#include <cstdint>

#include "lngrad_aicore/vector_cast.h"
#include "lngrad_reg/lane_types.h"
#include "lngrad_reg/registers.h"

namespace lngrad::reg {

// How a conversion rounds and saturates.
struct ConvertMode {
  AscendC::RoundMode round;
  bool saturate;  // float destinations: an infinite result becomes the largest finite value
};

// dst lanes of D from src lanes of S.
template <typename D, typename S, MaskMode mode>
void Convert(VecReg<D>& dst, const VecReg<S>& src, const MaskReg& mask, uint32_t layout,
             ConvertMode how) {
  const aicore::detail::CastCtx ctx{how.round, how.saturate, 1.0};
  constexpr bool widen = sizeof(D) > sizeof(S);
  constexpr uint32_t ratio = widen ? sizeof(D) / sizeof(S) : sizeof(S) / sizeof(D);
  constexpr uint32_t pairs = widen ? kLanes<D> : kLanes<S>;  // lanes of the wider type
  VecReg<D> out;
  if constexpr (mode == MaskMode::kMerging) out = dst;
  for (uint32_t i = 0; i < pairs; ++i) {
    const uint32_t s = widen ? ratio * i + layout : i;
    const uint32_t d = widen ? i : ratio * i + layout;
    if (mask.Lane<S>(s)) {
      out.lane[d] = aicore::detail::CastElem<D, S>(src.lane[s], ctx);
    }
  }
  dst = out;
}

}  // namespace lngrad::reg
