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
// `lngrad sample`: the official operator sample (sample.cpp).
void AddSampleCommand(CLI::App& root, std::vector<Command>* commands);
// Data tools (docs/cli.md), one file each: gen.cpp, run.cpp, verify.cpp, tiling.cpp, socs.cpp.
void AddGenCommand(CLI::App& root, std::vector<Command>* commands);
void AddRunCommand(CLI::App& root, std::vector<Command>* commands);
void AddVerifyCommand(CLI::App& root, std::vector<Command>* commands);
void AddTilingCommand(CLI::App& root, std::vector<Command>* commands);
void AddSocsCommand(CLI::App& root, std::vector<Command>* commands);

}  // namespace lngrad::cli
