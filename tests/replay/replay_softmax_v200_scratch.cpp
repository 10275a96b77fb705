// lngrad_replay: the SoftMax family's 2002 generic loops over their tensors and work buffer; the
// files read and the instruction semantics taken: replay_softmax_v200_scratch.h.
#include "replay_softmax_v200_scratch.h"

#include <cmath>
#include <cstring>
#include <type_traits>

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;  // floats a repeat
constexpr uint32_t kBlk = 8;   // floats a 32-byte block

float Exp(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
float Ln(float x) { return static_cast<float>(std::log(static_cast<double>(x))); }
constexpr float kNatureLog10 = 0.4342944819f;  // SCALAR_NATURE_LOG_10

enum class Op { kMax, kSum };

// The device's binary Max (a > b ? a : b) and Add.
float Bin(Op op, float a, float b) { return op == Op::kSum ? a + b : (a > b ? a : b); }

// A WholeReduce / BlockReduce lane reduction over n lanes: max the first NaN, else the first
// largest; sum the adjacent-pair tree over 64 lanes (the masked ones +0) or over one block.
float Lanes(Op op, const float* v, uint32_t n) {
  if (op == Op::kSum) {
    if (n == kBlk) {
      const float a = (v[0] + v[1]) + (v[2] + v[3]);
      const float b = (v[4] + v[5]) + (v[6] + v[7]);
      return a + b;
    }
    return TreeSum64(v, n);
  }
  float best = v[0];
  for (uint32_t i = 1; i < n; ++i) {
    if (std::isnan(best)) break;
    if (std::isnan(v[i]) || v[i] > best) best = v[i];
  }
  return best;
}

// The rows of one split as the reductions see them.
struct Split {
  uint32_t m, oriK, srcK, dstK;
};

// The 64-lane accumulators acc[64 r + l] of NewReduce{Max,Sum}LastNDImpl (oriK >= 64), x the
// split's float rows (stride srcK). The kit's uint8_t operands as the hardware takes them (the low
// 8 bits): the repeat stride srcRepeatStride = srcK / 8 blocks of FirstBlockCopyImpl's Adds, of
// the first Max/Add and of NextBlock*Impl's repeats over rows; the first Max/Add's and
// NextBlock*Impl's repeat count (uint8_t)originalSrcM; BigBlockReduce*'s remainRepeat. A repeat
// count of 0 runs nothing; the accumulators no step writes keep their bytes.
void Accumulate(Op op, const float* x, float* acc, const Split& s) {
  const uint32_t chunks = s.oriK / kRep, tail = s.oriK % kRep;
  const uint32_t stride = static_cast<uint8_t>(s.srcK / kBlk) * kBlk;  // floats a repeat
  if (s.oriK >= 8 * kRep) {  // BigBlockReduce: 8 BlockReduce repeats, then Op(chunk, acc)
    for (uint32_t r = 0; r < s.m; ++r) {
      for (uint32_t l = 0; l < kRep; ++l)
        acc[r * kRep + l] = Lanes(op, x + r * s.srcK + kBlk * l, kBlk);
    }
    const uint32_t remain = static_cast<uint8_t>(chunks - 8);
    for (uint32_t r = 0; r < s.m; ++r) {
      for (uint32_t c = 8; c < 8 + remain; ++c) {
        for (uint32_t l = 0; l < kRep; ++l) {
          acc[r * kRep + l] = Bin(op, x[r * s.srcK + c * kRep + l], acc[r * kRep + l]);
        }
      }
    }
  } else if (s.oriK >= 2 * kRep) {  // Op(chunk 0, chunk 1), then NextBlock*Impl
    const uint32_t reps = static_cast<uint8_t>(s.m);
    for (uint32_t r = 0; r < reps; ++r) {
      for (uint32_t l = 0; l < kRep; ++l) {
        acc[r * kRep + l] = Bin(op, x[r * stride + l], x[r * stride + kRep + l]);
      }
    }
    // splitM > splitBlock: repeats over the rows (acc, chunk); else row by row at j * srcK
    // (chunk, acc).
    const bool rowsFirst = reps > chunks;
    for (uint32_t c = 2; c < chunks; ++c) {
      for (uint32_t r = 0; r < reps; ++r) {
        for (uint32_t l = 0; l < kRep; ++l) {
          float& a = acc[r * kRep + l];
          a = rowsFirst ? Bin(op, a, x[r * stride + c * kRep + l])
                        : Bin(op, x[r * s.srcK + c * kRep + l], a);
        }
      }
    }
  } else {  // FirstBlockCopyImpl: Adds 0 under a counter mask of m * 64
    for (uint32_t r = 0; r < s.m; ++r) {
      for (uint32_t l = 0; l < kRep; ++l) acc[r * kRep + l] = x[r * stride + l] + 0.0f;
    }
  }
  for (uint32_t r = 0; r < s.m; ++r) {  // Tail*Impl: Op(acc, tail)
    for (uint32_t l = 0; l < tail; ++l) {
      acc[r * kRep + l] = Bin(op, acc[r * kRep + l], x[r * s.srcK + chunks * kRep + l]);
    }
  }
}

// BroadCastNDImpl(acc, stat, m): Muls by 1.0 of stat's first 8 ceil(m / 8) floats, each group of
// 8 repeated over 16 blocks at acc[128 g], then TransDataTo5HD in place (header's layout).
void BroadCastNd(float* acc, const float* stat, uint32_t m) {
  const uint32_t groups = (m + kBlk - 1) / kBlk;
  for (uint32_t g = 0; g < groups; ++g) {
    float* a = acc + 2 * kRep * g;
    for (uint32_t q = 0; q < 16; ++q) {
      for (uint32_t l = 0; l < kBlk; ++l) a[q * kBlk + l] = stat[g * kBlk + l] * 1.0f;
    }
    float in[2 * kRep];
    std::memcpy(in, a, sizeof in);
    for (uint32_t j = 0; j < kBlk; ++j) {
      for (uint32_t h = 0; h < 2; ++h) {
        for (uint32_t e = 0; e < kBlk; ++e)
          a[(2 * j + h) * kBlk + e] = in[(kBlk * h + e) * kBlk + j];
      }
    }
  }
}

// NewReduce{Max,Sum}LastNDImpl on 2002: stat gets [m, dstK], acc what the steps leave.
void NewReduce(Op op, const float* x, float* stat, float* acc, const Split& s) {
  if (s.oriK < kRep) {  // one masked WholeReduce per row, then BroadCastLastImpl
    for (uint32_t r = 0; r < s.m; ++r) {
      const float v = Lanes(op, x + r * s.srcK, s.oriK);
      for (uint32_t j = 0; j < s.dstK; ++j) stat[r * s.dstK + j] = v;
    }
    return;
  }
  Accumulate(op, x, acc, s);
  if (s.m == 1) {  // WholeReduce of the 64 lanes, Duplicate of reduceK lanes
    const float v = Lanes(op, acc, kRep);
    for (uint32_t j = 0; j < s.dstK; ++j) stat[j] = v;
    return;
  }
  for (uint32_t r = 0; r < s.m; ++r) {  // BlockReduce(acc, acc), repeat by repeat in place
    float b[kBlk];
    for (uint32_t q = 0; q < kBlk; ++q) b[q] = Lanes(op, acc + r * kRep + q * kBlk, kBlk);
    std::memcpy(acc + r * kBlk, b, sizeof b);
  }
  for (uint32_t r = 0; r < s.m; ++r) stat[r] = Lanes(op, acc + r * kBlk, kBlk);
  BroadCastNd(acc, stat, s.m);
  if (s.dstK == kBlk) {  // Adds 0: block r from acc's block 2r
    for (uint32_t r = 0; r < s.m; ++r) {
      for (uint32_t e = 0; e < kBlk; ++e) stat[r * kBlk + e] = acc[2 * r * kBlk + e] + 0.0f;
    }
  } else {
    for (uint32_t i = 0; i < s.m * s.dstK; ++i) stat[i] = acc[i] + 0.0f;
  }
}

// GenericSub/Div/MulNDImpl: element (r, c) with lane c % 8 of row r's statistics.
template <class F>
void ByLane(float* x, const float* stat, uint32_t m, uint32_t srcK, uint32_t reduceK, F f) {
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < srcK; ++c) {
      x[r * srcK + c] = f(x[r * srcK + c], stat[r * reduceK + c % kBlk]);
    }
  }
}

// The statistics block of a split: the tensor's floats, or (Half statistics) the work buffer's
// block, cast into the tensor after each reduction.
template <class S>
void CastStat(S* out, const float* from, uint32_t n) {
  if constexpr (std::is_same_v<S, Half>) {
    for (uint32_t i = 0; i < n; ++i) out[i] = FloatToHalf(from[i]);
  }
}

template <class T, class S>
void OneSplit(const SmxTiling& t, uint32_t oriK, const V200Io<T, S>& io, uint32_t m, uint64_t off1,
              uint64_t off2) {
  constexpr bool kHalf = std::is_same_v<T, Half>;
  const bool stats = io.sum != nullptr;
  const Split s{m, oriK, t.splitK, t.reduceK};
  const uint64_t n = uint64_t{m} * t.splitK, nr = uint64_t{m} * t.reduceK;
  float* w = io.work;
  // Where the split's data, statistics and accumulators live.
  float* x = nullptr;
  float* maxAt = nullptr;
  float* sumAt = nullptr;
  float* acc = nullptr;
  const bool statInWork = !stats || std::is_same_v<S, Half>;
  if constexpr (kHalf) {
    x = w;
    for (uint64_t i = 0; i < n; ++i) x[i] = HalfToFloat(io.src[off1 + i]);
    acc = w + t.splitSize + (statInWork ? t.reduceSize : 0);
    if (statInWork) maxAt = sumAt = w + t.splitSize;
  } else {
    x = io.dst + off1;
    acc = w + (statInWork ? t.reduceSize : 0);
    if (statInWork) maxAt = sumAt = w;
  }
  if constexpr (std::is_same_v<S, float>) {
    if (stats) {
      maxAt = io.max + off2;
      sumAt = io.sum + off2;
    }
  }
  const float* in = kHalf ? x : reinterpret_cast<const float*>(io.src) + off1;
  NewReduce(Op::kMax, in, maxAt, acc, s);
  if (stats) CastStat(io.max + off2, maxAt, static_cast<uint32_t>(nr));
  if constexpr (!kHalf) std::memmove(x, in, n * 4);  // the Sub writes dst from src (or in place)
  ByLane(x, maxAt, m, t.srcK, t.reduceK, [](float a, float b) { return a - b; });
  for (uint64_t i = 0; i < n; ++i) x[i] = Exp(x[i]);
  NewReduce(Op::kSum, x, sumAt, acc, s);
  if (stats) CastStat(io.sum + off2, sumAt, static_cast<uint32_t>(nr));
  if (io.log) {  // GenericDivNDImpl, then GenericLogNDImpl: Ln, Muls
    ByLane(x, sumAt, m, t.srcK, t.reduceK, [](float a, float b) { return a / b; });
    for (uint64_t i = 0; i < n; ++i) x[i] = Ln(x[i]) * kNatureLog10;
  } else {  // TransDivToMulImpl: acc[0, m reduceK) = 1 / sum, then GenericMulNDImpl
    for (uint64_t i = 0; i < nr; ++i) acc[i] = 1.0f / sumAt[i];
    ByLane(x, acc, m, t.srcK, t.reduceK, [](float a, float b) { return a * b; });
  }
  if constexpr (kHalf) {
    for (uint64_t i = 0; i < n; ++i) io.dst[off1 + i] = FloatToHalf(x[i]);
  }
}

}  // namespace

template <class T, class S>
void ReplaySoftMaxV200(const SmxTiling& t, uint32_t oriK, const V200Io<T, S>& io) {
  // SoftMaxNDImpl / SoftMaxNDExtImpl / LogSoftMaxNDImpl: i <= rangeM, the tail after the last
  // full split (when tailM is 0 the loop stops there).
  uint32_t m = t.splitM;
  uint64_t off1 = 0, off2 = 0;
  for (uint32_t i = 0; i <= t.rangeM; ++i) {
    OneSplit(t, oriK, io, m, off1, off2);
    off1 += t.splitSize;
    off2 += t.reduceSize;
    if (i == t.rangeM - 1) {
      if (t.tailM == 0) break;
      off1 = uint64_t{t.rangeM} * t.splitSize;
      off2 = uint64_t{t.rangeM} * t.reduceSize;
      m = t.tailM;
    }
  }
}

template <class S>
void ReplaySimpleSoftMaxHalfV200(const SmxTiling& t, const Half* src, const S* inSum,
                                 const S* inMax, Half* dst, float* work) {
  constexpr bool kHalfStats = std::is_same_v<S, Half>;
  float* x = work;
  float* st = work + t.splitSize;
  const auto one = [&](uint64_t off1, uint64_t off2, uint32_t m) {
    const uint64_t n = uint64_t{m} * t.splitK, nr = uint64_t{m} * t.reduceK;
    for (uint64_t i = 0; i < n; ++i) x[i] = HalfToFloat(src[off1 + i]);
    const float* mx = nullptr;
    const float* sm = nullptr;
    uint32_t stride = t.reduceK;
    if constexpr (kHalfStats) {  // Cast of inMax, then (after the Exp) of inSum, at splitSize
      for (uint64_t i = 0; i < nr; ++i) st[i] = HalfToFloat(inMax[off2 + i]);
      mx = sm = st;
    } else {  // the 2002 branch: the statistics' row stride DEFAULT_REPEAT_STRIDE (8)
      mx = inMax + off2;
      sm = inSum + off2;
      stride = kBlk;
    }
    ByLane(x, mx, m, t.srcK, stride, [](float a, float b) { return a - b; });
    // The Exp: the split's elements with half statistics, tiling.splitSize with float ones (a
    // tail split's rows past tailM too: exp of what the last full split left there).
    const uint64_t ne = kHalfStats ? n : t.splitSize;
    for (uint64_t i = 0; i < ne; ++i) x[i] = Exp(x[i]);
    if constexpr (kHalfStats) {
      for (uint64_t i = 0; i < nr; ++i) st[i] = HalfToFloat(inSum[off2 + i]);
    }
    ByLane(x, sm, m, t.srcK, stride, [](float a, float b) { return a / b; });
    for (uint64_t i = 0; i < n; ++i) dst[off1 + i] = FloatToHalf(x[i]);
  };
  // SimpleSoftMaxNDImpl: rangeM full splits, then the tail; half statistics step reduceSize a
  // split, float ones reduceM * 8.
  const uint64_t step2 = kHalfStats ? t.reduceSize : uint64_t{t.reduceM} * kBlk;
  for (uint32_t i = 0; i < t.rangeM; ++i) one(uint64_t{i} * t.splitSize, i * step2, t.splitM);
  if (t.tailM != 0) one(uint64_t{t.rangeM} * t.splitSize, t.rangeM * step2, t.tailM);
}

namespace {

// One split of SoftmaxFlashV2's float generic loop (no update: SoftmaxFlashV2NoUpdateImpl; update:
// SoftmaxFlashV2UpdateImpl, 2002's Adds for the max's store). nr: the split's reduceSize (the
// counter mask of the update's lane steps).
void FlashV2FloatSplit(const SmxTiling& t, uint32_t oriK, const FlashV2V200Io<float, float>& io,
                       uint32_t m, uint64_t off1, uint64_t off2) {
  const Split s{m, oriK, io.cfgK != 0 ? io.cfgK : t.splitK, t.reduceK};
  const uint64_t n = uint64_t{m} * t.splitK, nr = uint64_t{m} * t.reduceK;
  float* dst = io.dst + off1;
  const float* src = io.src + off1;
  if (!io.update) {
    float* tmp0 = io.work;  // the reductions' 64-lane scratch
    NewReduce(Op::kMax, src, io.max + off2, tmp0, s);
    std::memmove(dst, src, n * 4);  // GenericSubNDImpl(dst, src, max)
    ByLane(dst, io.max + off2, m, t.srcK, t.reduceK, [](float a, float b) { return a - b; });
    for (uint64_t i = 0; i < n; ++i) dst[i] = Exp(dst[i]);
    NewReduce(Op::kSum, dst, io.expSum + off2, tmp0, s);
    return;
  }
  float* tmp0 = io.work;                 // [reduceSize): the reduced block
  float* tmp1 = io.work + t.reduceSize;  // the reductions' scratch, splitM * 64
  NewReduce(Op::kMax, src, tmp0, tmp1, s);
  for (uint64_t i = 0; i < nr; ++i) tmp0[i] = Bin(Op::kMax, io.inMax[off2 + i], tmp0[i]);
  for (uint64_t i = 0; i < nr; ++i) tmp1[i] = io.inMax[off2 + i] - tmp0[i];
  for (uint64_t i = 0; i < nr; ++i) io.expMax[off2 + i] = Exp(tmp1[i]);
  std::memmove(dst, src, n * 4);
  ByLane(dst, tmp0, m, t.srcK, t.reduceK, [](float a, float b) { return a - b; });
  for (uint64_t i = 0; i < n; ++i) dst[i] = Exp(dst[i]);
  for (uint64_t i = 0; i < nr; ++i) io.max[off2 + i] = tmp0[i] + 0.0f;  // Adds 0
  NewReduce(Op::kSum, dst, tmp0, tmp1, s);
  for (uint64_t i = 0; i < nr; ++i) {
    io.expSum[off2 + i] = io.expMax[off2 + i] * io.inExpSum[off2 + i];
  }
  for (uint64_t i = 0; i < nr; ++i) io.expSum[off2 + i] = io.expSum[off2 + i] + tmp0[i];
}

// One split of the half forms: the split's float copy tmp0 at the buffer's start.
template <class S>
void FlashV2HalfSplit(const SmxTiling& t, uint32_t oriK, const FlashV2V200Io<Half, S>& io,
                      uint32_t m, uint64_t off1, uint64_t off2) {
  constexpr bool kHalfStats = std::is_same_v<S, Half>;
  const Split s{m, oriK, io.cfgK != 0 ? io.cfgK : t.splitK, t.reduceK};
  const uint64_t n = uint64_t{m} * t.splitK, nr = uint64_t{m} * t.reduceK;
  float* w = io.work;
  float* tmp0 = w;
  for (uint64_t i = 0; i < n; ++i) tmp0[i] = HalfToFloat(io.src[off1 + i]);
  const auto sub = [](float a, float b) { return a - b; };
  if (!io.update) {
    if constexpr (kHalfStats) {  // reduceBuffer at splitSize, the scratch after it
      float* red = w + t.splitSize;
      float* tmp2 = red + t.reduceSize;
      NewReduce(Op::kMax, tmp0, red, tmp2, s);
      ByLane(tmp0, red, m, t.srcK, t.reduceK, sub);
      for (uint64_t i = 0; i < nr; ++i) io.max[off2 + i] = FloatToHalf(red[i]);
      for (uint64_t i = 0; i < n; ++i) tmp0[i] = Exp(tmp0[i]);
      for (uint64_t i = 0; i < n; ++i) io.dst[off1 + i] = FloatToHalf(tmp0[i]);
      NewReduce(Op::kSum, tmp0, red, tmp2, s);
      for (uint64_t i = 0; i < nr; ++i) io.expSum[off2 + i] = FloatToHalf(red[i]);
    } else {  // the statistics tensors' blocks, the scratch at splitSize
      float* tmp1 = w + t.splitSize;
      NewReduce(Op::kMax, tmp0, io.max + off2, tmp1, s);
      ByLane(tmp0, io.max + off2, m, t.srcK, t.reduceK, sub);
      for (uint64_t i = 0; i < n; ++i) tmp0[i] = Exp(tmp0[i]);
      for (uint64_t i = 0; i < n; ++i) io.dst[off1 + i] = FloatToHalf(tmp0[i]);
      NewReduce(Op::kSum, tmp0, io.expSum + off2, tmp1, s);
    }
    return;
  }
  float* tmp1 = w + t.splitSize;
  float* tmp2 = tmp1 + t.reduceSize;               // the reductions' scratch, splitM * 64
  float* tmp3 = tmp2 + uint64_t{t.splitM} * kRep;  // the reduced block
  if constexpr (kHalfStats) {
    for (uint64_t i = 0; i < nr; ++i) tmp1[i] = HalfToFloat(io.inMax[off2 + i]);
    NewReduce(Op::kMax, tmp0, tmp3, tmp2, s);
    for (uint64_t i = 0; i < nr; ++i) tmp3[i] = Bin(Op::kMax, tmp1[i], tmp3[i]);
    for (uint64_t i = 0; i < nr; ++i) tmp1[i] = tmp1[i] - tmp3[i];
    for (uint64_t i = 0; i < nr; ++i) io.max[off2 + i] = FloatToHalf(tmp3[i]);
    ByLane(tmp0, tmp3, m, t.srcK, t.reduceK, sub);
    for (uint64_t i = 0; i < n; ++i) tmp0[i] = Exp(tmp0[i]);
    for (uint64_t i = 0; i < n; ++i) io.dst[off1 + i] = FloatToHalf(tmp0[i]);
    NewReduce(Op::kSum, tmp0, tmp3, tmp2, s);
    for (uint64_t i = 0; i < nr; ++i) tmp1[i] = Exp(tmp1[i]);
    for (uint64_t i = 0; i < nr; ++i) io.expMax[off2 + i] = FloatToHalf(tmp1[i]);
    for (uint64_t i = 0; i < nr; ++i) tmp2[i] = HalfToFloat(io.inExpSum[off2 + i]);
    for (uint64_t i = 0; i < nr; ++i) tmp1[i] = tmp1[i] * tmp2[i];
    for (uint64_t i = 0; i < nr; ++i) tmp2[i] = tmp1[i] + tmp3[i];
    for (uint64_t i = 0; i < nr; ++i) io.expSum[off2 + i] = FloatToHalf(tmp2[i]);
  } else {
    for (uint64_t i = 0; i < nr; ++i) tmp1[i] = io.inMax[off2 + i] + 0.0f;  // Adds 0
    NewReduce(Op::kMax, tmp0, tmp3, tmp2, s);
    for (uint64_t i = 0; i < nr; ++i) io.max[off2 + i] = Bin(Op::kMax, io.inMax[off2 + i], tmp3[i]);
    ByLane(tmp0, io.max + off2, m, t.srcK, t.reduceK, sub);
    for (uint64_t i = 0; i < n; ++i) tmp0[i] = Exp(tmp0[i]);
    for (uint64_t i = 0; i < n; ++i) io.dst[off1 + i] = FloatToHalf(tmp0[i]);
    NewReduce(Op::kSum, tmp0, tmp3, tmp2, s);
    for (uint64_t i = 0; i < nr; ++i) tmp1[i] = tmp1[i] - io.max[off2 + i];
    for (uint64_t i = 0; i < nr; ++i) tmp1[i] = Exp(tmp1[i]);
    // BroadCastLastImpl {reduceM, 16, reduceM, reduceK}: row r of tmp0 = 16 x tmp1[r reduceK].
    for (uint64_t r = 0; r < t.reduceM; ++r) {
      const float v = tmp1[r * t.reduceK];
      for (uint32_t l = 0; l < 16; ++l) tmp0[r * 16 + l] = v;
    }
    for (uint64_t i = 0; i < 2 * nr; ++i) io.expMax[2 * off2 + i] = FloatToHalf(tmp0[i]);
    for (uint64_t i = 0; i < nr; ++i) tmp1[i] = tmp1[i] * io.inExpSum[off2 + i];
    for (uint64_t i = 0; i < nr; ++i) io.expSum[off2 + i] = tmp1[i] + tmp3[i];
  }
}

}  // namespace

template <class T, class S>
void ReplaySoftmaxFlashV2V200(const SmxTiling& t, uint32_t oriK, const FlashV2V200Io<T, S>& io) {
  // SoftmaxFlashV2NoUpdateExtImpl / SoftmaxFlashV2NDExtImpl: i <= rangeM, the tail after the
  // last full split at rangeM * splitSize and rangeM * reduceSize.
  uint32_t m = t.splitM;
  uint64_t off1 = 0, off2 = 0;
  for (uint32_t i = 0; i <= t.rangeM; ++i) {
    if constexpr (std::is_same_v<T, Half>) {
      FlashV2HalfSplit<S>(t, oriK, io, m, off1, off2);
    } else {
      FlashV2FloatSplit(t, oriK, io, m, off1, off2);
    }
    off1 += t.splitSize;
    off2 += t.reduceSize;
    if (i == t.rangeM - 1) {
      if (t.tailM == 0) break;
      off1 = uint64_t{t.rangeM} * t.splitSize;
      off2 = uint64_t{t.rangeM} * t.reduceSize;
      m = t.tailM;
    }
  }
}

template void ReplaySoftmaxFlashV2V200<float, float>(const SmxTiling&, uint32_t,
                                                     const FlashV2V200Io<float, float>&);
template void ReplaySoftmaxFlashV2V200<Half, float>(const SmxTiling&, uint32_t,
                                                    const FlashV2V200Io<Half, float>&);
template void ReplaySoftmaxFlashV2V200<Half, Half>(const SmxTiling&, uint32_t,
                                                   const FlashV2V200Io<Half, Half>&);

template void ReplaySoftMaxV200<float, float>(const SmxTiling&, uint32_t,
                                              const V200Io<float, float>&);
template void ReplaySoftMaxV200<Half, Half>(const SmxTiling&, uint32_t, const V200Io<Half, Half>&);
template void ReplaySoftMaxV200<Half, float>(const SmxTiling&, uint32_t,
                                             const V200Io<Half, float>&);
template void ReplaySimpleSoftMaxHalfV200<Half>(const SmxTiling&, const Half*, const Half*,
                                                const Half*, Half*, float*);
template void ReplaySimpleSoftMaxHalfV200<float>(const SmxTiling&, const Half*, const float*,
                                                 const float*, Half*, float*);

}  // namespace lngrad_replay
