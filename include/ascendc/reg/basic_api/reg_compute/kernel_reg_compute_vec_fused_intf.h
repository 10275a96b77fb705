// lngrad register API, the C++ flavour: the fused functions of the vendor's
// basic_api/reg_compute/kernel_reg_compute_vec_fused_intf.h. AbsSub is a row of the one table
// (lngrad_reg/op_table.h, with asc_abs_sub); ExpSub and MulsCast run the conversion engines both
// flavours share (lngrad_reg/convert.h: asc_exp_sub is the same engine); MulDstAdd is the
// table's Mul then Add, each rounded, as the vector FusedMulAdd (docs/ascendc_compat.md).
#pragma once

#include <type_traits>

#include "basic_api/reg_compute/kernel_reg_compute_struct_intf.h"
#include "basic_api/reg_compute/kernel_reg_compute_vec_intf.h"
#include "lngrad_reg/convert.h"

namespace AscendC::Reg {

// ExpSub: dst (float) = exp(src0 - src1); half sources are converted to float first, the pair
// chosen by layout (ZERO: the even half lanes).
template <typename T = DefaultType, typename U = DefaultType, RegLayout layout = RegLayout::ZERO,
          MaskMergeMode mode = MaskMergeMode::ZEROING, ::lngrad::reg::detail::DataReg S,
          ::lngrad::reg::detail::DataReg V>
__simd_callee__ inline void ExpSub(S& dstReg, const V& srcReg0, const V& srcReg1,
                                   const MaskReg& mask) {
  static_assert(
      std::is_same_v<typename S::ActualT, float> &&
          (std::is_same_v<typename V::ActualT, float> || std::is_same_v<typename V::ActualT, half>),
      "ExpSub: a float destination from float or half sources");
  ::lngrad::reg::WideningBinary<::lngrad::reg::ops::ExpSub,
                                ::lngrad::reg::detail::ToMaskMode<mode>()>(
      dstReg, srcReg0, srcReg1, mask, static_cast<uint32_t>(layout));
}

// MulDstAdd: dst = dst * src0 + src1 (half, float).
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void MulDstAdd(U& dstReg, const U& srcReg0, const U& srcReg1,
                                      const MaskReg& mask) {
  static_assert(::lngrad::reg::kAllows<::lngrad::reg::kFloat, typename U::ActualT>,
                "MulDstAdd: half or float lanes");
  U product = dstReg;
  ::lngrad::reg::Binary<::lngrad::reg::ops::Mul, ::lngrad::reg::MaskMode::kMerging>(product, dstReg,
                                                                                    srcReg0, mask);
  ::lngrad::reg::Binary<::lngrad::reg::ops::Add, ::lngrad::reg::detail::ToMaskMode<mode>()>(
      dstReg, product, srcReg1, mask);
}

// MulsCast: dst (half) = cast_round_to_f16(src (float) * scalarValue), lane 2i + layout.
template <typename T0 = DefaultType, typename T1 = DefaultType, typename T2,
          RegLayout layout = RegLayout::ZERO, ::lngrad::reg::detail::DataReg T3,
          ::lngrad::reg::detail::DataReg T4>
__simd_callee__ inline void MulsCast(T3& dstReg, const T4& srcReg, T2 scalarValue,
                                     const MaskReg& mask) {
  static_assert(
      std::is_same_v<typename T3::ActualT, half> && std::is_same_v<typename T4::ActualT, float>,
      "MulsCast: a half destination from a float source");
  ::lngrad::reg::MulsCast<::lngrad::reg::MaskMode::kZeroing>(
      dstReg, srcReg, static_cast<float>(scalarValue), mask, static_cast<uint32_t>(layout));
}

}  // namespace AscendC::Reg
