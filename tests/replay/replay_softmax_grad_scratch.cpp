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

// BroadCastLastImpl's device branch with {dstM, dstK = k, srcM = dstM, srcK}: each row's first 8
// source lanes copied to every block of the row.
void BroadCastLast(float* dst, const float* src, uint32_t dstM, uint32_t k, uint32_t srcK) {
  for (uint32_t r = 0; r < dstM; ++r) {
    for (uint32_t c = 0; c < k; ++c) dst[r * k + c] = src[r * srcK + c % kBlk];
  }
}

template <class T>
float In(const T* p, uint64_t i) {
  return ToFloat(p[i]);
}

template <class T>
T Out(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalfRoundAway(v);  // FLOAT2HALF_ROUND_MODE on 2201
  } else {
    return v;
  }
}

// Half data (SoftmaxGradNDGenericImpl; SoftmaxGradFrontNDImpl's generic branch is the same with
// isFront): src, grad, their product in three splitSize buffers, then reduce and add buffers.
void HalfSplit(const SmxTiling& t, uint32_t oriK, const Half* grad, const Half* src, Half* dst,
               float* w, bool isFront, uint32_t row0, uint32_t rows) {
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
  ReduceSumLastND(ab, db, rb, rows, oriK, k, t.reduceK);
  if (isFront) {
    for (uint32_t j = 0; j < rows * t.reduceK; ++j) dst[o2 + j] = Out<Half>(ab[j]);
    return;
  }
  BroadCastLast(db, ab, t.reduceM, k, t.reduceK);  // reduceM rows, the tail split's too
  for (uint32_t j = 0; j < n; ++j) db[j] = gb[j] - db[j];
  for (uint32_t j = 0; j < n; ++j) db[j] = db[j] * sb[j];
  for (uint32_t j = 0; j < n; ++j) dst[o1 + j] = Out<Half>(db[j]);
}

// Float data, isFront (SoftmaxGradFrontNDImpl<float>'s generic branch): the product in the first
// splitSize floats, the reduce buffer after it; dst's own rows are ReduceSumLastNDImpl's dst.
// SoftmaxGrad passes (dst, src, grad) as (dst, grad, src): its Mul is grad * src.
void FloatFrontSplit(const SmxTiling& t, uint32_t oriK, const float* grad, const float* src,
                     float* dst, float* w, bool frontApi, uint32_t row0, uint32_t rows) {
  const uint32_t k = t.srcK, n = rows * k;
  const uint64_t o1 = uint64_t{row0} * k, o2 = uint64_t{row0} * t.reduceK;
  for (uint32_t j = 0; j < n; ++j) {
    w[j] = frontApi ? src[o1 + j] * grad[o1 + j] : grad[o1 + j] * src[o1 + j];
  }
  ReduceSumLastND(dst + o2, w, w + t.splitSize, rows, oriK, k, t.reduceK);
}

// Float data, not isFront (SoftmaxGradPostProcess): split, reduce and add buffers.
void FloatSplit(const SmxTiling& t, uint32_t oriK, const float* grad, const float* src, float* dst,
                float* w, uint32_t row0, uint32_t rows) {
  const uint32_t k = t.srcK, n = rows * k;
  float* sb = w;
  float* rb = w + t.splitSize;
  float* ab = rb + t.reduceSize;
  const uint64_t o1 = uint64_t{row0} * k;
  for (uint32_t j = 0; j < n; ++j) sb[j] = src[o1 + j] * grad[o1 + j];
  ReduceSumLastND(ab, sb, rb, rows, oriK, k, t.reduceK);
  BroadCastLast(sb, ab, t.reduceM, k, kBlk);  // brcParam: reduceM rows, the tail split's too
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
                           std::vector<uint8_t>& work, bool isFront, bool frontApi) {
  constexpr bool kHalf = std::is_same_v<T, Half>;
  if (Extent(kt, kHalf, isFront) * sizeof(float) > work.size()) return false;
  std::vector<float> w(work.size() / sizeof(float));
  std::memcpy(w.data(), work.data(), w.size() * sizeof(float));
  auto split = [&](uint32_t row0, uint32_t rows) {
    if constexpr (kHalf) {
      HalfSplit(kt, oriK, grad, src, dst, w.data(), isFront, row0, rows);
    } else if (isFront) {
      FloatFrontSplit(kt, oriK, grad, src, dst, w.data(), frontApi, row0, rows);
    } else {
      FloatSplit(kt, oriK, grad, src, dst, w.data(), row0, rows);
    }
  };
  for (uint32_t i = 0; i < kt.rangeM; ++i) split(i * kt.splitM, kt.splitM);
  if (kt.tailM != 0) split(kt.rangeM * kt.splitM, kt.tailM);
  std::memcpy(work.data(), w.data(), w.size() * sizeof(float));
  return true;
}

template bool ReplaySoftmaxGradWork<float>(const SmxTiling&, uint32_t, const float*, const float*,
                                           float*, std::vector<uint8_t>&, bool, bool);
template bool ReplaySoftmaxGradWork<Half>(const SmxTiling&, uint32_t, const Half*, const Half*,
                                          Half*, std::vector<uint8_t>&, bool, bool);

}  // namespace lngrad_replay
