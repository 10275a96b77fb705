// SoftmaxGradFront<T, isBasicBlock = true> ND, half and float, on Ascend910B1 (2201) and
// Ascend310P1 (2002): the whole work buffer and dst with 64 elements past its rows after the call
// against the replay of the kit's sequence (replay_softmax_grad_basic_scratch.h), byte for byte,
// for the sharedTmpBuffer overloads and those that pop the stack buffer: scratch sizes from the
// one-row minimum (one not a multiple of 32) to the maximum, the shape's host tiling (splitM not
// a multiple of 8: the full splits store dst rows past the call's rows) and another shape's (the
// kernel's basic-block re-tile), tail splits, oriK < k, NaN, +-inf, +-0 and subnormals. Two NaNs
// match (payloads are not promised), every other value bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_softmax_grad_basic_scratch.h"
#include "scratch_test_util.h"
#include "tiling/tiling_api.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using rp::scratch_test::Aligned32;

constexpr uint32_t kPast = 64;  // dst elements past the output (the full splits reach 56)
constexpr const char* k910B = "Ascend910B1";
constexpr const char* k310P = "Ascend310P1";

template <class T>
using Dev = std::conditional_t<std::is_same_v<T, rp::Half>, half, float>;
template <class T>
using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

struct Case {
  uint32_t m, k, oriK;
  uint32_t tmpBytes;  // the scratch given
  bool ownTiling;     // the tiling made for [m, k] with tmpBytes; else one for [1, k]
};

std::string Name(const Case& c, bool stack) {
  return "m " + std::to_string(c.m) + " k " + std::to_string(c.k) + " oriK " +
         std::to_string(c.oriK) + " tmp " + std::to_string(c.tmpBytes) + " ownTiling " +
         std::to_string(c.ownTiling) + " stack " + std::to_string(stack);
}

// Values of magnitude up to 4, with +-0, subnormals, +-inf and the quiet NaN on some rows.
template <class T>
std::vector<T> Values(std::mt19937& gen, size_t n, bool specials) {
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<T> v(n);
  for (T& e : v) e = rp::FromFloat<T>(d(gen));
  if (!specials) return v;
  const uint32_t f32[] = {0x80000000u, 0x00000000u, 0x00000003u, 0x807FFFFFu,
                          0x7F800000u, 0xFF800000u, 0x7FC00000u};
  const uint16_t f16[] = {0x8000u, 0x0000u, 0x0001u, 0x83FFu, 0x7C00u, 0xFC00u, 0x7E00u};
  for (size_t i = 0; i < n; ++i) {
    if (gen() % 97 != 0) continue;
    const uint32_t pick = gen() % 7;
    if constexpr (sizeof(T) == 2) {
      std::memcpy(&v[i], &f16[pick], 2);
    } else {
      std::memcpy(&v[i], &f32[pick], 4);
    }
  }
  return v;
}

template <class T>
struct Io {
  std::vector<T> grad, src, dst;  // dst: the output and kPast elements past it
  std::vector<uint8_t> tmp;
};

// Runs the API on soc with `in` (dst and tmp: their contents before the call); returns
// dst, the sources and the scratch after it.
template <class T>
Io<T> RunKernel(const char* soc, const Case& c, const SoftMaxTiling& t, const Io<T>& in,
                bool stack) {
  Io<T> out;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  opts.sequential = true;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bg, bs, bd, bt, filler;
    const auto n = static_cast<uint32_t>(in.grad.size()), nd = static_cast<uint32_t>(in.dst.size());
    pipe.InitBuffer(bg, Aligned32(n * sizeof(T)));
    pipe.InitBuffer(bs, Aligned32(n * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(nd * sizeof(T)));
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, c.tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<Dev<T>> g = bg.Get<Dev<T>>(n), s = bs.Get<Dev<T>>(n), d = bd.Get<Dev<T>>(nd);
    std::memcpy(g.HostPtr(), in.grad.data(), n * sizeof(T));
    std::memcpy(s.HostPtr(), in.src.data(), n * sizeof(T));
    std::memcpy(d.HostPtr(), in.dst.data(), nd * sizeof(T));
    std::memcpy(tmp.HostPtr(), in.tmp.data(), c.tmpBytes);
    const AscendC::SoftMaxShapeInfo si{c.m, c.k, c.m, c.oriK};
    if (stack) {
      AscendC::SoftmaxGradFront<Dev<T>, true>(d, g, s, t, si);
    } else {
      AscendC::SoftmaxGradFront<Dev<T>, true>(d, g, s, tmp, t, si);
    }
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    out.grad.resize(n);
    out.src.resize(n);
    out.dst.resize(nd);
    std::memcpy(out.grad.data(), g.HostPtr(), n * sizeof(T));
    std::memcpy(out.src.data(), s.HostPtr(), n * sizeof(T));
    std::memcpy(out.dst.data(), d.HostPtr(), nd * sizeof(T));
    out.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + c.tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

// NaN payloads are not promised (docs/ascendc_kernels.md §2: compilers may swap the operands of
// + and *); NaN-ness is: two NaNs match, every other value bit for bit.
bool IsNaN(uint32_t f32) { return (f32 & 0x7FFFFFFFu) > 0x7F800000u; }
bool IsNaN(uint16_t f16) { return (f16 & 0x7FFFu) > 0x7C00u; }

template <class T>
void ExpectBits(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    Bits<T> g, w;
    std::memcpy(&g, &got[i], sizeof g);
    std::memcpy(&w, &want[i], sizeof w);
    if (g != w && !(IsNaN(g) && IsNaN(w))) {
      ADD_FAILURE() << what << ": first difference at element " << i << " of " << got.size()
                    << ": lngrad 0x" << std::hex << g << ", replay 0x" << w;
      return;
    }
  }
}

uint32_t WordAt(const std::vector<uint8_t>& b, size_t i) {
  uint32_t w = 0;
  std::memcpy(&w, b.data() + 4 * i, 4);
  return w;
}

template <class T>
void Check(const char* soc, const Case& c0, uint32_t seed, bool specials = true) {
  // The stack buffer comes in whole 32-byte blocks: there the scratch is rounded down.
  for (const bool stack : {false, true}) {
    Case c = c0;
    if (stack) c.tmpBytes = c.tmpBytes / 32 * 32;
    SCOPED_TRACE(std::string(soc) + " " + Name(c, stack) + " seed " + std::to_string(seed));
    SoftMaxTiling t;
    AscendC::SoftMaxGradTilingFunc(ge::Shape({c.ownTiling ? c.m : 1u, c.k}), sizeof(T), c.tmpBytes,
                                   t, true);
    std::mt19937 gen(seed);
    Io<T> in;
    const size_t n = size_t{c.m} * c.k;
    const size_t nd = size_t{c.m} * (32 / sizeof(T)) + kPast;
    in.grad = Values<T>(gen, n, specials);
    in.src = Values<T>(gen, n, specials);
    in.dst = Values<T>(gen, nd, false);
    in.tmp.resize(c.tmpBytes);
    for (uint8_t& b : in.tmp) b = static_cast<uint8_t>(gen());
    const Io<T> got = RunKernel<T>(soc, c, t, in, stack);
    if (::testing::Test::HasFailure()) return;
    Io<T> want = in;
    rp::SmxTiling kt;
    std::memcpy(&kt, &t, sizeof kt);
    if (!c.ownTiling) kt = rp::SmxGradTiling(c.tmpBytes / 4, c.m, c.k, sizeof(T), true, true);
    ASSERT_TRUE(rp::ReplaySoftmaxGradFrontBasicWork(kt, c.oriK, in.grad.data(), in.src.data(),
                                                    want.dst.data(), want.dst.size(), want.tmp,
                                                    std::string(soc) == k310P));
    ExpectBits(got.dst, want.dst, "dst (and the elements past it)");
    ExpectBits(got.grad, in.grad, "gradTensor");
    ExpectBits(got.src, in.src, "srcTensor");
    for (size_t i = 0; i < got.tmp.size() / 4; ++i) {
      const uint32_t g = WordAt(got.tmp, i), w = WordAt(want.tmp, i);
      if (g != w && !(IsNaN(g) && IsNaN(w))) {
        ADD_FAILURE() << "the work buffer differs from the replay's: first at float " << i << " of "
                      << got.tmp.size() / 4 << ": lngrad 0x" << std::hex << g << ", replay 0x" << w;
        break;
      }
    }
    EXPECT_TRUE(std::equal(got.tmp.begin() + got.tmp.size() / 4 * 4, got.tmp.end(),
                           want.tmp.begin() + want.tmp.size() / 4 * 4));
  }
}

struct Shape {
  uint32_t m, k, oriK;
};

// Shape s at three scratch sizes (the one-row minimum, twice it plus 20 bytes, the maximum) with
// the tiling made for s, then one made for [1, k] (the kernel's basic-block re-tile), on soc.
template <class T>
void CheckShape(const Shape& s, uint32_t& seed, const char* soc) {
  const ge::Shape shape({s.m, s.k});
  const uint32_t lo = AscendC::GetSoftMaxGradMinTmpSize(shape, sizeof(T), true, false);
  const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(shape, sizeof(T), true, false);
  for (const uint32_t bytes : {lo, lo * 2 + 20, hi}) {
    Check<T>(soc, {s.m, s.k, s.oriK, bytes, true}, seed++);
  }
  Check<T>(soc, {s.m, s.k, s.oriK, lo * 3 + 4, false}, seed++);
  Check<T>(soc, {s.m, s.k, s.oriK, hi + 4, false}, seed++);
}

const Shape kShapes[] = {{1, 64, 64},    {5, 64, 60},   {3, 128, 128}, {13, 64, 64},
                         {16, 192, 190}, {9, 256, 200}, {40, 64, 64},  {2, 1024, 1000},
                         {7, 320, 320},  {64, 128, 128}};

TEST(SoftmaxGradFrontBasicScratchReplay, FloatMatchesTheKitsBufferAndDstByteForByte) {
  uint32_t seed = 5100;
  for (const char* soc : {k910B, k310P}) {
    for (const Shape& s : kShapes) CheckShape<float>(s, seed, soc);
  }
}

TEST(SoftmaxGradFrontBasicScratchReplay, HalfMatchesTheKitsBufferAndDstByteForByte) {
  uint32_t seed = 5300;
  for (const char* soc : {k910B, k310P}) {
    for (const Shape& s : kShapes) CheckShape<rp::Half>(s, seed, soc);
  }
}

// splitM = 5 (the host tiling for [5, 64] with its maximum): the only split is full and the kit
// stores ceil(5 / 8) * 8 float rows (half: ceil(5 * 16 / 64) * 4 rows) into dst, rows 5.. with the
// sums of what its buffers hold there. lngrad writes them too (they used to be left alone).
TEST(SoftmaxGradFrontBasicScratchReplay, FullSplitStoresDstRowsPastTheCallsRows) {
  uint32_t seed = 5500;
  const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({5, 64}), 4, true, false);
  Check<float>(k910B, {5, 64, 64, hi, true}, seed++);
  const uint32_t hiH = AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({5, 64}), 2, true, false);
  Check<rp::Half>(k910B, {5, 64, 64, hiH, true}, seed++);
}

// Half [1, 64] on 2201: splitSize 64, so the first Brcb's 8 even blocks (128 floats from the
// product buffer) reach the row sums after it; the second Brcb then reads sums the first
// overwrote and row 0's lanes 8..15 hold sum 4 (of product lanes 32..39), not the row's sum. dst
// follows the kit (lngrad used to store the row sum there); 2002's AlignedBrcbImpl reads its 8
// scalars first.
TEST(SoftmaxGradFrontBasicScratchReplay, HalfOneRowOf64On2201ReadsSumsTheFirstBrcbOverwrote) {
  uint32_t seed = 5600;
  const uint32_t lo = AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({1, 64}), 2, true, false);
  for (const char* soc : {k910B, k310P}) {
    Check<rp::Half>(soc, {1, 64, 64, lo, true}, seed++, false);
    Check<rp::Half>(soc, {1, 64, 48, lo * 2 + 20, true}, seed++);
  }
}

// Checked mode refuses those stores past a dst of exactly the call's rows (tensor_bounds, as any
// overrun), before anything is written; the kit does not assert, its stores land past dst.
TEST(SoftmaxGradFrontBasicScratchReplay, CheckedModeRefusesStoresPastDst) {
  constexpr uint32_t kM = 5, kK = 64;
  SoftMaxTiling t;
  const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({kM, kK}), 4, true, false);
  AscendC::SoftMaxGradTilingFunc(ge::Shape({kM, kK}), 4, hi, t, true);
  lngrad::aicore::LaunchOptions opts;
  opts.soc = k910B;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<> bg, bs, bd, bt;
        pipe.InitBuffer(bg, kM * kK * 4);
        pipe.InitBuffer(bs, kM * kK * 4);
        pipe.InitBuffer(bd, kM * 8 * 4);
        pipe.InitBuffer(bt, Aligned32(hi));
        LocalTensor<float> g = bg.Get<float>(), s = bs.Get<float>(), d = bd.Get<float>();
        for (uint32_t i = 0; i < kM * kK; ++i) g.SetValue(i, 1.0f), s.SetValue(i, 0.5f);
        AscendC::SoftmaxGradFront<float, true>(d, g, s, bt.Get<uint8_t>(hi), t, {kM, kK, kM, kK});
      },
      opts);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("tensor_bounds"), std::string::npos) << st.ToString();
}

}  // namespace
