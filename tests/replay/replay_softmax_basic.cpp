// The 2201 basic-block paths of SoftmaxFlash (softmax_flash_base_impl/
// softmax_flash_basic_block_impl.h: SoftmaxFlashBasicBlock, SoftmaxFlashBasicBlockFloat, reached
// from softmax_flash_nd_process_impl.h) and of SoftmaxFlashV2's M1 mode (membase/v220/
// softmax_flashv2_impl.h: SoftmaxFlashV2M1NoUpdateBasicBlock, SoftmaxFlashV2M1BasicBlockImpl,
// with BasicBlockReduce{Max,Sum}Impl of softmax_flashv2_block_reduce_impl.h), replayed from a
// reading of that source made for this file, instruction by instruction over scalar lanes; and
// SoftmaxFlashV2's broadcast-mode basic-block path (softmax_flashv2_basic_block_impl.h). None of
// them reads oriSrcK: every srcK column takes part, as on the device. No
// code shared with src/, include/ascendc/adv or the other replay files. Built with
// lngrad_strict_fp: every float operation rounds alone.
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;  // floats per repeat (FLOAT_REPEAT_SIZE)
constexpr uint32_t kBlk = 8;   // floats per 32-byte block (FLOAT_NUM_PER_BLK)

float Add(float a, float b) { return a + b; }
float Max(float a, float b) { return a > b ? a : b; }  // vmax, src0 first
float Exp(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

// One BlockReduce block: ((v0 op v1) op (v2 op v3)) op ((v4 op v5) op (v6 op v7)).
template <class Op>
float Block(const float* v, Op op) {
  const float a = op(op(v[0], v[1]), op(v[2], v[3]));
  const float b = op(op(v[4], v[5]), op(v[6], v[7]));
  return op(a, b);
}

// BlockReduce twice over a row's 64-lane accumulator: the eight block results, then their block.
template <class Op>
float TwoLevels(const float* acc, Op op) {
  float blocks[kBlk];
  for (uint32_t b = 0; b < kBlk; ++b) blocks[b] = Block(acc + b * kBlk, op);
  return Block(blocks, op);
}

// The accumulator of SoftmaxFlashBasicBlock's Max/Add loop (and BasicBlockMaxImpl /
// BasicBlockAddImpl): chunk 0 op chunk 1 into the accumulator, then acc op chunk j for j >= 2; a
// single chunk is copied.
template <class Op>
void ChunkFold(const float* row, uint32_t k, Op op, float* acc) {
  const uint32_t chunks = k / kRep;
  if (chunks == 1) {
    std::memcpy(acc, row, kRep * sizeof(float));
    return;
  }
  for (uint32_t l = 0; l < kRep; ++l) acc[l] = op(row[l], row[kRep + l]);
  for (uint32_t j = 2; j < chunks; ++j) {
    for (uint32_t l = 0; l < kRep; ++l) acc[l] = op(acc[l], row[j * kRep + l]);
  }
}

template <class Op>
float FlashBasicReduce(const float* row, uint32_t k, Op op) {
  float acc[kRep];
  ChunkFold(row, k, op, acc);
  return TwoLevels(acc, op);
}

// BasicBlockReduce{Sum,Max}Impl (6 arguments) for one row of k values, k a multiple of 64:
// k = 512: BlockReduce of every block, of each chunk's eight, then of the eight chunks; k = 1024:
// the same two levels, chunk l op chunk l + 8, then the block; one chunk: two levels;
// k > 512: BigBlockReduce (lane l = the block of row[8l, 8l + 8), then chunk j op into it for
// j >= 8) and two levels; else ChunkFold and two levels.
template <class Op>
float V2BasicReduce(const float* row, uint32_t k, Op op) {
  const uint32_t chunks = k / kRep;
  if (k == 512 || k == 1024) {
    float chunk[16];
    for (uint32_t c = 0; c < chunks; ++c) chunk[c] = TwoLevels(row + c * kRep, op);
    if (k == 1024) {
      for (uint32_t l = 0; l < kBlk; ++l) chunk[l] = op(chunk[l], chunk[l + kBlk]);
    }
    return Block(chunk, op);
  }
  float acc[kRep];
  if (chunks > 1 && k > 512) {
    for (uint32_t l = 0; l < kRep; ++l) acc[l] = Block(row + l * kBlk, op);
    for (uint32_t j = 8; j < chunks; ++j) {
      for (uint32_t l = 0; l < kRep; ++l) acc[l] = op(row[j * kRep + l], acc[l]);
    }
    return TwoLevels(acc, op);
  }
  ChunkFold(row, k, op, acc);
  return TwoLevels(acc, op);
}

template <class T>
std::vector<float> Widened(const T* p, uint32_t n) {
  std::vector<float> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = ToFloat(p[i]);
  return v;
}

// Cast<half, float> with FLOAT2HALF_ROUND_MODE, or a float copy.
template <class T>
T Out(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalfRoundAway(v);
  } else {
    return v;
  }
}

// One row of SoftmaxFlashBasicBlock[Float] (row = the split's row, o1/o2 its offsets); returns
// the row's results in float (the caller stores them to src or dst).
template <class T, class S>
std::vector<float> FlashBasicRow(const SmxTiling& t, const FlashIo<T, S>& io, uint32_t o1,
                                 uint32_t o2) {
  constexpr uint32_t ls = 32 / sizeof(S), le = 32 / sizeof(T);
  std::vector<float> x = Widened(io.src + o1, t.splitK);
  const float rowMax = FlashBasicReduce(x.data(), t.splitK, Max);  // Brcb: every lane
  for (float& v : x) v = Exp(v - rowMax);
  const float rowSum = FlashBasicReduce(x.data(), t.splitK, Add);
  for (float& v : x) v = v / rowSum;
  // Counter mode over the statistics' lanes (tmpBuffer2 = max, tmpBuffer3, inMaxTmp, inSumTmp).
  std::vector<float> scale(ls), em(ls);
  for (uint32_t l = 0; l < ls; ++l) {
    float inMax = ToFloat(io.inMax[o2 + l]);
    const float mx = Max(inMax, rowMax);
    io.max[o2 + l] = Out<S>(mx);
    float t3 = Exp(rowMax - mx);
    inMax = Exp(inMax - mx);
    const float inSum = ToFloat(io.inSum[o2 + l]);
    inMax = inMax * inSum;
    t3 = t3 * rowSum;
    const float total = inMax + t3;
    em[l] = inMax / total;
    io.sum[o2 + l] = Out<S>(total);
    scale[l] = t3 / total;
  }
  // expMax: [rows, 32 B] of T; half with float statistics takes the 8 lanes twice (Copy with
  // dstStride 2 in two repeats, then the Cast).
  const uint32_t row = o2 / ls;
  for (uint32_t l = 0; l < le; ++l) io.expMax[row * le + l] = Out<T>(em[l % ls]);
  // Mul with src1 block stride 0: column c takes lane c % 8 of its row.
  for (uint32_t c = 0; c < t.splitK; ++c) x[c] = x[c] * scale[c % kBlk];
  return x;
}

}  // namespace

template <class T, class S>
void ReplaySoftmaxFlashBasic(const SmxTiling& t, const FlashIo<T, S>& io) {
  constexpr uint32_t ls = 32 / sizeof(S);
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    for (uint32_t r = 0; r < t.splitM; ++r) {
      const uint32_t o1 = i * t.splitSize + r * t.splitK, o2 = (i * t.splitM + r) * ls;
      const std::vector<float> y = FlashBasicRow(t, io, o1, o2);
      T* out = std::is_same_v<T, float> ? io.src : io.dst;  // the float form writes into src
      for (uint32_t c = 0; c < t.splitK; ++c) out[o1 + c] = Out<T>(y[c]);
    }
  }
}

template void ReplaySoftmaxFlashBasic<float, float>(const SmxTiling&, const FlashIo<float, float>&);
template void ReplaySoftmaxFlashBasic<Half, Half>(const SmxTiling&, const FlashIo<Half, Half>&);
template void ReplaySoftmaxFlashBasic<Half, float>(const SmxTiling&, const FlashIo<Half, float>&);

namespace {

// The broadcast mode's statistics after the row's max (every lane of the row, reduceK of S):
// no update the Brcb of rowMax; update lane l: Max(inMax_l (the copy), rowMax), then
// exp(inMax_l - max_l). Returns (max, expMax) in float; max is stored here.
template <class T, class S>
void V2BasicStats(bool isUpdate, const FlashIo<T, S>& io, uint32_t o2, float rowMax,
                  std::vector<float>& mx, std::vector<float>& em) {
  constexpr uint32_t ls = 32 / sizeof(S);
  for (uint32_t l = 0; l < ls; ++l) {
    const float inMax = isUpdate ? ToFloat(io.inMax[o2 + l]) : 0.0f;
    mx[l] = isUpdate ? Max(inMax, rowMax) : rowMax;
    em[l] = isUpdate ? Exp(inMax - mx[l]) : 0.0f;
  }
  for (uint32_t l = 0; l < ls; ++l) io.max[o2 + l] = Out<S>(mx[l]);
}

// One row of softmax_flashv2_basic_block_impl.h (SoftmaxFlashV2BasicBlock[Impl],
// SoftmaxFlashV2NoUpdateBasicBlock): o1/o2 the row's data and statistics offsets.
template <class T, class S>
void V2BasicRow(const SmxTiling& t, bool isUpdate, const FlashIo<T, S>& io, uint32_t o1,
                uint32_t o2) {
  constexpr uint32_t ls = 32 / sizeof(S), le = 32 / sizeof(T);
  constexpr bool kFloat = std::is_same_v<T, float>;
  std::vector<float> x = Widened(io.src + o1, t.splitK), mx(ls), em(ls);
  const float rowMax = V2BasicReduce(x.data(), t.splitK, Max);
  V2BasicStats(isUpdate, io, o2, rowMax, mx, em);
  // Sub with src1 block stride 0: column c takes lane c % 8 of the row's max.
  for (uint32_t c = 0; c < t.splitK; ++c) x[c] = x[c] - mx[c % kBlk];
  if (kFloat && !isUpdate) {  // Sub(src, src, max), then Exp(dst, src)
    for (uint32_t c = 0; c < t.splitK; ++c) io.src[o1 + c] = Out<T>(x[c]);
  }
  for (float& v : x) v = Exp(v);
  for (uint32_t c = 0; c < t.splitK; ++c) io.dst[o1 + c] = Out<T>(x[c]);
  const float s = V2BasicReduce(x.data(), t.splitK, Add);
  const uint32_t row = o2 / ls;
  for (uint32_t l = 0; isUpdate && l < le; ++l) io.expMax[row * le + l] = Out<T>(em[l % ls]);
  for (uint32_t l = 0; l < ls; ++l) {
    if (!isUpdate) {
      io.sum[o2 + l] = Out<S>(s);
      continue;
    }
    const float prod = em[l] * ToFloat(io.inSum[o2 + l]);
    if constexpr (kFloat) io.inSum[o2 + l] = prod;  // Mul(inExpSum, expMax, inExpSum)
    io.sum[o2 + l] = Out<S>(prod + s);
  }
}

}  // namespace

template <class T, class S>
void ReplayFlashV2Basic(const SmxTiling& t, bool isUpdate, const FlashIo<T, S>& io) {
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    for (uint32_t r = 0; r < t.splitM; ++r) {
      V2BasicRow(t, isUpdate, io, i * t.splitSize + r * t.splitK, i * t.reduceSize + r * t.reduceK);
    }
  }
}

template void ReplayFlashV2Basic<float, float>(const SmxTiling&, bool,
                                               const FlashIo<float, float>&);
template void ReplayFlashV2Basic<Half, Half>(const SmxTiling&, bool, const FlashIo<Half, Half>&);
template void ReplayFlashV2Basic<Half, float>(const SmxTiling&, bool, const FlashIo<Half, float>&);

// SoftmaxFlashV2M1PostProcess with isBasicBlock: rangeM splits, no tail. Half/half works on float
// copies of every operand (cast back at the end); float statistics are used in place.
template <class T, class S>
void ReplayFlashV2M1Basic(const SmxTiling& t, bool isUpdate, const FlashIo<T, S>& io) {
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    for (uint32_t r = 0; r < t.splitM; ++r) {
      const uint32_t o1 = i * t.splitSize + r * t.splitK, o2 = i * t.reduceM + r;
      std::vector<float> x = Widened(io.src + o1, t.splitK);
      const float rowMax = V2BasicReduce(x.data(), t.splitK, Max);
      float mx = rowMax, em = 0.0f, prod = 0.0f;
      if (isUpdate) {
        const float inMax = ToFloat(io.inMax[o2]);  // the backup copy
        mx = Max(inMax, rowMax);
        em = Exp(inMax - mx);
      }
      for (float& v : x) v = v - mx;  // BrcbSub
      if (!isUpdate && std::is_same_v<T, float>) {
        for (uint32_t c = 0; c < t.splitK; ++c) io.src[o1 + c] = Out<T>(x[c]);
      }
      for (float& v : x) v = Exp(v);
      const float s = V2BasicReduce(x.data(), t.splitK, Add);
      for (uint32_t c = 0; c < t.splitK; ++c) io.dst[o1 + c] = Out<T>(x[c]);
      if (isUpdate) {
        prod = em * ToFloat(io.inSum[o2]);
        if constexpr (std::is_same_v<S, float>) io.inSum[o2] = prod;
        io.expMax[o2] = Out<T>(em);
      }
      io.max[o2] = Out<S>(mx);
      io.sum[o2] = Out<S>(isUpdate ? prod + s : s);
    }
  }
}

template void ReplayFlashV2M1Basic<float, float>(const SmxTiling&, bool,
                                                 const FlashIo<float, float>&);
template void ReplayFlashV2M1Basic<Half, Half>(const SmxTiling&, bool, const FlashIo<Half, Half>&);
template void ReplayFlashV2M1Basic<Half, float>(const SmxTiling&, bool,
                                                const FlashIo<Half, float>&);

// ---- SimpleSoftMaxBasicBlock (membase/common/simple_softmax_common_impl.h, isBasicBlock on
// 2201): sfx4's reading (session 14), written before opening lngrad's simplesoftmax.h; a separate
// reading by the same helper who then changed lngrad. The Sub and Div take 64 * (splitK / 64)
// columns per repeat (their repeat stride, uint8 blocks), so with srcK not a multiple of 64 they
// step through the data at that stride, not srcK. Float data, the device branch (not
// ASCENDC_CPU_DEBUG): counter mode over srcM * 64 elements, Sub of splitBlock = srcK / 64 chunks
// of each row (rows at repeat stride uint8(srcK / 8) blocks) into dst, Exp over srcSize elements of
// dst (those the Sub did not write hold dst's old contents), Div on the Sub's elements. Half data:
// per split i < rangeM (the tail split is not computed), the split's uint8(splitSize / 64) * 64
// elements cast to float, the Sub over splitM repeats of 64 * (splitK / 64) columns (the
// statistics of repeat r: lane l % 8 of block r, as [rows, 16] halves cast to float, or [rows, 8]
// floats), Exp over them all, the Div likewise, cast back (FLOAT2HALF_ROUND_MODE).
template <class T, class S>
void ReplaySimpleSoftMaxBasic(const SmxTiling& t, const T* src, const S* inSum, const S* inMax,
                              T* dst) {
  if constexpr (std::is_same_v<T, float>) {
    const uint32_t chunks = t.srcK / kRep;
    const uint32_t stride = static_cast<uint8_t>(t.srcK / kBlk) * kBlk;
    for (uint32_t j = 0; j < chunks; ++j) {
      for (uint32_t r = 0; r < t.srcM; ++r) {
        for (uint32_t l = 0; l < kRep; ++l) {
          const uint64_t e = uint64_t{r} * stride + j * kRep + l;
          dst[e] = src[e] - ToFloat(inMax[r * kBlk + l % kBlk]);
        }
      }
    }
    for (uint32_t e = 0; e < t.srcSize; ++e) dst[e] = Exp(dst[e]);
    for (uint32_t j = 0; j < chunks; ++j) {
      for (uint32_t r = 0; r < t.srcM; ++r) {
        for (uint32_t l = 0; l < kRep; ++l) {
          const uint64_t e = uint64_t{r} * stride + j * kRep + l;
          dst[e] = dst[e] / ToFloat(inSum[r * kBlk + l % kBlk]);
        }
      }
    }
  } else {
    const uint32_t n = static_cast<uint8_t>(t.splitSize / kRep) * kRep;
    const uint32_t chunks = t.splitK / kRep;
    const uint32_t stride = static_cast<uint8_t>(kBlk * chunks) * kBlk;
    const uint32_t rows = static_cast<uint8_t>(t.splitM);
    constexpr uint32_t kStatStride = std::is_same_v<S, float> ? kBlk : 2 * kBlk;
    for (uint32_t i = 0; i < t.rangeM; ++i) {
      const uint64_t o1 = uint64_t{i} * t.splitSize;
      const uint64_t o2 =
          std::is_same_v<S, float> ? uint64_t{i} * t.reduceM * kBlk : uint64_t{i} * t.reduceSize;
      std::vector<float> w = Widened(src + o1, n);
      const auto apply = [&](const S* stat, bool div) {
        for (uint32_t j = 0; j < chunks; ++j) {
          for (uint32_t r = 0; r < rows; ++r) {
            for (uint32_t l = 0; l < kRep; ++l) {
              const uint64_t e = uint64_t{r} * stride + j * kRep + l;
              const float v = ToFloat(stat[o2 + r * kStatStride + l % kBlk]);
              w[e] = div ? w[e] / v : w[e] - v;
            }
          }
        }
      };
      apply(inMax, false);
      for (float& v : w) v = Exp(v);
      apply(inSum, true);
      for (uint32_t e = 0; e < n; ++e) dst[o1 + e] = Out<T>(w[e]);
    }
  }
}
template void ReplaySimpleSoftMaxBasic<float, float>(const SmxTiling&, const float*, const float*,
                                                     const float*, float*);
template void ReplaySimpleSoftMaxBasic<Half, Half>(const SmxTiling&, const Half*, const Half*,
                                                   const Half*, Half*);
template void ReplaySimpleSoftMaxBasic<Half, float>(const SmxTiling&, const Half*, const float*,
                                                    const float*, Half*);

}  // namespace lngrad_replay
