// lngrad: LayerNorm backward and Ascend C LayerNormGrad on the CPU.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "command.h"

namespace {

// The subcommand the command line selected (nullptr: none), also after a parse error: CLI11
// consumes every argument before it checks requirements or leftovers.
const lngrad::cli::Command* Selected(const std::vector<lngrad::cli::Command>& commands) {
  for (const auto& c : commands) {
    if (c.app->parsed()) return &c;
  }
  return nullptr;
}

std::string SubcommandList(const CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  return names;
}

// The one-line message for a parse error, in the form of every other error
// ("lngrad <command>: error: ..."). Arguments nobody recognised come first: a misspelt option
// explains a "required" error that follows from it.
std::string UsageMessage(const CLI::App& app, const lngrad::cli::Command* selected,
                         const CLI::ParseError& e) {
  const std::string help =
      selected != nullptr ? "lngrad " + selected->app->get_name() + " --help" : "lngrad --help";
  std::vector<std::string> unknown =
      selected != nullptr ? selected->app->remaining(false) : std::vector<std::string>{};
  for (const std::string& a : app.remaining(false)) unknown.push_back(a);
  if (!unknown.empty()) {
    // The first only: what follows an unknown option may be its value.
    const std::string& a = unknown.front();
    std::string what;
    if (!a.empty() && a[0] == '-') {
      what = "unknown option '" + a + "'";
    } else if (selected == nullptr) {
      what = "unknown subcommand '" + a + "' (the subcommands: " + SubcommandList(app) + ")";
    } else {
      what = "unexpected argument '" + a + "'";
    }
    return what + "; see `" + help + "`";
  }
  if (selected == nullptr && e.get_name() == "RequiredError") {
    return "a subcommand is required (" + SubcommandList(app) + "); see `" + help + "`";
  }
  return std::string(e.what()) + "; see `" + help + "`";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "lngrad: LayerNorm backward (LayerNormGrad, LayerNormGradBeta) on the CPU, natively and\n"
      "as the Ascend C high-level API on a simulated AI core."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "lngrad 0.1.0");
  std::vector<lngrad::cli::Command> commands;
  lngrad::cli::AddDemoCommand(app, &commands);
  lngrad::cli::AddSampleCommand(app, &commands);
  lngrad::cli::AddGenCommand(app, &commands);
  lngrad::cli::AddRunCommand(app, &commands);
  lngrad::cli::AddVerifyCommand(app, &commands);
  lngrad::cli::AddTilingCommand(app, &commands);
  lngrad::cli::AddSocsCommand(app, &commands);
  lngrad::cli::AddSanitizeCommand(app, &commands);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Every usage error exits 2 (CLI11's own codes are >= 100).
    const lngrad::cli::Command* selected = Selected(commands);
    const std::string prefix =
        selected != nullptr ? "lngrad " + selected->app->get_name() : "lngrad";
    std::fprintf(stderr, "%s: error: %s\n", prefix.c_str(), UsageMessage(app, selected, e).c_str());
    return 2;
  }
  for (const auto& c : commands) {
    if (c.app->parsed()) {
      try {
        return c.run();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "lngrad %s: error: %s\n", c.app->get_name().c_str(), e.what());
        return 1;
      }
    }
  }
  return 2;
}
