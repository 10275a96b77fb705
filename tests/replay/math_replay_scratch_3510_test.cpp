// What the 950's math APIs leave in sharedTmpBuffer, against the replays of their 3510 files
// (replay_cumsum_3510.cpp, ...): the whole scratch buffer compared byte for byte after a call
// (the bytes the kit's code does not write keep a fill pattern), over random inputs with NaN,
// +-inf, +-0 and subnormals, several scratch sizes (the minimum and larger, so that the chunking
// by the scratch's size differs) and counts with tails; dst against the same replay too.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "replay_math.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::test;
using RHalf = lngrad_replay::Half;

constexpr const char* k950 = "Ascend950PR_9589";
constexpr uint8_t kFill = 0xa5;

// n values in [lo, hi) with specials at random places (about one in 40).
std::vector<float> Mixed(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::uniform_int_distribution<int> pick(0, 399);
  const float sp[] = {0.0f, -0.0f, kInf, -kInf, kNan, 1e-40f, -3e-6f, 6e-8f, 65504.0f, 1e30f};
  std::vector<float> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    x = k < 10 ? sp[k] : u(gen);
  }
  return v;
}

template <typename T>
RHalf* R(std::vector<T>& v) {
  return reinterpret_cast<RHalf*>(v.data());
}

// CumSum<T, config> on the 950 with a scratch of tmpBytes: dst and the whole scratch buffer.
template <typename T, const CumSumConfig& kConfig>
void CheckCumSumScratch(uint32_t outer, uint32_t inner, uint32_t tmpBytes, uint32_t seed) {
  const auto in = As<T>(Mixed(seed, outer * inner, -4, 4));
  std::vector<T> dst;
  std::vector<uint8_t> work;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        std::memset(tmp.HostPtr(), kFill, kUbBufBytes);
        tmp.SetSize(tmpBytes);
        CumSum<T, kConfig>(ub.Get<T>(1), ub.Get<T>(2), ub.Get<T>(0), tmp, CumSumInfo{outer, inner});
        dst = ub.Take<T>(1);
        work = ub.Take<uint8_t>(3);
      },
      k950);
  std::vector<T> want(outer * inner), src = in;
  std::vector<uint8_t> want_work(kUbBufBytes, kFill);
  const bool skl = kConfig.algorithm == CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY;
  if constexpr (sizeof(T) == 2) {
    lngrad_replay::ReplayCumSum3510Scratch(R(src), R(want), outer, inner, kConfig.isLastAxis, skl,
                                           want_work.data(), tmpBytes);
  } else {
    lngrad_replay::ReplayCumSum3510Scratch(src.data(), want.data(), outer, inner,
                                           kConfig.isLastAxis, skl, want_work.data(), tmpBytes);
  }
  const std::string what =
      std::string("CumSum on the 950, ") + (sizeof(T) == 2 ? "half" : "float") +
      (kConfig.isLastAxis ? " last" : " first") + " axis" + (skl ? " sklansky" : "") + " [" +
      std::to_string(outer) + ", " + std::to_string(inner) + "] tmp " + std::to_string(tmpBytes);
  ExpectBitsEqual(dst.data(), want.data(), outer * inner, what + " dst", in.data());
  size_t first = 0;
  while (first < work.size() && work[first] == want_work[first]) ++first;
  EXPECT_EQ(first, work.size()) << what << ": scratch differs first at byte " << first;
}

constexpr CumSumConfig kFirst = {false, false, true};
constexpr CumSumConfig kLast = {true, false, true};
constexpr CumSumConfig kFirstSkl = {false, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};
constexpr CumSumConfig kLastSkl = {true, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};

// The minimum scratch (16 rows a chunk), 2.5 times it (32 rows) and the whole buffer; row
// counts that leave tails of 5 and 1 rows, and exact multiples of the chunk (half then
// transposes straight into dst).
template <const CumSumConfig& kConfig>
void CumSumLastAxisCases() {
  for (uint32_t outer : {37u, 33u, 64u, 5u}) {
    const uint32_t float_min = 16 * 24 * 4 * 2, half_min = 32 * 16 * 2 + 16 * 32 * 2 * 2;
    for (uint32_t tmp : {float_min, float_min * 5 / 2, kUbBufBytes}) {
      CheckCumSumScratch<float, kConfig>(outer, 24, tmp, outer + tmp);
    }
    for (uint32_t tmp : {half_min, half_min * 5 / 2, kUbBufBytes}) {
      CheckCumSumScratch<half, kConfig>(outer, 32, tmp, outer + tmp + 1);
    }
  }
  CheckCumSumScratch<float, kConfig>(40, 72, kUbBufBytes, 9);  // the 64-lane tail
  CheckCumSumScratch<half, kConfig>(21, 80, kUbBufBytes, 10);
}

TEST(MathScratch3510, CumSumLastAxis) {
  CumSumLastAxisCases<kLast>();
  CumSumLastAxisCases<kLastSkl>();
}

// First axis: float sums in dst (the scratch untouched), half in the scratch as floats.
TEST(MathScratch3510, CumSumFirstAxis) {
  for (uint32_t outer : {37u, 1u, 16u}) {
    CheckCumSumScratch<float, kFirst>(outer, 72, kUbBufBytes, outer);
    CheckCumSumScratch<half, kFirst>(outer, 80, outer * 80 * 4, outer + 1);
    CheckCumSumScratch<half, kFirst>(outer, 80, kUbBufBytes, outer + 2);
    CheckCumSumScratch<float, kFirstSkl>(outer, 24, kUbBufBytes, outer + 3);
    CheckCumSumScratch<half, kFirstSkl>(outer, 32, kUbBufBytes, outer + 4);
  }
}

// Digamma<float> on the 950 against the replay of its register sequence (no scratch): random
// values with the specials, negative integers and the points around them, -2^23 and below.
TEST(MathScratch3510, DigammaFloatOn950) {
  auto in = Mixed(61, kFull, -30, 30);
  const float pts[] = {-1.0f, -2.0f,  -7.0f,   -0.5f, -1.5f, -1e-5f, -8388608.0f, -8388607.0f,
                       -9e6f, 1e-40f, -1e-40f, 3e9f,  -3e9f, 0.25f,  -2.75f,      1e30f};
  for (size_t i = 0; i < std::size(pts); ++i) in[i * 7] = pts[i];
  in[8] = std::bit_cast<float>(0x7fc01234u);  // NaN x gives the constant 0x7fc00000
  in[9] = std::bit_cast<float>(0xff800001u);
  for (uint32_t n : {kFull, 1000u, 37u}) {
    const auto got = RunApi<float>(
        in, n, kUbBufBytes,
        [](auto d, auto s, auto t, uint32_t c) { Digamma<float, false>(d, s, t, c); }, k950);
    std::vector<float> want(n);
    lngrad_replay::ReplayDigamma3510(in.data(), want.data(), n);
    ExpectBitsEqual(got.first.data(), want.data(), n,
                    "Digamma float on the 950 n " + std::to_string(n), in.data());
    EXPECT_EQ(BitsOf(got.first[8]), 0x7fc00000u);
    EXPECT_EQ(BitsOf(got.first[9]), 0x7fc00000u);
  }
}

// Digamma<half> on the 950 over every binary16 input, in calls of n elements (tails of every
// size mod 16), the scratch the minimum (4 * max(2n, 256) bytes, or the bytes the device writes
// where they are more) or the whole buffer: dst and
// the whole scratch (the widened src at float 0, the float results at float n rounded up to 16).
TEST(MathScratch3510, DigammaHalfEveryInput) {
  const uint32_t sizes[] = {5117, 4099, 37, 1, 16, 2047, 5120, 113};
  uint32_t done = 0;
  for (uint32_t call = 0; done < 65536; ++call) {
    const uint32_t n = std::min<uint32_t>(sizes[call % std::size(sizes)], 65536 - done);
    std::vector<half> in(kFull);
    for (uint32_t i = 0; i < n; ++i) {
      const uint16_t b = static_cast<uint16_t>(done + i);
      std::memcpy(&in[i], &b, 2);
    }
    // The kit's minimum, or the bytes the device writes where they pass it (n >= 128 and not a
    // multiple of 16: tests/adv MathDigamma.HalfScratchPastTheKitsMinimumOn950).
    const uint32_t kit_min = 4 * std::max<uint32_t>(2 * n, 256);
    const uint32_t tmp_min = std::max<uint32_t>(kit_min, 4 * ((n + 15) / 16 * 16 + n));
    for (uint32_t tmp_bytes : {tmp_min, kUbBufBytes}) {
      std::vector<half> dst;
      std::vector<uint8_t> work;
      OnBlock(
          [&](Ub& ub) {
            ub.Put<half>(0, in);
            LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
            std::memset(tmp.HostPtr(), kFill, kUbBufBytes);
            tmp.SetSize(tmp_bytes);
            Digamma<half, false>(ub.Get<half>(1), ub.Get<half>(0), tmp, n);
            dst = ub.Take<half>(1);
            work = ub.Take<uint8_t>(2);
          },
          k950);
      std::vector<half> want(n);
      std::vector<uint8_t> want_work(kUbBufBytes, kFill);
      lngrad_replay::ReplayDigamma3510(R(in), R(want), n, want_work.data());
      const std::string what = "Digamma half on the 950, inputs from " + std::to_string(done) +
                               " n " + std::to_string(n) + " tmp " + std::to_string(tmp_bytes);
      ExpectBitsEqual(dst.data(), want.data(), n, what + " dst", in.data());
      size_t first = 0;
      while (first < work.size() && work[first] == want_work[first]) ++first;
      EXPECT_EQ(first, work.size()) << what << ": scratch differs first at byte " << first;
    }
    done += n;
  }
}

// The 950's half Digamma leaves its float results at work[n rounded up to 16, + n): for n of 128
// or more, not a multiple of 16, that passes the kit's 3510 minimum, 4 * max(2n, 256) bytes, by
// up to 60 bytes: the device's overrun, which lngrad follows in both modes (the bytes past the
// tensor are written inside the UB as on the device; the kit's own samples size the scratch
// with that minimum).
TEST(MathScratch3510, DigammaHalfScratchPastTheKitsMinimum) {
  const auto call = [](uint32_t n) {
    return [n](Ub& ub) {
      ub.Put<half>(0, std::vector<half>(kFull, half(1.5f)));
      LocalTensor<uint8_t> t = ub.Get<uint8_t>(2);
      std::memset(t.HostPtr(), kFill, kUbBufBytes);
      t.SetSize(4 * std::max<uint32_t>(2 * n, 256));  // the kit's 3510 minimum
      Digamma(ub.Get<half>(1), ub.Get<half>(0), t, n);
    };
  };
  using lngrad::aicore::test::ExpectCheck;
  ExpectCheck(call(200), "", "", k950);
  ExpectCheck(call(208), "", "", k950);
  ExpectCheck(call(120), "", "", k950);  // 1024 bytes hold 128 + 120 floats
  for (bool checked : {false, true}) {
    std::vector<uint8_t> work;
    {
      const lngrad::aicore::test::CheckedModeScope mode(checked);
      OnBlock(
          [&](Ub& ub) {
            call(200)(ub);
            work = ub.Take<uint8_t>(2);
          },
          k950);
    }
    EXPECT_NE(work[1600], kFill) << checked;  // float 400 = the result of element 192
    EXPECT_NE(work[1631], kFill) << checked;
    EXPECT_EQ(work[1632], kFill) << checked;
  }
}

constexpr SinConfig kSinRadian = {SinAlgo::RADIAN_REDUCTION};
constexpr CosConfig kCosRadian = {CosAlgo::RADIAN_REDUCTION};

// 0 Sin, 1 Cos (both chunked by the scratch's size), 2 SinCos (one call) with RADIAN_REDUCTION
// on the 950: dst (and SinCos's cos) against the lane replay, the whole scratch against the
// scratch replay.
template <typename T>
void CheckRadianScratch(int api, const std::vector<T>& in, uint32_t n, uint32_t tmpBytes) {
  std::vector<T> dst, dst2;
  std::vector<uint8_t> work;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        std::memset(tmp.HostPtr(), kFill, kUbBufBytes);
        tmp.SetSize(tmpBytes);
        const LocalTensor<T> d = ub.Get<T>(1), s = ub.Get<T>(0);
        if (api == 0) Sin<T, false, kSinRadian>(d, s, tmp, n);
        if (api == 1) Cos<T, false, kCosRadian>(d, s, tmp, n);
        if (api == 2) SinCos(d, ub.Get<T>(2), s, tmp, n);
        dst = ub.Take<T>(1);
        dst2 = ub.Take<T>(2);
        work = ub.Take<uint8_t>(3);
      },
      k950);
  constexpr bool kHalf = sizeof(T) == 2;
  std::vector<T> want(n), want2(n);
  for (uint32_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(in[i]);
    const float sn = lngrad_replay::ReplaySin3510(x, true, kHalf);
    const float cs = lngrad_replay::ReplayCos3510(x, true, kHalf);
    if constexpr (kHalf) {
      const uint16_t a = lngrad_replay::FloatToHalf(api == 1 ? cs : sn).bits;
      const uint16_t b = lngrad_replay::FloatToHalf(cs).bits;
      std::memcpy(&want[i], &a, 2);
      std::memcpy(&want2[i], &b, 2);
    } else {
      want[i] = api == 1 ? cs : sn;
      want2[i] = cs;
    }
  }
  std::vector<uint8_t> want_work(kUbBufBytes, kFill);
  if constexpr (kHalf) {
    std::vector<T> src = in;
    lngrad_replay::ReplayTrigRadianScratch3510(R(src), n, tmpBytes, api != 2, want_work.data());
  } else {
    lngrad_replay::ReplayTrigRadianScratch3510(in.data(), n, tmpBytes, api != 2, want_work.data());
  }
  const char* names[] = {"Sin", "Cos", "SinCos"};
  const std::string what = std::string(names[api]) + " radian on the 950, " +
                           (kHalf ? "half" : "float") + " n " + std::to_string(n) + " tmp " +
                           std::to_string(tmpBytes);
  ExpectBitsEqual(dst.data(), want.data(), n, what + " dst", in.data());
  if (api == 2) ExpectBitsEqual(dst2.data(), want2.data(), n, what + " cos", in.data());
  size_t first = 0;
  while (first < work.size() && work[first] == want_work[first]) ++first;
  EXPECT_EQ(first, work.size()) << what << ": scratch differs first at byte " << first;
}

// The minimum scratch (8 bytes an element rounded up to 32, + 32: Sin and Cos then run chunks
// of about a quarter of the count for float, half for half), three times it and the whole
// buffer; float inputs of random bit patterns (every exponent: NaN, inf, subnormals, the
// Payne-Hanek windows) and values near pi/4.
TEST(MathScratch3510, SinCosRadianFloat) {
  std::mt19937 gen(71);
  std::vector<float> in = Mixed(72, kFull, -4, 4);
  for (uint32_t i = 0; i < kFull; i += 2)
    in[i] = std::bit_cast<float>(static_cast<uint32_t>(gen()));
  in[3] = 0.785398185f;
  in[5] = -0.785398126f;
  for (int api : {0, 1, 2}) {
    for (uint32_t n : {4001u, 1000u, 37u, 64u}) {
      const uint32_t tmp_min = 8 * ((n + 31) / 32 * 32) + 32;
      for (uint32_t tmp : {tmp_min, std::min(3 * tmp_min, kUbBufBytes), kUbBufBytes}) {
        CheckRadianScratch<float>(api, in, n, tmp);
      }
    }
  }
}

// Half over every binary16 input, in calls of 4000 (the last 1536), the minimum scratch and
// the whole buffer.
TEST(MathScratch3510, SinCosRadianHalfEveryInput) {
  for (uint32_t done = 0; done < 65536; done += 4000) {
    const uint32_t n = std::min<uint32_t>(4000, 65536 - done);
    std::vector<half> in(kFull);
    for (uint32_t i = 0; i < n; ++i) {
      const uint16_t b = static_cast<uint16_t>(done + i);
      std::memcpy(&in[i], &b, 2);
    }
    for (int api : {0, 1, 2}) {
      for (uint32_t tmp : {8 * ((n + 31) / 32 * 32) + 32, kUbBufBytes}) {
        CheckRadianScratch<half>(api, in, n, tmp);
      }
    }
  }
}

constexpr PowerConfig kDoubleFloat = {PowerAlgo::DOUBLE_FLOAT_TECH};

// Power<T, DOUBLE_FLOAT_TECH> on the 950, form 0 tensor ^ tensor, 1 tensor ^ scalar (expo[0]),
// 2 scalar (base[0]) ^ tensor: dst against the lane replay, the whole scratch against the
// scratch replay; `checked` false for scratches under the kit's minimum (chunks).
template <typename T>
void CheckPowerScratch(int form, const std::vector<T>& base, const std::vector<T>& expo, uint32_t n,
                       uint32_t tmpBytes, bool checked) {
  std::vector<T> dst;
  std::vector<uint8_t> work;
  const lngrad::aicore::test::CheckedModeScope mode(checked);
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, base);
        ub.Put<T>(2, expo);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        std::memset(tmp.HostPtr(), kFill, kUbBufBytes);
        tmp.SetSize(tmpBytes);
        const LocalTensor<T> d = ub.Get<T>(1), b = ub.Get<T>(0), e = ub.Get<T>(2);
        if (form == 0) Power<T, false, kDoubleFloat>(d, b, e, tmp, n);
        if (form == 1) Power<T, false, kDoubleFloat>(d, b, expo[0], tmp, n);
        if (form == 2) Power<T, false, kDoubleFloat>(d, base[0], e, tmp, n);
        dst = ub.Take<T>(1);
        work = ub.Take<uint8_t>(3);
      },
      k950);
  std::vector<float> bf(n), ef(n);
  for (uint32_t i = 0; i < n; ++i) {
    bf[i] = ReplayWiden(base[form == 2 ? 0 : i]);
    ef[i] = ReplayWiden(expo[form == 1 ? 0 : i]);
  }
  std::vector<T> want(n);
  for (uint32_t i = 0; i < n; ++i) {
    want[i] = ReplayRound<T>(lngrad_replay::ReplayPower3510(bf[i], ef[i], true));
  }
  std::vector<uint8_t> want_work(kUbBufBytes, kFill);
  lngrad_replay::ReplayPowerScratch3510(bf.data(), 1, ef.data(), 1, n, tmpBytes, want_work.data());
  const std::string what = "Power double float on the 950, form " + std::to_string(form) +
                           (sizeof(T) == 4                  ? " float"
                            : std::is_same_v<T, bfloat16_t> ? " bfloat16"
                                                            : " half") +
                           " n " + std::to_string(n) + " tmp " + std::to_string(tmpBytes);
  ExpectBitsEqual(dst.data(), want.data(), n, what + " dst");
  size_t first = 0;
  while (first < work.size() && work[first] == want_work[first]) ++first;
  EXPECT_EQ(first, work.size()) << what << ": scratch differs first at byte " << first;
}

template <typename T>
void PowerScratchCases() {
  std::mt19937 gen(81);
  std::vector<float> b = Mixed(82, kFull, -4, 4), e = Mixed(83, kFull, -6, 6);
  for (uint32_t i = 0; i < kFull; i += 3) {
    if (sizeof(T) == 4 || std::is_same_v<T, bfloat16_t>)
      b[i] = std::bit_cast<float>(static_cast<uint32_t>(gen()));
    e[i + 1 < kFull ? i + 1 : i] = static_cast<float>(static_cast<int>(gen() % 9) - 4);
  }
  b[0] = 0.7f;   // the scalar base
  e[0] = -3.0f;  // the scalar exponent
  const auto base = As<T>(b), expo = As<T>(e);
  for (int form : {0, 1, 2}) {
    for (uint32_t n : {1000u, 37u, 64u, 3000u}) {
      // The kit's minimum, 12 bytes an element, or the bytes the device writes where they pass
      // it (PowerDoubleFloatScratchPastTheKitsMinimum); and the whole buffer.
      const uint32_t need = 4 * (2 * ((n + 31) / 32 * 32) + n);
      CheckPowerScratch<T>(form, base, expo, n, std::max(12 * n, need), true);
      CheckPowerScratch<T>(form, base, expo, n, kUbBufBytes, true);
    }
    // Under the minimum (unchecked): chunks of tmp / 12 rounded up to 32 elements, the tail
    // shorter; 4000 bytes: chunks of 352 elements whose arrays pass the scratch's end (inside
    // the UB).
    for (uint32_t tmp : {3840u, 4224u, 4000u})
      CheckPowerScratch<T>(form, base, expo, 1000, tmp, false);
  }
}

TEST(MathScratch3510, PowerDoubleFloat) {
  PowerScratchCases<float>();
  PowerScratchCases<half>();
}

// bfloat16_t takes half's path (LoadSrcData's UNPACK_B16 load and cast, the float arrays in the
// scratch, StoreDstData's cast back CAST_RINT): dst against the lane replay rounded by the
// replay's FloatToBf16, the whole scratch against the scratch replay on the widened operands.
TEST(MathScratch3510, PowerDoubleFloatBfloat16) { PowerScratchCases<bfloat16_t>(); }

// The kit's minimum for DOUBLE_FLOAT_TECH on the 950, 12 bytes an element, is short of its three
// arrays of the count rounded up to 32 for a count not a multiple of 32: the device's overrun,
// followed in both modes (the kit's power sample on dav-3510 sizes the scratch so).
TEST(MathScratch3510, PowerDoubleFloatScratchPastTheKitsMinimum) {
  const auto call = [](uint32_t n) {
    return [n](Ub& ub) {
      LocalTensor<uint8_t> t = ub.Get<uint8_t>(3);
      t.SetSize(12 * n);
      Power<float, false, kDoubleFloat>(ub.Get<float>(1), ub.Get<float>(0), ub.Get<float>(2), t, n);
    };
  };
  using lngrad::aicore::test::ExpectCheck;
  ExpectCheck(call(37), "", "", k950);
  ExpectCheck(call(64), "", "", k950);
}

}  // namespace
