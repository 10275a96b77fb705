// `lngrad gen`: inputs for LayerNormGrad and goldens from the float64 reference.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <numbers>
#include <random>

#include "cli_common.h"
#include "command.h"
#include "ops/golden.h"
#include "progress.h"

namespace lngrad::cli {
namespace {

constexpr const char* kCmd = "gen";
constexpr const char* kDescription =
    "Generate LayerNormGrad inputs (dy, x, gamma; mean and variance of x from a float64\n"
    "forward LayerNorm) and goldens (pd_x, res_for_gamma, dgamma, dbeta from the float64\n"
    "reference, rounded once to --dtype), plus manifest.json, into --out DIR.";

// Random values whose sequence is fixed by the seed on every platform: std::mt19937_64 is
// specified bit for bit, and the transforms below are ours (the std:: distributions are not
// specified and differ between standard libraries).
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  // Uniform in [0, 1) with 53 random bits.
  double Uniform01() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }
  // Standard normal by Box-Muller (one value per pair of uniforms).
  double Normal() {
    const double u1 = 1.0 - Uniform01();  // (0, 1]: log is finite
    const double u2 = Uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }

 private:
  std::mt19937_64 gen_;
};

struct Dist {
  enum Kind { kUniform, kNormal, kRandint } kind = kUniform;
  double a = -100, b = 100;  // uniform: [a, b); normal: mean a, std b; randint: [a, b)
  std::string text;

  double Draw(Rng& rng) const {
    switch (kind) {
      case kUniform:
        return a + (b - a) * rng.Uniform01();
      case kNormal:
        return a + b * rng.Normal();
      case kRandint:
        return std::floor(a + (b - a) * rng.Uniform01());
    }
    return 0;
  }
};

Status ParseDist(const std::string& text, Dist* out) {
  const size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  Dist d;
  if (name == "uniform") {
    d = {Dist::kUniform, -100, 100, ""};
  } else if (name == "normal") {
    d = {Dist::kNormal, 0, 1, ""};
  } else if (name == "randint") {
    d = {Dist::kRandint, -10, 10, ""};
  } else {
    return Status::InvalidArgument("--dist \"" + text +
                                   "\": unknown distribution (uniform:LO,HI, normal:MEAN,STD or "
                                   "randint:LO,HI)");
  }
  if (colon != std::string::npos) {
    const std::string params = text.substr(colon + 1);
    const size_t comma = params.find(',');
    if (comma == std::string::npos) {
      return Status::InvalidArgument("--dist \"" + text + "\": expected two parameters, e.g. " +
                                     name + ":-1,1");
    }
    LNGRAD_RETURN_IF_ERROR(ParseFiniteDouble(params.substr(0, comma), "--dist parameter", &d.a));
    LNGRAD_RETURN_IF_ERROR(ParseFiniteDouble(params.substr(comma + 1), "--dist parameter", &d.b));
  }
  if (d.kind == Dist::kNormal && !(d.b > 0)) {
    return Status::InvalidArgument("--dist \"" + text + "\": the standard deviation must be > 0");
  }
  if (d.kind != Dist::kNormal && !(d.a < d.b)) {
    return Status::InvalidArgument("--dist \"" + text + "\": LO must be less than HI");
  }
  if (d.kind == Dist::kRandint && (d.a != std::floor(d.a) || d.b != std::floor(d.b))) {
    return Status::InvalidArgument("--dist \"" + text + "\": randint bounds must be integers");
  }
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s:%.17g,%.17g", name.c_str(), d.a, d.b);
  d.text = buf;
  *out = d;
  return Status::Ok();
}

// The numeric options once parsed.
struct GenParams {
  uint64_t seed = 1;
  double eps = 1e-4;
};

struct GenOptions {
  std::string shape_text;
  std::string dtype_text = "float";
  std::string seed_text = "1";
  std::string dist_text = "uniform:-100,100";
  std::string eps_text = "1e-4";
  std::string format_text = "npy";
  std::string out;
  bool json = false;
};

std::vector<double> Values(const io::Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.size()));
  for (int64_t i = 0; i < t.size(); ++i) v[static_cast<size_t>(i)] = t.Get(i);
  return v;
}

io::Tensor FromValues(io::DType dt, std::vector<int64_t> shape, const std::vector<double>& v) {
  io::Tensor t(dt, std::move(shape));
  for (int64_t i = 0; i < t.size(); ++i) t.Set(i, v[static_cast<size_t>(i)]);
  return t;
}

// What to generate, once the options are parsed and checked.
struct GenRequest {
  std::vector<int64_t> shape;  // B, S, H
  io::DType dt = io::DType::kFloat32;
  Dist dist;
  GenParams p;
  io::FileFormat format = io::FileFormat::kNpy;
};

// The stored inputs, in the dtype.
struct GenInputs {
  io::Tensor dy, x, gamma, mean, variance;
};

// The float64 goldens; res_for_gamma as stored in the dtype.
struct GenGoldens {
  std::vector<double> pd_x, dgamma, dbeta;
  io::Tensor res_stored;
};

int ParseGenRequest(const GenOptions& o, GenRequest* req) {
  std::vector<int64_t>& shape = req->shape;
  if (Status st = io::ParseShape(o.shape_text, "--shape", &shape); !st.ok()) return Fail(kCmd, st);
  if (shape.size() != 3) {
    return Fail(kCmd, "--shape \"" + o.shape_text + "\" must have three dimensions B,S,H");
  }
  if (Status st = ParseDataDType(o.dtype_text, "gen writes", &req->dt); !st.ok())
    return Fail(kCmd, st);
  if (Status st = ParseDist(o.dist_text, &req->dist); !st.ok()) return Fail(kCmd, st);
  GenParams& p = req->p;
  if (Status st = ParseFiniteDouble(o.eps_text, "--eps", &p.eps); !st.ok()) return Fail(kCmd, st);
  // The device kernels take epsilon in the data's type, so half data needs a half epsilon.
  if (Status st = CheckEpsilon(p.eps, "--eps", req->dt == io::DType::kFloat16); !st.ok())
    return Fail(kCmd, st);
  // The manifest stores the seed as a JSON integer (int64).
  if (Status st = ParseUint(o.seed_text, "--seed", static_cast<uint64_t>(INT64_MAX), &p.seed);
      !st.ok())
    return Fail(kCmd, st);
  if (Status st = io::ParseFormat(o.format_text, &req->format); !st.ok())
    return Fail(kCmd, "--" + st.message());
  if (req->dt == io::DType::kBFloat16 && req->format == io::FileFormat::kNpy) {
    return Fail(kCmd, "--dtype bf16 needs --format bin: NumPy's .npy has no bfloat16 type");
  }
  if (Status st = CheckOutputPath("--out", o.out); !st.ok()) return Fail(kCmd, st);
  // At the peak, five float64 arrays of B*S*H (x, dy, pd_x, res_for_gamma and the stored
  // res_for_gamma's values) or four of them and five tensors of the dtype (dy, x, the goldens).
  const uint64_t elements =
      static_cast<uint64_t>(shape[0] * shape[1]) * static_cast<uint64_t>(shape[2]);
  if (Status st = CheckMemory("--shape " + io::ShapeText(shape) + " of " + io::DTypeName(req->dt),
                              elements * (40 + 5 * io::DTypeSize(req->dt)));
      !st.ok()) {
    return Fail(kCmd, st);
  }
  return kExitOk;
}

// Inputs, drawn in this order from one stream, rounded once to the dtype; then the statistics
// from the stored x, as the forward pass would give them, then stored.
int GenerateInputs(const GenOptions& o, const GenRequest& req, GenInputs* in) {
  const io::DType dt = req.dt;
  const int64_t b = req.shape[0], s = req.shape[1], h = req.shape[2], rows = b * s;
  Rng rng(req.p.seed);
  in->dy = io::Tensor(dt, req.shape);
  in->x = io::Tensor(dt, req.shape);
  in->gamma = io::Tensor(dt, {h});
  for (io::Tensor* t : {&in->dy, &in->x, &in->gamma}) {
    for (int64_t i = 0; i < t->size(); ++i) t->Set(i, req.dist.Draw(rng));
  }
  for (const auto& [name, t] :
       {std::pair<const char*, io::Tensor*>{"dy", &in->dy}, {"x", &in->x}, {"gamma", &in->gamma}}) {
    const io::NonFinite nf = io::FindNonFinite(*t);
    if (nf.first_index >= 0) {
      return Fail(kCmd, "--dist " + o.dist_text + " gives " + name + " values beyond the " +
                            io::DTypeName(dt) + " range (first at " +
                            io::IndexText(t->shape(), nf.first_index) + ")");
    }
  }
  const std::vector<double> xd = Values(in->x);
  std::vector<double> mean_d(static_cast<size_t>(rows)), var_d(static_cast<size_t>(rows));
  ops::golden::RowStatistics(rows, h, xd.data(), mean_d.data(), var_d.data());
  in->mean = FromValues(dt, {b, s}, mean_d);
  in->variance = FromValues(dt, {b, s}, var_d);
  if (io::FindNonFinite(in->variance).first_index >= 0) {
    return Fail(kCmd, "--dist " + o.dist_text + ": the row variance exceeds the " +
                          std::string(io::DTypeName(dt)) + " range; use a narrower distribution");
  }
  return kExitOk;
}

// Goldens from exactly what was stored (and eps as the float kernels receive it).
void ComputeGoldens(const GenRequest& req, const GenInputs& in, Progress& progress, GenGoldens* g) {
  const int64_t rows = req.shape[0] * req.shape[1], h = req.shape[2];
  const double eps = static_cast<double>(static_cast<float>(req.p.eps));
  const std::vector<double> xd = Values(in.x), dyd = Values(in.dy), gd = Values(in.gamma),
                            md = Values(in.mean), vd = Values(in.variance);
  g->pd_x.resize(static_cast<size_t>(rows * h));
  std::vector<double> res(static_cast<size_t>(rows * h));
  g->dgamma.resize(static_cast<size_t>(h));
  g->dbeta.resize(static_cast<size_t>(h));
  ops::golden::LayerNormGrad(rows, h, dyd.data(), xd.data(), md.data(), vd.data(), gd.data(), eps,
                             g->pd_x.data(), res.data(), [&](double f) { progress.Fraction(f); });
  // LayerNormGradBeta consumes res_for_gamma as stored in the dtype, so its golden is the
  // exact result for the stored golden res_for_gamma (what a perfect LayerNormGrad hands on).
  g->res_stored = FromValues(req.dt, req.shape, res);
  ops::golden::LayerNormGradBeta(rows, h, dyd.data(), Values(g->res_stored).data(),
                                 g->dgamma.data(), g->dbeta.data());
}

io::Json GenManifest(const GenRequest& req) {
  io::Json manifest = io::Json::object();
  manifest["format"] = std::string(kManifestFormat);
  manifest["producer"] = "lngrad gen " + std::string(kVersion);
  manifest["op"] = "LayerNormGrad";
  manifest["shape"] = io::Json(req.shape);
  manifest["dtype"] = io::DTypeName(req.dt);
  manifest["eps"] = req.p.eps;
  manifest["seed"] = req.p.seed;
  manifest["dist"] = req.dist.text;
  manifest["golden"] = "float64 reference (src/ops/golden.cpp), rounded once to the dtype";
  return manifest;
}

int ReportGen(const GenOptions& o, const GenRequest& req, const io::OutputSet& out) {
  const std::vector<int64_t>& bsh = req.shape;
  if (o.json) {
    io::Json j = io::Json::object();
    j["command"] = "gen";
    j["out"] = o.out;
    j["shape"] = io::Json(bsh);
    j["dtype"] = io::DTypeName(req.dt);
    j["eps"] = req.p.eps;
    j["seed"] = req.p.seed;
    j["dist"] = req.dist.text;
    j["format"] = io::FormatName(req.format);
    j["files"] = io::Json(out.Paths());
    return PrintJson(j);
  }
  const std::string ext = FileExt(req.format);
  std::printf("wrote %zu files to %s: %s %s, eps %g, seed %llu, dist %s\n", out.Paths().size(),
              o.out.c_str(), io::ShapeText(bsh).c_str(), io::DTypeName(req.dt), req.p.eps,
              static_cast<unsigned long long>(req.p.seed), req.dist.text.c_str());
  std::printf("inputs: dy%s x%s gamma%s mean%s variance%s\n", ext.c_str(), ext.c_str(), ext.c_str(),
              ext.c_str(), ext.c_str());
  std::printf("goldens: golden_pd_x%s golden_res_for_gamma%s golden_dgamma%s golden_dbeta%s\n",
              ext.c_str(), ext.c_str(), ext.c_str(), ext.c_str());
  return kExitOk;
}

// parse -> open the directory -> generate the inputs -> compute the goldens -> write -> report.
int RunGen(const GenOptions& o) {
  GenRequest req;
  if (int rc = ParseGenRequest(o, &req); rc != kExitOk) return rc;
  DataDirWrite how;
  how.command = kCmd;
  const std::vector<std::string> keys = {"dy",
                                         "x",
                                         "gamma",
                                         "mean",
                                         "variance",
                                         "golden_pd_x",
                                         "golden_res_for_gamma",
                                         "golden_dgamma",
                                         "golden_dbeta"};
  io::OutputSet out(o.out, /*create_dir=*/true);
  if (Status st = OpenDataDir(&out, keys, how); !st.ok()) return Fail(kCmd, st);
  Progress progress(kCmd);

  progress.Stage("generating inputs");
  GenInputs in;
  if (int rc = GenerateInputs(o, req, &in); rc != kExitOk) return rc;
  progress.Stage("computing the golden");
  GenGoldens g;
  ComputeGoldens(req, in, progress, &g);

  progress.Stage("writing files");
  const int64_t h = req.shape[2];
  const std::pair<std::string, io::Tensor> files[] = {
      {"dy", std::move(in.dy)},
      {"x", std::move(in.x)},
      {"gamma", std::move(in.gamma)},
      {"mean", in.mean},
      {"variance", in.variance},
      {"golden_pd_x", FromValues(req.dt, req.shape, g.pd_x)},
      {"golden_res_for_gamma", g.res_stored},
      {"golden_dgamma", FromValues(req.dt, {h}, g.dgamma)},
      {"golden_dbeta", FromValues(req.dt, {h}, g.dbeta)},
  };
  io::Json manifest = GenManifest(req);
  const Status st = WriteDataDir(&out, files, req.format, &manifest, how);
  progress.Finish();
  if (!st.ok()) return Fail(kCmd, st);
  return ReportGen(o, req, out);
}

}  // namespace

void AddGenCommand(CLI::App& root, std::vector<Command>* commands) {
  auto [app, o] = AddCommand<GenOptions>(root, commands, kCmd, kDescription, RunGen);
  app->add_option("--shape", o->shape_text, "B,S,H of dy and x (each >= 1)")->required();
  app->add_option("--dtype", o->dtype_text, "float, half or bf16 (bf16: --format bin)")
      ->capture_default_str();
  app->add_option("--seed", o->seed_text,
                  "Seed of the random inputs, 0 to 2^63-1 (same data on every platform)")
      ->capture_default_str();
  app->add_option("--dist", o->dist_text,
                  "Distribution of dy, x and gamma: uniform:LO,HI (values in [LO,HI)),\n"
                  "normal:MEAN,STD or randint:LO,HI (integers in [LO,HI)); the bare names\n"
                  "mean uniform:-100,100, normal:0,1, randint:-10,10")
      ->capture_default_str();
  app->add_option("--eps", o->eps_text,
                  "Epsilon recorded in the manifest and used for the goldens: >= 0, at most the\n"
                  "largest float (65504 for half, which the device kernels take it in)")
      ->capture_default_str();
  app->add_option("--format", o->format_text,
                  "npy or bin (raw little-endian, as the official "
                  "samples use)")
      ->capture_default_str();
  app->add_option("--out", o->out, "Output directory (created if missing)")->required();
  app->add_flag("--json", o->json, "Print a JSON summary on stdout instead of text");
}

}  // namespace lngrad::cli
