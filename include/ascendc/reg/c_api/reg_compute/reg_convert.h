// lngrad C API: the register conversions (the vendor's c_api/reg_compute/reg_convert.h),
// generated from the cast table (lngrad_reg/convert.h, LNGRAD_REG_CAST_TABLE): asc_<src>2<dst>
// with the row's round suffixes, _sat and _v2 ... _v4 names, each Convert in its RoundMode,
// saturation and layout (the C++ flavour's Cast runs the same engine); unselected lanes 0.
#pragma once

#include "c_api/utils_intf.h"
#include "lngrad_reg/convert.h"

// One function: name(dst, src, mask).
#define LNGRAD_REG_C_CAST_FN(name, layout, saturate, mode, S, D)                       \
  inline void name(::lngrad::reg::VecReg<D>& dst, const ::lngrad::reg::VecReg<S>& src, \
                   vector_bool mask) {                                                 \
    ::lngrad::reg::Convert<D, S, ::lngrad::reg::MaskMode::kZeroing>(                   \
        dst, src, mask, layout, {::AscendC::RoundMode::mode, saturate});               \
  }
#define LNGRAD_REG_C_CAST_SAT(name, saturate, mode, S, D, parts) \
  parts(LNGRAD_REG_C_CAST_FN, name, saturate, mode, S, D)
#define LNGRAD_REG_C_CAST_ROUND(suffix, mode, s, d, S, D, sat, parts) \
  sat(LNGRAD_REG_C_CAST_SAT, asc_##s##2##d##suffix, mode, S, D, parts)
#define LNGRAD_REG_C_CAST_ROW(s, d, S, D, rounds, sat, parts) \
  rounds(LNGRAD_REG_C_CAST_ROUND, s, d, S, D, sat, parts)
LNGRAD_REG_CAST_TABLE(LNGRAD_REG_C_CAST_ROW)
#undef LNGRAD_REG_C_CAST_ROW
#undef LNGRAD_REG_C_CAST_ROUND
#undef LNGRAD_REG_C_CAST_SAT
#undef LNGRAD_REG_C_CAST_FN
