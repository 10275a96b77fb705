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
  uint32_t blockSize, shapeB, shapeA1, alignA3, alignA2, widthTiling, newPopSize, newPopH,
      needSize, mainBlocks, tailSize, alignA2MulAlignA3, batchOffset, alignA3MulA1,
      shapeA1BlockCube, mainOffset;
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

}  // namespace lngrad_replay::transform_scratch
