// LayerNormGradBeta operator: host side (plan, tiling, two launches).
#include "ops/layernorm_grad_beta_op.h"

#include "kernel_operator.h"
#include "lngrad/product.h"
#include "ops/op_host.h"
#include "ops/op_tiling.h"
#include "tiling/tiling_api.h"

extern "C" void layernorm_grad_beta_op(uint8_t* resForGamma, uint8_t* inputDy, uint8_t* workspace,
                                       uint8_t* tiling);
extern "C" void layernorm_grad_beta_combine(uint8_t* workspace, uint8_t* outputPdGamma,
                                            uint8_t* outputPdBeta, uint8_t* tiling);

namespace lngrad::ops {

Status RunLayerNormGradBetaOp(const LayerNormGradBetaOpArgs& args, LayerNormGradBetaOpInfo* info) {
  using Tiling = AscendC::tiling::LayerNormGradBetaTiling;
  // The API's scratch lies within stackBufferSize floats (spec §3.6), i.e. within tmp_bytes: the
  // plain TilePlanner. Queues: resForGamma and dy tiles; the partial sums (2*H floats); the
  // API's two [H] outputs; for half a float row to widen them.
  static constexpr host::OpApi<Tiling> kLayerNormGradBeta = {
      {"LayerNormGradBeta operator", "LayerNormGradBeta",
       [](const lngrad::Product& p) { return p.supports_layernormgradbeta; },
       host::RowPadding::kStorageInTiling},
      {lngrad::tiling::LayerNormGradBetaMaxMinTmpSize,
       lngrad::tiling::LayerNormGradBetaNDTilingInfo},
      {.tiles = 2, .rows = 2, .float_rows = 2, .half_float_rows = 1}};

  // GM: res_for_gamma and dy are read in place. The outputs ([H] each) are always staged: the
  // combine launch writes them after the partial launch, and staging keeps a failure in either
  // from leaving half-written outputs at no measurable cost.
  constexpr auto kRow = host::OpTensor::Extent::kRow;
  host::OpRun<host::TilePlanner<Tiling>, Tiling> run;
  // No per-row [B,S] tensors here: any row boundary keeps dy and resForGamma aligned.
  LNGRAD_RETURN_IF_ERROR(
      run.Plan(kLayerNormGradBeta, args, 1, 0.0f,
               {host::In("res_for_gamma", args.res_for_gamma), host::In("dy", args.dy),
                host::StagedOut("pd_gamma", args.pd_gamma, kRow),
                host::StagedOut("pd_beta", args.pd_beta, kRow)}));
  // The blocks' partial sums [pd_gamma | pd_beta], one float row of 2*H each (storage H).
  host::GmStage workspace(run.blocks().size() * 2 * run.call().storage_h * sizeof(float));
  workspace.Zero();
  LNGRAD_RETURN_IF_ERROR(run.Launch([&](const host::OpGm& gm, uint8_t* tiling) {
    layernorm_grad_beta_op(gm[0], gm[1], workspace.data(), tiling);
  }));
  LNGRAD_RETURN_IF_ERROR(run.Launch(
      [&](const host::OpGm& gm, uint8_t* tiling) {
        layernorm_grad_beta_combine(workspace.data(), gm[2], gm[3], tiling);
      },
      1));
  run.Commit();
  if (info != nullptr) run.FillInfo(info);
  return Status::Ok();
}

}  // namespace lngrad::ops
