// Global memory: GmAlloc/GmFree, caller memory registered as GM (GmRegistration), pooled GM
// (GmPoolAlloc/GmPoolFree) and the registry used to bound GM accesses.
//
// The registry maps every known GM region to its extent. GmAlloc and pooled blocks never
// overlap each other; registered caller regions may overlap anything (two operators reading the
// same input, an output aliasing an input). A GM access is accepted when some region holds it
// entirely, refused (kGmBounds) when it starts inside the memory of a region (its bytes, the
// rounding and the red zone of runtime blocks) that no region holds it in, refused (kGmFreed)
// when it starts inside a freed block the runtime still holds, and, when it starts outside all
// of them (plain host memory), refused (kGmBounds) in launches that see only device memory
// (LaunchOptions::device_memory_only: the ACL <<<>>> launcher) and not checked otherwise (host
// code may pass host memory as GM to Launch and ICPU_RUN_KF).
//
// The check runs on every DataCopy and GlobalTensor access, so each thread keeps a small cache
// of regions that held an access. Adding a region can only turn a refusal into an acceptance,
// so only removals invalidate the caches (a generation counter).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/mman.h>

#include "lngrad_aicore/gm.h"
#include "lngrad_aicore/launch.h"
#include "lngrad_aicore/tensor.h"
#include "name_table.h"

namespace lngrad::aicore::detail {
namespace {

enum class GmKind : uint8_t { kAlloc, kPool, kRegistered };

struct GmBlock {
  uint64_t requested;  // what the caller asked for (checked-mode bound)
  uint64_t allocated;  // rounded up to 32 B for runtime memory (unchecked-mode bound)
  uint64_t span;       // bytes from the base that the runtime owns (>= allocated; red zone)
  GmKind kind;
  uint32_t refs;  // identical registrations of caller memory share one entry
};

using RegistryMap = std::multimap<uintptr_t, GmBlock>;

std::shared_mutex& RegistryMutex() {
  static std::shared_mutex m;
  return m;
}
RegistryMap& Registry() {
  static RegistryMap r;
  return r;
}
// Freed blocks whose memory the runtime still holds (gm.h), by base. Under RegistryMutex.
// Leaked on purpose: static destructors may still free pooled blocks.
std::map<uintptr_t, GmBlock>& Freed() {
  static auto* f = new std::map<uintptr_t, GmBlock>;
  return *f;
}
// Nodes a map let go, kept for its next insertions: an operator registers and removes the same
// few regions at every launch, which otherwise costs a malloc and a free each. Bounded; used
// under the lock of its map.
template <class Map>
class SpareNodes {
 public:
  void Insert(Map& m, const typename Map::key_type& key, const typename Map::mapped_type& value) {
    if (spare_.empty()) {
      m.emplace(key, value);
      return;
    }
    typename Map::node_type n = std::move(spare_.back());
    spare_.pop_back();
    n.key() = key;
    n.mapped() = value;
    m.insert(std::move(n));
  }
  void Erase(Map& m, typename Map::iterator it) {
    typename Map::node_type n = m.extract(it);
    if (spare_.size() < kMaxSpare) spare_.push_back(std::move(n));
  }

 private:
  static constexpr size_t kMaxSpare = 64;
  std::vector<typename Map::node_type> spare_;
};

// Leaked on purpose, as the maps. Under RegistryMutex.
SpareNodes<RegistryMap>& RegistrySpare() {
  static auto* s = new SpareNodes<RegistryMap>;
  return *s;
}
SpareNodes<std::map<uintptr_t, GmBlock>>& FreedSpare() {
  static auto* s = new SpareNodes<std::map<uintptr_t, GmBlock>>;
  return *s;
}
// Forgets base in Freed(), keeping its node. Under the unique lock.
void EraseFreed(uintptr_t base) {
  auto it = Freed().find(base);
  if (it != Freed().end()) FreedSpare().Erase(Freed(), it);
}

// The largest span of any region so far: a lookup stops at regions that far below it.
std::atomic<uint64_t> g_max_span{0};
// Bumped (under the unique lock) whenever a region is removed.
std::atomic<uint64_t> g_generation{1};

const char* KindName(GmKind k) {
  static constexpr const char* kNames[] = {"GmAlloc block", "pooled GM block",
                                           "registered GM region"};
  return NameAt(kNames, k, "GM region");
}

std::string Hex(uintptr_t a) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a));
  return buf;
}

// Per-thread cache of regions that held an access.
struct CachedRegion {
  uint64_t generation = 0;
  uintptr_t base = 0;
  uint64_t requested = 0;
  uint64_t allocated = 0;
};
constexpr int kCacheSlots = 8;
struct RegionCache {
  CachedRegion slot[kCacheSlots];
  unsigned next = 0;
};
thread_local RegionCache t_cache;

void AddRegion(uintptr_t base, uint64_t requested, uint64_t allocated, uint64_t span, GmKind kind) {
  std::unique_lock lock(RegistryMutex());
  RegistryMap& reg = Registry();
  if (kind == GmKind::kRegistered) {
    auto [lo, hi] = reg.equal_range(base);
    for (auto it = lo; it != hi; ++it) {
      if (it->second.kind == GmKind::kRegistered && it->second.requested == requested) {
        ++it->second.refs;
        return;
      }
    }
  }
  EraseFreed(base);  // the memory is live again
  RegistrySpare().Insert(reg, base, GmBlock{requested, allocated, span, kind, 1});
  if (span > g_max_span.load(std::memory_order_relaxed)) {
    g_max_span.store(span, std::memory_order_relaxed);
  }
}

// Removes one reference of the region (base, kind[, requested]); false when there is none. A
// runtime block (GmAlloc, pooled) that `keep` says stays held is recorded as freed.
bool RemoveRegion(uintptr_t base, GmKind kind, uint64_t requested, bool match_size,
                  bool keep = false, uint64_t* span = nullptr) {
  std::unique_lock lock(RegistryMutex());
  RegistryMap& reg = Registry();
  auto [lo, hi] = reg.equal_range(base);
  for (auto it = lo; it != hi; ++it) {
    if (it->second.kind != kind || (match_size && it->second.requested != requested)) continue;
    if (span != nullptr) *span = it->second.span;
    if (--it->second.refs == 0) {
      if (keep) {
        EraseFreed(base);
        FreedSpare().Insert(Freed(), base, it->second);
      }
      RegistrySpare().Erase(reg, it);
      g_generation.fetch_add(1, std::memory_order_release);
    }
    return true;
  }
  return false;
}

// The memory at base goes back to the host's allocator: no longer a freed block.
void ForgetFreed(uintptr_t base) {
  std::unique_lock lock(RegistryMutex());
  EraseFreed(base);
}

// What the registry says about [a, a + bytes): a region holding it, the region it starts in,
// or the freed block it starts in.
struct Lookup {
  bool held = false;
  bool starts_inside = false;
  bool freed = false;
  uintptr_t base = 0;
  GmBlock block{};
};

Lookup Find(uintptr_t a, uint64_t bytes, bool checked) {
  Lookup r;
  std::shared_lock lock(RegistryMutex());
  const RegistryMap& reg = Registry();
  const uint64_t max_span = g_max_span.load(std::memory_order_relaxed);
  // Regions starting at or below a, nearest first. Usually the first one decides.
  for (auto it = reg.upper_bound(a); it != reg.begin();) {
    --it;
    const uintptr_t base = it->first;
    const GmBlock& b = it->second;
    if (a - base >= max_span) break;   // no region this far below reaches a
    if (a - base >= b.span) continue;  // a is not inside this region's memory
    const uint64_t limit = checked ? b.requested : b.allocated;
    if (a - base <= limit && bytes <= limit - (a - base)) {
      r.held = true;
      r.base = base;
      r.block = b;
      return r;
    }
    if (!r.starts_inside) {
      r.starts_inside = true;
      r.base = base;
      r.block = b;
    }
  }
  if (r.starts_inside) return r;
  const auto& freed = Freed();
  auto it = freed.upper_bound(a);
  if (it != freed.begin() && a - std::prev(it)->first < std::prev(it)->second.span) {
    --it;
    r.freed = true;
    r.base = it->first;
    r.block = it->second;
  }
  return r;
}

[[noreturn]] void RaiseOutside(const Lookup& found, uintptr_t a, uint64_t bytes, bool checked,
                               const char* api) {
  const uint64_t off = a - found.base;
  const GmBlock& block = found.block;
  const std::string where = "GM bytes [" + Hex(a) + ", +" + std::to_string(bytes) + ") = bytes [" +
                            std::to_string(off) + ", " + std::to_string(off + bytes) + ") of the " +
                            std::to_string(block.requested) + " B " + KindName(block.kind) +
                            " at " + Hex(found.base);
  if (found.freed) {
    RaiseKernelCheck(checks::kGmFreed,
                     std::string(api) + ": " + where +
                         ", which was freed (GmFree / aclrtFree / GmPoolFree) before this access");
  }
  const bool rounded = !checked && block.allocated != block.requested;
  RaiseKernelCheck(
      checks::kGmBounds,
      std::string(api) + ": " + where + ": " +
          (off >= (checked ? block.requested : block.allocated) ? "the access starts past its end"
                                                                : "the access runs past its end") +
          (rounded ? " (rounded up to " + std::to_string(block.allocated) + " B)" : std::string()));
}

// The live region nearest to a (below or above it), for the message of an access to memory
// that is not GM: "" when there is none.
std::string NearestRegion(uintptr_t a) {
  std::shared_lock lock(RegistryMutex());
  const RegistryMap& reg = Registry();
  auto above = reg.upper_bound(a);
  const RegistryMap::const_iterator none = reg.end();
  RegistryMap::const_iterator below = none;
  // The region that ends nearest below a (regions may overlap: take the greatest end).
  uint64_t below_gap = UINT64_MAX;
  for (auto it = above; it != reg.begin();) {
    --it;
    const uint64_t end = it->first + it->second.requested;
    const uint64_t gap = a >= end ? a - end : 0;
    if (gap < below_gap) {
      below_gap = gap;
      below = it;
    }
    // No region based farther below can end nearer to a than that.
    if (a - it->first >= below_gap + g_max_span.load(std::memory_order_relaxed)) break;
  }
  const uint64_t above_gap = above == none ? UINT64_MAX : above->first - a;
  const bool use_above = above != none && (below == none || above_gap < below_gap);
  const auto it = use_above ? above : below;
  if (it == none) return "";
  const std::string gap = std::to_string(use_above ? above_gap : below_gap);
  return "; the nearest GM region is the " + std::to_string(it->second.requested) + " B " +
         KindName(it->second.kind) + " at " + Hex(it->first) + ", " + gap + " B " +
         (use_above ? "above" : "below") + " the access";
}

[[noreturn]] void RaiseNotDeviceMemory(uintptr_t a, uint64_t bytes, const char* api) {
  RaiseKernelCheck(
      checks::kGmBounds,
      std::string(api) + ": GM bytes [" + Hex(a) + ", +" + std::to_string(bytes) +
          ") are not device memory: the access starts outside every live GM region (aclrtMalloc, "
          "GmAlloc, pooled or registered); an aclrtMallocHost block, host memory or memory "
          "freed long ago is not GM in a <<<>>> launch (the device raises an AI core exception)" +
          NearestRegion(a));
}

}  // namespace

bool FindFreedGm(const void* p, FreedGm* out) {
  const Lookup found = Find(reinterpret_cast<uintptr_t>(p), 1, true);
  if (!found.freed) return false;
  *out = {found.base, found.block.requested, KindName(found.block.kind)};
  return true;
}

bool IsLiveGm(const void* p) { return Find(reinterpret_cast<uintptr_t>(p), 1, true).held; }

void CheckGmRawAccess(const void* p, uint64_t bytes, const char* api) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  const bool checked = CheckedMode();
  const Lookup found = Find(a, bytes, checked);
  if (found.held || (!found.starts_inside && !found.freed)) return;
  RaiseOutside(found, a, bytes, checked, api);
}

GmRegionSpan CheckGmAllocRange(const void* p, uint64_t bytes, const char* api) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  const bool checked = CheckedMode();
  const uint64_t gen = g_generation.load(std::memory_order_acquire);
  RegionCache& cache = t_cache;
  for (const CachedRegion& c : cache.slot) {
    if (c.generation == gen && a >= c.base &&
        a - c.base + bytes <= (checked ? c.requested : c.allocated)) {
      return {reinterpret_cast<const std::byte*>(c.base), c.requested};
    }
  }
  const Lookup found = Find(a, bytes, checked);
  if (found.held) {
    cache.slot[cache.next] = {gen, found.base, found.block.requested, found.block.allocated};
    cache.next = (cache.next + 1) % kCacheSlots;
    return {reinterpret_cast<const std::byte*>(found.base), found.block.requested};
  }
  if (!found.starts_inside && !found.freed) {
    const BlockContext* ctx = CurrentBlockContext();
    if (ctx != nullptr && ctx->device_memory_only) RaiseNotDeviceMemory(a, bytes, api);
    return {};  // plain host memory passed as GM outside a <<<>>> launch: the caller's to bound
  }
  RaiseOutside(found, a, bytes, checked, api);
}

GmRegionSpan CheckGlobalRange(const void* base, uint64_t size_elems, bool size_known,
                              uint64_t elem_offset, uint64_t count, uint32_t elem_size,
                              const char* api) {
  if (base == nullptr) {
    RaiseKernelCheck(checks::kGmBounds,
                     std::string(api) + ": the GlobalTensor has no buffer (call SetGlobalBuffer)");
  }
  if (size_known && elem_offset + count > size_elems && CheckedMode()) {
    RaiseKernelCheck(checks::kGmBounds, std::string(api) + ": elements [" +
                                            std::to_string(elem_offset) + ", " +
                                            std::to_string(elem_offset + count) +
                                            ") are outside the GlobalTensor of " +
                                            std::to_string(size_elems) + " elements");
  }
  return CheckGmAllocRange(static_cast<const std::byte*>(base) + elem_offset * elem_size,
                           count * elem_size, api);
}

}  // namespace lngrad::aicore::detail

namespace lngrad::aicore {
namespace {

using detail::GmKind;

uint64_t Rounded32(size_t size) { return size == 0 ? 32 : (uint64_t{size} + 31) / 32 * 32; }

// The largest GM block a process can have here: 2^47 bytes, the x86-64 user address space. A
// larger request is refused (std::bad_alloc) before any size is rounded, so no rounding of a
// caller's number can wrap round to a small block that the registry would record as huge.
constexpr uint64_t kMaxGmBytes = uint64_t{1} << 47;
void CheckGmSize(size_t size) {
  if (uint64_t{size} > kMaxGmBytes) throw std::bad_alloc();
}

// Free pooled blocks by capacity. Capacities are whole 4 KiB pages, so that blocks of nearby
// sizes are interchangeable and the pages of a reused block are already mapped.
constexpr uint64_t kPoolPage = 4096;
constexpr uint64_t kDefaultPoolLimit = uint64_t{256} << 20;

struct Pool {
  std::mutex mu;
  std::multimap<uint64_t, void*> free_blocks;  // capacity -> block
  detail::SpareNodes<std::multimap<uint64_t, void*>> spare;
  std::map<uintptr_t, uint64_t> capacity;  // every pooled block, free or in use
  uint64_t cached = 0;                     // bytes of free blocks
  uint64_t limit = kDefaultPoolLimit;

  // Frees free blocks, largest first, until cached + incoming <= limit. Needs mu.
  void Shrink(uint64_t incoming) {
    while (!free_blocks.empty() && cached + incoming > limit) {
      auto it = std::prev(free_blocks.end());
      cached -= it->first;
      capacity.erase(reinterpret_cast<uintptr_t>(it->second));
      detail::ForgetFreed(reinterpret_cast<uintptr_t>(it->second));
      std::free(it->second);
      spare.Erase(free_blocks, it);
    }
  }
};

Pool& GmPool() {
  // Leaked on purpose: pooled blocks may be released by other static destructors.
  static Pool* pool = new Pool;
  return *pool;
}

// Freed GmAlloc blocks still held (gm.h), oldest first: up to kGmFreedKeepBytes of memory and
// kGmFreedKeepBlocks blocks. A block of kFreedReleaseBytes or more gives its whole pages back to
// the system at once (madvise; its address range stays the process's), so it is held at the
// cost of its address range only.
constexpr uint64_t kFreedReleaseBytes = uint64_t{1} << 20;

struct FreedKeep {
  struct Block {
    void* p;
    uint64_t held;  // bytes of memory it still holds
  };
  std::mutex mu;
  std::deque<Block> blocks;
  uint64_t held = 0;

  void Keep(void* p, uint64_t span) {
    uint64_t keep = span;
    if (span >= kFreedReleaseBytes) {
      const uintptr_t page = 4096;
      const uintptr_t a = reinterpret_cast<uintptr_t>(p);
      const uintptr_t from = (a + page - 1) / page * page, to = (a + span) / page * page;
      if (to > from && madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED) == 0) {
        keep = span - (to - from);
      }
    }
    std::lock_guard lock(mu);
    blocks.push_back({p, keep});
    held += keep;
    while (held > detail::kGmFreedKeepBytes || blocks.size() > detail::kGmFreedKeepBlocks) {
      const Block old = blocks.front();
      blocks.pop_front();
      held -= old.held;
      detail::ForgetFreed(reinterpret_cast<uintptr_t>(old.p));
      std::free(old.p);
    }
  }
};

FreedKeep& GmFreedKeep() {
  static FreedKeep* keep = new FreedKeep;  // leaked on purpose, as the pool
  return *keep;
}

}  // namespace

GmRegistration::GmRegistration(const void* p, size_t bytes)
    : base_(reinterpret_cast<uintptr_t>(p)), bytes_(bytes), active_(p != nullptr && bytes != 0) {
  if (active_) detail::AddRegion(base_, bytes_, bytes_, bytes_, GmKind::kRegistered);
}

GmRegistration::~GmRegistration() { Release(); }

GmRegistration::GmRegistration(GmRegistration&& o) noexcept
    : base_(o.base_), bytes_(o.bytes_), active_(o.active_) {
  o.active_ = false;
}

GmRegistration& GmRegistration::operator=(GmRegistration&& o) noexcept {
  if (this != &o) {
    Release();
    base_ = o.base_;
    bytes_ = o.bytes_;
    active_ = o.active_;
    o.active_ = false;
  }
  return *this;
}

void GmRegistration::Release() noexcept {
  if (active_) (void)detail::RemoveRegion(base_, GmKind::kRegistered, bytes_, true);
  active_ = false;
}

void* GmPoolAlloc(size_t size) {
  CheckGmSize(size);
  const uint64_t allocated = Rounded32(size);
  // With a red zone after the request, as GmAlloc blocks (gm.h).
  const uint64_t want =
      (allocated + detail::kGmRedZoneBytes + kPoolPage - 1) / kPoolPage * kPoolPage;
  Pool& pool = GmPool();
  void* p = nullptr;
  uint64_t cap = want;
  {
    std::lock_guard lock(pool.mu);
    // Best fit, but never a block more than twice (plus a page) as large: it would hold memory
    // that the request does not need.
    auto it = pool.free_blocks.lower_bound(want);
    if (it != pool.free_blocks.end() && it->first <= 2 * want + kPoolPage) {
      p = it->second;
      cap = it->first;
      pool.cached -= it->first;
      pool.spare.Erase(pool.free_blocks, it);
    }
  }
  if (p == nullptr) {
    p = std::aligned_alloc(kPoolPage, want);
    if (p == nullptr) throw std::bad_alloc();
    std::lock_guard lock(pool.mu);
    pool.capacity[reinterpret_cast<uintptr_t>(p)] = want;
  }
  detail::AddRegion(reinterpret_cast<uintptr_t>(p), size, allocated, cap, GmKind::kPool);
  return p;
}

void GmPoolFree(void* ptr) {
  if (ptr == nullptr) return;
  // A free pooled block stays the pool's: accesses to it are refused (gm_freed) until reused.
  if (!detail::RemoveRegion(reinterpret_cast<uintptr_t>(ptr), GmKind::kPool, 0, false, true)) {
    throw std::invalid_argument(
        "lngrad::aicore::GmPoolFree: the pointer was not returned by GmPoolAlloc, or was "
        "freed already");
  }
  Pool& pool = GmPool();
  std::lock_guard lock(pool.mu);
  const uint64_t cap = pool.capacity.at(reinterpret_cast<uintptr_t>(ptr));
  if (cap > pool.limit) {
    pool.capacity.erase(reinterpret_cast<uintptr_t>(ptr));
    detail::ForgetFreed(reinterpret_cast<uintptr_t>(ptr));
    std::free(ptr);
    return;
  }
  pool.Shrink(cap);
  pool.spare.Insert(pool.free_blocks, cap, ptr);
  pool.cached += cap;
}

void SetGmPoolLimit(size_t bytes) {
  Pool& pool = GmPool();
  std::lock_guard lock(pool.mu);
  pool.limit = bytes;
  pool.Shrink(0);
}

size_t GmPoolCachedBytes() {
  Pool& pool = GmPool();
  std::lock_guard lock(pool.mu);
  return static_cast<size_t>(pool.cached);
}

}  // namespace lngrad::aicore

namespace AscendC {

void* GmAlloc(size_t size) {
  lngrad::aicore::CheckGmSize(size);
  const uint64_t allocated = lngrad::aicore::Rounded32(size);
  // 512-byte aligned, as device memory is (GroupBarrier's workspace must be; the kit's samples
  // pass aclrtMalloc memory straight to it), and followed by a red zone (gm.h).
  const uint64_t span = lngrad::aicore::detail::GmAllocSpan(allocated);
  void* p = std::aligned_alloc(512, span);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, span);  // the red zone too: the runtime may read it (it never writes it)
  lngrad::aicore::detail::AddRegion(reinterpret_cast<uintptr_t>(p), size, allocated, span,
                                    lngrad::aicore::detail::GmKind::kAlloc);
  return p;
}

void GmFree(void* ptr) {
  if (ptr == nullptr) return;
  // Kept for a while (gm.h): a later access to it is refused as one after the free (gm_freed).
  uint64_t span = 0;
  if (!lngrad::aicore::detail::RemoveRegion(reinterpret_cast<uintptr_t>(ptr),
                                            lngrad::aicore::detail::GmKind::kAlloc, 0, false, true,
                                            &span)) {
    throw std::invalid_argument(
        "AscendC::GmFree: the pointer was not returned by GmAlloc, or was freed already (memory "
        "registered with "
        "lngrad::aicore::GmRegistration or taken from GmPoolAlloc is not GmFree's to free)");
  }
  lngrad::aicore::GmFreedKeep().Keep(ptr, span);
}

}  // namespace AscendC
