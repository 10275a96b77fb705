// Replays of what the 2201/2002 tensor-transform sequences leave in their scratch (and dst):
// ConfusionTranspose / Transpose of the 0213 types, UnPad on 2201, Pad of unaligned rows.
//
// Provenance: written by helper t2 (session 18) from the kit's source only, before reading how
// lngrad models the scratch; a separate reading by the same helper that later wrote lngrad's
// model (include/ascendc/adv/lib/pad/pad.h, lib/transpose/confusion_transpose.h). Files read
// (mirror-cann+asc-devkit, HEAD):
// - impl/adv_api/detail/transpose/confusion_transpose/confusion_transpose_base_0213.h (the
//   Main/Tail Half/Float passes, InitConfusionTranspose0213TransParams),
//   confusion_transpose_base_impl.h (ConfusionTranspose0213Compute's k, i, j, m loops),
//   confusion_transpose_common_impl.h (the same 0213 code on 2002, 2201 and 3510),
//   impl/basic_api/utils/kernel_utils_struct_confusion_pad.h (ConfusionTranspose0213Tiling's
//   field order = param0..param15).
// - impl/adv_api/detail/pad/pad/pad_v220_impl.h (UnPadCompute: one GatherMask, no scratch),
//   pad_base_impl.h (UnAlignedPad, DuplicateLastDimImpl), pad_v200_impl.h (PadCompute).
// - impl/adv_api/detail/pad/broadcast/broadcast_common_impl.h (BroadCastCommon: 1-byte T
//   through half copies in the scratch, else BroadCastCompute on the scratch as T;
//   TwoDimBroadCastFirstDim: Duplicate of 16 uint16_t zeros at the scratch's start, the zero
//   operand of the Or passes into dst, which only read it).
// - docs/zh/api/SIMD-API/基础API/.../TransDataTo5HD.md: per repeat 16 source blocks of 32 bytes
//   to 16 destination blocks; 16-bit: destination block j = element j of source blocks 0..15;
//   32-bit: "from the 16 blocks' corresponding positions, two new blocks": read here as
//   destination blocks 2x and 2x + 1 = element x of source blocks 0..7 and 8..15 (the kit's
//   float passes pair destination addresses n and n + 1 as one 16-element row, which fits this
//   reading); repeat r adds r * RepStride blocks, and with repeatTimes 1 the start is the list
//   plus the RepStride (the page's note; the kit sets the strides to 0 then).
// The replays move elements only (no arithmetic); they share no code with include/ or src/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace lngrad_replay::transform_scratch {

// TransDataTo5HD over host pointers (one per list entry), 2- or 4-byte T.
template <class T>
void Trans5hd(T* const d[16], const T* const s[16], uint32_t repeat, uint32_t dstRep,
              uint32_t srcRep) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4);
  constexpr uint32_t e = 32 / sizeof(T);
  for (uint32_t r = 0; r < repeat; ++r) {
    const uint64_t so = uint64_t{repeat == 1 ? srcRep : r * srcRep} * e;
    const uint64_t dof = uint64_t{repeat == 1 ? dstRep : r * dstRep} * e;
    T in[16][16];
    for (uint32_t k = 0; k < 16; ++k) {
      for (uint32_t x = 0; x < e; ++x) in[k][x] = s[k][so + x];
    }
    if constexpr (sizeof(T) == 2) {
      for (uint32_t j = 0; j < 16; ++j) {
        for (uint32_t k = 0; k < 16; ++k) d[j][dof + k] = in[k][j];
      }
    } else {
      for (uint32_t x = 0; x < 8; ++x) {
        for (uint32_t h = 0; h < 2; ++h) {
          for (uint32_t q = 0; q < 8; ++q) d[2 * x + h][dof + q] = in[8 * h + q][x];
        }
      }
    }
  }
}

// ConfusionTranspose0213Tiling, in the kit's field order (param0..param15 of the kernel struct).
struct Tiling0213 {
  uint32_t blockSize, shapeB, shapeA1, alignA3, alignA2, widthTiling, newPopSize, newPopH, needSize,
      mainBlocks, tailSize, alignA2MulAlignA3, batchOffset, alignA3MulA1, shapeA1BlockCube,
      mainOffset;
};

struct Trans5hdParams {
  uint32_t repeat, dstRep, srcRep;
};

// ConfusionTranspose0213Compute: src (NZ), dst, tmp1 (the scratch read as T), nd: NZ2ND_0213
// (else NZ2NZ_0213).
template <class T>
void Replay0213(const Tiling0213& t, bool nd, const T* src, T* dst, T* tmp1) {
  const uint32_t cube = 256, bc = 16;
  auto params = [](uint32_t rep, uint32_t d, uint32_t s) {
    return rep == 1 ? Trans5hdParams{rep, 0, 0} : Trans5hdParams{rep, d, s};
  };
  const Trans5hdParams mainP = params(t.newPopSize / cube, bc / t.blockSize, cube / t.blockSize);
  const Trans5hdParams p1 =
      params(t.newPopSize / cube, t.alignA3MulA1 * bc / t.blockSize, bc / t.blockSize);
  const Trans5hdParams tailP = params(t.tailSize / cube, bc / t.blockSize, cube / t.blockSize);
  const Trans5hdParams p2 =
      params(t.tailSize / cube, t.alignA3MulA1 * bc / t.blockSize, bc / t.blockSize);
  T* d[16];
  const T* s[16];
  // One pass: src -> tmp1 (the first TransDataTo5HD) then tmp1 -> dst; srcBase / dstBase are
  // the element offsets the kit's lists start from before the per-list terms (dstBase holds
  // the NZ2ND or NZ2NZ column).
  auto pass = [&](uint64_t srcBase, uint64_t dstBase, const Trans5hdParams& in,
                  const Trans5hdParams& out) {
    if constexpr (sizeof(T) == 2) {
      for (uint32_t n = 0; n < 16; ++n) d[n] = tmp1 + uint64_t{t.newPopH} * n;
      for (uint32_t n = 0; n < 16; ++n) s[n] = src + srcBase + uint64_t{bc} * n;
      Trans5hd<T>(d, s, in.repeat, in.dstRep, in.srcRep);
      for (uint32_t n = 0; n < 16; ++n) d[n] = dst + dstBase + uint64_t{t.alignA3MulA1} * n;
      for (uint32_t n = 0; n < 16; ++n) s[n] = tmp1 + uint64_t{t.newPopH} * n;
      Trans5hd<T>(d, s, out.repeat, out.dstRep, out.srcRep);
    } else {
      for (uint32_t p = 0; p < 2; ++p) {
        for (uint32_t n = 0; n < 16; n += 2) {
          const uint64_t at = uint64_t{p} * t.blockSize * t.newPopH + uint64_t{t.newPopH} * (n / 2);
          d[n] = tmp1 + at;
          d[n + 1] = tmp1 + at + t.blockSize;
        }
        for (uint32_t n = 0; n < 16; ++n) {
          s[n] = src + uint64_t{p} * t.blockSize + srcBase + uint64_t{bc} * n;
        }
        Trans5hd<T>(d, s, in.repeat, in.dstRep, in.srcRep);
      }
      for (uint32_t p = 0; p < 2; ++p) {
        for (uint32_t n = 0; n < 16; n += 2) {
          const uint64_t at = uint64_t{p} * t.blockSize * t.alignA3MulA1 + dstBase +
                              uint64_t{t.alignA3MulA1} * (n / 2);
          d[n] = dst + at;
          d[n + 1] = dst + at + t.blockSize;
        }
        for (uint32_t n = 0; n < 16; ++n) {
          s[n] = tmp1 + uint64_t{p} * t.blockSize + uint64_t{t.newPopH} * n;
        }
        Trans5hd<T>(d, s, out.repeat, out.dstRep, out.srcRep);
      }
    }
  };
  for (uint32_t k = 0; k < t.shapeB; ++k) {
    for (uint32_t i = 0; i < t.shapeA1; ++i) {
      for (uint32_t j = 0; j < t.widthTiling; ++j) {
        const uint64_t common = uint64_t{j} * t.needSize + uint64_t{i} * t.alignA2MulAlignA3 +
                                uint64_t{k} * t.batchOffset;
        const uint64_t col = nd ? uint64_t{j} * bc + uint64_t{i} * t.alignA3
                                : uint64_t{j} * t.shapeA1BlockCube + uint64_t{i} * bc;
        for (uint32_t m = 0; m < t.mainBlocks; ++m) {
          pass(uint64_t{t.newPopSize} * m + common,
               uint64_t{t.newPopH} * m * t.alignA3MulA1 + col + uint64_t{k} * t.batchOffset, mainP,
               p1);
        }
        if (t.tailSize != 0) {
          pass(uint64_t{t.newPopSize} * t.mainBlocks + common,
               uint64_t{t.mainOffset} + col + uint64_t{k} * t.batchOffset, tailP, p2);
        }
      }
    }
  }
}

// UnPadCompute on 2201: GatherMask(dst, src, mode 7 (all ones), counter mode, width - rightPad
// elements a repeat, height repeats, src repeat stride width * sizeof(T) / 32 blocks): the rows'
// first width - rightPad elements, packed. The scratch is not an operand: nothing is written
// there.
template <class T>
void ReplayUnPad2201(uint32_t height, uint32_t width, uint32_t rightPad, const T* src, T* dst) {
  const uint32_t keep = width - rightPad;
  const uint64_t stride = uint64_t{width} * sizeof(T) / 32 * 32 / sizeof(T);
  for (uint32_t r = 0; r < height; ++r) {
    for (uint32_t c = 0; c < keep; ++c) dst[uint64_t{r} * keep + c] = src[r * stride + c];
  }
}

// PadTiling in the kit's field order (pad_tilingdata.h), 26 x uint32.
struct PadTilingR {
  uint32_t srcHeight, srcWidth, srcOriWidth, widthWithoutLastBlock, blocksPerRow, heightTiling,
      heightFractal, heightFractalTail, mainLoopOffset, tailBlockOffset, tmpBuffer1BlockNum,
      tmpBuffer1RowNum, tmpBuffer2Offset, widthTiling, widthFractal, widthFractalTail,
      widthFractalTailAlingned, brcbTiling, brcbFractal, brcbFractalTail, maxRepeatTimes,
      brcbTilingRepeatTimes, brcbTilingRepeatTimesTail, brcbFractalTailRepeatTimes,
      brcbFractalTailRepeatTimesTail, reserved;
};

// UB -> UB DataCopy {blockCount, blockLen, srcStride, dstStride} (units of 32 bytes).
template <class T>
void CopyBlocks(T* dst, const T* src, uint32_t count, uint32_t len, uint32_t srcGap,
                uint32_t dstGap) {
  constexpr uint32_t e = 32 / sizeof(T);
  for (uint32_t b = 0; b < count; ++b) {
    for (uint32_t x = 0; x < len * e; ++x) {
      dst[uint64_t{b} * (len + dstGap) * e + x] = src[uint64_t{b} * (len + srcGap) * e + x];
    }
  }
}

// Duplicate<T, true>(dst, v, mask = one block, repeat, dstBlkStride 1, dstRepStride 1): `repeat`
// consecutive blocks of v.
template <class T>
void DupBlocks(T* dst, T v, uint32_t repeat) {
  std::fill(dst, dst + uint64_t{repeat} * (32 / sizeof(T)), v);
}

// 2201's Brcb(dst, src, repeat, {1, 8}): per repeat 8 source elements, each filling one block.
template <class T>
void Brcb(T* dst, const T* src, uint32_t repeat) {
  constexpr uint32_t e = 32 / sizeof(T);
  for (uint32_t q = 0; q < repeat * 8; ++q) std::fill(dst + q * e, dst + (q + 1) * e, src[q]);
}

// 2002's DuplicateLastDimImpl(dst, src, n, one block): block q = src[q], q < n.
template <class T>
void DupLastDim(T* dst, const T* src, uint32_t n) {
  constexpr uint32_t e = 32 / sizeof(T);
  for (uint32_t q = 0; q < n; ++q) std::fill(dst + q * e, dst + (q + 1) * e, src[q]);
}

// UnAlignedPad (pad_base_impl.h), 2201 (Brcb) or 2002 (DuplicateLastDimImpl): src, dst, the
// scratch read as T (tmp1 at 0, tmp2 at tmpBuffer2Offset).
template <class T>
void ReplayPadUnaligned(const PadTilingR& t, uint16_t leftPad, uint16_t rightPad, int32_t padValue,
                        bool is2201, const T* src, T* dst, T* scr) {
  const T pad = static_cast<T>(padValue);
  const uint32_t tw = 32 / sizeof(T), blk = t.tmpBuffer1BlockNum;
  T* tmp1 = scr;
  T* tmp2 = scr + t.tmpBuffer2Offset;
  uint32_t tmp1RowFull = t.tmpBuffer1RowNum, tmp1RowCount = t.tmpBuffer1RowNum;
  const uint32_t tmp2RowFull = t.tmpBuffer1RowNum;
  uint32_t brcbCount = 0;
  T* lists[16];
  for (uint32_t i = 0; i < 16; ++i) lists[i] = tmp2 + i * tw;
  const uint32_t rep = blk > 1 ? 16 : 0;
  const uint64_t outW = uint64_t{t.srcWidth} + leftPad + rightPad;
  auto load = [&] {
    const T* from = src + uint64_t{brcbCount} * t.brcbTiling;
    const uint32_t step = t.maxRepeatTimes * 8;
    const bool tail = brcbCount == t.brcbFractal;
    if (is2201) {
      const uint32_t full = tail ? t.brcbFractalTailRepeatTimes : t.brcbTilingRepeatTimes;
      const uint32_t rest = tail ? t.brcbFractalTailRepeatTimesTail : t.brcbTilingRepeatTimesTail;
      for (uint32_t i = 0; i < full; ++i) {
        Brcb(tmp1 + uint64_t{i} * step * tw, from + uint64_t{i} * step, t.maxRepeatTimes);
      }
      if (rest != 0) Brcb(tmp1 + uint64_t{full} * step * tw, from + uint64_t{full} * step, rest);
    } else {
      DupLastDim(tmp1, tail ? src + uint64_t{t.brcbFractal} * t.brcbTiling : from,
                 tail ? t.brcbFractalTail : t.brcbTiling);
    }
    if (tail) tmp1RowFull = t.brcbFractalTail;
    brcbCount += 1;
    tmp1RowCount = 0;
  };
  for (uint32_t j = 0; j < t.srcHeight; ++j) {
    for (uint32_t i = 0; i < t.widthFractal + 1; ++i) {
      uint32_t tmp2RowCount = 0, tmp2NeedRow = 0;
      if (i == 0 && leftPad != 0) {
        DupBlocks(tmp2, pad, leftPad);
        tmp2RowCount += leftPad;
      }
      if (i == t.widthFractal) {
        if (rightPad != 0)
          DupBlocks(tmp2 + (t.widthFractalTailAlingned - rightPad) * tw, pad, rightPad);
        tmp2NeedRow = t.widthFractalTailAlingned - tmp2RowCount - rightPad;
      } else {
        tmp2NeedRow = tmp2RowFull - tmp2RowCount;
      }
      while (tmp2NeedRow != 0) {
        const uint32_t remain = tmp1RowFull - tmp1RowCount;
        if (tmp2NeedRow > remain) {
          if (remain != 0) {
            CopyBlocks(tmp2 + tmp2RowCount * tw, tmp1 + tmp1RowCount * tw, 1, remain, 0, 0);
            tmp1RowCount += remain;
            tmp2RowCount += remain;
            tmp2NeedRow -= remain;
          }
          load();
        } else {
          CopyBlocks(tmp2 + tmp2RowCount * tw, tmp1 + tmp1RowCount * tw, 1, tmp2NeedRow, 0, 0);
          tmp1RowCount += tmp2NeedRow;
          tmp2RowCount += tmp2NeedRow;
          tmp2NeedRow = 0;
        }
      }
      Trans5hd<T>(lists, lists, blk, rep, rep);
      T* out = dst + j * outW + uint64_t{i} * 16 * blk;
      const uint32_t units = i == t.widthFractal ? t.widthFractalTailAlingned / 16 : blk;
      if constexpr (sizeof(T) == 2) {
        CopyBlocks(out, tmp2, units, 1, 15, 0);
      } else {
        if (units != 0) CopyBlocks(out, tmp2, units, 2, 14, 0);
        if (i == t.widthFractal && t.widthFractalTailAlingned % 16 != 0) {
          CopyBlocks(out + units * 16, tmp2 + units * 16 * 8, 1, 1, 15, 0);
        }
      }
    }
  }
}

// UnPadTiling in the kit's field order (pad_tilingdata.h), 8 x uint32.
struct UnPadTilingR {
  uint32_t srcHeight, srcWidth, tmpBuffer1BlockNum, tmpBuffer1RowNum, tmpBuffer2Offset, widthTiling,
      widthFractal, widthFractalTail;
};

// UnPadCompute on 2002 (pad_v200_impl.h): per row and width fractal, the fractal's elements
// into tmp1 (DuplicateLastDimImpl), the rows but the right pad copied on into tmp2, which is
// transposed in place and copied to dst (the rows' first elements) each time it holds
// tmpBuffer1RowNum rows, and at the end the tail (h * (w - rightPad) % tmpBuffer1RowNum rows)
// with the tail's DataCopy block counts. height and width are uint16_t there.
template <class T>
void ReplayUnPad2002(const UnPadTilingR& t, uint16_t rightPad, const T* src, T* dst, T* scr) {
  const uint16_t height = static_cast<uint16_t>(t.srcHeight);
  const uint16_t width = static_cast<uint16_t>(t.srcWidth);
  const uint32_t tw = 32 / sizeof(T), blk = t.tmpBuffer1BlockNum;
  T* tmp1 = scr;
  T* tmp2 = scr + t.tmpBuffer2Offset;
  const uint16_t leftPad = 0;
  uint32_t tmp1RowFull = t.tmpBuffer1RowNum, tmp1RowCount = t.tmpBuffer1RowNum;
  uint32_t tmp2RowFull = t.tmpBuffer1RowNum, tmp2RowCount = 0, tmp2NeedRow = t.tmpBuffer1RowNum;
  const uint32_t toDstTiling = t.tmpBuffer1RowNum;
  const uint32_t toDstFractal = height * (width - leftPad - rightPad) / toDstTiling;
  const uint32_t toDstTail = height * (width - leftPad - rightPad) % toDstTiling;
  uint32_t toDstCount = 0;
  if (toDstFractal == 0) {
    tmp2RowFull = toDstTail;
    tmp2NeedRow = tmp2RowFull;
  }
  T* lists[16];
  for (uint32_t i = 0; i < 16; ++i) lists[i] = tmp2 + i * tw;
  const uint32_t rep = blk > 1 ? 16 : 0;
  for (uint32_t j = 0; j < height; ++j) {
    for (uint32_t i = 0; i < t.widthFractal; ++i) {
      tmp2NeedRow = tmp2RowFull - tmp2RowCount;
      const bool lastF = i == t.widthFractal - 1;
      DupLastDim(tmp1, src + uint64_t{j} * width + uint64_t{i} * t.widthTiling,
                 lastF ? t.widthFractalTail : t.widthTiling);
      tmp1RowCount = i == 0 ? leftPad : 0;
      tmp1RowFull = lastF ? t.widthFractalTail - rightPad : 16 * blk;
      while (tmp1RowCount != tmp1RowFull) {
        const uint32_t remain = tmp1RowFull - tmp1RowCount;
        if (tmp2NeedRow > remain) {
          CopyBlocks(tmp2 + tmp2RowCount * tw, tmp1 + tmp1RowCount * tw, 1, remain, 0, 0);
          tmp1RowCount += remain;
          tmp2RowCount += remain;
          tmp2NeedRow -= remain;
          break;
        }
        CopyBlocks(tmp2 + tmp2RowCount * tw, tmp1 + tmp1RowCount * tw, 1, tmp2NeedRow, 0, 0);
        tmp1RowCount += tmp2NeedRow;
        tmp2RowCount += tmp2NeedRow;
        tmp2NeedRow = 0;
        Trans5hd<T>(lists, lists, blk, rep, rep);
        T* out = dst + uint64_t{toDstCount} * blk * 16;
        if (toDstCount == toDstFractal) {
          const uint32_t units = toDstTail / 16;
          if constexpr (sizeof(T) == 2) {
            CopyBlocks(out, tmp2, units, 1, 15, 0);
          } else {
            if (units != 0) CopyBlocks(out, tmp2, units, 2, 14, 0);
            if (toDstTail % 16 != 0)
              CopyBlocks(out + units * 16, tmp2 + units * 16 * 8, 1, 1, 15, 0);
          }
        } else {
          CopyBlocks(out, tmp2, blk, sizeof(T) == 2 ? 1 : 2, sizeof(T) == 2 ? 15 : 14, 0);
        }
        toDstCount++;
        if (toDstCount == toDstFractal) tmp2RowFull = toDstTail;
        tmp2RowCount = 0;
        tmp2NeedRow = tmp2RowFull - tmp2RowCount;
      }
    }
  }
}

// Broadcast<T, 2, 0> on 2201 for 2- and 4-byte T with src and dst sizes that differ and src
// not one element (TwoDimBroadCastFirstDim): the scratch's first 32 bytes become 0; dst row i
// is src's row (the Or with the zero block).
template <class T>
void ReplayBroadcastFirstDim(uint32_t rows, uint32_t cols, const T* src, T* dst, uint8_t* scratch) {
  const uint16_t zero = 0;
  for (uint32_t k = 0; k < 16; ++k) std::memcpy(scratch + 2 * k, &zero, 2);
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < cols; ++j) dst[uint64_t{i} * cols + j] = src[j];
  }
}

}  // namespace lngrad_replay::transform_scratch
