// `lngrad socs`: the simulated products (spec §6.6, §7).
#include <cstdio>
#include <memory>

#include "cli_common.h"
#include "command.h"
#include "lngrad/product.h"

namespace lngrad::cli {
namespace {

constexpr const char* kDescription =
    "List the simulated products: SoC name, NPU arch, UB size, and which of LayerNormGrad,\n"
    "LayerNormGradBeta and LayerNorm each supports.";

struct SocsOptions {
  bool json = false;
};

int RunSocs(const SocsOptions& o) {
  const auto products = lngrad::AllProducts();
  // A misspelt LNGRAD_SOC leaves no current product; the table is still printed (it lists the
  // names to choose from), then the error, and the exit code says so.
  const lngrad::Product* current = nullptr;
  const Status env = lngrad::CurrentProductChecked(&current);
  const int code = env.ok() ? kExitOk : kExitRefused;
  const std::string current_name = current != nullptr ? std::string(current->soc) : "none";
  if (o.json) {
    io::Json j = io::Json::object();
    j["command"] = "socs";
    j["current"] = current != nullptr ? io::Json(current_name) : io::Json(nullptr);
    io::Json list = io::Json::array();
    for (const lngrad::Product& p : products) {
      io::Json e = io::Json::object();
      e["soc"] = std::string(p.soc);
      e["short_soc"] = std::string(p.short_soc);
      e["soc_version"] = std::string(p.soc_version);
      e["product_line"] = std::string(p.product_line);
      e["npu_arch"] = lngrad::NpuArchName(p.arch);
      e["ub_bytes"] = p.ub_bytes;
      e["stack_end_bytes"] = p.stack_end_bytes;
      io::Json apis = io::Json::object();
      apis["LayerNormGrad"] = p.supports_layernormgrad;
      apis["LayerNormGradBeta"] = p.supports_layernormgradbeta;
      apis["LayerNorm"] = p.supports_layernorm;
      e["supports"] = apis;
      list.push_back(std::move(e));
    }
    j["products"] = list;
    PrintJson(j);
    std::fflush(stdout);  // the table before the error, on a terminal too
    return env.ok() ? code : Fail("socs", env);
  }
  std::printf("%-20s %-13s %-24s %-5s %-8s %-10s %-14s %-18s %-9s\n", "SoC", "short SoC",
              "product line", "arch", "UB KiB", "stack end", "LayerNormGrad", "LayerNormGradBeta",
              "LayerNorm");
  auto yes = [](bool b) { return b ? "yes" : "no"; };
  for (const lngrad::Product& p : products) {
    std::printf("%-20s %-13s %-24s %-5s %-8u %-10u %-14s %-18s %-9s%s\n",
                std::string(p.soc).c_str(), std::string(p.short_soc).c_str(),
                std::string(p.product_line).c_str(), lngrad::NpuArchName(p.arch), p.ub_bytes / 1024,
                p.stack_end_bytes, yes(p.supports_layernormgrad), yes(p.supports_layernormgradbeta),
                yes(p.supports_layernorm), &p == current ? "  (current)" : "");
  }
  std::printf(
      "%zu products; current: %s (set with --soc on run/tiling/demo/sample, or LNGRAD_SOC)\n",
      products.size(), current_name.c_str());
  std::printf(
      "UB KiB: TOTAL_UB_SIZE, what TPipe may allocate; stack end: where PopStackBuffer "
      "ends (bytes)\n");
  std::fflush(stdout);  // the table before the error, on a terminal too
  return env.ok() ? code : Fail("socs", env);
}

}  // namespace

void AddSocsCommand(CLI::App& root, std::vector<Command>* commands) {
  auto [app, o] = AddCommand<SocsOptions>(root, commands, "socs", kDescription, RunSocs);
  app->add_flag("--json", o->json, "Print JSON on stdout instead of a table");
}

}  // namespace lngrad::cli
