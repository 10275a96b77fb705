// LayerNormGradBeta operator: host side (plan, tiling, two launches).
#include "layernorm_grad_beta/layernorm_grad_beta_op.h"

#include <algorithm>
#include <map>

#include "common/op_host.h"
#include "kernel_operator.h"
#include "layernorm_grad_beta/layernorm_grad_beta_op_tiling.h"
#include "lngrad/product.h"
#include "tiling/tiling_api.h"

extern "C" void layernorm_grad_beta_op(uint8_t* resForGamma, uint8_t* inputDy, uint8_t* workspace,
                                       uint8_t* tiling);
extern "C" void layernorm_grad_beta_combine(uint8_t* workspace, uint8_t* outputPdGamma,
                                            uint8_t* outputPdBeta, uint8_t* tiling);

namespace lngrad::examples {
namespace {

using host::Align32;

constexpr const char* kOp = "LayerNormGradBeta operator";
constexpr uint32_t kCombineCols = 4096;  // columns per combine step: a multiple of 16 (half blocks)

struct TilePlan {
  Status status;
  uint32_t tmp_bytes = 0;
  AscendC::tiling::LayerNormGradBetaTiling tiling;
};

class Planner {
 public:
  Planner(const LayerNormGradBetaOpArgs& a, const lngrad::Product& p)
      : args_(a), product_(p), type_size_(DTypeSize(a.dtype)), h_(static_cast<uint32_t>(a.h)) {}

  TilePlan Plan(uint32_t rows) const {
    TilePlan t;
    const ge::Shape shape({1, rows, h_, h_});
    uint32_t max_value = 0;
    uint32_t min_value = 0;
    t.status = lngrad::tiling::LayerNormGradBetaMaxMinTmpSize(shape, type_size_, args_.reuse_source,
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
    t.status = lngrad::tiling::LayerNormGradBetaNDTilingInfo(shape, t.tmp_bytes, type_size_,
                                                             args_.reuse_source, t.tiling);
    return t;
  }

  // TPipe bytes: resForGamma and dy tiles, the partial sums (2*H floats), the API's two [H]
  // outputs, and for half a float row to widen them.
  uint64_t QueueBytes(uint32_t rows) const {
    const uint64_t tile = Align32(uint64_t{rows} * h_ * type_size_);
    const uint64_t row_t = Align32(uint64_t{h_} * type_size_);
    const uint64_t row_f = Align32(uint64_t{h_} * sizeof(float));
    return 2 * tile + 2 * row_f + 2 * row_t + (type_size_ == 2 ? row_f : 0);
  }
  // The API's scratch lies within stackBufferSize floats (spec §3.6), i.e. within tmp_bytes.
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

 private:
  const LayerNormGradBetaOpArgs& args_;
  const lngrad::Product& product_;
  uint32_t type_size_;
  uint32_t h_;
};

Status CheckArgs(const LayerNormGradBetaOpArgs& a) {
  LNGRAD_RETURN_IF_ERROR(host::CheckShape(kOp, a.b, a.s, a.h, a.dtype));
  LNGRAD_RETURN_IF_ERROR(host::CheckBlocks(kOp, a.launch.blocks));
  const std::pair<const char*, const void*> pointers[] = {{"res_for_gamma", a.res_for_gamma},
                                                          {"dy", a.dy},
                                                          {"pd_gamma", a.pd_gamma},
                                                          {"pd_beta", a.pd_beta}};
  for (const auto& [name, p] : pointers) LNGRAD_RETURN_IF_ERROR(host::CheckPointer(kOp, name, p));
  return Status::Ok();
}

}  // namespace

Status RunLayerNormGradBetaOp(const LayerNormGradBetaOpArgs& args, LayerNormGradBetaOpInfo* info) {
  LNGRAD_RETURN_IF_ERROR(CheckArgs(args));
  const lngrad::Product* product = nullptr;
  LNGRAD_RETURN_IF_ERROR(host::ResolveProduct(
      args.launch.soc, "LayerNormGradBeta",
      [](const lngrad::Product& p) { return p.supports_layernormgradbeta; }, &product));

  const uint64_t rows = static_cast<uint64_t>(args.b) * static_cast<uint64_t>(args.s);
  const uint32_t h = static_cast<uint32_t>(args.h);
  const uint32_t type_size = DTypeSize(args.dtype);
  // No per-row [B,S] tensors here: any row boundary keeps dy and resForGamma aligned.
  const std::vector<host::BlockRows> split = host::SplitRows(rows, args.launch.blocks, 1);

  std::vector<lngrad_example::LayerNormGradBetaOpBlock> blocks(split.size());
  Planner planner(args, *product);
  host::BlockPlanTotals totals;
  {
    host::TilingProductScope scope(*product);
    uint32_t max_block_rows = 0;
    for (const host::BlockRows& br : split) max_block_rows = std::max(max_block_rows, br.count);
    const uint32_t tile_rows = host::LargestFitting(
        max_block_rows, [&](uint32_t r) { return planner.Fits(r, planner.Plan(r)); });
    if (tile_rows == 0) {
      const TilePlan one = planner.Plan(1);
      if (!one.status.ok()) return one.status;
      return Status::OutOfRange(
          std::string(kOp) + ": one row of H = " + std::to_string(h) + " " + DTypeName(args.dtype) +
          " needs " + std::to_string(planner.UbBytes(1, one)) + " bytes of UB (tmp " +
          TmpSizeText(args.tmp) + "), more than " + host::ProductText(*product) + " has (" +
          std::to_string(product->ub_bytes) + ")");
    }
    LNGRAD_RETURN_IF_ERROR(host::PlanBlocks(kOp, planner, split, tile_rows, &blocks, &totals));
  }

  lngrad_example::LayerNormGradBetaOpHeader head{};
  head.dtype = args.dtype == OpDType::kFloat16 ? 1 : 0;
  head.isReuseSource = args.reuse_source ? 1 : 0;
  head.useSharedTmpBuffer = args.launch.shared_tmp_buffer ? 1 : 0;
  head.tmpBufferBytes =
      args.launch.shared_tmp_buffer ? static_cast<uint32_t>(totals.tbuf_bytes) : 0;
  head.hLength = h;
  head.blockNum = static_cast<uint32_t>(blocks.size());
  head.combineCols = std::min(h, kCombineCols);

  // GM: res_for_gamma and dy are read in place. The outputs ([H] each) are always staged: the
  // combine launch writes them after the partial launch, and staging keeps a failure in either
  // from leaving half-written outputs at no measurable cost.
  const size_t tensor_bytes = static_cast<size_t>(rows * h * type_size);
  const size_t vec_bytes = size_t{h} * type_size;
  const host::GmInput res(args.res_for_gamma, tensor_bytes), dy(args.dy, tensor_bytes);
  const host::GmOutput pd_gamma(args.pd_gamma, vec_bytes, true),
      pd_beta(args.pd_beta, vec_bytes, true);
  host::GmStage workspace(blocks.size() * 2 * h * sizeof(float));
  host::GmStage tiling(sizeof(head) +
                       blocks.size() * sizeof(lngrad_example::LayerNormGradBetaOpBlock));
  workspace.Zero();
  std::memcpy(tiling.data(), &head, sizeof(head));
  std::memcpy(tiling.data() + sizeof(head), blocks.data(), blocks.size() * sizeof(blocks[0]));

  aicore::LaunchOptions options;
  options.sequential = args.launch.sequential;
  options.soc = std::string(product->soc);
  LNGRAD_RETURN_IF_ERROR(aicore::Launch(
      static_cast<uint32_t>(blocks.size()),
      [&] { layernorm_grad_beta_op(res.data(), dy.data(), workspace.data(), tiling.data()); },
      options));
  LNGRAD_RETURN_IF_ERROR(aicore::Launch(
      1,
      [&] {
        layernorm_grad_beta_combine(workspace.data(), pd_gamma.data(), pd_beta.data(),
                                    tiling.data());
      },
      options));
  pd_gamma.Commit();
  pd_beta.Commit();

  if (info != nullptr) {
    LayerNormGradBetaOpInfo out;
    out.soc = std::string(product->soc);
    out.product_line = std::string(product->product_line);
    out.arch = static_cast<uint32_t>(product->arch);
    out.blocks_requested = args.launch.blocks;
    out.blocks_used = static_cast<uint32_t>(blocks.size());
    out.prototype = args.launch.shared_tmp_buffer ? "sharedTmpBuffer" : "PopStackBuffer";
    out.tmp_bytes = totals.tmp0;
    out.ub_bytes = totals.ub0;
    out.tiles = totals.tiles;
    for (const auto& blk : blocks) {
      LayerNormGradBetaOpBlockInfo b;
      b.row_start = blk.rowStart;
      b.row_count = blk.rowCount;
      b.tile_rows = blk.tileRows;
      b.tile_num = blk.tileNum;
      b.tail_rows = blk.tailRows;
      b.tile_tiling = blk.tileTiling;
      b.tail_tiling = blk.tailTiling;
      out.blocks.push_back(b);
    }
    *info = std::move(out);
  }
  return Status::Ok();
}

}  // namespace lngrad::examples
