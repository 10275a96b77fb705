// `lngrad run --impl ascendc`: LayerNormGrad and LayerNormGradBeta as Ascend C kernels on the
// simulated device, through the operators of src/ops (host tiling, rows split over blocks,
// tiles sized from the UB).
#include "ops/layernorm_grad_op.h"
#include "ops/layernorm_grad_beta_op.h"
#include "progress.h"
#include "run_ops.h"

namespace lngrad::cli {
namespace {

ops::TmpSize ToTmpSize(const TmpChoice& t) {
  ops::TmpSize s;
  switch (t.kind) {
    case TmpChoice::kMin:
      s.kind = ops::TmpSize::Kind::kMin;
      break;
    case TmpChoice::kMax:
      s.kind = ops::TmpSize::Kind::kMax;
      break;
    case TmpChoice::kBytes:
      s.kind = ops::TmpSize::Kind::kBytes;
      break;
  }
  s.bytes = t.bytes;
  return s;
}

// tmp_bytes, scratch_bytes (when given), ub_bytes and tiles of an operator's info, in that order.
io::Json SizesJson(const ops::OpInfo& info, const uint64_t* scratch_bytes) {
  io::Json j = io::Json::object();
  j["tmp_bytes"] = info.tmp_bytes;
  if (scratch_bytes != nullptr) j["scratch_bytes"] = *scratch_bytes;
  j["ub_bytes"] = info.ub_bytes;
  j["tiles"] = info.tiles;
  return j;
}

}  // namespace

Status RunAscendc(const RunInputs& in, const RunConfig& config, RunOutputs* out) {
  if (config.product == nullptr) return Status::Internal("RunAscendc: no product");
  RunOutputs o = RunOutputs::For(in);
  // What both operators share: shape, isReuseSource, scratch and launch.
  ops::OpArgs common;
  common.SetShape(in.dtype == io::DType::kFloat16 ? ops::OpDType::kFloat16 : ops::OpDType::kFloat32,
                  in.b, in.s, in.h);
  // isReuseSource has no effect for half (spec §1.9, §3.3); run.cpp has said so once, so the
  // kernels are not asked to log it on every call.
  const bool reuse = config.reuse_source && in.dtype == io::DType::kFloat32;
  common.reuse_source = reuse;
  common.tmp = ToTmpSize(config.tmp);
  common.launch.blocks = static_cast<uint32_t>(config.blocks);
  common.launch.soc = std::string(config.product->soc);
  auto stage = [&](const char* api) {
    if (config.progress) {
      config.progress->Stage(std::string(api) + " (Ascend C, " + common.launch.soc + ")");
    }
  };

  ops::LayerNormGradOpArgs g;
  static_cast<ops::OpArgs&>(g) = common;
  g.SetTensors(in.dy.RawData(), in.x.RawData(), in.mean.RawData(), in.variance.RawData(),
               in.gamma.RawData(), o.pd_x.RawData(), o.res_for_gamma.RawData());
  g.epsilon = in.epsilon;
  stage("LayerNormGrad");
  ops::LayerNormGradOpInfo gi;
  LNGRAD_RETURN_IF_ERROR(ops::RunLayerNormGradOp(g, &gi));

  // LayerNormGradBeta consumes the res_for_gamma that LayerNormGrad produced, as on the device.
  ops::LayerNormGradBetaOpArgs b;
  static_cast<ops::OpArgs&>(b) = common;
  b.SetTensors(o.res_for_gamma.RawData(), in.dy.RawData(), o.dgamma.RawData(), o.dbeta.RawData());
  stage("LayerNormGradBeta");
  ops::LayerNormGradBetaOpInfo bi;
  LNGRAD_RETURN_IF_ERROR(ops::RunLayerNormGradBetaOp(b, &bi));

  o.details["impl"] = "ascendc";
  o.details["soc"] = gi.soc;
  // A string, as in `socs --json` and `tiling --json`: an arch is a name, not a quantity.
  o.details["npu_arch"] = std::to_string(gi.arch);
  o.details["blocks"] = gi.blocks_used;
  o.details["prototype"] = gi.prototype;
  o.details["reuse_source"] = reuse;
  io::Json grad = SizesJson(gi, &gi.scratch_bytes);
  grad["single_chunk_tiling"] = gi.single_chunk_tiling;
  o.details["LayerNormGrad"] = grad;
  io::Json beta = SizesJson(bi, nullptr);
  beta["blocks"] = bi.blocks_used;
  o.details["LayerNormGradBeta"] = beta;
  *out = std::move(o);
  return Status::Ok();
}

}  // namespace lngrad::cli
