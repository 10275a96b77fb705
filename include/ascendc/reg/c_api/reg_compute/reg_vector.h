// lngrad C API: the register compute functions (the vendor's c_api/reg_compute/reg_vector.h),
// generated from the one table (lngrad_reg/op_table.h): each row gives the overloads of one
// function for the lane types of its row. Masked-off lanes: see the row's mode.
#pragma once

#include <type_traits>

#include "c_api/utils_intf.h"
#include "lngrad_reg/engine.h"

#define LNGRAD_REG_C_BINARY(name, op, types, mode)                                                 \
  template <typename T>                                                                            \
  requires(::lngrad::reg::kAllows<types, T>) inline void name(                                     \
      ::lngrad::reg::VecReg<T>& dst, ::lngrad::reg::VecReg<T> src0, ::lngrad::reg::VecReg<T> src1, \
      vector_bool mask) {                                                                          \
    ::lngrad::reg::Binary<op, mode>(dst, src0, src1, mask);                                        \
  }
LNGRAD_REG_BINARY_TABLE(LNGRAD_REG_C_BINARY)
#undef LNGRAD_REG_C_BINARY

#define LNGRAD_REG_C_SCALAR(name, op, types, mode)                                                \
  template <typename T>                                                                           \
  requires(::lngrad::reg::kAllows<types, T>) inline void name(                                    \
      ::lngrad::reg::VecReg<T>& dst, ::lngrad::reg::VecReg<T> src, std::type_identity_t<T> value, \
      vector_bool mask) {                                                                         \
    ::lngrad::reg::WithScalar<op, mode>(dst, src, value, mask);                                   \
  }
LNGRAD_REG_SCALAR_TABLE(LNGRAD_REG_C_SCALAR)
#undef LNGRAD_REG_C_SCALAR

#define LNGRAD_REG_C_COMPARE(name, scalar_name, op, types)                            \
  template <typename T>                                                               \
  requires(::lngrad::reg::kAllows<types, T>) inline void name(                        \
      vector_bool& dst, ::lngrad::reg::VecReg<T> src0, ::lngrad::reg::VecReg<T> src1, \
      vector_bool mask) {                                                             \
    ::lngrad::reg::Compare<op>(dst, src0, src1, mask);                                \
  }                                                                                   \
  template <typename T>                                                               \
  requires(::lngrad::reg::kAllows<types, T>) inline void scalar_name(                 \
      vector_bool& dst, ::lngrad::reg::VecReg<T> src, std::type_identity_t<T> value,  \
      vector_bool mask) {                                                             \
    ::lngrad::reg::VecReg<T> b;                                                       \
    for (T & v : b.lane) v = value;                                                   \
    ::lngrad::reg::Compare<op>(dst, src, b, mask);                                    \
  }
LNGRAD_REG_COMPARE_TABLE(LNGRAD_REG_C_COMPARE)
#undef LNGRAD_REG_C_COMPARE

#define LNGRAD_REG_C_MASK(name, op)                                                          \
  inline void name(vector_bool& dst, vector_bool src0, vector_bool src1, vector_bool mask) { \
    ::lngrad::reg::MaskBinary<op>(dst, src0, src1, mask);                                    \
  }
LNGRAD_REG_MASK_TABLE(LNGRAD_REG_C_MASK)
#undef LNGRAD_REG_C_MASK

// asc_select: dst = mask ? src0 : src1 in every lane (the reference: unselected lanes keep src1,
// none is zeroed); on mask registers bit by bit.
template <typename T>
requires(::lngrad::reg::kAllows<::lngrad::reg::kArith, T>) inline void asc_select(
    ::lngrad::reg::VecReg<T>& dst, ::lngrad::reg::VecReg<T> src0, ::lngrad::reg::VecReg<T> src1,
    vector_bool mask) {
  ::lngrad::reg::Select(dst, src0, src1, mask);
}
inline void asc_select(vector_bool& dst, vector_bool src0, vector_bool src1, vector_bool mask) {
  ::lngrad::reg::SelectBits(dst, src0, src1, mask);
}

// asc_duplicate_scalar: value in the lanes the mask selects (0 elsewhere), or in every lane.
template <typename T>
requires(::lngrad::reg::kAllows<::lngrad::reg::kArith, T>) inline void asc_duplicate_scalar(
    ::lngrad::reg::VecReg<T>& dst, std::type_identity_t<T> value, vector_bool mask) {
  ::lngrad::reg::Duplicate(dst, value, mask);
}
template <typename T>
requires(::lngrad::reg::kAllows<::lngrad::reg::kArith, T>) inline void asc_duplicate_scalar(
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
