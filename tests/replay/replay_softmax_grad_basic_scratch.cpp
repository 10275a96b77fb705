// SoftmaxGradFront with isBasicBlock on 2201 / 2002 (replay_softmax_grad_basic_scratch.h): each
// instruction of the kit's full-split sequence over a float image of the work buffer, repeat by
// repeat in the kit's order (a repeat reads its operands, then writes).
#include "replay_softmax_grad_basic_scratch.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "replay_softmax_grad_scratch.h"

namespace lngrad_replay {
namespace {

constexpr uint64_t kRep = 64;  // floats per repeat
constexpr uint64_t kBlk = 8;   // floats per 32-byte block

// BlockReduceSum of one block: adjacent pairs, then their pairs.
float PairSum8(const float* v) {
  const float a = v[0] + v[1], b = v[2] + v[3], c = v[4] + v[5], d = v[6] + v[7];
  return (a + b) + (c + d);
}

// BlockReduceSum(dst, src, repeat, full mask, dstRepStride 1, srcBlkStride 1, srcRepStride) on
// offsets into w: repeat r reads 64 floats at src + r * srcStride, writes 8 sums at dst + 8 r.
void BlockReduce(std::vector<float>& w, uint64_t dst, uint64_t src, uint64_t repeat,
                 uint64_t srcStride) {
  for (uint64_t r = 0; r < repeat; ++r) {
    float in[kRep], out[kBlk];
    std::memcpy(in, &w[src + r * srcStride], sizeof in);
    for (uint64_t b = 0; b < kBlk; ++b) out[b] = PairSum8(in + b * kBlk);
    std::memcpy(&w[dst + r * kBlk], out, sizeof out);
  }
}

// The chunk Adds: for j in [1, splitBlock), every row's first 64 floats += its chunk j.
void ChunkAdds(std::vector<float>& w, uint64_t at, uint64_t rows, uint64_t k, uint64_t blocks) {
  for (uint64_t j = 1; j < blocks; ++j) {
    for (uint64_t r = 0; r < rows; ++r) {
      float* row = &w[at + r * k];
      for (uint64_t l = 0; l < kRep; ++l) row[l] = row[l] + row[kRep * j + l];
    }
  }
}

// Float: each of `groups` groups of 8 sums at w[from + 8 q] read, then sum b put to `lanes`
// elements at q * 8 * lanes + b * lanes: 2201's Brcb {1, 8} and 2002's AlignedBrcbImpl (8
// scalars, then 8 Duplicates of 8) store the same per group.
template <class Put>
void Broadcast(const std::vector<float>& w, uint64_t from, uint64_t groups, uint64_t lanes,
               Put put) {
  for (uint64_t q = 0; q < groups; ++q) {
    float x[kBlk];
    std::memcpy(x, &w[from + q * kBlk], sizeof x);
    for (uint64_t b = 0; b < kBlk; ++b) {
      for (uint64_t l = 0; l < lanes; ++l) put(q * kBlk * lanes + b * lanes, l, x[b]);
    }
  }
}

Half Narrow(float v, bool v200) { return v200 ? FloatToHalf(v) : FloatToHalfRoundAway(v); }

}  // namespace

template <class T>
bool ReplaySoftmaxGradFrontBasicWork(const SmxTiling& kt, uint32_t oriK, const T* grad,
                                     const T* src, T* dst, uint64_t dstLen,
                                     std::vector<uint8_t>& work, bool v200) {
  constexpr bool kHalf = std::is_same_v<T, Half>;
  const uint64_t s = kt.splitSize, k = kt.splitK, blocks = k / kRep;
  const uint64_t ceilM = (uint64_t{kt.splitM} + 7) / 8, repeats = s / kRep;
  const uint64_t lanes = kHalf ? 16 : 8;  // a row's floats in the broadcast image
  const uint64_t castRep = (uint64_t{kt.reduceSize} + kRep - 1) / kRep;
  std::vector<float> w(work.size() / 4);
  std::memcpy(w.data(), work.data(), w.size() * 4);
  if (kt.rangeM != 0) {
    if (k == 0 || k % kRep != 0 || repeats > 255 || kt.splitM > 255 || blocks * 8 > 255 ||
        ceilM > 255 || castRep > 255) {
      return false;
    }
    // Half: src, grad, product at 0, s, 2s, sums at 3s; float: product at 0, sums at s. The
    // second BlockReduceSum reads ceilM repeats of the product buffer; the broadcast (half) writes
    // ceilM * 128 floats there.
    const uint64_t prod = kHalf ? 2 * s : 0, sums = kHalf ? 3 * s : s;
    const uint64_t end = std::max(
        {sums + ceilM * kBlk, prod + ceilM * kRep, kHalf ? prod + ceilM * kBlk * lanes : 0});
    if (end > w.size()) return false;
    const uint64_t dstEnd =
        uint64_t{kt.rangeM - 1} * kt.reduceSize + (kHalf ? castRep * kRep : ceilM * kBlk * lanes);
    if (dstEnd > dstLen) return false;
  }
  for (uint64_t i = 0; i < kt.rangeM; ++i) {
    const uint64_t o1 = i * s, o2 = i * kt.reduceSize;
    if constexpr (kHalf) {
      const uint64_t sb = 0, gb = s, db = 2 * s, rb = 3 * s;
      for (uint64_t j = 0; j < repeats * kRep; ++j) w[sb + j] = HalfToFloat(src[o1 + j]);
      for (uint64_t j = 0; j < repeats * kRep; ++j) w[gb + j] = HalfToFloat(grad[o1 + j]);
      for (uint64_t j = 0; j < repeats * kRep; ++j) w[db + j] = w[sb + j] * w[gb + j];
      ChunkAdds(w, db, kt.splitM, k, blocks);
      BlockReduce(w, db, db, kt.splitM, blocks * kRep);
      BlockReduce(w, rb, db, ceilM, kRep);
      for (uint64_t q = 0; q < ceilM; ++q) {
        float x[kBlk];
        std::memcpy(x, &w[rb + q * kBlk], sizeof x);
        for (uint64_t b = 0; b < kBlk; ++b) {
          // 2201: the first Brcb writes the even blocks of every group, then the second reads rb
          // again; 2002: each group's 8 scalars, then its 16-lane Duplicates.
          for (uint64_t l = 0; l < kBlk; ++l) w[db + q * 128 + b * 16 + l] = x[b];
          if (v200) {
            for (uint64_t l = kBlk; l < 16; ++l) w[db + q * 128 + b * 16 + l] = x[b];
          }
        }
      }
      if (!v200) {  // the second Brcb (dst + 8 floats) reads rb as the first left it
        for (uint64_t q = 0; q < ceilM; ++q) {
          float x[kBlk];
          std::memcpy(x, &w[rb + q * kBlk], sizeof x);
          for (uint64_t b = 0; b < kBlk; ++b) {
            for (uint64_t l = kBlk; l < 16; ++l) w[db + q * 128 + b * 16 + l] = x[b];
          }
        }
      }
      for (uint64_t j = 0; j < castRep * kRep; ++j) dst[o2 + j] = Narrow(w[db + j], v200);
    } else {
      const uint64_t sb = 0, rb = s;
      for (uint64_t j = 0; j < repeats * kRep; ++j) w[sb + j] = src[o1 + j] * grad[o1 + j];
      ChunkAdds(w, sb, kt.splitM, k, blocks);
      BlockReduce(w, sb, sb, kt.splitM, blocks * kRep);
      BlockReduce(w, rb, sb, ceilM, kRep);
      Broadcast(w, rb, ceilM, lanes,
                [&](uint64_t at, uint64_t l, float v) { dst[o2 + at + l] = v; });
    }
  }
  std::memcpy(work.data(), w.data(), w.size() * 4);
  if (kt.tailM == 0) return true;
  // The tail split: the generic branch (sm3's replay of SoftmaxGradFrontNDImpl's tail).
  SmxTiling tail = kt;
  tail.rangeM = 0;
  const uint64_t r0 = uint64_t{kt.rangeM} * kt.splitM;
  return ReplaySoftmaxGradWork<T>(tail, oriK, grad + r0 * k, src + r0 * k,
                                  dst + uint64_t{kt.rangeM} * kt.reduceSize, work, true, true,
                                  v200);
}

template bool ReplaySoftmaxGradFrontBasicWork<float>(const SmxTiling&, uint32_t, const float*,
                                                     const float*, float*, uint64_t,
                                                     std::vector<uint8_t>&, bool);
template bool ReplaySoftmaxGradFrontBasicWork<Half>(const SmxTiling&, uint32_t, const Half*,
                                                    const Half*, Half*, uint64_t,
                                                    std::vector<uint8_t>&, bool);

}  // namespace lngrad_replay
