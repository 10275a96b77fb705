// Shared helpers of the core tests: seeded data, the paths (impl + Highway target) to run,
// and the error checks with their tolerances. Every tolerance is derived in docs/math.md
// ("Tolerances"); the constants below repeat the derivation briefly.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include "core/kernels.h"
#include "enum_name.h"
#include "lngrad/lngrad.h"
#include "oracle.h"

namespace lngrad::test {

// ---------------------------------------------------------------------------------------------
// Tolerances (docs/math.md, "Tolerances").

// Unit roundoff of binary32.
inline constexpr double kU = 0x1p-24;

// D: the longest chain of float additions in a native row sum. Every path keeps at least 16
// independent partial sums (scalar: 16 lanes; SIMD: 4 vectors of >= 4 lanes), each of at most
// ceil(H/16) + 3 terms, then adds them pairwise (<= 6 levels for <= 64 lanes).
inline double RowSumDepth(int64_t h) { return std::ceil(static_cast<double>(h) / 16.0) + 9.0; }

// pd_x: |got - exact| <= K * u * mag, K = 2D + 6 from the first-order analysis (the pd_mean
// term carries two sums, hence 2D), plus 8 for second-order terms and the rounding of the
// double-precision per-row coefficients.
inline double PdXBoundFactor(int64_t h) { return 2.0 * RowSumDepth(h) + 14.0; }

// res_for_gamma = fl(fl(x - mean) * fl(rstd)): three roundings.
inline constexpr double kResBoundFactor = 3.0;

// A sum of n terms, each one rounding away from exact, in any order: (n - 1) additions plus
// the rounding of the term. Used for dgamma/dbeta, whatever the block layout.
inline double AnyOrderSumFactor(int64_t n) { return static_cast<double>(n); }

// Absolute floor for results that underflow: a few float subnormal steps.
inline constexpr double kTiny = 16.0 * std::numeric_limits<float>::denorm_min();

// Half outputs: at least this fraction of the elements of every case equals the oracle rounded
// to half (issue 2), and none is more than 1 ulp away.
inline constexpr double kHalfExactFraction = 0.999;

// ---------------------------------------------------------------------------------------------
// Element types.

// The bfloat16 value nearest to v, ties to even (8 significant bits, quantum 2^-133 at the
// bottom, +-inf from 2^128 on): the oracle's rounding, by values, not by the library's bits.
inline double Bf16Round(double v) {
  if (v == 0 || !std::isfinite(v)) return v;
  int e = 0;
  std::frexp(v, &e);  // |v| in [2^(e-1), 2^e)
  const int q = std::max(e - 8, -133);
  const double r = std::ldexp(std::nearbyint(std::ldexp(v, -q)), q);
  return std::fabs(r) >= 0x1p128 ? std::copysign(HUGE_VAL, v) : r;
}
// The spacing of bfloat16 values at |v| (the larger one at a power of two).
inline double Bf16Spacing(double v) {
  int e = 0;
  std::frexp(v, &e);
  return std::ldexp(1.0, std::max(e - 8, -133));
}

template <class T>
T FromDouble(double v) {
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(v);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return BFloat16(static_cast<float>(Bf16Round(v)));  // exact: already a bfloat16 value
  } else {
    return Half::FromBits(oracle::DoubleToHalfBits(v));
  }
}

inline double ToDouble(float v) { return v; }
inline double ToDouble(Half v) { return oracle::HalfToDouble(v.bits); }
inline double ToDouble(BFloat16 v) { return BFloat16BitsToFloat(v.bits); }

template <class T>
const char* TypeName() {
  return std::is_same_v<T, float> ? "float" : std::is_same_v<T, Half> ? "half" : "bfloat16";
}

template <class T>
std::vector<double> Widen(const std::vector<T>& v) {
  std::vector<double> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = ToDouble(v[i]);
  return out;
}

inline uint32_t Bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}
inline uint32_t Bits(Half v) { return v.bits; }
inline uint32_t Bits(BFloat16 v) { return v.bits; }

// Bitwise equality of two tensors; the first difference in `where`.
template <class T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b, std::string* where) {
  if (a.size() != b.size()) {
    *where = "sizes differ";
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (Bits(a[i]) != Bits(b[i])) {
      std::ostringstream s;
      s << "element " << i << ": " << ToDouble(a[i]) << " vs " << ToDouble(b[i]);
      *where = s.str();
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Seeded inputs for LayerNormGrad / LayerNormBackward.

enum class Kind {
  kPlain,       // mean/variance are the row statistics; typical LayerNorm data
  kOffsetMean,  // mean is NOT the row mean, variance not the row variance: sum(-2*x2) matters
  kPositive,    // dy, gamma, x - mean all positive: no sum cancels
  kCancel,      // dy = alpha + beta*xhat, gamma = 1: pd_x cancels to ~0 on purpose
};

inline const char* KindName(Kind k) {
  static constexpr test::EnumLabel<Kind> kNames[] = {{Kind::kPlain, "plain"},
                                                     {Kind::kOffsetMean, "offset_mean"},
                                                     {Kind::kPositive, "positive"},
                                                     {Kind::kCancel, "cancel"}};
  return test::EnumName(k, kNames);
}

struct GradCase {
  int64_t rows;
  int64_t h;
  Kind kind;
  uint64_t seed;
  float epsilon = 1e-5f;
};

inline std::string Describe(const GradCase& c) {
  std::ostringstream s;
  s << "rows=" << c.rows << " h=" << c.h << " kind=" << KindName(c.kind) << " seed=" << c.seed
    << " eps=" << c.epsilon;
  return s.str();
}

template <class T>
struct GradData {
  GradCase c;
  std::vector<T> dy, x, mean, variance, gamma;
  // The exact values the library reads, for the oracle.
  std::vector<double> dy_d, x_d, mean_d, variance_d, gamma_d;
};

template <class T>
GradData<T> MakeGradData(const GradCase& c) {
  std::mt19937_64 rng(c.seed);
  auto uniform = [&](double lo, double hi) {
    return lo + (hi - lo) * std::generate_canonical<double, 53>(rng);
  };
  const auto n = static_cast<size_t>(c.rows * c.h);
  const auto h = static_cast<size_t>(c.h);
  GradData<T> d;
  d.c = c;
  d.x.resize(n);
  d.dy.resize(n);
  d.gamma.resize(h);
  d.mean.resize(static_cast<size_t>(c.rows));
  d.variance.resize(static_cast<size_t>(c.rows));
  for (size_t i = 0; i < h; ++i) {
    const double g = c.kind == Kind::kCancel     ? 1.0
                     : c.kind == Kind::kPositive ? uniform(0.1, 1.0)
                                                 : uniform(0.5, 1.5);
    d.gamma[i] = FromDouble<T>(g);
  }
  for (int64_t r = 0; r < c.rows; ++r) {
    const size_t base = static_cast<size_t>(r) * h;
    for (size_t i = 0; i < h; ++i) {
      d.x[base + i] =
          FromDouble<T>(c.kind == Kind::kPositive ? uniform(1.0, 2.0) : uniform(-2.0, 2.0) + 0.3);
    }
    double sum = 0;
    for (size_t i = 0; i < h; ++i) sum += ToDouble(d.x[base + i]);
    const double row_mean = sum / static_cast<double>(h);
    double sq = 0;
    for (size_t i = 0; i < h; ++i) {
      sq += (ToDouble(d.x[base + i]) - row_mean) * (ToDouble(d.x[base + i]) - row_mean);
    }
    const double row_var = sq / static_cast<double>(h);
    double mean = row_mean, var = row_var;
    if (c.kind == Kind::kOffsetMean) {
      mean = row_mean + 0.5 * uniform(-1.0, 1.0) * std::sqrt(row_var + 0.01);
      var = row_var * uniform(0.5, 2.0) + 0.01;
    } else if (c.kind == Kind::kPositive) {
      mean = 0.5;
      var = uniform(0.1, 1.0);
    }
    d.mean[r] = FromDouble<T>(mean);
    d.variance[r] = FromDouble<T>(var);
    const double alpha = uniform(-1.0, 1.0), beta = uniform(-1.0, 1.0);
    const double rstd = 1.0 / std::sqrt(ToDouble(d.variance[r]) + c.epsilon);
    for (size_t i = 0; i < h; ++i) {
      double dy;
      if (c.kind == Kind::kCancel) {
        dy = alpha + beta * (ToDouble(d.x[base + i]) - ToDouble(d.mean[r])) * rstd;
      } else if (c.kind == Kind::kPositive) {
        dy = uniform(0.1, 1.0);
      } else {
        dy = uniform(-1.0, 1.0);
      }
      d.dy[base + i] = FromDouble<T>(dy);
    }
  }
  d.dy_d = Widen(d.dy);
  d.x_d = Widen(d.x);
  d.mean_d = Widen(d.mean);
  d.variance_d = Widen(d.variance);
  d.gamma_d = Widen(d.gamma);
  return d;
}

// Arbitrary seeded values in [lo, hi) as T.
template <class T>
std::vector<T> RandomVector(size_t n, uint64_t seed, double lo, double hi) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& e : v) e = FromDouble<T>(lo + (hi - lo) * std::generate_canonical<double, 53>(rng));
  return v;
}

// ---------------------------------------------------------------------------------------------
// Paths: the scalar implementation and the SIMD one restricted to each Highway target that is
// both compiled in and supported by this CPU.

struct Path {
  Impl impl;
  int64_t target;  // Highway bit; 0 for scalar
  std::string name;
};

inline std::vector<Path> AllPaths() {
  std::vector<Path> paths;
  hwy::SetSupportedTargetsForTest(0);
  const int64_t usable = core::CompiledSimdTargets() & hwy::SupportedTargets();
  for (int64_t t = usable; t != 0; t &= t - 1) {
    const int64_t bit = t & -t;
    paths.push_back({Impl::kSimd, bit, std::string("simd/") + hwy::TargetName(bit)});
  }
  paths.push_back({Impl::kScalar, 0, "scalar"});
  return paths;
}

// The default SIMD path (best target) and the scalar path.
inline std::vector<Path> MainPaths() {
  hwy::SetSupportedTargetsForTest(0);
  const int64_t usable = core::CompiledSimdTargets() & hwy::SupportedTargets();
  const int64_t best = usable & -usable;
  return {{Impl::kSimd, best, std::string("simd/") + hwy::TargetName(best)},
          {Impl::kScalar, 0, "scalar"}};
}

// Every path with each half evaluation.
inline std::vector<std::pair<Path, HalfEval>> EvalPaths(const std::vector<Path>& paths) {
  std::vector<std::pair<Path, HalfEval>> out;
  for (const Path& p : paths) {
    for (HalfEval eval : {HalfEval::kCorrectlyRounded, HalfEval::kFast}) out.emplace_back(p, eval);
  }
  return out;
}

// Restricts Highway's dispatch to one target while alive.
// Options that run path p and report the path taken into *info. Half data: the correctly
// rounded evaluation, whose rule (CheckHalf) the oracle tests assert; the fast evaluation (the
// default) has tests of its own (half_fast_test.cpp), which set half_eval back.
inline Options PathOptions(const Path& p, RunInfo* info,
                           HalfEval half_eval = HalfEval::kCorrectlyRounded) {
  Options o;
  o.impl = p.impl;
  o.info = info;
  o.half_eval = half_eval;
  return o;
}

class TargetScope {
 public:
  explicit TargetScope(const Path& p) {
    if (p.impl == Impl::kSimd) hwy::SetSupportedTargetsForTest(p.target);
  }
  ~TargetScope() { hwy::SetSupportedTargetsForTest(0); }
  TargetScope(const TargetScope&) = delete;
  TargetScope& operator=(const TargetScope&) = delete;
};

// Asserts that the library ran the path it was asked for.
inline void ExpectRan(const Path& p, const RunInfo& info) {
  EXPECT_EQ(info.impl, p.impl) << p.name;
  if (p.impl == Impl::kSimd) {
    EXPECT_EQ(info.target, hwy::TargetName(p.target)) << p.name;
  } else {
    EXPECT_EQ(info.target, "scalar");
  }
}

// ---------------------------------------------------------------------------------------------
// Error accounting.

struct ErrorStats {
  int64_t count = 0;
  int64_t failures = 0;
  int64_t exact = 0;       // half: equal to the oracle rounded to half
  double worst_ratio = 0;  // largest |error| / bound
  std::string first_failure;

  void Merge(const ErrorStats& o) {
    count += o.count;
    if (failures == 0 && o.failures != 0) first_failure = o.first_failure;
    failures += o.failures;
    exact += o.exact;
    worst_ratio = std::max(worst_ratio, o.worst_ratio);
  }
};

// Half: >= 99.9 % of the pooled half outputs equal the oracle rounded to half (issue 2); the
// per-element checks already require each within 1 ulp.
inline void ExpectHalfExactFraction(const ErrorStats& pool) {
  ASSERT_GT(pool.count, 0);
  const double fraction = static_cast<double>(pool.exact) / static_cast<double>(pool.count);
  EXPECT_GE(fraction, kHalfExactFraction) << pool.exact << " of " << pool.count;
  std::printf("half outputs equal to the rounded oracle: %lld/%lld (%.5f %%)\n",
              static_cast<long long>(pool.exact), static_cast<long long>(pool.count),
              100.0 * fraction);
}

// Float result: |got - exact| <= bound (+ kTiny).
inline void CheckFloat(float got, double exact, double bound, const char* what, size_t index,
                       ErrorStats* s) {
  ++s->count;
  const double err = std::fabs(static_cast<double>(got) - exact);
  const double limit = bound + kTiny;
  s->worst_ratio = std::max(s->worst_ratio, err / limit);
  if (!(err <= limit)) {
    if (s->failures++ > 0) return;  // the first failure is described, the rest counted
    std::ostringstream m;
    m << what << "[" << index << "] = " << got << ", oracle " << exact << ", |err| " << err
      << " > bound " << limit;
    s->first_failure = m.str();
  }
}

// Half result: issue 2's rule, for every element of every case (cancelling ones included):
// at most 1 ulp from the oracle rounded to half (the caller also requires >= 99.9 % exact).
// The library earns this by computing pd_x of half data in double (docs/math.md §6.4); the
// float bound is not used for half.
inline void CheckHalf(Half got, double exact, double /*float_bound*/, const char* what,
                      size_t index, ErrorStats* s) {
  ++s->count;
  const uint16_t want = oracle::DoubleToHalfBits(exact);
  if (got.bits == want || ((got.bits | want) & 0x7FFF) == 0) ++s->exact;
  const double got_v = oracle::HalfToDouble(got.bits);
  const int64_t ulps = oracle::HalfUlpDistance(got.bits, want);
  s->worst_ratio = std::max(s->worst_ratio, static_cast<double>(ulps));
  if (ulps > 1 || std::isnan(got_v) != std::isnan(exact)) {
    if (s->failures++ > 0) return;
    std::ostringstream m;
    m << what << "[" << index << "] = " << got_v << ", oracle " << exact << " (half "
      << oracle::HalfToDouble(want) << "): " << ulps << " ulp apart";
    s->first_failure = m.str();
  }
}

// Half pd_x of the fast evaluation (docs/math.md §6.4): the float value f before the rounding
// obeys the float bound, and the rounding to half moves it by at most half the spacing at the
// output (f and its rounding `got` lie in one binade, or f rounded up to a power of two, whose
// spacing is the larger), so |got - exact| <= float_bound + spacing(got) / 2 (+ kTiny). `exact`
// counts as the half rounding of the oracle for the exact-fraction statistics.
inline void CheckHalfFast(Half got, double exact, double float_bound, const char* what,
                          size_t index, ErrorStats* s) {
  ++s->count;
  const uint16_t want = oracle::DoubleToHalfBits(exact);
  if (got.bits == want || ((got.bits | want) & 0x7FFF) == 0) ++s->exact;
  const double got_v = oracle::HalfToDouble(got.bits);
  const double err = std::fabs(got_v - exact);
  const double limit = float_bound + 0.5 * oracle::HalfSpacing(got_v) + kTiny;
  s->worst_ratio = std::max(s->worst_ratio, err / limit);
  if (!(err <= limit)) {
    if (s->failures++ > 0) return;
    std::ostringstream m;
    m << what << "[" << index << "] = " << got_v << ", oracle " << exact << ", |err| " << err
      << " > bound " << limit << " (float bound " << float_bound << ")";
    s->first_failure = m.str();
  }
}

// A bfloat16 output evaluated in double and rounded once (the 16-bit forward): within half the
// spacing at the output (plus kTiny) of the oracle, and counted exact where it is the oracle's
// rounding (ExpectHalfExactFraction holds it to the same 99.9 %).
inline void CheckBf16(BFloat16 got, double exact, const char* what, size_t index, ErrorStats* s) {
  ++s->count;
  const double got_v = BFloat16BitsToFloat(got.bits);
  if (got_v == Bf16Round(exact)) ++s->exact;
  const double err = std::fabs(got_v - exact);
  const double limit = 0.5 * Bf16Spacing(got_v) + kTiny;
  s->worst_ratio = std::max(s->worst_ratio, err / limit);
  if (!(err <= limit)) {
    if (s->failures++ > 0) return;
    std::ostringstream m;
    m << what << "[" << index << "] = " << got_v << ", oracle " << exact << ", |err| " << err
      << " > bound " << limit;
    s->first_failure = m.str();
  }
}

// The rule for an output of type T: the float bound, or for half the rule of the evaluation
// (pd_x/dx only; every other half output is evaluated alike in both, use the default).
template <class T>
void CheckValue(T got, double exact, double float_bound, const char* what, size_t index,
                ErrorStats* s, HalfEval eval = HalfEval::kCorrectlyRounded) {
  if constexpr (std::is_same_v<T, float>) {
    CheckFloat(got, exact, float_bound, what, index, s);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    (void)float_bound;
    (void)eval;
    CheckBf16(got, exact, what, index, s);
  } else if (eval == HalfEval::kFast) {
    CheckHalfFast(got, exact, float_bound, what, index, s);
  } else {
    CheckHalf(got, exact, float_bound, what, index, s);
  }
}

}  // namespace lngrad::test
