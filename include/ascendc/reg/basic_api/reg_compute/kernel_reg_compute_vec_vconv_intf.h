// lngrad register API, the C++ flavour: Cast and Truncate (the vendor's
// basic_api/reg_compute/kernel_reg_compute_vec_vconv_intf.h) on the conversion engine both
// flavours share (lngrad_reg/convert.h: one element converts as the vector instruction Cast
// converts it) and on the table's rounding rows (Truncate<T, RoundMode> is asc_floor, asc_ceil,
// ... of LNGRAD_REG_ROUND_TABLE).
#pragma once

#include <type_traits>

#include "basic_api/reg_compute/kernel_reg_compute_struct_intf.h"
#include "lngrad_reg/convert.h"
#include "lngrad_reg/engine.h"
#include "lngrad_reg/op_table.h"

namespace lngrad::reg::detail {

// A CastTrait's choices: UNKNOWN round mode is the pair's default (CAST_NONE, as the vector
// Cast), UNKNOWN layout is ZERO, SAT saturates a float destination (an integer destination
// saturates in every mode, as the vector Cast's).
constexpr ConvertMode ConvertModeOf(const AscendC::Reg::CastTrait& t) {
  const AscendC::RoundMode r =
      t.roundMode == AscendC::RoundMode::UNKNOWN ? AscendC::RoundMode::CAST_NONE : t.roundMode;
  return ConvertMode{r, t.satMode == AscendC::Reg::SatMode::SAT};
}
constexpr uint32_t LayoutOf(const AscendC::Reg::CastTrait& t) {
  return t.layoutMode == AscendC::Reg::RegLayout::UNKNOWN ? 0u
                                                          : static_cast<uint32_t>(t.layoutMode);
}

template <AscendC::RoundMode mode>
struct RoundRow;
#define LNGRAD_REG_CPP_ROUND_ROW(c_name, round_mode, op) \
  template <>                                            \
  struct RoundRow<AscendC::RoundMode::round_mode> {      \
    using Op = op;                                       \
  };
LNGRAD_REG_ROUND_TABLE(LNGRAD_REG_CPP_ROUND_ROW)
#undef LNGRAD_REG_CPP_ROUND_ROW

}  // namespace lngrad::reg::detail

// The named CastTraits of the vendor's basic API that kernels use (AscendC::layoutZMrgZ, ...):
// X(name, RegLayout, SatMode, RoundMode), every one ZEROING. The names are the vendor's (its
// MrgZRndF rounds up and MrgZRndC down).
#define LNGRAD_REG_CAST_TRAIT_TABLE(X)              \
  X(layoutZMrgZ, ZERO, UNKNOWN, UNKNOWN)            \
  X(layoutZSatSMrgZ, ZERO, SAT, UNKNOWN)            \
  X(layoutZSatSMrgZRndA, ZERO, SAT, CAST_ROUND)     \
  X(layoutZSatSMrgZRndH, ZERO, SAT, CAST_HYBRID)    \
  X(layoutZSatSMrgZRndR, ZERO, SAT, CAST_RINT)      \
  X(layoutZMrgZRndR, ZERO, UNKNOWN, CAST_RINT)      \
  X(layoutZMrgZRndA, ZERO, UNKNOWN, CAST_ROUND)     \
  X(layoutZMrgZRndC, ZERO, UNKNOWN, CAST_CEIL)      \
  X(layoutZMrgZRndF, ZERO, UNKNOWN, CAST_FLOOR)     \
  X(layoutZMrgZRndZ, ZERO, UNKNOWN, CAST_TRUNC)     \
  X(MrgZRndR, UNKNOWN, UNKNOWN, CAST_RINT)          \
  X(MrgZRndA, UNKNOWN, UNKNOWN, CAST_ROUND)         \
  X(MrgZRndF, UNKNOWN, UNKNOWN, CAST_CEIL)          \
  X(MrgZRndC, UNKNOWN, UNKNOWN, CAST_FLOOR)         \
  X(MrgZRndZ, UNKNOWN, UNKNOWN, CAST_TRUNC)         \
  X(MrgZRndRSatS, UNKNOWN, SAT, CAST_RINT)          \
  X(MrgZRndASatS, UNKNOWN, SAT, CAST_ROUND)         \
  X(MrgZRndFSatS, UNKNOWN, SAT, CAST_CEIL)          \
  X(MrgZRndCSatS, UNKNOWN, SAT, CAST_FLOOR)         \
  X(MrgZRndZSatS, UNKNOWN, SAT, CAST_TRUNC)         \
  X(LayoutZMrgZRndRSatS, ZERO, SAT, CAST_RINT)      \
  X(LayoutZMrgZRndASatS, ZERO, SAT, CAST_ROUND)     \
  X(LayoutZMrgZRndRSatNS, ZERO, NO_SAT, CAST_RINT)  \
  X(LayoutZMrgZRndASatNS, ZERO, NO_SAT, CAST_ROUND) \
  X(MrgZRndRSatNS, UNKNOWN, NO_SAT, CAST_RINT)
namespace AscendC {
#define LNGRAD_REG_CAST_TRAIT(name, layout, sat, round)                              \
  inline constexpr Reg::CastTrait name = {Reg::RegLayout::layout, Reg::SatMode::sat, \
                                          Reg::MaskMergeMode::ZEROING, RoundMode::round};
LNGRAD_REG_CAST_TRAIT_TABLE(LNGRAD_REG_CAST_TRAIT)
#undef LNGRAD_REG_CAST_TRAIT
}  // namespace AscendC

namespace AscendC::Reg {

// Cast<T (destination lane type), U (source lane type), trait>.
template <typename T = DefaultType, typename U = DefaultType, const CastTrait& trait = castTrait,
          ::lngrad::reg::detail::DataReg S, ::lngrad::reg::detail::DataReg V>
__simd_callee__ inline void Cast(S& dstReg, const V& srcReg, const MaskReg& mask) {
  using D = ::lngrad::reg::detail::LaneOf<T, S>;
  using Src = ::lngrad::reg::detail::LaneOf<U, V>;
  static_assert(std::is_same_v<D, typename S::ActualT> && std::is_same_v<Src, typename V::ActualT>,
                "Cast: T and U are the registers' lane types");
  constexpr ::lngrad::reg::MaskMode mode = ::lngrad::reg::detail::ToMaskMode<trait.mrgMode>();
  constexpr uint32_t layout = sizeof(D) == sizeof(Src) ? 0 : ::lngrad::reg::detail::LayoutOf(trait);
  ::lngrad::reg::Convert<D, Src, mode>(dstReg, srcReg, mask, layout,
                                       ::lngrad::reg::detail::ConvertModeOf(trait));
}

// Truncate<T, roundMode>: each float lane rounded to an integral value in its own type.
template <typename T = DefaultType, RoundMode roundMode = RoundMode::CAST_NONE,
          MaskMergeMode mode = MaskMergeMode::ZEROING, ::lngrad::reg::detail::DataReg S>
__simd_callee__ inline void Truncate(S& dstReg, const S& srcReg, const MaskReg& mask) {
  static_assert(::lngrad::reg::kAllows<::lngrad::reg::kFloatAll, typename S::ActualT>,
                "Truncate: float lanes");
  using Op = typename ::lngrad::reg::detail::RoundRow<roundMode>::Op;
  ::lngrad::reg::Unary<Op, ::lngrad::reg::detail::ToMaskMode<mode>()>(dstReg, srcReg, mask);
}

}  // namespace AscendC::Reg
