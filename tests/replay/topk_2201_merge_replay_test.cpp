// lngrad's TopK on arch 2201 (Ascend910B1; lib/sort/topk_2201.h) against the replay of the kit's
// 2201 sequence (replay_topk_2201_merge.{h,cpp}: topk_common_impl.h + topk_v220_impl.h, a
// separate reading by the same helper, tk1). Compared: the whole srcLocal, dstValueLocal,
// dstIndexLocal and tmpLocal buffers (tmpLocal the tiling's tmpLocalSize plus 0, 40 or 4096
// bytes past it; dstValue and dstIndex with 40 elements and more past the last row), bit for
// bit, except that where the smallest's Muls(-1) met a NaN any NaN equals any NaN (the kit's
// sources do not say what the device's Muls makes of a NaN's bits). Rows with ties, +0 and -0,
// infinities and NaNs of both signs, subnormals; TOPK_NORMAL and TOPK_NSMALL, largest and
// smallest, isInitIndex, isHasfinish and isReuseSource both ways, float and half, k from 1 to
// inner, inner 32 .. 4096 with run tails the four-way rounds do not reach.
#include <gtest/gtest.h>

#include <bit>
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
#include "replay_topk_2201_merge.h"
#include "scratch_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
namespace rp = lngrad_replay::topk2201;

constexpr const char* k910 = "Ascend910B1";

struct Bufs {
  TPipe pipe;
  std::vector<TBuf<>> buf;
  explicit Bufs(const std::vector<uint32_t>& sizes) : buf(sizes.size()) {
    for (size_t i = 0; i < sizes.size(); ++i) pipe.InitBuffer(buf[i], sizes[i]);
  }
};

uint32_t Up32(uint64_t b) { return static_cast<uint32_t>((b + 31) / 32 * 32); }

template <typename T>
T Bits(uint32_t b) {
  if constexpr (sizeof(T) == 4) {
    return std::bit_cast<T>(b);
  } else {
    return std::bit_cast<T>(static_cast<uint16_t>(b));
  }
}

// A row of scores: small integers (ties), +0, -0, NaNs of both signs, infinities, subnormals
// and random numbers.
template <typename T>
std::vector<uint8_t> Scores(uint32_t seed, uint64_t count) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> pick(0, 17);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  std::vector<T> v(count);
  const bool f = sizeof(T) == 4;
  for (T& x : v) {
    const int p = pick(gen);
    x = T(static_cast<float>(p % 4));
    if (p == 4) x = T(0.0f);
    if (p == 5) x = T(-0.0f);
    if (p == 6) x = Bits<T>(f ? 0x7FC00000u : 0x7E00u);
    if (p == 7) x = Bits<T>(f ? 0xFFC00123u : 0xFE01u);
    if (p == 8) x = T(INFINITY);
    if (p == 9) x = T(-INFINITY);
    if (p == 10) x = Bits<T>(f ? 0x00000005u : 0x0003u);
    if (p == 11) x = Bits<T>(f ? 0x80400000u : 0x8200u);
    if (p >= 12) x = T(d(gen));
  }
  std::vector<uint8_t> b(count * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<uint8_t> RandomBytes(uint32_t seed, uint64_t n) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> b(n);
  for (uint8_t& x : b) x = static_cast<uint8_t>(gen());
  return b;
}

bool IsNaN(const std::vector<uint8_t>& m, uint64_t at, uint32_t es) {
  if (es == 4) {
    uint32_t w;
    std::memcpy(&w, m.data() + at, 4);
    return (w & 0x7F800000u) == 0x7F800000u && (w & 0x7FFFFFu) != 0;
  }
  uint16_t h;
  std::memcpy(&h, m.data() + at, 2);
  return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0;
}

// The first element of `es` bytes where the buffers differ ("" if none); NaN equals any NaN
// where `nanOk` says so.
std::string Diff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, uint32_t es,
                 const char* what, const std::function<bool(uint64_t)>& nanOk) {
  if (got.size() != want.size()) return std::string(what) + ": sizes differ";
  for (uint64_t p = 0; p + es <= got.size(); p += es) {
    if (std::memcmp(got.data() + p, want.data() + p, es) == 0) continue;
    if (nanOk(p) && IsNaN(got, p, es) && IsNaN(want, p, es)) continue;
    return std::string(what) + ": byte " + std::to_string(p) + " differs";
  }
  return "";
}

rp::Tiling ReplayTiling(const TopkTiling& t) {
  rp::Tiling r;
  r.innerDataSize = t.innerDataSize;
  r.srcIndexOffset = t.srcIndexOffset;
  r.sortRepeat = static_cast<int32_t>(t.sortRepeat);
  r.mrgSortRepeat = t.mrgSortRepeat;
  r.copyUbToUbBlockCount = static_cast<int32_t>(t.copyUbToUbBlockCount);
  r.mrgSortSrc1offset = t.mrgSortSrc1offset;
  r.mrgSortSrc2offset = t.mrgSortSrc2offset;
  r.mrgSortSrc3offset = t.mrgSortSrc3offset;
  r.mrgSortTwoQueueSrc1Offset = t.mrgSortTwoQueueSrc1Offset;
  r.kAlignFourBytes = t.kAlignFourBytes;
  r.kAlignTwoBytes = t.kAlignTwoBytes;
  r.maskOffset = t.maskOffset;
  r.maskVreducev2FourBytes = t.maskVreducev2FourBytes;
  r.maskVreducev2TwoBytes = t.maskVreducev2TwoBytes;
  r.allDataSize = t.allDataSize;
  r.topkMrgSrc1MaskSizeOffset = t.topkMrgSrc1MaskSizeOffset;
  r.topkNSmallSrcIndexOffset = t.topkNSmallSrcIndexOffset;
  r.tmpLocalSize = t.tmpLocalSize;
  r.vreduceValMask0 = t.vreduceValMask0;
  r.vreduceValMask1 = t.vreduceValMask1;
  r.vreduceIdxMask0 = t.vreduceIdxMask0;
  r.vreduceIdxMask1 = t.vreduceIdxMask1;
  const uint16_t h[8] = {t.vreducehalfValMask0, t.vreducehalfValMask1, t.vreducehalfValMask2,
                         t.vreducehalfValMask3, t.vreducehalfValMask4, t.vreducehalfValMask5,
                         t.vreducehalfValMask6, t.vreducehalfValMask7};
  for (int i = 0; i < 8; ++i) r.halfValMask[i] = h[i];
  return r;
}

// The first TopkTiling field where lngrad's host tiling and the kit's differ ("" if none).
std::string TilingDiff(const rp::Tiling& a, const rp::Tiling& b) {
  const std::pair<const char*, std::pair<int64_t, int64_t>> f[] = {
      {"innerDataSize", {a.innerDataSize, b.innerDataSize}},
      {"srcIndexOffset", {a.srcIndexOffset, b.srcIndexOffset}},
      {"sortRepeat", {a.sortRepeat, b.sortRepeat}},
      {"mrgSortRepeat", {a.mrgSortRepeat, b.mrgSortRepeat}},
      {"copyUbToUbBlockCount", {a.copyUbToUbBlockCount, b.copyUbToUbBlockCount}},
      {"mrgSortSrc1offset", {a.mrgSortSrc1offset, b.mrgSortSrc1offset}},
      {"mrgSortSrc2offset", {a.mrgSortSrc2offset, b.mrgSortSrc2offset}},
      {"mrgSortSrc3offset", {a.mrgSortSrc3offset, b.mrgSortSrc3offset}},
      {"mrgSortTwoQueueSrc1Offset", {a.mrgSortTwoQueueSrc1Offset, b.mrgSortTwoQueueSrc1Offset}},
      {"kAlignFourBytes", {a.kAlignFourBytes, b.kAlignFourBytes}},
      {"kAlignTwoBytes", {a.kAlignTwoBytes, b.kAlignTwoBytes}},
      {"maskOffset", {a.maskOffset, b.maskOffset}},
      {"maskVreducev2FourBytes", {a.maskVreducev2FourBytes, b.maskVreducev2FourBytes}},
      {"maskVreducev2TwoBytes", {a.maskVreducev2TwoBytes, b.maskVreducev2TwoBytes}},
      {"allDataSize", {a.allDataSize, b.allDataSize}},
      {"topkMrgSrc1MaskSizeOffset", {a.topkMrgSrc1MaskSizeOffset, b.topkMrgSrc1MaskSizeOffset}},
      {"topkNSmallSrcIndexOffset", {a.topkNSmallSrcIndexOffset, b.topkNSmallSrcIndexOffset}},
      {"tmpLocalSize", {a.tmpLocalSize, b.tmpLocalSize}},
      {"vreduceValMask0", {a.vreduceValMask0, b.vreduceValMask0}},
      {"vreduceValMask1", {a.vreduceValMask1, b.vreduceValMask1}},
      {"vreduceIdxMask0", {a.vreduceIdxMask0, b.vreduceIdxMask0}},
      {"vreduceIdxMask1", {a.vreduceIdxMask1, b.vreduceIdxMask1}},
  };
  for (const auto& [name, v] : f) {
    if (v.first != v.second) {
      return std::string(name) + ": lngrad " + std::to_string(v.first) + ", kit " +
             std::to_string(v.second);
    }
  }
  for (int i = 0; i < 8; ++i) {
    if (a.halfValMask[i] != b.halfValMask[i]) return "vreducehalfValMask" + std::to_string(i);
  }
  return "";
}

struct Case {
  uint32_t outter, inner, n, k;
  bool largest;
  uint32_t extra;  // scratch bytes past tmpLocalSize
  bool stack;      // the overload without tmpLocal: the stack buffer, exactly the scratch
};

template <typename T, bool init, bool finish, bool reuse, TopKMode mode>
void Check(const Case& c, uint32_t seed) {
  constexpr bool nsmall = mode == TopKMode::TOPK_NSMALL;
  constexpr uint32_t es = sizeof(T);
  SCOPED_TRACE(::testing::Message()
               << es << "-byte " << (nsmall ? "NSMALL " : "NORMAL ") << c.outter << "x" << c.inner
               << " n " << c.n << " k " << c.k << (c.largest ? " largest" : " smallest") << " init "
               << init << " finish " << finish << " reuse " << reuse << " extra " << c.extra
               << (c.stack ? " (stack)" : ""));
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k910);
  ASSERT_TRUE(TopKTilingFunc(*platform, c.inner, c.outter, c.k, es, init, mode, c.largest, tiling));
  const uint64_t all = uint64_t{c.outter} * c.inner;
  const uint32_t tmpBytes = static_cast<uint32_t>(tiling.tmpLocalSize) * es + c.extra;
  const uint64_t rowsOut =
      nsmall ? uint64_t{c.outter} * c.k
             : uint64_t{c.outter} *
                   static_cast<uint64_t>(es == 4 ? tiling.kAlignFourBytes : tiling.kAlignTwoBytes);
  const uint64_t idxOut = nsmall ? rowsOut : uint64_t{c.outter} * tiling.kAlignFourBytes;
  const std::vector<uint32_t> sizes = {Up32(all * es + 64),
                                       Up32(all * 4 + 64),
                                       c.stack ? tmpBytes : Up32(tmpBytes + 256),
                                       Up32((rowsOut + 40) * es + 32),
                                       Up32((idxOut + 40) * 4 + 32),
                                       Up32(c.outter + 32)};
  rp::Images want;
  want.src = Scores<T>(seed, sizes[0] / es);
  want.idx = std::vector<uint8_t>(sizes[1]);
  for (uint32_t i = 0; i < sizes[1] / 4; ++i) {
    const uint32_t v = 5000 + 3 * i;
    std::memcpy(want.idx.data() + i * 4, &v, 4);
  }
  want.tmp = RandomBytes(seed + 1, sizes[2]);
  want.dv = RandomBytes(seed + 2, sizes[3]);
  want.di = RandomBytes(seed + 3, sizes[4]);
  want.fin = std::vector<uint8_t>(sizes[5]);
  for (uint32_t j = 0; j < sizes[5]; ++j) want.fin[j] = j % 3 == 1 ? (j % 2 ? 1 : 0x80) : 0;
  rp::Images got = want;
  lngrad::aicore::LaunchOptions o;
  o.soc = k910;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        std::vector<uint32_t> alloc = sizes;
        if (c.stack) alloc[2] = 32;  // the scratch is the stack buffer left after the pipe's
        Bufs b(alloc);
        TBuf<> own, filler;
        LocalTensor<uint8_t> tmp;
        if (c.stack) {
          lngrad_replay::scratch_test::TakeScratch(b.pipe, own, filler, true, sizes[2], &tmp);
        } else {
          tmp = b.buf[2].Get<uint8_t>(tmpBytes);
        }
        uint8_t* at[6] = {b.buf[0].Get<uint8_t>().HostPtr(),
                          b.buf[1].Get<uint8_t>().HostPtr(),
                          tmp.HostPtr(),
                          b.buf[3].Get<uint8_t>().HostPtr(),
                          b.buf[4].Get<uint8_t>().HostPtr(),
                          b.buf[5].Get<uint8_t>().HostPtr()};
        std::vector<uint8_t>* img[6] = {&got.src, &got.idx, &got.tmp, &got.dv, &got.di, &got.fin};
        for (int i = 0; i < 6; ++i) std::memcpy(at[i], img[i]->data(), sizes[i]);
        const TopKInfo info{static_cast<int32_t>(c.outter), static_cast<int32_t>(c.inner),
                            static_cast<int32_t>(c.n)};
        LocalTensor<T> dv = b.buf[3].Get<T>(), src = b.buf[0].Get<T>();
        LocalTensor<int32_t> di = b.buf[4].Get<int32_t>(), si = b.buf[1].Get<int32_t>();
        LocalTensor<bool> fin = b.buf[5].Get<bool>();
        if (c.stack) {
          TopK<T, init, finish, reuse, mode>(dv, di, src, si, fin, static_cast<int32_t>(c.k),
                                             tiling, info, c.largest);
        } else {
          TopK<T, init, finish, reuse, mode>(dv, di, src, si, fin, tmp, static_cast<int32_t>(c.k),
                                             tiling, info, c.largest);
        }
        for (int i = 0; i < 6; ++i) std::memcpy(img[i]->data(), at[i], sizes[i]);
      },
      o);
  ASSERT_TRUE(st.ok()) << st.ToString();
  rp::Shape s;
  s.half = es == 2;
  s.init = init;
  s.finish = finish;
  s.nsmall = nsmall;
  s.largest = c.largest;
  s.outter = static_cast<int32_t>(c.outter);
  s.inner = static_cast<int32_t>(c.inner);
  s.n = static_cast<int32_t>(c.n);
  s.k = static_cast<int32_t>(c.k);
  const rp::Tiling rt = ReplayTiling(tiling);
  // lngrad's host tiling against the kit's 2201 tiling functions, field by field.
  const rp::Tiling kit = rp::KitTiling2201(s);
  EXPECT_EQ(TilingDiff(rt, kit), "");
  rp::ReplayTopK2201(want, s, rt);
  const auto never = [](uint64_t) { return false; };
  EXPECT_EQ(Diff(got.di, want.di, 4, "dstIndex", never), "");
  EXPECT_EQ(Diff(got.src, want.src, es, "src", never), "");
  EXPECT_EQ(Diff(got.dv, want.dv, es, "dstValue",
                 [&](uint64_t at) { return !c.largest && at < uint64_t(tiling.maskOffset) * es; }),
            "");
  EXPECT_EQ(Diff(got.tmp, want.tmp, es, "the scratch",
                 [&](uint64_t at) { return !c.largest && rp::ScratchScoreAt(s, rt, at); }),
            "");
}

template <typename T, bool init, bool finish, bool reuse>
void Normal(uint32_t& seed) {
  for (bool largest : {true, false}) {
    const Case cases[] = {
        {2, 32, 32, 1, largest, 0, false},       {3, 96, 90, 13, largest, 64, true},
        {4, 64, 50, 7, largest, 0, false},       {1, 128, 128, 128, largest, 0, false},
        {2, 160, 150, 33, largest, 4096, false}, {2, 800, 800, 100, largest, 40, false},
        {1, 1024, 1000, 64, largest, 0, false},  {1, 2016, 2016, 2016, largest, 0, true},
        {1, 4064, 4000, 300, largest, 0, false}, {1, 4096, 4096, 4096, largest, 0, false},
    };
    for (const Case& c : cases) Check<T, init, finish, reuse, TopKMode::TOPK_NORMAL>(c, ++seed);
  }
}

template <typename T, bool init, bool reuse>
void NSmall(uint32_t& seed) {
  for (bool largest : {true, false}) {
    const Case cases[] = {
        {5, 32, 32, 3, largest, 0, false},  {4, 32, 32, 17, largest, 40, false},
        {1, 32, 30, 30, largest, 0, false}, {7, 32, 32, 1, largest, 4096, false},
        {9, 32, 32, 16, largest, 0, true},  {3, 32, 32, 29, largest, 64, true},
    };
    for (const Case& c : cases) Check<T, init, false, reuse, TopKMode::TOPK_NSMALL>(c, ++seed);
  }
}

template <typename T>
void EveryForm(uint32_t seed) {
  Normal<T, false, false, false>(seed);
  Normal<T, true, true, false>(seed);
  Normal<T, false, true, true>(seed);
  Normal<T, true, false, true>(seed);
  NSmall<T, false, false>(seed);
  NSmall<T, true, true>(seed);
}

TEST(TopK2201MergeReplay, FloatEveryFormWithTiesZerosInfinitiesNaNsAndSubnormals) {
  EveryForm<float>(100);
}

TEST(TopK2201MergeReplay, HalfEveryFormWithTiesZerosInfinitiesNaNsAndSubnormals) {
  EveryForm<half>(5000);
}

// Checked mode refuses what the kit's 2201 parameter check (topk_check_common.h) asserts, before
// anything is written: srcIndexLocal shorter than inner even without isInitIndex, dstValue
// shorter than k rounded up to 32 bytes per row, finishLocal shorter than outter with
// isHasfinish, TOPK_NSMALL with isHasfinish; a call within them runs.
template <TopKMode mode, bool finish>
std::string CheckOf(uint32_t idxElems, uint32_t dvElems, uint32_t finElems) {
  constexpr bool nsmall = mode == TopKMode::TOPK_NSMALL;
  const int32_t inner = nsmall ? 32 : 64, outter = 2, k = 5;
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k910);
  EXPECT_TRUE(TopKTilingFunc(*platform, inner, outter, k, 4, false, mode, true, tiling));
  namespace la = lngrad::aicore;
  const bool was = la::CheckedMode();
  la::SetCheckedMode(true);
  std::string check = "none";
  la::LaunchOptions o;
  o.soc = k910;
  const lngrad::Status st = la::Launch(
      1,
      [&] {
        Bufs b({4096, 4096, 4096, 4096, 4096, 8192});
        const TopKInfo info{outter, inner, inner};
        try {
          TopK<float, false, finish, false, mode>(
              b.buf[0].Get<float>(dvElems), b.buf[1].Get<int32_t>(), b.buf[2].Get<float>(),
              b.buf[3].Get<int32_t>(idxElems), b.buf[4].Get<bool>(finElems),
              b.buf[5].Get<uint8_t>(), k, tiling, info);
        } catch (const la::KernelCheckError& e) {
          la::DismissKernelCheck(e);
          check = e.check() + ": " + e.message();
        }
      },
      o);
  la::SetCheckedMode(was);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return check;
}

TEST(TopK2201MergeReplay, CheckedModeRefusesWhatTheKitsParameterCheckAsserts) {
  using N = std::string;
  const auto normal = CheckOf<TopKMode::TOPK_NORMAL, false>;
  const auto normalFinish = CheckOf<TopKMode::TOPK_NORMAL, true>;
  const auto nsmall = CheckOf<TopKMode::TOPK_NSMALL, false>;
  const auto nsmallFinish = CheckOf<TopKMode::TOPK_NSMALL, true>;
  EXPECT_EQ(normalFinish(64, 16, 32), "none");
  EXPECT_NE(normal(56, 16, 32).find("srcIndexLocal"), N::npos);
  EXPECT_NE(normal(64, 15, 32).find("dstValueLocal"), N::npos);
  EXPECT_NE(normalFinish(64, 16, 1).find("finishLocal"), N::npos);
  EXPECT_EQ(nsmall(64, 10, 32), "none");
  EXPECT_NE(nsmall(56, 10, 32).find("srcIndexLocal"), N::npos);
  EXPECT_NE(nsmall(64, 9, 32).find("dstValueLocal"), N::npos);
  EXPECT_EQ(nsmallFinish(64, 10, 32).rfind("topk_params: ", 0), 0u);
}

}  // namespace
