// lngrad register API: the ONE table of register operations. Each row names an operation, its
// per-element function (lngrad::reg::ops, lngrad_reg/element_ops.h, written from the reference's
// per-element definition), the lane types the reference lists for it (lngrad_reg/lane_types.h)
// and what masked-off lanes of the destination get (kZeroing: 0, as the C API documents for its
// compute functions; kMerging: unchanged). The C API's asc_* overloads
// (c_api/reg_compute/reg_vector.h) are generated from these rows, and the C++ flavour
// (AscendC::Reg) runs the same engines (lngrad_reg/engine.h): adding an operation or a type is
// adding or widening a row.
#pragma once

#include "lngrad_reg/element_ops.h"
#include "lngrad_reg/lane_types.h"

#define LNGRAD_REG_Z ::lngrad::reg::MaskMode::kZeroing
#define LNGRAD_REG_M ::lngrad::reg::MaskMode::kMerging

// The table. X(name, element function, lane types, mask mode).
// dst = op(src0, src1) per lane (vector registers):
#define LNGRAD_REG_BINARY_TABLE(X)                                                               \
  X(asc_add, ::lngrad::reg::ops::Add, ::lngrad::reg::kArith | ::lngrad::reg::kB64, LNGRAD_REG_Z) \
  X(asc_sub, ::lngrad::reg::ops::Sub, ::lngrad::reg::kArith | ::lngrad::reg::kB64, LNGRAD_REG_Z) \
  X(asc_mul, ::lngrad::reg::ops::Mul, ::lngrad::reg::kArith, LNGRAD_REG_Z)                       \
  X(asc_div, ::lngrad::reg::ops::Div,                                                            \
    ::lngrad::reg::kI16 | ::lngrad::reg::kU16 | ::lngrad::reg::kI32 | ::lngrad::reg::kU32 |      \
        ::lngrad::reg::kFloat,                                                                   \
    LNGRAD_REG_Z)                                                                                \
  X(asc_max, ::lngrad::reg::ops::Max, ::lngrad::reg::kArith, LNGRAD_REG_Z)                       \
  X(asc_min, ::lngrad::reg::ops::Min, ::lngrad::reg::kArith, LNGRAD_REG_Z)                       \
  X(asc_and, ::lngrad::reg::ops::And, ::lngrad::reg::kArith, LNGRAD_REG_Z)                       \
  X(asc_or, ::lngrad::reg::ops::Or, ::lngrad::reg::kArith, LNGRAD_REG_Z)                         \
  X(asc_xor, ::lngrad::reg::ops::Xor, ::lngrad::reg::kArith, LNGRAD_REG_Z)
// dst = op(src, value) per lane, value a scalar of the lane type:
#define LNGRAD_REG_SCALAR_TABLE(X)                                                \
  X(asc_add_scalar, ::lngrad::reg::ops::Add, ::lngrad::reg::kArith, LNGRAD_REG_Z) \
  X(asc_mul_scalar, ::lngrad::reg::ops::Mul, ::lngrad::reg::kArith, LNGRAD_REG_Z) \
  X(asc_max_scalar, ::lngrad::reg::ops::Max, ::lngrad::reg::kArith, LNGRAD_REG_Z) \
  X(asc_min_scalar, ::lngrad::reg::ops::Min, ::lngrad::reg::kArith, LNGRAD_REG_Z)
// dst = op(src) per lane:
#define LNGRAD_REG_UNARY_TABLE(X)                                                                  \
  X(asc_abs, ::lngrad::reg::ops::Abs, ::lngrad::reg::kSigned, LNGRAD_REG_Z)                        \
  X(asc_neg, ::lngrad::reg::ops::Neg, ::lngrad::reg::kSigned, LNGRAD_REG_Z)                        \
  X(asc_relu, ::lngrad::reg::ops::Relu, ::lngrad::reg::kI32 | ::lngrad::reg::kFloat, LNGRAD_REG_Z) \
  X(asc_not, ::lngrad::reg::ops::Not, ::lngrad::reg::kArith, LNGRAD_REG_Z)                         \
  X(asc_sqrt, ::lngrad::reg::ops::Sqrt, ::lngrad::reg::kFloat, LNGRAD_REG_Z)                       \
  X(asc_exp, ::lngrad::reg::ops::Exp, ::lngrad::reg::kFloat, LNGRAD_REG_Z)                         \
  X(asc_ln, ::lngrad::reg::ops::Ln, ::lngrad::reg::kFloat, LNGRAD_REG_Z)                           \
  X(asc_floor, ::lngrad::reg::ops::Floor, ::lngrad::reg::kFloatAll, LNGRAD_REG_Z)                  \
  X(asc_ceil, ::lngrad::reg::ops::Ceil, ::lngrad::reg::kFloatAll, LNGRAD_REG_Z)                    \
  X(asc_trunc, ::lngrad::reg::ops::Trunc, ::lngrad::reg::kFloatAll, LNGRAD_REG_Z)                  \
  X(asc_round, ::lngrad::reg::ops::Round, ::lngrad::reg::kFloatAll, LNGRAD_REG_Z)                  \
  X(asc_rint, ::lngrad::reg::ops::Rint, ::lngrad::reg::kFloatAll, LNGRAD_REG_Z)                    \
  X(asc_copy, ::lngrad::reg::ops::Copy, ::lngrad::reg::kArith | ::lngrad::reg::kBF16, LNGRAD_REG_M)
// mask lane = op(src0, src1) (the _scalar row: op(src, value)); masked-off lanes 0:
#define LNGRAD_REG_COMPARE_TABLE(X)                                       \
  X(asc_eq, asc_eq_scalar, ::lngrad::reg::ops::Eq, ::lngrad::reg::kArith) \
  X(asc_ne, asc_ne_scalar, ::lngrad::reg::ops::Ne, ::lngrad::reg::kArith) \
  X(asc_gt, asc_gt_scalar, ::lngrad::reg::ops::Gt, ::lngrad::reg::kArith) \
  X(asc_ge, asc_ge_scalar, ::lngrad::reg::ops::Ge, ::lngrad::reg::kArith) \
  X(asc_lt, asc_lt_scalar, ::lngrad::reg::ops::Lt, ::lngrad::reg::kArith) \
  X(asc_le, asc_le_scalar, ::lngrad::reg::ops::Le, ::lngrad::reg::kArith)
// mask register = op(src0, src1) bit by bit where mask is set, 0 elsewhere:
#define LNGRAD_REG_MASK_TABLE(X)      \
  X(asc_and, ::lngrad::reg::ops::And) \
  X(asc_or, ::lngrad::reg::ops::Or)   \
  X(asc_xor, ::lngrad::reg::ops::Xor)
// Reductions: X(name, combine, lane types, per 32-byte block?). dst lane 0 (or lane k for block
// k) gets the binary tree of the selected lanes (unselected lanes count as the identity: 0 for
// sum); the other lanes are 0.
#define LNGRAD_REG_REDUCE_TABLE(X)                                                                \
  X(asc_reduce_sum, ::lngrad::reg::ops::Add, ::lngrad::reg::kB32 | ::lngrad::reg::kF16, false)    \
  X(asc_reduce_max, ::lngrad::reg::ops::Max, ::lngrad::reg::kArith, false)                        \
  X(asc_reduce_min, ::lngrad::reg::ops::Min, ::lngrad::reg::kArith, false)                        \
  X(asc_reduce_sum_datablock, ::lngrad::reg::ops::Add, ::lngrad::reg::kB32 | ::lngrad::reg::kF16, \
    true)                                                                                         \
  X(asc_reduce_max_datablock, ::lngrad::reg::ops::Max, ::lngrad::reg::kArith, true)               \
  X(asc_reduce_min_datablock, ::lngrad::reg::ops::Min, ::lngrad::reg::kArith, true)
