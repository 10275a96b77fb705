// lngrad C API: the register compute functions (the vendor's c_api/reg_compute/reg_vector.h),
// generated from the one table (lngrad_reg/op_table.h): each row gives the overloads of one
// function for the lane types of its row. Masked-off lanes: see the row's mode.
#pragma once

#include <type_traits>

#include "c_api/utils_intf.h"
#include "lngrad_reg/convert.h"
#include "lngrad_reg/engine.h"
#include "lngrad_reg/relayout.h"
#include "lngrad_reg/ub_access.h"

#define LNGRAD_REG_C_BINARY(name, cpp_name, op, types, mode)               \
  template <typename T>                                                    \
  requires(::lngrad::reg::kAllows<types, T>) inline void name(             \
      ::lngrad::reg::VecReg<T>& dst, const ::lngrad::reg::VecReg<T>& src0, \
      const ::lngrad::reg::VecReg<T>& src1, vector_bool mask) {            \
    ::lngrad::reg::Binary<op, mode>(dst, src0, src1, mask);                \
  }
LNGRAD_REG_BINARY_TABLE(LNGRAD_REG_C_BINARY)
#undef LNGRAD_REG_C_BINARY

#define LNGRAD_REG_C_UNARY(name, cpp_name, op, types, mode)                                   \
  template <typename T>                                                                       \
  requires(::lngrad::reg::kAllows<types, T>) inline void name(                                \
      ::lngrad::reg::VecReg<T>& dst, const ::lngrad::reg::VecReg<T>& src, vector_bool mask) { \
    ::lngrad::reg::Unary<op, mode>(dst, src, mask);                                           \
  }
LNGRAD_REG_UNARY_TABLE(LNGRAD_REG_C_UNARY)
#define LNGRAD_REG_C_ROUND(name, round_mode, op) \
  LNGRAD_REG_C_UNARY(name, _, op, ::lngrad::reg::kFloatAll, LNGRAD_REG_Z)
LNGRAD_REG_ROUND_TABLE(LNGRAD_REG_C_ROUND)
#undef LNGRAD_REG_C_ROUND
#undef LNGRAD_REG_C_UNARY

#define LNGRAD_REG_C_REDUCE(name, cpp_name, reduce_type, op, types, per_block)                \
  template <typename T>                                                                       \
  requires(::lngrad::reg::kAllows<types, T>) inline void name(                                \
      ::lngrad::reg::VecReg<T>& dst, const ::lngrad::reg::VecReg<T>& src, vector_bool mask) { \
    ::lngrad::reg::Reduce<op, per_block>(dst, src, mask);                                     \
  }
LNGRAD_REG_REDUCE_TABLE(LNGRAD_REG_C_REDUCE)
#undef LNGRAD_REG_C_REDUCE

// asc_exp_sub: dst (float) = exp(src0 - src1), from float or half sources (half: the even
// lanes, converted to float first); the C++ flavour's ExpSub engine.
template <typename S>
requires(::lngrad::reg::kAllows<::lngrad::reg::kFloat, S>) inline void asc_exp_sub(
    vector_float& dst, const ::lngrad::reg::VecReg<S>& src0, const ::lngrad::reg::VecReg<S>& src1,
    vector_bool mask) {
  ::lngrad::reg::WideningBinary<::lngrad::reg::ops::ExpSub, ::lngrad::reg::MaskMode::kZeroing>(
      dst, src0, src1, mask, 0);
}

// asc_pair_reduce_sum: lane i of the lower half = src[2i] + src[2i + 1] (an unselected lane
// counts as 0); the upper half 0.
template <typename T>
requires(::lngrad::reg::kAllows<::lngrad::reg::kFloat, T>) inline void asc_pair_reduce_sum(
    ::lngrad::reg::VecReg<T>& dst, const ::lngrad::reg::VecReg<T>& src, vector_bool mask) {
  ::lngrad::reg::PairReduceSum(dst, src, mask);
}

#define LNGRAD_REG_C_SCALAR(name, cpp_name, op, types, mode)              \
  template <typename T>                                                   \
  requires(::lngrad::reg::kAllows<types, T>) inline void name(            \
      ::lngrad::reg::VecReg<T>& dst, const ::lngrad::reg::VecReg<T>& src, \
      std::type_identity_t<T> value, vector_bool mask) {                  \
    ::lngrad::reg::WithScalar<op, mode>(dst, src, value, mask);           \
  }
LNGRAD_REG_SCALAR_TABLE(LNGRAD_REG_C_SCALAR)
#undef LNGRAD_REG_C_SCALAR

#define LNGRAD_REG_C_COMPARE(name, scalar_name, cmp_mode, op, types)                        \
  template <typename T>                                                                     \
  requires(::lngrad::reg::kAllows<types, T>) inline void name(                              \
      vector_bool& dst, const ::lngrad::reg::VecReg<T>& src0,                               \
      const ::lngrad::reg::VecReg<T>& src1, vector_bool mask) {                             \
    ::lngrad::reg::Compare<op>(dst, src0, src1, mask);                                      \
  }                                                                                         \
  template <typename T>                                                                     \
  requires(::lngrad::reg::kAllows<types, T>) inline void scalar_name(                       \
      vector_bool& dst, const ::lngrad::reg::VecReg<T>& src, std::type_identity_t<T> value, \
      vector_bool mask) {                                                                   \
    ::lngrad::reg::VecReg<T> b;                                                             \
    for (T & v : b.lane) v = value;                                                         \
    ::lngrad::reg::Compare<op>(dst, src, b, mask);                                          \
  }
LNGRAD_REG_COMPARE_TABLE(LNGRAD_REG_C_COMPARE)
#undef LNGRAD_REG_C_COMPARE

#define LNGRAD_REG_C_MASK(name, cpp_name, op)                                                \
  inline void name(vector_bool& dst, vector_bool src0, vector_bool src1, vector_bool mask) { \
    ::lngrad::reg::MaskBinary<op>(dst, src0, src1, mask);                                    \
  }
LNGRAD_REG_MASK_TABLE(LNGRAD_REG_C_MASK)
#undef LNGRAD_REG_C_MASK

// asc_select: dst = mask ? src0 : src1 in every lane (the reference: unselected lanes keep src1,
// none is zeroed); on mask registers bit by bit.
template <typename T>
requires(::lngrad::reg::kAllows<::lngrad::reg::kAnyLane, T>) inline void asc_select(
    ::lngrad::reg::VecReg<T>& dst, const ::lngrad::reg::VecReg<T>& src0,
    const ::lngrad::reg::VecReg<T>& src1, vector_bool mask) {
  ::lngrad::reg::Select(dst, src0, src1, mask);
}
inline void asc_select(vector_bool& dst, vector_bool src0, vector_bool src1, vector_bool mask) {
  ::lngrad::reg::SelectBits(dst, src0, src1, mask);
}

// asc_duplicate_scalar: value in the lanes the mask selects (0 elsewhere), or in every lane.
template <typename T>
requires(::lngrad::reg::kAllows<::lngrad::reg::kAnyLane, T>) inline void asc_duplicate_scalar(
    ::lngrad::reg::VecReg<T>& dst, std::type_identity_t<T> value, vector_bool mask) {
  ::lngrad::reg::Duplicate(dst, value, mask);
}
template <typename T>
requires(::lngrad::reg::kAllows<::lngrad::reg::kAnyLane, T>) inline void asc_duplicate_scalar(
    ::lngrad::reg::VecReg<T>& dst, std::type_identity_t<T> value) {
  for (T& v : dst.lane) v = value;
}

// asc_update_mask_bN: the first min(value, 256 / (N / 8)) lanes; value decreases by as many.
inline vector_bool asc_update_mask_b8(uint32_t& value) {
  return ::lngrad::reg::UpdateMask(value, 1);
}
inline vector_bool asc_update_mask_b16(uint32_t& value) {
  return ::lngrad::reg::UpdateMask(value, 2);
}
inline vector_bool asc_update_mask_b32(uint32_t& value) {
  return ::lngrad::reg::UpdateMask(value, 4);
}

// asc_create_mask_bN(pattern): the lanes of a bN type the pattern selects.
inline constexpr ::lngrad::reg::Pattern PAT_ALL = ::lngrad::reg::Pattern::kAll;
inline constexpr ::lngrad::reg::Pattern PAT_VL1 = ::lngrad::reg::Pattern::kVl1;
inline constexpr ::lngrad::reg::Pattern PAT_VL2 = ::lngrad::reg::Pattern::kVl2;
inline constexpr ::lngrad::reg::Pattern PAT_VL3 = ::lngrad::reg::Pattern::kVl3;
inline constexpr ::lngrad::reg::Pattern PAT_VL4 = ::lngrad::reg::Pattern::kVl4;
inline constexpr ::lngrad::reg::Pattern PAT_VL8 = ::lngrad::reg::Pattern::kVl8;
inline constexpr ::lngrad::reg::Pattern PAT_VL16 = ::lngrad::reg::Pattern::kVl16;
inline constexpr ::lngrad::reg::Pattern PAT_VL32 = ::lngrad::reg::Pattern::kVl32;
inline constexpr ::lngrad::reg::Pattern PAT_VL64 = ::lngrad::reg::Pattern::kVl64;
inline constexpr ::lngrad::reg::Pattern PAT_VL128 = ::lngrad::reg::Pattern::kVl128;
inline constexpr ::lngrad::reg::Pattern PAT_M3 = ::lngrad::reg::Pattern::kM3;
inline constexpr ::lngrad::reg::Pattern PAT_M4 = ::lngrad::reg::Pattern::kM4;
inline constexpr ::lngrad::reg::Pattern PAT_H = ::lngrad::reg::Pattern::kH;
inline constexpr ::lngrad::reg::Pattern PAT_Q = ::lngrad::reg::Pattern::kQ;
inline constexpr ::lngrad::reg::Pattern PAT_ALLF = ::lngrad::reg::Pattern::kNone;
inline vector_bool asc_create_mask_b8(::lngrad::reg::Pattern p = PAT_ALL) {
  return ::lngrad::reg::CreateMask(p, 1);
}
inline vector_bool asc_create_mask_b16(::lngrad::reg::Pattern p = PAT_ALL) {
  return ::lngrad::reg::CreateMask(p, 2);
}
inline vector_bool asc_create_mask_b32(::lngrad::reg::Pattern p = PAT_ALL) {
  return ::lngrad::reg::CreateMask(p, 4);
}

// asc_copy on mask registers: the bits mask selects (0 elsewhere), or every bit.
inline void asc_copy(vector_bool& dst, vector_bool src, vector_bool mask) {
  ::lngrad::reg::MaskBinary<::lngrad::reg::ops::And>(dst, src, src, mask);
}
inline void asc_copy(vector_bool& dst, vector_bool src) { dst = src; }

// asc_arange / asc_arange_descend: value, value + 1, ... (descending: reversed).
#define LNGRAD_REG_C_ARANGE(name, descend)                                                         \
  template <typename T>                                                                            \
  requires(::lngrad::reg::kAllows<::lngrad::reg::kI8 | ::lngrad::reg::kI16 | ::lngrad::reg::kI32 | \
                                      ::lngrad::reg::kFloat,                                       \
                                  T>) inline void                                                  \
  name(::lngrad::reg::VecReg<T>& dst, std::type_identity_t<T> value) {                             \
    ::lngrad::reg::Arange(dst, value, descend);                                                    \
  }
LNGRAD_REG_C_ARANGE(asc_arange, false)
LNGRAD_REG_C_ARANGE(asc_arange_descend, true)
#undef LNGRAD_REG_C_ARANGE

// asc_gather (registers): dst lane i = src lane (index lane i mod lanes).
template <typename T, typename I>
requires(::lngrad::reg::kAllows<::lngrad::reg::kArith | ::lngrad::reg::kBF16, T> &&
         sizeof(I) == sizeof(T) &&
         std::is_unsigned_v<I>) inline void asc_gather(::lngrad::reg::VecReg<T>& dst,
                                                       ::lngrad::reg::VecReg<T> src,
                                                       ::lngrad::reg::VecReg<I> index) {
  ::lngrad::reg::GatherLanes(dst, src, index);
}

// asc_squeeze: the selected lanes, in order, from lane 0 (the rest 0); asc_squeeze_with_status
// also leaves their byte count for the next asc_storeunalign that reads AR.
template <typename T>
requires(::lngrad::reg::kAllows<::lngrad::reg::kArith | ::lngrad::reg::kBF16,
                                T>) inline void asc_squeeze(::lngrad::reg::VecReg<T>& dst,
                                                            ::lngrad::reg::VecReg<T> src,
                                                            vector_bool mask) {
  ::lngrad::reg::Squeeze(dst, src, mask);
}
template <typename T>
requires(
    ::lngrad::reg::kAllows<::lngrad::reg::kArith | ::lngrad::reg::kBF16,
                           T>) inline void asc_squeeze_with_status(::lngrad::reg::VecReg<T>& dst,
                                                                   ::lngrad::reg::VecReg<T> src,
                                                                   vector_bool mask) {
  ::lngrad::reg::detail::SqueezedBytes() =
      ::lngrad::reg::Squeeze(dst, src, mask) * static_cast<uint32_t>(sizeof(T));
}
inline void asc_clear_ar_spr() { ::lngrad::reg::detail::SpecialAr() = 0; }

// asc_intlv / asc_deintlv: the rows of the pair table.
#define LNGRAD_REG_C_PAIR(name, cpp_name, engine)                                \
  template <typename T>                                                          \
  requires(::lngrad::reg::kAllows<::lngrad::reg::kAnyLane, T>) inline void name( \
      ::lngrad::reg::VecReg<T>& dst0, ::lngrad::reg::VecReg<T>& dst1,            \
      ::lngrad::reg::VecReg<T> src0, const ::lngrad::reg::VecReg<T>& src1) {     \
    engine::Apply(dst0, dst1, src0, src1);                                       \
  }
LNGRAD_REG_PAIR_TABLE(LNGRAD_REG_C_PAIR)
#undef LNGRAD_REG_C_PAIR

// asc_pack_to_low / asc_pack_to_high: the low half of each lane into the lower / upper half.
#define LNGRAD_REG_C_PACK(name, high)                                             \
  template <typename D, typename S>                                               \
  requires(std::is_unsigned_v<D> && 2 * sizeof(D) == sizeof(S)) inline void name( \
      ::lngrad::reg::VecReg<D>& dst, const ::lngrad::reg::VecReg<S>& src) {       \
    ::lngrad::reg::PackHalf(dst, src, high);                                      \
  }
LNGRAD_REG_C_PACK(asc_pack_to_low, false)
LNGRAD_REG_C_PACK(asc_pack_to_high, true)
#undef LNGRAD_REG_C_PACK

// The histograms: the rows of the histogram table (counts added to dst).
#define LNGRAD_REG_C_HISTOGRAM(name, bin, cumulative)                            \
  inline void name(vector_uint16_t& dst, vector_uint8_t src, vector_bool mask) { \
    ::lngrad::reg::Histogram<cumulative>(dst, src, mask, bin);                   \
  }
LNGRAD_REG_HISTOGRAM_TABLE(LNGRAD_REG_C_HISTOGRAM)
#undef LNGRAD_REG_C_HISTOGRAM
