// `lngrad sanitize`: runs a program with the pipeline sanitizer on (LNGRAD_SANITIZE), in the
// spirit of the vendor's msSanitizer (docs/ascendc_compat.md, "The pipeline sanitizer").
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli_common.h"
#include "command.h"
#include "lngrad_aicore/sanitizer.h"

namespace lngrad::cli {
namespace {

constexpr const char* kDescription =
    "Run PROGRAM with the pipeline sanitizer on for every kernel launch it makes (Ascend C\n"
    "kernels on the simulated AI core): racecheck (unsynchronised accesses of different pipes,\n"
    "and of different blocks to GM), initcheck (reads of UB or device memory nothing wrote),\n"
    "synccheck (WaitFlag without SetFlag, flags left set, event IDs out of range or never\n"
    "released). A launch with findings prints them all and fails (ICPU_RUN_KF throws, Launch\n"
    "returns the error, aclrtSynchronizeStream returns ACL_ERROR_RT_AICORE_EXCEPTION).\n"
    "Exit code: PROGRAM's (128 + signal when a signal ended it), 2 when it could not be run.\n"
    "Example: lngrad sanitize --tool racecheck -- ./demo";

struct SanitizeOptions {
  std::vector<std::string> tools;
  std::vector<std::string> command;
};

int RunSanitize(const SanitizeOptions& o) {
  std::string list;
  for (const std::string& t : o.tools) list += (list.empty() ? "" : ",") + t;
  if (list.empty()) list = "all";
  uint32_t bits = 0;
  std::string error;
  if (!lngrad::aicore::san::ParseTools(list, &bits, &error)) {
    return Fail("sanitize", "--tool: " + error);
  }
  if (bits == 0) return Fail("sanitize", "--tool: no tool selected (none)");
  const std::string text = lngrad::aicore::san::ToolsText(bits);
  if (setenv("LNGRAD_SANITIZE", text.c_str(), 1) != 0) {
    return Fail("sanitize", std::string("could not set LNGRAD_SANITIZE: ") + std::strerror(errno));
  }
  std::fprintf(stderr, "lngrad sanitize: %s with LNGRAD_SANITIZE=%s\n", o.command.front().c_str(),
               text.c_str());
  std::fflush(stderr);
  std::vector<char*> argv;
  for (const std::string& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return Fail("sanitize", std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "lngrad sanitize: error: cannot run '%s': %s\n", argv[0],
                 std::strerror(errno));
    std::fflush(stderr);
    _exit(kExitRefused);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Fail("sanitize", std::string("waitpid: ") + std::strerror(errno));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : kExitFailed;
}

}  // namespace

void AddSanitizeCommand(CLI::App& root, std::vector<Command>* commands) {
  auto [app, o] =
      AddCommand<SanitizeOptions>(root, commands, "sanitize", kDescription, RunSanitize);
  app->add_option("--tool", o->tools,
                  "racecheck, initcheck, synccheck or all (default: all); repeat it or give a "
                  "comma-separated list")
      ->delimiter(',');
  app->add_option("command", o->command, "PROGRAM and its arguments (after --)")->required();
}

}  // namespace lngrad::cli
