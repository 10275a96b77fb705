// lngrad-asc: the ASC compiler driver (driver.h, rewrite.h). Reads the .asc inputs, writes their
// rewritten copies to a scratch directory, runs the C++ compiler on them and puts the .asc back
// into the dependency file the compiler wrote.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "driver.h"
#include "rewrite.h"

namespace {

namespace asc = lngrad::asc_compiler;

constexpr const char* kProgram = "lngrad-asc";

int Fail(const std::string& message) {
  std::fprintf(stderr, "%s: error: %s\n", kProgram, message.c_str());
  return 1;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *out = s.str();
  return !in.bad();
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

bool IsFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Installed: <prefix>/bin/lngrad-asc next to <prefix>/include/ascendc. In the build tree the
// source tree's include root.
std::string IncludeRoot() {
  std::vector<char> buf(4096);
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n > 0) {
    std::string exe(buf.data(), static_cast<size_t>(n));
    const std::string dir = exe.substr(0, exe.rfind('/'));
    const std::string installed = dir + "/" + LNGRAD_ASC_RELATIVE_INCLUDE_ROOT;
    if (IsFile(installed + "/kernel_operator/kernel_operator.h")) return installed;
  }
  return LNGRAD_ASC_SOURCE_INCLUDE_ROOT;
}

std::string ShellQuote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-+=/.,:@%") == std::string::npos) {
    return s;
  }
  std::string q = "'";
  for (const char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

// Runs argv; the exit status of the compiler (128 + signal when it was killed).
int Run(const std::vector<std::string>& argv) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return Fail(std::string("cannot start the C++ compiler: ") + std::strerror(errno));
  if (pid == 0) {
    ::execvp(cargv[0], cargv.data());
    std::fprintf(stderr, "%s: error: cannot run the C++ compiler %s: %s\n", kProgram, cargv[0],
                 std::strerror(errno));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Fail(std::string("waitpid: ") + std::strerror(errno));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// The scratch directory of the rewritten copies, removed with them.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/lngrad-asc-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ScratchDir() {
    for (auto it = files_.rbegin(); it != files_.rend(); ++it) ::remove(it->c_str());
    if (!path_.empty()) ::rmdir(path_.c_str());
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  // A file or directory to remove (in reverse order) with the directory.
  void Own(const std::string& p) { files_.push_back(p); }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

// The compiler named the rewritten copies in the dependency file; make and ninja must see the
// .asc sources instead.
void FixDepfile(const std::string& depfile,
                const std::vector<std::pair<std::string, std::string>>& copies) {
  std::string text;
  if (depfile.empty() || !ReadFile(depfile, &text)) return;
  for (const auto& [copy, original] : copies) {
    const std::string escaped = asc::MakeEscape(original);
    for (size_t at = text.find(copy); at != std::string::npos;
         at = text.find(copy, at + escaped.size())) {
      text.replace(at, copy.size(), escaped);
    }
  }
  if (!WriteFile(depfile, text)) {
    std::fprintf(stderr, "%s: warning: cannot rewrite the dependency file %s\n", kProgram,
                 depfile.c_str());
  }
}

// The headers beside an .asc that it includes by a plain name (`#include "x.h"`) and that hold a
// __ubuf__ declaration get the .asc's __ubuf__ rewrite too: their rewritten copies go beside the
// .asc's copy in dir, where the compiler looks first. Returns false when one cannot be written.
bool RewriteSiblingHeaders(const asc::AscSource& s, const std::string& text,
                           asc::RewriteOptions options, const std::string& dir, ScratchDir* scratch,
                           std::vector<std::pair<std::string, std::string>>* copies) {
  const size_t slash = s.path.rfind('/');
  const std::string src_dir = slash == std::string::npos ? "." : s.path.substr(0, slash);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t inc = line.find("#include \"");
    if (inc == std::string::npos || line.find_first_not_of(" \t") != inc) continue;
    const size_t begin = inc + 10, end = line.find('"', begin);
    const std::string name = end == std::string::npos ? "" : line.substr(begin, end - begin);
    const std::string header = src_dir + "/" + name;
    std::string body;
    if (name.empty() || name.find('/') != std::string::npos || !IsFile(header) ||
        !ReadFile(header, &body) || body.find("__ubuf__") == std::string::npos) {
      continue;
    }
    asc::RewriteResult r = asc::RewriteLaunches(body, header, options);
    if (!r.errors.empty() || r.text == body) continue;
    const std::string copy = dir + "/" + name;
    scratch->Own(copy);
    if (!WriteFile(copy, r.text)) return false;
    copies->emplace_back(copy, header);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  asc::DriverConfig config;
  const char* env_cxx = std::getenv("LNGRAD_ASC_CXX");
  config.cxx = env_cxx != nullptr && *env_cxx != '\0' ? env_cxx : LNGRAD_ASC_DEFAULT_CXX;
  config.include_root = IncludeRoot();

  asc::Invocation inv;
  if (const lngrad::Status st = asc::ParseCommandLine(args, config, &inv); !st.ok()) {
    return Fail(st.message());
  }
  if (inv.action == asc::Invocation::Action::kHelp) {
    std::cout << asc::HelpText();
    return 0;
  }
  if (inv.action == asc::Invocation::Action::kVersion) {
    std::cout << kProgram << " (lngrad " << LNGRAD_ASC_VERSION << "), C++ compiler " << inv.cxx
              << ", Ascend C include root " << config.include_root << "\n";
    return 0;
  }

  std::vector<std::string> rewritten;
  for (const asc::AscSource& s : inv.sources) {
    std::string text;
    if (!ReadFile(s.path, &text))
      return Fail("cannot read " + s.path + ": " + std::strerror(errno));
    asc::RewriteResult r = asc::RewriteLaunches(text, s.path, {.simt = inv.simt, .block_ub = true});
    if (!r.errors.empty()) {
      for (const asc::Diagnostic& d : r.errors) {
        std::fprintf(stderr, "%s\n", asc::FormatDiagnostic(s.path, d).c_str());
      }
      return 1;
    }
    rewritten.push_back(std::move(r.text));
  }
  if (inv.rewrite_only) {
    if (inv.output.empty() || inv.output == "-") {
      std::cout << rewritten.front();
      return std::cout ? 0 : 1;
    }
    return WriteFile(inv.output, rewritten.front()) ? 0 : Fail("cannot write " + inv.output);
  }

  std::optional<ScratchDir> scratch;
  std::vector<std::pair<std::string, std::string>> copies;  // rewritten copy, .asc
  if (!inv.sources.empty()) {
    scratch.emplace();
    if (scratch->path().empty()) {
      return Fail(std::string("cannot create a scratch directory: ") + std::strerror(errno));
    }
  }
  for (size_t k = 0; k < inv.sources.size(); ++k) {
    // One directory per input: two inputs may share a file name.
    const std::string dir = scratch->path() + "/" + std::to_string(k);
    if (::mkdir(dir.c_str(), 0700) != 0) return Fail("cannot create " + dir);
    scratch->Own(dir);
    const std::string copy = dir + "/" + inv.sources[k].cpp_name;
    scratch->Own(copy);
    if (!WriteFile(copy, rewritten[k])) return Fail("cannot write " + copy);
    inv.argv[inv.sources[k].arg_index] = copy;
    copies.emplace_back(copy, inv.sources[k].path);
    if (!RewriteSiblingHeaders(inv.sources[k], rewritten[k], {.simt = inv.simt, .block_ub = true},
                               dir, &*scratch, &copies)) {
      return Fail("cannot write a rewritten header in " + dir);
    }
  }
  if (inv.dry_run) {
    std::string line;
    for (const std::string& a : inv.argv) line += (line.empty() ? "" : " ") + ShellQuote(a);
    std::cout << line << "\n";
    return 0;
  }
  const int rc = Run(inv.argv);
  FixDepfile(inv.depfile, copies);
  return rc;
}
