// `lngrad run`: LayerNormGrad and LayerNormGradBeta on data files.
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli_common.h"
#include "command.h"
#include "lngrad/product.h"
#include "ops/op_common.h"
#include "progress.h"
#include "run_ops.h"
#include "vendor_names.h"

namespace lngrad::cli {
namespace {

constexpr const char* kCmd = "run";
constexpr const char* kDescription =
    "Run LayerNormGrad, then LayerNormGradBeta on its res_for_gamma, on data files; write\n"
    "pd_x, res_for_gamma, dgamma, dbeta (in the format of the inputs) and manifest.json\n"
    "into --out DIR.";
constexpr std::array<const char*, 5> kInputs = {"dy", "x", "mean", "variance", "gamma"};
// The official sample's file names (input/input_inputDy.bin, ...), tried after ours.
constexpr std::array<const char*, 5> kSampleNames = {
    "input_inputDy", "input_inputX", "input_inputMean", "input_inputVariance", "input_inputGamma"};

struct RunOptions {
  std::string in_dir;
  std::array<std::string, 5> files;  // --dy --x --mean --variance --gamma
  std::string shape_text;
  std::string dtype_text;
  std::string eps_text;
  bool eps_given = false;  // --eps, even as "" (refused like gen's)
  std::string soc;
  std::string impl_text = "ascendc";
  bool reuse_source = false;
  std::string tmp_text = "min";
  int blocks = 1;
  bool strict = false;
  // --names: lngrad (pd_x.npy ...) or vendor (output_outputPdX.bin ...).
  std::string names = "lngrad";
  std::string out;
  bool json = false;
  std::string half_eval_text = "fast";
  // Which device-only options were given (for the "ignored by native" warning).
  std::vector<std::string> device_options_given;
  bool half_eval_given = false;
};

// Where each input comes from and how to read it.
struct Sources {
  std::array<std::string, 5> paths;
  std::array<BinSpec, 5> specs;
  std::optional<double> manifest_eps;
};

Status ResolveSources(const RunOptions& o, const std::optional<std::vector<int64_t>>& shape,
                      const std::optional<io::DType>& dtype, Sources* src) {
  // Shapes of the raw inputs follow from --shape B,S,H.
  auto bin_spec = [&](size_t i) {
    BinSpec s;
    s.dtype = dtype;
    if (shape) {
      const std::vector<int64_t>& d = *shape;
      if (i < 2) s.shape = d;
      if (i == 2 || i == 3) s.shape = std::vector<int64_t>(d.begin(), d.end() - 1);
      if (i == 4) s.shape = std::vector<int64_t>{d.back()};
    }
    return s;
  };
  if (o.in_dir.empty()) {
    for (size_t i = 0; i < kInputs.size(); ++i) {
      if (o.files[i].empty()) {
        return Status::InvalidArgument(std::string("--") + kInputs[i] +
                                       " is required when --in is not given");
      }
      src->paths[i] = o.files[i];
      src->specs[i] = bin_spec(i);
    }
    return Status::Ok();
  }
  if (!io::IsDirectory(o.in_dir)) {
    return Status::InvalidArgument("--in '" + o.in_dir + "' is not a directory");
  }
  std::optional<Manifest> manifest;
  LNGRAD_RETURN_IF_ERROR(LoadManifest(o.in_dir, &manifest));
  for (size_t i = 0; i < kInputs.size(); ++i) {
    if (manifest) {
      std::optional<FileEntry> e;
      LNGRAD_RETURN_IF_ERROR(manifest->File(kInputs[i], &e));
      if (!e) {
        return Status::InvalidArgument("'" + io::JoinPath(o.in_dir, kManifestName) +
                                       "' lists no \"" + kInputs[i] + "\" file");
      }
      src->paths[i] = e->path;
      src->specs[i] = e->Spec();
      continue;
    }
    const std::string base = io::JoinPath(o.in_dir, kInputs[i]);
    const std::string sample = io::JoinPath(o.in_dir, kSampleNames[i]);
    if (io::PathExists(base + ".npy")) {
      src->paths[i] = base + ".npy";
    } else if (io::PathExists(base + ".bin")) {
      src->paths[i] = base + ".bin";
    } else if (io::PathExists(sample + ".bin")) {
      src->paths[i] = sample + ".bin";
    } else {
      return Status::InvalidArgument("--in '" + o.in_dir + "' has no " + kInputs[i] + ".npy, " +
                                     kInputs[i] + ".bin or " + kSampleNames[i] +
                                     ".bin (and no manifest.json)");
    }
    src->specs[i] = bin_spec(i);
  }
  // The manifest's eps matters only without --eps.
  if (manifest && !o.eps_given) LNGRAD_RETURN_IF_ERROR(manifest->Number("eps", &src->manifest_eps));
  return Status::Ok();
}

constexpr std::array<const char*, 4> kOutputs = {"pd_x", "res_for_gamma", "dgamma", "dbeta"};

// The outputs' file names without the extension: lngrad's, or the vendor samples' (--names).
std::vector<std::string> OutputBases(bool vendor) {
  std::vector<std::string> bases;
  for (const char* name : kOutputs) {
    bases.emplace_back(name);
    for (const VendorName& v : kVendorNames)
      if (vendor && v.key == name) bases.back() = std::string(v.output);
  }
  return bases;
}

// The outputs' format: that of dy, or raw files for the vendor samples' names (they read them
// back with ReadFile).
io::FileFormat OutputFormat(const Sources& src, bool vendor) {
  return vendor ? io::FileFormat::kBin : io::FormatOfPath(src.paths[0]);
}

// The files run will write: the outputs, and the manifest.
std::vector<std::string> OutputNames(const Sources& src, bool vendor) {
  const std::string ext = FileExt(OutputFormat(src, vendor));
  std::vector<std::string> names;
  for (const std::string& base : OutputBases(vendor)) names.push_back(base + ext);
  names.emplace_back(kManifestName);
  return names;
}

// Bytes run will hold at its peak, from the file headers and sizes (before reading any data):
// the inputs as read, their float64 conversions, the four outputs and, on the device path, a
// staging copy of pd_x and res_for_gamma. 0 when a file cannot be sized (reading it will say
// why).
uint64_t EstimateBytes(const Sources& src, const std::optional<io::DType>& dtype, RunImpl impl) {
  uint64_t total = 0, f64_elements = 0, dy_elements = 0;
  std::optional<io::DType> compute = dtype;
  for (size_t i = 0; i < kInputs.size(); ++i) {
    io::DType dt;
    uint64_t elements = 0;
    if (io::FormatOfPath(src.paths[i]) == io::FileFormat::kNpy) {
      std::vector<int64_t> shape;
      int64_t count = 0;
      if (!io::ReadNpyFileHeader(src.paths[i], &dt, &shape).ok() ||
          !io::ElementCount(shape, &count).ok()) {
        return 0;
      }
      elements = static_cast<uint64_t>(count);
    } else {
      struct stat st {};
      if (!src.specs[i].dtype || ::stat(src.paths[i].c_str(), &st) != 0) return 0;
      dt = *src.specs[i].dtype;
      elements = static_cast<uint64_t>(st.st_size) / io::DTypeSize(dt);
    }
    total += elements * io::DTypeSize(dt);
    if (dt == io::DType::kFloat64) f64_elements += elements;
    if (!compute && dt != io::DType::kFloat64) compute = dt;
    if (i == 0) dy_elements = elements;
  }
  const uint64_t size = io::DTypeSize(compute.value_or(io::DType::kFloat32));
  total += f64_elements * size;
  total += dy_elements * size * (impl == RunImpl::kAscendc ? 4 : 2);
  return total;
}

// Checks the shapes of the five inputs against each other and fills b, s, h.
Status CheckShapes(const std::array<io::Tensor, 5>& t, const std::array<std::string, 5>& paths,
                   RunInputs* in) {
  const std::vector<int64_t>& d = t[0].shape();
  if (d.size() != 2 && d.size() != 3) {
    return Status::InvalidArgument("dy '" + paths[0] + "' has shape " + io::ShapeText(d) +
                                   "; expected [B,S,H] or [rows,H]");
  }
  for (int64_t v : d) {
    if (v < 1) return Status::InvalidArgument("dy '" + paths[0] + "' has an empty dimension");
  }
  if (t[1].shape() != d) {
    return Status::InvalidArgument("shapes disagree: dy '" + paths[0] + "' is " + io::ShapeText(d) +
                                   " but x '" + paths[1] + "' is " + io::ShapeText(t[1].shape()));
  }
  const std::vector<int64_t> stats(d.begin(), d.end() - 1);
  std::vector<int64_t> stats1 = stats;
  stats1.push_back(1);
  for (size_t i : {2, 3}) {
    if (t[i].shape() != stats && t[i].shape() != stats1) {
      return Status::InvalidArgument("shapes disagree: " + std::string(kInputs[i]) + " '" +
                                     paths[i] + "' is " + io::ShapeText(t[i].shape()) +
                                     "; for dy " + io::ShapeText(d) + " it must be " +
                                     io::ShapeText(stats) + " (or " + io::ShapeText(stats1) + ")");
    }
  }
  if (t[4].shape() != std::vector<int64_t>{d.back()}) {
    return Status::InvalidArgument("shapes disagree: gamma '" + paths[4] + "' is " +
                                   io::ShapeText(t[4].shape()) + "; for dy " + io::ShapeText(d) +
                                   " it must be [" + std::to_string(d.back()) + "]");
  }
  in->h = d.back();
  in->b = d.size() == 3 ? d[0] : 1;
  in->s = d.size() == 3 ? d[1] : d[0];
  return Status::Ok();
}

Status ParseTmp(const std::string& text, TmpChoice* out) {
  if (text == "min") {
    out->kind = TmpChoice::kMin;
  } else if (text == "max") {
    out->kind = TmpChoice::kMax;
  } else {
    uint64_t v = 0;
    LNGRAD_RETURN_IF_ERROR(ParseUint(text, "--tmp (min, max or a byte count)", UINT32_MAX, &v));
    out->kind = TmpChoice::kBytes;
    out->bytes = static_cast<uint32_t>(v);
  }
  return Status::Ok();
}

// The device path's own rules, checked before any work so that the error is immediate.
Status CheckDevicePath(const RunInputs& in, const lngrad::Product& p) {
  if (!p.supports_layernormgrad || !p.supports_layernormgradbeta) {
    return Status::Unsupported(
        "LayerNormGrad" + std::string(p.supports_layernormgrad ? "Beta" : "") +
        " is not supported on " + std::string(p.soc) + " (" + std::string(p.product_line) +
        ", NPU arch " + lngrad::NpuArchName(p.arch) +
        "); see `lngrad socs` for the products that support it, or use --impl native");
  }
  // Any H where the operators can pad rows in UB (DataCopyPad; src/ops).
  const int64_t bytes = in.h * static_cast<int64_t>(io::DTypeSize(in.dtype));
  if (bytes % 32 != 0 && !ops::HasDataCopyPad(p)) {
    const int64_t per_block = 32 / static_cast<int64_t>(io::DTypeSize(in.dtype));
    return Status::InvalidArgument(
        "H = " + std::to_string(in.h) + " is not 32-byte aligned for " + io::DTypeName(in.dtype) +
        " (H * " + std::to_string(io::DTypeSize(in.dtype)) + " = " + std::to_string(bytes) +
        " bytes): the operators pad such rows in UB with DataCopyPad, which " + std::string(p.soc) +
        " (" + std::string(p.product_line) + ") does not have; use H a multiple of " +
        std::to_string(per_block) +
        ", a product with DataCopyPad (e.g. Ascend910B1, Ascend950PR_9599) or --impl native");
  }
  return Status::Ok();
}

// The request once its options are parsed (nothing read yet).
struct RunRequest {
  std::optional<std::vector<int64_t>> shape;
  std::optional<io::DType> dtype;
  RunImpl impl = RunImpl::kAscendc;
  RunConfig config;
  double eps_opt = 0;   // --eps, when given
  bool vendor = false;  // --names vendor
};

// What the inputs were: the tensors the kernels take, the epsilon, the warnings so far.
struct LoadedInputs {
  RunInputs in;
  double eps = 0;
  io::Json warnings = io::Json::array();
};

// Options first: nothing is read before the request is known to be well formed.
int ParseRequest(const RunOptions& o, RunRequest* req) {
  const bool explicit_files = !o.files[0].empty() || !o.files[1].empty() || !o.files[2].empty() ||
                              !o.files[3].empty() || !o.files[4].empty();
  if (o.in_dir.empty() == !explicit_files) {
    return Fail(kCmd, o.in_dir.empty()
                          ? "give the inputs: --in DIR, or --dy --x --mean --variance --gamma"
                          : "--in DIR and the per-file options (--dy ...) exclude each other");
  }
  if (!o.shape_text.empty()) {
    std::vector<int64_t> s;
    if (Status st = io::ParseShape(o.shape_text, "--shape", &s); !st.ok()) return Fail(kCmd, st);
    if (s.size() != 3) return Fail(kCmd, "--shape \"" + o.shape_text + "\" must be B,S,H");
    req->shape = s;
  }
  if (!o.dtype_text.empty()) {
    io::DType d;
    if (Status st = ParseDataDType(o.dtype_text, "run computes in", &d); !st.ok())
      return Fail(kCmd, st);
    req->dtype = d;
  }
  if (o.impl_text == "ascendc") {
    req->impl = RunImpl::kAscendc;
  } else if (o.impl_text == "native") {
    req->impl = RunImpl::kNative;
  } else {
    return Fail(kCmd, "--impl \"" + o.impl_text + "\" is not ascendc or native");
  }
  RunConfig& config = req->config;
  config.impl = req->impl;
  if (!ParseHalfEval(o.half_eval_text, &config.half_eval).ok()) {
    return Fail(kCmd, "--half-eval \"" + o.half_eval_text + "\" is not fast or correctly-rounded");
  }
  config.reuse_source = o.reuse_source;
  config.blocks = o.blocks;
  if (Status st = ParseTmp(o.tmp_text, &config.tmp); !st.ok()) return Fail(kCmd, st);
  // The device's limit on numBlocks.
  if (o.blocks < 1 || o.blocks > 65535) return Fail(kCmd, "--blocks must be in [1, 65535]");
  // LNGRAD_SOC matters only for the device path, and is checked there before any work.
  if (req->impl == RunImpl::kAscendc) {
    if (Status st = ChooseProduct(o.soc, &config.product); !st.ok()) return Fail(kCmd, st);
  } else if (!o.soc.empty() && lngrad::FindProduct(o.soc) == nullptr) {
    return Fail(kCmd, "--soc \"" + o.soc + "\" is not a known SoC name (see `lngrad socs`)");
  }
  if (Status st = CheckImplEnvironment(); !st.ok()) return Fail(kCmd, st);
  if (o.names != "lngrad" && o.names != "vendor") {
    return Fail(kCmd, "--names \"" + o.names + "\" is not lngrad or vendor");
  }
  req->vendor = o.names == "vendor";
  if (o.eps_given) {
    if (Status st = ParseFiniteDouble(o.eps_text, "--eps", &req->eps_opt); !st.ok())
      return Fail(kCmd, st);
  }
  if (Status st = CheckOutputPath("--out", o.out); !st.ok()) return Fail(kCmd, st);
  return kExitOk;
}

// Where the inputs are, checked against the outputs they must not be and the memory they need;
// `how` then describes the data directory to write.
int PlanFiles(const RunOptions& o, const RunRequest& req, Sources* src, DataDirWrite* how) {
  if (Status st = ResolveSources(o, req.shape, req.dtype, src); !st.ok()) return Fail(kCmd, st);
  std::vector<InputFile> input_files;
  for (size_t i = 0; i < kInputs.size(); ++i)
    input_files.push_back({kInputs[i], src->paths[i], io::Json()});
  if (Status st = CheckOutputsSpareInputs(o.out, OutputNames(*src, req.vendor), input_files);
      !st.ok()) {
    return Fail(kCmd, st);
  }
  if (Status st = CheckMemory("run on dy '" + src->paths[0] + "'",
                              EstimateBytes(*src, req.dtype, req.impl));
      !st.ok()) {
    return Fail(kCmd, st);
  }
  how->command = kCmd;
  how->inputs = input_files;
  how->nest_key = "run";
  how->file_bases = OutputBases(req.vendor);
  return kExitOk;
}

// One compute dtype: --dtype, else that of the float16/float32 inputs; float64 inputs are
// rounded to it. Then the non-finite values (refused with --strict).
int SettleDType(const RunOptions& o, const RunRequest& req, const Sources& src,
                std::array<io::Tensor, 5>& t, LoadedInputs* loaded) {
  std::optional<io::DType> common = req.dtype;
  std::string common_from = "--dtype";  // what set `common`, for the message
  for (size_t i = 0; i < kInputs.size(); ++i) {
    const io::DType d = t[i].dtype();
    if (d == io::DType::kFloat64) continue;
    if (common && *common != d) {
      return Fail(kCmd, "dtypes disagree: " + std::string(kInputs[i]) + " '" + src.paths[i] +
                            "' is " + io::DTypeName(d) + " but " + common_from + " is " +
                            io::DTypeName(*common));
    }
    if (!common) common_from = kInputs[i];
    common = d;
  }
  RunInputs& in = loaded->in;
  in.dtype = common.value_or(io::DType::kFloat32);
  for (size_t i = 0; i < kInputs.size(); ++i) {
    if (t[i].dtype() == io::DType::kFloat64) {
      const std::string msg =
          std::string(kInputs[i]) + " is float64; rounded to " + io::DTypeName(in.dtype);
      Warn(kCmd, msg);
      loaded->warnings.push_back(msg);
      t[i] = t[i].ConvertedTo(in.dtype);
    }
  }
  bool non_finite = false;
  for (size_t i = 0; i < kInputs.size(); ++i) {
    non_finite = ReportNonFinite(kCmd, kInputs[i], t[i], &loaded->warnings) || non_finite;
  }
  if (non_finite && o.strict) {
    return Fail(kCmd, "non-finite input values and --strict: nothing was computed");
  }
  return kExitOk;
}

// The inputs read, their shapes and dtypes settled, the epsilon chosen and checked.
int LoadInputs(const RunOptions& o, const RunRequest& req, const Sources& src, DataDirWrite* how,
               LoadedInputs* loaded) {
  std::array<io::Tensor, 5> t;
  for (size_t i = 0; i < kInputs.size(); ++i) {
    const Status st = LoadTensor(src.paths[i], src.specs[i],
                                 "give --shape B,S,H and --dtype for raw inputs", &t[i]);
    if (!st.ok()) return Fail(kCmd, st);
    how->inputs[i].entry = FileEntryJson(src.paths[i], t[i]);
    if (i == 0) io::TestStopPoint("inputs-read-1");
  }
  if (req.shape && t[0].shape() != *req.shape) {
    return Fail(kCmd, "shapes disagree: --shape " + io::ShapeText(*req.shape) + " but dy '" +
                          src.paths[0] + "' is " + io::ShapeText(t[0].shape()));
  }
  RunInputs& in = loaded->in;
  if (Status st = CheckShapes(t, src.paths, &in); !st.ok()) return Fail(kCmd, st);
  if (int rc = SettleDType(o, req, src, t, loaded); rc != kExitOk) return rc;
  if (!o.eps_given && !src.manifest_eps) {
    return Fail(kCmd, "--eps is required (the inputs have no manifest.json that records it)");
  }
  loaded->eps = o.eps_given ? req.eps_opt : *src.manifest_eps;
  // The device kernels take epsilon as the tensor type (half for half); the native path as float.
  if (Status st = CheckEpsilon(loaded->eps, o.eps_given ? "--eps" : "the manifest's eps",
                               req.impl == RunImpl::kAscendc && in.dtype == io::DType::kFloat16);
      !st.ok()) {
    return Fail(kCmd, st);
  }
  in.epsilon = static_cast<float>(loaded->eps);
  in.dy = std::move(t[0]);
  in.x = std::move(t[1]);
  in.mean = std::move(t[2]);
  in.variance = std::move(t[3]);
  in.gamma = std::move(t[4]);
  return kExitOk;
}

// The device path's checks of the inputs, and a warning for each option the path ignores.
int CheckPathOptions(const RunOptions& o, const RunRequest& req, LoadedInputs* loaded) {
  const RunInputs& in = loaded->in;
  auto warn = [&](const std::string& msg) {
    Warn(kCmd, msg);
    loaded->warnings.push_back(msg);
  };
  if (req.impl == RunImpl::kAscendc) {
    if (in.dtype == io::DType::kBFloat16) return Fail(kCmd, kDeviceRefusesBf16);
    if (Status st = CheckDevicePath(in, *req.config.product); !st.ok()) return Fail(kCmd, st);
    if (o.reuse_source && in.dtype == io::DType::kFloat16) {
      warn("--reuse-source has no effect for half (as on the device); ignored");
    }
  } else {
    for (const std::string& opt : o.device_options_given) {
      warn(opt + " applies to --impl ascendc only; ignored");
    }
  }
  if (o.half_eval_given && (req.impl != RunImpl::kNative || in.dtype != io::DType::kFloat16)) {
    warn("--half-eval applies to --impl native with half data only; ignored");
  }
  return kExitOk;
}

using NamedOutputs = std::array<std::pair<std::string, io::Tensor>, 4>;

// The outputs in their file shapes (those of the inputs), checked; their non-finite values
// reported.
int ShapeOutputs(const LoadedInputs& loaded, RunOutputs* res, NamedOutputs* outputs) {
  const RunInputs& in = loaded.in;
  const std::vector<int64_t> out_shape = in.dy.shape(), h_shape = {in.h};
  *outputs = {{
      {"pd_x", std::move(res->pd_x)},
      {"res_for_gamma", std::move(res->res_for_gamma)},
      {"dgamma", std::move(res->dgamma)},
      {"dbeta", std::move(res->dbeta)},
  }};
  for (auto& [name, tensor] : *outputs) {
    const std::vector<int64_t>& want =
        name == "pd_x" || name == "res_for_gamma" ? out_shape : h_shape;
    const Status rs = tensor.Reshape(want);
    if (!rs.ok() || tensor.dtype() != in.dtype) {
      return Fail(kCmd, "internal error: output " + name + " has the wrong size or dtype",
                  kExitFailed);
    }
  }
  return kExitOk;
}

// manifest.json's record of the run.
io::Json RunManifest(const RunOptions& o, const RunRequest& req, const Sources& src,
                     const LoadedInputs& loaded, const RunOutputs& res) {
  io::Json manifest = io::Json::object();
  manifest["format"] = std::string(kManifestFormat);
  manifest["producer"] = "lngrad run " + std::string(kVersion);
  manifest["op"] = "LayerNormGrad+LayerNormGradBeta";
  manifest["shape"] = io::Json(loaded.in.dy.shape());
  manifest["dtype"] = io::DTypeName(loaded.in.dtype);
  manifest["eps"] = loaded.eps;
  manifest["path"] = res.details;
  if (req.impl == RunImpl::kAscendc) manifest["soc"] = std::string(req.config.product->soc);
  io::Json inputs = io::Json::object();
  // Relative to the manifest, so that the record stays true wherever the directory is read from.
  for (size_t i = 0; i < kInputs.size(); ++i)
    inputs[kInputs[i]] = PathRelativeTo(src.paths[i], o.out);
  manifest["inputs"] = inputs;
  return manifest;
}

// The report on stdout: --json, or "impl native, kernel simd, ..., LayerNormGrad (tmp_bytes
// 6144, tiles 4)" and the files written.
int ReportRun(const RunOptions& o, const RunRequest& req, const LoadedInputs& loaded,
              const RunOutputs& res, const io::OutputSet& out, const DataDirWrite& how,
              const std::string& ext) {
  const std::vector<int64_t>& out_shape = loaded.in.dy.shape();
  if (o.json) {
    io::Json j = io::Json::object();
    j["command"] = "run";
    j["out"] = o.out;
    j["shape"] = io::Json(out_shape);
    j["dtype"] = io::DTypeName(loaded.in.dtype);
    j["eps"] = loaded.eps;
    j["path"] = res.details;
    if (req.impl == RunImpl::kAscendc) j["soc"] = std::string(req.config.product->soc);
    j["files"] = io::Json(out.Paths());
    j["warnings"] = loaded.warnings;
    return PrintJson(j);
  }
  auto flat = [](const io::Json& obj) {
    std::string text;
    for (const auto& [key, v] : obj.items()) {
      text += (text.empty() ? "" : ", ") + key + " " +
              (v.is_string() ? v.get<std::string>() : io::DumpJson(v, 0));
    }
    return text;
  };
  std::string path;
  for (const auto& [key, v] : res.details.items()) {
    path += (path.empty() ? "" : ", ") + key + " " +
            (v.is_string()   ? v.get<std::string>()
             : v.is_object() ? "(" + flat(v) + ")"
                             : io::DumpJson(v, 0));
  }
  std::printf("LayerNormGrad + LayerNormGradBeta: %s %s, eps %g\n",
              io::ShapeText(out_shape).c_str(), io::DTypeName(loaded.in.dtype), loaded.eps);
  std::printf("path: %s\n", path.c_str());
  const std::vector<std::string>& bases = how.file_bases;
  std::printf("wrote %s%s %s%s %s%s %s%s manifest.json to %s\n", bases[0].c_str(), ext.c_str(),
              bases[1].c_str(), ext.c_str(), bases[2].c_str(), ext.c_str(), bases[3].c_str(),
              ext.c_str(), o.out.c_str());
  return kExitOk;
}

// The directories the inputs are read from.
std::vector<std::string> InputDirectories(const RunOptions& o, const Sources& src) {
  if (!o.in_dir.empty()) return {o.in_dir};
  std::vector<std::string> dirs;
  for (const std::string& p : src.paths) dirs.push_back(io::DirectoryOf(p));
  return dirs;
}

// parse -> plan the files -> load -> compute -> write -> report.
int RunRun(const RunOptions& o) {
  RunRequest req;
  if (int rc = ParseRequest(o, &req); rc != kExitOk) return rc;
  Sources src;
  DataDirWrite how;
  if (int rc = PlanFiles(o, req, &src, &how); rc != kExitOk) return rc;
  const std::vector<std::string> keys(kOutputs.begin(), kOutputs.end());
  std::optional<Manifest> kept;
  if (Status st = CheckDataDir(o.out, keys, how, &kept); !st.ok()) return Fail(kCmd, st);
  // The input directories are read under their shared lock, the output directory is written
  // under its exclusive one. An input directory that is also --out is read under the exclusive
  // lock, taken first; otherwise the inputs are read (and their locks released) before --out is
  // locked, so that two runs reading each other's output directory never wait for each other.
  io::OutputSet out(o.out, /*create_dir=*/true);
  const std::vector<std::string> in_dirs = InputDirectories(o, src);
  const std::string out_canonical = io::CanonicalPath(o.out);
  const bool out_is_input =
      !out_canonical.empty() && std::any_of(in_dirs.begin(), in_dirs.end(), [&](const auto& d) {
        return io::CanonicalPath(d) == out_canonical;
      });
  if (out_is_input) {
    if (Status st = OpenDataDir(&out, keys, how); !st.ok()) return Fail(kCmd, st);
  }
  Progress progress(kCmd);
  req.config.progress = &progress;
  progress.Stage("reading inputs");
  LoadedInputs loaded;
  {
    io::DirectoryReadLocks in_locks;
    const std::vector<std::string> held =
        out_is_input ? std::vector<std::string>{o.out} : std::vector<std::string>{};
    if (Status st = LockForReading(kCmd, in_dirs, held, &in_locks); !st.ok()) {
      return Fail(kCmd, st);
    }
    // Again under the locks: what the directories hold now is what is read.
    if (int rc = PlanFiles(o, req, &src, &how); rc != kExitOk) return rc;
    if (int rc = LoadInputs(o, req, src, &how, &loaded); rc != kExitOk) return rc;
  }
  if (!out.opened()) {
    if (Status st = OpenDataDir(&out, keys, how); !st.ok()) return Fail(kCmd, st);
  }
  if (int rc = CheckPathOptions(o, req, &loaded); rc != kExitOk) return rc;

  RunOutputs res;
  const Status st = req.impl == RunImpl::kNative ? RunNative(loaded.in, req.config, &res)
                                                 : RunAscendc(loaded.in, req.config, &res);
  if (!st.ok()) return Fail(kCmd, st, kExitFailed);

  // Outputs: the input format (that of dy), the input shapes.
  progress.Stage("writing outputs");
  const io::FileFormat format = OutputFormat(src, req.vendor);
  NamedOutputs outputs;
  if (int rc = ShapeOutputs(loaded, &res, &outputs); rc != kExitOk) return rc;
  for (const auto& [name, tensor] : outputs)
    ReportNonFinite(kCmd, "output " + name, tensor, &loaded.warnings);
  io::Json manifest = RunManifest(o, req, src, loaded, res);
  const Status wst = WriteDataDir(&out, outputs, format, &manifest, how);
  progress.Finish();
  if (!wst.ok()) return Fail(kCmd, wst);
  return ReportRun(o, req, loaded, res, out, how, FileExt(format));
}

}  // namespace

void AddRunCommand(CLI::App& root, std::vector<Command>* commands) {
  auto [app, o] = AddCommand<RunOptions>(
      root, commands, kCmd, kDescription, [](RunOptions& o, const CLI::App& app) {
        for (const char* opt : {"--soc", "--reuse-source", "--tmp", "--blocks"}) {
          if (app.count(opt) > 0) o.device_options_given.push_back(opt);
        }
        o.half_eval_given = app.count("--half-eval") > 0;
        o.eps_given = app.count("--eps") > 0;
        return RunRun(o);
      });
  app->add_option("--in", o->in_dir,
                  "Input directory: its manifest.json (from gen), else dy, x, mean, variance,\n"
                  "gamma as .npy or .bin (or the official sample's input_inputDy.bin ...)");
  const char* help[] = {"dy file [B,S,H] (.npy or raw)", "x file [B,S,H]",
                        "mean file [B,S] (or [B,S,1])", "variance file [B,S] (or [B,S,1])",
                        "gamma file [H]"};
  for (size_t i = 0; i < kInputs.size(); ++i) {
    app->add_option(std::string("--") + kInputs[i], o->files[i], help[i]);
  }
  app->add_option("--shape", o->shape_text, "B,S,H of dy and x when they are raw .bin files");
  app->add_option("--dtype", o->dtype_text,
                  "float, half or bf16: dtype of raw .bin inputs (and of the computation when\n"
                  "the inputs are float64); bf16 runs on --impl native only");
  app->add_option("--eps", o->eps_text,
                  "Epsilon (default: the manifest's): >= 0, at most the largest float (65504\n"
                  "for half on the device path, which takes it as half)");
  app->add_option("--soc", o->soc,
                  "Simulated product, e.g. Ascend910B1 (default: $LNGRAD_SOC or Ascend910B1)");
  app->add_option("--impl", o->impl_text,
                  "ascendc: the Ascend C APIs on the simulated device; native: the native library")
      ->type_name("TEXT:{ascendc,native}")
      ->capture_default_str();
  app->add_flag("--reuse-source", o->reuse_source,
                "Device path: isReuseSource = true (float: the API may overwrite dy and x)");
  app->add_option("--tmp", o->tmp_text,
                  "Device path: scratch for each API: min, max (from Get*MaxMinTmpSize) or BYTES")
      ->capture_default_str();
  app->add_option("--blocks", o->blocks,
                  "Device path: AI cores to split the B*S rows over, 1 to 65535")
      ->type_name("UINT:UINT in [1 - 65535]")
      ->capture_default_str();
  app->add_option("--half-eval", o->half_eval_text,
                  "Native path, half data: fast (float evaluation, rounded once) or\n"
                  "correctly-rounded (every output within 1 half ulp, about half the speed);\n"
                  "docs/math.md §6.4")
      ->type_name("TEXT:{fast,correctly-rounded}")
      ->capture_default_str();
  app->add_flag("--strict", o->strict, "Refuse inputs with NaN or infinity (default: warn)");
  app->add_option("--names", o->names,
                  "Output file names: lngrad (pd_x, res_for_gamma, dgamma, dbeta in the inputs'\n"
                  "format) or vendor (the official samples' raw output_outputPdX.bin,\n"
                  "output_resForGamma.bin, output_PdGamma.bin, output_PdBeta.bin)")
      ->capture_default_str();
  app->add_option("--out", o->out,
                  "Output directory (created if missing); may be the --in directory: the\n"
                  "outputs are then added to its data set")
      ->required();
  app->add_flag("--json", o->json, "Print a JSON summary on stdout instead of text");
}

}  // namespace lngrad::cli
