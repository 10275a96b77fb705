// lngrad_replay: AscendAntiQuant's scale-only forms (no offset: a scale tensor or a scalar scale;
// int8_t source; half or bfloat16_t output) on arch 3510, replayed from a reading of the
// toolkit's impl/adv_api/detail/quantization/antiquant/ascend_antiquant_impl.h (the scale-only
// AscendAntiQuantImpl overloads, AscendAntiQuantNoTranspose, AntiQuantOuterLoop, the half
// AntiQuantInnerLoop, AscendAntiQuantFP16Transpose, AntiQuantFp16Brcb, AntiQuantFp16Transpose
// {Main,Tail}Impl, AntiQuantImplScalar; that file serves 2201/2002 and 3510 alike) and of
// ascend_antiquant_3510_impl.h (its bfloat16 AntiQuantInnerLoop, a copy of the c220 one). A
// separate reading by the helper of session 13 (smx), written and committed before lngrad's
// ascend_antiquant*.h were opened; no code shared with src/ or include/. The bfloat16 Cast's
// saturation was corrected after that first comparison (the first version kept NaN), from the
// kit's impl/basic_api/dav_3510/kernel_operator_vec_vconv_impl.h.
//
// Elements are floats; the int8 source widens to half exactly (and half to float exactly); half
// output: the half Mul (Muls) of that by the scale, the exact product rounded once to nearest
// even (the half Mul is IEEE: NaN stays, overflow is inf); bfloat16 output: the float Mul (exact
// for int8 by a bfloat16 value) and the basic Cast to bfloat16 CAST_RINT (on 3510 a register
// Cast with SatMode::SAT, impl/basic_api/dav_3510/kernel_operator_vec_vconv_impl.h
// CastIntrinsicsImplVF) in the state every block starts in, saturating: NaN -> +0, +-inf and
// values past the range -> +-the largest bfloat16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lngrad_replay::aq3510 {

struct ScaleOnlyCall {
  bool transpose = false, bf16 = false;
  uint32_t k = 0;                         // the K argument
  uint32_t srcSize = 0;                   // src.GetSize()
  uint32_t scaleRows = 0, scaleCols = 0;  // shapeInfo.scaleHeight, scaleWidth (nonzero)
  uint32_t tmpBytes = 0;                  // sharedTmpBuffer.GetSize()
  std::vector<float> scale;               // the scale tensor's values; empty: the scalar form
  float scaleScalar = 0.0f;
};

// What the call leaves in dst (elements it does not write keep their value). Returns false,
// leaving dst alone, for what is not replayed: the transposed bfloat16 tensor form (the common
// file calls AscendAntiQuantBF16Transpose, which only the c220 and m200 files define: the 3510
// build has none), and the transposed half Brcb path with K not a multiple of 16 (its repeat
// stride K * 2 / 32 B truncates) or scaleRows not a multiple of 8 (AntiQuantFp16Brcb runs
// scaleRows / 8 repeats: the last rows' scale blocks are what the sharedTmpBuffer held).
//
// Scalar scale (both transpose values): every srcSize element times the scale.
// Tensor scale, not transposed: rows r = g * (k / scaleRows) + j of N = scaleCols elements for
// g < scaleRows, j < k / scaleRows, row r taking scale row g; bfloat16 output runs each row in
// chunks of tmpBytes / 8 elements (AntiQuantOuterLoop's tmpSize) and passes every chunk the row's
// scale from its start, so element n takes scale[g * N + n % (tmpBytes / 8)].
// Tensor scale, transposed, half: with tmpBytes >= 32 * scaleRows and k < 4096 the Brcb path
// (every srcSize element cast to half, then row n < srcSize / k times scale[n]); otherwise
// AntiQuantImplScalar: groupSize = k / scaleCols, each row i < srcSize / k in k / groupSize
// groups of groupSize elements, group j times scale[i * (k / groupSize) + j].
bool ScaleOnly(const ScaleOnlyCall& c, const std::vector<int8_t>& src, std::vector<float>& dst);

// int4b_t sources of the scale-only forms (session 16, helper aqn3; read after lngrad's
// ascend_antiquant.h had been read, so not blind): the kit's LocalTensor::operator[] of a
// half-byte type (impl/basic_api/kernel_tensor_impl.h) moves the address by offset / 2 bytes,
// so a call or chunk that starts at an odd element starts at the low nibble of the byte below:
// AntiQuantOuterLoop's calls (the scalar forms: one from 0; not transposed: row (i · groupSize
// + j) · N of N elements; transposed outside the Brcb path, AntiQuantImplScalar: i · K + j ·
// groupSize of groupSize) and, for bfloat16 output, its chunks src[c · tmpSize] of tmpSize =
// tmpBytes / 8 (the tail included), each Cast reading its count from that byte on. Element s +
// t + j of the call at s, chunk at t, reads the nibble 2 · (s / 2) + 2 · (t / 2) + j. Returned
// as the values each dst element reads, for ScaleOnly (the Brcb path casts from element 0).
std::vector<int8_t> Int4AsRead(const ScaleOnlyCall& c, const std::vector<uint8_t>& bytes);

// The bfloat16 forms' scratch (session 16, helper aqn3, read after lngrad's header): the
// bfloat16 AntiQuantInnerLoop of each AntiQuantOuterLoop chunk (n elements) casts the source to
// halves at byte 2 n, those to floats at float 0 (over the halves) and multiplies there: floats
// [0, n) keep the products before the Cast; the tensor form (not transposed) casts the row's
// scale from its start to floats [n, 2 n) first. Chunk after chunk, call after call, in tmp
// (sharedTmpBuffer's tmpBytes bytes); src: the values each element reads (Int4AsRead for
// int4b_t). Half output, and the transposed forms (the Brcb path; bfloat16 does not build),
// leave tmp alone here.
void ScaleOnlyScratch(const ScaleOnlyCall& c, const std::vector<int8_t>& src,
                      std::vector<uint8_t>& tmp);

// That Cast: float -> bfloat16 to nearest even, saturating, as a float.
float ToBf16(float v);

// ---- Session 14 (helper aqn): a separate reading, its own code, of the same files ----------
// Read: ascend_antiquant_impl.h (AscendAntiQuantFP16Transpose, AntiQuantFp16Transpose{Main,Tail}
// Impl, PreCast, AntiQuantInnerLoop), the c220 and 3510 files' AntiQuantFp16Brcb and int4b_t
// branches, ascend_antiquant_common.h's constants, the kit's AscendAntiQuant page and its kernel
// check. Not blind: lngrad's ascend_antiquant.h had been read first (to find the path); nothing
// here was taken from it, and it changed after this replay was written and compared.
//
// The int4b_t source (the Atlas A2 / A3 pages list it; AntiQuantInnerLoop, PreCast,
// AscendAntiQuantFP16Transpose cast it to half with CAST_NONE, exact): element e is the nibble
// of byte e / 2, the low one for even e (the kit's LoadDataWithTranspose page packs the int4
// values 6 and 7 as 0111'0110), two's complement. Returned as values, for the int8 replays.
std::vector<int8_t> DecodeInt4(const std::vector<uint8_t>& bytes, size_t count);

// The transposed half Brcb path of AscendAntiQuantFP16Transpose (ascend_antiquant_impl.h) with
// AntiQuantFp16Brcb (the c220 and 3510 files define it alike) and AntiQuantFp16Transpose
// {Main,Tail}Impl, on 2201 with or without an offset tensor and on 3510 for the scale-only form:
//   1. every src element cast to half into dst (counter mode over src.GetSize());
//   2. Brcb of scale into the scratch at byte 0, and (offset) of offset at byte 32 * scaleN:
//      repeatTimes = (uint8_t)(scaleN / 8) repeats of 8 elements, element b filling the 16
//      halves of block b; blocks from 8 * repeatTimes on keep what the scratch held;
//   3. rows r < srcSize / k: dst = dst + offsetBlock[r] (offset) and dst = dst * scaleBlock[r],
//      each a half instruction (exact operands, one rounding), column c taking lane c % 16 of
//      block r (src1 block stride 0, repeat stride 1 block; the Main repeats cover the columns
//      below k - k % 128, the Tail the rest, both from a block-aligned column).
// tmp: the scratch bytes, in as they were, out as the call leaves them; dst: half bits.
// Returns false, changing nothing, for k not a multiple of 16 (the repeat stride k * 2 / 32
// truncates) or a tmp too small for the blocks the rows read.
struct BrcbCall {
  uint32_t k = 0, srcSize = 0, scaleN = 0;
  bool withOffset = false;
  std::vector<uint16_t> scale, offset;  // half bits
};
bool BrcbPath(const BrcbCall& c, const std::vector<int8_t>& src, std::vector<uint8_t>& tmp,
              std::vector<uint16_t>& dst);

}  // namespace lngrad_replay::aq3510
