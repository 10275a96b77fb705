// lngrad: SoftmaxFlash's update with isBasicBlock on 2201: the kit's SoftmaxFlashBasicBlock (half
// data, half or float statistics) and SoftmaxFlashBasicBlockFloat
// (softmax_flash_base_impl/softmax_flash_basic_block_impl.h), every instruction over an image of
// the work buffer in the kit's order and with its uint8_t repeat counts and strides, so dst (src
// for float data), the statistics and the buffer hold what the device leaves. Per full split
// (S = splitSize, R = reduceSize floats, hs = S / 2, B = splitK / 64 chunks a row):
//  - half data: tmpBuffer0 at 0 (the split's float copy, then its exponentials and quotients),
//    tmpBuffer1 at S, tmpBuffer2 at 2S, tmpBuffer3 at 2S + R, inSumTmp at 2S + 2R, inMaxTmp at
//    2S + 3R; float data: tmpBuffer1 at 0, tmpBuffer2 at S, tmpBuffer3 at 2S, inSumTmp at 2S + R,
//    inMaxTmp at 2S + 2R, and the exponentials computed in src itself;
//  - the row max: Max(chunk 0, chunk 1) per row into tmpBuffer1 (64 lanes a row; float data with
//    B = 1 a Copy instead; half data with B = 1 still pairs the row with the next 64 values, the
//    next row's), then Max(acc, chunk c) for c >= 2, BlockReduceMax in place (8 a row), a second
//    BlockReduceMax into tmpBuffer3 (one a row, ceil(M / 8) repeats: lanes past M reduce what
//    the buffer held), Brcb into tmpBuffer1 + hs (float data: tmpBuffer2 + hs), 8 floats a row
//    (half statistics: two Brcbs, 16 a row);
//  - x - max, Exp, the same chain of Adds and BlockReduceSums, its Brcb at tmpBuffer1, x / sum;
//  - over R floats (Counter mode): inMax copied (cast), max = Max(inMax, rowmax), a = exp(rowmax -
//    max), b = exp(inMax - max) * inSum, as = a * sum, newSum = b + as, expMax = b / newSum (half
//    data with float statistics: spread to 16 lanes a row in tmpBuffer1 first), as / newSum, and
//    x * (as / newSum) over reduceM rows; half data cast back into dst.
// Half data with half statistics compute in the stack buffer the kit pops (a passed buffer is not
// written); half data then runs the generic update's tail split (softmaxflash_work.h FlashWork);
// float data leaves the tail rows alone and dst unwritten. Repeats run in order, element by
// element (docs/ascendc_compat.md "Order"), also where the kit's operands overlap.
// FlashBasicDefect names the shapes whose kit sequence computes wrong rows (checked mode refuses
// them, check softmax_device_defect); unchecked mode follows the sequence as written.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmaxflash_work.h"

namespace lngrad::aicore::softmax_detail {

// Why SoftmaxFlashBasicBlock[Float] over the kernel's tiling kt computes rows wrongly on the
// device; empty when it does not.
inline std::string FlashBasicDefect(const AscendC::tiling::SoftMaxTiling& kt, bool halfData) {
  const uint32_t chunks = kt.splitK / kLanes;
  if (halfData && chunks == 1) {
    return "half data with srcK 64: SoftmaxFlashBasicBlock's first Max and Add pair each row's 64 "
           "values with the next 64 (src1 = the copy + 64 at the row stride), so every row's max "
           "and sum take the next row's values too; use float data or srcK >= 128";
  }
  if (kt.splitM > 255) {
    return "splits of " + std::to_string(kt.splitM) +
           " rows: the Max, Add, BlockReduce, Sub, Div and Mul repeat counts (splitM) are uint8_t "
           "and wrap, so rows past the wrapped count are not reduced; use at most 255 rows a "
           "split (a smaller work buffer or tiling)";
  }
  if (kt.splitSize / kLanes > 255) {
    return "splits of " + std::to_string(kt.splitSize) +
           " elements: the Cast and Exp repeat count splitSize / 64 is uint8_t and wraps, so "
           "only part of the split is converted and exponentiated; use splits of at most 16320 "
           "elements";
  }
  if (8 * chunks > 255 && kt.splitM > 1) {
    return "srcK " + std::to_string(kt.splitK) +
           ": the row stride 8 * srcK / 64 blocks is uint8_t and wraps, so the rows of a split "
           "read other rows' data; use srcK below 2048 or one row a split";
  }
  return {};
}

// Repeat parameters in 32-byte blocks: dst, src0, src1 block strides, then repeat strides.
struct VRep {
  uint32_t d, s0, s1, dr, s0r, s1r;
};

// A Normal-mode binary instruction over full 64-lane repeats, element by element.
template <class F>
void VBin(float* dst, const float* s0, const float* s1, uint32_t reps, const VRep& p, F f) {
  for (uint32_t r = 0; r < reps; ++r) {
    for (uint32_t b = 0; b < 8; ++b) {
      for (uint32_t l = 0; l < 8; ++l) {
        const float x = s0[(uint64_t{r} * p.s0r + b * p.s0) * 8 + l];
        const float y = s1[(uint64_t{r} * p.s1r + b * p.s1) * 8 + l];
        dst[(uint64_t{r} * p.dr + b * p.d) * 8 + l] = f(x, y);
      }
    }
  }
}

// The 2201 basic-block update over the image (header).
template <typename T, typename U>
class FlashBasicWork {
 public:
  FlashBasicWork(const FlashV2Args<T, U, T>& a, const AscendC::tiling::SoftMaxTiling& t,
                 FlashWorkImage& img)
      : a_(a), t_(t), img_(img) {}

  // The image's floats the sequence reaches (0: the tiling has no full split).
  static uint64_t Footprint(const AscendC::tiling::SoftMaxTiling& t) {
    const uint64_t S = t.splitSize, R = t.reduceSize, ceilM = (t.splitM + 7) / 8;
    const uint64_t a = 2 * S + (kFloat ? 3 : 4) * R, b = S + S / 2 + ceilM * (kHalfStat ? 128 : 64);
    return a > b ? a : b;
  }

  void Run() {
    for (uint32_t i = 0; i < t_.rangeM; ++i) Split(i);
  }

 private:
  static constexpr bool kFloat = std::is_same_v<T, float>;
  static constexpr bool kHalfStat = std::is_same_v<U, half>;

  // BlockReduceMax / BlockReduceSum: repeat r's eight block results at dst[8 r].
  void BlockReduce(bool max, float* dst, const float* src, uint32_t reps) {
    Mark(dst, uint64_t{reps} * 8);
    for (uint32_t r = 0; r < reps; ++r) {
      for (uint32_t b = 0; b < 8; ++b) {
        uint32_t lane = 0;
        const float* v = src + uint64_t{r} * kLanes + 8 * b;
        dst[uint64_t{r} * 8 + b] = max ? FlashLaneMax(v, 8, &lane) : Tree8(v);
      }
    }
  }

  // Brcb(dst, src, reps, {blk, rep}): src[8 i + j] into the block at (i rep + j blk) * 8.
  void Brcb(float* dst, const float* src, uint32_t reps, uint32_t blk, uint32_t rep) {
    for (uint32_t i = 0; i < reps; ++i) {
      for (uint32_t j = 0; j < 8; ++j) {
        float* o = dst + (uint64_t{i} * rep + j * blk) * 8;
        Mark(o, 8);
        std::fill(o, o + 8, src[uint64_t{i} * 8 + j]);
      }
    }
  }

  // The Max (or Add) of the row's chunks into acc, 64 lanes a row (float data with one chunk:
  // the Copy of the split).
  void Chain(bool max, float* acc, const float* x, uint8_t rows, uint8_t rep, uint8_t off) {
    const auto op = [max](float p, float q) { return max ? FlashMax(p, q) : p + q; };
    if (kFloat && t_.splitK / kLanes == 1) {
      Mark(acc, uint64_t{rep} * kLanes);
      for (uint64_t j = 0; j < uint64_t{rep} * kLanes; ++j) acc[j] = x[j];
      return;
    }
    Mark(acc, uint64_t{rows} * kLanes);
    VBin(acc, x, x + kLanes, rows, {1, 1, 1, 8, off, off}, op);
    for (uint32_t c = 2; c < t_.splitK / kLanes; ++c) {
      VBin(acc, acc, x + uint64_t{c} * kLanes, rows, {1, 1, 1, 8, 8, off}, op);
    }
  }

  void Mark(float* p, uint64_t n) { img_.Touch(p, n); }

  void Split(uint32_t i) {
    const uint64_t S = t_.splitSize, R = t_.reduceSize, hs = S / 2;
    const uint64_t o1 = uint64_t{i} * S, o2 = uint64_t{i} * R;
    const auto rep = static_cast<uint8_t>(t_.splitSize / kLanes);
    const auto off = static_cast<uint8_t>(8 * (t_.splitK / kLanes));
    const auto rows = static_cast<uint8_t>(t_.splitM);
    const auto ceilM = static_cast<uint8_t>((t_.splitM + 7) / 8);
    const uint32_t chunks = t_.splitK / kLanes, st = kHalfStat ? 2 : 1;
    float* w = img_.Peek(0);
    float* t0 = w;  // half data only
    float* t1 = kFloat ? w : w + S;
    float* t2 = kFloat ? w + S : w + 2 * S;
    float* t3 = w + 2 * S + (kFloat ? 0 : R);
    float* inS = t3 + R;
    float* inM = inS + R;
    float* x = nullptr;
    if constexpr (kFloat) {
      x = a_.src.HostPtr() + o1;
    } else {
      x = t0;
      Mark(t0, uint64_t{rep} * kLanes);
      for (uint64_t j = 0; j < uint64_t{rep} * kLanes; ++j) t0[j] = Widen(a_.src.HostPtr()[o1 + j]);
    }
    float* maxB = (kFloat ? t2 : t1) + hs;  // the row maxima's Brcb rows
    Chain(true, t1, x, rows, rep, off);
    BlockReduce(true, t1, t1, rows);
    BlockReduce(true, t3, t1, ceilM);
    Brcb(maxB, t3, ceilM, st, 8 * st);
    if (kHalfStat) Brcb(maxB + 8, t3, ceilM, st, 8 * st);
    const auto sub = [](float p, float q) { return p - q; };
    for (uint32_t c = 0; c < chunks; ++c) {
      VBin(x + uint64_t{c} * kLanes, x + uint64_t{c} * kLanes, maxB, rows, {1, 1, 0, off, off, st},
           sub);
    }
    for (uint64_t j = 0; j < uint64_t{rep} * kLanes; ++j) x[j] = ExpOf(x[j]);
    Chain(false, t1, x, rows, rep, off);
    BlockReduce(false, t1, t1, rows);
    BlockReduce(false, t3, t1, ceilM);
    Brcb(t1, t3, ceilM, st, 8 * st);
    if (kHalfStat) Brcb(t1 + 8, t3, ceilM, st, 8 * st);
    const auto div = [](float p, float q) { return p / q; };
    for (uint32_t c = 0; c < chunks; ++c) {
      VBin(x + uint64_t{c} * kLanes, x + uint64_t{c} * kLanes, t1, rows, {1, 1, 0, off, off, st},
           div);
    }
    Statistics(o2, R, t1, t2, t3, inS, inM, maxB);
    const auto mul = [](float p, float q) { return p * q; };
    const auto rm = static_cast<uint8_t>(t_.reduceM);
    for (uint32_t c = 0; c < chunks; ++c) {
      VBin(x + uint64_t{c} * kLanes, x + uint64_t{c} * kLanes, t3, rm, {1, 1, 0, off, off, st},
           mul);
    }
    if constexpr (!kFloat) {
      for (uint64_t j = 0; j < uint64_t{rep} * kLanes; ++j)
        a_.dst.HostPtr()[o1 + j] = Narrow<T>(t0[j]);
    }
  }

  // The Counter-mode steps over the split's R statistics floats.
  void Statistics(uint64_t o2, uint64_t R, float* t1, float* t2, float* t3, float* inS, float* inM,
                  const float* maxB) {
    Mark(inM, R), Mark(t2, R), Mark(t3, R), Mark(inS, R);
    for (uint64_t j = 0; j < R; ++j) inM[j] = Widen(a_.inMax.HostPtr()[o2 + j]);
    for (uint64_t j = 0; j < R; ++j) t2[j] = FlashMax(inM[j], maxB[j]);
    for (uint64_t j = 0; j < R; ++j) a_.max.HostPtr()[o2 + j] = Narrow<U>(t2[j]);
    for (uint64_t j = 0; j < R; ++j) t3[j] = maxB[j] - t2[j];
    for (uint64_t j = 0; j < R; ++j) t3[j] = ExpOf(t3[j]);
    for (uint64_t j = 0; j < R; ++j) inM[j] = inM[j] - t2[j];
    for (uint64_t j = 0; j < R; ++j) inM[j] = ExpOf(inM[j]);
    for (uint64_t j = 0; j < R; ++j) inS[j] = Widen(a_.inExpSum.HostPtr()[o2 + j]);
    for (uint64_t j = 0; j < R; ++j) inM[j] = inM[j] * inS[j];
    for (uint64_t j = 0; j < R; ++j) t3[j] = t3[j] * t1[j];
    for (uint64_t j = 0; j < R; ++j) inS[j] = inM[j] + t3[j];
    for (uint64_t j = 0; j < R; ++j) inM[j] = inM[j] / inS[j];
    if constexpr (!kFloat && !kHalfStat) {  // the "32B copy to 64B": blocks 2b and 2b + 1
      Mark(t1, 2 * R);
      for (uint32_t q = 0; q < 2; ++q) {
        for (uint64_t b = 0; b < R / 8; ++b)
          std::copy(inM + 8 * b, inM + 8 * b + 8, t1 + (2 * b + q) * 8);
      }
      for (uint64_t j = 0; j < 2 * R; ++j) a_.expMax.HostPtr()[2 * o2 + j] = Narrow<T>(t1[j]);
    } else {
      for (uint64_t j = 0; j < R; ++j) a_.expMax.HostPtr()[o2 + j] = Narrow<T>(inM[j]);
    }
    for (uint64_t j = 0; j < R; ++j) a_.expSum.HostPtr()[o2 + j] = Narrow<U>(inS[j]);
    for (uint64_t j = 0; j < R; ++j) t3[j] = t3[j] / inS[j];
  }

  const FlashV2Args<T, U, T>& a_;
  const AscendC::tiling::SoftMaxTiling& t_;
  FlashWorkImage& img_;
};

// Runs the 2201 basic-block update over the buffer the kit computes in (half data with half
// statistics: the stack buffer it pops, else `given`), then half data's generic tail split.
// False, nothing written, where not modelled: another arch, a tiling not of
// SoftMaxFlashTilingFunc's form (FlashWorkForm), srcK not a multiple of 64, a footprint past the
// buffer.
template <typename T, typename U>
bool FlashBasicWorkRun(const FlashV2Args<T, U, T>& a, const Dims& d,
                       const AscendC::tiling::SoftMaxTiling& kt,
                       const AscendC::LocalTensor<uint8_t>& given, const char* api, SrcLoc loc) {
  if (detail::rep::RunningArch() != NpuArch::k2201 || d.k % kLanes != 0 ||
      !FlashWorkForm<U>(kt, d)) {
    return false;
  }
  const AscendC::LocalTensor<uint8_t> work =
      std::is_same_v<T, half> && std::is_same_v<U, half> ? math_detail::StackTmp() : given;
  const uint64_t floats = work.View().size_bytes / 4;
  uint64_t need = FlashBasicWork<T, U>::Footprint(kt);
  const uint64_t generic = 2 * uint64_t{kt.splitSize} + 4 * uint64_t{kt.reduceSize};
  if (!std::is_same_v<T, float> && kt.tailM != 0 && generic > need) need = generic;
  if (work.HostPtr() == nullptr || need > floats) return false;
  FlashWorkImage img(reinterpret_cast<float*>(work.HostPtr()), floats);
  FlashBasicWork<T, U>(a, kt, img).Run();
  if constexpr (!std::is_same_v<T, float>) FlashWork<T, U>(a, kt, img, d.oriK).RunTail();
  img.Record(api, loc);
  return true;
}

}  // namespace lngrad::aicore::softmax_detail
