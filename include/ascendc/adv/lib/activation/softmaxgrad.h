// lngrad: SoftmaxGrad and SoftmaxGradFront — the toolkit's adv_api/activation/softmaxgrad.h
// (T = half or float; sharedTmpBuffer or the stack buffer). Algorithm of
// membase/common/softmax_grad_nd_impl.h, in float: s = rowsum(grad * src) in ReduceSumLastNDImpl's
// order (the eight block sums of each 64-lane chunk added chunk by chunk, their tree, then the
// tail's tree); SoftmaxGrad: dst = (grad - s) * src (isFront: dst = s as [rows, 32 B]);
// SoftmaxGradFront: dst = s as [rows, 32 B] (isBasicBlock: the basic-block sums on the full
// splits, softmax_grad_nd_impl.h SoftmaxGradFrontNDImpl). Half rounded once at the end.
// isDataFormatNZ: softmax_nz.h GradNzRows (softmax_grad_nz_impl.h's order), the work buffer on
// 2201/2002 as softmax_grad_nz_work.h writes it. On 3510
// (regbase/3510/softmax_grad_impl.h): s = RegRowSum over oriSrcK, isBasicBlock ignored, only the
// first oriSrcK columns of dst written.
#pragma once

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax.h"
#include "lib/activation/softmax_grad_basic_work.h"
#include "lib/activation/softmax_grad_nz_work.h"
#include "lib/activation/softmax_grad_work.h"

namespace lngrad::aicore::softmax_detail {

// basicRows: the leading rows SoftmaxGradFront<isBasicBlock> sums in the basic-block order
// (the tiling's rangeM full splits: every 64-lane chunk of the row added lane by lane, then the
// 64-lane tree, over all k columns); the tail split keeps ReduceSumLastNDImpl's order.
template <typename T>
void GradRows(const char* api, bool front, const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
              const AscendC::LocalTensor<uint8_t>& tmp, const Dims& d, SrcLoc loc,
              uint64_t basicRows = 0) {
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{d.m} * d.k, out = front ? uint64_t{d.m} * Lanes<T>() : n;
  namespace md = math_detail;
  CheckRows(api, {md::Op(dst, "dstTensor"), md::Op(grad, "gradTensor"), md::Op(src, "srcTensor")},
            {out, n, n});
  const uint64_t row = sizeof(T) == 2 ? uint64_t{Lanes<T>()} * 2 + d.k * 3 + kLanes
                                      : (front ? Lanes<T>() + d.k + kLanes
                                               : uint64_t{Lanes<T>()} * 2 + d.k + kLanes);
  CheckTmp(api, tmp, row * 4);
  RecordCall(api, loc, {Rd(grad, n), Rd(src, n), Wr(dst, out)});
  std::vector<float> g, y, p;
  const uint32_t cols = StoredColumns(d);
  if (RegBase()) basicRows = 0;  // regbase/3510 ignores isBasicBlock here
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadRow(g, grad.HostPtr() + uint64_t{r} * d.k, cols);
    LoadRow(y, src.HostPtr() + uint64_t{r} * d.k, cols);
    p.resize(cols);
    for (uint32_t j = 0; j < cols; ++j) p[j] = y[j] * g[j];
    const float s = r < basicRows ? RowSum(p.data(), d.k, true) : GradRowSum(p.data(), d.oriK);
    if (front) {
      PutStat(dst.HostPtr(), r, s);
      continue;
    }
    for (uint32_t j = 0; j < cols; ++j) p[j] = (g[j] - s) * y[j];
    StoreRow(dst.HostPtr() + uint64_t{r} * d.k, p);
  }
}

// The rows SoftmaxGradFront<isBasicBlock> sums in the basic-block order on 2201/2002: the
// rangeM full splits of the tiling the kernel runs, the caller's when made for the shape (srcM
// and srcK), else the kernel's re-tile (softmax_grad_base_impl.h SoftmaxGradFrontImpl:
// SoftMaxGradTilingFunc with isFront and isBasicBlock on the work buffer's floats w: rows per
// split w / (2 blk + 3 srcK + 64) for half, w / (blk + srcK + 64) for float, cut to 8-multiples
// between 8 and srcM, at most srcM; above 8 rows with srcM % 8 == 0, 8-multiples dividing srcM,
// halved while rows * srcK >= 64 * 256). A buffer holding no row asserts (refused in any mode).
inline uint64_t GradFrontBasicRows(const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                                   uint32_t typeSize, const AscendC::LocalTensor<uint8_t>& tmp) {
  if (RegBase()) return 0;
  if (t.srcM == d.m && t.srcK == d.k) return uint64_t{t.rangeM} * t.splitM;
  const uint64_t w = tmp.View().size_bytes / 4;
  const uint64_t m = GradFrontBasicSplitRows(d, typeSize, w);
  if (m == 0) {
    RaiseKernelCheck(checks::kTmpBuffer,
                     "SoftmaxGradFront: the kernel re-tiles a tiling made for another shape and "
                     "the work buffer (" +
                         std::to_string(w) +
                         " floats) holds no row (SoftMaxGradTilingFunc asserts)");
  }
  return d.m / m * m;
}

// SoftmaxGrad / SoftmaxGradFront ND (not isBasicBlock): GradRows, then on 2201 and 2002 the work
// buffer as the kit leaves it (softmax_grad_work.h; marked where its buffers pass the end of tmp);
// on 3510 left alone.
template <typename T>
void GradNdCall(const char* api, SrcLoc loc, bool front, bool frontApi,
                const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& grad,
                const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
                const AscendC::tiling::SoftMaxTiling& tiling, const Dims& d) {
  if (RegBase()) {
    const LeaveWorkBuffer leave(api, loc, tmp);
    GradRows<T>(api, front, dst, grad, src, tmp, d, loc);
    return;
  }
  std::vector<float> before;
  if constexpr (std::is_same_v<T, float>) {
    if (front && dst.HostPtr() != nullptr) {
      const uint64_t n = std::min<uint64_t>(uint64_t{d.m} * 8, dst.View().size_bytes / 4);
      before.assign(dst.HostPtr(), dst.HostPtr() + n);
    }
  }
  GradRows<T>(api, front, dst, grad, src, tmp, d, loc);
  if (!LeaveGradNdWork<T>(api, loc, before, grad, src, tmp, tiling, d, front, frontApi)) {
    math_detail::LeaveScratch(api, loc, tmp.View());
  }
}

// SoftmaxGradFront<isBasicBlock> ND: GradRows (the basic-block sums on the full splits), then on
// 2201 and 2002 the work buffer and dst's elements past the rows as the kit leaves them
// (softmax_grad_basic_work.h; marked where not modelled); on 3510 isBasicBlock is ignored.
template <typename T>
void GradFrontBasicCall(SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<uint8_t>& tmp,
                        const AscendC::tiling::SoftMaxTiling& tiling, const Dims& d) {
  const char* api = "SoftmaxGradFront";
  if (RegBase()) {
    const LeaveWorkBuffer leave(api, loc, tmp);
    GradRows<T>(api, true, dst, grad, src, tmp, d, loc);
    return;
  }
  const uint64_t basicRows = GradFrontBasicRows(tiling, d, sizeof(T), tmp);
  AscendC::tiling::SoftMaxTiling kt = tiling;
  if (tiling.srcM != d.m || tiling.srcK != d.k) {  // the kernel's re-tile, basic-block rows
    const uint64_t w = tmp.View().size_bytes / 4;
    kt = GradKernelTiling(tiling, d, sizeof(T), w, true);
    const auto rows = static_cast<uint32_t>(GradFrontBasicSplitRows(d, sizeof(T), w));
    kt.reduceM = kt.splitM = rows;
    kt.reduceSize = rows * kt.reduceK;
    kt.splitSize = rows * d.k;
    kt.rangeM = d.m / rows;
    kt.tailM = d.m % rows;
    kt.tailSplitSize = kt.tailM * d.k;
    kt.tailReduceSize = kt.tailM * kt.reduceK;
  }
  const GradFrontBasicWork seq(kt, sizeof(T) == 2, false);
  const bool covered = tmp.HostPtr() != nullptr && seq.Covered(tmp.View().size_bytes / 4);
  const uint64_t out = uint64_t{d.m} * Lanes<T>(), have = dst.View().size_bytes / sizeof(T);
  std::vector<T> before;
  if (covered && dst.HostPtr() != nullptr) {
    if (seq.DstEnd() > have) {  // checked: refused before anything is written
      detail::OnTensorOverrun(dst.View(), out, seq.DstEnd() - out, sizeof(T), api);
    }
    before.assign(dst.HostPtr(), dst.HostPtr() + std::max(out, seq.DstEnd()));
  }
  GradRows<T>(api, true, dst, grad, src, tmp, d, loc, basicRows);
  if (!covered || !LeaveGradFrontBasic<T>(api, loc, before, dst, grad, src, tmp, kt, d)) {
    math_detail::LeaveScratch(api, loc, tmp.View());
  }
}

// SoftmaxGrad / SoftmaxGradFront NZ: GradNzRows, then on 2201 and 2002 the work buffer as the
// kit leaves it (softmax_grad_nz_work.h, from copies of the sources: dst may be one of them;
// marked where not modelled); on 3510 left alone.
template <typename T>
void GradNzCall(const char* api, SrcLoc loc, bool front, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<uint8_t>& tmp, const AscendC::SoftMaxShapeInfo& shape,
                const AscendC::tiling::SoftMaxTiling& tiling) {
  LeaveWorkBuffer leave(api, loc, tmp);
  if (RegBase()) return GradNzRows<T>(api, front, dst, grad, src, tmp, shape, tiling, loc);
  const NzDims d = NzDimsOf(shape, tiling, true);
  const uint64_t n = uint64_t{d.stride} * d.k;
  std::vector<T> g, y;
  if (grad.HostPtr() != nullptr && src.HostPtr() != nullptr &&
      grad.View().size_bytes / sizeof(T) >= n && src.View().size_bytes / sizeof(T) >= n) {
    g.assign(grad.HostPtr(), grad.HostPtr() + n);
    y.assign(src.HostPtr(), src.HostPtr() + n);
  }
  GradNzRows<T>(api, front, dst, grad, src, tmp, shape, tiling, loc);
  if (g.empty()) return;
  const AscendC::tiling::SoftMaxTiling kt =
      GradNzKernelTiling(tiling, d.stride, d.k, sizeof(T), tmp.View().size_bytes);
  const uint32_t oriK = shape.oriSrcK != 0 ? shape.oriSrcK : d.k;
  if (LeaveGradNzWork<T>(api, loc, g.data(), y.data(), tmp, kt, oriK, front)) leave.Modelled();
}

}  // namespace lngrad::aicore::softmax_detail

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {},
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  if constexpr (isDataFormatNZ) {
    sd::GradNzCall<T>("SoftmaxGrad", loc, isFront, dstTensor, gradTensor, srcTensor,
                      sharedTmpBuffer, softmaxShapeInfo, tiling);
    return;
  }
  sd::GradNdCall<T>("SoftmaxGrad", loc, isFront, false, dstTensor, gradTensor, srcTensor,
                    sharedTmpBuffer, tiling, LNGRAD_SOFTMAX_DIMS(srcTensor));
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {},
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(dstTensor, gradTensor, srcTensor,
                                                lngrad::aicore::math_detail::StackTmp(), tiling,
                                                isFront, softmaxShapeInfo, loc);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                      lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  if constexpr (!isDataFormatNZ && !isBasicBlock) {
    sd::GradNdCall<T>("SoftmaxGradFront", loc, true, true, dstTensor, gradTensor, srcTensor,
                      sharedTmpBuffer, tiling, LNGRAD_SOFTMAX_DIMS(srcTensor));
    return;
  }
  if constexpr (isDataFormatNZ) {
    sd::GradNzCall<T>("SoftmaxGradFront", loc, true, dstTensor, gradTensor, srcTensor,
                      sharedTmpBuffer, softmaxShapeInfo, tiling);
    return;
  } else {
    sd::GradFrontBasicCall<T>(loc, dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling,
                              LNGRAD_SOFTMAX_DIMS(srcTensor));
  }
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {},
                      lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SoftmaxGradFront<T, isBasicBlock, isDataFormatNZ>(dstTensor, gradTensor, srcTensor,
                                                    lngrad::aicore::math_detail::StackTmp(), tiling,
                                                    softmaxShapeInfo, loc);
}

}  // namespace AscendC
