// Shared pieces of the data subcommands (gen, run, verify, tiling, socs): exit codes, error
// reporting, option parsing helpers, the data-directory manifest, and loading tensors.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/json.h"
#include "io/tensor.h"
#include "io/tensor_file.h"
#include "lngrad/product.h"
#include "lngrad/status.h"

namespace lngrad::cli {

// Exit codes of every data subcommand (docs/cli.md).
inline constexpr int kExitOk = 0;
// verify: a mismatch; gen/run: the computation itself failed after its inputs were accepted.
inline constexpr int kExitFailed = 1;
// The request was refused: usage error, unreadable/malformed/inconsistent input, unwritable
// output, a constraint of the chosen path (e.g. H alignment on the device path).
inline constexpr int kExitRefused = 2;

inline constexpr std::string_view kVersion = "0.1.0";
// "format" value of the manifest.json files that gen and run write.
inline constexpr std::string_view kManifestFormat = "lngrad-data/1";
inline constexpr std::string_view kManifestName = "manifest.json";

// Prints "lngrad <command>: error: <message>" on stderr and returns `code`.
int Fail(std::string_view command, const Status& st, int code = kExitRefused);
int Fail(std::string_view command, const std::string& message, int code = kExitRefused);
// Prints "lngrad <command>: warning: <message>" on stderr.
void Warn(std::string_view command, const std::string& message);

// Parses a decimal or 0x-prefixed unsigned integer; `what` names the option.
Status ParseUint(std::string_view text, std::string_view what, uint64_t max, uint64_t* out);
// Parses a finite double; `what` names the option.
Status ParseFiniteDouble(std::string_view text, std::string_view what, double* out);

// --dtype of a command that computes in float or half: `command_does` says what for the
// message (e.g. "gen writes"). Other spellings, float64 included, are refused with the list of
// what this command takes.
Status ParseFloatOrHalf(std::string_view text, std::string_view command_does, io::DType* out);

// Epsilon rules: >= 0 and finite once converted to the type the kernels take it in (float; for
// half data on the device also half, whose largest finite value is 65504). `what` names the
// option or the manifest it came from.
Status CheckEpsilon(double eps, std::string_view what, bool as_half);

// The product a subcommand runs on: --soc when given, else LNGRAD_SOC, else Ascend910B1. An
// unknown name from either is an error, never replaced by the default.
Status ChooseProduct(std::string_view soc_option, const lngrad::Product** out);

// LNGRAD_IMPL, which the native library and the simulated core read: an unknown value is an
// error (InvalidArgument) before any work.
Status CheckImplEnvironment();

// --out before anything is computed: a symbolic link whose target is missing (mkdir would say
// "File exists") is refused with what it points to.
Status CheckOutputPath(std::string_view option, const std::string& path);

// `path` as seen from directory `dir` (e.g. "../gen/dy.npy"), for a manifest that must stay
// valid wherever the two directories are seen from.
std::string PathRelativeTo(const std::string& path, const std::string& dir);

// One tensor file as listed in a manifest: path relative to the manifest's directory.
struct FileEntry {
  std::string path;
  io::DType dtype = io::DType::kFloat32;
  std::vector<int64_t> shape;
};

// manifest.json of a data directory (written by gen and run).
struct Manifest {
  io::Json json;  // the whole document
  std::string dir;
  // Entry `key` of "files", or nullopt; an entry that is present but malformed is an error.
  Status File(std::string_view key, std::optional<FileEntry>* out) const;
  // All keys of "files", in file order.
  std::vector<std::string> FileKeys() const;
  // A number member (e.g. "eps"), if present.
  std::optional<double> Number(std::string_view key) const;
};

// Reads DIR/manifest.json if it exists (nullopt if not). A present but unreadable or invalid
// manifest is an error.
Status LoadManifest(const std::string& dir, std::optional<Manifest>* out);

// JSON description of a file entry ({"path", "dtype", "shape"}).
io::Json FileEntryJson(const std::string& path, const io::Tensor& t);

// ".npy" or ".bin".
std::string FileExt(io::FileFormat format);

// Writes each tensor as <name><FileExt(format)> (or <file_bases[i]><ext> when given), adds it
// to manifest["files"] under <name>, then writes the manifest as manifest.json, all into `out`
// (opened here) and committed together: all or nothing.
Status WriteDataDir(io::OutputSet* out, std::span<const std::pair<std::string, io::Tensor>> files,
                    io::FileFormat format, io::Json* manifest,
                    std::span<const std::string> file_bases = {});

// Prints `j` (indented) on stdout and returns kExitOk: the --json report of a subcommand.
int PrintJson(const io::Json& j);

// How to read a raw .bin file: its dtype and shape, when known.
struct BinSpec {
  std::optional<io::DType> dtype;
  std::optional<std::vector<int64_t>> shape;
};

// Reads a tensor: .npy from its header; anything else as raw data of spec.dtype and
// spec.shape (both needed; the error names the missing option `hint`).
Status LoadTensor(const std::string& path, const BinSpec& spec, std::string_view hint,
                  io::Tensor* out);

// Reports non-finite values of an input tensor on stderr (and into `warnings`); returns true
// when there were any.
bool ReportNonFinite(std::string_view command, std::string_view name, const io::Tensor& t,
                     io::Json* warnings);

}  // namespace lngrad::cli
