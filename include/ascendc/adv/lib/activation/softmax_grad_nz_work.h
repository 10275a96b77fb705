// lngrad: the work buffer SoftmaxGrad and SoftmaxGradFront leave in the NZ data format
// (isDataFormatNZ) on arch 2201 and 2002, byte for byte: membase/common/softmax_grad_nz_impl.h
// (SoftMaxGradGenericNZImpl, SoftMaxGradFrontGenericNZImpl; both arches run this file) over the
// splits of the tiling the kernel runs (softmax_grad_base_impl.h: the caller's when made for srcM
// and srcK, else SoftMaxGradTilingFunc's NZ rows), each instruction's writes in order, with the
// row sums of membase/common/softmax_common_nz_reduce.h ReduceSumLastNZImpl and
// softmax_common/softmax_common_{reduce,broadcast}.h. S = splitM, R = the split's rows, B = srcK /
// 16 fractals; fractal j of a split sits at j * S * 16 in each buffer, R * 16 floats of it written
// (counter mode); the reduction's buffer holds S rows of 16.
//   half:        [src | grad | src * grad, then (grad - s) * src] splitSize floats each, then the
//                reduction (grad - s is written over grad's buffer);
//   half front:  [src * grad (over src) | grad | the reduction];
//   float:       [src * grad, then grad - s | the reduction]; float front the same but for the Sub.
// The reduction (its buffer `red`, the products `p`): one fractal with oriSrcK % 16 != 0 (not
// front): a masked WholeReduceSum per row for all S rows into red[r * 16], then lane 0 of the
// split's R rows to their 16 lanes (AlignedColumnBrcbImpl). Otherwise the fractals accumulate in
// red (Muls by 1, Add, the last fractal's Add under the tail repeat's oriSrcK mask for the last
// R % 4 rows; one fractal: red is read from p directly), lanes 0..7 += lanes 8..15 for all S rows,
// BlockReduceSum of every 8 rows into red[128 q + b] (the last partial group's empty blocks left
// alone), then the R rows' sums to their 16 lanes (BroadCastNZImpl's Muls and TransDataTo5HD when
// R % 8 == 0, else ContinuousColumnBrcbImpl). A tail split (R < S) thus reduces rows R .. S - 1 of
// the earlier split's products, which stay in the buffer.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/activation/softmax_grad_work.h"
#include "lib/activation/softmax_nz.h"
#include "lib/activation/softmax_nz_work.h"

namespace lngrad::aicore::softmax_detail {

// The tiling SoftmaxGrad/Front NZ runs: the caller's when made for srcM and srcK, else
// SoftMaxGradTilingFunc with isDataFormatNZ (GradNzSplits' rows; splitSize rows * srcK).
inline AscendC::tiling::SoftMaxTiling GradNzKernelTiling(const AscendC::tiling::SoftMaxTiling& t,
                                                         uint32_t srcM, uint32_t k,
                                                         uint32_t typeSize, uint64_t tmpBytes) {
  if (k == t.srcK && srcM == t.srcM) return t;
  const NzSplits sp = GradNzSplits(t, srcM, k, typeSize, tmpBytes);
  AscendC::tiling::SoftMaxTiling kt = t;
  kt.srcM = srcM;
  kt.srcK = kt.splitK = k;
  kt.reduceM = kt.splitM = sp.splitM;
  kt.reduceK = 32 / typeSize;
  kt.reduceSize = sp.splitM * kt.reduceK;
  kt.splitSize = sp.splitM * k;
  kt.rangeM = sp.rangeM;
  kt.tailM = sp.tailM;
  return kt;
}

// Writes the work buffer as the 2201 / 2002 NZ sequence leaves it, for the kernel's tiling kt
// (srcM the fractals' M). False (nothing written; the caller marks the buffer) where the model
// does not reach: buffers past the end of tmp, a tiling whose splitSize is not splitM * srcK or
// whose splitK is not srcK, a broadcast of 2048 rows or more (BroadCastNZImpl's uint8_t repeat).
template <typename T>
bool LeaveGradNzWork(const char* api, SrcLoc loc, const T* grad, const T* src,
                     const AscendC::LocalTensor<uint8_t>& tmp,
                     const AscendC::tiling::SoftMaxTiling& kt, uint32_t oriK, bool front) {
  if (tmp.HostPtr() == nullptr) return true;
  const bool half = sizeof(T) == 2;
  const uint32_t S = kt.splitM, k = kt.srcK, blocks = k / kNzCols;
  if (S == 0 || k == 0 || k % kNzCols != 0 || kt.splitK != k || kt.splitSize != uint64_t{S} * k ||
      kt.tailM > S) {
    return false;
  }
  for (const uint32_t rows : {kt.rangeM != 0 ? S : 0u, kt.tailM}) {
    if (rows % 8 == 0 && rows / 8 > 255) return false;
  }
  const uint64_t ss = kt.splitSize;
  const uint64_t red = half ? (front ? 2 : 3) * ss : ss;
  GradWork w(tmp);
  if (red + uint64_t{S} * kNzCols > w.Floats()) return false;
  const uint32_t len = front || oriK % kNzCols == 0 ? kNzCols : oriK % kNzCols;
  const uint64_t step = uint64_t{S} * kNzCols, fractal = uint64_t{kt.srcM} * kNzCols;
  auto split = [&](uint32_t row0, uint32_t rows) {
    const uint64_t n = uint64_t{rows} * kNzCols, o = uint64_t{row0} * kNzCols;
    const uint64_t p = half && !front ? 2 * ss : 0;  // the products
    for (uint32_t j = 0; j < blocks; ++j) {
      for (uint64_t e = 0; e < n; ++e) {
        const uint64_t at = o + j * fractal + e, b = step * j + e;
        if constexpr (sizeof(T) == 2) {
          w.Set(b, Widen(src[at]));
          w.Set(ss + b, Widen(grad[at]));
        } else {
          w.Set(b, src[at] * grad[at]);
        }
      }
    }
    if constexpr (sizeof(T) == 2) {
      for (uint32_t j = 0; j < blocks; ++j) {
        for (uint64_t e = 0; e < n; ++e)
          w.Set(p + step * j + e, w.Get(step * j + e) * w.Get(ss + step * j + e));
      }
    }
    // ReduceSumLastNZImpl: the caller's mask from tiling.splitK (all 16 lanes), the tail repeat's
    // from the reduction's originalSrcK (len).
    NzWorkReduce(w, red, p, rows, S, blocks, len, false, kNzCols);
    if (front) return;  // the sums go to dst (Cast, DataCopy), not the buffer
    for (uint32_t j = 0; j < blocks; ++j) {
      for (uint64_t e = 0; e < n; ++e) {
        const uint64_t b = step * j + e;
        if constexpr (sizeof(T) == 2) {
          w.Set(ss + b, w.Get(ss + b) - w.Get(red + e));
          w.Set(p + b, w.Get(ss + b) * w.Get(b));
        } else {
          w.Set(b, grad[o + j * fractal + e] - w.Get(red + e));
        }
      }
    }
  };
  for (uint32_t i = 0; i < kt.rangeM; ++i) split(i * S, S);
  if (kt.tailM != 0) split(kt.rangeM * S, kt.tailM);
  w.Store(api, loc);
  return true;
}

}  // namespace lngrad::aicore::softmax_detail
