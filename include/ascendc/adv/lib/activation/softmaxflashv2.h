// lngrad: SoftmaxFlashV2 — the toolkit's adv_api/activation/softmaxflashv2.h (the forms with
// expSum/max outputs; T = half or float, or half data with float statistics). Algorithm of
// membase/common/softmax_flashv2_impl/softmax_flashv2_{no_update,update}_impl.h, in float:
//  - isUpdate = false: max = rowmax(x), dst = exp(x - max), expSum = rowsum(dst);
//  - isUpdate = true: max = Max(inMax, rowmax(x)), expMax = exp(inMax - max),
//    dst = exp(x - max), expSum = expMax * inExpSum + rowsum(dst) (Mul, then Add), each
//    statistic lane by lane (column c uses lane ColumnLane(c) of max; half data with float
//    statistics: expMax's 16 halves from the 8 float lanes, ExpMaxLane; 2002 generic: lane 0).
// On 2201/2002 each row's statistics are read before any is written, so the outputs may alias
// the inputs (as the device's per-split order allows); on 3510 the update goes through memory in
// the register code's order (outReduceMax, inMax read, max, expMax, dst, inExpSum read, expSum),
// so aliased operands give the device's values there. isBasicBlock on 2201/2002 (srcK a multiple of
// 64): FlashV2Basic (the tiling's full splits only, max and the sums of
// softmax_flashv2_block_reduce_impl.h's BasicBlockReduceSumImpl over every srcK column). On 3510
// (regbase/3510/softmax_flashv2_impl.h): RegRowSum for every row, the register Max, the first
// oriSrcK columns of dst (isBasicBlock: ceil(oriSrcK / 64) * 64, RegBasicDims), half expMax from
// float lanes l / 2; in SOFTMAX_OUTPUT_WITHOUT_BRC mode without update the srcK = 8 and 16 paths
// store statistics up to the last register's end (M1StatRows). On 2002 the generic loop's
// and the config path's splits whose NewReduce{Max,Sum}LastNDImpl operands wrap are refused in
// checked mode (softmax_v200_work.h CheckFlashV2V200Defect, CheckConfigDefect: 2201's config
// path too); unchecked, they give the device's outputs (FlashV2DeviceV200), which writes every
// split's work buffer (FlashV2WorkV200); so do 2201's generic loop's (FlashV2WorkV220).
#pragma once

#include "lib/activation/softmax.h"
#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax_flash_scratch.h"
#include "lib/activation/softmax_flashv2_nobrc_device.h"
#include "lib/activation/softmax_flashv2_nobrc_work.h"
#include "lib/activation/softmax_flashv2_paths.h"
#include "lib/activation/softmax_flashv2_v200_work.h"
#include "lib/activation/softmax_flashv2_v220_device.h"

namespace lngrad::aicore::softmax_detail {

template <typename T, typename U, typename E>
struct FlashV2Args {
  const AscendC::LocalTensor<T>& dst;
  const AscendC::LocalTensor<U>& expSum;
  const AscendC::LocalTensor<U>& max;
  const AscendC::LocalTensor<T>& src;
  const AscendC::LocalTensor<E>& expMax;
  const AscendC::LocalTensor<U>& inExpSum;
  const AscendC::LocalTensor<U>& inMax;
  // SOFTMAX_OUTPUT_WITHOUT_BRC: one statistic per row; outReduceMax (optional) gets the row max.
  bool perRow = false;
  const AscendC::LocalTensor<U>* outReduceMax = nullptr;
};

// One row's statistics, lane by lane (the update's Max, Sub, Exp, Mul and Add run over every
// lane of the [rows, 32 B] statistics; column c of the row subtracts lane ColumnLane(c) of the new
// max).
template <typename U>
struct FlashLanes {
  uint32_t lanes;
  std::vector<float> max = std::vector<float>(lanes), expMax = std::vector<float>(lanes),
                     inSum = std::vector<float>(lanes);
  void Fill(float rowMax) {
    for (float& v : max) v = rowMax;
  }
  // max_j = Max(inMax_j, rowMax), expMax_j = exp(inMax_j - max_j); adds0: inMax_j + 0 (2002).
  void LoadMax(const U* inMax, float rowMax, bool adds0 = false) {
    for (uint32_t j = 0; j < lanes; ++j) {
      const float im = adds0 ? Widen(inMax[j]) + 0.0f : Widen(inMax[j]);
      max[j] = RegBase() ? RegMax(rowMax, im) : (im > rowMax ? im : rowMax);
      expMax[j] = ExpOf(im - max[j]);
    }
  }
  void LoadSum(const U* inExpSum) {
    for (uint32_t j = 0; j < lanes; ++j) inSum[j] = Widen(inExpSum[j]);
  }
};

// BasicBlockReduceSumImpl of softmax_flashv2_block_reduce_impl.h for a row of k values (k a
// multiple of 64): k = 512 and 1024 (SpecialBasicBlockAddImpl) the tree of the 64-lane chunk
// trees (for 1024 chunk l + chunk l + 8 first); k > 512 BigBlockReduceSum's start (RowSum's
// generic order); otherwise BasicBlockAddImpl (RowSum's basic order).
inline float FlashV2BasicSum(const float* x, uint32_t k) {
  if (k == 512 || k == 1024) {
    float chunk[16], lanes[8];
    for (uint32_t c = 0; c < k / kLanes; ++c) chunk[c] = ScalarTree64(x + c * kLanes, kLanes);
    for (uint32_t l = 0; l < 8; ++l) lanes[l] = k == 512 ? chunk[l] : chunk[l] + chunk[l + 8];
    return Tree8(lanes);
  }
  return RowSum(x, k, k < 512);
}

// The rows isBasicBlock computes with the basic-block sums: the tiling's rangeM full splits (t:
// the tiling the kernel runs, its re-tile included; all rows for a tiling of another shape run
// unchanged, config.isCheckTiling false, which lngrad does not model).
inline uint64_t BasicRows(bool basic, const AscendC::tiling::SoftMaxTiling& t, const Dims& d) {
  if (!basic) return 0;
  return t.srcM == d.m && t.srcK == d.k ? uint64_t{t.rangeM} * t.splitM : d.m;
}

// SoftmaxFlashV2's constant-shape config in the broadcast mode (softmax_flashv2_common_impl.h of
// membase/common: 2201 and 2002; the M1 mode and 3510 ignore it): the shape test (CfgShape::Basic)
// takes the basic-block path whatever isBasicBlock; otherwise the generic path reduces the first
// config.oriSrcK columns (d.oriK) with a ReduceLastND whose row stride is splitK (config.oriSrcK
// rounded up to 8) and which writes dstK = 32 bytes of U per row. splitK equal to srcK: the
// generic rows; below srcK: FlashV2ConfigSplits (unchecked; checked mode names it, as SoftMax's
// config path). Refused in any mode as not modelled: a tiling reduceK other than dstK (the Sub
// reads the statistics at the tiling's stride, past the rows the reductions wrote), splitK above
// srcK (the reductions read past the split: float scratch for half data), and with splitK below
// srcK a tiling the kernel runs unchanged for another shape (config.isCheckTiling false) or whose
// splits do not cover srcM. t: the tiling the kernel runs (FlashV2KernelTiling).
enum class CfgPath { kGeneric, kBasic, kSplits };

template <typename U>
CfgPath FlashV2Config(const CfgShape& cfg, bool isBasicBlock,
                      const AscendC::tiling::SoftMaxTiling& t, Dims& d) {
  const NpuArch arch = detail::rep::RunningArch();
  const CfgPath asked = isBasicBlock ? CfgPath::kBasic : CfgPath::kGeneric;
  if (arch != NpuArch::k2201 && arch != NpuArch::k2002) return asked;
  const char* api = "SoftmaxFlashV2";
  if (cfg.Basic()) {
    if (!isBasicBlock) RefuseBasicK(api, d);
    return CfgPath::kBasic;
  }
  const bool same = t.srcM == d.m && t.srcK == d.k;
  const CfgRun run{cfg, Lanes<U>(), same ? t.reduceK : Lanes<U>()};
  if (run.reduceK != run.statK) {
    RefuseCfg(api, run,
              "writes " + std::to_string(run.statK) +
                  " statistics per row, the tiling's reduceK is " + std::to_string(run.reduceK) +
                  ": not modelled");
  }
  if (cfg.SplitK() > d.k) {
    RefuseCfg(api, run, "reduces rows past srcK = " + std::to_string(d.k) + ": not modelled");
  }
  d.oriK = cfg.k;
  if (cfg.SplitK() == d.k) return CfgPath::kGeneric;
  if (CheckedMode()) RefuseCfgRowMix(api, run, d.k);
  const uint64_t splitRows = uint64_t{t.rangeM} * t.splitM + t.tailM;
  if (!same || t.rangeM == 0 || splitRows != d.m) {
    RefuseCfg(api, run,
              "with a tiling the kernel runs for another shape (config.isCheckTiling false) or "
              "whose splits do not cover srcM: not modelled");
  }
  return CfgPath::kSplits;
}

// The membase basic-block path (isBasicBlock with srcK a multiple of 64, 2201/2002):
// softmax_flashv2_basic_block_impl.h in the broadcast mode, SoftmaxFlashV2M1NoUpdateBasicBlock and
// SoftmaxFlashV2M1BasicBlockImpl of membase/v220/softmax_flashv2_impl.h in the M1 mode. Where it
// differs from the generic path: only the tiling's rangeM full splits (no tail split); the row max
// and sum over every srcK column (oriSrcK is not read, so the padding columns take part, as the
// toolkit's docs warn); float data without update leaves x - max in src (its Sub writes there);
// the update leaves expMax * inExpSum in inExpSum where its Mul writes there: float statistics in
// the M1 mode, float data in the broadcast mode (the half forms multiply into scratch).
struct FlashV2Basic {
  bool on, update, inSumProduct;
  template <typename T>
  bool SrcKeepsShifted() const {
    return on && !update && std::is_same_v<T, float>;
  }
  bool InSumKeepsProduct() const { return on && update && inSumProduct; }
};

template <typename T, typename U>
FlashV2Basic FlashV2BasicOf(bool perRow, bool update, uint64_t basicRows, const Dims& d) {
  const bool on = basicRows != 0 && !RegBase() && d.k % kLanes == 0;
  return {on, update, perRow ? std::is_same_v<U, float> : std::is_same_v<T, float>};
}

// The statistics rows of 3510's srcK = 8 (float data) and 16 paths without update in
// SOFTMAX_OUTPUT_WITHOUT_BRC mode (SingleSoftMaxGenericNDForBlkVFImpl, ...AlignedWithBlkVFImpl
// with outputBrc false): each register's 64 / srcK row maxima and sums are stored whole (StoreAlign
// of 8, StoreUnAlign of 4), so the last register's rows past m get theirs too; elsewhere m.
template <typename T>
uint32_t M1StatRows(const Dims& d, bool perRow, bool update, bool basic) {
  const bool block = (d.k == 8 && std::is_same_v<T, float>) || d.k == 16;
  if (!perRow || update || basic || !RegBase() || !block) return d.m;
  const uint32_t perReg = kLanes / d.k;
  return (d.m + perReg - 1) / perReg * perReg;
}

// Those rows past m: max and sum of what src's memory holds there (dst is not written).
template <typename T, typename U>
void M1TailStats(const AscendC::LocalTensor<T>& src, U* expSum, U* max, const Dims& d,
                 uint32_t rows) {
  std::vector<float> x;
  for (uint32_t r = d.m; r < rows; ++r) {
    const float mx = TailRowExp(src, d, r, x);
    max[r] = Narrow<U>(mx);
    expSum[r] = Narrow<U>(RowSum(x.data(), d.oriK, false));
  }
}

// Row r's expMax (le entries of E, ExpMaxLane(l, ls, le, brc)), then (FlashV2StoreMax) its max.
template <typename T, typename U, typename E>
void FlashV2StoreExpMax(const FlashV2Args<T, U, E>& a, const FlashLanes<U>& f, uint32_t r,
                        uint32_t le, bool brc = false) {
  for (uint32_t l = 0; l < le; ++l) {
    a.expMax.HostPtr()[uint64_t{r} * le + l] = Narrow<E>(f.expMax[ExpMaxLane(l, f.lanes, le, brc)]);
  }
}
template <typename T, typename U, typename E>
void FlashV2StoreMax(const FlashV2Args<T, U, E>& a, const FlashLanes<U>& f, uint32_t r,
                     uint32_t le) {
  for (uint32_t j = 0; j < f.lanes; ++j) {
    a.max.HostPtr()[uint64_t{r} * f.lanes + j] = Narrow<U>(f.max[j]);
  }
  FlashV2StoreExpMax(a, f, r, le);
}

// The operand checks of the ND forms: the shape, dst/src [m, k], the statistics [m, 32 B] (one
// per row in the M1 mode), expMax and the inputs with update, outReduceMax [m].
template <typename T, typename U, typename E>
void CheckFlashV2Operands(bool update, const FlashV2Args<T, U, E>& a, const Dims& d) {
  const char* api = "SoftmaxFlashV2";
  CheckShape<T>(api, d);
  const uint32_t ls = a.perRow ? 1 : Lanes<U>(), le = a.perRow ? 1 : Lanes<E>();
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * ls, se = uint64_t{d.m} * le;
  namespace md = math_detail;
  CheckRows(api,
            {md::Op(a.dst, "dstTensor"), md::Op(a.src, "srcTensor"),
             md::Op(a.expSum, "expSumTensor"), md::Op(a.max, "maxTensor")},
            {n, n, s, s});
  if (update) {
    CheckRows(api,
              {md::Op(a.expMax, "expMaxTensor"), md::Op(a.inExpSum, "inExpSumTensor"),
               md::Op(a.inMax, "inMaxTensor")},
              {se, s, s});
  }
  if (a.outReduceMax != nullptr) CheckRows(api, {md::Op(*a.outReduceMax, "outReduceMax")}, {d.m});
}

// On 2002 the generic float update stores max with Adds(.., 0) (softmax_flashv2_update_impl.h;
// 2201 DataCopy): a -0 max is stored as +0.
template <typename T>
float StoredFlashMax(bool update, float v) {
  const bool adds =
      update && std::is_same_v<T, float> && detail::rep::RunningArch() == NpuArch::k2002;
  return adds ? v + 0.0f : v;
}

// What the work buffer keeps of row r (softmax_flash_scratch.h).
template <typename T, typename U>
void KeepFlashRow(FlashV2Scratch& sc, uint32_t r, float rmax, float sm, const FlashLanes<U>& f,
                  const std::vector<float>& x) {
  FlashRowKept* k = sc.Row(r);
  if (k == nullptr) return;
  k->rowMax = rmax;
  k->sum = sm;
  for (uint32_t j = 0; j < f.lanes && j < 16; ++j) {
    k->max[j] = f.max[j];
    k->expMax[j] = f.expMax[j];
    k->inSum[j] = f.inSum[j];
  }
  if (!std::is_same_v<T, float>) k->e = x;
  sc.Accumulate(r, x.data());
}

template <typename T, typename U, typename E>
void FlashV2Rows(bool update, uint64_t basicRows, const FlashV2Args<T, U, E>& a, const Dims& d,
                 const AscendC::LocalTensor<uint8_t>* tmp, SrcLoc loc,
                 FlashV2Scratch* sc = nullptr) {
  const char* api = "SoftmaxFlashV2";
  CheckFlashV2Operands(update, a, d);
  const uint32_t ls = a.perRow ? 1 : Lanes<U>(), le = a.perRow ? 1 : Lanes<E>();
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * ls;
  namespace md = math_detail;
  const uint32_t statRows = M1StatRows<T>(d, a.perRow, update, basicRows != 0);
  if (statRows > d.m) {  // past the tensors: the device's overrun, named in checked mode
    const std::string why = std::string(api) + " (the srcK = " + std::to_string(d.k) +
                            " path stores its last register's statistics, rows to " +
                            std::to_string(statRows) + ")";
    CheckRows(why.c_str(), {md::Op(a.expSum, "expSumTensor"), md::Op(a.max, "maxTensor")},
              {statRows, statRows});
    // The register loads read those rows of src (past srcTensor: harmless, but inside the UB).
    const detail::TensorView sv = a.src.View();
    detail::RequireInsideUb(sv, sv.ptr - sv.ub, uint64_t{statRows} * d.k * sizeof(T), why.c_str());
    RecordCall(api, loc,
               {Rd(a.src, uint64_t{statRows} * d.k), Wr(a.expSum, statRows), Wr(a.max, statRows)});
  }
  if (tmp != nullptr) CheckTmp(api, *tmp, (uint64_t{Lanes<U>()} + kLanes) * 4);
  if (sc != nullptr) sc->Begin(a.expSum.HostPtr());
  const FlashV2Basic bb = FlashV2BasicOf<T, U>(a.perRow, update, basicRows, d);
  const uint64_t rows = bb.on ? basicRows : d.m, rn = rows * d.k, rs = rows * ls;
  if (update) {
    RecordCall(api, loc,
               {Rd(a.src, n), Rd(a.inExpSum, s), Rd(a.inMax, s), Wr(a.dst, rn), Wr(a.expSum, rs),
                Wr(a.max, rs), Wr(a.expMax, rows * le)});
  } else {
    RecordCall(api, loc, {Rd(a.src, n), Wr(a.dst, rn), Wr(a.expSum, rs), Wr(a.max, rs)});
  }
  if (bb.SrcKeepsShifted<T>()) RecordCall(api, loc, {Wr(a.src, rn)});
  if (bb.InSumKeepsProduct()) RecordCall(api, loc, {Wr(a.inExpSum, rs)});
  // Only the update forms take outReduceMax (membase/v220 and regbase/3510 alike).
  const bool reduceMaxOut = a.outReduceMax != nullptr && update;
  if (reduceMaxOut) RecordCall(api, loc, {Wr(*a.outReduceMax, rows)});
  std::vector<float> x;
  FlashLanes<U> f{ls};
  const uint32_t cols = StoredColumns(d);
  // The 3510 update (SoftmaxFlashV2[M1]ND[WithTail]UpdateVFImpl) goes through memory in the
  // register code's order, so outputs that alias inputs give the device's values: src read for
  // the max, outReduceMax stored, then inMax read, max and expMax stored, src read again for the
  // row's dst, then inExpSum read and expSum stored.
  // The membase order reads both inputs first and stores the statistics after dst.
  const bool regOrder = update && RegBase();
  for (uint32_t r = 0; r < rows; ++r) {
    LoadRow(x, a.src.HostPtr() + uint64_t{r} * d.k, cols);
    const float rmax = FlashRowMax(x.data(), bb.on ? d.k : d.oriK, d, r, !bb.on, bb.on);
    if (regOrder && reduceMaxOut) PutStat(a.outReduceMax->HostPtr(), r, rmax, 1);
    if (update) {
      f.LoadMax(a.inMax.HostPtr() + uint64_t{r} * ls, rmax, BasicInMaxAdds<U>(bb.on));
      if (!regOrder) f.LoadSum(a.inExpSum.HostPtr() + uint64_t{r} * ls);
    } else {
      f.Fill(rmax);
    }
    if (regOrder) {  // the register code reads src again after those stores
      FlashV2StoreMax(a, f, r, le);
      LoadRow(x, a.src.HostPtr() + uint64_t{r} * d.k, cols);
    }
    for (uint32_t c = 0; c < cols; ++c) x[c] = x[c] - f.max[ColumnLane(c) % ls];
    if (bb.SrcKeepsShifted<T>()) StoreRow(a.src.HostPtr() + uint64_t{r} * d.k, x);
    ExpInPlace(x);
    StoreRow(a.dst.HostPtr() + uint64_t{r} * d.k, x);
    const float sm = bb.on ? FlashV2BasicSum(x.data(), d.k) : RowSum(x.data(), d.oriK, false);
    if (sc != nullptr) KeepFlashRow<T>(*sc, r, rmax, sm, f, x);
    if (regOrder) f.LoadSum(a.inExpSum.HostPtr() + uint64_t{r} * ls);
    for (uint32_t j = 0; j < ls; ++j) {
      const float prod = f.expMax[j] * f.inSum[j], s = update ? prod + sm : sm;
      if (bb.InSumKeepsProduct()) a.inExpSum.HostPtr()[uint64_t{r} * ls + j] = Narrow<U>(prod);
      if (!regOrder) {
        a.max.HostPtr()[uint64_t{r} * ls + j] =
            Narrow<U>(bb.on ? f.max[j] : StoredFlashMax<T>(update, f.max[j]));
      }
      a.expSum.HostPtr()[uint64_t{r} * ls + j] = Narrow<U>(s);
    }
    if (update && !regOrder) FlashV2StoreExpMax(a, f, r, le, !bb.on);
    if (reduceMaxOut && !regOrder) PutStat(a.outReduceMax->HostPtr(), r, rmax, 1);
  }
  M1TailStats(a.src, a.expSum.HostPtr(), a.max.HostPtr(), d, statRows);
}

// The config path with splitK below srcK, unchecked (SoftmaxFlashV2NoUpdateExtImpl /
// SoftmaxFlashV2NDExtImpl with the config's ReduceLastND), split by split of the tiling t: row i's
// max and sum from the first config.oriSrcK float values at i * splitK of the split (rows after
// the first take other rows' values; the max in NewReduceMaxLastNDImpl's order for the split's
// rows, NdRowMax), the Sub at row i's own srcK columns (lane ColumnLane(c) of
// its statistics), the update's lane steps and stores as FlashV2Rows (inputs read per split
// before the outputs are written).
template <typename T, typename U, typename E>
void FlashV2ConfigSplits(bool update, const FlashV2Args<T, U, E>& a, const CfgShape& cfg,
                         const Dims& d, const AscendC::tiling::SoftMaxTiling& t,
                         const AscendC::LocalTensor<uint8_t>* tmp, SrcLoc loc,
                         FlashV2Scratch* sc = nullptr) {  // sc: the buffer's rows (paths.h)
  const char* api = "SoftmaxFlashV2";
  CheckFlashV2Operands(update, a, d);
  if (tmp != nullptr) CheckTmp(api, *tmp, (uint64_t{Lanes<U>()} + kLanes) * 4);
  const uint32_t ls = Lanes<U>(), le = Lanes<E>(), splitK = cfg.SplitK();
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * ls;
  if (update) {
    RecordCall(api, loc,
               {Rd(a.src, n), Rd(a.inExpSum, s), Rd(a.inMax, s), Wr(a.dst, n), Wr(a.expSum, s),
                Wr(a.max, s), Wr(a.expMax, uint64_t{d.m} * le)});
  } else {
    RecordCall(api, loc, {Rd(a.src, n), Wr(a.dst, n), Wr(a.expSum, s), Wr(a.max, s)});
  }
  std::vector<float> x;
  std::vector<FlashLanes<U>> f;
  for (uint32_t i = 0, row0 = 0; i <= t.rangeM; ++i) {
    const uint32_t rows = i < t.rangeM ? t.splitM : t.tailM;
    if (rows == 0) break;
    LoadRow(x, a.src.HostPtr() + uint64_t{row0} * d.k, rows * d.k);
    f.assign(rows, FlashLanes<U>{ls});
    for (uint32_t r = 0; r < rows; ++r) {
      const float rmax = NdRowMax(x.data() + uint64_t{r} * splitK, cfg.k, rows);
      KeepConfigMax(sc, row0 + r, rmax);
      if (!update) {
        f[r].Fill(rmax);
        continue;
      }
      f[r].LoadMax(a.inMax.HostPtr() + uint64_t{row0 + r} * ls, rmax);
      f[r].LoadSum(a.inExpSum.HostPtr() + uint64_t{row0 + r} * ls);
    }
    for (size_t j = 0; j < x.size(); ++j) {
      x[j] = x[j] - f[j / d.k].max[ColumnLane(j % d.k) % ls];
    }
    ExpInPlace(x);
    StoreRow(a.dst.HostPtr() + uint64_t{row0} * d.k, x);
    for (uint32_t r = 0; r < rows; ++r) {
      const float sm = RowSum(x.data() + uint64_t{r} * splitK, cfg.k, false);
      KeepConfigRow<T>(sc, row0 + r, sm, f[r], &x[uint64_t{r} * d.k], d.k, &x[r * splitK]);
      const uint64_t at = uint64_t{row0 + r} * ls;
      for (uint32_t j = 0; j < ls; ++j) {
        a.max.HostPtr()[at + j] = Narrow<U>(StoredFlashMax<T>(update, f[r].max[j]));
        a.expSum.HostPtr()[at + j] = Narrow<U>(update ? f[r].expMax[j] * f[r].inSum[j] + sm : sm);
      }
      if (update) FlashV2StoreExpMax(a, f[r], row0 + r, le, true);
    }
    row0 += rows;
  }
}

// The operand checks and the sanitizer record of an NZ update (2201 and 3510 forms): dst and src
// [srcM, srcK], the statistics [oriSrcM, 32 B]. tmp_bytes: the scratch the form needs (0: none).
template <typename T, typename U>
void CheckNzUpdateOperands(const char* api, const FlashV2Args<T, U, T>& a,
                           const AscendC::LocalTensor<uint8_t>* tmp, uint64_t tmp_bytes,
                           const NzDims& d, SrcLoc loc) {
  const uint64_t n = uint64_t{d.stride} * d.k, s = uint64_t{d.m} * Lanes<U>();
  const uint64_t em = uint64_t{d.m} * Lanes<T>();
  namespace md = math_detail;
  CheckRows(api, {md::Op(a.dst, "dstTensor"), md::Op(a.src, "srcTensor")}, {n, n});
  CheckRows(api,
            {md::Op(a.expSum, "expSumTensor"), md::Op(a.max, "maxTensor"),
             md::Op(a.inExpSum, "inExpSumTensor"), md::Op(a.inMax, "inMaxTensor"),
             md::Op(a.expMax, "expMaxTensor")},
            {s, s, s, s, em});
  if (tmp != nullptr) CheckTmp(api, *tmp, tmp_bytes);
  RecordCall(api, loc,
             {Rd(a.src, n), Rd(a.inExpSum, s), Rd(a.inMax, s), Wr(a.dst, n), Wr(a.expSum, s),
              Wr(a.max, s), Wr(a.expMax, em)});
}

// SoftmaxFlashV2 with update, NZ (FlashV2NZUpdateGenericImpl), rows d.m of FlashV2NzDimsOf:
// lane l of the row's statistics (Lanes<U>()): max_l = Max(inMax_l, rowmax), expMax_l =
// exp(inMax_l - max_l); column c subtracts lane (c % 16) % Lanes<U>() (the float max, before any
// half rounding); expSum_l = expMax_l * inExpSum_l + rowsum. expMax: [rows, 32 B] of T, half
// lanes l from lane l % Lanes<U>(). Every column of dst is written (masked ones: src).
template <typename T, typename U>
void FlashV2NzUpdateRows(const FlashV2Args<T, U, T>& a, const AscendC::LocalTensor<uint8_t>& tmp,
                         const AscendC::SoftMaxShapeInfo& shape, const NzDims& d, SrcLoc loc) {
  const char* api = "SoftmaxFlashV2";
  CheckNzShape(api, shape, d);
  CheckNzUpdateOperands(api, a, &tmp, (uint64_t{kNzCols} * 3 + d.k) * 4, d, loc);
  const uint32_t lanes = Lanes<U>(), emLanes = Lanes<T>();
  std::vector<float> x, mx(lanes), em(lanes), inSum(lanes);
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadNzRow(x, a.src.HostPtr(), d, r);
    const float rowMax =
        NzRowReduce(x, d.validK, true, [](float p, float q) { return p > q ? p : q; });
    for (uint32_t l = 0; l < lanes; ++l) {
      const float im = Widen(a.inMax.HostPtr()[uint64_t{r} * lanes + l]);
      inSum[l] = Widen(a.inExpSum.HostPtr()[uint64_t{r} * lanes + l]);
      mx[l] = im > rowMax ? im : rowMax;
      em[l] = ExpOf(im - mx[l]);
    }
    std::vector<float> valid(x.begin(), x.begin() + d.validK);
    for (uint32_t c = 0; c < d.validK; ++c) valid[c] = valid[c] - mx[(c % kNzCols) % lanes];
    ExpInPlace(valid);
    const float rowSum =
        NzRowReduce(valid, d.validK, false, [](float p, float q) { return p + q; });
    std::copy(valid.begin(), valid.end(), x.begin());
    for (uint32_t l = 0; l < lanes; ++l) {
      const float prod = em[l] * inSum[l];
      a.max.HostPtr()[uint64_t{r} * lanes + l] = Narrow<U>(mx[l]);
      a.expSum.HostPtr()[uint64_t{r} * lanes + l] = Narrow<U>(prod + rowSum);
    }
    for (uint32_t l = 0; l < emLanes; ++l) {
      a.expMax.HostPtr()[uint64_t{r} * emLanes + l] = Narrow<T>(em[l % lanes]);
    }
    for (uint32_t c = 0; c < d.k; ++c) a.dst.HostPtr()[d.At(r, c)] = Narrow<T>(x[c]);
  }
}

// SoftmaxFlashV2 with update, NZ, on 3510 (regbase/3510/softmax_flashv2_impl.h
// SoftmaxFlashV2NZ[WithTail]UpdateVFImpl): rows 0 .. oriSrcM - 1 of the fractals (M: the shape's
// srcM), exactly the first oriSrcK columns, the row max and sum in the register NZ order
// (RegNzRowReduce); statistics lane by lane: max_l = Max(inMax_l, rowmax) (the register Max,
// inMax first), expMax_l = exp(inMax_l - max_l); column c subtracts lane c % 16 of half
// statistics, lane (c % 16) / 2 of float ones (the max Interleave-d with itself); expSum_l =
// rowsum + expMax_l * inExpSum_l (Mul, then Add), inExpSum read after max is stored. expMax:
// float data the float lanes (stored with max, read back for the sum), half data with half
// statistics lane l, with float ones lane l / 2. The other rows and columns of dst keep their
// contents. Float statistics are computed for the rows below 8 * (srcM / 8) only (the e2b loops'
// srcM / 8 registers); with oriSrcM above that the device subtracts, for the last rows, a max
// its scratch never received: refused in either mode (invalid_count).
template <typename T, typename U>
void FlashV2NzUpdateRowsReg(const FlashV2Args<T, U, T>& a, const AscendC::SoftMaxShapeInfo& shape,
                            const AscendC::tiling::SoftMaxTiling& t, SrcLoc loc) {
  const char* api = "SoftmaxFlashV2";
  const NzDims d = RegNzDims(api, shape, t);
  if (sizeof(U) == 4 && d.m > d.stride / 8 * 8) {
    RaiseKernelCheck(checks::kInvalidCount,
                     std::string(api) + ": NZ update with float statistics computes the max of " +
                         std::to_string(d.stride / 8 * 8) + " rows (8 * (srcM / 8), srcM = " +
                         std::to_string(d.stride) + "); oriSrcM = " + std::to_string(d.m) +
                         " rows would use a max the device never computed");
  }
  CheckNzUpdateOperands<T, U>(api, a, nullptr, 0, d, loc);
  const uint32_t lanes = Lanes<U>(), emLanes = Lanes<T>();
  const auto lane = [](uint32_t c) { return sizeof(U) == 4 ? (c % kNzCols) / 2 : c % kNzCols; };
  std::vector<float> x, mx(lanes), em(lanes);
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadNzRow(x, a.src.HostPtr(), d, r);
    x.resize(d.validK);
    const float rowMax = RegNzRowReduce(x, true);
    U* maxRow = a.max.HostPtr() + uint64_t{r} * lanes;
    for (uint32_t l = 0; l < lanes; ++l) {
      const float im = Widen(a.inMax.HostPtr()[uint64_t{r} * lanes + l]);
      mx[l] = RegMax(im, rowMax);
      em[l] = ExpOf(im - mx[l]);
    }
    for (uint32_t l = 0; l < lanes; ++l) maxRow[l] = Narrow<U>(mx[l]);
    if constexpr (std::is_same_v<T, float>) {  // expMaxTensor is the float expMax buffer
      for (uint32_t l = 0; l < lanes; ++l) a.expMax.HostPtr()[uint64_t{r} * lanes + l] = em[l];
    }
    for (uint32_t c = 0; c < d.validK; ++c) x[c] = x[c] - mx[lane(c)];
    ExpInPlace(x);
    for (uint32_t c = 0; c < d.validK; ++c) a.dst.HostPtr()[d.At(r, c)] = Narrow<T>(x[c]);
    const float rowSum = RegNzRowReduce(x, false);
    for (uint32_t l = 0; l < lanes; ++l) {
      const float inSum = Widen(a.inExpSum.HostPtr()[uint64_t{r} * lanes + l]);
      if constexpr (std::is_same_v<T, float>) em[l] = a.expMax.HostPtr()[uint64_t{r} * lanes + l];
      const float prod = em[l] * inSum;
      a.expSum.HostPtr()[uint64_t{r} * lanes + l] = Narrow<U>(rowSum + prod);
    }
    if constexpr (!std::is_same_v<T, float>) {
      for (uint32_t l = 0; l < emLanes; ++l) {
        a.expMax.HostPtr()[uint64_t{r} * emLanes + l] = Narrow<T>(em[lanes == 8 ? l / 2 : l]);
      }
    }
  }
}

// SoftMaxFlashV2TilingFunc's assert: with isFlashOutputBrc and several splits, rows per split a
// multiple of 32 / dataTypeSize1 (checked mode).
inline void RefuseFlashOutputBrcSplit(uint32_t m, uint32_t typeSize) {
  if (!CheckedMode()) return;
  RaiseKernelCheck(checks::kTmpBuffer,
                   "SoftMaxFlashV2TilingFunc: isFlashOutputBrc needs rows per split (" +
                       std::to_string(m) + ") a multiple of " + std::to_string(32 / typeSize) +
                       "; adjust localWorkSpaceSize");
}

}  // namespace lngrad::aicore::softmax_detail

namespace AscendC {

// The kernel-side tiling of SoftmaxFlashV2 (softmax_flashv2_base_impl.h
// SoftMaxFlashV2TilingFuncImpl): localWorkSpaceSize in bytes (taken as floats), statistics
// blocks of 32 / dataTypeSize2 elements; rows per split: NZ `w / (16 * 3 + srcK)`; basic block
// (srcK % 64 == 0, srcM % 8 == 0) CalculateNDSplitM; else half data `w / (2 e + srcK + 64)`,
// float data `w / (e + 64)`; then cut to a multiple of 8 (16 for half data with
// isFlashOutputBrc) when between that and srcM, at most srcM. Checked mode refuses a split of
// isFlashOutputBrc that is not a multiple of 32 / dataTypeSize1 (the toolkit's assert).
constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(
    const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
    const uint32_t localWorkSpaceSize, const bool isUpdate = false, const bool isBasicBlock = false,
    const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  const uint32_t srcM = shapeInfo.srcM, srcK = shapeInfo.srcK, w = localWorkSpaceSize / 4;
  const uint32_t e = 32 / dataTypeSize2;
  SoftMaxTiling t;
  t.srcM = srcM;
  t.srcK = srcK;
  t.srcSize = srcM * srcK;
  t.outMaxM = srcM;
  t.outMaxK = e;
  t.outMaxSize = srcM * e;
  uint32_t m = 0;
  if (isDataFormatNZ) {
    m = w / (16 * 3 + srcK);
  } else if (isBasicBlock && srcK % 64 == 0 && srcM % 8 == 0) {
    m = dataTypeSize1 == 2 ? w / (e + srcK + 64) : w / (e + 64);  // CalculateNDSplitM
    m = m < srcM ? m : srcM;
    if (m > 8) {
      m = static_cast<uint32_t>(lngrad::aicore::softmax_detail::BasicBlockRows(m, srcM, srcK));
    }
  } else {
    m = dataTypeSize1 == 2 ? w / (2 * e + srcK + 64) : w / (e + 64);
  }
  const uint32_t tile = isFlashOutputBrc && dataTypeSize1 == 2 ? 16 : 8;
  if (m < srcM && m > tile) m = m / tile * tile;
  m = m < srcM ? m : srcM;
  t.reduceM = t.splitM = m;
  t.reduceK = e;
  t.reduceSize = m * e;
  t.splitK = srcK;
  t.splitSize = m * srcK;
  t.rangeM = m == 0 ? 0 : srcM / m;
  t.tailM = m == 0 ? 0 : srcM % m;
  t.tailSplitSize = t.tailM * srcK;
  t.tailReduceSize = t.tailM * e;
  if (isFlashOutputBrc && (t.rangeM > 1 || t.tailM != 0) && m % (32 / dataTypeSize1) != 0) {
    lngrad::aicore::softmax_detail::RefuseFlashOutputBrcSplit(m, dataTypeSize1);
  }
  return t;
}

}  // namespace AscendC

namespace lngrad::aicore::softmax_detail {

// The tiling the kernel runs (softmax_flashv2_base_impl.h SoftmaxFlashV2UpdateTilingImpl, ND):
// the caller's when config.isCheckTiling is false or it was made for the shape (srcM and srcK),
// else SoftMaxFlashV2TilingFuncImpl on the shape with the work buffer's floats (isFlashOutputBrc
// in SOFTMAX_OUTPUT_WITHOUT_BRC mode). On 3510 lngrad takes no split from the tiling: unchanged.
template <typename T, typename U>
AscendC::tiling::SoftMaxTiling FlashV2KernelTiling(bool checkTiling, bool update, bool basic,
                                                   bool m1, const AscendC::tiling::SoftMaxTiling& t,
                                                   const Dims& d,
                                                   const AscendC::LocalTensor<uint8_t>& tmp) {
  if (!checkTiling || RegBase() || (t.srcM == d.m && t.srcK == d.k)) return t;
  const uint64_t bytes = tmp.View().size_bytes;
  return AscendC::SoftMaxFlashV2TilingFunc(
      {d.m, d.k, d.m, d.k}, sizeof(T), sizeof(U),
      static_cast<uint32_t>(std::min<uint64_t>(bytes, UINT32_MAX)), update, basic, false, m1);
}

}  // namespace lngrad::aicore::softmax_detail

namespace AscendC {

// D = T and U = T, or D = half with U = float statistics (the toolkit's two overloads; expMax
// is D in both).
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename D, typename U>
void SoftmaxFlashV2(const LocalTensor<D>& dstTensor, const LocalTensor<U>& expSumTensor,
                    const LocalTensor<U>& maxTensor, const LocalTensor<D>& srcTensor,
                    const LocalTensor<D>& expMaxTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  sd::FlashWorkBuffer leave("SoftmaxFlashV2", loc, sharedTmpBuffer);
  sd::CheckTypes<D, U>("SoftmaxFlashV2");
  if constexpr (isDataFormatNZ) {
    if (!isUpdate && sd::RegBase()) {  // SoftmaxFlashV2NZ[WithTail]NoUpdateVFImpl
      sd::SoftMaxNzRowsReg<D, U>("SoftmaxFlashV2", sd::NzFinish::kNone, dstTensor, expSumTensor,
                                 maxTensor, srcTensor, softmaxShapeInfo, tiling, loc);
      return;
    }
    if (isUpdate && sd::RegBase()) {  // SoftmaxFlashV2NZ[WithTail]UpdateVFImpl
      sd::FlashV2NzUpdateRowsReg<D, U>({dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                        inExpSumTensor, inMaxTensor},
                                       softmaxShapeInfo, tiling, loc);
      return;
    }
    const sd::NzDims nz =
        sd::FlashV2NzDimsOf(softmaxShapeInfo, tiling, sharedTmpBuffer.View().size_bytes);
    if constexpr (isUpdate) {
      sd::FlashV2NzUpdateRows<D, U>({dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                     inExpSumTensor, inMaxTensor},
                                    sharedTmpBuffer, softmaxShapeInfo, nz, loc);
    } else {
      sd::SoftMaxNzRows<D, U>("SoftmaxFlashV2", dstTensor, expSumTensor, maxTensor, srcTensor,
                              sharedTmpBuffer, softmaxShapeInfo, nz, loc, true);
    }
    return;
  }
  sd::Dims d = LNGRAD_SOFTMAX_DIMS(srcTensor);
  if (isBasicBlock) sd::RefuseBasicK("SoftmaxFlashV2", d);
  constexpr bool m1 = config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC;
  if (m1 && sd::FlashV2M1On2002("SoftmaxFlashV2")) return leave.Modelled();
  const SoftMaxTiling run = sd::FlashV2KernelTiling<D, U>(
      config.isCheckTiling, isUpdate, isBasicBlock, m1, tiling, d, sharedTmpBuffer);
  const sd::FlashV2Args<D, U, D> args{dstTensor,    expSumTensor,   maxTensor,   srcTensor,
                                      expMaxTensor, inExpSumTensor, inMaxTensor, m1};
  bool basic = isBasicBlock;
  if constexpr (config.oriSrcM != 0 && config.oriSrcK != 0 && !m1) {
    constexpr sd::CfgShape cfg{config.oriSrcM, config.oriSrcK};
    sd::CheckConfigDefect("SoftmaxFlashV2", true, !cfg.Basic(), run, d, cfg.k);  // 2201, 2002
    const sd::CfgPath path = sd::FlashV2Config<U>(cfg, isBasicBlock, run, d);
    if (path == sd::CfgPath::kSplits) {  // 2002's wraps unchecked: the device's (FlashV2DeviceV200)
      sd::V200Device dev;
      sd::FlashV2DeviceV200<D, U>(isUpdate, run, d, srcTensor.HostPtr(), inMaxTensor.HostPtr(),
                                  inExpSumTensor.HostPtr(), maxTensor.HostPtr(),
                                  expSumTensor.HostPtr(), sharedTmpBuffer, dev, loc, cfg.SplitK());
      auto sc = sd::FlashV2ConfigScratch(isUpdate, run, d, cfg.SplitK(), sharedTmpBuffer, args);
      sd::FlashV2ConfigSplits(isUpdate, args, cfg, d, run, &sharedTmpBuffer, loc, &sc);
      sd::V200Store(dev, dstTensor, &expSumTensor, &maxTensor, &expMaxTensor);
      sc.Finish("SoftmaxFlashV2", loc);
      if (dev.set || sc.Active()) leave.Modelled();
      return;
    }
    basic = path == sd::CfgPath::kBasic;
  }
  // The basic-block shapes the device computes wrongly: refused in checked mode, before writing.
  sd::CheckFlashV2BasicDefect(basic && !m1 && !sd::RegBase(), run, d);
  // So are the M1 generic path's (softmax_flashv2_nobrc_work.h).
  if (m1) sd::CheckFlashV2M1Defect<D, U>(isUpdate, basic, run, d, expSumTensor, maxTensor);
  // The generic split loop (without a constant-shape config).
  constexpr bool generic = !m1 && (config.oriSrcM == 0 || config.oriSrcK == 0);
  // 2002's generic loop: the splits whose NewReduce{Max,Sum}LastNDImpl operands wrap are refused
  // in checked mode, before writing (softmax_v200_work.h CheckFlashV2V200Defect).
  sd::CheckFlashV2V200Defect(generic && !basic, run, d);
  sd::CheckV220Defect("SoftmaxFlashV2", (generic || m1) && !basic, run, d);  // and 2201's
  // Unchecked: the device's outputs of those splits and of the config path's (splitK = srcK: the
  // same steps over config.oriSrcK columns; FlashV2DeviceV200, read before anything is written,
  // the work buffer written), stored over lngrad's rows; the other splits' buffer as well.
  sd::V200Device dev;
  const bool v200 = sd::FlashV2WorkDevice<D, U>(  // 2201's wrapping splits: FlashV2WorkV220
      !m1 && !basic, isUpdate, run, d, srcTensor.HostPtr(), inMaxTensor.HostPtr(),
      inExpSumTensor.HostPtr(), maxTensor.HostPtr(), expSumTensor.HostPtr(), sharedTmpBuffer, dev,
      loc);
  // The work buffer of the generic loop and the config's (splitK = srcK) on 2201.
  sd::FlashV2Scratch sc(!m1 && !basic && !v200, sharedTmpBuffer, run, d, isUpdate,
                        std::is_same_v<D, half>, std::is_same_v<U, half>);
  // The isBasicBlock path's (softmax_flashv2_paths.h; float and half data): unchecked, for the
  // float defect shapes it derives, the outputs follow the kit's sequence.
  sd::FlashV2BasicScratch bs(basic && !m1, sharedTmpBuffer, run, d, isUpdate, sd::Lanes<U>(),
                             std::is_same_v<D, half>);
  bs.Begin(args);
  // The WITHOUT_BRC generic path's work buffer (softmax_flashv2_nobrc_device.h), and unchecked
  // the device's outputs of half data with float statistics without update.
  sd::FlashV2M1Device<D, U> m1d(m1 && !basic, isUpdate, run, d, srcTensor, inMaxTensor,
                                inExpSumTensor, sharedTmpBuffer);
  sd::FlashV2Rows<D, U, D>(isUpdate, sd::BasicRows(basic, run, d), args,
                           sd::WithSplits(sd::RegBasicDims(isBasicBlock, d), run), &sharedTmpBuffer,
                           loc, sc.Active() ? &sc : nullptr);
  if (m1) sd::FlashV2M1OneRowDevice<D, U>(isUpdate, basic, run, d, expSumTensor, maxTensor);
  const bool m1Work =
      m1d.Finish("SoftmaxFlashV2", loc, dstTensor, maxTensor, expSumTensor, expMaxTensor, nullptr,
                 sharedTmpBuffer, !isUpdate && std::is_same_v<D, half> && std::is_same_v<U, float>);
  sd::V200Store(dev, dstTensor, &expSumTensor, &maxTensor, &expMaxTensor);
  sc.Finish("SoftmaxFlashV2", loc);
  bs.Finish("SoftmaxFlashV2", loc);
  if (sc.Active() || bs.Active() || dev.set || v200 || m1Work) leave.Modelled();
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename D, typename U>
void SoftmaxFlashV2(const LocalTensor<D>& dstTensor, const LocalTensor<U>& expSumTensor,
                    const LocalTensor<U>& maxTensor, const LocalTensor<D>& srcTensor,
                    const LocalTensor<D>& expMaxTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {},
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      lngrad::aicore::math_detail::StackTmp(), tiling, softmaxShapeInfo, loc);
}

// The forms with outReduceMax (T only): in SOFTMAX_OUTPUT_WITHOUT_BRC mode, one statistic per
// row and outReduceMax = the block's row max (with isUpdate only on 2201: the no-update M1
// functions of membase/v220 do not take it); in the normal mode the toolkit's implementation
// does nothing (softmax_flashv2_base_impl.h SoftmaxFlashV2MaxImpl), and so does this one.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                    const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                    const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {},
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  sd::LeaveWorkBuffer leave("SoftmaxFlashV2", loc, sharedTmpBuffer);
  sd::CheckTypes<T, T>("SoftmaxFlashV2");
  sd::RefuseNz<isDataFormatNZ>("SoftmaxFlashV2");
  if constexpr (config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) {
    const sd::Dims d = LNGRAD_SOFTMAX_DIMS(srcTensor);
    if (isBasicBlock) sd::RefuseBasicK("SoftmaxFlashV2", d);
    if (sd::FlashV2M1On2002("SoftmaxFlashV2")) return;  // the buffer stays marked
    // The caller's tiling, not re-tiled (SoftmaxFlashV2MaxImpl); its splits order the row max.
    sd::CheckFlashV2M1Defect<T, T>(isUpdate, isBasicBlock, tiling, d, outExpSum, outMax);
    sd::CheckV220Defect("SoftmaxFlashV2", !isBasicBlock, tiling, d);  // softmax_v200_work.h
    sd::FlashV2M1Device<T, T> m1d(!isBasicBlock, isUpdate, tiling, d, srcTensor, inMax, inExpSum,
                                  sharedTmpBuffer);  // the work buffer
    sd::FlashV2Rows<T, T, T>(
        isUpdate, sd::BasicRows(isBasicBlock, tiling, d),
        {dstTensor, outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax, true, &outReduceMax},
        sd::WithSplits(sd::RegBasicDims(isBasicBlock, d), tiling), &sharedTmpBuffer, loc);
    sd::FlashV2M1OneRowDevice<T, T>(isUpdate, isBasicBlock, tiling, d, outExpSum, outMax);
    if (m1d.Finish("SoftmaxFlashV2", loc, dstTensor, outMax, outExpSum, outExpMax, &outReduceMax,
                   sharedTmpBuffer, false)) {
      leave.Modelled();
    }
  }
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                    const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                    const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, outReduceMax, outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax,
      lngrad::aicore::math_detail::StackTmp(), tiling, softmaxShapeInfo, loc);
}

}  // namespace AscendC
