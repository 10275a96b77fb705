// lngrad: SoftMax (every overload: with and without sum/max outputs, sharedTmpBuffer or the
// stack buffer, half with half or float statistics) and AdjustSoftMaxRes — the toolkit's
// adv_api/activation/softmax.h. Algorithm of membase/v220/softmax_impl.h (SoftMaxGenericNDImpl,
// SoftMaxBasicBlock): per row, max (exact), x - max, Exp, the row sum (softmax_common.h's order),
// then (x - max) / sum, in float; half data and half statistics rounded once at the end
// (softmax_common.h HalfRounding: ties away from zero on 2201, RNE elsewhere).
// The basic-block path (isBasicBlock, srcK a multiple of 64) reduces every srcK column, summing
// in BasicBlockAddImpl's order. sum and max are written as [rows, 32 B] with the value
// repeated. isDataFormatNZ: SoftMax with statistics runs softmax_nz.h (SoftMaxNZImpl's order;
// on 2201/2002 the work buffer as softmax_nz_work.h writes it, splits whose broadcast wraps refused
// in checked mode), AdjustSoftMaxRes the NZ rows; see softmax_nz.h for which other APIs of the
// family take NZ.
// On 3510 the order of regbase/3510/softmax_impl.h (softmax_common.h RegRowSum, RegRowMax; only
// the first oriSrcK columns of dst stored; isBasicBlock, also without statistics: the first
// ceil(oriSrcK / 64) * 64, RegBasicDims; isReuseSource on the srcK = 8 and 16 paths: src rows up to
// the last register's end, ReuseRows).
// The constant-shape config (config.oriSrcM, config.oriSrcK) on 2201: its shape test replaces
// isBasicBlock, its K the reduced columns and, rounded up to 8, the reductions' row stride
// (CfgShape, ConfigRows). Checked mode: operand sizes, 32-byte alignment, srcK alignment, the
// sharedTmpBuffer minimum, isBasicBlock with srcK a multiple of 64, a config K that rounds up to
// less than srcK (the rows the device mixes: softmax_device_defect; unchecked followed, the work
// buffer too), the config's reductions whose uint8_t operands wrap (softmax_v200_work.h
// CheckConfigDefect; unchecked lngrad's rows), 2201's basic-block splits reaching past
// sharedTmpBuffer (softmax_basic_work.h).
#pragma once

#include "lib/activation/softmax_basic_work.h"
#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax_nz.h"
#include "lib/activation/softmax_nz_work.h"
#include "lib/activation/softmax_work.h"
#include "lib/activation/softmax_v200_work.h"
#include "lib/activation/softmax_v220_device.h"

namespace lngrad::aicore::softmax_detail {

enum class Finish { kDiv, kLog };

// The rows whose exponentials the float SoftMax without statistics leaves in src (isReuseSource,
// where src is the register code's work buffer): on 3510's srcK = 8 and 16 paths
// (SingleSoftMaxGenericNDForBlkVFImpl, ...AlignedWithBlkVFImpl) each register holds 64 / srcK rows
// and is stored whole, so the last register's rows past m are written too (computed from what
// src's memory holds there); elsewhere m.
inline uint32_t ReuseRows(const Dims& d, bool reuseSrc) {
  if (!reuseSrc || !RegBase() || (d.k != 8 && d.k != 16)) return d.m;
  const uint32_t perReg = kLanes / d.k;
  return (d.m + perReg - 1) / perReg * perReg;
}

// Those rows past m: each row's max and exponentials (as a row of the block path: max over the
// first oriK columns, Sub and Exp on every column) stored to src; nothing else is written.
template <typename T>
void ReuseTailRows(const AscendC::LocalTensor<T>& src, const Dims& d, uint32_t rows) {
  std::vector<float> x;
  for (uint32_t r = d.m; r < rows; ++r) {
    TailRowExp(src, d, r, x);
    StoreRow(src.HostPtr() + uint64_t{r} * d.k, x);
  }
}

// dst = softmax (or log-softmax) of src by rows; sum/max: U per row (nullptr: not written).
// reuseSrc (float SoftMax without statistics, isReuseSource): src keeps exp(x - max), as
// SingleSoftMaxImpl's Exp writes it there. pre: the rows' max, exponentials and sum as the work
// model computed them (softmax_work.h RowExps; the generic loop on 2201), taken where it holds
// d's rows instead of computing them again.
template <typename T, typename U>
void SoftMaxRows(const char* api, bool basic, Finish fin, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<U>* sum, const AscendC::LocalTensor<U>* max,
                 const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                 const Dims& d, SrcLoc loc, bool reuseSrc = false, const RowExps* pre = nullptr) {
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * Lanes<U>();
  CheckRows(api, {math_detail::Op(dst, "dstTensor"), math_detail::Op(src, "srcTensor")}, {n, n});
  if (sum != nullptr) {
    CheckRows(api, {math_detail::Op(*sum, "sumTensor"), math_detail::Op(*max, "maxTensor")},
              {s, s});
  }
  if (tmp != nullptr) CheckTmp(api, *tmp, (uint64_t{Lanes<T>()} + d.k + kLanes) * 4);
  const uint32_t reuseRows = ReuseRows(d, reuseSrc);
  // A write past srcTensor there is the device's overrun: checked mode names it (tensor_bounds).
  const uint64_t rn = uint64_t{reuseRows} * d.k;
  if (reuseRows > d.m) {
    const std::string why =
        std::string(api) + " (isReuseSource: the srcK = " + std::to_string(d.k) +
        " path stores its last register whole, rows to " + std::to_string(reuseRows) + ")";
    CheckRows(why.c_str(), {math_detail::Op(src, "srcTensor")}, {rn});
  }
  if (sum != nullptr) {
    RecordCall(api, loc, {Rd(src, n), Wr(dst, n), Wr(*sum, s), Wr(*max, s)});
  } else if (reuseSrc) {
    RecordCall(api, loc, {Rd(src, rn), Wr(src, rn), Wr(dst, n)});
  } else {
    RecordCall(api, loc, {Rd(src, n), Wr(dst, n)});
  }
  std::vector<float> x;
  // The membase basic-block path (SoftMaxBasicBlock, srcK a multiple of 64) reduces every srcK
  // column in BasicBlockAddImpl's order: it does not read oriSrcK.
  const bool basicOrder = basic && !RegBase() && d.k % kLanes == 0;
  const uint32_t redK = basicOrder ? d.k : d.oriK;
  const uint32_t cols = StoredColumns(d);
  // 3510's srcK = 8 and 16 register paths store the exponentials of every column to src.
  const uint32_t reuseCols = RegBase() && (d.k == 8 || d.k == 16) ? d.k : cols;
  const bool recip = fin == Finish::kDiv && !basic && V200Reciprocal();
  const bool computed =
      pre != nullptr && !basicOrder && !RegBase() && pre->m == d.m && pre->k == d.k;
  for (uint32_t r = 0; r < d.m; ++r) {
    float mx = 0.0f;
    if (computed) {
      x.assign(pre->Row(r), pre->Row(r) + d.k);
      mx = pre->mx[r];
    } else {
      LoadRow(x, src.HostPtr() + uint64_t{r} * d.k, d.k);
      mx = basicOrder  ? BasicRowMax(x.data(), redK, SplitRowsAt(d, r))
           : RegBase() ? RowMax(x.data(), redK)
                       : NdRowMax(x.data(), redK, SplitRowsAt(d, r));
      for (float& v : x) v = v - mx;
      ExpInPlace(x);
    }
    if (reuseSrc) StoreRow(src.HostPtr() + uint64_t{r} * d.k, x, reuseCols);
    const float sm = computed ? pre->sm[r] : RowSum(x.data(), redK, basicOrder);
    if (recip) {  // 2002's TransDivToMulImpl (softmax_v200_work.h)
      const float inv = 1.0f / sm;
      for (float& v : x) v = v * inv;
    } else {
      for (float& v : x) v = v / sm;
    }
    if (fin == Finish::kLog) Log10InPlace(x);
    if (sum != nullptr) {
      PutStat(max->HostPtr(), r, mx);
      PutStat(sum->HostPtr(), r, sm);
    }
    StoreRow(dst.HostPtr() + uint64_t{r} * d.k, x, cols);
  }
  ReuseTailRows(src, d, reuseRows);
}

// The constant-shape config (config.oriSrcM and config.oriSrcK both set) on 2201 only
// (membase/v220/softmax_impl.h SoftMaxNDImpl; membase/v200 and 3510's SoftMax ignore it). The
// shape test (oriSrcK % 64 == 0, oriSrcK < 2048, oriSrcM % 8 == 0) takes SoftMaxBasicBlock
// whatever isBasicBlock (with statistics only); otherwise the generic loop reduces the first
// config.oriSrcK columns with a ReduceLastND of srcK = splitK (config.oriSrcK rounded up to 8) as
// the reductions' row stride and dstK = 16 (half data with half statistics) or 8 per row.
struct CfgShape {
  uint32_t m = 0, k = 0;
  bool Set() const { return m != 0 && k != 0 && detail::rep::RunningArch() == NpuArch::k2201; }
  bool Basic() const { return k % kLanes == 0 && k < 2048 && m % 8 == 0; }
  uint32_t SplitK() const { return (k + 7) / 8 * 8; }
};

// The generic config path: checks, then either d.oriK = the config's K (splitK == srcK: every row
// reduced at its own stride; returns false) or, with splitK below srcK, the rows of each of the
// tiling's splits reduced at i * splitK (row i from the values of the rows before it, as the
// device's reductions read them; the Sub and Div at srcK; returns true, done). Checked mode
// names that stride (softmax_device_defect); other tilings are refused in any mode (not modelled:
// invalid_count).
// statK: the dstK of the config's ReduceLastND; reduceK: the tiling's (or the re-tile's) stat
// row stride, which the Sub, the Div and the statistics' offsets take.
struct CfgRun {
  CfgShape cfg;
  uint32_t statK, reduceK;
};
inline void RefuseCfg(const char* api, const CfgRun& c, const std::string& why,
                      const char* check = checks::kInvalidCount) {
  RaiseKernelCheck(check, std::string(api) + ": the constant-shape config (config.oriSrcK = " +
                              std::to_string(c.cfg.k) +
                              ", splitK = " + std::to_string(c.cfg.SplitK()) + ") " + why);
}

// Checked mode, splitK below srcK: the reductions read row i of a split at i * splitK.
inline void RefuseCfgRowMix(const char* api, const CfgRun& c, uint32_t k) {
  RefuseCfg(api, c,
            "reduces row i of each split from the values at i * splitK, not i * srcK = i * " +
                std::to_string(k) +
                ": on the device rows after the first take the max and sum of other rows' "
                "values; set a config.oriSrcK that rounds up to srcK",
            checks::kSoftmaxDeviceDefect);
}

// Checked mode, a tiling reduceK below the statK statistics the config's reductions write per
// row (half data without statistics and the kernel's re-tile, made with float statistics: 8
// against 16): the Sub and the Div read row r's at r * reduceK, i.e. row r * reduceK / statK's.
inline void RefuseCfgStatStride(const char* api, const CfgRun& c) {
  RefuseCfg(api, c,
            "writes " + std::to_string(c.statK) + " statistics per row and the tiling's reduceK " +
                "is " + std::to_string(c.reduceK) +
                ": on the device the Sub and the Div of row r read the max and sum of row r * " +
                std::to_string(c.reduceK) + " / " + std::to_string(c.statK) +
                " of its split; pass a tiling made for the shape with statistics of the data type",
            checks::kSoftmaxDeviceDefect);
}

// ConfigRows's rows with splitK below srcK or reduceK below statK, from ex (RowExps with the
// config's reductions, SoftMaxNDExtImpl's split loop: row i's max and sum from the first oriSrcK
// values at i * splitK of its split; row r's x - max, Exp and / sum at its own srcK columns with
// the statistics of split row r * reduceK / statK).
template <typename T, typename U>
void ConfigStore(const RowExps& ex, const Dims& d, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<U>* sum, const AscendC::LocalTensor<U>* max,
                 const AscendC::LocalTensor<T>& src, bool reuseSrc) {
  std::vector<float> x;
  for (uint32_t r = 0; r < d.m; ++r) {
    x.assign(ex.Row(r), ex.Row(r) + d.k);
    if (reuseSrc) StoreRow(src.HostPtr() + uint64_t{r} * d.k, x);
    const float s = ex.sm[ex.StatRow(d, r)];
    for (float& v : x) v = v / s;
    if (sum != nullptr) {
      PutStat(max->HostPtr(), r, ex.mx[r]);
      PutStat(sum->HostPtr(), r, ex.sm[r]);
    }
    StoreRow(dst.HostPtr() + uint64_t{r} * d.k, x);
  }
}

template <typename T, typename U>
bool ConfigRows(const char* api, const CfgRun& c, Dims& d, const AscendC::tiling::SoftMaxTiling& t,
                const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* sum,
                const AscendC::LocalTensor<U>* max, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<uint8_t>* tmp, SrcLoc loc, bool reuseSrc,
                bool* modelled) {
  const uint32_t splitK = c.cfg.SplitK();
  // Without statistics (sum null) the reductions' rows stay in the work buffer, so a reduceK
  // below statK only changes which row's statistics the Sub and Div read (followed); with them
  // the splits' outputs at offset i * reduceSize overlap in sumTensor and maxTensor (refused).
  if (c.reduceK > c.statK || (c.reduceK != c.statK && sum != nullptr)) {
    RefuseCfg(api, c,
              "writes " + std::to_string(c.statK) +
                  " statistics per row, the tiling's reduceK is " + std::to_string(c.reduceK) +
                  " (the Sub reads them at that stride, past the rows written): not modelled");
  }
  if (splitK > d.k) {
    RefuseCfg(api, c, "reduces rows past srcK = " + std::to_string(d.k) + ": not modelled");
  }
  if (splitK == d.k && c.reduceK == c.statK) {
    d.oriK = c.cfg.k;
    return false;
  }
  if (CheckedMode() && splitK < d.k) RefuseCfgRowMix(api, c, d.k);
  if (CheckedMode() && c.reduceK < c.statK) RefuseCfgStatStride(api, c);
  const uint64_t splitRows = uint64_t{t.rangeM} * t.splitM + t.tailM;
  if (t.srcM != d.m || t.srcK != d.k || t.rangeM == 0 || splitRows != d.m) {
    RefuseCfg(api, c, "with a tiling whose splits do not cover srcM: not modelled");
  }
  d.oriK = c.cfg.k;
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * Lanes<U>();
  CheckRows(api, {math_detail::Op(dst, "dstTensor"), math_detail::Op(src, "srcTensor")}, {n, n});
  if (sum != nullptr) {
    CheckRows(api, {math_detail::Op(*sum, "sumTensor"), math_detail::Op(*max, "maxTensor")},
              {s, s});
    RecordCall(api, loc, {Rd(src, n), Wr(dst, n), Wr(*sum, s), Wr(*max, s)});
  } else if (reuseSrc) {
    RecordCall(api, loc, {Rd(src, n), Wr(src, n), Wr(dst, n)});
  } else {
    RecordCall(api, loc, {Rd(src, n), Wr(dst, n)});
  }
  if (tmp != nullptr) CheckTmp(api, *tmp, (uint64_t{Lanes<T>()} + d.k + kLanes) * 4);
  // The work buffer as the config's reductions leave it (softmax_work.h SoftMaxWork, reading at
  // splitK; reduceK below statK: their 16 floats a row spilling past the statistics block,
  // SpillsStats), which computes ex; where not modelled (a buffer short of the tiling's splits)
  // ex alone.
  RowExps ex;
  ex.redK = splitK;
  ex.statNum = c.reduceK;
  ex.statDen = c.statK;
  const Dims all = WithSplits(d, t);
  if (tmp != nullptr && SoftMaxWork<T, U>(api, loc, t, all, src, sum, max, *tmp, false, &ex)) {
    *modelled = true;
  } else {
    ex.Compute(src.HostPtr(), all);
  }
  ConfigStore(ex, all, dst, sum, max, src, reuseSrc);
  return true;
}

// The (data, statistics) type pairs of the family: (half, half), (float, float), (half, float).
template <typename D, typename U>
void CheckTypes(const char*) {
  static_assert((std::is_same_v<D, U> && math_detail::kHalfOrFloat<D>) ||
                    (std::is_same_v<D, half> && std::is_same_v<U, float>),
                "SoftMax family: (T, statistics) must be (half, half), (float, float) or "
                "(half, float)");
}

template <bool isDataFormatNZ>
void RefuseNz(const char* api) {
  if constexpr (isDataFormatNZ) {
    RaiseKernelCheck(checks::kVectorType,
                     std::string(api) + ": the NZ data format is not modelled by lngrad");
  }
}

}  // namespace lngrad::aicore::softmax_detail

namespace AscendC {

#define LNGRAD_SOFTMAX_DIMS(src) \
  lngrad::aicore::softmax_detail::DimsOf(softmaxShapeInfo, src, tiling.srcM, tiling.srcK)

// With sum/max outputs: D = T and U = T (half or float), or D = half with U = float statistics
// (the toolkit's two overloads, one template here).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename D, typename U>
void SoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<U>& sumTensor,
             const LocalTensor<U>& maxTensor, const LocalTensor<D>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {},
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  sd::LeaveWorkBuffer leave("SoftMax", loc, sharedTmpBuffer);
  sd::CheckTypes<D, U>("SoftMax");
  if constexpr (isDataFormatNZ) {
    if (sd::RegBase()) {
      sd::SoftMaxNzRowsReg<D, U>("SoftMax", sd::NzFinish::kDiv, dstTensor, sumTensor, maxTensor,
                                 srcTensor, softmaxShapeInfo, tiling, loc);
    } else {
      sd::SoftMaxNzCall<D, U>(dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer,
                              softmaxShapeInfo, tiling, loc, leave);
    }
    return;
  }
  sd::Dims d = LNGRAD_SOFTMAX_DIMS(srcTensor);
  if (isBasicBlock) sd::RefuseBasicK("SoftMax", d);
  if (isBasicBlock) sd::RefuseBasicShape<D>("SoftMax", softmaxShapeInfo);
  bool basic = isBasicBlock;
  // The tiling the kernel runs (its re-tile for another shape's tiling included).
  const SoftMaxTiling kt = sd::SoftMaxKernelTiling(
      "SoftMax", tiling, d, softmaxShapeInfo, sharedTmpBuffer, sizeof(D), sizeof(U), isBasicBlock);
  if constexpr (config.oriSrcM != 0 && config.oriSrcK != 0) {
    // The constant-shape config on 2201: its shape test replaces isBasicBlock (CfgShape).
    constexpr sd::CfgShape cfg{config.oriSrcM, config.oriSrcK};
    if (cfg.Set()) {
      basic = cfg.Basic();
      if (basic && !isBasicBlock) sd::RefuseBasicK("SoftMax", d);
      const bool halfStats = std::is_same_v<D, half> && std::is_same_v<U, half>;
      const sd::CfgRun run{cfg, halfStats ? 16u : 8u, kt.reduceK};
      sd::CheckConfigDefect("SoftMax", false, !basic, kt, d, cfg.k);  // the wraps, checked mode
      bool modelled = false;
      if (!basic && sd::ConfigRows<D, U>("SoftMax", run, d, kt, dstTensor, &sumTensor, &maxTensor,
                                         srcTensor, &sharedTmpBuffer, loc, false, &modelled)) {
        if (modelled) leave.Modelled();
        return;
      }
    }
  }
  // SoftMaxBasicBlock (2201/2002, srcK a multiple of 64) computes the rangeM full splits only.
  if (basic && !sd::RegBase() && d.k % sd::kLanes == 0) {
    d.m = sd::BasicSplitRows("SoftMax", "SoftMaxBasicBlock", "dstTensor, sumTensor and maxTensor",
                             kt, d);
  } else if (!basic) {  // the generic loop: the re-tile's splits cover oriSrcM rows
    d.m = sd::GenericSplitRows("SoftMax", "dstTensor, sumTensor and maxTensor", tiling, kt, d);
  }
  // The work buffer of the generic loop on 2201 (softmax_work.h) and 2002 (softmax_v200_work.h);
  // elsewhere marked. On 2201 the config's generic path gets here when its reduction parameters
  // are the tiling's (splitK = srcK, reduceK the statistics' 32 bytes; ConfigRows):
  // SoftMaxNDExtImpl's loop with oriK the config's. On 2002 the config is not read (membase/v200
  // SoftMaxNDImpl), so its calls are the default loop's.
  // The splits the 2002 sequence gets wrong: refused in checked mode; unchecked, dev holds the
  // device's results, stored over SoftMaxRows's (softmax_v200_work.h V200Defect).
  // The splits the 2201 sequence gets wrong: refused in checked mode (softmax_v200_work.h
  // CheckV220Defect); unchecked, rowExps holds the device's rows (softmax_v220_device.h).
  sd::CheckV220Defect("SoftMax", !basic, kt, d);
  sd::RowExps rowExps;
  sd::V200Device dev;
  if (!basic && (sd::SoftMaxWorkV220<D, U>("SoftMax", loc, kt, d, srcTensor, &sumTensor, &maxTensor,
                                           sharedTmpBuffer, false, &rowExps) ||
                 sd::SoftMaxWorkV200<D, U>("SoftMax", loc, kt, d, srcTensor, &sumTensor, &maxTensor,
                                           sharedTmpBuffer, false, &dev))) {
    leave.Modelled();
  }
  // SoftMaxBasicBlock's buffer, statistics stores and dst on 2201 and 2002 (softmax_basic_work.h).
  std::optional<sd::SoftMaxBasicLeave<D, U>> bw;
  if (basic) {
    bw = sd::SoftMaxBasicPrepare<D, U>("SoftMax", kt, d, dstTensor, sumTensor, maxTensor, srcTensor,
                                       sharedTmpBuffer);
  }
  sd::SoftMaxRows<D, U>("SoftMax", basic, sd::Finish::kDiv, dstTensor, &sumTensor, &maxTensor,
                        srcTensor, &sharedTmpBuffer,
                        sd::WithSplits(sd::RegBasicDims(isBasicBlock, d), kt), loc, false,
                        &rowExps);
  sd::V200Store<D, U>(dev, dstTensor, &sumTensor, &maxTensor);
  if (bw) {
    sd::SoftMaxBasicStore<D, U>("SoftMax", loc, *bw, dstTensor, sumTensor, maxTensor);
    leave.Modelled();
  }
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename D, typename U>
void SoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<U>& sumTensor,
             const LocalTensor<U>& maxTensor, const LocalTensor<D>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, sumTensor, maxTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), tiling,
      softmaxShapeInfo, loc);
}

// Without sum/max outputs.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {},
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  sd::LeaveWorkBuffer leave("SoftMax", loc, sharedTmpBuffer);
  // SoftMaxNDImpl without statistics: membase runs SingleSoftMaxImpl for any isBasicBlock (the
  // generic row sums); 3510 takes its basic-block path (SoftMaxGenericNDImpl) with isBasicBlock.
  sd::Dims d = LNGRAD_SOFTMAX_DIMS(srcTensor);
  const bool basic = isBasicBlock && sd::RegBase();
  if (basic) sd::RefuseBasicK("SoftMax", d);
  const bool reuse = isReuseSource && std::is_same_v<T, float> && sd::ReusesSource();
  // The tiling the kernel runs: its re-tile takes float statistics (8 per row).
  const SoftMaxTiling kt = sd::SoftMaxKernelTiling("SoftMax", tiling, d, softmaxShapeInfo,
                                                   sharedTmpBuffer, sizeof(T), 4, isBasicBlock);
  if constexpr (config.oriSrcM != 0 && config.oriSrcK != 0) {
    // The constant-shape config on 2201 (no basic-block choice here): the generic config path.
    constexpr sd::CfgShape cfg{config.oriSrcM, config.oriSrcK};
    const sd::CfgRun run{cfg, std::is_same_v<T, half> ? 16u : 8u, kt.reduceK};
    sd::CheckConfigDefect("SoftMax", false, true, kt, d, cfg.k);  // the wraps, checked mode
    bool modelled = false;
    if (cfg.Set() && sd::ConfigRows<T, T>("SoftMax", run, d, kt, dstTensor, nullptr, nullptr,
                                          srcTensor, &sharedTmpBuffer, loc, reuse, &modelled)) {
      if (modelled) leave.Modelled();
      return;
    }
  }
  d.m = sd::GenericSplitRows("SoftMax", "dstTensor", tiling, kt, d);
  // SingleSoftMaxImpl's work buffer on 2201 and 2002 (softmax_work.h, softmax_v200_work.h; any
  // isBasicBlock); elsewhere marked. (On 2201 the config's generic path as above:
  // SingleSoftMaxImpl's loop with oriK the config's; 2002 does not read the config.)
  // The splits the 2002 sequence gets wrong: as with statistics (V200Defect, V200Store); the
  // 2201 ones as well (CheckV220Defect, SoftMaxWorkV220).
  sd::CheckV220Defect("SoftMax", true, kt, d);
  sd::RowExps rowExps;
  sd::V200Device dev;
  if (sd::SoftMaxWorkV220<T, T>("SoftMax", loc, kt, d, srcTensor, nullptr, nullptr, sharedTmpBuffer,
                                false, &rowExps) ||
      sd::SoftMaxWorkV200<T, T>("SoftMax", loc, kt, d, srcTensor, nullptr, nullptr, sharedTmpBuffer,
                                false, &dev)) {
    leave.Modelled();
  }
  sd::SoftMaxRows<T, T>("SoftMax", false, sd::Finish::kDiv, dstTensor, nullptr, nullptr, srcTensor,
                        &sharedTmpBuffer, sd::WithSplits(sd::RegBasicDims(basic, d), kt), loc,
                        reuse, &rowExps);
  sd::V200Store<T, T>(dev, dstTensor, nullptr, nullptr);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SoftMax<T, isReuseSource, isBasicBlock, config>(
      dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), tiling, softmaxShapeInfo, loc);
}

// Rows whose max equals the bit pattern `from` get every element set to `to`; true when some
// row did (softmax_common_impl.h AdjustSoftMaxResBaseImpl; NZ: AdjustSoftMaxResNZImpl; NZ on
// 3510: regbase/3510/softmax_impl.h's AdjustSoftMaxResNZImpl, AdjustNzReg in softmax_nz.h).
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                      const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo,
                      lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  const uint32_t m = softmaxShapeInfo.srcM, k = softmaxShapeInfo.srcK;
  if (isDataFormatNZ && sd::RegBase()) {
    return sd::AdjustNzReg<T1, T2>(softMaxRes, maxTensor, from, to, m, k, loc);
  }
  // NZ (AdjustSoftMaxResNZImpl): the max of row r at r * 32 bytes whatever stepSizeMode; the
  // row's 16 columns of every fractal are set.
  const uint32_t lanes = (stepSizeMode == 0 || isDataFormatNZ) ? sd::Lanes<T2>() : 1;
  const uint64_t n = uint64_t{m} * k, s = uint64_t{m} * lanes;
  sd::CheckRows("AdjustSoftMaxRes",
                {lngrad::aicore::math_detail::Op(softMaxRes, "softMaxRes"),
                 lngrad::aicore::math_detail::Op(maxTensor, "maxTensor")},
                {n, s});
  sd::RecordCall("AdjustSoftMaxRes", loc,
                 {sd::Rd(maxTensor, s), sd::Rd(softMaxRes, n), sd::Wr(softMaxRes, n)});
  bool any = false;
  for (uint32_t r = 0; r < m; ++r) {
    uint32_t bits = 0;
    std::memcpy(&bits, maxTensor.HostPtr() + uint64_t{r} * lanes, sizeof(T2));
    if (bits != (sizeof(T2) == 2 ? (from & 0xFFFFu) : from)) continue;
    any = true;
    for (uint32_t j = 0; j < k; ++j) {
      const uint64_t at = isDataFormatNZ ? sd::NzDims{m, m, k, k}.At(r, j) : uint64_t{r} * k + j;
      softMaxRes.HostPtr()[at] = to;
    }
  }
  return any;
}

}  // namespace AscendC
