// lngrad::ops::sample: data generation, float64 goldens, the official comparison rule.
#include "ops/sample_data.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "lngrad/half.h"
#include "ops/golden.h"

namespace lngrad::ops::sample {
namespace {

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<double> Uniform(size_t n, double lo, double hi, uint64_t seed) {
  std::vector<double> v(n);
  uint64_t state = seed;
  for (double& x : v) {
    const double u = static_cast<double>(SplitMix64(state) >> 11) * 0x1.0p-53;  // [0, 1)
    x = lo + (hi - lo) * u;
  }
  return v;
}

double RoundTo(OpDType dtype, double v) {
  const float f = static_cast<float>(v);
  if (dtype == OpDType::kFloat32) return f;
  // float first, then half: double rounding cannot matter for the values used here (data
  // generated as doubles are rounded to float on purpose, as numpy's float32 generation does).
  return HalfBitsToFloat(FloatToHalfBits(f));
}

HostTensor MakeTensor(OpDType dtype, const std::vector<double>& values) {
  HostTensor t;
  t.dtype = dtype;
  t.bytes.resize(values.size() * DTypeSize(dtype));
  t.values.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const float f = static_cast<float>(values[i]);
    if (dtype == OpDType::kFloat32) {
      std::memcpy(t.bytes.data() + 4 * i, &f, 4);
      t.values[i] = f;
    } else {
      const uint16_t bits = FloatToHalfBits(f);
      std::memcpy(t.bytes.data() + 2 * i, &bits, 2);
      t.values[i] = HalfBitsToFloat(bits);
    }
  }
  return t;
}

HostTensor ZeroTensor(OpDType dtype, size_t n) {
  return MakeTensor(dtype, std::vector<double>(n, 0.0));
}

std::vector<double> Values(OpDType dtype, const void* data, size_t n) {
  std::vector<double> v(n);
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) {
    if (dtype == OpDType::kFloat32) {
      float f;
      std::memcpy(&f, p + 4 * i, 4);
      v[i] = f;
    } else {
      uint16_t bits;
      std::memcpy(&bits, p + 2 * i, 2);
      v[i] = HalfBitsToFloat(bits);
    }
  }
  return v;
}

// The goldens are the float64 reference of ops/golden.h (compensated sums), on vectors.
void RowStatistics(size_t rows, size_t h, const std::vector<double>& x, std::vector<double>* mean,
                   std::vector<double>* variance) {
  mean->assign(rows, 0.0);
  variance->assign(rows, 0.0);
  golden::RowStatistics(static_cast<int64_t>(rows), static_cast<int64_t>(h), x.data(), mean->data(),
                        variance->data());
}

void LayerNormGradGolden(size_t rows, size_t h, const std::vector<double>& dy,
                         const std::vector<double>& x, const std::vector<double>& mean,
                         const std::vector<double>& variance, const std::vector<double>& gamma,
                         double epsilon, std::vector<double>* pd_x,
                         std::vector<double>* res_for_gamma) {
  pd_x->assign(rows * h, 0.0);
  res_for_gamma->assign(rows * h, 0.0);
  golden::LayerNormGrad(static_cast<int64_t>(rows), static_cast<int64_t>(h), dy.data(), x.data(),
                        mean.data(), variance.data(), gamma.data(), epsilon, pd_x->data(),
                        res_for_gamma->data());
}

void LayerNormGradBetaGolden(size_t rows, size_t h, const std::vector<double>& dy,
                             const std::vector<double>& res_for_gamma,
                             std::vector<double>* pd_gamma, std::vector<double>* pd_beta) {
  pd_gamma->assign(h, 0.0);
  pd_beta->assign(h, 0.0);
  golden::LayerNormGradBeta(static_cast<int64_t>(rows), static_cast<int64_t>(h), dy.data(),
                            res_for_gamma.data(), pd_gamma->data(), pd_beta->data());
}

void LayerNormGolden(size_t rows, size_t h, const std::vector<double>& x,
                     const std::vector<double>& gamma, const std::vector<double>& beta,
                     double epsilon, std::vector<double>* y, std::vector<double>* mean,
                     std::vector<double>* variance) {
  RowStatistics(rows, h, x, mean, variance);
  y->assign(rows * h, 0.0);
  for (size_t r = 0; r < rows; ++r) {
    const double rstd = 1.0 / std::sqrt((*variance)[r] + epsilon);
    for (size_t c = 0; c < h; ++c) {
      (*y)[r * h + c] = (x[r * h + c] - (*mean)[r]) * rstd * gamma[c] + beta[c];
    }
  }
}

RuleResult CheckRule(const std::vector<double>& got, const std::vector<double>& golden, double tol,
                     size_t max_failing) {
  RuleResult r;
  r.elements = got.size();
  for (size_t i = 0; i < got.size(); ++i) {
    const double abs_err = std::fabs(got[i] - golden[i]);
    const double rel_err =
        golden[i] != 0 ? abs_err / std::fabs(golden[i]) : (abs_err == 0 ? 0 : INFINITY);
    // NaN errors count as wrong: the comparisons below are false for them.
    const bool ok = abs_err <= tol || rel_err <= tol;
    if (abs_err > r.max_abs || std::isnan(abs_err)) r.max_abs = abs_err;
    if (rel_err > r.max_rel || std::isnan(rel_err)) r.max_rel = rel_err;
    if (!ok) {
      ++r.wrong;
      if (r.failing.size() < max_failing) r.failing.push_back(i);
    }
  }
  return r;
}

bool PrintRule(const char* name, const RuleResult& r, const std::vector<double>& got,
               const std::vector<double>& golden) {
  std::printf("%-14s %zu of %zu elements wrong (max abs err %.3g, max rel err %.3g)\n", name,
              r.wrong, r.elements, r.max_abs, r.max_rel);
  for (size_t i : r.failing) {
    const double abs_err = std::fabs(got[i] - golden[i]);
    std::printf("  %s[%zu] = %.9g, golden %.9g (abs err %.3g, rel err %.3g)\n", name, i, got[i],
                golden[i], abs_err, golden[i] != 0 ? abs_err / std::fabs(golden[i]) : INFINITY);
  }
  if (r.wrong > r.failing.size()) std::printf("  ... and %zu more\n", r.wrong - r.failing.size());
  return r.wrong == 0;
}

bool CheckAndPrint(const char* name, const std::vector<double>& got,
                   const std::vector<double>& golden, double tol) {
  return PrintRule(name, CheckRule(got, golden, tol), got, golden);
}

void LayerNormGradData::Bind(LayerNormGradOpArgs* args) {
  args->SetTensors(dy.data(), x.data(), mean.data(), variance.data(), gamma.data(), pd_x.data(),
                   res_for_gamma.data());
}

bool LayerNormGradData::Check(double epsilon, double tol) const {
  std::vector<double> want_pd_x, want_res;
  LayerNormGradGolden(rows, h, dy.values, x.values, mean.values, variance.values, gamma.values,
                      RoundTo(dtype, epsilon), &want_pd_x, &want_res);
  const bool ok = CheckAndPrint("outputPdX", Values(dtype, pd_x.data(), rows * h), want_pd_x, tol);
  return CheckAndPrint("resForGamma", Values(dtype, res_for_gamma.data(), rows * h), want_res,
                       tol) &&
         ok;
}

LayerNormGradData MakeLayerNormGradData(OpDType dtype, size_t rows, size_t h, double lo, double hi,
                                        const uint64_t (&seeds)[3]) {
  LayerNormGradData d;
  d.dtype = dtype;
  d.rows = rows;
  d.h = h;
  d.dy = MakeTensor(dtype, Uniform(rows * h, lo, hi, seeds[0]));
  d.x = MakeTensor(dtype, Uniform(rows * h, lo, hi, seeds[1]));
  d.gamma = MakeTensor(dtype, Uniform(h, lo, hi, seeds[2]));
  std::vector<double> mean, variance;
  RowStatistics(rows, h, d.x.values, &mean, &variance);
  d.mean = MakeTensor(dtype, mean);
  d.variance = MakeTensor(dtype, variance);
  d.pd_x = ZeroTensor(dtype, rows * h);
  d.res_for_gamma = ZeroTensor(dtype, rows * h);
  return d;
}

void ApplyCase(const ExampleCase& c, OpArgs* args) {
  args->SetShape(c.dtype, c.b, c.s, c.h);
  args->launch.blocks = c.blocks;
  args->launch.soc = c.soc;
}

void PrintCaseTitle(const ExampleCase& c) {
  std::printf("== %s: %s [%lld,%lld,%lld], %u block(s) on %s\n", c.name, DTypeName(c.dtype),
              static_cast<long long>(c.b), static_cast<long long>(c.s), static_cast<long long>(c.h),
              c.blocks, c.soc);
}

bool Succeeded(const char* what, const Status& st) {
  if (st.ok()) return true;
  std::printf("%s failed: %s\n", what, st.ToString().c_str());
  return false;
}

void PrintOpInfo(const OpInfo& info, uint32_t tile_rows) {
  std::printf("blocks %u, tiles %llu (block 0: %u rows per tile), tmp %u B, UB %llu B\n",
              info.blocks_used, static_cast<unsigned long long>(info.tiles), tile_rows,
              info.tmp_bytes, static_cast<unsigned long long>(info.ub_bytes));
}

int RunExampleCases(std::span<const ExampleCase> cases, uint64_t seed,
                    const std::function<bool(const ExampleCase&, uint64_t seed)>& run) {
  bool ok = true;
  for (const ExampleCase& c : cases) {
    ok = run(c, seed) && ok;
    seed += 10;
  }
  std::printf("%s\n", ok ? "test pass!" : "test failed!");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace lngrad::ops::sample
