// LayerNormGradBeta operator: host side (plan, tiling, two launches).
#include "ops/layernorm_grad_beta_op.h"

#include <algorithm>
#include <vector>

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
namespace {

using host::Align32;
using Tiling = AscendC::tiling::LayerNormGradBetaTiling;

constexpr host::OpApi kApi = {
    "LayerNormGradBeta operator", "LayerNormGradBeta",
    [](const lngrad::Product& p) { return p.supports_layernormgradbeta; }};

class Planner : public host::TilePlanner<Planner, Tiling> {
 public:
  using TilePlanner::TilePlanner;

  // The API's scratch lies within stackBufferSize floats (spec §3.6), i.e. within tmp_bytes.
  Tile Plan(uint32_t rows) const {
    return ApiPlan(rows, lngrad::tiling::LayerNormGradBetaMaxMinTmpSize,
                   lngrad::tiling::LayerNormGradBetaNDTilingInfo);
  }

  // TPipe bytes: resForGamma and dy tiles, the partial sums (2*H floats), the API's two [H]
  // outputs, and for half a float row to widen them.
  uint64_t QueueBytes(uint32_t rows) const {
    const uint64_t tile = Align32(uint64_t{rows} * h_ * type_size_);
    const uint64_t row_t = Align32(uint64_t{h_} * type_size_);
    const uint64_t row_f = Align32(uint64_t{h_} * sizeof(float));
    return 2 * tile + 2 * row_f + 2 * row_t + (type_size_ == 2 ? row_f : 0);
  }
};

}  // namespace

Status RunLayerNormGradBetaOp(const LayerNormGradBetaOpArgs& args, LayerNormGradBetaOpInfo* info) {
  host::OpCall call;
  // No per-row [B,S] tensors here: any row boundary keeps dy and resForGamma aligned.
  LNGRAD_RETURN_IF_ERROR(host::StartCall(kApi, args,
                                         {{"res_for_gamma", args.res_for_gamma},
                                          {"dy", args.dy},
                                          {"pd_gamma", args.pd_gamma},
                                          {"pd_beta", args.pd_beta}},
                                         1, &call));
  const lngrad::Product& product = *call.product;

  std::vector<LayerNormGradBetaOpBlock> blocks;
  Planner planner(args, product);
  host::BlockPlanTotals totals;
  {
    host::TilingProductScope scope(product);
    const uint32_t tile_rows = host::LargestFitting(
        call.MaxBlockRows(), [&](uint32_t r) { return planner.Fits(r, planner.Plan(r)); });
    if (tile_rows == 0) {
      const Planner::Tile one = planner.Plan(1);
      if (!one.status.ok()) return one.status;
      return Status::OutOfRange(
          std::string(kApi.op) + ": one row of H = " + std::to_string(call.h) + " " +
          DTypeName(args.dtype) + " needs " + std::to_string(planner.UbBytes(1, one)) +
          " bytes of UB (tmp " + TmpSizeText(args.tmp) + "), more than " +
          host::ProductText(product) + " has (" + std::to_string(product.ub_bytes) + ")");
    }
    LNGRAD_RETURN_IF_ERROR(
        host::PlanBlocks(kApi.op, planner, call.split, tile_rows, &blocks, &totals));
  }
  const OpTilingHeader head = host::MakeHeader(args, call, blocks.size(), totals);

  // GM: res_for_gamma and dy are read in place. The outputs ([H] each) are always staged: the
  // combine launch writes them after the partial launch, and staging keeps a failure in either
  // from leaving half-written outputs at no measurable cost.
  const size_t tensor_bytes = call.TensorBytes();
  const host::GmInput res(args.res_for_gamma, tensor_bytes), dy(args.dy, tensor_bytes);
  const host::GmOutput pd_gamma(args.pd_gamma, call.RowBytes(), true),
      pd_beta(args.pd_beta, call.RowBytes(), true);
  host::GmStage workspace(blocks.size() * 2 * call.h * sizeof(float));
  const host::GmTiling tiling(head, blocks);
  workspace.Zero();

  LNGRAD_RETURN_IF_ERROR(host::LaunchOn(call, args.launch, blocks.size(), [&] {
    layernorm_grad_beta_op(res.data(), dy.data(), workspace.data(), tiling.data());
  }));
  LNGRAD_RETURN_IF_ERROR(host::LaunchOn(call, args.launch, 1, [&] {
    layernorm_grad_beta_combine(workspace.data(), pd_gamma.data(), pd_beta.data(), tiling.data());
  }));
  pd_gamma.Commit();
  pd_beta.Commit();

  if (info != nullptr) {
    host::FillInfo(call, args, blocks.size(), totals, info);
    host::FillBlockInfo(blocks, &info->blocks);
  }
  return Status::Ok();
}

}  // namespace lngrad::ops
