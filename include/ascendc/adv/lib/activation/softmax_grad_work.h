// lngrad: the work buffer SoftmaxGrad and SoftmaxGradFront leave on arch 2201 and 2002 (ND, not
// isBasicBlock), byte for byte: membase/common/softmax_grad_nd_impl.h's buffers over the splits of
// the tiling the kernel runs (softmax_grad_base_impl.h: the caller's when made for srcM and srcK,
// else SoftMaxGradTilingFunc of the buffer), each instruction's writes in order
// (v220 softmax_common_nd_reduce.h ReduceSumLastNDImpl, softmax_common_broadcast.h; on 2002
// membase/v200/softmax_common_impl.h's, GradReduceSumV200). Later splits
// overwrite earlier ones; a tail split leaves the earlier split's values past its rows, and its
// BroadCastLastImpl still runs reduceM rows (stale sums of the earlier split broadcast).
//   half: [src | grad | product, then (grad - s) * src] splitSize floats each, reduce
//         (reduceSize), add (reduceM * 16);
//   float: [src * grad, then grad - s] splitSize, reduce (reduceSize), add (reduceM * 8);
//   float isFront: [src * grad] splitSize, reduce (reduceM * 8); ReduceSumLastNDImpl's own
//         temporaries go to dst's rows, whose contents before the call the buffer may copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

// SoftMaxGradTilingFunc (softmax_tiling_func.h) as the 2201/2002 kernels run it for a tiling made
// for another shape: rows per split from the work buffer's floats w (half: w / (2 blk + 3 k + 64);
// float: w / (blk + k + 64) with isFront, else w / (k + 2 blk + 64)), cut to an 8-multiple between
// 8 and srcM, at most srcM (isBasicBlock with isFront: GradFrontBasicRows's basic rows).
inline AscendC::tiling::SoftMaxTiling GradKernelTiling(const AscendC::tiling::SoftMaxTiling& t,
                                                       const Dims& d, uint32_t typeSize,
                                                       uint64_t workFloats, bool isFront) {
  if (t.srcM == d.m && t.srcK == d.k) return t;
  const uint64_t blk = 32 / typeSize;
  uint64_t m = typeSize == 2 ? workFloats / (blk * 2 + uint64_t{d.k} * 3 + kLanes)
               : isFront     ? workFloats / (blk + d.k + kLanes)
                             : workFloats / (d.k + blk * 2 + kLanes);
  if (m < d.m && m > 8) m = m / 8 * 8;
  m = std::min<uint64_t>(m, d.m);
  return SplitTiling(t, d, static_cast<uint32_t>(m), static_cast<uint32_t>(blk), d.m);
}

// A float image of the work buffer with the floats the sequence wrote.
class GradWork {
 public:
  explicit GradWork(const AscendC::LocalTensor<uint8_t>& tmp)
      : base_(tmp.HostPtr()), w_(tmp.View().size_bytes / 4), wrote_(w_.size(), false) {
    if (base_ != nullptr) std::memcpy(w_.data(), base_, w_.size() * 4);
  }
  uint64_t Floats() const { return w_.size(); }
  float Get(uint64_t i) const { return w_[i]; }
  void Set(uint64_t i, float v) {
    w_[i] = v;
    wrote_[i] = true;
  }
  // Copies the image back and records each run of written floats for the sanitizer.
  void Store(const char* api, SrcLoc loc) const {
    std::memcpy(base_, w_.data(), w_.size() * 4);
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    for (uint64_t i = 0; i < w_.size();) {
      if (!wrote_[i]) {
        ++i;
        continue;
      }
      uint64_t j = i;
      while (j < w_.size() && wrote_[j]) ++j;
      rec.Write(base_ + i * 4, (j - i) * 4);
      i = j;
    }
  }

 private:
  uint8_t* base_;
  std::vector<float> w_;
  std::vector<bool> wrote_;
};

// A float array the reduction reads and writes: the work image at an offset, or dst's rows.
struct GradSlot {
  GradWork* work = nullptr;
  uint64_t at = 0;
  float* out = nullptr;
  float Get(uint64_t i) const { return work != nullptr ? work->Get(at + i) : out[i]; }
  void Set(uint64_t i, float v) const {
    if (work != nullptr) {
      work->Set(at + i, v);
    } else {
      out[i] = v;
    }
  }
};

// ReduceSumLastNDImpl(dst, src, tmp) for `rows` rows of k (oriK summed), dstK lanes per row:
// AlignedReduceSumNDImpl's eight block sums per row in dst (its temporary), accumulated in tmp,
// tmp's block trees in tmp[0..rows) (BlockReduceSum in place; blocks past the rows left alone),
// the tail's masked WholeReduceSum in dst[0..rows), copied (no whole chunk: rows blocks) or added
// (rows * 8 lanes) into tmp, then tmp[r] to dst's dstK lanes of row r.
inline void GradReduceSum(const GradSlot& dst, const GradSlot& src, const GradSlot& tmp,
                          uint32_t rows, uint32_t oriK, uint32_t k, uint32_t dstK) {
  const uint32_t chunks = oriK / kLanes, tail = oriK % kLanes;
  const uint64_t lanes = uint64_t{rows} * 8;
  float blk[8];
  auto blockSums = [&](uint32_t chunk) {
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t b = 0; b < 8; ++b) {
        for (uint32_t j = 0; j < 8; ++j) {
          blk[j] = src.Get(uint64_t{r} * k + uint64_t{chunk} * kLanes + b * 8 + j);
        }
        dst.Set(uint64_t{r} * 8 + b, Tree8(blk));
      }
    }
  };
  if (chunks > 0) {
    blockSums(0);
    for (uint64_t j = 0; j < lanes; ++j) tmp.Set(j, dst.Get(j));
    for (uint32_t c = 1; c < chunks; ++c) {
      blockSums(c);
      for (uint64_t j = 0; j < lanes; ++j) tmp.Set(j, tmp.Get(j) + dst.Get(j));
    }
    std::vector<float> row(rows);
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t j = 0; j < 8; ++j) blk[j] = tmp.Get(uint64_t{r} * 8 + j);
      row[r] = Tree8(blk);
    }
    for (uint32_t r = 0; r < rows; ++r) tmp.Set(r, row[r]);
  }
  if (tail != 0) {
    float lane[kLanes];
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t j = 0; j < tail; ++j) lane[j] = src.Get(uint64_t{r} * k + chunks * kLanes + j);
      dst.Set(r, ScalarTree64(lane, tail));
    }
    for (uint64_t j = 0; j < lanes; ++j) {
      tmp.Set(j, chunks == 0 ? dst.Get(j) : tmp.Get(j) + dst.Get(j));
    }
  }
  for (uint32_t r = 0; r < rows; ++r) {
    const float s = tmp.Get(r);
    for (uint32_t l = 0; l < dstK; ++l) dst.Set(uint64_t{r} * dstK + l, s);
  }
}

// membase/v200's ReduceSumLastNDImpl (arch 2002): oriK <= 64, one masked WholeReduceSum per row
// at dst[r * dstK]; else per whole chunk (then the tail) a WholeReduceSum per row at
// tmp[r * dstK], copied (the first) or added to dst over all rows * dstK lanes; then the scalar
// BroadCastLastImpl(dst, dst): lane 0 of each row to its dstK lanes.
inline void GradReduceSumV200(const GradSlot& dst, const GradSlot& src, const GradSlot& tmp,
                              uint32_t rows, uint32_t oriK, uint32_t k, uint32_t dstK) {
  const uint64_t all = uint64_t{rows} * dstK;
  float lane[kLanes];
  auto tree = [&](const GradSlot& out, uint32_t first, uint32_t n) {
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t j = 0; j < n; ++j) lane[j] = src.Get(uint64_t{r} * k + first + j);
      out.Set(uint64_t{r} * dstK, ScalarTree64(lane, n));
    }
  };
  if (oriK <= kLanes) {
    tree(dst, 0, oriK);
  } else {
    for (uint32_t first = 0; first < oriK; first += kLanes) {
      tree(tmp, first, std::min(kLanes, oriK - first));
      for (uint64_t j = 0; j < all; ++j)
        dst.Set(j, first == 0 ? tmp.Get(j) : dst.Get(j) + tmp.Get(j));
    }
  }
  for (uint32_t r = 0; r < rows; ++r) {
    const float s = dst.Get(uint64_t{r} * dstK);
    for (uint32_t l = 1; l < dstK; ++l) dst.Set(uint64_t{r} * dstK + l, s);
  }
}

// The floats the sequence's buffers reach (GradNdWork writes nothing past them).
inline uint64_t GradWorkExtent(const AscendC::tiling::SoftMaxTiling& t, bool half, bool front) {
  const uint64_t add = uint64_t{t.reduceM} * (half ? 16 : 8);
  if (half) return uint64_t{t.splitSize} * 3 + t.reduceSize + add;
  return front ? uint64_t{t.splitSize} + add : uint64_t{t.splitSize} + t.reduceSize + add;
}

// The row sums of arch 2201 (v220) or 2002 (v200), and the lane BroadCastLastImpl reads for
// column c: c % 8 (v220's Copy of the row's first block), 0 (v200's scalar loop).
struct GradArch {
  bool v200;
  void Reduce(const GradSlot& dst, const GradSlot& src, const GradSlot& tmp, uint32_t rows,
              uint32_t oriK, uint32_t k, uint32_t dstK) const {
    if (v200) {
      GradReduceSumV200(dst, src, tmp, rows, oriK, k, dstK);
    } else {
      GradReduceSum(dst, src, tmp, rows, oriK, k, dstK);
    }
  }
  uint32_t Lane(uint32_t c) const { return v200 ? 0 : c % 8; }
};

// One split of `rows` rows from row0 (kt: the kernel's tiling). frontApi: SoftmaxGradFront,
// whose float Mul is src * grad (SoftmaxGrad's isFront passes them swapped: grad * src).
template <typename T>
void GradNdSplit(GradWork& w, const AscendC::tiling::SoftMaxTiling& kt, uint32_t oriK,
                 const T* grad, const T* src, float* dstRows, bool front, bool frontApi,
                 uint32_t row0, uint32_t rows) {
  const uint64_t n = uint64_t{rows} * kt.srcK, o1 = uint64_t{row0} * kt.srcK;
  const uint64_t s = kt.splitSize;
  const GradArch arch{detail::rep::RunningArch() == NpuArch::k2002};
  if constexpr (sizeof(T) == 2) {
    const GradSlot sb{&w, 0}, gb{&w, s}, db{&w, 2 * s}, rb{&w, 3 * s},
        ab{&w, 3 * s + kt.reduceSize};
    for (uint64_t j = 0; j < n; ++j) sb.Set(j, Widen(src[o1 + j]));
    for (uint64_t j = 0; j < n; ++j) gb.Set(j, Widen(grad[o1 + j]));
    for (uint64_t j = 0; j < n; ++j) db.Set(j, sb.Get(j) * gb.Get(j));
    arch.Reduce(ab, db, rb, rows, oriK, kt.srcK, kt.reduceK);
    if (front) return;
    for (uint64_t r = 0; r < kt.reduceM; ++r) {  // BroadCastLastImpl: reduceM rows
      for (uint32_t c = 0; c < kt.srcK; ++c) {
        db.Set(r * kt.srcK + c, ab.Get(r * kt.reduceK + arch.Lane(c)));
      }
    }
    for (uint64_t j = 0; j < n; ++j) db.Set(j, gb.Get(j) - db.Get(j));
    for (uint64_t j = 0; j < n; ++j) db.Set(j, db.Get(j) * sb.Get(j));
  } else if (front) {
    const GradSlot sb{&w, 0}, rb{&w, s}, dst{nullptr, 0, dstRows};
    for (uint64_t j = 0; j < n; ++j) {
      sb.Set(j, frontApi ? src[o1 + j] * grad[o1 + j] : grad[o1 + j] * src[o1 + j]);
    }
    arch.Reduce(dst, sb, rb, rows, oriK, kt.srcK, kt.reduceK);
  } else {
    const GradSlot sb{&w, 0}, rb{&w, s}, ab{&w, s + kt.reduceSize};
    for (uint64_t j = 0; j < n; ++j) sb.Set(j, src[o1 + j] * grad[o1 + j]);
    arch.Reduce(ab, sb, rb, rows, oriK, kt.srcK, kt.reduceK);
    for (uint64_t r = 0; r < kt.reduceM; ++r) {  // BroadCastLastImpl: reduceM rows
      for (uint32_t c = 0; c < kt.srcK; ++c) sb.Set(r * kt.srcK + c, ab.Get(r * 8 + arch.Lane(c)));
    }
    for (uint64_t j = 0; j < n; ++j) sb.Set(j, grad[o1 + j] - sb.Get(j));
  }
}

// Writes the work buffer as the 2201 / 2002 ND sequence leaves it. dstBefore: float isFront, dst's
// first m * 8 floats before the call (ReduceSumLastNDImpl's temporaries there reach the buffer).
// False where the buffers pass the end of tmp (nothing written; the caller marks the buffer).
template <typename T>
bool LeaveGradNdWork(const char* api, SrcLoc loc, const std::vector<float>& dstBefore,
                     const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                     const AscendC::LocalTensor<uint8_t>& tmp,
                     const AscendC::tiling::SoftMaxTiling& tiling, const Dims& d, bool front,
                     bool frontApi) {
  if (tmp.HostPtr() == nullptr) return true;
  const AscendC::tiling::SoftMaxTiling kt =
      GradKernelTiling(tiling, d, sizeof(T), tmp.View().size_bytes / 4, front);
  GradWork w(tmp);
  if (kt.splitM == 0 || GradWorkExtent(kt, sizeof(T) == 2, front) > w.Floats()) return false;
  std::vector<float> rows;  // float isFront: dst's rows of the split, as the device sees them
  auto split = [&](uint32_t row0, uint32_t n) {
    float* out = nullptr;
    if constexpr (std::is_same_v<T, float>) {
      if (front) {
        const uint64_t at = uint64_t{row0} * kt.reduceK, len = uint64_t{n} * kt.reduceK;
        rows.assign(len, 0.0f);
        for (uint64_t j = 0; j < len && at + j < dstBefore.size(); ++j) rows[j] = dstBefore[at + j];
        out = rows.data();
      }
    }
    GradNdSplit<T>(w, kt, d.oriK, grad.HostPtr(), src.HostPtr(), out, front, frontApi, row0, n);
  };
  for (uint32_t i = 0; i < kt.rangeM; ++i) split(i * kt.splitM, kt.splitM);
  if (kt.tailM != 0) split(kt.rangeM * kt.splitM, kt.tailM);
  w.Store(api, loc);
  return true;
}

}  // namespace lngrad::aicore::softmax_detail
