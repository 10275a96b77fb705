// lngrad's 950 Sort with SortType::MERGE_SORT (Ascend950PR_9589) compared bit for bit with an
// independent replay of the kit's sequence, written from its source (a separate reading, not
// from lngrad's sort.h): impl/adv_api/detail/sort/sort/sort_impl.h (the MERGE_SORT branches of
// the three SortImpl overloads, DescendProcess, GenSrcIndex), impl/basic_api/dav_3510/
// kernel_operator_proposal_impl.h (DoFullSort with its queue counters and tail rule,
// FullSortInnerLoop in MrgSort's repeat form, FullSortInnerLoopTail) and
// kernel_operator_vec_gather_mask_impl.h (ExtractVf: 64 structures a loop, a tail of 32, dst
// read and written in place). Sort32 and MrgSort are written here from the instruction rules
// stated in sort_ops.h's header (the device's NaN order is not documented; those rules are
// lngrad's): a structure moves before its neighbour only when its score is greater; a merge
// keeps the first queue head and switches to a later head only when its score is greater.
// Compared: dst's count * 8 bytes (the values, then the tail of the structures), the scratch's
// count * 8 bytes, dstIndex, and src (flipped in place when ascending), on data with ties, +0
// and -0, infinities and NaNs of both signs and several payloads, float and half, ascending and
// descending, 1 to 64 runs of 32 (every tail of DoFullSort's rounds).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "reduce_quant_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::testing;
using Bytes = std::vector<uint8_t>;

// The replay's score of the structure at byte offset `at` (float, or half at its low 2 bytes).
template <typename T>
float ScoreAt(const Bytes& m, uint64_t at) {
  if constexpr (sizeof(T) == 4) {
    float f;
    std::memcpy(&f, m.data() + at, 4);
    return f;
  } else {
    lngrad_replay::Half h;
    std::memcpy(&h.bits, m.data() + at, 2);
    return lngrad_replay::HalfToFloat(h);
  }
}

uint32_t WordAt(const Bytes& m, uint64_t at) {
  uint32_t w;
  std::memcpy(&w, m.data() + at, 4);
  return w;
}

void PutWord(Bytes& m, uint64_t at, uint32_t w) { std::memcpy(m.data() + at, &w, 4); }

// DescendProcess: Xor of the b32 words with 0x80000000 (float) or 0x80008000 (half) under the
// mask of `count` elements of T.
template <typename T>
void DescendProcess(Bytes& m, uint32_t count) {
  const uint32_t mask = sizeof(T) == 4 ? 0x80000000u : 0x80008000u;
  for (uint64_t w = 0; w < uint64_t{count} * sizeof(T) / 4; ++w) {
    PutWord(m, w * 4, WordAt(m, w * 4) ^ mask);
  }
}

// Sort32 (vbs): repeat k makes 32 structures (score bits, half's bytes [2, 4) zero, the index
// word at [4, 8)) from src elements and index words k * 32 .. k * 32 + 31, then orders them.
template <typename T>
void Sort32(Bytes& dst, const Bytes& src, const Bytes& index, uint32_t repeatTime) {
  for (uint32_t k = 0; k < repeatTime; ++k) {
    Bytes run(256, 0);
    for (uint32_t i = 0; i < 32; ++i) {
      std::memcpy(run.data() + i * 8, src.data() + (uint64_t{k} * 32 + i) * sizeof(T), sizeof(T));
      PutWord(run, i * 8 + 4, WordAt(index, (uint64_t{k} * 32 + i) * 4));
    }
    std::vector<uint32_t> slot;  // the insertion, positions into `run`
    for (uint32_t i = 0; i < 32; ++i) {
      auto at = slot.end();
      while (at != slot.begin() && ScoreAt<T>(run, i * 8) > ScoreAt<T>(run, *(at - 1) * 8)) --at;
      slot.insert(at, i);
    }
    for (uint32_t i = 0; i < 32; ++i) {
      std::memcpy(dst.data() + uint64_t{k} * 256 + i * 8, run.data() + slot[i] * 8, 8);
    }
  }
}

// MrgSort (vmrgsort4) on structure offsets: `repeatTimes` times, the queues that validBit names
// (from q[0] + r * the 4 lengths' sum); output contiguous from dstAt.
template <typename T>
void MrgSort(Bytes& dst, uint64_t dstAt, const Bytes& src, const uint64_t q[4],
             const uint16_t len[4], uint16_t validBit, int32_t repeatTimes) {
  const uint64_t total = uint64_t{len[0]} + len[1] + len[2] + len[3];
  for (int32_t r = 0; r < repeatTimes; ++r) {
    uint32_t pos[4] = {0, 0, 0, 0};
    while (true) {
      int kept = -1;
      for (int k = 0; k < 4; ++k) {
        if ((validBit >> k & 1) == 0 || pos[k] >= len[k]) continue;
        const uint64_t at = (q[k] + r * total + pos[k]) * 8;
        if (kept < 0 ||
            ScoreAt<T>(src, at) > ScoreAt<T>(src, (q[kept] + r * total + pos[kept]) * 8)) {
          kept = k;
        }
      }
      if (kept < 0) break;
      std::memcpy(dst.data() + dstAt * 8, src.data() + (q[kept] + r * total + pos[kept]) * 8, 8);
      ++dstAt;
      ++pos[kept];
    }
  }
}

// DoFullSort with FullSortInnerLoop / FullSortInnerLoopTail as written (offsets in structures).
template <typename T>
void DoFullSort(Bytes& dst, Bytes& tmp, int32_t repeatTime) {
  const uint32_t srcElementCount = repeatTime * 32;
  uint32_t loopTimes = 0;
  for (int32_t queNum = repeatTime; queNum > 1; queNum = (queNum + 3) / 4) ++loopTimes;
  uint16_t single = 32;
  int32_t totalQue = repeatTime, tailQue = repeatTime % 4;
  int32_t mergeRepeat = repeatTime / 4;
  std::copy_n(dst.begin(), srcElementCount * 8, tmp.begin());
  for (uint32_t i = 0; i < loopTimes; ++i) {
    const uint64_t base = single;
    if (mergeRepeat > 0) {
      const uint64_t q[4] = {0, base, 2 * base, 3 * base};
      const uint16_t len[4] = {single, single, single, single};
      MrgSort<T>(dst, 0, tmp, q, len, 0b1111, mergeRepeat);
    }
    const uint16_t elementCountTail =
        srcElementCount % single != 0 ? srcElementCount % single : single;
    if (tailQue > 0) {
      const uint64_t o0 = 4 * base * mergeRepeat;
      uint64_t q[4] = {o0, 0, 0, 0};
      uint16_t len[4] = {single, single, single, single};
      uint16_t valid = 0b1111;
      if (tailQue == 2) {
        q[1] = o0 + base;
        len[1] = elementCountTail;
        len[2] = len[3] = 0;
        valid = 0b0011;
      } else if (tailQue == 3) {
        q[1] = o0 + base;
        q[2] = o0 + 2 * base;
        len[2] = elementCountTail;
        len[3] = 0;
        valid = 0b0111;
      } else {
        q[1] = o0 + base;
        q[2] = o0 + 2 * base;
        q[3] = o0 + 3 * base;
        len[3] = elementCountTail;
      }
      if (tailQue > 1) {
        MrgSort<T>(dst, o0, tmp, q, len, valid, 1);
      } else {
        std::copy_n(tmp.begin() + o0 * 8, uint64_t{elementCountTail} * 8, dst.begin() + o0 * 8);
      }
    }
    std::copy_n(dst.begin(), srcElementCount * 8, tmp.begin());
    single = static_cast<uint16_t>(single * 4);
    totalQue = totalQue % 4 ? totalQue / 4 + 1 : totalQue / 4;
    tailQue = totalQue % 4;
    if (tailQue == 0 && elementCountTail != single) tailQue = 4;
    mergeRepeat = (totalQue - tailQue) / 4;
  }
}

// ExtractVf: each loop loads 64 structures and stores their scores and index words; an odd
// repeatTime ends with 32. values and sorted may be the same bytes.
template <typename T>
void ExtractVf(Bytes& values, Bytes& index, uint64_t indexAt, const Bytes& sorted,
               int32_t repeatTime) {
  auto step = [&](uint64_t first, uint32_t n) {
    Bytes vals(n * sizeof(T)), idx(n * 4);  // the registers, loaded before the stores
    for (uint32_t j = 0; j < n; ++j) {
      std::memcpy(vals.data() + j * sizeof(T), sorted.data() + (first + j) * 8, sizeof(T));
      std::memcpy(idx.data() + j * 4, sorted.data() + (first + j) * 8 + 4, 4);
    }
    std::copy(vals.begin(), vals.end(), values.begin() + first * sizeof(T));
    std::copy(idx.begin(), idx.end(), index.begin() + indexAt + first * 4);
  };
  for (int32_t i = 0; i < repeatTime / 2; ++i) step(uint64_t{64} * i, 64);
  if (repeatTime % 2 != 0) step(uint64_t{64} * (repeatTime / 2), 32);
}

enum class Form { kValues, kDstIndex, kBothIndexes };

struct State {
  Bytes src, dst, tmp, idx;  // idx: srcIndex words at 0, dstIndex words at kDstIdxAt
};
constexpr uint64_t kDstIdxAt = 16384;

// SortImpl's MERGE_SORT branch of the overload `form`.
template <typename T>
void Replay(State& s, Form form, bool isDescend, uint32_t count) {
  const int32_t repeatTime = static_cast<int32_t>(count / 32);
  if (!isDescend) DescendProcess<T>(s.src, count);
  if (form == Form::kValues) {
    Sort32<T>(s.dst, s.src, s.src, repeatTime);  // srcLocal as the index
  } else if (form == Form::kDstIndex) {
    for (uint32_t i = 0; i < count; ++i) PutWord(s.tmp, uint64_t{i} * 4, i);  // GenSrcIndex
    Sort32<T>(s.dst, s.src, s.tmp, repeatTime);
  } else {
    Sort32<T>(s.dst, s.src, s.idx, repeatTime);
  }
  DoFullSort<T>(s.dst, s.tmp, repeatTime);
  if (form == Form::kValues) {
    ExtractVf<T>(s.dst, s.tmp, 0, s.dst, repeatTime);
  } else {
    ExtractVf<T>(s.dst, s.idx, kDstIdxAt, s.dst, repeatTime);
  }
  if (!isDescend) DescendProcess<T>(s.dst, count);
}

template <typename T>
using BitsT = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;

// count values: ties, +-0, +-inf, NaNs of both signs with several payloads, random values;
// then `extra` more (what the values-only half form reads as indexes past count).
template <typename T>
Bytes Values(uint32_t seed, uint32_t count, uint32_t extra) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> pick(0, 15);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  const uint32_t quiet = sizeof(T) == 4 ? 0x7FC00000u : 0x7E00u;
  const uint32_t sign = sizeof(T) == 4 ? 0x80000000u : 0x8000u;
  Bytes m((count + extra) * sizeof(T));
  for (uint32_t i = 0; i < count + extra; ++i) {
    const int p = pick(gen);
    T x = T(static_cast<float>(p % 4));
    if (p == 4) x = T(0.0f);
    if (p == 5) x = T(-0.0f);
    if (p == 6 || p == 7) {
      const auto bits = static_cast<BitsT<T>>(quiet | (gen() % 64) | (p == 7 ? sign : 0u));
      x = std::bit_cast<T>(bits);
    }
    if (p == 8) x = T(INFINITY);
    if (p == 9) x = T(-INFINITY);
    if (p >= 10) x = T(d(gen));
    std::memcpy(m.data() + uint64_t{i} * sizeof(T), &x, sizeof(T));
  }
  return m;
}

Bytes Slot(Ub& ub, int i) {
  const std::vector<uint8_t> all = ub.Take<uint8_t>(i);
  return Bytes(all.begin(), all.end());
}

template <typename T, const SortConfig& config>
void Run(Ub& ub, Form form, uint32_t count, bool stackTmp) {
  LocalTensor<T> dst = ub.Get<T>(1), src = ub.Get<T>(0);
  LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
  tmp.SetSize(count * 8);
  LocalTensor<uint32_t> srcIdx = ub.Get<uint32_t>(3);
  LocalTensor<uint32_t> dstIdx = srcIdx[kDstIdxAt / 4];
  srcIdx.SetSize(count);
  dstIdx.SetSize(count);
  if (form == Form::kValues) {
    if (stackTmp) return Sort<T, false, config>(dst, src, count);
    return Sort<T, false, config>(dst, src, tmp, count);
  }
  if (form == Form::kDstIndex) {
    if (stackTmp) return Sort<T, false, config>(dst, dstIdx, src, count);
    return Sort<T, false, config>(dst, dstIdx, src, tmp, count);
  }
  if (stackTmp) return Sort<T, uint32_t, false, config>(dst, dstIdx, src, srcIdx, count);
  Sort<T, uint32_t, false, config>(dst, dstIdx, src, srcIdx, tmp, count);
}

// The first byte where a and b differ in [0, n), or -1.
int64_t FirstDiff(const Bytes& a, const Bytes& b, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<int64_t>(i);
  }
  return -1;
}

template <typename T, const SortConfig& config>
void Check(Form form, uint32_t count, uint32_t seed, bool stackTmp = false) {
  State want;
  want.src = Values<T>(seed, count, count);
  want.src.resize(kUbBufBytes, 0);
  want.dst.assign(kUbBufBytes, 0xA5);
  want.tmp.assign(kUbBufBytes, 0x5A);
  want.idx.assign(kUbBufBytes, 0x3C);
  for (uint32_t i = 0; i < count; ++i) PutWord(want.idx, uint64_t{i} * 4, 9000 + 7 * i);
  State got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<uint8_t>(0, want.src);
        ub.Put<uint8_t>(1, want.dst);
        ub.Put<uint8_t>(2, want.tmp);
        ub.Put<uint8_t>(3, want.idx);
        Run<T, config>(ub, form, count, stackTmp);
        got = {Slot(ub, 0), Slot(ub, 1), Slot(ub, 2), Slot(ub, 3)};
      },
      k950);
  Replay<T>(want, form, config.isDescend, count);
  const auto where = [&](const char* what, int64_t at) {
    return std::string(what) + " byte " + std::to_string(at) + ", count " + std::to_string(count) +
           ", form " + std::to_string(static_cast<int>(form)) + ", descend " +
           std::to_string(config.isDescend) + ", seed " + std::to_string(seed);
  };
  int64_t at = FirstDiff(got.dst, want.dst, kUbBufBytes);
  ASSERT_EQ(at, -1) << where("dst", at);
  at = FirstDiff(got.src, want.src, kUbBufBytes);
  ASSERT_EQ(at, -1) << where("src", at);
  at = FirstDiff(got.idx, want.idx, kUbBufBytes);
  ASSERT_EQ(at, -1) << where("srcIndex/dstIndex", at);
  if (stackTmp) return;
  at = FirstDiff(got.tmp, want.tmp, kUbBufBytes);
  ASSERT_EQ(at, -1) << where("sharedTmpBuffer", at);
}

constexpr SortConfig kAsc = {SortType::MERGE_SORT, false};
constexpr SortConfig kDesc = {SortType::MERGE_SORT, true};

// 1 to 7 runs (round one's tails of 1, 2, 3 queues), 16 and 17 (a round of four whole queues
// and the tail rule of later rounds), 20, 33, 64.
constexpr uint32_t kRuns[] = {1, 2, 3, 4, 5, 6, 7, 16, 17, 20, 33, 64};

template <typename T>
void CheckType(uint32_t seed) {
  for (uint32_t runs : kRuns) {
    for (Form form : {Form::kValues, Form::kDstIndex, Form::kBothIndexes}) {
      Check<T, kAsc>(form, runs * 32, ++seed);
      Check<T, kDesc>(form, runs * 32, ++seed);
    }
  }
  for (Form form : {Form::kValues, Form::kDstIndex, Form::kBothIndexes}) {
    Check<T, kAsc>(form, 160, ++seed, true);
    Check<T, kDesc>(form, 96, ++seed, true);
  }
}

TEST(SortMerge950Replay, Float) { CheckType<float>(100); }
TEST(SortMerge950Replay, Half) { CheckType<half>(200); }

// The replay's own check that NaNs met the merge rounds: with no NaN, ascending equals a stable
// sort by value (-0 and +0 in source order), so the replay's sequence is a sort at all.
TEST(SortMerge950Replay, ReplayWithoutNaNIsAStableSort) {
  const uint32_t count = 544;
  State s;
  s.src.resize(kUbBufBytes, 0);
  std::vector<float> v(count);
  std::mt19937 gen(7);
  for (uint32_t i = 0; i < count; ++i) {
    v[i] = static_cast<float>(static_cast<int>(gen() % 9) - 4);
    if (v[i] == 0.0f && gen() % 2) v[i] = -0.0f;
    std::memcpy(s.src.data() + i * 4, &v[i], 4);
  }
  s.dst.assign(kUbBufBytes, 0);
  s.tmp.assign(kUbBufBytes, 0);
  s.idx.assign(kUbBufBytes, 0);
  Replay<float>(s, Form::kDstIndex, false, count);
  std::vector<uint32_t> order(count);
  for (uint32_t i = 0; i < count; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return v[a] < v[b]; });
  for (uint32_t i = 0; i < count; ++i) {
    ASSERT_EQ(WordAt(s.idx, kDstIdxAt + uint64_t{i} * 4), order[i]) << "rank " << i;
    ASSERT_EQ(WordAt(s.dst, uint64_t{i} * 4), std::bit_cast<uint32_t>(v[order[i]])) << i;
  }
}

}  // namespace
