// Replay of Broadcast<T, dim, axis> on arch 2201 (Ascend910B1) and 2002 (Ascend310P1): dst and
// what the kit's sequence leaves in the scratch (sharedTmpBuffer, or the stack buffer the overload
// without it pops), every path of the 1- and 2-dim form: equal sizes, one src element, axis 0, axis
// 1 with rows of whole 32-byte blocks and without, and 1-byte T through the half copies.
//
// Provenance: written by helper bc (session 19) from the kit's source only, before changing
// lngrad's model (include/ascendc/adv/lib/broadcast/broadcast_scratch.h, written afterwards by
// the same helper: a separate reading, not an independent one). Files read (mirror-cann+asc-
// devkit, HEAD):
// - impl/adv_api/detail/pad/broadcast/broadcast_common_impl.h: BroadCastCommon (1-byte T: the
//   scratch as half, srcTemp at 0, dstTemp at alignSrcSize, the rest tempTemp; Cast to half of
//   srcSize elements, BroadCastCompute on half, Cast back of dstSize elements), BroadCastCompute
//   (equal sizes: NoBroad; one src element: Duplicate; dim 2: TwoDimBroadCastLastDim for axis
//   1, TwoDimBroadCastFirstDim for axis 0), TwoDimBroadCastFirstDim (16 uint16_t zeros at the
//   scratch's start, then LoopBroadCast or TwoDimBroadCastDimAlign into dst).
// - impl/adv_api/detail/pad/broadcast/broadcast_v220_impl.h: BrcbToOneBlock (ceil(n / 8) Brcb
//   repeats, 254 / 255 a call, block k of the scratch = src[k] over a block: reads up to 7
//   elements past the chunk), TwoDimBroadCastLastDimAlign220 (Copy in counter mode, count
//   numBlocks a repeat, srcBlkStride 0, 255 rows a call), TwoDimBroadCastLastDimNotAlign220
//   (Copy of numBlocksAlign a row into copyTempBuffer = scratch[firstDim * e], which starts
//   at block firstDim of the chunk, not at ceil(firstDim / 8) * 8; then GatherMask pattern 7,
//   counter mode, mask numBlocks, firstDim repeats of src0RepeatStride dstRepeatSize),
//   GetAlignLoopNumbers / GetNotAlignLoopNumbers (chunks of tmpSize / min * e rows, tmpSize =
//   the scratch tensor's GetSize()), TwoDimBroadCastLastDim's chunk loop, NoBroad (Copy of size
//   elements, one repeat).
// - impl/adv_api/detail/pad/broadcast/broadcast_common_utils.h: TwoDimBroadCastDimAlign,
// LoopBroadCast
//   (Or with the zero block: bits unchanged).
// - impl/basic_api/kernel_tensor_impl.h: operator[] lowers dataLen by the offset's bytes,
//   ReinterpretCast keeps the bytes, GetSize() = dataLen / sizeof(T).
// - impl/adv_api/detail/pad/broadcast/broadcast_v200_impl.h (2002): TwoDimBroadCastLastDim (16
//   uint16_t zeros at the scratch's start; rows >= 255 * e: LoopBroadCast of cols copies of
//   src's rows elements at scratch[e], then Transpose NCHW2NHWC {1, cols, 1, rows} into dst;
//   rows of whole blocks: GetAlignLoopNumbers200 (tmpSize = GetSize() - e, min = e * ceil(cols /
//   8), asserts tmpSize > min, chunks of tmpSize / min * e rows), each chunk
//   TwoDimBroadCastDimAlign into scratch[e] with firstDim and numBlocks swapped (cols rows of n
//   elements, 8 rows an Or: repeat r writes block r of each row), then the Transpose of that
//   [cols, n] matrix into dst's chunk; other rows: only an error log), NoBroad (DataCopy of size
//   elements: impl/basic_api/kernel_operator_data_copy_intf_impl.h, UB to UB, blockLen = count
//   / (32 / sizeof(T)) blocks, rounded down on the device, asserted in the CPU build).
// - impl/basic_api/dav_m200/kernel_operator_vec_transpose_impl.h: Transpose4DImpl is v4dtrans
//   of imageSize = h * w and cSize, no scratch (the v200 call passes an empty one).
// Copy's counter mode is read as the Copy page states it (the count is per repeat, repeatTime
// counts); GatherMask's counter mode as its page (repeatTimes repeats of mask elements). The
// replay moves bits only (Cast of 8-bit integers to half and back is exact); it shares no code
// with include/ or src/.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace lngrad_replay::broadcast_scratch {

// One UB picture: src (its elements and the bytes after it, which Brcb may read), dst, scratch.
struct Mem {
  uint8_t* src = nullptr;  // src elements, then at least 32 bytes more
  uint8_t* dst = nullptr;
  uint8_t* tmp = nullptr;
  uint64_t tmpBytes = 0;
};

// Element i of an S-byte array (S = 2 or 4) as raw bits.
template <uint32_t S>
inline void Put(uint8_t* base, uint64_t i, const uint8_t* from) {
  std::memcpy(base + i * S, from, S);
}

// Brcb(dst, src, repeats, {dstBlkStride 1, dstRepStride 8}): repeat r, j < 8: block r * 8 + j of
// dst holds element r * 8 + j of src over the block.
template <uint32_t S>
void Brcb(uint8_t* dst, const uint8_t* src, uint32_t repeats) {
  constexpr uint32_t e = 32 / S;
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t j = 0; j < 8; ++j) {
      uint8_t v[S];
      std::memcpy(v, src + (uint64_t{r} * 8 + j) * S, S);
      for (uint32_t x = 0; x < e; ++x) Put<S>(dst, (uint64_t{r} * 8 + j) * e + x, v);
    }
  }
}

template <uint32_t S>
void BrcbToOneBlock(const uint8_t* src, uint32_t firstDim, uint8_t* tmp) {
  constexpr uint32_t e = 32 / S;
  const uint32_t repeats = (firstDim + 7) / 8;
  const uint32_t maxRep = S == 4 ? 255 : 254;
  const uint32_t count = repeats / maxRep, tail = repeats % maxRep;
  uint64_t srcOff = 0, tmpOff = 0;
  for (uint32_t i = 0; i < count; ++i) {
    Brcb<S>(tmp + tmpOff * S, src + srcOff * S, maxRep);
    tmpOff += uint64_t{maxRep} * e * 8;
    srcOff += uint64_t{maxRep} * 8;
  }
  if (tail != 0) Brcb<S>(tmp + tmpOff * S, src + srcOff * S, tail);
}

// Copy in counter mode: `repeats` repeats of `count` elements; element p of repeat i is in block
// p / e at the block stride, element p % e, repeat strides in blocks.
template <uint32_t S>
void CopyCounter(uint8_t* dst, const uint8_t* src, uint32_t count, uint32_t repeats,
                 uint32_t dstBlk, uint32_t srcBlk, uint32_t dstRep, uint32_t srcRep) {
  constexpr uint32_t e = 32 / S;
  for (uint32_t i = 0; i < repeats; ++i) {
    for (uint32_t p = 0; p < count; ++p) {
      const uint64_t d = (uint64_t{i} * dstRep + uint64_t{p / e} * dstBlk) * e + p % e;
      const uint64_t s = (uint64_t{i} * srcRep + uint64_t{p / e} * srcBlk) * e + p % e;
      std::memmove(dst + d * S, src + s * S, S);
    }
  }
}

template <uint32_t S>
void LastDimAlign(uint8_t* dst, const uint8_t* src, uint8_t* tmp, uint32_t firstDim,
                  uint32_t numBlocks) {
  constexpr uint32_t e = 32 / S;
  BrcbToOneBlock<S>(src, firstDim, tmp);
  const uint32_t copies = firstDim / 255, tail = firstDim % 255;
  uint64_t dstOff = 0, tmpOff = 0;
  for (uint32_t i = 0; i < copies; ++i) {
    CopyCounter<S>(dst + dstOff * S, tmp + tmpOff * S, numBlocks, 255, 1, 0, numBlocks / e, 1);
    dstOff += uint64_t{255} * numBlocks;
    tmpOff += uint64_t{255} * e;
  }
  if (tail != 0) {
    CopyCounter<S>(dst + dstOff * S, tmp + tmpOff * S, numBlocks, tail, 1, 0, numBlocks / e, 1);
  }
}

template <uint32_t S>
void LastDimNotAlign(uint8_t* dst, const uint8_t* src, uint8_t* tmp, uint32_t firstDim,
                     uint32_t numBlocks) {
  constexpr uint32_t e = 32 / S;
  BrcbToOneBlock<S>(src, firstDim, tmp);
  const uint32_t rep = (numBlocks + e - 1) / e, align = rep * e;
  uint8_t* copyTmp = tmp + uint64_t{firstDim} * e * S;
  const uint32_t copies = firstDim / 255, tail = firstDim % 255;
  uint64_t dstOff = 0, tmpOff = 0;
  for (uint32_t i = 0; i < copies; ++i) {
    CopyCounter<S>(copyTmp + dstOff * S, tmp + tmpOff * S, align, 255, 1, 0, rep, 1);
    dstOff += uint64_t{255} * align;
    tmpOff += uint64_t{255} * e;
  }
  if (tail != 0) CopyCounter<S>(copyTmp + dstOff * S, tmp + tmpOff * S, align, tail, 1, 0, rep, 1);
  // GatherMask pattern 7 (every element), counter mode: firstDim repeats of numBlocks elements,
  // src0BlockStride 1, src0RepeatStride rep blocks; the kept elements packed into dst.
  uint64_t k = 0;
  for (uint32_t i = 0; i < firstDim; ++i) {
    for (uint32_t p = 0; p < numBlocks; ++p) {
      std::memcpy(dst + k++ * S, copyTmp + (uint64_t{i} * rep * e + p) * S, S);
    }
  }
}

// TwoDimBroadCastLastDim; tmpElems = the scratch tensor's GetSize().
template <uint32_t S>
void LastDim(uint8_t* dst, const uint8_t* src, uint8_t* tmp, uint32_t tmpElems, uint32_t firstDim,
             uint32_t numBlocks) {
  constexpr uint32_t e = 32 / S;
  const bool aligned = numBlocks * S % 32 == 0;
  const uint32_t rep = (numBlocks + e - 1) / e;
  const uint32_t minTmp = aligned ? e * e : e * e + e * rep * e;
  if (tmpElems < minTmp) throw std::runtime_error("replay: the kit asserts tmpBufferSize >= min");
  const uint32_t oneRepeat = tmpElems / minTmp * e;
  const uint32_t rangeM = firstDim / oneRepeat, tailM = firstDim - oneRepeat * rangeM;
  uint64_t dstOff = 0, srcOff = 0;
  const auto chunk = [&](uint32_t n) {
    if (aligned) {
      LastDimAlign<S>(dst + dstOff * S, src + srcOff * S, tmp, n, numBlocks);
    } else {
      LastDimNotAlign<S>(dst + dstOff * S, src + srcOff * S, tmp, n, numBlocks);
    }
  };
  for (uint32_t i = 0; i < rangeM; ++i) {
    chunk(oneRepeat);
    dstOff += uint64_t{oneRepeat} * numBlocks;
    srcOff += oneRepeat;
  }
  if (tailM != 0) chunk(tailM);
}

// TwoDimBroadCastFirstDim: the zero block, then the Or passes (bits of src's row) into dst.
template <uint32_t S>
void FirstDim(uint8_t* dst, const uint8_t* src, uint8_t* tmp, uint32_t firstDim,
              uint32_t numBlocks) {
  std::memset(tmp, 0, 32);
  for (uint32_t i = 0; i < firstDim; ++i) {
    std::memcpy(dst + uint64_t{i} * numBlocks * S, src, uint64_t{numBlocks} * S);
  }
}

// BroadCastCompute<S-byte element> (2201).
template <uint32_t S>
void Compute(uint8_t* dst, const uint8_t* src, uint8_t* tmp, uint32_t tmpElems, int dim, int axis,
             const uint32_t* dstShape, const uint32_t* srcShape) {
  uint64_t srcSize = 1, dstSize = 1;
  for (int i = 0; i < dim; ++i) {
    srcSize *= srcShape[i];
    dstSize *= dstShape[i];
  }
  if (srcSize == dstSize) {
    CopyCounter<S>(dst, src, static_cast<uint32_t>(dstSize), 1, 1, 1, 8, 8);  // NoBroad
  } else if (srcSize == 1) {
    for (uint64_t i = 0; i < dstSize; ++i) std::memcpy(dst + i * S, src, S);  // Duplicate
  } else if (dim == 2 && axis == 1) {
    LastDim<S>(dst, src, tmp, tmpElems, dstShape[0], dstShape[1]);
  } else if (dim == 2) {
    FirstDim<S>(dst, src, tmp, dstShape[0], dstShape[1]);
  }
}

// binary16 bits of an integer in [-256, 256] (exact).
inline uint16_t IntToHalf(int v) {
  if (v == 0) return 0;
  const uint16_t sign = v < 0 ? 0x8000 : 0;
  uint32_t m = static_cast<uint32_t>(v < 0 ? -v : v);
  int ex = 0;
  while ((m >> ex) > 1) ++ex;  // m = 1.f * 2^ex
  const uint32_t frac = (m << (10 - ex)) & 0x3FF;
  return static_cast<uint16_t>(sign | ((ex + 15) << 10) | frac);
}

// The integer an integral binary16 holds (only such values reach the Cast back).
inline int HalfToInt(uint16_t h) {
  const int ex = (h >> 10) & 0x1F;
  if (ex == 0) {
    if ((h & 0x3FF) != 0) throw std::runtime_error("replay: a non-integral half reached the Cast");
    return 0;
  }
  const uint32_t m = 0x400 | (h & 0x3FF);
  const int shift = ex - 25;  // value = m * 2^(ex - 15 - 10)
  if (shift < 0 && (m & ((1u << -shift) - 1)) != 0) {
    throw std::runtime_error("replay: a non-integral half reached the Cast");
  }
  const int mag = shift >= 0 ? static_cast<int>(m << shift) : static_cast<int>(m >> -shift);
  return (h & 0x8000) ? -mag : mag;
}

// Broadcast<T, dim, axis> with sharedTmpBuffer (or the stack buffer) on 2201; T of S bytes
// (S = 1: isSigned picks int8_t / uint8_t).
template <uint32_t S>
void Broadcast2201(const Mem& m, int dim, int axis, const uint32_t* dstShape,
                   const uint32_t* srcShape, bool isSigned = true) {
  if constexpr (S != 1) {
    Compute<S>(m.dst, m.src, m.tmp, static_cast<uint32_t>(m.tmpBytes / S), dim, axis, dstShape,
               srcShape);
  } else {
    uint64_t srcSize = 1, dstSize = 1;
    for (int i = 0; i < dim; ++i) {
      srcSize *= srcShape[i];
      dstSize *= dstShape[i];
    }
    const uint64_t alignSrc = (srcSize + 15) / 16 * 16, alignDst = (dstSize + 15) / 16 * 16;
    uint8_t* srcTmp = m.tmp;
    uint8_t* dstTmp = m.tmp + alignSrc * 2;
    uint8_t* tempTmp = dstTmp + alignDst * 2;
    // dataLen of tempTempBuffer: the scratch's bytes less both offsets (uint32_t, as the kit).
    const uint32_t tempLen = static_cast<uint32_t>(m.tmpBytes) -
                             static_cast<uint32_t>(alignSrc * 2) -
                             static_cast<uint32_t>(alignDst * 2);
    for (uint64_t i = 0; i < srcSize; ++i) {
      const int v = isSigned ? static_cast<int8_t>(m.src[i]) : m.src[i];
      const uint16_t h = IntToHalf(v);
      std::memcpy(srcTmp + i * 2, &h, 2);
    }
    Compute<2>(dstTmp, srcTmp, tempTmp, tempLen / 2, dim, axis, dstShape, srcShape);
    for (uint64_t i = 0; i < dstSize; ++i) {
      uint16_t h;
      std::memcpy(&h, dstTmp + i * 2, 2);
      m.dst[i] = static_cast<uint8_t>(HalfToInt(h));
    }
  }
}

// ---- arch 2002 (broadcast_v200_impl.h) ----

// TwoDimBroadCastDimAlign(dst, src, zero, firstDim, numBlocks): Or passes of 8 rows of
// numBlocks elements (repeat r: block r of each row = src block r; repeatTimes uint8_t).
template <uint32_t S>
void DimAlign(uint8_t* dst, const uint8_t* src, uint32_t firstDim, uint32_t numBlocks) {
  constexpr uint32_t e = 32 / S;
  const auto repeats = static_cast<uint8_t>(numBlocks / e);
  const uint32_t rowBlocks = numBlocks * S / 32;  // dstBlkStride (numBlocks * dtypeCount / 16)
  const uint32_t ors = firstDim / 8, tailRows = firstDim - ors * 8;
  const auto pass = [&](uint64_t firstRow, uint32_t blocks) {
    for (uint32_t r = 0; r < repeats; ++r) {
      for (uint32_t b = 0; b < blocks; ++b) {
        std::memcpy(dst + ((firstRow + b) * rowBlocks + r) * 32, src + uint64_t{r} * 32, 32);
      }
    }
  };
  for (uint32_t i = 0; i < ors; ++i) pass(uint64_t{i} * 8, 8);
  if (tailRows > 0) pass(uint64_t{ors} * 8, tailRows);
}

// Transpose NCHW2NHWC {N 1, C c, H 1, W w}: dst[k * c + ci] = src[ci * w + k].
template <uint32_t S>
void Transpose4D(uint8_t* dst, const uint8_t* src, uint32_t c, uint32_t w) {
  for (uint64_t ci = 0; ci < c; ++ci) {
    for (uint64_t k = 0; k < w; ++k) std::memcpy(dst + (k * c + ci) * S, src + (ci * w + k) * S, S);
  }
}

// Throws when the sequence would write past the scratch (tmpBytes).
inline void Fits(uint64_t end, uint64_t tmpBytes) {
  if (end > tmpBytes) throw std::out_of_range("replay: the 2002 sequence writes past the scratch");
}

template <uint32_t S>
void LastDim200(uint8_t* dst, const uint8_t* src, uint8_t* tmp, uint64_t tmpBytes,
                uint32_t tmpElems, uint32_t firstDim, uint32_t numBlocks) {
  constexpr uint32_t e = 32 / S;
  Fits(32, tmpBytes);
  std::memset(tmp, 0, 32);
  uint8_t* body = tmp + 32;  // tmpBuffer[blockSize]
  if (firstDim >= 255 * e) {
    // LoopBroadCast(body, src, zero, firstDim, numBlocks): numBlocks rows of firstDim elements
    Fits(32 + uint64_t{numBlocks} * firstDim * S, tmpBytes);
    for (uint64_t i = 0; i < numBlocks; ++i) {
      std::memcpy(body + i * firstDim * S, src, uint64_t{firstDim} * S);
    }
    Transpose4D<S>(dst, body, numBlocks, firstDim);
    return;
  }
  if (firstDim * S % 32 != 0) return;  // "Non-alignment is not supported." (a log)
  const uint32_t tmpSize = tmpElems - e;
  const uint32_t minTmp = e * ((numBlocks + 7) / 8);
  if (!(tmpSize > minTmp)) throw std::runtime_error("replay: the kit asserts tmpBufferSize > min");
  const uint32_t oneRepeat = tmpSize / minTmp * e;
  const uint32_t rangeM = firstDim / oneRepeat, tailM = firstDim - oneRepeat * rangeM;
  uint64_t dstOff = 0, srcOff = 0;
  const auto chunk = [&](uint32_t n) {
    Fits(32 + uint64_t{numBlocks} * n * S, tmpBytes);
    DimAlign<S>(body, src + srcOff * S, numBlocks, n);
    Transpose4D<S>(dst + dstOff * S, body, numBlocks, n);
  };
  for (uint32_t i = 0; i < rangeM; ++i) {
    chunk(oneRepeat);
    dstOff += uint64_t{oneRepeat} * numBlocks;
    srcOff += oneRepeat;
  }
  if (tailM != 0) chunk(tailM);
}

template <uint32_t S>
void Compute200(uint8_t* dst, const uint8_t* src, uint8_t* tmp, uint64_t tmpBytes,
                uint32_t tmpElems, int dim, int axis, const uint32_t* dstShape,
                const uint32_t* srcShape) {
  uint64_t srcSize = 1, dstSize = 1;
  for (int i = 0; i < dim; ++i) {
    srcSize *= srcShape[i];
    dstSize *= dstShape[i];
  }
  if (srcSize == dstSize) {
    std::memcpy(dst, src, dstSize * S / 32 * 32);  // NoBroad: DataCopy, whole blocks
  } else if (srcSize == 1) {
    for (uint64_t i = 0; i < dstSize; ++i) std::memcpy(dst + i * S, src, S);
  } else if (dim == 2 && axis == 1) {
    LastDim200<S>(dst, src, tmp, tmpBytes, tmpElems, dstShape[0], dstShape[1]);
  } else if (dim == 2) {
    Fits(32, tmpBytes);
    FirstDim<S>(dst, src, tmp, dstShape[0], dstShape[1]);
  }
}

// Broadcast<T, dim, axis> on 2002; as Broadcast2201.
template <uint32_t S>
void Broadcast2002(const Mem& m, int dim, int axis, const uint32_t* dstShape,
                   const uint32_t* srcShape, bool isSigned = true) {
  if constexpr (S != 1) {
    Compute200<S>(m.dst, m.src, m.tmp, m.tmpBytes, static_cast<uint32_t>(m.tmpBytes / S), dim, axis,
                  dstShape, srcShape);
  } else {
    uint64_t srcSize = 1, dstSize = 1;
    for (int i = 0; i < dim; ++i) {
      srcSize *= srcShape[i];
      dstSize *= dstShape[i];
    }
    const uint64_t alignSrc = (srcSize + 15) / 16 * 16, alignDst = (dstSize + 15) / 16 * 16;
    const uint64_t stage = (alignSrc + alignDst) * 2;
    Fits(stage, m.tmpBytes);
    uint8_t* dstTmp = m.tmp + alignSrc * 2;
    const uint32_t tempLen = static_cast<uint32_t>(m.tmpBytes) - static_cast<uint32_t>(stage);
    for (uint64_t i = 0; i < srcSize; ++i) {
      const uint16_t h = IntToHalf(isSigned ? static_cast<int8_t>(m.src[i]) : m.src[i]);
      std::memcpy(m.tmp + i * 2, &h, 2);
    }
    Compute200<2>(dstTmp, m.tmp, m.tmp + stage, m.tmpBytes - stage, tempLen / 2, dim, axis,
                  dstShape, srcShape);
    for (uint64_t i = 0; i < dstSize; ++i) {
      uint16_t h;
      std::memcpy(&h, dstTmp + i * 2, 2);
      m.dst[i] = static_cast<uint8_t>(HalfToInt(h));
    }
  }
}

}  // namespace lngrad_replay::broadcast_scratch
