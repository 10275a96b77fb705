// The reduce family's replay (replay_reduce_quant.h): the toolkit's 2201 sequences, one
// instruction after the other, on plain float arrays.
#include "replay_reduce_quant.h"

#include <cmath>

#include "replay.h"

namespace lngrad_replay {

float RoundT(float v, bool isHalf) { return isHalf ? HalfToFloat(FloatToHalf(v)) : v; }

float VMax(float a, float b) { return a > b ? a : b; }
float VMin(float a, float b) { return a < b ? a : b; }

namespace {

float LaneExtreme(const float* v, uint32_t n, bool isMax) {
  float best = v[0];
  for (uint32_t i = 1; i < n; ++i) {
    if (std::isnan(best)) break;
    if (std::isnan(v[i]) || (isMax ? v[i] > best : v[i] < best)) best = v[i];
  }
  return best;
}

}  // namespace

float LaneMax(const float* v, uint32_t n) { return LaneExtreme(v, n, true); }
float LaneMin(const float* v, uint32_t n) { return LaneExtreme(v, n, false); }

float LaneTree(const float* v, uint32_t n, uint32_t lanes, bool isHalf) {
  std::vector<float> t(lanes, 0.0f);
  for (uint32_t i = 0; i < n && i < lanes; ++i) t[i] = v[i];
  for (uint32_t w = lanes; w > 1; w /= 2) {
    for (uint32_t j = 0; j < w / 2; ++j) t[j] = RoundT(t[2 * j] + t[2 * j + 1], isHalf);
  }
  return t[0];
}

namespace {

uint32_t ElemsPerBlock(bool isHalf) { return isHalf ? 16 : 8; }
uint32_t ElemsPerRepeat(bool isHalf) { return isHalf ? 128 : 64; }
// 1 << FindClosestPowerOfTwo(n): the largest power of two <= n.
uint32_t Pow2Floor(uint32_t n) {
  uint32_t k = 1;
  while (k <= n / 2) k *= 2;
  return k;
}

// The binary instruction `func` of the sequences (Add, Mul, Max, Min), operands in order.
float Binary(RedOp op, float a, float b, bool isHalf) {
  switch (op) {
    case RedOp::kMax:
      return VMax(a, b);
    case RedOp::kMin:
      return VMin(a, b);
    case RedOp::kProd:
      return RoundT(a * b, isHalf);
    default:
      return RoundT(a + b, isHalf);
  }
}
float AddsZero(float a, bool isHalf) { return RoundT(a + 0.0f, isHalf); }

float LaneReduce(RedOp op, const float* v, uint32_t n) {
  return op == RedOp::kMax ? LaneMax(v, n) : LaneMin(v, n);
}

// GetReduceValOnRep for one row's accumulator of one repeat: half WholeReduce over 128 lanes;
// float BlockReduce of the 8 blocks, then BlockReduce of those 8 results.
float ReduceRepeatMaxMin(RedOp op, const std::vector<float>& acc, bool isHalf) {
  if (isHalf) return LaneReduce(op, acc.data(), 128);
  float blocks[8];
  for (uint32_t b = 0; b < 8; ++b) blocks[b] = LaneReduce(op, acc.data() + 8 * b, 8);
  return LaneReduce(op, blocks, 8);
}

// BlockReduceByLastAxis for one row (Max/Min), the paths by last.
float MaxMinRow(const RedCall& c, const float* row) {
  const uint32_t e = ElemsPerBlock(c.isHalf), r = ElemsPerRepeat(c.isHalf), last = c.last;
  if (last <= e) return LaneReduce(c.op, row, last);  // DoReduceLessThanBlk / DoReduceOneBlk
  // DoReduceByBlk (chunk e), DoReduceByRep and DoLongLastReduce (chunk r): the accumulator is
  // the first chunk (+ 0 unless isReuseSource), then op= each further chunk, the partial last
  // chunk on its leading lanes only.
  const uint32_t chunk = last < r ? e : r;
  std::vector<float> acc(row, row + chunk);
  if (!c.reuse) {
    for (float& v : acc) v = AddsZero(v, c.isHalf);
  }
  for (uint32_t base = chunk; base < last; base += chunk) {
    const uint32_t lanes = last - base < chunk ? last - base : chunk;
    for (uint32_t l = 0; l < lanes; ++l) acc[l] = Binary(c.op, acc[l], row[base + l], c.isHalf);
  }
  if (chunk == e) return LaneReduce(c.op, acc.data(), e);  // one BlockReduce per row
  return ReduceRepeatMaxMin(c.op, acc, c.isHalf);
}

// ReduceSumCommon AR for one row (the B32 constants 8 and 64 of the source; T = float, or half
// rows of at most 64 elements).
float SumRow(const RedCall& c, const float* row) {
  const uint32_t e = ElemsPerBlock(c.isHalf), last = c.last;
  if (last <= 8) return LaneTree(row, last, e, c.isHalf);  // BlkReduceForLoop
  if (last <= 64) return LaneTree(row, last, ElemsPerRepeat(c.isHalf), c.isHalf);  // Whole
  // ReduceSumInLargeLast: the first perRow elements, plus the tail beyond them, then
  // PairReduceSum halvings down to 64 and two BlockReduceSum levels.
  const uint32_t splitK = Pow2Floor(last);
  uint32_t perRow = splitK > e ? splitK : e;
  if (last == splitK) perRow >>= 1;
  const uint32_t tailLen = last == splitK ? perRow : last - splitK;
  std::vector<float> t(row, row + perRow);
  for (uint32_t j = 0; j < tailLen; ++j) t[j] = RoundT(t[j] + row[perRow + j], c.isHalf);
  for (uint32_t k = perRow; k > 64; k /= 2) {
    for (uint32_t i = 0; i < k / 2; ++i) t[i] = RoundT(t[2 * i] + t[2 * i + 1], c.isHalf);
  }
  float blocks[8];
  for (uint32_t b = 0; b < 8; ++b) blocks[b] = LaneTree(t.data() + 8 * b, 8, 8, c.isHalf);
  return LaneTree(blocks, 8, 8, c.isHalf);
}

// ReduceProdByLastAxis for one row: the halvings over the row, Brcb of 8 lanes into 8 blocks,
// the block halvings, then Adds 0.
float ProdRow(const RedCall& c, const float* row) {
  const uint32_t last = c.last, splitK = Pow2Floor(last), remain = last - splitK;
  std::vector<float> cur(row, row + (last > 8 ? last : 8));
  uint32_t s = splitK;
  if (c.reuse) {
    if (last >= 8 && remain != 0) {
      for (uint32_t i = 0; i < remain; ++i) cur[i] = cur[i] * cur[splitK + i];
    }
  } else if (last >= 8 && remain != 0) {
    for (uint32_t i = 0; i < splitK; ++i) cur[i] = AddsZero(row[i], false);
    for (uint32_t i = 0; i < remain; ++i) cur[i] = cur[i] * row[splitK + i];
  } else if (splitK > 8) {
    s >>= 1;
    for (uint32_t i = 0; i < s; ++i) cur[i] = row[i] * row[s + i];
  } else {
    for (uint32_t i = 0; i < last; ++i) cur[i] = AddsZero(row[i], false);
  }
  while (s > 8) {
    s >>= 1;
    for (uint32_t i = 0; i < s; ++i) cur[i] = cur[i] * cur[s + i];
  }
  float blk[8];  // lane 0 of each Brcb block (all its lanes hold the same value)
  for (uint32_t b = 0; b < 8; ++b) blk[b] = cur[b];
  uint32_t finalTail = last < 8 ? splitK : 8;
  if (splitK != last && finalTail < 8) {
    for (uint32_t b = 0; b < remain; ++b) blk[b] = blk[b] * blk[splitK + b];
  }
  while (finalTail > 1) {
    finalTail >>= 1;
    for (uint32_t b = 0; b < finalTail; ++b) blk[b] = blk[b] * blk[finalTail + b];
  }
  return AddsZero(blk[0], false);
}

float ArRow(const RedCall& c, const float* row) {
  switch (c.op) {
    case RedOp::kMax:
    case RedOp::kMin:
      return MaxMinRow(c, row);
    case RedOp::kProd:
      return ProdRow(c, row);
    default:
      return SumRow(c, row);
  }
}

float MeanScale(uint32_t count, bool isHalf) {
  return RoundT(1.0f / static_cast<float>(static_cast<int32_t>(count)), isHalf);
}

}  // namespace

uint32_t RedPadLast(const RedCall& c) {
  const uint32_t e = ElemsPerBlock(c.isHalf);
  return (c.last + e - 1) / e * e;
}

namespace {

RedCall AsMaxMin(RedCall c) {
  if (c.op == RedOp::kAny) c.op = RedOp::kMax;
  if (c.op == RedOp::kAll) c.op = RedOp::kMin;
  return c;
}

}  // namespace

std::vector<float> ReplayReduceAR(const RedCall& call, const std::vector<float>& src) {
  const RedCall c = AsMaxMin(call);
  const uint32_t pad = RedPadLast(c);
  std::vector<float> dst(c.first);
  for (uint32_t i = 0; i < c.first; ++i) dst[i] = ArRow(c, src.data() + size_t{i} * pad);
  if (c.op == RedOp::kMean) {
    const float k = MeanScale(c.last, c.isHalf);
    for (float& v : dst) v = RoundT(v * k, c.isHalf);
  }
  return dst;
}

// BinaryReduceByFirstAxis over whole padded rows, into tmp (or src with isReuseSource).
std::vector<float> ReplayReduceRA(const RedCall& call, std::vector<float>& src) {
  const RedCall c = AsMaxMin(call);
  const uint32_t pad = RedPadLast(c);
  const RedOp op = c.op == RedOp::kMean ? RedOp::kSum : c.op;
  uint32_t splitK = Pow2Floor(c.first);
  const uint32_t remain = c.first - splitK;
  std::vector<float> tmp;
  std::vector<float>& cur = c.reuse ? src : tmp;
  auto fold = [&](std::vector<float>& d, const std::vector<float>& a, const std::vector<float>& b,
                  size_t bOff, size_t count) {
    for (size_t i = 0; i < count; ++i) d[i] = Binary(op, a[i], b[bOff + i], c.isHalf);
  };
  std::vector<float> dst(c.last);
  if (c.reuse) {
    if (remain != 0) fold(src, src, src, size_t{splitK} * pad, size_t{pad} * remain);
  } else if (remain != 0) {
    tmp.assign(size_t{splitK} * pad, 0.0f);
    for (size_t i = 0; i < tmp.size(); ++i) tmp[i] = AddsZero(src[i], c.isHalf);
    fold(tmp, tmp, src, size_t{splitK} * pad, size_t{pad} * remain);
  } else if (splitK > 1) {  // the first halving reads src directly
    splitK >>= 1;
    tmp.assign(size_t{splitK} * pad, 0.0f);
    fold(tmp, src, src, size_t{splitK} * pad, size_t{pad} * splitK);
  } else {  // one row: copied (+ 0)
    tmp.assign(src.begin(), src.begin() + pad);
  }
  while (splitK > 1) {
    splitK >>= 1;
    fold(cur, cur, cur, size_t{splitK} * pad, size_t{pad} * splitK);
  }
  for (uint32_t j = 0; j < c.last; ++j) dst[j] = AddsZero(cur[j], c.isHalf);
  if (c.op == RedOp::kMean) {
    const float k = MeanScale(c.first, c.isHalf);
    for (float& v : dst) v = RoundT(v * k, c.isHalf);
  }
  return dst;
}

// ---- Sum and Mean ----

namespace {

// One row: RepeatReduceSum passes of `lanes`-lane trees (counter mode: every repeat full but
// the last) until one value remains.
float RowPasses(const float* row, uint32_t n, uint32_t lanes, bool isHalf) {
  std::vector<float> level(row, row + n);
  do {
    std::vector<float> next;
    for (uint32_t i = 0; i < level.size(); i += lanes) {
      const uint32_t cnt = static_cast<uint32_t>(level.size()) - i;
      next.push_back(LaneTree(level.data() + i, cnt < lanes ? cnt : lanes, lanes, isHalf));
    }
    level.swap(next);
  } while (level.size() > 1);
  return level[0];
}

}  // namespace

std::vector<float> ReplaySum(const RowsCall& c, const std::vector<float>& src) {
  std::vector<float> dst(c.outter);
  const uint32_t lanes = ElemsPerRepeat(c.isHalf);
  for (uint32_t r = 0; r < c.outter; ++r) {
    dst[r] = RowPasses(src.data() + size_t{r} * c.inner, c.n, lanes, c.isHalf);
  }
  return dst;
}

std::vector<float> ReplayMean(const RowsCall& c, const std::vector<float>& src) {
  if (c.isHalf && c.accFloat) {  // MeanCast: float passes, Muls, Cast, a one-lane half tree
    const float k = 1.0f / static_cast<float>(static_cast<int32_t>(c.n));
    std::vector<float> dst(c.outter);
    for (uint32_t r = 0; r < c.outter; ++r) {
      const float sum = RowPasses(src.data() + size_t{r} * c.inner, c.n, 64, false);
      const float h = HalfToFloat(FloatToHalfSaturate(sum * k));
      dst[r] = LaneTree(&h, 1, 128, true);
    }
    return dst;
  }
  std::vector<float> dst = ReplaySum(c, src);
  const float k = MeanScale(c.n, c.isHalf);
  for (float& v : dst) v = RoundT(v * k, c.isHalf);
  return dst;
}

int16_t ReplayReduceXorSum(const std::vector<int16_t>& a, const std::vector<int16_t>& b,
                           uint32_t calCount) {
  int64_t sum = 0;
  for (uint32_t i = 0; i < calCount; ++i) {
    const int32_t both = a[i] & b[i], either = a[i] | b[i];
    sum += static_cast<int16_t>(~both & either);
  }
  return static_cast<int16_t>(sum > 32767 ? 32767 : (sum < -32768 ? -32768 : sum));
}

}  // namespace lngrad_replay
