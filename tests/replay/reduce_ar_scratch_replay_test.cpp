// What the reduce APIs' AR pattern leaves in dst, src and the scratch on arch 2201
// (Ascend910B1) against the replay of the kit's sequences (replay_reduce_ar_scratch.h):
// ReduceSum, ReduceMean and ReduceProd on float, ReduceMax/Min/Any/All on float and ReduceMax/Min
// on half, with and without isReuseSource, the sharedTmpBuffer overload
// and the one that pops the stack buffer, rows of 1..8 floats (BlkReduceForLoop, 4100 rows too:
// its whole 2040-row calls all at offset 0), up to 64 (WholeReduceSum), longer
// (ReduceSumInLargeLast: powers of two and others, the tail added per row or as repeats over the
// rows, 2041..2048 floats whose uint8_t repeat stride wraps to 0, more than 248 rows: the groups'
// overlapping work areas), scratch sizes from the minimum up and one no multiple of 32, inputs
// with NaN, +-inf, +-0 and subnormals, the padding filled with values too. Compared bit for bit
// (two NaNs match): the whole scratch (0xa5 where the kit's code does not write), dst with 40
// elements past it, src. Arch 2002 (Ascend310P1): the kit's reduce.h compiles the calls to nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "reduce_scratch_sweep.h"
#include "replay_reduce_ar_scratch.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace rs = lngrad_replay::reduce_scratch;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using rs::kNames;
using rs::kPast;
using AR = AscendC::Pattern::Reduce::AR;

constexpr const char* k910 = "Ascend910B1";
constexpr uint32_t kUbBudget = 180000;  // src, dst and the scratch together in the UB

template <class T>
using R = std::conditional_t<sizeof(T) == 4, float,
                             std::conditional_t<sizeof(T) == 2, rp::Half, uint8_t>>;

// The replay of one call (false where the kit's code asserts or stores past the scratch).
template <class T>
bool Replay(rp::ArOp op, bool reuse, T* src, T* dst, uint32_t first, uint32_t last, uint8_t* tmp,
            uint32_t tmpBytes) {
  auto* s = reinterpret_cast<R<T>*>(src);
  auto* d = reinterpret_cast<R<T>*>(dst);
  if constexpr (sizeof(T) == 1) {
    return rp::ReplayReduceAnyAllU8ArScratch(op == rp::ArOp::kAny, s, d, first, last, tmp,
                                             tmpBytes);
  } else if constexpr (sizeof(T) == 4) {
    if (op == rp::ArOp::kProd)
      return rp::ReplayReduceProdArScratch(reuse, s, d, first, last, tmp, tmpBytes);
    if (op == rp::ArOp::kSum || op == rp::ArOp::kMean) {
      return rp::ReplayReduceSumArScratch(op == rp::ArOp::kMean, reuse, s, d, first, last, tmp,
                                          tmpBytes);
    }
  }
  if constexpr (sizeof(T) != 1) {
    return rp::ReplayReduceMaxMinArScratch(op, reuse, s, d, first, last, tmp, tmpBytes);
  }
}

// n values with the specials at random places (about one in 40); with `ties`, most of them from
// a few values (+-0, 1, -1) so that equal extremes meet; uint8: bytes 0 to 255, or (ties) mostly
// runs of 0 and 1.
template <class T>
std::vector<T> Mixed(uint32_t seed, size_t n, bool ties = false) {
  return rs::Mixed<T>(seed, n, ties, rs::kSpecials, [&](std::mt19937& gen) {
    return ties && gen() % 4 != 0 ? gen() % 2 : gen() % 256;
  });
}

template <class T>
uint32_t Pad(uint32_t last) {
  constexpr uint32_t kB = 32 / sizeof(T);
  return (last + kB - 1) / kB * kB;
}

template <class T>
void Compare(rp::ArOp op, bool reuse, uint32_t first, uint32_t last, uint32_t tmpBytes, bool stack,
             uint32_t seed, bool ties = false) {
  const std::string what = std::string(kNames[static_cast<int>(op)]) + "<" +
                           (sizeof(T) == 4   ? "float"
                            : sizeof(T) == 2 ? "half"
                                             : "uint8_t") +
                           ", AR" + (reuse ? ", reuse" : "") + ">, [" + std::to_string(first) +
                           ", " + std::to_string(last) + "], scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : " (sharedTmpBuffer)");
  const std::vector<T> in = Mixed<T>(seed, uint64_t{first} * Pad<T>(last), ties);
  rs::Compare<T, AR>(k910, static_cast<int>(op), reuse, {first, last}, tmpBytes, stack, in,
                     first + kPast, what, [&](T* src, T* dst, uint8_t* tmp) {
                       return Replay<T>(op, reuse, src, dst, first, last, tmp, tmpBytes);
                     });
}

// The host's minimum (GetReduceXxxMaxMinTmpSize, AR). Sum/Mean: none up to 64 floats a row (or
// reusing src), else first * k floats, k the largest power of two <= last, halved when last is
// one and first > 1. uint8 Any/All: padLast halves and 16 a row. Prod: 256 bytes reusing src, else
// max(8, that k) + first * 8 floats and 256 bytes. Max/Min/Any/All: none reusing src or for a row
// of at most a block, else first blocks (rows shorter than a repeat) or repeats.
template <class T>
uint32_t MinTmp(rp::ArOp op, uint32_t first, uint32_t last, bool reuse) {
  if (sizeof(T) == 1) return Aligned32(last) * 2 + first * 32;
  if (op == rp::ArOp::kProd && reuse) return 256;
  if (reuse) return 0;
  if (op == rp::ArOp::kProd) {
    uint32_t k = 1;
    while (k * 2 <= last) k *= 2;
    return (std::max<uint32_t>(8, k == last && first > 1 ? k / 2 : k) + first * 8) * 4 + 256;
  }
  if (op == rp::ArOp::kSum || op == rp::ArOp::kMean) {
    if (last <= 64) return 0;
    uint32_t k = 1;
    while (k * 2 <= last) k *= 2;
    return first * (k == last && first > 1 ? k / 2 : k) * 4;
  }
  if (last <= 32 / sizeof(T)) return 0;
  return first * (last < 256 / sizeof(T) ? 32 : 256);
}

template <class T>
void Sweep(rp::ArOp op, const std::vector<uint32_t>& firsts, const std::vector<uint32_t>& lasts,
           bool ties = false) {
  uint32_t seed = 700 + static_cast<uint32_t>(op) * 1000 + sizeof(T) * 100;
  for (bool reuse : {false, true}) {
    for (uint32_t first : firsts) {
      for (uint32_t last : lasts) {
        const uint32_t io =
            first * Pad<T>(last) * sizeof(T) + Aligned32((first + kPast) * sizeof(T));
        const uint32_t min = std::max<uint32_t>(MinTmp<T>(op, first, last, reuse), 32);
        for (bool stack : {false, true}) {
          std::vector<uint32_t> sizes = {min, 2 * min + 96};
          if (!stack) sizes.push_back(min + 44);
          for (uint32_t tmp : sizes) {
            if (io + Aligned32(tmp) > kUbBudget) continue;
            Compare<T>(op, reuse, first, last, tmp, stack, ++seed, ties);
          }
        }
      }
    }
  }
}

TEST(ReduceArScratchReplay, SumFloat) {
  Sweep<float>(
      rp::ArOp::kSum, {1, 2, 3, 8, 13, 17, 100},
      {1, 5, 8, 9, 13, 64, 65, 72, 100, 128, 129, 255, 256, 257, 1000, 1024, 2047, 2048, 2100});
}

TEST(ReduceArScratchReplay, MeanFloat) {
  Sweep<float>(rp::ArOp::kMean, {1, 3, 17, 100}, {1, 8, 13, 64, 65, 100, 128, 257, 1024, 2048});
}

// More than 248 rows: ReduceSumInLargeLast runs per 248 rows, each group's work area 248 * 64
// floats past the last one's (overlapping it when p > 64: rows of 129 and 160 floats, which fit
// the UB with isReuseSource only; reusing src, group 1 works on other rows' data); and 2040 and
// 4100 rows of at most 8 floats (BlkReduceForLoop's whole calls all at offset 0).
TEST(ReduceArScratchReplay, ManyRows) {
  for (rp::ArOp op : {rp::ArOp::kSum, rp::ArOp::kMean}) {
    Sweep<float>(op, {248, 249, 300}, {65, 72, 100, 128, 129, 160});
    Sweep<float>(op, {2040, 4100}, {3, 8});
  }
}

// A padLast of 2048 floats with more rows than the tail's 64-lane slices: the tail adds run as
// repeats whose src stride (2048 / 8 as uint8_t) is 0, every row adding row 0's tail; reusing
// src, the work rows' stride too, so row 0 takes the tail once per row and the other rows none.
// (Without isReuseSource src and the scratch of these shapes do not fit the UB together.)
TEST(ReduceArScratchReplay, RepeatStrideWraps) {
  for (uint32_t last : {2041u, 2048u}) {
    Compare<float>(rp::ArOp::kSum, true, 17, last, 32, false, 11);
    Compare<float>(rp::ArOp::kMean, true, 18, last, 64, true, 12);
  }
}

// ReduceMax/ReduceMin/ReduceAny/ReduceAll (float) and ReduceMax/ReduceMin (half): rows of less
// than a block, one block, up to a repeat (DoReduceByBlk), up to 255 blocks (DoReduceByRep) and
// longer (DoLongLastReduce), tails that are not whole blocks or repeats, ties of +-0 and equal
// values (which element the device keeps shows in dst).
TEST(ReduceArScratchReplay, MaxMinFloat) {
  for (rp::ArOp op : {rp::ArOp::kMax, rp::ArOp::kMin, rp::ArOp::kAny, rp::ArOp::kAll}) {
    Sweep<float>(op, {1, 3, 8, 9, 17, 100},
                 {1, 7, 8, 9, 13, 63, 64, 65, 100, 128, 200, 2040, 2041, 2100, 4200});
    Sweep<float>(op, {5, 300}, {5, 20, 64, 100}, true);
  }
}

TEST(ReduceArScratchReplay, MaxMinHalf) {
  for (rp::ArOp op : {rp::ArOp::kMax, rp::ArOp::kMin}) {
    Sweep<half>(op, {1, 3, 8, 9, 17, 100},
                {1, 15, 16, 17, 40, 127, 128, 129, 300, 4080, 4081, 4200, 8400});
    Sweep<half>(op, {5, 300}, {9, 40, 128, 200}, true);
  }
}

// ReduceProd (float): rows shorter than a block (powers of two and not), one block, powers of two
// above it (the halving from src) and others (the tail multiplied onto the head), 300 and 1000
// rows (each row's work area past the one before's result block), the specials.
TEST(ReduceArScratchReplay, ProdFloat) {
  Sweep<float>(rp::ArOp::kProd, {1, 2, 3, 8, 9, 17, 100},
               {1, 2, 3, 5, 7, 8, 9, 13, 16, 17, 64, 65, 100, 128, 129, 1000, 2048, 2100});
  Sweep<float>(rp::ArOp::kProd, {300, 1000}, {3, 8, 20});
}

// uint8_t ReduceAny/ReduceAll: rows below 32 bytes (no fold; rows of 17..31 count their first 16
// bytes only: the device's BlkReduceForLoop mask), 32, powers of two and tails above it (with
// and without isReuseSource, which changes nothing), the padding bytes cast into the scratch.
TEST(ReduceArScratchReplay, AnyAllUint8) {
  for (rp::ArOp op : {rp::ArOp::kAny, rp::ArOp::kAll}) {
    Sweep<uint8_t>(op, {1, 3, 8, 9, 17, 100}, {1, 5, 16, 17, 20, 31, 32, 33, 64, 100, 257, 1000});
    Sweep<uint8_t>(op, {40}, {17, 24, 31, 48}, true);
  }
}

// Rows of 17..31 bytes: only their first 16 take part (BlkReduceForLoop's mask is min(last, 16)
// lanes, and rows below 32 bytes are not folded). lngrad reduced all `last` bytes before. Checked
// mode refuses the shape (reduce_device_defect), so the device's numbers are checked unchecked.
TEST(ReduceArScratchReplay, AnyAllUint8ShortRowsCountSixteenBytes) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  lngrad::aicore::LaunchOptions opts;
  opts.soc = k910;
  std::vector<uint8_t> got(8, 0x5b);
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<> bs, bd, bt;
        pipe.InitBuffer(bs, 64);
        pipe.InitBuffer(bd, 32);
        pipe.InitBuffer(bt, 128);
        LocalTensor<uint8_t> s = bs.Get<uint8_t>(), d = bd.Get<uint8_t>();
        std::memset(s.HostPtr(), 0, 64);
        std::memset(s.HostPtr() + 32, 1, 32);
        s.HostPtr()[20] = 1;       // row 0: a 1 past the first 16 bytes only
        s.HostPtr()[32 + 25] = 0;  // row 1: a 0 past the first 16 bytes only
        const uint32_t shape[2] = {2, 30};
        AscendC::ReduceAny<uint8_t, AR>(d, s, bt.Get<uint8_t>(), shape, true);
        got[0] = d.HostPtr()[0];
        AscendC::ReduceAll<uint8_t, AR>(d, s, bt.Get<uint8_t>(), shape, true);
        got[1] = d.HostPtr()[1];
      },
      opts);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(got[0], 0);  // Any of row 0: its 1 is byte 20
  EXPECT_EQ(got[1], 1);  // All of row 1: its 0 is byte 25
}

// Arch 2002: the kit's reduce.h calls no implementation there: checked mode refuses, unchecked
// leaves dst and the scratch alone.
TEST(ReduceArScratchReplay, NotOn2002) { rs::ExpectNotOn2002<AR>(8, 128); }

}  // namespace
