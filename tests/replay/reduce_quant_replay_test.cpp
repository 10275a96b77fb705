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

// The replay's float as T's bits (half: exact, the replay's values are halves).
template <typename T>
uint32_t ReplayBits(float v) {
  if constexpr (std::is_same_v<T, half>) return rp::FloatToHalf(v).bits;
  return Bits(v);
}

// First index where got (T) and want (the replay's floats) differ in bits; NaN equals NaN.
template <typename T>
std::string FirstMismatch(const std::vector<T>& got, const std::vector<float>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    const float g = static_cast<float>(got[i]);
    if (std::isnan(g) && std::isnan(want[i])) continue;
    if (Bits(got[i]) != ReplayBits<T>(want[i])) {
      std::ostringstream s;
      s << "element " << i << ": lngrad " << g << " (0x" << std::hex << Bits(got[i]) << "), replay "
        << want[i] << " (0x" << ReplayBits<T>(want[i]) << ")";
      return s.str();
    }
  }
  return "";
}

template <typename T>
std::vector<float> Floats(const std::vector<T>& v) {
  return std::vector<float>(v.begin(), v.end());
}

// Random values in [-range, range] rounded to T, with specials sprinkled (+0, -0 and, when
// `nan`, NaN and infinities), and whole rows of -0 when `zeroRows`.
template <typename T>
std::vector<T> Data(uint32_t seed, uint32_t rows, uint32_t pad, float range, bool specials) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-range, range);
  std::uniform_int_distribution<int> pick(0, 15);
  std::vector<T> v(size_t{rows} * pad);
  for (auto& x : v) {
    const int p = pick(gen);
    float f = d(gen);
    if (p == 0) f = 0.0f;
    if (p == 1) f = -0.0f;
    if (specials && p == 2) f = std::numeric_limits<float>::quiet_NaN();
    if (specials && p == 3) f = -std::numeric_limits<float>::infinity();
    x = T(f);
  }
  if (rows > 2) {  // row 1 all -0: the +0 lanes and the Adds 0 of the sequences show
    for (uint32_t j = 0; j < pad; ++j) v[pad + j] = T(-0.0f);
  }
  return v;
}

// ---- Reduce ----

template <typename T, class P, bool reuse>
void CallReduce(rp::RedOp op, Ub& ub, const uint32_t shape[2], bool withTmp) {
  LocalTensor<T> dst = ub.Get<T>(0), src = ub.Get<T>(1);
  LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
#define LNGRAD_RP_CALL(NAME)                       \
  if (withTmp) {                                   \
    NAME<T, P, reuse>(dst, src, tmp, shape, true); \
  } else {                                         \
    NAME<T, P, reuse>(dst, src, shape, true);      \
  }
  if constexpr (std::is_same_v<T, float>) {  // the APIs with a float form only
    switch (op) {
      case rp::RedOp::kSum:
        LNGRAD_RP_CALL(ReduceSum) return;
      case rp::RedOp::kProd:
        LNGRAD_RP_CALL(ReduceProd) return;
      case rp::RedOp::kAny:
        LNGRAD_RP_CALL(ReduceAny) return;
      case rp::RedOp::kAll:
        LNGRAD_RP_CALL(ReduceAll) return;
      default:
        break;
    }
  }
  switch (op) {
    case rp::RedOp::kMean:
      LNGRAD_RP_CALL(ReduceMean) break;
    case rp::RedOp::kMax:
      LNGRAD_RP_CALL(ReduceMax) break;
    case rp::RedOp::kMin:
      LNGRAD_RP_CALL(ReduceMin) break;
    default:
      break;
  }
#undef LNGRAD_RP_CALL
}

struct Shape {
  uint32_t first, last;
};

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

template <typename T, typename Acc = T>
void CheckRows(bool mean, uint32_t outter, uint32_t n, bool withTmp, uint32_t seed) {
  const uint32_t inner = (n + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
  const std::vector<T> in = Data<T>(seed, outter, inner, 3.0f, false);
  std::vector<T> dst;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, in);
        LocalTensor<T> d = ub.Get<T>(0), s = ub.Get<T>(1);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        if (mean) {
          const MeanParams p{outter, inner, n};
          if (withTmp) {
            Mean<T, Acc>(d, s, tmp, p);
          } else {
            Mean<T, Acc>(d, s, p);
          }
        } else {
          const SumParams p{outter, inner, n};
          if (withTmp) {
            Sum(d, s, tmp, p);
          } else {
            Sum(d, s, p);
          }
        }
        dst = ub.Take<T>(0);
      },
      k910B);
  const rp::RowsCall c{std::is_same_v<T, half>, !std::is_same_v<Acc, T>, outter, inner, n};
  const std::vector<float> want =
      mean ? rp::ReplayMean(c, Floats(in)) : rp::ReplaySum(c, Floats(in));
  EXPECT_EQ(FirstMismatch(dst, want), "")
      << (mean ? "Mean " : "Sum ") << outter << "x" << n << (c.isHalf ? " half" : " float")
      << (c.accFloat ? " (float acc)" : "") << (withTmp ? " tmp" : " stack");
}

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
