// lngrad: SoftmaxFlashV2's and SoftmaxFlashV3's row max on 2201/2002 (session 20). The broadcast
// mode's generic split loop (membase/common/softmax_flashv2_impl/softmax_flashv2_{no_update,
// update}_impl.h) and SoftmaxFlashV3 (membase/v220/softmax_flashv3_impl.h) take the row max with
// NewReduceMaxLastNDImpl, whose instruction order (NdRowMax in softmax_common.h: the first NaN
// lane wins, ±0 ties keep the source's operand order, the split's rows pick NextBlockMaxImpl's
// order) decides the result of rows with NaN or signed zeros; a left fold drops a NaN after the
// first column. The update's Max(inMax, rowmax) keeps that operand order (FlashLanes::LoadMax).
// Not covered here: the basic-block path (BasicBlockReduceMaxImpl's own order: lngrad's fold),
// the SOFTMAX_OUTPUT_WITHOUT_BRC forms, the config path with splitK below srcK, and 3510
// (RegRowMax).
//
// FlashV2BasicScratch: what the isBasicBlock path (softmax_flashv2_basic_block_impl.h, the 2201
// branches; softmax_flashv2_block_reduce_impl.h) leaves in the work buffer, float data and float
// statistics in the broadcast mode, split by split over an image of the buffer (each split writes
// the same footprint, so the last full split's values remain; there is no tail split). Floats
// of the buffer, M = splitM, K = srcK:
//  - no update: tmpBuffer1 at 0 (the reductions' work), tmpBuffer2 at 64 M (their 8 ceil(M / 8)
//    results); the max, then the sum of the exponentials;
//  - update: tmpBuffer1 at 0, tmpBuffer2 at 64 M (inMax copied, then inMax - max), tmpBuffer3 at
//    32 M (the sums); the max's results broadcast over tmpBuffer1 by Brcb, then the sum's.
// BasicBlockReduce{Max,Sum}Impl over [M, K]: K = 512: BlockReduce of every block into tmp (64 a
// row), then in place into 8 a row, then into dst; K = 1024: the first 8 rows' 128 block values,
// 16 a row, the pairs of blocks combined into 8 a row, then dst; K = 64: BlockReduce into 8 a
// row; K above 512: each row's first 512 block-reduced into 64 lanes, then chunks 8.. as
// op(chunk, acc); else chunk 0 op chunk 1, then op(acc, chunk) (M > K / 64); those 64-lane rows
// then BlockReduce-d in place and into dst. Covered: splitM a multiple of 8, rangeM >= 1, the
// tiling made for the shape, K = 1024 with splitM 8, the uint8_t repeats (splitSize / 64 and 8 M)
// at most 255, a footprint inside the buffer; elsewhere Active() is false and the buffer stays
// marked (half data, the M1 mode and 2002 too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

// SOFTMAX_OUTPUT_WITHOUT_BRC on 2002 (ND): the kit's membase/v200/softmax_flashv2_impl.h defines
// SoftmaxFlashV2M1PostProcess as one ASCENDC_ASSERT ("softmaxflashv2 is not supported on current
// device!"), for the plain and the outReduceMax forms alike: checked mode refuses it (product);
// unchecked nothing is written (true: the caller returns).
inline bool FlashV2M1On2002(const char* api) {
  if (detail::rep::RunningArch() != NpuArch::k2002) return false;
  if (CheckedMode()) {
    RaiseKernelCheck(checks::kProduct,
                     std::string(api) + ": SOFTMAX_OUTPUT_WITHOUT_BRC is not supported on arch " +
                         "2002 (the kit's v200 SoftmaxFlashV2M1PostProcess asserts)");
  }
  return true;
}

// Row r's max over its first k values; d carries the kernel tiling's splits (WithSplits).
// generic: the broadcast mode's generic path on 2201/2002 (NdRowMax); otherwise RowMax.
inline float FlashRowMax(const float* x, uint32_t k, const Dims& d, uint32_t r, bool generic) {
  if (!generic || RegBase()) return RowMax(x, k);
  return NdRowMax(x, k, SplitRowsAt(d, r));
}

class FlashV2BasicScratch {
 public:
  FlashV2BasicScratch(bool on, const AscendC::LocalTensor<uint8_t>& tmp,
                      const AscendC::tiling::SoftMaxTiling& t, const Dims& d, bool update)
      : tmp_(tmp), t_(t), k_(d.k), update_(update) {
    const uint32_t m = t.splitM;
    on_ = on && detail::rep::RunningArch() == NpuArch::k2201 && tmp.HostPtr() != nullptr &&
          t.srcM == d.m && t.srcK == d.k && t.splitK == d.k && d.k % kLanes == 0 && m != 0 &&
          m % 8 == 0 && t.rangeM != 0 && t.reduceK == 8 && t.reduceSize == m * 8 &&
          t.splitSize == m * d.k && (d.k != 1024 || m == 8) && t.splitSize / kLanes <= 255 &&
          m * 8 <= 255;
  }
  bool Active() const { return on_; }

  // The typed entry points (D data, U statistics): only float/float is covered.
  template <typename D, typename U>
  void Begin(const AscendC::LocalTensor<D>& src, const AscendC::LocalTensor<U>& inMax) {
    if constexpr (std::is_same_v<D, float> && std::is_same_v<U, float>) {
      Begin(src.HostPtr(), inMax.HostPtr());
    }
  }
  template <typename D, typename U>
  void Finish(const char* api, SrcLoc loc, const AscendC::LocalTensor<D>& dst,
              const AscendC::LocalTensor<U>& max) {
    if constexpr (std::is_same_v<D, float> && std::is_same_v<U, float>) {
      Finish(api, loc, dst.HostPtr(), max.HostPtr());
    }
  }

  // Before the rows are computed: the sources the reductions read.
  void Begin(const float* src, const float* inMax) {
    if (!on_) return;
    const uint64_t rows = uint64_t{t_.rangeM} * t_.splitM;
    src_.assign(src, src + rows * k_);
    if (update_) inMax_.assign(inMax, inMax + rows * 8);
  }

  // After: dst holds the exponentials, max the new maxima. Runs every split over an image of the
  // buffer, writes it back and records the floats written.
  void Finish(const char* api, SrcLoc loc, const float* dst, const float* max) {
    if (!on_) return;
    const uint64_t bytes = tmp_.View().size_bytes;
    n_ = bytes / 4;
    img_.assign(n_ + 2048 + uint64_t{t_.splitM} * kLanes * 2, 0.0f);
    std::memcpy(img_.data(), tmp_.HostPtr(), bytes);
    written_.assign(n_, false);
    for (uint32_t s = 0; s < t_.rangeM; ++s) Split(s, dst, max);
    if (high_ > n_) {  // the kit's footprint passes the buffer's end: left marked
      on_ = false;
      return;
    }
    std::memcpy(tmp_.HostPtr(), img_.data(), bytes);
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    for (uint64_t i = 0; i < n_;) {  // the runs of floats written
      if (!written_[i]) {
        ++i;
        continue;
      }
      uint64_t j = i;
      while (j < n_ && written_[j]) ++j;
      rec.Write(tmp_.HostPtr() + i * 4, (j - i) * 4);
      i = j;
    }
  }

 private:
  float* W(uint64_t at, uint64_t n) {
    high_ = std::max(high_, at + n);
    for (uint64_t i = at; i < at + n && i < n_; ++i) written_[i] = true;
    return img_.data() + at;
  }
  static float Op(bool sum, float a, float b) { return sum ? a + b : (a > b ? a : b); }
  static float Blk(bool sum, const float* v) { return sum ? Tree8(v) : LaneMax(v, 8); }
  // BlockReduce of `rep` repeats from image float `from` (or the row data x) into image `to`.
  void BlockLevel(bool sum, uint64_t to, const float* x, uint64_t rep) {
    for (uint64_t q = 0; q < rep; ++q) {
      float o[8];
      for (uint32_t b = 0; b < 8; ++b) o[b] = Blk(sum, x + q * kLanes + b * 8);
      std::memcpy(W(to + q * 8, 8), o, sizeof o);
    }
  }
  // BasicBlockReduce{Max,Sum}Impl of the split's rows x ([M, K]) into image `dst`, work at 0.
  void Reduce(bool sum, uint64_t dst, const float* x) {
    const uint32_t m = t_.splitM, chunks = k_ / kLanes;
    float* w = img_.data();
    if (k_ == 512 || k_ == 1024) {
      BlockLevel(sum, 0, x, k_ == 512 ? uint64_t{m} * 8 : 2 * kLanes);
      BlockLevel(sum, 0, w, k_ == 512 ? m : 16);
      if (k_ == 1024) {
        float o[kLanes];
        for (uint32_t j = 0; j < kLanes; ++j)
          o[j] = Op(sum, w[2 * j - j % 8], w[2 * j - j % 8 + 8]);
        std::memcpy(W(0, kLanes), o, sizeof o);
      }
      BlockLevel(sum, dst, w, k_ == 512 ? (m + 7) / 8 : 1);
      return;
    }
    for (uint32_t r = 0; r < m && chunks > 1; ++r) {  // the 64-lane rows
      const float* row = x + uint64_t{r} * k_;
      float* acc = W(uint64_t{r} * kLanes, kLanes);
      if (k_ > 512) {
        for (uint32_t b = 0; b < 64; ++b) acc[b] = Blk(sum, row + 8 * b);
        for (uint32_t c = 8; c < chunks; ++c) {
          for (uint32_t l = 0; l < kLanes; ++l) acc[l] = Op(sum, row[c * kLanes + l], acc[l]);
        }
        continue;
      }
      for (uint32_t l = 0; l < kLanes; ++l) acc[l] = Op(sum, row[l], row[kLanes + l]);
      for (uint32_t c = 2; c < chunks; ++c) {
        for (uint32_t l = 0; l < kLanes; ++l) {
          const float v = row[c * kLanes + l];
          acc[l] = m > chunks ? Op(sum, acc[l], v) : Op(sum, v, acc[l]);
        }
      }
    }
    BlockLevel(sum, 0, chunks == 1 ? x : w, m);
    BlockLevel(sum, dst, w, (m + 7) / 8);
  }
  // Brcb of ceil(M / 8) repeats from image `from` over image `to`.
  void Brcb(uint64_t to, uint64_t from) {
    const uint64_t n = uint64_t{(t_.splitM + 7) / 8} * kLanes;
    std::vector<float> v(n);
    for (uint64_t p = 0; p < n; ++p) v[p] = img_[from + p / 8];
    std::memcpy(W(to, n), v.data(), n * 4);
  }
  void Split(uint32_t s, const float* dst, const float* max) {
    const uint32_t m = t_.splitM;
    const uint64_t b2 = uint64_t{m} * kLanes, o1 = uint64_t{s} * t_.splitSize;
    const uint64_t o2 = uint64_t{s} * t_.reduceSize, rs = t_.reduceSize;
    Reduce(false, b2, src_.data() + o1);
    if (!update_) {
      Reduce(true, b2, dst + o1);
      return;
    }
    Brcb(0, b2);
    float* in = W(b2, rs);  // Copy of inMax, then Sub of the new max
    for (uint64_t p = 0; p < rs; ++p) in[p] = inMax_[o2 + p] - max[o2 + p];
    Reduce(true, b2 / 2, dst + o1);
    Brcb(0, b2 / 2);
  }

  const AscendC::LocalTensor<uint8_t>& tmp_;
  AscendC::tiling::SoftMaxTiling t_;
  uint32_t k_;
  bool update_, on_ = false;
  std::vector<float> src_, inMax_, img_;
  std::vector<bool> written_;
  uint64_t n_ = 0, high_ = 0;
};

}  // namespace lngrad::aicore::softmax_detail
