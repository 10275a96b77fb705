// lngrad: SoftmaxFlashV3 (T = half data, U = float statistics) — the toolkit's
// adv_api/activation/softmaxflashv3.h. Algorithm of membase/v220/softmax_flashv3_impl.h, in float,
// row by row (sc = alpha / (1 - alpha) rounded to float, baseK = oriSrcK / splitMeanCnt):
//  1. the 64-lane accumulator of the row (BlockReduceSum of the first 512 elements, then the
//     further 64-element chunks and the tail added), its eight block sums L_j times (1/baseK),
//     G = tree(L) times (1/8); x[c] -= (G - L_j) * sc for c in segment j = c / baseK;
//  2. update: mean = (inMean * (loopCnt - 1) + G) * (1/loopCnt); else mean = G;
//  3. shiftCurr = (G - mean) * sc, max = rowmax(x) + shiftCurr; update: shiftPrev =
//     (inMean - mean) * sc, max = Max(max, inMax + shiftPrev), expMax = exp(shiftPrev + (inMax -
//     max)), expSum = expMax * inExpSum;
//  4. dst = exp(x - (max - shiftCurr)) (rounded to half), expSum = (expSum +) rowsum.
// The statistics are read and written in this order in memory, lane by lane (column c uses lane
// ColumnLane(c)), so outputs that alias inputs behave as on the device (the toolkit's sample passes
// mean/expSum/max as both). Checked mode refuses what the toolkit's kernel check asserts
// (CheckFlashV3Params: splitMeanCnt other than 8, srcM != oriSrcM, srcK != oriSrcK, srcK below 512
// or not a multiple of 64, and on 3510 srcM not a multiple of 8); outside it the 2201/2002 path
// computes other counts with each row's own shifts. Arch 2002 (membase/v200) asserts that it is not
// supported: checked mode refuses (product), unchecked nothing is written. On 3510 the register
// code's phases, with the tiling's srcM and srcK and any splitMeanCnt (FlashV3RowsReg, below).
// On 2201 the kernel runs the tiling as given (no re-tile; srcM not read): a tiling not of
// SoftMaxFlashV3TilingFunc's per-split form, or whose splits cover other than srcM rows, is
// refused in checked mode (softmax_device_defect, RefuseFlashV3Tiling); unchecked, splits
// covering fewer rows compute those rows only (none: nothing written), the others get lngrad's
// rows over srcM with the buffer marked. An all-zero tiling (`SoftMaxTiling t;`: rangeM and
// tailM 0, the kernel's split loop runs 0 times) is one whose splits cover no rows: refused in
// checked mode, unchecked nothing is written; on 3510 a tiling of srcM 0 likewise
// (RequireRegV3Shape), and one of other rows than params.srcM is refused in checked mode
// (softmax_device_defect, RefuseRegV3Rows), unchecked the tiling's rows computed.
#pragma once

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax.h"
#include "lib/activation/softmax_flashv3_scratch.h"
#include "lib/activation/softmax_flashv2_paths.h"

namespace lngrad::aicore::softmax_detail {

template <typename T, typename U>
struct FlashV3Args {
  const AscendC::LocalTensor<T>& dst;
  const AscendC::LocalTensor<U>& mean;
  const AscendC::LocalTensor<U>& expSum;
  const AscendC::LocalTensor<U>& max;
  const AscendC::LocalTensor<T>& src;
  const AscendC::LocalTensor<T>& expMax;
  const AscendC::LocalTensor<U>& inMean;
  const AscendC::LocalTensor<U>& inExpSum;
  const AscendC::LocalTensor<U>& inMax;
};

// Step 1: G and the per-segment shifts applied to x.
inline float FlashV3Center(std::vector<float>& x, uint32_t oriK, uint32_t segments, float sc) {
  float acc[kLanes];
  for (uint32_t i = 0; i < kLanes; ++i) acc[i] = Tree8(x.data() + 8 * i);
  const uint32_t blocks = oriK / kLanes, tail = oriK % kLanes;
  for (uint32_t b = 8; b < blocks; ++b) {
    for (uint32_t j = 0; j < kLanes; ++j) acc[j] = x[b * kLanes + j] + acc[j];
  }
  for (uint32_t j = 0; j < tail; ++j) acc[j] = acc[j] + x[blocks * kLanes + j];
  const uint32_t baseK = oriK / segments;
  const float inv = 1.0f / static_cast<float>(baseK);
  float local[8];
  for (uint32_t j = 0; j < 8; ++j) local[j] = Tree8(acc + 8 * j) * inv;
  const float g = Tree8(local) * (1.0f / 8.0f);
  for (uint32_t j = 0; j < segments && j < 8; ++j) {
    const float shift = (g - local[j]) * sc;
    for (uint32_t c = j * baseK; c < (j + 1) * baseK && c < x.size(); ++c) x[c] = x[c] - shift;
  }
  return g;
}

// Steps 2-4 for row r; every statistic lane by lane (the device's Muls, Add, Sub, Max and Exp
// run over the [rows, 32 B] blocks; column c of x subtracts lane ColumnLane(c)), each op a pass
// over the row's lanes in the source's order.
template <typename T, typename U>
void FlashV3Row(bool update, const FlashV3Args<T, U>& a, const AscendC::SoftMaxParams& p,
                const Dims& d, uint32_t r, std::vector<float>& x, FlashV3Kept* keep = nullptr,
                bool meanCopied = true) {
  constexpr uint32_t kL = Lanes<U>();
  const uint64_t o = uint64_t{r} * kL;
  U* mean = a.mean.HostPtr() + o;
  U* max = a.max.HostPtr() + o;
  U* expSum = a.expSum.HostPtr() + o;
  const U* inMean = a.inMean.HostPtr() + o;
  const U* inMax = a.inMax.HostPtr() + o;
  const float sc = p.alpha / (1.0f - p.alpha);
  LoadRow(x, a.src.HostPtr() + uint64_t{r} * d.k, d.k);
  const uint32_t k = d.oriK;
  const float g = FlashV3Center(x, k, p.splitMeanCnt, sc);
  const float cnt = static_cast<float>(p.loopCnt);
  for (uint32_t j = 0; j < kL; ++j) {
    if (update) {
      mean[j] = Narrow<U>((Widen(inMean[j]) * (cnt - 1.0f) + g) * (1.0f / cnt));
    } else if (meanCopied) {
      mean[j] = Narrow<U>(g);
    }
  }
  const float rmax = FlashRowMax(x.data(), k, d, r, true);
  float shiftCurr[kL], shiftPrev[kL], em[kL] = {};
  for (uint32_t j = 0; j < kL; ++j) {
    shiftCurr[j] = (g - Widen(mean[j])) * sc;
    max[j] = Narrow<U>(rmax + shiftCurr[j]);
  }
  if (update) {
    float prev[kL];
    for (uint32_t j = 0; j < kL; ++j) {
      shiftPrev[j] = (Widen(inMean[j]) - Widen(mean[j])) * sc;
      prev[j] = Widen(inMax[j]) + shiftPrev[j];
    }
    for (uint32_t j = 0; j < kL; ++j) {
      max[j] = Widen(max[j]) > prev[j] ? max[j] : Narrow<U>(prev[j]);
    }
    for (uint32_t j = 0; j < kL; ++j)
      em[j] = ExpOf(shiftPrev[j] + (Widen(inMax[j]) - Widen(max[j])));
    for (uint32_t j = 0; keep != nullptr && j < kL && j < 8; ++j) {
      keep->shiftPrev[j] = shiftPrev[j];
      keep->em[j] = em[j];
    }
    for (uint32_t j = 0; j < kL; ++j) {
      expSum[j] = Narrow<U>(em[j] * Widen(a.inExpSum.HostPtr()[o + j]));
    }
  }
  for (uint32_t j = 0; keep != nullptr && j < kL && j < 8; ++j) {
    keep->cur[j] = shiftCurr[j];
    keep->max[j] = Widen(max[j]);
  }
  for (uint32_t j = 0; j < kL; ++j) shiftCurr[j] = Widen(max[j]) - shiftCurr[j];
  for (uint32_t c = 0; c < d.k; ++c) x[c] = x[c] - shiftCurr[ColumnLane(c) % kL];
  ExpInPlace(x);
  StoreRow(a.dst.HostPtr() + uint64_t{r} * d.k, x);
  const float s = RowSum(x.data(), k, false);
  for (uint32_t j = 0; j < kL; ++j) expSum[j] = Narrow<U>(update ? Widen(expSum[j]) + s : s);
  for (uint32_t l = 0; update && l < Lanes<T>(); ++l) {
    a.expMax.HostPtr()[uint64_t{r} * Lanes<T>() + l] = Narrow<T>(em[ExpMaxLane(l, kL, Lanes<T>())]);
  }
}

// Checked mode: what the toolkit's kernel check of SoftmaxFlashV3 asserts (invalid_count;
// softmax_flashv3_check_common.h on 2201/2002, _aicore.h on 3510): params.srcM == oriSrcM and
// srcK == oriSrcK (the kernel has no padding: it reduces the tiling's srcK columns of srcM rows),
// srcK at least 512 and a multiple of 64, loopCnt >= 1 with isUpdate, splitMeanCnt = 8 (the page
// supports 8 only; 3510 reads the shifts at row * splitMeanCnt, another row's for other counts),
// and on 3510 srcM a multiple of 8.
inline void CheckFlashV3Params(const char* api, const AscendC::SoftMaxParams& p, bool update) {
  if (!CheckedMode()) return;
  const auto refuse = [&](const std::string& what) {
    RaiseKernelCheck(checks::kInvalidCount, std::string(api) + ": " + what);
  };
  const auto num = [](uint32_t v) { return std::to_string(v); };
  if (p.srcM != p.oriSrcM || p.srcK != p.oriSrcK) {
    refuse("params.srcM, srcK (" + num(p.srcM) + ", " + num(p.srcK) + ") must equal oriSrcM, " +
           "oriSrcK (" + num(p.oriSrcM) + ", " + num(p.oriSrcK) + ")");
  }
  if (p.srcK < 512 || p.srcK % kLanes != 0) {
    refuse("params.srcK (" + num(p.srcK) + ") must be >= 512 and a multiple of 64");
  }
  if (update && p.loopCnt == 0) refuse("params.loopCnt must be >= 1 with isUpdate");
  if (p.splitMeanCnt != 8) {
    refuse("params.splitMeanCnt is " + num(p.splitMeanCnt) + "; only 8 is supported");
  }
  if (RegBase() && p.srcM % 8 != 0) {
    refuse("params.srcM (" + num(p.srcM) + ") must be a multiple of 8 on this arch");
  }
}

// ---- 3510 (regbase/3510/softmax_flashv3_impl.h, SoftmaxFlashV3Process) ----
// The register code takes srcM and srcK from the tiling (the params give splitMeanCnt, loopCnt
// and alpha only) and runs in phases over all rows, the work buffer between them (workUb: 64
// floats a row, then newSrc: srcK a row):
//  1-2. per row: the block sums of chunks 0..7 (ReduceSumWithDataBlock; always eight chunks)
//       as a 64-lane register, plus the chunks from splitMeanCnt on (srcK / 64 - splitMeanCnt of
//       them) lane by lane;
//  3.   per row: L_b = tree8(lanes 8b..8b+7) * (1 / baseK), baseK = srcK / splitMeanCnt; G =
//       tree8(L) * (1 / splitMeanCnt) (no update: stored as mean); shift_b = (G - L_b) * sc stored
//       at workUb + row * 8 (sc = alpha / (1 - alpha));
//  4.   per row: (update: inMean read, mean = (inMean * (loopCnt - 1) + G) * (1 / loopCnt)
//       stored) segment j of baseK columns takes the shift at workUb[row * splitMeanCnt + j] (for
//       counts other than 8 another row's, or phase 2's sums), newSrc = x - shift, the row max
//       lane by lane over each segment's registers (lane l: column j * baseK + 64 k + l), then
//       ReduceMax's tree; no update: max stored; update: cur = (G - mean) * sc, prev = (inMean -
//       mean) * sc, inMax read, max = Max(inMax + prev, cur + rowmax) stored, m = max - cur,
//       em = exp((inMax + prev) - m), inExpSum read, expSum = em * inExpSum stored, expMax lane l
//       = em lane l / 2;
//  5.   per row: m (no update: read back from maxTensor), dst = exp(newSrc - m) over srcK / 64
//       registers, expSum = (expSum read back +) the row sum.
struct RegV3 {
  uint32_t m, k, smc, baseK, kRep, baseKRep;
  float sc, r0, r1, r2, r3;
};

// Phases 1-3; g: G per row; work: the shifts at row * 8 (phase 2's sums past them).
inline void RegV3Means(const half* src, const RegV3& c, float* mean, std::vector<float>& work,
                       std::vector<float>& g) {
  for (uint32_t i = 0; i < c.m; ++i) {
    for (uint32_t lane = 0; lane < kLanes; ++lane) {  // chunk lane / 8, block lane % 8
      float b[8];
      const half* p = src + uint64_t{i} * c.k + (lane / 8) * kLanes + (lane % 8) * 8;
      for (uint32_t e = 0; e < 8; ++e) b[e] = Widen(p[e]);
      work[uint64_t{i} * kLanes + lane] = Tree8(b);
    }
  }
  for (uint32_t i = 0; i < c.m; ++i) {
    float* acc = work.data() + uint64_t{i} * kLanes;
    for (uint32_t j = c.smc; j < c.kRep; ++j) {
      const half* p = src + uint64_t{i} * c.k + j * kLanes;
      for (uint32_t l = 0; l < kLanes; ++l) acc[l] = Widen(p[l]) + acc[l];
    }
  }
  for (uint32_t i = 0; i < c.m; ++i) {
    float local[8];
    for (uint32_t b = 0; b < 8; ++b)
      local[b] = Tree8(work.data() + uint64_t{i} * kLanes + 8 * b) * c.r0;
    g[i] = Tree8(local) * c.r1;
    if (mean != nullptr) PutStat(mean, i, g[i]);
    for (uint32_t b = 0; b < 8; ++b) work[uint64_t{i} * 8 + b] = (g[i] - local[b]) * c.sc;
  }
}

// Phase 4's segments of row i: newSrc and the row max.
inline float RegV3Shift(const half* src, const RegV3& c, uint32_t i, const std::vector<float>& work,
                        std::vector<float>& newSrc) {
  float acc[kLanes];
  for (float& v : acc) v = -INFINITY;
  for (uint32_t j = 0; j < c.smc; ++j) {
    const float sh = work[uint64_t{i} * c.smc + j];
    for (uint32_t r = 0; r <= c.baseKRep; ++r) {
      const uint32_t n = r < c.baseKRep ? kLanes : c.baseK - c.baseKRep * kLanes;
      const uint64_t at = uint64_t{i} * c.k + j * c.baseK + r * kLanes;
      for (uint32_t l = 0; l < n; ++l) {
        newSrc[at + l] = Widen(src[at + l]) - sh;
        acc[l] = RegMax(acc[l], newSrc[at + l]);
      }
    }
  }
  for (uint32_t w = kLanes / 2; w >= 1; w /= 2) {
    for (uint32_t l = 0; l < w; ++l) acc[l] = RegMax(acc[2 * l], acc[2 * l + 1]);
  }
  return acc[0];
}

// Phase 4's update statistics of row i (8 lanes, each op over them in the source's order);
// returns max - cur.
inline float RegV3Update(const FlashV3Args<half, float>& a, const RegV3& c, uint32_t i, float g,
                         float rowMax) {
  constexpr uint32_t kL = 8;
  const uint64_t o = uint64_t{i} * kL;
  float* mean = a.mean.HostPtr() + o;
  float* max = a.max.HostPtr() + o;
  float* expSum = a.expSum.HostPtr() + o;
  float inMean[kL], shift[kL], cur[kL], prev[kL], pm[kL], mx[kL], em[kL];
  for (uint32_t l = 0; l < kL; ++l) inMean[l] = a.inMean.HostPtr()[o + l];
  for (uint32_t l = 0; l < kL; ++l) shift[l] = (inMean[l] * c.r2 + g) * c.r3;
  for (uint32_t l = 0; l < kL; ++l) mean[l] = shift[l];
  for (uint32_t l = 0; l < kL; ++l) {
    cur[l] = (g - shift[l]) * c.sc;
    prev[l] = (inMean[l] - shift[l]) * c.sc;
    mx[l] = cur[l] + rowMax;
  }
  for (uint32_t l = 0; l < kL; ++l) pm[l] = a.inMax.HostPtr()[o + l] + prev[l];
  for (uint32_t l = 0; l < kL; ++l) mx[l] = RegMax(pm[l], mx[l]);
  for (uint32_t l = 0; l < kL; ++l) max[l] = mx[l];
  for (uint32_t l = 0; l < kL; ++l) em[l] = ExpOf(pm[l] - (mx[l] - cur[l]));
  float es[kL];
  for (uint32_t l = 0; l < kL; ++l) es[l] = em[l] * a.inExpSum.HostPtr()[o + l];
  for (uint32_t l = 0; l < kL; ++l) expSum[l] = es[l];
  for (uint32_t l = 0; l < 2 * kL; ++l)
    a.expMax.HostPtr()[uint64_t{i} * 2 * kL + l] = Narrow<half>(em[l / 2]);
  return mx[0] - cur[0];
}

// Checked or not: the tiling shapes lngrad follows there (no rows: nothing runs; else srcK at
// least 512 and a multiple of 64, splitMeanCnt from 1 to min(64, srcK / 64) dividing srcK).
// Others make the device's chunk counts wrap or read scratch lngrad does not hold (checked mode
// refuses splitMeanCnt other than 8 before, as the kernel check asserts). A tiling of srcM 0 (an
// all-zero one included): the register code computes no rows; checked mode refuses it
// (softmax_device_defect), unchecked nothing is written.
inline void RequireRegV3Shape(const char* api, const RegV3& c) {
  if (c.m == 0 && CheckedMode()) {
    RaiseKernelCheck(checks::kSoftmaxDeviceDefect,
                     std::string(api) +
                         ": tiling.srcM is 0 (an all-zero SoftMaxTiling "
                         "included): the kernel computes no rows with this "
                         "tiling; call SoftMaxFlashV3TilingFunc for the shape");
  }
  if (c.m == 0) return;
  if (c.k >= 512 && c.k % kLanes == 0 && c.smc >= 1 && c.smc <= kLanes && c.smc <= c.kRep &&
      c.k % c.smc == 0) {
    return;
  }
  RaiseKernelCheck(checks::kInvalidCount,
                   std::string(api) + ": tiling.srcK " + std::to_string(c.k) +
                       " with splitMeanCnt " + std::to_string(c.smc) +
                       " is not modelled (srcK >= 512, a multiple of 64; splitMeanCnt dividing "
                       "it, at most 64 and srcK / 64)");
}

// Checked mode on 3510: the register code runs tiling.srcM rows (SoftmaxFlashV3Process reads
// srcM from the tiling, not the params), so a tiling of other rows than params.srcM (above 0;
// 0: RequireRegV3Shape) is refused before anything is written (softmax_device_defect): fewer
// leave the call's last rows as they were, more compute rows past the call's. Unchecked, the
// tiling's rows are computed (FlashV3RowsReg), the others untouched, as on the device.
inline void RefuseRegV3Rows(const char* api, const RegV3& c, uint32_t rows) {
  if (!CheckedMode() || c.m == 0 || c.m == rows) return;
  RaiseKernelCheck(
      checks::kSoftmaxDeviceDefect,
      std::string(api) + ": tiling.srcM " + std::to_string(c.m) + " with params.srcM " +
          std::to_string(rows) +
          ": the 3510 kernel (SoftmaxFlashV3Process) computes the tiling's rows only" +
          (c.m < rows ? ", the call's last rows left as they were" : ", past the call's rows") +
          "; call SoftMaxFlashV3TilingFunc with the call's shape");
}

inline RegV3 RegV3Of(const AscendC::SoftMaxParams& p, const AscendC::tiling::SoftMaxTiling& t) {
  RegV3 c{};
  c.m = static_cast<uint16_t>(t.srcM);
  c.k = static_cast<uint16_t>(t.srcK);
  c.smc = static_cast<uint16_t>(p.splitMeanCnt);
  c.baseK = c.smc != 0 ? c.k / c.smc : 0;
  c.kRep = c.k / kLanes;
  c.baseKRep = (c.baseK + kLanes - 1) / kLanes - 1;
  c.sc = p.alpha / (1 - p.alpha);
  c.r0 = 1.0f / static_cast<float>(c.baseK);
  c.r1 = 1.0f / static_cast<float>(c.smc);
  c.r2 = static_cast<float>(p.loopCnt) - 1.0f;
  c.r3 = 1.0f / static_cast<float>(p.loopCnt);
  return c;
}

inline void FlashV3RowsReg(bool update, const FlashV3Args<half, float>& a, const RegV3& c) {
  const half* src = a.src.HostPtr();
  std::vector<float> work(uint64_t{c.m} * kLanes), g(c.m), newSrc(uint64_t{c.m} * c.k), m(c.m);
  RegV3Means(src, c, update ? nullptr : a.mean.HostPtr(), work, g);
  for (uint32_t i = 0; i < c.m; ++i) {
    if (update) {
      m[i] = RegV3Update(a, c, i, g[i], RegV3Shift(src, c, i, work, newSrc));
    } else {
      PutStat(a.max.HostPtr(), i, RegV3Shift(src, c, i, work, newSrc));
    }
  }
  for (uint32_t i = 0; i < c.m; ++i) {
    const float mx = update ? m[i] : a.max.HostPtr()[uint64_t{i} * 8];
    float acc[kLanes] = {};
    for (uint32_t r = 0; r < c.kRep; ++r) {
      const uint64_t at = uint64_t{i} * c.k + r * kLanes;
      for (uint32_t l = 0; l < kLanes; ++l) {
        const float d = ExpOf(newSrc[at + l] - mx);
        a.dst.HostPtr()[at + l] = Narrow<half>(d);
        acc[l] = acc[l] + d;
      }
    }
    const float s = ScalarTree64(acc, kLanes);
    float* es = a.expSum.HostPtr() + uint64_t{i} * 8;
    for (uint32_t l = 0; l < 8; ++l) es[l] = update ? es[l] + s : s;
  }
}

// Without update the 2201 kernel copies each split's meanTmp into meanTensor by one Copy in Normal
// mode with mask reduceSize and one repeat: at most 64 floats, the first 8 rows of the split (the
// kit's debug build asserts a larger mask, CheckMaskValue); rows past them keep what meanTensor
// held, and ModifyMaxImpl's shiftCurr reads that. Row r of tiling t: whether its mean is copied.
inline bool MeanCopied(const AscendC::tiling::SoftMaxTiling& t, uint32_t r) {
  if (t.splitM == 0 || t.reduceK == 0) return true;
  const uint64_t full = uint64_t{t.rangeM} * t.splitM;
  const uint64_t inSplit = r < full ? r % t.splitM : r - full;
  return inSplit * t.reduceK < kLanes;
}

// Checked mode (2201 without update): that Copy's mask, the split's reduceSize (the tail split's
// tailReduceSize), must lie in [1, 64] as the kit's CheckMaskValue asserts for a Normal-mode float
// mask (vector_mask, the name lngrad's Copy gives it); unchecked lngrad follows the device.
inline void RefuseMeanCopyMask(const char* api, const AscendC::tiling::SoftMaxTiling& t) {
  if (!CheckedMode()) return;
  const uint32_t masks[2] = {t.rangeM != 0 ? t.reduceSize : 0, t.tailM != 0 ? t.tailReduceSize : 0};
  for (const uint32_t mask : masks) {
    if (mask <= kLanes) continue;
    RaiseKernelCheck(checks::kVectorMask,
                     std::string(api) + ": without update each split's mean is copied by one " +
                         "Normal-mode Copy of mask reduceSize = " + std::to_string(mask) +
                         " floats (tiling.splitM above 8); a float mask must be at most 64 " +
                         "(the kit's CheckMaskValue asserts)");
  }
}

// The rows the 2201 kernel computes with tiling t (it reads splitM, rangeM, tailM, srcK, splitK,
// reduceK, reduceM and the sizes, not srcM; there is no re-tile) when t has
// SoftMaxFlashV3TilingFunc's per-split form for d (srcK = splitK = d.k, reduceK 8, reduceM =
// splitM, sizes splitM d.k and 8 splitM, the tail's likewise); -1 where it has not.
inline int64_t FlashV3Covered(const AscendC::tiling::SoftMaxTiling& t, const Dims& d) {
  const uint64_t rows = uint64_t{t.rangeM} * t.splitM + t.tailM;
  if (t.rangeM == 0 && t.tailM == 0) return 0;  // no split runs (an all-zero tiling included)
  const bool form = t.srcK == d.k && t.splitK == d.k && t.reduceK == 8 && t.reduceM == t.splitM &&
                    t.splitM != 0 && t.splitSize == uint64_t{t.splitM} * d.k &&
                    t.reduceSize == t.splitM * 8u && t.tailSplitSize == uint64_t{t.tailM} * d.k &&
                    t.tailReduceSize == t.tailM * 8u;
  return form ? static_cast<int64_t>(rows) : -1;
}

// Checked mode on 2201: refuses a tiling whose splits compute other rows than the call's
// (softmax_device_defect) before anything is written: one not of that form (the kit's sequence
// indexes the statistics and rows by the tiling's sizes, not the tensors' [rows, 32 B] and srcK),
// or splits covering fewer or more rows than srcM (rows left unwritten, or written past the
// tensors). Unchecked: splits covering fewer rows compute those rows (the others untouched), a
// tiling not of the form or covering more rows gets lngrad's rows over srcM (buffer marked).
inline void RefuseFlashV3Tiling(const char* api, const AscendC::tiling::SoftMaxTiling& t,
                                const Dims& d) {
  const int64_t rows = FlashV3Covered(t, d);
  if (!CheckedMode() || rows == static_cast<int64_t>(d.m)) return;
  const std::string shape = "srcShape {" + std::to_string(d.m) + ", " + std::to_string(d.k) + "}";
  if (rows == 0) {
    RaiseKernelCheck(checks::kSoftmaxDeviceDefect,
                     std::string(api) + ": " + shape +
                         " with a tiling whose rangeM and tailM are 0 (an all-zero SoftMaxTiling "
                         "included): the kernel computes no rows with this tiling (its split loop "
                         "runs 0 times); call SoftMaxFlashV3TilingFunc for the shape");
  }
  RaiseKernelCheck(
      checks::kSoftmaxDeviceDefect,
      std::string(api) + ": " + shape +
          (rows < 0
               ? " with a tiling not of SoftMaxFlashV3TilingFunc's form (srcK = splitK = "
                 "srcK of the shape, reduceK 8, reduceM = splitM, splitSize = splitM * srcK, "
                 "reduceSize = 8 splitM, the tail's likewise): the kernel indexes the rows and "
                 "statistics by the tiling's sizes, not the tensors'"
               : " with a tiling whose splits cover " + std::to_string(rows) +
                     " rows (rangeM * splitM + tailM): the kernel computes those rows only" +
                     (rows > d.m ? ", past the tensors" : ", the others left as they were")) +
          "; use SoftMaxFlashV3TilingFunc for the shape");
}

template <typename T, typename U>
void FlashV3Rows(bool update, const FlashV3Args<T, U>& a, const AscendC::SoftMaxParams& p,
                 const AscendC::tiling::SoftMaxTiling& t, const AscendC::LocalTensor<uint8_t>* tmp,
                 SrcLoc loc, FlashWorkBuffer* leave = nullptr) {
  const char* api = "SoftmaxFlashV3";
  const Dims pd{p.srcM, p.srcK, p.oriSrcK != 0 ? p.oriSrcK : p.srcK};
  CheckShape<T>(api, pd);
  CheckFlashV3Params(api, p, update);
  const RegV3 c = RegV3Of(p, t);
  if (RegBase()) RequireRegV3Shape(api, c);
  if (RegBase()) RefuseRegV3Rows(api, c, p.srcM);
  // 3510 computes the tiling's rows and columns (the params' are the kernel check's).
  const Dims d = RegBase() ? Dims{c.m, c.k, c.k} : pd;
  namespace md = math_detail;
  for (const Dims& e : {pd, d}) {
    const uint64_t en = uint64_t{e.m} * e.k, es = uint64_t{e.m} * Lanes<U>();
    CheckRows(api,
              {md::Op(a.dst, "dstTensor"), md::Op(a.src, "srcTensor"), md::Op(a.mean, "meanTensor"),
               md::Op(a.expSum, "expSumTensor"), md::Op(a.max, "maxTensor")},
              {en, en, es, es, es});
    if (update) {
      CheckRows(api,
                {md::Op(a.expMax, "expMaxTensor"), md::Op(a.inMean, "inMeanTensor"),
                 md::Op(a.inExpSum, "inExpSumTensor"), md::Op(a.inMax, "inMaxTensor")},
                {uint64_t{e.m} * Lanes<T>(), es, es, es});
    }
  }
  if (tmp != nullptr) {
    CheckTmp(api, *tmp, (uint64_t{Lanes<U>()} * 5 + 2 * uint64_t{d.k} + kLanes) * 4);
  }
  if (detail::rep::RunningArch() == NpuArch::k2002) {
    // membase/v200/softmax_flashv3_impl.h: SoftmaxFlashV3Process asserts "not supported on
    // current device" (the page: Atlas inference products not supported) and computes nothing.
    if (CheckedMode()) {
      RaiseKernelCheck(checks::kProduct, std::string(api) +
                                             ": not supported on arch 2002 (Atlas inference "
                                             "products); the kit's 2002 kernel asserts");
    }
    if (leave != nullptr) leave->Modelled();  // nothing written, the buffer included
    return;
  }
  if (!RegBase()) RefuseFlashV3Tiling(api, t, d);
  if (!RegBase() && !update) RefuseMeanCopyMask(api, t);
  // The splits whose 2201 NewReduce{Max,Sum}LastNDImpl operands wrap (srcK from 512: only
  // BigBlockReduce's count, oriSrcK from 16896): refused in checked mode (softmax_v200_work.h
  // CheckV220Defect; rows of d.k, the tiling's splits or, without them, all the rows); unchecked
  // lngrad's rows stand.
  AscendC::tiling::SoftMaxTiling split = t;
  split.splitM = t.splitM != 0 ? t.splitM : d.m;
  split.splitK = d.k;
  CheckV220Defect(api, true, split, d);
  // 2201 unchecked, splits covering fewer rows (RefuseFlashV3Tiling): those rows only, as the
  // kernel computes them.
  const int64_t covered = RegBase() ? -1 : FlashV3Covered(t, d);
  const Dims dc{covered >= 0 && covered < d.m ? static_cast<uint32_t>(covered) : d.m, d.k, d.oriK};
  const uint64_t n = uint64_t{dc.m} * d.k, s = uint64_t{dc.m} * Lanes<U>();
  const uint64_t se = uint64_t{dc.m} * Lanes<T>();
  RecordCall(api, loc,
             {Rd(a.src, n), Rd(a.inMean, update ? s : 0), Rd(a.inExpSum, update ? s : 0),
              Rd(a.inMax, update ? s : 0), Wr(a.dst, n), Wr(a.mean, s), Wr(a.expSum, s),
              Wr(a.max, s), Wr(a.expMax, update ? se : 0)});
  if (RegBase()) {
    FlashV3RowsReg(update, a, c);
    return;
  }
  // 2201: the work buffer as the kit leaves it (softmax_flashv3_scratch.h).
  const AscendC::LocalTensor<uint8_t> none;
  FlashV3Scratch sc(tmp != nullptr && std::is_same_v<T, half> && std::is_same_v<U, float>,
                    tmp != nullptr ? *tmp : none, t, dc, update, p.splitMeanCnt, p.alpha);
  if (covered == 0 && dc.m == 0) {  // no split runs: nothing written, the buffer included
    if (leave != nullptr) leave->Modelled();
    return;
  }
  if constexpr (std::is_same_v<T, half> && std::is_same_v<U, float>) {
    sc.Begin(a.src.HostPtr(), a.expSum.HostPtr());
  }
  std::vector<float> x;
  for (uint32_t r = 0; r < dc.m; ++r) {
    FlashV3Row(update, a, p, WithSplits(d, t), r, x, sc.Row(r), MeanCopied(t, r));
  }
  sc.Finish(api, loc);
  if (sc.Active() && leave != nullptr) leave->Modelled();
}

}  // namespace lngrad::aicore::softmax_detail

namespace AscendC {

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxParams& params,
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  sd::FlashWorkBuffer leave("SoftmaxFlashV3", loc, sharedTmpBuffer);
  static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>,
                "SoftmaxFlashV3: T must be half and U float");
  sd::RefuseNz<isDataFormatNZ>("SoftmaxFlashV3");
  // 2201/2002: the split is the kernel's own (rows are independent); 3510 takes srcM and srcK
  // from the tiling.
  sd::FlashV3Rows<T, U>(isUpdate,
                        {dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                         inMeanTensor, inExpSumTensor, inMaxTensor},
                        params, tiling, &sharedTmpBuffer, loc, &leave);
}

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxParams& params,
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SoftmaxFlashV3<T, U, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor,
      inExpSumTensor, inMaxTensor, lngrad::aicore::math_detail::StackTmp(), tiling, params, loc);
}

}  // namespace AscendC
