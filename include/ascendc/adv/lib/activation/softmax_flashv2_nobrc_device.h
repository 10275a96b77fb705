// lngrad: SoftmaxFlashV2 in SOFTMAX_OUTPUT_WITHOUT_BRC mode on 2201, the generic path (no
// isBasicBlock), as the device runs it over memory: the work buffer (sharedTmpBuffer) as the kit
// leaves it, for float data, half data with half statistics and half data with float
// statistics, without and with update (both overloads), and, unchecked, the device's outputs of
// half data with float statistics without update and of the tilings whose reductions' uint8_t
// operands wrap (softmax_v200_work.h V220Defect; session 25). membase/v220/softmax_flashv2_impl.h,
// per split of m rows (SoftmaxFlashV2M1PostProcess: rangeM splits of splitM, then tailM; M8 =
// ceil(m / 8) * 8, n = m * srcK):
//  - pre-cast (SoftmaxFlashV2M1{NoUpdate,Update}ImplPreCast): float data works on the caller's
//    tensors with tmp = work[0]; half data casts the split to x = work[0, n) and places, without
//    update, half statistics at sumB = work[n, +M8), maxB = work[n + M8, +M8), tmp = work[n + 2
//    M8]; float statistics tmp = work[M8], inside x (the defect checked mode refuses:
//    softmax_flashv2_nobrc_work.h); with update, half statistics sumB, maxB, expMaxB = work[n +
//    2 M8, +M8), tmp = work[n + 3 M8] (inExpSum and inMax cast into sumB and maxB), float ones
//    expMaxB = work[n, +M8), tmp = work[n + M8];
//  - without update (SoftmaxFlashV2M1NoUpdateImplProcess): NewReduceMaxLastNDImpl<false> into
//    max with tmp as its accumulators, SoftmaxFlashV2M1BrcbSubImpl (Brcb of max[0, M8) into tmp,
//    8 copies each, then x[r][c] - tmp[8 r + c % 8]: srcK < 192 column block by column block
//    over the rows, else row by row), Exp, NewReduceSumLastNDImpl<false> into expSum;
//  - with update (SoftmaxFlashV2M1UpdateImplProcess): t0 = tmp[0, reduceSize), red =
//    tmp[reduceSize]: the row max into t0 (red the accumulators), outReduceMax from t0, t0 =
//    Max(inMax, t0), red = inMax - t0, expMax = Exp(red), Brcb of t0 into red and the Sub, Exp,
//    max = t0, the row sum into t0, expSum = expMax * inExpSum + t0;
//  - the reductions: oriSrcK < 64 one masked WholeReduce a row into out[r]; else the 64-lane
//    accumulators acc[64 i, +64) (BigBlockReduce from 512 columns, Op of chunks 0 and 1 and
//    NextBlock from 128, FirstBlockCopyImpl from 64; softmax_v220_device.h V220Acc, the uint8_t
//    operands as they wrap), the tail, then BasicBlockReduce*Impl (one
//    row: out[0, 8) and with reduceK 16 out[8, 16); several: a BlockReduce in place, then one
//    into out);
//  - post-cast of half data: dst, and the half statistics and expMax of the split's m rows.
// Each step reads and writes memory in lngrad's order for overlapping operands (repeat by repeat,
// a repeat's elements in increasing order; a reduction's repeat read before its results are
// written). The model runs after lngrad's rows on copies of the inputs taken before them, over an
// image of the work buffer written back with the floats it wrote recorded (past the buffer's end
// the buffer stays marked); the statistics past the rows that Brcb reads are the caller's UB.
// Proven by tests/replay/replay_softmax_flashv2_m1.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax_v200_work.h"
#include "lib/activation/softmax_v220_device.h"

namespace lngrad::aicore::softmax_detail {

// The work buffer's image and which floats the model wrote.
struct M1Image {
  float* base;
  uint64_t floats;
  std::vector<bool> written;
  void Mark(const float* p, uint64_t n) {
    if (p < base || p >= base + written.size()) return;
    const uint64_t at = static_cast<uint64_t>(p - base);
    for (uint64_t i = at; i < at + n && i < written.size(); ++i) written[i] = true;
  }
};

// NewReduce{Max,Sum}LastNDImpl<false> of m rows of stride k (oriK reduced) of x into out, the
// accumulators at acc (which may lie inside x): softmax_v220_device.h V220Acc (the uint8_t
// operands as they wrap, in the kit's order), then BasicBlockReduce{Max,Sum}Impl (softmax_work.h
// WorkRowValues). copies: the one-row result's entries (8 or 16).
inline void M1ReduceRows(WorkOp op, float* out, const float* x, float* acc, uint32_t m, uint32_t k,
                         uint32_t oriK, uint32_t copies, M1Image& img) {
  if (oriK < kLanes) {  // one WholeReduce a row
    for (uint32_t r = 0; r < m; ++r) {
      const float* row = x + uint64_t{r} * k;
      out[r] = op == WorkOp::kSum ? ScalarTree64(row, oriK) : LaneMax(row, oriK);
    }
    img.Mark(out, m);
    return;
  }
  V220Acc(op, x, k, m, oriK, acc);
  img.Mark(acc, uint64_t{m} * kLanes);
  if (m == 1) {  // 8 WholeReduce repeats of the same 64 lanes (and a DataCopy of a block)
    float v = 0.0f;
    WorkRowValues(op, 1, acc, &v);
    for (uint32_t j = 0; j < copies; ++j) out[j] = v;
    img.Mark(out, copies);
    return;
  }
  WorkRowValues(op, m, acc, out);  // BlockReduce in place, then one into out
  img.Mark(out, m);
}

// SoftmaxFlashV2M1BrcbSubImpl: dst = src - the row's value of v (Brcb'd into tmp), then Exp of
// dst.
inline void M1BrcbSubExp(float* dst, const float* src, const float* v, float* tmp, uint32_t m,
                         uint32_t k, M1Image& img) {
  const uint32_t reps = (m + 7) / 8;
  for (uint32_t i = 0; i < 8 * reps; ++i) {  // Brcb: a repeat reads 8 values, writes 64
    const float s = v[i];
    for (uint32_t l = 0; l < 8; ++l) tmp[8 * i + l] = s;
  }
  img.Mark(tmp, 64 * reps);
  const auto sub = [&](uint32_t r, uint32_t c) {
    const uint64_t at = uint64_t{r} * k + c;
    dst[at] = src[at] - tmp[8 * r + c % 8];
  };
  if (k < 192) {
    for (uint32_t j = 0; j < k / 8; ++j) {
      for (uint32_t r = 0; r < m; ++r) {
        for (uint32_t l = 0; l < 8; ++l) sub(r, 8 * j + l);
      }
    }
  } else {
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t c = 0; c < k; ++c) sub(r, c);
    }
  }
  const uint64_t n = uint64_t{m} * k;
  for (uint64_t j = 0; j < n; ++j) dst[j] = ExpOf(dst[j]);
  img.Mark(dst, n);
}

// One split's operands: the caller's tensors at the split (copies the model owns), as T / U.
template <typename T, typename U>
struct M1SplitIo {
  const T* src;
  T* dst;
  U* max;
  U* sum;
  T* expMax;
  const U* inMax;
  const U* inSum;
  U* outReduceMax;  // null: not asked for
};

// The float statistics of a split: the caller's (U float) or the work buffer's (U half).
template <typename U>
float* FloatStat(U* caller, float* work) {
  if constexpr (std::is_same_v<U, float>) {
    return caller;
  } else {
    return work;
  }
}

template <typename T, typename U>
void M1Split(const M1SplitIo<T, U>& io, bool update, uint32_t m, uint32_t k, uint32_t oriK,
             const AscendC::tiling::SoftMaxTiling& t, M1Image& img) {
  constexpr bool halfData = std::is_same_v<T, half>, halfStats = std::is_same_v<U, half>;
  const uint64_t n = uint64_t{m} * k, m8 = (m + 7) / 8 * 8;
  const uint32_t copies = t.reduceK == 16 ? 16 : 8;
  float* w = img.base;
  float *x = nullptr, *y = nullptr, *tmp = w, *expMax = nullptr;
  const float *inMax = nullptr, *inSum = nullptr;
  float* sumB = w + n;
  float* maxB = sumB + m8;
  if constexpr (halfData) {
    x = y = w;
    for (uint64_t j = 0; j < n; ++j) x[j] = Widen(io.src[j]);
    img.Mark(x, n);
    expMax = halfStats ? maxB + m8 : w + n;
    tmp = update ? expMax + m8 : halfStats ? maxB + m8 : w + m8;
  } else {
    x = const_cast<float*>(io.src);  // the model's own copy; the device's src is never written
    y = io.dst;
    expMax = io.expMax;
  }
  float* max = FloatStat<U>(io.max, maxB);
  float* sum = FloatStat<U>(io.sum, sumB);
  if constexpr (halfStats) {
    if (update) {
      for (uint32_t r = 0; r < m; ++r) sum[r] = Widen(io.inSum[r]);
      for (uint32_t r = 0; r < m; ++r) max[r] = Widen(io.inMax[r]);
      img.Mark(sum, m);
      img.Mark(max, m);
    }
    inMax = max;
    inSum = sum;
  } else {
    inMax = io.inMax;
    inSum = io.inSum;
  }
  if (!update) {
    M1ReduceRows(WorkOp::kMax, max, x, tmp, m, k, oriK, copies, img);
    M1BrcbSubExp(y, x, max, tmp, m, k, img);
    M1ReduceRows(WorkOp::kSum, sum, y, tmp, m, k, oriK, copies, img);
  } else {
    float* t0 = tmp;
    float* red = tmp + t.reduceSize;
    M1ReduceRows(WorkOp::kMax, t0, x, red, m, k, oriK, copies, img);
    for (uint32_t r = 0; io.outReduceMax != nullptr && r < m; ++r) {
      io.outReduceMax[r] = Narrow<U>(t0[r]);
    }
    for (uint32_t r = 0; r < m; ++r) t0[r] = inMax[r] > t0[r] ? inMax[r] : t0[r];
    for (uint32_t r = 0; r < m; ++r) red[r] = inMax[r] - t0[r];
    for (uint32_t r = 0; r < m; ++r) expMax[r] = ExpOf(red[r]);
    img.Mark(expMax, m);
    M1BrcbSubExp(y, x, t0, red, m, k, img);
    for (uint32_t r = 0; r < m; ++r) max[r] = t0[r];
    img.Mark(max, m);
    M1ReduceRows(WorkOp::kSum, t0, y, red, m, k, oriK, copies, img);
    for (uint32_t r = 0; r < m; ++r) sum[r] = expMax[r] * inSum[r];
    for (uint32_t r = 0; r < m; ++r) sum[r] = sum[r] + t0[r];
    img.Mark(sum, m);
  }
  if constexpr (halfData) {  // the post-cast
    for (uint64_t j = 0; j < n; ++j) io.dst[j] = Narrow<half>(y[j]);
    for (uint32_t r = 0; update && r < m; ++r) io.expMax[r] = Narrow<half>(expMax[r]);
    if constexpr (halfStats) {
      for (uint32_t r = 0; r < m; ++r) io.sum[r] = Narrow<half>(sum[r]);
      for (uint32_t r = 0; r < m; ++r) io.max[r] = Narrow<half>(max[r]);
    }
  }
}

// The call on 2201 (generic path, kernel tiling t): the inputs copied before lngrad's rows are
// written, then (Finish) every split over copies of the outputs and an image of the work buffer.
// Off where a split would read or write past the caller's tensors. A tiling whose uint8_t
// reduction operands wrap (V220Defect; checked mode refused it before, CheckV220Defect) gives,
// unchecked, the device's outputs too (dst, max, expSum, expMax, outReduceMax).
template <typename T, typename U>
class FlashV2M1Device {
 public:
  FlashV2M1Device(bool on, bool update, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                  const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<U>& inMax,
                  const AscendC::LocalTensor<U>& inSum, const AscendC::LocalTensor<uint8_t>& work)
      : t_(t), d_(d), update_(update) {
    n_ = uint64_t{t.rangeM} * t.splitSize + uint64_t{t.tailM} * t.splitK;
    rows_ = uint64_t{t.rangeM} * t.reduceM + t.tailM;
    on_ = on && detail::rep::RunningArch() == NpuArch::k2201 && work.HostPtr() != nullptr &&
          t.splitM != 0 && t.splitK == d.k && t.splitSize == uint64_t{t.splitM} * t.splitK &&
          t.reduceM == t.splitM && n_ <= src.GetSize();
    wrap_ = !CheckedMode() && !V220Defect(t, d).empty();
    if (update) on_ = on_ && rows_ <= inMax.GetSize() && rows_ <= inSum.GetSize();
    if (!on_) return;
    src_.assign(src.HostPtr(), src.HostPtr() + n_);
    if (update) {
      inMax_.assign(inMax.HostPtr(), inMax.HostPtr() + rows_);
      inSum_.assign(inSum.HostPtr(), inSum.HostPtr() + rows_);
    }
  }

  // writeOutputs (or a wrapping tiling): store the model's dst, max and expSum (the rows and the
  // one-row splits' copies), and a wrapping tiling's expMax and outReduceMax, over lngrad's.
  // Returns whether the work buffer was written (then it is modelled).
  bool Finish(const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<U>& sum,
              const AscendC::LocalTensor<T>& expMax, const AscendC::LocalTensor<U>* outReduceMax,
              const AscendC::LocalTensor<uint8_t>& work, bool writeOutputs) {
    if (!on_ || n_ > dst.GetSize() || rows_ > max.GetSize() || rows_ > sum.GetSize()) return false;
    if (update_ && rows_ > expMax.GetSize()) return false;
    const uint64_t floats = work.View().size_bytes / 4, m8 = (t_.splitM + 7) / 8 * 8;
    std::vector<float> image(floats + t_.splitSize + 4 * m8 + t_.reduceSize + 64 * m8 + 64);
    std::memcpy(image.data(), work.HostPtr(), floats * 4);
    M1Image img{image.data(), floats, std::vector<bool>(image.size(), false)};
    // The statistics: rows, then what Brcb reads past them (the caller's UB) and the one-row
    // copies; every row of these is written before it is read, except those.
    const uint64_t stats = rows_ + 16;
    std::vector<T> y(n_);
    std::vector<U> mx(stats), sm(stats), rm(stats);
    std::vector<T> em(stats);
    const uint64_t last = t_.tailM != 0 ? t_.tailM : t_.splitM;
    const uint64_t reads = rows_ - last + (last + 7) / 8 * 8;
    std::memcpy(mx.data(), max.HostPtr(), std::min(reads, stats) * sizeof(U));
    uint64_t ext = 0;
    for (uint32_t s = 0; s <= t_.rangeM; ++s) {  // rangeM splits, then the tail
      const uint32_t m = s < t_.rangeM ? t_.splitM : t_.tailM;
      if (m == 0) break;
      const uint64_t o1 = uint64_t{s} * t_.splitSize, o2 = uint64_t{s} * t_.reduceM;
      const M1SplitIo<T, U> io{src_.data() + o1,
                               y.data() + o1,
                               mx.data() + o2,
                               sm.data() + o2,
                               em.data() + o2,
                               update_ ? inMax_.data() + o2 : nullptr,
                               update_ ? inSum_.data() + o2 : nullptr,
                               outReduceMax != nullptr ? rm.data() + o2 : nullptr};
      M1Split<T, U>(io, update_, m, d_.k, d_.oriK, t_, img);
      const bool one = !update_ && m == 1 && d_.oriK >= kLanes && std::is_same_v<U, float>;
      ext = std::max<uint64_t>(ext, o2 + (one ? (t_.reduceK == 16 ? 16 : 8) : m));
    }
    if (writeOutputs || wrap_) {
      std::copy(y.begin(), y.end(), dst.HostPtr());
      std::copy(mx.begin(), mx.begin() + ext, max.HostPtr());
      std::copy(sm.begin(), sm.begin() + ext, sum.HostPtr());
    }
    if (wrap_ && update_) {
      std::copy(em.begin(), em.begin() + rows_, expMax.HostPtr());
      if (outReduceMax != nullptr && rows_ <= outReduceMax->GetSize()) {
        std::copy(rm.begin(), rm.begin() + rows_, outReduceMax->HostPtr());
      }
    }
    for (uint64_t i = floats; i < img.written.size(); ++i) {
      if (img.written[i]) return false;  // past the buffer: it stays marked
    }
    std::memcpy(work.HostPtr(), image.data(), floats * 4);
    san::Instr rec(Pipe::kV, api, loc);
    for (uint64_t i = 0; rec && i < floats;) {
      uint64_t j = i;
      while (j < floats && img.written[j]) ++j;
      if (j > i) rec.Write(work.HostPtr() + i * 4, (j - i) * 4);
      i = j + 1;
    }
    return true;
  }

 private:
  AscendC::tiling::SoftMaxTiling t_;
  Dims d_;
  bool update_, on_ = false, wrap_ = false;
  uint64_t n_ = 0, rows_ = 0;
  std::vector<T> src_;
  std::vector<U> inMax_, inSum_;
};

}  // namespace lngrad::aicore::softmax_detail
