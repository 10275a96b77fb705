// lngrad: what SoftmaxFlashV2 leaves in its work buffer (sharedTmpBuffer, or the stack buffer the
// overloads without it pop) on arch 2201, the broadcast mode's generic split loop
// (membase/common/softmax_flashv2_impl/softmax_flashv2_{no_update,update}_impl.h over
// membase/v220/softmax_common_impl/softmax_common_{nd_reduce,broadcast}.h): float data and
// statistics, half data with half or float statistics; also the constant-shape config's generic
// path with config.oriSrcK rounded up to 8 equal to srcK (the same loop, k = config.oriSrcK), and
// below it (softmax_flashv2_paths.h FlashV2ConfigScratch: the rows reduced at that stride).
//
// Per split of M rows (the tiling's splitM, then tailM), k = oriSrcK reduced columns, dk = the
// statistics per row (8 float, 16 half), NewReduce{Max,Sum}LastNDImpl keep a 64-lane accumulator
// per row at tmp + 64 r (k >= 64: BigBlockReduce's eight block trees then x + acc for k >= 512;
// chunk 0 + chunk 1 then NextBlock for [128, 512); chunk 0 for [64, 128); the tail's acc + x),
// BlockReduce it in place (M > 1) or WholeReduce it eight times (M = 1, dk 16: DataCopy of the 8)
// into their float statistics dst; the compact results fill dst's first W floats (W = dk with
// M = 1 and k >= 64, else M); unless M = 1 with k > 64, AlignedBroadCastImpl's Brcb spreads dst's
// first 8 ceil(M / 8) floats q over tmp (q at 8 q, or 16 q for dk 16) and copies M * dk back, so
// floats q >= W are what dst held there. The sum's reduction covers the max's footprint in tmp.
// Where the kit keeps its pieces (S = tiling.splitSize, R = tiling.reduceSize, A = 64 splitM):
//  - float, no update: tmp at 0; dst = expSum (its contents before the call);
//  - float, update: tmpBuffer0 at 0 (dst: the new max lanes, then the sums), tmp at R;
//  - half, no update: the split's float exponentials at 0; half statistics: dst at S (the row
//    maxima), tmp at S + R; float statistics: dst = expSum, tmp at S;
//  - half, update: the exponentials at 0, tmpBuffer1 at S (expMax * inExpSum), tmp at S + R,
//    tmpBuffer3 at S + R + A (dst: half statistics the new max lanes, float ones the row
//    maxima; then the sums); half statistics: tmp's first M * 16 floats the new expSum; float
//    statistics: BroadCastLastImpl spreads tmpBuffer1's tiling.reduceM rows (expMax, or an
//    earlier split's products past M) over the first 16 reduceM floats.
// The tail split rewrites its footprint, the rest keeps the last full split's. The splits whose
// uint8_t reduction operands wrap (V220Defect, unchecked) are not run here: the device's buffer
// and results come from softmax_flashv2_v220_device.h FlashV2WorkV220.
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

// The per-row values the work buffer keeps, from FlashV2Rows' own steps.
struct FlashRowKept {
  float rowMax = 0.0f, sum = 0.0f, acc[kLanes] = {};
  float max[16] = {}, expMax[16] = {}, inSum[16] = {};
  std::vector<float> e;  // the row's float exponentials (half data: tmpBuffer0 keeps them)
};

// SoftmaxFlashV2's work buffer on 2201 (see the header comment), data float or half (half),
// statistics float or half (statHalf). Covers the tilings of SoftMaxFlashV2TilingFunc's form
// (splits of splitM rows at srcK, reduceK = 32 bytes of statistics, covering srcM) whose
// footprint lies inside the buffer; elsewhere Active() is false and the buffer stays marked.
class FlashV2Scratch {
 public:
  FlashV2Scratch(bool on, const AscendC::LocalTensor<uint8_t>& tmp,
                 const AscendC::tiling::SoftMaxTiling& t, const Dims& d, bool update, bool half,
                 bool statHalf)
      : tmp_(tmp), t_(t), d_(d), update_(update), half_(half), statHalf_(statHalf) {
    const uint32_t lanes = statHalf ? 16 : 8;
    const bool shape = t.srcM == d.m && t.srcK == d.k && t.splitK == d.k && t.reduceK == lanes &&
                       t.reduceM == t.splitM && t.splitM != 0 && t.rangeM != 0 &&
                       uint64_t{t.rangeM} * t.splitM + t.tailM == d.m &&
                       t.reduceSize == t.splitM * lanes && t.tailReduceSize == t.tailM * lanes &&
                       t.splitSize == t.splitM * d.k && t.tailSplitSize == t.tailM * d.k;
    on_ = on && shape && detail::rep::RunningArch() == NpuArch::k2201 && tmp.HostPtr() != nullptr &&
          (!statHalf || half);
  }
  bool Active() const { return on_; }

  // Before the rows are written: the float statistics the broadcasts read past the results.
  void Begin(const void* expSumBefore) {
    if (!on_) return;
    rows_.resize(d_.m);
    if (!statHalf_ && !update_) {
      const float* p = static_cast<const float*>(expSumBefore);
      ext_.assign(p, p + uint64_t{d_.m} * 8);
    }
  }
  FlashRowKept* Row(uint32_t r) { return on_ ? &rows_[r] : nullptr; }
  // Row r's sum accumulators (its exponentials e) in the split it belongs to.
  void Accumulate(uint32_t r, const float* e) {
    if (on_ && d_.oriK >= kLanes) AccumulateLanes(e, SplitRows(r), rows_[r].acc);
  }

  // Runs every split over an image of the buffer; writes it back and records the floats
  // written, or leaves the buffer to the caller's mark when the footprint passes its end.
  void Finish(const char* api, SrcLoc loc) {
    if (!on_) return;
    const uint64_t bytes = tmp_.View().size_bytes;
    w_.assign(bytes / 4 + 1, 0.0f);
    std::memcpy(w_.data(), tmp_.HostPtr(), bytes);
    floats_ = bytes / 4;
    written_.assign(floats_, false);
    for (uint32_t s = 0; s < t_.rangeM && on_; ++s) Split(s * t_.splitM, t_.splitM);
    if (t_.tailM != 0 && on_) Split(t_.rangeM * t_.splitM, t_.tailM);
    if (!on_) return;
    std::memcpy(tmp_.HostPtr(), w_.data(), bytes);
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
  uint32_t SplitRows(uint32_t r) const {
    return r < uint64_t{t_.rangeM} * t_.splitM ? t_.splitM : t_.tailM;
  }
  // Float `at` of the image, marked written; past the buffer the model gives up.
  float* At(uint64_t at) {
    if (at >= floats_) {
      on_ = false;
      return &sink_;
    }
    written_[at] = true;
    return &w_[at];
  }
  void Put(uint64_t at, float v) { *At(at) = v; }
  float Read(uint64_t at) {
    if (at < floats_) return w_[at];
    on_ = false;
    return 0.0f;
  }

  // The 64 lanes NewReduceSumLastNDImpl accumulates for a row of e in a split of m rows.
  void AccumulateLanes(const float* e, uint32_t m, float* acc) const {
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

  // The statistics a reduction writes: in the image (at >= 0) or the float tensor's copy.
  struct Stat {
    FlashV2Scratch* s;
    int64_t at;  // -1: ext_ from row r0
    uint64_t r0;
    float Get(uint64_t q) const { return at < 0 ? s->ext_[r0 * 8 + q] : s->Read(at + q); }
    void Set(uint64_t q, float v) const {
      if (at < 0) {
        s->ext_[r0 * 8 + q] = v;
      } else {
        s->Put(at + q, v);
      }
    }
  };

  // NewReduce{Max,Sum}LastNDImpl of m rows from r0 into dst ([m, dk]) through tmp (image
  // offset): the max (sum false) leaves its row maxima broadcast in dst (its tmp rows are the
  // sum's footprint too); the sum writes its accumulators, its compact sums, the Brcb rows
  // (stale dst floats past them) and copies m * dk back.
  void Reduce(const Stat& dst, uint64_t tmp, uint32_t r0, uint32_t m, uint32_t dk, bool sum) {
    const uint32_t k = d_.oriK;
    if (!sum) {  // into maxTensor (dst.at < 0): not the scratch, not read later
      if (dst.at < 0) return;
      for (uint64_t q = 0; q < uint64_t{m} * dk; ++q) dst.Set(q, rows_[r0 + q / dk].rowMax);
      return;
    }
    uint32_t compact = m;
    if (k >= kLanes) {
      const uint32_t from = m == 1 ? 0 : (m + 7) / 8 * dk / 8;  // rows the broadcast keeps
      for (uint32_t r = from; r < m; ++r) {
        for (uint32_t j = 0; j < kLanes; ++j)
          Put(tmp + uint64_t{r} * kLanes + j, rows_[r0 + r].acc[j]);
      }
      if (m == 1) compact = dk;
    }
    for (uint32_t q = 0; q < compact; ++q) dst.Set(q, rows_[r0 + (m == 1 ? 0 : q)].sum);
    if (m == 1 && k > kLanes) return;
    const uint32_t blocks = (m + 7) / 8 * 8;
    if (dk == 16 && m != 1) {
      for (uint32_t q = 0; q < blocks; ++q) {
        const float v = dst.Get(q);
        for (uint32_t j = 0; j < 16; ++j) Put(tmp + uint64_t{q} * 16 + j, v);
      }
    } else {
      for (uint32_t q = 0; q < blocks; ++q) {
        const float v = dst.Get(q);
        for (uint32_t j = 0; j < 8; ++j) Put(tmp + uint64_t{q} * 8 + j, v);
      }
      if (dk == 16) {
        for (uint32_t j = 0; j < 8; ++j) Put(tmp + 8 + j, Read(tmp + j));
      }
    }
    for (uint64_t q = 0; q < uint64_t{m} * dk; ++q) dst.Set(q, Read(tmp + q));
  }

  void Exps(uint32_t r0, uint32_t m) {
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t c = 0; c < d_.k; ++c) Put(uint64_t{r} * d_.k + c, rows_[r0 + r].e[c]);
    }
  }

  void Split(uint32_t r0, uint32_t m) {
    const uint64_t S = t_.splitSize, R = t_.reduceSize, A = uint64_t{t_.splitM} * kLanes;
    const uint32_t dk = statHalf_ ? 16 : 8;
    const uint64_t rs = uint64_t{m} * dk;
    if (!half_) {
      if (!update_) {
        Reduce({this, -1, r0}, 0, r0, m, 8, false);
        Reduce({this, -1, r0}, 0, r0, m, 8, true);
        return;
      }
      Reduce({this, 0, r0}, R, r0, m, 8, false);
      for (uint64_t p = 0; p < rs; ++p) Put(p, rows_[r0 + p / 8].max[p % 8]);
      Reduce({this, 0, r0}, R, r0, m, 8, true);
      return;
    }
    if (!update_) {
      const Stat st = statHalf_ ? Stat{this, static_cast<int64_t>(S), r0} : Stat{this, -1, r0};
      const uint64_t acc = statHalf_ ? S + R : S;
      Reduce(st, acc, r0, m, dk, false);
      Exps(r0, m);
      Reduce(st, acc, r0, m, dk, true);
      return;
    }
    const uint64_t t3 = S + R + A;
    Reduce({this, static_cast<int64_t>(t3), r0}, S + R, r0, m, dk, false);
    Exps(r0, m);
    if (statHalf_) {
      for (uint64_t p = 0; p < rs; ++p) Put(t3 + p, rows_[r0 + p / 16].max[p % 16]);
    }
    Reduce({this, static_cast<int64_t>(t3), r0}, S + R, r0, m, dk, true);
    for (uint64_t p = 0; p < rs; ++p) {  // tmpBuffer1: expMax * inExpSum
      const FlashRowKept& k = rows_[r0 + p / dk];
      Put(S + p, k.expMax[p % dk] * k.inSum[p % dk]);
    }
    if (statHalf_) {  // tmpBuffer2's first rs floats: inExpSum, then the new expSum
      for (uint64_t p = 0; p < rs; ++p) Put(S + R + p, Read(S + p) + Read(t3 + p));
      return;
    }
    for (uint64_t r = 0; r < t_.reduceM; ++r) {  // BroadCastLastImpl of tmpBuffer1 over tmpBuffer0
      for (uint32_t j = 0; j < 16; ++j) Put(r * 16 + j, ExpMaxBrc(r0, m, r, j));
    }
  }
  // tmpBuffer1 row r lane j % 8 when BroadCastLastImpl runs: the split's expMax, or what an
  // earlier split left (its products) for rows past m.
  float ExpMaxBrc(uint32_t r0, uint32_t m, uint64_t r, uint32_t j) {
    if (r < m) return rows_[r0 + r].expMax[j % 8];
    return Read(t_.splitSize + r * 8 + j % 8);
  }

  const AscendC::LocalTensor<uint8_t>& tmp_;
  AscendC::tiling::SoftMaxTiling t_;
  Dims d_;
  bool update_, half_, statHalf_, on_ = false;
  std::vector<FlashRowKept> rows_;
  std::vector<float> ext_, w_;
  std::vector<bool> written_;
  uint64_t floats_ = 0;
  float sink_ = 0.0f;
};

}  // namespace lngrad::aicore::softmax_detail
