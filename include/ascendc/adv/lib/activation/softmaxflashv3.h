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
// or not a multiple of 64, and on 3510 srcM not a multiple of 8); outside it lngrad computes other
// counts with each row's own shifts (not the device's). On 3510
// (regbase/3510/softmax_flashv3_impl.h): the sums over srcK (RegRowSum), G times 1/splitMeanCnt,
// expMax = exp((inMax + shiftPrev) - (max - shiftCurr)), inMean and inMax read before the
// statistics are stored, expMax's half lanes l from l / 2.
#pragma once

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax.h"

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
  // 3510: the mean of the eight block sums times 1/splitMeanCnt (the register code's r1).
  const float g = Tree8(local) * (1.0f / static_cast<float>(RegBase() ? segments : 8));
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
                const Dims& d, uint32_t r, std::vector<float>& x) {
  constexpr uint32_t kL = Lanes<U>();
  const uint64_t o = uint64_t{r} * kL;
  U* mean = a.mean.HostPtr() + o;
  U* max = a.max.HostPtr() + o;
  U* expSum = a.expSum.HostPtr() + o;
  const U* inMean = a.inMean.HostPtr() + o;
  const U* inMax = a.inMax.HostPtr() + o;
  const float sc = p.alpha / (1.0f - p.alpha);
  LoadRow(x, a.src.HostPtr() + uint64_t{r} * d.k, d.k);
  const uint32_t k = RegBase() ? d.k : d.oriK;  // 3510 reduces the tiling's srcK
  const float g = FlashV3Center(x, k, p.splitMeanCnt, sc);
  const float cnt = static_cast<float>(p.loopCnt);
  // 3510 holds inMean and inMax in registers across the mean and max stores (outputs that alias
  // them are read before); membase reads them from memory in its order.
  float oldMean[kL], oldMax[kL];
  for (uint32_t j = 0; j < kL; ++j) {
    oldMean[j] = update ? Widen(inMean[j]) : 0.0f;
    oldMax[j] = update ? Widen(inMax[j]) : 0.0f;
  }
  for (uint32_t j = 0; j < kL; ++j) {
    mean[j] =
        update ? Narrow<U>((Widen(inMean[j]) * (cnt - 1.0f) + g) * (1.0f / cnt)) : Narrow<U>(g);
  }
  const float rmax = RowMax(x.data(), k);
  float shiftCurr[kL], shiftPrev[kL], em[kL] = {};
  for (uint32_t j = 0; j < kL; ++j) {
    shiftCurr[j] = (g - Widen(mean[j])) * sc;
    max[j] = Narrow<U>(rmax + shiftCurr[j]);
  }
  if (update) {
    float prev[kL];
    for (uint32_t j = 0; j < kL; ++j) {
      shiftPrev[j] = ((RegBase() ? oldMean[j] : Widen(inMean[j])) - Widen(mean[j])) * sc;
      prev[j] = (RegBase() ? oldMax[j] : Widen(inMax[j])) + shiftPrev[j];
    }
    for (uint32_t j = 0; j < kL; ++j) {
      max[j] = RegBase() ? Narrow<U>(RegMax(prev[j], Widen(max[j])))
                         : (Widen(max[j]) > prev[j] ? max[j] : Narrow<U>(prev[j]));
    }
    for (uint32_t j = 0; j < kL; ++j) {
      // 3510: exp((inMax + shiftPrev) - (max - shiftCurr)) (SoftmaxFlashV3NDUpdateImpl)
      em[j] = RegBase() ? ExpOf(prev[j] - (Widen(max[j]) - shiftCurr[j]))
                        : ExpOf(shiftPrev[j] + (Widen(inMax[j]) - Widen(max[j])));
    }
    for (uint32_t j = 0; j < kL; ++j) {
      expSum[j] = Narrow<U>(em[j] * Widen(a.inExpSum.HostPtr()[o + j]));
    }
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

template <typename T, typename U>
void FlashV3Rows(bool update, const FlashV3Args<T, U>& a, const AscendC::SoftMaxParams& p,
                 const AscendC::LocalTensor<uint8_t>* tmp, SrcLoc loc) {
  const char* api = "SoftmaxFlashV3";
  const Dims d{p.srcM, p.srcK, p.oriSrcK != 0 ? p.oriSrcK : p.srcK};
  CheckShape<T>(api, d);
  CheckFlashV3Params(api, p, update);
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * Lanes<U>();
  const uint64_t se = uint64_t{d.m} * Lanes<T>();
  namespace md = math_detail;
  CheckRows(api,
            {md::Op(a.dst, "dstTensor"), md::Op(a.src, "srcTensor"), md::Op(a.mean, "meanTensor"),
             md::Op(a.expSum, "expSumTensor"), md::Op(a.max, "maxTensor")},
            {n, n, s, s, s});
  if (update) {
    CheckRows(api,
              {md::Op(a.expMax, "expMaxTensor"), md::Op(a.inMean, "inMeanTensor"),
               md::Op(a.inExpSum, "inExpSumTensor"), md::Op(a.inMax, "inMaxTensor")},
              {se, s, s, s});
  }
  if (tmp != nullptr) {
    CheckTmp(api, *tmp, (uint64_t{Lanes<U>()} * 5 + 2 * uint64_t{d.k} + kLanes) * 4);
  }
  RecordCall(api, loc,
             {Rd(a.src, n), Rd(a.inMean, update ? s : 0), Rd(a.inExpSum, update ? s : 0),
              Rd(a.inMax, update ? s : 0), Wr(a.dst, n), Wr(a.mean, s), Wr(a.expSum, s),
              Wr(a.max, s), Wr(a.expMax, update ? se : 0)});
  std::vector<float> x;
  for (uint32_t r = 0; r < d.m; ++r) FlashV3Row(update, a, p, d, r, x);
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
  static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>,
                "SoftmaxFlashV3: T must be half and U float");
  sd::RefuseNz<isDataFormatNZ>("SoftmaxFlashV3");
  (void)tiling;  // the split is the kernel's own (rows are independent)
  sd::FlashV3Rows<T, U>(isUpdate,
                        {dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                         inMeanTensor, inExpSumTensor, inMaxTensor},
                        params, &sharedTmpBuffer, loc);
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
