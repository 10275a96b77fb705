// lngrad examples: host helpers shared by the example operators' host code (not a public
// interface). Product selection, GM buffers, row split over blocks, UB accounting.
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

#include "common/op_common.h"
#include "lngrad/product.h"
#include "lngrad/status.h"
#include "lngrad_aicore/launch.h"

namespace lngrad::examples::host {

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
// operator's product for them and restores the previous one. Example operators serialise
// their tiling on one mutex; other code that changes the current product concurrently is not
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

// GM for the example operators (examples/README.md, "GM of the example operators"): large
// inputs are read in place (GmInput), outputs are written in place or staged (GmOutput,
// StagedOutputs), small padded tensors and the tiling go through pooled GM (GmStage).

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

// An input the kernels read in place: the caller's memory, registered as GM for the call
// (lngrad::aicore::GmRegistration), so GM bounds checks know its extent.
class GmInput {
 public:
  GmInput(const void* host, size_t bytes) : data_(static_cast<const uint8_t*>(host)), reg_(host, bytes) {}
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
  uint8_t* data() const { return stage_ != nullptr ? stage_->data() : static_cast<uint8_t*>(host_); }
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

// What a block plan reports: the first block's tmp size and TPipe bytes, the tile count, and
// the largest scratch any tile needs.
struct BlockPlanTotals {
  uint32_t tmp0 = 0;
  uint64_t ub0 = 0;
  uint64_t tiles = 0;
  uint64_t tbuf_bytes = 0;
};

// Fills one Block per row range: tiles of `tile_rows` rows (fewer when the block is smaller) and
// a tail tile, each with the tiling the planner gives for its row count (planned once per
// count). Planner provides Plan(rows) -> {status, tmp_bytes, tiling}, Fits, ScratchBytes and
// UbBytes. Internal error when a planned tile does not fit (tile_rows came from Fits).
template <class Block, class Planner>
Status PlanBlocks(const char* op, const Planner& planner, const std::vector<BlockRows>& split,
                  uint32_t tile_rows, std::vector<Block>* blocks, BlockPlanTotals* totals) {
  using Plan = decltype(planner.Plan(uint32_t{1}));
  std::map<uint32_t, Plan> cache;
  auto plan_for = [&](uint32_t r) -> const Plan& {
    auto it = cache.find(r);
    if (it == cache.end()) it = cache.emplace(r, planner.Plan(r)).first;
    return it->second;
  };
  blocks->assign(split.size(), Block{});
  for (size_t i = 0; i < split.size(); ++i) {
    Block& blk = (*blocks)[i];
    blk.rowStart = split[i].start;
    blk.rowCount = split[i].count;
    blk.tileRows = std::min(tile_rows, blk.rowCount);
    blk.tileNum = blk.rowCount / blk.tileRows;
    blk.tailRows = blk.rowCount % blk.tileRows;
    const Plan& full = plan_for(blk.tileRows);
    if (!planner.Fits(blk.tileRows, full)) {
      return Status::Internal(std::string(op) +
                              ": planned tile does not fit: " + full.status.ToString());
    }
    blk.tileTiling = full.tiling;
    totals->tbuf_bytes = std::max(totals->tbuf_bytes, planner.ScratchBytes(full));
    if (blk.tailRows != 0) {
      const Plan& tail = plan_for(blk.tailRows);
      if (!planner.Fits(blk.tileRows, tail)) {
        return Status::Internal(std::string(op) +
                                ": tail tile does not fit: " + tail.status.ToString());
      }
      blk.tailTiling = tail.tiling;
      totals->tbuf_bytes = std::max(totals->tbuf_bytes, planner.ScratchBytes(tail));
    }
    totals->tiles += blk.tileNum + (blk.tailRows != 0 ? 1 : 0);
    if (i == 0) {
      totals->tmp0 = full.tmp_bytes;
      totals->ub0 = planner.UbBytes(blk.tileRows, full);
    }
  }
  return Status::Ok();
}

// Largest r in [1, max_rows] with fits(r), assuming fits is monotone (true up to some r, false
// above); 0 when fits(1) is false.
uint32_t LargestFitting(uint32_t max_rows, const std::function<bool(uint32_t)>& fits);

// Common argument checks: shape dims > 0, rows = b*s and h fit the tiling's uint32 fields,
// h*sizeof(T) a multiple of 32 bytes (the API cannot split H and needs aligned rows), launch
// config blocks in [1, 65535], non-null pointers (named in `pointers`).
Status CheckShape(const char* op, int64_t b, int64_t s, int64_t h, OpDType dtype);
Status CheckBlocks(const char* op, uint32_t blocks);
Status CheckPointer(const char* op, const char* name, const void* p);

// "Ascend910B1 (Atlas A2, arch 2201)".
std::string ProductText(const lngrad::Product& p);

}  // namespace lngrad::examples::host
