// SoftmaxFlashV2 with isBasicBlock on Ascend910B1 (arch 2201), the broadcast mode, float data and
// statistics, without and with update: lngrad against the replay of the kit's basic-block
// sequence (replay_softmax_flashv2_paths.h), the whole scratch byte for byte (0xa5 where nothing
// is written; two NaNs match), dst with 40 sentinels past it, src (the no-update Sub writes it),
// expSum, max, expMax, inExpSum (the update's Mul writes it) and inMax against the replay's own.
// Both overloads: sharedTmpBuffer and the stack buffer. Scratch sizes: the tiling's splits of 8
// rows, 24 rows and 12 bytes (not a multiple of 32: the shared overload only), the maximum
// (capped at 60 KiB). srcM a multiple of 8, srcK a multiple of 64 (each BasicBlockReduce branch:
// 64, [128, 512), 512, (512, 1024), 1024, above 1024). Inputs: ±inf, ±0 and subnormals in src, a
// NaN in inMax; NaN and ±0 ties in src (session 22): NanAndSignedZeroRowsFollowTheKitsMaxOrder.
// The tilings the device computes wrongly (splitK 1024 with splitM 16, repeatTimes past 255) run
// unchecked, where lngrad follows the kit: FloatDataShapesTheDeviceGetsWrong. Session 22: half
// data with half and with float statistics (HalfData, HalfDataFloatStatistics: scratch and every
// output against ReplayFlashV2BasicScratchHalf; scratch sizes for 8 and 24 rows and the maximum,
// capped at 96 KiB). Session 23 (bb): float data in splits not a multiple of 8 rows, unchecked
// (FloatDataSplitsNotAMultipleOf8Rows; the statistics' ceil(splitM / 8) * 8 rows inside the
// tensors) and K = 1024 in splits of fewer than 8 rows (FloatDataK1024InSplitsOfFewerThan8Rows).
// Session 24: every sweep and the defect shapes again on arch 2002 (Ascend310P1), against the
// replay's 2002 branches (On2002MatchesTheKitsBufferByteForByte); the operands' row 5 is negative
// with an inMax of -0 (2002's Adds of 0 gives +0, 2201's Copy keeps -0).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay.h"
#include "replay_softmax.h"
#include "replay_softmax_flashv2_paths.h"
#include "scratch_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using lngrad_replay::Bits;
using lngrad_replay::SmxTiling;

constexpr uint32_t kPast = 40;

// Session 24: the same comparisons on arch 2002 (Ascend310P1) with the replay's 2002 branches
// (On2002MatchesTheKitsBufferByteForByte sets it).
bool g2002 = false;
const char* Soc() { return g2002 ? "Ascend310P1" : "Ascend910B1"; }
constexpr uint8_t kFill = 0xa5;

struct Shape {
  uint32_t m, k;
};

std::vector<float> Uniform(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& e : v) e = d(gen);
  return v;
}

// Inputs in [-8, 8); every fourth row spans [-110, 12); specials in rows 1 and 2 mod 7.
std::vector<float> Inputs(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::vector<float> v = Uniform(seed, uint64_t{s.m} * s.k, -8.0f, 8.0f);
  const float specials[] = {INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -3e-39f, 1e-45f, -0.0f};
  for (uint32_t r = 0; r < s.m; ++r) {
    if (r % 4 == 3) {
      for (uint32_t c = 0; c < s.k; ++c)
        v[uint64_t{r} * s.k + c] = v[uint64_t{r} * s.k + c] * 7.0f - 50.0f;
    }
    if (r % 7 == 1 || r % 7 == 2) {
      for (uint32_t i = 0; i < 3; ++i) {
        v[uint64_t{r} * s.k + gen() % s.k] = specials[(r % 7 == 1 ? 1 : 0) + gen() % 7];
      }
    }
  }
  return v;
}

// Rows whose max the kit's instruction order decides (session 22), by row % 5: a NaN at a random
// column; a NaN in column 0 and a -NaN at a random one; negative values with zeros of both signs
// (lane l of chunks 0 and 1 +0 and -0, four more at random columns); the whole row ±0 at random;
// a plain row.
std::vector<float> TieInputs(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::vector<float> v = Uniform(seed, uint64_t{s.m} * s.k, -8.0f, 8.0f);
  for (uint32_t r = 0; r < s.m; ++r) {
    float* row = v.data() + uint64_t{r} * s.k;
    const uint32_t c = gen() % s.k, l = gen() % 64;
    if (r % 5 == 0) row[c] = NAN;
    if (r % 5 == 1) row[0] = NAN, row[c] = -NAN;
    if (r % 5 == 2) {
      for (uint32_t j = 0; j < s.k; ++j) row[j] = -std::fabs(row[j]) - 1.0f;
      row[l] = 0.0f;
      if (s.k >= 128) row[64 + l] = -0.0f;
      for (uint32_t i = 0; i < 4; ++i) row[gen() % s.k] = i % 2 == 0 ? -0.0f : 0.0f;
    }
    for (uint32_t j = 0; r % 5 == 3 && j < s.k; ++j) row[j] = gen() % 2 == 0 ? 0.0f : -0.0f;
  }
  return v;
}

struct Io {
  std::vector<float> src, dst, em, sum, max, inSum, inMax;
  std::vector<uint8_t> tmp;
};

uint32_t Al(uint64_t bytes) {
  return lngrad_replay::scratch_test::Aligned32(static_cast<uint32_t>(bytes));
}
void Load(const LocalTensor<float>& t, const std::vector<float>& v) {
  if (!v.empty()) std::memcpy(t.HostPtr(), v.data(), v.size() * sizeof(float));
}
void Store(const LocalTensor<float>& t, std::vector<float>& v) {
  if (!v.empty()) std::memcpy(v.data(), t.HostPtr(), v.size() * sizeof(float));
}

template <bool kUpdate>
void Call(const LocalTensor<float> (&f)[7], const LocalTensor<uint8_t>& tmp, bool stack,
          const SoftMaxTiling& t, const AscendC::SoftMaxShapeInfo& si) {
  // f: src, dst, expMax, expSum, max, inExpSum, inMax
  if (stack) {
    AscendC::SoftmaxFlashV2<float, kUpdate, false, true>(f[1], f[3], f[4], f[0], f[2], f[5], f[6],
                                                         t, si);
  } else {
    AscendC::SoftmaxFlashV2<float, kUpdate, false, true>(f[1], f[3], f[4], f[0], f[2], f[5], f[6],
                                                         tmp, t, si);
  }
}

Io RunLngrad(const Shape& s, bool update, bool stack, uint32_t tmpBytes, const SoftMaxTiling& t,
             const Io& in) {
  Io got = in;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = Soc();
  const uint64_t n = uint64_t{s.m} * s.k, st = uint64_t{s.m} * 8;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> b[7], own, filler;
    const uint64_t sizes[7] = {n, n + kPast, st, st, st, st, st};
    for (int i = 0; i < 7; ++i) pipe.InitBuffer(b[i], Al(sizes[i] * 4));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, own, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<float> f[7];
    for (int i = 0; i < 7; ++i) f[i] = b[i].Get<float>();
    LocalTensor<float> dstAll = f[1];
    f[1] = dstAll[0];
    f[1].SetSize(static_cast<uint32_t>(n));
    Load(f[0], in.src), Load(dstAll, in.dst), Load(f[2], in.em), Load(f[3], in.sum);
    Load(f[4], in.max), Load(f[5], in.inSum), Load(f[6], in.inMax);
    std::memset(tmp.HostPtr(), kFill, tmpBytes);
    const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.k};
    if (update) {
      Call<true>(f, tmp, stack, t, si);
    } else {
      Call<false>(f, tmp, stack, t, si);
    }
    Store(f[0], got.src), Store(dstAll, got.dst), Store(f[2], got.em), Store(f[3], got.sum);
    Store(f[4], got.max), Store(f[5], got.inSum), Store(f[6], got.inMax);
    got.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const auto status = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(status.ok()) << status.message();
  return got;
}

// Bit for bit; two NaNs match (the device's NaN payloads are not modelled).
bool Same(float a, float b) { return Bits(a) == Bits(b) || (std::isnan(a) && std::isnan(b)); }

void ExpectBits(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!Same(got[i], want[i])) {
      ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad " << got[i] << ", replay "
                    << want[i];
      return;
    }
  }
}

void ExpectBytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const size_t at = i / 4 * 4;
    if (got[i] != want[i] && at + 4 <= got.size()) {  // a whole float: two NaNs match
      float g = 0, w = 0;
      std::memcpy(&g, got.data() + at, 4);
      std::memcpy(&w, want.data() + at, 4);
      if (Same(g, w)) continue;
    }
    if (got[i] != want[i]) {
      uint32_t g = 0, w = 0;
      std::memcpy(&g, got.data() + at, std::min<size_t>(4, got.size() - at));
      std::memcpy(&w, want.data() + at, std::min<size_t>(4, want.size() - at));
      ADD_FAILURE() << "scratch: first mismatch at byte " << i << " (float " << i / 4
                    << "): lngrad 0x" << std::hex << g << ", replay 0x" << w;
      return;
    }
  }
}

Io Operands(const Shape& s, uint32_t seed, bool ties) {
  const uint64_t n = uint64_t{s.m} * s.k, st = uint64_t{s.m} * 8;
  Io in;
  in.src = ties ? TieInputs(seed, s) : Inputs(seed, s);
  in.dst.assign(n + kPast, -77.0f);
  in.sum = Uniform(seed + 1, st, -3.0f, 3.0f);
  in.max = Uniform(seed + 2, st, -3.0f, 3.0f);
  in.em = Uniform(seed + 3, st, -3.0f, 3.0f);
  in.inSum = Uniform(seed + 4, st, 0.5f, 40.0f);
  in.inMax = Uniform(seed + 5, st, -6.0f, 9.0f);
  if (st > 9) in.inMax[9] = NAN;
  if (st > 20) in.inMax[20] = -INFINITY;
  // Row 5: negative values and inMax -0, so the new max is inMax's zero (2002's Adds of 0 makes
  // it +0 where 2201's Copy keeps -0).
  for (uint32_t c = 0; s.m > 5 && c < s.k; ++c) {
    float& x = in.src[uint64_t{5} * s.k + c];
    if (!std::isnan(x)) x = -std::fabs(x) - 1.0f;
  }
  for (uint32_t l = 0; s.m > 5 && l < 8; ++l) in.inMax[5 * 8 + l] = -0.0f;
  return in;
}

// The basic-block tilings the kit's sequence computes wrongly (written from
// softmax_flashv2_block_reduce_impl.h and softmax_flashv2_basic_block_impl.h): splitK 1024 with
// splitM other than 8 (its reductions cover 8 rows), the uint8_t repeatTimes splitSize / 64
// past 255, splitM not a multiple of 8 (session 23: ceil(M / 8) * 8 rows of statistics). lngrad's
// checked mode refuses them (softmax_device_defect); compared unchecked.
bool KitGetsBasicWrong(const SoftMaxTiling& t) {
  return (t.splitK == 1024 && t.splitM != 8) || t.splitSize / 64 > 255 || t.splitM % 8 != 0;
}

// A caller's tiling of the shape in splits of `rows` rows (the fields the host tiling fills).
void SplitInto(SoftMaxTiling& t, const Shape& s, uint32_t rows) {
  t.splitM = t.reduceM = rows;
  t.reduceSize = rows * 8;
  t.splitSize = rows * s.k;
  t.rangeM = s.m / rows;
  t.tailM = s.m % rows;
  t.tailSplitSize = t.tailM * s.k;
  t.tailReduceSize = t.tailM * 8;
}

// One shape, one scratch size, both overloads, without and with update; returns the cases the
// replay covers (the others: the buffer stays marked in lngrad, not compared here). rows: the
// tiling's splitM (0: SoftMaxFlashV2TilingFunc's for the scratch); ties: TieInputs for src.
int Check(const Shape& s, uint32_t tmpBytes, uint32_t seed, uint32_t rows = 0, bool ties = false) {
  int covered = 0;
  for (const bool update : {false, true}) {
    SoftMaxTiling t;
    AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({s.m, s.k}), 4, 4, tmpBytes, t, update, true);
    if (rows != 0) SplitInto(t, s, rows);
    const lngrad::aicore::test::CheckedModeScope mode(lngrad::aicore::CheckedMode() &&
                                                      !KitGetsBasicWrong(t));
    // Splits not a multiple of 8 rows: compared where the last split's ceil(M / 8) * 8 rows of
    // statistics stay inside the tensors (lngrad follows the device there only).
    if (t.rangeM != 0 &&
        (t.rangeM - 1) * t.reduceSize + (t.splitM + 7) / 8 * 64 > uint64_t{s.m} * 8) {
      continue;
    }
    // K = 1024 with splitM below 8: its reductions read 8 rows of src and dst from the split on.
    if (t.rangeM != 0 && s.k == 1024 && t.splitM < 8 && (t.rangeM - 1) * t.splitM + 8 > s.m) {
      continue;
    }
    SmxTiling mt;
    std::memcpy(&mt, &t, sizeof mt);
    const Io in = Operands(s, seed, ties);
    Io want = in;
    std::vector<uint8_t> wtmp(tmpBytes, kFill);
    if (!lngrad_replay::ReplayFlashV2BasicScratch(
            mt, update,
            {want.src.data(), want.dst.data(), want.sum.data(), want.max.data(), want.em.data(),
             want.inSum.data(), want.inMax.data()},
            wtmp.data(), tmpBytes, g2002)) {
      continue;
    }
    for (const bool stack : {false, true}) {
      if (stack && tmpBytes % 32 != 0) continue;  // the stack buffer comes in 32-byte blocks
      SCOPED_TRACE("m " + std::to_string(s.m) + " k " + std::to_string(s.k) + " tmp " +
                   std::to_string(tmpBytes) + " splitM " + std::to_string(t.splitM) +
                   (update ? " update" : " no update") + (stack ? " stack" : " shared"));
      const Io got = RunLngrad(s, update, stack, tmpBytes, t, in);
      if (::testing::Test::HasFailure()) return covered;
      ++covered;
      ExpectBytes(got.tmp, wtmp);
      ExpectBits(got.dst, want.dst, "dst");
      ExpectBits(got.src, want.src, "src");
      ExpectBits(got.sum, want.sum, "expSum");
      ExpectBits(got.max, want.max, "max");
      ExpectBits(got.em, want.em, "expMax");
      ExpectBits(got.inSum, want.inSum, "inExpSum");
      ExpectBits(got.inMax, want.inMax, "inMax");
    }
  }
  return covered;
}

// Bytes for splits of `rows` rows (CalculateNDSplitM, float: w / (8 + 64) per row).
uint32_t RowsBytes(uint32_t rows) { return rows * 72 * 4; }

const Shape kShapes[] = {{8, 64},    {16, 64},  {8, 128}, {16, 256}, {24, 448},
                         {8, 512},   {24, 512}, {8, 576}, {16, 640}, {8, 1024},
                         {16, 1024}, {8, 1536}, {40, 64}, {32, 192}};

int FloatSweep(uint32_t seed) {
  int covered = 0;
  for (const Shape& s : kShapes) {
    covered += Check(s, RowsBytes(8), seed += 10);
    covered += Check(s, RowsBytes(24) + 12, seed += 10);
    const uint32_t max =
        AscendC::GetSoftMaxFlashV2MaxTmpSize(ge::Shape({s.m, s.k}), 4, 4, true, true);
    covered += Check(s, std::min<uint32_t>(max, 60 * 1024), seed += 10);
  }
  return covered;
}
TEST(SoftmaxFlashV2BasicScratchReplay, FloatData) {
  EXPECT_GE(FloatSweep(9100), 80) << "cases the replay covers";
}

// Rows with NaN and ±0 ties (TieInputs): the row max follows BasicBlockReduceMaxImpl's order
// (the first NaN of a BlockReduceMax, a NaN in Max's first operand dropped, a tie giving the
// second operand), not a left fold; max, dst, expSum and the scratch against the replay.
TEST(SoftmaxFlashV2BasicScratchReplay, NanAndSignedZeroRowsFollowTheKitsMaxOrder) {
  uint32_t seed = 9400;
  int covered = 0;
  for (const Shape& s : kShapes) {
    covered += Check(s, RowsBytes(8), seed += 10, 0, true);
    covered += Check(s, RowsBytes(24), seed += 10, 0, true);
  }
  EXPECT_GE(covered, 80) << "cases the replay covers";
}

// Half data (session 22): S = Half (half statistics) or float. Operands as the float test's
// (src, inMax, inExpSum rounded to S), one shape, one scratch size, both overloads, without and
// with update; returns the cases the replay covers.
using lngrad_replay::Half;
template <class S>
struct HalfIo {
  std::vector<Half> src, dst, em;
  std::vector<S> sum, max, inSum, inMax;
  std::vector<uint8_t> tmp;
};
template <class S>
std::vector<S> AsS(const std::vector<float>& v) {
  std::vector<S> o(v.size());
  for (size_t i = 0; i < v.size(); ++i) o[i] = lngrad_replay::FromFloat<S>(v[i]);
  return o;
}
template <class S>
HalfIo<S> HalfOperands(const Shape& s, uint32_t seed, bool ties) {
  const Io f = Operands(s, seed, ties);
  constexpr uint32_t ls = 32 / sizeof(S);
  const uint64_t st = uint64_t{s.m} * ls;
  HalfIo<S> in;
  in.src = AsS<Half>(f.src);
  in.dst.assign(f.dst.size(), lngrad_replay::FromFloat<Half>(-77.0f));
  in.em = AsS<Half>(Uniform(seed + 3, uint64_t{s.m} * 16, -3.0f, 3.0f));
  in.sum = AsS<S>(Uniform(seed + 1, st, -3.0f, 3.0f));
  in.max = AsS<S>(Uniform(seed + 2, st, -3.0f, 3.0f));
  in.inSum = AsS<S>(Uniform(seed + 4, st, 0.5f, 40.0f));
  in.inMax = AsS<S>(Uniform(seed + 5, st, -6.0f, 9.0f));
  if (st > 9) in.inMax[9] = lngrad_replay::FromFloat<S>(NAN);
  for (uint32_t l = 0; s.m > 5 && l < ls; ++l)
    in.inMax[5 * ls + l] = lngrad_replay::FromFloat<S>(-0.0f);
  return in;
}

template <class T>
void LoadT(const LocalTensor<T>& t, const std::vector<T>& v) {
  std::memcpy(t.HostPtr(), v.data(), v.size() * sizeof(T));
}
template <class T>
void StoreT(const LocalTensor<T>& t, std::vector<T>& v) {
  std::memcpy(v.data(), t.HostPtr(), v.size() * sizeof(T));
}

template <class S>
HalfIo<S> RunLngradHalf(const Shape& s, bool update, bool stack, uint32_t tmpBytes,
                        const SoftMaxTiling& t, const HalfIo<S>& in) {
  using U = std::conditional_t<std::is_same_v<S, Half>, half, float>;
  HalfIo<S> got = in;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = Soc();
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> h[3], u[4], own, filler;
    pipe.InitBuffer(h[0], Al(in.src.size() * 2));
    pipe.InitBuffer(h[1], Al(in.dst.size() * 2));
    pipe.InitBuffer(h[2], Al(in.em.size() * 2));
    for (auto& b : u) pipe.InitBuffer(b, Al(in.sum.size() * sizeof(S)));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, own, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<half> src = h[0].Get<half>(), dstAll = h[1].Get<half>(), em = h[2].Get<half>();
    LocalTensor<half> dst = dstAll[0];
    dst.SetSize(static_cast<uint32_t>(in.src.size()));
    LocalTensor<U> sum = u[0].Get<U>(), max = u[1].Get<U>(), inSum = u[2].Get<U>(),
                   inMax = u[3].Get<U>();
    LoadT(src.ReinterpretCast<Half>(), in.src), LoadT(dstAll.ReinterpretCast<Half>(), in.dst);
    LoadT(em.ReinterpretCast<Half>(), in.em), LoadT(sum.template ReinterpretCast<S>(), in.sum);
    LoadT(max.template ReinterpretCast<S>(), in.max);
    LoadT(inSum.template ReinterpretCast<S>(), in.inSum);
    LoadT(inMax.template ReinterpretCast<S>(), in.inMax);
    std::memset(tmp.HostPtr(), kFill, tmpBytes);
    const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.k};
    if (update && stack) {
      AscendC::SoftmaxFlashV2<half, true, false, true>(dst, sum, max, src, em, inSum, inMax, t, si);
    } else if (update) {
      AscendC::SoftmaxFlashV2<half, true, false, true>(dst, sum, max, src, em, inSum, inMax, tmp, t,
                                                       si);
    } else if (stack) {
      AscendC::SoftmaxFlashV2<half, false, false, true>(dst, sum, max, src, em, inSum, inMax, t,
                                                        si);
    } else {
      AscendC::SoftmaxFlashV2<half, false, false, true>(dst, sum, max, src, em, inSum, inMax, tmp,
                                                        t, si);
    }
    StoreT(dstAll.ReinterpretCast<Half>(), got.dst), StoreT(em.ReinterpretCast<Half>(), got.em);
    StoreT(sum.template ReinterpretCast<S>(), got.sum);
    StoreT(max.template ReinterpretCast<S>(), got.max);
    StoreT(inSum.template ReinterpretCast<S>(), got.inSum);
    got.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const auto status = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(status.ok()) << status.message();
  return got;
}

template <class T>
void ExpectSame(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  std::vector<float> g(got.size()), w(want.size());
  for (size_t i = 0; i < got.size(); ++i) g[i] = lngrad_replay::ToFloat(got[i]);
  for (size_t i = 0; i < want.size(); ++i) w[i] = lngrad_replay::ToFloat(want[i]);
  ExpectBits(g, w, what);
}

template <class S>
int CheckHalf(const Shape& s, uint32_t tmpBytes, uint32_t seed, bool ties, uint32_t rows = 0) {
  int covered = 0;
  for (const bool update : {false, true}) {
    SoftMaxTiling t;
    AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({s.m, s.k}), 2, sizeof(S), tmpBytes, t, update,
                                      true);
    if (rows != 0) {
      SplitInto(t, s, rows);
      t.reduceSize = rows * (32 / sizeof(S));
      t.tailReduceSize = t.tailM * (32 / sizeof(S));
    }
    const lngrad::aicore::test::CheckedModeScope mode(lngrad::aicore::CheckedMode() &&
                                                      !KitGetsBasicWrong(t));
    SmxTiling mt;
    std::memcpy(&mt, &t, sizeof mt);
    const HalfIo<S> in = HalfOperands<S>(s, seed, ties);
    HalfIo<S> want = in;
    std::vector<uint8_t> wtmp(tmpBytes, kFill);
    if (!lngrad_replay::ReplayFlashV2BasicScratchHalf<S>(
            mt, update,
            {want.src.data(), want.dst.data(), want.sum.data(), want.max.data(), want.em.data(),
             want.inSum.data(), want.inMax.data()},
            wtmp.data(), tmpBytes, g2002)) {
      continue;
    }
    for (const bool stack : {false, true}) {
      if (stack && tmpBytes % 32 != 0) continue;
      SCOPED_TRACE("m " + std::to_string(s.m) + " k " + std::to_string(s.k) + " tmp " +
                   std::to_string(tmpBytes) + " splitM " + std::to_string(t.splitM) +
                   (update ? " update" : " no update") + (stack ? " stack" : " shared"));
      const HalfIo<S> got = RunLngradHalf<S>(s, update, stack, tmpBytes, t, in);
      if (::testing::Test::HasFailure()) return covered;
      ++covered;
      ExpectBytes(got.tmp, wtmp);
      ExpectSame(got.dst, want.dst, "dst");
      ExpectSame(got.sum, want.sum, "expSum");
      ExpectSame(got.max, want.max, "max");
      ExpectSame(got.em, want.em, "expMax");
      ExpectSame(got.inSum, want.inSum, "inExpSum");
    }
  }
  return covered;
}

template <class S>
int HalfSweep(uint32_t seed) {
  int covered = 0;
  constexpr uint32_t ls = 32 / sizeof(S);
  for (const Shape& s : kShapes) {
    for (const uint32_t rows : {8u, 24u}) {  // CalculateNDSplitM's half form: ls + K + 64 a row
      covered += CheckHalf<S>(s, std::min<uint32_t>(rows * (ls + s.k + 64) * 4, 96 * 1024),
                              seed += 10, rows == 24);
    }
    const uint32_t max =
        AscendC::GetSoftMaxFlashV2MaxTmpSize(ge::Shape({s.m, s.k}), 2, sizeof(S), true, true);
    covered += CheckHalf<S>(s, std::min<uint32_t>(max, 96 * 1024), seed += 10, false);
  }
  return covered;
}

}  // namespace

// Half data with half statistics and with float statistics, NaN and ±0 tie rows in one of the
// three scratch sizes: the work buffer byte for byte and every output against the replay.
TEST(SoftmaxFlashV2BasicScratchReplay, HalfData) { EXPECT_GE(HalfSweep<Half>(9500), 60); }
TEST(SoftmaxFlashV2BasicScratchReplay, HalfDataFloatStatistics) {
  EXPECT_GE(HalfSweep<float>(9600), 60);
}

// Half data on the tilings the device computes wrongly, unchecked (session 22): K = 1024 in
// splits of 16 rows, 24 and 32 rows of 768 and 512 (the Casts' and the Exp's repeats wrapped).
static int HalfDefects() {
  const Shape shapes[] = {{16, 1024}, {24, 768}, {32, 512}};
  const uint32_t rows[] = {16, 24, 32};
  uint32_t seed = 9800;
  int covered = 0;
  for (int i = 0; i < 3; ++i) {
    const Shape& s = shapes[i];
    for (const uint32_t extra : {0u, 4096u}) {
      const uint32_t b16 = rows[i] * (16 + s.k + 64) * 4 + extra, b32 = b16 - rows[i] * 32;
      covered += CheckHalf<Half>(s, b16, seed += 10, false, rows[i]);
      covered += CheckHalf<float>(s, b32, seed += 10, false, rows[i]);
    }
  }
  return covered;
}
TEST(SoftmaxFlashV2BasicScratchReplay, HalfDataShapesTheDeviceGetsWrong) {
  EXPECT_EQ(HalfDefects(), 48) << "cases the replay covers";
}

// The tilings the device computes wrongly, unchecked (lngrad follows the kit's sequence): K = 1024
// in splits of 16 rows (rows 8..15 take the stale work-buffer floats at 64 M + 8.., and the Exp's
// 256 repeats run 0), 288 and 272 Exp repeats (32 and 16 run), K = 512 in splits of 32 (its first
// BlockReduce's 256 repeats and the Exp's run 0).
static int FloatDefects() {
  struct Case {
    Shape s;
    uint32_t rows;
  };
  const Case cases[] = {{{16, 1024}, 16}, {{24, 768}, 24}, {{32, 512}, 32}, {{16, 1088}, 16}};
  uint32_t seed = 9700;
  int covered = 0;
  for (const Case& c : cases) {
    covered += Check(c.s, RowsBytes(c.rows), seed += 10, c.rows);
    covered += Check(c.s, RowsBytes(c.rows) + 4096, seed += 10, c.rows);
  }
  return covered;
}
TEST(SoftmaxFlashV2BasicScratchReplay, FloatDataShapesTheDeviceGetsWrong) {
  EXPECT_EQ(FloatDefects(), 32) << "cases the replay covers";
}

// Session 24: on 2002 the kit runs the same basic-block functions (membase/v200 includes
// membase/common's files; not the generic loop), with AlignedBrcbImpl loops and Adds of 0 for the
// Copies: every sweep above, the scratch and every output against the replay's 2002 branches.
TEST(SoftmaxFlashV2BasicScratchReplay, On2002MatchesTheKitsBufferByteForByte) {
  g2002 = true;
  EXPECT_GE(FloatSweep(9100), 80);
  EXPECT_GE(HalfSweep<Half>(9500), 60);
  EXPECT_GE(HalfSweep<float>(9600), 60);
  EXPECT_EQ(HalfDefects(), 48);
  EXPECT_EQ(FloatDefects(), 32);
  g2002 = false;
}

// Float data in splits not a multiple of 8 rows, unchecked (session 23, bb): the last
// BlockReduce's ceil(M / 8) repeats take tmpBuffer1's floats past the split's 8 M (what the
// buffer held: 0xa5 bytes, or the earlier split's), the Brcbs and the update's 64-float repeats
// write ceil(M / 8) * 8 rows of each statistic, into the next split's rows (whose inExpSum the
// update multiplies before that split reads it) and past the last split's (tail rows here: the
// shapes keep them inside the tensors). Each BasicBlockReduce branch but K = 1024; K = 1536 also
// wraps the Exp's repeats (288). The smaller buffer holds the no-update footprint (64 M + 8
// ceil(M / 8) floats) but not the update's (64 M + 64 ceil(M / 8)): that one is not compared.
TEST(SoftmaxFlashV2BasicScratchReplay, FloatDataSplitsNotAMultipleOf8Rows) {
  struct Case {
    Shape s;
    uint32_t rows;
  };
  const Case cases[] = {{{16, 128}, 6},  {{16, 64}, 12},  {{32, 64}, 12},  {{24, 512}, 20},
                        {{32, 640}, 12}, {{16, 576}, 12}, {{16, 768}, 12}, {{32, 256}, 12}};
  uint32_t seed = 9900;
  int covered = 0;
  for (const Case& c : cases) {
    covered += Check(c.s, RowsBytes(c.rows), seed += 10, c.rows);
    covered += Check(c.s, RowsBytes(c.rows) + 4096, seed += 10, c.rows);
  }
  EXPECT_EQ(covered, 48) << "cases the replay covers";
}

// K = 1024 in splits of fewer than 8 rows, unchecked (session 23, bb): SpecialBasicBlock{Max,Add}
// Impl's fixed repeats reduce 8 rows of src (the max) and of dst (the sum) from the split on (rows
// past the split: the next split's src, dst as before the call; the shapes keep them inside the
// tensors) through 1024 work floats, and the Brcbs write 8 rows of statistics. Buffers of 1024
// floats (the footprint) and of the split's rows plus 4096 bytes.
TEST(SoftmaxFlashV2BasicScratchReplay, FloatDataK1024InSplitsOfFewerThan8Rows) {
  struct Case {
    Shape s;
    uint32_t rows;
  };
  const Case cases[] = {{{16, 1024}, 6}, {{16, 1024}, 7}, {{8, 1024}, 5}, {{8, 1024}, 7}};
  uint32_t seed = 9950;
  int covered = 0;
  for (const Case& c : cases) {
    covered += Check(c.s, 4096, seed += 10, c.rows);
    covered += Check(c.s, RowsBytes(c.rows) + 4096, seed += 10, c.rows);
  }
  EXPECT_EQ(covered, 32) << "cases the replay covers";
}

// Half data in splits not a multiple of 8 rows, unchecked (session 25, bbu), on 2201 and 2002:
// the statistics' Casts, Copies and Brcbs over reduceCeilValue repeats read inMax and inExpSum
// and write max, expSum and expMax past the split's rows (into the next split's, which it then
// overwrites, and past the last split's: tail rows here keep them inside the tensors); the Copy
// of inMax (float statistics, 2201) runs into tmpBuffer1's Brcb-ed max. Each BasicBlockReduce
// branch, K = 1024 with 12 rows; buffers of the footprint and 4096 bytes more.
TEST(SoftmaxFlashV2BasicScratchReplay, HalfDataSplitsNotAMultipleOf8Rows) {
  struct Case {
    Shape s;
    uint32_t rows;
  };
  const Case cases[] = {{{16, 128}, 6},  {{16, 64}, 12},  {{32, 64}, 12}, {{24, 512}, 20},
                        {{32, 640}, 12}, {{16, 576}, 12}, {{24, 256}, 5}, {{32, 1024}, 12}};
  int covered = 0;
  for (const bool on2002 : {false, true}) {
    g2002 = on2002;
    uint32_t seed = 9970;
    for (const Case& c : cases) {
      for (const uint32_t extra : {0u, 4096u}) {
        const uint32_t b16 = c.rows * (16 + c.s.k + 64) * 4 + extra, b32 = b16 - c.rows * 32;
        covered += CheckHalf<Half>(c.s, b16, seed += 10, false, c.rows);
        covered += CheckHalf<float>(c.s, b32, seed += 10, false, c.rows);
      }
    }
  }
  g2002 = false;
  EXPECT_EQ(covered, 240) << "cases the replay covers";
}
