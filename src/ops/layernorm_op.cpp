// Forward LayerNorm operator: host side (plan, tiling, launch).
#include "ops/layernorm_op.h"

#include <algorithm>

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

using Tiling = AscendC::tiling::LayerNormTiling;

// Tiles of whole 32-byte blocks of rows (every tile but the last writes whole blocks of mean and
// variance). The tiling keeps its buffers within stackBufferSize bytes (tmpBufSize floats).
class Planner : public host::TilePlanner<Tiling, Planner> {
 public:
  using TilePlanner::TilePlanner;

  // Largest tile of whole 32-byte blocks of rows (a single block with fewer rows: all of them)
  // that fits; 0 when none does.
  uint32_t LargestTile(uint32_t max_rows) const {
    if (max_rows <= stat_rows_) return Fits(max_rows, Plan(max_rows)) ? max_rows : 0;
    const uint32_t k = host::LargestFitting(max_rows / stat_rows_, [&](uint32_t n) {
      return Fits(n * stat_rows_, Plan(n * stat_rows_));
    });
    return k * stat_rows_;
  }

  uint32_t RefusedRows(uint32_t max_rows) const { return std::min(max_rows, stat_rows_); }
  std::string RefusalText(uint32_t rows, const Tile& one) const {
    return "a tile of " + std::to_string(rows) + " rows of " + RowText() + " needs " +
           std::to_string(UbBytes(rows, one)) + " bytes of UB, more than " +
           host::ProductText(product_) + " has (" + std::to_string(product_.ub_bytes) + ")";
  }
};

}  // namespace

// Queues: x, y; gamma, beta; mean, variance.
static constexpr host::OpApi<Tiling> kLayerNorm = {
    {"LayerNorm operator", "LayerNorm",
     [](const lngrad::Product& p) { return p.supports_layernorm; }},
    {lngrad::tiling::LayerNormMaxMinTmpSize, lngrad::tiling::LayerNormNDTilingInfo},
    {.tiles = 2, .stats = 2, .rows = 2}};

Status RunLayerNormOp(const LayerNormOpArgs& args, LayerNormOpInfo* info) {
  // GM: x, gamma and beta are read in place; y is written in place or staged
  // (LaunchConfig::outputs); mean/variance, padded by one 32-byte block of rows (tiles write
  // whole blocks), are always staged.
  constexpr auto kRow = host::OpTensor::Extent::kRow;
  host::OpRun<Planner, Tiling> run;
  LNGRAD_RETURN_IF_ERROR(
      run.Plan(kLayerNorm, args, host::RowsPerBlock32(args.dtype), args.epsilon,
               {host::In("x", args.x), host::In("gamma", args.gamma, kRow),
                host::In("beta", args.beta, kRow), host::Out("y", args.y),
                host::PaddedOut("mean", args.mean), host::PaddedOut("variance", args.variance)}));
  LNGRAD_RETURN_IF_ERROR(run.Launch([](const host::OpGm& gm, uint8_t* tiling) {
    layernorm_op(gm[0], gm[1], gm[2], gm[3], gm[4], gm[5], nullptr, tiling);
  }));
  run.Commit();
  if (info != nullptr) {
    run.FillInfo(info);
    info->tile_rows = run.blocks()[0].tileRows;
  }
  return Status::Ok();
}

}  // namespace lngrad::ops
