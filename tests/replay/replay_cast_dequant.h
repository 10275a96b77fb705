// Independent replay of the basic API CastDequant (int16_t -> int8_t / uint8_t) and of the
// DEQSCALE words SetDeqScale writes. Read for it, and nothing else (a separate reading by the
// same helper who wrote lngrad's CastDequant; none of lngrad's code was consulted while writing
// it): the kit's pages CastDequant.md and SetDeqScale.md (docs/zh/api/SIMD-API/基础API/
// Memory矢量计算/...), include/basic_api/kernel_struct_vdeq.h, impl/basic_api/
// kernel_operator_vec_vconv_intf_impl.h, and impl/basic_api/dav_c220 (MakeDeqScaleConfig, the
// count form's Counter mode with one repeat of default strides) and dav_3510 (GetCastDeqScale,
// GetCastDeqOffset, CastDeqMulsCal, CastFromS92B8, GenGatherIndex, GenVecCastDeqParam,
// GenLevel0StoreMask, CastDeqImplVF, CastVecDeqImplVF and the Level0 VFs)
// kernel_operator_vec_vconv_impl.h at commit 82b89a15f of the kit's mirror.
//
// What it models (one element): scale = the word's bits 0..31 with the low 13 bits cleared (the
// 3510 file's mask 0xffffe000, the page's "(1,8,10)" format); f = float(x) * scale rounded once;
// r = f to int16 rounded to nearest even and saturated; r clamped to [-256, 255] (the s9 range);
// plus the offset of bits 37..45; then saturated to [-128, 127] (signMode) or [0, 255].
// The offset: on 3510 the file's zero-extended 9-bit field (0..511); on the A2/A3 and inference
// AI Core (the hardware's vconv_deqs162b8*, whose arithmetic the kit's source does not show) the
// page's "一个有符号的9位整数", sign-extended. Layout: element e of a block of 16 int16 goes to
// byte e of the upper (halfBlock) or lower 16 bytes of its 32-byte destination block.
//
// Second part, int32_t -> half and the registers SetDeqScale writes: a second reading by another
// helper (branch cdq2), again from the kit's source only, lngrad's code not consulted while
// writing it: impl/basic_api/dav_3510/kernel_operator_vec_vconv_impl.h (CastIntrinsicsImplVF and
// CastIntrinsicsImpl, the Cast mask-form VFs, CastDeqS322f16ImplVF, CastDeqS322f16Level0ImplVF,
// CastDeqImpl, the three SetDeqScaleImpl, the CastParam traits s322F32CastTrait and
// f322F16CastTrait), impl/basic_api/utils/kernel_utils_constants.h (DEQ_SHIFT_LEFT_17_BIT = 131072,
// DEQ_SHIFT_RIGHT_17_BIT = 1 / 131072), impl/basic_api/kernel_utils.h and kernel_utils_base.h
// (g_deqValue, g_deqScale; InitSocStateImpl sets g_deqValue to 1 on 3510, TPipe's constructor
// runs it), impl/basic_api/dav_c220/kernel_operator_vec_vconv_impl.h (CastDeqImpl's int32_t path
// is CastImpl(..., CAST_RINT, ...), i.e. vconv_deq; SetDeqScaleImpl: all three forms
// set_deqscale, the half form also g_deqValue), SetDeqScale.md's DEQSCALE table (s322fp16: bits
// 0..15) and the C API page asc_deq_int322half.md ("dst_i = Cast(src_i * scale)") at the same
// commit.
//
// What it models: on 3510, f = float(x) rounded to nearest even; f *= 2^-17; f *= float(scale);
// f *= 2^17 (each a float multiply rounded on its own); then f to half, nearest even. On the A2/A3
// (vconv_deq, whose arithmetic the source does not show) the page's Cast(src * scale): the exact
// product rounded once to half, nearest even. Overflow of the half result: `saturate` (the
// caller's reading of the overflow mode that rules the conversion) gives +-65504 and NaN -> +0,
// else IEEE (+-inf; a NaN only from an infinite scale times 0, not modelled: callers avoid it).
// Registers: the A2/A3 has one 64-bit DEQSCALE that every SetDeqScale form writes (the half form
// its bits 0..15) and vconv_deq reads bits 0..15 of; the 3510 keeps g_deqValue (a half, 1 after
// InitSocState), written only by SetDeqScale(half) and read by Cast and CastDequant int32_t ->
// half, and g_deqScale, written by the scalar and vdeq forms and read by CastDequant int16_t ->
// b8.
#pragma once

#include <cstdint>

namespace lngrad_replay {

enum class CdqArch { k2201, k3510 };

// MakeDeqScaleConfig: signMode at bit 46, the low 9 bits of offset at 37, the float's bits at 0.
uint64_t CdqConfig(float scale, int16_t offset, bool signMode);

// One element with the parameters of `word` (a DEQSCALE value or a vdeq entry). vec: the word is
// a vdeq entry (3510: signed when bits 46.. read 1, unsigned when 0, else the lane stays 0).
uint8_t CdqOne(int16_t x, uint64_t word, CdqArch arch, bool vec);

// The count form: `count` elements of src; params: one word (vec false) or 16 (vec true, the
// vdeq entries, entry e % 16 for element e). A2/A3 write only the active elements' bytes; 3510
// writes ceil(count / 128) whole 256-byte repeats (the other half and the inactive lanes 0).
void CdqCount(uint8_t* dst, const int16_t* src, uint32_t count, const uint64_t* params, bool vec,
              bool halfBlock, CdqArch arch);

// The mask/repeat forms in Normal mode: bits = the 128-bit mask (bit p = position p of each
// repeat, position p in block p / 16 at its place p % 16), strides in 32-byte blocks. Only the
// active elements' bytes in the chosen half are written (both products).
void CdqRepeat(uint8_t* dst, const int16_t* src, const uint64_t bits[2], uint32_t repeatTime,
               uint32_t dstBlk, uint32_t srcBlk, uint32_t dstRep, uint32_t srcRep,
               const uint64_t* params, bool vec, bool halfBlock, CdqArch arch);

// int32_t -> half, one element: the bits of the half result with the scale whose bits are
// `scaleBits` (see above for the two products and `saturate`).
uint16_t CdqS32Half(int32_t x, uint16_t scaleBits, CdqArch arch, bool saturate);

// The registers SetDeqScale writes, per product, and what the conversions read.
struct CdqRegs {
  CdqArch arch;
  uint64_t deqScale = 0;       // the A2/A3's DEQSCALE; the 3510's g_deqScale
  uint16_t deqValue = 0x3c00;  // the 3510's g_deqValue (half 1 after InitSocState)
  void SetHalf(uint16_t scaleBits);
  void SetScalar(float scale, int16_t offset, bool signMode);
  void SetVdeqAddr(uint64_t ubAddr);  // the vdeq form (the A2/A3 stores the address / 32)
  uint16_t S32Scale() const;          // the half int32_t -> half multiplies by
  uint64_t S16Word() const;           // the word CastDequant int16_t -> b8 reads
};

}  // namespace lngrad_replay
