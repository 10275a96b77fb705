// lngrad: SoftmaxFlash's update (isUpdate) on 2201 and 2002, the generic split loop of
// softmax_flash_base_impl/softmax_flash_nd_process_impl.h (not SoftmaxFlashBasicBlock[Float],
// which 2201 runs for isBasicBlock: softmaxflash_basic_work.h, which takes FlashWork's tail split
// for half data): every instruction over an image of the work buffer, the
// operands read and written in the kit's order, so dst, the statistics and the buffer hold what
// the device leaves (NaN and signed zeros included: ReduceMaxLastNDImpl's order, not
// NewReduceMaxLastNDImpl's). Per split (S = splitSize, R = reduceSize floats; the kit's names):
//   tmpBuffer0 at 0 (half data: the split's float copy; the final broadcast of a / sum),
//   tmpBuffer1 at S (x - max, its exponentials, their products), 2S: tmpBuffer2 (float data and
//   half statistics: the reduce sum's tmp, then the new max) or inMaxTmp (half data with float
//   statistics), reduceSumBuffer at 2S + R, tmpBuffer4 at 2S + 2R, inSumTmp at 2S + 3R; inMaxTmp
//   at 0 for float data and for half statistics.
// The reductions (membase/v220 softmax_common_nd_reduce.h; membase/v200 softmax_common_impl.h):
//  - 2201 ReduceMaxLastNDImpl / ReduceSumLastNDImpl(dst, src, tmp): for oriK >= 64, each 64-column
//    chunk's eight block maxima (sums) into dst[8 r + b], chunk 0 copied to tmp, the later ones
//    combined Max(tmp, dst) (a NaN or a zero tie gives the new chunk's), tmp's blocks reduced in
//    place to tmp[r]; the tail's masked WholeReduce into dst[r], copied over (no chunk) or
//    combined with tmp's first 8 m floats; then SingleBlockBroadCastImpl: dst[r * dstK + l] =
//    tmp[r] for the first originalSrcM rows;
//  - 2002: oriK <= 64 one WholeReduce per row into dst[r * dstK]; else per chunk (then the tail)
//    into tmp[r * dstK], copied (the first) or combined over dstM * dstK floats into dst;
//    WholeReduceMax's default ORDER_VALUE_INDEX leaves the winning lane's index (its bits) at
//    r * dstK + 1; then BroadCastLastImpl's scalar loop spreads lane 0 of each row.
// BroadCastLastImpl: 2201 column c of row r from lane c % 8 (Copy repeats), 2002 from lane 0.
// Half data with half statistics pop their own stack buffer (whatever buffer the caller passes:
// it is left untouched) and run the tail split with the full split's reduce and broadcast
// parameters (splitM rows: the rows past tailM reduce what the previous split left in the
// buffer); half data with float statistics run the tail's reduce that way too; float data runs
// it with tailM's. A reduceK of 8 or 16 floats other than the statistics' 32 bytes (the host
// tiling of half data with float statistics: 16) runs here too, the statistics reduceK a row as
// the kit indexes them (FlashStatK; checked mode refuses it first, FlashStatDefect). Tilings
// other than SoftMaxFlashTilingFunc's form (rows per split times srcK, reduceM = splitM, reduceK
// not 8 or 16), splits past the tensors, or buffers shorter than 2S + 4R floats: not run here
// (FlashWorkRun returns false; the caller's row model computes the results and the buffer stays
// marked).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmaxflashv2.h"

namespace lngrad::aicore::softmax_detail {

// The tiling the 2201/2002 SoftmaxFlash kernel runs (softmax_common_flash.h): the caller's when
// made for the shape, else SoftMaxFlashTilingFunc over the given buffer's floats w: w / (4 blk +
// 2 srcK) rows per split with isUpdate, w / (2 blk + 2 srcK) without, at most srcM (with
// isBasicBlock, srcM % 8 == 0 and more than 8 rows: a multiple of 8 dividing srcM). No row
// asserts (refused in any mode: the kernel would divide by it), not on 3510.
inline AscendC::tiling::SoftMaxTiling FlashKernelTiling(const AscendC::tiling::SoftMaxTiling& t,
                                                        const Dims& d, uint32_t blk, uint64_t w,
                                                        bool basic, bool update) {
  if (t.srcM == d.m && t.srcK == d.k) return t;
  uint64_t m = w / ((update ? 4 : 2) * uint64_t{blk} + 2 * uint64_t{d.k});
  m = m < d.m ? m : d.m;
  if (basic && m > 8 && d.m % 8 == 0) {
    m = m / 8 * 8;
    while (d.m % m != 0) m -= 8;
  }
  if (m == 0 && !RegBase()) {
    RaiseKernelCheck(checks::kTmpBuffer,
                     "SoftmaxFlash: the kernel re-tiles a tiling made for another shape and the "
                     "work buffer (" +
                         std::to_string(w) +
                         " floats) holds no row (SoftMaxFlashTilingFunc asserts)");
  }
  return SplitTiling(t, d, static_cast<uint32_t>(m), blk, d.m);
}

// One split's reduce parameters (ReduceLastND: originalSrcM, originalSrcK, srcM, srcK, dstM,
// dstK).
struct FlashRed {
  uint32_t oriM, oriK, srcM, srcK, dstM, dstK;
};

// The work buffer's float image and the floats the sequence wrote.
class FlashWorkImage {
 public:
  FlashWorkImage(float* base, uint64_t floats) : w_(base), wr_(floats, false) {}
  float* At(uint64_t at, uint64_t n) {
    std::fill(wr_.begin() + static_cast<std::ptrdiff_t>(at),
              wr_.begin() + static_cast<std::ptrdiff_t>(at + n), true);
    return w_ + at;
  }
  float* Peek(uint64_t at) const { return w_ + at; }
  // Marks the image floats among [p, p + n) as written (p may lie outside the image).
  void Touch(const float* p, uint64_t n) {
    const float* end = w_ + wr_.size();
    const float* lo = p < w_ ? w_ : p;
    const float* hi = p + n > end ? end : p + n;
    for (const float* q = lo; q < hi; ++q) wr_[static_cast<uint64_t>(q - w_)] = true;
  }
  void Record(const char* api, SrcLoc loc) const {
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    for (uint64_t i = 0; i < wr_.size();) {
      uint64_t j = i;
      while (j < wr_.size() && wr_[j]) ++j;
      if (j > i) rec.Write(w_ + i, (j - i) * 4);
      i = j == i ? i + 1 : j;
    }
  }

 private:
  float* w_;
  std::vector<bool> wr_;
};

// The lane reduction of WholeReduceMax / BlockReduceMax (first NaN, else first largest) with the
// winning lane.
inline float FlashLaneMax(const float* v, uint32_t n, uint32_t* lane) {
  uint32_t best = 0;
  for (uint32_t j = 1; j < n && v[best] == v[best]; ++j) {
    if (v[j] != v[j] || v[j] > v[best]) best = j;
  }
  *lane = best;
  return v[best];
}

inline float FlashMax(float a, float b) { return a > b ? a : b; }

// One row's max as ReduceMaxLastNDImpl leaves it (the model's order, for FlashRow's rows: the
// 2201 basic-block update's half tail split, tilings the model does not take): 2201 chunk 0's
// block maxima, Max(acc, chunk c's), the block tree, then Max(row, tail); 2002 each chunk's
// WholeReduceMax, Max(acc, chunk), Max(acc, tail).
inline float FlashKitRowMax(const float* x, uint32_t k) {
  const bool v200 = detail::rep::RunningArch() == NpuArch::k2002;
  const uint32_t chunks = k / kLanes, tailK = k % kLanes;
  uint32_t lane = 0;
  float m = 0.0f;
  if (chunks != 0 && v200) {
    m = FlashLaneMax(x, kLanes, &lane);
    for (uint32_t c = 1; c < chunks; ++c)
      m = FlashMax(m, FlashLaneMax(x + c * kLanes, kLanes, &lane));
  } else if (chunks != 0) {
    float acc[8];
    for (uint32_t b = 0; b < 8; ++b) acc[b] = FlashLaneMax(x + 8 * b, 8, &lane);
    for (uint32_t c = 1; c < chunks; ++c) {
      for (uint32_t b = 0; b < 8; ++b) {
        acc[b] = FlashMax(acc[b], FlashLaneMax(x + c * kLanes + 8 * b, 8, &lane));
      }
    }
    m = FlashLaneMax(acc, 8, &lane);
  }
  if (tailK != 0) {
    const float t = FlashLaneMax(x + chunks * kLanes, tailK, &lane);
    m = chunks != 0 ? FlashMax(m, t) : t;
  }
  return m;
}

// The membase update's instruction sequence over the image (offsets in floats: dst, tmp).
template <typename T, typename U>
class FlashWork {
 public:
  FlashWork(const FlashV2Args<T, U, T>& a, const AscendC::tiling::SoftMaxTiling& t,
            FlashWorkImage& img, uint32_t oriK)
      : a_(a), t_(t), img_(img), oriK_(oriK) {}

  void Run() {
    constexpr bool kFloat = std::is_same_v<T, float>;
    const FlashRed full{t_.splitM, oriK_, t_.splitM, t_.splitK, t_.reduceM, t_.reduceK};
    const FlashRed tail{t_.tailM, oriK_, t_.tailM, t_.splitK, t_.tailM, t_.reduceK};
    for (uint32_t i = 0; i < t_.rangeM; ++i) Split(i, t_.splitSize, t_.reduceSize, full, false);
    if (t_.tailM != 0) {
      Split(t_.rangeM, t_.tailSplitSize, t_.tailReduceSize, kFloat ? tail : full, true);
    }
  }

  // Only the tail split (half data after the 2201 basic-block splits: softmaxflash_basic_work.h).
  void RunTail() {
    const FlashRed full{t_.splitM, oriK_, t_.splitM, t_.splitK, t_.reduceM, t_.reduceK};
    if (t_.tailM != 0) Split(t_.rangeM, t_.tailSplitSize, t_.tailReduceSize, full, true);
  }

 private:
  static constexpr bool kHalfStat = std::is_same_v<U, half>;

  // ReduceMaxLastNDImpl (max) / ReduceSumLastNDImpl into image float dst with tmp at tmp.
  void Reduce(bool max, uint64_t dst, const float* src, uint64_t tmp, const FlashRed& p) {
    if (detail::rep::RunningArch() == NpuArch::k2002) {
      Reduce2002(max, dst, src, tmp, p);
      return;
    }
    const uint32_t chunks = p.oriK / kLanes, tailK = p.oriK % kLanes, n = p.srcM * 8;
    const auto op = [max](float x, float y) { return max ? FlashMax(x, y) : x + y; };
    const auto block = [max](const float* v) {
      uint32_t l = 0;
      return max ? FlashLaneMax(v, 8, &l) : Tree8(v);
    };
    for (uint32_t c = 0; c < chunks; ++c) {
      float* blocks = img_.At(dst, n);
      for (uint32_t r = 0; r < p.srcM; ++r) {
        for (uint32_t b = 0; b < 8; ++b) {
          blocks[8 * r + b] = block(src + uint64_t{r} * p.srcK + c * kLanes + 8 * b);
        }
      }
      float* acc = img_.At(tmp, n);
      for (uint32_t j = 0; j < n; ++j) acc[j] = c == 0 ? blocks[j] : op(acc[j], blocks[j]);
    }
    if (chunks != 0) {
      float* acc = img_.At(tmp, p.srcM);
      std::vector<float> rowv(p.srcM);
      for (uint32_t r = 0; r < p.srcM; ++r) rowv[r] = block(img_.Peek(tmp) + 8 * r);
      std::copy(rowv.begin(), rowv.end(), acc);
    }
    if (tailK != 0) {
      float* t = img_.At(dst, p.srcM);
      for (uint32_t r = 0; r < p.srcM; ++r) {
        const float* x = src + uint64_t{r} * p.srcK + chunks * kLanes;
        if (max) {
          uint32_t l = 0;
          t[r] = FlashLaneMax(x, tailK, &l);
        } else {
          float lanes[kLanes] = {};
          std::copy(x, x + tailK, lanes);
          t[r] = ScalarTree64(lanes, kLanes);
        }
      }
      float* acc = img_.At(tmp, n);
      const float* dv = img_.Peek(dst);
      for (uint32_t j = 0; j < n; ++j) acc[j] = chunks == 0 ? dv[j] : op(acc[j], dv[j]);
    }
    float* out = img_.At(dst, uint64_t{p.oriM} * p.dstK);
    const float* acc = img_.Peek(tmp);
    for (uint32_t r = 0; r < p.oriM; ++r) {
      std::fill(out + uint64_t{r} * p.dstK, out + uint64_t{r + 1} * p.dstK, acc[r]);
    }
  }

  void Reduce2002(bool max, uint64_t dst, const float* src, uint64_t tmp, const FlashRed& p) {
    const auto one = [max](float* o, const float* x, uint32_t lanes) {
      if (!max) {
        float v[kLanes] = {};
        std::copy(x, x + lanes, v);
        o[0] = ScalarTree64(v, kLanes);
        return;
      }
      uint32_t l = 0;
      o[0] = FlashLaneMax(x, lanes, &l);
      std::memcpy(o + 1, &l, 4);
    };
    const uint64_t all = uint64_t{p.dstM} * p.dstK;
    const uint32_t w = max ? 2 : 1;
    if (p.oriK <= kLanes) {
      const uint32_t rows = max ? p.oriM : p.srcM;
      for (uint32_t r = 0; r < rows; ++r) {
        one(img_.At(dst + uint64_t{r} * p.dstK, w), src + uint64_t{r} * p.srcK, p.oriK);
      }
    } else {
      const uint32_t chunks = p.oriK / kLanes, tailK = p.oriK % kLanes;
      for (uint32_t c = 0; c < chunks + (tailK != 0 ? 1u : 0u); ++c) {
        for (uint32_t r = 0; r < p.srcM; ++r) {
          one(img_.At(tmp + uint64_t{r} * p.dstK, w), src + uint64_t{r} * p.srcK + c * kLanes,
              c < chunks ? kLanes : tailK);
        }
        float* o = img_.At(dst, all);
        const float* x = img_.Peek(tmp);
        for (uint64_t j = 0; j < all; ++j) {
          o[j] = c == 0 ? x[j] : (max ? FlashMax(o[j], x[j]) : o[j] + x[j]);
        }
      }
    }
    float* o = img_.At(dst, all);
    for (uint32_t r = 0; r < p.dstM; ++r) {
      std::fill(o + uint64_t{r} * p.dstK + 1, o + uint64_t{r + 1} * p.dstK,
                o[uint64_t{r} * p.dstK]);
    }
  }

  // BroadCastLastImpl(dst, src, {rows, dstK, rows, srcK}).
  void Brc(uint64_t dst, const float* src, uint32_t rows, uint32_t dstK, uint32_t srcK) {
    const bool v200 = detail::rep::RunningArch() == NpuArch::k2002;
    float* o = img_.At(dst, uint64_t{rows} * dstK);
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < dstK; ++c) {
        o[uint64_t{r} * dstK + c] = src[uint64_t{r} * srcK + (v200 ? 0 : c % 8)];
      }
    }
  }

  void Split(uint32_t i, uint32_t n, uint32_t nr, const FlashRed& red, bool isTail) {
    constexpr bool kFloat = std::is_same_v<T, float>;
    const uint64_t S = t_.splitSize, R = t_.reduceSize;
    const uint64_t o1 = uint64_t{i} * S, o2 = uint64_t{i} * R;
    const uint64_t b1 = S, b2 = 2 * S, rs = b2 + R, b4 = rs + R, inS = b4 + R;
    const uint64_t inM = kFloat || kHalfStat ? 0 : b2;
    const float* x = nullptr;
    if constexpr (kFloat) {
      x = a_.src.HostPtr() + o1;
    } else {
      float* b0 = img_.At(0, n);
      for (uint32_t j = 0; j < n; ++j) b0[j] = Widen(a_.src.HostPtr()[o1 + j]);
      x = b0;
    }
    Reduce(true, b4, x, rs, red);
    Brc(b1, img_.Peek(b4), red.dstM, t_.splitK, t_.reduceK);
    float* e = img_.At(b1, n);
    for (uint32_t j = 0; j < n; ++j) e[j] = x[j] - e[j];
    Ops{false}.Unary(UnaryOp::kExp, e, e, n);
    Reduce(false, rs, e, b2, red);
    float* im = img_.At(inM, nr);
    for (uint32_t j = 0; j < nr; ++j) im[j] = Widen(a_.inMax.HostPtr()[o2 + j]);
    float* mx = nullptr;  // the new max: tmpBuffer2, or maxTensor itself (half data, float stats)
    if constexpr (!kFloat && !kHalfStat) {
      mx = a_.max.HostPtr() + o2;
    } else {
      mx = img_.At(b2, nr);
    }
    float* m4 = img_.At(b4, nr);
    for (uint32_t j = 0; j < nr; ++j) mx[j] = FlashMax(im[j], m4[j]);
    if constexpr (kFloat || kHalfStat) {
      for (uint32_t j = 0; j < nr; ++j) a_.max.HostPtr()[o2 + j] = Narrow<U>(mx[j]);
    }
    for (uint32_t j = 0; j < nr; ++j) m4[j] = m4[j] - mx[j];
    Ops{false}.Unary(UnaryOp::kExp, m4, m4, nr);
    for (uint32_t j = 0; j < nr; ++j) im[j] = im[j] - mx[j];
    Ops{false}.Unary(UnaryOp::kExp, im, im, nr);
    float* is = img_.At(inS, nr);
    for (uint32_t j = 0; j < nr; ++j) is[j] = Widen(a_.inExpSum.HostPtr()[o2 + j]);
    float* r4 = img_.At(rs, nr);
    for (uint32_t j = 0; j < nr; ++j) im[j] = im[j] * is[j];
    for (uint32_t j = 0; j < nr; ++j) r4[j] = m4[j] * r4[j];
    float* sum = nullptr;  // the new sum: sumTensor (float data) or inSumTmp
    if constexpr (kFloat) {
      sum = a_.expSum.HostPtr() + o2;
    } else {
      sum = is;
    }
    for (uint32_t j = 0; j < nr; ++j) sum[j] = im[j] + r4[j];
    if constexpr (kFloat) {
      for (uint32_t j = 0; j < nr; ++j) a_.expMax.HostPtr()[o2 + j] = im[j] / sum[j];
    } else {
      for (uint32_t j = 0; j < nr; ++j) im[j] = im[j] / sum[j];
    }
    if constexpr (kHalfStat) {
      for (uint32_t j = 0; j < nr; ++j) a_.expMax.HostPtr()[o2 + j] = Narrow<T>(im[j]);
      for (uint32_t j = 0; j < nr; ++j) a_.expSum.HostPtr()[o2 + j] = Narrow<U>(sum[j]);
    } else if constexpr (!kFloat) {
      U* st = a_.expSum.HostPtr() + o2;
      if (!isTail) std::copy(sum, sum + nr, st);
      Brc(0, im, t_.reduceM, 16, t_.reduceK);  // the "32B copy to 64B" of expMax
      const float* b0 = img_.Peek(0);
      for (uint32_t j = 0; j < 2 * nr; ++j) a_.expMax.HostPtr()[2 * o2 + j] = Narrow<T>(b0[j]);
      if (isTail) std::copy(sum, sum + nr, st);
    }
    for (uint32_t j = 0; j < nr; ++j) m4[j] = m4[j] / sum[j];
    Brc(0, m4, red.dstM, t_.splitK, t_.reduceK);
    const float* b0 = img_.Peek(0);
    if constexpr (kFloat) {
      for (uint32_t j = 0; j < n; ++j) a_.dst.HostPtr()[o1 + j] = e[j] * b0[j];
    } else {
      for (uint32_t j = 0; j < n; ++j) e[j] = e[j] * b0[j];
      for (uint32_t j = 0; j < n; ++j) a_.dst.HostPtr()[o1 + j] = Narrow<T>(e[j]);
    }
  }

  const FlashV2Args<T, U, T>& a_;
  const AscendC::tiling::SoftMaxTiling& t_;
  FlashWorkImage& img_;
  uint32_t oriK_;
};

// What SoftmaxFlash passes FlashRows: the kernel's tiling and isBasicBlock; ran: the update ran
// here (FlashWorkRun).
struct FlashWorkCall {
  AscendC::tiling::SoftMaxTiling kt;
  bool basic;
  bool ran;
};

// Whether kt has SoftMaxFlashTilingFunc's form for the shape (rows per split times srcK,
// reduceK of 32 bytes of the U statistics, reduceM = splitM, splits within the tensors). anyK:
// reduceK may also be the other block the kit's reductions broadcast to (8 or 16 floats a row:
// SingleBlockBroadCastImpl's two Brcb forms; BroadCastLastImpl's Copy repeats), the statistics
// then read and written reduceK a row (e.g. the host tiling of half data with float statistics,
// whose dataTypeSize 2 gives 16).
template <typename U>
bool FlashWorkForm(const AscendC::tiling::SoftMaxTiling& kt, const Dims& d, bool anyK = false) {
  const uint32_t blk = kt.reduceK == 8 || kt.reduceK == 16 ? kt.reduceK : 0;
  if (blk == 0 || (!anyK && blk != (std::is_same_v<U, half> ? 16u : 8u))) return false;
  return kt.srcK == d.k && kt.splitK == d.k && kt.reduceM == kt.splitM && kt.splitM != 0 &&
         kt.splitSize == kt.splitM * d.k && kt.reduceSize == kt.splitM * blk &&
         kt.tailSplitSize == kt.tailM * d.k && kt.tailReduceSize == kt.tailM * blk &&
         uint64_t{kt.rangeM} * kt.splitM + kt.tailM <= d.m && kt.rangeM != 0 && d.oriK != 0 &&
         d.oriK <= d.k;
}

// The statistics' row stride (floats, or halves for half statistics) the generic update on
// 2201/2002 reads and writes for kt: reduceK where FlashWorkForm takes it (anyK), else the
// tensors' 32 bytes. The kit indexes the statistics at i * reduceSize, reduceK a row.
template <typename T, typename U>
uint32_t FlashStatK(const AscendC::tiling::SoftMaxTiling& kt, const Dims& d, bool basic) {
  const NpuArch arch = detail::rep::RunningArch();
  if ((arch != NpuArch::k2201 && arch != NpuArch::k2002) || (basic && arch == NpuArch::k2201) ||
      !FlashWorkForm<U>(kt, d, true)) {
    return Lanes<U>();
  }
  return kt.reduceK;
}

// Why the generic update over kt computes other statistics than the tensors' [rows, 32 B] rows
// (checked mode refuses it, softmax_device_defect); empty when it does not.
template <typename T, typename U>
std::string FlashStatDefect(const AscendC::tiling::SoftMaxTiling& kt, const Dims& d, bool basic) {
  const uint32_t sk = FlashStatK<T, U>(kt, d, basic);
  if (sk == Lanes<U>()) return {};
  const uint32_t bytes = static_cast<uint32_t>(sizeof(U));
  return "the tiling's reduceK is " + std::to_string(sk) + ", not the " +
         std::to_string(Lanes<U>()) + " " + (bytes == 4 ? "floats" : "halves") +
         " of a 32-byte statistics row: SoftmaxFlashNDImpl reads inMax and inSum and writes max, "
         "sum and expMax at split i * reduceSize, reduceK a row (" +
         std::to_string(sk) + " per row, " +
         (sk > Lanes<U>() ? "past the rows' statistics" : "other rows' statistics") +
         "); make the tiling with SoftMaxFlashTilingFunc's dataTypeSize = sizeof of the "
         "statistics (" +
         std::to_string(bytes) + ")";
}

// Runs the update on 2201/2002 (not the 2201 basic block: the caller passes basic) over the
// buffer the kit computes in: half data with half statistics the stack buffer it pops, else
// `given`. False where it does not run (the header's list): nothing written.
template <typename T, typename U>
bool FlashWorkRun(const FlashV2Args<T, U, T>& a, const Dims& d,
                  const AscendC::tiling::SoftMaxTiling& kt,
                  const AscendC::LocalTensor<uint8_t>& given, bool basic, const char* api,
                  SrcLoc loc) {
  const NpuArch arch = detail::rep::RunningArch();
  if ((arch != NpuArch::k2201 && arch != NpuArch::k2002) || (basic && arch == NpuArch::k2201)) {
    return false;
  }
  if (!FlashWorkForm<U>(kt, d, true)) return false;
  const AscendC::LocalTensor<uint8_t> work =
      std::is_same_v<T, half> && std::is_same_v<U, half> ? math_detail::StackTmp() : given;
  const uint64_t floats = work.View().size_bytes / 4;
  if (work.HostPtr() == nullptr ||
      2 * uint64_t{kt.splitSize} + 4 * uint64_t{kt.reduceSize} > floats) {
    return false;
  }
  FlashWorkImage img(reinterpret_cast<float*>(work.HostPtr()), floats);
  FlashWork<T, U>(a, kt, img, d.oriK).Run();
  img.Record(api, loc);
  return true;
}

}  // namespace lngrad::aicore::softmax_detail
