// The sort APIs (lib/sort/sort.h, topk.h) against exact oracles (stable sorts written here):
// Concat / Sort<T, isFullSort> / Extract, the six-argument MrgSort, the 950 Sort and TopK in its
// modes, on Ascend910B1 and the 950; the checked-mode refusals; TopKTilingFunc and the scratch
// sizes pinned field by field against the toolkit's formulas.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_api_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

// Values with many ties (integers in [-20, 20]).
template <typename T>
std::vector<T> Tied(uint32_t seed, uint32_t n) {
  std::mt19937 gen(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = T(static_cast<float>(static_cast<int>(gen() % 41) - 20));
  return v;
}

// The stable order of v: descending (or ascending) by value, ties by position.
template <typename T>
std::vector<uint32_t> StableOrder(const std::vector<T>& v, bool descending) {
  std::vector<uint32_t> o(v.size());
  std::iota(o.begin(), o.end(), 0u);
  std::stable_sort(o.begin(), o.end(), [&](uint32_t a, uint32_t b) {
    return descending ? D(v[a]) > D(v[b]) : D(v[a]) < D(v[b]);
  });
  return o;
}

// Concat + full Sort + Extract, as the kit's sort sample does, with indexes 1000 + i.
template <typename T>
void CheckFullSort(uint32_t repeats, const char* soc) {
  const uint32_t n = repeats * 32;
  const std::vector<T> in = Tied<T>(repeats, n);
  std::vector<uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 1000u);
  std::vector<T> values;
  std::vector<uint32_t> indexes;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        ub.Put<uint32_t>(1, idx);
        LocalTensor<T> src = ub.Get<T>(0), concat, sorted = ub.Get<T>(2), tmp = ub.Get<T>(3);
        Concat(concat, src, tmp, static_cast<int32_t>(n / 16));
        EXPECT_EQ(concat.GetPhyAddr(), src.GetPhyAddr());
        Sort<T, true>(sorted, concat, ub.Get<uint32_t>(1), tmp, static_cast<int32_t>(repeats));
        Extract(ub.Get<T>(0), ub.Get<uint32_t>(1), sorted, static_cast<int32_t>(repeats));
        values = ub.Take<T>(0);
        indexes = ub.Take<uint32_t>(1);
      },
      soc);
  const std::vector<uint32_t> order = StableOrder(in, true);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(Bits(values[i]), Bits(in[order[i]])) << "position " << i << " of " << n;
    ASSERT_EQ(indexes[i], 1000u + order[i]) << "position " << i << " of " << n;
  }
}

TEST(SortApi, FullSortIsAStableDescendingSort) {
  for (uint32_t r : {1u, 3u, 4u, 5u, 17u, 20u, 64u}) {
    CheckFullSort<float>(r, k910B);
    CheckFullSort<half>(r, k910B);
  }
  CheckFullSort<float>(9, k950);
}

TEST(SortApi, SortWithoutFullSortSortsEachRunOf32) {
  const std::vector<float> in = Tied<float>(5, 96);
  std::vector<uint32_t> idx(96);
  std::iota(idx.begin(), idx.end(), 0u);
  std::vector<float> values;
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, in);
    ub.Put<uint32_t>(1, idx);
    LocalTensor<float> tmp = ub.Get<float>(3);
    Sort<float, false>(ub.Get<float>(2), ub.Get<float>(0), ub.Get<uint32_t>(1), tmp, 3);
    Extract(ub.Get<float>(0), ub.Get<uint32_t>(1), ub.Get<float>(2), 3);
    values = ub.Take<float>(0);
  });
  for (uint32_t run = 0; run < 3; ++run) {
    std::vector<float> part(in.begin() + run * 32, in.begin() + run * 32 + 32);
    std::sort(part.begin(), part.end(), std::greater<float>());
    for (uint32_t i = 0; i < 32; ++i) ASSERT_EQ(values[run * 32 + i], part[i]);
  }
  EXPECT_EQ(GetSortLen<float>(96), 192u);
  EXPECT_EQ(GetSortLen<half>(96), 384u);
  EXPECT_EQ(GetSortOffset<half>(3), 12u);
}

// The six-argument MrgSort with exhausted suspension reports how many it took of each queue.
TEST(SortApi, MrgSortReportsTheTakenCounts) {
  std::vector<float> a = {9, 8, 1, 0}, b = {7, 6, 5, 4};
  uint32_t sorted[4] = {0, 0, 0, 0};
  std::vector<float> out;
  OnBlock([&](Ub& ub) {
    std::vector<float> pairs;
    for (float v : a) pairs.insert(pairs.end(), {v, 0.0f});
    for (float v : b) pairs.insert(pairs.end(), {v, 0.0f});
    ub.Put<float>(0, pairs);
    LocalTensor<float> s = ub.Get<float>(0);
    const uint16_t counts[4] = {4, 4, 0, 0};
    MrgSort<float, true>(ub.Get<float>(1), MrgSortSrcList<float>(s, s[8], s, s), counts, sorted,
                         0b11, 1);
    out = ub.Take<float>(1);
  });
  EXPECT_EQ(out[0], 9.0f);
  EXPECT_EQ(out[4], 7.0f);
  EXPECT_EQ(sorted[0], 2u);
  EXPECT_EQ(sorted[1], 4u);
}

constexpr SortConfig kDesc = {SortType::RADIX_SORT, true};

// The 950 Sort: stable, ascending or descending, with and without indexes.
TEST(SortApi, Sort950IsStableBothWays) {
  const std::vector<float> in = Tied<float>(11, 200);
  std::vector<float> up, down;
  std::vector<uint32_t> up_idx;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(0, in);
        LocalTensor<float> dst = ub.Get<float>(1), dst2 = ub.Get<float>(3);
        LocalTensor<uint32_t> di = ub.Get<uint32_t>(2);
        Sort<float, false>(dst, di, ub.Get<float>(0), 200u);
        Sort<float, false, kDesc>(dst2, ub.Get<float>(0), 200u);
        up = ub.Take<float>(1);
        up_idx = ub.Take<uint32_t>(2);
        down = ub.Take<float>(3);
      },
      k950);
  const auto asc = StableOrder(in, false), desc = StableOrder(in, true);
  for (uint32_t i = 0; i < 200; ++i) {
    ASSERT_EQ(up[i], in[asc[i]]);
    ASSERT_EQ(up_idx[i], asc[i]);
    ASSERT_EQ(down[i], in[desc[i]]);
  }
}

constexpr SortConfig kMergeDesc = {SortType::MERGE_SORT, true};
constexpr SortConfig kMergeAsc = {SortType::MERGE_SORT, false};

// The 950 Sort with source indexes: int32 keys by radix (signed order), half by merge sort.
TEST(SortApi, Sort950CarriesSourceIndexes) {
  std::vector<int32_t> keys(96);
  std::vector<uint32_t> ids(96);
  std::mt19937 gen(4);
  for (uint32_t i = 0; i < 96; ++i) {
    keys[i] = static_cast<int32_t>(gen() % 21) - 10;
    ids[i] = 7000 + i;
  }
  const std::vector<half> hv = Tied<half>(12, 64);
  std::vector<int32_t> out;
  std::vector<uint32_t> out_ids, hid;
  std::vector<half> hout;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<int32_t>(0, keys);
        ub.Put<uint32_t>(1, ids);
        Sort<int32_t, uint32_t>(ub.Get<int32_t>(2), ub.Get<uint32_t>(3), ub.Get<int32_t>(0),
                                ub.Get<uint32_t>(1), ub.Get<uint8_t>(3)[8192], 96u);
        out = ub.Take<int32_t>(2);
        out_ids = ub.Take<uint32_t>(3);
        ub.Put<half>(0, hv);
        LocalTensor<half> hd = ub.Get<half>(2);
        LocalTensor<uint32_t> hi = ub.Get<uint32_t>(1);
        Sort<half, false, kMergeDesc>(hd, hi, ub.Get<half>(0), ub.Get<uint8_t>(3), 64u);
        hout = ub.Take<half>(2);
        hid = ub.Take<uint32_t>(1);
      },
      k950);
  std::vector<uint32_t> o(96);
  std::iota(o.begin(), o.end(), 0u);
  std::stable_sort(o.begin(), o.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  for (uint32_t i = 0; i < 96; ++i) {
    ASSERT_EQ(out[i], keys[o[i]]);
    ASSERT_EQ(out_ids[i], ids[o[i]]);
  }
  const auto desc = StableOrder(hv, true);
  for (uint32_t i = 0; i < 64; ++i) {
    ASSERT_EQ(Bits(hout[i]), Bits(hv[desc[i]]));
    ASSERT_EQ(hid[i], desc[i]);
  }
}

// The 950 MERGE_SORT under every sanitizer tool: src written by a Duplicate, the sequence's
// own steps (flip, Sort32, the merge rounds, Extract, flip back) ordered as the kit orders them;
// the half form without indexes reads calCount * 4 bytes of src (its Sort32 indexes), which
// initcheck reports when src's bytes past calCount were never written.
std::string MergeSortFindings(bool half_values_only, bool stack_tmp) {
  using namespace lngrad::aicore;
  LaunchOptions o;
  o.sanitize = san::kAllTools;
  o.soc = k950;
  std::vector<BlockFailure> failures;
  (void)detail::RunBlocks(
      "kernel", 1,
      [&] {
        TPipe pipe;
        TBuf<> a, d, t, i;
        pipe.InitBuffer(a, 1024);
        pipe.InitBuffer(d, 2048);
        pipe.InitBuffer(t, 2048);
        pipe.InitBuffer(i, 1024);
        LocalTensor<float> dst = d.Get<float>();
        LocalTensor<half> hdst = d.Get<half>();
        LocalTensor<uint32_t> di = i.Get<uint32_t>();
        if (half_values_only) {
          Duplicate(a.Get<half>(), half(2.0f), 128);
          PipeBarrier<PIPE_V>();
          Sort<half, false, kMergeDesc>(hdst, a.Get<half>(), t.Get<uint8_t>(), 128u);
        } else if (stack_tmp) {
          Duplicate(a.Get<float>(), 2.0f, 128);
          PipeBarrier<PIPE_V>();
          Sort<float, false, kMergeAsc>(dst, di, a.Get<float>(), 128u);
        } else {
          Duplicate(a.Get<float>(), 2.0f, 128);
          PipeBarrier<PIPE_V>();
          Sort<float, false, kMergeAsc>(dst, di, a.Get<float>(), t.Get<uint8_t>(), 128u);
        }
      },
      o, &failures);
  std::string f;
  for (const BlockFailure& b : failures) f += "[" + b.check + "] " + b.message + "\n";
  return f;
}

TEST(SortApi, Sort950MergeUnderTheSanitizer) {
  EXPECT_EQ(MergeSortFindings(false, false), "");
  EXPECT_EQ(MergeSortFindings(false, true), "");
  const std::string f = MergeSortFindings(true, false);
  EXPECT_NE(f.find("initcheck"), std::string::npos) << f;
  EXPECT_NE(f.find("Sort32"), std::string::npos) << f;
}

// Checked mode: the MERGE_SORT rules of the kit (calCount a multiple of 32, dst holding the
// 8-byte structures) and the scratch of GetSortMaxMinTmpSize.
TEST(SortApi, Sort950MergeCheckedRules) {
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<float> dst = ub.Get<float>(1);
        Sort<float, false, kMergeDesc>(dst, ub.Get<float>(0), ub.Get<uint8_t>(2), 48u);
      },
      "sort_params", "multiple of 32", k950);
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<float> dst = ub.Get<float>(1);
        dst.SetSize(64);
        Sort<float, false, kMergeDesc>(dst, ub.Get<float>(0), ub.Get<uint8_t>(2), 64u);
      },
      "tensor_bounds", "calCount * 8 = 512", k950);
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<float> dst = ub.Get<float>(1);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(256);
        Sort<float, false, kMergeDesc>(dst, ub.Get<float>(0), tmp, 64u);
      },
      "tmp_buffer", "512", k950);
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<half> dst = ub.Get<half>(1);
        const LocalTensor<half> src = ub.Get<half>(0)[lngrad::aicore::test::kUbBufBytes / 2 - 64];
        Sort<half, false, kMergeDesc>(dst, src, ub.Get<uint8_t>(2), 64u);
      },
      "tensor_bounds", "calCount * 4 = 256", k950);
}

TEST(SortApi, Sort950RefusedOn910B) {
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<float> dst = ub.Get<float>(1);
        Sort<float>(dst, ub.Get<float>(0), 64u);
      },
      "product", "950");
}

// ---- TopK ----

struct TopKCase {
  int32_t outter, inner, n, k;
  bool largest;
};

template <typename T, bool init, bool finish, TopKMode mode>
void CheckTopK(TopKCase c, const char* soc) {
  const bool nsmall = mode == TopKMode::TOPK_NSMALL;
  const std::vector<T> in = Tied<T>(static_cast<uint32_t>(c.inner + c.k), c.outter * c.inner);
  std::vector<int32_t> idx(nsmall ? c.outter * c.inner : c.inner);
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int32_t>(500 + i);
  std::vector<uint8_t> fin(32, 0);
  // Finish flags are bytes, any nonzero one true (2, 0x80 and 0xff among them).
  const uint8_t kFlags[] = {0, 1, 0, 2, 0, 0x80, 0, 0xff};
  for (int32_t j = 0; j < c.outter; ++j) fin[j] = kFlags[j % 8];
  const uint32_t ts = sizeof(T);
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  ASSERT_TRUE(TopKTilingFunc(*platform, c.inner, c.outter, c.k, ts, init, mode, c.largest, tiling));
  uint32_t mx = 0, mn = 0;
  GetTopKMaxMinTmpSize(*platform, c.inner, c.outter, false, init, mode, c.largest, ts, mx, mn);
  std::vector<T> values;
  std::vector<int32_t> indexes;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        ub.Put<int32_t>(1, idx);
        ub.Put<uint8_t>(3, fin);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(mn);
        TopKInfo info{c.outter, c.inner, c.n};
        LocalTensor<bool> f = ub.Get<bool>(3);
        LocalTensor<T> dv = ub.Get<T>(2)[10240 / sizeof(T)];
        LocalTensor<int32_t> di = ub.Get<int32_t>(3)[(10240 + 32) / 4];
        TopK<T, init, finish, false, mode>(dv, di, ub.Get<T>(0), ub.Get<int32_t>(1), f, tmp, c.k,
                                           tiling, info, c.largest);
        const std::vector<T> all = ub.Take<T>(2);
        const std::vector<int32_t> alli = ub.Take<int32_t>(3);
        values.assign(all.begin() + 10240 / sizeof(T), all.end());
        indexes.assign(alli.begin() + (10240 + 32) / 4, alli.end());
      },
      soc);
  const int32_t vstride = nsmall ? c.k : (ts == 4 ? tiling.kAlignFourBytes : tiling.kAlignTwoBytes);
  const int32_t istride = nsmall ? c.k : tiling.kAlignFourBytes;
  for (int32_t j = 0; j < c.outter; ++j) {
    const std::vector<T> row(in.begin() + j * c.inner, in.begin() + (j + 1) * c.inner);
    const auto order = StableOrder(row, c.largest);
    for (int32_t i = 0; i < c.k; ++i) {
      ASSERT_EQ(D(values[j * vstride + i]), D(row[order[i]])) << "row " << j << " rank " << i;
      int32_t want =
          init ? idx[(nsmall ? j * c.inner : 0) + order[i]] : static_cast<int32_t>(order[i]);
      if (finish && !nsmall && fin[j]) want = c.n;
      ASSERT_EQ(indexes[j * istride + i], want) << "row " << j << " rank " << i;
    }
  }
}

TEST(TopKApi, NormalModeOnBothProducts) {
  for (const char* soc : {k910B, k950}) {
    CheckTopK<float, false, true, TopKMode::TOPK_NORMAL>({2, 32, 32, 1, false}, soc);
    CheckTopK<float, true, false, TopKMode::TOPK_NORMAL>({3, 96, 90, 13, true}, soc);
    CheckTopK<half, false, false, TopKMode::TOPK_NORMAL>({2, 160, 160, 20, true}, soc);
    CheckTopK<half, true, true, TopKMode::TOPK_NORMAL>({4, 64, 50, 7, false}, soc);
  }
}

TEST(TopKApi, SmallModePacksRows) {
  CheckTopK<float, false, false, TopKMode::TOPK_NSMALL>({5, 32, 32, 3, true}, k910B);
  CheckTopK<float, true, false, TopKMode::TOPK_NSMALL>({4, 32, 32, 8, false}, k910B);
  CheckTopK<half, false, false, TopKMode::TOPK_NSMALL>({3, 32, 32, 17, false}, k910B);
}

TEST(TopKApi, CheckedModeRefusals) {
  TopkTiling tiling;
  tiling.tmpLocalSize = 160;
  ExpectCheck(
      [&](Ub& ub) {
        TopKInfo info{1, 32, 32};
        TopK<float>(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2), ub.Get<int32_t>(1),
                    ub.Get<bool>(3), ub.Get<uint8_t>(3), 33, tiling, info);
      },
      "topk_params", "k must be");
  ExpectCheck(
      [&](Ub& ub) {
        TopKInfo info{1, 40, 40};
        TopK<float>(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2), ub.Get<int32_t>(1),
                    ub.Get<bool>(3), ub.Get<uint8_t>(3), 3, tiling, info);
      },
      "topk_params", "multiple of 32");
  ExpectCheck(
      [&](Ub& ub) {
        TopKInfo info{1, 32, 32};
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(600);
        TopK<float>(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2), ub.Get<int32_t>(1),
                    ub.Get<bool>(3), tmp, 3, tiling, info);
      },
      "tmp_buffer", "640");
}

// Arch 2002 carries the indexes through half when T is half and isInitIndex false:
// topk_v200_impl.h asserts inner <= 2048 there (2201, and 2002 with isInitIndex, take 2080).
TEST(TopKApi, HalfWithoutIndexesAtMost2048On2002) {
  TopkTiling tiling;
  tiling.tmpLocalSize = 160;
  const auto call = [&](bool init) {
    return [&tiling, init](Ub& ub) {
      const TopKInfo info{1, 2080, 2080};
      if (init) {
        TopK<half, true>(ub.Get<half>(0), ub.Get<int32_t>(1), ub.Get<half>(2), ub.Get<int32_t>(1),
                         ub.Get<bool>(3), ub.Get<uint8_t>(3), 3, tiling, info);
      } else {
        TopK<half>(ub.Get<half>(0), ub.Get<int32_t>(1), ub.Get<half>(2), ub.Get<int32_t>(1),
                   ub.Get<bool>(3), ub.Get<uint8_t>(3), 3, tiling, info);
      }
    };
  };
  ExpectCheck(call(false), "topk_params", "at most 2048 on arch 2002", "Ascend310P1");
  // With isInitIndex the 2002 call passes that check and runs its sequence (topk_v200.h), whose
  // tiling asks inner * 18 halves, more than this buffer: the scratch's check is the next.
  tiling.tmpLocalSize = 2080 * 18;
  ExpectCheck(call(true), "tmp_buffer", "74880", "Ascend310P1");
  // 2201 runs the kit's sequence (topk_2201.h), which reads the tiling: a real one, and a
  // scratch of its 10 * 2080 halves (more than a Ub buffer holds).
  TopkTiling t2201;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k910B);
  ASSERT_TRUE(TopKTilingFunc(*platform, 2080, 1, 3, 2, false, TopKMode::TOPK_NORMAL, true, t2201));
  namespace la = lngrad::aicore;
  const bool was = la::CheckedMode();
  la::SetCheckedMode(true);
  std::string check;
  la::LaunchOptions o;
  o.soc = k910B;
  const lngrad::Status st = la::Launch(
      1,
      [&] {
        TPipe pipe;
        TBuf<> src, out, idx, srcIdx, tmp;
        pipe.InitBuffer(src, 2080 * 2);
        pipe.InitBuffer(out, 64);
        pipe.InitBuffer(idx, 64);
        pipe.InitBuffer(srcIdx, 2080 * 4);  // the kit's check wants inner even without isInitIndex
        pipe.InitBuffer(tmp, static_cast<uint32_t>(t2201.tmpLocalSize) * 2);
        Duplicate(src.Get<half>(), half(1.0f), 2080);
        const TopKInfo info{1, 2080, 2080};
        try {
          TopK<half>(out.Get<half>(), idx.Get<int32_t>(), src.Get<half>(), srcIdx.Get<int32_t>(),
                     out.Get<bool>(), tmp.Get<uint8_t>(), 3, t2201, info);
        } catch (const la::KernelCheckError& e) {
          la::DismissKernelCheck(e);
          check = e.check() + ": " + e.message();
        }
      },
      o);
  la::SetCheckedMode(was);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(check, "");
}

// ---- Host tiling ----

TEST(TopKTiling, SampleCaseFieldByField) {
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  optiling::TopkTiling t;
  ASSERT_TRUE(TopKTilingFunc(*p, 32, 2, 1, 4, false, TopKMode::TOPK_NORMAL, false, t));
  EXPECT_EQ(t.get_allDataSize(), 64);
  EXPECT_EQ(t.get_kAlignFourBytes(), 8);
  EXPECT_EQ(t.get_kAlignTwoBytes(), 16);
  EXPECT_EQ(t.get_tmpLocalSize(), 160);
  EXPECT_EQ(t.get_srcIndexOffset(), 128);
  EXPECT_EQ(t.get_innerDataSize(), 64);
  EXPECT_EQ(t.get_copyUbToUbBlockCount(), 8u);
  EXPECT_EQ(t.get_sortRepeat(), 1u);
  EXPECT_EQ(t.get_mrgSortRepeat(), 8);
  EXPECT_EQ(t.get_maskOffset(), 16);
  EXPECT_EQ(t.get_maskVreducev2FourBytes(), 2);
  EXPECT_EQ(t.get_maskVreducev2TwoBytes(), 4);
  EXPECT_EQ(t.get_mrgSortSrc1offset(), 2);
  EXPECT_EQ(t.get_mrgSortSrc2offset(), 4);
  EXPECT_EQ(t.get_mrgSortSrc3offset(), 6);
  EXPECT_EQ(t.get_mrgSortTwoQueueSrc1Offset(), 2);
  EXPECT_EQ(t.get_mrgFourQueueTailPara1(), 64);
  EXPECT_EQ(t.get_mrgFourQueueTailPara2(), 1);
  uint32_t mx = 0, mn = 0;
  GetTopKMaxMinTmpSize(*p, 32, 2, false, false, TopKMode::TOPK_NORMAL, false, 4, mx, mn);
  EXPECT_EQ(mn, 640u);
  EXPECT_EQ(mx, 640u);
}

TEST(TopKTiling, HalfAndSmallModeFields) {
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  AscendC::tiling::TopkTiling h;
  ASSERT_TRUE(TopKTilingFunc(*p, 64, 3, 20, 2, false, TopKMode::TOPK_NORMAL, true, h));
  EXPECT_EQ(h.tmpLocalSize, 8 * 64 + 2 * 64);
  EXPECT_EQ(h.srcIndexOffset, 8 * 64);
  EXPECT_EQ(h.innerDataSize, 4 * 64);
  EXPECT_EQ(h.maskOffset, 3 * 32);
  EXPECT_EQ(h.mrgSortSrc3offset, 12);
  EXPECT_EQ(h.mrgFourQueueTailPara2, 2);
  AscendC::tiling::TopkTiling s;
  ASSERT_TRUE(TopKTilingFunc(*p, 32, 4, 20, 4, false, TopKMode::TOPK_NSMALL, false, s));
  EXPECT_EQ(s.innerDataSize, 32 * 4 * 2);
  EXPECT_EQ(s.maskOffset, 80);
  EXPECT_EQ(s.topkMrgSrc1MaskSizeOffset, 256 + 128);
  EXPECT_EQ(s.topkNSmallSrcIndexOffset, 384 + 16);
  EXPECT_EQ(s.tmpLocalSize, 400 + 128);
  EXPECT_EQ(s.vreduceIdxMask0, 0xAAAAAAAAu);
  EXPECT_EQ(s.vreduceIdxMask1, 0xAAu);
  EXPECT_EQ(s.vreduceValMask0, 0x55555555u);
  EXPECT_EQ(s.vreduceValMask1, 0x55u);
  AscendC::tiling::TopkTiling hs;
  ASSERT_TRUE(TopKTilingFunc(*p, 32, 1, 6, 2, true, TopKMode::TOPK_NSMALL, true, hs));
  EXPECT_EQ(hs.vreducehalfValMask0, 4369);
  EXPECT_EQ(hs.vreducehalfValMask1, 0x11);
  EXPECT_EQ(hs.vreducehalfValMask2, 0);
  uint32_t mx = 0, mn = 0;
  GetTopKMaxMinTmpSize(*p, 32, 4, false, false, TopKMode::TOPK_NSMALL, false, 4, mx, mn);
  EXPECT_EQ(mn, 32u * 4 * 8 + 32 * 4 * 4 + 64 + 32 * 4 * 4);
  auto* p950 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend950PR_9589");
  GetTopKMaxMinTmpSize(*p950, 64, 2, false, false, TopKMode::TOPK_NORMAL, true, 4, mx, mn);
  EXPECT_EQ(mn, 16u * 64 + 4 * 64);
  AscendC::tiling::TopkTiling t950;
  ASSERT_TRUE(TopKTilingFunc(*p950, 64, 2, 5, 4, false, TopKMode::TOPK_NORMAL, true, t950));
  EXPECT_EQ(t950.tmpLocalSize, 64 * 20 / 4);
  EXPECT_EQ(t950.maskOffset, 16);
}

// The 950 radix-select scratch exists on the 950 only (this process runs Ascend910B1).
TEST(TopKTiling, RadixSelectScratchNeedsThe950) {
  uint32_t mx = 0, mn = 0;
  const TopKConfig config;
  EXPECT_FALSE(GetTopKMaxMinTmpSize(64, 2, 10, false, false, TopKMode::TOPK_NORMAL, true,
                                    ge::DT_FLOAT, config, mx, mn));
}

TEST(SortTiling, TmpSizes) {
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  EXPECT_EQ(GetConcatTmpSize(*p, 128, 4), 0u);
  EXPECT_EQ(GetSortTmpSize(*p, 128, 4), 1024u);
  EXPECT_EQ(GetSortTmpSize(*p, 128, 2), 1024u);
  auto* p310 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P1");
  EXPECT_EQ(GetConcatTmpSize(*p310, 128, 2), 2048u);
  uint32_t mx = 7, mn = 7;
  SortConfig c;
  GetSortMaxMinTmpSize(ge::Shape({128}), ge::DT_FLOAT, ge::DT_UINT32, false, c, mx, mn);
  EXPECT_EQ(mn, 0u);  // arch 2201: the 950 Sort's scratch is refused, 0 and 0 written
  EXPECT_EQ(mx, 0u);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

}  // namespace

// ---- The host functions that read the product in force (run with LNGRAD_SOC set to the 950:
// the CTest adv.sort_api_950_env; skipped elsewhere) ----

bool On950() { return lngrad::CurrentProduct().arch == lngrad::NpuArch::k3510; }

TEST(On950Env, SortScratchByMode) {
  if (!On950()) GTEST_SKIP() << "needs LNGRAD_SOC=Ascend950PR_9589";
  uint32_t mx = 0, mn = 0;
  SortConfig c;  // RADIX_SORT, values only: 7n + 512 + 4n
  GetSortMaxMinTmpSize(ge::Shape({128}), ge::DT_FLOAT, ge::DT_UINT32, false, c, mx, mn);
  EXPECT_EQ(mn, 1920u);
  c.hasDstIndex = true;  // dst index only: + n * (4 + 4)
  GetSortMaxMinTmpSize(ge::Shape({128}), ge::DT_FLOAT, ge::DT_UINT32, false, c, mx, mn);
  EXPECT_EQ(mn, 2432u);
  GetSortMaxMinTmpSize(ge::Shape({100}), ge::DT_UINT8, ge::DT_UINT32, false, c, mx, mn);
  EXPECT_EQ(mn, 128u * 7 + 512 - 256);
  c.hasSrcIndex = true;  // both, reused: no extra
  GetSortMaxMinTmpSize(ge::Shape({128}), ge::DT_INT32, ge::DT_INT32, true, c, mx, mn);
  EXPECT_EQ(mn, 1408u);
  c.type = SortType::MERGE_SORT;
  GetSortMaxMinTmpSize(ge::Shape({2, 64}), ge::DT_FLOAT, ge::DT_UINT32, false, c, mx, mn);
  EXPECT_EQ(mn, 1024u);
  EXPECT_EQ(mx, 1024u);
  // TopK radix select: 4 * 64 + 512, + 256 (twiddle), + 256 (indexes), + the Sort of k = 10
  // (n = 32, both indexes: 7 * 32 + 512 + 32 * 8).
  const TopKConfig tc;
  ASSERT_TRUE(GetTopKMaxMinTmpSize(64, 2, 10, false, false, TopKMode::TOPK_NORMAL, true,
                                   ge::DT_FLOAT, tc, mx, mn));
  EXPECT_EQ(mn, 768u + 256 + 256 + 992);
}

TEST(On950Env, ReduceScratchWithoutPadding) {
  if (!On950()) GTEST_SKIP() << "needs LNGRAD_SOC=Ascend950PR_9589";
  uint32_t mx = 0, mn = 0;
  GetReduceMaxMaxMinTmpSize(ge::Shape({32, 136}), ge::DT_FLOAT, ReducePattern::RA, false, false, mx,
                            mn);
  EXPECT_EQ(mn, 16u * 544);
  // The toolkit's type size for int16 is 1: k(6) = 4 rows of align32(40) bytes.
  GetReduceMinMaxMinTmpSize(ge::Shape({6, 40}), ge::DT_INT16, ReducePattern::RA, true, false, mx,
                            mn);
  EXPECT_EQ(mn, 256u);
  mn = 3;
  GetReduceSumMaxMinTmpSize(ge::Shape({6, 40}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx,
                            mn);
  EXPECT_EQ(mn, 3u);
}
