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

#include "io/dir_lock.h"
#include "io/json.h"
#include "io/tensor.h"
#include "io/tensor_file.h"
#include "lngrad/arg_checks.h"
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

// --dtype of a command that computes in float, half or bfloat16: `command_does` says what for
// the message (e.g. "gen writes"). Other spellings, float64 included, are refused with the list
// of what this command takes.
Status ParseDataDType(std::string_view text, std::string_view command_does, io::DType* out);

// Why the device path (--impl ascendc, tiling) refuses bfloat16, in the vendor's words.
inline constexpr const char* kDeviceRefusesBf16 =
    "the device's LayerNormGrad family takes half or float, not bfloat16 (its CPU-debug check: "
    "\"template parameter (T) is not half or float\"); --impl native computes bfloat16";

// Epsilon rules: lngrad::CheckEpsilon (lngrad/arg_checks.h), shared with the Python module.

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

struct BinSpec;

// One tensor file as listed in a manifest: path relative to the manifest's directory.
struct FileEntry {
  std::string path;
  io::DType dtype = io::DType::kFloat32;
  std::vector<int64_t> shape;
  std::string manifest;  // the manifest's path, for messages
  // How LoadTensor reads it: raw in this dtype and shape, a .npy whose header must agree.
  BinSpec Spec() const;
};

// manifest.json of a data directory (written by gen and run).
struct Manifest {
  io::Json json;  // the whole document
  std::string dir;
  // Entry `key` of "files", or nullopt; an entry that is present but malformed is an error.
  Status File(std::string_view key, std::optional<FileEntry>* out) const;
  // All keys of "files", in file order.
  std::vector<std::string> FileKeys() const;
  // A number member (e.g. "eps"): nullopt when absent; a member that is not a number (e.g. the
  // string "1e-4") is an error naming the manifest and the member.
  Status Number(std::string_view key, std::optional<double>* out) const;
};

// Reads DIR/manifest.json if it exists (nullopt if not). A present but unreadable or invalid
// manifest is an error.
Status LoadManifest(const std::string& dir, std::optional<Manifest>* out);

// JSON description of a file entry ({"path", "dtype", "shape"}).
io::Json FileEntryJson(const std::string& path, const io::Tensor& t);

// ".npy" or ".bin".
std::string FileExt(io::FileFormat format);

// A file that a writer read and must not overwrite: a label for messages ("dy") and its path.
struct InputFile {
  std::string label;
  std::string path;
  // Its manifest entry ({"path", "dtype", "shape"} of the file as read), when known: listed in
  // the new manifest when the inputs lie in the output directory and it has no manifest yet, so
  // that the directory stays readable with --in.
  io::Json entry;
};

// Refuses (InvalidArgument naming both) when writing `names` into `dir` would replace one of
// `inputs`: paths are compared in canonical form (symlinks and "./" spellings resolved). A
// directory that does not exist yet holds no input.
Status CheckOutputsSpareInputs(const std::string& dir, std::span<const std::string> names,
                               std::span<const InputFile> inputs);

// How WriteDataDir treats what is already in its directory.
struct DataDirWrite {
  std::string_view command;  // "gen", "run": for the "waiting" note and the messages
  // The files the writer read, keyed by their manifest name ("dy", ...). None of them may be
  // overwritten. When the directory's manifest.json lists each of them at that path (run
  // writing into its own input directory), the directory stays that data set: its manifest
  // keeps its members and entries, the written entries are replaced or added, and the writer's
  // own members go under `nest_key`.
  std::vector<InputFile> inputs;
  std::string nest_key;
  // File names without the extension, one per tensor in order (run --names vendor); empty: each
  // tensor's manifest name.
  std::vector<std::string> file_bases;
};

// Whether a write of the manifest keys `keys` into `dir` is accepted (see WriteDataDir), checked
// before any work so that a refusal comes at once; WriteDataDir checks again under the lock.
// `keep` receives the manifest to extend, when there is one.
Status CheckDataDir(const std::string& dir, std::span<const std::string> keys,
                    const DataDirWrite& how, std::optional<Manifest>* keep);

// Before any work: CheckDataDir, then SIGINT/SIGTERM/SIGHUP cleanup (io::InstallSignalCleanup),
// then, when the directory exists, opens `out`, which takes its lock (waiting, with a note on
// stderr, while another process holds it). Holding the lock from before the inputs are read
// until the commit keeps a concurrent gen or run from changing the directory in between. A
// directory that does not exist yet is created and locked by WriteDataDir.
Status OpenDataDir(io::OutputSet* out, std::span<const std::string> keys, const DataDirWrite& how);

// Writes each tensor as <name><FileExt(format)> (or how.file_bases[i] + the extension), adds it
// to manifest["files"] under <name>, then writes the
// manifest as manifest.json, all into `out` (opened here unless OpenDataDir did) and committed
// together: all or nothing. A manifest.json already there is read under the lock; it is replaced
// when it lists only files that this write replaces, kept and extended as described for
// `DataDirWrite`, and otherwise the write is refused (InvalidArgument, nothing touched): a
// directory never ends up with a manifest that pairs files of two data sets, nor loses one's
// entries silently.
Status WriteDataDir(io::OutputSet* out, std::span<const std::pair<std::string, io::Tensor>> files,
                    io::FileFormat format, io::Json* manifest, const DataDirWrite& how = {});

// Locks `dirs` shared for reading (io::DirectoryReadLocks: each once, skipping `held`, an
// interrupted commit completed first), with a note on stderr while a writer holds one.
Status LockForReading(std::string_view command, const std::vector<std::string>& dirs,
                      const std::vector<std::string>& held, io::DirectoryReadLocks* locks);

// Refuses (InvalidArgument: "<what> needs about N GiB of memory, ...") when `bytes` exceed what
// this process can still get: MemAvailable plus SwapFree from /proc/meminfo, bounded by the
// cgroup's memory.max and by RLIMIT_AS / RLIMIT_DATA. Where none of these can be read, passes.
Status CheckMemory(std::string_view what, uint64_t bytes);

// Prints `j` (indented) on stdout and returns kExitOk: the --json report of a subcommand.
int PrintJson(const io::Json& j);

// How to read a raw .bin file: its dtype and shape, when known.
struct BinSpec {
  std::optional<io::DType> dtype;
  std::optional<std::vector<int64_t>> shape;
  // The manifest that lists the file, when the spec is its entry: a .npy file's header must then
  // have this dtype and shape (an error names both otherwise).
  std::string listed_in;
};

// Reads a tensor: .npy from its header (checked against spec when spec.listed_in is set);
// anything else as raw data of spec.dtype and spec.shape (both needed; the error names the
// missing option `hint`).
Status LoadTensor(const std::string& path, const BinSpec& spec, std::string_view hint,
                  io::Tensor* out);

// Reports non-finite values of an input tensor on stderr (and into `warnings`); returns true
// when there were any.
bool ReportNonFinite(std::string_view command, std::string_view name, const io::Tensor& t,
                     io::Json* warnings);

}  // namespace lngrad::cli
