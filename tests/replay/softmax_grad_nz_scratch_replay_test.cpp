// SoftmaxGrad (isFront false/true) and SoftmaxGradFront in the NZ data format, half and float, on
// Ascend910B1 (2201) and Ascend310P1 (2002): the whole work buffer after the call (filled with
// 0xa5 before it) against the replay of the kit's NZ sequence (replay_softmax_grad_nz_scratch.h),
// byte for byte, for the sharedTmpBuffer overloads and those that pop the stack buffer; dst bit
// for bit with 40 elements past it left alone, the sources unchanged. Shapes through each branch
// of ReduceSumLastNZImpl (one fractal with oriSrcK % 16 != 0: the WholeReduceSum rows and
// AlignedColumnBrcbImpl; one whole fractal: ReduceSumBlockNZImpl from the products; several: the
// accumulator with the tail repeat's mask), splits of R % 8 == 0 rows (BroadCastNZImpl) and others
// (ContinuousColumnBrcbImpl), tail splits (R < splitM: the earlier split's rows reduced again),
// more than 255 rows in a split; scratch from the NZ one-row minimum (and that plus 20 bytes) to
// every row; the host tiling made for the shape (kept by the kernel), the NZ formula's for it, and
// one made for another shape (the kernel's NZ re-tile). Sources with NaN, +-inf, +-0 and
// subnormals (two NaNs match: payloads are not promised, docs/ascendc_kernels.md §2).
// Also SoftMax in NZ: the row max a NaN reaches through the kit's Max/BlockReduceMax sequence
// (SoftMaxNzMax, at the end).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_softmax_grad_nz_scratch.h"
#include "softmax_grad_sweep.h"
#include "tiling/tiling_api.h"

namespace {

namespace rp = lngrad_replay;
namespace gs = lngrad_replay::softmax_grad_sweep;
using AscendC::LocalTensor;

constexpr uint32_t kPast = 40;  // dst elements past the output (the sentinel)
constexpr const char* k910B = "Ascend910B1";
constexpr const char* k310P = "Ascend310P1";

// Which tiling the caller passes: the host's for [m, k] (SoftMaxGradTilingFunc, ND rows per split),
// the NZ formula's for [m, k] (both kept by the kernel), or the host's for [1, k] (re-tiled);
// kSplit13: the NZ formula's made with 13 rows per split (a caller's own, kept: the last group of
// 8 rows is partial and a tail split stops short of it).
enum class Tiling { kHost, kNzFormula, kOther, kSplit13 };

struct Shape {
  uint32_t m, k, oriK;
};

// One row of the NZ tiling's per-row floats (SoftMaxGradTilingFunc with isDataFormatNZ).
uint32_t NzRowFloats(uint32_t k, uint32_t typeSize) {
  return typeSize == 2 ? 16 * 2 + k * 3 + 64 : k + 8 * 2 + 64;
}

// mode 0: SoftmaxGrad, 1: SoftmaxGrad with isFront, 2: SoftmaxGradFront.
template <class T>
void Check(const char* soc, const Shape& s, int mode, uint32_t tmpBytes0, Tiling tiling,
           uint32_t seed, bool randomWork = false) {
  const bool front = mode != 0;
  const uint32_t ts = sizeof(gs::Dev<T>);
  for (const bool stack : {false, true}) {
    const uint32_t tmpBytes = stack ? tmpBytes0 / 32 * 32 : tmpBytes0;
    SCOPED_TRACE(std::string(soc) + " m " + std::to_string(s.m) + " k " + std::to_string(s.k) +
                 " oriK " + std::to_string(s.oriK) + " mode " + std::to_string(mode) + " tmp " +
                 std::to_string(tmpBytes) + " tiling " + std::to_string(static_cast<int>(tiling)) +
                 " stack " + std::to_string(stack) + " seed " + std::to_string(seed));
    SoftMaxTiling t;
    rp::SmxTiling given{};
    if (tiling == Tiling::kNzFormula || tiling == Tiling::kSplit13) {
      const uint32_t rows = tiling == Tiling::kSplit13 ? 13 : s.m;
      given = rp::SmxNzGradTiling(tmpBytes / 4, rows, s.k, ts);
      given.srcM = s.m;
      given.rangeM = s.m / given.splitM;
      given.tailM = s.m % given.splitM;
      std::memcpy(static_cast<void*>(&t), &given, sizeof t);
    } else {
      AscendC::SoftMaxGradTilingFunc(ge::Shape({tiling == Tiling::kHost ? s.m : 1u, s.k}), ts,
                                     tmpBytes, t, front);
      std::memcpy(&given, static_cast<const void*>(&t), sizeof given);
    }
    std::mt19937 gen(seed);
    gs::Io<T> in;
    const size_t n = size_t{s.m} * s.k;
    in.grad = gs::Values<T>(gen, n, true);
    in.src = gs::Values<T>(gen, n, true);
    in.dst = gs::Values<T>(gen, (front ? size_t{s.m} * (32 / ts) : n) + kPast, false);
    in.tmp.assign(tmpBytes, 0xa5);
    if (randomWork) {
      for (uint8_t& b : in.tmp) b = static_cast<uint8_t>(gen());
    }
    const gs::Case c{s.m, s.k, s.oriK, front, mode == 2, tmpBytes, true};
    const gs::Io<T> got = gs::RunKernel<T>(
        soc, c, t, in, stack,
        [&](const LocalTensor<gs::Dev<T>>& d, const LocalTensor<gs::Dev<T>>& g,
            const LocalTensor<gs::Dev<T>>& y, const LocalTensor<uint8_t>& tmp,
            const SoftMaxTiling& tt, const AscendC::SoftMaxShapeInfo& si, bool onStack) {
          using D = gs::Dev<T>;
          if (mode == 2 && onStack) {
            AscendC::SoftmaxGradFront<D, false, true>(d, g, y, tt, si);
          } else if (mode == 2) {
            AscendC::SoftmaxGradFront<D, false, true>(d, g, y, tmp, tt, si);
          } else if (onStack) {
            AscendC::SoftmaxGrad<D, false, true>(d, g, y, tt, front, si);
          } else {
            AscendC::SoftmaxGrad<D, false, true>(d, g, y, tmp, tt, front, si);
          }
        });
    if (::testing::Test::HasFailure()) return;
    const rp::SmxTiling kt =
        tiling == Tiling::kOther ? rp::SmxNzGradTiling(tmpBytes / 4, s.m, s.k, ts) : given;
    gs::Io<T> want = in;
    ASSERT_TRUE(rp::ReplaySoftmaxGradNzWork(kt, s.oriK, in.grad.data(), in.src.data(),
                                            want.dst.data(), want.tmp, front,
                                            std::string(soc) == k310P));
    rp::scratch_test::ExpectSameValues(got.dst, want.dst, "dst (and the elements past it)");
    rp::scratch_test::ExpectSameValues(got.grad, in.grad, "gradTensor");
    rp::scratch_test::ExpectSameValues(got.src, in.src, "srcTensor");
    rp::scratch_test::ExpectSameImage(got.tmp, want.tmp, 4, "the work buffer (floats)");
  }
}

// Every API form on shape s: the NZ one-row minimum, it plus 20 bytes, twice it, every row;
// the host tiling, the NZ formula's, and (minimum only) another shape's.
template <class T>
void CheckShape(const char* soc, const Shape& s, uint32_t& seed) {
  const uint32_t ts = sizeof(gs::Dev<T>);
  const uint32_t row = NzRowFloats(s.k, ts) * 4;
  for (int mode = 0; mode < 3; ++mode) {
    for (const uint32_t bytes : {row, row + 20, row * 2, row * s.m}) {
      Check<T>(soc, s, mode, bytes, Tiling::kHost, seed++);
      Check<T>(soc, s, mode, bytes, Tiling::kNzFormula, seed++);
    }
    Check<T>(soc, s, mode, row * 3 + 4, Tiling::kOther, seed++);
  }
}

const Shape kFloatShapes[] = {{1, 16, 16},  {5, 16, 9},   {24, 16, 16}, {8, 32, 32}, {13, 48, 41},
                              {16, 64, 60}, {37, 80, 77}, {9, 32, 20},  {20, 16, 3}, {40, 32, 17}};
const Shape kHalfShapes[] = {{1, 16, 16},  {7, 16, 5},   {16, 16, 16}, {10, 32, 20},
                             {12, 48, 48}, {29, 64, 50}, {17, 32, 31}, {24, 16, 11}};

TEST(SoftmaxGradNzScratchReplay, FloatMatchesTheKitsBufferByteForByte) {
  uint32_t seed = 3100;
  for (const Shape& s : kFloatShapes) CheckShape<float>(k910B, s, seed);
}

TEST(SoftmaxGradNzScratchReplay, HalfMatchesTheKitsBufferByteForByte) {
  uint32_t seed = 3300;
  for (const Shape& s : kHalfShapes) CheckShape<rp::Half>(k910B, s, seed);
}

// Arch 2002 runs the same membase/common NZ code; half results round to nearest even.
TEST(SoftmaxGradNzScratchReplay, Arch2002LeavesTheSameSequence) {
  uint32_t seed = 3500;
  for (const Shape& s : {Shape{5, 16, 9}, Shape{13, 48, 41}, Shape{24, 16, 16}}) {
    CheckShape<float>(k310P, s, seed);
  }
  for (const Shape& s : {Shape{10, 32, 20}, Shape{7, 16, 5}, Shape{16, 16, 16}}) {
    CheckShape<rp::Half>(k310P, s, seed);
  }
}

// More than 255 rows in one split (the single-fractal WholeReduceSum runs in groups of 255), a
// buffer of random bytes (the tail split's extra rows read what the earlier split left), and a
// caller's tiling of 13 rows per split (28 rows: a tail of 2).
TEST(SoftmaxGradNzScratchReplay, RowsPast255AndRandomBuffer) {
  uint32_t seed = 3700;
  for (int mode = 0; mode < 3; ++mode) {
    Check<float>(k910B, {260, 16, 7}, mode, NzRowFloats(16, 4) * 4 * 260, Tiling::kNzFormula,
                 seed++);
    Check<float>(k910B, {29, 48, 37}, mode, NzRowFloats(48, 4) * 4 * 12 + 8, Tiling::kOther, seed++,
                 true);
    Check<rp::Half>(k910B, {21, 16, 9}, mode, NzRowFloats(16, 2) * 4 * 8, Tiling::kHost, seed++,
                    true);
    for (const Shape& s : {Shape{28, 32, 27}, Shape{28, 16, 16}, Shape{28, 16, 5}}) {
      Check<float>(k910B, s, mode, NzRowFloats(s.k, 4) * 4 * 13, Tiling::kSplit13, seed++);
      Check<rp::Half>(k910B, s, mode, NzRowFloats(s.k, 2) * 4 * 13, Tiling::kSplit13, seed++);
    }
  }
}

// SoftMax in NZ (softmax_generic_nz_impl.h, ReduceMaxLastNZImpl) on 2201: the row max ends in
// ReduceMaxBlockNZImpl's BlockReduceMax (or, one fractal with oriSrcK % 16 != 0, a WholeReduceMax),
// whose lane reduction takes the first NaN lane (docs/ascendc_compat.md; lngrad's LaneMax), after
// Max instructions that give src1 for a NaN operand. So a NaN reaching the 8-lane fold (a NaN in
// the last fractal's lane l >= 8, or in lane l + 8 of a single fractal) makes the row's max NaN,
// wherever in the fold it lands; a NaN in lane l < 8 of the accumulator is dropped by the fold's
// Max(acc[l], acc[l + 8]) (src1 wins). Row 2 of 8, the maxTensor's 8 lanes.
struct NanCase {
  uint32_t k, oriK, col;
  bool nan;  // the max the kit's sequence gives row 2
};

float SoftMaxNzRowMax(const NanCase& c) {
  constexpr uint32_t kM = 8, kRow = 2, kTmp = 16 * 1024;
  std::mt19937 gen(c.k * 100 + c.col);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<float> x(size_t{kM} * c.k), mx(kM * 8);
  for (float& v : x) v = d(gen);
  x[(c.col / 16 * kM + kRow) * 16 + c.col % 16] = NAN;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = k910B;
  opts.sequential = true;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt;
    const auto n = static_cast<uint32_t>(x.size());
    pipe.InitBuffer(bs, n * 4);
    pipe.InitBuffer(bd, n * 4);
    pipe.InitBuffer(bsum, kM * 32);
    pipe.InitBuffer(bmax, kM * 32);
    pipe.InitBuffer(bt, kTmp);
    auto src = bs.Get<float>(n), dst = bd.Get<float>(n);
    auto sum = bsum.Get<float>(kM * 8), max = bmax.Get<float>(kM * 8);
    std::memcpy(src.HostPtr(), x.data(), n * 4);
    SoftMaxTiling t;
    AscendC::SoftMaxTilingFunc(ge::Shape({kM, c.k}), 4, kTmp, t);
    AscendC::SoftMax<float, false, false, true>(dst, sum, max, src, bt.Get<uint8_t>(kTmp), t,
                                                AscendC::SoftMaxShapeInfo{kM, c.k, kM, c.oriK});
    std::memcpy(mx.data(), max.HostPtr(), mx.size() * 4);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  for (uint32_t l = 1; l < 8; ++l) {
    EXPECT_EQ(rp::Bits(mx[kRow * 8 + l]), rp::Bits(mx[kRow * 8])) << "lane " << l;
  }
  return mx[kRow * 8];
}

TEST(SoftMaxNzMax, BlockReduceMaxTakesTheFirstNaNLane) {
  for (const NanCase& c :
       {NanCase{16, 16, 11, true}, NanCase{16, 16, 13, true}, NanCase{48, 48, 41, true},
        NanCase{48, 40, 39, false}, NanCase{48, 40, 41, false}, NanCase{16, 12, 5, true},
        NanCase{16, 16, 3, false}, NanCase{48, 48, 20, false}}) {
    SCOPED_TRACE("k " + std::to_string(c.k) + " oriK " + std::to_string(c.oriK) + " col " +
                 std::to_string(c.col));
    const float m = SoftMaxNzRowMax(c);
    EXPECT_EQ(m != m, c.nan) << m;
  }
}

}  // namespace
