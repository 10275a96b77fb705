// lngrad_replay: two AscendAntiQuant paths of arch 2201 with an offset tensor that lngrad had
// computed by the groups: the bfloat16 fallback without transpose (AntiQuantNoTransposeImplScalar,
// taken when sharedTmpBuffer is below the performance path's need) and the transposed fallback
// (AntiQuantImplScalar) whose scale index follows the offset's group count.
//
// Read (session 17, helper aqn5; toolkit commit 82b89a15f): ascend_antiquant_impl.h
// (AscendAntiQuantNoTranspose with an offset tensor, AntiQuantNoTransposeImplScalar, the tensor
// and scalar AntiQuantOuterLoop, the half scalar AntiQuantInnerLoop, AntiQuantImplScalar with an
// offset, AscendAntiQuantFP16Transpose's fallback condition), ascend_antiquant_c220_impl.h
// (AntiQuantCheckPerformanceMode, the bfloat16 tensor and scalar AntiQuantInnerLoop), and
// ascend_antiquant_common.h (the constants). A separate reading by the same helper that then
// changed lngrad: lngrad's ascend_antiquant.h and ascend_antiquant_brcb.h had been read before
// (to find what it did), and the earlier replays of this family (replay_antiquant_3510.h,
// replay_antiquant_bf16t.h); no code is taken from them or shared with src/ or include/.
//
// What the source does:
//   - bfloat16, not transposed, offset tensor: N = srcSize / K; the performance path when
//     tmpBytes >= 8 * scale.GetSize() + 256 * K, else AntiQuantNoTransposeImplScalar:
//     groupCount = scaleHeight (else the scale's ShapeInfo shape[0]), groupSize = K /
//     groupCount, and rows j < groupSize only: AntiQuantOuterLoop(dst[j N], src[j N], offset,
//     scale, N) with the whole offset and scale tensors (from element 0). Rows from groupSize on
//     are not written. The bfloat16 outer loop: tmpSize = tmpBytes / 2 / 4 elements a chunk;
//     chunk c of a call: dst[c tmpSize], src[c tmpSize] and the SAME offset and scale (not
//     advanced), count n = tmpSize (the tail: what is left); the inner loop (counter mode over
//     n): the source to halves at byte 2 n of the scratch, those to floats at float 0 (repeat
//     by repeat: a repeat's 64 floats never cover halves a later repeat reads), the offset's
//     first n elements to floats at float n, Add into floats [0, n), the scale's first n to
//     floats at float n, Mul into floats [0, n), Cast floats [0, n) to dst (bfloat16 CAST_RINT,
//     in the saturation mode). So element (j, c) takes offset[c % tmpSize] and
//     scale[c % tmpSize], and each chunk leaves floats [0, n) its products, [n, 2 n) the scale's
//     first n elements as floats.
//   - transposed, offset tensor (half: sharedTmpBuffer below 64 bytes per scale row or K >=
//     4096; bfloat16: K not a multiple of 64 or past 2040): AntiQuantImplScalar: N = srcSize /
//     K, groupSize = K / G with G = offsetWidth (else the offset's ShapeInfo shape[1]; the
//     scale's width is not read), L = K / groupSize, call (i, j) for i < N, j < L:
//     AntiQuantOuterLoop(dst[i K + j groupSize], src[i K + j groupSize], offset[i L + j],
//     scale[i L + j], groupSize): the scale element at the OFFSET's index. Half: the source to
//     half, Adds the half offset, Muls the half scale (each a half instruction: the exact
//     result rounded once, IEEE). Columns from L groupSize on are not written.
//   - int4b_t: the kit's operator[] of a half-byte type moves the address by offset / 2 bytes,
//     so a call or chunk that starts at an odd element starts at the byte holding the nibble
//     below it: element l of the chunk at t of the call at s reads nibble 2 (s / 2) + 2 (t / 2)
//     + l (nibble e: byte e / 2, the low one for even e, two's complement).
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay::aqnt {

struct NtCall {
  bool int4 = false;
  uint32_t k = 0;           // the K argument
  uint32_t srcSize = 0;     // src.GetSize()
  uint32_t scaleSize = 0;   // scale.GetSize()
  uint32_t groupCount = 0;  // shapeInfo.scaleHeight, else the scale's ShapeInfo shape[0]
  uint32_t tmpBytes = 0;    // sharedTmpBuffer.GetSize()
  std::vector<uint16_t> offset, scale;  // bfloat16 bits, at least min(N, tmpBytes / 8) of each
};

// Whether the bfloat16 call takes the performance path (not replayed here).
bool TakesPerformancePath(const NtCall& c);

// AntiQuantNoTransposeImplScalar, bfloat16. src: the source bytes; tmp: the scratch's tmpBytes
// bytes (in: what they held; out: what the path leaves); dst: bfloat16 bits (elements not
// written keep theirs). Returns false, changing nothing, for the performance path, k or the
// group count 0, a chunk of 0 (tmpBytes < 8), or buffers too short.
bool Bf16NoTransposeFallback(const NtCall& c, const std::vector<uint8_t>& src,
                             std::vector<uint8_t>& tmp, std::vector<uint16_t>& dst);

struct TCall {
  bool int4 = false;
  uint32_t k = 0, srcSize = 0;
  uint32_t offsetGroups = 0;            // shapeInfo.offsetWidth, else the offset's shape[1]
  std::vector<uint16_t> offset, scale;  // half bits, at least srcSize / k * L of each
};

// AntiQuantImplScalar with an offset tensor, half output (no scratch). Returns false, changing
// nothing, for k or the group count 0, a group count above k, or buffers too short.
bool HalfTransposedFallback(const TCall& c, const std::vector<uint8_t>& src,
                            std::vector<uint16_t>& dst);

}  // namespace lngrad_replay::aqnt

namespace lngrad_replay::aqnt {

// The bfloat16 performance path without transpose (AscendAntiQuantNoTranspose with an offset
// tensor: PreCast, AscendAntiQuantNoTransposePerformance{,Tail}; read by the same helper after
// lngrad's header, dst only). PreCast casts offset.GetSize() = So elements of the offset to
// floats [0, So) of the scratch and as many of the scale to floats [So, 2 So) (its counter mask
// is the offset's size); each 64-column slice j then adds floats [64 j, 64 j + 64) (src1 repeat
// stride 0: every row) and multiplies by floats [N + 64 j, N + 64 j + 64), the tail likewise from
// column N - N % 64. So column c adds float c and multiplies by float N + c: offset[N + c] where
// So > N + c (an offset with more than N elements), scale[N + c - So] otherwise. Replayed for
// int8_t with N a multiple of 32 and int4b_t with N a multiple of 64 (the source repeat stride
// exact) and So >= N; returns false otherwise, changing nothing. offset and scale: bfloat16
// bits, So elements each; src: the source bytes; dst: bfloat16 bits. Session 17, helper aqn6
// (a second reading of the slice Casts of c220's AscendAntiQuantNoTransposePerformance{,Tail},
// after lngrad's header had been read): the int8_t source Cast steps rows by srcRepStride =
// N / 32 blocks (truncated) while dst rows stay N * 2 / 32 blocks apart, exact for N a multiple
// of 16; so for such N not a multiple of 32 and K up to 255 (one call, slices from 32-byte
// aligned bytes) row r reads src[r * 32 * (N / 32) + c]: replayed too.
struct PerfCall {
  bool int4 = false;
  uint32_t k = 0, srcSize = 0;
  std::vector<uint16_t> offset, scale;
};
bool Bf16Performance(const PerfCall& c, const std::vector<uint8_t>& src,
                     std::vector<uint16_t>& dst);

}  // namespace lngrad_replay::aqnt
