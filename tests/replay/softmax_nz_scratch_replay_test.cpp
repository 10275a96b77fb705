// SoftMax (with statistics) and SimpleSoftMax in the NZ data format, float, half and half with
// float statistics, on Ascend910B1 (2201) and Ascend310P1 (2002): the whole work buffer after the
// call (filled with 0xa5 or random bytes before it) against the replay of the kit's NZ sequence
// (replay_softmax_nz_scratch.h), byte for byte, for the sharedTmpBuffer overloads and those that
// pop the stack buffer; dst and the statistics bit for bit with 40 elements past them left alone,
// the sources unchanged. Shapes through each branch of Reduce{Max,Sum}LastNZImpl (one fractal with
// oriSrcK % 16 != 0: WholeReduceMax's value/index pairs and WholeReduceSum for all splitM rows;
// one whole fractal: Reduce*BlockNZImpl from the data; several: the accumulator with the last
// fractal's mask), splits of R % 8 == 0 rows (BroadCastNZImpl) and others
// (ContinuousColumnBrcbImpl), tail splits (R < splitM: the earlier split's rows reduced again);
// the caller's tiling kept (made for a smaller budget: several splits) and the kernel's NZ
// re-tile (oriSrcM < srcM for SoftMax, another srcM for SimpleSoftMax); scratch from the NZ
// one-row minimum to every row. Sources with NaN, +-inf, +-0 and subnormals.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_softmax_nz_scratch.h"
#include "softmax_grad_sweep.h"

namespace {

namespace rp = lngrad_replay;
namespace gs = lngrad_replay::softmax_grad_sweep;
using AscendC::LocalTensor;
using rp::scratch_test::Aligned32;

constexpr uint32_t kPast = 40;
constexpr uint32_t kNz = 16;
constexpr const char* k910B = "Ascend910B1";
constexpr const char* k310P = "Ascend310P1";

struct Shape {
  uint32_t m, k, oriK, oriM;
};

template <class T, class S>
struct Io {
  std::vector<T> src, dst;
  std::vector<S> sum, max;  // SimpleSoftMax: inSum, inMax
  std::vector<uint8_t> tmp;
};

// Runs SoftMax (simple: SimpleSoftMax) NZ on soc with `in`; returns the operands and the scratch.
template <class T, class S>
Io<T, S> Run(const char* soc, const Shape& s, const SoftMaxTiling& t, const Io<T, S>& in,
             bool simple, bool stack) {
  using D = gs::Dev<T>;
  using U = gs::Dev<S>;
  Io<T, S> out;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  opts.sequential = true;
  const auto bytes = static_cast<uint32_t>(in.tmp.size());
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt, filler;
    const auto n = static_cast<uint32_t>(in.src.size()), nd = static_cast<uint32_t>(in.dst.size());
    const auto ns = static_cast<uint32_t>(in.sum.size());
    pipe.InitBuffer(bs, Aligned32(n * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(nd * sizeof(T)));
    pipe.InitBuffer(bsum, Aligned32(ns * sizeof(S)));
    pipe.InitBuffer(bmax, Aligned32(ns * sizeof(S)));
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, bytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<D> x = bs.Get<D>(n), y = bd.Get<D>(nd);
    LocalTensor<U> sm = bsum.Get<U>(ns), mx = bmax.Get<U>(ns);
    std::memcpy(x.HostPtr(), in.src.data(), n * sizeof(T));
    std::memcpy(y.HostPtr(), in.dst.data(), nd * sizeof(T));
    std::memcpy(sm.HostPtr(), in.sum.data(), ns * sizeof(S));
    std::memcpy(mx.HostPtr(), in.max.data(), ns * sizeof(S));
    std::memcpy(tmp.HostPtr(), in.tmp.data(), bytes);
    const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.oriM, s.oriK};
    if (simple && stack) {
      AscendC::SimpleSoftMax<D, false, false, true>(y, sm, mx, x, t, si);
    } else if (simple) {
      AscendC::SimpleSoftMax<D, false, false, true>(y, sm, mx, x, tmp, t, si);
    } else if (stack) {
      AscendC::SoftMax<D, false, false, true>(y, sm, mx, x, t, si);
    } else {
      AscendC::SoftMax<D, false, false, true>(y, sm, mx, x, tmp, t, si);
    }
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    out.src.resize(n);
    out.dst.resize(nd);
    out.sum.resize(ns);
    out.max.resize(ns);
    std::memcpy(out.src.data(), x.HostPtr(), n * sizeof(T));
    std::memcpy(out.dst.data(), y.HostPtr(), nd * sizeof(T));
    std::memcpy(out.sum.data(), sm.HostPtr(), ns * sizeof(S));
    std::memcpy(out.max.data(), mx.HostPtr(), ns * sizeof(S));
    out.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + bytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

// One case, both overloads: scratch tmpBytes0, the caller's tiling made for tilingRows rows of
// budget (0: the scratch) and kept where the kit keeps it (SoftMax: oriSrcM == srcM; SimpleSoftMax:
// unless otherM), else the kernel's re-tile.
template <class T, class S>
void Check(const char* soc, const Shape& s, bool simple, uint32_t tmpBytes0, uint32_t tilingRows,
           bool otherM, uint32_t seed) {
  for (const bool stack : {false, true}) {
    const uint32_t tmpBytes = stack ? tmpBytes0 / 32 * 32 : tmpBytes0;
    SCOPED_TRACE(std::string(soc) + (simple ? " SimpleSoftMax" : " SoftMax") + " m " +
                 std::to_string(s.m) + " k " + std::to_string(s.k) + " oriK " +
                 std::to_string(s.oriK) + " oriM " + std::to_string(s.oriM) + " tmp " +
                 std::to_string(tmpBytes) + " tilingRows " + std::to_string(tilingRows) +
                 " otherM " + std::to_string(otherM) + " stack " + std::to_string(stack) +
                 " seed " + std::to_string(seed));
    const uint32_t budget = tilingRows != 0 ? tilingRows * (kNz + s.k) : tmpBytes / 4;
    rp::SmxTiling given = rp::SmxNzTiling(budget, s.m, s.k, s.oriM, sizeof(S));
    if (otherM) given.srcM = s.m + kNz;
    SoftMaxTiling t;
    std::memcpy(static_cast<void*>(&t), &given, sizeof t);
    const bool kept = simple ? !otherM : s.oriM == s.m && !otherM;
    const rp::SmxTiling kt =
        kept ? given : rp::SmxNzTiling(tmpBytes / 4, s.m, s.k, s.oriM, sizeof(S));
    std::mt19937 gen(seed);
    Io<T, S> in;
    const size_t n = size_t{s.m} * s.k, ns = size_t{s.m} * (32 / sizeof(S));
    in.src = gs::Values<T>(gen, n, true);
    in.dst = gs::Values<T>(gen, n + kPast, false);
    in.sum = gs::Values<S>(gen, ns + kPast, simple);
    in.max = gs::Values<S>(gen, ns + kPast, simple);
    in.tmp.assign(tmpBytes, 0xa5);
    if (seed % 2 == 1) {
      for (uint8_t& b : in.tmp) b = static_cast<uint8_t>(gen());
    }
    const Io<T, S> got = Run<T, S>(soc, s, t, in, simple, stack);
    if (::testing::Test::HasFailure()) return;
    Io<T, S> want = in;
    const bool v200 = std::string(soc) == k310P;
    if (simple) {
      ASSERT_TRUE(rp::ReplaySimpleSoftMaxNzWork(kt, in.src.data(), in.sum.data(), in.max.data(),
                                                want.dst.data(), want.tmp, v200));
    } else {
      ASSERT_TRUE(rp::ReplaySoftMaxNzWork(kt, s.oriK, in.src.data(), want.dst.data(),
                                          want.sum.data(), want.max.data(), want.tmp, v200));
    }
    rp::scratch_test::ExpectSameValues(got.dst, want.dst, "dst (and the elements past it)");
    rp::scratch_test::ExpectSameValues(got.sum, want.sum, "sum (and the elements past it)");
    rp::scratch_test::ExpectSameValues(got.max, want.max, "max (and the elements past it)");
    rp::scratch_test::ExpectSameValues(got.src, in.src, "srcTensor");
    rp::scratch_test::ExpectSameImage(got.tmp, want.tmp, 4, "the work buffer (floats)");
  }
}

const Shape kShapes[] = {{1, 16, 16, 1},   {5, 16, 9, 5},    {24, 16, 16, 24}, {8, 32, 32, 8},
                         {13, 48, 41, 13}, {16, 64, 60, 16}, {37, 80, 77, 37}, {20, 16, 3, 20},
                         {40, 32, 17, 40}, {16, 32, 20, 11}, {24, 16, 7, 19},  {9, 48, 48, 6}};

// Every shape: the one-row minimum, it plus 20 bytes, three rows plus 4, every row; the caller's
// tiling for the scratch, for 4 and for 16 rows (splits with tails, 8-row groups).
template <class T, class S>
void Sweep(const char* soc, bool simple, uint32_t& seed) {
  for (const Shape& s : kShapes) {
    const uint32_t row = (kNz + s.k) * 4;
    for (const uint32_t bytes : {row, row + 20, row * 3 + 4, row * s.m}) {
      Check<T, S>(soc, s, simple, bytes, 0, false, seed++);
    }
    for (const uint32_t rows : {4u, 16u}) {
      if (rows < s.m) Check<T, S>(soc, s, simple, row * s.m, rows, false, seed++);
    }
    Check<T, S>(soc, s, simple, row * 3 + 4, 0, true, seed++);
  }
}

TEST(SoftMaxNzScratchReplay, Float) {
  uint32_t seed = 100;
  for (const char* soc : {k910B, k310P}) Sweep<float, float>(soc, false, seed);
}

TEST(SoftMaxNzScratchReplay, Half) {
  uint32_t seed = 300;
  for (const char* soc : {k910B, k310P}) Sweep<rp::Half, rp::Half>(soc, false, seed);
}

TEST(SoftMaxNzScratchReplay, HalfFloatStatistics) {
  uint32_t seed = 500;
  for (const char* soc : {k910B, k310P}) Sweep<rp::Half, float>(soc, false, seed);
}

TEST(SimpleSoftMaxNzScratchReplay, Float) {
  uint32_t seed = 700;
  for (const char* soc : {k910B, k310P}) Sweep<float, float>(soc, true, seed);
}

TEST(SimpleSoftMaxNzScratchReplay, Half) {
  uint32_t seed = 900;
  for (const char* soc : {k910B, k310P}) Sweep<rp::Half, rp::Half>(soc, true, seed);
}

TEST(SimpleSoftMaxNzScratchReplay, HalfFloatStatistics) {
  uint32_t seed = 1100;
  for (const char* soc : {k910B, k310P}) Sweep<rp::Half, float>(soc, true, seed);
}

}  // namespace
