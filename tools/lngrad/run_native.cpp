// `lngrad run --impl native`: the native library (lngrad::lngrad).
#include "lngrad/lngrad.h"
#include "progress.h"
#include "run_ops.h"

namespace lngrad::cli {
namespace {

template <typename T>
Status Compute(const RunInputs& in, const std::vector<T>& dy, const std::vector<T>& x,
               const std::vector<T>& mean, const std::vector<T>& variance,
               const std::vector<T>& gamma, std::vector<T>& pd_x, std::vector<T>& res,
               std::vector<T>& dgamma, std::vector<T>& dbeta, const RunConfig& config,
               RunInfo* info) {
  const RowShape shape{in.b * in.s, in.h};
  Options opt;
  opt.info = info;
  opt.half_eval = config.half_eval;
  if (config.progress) config.progress->Stage("LayerNormGrad (native)");
  LNGRAD_RETURN_IF_ERROR(LayerNormGrad(shape, dy.data(), x.data(), mean.data(), variance.data(),
                                       gamma.data(), in.epsilon, pd_x.data(), res.data(), opt));
  if (config.progress) config.progress->Stage("LayerNormGradBeta (native)");
  return LayerNormGradBeta(shape, dy.data(), res.data(), dgamma.data(), dbeta.data(), opt);
}

}  // namespace

Status RunNative(const RunInputs& in, const RunConfig& config, RunOutputs* out) {
  RunOutputs o = RunOutputs::For(in);
  RunInfo info;
  Status st;
  if (in.dtype == io::DType::kFloat16) {
    st = Compute(in, in.dy.f16(), in.x.f16(), in.mean.f16(), in.variance.f16(), in.gamma.f16(),
                 o.pd_x.f16(), o.res_for_gamma.f16(), o.dgamma.f16(), o.dbeta.f16(), config, &info);
  } else if (in.dtype == io::DType::kBFloat16) {
    st = Compute(in, in.dy.bf16(), in.x.bf16(), in.mean.bf16(), in.variance.bf16(), in.gamma.bf16(),
                 o.pd_x.bf16(), o.res_for_gamma.bf16(), o.dgamma.bf16(), o.dbeta.bf16(), config,
                 &info);
  } else if (in.dtype == io::DType::kFloat32) {
    st = Compute(in, in.dy.f32(), in.x.f32(), in.mean.f32(), in.variance.f32(), in.gamma.f32(),
                 o.pd_x.f32(), o.res_for_gamma.f32(), o.dgamma.f32(), o.dbeta.f32(), config, &info);
  } else {
    return Status::InvalidArgument("the native path takes float, half or bfloat16 tensors");
  }
  LNGRAD_RETURN_IF_ERROR(st);
  o.details["impl"] = "native";
  o.details["kernel"] = ImplName(info.impl);
  o.details["target"] = info.target;
  o.details["threads"] = info.threads;
  // The implementations ahead of the one that ran that refused the call, with their reasons.
  if (!info.refused.empty()) o.details["refused"] = io::Json(info.refused);
  if (in.dtype == io::DType::kFloat16) o.details["half_eval"] = HalfEvalName(config.half_eval);
  *out = std::move(o);
  return Status::Ok();
}

}  // namespace lngrad::cli
