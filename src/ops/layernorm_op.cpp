// Forward LayerNorm operator: host side (plan, tiling, launch).
#include "layernorm_fwd_bwd/layernorm_op.h"

#include <algorithm>
#include <map>
#include <vector>

#include "common/op_host.h"
#include "kernel_operator.h"
#include "layernorm_fwd_bwd/layernorm_op_tiling.h"
#include "lngrad/product.h"
#include "tiling/tiling_api.h"

extern "C" void layernorm_op(uint8_t* inputX, uint8_t* gamma, uint8_t* beta, uint8_t* output,
                             uint8_t* outputMean, uint8_t* outputVariance, uint8_t* workspace,
                             uint8_t* tiling);

namespace lngrad::examples {
namespace {

using host::Align32;
using host::CeilTo;

constexpr const char* kOp = "LayerNorm operator";

struct TilePlan {
  Status status;
  uint32_t tmp_bytes = 0;
  AscendC::tiling::LayerNormTiling tiling;
};

class Planner {
 public:
  Planner(const LayerNormOpArgs& a, const lngrad::Product& p)
      : args_(a),
        product_(p),
        type_size_(DTypeSize(a.dtype)),
        h_(static_cast<uint32_t>(a.h)),
        stat_rows_(host::RowsPerBlock32(a.dtype)) {}

  TilePlan Plan(uint32_t rows) const {
    TilePlan t;
    const ge::Shape shape({1, rows, h_, h_});
    uint32_t max_value = 0;
    uint32_t min_value = 0;
    t.status = lngrad::tiling::LayerNormMaxMinTmpSize(shape, type_size_, args_.reuse_source,
                                                      max_value, min_value);
    if (!t.status.ok()) return t;
    switch (args_.tmp.kind) {
      case TmpSize::Kind::kMin:
        t.tmp_bytes = min_value;
        break;
      case TmpSize::Kind::kMax:
        t.tmp_bytes = max_value;
        break;
      case TmpSize::Kind::kBytes:
        t.tmp_bytes = args_.tmp.bytes;
        break;
    }
    t.status = lngrad::tiling::LayerNormNDTilingInfo(shape, t.tmp_bytes, type_size_,
                                                     args_.reuse_source, t.tiling);
    return t;
  }

  // x, y, gamma, beta, mean, variance.
  uint64_t QueueBytes(uint32_t rows) const {
    return 2 * Align32(uint64_t{rows} * h_ * type_size_) + 2 * Align32(uint64_t{h_} * type_size_) +
           2 * Align32(CeilTo(rows, stat_rows_) * type_size_);
  }
  // The tiling keeps its buffers within stackBufferSize bytes (tmpBufSize floats).
  uint64_t ScratchBytes(const TilePlan& t) const {
    return std::max<uint64_t>(32, Align32(t.tmp_bytes));
  }
  bool Fits(uint32_t rows, const TilePlan& t) const {
    if (!t.status.ok()) return false;
    const uint64_t queues = QueueBytes(rows);
    if (args_.launch.shared_tmp_buffer) return queues + ScratchBytes(t) <= product_.ub_bytes;
    return queues <= product_.ub_bytes && queues + t.tmp_bytes <= product_.stack_end_bytes;
  }
  uint64_t UbBytes(uint32_t rows, const TilePlan& t) const {
    return QueueBytes(rows) + (args_.launch.shared_tmp_buffer ? ScratchBytes(t) : t.tmp_bytes);
  }
  uint32_t stat_rows() const { return stat_rows_; }

 private:
  const LayerNormOpArgs& args_;
  const lngrad::Product& product_;
  uint32_t type_size_;
  uint32_t h_;
  uint32_t stat_rows_;
};

Status CheckArgs(const LayerNormOpArgs& a) {
  LNGRAD_RETURN_IF_ERROR(host::CheckShape(kOp, a.b, a.s, a.h, a.dtype));
  LNGRAD_RETURN_IF_ERROR(host::CheckBlocks(kOp, a.launch.blocks));
  const std::pair<const char*, const void*> pointers[] = {
      {"x", a.x}, {"gamma", a.gamma}, {"beta", a.beta},
      {"y", a.y}, {"mean", a.mean},   {"variance", a.variance}};
  for (const auto& [name, p] : pointers) LNGRAD_RETURN_IF_ERROR(host::CheckPointer(kOp, name, p));
  return Status::Ok();
}

}  // namespace

Status RunLayerNormOp(const LayerNormOpArgs& args, LayerNormOpInfo* info) {
  LNGRAD_RETURN_IF_ERROR(CheckArgs(args));
  const lngrad::Product* product = nullptr;
  LNGRAD_RETURN_IF_ERROR(host::ResolveProduct(
      args.launch.soc, "LayerNorm", [](const lngrad::Product& p) { return p.supports_layernorm; },
      &product));

  const uint64_t rows = static_cast<uint64_t>(args.b) * static_cast<uint64_t>(args.s);
  const uint32_t h = static_cast<uint32_t>(args.h);
  const uint32_t type_size = DTypeSize(args.dtype);
  Planner planner(args, *product);
  const uint32_t unit = planner.stat_rows();
  const std::vector<host::BlockRows> split = host::SplitRows(rows, args.launch.blocks, unit);

  std::vector<lngrad_example::LayerNormOpBlock> blocks(split.size());
  host::BlockPlanTotals totals;
  {
    host::TilingProductScope scope(*product);
    uint32_t max_block_rows = 0;
    for (const host::BlockRows& br : split) max_block_rows = std::max(max_block_rows, br.count);
    uint32_t tile_rows = 0;
    if (max_block_rows <= unit) {
      // A single block with less than one 32-byte block of rows.
      if (planner.Fits(max_block_rows, planner.Plan(max_block_rows))) tile_rows = max_block_rows;
    } else {
      const uint32_t k = host::LargestFitting(max_block_rows / unit, [&](uint32_t n) {
        return planner.Fits(n * unit, planner.Plan(n * unit));
      });
      tile_rows = k * unit;
    }
    if (tile_rows == 0) {
      const uint32_t r = std::min(max_block_rows, unit);
      const TilePlan one = planner.Plan(r);
      if (!one.status.ok()) return one.status;
      return Status::OutOfRange(std::string(kOp) + ": a tile of " + std::to_string(r) +
                                " rows of H = " + std::to_string(h) + " " + DTypeName(args.dtype) +
                                " needs " + std::to_string(planner.UbBytes(r, one)) +
                                " bytes of UB, more than " + host::ProductText(*product) +
                                " has (" + std::to_string(product->ub_bytes) + ")");
    }
    LNGRAD_RETURN_IF_ERROR(host::PlanBlocks(kOp, planner, split, tile_rows, &blocks, &totals));
  }

  lngrad_example::LayerNormOpHeader head{};
  head.dtype = args.dtype == OpDType::kFloat16 ? 1 : 0;
  head.isReuseSource = args.reuse_source ? 1 : 0;
  head.useSharedTmpBuffer = args.launch.shared_tmp_buffer ? 1 : 0;
  head.tmpBufferBytes =
      args.launch.shared_tmp_buffer ? static_cast<uint32_t>(totals.tbuf_bytes) : 0;
  head.hLength = h;
  head.statLength = static_cast<uint32_t>(rows + unit);
  head.blockNum = static_cast<uint32_t>(blocks.size());
  head.epsilon = args.epsilon;

  // GM: x, gamma and beta are read in place; y is written in place or staged
  // (LaunchConfig::outputs); mean/variance, padded by one 32-byte block of rows (tiles write
  // whole blocks), are always staged.
  const size_t tensor_bytes = static_cast<size_t>(rows * h * type_size);
  const size_t stat_bytes = static_cast<size_t>(rows * type_size);
  const size_t vec_bytes = size_t{h} * type_size;
  const bool staged = host::StagedOutputs(
      args.launch, {{args.x, tensor_bytes}, {args.gamma, vec_bytes}, {args.beta, vec_bytes}},
      {{args.y, tensor_bytes}, {args.mean, stat_bytes}, {args.variance, stat_bytes}});
  const host::GmInput x(args.x, tensor_bytes), gamma(args.gamma, vec_bytes),
      beta(args.beta, vec_bytes);
  const host::GmOutput y(args.y, tensor_bytes, staged);
  host::GmStage mean(stat_bytes + unit * type_size), variance(stat_bytes + unit * type_size);
  host::GmStage tiling(sizeof(head) + blocks.size() * sizeof(lngrad_example::LayerNormOpBlock));
  std::memcpy(tiling.data(), &head, sizeof(head));
  std::memcpy(tiling.data() + sizeof(head), blocks.data(), blocks.size() * sizeof(blocks[0]));

  aicore::LaunchOptions options;
  options.sequential = args.launch.sequential;
  options.soc = std::string(product->soc);
  LNGRAD_RETURN_IF_ERROR(aicore::Launch(
      static_cast<uint32_t>(blocks.size()),
      [&] {
        layernorm_op(x.data(), gamma.data(), beta.data(), y.data(), mean.data(), variance.data(),
                     nullptr, tiling.data());
      },
      options));
  y.Commit();
  mean.Download(args.mean, stat_bytes);
  variance.Download(args.variance, stat_bytes);

  if (info != nullptr) {
    info->soc = std::string(product->soc);
    info->arch = static_cast<uint32_t>(product->arch);
    info->blocks_used = static_cast<uint32_t>(blocks.size());
    info->tile_rows = blocks[0].tileRows;
    info->tiles = totals.tiles;
    info->tmp_bytes = totals.tmp0;
    info->ub_bytes = totals.ub0;
  }
  return Status::Ok();
}

}  // namespace lngrad::examples
