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

// The table. X(C name, C++ name, element function, lane types, mask mode): the C flavour's mode,
// and the C++ flavour's default for its MaskMergeMode template argument.
// dst = op(src0, src1) per lane (vector registers):
#define LNGRAD_REG_BINARY_TABLE(X)                                                          \
  X(asc_add, Add, ::lngrad::reg::ops::Add, ::lngrad::reg::kArith64, LNGRAD_REG_Z)           \
  X(asc_sub, Sub, ::lngrad::reg::ops::Sub, ::lngrad::reg::kArith64, LNGRAD_REG_Z)           \
  X(asc_mul, Mul, ::lngrad::reg::ops::Mul, ::lngrad::reg::kArith, LNGRAD_REG_Z)             \
  X(asc_div, Div, ::lngrad::reg::ops::Div,                                                  \
    ::lngrad::reg::kI16 | ::lngrad::reg::kU16 | ::lngrad::reg::kI32 | ::lngrad::reg::kU32 | \
        ::lngrad::reg::kB64 | ::lngrad::reg::kFloat,                                        \
    LNGRAD_REG_Z)                                                                           \
  X(asc_max, Max, ::lngrad::reg::ops::Max, ::lngrad::reg::kArith, LNGRAD_REG_Z)             \
  X(asc_min, Min, ::lngrad::reg::ops::Min, ::lngrad::reg::kArith, LNGRAD_REG_Z)             \
  X(asc_and, And, ::lngrad::reg::ops::And, ::lngrad::reg::kArith, LNGRAD_REG_Z)             \
  X(asc_or, Or, ::lngrad::reg::ops::Or, ::lngrad::reg::kArith, LNGRAD_REG_Z)                \
  X(asc_xor, Xor, ::lngrad::reg::ops::Xor, ::lngrad::reg::kArith, LNGRAD_REG_Z)             \
  X(asc_abs_sub, AbsSub, ::lngrad::reg::ops::AbsSub, ::lngrad::reg::kFloat, LNGRAD_REG_Z)
// dst = op(src, value) per lane, value a scalar of the lane type:
#define LNGRAD_REG_SCALAR_TABLE(X)                                                        \
  X(asc_add_scalar, Adds, ::lngrad::reg::ops::Add, ::lngrad::reg::kArith64, LNGRAD_REG_Z) \
  X(asc_mul_scalar, Muls, ::lngrad::reg::ops::Mul, ::lngrad::reg::kArith64, LNGRAD_REG_Z) \
  X(asc_max_scalar, Maxs, ::lngrad::reg::ops::Max, ::lngrad::reg::kArith, LNGRAD_REG_Z)   \
  X(asc_min_scalar, Mins, ::lngrad::reg::ops::Min, ::lngrad::reg::kArith, LNGRAD_REG_Z)
// dst = op(src) per lane:
#define LNGRAD_REG_UNARY_TABLE(X)                                                           \
  X(asc_abs, Abs, ::lngrad::reg::ops::Abs, ::lngrad::reg::kSigned64, LNGRAD_REG_Z)          \
  X(asc_neg, Neg, ::lngrad::reg::ops::Neg, ::lngrad::reg::kSigned64, LNGRAD_REG_Z)          \
  X(asc_relu, Relu, ::lngrad::reg::ops::Relu, ::lngrad::reg::kI32 | ::lngrad::reg::kFloat,  \
    LNGRAD_REG_Z)                                                                           \
  X(asc_not, Not, ::lngrad::reg::ops::Not, ::lngrad::reg::kArith64, LNGRAD_REG_Z)           \
  X(asc_sqrt, Sqrt, ::lngrad::reg::ops::Sqrt, ::lngrad::reg::kFloat, LNGRAD_REG_Z)          \
  X(asc_exp, Exp, ::lngrad::reg::ops::Exp, ::lngrad::reg::kFloat, LNGRAD_REG_Z)             \
  X(asc_ln, Ln, ::lngrad::reg::ops::Ln, ::lngrad::reg::kFloat, LNGRAD_REG_Z)                \
  X(asc_copy, Move, ::lngrad::reg::ops::Copy, ::lngrad::reg::kArith | ::lngrad::reg::kBF16, \
    LNGRAD_REG_M)
// The float-to-integral-float roundings, dst = op(src) per lane (the C++ flavour's Truncate<T,
// RoundMode>): X(C name, the RoundMode that chooses it in C++, element function); lane types
// kFloatAll, masked-off lanes 0.
#define LNGRAD_REG_ROUND_TABLE(X)                     \
  X(asc_floor, CAST_FLOOR, ::lngrad::reg::ops::Floor) \
  X(asc_ceil, CAST_CEIL, ::lngrad::reg::ops::Ceil)    \
  X(asc_trunc, CAST_TRUNC, ::lngrad::reg::ops::Trunc) \
  X(asc_round, CAST_ROUND, ::lngrad::reg::ops::Round) \
  X(asc_rint, CAST_RINT, ::lngrad::reg::ops::Rint)
// mask lane = op(src0, src1) (the _scalar row: op(src, value)); masked-off lanes 0. X(C name, C
// scalar name, the CMPMODE that chooses it in C++ (Compare, Compares), element function, types):
#define LNGRAD_REG_COMPARE_TABLE(X)                                             \
  X(asc_eq, asc_eq_scalar, EQ, ::lngrad::reg::ops::Eq, ::lngrad::reg::kArith64) \
  X(asc_ne, asc_ne_scalar, NE, ::lngrad::reg::ops::Ne, ::lngrad::reg::kArith64) \
  X(asc_gt, asc_gt_scalar, GT, ::lngrad::reg::ops::Gt, ::lngrad::reg::kArith64) \
  X(asc_ge, asc_ge_scalar, GE, ::lngrad::reg::ops::Ge, ::lngrad::reg::kArith64) \
  X(asc_lt, asc_lt_scalar, LT, ::lngrad::reg::ops::Lt, ::lngrad::reg::kArith64) \
  X(asc_le, asc_le_scalar, LE, ::lngrad::reg::ops::Le, ::lngrad::reg::kArith64)
// mask register = op(src0, src1) bit by bit where mask is set, 0 elsewhere:
#define LNGRAD_REG_MASK_TABLE(X)           \
  X(asc_and, And, ::lngrad::reg::ops::And) \
  X(asc_or, Or, ::lngrad::reg::ops::Or)    \
  X(asc_xor, Xor, ::lngrad::reg::ops::Xor)
// Reductions: X(C name, C++ name, the ReduceType that chooses it in C++ (Reduce,
// ReduceDataBlock), combine, lane types, per 32-byte block?). dst lane 0 (or lane k for block
// k) gets the binary tree of the selected lanes (unselected lanes count as the identity: 0 for
// sum); the other lanes are 0.
#define LNGRAD_REG_REDUCE_TABLE(X)                                                           \
  X(asc_reduce_sum, ReduceSum, SUM, ::lngrad::reg::ops::Add,                                 \
    ::lngrad::reg::kB32 | ::lngrad::reg::kF16 | ::lngrad::reg::kB64, false)                  \
  X(asc_reduce_max, ReduceMax, MAX, ::lngrad::reg::ops::Max, ::lngrad::reg::kArith64, false) \
  X(asc_reduce_min, ReduceMin, MIN, ::lngrad::reg::ops::Min, ::lngrad::reg::kArith64, false) \
  X(asc_reduce_sum_datablock, ReduceSumWithDataBlock, SUM, ::lngrad::reg::ops::Add,          \
    ::lngrad::reg::kB32 | ::lngrad::reg::kF16, true)                                         \
  X(asc_reduce_max_datablock, ReduceMaxWithDataBlock, MAX, ::lngrad::reg::ops::Max,          \
    ::lngrad::reg::kArith, true)                                                             \
  X(asc_reduce_min_datablock, ReduceMinWithDataBlock, MIN, ::lngrad::reg::ops::Min,          \
    ::lngrad::reg::kArith, true)
