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

}  // namespace lngrad_replay
