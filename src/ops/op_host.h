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
#include <string>
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
bool StagedOutputs(const LaunchConfig& launch, std::initializer_list<HostRange> inputs,
                   std::initializer_list<HostRange> outputs);

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

// Which API an operator calls, for messages and the product check.
struct OpApi {
  const char* op;   // "LayerNormGrad operator"
  const char* api;  // "LayerNormGrad"
  bool (*supported)(const lngrad::Product&);
};
// A tensor argument, for the null check.
struct NamedPointer {
  const char* name;
  const void* p;
};

// What every operator call works out before planning.
struct OpCall {
  const lngrad::Product* product = nullptr;
  uint64_t rows = 0;  // B*S
  uint32_t h = 0;
  uint32_t type_size = 0;
  std::vector<BlockRows> split;  // the rows of each block used

  size_t TensorBytes() const { return static_cast<size_t>(rows * h * type_size); }  // [B*S*H]
  size_t StatBytes() const { return static_cast<size_t>(rows * type_size); }        // [B*S]
  size_t RowBytes() const { return size_t{h} * type_size; }                         // [H]
  uint32_t MaxBlockRows() const;
};

// Checks the arguments (shape dims > 0, rows = b*s and h fit the tiling's uint32 fields,
// h*sizeof(T) a multiple of 32 bytes (the API cannot split H and needs aligned rows), blocks in
// [1, 65535], non-null `pointers`), resolves the product and splits the rows over the blocks in
// multiples of `granularity` rows.
Status StartCall(const OpApi& api, const OpArgs& args, std::initializer_list<NamedPointer> pointers,
                 uint32_t granularity, OpCall* call);

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

// Base of the operators' tile planners. Derived provides Plan(rows) -> TilePlan<Tiling> and
// QueueBytes(rows): the TPipe bytes of a block whose queues hold `rows` rows.
template <class Derived, class Tiling>
class TilePlanner {
 public:
  using Tile = TilePlan<Tiling>;

  TilePlanner(const OpArgs& a, const lngrad::Product& p)
      : args_(a),
        product_(p),
        type_size_(DTypeSize(a.dtype)),
        h_(static_cast<uint32_t>(a.h)),
        stat_rows_(RowsPerBlock32(a.dtype)) {}

  // The API's own sizing for a tile of `rows` rows: MaxMinTmpSize, the requested size of that
  // range, then NDTilingInfo. The scratch needed is the stackBufferSize.
  using MaxMinFn = Status (*)(const ge::Shape&, uint32_t typeSize, bool isReuseSource,
                              uint32_t& maxValue, uint32_t& minValue);
  using TilingFn = Status (*)(const ge::Shape&, uint32_t stackBufferSize, uint32_t typeSize,
                              bool isReuseSource, Tiling& tiling);
  Tile ApiPlan(uint32_t rows, MaxMinFn max_min, TilingFn nd_tiling) const {
    Tile t;
    const ge::Shape shape({1, rows, h_, h_});
    uint32_t max_value = 0;
    uint32_t min_value = 0;
    t.status = max_min(shape, type_size_, args_.reuse_source, max_value, min_value);
    if (!t.status.ok()) return t;
    t.tmp_bytes = SelectTmpBytes(args_.tmp, min_value, max_value);
    t.status = nd_tiling(shape, t.tmp_bytes, type_size_, args_.reuse_source, t.tiling);
    t.need_bytes = t.tmp_bytes;
    return t;
  }

  // The sharedTmpBuffer TBuf for the tile's scratch.
  uint64_t ScratchBytes(const Tile& t) const {
    return std::max<uint64_t>(32, Align32(t.need_bytes));
  }
  // Whether a block with queues for `rows` rows and this tile's scratch fits the UB.
  bool Fits(uint32_t rows, const Tile& t) const {
    if (!t.status.ok()) return false;
    const uint64_t queues = Queues(rows);
    if (args_.launch.shared_tmp_buffer) return queues + ScratchBytes(t) <= product_.ub_bytes;
    // PopStackBuffer hands the API everything from the end of the queues to the stack end.
    return queues <= product_.ub_bytes && queues + t.need_bytes <= product_.stack_end_bytes;
  }
  uint64_t UbBytes(uint32_t rows, const Tile& t) const {
    return Queues(rows) + (args_.launch.shared_tmp_buffer ? ScratchBytes(t) : t.need_bytes);
  }

 protected:
  uint64_t Queues(uint32_t rows) const {
    return static_cast<const Derived&>(*this).QueueBytes(rows);
  }

  const OpArgs& args_;
  const lngrad::Product& product_;
  uint32_t type_size_;
  uint32_t h_;
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

}  // namespace lngrad::ops::host
