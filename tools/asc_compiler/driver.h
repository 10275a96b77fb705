// lngrad-asc: the command line of the ASC compiler driver, as a pure function.
//
// The driver takes a C++ compiler's command line with .asc sources (and the vendor's device
// options), and turns it into the command of the configured C++ compiler: each .asc input is
// replaced by its rewritten copy (rewrite.h), and the Ascend C definitions, the include root
// and the launcher header are added. Everything else reaches the compiler unchanged, so the
// driver also links (no .asc input: the command is passed through as it is).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lngrad/product.h"
#include "lngrad/status.h"

namespace lngrad::asc_compiler {

inline constexpr std::string_view kDefaultNpuArch = "dav-2201";

// --npu-arch values: dav-2201, dav-2002 or dav-3510 (the architectures of the vendor's CPU
// mode). InvalidArgument naming the value and listing those otherwise.
Status ParseNpuArch(std::string_view value, NpuArch* arch);
// The product a build for `arch` simulates unless LNGRAD_SOC says otherwise: the first product
// of that architecture in the product table (Ascend910B1, Ascend310P1, Ascend950PR_9599).
std::string_view DefaultSocOf(NpuArch arch);

struct DriverConfig {
  std::string cxx;           // the C++ compiler (--cxx overrides it)
  std::string include_root;  // include/ascendc of this lngrad (include/ holds lngrad/*.h)
};

// An .asc input and the slot of the compiler's argv that receives its rewritten copy.
struct AscSource {
  std::string path;      // as given on the command line
  size_t arg_index = 0;  // index into Invocation::argv
  std::string cpp_name;  // file name of the rewritten copy: "<stem>.cpp"
};

struct Invocation {
  enum class Action { kRun, kHelp, kVersion };
  Action action = Action::kRun;
  std::string cxx;                // the C++ compiler
  std::vector<std::string> argv;  // the compiler's command line; argv[0] is cxx
  std::vector<AscSource> sources;
  NpuArch arch = NpuArch::k2201;
  std::string soc;            // LNGRAD_DEFAULT_SOC
  std::string output;         // -o, "" when absent
  std::string depfile;        // the dependency file the compiler writes (-MD/-MMD), "" when none
  bool rewrite_only = false;  // --rewrite-only: print the rewritten source, do not compile
  bool dry_run = false;       // --dry-run: print the compiler's command, do not run it
  bool cce_auto_sync = true;  // --cce-auto-sync=on|off (LNGRAD_CCE_AUTO_SYNC for the sanitizer)
  bool simt = false;          // --enable-simt: SIMT launches and block-shared __ubuf__ arrays
  bool sanitizer = false;     // --sanitizer was given (no effect on the command)
};

// Parses the driver's arguments (argv without the program name). InvalidArgument for an
// unknown --npu-arch, a -std older than C++20, an option missing its value, an unclosed
// -Xaicore-start, --rewrite-only without exactly one .asc input; Unsupported for
// --run-mode=npu|sim (lngrad runs kernels on the CPU), --enable-simt and the --cce-* options of
// builds lngrad does not make (device static library, AI CPU, host-only, device-only). Other
// --cce-* options (device code generation) are dropped.
Status ParseCommandLine(const std::vector<std::string>& args, const DriverConfig& config,
                        Invocation* inv);

// The driver's --help text.
std::string HelpText();

// `path` written for a make rule (depfile): spaces, '#' and '$' escaped.
std::string MakeEscape(std::string_view path);

}  // namespace lngrad::asc_compiler
