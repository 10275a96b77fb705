// lngrad: LayerNorm backward and Ascend C LayerNormGrad on the CPU.
#include <cstdio>
#include <exception>

#include "command.h"

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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and version exit 0; every usage error exits 2 (CLI11's own codes are >= 100).
    return app.exit(e) == 0 ? 0 : 2;
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
