// lngrad: what SoftmaxFlashV2 leaves in its work buffer (sharedTmpBuffer, or the stack buffer the
// overloads without it pop) on arch 2201, float data with float statistics, the broadcast mode's
// generic split loop (membase/common/softmax_flashv2_impl/softmax_flashv2_{no_update,update}_impl.h
// over membase/v220/softmax_common_impl/softmax_common_{nd_reduce,broadcast}.h).
//
// Per split of M rows (the tiling's splitM, then tailM), k = oriSrcK reduced columns:
//  - NewReduce{Max,Sum}LastNDImpl keep a 64-lane accumulator per row at tmp + 64 r (k >= 64:
//    BigBlockReduce's eight block trees then x + acc for k >= 512; chunk 0 + chunk 1 then
//    NextBlock for k in [128, 512); chunk 0 for [64, 128); the tail's acc + x), BlockReduce it
//    in place (M > 1) or WholeReduce it eight times into the statistics (M = 1); the compact
//    result goes to the statistics' first W = (M = 1 and k >= 64 ? 8 : M) floats;
//  - then, unless M = 1 with k > 64, AlignedBroadCastImpl's Brcb spreads the statistics' first
//    8 ceil(M / 8) floats q over tmp + 8 q (eight copies each) and copies M * 8 back: floats
//    q >= W are what the statistics held there (no update: expSum's contents before the call;
//    update: tmpBuffer0's, the row's new max lanes).
// No update: tmp is the work buffer; the sum's reduction covers the max's, so the buffer keeps
// the broadcast sums at 0 .. 64 ceil(M / 8) and the accumulators of rows ceil(M / 8) .. M - 1
// after them (M = 1, k > 64: row 0's accumulator). Update: tmpBuffer0 (at 0) keeps the row sums
// broadcast over [M, 8], tmpBuffer1 (at tiling.reduceSize) what the no-update buffer keeps. The
// tail split rewrites its footprint, the rest keeps the last full split's.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <vector>

#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

// The flash APIs' work-buffer guard: as LeaveWorkBuffer (the whole buffer marked for initcheck
// when the call returns, not on 3510), unless Modelled() says the call wrote what the kit leaves.
class FlashWorkBuffer {
 public:
  FlashWorkBuffer(const char* api, SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp)
      : api_(api), loc_(loc), tmp_(tmp.View()), pending_(std::uncaught_exceptions()) {}
  FlashWorkBuffer(const FlashWorkBuffer&) = delete;
  FlashWorkBuffer& operator=(const FlashWorkBuffer&) = delete;
  ~FlashWorkBuffer() {
    if (!modelled_ && std::uncaught_exceptions() == pending_ && !RegBase()) {
      math_detail::LeaveScratch(api_, loc_, tmp_);
    }
  }
  void Modelled() { modelled_ = true; }

 private:
  const char* api_;
  SrcLoc loc_;
  detail::TensorView tmp_;
  int pending_;
  bool modelled_ = false;
};

// SoftmaxFlashV2's float work buffer on 2201 (see the header comment). Covers the tilings of
// SoftMaxFlashV2TilingFunc's form: splits of splitM rows at srcK and reduceK = 8 covering srcM,
// the footprint inside the buffer; elsewhere Active() is false and the buffer stays marked.
class FlashV2FloatScratch {
 public:
  FlashV2FloatScratch(bool on, const AscendC::LocalTensor<uint8_t>& tmp,
                      const AscendC::tiling::SoftMaxTiling& t, const Dims& d, bool update)
      : tmp_(tmp), t_(t), d_(d), update_(update) {
    const bool shape = t.srcM == d.m && t.srcK == d.k && t.splitK == d.k && t.reduceK == 8 &&
                       t.splitM != 0 && t.rangeM != 0 &&
                       uint64_t{t.rangeM} * t.splitM + t.tailM == d.m &&
                       t.reduceSize == t.splitM * 8 && t.tailReduceSize == t.tailM * 8 &&
                       t.splitSize == t.splitM * d.k && t.tailSplitSize == t.tailM * d.k;
    on_ = on && shape && detail::rep::RunningArch() == NpuArch::k2201 &&
          tmp.HostPtr() != nullptr && Footprint(t.splitM) * 4 <= tmp.View().size_bytes;
  }
  bool Active() const { return on_; }

  // Before the rows are written: the statistics the broadcasts read past the rows' results.
  void Begin(const float* expSumBefore) {
    if (!on_) return;
    rows_.resize(d_.m);
    if (!update_) stale_.assign(expSumBefore, expSumBefore + uint64_t{d_.m} * 8);
  }
  // Row r: its max lanes (tmpBuffer0 after the update's Max), its sum, its exponentials.
  void Row(uint32_t r, const float* maxLanes, float sum, const float* e) {
    if (!on_) return;
    Kept& k = rows_[r];
    std::memcpy(k.max, maxLanes, sizeof k.max);
    k.sum = sum;
    if (d_.oriK >= kLanes) Accumulate(e, SplitRows(r), k.acc);
  }
  // Writes every split's footprint in the kit's order and records the writes.
  void Finish(const char* api, SrcLoc loc) {
    if (!on_) return;
    const uint64_t bytes = tmp_.View().size_bytes;
    std::vector<float> w(bytes / 4 + 1);
    std::memcpy(w.data(), tmp_.HostPtr(), bytes);
    for (uint32_t s = 0; s < t_.rangeM; ++s) Split(w.data(), s * t_.splitM, t_.splitM);
    if (t_.tailM != 0) Split(w.data(), t_.rangeM * t_.splitM, t_.tailM);
    std::memcpy(tmp_.HostPtr(), w.data(), bytes);
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    rec.Write(tmp_.HostPtr(), Footprint(t_.splitM) * 4);
  }

 private:
  struct Kept {
    float max[8], sum, acc[kLanes];
  };
  uint32_t SplitRows(uint32_t r) const {
    return r < uint64_t{t_.rangeM} * t_.splitM ? t_.splitM : t_.tailM;
  }
  // The accumulator region's floats for a split of m rows (k < 64: the broadcast only).
  uint64_t AccFloats(uint32_t m) const {
    const uint64_t brc = (m + 7) / 8 * uint64_t{kLanes};
    if (d_.oriK < kLanes) return brc;
    return m == 1 ? kLanes : uint64_t{m} * kLanes;
  }
  uint64_t Base() const { return update_ ? t_.reduceSize : 0; }
  uint64_t Footprint(uint32_t m) const { return Base() + AccFloats(m); }

  // The 64 lanes NewReduceSumLastNDImpl accumulates for a row of e in a split of m rows.
  void Accumulate(const float* e, uint32_t m, float* acc) const {
    const uint32_t k = d_.oriK, chunks = k / kLanes, tail = k % kLanes;
    if (k >= 512) {
      for (uint32_t i = 0; i < kLanes; ++i) acc[i] = Tree8(e + 8 * i);
      for (uint32_t c = 8; c < chunks; ++c) {
        for (uint32_t j = 0; j < kLanes; ++j) acc[j] = e[c * kLanes + j] + acc[j];
      }
    } else if (k >= 2 * kLanes) {
      for (uint32_t j = 0; j < kLanes; ++j) acc[j] = e[j] + e[kLanes + j];
      for (uint32_t c = 2; c < chunks; ++c) {
        for (uint32_t j = 0; j < kLanes; ++j) {
          const float x = e[c * kLanes + j];
          acc[j] = m > chunks ? acc[j] + x : x + acc[j];
        }
      }
    } else {
      std::memcpy(acc, e, kLanes * sizeof(float));
    }
    for (uint32_t j = 0; j < tail; ++j) acc[j] = acc[j] + e[chunks * kLanes + j];
  }

  // One split of m rows from row r0: what the sum's reduction (and the update's tmpBuffer0)
  // leave.
  void Split(float* w, uint32_t r0, uint32_t m) const {
    const uint32_t k = d_.oriK;
    float* acc = w + Base();
    if (update_) {
      for (uint32_t r = 0; r < m; ++r) {
        for (uint32_t j = 0; j < 8; ++j) w[uint64_t{r} * 8 + j] = rows_[r0 + r].sum;
      }
    }
    if (k >= kLanes) {
      const uint32_t from = m == 1 ? 0 : (m + 7) / 8;
      for (uint32_t r = from; r < m; ++r) {
        std::memcpy(acc + uint64_t{r} * kLanes, rows_[r0 + r].acc, kLanes * sizeof(float));
      }
    }
    if (m == 1 && k > kLanes) return;  // no broadcast
    const uint32_t written = m == 1 && k >= kLanes ? 8 : m;
    for (uint32_t q = 0; q < (m + 7) / 8 * 8; ++q) {
      float v = 0.0f;
      if (q < written) {
        v = rows_[r0 + (m == 1 ? 0 : q)].sum;
      } else if (update_) {
        v = rows_[r0 + q / 8].max[q % 8];
      } else {
        v = stale_[uint64_t{r0} * 8 + q];
      }
      for (uint32_t j = 0; j < 8; ++j) acc[uint64_t{q} * 8 + j] = v;
    }
  }

  const AscendC::LocalTensor<uint8_t>& tmp_;
  AscendC::tiling::SoftMaxTiling t_;
  Dims d_;
  bool update_, on_ = false;
  std::vector<Kept> rows_;
  std::vector<float> stale_;
};

}  // namespace lngrad::aicore::softmax_detail
