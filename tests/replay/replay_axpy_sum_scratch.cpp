// Axpy's (half sources), Sum's and Mean's scratch on arch 2201/2002
// (replay_axpy_sum_scratch.h). Provenance: written by helper aw (session 19) from the toolkit's
// sources (asc-devkit, the mirror's HEAD), read for this file: math/axpy/axpy_common_impl.h
// (AxpySub: the buffer as floats, axpyTmpCalc's stackSize, the rounds and the tail in counter
// mode; the two AxpyIntrinsicsImpl specialisations: tmpSrc at 0, tmpDst at stackSize, Cast,
// Cast, Muls, Add, Cast for half dst; Cast, Muls, Add into dst for float dst), adv_api/math/axpy.h
// (one overload, sharedTmpBuffer), reduce/sum/sum_common_impl.h (SumForOneRepeatTime, SumCompute:
// totalCnt, the levels and their masks, the last level into dstTensor[row]; the same code for
// 2201 and 2002), reduce/mean/mean_common_impl.h (MeanCast, MeanForOneRepeatTime, MeanCommon,
// MeanImpl) and tiling/reduce/mean_tiling.cpp (GetMeanMaxMinTmpSize). Written before lngrad's
// scratch code for these APIs, from the kit's files and not from lngrad's implementation; a
// separate reading by the same helper who then changed lngrad (include/ascendc/adv/lib/math/fma.h,
// reduce/sum.h, reduce/mean.h). WelfordUpdate: normalization/layernorm/layernorm_common_impl.h
// (WelfordUpdateImpl, WelfordUpdateComputeImpl's tmpNum, rounds and tail, the half
// WelfordUpdateCompute, WelfordUpdateComputeTo32, WelfordUpdateComputeTo32Res) and
// layernorm_common_basic_impl.h (WelfordUpdateComputeMean, WelfordUpdateComputeVar,
// WelfordUpdateGetTmpSize, WelfordUpdateInplaceCompute), read and replayed before lngrad's
// WelfordUpdate scratch code (normalization/welfordupdate.h), likewise.
// Each instruction is one operation per element over its count (counter mode: only the count's
// elements are stored). RepeatReduceSum: one sum per repeat of 256 bytes, the repeat's lanes
// past the count +0, the adjacent-pair tree of replay_reduce_quant.h's LaneTree (every addition
// rounded to T), the sums stored one after another. Casts half -> float exact, float -> half
// CAST_NONE to nearest even without saturation (docs/ascendc_kernels.md §2).
#include "replay_axpy_sum_scratch.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "replay_reduce_quant.h"

namespace lngrad_replay {
namespace {

float LoadF(const uint8_t* p, uint64_t i) {
  float v;
  std::memcpy(&v, p + 4 * i, 4);
  return v;
}
void StoreF(uint8_t* p, uint64_t i, float v) { std::memcpy(p + 4 * i, &v, 4); }

// An element of T (float, or Half when isHalf) at p[i], as float, and stored back.
float LoadT(const uint8_t* p, uint64_t i, bool isHalf) {
  if (!isHalf) return LoadF(p, i);
  Half h;
  std::memcpy(&h, p + 2 * i, 2);
  return HalfToFloat(h);
}
void StoreT(uint8_t* p, uint64_t i, float v, bool isHalf) {
  if (!isHalf) return StoreF(p, i, v);
  const Half h = FloatToHalf(v);
  std::memcpy(p + 2 * i, &h, 2);
}

// RepeatReduceSum<T> in counter mode over `count` elements of `in`: sum i of the repeat's lanes
// stored at out[i]. The sums are taken before any is stored where out overlaps in (in place:
// repeat i stores at i, never past the lanes later repeats read).
void RepeatReduceSum(const uint8_t* in, uint8_t* out, uint32_t count, bool isHalf) {
  const uint32_t lanes = isHalf ? 128 : 64;
  const uint32_t repeats = (count + lanes - 1) / lanes;
  std::vector<float> sums(repeats);
  std::vector<float> v(lanes);
  for (uint32_t r = 0; r < repeats; ++r) {
    const uint32_t len = std::min(lanes, count - r * lanes);
    for (uint32_t j = 0; j < len; ++j) v[j] = LoadT(in, uint64_t{r} * lanes + j, isHalf);
    sums[r] = LaneTree(v.data(), len, lanes, isHalf);
  }
  for (uint32_t r = 0; r < repeats; ++r) StoreT(out, r, sums[r], isHalf);
}

uint32_t Repeats(uint32_t count, bool isHalf) {
  const uint32_t lanes = isHalf ? 128 : 64;
  return (count + lanes - 1) / lanes;
}

// Sum's levels (SumCompute / MeanCommon) for one row: false when the first level would pass the
// scratch.
bool Levels(bool isHalf, const uint8_t* row, uint8_t* dstRow, uint32_t n, uint8_t* scratch,
            uint32_t tmpBytes) {
  const uint32_t ts = isHalf ? 2 : 4;
  if (uint64_t{Repeats(n, isHalf)} * ts > tmpBytes) return false;
  RepeatReduceSum(row, scratch, n, isHalf);
  uint32_t count = Repeats(n, isHalf);
  while (count > 1) {
    const uint32_t next = Repeats(count, isHalf);
    RepeatReduceSum(scratch, next == 1 ? dstRow : scratch, count, isHalf);
    count = next;
  }
  return true;
}

}  // namespace

bool ReplayAxpyHalfScratch(const Half* src, Half* dst, Half scalar, uint32_t n, uint8_t* scratch,
                           uint32_t tmpBytes) {
  const uint32_t stack = tmpBytes / 4 / 2 / 32 * 32;
  if (stack == 0) return false;
  const float k = HalfToFloat(scalar);
  uint8_t* tmpSrc = scratch;
  uint8_t* tmpDst = scratch + 4 * uint64_t{stack};
  for (uint32_t off = 0; off < n; off += stack) {
    const uint32_t len = std::min(stack, n - off);
    for (uint32_t j = 0; j < len; ++j) StoreF(tmpSrc, j, HalfToFloat(src[off + j]));
    for (uint32_t j = 0; j < len; ++j) StoreF(tmpDst, j, HalfToFloat(dst[off + j]));
    for (uint32_t j = 0; j < len; ++j) StoreF(tmpSrc, j, LoadF(tmpSrc, j) * k);
    for (uint32_t j = 0; j < len; ++j) StoreF(tmpDst, j, LoadF(tmpSrc, j) + LoadF(tmpDst, j));
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(LoadF(tmpDst, j));
  }
  return true;
}

bool ReplayAxpyMixScratch(const Half* src, float* dst, Half scalar, uint32_t n, uint8_t* scratch,
                          uint32_t tmpBytes) {
  const uint32_t stack = tmpBytes / 4 / 32 * 32;
  if (stack == 0) return false;
  const float k = HalfToFloat(scalar);
  for (uint32_t off = 0; off < n; off += stack) {
    const uint32_t len = std::min(stack, n - off);
    for (uint32_t j = 0; j < len; ++j) StoreF(scratch, j, HalfToFloat(src[off + j]));
    for (uint32_t j = 0; j < len; ++j) StoreF(scratch, j, LoadF(scratch, j) * k);
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = LoadF(scratch, j) + dst[off + j];
  }
  return true;
}

bool ReplaySumScratch(bool isHalf, const void* src, void* dst, uint32_t outter, uint32_t inner,
                      uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t ts = isHalf ? 2 : 4;
  const auto* s = static_cast<const uint8_t*>(src);
  auto* d = static_cast<uint8_t*>(dst);
  for (uint32_t r = 0; r < outter; ++r) {
    const uint8_t* row = s + uint64_t{r} * inner * ts;
    if (Repeats(n, isHalf) == 1) {
      RepeatReduceSum(row, d + uint64_t{r} * ts, n, isHalf);
    } else if (!Levels(isHalf, row, d + uint64_t{r} * ts, n, scratch, tmpBytes)) {
      return false;
    }
  }
  return true;
}

bool ReplayMeanScratch(bool isHalf, const void* src, void* dst, uint32_t outter, uint32_t inner,
                       uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
  if (!ReplaySumScratch(isHalf, src, dst, outter, inner, n, scratch, tmpBytes)) return false;
  // scalarValue = T(1.0f / float(int32(n))); Muls<T> over outter values.
  const float k = 1.0f / static_cast<float>(static_cast<int32_t>(n));
  const float kt = isHalf ? HalfToFloat(FloatToHalf(k)) : k;
  auto* d = static_cast<uint8_t*>(dst);
  for (uint32_t r = 0; r < outter; ++r) StoreT(d, r, LoadT(d, r, isHalf) * kt, isHalf);
  return true;
}

bool ReplayMeanCastScratch(const Half* src, Half* dst, uint32_t outter, uint32_t inner, uint32_t n,
                           uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t repeats = Repeats(n, false);
  if (4 * (uint64_t{inner} + repeats) > tmpBytes || 4 * uint64_t{n} > tmpBytes) return false;
  const float k = 1.0f / static_cast<float>(static_cast<int32_t>(n));
  uint8_t* sums = scratch + 4 * uint64_t{inner};
  for (uint32_t r = 0; r < outter; ++r) {
    const Half* row = src + uint64_t{r} * inner;
    for (uint32_t j = 0; j < n; ++j) StoreF(scratch, j, HalfToFloat(row[j]));
    RepeatReduceSum(scratch, sums, n, false);
    uint32_t count = repeats;
    while (count > 1) {
      const uint32_t next = Repeats(count, false);
      RepeatReduceSum(sums, sums, count, false);
      count = next;
    }
    StoreF(sums, 0, LoadF(sums, 0) * k);
    const Half h = FloatToHalf(LoadF(sums, 0));
    std::memcpy(scratch, &h, 2);
    RepeatReduceSum(scratch, reinterpret_cast<uint8_t*>(dst + r), 1, true);
  }
  return true;
}

bool ReplayWelfordUpdateScratch(bool isHalf, bool isReuseSource, bool isInplace, void* x,
                                const float* inMean, const float* inVar, float* outMean,
                                float* outVar, uint32_t abLength, uint32_t n, float nRec,
                                uint8_t* scratch, uint32_t tmpBytes) {
  const bool reuse = isReuseSource && !isHalf;
  const uint32_t bufs = isHalf ? 3 : (reuse ? 1 : 2);
  const uint32_t tmpNum = tmpBytes / (256 * bufs);
  if (tmpNum == 0) return false;
  if (isInplace && n < abLength) {
    const uint32_t len = (abLength - n + 7) / 8 * 8;
    const uint32_t at = abLength - len;
    std::memmove(outMean + at, inMean + at, 4 * size_t{len});
    std::memmove(outVar + at, inVar + at, 4 * size_t{len});
  }
  const uint32_t chunk = 64 * tmpNum;
  auto* xb = static_cast<uint8_t*>(x);
  for (uint32_t off = 0; off < n; off += chunk) {
    const uint32_t len = std::min(chunk, n - off);
    const float* im = inMean + off;
    const float* iv = inVar + off;
    float* om = outMean + off;
    float* ov = outVar + off;
    uint8_t* xs = xb + size_t{off} * (isHalf ? 2 : 4);  // x from this round on
    uint8_t* tmp = isHalf ? scratch + 4 * size_t{chunk} : scratch;
    uint8_t* out = isHalf ? scratch + 8 * size_t{chunk} : scratch + 4 * size_t{chunk};
    const uint8_t* src = xs;
    if (isHalf) {
      for (uint32_t j = 0; j < len; ++j) StoreF(scratch, j, LoadT(xs, j, true));
      src = scratch;
    }
    if (reuse) out = tmp;
    for (uint32_t j = 0; j < len; ++j) StoreF(tmp, j, LoadF(src, j) - im[j]);
    for (uint32_t j = 0; j < len; ++j) StoreF(out, j, LoadF(tmp, j) * nRec);
    for (uint32_t j = 0; j < len; ++j) om[j] = LoadF(out, j) + im[j];
    if (reuse) {
      for (uint32_t j = 0; j < len; ++j) StoreF(tmp, j, LoadF(xs, j) - om[j]);
      for (uint32_t j = 0; j < len; ++j) StoreF(xs, j, LoadF(xs, j) - im[j]);
      for (uint32_t j = 0; j < len; ++j) StoreF(tmp, j, LoadF(tmp, j) * LoadF(xs, j));
    } else {
      for (uint32_t j = 0; j < len; ++j) StoreF(out, j, LoadF(src, j) - om[j]);
      for (uint32_t j = 0; j < len; ++j) StoreF(tmp, j, LoadF(tmp, j) * LoadF(out, j));
    }
    for (uint32_t j = 0; j < len; ++j) ov[j] = LoadF(tmp, j) + iv[j];
  }
  return true;
}

}  // namespace lngrad_replay
