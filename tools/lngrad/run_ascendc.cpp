// `lngrad run --impl ascendc`: LayerNormGrad and LayerNormGradBeta as Ascend C kernels on the
// simulated device, through the example operators (examples/layernorm_grad,
// examples/layernorm_grad_beta: host tiling, rows split over blocks, tiles sized from the UB).
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

}  // namespace

Status RunAscendc(const RunInputs& in, const RunConfig& config, RunOutputs* out) {
  if (config.product == nullptr) return Status::Internal("RunAscendc: no product");
  const ops::OpDType dt =
      in.dtype == io::DType::kFloat16 ? ops::OpDType::kFloat16 : ops::OpDType::kFloat32;
  ops::LaunchConfig launch;
  launch.blocks = static_cast<uint32_t>(config.blocks);
  launch.soc = std::string(config.product->soc);
  const int64_t n = in.b * in.s * in.h;
  RunOutputs o;
  o.pd_x = io::Tensor(in.dtype, {n});
  o.res_for_gamma = io::Tensor(in.dtype, {n});
  o.dgamma = io::Tensor(in.dtype, {in.h});
  o.dbeta = io::Tensor(in.dtype, {in.h});

  ops::LayerNormGradOpArgs g;
  g.dtype = dt;
  g.b = in.b;
  g.s = in.s;
  g.h = in.h;
  g.dy = in.dy.RawData();
  g.x = in.x.RawData();
  g.mean = in.mean.RawData();
  g.variance = in.variance.RawData();
  g.gamma = in.gamma.RawData();
  g.pd_x = o.pd_x.RawData();
  g.res_for_gamma = o.res_for_gamma.RawData();
  g.epsilon = in.epsilon;
  // isReuseSource has no effect for half (spec §1.9, §3.3); run.cpp has said so once, so the
  // kernels are not asked to log it on every call.
  const bool reuse = config.reuse_source && in.dtype == io::DType::kFloat32;
  g.reuse_source = reuse;
  g.tmp = ToTmpSize(config.tmp);
  g.launch = launch;
  if (config.progress) config.progress->Stage("LayerNormGrad (Ascend C, " + launch.soc + ")");
  ops::LayerNormGradOpInfo gi;
  LNGRAD_RETURN_IF_ERROR(ops::RunLayerNormGradOp(g, &gi));

  // LayerNormGradBeta consumes the res_for_gamma that LayerNormGrad produced, as on the device.
  ops::LayerNormGradBetaOpArgs b;
  b.dtype = dt;
  b.b = in.b;
  b.s = in.s;
  b.h = in.h;
  b.res_for_gamma = o.res_for_gamma.RawData();
  b.dy = in.dy.RawData();
  b.pd_gamma = o.dgamma.RawData();
  b.pd_beta = o.dbeta.RawData();
  b.reuse_source = reuse;
  b.tmp = ToTmpSize(config.tmp);
  b.launch = launch;
  if (config.progress) config.progress->Stage("LayerNormGradBeta (Ascend C, " + launch.soc + ")");
  ops::LayerNormGradBetaOpInfo bi;
  LNGRAD_RETURN_IF_ERROR(ops::RunLayerNormGradBetaOp(b, &bi));

  o.details["impl"] = "ascendc";
  o.details["soc"] = gi.soc;
  o.details["npu_arch"] = gi.arch;
  o.details["blocks"] = gi.blocks_used;
  o.details["prototype"] = gi.prototype;
  o.details["reuse_source"] = reuse;
  io::Json grad = io::Json::Object();
  grad["tmp_bytes"] = gi.tmp_bytes;
  grad["scratch_bytes"] = gi.scratch_bytes;
  grad["ub_bytes"] = gi.ub_bytes;
  grad["tiles"] = gi.tiles;
  grad["single_chunk_tiling"] = gi.single_chunk_tiling;
  o.details["LayerNormGrad"] = grad;
  io::Json beta = io::Json::Object();
  beta["tmp_bytes"] = bi.tmp_bytes;
  beta["ub_bytes"] = bi.ub_bytes;
  beta["tiles"] = bi.tiles;
  beta["blocks"] = bi.blocks_used;
  o.details["LayerNormGradBeta"] = beta;
  *out = std::move(o);
  return Status::Ok();
}

}  // namespace lngrad::cli
