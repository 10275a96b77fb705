// A replay of TopK on arch 2002 (Atlas inference, Ascend310P1): the kit's
// impl/adv_api/detail/sort/topk/topk_v200_impl.h with topk_common_impl.h's TopKNormal /
// TopKNSmall around it (and ArithProgression's writes for the indexes), on byte images of the
// buffers, so that every byte the sequence leaves in dstValue, dstIndex and tmpLocal is known.
// See replay_topk_v200.cpp's header for what was read and the instruction rules assumed.
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay::topk200 {

// The TopkTiling fields the 2002 sequence reads (the kernel struct's names; the test copies them).
struct Tiling {
  int32_t tmpLocalSize = 0;
  int32_t innerDataSize = 0;
  int32_t srcIndexOffset = 0;
  int32_t sortRepeat = 0;
  int32_t copyUbToUbBlockCount = 0;
  int32_t mrgSortSrc1offset = 0;
  int32_t mrgSortSrc2offset = 0;
  int32_t mrgSortSrc3offset = 0;
  int32_t mrgSortRepeat = 0;
  int32_t mrgSortTwoQueueSrc1Offset = 0;
  int32_t kAlignFourBytes = 0;
  int32_t kAlignTwoBytes = 0;
  int32_t maskOffset = 0;
  int32_t topkNSmallSrcIndexOffset = 0;
  int32_t allDataSize = 0;
  uint32_t vreduceValMask0 = 0;
  uint32_t vreduceValMask1 = 0;
  uint32_t vreduceIdxMask0 = 0;
};

// The buffers as bytes: src (srcLocal), idx (srcIndexLocal), fin (finishLocal, a byte per row),
// tmp (tmpLocal), dv (dstValueLocal), di (dstIndexLocal). Each must hold what the sequence
// touches (dv / di: for TOPK_NSMALL whole GatherMask repeats, outter * 256 bytes).
struct Io {
  std::vector<uint8_t> src, idx, fin, tmp, dv, di;
};

struct Call {
  bool half = false;  // T half (else float)
  bool initIndex = false;
  bool hasFinish = false;
  bool nsmall = false;  // TopKMode::TOPK_NSMALL
  bool largest = true;
  int32_t outter = 1, inner = 32, n = 32, k = 1;
};

void ReplayTopK200(Io& io, const Call& c, const Tiling& t);

}  // namespace lngrad_replay::topk200
