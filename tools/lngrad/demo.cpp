// `lngrad demo`: the LayerNormGrad documentation example, run and checked. By default it runs
// through the LayerNormGrad operator of src/ops (AscendC::LayerNormGrad on a
// simulated AI core: --soc, else $LNGRAD_SOC, else Ascend910B1); --impl native runs the native
// library instead.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli_common.h"
#include "command.h"
#include "doc_example.h"
#include "ops/layernorm_grad_op.h"
#include "lngrad/product.h"
#include "lngrad/lngrad.h"

namespace lngrad::cli {
namespace {

constexpr const char* kDescription =
    "Run the LayerNormGrad documentation example ([1,8,8] float) through the LayerNormGrad\n"
    "operator on a simulated AI core ($LNGRAD_SOC, else Ascend910B1), print inputs and outputs\n"
    "in the documentation's layout, compare with the printed values (official sample rule)\n"
    "and print PASS (exit 0) or FAIL (exit 1).";

// Official sample rule (spec §5.5): an element is wrong only if both errors exceed the bound.
constexpr double kSampleTolerance = 1e-4;

struct Comparison {
  int64_t wrong = 0;
  double max_abs = 0;
  double max_rel = 0;
  int64_t worst_index = -1;
};

Comparison Compare(const std::vector<float>& got, const std::vector<double>& want) {
  Comparison c;
  for (size_t i = 0; i < got.size(); ++i) {
    const double abs_err = std::fabs(static_cast<double>(got[i]) - want[i]);
    const double rel_err = want[i] != 0 ? abs_err / std::fabs(want[i]) : abs_err;
    if (abs_err > c.max_abs) {
      c.max_abs = abs_err;
      c.worst_index = static_cast<int64_t>(i);
    }
    c.max_rel = std::max(c.max_rel, rel_err);
    if (!(abs_err <= kSampleTolerance || rel_err <= kSampleTolerance)) ++c.wrong;
  }
  return c;
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

template <typename V>
void PrintTensor(const char* name, const std::vector<int64_t>& shape, const V& values) {
  std::printf("%s %s\n", name, ShapeText(shape).c_str());
  const size_t per_line = static_cast<size_t>(shape.back());
  for (size_t i = 0; i < values.size(); ++i) {
    std::printf("%s%12.8g", i % per_line ? " " : "  ", static_cast<double>(values[i]));
    if ((i + 1) % per_line == 0 || i + 1 == values.size()) std::printf("\n");
  }
}

std::vector<float> ToFloat(const NamedTensor& t) {
  return std::vector<float>(t.values.begin(), t.values.end());
}

struct DemoOptions {
  bool quiet = false;
  std::string impl = "ascendc";
  std::string soc;  // empty: $LNGRAD_SOC, else Ascend910B1
};

int RunDemo(const DemoOptions& o) {
  const bool quiet = o.quiet;
  // What the environment chooses is checked before any work, as in the other subcommands.
  const lngrad::Product* product = nullptr;
  if (o.impl != "native") {
    if (Status env = ChooseProduct(o.soc, &product); !env.ok()) return Fail("demo", env);
  }
  if (Status env = CheckImplEnvironment(); !env.ok()) return Fail("demo", env);
  DocExample doc;
  Status st = ParseDocExample(LayerNormGradDocText(), &doc);
  const char* names[] = {"inputDy",    "inputX",    "inputMean",  "inputVariance",
                         "inputGamma", "outputPdX", "resForGamma"};
  for (const char* n : names) {
    if (st.ok() && doc.Find(n) == nullptr) st = Status::Internal(std::string("missing ") + n);
  }
  if (!st.ok() || doc.scalars.count("epsilon") == 0) {
    std::fprintf(stderr, "lngrad demo: built-in example is broken: %s\n", st.ToString().c_str());
    return 1;
  }
  const NamedTensor& dy = *doc.Find("inputDy");
  const std::vector<int64_t>& shape = dy.shape;
  const RowShape rs{shape[0] * shape[1], shape[2]};
  const float eps = static_cast<float>(doc.scalars.at("epsilon"));

  std::vector<float> in_dy = ToFloat(dy), in_x = ToFloat(*doc.Find("inputX")),
                     in_mean = ToFloat(*doc.Find("inputMean")),
                     in_var = ToFloat(*doc.Find("inputVariance")),
                     in_gamma = ToFloat(*doc.Find("inputGamma"));
  std::vector<float> pd_x(in_dy.size()), res(in_dy.size());
  std::string path;
  if (o.impl == "native") {
    RunInfo info;
    Options opt;
    opt.info = &info;
    st = LayerNormGrad(rs, in_dy.data(), in_x.data(), in_mean.data(), in_var.data(),
                       in_gamma.data(), eps, pd_x.data(), res.data(), opt);
    path = std::string("native ") + ImplName(info.impl) + " (" + info.target + ")";
  } else {
    ops::LayerNormGradOpArgs args;
    args.SetShape(ops::OpDType::kFloat32, shape[0], shape[1], shape[2]);
    args.SetTensors(in_dy.data(), in_x.data(), in_mean.data(), in_var.data(), in_gamma.data(),
                    pd_x.data(), res.data());
    args.epsilon = eps;
    args.launch.soc = std::string(product->soc);
    ops::LayerNormGradOpInfo info;
    st = ops::RunLayerNormGradOp(args, &info);
    if (st.ok()) {
      path = "Ascend C LayerNormGrad operator (src/ops) on simulated " + info.soc + " (" +
             info.product_line + ", arch " + std::to_string(info.arch) + "), " +
             std::to_string(info.blocks_used) + " block, tmp " + std::to_string(info.tmp_bytes) +
             " B, " + info.prototype;
    }
  }
  if (!st.ok()) {
    std::fprintf(stderr, "lngrad demo: LayerNormGrad failed: %s\n", st.ToString().c_str());
    return 1;
  }

  std::printf("LayerNormGrad documentation example: float, [B,S,H] = %s, epsilon = %g\n",
              ShapeText(shape).c_str(), static_cast<double>(eps));
  std::printf("path: %s\n\n", path.c_str());
  if (!quiet) {
    for (const char* n : {"inputDy", "inputX", "inputMean", "inputVariance", "inputGamma"}) {
      PrintTensor(n, doc.Find(n)->shape, doc.Find(n)->values);
    }
    std::printf("\n");
    PrintTensor("outputPdX", shape, pd_x);
    PrintTensor("resForGamma", shape, res);
    std::printf("\n");
  }
  bool pass = true;
  const std::pair<const char*, const std::vector<float>*> outputs[] = {{"outputPdX", &pd_x},
                                                                       {"resForGamma", &res}};
  for (const auto& [name, got] : outputs) {
    const Comparison c = Compare(*got, doc.Find(name)->values);
    std::printf(
        "%-12s vs documentation: %lld of %zu elements wrong, max abs err %.3g "
        "(element %lld), max rel err %.3g\n",
        name, static_cast<long long>(c.wrong), got->size(), c.max_abs,
        static_cast<long long>(c.worst_index), c.max_rel);
    pass = pass && c.wrong == 0;
  }
  std::printf("rule: an element is wrong if abs err > %g and rel err > %g\n", kSampleTolerance,
              kSampleTolerance);
  std::printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}

}  // namespace

void AddDemoCommand(CLI::App& root, std::vector<Command>* commands) {
  auto [app, o] = AddCommand<DemoOptions>(root, commands, "demo", kDescription, RunDemo);
  app->add_flag("-q,--quiet", o->quiet, "Print only the comparison and the verdict");
  app->add_option("--impl", o->impl,
                  "ascendc: the LayerNormGrad operator on the simulated device; native: the native "
                  "library")
      ->check(CLI::IsMember({"ascendc", "native"}))
      ->capture_default_str();
  app->add_option("--soc", o->soc,
                  "Simulated SoC for --impl ascendc (default: $LNGRAD_SOC or Ascend910B1; see\n"
                  "`lngrad socs`)");
}

}  // namespace lngrad::cli
