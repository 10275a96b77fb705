// `lngrad verify OUT GOLDEN`: element-wise comparison with the official sample rule, the
// tolerance following the output's dtype, and the magnitude rule for cancelling outputs.
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
#include "ops/golden.h"
#include "vendor_names.h"

namespace lngrad::cli {
namespace {

constexpr const char* kCmd = "verify";
constexpr const char* kDescription =
    "Compare OUT with GOLDEN element by element (two files, or two directories whose\n"
    "golden_<name> files are paired with <name> or output_<name> in OUT, or with the vendor\n"
    "samples' output_outputPdX.bin ...). Default tolerances follow OUT's dtype (half 1e-3,\n"
    "float 1e-4); pd_x, dgamma and dbeta may also pass by the magnitude rule when GOLDEN's\n"
    "manifest lists the inputs (docs/math.md 6.8). Prints the mismatch count, max abs/rel\n"
    "error, ulp statistics and the worst elements.\n"
    "Exit 0: pass; 1: a mismatch; 2: usage or I/O error.";

struct VerifyOptions {
  std::string out;
  std::string golden;
  std::vector<std::string> atol_texts, rtol_texts;  // "A" or "NAME=A", in order
  std::string rule_text = "ascend";
  bool no_magnitude = false;
  std::string inputs_dir;  // --inputs: where the magnitude rule finds the inputs
  std::string eps_text;    // --eps: epsilon of the inputs (default: their manifest's)
  bool eps_given = false;  // --eps, even as "" (refused like gen's)
  std::string dtype_text;
  std::string shape_text;
  int worst = 5;
  bool json = false;
};

// One OUT/GOLDEN pair to compare, with what is known about reading each side.
struct Pair {
  std::string name;
  std::string key;  // lngrad's output name (pd_x, ...) when known, else the golden's stem
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

// "golden_<stem>.<ext>" -> "<stem>".
std::string GoldenStem(const std::string& golden_file) {
  std::string stem = golden_file.substr(7);  // after "golden_"
  if (const size_t dot = stem.rfind('.'); dot != std::string::npos) stem = stem.substr(0, dot);
  return stem;
}

// lngrad's name of the output a golden stem belongs to: the stem itself, or the key of the
// vendor sample's name ("outputPdX" -> pd_x, "output_PdGamma" -> dgamma).
std::string KeyOfStem(const std::string& stem) {
  for (const VendorName& v : kVendorNames) {
    if (stem == v.key || "golden_" + stem == v.golden) return std::string(v.key);
  }
  return stem;
}

// Finds the OUT file that goes with GOLDEN's golden_<stem> file: <stem>.<ext>, output_<stem>.<ext>
// (the official sample's naming), then lngrad's and the vendor's names of its key.
std::string OutNameFor(const std::string& out_dir, const std::string& golden_file,
                       const std::string& key) {
  const std::string stem = GoldenStem(golden_file);
  const std::string ext = golden_file.substr(7 + stem.size());
  std::vector<std::string> candidates = {stem + ext, "output_" + stem + ext};
  for (const VendorName& v : kVendorNames) {
    if (key != v.key) continue;
    for (const char* e : {".npy", ".bin"}) candidates.push_back(key + e);
    candidates.push_back(std::string(v.output) + ".bin");
  }
  for (const std::string& c : candidates) {
    if (io::PathExists(io::JoinPath(out_dir, c))) return c;
  }
  return candidates.front();
}

// OUT's manifest entry for a pair: under its key, else under the golden's stem.
Status OutEntry(const std::optional<Manifest>& mo, const std::string& key, const std::string& stem,
                std::optional<FileEntry>* e) {
  if (!mo) return Status::Ok();
  LNGRAD_RETURN_IF_ERROR(mo->File(key, e));
  if (!*e && stem != key) LNGRAD_RETURN_IF_ERROR(mo->File(stem, e));
  return Status::Ok();
}

Status CollectPairs(const VerifyOptions& o, const BinSpec& cli_spec, std::vector<Pair>* pairs,
                    std::optional<Manifest>* golden_manifest) {
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
    std::string key = name;
    if (const size_t dot = key.rfind('.'); dot != std::string::npos) key = key.substr(0, dot);
    pairs->push_back({name, key, o.out, o.golden, cli_spec, cli_spec});
    return Status::Ok();
  }
  std::optional<Manifest> mo;
  std::optional<Manifest>& mg = *golden_manifest;
  LNGRAD_RETURN_IF_ERROR(LoadManifest(o.out, &mo));
  LNGRAD_RETURN_IF_ERROR(LoadManifest(o.golden, &mg));
  // A manifest without goldens (run's, when run wrote into the golden directory, as the vendor
  // samples do) leaves the pairing to the file names.
  bool listed = false;
  if (mg) {
    for (const std::string& gkey : mg->FileKeys()) listed = listed || gkey.rfind("golden_", 0) == 0;
  }
  if (listed) {
    for (const std::string& gkey : mg->FileKeys()) {
      if (gkey.rfind("golden_", 0) != 0) continue;
      std::optional<FileEntry> g;
      LNGRAD_RETURN_IF_ERROR(mg->File(gkey, &g));
      const std::string stem = gkey.substr(7);
      Pair p;
      p.name = stem;
      p.key = KeyOfStem(stem);
      p.golden_path = g->path;
      p.golden_spec = g->Spec();
      std::optional<FileEntry> e;
      LNGRAD_RETURN_IF_ERROR(OutEntry(mo, p.key, stem, &e));
      if (e) {
        p.out_path = e->path;
        p.out_spec = e->Spec();
      } else {
        const std::string file = g->path.substr(g->path.rfind('/') + 1);
        p.out_path = io::JoinPath(o.out, OutNameFor(o.out, file, p.key));
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
      p.key = KeyOfStem(GoldenStem(n));
      p.golden_path = io::JoinPath(o.golden, n);
      p.out_path = io::JoinPath(o.out, OutNameFor(o.out, n, p.key));
      p.golden_spec = p.out_spec = cli_spec;
      std::optional<FileEntry> e;
      LNGRAD_RETURN_IF_ERROR(OutEntry(mo, p.key, GoldenStem(n), &e));
      if (e) {
        p.out_path = e->path;
        p.out_spec = e->Spec();
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

// One --atol/--rtol value: for every output (name empty) or for the one named.
struct ToleranceSpec {
  std::string name;
  double value = 0;
};

Status ParseTolerances(const std::vector<std::string>& texts, const std::string& opt,
                       std::vector<ToleranceSpec>* out) {
  for (const std::string& text : texts) {
    ToleranceSpec t;
    std::string number = text;
    if (const size_t eq = text.find('='); eq != std::string::npos) {
      t.name = text.substr(0, eq);
      number = text.substr(eq + 1);
      if (t.name.empty()) {
        return Status::InvalidArgument(opt + " \"" + text + "\": give a value (" + opt +
                                       " 1e-3) or NAME=VALUE (" + opt + " pd_x=1e-3)");
      }
    }
    if (const Status st = ParseFiniteDouble(number, opt, &t.value); !st.ok()) {
      return Status::InvalidArgument(st.message() + " (give " + opt + " 1e-3 for every output, " +
                                     opt + " pd_x=1e-3 for one)");
    }
    if (t.value < 0) {
      return Status::InvalidArgument(opt + " must be finite and >= 0 (got \"" + text + "\")");
    }
    out->push_back(std::move(t));
  }
  return Status::Ok();
}

bool NameMatches(const std::string& name, const Pair& p) {
  return name == p.key || name == p.name || name == GoldenStem("golden_" + p.name);
}

// A plain value applies to every output; a named one to its output, whatever the order.
double ToleranceFor(const std::vector<ToleranceSpec>& specs, const Pair& p, double dflt) {
  double v = dflt;
  for (const ToleranceSpec& t : specs)
    if (t.name.empty()) v = t.value;
  for (const ToleranceSpec& t : specs)
    if (!t.name.empty() && NameMatches(t.name, p)) v = t.value;
  return v;
}

// The problem's inputs as listed by GOLDEN's manifest, for the magnitude rule. The [rows, h]
// tensors stay in their dtype (a row at a time is widened), so that verify needs little more
// memory than the outputs themselves.
struct Inputs {
  std::string missing;  // why the magnitude rule cannot be applied; empty when it can
  int64_t rows = 0, h = 0;
  io::Tensor dy, x;
  std::optional<io::Tensor> res;  // the golden's res_for_gamma, if listed
  std::vector<double> mean, variance, gamma;
  double eps = 0;

  // dy, x, mean, variance, gamma (t[0..4], loaded and checked to fit together): the [rows, h]
  // tensors moved in, the others widened.
  void Take(io::Tensor* t) {
    dy = std::move(t[0]);
    x = std::move(t[1]);
    mean = t[2].ConvertedTo(io::DType::kFloat64).f64();
    variance = t[3].ConvertedTo(io::DType::kFloat64).f64();
    gamma = t[4].ConvertedTo(io::DType::kFloat64).f64();
  }

  // Row r of a [rows, h] tensor as doubles.
  void Row(const io::Tensor& t, int64_t r, std::vector<double>* out) const {
    out->resize(static_cast<size_t>(h));
    for (int64_t c = 0; c < h; ++c) (*out)[static_cast<size_t>(c)] = t.Get(r * h + c);
  }
  // Row r of res_for_gamma: the golden's, else (x - mean) / sqrt(variance + eps).
  void ResRow(int64_t r, std::vector<double>* out) const {
    if (res) return Row(*res, r, out);
    Row(x, r, out);
    const size_t k = static_cast<size_t>(r);
    const double rstd = 1.0 / std::sqrt(variance[k] + eps);
    for (double& v : *out) v = (v - mean[k]) * rstd;
  }
};

// The inputs from --inputs DIR (its manifest, else dy, x, mean, variance, gamma as .npy or
// .bin, else the vendor sample's input_inputDy.bin ...; raw files in `raw_dtype`, read flat:
// H is gamma's size, rows mean's), or from GOLDEN's manifest.
Status LoadInputs(const VerifyOptions& o, const std::optional<Manifest>& golden_manifest,
                  io::DType raw_dtype, Inputs* in) {
  std::optional<double> eps_opt;
  if (o.eps_given) {
    double e = 0;
    LNGRAD_RETURN_IF_ERROR(ParseFiniteDouble(o.eps_text, "--eps", &e));
    if (e < 0) return Status::InvalidArgument("--eps must be finite and >= 0");
    eps_opt = e;
  }
  std::optional<Manifest> own;
  const std::optional<Manifest>* source = &golden_manifest;
  const char* inputs[] = {"dy", "x", "mean", "variance", "gamma"};
  if (!o.inputs_dir.empty()) {
    if (!io::IsDirectory(o.inputs_dir)) {
      return Status::InvalidArgument("--inputs '" + o.inputs_dir + "' is not a directory");
    }
    LNGRAD_RETURN_IF_ERROR(LoadManifest(o.inputs_dir, &own));
    source = &own;
    if (!own) {
      io::Tensor t[5];
      for (size_t i = 0; i < 5; ++i) {
        std::string path;
        for (const std::string& name :
             {std::string(inputs[i]) + ".npy", std::string(inputs[i]) + ".bin",
              std::string(kVendorInputs[i]) + ".bin"}) {
          if (path.empty() && io::PathExists(io::JoinPath(o.inputs_dir, name)))
            path = io::JoinPath(o.inputs_dir, name);
        }
        if (path.empty()) {
          return Status::InvalidArgument(
              "--inputs '" + o.inputs_dir + "' has no " + inputs[i] + ".npy, " + inputs[i] +
              ".bin or " + std::string(kVendorInputs[i]) + ".bin (and no manifest.json)");
        }
        bool flat = false;
        LNGRAD_RETURN_IF_ERROR(LoadSide(path, BinSpec{raw_dtype, std::nullopt, ""}, &t[i], &flat));
      }
      if (!eps_opt) {
        return Status::InvalidArgument("--eps is required with --inputs '" + o.inputs_dir +
                                       "' (it has no manifest.json that records it)");
      }
      in->eps = static_cast<float>(*eps_opt);
      in->h = t[4].size();
      in->rows = t[2].size();
      if (in->h == 0 || t[0].size() != in->rows * in->h || t[1].size() != t[0].size() ||
          t[3].size() != in->rows) {
        return Status::InvalidArgument(
            "--inputs '" + o.inputs_dir + "': sizes do not fit together (dy " +
            std::to_string(t[0].size()) + ", x " + std::to_string(t[1].size()) + ", mean " +
            std::to_string(t[2].size()) + ", variance " + std::to_string(t[3].size()) + ", gamma " +
            std::to_string(t[4].size()) + " elements)");
      }
      in->Take(t);
      return Status::Ok();
    }
  }
  const std::optional<Manifest>& mg = *source;
  const std::string where = o.inputs_dir.empty() ? "GOLDEN" : "--inputs '" + o.inputs_dir + "'";
  if (!mg) {
    in->missing = "GOLDEN has no manifest.json that lists the inputs (see --inputs)";
    return Status::Ok();
  }
  const char* names[] = {"dy", "x", "mean", "variance", "gamma", "golden_res_for_gamma"};
  io::Tensor t[6];
  for (size_t i = 0; i < 6; ++i) {
    std::optional<FileEntry> e;
    LNGRAD_RETURN_IF_ERROR(mg->File(names[i], &e));
    if (!e) {
      if (i == 5) continue;  // res_for_gamma is then computed from the inputs
      in->missing = where + "'s manifest lists no \"" + names[i] + "\" (see --inputs)";
      return Status::Ok();
    }
    LNGRAD_RETURN_IF_ERROR(LoadTensor(e->path, e->Spec(), "", &t[i]));
    if (i == 5) in->res = std::move(t[5]);
  }
  std::optional<double> eps = eps_opt;
  if (!eps) LNGRAD_RETURN_IF_ERROR(mg->Number("eps", &eps));
  if (!eps) {
    in->missing = where + "'s manifest records no \"eps\" (see --eps)";
    return Status::Ok();
  }
  in->eps = static_cast<float>(*eps);  // what the kernels receive (gen's goldens use it too)
  in->h = t[0].shape().empty() ? 0 : t[0].shape().back();
  in->rows = in->h > 0 ? t[0].size() / in->h : 0;
  if (in->h == 0 || t[1].size() != t[0].size() || t[2].size() != in->rows ||
      t[3].size() != in->rows || t[4].size() != in->h ||
      (in->res && in->res->size() != t[0].size())) {
    in->missing = "the shapes of " + where + "'s inputs do not fit together";
    return Status::Ok();
  }
  in->Take(t);
  return Status::Ok();
}

// The magnitude rule for a pair, or the reason it does not apply (`why`; empty for outputs
// that do not cancel: res_for_gamma is a product, relative errors suffice). `res_out`: OUT's
// res_for_gamma, or null when OUT has none.
std::optional<MagnitudeRule> MagnitudeFor(const Pair& p, int64_t elements, const Inputs* in,
                                          const io::Tensor* res_out, std::string* why) {
  why->clear();
  MagnitudeRule m;
  if (p.key == "pd_x") {
    m.what = Cancelling::kPdX;
  } else if (p.key == "dgamma") {
    m.what = Cancelling::kDgamma;
  } else if (p.key == "dbeta") {
    m.what = Cancelling::kDbeta;
  } else {
    return std::nullopt;
  }
  if (in == nullptr) {
    *why = "off (--no-magnitude)";
    return std::nullopt;
  }
  if (!in->missing.empty()) {
    *why = in->missing;
    return std::nullopt;
  }
  const int64_t want = m.what == Cancelling::kPdX ? in->rows * in->h : in->h;
  if (elements != want) {
    *why = "it has " + std::to_string(elements) + " elements but the inputs give " +
           std::to_string(want);
    return std::nullopt;
  }
  m.rows = in->rows;
  m.h = in->h;
  const size_t h = static_cast<size_t>(in->h);
  m.mag.assign(static_cast<size_t>(want), 0.0);
  const bool res_error =
      m.what == Cancelling::kDgamma && res_out != nullptr && res_out->size() == in->dy.size();
  if (res_error) m.res_error.assign(h, 0.0);
  std::vector<double> dy, x, res, g(h), b(h), unused(h);
  for (int64_t r = 0; r < in->rows; ++r) {
    const size_t k = static_cast<size_t>(r);
    in->Row(in->dy, r, &dy);
    if (m.what == Cancelling::kPdX) {
      in->Row(in->x, r, &x);
      ops::golden::PdXMagnitude(1, in->h, dy.data(), x.data(), &in->mean[k], &in->variance[k],
                                in->gamma.data(), in->eps, m.mag.data() + k * h);
      continue;
    }
    in->ResRow(r, &res);
    ops::golden::ColumnMagnitudes(1, in->h, dy.data(), res.data(), g.data(), b.data());
    const std::vector<double>& add = m.what == Cancelling::kDgamma ? g : b;
    for (size_t c = 0; c < h; ++c) m.mag[c] += add[c];
    if (res_error) {
      // sum |dy| * |dres|: ColumnMagnitudes' gamma term with res = dres.
      for (size_t c = 0; c < h; ++c)
        res[c] = res_out->Get(r * in->h + static_cast<int64_t>(c)) - res[c];
      ops::golden::ColumnMagnitudes(1, in->h, dy.data(), res.data(), g.data(), unused.data());
      for (size_t c = 0; c < h; ++c) m.res_error[c] += g[c];
    }
  }
  return m;
}

// What judged one pair.
struct Judged {
  CompareRule rule;
  std::optional<MagnitudeRule> magnitude;
  std::string magnitude_off;  // why not, for the outputs it would cover
};

std::string Num(double v, int digits = 6) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

void PrintText(const Pair& p, const CompareResult& r, const Judged& j) {
  const CompareRule& rule = j.rule;
  std::printf("%s: '%s' vs '%s': %s %s vs %s, %lld elements\n", p.name.c_str(), p.out_path.c_str(),
              p.golden_path.c_str(), io::ShapeText(r.shape).c_str(), io::DTypeName(r.out_dtype),
              io::DTypeName(r.golden_dtype), static_cast<long long>(r.elements));
  std::printf("  mismatches: %lld of %lld (%s)\n", static_cast<long long>(r.mismatches),
              static_cast<long long>(r.elements), RuleText(rule).c_str());
  if (j.magnitude) {
    std::printf("  magnitude rule: also right if %s (docs/math.md 6.8); %lld right only by it\n",
                MagnitudeText(*j.magnitude, r.out_dtype).c_str(),
                static_cast<long long>(r.magnitude_accepted));
  } else if (!j.magnitude_off.empty()) {
    std::printf("  magnitude rule: not applied (%s)\n", j.magnitude_off.c_str());
  }
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
      std::printf("    %-14s out %-14s golden %-14s abs %-10s rel %-10s ulp %s%s%s\n",
                  io::IndexText(r.shape, w.index).c_str(), Num(w.out, 9).c_str(),
                  Num(w.golden, 9).c_str(), Num(w.abs_err).c_str(), Num(w.rel_err).c_str(),
                  w.ulp_known ? std::to_string(w.ulp).c_str() : "-",
                  w.bound >= 0 ? ("  bound " + Num(w.bound)).c_str() : "", w.fails ? "  FAIL" : "");
    }
  }
  std::printf("  %s\n", r.mismatches == 0 ? "PASS" : "FAIL");
}

io::Json ResultJson(const Pair& p, const CompareResult& r, const Judged& how) {
  io::Json j = io::Json::object();
  j["name"] = p.name;
  j["key"] = p.key;
  j["out"] = p.out_path;
  j["golden"] = p.golden_path;
  j["shape"] = io::Json(r.shape);
  j["out_dtype"] = io::DTypeName(r.out_dtype);
  j["golden_dtype"] = io::DTypeName(r.golden_dtype);
  j["elements"] = r.elements;
  j["mismatches"] = r.mismatches;
  j["pass"] = r.mismatches == 0;
  j["rule"] = std::string(how.rule.kind == CompareRule::kAscend ? "ascend" : "allclose") +
              (how.magnitude ? "+magnitude" : "");
  j["atol"] = how.rule.atol;
  j["rtol"] = how.rule.rtol;
  if (how.magnitude) {
    io::Json m = io::Json::object();
    m["bound"] = MagnitudeText(*how.magnitude, r.out_dtype);
    m["u_factor"] = how.magnitude->UnitFactor();
    m["u_half_factor"] = how.magnitude->HalfFactor(r.out_dtype);
    m["accepted"] = r.magnitude_accepted;
    j["magnitude"] = m;
  } else {
    j["magnitude"] = io::Json();
    if (!how.magnitude_off.empty()) j["magnitude_not_applied"] = how.magnitude_off;
  }
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
    if (w.bound >= 0) e["bound"] = w.bound;
    worst.push_back(std::move(e));
  }
  j["worst"] = worst;
  return j;
}

// The comparison asked for, once its options are parsed.
struct VerifyRequest {
  CompareRule base;
  std::vector<ToleranceSpec> atols, rtols;
  BinSpec cli_spec;  // --dtype, --shape
};

// Each pair's result and the rule it was judged by, in the order of the pairs.
struct Verdicts {
  std::vector<CompareResult> results;
  std::vector<Judged> judged;
};

int ParseVerifyRequest(const VerifyOptions& o, VerifyRequest* req) {
  if (o.rule_text == "ascend") {
    req->base.kind = CompareRule::kAscend;
  } else if (o.rule_text == "allclose") {
    req->base.kind = CompareRule::kAllclose;
  } else {
    return Fail(kCmd, "--rule \"" + o.rule_text + "\" is not ascend or allclose");
  }
  if (Status st = ParseTolerances(o.atol_texts, "--atol", &req->atols); !st.ok())
    return Fail(kCmd, st);
  if (Status st = ParseTolerances(o.rtol_texts, "--rtol", &req->rtols); !st.ok())
    return Fail(kCmd, st);
  if (o.worst < 0) return Fail(kCmd, "--worst must be >= 0");
  if (double e = 0; o.eps_given) {
    // Checked again where it is used; here so that "" is refused before any file is read.
    if (Status st = ParseFiniteDouble(o.eps_text, "--eps", &e); !st.ok()) return Fail(kCmd, st);
  }
  if (!o.dtype_text.empty()) {
    io::DType d;
    if (Status st = io::ParseDType(o.dtype_text, &d); !st.ok())
      return Fail(kCmd, "--" + st.message());
    req->cli_spec.dtype = d;
  }
  if (!o.shape_text.empty()) {
    std::vector<int64_t> s;
    if (Status st = io::ParseShape(o.shape_text, "--shape", &s); !st.ok()) return Fail(kCmd, st);
    req->cli_spec.shape = s;
  }
  return kExitOk;
}

// A named tolerance must name a compared output: a misspelt name would silently do nothing.
int CheckToleranceNames(const VerifyRequest& req, const std::vector<Pair>& pairs) {
  for (const auto* specs : {&req.atols, &req.rtols}) {
    for (const ToleranceSpec& t : *specs) {
      if (t.name.empty()) continue;
      std::string known;
      bool found = false;
      for (const Pair& p : pairs) {
        found = found || NameMatches(t.name, p);
        known += (known.empty() ? "" : ", ") + p.key;
      }
      if (!found) {
        return Fail(kCmd, std::string(specs == &req.atols ? "--atol" : "--rtol") + " " + t.name +
                              "=...: no output named \"" + t.name + "\" (compared: " + known + ")");
      }
    }
  }
  return kExitOk;
}

// Both sides of a pair, in one shape.
int LoadPair(Pair& p, io::Tensor* out, io::Tensor* golden) {
  // A raw side without a dtype takes the other's: a raw OUT without a manifest that of the
  // golden's manifest entry, a raw golden (the vendor samples' golden_*.bin) OUT's.
  if (!p.out_spec.dtype && io::FormatOfPath(p.out_path) != io::FileFormat::kNpy)
    p.out_spec.dtype = p.golden_spec.dtype;
  bool out_flat = false, golden_flat = false;
  Status st = LoadSide(p.out_path, p.out_spec, out, &out_flat);
  if (st.ok() && !p.golden_spec.dtype && io::FormatOfPath(p.golden_path) != io::FileFormat::kNpy)
    p.golden_spec.dtype = out->dtype();
  if (st.ok()) st = LoadSide(p.golden_path, p.golden_spec, golden, &golden_flat);
  if (!st.ok()) return Fail(kCmd, st);
  // A flat raw side takes the other side's shape when the counts agree.
  if (out_flat && !golden_flat && out->size() == golden->size()) st = out->Reshape(golden->shape());
  if (golden_flat && !out_flat && out->size() == golden->size()) st = golden->Reshape(out->shape());
  if (!st.ok() || out->shape() != golden->shape()) {
    return Fail(kCmd, "shapes disagree: '" + p.out_path + "' is " + io::ShapeText(out->shape()) +
                          " but '" + p.golden_path + "' is " + io::ShapeText(golden->shape()));
  }
  return kExitOk;
}

// Reads and compares every pair before any verdict is printed: an I/O error is exit 2, never a
// half-printed report.
int ComparePairs(const VerifyOptions& o, const VerifyRequest& req,
                 const std::optional<Manifest>& golden_manifest, std::vector<Pair>& pairs,
                 Verdicts* v) {
  // The inputs behind the goldens, read at the first output the magnitude rule covers (raw
  // inputs without a manifest are read in that output's dtype).
  Inputs inputs;
  bool inputs_read = false;
  // OUT's res_for_gamma, which its dgamma was computed from: the magnitude rule for dgamma
  // counts the actual difference from the golden's instead of a bound on it.
  std::optional<io::Tensor> res_out;
  auto read_inputs = [&](io::DType out_dtype) -> Status {
    inputs_read = true;
    LNGRAD_RETURN_IF_ERROR(
        LoadInputs(o, golden_manifest, req.cli_spec.dtype.value_or(out_dtype), &inputs));
    if (!inputs.missing.empty()) return Status::Ok();
    for (const Pair& p : pairs) {
      if (p.key != "res_for_gamma") continue;
      io::Tensor t;
      bool flat = false;
      BinSpec spec = p.out_spec;
      if (!spec.dtype) spec.dtype = p.golden_spec.dtype ? p.golden_spec.dtype : out_dtype;
      LNGRAD_RETURN_IF_ERROR(LoadSide(p.out_path, spec, &t, &flat));
      res_out = std::move(t);
    }
    return Status::Ok();
  };
  for (Pair& p : pairs) {
    io::Tensor out, golden;
    if (int rc = LoadPair(p, &out, &golden); rc != kExitOk) return rc;
    if (!o.no_magnitude && !inputs_read &&
        (p.key == "pd_x" || p.key == "dgamma" || p.key == "dbeta")) {
      if (Status rst = read_inputs(out.dtype()); !rst.ok()) return Fail(kCmd, rst);
    }
    Judged j;
    j.rule = req.base;
    j.rule.atol = ToleranceFor(req.atols, p, DefaultTolerance(out.dtype()));
    j.rule.rtol = ToleranceFor(req.rtols, p, DefaultTolerance(out.dtype()));
    j.magnitude = MagnitudeFor(p, out.size(), o.no_magnitude ? nullptr : &inputs,
                               res_out ? &*res_out : nullptr, &j.magnitude_off);
    v->results.push_back(Compare(out, golden, j.rule, static_cast<size_t>(o.worst),
                                 j.magnitude ? &*j.magnitude : nullptr));
    v->judged.push_back(std::move(j));
  }
  return kExitOk;
}

// The verdicts on stdout (--json or text); kExitFailed when a pair has mismatches.
int ReportVerify(const VerifyOptions& o, const std::vector<Pair>& pairs, const Verdicts& v) {
  const std::vector<CompareResult>& results = v.results;
  const std::vector<Judged>& judged = v.judged;
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
    // The tolerances when every output has the same (per output: each result's own).
    bool same = true;
    for (const Judged& x : judged) {
      same = same && x.rule.atol == judged[0].rule.atol && x.rule.rtol == judged[0].rule.rtol;
    }
    j["atol"] = same ? io::Json(judged[0].rule.atol) : io::Json();
    j["rtol"] = same ? io::Json(judged[0].rule.rtol) : io::Json();
    j["magnitude"] = !o.no_magnitude;
    j["pass"] = pass;
    io::Json list = io::Json::array();
    for (size_t i = 0; i < pairs.size(); ++i)
      list.push_back(ResultJson(pairs[i], results[i], judged[i]));
    j["results"] = list;
    std::printf("%s\n", io::DumpJson(j, 2).c_str());
  } else {
    for (size_t i = 0; i < pairs.size(); ++i) PrintText(pairs[i], results[i], judged[i]);
    if (pass) {
      std::printf("PASS (%zu of %zu compared)\n", pairs.size(), pairs.size());
    } else {
      std::printf("FAIL (%d of %zu compared have mismatches)\n", failed, pairs.size());
    }
  }
  return pass ? kExitOk : kExitFailed;
}

// parse -> collect the pairs -> load and compare -> report.
int RunVerify(const VerifyOptions& o) {
  VerifyRequest req;
  if (int rc = ParseVerifyRequest(o, &req); rc != kExitOk) return rc;
  // The directories read, locked shared while they are read: a concurrent gen or run into one of
  // them waits, so the files compared are one set each.
  std::vector<std::string> dirs;
  for (const std::string& p : {o.out, o.golden})
    dirs.push_back(io::IsDirectory(p) ? p : io::DirectoryOf(p));
  if (!o.inputs_dir.empty()) dirs.push_back(o.inputs_dir);
  io::DirectoryReadLocks locks;
  if (Status st = LockForReading(kCmd, dirs, {}, &locks); !st.ok()) return Fail(kCmd, st);
  std::vector<Pair> pairs;
  std::optional<Manifest> golden_manifest;
  if (Status st = CollectPairs(o, req.cli_spec, &pairs, &golden_manifest); !st.ok())
    return Fail(kCmd, st);
  if (int rc = CheckToleranceNames(req, pairs); rc != kExitOk) return rc;
  Verdicts v;
  if (int rc = ComparePairs(o, req, golden_manifest, pairs, &v); rc != kExitOk) return rc;
  return ReportVerify(o, pairs, v);
}

}  // namespace

void AddVerifyCommand(CLI::App& root, std::vector<Command>* commands) {
  auto [app, o] = AddCommand<VerifyOptions>(root, commands, kCmd, kDescription,
                                            [](VerifyOptions& o, const CLI::App& app) {
                                              o.eps_given = app.count("--eps") > 0;
                                              return RunVerify(o);
                                            });
  app->add_option("OUT", o->out, "Output file or directory")->required();
  app->add_option("GOLDEN", o->golden, "Golden file or directory")->required();
  app->add_option("--atol", o->atol_texts,
                  "Absolute tolerance: A for every output, NAME=A for one (e.g. pd_x=1e-3);\n"
                  "repeatable. Default: 1e-3 for half outputs, 1e-4 for float")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app->add_option("--rtol", o->rtol_texts,
                  "Relative tolerance, as --atol (default: 1e-3 for half, 1e-4 for float)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app->add_option("--rule", o->rule_text,
                  "ascend: wrong iff abs err > atol AND abs err/|golden| > rtol (the official\n"
                  "sample rule); allclose: wrong iff abs err > atol + rtol*|golden| (NumPy)")
      ->capture_default_str();
  app->add_flag("--no-magnitude", o->no_magnitude,
                "Judge pd_x, dgamma and dbeta by --rule alone (no magnitude rule)");
  app->add_option("--inputs", o->inputs_dir,
                  "Magnitude rule: directory of the inputs (its manifest.json, or dy, x, mean,\n"
                  "variance, gamma as .npy/.bin, or the official sample's input_inputDy.bin ...;\n"
                  "default: GOLDEN's manifest)");
  app->add_option("--eps", o->eps_text,
                  "Magnitude rule: epsilon of the inputs (default: the inputs' manifest's)");
  app->add_option("--dtype", o->dtype_text, "float, half, bf16 or float64: of raw (.bin) files");
  app->add_option("--shape", o->shape_text, "Shape of raw files (default: flat)");
  app->add_option("--worst", o->worst, "How many worst elements to list")->capture_default_str();
  app->add_flag("--json", o->json, "Print a JSON report on stdout instead of text");
}

}  // namespace lngrad::cli
