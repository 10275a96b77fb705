// lngrad: what SoftMax with statistics and isBasicBlock (membase/common/softmax_impl/
// softmax_basic_block_impl.h SoftMaxBasicBlock, which the constant-shape config's basic shapes
// take too; on 2201 and 2002) and SimpleSoftMax with half data (membase/common/
// simple_softmax_common_impl.h; on 2201) leave in their work buffer (sharedTmpBuffer, or the stack
// buffer the overloads without one pop), and the basic block's row max on 2201 and 2002.
//
// SoftMaxBasicBlock, per full split (the rangeM splits; it has no tail split), the buffer holding:
// half data x (the split's float copy, then x - max, exp, the quotients) at 0, t1 at splitSize,
// the group results g at splitSize + 64 splitM; float data t1 at 0 and g at 64 splitM, x being
// dst's rows. Each reduction (max of x, then sum of exp): splitK = 64 one BlockReduce of each row
// to t1's 8 floats a row; otherwise each row's 64 lanes in t1 (chunk 0 op chunk 1, then
// op(acc, chunk) when splitM > splitK / 64, else op(chunk, acc)) and the in-place BlockReduce;
// then a BlockReduce of ceil(splitM / 8) groups of t1's 64 floats into g (groups past splitM
// rows read what t1 holds there). The broadcast: half statistics two Brcbs into t1 (16 floats a
// row, even blocks then odd blocks, each reading g as the first left it: with one row g lies
// inside the first Brcb's 128 floats) and the Cast of ceil(reduceSize / 64) repeats of t1 into
// the statistics; float statistics a Brcb of 8 ceil(splitM / 8) rows into the statistics tensor.
// So rows past splitM (and past the call's rows) of the statistics are written when splitM is not
// a multiple of 8 (float) or 4 (half): checked mode refuses such stores past the tensors.
// Half data with half statistics in splits of one row (the host tiling and the kernel's re-tile
// give them for buffers of (k + 80) to (2 k + 160) floats, GetSoftMaxMinTmpSize's minimum
// included) reach splitSize + 128 floats: below k + 128 the Brcbs' last blocks (t1 + 80 on) land
// past sharedTmpBuffer. The device reads nothing back from there: the group results at t1 + 64
// lie inside, so the statistics' lanes 8..15 are the block result the first Brcb left at t1 + 64
// (BlockReduce of t1[32, 40): the row's lanes 32..39 for k >= 128, for k = 64 what t1 held) and
// dst is the row's. Checked mode refuses any reach past the buffer (tensor_bounds, the device's
// overrun); unchecked lngrad writes it into the UB after the buffer, as the device.
//
// SimpleSoftMax half data: x (the split's float copy, then x - inMax, exp, the quotients) at 0;
// with half statistics their float copy at splitSize (inMax's, then inSum's: reduceSize floats,
// the basic block's ceil(reduceSize / 64) repeats); 2201's generic loop with float statistics
// runs its Exp over tiling.splitSize floats, so a tail split leaves exp of the earlier split's
// quotients past its rows. The constant-shape config's generic path (2201 and 2002) reads the
// statistics at 32 bytes a row whatever the tiling's reduceK (SimpleHalfPrepare's cfg form).
// SimpleSoftMaxBasicBlock's counts are its uint8_t casts: past 255 (a hand-made tiling; refused
// in checked mode) they wrap and the splits leave what the device's repeats leave, the Sub and
// Div reading what the buffer holds where no Cast wrote.
// SoftMaxBasicBlock's uint8_t counts past 255 (a hand-made tiling of larger splits; the host
// tiling and the kernel's re-tile keep splitM * splitK below 64 * 256): refused in checked mode
// (softmax_device_defect, SoftMaxBasicSeq::Wrapped); unchecked lngrad's rows, the buffer marked.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

// BasicBlockMaxImpl's row max for a row of a split of `rows` rows (srcK a multiple of 64), every
// Max as the device's `a > b ? a : b` in the source's operand order, then the two BlockReduceMax
// lane reductions (the first NaN, else the first extreme): NaN and ±0 ties as on the device.
inline float BasicRowMax(const float* x, uint32_t k, uint32_t rows) {
  const auto max = [](float a, float b) { return a > b ? a : b; };
  const uint32_t chunks = k / kLanes;
  float acc[kLanes];
  if (chunks == 1) {
    std::copy(x, x + kLanes, acc);
  } else {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = max(x[l], x[kLanes + l]);
    for (uint32_t c = 2; c < chunks; ++c) {
      for (uint32_t l = 0; l < kLanes; ++l) {
        const float v = x[c * kLanes + l];
        acc[l] = rows > chunks ? max(acc[l], v) : max(v, acc[l]);
      }
    }
  }
  float blocks[8];
  for (uint32_t b = 0; b < 8; ++b) blocks[b] = LaneMax(acc + 8 * b, 8);
  return LaneMax(blocks, 8);
}

// A float image of the work buffer (and of the UB floats after it up to `reach`: the device's
// overrun, inside the UB) and which of its floats the sequence wrote.
class BasicImage {
 public:
  explicit BasicImage(const AscendC::LocalTensor<uint8_t>& tmp, uint64_t reach = 0)
      : base_(tmp.HostPtr()),
        f_(std::max<uint64_t>(tmp.View().size_bytes / 4, reach)),
        wrote_(f_.size(), false) {
    if (base_ != nullptr) std::memcpy(f_.data(), base_, f_.size() * 4);
  }
  uint64_t Floats() const { return f_.size(); }
  float* At(uint64_t i) { return f_.data() + i; }
  void Touch(uint64_t at, uint64_t n) { std::fill_n(wrote_.begin() + at, n, true); }
  // Copies the image back and records each run of written floats for the sanitizer.
  void Store(const char* api, SrcLoc loc) const {
    if (base_ == nullptr) return;
    std::memcpy(base_, f_.data(), f_.size() * 4);
    san::Instr rec(Pipe::kV, api, loc);
    for (uint64_t i = 0; rec && i < f_.size();) {
      uint64_t j = i;
      while (j < f_.size() && wrote_[j]) ++j;
      if (j > i) rec.Write(base_ + i * 4, (j - i) * 4);
      i = j + 1;
    }
  }

 private:
  uint8_t* base_;
  std::vector<float> f_;
  std::vector<bool> wrote_;
};

// BlockReduceMax / BlockReduceSum(dst, src, reps, full mask, 1, 1, 8): repeat r reads the 64
// floats at src + 64 r, then writes its 8 block results at dst + 8 r.
inline void BasicBlockReduce(float* dst, const float* src, uint64_t reps, bool isMax) {
  float in[kLanes], out[8];
  for (uint64_t r = 0; r < reps; ++r) {
    std::copy(src + r * kLanes, src + r * kLanes + kLanes, in);
    for (uint32_t b = 0; b < 8; ++b) out[b] = isMax ? LaneMax(in + 8 * b, 8) : Tree8(in + 8 * b);
    std::copy(out, out + 8, dst + 8 * r);
  }
}

// Brcb(dst, src, reps, {blk, rep}): repeat q reads src[8q, 8q + 8), then puts value b into the 8
// floats at dst + 8 (q rep + b blk).
inline void BasicBrcb(float* dst, const float* src, uint64_t reps, uint64_t blk, uint64_t rep) {
  float v[8];
  for (uint64_t q = 0; q < reps; ++q) {
    std::copy(src + 8 * q, src + 8 * q + 8, v);
    for (uint64_t b = 0; b < 8; ++b) std::fill_n(dst + 8 * (q * rep + b * blk), 8, v[b]);
  }
}

// 2002's AlignedBrcbImpl loop: group j's 8 values read as scalars, then value b Duplicated over n
// floats at dst[step j + n b].
inline void AlignedBrcbs(float* dst, const float* g, uint64_t groups, uint64_t step, uint64_t n) {
  for (uint64_t j = 0; j < groups; ++j) {
    float v[8];
    std::copy(g + 8 * j, g + 8 * j + 8, v);
    for (uint64_t b = 0; b < 8; ++b) std::fill_n(dst + step * j + n * b, n, v[b]);
  }
}

// SoftMaxBasicBlock's full splits (T data, U statistics) over images of the work buffer, dst's
// rangeM * splitSize elements and the statistics' StatEnd() elements. On 2002 (its
// __NPU_ARCH__ == 2002 branches) each broadcast of the group results is AlignedBrcbs instead of
// Brcb, the other steps being 2201's: float statistics (8 floats a row, into the statistics
// tensor at 64 j) store what 2201's Brcb does; half statistics (16 floats a row into t1[128 j])
// hold the row's value in all 16 lanes: with one row g lies at t1 + 64, inside the group's 128
// floats, and the scalar reads precede the Duplicates (2201's second Brcb reads what its first
// wrote there).
template <typename T, typename U>
class SoftMaxBasicSeq {
 public:
  static constexpr bool kHalf = sizeof(T) == 2, kHalfStat = sizeof(U) == 2;
  explicit SoftMaxBasicSeq(const AscendC::tiling::SoftMaxTiling& t)
      : t_(t), k_(t.splitK), m_(t.splitM), s_(t.splitSize), ceilM_((m_ + 7) / 8) {
    t1_ = kHalf ? s_ : 0;
    g_ = t1_ + m_ * kLanes;
    aligned_ = detail::rep::RunningArch() == NpuArch::k2002;
  }
  // False where not modelled: splitK not whole chunks, a count the kit casts to uint8_t past 255.
  bool Covered() const {
    if (t_.rangeM == 0) return true;
    return k_ != 0 && k_ % kLanes == 0 && s_ == m_ * k_ && s_ / kLanes <= 255 && m_ <= 255 &&
           k_ / 8 <= 255 && ceilM_ <= 255 && CastReps() <= 255;
  }
  // SoftMaxBasicBlock's counts that it casts to uint8_t and that pass 255 (the device's repeats
  // wrap): the Exp's and the half Casts' splitSize / 64, the reductions' and the Sub/Div's splitM,
  // the Sub/Div repeat stride splitK / 8, splitCeilM = ceil(splitM / 8), the half statistics'
  // Cast ceil(reduceSize / 64). Empty where none wraps or splitK is not whole chunks.
  std::string Wrapped() const {
    if (t_.rangeM == 0 || k_ == 0 || k_ % kLanes != 0 || s_ != m_ * k_) return "";
    std::string w;
    const auto add = [&w](const char* what, uint64_t v) {
      if (v > 255) w += std::string(w.empty() ? "" : ", ") + what + " = " + std::to_string(v);
    };
    add("splitSize / 64", s_ / kLanes);
    add("splitM", m_);
    add("splitK / 8", k_ / 8);
    add("ceil(splitM / 8)", ceilM_);
    if (kHalfStat) add("ceil(reduceSize / 64)", CastReps());
    return w;
  }
  // The floats from the buffer's start the splits reach without (`brcb` false) and with the half
  // statistics' two Brcbs (128 ceil(splitM / 8) floats from t1).
  uint64_t Reach(bool brcb = true) const {
    if (t_.rangeM == 0) return 0;
    const uint64_t end = std::max({kHalf ? s_ : 0, t1_ + ceilM_ * kLanes, g_ + ceilM_ * 8});
    return kHalfStat && brcb ? std::max(end, t1_ + ceilM_ * 2 * kLanes) : end;
  }
  // The statistics elements the splits store.
  uint64_t StatEnd() const {
    if (t_.rangeM == 0) return 0;
    return uint64_t{t_.rangeM - 1} * t_.reduceSize +
           (kHalfStat ? CastReps() * kLanes : ceilM_ * kLanes);
  }
  void Split(uint32_t i, BasicImage& w, const T* src, T* dst, U* sum, U* max) const {
    const uint64_t o1 = uint64_t{i} * s_, o2 = uint64_t{i} * t_.reduceSize;
    float* x = nullptr;
    const float* in = nullptr;
    if constexpr (kHalf) {
      x = w.At(0);
      for (uint64_t j = 0; j < s_; ++j) x[j] = Widen(src[o1 + j]);
      w.Touch(0, s_);
      in = x;
    } else {
      x = dst + o1;
      in = src + o1;
    }
    Pass(w, in, x, max + o2, true);
    for (uint64_t j = 0; j < s_; ++j) x[j] = ExpOf(x[j]);
    Pass(w, x, x, sum + o2, false);
    if constexpr (kHalf) {
      for (uint64_t j = 0; j < s_; ++j) dst[o1 + j] = Narrow<T>(x[j]);
    }
  }

 private:
  uint64_t CastReps() const { return (uint64_t{t_.reduceSize} + kLanes - 1) / kLanes; }
  // One reduction of `from` into t1 and g, the broadcast into stat (and t1), then out = from op
  // the row's statistic (Sub for the max, Div for the sum), column c reading lane c % 8.
  void Pass(BasicImage& w, const float* from, float* out, U* stat, bool isMax) const {
    Reduce(w, from, isMax);
    const float* lanes = nullptr;
    uint64_t stride = 8;
    std::vector<float> fl;
    if constexpr (kHalfStat) {
      if (aligned_) {
        AlignedBrcbs(w.At(t1_), w.At(g_), ceilM_, 2 * kLanes, 16);
      } else {
        BasicBrcb(w.At(t1_), w.At(g_), ceilM_, 2, 16);
        BasicBrcb(w.At(t1_ + 8), w.At(g_), ceilM_, 2, 16);
      }
      w.Touch(t1_, ceilM_ * 2 * kLanes);
      for (uint64_t j = 0; j < CastReps() * kLanes; ++j) stat[j] = Narrow<U>(*w.At(t1_ + j));
      lanes = w.At(t1_);
      stride = 16;
    } else if (aligned_) {  // the float broadcast, then the stores (2002)
      fl.resize(ceilM_ * kLanes);
      AlignedBrcbs(fl.data(), w.At(g_), ceilM_, kLanes, 8);
      for (uint64_t j = 0; j < fl.size(); ++j) stat[j] = Narrow<U>(fl[j]);
      lanes = fl.data();
    } else {
      BasicBrcb(stat, w.At(g_), ceilM_, 1, 8);
      lanes = stat;
    }
    for (uint64_t r = 0; r < m_; ++r) {
      for (uint64_t c = 0; c < k_; ++c) {
        const float v = lanes[r * stride + c % 8];
        const uint64_t e = r * k_ + c;
        out[e] = isMax ? from[e] - v : from[e] / v;
      }
    }
  }
  void Reduce(BasicImage& w, const float* x, bool isMax) const {
    float* t1 = w.At(t1_);
    const uint64_t chunks = k_ / kLanes;
    const auto op = [isMax](float a, float b) { return isMax ? (a > b ? a : b) : a + b; };
    if (chunks == 1) {
      BasicBlockReduce(t1, x, m_, isMax);
      w.Touch(t1_, m_ * 8);
    } else {
      for (uint64_t r = 0; r < m_; ++r) {
        float* acc = t1 + r * kLanes;
        const float* row = x + r * k_;
        for (uint32_t l = 0; l < kLanes; ++l) acc[l] = op(row[l], row[kLanes + l]);
        for (uint64_t c = 2; c < chunks; ++c) {
          for (uint32_t l = 0; l < kLanes; ++l) {
            const float v = row[c * kLanes + l];
            acc[l] = m_ > chunks ? op(acc[l], v) : op(v, acc[l]);
          }
        }
      }
      BasicBlockReduce(t1, t1, m_, isMax);
      w.Touch(t1_, m_ * kLanes);
    }
    BasicBlockReduce(w.At(g_), t1, ceilM_, isMax);
    w.Touch(g_, ceilM_ * 8);
  }

  AscendC::tiling::SoftMaxTiling t_;
  uint64_t k_, m_, s_, ceilM_, t1_ = 0, g_ = 0;
  bool aligned_ = false;
};

// What SoftMaxBasicBlock leaves, computed before the call writes anything (dst may be src) and
// stored after it: the work buffer, dst's full-split rows and the statistics' stores.
template <typename T, typename U>
struct SoftMaxBasicLeave {
  BasicImage work;
  std::vector<T> dst;
  std::vector<U> sum, max;
};

// The splits' reach past sharedTmpBuffer (the device's overrun): checked mode refuses it
// (tensor_bounds, naming the sequence and a buffer that avoids it; a buffer below the one-row
// minimum is tmp_buffer first, as SoftMaxRows); unchecked it must lie inside the UB (ub_bounds
// otherwise). False where the floats past the buffer overlap an operand (not modelled).
template <typename T, typename U>
bool BasicReachPastBuffer(const char* api, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                          const SoftMaxBasicSeq<T, U>& seq,
                          std::initializer_list<detail::TensorView> ops,
                          const AscendC::LocalTensor<uint8_t>& tmp) {
  const uint64_t reach = seq.Reach(), bytes = tmp.View().size_bytes;
  if (reach * 4 <= bytes) return true;
  CheckTmp(api, tmp, (uint64_t{Lanes<T>()} + d.k + kLanes) * 4);
  const bool brcb = seq.Reach(false) * 4 <= bytes;
  const std::string what =
      std::string(api) + " isBasicBlock [" + std::to_string(d.m) + ", " + std::to_string(d.k) +
      "] on 2201: SoftMaxBasicBlock in splits of " + std::to_string(t.splitM) +
      " row(s) (splitM) reaches float " + std::to_string(reach) + " of sharedTmpBuffer" +
      (brcb ? ": the half statistics' two Brcbs write 128 floats from tmpBuffer1 at splitSize, "
              "past the buffer's end (the device writes the UB after it); a sharedTmpBuffer of "
              "at least " +
                  std::to_string(reach * 4) + " bytes, or float statistics, avoids it"
            : ": the tiling's split (made for a larger buffer) does not fit; a sharedTmpBuffer of "
              "at least " +
                  std::to_string(reach * 4) +
                  " bytes, or a tiling made for this buffer, avoids it") +
      "; sharedTmpBuffer";
  detail::OnTensorOverrun(tmp.View(), 0, reach, 4, what.c_str());
  const auto at = [](const std::byte* p) { return reinterpret_cast<uintptr_t>(p); };
  const uintptr_t lo = at(tmp.View().ptr) + bytes, hi = at(tmp.View().ptr) + reach * 4;
  for (const detail::TensorView& v : ops) {
    if (at(v.ptr) < hi && lo < at(v.ptr) + v.size_bytes) return false;
  }
  return true;
}

// Runs the sequence for SoftMax<isBasicBlock> with statistics on 2201 and 2002 (t: the tiling
// the kernel runs). Checked mode refuses the statistics' stores past sumTensor or maxTensor
// (tensor_bounds, as any overrun; after the checks SoftMaxRows makes first) and, on 2201, a reach
// past sharedTmpBuffer (BasicReachPastBuffer). Empty where not modelled (the buffer stays marked;
// on 2002 also where the splits reach past it). SoftMaxBasicStore stores what it computed.
template <typename T, typename U>
std::optional<SoftMaxBasicLeave<T, U>> SoftMaxBasicPrepare(
    const char* api, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
    const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
    const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<T>& src,
    const AscendC::LocalTensor<uint8_t>& tmp) {
  const NpuArch arch = detail::rep::RunningArch();
  if ((arch != NpuArch::k2201 && arch != NpuArch::k2002) || t.srcK != d.k || t.splitK != d.k ||
      d.k % kLanes != 0) {
    return std::nullopt;
  }
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{t.rangeM} * t.splitSize;
  namespace md = math_detail;
  CheckRows(api, {md::Op(dst, "dstTensor"), md::Op(src, "srcTensor")}, {n, n});
  const SoftMaxBasicSeq<T, U> seq(t);
  // Counts that wrap: the device computes other repeats than the rows need. Checked mode refuses
  // (softmax_device_defect) before anything is written; unchecked, lngrad's rows stand and the
  // buffer stays marked (not modelled: Covered).
  if (const std::string w = seq.Wrapped(); CheckedMode() && !w.empty()) {
    RaiseKernelCheck(
        checks::kSoftmaxDeviceDefect,
        std::string(api) + " isBasicBlock [" + std::to_string(d.m) + ", " + std::to_string(d.k) +
            "] with a tiling of splits of " + std::to_string(t.splitM) +
            " rows (splitM): SoftMaxBasicBlock casts its repeat counts and strides to uint8_t "
            "and " +
            w +
            " pass 255, so on the device they wrap and rows are left uncomputed or wrong; use "
            "the host tiling (SoftMaxTilingFunc keeps splitM * splitK below 64 * 256) or splits "
            "of fewer rows");
  }
  const uint64_t se = seq.StatEnd();
  CheckRows(api, {md::Op(sum, "sumTensor"), md::Op(max, "maxTensor")}, {se, se});
  if (tmp.HostPtr() == nullptr || !seq.Covered() || n * sizeof(T) > dst.View().size_bytes ||
      n * sizeof(T) > src.View().size_bytes || se * sizeof(U) > sum.View().size_bytes ||
      se * sizeof(U) > max.View().size_bytes) {
    return std::nullopt;
  }
  if (arch == NpuArch::k2201
          ? !BasicReachPastBuffer<T, U>(api, t, d, seq,
                                        {dst.View(), src.View(), sum.View(), max.View()}, tmp)
          : seq.Reach() * 4 > tmp.View().size_bytes) {
    return std::nullopt;
  }
  SoftMaxBasicLeave<T, U> out{BasicImage(tmp, seq.Reach()), {}, {}, {}};
  out.dst.assign(dst.HostPtr(), dst.HostPtr() + n);
  out.sum.assign(sum.HostPtr(), sum.HostPtr() + se);
  out.max.assign(max.HostPtr(), max.HostPtr() + se);
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    seq.Split(i, out.work, src.HostPtr(), out.dst.data(), out.sum.data(), out.max.data());
  }
  return out;
}

// Stores what SoftMaxBasicPrepare computed (after SoftMaxRows wrote the call's rows).
template <typename T, typename U>
void SoftMaxBasicStore(const char* api, SrcLoc loc, const SoftMaxBasicLeave<T, U>& l,
                       const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
                       const AscendC::LocalTensor<U>& max) {
  l.work.Store(api, loc);
  if (!l.dst.empty()) std::memcpy(dst.HostPtr(), l.dst.data(), l.dst.size() * sizeof(T));
  if (l.sum.empty()) return;
  std::memcpy(sum.HostPtr(), l.sum.data(), l.sum.size() * sizeof(U));
  std::memcpy(max.HostPtr(), l.max.data(), l.max.size() * sizeof(U));
  RecordCall(api, loc, {Wr(sum, l.sum.size()), Wr(max, l.max.size())});
}

// SimpleSoftMax with half data on 2201 (basic also on 2002: SimpleSoftMaxBasicBlock is
// membase/common's, its float steps the same there; so is the generic form with half statistics,
// which 2002 runs here where SimpleSoftMaxWorkV200 declines a reduceK other than 16): the work
// buffer its splits leave (basic: the
// rangeM full splits of SimpleSoftMaxBasicBlock; else SimpleSoftMaxNDImpl's splits and tail).
// cfg: SimpleSoftMaxGenericNDImpl's constant-shape config path (2201 and 2002 alike), whose Sub
// and Div read row r's statistics at 32 bytes a row (16 r of the half statistics' float copy, 8 r
// of the float statistics from i * reduceM * 8), whatever the tiling's reduceK: the float copy of
// half statistics is still curSplitM * reduceK floats from i * reduceSize, so with a reduceK
// other than 16 rows read floats that copy did not write (the previous copy's, or what the buffer
// held) and later splits another row's statistics (CfgHalfStatsRight). dstOut (when given): the
// device's dst for the splits' rows, from the quotients. Computed before the call writes (dst may
// be src); empty where not modelled: another arch, a tiling not for the shape's srcK, a count
// a footprint or a statistics read past the buffer, a statistics read past inSumTensor or
// inMaxTensor. basic: the kit's uint8_t counts as the device takes them (wrapped past 255:
// fewer Cast and Exp repeats, fewer Sub and Div rows or a smaller row stride, fewer statistics
// cast; dstOut, given filled with dst's elements, keeps those the Cast back does not reach);
// srcK not a multiple of 64 included (SimpleBasicRowsMembase, unchecked: whole chunks a row).
template <typename U>
std::optional<BasicImage> SimpleHalfPrepare(const AscendC::tiling::SoftMaxTiling& t, bool basic,
                                            const Dims& d, const AscendC::LocalTensor<U>& inSum,
                                            const AscendC::LocalTensor<U>& inMax,
                                            const AscendC::LocalTensor<half>& src,
                                            const AscendC::LocalTensor<uint8_t>& tmp,
                                            bool cfg = false, std::vector<half>* dstOut = nullptr) {
  constexpr bool kHalfStat = sizeof(U) == 2;
  const uint64_t k = t.splitK, s = t.splitSize, rk = basic ? Lanes<U>() : t.reduceK;
  // The Sub's and the Div's statistics row stride (floats).
  const uint64_t sk = cfg && !basic ? Lanes<U>() : rk;
  const NpuArch arch = detail::rep::RunningArch();
  // 2002's default form with half statistics of another reduceK: SimpleSoftMaxWorkV200 declines it.
  const bool v200 = basic || cfg || (kHalfStat && rk != Lanes<U>());
  if ((arch != NpuArch::k2201 && !(v200 && arch == NpuArch::k2002)) || tmp.HostPtr() == nullptr ||
      k != d.k || t.srcK != d.k || k == 0 || s < uint64_t{t.splitM} * k || rk % 8 != 0 || rk == 0) {
    return std::nullopt;
  }
  if (basic && s != uint64_t{t.splitM} * k) return std::nullopt;
  // SimpleSoftMaxBasicBlock's counts as it casts them to uint8_t (past 255 they wrap): the Casts'
  // and the Exp's repeats, the Sub's and the Div's rows and repeat stride (floats, at most
  // splitK), the half statistics' Cast repeats. The generic loop: the split's rows at srcK.
  const uint64_t castReps =
      basic ? static_cast<uint8_t>((uint64_t{t.reduceSize} + kLanes - 1) / kLanes)
            : (uint64_t{t.reduceSize} + kLanes - 1) / kLanes;
  const uint64_t bReps = static_cast<uint8_t>(s / kLanes), bRows = static_cast<uint8_t>(t.splitM);
  const uint64_t bStride = static_cast<uint8_t>(8 * (k / kLanes)) * uint64_t{8};
  const uint64_t kEnd = basic ? k / kLanes * kLanes : k;  // the Sub's and Div's whole chunks
  const uint32_t parts = basic ? t.rangeM : t.rangeM + (t.tailM != 0 ? 1 : 0);
  const auto statAt = [&](uint64_t i) { return kHalfStat ? i * t.reduceSize : i * t.reduceM * 8; };
  const auto rowsOf = [&](uint32_t i) { return i < t.rangeM ? t.splitM : t.tailM; };
  // The statistics each split reads: the half basic block's Cast ceil(reduceSize / 64) repeats,
  // the half generic form's Cast of its rows' reduceK, float statistics its rows at sk.
  const uint64_t last = parts == 0 ? 0 : parts - 1;
  const uint64_t statRows = kHalfStat ? rk : sk;
  const uint64_t statEnd = parts == 0
                               ? 0
                               : statAt(last) + (basic ? (kHalfStat ? castReps * kLanes : bRows * 8)
                                                       : rowsOf(last) * statRows);
  const uint64_t srcEnd = parts == 0 ? 0 : last * s + uint64_t{rowsOf(last)} * k;
  BasicImage w(tmp);
  // The half statistics' float copy at splitSize and the reads of its rows at sk.
  const uint64_t statFloats =
      kHalfStat ? (basic ? std::max(castReps * kLanes, bRows == 0 ? 0 : (bRows - 1) * 16 + 8)
                         : std::max(uint64_t{t.splitM} * rk,
                                    t.splitM == 0 ? 0 : uint64_t{t.splitM - 1} * sk + 8))
                : 0;
  if (s + statFloats > w.Floats() || statEnd * sizeof(U) > inSum.View().size_bytes ||
      statEnd * sizeof(U) > inMax.View().size_bytes || srcEnd * 2 > src.View().size_bytes) {
    return std::nullopt;
  }
  // dstOut given filled (dst as the call found it): where the basic block's wrapped counts leave
  // dst's elements; given empty, the splits write all of their rows.
  if (dstOut != nullptr && dstOut->empty()) dstOut->assign(src.HostPtr(), src.HostPtr() + srcEnd);
  if (dstOut != nullptr && dstOut->size() < srcEnd) return std::nullopt;
  float* x = w.At(0);
  for (uint32_t i = 0; i < parts; ++i) {
    const uint64_t rows = basic ? bRows : rowsOf(i), stride = basic ? bStride : k;
    const uint64_t sz = basic ? bReps * kLanes : rows * k, o1 = uint64_t{i} * s, o2 = statAt(i);
    const uint64_t nStat = basic ? castReps * kLanes : rows * rk;
    for (uint64_t j = 0; j < sz; ++j) x[j] = Widen(src.HostPtr()[o1 + j]);
    w.Touch(0, sz);
    for (int pass = 0; pass < 2; ++pass) {
      const U* st = (pass == 0 ? inMax : inSum).HostPtr() + o2;
      const float* lanes = nullptr;
      std::vector<float> tmpStat;
      if constexpr (kHalfStat) {
        for (uint64_t j = 0; j < nStat; ++j) *w.At(s + j) = Widen(st[j]);
        w.Touch(s, nStat);
        lanes = w.At(s);
      } else {
        LoadRow(tmpStat, st, static_cast<uint32_t>(rows * sk));
        lanes = tmpStat.data();
      }
      // Chunk by chunk, row by row (the kit's loop over splitBlock, each a repeat a row): with
      // a wrapped stride the rows overlap and the order shows.
      for (uint64_t c0 = 0; c0 < kEnd; c0 += kLanes) {
        for (uint64_t r = 0; r < rows; ++r) {
          for (uint64_t c = c0; c < std::min(kEnd, c0 + kLanes); ++c) {
            const float v = lanes[r * sk + c % 8];
            float& e = x[r * stride + c];
            e = pass == 0 ? e - v : e / v;
          }
          if (basic) w.Touch(r * stride + c0, kLanes);
        }
      }
      // The generic form with float statistics: Exp over tiling.splitSize floats.
      const uint64_t e = !basic && !kHalfStat ? s : sz;
      if (pass == 0) {
        for (uint64_t j = 0; j < e; ++j) x[j] = ExpOf(x[j]);
        w.Touch(0, e);
      }
    }
    if (dstOut != nullptr) {
      for (uint64_t j = 0; j < sz; ++j) (*dstOut)[o1 + j] = Narrow<half>(x[j]);
    }
  }
  return w;
}

}  // namespace lngrad::aicore::softmax_detail
