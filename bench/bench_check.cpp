// Agreement check for peers that are not C++ (PyTorch): `bench_check gen DIR ROWS H` writes the
// inputs of bench_common.h as raw float32 files (dy, x, gamma, mean, variance, rstd .f32);
// the peer writes dx, dgamma, dbeta .f32 next to them; `bench_check check DIR ROWS H PEER`
// compares those with lngrad's outputs and exits 1 on a mismatch. `check-bf16` does the same for
// a peer that ran in bfloat16 on those inputs rounded to bfloat16 (dy, x, gamma, mean, rstd, as
// PyTorch keeps all five for bfloat16 data): lngrad runs its bfloat16 backward on the same
// rounded values (rstd as the variance 1/rstd^2 with epsilon 0). dx must agree within
// kAgreeLimitBf16; dgamma and dbeta are judged against their exact values (float64 sums of the
// rounded inputs), because PyTorch's bfloat16 kernels sum them with large errors (about 0.1 of
// the largest value at 4096 rows, measured with PyTorch 1.13 and 2.15): the line shows both
// sides' errors, and only an error of a different function (above kDifferentFunction) fails.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

using lngrad::bench::Inputs;
using lngrad::bench::Outputs;

bool Write(const std::string& path, const lngrad::bench::Vector<float>& v) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(v.data(), sizeof(float), v.size(), f) == v.size();
  return std::fclose(f) == 0 && ok;
}

bool Read(const std::string& path, lngrad::bench::Vector<float>* v) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  const bool ok = std::fread(v->data(), sizeof(float), v->size(), f) == v->size();
  std::fclose(f);
  return ok;
}

int Usage() {
  std::fprintf(stderr, "usage: bench_check gen DIR ROWS H | check[-bf16] DIR ROWS H PEER\n");
  return 2;
}

using lngrad::BFloat16;

lngrad::bench::Vector<BFloat16> ToBf16(const lngrad::bench::Vector<float>& v) {
  lngrad::bench::Vector<BFloat16> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = BFloat16(v[i]);
  return out;
}

lngrad::bench::Vector<float> Widened(const lngrad::bench::Vector<BFloat16>& v) {
  lngrad::bench::Vector<float> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = v[i].ToFloat();
  return out;
}

// Largest |v - exact| relative to the largest |exact|.
double ErrorToExact(const lngrad::bench::Vector<float>& v, const std::vector<double>& exact) {
  double diff = 0, mag = 0;
  for (size_t i = 0; i < exact.size(); ++i) {
    diff = std::max(diff, std::fabs(v[i] - exact[i]));
    mag = std::max(mag, std::fabs(exact[i]));
  }
  return mag > 0 ? diff / mag : diff;
}

// A wrong formula or a missing term is off by O(1) of the largest value.
constexpr double kDifferentFunction = 0.25;

// lngrad's bfloat16 backward on `in` rounded to bfloat16 (see the file comment), widened.
Outputs LngradBackwardBf16(const Inputs& in) {
  const auto dy = ToBf16(in.dy), x = ToBf16(in.x), gamma = ToBf16(in.gamma);
  lngrad::bench::Vector<float> mean = Widened(ToBf16(in.mean));
  lngrad::bench::Vector<float> var = Widened(ToBf16(in.rstd));
  lngrad::bench::Vector<BFloat16> dx(dy.size()), dgamma(gamma.size()), dbeta(gamma.size());
  if (!lngrad::RstdToVariance(in.rows, var.data(), 0.0f, var.data()).ok() ||
      !lngrad::LayerNormBackwardFloatStats({in.rows, in.h}, dy.data(), x.data(), mean.data(),
                                           var.data(), gamma.data(), 0.0f, dx.data(), dgamma.data(),
                                           dbeta.data())
           .ok()) {
    std::fprintf(stderr, "bench_check: lngrad's bfloat16 backward failed\n");
    std::abort();
  }
  return {Widened(dx), Widened(dgamma), Widened(dbeta)};
}

// The bfloat16 agreement (see the file comment); prints one line, returns ok.
bool CheckBf16(const char* peer, const Inputs& in, const Outputs& got) {
  const Outputs ours = LngradBackwardBf16(in);
  const auto dy = Widened(ToBf16(in.dy)), x = Widened(ToBf16(in.x));
  const auto mean = Widened(ToBf16(in.mean)), rstd = Widened(ToBf16(in.rstd));
  const auto h = static_cast<size_t>(in.h);
  std::vector<double> dgamma(h, 0.0), dbeta(h, 0.0);
  for (size_t r = 0; r < static_cast<size_t>(in.rows); ++r) {
    for (size_t c = 0; c < h; ++c) {
      const double g = dy[r * h + c];
      dgamma[c] += g * (static_cast<double>(x[r * h + c]) - mean[r]) * rstd[r];
      dbeta[c] += g;
    }
  }
  const double dx = lngrad::bench::RelDiff(got.dx, ours.dx);
  const double peer_dg = ErrorToExact(got.dgamma, dgamma), peer_db = ErrorToExact(got.dbeta, dbeta);
  const bool ok = dx <= lngrad::bench::kAgreeLimitBf16 && peer_dg <= kDifferentFunction &&
                  peer_db <= kDifferentFunction;
  std::printf(
      "agree %s %lldx%lld dx=%.2e; against the exact sums: dgamma %.2e (lngrad %.2e), dbeta "
      "%.2e (lngrad %.2e) %s\n",
      peer, static_cast<long long>(in.rows), static_cast<long long>(in.h), dx, peer_dg,
      ErrorToExact(ours.dgamma, dgamma), peer_db, ErrorToExact(ours.dbeta, dbeta),
      ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) return Usage();
  const std::string cmd = argv[1], dir = argv[2];
  const int64_t rows = std::atoll(argv[3]), h = std::atoll(argv[4]);
  if (rows < 1 || h < 1) return Usage();
  const Inputs in = lngrad::bench::MakeInputs(rows, h);
  if (cmd == "gen") {
    const bool ok = Write(dir + "/dy.f32", in.dy) && Write(dir + "/x.f32", in.x) &&
                    Write(dir + "/gamma.f32", in.gamma) && Write(dir + "/mean.f32", in.mean) &&
                    Write(dir + "/variance.f32", in.variance) && Write(dir + "/rstd.f32", in.rstd);
    if (!ok) std::fprintf(stderr, "bench_check: cannot write the inputs to %s\n", dir.c_str());
    return ok ? 0 : 1;
  }
  if ((cmd == "check" || cmd == "check-bf16") && argc == 6) {
    Outputs got;
    got.dx.resize(in.dy.size());
    got.dgamma.resize(in.gamma.size());
    got.dbeta.resize(in.gamma.size());
    if (!Read(dir + "/dx.f32", &got.dx) || !Read(dir + "/dgamma.f32", &got.dgamma) ||
        !Read(dir + "/dbeta.f32", &got.dbeta)) {
      std::fprintf(stderr, "bench_check: cannot read the peer's outputs in %s\n", dir.c_str());
      return 1;
    }
    if (cmd == "check-bf16") return CheckBf16(argv[5], in, got) ? 0 : 1;
    return lngrad::bench::ReportAgreement(argv[5], in, got, lngrad::bench::LngradBackward(in, 1))
               ? 0
               : 1;
  }
  return Usage();
}
