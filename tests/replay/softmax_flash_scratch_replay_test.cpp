// SoftmaxFlashV2's work buffer on Ascend910B1 (arch 2201), the broadcast mode's generic split
// loop, float data, half data, half data with float statistics, without and with update: lngrad
// against the replay of the kit's reductions (replay_softmax_flash_scratch.h), the whole scratch
// byte for byte (0xa5 where nothing is written; two NaNs match), dst with 40 sentinels past it,
// expSum, max and expMax against the result replay (ReplaySoftmaxFlashV2) and, for float
// statistics, the scratch replay's own, the sources unchanged. Both overloads: sharedTmpBuffer
// and the stack buffer (the TPipe leaves exactly the scratch). Scratch sizes: one row's minimum,
// three rows' and 12 bytes (not a multiple of 32: the shared overload only), the maximum (capped).
// The constant-shape config's generic path with config.oriSrcK rounded up to 8 = srcK too; rows
// whose maximum is a +0/-0 tie, below 64 columns and above (session 24). Unchecked on the splits
// whose reductions wrap (the generic loop and the config path: session 25, the device's numbers).
// The config's split path (config.oriSrcK rounded up to 8 below srcK, unchecked; session 25):
// results against the scratch replay's.
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

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay.h"
#include "replay_softmax.h"
#include "replay_softmax_flash_scratch.h"
#include "softmax_flash_scratch_util.h"
#include "tiling/tiling_api.h"

namespace {

namespace sh = lngrad_replay::scratch_test;
using AscendC::LocalTensor;
using lngrad_replay::SmxTiling;
using namespace lngrad_replay::flash_scratch_test;  // Al, Load, Store, Uniform, Widened

constexpr uint32_t kPast = 40;
constexpr uint8_t kFill = 0xa5;

struct Shape {
  uint32_t m, k, oriK;
};

// Inputs in [-8, 8); every fourth row spans [-110, 12) (exponentials underflow); specials
// (+-inf, +-0, subnormals) in rows 1 and 2 mod 7 (+inf: the row's exponentials are NaN). No NaN
// in src (rows with NaN: SoftmaxFlashV2NanReplay, against the results replay); inMax has a NaN.
std::vector<float> Inputs(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::vector<float> v(uint64_t{s.m} * s.k);
  const float specials[] = {INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -3e-39f, 1e-45f, -0.0f};
  for (uint32_t r = 0; r < s.m; ++r) {
    const bool wide = r % 4 == 3;
    std::uniform_real_distribution<float> d(wide ? -110.0f : -8.0f, wide ? 12.0f : 8.0f);
    for (uint32_t c = 0; c < s.k; ++c) v[uint64_t{r} * s.k + c] = d(gen);
    if (r % 7 == 1 || r % 7 == 2) {
      for (uint32_t i = 0; i < 3; ++i) {
        v[uint64_t{r} * s.k + gen() % s.oriK] = specials[(r % 7 == 1 ? 1 : 0) + gen() % 7];
      }
    }
  }
  return v;
}

template <class T>
using Dev = std::conditional_t<std::is_same_v<T, lngrad_replay::Half>, half, float>;

template <class T>
std::vector<T> As(const std::vector<float>& v) {
  std::vector<T> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = lngrad_replay::FromFloat<T>(v[i]);
  return r;
}

// The operands: src, dst (+ kPast), expMax ([m, 32 B] of T) of T; sum, max, inSum, inMax of S.
template <class T, class S>
struct Io {
  std::vector<T> src, dst, em;
  std::vector<S> sum, max, inSum, inMax;
  std::vector<uint8_t> tmp;
};

// Runs SoftmaxFlashV2<T, update> on a block of Ascend910B1 with the operands of `in` (cfg: the
// SoftmaxConfig).
template <class T, class S, const AscendC::SoftmaxConfig& cfg>
Io<T, S> RunLngrad(const Shape& s, bool update, bool stack, uint32_t tmpBytes,
                   const SoftMaxTiling& t, const Io<T, S>& in) {
  using DT = Dev<T>;
  using DS = Dev<S>;
  Io<T, S> got = in;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = "Ascend910B1";
  const uint64_t n = uint64_t{s.m} * s.k;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> b[7], own, filler;
    const uint64_t sizes[7] = {n * sizeof(T),
                               (n + kPast) * sizeof(T),
                               in.em.size() * sizeof(T),
                               in.sum.size() * sizeof(S),
                               in.sum.size() * sizeof(S),
                               in.sum.size() * sizeof(S),
                               in.sum.size() * sizeof(S)};
    for (int i = 0; i < 7; ++i) pipe.InitBuffer(b[i], Al(sizes[i]));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, own, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<DT> src = b[0].Get<DT>(), dstAll = b[1].Get<DT>(), em = b[2].Get<DT>();
    LocalTensor<DT> dst = dstAll[0];
    dst.SetSize(static_cast<uint32_t>(n));
    LocalTensor<DS> sum = b[3].Get<DS>(), max = b[4].Get<DS>(), inSum = b[5].Get<DS>(),
                    inMax = b[6].Get<DS>();
    Load(src, in.src), Load(dstAll, in.dst), Load(em, in.em), Load(sum, in.sum);
    Load(max, in.max), Load(inSum, in.inSum), Load(inMax, in.inMax);
    std::memset(tmp.HostPtr(), kFill, tmpBytes);
    const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
    constexpr bool kNz = false, kBasic = false, kReuse = false;
    if (update && stack) {
      AscendC::SoftmaxFlashV2<DT, true, kReuse, kBasic, kNz, cfg>(dst, sum, max, src, em, inSum,
                                                                  inMax, t, si);
    } else if (update) {
      AscendC::SoftmaxFlashV2<DT, true, kReuse, kBasic, kNz, cfg>(dst, sum, max, src, em, inSum,
                                                                  inMax, tmp, t, si);
    } else if (stack) {
      AscendC::SoftmaxFlashV2<DT, false, kReuse, kBasic, kNz, cfg>(dst, sum, max, src, em, inSum,
                                                                   inMax, t, si);
    } else {
      AscendC::SoftmaxFlashV2<DT, false, kReuse, kBasic, kNz, cfg>(dst, sum, max, src, em, inSum,
                                                                   inMax, tmp, t, si);
    }
    Store(src, got.src), Store(dstAll, got.dst), Store(em, got.em), Store(sum, got.sum);
    Store(max, got.max), Store(inSum, got.inSum), Store(inMax, got.inMax);
    got.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const auto status = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(status.ok()) << status.message();
  return got;
}

// Rows of negative values but for a tie of +0 and -0 (the row max): r % 4 == 0 -0 then +0, 1 +0
// then -0, 2 -0 twice, 3 -0, +0, -0, at random reduced columns (so in different lanes of the
// 64-lane accumulator, or one lane's chunks); the padding columns random in [-8, 8).
std::vector<float> TieInputs(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> neg(-8.0f, -0.5f), any(-8.0f, 8.0f);
  std::vector<float> v(uint64_t{s.m} * s.k);
  const float signs[4][3] = {
      {-0.0f, 0.0f, -1.0f}, {0.0f, -0.0f, -1.0f}, {-0.0f, -0.0f, -1.0f}, {-0.0f, 0.0f, -0.0f}};
  for (uint32_t r = 0; r < s.m; ++r) {
    float* row = v.data() + uint64_t{r} * s.k;
    for (uint32_t c = 0; c < s.k; ++c) row[c] = c < s.oriK ? neg(gen) : any(gen);
    uint32_t at[3];
    for (uint32_t& a : at) a = gen() % s.oriK;
    std::sort(std::begin(at), std::end(at));
    for (uint32_t i = 0; i < 3; ++i) {
      if (i == 0 || at[i] != at[i - 1]) row[at[i]] = signs[r % 4][i];
    }
  }
  return v;
}

template <class T, class S>
Io<T, S> Operands(const Shape& s, uint32_t seed, bool ties) {
  const uint64_t n = uint64_t{s.m} * s.k, st = uint64_t{s.m} * 32 / sizeof(S);
  Io<T, S> in;
  in.src = As<T>(ties ? TieInputs(seed, s) : Inputs(seed, s));
  in.dst.assign(n + kPast, lngrad_replay::FromFloat<T>(-77.0f));
  in.sum = As<S>(Uniform(seed + 1, st, -3.0f, 3.0f));  // stale contents the broadcast reads
  in.max = As<S>(Uniform(seed + 2, st, -3.0f, 3.0f));
  in.em = As<T>(Uniform(seed + 3, uint64_t{s.m} * 32 / sizeof(T), -3.0f, 3.0f));
  in.inSum = As<S>(Uniform(seed + 4, st, 0.5f, 40.0f));
  std::vector<float> inMax = Uniform(seed + 5, st, -6.0f, 9.0f);
  if (st > 9) inMax[9] = NAN;
  in.inMax = As<S>(inMax);
  return in;
}

// Replay floats stored as T (FLOAT2HALF_ROUND_MODE for half).
template <class T>
std::vector<T> Stored(const std::vector<float>& v) {
  std::vector<T> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if constexpr (std::is_same_v<T, lngrad_replay::Half>) {
      r[i] = lngrad_replay::FloatToHalfRoundAway(v[i]);
    } else {
      r[i] = v[i];
    }
  }
  return r;
}

// One shape, one scratch size, both overloads, without and with update (ties: TieInputs' src).
// device: the results expected are the scratch replay's (its reductions' wrapped operands), not
// the results replay's.
template <class T, class S, const AscendC::SoftmaxConfig& cfg = AscendC::SOFTMAX_DEFAULT_CFG>
void Check(const Shape& s, uint32_t tmpBytes, uint32_t seed, bool ties = false,
           bool device = false) {
  const ge::Shape shape({s.m, s.k});
  constexpr bool kHalf = std::is_same_v<T, lngrad_replay::Half>;
  constexpr bool kStatHalf = std::is_same_v<S, lngrad_replay::Half>;
  for (const bool update : {false, true}) {
    SoftMaxTiling t;
    AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(S), tmpBytes, t, update, false);
    SmxTiling mt;
    std::memcpy(&mt, &t, sizeof mt);
    const Io<T, S> in = Operands<T, S>(s, seed, ties);
    for (const bool stack : {false, true}) {
      if (stack && tmpBytes % 32 != 0) continue;  // the stack buffer comes in 32-byte blocks
      SCOPED_TRACE(std::string(kHalf ? "half" : "float") + (kStatHalf ? "/half" : "/float") +
                   " m " + std::to_string(s.m) + " k " + std::to_string(s.k) + " oriK " +
                   std::to_string(s.oriK) + " tmp " + std::to_string(tmpBytes) + " splitM " +
                   std::to_string(t.splitM) + " tailM " + std::to_string(t.tailM) +
                   (update ? " update" : " no update") + (stack ? " stack" : " shared"));
      const Io<T, S> got = RunLngrad<T, S, cfg>(s, update, stack, tmpBytes, t, in);
      if (::testing::Test::HasFailure()) return;
      // The results' replay.
      Io<T, S> want = in;
      if (!device) {
        lngrad_replay::ReplaySoftmaxFlashV2<T, S>(mt, s.oriK, update, in.src.data(),
                                                  want.dst.data(), want.sum.data(), want.max.data(),
                                                  want.em.data(), in.inSum.data(), in.inMax.data());
      }
      // The scratch's replay (and its own float statistics).
      std::vector<uint8_t> wtmp(tmpBytes, kFill);
      const std::vector<float> src = Widened(in.src), inSum = Widened(in.inSum),
                               inMax = Widened(in.inMax);
      std::vector<float> rsum = Widened(in.sum), rmax = Widened(in.max);
      std::vector<float> rdst(uint64_t{s.m} * s.k), rem(in.em.size()), hsum(rsum.size()),
          hmax(rmax.size());
      ASSERT_TRUE(lngrad_replay::ReplayFlashV2Scratch(
          mt, s.oriK, {update, kHalf, kStatHalf},
          {src.data(), kStatHalf ? nullptr : rsum.data(), kStatHalf ? nullptr : rmax.data(),
           inMax.data(), inSum.data()},
          wtmp.data(), tmpBytes, {rdst.data(), rem.data(), hmax.data(), hsum.data()},
          cfg.oriSrcK != 0 ? (cfg.oriSrcK + 7) / 8 * 8 : 0));  // the config's reduction stride
      if (device) {
        const std::vector<T> d = Stored<T>(rdst);
        std::copy(d.begin(), d.end(), want.dst.begin());
        if (update) want.em = Stored<T>(rem);
        want.sum = Stored<S>(kStatHalf ? hsum : rsum);
        want.max = Stored<S>(kStatHalf ? hmax : rmax);
      }
      EXPECT_NE(wtmp, std::vector<uint8_t>(tmpBytes, kFill)) << "the replay wrote no scratch";
      sh::ExpectSameImage(got.tmp, wtmp, 4, "scratch");
      sh::ExpectSameValues(got.dst, want.dst, "dst");
      sh::ExpectSameValues(got.sum, want.sum, "expSum");
      sh::ExpectSameValues(got.max, want.max, "max");
      sh::ExpectSameValues(got.em, want.em, "expMax");
      if (!kStatHalf) {
        sh::ExpectSameValues(Widened(want.sum), rsum, "the scratch replay's expSum");
        sh::ExpectSameValues(Widened(want.max), rmax, "the scratch replay's max");
      }
      sh::ExpectSameValues(got.src, in.src, "src");
      sh::ExpectSameValues(got.inSum, in.inSum, "inExpSum");
      sh::ExpectSameValues(got.inMax, in.inMax, "inMax");
    }
  }
}

const Shape kShapes[] = {
    {1, 8, 8},     {3, 24, 20},    {1, 64, 64},   {2, 64, 64},      {5, 72, 72},  {1, 136, 130},
    {9, 200, 196}, {13, 136, 136}, {2, 600, 600}, {17, 1040, 1030}, {40, 64, 64}, {37, 264, 260},
    {11, 48, 48},  {3, 520, 520},  {3, 32, 30},   {4, 16, 16},      {5, 80, 80},  {9, 208, 200},
    {2, 528, 520}, {13, 144, 144}, {21, 96, 96},  {1, 1040, 1040}};

template <class T, class S>
uint32_t MinBytes(const Shape& s) {
  return AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({s.m, s.k}), sizeof(T), sizeof(S), true);
}
template <class T, class S>
uint32_t MaxBytes(const Shape& s) {
  const uint32_t max =
      AscendC::GetSoftMaxFlashV2MaxTmpSize(ge::Shape({s.m, s.k}), sizeof(T), sizeof(S), true);
  return std::min<uint32_t>(max, 60 * 1024);
}

// Every size: the minimum (one row per split), three rows' and 12 bytes, the maximum.
template <class T, class S>
void Sweep(const Shape* shapes, size_t count, uint32_t seed) {
  for (size_t i = 0; i < count; ++i) {
    const Shape& s = shapes[i];
    if (s.k * sizeof(T) % 32 != 0) continue;
    Check<T, S>(s, MinBytes<T, S>(s), seed += 10);
    Check<T, S>(s, MinBytes<T, S>(s) * 3 + 12, seed += 10);
    Check<T, S>(s, MaxBytes<T, S>(s), seed += 10);
  }
}

TEST(SoftmaxFlashV2ScratchReplay, FloatData) {
  Sweep<float, float>(kShapes, std::size(kShapes), 1900);
}

TEST(SoftmaxFlashV2ScratchReplay, HalfData) {
  Sweep<lngrad_replay::Half, lngrad_replay::Half>(kShapes, std::size(kShapes), 2900);
}

TEST(SoftmaxFlashV2ScratchReplay, HalfDataFloatStatistics) {
  Sweep<lngrad_replay::Half, float>(kShapes, std::size(kShapes), 3900);
}

// The constant-shape config's generic path (oriSrcK not a multiple of 64 or oriSrcM not of 8: not
// its basic block) with config.oriSrcK rounded up to 8 equal to srcK: softmax_flashv2_common_impl.h
// runs the generic loop's SoftmaxFlashV2NoUpdateExtImpl / SoftmaxFlashV2NDExtImpl with a
// ReduceLastND of config.oriSrcK columns (the statistics' 32 bytes a row, the tiling's reduceK):
// the generic loop's buffer with oriK = config.oriSrcK (session 23; marked before), every branch
// of the reductions (below 64, [64, 128), [128, 512), from 512).
constexpr AscendC::SoftmaxConfig kCfg30{true, 1, 30}, kCfg64{true, 1, 64}, kCfg76{true, 3, 76},
    kCfg140{true, 1, 140}, kCfg1036{true, 1, 1036};

template <class T, class S, const AscendC::SoftmaxConfig& cfg>
void ConfigSweep(uint32_t seed) {
  const uint32_t k = (cfg.oriSrcK + 7) / 8 * 8;
  for (const uint32_t m : {1u, 3u, 9u, 37u}) {
    const Shape s{m, k, cfg.oriSrcK};
    if (k * sizeof(T) % 32 != 0 || m * k > 12000) continue;  // src and dst inside the UB
    Check<T, S, cfg>(s, MinBytes<T, S>(s), seed += 10);
    Check<T, S, cfg>(s, MinBytes<T, S>(s) * 3 + 12, seed += 10);
    Check<T, S, cfg>(s, MaxBytes<T, S>(s), seed += 10);
  }
}

template <class T, class S>
void ConfigSweeps(uint32_t seed) {
  ConfigSweep<T, S, kCfg30>(seed);
  ConfigSweep<T, S, kCfg64>(seed + 200);
  ConfigSweep<T, S, kCfg76>(seed + 400);
  ConfigSweep<T, S, kCfg140>(seed + 600);
  ConfigSweep<T, S, kCfg1036>(seed + 800);
}

// (Seeds 5900/6900/7900 give rows whose maximum is a +0/-0 tie below 64 columns: session 23 had
// moved them by 3, the scratch replay's WholeReduceMax then breaking the tie unlike the results
// replay and lngrad.)
TEST(SoftmaxFlashV2ScratchReplay, ConstantShapeConfigGenericPath) {
  ConfigSweeps<float, float>(5900);
  ConfigSweeps<lngrad_replay::Half, lngrad_replay::Half>(6900);
  ConfigSweeps<lngrad_replay::Half, float>(7900);
}

// Rows whose maximum is a tie of +0 and -0 (TieInputs), below 64 columns (one masked
// WholeReduceMax, then Brcb) and above (the accumulator's Max steps, BlockReduceMax or
// WholeReduceMax), the default path and the constant-shape config's: lngrad, the results replay
// and the scratch replay break the tie alike (WholeReduceMax / BlockReduceMax the first lane
// holding the maximum; vmax the second operand; session 24, tie).
const Shape kTieShapes[] = {{1, 8, 8},     {4, 24, 20},   {6, 32, 30}, {5, 56, 56},
                            {3, 48, 41},   {9, 16, 9},    {3, 72, 72}, {2, 136, 130},
                            {9, 200, 196}, {1, 520, 520}, {3, 64, 64}, {2, 600, 600}};

template <class T, class S>
void TieSweep(uint32_t seed) {
  for (const Shape& s : kTieShapes) {
    if (s.k * sizeof(T) % 32 != 0) continue;
    Check<T, S>(s, MinBytes<T, S>(s), ++seed, true);
    Check<T, S>(s, MinBytes<T, S>(s) * 3 + 12, ++seed, true);
    Check<T, S>(s, MaxBytes<T, S>(s), ++seed, true);
  }
  for (const uint32_t m : {1u, 5u, 16u}) {
    Check<T, S, kCfg30>({m, 32, 30}, MinBytes<T, S>({m, 32, 30}) * 2, ++seed, true);
  }
}

TEST(SoftmaxFlashV2ScratchReplay, SignedZeroTieRowMaxIsTheSameInBothReplays) {
  TieSweep<float, float>(8900);
  TieSweep<lngrad_replay::Half, lngrad_replay::Half>(9900);
  TieSweep<lngrad_replay::Half, float>(10900);
}

// The splits the 2201 reductions get wrong (softmax_v200_work.h V220Defect; checked mode refuses
// them, tests/adv softmax_defect_test.cpp): unchecked, lngrad follows the device's wrapped uint8_t
// operands (softmax_flashv2_v220_device.h) and gives its work buffer, dst, expSum, max and
// expMax, bit for bit against the scratch replay's. srcK 2048 (srcK / 8 = 256 blocks: the first
// Max/Add's repeat stride wraps to 0) with oriSrcK 128, 200 and 456 and splits of several rows
// (the minimum's splits of one row are right and compared too); one row of oriSrcK 16896 and
// 17000 (BigBlockReduce*'s remainRepeat 256 and 257: 8 + 0 and 8 + 1 chunks). Float data, half
// data, half data with float statistics; without and with update; both overloads.
template <class T, class S>
void WrappedSweep(uint32_t seed) {
  for (const Shape& s : {Shape{3, 2048, 128}, Shape{3, 2048, 200}, Shape{5, 2048, 456}}) {
    Check<T, S>(s, MinBytes<T, S>(s), seed += 10, false, true);
    Check<T, S>(s, MinBytes<T, S>(s) * 3 + 12, seed += 10, false, true);
    Check<T, S>(s, MaxBytes<T, S>(s), seed += 10, false, true);
  }
  constexpr bool kHalf = std::is_same_v<T, lngrad_replay::Half>;
  for (const Shape& s :
       {Shape{1, 16896, 16896}, kHalf ? Shape{1, 17024, 17000} : Shape{1, 17000, 17000}}) {
    Check<T, S>(s, MinBytes<T, S>(s), seed += 10, false, true);
  }
}

TEST(SoftmaxFlashV2ScratchReplay, WrappedOperandsFollowTheDeviceUncheckedOn2201) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  WrappedSweep<float, float>(8900);
  WrappedSweep<lngrad_replay::Half, lngrad_replay::Half>(9900);
  WrappedSweep<lngrad_replay::Half, float>(10900);
  lngrad::aicore::SetCheckedMode(was);
}

// The constant-shape config's generic path (cfgK = config.oriSrcK rounded up to 8 = srcK) on the
// splits whose reductions wrap (BigBlockReduce*'s remainRepeat: config.oriSrcK 16896 and 17005,
// 8 + 0 and 8 + 1 chunks; cfgK stays below 512 in [128, 512), so the stride cannot wrap): unchecked
// (checked mode refuses it, CheckConfigDefect), FlashV2WorkV220 over the config's columns gives the
// device's work buffer, dst, expSum, max and expMax, against the scratch replay's.
constexpr AscendC::SoftmaxConfig kCfg16896{true, 1, 16896}, kCfg17005{true, 1, 17005};

template <class T, class S>
void WrappedConfigSweep(uint32_t seed) {
  Check<T, S, kCfg16896>({1, 16896, 16896}, MinBytes<T, S>({1, 16896, 16896}), ++seed, false, true);
  Check<T, S, kCfg17005>({1, 17008, 17005}, MinBytes<T, S>({1, 17008, 17005}), ++seed, false, true);
}

TEST(SoftmaxFlashV2ScratchReplay, WrappedConfigPathFollowsTheDeviceUncheckedOn2201) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  WrappedConfigSweep<float, float>(11900);
  WrappedConfigSweep<lngrad_replay::Half, lngrad_replay::Half>(12900);
  WrappedConfigSweep<lngrad_replay::Half, float>(13900);
  lngrad::aicore::SetCheckedMode(was);
}

// The constant-shape config's split path (config.oriSrcK rounded up to 8, splitK, below srcK;
// checked mode refuses it, softmax_device_defect): unchecked, the generic loop's steps with the
// reductions' row i of a split read at i * splitK (softmax_flashv2_paths.h FlashV2ConfigScratch,
// session 25; marked before): the buffer against the scratch replay given that stride, dst,
// expSum, max and expMax against its results (the results replay does not take the stride), every
// branch of the reductions (below 64, [64, 128), [128, 512), from 512), one-row splits to 37 rows.
constexpr AscendC::SoftmaxConfig kCfg20{true, 1, 20}, kCfg70{true, 3, 70}, kCfg130{true, 1, 130},
    kCfg520{true, 1, 520};

template <class T, class S, const AscendC::SoftmaxConfig& cfg>
void SplitSweep(uint32_t k, uint32_t seed) {
  for (const uint32_t m : {1u, 3u, 9u, 37u}) {
    const Shape s{m, k, cfg.oriSrcK};
    if (m * k > 12000) continue;  // src and dst inside the UB
    Check<T, S, cfg>(s, MinBytes<T, S>(s), seed += 10, false, true);
    Check<T, S, cfg>(s, MinBytes<T, S>(s) * 3 + 12, seed += 10, false, true);
    Check<T, S, cfg>(s, MaxBytes<T, S>(s), seed += 10, false, true);
  }
}

template <class T, class S>
void SplitSweeps(uint32_t seed) {
  SplitSweep<T, S, kCfg20>(32, seed);
  SplitSweep<T, S, kCfg70>(80, seed + 200);
  SplitSweep<T, S, kCfg130>(144, seed + 400);
  SplitSweep<T, S, kCfg520>(528, seed + 600);
}

TEST(SoftmaxFlashV2ScratchReplay, ConstantShapeConfigSplitKBelowSrcKUncheckedOn2201) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  SplitSweeps<float, float>(11900);
  SplitSweeps<lngrad_replay::Half, lngrad_replay::Half>(12900);
  SplitSweeps<lngrad_replay::Half, float>(13900);
  lngrad::aicore::SetCheckedMode(was);
}

}  // namespace
