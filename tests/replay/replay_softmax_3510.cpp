// lngrad_replay: the SoftMax family's 3510 register code (regbase/3510/softmax_impl.h,
// softmax_flashv2_impl.h, softmax_flash_impl.h, softmax_flashv3_impl.h, softmax_grad_impl.h,
// simple_softmax_impl.h, logsoftmax_impl.h), replayed from the source with a scalar model of
// the vector registers (replay_softmax_3510.h). Written apart from lngrad's implementation.
// SoftmaxFlash's second pass (the sum read back from sumUb) and SoftmaxFlashV3 (its phases, the
// tiling's srcM/srcK, any splitMeanCnt) are sfx4's reading (session 14), marked where they are.
#include "replay_softmax_3510.h"

#include "replay_softmax_3510_regs.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace lngrad_replay::r3510 {

using namespace reg;  // NOLINT(build/namespaces): the register model (replay_softmax_3510_regs.h)

namespace {

// Where a SoftMax-family kernel keeps the rows it works on. whole: the basic-block functions
// (SoftMaxGenericNDVFImpl, SoftmaxFlashNDImpl, SoftmaxFlashV2[M1]NDUpdateVFImpl), which run the
// same ceil(oriK / 64) registers as the WithTail ones but under pregFull: no UpdateMask, no Select.
template <class T>
struct Rows {
  uint32_t m, srcK, oriK;
  const T* src;
  bool whole = false;
  int64_t mem = -1;  // the elements of src in memory (-1: m * srcK); loads past them read 0
  int64_t Extent() const { return mem >= 0 ? mem : static_cast<int64_t>(m) * srcK; }
  // The mask of the next register of a row: UpdateMask(sreg) in the WithTail functions.
  P Cnt(uint32_t& sreg) const {
    const P p = UpdateMask(sreg);
    return whole ? kFull : p;
  }
  int64_t Avail(uint32_t i, uint32_t j) const {
    return Extent() - (static_cast<int64_t>(i) * srcK + j * kL);
  }
  V Chunk(uint32_t i, uint32_t j) const { return Load(src + i * srcK + j * kL, Avail(i, j)); }
  uint32_t Repeats() const { return (oriK + kL - 1) / kL; }
};

// SoftMaxGenericND[WithTail]VFImpl's max: the running Max, the last chunk Select-ed with -inf.
template <class T>
float RowMaxTail(const Rows<T>& x, uint32_t i) {
  uint32_t sreg = x.oriK;
  V mx = Splat(kNegInf);
  for (uint32_t j = 0; j + 1 < x.Repeats(); ++j) mx = Max(mx, x.Chunk(i, j), x.Cnt(sreg));
  const P cnt = x.Cnt(sreg);
  mx = Max(mx, Select(x.Chunk(i, x.Repeats() - 1), Splat(kNegInf), cnt), kFull);
  return Reduce(mx, kFull, true).v[0];
}

// Its exponentials and sum: every chunk's masked ExpSub stored through `put`, then added.
template <class T, class Put>
float RowExpSum(const Rows<T>& x, uint32_t i, float mx, Put put) {
  uint32_t sreg = x.oriK;
  V sum = Splat(0.0f);
  const V m = Splat(mx);
  for (uint32_t j = 0; j < x.Repeats(); ++j) {
    const P cnt = x.Cnt(sreg);
    const V e = Exp(Sub(x.Chunk(i, j), m, cnt), cnt);
    put(j, e, cnt);
    sum = Add(sum, e, kFull);
  }
  return Reduce(sum, kFull, false).v[0];
}

template <class S>
void PutStat(S* stats, uint32_t i, float v) {
  for (uint32_t l = 0; l < kStat<S>; ++l) stats[i * kStat<S> + l] = FromFloat<S>(v);
}
// perRow (SOFTMAX_OUTPUT_WITHOUT_BRC, outputBrc false): StoreIfNeedCastM1 of lane 0 at stats + i,
// or the StoreUnAlign of the block paths (one value per row); else the [rows, 32 B] block.
template <class S>
void PutStat(S* stats, uint32_t i, float v, bool perRow) {
  if (perRow) {
    stats[i] = FromFloat<S>(v);
  } else {
    PutStat(stats, i, v);
  }
}

// The per-row statistics of one SoftMax kernel call and its work buffer (floats).
struct RowStats {
  std::vector<float> max, sum, work;
};

// SoftMaxGenericND[WithTail]VFImpl and SingleSoftMaxGenericNDVFImpl (oriK <= 64: one masked
// register, the same lanes and trees) — phase 1.
template <class T>
RowStats GenericPhase1(const Rows<T>& x, T* flashDst) {
  RowStats st{std::vector<float>(x.m), std::vector<float>(x.m),
              std::vector<float>(uint64_t{x.m} * x.srcK + kL)};
  for (uint32_t i = 0; i < x.m; ++i) {
    st.max[i] = RowMaxTail(x, i);
    st.sum[i] = RowExpSum(x, i, st.max[i], [&](uint32_t j, const V& e, P cnt) {
      if (flashDst != nullptr) {
        Store(flashDst + i * x.srcK + j * kL, e, cnt, x.Avail(i, j));
      } else {
        Store(st.work.data() + i * x.srcK + j * kL, e, cnt, kL);
      }
    });
  }
  return st;
}

// The rows the srcK = 8 and 16 paths run: factor = ceil(m / factorRow) registers of factorRow =
// 64 / srcK rows each.
template <class T>
uint32_t RegisterRows(const Rows<T>& x) {
  const uint32_t factorRow = kL / x.srcK;
  return (x.m + factorRow - 1) / factorRow * factorRow;
}

// The srcK = 8 (float) and srcK = 16 paths (SingleSoftMaxGenericNDForBlkVFImpl,
// ...AlignedWithBlkVFImpl), row by row over every row of their registers (RegisterRows, past m in
// the last one): ReduceMax/SumWithDataBlock over the pregCnt lanes (column < oriK) of each 8-lane
// block, the two blocks of a 16-column row combined after DeInterleave (Max, Add); Sub and Exp
// on every column, the exponentials stored whole.
template <class T>
RowStats BlockPhase1(const Rows<T>& x) {
  const uint32_t rows = RegisterRows(x);
  RowStats st{std::vector<float>(rows), std::vector<float>(rows),
              std::vector<float>(uint64_t{rows} * x.srcK + kL)};
  const uint32_t blocks = x.srcK / 8;
  const P cnt = x.oriK >= 8 * blocks ? First(8 * blocks) : First(x.oriK);
  for (uint32_t i = 0; i < rows; ++i) {
    const V row = Load(x.src + i * x.srcK, x.Extent() - int64_t{i} * x.srcK);
    const V bm = ReduceBlocks(row, cnt, true);
    st.max[i] = blocks == 1 ? bm.v[0] : MaxOf(bm.v[0], bm.v[1]);
    const V e = Exp(Sub(row, Splat(st.max[i]), First(x.srcK)), First(x.srcK));
    const V bs = ReduceBlocks(e, cnt, false);
    st.sum[i] = blocks == 1 ? bs.v[0] : bs.v[0] + bs.v[1];
    Store(st.work.data() + i * x.srcK, e, First(x.srcK), kL);
  }
  return st;
}

template <class T>
bool BlockPath(const Rows<T>& x) {
  return (x.srcK == 8 && std::is_same_v<T, float>) || x.srcK == 16;
}

// Phase 2: dst = work / sum (then Log10) on the first oriK columns; row i's sum is sumOf(i),
// taken when the row starts (after the rows before it are stored).
template <class T, class SumOf>
void DivRows(const Rows<T>& x, const std::vector<float>& work, SumOf sumOf, T* dst, bool log) {
  for (uint32_t i = 0; i < x.m; ++i) {
    uint32_t sreg = x.oriK;
    const float s = sumOf(i);
    for (uint32_t j = 0; j < x.Repeats(); ++j) {
      const P cnt = x.Cnt(sreg);
      const V w = Load(work.data() + i * x.srcK + j * kL, kL);
      V d = Div(w, Splat(s), cnt);
      if (log) d = Log10(d, cnt);
      Store(dst + i * x.srcK + j * kL, d, cnt, x.Avail(i, j));
    }
  }
}
template <class T>
void DivPhase(const Rows<T>& x, const RowStats& st, T* dst, bool log) {
  DivRows(
      x, st.work, [&](uint32_t i) { return st.sum[i]; }, dst, log);
}

}  // namespace

template <class T, class S>
void SoftMax(uint32_t m, uint32_t srcK, uint32_t oriK, const T* src, T* dst, S* sum, S* max,
             bool basic, bool log, bool flashV2, bool perRow, uint32_t memRows) {
  const Rows<T> x{m, srcK, oriK, src, basic, int64_t{memRows > m ? memRows : m} * srcK};
  RowStats st;
  // outputBrc false on the block paths: each register's factorRow statistics stored whole
  // (StoreAlign of 8 at maxUb + i * factorRow, StoreUnAlign of factorRow), past m in the last one.
  uint32_t statRows = m;
  if (!basic && BlockPath(x)) {
    if (perRow) statRows = RegisterRows(x);
    st = BlockPhase1(x);
    if (flashV2) {
      for (uint32_t i = 0; i < m; ++i) {
        const V w = Load(st.work.data() + i * srcK, srcK);
        Store(dst + i * srcK, w, First(oriK), srcK);
      }
    }
  } else {
    st = GenericPhase1(x, flashV2 ? dst : nullptr);
  }
  for (uint32_t i = 0; i < statRows; ++i) PutStat(max, i, st.max[i], perRow);
  for (uint32_t i = 0; i < statRows; ++i) PutStat(sum, i, st.sum[i], perRow);
  if (!flashV2) DivPhase(x, st, dst, log);
}

template <class T>
void SoftMaxNoStats(uint32_t m, uint32_t srcK, uint32_t oriK, T* src, T* dst, bool reuse,
                    bool basic, uint32_t memRows) {
  const Rows<T> x{m, srcK, oriK, src, basic, int64_t{memRows > m ? memRows : m} * srcK};
  const bool block = !basic && BlockPath(x);
  RowStats st = block ? BlockPhase1(x) : GenericPhase1<T>(x, nullptr);
  if constexpr (std::is_same_v<T, float>) {
    if (reuse) {  // src is the work buffer: what its stores under cnt (or whole registers) wrote
      const uint32_t cols = block ? srcK : (basic ? x.Repeats() * kL : oriK);
      const uint32_t rows = block ? RegisterRows(x) : m;  // the block paths' last register whole
      for (uint32_t i = 0; i < rows; ++i) {
        std::memcpy(src + i * srcK, &st.work[i * srcK], cols * 4);
      }
    }
  }
  DivPhase(x, st, dst, false);
}

template <class T>
void SoftmaxGrad(uint32_t m, uint32_t srcK, uint32_t oriK, const T* grad, const T* src, T* dst,
                 bool isFront) {
  const Rows<T> g{m, srcK, oriK, grad}, y{m, srcK, oriK, src};
  const uint32_t reps = (srcK + kL - 1) / kL;
  for (uint32_t i = 0; i < m; ++i) {
    uint32_t sreg = oriK;
    V sum = Splat(0.0f);
    for (uint32_t j = 0; j < reps; ++j) {
      sum = Add(sum, Mul(g.Chunk(i, j), y.Chunk(i, j), UpdateMask(sreg)), kFull);
    }
    const float s = Reduce(sum, kFull, false).v[0];
    if (isFront) {
      PutStat(dst, i, s);
      continue;
    }
    sreg = oriK;
    for (uint32_t j = 0; j < reps; ++j) {
      const P cnt = UpdateMask(sreg);
      const V t = Mul(y.Chunk(i, j), Sub(g.Chunk(i, j), Splat(s), cnt), cnt);
      Store(dst + i * srcK + j * kL, t, cnt, g.Avail(i, j));
    }
  }
}

namespace {

// The update forms' statistics step, lane by lane over the row's ls lanes (kStat<S>, or 1 for
// the M1 functions of SOFTMAX_OUTPUT_WITHOUT_BRC: LoadIfNeedCastM1 under pregOnePt): max =
// Max(rowmax, inMax), expMax = ExpSub(inMax, max). inMax is read after the M1 outReduceMax
// store and before the row's max store; inExpSum later, after the row's max, expMax and
// exponentials are stored (each function reads it just before its Mul / MulAddDst).
template <class S>
struct UpdateLanes {
  V inMax, max, expMax;
};
template <class T, class S>
UpdateLanes<S> LoadUpdate(const NzFlashV2Io<T, S>& io, uint32_t i, float rowMax, uint32_t ls) {
  const P blk = First(ls);
  UpdateLanes<S> u;
  u.inMax = Load(io.inMax + i * ls, ls);
  u.max = Max(Brc(Splat(rowMax), blk), u.inMax, blk);
  u.expMax = ExpSub(u.inMax, u.max, blk);
  return u;
}
// expMax of T: half data with float statistics Interleave(v, v) to 16 lanes (lane l: l / 2);
// perRow: StoreIfNeedCastM1<T1> of lane 0 at expMax + i.
template <class T, class S>
void StoreExpMax(T* expMax, uint32_t i, const V& v, bool perRow = false) {
  if (perRow) {
    Store(expMax + i, v, First(1), 1);
  } else if constexpr (sizeof(T) == 2 && sizeof(S) == 4) {
    V w;
    for (uint32_t l = 0; l < 16; ++l) w.v[l] = v.v[l / 2];
    Store(expMax + i * 16, w, First(16), 16);
  } else {
    Store(expMax + i * kStat<S>, v, First(kStat<S>), kStat<S>);
  }
}

}  // namespace

template <class T, class S>
void SoftmaxFlashUpdate(uint32_t m, uint32_t srcK, uint32_t oriK, const NzFlashV2Io<T, S>& io,
                        bool v1, const FlashUpdateMode<S>& mode) {
  const Rows<T> x{m, srcK, oriK, io.src, mode.basic};
  const uint32_t ls = mode.perRow ? 1 : kStat<S>;
  const P blk = First(ls);
  std::vector<float> work(uint64_t{m} * srcK + kL), sum0(m);
  for (uint32_t i = 0; i < m; ++i) {
    const float rowMax = RowMaxTail(x, i);
    if (mode.reduceMax != nullptr) mode.reduceMax[i] = FromFloat<S>(rowMax);
    const UpdateLanes<S> u = LoadUpdate(io, i, rowMax, ls);
    Store(io.max + i * ls, u.max, blk, ls);
    if (!v1) StoreExpMax<T, S>(io.expMax, i, u.expMax, mode.perRow);
    const float s = RowExpSum(x, i, u.max.v[0], [&](uint32_t j, const V& e, P cnt) {
      if (v1) {
        Store(work.data() + i * srcK + j * kL, e, cnt, kL);
      } else {
        Store(io.dst + i * srcK + j * kL, e, cnt, x.Avail(i, j));
      }
    });
    V sum = Brc(Splat(s), blk);
    const V inSum = Load(io.inExpSum + i * ls, ls);
    if (v1) {  // MulAddDst, then expMax = expMax * inSum / sum
      for (uint32_t l = 0; l < kStat<S>; ++l) {
        sum.v[l] = std::fma(u.expMax.v[l], inSum.v[l], sum.v[l]);
      }
      StoreExpMax<T, S>(io.expMax, i, Div(Mul(u.expMax, inSum, blk), sum, blk));
    } else {
      sum = Add(sum, Mul(u.expMax, inSum, blk), blk);
    }
    Store(io.expSum + i * ls, sum, blk, ls);
    sum0[i] = sum.v[0];
  }
  // SoftmaxFlashND[WithTail]Impl's second loop (sfx4's reading, below): after every row's
  // statistics, row by row, the sum loaded (float statistics: LoadAlign from sumUb, so what the
  // rows stored before it left there; half: the float copy in the work buffer, tmpUb), then
  // dst = work / sum stored. dst aliasing the statistics changes what later rows read.
  if (!v1) return;
  DivRows(
      x, work,
      [&](uint32_t i) { return sizeof(S) == 4 ? ToFloat(io.expSum[i * kStat<S>]) : sum0[i]; },
      io.dst, false);
}

template <class T, class S>
void SimpleSoftMax(uint32_t m, uint32_t srcK, const T* src, const S* inSum, const S* inMax, T* dst,
                   bool whole, uint32_t srcMem, uint32_t dstMem) {
  const int64_t rows = int64_t{m} * srcK;
  const int64_t srcEnd = srcMem != 0 ? srcMem : rows, dstEnd = dstMem != 0 ? dstMem : rows;
  const uint32_t reps = (srcK + kL - 1) / kL;
  for (uint32_t i = 0; i < m; ++i) {
    const V mx = Splat(ToFloat(inMax[i * kStat<S>])), sm = Splat(ToFloat(inSum[i * kStat<S>]));
    uint32_t sreg = srcK;
    for (uint32_t j = 0; j < reps; ++j) {
      const P cnt = whole ? kFull : UpdateMask(sreg);
      const int64_t at = int64_t{i} * srcK + int64_t{j} * kL;
      const V d = Div(Exp(Sub(Load(src + at, srcEnd - at), mx, cnt), cnt), sm, cnt);
      Store(dst + at, d, cnt, dstEnd - at);
    }
  }
}

bool SimpleSoftMaxWhole(bool isBasicBlock, uint32_t cfgOriSrcM, uint32_t cfgOriSrcK,
                        uint32_t srcK) {
  if (isBasicBlock) return true;
  if (cfgOriSrcM == 0 || cfgOriSrcK == 0) return srcK % kL == 0;
  return cfgOriSrcK % kL == 0;
}

// ---- SoftmaxFlashV3: sfx4's reading (session 14) of regbase/3510/softmax_flashv3_impl.h
// (SoftmaxFlashV3Process, SoftmaxFlashV3NDNoUpdateImpl, SoftmaxFlashV3NDUpdateImpl), written
// before opening lngrad's softmaxflashv3.h; a separate reading by the same helper who then
// changed lngrad, not a second person's. It replaces the earlier per-row replay of the same
// function. Process takes srcM and srcK from the tiling (not from the params) and only
// splitMeanCnt, loopCnt and alpha from the params. The kernel runs in phases over all rows, each
// a loop over srcM, with the work buffer (workUb: srcM * 64 floats, then newSrcUb: srcM * srcK)
// between them:
//  1. per row, chunks 0..7 (always 8: repeatTime = 64 lanes / 8 per block): the chunk's eight
//     block sums (ReduceSumWithDataBlock) stored at workUb + i * 64 + j * 8;
//  2. per row, that register plus the chunks from splitMeanCnt on (remainRepeatTime = srcK / 64 -
//     splitMeanCnt of them), lane by lane, stored back;
//  3. per row: its block sums times r0 = 1 / baseK (baseK = srcK / splitMeanCnt), G = their
//     8-lane tree times r1 = 1 / splitMeanCnt (lane 0), broadcast to 8 lanes (no update: stored
//     as mean; update: kept in tmpUb), shift_b = (G - L_b) * scalar stored at workUb + i * 8;
//  4. per row: (update) inMean read, mean = (inMean * r2 + G) * r3 stored; for each of the
//     splitMeanCnt segments j of baseK columns the shift at workUb[i * splitMeanCnt + j] (so for
//     counts other than 8 another row's, or phase 2's sums past srcM * 8), newSrc = x - shift
//     stored, the running max over the segment's registers (lane l takes column j * baseK + 64 k +
//     l; the last register's lanes past baseK Select-ed to -inf); ReduceMax. No update: max
//     stored. Update: cur = (G - mean) * scalar, prev = (inMean - mean) * scalar, max =
//     Max(inMax + prev, cur + rowmax) (inMax read after the mean store), stored; max - cur kept;
//     em = ExpSub(inMax + prev, max - cur); inExpSum read; expSum = em * inExpSum stored;
//     expMax = Interleave(em, em) stored (16 halves);
//  5. per row: m = max's lane 0 read back from maxUb (no update) or tmpUb (update); dst =
//     ExpSub(newSrc, m) over srcK / 64 whole registers, stored; the row sum; expSum = (expSum
//     read back +) sum stored.
namespace {

struct V3Consts {
  uint32_t m, srcK, smc, baseK, kRep, remain, baseKRep;
  float scalar, r0, r1, r2, r3;
};

// Phases 1-3: work (the first m * 64 floats of workUb) and G per row; mean (no update) stored.
void V3Means(const Half* src, const V3Consts& c, float* mean, std::vector<float>& work,
             std::vector<float>& g) {
  const int64_t srcEnd = int64_t{c.m} * c.srcK;
  const auto chunk = [&](uint32_t i, uint32_t j) {
    const int64_t at = int64_t{i} * c.srcK + int64_t{j} * kL;
    return Load(src + at, srcEnd - at);
  };
  const P blk = First(8);
  for (uint32_t i = 0; i < c.m; ++i) {
    for (uint32_t j = 0; j < 8; ++j) {
      Store(work.data() + i * kL + j * 8, ReduceBlocks(chunk(i, j), kFull, false), blk, 8);
    }
  }
  for (uint32_t i = 0; i < c.m; ++i) {
    V acc = Load(work.data() + i * kL, kL);
    for (uint32_t j = 0; j < c.remain; ++j) acc = Add(chunk(i, c.smc + j), acc, kFull);
    Store(work.data() + i * kL, acc, kFull, kL);
  }
  for (uint32_t i = 0; i < c.m; ++i) {
    const V sums = ReduceBlocks(Load(work.data() + i * kL, kL), kFull, false);
    const V local = Mul(sums, Splat(c.r0), blk);
    V t = Reduce(local, blk, false);
    t = Mul(t, Splat(c.r1), First(1));
    t = Brc(t, blk);
    g[i] = t.v[0];
    if (mean != nullptr) Store(mean + i * 8, t, blk, 8);
    Store(work.data() + i * 8, Mul(Sub(t, local, blk), Splat(c.scalar), blk), blk, 8);
  }
}

// Phase 4's segments of row i: newSrc = x - shift, and the row max.
float V3Shift(const Half* src, const V3Consts& c, uint32_t i, const std::vector<float>& work,
              std::vector<float>& newSrc) {
  const int64_t srcEnd = int64_t{c.m} * c.srcK;
  V mx = Splat(kNegInf);
  for (uint32_t j = 0; j < c.smc; ++j) {
    const V sh = Splat(work[i * c.smc + j]);  // LoadAlign DIST_BRC_B32
    uint32_t sreg = c.baseK;
    for (uint32_t k = 0; k <= c.baseKRep; ++k) {
      const P cnt = UpdateMask(sreg);
      const uint32_t col = j * c.baseK + k * kL;
      const int64_t at = int64_t{i} * c.srcK + col;
      const V s = Sub(Select(Load(src + at, srcEnd - at), V{}, cnt), sh, cnt);
      // StoreUnAlign of 64 lanes, the last register's tail = baseK - 64 * baseKRep
      const uint32_t n = k < c.baseKRep ? kL : c.baseK - c.baseKRep * kL;
      for (uint32_t l = 0; l < n; ++l) newSrc[uint64_t{i} * c.srcK + col + l] = s.v[l];
      mx = Max(mx, k < c.baseKRep ? s : Select(s, Splat(kNegInf), cnt), kFull);
    }
  }
  return Reduce(mx, kFull, true).v[0];
}

// Phase 4's update statistics of row i; returns max - cur (tmpUb).
template <class RowMax>
float V3UpdateStats(const FlashV3Stats& io, Half* expMax, uint32_t i, const V3Consts& c, float g,
                    RowMax rowMax) {
  const P blk = First(8);
  const V inMean = Load(io.inMean + i * 8, 8), tg = Brc(Splat(g), blk);
  const V shift = Mul(Add(Mul(inMean, Splat(c.r2), blk), tg, blk), Splat(c.r3), blk);
  Store(io.mean + i * 8, shift, blk, 8);
  V mx = Brc(Splat(rowMax()), blk);
  const V cur = Mul(Sub(tg, shift, blk), Splat(c.scalar), blk);
  const V prev = Mul(Sub(inMean, shift, blk), Splat(c.scalar), blk);
  mx = Add(cur, mx, blk);
  const V pm = Add(Load(io.inMax + i * 8, 8), prev, blk);
  mx = Max(pm, mx, blk);
  Store(io.max + i * 8, mx, blk, 8);
  mx = Sub(mx, cur, blk);
  const V em = ExpSub(pm, mx, kFull);
  Store(io.expSum + i * 8, Mul(em, Load(io.inExpSum + i * 8, 8), blk), blk, 8);
  StoreExpMax<Half, float>(expMax, i, em);
  return mx.v[0];
}

}  // namespace

void SoftmaxFlashV3(uint32_t m, uint32_t srcK, uint32_t splitMeanCnt, uint32_t loopCnt, float alpha,
                    bool isUpdate, const Half* src, Half* dst, Half* expMax,
                    const FlashV3Stats& io) {
  V3Consts c{};
  c.m = m;
  c.srcK = srcK;
  c.smc = splitMeanCnt;
  c.baseK = srcK / splitMeanCnt;
  c.kRep = srcK / kL;
  c.remain = c.kRep - c.smc;
  c.baseKRep = (c.baseK + kL - 1) / kL - 1;
  c.scalar = alpha / (1 - alpha);
  c.r0 = 1.0f / static_cast<float>(c.baseK);
  c.r1 = 1.0f / static_cast<float>(c.smc);
  c.r2 = static_cast<float>(loopCnt) - 1.0f;
  c.r3 = 1.0f / static_cast<float>(loopCnt);
  std::vector<float> work(uint64_t{m} * kL), g(m), newSrc(uint64_t{m} * srcK + kL), tmp(m);
  V3Means(src, c, isUpdate ? nullptr : io.mean, work, g);
  for (uint32_t i = 0; i < m; ++i) {
    if (isUpdate) {
      // the mean is stored before the segments are read (the row max comes after it)
      tmp[i] =
          V3UpdateStats(io, expMax, i, c, g[i], [&] { return V3Shift(src, c, i, work, newSrc); });
    } else {
      PutStat(io.max, i, V3Shift(src, c, i, work, newSrc));
    }
  }
  const P blk = First(8);
  for (uint32_t i = 0; i < m; ++i) {
    const V mx = Splat(isUpdate ? tmp[i] : io.max[i * 8]);
    V sum = Splat(0.0f);
    for (uint32_t k = 0; k < c.kRep; ++k) {
      const V d = ExpSub(Load(newSrc.data() + uint64_t{i} * srcK + k * kL, kL), mx, kFull);
      Store(dst + uint64_t{i} * srcK + k * kL, d, kFull, kL);
      sum = Add(sum, d, kFull);
    }
    V s = Brc(Reduce(sum, kFull, false), blk);
    if (isUpdate) s = Add(Load(io.expSum + i * 8, 8), s, blk);
    Store(io.expSum + i * 8, s, blk, 8);
  }
}

template <class T, class S>
void SoftMaxNz(uint32_t srcM, uint32_t srcK, uint32_t oriM, uint32_t oriK, const T* src, T* dst,
               S* sum, S* max, bool log, bool flash) {
  const NzRegs<T> z{srcM, srcK, oriM, oriK, src};
  const P tail = z.TailMask();
  std::vector<float> rmax(z.MRepeats() * 4), rsum(z.MRepeats() * 4);
  std::vector<float> work(uint64_t{srcK / 16 + 1} * z.Block() + kL);
  for (uint32_t i = 0; i < z.MRepeats(); ++i) {
    V acc = Splat(kNegInf);
    for (uint32_t j = 0; j < z.Whole(); ++j) acc = Max(acc, z.Reg(i, j), kFull);
    if (z.HasTail()) acc = Max(acc, Select(z.Reg(i, z.Whole()), Splat(kNegInf), tail), kFull);
    Fold(ReduceBlocks(acc, kFull, true), i, rmax, MaxOf);
  }
  for (uint32_t i = 0; i < z.MRepeats(); ++i) {
    const V mx = RowsE2B(rmax, i);
    V acc = Splat(0.0f);
    for (uint32_t j = 0; j <= z.Whole(); ++j) {
      if (j == z.Whole() && !z.HasTail()) break;
      const P m = j == z.Whole() ? tail : kFull;
      const V e = Exp(Sub(z.Reg(i, j), mx, m), m);
      Store(work.data() + i * kL + j * z.Block(), e, m, kL);
      if (flash) {  // dst = the exponentials of rows below oriM
        const uint64_t at = uint64_t{i} * kL + uint64_t{j} * z.Block();
        const uint32_t rowsLeft = oriM * 16 > i * kL ? oriM * 16 - i * kL : 0;
        Store(dst + at, e, m & First(rowsLeft),
              int64_t{srcK / 16} * z.Block() - static_cast<int64_t>(at));
      }
      acc = Add(acc, e, kFull);
    }
    Fold(ReduceBlocks(acc, kFull, false), i, rsum, [](float a, float b) { return a + b; });
  }
  for (uint32_t r = 0; r < oriM && r < srcM / 8 * 8; ++r) {  // e2bRep = srcM / 8 stores
    PutStat(max, r, rmax[r]);
    PutStat(sum, r, rsum[r]);
  }
  for (uint32_t j = 0; j <= z.Whole() && !flash; ++j) {
    if (j == z.Whole() && !z.HasTail()) break;
    uint32_t sreg = oriM * 16;
    for (uint32_t i = 0; i < z.MRepeats(); ++i) {
      const P cnt = UpdateMask(sreg) & (j == z.Whole() ? tail : kFull);
      const uint64_t at = uint64_t{i} * kL + uint64_t{j} * z.Block();
      V d = Div(Load(work.data() + at, kL), RowsE2B(rsum, i), cnt);
      if (log) d = Log10(d, cnt);
      Store(dst + at, d, cnt, int64_t{srcK / 16} * z.Block() - static_cast<int64_t>(at));
    }
  }
}

template <class T>
void SoftmaxGradNz(uint32_t srcM, uint32_t srcK, uint32_t oriM, uint32_t oriK, const T* grad,
                   const T* src, T* dst, bool isFront) {
  const NzRegs<T> g{srcM, srcK, oriM, oriK, grad}, y{srcM, srcK, oriM, oriK, src};
  const P tail = g.TailMask();
  std::vector<float> rsum(g.MRepeats() * 4);
  for (uint32_t i = 0; i < g.MRepeats(); ++i) {
    V acc = Splat(0.0f);
    for (uint32_t j = 0; j < g.Whole(); ++j)
      acc = Add(acc, Mul(g.Reg(i, j), y.Reg(i, j), kFull), kFull);
    if (g.HasTail()) acc = Add(acc, Mul(g.Reg(i, g.Whole()), y.Reg(i, g.Whole()), tail), kFull);
    Fold(ReduceBlocks(acc, kFull, false), i, rsum, [](float a, float b) { return a + b; });
  }
  if (isFront) {  // cast to T, then E2B-stored for srcM / 8 groups of 8 rows, masked to oriM
    for (uint32_t r = 0; r < oriM && r < srcM / 8 * 8; ++r) PutStat(dst, r, rsum[r]);
    return;
  }
  for (uint32_t j = 0; j <= g.Whole(); ++j) {
    if (j == g.Whole() && !g.HasTail()) break;
    uint32_t sreg = oriM * 16;
    for (uint32_t i = 0; i < g.MRepeats(); ++i) {
      const P cnt = UpdateMask(sreg) & (j == g.Whole() ? tail : kFull);
      const V d = Mul(y.Reg(i, j), Sub(g.Reg(i, j), RowsE2B(rsum, i), cnt), cnt);
      const uint64_t at = uint64_t{i} * kL + uint64_t{j} * g.Block();
      Store(dst + at, d, cnt, int64_t{srcK / 16} * g.Block() - static_cast<int64_t>(at));
    }
  }
}

// SimpleSoftMaxNZImpl / SimpleSoftMaxGenericNZImpl (sfx4's reading, session 14): per fractal j,
// registers i < ceil(srcM * lanes / 64) of the statistics (64 elements at i * 64: rows 4i..4i+3
// of 16 halves, or rows 8i..8i+7 of 8 floats, the latter Interleave(v, v) into two registers:
// lane l from l / 2), each against the data register(s) of the same rows, under UpdateMask of
// oriM * 16 (reset per fractal): Sub, Exp, Div, stored; every column.
template <class T, class S>
void SimpleSoftMaxNz(uint32_t srcM, uint32_t srcK, uint32_t oriM, const T* src, const S* inSum,
                     const S* inMax, T* dst) {
  const uint32_t lanes = kStat<S> == 8 ? 8 : 16, block = srcM * 16;
  const uint32_t mRep = (srcM * lanes + kL - 1) / kL, statEnd = srcM * kStat<S>;
  const int64_t end = int64_t{srcK / 16} * block;
  for (uint32_t j = 0; j < srcK / 16; ++j) {
    uint32_t sreg = oriM * 16;
    for (uint32_t i = 0; i < mRep; ++i) {
      const V mx = Load(inMax + i * kL, int64_t{statEnd} - i * kL);
      const V sm = Load(inSum + i * kL, int64_t{statEnd} - i * kL);
      const uint32_t parts = lanes == 8 ? 2 : 1;
      for (uint32_t h = 0; h < parts; ++h) {
        V m, s;
        for (uint32_t l = 0; l < kL; ++l) {
          const uint32_t q = parts == 2 ? h * 32 + l / 2 : l;
          m.v[l] = mx.v[q];
          s.v[l] = sm.v[q];
        }
        const P cnt = UpdateMask(sreg);
        const int64_t at = int64_t{parts * i + h} * kL + int64_t{j} * block;
        const V d = Div(Exp(Sub(Load(src + at, end - at), m, cnt), cnt), s, cnt);
        Store(dst + at, d, cnt, end - at);
      }
    }
  }
}

#define LNGRAD_R3510_PAIRS(X) X(float, float) X(Half, Half) X(Half, float)
#define LNGRAD_R3510_INST(T, S)                                                                   \
  template void SoftMax<T, S>(uint32_t, uint32_t, uint32_t, const T*, T*, S*, S*, bool, bool,     \
                              bool, bool, uint32_t);                                              \
  template void SoftmaxFlashUpdate<T, S>(uint32_t, uint32_t, uint32_t, const NzFlashV2Io<T, S>&,  \
                                         bool, const FlashUpdateMode<S>&);                        \
  template void SimpleSoftMax<T, S>(uint32_t, uint32_t, const T*, const S*, const S*, T*, bool,   \
                                    uint32_t, uint32_t);                                          \
  template void SoftMaxNz<T, S>(uint32_t, uint32_t, uint32_t, uint32_t, const T*, T*, S*, S*,     \
                                bool, bool);                                                      \
  template void SimpleSoftMaxNz<T, S>(uint32_t, uint32_t, uint32_t, const T*, const S*, const S*, \
                                      T*);
LNGRAD_R3510_PAIRS(LNGRAD_R3510_INST)
#undef LNGRAD_R3510_INST
#undef LNGRAD_R3510_PAIRS
template void SoftMaxNoStats<float>(uint32_t, uint32_t, uint32_t, float*, float*, bool, bool,
                                    uint32_t);
template void SoftMaxNoStats<Half>(uint32_t, uint32_t, uint32_t, Half*, Half*, bool, bool,
                                   uint32_t);
template void SoftmaxGrad<float>(uint32_t, uint32_t, uint32_t, const float*, const float*, float*,
                                 bool);
template void SoftmaxGradNz<float>(uint32_t, uint32_t, uint32_t, uint32_t, const float*,
                                   const float*, float*, bool);
template void SoftmaxGradNz<Half>(uint32_t, uint32_t, uint32_t, uint32_t, const Half*, const Half*,
                                  Half*, bool);
template void SoftmaxGrad<Half>(uint32_t, uint32_t, uint32_t, const Half*, const Half*, Half*,
                                bool);

}  // namespace lngrad_replay::r3510
