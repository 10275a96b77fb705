// What AscendAntiQuant's 2201 bfloat16 performance path (not transposed, offset tensor) leaves in
// its scratch, against the replay of the kit's instructions (replay_antiquant_scratch.h), on
// Ascend910B1: int8_t and int4b_t sources, N with and without the 64-column tail (and below 64:
// the tail alone), K from 1 past 255 (two calls, the second's staging elsewhere), offsets of N,
// 2 N (two groups) and N + 16 elements (PreCast's floats reaching into the slices' region),
// scratch sizes from the minimum (one not a multiple of 32) to larger, both overloads (the stack
// buffer sized to the scratch). Compared bit for bit after the call: the whole scratch (bytes the
// kit does not write keep their 0xa5 fill), dst with 40 elements past it, src, offset and scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_antiquant_scratch.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace aq = lngrad_replay::aqscr;
using AscendC::AntiQuantShapeInfo;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;

constexpr uint8_t kFill = 0xa5;
constexpr uint16_t kSentinel = 0xc29a;  // bfloat16 -77
constexpr uint32_t kPast = 40;

struct Case {
  uint32_t k, n, groups, offsetElems;
  int32_t tmpExtra;  // bytes past the path's minimum 8 * offsetElems + 256 * k
};

struct Mem {
  std::vector<uint8_t> src, tmp;
  std::vector<uint16_t> dst, offset, scale;
};

// Random parameters (bfloat16 bits) with +-0, +-inf, NaN and subnormals among them.
std::vector<uint16_t> Params(uint32_t seed, uint32_t count, float range) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-range, range);
  std::uniform_int_distribution<int> pick(0, 59);
  const uint16_t special[] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x8040};
  std::vector<uint16_t> v(count);
  for (uint32_t i = 0; i < count; ++i) {
    const int p = pick(gen);
    if (p < 7) {
      v[i] = special[p];
    } else {
      const float f = u(gen);
      uint32_t b = 0;
      std::memcpy(&b, &f, 4);
      v[i] = static_cast<uint16_t>(b >> 16);
    }
  }
  return v;
}

template <typename S>
Mem RunKernel(const Case& c, const Mem& in, bool stack) {
  Mem g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = "Ascend910B1";
  const uint32_t tmpBytes = static_cast<uint32_t>(in.tmp.size());
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bo, bsc, bt, filler;
    // An int4b_t tensor's SetSize takes a byte per element (lngrad's LocalTensor): room for it.
    pipe.InitBuffer(bs, Aligned32(std::max(static_cast<uint32_t>(in.src.size()), c.k * c.n)));
    pipe.InitBuffer(bd, Aligned32(static_cast<uint32_t>(in.dst.size() * 2)));
    pipe.InitBuffer(bo, Aligned32(static_cast<uint32_t>(in.offset.size() * 2)));
    pipe.InitBuffer(bsc, Aligned32(static_cast<uint32_t>(in.scale.size() * 2)));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    std::memcpy(bs.Get<uint8_t>().HostPtr(), in.src.data(), in.src.size());
    std::memcpy(bd.Get<uint8_t>().HostPtr(), in.dst.data(), in.dst.size() * 2);
    std::memcpy(bo.Get<uint8_t>().HostPtr(), in.offset.data(), in.offset.size() * 2);
    std::memcpy(bsc.Get<uint8_t>().HostPtr(), in.scale.data(), in.scale.size() * 2);
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    LocalTensor<S> src = bs.Get<S>();
    src.SetSize(c.k * c.n);
    LocalTensor<bfloat16_t> dst = bd.Get<bfloat16_t>(c.k * c.n);
    LocalTensor<bfloat16_t> off = bo.Get<bfloat16_t>(static_cast<uint32_t>(in.offset.size()));
    LocalTensor<bfloat16_t> scl = bsc.Get<bfloat16_t>(static_cast<uint32_t>(in.scale.size()));
    const AntiQuantShapeInfo info{c.groups, c.n, c.groups, c.n};
    if (stack) {
      AscendC::AscendAntiQuant<S, bfloat16_t, false>(dst, src, off, scl, c.k, info);
    } else {
      AscendC::AscendAntiQuant<S, bfloat16_t, false>(dst, src, off, scl, tmp, c.k, info);
    }
    const auto take = [](AscendC::TBuf<>& b, size_t bytes, auto& out) {
      out.resize(bytes / sizeof(out[0]));
      std::memcpy(out.data(), b.Get<uint8_t>().HostPtr(), bytes);
    };
    take(bs, in.src.size(), g.src);
    take(bd, in.dst.size() * 2, g.dst);
    take(bo, in.offset.size() * 2, g.offset);
    take(bsc, in.scale.size() * 2, g.scale);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

template <class V>
std::string FirstDiff(const V& got, const V& want, size_t unit) {
  if (got.size() != want.size()) return "sizes differ";
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      return "element " + std::to_string(i) + " (byte " + std::to_string(i * unit) + ") of " +
             std::to_string(got.size()) + ": lngrad " + std::to_string(got[i]) + ", replay " +
             std::to_string(want[i]);
    }
  }
  return "";
}

template <typename S>
void Check(const Case& c, bool stack, uint32_t seed) {
  constexpr bool kInt4 = std::is_same_v<S, AscendC::int4b_t>;
  const uint32_t total = c.k * c.n;
  const uint32_t tmpBytes = static_cast<uint32_t>(static_cast<int64_t>(8) * c.offsetElems +
                                                  256 * int64_t{c.k} + c.tmpExtra);
  const std::string what = std::string(kInt4 ? "int4b_t" : "int8_t") + " k " + std::to_string(c.k) +
                           " n " + std::to_string(c.n) + " offset " +
                           std::to_string(c.offsetElems) + " scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : " (sharedTmpBuffer)");
  Mem in;
  std::mt19937 gen(seed);
  in.src.resize(kInt4 ? (total + 1) / 2 : total);
  for (auto& b : in.src) b = static_cast<uint8_t>(gen());
  in.offset = Params(seed + 1, c.offsetElems, 300.0f);
  in.scale = Params(seed + 2, c.offsetElems, 40.0f);
  in.dst.assign(total + kPast, kSentinel);
  in.tmp.assign(tmpBytes, kFill);
  Mem want = in;
  aq::PerfScratchCall call;
  call.int4 = kInt4;
  call.k = c.k;
  call.srcSize = total;
  call.offset = in.offset;
  call.scale = in.scale;
  ASSERT_TRUE(aq::Bf16PerformanceScratch(call, want.src, want.dst, want.tmp)) << what;
  const Mem got = RunKernel<S>(c, in, stack);
  EXPECT_EQ(FirstDiff(got.tmp, want.tmp, 1), "") << what << ": scratch";
  EXPECT_EQ(FirstDiff(got.dst, want.dst, 2), "") << what << ": dst";
  EXPECT_EQ(FirstDiff(got.src, want.src, 1), "") << what << ": src";
  EXPECT_EQ(FirstDiff(got.offset, want.offset, 2), "") << what << ": offset";
  EXPECT_EQ(FirstDiff(got.scale, want.scale, 2), "") << what << ": scale";
}

TEST(AntiQuantBf16PerformanceScratch, Int8EveryShapeAndScratch) {
  lngrad::aicore::test::CheckedModeScope checked(true);
  uint32_t seed = 18001;
  const Case cases[] = {
      {1, 64, 1, 64, 0},   {7, 96, 1, 96, 44},   {8, 32, 1, 32, 0},   {5, 160, 1, 160, 96},
      {6, 96, 2, 192, 0},  {40, 32, 1, 48, 0},   {3, 64, 1, 80, 32},  {255, 64, 1, 64, 0},
      {256, 32, 1, 32, 0}, {260, 96, 1, 96, 64}, {300, 32, 1, 48, 0}, {9, 224, 3, 672, 4000},
  };
  for (const bool stack : {false, true}) {
    for (const Case& c : cases) {
      if (stack && c.tmpExtra % 32 != 0) continue;  // the stack buffer: whole blocks
      Check<int8_t>(c, stack, seed += 3);
    }
  }
}

TEST(AntiQuantBf16PerformanceScratch, Int4EveryShapeAndScratch) {
  lngrad::aicore::test::CheckedModeScope checked(true);
  uint32_t seed = 18501;
  const Case cases[] = {{3, 64, 1, 64, 0},
                        {8, 128, 2, 256, 44},
                        {12, 64, 3, 192, 0},
                        {260, 64, 1, 64, 32},
                        {1, 192, 1, 208, 0}};
  for (const bool stack : {false, true}) {
    for (const Case& c : cases) {
      if (stack && c.tmpExtra % 32 != 0) continue;
      Check<AscendC::int4b_t>(c, stack, seed += 3);
    }
  }
}

// Unchecked mode: int8_t N a multiple of 16 but not of 32 with K up to 255, where lngrad follows
// the truncated source stride (rows read N / 32 blocks apart).
TEST(AntiQuantBf16PerformanceScratch, Int8StridedRowsUnchecked) {
  lngrad::aicore::test::CheckedModeScope unchecked(false);
  uint32_t seed = 18901;
  for (const Case& c : {Case{5, 48, 1, 48, 0}, Case{20, 80, 1, 80, 44}, Case{255, 16, 1, 16, 0}}) {
    Check<int8_t>(c, false, seed += 3);
  }
}

}  // namespace
