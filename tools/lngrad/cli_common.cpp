#include "cli_common.h"

#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "lngrad/lngrad.h"

namespace lngrad::cli {

int Fail(std::string_view command, const Status& st, int code) {
  return Fail(command, st.message(), code);
}

int Fail(std::string_view command, const std::string& message, int code) {
  std::fprintf(stderr, "lngrad %.*s: error: %s\n", static_cast<int>(command.size()), command.data(),
               message.c_str());
  return code;
}

void Warn(std::string_view command, const std::string& message) {
  std::fprintf(stderr, "lngrad %.*s: warning: %s\n", static_cast<int>(command.size()),
               command.data(), message.c_str());
}

Status ParseUint(std::string_view text, std::string_view what, uint64_t max, uint64_t* out) {
  int base = 10;
  std::string_view digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || v > max) {
    return Status::InvalidArgument(std::string(what) + " \"" + std::string(text) +
                                   "\" is not an integer in [0, " + std::to_string(max) + "]");
  }
  *out = v;
  return Status::Ok();
}

Status ParseFiniteDouble(std::string_view text, std::string_view what, double* out) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
    return Status::InvalidArgument(std::string(what) + " \"" + std::string(text) +
                                   "\" is not a finite number");
  }
  *out = v;
  return Status::Ok();
}

Status ParseDataDType(std::string_view text, std::string_view command_does, io::DType* out) {
  io::DType d = io::DType::kFloat32;
  if (!io::ParseDType(text, &d).ok() || d == io::DType::kFloat64) {
    return Status::InvalidArgument("--dtype \"" + std::string(text) +
                                   "\" is not supported: " + std::string(command_does) +
                                   " float, half or bf16 (also float32/f4/fp32, float16/f2/fp16, "
                                   "bfloat16)");
  }
  *out = d;
  return Status::Ok();
}

Status ChooseProduct(std::string_view soc_option, const lngrad::Product** out) {
  if (soc_option.empty()) return lngrad::CurrentProductChecked(out);
  *out = lngrad::FindProduct(soc_option);
  if (*out == nullptr) {
    return Status::InvalidArgument("--soc \"" + std::string(soc_option) +
                                   "\" is not a known SoC name (see `lngrad socs`)");
  }
  // Made the process's current product, so that library code that consults it (the host
  // tiling functions) never falls back on a misspelt LNGRAD_SOC with a warning.
  return lngrad::SetCurrentSoc(soc_option);
}

Status CheckImplEnvironment() {
  lngrad::Impl impl = lngrad::Impl::kAuto;
  return lngrad::ImplFromEnvironment("", &impl);
}

Status CheckOutputPath(std::string_view option, const std::string& path) {
  std::error_code ec;
  const auto st = std::filesystem::symlink_status(path, ec);
  if (ec || !std::filesystem::is_symlink(st) || std::filesystem::exists(path, ec)) {
    return Status::Ok();
  }
  const std::string target = std::filesystem::read_symlink(path, ec).string();
  return Status::InvalidArgument(std::string(option) + " '" + path + "' is a symbolic link to '" +
                                 target +
                                 "', which does not exist; create the target directory or "
                                 "remove the link");
}

std::string PathRelativeTo(const std::string& path, const std::string& dir) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  if (ec) return path;
  const std::filesystem::path d = std::filesystem::weakly_canonical(dir, ec);
  if (ec) return path;
  const std::filesystem::path rel = p.lexically_relative(d);
  return rel.empty() ? path : rel.string();
}

namespace {

Status ShapeFromJson(const io::Json& j, std::string_view what, std::vector<int64_t>* out) {
  if (!j.is_array()) return Status::InvalidArgument(std::string(what) + ": shape is not an array");
  std::vector<int64_t> shape;
  for (const io::Json& d : j) {
    int64_t n = 0;
    if (!io::JsonInteger(d, &n) || n < 0) {
      return Status::InvalidArgument(std::string(what) +
                                     ": shape has a dimension that is not a "
                                     "non-negative integer");
    }
    shape.push_back(n);
  }
  int64_t count = 0;
  LNGRAD_RETURN_IF_ERROR(io::ElementCount(shape, &count));
  *out = std::move(shape);
  return Status::Ok();
}

}  // namespace

Status Manifest::File(std::string_view key, std::optional<FileEntry>* out) const {
  out->reset();
  const io::Json* files = io::FindMember(json, "files");
  if (files == nullptr) return Status::Ok();
  const io::Json* e = io::FindMember(*files, key);
  if (e == nullptr) return Status::Ok();
  const std::string what = io::JoinPath(dir, kManifestName) + ": files." + std::string(key);
  const io::Json* path = io::FindMember(*e, "path");
  const io::Json* dtype = io::FindMember(*e, "dtype");
  const io::Json* shape = io::FindMember(*e, "shape");
  if (path == nullptr || !path->is_string() || path->get_ref<const std::string&>().empty() ||
      dtype == nullptr || !dtype->is_string() || shape == nullptr) {
    return Status::InvalidArgument(what + " needs \"path\", \"dtype\" and \"shape\"");
  }
  FileEntry f;
  // Paths stay inside the data directory: a manifest is data, not a pointer elsewhere.
  if (path->get_ref<const std::string&>().find('/') != std::string::npos) {
    return Status::InvalidArgument(what + ": path \"" + path->get_ref<const std::string&>() +
                                   "\" must be a plain file name in the same directory");
  }
  f.path = io::JoinPath(dir, path->get_ref<const std::string&>());
  f.manifest = io::JoinPath(dir, kManifestName);
  if (Status st = io::ParseDType(dtype->get_ref<const std::string&>(), &f.dtype); !st.ok()) {
    return Status::InvalidArgument(what + ": " + st.message());
  }
  LNGRAD_RETURN_IF_ERROR(ShapeFromJson(*shape, what, &f.shape));
  *out = std::move(f);
  return Status::Ok();
}

std::vector<std::string> Manifest::FileKeys() const {
  const io::Json* files = io::FindMember(json, "files");
  if (files == nullptr || !files->is_object()) return {};
  std::vector<std::string> keys;
  for (const auto& [key, value] : files->items()) keys.push_back(key);
  return keys;
}

Status Manifest::Number(std::string_view key, std::optional<double>* out) const {
  out->reset();
  const io::Json* v = io::FindMember(json, key);
  if (v == nullptr) return Status::Ok();
  if (!v->is_number()) {
    return Status::InvalidArgument("'" + io::JoinPath(dir, kManifestName) + "': \"" +
                                   std::string(key) + "\" must be a number, not " +
                                   io::DumpJson(*v, 0));
  }
  *out = v->get<double>();
  return Status::Ok();
}

BinSpec FileEntry::Spec() const { return BinSpec{dtype, shape, manifest}; }

Status LoadManifest(const std::string& dir, std::optional<Manifest>* out) {
  out->reset();
  const std::string path = io::JoinPath(dir, kManifestName);
  if (!io::PathExists(path)) return Status::Ok();
  std::string text;
  LNGRAD_RETURN_IF_ERROR(io::ReadTextFile(path, &text));
  Manifest m;
  m.dir = dir;
  LNGRAD_RETURN_IF_ERROR(io::ParseJson(text, "'" + path + "'", &m.json));
  const io::Json* format = io::FindMember(m.json, "format");
  if (!m.json.is_object() || format == nullptr || !format->is_string() ||
      format->get_ref<const std::string&>() != kManifestFormat) {
    return Status::InvalidArgument("'" + path + "' is not an lngrad manifest (\"format\": \"" +
                                   std::string(kManifestFormat) + "\" expected)");
  }
  const io::Json* files = io::FindMember(m.json, "files");
  if (files != nullptr && !files->is_object()) {
    return Status::InvalidArgument("'" + path + "': \"files\" is not an object");
  }
  *out = std::move(m);
  return Status::Ok();
}

io::Json FileEntryJson(const std::string& path, const io::Tensor& t) {
  io::Json e = io::Json::object();
  e["path"] = path;
  e["dtype"] = io::DTypeName(t.dtype());
  e["shape"] = io::Json(t.shape());
  return e;
}

std::string FileExt(io::FileFormat format) {
  return format == io::FileFormat::kNpy ? ".npy" : ".bin";
}

Status CheckOutputsSpareInputs(const std::string& dir, std::span<const std::string> names,
                               std::span<const InputFile> inputs) {
  const std::string canonical_dir = io::CanonicalPath(dir);
  if (canonical_dir.empty()) return Status::Ok();
  for (const InputFile& in : inputs) {
    const std::string input = io::CanonicalPath(in.path);
    if (input.empty()) continue;
    for (const std::string& name : names) {
      // The directory entry that the rename replaces: a symlink named like an output is itself
      // replaced, and what it points to is safe.
      if (io::JoinPath(canonical_dir, name) == input) {
        return Status::InvalidArgument("--out '" + dir + "' would overwrite the input " + in.label +
                                       " '" + in.path + "' with the output " + name +
                                       "; choose another --out");
      }
    }
  }
  return Status::Ok();
}

namespace {

std::string JoinKeys(const std::vector<std::string>& keys) {
  std::string text;
  for (const std::string& k : keys) text += (text.empty() ? "" : ", ") + k;
  return text;
}

// Whether `existing` lists every one of `inputs` (by key) at the same file.
bool ListsTheInputs(const Manifest& existing, std::span<const InputFile> inputs) {
  if (inputs.empty()) return false;
  for (const InputFile& in : inputs) {
    std::optional<FileEntry> e;
    if (!existing.File(in.label, &e).ok() || !e) return false;
    const std::string listed = io::CanonicalPath(e->path);
    if (listed.empty() || listed != io::CanonicalPath(in.path)) return false;
  }
  return true;
}

}  // namespace

Status CheckDataDir(const std::string& dir, std::span<const std::string> keys,
                    const DataDirWrite& how, std::optional<Manifest>* keep) {
  keep->reset();
  if (!io::IsDirectory(dir)) return Status::Ok();
  const std::string command(how.command.empty() ? "lngrad" : how.command);
  std::optional<Manifest> existing;
  if (Status st = LoadManifest(dir, &existing); !st.ok()) {
    return Status::InvalidArgument("--out '" + dir + "' holds a manifest.json that " + command +
                                   " will not replace: " + st.message());
  }
  if (!existing) return Status::Ok();
  std::vector<std::string> others;
  for (const std::string& key : existing->FileKeys()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) others.push_back(key);
  }
  if (others.empty()) return Status::Ok();  // the same kind of set, replaced as a whole
  if (ListsTheInputs(*existing, how.inputs)) {
    *keep = std::move(existing);
    return Status::Ok();
  }
  if (how.inputs.empty()) {
    return Status::InvalidArgument("--out '" + dir + "' holds files that " + command +
                                   " does not write (its manifest.json lists " + JoinKeys(others) +
                                   "): they would no longer match the new files; remove them "
                                   "or choose another --out");
  }
  return Status::InvalidArgument("--out '" + dir +
                                 "' holds another data set (its manifest.json lists " +
                                 JoinKeys(others) + ", which " + command +
                                 " did not read): choose another --out, or read that "
                                 "directory with --in to add the outputs to it");
}

namespace {

Status OpenLocked(io::OutputSet* out, std::string_view command) {
  return out->Open([&] {
    Warn(command.empty() ? "lngrad" : command,
         "waiting for '" + out->dir() +
             "': another process is writing into it (it holds the directory's lock)");
  });
}

}  // namespace

namespace {

// The files that the directory's manifest lists under `keys` and that this write does not write
// again (`run --names vendor`, then lngrad's names; `gen --format npy`, then bin): the set they
// belonged to is replaced, so they go with the commit. Inputs are never removed.
void RemoveReplacedFiles(io::OutputSet* out, std::span<const std::string> keys,
                         std::span<const std::string> names, std::span<const InputFile> inputs) {
  std::optional<Manifest> before;
  if (!LoadManifest(out->dir(), &before).ok() || !before) return;
  for (const std::string& key : keys) {
    std::optional<FileEntry> e;
    if (!before->File(key, &e).ok() || !e) continue;
    const std::string name = e->path.substr(e->path.rfind('/') + 1);
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    const std::string canonical = io::CanonicalPath(e->path);
    const bool is_input = std::any_of(inputs.begin(), inputs.end(), [&](const InputFile& in) {
      return !canonical.empty() && io::CanonicalPath(in.path) == canonical;
    });
    if (!is_input) out->RemoveOnCommit(name);
  }
}

}  // namespace

Status OpenDataDir(io::OutputSet* out, std::span<const std::string> keys, const DataDirWrite& how) {
  std::optional<Manifest> kept;
  LNGRAD_RETURN_IF_ERROR(CheckDataDir(out->dir(), keys, how, &kept));
  io::InstallSignalCleanup(how.command.empty() ? "lngrad" : how.command);
  // A directory still to be made is made only when the outputs are there to fill it, so that a
  // refusal or a failed computation leaves nothing behind; a directory that exists (an input
  // directory, perhaps) is locked now.
  if (!io::PathExists(out->dir())) return Status::Ok();
  return OpenLocked(out, how.command);
}

Status WriteDataDir(io::OutputSet* out, std::span<const std::pair<std::string, io::Tensor>> files,
                    io::FileFormat format, io::Json* manifest, const DataDirWrite& how) {
  const std::string ext = FileExt(format);
  const std::string command(how.command.empty() ? "lngrad" : how.command);
  if (!out->opened()) LNGRAD_RETURN_IF_ERROR(OpenLocked(out, command));
  // Under the lock: what is in the directory now is what this write will replace.
  std::vector<std::string> names, keys;
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& name = files[i].first;
    names.push_back((i < how.file_bases.size() ? how.file_bases[i] : name) + ext);
    keys.push_back(name);
  }
  names.emplace_back(kManifestName);
  LNGRAD_RETURN_IF_ERROR(CheckOutputsSpareInputs(out->dir(), names, how.inputs));
  std::optional<Manifest> existing;
  LNGRAD_RETURN_IF_ERROR(CheckDataDir(out->dir(), keys, how, &existing));
  io::Json written = *manifest;
  for (size_t i = 0; i < files.size(); ++i)
    written["files"][files[i].first] = FileEntryJson(names[i], files[i].second);
  io::Json result = written;
  if (!existing && !how.inputs.empty()) {
    // Inputs found by name in the directory the outputs go to: list them first, so that a
    // second `run --in DIR` finds them through the manifest that this write adds.
    const std::string dir = io::CanonicalPath(out->dir());
    bool all_here = true;
    for (const InputFile& in : how.inputs) {
      const std::string p = io::CanonicalPath(in.path);
      all_here = all_here && !in.entry.is_null() && !dir.empty() &&
                 p == io::JoinPath(dir, p.substr(p.rfind('/') + 1));
    }
    if (all_here) {
      io::Json listed = io::Json::object();
      for (const InputFile& in : how.inputs) {
        io::Json e = in.entry;
        e["path"] = in.path.substr(in.path.rfind('/') + 1);
        listed[in.label] = e;
      }
      for (const auto& [key, entry] : written["files"].items()) listed[key] = entry;
      result["files"] = listed;
    }
  }
  if (existing) {
    // Run into its own input directory: the directory stays gen's data set (inputs and
    // goldens, so that `verify DIR DIR` and another `run --in DIR` still work) and gains the
    // outputs.
    result = existing->json;
    for (const auto& [key, entry] : written["files"].items()) result["files"][key] = entry;
    io::Json own = written;
    own.erase("format");
    own.erase("files");
    own["outputs"] = io::Json(keys);
    result[how.nest_key.empty() ? command : how.nest_key] = own;
  }
  RemoveReplacedFiles(out, keys, names, how.inputs);
  for (size_t i = 0; i < files.size(); ++i)
    LNGRAD_RETURN_IF_ERROR(out->AddTensor(names[i], files[i].second, format));
  LNGRAD_RETURN_IF_ERROR(out->AddBytes(std::string(kManifestName), io::DumpJson(result, 2) + "\n"));
  LNGRAD_RETURN_IF_ERROR(out->Commit());
  *manifest = std::move(result);
  return Status::Ok();
}

Status LockForReading(std::string_view command, const std::vector<std::string>& dirs,
                      const std::vector<std::string>& held, io::DirectoryReadLocks* locks) {
  return locks->Acquire(dirs, held, [&](const std::string& dir) {
    Warn(command, "waiting for '" + dir +
                      "': another process is writing into it (it holds the directory's lock)");
  });
}

namespace {

// A "Key:  123 kB" line of /proc/meminfo, in bytes.
std::optional<uint64_t> MemInfo(const std::string& text, std::string_view key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(std::string(key) + ":", 0) != 0) continue;
    uint64_t kb = 0;
    std::istringstream(line.substr(key.size() + 1)) >> kb;
    return kb * 1024;
  }
  return std::nullopt;
}

std::optional<uint64_t> ReadNumberFile(const std::string& path) {
  std::ifstream f(path);
  std::string word;
  if (!(f >> word)) return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;  // "max"
  return v;
}

std::string GiB(uint64_t bytes) {
  const double g = static_cast<double>(bytes) / static_cast<double>(1ull << 30);
  char buf[32];
  std::snprintf(buf, sizeof buf, g < 10 ? "%.1f" : "%.0f", g);
  return buf;
}

}  // namespace

Status CheckMemory(std::string_view what, uint64_t bytes) {
  std::optional<uint64_t> avail;
  std::string from;
  auto bound = [&](uint64_t v, const char* source) {
    if (!avail || v < *avail) {
      avail = v;
      from = source;
    }
  };
  std::ifstream mf("/proc/meminfo");
  std::stringstream meminfo;
  meminfo << mf.rdbuf();
  const std::optional<uint64_t> mem = MemInfo(meminfo.str(), "MemAvailable");
  if (mem) bound(*mem + MemInfo(meminfo.str(), "SwapFree").value_or(0), "MemAvailable + SwapFree");
  // The memory cgroup (v2: "0::/path", v1: "N:memory:/path" in /proc/self/cgroup): its limit
  // less what the group uses besides page cache (which the kernel reclaims before failing).
  std::ifstream cg("/proc/self/cgroup");
  for (std::string line; std::getline(cg, line);) {
    std::string base, limit, usage, cache_key;
    if (line.rfind("0::", 0) == 0) {
      base = "/sys/fs/cgroup" + line.substr(3);
      limit = "memory.max", usage = "memory.current", cache_key = "file";
    } else if (const size_t at = line.find(":memory:"); at != std::string::npos) {
      base = "/sys/fs/cgroup/memory" + line.substr(at + 8);
      limit = "memory.limit_in_bytes", usage = "memory.usage_in_bytes", cache_key = "total_cache";
    } else {
      continue;
    }
    const std::optional<uint64_t> max = ReadNumberFile(base + "/" + limit);
    if (!max || *max >= (uint64_t{1} << 60)) continue;  // "max", or v1's "unlimited"
    uint64_t used = ReadNumberFile(base + "/" + usage).value_or(0);
    std::ifstream sf(base + "/memory.stat");
    for (std::string stat; std::getline(sf, stat);) {
      uint64_t cache = 0;
      if (stat.rfind(cache_key + " ", 0) == 0 &&
          (std::istringstream(stat.substr(cache_key.size() + 1)) >> cache)) {
        used -= std::min(used, cache);
      }
    }
    bound(*max - std::min(*max, used), "the memory cgroup's limit");
  }
  // Address-space limits (ulimit -v, -d) count what is already mapped.
  std::optional<uint64_t> mapped;
  if (std::ifstream statm("/proc/self/statm"); statm) {
    uint64_t pages = 0;
    if (statm >> pages) mapped = pages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  }
  for (const auto& [resource, name] :
       {std::pair{RLIMIT_AS, "ulimit -v"}, std::pair{RLIMIT_DATA, "ulimit -d"}}) {
    struct rlimit rl {};
    if (::getrlimit(resource, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
      const uint64_t lim = static_cast<uint64_t>(rl.rlim_cur);
      bound(lim - std::min(lim, mapped.value_or(0)), name);
    }
  }
  if (!avail || bytes <= *avail) return Status::Ok();
  return Status::InvalidArgument(std::string(what) + " needs about " + GiB(bytes) +
                                 " GiB of memory; this process can get about " + GiB(*avail) +
                                 " GiB (" + from + ")");
}

int PrintJson(const io::Json& j) {
  std::printf("%s\n", io::DumpJson(j, 2).c_str());
  return kExitOk;
}

Status LoadTensor(const std::string& path, const BinSpec& spec, std::string_view hint,
                  io::Tensor* out) {
  if (io::FormatOfPath(path) == io::FileFormat::kNpy) {
    LNGRAD_RETURN_IF_ERROR(io::ReadNpyFile(path, out));
    const bool dtype_differs = spec.dtype && *spec.dtype != out->dtype();
    const bool shape_differs = spec.shape && *spec.shape != out->shape();
    if (!spec.listed_in.empty() && (dtype_differs || shape_differs)) {
      return Status::InvalidArgument(
          "'" + path + "' is " + io::DTypeName(out->dtype()) + " " + io::ShapeText(out->shape()) +
          " but '" + spec.listed_in + "' lists it as " +
          (spec.dtype ? io::DTypeName(*spec.dtype) : "?") + " " +
          (spec.shape ? io::ShapeText(*spec.shape) : "?") + "; the manifest and the file disagree");
    }
    return Status::Ok();
  }
  if (!spec.dtype || !spec.shape) {
    // What is wrong with the file itself comes before what is missing to read it.
    if (!io::PathExists(path)) {
      return Status::InvalidArgument("cannot open '" + path + "': No such file or directory");
    }
    if (io::IsDirectory(path)) {
      return Status::InvalidArgument("'" + path + "' is not a regular file (it is a directory)");
    }
    return Status::InvalidArgument("'" + path + "' is a raw file (not .npy): its " +
                                   (spec.dtype ? "shape" : "dtype") + " is unknown; " +
                                   std::string(hint));
  }
  return io::ReadBinFile(path, *spec.dtype, *spec.shape, out);
}

bool ReportNonFinite(std::string_view command, std::string_view name, const io::Tensor& t,
                     io::Json* warnings) {
  const io::NonFinite nf = io::FindNonFinite(t);
  if (nf.first_index < 0) return false;
  const std::string msg = std::string(name) + " has " + std::to_string(nf.nan_count) + " NaN and " +
                          std::to_string(nf.inf_count) + " infinite value(s) (first at " +
                          io::IndexText(t.shape(), nf.first_index) + ")";
  Warn(command, msg);
  if (warnings != nullptr) warnings->push_back(msg);
  return true;
}

}  // namespace lngrad::cli
