// lngrad_replay, the 950's (arch 3510) register code of the element-wise selection, bit, logic,
// multiply-add and index APIs, replayed one register loop at a time from a reading of the
// toolkit's sources at commit 82b89a15f:
//   impl/adv_api/detail/math/where/where_3510_impl.h (Where),
//   impl/adv_api/detail/math/xor/xor_3510_impl.h (Xor),
//   impl/adv_api/detail/math/bitwise_template/bitwise_template.h, bitwise_and_common_impl.h,
//   bitwise_{not,or,xor}/*_3510_impl.h (BitwiseAnd/Or/Xor/Not),
//   impl/adv_api/detail/math/logical_template/logical_template.h, logical_xor_3510_impl.h
//   (LogicalXor),
//   impl/adv_api/detail/math/axpy/axpy_3510_impl.h (Axpy),
//   impl/adv_api/detail/index/arithprogression/arithprogression_3510_impl.h (ArithProgression),
// and the register instructions' reference pages (Reg Axpy, Arange, Muls, Adds, Select).
// Written, and committed, by the helper of task elt3510 without reading lngrad's implementation
// of these APIs (include/ascendc/adv/lib/math/{select,bitwise,logical,fma}.h,
// lib/index/arithprogression.h); a separate reading by the same helper who then compared and
// changed lngrad. No code is shared with src/ or include/.
//
// Conventions (the register model of docs/ascendc_compat.md, "The C++ flavour"):
// - a loop's UpdateMask(count) selects the first min(count, lanes) lanes and lowers count by
//   lanes (never below 0); a store writes the selected lanes only, so nothing past the count is
//   written; loads past the count are reads and change nothing;
// - integer lanes wrap (two's complement); float lanes are IEEE binary32; half lanes compute on
//   the exact operands and round once to half (nearest even); a register compare NE 0 of a
//   floating lane is the IEEE compare (±0 false, NaN true), of an integer lane its bits;
// - Reg::Axpy is one fused multiply-add (the exact s·x + d rounded once to the lane type): the
//   kit's own power_3510_impl.h writes its Axpy steps as `fmaf` (step 3 `i = fmaf((float)e,
//   1.19209290e-7f, i)`, step 14 `first_lo = fmaf(-LOG2_HI, i, first_hi)`, a Cody-Waite step
//   that needs the fused rounding), and lngrad's Power replay takes it so.
#pragma once

#include <cstdint>

#include "replay.h"
#include "replay_activation.h"  // Bf16

namespace lngrad_replay {

// Where (where_3510_impl.h): elements of `elemBytes` bytes (1, 2, 4 or 8), compared as the
// unsigned integer of their size (bool, half, bfloat16, float: their bits). src0 / src1 point to
// a tensor, or to one element when src0Scalar / src1Scalar (the scalar forms, Duplicate'd). For
// each repeat the condition's bytes from the repeat's first element are compared NE 0 and
// unpacked to the element width, so element e takes src0 where cond[e] != 0, else src1.
void ReplayWhere3510(uint8_t* dst, const uint8_t* src0, bool src0Scalar, const uint8_t* src1,
                     bool src1Scalar, const uint8_t* cond, uint32_t count, uint32_t elemBytes);

// Xor (xor_3510_impl.h), int16 / uint16 bits: 128-lane repeats, dst = a ^ b under the count.
void ReplayXor3510(uint16_t* dst, const uint16_t* a, const uint16_t* b, uint32_t calCount);

// BitwiseAnd / Or / Xor / Not (bitwise_template.h, bitwise_not_3510_impl.h) on 8- to 64-bit
// integers (passed as unsigned of the same size). R = ceil(count / lanes) / 2 (lanes: 256 /
// size, 64 for 8-byte types in two registers); the loop visits block i then block R + i, each
// taking the next UpdateMask of the count, then block 2R with the rest. b is ignored for kNot.
enum class BitOp { kAnd, kOr, kXor, kNot };
template <class U>
void ReplayBitwise3510(BitOp op, U* dst, const U* a, const U* b, uint32_t count);

// LogicalXor (logical_template.h LogicalTemplateVF with MaskXor): dst bytes 1 or 0,
// (a[e] != 0) xor (b[e] != 0) under the count; per repeat 256 / sizeof(U) elements (64 for
// 8-byte U). U: uint8_t (bool too: its bytes), int8_t .. int64_t, uint16_t .. uint64_t,
// float, Half, Bf16.
template <class U>
void ReplayLogicalXor3510(uint8_t* dst, const U* a, const U* b, uint32_t count);

// Axpy (axpy_3510_impl.h): dst[e] = fma(src[e], s, dst[e]) rounded once to the dst type for
// e < calCount, in blocks of 256 / sizeof(dst) lanes (the unrolled pairs, the single block, the
// tail under its own mask); (float, half): src and s widened exactly to float first.
void ReplayAxpy3510(float* dst, const float* src, float s, uint32_t calCount);
void ReplayAxpy3510(float* dst, const Half* src, Half s, uint32_t calCount);
void ReplayAxpy3510(Half* dst, const Half* src, Half s, uint32_t calCount);

// ArithProgression / Arange (arithprogression_3510_impl.h): base lane j = T(j)·diff + first
// (Arange, Muls, Adds, each rounded in T), step = T(lanes)·diff (lanes 256 / sizeof(T), 64 for
// int64); each repeat stores the register under the count, then adds the step (so element
// i·lanes + j = ((base_j + step) + step) ... i additions). T: int16_t, int32_t, int64_t,
// float, Half. Nothing is written past count.
template <class T>
void ReplayArithProgression3510(T* dst, T first, T diff, int32_t count);

}  // namespace lngrad_replay
