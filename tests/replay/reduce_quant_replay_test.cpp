// lngrad's reduce and quantization APIs run as kernels on Ascend910B1 (dav-2201), compared bit
// for bit with the independent replay of replay_reduce_quant.h: the first mismatching element
// and both values are reported. NaN equals NaN (payloads are not promised, §2).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "reduce_quant_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::testing;
namespace rp = lngrad_replay;

template <typename T, class P, bool reuse>
void CheckReduce(rp::RedOp op, Shape s, bool withTmp, uint32_t seed, float range, bool specials) {
  constexpr bool kAr = std::is_same_v<P, Pattern::Reduce::AR>;
  const rp::RedCall call{op, std::is_same_v<T, half>, reuse, s.first, s.last};
  const uint32_t pad = rp::RedPadLast(call);
  const std::vector<T> in = Data<T>(seed, s.first, pad, range, specials);
  std::vector<T> dst, srcAfter;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, in);
        const uint32_t shape[2] = {s.first, s.last};
        CallReduce<T, P, reuse>(op, ub, shape, withTmp);
        dst = ub.Take<T>(0);
        srcAfter = ub.Take<T>(1);
      },
      k910B);
  std::vector<float> src = Floats(in);
  const std::vector<float> want =
      kAr ? rp::ReplayReduceAR(call, src) : rp::ReplayReduceRA(call, src);
  const std::string what = std::string(kAr ? "AR" : "RA") + " op " +
                           std::to_string(static_cast<int>(op)) + (reuse ? " reuse" : "") +
                           (withTmp ? " tmp" : " stack") + " " + std::to_string(s.first) + "x" +
                           std::to_string(s.last) + (call.isHalf ? " half" : " float");
  const std::string m = FirstMismatch(dst, want);
  EXPECT_EQ(m, "") << what;
  if (!kAr && reuse) {  // the fold's partial rows stay in src, as the device leaves them
    srcAfter.resize(src.size());
    EXPECT_EQ(FirstMismatch(srcAfter, src), "") << what << " (src after the call)";
  }
}

// Shapes on each path of BlockReduceByLastAxis and ReduceSumCommon: last < 8, = 8, < 16, = 16,
// < 64, = 64, (64, 128), 128 (a power of two), up to 2040 / 4080 and beyond (the long-row path).
const Shape kShapes[] = {{3, 5},   {9, 8},  {4, 12},  {17, 16}, {5, 45},   {7, 64},   {6, 100},
                         {3, 128}, {1, 70}, {2, 333}, {33, 9},  {2, 1000}, {1, 2100}, {1, 4100}};

template <typename T, class P>
void CheckAllShapes(rp::RedOp op, float range, bool specials) {
  uint32_t seed = 17 * static_cast<uint32_t>(op) + (std::is_same_v<T, half> ? 1000 : 0);
  for (const Shape s : kShapes) {
    if (size_t{s.first} * ((s.last + 15) / 16 * 16) * sizeof(T) > kUbBufBytes / 2) continue;
    for (bool withTmp : {true, false}) {
      CheckReduce<T, P, false>(op, s, withTmp, ++seed, range, specials);
      CheckReduce<T, P, true>(op, s, withTmp, ++seed, range, specials);
    }
  }
}

TEST(ReduceReplay, MaxMinArAndRaWithZerosNanAndInfinities) {
  for (rp::RedOp op : {rp::RedOp::kMax, rp::RedOp::kMin}) {
    CheckAllShapes<float, Pattern::Reduce::AR>(op, 50.0f, true);
    CheckAllShapes<float, Pattern::Reduce::RA>(op, 50.0f, true);
    CheckAllShapes<half, Pattern::Reduce::AR>(op, 50.0f, true);
    CheckAllShapes<half, Pattern::Reduce::RA>(op, 50.0f, true);
  }
}

// Float ReduceAny / ReduceAll: the Max / Min sequences (any value, not only 0 and 1).
TEST(ReduceReplay, AnyAllFloatArAndRa) {
  for (rp::RedOp op : {rp::RedOp::kAny, rp::RedOp::kAll}) {
    CheckAllShapes<float, Pattern::Reduce::AR>(op, 50.0f, true);
    CheckAllShapes<float, Pattern::Reduce::RA>(op, 50.0f, true);
  }
}

TEST(ReduceReplay, SumFloatArAndRa) {
  CheckAllShapes<float, Pattern::Reduce::AR>(rp::RedOp::kSum, 10.0f, false);
  CheckAllShapes<float, Pattern::Reduce::RA>(rp::RedOp::kSum, 10.0f, false);
}

TEST(ReduceReplay, MeanFloatArRaAndHalfRa) {
  CheckAllShapes<float, Pattern::Reduce::AR>(rp::RedOp::kMean, 10.0f, false);
  CheckAllShapes<float, Pattern::Reduce::RA>(rp::RedOp::kMean, 10.0f, false);
  CheckAllShapes<half, Pattern::Reduce::RA>(rp::RedOp::kMean, 10.0f, false);
}

// Half AR rows of at most 64 (the source's B32 constants make longer half rows a different
// layout: not replayed, README.md).
TEST(ReduceReplay, MeanHalfArShortRows) {
  uint32_t seed = 4000;
  for (const Shape s : {Shape{3, 5}, Shape{9, 8}, Shape{4, 12}, Shape{17, 16}, Shape{5, 45},
                        Shape{7, 64}, Shape{33, 9}}) {
    for (bool withTmp : {true, false}) {
      CheckReduce<half, Pattern::Reduce::AR, false>(rp::RedOp::kMean, s, withTmp, ++seed, 10.0f,
                                                    false);
      CheckReduce<half, Pattern::Reduce::AR, true>(rp::RedOp::kMean, s, withTmp, ++seed, 10.0f,
                                                   false);
    }
  }
}

TEST(ReduceReplay, ProdFloatArAndRa) {
  CheckAllShapes<float, Pattern::Reduce::AR>(rp::RedOp::kProd, 1.5f, false);
  CheckAllShapes<float, Pattern::Reduce::RA>(rp::RedOp::kProd, 1.5f, false);
}

// ---- Sum and Mean ----

TEST(SumMeanReplay, RowsOfEveryRepeatCount) {
  uint32_t seed = 9000;
  for (bool withTmp : {true, false}) {
    for (uint32_t n : {1u, 7u, 8u, 64u, 65u, 200u, 1000u, 3000u}) {
      CheckRows<float>(false, 3, n, withTmp, ++seed);
      CheckRows<float>(true, 3, n, withTmp, ++seed);
    }
    for (uint32_t n : {1u, 16u, 127u, 128u, 129u, 1000u, 7000u}) {
      const uint32_t rows = n > 2000 ? 2 : 3;  // row 1 of 3 is all -0
      CheckRows<half>(false, rows, n, withTmp, ++seed);
      CheckRows<half>(true, rows, n, withTmp, ++seed);
      CheckRows<half, float>(true, rows, n, withTmp, ++seed);
    }
  }
}

// ---- ReduceXorSum ----

TEST(ReduceXorSumReplay, SmallAndFullRangeWithAndWithoutReuse) {
  uint32_t seed = 7000;
  for (uint32_t n : {1u, 7u, 64u, 100u, 300u, 512u}) {
    for (int range : {40, 65536}) {
      std::mt19937 gen(++seed);
      std::vector<int16_t> a(n), b(n);
      for (uint32_t i = 0; i < n; ++i) {
        a[i] = static_cast<int16_t>(static_cast<int>(gen() % range) - range / 2);
        b[i] = static_cast<int16_t>(static_cast<int>(gen() % range) - range / 2);
      }
      const int16_t want = rp::ReplayReduceXorSum(a, b, n);
      for (bool reuse : {false, true}) {
        int16_t got = 0;
        OnBlock(
            [&](Ub& ub) {
              ub.Put<int16_t>(0, a);
              ub.Put<int16_t>(1, b);
              LocalTensor<int16_t> dst = ub.Get<int16_t>(3);
              LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);  // the API takes it non-const
              if (reuse) {
                ReduceXorSum<int16_t, true>(dst, ub.Get<int16_t>(0), ub.Get<int16_t>(1), tmp, n);
              } else {
                ReduceXorSum<int16_t>(dst, ub.Get<int16_t>(0), ub.Get<int16_t>(1), tmp, n);
              }
              got = ub.Take<int16_t>(3)[0];
            },
            k910B);
        EXPECT_EQ(got, want) << "n " << n << " range " << range << (reuse ? " reuse" : "");
      }
    }
  }
}

}  // namespace
