// TopK's merge sequence on arch 2201 (Ascend910B1), an independent replay of the kit's
// impl/adv_api/detail/sort/topk/topk_common_impl.h (TopKNormal, TopKNSmall) with
// topk_v220_impl.h (TmpLocalSort32, MrgFourQueueSort, MrgTwoQueueSort, GatherDstValAndDstIdx,
// TopKCompute, TopKNSmallCompute and its two GatherMask value functions, CopyData) and
// topk_common_utils.h's constants, on byte images of the buffers (replay_topk_2201_merge.cpp
// says what it runs). It shares no code with lngrad's src/ or include/.
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay::topk2201 {

// The TopkTiling fields the 2201 sequence reads (elements of T unless said otherwise).
struct Tiling {
  int32_t innerDataSize = 0, srcIndexOffset = 0, sortRepeat = 0, mrgSortRepeat = 0;
  int32_t copyUbToUbBlockCount = 0, mrgSortSrc1offset = 0, mrgSortSrc2offset = 0;
  int32_t mrgSortSrc3offset = 0, mrgSortTwoQueueSrc1Offset = 0, kAlignFourBytes = 0;
  int32_t kAlignTwoBytes = 0, maskOffset = 0, maskVreducev2FourBytes = 0;
  int32_t maskVreducev2TwoBytes = 0, allDataSize = 0, topkMrgSrc1MaskSizeOffset = 0;
  int32_t topkNSmallSrcIndexOffset = 0, tmpLocalSize = 0;
  uint32_t vreduceValMask0 = 0, vreduceValMask1 = 0, vreduceIdxMask0 = 0, vreduceIdxMask1 = 0;
  uint16_t halfValMask[8] = {0, 0, 0, 0, 0, 0, 0, 0};  // vreducehalfValMask0..7
};

struct Shape {
  bool half = false;    // T half (else float)
  bool init = false;    // isInitIndex
  bool finish = false;  // isHasfinish
  bool nsmall = false;  // TOPK_NSMALL (else TOPK_NORMAL)
  bool largest = true;  // isLargest
  int32_t outter = 1, inner = 32, n = 32, k = 1;
};

// The buffers as bytes, each from its tensor's start: srcLocal, srcIndexLocal, finishLocal,
// tmpLocal, dstValueLocal, dstIndexLocal. The replay reads and writes them as the kit does.
struct Images {
  std::vector<uint8_t> src, idx, fin, tmp, dv, di;
};

void ReplayTopK2201(Images& io, const Shape& s, const Tiling& t);

// The fields the kit's host tiling sets for 2201 (topk_tiling_impl.cpp: TopKTilingFunc's last
// branch, SetTopkNormalVal / SetTopkNSmallVal, GetVreduceMask), the others 0.
Tiling KitTiling2201(const Shape& s);

// Whether byte `at` of tmpLocal holds a score of T after the sequence (where the negation's NaN
// bits are lngrad's instruction's choice, not the kit's: the test compares NaN there as any NaN).
bool ScratchScoreAt(const Shape& s, const Tiling& t, uint64_t at);

}  // namespace lngrad_replay::topk2201
