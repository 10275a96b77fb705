// lngrad's ReduceMax, ReduceMin (float, half, bfloat16_t), ReduceAny, ReduceAll (float) and
// ReduceXorSum run as kernels on the 950 (Ascend950PR_9589, dav-3510), compared bit for bit with
// the independent replay of the kit's 3510 register code (replay_reduce_maxmin_3510.h). The data
// hold ties, +0 and -0 (whole rows of them), infinities and two NaNs told apart by sign and
// payload, so the comparisons check which NaN and which zero each order returns: NaN bits are
// compared too.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "reduce_quant_test_util.h"
#include "replay_reduce_maxmin_3510.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::testing;
namespace rp = lngrad_replay;
using lngrad::aicore::test::CheckedModeScope;

template <typename T>
T FromBits(uint32_t b) {
  T v;
  if constexpr (sizeof(T) == 4) {
    v = std::bit_cast<T>(b);
  } else {
    v.bits = static_cast<uint16_t>(b);
  }
  return v;
}

// Two quiet NaNs of T: positive with payload 1, negative with payload 2.
template <typename T>
T NaNOf(bool negative) {
  if constexpr (std::is_same_v<T, float>) return FromBits<T>(negative ? 0xFFC00002u : 0x7FC00001u);
  if constexpr (std::is_same_v<T, half>) return FromBits<T>(negative ? 0xFE02u : 0x7E01u);
  return FromBits<T>(negative ? 0xFFC2u : 0x7FC1u);  // bfloat16_t
}

// Row r's kind (r % 4): 0 small integers and +-0 (ties everywhere), 1 only +0 and -0, 2 as 0
// with the two NaNs now and then, 3 as 0 with infinities and random values.
template <typename T>
std::vector<T> MmData(uint32_t seed, uint32_t rows, uint32_t cols, bool nans = true) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> pick(0, 31);
  std::uniform_real_distribution<float> d(-8.0f, 8.0f);
  std::vector<T> v(size_t{rows} * cols);
  for (uint32_t r = 0; r < rows; ++r) {
    const uint32_t kind = nans ? r % 4 : (r % 2) * 3;
    for (uint32_t c = 0; c < cols; ++c) {
      const int p = pick(gen);
      T x = T(static_cast<float>(p % 5 - 2));
      if (p % 5 == 2 || kind == 1) x = T((p & 1) != 0 ? -0.0f : 0.0f);
      if (kind == 2 && p >= 30) x = NaNOf<T>(p == 31);
      if (kind == 3 && p >= 29) x = T(p == 29 ? -INFINITY : (p == 30 ? INFINITY : d(gen)));
      v[size_t{r} * cols + c] = x;
    }
  }
  return v;
}

template <typename T>
std::vector<float> AsFloats(const std::vector<T>& v) {
  std::vector<float> f(v.size());
  for (size_t i = 0; i < v.size(); ++i) f[i] = static_cast<float>(v[i]);
  return f;
}

// First index where the float values of got and want differ in bits (NaNs included).
inline std::string BitMismatch(const std::vector<float>& got, const std::vector<float>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::bit_cast<uint32_t>(got[i]) != std::bit_cast<uint32_t>(want[i])) {
      std::ostringstream s;
      s << "element " << i << ": lngrad " << got[i] << " (0x" << std::hex
        << std::bit_cast<uint32_t>(got[i]) << "), replay " << want[i] << " (0x"
        << std::bit_cast<uint32_t>(want[i]) << ")";
      return s.str();
    }
  }
  return "";
}

template <typename T>
constexpr rp::MmLane LaneOf() {
  if constexpr (std::is_same_v<T, float>) return rp::MmLane::kFloat;
  if constexpr (std::is_same_v<T, half>) return rp::MmLane::kHalf;
  return rp::MmLane::kBf16;
}

template <typename T, class P, bool reuse>
void Call(rp::RedOp op, Ub& ub, const uint32_t shape[2], bool pad, bool withTmp) {
  LocalTensor<T> d = ub.Get<T>(0), x = ub.Get<T>(1);
  LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
#define LNGRAD_MM_CALL(NAME)                  \
  if (withTmp) {                              \
    NAME<T, P, reuse>(d, x, tmp, shape, pad); \
  } else {                                    \
    NAME<T, P, reuse>(d, x, shape, pad);      \
  }
  if (op == rp::RedOp::kMax) {
    LNGRAD_MM_CALL(ReduceMax)
  } else if (op == rp::RedOp::kMin) {
    LNGRAD_MM_CALL(ReduceMin)
  } else if constexpr (std::is_same_v<T, float>) {
    if (op == rp::RedOp::kAny) {
      LNGRAD_MM_CALL(ReduceAny)
    } else {
      LNGRAD_MM_CALL(ReduceAll)
    }
  }
#undef LNGRAD_MM_CALL
}

// One call on the 950 against the replay. The rows are dense whatever `pad` (srcInnerPad) says:
// the 950 reads row r at r * last. ReduceAny/All rows not of whole blocks: the kit's 3510 checks
// refuse them (as lngrad's checked mode does), so they run unchecked, as the device code would.
template <typename T, class P, bool reuse>
void Check(rp::RedOp op, Shape s, bool pad, bool withTmp, uint32_t seed) {
  constexpr bool kAr = std::is_same_v<P, Pattern::Reduce::AR>;
  const std::vector<T> in = MmData<T>(seed, s.first, s.last);
  const bool anyAll = op == rp::RedOp::kAny || op == rp::RedOp::kAll;
  std::vector<T> dst;
  {
    CheckedModeScope checked(!anyAll || s.last % (32 / sizeof(T)) == 0);
    OnBlock(
        [&](Ub& ub) {
          ub.Put<T>(1, in);
          const uint32_t shape[2] = {s.first, s.last};
          Call<T, P, reuse>(op, ub, shape, pad, withTmp);
          dst = ub.Take<T>(0);
        },
        k950);
  }
  const rp::MaxMinCall c{op, LaneOf<T>(), reuse, s.first, s.last};
  const std::vector<float> want =
      kAr ? rp::ReplayMaxMinAR3510(c, AsFloats(in)) : rp::ReplayMaxMinRA3510(c, AsFloats(in));
  dst.resize(want.size());
  EXPECT_EQ(BitMismatch(AsFloats(dst), want), "")
      << (kAr ? "AR" : "RA") << " op " << static_cast<int>(op) << " lanes "
      << static_cast<int>(LaneOf<T>()) << (reuse ? " reuse" : "") << (pad ? " pad" : "")
      << (withTmp ? " tmp " : " stack ") << s.first << "x" << s.last;
}

// AR rows: 1, one block, block groups, half a register and more, one register, the folds by 16
// with their 1/2/3/0 tails, powers of two, whole and partial tail vectors; then rows not of
// whole blocks (srcInnerPad false: the unaligned paths).
const Shape kAr[] = {{5, 1},   {9, 8},    {17, 16},  {11, 24},  {6, 48},   {3, 32},  {4, 40},
                     {7, 64},  {5, 96},   {6, 72},   {3, 128},  {2, 136},  {2, 200}, {2, 256},
                     {1, 520}, {2, 1000}, {1, 1024}, {1, 2056}, {1, 4104}, {1, 8192}};
const Shape kArUnaligned[] = {{3, 5},   {4, 12},  {3, 63},  {2, 70},   {3, 100},
                              {2, 127}, {2, 129}, {2, 333}, {1, 1003}, {1, 4101}};
// RA: the concatenated fold, one register per row (consecutive 16-row folds), several
// (strided), row counts on each fold path; then columns not of whole blocks.
const Shape kRa[] = {{1, 8},    {2, 16},   {3, 24},   {16, 32},  {33, 8},  {1, 40},
                     {2, 48},   {3, 56},   {16, 64},  {17, 40},  {32, 64}, {33, 64},
                     {100, 40}, {256, 32}, {256, 40}, {2, 72},   {5, 136}, {16, 72},
                     {32, 80},  {33, 96},  {64, 128}, {20, 144}, {40, 256}};
const Shape kRaUnaligned[] = {{2, 1},    {3, 5},   {9, 12},  {33, 70}, {300, 7}, {17, 100},
                              {256, 13}, {40, 40}, {5, 130}, {20, 45}, {64, 33}};

template <typename T, class P>
void CheckAll(rp::RedOp op, const Shape* shapes, size_t n, bool aligned, uint32_t seed) {
  constexpr uint32_t kBlk = 32 / sizeof(T);
  for (size_t i = 0; i < n; ++i) {
    const Shape s = shapes[i];
    const bool wholeBlocks = s.last % kBlk == 0;
    if (aligned && !wholeBlocks && !(std::is_same_v<P, Pattern::Reduce::AR> && s.last == 1)) {
      continue;  // a shape of the float list that is not whole blocks of T
    }
    // srcInnerPad both ways (ReduceAny/All take true only): the 950 reads the same rows.
    const bool anyAll = op == rp::RedOp::kAny || op == rp::RedOp::kAll;
    for (bool withTmp : {true, false}) {
      const bool pad = anyAll || withTmp;
      Check<T, P, false>(op, s, pad, withTmp, ++seed);
      Check<T, P, true>(op, s, pad, withTmp, ++seed);
    }
  }
}

template <typename T>
void CheckMaxMin(uint32_t seed) {
  for (rp::RedOp op : {rp::RedOp::kMax, rp::RedOp::kMin}) {
    seed += 1000;
    CheckAll<T, Pattern::Reduce::AR>(op, kAr, std::size(kAr), true, seed);
    CheckAll<T, Pattern::Reduce::AR>(op, kArUnaligned, std::size(kArUnaligned), false, seed + 100);
    CheckAll<T, Pattern::Reduce::RA>(op, kRa, std::size(kRa), true, seed + 200);
    CheckAll<T, Pattern::Reduce::RA>(op, kRaUnaligned, std::size(kRaUnaligned), false, seed + 300);
  }
}

TEST(ReduceMaxMin950Replay, Float) { CheckMaxMin<float>(100); }
TEST(ReduceMaxMin950Replay, Half) { CheckMaxMin<half>(20000); }
TEST(ReduceMaxMin950Replay, Bfloat16) { CheckMaxMin<bfloat16_t>(40000); }

TEST(ReduceAnyAll950Replay, FloatWholeBlocks) {
  uint32_t seed = 60000;
  for (rp::RedOp op : {rp::RedOp::kAny, rp::RedOp::kAll}) {
    CheckAll<float, Pattern::Reduce::AR>(op, kAr, std::size(kAr), true, seed += 1000);
    CheckAll<float, Pattern::Reduce::RA>(op, kRa, std::size(kRa), true, seed += 1000);
  }
}

// Rows not of whole blocks: ReduceAny/AllARImpl and ReduceRAImpl do not branch on alignment, so
// the aligned paths run with row r at r * last (not ReduceMax/Min's unaligned ones).
TEST(ReduceAnyAll950Replay, FloatRowsNotOfWholeBlocks) {
  uint32_t seed = 65000;
  for (rp::RedOp op : {rp::RedOp::kAny, rp::RedOp::kAll}) {
    CheckAll<float, Pattern::Reduce::AR>(op, kArUnaligned, std::size(kArUnaligned), false,
                                         seed += 1000);
    CheckAll<float, Pattern::Reduce::RA>(op, kRaUnaligned, std::size(kRaUnaligned), false,
                                         seed += 1000);
  }
}

// A long ReduceAny/All row not of whole blocks with two NaNs told apart (index 64, vector 1, and
// index 1024, vector 16) and zeros elsewhere: the aligned path folds vectors 0..15 together and
// keeps the first NaN, ReduceMax/Min's unaligned path folds vectors 0, 4, .., 60 and keeps the
// second, so the answer names the path.
TEST(ReduceAnyAll950Replay, LongRowsFoldConsecutiveVectors) {
  const float nanA = FromBits<float>(0x7fc00001u), nanB = FromBits<float>(0xffc00002u);
  for (rp::RedOp op : {rp::RedOp::kAny, rp::RedOp::kAll}) {
    for (const Shape s : {Shape{1, 4101}, Shape{2, 2053}}) {
      std::vector<float> in(size_t{s.first} * s.last, 0.0f);
      for (uint32_t r = 0; r < s.first; ++r) {
        in[size_t{r} * s.last + 64] = r == 0 ? nanA : nanB;
        in[size_t{r} * s.last + 1024] = r == 0 ? nanB : nanA;
      }
      std::vector<float> dst;
      {
        CheckedModeScope checked(false);
        OnBlock(
            [&](Ub& ub) {
              ub.Put<float>(1, in);
              const uint32_t shape[2] = {s.first, s.last};
              Call<float, Pattern::Reduce::AR, false>(op, ub, shape, true, true);
              dst = ub.Take<float>(0);
            },
            k950);
      }
      const rp::MaxMinCall c{op, rp::MmLane::kFloat, false, s.first, s.last};
      const std::vector<float> want = rp::ReplayMaxMinAR3510(c, in);
      dst.resize(want.size());
      EXPECT_EQ(BitMismatch(dst, want), "") << s.first << "x" << s.last;
      EXPECT_EQ(std::bit_cast<uint32_t>(want[0]), std::bit_cast<uint32_t>(nanA));
    }
  }
}

// The 950's orders show in the bits: on these rows the 2201 replay (its Max/Min sequences) gives
// other NaNs or zeros, so the comparisons above would fail for a 2201 answer.
TEST(ReduceMaxMin950Replay, OrdersDifferFrom2201) {
  uint32_t differ = 0;
  for (const Shape s : {Shape{8, 64}, Shape{8, 1024}}) {
    for (rp::RedOp op : {rp::RedOp::kMax, rp::RedOp::kMin}) {
      const std::vector<float> x = AsFloats(MmData<float>(7 + s.last, s.first, s.last));
      const rp::MaxMinCall c{op, rp::MmLane::kFloat, false, s.first, s.last};
      const rp::RedCall c2201{op, false, false, s.first, s.last};
      differ += BitMismatch(rp::ReplayMaxMinAR3510(c, x), rp::ReplayReduceAR(c2201, x)) != "";
    }
  }
  EXPECT_EQ(differ, 4u);
}

// uint8_t ReduceAny/All on the 950: Reg::Max/Min in both patterns (2201's RA form is Or/And).
TEST(ReduceAnyAll950Replay, Uint8IsMaxMin) {
  const std::vector<uint8_t> in = {1,  2,  0,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                   17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
                                   2,  1,  4,  0,  6,  5,  8,  7,  10, 9,  12, 11, 14, 13, 16, 15,
                                   18, 17, 20, 19, 22, 21, 24, 23, 26, 25, 28, 27, 30, 29, 32, 31};
  std::vector<uint8_t> any, all;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<uint8_t>(1, in);
        const uint32_t shape[2] = {2, 32};
        ReduceAny<uint8_t, Pattern::Reduce::RA>(ub.Get<uint8_t>(0), ub.Get<uint8_t>(1),
                                                ub.Get<uint8_t>(2), shape, true);
        any = ub.Take<uint8_t>(0);
        ReduceAll<uint8_t, Pattern::Reduce::RA>(ub.Get<uint8_t>(0), ub.Get<uint8_t>(1),
                                                ub.Get<uint8_t>(2), shape, true);
        all = ub.Take<uint8_t>(0);
      },
      k950);
  for (uint32_t c = 0; c < 32; ++c) {
    EXPECT_EQ(any[c], std::max(in[c], in[32 + c])) << c;
    EXPECT_EQ(all[c], std::min(in[c], in[32 + c])) << c;
  }
}

// ReduceXorSum on the 950: counts with a partial last register, and long ones whose float
// running sum passes 2^24 before it cancels (the order shows in the result).
TEST(ReduceXorSum950Replay, RunningSumOrder) {
  std::mt19937 gen(950);
  std::uniform_int_distribution<int> d(-32768, 32767);
  for (uint32_t n : {1u, 63u, 64u, 65u, 1000u, 4000u, 6000u}) {
    for (int form = 0; form < 2; ++form) {
      std::vector<int16_t> a(n), b(n, 0);
      for (uint32_t i = 0; i < n; ++i) {
        // form 1: odd register sums climbing past 2^24, then falling back (float rounding)
        const int climb = i < n / 2 ? 32766 + (i % 64 == 5) : -32767 + (i % 64 == 9);
        a[i] = static_cast<int16_t>(form == 0 ? d(gen) : climb);
      }
      int16_t got = 0;
      OnBlock(
          [&](Ub& ub) {
            ub.Put<int16_t>(0, a);
            ub.Put<int16_t>(1, b);
            LocalTensor<int16_t> dst = ub.Get<int16_t>(3);
            LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
            ReduceXorSum<int16_t>(dst, ub.Get<int16_t>(0), ub.Get<int16_t>(1), tmp, n);
            got = ub.Take<int16_t>(3)[0];
          },
          k950);
      EXPECT_EQ(got, rp::ReplayReduceXorSum3510(a, b, n)) << "n " << n << " form " << form;
    }
  }
}

}  // namespace
