// lngrad: SoftmaxFlash (deprecated by the toolkit in favour of SoftmaxFlashV2) — the toolkit's
// adv_api/activation/softmaxflash.h. Algorithm of softmax_common/softmax_common_flash.h and
// softmax_flash_base_impl/softmax_flash_nd_process_impl.h, in float:
//  - isUpdate = false: SoftMax (sum, max and the normalised dst);
//  - isUpdate = true: e = exp(x - rowmax), s = rowsum(e) (ReduceSumLastNDImpl's order),
//    max = Max(inMax, rowmax), a = exp(rowmax - max), b = exp(inMax - max) * inSum,
//    sum = b + a * s, expMax = b / sum, dst = e * (a / sum), the statistics lane by lane (the
//    Max, Sub, Exp, Mul, Add and Div run over the [rows, 32 B] blocks; column c of dst, and
//    entry l of half data's expMax from float statistics, use lane BrcLane: c % 8 on 2201, as
//    BroadCastLastImpl copies the row's first 8 lanes block by block; lane 0 on 2002 (its
//    scalar BroadCastLastImpl) and 3510).
// On 2201/2002 the generic update runs softmaxflash_work.h instead (the kit's instructions over
// the work buffer, its ReduceMaxLastNDImpl order, 2002's lane-0 broadcasts); FlashRow stays for
// what that model does not take (the header there). Each row's statistics are read before any is
// written (outputs may alias the inputs). Without update on 2002 the splits whose
// NewReduce{Max,Sum}LastNDImpl operands wrap (softmax_v200_work.h V200Defect) are refused in
// checked mode and follow the device unchecked, as SoftMax's; the update's 2002 reductions
// (ReduceMaxLastNDImpl, ReduceSumLastNDImpl: WholeReduce of at most 255 rows at a time) have no
// such operands. On 3510
// the update is regbase/3510/softmax_flash_impl.h's sequence (FlashRowReg: src read twice per
// row, for the max and after the row's max is stored) and its two loops: dst is stored after
// every row's statistics (FlashRowsReg).
// isBasicBlock on 2201 (softmax_flash_basic_block_impl.h, the update only: the no-update form
// runs SoftMaxNDImpl's generic order whatever isBasicBlock says): softmaxflash_basic_work.h runs
// the kit's SoftmaxFlashBasicBlock[Float] instructions over the work buffer on the tiling's rangeM
// full splits, over every srcK column (oriSrcK is not read), then half data's tail split as the
// generic update (float data: no tail, SoftmaxFlashBasicBlockFloat has none). Float data leaves
// the result in src and does not write dst, as that function does. Shapes that sequence computes
// wrongly (FlashBasicDefect) are refused in checked mode (softmax_device_defect). Where the model
// does not run (a tiling not of SoftMaxFlashTilingFunc's form, a footprint past the buffer) the
// row model FlashBasicRow computes the full splits (a left-to-right max, the buffer marked).
// The generic update with a tiling whose reduceK (8 or 16) is not the statistics' 32 bytes (the
// host tiling of half data with float statistics) indexes the statistics reduceK a row: refused
// in checked mode (softmax_device_defect), followed unchecked (softmaxflash_work.h FlashStatK).
#pragma once

#include "lib/activation/softmax.h"
#include "lib/activation/softmax_common.h"
#include "lib/activation/softmaxflash_basic_work.h"
#include "lib/activation/softmaxflash_work.h"
#include "lib/activation/softmaxflashv2.h"

namespace lngrad::aicore::softmax_detail {

// One row of the membase update (softmax_flash_nd_process_impl.h); x holds the row.
template <typename T, typename U>
void FlashRow(const FlashV2Args<T, U, T>& a, const Dims& d, uint32_t r, std::vector<float>& x) {
  const uint32_t ls = Lanes<U>(), le = Lanes<T>();
  std::vector<float> scale(ls), expMax(ls);
  const float rmax = FlashKitRowMax(x.data(), d.oriK);
  for (float& v : x) v = v - rmax;
  ExpInPlace(x);
  const float rs = GradRowSum(x.data(), d.oriK);
  U* maxRow = a.max.HostPtr() + uint64_t{r} * ls;
  U* sumRow = a.expSum.HostPtr() + uint64_t{r} * ls;
  for (uint32_t j = 0; j < ls; ++j) {  // the statistics lane by lane
    const float inMax = Widen(a.inMax.HostPtr()[uint64_t{r} * ls + j]);
    const float inSum = Widen(a.inExpSum.HostPtr()[uint64_t{r} * ls + j]);
    const float mx = inMax > rmax ? inMax : rmax;
    const float ea = ExpOf(rmax - mx);
    const float b = ExpOf(inMax - mx) * inSum;
    const float sum = b + ea * rs;
    scale[j] = ea / sum;
    expMax[j] = b / sum;
    maxRow[j] = Narrow<U>(mx);
    sumRow[j] = Narrow<U>(sum);
  }
  for (uint32_t l = 0; l < le; ++l) {
    a.expMax.HostPtr()[uint64_t{r} * le + l] = Narrow<T>(expMax[ExpMaxLane(l, ls, le, true)]);
  }
  for (uint32_t c = 0; c < d.k; ++c) x[c] = x[c] * scale[BrcLane(c)];
}

// One row of the 3510 update (regbase/3510/softmax_flash_impl.h SoftmaxFlashND[WithTail]Impl),
// x the row's first oriSrcK values: max_j = Max(rowmax, inMax_j), em_j = exp(inMax_j - max_j),
// e = exp(x - max_0), s = rowsum(e) (RegRowSum), sum_j = em_j * inSum_j + s (MulAddDst, taken as
// one fused rounding as the 950's other MulAddDst users in lngrad), expMax_j = (em_j * inSum_j)
// / sum_j; x is left holding e (the work buffer) and sum_0 is returned (dst = e / sum is the
// second loop's, FlashRowsReg). In the register code's memory order: src read for the max,
// inMax read, max stored, src read again for the exponentials (`row`: the row in src; a max
// stored over it is what the second read sees), then inSum read, expMax and sum stored.
template <typename T, typename U>
float FlashRowReg(const FlashV2Args<T, U, T>& a, uint32_t r, std::vector<float>& x, const T* row) {
  const uint32_t ls = Lanes<U>(), le = Lanes<T>();
  std::vector<float> mx(ls), em(ls), sum(ls);
  const float rmax = RowMax(x.data(), static_cast<uint32_t>(x.size()));
  for (uint32_t j = 0; j < ls; ++j) {
    const float inMax = Widen(a.inMax.HostPtr()[uint64_t{r} * ls + j]);
    mx[j] = RegMax(rmax, inMax);
    em[j] = ExpOf(inMax - mx[j]);
  }
  for (uint32_t j = 0; j < ls; ++j) a.max.HostPtr()[uint64_t{r} * ls + j] = Narrow<U>(mx[j]);
  LoadRow(x, row, static_cast<uint32_t>(x.size()));
  for (float& v : x) v = v - mx[0];
  ExpInPlace(x);
  const float rs = RegRowSum(x.data(), static_cast<uint32_t>(x.size()));
  for (uint32_t j = 0; j < ls; ++j) {
    const float inSum = Widen(a.inExpSum.HostPtr()[uint64_t{r} * ls + j]);
    sum[j] = std::fma(em[j], inSum, rs);
    em[j] = (em[j] * inSum) / sum[j];
  }
  for (uint32_t l = 0; l < le; ++l) {
    a.expMax.HostPtr()[uint64_t{r} * le + l] = Narrow<T>(em[ExpMaxLane(l, ls, le)]);
  }
  for (uint32_t j = 0; j < ls; ++j) a.expSum.HostPtr()[uint64_t{r} * ls + j] = Narrow<U>(sum[j]);
  return sum[0];
}

// The 3510 update's two loops (SoftmaxFlashND[WithTail]Impl): every row's statistics first
// (FlashRowReg, the exponentials kept as the work buffer keeps them), then row by row the sum
// read (float statistics: lane 0 of the row in sumTensor as the rows before left it; half: the
// float sum the first loop kept, tmpUb) and dst = e / sum stored. So dst aliasing the
// statistics changes only what the second loop reads, as on the device.
template <typename T, typename U>
void FlashRowsReg(const FlashV2Args<T, U, T>& a, const Dims& d) {
  const uint32_t cols = StoredColumns(d);
  std::vector<float> work(uint64_t{d.m} * cols), sum0(d.m), x;
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadRow(x, a.src.HostPtr() + uint64_t{r} * d.k, cols);
    sum0[r] = FlashRowReg(a, r, x, a.src.HostPtr() + uint64_t{r} * d.k);
    std::copy(x.begin(), x.end(), work.begin() + uint64_t{r} * cols);
  }
  for (uint32_t r = 0; r < d.m; ++r) {
    const float s = sizeof(U) == 4 ? Widen(a.expSum.HostPtr()[uint64_t{r} * Lanes<U>()]) : sum0[r];
    for (uint32_t c = 0; c < cols; ++c) {
      a.dst.HostPtr()[uint64_t{r} * d.k + c] = Narrow<T>(work[uint64_t{r} * cols + c] / s);
    }
  }
}

// One row of the 2201 basic-block update (SoftmaxFlashBasicBlock[Float]); x holds the row's srcK
// values: rowmax and s = rowsum(e) over every column (s in BasicBlockAddImpl's order, RowSum's
// basic order), e / s (Div), then lane by lane j: max_j = Max(inMax_j, rowmax), a_j = exp(rowmax
// - max_j), b_j = exp(inMax_j - max_j) * inSum_j, as_j = a_j * s, sum_j = b_j + as_j, expMax_j =
// b_j / sum_j, and x = (e / s) * (as_j / sum_j) at lane c % 8.
template <typename T, typename U>
void FlashBasicRow(const FlashV2Args<T, U, T>& a, const Dims& d, uint32_t r,
                   std::vector<float>& x) {
  const uint32_t ls = Lanes<U>(), le = Lanes<T>();
  std::vector<float> scale(ls), expMax(ls);
  const float rmax = RowMax(x.data(), d.k);
  for (float& v : x) v = v - rmax;
  ExpInPlace(x);
  const float rs = RowSum(x.data(), d.k, true);
  for (float& v : x) v = v / rs;
  U* maxRow = a.max.HostPtr() + uint64_t{r} * ls;
  U* sumRow = a.expSum.HostPtr() + uint64_t{r} * ls;
  for (uint32_t j = 0; j < ls; ++j) {
    const float inMax = Widen(a.inMax.HostPtr()[uint64_t{r} * ls + j]);
    const float inSum = Widen(a.inExpSum.HostPtr()[uint64_t{r} * ls + j]);
    const float mx = inMax > rmax ? inMax : rmax;
    const float as = ExpOf(rmax - mx) * rs;
    const float b = ExpOf(inMax - mx) * inSum;
    const float sum = b + as;
    expMax[j] = b / sum;
    scale[j] = as / sum;
    maxRow[j] = Narrow<U>(mx);
    sumRow[j] = Narrow<U>(sum);
  }
  for (uint32_t l = 0; l < le; ++l) {
    a.expMax.HostPtr()[uint64_t{r} * le + l] = Narrow<T>(expMax[l % ls]);
  }
  for (uint32_t c = 0; c < d.k; ++c) x[c] = x[c] * scale[c % 8];
}

// The rows the 2201 basic-block update computes in that order: the rangeM full splits of the
// tiling the kernel runs; none elsewhere, nor with srcK not a multiple of 64. A tiling made for
// another shape is re-tiled (softmax_common_flash.h SoftmaxFlash[TmpBuf]CommonImpl,
// SoftMaxFlashTilingFunc with the update): w / (4 blk + 2 srcK) rows per split of the work
// buffer's w floats (blk = 8 for half data with float statistics, else 32 / sizeof(T)), at most
// srcM; with srcM % 8 == 0 and more than 8 rows a multiple of 8 dividing srcM. No row asserts.
inline uint64_t FlashBasicRows(bool basic, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                               uint32_t blk, uint64_t tmpBytes) {
  if (!basic || detail::rep::RunningArch() != NpuArch::k2201 || d.k % kLanes != 0) return 0;
  if (t.srcM == d.m && t.srcK == d.k) return uint64_t{t.rangeM} * t.splitM;
  uint64_t m = tmpBytes / 4 / (4 * uint64_t{blk} + 2 * uint64_t{d.k});
  m = m < d.m ? m : d.m;
  if (m > 8 && d.m % 8 == 0) {
    m = m / 8 * 8;
    while (d.m % m != 0) m -= 8;
  }
  if (m == 0) {
    RaiseKernelCheck(checks::kTmpBuffer,
                     "SoftmaxFlash: the kernel re-tiles a tiling made for another shape and the "
                     "work buffer holds no row (SoftMaxFlashTilingFunc asserts)");
  }
  return d.m / m * m;
}

template <typename T, typename U>
void FlashRows(const FlashV2Args<T, U, T>& a, const Dims& d,
               const AscendC::LocalTensor<uint8_t>& tmp, SrcLoc loc, uint64_t basicRows = 0,
               FlashWorkCall* work = nullptr) {
  const char* api = "SoftmaxFlash";
  CheckShape<T>(api, d);
  // The statistics as the generic update indexes them (FlashStatK: reduceK a row, past the
  // tensors' rows for a wider reduceK; unchecked mode only, checked mode refused it before).
  const uint32_t sk = work != nullptr ? FlashStatK<T, U>(work->kt, d, work->basic) : Lanes<U>();
  const uint64_t statRows =
      sk == Lanes<U>() ? d.m : uint64_t{work->kt.rangeM} * work->kt.splitM + work->kt.tailM;
  const uint64_t n = uint64_t{d.m} * d.k, s = statRows * sk;
  const uint64_t se = sk == Lanes<U>() ? uint64_t{d.m} * Lanes<T>() : s * sizeof(U) / sizeof(T);
  namespace md = math_detail;
  CheckRows(api,
            {md::Op(a.dst, "dstTensor"), md::Op(a.src, "srcTensor"), md::Op(a.expSum, "sumTensor"),
             md::Op(a.max, "maxTensor"), md::Op(a.expMax, "expMaxTensor"),
             md::Op(a.inExpSum, "inSumTensor"), md::Op(a.inMax, "inMaxTensor")},
            {n, n, s, s, se, s, s});
  CheckTmp(api, tmp, (uint64_t{Lanes<T>()} * 4 + 2 * uint64_t{d.k}) * 4);
  // Float data on the basic-block path: the result goes to src, dst is not written.
  const bool intoSrc = basicRows != 0 && std::is_same_v<T, float>;
  const uint64_t rows = intoSrc ? basicRows : d.m, rn = rows * d.k;
  const uint64_t rs = sk == Lanes<U>() ? rows * Lanes<U>() : s;
  const AscendC::LocalTensor<T>& out = intoSrc ? a.src : a.dst;
  RecordCall(api, loc,
             {Rd(a.src, n), Rd(a.inExpSum, s), Rd(a.inMax, s), Wr(out, rn), Wr(a.expSum, rs),
              Wr(a.max, rs), Wr(a.expMax, sk == Lanes<U>() ? rows * Lanes<T>() : se)});
  if (RegBase()) {
    FlashRowsReg(a, d);
    return;
  }
  if (work != nullptr && work->basic && FlashBasicWorkRun(a, d, work->kt, tmp, api, loc)) {
    work->ran = true;  // 2201 isBasicBlock: the kit's sequence (softmaxflash_basic_work.h)
    return;
  }
  if (work != nullptr && FlashWorkRun(a, d, work->kt, tmp, work->basic, api, loc)) {
    work->ran = true;  // 2201/2002 generic: the kit's sequence (softmaxflash_work.h)
    return;
  }
  std::vector<float> x;
  for (uint32_t r = 0; r < rows; ++r) {
    LoadRow(x, a.src.HostPtr() + uint64_t{r} * d.k, StoredColumns(d));
    if (r < basicRows) {
      FlashBasicRow(a, d, r, x);
      StoreRow(out.HostPtr() + uint64_t{r} * d.k, x);
      continue;
    }
    FlashRow(a, d, r, x);
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
  sd::LeaveWorkBuffer leave("SoftmaxFlash", loc, sharedTmpBuffer);
  sd::CheckTypes<D, U>("SoftmaxFlash");
  const sd::Dims dims = LNGRAD_SOFTMAX_DIMS(srcTensor);
  // 3510 passes isBasicBlock on to SoftMaxNDImpl and to the update (SoftmaxFlashPostProcess):
  // whole registers there (RegBasicDims).
  const bool regBasic = isBasicBlock && sd::RegBase();
  if (regBasic) sd::RefuseBasicK("SoftmaxFlash", dims);
  const uint32_t blk = std::is_same_v<D, half> && std::is_same_v<U, float> ? 8 : 32 / sizeof(D);
  const uint64_t floats = sharedTmpBuffer.View().size_bytes / 4;
  if (!isUpdate) {
    // membase: SoftMaxNDImpl<T1, T2> (isBasicBlock left false) whatever isBasicBlock says; its
    // work buffer as SoftMax's over the kernel's tiling (2201 softmax_work.h, 2002
    // softmax_v200_work.h). On 2002 the splits whose NewReduce{Max,Sum}LastNDImpl operands wrap
    // (V200Defect) are refused in checked mode before anything is written; unchecked, dev holds
    // the device's dst and statistics, stored over SoftMaxRows's (V200Store), as SoftMax's.
    const SoftMaxTiling kt = sd::FlashKernelTiling(tiling, dims, blk, floats, isBasicBlock, false);
    // 2201's: refused, unchecked the device's rows (rowExps), as SoftMax's.
    sd::CheckV220Defect("SoftmaxFlash", true, kt, dims);
    sd::V200Device dev;
    sd::RowExps rowExps;
    if (kt.splitM != 0 &&
        (sd::SoftMaxWorkV220<D, U>("SoftmaxFlash", loc, kt, dims, srcTensor, &sumTensor, &maxTensor,
                                   sharedTmpBuffer, false, &rowExps) ||
         sd::SoftMaxWorkV200<D, U>("SoftmaxFlash", loc, kt, dims, srcTensor, &sumTensor, &maxTensor,
                                   sharedTmpBuffer, false, &dev))) {
      leave.Modelled();
    }
    // The row max reads the splits of the tiling the kernel runs (its re-tile's for another
    // shape's tiling), as SoftMax: the 2201/2002 order depends on a split's rows.
    sd::SoftMaxRows<D, U>("SoftmaxFlash", false, sd::Finish::kDiv, dstTensor, &sumTensor,
                          &maxTensor, srcTensor, &sharedTmpBuffer,
                          sd::WithSplits(sd::RegBasicDims(regBasic, dims), kt), loc, false,
                          &rowExps);
    sd::V200Store<D, U>(dev, dstTensor, &sumTensor, &maxTensor);
    return;
  }
  const bool basic2201 =
      isBasicBlock && lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k2201;
  if (basic2201) sd::RefuseBasicK("SoftmaxFlash", dims);
  sd::FlashWorkCall work{sd::FlashKernelTiling(tiling, dims, blk, floats, isBasicBlock, true),
                         isBasicBlock, false};
  // A tiling whose reduceK is not the statistics' 32 bytes (the host tiling of half data with
  // float statistics: 16): the generic update indexes the statistics reduceK a row
  // (softmaxflash_work.h FlashStatDefect); refused in checked mode before anything is written,
  // unchecked mode follows the kit's sequence (FlashWorkRun).
  if (const std::string why = sd::FlashStatDefect<D, U>(work.kt, dims, isBasicBlock);
      !why.empty() && !sd::RegBase() && lngrad::aicore::CheckedMode()) {
    lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kSoftmaxDeviceDefect,
                                     "SoftmaxFlash (update), srcShape {" + std::to_string(dims.m) +
                                         ", " + std::to_string(dims.k) + "}: " + why);
  }
  if (basic2201) {
    // Shapes SoftmaxFlashBasicBlock[Float] computes wrongly: refused in checked mode before
    // anything is written; unchecked mode follows the kit's sequence (softmaxflash_basic_work.h).
    const std::string why = sd::FlashBasicDefect(work.kt, std::is_same_v<D, half>);
    if (!why.empty() && lngrad::aicore::CheckedMode()) {
      lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kSoftmaxDeviceDefect,
                                       "SoftmaxFlash (isBasicBlock, update): " + why);
    }
  }
  sd::FlashRows<D, U>(
      {dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor},
      sd::RegBasicDims(regBasic, dims), sharedTmpBuffer, loc,
      sd::FlashBasicRows(isBasicBlock, tiling, dims, blk, sharedTmpBuffer.View().size_bytes),
      &work);
  if (work.ran) leave.Modelled();
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
