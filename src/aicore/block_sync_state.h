// The launch-wide state of the inter-block synchronisation APIs (block_sync.h), guarded by the
// launcher's lock (SyncAllBarrier::WaitUntil/Change).
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace lngrad::aicore::detail {

struct InterBlockState {
  explicit InterBlockState(uint32_t blocks) : notifies(blocks, 0) {}
  // NotifyNextBlock/WaitPreBlock: the blocks take turns 0, 1, ..., n-1, 0, 1, ... Turn t
  // (block t % n's (t / n + 1)-th NotifyNextBlock) is done when `turn` > t.
  uint64_t turn = 0;
  std::vector<uint64_t> notifies;  // NotifyNextBlock calls per block
  // GroupBarrier: Arrive and Wait calls so far, per groupWorkspace.
  std::map<const void*, std::pair<uint64_t, uint64_t>> groups;
  // Moves `turn` past every turn whose notification has been made.
  void AdvanceTurn() {
    const uint64_t n = notifies.size();
    while (notifies[turn % n] > turn / n) ++turn;
  }
};

}  // namespace lngrad::aicore::detail
