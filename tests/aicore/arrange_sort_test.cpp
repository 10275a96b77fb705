// Transpose, Interleave/DeInterleave (transpose_ops.h) and the sorting instructions (sort_ops.h)
// against scalar models of the vendor's documented layouts written here: the 16 x 16 transpose,
// the NCHW <-> NHWC permutations, the interleave order, the (score, index) pairs of Sort32 and
// MrgSort, region proposals; the stable descending order; and the checked-mode rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "checked_mode_scope.h"
#include "repeat_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::aicore::test;

void ExpectCheck(const std::function<void(Ub&)>& body, const std::string& name,
                 const std::string& text) {
  const auto [c, m] = CheckOf(body);
  EXPECT_EQ(c, name) << m;
  EXPECT_NE(m.find(text), std::string::npos) << m;
}

TEST(Arrange, Transpose16x16InPlaceAndOutOfPlace) {
  std::vector<uint16_t> v(256);
  for (uint16_t i = 0; i < 256; ++i) v[i] = i;
  std::vector<uint16_t> want(kUbBufBytes / 2);
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t c = 0; c < 16; ++c) want[c * 16 + r] = v[r * 16 + c];
  }
  OnBlock([&](Ub& ub) {
    ub.Put<uint16_t>(0, v);
    ub.Put<uint16_t>(1, v);
    Transpose(ub.Get<uint16_t>(2), ub.Get<uint16_t>(0));
    Transpose(ub.Get<uint16_t>(1), ub.Get<uint16_t>(1));
    TransposeParamsExt p;
    p.hSize = p.wSize = 16;  // the default type is TRANSPOSE_ND2ND_B16
    Transpose(ub.Get<uint16_t>(3), ub.Get<uint16_t>(0), ub.Get<uint8_t>(0), p);
    ExpectSameBits(ub.Take<uint16_t>(2), want, "Transpose");
    ExpectSameBits(ub.Take<uint16_t>(1), want, "Transpose in place");
    ExpectSameBits(ub.Take<uint16_t>(3), want, "TransposeParamsExt ND2ND_B16");
  });
}

TEST(Arrange, TransposeNchwNhwc) {
  const uint16_t N = 2, C = 3, H = 4, W = 8;  // H * W * 2 B = 64 B
  const uint32_t total = N * C * H * W;
  const auto v = RandomValues<half>(1, total);
  std::vector<half> nhwc(kUbBufBytes / 2), back(kUbBufBytes / 2);
  for (uint32_t n = 0; n < N; ++n) {
    for (uint32_t c = 0; c < C; ++c) {
      for (uint32_t h = 0; h < H; ++h) {
        for (uint32_t w = 0; w < W; ++w) {
          nhwc[((n * H + h) * W + w) * C + c] = v[((n * C + c) * H + h) * W + w];
        }
      }
    }
  }
  for (uint32_t i = 0; i < total; ++i) back[i] = v[i];
  OnBlock([&](Ub& ub) {
    ub.Put<half>(0, v);
    TransposeParamsExt p(N, C, H, W, TransposeType::TRANSPOSE_NCHW2NHWC);
    Transpose(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(3), p);
    ExpectSameBits(ub.Take<half>(1), nhwc, "NCHW2NHWC");
    p.transposeType = TransposeType::TRANSPOSE_NHWC2NCHW;
    Transpose(ub.Get<half>(2), ub.Get<half>(1), ub.Get<uint8_t>(3), p);
    ExpectSameBits(ub.Take<half>(2), back, "NHWC2NCHW");
  });
}

TEST(Arrange, TransposeCheckedRules) {
  CheckedModeScope on(true);
  ExpectCheck(
      [](Ub& ub) {
        Transpose(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(3),
                  TransposeParamsExt(1, 2, 3, 3, TransposeType::TRANSPOSE_NCHW2NHWC));
      },
      "transpose_params", "hSize * wSize * sizeof(T) is 18 bytes");
  ExpectCheck(
      [](Ub& ub) {
        Transpose(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(3),
                  TransposeParamsExt(1, 4096, 4, 4, TransposeType::TRANSPOSE_NCHW2NHWC));
      },
      "transpose_params", "cSize is 4096, above 4095");
  ExpectCheck(
      [](Ub& ub) {
        Transpose(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(3),
                  TransposeParamsExt(1, 1, 16, 16, TransposeType::TRANSPOSE_NZ2ND_0213));
      },
      "transpose_params", "is not supported");
  // (C + 2) * 16 * 16 * 2 B = 3072 B for C = 4; give 3040.
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> small = ub.Get<uint8_t>(3);
        small.SetSize(3040);
        Transpose(ub.Get<half>(1), ub.Get<half>(0), small,
                  TransposeParamsExt(1, 4, 4, 4, TransposeType::TRANSPOSE_NCHW2NHWC));
      },
      "tmp_buffer", "needs 3072 B");
  ExpectCheck(
      [](Ub& ub) {
        Transpose(ub.Get<half>(0), ub.Get<half>(0), ub.Get<uint8_t>(3),
                  TransposeParamsExt(1, 2, 4, 4, TransposeType::TRANSPOSE_NHWC2NCHW));
      },
      "address_overlap", "Transpose");
}

// TransDataTo5HD, 16-bit: NCHW [C = 16, H * W = 64] to [C1 = 1, HW, C0 = 16] in 4 repeats
// (srcList one HW plane apart, srcRepStride 1; dstList one block apart, dstRepStride 16), as the
// vendor's NCHW -> NC1HWC0 recipe; the model: out[hw][c] = in[c][hw].
TEST(Arrange, TransDataTo5HDNchwToNc1hwc0) {
  const auto in = RandomValues<half>(91, 1024);
  std::vector<half> want(kUbBufBytes / 2, half(0.0f));
  for (uint32_t c = 0; c < 16; ++c) {
    for (uint32_t hw = 0; hw < 64; ++hw) want[hw * 16 + c] = in[c * 64 + hw];
  }
  for (int form = 0; form < 3; ++form) {
    std::vector<half> got;
    OnBlock([&](Ub& ub) {
      ub.Put<half>(0, in);
      ub.Put<half>(1, {}, half(0.0f));
      LocalTensor<half> src = ub.Get<half>(0), dst = ub.Get<half>(1);
      TransDataTo5HDParams p(false, false, 4, 16, 1);
      if (form == 0) {
        uint64_t d[16], s[16];
        for (int k = 0; k < 16; ++k) {
          d[k] = dst[16 * k].GetPhyAddr();
          s[k] = src[64 * k].GetPhyAddr();
        }
        TransDataTo5HD<half>(d, s, p);
      } else if (form == 1) {
        LocalTensor<uint64_t> lists = ub.Get<uint64_t>(2);
        for (int k = 0; k < 16; ++k) {
          lists.SetValue(k, dst[16 * k].GetPhyAddr());
          lists.SetValue(16 + k, src[64 * k].GetPhyAddr());
        }
        TransDataTo5HD<half>(lists, lists[16], p);
      } else {
        LocalTensor<half> d[16], s[16];
        for (int k = 0; k < 16; ++k) {
          d[k] = dst[16 * k];
          s[k] = src[64 * k];
        }
        TransDataTo5HD<half>(d, s, p);
      }
      got = ub.Take<half>(1);
    });
    ExpectSameBits(got, want, "TransDataTo5HD form " + std::to_string(form));
  }
}

TEST(Arrange, TransDataTo5HDCheckedRules) {
  const CheckedModeScope checked(true);
  const auto run = [](uint32_t src_shift, uint32_t dst_base) {
    return CheckOf([&](Ub& ub) {
      uint64_t d[16], s[16];
      const uint64_t base = ub.Get<int16_t>(0).GetPhyAddr();
      for (int k = 0; k < 16; ++k) {
        s[k] = base + 32 * k + src_shift;
        d[k] = base + dst_base + 32 * k;
      }
      TransDataTo5HD<int16_t>(d, s, TransDataTo5HDParams(false, false, 1, 0, 0));
    });
  };
  EXPECT_EQ(run(0, 4096).first, "");
  auto [c, m] = run(2, 4096);
  EXPECT_EQ(c, "ub_alignment") << m;
  EXPECT_NE(m.find("srcList[0]"), std::string::npos) << m;
  std::tie(c, m) = run(0, 64);
  EXPECT_EQ(c, "address_overlap") << m;
  EXPECT_NE(m.find("dstList[0] overlaps srcList[2]"), std::string::npos) << m;
}

TEST(Arrange, InterleaveAndDeInterleave) {
  const uint32_t n = 512;
  std::vector<int32_t> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(i + 1);
    b[i] = static_cast<int32_t>(i + 513);
  }
  std::vector<int32_t> z(2 * n);
  for (uint32_t i = 0; i < n; ++i) {
    z[2 * i] = a[i];
    z[2 * i + 1] = b[i];
  }
  std::vector<int32_t> d0(kUbBufBytes / 4), d1(kUbBufBytes / 4), e0(kUbBufBytes / 4),
      e1(kUbBufBytes / 4);
  for (uint32_t i = 0; i < n; ++i) {
    d0[i] = z[i];
    d1[i] = z[n + i];
    e0[i] = i < n / 2 ? a[2 * i] : b[2 * (i - n / 2)];  // evens of a ++ b
    e1[i] = i < n / 2 ? a[2 * i + 1] : b[2 * (i - n / 2) + 1];
  }
  EXPECT_EQ(d0[2], 2);  // the docs' example: [1 513 2 ...], [257 769 ...]
  EXPECT_EQ(d1[0], 257);
  OnBlock([&](Ub& ub) {
    ub.Put<int32_t>(0, a);
    ub.Put<int32_t>(1, b);
    Interleave(ub.Get<int32_t>(2), ub.Get<int32_t>(3), ub.Get<int32_t>(0), ub.Get<int32_t>(1), n);
    ExpectSameBits(ub.Take<int32_t>(2), d0, "Interleave dst0");
    ExpectSameBits(ub.Take<int32_t>(3), d1, "Interleave dst1");
    DeInterleave(ub.Get<int32_t>(2), ub.Get<int32_t>(3), ub.Get<int32_t>(0), ub.Get<int32_t>(1), n);
    ExpectSameBits(ub.Take<int32_t>(2), e0, "DeInterleave dst0");
    ExpectSameBits(ub.Take<int32_t>(3), e1, "DeInterleave dst1");
    DeInterleave(ub.Get<int32_t>(2), ub.Get<int32_t>(3), ub.Get<int32_t>(0), n);
    std::vector<int32_t> f0(kUbBufBytes / 4), f1(kUbBufBytes / 4);
    for (uint32_t i = 0; i < n / 2; ++i) {
      f0[i] = a[2 * i];
      f1[i] = a[2 * i + 1];
    }
    for (uint32_t i = n / 2; i < n; ++i) f0[i] = e0[i], f1[i] = e1[i];  // untouched
    ExpectSameBits(ub.Take<int32_t>(2), f0, "DeInterleave one source, dst0");
    ExpectSameBits(ub.Take<int32_t>(3), f1, "DeInterleave one source, dst1");
  });
  CheckedModeScope on(true);
  ExpectCheck(
      [](Ub& ub) {
        Interleave(ub.Get<half>(2), ub.Get<half>(3), ub.Get<half>(0), ub.Get<half>(1), 15);
      },
      "count_parity", "Interleave: count is 15, which must be even");
  ExpectCheck(
      [](Ub& ub) {
        DeInterleave(ub.Get<half>(0), ub.Get<half>(3), ub.Get<half>(0), ub.Get<half>(1), 16);
      },
      "address_overlap", "DeInterleave");
}

// ---------------------------------------------------------------------------------------------
// Sorting. The model: (score, index) pairs, stable descending order.

struct Pair {
  float score;
  uint32_t index;
};
std::vector<Pair> SortedDesc(std::vector<Pair> v) {
  std::stable_sort(v.begin(), v.end(),
                   [](const Pair& a, const Pair& b) { return a.score > b.score; });
  return v;
}

TEST(Sort, Sort32FloatAndHalfLayouts) {
  const uint32_t rt = 3;
  const auto s = TieValues<float>(5, 32 * rt);  // many ties: the order must be stable
  std::vector<uint32_t> idx(32 * rt);
  for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = 1000 + i;
  std::vector<float> want(kUbBufBytes / 4);
  std::vector<uint16_t> want_h(kUbBufBytes / 2);
  for (uint32_t r = 0; r < rt; ++r) {
    std::vector<Pair> v;
    for (uint32_t i = 0; i < 32; ++i) v.push_back({s[r * 32 + i], idx[r * 32 + i]});
    v = SortedDesc(v);
    for (uint32_t i = 0; i < 32; ++i) {
      want[r * 64 + 2 * i] = v[i].score;
      std::memcpy(&want[r * 64 + 2 * i + 1], &v[i].index, 4);
      const half h = static_cast<half>(v[i].score);
      std::memcpy(&want_h[r * 128 + 4 * i], &h, 2);
      want_h[r * 128 + 4 * i + 1] = 0;
      want_h[r * 128 + 4 * i + 2] = static_cast<uint16_t>(v[i].index & 0xFFFF);
      want_h[r * 128 + 4 * i + 3] = static_cast<uint16_t>(v[i].index >> 16);
    }
  }
  std::vector<half> sh(s.size());
  for (size_t i = 0; i < s.size(); ++i) sh[i] = static_cast<half>(s[i]);
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, s);
    ub.Put<uint32_t>(1, idx);
    Sort32(ub.Get<float>(2), ub.Get<float>(0), ub.Get<uint32_t>(1), rt);
    ExpectSameBits(ub.Take<float>(2), want, "Sort32 float");
    ub.Put<half>(0, sh);
    ub.Put<uint16_t>(3, {}, uint16_t{0xFFFF});
    Sort32(ub.Get<half>(3), ub.Get<half>(0), ub.Get<uint32_t>(1), rt);
    std::vector<uint16_t> got = ub.Take<uint16_t>(3);
    for (size_t i = rt * 128; i < got.size(); ++i) want_h[i] = 0xFFFF;  // untouched
    ExpectSameBits(got, want_h, "Sort32 half");
  });
}

// Merges the queues in the model: the earliest queue wins a tie.
std::vector<Pair> ModelMerge(const std::vector<std::vector<Pair>>& q, bool suspend,
                             std::vector<uint32_t>* taken) {
  std::vector<Pair> out;
  std::vector<uint32_t> pos(q.size(), 0);
  while (true) {
    int best = -1;
    for (size_t k = 0; k < q.size(); ++k) {
      if (pos[k] < q[k].size() && (best < 0 || q[k][pos[k]].score > q[best][pos[best]].score)) {
        best = static_cast<int>(k);
      }
    }
    if (best < 0) break;
    out.push_back(q[best][pos[best]++]);
    if (suspend && pos[best] == q[best].size()) break;
  }
  if (taken) *taken = pos;
  return out;
}

TEST(Sort, MrgSortQueuesRepeatsAndSuspension) {
  // 8 sorted queues of 16 pairs, contiguous; 2 repeats of a 4-way merge; then a 3-way merge of
  // unequal queues with suspension.
  const uint32_t len = 16;
  std::vector<std::vector<Pair>> q(8);
  const auto s = TieValues<float>(9, 8 * len);
  std::vector<float> src(kUbBufBytes / 4);
  for (uint32_t k = 0; k < 8; ++k) {
    for (uint32_t i = 0; i < len; ++i) q[k].push_back({s[k * len + i], k * 100 + i});
    q[k] = SortedDesc(q[k]);
    for (uint32_t i = 0; i < len; ++i) {
      src[(k * len + i) * 2] = q[k][i].score;
      std::memcpy(&src[(k * len + i) * 2 + 1], &q[k][i].index, 4);
    }
  }
  std::vector<float> want(kUbBufBytes / 4);
  for (uint32_t r = 0; r < 2; ++r) {
    const auto m = ModelMerge({q[4 * r], q[4 * r + 1], q[4 * r + 2], q[4 * r + 3]}, false, nullptr);
    for (uint32_t i = 0; i < m.size(); ++i) {
      want[(r * 64 + i) * 2] = m[i].score;
      std::memcpy(&want[(r * 64 + i) * 2 + 1], &m[i].index, 4);
    }
  }
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, src);
    LocalTensor<float> s0 = ub.Get<float>(0);
    MrgSortSrcList<float> list(s0[0], s0[len * 2], s0[len * 4], s0[len * 6]);
    const uint16_t lens[4] = {len, len, len, len};
    MrgSort(ub.Get<float>(1), list, MrgSort4Info(lens, false, 15, 2));
    ExpectSameBits(ub.Take<float>(1), want, "MrgSort, 2 repeats");

    // Queues 0 (16), 1 (5), 2 (9) with suspension: stops when one runs out.
    std::vector<uint32_t> taken;
    std::vector<std::vector<Pair>> short_q = {
        q[0], {q[1].begin(), q[1].begin() + 5}, {q[2].begin(), q[2].begin() + 9}};
    const auto m = ModelMerge(short_q, true, &taken);
    std::vector<float> want2(kUbBufBytes / 4, -7.0f);
    for (uint32_t i = 0; i < m.size(); ++i) {
      want2[2 * i] = m[i].score;
      std::memcpy(&want2[2 * i + 1], &m[i].index, 4);
    }
    ub.Put<float>(2, {}, -7.0f);
    const uint16_t lens2[4] = {16, 5, 9, 0};
    MrgSort(ub.Get<float>(2), list, MrgSort4Info(lens2, true, 7, 1));
    ExpectSameBits(ub.Take<float>(2), want2, "MrgSort with suspension");
    uint16_t t1 = 0, t2 = 0, t3 = 0, t4 = 9;
    GetMrgSortResult(t1, t2, t3, t4);
    EXPECT_EQ(t1, taken[0]);
    EXPECT_EQ(t2, taken[1]);
    EXPECT_EQ(t3, taken[2]);
    EXPECT_EQ(t4, 0);
    EXPECT_EQ(uint32_t{t1} + t2 + t3, m.size());
  });
}

// lngrad's NaN rule (sort_ops.h): in Sort32 a NaN keeps its place and nothing passes it, the
// scores between NaNs sorted among themselves; a merge keeps the first queue's head and takes a
// later head only when it is greater than the one kept.
TEST(Sort, NaNScoresKeepTheirPlace) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> s(32);
  for (uint32_t i = 0; i < 32; ++i) s[i] = static_cast<float>((i * 7) % 11);
  s[5] = nan;
  s[20] = -nan;
  std::vector<uint32_t> idx(32);
  for (uint32_t i = 0; i < 32; ++i) idx[i] = i;
  std::vector<float> got, merged;
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, s);
    ub.Put<uint32_t>(1, idx);
    Sort32(ub.Get<float>(2), ub.Get<float>(0), ub.Get<uint32_t>(1), 1);
    got = ub.Take<float>(2);
    // Queues {5, NaN, 9}, {6, 1}, {NaN, 8}: 6 (> 5), then 5, then NaN (kept first), then 9 ...
    ub.Put<float>(0, {5, 0, nan, 0, 9, 0, 6, 1, 1, 1, nan, 2, 8, 2});
    LocalTensor<float> q = ub.Get<float>(0);
    const uint16_t len[4] = {3, 2, 2, 0};
    MrgSort(ub.Get<float>(3), MrgSortSrcList<float>(q, q[6], q[10], q),
            MrgSort4Info(len, false, 7, 1));
    merged = ub.Take<float>(3);
  });
  std::vector<uint32_t> want(32);
  for (uint32_t i = 0; i < 32; ++i) want[i] = i;
  const auto desc = [&](uint32_t a, uint32_t b) { return s[a] > s[b]; };
  std::stable_sort(want.begin(), want.begin() + 5, desc);
  std::stable_sort(want.begin() + 6, want.begin() + 20, desc);
  std::stable_sort(want.begin() + 21, want.end(), desc);
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t index;
    std::memcpy(&index, &got[2 * i + 1], 4);
    ASSERT_EQ(index, want[i]) << "position " << i;
  }
  const std::vector<float> order = {6, 5, nan, 9, 1, nan, 8};
  for (uint32_t i = 0; i < order.size(); ++i) {
    ASSERT_EQ(Bits(merged[2 * i]), Bits(order[i])) << "merge position " << i;
  }
}

TEST(Sort, MrgSortCheckedRules) {
  CheckedModeScope on(true);
  const uint16_t lens[4] = {16, 16, 16, 16};
  ExpectCheck(
      [&](Ub& ub) {
        LocalTensor<float> s0 = ub.Get<float>(0);
        MrgSort(ub.Get<float>(1), MrgSortSrcList<float>(s0, s0[32], s0[64], s0[96]),
                MrgSort4Info(lens, false, 5, 1));
      },
      "sort_params", "validBit is 5, which must be 3, 7 or 15");
  ExpectCheck(
      [&](Ub& ub) {
        LocalTensor<float> s0 = ub.Get<float>(0);
        MrgSort(ub.Get<float>(1), MrgSortSrcList<float>(s0, s0[32], s0[64], s0[200]),
                MrgSort4Info(lens, false, 15, 2));
      },
      "sort_params", "more than 1 needs 4 contiguous queues");
  ExpectCheck(
      [&](Ub& ub) {
        LocalTensor<float> s0 = ub.Get<float>(0);
        MrgSort(s0[64], MrgSortSrcList<float>(s0, s0[32], s0[64], s0[96]),
                MrgSort4Info(lens, false, 15, 1));
      },
      "address_overlap", "MrgSort");
  ExpectCheck([&](Ub& ub) { Sort32(ub.Get<float>(2), ub.Get<float>(0), ub.Get<uint32_t>(1), 256); },
              "repeat_times", "Sort32: repeatTime is 256");
  ExpectCheck(
      [&](Ub& ub) { Sort32(ub.Get<float>(2)[4], ub.Get<float>(0), ub.Get<uint32_t>(1), 1); },
      "ub_alignment", "dst is at UB address");
  ExpectCheck(
      [&](Ub& ub) { Sort32(ub.Get<float>(2), ub.Get<float>(0), ub.Get<uint32_t>(1)[2], 1); },
      "ub_alignment", "src1 is at UB address");
}

TEST(Sort, RegionProposals) {
  // ProposalConcat the scores into the score field of 32 proposals whose other fields hold
  // their number, RpSort16 each 16, MrgSort4 the 2 queues, ProposalExtract the scores and labels.
  const uint32_t n = 32;
  const auto s = TieValues<half>(13, n);
  std::vector<half> props(kUbBufBytes / 2);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t e = 0; e < 8; ++e) props[i * 8 + e] = static_cast<half>(static_cast<float>(i));
  }
  // The model: proposal i has score s[i], label i.
  std::vector<Pair> all;
  std::vector<std::vector<Pair>> q(2);
  for (uint32_t k = 0; k < 2; ++k) {
    for (uint32_t i = 0; i < 16; ++i)
      q[k].push_back({static_cast<float>(s[k * 16 + i]), k * 16 + i});
    q[k] = SortedDesc(q[k]);
  }
  const auto merged = ModelMerge(q, false, nullptr);
  std::vector<half> want_scores(kUbBufBytes / 2), want_labels(kUbBufBytes / 2);
  for (uint32_t i = 0; i < n; ++i) {
    want_scores[i] = static_cast<half>(merged[i].score);
    want_labels[i] = static_cast<half>(static_cast<float>(merged[i].index));
  }
  OnBlock(
      [&](Ub& ub) {
        ub.Put<half>(0, props);
        ub.Put<half>(1, s);
        LocalTensor<half> p = ub.Get<half>(0);
        ProposalConcat(p, ub.Get<half>(1), 2, 4);
        RpSort16(p, p, 2);
        const uint16_t lens[4] = {16, 16, 0, 0};
        MrgSort4(ub.Get<half>(2), MrgSortSrcList<half>(p, p[128], p[256], p[384]),
                 MrgSort4Info(lens, false, 3, 1));
        ProposalExtract(ub.Get<half>(3), ub.Get<half>(2), 2, 4);
        ExpectSameBits(ub.Take<half>(3), want_scores, "scores");
        ProposalExtract(ub.Get<half>(3), ub.Get<half>(2), 2, 5);
        ExpectSameBits(ub.Take<half>(3), want_labels, "labels");
      },
      "Ascend310P1");
  CheckedModeScope on(true);
  ExpectCheck([](Ub& ub) { ProposalConcat(ub.Get<half>(0), ub.Get<half>(1), 1, 6); }, "sort_params",
              "ProposalConcat: modeNumber is 6, which must be in [0, 5]");
}

}  // namespace
