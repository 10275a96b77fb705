// SoftMax in the NZ data format on arch 2201, replayed from the toolkit's
// membase/common/softmax_impl/softmax_generic_nz_impl.h, membase/common/softmax_common_nz_reduce.h
// and softmax_common/softmax_common_{reduce,broadcast}.h (see replay_softmax.h), one float
// operation at a time. Built with lngrad_strict_fp.
#include <cmath>
#include <type_traits>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kNz = 16;  // SOFTMAX_SHAPE_NZ_BASIC_COUNT: columns of one fractal

float NzAdd(float a, float b) { return a + b; }
float NzMax(float a, float b) { return a > b ? a : b; }  // the device's Max, operands kept

// Level-by-level adjacent pairs over `n` (a power of two) lanes, in place.
template <class Op>
float PairTree(std::vector<float> lanes, Op op) {
  for (size_t w = lanes.size(); w > 1; w /= 2) {
    for (size_t i = 0; i < w / 2; ++i) lanes[i] = op(lanes[2 * i], lanes[2 * i + 1]);
  }
  return lanes[0];
}

// One row's reduction over its NZ blocks x[j][l] (j < blocks, l < 16), `len` valid lanes in the
// last block (Reduce{Max,Sum}LastNZImpl):
// - one block with len < 16: WholeReduce over the first len lanes (a 64-lane repeat, the other
//   lanes the neutral value);
// - else a 16-lane accumulator: block 0 (Muls by 1), op block j for 1 <= j < blocks - 1 on every
//   lane, op the last block on its first len lanes (one block: block 0 itself); then
//   Reduce{Max,Sum}BlockNZImpl: lane i op lane i + 8 (i < 8), BlockReduce's 8-lane tree.
// The max's lane reductions (WholeReduceMax, BlockReduceMax) by the lane rule lngrad documents
// for them (docs/ascendc_compat.md, "Max and min"; the NaN part its choice): the first NaN lane,
// else the largest, the lowest lane among equal ones.
float LaneRuleMax(const std::vector<float>& v, size_t n) {
  for (size_t l = 0; l < n; ++l) {
    if (std::isnan(v[l])) return v[l];
  }
  size_t at = 0;
  for (size_t l = 1; l < n; ++l) at = v[l] > v[at] ? l : at;
  return v[at];
}

template <class Op>
float NzRowReduce(const std::vector<std::vector<float>>& x, uint32_t len, Op op, float neutral) {
  const size_t blocks = x.size();
  const bool isMax = neutral == -INFINITY;  // the max's reductions (the sum's neutral is 0)
  if (blocks == 1 && len != kNz) {
    std::vector<float> lanes(64, neutral);
    for (uint32_t l = 0; l < len; ++l) lanes[l] = x[0][l];
    return isMax ? LaneRuleMax(lanes, len) : PairTree(lanes, op);
  }
  std::vector<float> acc(x[0]);
  if (blocks > 1) {
    for (auto& v : acc) v = v * 1.0f;
    for (size_t j = 1; j + 1 < blocks; ++j) {
      for (uint32_t l = 0; l < kNz; ++l) acc[l] = op(acc[l], x[j][l]);
    }
    for (uint32_t l = 0; l < len; ++l) acc[l] = op(acc[l], x[blocks - 1][l]);
  }
  std::vector<float> half(kNz / 2);
  for (uint32_t i = 0; i < kNz / 2; ++i) half[i] = op(acc[i], acc[i + kNz / 2]);
  return isMax ? LaneRuleMax(half, half.size()) : PairTree(half, op);
}

template <class T>
T NzStore(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalfRoundAway(v);
  } else {
    return v;
  }
}

// f on lane l of block j: every lane of blocks before the last, the first len of the last.
template <class F>
void NzMasked(std::vector<std::vector<float>>& x, uint32_t len, F f) {
  for (size_t j = 0; j < x.size(); ++j) {
    const uint32_t n = j + 1 == x.size() ? len : kNz;
    for (uint32_t l = 0; l < n; ++l) x[j][l] = f(x[j][l]);
  }
}

}  // namespace

// One row r of SoftMaxGenericNZImpl; flash (<isFlashV2 = true>): no Div, dst copied (float) or
// cast (half) from every lane of the work buffer.
template <class T, class S>
void NzSoftmaxRow(const SmxTiling& t, uint32_t oriK, const T* src, T* dst, S* sum, S* max,
                  uint32_t r, bool flash) {
  const uint32_t blocks = t.srcK / kNz;
  const uint32_t len = oriK % kNz != 0 ? oriK % kNz : kNz;
  const uint32_t statLanes = std::is_same_v<S, Half> ? 16 : 8;  // 32 bytes of S per row
  const uint32_t split = r / t.splitM, inSplit = r % t.splitM;
  std::vector<std::vector<float>> x(blocks, std::vector<float>(kNz));
  for (uint32_t j = 0; j < blocks; ++j) {
    for (uint32_t l = 0; l < kNz; ++l) x[j][l] = ToFloat(src[(j * t.srcM + r) * kNz + l]);
  }
  const float mx = NzRowReduce(x, len, NzMax, -INFINITY);
  NzMasked(x, len, [mx](float v) { return v - mx; });
  NzMasked(x, len, [](float v) { return static_cast<float>(std::exp(static_cast<double>(v))); });
  const float s = NzRowReduce(x, len, NzAdd, 0.0f);
  if (!flash) NzMasked(x, len, [s](float v) { return v / s; });
  const uint32_t o2 = split * t.reduceSize + inSplit * statLanes;
  for (uint32_t i = 0; i < statLanes; ++i) {
    max[o2 + i] = NzStore<S>(mx);
    sum[o2 + i] = NzStore<S>(s);
  }
  for (uint32_t j = 0; j < blocks; ++j) {
    // SoftMax float data: the last block's masked lanes of dst are not written (Div writes dst);
    // otherwise every lane comes from the work buffer (masked lanes: the source).
    const bool all = flash || std::is_same_v<T, Half> || j + 1 < blocks;
    const uint32_t n = all ? kNz : len;
    for (uint32_t l = 0; l < n; ++l) dst[(j * t.srcM + r) * kNz + l] = NzStore<T>(x[j][l]);
  }
}

template <class T, class S>
void ReplaySoftMaxNz(const SmxTiling& t, uint32_t oriK, const T* src, T* dst, S* sum, S* max) {
  const uint32_t rowsAll = t.rangeM * t.splitM + t.tailM;
  for (uint32_t r = 0; r < rowsAll; ++r) NzSoftmaxRow(t, oriK, src, dst, sum, max, r, false);
}

template <class T, class S>
void ReplaySoftmaxFlashV2NzNoUpdate(const SmxTiling& t, uint32_t oriM, uint32_t oriK, const T* src,
                                    T* dst, S* expSum, S* max) {
  // SoftmaxFlashV2NZNoUpdateImpl: the last split loses the srcM - oriM padding rows when it has
  // more rows than that.
  const uint32_t pad = t.srcM - oriM;
  const uint32_t splits = t.rangeM + (t.tailM != 0 ? 1 : 0);
  for (uint32_t i = 0; i < splits; ++i) {
    uint32_t rows = i < t.rangeM ? t.splitM : t.tailM;
    if (i + 1 == splits && rows > pad) rows -= pad;
    for (uint32_t q = 0; q < rows; ++q) {
      NzSoftmaxRow(t, oriK, src, dst, expSum, max, i * t.splitM + q, true);
    }
  }
}

// One row of FlashV2NZUpdateGenericImpl: lane l of the statistics (8 float or 16 half lanes):
// max_l = Max(inMax_l, rowmax), expMax_l = exp(inMax_l - max_l); column c subtracts lane
// (c % 16) % lanes; expSum_l = expMax_l * inExpSum_l + rowsum (Mul, then Add). expMax of half
// data is [rows, 16] halves (lane l from lane l % lanes); of float data [rows, 8].
template <class T, class S>
void NzFlashUpdateRow(const SmxTiling& t, uint32_t oriK, uint32_t r, const NzFlashV2Io<T, S>& io) {
  const uint32_t blocks = t.srcK / kNz;
  const uint32_t len = oriK % kNz != 0 ? oriK % kNz : kNz;
  const uint32_t lanes = std::is_same_v<S, Half> ? 16 : 8;
  const uint32_t o2 = r * lanes;
  std::vector<std::vector<float>> x(blocks, std::vector<float>(kNz));
  for (uint32_t j = 0; j < blocks; ++j) {
    for (uint32_t l = 0; l < kNz; ++l) x[j][l] = ToFloat(io.src[(j * t.srcM + r) * kNz + l]);
  }
  const float rowMax = NzRowReduce(x, len, NzMax, -INFINITY);
  std::vector<float> mx(lanes), em(lanes), inSum(lanes);
  for (uint32_t l = 0; l < lanes; ++l) {
    const float im = ToFloat(io.inMax[o2 + l]);
    inSum[l] = ToFloat(io.inExpSum[o2 + l]);
    mx[l] = NzMax(im, rowMax);
    em[l] = static_cast<float>(std::exp(static_cast<double>(im - mx[l])));
  }
  for (uint32_t j = 0; j < blocks; ++j) {
    const uint32_t n = j + 1 == blocks ? len : kNz;
    for (uint32_t l = 0; l < n; ++l) {
      x[j][l] = x[j][l] - mx[l % lanes];
      x[j][l] = static_cast<float>(std::exp(static_cast<double>(x[j][l])));
    }
  }
  const float rowSum = NzRowReduce(x, len, NzAdd, 0.0f);
  for (uint32_t l = 0; l < lanes; ++l) {
    const float prod = em[l] * inSum[l];
    io.max[o2 + l] = NzStore<S>(mx[l]);
    io.expSum[o2 + l] = NzStore<S>(prod + rowSum);
  }
  const uint32_t emLanes = std::is_same_v<T, Half> ? 16 : 8;
  for (uint32_t l = 0; l < emLanes; ++l) io.expMax[r * emLanes + l] = NzStore<T>(em[l % lanes]);
  for (uint32_t j = 0; j < blocks; ++j) {
    for (uint32_t l = 0; l < kNz; ++l) io.dst[(j * t.srcM + r) * kNz + l] = NzStore<T>(x[j][l]);
  }
}

template <class T, class S>
void ReplaySoftmaxFlashV2NzUpdate(const SmxTiling& t, uint32_t oriM, uint32_t oriK,
                                  const NzFlashV2Io<T, S>& io) {
  const uint32_t pad = t.srcM - oriM;
  const uint32_t splits = t.rangeM + (t.tailM != 0 ? 1 : 0);
  for (uint32_t i = 0; i < splits; ++i) {
    uint32_t rows = i < t.rangeM ? t.splitM : t.tailM;
    if (i + 1 == splits && rows > pad) rows -= pad;
    for (uint32_t q = 0; q < rows; ++q) NzFlashUpdateRow(t, oriK, i * t.splitM + q, io);
  }
}

template void ReplaySoftmaxFlashV2NzUpdate<float, float>(const SmxTiling&, uint32_t, uint32_t,
                                                         const NzFlashV2Io<float, float>&);
template void ReplaySoftmaxFlashV2NzUpdate<Half, Half>(const SmxTiling&, uint32_t, uint32_t,
                                                       const NzFlashV2Io<Half, Half>&);
template void ReplaySoftmaxFlashV2NzUpdate<Half, float>(const SmxTiling&, uint32_t, uint32_t,
                                                        const NzFlashV2Io<Half, float>&);

template void ReplaySoftmaxFlashV2NzNoUpdate<float, float>(const SmxTiling&, uint32_t, uint32_t,
                                                           const float*, float*, float*, float*);
template void ReplaySoftmaxFlashV2NzNoUpdate<Half, Half>(const SmxTiling&, uint32_t, uint32_t,
                                                         const Half*, Half*, Half*, Half*);
template void ReplaySoftmaxFlashV2NzNoUpdate<Half, float>(const SmxTiling&, uint32_t, uint32_t,
                                                          const Half*, Half*, float*, float*);

template void ReplaySoftMaxNz<float, float>(const SmxTiling&, uint32_t, const float*, float*,
                                            float*, float*);
template void ReplaySoftMaxNz<Half, Half>(const SmxTiling&, uint32_t, const Half*, Half*, Half*,
                                          Half*);
template void ReplaySoftMaxNz<Half, float>(const SmxTiling&, uint32_t, const Half*, Half*, float*,
                                           float*);

template <class T, class S>
void ReplaySimpleSoftMaxNz(const SmxTiling& t, const T* src, const S* inSum, const S* inMax,
                           T* dst) {
  const uint32_t statLanes = std::is_same_v<S, Half> ? 16 : 8;
  const uint32_t rowsAll = t.rangeM * t.splitM + t.tailM;
  for (uint32_t r = 0; r < rowsAll; ++r) {
    const uint32_t o2 = (r / t.splitM) * t.splitM * statLanes + (r % t.splitM) * statLanes;
    for (uint32_t c = 0; c < t.srcK; ++c) {
      // The work row of 16 lanes: half statistics cast lane for lane; float statistics' 8 lanes
      // copied twice (DataCopy of one block to lanes 0..7 and 8..15).
      const uint32_t lane = (c % kNz) % statLanes;
      const uint32_t at = ((c / kNz) * t.srcM + r) * kNz + c % kNz;
      const float e = static_cast<float>(
          std::exp(static_cast<double>(ToFloat(src[at]) - ToFloat(inMax[o2 + lane]))));
      dst[at] = NzStore<T>(e / ToFloat(inSum[o2 + lane]));
    }
  }
}

template void ReplaySimpleSoftMaxNz<float, float>(const SmxTiling&, const float*, const float*,
                                                  const float*, float*);
template void ReplaySimpleSoftMaxNz<Half, Half>(const SmxTiling&, const Half*, const Half*,
                                                const Half*, Half*);
template void ReplaySimpleSoftMaxNz<Half, float>(const SmxTiling&, const Half*, const float*,
                                                 const float*, Half*);

template <class T, class S>
bool ReplayAdjustSoftMaxResNz(uint32_t m, uint32_t k, T* res, const S* max, uint32_t from, T to) {
  const uint32_t step = std::is_same_v<S, Half> ? 16 : 8;  // ONE_BLK_{HALF,FLOAT}_NUM
  bool any = false;
  for (uint32_t j = 0; j < m; ++j) {
    const uint32_t bits = std::is_same_v<S, Half> ? (from & 0xFFFFu) : from;
    uint32_t got = 0;
    if constexpr (std::is_same_v<S, Half>) {
      got = max[j * step].bits;
    } else {
      got = Bits(max[j * step]);
    }
    if (got != bits) continue;
    any = true;
    // Duplicate of 16 lanes at row j of every fractal.
    for (uint32_t f = 0; f < k / kNz; ++f) {
      for (uint32_t l = 0; l < kNz; ++l) res[(f * m + j) * kNz + l] = to;
    }
  }
  return any;
}

template bool ReplayAdjustSoftMaxResNz<float, float>(uint32_t, uint32_t, float*, const float*,
                                                     uint32_t, float);
template bool ReplayAdjustSoftMaxResNz<Half, Half>(uint32_t, uint32_t, Half*, const Half*, uint32_t,
                                                   Half);
template bool ReplayAdjustSoftMaxResNz<Half, float>(uint32_t, uint32_t, Half*, const float*,
                                                    uint32_t, Half);

// One row of SoftmaxGrad/Front NZ: s = the NZ row sum of src * grad, the last fractal masked to
// len lanes (the single-fractal WholeReduceSum uses lenOri, the WholeReduce branch's own mask).
template <class T>
float GradNzRowSum(const SmxTiling& t, const T* grad, const T* src, uint32_t r, uint32_t len,
                   uint32_t lenOri) {
  const uint32_t blocks = t.srcK / kNz;
  std::vector<std::vector<float>> p(blocks, std::vector<float>(kNz));
  for (uint32_t j = 0; j < blocks; ++j) {
    for (uint32_t l = 0; l < kNz; ++l) {
      const uint32_t at = (j * t.srcM + r) * kNz + l;
      p[j][l] = ToFloat(src[at]) * ToFloat(grad[at]);
    }
  }
  if (blocks == 1 && lenOri != kNz) return NzRowReduce(p, lenOri, NzAdd, 0.0f);
  return NzRowReduce(p, len, NzAdd, 0.0f);
}

template <class T>
void ReplaySoftmaxGradNz(const SmxTiling& t, uint32_t oriK, const T* grad, const T* src, T* dst,
                         bool isFront) {
  const uint32_t statLanes = std::is_same_v<T, Half> ? 16 : 8;
  // Front reduces with originalSrcK = splitK (every lane); SoftmaxGrad with oriK, but its
  // BinaryComputeWithSpecialMask gets the full-lane mask for the split's whole repeats (4 rows
  // each) and the oriK mask only for the tail repeat (the split's last rows % 4 rows).
  const uint32_t lenOri = isFront ? kNz : (oriK % kNz != 0 ? oriK % kNz : kNz);
  const uint32_t rowsAll = t.rangeM * t.splitM + t.tailM;
  for (uint32_t r = 0; r < rowsAll; ++r) {
    const uint32_t split = r / t.splitM, inSplit = r % t.splitM;
    const uint32_t rows = split < t.rangeM ? t.splitM : t.tailM;
    const bool tailRepeat = inSplit >= rows / 4 * 4;
    const float s = GradNzRowSum(t, grad, src, r, tailRepeat ? lenOri : kNz, lenOri);
    if (isFront) {
      for (uint32_t i = 0; i < statLanes; ++i) {
        dst[split * t.reduceSize + inSplit * statLanes + i] = NzStore<T>(s);
      }
      continue;
    }
    for (uint32_t c = 0; c < t.srcK; ++c) {
      const uint32_t at = ((c / kNz) * t.srcM + r) * kNz + c % kNz;
      dst[at] = NzStore<T>((ToFloat(grad[at]) - s) * ToFloat(src[at]));
    }
  }
}

template void ReplaySoftmaxGradNz<float>(const SmxTiling&, uint32_t, const float*, const float*,
                                         float*, bool);
template void ReplaySoftmaxGradNz<Half>(const SmxTiling&, uint32_t, const Half*, const Half*, Half*,
                                        bool);

namespace {

// The fields of the kernel-side tiling functions: rows per split `perRow` floats each from
// workFloats, a multiple of 8 when between 8 and rows, at most rows (of srcM).
SmxTiling NzSplitTiling(uint32_t workFloats, uint32_t perRow, uint32_t srcM, uint32_t srcK,
                        uint32_t rows, uint32_t perBlk) {
  SmxTiling t{};
  t.srcM = srcM;
  t.srcK = srcK;
  t.srcSize = srcM * srcK;
  t.outMaxM = srcM;
  t.outMaxK = perBlk;
  t.outMaxSize = srcM * perBlk;
  uint32_t m = workFloats / perRow;
  if (m < rows && m > 8) m = m / 8 * 8;
  m = m < rows ? m : rows;
  t.reduceM = t.splitM = m;
  t.reduceK = perBlk;
  t.reduceSize = m * perBlk;
  t.splitK = srcK;
  t.splitSize = m * srcK;
  t.rangeM = rows / m;
  t.tailM = rows % m;
  t.tailSplitSize = t.tailM * srcK;
  t.tailReduceSize = t.tailM * perBlk;
  return t;
}

}  // namespace

// SoftMaxGradTilingFunc with isDataFormatNZ: half 2 blocks + 3 rows + 64 floats per row; float
// (front or not) a row + 2 blocks + 64.
SmxTiling SmxNzGradTiling(uint32_t workFloats, uint32_t m, uint32_t k, uint32_t typeSize) {
  const uint32_t perBlk = 32 / typeSize;
  const uint32_t perRow = typeSize == 2 ? perBlk * 2 + k * 3 + 64 : k + perBlk * 2 + 64;
  return NzSplitTiling(workFloats, perRow, m, k, m, perBlk);
}

SmxTiling SmxNzFlashV2Tiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK,
                             uint32_t statBytes) {
  // SoftMaxFlashV2TilingFuncImpl with isDataFormatNZ: 16 * 3 + srcK floats per row.
  return NzSplitTiling(workFloats, kNz * 3 + srcK, srcM, srcK, srcM, 32 / statBytes);
}

SmxTiling SmxNzTiling(uint32_t workFloats, uint32_t srcM, uint32_t srcK, uint32_t oriM,
                      uint32_t statBytes) {
  return NzSplitTiling(workFloats, kNz + srcK, srcM, srcK, oriM, 32 / statBytes);
}

}  // namespace lngrad_replay
