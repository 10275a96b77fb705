// lngrad's TopK with a RADIX_SELECT TopKConfig on the 950 (Ascend950PR_9589), compared with an
// independent replay of the kit's register code (impl/adv_api/detail/sort/topk/
// topk_3510_impl.h TopKRaidxSelect, GenerateAccumulateData, GatherGreaterAndEqualKData/Index,
// SaveData; sort_common_utils.h TwiddleInData/TwiddleOutData; sort_impl.h's RADIX_SORT with
// isDescend for `sorted`), not from lngrad's topk.h: the twiddle as its And/Select/Xor/Not
// steps on the bits, the threshold's byte loop with the cumulative histogram and the binary
// search as written, the two gather passes, and the final sort as the radix sort runs it
// (Not, least-significant-byte counting passes, Not back). Values and indexes are compared bit
// for bit on rows with ties, +0 and -0, infinities and NaNs of both signs. The scratch lies apart
// from srcIndexLocal; one over it is refused in checked mode, and unchecked each row reads the
// indexes that the key gathers so far left (the same helper changed lngrad's topk_3510.h to read
// them so).
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "reduce_quant_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::testing;

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;

template <typename T>
Bits<T> BitsOf(T v) {
  return std::bit_cast<Bits<T>>(v);
}

// TwiddleInData<T, U, isDescend>: And with the sign bit, Select(all ones if set, else the sign
// bit), Xor; then Not when isDescend.
template <typename T>
uint32_t Twiddle(T v, bool isDescend) {
  constexpr uint32_t sign = 1u << (sizeof(T) * 8 - 1);
  constexpr uint32_t allF = sizeof(T) == 4 ? 0xFFFFFFFFu : 0xFFFFu;
  uint32_t d = BitsOf(v);
  const uint32_t t = (d & sign) != 0 ? allF : sign;
  d ^= t;
  if (isDescend) d = ~d & allF;
  return d;
}

// TopKRaidxSelect on one row: the element positions of dst, in order; gatheredOut (when given):
// every position the two gather passes keep, in their order, and keysOut the twiddled keys.
template <typename T>
std::vector<uint32_t> Replay(const std::vector<T>& row, uint32_t n, uint32_t k, bool isLargest,
                             bool sorted, std::vector<uint32_t>* gatheredOut = nullptr,
                             std::vector<uint32_t>* keysOut = nullptr) {
  std::vector<uint32_t> w(n);
  for (uint32_t i = 0; i < n; ++i) w[i] = Twiddle(row[i], !isLargest);
  uint32_t kthValue = 0;
  int32_t remainK = static_cast<int32_t>(k);
  for (uint32_t i = sizeof(T); i > 0 && remainK > 0; --i) {
    // GenerateAccumulateData: the bytes at position i of the elements whose higher bytes equal
    // kthValue's, an accumulating histogram.
    const uint32_t working = i != sizeof(T) ? kthValue >> (i * 8) : 0;
    std::array<uint16_t, 256> tmpHistData{};
    for (uint32_t e = 0; e < n; ++e) {
      if (i != sizeof(T) && (w[e] >> (i * 8)) != working) continue;
      const uint32_t byte = (w[e] >> ((i - 1) * 8)) & 0xFF;
      for (uint32_t b = byte; b < 256; ++b) ++tmpHistData[b];
    }
    const int32_t expValue = tmpHistData[255] - remainK;
    int16_t left = 0, right = 255;
    bool found = false;
    while (left <= right) {
      const int16_t mid = static_cast<int16_t>(left + (right - left) / 2);
      if (tmpHistData[mid] == expValue) {
        kthValue |= static_cast<uint32_t>(mid + 1) << ((i - 1) * 8);
        remainK = 0;
        found = true;
        break;
      } else if (tmpHistData[mid] > expValue) {
        right = static_cast<int16_t>(mid - 1);
      } else {
        left = static_cast<int16_t>(mid + 1);
      }
    }
    if (!found) {
      if (right >= 0) {
        kthValue |= static_cast<uint32_t>(right + 1) << ((i - 1) * 8);
        remainK -= tmpHistData[255] - tmpHistData[right + 1];
      } else {
        remainK = tmpHistData[0] - expValue;
      }
    }
  }
  std::vector<uint32_t> gathered;  // GatherGreaterAndEqualKData: GT pass, then EQ pass
  for (uint32_t e = 0; e < n; ++e) {
    if (w[e] > kthValue) gathered.push_back(e);
  }
  for (uint32_t e = 0; e < n; ++e) {
    if (w[e] == kthValue) gathered.push_back(e);
  }
  if (gatheredOut != nullptr) *gatheredOut = gathered;
  if (keysOut != nullptr) *keysOut = w;
  gathered.resize(k);
  if (!sorted) return gathered;  // SaveData
  // Sort<U, int32_t, false, {RADIX_SORT, true}> over the k: Not, counting passes from the
  // lowest byte (stable), Not back: descending by key, ties in gathered order.
  std::vector<uint32_t> keyOf(n);
  for (uint32_t e : gathered) keyOf[e] = ~w[e] & (sizeof(T) == 4 ? 0xFFFFFFFFu : 0xFFFFu);
  for (uint32_t pass = 0; pass < sizeof(T); ++pass) {
    std::array<uint32_t, 257> start{};
    for (uint32_t e : gathered) ++start[((keyOf[e] >> (pass * 8)) & 0xFF) + 1];
    for (uint32_t b = 1; b < 257; ++b) start[b] += start[b - 1];
    std::vector<uint32_t> next(k);
    for (uint32_t e : gathered) next[start[(keyOf[e] >> (pass * 8)) & 0xFF]++] = e;
    gathered.swap(next);
  }
  return gathered;
}

template <typename T>
T FromBits(uint32_t b) {
  return std::bit_cast<T>(static_cast<Bits<T>>(b));
}

// Values from a small set (ties), +-0, +-inf, NaNs of both signs and payloads, random values.
template <typename T>
std::vector<T> RowsData(uint32_t seed, uint32_t count) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> pick(0, 15);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  const uint32_t nanP = sizeof(T) == 4 ? 0x7FC00001u : 0x7E01u;
  const uint32_t nanN = sizeof(T) == 4 ? 0xFFC00002u : 0xFE02u;
  std::vector<T> v(count);
  for (T& x : v) {
    const int p = pick(gen);
    x = T(static_cast<float>(p % 4));
    if (p == 4) x = T(0.0f);
    if (p == 5) x = T(-0.0f);
    if (p == 6) x = FromBits<T>(nanP);
    if (p == 7) x = FromBits<T>(nanN);
    if (p == 8) x = T(INFINITY);
    if (p == 9) x = T(-INFINITY);
    if (p >= 10) x = T(d(gen));
  }
  return v;
}

struct Case {
  uint32_t outter, inner, n, k;
};

// The scratch lies after the indexes in buffer 1 (the page does not allow it to overlap them).
constexpr uint32_t kTmpAt = 8192;

template <typename T, bool isInitIndex, TopKMode mode, const TopKConfig& config>
void CheckRadix(Case c, bool isLargest, uint32_t seed) {
  constexpr bool kNSmall = mode == TopKMode::TOPK_NSMALL;
  const std::vector<T> in = RowsData<T>(seed, c.outter * c.inner);
  std::vector<int32_t> ids(kNSmall ? c.outter * c.inner : c.inner);
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int32_t>(5000 + 3 * i);
  std::vector<T> vals;
  std::vector<int32_t> idx;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        ub.Put<int32_t>(1, ids);
        TopkTiling tiling;
        tiling.tmpLocalSize = 0;
        const TopKInfo info{static_cast<int32_t>(c.outter), static_cast<int32_t>(c.inner),
                            static_cast<int32_t>(c.n)};
        LocalTensor<T> dv = ub.Get<T>(2);
        LocalTensor<int32_t> di = ub.Get<int32_t>(3);
        TopK<T, isInitIndex, false, false, mode, config>(
            dv, di, ub.Get<T>(0), ub.Get<int32_t>(1), ub.Get<bool>(3), ub.Get<uint8_t>(1)[kTmpAt],
            static_cast<int32_t>(c.k), tiling, info, isLargest);
        vals = ub.Take<T>(2);
        idx = ub.Take<int32_t>(3);
      },
      k950);
  const bool largest =
      config.order == TopKOrder::UNSET ? isLargest : config.order == TopKOrder::LARGEST;
  const uint32_t vPad =
      kNSmall ? c.k : (c.k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
  const uint32_t iPad = kNSmall ? c.k : (c.k + 7) / 8 * 8;
  for (uint32_t j = 0; j < c.outter; ++j) {
    const std::vector<T> row(in.begin() + j * c.inner, in.begin() + (j + 1) * c.inner);
    const std::vector<uint32_t> want = Replay(row, c.n, c.k, largest, config.sorted);
    for (uint32_t i = 0; i < c.k; ++i) {
      const int32_t wantIdx =
          isInitIndex ? ids[(kNSmall ? j * c.inner : 0) + want[i]] : static_cast<int32_t>(want[i]);
      ASSERT_EQ(BitsOf(vals[j * vPad + i]), BitsOf(row[want[i]]))
          << "row " << j << " rank " << i << " largest " << largest << " sorted " << config.sorted;
      ASSERT_EQ(idx[j * iPad + i], wantIdx) << "row " << j << " rank " << i;
    }
  }
}

constexpr TopKConfig kRadixSorted = {TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, true};
constexpr TopKConfig kRadixUnsorted = {TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, false};
constexpr TopKConfig kRadixSmallest = {TopKAlgo::RADIX_SELECT, TopKOrder::SMALLEST, true};

template <typename T>
void CheckType(uint32_t seed) {
  for (bool largest : {true, false}) {
    CheckRadix<T, false, TopKMode::TOPK_NORMAL, kRadixSorted>({3, 96, 90, 13}, largest, ++seed);
    CheckRadix<T, true, TopKMode::TOPK_NORMAL, kRadixSorted>({2, 256, 256, 64}, largest, ++seed);
    CheckRadix<T, false, TopKMode::TOPK_NORMAL, kRadixUnsorted>({3, 128, 100, 37}, largest, ++seed);
    CheckRadix<T, true, TopKMode::TOPK_NORMAL, kRadixUnsorted>({2, 64, 64, 1}, largest, ++seed);
    CheckRadix<T, true, TopKMode::TOPK_NSMALL, kRadixSorted>({4, 32, 32, 5}, largest, ++seed);
    CheckRadix<T, false, TopKMode::TOPK_NSMALL, kRadixUnsorted>({3, 32, 30, 30}, largest, ++seed);
  }
  CheckRadix<T, false, TopKMode::TOPK_NORMAL, kRadixSmallest>({2, 64, 64, 20}, true, ++seed);
}

TEST(TopKRadix950Replay, Float) { CheckType<float>(3000); }
TEST(TopKRadix950Replay, Half) { CheckType<half>(4000); }

// Checked mode: tmpLocal sharing bytes with srcIndexLocal (isInitIndex) is refused before
// the select runs (address_overlap); the scratch past the indexes runs.
TEST(TopKRadix950Replay, CheckedModeRefusesTmpOverSrcIndex) {
  for (const uint32_t at : {0u, 128u, 256u}) {  // the indexes are 64 int32s: 256 bytes
    lngrad::aicore::test::ExpectCheck(
        [&](Ub& ub) {
          ub.Put<float>(0, RowsData<float>(9, 128));
          TopkTiling tiling;
          tiling.tmpLocalSize = 0;
          const TopKInfo info{2, 64, 64};
          TopK<float, true, false, false, TopKMode::TOPK_NORMAL, kRadixSorted>(
              ub.Get<float>(2), ub.Get<int32_t>(3), ub.Get<float>(0), ub.Get<int32_t>(1),
              ub.Get<bool>(3), ub.Get<uint8_t>(1)[at], 8, tiling, info, true);
        },
        at < 256 ? "address_overlap" : "", at < 256 ? "tmpLocal and srcIndexLocal" : "", k950);
  }
}

// Unchecked, tmpLocal at srcIndexLocal (the page does not allow it; checked mode refuses it,
// address_overlap): float, TOPK_NORMAL with isInitIndex, unsorted. Row j's scratch starts at the
// indexes: GatherGreaterAndEqualKData writes the row's gathered twiddled keys over them before
// GatherGreaterAndEqualKIndex reads them (its own writes land after inner floats, the histogram
// there too), so row j's indexes are what rows 0..j's key gathers left at each position.
TEST(TopKRadix950Replay, TmpOverSrcIndexUncheckedReadsTheIndexesAsTheKitLeavesThem) {
  const Case c{3, 64, 64, 20};
  const std::vector<float> in = RowsData<float>(77, c.outter * c.inner);
  std::vector<int32_t> ids(c.inner);
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int32_t>(5000 + 3 * i);
  std::vector<int32_t> idx;
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(0, in);
        ub.Put<int32_t>(1, ids);
        TopkTiling tiling;
        tiling.tmpLocalSize = 0;
        const TopKInfo info{3, 64, 64};
        TopK<float, true, false, false, TopKMode::TOPK_NORMAL, kRadixUnsorted>(
            ub.Get<float>(2), ub.Get<int32_t>(3), ub.Get<float>(0), ub.Get<int32_t>(1),
            ub.Get<bool>(3), ub.Get<uint8_t>(1), 20, tiling, info, true);
        idx = ub.Take<int32_t>(3);
      },
      k950);
  lngrad::aicore::SetCheckedMode(was);
  std::vector<int32_t> live = ids;  // what UB holds at the indexes
  for (uint32_t j = 0; j < c.outter; ++j) {
    const std::vector<float> row(in.begin() + j * c.inner, in.begin() + (j + 1) * c.inner);
    std::vector<uint32_t> gathered, keys;
    const std::vector<uint32_t> want = Replay(row, c.n, c.k, true, false, &gathered, &keys);
    for (size_t p = 0; p < gathered.size(); ++p) live[p] = static_cast<int32_t>(keys[gathered[p]]);
    for (uint32_t i = 0; i < c.k; ++i) {
      ASSERT_EQ(idx[j * 24 + i], live[want[i]]) << "row " << j << " rank " << i;
    }
  }
}

}  // namespace
