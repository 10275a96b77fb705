// lngrad: SoftmaxFlashV2's and SoftmaxFlashV3's row max on 2201/2002 (session 20). The broadcast
// mode's generic split loop (membase/common/softmax_flashv2_impl/softmax_flashv2_{no_update,
// update}_impl.h) and SoftmaxFlashV3 (membase/v220/softmax_flashv3_impl.h) take the row max with
// NewReduceMaxLastNDImpl, whose instruction order (NdRowMax in softmax_common.h: the first NaN
// lane wins, ±0 ties keep the source's operand order, the split's rows pick NextBlockMaxImpl's
// order) decides the result of rows with NaN or signed zeros; a left fold drops a NaN after the
// first column. The update's Max(inMax, rowmax) keeps that operand order (FlashLanes::LoadMax).
// Session 22 (wob): the same order for the SOFTMAX_OUTPUT_WITHOUT_BRC generic path on 2201
// (SoftmaxFlashV2M1{NoUpdate,Update}ImplProcess: NewReduceMaxLastNDImpl<false>, the update's
// Max(inMax, rowmax)) and the config path with splitK below srcK (FlashV2ConfigSplits). The
// basic-block path (session 22, fv2h) takes BasicBlockReduceMaxImpl's own order
// (FlashV2BasicRowMax). Not covered here: 3510 (RegRowMax).
//
// FlashV2BasicScratch: what the isBasicBlock path (softmax_flashv2_basic_block_impl.h, the 2201
// and, session 24, the 2002 branches; softmax_flashv2_block_reduce_impl.h) leaves in the work
// buffer in the broadcast mode,
// split by split over an image of the buffer (each split writes the same footprint, so the last
// full split's values remain; there is no tail split). Floats of the buffer, M = splitM, K =
// srcK; float data and statistics:
//  - no update: tmpBuffer1 at 0 (the reductions' work), tmpBuffer2 at 64 M (their 8 ceil(M / 8)
//    results); the max, then the sum of the exponentials;
//  - update: tmpBuffer1 at 0, tmpBuffer2 at 64 M (inMax copied, then inMax - max), tmpBuffer3 at
//    32 M (the sums); the max's results broadcast over tmpBuffer1 by Brcb, then the sum's.
// Half data (session 22; half or float statistics, HalfSplit): the split's float copy at 0, the
// reductions' work at splitSize + reduceSize (see HalfSplit).
// BasicBlockReduce{Max,Sum}Impl over [M, K]: K = 512: BlockReduce of every block into tmp (64 a
// row), then in place into 8 a row, then into dst; K = 1024: the first 8 rows' 128 block values,
// 16 a row, the pairs of blocks combined into 8 a row, then dst; K = 64: BlockReduce into 8 a
// row; K above 512: each row's first 512 block-reduced into 64 lanes, then chunks 8.. as
// op(chunk, acc); else chunk 0 op chunk 1, then op(acc, chunk) (M > K / 64); those 64-lane rows
// then BlockReduce-d in place and into dst. Covered: splitM up to 255 (float data on 2002: a
// multiple of 8; session 25, half data: see HalfRowsOn), splitK up to 2040, rangeM >= 1, the
// tiling made for the shape, a footprint inside the buffer (and, in splits not a multiple of 8
// rows, the statistics' ceil(M / 8) * 8 rows of the last split inside the tensors, for K = 1024
// its 8 rows of src and dst too); elsewhere Active() is false and the buffer stays marked (the
// M1 mode too).
// 2002 (membase/v200 includes the same membase/common file, whose isBasicBlock branch it takes:
// not the generic loop) differs only where its `__NPU_ARCH__ == 2002` branches do: each Brcb is a
// loop of AlignedBrcbImpl (a group's 8 values read as scalars, each Duplicated over 8 or 16
// floats: the same bytes), and the Copies of inMax (float statistics) and of expMax (half data
// with float statistics, two Counter-mode Adds) are Adds of 0, so a -0 arrives as +0 (Moved).
//
// FlashV2BasicDefect (session 21): the tilings the device computes wrongly, refused in checked
// mode (softmax_device_defect, every data type): K = 1024 with splitM other than 8 (the fixed
// 8-row reductions), splitM not a multiple of 8 (session 23), splitM above 255, splitK / 8 past 255
// blocks with several rows, BigBlock's splitK / 64 - 8 past 255, splitSize / 64 past 255 (the Exp's
// uint8_t repeatTimes; for K = 512 also the first BlockReduce's 8 M). Unchecked, inside the
// coverage above, the scratch runs in device mode for K = 1024 with splitM above 8 and the wrapped
// Exp: DeviceSplit writes the outputs as the kit's float sequence leaves them (stale floats: what
// the UB holds there); half data (session 22) in HalfSplit, the wrapped repeats cutting its Casts
// of src and dst too. Session 23 (bb): float data in splits not a multiple of 8 rows in DeviceSplit
// (ceil(M / 8) * 8 rows of statistics from the reductions' stale floats, written split by split
// into the next split's rows; the update's inExpSum product read by the next split) and K = 1024
// with splitM below 8 (8 rows of src and dst reduced from the split on: the next rows as the
// device finds them, dst as before the call), where those rows stay inside the tensors. Session
// 24 (bb2): where max is inMax or expSum is inExpSum (one tensor), the next split reads the rows
// its predecessor wrote past its own (Follow). Session 25 (bbu): half data in splits not a
// multiple of 8 rows in HalfSplit (HalfRowsOn). The other refused tilings keep lngrad's rows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax_flash_scratch.h"
#include "lib/activation/softmax_v200_work.h"

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

// The row max of softmax_flashv2_block_reduce_impl.h's BasicBlockReduceMaxImpl (2201 and 2002
// alike; half data is Cast to float first) for a row of k values (a multiple of 64) of a split of
// `rows` rows, each binary Max as the device's (a > b ? a : b) in the kit's operand order and
// each BlockReduceMax block as LaneMax, so that NaN and ±0 ties come out as on the device
// (SoftMax's BasicRowMax, softmax_basic_work.h, without the 512 and 1024 special trees):
//  - k = 64 and 512: BlockReduceMax level after level (the first NaN, else the first largest, of
//    the whole row: LaneMax of the row);
//  - k = 1024: each 64-value chunk's two BlockReduceMax levels, Max(chunk l, chunk l + 8), then
//    BlockReduceMax of those 8;
//  - k above 512 (BigBlockReduceMax): the first 512 values' block maxima in 64 lanes, then
//    Max(chunk c, acc) for chunks 8..;
//  - else (BasicBlockMaxImpl): Max(chunk 0, chunk 1), then Max(acc, chunk c) where rows > k / 64
//    and Max(chunk c, acc) otherwise;
//  then the 64 lanes' two BlockReduceMax levels (LaneMax of the 64).
inline float FlashV2BasicRowMax(const float* x, uint32_t k, uint32_t rows) {
  const auto max = [](float a, float b) { return a > b ? a : b; };
  const uint32_t chunks = k / kLanes;
  if (k == kLanes || k == 8 * kLanes) return LaneMax(x, k);
  float acc[kLanes];
  if (k == 16 * kLanes) {
    for (uint32_t l = 0; l < 8; ++l) {
      acc[l] = max(LaneMax(x + l * kLanes, kLanes), LaneMax(x + (l + 8) * kLanes, kLanes));
    }
    return LaneMax(acc, 8);
  }
  if (k > 8 * kLanes) {
    for (uint32_t b = 0; b < kLanes; ++b) acc[b] = LaneMax(x + 8 * b, 8);
    for (uint32_t c = 8; c < chunks; ++c) {
      for (uint32_t l = 0; l < kLanes; ++l) acc[l] = max(x[c * kLanes + l], acc[l]);
    }
    return LaneMax(acc, kLanes);
  }
  for (uint32_t l = 0; l < kLanes; ++l) acc[l] = max(x[l], x[kLanes + l]);
  for (uint32_t c = 2; c < chunks; ++c) {
    for (uint32_t l = 0; l < kLanes; ++l) {
      const float v = x[c * kLanes + l];
      acc[l] = rows > chunks ? max(acc[l], v) : max(v, acc[l]);
    }
  }
  return LaneMax(acc, kLanes);
}

// The basic-block update on 2002 with float statistics takes inMax through Adds(tmpBuffer2,
// inMax, 0, reduceSize) (2201: a Copy), so an inMax of -0 enters the Max, the new max and
// exp(inMax - max) as +0 (FlashLanes::LoadMax's adds0). basic: the call takes that path.
template <typename U>
bool BasicInMaxAdds(bool basic) {
  return basic && std::is_same_v<U, float> && detail::rep::RunningArch() == NpuArch::k2002;
}

// Row r's max over its first k values; d carries the kernel tiling's splits (WithSplits).
// basic: the basic-block path on 2201/2002, either mode (FlashV2BasicRowMax over the row's split);
// generic: the generic path there, either mode (NdRowMax); otherwise RowMax.
inline float FlashRowMax(const float* x, uint32_t k, const Dims& d, uint32_t r, bool generic,
                         bool basic = false) {
  if (RegBase()) return RowMax(x, k);
  if (basic && k % kLanes == 0)
    return FlashV2BasicRowMax(x, k, d.splitM != 0 ? SplitRowsAt(d, r) : d.m);
  if (!generic) return RowMax(x, k);
  return NdRowMax(x, k, SplitRowsAt(d, r));
}

// Why the basic-block path (broadcast mode, 2201/2002: softmax_flashv2_basic_block_impl.h,
// softmax_flashv2_block_reduce_impl.h, softmax_common_reduce.h and softmax_common_arithmetic.h)
// computes the kernel tiling t's splits wrongly on the device; empty when it does not. Every data
// type: the reductions and the uint8_t counts are the same for half data.
inline std::string FlashV2BasicDefect(const AscendC::tiling::SoftMaxTiling& t) {
  const uint32_t m = t.splitM, k = t.splitK;
  if (t.rangeM == 0 || m == 0) return {};
  const std::string n = std::to_string(t.splitSize / kLanes);
  if (k == 1024 && m != 8) {
    return "with splitK 1024 SpecialBasicBlock{Max,Add}Impl reduce 8 rows whatever splitM (their "
           "repeats are fixed: 128, 16, 1, 1), so with splitM " +
           std::to_string(m) +
           (m > 8 ? " rows 8.. of each split take their max and sum from stale work-buffer floats"
                  : " they read 8 rows and write 8 rows of statistics (past the split; past the "
                    "tensors in the last) and 1024 floats of work (past a buffer of " +
                        std::to_string(m) + " rows)") +
           "; use a tiling with splitM 8";
  }
  if (m % 8 != 0) {
    return "splitM " + std::to_string(m) +
           " is not a multiple of 8: its reductions and Brcbs give ceil(splitM / 8) * 8 rows of "
           "statistics, the rows past the split from stale work-buffer floats (with update the "
           "next split's inExpSum is multiplied by them before that split reads it; the last "
           "split's past its rows); use splitM a multiple of 8";
  }
  if (m > 255) {
    return "splitM " + std::to_string(m) +
           " is the uint8_t repeat count of its Sub and block reductions (taken mod 256); use "
           "splits of at most 255 rows";
  }
  if (m > 1 && k / 8 > 255) {
    return "the Sub's repeat stride splitK / 8 = " + std::to_string(k / 8) +
           " blocks is a uint8_t (taken mod 256), so the rows overwrite one another; use srcK "
           "below 2048 or call it without isBasicBlock";
  }
  if (k > 512 && k / kLanes - 8 > 255) {
    return "BigBlockReduce's uint8_t repeat count splitK / 64 - 8 wraps; call it without "
           "isBasicBlock";
  }
  if (t.splitSize / kLanes > 255) {
    return "the repeat count splitSize / 64 = " + n + " of its Exp (and half data's Casts" +
           (k == 512 ? ", splitK 512's first BlockReduce" : "") +
           ") is a uint8_t: only the first " + std::to_string(t.splitSize / kLanes % 256) +
           " * 64 values of each split are exponentiated; use splits of at most " +
           std::to_string(255 * kLanes / k) + " rows" +
           (255 * kLanes / k < 8 ? " or call it without isBasicBlock" : "");
  }
  return {};
}

// Checked mode: refuses a basic-block tiling FlashV2BasicDefect names, before anything is
// written (softmax_device_defect). basic: the call takes the broadcast mode's basic-block path.
inline void CheckFlashV2BasicDefect(bool basic, const AscendC::tiling::SoftMaxTiling& t,
                                    const Dims& d) {
  const NpuArch arch = detail::rep::RunningArch();
  if (!basic || !CheckedMode() || d.k % kLanes != 0) return;
  if (arch != NpuArch::k2201 && arch != NpuArch::k2002) return;
  const std::string why = FlashV2BasicDefect(t);
  if (why.empty()) return;
  RaiseKernelCheck(checks::kSoftmaxDeviceDefect,
                   "SoftmaxFlashV2: isBasicBlock with srcShape {" + std::to_string(d.m) + ", " +
                       std::to_string(d.k) + "} and splitM " + std::to_string(t.splitM) +
                       " is computed wrongly by the device's basic-block sequence: " + why +
                       " (unchecked mode gives the device's numbers where lngrad derives them)");
}

class FlashV2BasicScratch {
 public:
  // ls: the statistics' lanes (8 float, 16 half); half: half data.
  FlashV2BasicScratch(bool on, const AscendC::LocalTensor<uint8_t>& tmp,
                      const AscendC::tiling::SoftMaxTiling& t, const Dims& d, bool update,
                      uint32_t ls = 8, bool half = false)
      : tmp_(tmp), t_(t), k_(d.k), ls_(ls), update_(update), half_(half) {
    const uint32_t m = t.splitM;
    const NpuArch arch = detail::rep::RunningArch();
    v200_ = arch == NpuArch::k2002;
    on_ = on && (arch == NpuArch::k2201 || v200_) && tmp.HostPtr() != nullptr && t.srcM == d.m &&
          t.srcK == d.k && t.splitK == d.k && d.k % kLanes == 0 && m != 0 && t.rangeM != 0 &&
          t.reduceK == ls && t.reduceSize == m * ls && t.splitSize == m * d.k && m <= 255 &&
          d.k <= 2040 && (ls == 8 || half) && (m % 8 == 0 || (half ? HalfRowsOn(m) : !v200_));
    // The defects it follows (unchecked): K = 1024 with splitM above 8, the Exp's repeats
    // wrapped (half data: its Casts too), float data in splits not a multiple of 8 rows (Begin:
    // where the ceil(M / 8) * 8 rows of statistics stay inside the tensors); inside the buffer
    // (float data 64 M + 64 ceil(M / 8) floats, without update 64 M + 8 ceil(M / 8), and
    // K = 1024's 1024 work floats; half data splitSize + reduceSize + the most of 64 M, the
    // Brcbs' 128 ceil(M / 8), expMax's Copies' 2 rn (rn: 64 reduceCeilValue), the update's
    // 32 M + rn and K = 1024's 1024) so that the stale floats read are the UB's.
    device_ = on_ && !FlashV2BasicDefect(t).empty();
    const uint64_t c8 = (m + 7) / 8, rn = (uint64_t{t.reduceSize} + 63) / 64 * 64;
    const uint64_t reach =
        half ? uint64_t{t.splitSize} + t.reduceSize +
                   std::max<uint64_t>({uint64_t{64} * m, 128 * c8, 2 * rn,
                                       update ? uint64_t{32} * m + rn : 0,
                                       uint64_t{d.k == 1024 ? 1024u : 0u}})
             : std::max<uint64_t>(uint64_t{m} * 64 + (update ? StatFloats() : StatFloats() / 8),
                                  d.k == 1024 ? 1024 : 0);
    if (device_ && reach > tmp.View().size_bytes / 4) on_ = device_ = false;
  }
  bool Active() const { return on_; }

  // Before the rows are computed: the operands (FlashV2Args) and the sources the reductions read
  // (in device mode also inExpSum and dst's bytes); half data: src, inMax and inExpSum widened.
  template <typename A>
  void Begin(const A& a) {
    using D = std::decay_t<decltype(*a.src.HostPtr())>;
    if constexpr (!std::is_same_v<D, float>) {
      if (!on_) return;
      const uint64_t rows = uint64_t{t_.rangeM} * t_.splitM;
      // The statistics the reduceCeilValue repeats read and write (past the last split's rows
      // where splitM is not a multiple of 8; float statistics' expMax twice as many halves):
      // followed inside the tensors only.
      const uint64_t sr = (rows - t_.splitM) * ls_ + Rn(), er = ls_ == 8 ? 2 * sr : sr;
      if (std::min<uint64_t>({a.max.GetSize(), a.expSum.GetSize(), update_ ? a.inMax.GetSize() : sr,
                              update_ ? a.inExpSum.GetSize() : sr}) < sr ||
          (update_ && a.expMax.GetSize() < er)) {
        on_ = device_ = false;
        return;
      }
      LoadRow(src_, a.src.HostPtr(), static_cast<uint32_t>(rows * k_));
      if (update_) LoadRow(inMax_, a.inMax.HostPtr(), static_cast<uint32_t>(sr));
      if (update_) LoadRow(inSum_, a.inExpSum.HostPtr(), static_cast<uint32_t>(sr));
      if (!device_) return;
      out_[0] = a.dst.HostPtr(), out_[1] = a.max.HostPtr(), out_[2] = a.expSum.HostPtr();
      out_[3] = a.expMax.HostPtr();
      in_[0] = a.inMax.HostPtr(), in_[1] = a.inExpSum.HostPtr();
      dstRaw_.resize(rows * k_);
      std::memcpy(dstRaw_.data(), a.dst.HostPtr(), rows * k_ * 2);
    } else if constexpr (std::is_same_v<std::decay_t<decltype(*a.max.HostPtr())>, float>) {
      if (!on_) return;
      io_ = {a.src.HostPtr(),    a.dst.HostPtr(),      a.expSum.HostPtr(), a.max.HostPtr(),
             a.expMax.HostPtr(), a.inExpSum.HostPtr(), a.inMax.HostPtr()};
      const uint64_t rows = uint64_t{t_.rangeM} * t_.splitM;
      // The statistics floats the kit's Brcbs and reduceCeilValue repeats reach (past the last
      // split's rows where splitM is not a multiple of 8): followed inside the tensors only.
      const uint64_t sr = (rows - t_.splitM) * 8 + StatFloats();
      const uint64_t cap = std::min<uint64_t>(
          {a.max.GetSize(), a.expSum.GetSize(), update_ ? a.expMax.GetSize() : sr,
           update_ ? a.inExpSum.GetSize() : sr, update_ ? a.inMax.GetSize() : sr});
      // K = 1024 with splitM below 8: the reductions read 8 rows of src and of dst from the
      // split on (past the last split's rows: followed inside the tensors only).
      const uint64_t xr = (rows + (k_ == 1024 && t_.splitM < 8 ? 8 - t_.splitM : 0)) * k_;
      if (sr > cap || xr > std::min<uint64_t>(a.src.GetSize(), a.dst.GetSize())) {
        on_ = device_ = false;
        return;
      }
      statReach_ = sr;
      src_.assign(io_.src, io_.src + xr);
      if (update_) inMax_.assign(io_.inMax, io_.inMax + sr);
      if (device_ && update_) inSum_.assign(io_.inExpSum, io_.inExpSum + sr);
      if (device_) dst_.assign(io_.dst, io_.dst + xr);
    }
  }

  // After: dst holds the exponentials, max the new maxima. Runs every split over an image of the
  // buffer (in device mode writing the split's outputs as the kit's sequence leaves them), writes
  // it back and records the floats written.
  void Finish(const char* api, SrcLoc loc) {
    if (!on_) return;
    const uint64_t bytes = tmp_.View().size_bytes;
    n_ = bytes / 4;
    img_.assign(n_ + 2048 + t_.splitSize + uint64_t{t_.splitM} * kLanes * 2, 0.0f);
    std::memcpy(img_.data(), tmp_.HostPtr(), bytes);
    written_.assign(n_, false);
    // Device mode, float data: dst as before the call, so that a split's 8-row K = 1024
    // reductions read the next rows' bytes as the device finds them.
    if (device_ && !half_) std::copy(dst_.begin(), dst_.end(), io_.dst);
    for (uint32_t s = 0; s < t_.rangeM; ++s)
      half_ ? HalfSplit(s) : device_ ? DeviceSplit(s) : Split(s);
    if (high_ > n_) {  // the kit's footprint passes the buffer's end: left marked
      on_ = false;
      return;
    }
    std::memcpy(tmp_.HostPtr(), img_.data(), bytes);
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    if (device_ && !half_) {  // the statistics rows the Brcbs write past the split's (float data)
      const uint64_t b = statReach_ * 4;
      rec.Write(io_.max, b), rec.Write(io_.expSum, b);
      if (update_) rec.Write(io_.expMax, b), rec.Write(io_.inExpSum, b);
    }
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
  // 2201's Copy of a float, or 2002's Adds of 0 in its place (-0 becomes +0).
  float Moved(float v) const { return v200_ ? v + 0.0f : v; }
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
  // BasicBlockReduce{Max,Sum}Impl of the split's rows x ([M, K]) into image `dst`, work at
  // image `t0`.
  void Reduce(bool sum, uint64_t dst, const float* x, uint64_t t0 = 0) {
    const uint32_t m = t_.splitM, chunks = k_ / kLanes;
    float* w = img_.data() + t0;
    if (k_ == 512 || k_ == 1024) {
      // K = 512: 8 M repeats, an 8-bit count on the device (wraps past 255).
      BlockLevel(sum, t0, x, k_ == 512 ? static_cast<uint8_t>(m * 8) : 2 * kLanes);
      BlockLevel(sum, t0, w, k_ == 512 ? m : 16);
      if (k_ == 1024) {
        float o[kLanes];
        for (uint32_t j = 0; j < kLanes; ++j)
          o[j] = Op(sum, w[2 * j - j % 8], w[2 * j - j % 8 + 8]);
        std::memcpy(W(t0, kLanes), o, sizeof o);
      }
      BlockLevel(sum, dst, w, k_ == 512 ? (m + 7) / 8 : 1);
      return;
    }
    for (uint32_t r = 0; r < m && chunks > 1; ++r) {  // the 64-lane rows
      const float* row = x + uint64_t{r} * k_;
      float* acc = W(t0 + uint64_t{r} * kLanes, kLanes);
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
    BlockLevel(sum, t0, chunks == 1 ? x : w, m);
    BlockLevel(sum, dst, w, (m + 7) / 8);
  }
  // Brcb of ceil(M / 8) repeats from image `from` over image `to`; per = 16: half statistics'
  // two Brcbs (block strides 2, the second 8 floats on), 16 floats a row.
  void Brcb(uint64_t to, uint64_t from, uint32_t per = 8) {
    const uint64_t n = uint64_t{(t_.splitM + 7) / 8} * kLanes * per / 8;
    std::vector<float> v(n);
    for (uint64_t p = 0; p < n; ++p) v[p] = img_[from + p / per];
    std::memcpy(W(to, n), v.data(), n * 4);
  }
  // x - max (column c: lane c % 8 of its row's statistics, `pitch` floats a row), then the Exp
  // of the first expN, in place over the split's float copy at 0.
  void SubExp(const float* mx, uint32_t pitch, uint64_t expN) {
    float* x = W(0, t_.splitSize);
    for (uint64_t i = 0; i < t_.splitSize; ++i) x[i] = x[i] - mx[i / k_ * pitch + i % 8];
    for (uint64_t i = 0; i < expN; ++i) x[i] = ExpOf(x[i]);
  }
  // Device mode, half data: output element i of `what` (0 dst, 1 max, 2 expSum, 3 expMax) as the
  // kit's Cast (half) or float store leaves it; dst past expN keeps its bytes.
  // A statistic stored where inMax or inExpSum lies (the same tensor, as the in-place update is
  // called) is what a later split's Cast / Copy reads there (splitM not a multiple of 8 writes
  // rows past the split): the snapshots follow it.
  void Put(int what, uint64_t i, float v) {
    void* p = out_[what];
    const bool h = what == 0 || what == 3 || ls_ == 16;
    if (h) {
      static_cast<half*>(p)[i] = Narrow<half>(v);
    } else {
      static_cast<float*>(p)[i] = v;
    }
    const std::uintptr_t q = reinterpret_cast<std::uintptr_t>(p) + i * (h ? 2 : 4);
    for (int n = 0; n < 2 && h == (ls_ == 16) && what != 0; ++n) {
      std::vector<float>& snap = n == 0 ? inMax_ : inSum_;
      const std::uintptr_t b = reinterpret_cast<std::uintptr_t>(in_[n]), e = h ? 2 : 4;
      if (q < b || q >= b + snap.size() * e || (q - b) % e != 0) continue;
      snap[(q - b) / e] = h ? Widen(static_cast<half*>(p)[i]) : static_cast<float*>(p)[i];
    }
  }
  // reduceCeilValue * 64: the floats the statistics' instructions cover (reduceSize where it is
  // a multiple of 64).
  uint64_t Rn() const { return (uint64_t{t_.reduceSize} + kLanes - 1) / kLanes * kLanes; }
  // Half data in splits not a multiple of 8 rows (session 25) but splitK 1024 with splitM below
  // 8 (its 8-row reductions read past the split's float copy) and the update's splitM below 4
  // (half statistics) or of 1 (float), whose Brcbs write over their own source: followed.
  bool HalfRowsOn(uint32_t m) const {
    return !(k_ == 1024 && m < 8) && !(update_ && m < (ls_ == 16 ? 4u : 2u));
  }
  void PutDst(uint32_t s, uint64_t expN) {
    const uint64_t o1 = uint64_t{s} * t_.splitSize;
    for (uint64_t i = 0; i < expN; ++i) Put(0, o1 + i, img_[i]);
    std::memcpy(static_cast<uint16_t*>(out_[0]) + o1 + expN, dstRaw_.data() + o1 + expN,
                (t_.splitSize - expN) * 2);
  }
  // A split of the half data forms (softmax_flashv2_basic_block_impl.h, the 2201 branches): the
  // Cast of the split at 0, tmpBuffer2 at splitSize, tmpBuffer1 at splitSize + reduceSize (the
  // reductions' work), the update's tmpBuffer3 / inSumTmp 32 M after it. No update: the max into
  // tmpBuffer2 (half statistics: Brcb-ed into tmpBuffer1, 16 a row), x - max and Exp at 0, the
  // sum likewise. Update, half statistics: the max into tmpBuffer3, its Brcbs, the Cast of inMax
  // into tmpBuffer2, Max into tmpBuffer3, inMax - max and its Exp in tmpBuffer2, x - max and Exp,
  // the sum into tmpBuffer3, its Brcbs, inExpSum's Cast there, times expMax, plus the sum. Float
  // statistics: the max into tmpBuffer2, its Brcb, the Copy of inMax there, inMax - max and Exp,
  // expMax's two Copies into tmpBuffer1 (16 a row), x - max and Exp, the sum into inSumTmp, its
  // Brcb, expMax times inExpSum into inSumTmp. Device mode (the refused K = 1024 with splitM
  // above 8, repeats wrapped): the Casts and the Exp over (uint8_t)(splitSize / 64) repeats, the
  // outputs written from the image's values (Put; dst past them keeps its bytes).
  void HalfSplit(uint32_t s) {
    const uint32_t m = t_.splitM;
    const uint64_t sz = t_.splitSize, rs = t_.reduceSize, b1 = sz + rs, b3 = b1 + 32 * m;
    const uint64_t o2 = uint64_t{s} * rs, rn = Rn();
    // The Casts and the Exp run (uint8_t)(splitSize / 64) repeats (device mode: wrapped).
    const uint64_t expN = uint64_t{static_cast<uint8_t>(sz / kLanes)} * kLanes;
    std::memcpy(W(0, expN), src_.data() + uint64_t{s} * sz, expN * 4);
    const float* x = img_.data();
    if (!update_) {
      Reduce(false, sz, x, b1);
      std::vector<float> mx(uint64_t{m} * 8);
      for (uint64_t p = 0; p < mx.size(); ++p) mx[p] = img_[sz + p / 8];
      for (uint64_t p = 0; device_ && p < rn; ++p) Put(1, o2 + p, img_[sz + p / ls_]);
      if (ls_ == 16) Brcb(b1, sz, 16);
      SubExp(mx.data(), 8, expN);
      if (device_) PutDst(s, expN);
      Reduce(true, sz, x, b1);
      for (uint64_t p = 0; device_ && p < rn; ++p) Put(2, o2 + p, img_[sz + p / ls_]);
      if (ls_ == 16) Brcb(b1, sz, 16);
      return;
    }
    const uint64_t red = ls_ == 16 ? b3 : sz;  // the max's results
    Reduce(false, red, x, b1);
    Brcb(b1, red, ls_);
    // inMax's Cast / Copy of rn floats into tmpBuffer2 (past reduceSize over tmpBuffer1's
    // start), 2002's Adds of 0 over reduceSize; the Max of it and the Brcb-ed max.
    const uint64_t nIn = ls_ == 8 && v200_ ? rs : rn;
    float* in = W(sz, nIn);
    for (uint64_t p = 0; p < nIn; ++p) in[p] = ls_ == 8 ? Moved(inMax_[o2 + p]) : inMax_[o2 + p];
    std::vector<float> mx(rn);
    for (uint64_t p = 0; p < rn; ++p) mx[p] = in[p] > img_[b1 + p] ? in[p] : img_[b1 + p];
    if (ls_ == 16) std::memcpy(W(b3, rn), mx.data(), rn * 4);
    in = W(sz, rn);  // inMax - max, then expMax
    for (uint64_t p = 0; p < rn; ++p) in[p] = ExpOf(in[p] - mx[p]);
    // expMax: half statistics its Cast from tmpBuffer2; float, the two Copies (2002: Adds over
    // reduceSize) into tmpBuffer1, 16 a row, each repeat read before it is written, then the
    // Cast of 2 rn from there.
    std::vector<float> em(in, in + rn);
    if (ls_ == 8) CopyExpMax(b1, sz, v200_ ? rs : rn, em);
    SubExp(mx.data(), ls_, expN);
    Reduce(true, b3, x, b1);
    Brcb(b1, b3, ls_);
    float* v = W(b3, rn);
    for (uint64_t p = 0; p < rn; ++p) {
      v[p] = img_[sz + p] * inSum_[o2 + p];
      if (ls_ == 16) v[p] = v[p] + img_[b1 + p];
    }
    if (!device_) return;
    PutDst(s, expN);
    for (uint64_t p = 0; p < rn; ++p) {
      Put(1, o2 + p, mx[p]);
      Put(2, o2 + p, ls_ == 16 ? v[p] : v[p] + img_[b1 + p]);
    }
    const uint64_t e0 = ls_ == 16 ? o2 : 2 * o2;
    for (uint64_t p = 0; p < em.size(); ++p) Put(3, e0 + p, em[p]);
  }
  // The float statistics' two Copies {2, 1, 16, 8} of n floats from image `from` into image
  // `to` (block b of repeat q at 128 q + 16 b, then 8 floats on), one after the other; em: the
  // 2 * 64 reduceCeilValue floats at `to` afterwards.
  void CopyExpMax(uint64_t to, uint64_t from, uint64_t n, std::vector<float>& em) {
    const uint64_t reps = Rn() / kLanes;
    for (uint32_t h = 0; h < 2; ++h) {
      for (uint64_t q = 0; q < reps; ++q) {
        float v[kLanes];
        std::memcpy(v, img_.data() + from + q * kLanes, sizeof v);
        for (uint32_t b = 0; b < 8 && q * kLanes + b * 8 < n; ++b) {
          float* o = W(to + q * 2 * kLanes + b * 16 + h * 8, 8);
          for (uint32_t l = 0; l < 8; ++l) o[l] = Moved(v[b * 8 + l]);
        }
      }
    }
    em.assign(img_.begin() + to, img_.begin() + to + 2 * reps * kLanes);
  }
  void Split(uint32_t s) {
    const float *dst = io_.dst, *max = io_.max;
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
    for (uint64_t p = 0; p < rs; ++p) in[p] = Moved(inMax_[o2 + p]) - max[o2 + p];
    Reduce(true, b2 / 2, dst + o1);
    Brcb(0, b2 / 2);
  }

  // A split of a defect shape as the kit's float sequence computes it (device mode): the max's
  // reduction (K = 1024: 8 results, the other rows' from the stale floats at 64 M + 8 ..), its
  // Brcb; no update: the Sub into src, the Exp into dst over (uint8_t)(splitSize / 64) repeats
  // (dst's other values keep their bytes), the sum's reduction and Brcb into expSum; update:
  // Copy of inMax, Max(inMax, Brcb), the Sub into dst, inMax - max, expMax, the Exp in place over
  // the wrapped repeats, the sum's reduction at 32 M and Brcb, inExpSum *= expMax, expSum.
  void DeviceSplit(uint32_t s) {
    const uint32_t m = t_.splitM;
    const uint64_t b2 = uint64_t{m} * kLanes, o1 = uint64_t{s} * t_.splitSize;
    const uint64_t o2 = uint64_t{s} * t_.reduceSize, rs = StatFloats();
    const uint64_t expN = uint64_t{static_cast<uint8_t>(t_.splitSize / kLanes)} * kLanes;
    const float* x = src_.data() + o1;
    float* dst = io_.dst + o1;
    float* mx = io_.max + o2;
    Reduce(false, b2, x);
    if (!update_) {
      for (uint64_t p = 0; p < rs; ++p) mx[p] = img_[b2 + p / 8];
      float* sx = io_.src + o1;
      for (uint64_t i = 0; i < t_.splitSize; ++i) sx[i] = x[i] - mx[i / k_ * 8 + i % 8];
      for (uint64_t i = 0; i < t_.splitSize; ++i) dst[i] = i < expN ? ExpOf(sx[i]) : dst_[o1 + i];
      Reduce(true, b2, dst);
      for (uint64_t p = 0; p < rs; ++p) io_.expSum[o2 + p] = img_[b2 + p / 8];
      return;
    }
    Brcb(0, b2);
    float* in = W(b2, rs);  // Copy (2002: Adds 0) of inMax
    for (uint64_t p = 0; p < rs; ++p) in[p] = Moved(inMax_[o2 + p]);
    for (uint64_t p = 0; p < rs; ++p) mx[p] = in[p] > img_[p] ? in[p] : img_[p];
    Follow(mx, rs);
    for (uint64_t i = 0; i < t_.splitSize; ++i) dst[i] = x[i] - mx[i / k_ * 8 + i % 8];
    for (uint64_t p = 0; p < rs; ++p) in[p] = in[p] - mx[p];
    for (uint64_t p = 0; p < rs; ++p) io_.expMax[o2 + p] = ExpOf(in[p]);
    Follow(io_.expMax + o2, rs);
    for (uint64_t i = 0; i < expN; ++i) dst[i] = ExpOf(dst[i]);
    Reduce(true, b2 / 2, dst);
    Brcb(0, b2 / 2);
    for (uint64_t p = 0; p < rs; ++p) {  // the next split reads inSum_ as this one leaves it
      inSum_[o2 + p] = io_.inExpSum[o2 + p] = io_.expMax[o2 + p] * inSum_[o2 + p];
      io_.expSum[o2 + p] = io_.inExpSum[o2 + p] + img_[p];
    }
    Follow(io_.expSum + o2, rs);
  }

  // Splits not a multiple of 8 rows write statistics rows that the next split reads: where an
  // output is the input tensor too (max as inMax, expSum as inExpSum, as the kit's in-place
  // update is called), the next split reads what this one wrote there, so the snapshots of
  // inMax and inExpSum take the n floats written at p where they lie inside those tensors.
  void Follow(const float* p, uint64_t n) {
    FollowInto(inMax_, io_.inMax, p, n);
    FollowInto(inSum_, io_.inExpSum, p, n);
  }
  static void FollowInto(std::vector<float>& snap, const float* base, const float* p, uint64_t n) {
    const auto at = [](const float* q) { return reinterpret_cast<std::uintptr_t>(q); };
    for (uint64_t i = 0; i < n && !snap.empty(); ++i) {
      const std::uintptr_t q = at(p + i);
      if (q >= at(base) && q < at(base + snap.size())) snap[(q - at(base)) / 4] = p[i];
    }
  }

  // The statistics floats a split's Brcbs (and the update's reduceCeilValue repeats) write:
  // 64 ceil(M / 8), reduceSize where splitM is a multiple of 8.
  uint64_t StatFloats() const { return uint64_t{(t_.splitM + 7) / 8} * kLanes; }

  struct Io {
    float *src = nullptr, *dst = nullptr, *expSum = nullptr, *max = nullptr, *expMax = nullptr,
          *inExpSum = nullptr;
    const float* inMax = nullptr;
  };
  const AscendC::LocalTensor<uint8_t>& tmp_;
  AscendC::tiling::SoftMaxTiling t_;
  uint32_t k_, ls_;
  bool update_, half_, on_ = false, device_ = false, v200_ = false;
  Io io_;
  std::vector<float> src_, inMax_, inSum_, dst_, img_;
  void* out_[4] = {};       // device mode, half data: dst, max, expSum, expMax
  const void* in_[2] = {};  // and inMax, inExpSum
  std::vector<uint16_t> dstRaw_;
  std::vector<bool> written_;
  uint64_t n_ = 0, high_ = 0, statReach_ = 0;
};

// The constant-shape config's split path on 2201 (config.oriSrcK rounded up to 8, splitK, below
// srcK; unchecked: checked mode refuses it; softmaxflashv2.h FlashV2ConfigSplits): the kit runs
// the generic loop's steps (SoftmaxFlashV2NoUpdateExtImpl / SoftmaxFlashV2NDExtImpl) with a
// ReduceLastND of row stride splitK, so the work buffer is the generic loop's
// (softmax_flash_scratch.h FlashV2Scratch) with FlashV2ConfigSplits's rows: row i of a split
// reduced from the split's values at i * splitK (its max; its sum and the sum's 64-lane
// accumulators over the exponentials there), the Sub and the Exp at row i's own srcK columns
// (half data: the split's float exponentials). Off (the buffer marked) where FlashV2Scratch does
// not take the tiling or the config's reductions wrap (V220Defect at splitK, refused in checked
// mode). Begins before anything is written (the float statistics the broadcast reads). a: the
// call's operands (softmaxflashv2.h FlashV2Args).
template <typename T, typename U, typename E, template <typename, typename, typename> class A>
FlashV2Scratch FlashV2ConfigScratch(bool update, const AscendC::tiling::SoftMaxTiling& t,
                                    const Dims& d, uint32_t splitK,
                                    const AscendC::LocalTensor<uint8_t>& tmp, const A<T, U, E>& a) {
  const bool on = t.splitM != 0 && V220Defect(t, Dims{d.m, splitK, d.oriK}).empty();
  FlashV2Scratch sc(on, tmp, t, d, update, std::is_same_v<T, half>, std::is_same_v<U, half>);
  sc.Begin(a.expSum.HostPtr());
  return sc;
}

// FlashV2ConfigSplits's row r (of the call) for FlashV2ConfigScratch (sc null or off: nothing):
// its reduction's max,
inline void KeepConfigMax(FlashV2Scratch* sc, uint32_t r, float rmax) {
  FlashRowKept* kept = sc != nullptr ? sc->Row(r) : nullptr;
  if (kept != nullptr) kept->rowMax = rmax;
}
// then its sum, statistics lanes f, own exponentials (row, k floats; half data) and the sum's
// accumulators from the split's exponentials at red (i * splitK of the split).
template <typename T, typename L>
void KeepConfigRow(FlashV2Scratch* sc, uint32_t r, float sm, const L& f, const float* row,
                   uint32_t k, const float* red) {
  FlashRowKept* kept = sc != nullptr ? sc->Row(r) : nullptr;
  if (kept == nullptr) return;
  kept->sum = sm;
  for (uint32_t j = 0; j < f.lanes && j < 16; ++j) {
    kept->max[j] = f.max[j];
    kept->expMax[j] = f.expMax[j];
    kept->inSum[j] = f.inSum[j];
  }
  if (!std::is_same_v<T, float>) kept->e.assign(row, row + k);
  sc->Accumulate(r, red);
}

}  // namespace lngrad::aicore::softmax_detail
