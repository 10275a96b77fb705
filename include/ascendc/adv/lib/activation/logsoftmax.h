// lngrad: LogSoftMax — the toolkit's adv_api/activation/logsoftmax.h. Algorithm of
// membase/common/logsoftmax_common_impl.h: the SoftMax steps (max, x - max, Exp, row sum, Div)
// then log10 (Ln times 0.4342944819f on 2201/2002, Log10 on 3510), in float (half rounded once at
// the end); sum and max written as [rows, 32 B]. The kernel recomputes its own split from the
// buffer size (the tiling argument is not read), as the toolkit's does. isDataFormatNZ: on 3510
// softmax_nz.h SoftMaxNzRowsReg with Log10 (the register code's LogSoftMaxNZImpl); refused on
// 2201/2002, whose NZ source is not a softmax (docs/ascendc_kernels.md).
#pragma once

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  sd::LeaveWorkBuffer leave("LogSoftMax", loc, sharedTmpBuffer);
  if constexpr (isDataFormatNZ) {  // 3510 only (regbase/3510/logsoftmax_impl.h LogSoftMaxNZImpl)
    if (!sd::RegBase()) sd::RefuseNz<true>("LogSoftMax");
    const sd::Dims nd = sd::DimsOf(softmaxShapeInfo, src, 0, 0, false);  // srcM, srcK
    AscendC::tiling::SoftMaxTiling t{};
    t.srcM = nd.m;
    t.srcK = nd.k;
    sd::SoftMaxNzRowsReg<T, T>("LogSoftMax", sd::NzFinish::kLog, dst, sum, max, src,
                               softmaxShapeInfo, t, loc);
    return;
  }
  // The kernel always re-tiles (SoftMaxTilingFunc on the buffer's floats, statistics of T, the
  // tiling argument unread): its splits cover oriSrcM rows, the rows past them are left.
  (void)tiling;
  sd::Dims d = LNGRAD_SOFTMAX_DIMS(src);
  const SoftMaxTiling none{};  // srcM 0: another shape's, so SoftMaxKernelTiling re-tiles
  const SoftMaxTiling kt = sd::SoftMaxKernelTiling("LogSoftMax", none, d, softmaxShapeInfo,
                                                   sharedTmpBuffer, sizeof(T), sizeof(T), false);
  d.m = sd::GenericSplitRows("LogSoftMax", "dst, sum and max", none, kt, d);
  // The work buffer on 2201 and 2002 (softmax_work.h, softmax_v200_work.h; LogSoftMaxNDImpl's
  // splits); elsewhere marked. The splits the 2002 sequence gets wrong: refused in checked mode,
  // unchecked the device's results (softmax_v200_work.h V200Defect, V200Store); the 2201 ones
  // refused in checked mode, unchecked the device's rows (CheckV220Defect, SoftMaxWorkV220).
  sd::CheckV220Defect("LogSoftMax", true, kt, d);
  sd::RowExps rowExps;
  sd::V200Device dev;
  if (sd::SoftMaxWorkV220<T, T>("LogSoftMax", loc, kt, d, src, &sum, &max, sharedTmpBuffer, true,
                                &rowExps) ||
      sd::SoftMaxWorkV200<T, T>("LogSoftMax", loc, kt, d, src, &sum, &max, sharedTmpBuffer, true,
                                &dev)) {
    leave.Modelled();
  }
  sd::SoftMaxRows<T, T>("LogSoftMax", false, sd::Finish::kLog, dst, &sum, &max, src,
                        &sharedTmpBuffer, sd::WithSplits(d, kt), loc, false, &rowExps);
  sd::V200Store<T, T>(dev, dst, &sum, &max);
}

}  // namespace AscendC
