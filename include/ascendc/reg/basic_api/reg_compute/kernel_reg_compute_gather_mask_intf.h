// lngrad register API, the C++ flavour: the lane rearrangements (the vendor's
// basic_api/reg_compute/kernel_reg_compute_gather_mask_intf.h, _pack_intf.h and
// _histograms_intf.h): Gather by an index register, Squeeze (and the AR register it can leave its
// byte count in), Interleave / DeInterleave, Pack, Histograms. Each runs the engine the C
// flavour's function of the same row runs (lngrad_reg/relayout.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "basic_api/reg_compute/kernel_reg_compute_struct_intf.h"
#include "lngrad_reg/relayout.h"
#include "lngrad_reg/ub_access.h"

namespace AscendC {

#ifndef LNGRAD_REG_SPECIAL_PURPOSE_REG
#define LNGRAD_REG_SPECIAL_PURPOSE_REG
enum class SpecialPurposeReg { AR = 0 };
#endif

namespace Reg {

enum class GatherMaskMode { NO_STORE_REG, STORE_REG };
enum class HistogramsBinType { BIN0 = 0, BIN1, BIN2, BIN3, BIN4, BIN5, BIN6, BIN7 };
enum class HistogramsType { FREQUENCY = 0, ACCUMULATE };

// ClearSpr<AR>: the AR register to 0.
template <SpecialPurposeReg spr>
__simd_callee__ inline void ClearSpr() {
  static_assert(spr == SpecialPurposeReg::AR, "ClearSpr: AR");
  ::lngrad::reg::detail::SpecialAr() = 0;
}

// Gather: dstReg lane i = srcReg lane (indexReg lane i mod lanes).
template <typename T = DefaultType, typename U = DefaultType, ::lngrad::reg::detail::DataReg S,
          ::lngrad::reg::detail::DataReg V>
__simd_callee__ inline void Gather(S& dstReg, const S& srcReg, const V& indexReg) {
  ::lngrad::reg::GatherLanes(dstReg, srcReg, indexReg);
}

// Squeeze: the selected lanes, in order, from lane 0; the rest 0. STORE_REG: their byte count for
// the next StoreUnAlign that reads AR.
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void Squeeze(U& dstReg, const U& srcReg, const MaskReg& mask) {
  using Lane = typename U::ActualT;
  const uint32_t n = ::lngrad::reg::Squeeze(dstReg, srcReg, mask);
  if constexpr (store == GatherMaskMode::STORE_REG) {
    ::lngrad::reg::detail::SqueezedBytes() = n * static_cast<uint32_t>(sizeof(Lane));
  }
}

// Interleave / DeInterleave: the rows of the pair table (asc_intlv / asc_deintlv).
#define LNGRAD_REG_CPP_PAIR(c_name, name, engine)                                                \
  template <typename T = DefaultType, ::lngrad::reg::detail::DataReg U>                          \
  __simd_callee__ inline void name(U& dstReg0, U& dstReg1, const U& srcReg0, const U& srcReg1) { \
    engine::Apply(dstReg0, dstReg1, U(srcReg0), U(srcReg1));                                     \
  }
LNGRAD_REG_PAIR_TABLE(LNGRAD_REG_CPP_PAIR)
#undef LNGRAD_REG_CPP_PAIR

// Pack: the low half of each lane into the lower (LOWEST) or upper (HIGHEST) half of dstReg.
template <typename T = DefaultType, typename U = DefaultType,
          HighLowPart part = HighLowPart::LOWEST, ::lngrad::reg::detail::DataReg S,
          ::lngrad::reg::detail::DataReg V>
__simd_callee__ inline void Pack(S& dstReg, const V& srcReg) {
  ::lngrad::reg::PackHalf(dstReg, srcReg, part == HighLowPart::HIGHEST);
}

// Histograms<uint8_t, uint16_t, BIN0/BIN1, FREQUENCY/ACCUMULATE>: adds the counts to dstReg.
template <typename T = DefaultType, typename U = DefaultType, HistogramsBinType mode,
          HistogramsType type, ::lngrad::reg::detail::DataReg S, ::lngrad::reg::detail::DataReg V>
__simd_callee__ inline void Histograms(V& dstReg, const S& srcReg, const MaskReg& mask) {
  static_assert(std::is_same_v<typename S::ActualT, uint8_t> &&
                    std::is_same_v<typename V::ActualT, uint16_t> &&
                    (mode == HistogramsBinType::BIN0 || mode == HistogramsBinType::BIN1),
                "Histograms: uint8_t into uint16_t, BIN0 or BIN1");
  ::lngrad::reg::Histogram<type == HistogramsType::ACCUMULATE>(dstReg, srcReg, mask,
                                                               static_cast<uint32_t>(mode));
}

// MaskGenWithRegTensor<T, offset>: the mask from the bits of srcReg's block offset (b16: 16
// bytes, b32: 8 bytes), each bit broadcast over its lane's mask bits.
template <typename T = DefaultType, int16_t offset, ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void MaskGenWithRegTensor(MaskReg& dst, const U& srcReg) {
  using Lane = typename U::ActualT;
  static_assert((sizeof(Lane) == 2 && offset >= 0 && offset < 16) ||
                    (sizeof(Lane) == 4 && offset >= 0 && offset < 32),
                "MaskGenWithRegTensor: b16 (offset 0-15) or b32 (offset 0-31)");
  ::lngrad::reg::MaskFromBits(dst, srcReg, static_cast<uint32_t>(offset));
}

}  // namespace Reg
}  // namespace AscendC
