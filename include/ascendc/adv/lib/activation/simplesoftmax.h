// lngrad: SimpleSoftMax — the toolkit's adv_api/activation/simplesoftmax.h: SoftMax with the
// row sum and max given (no reduction). Algorithm of membase/common/simple_softmax_common_impl.h,
// in float: dst = exp(x - inMax) / inSum (Sub, Exp, Div; half statistics widened, half data
// rounded once at the end). inSum/inMax are [rows, 32 B]; column c of a row uses lane c % 8 of
// the row's statistics on 2201/2002 (GenericSub/DivNDImpl's block strides read the row's first
// 8 lanes block by block), lane 0 on 3510 (ColumnLane); the other APIs write them equal.
// isDataFormatNZ: softmax_nz.h SimpleNzRows (SimpleSoftMaxNZImpl's order, on every arch).
#pragma once

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax.h"

namespace lngrad::aicore::softmax_detail {

template <typename T, typename U>
void SimpleRows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& inSum,
                const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<uint8_t>* tmp, const Dims& d, SrcLoc loc) {
  const char* api = "SimpleSoftMax";
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * Lanes<U>();
  namespace md = math_detail;
  CheckRows(api,
            {md::Op(dst, "dstTensor"), md::Op(src, "srcTensor"), md::Op(inSum, "inSumTensor"),
             md::Op(inMax, "inMaxTensor")},
            {n, n, s, s});
  if (tmp != nullptr) CheckTmp(api, *tmp, (uint64_t{Lanes<T>()} + d.k + kLanes) * 4);
  RecordCall(api, loc, {Rd(src, n), Rd(inSum, s), Rd(inMax, s), Wr(dst, n)});
  std::vector<float> x;
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadRow(x, src.HostPtr() + uint64_t{r} * d.k, d.k);
    const U* mx = inMax.HostPtr() + uint64_t{r} * Lanes<U>();
    const U* sm = inSum.HostPtr() + uint64_t{r} * Lanes<U>();
    for (uint32_t c = 0; c < d.k; ++c) x[c] = x[c] - Widen(mx[ColumnLane(c)]);
    ExpInPlace(x);
    for (uint32_t c = 0; c < d.k; ++c) x[c] = x[c] / Widen(sm[ColumnLane(c)]);
    StoreRow(dst.HostPtr() + uint64_t{r} * d.k, x);
  }
}

}  // namespace lngrad::aicore::softmax_detail

namespace AscendC {

// D = T and U = T, or D = half with U = float statistics (the toolkit's two overloads).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename D, typename U>
void SimpleSoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<U>& inSumTensor,
                   const LocalTensor<U>& inMaxTensor, const LocalTensor<D>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {},
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  sd::CheckTypes<D, U>("SimpleSoftMax");
  if constexpr (isDataFormatNZ) {
    sd::SimpleNzRows<D, U>(dstTensor, inSumTensor, inMaxTensor, srcTensor, sharedTmpBuffer,
                           softmaxShapeInfo, sd::NzDimsOf(softmaxShapeInfo, tiling, true), loc);
    return;
  }
  sd::SimpleRows<D, U>(dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer,
                       sd::DimsOf(softmaxShapeInfo, srcTensor, tiling.srcM, tiling.srcK, false),
                       loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename D, typename U>
void SimpleSoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<U>& inSumTensor,
                   const LocalTensor<U>& inMaxTensor, const LocalTensor<D>& srcTensor,
                   const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, inSumTensor, inMaxTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(),
      tiling, softmaxShapeInfo, loc);
}

}  // namespace AscendC
