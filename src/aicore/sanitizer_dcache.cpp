// The data cache's hand-over between blocks (lngrad_aicore/sanitizer.h, san::DcacheStore and its
// neighbours), as the vendor's DataCacheCleanAndInvalid page describes the device: the scalar
// unit reaches GM through each core's data cache, so a scalar store stays in the storing core's
// cache until a clean writes it back to GM, and a scalar load may return a stale cached copy
// unless an invalidate dropped the line, so that "the next access of these addresses reloads
// the data from GM" (the page's two typical uses: a scalar write to GM that must go out now, a
// read of GM data that other cores may change). So:
//   - a clean (DataCacheCleanAndInvalid towards GM) of a line holding the block's scalar stores
//     releases, for each store, the block's GM accesses so far under the key "these bytes hold
//     this value" (the value it writes back);
//   - a scalar load of a line the block invalidated and has not loaded since reads GM; if what
//     it sees is a value another block released, the block's later GM accesses are ordered
//     after that block's accesses before the release (san::Release/Acquire, one mechanism with
//     the other hand-overs between blocks).
// The simulator has no cache: a store is in memory at once, and another block may see it before
// the clean that makes it visible on the device. So the acquire goes by the value seen, not by
// the time: the load records the key, and the launch joins what the key carries at its end
// (LaunchSanitizer::ResolveLateAcquires). Such a load is synchronisation (a poll of a flag), like
// ReadGmByPassDCache, and is not checked for races itself.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "sanitizer_state.h"

namespace lngrad::aicore::san {
namespace {

// The data cache's line (DataCacheCleanAndInvalid, SINGLE_CACHE_LINE: "the 64-byte line of the
// address, from the address to the next 64-byte boundary").
constexpr uintptr_t kLine = 64;

// The key under which a store's clean and a load that sees what it wrote meet: "bytes bytes at p
// hold value".
uint64_t ValueKey(uintptr_t p, const void* value, uint64_t bytes) {
  uint64_t v = 0;
  std::memcpy(&v, value, std::min<uint64_t>(bytes, sizeof v));
  uint64_t h = 0x6463616368650000ull ^ bytes;  // "dcache"
  for (const uint64_t x : {static_cast<uint64_t>(p), v}) {
    h = (h ^ x) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
  }
  return h;
}

// The block's record when racecheck is on (the hand-over only orders the cross-block check).
BlockState* RacecheckState() {
  BlockState* s = Active();
  return s != nullptr && s->launch != nullptr && (s->tools & kRacecheck) != 0 ? s : nullptr;
}

}  // namespace

void DcacheStore(const void* p, uint64_t bytes) {
  BlockState* s = RacecheckState();
  if (s == nullptr) return;
  s->dirty[reinterpret_cast<uintptr_t>(p)] = static_cast<uint32_t>(bytes);
}

void DcacheCleanInvalidate(const void* p, bool entire) {
  BlockState* s = RacecheckState();
  if (s == nullptr) return;
  const auto a = reinterpret_cast<uintptr_t>(p);
  const uintptr_t line = a & ~(kLine - 1);
  // Clean: the stores the operation covers reach GM with the bytes memory holds now (the last
  // store to each address).
  auto it = entire ? s->dirty.begin() : s->dirty.lower_bound(a);
  const auto end = entire ? s->dirty.end() : s->dirty.lower_bound(line + kLine);
  while (it != end) {
    Release(ValueKey(it->first, reinterpret_cast<const void*>(it->first), it->second));
    it = s->dirty.erase(it);
  }
  // Invalidate: the next load of these lines reads GM.
  if (entire) {
    s->fresh_all = true;
    s->loaded_lines.clear();
    s->fresh_lines.clear();
    return;
  }
  const auto offset = static_cast<uint32_t>(a - line);
  auto [f, fresh] = s->fresh_lines.try_emplace(line, offset);
  if (!fresh) f->second = std::min(f->second, offset);
}

bool DcacheLoad(const void* p, const void* value, uint64_t bytes) {
  BlockState* s = RacecheckState();
  if (s == nullptr) return false;
  const auto a = reinterpret_cast<uintptr_t>(p);
  const uintptr_t line = a & ~(kLine - 1);
  bool from_gm = s->fresh_all && s->loaded_lines.count(line) == 0;
  auto f = s->fresh_lines.find(line);
  if (f != s->fresh_lines.end()) {
    from_gm = from_gm || a >= line + f->second;
    s->fresh_lines.erase(f);
  }
  // The line is in the cache now: later loads of it see this copy.
  if (s->fresh_all) s->loaded_lines.insert(line);
  if (!from_gm) return false;
  // One acquire per value seen: the first load that saw it orders everything after it.
  const uint64_t key = ValueKey(a, value, bytes);
  if (s->late_keys.insert(key).second) {
    s->clocks.push_back(s->clock);
    s->late_acquires.push_back({static_cast<uint32_t>(s->clocks.size() - 1), key});
  }
  return true;
}

}  // namespace lngrad::aicore::san
