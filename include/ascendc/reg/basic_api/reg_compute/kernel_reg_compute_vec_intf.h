// lngrad register API, the C++ flavour: the compute functions of the vendor's
// basic_api/reg_compute/kernel_reg_compute_vec_{binary,binary_scalar,unary,cmpsel,duplicate,
// arange,reduce}_intf.h and the mask functions of kernel_reg_compute_maskreg_intf.h, generated
// from the one table (lngrad_reg/op_table.h) onto the engines the C flavour runs
// (lngrad_reg/engine.h): Add and asc_add are one row and give the same bits. The template
// argument T, where a kernel names it, must be the register's lane type.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "basic_api/reg_compute/kernel_reg_compute_struct_intf.h"
#include "lngrad_reg/engine.h"

#define LNGRAD_REG_CPP_LANE(T, U)                                               \
  using Lane = ::lngrad::reg::detail::LaneOf<T, U>;                             \
  static_assert(std::is_same_v<Lane, typename std::remove_cvref_t<U>::ActualT>, \
                "AscendC::Reg: T is not the register's lane type");

namespace AscendC::Reg {

// Binary functions: dst = op(src0, src1) in the lanes the mask selects. mode: a MaskMergeMode
// (Div: or a DivSpecificMode, by address).
#define LNGRAD_REG_CPP_BINARY(c_name, name, op, types, default_mode)                       \
  template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>      \
  __simd_callee__ inline void name(U& dstReg, const U& srcReg0, const U& srcReg1,          \
                                   const MaskReg& mask) {                                  \
    LNGRAD_REG_CPP_LANE(T, U)                                                              \
    static_assert(::lngrad::reg::kAllows<types, Lane>, #name ": lane type not supported"); \
    constexpr auto kMode = ::lngrad::reg::detail::ToMaskMode<mode>();                      \
    using Op = ::lngrad::reg::detail::OpOf<op, mode>;                                      \
    if constexpr (::lngrad::reg::detail::kTwoRegs<U>) {                                    \
      for (uint32_t h = 0; h < 2; ++h)                                                     \
        ::lngrad::reg::Binary<Op, kMode>(dstReg.part[h], srcReg0.part[h], srcReg1.part[h], \
                                         ::lngrad::reg::detail::PartMask<Lane>(mask, h));  \
    } else {                                                                               \
      ::lngrad::reg::Binary<Op, kMode>(dstReg, srcReg0, srcReg1, mask);                    \
    }                                                                                      \
  }
LNGRAD_REG_BINARY_TABLE(LNGRAD_REG_CPP_BINARY)
#undef LNGRAD_REG_CPP_BINARY

// Scalar functions: dst = op(src, scalarValue).
#define LNGRAD_REG_CPP_SCALAR(c_name, name, op, types, default_mode)                       \
  template <typename T = DefaultType, typename S = DefaultType,                            \
            MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename V>           \
  __simd_callee__ inline void name(U& dstReg, const U& srcReg, V scalarValue,              \
                                   const MaskReg& mask) {                                  \
    LNGRAD_REG_CPP_LANE(T, U)                                                              \
    static_assert(::lngrad::reg::kAllows<types, Lane>, #name ": lane type not supported"); \
    constexpr auto kMode = ::lngrad::reg::detail::ToMaskMode<mode>();                      \
    ::lngrad::reg::detail::ForEachPart<Lane>(                                              \
        [&](auto& d, const auto& a, const MaskReg& m) {                                    \
          ::lngrad::reg::WithScalar<op, kMode>(d, a, static_cast<Lane>(scalarValue), m);   \
        },                                                                                 \
        dstReg, srcReg, mask);                                                             \
  }
LNGRAD_REG_SCALAR_TABLE(LNGRAD_REG_CPP_SCALAR)
#undef LNGRAD_REG_CPP_SCALAR

// Unary functions: dst = op(src). mode: a MaskMergeMode (Exp, Ln, Sqrt: or their specific
// mode, by address). Move's default is MERGING, as the reference's.
#define LNGRAD_REG_CPP_UNARY(c_name, name, op, types, default_mode)                           \
  template <typename T = DefaultType,                                                         \
            auto mode =                                                                       \
                (default_mode == ::lngrad::reg::MaskMode::kMerging ? MaskMergeMode::MERGING   \
                                                                   : MaskMergeMode::ZEROING), \
            typename U>                                                                       \
  __simd_callee__ inline void name(U& dstReg, const U& srcReg, const MaskReg& mask) {         \
    LNGRAD_REG_CPP_LANE(T, U)                                                                 \
    static_assert(::lngrad::reg::kAllows<types, Lane>, #name ": lane type not supported");    \
    ::lngrad::reg::detail::ForEachPart<Lane>(                                                 \
        [](auto& d, const auto& a, const MaskReg& m) {                                        \
          ::lngrad::reg::Unary<::lngrad::reg::detail::OpOf<op, mode>,                         \
                               ::lngrad::reg::detail::ToMaskMode<mode>()>(d, a, m);           \
        },                                                                                    \
        dstReg, srcReg, mask);                                                                \
  }
LNGRAD_REG_UNARY_TABLE(LNGRAD_REG_CPP_UNARY)
#undef LNGRAD_REG_CPP_UNARY

// Move without a mask: every lane.
template <typename T = DefaultType, ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void Move(U& dstReg, const U& srcReg) {
  dstReg = srcReg;
}

// Compare / Compares: mask lane = op(src0, src1) where mask selects, 0 elsewhere.
template <CMPMODE mode>
struct CompareOp;
#define LNGRAD_REG_CPP_CMP_OP(c_name, c_scalar_name, cmp_mode, op, types) \
  template <>                                                             \
  struct CompareOp<CMPMODE::cmp_mode> {                                   \
    using Op = op;                                                        \
    static constexpr uint32_t kTypes = types;                             \
  };
LNGRAD_REG_COMPARE_TABLE(LNGRAD_REG_CPP_CMP_OP)
#undef LNGRAD_REG_CPP_CMP_OP
// A RegTraitNumTwo register's comparison: each part's, its b64 lane i giving the b32 lane
// h * 32 + i of dst.
template <CMPMODE mode, typename Lane, typename U>
__simd_callee__ inline void CompareRun(MaskReg& dst, const U& a, const U& b, const MaskReg& mask) {
  using Op = typename CompareOp<mode>::Op;
  if constexpr (::lngrad::reg::detail::kTwoRegs<U>) {
    MaskReg out;
    for (uint32_t h = 0; h < 2; ++h) {
      MaskReg part;
      ::lngrad::reg::Compare<Op>(part, a.part[h], b.part[h],
                                 ::lngrad::reg::detail::PartMask<Lane>(mask, h));
      for (uint32_t i = 0; i < ::lngrad::reg::kLanes<Lane>; ++i)
        out.SetLane<uint32_t>(h * ::lngrad::reg::kLanes<Lane> + i, part.Lane<Lane>(i));
    }
    dst = out;
  } else {
    ::lngrad::reg::Compare<Op>(dst, a, b, mask);
  }
}
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U>
__simd_callee__ inline void Compare(MaskReg& dst, const U& srcReg0, const U& srcReg1,
                                    const MaskReg& mask) {
  LNGRAD_REG_CPP_LANE(T, U)
  static_assert(::lngrad::reg::kAllows<CompareOp<mode>::kTypes, Lane>, "Compare: lane type");
  CompareRun<mode, Lane>(dst, srcReg0, srcReg1, mask);
}
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
__simd_callee__ inline void Compares(MaskReg& dst, const U& srcReg, S scalarValue,
                                     const MaskReg& mask) {
  LNGRAD_REG_CPP_LANE(T, U)
  U b;
  if constexpr (::lngrad::reg::detail::kTwoRegs<U>) {
    for (auto& part : b.part)
      std::fill(part.lane, part.lane + ::lngrad::reg::kLanes<Lane>, static_cast<Lane>(scalarValue));
  } else {
    std::fill(b.lane, b.lane + ::lngrad::reg::kLanes<Lane>, static_cast<Lane>(scalarValue));
  }
  CompareRun<mode, Lane>(dst, srcReg, b, mask);
}

// Select: dst = mask ? src0 : src1 in every lane (RegTraitNumTwo: each part by its part of the
// b32 mask).
template <typename T = DefaultType, ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void Select(U& dstReg, const U& srcReg0, const U& srcReg1,
                                   const MaskReg& mask) {
  if constexpr (::lngrad::reg::detail::kTwoRegs<U>) {
    for (uint32_t h = 0; h < 2; ++h) {
      ::lngrad::reg::Select(dstReg.part[h], srcReg0.part[h], srcReg1.part[h],
                            ::lngrad::reg::detail::PartMask<typename U::ActualT>(mask, h));
    }
  } else {
    ::lngrad::reg::Select(dstReg, srcReg0, srcReg1, mask);
  }
}

// Duplicate: the scalar in every lane, or in the lanes the mask selects.
template <typename T = DefaultType, typename S, ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void Duplicate(U& dstReg, S scalarValue) {
  LNGRAD_REG_CPP_LANE(T, U)
  for (Lane& v : dstReg.lane) v = static_cast<Lane>(scalarValue);
}
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void Duplicate(U& dstReg, S scalarValue, const MaskReg& mask) {
  LNGRAD_REG_CPP_LANE(T, U)
  ::lngrad::reg::Duplicate<::lngrad::reg::detail::ToMaskMode<mode>()>(
      dstReg, static_cast<Lane>(scalarValue), mask);
}

// Duplicate(dst, src, mask): src's lowest lane (HighLowPart::LOWEST, the only position the
// reference supports) in the lanes the mask selects.
template <typename T = DefaultType, HighLowPart pos = HighLowPart::LOWEST,
          MaskMergeMode mode = MaskMergeMode::ZEROING, ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void Duplicate(U& dstReg, const U& srcReg, const MaskReg& mask) {
  LNGRAD_REG_CPP_LANE(T, U)
  static_assert(pos == HighLowPart::LOWEST, "Duplicate: only HighLowPart::LOWEST is supported");
  ::lngrad::reg::Duplicate<::lngrad::reg::detail::ToMaskMode<mode>()>(dstReg, srcReg.lane[0], mask);
}

// Arange: scalarValue + i in lane i (DECREASE_ORDER: reversed).
template <typename T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, typename S,
          ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void Arange(U& dstReg, S scalarValue) {
  LNGRAD_REG_CPP_LANE(T, U)
  ::lngrad::reg::Arange<Lane>(dstReg, static_cast<Lane>(scalarValue),
                              order == IndexOrder::DECREASE_ORDER);
}

// Reduce / ReduceDataBlock: the table's reductions, chosen by ReduceType.
template <ReduceType type, bool perBlock>
struct ReduceRow;
#define LNGRAD_REG_CPP_REDUCE_ROW(c_name, cpp_name, reduce_type, op, types, per_block) \
  template <>                                                                          \
  struct ReduceRow<ReduceType::reduce_type, per_block> {                               \
    using Op = op;                                                                     \
    static constexpr uint32_t kTypes = types;                                          \
  };
LNGRAD_REG_REDUCE_TABLE(LNGRAD_REG_CPP_REDUCE_ROW)
#undef LNGRAD_REG_CPP_REDUCE_ROW
template <ReduceType type, bool perBlock, typename T, MaskMergeMode mode, typename U>
__simd_callee__ inline void ReduceRun(U& dstReg, const U& srcReg, const MaskReg& mask) {
  using Row = ReduceRow<type, perBlock>;
  LNGRAD_REG_CPP_LANE(T, U)
  static_assert(::lngrad::reg::kAllows<Row::kTypes, Lane>, "Reduce: lane type not supported");
  if constexpr (::lngrad::reg::detail::kTwoRegs<U>) {
    static_assert(!perBlock, "ReduceDataBlock: not for RegTraitNumTwo registers");
    ::lngrad::reg::ReduceTwo<typename Row::Op, ::lngrad::reg::detail::ToMaskMode<mode>()>(
        dstReg.part, srcReg.part, ::lngrad::reg::detail::PartMask<Lane>(mask, 0),
        ::lngrad::reg::detail::PartMask<Lane>(mask, 1));
  } else {
    ::lngrad::reg::Reduce<typename Row::Op, perBlock, ::lngrad::reg::detail::ToMaskMode<mode>()>(
        dstReg, srcReg, mask);
  }
}
#define LNGRAD_REG_CPP_REDUCE(name, per_block)                                             \
  template <ReduceType type = ReduceType::SUM, typename T = DefaultType,                   \
            MaskMergeMode mode = MaskMergeMode::ZEROING, ::lngrad::reg::detail::DataReg U> \
  __simd_callee__ inline void name(U& dstReg, const U& srcReg, const MaskReg& mask) {      \
    ReduceRun<type, per_block, T, mode>(dstReg, srcReg, mask);                             \
  }
LNGRAD_REG_CPP_REDUCE(Reduce, false)
LNGRAD_REG_CPP_REDUCE(ReduceDataBlock, true)
#undef LNGRAD_REG_CPP_REDUCE
// The named reductions (ReduceSum, ReduceMax, ..., ReduceMinWithDataBlock), one per row,
// <T, mode>: the reference's ReduceSum<T, U, mode> (U the source type of a widening int16/uint16
// sum) is not yet modelled.
#define LNGRAD_REG_CPP_REDUCE_NAMED(c_name, cpp_name, reduce_type, op, types, per_block)  \
  template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,        \
            ::lngrad::reg::detail::DataReg U>                                             \
  __simd_callee__ inline void cpp_name(U& dstReg, const U& srcReg, const MaskReg& mask) { \
    ReduceRun<ReduceType::reduce_type, per_block, T, mode>(dstReg, srcReg, mask);         \
  }
LNGRAD_REG_REDUCE_TABLE(LNGRAD_REG_CPP_REDUCE_NAMED)
#undef LNGRAD_REG_CPP_REDUCE_NAMED

// PairReduceElem<SUM>: lane i of the lower half = src[2i] + src[2i + 1].
template <PairReduce type = PairReduce::SUM, typename T = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, ::lngrad::reg::detail::DataReg U>
__simd_callee__ inline void PairReduceElem(U& dstReg, const U& srcReg, const MaskReg& mask) {
  ::lngrad::reg::PairReduceSum(dstReg, srcReg, mask);
}

// Masks: CreateMask<T, pattern>, UpdateMask<T>(count), and the bitwise functions of the table.
// RegTraitNumTwo: a b32 mask over twice the lanes.
template <typename T, MaskPattern mode = MaskPattern::ALL,
          const RegTrait& regTrait = RegTraitNumOne>
__simd_callee__ inline MaskReg CreateMask() {
  return ::lngrad::reg::CreateMask(static_cast<::lngrad::reg::Pattern>(mode),
                                   sizeof(T) / regTrait.REG_NUM);
}
template <typename T, const RegTrait& regTrait = RegTraitNumOne>
__simd_callee__ inline MaskReg UpdateMask(uint32_t& scalarValue) {
  return ::lngrad::reg::UpdateMask(scalarValue, sizeof(T) / regTrait.REG_NUM);
}
#define LNGRAD_REG_CPP_MASK(c_name, name, op)                                              \
  __simd_callee__ inline void name(MaskReg& dst, const MaskReg& src0, const MaskReg& src1, \
                                   const MaskReg& mask) {                                  \
    ::lngrad::reg::MaskBinary<op>(dst, src0, src1, mask);                                  \
  }
LNGRAD_REG_MASK_TABLE(LNGRAD_REG_CPP_MASK)
#undef LNGRAD_REG_CPP_MASK
__simd_callee__ inline void Select(MaskReg& dst, const MaskReg& src0, const MaskReg& src1,
                                   const MaskReg& mask) {
  ::lngrad::reg::SelectBits(dst, src0, src1, mask);
}
__simd_callee__ inline void Move(MaskReg& dst, const MaskReg& src, const MaskReg& mask) {
  ::lngrad::reg::MaskBinary<::lngrad::reg::ops::And>(dst, src, src, mask);
}
__simd_callee__ inline void Move(MaskReg& dst, const MaskReg& src) { dst = src; }

}  // namespace AscendC::Reg

#undef LNGRAD_REG_CPP_LANE
