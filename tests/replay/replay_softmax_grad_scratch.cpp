// The SoftmaxGrad / SoftmaxGradFront work buffer on 2201 (replay_softmax_grad_scratch.h): each
// instruction of the kit's sequence run over a float image of the buffer, in the kit's order.
#include "replay_softmax_grad_scratch.h"

#include <cstring>
#include <type_traits>

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;  // floats per repeat
constexpr uint32_t kBlk = 8;   // floats per 32-byte block

// One BlockReduceSum block: adjacent pairs, then their pairs.
float BlockSum(const float* v) {
  const float a = v[0] + v[1], b = v[2] + v[3], c = v[4] + v[5], d = v[6] + v[7];
  return (a + b) + (c + d);
}

// WholeReduceSum of one repeat under a continuous mask of n lanes: the masked lanes are +0, then
// the 64-lane adjacent-pair tree.
float RepeatSum(const float* v, uint32_t n) {
  float x[kRep];
  for (uint32_t l = 0; l < kRep; ++l) x[l] = l < n ? v[l] : 0.0f;
  for (uint32_t w = kRep / 2; w >= 1; w /= 2) {
    for (uint32_t i = 0; i < w; ++i) x[i] = x[2 * i] + x[2 * i + 1];
  }
  return x[0];
}

// ReduceSumLastNDImpl(dst, src, tmp, {rows, oriK, rows, k, -, dstK}) over float arrays.
void ReduceSumLastND(float* dst, const float* src, float* tmp, uint32_t rows, uint32_t oriK,
                     uint32_t k, uint32_t dstK) {
  const uint32_t chunks = oriK / kRep, tail = oriK % kRep;
  if (chunks > 0) {
    // AlignedReduceSumNDImpl(tmp as its dst, src, dst as its tmp).
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t b = 0; b < kBlk; ++b) dst[r * kBlk + b] = BlockSum(src + r * k + b * kBlk);
    }
    std::memcpy(tmp, dst, sizeof(float) * rows * kBlk);  // DataCopy of `rows` blocks
    for (uint32_t i = 1; i < chunks; ++i) {
      for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t b = 0; b < kBlk; ++b) {
          dst[r * kBlk + b] = BlockSum(src + r * k + i * kRep + b * kBlk);
        }
      }
      for (uint32_t j = 0; j < rows * kBlk; ++j) tmp[j] = tmp[j] + dst[j];
    }
    // BlockReduceSum(tmp, tmp) over rows * 8 elements: each repeat reads its 64 before writing
    // its (at most) 8 results, which land on repeats already read.
    std::vector<float> sums(rows);
    for (uint32_t r = 0; r < rows; ++r) sums[r] = BlockSum(tmp + r * kBlk);
    for (uint32_t r = 0; r < rows; ++r) tmp[r] = sums[r];
  }
  if (tail != 0) {
    for (uint32_t r = 0; r < rows; ++r) dst[r] = RepeatSum(src + r * k + chunks * kRep, tail);
    if (chunks == 0) {
      std::memcpy(tmp, dst, sizeof(float) * rows * kBlk);
    } else {
      for (uint32_t j = 0; j < rows * kBlk; ++j) tmp[j] = tmp[j] + dst[j];
    }
  }
  // SingleBlockBroadCastImpl(dst, tmp): Brcb for whole groups of 8 rows, Duplicate for the rest;
  // either way dstK copies of tmp[r] per row.
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t l = 0; l < dstK; ++l) dst[r * dstK + l] = tmp[r];
  }
}

// membase/v200's ReduceSumLastNDImpl(dst, src, tmp, {rows, oriK, rows, k, rows, dstK}): oriK <= 64
// one masked WholeReduceSum per row into dst[r * dstK]; else each whole chunk's WholeReduceSum into
// tmp[r * dstK], the first copied to dst and the later ones added over rows * dstK elements (every
// lane, not only the sums), the tail's masked one added the same way; then BroadCastLastImpl(dst,
// dst) (scalar: lane 0 of each row to its dstK lanes).
void ReduceSumLastNDV200(float* dst, const float* src, float* tmp, uint32_t rows, uint32_t oriK,
                         uint32_t k, uint32_t dstK) {
  const uint32_t all = rows * dstK;
  if (oriK <= kRep) {
    for (uint32_t r = 0; r < rows; ++r) dst[r * dstK] = RepeatSum(src + r * k, oriK);
  } else {
    const uint32_t chunks = oriK / kRep, tail = oriK % kRep;
    for (uint32_t c = 0; c <= chunks; ++c) {
      const uint32_t lanes = c < chunks ? kRep : tail;
      if (lanes == 0) break;
      for (uint32_t r = 0; r < rows; ++r) tmp[r * dstK] = RepeatSum(src + r * k + c * kRep, lanes);
      for (uint32_t j = 0; j < all; ++j) dst[j] = c == 0 ? tmp[j] : dst[j] + tmp[j];
    }
  }
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t l = 1; l < dstK; ++l) dst[r * dstK + l] = dst[r * dstK];
  }
}

// BroadCastLastImpl with {dstM, dstK = k, srcM = dstM, srcK}: v220's device branch copies each
// row's first 8 source lanes to every block of the row; v200's scalar loop duplicates lane 0.
void BroadCastLast(float* dst, const float* src, uint32_t dstM, uint32_t k, uint32_t srcK,
                   bool v200) {
  for (uint32_t r = 0; r < dstM; ++r) {
    for (uint32_t c = 0; c < k; ++c) dst[r * k + c] = src[r * srcK + (v200 ? 0 : c % kBlk)];
  }
}

void Reduce(bool v200, float* dst, const float* src, float* tmp, uint32_t rows, uint32_t oriK,
            uint32_t k, uint32_t dstK) {
  if (v200) {
    ReduceSumLastNDV200(dst, src, tmp, rows, oriK, k, dstK);
  } else {
    ReduceSumLastND(dst, src, tmp, rows, oriK, k, dstK);
  }
}

template <class T>
float In(const T* p, uint64_t i) {
  return ToFloat(p[i]);
}

// FLOAT2HALF_ROUND_MODE: CAST_ROUND (ties away) on 2201, CAST_NONE (nearest even) on 2002.
Half OutHalf(float v, bool v200) { return v200 ? FloatToHalf(v) : FloatToHalfRoundAway(v); }

// Half data (SoftmaxGradNDGenericImpl; SoftmaxGradFrontNDImpl's generic branch is the same with
// isFront): src, grad, their product in three splitSize buffers, then reduce and add buffers.
void HalfSplit(const SmxTiling& t, uint32_t oriK, const Half* grad, const Half* src, Half* dst,
               float* w, bool isFront, bool v200, uint32_t row0, uint32_t rows) {
  const uint32_t k = t.srcK, n = rows * k;
  float* sb = w;
  float* gb = w + t.splitSize;
  float* db = w + 2 * t.splitSize;
  float* rb = w + 3 * t.splitSize;
  float* ab = rb + t.reduceSize;
  const uint64_t o1 = uint64_t{row0} * k, o2 = uint64_t{row0} * t.reduceK;
  for (uint32_t j = 0; j < n; ++j) sb[j] = In(src, o1 + j);
  for (uint32_t j = 0; j < n; ++j) gb[j] = In(grad, o1 + j);
  for (uint32_t j = 0; j < n; ++j) db[j] = sb[j] * gb[j];
  Reduce(v200, ab, db, rb, rows, oriK, k, t.reduceK);
  if (isFront) {
    for (uint32_t j = 0; j < rows * t.reduceK; ++j) dst[o2 + j] = OutHalf(ab[j], v200);
    return;
  }
  BroadCastLast(db, ab, t.reduceM, k, t.reduceK, v200);  // reduceM rows, the tail split's too
  for (uint32_t j = 0; j < n; ++j) db[j] = gb[j] - db[j];
  for (uint32_t j = 0; j < n; ++j) db[j] = db[j] * sb[j];
  for (uint32_t j = 0; j < n; ++j) dst[o1 + j] = OutHalf(db[j], v200);
}

// Float data, isFront (SoftmaxGradFrontNDImpl<float>'s generic branch): the product in the first
// splitSize floats, the reduce buffer after it; dst's own rows are ReduceSumLastNDImpl's dst.
// SoftmaxGrad passes (dst, src, grad) as (dst, grad, src): its Mul is grad * src.
void FloatFrontSplit(const SmxTiling& t, uint32_t oriK, const float* grad, const float* src,
                     float* dst, float* w, bool frontApi, bool v200, uint32_t row0, uint32_t rows) {
  const uint32_t k = t.srcK, n = rows * k;
  const uint64_t o1 = uint64_t{row0} * k, o2 = uint64_t{row0} * t.reduceK;
  for (uint32_t j = 0; j < n; ++j) {
    w[j] = frontApi ? src[o1 + j] * grad[o1 + j] : grad[o1 + j] * src[o1 + j];
  }
  Reduce(v200, dst + o2, w, w + t.splitSize, rows, oriK, k, t.reduceK);
}

// Float data, not isFront (SoftmaxGradPostProcess): split, reduce and add buffers.
void FloatSplit(const SmxTiling& t, uint32_t oriK, const float* grad, const float* src, float* dst,
                float* w, bool v200, uint32_t row0, uint32_t rows) {
  const uint32_t k = t.srcK, n = rows * k;
  float* sb = w;
  float* rb = w + t.splitSize;
  float* ab = rb + t.reduceSize;
  const uint64_t o1 = uint64_t{row0} * k;
  for (uint32_t j = 0; j < n; ++j) sb[j] = src[o1 + j] * grad[o1 + j];
  Reduce(v200, ab, sb, rb, rows, oriK, k, t.reduceK);
  BroadCastLast(sb, ab, t.reduceM, k, kBlk, v200);  // brcParam: reduceM rows, tail split's too
  for (uint32_t j = 0; j < n; ++j) sb[j] = grad[o1 + j] - sb[j];
  for (uint32_t j = 0; j < n; ++j) dst[o1 + j] = src[o1 + j] * sb[j];
}

// The floats a split's buffers span (the reduce of `rows` rows reaches 8 per row, the broadcasts
// reduceM rows of reduceK and k).
uint64_t Extent(const SmxTiling& t, bool half, bool isFront) {
  const uint64_t red = uint64_t{t.reduceM} * (t.reduceK > kBlk ? t.reduceK : kBlk);
  if (half) return uint64_t{t.splitSize} * 3 + t.reduceSize + red;
  if (isFront) return uint64_t{t.splitSize} + uint64_t{t.reduceM} * kBlk;
  return uint64_t{t.splitSize} + t.reduceSize + red;
}

}  // namespace

template <class T>
bool ReplaySoftmaxGradWork(const SmxTiling& kt, uint32_t oriK, const T* grad, const T* src, T* dst,
                           std::vector<uint8_t>& work, bool isFront, bool frontApi, bool v200) {
  constexpr bool kHalf = std::is_same_v<T, Half>;
  if (Extent(kt, kHalf, isFront) * sizeof(float) > work.size()) return false;
  std::vector<float> w(work.size() / sizeof(float));
  std::memcpy(w.data(), work.data(), w.size() * sizeof(float));
  auto split = [&](uint32_t row0, uint32_t rows) {
    if constexpr (kHalf) {
      HalfSplit(kt, oriK, grad, src, dst, w.data(), isFront, v200, row0, rows);
    } else if (isFront) {
      FloatFrontSplit(kt, oriK, grad, src, dst, w.data(), frontApi, v200, row0, rows);
    } else {
      FloatSplit(kt, oriK, grad, src, dst, w.data(), v200, row0, rows);
    }
  };
  for (uint32_t i = 0; i < kt.rangeM; ++i) split(i * kt.splitM, kt.splitM);
  if (kt.tailM != 0) split(kt.rangeM * kt.splitM, kt.tailM);
  std::memcpy(work.data(), w.data(), w.size() * sizeof(float));
  return true;
}

template bool ReplaySoftmaxGradWork<float>(const SmxTiling&, uint32_t, const float*, const float*,
                                           float*, std::vector<uint8_t>&, bool, bool, bool);
template bool ReplaySoftmaxGradWork<Half>(const SmxTiling&, uint32_t, const Half*, const Half*,
                                          Half*, std::vector<uint8_t>&, bool, bool, bool);

}  // namespace lngrad_replay
