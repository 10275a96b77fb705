// Forward LayerNorm operator: host side (plan, tiling, launch).
#include "ops/layernorm_op.h"

#include <algorithm>
#include <vector>

#include "kernel_operator.h"
#include "lngrad/product.h"
#include "ops/op_host.h"
#include "ops/op_tiling.h"
#include "tiling/tiling_api.h"

extern "C" void layernorm_op(uint8_t* inputX, uint8_t* gamma, uint8_t* beta, uint8_t* output,
                             uint8_t* outputMean, uint8_t* outputVariance, uint8_t* workspace,
                             uint8_t* tiling);

namespace lngrad::ops {
namespace {

using host::Align32;
using host::CeilTo;
using Tiling = AscendC::tiling::LayerNormTiling;

constexpr host::OpApi kApi = {"LayerNorm operator", "LayerNorm",
                              [](const lngrad::Product& p) { return p.supports_layernorm; }};

class Planner : public host::TilePlanner<Planner, Tiling> {
 public:
  using TilePlanner::TilePlanner;

  // The tiling keeps its buffers within stackBufferSize bytes (tmpBufSize floats).
  Tile Plan(uint32_t rows) const {
    return ApiPlan(rows, lngrad::tiling::LayerNormMaxMinTmpSize,
                   lngrad::tiling::LayerNormNDTilingInfo);
  }

  // x, y, gamma, beta, mean, variance.
  uint64_t QueueBytes(uint32_t rows) const {
    return 2 * Align32(uint64_t{rows} * h_ * type_size_) + 2 * Align32(uint64_t{h_} * type_size_) +
           2 * Align32(CeilTo(rows, stat_rows_) * type_size_);
  }

  // Largest tile of whole 32-byte blocks of rows (a single block with fewer rows: all of them)
  // that fits; 0 when none does.
  uint32_t LargestTile(uint32_t max_rows) const {
    if (max_rows <= stat_rows_) return Fits(max_rows, Plan(max_rows)) ? max_rows : 0;
    const uint32_t k = host::LargestFitting(max_rows / stat_rows_, [&](uint32_t n) {
      return Fits(n * stat_rows_, Plan(n * stat_rows_));
    });
    return k * stat_rows_;
  }
};

}  // namespace

Status RunLayerNormOp(const LayerNormOpArgs& args, LayerNormOpInfo* info) {
  host::OpCall call;
  const uint32_t unit = host::RowsPerBlock32(args.dtype);
  LNGRAD_RETURN_IF_ERROR(host::StartCall(kApi, args,
                                         {{"x", args.x},
                                          {"gamma", args.gamma},
                                          {"beta", args.beta},
                                          {"y", args.y},
                                          {"mean", args.mean},
                                          {"variance", args.variance}},
                                         unit, &call));
  const lngrad::Product& product = *call.product;

  std::vector<LayerNormOpBlock> blocks;
  Planner planner(args, product);
  host::BlockPlanTotals totals;
  {
    host::TilingProductScope scope(product);
    const uint32_t max_block_rows = call.MaxBlockRows();
    const uint32_t tile_rows = planner.LargestTile(max_block_rows);
    if (tile_rows == 0) {
      const uint32_t r = std::min(max_block_rows, unit);
      const Planner::Tile one = planner.Plan(r);
      if (!one.status.ok()) return one.status;
      return Status::OutOfRange(
          std::string(kApi.op) + ": a tile of " + std::to_string(r) +
          " rows of H = " + std::to_string(call.h) + " " + DTypeName(args.dtype) + " needs " +
          std::to_string(planner.UbBytes(r, one)) + " bytes of UB, more than " +
          host::ProductText(product) + " has (" + std::to_string(product.ub_bytes) + ")");
    }
    LNGRAD_RETURN_IF_ERROR(
        host::PlanBlocks(kApi.op, planner, call.split, tile_rows, &blocks, &totals));
  }

  OpTilingHeader head = host::MakeHeader(args, call, blocks.size(), totals);
  head.statLength = static_cast<uint32_t>(call.rows + unit);
  head.epsilon = args.epsilon;

  // GM: x, gamma and beta are read in place; y is written in place or staged
  // (LaunchConfig::outputs); mean/variance, padded by one 32-byte block of rows (tiles write
  // whole blocks), are always staged.
  const size_t tensor_bytes = call.TensorBytes();
  const size_t stat_bytes = call.StatBytes();
  const size_t vec_bytes = call.RowBytes();
  const bool staged = host::StagedOutputs(
      args.launch, {{args.x, tensor_bytes}, {args.gamma, vec_bytes}, {args.beta, vec_bytes}},
      {{args.y, tensor_bytes}, {args.mean, stat_bytes}, {args.variance, stat_bytes}});
  const host::GmInput x(args.x, tensor_bytes), gamma(args.gamma, vec_bytes),
      beta(args.beta, vec_bytes);
  const host::GmOutput y(args.y, tensor_bytes, staged);
  host::GmStage mean(stat_bytes + unit * call.type_size),
      variance(stat_bytes + unit * call.type_size);
  const host::GmTiling tiling(head, blocks);

  LNGRAD_RETURN_IF_ERROR(host::LaunchOn(call, args.launch, blocks.size(), [&] {
    layernorm_op(x.data(), gamma.data(), beta.data(), y.data(), mean.data(), variance.data(),
                 nullptr, tiling.data());
  }));
  y.Commit();
  mean.Download(args.mean, stat_bytes);
  variance.Download(args.variance, stat_bytes);

  if (info != nullptr) {
    host::FillInfo(call, args, blocks.size(), totals, info);
    host::FillBlockInfo(blocks, &info->blocks);
    info->tile_rows = blocks[0].tileRows;
  }
  return Status::Ok();
}

}  // namespace lngrad::ops
