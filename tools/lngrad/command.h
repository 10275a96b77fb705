// How the CLI's subcommands plug into main: each file adds one subcommand.
#pragma once

#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

namespace lngrad::cli {

// A registered subcommand: its CLI11 app and what to run when it was selected.
// run() returns the process exit code.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

void AddDemoCommand(CLI::App& root, std::vector<Command>* commands);

}  // namespace lngrad::cli
