// lngrad: TopK's overlap refusal (checked mode), shared by its device paths: the 950's merge
// sort (topk.h RunMerge950) and radix select (topk_3510.h RunRadix950), 2201's merge
// (topk_2201.h RunMerge2201) and 2002's proposals (topk_v200.h RunV200). Included by topk.h.
//
// The page's 约束说明 allows no overlap of sources and destinations (不支持源操作数与目的操作数地址
// 重叠), and the kit's sequences go wrong where one is allowed: each writes tmpLocal row by row
// before later rows read srcLocal / srcIndexLocal / finishLocal, gathers the destinations out of
// tmpLocal (so a destination over tmpLocal is overwritten by the next row's sort), and writes row
// j's destinations before row j + 1 reads its source. Checked mode refuses, before anything is
// written, tmpLocal (the bytes the path uses) sharing a byte with a source or a destination, and
// a destination sharing a byte with a source (address_overlap; the message names the two
// tensors, the path and the kit step that then reads or overwrites what the other wrote).
// Unchecked, the merge paths run lngrad's instructions in the kit's order on the shared bytes;
// the radix select runs row by row (topk_3510.h), but reads a row's keys once at its start, where
// the kit rereads them from srcLocal in each pass when they are not twiddled into the scratch (a
// scratch over that row's keys: not the device's bytes).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "lib/math/math_common.h"

namespace lngrad::aicore::topk_detail {

// One operand: its name on the page, its view and the bytes the path reads or writes from it
// (0: not used by the call).
struct TopKSpan {
  const char* name;
  detail::TensorView view;
  uint64_t bytes;
};

// The path's name and what its steps do with the scratch and the destinations (for messages).
struct TopKSteps {
  const char* path;
  const char* tmpStep;  // how the sequence uses tmpLocal across rows
  const char* dstStep;  // when it writes the destinations relative to the source reads
};

inline void RaiseTopKOverlap(const TopKSteps& s, const char* a, const char* b, bool tmpPair) {
  RaiseKernelCheck(
      checks::kAddressOverlap,
      std::string("TopK (") + s.path + "): " + a + " and " + b +
          " overlap, which the page does not allow (不支持源操作数与目的操作数地址重叠): " +
          (tmpPair ? s.tmpStep : s.dstStep) + "; give each its own bytes");
}

// Checked mode: tmp against every source and destination, then each destination against each
// source (sources: srcLocal, srcIndexLocal, finishLocal; destinations: dstValueLocal,
// dstIndexLocal).
inline void RefuseTopKOverlaps(const TopKSteps& s, const TopKSpan& tmp, const TopKSpan (&srcs)[3],
                               const TopKSpan (&dsts)[2]) {
  if (!CheckedMode()) return;
  const TopKSpan* all[5] = {&srcs[0], &srcs[1], &srcs[2], &dsts[0], &dsts[1]};
  for (const TopKSpan* x : all) {
    if (math_detail::Overlaps(tmp.view, tmp.bytes, x->view, x->bytes)) {
      RaiseTopKOverlap(s, tmp.name, x->name, true);
    }
  }
  for (const TopKSpan& d : dsts) {
    for (const TopKSpan& x : srcs) {
      if (math_detail::Overlaps(d.view, d.bytes, x.view, x.bytes)) {
        RaiseTopKOverlap(s, d.name, x.name, false);
      }
    }
  }
}

// The operands of a TopK call with the byte spans its merge paths use: src rows * inner,
// srcIndexLocal's inner (rows * inner for TOPK_NSMALL) with isInitIndex, finishLocal's rows with
// isHasfinish in TOPK_NORMAL, the destinations up to row rows-1's k-th element at the tiling's
// strides (dstValue at least maskOffset elements when negated back; at least `dstFloor` bytes
// each), tmpLocal the tiling's tmpLocalSize elements of T (its whole view when the tiling has
// none).
template <typename T, bool isInitIndex, bool isHasfinish, bool nsmall>
void RefuseMergeOverlaps(const TopKSteps& s, const AscendC::LocalTensor<T>& dstValue,
                         const AscendC::LocalTensor<int32_t>& dstIndex,
                         const AscendC::LocalTensor<T>& src,
                         const AscendC::LocalTensor<int32_t>& srcIndex,
                         const AscendC::LocalTensor<bool>& finish,
                         const AscendC::LocalTensor<uint8_t>& tmp, int32_t k,
                         const AscendC::tiling::TopkTiling& t, const AscendC::TopKInfo& info,
                         bool largest, uint64_t dstFloor = 0) {
  if (!CheckedMode()) return;
  const uint64_t rows = uint64_t(std::max(info.outter, 1)),
                 inner = uint64_t(std::max(info.inner, 0));
  const uint64_t kk = uint64_t(std::max(k, 0));
  const uint64_t vstride =
      nsmall ? kk : uint64_t(std::max(sizeof(T) == 4 ? t.kAlignFourBytes : t.kAlignTwoBytes, 0));
  const uint64_t istride = nsmall ? kk : uint64_t(std::max(t.kAlignFourBytes, 0));
  uint64_t vcount = (rows - 1) * vstride + kk;
  if (!largest) vcount = std::max<uint64_t>(vcount, uint64_t(std::max(t.maskOffset, 0)));
  const uint64_t laid = uint64_t(std::max(t.tmpLocalSize, 0)) * sizeof(T);
  const TopKSpan srcs[3] = {
      {"srcLocal", src.View(), rows * inner * sizeof(T)},
      {"srcIndexLocal", srcIndex.View(), isInitIndex ? (nsmall ? rows * inner : inner) * 4 : 0},
      {"finishLocal", finish.View(), isHasfinish && !nsmall ? rows : 0}};
  const TopKSpan dsts[2] = {
      {"dstValueLocal", dstValue.View(), std::max(vcount * sizeof(T), dstFloor)},
      {"dstIndexLocal", dstIndex.View(), std::max(((rows - 1) * istride + kk) * 4, dstFloor)}};
  RefuseTopKOverlaps(s, {"tmpLocal", tmp.View(), laid != 0 ? laid : tmp.View().size_bytes}, srcs,
                     dsts);
}

}  // namespace lngrad::aicore::topk_detail

namespace lngrad::aicore::topk_detail::steps {

inline constexpr TopKSteps kMerge950{
    "arch 3510, MERGE_SORT",
    "per row Sort<T, true> sorts the row into tmpLocal (CreateVecIndex makes the indexes there "
    "without isInitIndex) before the next row reads srcLocal / srcIndexLocal / finishLocal, and "
    "GatherMask writes the destinations out of it",
    "GatherMask writes row j's destinations before row j + 1's Sort reads srcLocal, and for the "
    "smallest Muls(-1) negates srcLocal back after dstValueLocal is written"};
inline constexpr TopKSteps kMerge2201{
    "arch 2201",
    "per row Sort32 and the MrgSort rounds write tmpLocal (ArithProgression the indexes there "
    "without isInitIndex) before the next row's Sort32 reads srcLocal / srcIndexLocal / "
    "finishLocal, and GatherMask writes the destinations out of it",
    "GatherMask writes row j's destinations before row j + 1's Muls / Sort32 reads srcLocal, and "
    "Duplicate sets finished rows' indexes"};
inline constexpr TopKSteps kV200{
    "arch 2002",
    "per row the proposals (the row and its indexes), RpSort16 and the MrgSort4 rounds write "
    "tmpLocal before the next row reads srcLocal / srcIndexLocal / finishLocal, and Adds stores "
    "the destinations out of it",
    "Adds stores row j's destinations before row j + 1's proposals read srcLocal"};
inline constexpr TopKSteps kRadix950{
    "arch 3510, RADIX_SELECT",
    "per row TwiddleInData, the histograms and the gathers write tmpLocal before the next row "
    "reads srcLocal / srcIndexLocal (each row's index gather after its own key gather), and the "
    "destinations are written from it",
    "row j's destinations are written before row j + 1's TwiddleInData reads srcLocal"};

}  // namespace lngrad::aicore::topk_detail::steps
