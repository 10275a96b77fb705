// lngrad_replay: AscendAntiQuant's transposed bfloat16 tensor forms on arch 2201
// (AscendAntiQuantBF16Transpose of ascend_antiquant_c220_impl.h, with or without an offset
// tensor, int8_t or int4b_t source), any number of scale / offset groups, with the scratch.
//
// Read (session 15, helper aqn2; toolkit commit 82b89a15f): ascend_antiquant_c220_impl.h
// (AscendAntiQuantBF16Transpose, CalcN64ByBrcb, GetAntiquantTensorInfo, CastAndBrcb,
// CastSrcProcess, AddMulProcess, CastDstProcess), ascend_antiquant_impl.h (the tensor
// AscendAntiQuantImpl overloads and AntiQuantImplScalar, the fallback), ascend_antiquant_common.h
// (the constants). A separate reading by the same helper that then compared it with lngrad: this
// file was written and committed before lngrad's bfloat16 transposed code was opened (lngrad's
// launchers in tests/, and its half Brcb replay of session 14, had been read). No code shared
// with src/ or include/.
//
// What the source does (S = scale.GetSize(), So = offset.GetSize(), which is S in the scale-only
// form where the offset argument is the scale; all positions in floats of sharedTmpBuffer):
//   - K % 64 != 0 or K > 255 * 8: AntiQuantImplScalar (below);
//   - else sEN = S (int8_t) or the scale rows (int4b_t: shapeInfo.scaleHeight, else the scale's
//     ShapeInfo shape[0]); shapeN = srcSize / K (int8_t) or sEN (int4b_t);
//   - offset blocks at 0, scale blocks at 8 S, the input area at 16 S (80 S floats in all: no
//     check of sharedTmpBuffer's size);
//   - Cast (counter mode, sEN elements) offset[0, sEN) to floats at 7 So, scale[0, sEN) to floats
//     at 8 S + 7 So; then Brcb, (uint8_t)ceil(sEN / 8) repeats, each reading 8 floats from there
//     and writing 8 blocks of 8 (repeat i: floats [64 i, 64 i + 64) of its area): offset first,
//     so for S <= 4 the offset's blocks overwrite the scale's cast values before the scale's
//     Brcb reads them;
//   - for each 64-column slice i < K / 64: Cast the source (64 lanes, (uint8_t)sEN repeats, row
//     r from element r * K + 64 i: rows past the source read what follows it) to halves at float
//     16 S + 32 sEN, those halves to floats at 16 S (row r at 64 r, repeat by repeat), Add the
//     offset block r and Mul by the scale block r (counter mode over 64 sEN: every row; lane l
//     reads lane l % 8 of block r), Cast (uint8_t)shapeN rows to bfloat16 into dst row r,
//     columns [64 i, 64 i + 64), CAST_RINT in the saturation mode (NaN -> +0, beyond the range
//     -> +-the largest bfloat16).
// So row r < shapeN takes flat element r of offset and scale, whatever the groups.
// AntiQuantImplScalar: groupSize = K / G (G = shapeInfo.offsetWidth, scale-only scaleWidth, else
// the tensor's ShapeInfo shape[1]), rows i < srcSize / K, groups j < K / groupSize, columns
// [j groupSize, (j + 1) groupSize) take element i (K / groupSize) + j; columns past the last
// group are not written. Its scratch (session 16, helper aqn3, read after lngrad's header): each
// call runs AntiQuantOuterLoop in chunks of tmp.size() / 8 elements (the whole tmp given is
// sharedTmpBuffer), each chunk of n leaving its products (before the bfloat16 Cast) in floats
// [0, n), its half staging at byte 2 n overwritten by them. int4b_t (session 16, helper aqn4,
// read after lngrad's header and aqn3's Int4AsRead): the kit's operator[] of a half-byte type
// moves the address by offset / 2 bytes, so element s + t + l of the call at s (i K + j
// groupSize), chunk at t, reads source element 2 (s / 2) + 2 (t / 2) + l.
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay::aqbf16t {

struct Call {
  bool withOffset = false, int4 = false;
  uint32_t k = 0;                       // the K argument
  uint32_t srcSize = 0;                 // src.GetSize()
  uint32_t scaleSize = 0;               // scale.GetSize()
  uint32_t offsetSize = 0;              // offset.GetSize() (the scale-only form: scaleSize)
  uint32_t scaleRows = 0;               // shapeInfo.scaleHeight (else the ShapeInfo's shape[0])
  uint32_t groups = 0;                  // offsetWidth (scale-only: scaleWidth), else shape[1]
  std::vector<uint16_t> scale, offset;  // bfloat16 bits, at least as many as the path reads
};

// Whether the call takes the Brcb path (else AntiQuantImplScalar).
bool TakesBrcb(const Call& c);

// The floats of sharedTmpBuffer the Brcb path reaches (at least 16 S + 64 sEN).
uint64_t BrcbScratchFloats(const Call& c);

// src: the source's values from its first element on, covering every row the path reads (the
// Brcb path's rows past srcSize / K read what follows the source; give those values too);
// tmp: the scratch bytes, all of sharedTmpBuffer (in: what it held; out: what the path
// leaves); dst: bfloat16 bits, elements not written keep theirs. Returns false, changing
// nothing, when src or tmp is too short for what the path reads, or K is 0.
bool Run(const Call& c, const std::vector<int8_t>& src, std::vector<uint8_t>& tmp,
         std::vector<uint16_t>& dst);

}  // namespace lngrad_replay::aqbf16t
