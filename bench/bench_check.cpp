// Agreement check for peers that are not C++ (PyTorch): `bench_check gen DIR ROWS H` writes the
// inputs of bench_common.h as raw float32 files (dy, x, gamma, mean, variance, rstd .f32);
// the peer writes dx, dgamma, dbeta .f32 next to them; `bench_check check DIR ROWS H PEER`
// compares those with lngrad's outputs and exits 1 on a mismatch.
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
  std::fprintf(stderr, "usage: bench_check gen DIR ROWS H | check DIR ROWS H PEER\n");
  return 2;
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
  if (cmd == "check" && argc == 6) {
    Outputs got;
    got.dx.resize(in.dy.size());
    got.dgamma.resize(in.gamma.size());
    got.dbeta.resize(in.gamma.size());
    if (!Read(dir + "/dx.f32", &got.dx) || !Read(dir + "/dgamma.f32", &got.dgamma) ||
        !Read(dir + "/dbeta.f32", &got.dbeta)) {
      std::fprintf(stderr, "bench_check: cannot read the peer's outputs in %s\n", dir.c_str());
      return 1;
    }
    return lngrad::bench::ReportAgreement(argv[5], in, got, lngrad::bench::LngradBackward(in, 1))
               ? 0
               : 1;
  }
  return Usage();
}
