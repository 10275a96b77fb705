// lngrad's TopK on arch 2002 (Ascend310P1) against the replay of the kit's topk_v200_impl.h
// (replay_topk_v200.h): the whole dstValue, dstIndex, src, srcIndex and tmpLocal buffers after the
// call (dstValue's and the scratch's T elements with NaN equal to any NaN: the Muls(-1) of the
// row for !isLargest and over dstValue's maskOffset, its random padding included, give some NaNs
// other signs in lngrad than in the replay's float product, which the pages do not settle; for
// isLargest the whole scratch bit for bit; everything else bit for bit), TOPK_NORMAL and
// TOPK_NSMALL, half and float, largest and smallest, isInitIndex, isHasfinish and isReuseSource, k
// from 1 to inner, rows that are not a multiple of the four-way merge (two-way tails), n below
// inner, NSMALL with n <= 16 (no merge), on rows with ties, +0 and -0, infinities, subnormals and
// NaNs of both signs, and srcIndexLocal values half or float cannot hold (rounded, or past half's
// range). The scratch starts as random bytes, so the proposals' unused elements (stale bytes the
// kit's RpSort16 and MrgSort4 carry) are compared too.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_topk_v200.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
namespace rp = lngrad_replay::topk200;

constexpr const char* k310P = "Ascend310P1";
// UB buffers: src, srcIndex, tmp, dstValue, dstIndex, finish.
constexpr uint32_t kSrc = 16384, kTmp = 153600, kDst = 16384;

std::vector<uint8_t> RandomBytes(uint32_t seed, uint32_t n) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> b(n);
  for (uint8_t& x : b) x = static_cast<uint8_t>(gen());
  return b;
}

template <typename T>
T Bits(uint32_t b) {
  if constexpr (sizeof(T) == 2) {
    const uint16_t h = static_cast<uint16_t>(b);
    T v;
    std::memcpy(&v, &h, 2);
    return v;
  } else {
    T v;
    std::memcpy(&v, &b, 4);
    return v;
  }
}

// Values with ties, signed zeros, infinities, subnormals and NaNs with payloads, both signs.
template <typename T>
std::vector<uint8_t> Values(uint32_t seed, uint32_t count) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> pick(0, 17);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  const bool h = sizeof(T) == 2;
  std::vector<T> v(count);
  for (T& x : v) {
    const int p = pick(gen);
    x = T(static_cast<float>(p % 4));
    if (p == 4) x = T(0.0f);
    if (p == 5) x = T(-0.0f);
    if (p == 6) x = Bits<T>(h ? 0x7E01u : 0x7FC00005u);
    if (p == 7) x = Bits<T>(h ? 0xFE00u : 0xFFC00000u);
    if (p == 8) x = T(INFINITY);
    if (p == 9) x = T(-INFINITY);
    if (p == 10) x = Bits<T>(h ? 0x0003u : 0x00000101u);  // subnormal
    if (p == 11) x = Bits<T>(h ? 0x8201u : 0x80400000u);  // negative subnormal
    if (p >= 12) x = T(d(gen));
  }
  std::vector<uint8_t> b(count * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// srcIndexLocal: small values, values half rounds (2049), float rounds (2^24 + 1), past half's
// range (70000), extremes and negatives.
std::vector<uint8_t> Indexes(uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> b(kSrc);
  const int32_t odd[] = {2049, 4097, 16777217, 70000, INT32_MAX, INT32_MIN, -7, 65519, 65520};
  for (uint32_t i = 0; i < kSrc / 4; ++i) {
    const int32_t v = gen() % 4 == 0 ? odd[gen() % 9] : static_cast<int32_t>(5000 + 3 * i);
    std::memcpy(b.data() + 4 * i, &v, 4);
  }
  return b;
}

template <typename T>
std::string Diff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                 const char* what) {
  if (got.size() != want.size()) return std::string(what) + ": sizes differ";
  for (size_t p = 0; p + sizeof(T) <= got.size(); p += sizeof(T)) {
    if (std::memcmp(got.data() + p, want.data() + p, sizeof(T)) == 0) continue;
    T a, b;
    std::memcpy(&a, got.data() + p, sizeof(T));
    std::memcpy(&b, want.data() + p, sizeof(T));
    if (std::isnan(static_cast<float>(a)) && std::isnan(static_cast<float>(b))) continue;
    return std::string(what) + ": byte " + std::to_string(p) + " differs";
  }
  return "";
}

struct Case {
  int32_t outter, inner, n, k;
};

template <typename T, bool init, bool finish, bool reuse, TopKMode mode>
void Check(const Case& cs, bool largest, uint32_t seed, bool stack = false) {
  constexpr bool nsmall = mode == TopKMode::TOPK_NSMALL;
  SCOPED_TRACE(::testing::Message()
               << sizeof(T) << "-byte " << (nsmall ? "NSMALL " : "NORMAL ") << cs.outter << "x"
               << cs.inner << " n " << cs.n << " k " << cs.k << (largest ? " largest" : " smallest")
               << " init " << init << " finish " << finish << " stack " << stack);
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k310P);
  ASSERT_TRUE(
      TopKTilingFunc(*platform, cs.inner, cs.outter, cs.k, sizeof(T), init, mode, largest, tiling));
  const uint32_t tmpBytes = static_cast<uint32_t>(tiling.tmpLocalSize) * sizeof(T);
  ASSERT_LE(tmpBytes, kTmp);
  rp::Io want;
  want.src = Values<T>(seed, kSrc / sizeof(T));
  want.idx = Indexes(seed + 4);
  want.tmp = RandomBytes(seed + 1, kTmp);
  want.dv = RandomBytes(seed + 2, kDst);
  want.di = RandomBytes(seed + 3, kDst);
  want.fin = std::vector<uint8_t>(32);
  for (uint32_t j = 0; j < 32; ++j) want.fin[j] = j % 3 == 1 ? (j % 2 ? 1 : 0x80) : 0;
  rp::Io got = want;
  lngrad::aicore::LaunchOptions o;
  o.soc = k310P;
  const lngrad::Status s = lngrad::aicore::Launch(
      1,
      [&] {
        TPipe pipe;
        TBuf<> b[6];
        const uint32_t sizes[6] = {kSrc, kSrc, stack ? 32u : kTmp, kDst, kDst, 32};
        std::vector<uint8_t>* io[6] = {&got.src, &got.idx, &got.tmp, &got.dv, &got.di, &got.fin};
        for (int i = 0; i < 6; ++i) {
          pipe.InitBuffer(b[i], sizes[i]);
          if (!(stack && i == 2))
            std::memcpy(b[i].Get<uint8_t>().HostPtr(), io[i]->data(), sizes[i]);
        }
        const TopKInfo info{cs.outter, cs.inner, cs.n};
        if (stack) {
          LocalTensor<uint8_t> st = lngrad::aicore::math_detail::StackTmp();
          std::memcpy(st.HostPtr(), got.tmp.data(), tmpBytes);
          TopK<T, init, finish, reuse, mode>(b[3].Get<T>(), b[4].Get<int32_t>(), b[0].Get<T>(),
                                             b[1].Get<int32_t>(), b[5].Get<bool>(), cs.k, tiling,
                                             info, largest);
          std::memcpy(got.tmp.data(), st.HostPtr(), tmpBytes);
        } else {
          TopK<T, init, finish, reuse, mode>(
              b[3].Get<T>(), b[4].Get<int32_t>(), b[0].Get<T>(), b[1].Get<int32_t>(),
              b[5].Get<bool>(), b[2].Get<uint8_t>(tmpBytes), cs.k, tiling, info, largest);
        }
        for (int i = 0; i < 6; ++i) {
          if (stack && i == 2) continue;
          std::memcpy(io[i]->data(), b[i].Get<uint8_t>().HostPtr(), sizes[i]);
        }
      },
      o);
  ASSERT_TRUE(s.ok()) << s.ToString();
  rp::Tiling t;
  t.tmpLocalSize = tiling.tmpLocalSize;
  t.innerDataSize = tiling.innerDataSize;
  t.srcIndexOffset = tiling.srcIndexOffset;
  t.sortRepeat = tiling.sortRepeat;
  t.copyUbToUbBlockCount = tiling.copyUbToUbBlockCount;
  t.mrgSortSrc1offset = tiling.mrgSortSrc1offset;
  t.mrgSortSrc2offset = tiling.mrgSortSrc2offset;
  t.mrgSortSrc3offset = tiling.mrgSortSrc3offset;
  t.mrgSortRepeat = tiling.mrgSortRepeat;
  t.mrgSortTwoQueueSrc1Offset = tiling.mrgSortTwoQueueSrc1Offset;
  t.kAlignFourBytes = tiling.kAlignFourBytes;
  t.kAlignTwoBytes = tiling.kAlignTwoBytes;
  t.maskOffset = tiling.maskOffset;
  t.topkNSmallSrcIndexOffset = tiling.topkNSmallSrcIndexOffset;
  t.allDataSize = tiling.allDataSize;
  t.vreduceValMask0 = static_cast<uint32_t>(tiling.vreduceValMask0);
  t.vreduceValMask1 = static_cast<uint32_t>(tiling.vreduceValMask1);
  t.vreduceIdxMask0 = static_cast<uint32_t>(tiling.vreduceIdxMask0);
  const rp::Call c{sizeof(T) == 2, init, finish, nsmall, largest, cs.outter, cs.inner, cs.n, cs.k};
  rp::ReplayTopK200(want, c, t);
  EXPECT_EQ(got.di == want.di, true) << "dstIndex";
  EXPECT_EQ(Diff<T>(got.dv, want.dv, "dstValue"), "");
  EXPECT_EQ(got.src == want.src, true) << "src";
  EXPECT_EQ(got.idx == want.idx, true) << "srcIndex";
  if (stack) want.tmp.resize(tmpBytes), got.tmp.resize(tmpBytes);
  EXPECT_EQ(Diff<T>(got.tmp, want.tmp, "the scratch"), "");
  if (largest) {
    EXPECT_EQ(got.tmp == want.tmp, true) << "the scratch, no Muls: bit for bit";
  }
}

template <typename T>
void Normal(bool largest, uint32_t seed) {
  constexpr TopKMode N = TopKMode::TOPK_NORMAL;
  Check<T, false, false, false, N>({3, 96, 90, 13}, largest, ++seed);
  Check<T, true, true, false, N>({4, 64, 50, 7}, largest, ++seed);
  Check<T, false, true, true, N>({2, 32, 32, 1}, largest, ++seed);
  Check<T, true, false, false, N>({2, 160, 160, 160}, largest, ++seed);
  Check<T, false, false, false, N>({1, 1024, 1000, 64}, largest, ++seed);
  Check<T, true, true, false, N>({3, 352, 300, 33}, largest, ++seed);
  Check<T, false, false, false, N>({1, 2016, 2016, 500}, largest, ++seed);
  Check<T, false, true, false, N>({5, 32, 20, 20}, largest, ++seed, true);
}

TEST(TopKReplay2002, NormalFloat) {
  Normal<float>(true, 100);
  Normal<float>(false, 200);
  Check<float, true, false, false, TopKMode::TOPK_NORMAL>({1, 2048, 2048, 2048}, true, 300);
}

TEST(TopKReplay2002, NormalHalf) {
  Normal<half>(true, 400);
  Normal<half>(false, 500);
  Check<half, true, false, false, TopKMode::TOPK_NORMAL>({1, 4064, 4064, 37}, false, 600);
  Check<half, false, false, false, TopKMode::TOPK_NORMAL>({1, 2048, 2048, 2048}, true, 601);
}

template <typename T>
void NSmall(bool largest, uint32_t seed) {
  constexpr TopKMode S = TopKMode::TOPK_NSMALL;
  Check<T, false, false, false, S>({5, 32, 32, 3}, largest, ++seed);
  Check<T, true, false, false, S>({4, 32, 32, 17}, largest, ++seed);
  Check<T, false, false, true, S>({3, 32, 16, 16}, largest, ++seed);
  Check<T, true, false, false, S>({1, 32, 10, 10}, largest, ++seed);
  Check<T, false, false, false, S>({6, 32, 32, 32}, largest, ++seed);
  Check<T, false, false, false, S>({2, 32, 17, 1}, largest, ++seed, true);
}

TEST(TopKReplay2002, NSmall) {
  NSmall<float>(true, 700);
  NSmall<float>(false, 800);
  NSmall<half>(true, 900);
  NSmall<half>(false, 1000);
}

// The sequence under every sanitizer tool, the scratch not written before the call: the
// instructions ordered as the kit orders them on one pipe.
std::string Findings(bool nsmall, bool halves) {
  using namespace lngrad::aicore;
  LaunchOptions o;
  o.sanitize = san::kAllTools;
  o.soc = k310P;
  const int32_t inner = nsmall ? 32 : 96, outter = 3, k = 5;
  const uint32_t es = halves ? 2 : 4;
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k310P);
  const TopKMode mode = nsmall ? TopKMode::TOPK_NSMALL : TopKMode::TOPK_NORMAL;
  EXPECT_TRUE(TopKTilingFunc(*platform, inner, outter, k, es, false, mode, false, tiling));
  std::vector<BlockFailure> failures;
  (void)detail::RunBlocks(
      "kernel", 1,
      [&] {
        TPipe pipe;
        TBuf<> s, d, i, t, f;
        pipe.InitBuffer(s, 4096);
        pipe.InitBuffer(d, 1024);
        pipe.InitBuffer(i, 1024);
        pipe.InitBuffer(t, 16384);
        pipe.InitBuffer(f, 32);
        Duplicate(s.Get<float>(), 2.0f, 1024);
        Duplicate(d.Get<float>(), 0.0f, 256);
        Duplicate(f.Get<int16_t>(), int16_t{0}, 16);
        PipeBarrier<PIPE_V>();
        const TopKInfo info{outter, inner, inner};
        LocalTensor<uint8_t> tmp = t.Get<uint8_t>(tiling.tmpLocalSize * es);
        const auto run = [&](auto zero) {
          using T = decltype(zero);
          if (nsmall) {
            TopK<T, false, false, false, TopKMode::TOPK_NSMALL>(
                d.Get<T>(), i.Get<int32_t>(), s.Get<T>(), i.Get<int32_t>(), f.Get<bool>(), tmp, k,
                tiling, info, false);
          } else {
            TopK<T, false, true>(d.Get<T>(), i.Get<int32_t>(), s.Get<T>(), i.Get<int32_t>(),
                                 f.Get<bool>(), tmp, k, tiling, info, false);
          }
        };
        if (halves) {
          run(half{});
        } else {
          run(0.0f);
        }
      },
      o, &failures);
  std::string r;
  for (const BlockFailure& b : failures) r += "[" + b.check + "] " + b.message + "\n";
  return r;
}

TEST(TopKReplay2002, UnderTheSanitizer) {
  for (bool halves : {false, true}) {
    EXPECT_EQ(Findings(false, halves), "");
    EXPECT_EQ(Findings(true, halves), "");
  }
}
// What 2002's sequence gives that 2201's stable sort does not, value by value: the largest of a
// row of -1s and one -0 comes out +0 (Adds(x, 0)), and its srcIndexLocal index 2^24 + 1, carried
// as float in the proposals, comes back 2^24; on Ascend910B1 the -0 and the index stay.
std::pair<uint32_t, int32_t> LargestOfNegatives(const char* soc) {
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  EXPECT_TRUE(TopKTilingFunc(*platform, 32, 1, 1, 4, true, TopKMode::TOPK_NORMAL, true, tiling));
  uint32_t value = 0;
  int32_t index = 0;
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  const lngrad::Status s = lngrad::aicore::Launch(
      1,
      [&] {
        TPipe pipe;
        TBuf<> b[5];
        for (TBuf<>& t : b) pipe.InitBuffer(t, 8192);
        const LocalTensor<float> src = b[0].Get<float>();
        const LocalTensor<int32_t> ids = b[1].Get<int32_t>();
        for (int i = 0; i < 32; ++i) {
          src.SetValue(i, i == 3 ? -0.0f : -1.0f);
          ids.SetValue(i, i == 3 ? 16777217 : i);
        }
        const TopKInfo info{1, 32, 32};
        TopK<float, true>(b[2].Get<float>(), b[3].Get<int32_t>(), src, ids, b[4].Get<bool>(),
                          b[4].Get<uint8_t>(), 1, tiling, info, true);
        const float v = b[2].Get<float>().GetValue(0);
        std::memcpy(&value, &v, 4);
        index = b[3].Get<int32_t>().GetValue(0);
      },
      o);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return {value, index};
}

TEST(TopKReplay2002, ZeroAndIndexComeBackAsTheProposalsCarryThem) {
  EXPECT_EQ(LargestOfNegatives(k310P), std::make_pair(0x00000000u, 16777216));
  EXPECT_EQ(LargestOfNegatives("Ascend910B1"), std::make_pair(0x80000000u, 16777217));
}

// Checked mode refuses what the kit's kernel check asserts: finish flags in TOPK_NSMALL.
TEST(TopKReplay2002, CheckedModeRefusesFinishFlagsInNSmall) {
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k310P);
  ASSERT_TRUE(TopKTilingFunc(*platform, 32, 2, 4, 4, false, TopKMode::TOPK_NSMALL, true, tiling));
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  std::string check;
  lngrad::aicore::LaunchOptions o;
  o.soc = k310P;
  (void)lngrad::aicore::Launch(
      1,
      [&] {
        TPipe pipe;
        TBuf<> b[5];
        for (TBuf<>& t : b) pipe.InitBuffer(t, 8192);
        const TopKInfo info{2, 32, 32};
        try {
          TopK<float, false, true, false, TopKMode::TOPK_NSMALL>(
              b[2].Get<float>(), b[3].Get<int32_t>(), b[0].Get<float>(), b[1].Get<int32_t>(),
              b[4].Get<bool>(), b[4].Get<uint8_t>(), 4, tiling, info, true);
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          check = e.check() + ": " + e.message();
        }
      },
      o);
  lngrad::aicore::SetCheckedMode(was);
  EXPECT_NE(check.find("topk_params: TopK: isHasfinish must be false in TOPK_NSMALL"),
            std::string::npos)
      << check;
}

// And the operand sizes it asserts: TOPK_NORMAL's dstValue must hold k rounded up to 32 bytes
// per row (here 9 floats -> 16, times 2 rows), though the sequence stores only k of each row.
TEST(TopKReplay2002, CheckedModeRefusesADstValueShorterThanThePaddedRows) {
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k310P);
  ASSERT_TRUE(TopKTilingFunc(*platform, 32, 2, 9, 4, false, TopKMode::TOPK_NORMAL, true, tiling));
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  std::string check;
  lngrad::aicore::LaunchOptions o;
  o.soc = k310P;
  (void)lngrad::aicore::Launch(
      1,
      [&] {
        TPipe pipe;
        TBuf<> b[5];
        for (TBuf<>& t : b) pipe.InitBuffer(t, 8192);
        const TopKInfo info{2, 32, 32};
        try {
          TopK<float>(b[2].Get<float>(25), b[3].Get<int32_t>(), b[0].Get<float>(),
                      b[1].Get<int32_t>(), b[4].Get<bool>(), b[4].Get<uint8_t>(), 9, tiling, info,
                      true);
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          check = e.check() + ": " + e.message();
        }
      },
      o);
  lngrad::aicore::SetCheckedMode(was);
  EXPECT_NE(check.find("TopK dstValueLocal"), std::string::npos) << check;
}

}  // namespace
