// lngrad: what SoftmaxFlashV3 (half data, float statistics) leaves in its work buffer
// (sharedTmpBuffer, or the stack buffer the overload without it pops) on arch 2201
// (membase/v220/softmax_flashv3_impl.h), for the shapes the kernel check accepts (srcK = oriSrcK,
// at least 512 and a multiple of 64, splitMeanCnt 8) and tilings of SoftMaxFlashV3TilingFunc's
// form (splits of splitM rows, then tailM; reduceK 8; tiling.srcM, which the 2201 kernel does not
// read, may be another shape's). d.m: the rows the splits cover (FlashV3Rows passes fewer than
// the call's where unchecked mode follows a tiling covering fewer).
//
// Per split of M rows (S = tiling.splitSize, R = tiling.reduceSize, A = 64 splitM; the offsets
// are the tiling's in the tail split too): x, the split cast to float, at 0; meanTmp at S;
// tmpBuffer1 (the 64-lane accumulators) at S + R; maxTmp (first rowMeanLocal) at S + A + R;
// shiftCurr (first rowMeanGlobalTmp) at S + A + 2R; shiftPrev at S + A + 3R (update); the
// segment shifts of the split's last row (srcK floats) after them (S + A + 3R, update 4R).
// SoftmaxFlashV3ReduceSumImpl: the BigBlock accumulators; in Counter mode over M * 64 elements,
// BlockReduceSum into maxTmp, Muls by 1 / baseK of all M * 64 floats from maxTmp (floats past
// the M * 8 local means, stale, are scaled too), BlockReduceSum of those into shiftCurr repeat
// by repeat; Brcb of 8 ceil(M / 8) of them over tmpBuffer1, the M * 8 copied back, meanTmp =
// them * 1/8; shiftCurr = (meanTmp - local) * sc; per row the Brcb of its shifts at tmpBuffer1,
// the Copy of baseK lanes per segment into the shifts' area, x -= it. Then the row max
// (NewReduceMaxLastNDImpl into maxTmp, in its order: NdRowMax, session 24; the sum's footprint
// in tmpBuffer1), shiftCurr = (meanTmp - mean) * sc, update: shiftPrev, maxTmp = exp(shiftPrev
// + (inMax - max)); shiftCurr = max - shiftCurr; x = exp(x - shiftCurr lane c % 8); the sum
// (NewReduceSumLastNDImpl into expSum, or update into meanTmp: accumulators, in-place BlockReduce
// and Brcb for M > 1 reading the statistics' floats past the M sums); update: BroadCastLastImpl of
// maxTmp's reduceM rows over the first 16 reduceM floats of x.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "lib/activation/softmax_flash_scratch.h"

namespace lngrad::aicore::softmax_detail {

// What FlashV3Row computed for a row that the buffer keeps: shiftCurr ((meanTmp - mean) * sc, mean
// as ModifyMaxImpl reads it), the final max, and with update shiftPrev and exp(shiftPrev + (inMax
// - max)).
struct FlashV3Kept {
  float cur[8] = {}, max[8] = {}, shiftPrev[8] = {}, em[8] = {};
};

class FlashV3Scratch {
 public:
  FlashV3Scratch(bool on, const AscendC::LocalTensor<uint8_t>& tmp,
                 const AscendC::tiling::SoftMaxTiling& t, const Dims& d, bool update,
                 uint32_t splitMeanCnt, float alpha)
      : tmp_(tmp), t_(t), d_(d), update_(update), sc_(alpha / (1.0f - alpha)) {
    const bool shape = t.srcK == d.k && d.oriK == d.k && t.splitK == d.k && d.k >= 512 &&
                       d.k % kLanes == 0 && splitMeanCnt == 8 && t.reduceK == 8 &&
                       t.reduceM == t.splitM && t.splitM != 0 &&
                       uint64_t{t.rangeM} * t.splitM + t.tailM == d.m &&
                       t.reduceSize == t.splitM * 8 && t.tailReduceSize == t.tailM * 8 &&
                       t.splitSize == t.splitM * d.k && t.tailSplitSize == t.tailM * d.k;
    on_ = on && shape && detail::rep::RunningArch() == NpuArch::k2201 && tmp.HostPtr() != nullptr;
  }
  bool Active() const { return on_; }

  // Before the rows are written: the source (widened) and expSum (the sum's broadcast reads it).
  void Begin(const half* src, const float* expSum) {
    if (!on_) return;
    kept_.resize(d_.m);
    src_.resize(uint64_t{d_.m} * d_.k);
    for (uint64_t i = 0; i < src_.size(); ++i) src_[i] = Widen(src[i]);
    if (!update_) ext_.assign(expSum, expSum + uint64_t{d_.m} * 8);
  }
  FlashV3Kept* Row(uint32_t r) { return on_ ? &kept_[r] : nullptr; }

  // Runs every split over an image of the buffer; writes it back and records the floats
  // written, or leaves the buffer to the caller's mark when the footprint passes its end.
  void Finish(const char* api, SrcLoc loc) {
    if (!on_) return;
    const uint64_t bytes = tmp_.View().size_bytes;
    floats_ = bytes / 4;
    w_.assign(floats_ + 1, 0.0f);
    std::memcpy(w_.data(), tmp_.HostPtr(), floats_ * 4);
    written_.assign(floats_, false);
    for (uint32_t s = 0; s < t_.rangeM && on_; ++s) Split(s * t_.splitM, t_.splitM);
    if (t_.tailM != 0 && on_) Split(t_.rangeM * t_.splitM, t_.tailM);
    if (!on_) return;
    std::memcpy(tmp_.HostPtr(), w_.data(), floats_ * 4);
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    for (uint64_t i = 0; i < floats_;) {
      if (!written_[i]) {
        ++i;
        continue;
      }
      uint64_t j = i;
      while (j < floats_ && written_[j]) ++j;
      rec.Write(tmp_.HostPtr() + i * 4, (j - i) * 4);
      i = j;
    }
  }

 private:
  float& At(uint64_t at) {
    if (at >= floats_) {
      on_ = false;
      return sink_;
    }
    written_[at] = true;
    return w_[at];
  }
  float Get(uint64_t at) {
    if (at < floats_) return w_[at];
    on_ = false;
    return 0.0f;
  }
  // One BlockReduceSum repeat: the eight block sums of the 64 floats at from, into to.
  void BlockSums(uint64_t to, uint64_t from) {
    float v[kLanes], s[8];
    for (uint32_t l = 0; l < kLanes; ++l) v[l] = Get(from + l);
    for (uint32_t b = 0; b < 8; ++b) s[b] = Tree8(v + 8 * b);
    for (uint32_t b = 0; b < 8; ++b) At(to + b) = s[b];
  }
  // The BigBlock sum accumulators of m rows of x at tmpBuffer1 (SoftmaxFlashV3ReduceSumImpl,
  // NewReduceSumLastNDImpl; the row max's footprint is the sum's).
  void Accumulate(uint32_t m) {
    for (uint32_t r = 0; r < m; ++r) {
      const uint64_t x = uint64_t{r} * d_.k, acc = tb1_ + uint64_t{r} * kLanes;
      for (uint32_t c = 0; c < 8; ++c) {
        for (uint32_t b = 0; b < 8; ++b) {
          float v[8];
          for (uint32_t e = 0; e < 8; ++e) v[e] = Get(x + c * kLanes + b * 8 + e);
          At(acc + c * 8 + b) = Tree8(v);
        }
      }
      for (uint32_t c = 8; c < d_.k / kLanes; ++c) {
        for (uint32_t l = 0; l < kLanes; ++l) {
          const float xv = Get(x + c * kLanes + l), a = Get(acc + l);
          At(acc + l) = xv + a;
        }
      }
    }
  }
  // NewReduceSumLastNDImpl's writes for m rows (k >= 512) into the statistics at stat (image
  // offset) or ext_ from row r0 (stat < 0): the row sums come from the image's x.
  void Sum(uint32_t r0, uint32_t m, int64_t stat) {
    Accumulate(m);
    const auto dst = [&](uint64_t q) -> float& {
      return stat < 0 ? ext_[uint64_t{r0} * 8 + q] : At(static_cast<uint64_t>(stat) + q);
    };
    if (m == 1) {
      float v[kLanes];
      for (uint32_t l = 0; l < kLanes; ++l) v[l] = Get(tb1_ + l);
      const float s = ScalarTree64(v, kLanes);
      for (uint32_t j = 0; j < 8; ++j) dst(j) = s;
      return;
    }
    for (uint32_t r = 0; r < m; ++r) BlockSums(tb1_ + uint64_t{r} * 8, tb1_ + uint64_t{r} * kLanes);
    for (uint32_t r = 0; r < m; ++r) {
      float v[8];
      for (uint32_t b = 0; b < 8; ++b) v[b] = Get(tb1_ + uint64_t{r} * 8 + b);
      dst(r) = Tree8(v);
    }
    for (uint32_t q = 0; q < (m + 7) / 8 * 8; ++q) {
      const float v = stat < 0 ? ext_[uint64_t{r0} * 8 + q] : Get(static_cast<uint64_t>(stat) + q);
      for (uint32_t j = 0; j < 8; ++j) At(tb1_ + uint64_t{q} * 8 + j) = v;
    }
    for (uint64_t q = 0; q < uint64_t{m} * 8; ++q) dst(q) = Get(tb1_ + q);
  }

  // SoftmaxFlashV3ReduceSumImpl and ModifyInputImpl over the image of m rows.
  void Center(uint32_t m) {
    const uint64_t n = uint64_t{m} * kLanes, rs = uint64_t{m} * 8, local = maxTmp_;
    const uint64_t global = maxTmp_ + t_.reduceSize;
    const uint32_t baseK = d_.k / 8;
    Accumulate(m);
    for (uint64_t p = 0; p < n / kLanes; ++p) BlockSums(local + 8 * p, tb1_ + kLanes * p);
    const float inv = 1.0f / static_cast<float>(baseK);
    for (uint64_t q = 0; q < n; ++q) At(local + q) = Get(local + q) * inv;
    for (uint64_t p = 0; p < n / kLanes; ++p) BlockSums(global + 8 * p, local + kLanes * p);
    for (uint64_t q = 0; q < (m + 7) / 8 * 8; ++q) {
      const float v = Get(global + q);
      for (uint32_t j = 0; j < 8; ++j) At(tb1_ + q * 8 + j) = v;
    }
    for (uint64_t q = 0; q < rs; ++q) At(global + q) = Get(tb1_ + q);
    for (uint64_t q = 0; q < rs; ++q) At(t_.splitSize + q) = Get(global + q) * 0.125f;
    for (uint64_t q = 0; q < rs; ++q) At(global + q) = Get(t_.splitSize + q) - Get(local + q);
    for (uint64_t q = 0; q < rs; ++q) At(global + q) = Get(global + q) * sc_;
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t j = 0; j < 64; ++j) At(tb1_ + j) = Get(global + uint64_t{r} * 8 + j / 8);
      for (uint32_t c = 0; c < d_.k; ++c) At(tb2_ + c) = Get(tb1_ + (c / baseK) * 8 + c % 8);
      const uint64_t x = uint64_t{r} * d_.k;
      for (uint32_t c = 0; c < d_.k; ++c) At(x + c) = Get(x + c) - Get(tb2_ + c);
    }
  }

  void Split(uint32_t r0, uint32_t m) {
    const uint64_t S = t_.splitSize, R = t_.reduceSize, A = uint64_t{t_.splitM} * kLanes;
    tb1_ = S + R;
    maxTmp_ = S + A + R;
    const uint64_t shiftCurr = S + A + 2 * R, shiftPrev = S + A + 3 * R;
    tb2_ = S + A + (update_ ? 4 : 3) * R;
    const uint64_t n = uint64_t{m} * d_.k, rs = uint64_t{m} * 8;
    for (uint64_t i = 0; i < n; ++i) At(i) = src_[uint64_t{r0} * d_.k + i];
    Center(m);
    // The row max (its footprint in tmpBuffer1 is the sum's): maxTmp's first rs floats; then
    // maxTmp = em with update.
    for (uint32_t r = 0; r < m; ++r) {
      const float mx = NdRowMax(&w_[uint64_t{r} * d_.k], d_.k, m);
      for (uint32_t j = 0; j < 8; ++j) At(maxTmp_ + uint64_t{r} * 8 + j) = mx;
    }
    for (uint64_t q = 0; q < rs; ++q) {
      const FlashV3Kept& k = kept_[r0 + q / 8];
      At(shiftCurr + q) = k.max[q % 8] - k.cur[q % 8];
      if (update_) {
        At(shiftPrev + q) = k.shiftPrev[q % 8];
        At(maxTmp_ + q) = k.em[q % 8];
      }
    }
    for (uint32_t r = 0; r < m; ++r) {
      const uint64_t x = uint64_t{r} * d_.k;
      for (uint32_t c = 0; c < d_.k; ++c)
        At(x + c) = ExpOf(Get(x + c) - Get(shiftCurr + uint64_t{r} * 8 + c % 8));
    }
    Sum(r0, m, update_ ? static_cast<int64_t>(S) : -1);
    if (!update_) return;
    for (uint64_t r = 0; r < t_.reduceM; ++r) {
      for (uint32_t j = 0; j < 16; ++j) At(r * 16 + j) = Get(maxTmp_ + r * 8 + j % 8);
    }
  }

  const AscendC::LocalTensor<uint8_t>& tmp_;
  AscendC::tiling::SoftMaxTiling t_;
  Dims d_;
  bool update_, on_ = false;
  float sc_;
  uint64_t tb1_ = 0, maxTmp_ = 0, tb2_ = 0, floats_ = 0;
  std::vector<FlashV3Kept> kept_;
  std::vector<float> src_, ext_, w_;
  std::vector<bool> written_;
  float sink_ = 0.0f;
};

}  // namespace lngrad::aicore::softmax_detail
