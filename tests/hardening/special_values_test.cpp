// Special values on the native and the simulated-device LayerNormGrad (docs/math.md,
// "Special values"): NaN/Inf in every input, variance + eps = 0, constant rows, subnormals,
// epsilon rounded to half on the device, huge H, many rows, H = 1.
//
// NaN/Inf expectations follow from IEEE arithmetic applied to the formulas of docs/math.md §1,
// row by row: a NaN in row r's dy, x, mean or variance enters that row's sums (pd_var,
// pd_mean), so every pd_x of the row is NaN; gamma[c] enters every row's sums. res_for_gamma =
// (x - mean) * (var + eps)^-0.5 sees only x, mean, variance. Rows do not interact, so every
// other row must be bitwise what a clean run gives.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hardening_util.h"
#include "ops/layernorm_grad_beta_op.h"

namespace lngrad::hardening {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

enum class Path { kNative, kDevice };

// The four tests of one check, named <Name>{Native,Device}{Float,Half}: both paths, both types.
#define LNGRAD_SPECIAL_VALUES_TESTS(Name, Check)                          \
  TEST(SpecialValues, Name##NativeFloat) { Check<float>(Path::kNative); } \
  TEST(SpecialValues, Name##NativeHalf) { Check<Half>(Path::kNative); }   \
  TEST(SpecialValues, Name##DeviceFloat) { Check<float>(Path::kDevice); } \
  TEST(SpecialValues, Name##DeviceHalf) { Check<Half>(Path::kDevice); }

template <typename T>
Status Run(Problem<T>& p, Path path, float eps) {
  p.ClearOutputs();
  return path == Path::kNative ? p.RunNative(eps) : p.RunDevice(eps);
}

// pd_x tolerance factor K (|got - exact| <= K*u*mag): a float row sum of h terms in any order
// errs by at most (h-1)*u*sum|term|; the native path's blocked sums are shorter (depth
// D = ceil(h/16) + 9, docs/math.md §6.1 and tests/core/test_util.h). pd_x holds two sums, so
// 2*max(h, D) + 14 as in docs/math.md §6.1 with the longest chain either path may use.
double PdXFactor(int64_t h) {
  const double d = std::ceil(static_cast<double>(h) / 16.0) + 9.0;
  return 2.0 * std::max(static_cast<double>(h), d) + 14.0;
}

double HalfSpacing(double v) {
  const double a = std::max(std::fabs(v), 0x1p-14);
  return std::ldexp(1.0, std::ilogb(a) - 10);
}

// Checks every pd_x and res_for_gamma of rows [r0, r1) against float64 evaluations of the
// formulas (docs/math.md §1) from the exact inputs. abs_floor: extra absolute slack for
// results in the subnormal range (each float rounding there errs by up to 2^-150 absolute).
template <typename T>
void ExpectNearExact(const Problem<T>& p, float eps, int64_t r0, int64_t r1,
                     double abs_floor = 0.0) {
  const int64_t h = p.h;
  const double k = PdXFactor(h);
  int64_t bad = 0;
  for (int64_t r = r0; r < r1; ++r) {
    const double v = ToDouble(p.var[r]) + static_cast<double>(eps);
    const double m = ToDouble(p.mean[r]);
    const double rs = 1.0 / std::sqrt(v);
    double s12 = 0, s1 = 0, s2 = 0, a12 = 0, a1 = 0, a2 = 0;
    for (int64_t c = 0; c < h; ++c) {
      const double x1 = ToDouble(p.dy[r * h + c]) * ToDouble(p.gamma[c]),
                   x2 = ToDouble(p.x[r * h + c]) - m;
      s12 += x1 * x2;
      s1 += x1;
      s2 += -2.0 * x2;
      a12 += std::fabs(x1 * x2);
      a1 += std::fabs(x1);
      a2 += std::fabs(2.0 * x2);
    }
    const double n = static_cast<double>(h);
    const double pv = -0.5 * s12 * rs * rs * rs;
    const double pm = -s1 * rs + pv * s2 / n;
    const double pv_abs = 0.5 * a12 * rs * rs * rs;
    const double pm_abs = a1 * rs + pv_abs * a2 / n;
    for (int64_t c = 0; c < h; ++c) {
      const int64_t i = r * h + c;
      const double x1 = ToDouble(p.dy[i]) * ToDouble(p.gamma[c]), x2 = ToDouble(p.x[i]) - m;
      const double e = x1 * rs + pv * 2.0 / n * x2 + pm / n;
      const double mag = std::fabs(x1) * rs + pv_abs * 2.0 / n * std::fabs(x2) + pm_abs / n;
      double tol = k * kU * mag + k * abs_floor;
      const double er = x2 * rs;
      double rtol = 4.0 * kU * std::fabs(er) + 4.0 * abs_floor;  // 3 roundings + rstd's
      if constexpr (sizeof(T) == 2) {                            // one final rounding to half
        tol += HalfSpacing(e);
        rtol += HalfSpacing(er);
      }
      if (!(std::fabs(ToDouble(p.pd_x[i]) - e) <= tol) && bad++ < 5) {
        ADD_FAILURE() << "pd_x[" << r << "," << c << "] = " << ToDouble(p.pd_x[i]) << ", exact "
                      << e << ", tolerance " << tol;
      }
      if (!(std::fabs(ToDouble(p.res[i]) - er) <= rtol) && bad++ < 5) {
        ADD_FAILURE() << "res[" << r << "," << c << "] = " << ToDouble(p.res[i]) << ", exact " << er
                      << ", tolerance " << rtol;
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

// Runs a clean problem, then the same with one value poisoned, and checks the rows that must
// not change are bitwise equal. Returns the poisoned run.
template <typename T, typename Poison>
Problem<T> RunPoisoned(Path path, Poison poison, int64_t poisoned_row, Problem<T>* clean_out) {
  Problem<T> clean(4, 32, 11);
  EXPECT_TRUE(Run(clean, path, 1e-5f).ok());
  Problem<T> bad = clean;
  poison(bad);
  const Status s = Run(bad, path, 1e-5f);
  EXPECT_TRUE(s.ok()) << s.ToString();
  for (int64_t r = 0; r < bad.rows; ++r) {
    if (r == poisoned_row || poisoned_row < 0) continue;
    for (int64_t c = 0; c < bad.h; ++c) {
      const int64_t i = r * bad.h + c;
      EXPECT_TRUE(SameBits(bad.pd_x[i], clean.pd_x[i])) << "pd_x row " << r << " col " << c;
      EXPECT_TRUE(SameBits(bad.res[i], clean.res[i])) << "res row " << r << " col " << c;
    }
  }
  *clean_out = clean;
  return bad;
}

template <typename T>
void NaNPropagates(Path path) {
  const T nan = FromDouble<T>(kNaN);
  Problem<T> clean(1, 1, 0);
  auto row_all_nan = [](const std::vector<T>& v, int64_t r, int64_t h) {
    for (int64_t c = 0; c < h; ++c) {
      if (!std::isnan(ToDouble(v[r * h + c]))) return false;
    }
    return true;
  };
  {
    SCOPED_TRACE("NaN in dy[2,5]");
    auto p = RunPoisoned<T>(
        path, [&](Problem<T>& q) { q.dy[2 * 32 + 5] = nan; }, 2, &clean);
    EXPECT_TRUE(row_all_nan(p.pd_x, 2, 32));
    for (int64_t c = 0; c < 32; ++c) EXPECT_TRUE(SameBits(p.res[64 + c], clean.res[64 + c]));
  }
  {
    SCOPED_TRACE("NaN in x[2,5]");
    auto p = RunPoisoned<T>(
        path, [&](Problem<T>& q) { q.x[2 * 32 + 5] = nan; }, 2, &clean);
    EXPECT_TRUE(row_all_nan(p.pd_x, 2, 32));
    for (int64_t c = 0; c < 32; ++c) {
      if (c == 5) {
        EXPECT_TRUE(std::isnan(ToDouble(p.res[64 + c])));
      } else {
        EXPECT_TRUE(SameBits(p.res[64 + c], clean.res[64 + c])) << c;
      }
    }
  }
  {
    SCOPED_TRACE("NaN in mean[2]");
    auto p = RunPoisoned<T>(
        path, [&](Problem<T>& q) { q.mean[2] = nan; }, 2, &clean);
    EXPECT_TRUE(row_all_nan(p.pd_x, 2, 32));
    EXPECT_TRUE(row_all_nan(p.res, 2, 32));
  }
  {
    SCOPED_TRACE("NaN in variance[2]");
    auto p = RunPoisoned<T>(
        path, [&](Problem<T>& q) { q.var[2] = nan; }, 2, &clean);
    EXPECT_TRUE(row_all_nan(p.pd_x, 2, 32));
    EXPECT_TRUE(row_all_nan(p.res, 2, 32));
  }
  {
    SCOPED_TRACE("NaN in gamma[5]");
    auto p = RunPoisoned<T>(
        path, [&](Problem<T>& q) { q.gamma[5] = nan; }, -1, &clean);
    for (int64_t r = 0; r < 4; ++r) EXPECT_TRUE(row_all_nan(p.pd_x, r, 32)) << r;
    for (size_t i = 0; i < p.res.size(); ++i) EXPECT_TRUE(SameBits(p.res[i], clean.res[i]));
  }
}

template <typename T>
void InfPropagates(Path path) {
  Problem<T> clean(1, 1, 0);
  auto row_all_nonfinite = [](const std::vector<T>& v, int64_t r, int64_t h) {
    for (int64_t c = 0; c < h; ++c) {
      if (std::isfinite(ToDouble(v[r * h + c]))) return false;
    }
    return true;
  };
  {
    // x1 = inf enters pd_var and pd_mean as +-inf (or inf - inf = NaN), and every pd_x
    // element adds a multiple of them.
    SCOPED_TRACE("+Inf in dy[2,5]");
    auto p = RunPoisoned<T>(
        path, [](Problem<T>& q) { q.dy[2 * 32 + 5] = FromDouble<T>(kInf); }, 2, &clean);
    EXPECT_TRUE(row_all_nonfinite(p.pd_x, 2, 32));
    for (int64_t c = 0; c < 32; ++c) EXPECT_TRUE(SameBits(p.res[64 + c], clean.res[64 + c]));
  }
  {
    SCOPED_TRACE("+Inf in x[2,5]");
    auto p = RunPoisoned<T>(
        path, [](Problem<T>& q) { q.x[2 * 32 + 5] = FromDouble<T>(kInf); }, 2, &clean);
    EXPECT_TRUE(row_all_nonfinite(p.pd_x, 2, 32));
    EXPECT_EQ(ToDouble(p.res[64 + 5]), kInf);  // (inf - mean) * positive rstd
    for (int64_t c = 0; c < 32; ++c) {
      if (c != 5) {
        EXPECT_TRUE(SameBits(p.res[64 + c], clean.res[64 + c])) << c;
      }
    }
  }
  {
    // (inf + eps)^-0.5 = 0 and ^-1.5 = 0: every term of the row is a finite value times 0.
    SCOPED_TRACE("+Inf in variance[2]");
    auto p = RunPoisoned<T>(
        path, [](Problem<T>& q) { q.var[2] = FromDouble<T>(kInf); }, 2, &clean);
    for (int64_t c = 0; c < 32; ++c) {
      EXPECT_EQ(ToDouble(p.pd_x[64 + c]), 0.0) << c;
      EXPECT_EQ(ToDouble(p.res[64 + c]), 0.0) << c;
    }
  }
  {
    SCOPED_TRACE("-Inf in mean[2]");
    auto p = RunPoisoned<T>(
        path, [](Problem<T>& q) { q.mean[2] = FromDouble<T>(-kInf); }, 2, &clean);
    EXPECT_TRUE(row_all_nonfinite(p.pd_x, 2, 32));
    for (int64_t c = 0; c < 32; ++c) EXPECT_EQ(ToDouble(p.res[64 + c]), kInf) << c;  // x - (-inf)
  }
}

LNGRAD_SPECIAL_VALUES_TESTS(NaNPropagates, NaNPropagates)
LNGRAD_SPECIAL_VALUES_TESTS(InfPropagates, InfPropagates)

// LayerNormGradBeta: dgamma[c] = sum_r dy*res, dbeta[c] = sum_r dy. A NaN in dy[r,c] makes
// column c of both NaN; a +Inf in dy[r,c] (res[r,c] > 0) makes both +Inf; an Inf in
// res[r,c] with dy[r,c] = 0 gives 0 * Inf = NaN in dgamma[c] only. Other columns are bitwise
// what a clean run gives (columns never interact).
template <typename T>
Status RunBeta(Path path, int64_t rows, int64_t h, const std::vector<T>& dy,
               const std::vector<T>& res, std::vector<T>* dg, std::vector<T>* db) {
  dg->assign(h, FromDouble<T>(-7.0));
  db->assign(h, FromDouble<T>(-7.0));
  if (path == Path::kNative) {
    return LayerNormGradBeta({rows, h}, dy.data(), res.data(), dg->data(), db->data());
  }
  ops::LayerNormGradBetaOpArgs a;
  a.SetShape(sizeof(T) == 2 ? ops::OpDType::kFloat16 : ops::OpDType::kFloat32, 1, rows, h);
  a.SetTensors(res.data(), dy.data(), dg->data(), db->data());
  a.launch.blocks = 2;
  a.launch.soc = "Ascend910B1";
  return ops::RunLayerNormGradBetaOp(a);
}

template <typename T>
void BetaSpecialValues(Path path) {
  const int64_t rows = 6, h = 32;
  Problem<T> p(rows, h, 91);
  std::vector<T> res(rows * h);
  for (int64_t i = 0; i < rows * h; ++i)
    res[i] = FromDouble<T>(0.25 + 0.5 * ToDouble(p.x[i]) * ToDouble(p.x[i]));
  std::vector<T> dg0, db0, dg, db;
  ASSERT_TRUE(RunBeta(path, rows, h, p.dy, res, &dg0, &db0).ok());
  auto others_clean = [&](int64_t col) {
    for (int64_t c = 0; c < h; ++c) {
      if (c == col) continue;
      EXPECT_TRUE(SameBits(dg[c], dg0[c])) << c;
      EXPECT_TRUE(SameBits(db[c], db0[c])) << c;
    }
  };
  std::vector<T> dy = p.dy;
  dy[3 * h + 7] = FromDouble<T>(kNaN);
  ASSERT_TRUE(RunBeta(path, rows, h, dy, res, &dg, &db).ok());
  EXPECT_TRUE(std::isnan(ToDouble(dg[7])));
  EXPECT_TRUE(std::isnan(ToDouble(db[7])));
  others_clean(7);
  dy = p.dy;
  dy[2 * h + 9] = FromDouble<T>(kInf);  // res > 0 everywhere
  ASSERT_TRUE(RunBeta(path, rows, h, dy, res, &dg, &db).ok());
  EXPECT_EQ(ToDouble(dg[9]), kInf);
  EXPECT_EQ(ToDouble(db[9]), kInf);
  others_clean(9);
  dy = p.dy;
  std::vector<T> r2 = res;
  dy[4 * h + 11] = FromDouble<T>(0.0);
  r2[4 * h + 11] = FromDouble<T>(kInf);
  std::vector<T> dgz, dbz;
  ASSERT_TRUE(RunBeta(path, rows, h, dy, res, &dgz, &dbz).ok());  // dy = 0, finite res
  ASSERT_TRUE(RunBeta(path, rows, h, dy, r2, &dg, &db).ok());
  EXPECT_TRUE(std::isnan(ToDouble(dg[11])));
  EXPECT_TRUE(SameBits(db[11], dbz[11]));  // dbeta does not see res
}
LNGRAD_SPECIAL_VALUES_TESTS(GradBeta, BetaSpecialValues)

// variance + eps = 0: rstd = 1/sqrt(0) = +inf. In a constant row (x == mean) every x2 is 0,
// so res = 0 * inf = NaN and pd_var = sum(x1 * 0 * inf) = NaN makes the whole pd_x row NaN.
// Where x2 != 0 (an inconsistent zero variance), res = x2 * inf = +-inf.
template <typename T>
void ZeroVariancePlusEps(Path path) {
  Problem<T> clean(3, 32, 21);
  ASSERT_TRUE(Run(clean, path, 0.0f).ok());
  Problem<T> p = clean;
  for (int64_t c = 0; c < 32; ++c) p.x[32 + c] = p.mean[1];  // row 1 constant
  p.var[1] = FromDouble<T>(0.0);
  p.var[2] = FromDouble<T>(0.0);  // row 2 keeps its spread
  ASSERT_TRUE(Run(p, path, 0.0f).ok());
  for (int64_t c = 0; c < 32; ++c) {
    EXPECT_TRUE(std::isnan(ToDouble(p.pd_x[32 + c]))) << c;
    EXPECT_TRUE(std::isnan(ToDouble(p.res[32 + c]))) << c;
    const double x2 = ToDouble(p.x[64 + c]) - ToDouble(p.mean[2]);
    if (x2 != 0.0) {
      EXPECT_EQ(ToDouble(p.res[64 + c]), std::copysign(kInf, x2)) << c;
    }
    EXPECT_FALSE(std::isfinite(ToDouble(p.pd_x[64 + c]))) << c;
    EXPECT_TRUE(SameBits(p.pd_x[c], clean.pd_x[c])) << c;  // row 0 untouched by the others
    EXPECT_TRUE(SameBits(p.res[c], clean.res[c])) << c;
  }
}
LNGRAD_SPECIAL_VALUES_TESTS(ZeroVariancePlusEps, ZeroVariancePlusEps)

// Constant rows with their true statistics (mean = the value, variance 0) and eps > 0: x2 = 0
// exactly, so res_for_gamma is exactly 0 and pd_x = rstd * (x1 - mean(x1)), finite.
template <typename T>
void ConstantRows(Path path) {
  Problem<T> p(4, 64, 31);
  for (int64_t r = 0; r < 4; ++r) {
    const T value = FromDouble<T>(0.75 * static_cast<double>(r) - 1.0);
    for (int64_t c = 0; c < 64; ++c) p.x[r * 64 + c] = value;
    p.mean[r] = value;
    p.var[r] = FromDouble<T>(0.0);
  }
  const float eps = sizeof(T) == 2 ? Half(1e-3f).ToFloat() : 1e-3f;
  ASSERT_TRUE(Run(p, path, eps).ok());
  for (size_t i = 0; i < p.res.size(); ++i) ASSERT_EQ(ToDouble(p.res[i]), 0.0) << i;
  ExpectNearExact(p, eps, 0, 4);
}
LNGRAD_SPECIAL_VALUES_TESTS(ConstantRows, ConstantRows)

// Subnormal floats are computed with, not flushed (both paths use IEEE float arithmetic;
// docs/ascendc_compat.md notes that the device's Div/Sqrt may flush them).
void Subnormals(Path path) {
  Problem<float> p(2, 32, 41);
  const float tiny = std::numeric_limits<float>::denorm_min();
  for (int64_t i = 0; i < 64; ++i) {
    p.dy[i] = tiny * static_cast<float>(1 + (i * 37) % 1000);                 // subnormal gradients
    p.x[i] = (i % 2 == 0 ? 1.0f : -1.0f) * tiny * static_cast<float>(1 + i);  // subnormal x
  }
  for (int64_t c = 0; c < 32; ++c) p.gamma[c] = 1.0f + static_cast<float>(c) / 32.0f;
  p.mean[0] = p.mean[1] = 0.0f;
  p.var[0] = p.var[1] = 1.0f;
  ASSERT_TRUE(Run(p, path, 0.0f).ok());
  // rstd = 1 exactly, so res = x2 * 1 = x exactly.
  for (int64_t i = 0; i < 64; ++i) ASSERT_EQ(p.res[i], p.x[i]) << i;
  // pd_x ~ x1 is subnormal; each float rounding errs by at most 2^-150 absolute there.
  ExpectNearExact(p, 0.0f, 0, 2, 0x1p-149);
  int64_t nonzero = 0;
  for (float v : p.pd_x) nonzero += v != 0.0f;
  EXPECT_GT(nonzero, 60);  // a flush to zero would give 0 everywhere
}
TEST(SpecialValues, SubnormalsNative) { Subnormals(Path::kNative); }
TEST(SpecialValues, SubnormalsDevice) { Subnormals(Path::kDevice); }

// The device path receives epsilon as half (spec §1.10): 1e-5 becomes 1.0013580322265625e-05.
// With variance 0, res_for_gamma = x2 / sqrt(eps) shows which epsilon was used: the two
// candidates differ by 0.068 % (1.4 to 2.8 half ulps).
TEST(SpecialValues, DeviceHalfRoundsEpsilon) {
  EXPECT_EQ(static_cast<double>(Half(1e-5f).ToFloat()), 1.0013580322265625e-05);
  Problem<Half> p(1, 64, 51);
  p.mean[0] = Half(0.0f);
  p.var[0] = Half(0.0f);
  for (int64_t c = 0; c < 64; ++c) p.x[c] = Half(0.02f + 0.03f * static_cast<float>(c));
  ASSERT_TRUE(p.RunDevice(1e-5f).ok());
  int64_t far_from_float_eps = 0;
  for (int64_t c = 0; c < 64; ++c) {
    const double x2 = ToDouble(p.x[c]);
    const double with_half_eps = x2 / std::sqrt(1.0013580322265625e-05);
    const double with_float_eps = x2 / std::sqrt(static_cast<double>(1e-5f));
    const double got = ToDouble(p.res[c]);
    // Float evaluation (a few u) plus the final half rounding: within one half spacing.
    EXPECT_LE(std::fabs(got - with_half_eps), HalfSpacing(with_half_eps)) << c;
    far_from_float_eps += std::fabs(got - with_float_eps) > HalfSpacing(with_float_eps);
  }
  EXPECT_GT(far_from_float_eps, 0);  // the check above would notice an unrounded epsilon
  // The native API takes epsilon as float: 1e-5 is used as is.
  Problem<Half> n = p;
  ASSERT_TRUE(n.RunNative(1e-5f).ok());
  int64_t native_far = 0;
  for (int64_t c = 0; c < 64; ++c) {
    const double with_float_eps = ToDouble(n.x[c]) / std::sqrt(static_cast<double>(1e-5f));
    EXPECT_LE(std::fabs(ToDouble(n.res[c]) - with_float_eps), HalfSpacing(with_float_eps)) << c;
    native_far +=
        std::fabs(ToDouble(n.res[c]) - ToDouble(n.x[c]) / std::sqrt(1.0013580322265625e-05)) >
        HalfSpacing(ToDouble(n.res[c]));
  }
  EXPECT_GT(native_far, 0);
}

TEST(SpecialValues, HugeHNative) {
  for (int64_t h : {65536, 100003}) {
    SCOPED_TRACE(h);
    Problem<float> p(3, h, 61);
    ASSERT_TRUE(p.RunNative(1e-5f).ok());
    ExpectNearExact(p, 1e-5f, 0, 3);
    Problem<Half> q(2, h, 62);
    ASSERT_TRUE(q.RunNative(1e-5f).ok());
    ExpectNearExact(q, 1e-5f, 0, 2);
  }
}

// A row of 65536 floats (256 KiB) cannot fit the 910B's UB: a clear OutOfRange, nothing written.
TEST(SpecialValues, HugeHDeviceIsAClearError) {
  Problem<float> p(1, 65536, 63);
  const Status s = p.RunDevice(1e-5f);
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange) << s.ToString();
  EXPECT_FALSE(s.message().empty());
  for (float v : p.pd_x) ASSERT_EQ(v, -7.0f);
}

TEST(SpecialValues, ManyRowsNative) {
  Problem<float> p(300000, 4, 71);
  Options one;
  one.num_threads = 1;
  ASSERT_TRUE(p.RunNative(1e-5f, one).ok());
  const auto pd1 = p.pd_x, res1 = p.res;
  ASSERT_TRUE(p.RunNative(1e-5f).ok());
  EXPECT_EQ(0, std::memcmp(pd1.data(), p.pd_x.data(), pd1.size() * sizeof(float)));
  EXPECT_EQ(0, std::memcmp(res1.data(), p.res.data(), res1.size() * sizeof(float)));
  ExpectNearExact(p, 1e-5f, 0, 1000);
  ExpectNearExact(p, 1e-5f, 299000, 300000);
}

TEST(SpecialValues, ManyRowsDevice) {
  Problem<float> p(6000, 16, 72);
  ASSERT_TRUE(p.RunDevice(1e-5f, 8).ok());
  ExpectNearExact(p, 1e-5f, 0, 6000);
}

// H = 1 (the native path has no alignment rule): with the true statistics (mean = x,
// variance 0) res is exactly 0 and pd_x cancels to 0 within the bound; with other statistics
// it matches the float64 formulas.
TEST(SpecialValues, HEqualsOneNative) {
  Problem<float> p(64, 1, 81);
  ASSERT_TRUE(p.RunNative(1e-5f).ok());
  ExpectNearExact(p, 1e-5f, 0, 64);
  for (int64_t r = 0; r < 64; ++r) {
    EXPECT_EQ(p.mean[r], p.x[r]);
    EXPECT_EQ(p.var[r], 0.0f);
    EXPECT_EQ(p.res[r], 0.0f);
  }
  for (int64_t r = 0; r < 64; ++r) p.mean[r] = p.x[r] - 0.5f, p.var[r] = 0.25f;
  ASSERT_TRUE(p.RunNative(1e-5f).ok());
  ExpectNearExact(p, 1e-5f, 0, 64);
  Problem<Half> q(64, 1, 82);
  ASSERT_TRUE(q.RunNative(1e-5f).ok());
  ExpectNearExact(q, 1e-5f, 0, 64);

  // Forward with H = 1: variance 0, mean = x, y = 0 * rstd * gamma + beta = beta exactly.
  std::vector<float> x(64), gamma{1.5f}, beta{-0.25f}, y(64), mean(64), var(64);
  for (int64_t r = 0; r < 64; ++r) x[r] = static_cast<float>(r) * 0.37f - 3.0f;
  ASSERT_TRUE(LayerNorm({64, 1}, x.data(), gamma.data(), beta.data(), 1e-5f, y.data(), mean.data(),
                        var.data())
                  .ok());
  for (int64_t r = 0; r < 64; ++r) {
    EXPECT_EQ(mean[r], x[r]);
    EXPECT_EQ(var[r], 0.0f);
    EXPECT_EQ(y[r], -0.25f);
  }
}

}  // namespace
}  // namespace lngrad::hardening
