// `lngrad sample`: the official LayerNormGrad operator sample (spec §5) on the simulated device.
//
// Data as the sample's gen_data.py makes it: dy, x, gamma uniform in [-100, 100], mean and
// biased variance of x, epsilon 1e-4, rounded to the dtype; the LayerNormGrad operator of
// src/ops runs on the chosen product; the outputs are compared with a float64
// golden computed from the exact values the kernel received, by the official rule (an element is
// wrong only if abs err > bound AND rel err > bound). Prints "test pass!" (exit 0) or the failing
// elements and "test failed!" (exit 1); exit 2 for usage errors.
#include <charconv>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "command.h"
#include "ops/sample_data.h"
#include "ops/layernorm_grad_op.h"
#include "lngrad/product.h"

namespace lngrad::cli {
namespace {

namespace ops = lngrad::ops;
namespace smp = lngrad::ops::sample;

constexpr const char* kCommand = "sample";
constexpr const char* kDescription =
    "Run the official LayerNormGrad operator sample on the simulated device: dy, x, gamma\n"
    "uniform in [-100, 100], mean and variance of x, epsilon 1e-4; compare with a float64\n"
    "golden by the official rule (wrong only if abs err > 1e-4 and rel err > 1e-4; 1e-3 for\n"
    "half) and print \"test pass!\" (exit 0) or the failing elements (exit 1).";
constexpr double kEpsilon = 1e-4;  // gen_data.py
// The official rule's bound: 1e-4 for float as in the sample. A half result carries a rounding
// error of up to 2^-11 = 4.9e-4 relative by itself, so half is judged with 1e-3.
constexpr double kFloatBound = 1e-4;
constexpr double kHalfBound = 1e-3;

struct SampleOptions {
  std::string shape = "2,32,16";
  std::string dtype = "float";
  std::string soc;  // empty: $LNGRAD_SOC, else Ascend910B1
  bool reuse_source = false;
  std::string tmp = "min";
  uint32_t blocks = 1;
  uint64_t seed = 0;
};

Status ParseShape(const std::string& text, int64_t out[3]) {
  size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t end = i < 2 ? text.find(',', pos) : text.size();
    if (end == std::string::npos) break;
    const char* first = text.data() + pos;
    const char* last = text.data() + end;
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last || v <= 0) break;
    out[i] = v;
    pos = end + 1;
    if (i == 2) return Status::Ok();
  }
  return Status::InvalidArgument("--shape \"" + text +
                                 "\" must be B,S,H with three positive integers");
}

int RunSample(const SampleOptions& o) {
  int64_t shape[3] = {0, 0, 0};
  Status st = ParseShape(o.shape, shape);
  if (!st.ok()) return Fail(kCommand, st);
  ops::TmpSize tmp;
  st = ops::ParseTmpSize(o.tmp, &tmp);
  if (!st.ok()) return Fail(kCommand, "--tmp: " + st.message());
  const lngrad::Product* product = nullptr;
  if (o.soc.empty()) {
    st = lngrad::CurrentProductChecked(&product);
  } else {
    // SetCurrentSoc words the message for an unknown name (known names, the legacy-name hint).
    // A known one becomes the process's current product, so that the host tiling functions
    // never consult LNGRAD_SOC.
    st = lngrad::SetCurrentSoc(o.soc);
    product = lngrad::FindProduct(o.soc);
  }
  if (!st.ok()) return Fail(kCommand, st);
  if (Status env = CheckImplEnvironment(); !env.ok()) return Fail(kCommand, env);
  const std::string soc(product->soc);
  if (!product->supports_layernormgrad) {
    return Fail(kCommand, (o.soc.empty() ? "LNGRAD_SOC " : "--soc ") + soc +
                              ": LayerNormGrad is not supported on " +
                              std::string(product->product_line) + " (arch " +
                              lngrad::NpuArchName(product->arch) + "); see `lngrad socs`");
  }
  const ops::OpDType dtype = o.dtype == "half" ? ops::OpDType::kFloat16 : ops::OpDType::kFloat32;
  const int64_t unit = 32 / ops::DTypeSize(dtype);
  if (shape[2] % unit != 0 && !ops::HasDataCopyPad(*product)) {
    return Fail(kCommand, "--shape: H = " + std::to_string(shape[2]) + " is not a multiple of " +
                              std::to_string(unit) + " for " + o.dtype +
                              ": the operator pads such rows in UB with DataCopyPad, which " + soc +
                              " does not have (e.g. Ascend910B1, Ascend950PR_9599 do)");
  }
  const double bound = dtype == ops::OpDType::kFloat16 ? kHalfBound : kFloatBound;

  const smp::ExampleCase sample = {"sample", dtype,    shape[0],   shape[1],
                                   shape[2], o.blocks, soc.c_str()};
  smp::LayerNormGradData d =
      smp::MakeLayerNormGradData(dtype, sample.rows(), static_cast<size_t>(shape[2]), -100, 100,
                                 {o.seed * 3 + 1, o.seed * 3 + 2, o.seed * 3 + 3});
  ops::LayerNormGradOpArgs args;
  smp::ApplyCase(sample, &args);
  d.Bind(&args);
  args.epsilon = static_cast<float>(kEpsilon);
  args.reuse_source = o.reuse_source;
  args.tmp = tmp;

  std::printf(
      "LayerNormGrad official sample: %s [%lld,%lld,%lld], epsilon %g, tmp %s, isReuseSource %s, "
      "seed %llu\n",
      o.dtype.c_str(), static_cast<long long>(shape[0]), static_cast<long long>(shape[1]),
      static_cast<long long>(shape[2]), kEpsilon, ops::TmpSizeText(tmp).c_str(),
      o.reuse_source ? "true" : "false", static_cast<unsigned long long>(o.seed));
  ops::LayerNormGradOpInfo info;
  st = ops::RunLayerNormGradOp(args, &info);
  if (!st.ok()) {
    // Arguments the operator refuses (a tmp size the tiling rejects, a row that cannot fit the
    // UB) are usage errors; anything else is a failed run.
    const bool refused = st.code() == StatusCode::kInvalidArgument ||
                         st.code() == StatusCode::kUnsupported ||
                         st.code() == StatusCode::kOutOfRange;
    if (!refused) std::printf("test failed!\n");
    return Fail(kCommand, st, refused ? kExitRefused : kExitFailed);
  }
  std::printf(
      "path: Ascend C LayerNormGrad operator (src/ops) on simulated %s (%s, arch "
      "%u): "
      "%u block(s), %llu tile(s), block 0 tiles of %u rows, %s, tmp %u B, scratch %llu B%s%s\n",
      info.soc.c_str(), info.product_line.c_str(), info.arch, info.blocks_used,
      static_cast<unsigned long long>(info.tiles), info.blocks[0].tile_rows, info.prototype.c_str(),
      info.tmp_bytes, static_cast<unsigned long long>(info.scratch_bytes),
      info.single_chunk_tiling ? ", single-chunk tiling" : "",
      info.min_tmp_raised ? ", minimum raised to one float row per buffer" : "");

  std::printf("rule: an element is wrong if abs err > %g and rel err > %g (vs float64)\n", bound,
              bound);
  const bool pass = d.Check(kEpsilon, bound);
  std::printf("%s\n", pass ? "test pass!" : "test failed!");
  return pass ? kExitOk : kExitFailed;
}

}  // namespace

void AddSampleCommand(CLI::App& root, std::vector<Command>* commands) {
  auto [app, o] = AddCommand<SampleOptions>(root, commands, kCommand, kDescription, RunSample);
  app->add_option("--shape", o->shape,
                  "B,S,H (any H >= 1; on a product without DataCopyPad, e.g. Ascend310P1, "
                  "H*sizeof(dtype) a multiple of 32 bytes)")
      ->capture_default_str();
  app->add_option("--dtype", o->dtype, "float or half")
      ->check(CLI::IsMember({"float", "half"}))
      ->capture_default_str();
  app->add_option("--soc", o->soc,
                  "Simulated SoC (default: $LNGRAD_SOC or Ascend910B1; see `lngrad socs`)");
  app->add_flag("--reuse-source", o->reuse_source,
                "isReuseSource = true (float: the API overwrites dy and x in UB)");
  app->add_option("--tmp", o->tmp, "Scratch per tile: min, max or a byte count")
      ->capture_default_str();
  app->add_option("--blocks", o->blocks, "AI cores the rows are split over")
      ->check(CLI::Range(1u, 65535u))
      ->capture_default_str();
  app->add_option("--seed", o->seed, "Seed of the generated data")->capture_default_str();
}

}  // namespace lngrad::cli
