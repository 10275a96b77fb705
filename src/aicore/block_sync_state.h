// The launch-wide state of the inter-block synchronisation APIs (block_sync.h), guarded by the
// launcher's lock (SyncAllBarrier::WaitUntil/Change).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <map>
#include <memory>
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
  // CrossCoreSetFlag/CrossCoreWaitFlag (cores.cpp): per block, the flags' counters ([0, 16)
  // modes 0-2, [16, 48) mode 4) and the sets made per mode 0-2 and flag; per (mode, group,
  // flag), the rounds whose sets every core of the group made. Sized at first use.
  std::vector<std::array<uint32_t, 48>> cross_counters;
  std::vector<std::array<uint64_t, 48>> cross_sets;
  std::map<std::array<int64_t, 3>, uint64_t> cross_rounds;
  // Per block: UB ranges (offset, bytes) its AIC wrote (Fixpipe to UB) that its sanitizer has
  // not seen yet; handed over at its next CrossCoreWaitFlag.
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> cross_ub_writes;
  // Per AI core: what its cores share (cores.h's AiCoreShared).
  std::map<int64_t, std::shared_ptr<void>> ai_core_shared;
  // Moves `turn` past every turn whose notification has been made.
  void AdvanceTurn() {
    const uint64_t n = notifies.size();
    while (notifies[turn % n] > turn / n) ++turn;
  }
};

// Blocks until ready() holds, then runs then(), under the launch's lock (a standalone block
// raises `check` at once when ready() does not hold: nothing else could end the wait).
void WaitOrRaise(const char* check, const std::string& what,
                 const std::function<bool(InterBlockState&)>& ready,
                 const std::function<void(InterBlockState&)>& then);
// Runs change() under the launch's lock and wakes the waiting blocks.
void ChangeShared(const std::function<void(InterBlockState&)>& change);

}  // namespace lngrad::aicore::detail
