// LayerNormGrad operator: host side. Plans rows per block and per tile from the product's UB,
// computes each tile's LayerNormGradTiling with the host tiling API, writes the operator tiling
// to GM and launches the kernel on the simulated device.
#include "ops/layernorm_grad_op.h"

#include <algorithm>

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

using Tiling = AscendC::tiling::LayerNormGradTiling;

// Chooses between the API's tiling and the single-chunk tiling (both from src/tiling; this
// layer never rewrites a tiling), with two fallbacks on arch 2201/2002 (regbase: 3510 needs
// neither).
class Planner : public host::TilePlanner<Tiling, Planner> {
 public:
  using TilePlanner::TilePlanner;

  // Float scratch buffers of the 2201/2002 layout (spec §2.4).
  uint32_t BufNum() const {
    if (args_.dtype == OpDType::kFloat16) return 9;
    return args_.reuse_source ? 4 : 6;
  }

  // Tiling for a tile of `rows` rows with the requested scratch (spec §2.4, §2.5).
  Tile Official(uint32_t rows) const {
    Tile t = TilePlanner::Plan(rows);
    // tmp_bytes != 0: the size query itself succeeded.
    if (!t.status.ok() && t.tmp_bytes != 0 && args_.tmp.kind == TmpSize::Kind::kMin && !regbase()) {
      // The size formula multiplies by sizeof(T) although the buffers are float (spec §2.4):
      // for half and a single row its minimum holds half a row per buffer, which its own
      // tiling refuses. One float row per buffer is the least the tiling accepts.
      const uint64_t least = uint64_t{BufNum()} * h_ * sizeof(float);
      if (least > t.tmp_bytes && least <= UINT32_MAX) {
        t.tmp_bytes = static_cast<uint32_t>(least);
        t.raised_min = true;
        t.status = lngrad::tiling::LayerNormGradNDTilingInfo(ge::Shape({1, rows, h_, tiling_h_}),
                                                             t.tmp_bytes, type_size_,
                                                             args_.reuse_source, t.tiling);
      }
    }
    if (!t.status.ok()) return t;
    const uint64_t layout =
        lngrad::tiling::LayerNormGradScratchFloats(t.tiling, type_size_, args_.reuse_source);
    t.need_bytes = std::max<uint64_t>(t.tmp_bytes, layout * sizeof(float));
    return t;
  }

  // The single-chunk tiling (lngrad::tiling::LayerNormGradSingleChunkTilingInfo): one chunk of
  // `rows` rows, not rounded up to a 32-byte block of rows, in exactly the scratch it sizes.
  Tile SingleChunk(uint32_t rows) const {
    Tile t;
    t.status = lngrad::tiling::LayerNormGradSingleChunkTilingInfo(
        ge::Shape({1, rows, h_, tiling_h_}), type_size_, args_.reuse_source, t.tiling);
    if (!t.status.ok()) return t;
    t.tmp_bytes = t.tiling.stackBufferSize;
    t.need_bytes = t.tmp_bytes;
    return t;
  }

  // The planner chooses between the two tilings; both are computed in src/tiling.
  Tile Plan(uint32_t rows) const { return single_chunk_ ? SingleChunk(rows) : Official(rows); }

  // Largest tile that fits, in whole 32-byte blocks of rows when it has that many (every tile's
  // mean/variance offset stays aligned); 0 when not even one row does. With the minimum tmp
  // size on 2201/2002, falls back to the single-chunk tiling when the API's does not fit.
  uint32_t LargestTile(uint32_t max_rows) {
    uint32_t r = TilePlanner::LargestTile(max_rows);
    if (r == 0 && args_.tmp.kind == TmpSize::Kind::kMin && !regbase()) {
      single_chunk_ = true;
      r = TilePlanner::LargestTile(max_rows);
    }
    return r >= stat_rows_ ? r / stat_rows_ * stat_rows_ : r;
  }

  std::string RefusalText(uint32_t rows, const Tile& one) const {
    return "one row of " + RowText() + " needs " + std::to_string(UbBytes(rows, one)) +
           " bytes of UB (queues " + std::to_string(QueueBytes(rows)) + " + scratch " +
           std::to_string(one.need_bytes) + ", tmp " + TmpSizeText(args_.tmp) + ", " +
           (args_.launch.shared_tmp_buffer ? "sharedTmpBuffer" : "PopStackBuffer") +
           "), more than " + host::ProductText(product_) + " has (" +
           std::to_string(product_.ub_bytes) + " bytes; PopStackBuffer ends at " +
           std::to_string(product_.stack_end_bytes) + ")";
  }

  bool single_chunk() const { return single_chunk_; }
  bool regbase() const { return lngrad::IsRegBaseArch(product_.arch); }

 private:
  bool single_chunk_ = false;
};

// Queues: x, dy, pdX, resForGamma; variance, mean; gamma.
constexpr host::OpApi<Tiling> kLayerNormGrad = {
    {"LayerNormGrad operator", "LayerNormGrad",
     [](const lngrad::Product& p) { return p.supports_layernormgrad; },
     host::RowPadding::kRealInTiling},
    {lngrad::tiling::LayerNormGradMaxMinTmpSize, lngrad::tiling::LayerNormGradNDTilingInfo},
    {.tiles = 4, .stats = 2, .rows = 1}};

}  // namespace

Status RunLayerNormGradOp(const LayerNormGradOpArgs& args, LayerNormGradOpInfo* info) {
  // GM: dy, x and gamma are read in place; mean/variance are copied into staging GM padded by
  // one 32-byte block of rows (tiles read whole blocks); pd_x and res_for_gamma are written in
  // place or staged (LaunchConfig::outputs).
  host::OpRun<Planner, Tiling> run;
  LNGRAD_RETURN_IF_ERROR(
      run.Plan(kLayerNormGrad, args, host::RowsPerBlock32(args.dtype), args.epsilon,
               {host::In("dy", args.dy), host::In("x", args.x), host::PaddedIn("mean", args.mean),
                host::PaddedIn("variance", args.variance),
                host::In("gamma", args.gamma, host::OpTensor::Extent::kRow),
                host::Out("pd_x", args.pd_x), host::Out("res_for_gamma", args.res_for_gamma)}));
  LNGRAD_RETURN_IF_ERROR(run.Launch([](const host::OpGm& gm, uint8_t* tiling) {
    // The sample's argument order: x, dy, variance, mean, gamma, pdX, resForGamma.
    layernorm_grad_op(gm[1], gm[0], gm[3], gm[2], gm[4], gm[5], gm[6], nullptr, tiling);
  }));
  run.Commit();

  if (info != nullptr) {
    run.FillInfo(info);
    info->scratch_bytes = run.totals().scratch0;
    info->single_chunk_tiling = run.planner().single_chunk();
    info->min_tmp_raised = run.totals().raised_min;
  }
  return Status::Ok();
}

}  // namespace lngrad::ops
