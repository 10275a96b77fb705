// lngrad: SimpleSoftMax — the toolkit's adv_api/activation/simplesoftmax.h: SoftMax with the
// row sum and max given (no reduction). Algorithm of membase/common/simple_softmax_common_impl.h,
// in float: dst = exp(x - inMax) / inSum (Sub, Exp, Div; half statistics widened, half data
// rounded once at the end). inSum/inMax are [rows, 32 B]; column c of a row uses lane c % 8 of
// the row's statistics on 2201/2002 (GenericSub/DivNDImpl's block strides read the row's first
// 8 lanes block by block), lane 0 on 3510 (ColumnLane); the other APIs write them equal.
// isDataFormatNZ: softmax_nz.h SimpleNzRows (SimpleSoftMaxNZImpl's order, on every arch).
// On 3510 (regbase/3510/simple_softmax_impl.h SimpleSoftMaxNDImpl) the function is chosen as the
// register code chooses it (SimpleWholeRegisters): with srcK not a multiple of 64 the
// whole-register SimpleSoftMaxGenericNDImpl runs past each row (SimpleWholeRows). Checked mode
// refuses isBasicBlock with srcK not a multiple of 64 (invalid_count: the 2201/2002 kernel check
// asserts it, and 3510's whole registers mix rows) and names the last row's store past dstTensor
// (tensor_bounds).
#pragma once

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax.h"

namespace lngrad::aicore::softmax_detail {

// Whether 3510's SimpleSoftMaxNDImpl runs SimpleSoftMaxGenericNDImpl (ceil(srcK / 64) whole
// registers per row under the full mask) where it differs from the WithTail function (srcK not a
// multiple of 64): with isBasicBlock; else, with config.oriSrcM and config.oriSrcK both set (the
// constant shape), when config.oriSrcK is a multiple of 64 whatever srcK; never with the default
// config (it picks WithTail by srcK % 64). Not on 2201/2002.
inline bool SimpleWholeRegisters(bool basic, uint32_t cfgOriSrcM, uint32_t cfgOriSrcK, uint32_t k) {
  if (!RegBase() || k % kLanes == 0) return false;
  if (basic) return true;
  return cfgOriSrcM != 0 && cfgOriSrcK != 0 && cfgOriSrcK % kLanes == 0;
}

// The elements of src read and of dst written by SimpleWholeRows: the last row's registers end
// past m * srcK.
inline uint64_t SimpleWholeExtent(const Dims& d) {
  const uint64_t reps = (d.k + kLanes - 1) / kLanes;
  return d.m == 0 ? 0 : uint64_t{d.m - 1} * d.k + reps * kLanes;
}

// SimpleSoftMaxGenericNDImpl with srcK not a multiple of 64: row by row, each 64-lane register at
// r * srcK + j * 64 loaded, computed (Sub, Exp, Div under the full mask) and stored before the
// next, so a row's last register reads the next row's first columns of src and stores over the
// next row's first columns of dst (which that row then rewrites; with dst = src it reads what was
// stored there), and the last row's runs past the tensors.
template <typename T, typename U>
void SimpleWholeRows(T* dst, const U* inSum, const U* inMax, const T* src, const Dims& d) {
  std::vector<float> x;
  const uint32_t reps = (d.k + kLanes - 1) / kLanes;
  for (uint32_t r = 0; r < d.m; ++r) {
    const float mx = Widen(inMax[uint64_t{r} * Lanes<U>()]);
    const float sm = Widen(inSum[uint64_t{r} * Lanes<U>()]);
    for (uint32_t j = 0; j < reps; ++j) {
      const uint64_t at = uint64_t{r} * d.k + uint64_t{j} * kLanes;
      LoadRow(x, src + at, kLanes);
      for (float& v : x) v = v - mx;
      ExpInPlace(x);
      for (float& v : x) v = v / sm;
      StoreRow(dst + at, x);
    }
  }
}

// whole: SimpleWholeRegisters' path.
template <typename T, typename U>
void SimpleRows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& inSum,
                const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<uint8_t>* tmp, const Dims& d, SrcLoc loc,
                bool whole = false) {
  const char* api = "SimpleSoftMax";
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * Lanes<U>();
  namespace md = math_detail;
  CheckRows(api,
            {md::Op(dst, "dstTensor"), md::Op(src, "srcTensor"), md::Op(inSum, "inSumTensor"),
             md::Op(inMax, "inMaxTensor")},
            {n, n, s, s});
  if (tmp != nullptr) CheckTmp(api, *tmp, (uint64_t{Lanes<T>()} + d.k + kLanes) * 4);
  if (whole) {
    // The last row's store past dstTensor is the device's overrun: checked mode names it
    // (tensor_bounds); its loads past srcTensor read what the UB holds there.
    const uint64_t ext = SimpleWholeExtent(d);
    const std::string why = std::string(api) + " (srcK = " + std::to_string(d.k) +
                            ": the whole-register path stores the last row's last register "
                            "whole, to element " +
                            std::to_string(ext) + ")";
    CheckRows(why.c_str(), {md::Op(dst, "dstTensor")}, {ext});
    const detail::TensorView sv = src.View();
    detail::RequireInsideUb(sv, sv.ptr - sv.ub, ext * sizeof(T), why.c_str());
    RecordCall(api, loc, {Rd(src, ext), Rd(inSum, s), Rd(inMax, s), Wr(dst, ext)});
    SimpleWholeRows(dst.HostPtr(), inSum.HostPtr(), inMax.HostPtr(), src.HostPtr(), d);
    return;
  }
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
  const sd::Dims d = sd::DimsOf(softmaxShapeInfo, srcTensor, tiling.srcM, tiling.srcK, false);
  if (isBasicBlock) sd::RefuseBasicK("SimpleSoftMax", d);
  sd::SimpleRows<D, U>(dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer, d, loc,
                       sd::SimpleWholeRegisters(isBasicBlock, config.oriSrcM, config.oriSrcK, d.k));
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
