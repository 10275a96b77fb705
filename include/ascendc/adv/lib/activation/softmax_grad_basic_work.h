// lngrad: what SoftmaxGradFront<T, isBasicBlock = true> (ND) leaves on arch 2201 and 2002 in its
// work buffer and in dst past the output rows, byte for byte (membase/common/
// softmax_grad_nd_impl.h SoftmaxGradFrontNDImpl's isBasicBlock branch over the rangeM full
// splits of the tiling the kernel runs, then the generic tail split, softmax_grad_work.h's).
// Per full split: half: [src | grad | product] splitSize floats each, then the row sums; the
// chunk Adds fold each row's 64-float chunks into its first, BlockReduceSum leaves 8 block sums
// per row at the product's start, a second one the row sums (ceil(splitM / 8) groups of 8, rows
// past splitM summed from what the product buffer holds there), then 2201's two Brcbs / 2002's
// AlignedBrcbImpl loop write 16 copies per row over the product buffer and the half Cast stores
// ceil(splitM * 16 / 64) whole repeats of dst; float: the product, the sums after it, and 8
// copies per row (ceil(splitM / 8) * 8 rows) straight into dst. Where splitM is not a multiple of
// 4 (half) or 8 (float) the last full split writes dst rows past the call's rows unless the tail
// covers them: lngrad writes them too (past dst's size: checked mode refuses, as any overrun).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "lib/activation/softmax_grad_work.h"

namespace lngrad::aicore::softmax_detail {

// Rows per split of SoftmaxGradFront<isBasicBlock>'s re-tile on the work buffer's floats
// (SoftMaxGradTilingFunc with isFront and isBasicBlock; 0: no row fits).
inline uint64_t GradFrontBasicSplitRows(const Dims& d, uint32_t typeSize, uint64_t workFloats) {
  const uint64_t blk = 32 / typeSize;
  uint64_t m = typeSize == 2 ? workFloats / (blk * 2 + uint64_t{d.k} * 3 + kLanes)
                             : workFloats / (blk + d.k + kLanes);
  if (m < d.m && m > 8) m = m / 8 * 8;
  m = m < d.m ? m : d.m;
  if (m > 8 && d.m % 8 == 0) m = BasicBlockRows(m, d.m, d.k);
  return m;
}

// The kit's basic-block sequence over its full splits and the tail, run over images of the work
// buffer and of dst (the call's rows and what follows them).
class GradFrontBasicWork {
 public:
  GradFrontBasicWork(const AscendC::tiling::SoftMaxTiling& kt, bool half, bool v200)
      : kt_(kt), half_(half), v200_(v200) {}

  // False where the sequence is not modelled: splitK not whole 64-float chunks, a count the kit
  // casts to uint8_t past 255, a buffer past the work buffer's end.
  bool Covered(uint64_t workFloats) const {
    if (kt_.rangeM == 0) return true;
    const uint64_t k = kt_.splitK, ceilM = CeilM();
    if (k == 0 || k % kLanes != 0 || kt_.splitSize / kLanes > 255 || kt_.splitM > 255 ||
        k / kLanes * 8 > 255 || ceilM > 255 || CastRepeats() > 255) {
      return false;
    }
    const uint64_t s = kt_.splitSize, prod = half_ ? 2 * s : 0, sums = half_ ? 3 * s : s;
    uint64_t end = std::max(sums + ceilM * 8, prod + ceilM * kLanes);
    if (half_) end = std::max(end, prod + ceilM * 128);
    return end <= workFloats;
  }
  // dst elements the full splits reach.
  uint64_t DstEnd() const {
    if (kt_.rangeM == 0) return 0;
    return uint64_t{kt_.rangeM - 1} * kt_.reduceSize +
           (half_ ? CastRepeats() * kLanes : CeilM() * kLanes);
  }

  // Full split i over the image w, its dst stores through put(element, value).
  template <typename T, typename Put>
  void FullSplit(GradWork& w, const T* grad, const T* src, uint32_t i, Put put) const {
    const uint64_t s = kt_.splitSize, o1 = uint64_t{i} * s, o2 = uint64_t{i} * kt_.reduceSize;
    const uint64_t prod = half_ ? 2 * s : 0, sums = half_ ? 3 * s : s;
    if (half_) {
      for (uint64_t j = 0; j < s; ++j) w.Set(j, Widen(src[o1 + j]));
      for (uint64_t j = 0; j < s; ++j) w.Set(s + j, Widen(grad[o1 + j]));
      for (uint64_t j = 0; j < s; ++j) w.Set(prod + j, w.Get(j) * w.Get(s + j));
    } else {
      for (uint64_t j = 0; j < s; ++j) w.Set(j, Widen(src[o1 + j]) * Widen(grad[o1 + j]));
    }
    const uint64_t k = kt_.splitK, chunks = k / kLanes;
    for (uint64_t c = 1; c < chunks; ++c) {
      for (uint64_t r = 0; r < kt_.splitM; ++r) {
        for (uint64_t l = 0; l < kLanes; ++l) {
          const uint64_t at = prod + r * k + l;
          w.Set(at, w.Get(at) + w.Get(at + c * kLanes));
        }
      }
    }
    BlockSums(w, prod, prod, kt_.splitM, k);
    BlockSums(w, sums, prod, CeilM(), kLanes);
    const uint64_t copies = half_ ? 16 : 8;
    float x[8];
    for (uint32_t pass = 0; pass < (half_ && !v200_ ? 2u : 1u); ++pass) {
      for (uint64_t q = 0; q < CeilM(); ++q) {
        for (uint64_t b = 0; b < 8; ++b) x[b] = w.Get(sums + q * 8 + b);
        for (uint64_t b = 0; b < 8; ++b) {
          // 2201 half: the first Brcb fills lanes 0..7 of every row, the second 8..15.
          const uint64_t from = half_ && !v200_ ? pass * 8 : 0,
                         to = half_ && !v200_ ? from + 8 : copies;
          for (uint64_t l = from; l < to; ++l) {
            const uint64_t at = q * 8 * copies + b * copies + l;
            if (half_) {
              w.Set(prod + at, x[b]);
            } else {
              put(o2 + at, x[b]);
            }
          }
        }
      }
    }
    if (half_) {
      for (uint64_t j = 0; j < CastRepeats() * kLanes; ++j) put(o2 + j, w.Get(prod + j));
    }
  }

 private:
  uint64_t CeilM() const { return (uint64_t{kt_.splitM} + 7) / 8; }
  uint64_t CastRepeats() const { return (uint64_t{kt_.reduceSize} + kLanes - 1) / kLanes; }
  // BlockReduceSum(dst, src, repeats, full mask, 1, 1, stride): each repeat reads 64 floats at
  // src + r * stride, then writes its 8 block sums at dst + 8 r.
  static void BlockSums(GradWork& w, uint64_t dst, uint64_t src, uint64_t repeats,
                        uint64_t stride) {
    float in[8], out[8];
    for (uint64_t r = 0; r < repeats; ++r) {
      for (uint64_t b = 0; b < 8; ++b) {
        for (uint64_t j = 0; j < 8; ++j) in[j] = w.Get(src + r * stride + b * 8 + j);
        out[b] = Tree8(in);
      }
      for (uint64_t b = 0; b < 8; ++b) w.Set(dst + r * 8 + b, out[b]);
    }
  }

  AscendC::tiling::SoftMaxTiling kt_;
  bool half_, v200_;
};

// SoftmaxGradFront<isBasicBlock> on 2201 / 2002 after GradRows wrote the result: the work
// buffer as the kit leaves it, the full splits' rows as they store them and dst's elements past
// the call's rows that they store. dstBefore: dst's first max(out, DstEnd) elements before the call
// (float: the tail's ReduceSumLastNDImpl keeps temporaries there). False where not modelled
// (nothing written).
template <typename T>
bool LeaveGradFrontBasic(const char* api, SrcLoc loc, const std::vector<T>& dstBefore,
                         const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& grad,
                         const AscendC::LocalTensor<T>& src,
                         const AscendC::LocalTensor<uint8_t>& tmp,
                         const AscendC::tiling::SoftMaxTiling& kt, const Dims& d) {
  if (tmp.HostPtr() == nullptr) return true;
  constexpr bool kHalf = sizeof(T) == 2;
  const GradFrontBasicWork seq(kt, kHalf, detail::rep::RunningArch() == NpuArch::k2002);
  GradWork w(tmp);
  if (!seq.Covered(w.Floats())) return false;
  if (kt.tailM != 0 && GradWorkExtent(kt, kHalf, true) > w.Floats()) return false;
  std::vector<T> image = dstBefore;
  const uint64_t out = uint64_t{d.m} * Lanes<T>();
  image.resize(std::max<uint64_t>({image.size(), seq.DstEnd(), out}));
  for (uint32_t i = 0; i < kt.rangeM; ++i) {
    seq.FullSplit(w, grad.HostPtr(), src.HostPtr(), i,
                  [&](uint64_t e, float v) { image[e] = Narrow<T>(v); });
  }
  if (kt.tailM != 0) {
    std::vector<float> rows;  // float: the tail's rows as the device sees them
    float* at = nullptr;
    if constexpr (!kHalf) {
      const uint64_t o = uint64_t{kt.rangeM} * kt.reduceSize;
      rows.assign(image.begin() + static_cast<int64_t>(o),
                  image.begin() + static_cast<int64_t>(o + uint64_t{kt.tailM} * kt.reduceK));
      at = rows.data();
    }
    GradNdSplit<T>(w, kt, d.oriK, grad.HostPtr(), src.HostPtr(), at, true, true,
                   kt.rangeM * kt.splitM, kt.tailM);
  }
  w.Store(api, loc);
  // The full splits' rows as they store them: GradRows' sums, except where 2201's half Brcbs
  // read sums the first Brcb overwrote (splitM * splitK < 128: one row of 64).
  const uint64_t full = std::min<uint64_t>(uint64_t{kt.rangeM} * kt.reduceSize, out);
  if (full != 0) std::memcpy(dst.HostPtr(), image.data(), full * sizeof(T));
  if (seq.DstEnd() > out) {                 // the full splits' stores past the call's rows
    const uint64_t n = seq.DstEnd() - out;  // past dst's size: checked by the caller
    std::memcpy(dst.HostPtr() + out, image.data() + out, n * sizeof(T));
    san::Instr rec(Pipe::kV, api, loc);
    if (rec) rec.Write(reinterpret_cast<uint8_t*>(dst.HostPtr() + out), n * sizeof(T));
  }
  return true;
}

}  // namespace lngrad::aicore::softmax_detail
