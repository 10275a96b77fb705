// LayerNormGrad operator: host side. Plans rows per block and per tile from the product's UB,
// computes each tile's LayerNormGradTiling with the host tiling API, writes the operator tiling
// to GM and launches the kernel on the simulated device.
#include "layernorm_grad/layernorm_grad_op.h"

#include <algorithm>
#include <map>
#include <vector>

#include "common/op_host.h"
#include "kernel_operator.h"
#include "layernorm_grad/layernorm_grad_op_tiling.h"
#include "lngrad/product.h"
#include "tiling/tiling_api.h"

extern "C" void layernorm_grad_op(uint8_t* inputX, uint8_t* inputDy, uint8_t* inputVariance,
                                  uint8_t* inputMean, uint8_t* inputGamma, uint8_t* outputPdX,
                                  uint8_t* resForGamma, uint8_t* workspace, uint8_t* tiling);

namespace lngrad::examples {
namespace {

using host::Align32;
using host::CeilTo;

constexpr const char* kOp = "LayerNormGrad operator";

// Scratch of one tile: what the tiling says (stackBufferSize) and what the kernel touches.
struct TilePlan {
  Status status;
  uint32_t tmp_bytes = 0;   // tiling.stackBufferSize
  uint64_t need_bytes = 0;  // max(tmp_bytes, layout end): the scratch the tile must be given
  AscendC::tiling::LayerNormGradTiling tiling;
  bool raised_min = false;  // the API's minimum was below what its own tiling accepts
};

class Planner {
 public:
  Planner(const LayerNormGradOpArgs& a, const lngrad::Product& p)
      : args_(a),
        product_(p),
        type_size_(DTypeSize(a.dtype)),
        h_(static_cast<uint32_t>(a.h)),
        stat_rows_(host::RowsPerBlock32(a.dtype)),
        regbase_(lngrad::IsRegBaseArch(p.arch)) {}

  // Float scratch buffers of the 2201/2002 layout (spec §2.4).
  uint32_t BufNum() const {
    if (args_.dtype == OpDType::kFloat16) return 9;
    return args_.reuse_source ? 4 : 6;
  }

  // Tiling for a tile of `rows` rows with the requested scratch (spec §2.4, §2.5).
  TilePlan Official(uint32_t rows) const {
    TilePlan t;
    const ge::Shape shape({1, rows, h_, h_});
    uint32_t max_value = 0;
    uint32_t min_value = 0;
    t.status = lngrad::tiling::LayerNormGradMaxMinTmpSize(shape, type_size_, args_.reuse_source,
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
    t.status = lngrad::tiling::LayerNormGradNDTilingInfo(shape, t.tmp_bytes, type_size_,
                                                         args_.reuse_source, t.tiling);
    if (!t.status.ok() && args_.tmp.kind == TmpSize::Kind::kMin && !regbase_) {
      // The size formula multiplies by sizeof(T) although the buffers are float (spec §2.4):
      // for half and a single row its minimum holds half a row per buffer, which its own
      // tiling refuses. One float row per buffer is the least the tiling accepts.
      const uint64_t least = uint64_t{BufNum()} * h_ * sizeof(float);
      if (least > t.tmp_bytes && least <= UINT32_MAX) {
        t.tmp_bytes = static_cast<uint32_t>(least);
        t.raised_min = true;
        t.status = lngrad::tiling::LayerNormGradNDTilingInfo(shape, t.tmp_bytes, type_size_,
                                                             args_.reuse_source, t.tiling);
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
  TilePlan SingleChunk(uint32_t rows) const {
    TilePlan t;
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
    AscendC::tiling::LayerNormGradTiling& g = t.tiling;
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

  TilePlan Plan(uint32_t rows) const { return single_chunk_ ? SingleChunk(rows) : Official(rows); }

  // TPipe bytes of a block whose queues hold `rows` rows: x, dy, pdX, resForGamma, variance,
  // mean, gamma (each rounded up to 32 bytes, as InitBuffer does).
  uint64_t QueueBytes(uint32_t rows) const {
    return 4 * Align32(uint64_t{rows} * h_ * type_size_) +
           2 * Align32(CeilTo(rows, stat_rows_) * type_size_) + Align32(uint64_t{h_} * type_size_);
  }
  uint64_t TmpBufferBytes(uint64_t need) const { return std::max<uint64_t>(32, Align32(need)); }

  // Whether a block with queues for `rows` rows and this tile's scratch fits the UB.
  bool Fits(uint32_t rows, const TilePlan& t) const {
    if (!t.status.ok()) return false;
    const uint64_t queues = QueueBytes(rows);
    if (args_.launch.shared_tmp_buffer)
      return queues + TmpBufferBytes(t.need_bytes) <= product_.ub_bytes;
    // PopStackBuffer hands the API everything from the end of the queues to the stack end.
    return queues <= product_.ub_bytes && queues + t.need_bytes <= product_.stack_end_bytes;
  }
  uint64_t UbBytes(uint32_t rows, const TilePlan& t) const {
    return QueueBytes(rows) +
           (args_.launch.shared_tmp_buffer ? TmpBufferBytes(t.need_bytes) : t.need_bytes);
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
  const LayerNormGradOpArgs& args_;
  const lngrad::Product& product_;
  uint32_t type_size_;
  uint32_t h_;
  uint32_t stat_rows_;
  bool regbase_;
  bool single_chunk_ = false;
};

Status CheckArgs(const LayerNormGradOpArgs& a) {
  LNGRAD_RETURN_IF_ERROR(host::CheckShape(kOp, a.b, a.s, a.h, a.dtype));
  LNGRAD_RETURN_IF_ERROR(host::CheckBlocks(kOp, a.launch.blocks));
  const std::pair<const char*, const void*> pointers[] = {{"dy", a.dy},
                                                          {"x", a.x},
                                                          {"mean", a.mean},
                                                          {"variance", a.variance},
                                                          {"gamma", a.gamma},
                                                          {"pd_x", a.pd_x},
                                                          {"res_for_gamma", a.res_for_gamma}};
  for (const auto& [name, p] : pointers) LNGRAD_RETURN_IF_ERROR(host::CheckPointer(kOp, name, p));
  return Status::Ok();
}

}  // namespace

Status RunLayerNormGradOp(const LayerNormGradOpArgs& args, LayerNormGradOpInfo* info) {
  LNGRAD_RETURN_IF_ERROR(CheckArgs(args));
  const lngrad::Product* product = nullptr;
  LNGRAD_RETURN_IF_ERROR(host::ResolveProduct(
      args.launch.soc, "LayerNormGrad",
      [](const lngrad::Product& p) { return p.supports_layernormgrad; }, &product));

  const uint64_t rows = static_cast<uint64_t>(args.b) * static_cast<uint64_t>(args.s);
  const uint32_t h = static_cast<uint32_t>(args.h);
  const uint32_t type_size = DTypeSize(args.dtype);
  const uint32_t stat_rows = host::RowsPerBlock32(args.dtype);
  const std::vector<host::BlockRows> split = host::SplitRows(rows, args.launch.blocks, stat_rows);

  std::vector<lngrad_example::LayerNormGradOpBlock> blocks(split.size());
  Planner planner(args, *product);
  uint32_t tmp_bytes0 = 0;
  uint64_t scratch0 = 0, ub0 = 0, tiles = 0;
  bool min_tmp_raised = false;
  {
    host::TilingProductScope scope(*product);
    uint32_t max_block_rows = 0;
    for (const host::BlockRows& br : split) max_block_rows = std::max(max_block_rows, br.count);
    uint32_t tile_rows = planner.LargestTile(max_block_rows);
    if (tile_rows == 0 && args.tmp.kind == TmpSize::Kind::kMin && !planner.regbase()) {
      planner.UseSingleChunk();
      tile_rows = planner.LargestTile(max_block_rows);
    }
    if (tile_rows == 0) {
      const TilePlan one = planner.Plan(1);
      if (!one.status.ok()) return one.status;
      return Status::OutOfRange(
          std::string(kOp) + ": one row of H = " + std::to_string(h) + " " + DTypeName(args.dtype) +
          " needs " + std::to_string(planner.UbBytes(1, one)) + " bytes of UB (queues " +
          std::to_string(planner.QueueBytes(1)) + " + scratch " + std::to_string(one.need_bytes) +
          ", tmp " + TmpSizeText(args.tmp) + ", " +
          (args.launch.shared_tmp_buffer ? "sharedTmpBuffer" : "PopStackBuffer") + "), more than " +
          host::ProductText(*product) + " has (" + std::to_string(product->ub_bytes) +
          " bytes; PopStackBuffer ends at " + std::to_string(product->stack_end_bytes) + ")");
    }
    std::map<uint32_t, TilePlan> cache;
    auto plan_for = [&](uint32_t r) -> const TilePlan& {
      auto it = cache.find(r);
      if (it == cache.end()) it = cache.emplace(r, planner.Plan(r)).first;
      return it->second;
    };
    for (size_t i = 0; i < split.size(); ++i) {
      lngrad_example::LayerNormGradOpBlock& blk = blocks[i];
      blk = {};
      blk.rowStart = split[i].start;
      blk.rowCount = split[i].count;
      blk.tileRows = std::min(tile_rows, blk.rowCount);
      blk.tileNum = blk.rowCount / blk.tileRows;
      blk.tailRows = blk.rowCount % blk.tileRows;
      const TilePlan& full = plan_for(blk.tileRows);
      if (!planner.Fits(blk.tileRows, full)) {
        return Status::Internal(std::string(kOp) + ": planned tile of " +
                                std::to_string(blk.tileRows) +
                                " rows does not fit: " + full.status.ToString());
      }
      blk.tileTiling = full.tiling;
      min_tmp_raised = min_tmp_raised || full.raised_min;
      if (blk.tailRows != 0) {
        const TilePlan& tail = plan_for(blk.tailRows);
        min_tmp_raised = min_tmp_raised || tail.raised_min;
        // The tail shares the block's queues (sized for tileRows).
        if (!tail.status.ok() || !planner.Fits(blk.tileRows, tail)) {
          return Status::Internal(std::string(kOp) + ": tail tile of " +
                                  std::to_string(blk.tailRows) +
                                  " rows does not fit: " + tail.status.ToString());
        }
        blk.tailTiling = tail.tiling;
      }
      tiles += blk.tileNum + (blk.tailRows != 0 ? 1 : 0);
      if (i == 0) {
        tmp_bytes0 = full.tmp_bytes;
        scratch0 = full.need_bytes;
        ub0 = planner.UbBytes(blk.tileRows, full);
      }
    }
  }
  // One TBuf size serves every block: the largest scratch any tile needs.
  uint64_t tbuf_bytes = 0;
  if (args.launch.shared_tmp_buffer) {
    host::TilingProductScope scope(*product);
    for (const auto& blk : blocks) {
      tbuf_bytes =
          std::max(tbuf_bytes, planner.TmpBufferBytes(planner.Plan(blk.tileRows).need_bytes));
      if (blk.tailRows != 0) {
        tbuf_bytes =
            std::max(tbuf_bytes, planner.TmpBufferBytes(planner.Plan(blk.tailRows).need_bytes));
      }
    }
  }

  lngrad_example::LayerNormGradOpHeader head{};
  head.dtype = args.dtype == OpDType::kFloat16 ? 1 : 0;
  head.isReuseSource = args.reuse_source ? 1 : 0;
  head.useSharedTmpBuffer = args.launch.shared_tmp_buffer ? 1 : 0;
  head.tmpBufferBytes = static_cast<uint32_t>(tbuf_bytes);
  head.hLength = h;
  head.statLength = static_cast<uint32_t>(rows + stat_rows);
  head.blockNum = static_cast<uint32_t>(blocks.size());
  head.epsilon = args.epsilon;

  // GM: dy, x and gamma are read in place; mean/variance are copied into staging GM padded by
  // one 32-byte block of rows (tiles read whole blocks); pd_x and res_for_gamma are written in
  // place or staged (LaunchConfig::outputs).
  const size_t tensor_bytes = static_cast<size_t>(rows * h * type_size);
  const size_t stat_bytes = static_cast<size_t>(rows * type_size);
  const size_t gamma_bytes = size_t{h} * type_size;
  const bool staged = host::StagedOutputs(
      args.launch,
      {{args.dy, tensor_bytes}, {args.x, tensor_bytes}, {args.mean, stat_bytes},
       {args.variance, stat_bytes}, {args.gamma, gamma_bytes}},
      {{args.pd_x, tensor_bytes}, {args.res_for_gamma, tensor_bytes}});
  const host::GmInput x(args.x, tensor_bytes), dy(args.dy, tensor_bytes),
      gamma(args.gamma, gamma_bytes);
  host::GmStage mean(stat_bytes + stat_rows * type_size),
      variance(stat_bytes + stat_rows * type_size);
  host::GmStage tiling(sizeof(head) + blocks.size() * sizeof(lngrad_example::LayerNormGradOpBlock));
  const host::GmOutput pd_x(args.pd_x, tensor_bytes, staged),
      res(args.res_for_gamma, tensor_bytes, staged);
  mean.Upload(args.mean, stat_bytes);
  variance.Upload(args.variance, stat_bytes);
  std::memcpy(tiling.data(), &head, sizeof(head));
  std::memcpy(tiling.data() + sizeof(head), blocks.data(), blocks.size() * sizeof(blocks[0]));

  aicore::LaunchOptions options;
  options.sequential = args.launch.sequential;
  options.soc = std::string(product->soc);
  LNGRAD_RETURN_IF_ERROR(aicore::Launch(
      static_cast<uint32_t>(blocks.size()),
      [&] {
        layernorm_grad_op(x.data(), dy.data(), variance.data(), mean.data(), gamma.data(),
                          pd_x.data(), res.data(), nullptr, tiling.data());
      },
      options));
  pd_x.Commit();
  res.Commit();

  if (info != nullptr) {
    LayerNormGradOpInfo out;
    out.soc = std::string(product->soc);
    out.product_line = std::string(product->product_line);
    out.arch = static_cast<uint32_t>(product->arch);
    out.blocks_requested = args.launch.blocks;
    out.blocks_used = static_cast<uint32_t>(blocks.size());
    out.prototype = args.launch.shared_tmp_buffer ? "sharedTmpBuffer" : "PopStackBuffer";
    out.tmp_bytes = tmp_bytes0;
    out.scratch_bytes = scratch0;
    out.ub_bytes = ub0;
    out.tiles = tiles;
    out.single_chunk_tiling = planner.single_chunk();
    out.min_tmp_raised = min_tmp_raised;
    for (const auto& blk : blocks) {
      LayerNormGradOpBlockInfo b;
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
