// libFuzzer target: random but valid LayerNormGrad problems launched on the simulated device
// (the example operator's kernel, which calls AscendC::LayerNormGrad on UB tiles, see
// src/ops) and compared with the native path (lngrad::LayerNormGrad).
// Checks (abort on violation): the launch succeeds on every product that supports the API and
// is Unsupported exactly on the others; every pd_x and res_for_gamma element agrees with the
// native result within the tolerance below; NaN appears in one exactly where in the other.
//
// Tolerance (float): both paths evaluate the formulas of docs/math.md §1 in float; each errs by
// at most (2·h + 14)·u·mag (a sequential float sum of h terms errs by at most h·u·Σ|term|, and
// pd_x has two such sums, §6.1 with D = h; the native path's blocked order is tighter), so
// |device - native| <= 2·(2h + 14)·u·mag, mag as in docs/math.md §6. res_for_gamma: 3 roundings
// on each side, 6u·|res| plus the (v + eps)^-0.5 evaluations (2u each): 8u·|res|.
// Half: the same float bounds, plus one half spacing at the result, because each path rounds
// its float result to half once (the two can round to neighbouring halves).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "element.h"
#include "row_stats.h"
#include "ops/layernorm_grad_op.h"
#include "lngrad/product.h"
#include "lngrad/half.h"
#include "lngrad/lngrad.h"

namespace {

constexpr double kU = 0x1p-24;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_kernel_launch invariant broken: %s\n", what);
  std::abort();
}

double HalfSpacing(double v) {
  const double a = std::max(std::fabs(v), 0x1p-14);  // subnormal halves are 2^-24 apart
  return std::ldexp(1.0, std::ilogb(a) - 10);
}

using lngrad::test::FromDouble;
using lngrad::test::ToDouble;

// The inputs of one case, the device's outputs and the native path's.
template <typename T>
struct CaseData {
  std::vector<T> dy, x, mean, var, gamma, pdx, res, npdx, nres;
};

// The device's pd_x and res_for_gamma against the native path's, within the bounds of
// docs/math.md §6 (pd_x) and 8 u (res_for_gamma), plus one half spacing for half.
template <typename T>
void CheckRows(const CaseData<T>& d, int64_t rows, int64_t h, float eps) {
  constexpr bool kHalf = sizeof(T) == 2;
  const auto& [dy, x, mean, var, gamma, pdx, res, npdx, nres] = d;
  const double k = 2.0 * (2.0 * static_cast<double>(h) + 14.0);
  for (int64_t r = 0; r < rows; ++r) {
    const double v = ToDouble(var[r]) + static_cast<double>(eps);
    const double m = ToDouble(mean[r]);
    double s12 = 0, s1 = 0, s2 = 0;
    for (int64_t c = 0; c < h; ++c) {
      const double x1 = ToDouble(dy[r * h + c]) * ToDouble(gamma[c]),
                   x2 = ToDouble(x[r * h + c]) - m;
      s12 += std::fabs(x1 * x2);
      s1 += std::fabs(x1);
      s2 += std::fabs(2 * x2);
    }
    const double pv_abs = 0.5 * s12 * std::pow(v, -1.5);
    const double pm_abs = s1 * std::pow(v, -0.5) + pv_abs * s2 / static_cast<double>(h);
    for (int64_t c = 0; c < h; ++c) {
      const int64_t i = r * h + c;
      const double x1 = ToDouble(dy[i]) * ToDouble(gamma[c]), x2 = ToDouble(x[i]) - m;
      const double mag = std::fabs(x1) * std::pow(v, -0.5) +
                         pv_abs * 2.0 / static_cast<double>(h) * std::fabs(x2) +
                         pm_abs / static_cast<double>(h);
      const double a = ToDouble(pdx[i]), e = ToDouble(npdx[i]);
      double tol = k * kU * mag;
      if (kHalf) tol += HalfSpacing(std::max(std::fabs(a), std::fabs(e)));
      if (std::isnan(a) != std::isnan(e) || !(std::fabs(a - e) <= tol || a == e)) {
        std::fprintf(stderr, "pd_x[%lld] device %.9g native %.9g tol %.3g (h %lld)\n",
                     static_cast<long long>(i), a, e, tol, static_cast<long long>(h));
        Fail("pd_x differs beyond the tolerance");
      }
      const double ra = ToDouble(res[i]), re = ToDouble(nres[i]);
      double rtol = 8.0 * kU * std::fabs(re);
      if (kHalf) rtol += HalfSpacing(std::max(std::fabs(ra), std::fabs(re)));
      if (std::isnan(ra) != std::isnan(re) || !(std::fabs(ra - re) <= rtol || ra == re)) {
        std::fprintf(stderr, "res[%lld] device %.9g native %.9g tol %.3g\n",
                     static_cast<long long>(i), ra, re, rtol);
        Fail("res_for_gamma differs beyond the tolerance");
      }
    }
  }
}

template <typename T>
void RunCase(FuzzedDataProvider& p, const lngrad::Product& product) {
  constexpr bool kHalf = sizeof(T) == 2;
  const int64_t b = p.ConsumeIntegralInRange<int64_t>(1, 3);
  const int64_t s = p.ConsumeIntegralInRange<int64_t>(1, 9);
  const int64_t align = kHalf ? 16 : 8;  // H*sizeof(T) a multiple of 32 bytes
  const int64_t h = align * p.ConsumeIntegralInRange<int64_t>(1, p.ConsumeBool() ? 4 : 40);
  const int64_t rows = b * s, n = rows * h;
  const double range = std::ldexp(1.0, p.ConsumeIntegralInRange<int>(-8, 8));
  const float eps_in = p.PickValueInArray<float>({1e-5f, 1e-4f, 1e-3f, 0.1f});
  std::mt19937 rng(p.ConsumeIntegral<uint32_t>());
  std::uniform_real_distribution<double> dist(-range, range);

  CaseData<T> d{std::vector<T>(n),    std::vector<T>(n), std::vector<T>(rows),
                std::vector<T>(rows), std::vector<T>(h), std::vector<T>(n),
                std::vector<T>(n),    std::vector<T>(n), std::vector<T>(n)};
  auto& [dy, x, mean, var, gamma, pdx, res, npdx, nres] = d;
  for (auto& v : dy) v = FromDouble<T>(dist(rng));
  for (auto& v : x) v = FromDouble<T>(dist(rng));
  for (auto& v : gamma) v = FromDouble<T>(dist(rng) / range);
  lngrad::test::RowStats(x.data(), rows, h, mean.data(), var.data());

  lngrad::ops::LayerNormGradOpArgs args;
  args.SetShape(kHalf ? lngrad::ops::OpDType::kFloat16 : lngrad::ops::OpDType::kFloat32, b, s, h);
  args.SetTensors(dy.data(), x.data(), mean.data(), var.data(), gamma.data(), pdx.data(),
                  res.data());
  args.epsilon = eps_in;
  args.reuse_source = p.ConsumeBool();
  args.tmp.kind =
      p.ConsumeBool() ? lngrad::ops::TmpSize::Kind::kMin : lngrad::ops::TmpSize::Kind::kMax;
  args.launch.blocks = p.ConsumeIntegralInRange<uint32_t>(1, 4);
  args.launch.soc = std::string(product.soc);
  args.launch.shared_tmp_buffer = p.ConsumeBool();
  args.launch.sequential = p.ConsumeBool();
  lngrad::Status s_dev = lngrad::ops::RunLayerNormGradOp(args);
  if (s_dev.code() == lngrad::StatusCode::kOutOfRange &&
      args.tmp.kind == lngrad::ops::TmpSize::Kind::kMax && product.supports_layernormgrad) {
    // Documented: the maximum scratch (n*max(BSH, H*H) bytes) may not fit the UB; the minimum
    // must then be used. Every shape generated here fits with the minimum.
    args.tmp.kind = lngrad::ops::TmpSize::Kind::kMin;
    s_dev = lngrad::ops::RunLayerNormGradOp(args);
  }
  if (!product.supports_layernormgrad) {
    if (s_dev.code() != lngrad::StatusCode::kUnsupported) Fail("unsupported product accepted");
    return;
  }
  if (!s_dev.ok()) {
    std::fprintf(stderr, "%s\n", s_dev.ToString().c_str());
    Fail("valid launch failed");
  }

  // Half kernels receive epsilon as half (spec §1.10): give the native path the same value.
  const float eps = kHalf ? lngrad::Half(eps_in).ToFloat() : eps_in;
  const lngrad::Status s_nat =
      lngrad::LayerNormGrad({rows, h}, dy.data(), x.data(), mean.data(), var.data(), gamma.data(),
                            eps, npdx.data(), nres.data());
  if (!s_nat.ok()) Fail("native call failed");

  CheckRows(d, rows, h, eps);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider p(data, size);
  const auto products = lngrad::AllProducts();
  const auto& product = products[p.ConsumeIntegralInRange<size_t>(0, products.size() - 1)];
  if (p.ConsumeBool()) {
    RunCase<float>(p, product);
  } else {
    RunCase<lngrad::Half>(p, product);
  }
  return 0;
}
