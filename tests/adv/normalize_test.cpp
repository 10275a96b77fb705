// The [A, R] family in lngrad_adv (Normalize; LayerNorm with mean and rstd outputs): every
// output, the scratch and the tiling write-back bit for bit against the independent replay
// (tests/replay/replay_normalize.cpp, a separate reading of the toolkit's kernels), accuracy
// against float64, and the SIMD path against the scalar one.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "adv_test_util.h"
#include "lngrad_adv/normalization.h"
#include "replay_normalize.h"

namespace lngrad::adv {
namespace {

namespace rp = lngrad_replay;

template <typename T>
constexpr bool kHalf = std::is_same_v<T, Half>;

template <typename T>
T FromFloat(float v) {
  if constexpr (kHalf<T>) {
    return Half(v);
  } else {
    return v;
  }
}
template <typename T>
double ToDouble(T v) {
  if constexpr (kHalf<T>) {
    return v.ToFloat();
  } else {
    return v;
  }
}
template <typename T>
uint32_t Bits(T v) {
  if constexpr (kHalf<T>) {
    return v.bits;
  } else {
    return std::bit_cast<uint32_t>(v);
  }
}
template <typename T>
auto ReplayType(T* p) {
  if constexpr (kHalf<T>) {
    return reinterpret_cast<rp::Half*>(p);
  } else {
    return p;
  }
}
template <typename T>
auto ReplayType(const T* p) {
  if constexpr (kHalf<T>) {
    return reinterpret_cast<const rp::Half*>(p);
  } else {
    return p;
  }
}

// n values uniform in [lo, hi) as T (adv_test_util.h's Uniform, rounded to T).
template <typename T>
std::vector<T> Random(size_t n, float lo, float hi, uint32_t seed) {
  return testing::AsType<T>(testing::Uniform(n, lo, hi, seed));
}

// The first index where the two vectors' bits differ, or -1.
template <typename T>
long FirstDiff(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (Bits(a[i]) != Bits(b[i])) return static_cast<long>(i);
  return -1;
}

// LayerNormSeparateTiling of arch 2201, written from spec §10.6 (not from src/tiling).
LayerNormSeparateTiling VectorTiling(uint32_t a, uint32_t r, uint32_t rpad, uint32_t floats) {
  LayerNormSeparateTiling t;
  const uint32_t var = (a + 7) / 8 * 8;
  uint32_t one = (floats - var) / 2 / rpad * rpad;
  one = std::min(one, a * rpad);
  t.aLength = a;
  t.rLength = r;
  t.inputXSize = a * rpad;
  t.meanVarSize = a;
  t.numberOfTmpBuf = 2;
  t.varianceTmpTensorSize = var;
  t.tmpBufSize = floats;
  t.oneTmpSize = one;
  t.firstTmpStartPos = var;
  t.secondTmpStartPos = var + one;
  t.loopRound = a * rpad / one;
  t.inputRoundSize = one;
  t.inputTailSize = a * rpad % one;
  t.inputTailPos = a * rpad - t.inputTailSize;
  t.meanVarRoundSize = one / rpad;
  t.meanVarTailSize = t.inputTailSize / rpad;
  t.meanVarTailPos = a - t.meanVarTailSize;
  t.arCurLength = one;
  t.aCurLength = one / rpad;
  t.rValueBack = 1.0f / static_cast<float>(r);
  return t;
}

// 3510: rLength, k, rHeadLength, k2Rec, k2RRec (spec §10.6).
LayerNormSeparateTiling RegTiling(uint32_t r) {
  LayerNormSeparateTiling t;
  uint32_t head = 64, k = 6;
  while (2 * head <= r) head *= 2, ++k;
  uint32_t ko = k + ((1u << k) < r ? 1 : 0);
  t.rLength = r;
  t.rHeadLength = head;
  t.oneTmpSize = k;
  t.k2Rec = 1.0f / static_cast<float>(1u << ko);
  t.k2RRec = static_cast<float>(1u << ko) / static_cast<float>(r);
  return t;
}

struct Shape {
  uint32_t a, r;
};

template <typename T>
uint32_t Pad(uint32_t r) {
  const uint32_t al = kHalf<T> ? 16 : 8;
  return (r + al - 1) / al * al;
}

// One [A, R] problem (Normalize's, or LayerNorm's, which ignores var): inputs, a scratch of
// `floats` floats pre-filled with garbage, and the outputs pre-filled too (so the padded columns
// the device leaves are compared as well).
template <typename T, typename U>
struct ArProblem {
  ArShape shape;
  std::vector<T> x, out;
  std::vector<U> gamma, beta;
  std::vector<float> mean, var, rstd, scratch;
  ArProblem(Shape s, uint64_t floats, uint32_t seed, bool no_gamma = false, bool no_beta = false) {
    const uint32_t rpad = Pad<T>(s.r);
    shape = ArShape{s.a, s.r, rpad, no_gamma, no_beta, true};
    x = Random<T>(uint64_t{s.a} * rpad, -50.0f, 50.0f, seed);
    out = Random<T>(uint64_t{s.a} * rpad + 64, -1.0f, 1.0f, seed + 1);
    gamma = Random<U>(rpad + 64, -2.0f, 2.0f, seed + 2);
    beta = Random<U>(rpad + 64, -2.0f, 2.0f, seed + 3);
    mean = Random<float>(s.a, -5.0f, 5.0f, seed + 4);
    var = Random<float>(s.a, 0.0f, 40.0f, seed + 5);
    rstd = Random<float>(s.a, -1.0f, 1.0f, seed + 6);
    scratch = Random<float>(floats, -3.0f, 3.0f, seed + 7);
    x.resize(x.size() + 64, FromFloat<T>(0.0f));
  }
  LayerNormRstdOperands<T, U> LayerNormOperands() {
    LayerNormRstdOperands<T, U> o = Shared<LayerNormRstdOperands<T, U>>();
    o.outputMean = {mean.data(), mean.size()};
    return o;
  }
  NormalizeOperands<T, U> Operands() {
    NormalizeOperands<T, U> o = Shared<NormalizeOperands<T, U>>();
    o.inputMean = {mean.data(), mean.size()};
    o.inputVariance = {var.data(), var.size()};
    return o;
  }
  // The operands both families have.
  template <class O>
  O Shared() {
    O o;
    o.output = {out.data(), out.size()};
    o.outputRstd = {rstd.data(), rstd.size()};
    o.inputX = {x.data(), x.size()};
    o.gamma = {gamma.data(), gamma.size()};
    o.beta = {beta.data(), beta.size()};
    o.scratch = {scratch.data(), scratch.size()};
    o.scratchSize = scratch.size();
    return o;
  }
};

template <typename T, typename U>
void ExpectNormalizeMatchesReplay(Algorithm algo, Shape s, uint64_t floats, bool ng, bool nb,
                                  Impl impl = Impl::kAuto) {
  SCOPED_TRACE(::testing::Message()
               << "A " << s.a << " R " << s.r << " floats " << floats << " half x "
               << kHalf<T> << " half gamma " << kHalf<U> << " noGamma " << ng << " noBeta " << nb
               << " algo " << static_cast<int>(algo));
  ArProblem<T, U> dev(s, floats, 7 + s.a * 31 + s.r, ng, nb);
  ArProblem<T, U> ref = dev;
  NormalizeFootprint f;
  ASSERT_TRUE(NormalizeFootprintFor(algo, dev.shape, kHalf<T>, kHalf<U>, floats, &f).ok());
  const float eps = 1e-5f;
  ASSERT_TRUE(Normalize(algo, dev.shape, f, dev.Operands(), eps, impl).ok());
  const rp::ArPara p{s.a, s.r, dev.shape.rLengthWithPadding, ng, nb};
  if (algo == Algorithm::kVector) {
    ASSERT_TRUE(rp::ReplayNormalize(p, ref.mean.data(), ref.var.data(), ReplayType(ref.x.data()),
                                    ReplayType(ref.gamma.data()), ReplayType(ref.beta.data()), eps,
                                    ReplayType(ref.out.data()), ref.rstd.data(), ref.scratch.data(),
                                    static_cast<uint32_t>(floats)));
  } else {
    rp::ReplayNormalize3510(p, ref.mean.data(), ref.var.data(), ReplayType(ref.x.data()),
                            ReplayType(ref.gamma.data()), ReplayType(ref.beta.data()), eps,
                            ReplayType(ref.out.data()), ref.rstd.data());
  }
  EXPECT_EQ(FirstDiff(dev.out, ref.out), -1);
  EXPECT_EQ(FirstDiff(dev.rstd, ref.rstd), -1);
  EXPECT_EQ(FirstDiff(dev.scratch, ref.scratch), -1);
  EXPECT_EQ(FirstDiff(dev.x, ref.x), -1);
}

const Shape kShapes[] = {{1, 8}, {3, 20}, {8, 64}, {5, 100}, {17, 33}, {4, 200}, {2, 1000}};

TEST(Normalize, VectorPathMatchesReplayBitwise) {
  for (const Shape& s : kShapes) {
    for (uint64_t groups : {1u, 2u, 3u, 1000u}) {
      // groups rows per pass: 2*N*Rp floats (plus two rows for half gamma).
      const uint64_t floats16 = std::max<uint64_t>(s.a, (2 * groups + 2) * Pad<Half>(s.r));
      const uint64_t floats32 = std::max<uint64_t>(s.a, 2 * groups * Pad<float>(s.r));
      ExpectNormalizeMatchesReplay<float, float>(Algorithm::kVector, s, floats32, false, false);
      ExpectNormalizeMatchesReplay<Half, Half>(Algorithm::kVector, s, floats16, false, false);
      ExpectNormalizeMatchesReplay<Half, float>(Algorithm::kVector, s, floats16, false, false);
    }
    const uint64_t big = 2 * uint64_t{s.a + 1} * Pad<float>(s.r) + 4 * Pad<float>(s.r) + s.a;
    for (bool ng : {false, true}) {
      for (bool nb : {false, true}) {
        ExpectNormalizeMatchesReplay<float, float>(Algorithm::kVector, s, big, ng, nb);
        ExpectNormalizeMatchesReplay<Half, Half>(Algorithm::kVector, s, big, ng, nb);
      }
    }
  }
}

TEST(Normalize, RegisterPathMatchesReplayBitwise) {
  for (const Shape& s : kShapes) {
    for (bool ng : {false, true}) {
      for (bool nb : {false, true}) {
        ExpectNormalizeMatchesReplay<float, float>(Algorithm::kRegBase, s, 0, ng, nb);
        ExpectNormalizeMatchesReplay<Half, Half>(Algorithm::kRegBase, s, 0, ng, nb);
        ExpectNormalizeMatchesReplay<Half, float>(Algorithm::kRegBase, s, 0, ng, nb);
      }
    }
  }
}

TEST(Normalize, ScalarPathGivesTheSameBits) {
  for (const Shape& s : kShapes) {
    ArProblem<float, float> a(s, 4 * Pad<float>(s.r) + s.a, 3);
    ArProblem<float, float> b = a;
    NormalizeFootprint f;
    ASSERT_TRUE(
        NormalizeFootprintFor(Algorithm::kVector, a.shape, false, false, a.scratch.size(), &f)
            .ok());
    ASSERT_TRUE(Normalize(Algorithm::kVector, a.shape, f, a.Operands(), 1e-5f, Impl::kScalar).ok());
    ASSERT_TRUE(Normalize(Algorithm::kVector, b.shape, f, b.Operands(), 1e-5f, Impl::kSimd).ok());
    EXPECT_EQ(FirstDiff(a.out, b.out), -1);
    EXPECT_EQ(FirstDiff(a.scratch, b.scratch), -1);
  }
}

TEST(Normalize, AccurateAgainstFloat64) {
  // y = (x - mean) / sqrt(var + eps) * gamma + beta in float64 from the same inputs; float
  // within 1e-5 relative of max(|y|, 1) (a handful of roundings of values below 2^7), half
  // within 2e-3 (one final rounding of 4.9e-4 dominates).
  for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
    for (const Shape& s : kShapes) {
      ArProblem<float, float> c(s, 4 * Pad<float>(s.r) + s.a, 11);
      NormalizeFootprint f;
      ASSERT_TRUE(NormalizeFootprintFor(algo, c.shape, false, false, c.scratch.size(), &f).ok());
      ASSERT_TRUE(Normalize(algo, c.shape, f, c.Operands(), 1e-5f).ok());
      const uint32_t rpad = c.shape.rLengthWithPadding;
      for (uint32_t i = 0; i < s.a; ++i) {
        const double rs = 1.0 / std::sqrt(double{c.var[i]} + double{1e-5f});
        EXPECT_NEAR(c.rstd[i], rs, 2e-7 * rs) << i;
        for (uint32_t k = 0; k < s.r; ++k) {
          const double y = (double{c.x[i * rpad + k]} - c.mean[i]) * rs * c.gamma[k] + c.beta[k];
          ASSERT_NEAR(c.out[i * rpad + k], y, 1e-5 * std::max(1.0, std::fabs(y))) << i << "," << k;
        }
      }
    }
  }
}

TEST(Normalize, RegisterRsqrtEdgeValues) {
  // var + eps = 0 gives +inf, +inf gives 0 (RsqrtUtil's selects); 4 gives exactly 0.5.
  ArShape s{3, 8, 8, true, true, true};
  std::vector<float> x(24, 1.0f), out(24), rstd(3), mean{0.0f, 0.0f, 0.0f};
  std::vector<float> var{0.0f, INFINITY, 4.0f};
  NormalizeOperands<float, float> o;
  o.output = {out.data(), out.size()};
  o.outputRstd = {rstd.data(), 3};
  o.inputMean = {mean.data(), 3};
  o.inputVariance = {var.data(), 3};
  o.inputX = {x.data(), x.size()};
  NormalizeFootprint f;
  ASSERT_TRUE(NormalizeFootprintFor(Algorithm::kRegBase, s, false, false, 0, &f).ok());
  EXPECT_EQ(f.inputX, 24u);
  ASSERT_TRUE(Normalize(Algorithm::kRegBase, s, f, o, 0.0f).ok());
  EXPECT_EQ(rstd[0], INFINITY);
  EXPECT_EQ(rstd[1], 0.0f);
  EXPECT_EQ(rstd[2], 0.5f);
}

TEST(Normalize, FloatStoresAddZero) {
  // noBeta, gamma -1, x = mean: t = -0 before the store; the vector path stores t + 0 = +0
  // (and loads x + 0), the register path stores the -0 itself.
  const ArShape s{1, 8, 8, false, true, true};
  for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
    std::vector<float> x(8, 2.0f), out(8, 1.0f), rstd(1), mean{2.0f}, var{1.0f}, g(8, -1.0f),
        scratch(16);
    NormalizeOperands<float, float> o;
    o.output = {out.data(), 8};
    o.outputRstd = {rstd.data(), 1};
    o.inputMean = {mean.data(), 1};
    o.inputVariance = {var.data(), 1};
    o.inputX = {x.data(), 8};
    o.gamma = {g.data(), 8};
    o.scratch = {scratch.data(), 16};
    o.scratchSize = 16;
    NormalizeFootprint f;
    ASSERT_TRUE(NormalizeFootprintFor(algo, s, false, false, 16, &f).ok());
    ASSERT_TRUE(Normalize(algo, s, f, o, 0.0f).ok());
    for (float v : out) EXPECT_EQ(std::signbit(v), algo == Algorithm::kRegBase);
  }
}

TEST(Normalize, FootprintRejectsWhatTheDeviceCannotRun) {
  NormalizeFootprint f;
  const ArShape s{10, 30, 32, false, false, true};
  EXPECT_EQ(NormalizeFootprintFor(Algorithm::kVector, s, false, false, 9, &f).code(),
            StatusCode::kInvalidArgument);  // fewer than A floats
  EXPECT_EQ(NormalizeFootprintFor(Algorithm::kVector, s, false, false, 63, &f).code(),
            StatusCode::kInvalidArgument);  // no group: 2*Rp = 64
  ASSERT_TRUE(NormalizeFootprintFor(Algorithm::kVector, s, false, false, 64, &f).ok());
  EXPECT_EQ(f.groupRows, 1u);
  EXPECT_EQ(f.scratch, 64u);
  EXPECT_EQ(NormalizeFootprintFor(Algorithm::kVector, s, false, true, 127, &f).code(),
            StatusCode::kInvalidArgument);  // half gamma: 2 more rows
  ASSERT_TRUE(NormalizeFootprintFor(Algorithm::kVector, s, false, true, 128, &f).ok());
  EXPECT_EQ(f.scratch, 64u + 32u + 30u);  // beta's float copy ends at 2*N*Rp + Rp + R
  Buffer<float> none;
  NormalizeOperands<float, float> o;
  o.scratch = none;
  EXPECT_FALSE(Normalize(Algorithm::kVector, s, f, o, 1e-5f).ok());
}

// ----------------------------------------------------------------------------------------

template <typename T, typename U>
void ExpectLayerNormMatchesReplay(Algorithm algo, Shape s, uint32_t floats, bool ng, bool nb,
                                  int calls = 1) {
  SCOPED_TRACE(::testing::Message()
               << "A " << s.a << " R " << s.r << " floats " << floats << " half x "
               << kHalf<T> << " half gamma " << kHalf<U> << " algo " << static_cast<int>(algo));
  const uint32_t rpad = Pad<T>(s.r);
  LayerNormSeparateTiling t =
      algo == Algorithm::kVector ? VectorTiling(s.a, s.r, rpad, floats) : RegTiling(s.r);
  rp::SeparateTiling rt;
  static_assert(sizeof(rt) == sizeof(t));
  std::memcpy(&rt, &t, sizeof(t));
  ArProblem<T, U> dev(s, floats, 5 + s.a * 13 + s.r, ng, nb);
  ArProblem<T, U> ref = dev;
  const rp::ArPara p{s.a, s.r, rpad, ng, nb};
  // A second call reuses the tiling the first one changed, as a kernel looping over tiles does.
  for (int call = 0; call < calls; ++call) {
    LayerNormRstdFootprint f;
    ASSERT_TRUE(LayerNormRstdFootprintFor(algo, t, dev.shape, kHalf<T>, kHalf<U>, floats, &f).ok());
    ASSERT_TRUE(LayerNormRstd(algo, t, dev.shape, f, dev.LayerNormOperands(), 1e-4f).ok());
    if (algo == Algorithm::kVector) {
      ASSERT_TRUE(rp::ReplayLayerNormRstd(rt, p, ReplayType(ref.x.data()),
                                          ReplayType(ref.gamma.data()), ReplayType(ref.beta.data()),
                                          1e-4f, ReplayType(ref.out.data()), ref.mean.data(),
                                          ref.rstd.data(), ref.scratch.data(), floats));
    } else {
      ASSERT_TRUE(rp::ReplayLayerNormRstd3510(
          rt, p, true, ReplayType(ref.x.data()), ReplayType(ref.gamma.data()),
          ReplayType(ref.beta.data()), 1e-4f, ReplayType(ref.out.data()), ref.mean.data(),
          ref.rstd.data(), ref.scratch.data()));
    }
  }
  EXPECT_EQ(FirstDiff(dev.out, ref.out), -1);
  EXPECT_EQ(FirstDiff(dev.mean, ref.mean), -1);
  EXPECT_EQ(FirstDiff(dev.rstd, ref.rstd), -1);
  EXPECT_EQ(FirstDiff(dev.scratch, ref.scratch), -1);
  EXPECT_EQ(FirstDiff(dev.x, ref.x), -1);
  EXPECT_EQ(std::memcmp(&rt, &t, sizeof(t)), 0);
}

TEST(LayerNormRstd, VectorPathMatchesReplayBitwise) {
  for (const Shape& s : kShapes) {
    const uint32_t rp32 = Pad<float>(s.r);
    const uint32_t rp16 = Pad<Half>(s.r);
    const uint32_t var = (s.a + 7) / 8 * 8;
    // One row per chunk, three rows (a tail for most A), everything in one chunk; the
    // scratch also has to hold Normalize's group (and two float rows for half gamma).
    for (uint32_t rows : {1u, 3u, 10000u}) {
      const uint32_t r32 = std::min(rows, s.a);
      const uint32_t r16 = std::min(rows, s.a);
      const uint32_t f32 = var + std::max(2 * r32 * rp32, s.a);
      const uint32_t f16 = var + std::max(2 * r16 * rp16 + 2 * rp16, s.a);
      for (int calls : {1, 2}) {
        ExpectLayerNormMatchesReplay<float, float>(Algorithm::kVector, s, f32, false, false, calls);
        ExpectLayerNormMatchesReplay<Half, Half>(Algorithm::kVector, s, f16, false, false, calls);
        ExpectLayerNormMatchesReplay<Half, float>(Algorithm::kVector, s, f16, false, false, calls);
      }
    }
    ExpectLayerNormMatchesReplay<float, float>(Algorithm::kVector, s, var + 4 * s.a * rp32, true,
                                               false);
    ExpectLayerNormMatchesReplay<Half, Half>(Algorithm::kVector, s, var + 4 * s.a * rp16, false,
                                             true);
  }
}

TEST(LayerNormRstd, RegisterPathMatchesReplayBitwise) {
  // Up to 64 and up to 128 columns: one tree per row. Beyond: the rHeadLength folding, with the
  // tail covering part of a block (129, 200, 1000), exactly one pair (256 + 64 = 320: loop 2),
  // no tail (256, 512), and 2, 4 and 8 groups of partial sums (head 16384, 32768, 65536).
  for (const Shape& s : {Shape{1, 1}, Shape{3, 7}, Shape{32, 32}, Shape{5, 64}, Shape{4, 65},
                         Shape{6, 100}, Shape{2, 128}, Shape{3, 129}, Shape{2, 200}, Shape{2, 256},
                         Shape{2, 320}, Shape{2, 400}, Shape{3, 512}, Shape{2, 1000},
                         Shape{1, 5000}, Shape{1, 20000}, Shape{1, 40000}, Shape{1, 70000}}) {
    ExpectLayerNormMatchesReplay<float, float>(Algorithm::kRegBase, s, 64, false, false);
    ExpectLayerNormMatchesReplay<Half, Half>(Algorithm::kRegBase, s, 64, false, false);
    ExpectLayerNormMatchesReplay<Half, float>(Algorithm::kRegBase, s, 64, true, false);
  }
  // A head that does not fit R would leave the row.
  LayerNormRstdFootprint f;
  const ArShape s{2, 200, 200, false, false, true};
  LayerNormSeparateTiling bad = RegTiling(200);
  bad.rHeadLength = 256;
  EXPECT_EQ(LayerNormRstdFootprintFor(Algorithm::kRegBase, bad, s, false, false, 64, &f).code(),
            StatusCode::kInvalidArgument);
}

TEST(LayerNormRstd, PaddedColumnsAreZeroedAndDoNotBiasTheStatistics) {
  // R = 20 of Rp = 24: the device multiplies x's padding by 0 in place before reducing the
  // padded rows; mean and rstd are those of the 20 real columns.
  const Shape s{6, 20};
  ArProblem<float, float> c(s, 8 + 4 * 6 * 24, 21);
  LayerNormSeparateTiling t = VectorTiling(6, 20, 24, 8 + 4 * 6 * 24);
  LayerNormRstdFootprint f;
  ASSERT_TRUE(
      LayerNormRstdFootprintFor(Algorithm::kVector, t, c.shape, false, false, c.scratch.size(), &f)
          .ok());
  std::vector<float> x0 = c.x;
  ASSERT_TRUE(LayerNormRstd(Algorithm::kVector, t, c.shape, f, c.LayerNormOperands(), 1e-4f).ok());
  for (uint32_t i = 0; i < 6; ++i) {
    double m = 0, v = 0;
    for (uint32_t k = 0; k < 20; ++k) m += x0[i * 24 + k];
    m /= 20;
    for (uint32_t k = 0; k < 20; ++k) v += (x0[i * 24 + k] - m) * (x0[i * 24 + k] - m);
    v /= 20;
    EXPECT_NEAR(c.mean[i], m, 1e-5 * std::max(1.0, std::fabs(m)));
    EXPECT_NEAR(c.rstd[i], 1 / std::sqrt(v + 1e-4), 1e-5 / std::sqrt(v + 1e-4));
    for (uint32_t k = 0; k < 20; ++k) {
      EXPECT_EQ(c.x[i * 24 + k], x0[i * 24 + k]);
      const double y = (x0[i * 24 + k] - m) / std::sqrt(v + 1e-4) * c.gamma[k] + c.beta[k];
      EXPECT_NEAR(c.out[i * 24 + k], y, 2e-5 * std::max(1.0, std::fabs(y)));
    }
    for (uint32_t k = 20; k < 24; ++k) EXPECT_EQ(std::fabs(c.x[i * 24 + k]), 0.0f);
  }
}

}  // namespace
}  // namespace lngrad::adv
