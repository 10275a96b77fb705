// `lngrad verify OUT GOLDEN`: element-wise comparison with the official sample rule.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <queue>

#include "cli_common.h"
#include "command.h"
#include "compare.h"

namespace lngrad::cli {
namespace {

constexpr const char* kCmd = "verify";
constexpr const char* kDescription =
    "Compare OUT with GOLDEN element by element (two files, or two directories whose\n"
    "golden_<name> files are paired with <name> or output_<name> in OUT). Prints the\n"
    "mismatch count, max abs/rel error, ulp statistics and the worst elements.\n"
    "Exit 0: pass; 1: a mismatch; 2: usage or I/O error.";

struct VerifyOptions {
  std::string out;
  std::string golden;
  double atol = 1e-4;
  double rtol = 1e-4;
  std::string rule_text = "ascend";
  std::string dtype_text;
  std::string shape_text;
  int worst = 5;
  bool json = false;
};

// One OUT/GOLDEN pair to compare, with what is known about reading each side.
struct Pair {
  std::string name;
  std::string out_path, golden_path;
  BinSpec out_spec, golden_spec;
};

// Raw files whose shape is unknown are read flat (their byte size gives the count).
Status LoadSide(const std::string& path, BinSpec spec, io::Tensor* t, bool* flat) {
  *flat = false;
  if (io::FormatOfPath(path) != io::FileFormat::kNpy && spec.dtype && !spec.shape) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      return io::ReadBinFile(path, *spec.dtype, {0}, t);  // reports the open error
    }
    const uint64_t elem = io::DTypeSize(*spec.dtype);
    if (static_cast<uint64_t>(st.st_size) % elem != 0) {
      return Status::InvalidArgument("'" + path + "': size " + std::to_string(st.st_size) +
                                     " bytes is not a whole number of " +
                                     io::DTypeName(*spec.dtype) + " elements");
    }
    spec.shape =
        std::vector<int64_t>{static_cast<int64_t>(static_cast<uint64_t>(st.st_size) / elem)};
    *flat = true;
  }
  return LoadTensor(path, spec, "give --dtype (and optionally --shape) for raw files", t);
}

// Finds the OUT file that goes with GOLDEN's golden_<K> file: <K>.<ext> or output_<K>.<ext>
// (the official sample's naming).
std::string OutNameFor(const std::string& out_dir, const std::string& golden_file) {
  const std::string key = golden_file.substr(7);  // after "golden_"
  for (const std::string& candidate : {key, "output_" + key}) {
    if (io::PathExists(io::JoinPath(out_dir, candidate))) return candidate;
  }
  return key;
}

Status CollectPairs(const VerifyOptions& o, const BinSpec& cli_spec, std::vector<Pair>* pairs) {
  // A missing path is named as such before any rule about the pairing of files and directories.
  for (const auto& [what, path] : {std::pair{"OUT", &o.out}, std::pair{"GOLDEN", &o.golden}}) {
    struct stat st {};
    if (::stat(path->c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) {
      return Status::InvalidArgument(std::string(what) + " '" + *path + "' does not exist");
    }
  }
  const bool out_dir = io::IsDirectory(o.out), golden_dir = io::IsDirectory(o.golden);
  if (out_dir != golden_dir) {
    return Status::InvalidArgument("OUT and GOLDEN must both be files or both be directories ('" +
                                   (out_dir ? o.out : o.golden) + "' is a directory)");
  }
  if (!out_dir) {
    std::string name = o.out;
    if (const size_t slash = name.rfind('/'); slash != std::string::npos)
      name = name.substr(slash + 1);
    pairs->push_back({name, o.out, o.golden, cli_spec, cli_spec});
    return Status::Ok();
  }
  std::optional<Manifest> mo, mg;
  LNGRAD_RETURN_IF_ERROR(LoadManifest(o.out, &mo));
  LNGRAD_RETURN_IF_ERROR(LoadManifest(o.golden, &mg));
  std::vector<std::string> golden_files;
  if (mg) {
    for (const std::string& key : mg->FileKeys()) {
      if (key.rfind("golden_", 0) != 0) continue;
      std::optional<FileEntry> g;
      LNGRAD_RETURN_IF_ERROR(mg->File(key, &g));
      const std::string out_key = key.substr(7);
      std::optional<FileEntry> e;
      if (mo) LNGRAD_RETURN_IF_ERROR(mo->File(out_key, &e));
      Pair p;
      p.name = out_key;
      p.golden_path = g->path;
      p.golden_spec = BinSpec{g->dtype, g->shape};
      if (e) {
        p.out_path = e->path;
        p.out_spec = BinSpec{e->dtype, e->shape};
      } else {
        const std::string file = g->path.substr(g->path.rfind('/') + 1);
        p.out_path = io::JoinPath(o.out, OutNameFor(o.out, file));
        p.out_spec = cli_spec;
      }
      pairs->push_back(std::move(p));
    }
  } else {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(o.golden.c_str())) {
      while (dirent* e = ::readdir(d)) {
        const std::string n = e->d_name;
        if (n.rfind("golden_", 0) == 0 && n.size() > 7) names.push_back(n);
      }
      ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
      Pair p;
      p.name = n.substr(7);
      p.golden_path = io::JoinPath(o.golden, n);
      p.out_path = io::JoinPath(o.out, OutNameFor(o.out, n));
      p.golden_spec = p.out_spec = cli_spec;
      if (mo) {
        std::string key = p.name;
        if (const size_t dot = key.rfind('.'); dot != std::string::npos) key = key.substr(0, dot);
        std::optional<FileEntry> e;
        LNGRAD_RETURN_IF_ERROR(mo->File(key, &e));
        if (e) {
          p.out_path = e->path;
          p.out_spec = BinSpec{e->dtype, e->shape};
        }
      }
      pairs->push_back(std::move(p));
    }
  }
  if (pairs->empty()) {
    return Status::InvalidArgument("GOLDEN directory '" + o.golden +
                                   "' has no golden_* files to compare");
  }
  for (const Pair& p : *pairs) {
    if (!io::PathExists(p.out_path)) {
      return Status::InvalidArgument("OUT directory '" + o.out + "' has no output for '" +
                                     p.golden_path + "' (looked for '" + p.out_path + "')");
    }
  }
  return Status::Ok();
}

std::string Num(double v, int digits = 6) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

void PrintText(const Pair& p, const CompareResult& r, const CompareRule& rule) {
  std::printf("%s: '%s' vs '%s': %s %s vs %s, %lld elements\n", p.name.c_str(), p.out_path.c_str(),
              p.golden_path.c_str(), io::ShapeText(r.shape).c_str(), io::DTypeName(r.out_dtype),
              io::DTypeName(r.golden_dtype), static_cast<long long>(r.elements));
  std::printf("  mismatches: %lld of %lld (%s)\n", static_cast<long long>(r.mismatches),
              static_cast<long long>(r.elements), RuleText(rule).c_str());
  if (r.elements > 0) {
    std::printf("  max abs err %s at %s, max rel err %s at %s\n", Num(r.max_abs).c_str(),
                io::IndexText(r.shape, r.max_abs_index).c_str(), Num(r.max_rel).c_str(),
                io::IndexText(r.shape, r.max_rel_index).c_str());
    std::printf(
        "  ulp (%s): max %llu, mean %.3g; exact %lld, 1 ulp %lld, 2-4 ulp %lld, >4 ulp %lld",
        io::DTypeName(r.out_dtype), static_cast<unsigned long long>(r.ulp_max), r.ulp_mean,
        static_cast<long long>(r.ulp_hist[0]), static_cast<long long>(r.ulp_hist[1]),
        static_cast<long long>(r.ulp_hist[2]), static_cast<long long>(r.ulp_hist[3]));
    if (r.non_finite_mismatches > 0) {
      std::printf("; %lld NaN/inf mismatches", static_cast<long long>(r.non_finite_mismatches));
    }
    std::printf("\n");
  }
  if (!r.worst.empty()) {
    std::printf("  worst elements:\n");
    for (const WorstElement& w : r.worst) {
      std::printf("    %-14s out %-14s golden %-14s abs %-10s rel %-10s ulp %s%s\n",
                  io::IndexText(r.shape, w.index).c_str(), Num(w.out, 9).c_str(),
                  Num(w.golden, 9).c_str(), Num(w.abs_err).c_str(), Num(w.rel_err).c_str(),
                  w.ulp_known ? std::to_string(w.ulp).c_str() : "-", w.fails ? "  FAIL" : "");
    }
  }
  std::printf("  %s\n", r.mismatches == 0 ? "PASS" : "FAIL");
}

io::Json ResultJson(const Pair& p, const CompareResult& r) {
  io::Json j = io::Json::object();
  j["name"] = p.name;
  j["out"] = p.out_path;
  j["golden"] = p.golden_path;
  j["shape"] = io::Json(r.shape);
  j["out_dtype"] = io::DTypeName(r.out_dtype);
  j["golden_dtype"] = io::DTypeName(r.golden_dtype);
  j["elements"] = r.elements;
  j["mismatches"] = r.mismatches;
  j["pass"] = r.mismatches == 0;
  j["max_abs_err"] = r.max_abs;
  j["max_abs_index"] = io::Json(IndexVector(r.shape, r.max_abs_index));
  j["max_rel_err"] = r.max_rel;
  j["max_rel_index"] = io::Json(IndexVector(r.shape, r.max_rel_index));
  io::Json ulp = io::Json::object();
  ulp["dtype"] = io::DTypeName(r.out_dtype);
  ulp["max"] = r.ulp_max;
  ulp["mean"] = r.ulp_mean;
  ulp["exact"] = r.ulp_hist[0];
  ulp["one"] = r.ulp_hist[1];
  ulp["two_to_four"] = r.ulp_hist[2];
  ulp["more"] = r.ulp_hist[3];
  j["ulp"] = ulp;
  j["non_finite_mismatches"] = r.non_finite_mismatches;
  io::Json worst = io::Json::array();
  for (const WorstElement& w : r.worst) {
    io::Json e = io::Json::object();
    e["index"] = io::Json(IndexVector(r.shape, w.index));
    e["flat_index"] = w.index;
    e["out"] = w.out;
    e["golden"] = w.golden;
    e["abs_err"] = w.abs_err;
    e["rel_err"] = w.rel_err;
    e["ulp"] = w.ulp_known ? io::Json(w.ulp) : io::Json();
    e["fails"] = w.fails;
    worst.push_back(std::move(e));
  }
  j["worst"] = worst;
  return j;
}

int RunVerify(const VerifyOptions& o) {
  CompareRule rule;
  if (o.rule_text == "ascend") {
    rule.kind = CompareRule::kAscend;
  } else if (o.rule_text == "allclose") {
    rule.kind = CompareRule::kAllclose;
  } else {
    return Fail(kCmd, "--rule \"" + o.rule_text + "\" is not ascend or allclose");
  }
  if (!std::isfinite(o.atol) || o.atol < 0) return Fail(kCmd, "--atol must be finite and >= 0");
  if (!std::isfinite(o.rtol) || o.rtol < 0) return Fail(kCmd, "--rtol must be finite and >= 0");
  if (o.worst < 0) return Fail(kCmd, "--worst must be >= 0");
  rule.atol = o.atol;
  rule.rtol = o.rtol;
  BinSpec cli_spec;
  if (!o.dtype_text.empty()) {
    io::DType d;
    if (Status st = io::ParseDType(o.dtype_text, &d); !st.ok())
      return Fail(kCmd, "--" + st.message());
    cli_spec.dtype = d;
  }
  if (!o.shape_text.empty()) {
    std::vector<int64_t> s;
    if (Status st = io::ParseShape(o.shape_text, "--shape", &s); !st.ok()) return Fail(kCmd, st);
    cli_spec.shape = s;
  }
  std::vector<Pair> pairs;
  if (Status st = CollectPairs(o, cli_spec, &pairs); !st.ok()) return Fail(kCmd, st);

  // Read and check everything before printing any verdict: an I/O error is exit 2, never a
  // half-printed report.
  std::vector<CompareResult> results;
  for (const Pair& p : pairs) {
    io::Tensor out, golden;
    bool out_flat = false, golden_flat = false;
    Status st = LoadSide(p.out_path, p.out_spec, &out, &out_flat);
    if (st.ok()) st = LoadSide(p.golden_path, p.golden_spec, &golden, &golden_flat);
    if (!st.ok()) return Fail(kCmd, st);
    // A flat raw side takes the other side's shape when the counts agree.
    if (out_flat && !golden_flat && out.size() == golden.size()) st = out.Reshape(golden.shape());
    if (golden_flat && !out_flat && out.size() == golden.size()) st = golden.Reshape(out.shape());
    if (!st.ok() || out.shape() != golden.shape()) {
      return Fail(kCmd, "shapes disagree: '" + p.out_path + "' is " + io::ShapeText(out.shape()) +
                            " but '" + p.golden_path + "' is " + io::ShapeText(golden.shape()));
    }
    results.push_back(Compare(out, golden, rule, static_cast<size_t>(o.worst)));
  }

  bool pass = true;
  int failed = 0;
  for (const CompareResult& r : results) {
    pass = pass && r.mismatches == 0;
    failed += r.mismatches != 0;
  }
  if (o.json) {
    io::Json j = io::Json::object();
    j["command"] = "verify";
    j["rule"] = o.rule_text;
    j["atol"] = o.atol;
    j["rtol"] = o.rtol;
    j["pass"] = pass;
    io::Json list = io::Json::array();
    for (size_t i = 0; i < pairs.size(); ++i) list.push_back(ResultJson(pairs[i], results[i]));
    j["results"] = list;
    std::printf("%s\n", io::DumpJson(j, 2).c_str());
  } else {
    for (size_t i = 0; i < pairs.size(); ++i) PrintText(pairs[i], results[i], rule);
    if (pass) {
      std::printf("PASS (%zu of %zu compared)\n", pairs.size(), pairs.size());
    } else {
      std::printf("FAIL (%d of %zu compared have mismatches)\n", failed, pairs.size());
    }
  }
  return pass ? kExitOk : kExitFailed;
}

}  // namespace

void AddVerifyCommand(CLI::App& root, std::vector<Command>* commands) {
  auto [app, o] = AddCommand<VerifyOptions>(root, commands, kCmd, kDescription, RunVerify);
  app->add_option("OUT", o->out, "Output file or directory")->required();
  app->add_option("GOLDEN", o->golden, "Golden file or directory")->required();
  app->add_option("--atol", o->atol, "Absolute tolerance")->capture_default_str();
  app->add_option("--rtol", o->rtol, "Relative tolerance")->capture_default_str();
  app->add_option("--rule", o->rule_text,
                  "ascend: wrong iff abs err > atol AND abs err/|golden| > rtol (the official\n"
                  "sample rule); allclose: wrong iff abs err > atol + rtol*|golden| (NumPy)")
      ->capture_default_str();
  app->add_option("--dtype", o->dtype_text, "float, half or float64: dtype of raw (.bin) files");
  app->add_option("--shape", o->shape_text, "Shape of raw files (default: flat)");
  app->add_option("--worst", o->worst, "How many worst elements to list")->capture_default_str();
  app->add_flag("--json", o->json, "Print a JSON report on stdout instead of text");
}

}  // namespace lngrad::cli
