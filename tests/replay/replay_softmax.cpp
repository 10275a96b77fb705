// The SoftMax family's 2201 path replayed one float operation at a time (see replay_softmax.h
// and README.md). Built with lngrad_strict_fp: no contraction, every operation rounds alone.
#include "replay_softmax.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace lngrad_replay {
namespace {

constexpr uint32_t kLanes = 64;           // floats per repeat
constexpr uint32_t kBlock = 8;            // floats per 32-byte block
constexpr uint32_t kBigReduce = 512;      // SOFTMAX_FLOAT_SPECIAL_BLOCKREDUCE_LEN
constexpr float kLog10E = 0.4342944819f;  // SCALAR_NATURE_LOG_10

float Sum2(float a, float b) { return a + b; }
float Max2(float a, float b) { return a > b ? a : b; }  // the device's Max, operand order kept

// Exp and Ln of §2: computed in double, rounded once to float.
float ExpF(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
float LnF(float x) { return static_cast<float>(std::log(static_cast<double>(x))); }

// Adjacent-pair tree over n (a power of two) values: (v0 op v1), (v2 op v3), ... level by level.
template <class Op>
float Tree(const float* v, uint32_t n, Op op) {
  float level[kLanes];
  std::memcpy(level, v, n * sizeof(float));
  for (uint32_t w = n; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) level[i] = op(level[2 * i], level[2 * i + 1]);
  }
  return level[0];
}

// NewReduce{Sum,Max}LastNDImpl for one row. k < 64: one masked repeat (masked lanes = the
// neutral value); else the 64-lane accumulator: BigBlockReduce (k >= 512: lane l = the block
// tree of row[8l, 8l+8), then chunks 8.. added as chunk op acc), the first two chunks and
// NextBlock (k in [128, 512)), or a copy of chunk 0 (k in [64, 128)); TailAdd/TailMax on the
// k % 64 lanes; then the 64-lane tree (WholeReduce for one row, two BlockReduce levels for
// several: the same pairs).
template <class Op>
float RowReduce(const float* row, uint32_t k, Op op, float neutral, bool basic = false) {
  float acc[kLanes];
  if (k < kLanes) {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = l < k ? row[l] : neutral;
    return Tree(acc, kLanes, op);
  }
  const uint32_t chunks = k / kLanes, tail = k % kLanes;
  if (k >= kBigReduce && !basic) {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = Tree(row + l * kBlock, kBlock, op);
    for (uint32_t c = kBigReduce / kLanes; c < chunks; ++c) {
      for (uint32_t l = 0; l < kLanes; ++l) acc[l] = op(row[c * kLanes + l], acc[l]);
    }
  } else if (k >= 2 * kLanes) {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = op(row[l], row[kLanes + l]);
    for (uint32_t c = 2; c < chunks; ++c) {
      for (uint32_t l = 0; l < kLanes; ++l) acc[l] = op(acc[l], row[c * kLanes + l]);
    }
  } else {
    std::memcpy(acc, row, sizeof acc);
  }
  for (uint32_t l = 0; l < tail; ++l) acc[l] = op(acc[l], row[chunks * kLanes + l]);
  return Tree(acc, kLanes, op);
}

// WholeReduceMax / BlockReduceMax over n lanes, as lngrad documents the lane reduction
// (docs/ascendc_kernels.md, reduce_ops.h; the kit does not say): the first NaN lane, else the
// first lane holding the maximum (+0 and -0 tie). Replay's own loop.
float LaneMax(const float* v, uint32_t n) {
  float best = v[0];
  for (uint32_t l = 1; l < n && !std::isnan(best); ++l) {
    if (std::isnan(v[l]) || v[l] > best) best = v[l];
  }
  return best;
}

// NewReduceMaxLastNDImpl for row `row` of a split of `rows` rows (v220
// softmax_common_nd_reduce.h; v200 softmax_common_impl.h, the same instructions), each binary
// Max with its source operand order (Max2(src0, src1)):
//   k < 64: ReduceMaxLastNDSplitImpl, one WholeReduceMax masked to k lanes;
//   k >= 512: BigBlockReduceMax: BlockReduceMax of blocks 0..63 -> acc, then for chunk c >= 8
//     Max(dst = acc, src0 = chunk c, src1 = acc);
//   [128, 512): Max(acc, chunk 0, chunk 1), then NextBlockMaxImpl: when rows > chunks
//     Max(acc, acc, chunk c) (src0 = acc), else Max(acc, chunk c, acc) per row;
//   [64, 128): FirstBlockCopyImpl (v220 Copy; v200 Adds 0: -0 lanes become +0);
//   tail: TailMaxImpl, Max(acc, acc, tail lanes) masked to k % 64;
//   BasicBlockReduceMaxImpl: rows == 1 WholeReduceMax, else BlockReduceMax twice (the same
//     first-NaN / first-extreme lane); v200 with rows > 1 then Muls 1.0 and Adds 0 (-0 -> +0).
float KitRowMax(const float* row, uint32_t k, uint32_t rows, bool v200) {
  if (k < kLanes) return LaneMax(row, k);
  float acc[kLanes];
  const uint32_t chunks = k / kLanes, tail = k % kLanes;
  if (k >= kBigReduce) {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = LaneMax(row + l * kBlock, kBlock);
    for (uint32_t c = kBigReduce / kLanes; c < chunks; ++c) {
      for (uint32_t l = 0; l < kLanes; ++l) acc[l] = Max2(row[c * kLanes + l], acc[l]);
    }
  } else if (k >= 2 * kLanes) {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = Max2(row[l], row[kLanes + l]);
    for (uint32_t c = 2; c < chunks; ++c) {
      for (uint32_t l = 0; l < kLanes; ++l) {
        const float v = row[c * kLanes + l];
        acc[l] = rows > chunks ? Max2(acc[l], v) : Max2(v, acc[l]);
      }
    }
  } else {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = v200 ? row[l] + 0.0f : row[l];
  }
  for (uint32_t l = 0; l < tail; ++l) acc[l] = Max2(acc[l], row[chunks * kLanes + l]);
  const float m = LaneMax(acc, kLanes);
  return v200 && rows > 1 ? m * 1.0f + 0.0f : m;
}

// SoftMaxBasicBlock's row max (membase/common softmax_basic_block_impl.h) for a row of k columns
// (a multiple of 64) in a split of `rows` rows: splitBlock = k / 64 == 1: BlockReduceMax of the
// row's 64 lanes; else BasicBlockMaxImpl (softmax_common_arithmetic.h): Max(acc, chunk 0,
// chunk 1), then for chunk c >= 2, when rows > splitBlock Max(acc, acc, chunk c), else per row
// Max(acc, chunk c, acc), and BlockReduceMax of acc; each way a second BlockReduceMax over the
// row's eight block maxima. A binary Max is Max2 in its source operand order; each BlockReduceMax
// block as LaneMax.
float KitBasicRowMax(const float* row, uint32_t k, uint32_t rows) {
  const uint32_t splitBlock = k / kLanes;
  float acc[kLanes];
  if (splitBlock == 1) {
    std::memcpy(acc, row, sizeof acc);
  } else {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = Max2(row[l], row[kLanes + l]);
    for (uint32_t c = 2; c < splitBlock; ++c) {
      for (uint32_t l = 0; l < kLanes; ++l) {
        const float v = row[c * kLanes + l];
        acc[l] = rows > splitBlock ? Max2(acc[l], v) : Max2(v, acc[l]);
      }
    }
  }
  float blocks[kBlock];
  for (uint32_t b = 0; b < kBlock; ++b) blocks[b] = LaneMax(acc + b * kBlock, kBlock);
  return LaneMax(blocks, kBlock);
}

// ReduceMaxLastNDImpl for one row (v220 softmax_common_nd_reduce.h; SoftmaxFlash's update,
// softmax_flash_nd_process_impl.h), each binary Max with its source operand order:
// AlignedReduceMaxNDImpl: chunk 0's BlockReduceMax (its 8 block maxima) copied to acc, then per
// chunk c >= 1 its BlockReduceMax and Max(acc, acc, chunk c's), then acc's BlockReduceMax; the
// tail (ReduceMaxLastNDSplitImpl, one WholeReduceMax masked to k % 64 lanes) alone when there is
// no chunk, else Max(row, row, tail). The lane reductions as LaneMax.
float ReduceMaxLastNd(const float* row, uint32_t k) {
  const uint32_t chunks = k / kLanes, tail = k % kLanes;
  float m = 0.0f;
  if (chunks != 0) {
    float acc[kBlock];
    for (uint32_t b = 0; b < kBlock; ++b) acc[b] = LaneMax(row + b * kBlock, kBlock);
    for (uint32_t c = 1; c < chunks; ++c) {
      for (uint32_t b = 0; b < kBlock; ++b) {
        acc[b] = Max2(acc[b], LaneMax(row + c * kLanes + b * kBlock, kBlock));
      }
    }
    m = LaneMax(acc, kBlock);
  }
  if (tail == 0) return m;
  const float t = LaneMax(row + chunks * kLanes, tail);
  return chunks == 0 ? t : Max2(m, t);
}

template <class T>
float Widen(T v) {
  return ToFloat(v);
}

// A float result stored as T by FLOAT2HALF_ROUND_MODE.
template <class T>
T Store(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalfRoundAway(v);
  } else {
    return v;
  }
}

// The split loop of SoftMaxNDExtImpl / SoftMaxNDImpl / LogSoftMaxNDImpl (`i <= rangeM`, the
// tail entered after split rangeM - 1): body(offset1, offset2, rows).
template <class Body>
void ForEachSplit(const SmxTiling& t, Body body) {
  uint32_t offset1 = 0, offset2 = 0, rows = t.splitM;
  for (uint32_t i = 0; i <= t.rangeM; ++i) {
    body(offset1, offset2, rows);
    offset1 += t.splitSize;
    offset2 += t.reduceSize;
    if (i == t.rangeM - 1) {
      if (t.tailM == 0) break;
      offset1 = t.rangeM * t.splitSize;
      offset2 = t.rangeM * t.reduceSize;
      rows = t.tailM;
    }
  }
}

// One row in float: x (srcK widened values) -> (x - max) -> exp, in place; returns max and sum
// of the first oriK columns. basic: SoftMaxBasicBlock's max (KitBasicRowMax) and
// BasicBlockAddImpl's sum (chunk 0 + chunk 1, then every further chunk; no BlockReduce start for
// long rows). rows: the rows of the split (NextBlockMaxImpl's and BasicBlockMaxImpl's operand
// order); v200: the 2002 Adds (not in the basic block's max).
void ExpRow(std::vector<float>& x, uint32_t oriK, float* max, float* sum, bool basic = false,
            uint32_t rows = 1, bool v200 = false) {
  *max = basic ? KitBasicRowMax(x.data(), oriK, rows) : KitRowMax(x.data(), oriK, rows, v200);
  for (float& v : x) v = v - *max;
  for (float& v : x) v = ExpF(v);
  *sum = RowReduce(x.data(), oriK, Sum2, 0.0f, basic);
}

template <class T>
std::vector<float> LoadRow(const T* src, uint32_t n) {
  std::vector<float> x(n);
  for (uint32_t c = 0; c < n; ++c) x[c] = Widen(src[c]);
  return x;
}

template <class S>
void StoreStat(S* dst, uint32_t n, float v) {
  for (uint32_t j = 0; j < n; ++j) dst[j] = Store<S>(v);
}

}  // namespace

Half FloatToHalfRoundAway(float f) {
  uint32_t b = Bits(f);
  const uint16_t sign = static_cast<uint16_t>((b >> 16) & 0x8000u);
  b &= 0x7FFFFFFFu;
  if (b > 0x7F800000u) return Half{static_cast<uint16_t>(sign | 0x7E00u)};
  const float a = FromBits(b);
  if (a >= 65520.0f) return Half{static_cast<uint16_t>(sign | 0x7C00u)};  // 65520: tie -> away
  if (a < 0x1p-14f) {             // subnormal range: units of 2^-24
    const float q = a * 0x1p24f;  // exact
    const float n = std::floor(q);
    const uint32_t u = static_cast<uint32_t>(n) + ((q - n) >= 0.5f ? 1u : 0u);
    return Half{static_cast<uint16_t>(sign | u)};
  }
  const uint32_t rebased = b - (112u << 23);  // exponent bias 127 -> 15
  return Half{static_cast<uint16_t>(sign | ((rebased + 0x1000u) >> 13))};
}

float SmxRowSum(const float* row, uint32_t k) { return RowReduce(row, k, Sum2, 0.0f); }
float SmxRowMax(const float* row, uint32_t k) { return RowReduce(row, k, Max2, -INFINITY); }
float SmxKitRowMax(const float* row, uint32_t k, uint32_t rows, bool v200) {
  return KitRowMax(row, k, rows, v200);
}

// ReduceSumLastNDImpl: AlignedReduceSumNDImpl keeps eight block sums per row (chunk 0's, then
// tmp = chunk c's block sums and acc = acc + tmp), their block tree; the tail's masked
// WholeReduceSum (masked lanes +0) added last (acc + tail), or alone when k < 64.
float SmxGradRowSum(const float* row, uint32_t k) {
  const uint32_t chunks = k / kLanes, tail = k % kLanes;
  float blocks[kBlock] = {};
  for (uint32_t c = 0; c < chunks; ++c) {
    for (uint32_t b = 0; b < kBlock; ++b) {
      const float s = Tree(row + c * kLanes + b * kBlock, kBlock, Sum2);
      blocks[b] = c == 0 ? s : blocks[b] + s;
    }
  }
  float tailSum = 0.0f;
  if (tail != 0) {
    float lanes[kLanes];
    for (uint32_t l = 0; l < kLanes; ++l) lanes[l] = l < tail ? row[chunks * kLanes + l] : 0.0f;
    tailSum = Tree(lanes, kLanes, Sum2);
  }
  if (chunks == 0) return tailSum;
  const float main = Tree(blocks, kBlock, Sum2);
  return tail == 0 ? main : main + tailSum;
}

template <class T, class S>
void ReplaySoftMax(const SmxTiling& t, uint32_t oriK, const T* src, T* dst, S* sum, S* max,
                   bool basic, bool v200) {
  auto rowsOf = [&](uint32_t offset1, uint32_t offset2, uint32_t rows) {
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t o1 = offset1 + r * t.srcK, o2 = offset2 + r * t.reduceK;
      std::vector<float> x = LoadRow(src + o1, t.srcK);
      float mx = 0, s = 0;
      ExpRow(x, basic ? t.splitK : oriK, &mx, &s, basic, rows, v200);
      StoreStat(max + o2, t.reduceK, mx);
      StoreStat(sum + o2, t.reduceK, s);
      // v200's generic loop ends with TransDivToMulImpl: 1 / sum (Duplicate, Div), then a Mul
      // (session 20, s2k: this replay divided there before, a misreading of
      // softmax_generic_nd_impl.h's 2002 branch).
      const float inv = 1.0f / s;
      for (uint32_t c = 0; c < t.srcK; ++c) {
        dst[o1 + c] = Store<T>(v200 && !basic ? x[c] * inv : x[c] / s);
      }
    }
  };
  if (!basic) {
    ForEachSplit(t, rowsOf);
    return;
  }
  for (uint32_t i = 0; i < t.rangeM; ++i) rowsOf(i * t.splitSize, i * t.reduceSize, t.splitM);
}

template <class T>
void ReplaySoftMaxNoStats(const SmxTiling& t, uint32_t oriK, T* src, T* dst, bool isReuseSource) {
  ForEachSplit(t, [&](uint32_t offset1, uint32_t, uint32_t rows) {
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t o1 = offset1 + r * t.srcK;
      std::vector<float> x = LoadRow(src + o1, t.srcK);
      float mx = 0, s = 0;
      ExpRow(x, oriK, &mx, &s, false, rows);
      if constexpr (std::is_same_v<T, float>) {
        if (isReuseSource) std::memcpy(src + o1, x.data(), t.srcK * sizeof(float));
      }
      for (uint32_t c = 0; c < t.srcK; ++c) dst[o1 + c] = Store<T>(x[c] / s);
    }
  });
}

// SimpleSoftMaxNDImpl: float is one pass over all srcM rows; half loops rangeM splits, then the
// tail, with statistics at i * reduceSize (half) or i * reduceM * 8 (float statistics). The
// GenericSub/DivNDImpl block strides give column c of row r the statistic at
// r * reduceK + c % 8 (the row's first 32-byte block of floats, lane by lane).
template <class T, class S>
void ReplaySimpleSoftMax(const SmxTiling& t, const T* src, const S* inSum, const S* inMax, T* dst) {
  auto rowsOf = [&](uint32_t offset1, uint32_t offset2, uint32_t rows) {
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t o1 = offset1 + r * t.srcK, o2 = offset2 + r * t.reduceK;
      for (uint32_t c = 0; c < t.srcK; ++c) {
        const float e = ExpF(Widen(src[o1 + c]) - Widen(inMax[o2 + c % kBlock]));
        dst[o1 + c] = Store<T>(e / Widen(inSum[o2 + c % kBlock]));
      }
    }
  };
  if constexpr (std::is_same_v<T, float>) {
    rowsOf(0, 0, t.srcM);
  } else {
    const uint32_t statStep = std::is_same_v<S, float> ? t.reduceM * kBlock : t.reduceSize;
    for (uint32_t i = 0; i < t.rangeM; ++i) rowsOf(i * t.splitSize, i * statStep, t.splitM);
    if (t.tailM != 0) rowsOf(t.rangeM * t.splitSize, t.rangeM * statStep, t.tailM);
  }
}

template <class T>
void ReplayLogSoftMax(uint32_t m, uint32_t srcK, uint32_t oriK, const T* src, T* dst, T* sum,
                      T* max) {
  const uint32_t reduceK = 32 / sizeof(T);
  for (uint32_t r = 0; r < m; ++r) {
    std::vector<float> x = LoadRow(src + r * srcK, srcK);
    float mx = 0, s = 0;
    ExpRow(x, oriK, &mx, &s, false, m);  // the kernel's split not replayed: see the header
    StoreStat(max + r * reduceK, reduceK, mx);
    StoreStat(sum + r * reduceK, reduceK, s);
    for (uint32_t c = 0; c < srcK; ++c) {
      const float q = x[c] / s;
      dst[r * srcK + c] = Store<T>(LnF(q) * kLog10E);
    }
  }
}

template <class T>
void ReplaySoftmaxGrad(const SmxTiling& t, uint32_t oriK, const T* grad, const T* src, T* dst,
                       bool isFront, bool basic) {
  auto rowsOf = [&](uint32_t offset1, uint32_t offset2, uint32_t rows, bool basicSplit) {
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t o1 = offset1 + r * t.srcK;
      const std::vector<float> g = LoadRow(grad + o1, t.srcK), y = LoadRow(src + o1, t.srcK);
      std::vector<float> p(t.srcK);
      for (uint32_t c = 0; c < t.srcK; ++c) p[c] = y[c] * g[c];
      const float s = basicSplit ? RowReduce(p.data(), t.splitK, Sum2, 0.0f, true)
                                 : SmxGradRowSum(p.data(), oriK);
      if (isFront) {
        StoreStat(dst + offset2 + r * t.reduceK, t.reduceK, s);
        continue;
      }
      for (uint32_t c = 0; c < t.srcK; ++c) dst[o1 + c] = Store<T>((g[c] - s) * y[c]);
    }
  };
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    rowsOf(i * t.splitSize, i * t.reduceSize, t.splitM, basic);
  }
  if (t.tailM != 0) rowsOf(t.rangeM * t.splitSize, t.rangeM * t.reduceSize, t.tailM, false);
}

namespace {

// One row of the FlashV2 update (the row's statistics at stat[0, reduceK)); x holds the row in
// float and is left with exp(x - max). Computes in float; the caller stores.
struct FlashStats {
  std::vector<float> max, expMax, expSum;
};

// BasicBlockReduceSumImpl of softmax_flashv2_block_reduce_impl.h for one row of k values.
float FlashV2BasicSum(const float* x, uint32_t k) {
  constexpr uint32_t kSpecial = 1024;  // SOFTMAX_SPECIAL_BASICBLOCK_LEN
  if (k == kBigReduce || k == kSpecial) {
    float chunk[kSpecial / kLanes], lanes[kBlock];
    for (uint32_t c = 0; c < k / kLanes; ++c) chunk[c] = Tree(x + c * kLanes, kLanes, Sum2);
    for (uint32_t l = 0; l < kBlock; ++l) {
      lanes[l] = k == kBigReduce ? chunk[l] : chunk[l] + chunk[l + kBlock];
    }
    return Tree(lanes, kBlock, Sum2);
  }
  return RowReduce(x, k, Sum2, 0.0f, k <= kBigReduce);
}

FlashStats FlashUpdateRow(std::vector<float>& x, uint32_t oriK, const std::vector<float>& inMax,
                          const std::vector<float>& inExpSum, bool basic, uint32_t rows,
                          bool v200 = false) {
  const uint32_t n = static_cast<uint32_t>(inMax.size());
  FlashStats f{std::vector<float>(n), std::vector<float>(n), std::vector<float>(n)};
  const float rm = KitRowMax(x.data(), oriK, rows, v200);
  for (uint32_t j = 0; j < n; ++j) f.max[j] = Max2(inMax[j], rm);
  for (uint32_t c = 0; c < x.size(); ++c) x[c] = ExpF(x[c] - f.max[c % kBlock]);
  const float s = basic ? FlashV2BasicSum(x.data(), static_cast<uint32_t>(x.size()))
                        : RowReduce(x.data(), oriK, Sum2, 0.0f);
  for (uint32_t j = 0; j < n; ++j) {
    f.expMax[j] = ExpF(inMax[j] - f.max[j]);
    f.expSum[j] = f.expMax[j] * inExpSum[j] + s;
  }
  return f;
}

template <class S>
std::vector<float> LoadStats(const S* p, uint32_t n) {
  return LoadRow(p, n);
}

}  // namespace

template <class T, class S>
void ReplaySoftmaxFlashV2(const SmxTiling& t, uint32_t oriK, bool isUpdate, const T* src, T* dst,
                          S* expSum, S* max, T* expMax, const S* inExpSum, const S* inMax,
                          bool basic, bool v200) {
  auto rowsOf = [&](uint32_t offset1, uint32_t offset2, uint32_t rows) {
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t o1 = offset1 + r * t.srcK, o2 = offset2 + r * t.reduceK;
      std::vector<float> x = LoadRow(src + o1, t.srcK);
      if (!isUpdate) {
        float mx = 0, s = 0;
        ExpRow(x, oriK, &mx, &s, false, rows, v200);
        if (basic) s = FlashV2BasicSum(x.data(), t.splitK);
        StoreStat(max + o2, t.reduceK, mx);
        StoreStat(expSum + o2, t.reduceK, s);
      } else {
        const FlashStats f = FlashUpdateRow(x, oriK, LoadStats(inMax + o2, t.reduceK),
                                            LoadStats(inExpSum + o2, t.reduceK), basic, rows, v200);
        // 2002's float update stores max by Adds(.., 0) (softmax_flashv2_update_impl.h).
        const bool adds = v200 && std::is_same_v<T, float>;
        for (uint32_t j = 0; j < t.reduceK; ++j) {
          max[o2 + j] = Store<S>(adds ? f.max[j] + 0.0f : f.max[j]);
          expSum[o2 + j] = Store<S>(f.expSum[j]);
        }
        if constexpr (std::is_same_v<T, Half> && std::is_same_v<S, float>) {
          for (uint32_t l = 0; l < 16; ++l) {
            expMax[offset2 * 2 + r * 16 + l] = Store<T>(f.expMax[l % kBlock]);
          }
        } else {
          for (uint32_t j = 0; j < t.reduceK; ++j) expMax[o2 + j] = Store<T>(f.expMax[j]);
        }
      }
      for (uint32_t c = 0; c < t.srcK; ++c) dst[o1 + c] = Store<T>(x[c]);
    }
  };
  if (!basic) {
    ForEachSplit(t, rowsOf);
    return;
  }
  for (uint32_t i = 0; i < t.rangeM; ++i) rowsOf(i * t.splitSize, i * t.reduceSize, t.splitM);
}

template void ReplaySoftmaxFlashV2<float, float>(const SmxTiling&, uint32_t, bool, const float*,
                                                 float*, float*, float*, float*, const float*,
                                                 const float*, bool, bool);
template void ReplaySoftmaxFlashV2<Half, Half>(const SmxTiling&, uint32_t, bool, const Half*, Half*,
                                               Half*, Half*, Half*, const Half*, const Half*, bool,
                                               bool);
template void ReplaySoftmaxFlashV2<Half, float>(const SmxTiling&, uint32_t, bool, const Half*,
                                                Half*, float*, float*, Half*, const float*,
                                                const float*, bool, bool);
template <class T>
void ReplaySoftmaxFlash(const SmxTiling& t, uint32_t oriK, bool isUpdate, const T* src, T* dst,
                        T* sum, T* max, T* expMax, const T* inSum, const T* inMax) {
  if (!isUpdate) {
    ReplaySoftMax(t, oriK, src, dst, sum, max);
    return;
  }
  auto rowsOf = [&](uint32_t offset1, uint32_t offset2, uint32_t rows) {
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t o1 = offset1 + r * t.srcK, o2 = offset2 + r * t.reduceK;
      std::vector<float> e = LoadRow(src + o1, t.srcK);
      const std::vector<float> im = LoadRow(inMax + o2, t.reduceK),
                               is = LoadRow(inSum + o2, t.reduceK);
      const float rm = ReduceMaxLastNd(e.data(), oriK);
      for (float& v : e) v = ExpF(v - rm);
      const float s = SmxGradRowSum(e.data(), oriK);
      std::vector<float> a(t.reduceK);
      for (uint32_t j = 0; j < t.reduceK; ++j) {
        const float mx = Max2(im[j], rm);
        const float b = ExpF(im[j] - mx) * is[j];
        a[j] = ExpF(rm - mx);
        const float total = b + a[j] * s;
        max[o2 + j] = Store<T>(mx);
        expMax[o2 + j] = Store<T>(b / total);
        sum[o2 + j] = Store<T>(total);
        a[j] = a[j] / total;
      }
      for (uint32_t c = 0; c < t.srcK; ++c) dst[o1 + c] = Store<T>(e[c] * a[c % kBlock]);
    }
  };
  for (uint32_t i = 0; i < t.rangeM; ++i) rowsOf(i * t.splitSize, i * t.reduceSize, t.splitM);
  if (t.tailM != 0) rowsOf(t.rangeM * t.splitSize, t.rangeM * t.reduceSize, t.tailM);
}

template void ReplaySoftmaxFlash<float>(const SmxTiling&, uint32_t, bool, const float*, float*,
                                        float*, float*, float*, const float*, const float*);
template void ReplaySoftmaxFlash<Half>(const SmxTiling&, uint32_t, bool, const Half*, Half*, Half*,
                                       Half*, Half*, const Half*, const Half*);
template <class T, class S>
bool ReplayAdjustSoftMaxRes(uint32_t m, uint32_t k, T* res, const S* max, uint32_t from, T to,
                            bool stepSizeMode) {
  const uint32_t step = stepSizeMode ? 1 : 32 / sizeof(S);
  bool any = false;
  for (uint32_t r = 0; r < m; ++r) {
    S v = max[r * step];
    uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    const uint32_t want = sizeof(S) == 2 ? (from & 0xFFFFu) : from;
    if (bits != want) continue;
    for (uint32_t c = 0; c < k; ++c) res[r * k + c] = to;
    any = true;
  }
  return any;
}

template bool ReplayAdjustSoftMaxRes<float, float>(uint32_t, uint32_t, float*, const float*,
                                                   uint32_t, float, bool);
template bool ReplayAdjustSoftMaxRes<Half, Half>(uint32_t, uint32_t, Half*, const Half*, uint32_t,
                                                 Half, bool);
template bool ReplayAdjustSoftMaxRes<Half, float>(uint32_t, uint32_t, Half*, const float*, uint32_t,
                                                  Half, bool);
namespace {

// ModifyInputImpl on one row (x: the row in float, modified in place); returns meanTmp.
float V3ModifyInput(std::vector<float>& x, uint32_t oriK, float alpha) {
  const uint32_t baseK = oriK / kBlock, chunks = oriK / kLanes, tail = oriK % kLanes;
  float acc[kLanes], local[kBlock], shift[kBlock];
  for (uint32_t l = 0; l < kLanes; ++l) acc[l] = Tree(x.data() + l * kBlock, kBlock, Sum2);
  for (uint32_t c = kBigReduce / kLanes; c < chunks; ++c) {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = x[c * kLanes + l] + acc[l];
  }
  for (uint32_t l = 0; l < tail; ++l) acc[l] = acc[l] + x[chunks * kLanes + l];
  for (uint32_t b = 0; b < kBlock; ++b) local[b] = Tree(acc + b * kBlock, kBlock, Sum2);
  if (baseK != 0) {
    for (float& v : local) v = v * (1.0f / static_cast<float>(baseK));
  }
  const float meanTmp = Tree(local, kBlock, Sum2) * (1.0f / kBlock);
  const float scale = alpha / (1.0f - alpha);
  for (uint32_t b = 0; b < kBlock; ++b) shift[b] = (meanTmp - local[b]) * scale;
  for (uint32_t c = 0; c < x.size(); ++c) x[c] = x[c] - shift[c / baseK];
  return meanTmp;
}

// The update's statistics of one row (lane j of st's tensors at o2 + j), in the source's
// order; shiftCurr and the exp of (inMax - max) + shiftPrev come back for the row.
void V3UpdateStats(const FlashV3Stats& st, uint32_t o2, float meanTmp, float rowMax,
                   uint32_t loopCnt, float alpha, float* shiftCurr, float* em) {
  const float scale = alpha / (1.0f - alpha);
  float shiftPrev[kBlock], maxTmp[kBlock];
  for (uint32_t j = 0; j < kBlock; ++j) {
    float* mean = st.mean + o2 + j;
    *mean = st.inMean[o2 + j] * (static_cast<float>(loopCnt) - 1.0f);
    *mean = *mean + meanTmp;
    *mean = *mean * (1.0f / static_cast<float>(loopCnt));
  }
  for (uint32_t j = 0; j < kBlock; ++j) {
    shiftCurr[j] = (meanTmp - st.mean[o2 + j]) * scale;
    st.max[o2 + j] = rowMax + shiftCurr[j];
  }
  for (uint32_t j = 0; j < kBlock; ++j) {
    shiftPrev[j] = (st.inMean[o2 + j] - st.mean[o2 + j]) * scale;
    maxTmp[j] = st.inMax[o2 + j] + shiftPrev[j];
  }
  for (uint32_t j = 0; j < kBlock; ++j) st.max[o2 + j] = Max2(st.max[o2 + j], maxTmp[j]);
  for (uint32_t j = 0; j < kBlock; ++j) em[j] = st.inMax[o2 + j] - st.max[o2 + j];
  for (uint32_t j = 0; j < kBlock; ++j) em[j] = ExpF(shiftPrev[j] + em[j]);
  for (uint32_t j = 0; j < kBlock; ++j) st.expSum[o2 + j] = em[j] * st.inExpSum[o2 + j];
  for (uint32_t j = 0; j < kBlock; ++j) shiftCurr[j] = st.max[o2 + j] - shiftCurr[j];
}

}  // namespace

void ReplaySoftmaxFlashV3(const SmxTiling& t, uint32_t oriK, uint32_t loopCnt, float alpha,
                          bool isUpdate, const Half* src, Half* dst, Half* expMax,
                          const FlashV3Stats& st) {
  auto rowsOf = [&](uint32_t offset1, uint32_t offset2, uint32_t rows) {
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t o1 = offset1 + r * t.srcK, o2 = offset2 + r * kBlock;
      std::vector<float> x = LoadRow(src + o1, t.srcK);
      const float meanTmp = V3ModifyInput(x, oriK, alpha);
      float shiftCurr[kBlock], em[kBlock];
      if (!isUpdate) {
        for (uint32_t j = 0; j < kBlock; ++j) st.mean[o2 + j] = meanTmp;
      }
      // NewReduceMaxLastNDImpl (softmax_flashv3_impl.h), its instruction order (session 20).
      const float rm = KitRowMax(x.data(), oriK, rows, false);
      if (isUpdate) {
        V3UpdateStats(st, o2, meanTmp, rm, loopCnt, alpha, shiftCurr, em);
      } else {
        for (uint32_t j = 0; j < kBlock; ++j) {
          shiftCurr[j] = (meanTmp - st.mean[o2 + j]) * (alpha / (1.0f - alpha));
          st.max[o2 + j] = rm + shiftCurr[j];
          shiftCurr[j] = st.max[o2 + j] - shiftCurr[j];
        }
      }
      for (uint32_t c = 0; c < t.srcK; ++c) x[c] = ExpF(x[c] - shiftCurr[c % kBlock]);
      for (uint32_t c = 0; c < t.srcK; ++c) dst[o1 + c] = FloatToHalfRoundAway(x[c]);
      const float s = RowReduce(x.data(), oriK, Sum2, 0.0f);
      for (uint32_t j = 0; j < kBlock; ++j) {
        st.expSum[o2 + j] = isUpdate ? st.expSum[o2 + j] + s : s;
      }
      for (uint32_t l = 0; isUpdate && l < 2 * kBlock; ++l) {
        expMax[offset2 * 2 + r * 2 * kBlock + l] = FloatToHalfRoundAway(em[l % kBlock]);
      }
    }
  };
  for (uint32_t i = 0; i < t.rangeM; ++i) rowsOf(i * t.splitSize, i * t.reduceSize, t.splitM);
  if (t.tailM != 0) rowsOf(t.rangeM * t.splitSize, t.rangeM * t.reduceSize, t.tailM);
}

template void ReplaySoftmaxGrad<float>(const SmxTiling&, uint32_t, const float*, const float*,
                                       float*, bool, bool);
template void ReplaySoftmaxGrad<Half>(const SmxTiling&, uint32_t, const Half*, const Half*, Half*,
                                      bool, bool);
template void ReplaySoftMax<float, float>(const SmxTiling&, uint32_t, const float*, float*, float*,
                                          float*, bool, bool);
template void ReplaySoftMax<Half, Half>(const SmxTiling&, uint32_t, const Half*, Half*, Half*,
                                        Half*, bool, bool);
template void ReplaySoftMax<Half, float>(const SmxTiling&, uint32_t, const Half*, Half*, float*,
                                         float*, bool, bool);
template void ReplaySoftMaxNoStats<float>(const SmxTiling&, uint32_t, float*, float*, bool);
template void ReplaySoftMaxNoStats<Half>(const SmxTiling&, uint32_t, Half*, Half*, bool);
template void ReplaySimpleSoftMax<float, float>(const SmxTiling&, const float*, const float*,
                                                const float*, float*);
template void ReplaySimpleSoftMax<Half, Half>(const SmxTiling&, const Half*, const Half*,
                                              const Half*, Half*);
template void ReplaySimpleSoftMax<Half, float>(const SmxTiling&, const Half*, const float*,
                                               const float*, Half*);
template void ReplayLogSoftMax<float>(uint32_t, uint32_t, uint32_t, const float*, float*, float*,
                                      float*);
template void ReplayLogSoftMax<Half>(uint32_t, uint32_t, uint32_t, const Half*, Half*, Half*,
                                     Half*);

}  // namespace lngrad_replay
