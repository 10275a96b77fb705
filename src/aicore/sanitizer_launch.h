// The launcher's side of the sanitizer (lngrad_aicore/sanitizer.h): one LaunchSanitizer per
// launch with a tool on, one BlockState per block, the cross-block check at the end.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "lngrad/product.h"
#include "lngrad_aicore/launch.h"
#include "lngrad_aicore/sanitizer.h"

namespace lngrad::aicore::san {

// One reported problem, already worded.
struct Finding {
  uint32_t tool = 0;  // a Tool bit
  std::string text;
};

// What a block's GM accesses cover, for the cross-block check: [begin, end), or a strided copy's
// count bursts of len bytes, burst i at begin + i * pitch (end: the last burst's end).
struct GmSpan {
  uintptr_t begin = 0, end = 0;
  uint64_t len = 0, pitch = 0, count = 1;
  uint32_t site = 0;   // index into the block's site names
  uint32_t phase = 0;  // SyncAll calls before the access
  bool write = false;
  // MTE3 writes: a fingerprint of the bytes the span's copies left in GM, in order. Two blocks
  // whose copies write the same bytes to the same range do not race in effect (samples that
  // run every block over the whole tensor do this).
  bool hashed = false;
  uint64_t hash = 0;
  uint32_t hashes = 0;  // count > 1: burst i's fingerprint is BlockSummary::hashes[hashes + i]
  // Writes of an atomic UB -> GM copy: 1 + the CTRL[10:6] bits (type and operation); 0 plain.
  // Atomic writes with the same code combine and do not race.
  uint8_t atomic = 0;
  // Cross-block order (san::Release/Acquire): the block's release epoch when it made the access,
  // and which of the block's clocks (BlockSummary::clocks) it knew then.
  uint32_t xepoch = 1;
  uint32_t clock = 0;
};

// What a block knows of the others' release epochs: block -> highest epoch it has acquired.
using CrossClock = std::map<int64_t, uint32_t>;

struct BlockSummary {
  int64_t block = 0;
  std::vector<GmSpan> spans;
  std::vector<uint64_t> hashes;         // the strided spans' burst fingerprints
  std::vector<std::string> site_names;  // "DataCopy(UB->GM) at add.asc:70 (MTE3)"
  std::vector<Finding> findings;
  std::vector<Finding> warnings;   // write-only races: printed, the launch does not fail
  std::vector<CrossClock> clocks;  // GmSpan::clock indexes this; clocks[0] is empty
  // Acquires resolved when the launch ends (san::DcacheLoad): clocks[i] for i >= first join
  // what `key` carries then.
  std::vector<std::pair<uint32_t, uint64_t>> late_acquires;
};

struct BlockStateDeleter {
  void operator()(BlockState* s) const noexcept;
};
using BlockStatePtr = std::unique_ptr<BlockState, BlockStateDeleter>;

class LaunchSanitizer {
 public:
  LaunchSanitizer(uint32_t tools, bool cce_auto_sync, const Product& product);
  ~LaunchSanitizer();
  uint32_t tools() const { return tools_; }

  // The block's record; BlockContext::san points to it while the block runs.
  BlockStatePtr BeginBlock(int64_t block, const std::byte* ub, uint32_t ub_size);
  // completed: the kernel returned (a failed block's record is dropped: it stopped halfway).
  void EndBlock(BlockStatePtr state, bool completed);
  // The cross-block check; then one failure per block with findings (check: the first tool in
  // racecheck, initcheck, synccheck order with a finding in that block), appended to *failures.
  void Finish(std::vector<BlockFailure>* failures);
  // san::Release/Acquire: joins `c` into what `key` carries; what `key` carries so far.
  void Publish(uint64_t key, const CrossClock& c);
  CrossClock Fetch(uint64_t key);
  // Joins into each block's clocks what its late acquires' keys carry at the end of the launch.
  void ResolveLateAcquires();

 private:
  std::mutex clock_mu_;
  std::map<uint64_t, CrossClock> released_;
  uint32_t tools_;
  bool auto_sync_;
  const Product& product_;
  std::mutex mu_;
  std::vector<BlockSummary> blocks_;
};

// After a launch without initcheck, any device memory may have been written by it.
void GmForgetUninitialised();

}  // namespace lngrad::aicore::san
