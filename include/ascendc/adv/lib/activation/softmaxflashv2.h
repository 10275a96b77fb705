// lngrad: SoftmaxFlashV2 — the toolkit's adv_api/activation/softmaxflashv2.h (the forms with
// expSum/max outputs; T = half or float, or half data with float statistics). Algorithm of
// membase/common/softmax_flashv2_impl/softmax_flashv2_{no_update,update}_impl.h, in float:
//  - isUpdate = false: max = rowmax(x), dst = exp(x - max), expSum = rowsum(dst);
//  - isUpdate = true: max = Max(inMax, rowmax(x)), expMax = exp(inMax - max),
//    dst = exp(x - max), expSum = expMax * inExpSum + rowsum(dst) (Mul, then Add).
// Each row's statistics are read before any is written, so the outputs may alias the inputs
// (as the device's per-split order allows). isBasicBlock: BasicBlockAddImpl's summation order.
#pragma once

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax.h"

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
};

template <typename T, typename U, typename E>
void FlashV2Rows(bool update, bool basic, const FlashV2Args<T, U, E>& a, const Dims& d,
                 const AscendC::LocalTensor<uint8_t>* tmp, SrcLoc loc) {
  const char* api = "SoftmaxFlashV2";
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * Lanes<U>();
  const uint64_t se = uint64_t{d.m} * Lanes<E>();
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
  if (tmp != nullptr) CheckTmp(api, *tmp, (uint64_t{Lanes<U>()} + kLanes) * 4);
  if (update) {
    RecordCall(api, loc,
               {Rd(a.src, n), Rd(a.inExpSum, s), Rd(a.inMax, s), Wr(a.dst, n), Wr(a.expSum, s),
                Wr(a.max, s), Wr(a.expMax, se)});
  } else {
    RecordCall(api, loc, {Rd(a.src, n), Wr(a.dst, n), Wr(a.expSum, s), Wr(a.max, s)});
  }
  std::vector<float> x;
  const bool basicOrder = basic && d.oriK % kLanes == 0;
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadRow(x, a.src.HostPtr() + uint64_t{r} * d.k, d.k);
    const float rmax = RowMax(x.data(), d.oriK);
    float mx = rmax, em = 0.0f, inSum = 0.0f;
    if (update) {
      const float inMax = GetStat(a.inMax.HostPtr(), r);
      inSum = GetStat(a.inExpSum.HostPtr(), r);
      mx = inMax > rmax ? inMax : rmax;
      em = ExpOf(inMax - mx);
    }
    for (float& v : x) v = v - mx;
    ExpInPlace(x);
    StoreRow(a.dst.HostPtr() + uint64_t{r} * d.k, x);
    float sm = RowSum(x.data(), d.oriK, basicOrder);
    if (update) {
      sm = em * inSum + sm;
      PutStat(a.expMax.HostPtr(), r, em);
    }
    PutStat(a.max.HostPtr(), r, mx);
    PutStat(a.expSum.HostPtr(), r, sm);
  }
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
  sd::CheckTypes<D, U>("SoftmaxFlashV2");
  sd::RefuseNz<isDataFormatNZ>("SoftmaxFlashV2");
  sd::FlashV2Rows<D, U, D>(
      isUpdate, isBasicBlock,
      {dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor},
      LNGRAD_SOFTMAX_DIMS(srcTensor), &sharedTmpBuffer, loc);
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

}  // namespace AscendC
