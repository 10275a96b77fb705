// TopK's overlap refusal in checked mode (lib/sort/topk_overlap.h) on each device path: 2201's
// merge (Ascend910B1), 2002's proposals (Ascend310P1), the 950's merge sort and radix select
// (Ascend950PR_9589). The page allows no overlap of sources and destinations; each path's
// sequence writes tmpLocal row by row before later rows read the sources, gathers the
// destinations out of it, and writes row j's destinations before row j + 1 reads its source.
// A call with its operands apart runs; each overlap is refused before anything is written
// (address_overlap, naming the two tensors and the path).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_api_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

enum class Where {
  kApart,
  kTmpOverSrc,
  kTmpOverSrcIndex,
  kTmpOverDstValue,
  kTmpOverDstIndex,
  kTmpOverFinish,
  kDstValueOverSrc,
  kDstIndexOverSrcIndex,
};

struct Expect {
  Where where;
  const char* needle;  // the two tensors the message names ("" for a call that runs)
};

constexpr Expect kCases[] = {
    {Where::kApart, ""},
    {Where::kTmpOverSrc, "tmpLocal and srcLocal"},
    {Where::kTmpOverSrcIndex, "tmpLocal and srcIndexLocal"},
    {Where::kTmpOverDstValue, "tmpLocal and dstValueLocal"},
    {Where::kTmpOverDstIndex, "tmpLocal and dstIndexLocal"},
    {Where::kTmpOverFinish, "tmpLocal and finishLocal"},
    {Where::kDstValueOverSrc, "dstValueLocal and srcLocal"},
    {Where::kDstIndexOverSrcIndex, "dstIndexLocal and srcIndexLocal"},
};

constexpr TopKConfig kRadix = {TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, true};

// float, 2 rows of 64, k 8, the smallest, with isInitIndex (and finish flags but on the radix
// select, which takes none). Apart: src in buffer 0, srcIndexLocal and finishLocal (at byte
// 8192) in buffer 1, tmpLocal in buffer 2, dstValueLocal and dstIndexLocal (at byte 20480) in
// buffer 3; each overlap moves one of them into another (32 or 64 bytes in, or at its start).
template <bool radix>
void Call(Ub& ub, Where w, const char* soc) {
  constexpr bool kFinish = !radix;
  const TopKInfo info{2, 64, 64};
  TopkTiling tiling;
  if (radix) {
    tiling.tmpLocalSize = 0;
  } else {
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
    ASSERT_TRUE(TopKTilingFunc(*platform, 64, 2, 8, 4, true, TopKMode::TOPK_NORMAL, false, tiling));
  }
  std::vector<int32_t> ids(64);
  for (int32_t i = 0; i < 64; ++i) ids[i] = 100 + i;
  std::vector<float> in(128);
  for (int32_t i = 0; i < 128; ++i) in[i] = static_cast<float>((i * 37) % 101);
  ub.Put<float>(0, in);
  ub.Put<int32_t>(1, ids);
  LocalTensor<float> src = ub.Get<float>(0), dv = ub.Get<float>(3);
  LocalTensor<int32_t> si = ub.Get<int32_t>(1), di = ub.Get<int32_t>(3)[20480 / 4];
  LocalTensor<bool> fin = ub.Get<bool>(1)[8192];
  LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
  if (w == Where::kTmpOverSrc) tmp = ub.Get<uint8_t>(0)[64];
  if (w == Where::kTmpOverSrcIndex) tmp = ub.Get<uint8_t>(1)[64];
  if (w == Where::kTmpOverDstValue) tmp = ub.Get<uint8_t>(3)[32];
  if (w == Where::kTmpOverDstIndex) tmp = ub.Get<uint8_t>(3)[20480 + 32];
  if (w == Where::kTmpOverFinish) tmp = ub.Get<uint8_t>(1)[8192];
  if (w == Where::kDstValueOverSrc) dv = ub.Get<float>(0)[16];
  if (w == Where::kDstIndexOverSrcIndex) di = ub.Get<int32_t>(1)[16];
  if constexpr (radix) {
    TopK<float, true, false, false, TopKMode::TOPK_NORMAL, kRadix>(dv, di, src, si, fin, tmp, 8,
                                                                   tiling, info, false);
  } else {
    TopK<float, true, kFinish, false, TopKMode::TOPK_NORMAL>(dv, di, src, si, fin, tmp, 8, tiling,
                                                             info, false);
  }
}

template <bool radix>
void ExpectRefusals(const char* soc, const char* path) {
  for (const Expect& e : kCases) {
    if (radix && e.where == Where::kTmpOverFinish) continue;  // no finish flags there
    const bool runs = e.where == Where::kApart;
    SCOPED_TRACE(std::string(soc) + " " + path + " " + (runs ? "apart" : e.needle));
    ExpectCheck([&](Ub& ub) { Call<radix>(ub, e.where, soc); }, runs ? "" : "address_overlap",
                runs ? "" : e.needle, soc);
    if (!runs) {
      ExpectCheck([&](Ub& ub) { Call<radix>(ub, e.where, soc); }, "address_overlap", path, soc);
    }
  }
}

TEST(TopKOverlap, MergeOn2201RefusesEachOverlapInCheckedMode) {
  ExpectRefusals<false>(k910B, "arch 2201");
}

TEST(TopKOverlap, ProposalsOn2002RefuseEachOverlapInCheckedMode) {
  ExpectRefusals<false>(k310P, "arch 2002");
}

TEST(TopKOverlap, MergeSortOn950RefusesEachOverlapInCheckedMode) {
  ExpectRefusals<false>(k950, "arch 3510, MERGE_SORT");
}

TEST(TopKOverlap, RadixSelectOn950RefusesEachOverlapInCheckedMode) {
  ExpectRefusals<true>(k950, "arch 3510, RADIX_SELECT");
}

}  // namespace
