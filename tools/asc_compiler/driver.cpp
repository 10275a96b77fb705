// The driver's command line (driver.h).
#include "driver.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace lngrad::asc_compiler {
namespace {

struct ArchName {
  std::string_view option;
  NpuArch arch;
};
// The Ascend C include roots under include/ascendc, one per layer (CONTRIBUTING.md's table of
// layers): kernel code sees them all, as with lngrad::ascendc.
constexpr std::array<std::string_view, 10> kLayerRoots = {
    "kernel_operator", "aicore",  "adv", "tiling_data", "tiling_host", "simt", "reg", "cube",
    "matmul",          "acl_host"};

constexpr std::array<ArchName, 3> kArchs = {{
    {"dav-2201", NpuArch::k2201},
    {"dav-2002", NpuArch::k2002},
    {"dav-3510", NpuArch::k3510},
}};

// GCC/Clang options whose value may come as the next argument.
constexpr std::array<std::string_view, 28> kOptionsWithValue = {
    "-o",
    "-I",
    "-D",
    "-U",
    "-MF",
    "-MT",
    "-MQ",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-iprefix",
    "-iwithprefix",
    "-isysroot",
    "-Xlinker",
    "-Xpreprocessor",
    "-Xassembler",
    "-L",
    "-l",
    "-T",
    "-u",
    "-z",
    "--param",
    "-aux-info",
    "-iwithprefixbefore",
    "-imultilib",
    "-B",
};

bool TakesValue(std::string_view a) {
  return std::find(kOptionsWithValue.begin(), kOptionsWithValue.end(), a) !=
         kOptionsWithValue.end();
}

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string DirName(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

// "op.asc" -> "op"; "archive.tar.asc" -> "archive.tar"; "noext" -> "noext".
std::string_view Stem(std::string_view path) {
  const std::string_view base = BaseName(path);
  const size_t dot = base.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? base : base.substr(0, dot);
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// -std values older than C++20 ("c++17", "gnu++1z", ...).
bool OlderThanCxx20(std::string_view std) {
  for (const std::string_view old :
       {"c++98", "c++03", "c++0x", "c++11", "c++1y", "c++14", "c++1z", "c++17", "gnu++98",
        "gnu++03", "gnu++0x", "gnu++11", "gnu++1y", "gnu++14", "gnu++1z", "gnu++17"}) {
    if (std == old) return true;
  }
  return false;
}

}  // namespace

Status ParseNpuArch(std::string_view value, NpuArch* arch) {
  for (const ArchName& a : kArchs) {
    if (value == a.option) {
      *arch = a.arch;
      return Status::Ok();
    }
  }
  return Status::InvalidArgument("--npu-arch=" + std::string(value) +
                                 ": unknown architecture (lngrad simulates dav-2201, dav-2002 "
                                 "and dav-3510)");
}

std::string_view DefaultSocOf(NpuArch arch) {
  for (const Product& p : AllProducts()) {
    if (p.arch == arch) return p.soc;
  }
  return CurrentProduct().soc;  // unreachable for the architectures ParseNpuArch accepts
}

std::string MakeEscape(std::string_view path) {
  std::string s;
  for (const char c : path) {
    if (c == ' ' || c == '#') s += '\\';
    if (c == '$') s += '$';
    s += c;
  }
  return s;
}

namespace {

// The command line as scanned, before the compiler's command is assembled.
struct ScannedArgs {
  std::string cxx;
  std::vector<std::string> user;     // the arguments that reach the compiler
  std::vector<size_t> source_slots;  // indices into `user` of the .asc inputs
  bool lang_asc = false;             // inside `-x asc`
  bool lang_other = false;           // inside another `-x <language>`
  bool user_std = false;
  bool user_sanitizer = false;  // the user's own -fsanitize=...
  bool compile_only = false;    // -c, -S or -E: no link
  bool wants_depfile = false;   // -MD or -MMD
  std::string arch_option{kDefaultNpuArch};
};

// The value of the option at args[*i], the next argument (*i then points at it).
Status NextValue(const std::vector<std::string>& args, size_t* i, std::string_view option,
                 std::string* out) {
  if (*i + 1 >= args.size()) {
    return Status::InvalidArgument(std::string(option) + " needs a value");
  }
  *out = args[++*i];
  return Status::Ok();
}

// The driver's own options (*taken: args[*i] was one).
Status TakeDriverOption(const std::vector<std::string>& args, size_t* i, ScannedArgs* p,
                        Invocation* inv, bool* taken) {
  const std::string& a = args[*i];
  *taken = true;
  if (a == "--version") {
    inv->action = Invocation::Action::kVersion;
  } else if (a.rfind("--npu-arch=", 0) == 0) {
    p->arch_option = a.substr(11);
  } else if (a == "--npu-arch") {
    LNGRAD_RETURN_IF_ERROR(NextValue(args, i, a, &p->arch_option));
  } else if (a.rfind("--run-mode=", 0) == 0) {
    const std::string mode = a.substr(11);
    if (mode == "cpu") return Status::Ok();
    if (mode == "npu" || mode == "sim") {
      return Status::Unsupported(a +
                                 ": lngrad runs Ascend C kernels on the CPU (a simulated AI "
                                 "core); there is no NPU or simulator build (use --run-mode=cpu)");
    }
    return Status::InvalidArgument(a + ": unknown run mode (only cpu)");
  } else if (a == "--cce-auto-sync") {
    inv->cce_auto_sync = true;
  } else if (a.rfind("--cce-auto-sync=", 0) == 0) {
    const std::string v = a.substr(16);
    if (v != "on" && v != "off") {
      return Status::InvalidArgument(a + ": --cce-auto-sync takes on or off");
    }
    inv->cce_auto_sync = v == "on";
  } else if (a.rfind("--cxx=", 0) == 0) {
    p->cxx = a.substr(6);
    if (p->cxx.empty()) return Status::InvalidArgument("--cxx= needs the C++ compiler's path");
  } else if (a == "--rewrite-only") {
    inv->rewrite_only = true;
  } else if (a == "--dry-run") {
    inv->dry_run = true;
  } else {
    *taken = false;
  }
  return Status::Ok();
}

// The device compiler's options (*taken: args[*i] was one), accepted and dropped or refused.
Status TakeDeviceOption(const std::vector<std::string>& args, size_t* i, Invocation* inv,
                        bool* taken) {
  const std::string& a = args[*i];
  *taken = true;
  // The device compiler's own options (bisheng's --cce-*) tune device code generation, its
  // resource report or its automatic synchronisation log; a CPU build has nothing for them to
  // act on, so they are accepted and dropped (also from link lines). Those that would change
  // what is built into something lngrad cannot build are errors.
  if (a.rfind("--cce-", 0) == 0) {
    for (const std::string_view refused :
         {"--cce-build-static-lib", "--cce-aicpu", "--cce-host-only", "--cce-aicore-only"}) {
      if (a.rfind(refused, 0) == 0) {
        return Status::Unsupported(a +
                                   ": lngrad-asc builds one CPU object (host and simulated "
                                   "device code together); it has no device-only, host-only, "
                                   "AI CPU or device static-library builds");
      }
    }
    return Status::Ok();
  }
  // bisheng is clang-based: the kit's PyTorch samples give it --gcc-toolchain=<GCC's prefix> to
  // find GCC's C++ library. The CPU build uses the project's own C++ compiler with its own
  // library, so the option is dropped (GCC refuses it), on compile and link lines alike.
  if (a.rfind("--gcc-toolchain=", 0) == 0) return Status::Ok();
  if (a == "--enable-simt") {
    inv->simt = true;
    return Status::Ok();
  }
  // msSanitizer's instrumentation: lngrad's kernel APIs always record their accesses (the
  // pipeline sanitizer is switched on at run time, LNGRAD_SANITIZE or `lngrad sanitize`).
  if (a == "--sanitizer") {
    inv->sanitizer = true;
    return Status::Ok();
  }
  // ascendc_compile_options(): host options pass, device compiler options have no meaning
  // for the CPU build.
  if (a == "-Xhost-start" || a == "-Xhost-end" || a == "-Xaicore-end") return Status::Ok();
  if (a == "-Xaicore-start") {
    while (*i + 1 < args.size() && args[*i + 1] != "-Xaicore-end") ++*i;
    if (*i + 1 >= args.size()) {
      return Status::InvalidArgument("-Xaicore-start without its -Xaicore-end");
    }
    return Status::Ok();
  }
  *taken = false;
  return Status::Ok();
}

// An argument for the C++ compiler: kept in p->user, the .asc inputs among them noted.
Status TakeCompilerArg(const std::vector<std::string>& args, size_t* i, ScannedArgs* p,
                       Invocation* inv) {
  const std::string& a = args[*i];
  if (a == "-x" || (a.rfind("-x", 0) == 0 && a.size() > 2)) {
    std::string lang = a.size() > 2 ? a.substr(2) : "";
    if (a == "-x") LNGRAD_RETURN_IF_ERROR(NextValue(args, i, a, &lang));
    p->lang_asc = lang == "asc";
    p->lang_other = !p->lang_asc && lang != "none";
    p->user.push_back("-x");
    // The rewritten copy is C++; a later `-x` still applies to the inputs after it.
    p->user.push_back(p->lang_asc ? "c++" : lang);
    return Status::Ok();
  }
  if (a.rfind("-std=", 0) == 0) {
    if (OlderThanCxx20(a.substr(5))) {
      return Status::InvalidArgument(a +
                                     ": lngrad's Ascend C headers need C++20 or later "
                                     "(-std=c++20, the driver's default)");
    }
    p->user_std = true;
  }
  if (a.rfind("-fsanitize=", 0) == 0) p->user_sanitizer = true;
  if (a == "-c" || a == "-S" || a == "-E") p->compile_only = true;
  if (a == "-MD" || a == "-MMD") p->wants_depfile = true;
  if (a == "-o" || a == "-MF") {
    std::string v;
    LNGRAD_RETURN_IF_ERROR(NextValue(args, i, a, &v));
    (a == "-o" ? inv->output : inv->depfile) = v;
    p->user.push_back(a);
    p->user.push_back(v);
    return Status::Ok();
  }
  if (a.rfind("-MF", 0) == 0 && a.size() > 3) inv->depfile = a.substr(3);
  if (a.rfind("-o", 0) == 0 && a.size() > 2) inv->output = a.substr(2);
  if (TakesValue(a)) {
    std::string v;
    LNGRAD_RETURN_IF_ERROR(NextValue(args, i, a, &v));
    p->user.push_back(a);
    p->user.push_back(v);
    return Status::Ok();
  }
  const bool input = a == "-" || a.empty() || a[0] != '-';
  if (input && (p->lang_asc || (!p->lang_other && EndsWith(a, ".asc")))) {
    p->source_slots.push_back(p->user.size());
    inv->sources.push_back({a, 0, std::string(Stem(a)) + ".cpp"});
  }
  p->user.push_back(a);
  return Status::Ok();
}

// Every argument in order; stops at --help.
Status ScanArgs(const std::vector<std::string>& args, ScannedArgs* p, Invocation* inv) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help") {
      inv->action = Invocation::Action::kHelp;
      return Status::Ok();
    }
    bool taken = false;
    LNGRAD_RETURN_IF_ERROR(TakeDriverOption(args, &i, p, inv, &taken));
    if (!taken) LNGRAD_RETURN_IF_ERROR(TakeDeviceOption(args, &i, inv, &taken));
    if (!taken) LNGRAD_RETURN_IF_ERROR(TakeCompilerArg(args, &i, p, inv));
  }
  return Status::Ok();
}

// A -MD/-MMD compile without -MF: the depfile named as GCC would (from -o, else from the input),
// explicitly: the input the compiler sees is the rewritten copy.
void AddDepfile(Invocation* inv) {
  if (!inv->output.empty()) {
    const std::string_view base = BaseName(inv->output);
    const size_t dot = base.rfind('.');
    const size_t cut = dot == std::string_view::npos || dot == 0
                           ? inv->output.size()
                           : inv->output.size() - (base.size() - dot);
    inv->depfile = inv->output.substr(0, cut) + ".d";
  } else {
    inv->depfile = std::string(Stem(inv->sources.front().path)) + ".d";
  }
  inv->argv.push_back("-MF");
  inv->argv.push_back(inv->depfile);
}

// --sanitizer on the 950 (--enable-simt, or dav-3510, whose hybrid kernels run SIMT vector
// functions without --enable-simt): the SIMT race checker's instrumentation
// (src/simt/racecheck.h): ThreadSanitizer's compiler pass without its run-time library
// (lngrad_simt defines the functions it calls; outside a SIMT thread they do nothing but the
// access), and debug information for the report's source lines. Not with the user's own
// -fsanitize=... (two sanitizers' passes do not mix): those builds run without the checker.
void AddSimtInstrumentation(const ScannedArgs& p, Invocation* inv) {
  if (p.user_sanitizer) return;
  inv->argv.push_back("-fsanitize=thread");
  if (BaseName(p.cxx).find("clang") != std::string_view::npos) {
    inv->argv.insert(inv->argv.end(), {"-mllvm", "-tsan-instrument-func-entry-exit=0", "-mllvm",
                                       "-tsan-distinguish-volatile=1"});
  } else {
    inv->argv.push_back("--param=tsan-instrument-func-entry-exit=0");
    inv->argv.push_back("--param=tsan-distinguish-volatile=1");
  }
  inv->argv.push_back("-g");
}

// The compiler's command for .asc inputs: the user's arguments between lngrad's definitions and
// include directories.
void BuildAscArgv(const ScannedArgs& p, const DriverConfig& config, Invocation* inv) {
  if (!p.user_std) inv->argv.push_back("-std=c++20");
  inv->argv.push_back("-DASCENDC_CPU_DEBUG");
  inv->argv.push_back("-D__NPU_ARCH__=" + std::string(NpuArchName(inv->arch)));
  inv->argv.push_back("-DLNGRAD_DEFAULT_SOC=\"" + inv->soc + "\"");
  if (!inv->cce_auto_sync) inv->argv.push_back("-DLNGRAD_CCE_AUTO_SYNC=0");
  // The compiler reads the rewritten copy from a scratch directory: `#include "x.h"` must still
  // find x.h beside the .asc, before any -I.
  std::vector<std::string> dirs;
  for (const AscSource& s : inv->sources) {
    const std::string dir = DirName(s.path);
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  for (const std::string& dir : dirs) {
    inv->argv.push_back("-iquote");
    inv->argv.push_back(dir);
  }
  const size_t offset = inv->argv.size();
  inv->argv.insert(inv->argv.end(), p.user.begin(), p.user.end());
  for (size_t k = 0; k < inv->sources.size(); ++k) {
    inv->sources[k].arg_index = offset + p.source_slots[k];
  }
  // After the user's -I, so that a project may shadow one of our headers. The Ascend C headers
  // include lngrad's own (lngrad/status.h) from the directory above.
  for (const std::string_view root : kLayerRoots) {
    inv->argv.push_back("-I" + config.include_root + "/" + std::string(root));
  }
  inv->argv.push_back("-I" + DirName(config.include_root));
  inv->argv.push_back("-include");
  inv->argv.push_back("lngrad_acl/launch.h");
  // The device compiler knows the SIMT built-ins (__global__, threadIdx, the warp functions)
  // without an include, as a CUDA compiler does.
  if (inv->simt) {
    inv->argv.push_back("-include");
    inv->argv.push_back("simt_api/asc_simt.h");
  }
  if (inv->sanitizer && (inv->simt || inv->arch == NpuArch::k3510)) AddSimtInstrumentation(p, inv);
  if (p.wants_depfile && inv->depfile.empty() && p.compile_only) AddDepfile(inv);
}

}  // namespace

// scan the arguments -> check the request -> assemble the compiler's command.
Status ParseCommandLine(const std::vector<std::string>& args, const DriverConfig& config,
                        Invocation* inv) {
  *inv = Invocation{};
  ScannedArgs p;
  p.cxx = config.cxx;
  LNGRAD_RETURN_IF_ERROR(ScanArgs(args, &p, inv));
  if (inv->action == Invocation::Action::kHelp) return Status::Ok();
  inv->cxx = p.cxx;
  if (inv->action != Invocation::Action::kRun) return Status::Ok();
  LNGRAD_RETURN_IF_ERROR(ParseNpuArch(p.arch_option, &inv->arch));
  inv->soc = std::string(DefaultSocOf(inv->arch));
  if (inv->rewrite_only && inv->sources.size() != 1) {
    return Status::InvalidArgument("--rewrite-only needs exactly one .asc input, got " +
                                   std::to_string(inv->sources.size()));
  }
  for (const AscSource& s : inv->sources) {
    if (s.path == "-") {
      return Status::InvalidArgument("-x asc -: the .asc source must be a file, not stdin");
    }
  }
  if (p.cxx.empty()) return Status::InvalidArgument("no C++ compiler configured (--cxx=PATH)");

  inv->argv.push_back(p.cxx);
  if (inv->sources.empty()) {
    // Linking, or plain C++: the compiler's own command line.
    inv->argv.insert(inv->argv.end(), p.user.begin(), p.user.end());
    return Status::Ok();
  }
  BuildAscArgv(p, config, inv);
  return Status::Ok();
}

std::string HelpText() {
  return R"(usage: lngrad-asc [driver options] [C++ compiler options] files...

The ASC compiler of lngrad: compiles Ascend C sources (.asc) for the simulated AI core on the
CPU. Each kernel<<<numBlocks, l2ctrl, stream>>>(args) launch becomes a call of
::lngrad::acl::LaunchKernel; the rewritten source keeps the .asc's line numbers (#line), and the
configured C++ compiler compiles it as C++20 with ASCENDC_CPU_DEBUG, __NPU_ARCH__ and
LNGRAD_DEFAULT_SOC defined, lngrad's Ascend C include roots on the include path and
lngrad_acl/launch.h force-included. Without .asc inputs the command goes to the C++ compiler
unchanged (linking).

driver options:
  --npu-arch=ARCH        dav-2201 (default; Ascend910B1), dav-2002 (Ascend310P1) or dav-3510
                         (Ascend950PR_9599): __NPU_ARCH__ and the simulated product
                         (LNGRAD_SOC still chooses another one at run time)
  --run-mode=cpu         accepted; npu and sim are errors (lngrad runs kernels on the CPU)
  --cce-auto-sync=on|off the compiler's automatic S/V/MTE synchronisation (default on); off
                         defines LNGRAD_CCE_AUTO_SYNC=0, and the sanitizer (LNGRAD_SANITIZE)
                         then no longer counts those syncs
  --cxx=PATH             the C++ compiler (default: $LNGRAD_ASC_CXX, else the one lngrad was
                         built with)
  -x asc                 the inputs that follow are .asc sources, whatever their extension
  -Xhost-start ... -Xhost-end      options for the C++ compiler (passed on)
  -Xaicore-start ... -Xaicore-end  device compiler options (ignored)
  --gcc-toolchain=DIR    clang's GCC prefix (the kit's PyTorch samples): ignored
  --cce-*                device code-generation options (ignored; --cce-build-static-lib,
                         --cce-aicpu-*, --cce-host-only and --cce-aicore-only are errors)
  --sanitizer            every build can run under the pipeline sanitizer (lngrad sanitize --
                         ./demo, or LNGRAD_SANITIZE=all ./demo); with --enable-simt or
                         --npu-arch=dav-3510 it also instruments the SIMT code (SIMT and
                         hybrid kernels) for the race checker between threads
                         (-fsanitize=thread without its run-time library, and -g)
  --enable-simt          SIMT kernels (dav-3510): four-argument launches
                         <<<grid, threads, dynUbBytes, stream>>> run every thread on its own
                         fiber; `__ubuf__ T name[N];` inside a function is block-shared UB and
                         `extern __ubuf__ T name[];` the launch's dynamic UB
  --rewrite-only         print the rewritten C++ (to -o FILE or stdout), do not compile
  --dry-run              print the C++ compiler's command, do not run it
  --help, --version
)";
}

}  // namespace lngrad::asc_compiler
