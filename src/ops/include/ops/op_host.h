// lngrad::ops::host: the host machinery the operators share (not a public interface): argument
// checks, product selection, row split over blocks, tile planning, GM buffers, tiling upload,
// launch and the info of what ran.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "graph/tensor.h"
#include "lngrad/product.h"
#include "lngrad/status.h"
#include "lngrad_aicore/launch.h"
#include "ops/op_common.h"
#include "ops/op_tiling.h"

namespace lngrad::ops::host {

inline constexpr uint32_t kBlockBytes = 32;  // UB data block: alignment unit of UB buffers

constexpr uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
constexpr uint64_t CeilTo(uint64_t a, uint64_t b) { return CeilDiv(a, b) * b; }
constexpr uint64_t Align32(uint64_t bytes) { return CeilTo(bytes, kBlockBytes); }

// Elements of T in one 32-byte block: the row granularity that keeps the per-row [B,S] tensors
// (mean, variance) 32-byte aligned in GM offsets and DataCopy lengths.
inline uint32_t RowsPerBlock32(OpDType t) { return kBlockBytes / DTypeSize(t); }

// The product named by `soc` (CurrentProduct() when empty). InvalidArgument for an unknown
// name (the message lists valid ones), Unsupported when `supported` says the API is missing.
Status ResolveProduct(const std::string& soc, const char* api,
                      bool (*supported)(const lngrad::Product&), const lngrad::Product** out);

// The host tiling functions follow lngrad::CurrentProduct(). This scope selects the
// operator's product for them and restores the previous one. The operators serialise their
// tiling on one mutex; other code that changes the current product concurrently is not
// synchronised with it.
class TilingProductScope {
 public:
  explicit TilingProductScope(const lngrad::Product& p);
  ~TilingProductScope();
  TilingProductScope(const TilingProductScope&) = delete;
  TilingProductScope& operator=(const TilingProductScope&) = delete;

 private:
  std::unique_lock<std::mutex> lock_;
  std::string previous_;
};

// GM of the operators (src/ops/README.md, "GM of the operators"): large
// inputs are read in place (GmInput), outputs are written in place or staged (GmOutput,
// StagedOutputs), small padded tensors and the tiling go through pooled GM (GmStage, GmTiling).

// Host staging GM from lngrad::aicore::GmPoolAlloc (bounds-checked like GmAlloc), returned to
// the pool on destruction. The contents are unspecified until written: Upload, Zero or the
// kernel must write every byte that is read.
class GmStage {
 public:
  explicit GmStage(size_t bytes);
  ~GmStage();
  GmStage(const GmStage&) = delete;
  GmStage& operator=(const GmStage&) = delete;
  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  // Copies `bytes` host bytes to the start of the buffer (bytes <= size()) and zero-fills the
  // rest (the padding that tiles read past the last row).
  void Upload(const void* src, size_t bytes) {
    std::memcpy(data_, src, bytes);
    std::memset(data_ + bytes, 0, size_ - bytes);
  }
  void Zero() { std::memset(data_, 0, size_); }
  void Download(void* dst, size_t bytes) const { std::memcpy(dst, data_, bytes); }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// The operator tiling in staging GM: the header, then the blocks' entries.
class GmTiling : public GmStage {
 public:
  template <class Block>
  GmTiling(const OpTilingHeader& head, const std::vector<Block>& blocks)
      : GmStage(sizeof(head) + blocks.size() * sizeof(Block)) {
    std::memcpy(data(), &head, sizeof(head));
    std::memcpy(data() + sizeof(head), blocks.data(), blocks.size() * sizeof(Block));
  }
};

// An input the kernels read in place: the caller's memory, registered as GM for the call
// (lngrad::aicore::GmRegistration), so GM bounds checks know its extent.
class GmInput {
 public:
  GmInput(const void* host, size_t bytes)
      : data_(static_cast<const uint8_t*>(host)), reg_(host, bytes) {}
  // Kernel entry points take non-const GM_ADDR; the kernels never write their inputs.
  uint8_t* data() const { return const_cast<uint8_t*>(data_); }

 private:
  const uint8_t* data_;
  aicore::GmRegistration reg_;
};

// A host byte range, for the overlap test of StagedOutputs.
struct HostRange {
  const void* p;
  size_t bytes;
};
// Whether the operator's outputs go through staging GM: LaunchConfig::outputs resolved
// (kAuto: staged exactly when checked mode is on), and always when an output overlaps an input
// or another output (kernels writing in place would then change what later tiles read).
bool StagedOutputs(const LaunchConfig& launch, std::span<const HostRange> inputs,
                   std::span<const HostRange> outputs);
inline bool StagedOutputs(const LaunchConfig& launch, std::initializer_list<HostRange> inputs,
                          std::initializer_list<HostRange> outputs) {
  return StagedOutputs(launch, std::span(inputs.begin(), inputs.size()),
                       std::span(outputs.begin(), outputs.size()));
}

// An output: the caller's memory registered as GM (in place), or a GmStage that Commit copies
// to the caller. Call Commit only after every launch of the call succeeded.
class GmOutput {
 public:
  GmOutput(void* host, size_t bytes, bool staged);
  uint8_t* data() const {
    return stage_ != nullptr ? stage_->data() : static_cast<uint8_t*>(host_);
  }
  void Commit() const {
    if (stage_ != nullptr) stage_->Download(host_, bytes_);
  }

 private:
  void* host_;
  size_t bytes_;
  std::unique_ptr<GmStage> stage_;
  aicore::GmRegistration reg_;
};

// Rows [start, start + count) of one block.
struct BlockRows {
  uint32_t start = 0;
  uint32_t count = 0;
};
// Splits `rows` over at most `blocks` blocks: every block but the last gets the same number of
// rows, a multiple of `granularity`, so block boundaries keep the [B,S] tensors aligned. Blocks
// that would get no rows are dropped (result size = blocks used).
std::vector<BlockRows> SplitRows(uint64_t rows, uint32_t blocks, uint32_t granularity);

// Largest r in [1, max_rows] with fits(r), assuming fits is monotone (true up to some r, false
// above); 0 when fits(1) is false.
uint32_t LargestFitting(uint32_t max_rows, const std::function<bool(uint32_t)>& fits);

// "Ascend910B1 (Atlas A2, arch 2201)".
std::string ProductText(const lngrad::Product& p);

// ---- One operator call ----

// How an operator stores rows whose H*sizeof(T) is not a multiple of 32 bytes in UB.
enum class RowPadding {
  kNone,  // it does not: H must be 32-byte aligned
  // Each row is padded to 32 bytes in UB (DataCopyPad) and the tiling gets hLength = the padded
  // (storage) H and originalHLength = the real H (LayerNormGrad: its sums run over hLength and
  // only 1/N, 2/N use originalHLength, spec §1.11) ...
  kRealInTiling,
  // ... or originalHLength = the storage H too (LayerNormGradBeta: its vector path strides rows
  // by originalHLength, spec §3.3; the padded output columns are dropped).
  kStorageInTiling,
};

// Which API an operator calls, for messages and the product check.
struct OpId {
  const char* op;   // "LayerNormGrad operator"
  const char* api;  // "LayerNormGrad"
  bool (*supported)(const lngrad::Product&);
  RowPadding padding = RowPadding::kNone;
};

// H rounded up to whole 32-byte blocks of T: a row's length in UB.
inline uint32_t StorageH(uint32_t h, uint32_t type_size) {
  return static_cast<uint32_t>(CeilTo(h, kBlockBytes / type_size));
}

// The API's two host tiling functions (lngrad::tiling::*MaxMinTmpSize, *NDTilingInfo).
template <class Tiling>
struct TilingApi {
  Status (*max_min)(const ge::Shape&, uint32_t typeSize, bool isReuseSource, uint32_t& maxValue,
                    uint32_t& minValue);
  Status (*nd_tiling)(const ge::Shape&, uint32_t stackBufferSize, uint32_t typeSize,
                      bool isReuseSource, Tiling& tiling);
};

// The TPipe queues of a block by size class, each rounded up to 32 bytes as InitBuffer does:
// tiles of `rows` rows of H elements, per-row [B,S] tensors (rows rounded up to whole 32-byte
// blocks), [H] rows of T and [H] rows of float (half_float_rows more for half).
struct QueueLayout {
  uint32_t tiles = 0;
  uint32_t stats = 0;
  uint32_t rows = 0;
  uint32_t float_rows = 0;
  uint32_t half_float_rows = 0;
};

// What an operator is, for the shared machinery: its API, the API's host tiling, its queues.
template <class Tiling>
struct OpApi : OpId {
  TilingApi<Tiling> tiling;
  QueueLayout queues;
};

// One tensor argument of an operator: its name (for the null check), the caller's memory, and
// how the kernels reach it (OpGm).
struct OpTensor {
  enum class Kind {
    kInput,         // read in place
    kPaddedInput,   // a [B,S] input copied into pooled GM padded by one 32-byte block of rows
    kOutput,        // written in place or staged (LaunchConfig::outputs, StagedOutputs)
    kStagedOutput,  // always staged
    kPaddedOutput,  // a [B,S] output through padded pooled GM, copied back on Commit
  };
  enum class Extent { kTensor, kStat, kRow };  // [B*S*H], [B*S], [H] elements
  const char* name;
  const void* host;
  Kind kind;
  Extent extent;
  bool output() const { return kind >= Kind::kOutput; }
};
inline OpTensor In(const char* name, const void* p,
                   OpTensor::Extent e = OpTensor::Extent::kTensor) {
  return {name, p, OpTensor::Kind::kInput, e};
}
inline OpTensor PaddedIn(const char* name, const void* p) {
  return {name, p, OpTensor::Kind::kPaddedInput, OpTensor::Extent::kStat};
}
inline OpTensor Out(const char* name, void* p) {
  return {name, p, OpTensor::Kind::kOutput, OpTensor::Extent::kTensor};
}
inline OpTensor StagedOut(const char* name, void* p, OpTensor::Extent e) {
  return {name, p, OpTensor::Kind::kStagedOutput, e};
}
inline OpTensor PaddedOut(const char* name, void* p) {
  return {name, p, OpTensor::Kind::kPaddedOutput, OpTensor::Extent::kStat};
}

// What every operator call works out before planning.
struct OpCall {
  const char* op = "";  // OpId::op, for messages
  const lngrad::Product* product = nullptr;
  uint64_t rows = 0;       // B*S
  uint32_t h = 0;          // H of the rows in GM (the caller's tensors)
  uint32_t storage_h = 0;  // H of the rows in UB: h, or h padded to 32 bytes (RowPadding)
  uint32_t type_size = 0;
  uint32_t granularity = 1;      // rows per block are a multiple of it (padding of [B,S] GM)
  std::vector<BlockRows> split;  // the rows of each block used

  uint32_t MaxBlockRows() const;
  // Bytes of a tensor of that extent.
  size_t Bytes(OpTensor::Extent e) const;
};

// Checks the arguments (shape dims > 0, rows = b*s and h fit the tiling's uint32 fields,
// h*sizeof(T) a multiple of 32 bytes unless the operator pads rows (RowPadding) on a product
// with DataCopyPad, blocks in [1, 65535], non-null tensors), resolves the product and splits
// the rows over the blocks in multiples of `granularity` rows.
Status StartCall(const OpId& api, const OpArgs& args, std::span<const OpTensor> tensors,
                 uint32_t granularity, OpCall* call);

// The GM of one call, one buffer per OpTensor in the same order (operator[]): inputs registered
// in place or padded copies, outputs in place or staged (StagedOutputs over all of them).
class OpGm {
 public:
  OpGm(const OpCall& call, const LaunchConfig& launch, std::span<const OpTensor> tensors);
  uint8_t* operator[](size_t i) const { return buffers_[i].data; }
  // Copies the staged and padded outputs to the caller. Only after every launch succeeded.
  void Commit() const;

 private:
  struct Buffer {
    const OpTensor* tensor = nullptr;
    size_t bytes = 0;
    uint8_t* data = nullptr;
    std::unique_ptr<GmInput> input;
    std::unique_ptr<GmStage> padded;
    std::unique_ptr<GmOutput> output;
  };
  std::vector<Buffer> buffers_;
};

// A tile's plan: its tiling and the scratch it needs.
template <class Tiling>
struct TilePlan {
  Status status;
  uint32_t tmp_bytes = 0;   // tiling's stackBufferSize
  uint64_t need_bytes = 0;  // the scratch the tile must be given (>= tmp_bytes)
  Tiling tiling;
  // The API's minimum was below what its own tiling accepts and was raised (LayerNormGrad).
  bool raised_min = false;
};

// The scratch size `tmp` asks for, given the API's [min_value, max_value] for the tile.
uint32_t SelectTmpBytes(const TmpSize& tmp, uint32_t min_value, uint32_t max_value);

// The tile planner of an operator: the API's tiling per tile, the UB a block needs, the largest
// tile that fits. An operator that plans otherwise derives from it (CRTP: Derived) and replaces
// Plan (the tiling of a tile), LargestTile, RefusedRows or RefusalText.
template <class Tiling, class Derived = void>
class TilePlanner {
 public:
  using Tile = TilePlan<Tiling>;

  TilePlanner(const OpArgs& a, const lngrad::Product& p, const OpApi<Tiling>& api)
      : args_(a),
        product_(p),
        api_(api),
        type_size_(DTypeSize(a.dtype)),
        h_(api.padding == RowPadding::kNone ? static_cast<uint32_t>(a.h)
                                            : StorageH(static_cast<uint32_t>(a.h), type_size_)),
        tiling_h_(api.padding == RowPadding::kRealInTiling ? static_cast<uint32_t>(a.h) : h_),
        stat_rows_(RowsPerBlock32(a.dtype)) {}

  // The API's own sizing for a tile of `rows` rows: MaxMinTmpSize, the requested size of that
  // range, then NDTilingInfo. The scratch needed is the stackBufferSize.
  Tile Plan(uint32_t rows) const {
    Tile t;
    const ge::Shape shape({1, rows, h_, tiling_h_});
    uint32_t max_value = 0;
    uint32_t min_value = 0;
    t.status = api_.tiling.max_min(shape, type_size_, args_.reuse_source, max_value, min_value);
    if (!t.status.ok()) return t;
    t.tmp_bytes = SelectTmpBytes(args_.tmp, min_value, max_value);
    t.status = api_.tiling.nd_tiling(shape, t.tmp_bytes, type_size_, args_.reuse_source, t.tiling);
    t.need_bytes = t.tmp_bytes;
    return t;
  }

  // Largest tile of at most `max_rows` rows that fits; 0 when not even one row does.
  uint32_t LargestTile(uint32_t max_rows) {
    return LargestFitting(max_rows, [&](uint32_t r) { return Fits(r, Self().Plan(r)); });
  }
  // The rows of the tile that the OutOfRange error describes when no tile fits, and the error
  // after "<op>: ".
  uint32_t RefusedRows(uint32_t /*max_rows*/) const { return 1; }
  std::string RefusalText(uint32_t rows, const Tile& t) const {
    return "one row of " + RowText() + " needs " + std::to_string(UbBytes(rows, t)) +
           " bytes of UB (tmp " + TmpSizeText(args_.tmp) + "), more than " + ProductText(product_) +
           " has (" + std::to_string(product_.ub_bytes) + ")";
  }

  // TPipe bytes of a block whose queues hold `rows` rows.
  uint64_t QueueBytes(uint32_t rows) const {
    const QueueLayout& q = api_.queues;
    const uint64_t float_rows = q.float_rows + (type_size_ == 2 ? q.half_float_rows : 0);
    return q.tiles * Align32(uint64_t{rows} * h_ * type_size_) +
           q.stats * Align32(CeilTo(rows, stat_rows_) * type_size_) +
           q.rows * Align32(uint64_t{h_} * type_size_) +
           float_rows * Align32(uint64_t{h_} * sizeof(float));
  }

  // The sharedTmpBuffer TBuf for the tile's scratch.
  uint64_t ScratchBytes(const Tile& t) const {
    return std::max<uint64_t>(32, Align32(t.need_bytes));
  }
  // Whether a block with queues for `rows` rows and this tile's scratch fits the UB.
  bool Fits(uint32_t rows, const Tile& t) const {
    if (!t.status.ok()) return false;
    const uint64_t queues = QueueBytes(rows);
    if (args_.launch.shared_tmp_buffer) return queues + ScratchBytes(t) <= product_.ub_bytes;
    // PopStackBuffer hands the API everything from the end of the queues to the stack end.
    return queues <= product_.ub_bytes && queues + t.need_bytes <= product_.stack_end_bytes;
  }
  uint64_t UbBytes(uint32_t rows, const Tile& t) const {
    return QueueBytes(rows) + (args_.launch.shared_tmp_buffer ? ScratchBytes(t) : t.need_bytes);
  }

 protected:
  // "H = 64 float", "H = 3 float (8 in UB)".
  std::string RowText() const {
    std::string t = "H = " + std::to_string(args_.h) + " " + DTypeName(args_.dtype);
    if (h_ != args_.h) t += " (" + std::to_string(h_) + " in UB)";
    return t;
  }
  using Self_t = std::conditional_t<std::is_void_v<Derived>, TilePlanner, Derived>;
  const Self_t& Self() const { return static_cast<const Self_t&>(*this); }

  const OpArgs& args_;
  const lngrad::Product& product_;
  OpApi<Tiling> api_;
  uint32_t type_size_;
  uint32_t h_;         // storage H (UB rows, the tiling's hLength)
  uint32_t tiling_h_;  // the tiling's originalHLength
  uint32_t stat_rows_;
};

// What a block plan reports: block 0's full tile (tmp size, scratch, TPipe bytes), the tile
// count, the largest scratch TBuf any tile needs, and whether any tile's minimum was raised.
struct BlockPlanTotals {
  uint32_t tmp0 = 0;
  uint64_t scratch0 = 0;
  uint64_t ub0 = 0;
  uint64_t tiles = 0;
  uint64_t tbuf_bytes = 0;
  bool raised_min = false;
};

// Fills one block entry per row range: tiles of `tile_rows` rows (fewer when the block is
// smaller) and a tail tile (sharing the block's queues, sized for tileRows), each with the
// planner's tiling for its row count (planned once per count). Internal error when a planned
// tile does not fit (tile_rows came from Fits).
template <class Tiling, class Planner>
Status PlanBlocks(const char* op, const Planner& planner, const std::vector<BlockRows>& split,
                  uint32_t tile_rows, std::vector<OpTilingBlock<Tiling>>* blocks,
                  BlockPlanTotals* totals) {
  std::map<uint32_t, TilePlan<Tiling>> cache;
  auto plan_for = [&](uint32_t r) -> const TilePlan<Tiling>& {
    auto it = cache.find(r);
    if (it == cache.end()) it = cache.emplace(r, planner.Plan(r)).first;
    return it->second;
  };
  auto fitting = [&](const char* what, uint32_t rows, uint32_t queue_rows,
                     const TilePlan<Tiling>** out) -> Status {
    const TilePlan<Tiling>& t = plan_for(rows);
    if (!planner.Fits(queue_rows, t)) {
      return Status::Internal(std::string(op) + ": " + what + " of " + std::to_string(rows) +
                              " rows does not fit: " + t.status.ToString());
    }
    totals->tbuf_bytes = std::max(totals->tbuf_bytes, planner.ScratchBytes(t));
    totals->raised_min = totals->raised_min || t.raised_min;
    *out = &t;
    return Status::Ok();
  };
  blocks->assign(split.size(), OpTilingBlock<Tiling>{});
  for (size_t i = 0; i < split.size(); ++i) {
    OpTilingBlock<Tiling>& blk = (*blocks)[i];
    blk.rowStart = split[i].start;
    blk.rowCount = split[i].count;
    blk.tileRows = std::min(tile_rows, blk.rowCount);
    blk.tileNum = blk.rowCount / blk.tileRows;
    blk.tailRows = blk.rowCount % blk.tileRows;
    const TilePlan<Tiling>* full = nullptr;
    LNGRAD_RETURN_IF_ERROR(fitting("planned tile", blk.tileRows, blk.tileRows, &full));
    blk.tileTiling = full->tiling;
    if (blk.tailRows != 0) {
      const TilePlan<Tiling>* tail = nullptr;
      LNGRAD_RETURN_IF_ERROR(fitting("tail tile", blk.tailRows, blk.tileRows, &tail));
      blk.tailTiling = tail->tiling;
    }
    totals->tiles += blk.tileNum + (blk.tailRows != 0 ? 1 : 0);
    if (i == 0) {
      totals->tmp0 = full->tmp_bytes;
      totals->scratch0 = full->need_bytes;
      totals->ub0 = planner.UbBytes(blk.tileRows, *full);
    }
  }
  return Status::Ok();
}

// Plans the call's blocks (under TilingProductScope): the largest tile that fits, then
// PlanBlocks. OutOfRange naming the refused tile when none fits (or the tiling's own error).
template <class Tiling, class Planner>
Status PlanCall(const OpCall& call, Planner& planner, std::vector<OpTilingBlock<Tiling>>* blocks,
                BlockPlanTotals* totals) {
  TilingProductScope scope(*call.product);
  const uint32_t max_rows = call.MaxBlockRows();
  const uint32_t tile_rows = planner.LargestTile(max_rows);
  if (tile_rows == 0) {
    const uint32_t r = planner.RefusedRows(max_rows);
    const TilePlan<Tiling> one = planner.Plan(r);
    if (!one.status.ok()) return one.status;
    return Status::OutOfRange(std::string(call.op) + ": " + planner.RefusalText(r, one));
  }
  return PlanBlocks(call.op, planner, call.split, tile_rows, blocks, totals);
}

// The header fields every operator fills the same way (statLength and epsilon are the
// operator's).
OpTilingHeader MakeHeader(const OpArgs& args, const OpCall& call, size_t blocks,
                          const BlockPlanTotals& totals);

// Launches `kernel` on `blocks` blocks of the call's product.
Status LaunchOn(const OpCall& call, const LaunchConfig& launch, size_t blocks,
                const std::function<void()>& kernel);

// The common part of what ran.
void FillInfo(const OpCall& call, const OpArgs& args, size_t blocks, const BlockPlanTotals& totals,
              OpInfo* info);
template <class Tiling>
void FillBlockInfo(const std::vector<OpTilingBlock<Tiling>>& blocks,
                   std::vector<OpBlockInfo<Tiling>>* out) {
  out->clear();
  for (const auto& blk : blocks) {
    out->push_back({blk.rowStart, blk.rowCount, blk.tileRows, blk.tileNum, blk.tailRows,
                    blk.tileTiling, blk.tailTiling});
  }
}

// One operator call: its plan (StartCall, PlanCall with a Planner(args, product), the tiling
// header), its GM, and the launches. Use: Plan, Launch (once per kernel), Commit.
template <class Planner, class Tiling>
class OpRun {
 public:
  // The header gets statLength = rows + granularity (the [B,S] tensors' GM length, padding
  // included, for the operators that have them) and `epsilon`. OpGm's buffers follow the order
  // of `tensors`.
  Status Plan(const OpApi<Tiling>& api, const OpArgs& args, uint32_t granularity, float epsilon,
              std::initializer_list<OpTensor> tensors) {
    args_ = &args;
    tensors_.assign(tensors);
    LNGRAD_RETURN_IF_ERROR(StartCall(api, args, tensors_, granularity, &call_));
    planner_.emplace(args, *call_.product, api);
    LNGRAD_RETURN_IF_ERROR(PlanCall(call_, *planner_, &blocks_, &totals_));
    OpTilingHeader head = MakeHeader(args, call_, blocks_.size(), totals_);
    head.statLength = static_cast<uint32_t>(call_.rows + granularity);
    head.epsilon = epsilon;
    gm_.emplace(call_, args.launch, tensors_);
    tiling_.emplace(head, blocks_);
    return Status::Ok();
  }
  // Runs `kernel(gm, tiling)` on `blocks` blocks (0: one per planned block).
  Status Launch(const std::function<void(const OpGm&, uint8_t*)>& kernel, size_t blocks = 0) {
    return LaunchOn(call_, args_->launch, blocks != 0 ? blocks : blocks_.size(),
                    [&] { kernel(*gm_, tiling_->data()); });
  }
  void Commit() const { gm_->Commit(); }
  // What ran: the common part and the blocks.
  void FillInfo(TiledOpInfo<Tiling>* info) const {
    host::FillInfo(call_, *args_, blocks_.size(), totals_, info);
    FillBlockInfo(blocks_, &info->blocks);
  }

  const OpCall& call() const { return call_; }
  const std::vector<OpTilingBlock<Tiling>>& blocks() const { return blocks_; }
  const BlockPlanTotals& totals() const { return totals_; }
  const Planner& planner() const { return *planner_; }

 private:
  const OpArgs* args_ = nullptr;
  std::vector<OpTensor> tensors_;
  OpCall call_;
  std::optional<Planner> planner_;
  std::vector<OpTilingBlock<Tiling>> blocks_;
  BlockPlanTotals totals_;
  std::optional<OpGm> gm_;
  std::optional<GmTiling> tiling_;
};

}  // namespace lngrad::ops::host
