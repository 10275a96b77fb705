// The reductions of the basic API (lngrad_aicore/reduce_ops.h) against scalar models written
// here from the vendor's documents: the lane addresses of a repeat (高维切分), masks, the
// adjacent-pair sum tree (ReduceDataBlock.md 关键特性说明) in the operand type, max/min with the
// lowest index on ties, the per-product handling of empty blocks and pairs, the ReduceOrder
// layouts and dstRepStride units (ReduceRepeat.md table 3), level 0 / level 2 ReduceSum/Max/Min
// with calIndex, Brcb, and each checked-mode rule. Whole output buffers are compared bit for
// bit, so a lane written that the device leaves alone fails too.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "checked_mode_scope.h"
#include "reduce_model.h"
#include "repeat_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::aicore::test;
using namespace lngrad::aicore::test::reduce_model;

constexpr uint32_t kCap = kUbBufBytes;

// Runs body(src, dst, tmp) on one block of `soc`: src holds `in`, dst and tmp start as `fill`;
// returns dst (and tmp in *tmp_out).
template <typename T>
std::vector<T> RunOn(
    const std::vector<T>& in, T fill,
    const std::function<void(LocalTensor<T>, LocalTensor<T>, LocalTensor<T>)>& body,
    const char* soc = "Ascend910B1", std::vector<T>* tmp_out = nullptr) {
  std::vector<T> out;
  lngrad::aicore::test::OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        ub.Put<T>(1, {}, fill);
        ub.Put<T>(2, {}, fill);
        body(ub.Get<T>(0), ub.Get<T>(1), ub.Get<T>(2));
        out = ub.Take<T>(1);
        if (tmp_out != nullptr) *tmp_out = ub.Take<T>(2);
      },
      soc);
  return out;
}

// ---- WholeReduceSum / Max / Min ----

template <typename T>
void CheckWholeReduce() {
  const auto [src, ties] = RandomAndTieBuffers<T>(11);
  const T fill = T(-77.0f);
  for (const Shape& s : kShapes) {
    for (const MaskModel& m : Masks<T>(s.repeat)) {
      // Sum.
      std::vector<T> want(kCap / sizeof(T), fill);
      for (int32_t r = 0; r < s.repeat; ++r) {
        std::vector<T> lanes(Lanes<T>());
        for (uint32_t i = 0; i < Lanes<T>(); ++i) {
          lanes[i] = m.On(i) ? src[At<T>(r, i, s.src_rep, s.src_blk)] : T(0.0f);
        }
        want[size_t{static_cast<uint32_t>(r)} * s.dst_rep] = TreeModel(lanes, 0, lanes.size());
      }
      const auto got = RunOn<T>(src, fill, [&](auto a, auto d, auto) {
        WithMask<T>(m, [&](auto mask) {
          WholeReduceSum(d, a, mask, s.repeat, s.dst_rep, s.src_blk, s.src_rep);
        });
      });
      ExpectSameBits(got, want, "WholeReduceSum repeat " + std::to_string(s.repeat));
      // Max and min in every order.
      for (bool is_max : {true, false}) {
        for (ReduceOrder order : {ReduceOrder::ORDER_VALUE_INDEX, ReduceOrder::ORDER_INDEX_VALUE,
                                  ReduceOrder::ORDER_ONLY_VALUE, ReduceOrder::ORDER_ONLY_INDEX}) {
          std::vector<T> w(kCap / sizeof(T), fill);
          auto* wb = reinterpret_cast<unsigned char*>(w.data());
          const uint32_t unit = order == ReduceOrder::ORDER_ONLY_VALUE   ? sizeof(T)
                                : order == ReduceOrder::ORDER_ONLY_INDEX ? 4
                                                                         : 2 * sizeof(T);
          for (int32_t r = 0; r < s.repeat; ++r) {
            std::vector<std::pair<T, uint32_t>> xs;
            for (uint32_t i = 0; i < Lanes<T>(); ++i) {
              if (m.On(i)) xs.push_back({ties[At<T>(r, i, s.src_rep, s.src_blk)], i});
            }
            const auto [v, idx] = ExtremeModel(is_max, xs);
            unsigned char* o = wb + size_t{static_cast<uint32_t>(r)} * s.dst_rep * unit;
            const T ib = IdxBits<T>(idx);
            switch (order) {
              case ReduceOrder::ORDER_VALUE_INDEX:
                std::memcpy(o, &v, sizeof(T));
                std::memcpy(o + sizeof(T), &ib, sizeof(T));
                break;
              case ReduceOrder::ORDER_INDEX_VALUE:
                std::memcpy(o, &ib, sizeof(T));
                std::memcpy(o + sizeof(T), &v, sizeof(T));
                break;
              case ReduceOrder::ORDER_ONLY_VALUE:
                std::memcpy(o, &v, sizeof(T));
                break;
              case ReduceOrder::ORDER_ONLY_INDEX:
                std::memcpy(o, &idx, 4);
                break;
            }
          }
          const auto g = RunOn<T>(ties, fill, [&](auto a, auto d, auto) {
            WithMask<T>(m, [&](auto mask) {
              if (is_max) {
                WholeReduceMax(d, a, mask, s.repeat, s.dst_rep, s.src_blk, s.src_rep, order);
              } else {
                WholeReduceMin(d, a, mask, s.repeat, s.dst_rep, s.src_blk, s.src_rep, order);
              }
            });
          });
          ExpectSameBits(g, w,
                         std::string(is_max ? "WholeReduceMax" : "WholeReduceMin") + " order " +
                             std::to_string(static_cast<int>(order)) + " repeat " +
                             std::to_string(s.repeat));
        }
      }
    }
  }
}

TEST(ReduceOps, WholeReduceFloat) { CheckWholeReduce<float>(); }
TEST(ReduceOps, WholeReduceHalf) { CheckWholeReduce<half>(); }

TEST(ReduceOps, WholeReduceNamesAreTheSameInstruction) {
  const auto src = RandomValues<float>(5, 1024);
  const auto a = RunOn<float>(src, 0.0f, [](auto s, auto d, auto) {
    WholeReduceMax(d, s, 64, 4, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
  });
  const auto b = RunOn<float>(src, 0.0f, [](auto s, auto d, auto) {
    ReduceRepeat<ReduceType::MAX, float>(d, s, 64, 4, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
  });
  ExpectSameBits(a, b, "ReduceRepeat<MAX> vs WholeReduceMax");
}

TEST(ReduceOps, HalfSumsRoundAtEveryLevel) {
  // 60000 + 60000 overflows half: the tree's first level gives inf (non-saturating mode).
  std::vector<half> src(128, half(0.0f));
  src[0] = half(60000.0f);
  src[1] = half(60000.0f);
  src[2] = half(-30000.0f);
  src[3] = half(100.0f);
  const auto got = RunOn<half>(src, half(0.0f),
                               [](auto s, auto d, auto) { WholeReduceSum(d, s, 4, 1, 1, 1, 8); });
  EXPECT_TRUE(std::isinf(static_cast<float>(got[0])));
  // 2049 + 1 + ... : in half 2048 + 1 rounds to 2048 at each pair, unlike a float sum.
  std::vector<half> v(128, half(0.0f));
  v[0] = half(2048.0f);
  v[1] = half(1.0f);
  const auto g2 = RunOn<half>(v, half(0.0f),
                              [](auto s, auto d, auto) { WholeReduceSum(d, s, 128, 1, 1, 1, 8); });
  EXPECT_EQ(static_cast<float>(g2[0]), 2048.0f);
}

TEST(ReduceOps, NanWinsMaxAndMinAndTiesTakeTheLowestIndex) {
  std::vector<float> src(64, 1.0f);
  src[9] = 5.0f;
  src[40] = 5.0f;
  auto g =
      RunOn<float>(src, 0.0f, [](auto s, auto d, auto) { WholeReduceMax(d, s, 64, 1, 1, 1, 8); });
  EXPECT_EQ(g[0], 5.0f);
  EXPECT_EQ(std::bit_cast<uint32_t>(g[1]), 9u);
  src[20] = std::nanf("");
  src[30] = -std::nanf("");
  g = RunOn<float>(src, 0.0f, [](auto s, auto d, auto) { WholeReduceMin(d, s, 64, 1, 1, 1, 8); });
  EXPECT_TRUE(std::isnan(g[0]));
  EXPECT_EQ(std::bit_cast<uint32_t>(g[1]), 20u);
}

// isSetMask = false reads the mask register (SetVectorMask); Counter mode fills repeat after
// repeat (mask.h), repeatTime ignored.
TEST(ReduceOps, MaskRegisterAndCounterMode) {
  const auto src = RandomValues<float>(7, 1024);
  const float fill = -77.0f;
  MaskModel m;
  m.bits = true;
  m.m[0] = 0xF0F0F0F00000FFFFull;
  std::vector<float> want(kCap / sizeof(float), fill);
  for (uint32_t r = 0; r < 2; ++r) {
    std::vector<float> lanes(64);
    for (uint32_t i = 0; i < 64; ++i) lanes[i] = m.On(i) ? src[At<float>(r, i, 8, 1)] : 0.0f;
    want[r] = TreeModel(lanes, 0, 64);
  }
  auto got = RunOn<float>(src, fill, [&](auto a, auto d, auto) {
    SetVectorMask<float>(0, m.m[0]);
    WholeReduceSum<float, false>(d, a, MASK_PLACEHOLDER, 2, 1, 1, 8);
    ResetMask();
  });
  ExpectSameBits(got, want, "WholeReduceSum with the mask register");
  // Counter mode, 150 elements: repeats of 64, 64 and 22 lanes; blocks 3..7 of the last
  // repeat have no lanes and keep dst (A2).
  std::vector<float> w2(kCap / sizeof(float), fill);
  std::vector<float> w3(kCap / sizeof(float), fill);
  for (uint32_t r = 0; r < 3; ++r) {
    std::vector<float> lanes(64, 0.0f);
    for (uint32_t i = 0; i < 64 && r * 64 + i < 150; ++i) lanes[i] = src[r * 64 + i];
    w2[r] = TreeModel(lanes, 0, 64);
    for (uint32_t b = 0; b < 8 && r * 64 + b * 8 < 150; ++b) {
      std::vector<float> blk(lanes.begin() + b * 8, lanes.begin() + b * 8 + 8);
      w3[r * 8 + b] = TreeModel(blk, 0, 8);
    }
  }
  got = RunOn<float>(src, fill, [&](auto a, auto d, auto) {
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 150);
    WholeReduceSum<float, false>(d, a, MASK_PLACEHOLDER, 1, 1, 1, 8);
    SetMaskNorm();
    ResetMask();
  });
  ExpectSameBits(got, w2, "WholeReduceSum in Counter mode");
  got = RunOn<float>(src, fill, [&](auto a, auto d, auto) {
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 150);
    BlockReduceSum<float, false>(d, a, 1, MASK_PLACEHOLDER, 1, 1, 8);
    SetMaskNorm();
    ResetMask();
  });
  ExpectSameBits(got, w3, "BlockReduceSum in Counter mode");
}

// ---- BlockReduceSum / Max / Min, PairReduceSum ----

template <typename T>
void CheckBlockAndPair(const char* soc, bool fills) {
  const auto src = RandomValues<T>(21, kCap / sizeof(T));
  const T fill = T(-77.0f);
  const uint32_t E = PerBlock<T>();
  for (const Shape& s : kShapes) {
    for (const MaskModel& m : Masks<T>(s.repeat + 100)) {
      for (int kind = 0; kind < 3; ++kind) {
        std::vector<T> want(kCap / sizeof(T), fill);
        for (int32_t r = 0; r < s.repeat; ++r) {
          for (uint32_t b = 0; b < 8; ++b) {
            std::vector<T> lanes(E);
            std::vector<std::pair<T, uint32_t>> xs;
            for (uint32_t j = 0; j < E; ++j) {
              const bool on = m.On(b * E + j);
              const T x = src[At<T>(r, b * E + j, s.src_rep, s.src_blk)];
              lanes[j] = on ? x : T(0.0f);
              if (on) xs.push_back({x, j});
            }
            T& o = want[size_t{static_cast<uint32_t>(r)} * s.dst_rep * 8 + b];
            if (xs.empty()) {
              if (fills) o = T(kind == 0 ? 0.0f : kind == 1 ? -INFINITY : INFINITY);
              continue;
            }
            o = kind == 0 ? TreeModel(lanes, 0, E) : ExtremeModel(kind == 1, xs).first;
          }
        }
        const auto got = RunOn<T>(
            src, fill,
            [&](auto a, auto d, auto) {
              WithMask<T>(m, [&](auto mask) {
                if (kind == 0)
                  BlockReduceSum(d, a, s.repeat, mask, s.dst_rep, s.src_blk, s.src_rep);
                if (kind == 1)
                  BlockReduceMax(d, a, s.repeat, mask, s.dst_rep, s.src_blk, s.src_rep);
                if (kind == 2)
                  BlockReduceMin(d, a, s.repeat, mask, s.dst_rep, s.src_blk, s.src_rep);
              });
            },
            soc);
        ExpectSameBits(got, want,
                       std::string(soc) + " BlockReduce kind " + std::to_string(kind) + " repeat " +
                           std::to_string(s.repeat));
      }
      // PairReduceSum.
      std::vector<T> want(kCap / sizeof(T), fill);
      for (int32_t r = 0; r < s.repeat; ++r) {
        for (uint32_t k = 0; k < Lanes<T>() / 2; ++k) {
          const bool on0 = m.On(2 * k);
          const bool on1 = m.On(2 * k + 1);
          T& o = want[size_t{static_cast<uint32_t>(r)} * s.dst_rep * (Lanes<T>() / 2) + k];
          if (!on0 && !on1) {
            if (fills) o = T(0.0f);
            continue;
          }
          const float a =
              on0 ? static_cast<float>(src[At<T>(r, 2 * k, s.src_rep, s.src_blk)]) : 0.0f;
          const float b =
              on1 ? static_cast<float>(src[At<T>(r, 2 * k + 1, s.src_rep, s.src_blk)]) : 0.0f;
          o = T(a + b);
        }
      }
      const auto got = RunOn<T>(
          src, fill,
          [&](auto a, auto d, auto) {
            WithMask<T>(m, [&](auto mask) {
              PairReduceSum(d, a, s.repeat, mask, s.dst_rep, s.src_blk, s.src_rep);
            });
          },
          soc);
      ExpectSameBits(got, want,
                     std::string(soc) + " PairReduceSum repeat " + std::to_string(s.repeat));
    }
  }
}

TEST(ReduceOps, BlockAndPairReduceFloatA2) { CheckBlockAndPair<float>("Ascend910B1", false); }
TEST(ReduceOps, BlockAndPairReduceHalfA2) { CheckBlockAndPair<half>("Ascend910B1", false); }
// The 950 fills the outputs of empty blocks and pairs.
TEST(ReduceOps, BlockAndPairReduceFloat950) { CheckBlockAndPair<float>("Ascend950PR_9599", true); }

// ---- ReduceSum / ReduceMax / ReduceMin ----

// The model of level 0: per-repeat trees; their sums in groups of one repeat's lanes; a tree
// over the groups (ReduceSumImpl's rounds).
template <typename T>
T SumLevel0Model(const std::vector<T>& src, const MaskModel& m, uint32_t repeats, uint32_t rep) {
  const uint32_t L = Lanes<T>();
  std::vector<T> sums;
  for (uint32_t r = 0; r < repeats; ++r) {
    std::vector<T> lanes(L);
    for (uint32_t i = 0; i < L; ++i) lanes[i] = m.On(i) ? src[At<T>(r, i, rep, 1)] : T(0.0f);
    sums.push_back(TreeModel(lanes, 0, L));
  }
  while (sums.size() > 1) {
    std::vector<T> next;
    for (size_t j = 0; j < sums.size(); j += L) {
      std::vector<T> lanes(L, T(0.0f));
      for (size_t i = 0; i < L && j + i < sums.size(); ++i) lanes[i] = sums[j + i];
      next.push_back(TreeModel(lanes, 0, L));
    }
    sums = next;
  }
  return sums[0];
}

template <typename T>
void CheckReduceLevel2() {
  const uint32_t L = Lanes<T>();
  const auto [src, ties] = RandomAndTieBuffers<T>(31);
  const T fill = T(-77.0f);
  for (uint32_t count : {1u, 5u, L - 1, L, L + 1, 3 * L + 17, 64 * L, 65 * L + 3,
                         static_cast<uint32_t>(kCap / sizeof(T))}) {
    // Sum: the body's rounds, then body + tail.
    MaskModel full;
    full.count = count < L ? count : L;
    const uint32_t body_repeats = count < L ? 1 : count / L;
    T want = SumLevel0Model(src, full, body_repeats, 8);
    if (count > L && count % L != 0) {
      std::vector<T> tail(L, T(0.0f));
      for (uint32_t i = 0; i < count % L; ++i) tail[i] = src[body_repeats * L + i];
      want = T(static_cast<float>(want) + static_cast<float>(TreeModel(tail, 0, L)));
    }
    auto got = RunOn<T>(src, fill, [&](auto a, auto d, auto t) { ReduceSum(d, a, t, count); });
    EXPECT_EQ(Bits(got[0]), Bits(want)) << "ReduceSum count " << count;
    EXPECT_EQ(Bits(got[1]), Bits(fill)) << "ReduceSum writes dst[0] only";
    for (bool is_max : {true, false}) {
      std::vector<std::pair<T, uint32_t>> xs;
      for (uint32_t i = 0; i < count; ++i) xs.push_back({ties[i], i});
      const auto [v, idx] = ExtremeModel(is_max, xs);
      for (bool cal : {false, true}) {
        got = RunOn<T>(ties, fill, [&](auto a, auto d, auto t) {
          if (is_max) {
            ReduceMax(d, a, t, count, cal);
          } else {
            ReduceMin(d, a, t, count, cal);
          }
        });
        EXPECT_EQ(Bits(got[0]), Bits(v)) << (is_max ? "ReduceMax" : "ReduceMin") << " " << count;
        EXPECT_EQ(Bits(got[1]), cal ? Bits(IdxBits<T>(idx)) : Bits(fill))
            << (is_max ? "ReduceMax" : "ReduceMin") << " count " << count << " calIndex " << cal;
      }
    }
  }
}

TEST(ReduceOps, ReduceLevel2Float) { CheckReduceLevel2<float>(); }

TEST(ReduceOps, GetReduceRepeatSumSprIsTheLastLevel2Sum) {
  const auto src = RandomValues<half>(61, 1000);
  half spr = half(0.0f);
  const auto got = RunOn<half>(src, half(0.0f), [&](auto a, auto d, auto t) {
    ReduceSum(d, a, t, 1000);
    spr = GetReduceRepeatSumSpr<half>();
  });
  EXPECT_EQ(Bits(spr), Bits(got[0]));
  EXPECT_NE(Bits(spr), 0u);
}
// The max/min register: the extreme over all repeats and its element index from src's start
// (first occurrence), modelled here over the flat source.
template <typename T>
void CheckMaxMinSpr() {
  constexpr uint32_t L = Lanes<T>();
  const auto src = TieValues<T>(67, 3 * L);  // many ties: the first index must win
  for (const bool is_max : {true, false}) {
    uint32_t want_at = 0;
    for (uint32_t i = 1; i < 3 * L; ++i) {
      const float x = static_cast<float>(src[i]), b = static_cast<float>(src[want_at]);
      if (is_max ? x > b : x < b) want_at = i;
    }
    T val{}, idx{};
    uint32_t bits_val = 0, bits_idx = 0;
    RunOn<T>(src, T(0.0f), [&](auto a, auto d, auto) {
      if (is_max) {
        WholeReduceMax(d, a, static_cast<int32_t>(L), 3, 1, 1, 8);
      } else {
        WholeReduceMin(d, a, static_cast<int32_t>(L), 3, 1, 1, 8);
      }
      GetReduceRepeatMaxMinSpr<T>(val, idx);
      GetReduceMaxMinCount<T>(bits_val, bits_idx);
    });
    EXPECT_EQ(Bits(val), Bits(src[want_at])) << is_max;
    EXPECT_EQ(Bits(idx), want_at) << is_max;
    EXPECT_EQ(bits_val, Bits(src[want_at]));
    EXPECT_EQ(bits_idx, want_at);
    // ReduceMax/Min (level 2) leave their result there too.
    const auto rnd = RandomValues<T>(68, 1000);
    uint32_t at = 0;
    for (uint32_t i = 1; i < 1000; ++i) {
      const float x = static_cast<float>(rnd[i]), b = static_cast<float>(rnd[at]);
      if (is_max ? x > b : x < b) at = i;
    }
    RunOn<T>(rnd, T(0.0f), [&](auto a, auto d, auto t) {
      if (is_max) {
        ReduceMax(d, a, t, 1000, true);
      } else {
        ReduceMin(d, a, t, 1000, true);
      }
      GetReduceRepeatMaxMinSpr<T>(val, idx);
    });
    EXPECT_EQ(Bits(val), Bits(rnd[at])) << is_max;
  }
  // The inference series' value-only form.
  T v310{};
  RunOn<T>(
      src, T(0.0f),
      [&](auto a, auto d, auto) {
        WholeReduceMax(d, a, static_cast<int32_t>(L), 3, 1, 1, 8);
        GetReduceRepeatMaxMinSpr<T>(v310);
      },
      "Ascend310P1");
  float best = static_cast<float>(src[0]);
  for (const T& x : src) best = std::max(best, static_cast<float>(x));
  EXPECT_EQ(static_cast<float>(v310), best);
}
TEST(ReduceOps, MaxMinSprFloat) { CheckMaxMinSpr<float>(); }
TEST(ReduceOps, MaxMinSprHalf) { CheckMaxMinSpr<half>(); }

TEST(ReduceOpsChecks, MaxMinSprOnlyForContiguousNormalMode) {
  ExpectCheck(
      [](Ub& ub) {
        float v, i;
        WholeReduceMax(ub.Get<float>(1), ub.Get<float>(0), 64, 2, 1, 1, 16);
        GetReduceRepeatMaxMinSpr<float>(v, i);
      },
      "reduce_spr", "srcRepStride != 8");
  ExpectCheck(
      [](Ub&) {
        float v, i;
        GetReduceRepeatMaxMinSpr<float>(v, i);
      },
      "unsupported_on_product", "not available on Ascend950", "Ascend950PR_9599");
  ExpectCheck(
      [](Ub&) {
        float v;
        GetReduceRepeatMaxMinSpr<float>(v);
      },
      "unsupported_on_product", "Atlas inference series");
}

TEST(ReduceOps, ReduceLevel2Half) { CheckReduceLevel2<half>(); }

template <typename T>
void CheckReduceLevel0() {
  const uint32_t L = Lanes<T>();
  const auto [src, ties] = RandomAndTieBuffers<T>(41);
  const T fill = T(-77.0f);
  for (uint32_t repeats : {1u, 2u, 7u, 70u}) {
    for (uint32_t rep : {8u, 12u}) {
      if ((repeats - 1) * rep * 32 + 256 > kCap) continue;
      for (const MaskModel& m : Masks<T>(repeats)) {
        std::vector<T> tmp;
        auto got = RunOn<T>(
            src, fill,
            [&](auto a, auto d, auto t) {
              WithMask<T>(m, [&](auto mask) { ReduceSum(d, a, t, mask, repeats, rep); });
            },
            "Ascend910B1", &tmp);
        EXPECT_EQ(Bits(got[0]), Bits(SumLevel0Model(src, m, repeats, rep)))
            << "ReduceSum level 0, repeats " << repeats;
        for (bool is_max : {true, false}) {
          std::vector<std::pair<T, uint32_t>> xs;
          for (uint32_t r = 0; r < repeats; ++r) {
            for (uint32_t i = 0; i < L; ++i) {
              if (m.On(i)) xs.push_back({ties[At<T>(r, i, rep, 1)], r * rep * PerBlock<T>() + i});
            }
          }
          const auto [v, idx] = ExtremeModel(is_max, xs);
          got = RunOn<T>(ties, fill, [&](auto a, auto d, auto t) {
            WithMask<T>(m, [&](auto mask) {
              if (is_max) {
                ReduceMax(d, a, t, mask, repeats, rep, true);
              } else {
                ReduceMin(d, a, t, mask, repeats, rep, true);
              }
            });
          });
          EXPECT_EQ(Bits(got[0]), Bits(v)) << "level 0 repeats " << repeats;
          EXPECT_EQ(Bits(got[1]), Bits(IdxBits<T>(idx))) << "level 0 index, repeats " << repeats;
        }
      }
    }
  }
}

TEST(ReduceOps, ReduceLevel0Float) { CheckReduceLevel0<float>(); }
TEST(ReduceOps, ReduceLevel0Half) { CheckReduceLevel0<half>(); }

TEST(ReduceOps, ReduceSumTmpHoldsTheRepeatSums) {
  // Three float repeats: tmp[0] = the group's tree (second round), tmp[1], tmp[2] the repeat
  // sums of the first round.
  const auto src = RandomValues<float>(51, 192);
  std::vector<float> tmp;
  RunOn<float>(
      src, 0.0f, [](auto a, auto d, auto t) { ReduceSum(d, a, t, 192); }, "Ascend910B1", &tmp);
  for (uint32_t r = 1; r < 3; ++r) {
    std::vector<float> lanes(src.begin() + r * 64, src.begin() + r * 64 + 64);
    EXPECT_EQ(Bits(tmp[r]), Bits(TreeModel(lanes, 0, 64))) << r;
  }
}

// ---- Brcb ----

template <typename T>
void CheckBrcb() {
  std::vector<T> src(2048);
  for (size_t i = 0; i < src.size(); ++i) src[i] = T(static_cast<float>(i % 97) - 40.0f);
  const T fill = T(-77.0f);
  for (const auto& t : {std::tuple{1, 1, 8}, {3, 1, 8}, {4, 2, 16}, {2, 1, 0}, {5, 3, 9}}) {
    // Plain variables: clang 14 cannot capture structured bindings in lambdas.
    const int repeat = std::get<0>(t), blk = std::get<1>(t), rep = std::get<2>(t);
    std::vector<T> want(kCap / sizeof(T), fill);
    for (int i = 0; i < repeat; ++i) {
      for (int j = 0; j < 8; ++j) {
        for (uint32_t k = 0; k < PerBlock<T>(); ++k) {
          want[(size_t(i) * rep + size_t(j) * blk) * PerBlock<T>() + k] = src[i * 8 + j];
        }
      }
    }
    const auto got = RunOn<T>(src, fill, [&](auto a, auto d, auto) {
      Brcb(d, a, static_cast<uint8_t>(repeat),
           BrcbRepeatParams(static_cast<uint16_t>(blk), static_cast<uint16_t>(rep)));
    });
    ExpectSameBits(got, want, "Brcb repeat " + std::to_string(repeat));
  }
}

TEST(ReduceOps, BrcbFloat) { CheckBrcb<float>(); }
TEST(ReduceOps, BrcbHalf) { CheckBrcb<half>(); }
TEST(ReduceOps, BrcbInt32) { CheckBrcb<int32_t>(); }

// ---- checked mode ----

// Buffers 0 (a), 1 (d) and 2 (t) of the block as tensors of 4096 bytes (Get<T>() unless a
// size is given).
struct Small {
  TBuf<>& buf;
  template <typename T>
  LocalTensor<T> Get(uint32_t n = 4096 / sizeof(T)) {
    return buf.Get<T>(n);
  }
};
struct Buffers {
  explicit Buffers(Ub& u) : a{u.buf[0]}, d{u.buf[1]}, t{u.buf[2]} {}
  Small a;
  Small d;
  Small t;
};
void ExpectCheck(const std::function<void(Buffers&)>& body, const std::string& check,
                 const std::string& needle, const char* soc = "Ascend910B1") {
  lngrad::aicore::test::ExpectCheck(
      [&](Ub& u) {
        Buffers b(u);
        body(b);
      },
      check, needle, soc);
}

TEST(ReduceOpsChecks, RepeatStrideMaskAndBounds) {
  ExpectCheck(
      [](Buffers& b) { WholeReduceSum(b.d.Get<float>(), b.a.Get<float>(), 64, 256, 1, 1, 8); },
      "repeat_times", "repeatTime is 256");
  ExpectCheck(
      [](Buffers& b) { WholeReduceSum(b.d.Get<float>(), b.a.Get<float>(), -3, 1, 1, 1, 8); },
      "vector_mask", "mask is -3");
  ExpectCheck(
      [](Buffers& b) { WholeReduceSum(b.d.Get<half>(), b.a.Get<half>(), 128, 1, 1, 1, 70000); },
      "vector_stride", "srcRepStride is 70000");
  // 17 repeats of 256 B run past the 4096-byte src.
  ExpectCheck(
      [](Buffers& b) { WholeReduceSum(b.d.Get<float>(), b.a.Get<float>(), 64, 17, 1, 1, 8); },
      "tensor_bounds", "src is accessed up to byte 4352");
  ExpectCheck(
      [](Buffers& b) { BlockReduceSum(b.d.Get<float>(), b.a.Get<float>(), 2, 64, 1, 1, 8); }, "",
      "");
  ExpectCheck(
      [](Buffers& b) { BlockReduceSum(b.d.Get<float>()[4], b.a.Get<float>(), 1, 64, 1, 1, 8); },
      "ub_alignment", "dst is at UB address");
  ExpectCheck(
      [](Buffers& b) { WholeReduceMax(b.d.Get<float>()[1], b.a.Get<float>(), 64, 1, 1, 1, 8); },
      "ub_alignment", "aligned to 8 bytes");
  ExpectCheck(
      [](Buffers& b) { PairReduceSum(b.d.Get<half>(), b.a.Get<half>()[8], 1, 128, 1, 1, 8); },
      "ub_alignment", "src is at UB address");
}

TEST(ReduceOpsChecks, OrderPerProduct) {
  const auto call = [](Buffers& b) {
    WholeReduceMax(b.d.Get<half>(), b.a.Get<half>(), 128, 1, 1, 1, 8,
                   ReduceOrder::ORDER_ONLY_INDEX);
  };
  ExpectCheck(call, "", "", "Ascend910B1");
  ExpectCheck(call, "reduce_order", "ORDER_ONLY_INDEX", "Ascend310P3");
  ExpectCheck(call, "reduce_order", "ORDER_ONLY_INDEX", "Ascend310B1");
}

TEST(ReduceOpsChecks, SharedTmpBufferSize) {
  // 10 float repeats with the index: 2*10 -> 24 (blocks), second round 2 -> 8: 32 elements.
  ExpectCheck(
      [](Buffers& b) {
        ReduceMax(b.d.Get<float>(), b.a.Get<float>(), b.t.Get<float>(31), 64, 10, 8, true);
      },
      "tmp_buffer", "sharedTmpBuffer has 31 elements");
  ExpectCheck(
      [](Buffers& b) {
        ReduceMax(b.d.Get<float>(), b.a.Get<float>(), b.t.Get<float>(32), 64, 10, 8, true);
      },
      "", "");
  ExpectCheck(
      [](Buffers& b) { ReduceSum(b.d.Get<float>(), b.a.Get<float>(), b.t.Get<float>(3), 256); },
      "tmp_buffer", "needs 4");
  ExpectCheck(
      [](Buffers& b) { ReduceSum(b.d.Get<float>(), b.a.Get<float>(), b.t.Get<float>(), -5); },
      "invalid_count", "count is -5");
}

TEST(ReduceOpsChecks, Brcb) {
  ExpectCheck(
      [](Buffers& b) { Brcb(b.d.Get<float>(), b.a.Get<float>(), 1, BrcbRepeatParams(0, 8)); },
      "vector_stride", "dstBlkStride is 0");
  ExpectCheck(
      [](Buffers& b) {
        LocalTensor<float> x = b.a.Get<float>();
        Brcb(x[8], x, 2, BrcbRepeatParams(1, 8));
      },
      "address_overlap", "overlaps src");
  ExpectCheck(
      [](Buffers& b) { Brcb(b.d.Get<float>(), b.a.Get<float>(), 17, BrcbRepeatParams(1, 8)); },
      "tensor_bounds", "dst is accessed up to byte 4352");
}

TEST(ReduceOpsChecks, UncheckedModeStaysInsideTheUb) {
  CheckedModeScope off(false);
  const auto [c, msg] = lngrad::aicore::test::CheckOf([](Ub& u) {
    Buffers b(u);
    // Far beyond the UB: always an error.
    WholeReduceSum(b.d.Get<float>(), b.a.Get<float>(), 64, 255, 1, 1, 65535);
  });
  EXPECT_EQ(c, "ub_bounds") << msg;
}

// ---- what the sanitizer sees: exact ranges (initcheck reports a read of bytes never written) ----

namespace san = lngrad::aicore::san;

TEST(ReduceOpsSanitizer, MaskedLanesAreNotRead) {
  // 32 of 64 lanes written: a mask of 32 lanes reads only those; 33 reads one more.
  for (int32_t mask : {32, 33}) {
    const std::string f = SanitizerFindings(
        [&] {
          LocalTensor<float> src(TPosition::VECCALC, 0, 256);
          LocalTensor<float> dst(TPosition::VECCALC, 1024, 64);
          Duplicate(src, 1.0f, 32);
          WholeReduceMax(dst, src, mask, 1, 1, 1, 8);
        },
        san::kInitcheck);
    if (mask == 32) {
      EXPECT_EQ(f, "");
    } else {
      EXPECT_NE(f.find("initcheck"), std::string::npos) << f;
    }
  }
}

TEST(ReduceOpsSanitizer, OutputsAreWhereTheDeviceWritesThem) {
  // BlockReduceSum with mask 16 (float): blocks 0 and 1 of each repeat are written, the rest of
  // dst is not; PairReduceSum's empty pairs neither. Reading dst[1] is fine, dst[2] is not.
  for (uint32_t read : {1u, 2u}) {
    const std::string f = SanitizerFindings(
        [&] {
          LocalTensor<float> src(TPosition::VECCALC, 0, 256);
          LocalTensor<float> dst(TPosition::VECCALC, 1024, 64);
          Duplicate(src, 1.0f, 256);
          BlockReduceSum(dst, src, 1, 16, 1, 1, 8);
          volatile float x = dst.GetValue(read);
          (void)x;
        },
        san::kInitcheck);
    if (read == 1) {
      EXPECT_EQ(f, "");
    } else {
      EXPECT_NE(f.find("initcheck"), std::string::npos) << f;
    }
  }
  // ReduceSum writes the repeat sums into sharedTmpBuffer: reading them back is initialised.
  const std::string f = SanitizerFindings(
      [] {
        LocalTensor<float> src(TPosition::VECCALC, 0, 256);
        LocalTensor<float> dst(TPosition::VECCALC, 1024, 8);
        LocalTensor<float> tmp(TPosition::VECCALC, 2048, 64);
        Duplicate(src, 1.0f, 256);
        ReduceSum(dst, src, tmp, 256);
        volatile float x = tmp.GetValue(3) + dst.GetValue(0);
        (void)x;
      },
      san::kInitcheck);
  EXPECT_EQ(f, "");
}

}  // namespace
