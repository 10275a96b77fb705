// LayerNormGrad operator: host side. Plans rows per block and per tile from the product's UB,
// computes each tile's LayerNormGradTiling with the host tiling API, writes the operator tiling
// to GM and launches the kernel on the simulated device.
#include "ops/layernorm_grad_op.h"

#include <algorithm>
#include <vector>

#include "kernel_operator.h"
#include "lngrad/product.h"
#include "ops/op_host.h"
#include "ops/op_tiling.h"
#include "tiling/tiling_api.h"

extern "C" void layernorm_grad_op(uint8_t* inputX, uint8_t* inputDy, uint8_t* inputVariance,
                                  uint8_t* inputMean, uint8_t* inputGamma, uint8_t* outputPdX,
                                  uint8_t* resForGamma, uint8_t* workspace, uint8_t* tiling);

namespace lngrad::ops {
namespace {

using host::Align32;
using host::CeilTo;
using Tiling = AscendC::tiling::LayerNormGradTiling;

constexpr host::OpApi kApi = {"LayerNormGrad operator", "LayerNormGrad",
                              [](const lngrad::Product& p) { return p.supports_layernormgrad; }};

class Planner : public host::TilePlanner<Planner, Tiling> {
 public:
  Planner(const LayerNormGradOpArgs& a, const lngrad::Product& p)
      : TilePlanner(a, p), regbase_(lngrad::IsRegBaseArch(p.arch)) {}

  // Float scratch buffers of the 2201/2002 layout (spec §2.4).
  uint32_t BufNum() const {
    if (args_.dtype == OpDType::kFloat16) return 9;
    return args_.reuse_source ? 4 : 6;
  }

  // Tiling for a tile of `rows` rows with the requested scratch (spec §2.4, §2.5).
  Tile Official(uint32_t rows) const {
    Tile t = ApiPlan(rows, lngrad::tiling::LayerNormGradMaxMinTmpSize,
                     lngrad::tiling::LayerNormGradNDTilingInfo);
    // tmp_bytes != 0: the size query itself succeeded.
    if (!t.status.ok() && t.tmp_bytes != 0 && args_.tmp.kind == TmpSize::Kind::kMin && !regbase_) {
      // The size formula multiplies by sizeof(T) although the buffers are float (spec §2.4):
      // for half and a single row its minimum holds half a row per buffer, which its own
      // tiling refuses. One float row per buffer is the least the tiling accepts.
      const uint64_t least = uint64_t{BufNum()} * h_ * sizeof(float);
      if (least > t.tmp_bytes && least <= UINT32_MAX) {
        t.tmp_bytes = static_cast<uint32_t>(least);
        t.raised_min = true;
        t.status = lngrad::tiling::LayerNormGradNDTilingInfo(
            ge::Shape({1, rows, h_, h_}), t.tmp_bytes, type_size_, args_.reuse_source, t.tiling);
      }
    }
    if (!t.status.ok()) return t;
    const uint64_t layout =
        lngrad::tiling::LayerNormGradScratchFloats(t.tiling, type_size_, args_.reuse_source);
    t.need_bytes = std::max<uint64_t>(t.tmp_bytes, layout * sizeof(float));
    return t;
  }

  // The single-chunk tiling: the API's tiling for exactly n buffers of `rows` rows, with the
  // rows per loop left at `rows` instead of rounded up to a 32-byte block of rows. The kernel
  // then runs one chunk (loopNum 1, no tail), so the per-row [B,S] offsets never move and the
  // rounding is not needed; the layout shrinks from n*ceil8(rows)*H to n*rows*H floats.
  Tile SingleChunk(uint32_t rows) const {
    Tile t;
    const uint64_t one = uint64_t{rows} * h_;
    const uint64_t need = uint64_t{BufNum()} * one * sizeof(float);
    if (need > UINT32_MAX) {
      t.status = Status::OutOfRange("scratch of " + std::to_string(need) + " bytes exceeds uint32");
      return t;
    }
    t.tmp_bytes = static_cast<uint32_t>(need);
    t.status = lngrad::tiling::LayerNormGradNDTilingInfo(ge::Shape({1, rows, h_, h_}), t.tmp_bytes,
                                                         type_size_, args_.reuse_source, t.tiling);
    if (!t.status.ok()) return t;
    Tiling& g = t.tiling;
    const uint64_t old_one = g.oneCalSize;
    auto rescale = [&](uint32_t& pos) { pos = static_cast<uint32_t>(pos / old_one * one); };
    rescale(g.tmpTensorBSHPos);
    rescale(g.pdVarTensorPos);
    rescale(g.pdMeanTensorPos);
    rescale(g.x1TensorPos);
    rescale(g.x2TensorPos);
    rescale(g.x3TensorPos);
    rescale(g.tmpTensorPos);
    rescale(g.tmpTensor1Pos);
    rescale(g.tmpTensor2Pos);
    g.oneCalSize = static_cast<uint32_t>(one);
    g.nohCalSize = rows;
    g.loopNum = 1;
    g.tailSize = 0;
    g.nohTailSize = 0;
    g.tmpTensorBSHSize = g.pdVarTensorSize = g.pdMeanTensorSize = g.x1TensorSize = g.x2TensorSize =
        g.x3TensorSize = g.tmpTensorSize = g.tmpTensor1Size = g.tmpTensor2Size = g.oneCalSize;
    const uint64_t last =
        std::max({g.tmpTensorBSHPos, g.pdVarTensorPos, g.pdMeanTensorPos, g.x1TensorPos,
                  g.x2TensorPos, g.x3TensorPos, g.tmpTensorPos, g.tmpTensor1Pos, g.tmpTensor2Pos});
    t.need_bytes = std::max<uint64_t>(t.tmp_bytes, (last + one) * sizeof(float));
    return t;
  }

  Tile Plan(uint32_t rows) const { return single_chunk_ ? SingleChunk(rows) : Official(rows); }

  // x, dy, pdX, resForGamma, variance, mean, gamma (each rounded up to 32 bytes, as InitBuffer
  // does).
  uint64_t QueueBytes(uint32_t rows) const {
    return 4 * Align32(uint64_t{rows} * h_ * type_size_) +
           2 * Align32(CeilTo(rows, stat_rows_) * type_size_) + Align32(uint64_t{h_} * type_size_);
  }

  // Largest tile that fits; 0 when not even one row does.
  uint32_t LargestTile(uint32_t max_rows) const {
    const uint32_t r =
        host::LargestFitting(max_rows, [&](uint32_t rows) { return Fits(rows, Plan(rows)); });
    // Whole 32-byte blocks of rows keep every tile's mean/variance offset aligned.
    return r >= stat_rows_ ? r / stat_rows_ * stat_rows_ : r;
  }

  void UseSingleChunk() { single_chunk_ = true; }
  bool single_chunk() const { return single_chunk_; }
  bool regbase() const { return regbase_; }

 private:
  bool regbase_;
  bool single_chunk_ = false;
};

}  // namespace

Status RunLayerNormGradOp(const LayerNormGradOpArgs& args, LayerNormGradOpInfo* info) {
  host::OpCall call;
  const uint32_t stat_rows = host::RowsPerBlock32(args.dtype);
  LNGRAD_RETURN_IF_ERROR(host::StartCall(kApi, args,
                                         {{"dy", args.dy},
                                          {"x", args.x},
                                          {"mean", args.mean},
                                          {"variance", args.variance},
                                          {"gamma", args.gamma},
                                          {"pd_x", args.pd_x},
                                          {"res_for_gamma", args.res_for_gamma}},
                                         stat_rows, &call));
  const lngrad::Product& product = *call.product;

  std::vector<LayerNormGradOpBlock> blocks;
  Planner planner(args, product);
  host::BlockPlanTotals totals;
  {
    host::TilingProductScope scope(product);
    const uint32_t max_block_rows = call.MaxBlockRows();
    uint32_t tile_rows = planner.LargestTile(max_block_rows);
    if (tile_rows == 0 && args.tmp.kind == TmpSize::Kind::kMin && !planner.regbase()) {
      planner.UseSingleChunk();
      tile_rows = planner.LargestTile(max_block_rows);
    }
    if (tile_rows == 0) {
      const Planner::Tile one = planner.Plan(1);
      if (!one.status.ok()) return one.status;
      return Status::OutOfRange(
          std::string(kApi.op) + ": one row of H = " + std::to_string(call.h) + " " +
          DTypeName(args.dtype) + " needs " + std::to_string(planner.UbBytes(1, one)) +
          " bytes of UB (queues " + std::to_string(planner.QueueBytes(1)) + " + scratch " +
          std::to_string(one.need_bytes) + ", tmp " + TmpSizeText(args.tmp) + ", " +
          (args.launch.shared_tmp_buffer ? "sharedTmpBuffer" : "PopStackBuffer") + "), more than " +
          host::ProductText(product) + " has (" + std::to_string(product.ub_bytes) +
          " bytes; PopStackBuffer ends at " + std::to_string(product.stack_end_bytes) + ")");
    }
    LNGRAD_RETURN_IF_ERROR(
        host::PlanBlocks(kApi.op, planner, call.split, tile_rows, &blocks, &totals));
  }

  OpTilingHeader head = host::MakeHeader(args, call, blocks.size(), totals);
  head.statLength = static_cast<uint32_t>(call.rows + stat_rows);
  head.epsilon = args.epsilon;

  // GM: dy, x and gamma are read in place; mean/variance are copied into staging GM padded by
  // one 32-byte block of rows (tiles read whole blocks); pd_x and res_for_gamma are written in
  // place or staged (LaunchConfig::outputs).
  const size_t tensor_bytes = call.TensorBytes();
  const size_t stat_bytes = call.StatBytes();
  const bool staged =
      host::StagedOutputs(args.launch,
                          {{args.dy, tensor_bytes},
                           {args.x, tensor_bytes},
                           {args.mean, stat_bytes},
                           {args.variance, stat_bytes},
                           {args.gamma, call.RowBytes()}},
                          {{args.pd_x, tensor_bytes}, {args.res_for_gamma, tensor_bytes}});
  const host::GmInput x(args.x, tensor_bytes), dy(args.dy, tensor_bytes),
      gamma(args.gamma, call.RowBytes());
  host::GmStage mean(stat_bytes + stat_rows * call.type_size),
      variance(stat_bytes + stat_rows * call.type_size);
  const host::GmTiling tiling(head, blocks);
  const host::GmOutput pd_x(args.pd_x, tensor_bytes, staged),
      res(args.res_for_gamma, tensor_bytes, staged);
  mean.Upload(args.mean, stat_bytes);
  variance.Upload(args.variance, stat_bytes);

  LNGRAD_RETURN_IF_ERROR(host::LaunchOn(call, args.launch, blocks.size(), [&] {
    layernorm_grad_op(x.data(), dy.data(), variance.data(), mean.data(), gamma.data(), pd_x.data(),
                      res.data(), nullptr, tiling.data());
  }));
  pd_x.Commit();
  res.Commit();

  if (info != nullptr) {
    host::FillInfo(call, args, blocks.size(), totals, info);
    host::FillBlockInfo(blocks, &info->blocks);
    info->scratch_bytes = totals.scratch0;
    info->single_chunk_tiling = planner.single_chunk();
    info->min_tmp_raised = totals.raised_min;
  }
  return Status::Ok();
}

}  // namespace lngrad::ops
