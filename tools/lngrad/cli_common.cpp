#include "cli_common.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

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

namespace {

// Shortest text that reads back as `v` ("1e+40", "0.0001").
std::string FormatDouble(double v) {
  char buf[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace

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

Status ParseFloatOrHalf(std::string_view text, std::string_view command_does, io::DType* out) {
  io::DType d = io::DType::kFloat32;
  if (!io::ParseDType(text, &d).ok() || d == io::DType::kFloat64) {
    return Status::InvalidArgument("--dtype \"" + std::string(text) +
                                   "\" is not supported: " + std::string(command_does) +
                                   " float or half (also float32/f4/fp32, float16/f2/fp16)");
  }
  *out = d;
  return Status::Ok();
}

Status CheckEpsilon(double eps, std::string_view what, bool as_half) {
  const std::string name(what);
  if (!(eps >= 0) || std::isinf(eps)) {
    return Status::InvalidArgument(name + " must be finite and >= 0 (got " + FormatDouble(eps) +
                                   ")");
  }
  constexpr double kHalfMax = 65504;
  if (as_half && eps > kHalfMax) {
    return Status::InvalidArgument(
        name + " " + FormatDouble(eps) +
        " is too large: for half data the device kernels take epsilon as half, so it must be at "
        "most 65504 (the largest finite half)");
  }
  if (!std::isfinite(static_cast<float>(eps))) {
    return Status::InvalidArgument(name + " " + FormatDouble(eps) +
                                   " is too large: the kernels take epsilon as a float, so it "
                                   "must be at most 3.40282347e+38 (the largest finite float)");
  }
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

std::optional<double> Manifest::Number(std::string_view key) const {
  const io::Json* v = io::FindMember(json, key);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

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

Status WriteDataDir(io::OutputSet* out, std::span<const std::pair<std::string, io::Tensor>> files,
                    io::FileFormat format, io::Json* manifest,
                    std::span<const std::string> file_bases) {
  const std::string ext = FileExt(format);
  LNGRAD_RETURN_IF_ERROR(out->Open());
  for (size_t i = 0; i < files.size(); ++i) {
    const auto& [name, t] = files[i];
    const std::string file = (i < file_bases.size() ? file_bases[i] : name) + ext;
    LNGRAD_RETURN_IF_ERROR(out->AddTensor(file, t, format));
    (*manifest)["files"][name] = FileEntryJson(file, t);
  }
  LNGRAD_RETURN_IF_ERROR(
      out->AddBytes(std::string(kManifestName), io::DumpJson(*manifest, 2) + "\n"));
  return out->Commit();
}

int PrintJson(const io::Json& j) {
  std::printf("%s\n", io::DumpJson(j, 2).c_str());
  return kExitOk;
}

Status LoadTensor(const std::string& path, const BinSpec& spec, std::string_view hint,
                  io::Tensor* out) {
  if (io::FormatOfPath(path) == io::FileFormat::kNpy) return io::ReadNpyFile(path, out);
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
