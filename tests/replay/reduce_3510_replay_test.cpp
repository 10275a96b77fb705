// lngrad's ReduceSum, ReduceMean, ReduceProd, Sum and Mean run as kernels on the 950
// (Ascend950PR_9589, dav-3510), compared bit for bit with the independent replay of the kit's 3510
// register code (replay_reduce_3510.h, a separate reading of the source, not of lngrad's
// reduce_3510.h). Every float row takes the 950's order, read unpadded whatever srcInnerPad says.
// NaN equals NaN (payloads are not promised, §2).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "reduce_quant_test_util.h"
#include "replay_reduce_3510.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::testing;
namespace rp = lngrad_replay;
using lngrad::aicore::test::CheckedModeScope;

// srcInnerPad is true, yet the 950 reads row r at r * last (the kit's 3510 code takes its
// alignment from srcShape), so the data are first x last dense. ReduceMean/Prod rows not of whole
// blocks: the kit's 3510 checks refuse them (as lngrad's checked mode does, RefusedInCheckedMode),
// so they run unchecked, as the device code would.
template <class P, bool reuse>
void CheckReduce950(rp::RedOp op, Shape s, bool withTmp, uint32_t seed, float range) {
  constexpr bool kAr = std::is_same_v<P, Pattern::Reduce::AR>;
  const rp::RedCall call{op, false, reuse, s.first, s.last};
  const std::vector<float> in = Data<float>(seed, s.first, s.last, range, false);
  const bool wholeBlocks = s.last % 8 == 0;
  std::vector<float> dst;
  {
    CheckedModeScope checked(wholeBlocks || op == rp::RedOp::kSum);
    OnBlock(
        [&](Ub& ub) {
          ub.Put<float>(1, in);
          const uint32_t shape[2] = {s.first, s.last};
          CallReduce<float, P, reuse>(op, ub, shape, withTmp);
          dst = ub.Take<float>(0);
        },
        k950);
  }
  const std::vector<float> want =
      kAr ? rp::ReplayReduceAR3510(call, in) : rp::ReplayReduceRA3510(call, in);
  dst.resize(want.size());
  EXPECT_EQ(FirstMismatch(dst, want), "")
      << (kAr ? "AR" : "RA") << " op " << static_cast<int>(op) << (reuse ? " reuse" : "")
      << (withTmp ? " tmp " : " stack ") << s.first << "x" << s.last;
}

// AR: every path of ReduceARImpl (1, the block groups 8/16/24 with row counts past a register
// of 8 rows, one register 32..64, the folds by 16 and their 1/2/3/0 tails, powers of two, tails
// of whole and partial 64-lane vectors) and rows not of whole blocks (ReduceSum/Mean: the
// unaligned paths; ReduceProd: the aligned ones at unaligned rows, below and above a register,
// with and without a tail).
const Shape kArShapes[] = {
    {5, 1},   {9, 8},   {17, 16}, {11, 24}, {3, 32},   {4, 40},   {7, 64},   {6, 72},   {3, 128},
    {2, 136}, {2, 200}, {2, 256}, {1, 520}, {2, 1000}, {1, 1024}, {1, 2056}, {1, 4104}, {1, 8192},
    {3, 5},   {4, 12},  {2, 333}, {3, 63},  {2, 70},   {2, 129},  {1, 1003}, {1, 4101}};
// RA: the concatenated fold (columns <= 32), one register per row (33..64 columns), several
// (more than 64), with row counts on each fold path (1, 2, 3, powers of two, 16 and 256 rows
// folded by 16, tails).
const Shape kRaShapes[] = {{1, 8},    {2, 16},   {3, 24},   {16, 32},  {33, 8},  {1, 40},
                           {2, 48},   {3, 56},   {16, 64},  {17, 40},  {32, 64}, {33, 64},
                           {100, 40}, {256, 32}, {256, 40}, {300, 8},  {2, 72},  {5, 136},
                           {16, 72},  {32, 80},  {33, 96},  {64, 128}, {3, 5},   {9, 12},
                           {33, 70},  {300, 7},  {17, 100}, {256, 13}, {40, 45}, {2, 1}};

template <class P>
void CheckShapes950(rp::RedOp op, const Shape* shapes, size_t count, float range) {
  uint32_t seed =
      31 * static_cast<uint32_t>(op) + (std::is_same_v<P, Pattern::Reduce::AR> ? 0 : 500);
  for (size_t i = 0; i < count; ++i) {
    for (bool withTmp : {true, false}) {
      CheckReduce950<P, false>(op, shapes[i], withTmp, ++seed, range);
      CheckReduce950<P, true>(op, shapes[i], withTmp, ++seed, range);
    }
  }
}

TEST(Reduce950Replay, SumMeanProdAr) {
  for (rp::RedOp op : {rp::RedOp::kSum, rp::RedOp::kMean, rp::RedOp::kProd}) {
    CheckShapes950<Pattern::Reduce::AR>(op, kArShapes, std::size(kArShapes),
                                        op == rp::RedOp::kProd ? 1.5f : 10.0f);
  }
}

TEST(Reduce950Replay, SumMeanProdRa) {
  for (rp::RedOp op : {rp::RedOp::kSum, rp::RedOp::kMean, rp::RedOp::kProd}) {
    CheckShapes950<Pattern::Reduce::RA>(op, kRaShapes, std::size(kRaShapes),
                                        op == rp::RedOp::kProd ? 1.5f : 10.0f);
  }
}

// ReduceProd rows and columns not of whole blocks on data near 1 (no zeros, no underflow), so the
// association shows in the bits: long AR rows fold their vectors 16 consecutive at a time (the
// aligned path; ReduceSum's unaligned path would take them strided) and RA columns 33..64 fold
// 16 consecutive rows (not the binary fold). Unchecked: the kit's 3510 checks refuse these rows.
template <class P>
void CheckProdNearOne(Shape s, uint32_t seed) {
  constexpr bool kAr = std::is_same_v<P, Pattern::Reduce::AR>;
  std::vector<float> in = Data<float>(seed, s.first, s.last, 1.0f, false);
  for (float& v : in) v = 1.0f + v / 16.0f;
  for (bool reuse : {false, true}) {
    std::vector<float> dst;
    {
      CheckedModeScope checked(false);
      OnBlock(
          [&](Ub& ub) {
            ub.Put<float>(1, in);
            const uint32_t shape[2] = {s.first, s.last};
            if (reuse) {
              CallReduce<float, P, true>(rp::RedOp::kProd, ub, shape, true);
            } else {
              CallReduce<float, P, false>(rp::RedOp::kProd, ub, shape, true);
            }
            dst = ub.Take<float>(0);
          },
          k950);
    }
    const rp::RedCall call{rp::RedOp::kProd, false, reuse, s.first, s.last};
    const std::vector<float> want =
        kAr ? rp::ReplayReduceAR3510(call, in) : rp::ReplayReduceRA3510(call, in);
    dst.resize(want.size());
    EXPECT_EQ(FirstMismatch(dst, want), "")
        << (kAr ? "AR " : "RA ") << s.first << "x" << s.last << (reuse ? " reuse" : "");
    // float64 oracle: each of the products rounds once, within n * 2^-24 relative
    const uint32_t n = kAr ? s.last : s.first;
    for (size_t k = 0; k < want.size(); ++k) {
      double p = 1;
      for (uint32_t i = 0; i < n; ++i) {
        p *= kAr ? in[k * s.last + i] : in[size_t{i} * s.last + k];
      }
      EXPECT_LE(std::fabs(dst[k] - p), n * std::ldexp(std::fabs(p), -24)) << k;
    }
  }
}

TEST(Reduce950Replay, ProdRowsNotOfWholeBlocksTakeTheAlignedPaths) {
  uint32_t seed = 700;
  for (const Shape s : {Shape{1, 4101}, Shape{2, 1003}, Shape{1, 2055}, Shape{3, 63}}) {
    CheckProdNearOne<Pattern::Reduce::AR>(s, ++seed);
  }
  for (const Shape s : {Shape{40, 45}, Shape{20, 45}, Shape{64, 33}, Shape{33, 70}}) {
    CheckProdNearOne<Pattern::Reduce::RA>(s, ++seed);
  }
}

// ReduceSum with srcInnerPad false (dense rows, every length: the unaligned paths where the last
// axis is not a whole number of blocks), both overloads, isReuseSource both ways.
template <class P, bool reuse>
void CheckUnpaddedSum950(Shape s, bool withTmp, uint32_t seed) {
  constexpr bool kAr = std::is_same_v<P, Pattern::Reduce::AR>;
  const std::vector<float> in = Data<float>(seed, s.first, s.last, 10.0f, false);
  std::vector<float> dst;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(1, in);
        const uint32_t shape[2] = {s.first, s.last};
        LocalTensor<float> d = ub.Get<float>(0), x = ub.Get<float>(1);
        if (withTmp) {
          ReduceSum<float, P, reuse>(d, x, ub.Get<uint8_t>(2), shape, false);
        } else {
          ReduceSum<float, P, reuse>(d, x, shape, false);
        }
        dst = ub.Take<float>(0);
      },
      k950);
  const rp::RedCall call{rp::RedOp::kSum, false, reuse, s.first, s.last};
  const std::vector<float> want =
      kAr ? rp::ReplayReduceAR3510(call, in) : rp::ReplayReduceRA3510(call, in);
  EXPECT_EQ(FirstMismatch(dst, want), "") << (kAr ? "AR " : "RA ") << s.first << "x" << s.last
                                          << (reuse ? " reuse" : "") << (withTmp ? " tmp" : "");
}

TEST(Reduce950Replay, SumUnpaddedRows) {
  uint32_t seed = 800;
  for (const Shape s : {Shape{5, 1}, Shape{3, 5}, Shape{4, 12}, Shape{3, 63}, Shape{2, 70},
                        Shape{3, 100}, Shape{2, 333}, Shape{1, 1003}, Shape{1, 4101},
                        Shape{1, 8195}, Shape{2, 64}, Shape{1, 1000}}) {
    for (bool withTmp : {true, false}) {
      CheckUnpaddedSum950<Pattern::Reduce::AR, false>(s, withTmp, ++seed);
      CheckUnpaddedSum950<Pattern::Reduce::AR, true>(s, withTmp, ++seed);
    }
  }
  for (const Shape s : {Shape{2, 1}, Shape{3, 5}, Shape{9, 12}, Shape{33, 70}, Shape{300, 7},
                        Shape{17, 100}, Shape{256, 13}, Shape{40, 40}}) {
    for (bool withTmp : {true, false}) {
      CheckUnpaddedSum950<Pattern::Reduce::RA, false>(s, withTmp, ++seed);
      CheckUnpaddedSum950<Pattern::Reduce::RA, true>(s, withTmp, ++seed);
    }
  }
}

// The two replays differ (the 950's order shows in the bits): on these shapes the 2201 replay
// would fail the comparisons above.
TEST(Reduce950Replay, OrdersDifferFrom2201) {
  uint32_t differ = 0, seed = 77;
  for (const Shape s : {Shape{4, 16}, Shape{2, 1000}, Shape{1, 4104}}) {
    const rp::RedCall ar{rp::RedOp::kSum, false, false, s.first, s.last};
    const std::vector<float> x = Data<float>(++seed, s.first, s.last, 10.0f, false);
    differ += FirstMismatch(rp::ReplayReduceAR3510(ar, x), rp::ReplayReduceAR(ar, x)) != "";
  }
  for (const Shape s : {Shape{256, 40}, Shape{300, 40}}) {
    const rp::RedCall ra{rp::RedOp::kSum, false, false, s.first, s.last};
    std::vector<float> x = Data<float>(++seed, s.first, s.last, 10.0f, false);
    differ += FirstMismatch(rp::ReplayReduceRA3510(ra, x), rp::ReplayReduceRA(ra, x)) != "";
  }
  EXPECT_EQ(differ, 5u);
}

// ---- Sum and Mean ----

TEST(SumMean950Replay, RowsOfEveryRepeatCount) {
  uint32_t seed = 9500;
  for (bool withTmp : {true, false}) {
    for (uint32_t n : {1u, 7u, 8u, 64u, 65u, 200u, 1000u, 3000u}) {
      CheckRows<float>(false, 3, n, withTmp, ++seed, k950);
      CheckRows<float>(true, 3, n, withTmp, ++seed, k950);
    }
    for (uint32_t n : {1u, 16u, 127u, 128u, 129u, 1000u, 7000u}) {
      const uint32_t rows = n > 2000 ? 2 : 3;  // row 1 of 3 is all -0
      CheckRows<half>(false, rows, n, withTmp, ++seed, k950);
      CheckRows<half>(true, rows, n, withTmp, ++seed, k950);
      CheckRows<half, float>(true, rows, n, withTmp, ++seed, k950);
    }
  }
}

}  // namespace
