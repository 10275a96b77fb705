// Shared by the peer-comparison programs (bench_check, bench_dnnl): the benchmark shapes, the
// deterministic float32 inputs every peer gets, and the agreement check against lngrad.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lngrad/lngrad.h"

namespace lngrad::bench {

// rows x h of issue 6.
inline const std::vector<std::pair<int64_t, int64_t>>& Shapes() {
  static const std::vector<std::pair<int64_t, int64_t>> shapes = {
      {64, 16}, {4096, 768}, {8192, 1024}, {16384, 4096}, {2048, 12288}};
  return shapes;
}

inline constexpr float kEpsilon = 1e-5f;

// The benchmark name of one problem: "<prefix>/rows:<rows>/h:<h>/threads:<threads>" (bench/compare
// parses it).
inline std::string BenchmarkName(const char* prefix, int64_t rows, int64_t h, int threads) {
  return std::string(prefix) + "/rows:" + std::to_string(rows) + "/h:" + std::to_string(h) +
         "/threads:" + std::to_string(threads);
}

// LayerNorm backward inputs. mean and variance are the true row statistics of x (from lngrad's
// forward), so peers that assume it (oneDNN, PyTorch) compute the same function; rstd is the
// PyTorch convention of the same statistics.
struct Inputs {
  int64_t rows = 0, h = 0;
  std::vector<float> dy, x, gamma, mean, variance, rstd;
};

inline Inputs MakeInputs(int64_t rows, int64_t h) {
  Inputs in;
  in.rows = rows;
  in.h = h;
  const auto n = static_cast<size_t>(rows * h);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  in.dy.resize(n);
  in.x.resize(n);
  for (auto& v : in.dy) v = u(rng);
  for (auto& v : in.x) v = 2.0f * u(rng) + 0.5f;
  in.gamma.resize(static_cast<size_t>(h));
  for (auto& v : in.gamma) v = 1.0f + 0.5f * u(rng);
  const std::vector<float> beta(static_cast<size_t>(h), 0.0f);
  std::vector<float> y(n);
  in.mean.resize(static_cast<size_t>(rows));
  in.variance.resize(static_cast<size_t>(rows));
  in.rstd.resize(static_cast<size_t>(rows));
  if (!LayerNorm({rows, h}, in.x.data(), in.gamma.data(), beta.data(), kEpsilon, y.data(),
                 in.mean.data(), in.variance.data())
           .ok() ||
      !VarianceToRstd(rows, in.variance.data(), kEpsilon, in.rstd.data()).ok()) {
    std::fprintf(stderr, "MakeInputs: lngrad failed\n");
    std::abort();
  }
  return in;
}

struct Outputs {
  std::vector<float> dx, dgamma, dbeta;
};

// Zero-filled outputs of the right sizes for in.
inline Outputs AllocateOutputs(const Inputs& in) {
  Outputs out;
  out.dx.resize(in.dy.size());
  out.dgamma.resize(in.gamma.size());
  out.dbeta.resize(in.gamma.size());
  return out;
}

inline Outputs LngradBackward(const Inputs& in, int threads) {
  Outputs out = AllocateOutputs(in);
  Options o;
  o.num_threads = threads;
  if (!LayerNormBackward({in.rows, in.h}, in.dy.data(), in.x.data(), in.mean.data(),
                         in.variance.data(), in.gamma.data(), kEpsilon, out.dx.data(),
                         out.dgamma.data(), out.dbeta.data(), o)
           .ok()) {
    std::fprintf(stderr, "LngradBackward: lngrad failed\n");
    std::abort();
  }
  return out;
}

// Largest |peer - ours| relative to the largest |ours| of the tensor. Different but correct
// float evaluations differ by a few ulps of the row magnitudes, so 1e-4 separates "same work"
// from "different function" (a wrong formula or a missing term gives O(1)).
inline double RelDiff(const std::vector<float>& peer, const std::vector<float>& ours) {
  double diff = 0, mag = 0;
  for (size_t i = 0; i < ours.size(); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(peer[i]) - ours[i]));
    mag = std::max(mag, std::fabs(static_cast<double>(ours[i])));
  }
  return mag > 0 ? diff / mag : diff;
}

inline constexpr double kAgreeLimit = 1e-4;

// Prints one line "agree <peer> <rows>x<h> dx=.. dgamma=.. dbeta=.. OK|MISMATCH"; returns ok.
inline bool ReportAgreement(const char* peer, const Inputs& in, const Outputs& got,
                            const Outputs& ours) {
  const double dx = RelDiff(got.dx, ours.dx), dg = RelDiff(got.dgamma, ours.dgamma),
               db = RelDiff(got.dbeta, ours.dbeta);
  const bool ok = dx <= kAgreeLimit && dg <= kAgreeLimit && db <= kAgreeLimit;
  std::printf("agree %s %lldx%lld dx=%.2e dgamma=%.2e dbeta=%.2e %s\n", peer,
              static_cast<long long>(in.rows), static_cast<long long>(in.h), dx, dg, db,
              ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace lngrad::bench
