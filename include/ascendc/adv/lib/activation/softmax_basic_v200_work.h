// lngrad: what SoftMax with statistics and isBasicBlock (membase/common/softmax_impl/
// softmax_basic_block_impl.h SoftMaxBasicBlock, its __NPU_ARCH__ == 2002 branches) leaves on 2002
// in its work buffer, dst and statistics (sharedTmpBuffer, or the stack buffer the overload
// without one pops).
//
// The steps are 2201's (softmax_basic_work.h: per full split the Cast of half data, the
// reductions into t1 and the group results g, Sub, Exp, Div, the half statistics' Cast of
// ceil(reduceSize / 64) repeats of t1) but each broadcast of g is AlignedBrcbImpl, group by group:
// it reads group j's 8 values g[8 j, 8 j + 8) as scalars, then Duplicates value b over brcbCount
// floats at brcbCount b. Float statistics (brcbCount 8, into the statistics tensor at 64 j) store
// what 2201's Brcb does. Half statistics (brcbCount 16, into t1[128 j]): row r's 16 lanes all hold
// its value; with one row g lies at t1 + 64, inside the group's 128 floats, which the scalar reads
// precede (2201's second Brcb reads what its first wrote there).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "lib/activation/softmax_basic_work.h"
#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

// SoftMaxBasicBlock's full splits on 2002 (T data, U statistics) over images of the work buffer,
// dst's rangeM * splitSize elements and the statistics' StatEnd() elements.
template <typename T, typename U>
class SoftMaxBasicSeqV200 {
 public:
  static constexpr bool kHalf = sizeof(T) == 2, kHalfStat = sizeof(U) == 2;
  explicit SoftMaxBasicSeqV200(const AscendC::tiling::SoftMaxTiling& t)
      : t_(t), k_(t.splitK), m_(t.splitM), s_(t.splitSize), ceilM_((m_ + 7) / 8) {
    t1_ = kHalf ? s_ : 0;
    g_ = t1_ + m_ * kLanes;
  }
  // False where not modelled: splitK not whole chunks, a count the kit casts to uint8_t past 255,
  // a footprint past the buffer.
  bool Covered(uint64_t floats) const {
    if (t_.rangeM == 0) return true;
    if (k_ == 0 || k_ % kLanes != 0 || s_ != m_ * k_ || s_ / kLanes > 255 || m_ > 255 ||
        k_ / 8 > 255 || ceilM_ > 255 || CastReps() > 255) {
      return false;
    }
    uint64_t end = std::max({kHalf ? s_ : 0, t1_ + ceilM_ * kLanes, g_ + ceilM_ * 8});
    if (kHalfStat) end = std::max(end, t1_ + ceilM_ * 2 * kLanes);
    return end <= floats;
  }
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
  // AlignedBrcbImpl's loop: group j's 8 values read, then value b over n floats at
  // dst[step j + n b].
  static void AlignedBrcbs(float* dst, const float* g, uint64_t groups, uint64_t step, uint64_t n) {
    for (uint64_t j = 0; j < groups; ++j) {
      float v[8];
      std::copy(g + 8 * j, g + 8 * j + 8, v);
      for (uint64_t b = 0; b < 8; ++b) std::fill_n(dst + step * j + n * b, n, v[b]);
    }
  }
  // One reduction (as softmax_basic_work.h's), the broadcast, then out = from op the row's
  // statistic (Sub for the max, Div for the sum), column c reading lane c % 8.
  void Pass(BasicImage& w, const float* from, float* out, U* stat, bool isMax) const {
    Reduce(w, from, isMax);
    const float* lanes = nullptr;
    uint64_t stride = 8;
    std::vector<float> fl;
    if constexpr (kHalfStat) {
      AlignedBrcbs(w.At(t1_), w.At(g_), ceilM_, 2 * kLanes, 16);
      w.Touch(t1_, ceilM_ * 2 * kLanes);
      for (uint64_t j = 0; j < CastReps() * kLanes; ++j) stat[j] = Narrow<U>(*w.At(t1_ + j));
      lanes = w.At(t1_);
      stride = 16;
    } else {
      fl.resize(ceilM_ * kLanes);
      AlignedBrcbs(fl.data(), w.At(g_), ceilM_, kLanes, 8);
      for (uint64_t j = 0; j < fl.size(); ++j) stat[j] = Narrow<U>(fl[j]);
      lanes = fl.data();
    }
    for (uint64_t r = 0; r < m_; ++r) {
      for (uint64_t c = 0; c < k_; ++c) {
        const float v = lanes[r * stride + c % 8];
        const uint64_t e = r * k_ + c;
        out[e] = isMax ? from[e] - v : from[e] / v;
      }
    }
  }
  // BasicBlockMaxImpl / BasicBlockAddImpl (or one BlockReduce with one chunk) into t1, the
  // in-place BlockReduce, then a BlockReduce of ceil(splitM / 8) groups of t1 into g.
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
};

// SoftMaxBasicPrepare on 2002 (t: the tiling the kernel runs): the same checks (stores past
// sumTensor or maxTensor refused in checked mode), SoftMaxBasicSeqV200's splits; empty where not
// modelled (the buffer stays marked). SoftMaxBasicStore stores what it computed.
template <typename T, typename U>
std::optional<SoftMaxBasicLeave<T, U>> SoftMaxBasicPrepareV200(
    const char* api, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
    const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
    const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<T>& src,
    const AscendC::LocalTensor<uint8_t>& tmp) {
  if (detail::rep::RunningArch() != NpuArch::k2002 || t.srcK != d.k || t.splitK != d.k ||
      d.k % kLanes != 0) {
    return std::nullopt;
  }
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{t.rangeM} * t.splitSize;
  namespace md = math_detail;
  CheckRows(api, {md::Op(dst, "dstTensor"), md::Op(src, "srcTensor")}, {n, n});
  const SoftMaxBasicSeqV200<T, U> seq(t);
  const uint64_t se = seq.StatEnd();
  CheckRows(api, {md::Op(sum, "sumTensor"), md::Op(max, "maxTensor")}, {se, se});
  SoftMaxBasicLeave<T, U> out{BasicImage(tmp), {}, {}, {}};
  if (tmp.HostPtr() == nullptr || !seq.Covered(out.work.Floats()) ||
      n * sizeof(T) > dst.View().size_bytes || n * sizeof(T) > src.View().size_bytes ||
      se * sizeof(U) > sum.View().size_bytes || se * sizeof(U) > max.View().size_bytes) {
    return std::nullopt;
  }
  out.dst.assign(dst.HostPtr(), dst.HostPtr() + n);
  out.sum.assign(sum.HostPtr(), sum.HostPtr() + se);
  out.max.assign(max.HostPtr(), max.HostPtr() + se);
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    seq.Split(i, out.work, src.HostPtr(), out.dst.data(), out.sum.data(), out.max.data());
  }
  return out;
}

}  // namespace lngrad::aicore::softmax_detail
