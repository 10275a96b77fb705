// How the CLI's subcommands plug into main: each file adds one subcommand, its --help text
// (kDescription) at the top of the file and its options in its Add*Command.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace lngrad::cli {

// A registered subcommand: its CLI11 app and what to run when it was selected.
// run() returns the process exit code.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// Adds subcommand `name` to `root` with one Options object for its option declarations, and
// registers `run` on it: run(options), or run(options, app) for a subcommand that asks the
// parser what was given. Returns the app and the options for the caller to declare options on.
template <typename Options, typename Run>
std::pair<CLI::App*, Options*> AddCommand(CLI::App& root, std::vector<Command>* commands,
                                          std::string name, std::string description, Run run) {
  CLI::App* app = root.add_subcommand(std::move(name), std::move(description));
  auto options = std::make_shared<Options>();
  if constexpr (std::is_invocable_v<Run, Options&, const CLI::App&>) {
    commands->push_back({app, [options, app, run] { return run(*options, *app); }});
  } else {
    commands->push_back({app, [options, run] { return run(*options); }});
  }
  return {app, options.get()};
}

void AddDemoCommand(CLI::App& root, std::vector<Command>* commands);
// `lngrad sample`: the official operator sample (sample.cpp).
void AddSampleCommand(CLI::App& root, std::vector<Command>* commands);
// Data tools (docs/cli.md), one file each: gen.cpp, run.cpp, verify.cpp, tiling.cpp, socs.cpp.
void AddGenCommand(CLI::App& root, std::vector<Command>* commands);
void AddRunCommand(CLI::App& root, std::vector<Command>* commands);
void AddVerifyCommand(CLI::App& root, std::vector<Command>* commands);
void AddTilingCommand(CLI::App& root, std::vector<Command>* commands);
void AddSocsCommand(CLI::App& root, std::vector<Command>* commands);
// `lngrad sanitize -- PROGRAM`: PROGRAM with the pipeline sanitizer on (sanitize.cpp).
void AddSanitizeCommand(CLI::App& root, std::vector<Command>* commands);

}  // namespace lngrad::cli
