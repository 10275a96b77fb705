// What the 950's math APIs leave in sharedTmpBuffer, against the replays of their 3510 files
// (replay_cumsum_3510.cpp, ...): the whole scratch buffer compared byte for byte after a call
// (the bytes the kit's code does not write keep a fill pattern), over random inputs with NaN,
// +-inf, +-0 and subnormals, several scratch sizes (the minimum and larger, so that the chunking
// by the scratch's size differs) and counts with tails; dst against the same replay too.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

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
        CumSum<T, kConfig>(ub.Get<T>(1), ub.Get<T>(2), ub.Get<T>(0), tmp,
                           CumSumInfo{outer, inner});
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
  const std::string what = std::string("CumSum on the 950, ") + (sizeof(T) == 2 ? "half" : "float") +
                           (kConfig.isLastAxis ? " last" : " first") + " axis" +
                           (skl ? " sklansky" : "") + " [" + std::to_string(outer) + ", " +
                           std::to_string(inner) + "] tmp " + std::to_string(tmpBytes);
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

}  // namespace
