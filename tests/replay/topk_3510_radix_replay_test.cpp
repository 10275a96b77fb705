// lngrad's TopK with a RADIX_SELECT TopKConfig on arch 3510 (Ascend950PR_9589; lib/sort/
// topk_3510.h) against the replay of the kit's sequence (replay_topk_3510_radix.{h,cpp}, read
// from topk_3510_impl.h). Compared bit for bit: the whole srcLocal (isReuseSrc twiddles it in
// place), srcIndexLocal, dstValueLocal and dstIndexLocal (with room past the last row; TOPK_NSMALL
// leaves the padded rows' tails there) and the whole tmpLocal, filled with 0xa5 first (with
// `sorted` it holds the radix Sort's scratch: the last pass's exclusive sum, bytes, indexes and
// permutation, the even passes' values and indexes, over the twiddled keys). Rows with
// ties, +0 and -0, infinities, NaNs of both signs, subnormals (floats), the extremes (integers);
// n not a multiple of 32, k = 1 and k = n, largest and smallest (isLargest and the config's
// order), isInitIndex and isReuseSrc both ways, TOPK_NORMAL and TOPK_NSMALL, every 1, 2 and
// 4-byte type the kit's radix select takes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_topk_3510_radix.h"

namespace {

using namespace AscendC;
namespace rp = lngrad_replay::topk3510radix;

constexpr const char* k950 = "Ascend950PR_9589";

struct Bufs {
  TPipe pipe;
  std::vector<TBuf<>> buf;
  explicit Bufs(const std::vector<uint32_t>& sizes) : buf(sizes.size()) {
    for (size_t i = 0; i < sizes.size(); ++i) pipe.InitBuffer(buf[i], sizes[i]);
  }
};

uint32_t Up32(uint64_t b) { return static_cast<uint32_t>((b + 31) / 32 * 32); }

template <typename T>
constexpr rp::Kind KindOf() {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half> ||
                std::is_same_v<T, bfloat16_t>) {
    return rp::Kind::kFloat;
  } else if constexpr (std::is_signed_v<T>) {
    return rp::Kind::kSigned;
  } else {
    return rp::Kind::kUnsigned;
  }
}

// Element bits: floats from a small set (ties), +-0, NaNs of both signs, +-inf, subnormals and
// random bits; integers from a small set, 0, the extremes and random bits.
template <typename T>
std::vector<uint8_t> Scores(uint32_t seed, uint64_t count) {
  constexpr uint32_t es = sizeof(T);
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> pick(0, 15);
  std::vector<uint8_t> b(count * es);
  const uint32_t top = 1u << (es * 8 - 1);
  for (uint64_t i = 0; i < count; ++i) {
    const int p = pick(gen);
    uint32_t v = static_cast<uint32_t>(gen());
    if constexpr (KindOf<T>() == rp::Kind::kFloat) {
      const uint32_t expAll = es == 4                                ? 0x7F800000u
                              : (es == 2 && std::is_same_v<T, half>) ? 0x7C00u
                                                                     : 0x7F80u;
      const uint32_t one = es == 4 ? 0x3F800000u : std::is_same_v<T, half> ? 0x3C00u : 0x3F80u;
      if (p < 4) v = (p % 2 ? one : one + 1) | (p / 2 ? top : 0);
      if (p == 4) v = 0;
      if (p == 5) v = top;
      if (p == 6) v = expAll | 1;
      if (p == 7) v = top | expAll | 3;
      if (p == 8) v = expAll;
      if (p == 9) v = top | expAll;
      if (p == 10) v = 5 | (gen() % 2 ? top : 0);
    } else {
      if (p < 4) v = static_cast<uint32_t>(p - 1);
      if (p == 4) v = 0;
      if (p == 5) v = top;
      if (p == 6) v = top - 1;
      if (p == 7) v = ~0u;
    }
    std::memcpy(b.data() + i * es, &v, es);
  }
  return b;
}

struct Case {
  uint32_t outter, inner, n, k;
};

// Whether the buffers differ, and where (the first byte).
std::string Diff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, uint64_t upTo,
                 const char* what) {
  for (uint64_t p = 0; p < std::min<uint64_t>(upTo, got.size()); ++p) {
    if (got[p] != want[p]) {
      return std::string(what) + ": byte " + std::to_string(p) + " lngrad " +
             std::to_string(got[p]) + ", kit " + std::to_string(want[p]);
    }
  }
  return "";
}

template <typename T, bool init, bool reuse, TopKMode mode, const TopKConfig& config>
void Check(const Case& c, bool isLargest, uint32_t seed) {
  constexpr bool nsmall = mode == TopKMode::TOPK_NSMALL;
  constexpr uint32_t es = sizeof(T);
  const bool largest =
      config.order == TopKOrder::UNSET ? isLargest : config.order == TopKOrder::LARGEST;
  SCOPED_TRACE(::testing::Message()
               << es << "-byte kind " << static_cast<int>(KindOf<T>())
               << (nsmall ? " NSMALL " : " NORMAL ") << c.outter << "x" << c.inner << " n " << c.n
               << " k " << c.k << (largest ? " largest" : " smallest") << " init " << init
               << " reuse " << reuse << " sorted " << config.sorted);
  const uint64_t all = uint64_t{c.outter} * c.inner;
  const uint32_t kPad = (c.k + 32 / es - 1) / (32 / es) * (32 / es), iPad = (c.k + 7) / 8 * 8;
  // tmp: the index rows, the gathered keys and indexes, the twiddled keys, room, and the sort's
  // scratch (GetSortMaxMinTmpSize's RADIX_SORT with both indexes: 512 + 7A, plus (es + 4) A
  // unless 1-byte values, A = k rounded up to 32).
  const uint64_t alignK = (c.k + 31) / 32 * 32;
  const uint64_t sortBytes = 512 + 7 * alignK + (es == 1 ? 0 : (es + 4) * alignK);
  const uint64_t tmpBytes = uint64_t{4} * c.inner * c.outter + uint64_t{es} * c.inner * 3 +
                            uint64_t{4} * c.inner + 2048 + sortBytes;
  const std::vector<uint32_t> sizes = {Up32(all * es + 64),
                                       Up32(all * 4 + 64),
                                       Up32(tmpBytes),
                                       Up32((uint64_t{c.outter} * kPad + 40) * es),
                                       Up32((uint64_t{c.outter} * iPad + 40) * 4),
                                       32};
  rp::Images want;
  want.src = Scores<T>(seed, sizes[0] / es);
  want.idx = std::vector<uint8_t>(sizes[1]);
  for (uint32_t i = 0; i < sizes[1] / 4; ++i) {
    const uint32_t v = 5000 + 3 * i;
    std::memcpy(want.idx.data() + i * 4, &v, 4);
  }
  want.tmp = std::vector<uint8_t>(sizes[2], 0xa5);
  want.dv = std::vector<uint8_t>(sizes[3], 0xa5);
  want.di = std::vector<uint8_t>(sizes[4], 0xa5);
  rp::Images got = want;
  lngrad::aicore::LaunchOptions o;
  o.soc = k950;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        Bufs b(sizes);
        std::vector<uint8_t>* img[5] = {&got.src, &got.idx, &got.tmp, &got.dv, &got.di};
        for (int i = 0; i < 5; ++i) {
          std::memcpy(b.buf[i].Get<uint8_t>().HostPtr(), img[i]->data(), sizes[i]);
        }
        TopkTiling tiling;
        tiling.tmpLocalSize = 0;
        const TopKInfo info{static_cast<int32_t>(c.outter), static_cast<int32_t>(c.inner),
                            static_cast<int32_t>(c.n)};
        TopK<T, init, false, reuse, mode, config>(
            b.buf[3].Get<T>(), b.buf[4].Get<int32_t>(), b.buf[0].Get<T>(), b.buf[1].Get<int32_t>(),
            b.buf[5].Get<bool>(), b.buf[2].Get<uint8_t>(), static_cast<int32_t>(c.k), tiling, info,
            isLargest);
        for (int i = 0; i < 5; ++i) {
          std::memcpy(img[i]->data(), b.buf[i].Get<uint8_t>().HostPtr(), sizes[i]);
        }
      },
      o);
  ASSERT_TRUE(st.ok()) << st.ToString();
  rp::Case rc;
  rc.es = es;
  rc.kind = KindOf<T>();
  rc.outter = c.outter;
  rc.inner = c.inner;
  rc.n = c.n;
  rc.k = c.k;
  rc.init = init;
  rc.nsmall = nsmall;
  rc.largest = largest;
  rc.sorted = config.sorted;
  rc.reuse = reuse;
  rp::Run(rc, want);
  EXPECT_EQ(Diff(got.dv, want.dv, UINT64_MAX, "dstValue"), "");
  EXPECT_EQ(Diff(got.di, want.di, UINT64_MAX, "dstIndex"), "");
  EXPECT_EQ(Diff(got.src, want.src, UINT64_MAX, "src"), "");
  EXPECT_EQ(Diff(got.idx, want.idx, UINT64_MAX, "srcIndex"), "");
  EXPECT_EQ(Diff(got.tmp, want.tmp, UINT64_MAX, "tmpLocal"), "");
}

constexpr TopKConfig kSorted = {TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, true};
constexpr TopKConfig kUnsorted = {TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, false};
constexpr TopKConfig kSmallest = {TopKAlgo::RADIX_SELECT, TopKOrder::SMALLEST, false};
constexpr TopKConfig kLargest = {TopKAlgo::RADIX_SELECT, TopKOrder::LARGEST, true};

template <typename T, bool init, bool reuse, const TopKConfig& config>
void Normal(uint32_t& seed) {
  for (bool largest : {true, false}) {
    const Case cases[] = {
        {2, 32, 32, 1},     {3, 96, 90, 13},       {4, 64, 50, 50},
        {1, 128, 128, 128}, {2, 160, 150, 33},     {2, 800, 777, 100},
        {1, 1024, 1000, 1}, {1, 2016, 2016, 2016}, {1, 4064, 4000, 300},
    };
    for (const Case& c : cases) {
      Check<T, init, reuse, TopKMode::TOPK_NORMAL, config>(c, largest, ++seed);
    }
  }
}

template <typename T, bool init, bool reuse, const TopKConfig& config>
void NSmall(uint32_t& seed) {
  for (bool largest : {true, false}) {
    const Case cases[] = {
        {5, 32, 32, 3}, {4, 32, 32, 17}, {1, 32, 30, 30}, {7, 32, 31, 1}, {3, 32, 32, 29}};
    for (const Case& c : cases) {
      Check<T, init, reuse, TopKMode::TOPK_NSMALL, config>(c, largest, ++seed);
    }
  }
}

template <typename T>
void EveryForm(uint32_t seed) {
  Normal<T, false, false, kSorted>(seed);
  Normal<T, true, false, kUnsorted>(seed);
  Normal<T, false, true, kUnsorted>(seed);
  Normal<T, true, true, kSorted>(seed);
  Normal<T, false, false, kSmallest>(seed);
  NSmall<T, false, false, kUnsorted>(seed);
  NSmall<T, true, false, kSorted>(seed);
  NSmall<T, false, true, kLargest>(seed);
}

TEST(TopKRadix3510Replay, Float) { EveryForm<float>(100); }
TEST(TopKRadix3510Replay, Half) { EveryForm<half>(200); }
#ifndef TK9_FLOATS_ONLY
TEST(TopKRadix3510Replay, Bfloat16) { EveryForm<bfloat16_t>(300); }
TEST(TopKRadix3510Replay, Int8) { EveryForm<int8_t>(400); }
TEST(TopKRadix3510Replay, Uint8) { EveryForm<uint8_t>(500); }
TEST(TopKRadix3510Replay, Int16) { EveryForm<int16_t>(600); }
TEST(TopKRadix3510Replay, Uint16) { EveryForm<uint16_t>(700); }
TEST(TopKRadix3510Replay, Int32) { EveryForm<int32_t>(800); }
TEST(TopKRadix3510Replay, Uint32) { EveryForm<uint32_t>(900); }
#endif

// Checked mode: a scratch below the select's own layout (InitializeTempBuffer's; the kit's
// GetTopKMaxMinTmpSize minimum without the sort's part) is refused. float, TOPK_NORMAL, inner 64,
// no isInitIndex, the largest: 256 bytes of indexes, 256 of gathered keys, 512 of gathered
// indexes and histogram, 256 of twiddled keys. With `sorted` (k 8), the radix Sort's scratch
// from the twiddled keys (1024 bytes in) to the end of its writes: 512 of exclusive sum, 32
// bytes, 64 u16 indexes, 128 of permutation, 128 of indexes, then 8 floats: 1920 bytes.
TEST(TopKRadix3510Replay, CheckedModeRefusesAScratchBelowTheLayout) {
  using lngrad::aicore::test::Ub;
  auto call = [](uint32_t bytes, bool sorted) {
    return [bytes, sorted](Ub& ub) {
      TopkTiling tiling;
      tiling.tmpLocalSize = 0;
      LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
      tmp.SetSize(bytes);
      if (sorted) {
        TopK<float, false, false, false, TopKMode::TOPK_NORMAL, kSorted>(
            ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2), ub.Get<int32_t>(1),
            ub.Get<bool>(3), tmp, 8, tiling, TopKInfo{2, 64, 60});
      } else {
        TopK<float, false, false, false, TopKMode::TOPK_NORMAL, kUnsorted>(
            ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2), ub.Get<int32_t>(1),
            ub.Get<bool>(3), tmp, 8, tiling, TopKInfo{2, 64, 60});
      }
    };
  };
  for (const uint32_t bytes : {1279u, 1280u}) {
    lngrad::aicore::test::ExpectCheck(call(bytes, false), bytes < 1280 ? "tmp_buffer" : "",
                                      bytes < 1280 ? "its layout needs 1280" : "", k950);
  }
  for (const uint32_t bytes : {1280u, 1919u, 1920u}) {
    lngrad::aicore::test::ExpectCheck(
        call(bytes, true), bytes < 1920 ? "tmp_buffer" : "",
        bytes < 1920 ? "its layout needs 1920 (with the radix Sort's scratch)" : "", k950);
  }
}

// The 950 Sort's RADIX_SORT with both indexes and sharedTmpBuffer (lib/sort/sort.h
// RadixSort950) in the form TopK's `sorted` calls it (unsigned values, descending, int32_t
// indexes), against the replay's Sort: dst, dstIndex, src, srcIndex and the whole scratch
// (filled with 0xa5) bit for bit; counts from 1 to past four 256-value blocks, ties.
template <typename T>
void CheckSort(uint32_t count, uint32_t seed) {
  constexpr uint32_t es = sizeof(T);
  static constexpr SortConfig kDescend = {SortType::RADIX_SORT, true};
  SCOPED_TRACE(::testing::Message() << es << "-byte Sort, count " << count);
  const uint64_t align = (count + 31) / 32 * 32;
  const std::vector<uint32_t> sizes = {
      Up32(uint64_t{count} * es + 64), Up32(uint64_t{count} * 4 + 64),
      Up32(512 + 7 * align + (es == 1 ? 0 : (es + 4) * align) + 96),
      Up32(uint64_t{count} * es + 64), Up32(uint64_t{count} * 4 + 64)};
  rp::Images want;
  want.src = Scores<T>(seed, sizes[0] / es);
  want.idx = std::vector<uint8_t>(sizes[1]);
  for (uint32_t i = 0; i < sizes[1] / 4; ++i) {
    const uint32_t v = 7000 + 5 * i;
    std::memcpy(want.idx.data() + i * 4, &v, 4);
  }
  want.tmp = std::vector<uint8_t>(sizes[2], 0xa5);
  want.dv = std::vector<uint8_t>(sizes[3], 0xa5);
  want.di = std::vector<uint8_t>(sizes[4], 0xa5);
  rp::Images got = want;
  lngrad::aicore::LaunchOptions o;
  o.soc = k950;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        Bufs b({sizes[0], sizes[1], sizes[2], sizes[3], sizes[4]});
        std::vector<uint8_t>* img[5] = {&got.src, &got.idx, &got.tmp, &got.dv, &got.di};
        for (int i = 0; i < 5; ++i) {
          std::memcpy(b.buf[i].Get<uint8_t>().HostPtr(), img[i]->data(), sizes[i]);
        }
        Sort<T, int32_t, false, kDescend>(b.buf[3].Get<T>(), b.buf[4].Get<int32_t>(),
                                          b.buf[0].Get<T>(), b.buf[1].Get<int32_t>(),
                                          b.buf[2].Get<uint8_t>(), count);
        for (int i = 0; i < 5; ++i) {
          std::memcpy(img[i]->data(), b.buf[i].Get<uint8_t>().HostPtr(), sizes[i]);
        }
      },
      o);
  ASSERT_TRUE(st.ok()) << st.ToString();
  rp::SortRadixDescend(es, count, want);
  EXPECT_EQ(Diff(got.dv, want.dv, UINT64_MAX, "dst"), "");
  EXPECT_EQ(Diff(got.di, want.di, UINT64_MAX, "dstIndex"), "");
  EXPECT_EQ(Diff(got.src, want.src, UINT64_MAX, "src"), "");
  EXPECT_EQ(Diff(got.idx, want.idx, UINT64_MAX, "srcIndex"), "");
  EXPECT_EQ(Diff(got.tmp, want.tmp, UINT64_MAX, "sharedTmpBuffer"), "");
}

TEST(TopKRadix3510Replay, SortRadixScratchIsTheKits) {
  uint32_t seed = 1000;
  for (const uint32_t count : {1u, 7u, 32u, 100u, 256u, 257u, 600u, 1100u}) {
    CheckSort<uint8_t>(count, ++seed);
    CheckSort<uint16_t>(count, ++seed);
    CheckSort<uint32_t>(count, ++seed);
  }
}

// A sharedTmpBuffer below the end of RADIX_SORT's writes is refused: 100 uint32_t values with
// int32_t indexes write up to 512 + 11 * 128 + 400 = 2320 bytes.
TEST(TopKRadix3510Replay, SortRadixRefusesAScratchBelowItsWrites) {
  using lngrad::aicore::test::Ub;
  static constexpr SortConfig kDescend = {SortType::RADIX_SORT, true};
  for (const uint32_t bytes : {2319u, 2320u}) {
    lngrad::aicore::test::ExpectCheck(
        [bytes](Ub& ub) {
          LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
          tmp.SetSize(bytes);
          Sort<uint32_t, int32_t, false, kDescend>(ub.Get<uint32_t>(0), ub.Get<int32_t>(1),
                                                   ub.Get<uint32_t>(2), ub.Get<int32_t>(1)[2048],
                                                   tmp, 100u);
        },
        bytes < 2320 ? "tmp_buffer" : "", bytes < 2320 ? "write 2320 bytes" : "", k950);
  }
}

}  // namespace
