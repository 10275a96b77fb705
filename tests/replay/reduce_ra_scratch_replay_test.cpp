// What the reduce APIs' RA pattern leaves in its scratch on arch 2201 (Ascend910B1) against the
// replay of the kit's BinaryReduceByFirstAxis (replay_cumsum_reduce_scratch.h):
// ReduceSum/Mean/Max/Min/Prod/Any/All on every type the 2201 page lists (float; half for
// Max/Min/Mean; uint8_t for Any/All, the int16 Or/And form), with and without isReuseSource,
// the sharedTmpBuffer overload and the one that pops the stack buffer, row counts 1, powers of
// two and others, row lengths with and without padding (the padding filled with values too),
// scratch sizes from the minimum up and one no multiple of 32, inputs with NaN, +-inf, +-0 and
// subnormals. Compared bit for bit (two NaNs match): the whole scratch (0xa5 where the kit's code
// does not write), dst with 40 elements past it, src (with isReuseSource: as the fold leaves it).
// Arch 2002 (Ascend310P1): the kit's reduce.h compiles these calls to nothing (NotOn2002).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "reduce_scratch_sweep.h"
#include "replay_cumsum_reduce_scratch.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace rs = lngrad_replay::reduce_scratch;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using rs::kNames;
using rs::kPast;
using RA = AscendC::Pattern::Reduce::RA;

constexpr const char* k910 = "Ascend910B1";

template <class T>
using R = std::conditional_t<sizeof(T) == 4, float,
                             std::conditional_t<sizeof(T) == 2, rp::Half, uint8_t>>;

// n values with the specials at random places (about one in 40); uint8: bytes 0 to 255 with
// runs of 0 and 1.
template <class T>
std::vector<T> Mixed(uint32_t seed, size_t n) {
  return rs::Mixed<T>(seed, n, false, rs::kSpecials,
                      [](std::mt19937& gen) { return gen() % 4 == 0 ? gen() % 256 : gen() % 2; });
}

template <class T>
void Compare(const char* soc, rp::RaOp op, bool reuse, uint32_t first, uint32_t last,
             uint32_t tmpBytes, bool stack, uint32_t seed) {
  const uint32_t pad = Aligned32(last * sizeof(T)) / sizeof(T);
  const std::string what = std::string(kNames[static_cast<int>(op)]) + "<" +
                           std::to_string(sizeof(T)) + "-byte, RA" + (reuse ? ", reuse" : "") +
                           "> on " + soc + ", [" + std::to_string(first) + ", " +
                           std::to_string(last) + "], scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : " (sharedTmpBuffer)");
  const std::vector<T> in = Mixed<T>(seed, uint64_t{first} * pad);
  rs::Compare<T, RA>(soc, static_cast<int>(op), reuse, {first, last}, tmpBytes, stack, in,
                     last + kPast, what, [&](T* src, T* dst, uint8_t* tmp) {
                       return rp::ReplayReduceRaScratch(op, reuse, reinterpret_cast<R<T>*>(src),
                                                        reinterpret_cast<R<T>*>(dst), first, last,
                                                        tmp, tmpBytes);
                     });
}

// The host's minimum (GetReduceXxxMaxMinTmpSize, RA): the rows the fold writes (all of one row
// for first 1) of the row's bytes (Sum/Mean: last rounded up to 8 floats).
uint32_t MinTmp(rp::RaOp op, uint32_t first, uint32_t last, uint32_t size, bool reuse) {
  if (reuse) return 0;
  uint32_t k = 1;
  while (k * 2 <= first) k *= 2;
  const uint32_t rows = k == first && first > 1 ? k / 2 : k;
  const bool sum = op == rp::RaOp::kSum || op == rp::RaOp::kMean;
  return rows * (sum ? (last + 7) / 8 * 8 * 4 : Aligned32(last * size));
}

template <class T>
void Sweep(rp::RaOp op, const std::vector<uint32_t>& lasts) {
  uint32_t seed = 100 + static_cast<uint32_t>(op) * 1000 + sizeof(T) * 100;
  for (const char* soc : {k910}) {
    for (bool reuse : {false, true}) {
      for (uint32_t first : {1u, 2u, 3u, 8u, 13u, 64u, 100u}) {
        for (uint32_t last : lasts) {
          if (first * Aligned32(last * sizeof(T)) > 40000) continue;  // src and scratch in the UB
          const uint32_t min = std::max<uint32_t>(MinTmp(op, first, last, sizeof(T), reuse), 32);
          for (bool stack : {false, true}) {
            std::vector<uint32_t> sizes = {min, 2 * min + 96};
            if (!stack) sizes.push_back(min + 44);
            for (uint32_t tmp : sizes) {
              Compare<T>(soc, op, reuse, first, last, tmp, stack, ++seed);
            }
          }
        }
      }
    }
  }
}

TEST(ReduceRaScratchReplay, Float) {
  for (rp::RaOp op : {rp::RaOp::kSum, rp::RaOp::kMean, rp::RaOp::kMax, rp::RaOp::kMin,
                      rp::RaOp::kProd, rp::RaOp::kAny, rp::RaOp::kAll}) {
    Sweep<float>(op, {1, 8, 13, 64, 100, 257});
  }
}

TEST(ReduceRaScratchReplay, Half) {
  for (rp::RaOp op : {rp::RaOp::kMean, rp::RaOp::kMax, rp::RaOp::kMin}) {
    Sweep<half>(op, {1, 16, 13, 100, 257});
  }
}

TEST(ReduceRaScratchReplay, Uint8AnyAll) {
  for (rp::RaOp op : {rp::RaOp::kAny, rp::RaOp::kAll}) Sweep<uint8_t>(op, {1, 31, 32, 33, 100});
}

}  // namespace

namespace {

// uint8 ReduceAny/ReduceAll RA on 2201/2002 copy the result as (last + 1) / 2 int16 lanes: an odd
// `last` writes dst[last] too (the fold of the rows' first padding byte; the kit asserts dst's
// int16 view holds the lanes). Without the lane count lngrad left that byte alone; a dst of
// exactly `last` bytes is the device's overrun (checked mode: tensor_bounds).
TEST(ReduceRaScratchReplay, Uint8OddLastWritesTheEvenByte) {
  Compare<uint8_t>(k910, rp::RaOp::kAny, false, 3, 33, 128, false, 5);
  Compare<uint8_t>(k910, rp::RaOp::kAll, true, 1, 31, 32, false, 6);
  lngrad::aicore::LaunchOptions opts;
  opts.soc = "Ascend910B1";
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [] {
        AscendC::TPipe pipe;
        AscendC::TBuf<> bs, bd, bt;
        pipe.InitBuffer(bs, 64);
        pipe.InitBuffer(bd, 64);
        pipe.InitBuffer(bt, 64);
        const uint32_t shape[2] = {2, 33};
        AscendC::ReduceAny<uint8_t, RA>(bd.Get<uint8_t>(33), bs.Get<uint8_t>(64),
                                        bt.Get<uint8_t>(64), shape, true);
      },
      opts);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("tensor_bounds"), std::string::npos) << st.ToString();
}

}  // namespace

namespace {

// Arch 2002: the kit's reduce.h defines the APIs but calls no implementation there (its
// `#if __NPU_ARCH__ == 2201 || 3510 || 5102` around the Impl call). Checked mode refuses the
// call (product); unchecked, dst, src and the scratch keep their bytes. lngrad ran the 2201
// sequence there before.
TEST(ReduceRaScratchReplay, NotOn2002) { rs::ExpectNotOn2002<RA>(16, 16); }

}  // namespace
