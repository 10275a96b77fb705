// lngrad: SoftmaxFlash (deprecated by the toolkit in favour of SoftmaxFlashV2) — the toolkit's
// adv_api/activation/softmaxflash.h. Algorithm of softmax_common/softmax_common_flash.h and
// softmax_flash_base_impl/softmax_flash_nd_process_impl.h, in float:
//  - isUpdate = false: SoftMax (sum, max and the normalised dst);
//  - isUpdate = true: e = exp(x - rowmax), s = rowsum(e) (ReduceSumLastNDImpl's order),
//    max = Max(inMax, rowmax), a = exp(rowmax - max), b = exp(inMax - max) * inSum,
//    sum = b + a * s, expMax = b / sum, dst = e * (a / sum).
// Each row's statistics are read before any is written (outputs may alias the inputs).
#pragma once

#include "lib/activation/softmax.h"
#include "lib/activation/softmax_common.h"
#include "lib/activation/softmaxflashv2.h"

namespace lngrad::aicore::softmax_detail {

template <typename T, typename U>
void FlashRows(const FlashV2Args<T, U, T>& a, const Dims& d,
               const AscendC::LocalTensor<uint8_t>& tmp, SrcLoc loc) {
  const char* api = "SoftmaxFlash";
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * Lanes<U>();
  const uint64_t se = uint64_t{d.m} * Lanes<T>();
  namespace md = math_detail;
  CheckRows(api,
            {md::Op(a.dst, "dstTensor"), md::Op(a.src, "srcTensor"), md::Op(a.expSum, "sumTensor"),
             md::Op(a.max, "maxTensor"), md::Op(a.expMax, "expMaxTensor"),
             md::Op(a.inExpSum, "inSumTensor"), md::Op(a.inMax, "inMaxTensor")},
            {n, n, s, s, se, s, s});
  CheckTmp(api, tmp, (uint64_t{Lanes<T>()} * 4 + 2 * uint64_t{d.k}) * 4);
  RecordCall(api, loc,
             {Rd(a.src, n), Rd(a.inExpSum, s), Rd(a.inMax, s), Wr(a.dst, n), Wr(a.expSum, s),
              Wr(a.max, s), Wr(a.expMax, se)});
  std::vector<float> x;
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadRow(x, a.src.HostPtr() + uint64_t{r} * d.k, d.k);
    const float rmax = RowMax(x.data(), d.oriK);
    for (float& v : x) v = v - rmax;
    ExpInPlace(x);
    const float rs = GradRowSum(x.data(), d.oriK);
    const float inMax = GetStat(a.inMax.HostPtr(), r), inSum = GetStat(a.inExpSum.HostPtr(), r);
    const float mx = inMax > rmax ? inMax : rmax;
    const float ea = ExpOf(rmax - mx);
    const float b = ExpOf(inMax - mx) * inSum;
    const float sum = b + ea * rs;
    const float scale = ea / sum;
    for (float& v : x) v = v * scale;
    PutStat(a.max.HostPtr(), r, mx);
    PutStat(a.expMax.HostPtr(), r, b / sum);
    PutStat(a.expSum.HostPtr(), r, sum);
    StoreRow(a.dst.HostPtr() + uint64_t{r} * d.k, x);
  }
}

}  // namespace lngrad::aicore::softmax_detail

namespace AscendC {

// D = T and U = T, or D = half with U = float statistics (the toolkit's overloads).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename D, typename U>
[[deprecated("softmaxflash.h is deprecated, please use softmaxflashv2.h instead!")]] void
SoftmaxFlash(const LocalTensor<D>& dstTensor, const LocalTensor<U>& sumTensor,
             const LocalTensor<U>& maxTensor, const LocalTensor<D>& srcTensor,
             const LocalTensor<D>& expMaxTensor, const LocalTensor<U>& inSumTensor,
             const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const SoftMaxTiling& tiling, bool isUpdate = false,
             const SoftMaxShapeInfo& softmaxShapeInfo = {},
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  sd::CheckTypes<D, U>("SoftmaxFlash");
  const sd::Dims dims = LNGRAD_SOFTMAX_DIMS(srcTensor);
  if (!isUpdate) {
    sd::SoftMaxRows<D, U>("SoftmaxFlash", isBasicBlock, sd::Finish::kDiv, dstTensor, &sumTensor,
                          &maxTensor, srcTensor, &sharedTmpBuffer, dims, loc);
    return;
  }
  sd::FlashRows<D, U>(
      {dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor}, dims,
      sharedTmpBuffer, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename D, typename U>
[[deprecated("softmaxflash.h is deprecated, please use softmaxflashv2.h instead!")]] void
SoftmaxFlash(const LocalTensor<D>& dstTensor, const LocalTensor<U>& sumTensor,
             const LocalTensor<U>& maxTensor, const LocalTensor<D>& srcTensor,
             const LocalTensor<D>& expMaxTensor, const LocalTensor<U>& inSumTensor,
             const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling, bool isUpdate = false,
             const SoftMaxShapeInfo& softmaxShapeInfo = {},
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  SoftmaxFlash<T, isReuseSource, isBasicBlock>(
      dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor,
      lngrad::aicore::math_detail::StackTmp(), tiling, isUpdate, softmaxShapeInfo, loc);
#pragma GCC diagnostic pop
}

}  // namespace AscendC
