// lngrad: what SoftMax and LogSoftMax leave in their work buffer on 2201 (sharedTmpBuffer, or the
// stack buffer the overloads without one pop): the ND generic loop of membase/v220/softmax_impl.h
// (SingleSoftMaxImpl, without statistics: the row statistics at work[0], [splitM, 8] floats,
// the 64-lane accumulators at work[reduceSize]) and membase/common SoftMaxGenericNDImpl (with
// statistics: the accumulators at work[0]). Each split's max pass and then its sum pass
// (NewReduceMaxLastNDImpl, NewReduceSumLastNDImpl) leave, for its m rows:
// - oriSrcK >= 64: row i's accumulator at tmp[64 i] (BigBlockReduce from 512 columns, the first
//   two chunks and NextBlock from 128 — chunk then accumulator when the split has no more rows
//   than chunks, accumulator then chunk otherwise —, chunk 0 below; then the tail columns);
// - the statistics block: the m row values packed at its start (one row with oriSrcK > 64: the
//   value in its first 8 floats), then, unless one row with oriSrcK > 64, AlignedBroadCastImpl:
//   tmp[0, 64 ceil(m / 8)) gets every float of the block's first 8 ceil(m / 8) broadcast to 8
//   (past the m values, what the block held before: the statistics tensor's bytes, or in the
//   work buffer the previous pass's statistics or the buffer's bytes), and the block's first 8 m
//   floats are copied back from tmp.
// Later splits overwrite the start of what earlier ones left. The values are lngrad's own row
// max and sum (softmax_common.h NdRowMax, RowSum; RowExps, computed once and handed to
// SoftMaxRows), so the buffer agrees with the results. The splits whose uint8_t operands wrap on
// the device (softmax_v200_work.h V220Defect) are refused in checked mode before this runs;
// unchecked, softmax_v220_device.h SoftMaxWorkV220 hands this the device's wrapped accumulators
// (WorkAccFn) and the rows' max, exponentials and sum come from them, split by split
// (WorkSplitDevice), so the buffer, dst and the statistics are the device's. The constant-shape
// config's half data without statistics on the kernel's re-tile (reduceK 8): the reductions'
// 16 floats a row spill from the statistics block into the accumulators (SpillsStats).
#pragma once

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

enum class WorkOp { kMax, kSum };

inline float WorkApply(WorkOp op, float a, float b) {
  return op == WorkOp::kSum ? a + b : (a > b ? a : b);
}

// BlockReduceSum (the adjacent-pair tree) / BlockReduceMax (the lane rule as lngrad runs it:
// LaneMax) over 8 floats.
inline float WorkBlock(WorkOp op, const float* v) {
  return op == WorkOp::kSum ? Tree8(v) : LaneMax(v, 8);
}

// The 64-lane accumulator of row x (oriK >= 64); chunkFirst: NextBlock's per-row order (the
// split's rows at most its chunks).
inline void WorkLanes(WorkOp op, const float* x, uint32_t oriK, bool chunkFirst, float* acc) {
  const uint32_t chunks = oriK / kLanes, tail = oriK % kLanes;
  uint32_t c = 1;
  if (oriK >= 8 * kLanes) {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = WorkBlock(op, x + 8 * l);
    c = 8;
    chunkFirst = true;  // BigBlockReduce adds chunk then accumulator
  } else if (oriK >= 2 * kLanes) {
    for (uint32_t l = 0; l < kLanes; ++l) acc[l] = WorkApply(op, x[l], x[kLanes + l]);
    c = 2;
  } else {
    std::copy(x, x + kLanes, acc);
  }
  for (; c < chunks; ++c) {
    const float* ch = x + uint64_t{c} * kLanes;
    for (uint32_t l = 0; l < kLanes; ++l) {
      acc[l] = chunkFirst ? WorkApply(op, ch[l], acc[l]) : WorkApply(op, acc[l], ch[l]);
    }
  }
  for (uint32_t l = 0; l < tail; ++l) acc[l] = WorkApply(op, acc[l], x[chunks * kLanes + l]);
}

// BasicBlockReduce*Impl's row values v from the accumulators of m rows (oriK >= 64): one row:
// WholeReduce of its 64 lanes; more: BlockReduce in place (tmp[8 r + b]), then each row's 8.
inline void WorkRowValues(WorkOp op, uint32_t m, float* tmp, float* v) {
  if (m == 1) {
    v[0] = op == WorkOp::kSum ? ScalarTree64(tmp, kLanes) : LaneMax(tmp, kLanes);
    return;
  }
  for (uint32_t r = 0; r < m; ++r) {
    float b[8];
    for (uint32_t q = 0; q < 8; ++q) b[q] = WorkBlock(op, tmp + uint64_t{r} * kLanes + 8 * q);
    std::copy(b, b + 8, tmp + uint64_t{r} * 8);
  }
  for (uint32_t r = 0; r < m; ++r) v[r] = WorkBlock(op, tmp + uint64_t{r} * 8);
}

// The statistics block stat of a split of m rows (dstK = 8 or 16 floats a row) from its row
// values v, and AlignedBroadCastImpl over tmp (header).
inline void WorkBroadcast(uint32_t m, uint32_t oriK, uint32_t dstK, const float* v, float* stat,
                          float* tmp) {
  const bool one = m == 1 && oriK >= kLanes;
  for (uint32_t r = 0; r < (one ? dstK : m); ++r) stat[r] = v[one ? 0 : r];
  if (m == 1 && oriK > kLanes) return;
  const uint64_t reps = (m + 7) / 8;
  if (dstK == 8 || m == 1) {
    for (uint64_t i = 0; i < reps * 8; ++i) std::fill(tmp + 8 * i, tmp + 8 * i + 8, stat[i]);
    if (dstK != 8) std::copy(tmp, tmp + 8, tmp + 8);
  } else {
    for (uint64_t i = 0; i < reps * 8; ++i) std::fill(tmp + 16 * i, tmp + 16 * i + 16, stat[i]);
  }
  std::copy(tmp, tmp + uint64_t{m} * dstK, stat);
}

// One reduction pass over the split's m rows (x: rows of stride k), its row values v; stat: the
// split's statistics block (dstK = 8 or 16 floats a row), tmp: the accumulators.
inline void WorkPass(WorkOp op, const float* x, uint32_t k, uint32_t m, uint32_t oriK,
                     uint32_t dstK, const float* v, float* stat, float* tmp) {
  if (oriK >= kLanes) {
    for (uint32_t i = 0; i < m; ++i) {
      WorkLanes(op, x + uint64_t{i} * k, oriK, m <= oriK / kLanes, tmp + uint64_t{i} * kLanes);
    }
  }
  WorkBroadcast(m, oriK, dstK, v, stat, tmp);
}

// The accumulators of a split's m rows (x: rows of stride k) as the device's wrapped uint8_t
// operands leave them (softmax_v220_device.h V220Acc); SoftMaxWork's passes take them instead
// of WorkLanes's for the splits the 2201 sequence gets wrong (unchecked mode).
using WorkAccFn = void (*)(WorkOp op, const float* x, uint32_t k, uint32_t m, uint32_t oriK,
                           float* tmp);

// The floats a split of m rows writes from tmp: its accumulators or its broadcast blocks.
inline uint64_t WorkTmpFloats(uint32_t m, uint32_t oriK, uint32_t dstK) {
  if (oriK >= kLanes) return uint64_t{m} * kLanes;
  return m == 1 ? kLanes : (uint64_t{m} + 7) / 8 * 8 * dstK;
}

// Where a call's pieces lie in the work buffer (floats): half data's float copy of the split at
// 0, the statistics (without statistics tensors, or half ones), the accumulators.
struct WorkLayout {
  bool copy = false, statIn = false;
  uint64_t statAt = 0, tmpAt = 0;
};
template <typename T, typename U>
WorkLayout WorkLayoutOf(const AscendC::tiling::SoftMaxTiling& t, bool stats) {
  WorkLayout w;
  w.copy = std::is_same_v<T, half>;
  w.statIn = !stats || !std::is_same_v<U, float>;
  w.statAt = w.copy ? t.splitSize : 0;
  w.tmpAt = w.statAt + (w.statIn ? t.reduceSize : 0);
  return w;
}

// Every row's max, exponentials and sum as SoftMaxRows computes them on the generic loop (NdRowMax
// in the kit's order for the split holding the row, x - max and Exp over the row's k columns,
// RowSum over oriK), computed once: the work model writes its passes from them and SoftMaxRows
// takes them instead of computing the rows a second time. The constant-shape config's
// reductions (softmax.h ConfigRows, 2201): redK, the ReduceLastND's row stride (config.oriSrcK
// rounded up to 8; 0: k), row i of a split reduced from the split's values at i * redK; statNum /
// statDen: the Sub and Div of split row i take split row i * statNum / statDen's statistics
// (the tiling's reduceK against the config's statistics stride).
struct RowExps {
  std::vector<float> e, mx, sm;  // e: m rows of k
  uint32_t m = 0, k = 0;
  uint32_t redK = 0, statNum = 1, statDen = 1;
  template <typename T>
  void Compute(const T* src, const Dims& d) {
    m = d.m;
    k = d.k;
    LoadRow(e, src, m * k);
    mx.resize(m);
    sm.resize(m);
    // Every max from the split's values before any Sub (a reduction row may span two rows).
    for (uint32_t r = 0; r < m; ++r)
      mx[r] = NdRowMax(e.data() + RedAt(d, r), d.oriK, SplitRowsAt(d, r));
    for (uint32_t r = 0; r < m; ++r) {
      float* y = e.data() + uint64_t{r} * k;
      const float v = mx[StatRow(d, r)];
      for (uint32_t c = 0; c < k; ++c) y[c] = y[c] - v;
    }
    ExpInPlace(e);
    for (uint32_t r = 0; r < m; ++r) sm[r] = RowSum(e.data() + RedAt(d, r), d.oriK, false);
  }
  // The sizes of d's rows, for SoftMaxWork's device passes to fill split by split.
  void Size(const Dims& d) {
    m = d.m;
    k = d.k;
    e.resize(uint64_t{m} * k);
    mx.resize(m);
    sm.resize(m);
  }
  const float* Row(uint32_t r) const { return e.data() + uint64_t{r} * k; }
  // The first row of the split holding row r (SplitRowsAt's splits).
  static uint32_t SplitStart(const Dims& d, uint32_t r) {
    if (d.splitM == 0) return 0;
    const uint64_t full = uint64_t{d.rangeM} * d.splitM;
    return r < full ? r / d.splitM * d.splitM : static_cast<uint32_t>(full);
  }
  // Where row r's reduction reads, and whose statistics its Sub and Div take.
  uint64_t RedAt(const Dims& d, uint32_t r) const {
    const uint32_t r0 = SplitStart(d, r);
    return uint64_t{r0} * k + uint64_t{r - r0} * (redK == 0 ? k : redK);
  }
  uint32_t StatRow(const Dims& d, uint32_t r) const {
    const uint32_t r0 = SplitStart(d, r);
    return r0 + static_cast<uint32_t>(uint64_t{r - r0} * statNum / statDen);
  }
};

// The rows of one split (from row0): its source as floats and, for half data's float copy, the
// quotients (LogSoftMax: their Ln and Muls).
struct WorkRows {
  std::vector<float> x, q;
  template <typename T>
  void Load(const T* src, uint32_t row0, uint32_t m, const RowExps& pre, bool copy, bool log) {
    LoadRow(x, src, m * pre.k);
    if (!copy) return;
    q.resize(x.size());
    for (uint32_t r = 0; r < m; ++r) {
      const float* y = pre.Row(row0 + r);
      const float s = pre.sm[row0 + r * pre.statNum / pre.statDen];  // the Div's statistics
      for (uint32_t c = 0; c < pre.k; ++c) q[uint64_t{r} * pre.k + c] = y[c] / s;
    }
    if (log) Log10InPlace(q);
  }
};

// One reduction pass of m rows (x: rows of stride k) on the accumulators acc gives (a WorkAccFn:
// the device's wrapped operands): acc into tmp, BasicBlockReduce*Impl's row values v, the
// broadcast into stat (dstK floats a row). oriK >= 64.
inline void WorkDevicePass(WorkAccFn acc, WorkOp op, const float* x, uint32_t k, uint32_t m,
                           uint32_t oriK, uint32_t dstK, float* v, float* stat, float* tmp) {
  acc(op, x, k, m, oriK, tmp);
  WorkRowValues(op, m, tmp, v);
  WorkBroadcast(m, oriK, dstK, v, stat, tmp);
}

// One split of m rows from row0 (x: its source as floats, rows of d.k) on the device's wrapped
// operands (acc, unchecked, the splits the 2201 sequence gets wrong): the max pass (the
// accumulators, BasicBlockReduceMaxImpl's row values, the broadcast into maxAt), the Sub of
// each row's max over its d.k columns and the Exp into ex's rows (GenericSubNDImpl: every lane
// of a row's block holds its value), the sum pass over those exponentials (into sumAt); ex gets
// the split's max, exponentials and sum, which SoftMaxRows then divides.
inline void WorkSplitDevice(WorkAccFn acc, const std::vector<float>& x, uint32_t row0, uint32_t m,
                            const Dims& d, uint32_t dstK, RowExps& ex, float* maxAt, float* sumAt,
                            float* tmp) {
  std::vector<float> v(m);
  WorkDevicePass(acc, WorkOp::kMax, x.data(), d.k, m, d.oriK, dstK, v.data(), maxAt, tmp);
  std::copy(v.begin(), v.end(), ex.mx.begin() + row0);
  const uint64_t n = uint64_t{m} * d.k;
  std::vector<float> e(n);
  for (uint64_t j = 0; j < n; ++j) e[j] = x[j] - v[j / d.k];
  ExpInPlace(e);
  std::copy(e.begin(), e.end(), ex.e.begin() + uint64_t{row0} * d.k);
  WorkDevicePass(acc, WorkOp::kSum, e.data(), d.k, m, d.oriK, dstK, v.data(), sumAt, tmp);
  std::copy(v.begin(), v.end(), ex.sm.begin() + row0);
}

// The kit's split loop over a tiling (SoftMaxNDExtImpl, SingleSoftMaxImpl): rangeM splits of splitM
// rows, then a split of tailM rows when there is one (rangeM 0: one split of splitM rows).
// fn(srcAt, statAt, rows): the split's offsets in the source (splitSize elements a split) and
// in the statistics (reduceSize), and its rows.
template <typename Fn>
void ForEachSplit(const AscendC::tiling::SoftMaxTiling& t, Fn&& fn) {
  if (t.rangeM == 0) {
    fn(uint64_t{0}, uint64_t{0}, t.splitM);
    return;
  }
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    fn(uint64_t{i} * t.splitSize, uint64_t{i} * t.reduceSize, t.splitM);
  }
  if (t.tailM != 0) {
    fn(uint64_t{t.rangeM} * t.splitSize, uint64_t{t.rangeM} * t.reduceSize, t.tailM);
  }
}

// Whether the tensors hold what the splits of t read and write (the buffer `need` floats); where
// not, the call is not modelled (left marked) and SoftMaxRows's checks name the operand.
template <typename T, typename U>
bool WorkFits(const AscendC::tiling::SoftMaxTiling& t, const Dims& d, uint64_t need,
              const AscendC::LocalTensor<T>& srcT, const AscendC::LocalTensor<U>* sumT,
              const AscendC::LocalTensor<U>* maxT, const AscendC::LocalTensor<uint8_t>& tmp) {
  const uint64_t rows = t.rangeM == 0 ? t.splitM : uint64_t{t.rangeM} * t.splitM + t.tailM;
  const uint64_t stats = rows * t.reduceK * sizeof(U);
  if (need * 4 > tmp.View().size_bytes || rows * d.k * sizeof(T) > srcT.View().size_bytes) {
    return false;
  }
  return sumT == nullptr || (stats <= sumT->View().size_bytes && stats <= maxT->View().size_bytes);
}

// The constant-shape config's half data without statistics on a tiling of reduceK 8 (the
// kernel's re-tile, made with float statistics; softmax.h ConfigRows): SingleSoftMaxImpl<half>'s
// reductions take dstK = 16 (NewReduce*LastNDImpl: BasicBlockReduce*Impl's DataCopy of the one
// row's block, AlignedBroadCastImpl's two Brcbs and its Copy of 16 m floats) into tmpBuffer1, a
// block of reduceSize = 8 splitM floats, so the Copy's floats from 8 splitM on land at the start
// of tmpBuffer2, the accumulators (the Copy's source, 8 splitM floats on: each float read before
// it is overwritten, **[inference]** the device's repeats read before they write). The Sub and the
// Div read row r's block at 8 r, so the split's first m / 2 rows' statistics (RowExps statNum /
// statDen). WorkBroadcast's copy into stat runs that overlap forwards.
template <typename T>
bool SpillsStats(const AscendC::tiling::SoftMaxTiling& t, const RowExps& pre, const WorkLayout& w) {
  return std::is_same_v<T, half> && w.statIn && t.reduceK == 8 && pre.statNum == 8 &&
         pre.statDen == 16;
}

// Writes what the kit's splits of tiling t leave in the work buffer for SoftMax over src (rows
// of d.k, d.oriK reduced); sum/max: the statistics tensors (nullptr: without them). log:
// LogSoftMax (logsoftmax_common_impl.h LogSoftMaxGenericNDImpl: the same steps, then Ln and Muls
// on the quotients, in the float copy for half data). Runs before
// the call writes anything (it reads src and the statistics tensors as they stand: the
// broadcast reads their blocks past a split's rows). False (nothing written) where not
// modelled: another arch than 2201, a reduceK other than 8 (16 too with half data and half or no
// statistics), a tiling whose splitK or srcK is not the shape's or whose splitSize is not splitM
// rows, no rows. pre (when given): gets the rows' max, exponentials and sum (RowExps), for
// SoftMaxRows; its redK (set by the caller: the constant-shape config's ReduceLastND) is the
// reductions' row stride (statNum != statDen: the spill of SpillsStats; other pairs not
// modelled). wrapped (softmax_v220_device.h
// SoftMaxWorkV220, unchecked, a tiling V220Defect names; redK 0): the passes take the device's
// accumulators from it and pre gets the device's rows, split by split (WorkSplitDevice).
template <typename T, typename U>
bool SoftMaxWork(const char* api, SrcLoc loc, const AscendC::tiling::SoftMaxTiling& t,
                 const Dims& d, const AscendC::LocalTensor<T>& srcT,
                 const AscendC::LocalTensor<U>* sumT, const AscendC::LocalTensor<U>* maxT,
                 const AscendC::LocalTensor<uint8_t>& tmp, bool log = false, RowExps* pre = nullptr,
                 WorkAccFn wrapped = nullptr) {
  const bool stats = sumT != nullptr;
  const WorkLayout w = WorkLayoutOf<T, U>(t, stats);
  const bool k16 = t.reduceK == 16 && std::is_same_v<T, half> && w.statIn;
  // The config's statistics stride (pre's statDen) above the tiling's reduceK (statNum): half
  // data without statistics and the kernel's re-tile (reduceK 8), whose reductions write 16
  // floats a row into a block of reduceSize = 8 splitM floats (SpillsStats).
  const bool statMix = pre != nullptr && pre->statNum != pre->statDen;
  const bool spill = statMix && SpillsStats<T>(t, *pre, w);
  if (detail::rep::RunningArch() != NpuArch::k2201 || (t.reduceK != 8 && !k16) || t.splitM == 0 ||
      (statMix && !spill) || tmp.View().ptr == nullptr || d.k == 0 || d.oriK == 0 || d.oriK > d.k ||
      t.splitK != d.k || t.srcK != d.k || t.splitSize != uint64_t{t.splitM} * d.k) {
    return false;
  }
  CheckShape<T>(api, d);  // the refusals come first, as in SoftMaxRows
  const uint32_t dstK = spill ? pre->statDen : t.reduceK;  // the reductions' floats a row
  if (!WorkFits(t, d, w.tmpAt + WorkTmpFloats(t.splitM, d.oriK, dstK), srcT, sumT, maxT, tmp)) {
    return false;
  }
  RowExps own;
  RowExps& ex = pre != nullptr ? *pre : own;
  Dims all = WithSplits(d, t);
  all.m = t.rangeM == 0 ? t.splitM : t.rangeM * t.splitM + t.tailM;
  if (wrapped != nullptr && ex.redK == 0) {
    ex.Size(all);
  } else {
    wrapped = nullptr;
    ex.Compute(srcT.HostPtr(), all);
  }
  auto* work = reinterpret_cast<float*>(tmp.HostPtr());
  std::vector<float> statMax, statSum;
  WorkRows rows;
  ForEachSplit(t, [&](uint64_t o1, uint64_t o2, uint32_t m) {
    const auto row0 = static_cast<uint32_t>(o1 / d.k);
    float* maxAt = work + w.statAt;
    float* sumAt = work + w.statAt;
    if (!w.statIn) {  // copies of the float statistics tensors' blocks
      LoadRow(statMax, maxT->HostPtr() + o2, m * dstK);
      LoadRow(statSum, sumT->HostPtr() + o2, m * dstK);
      maxAt = statMax.data();
      sumAt = statSum.data();
    }
    float* acc = work + w.tmpAt;
    if (wrapped != nullptr) {
      LoadRow(rows.x, srcT.HostPtr() + o1, m * d.k);
      WorkSplitDevice(wrapped, rows.x, row0, m, d, dstK, ex, maxAt, sumAt, acc);
    }
    rows.Load(srcT.HostPtr() + o1, row0, m, ex, w.copy, log);
    const uint32_t rk = ex.redK == 0 ? d.k : ex.redK;  // the reductions' row stride
    if (wrapped == nullptr) {
      WorkPass(WorkOp::kMax, rows.x.data(), rk, m, d.oriK, dstK, ex.mx.data() + row0, maxAt, acc);
      WorkPass(WorkOp::kSum, ex.Row(row0), rk, m, d.oriK, dstK, ex.sm.data() + row0, sumAt, acc);
    }
    if (w.copy) std::copy(rows.q.begin(), rows.q.end(), work);
  });
  san::Instr rec(Pipe::kV, api, loc);
  if (rec) {
    const std::byte* base = tmp.View().ptr;
    if (w.copy) rec.Write(base, uint64_t{t.splitSize} * 4);
    if (w.statIn) rec.Write(base + w.statAt * 4, uint64_t{t.splitM} * dstK * 4);
    rec.Write(base + w.tmpAt * 4, WorkTmpFloats(t.splitM, d.oriK, dstK) * 4);
  }
  return true;
}

}  // namespace lngrad::aicore::softmax_detail
