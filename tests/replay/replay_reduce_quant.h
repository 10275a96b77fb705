// The reduce and quantization families (issue 28): an independent scalar replay of the kit's
// 2201 sequences, written from impl/adv_api/detail/reduce/ and .../quantization/ (README.md,
// "The reduce and quantization families"), not from lngrad's implementation. Elements are held
// as floats; `isHalf` rounds every result to binary16 (replay.h's conversions), as the basic
// instructions do (docs/ascendc_kernels.md §2). No code is shared with src/ or include/.
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay {

// ---- The basic instructions the sequences use (one element, rounded to T) ----

// The value rounded to T (float: itself; half: nearest even, overflow to inf).
float RoundT(float v, bool isHalf);
// Binary Max/Min of the vector unit: a > b ? a : b (a < b ? a : b): a NaN or a zero tie gives b.
float VMax(float a, float b);
float VMin(float a, float b);
// Block/Whole reduce max (min) over lanes: the first extreme lane wins, +0 and -0 tie, the
// first NaN wins over every number.
float LaneMax(const float* v, uint32_t n);
float LaneMin(const float* v, uint32_t n);
// Sum tree of a repeat or block: `lanes` lanes (a power of two), the first n active, the rest
// +0, adjacent pairs level by level, every addition rounded to T.
float LaneTree(const float* v, uint32_t n, uint32_t lanes, bool isHalf);

// ---- Reduce (reduce_common_util_v220_impl.h, reduce_{sum,max,min,prod,mean}_v220_impl.h) ----

// kAny / kAll: the float forms of ReduceAny / ReduceAll (reduce_any_v220_impl.h,
// reduce_all_v220_impl.h), the Max / Min sequences.
enum class RedOp { kSum, kMax, kMin, kProd, kMean, kAny, kAll };
struct RedCall {
  RedOp op;
  bool isHalf;  // T = half (Max, Min, Mean), else float
  bool reuse;   // isReuseSource
  uint32_t first, last;
};
// The row stride: last rounded up to 32 bytes.
uint32_t RedPadLast(const RedCall& c);
// Pattern AR: dst[0, first). src holds first x padLast elements.
std::vector<float> ReplayReduceAR(const RedCall& c, const std::vector<float>& src);
// Pattern RA: dst[0, last); with isReuseSource, src is updated as the device overwrites it.
std::vector<float> ReplayReduceRA(const RedCall& c, std::vector<float>& src);

// ---- Sum and Mean (sum_common_impl.h, mean_common_impl.h) ----

struct RowsCall {
  bool isHalf;    // T = half
  bool accFloat;  // Mean<half, float>: the float accumulation of MeanCast
  uint32_t outter, inner, n;
};
std::vector<float> ReplaySum(const RowsCall& c, const std::vector<float>& src);
std::vector<float> ReplayMean(const RowsCall& c, const std::vector<float>& src);

// ---- ReduceXorSum (reduce_xor_sum_common_impl.h, 2201/2002) ----

// And, Or, Not, And (a ^ b as ~(a & b) & (a | b)), Cast int16 -> float (exact), the basic
// ReduceSum over calCount floats, Cast float -> int16 CAST_ROUND (saturated). The replay sums
// exactly: it holds for calCount <= 512, where every partial sum of int16 values is an integer
// below 2^24 and therefore exact in float whatever the ReduceSum order.
int16_t ReplayReduceXorSum(const std::vector<int16_t>& a, const std::vector<int16_t>& b,
                           uint32_t calCount);

// ---- AscendQuant (ascend_quant_pre_impl.h, 2201/2002) ----

// Per tensor: half(src) (float source: Cast, saturation mode) * half(scale) + half(offset),
// then half -> int8 (nearest even, saturated, NaN -> 0).
std::vector<int8_t> ReplayAscendQuant(bool isHalf, const std::vector<float>& src, float scale,
                                      float offset, uint32_t calCount);
// Per channel: scale[j] (and offset[j], or the scalar offset) for column j of rows of
// scaleCount. A float scale (offset) tensor is first cast to half in place: its first
// scaleCount halves are returned in scaleHalf (offsetHalf), as the device writes them.
struct QuantChannelCall {
  bool isHalf;
  uint32_t scaleCount, calCount;
  std::vector<float> scale, offset;  // offset empty: the scalar form
  float offsetScalar;
};
std::vector<int8_t> ReplayAscendQuantPerChannel(const QuantChannelCall& c,
                                                const std::vector<float>& src,
                                                std::vector<float>* scaleHalf,
                                                std::vector<float>* offsetHalf);

// ---- AscendDequant (ascend_dequant_common_impl.h, 2201) ----

// The DequantParams forms (calCount = m * n): element j of a row is float(src) * scale[j] for
// j < params.calCount (DEQUANT_WITH_SINGLE_ROW with m = 1, calCount a multiple of 32 bytes of
// the destination and n a multiple of calCount: every element, scale[j % calCount]); then a
// float destination + 0, a half one Cast (nearest even, saturation mode). `scale` are the
// float scales as read (a uint64 scale: the float in its low word); a float scale tensor is
// first copied with Adds 0 (scaleAddsZero). A bfloat16 destination: Cast CAST_RINT
// (saturation mode). `total` (0: m * n) counts the elements computed, row by row (the calCount
// forms, whose params are {src size / n, n, n}: a partial last row is scaled too). Returns
// m * n values, row by row (those past `total` are 0).
struct DequantCall {
  bool dstHalf, singleRowMode, scaleAddsZero;
  uint32_t m, n, calCount;
  bool dstBf16 = false;
  uint32_t total = 0;
};
std::vector<float> ReplayAscendDequant(const DequantCall& c, const std::vector<int32_t>& src,
                                       const std::vector<float>& scale);

// ---- AscendAntiQuant, int8 -> half or bfloat16 (ascend_antiquant_impl.h, _c220_impl.h) ----

// src is [K, N] (or [N, K] when transposed), int8 widened to half exactly, then half Add of
// the offset and half Mul by the scale, each rounded to half. Tensor forms: without transpose
// and with an offset tensor, column n takes offset[n] and scale[n] for every row (the
// performance path: its offset/scale repeat stride is 0); without an offset tensor, row k
// takes the scale row k / (K / groups); transposed (the Brcb path, `brcb`: a tmp buffer of at
// least 32 (64 with offset) bytes per scale row and K < 4096), row n takes offset[n] and
// scale[n]; transposed otherwise (AntiQuantImplScalar), row n, column k takes element
// n * groups + k / (K / groups).
// Scalar forms (tensors empty): Adds half(offset) (if hasOffset), Muls half(scale).
// bf16 (bfloat16 output, not transposed): the c220 sequence in float - the source through half
// to float (exact), + float(offset), * float(scale), Cast to bfloat16 CAST_RINT; the tensor
// offset form on the performance path (sharedTmpBuffer of at least 8 bytes per scale element
// plus 256 per row of K: offset and scale read with repeat stride 0, column n takes element
// n), the scale-only form by groups as for half. Returned as the bfloat16 values. Corrected
// in session 17 (helper aqn5, a misreading): that path's PreCast casts the scale to the floats
// after offset.GetSize() of the offset's and reads it from float N, so column n is multiplied
// by offset[N + n] where the offset holds more than N elements (offset.size() here), else by
// scale[N + n - offset.size()].
struct AntiQuantCall {
  bool transpose, hasOffset, brcb, bf16;
  uint32_t K, N, groups;
  std::vector<float> offset, scale;  // half values; empty: the scalar form
  float offsetScalar, scaleScalar;
};
std::vector<float> ReplayAscendAntiQuant(const AntiQuantCall& c, const std::vector<int8_t>& src);
// float -> bfloat16, nearest even (the bits' upper half), as a float.
float RoundBf16(float v);

}  // namespace lngrad_replay
