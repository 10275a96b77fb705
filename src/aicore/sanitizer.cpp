// The pipeline sanitizer (lngrad_aicore/sanitizer.h, docs/ascendc_compat.md "The pipeline
// sanitizer").
//
// Model. Each pipe P of a block has an epoch counter; an access is stamped with its pipe's
// current epoch. known[P][Q] is the highest epoch of pipe Q whose accesses are complete before
// P's next access starts (a vector clock). SetFlag<A_B> snapshots A's knowledge plus A's own
// current epoch and starts a new epoch of A; WaitFlag<A_B> joins the snapshot into B's
// knowledge; PipeBarrier<P> completes P's own epochs; PIPE_ALL completes everything. The TQue
// framework's EnQue/DeQue and FreeTensor/AllocTensor are such flags, one per queue buffer.
// Two accesses to the same bytes, one a write, are ordered when the later pipe knows the
// earlier epoch, or when both are on S, or both on V with the compiler's V-V syncs (2201 with
// cce-auto-sync) or the hardware's (3510), or when one is an auto-synced S access and the other
// is on V, MTE2 or MTE3 (cce-auto-sync's S syncs). MTE2 (MTE3) copies are not ordered among
// themselves without a barrier. Shadow state is kept per byte range (an interval map), per
// block for UB and for the GM the block touches; GM shared by blocks is checked at the end of
// the launch.
#include "lngrad_aicore/sanitizer.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "lngrad_aicore/atomic.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sync.h"
#include "sanitizer_launch.h"

namespace lngrad::aicore {

const char* PipeName(Pipe p) noexcept {
  switch (p) {
    case Pipe::kS:
      return "S";
    case Pipe::kV:
      return "V";
    case Pipe::kMte2:
      return "MTE2";
    case Pipe::kMte3:
      return "MTE3";
  }
  return "?";
}

namespace san {
namespace {

constexpr int kEventIds = 8;  // SetFlag/WaitFlag ids 0-7 on every product lngrad simulates
constexpr size_t kMaxFindingsPerBlock = 64;

int PipeIndex(Pipe p) { return static_cast<int>(p); }

// The pipes a HardEvent connects, for the four the sanitizer models (sync.h's EventBetween,
// read backwards). false for the cube pipes.
bool EventPipes(AscendC::HardEvent e, Pipe* src, Pipe* dst) {
  static constexpr pipe_t kPipeOf[kPipeCount] = {PIPE_S, PIPE_V, PIPE_MTE2, PIPE_MTE3};
  if (e == AscendC::HardEvent::MAX) return false;
  for (int s = 0; s < kPipeCount; ++s) {
    for (int d = 0; d < kPipeCount; ++d) {
      if (AscendC::detail_sync::EventBetween(kPipeOf[s], kPipeOf[d]) == e) {
        *src = static_cast<Pipe>(s);
        *dst = static_cast<Pipe>(d);
        return true;
      }
    }
  }
  return false;
}

std::string EventName(Pipe src, Pipe dst) {
  return std::string("HardEvent::") + PipeName(src) + "_" + PipeName(dst);
}

const char* EventText(AscendC::HardEvent e) {
  static const char* const kNames[] = {
      "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1",   "MTE2_V",    "V_MTE2",    "MTE3_V",
      "V_MTE3",    "M_V",       "V_M",    "V_V",      "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",
      "MTE2_M",    "M_MTE2",    "V_MTE1", "M_FIX",    "FIX_M",     "MTE3_MTE2", "MTE2_MTE3",
      "S_V",       "V_S",       "S_MTE2", "MTE2_S",   "S_MTE3",    "MTE3_S",    "MTE2_FIX",
      "FIX_MTE2",  "FIX_S",     "M_S",    "FIX_MTE3", "MTE1_FIX",  "FIX_MTE1",  "FIX_FIX"};
  const auto i = static_cast<size_t>(e);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "?";
}

std::string Where(SrcLoc loc) {
  if (loc.file == nullptr) return "?";
  const char* base = std::strrchr(loc.file, '/');
  return std::string(base != nullptr ? base + 1 : loc.file) + ":" + std::to_string(loc.line);
}

struct Site {
  const char* api;
  SrcLoc loc;
  Pipe pipe;
};

// One access of a byte range: its pipe's epoch and site (epoch 0: none).
struct Stamp {
  uint32_t epoch = 0;
  uint32_t site = 0;
  bool auto_synced = false;
  bool operator==(const Stamp&) const = default;
};

struct Cell {
  bool written = false;  // initcheck: an instruction of this block initialised the bytes
  Pipe write_pipe = Pipe::kS;
  uint8_t write_atomic = 0;  // GmSpan::atomic of the last write
  Stamp write;
  std::array<Stamp, kPipeCount> reads{};  // since the last write, per pipe
  bool operator==(const Cell&) const = default;
};

constexpr uint64_t kFingerprintSeed = 0x9e3779b97f4a7c15ull;

// Continues `h` over `bytes` bytes at p, eight at a time (a multiply-xorshift mix; not
// cryptographic: it tells identical writes from different ones).
uint64_t Fingerprint(uint64_t h, const std::byte* p, uint64_t bytes) {
  uint64_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  for (; i < bytes; ++i) h = (h ^ static_cast<uint8_t>(p[i])) * 0x100000001b3ull;
  return h ^ bytes;
}

// Byte ranges [begin, end) -> Cell; a range never accessed has no entry.
class ShadowMap {
 public:
  template <class Fn>
  void Visit(uint64_t begin, uint64_t end, Fn&& fn) {
    if (begin >= end) return;
    Split(begin);
    Split(end);
    uint64_t cur = begin;
    auto it = map_.lower_bound(begin);
    while (cur < end) {
      if (it == map_.end() || it->first > cur) {
        const uint64_t gap_end = it == map_.end() ? end : std::min(end, it->first);
        it = map_.emplace_hint(it, cur, Seg{gap_end, Cell{}});
      }
      fn(it->first, it->second.end, it->second.cell);
      cur = it->second.end;
      ++it;
    }
    Coalesce(begin, end);
  }
  size_t size() const { return map_.size(); }

 private:
  struct Seg {
    uint64_t end;
    Cell cell;
  };
  void Split(uint64_t at) {
    auto it = map_.upper_bound(at);
    if (it == map_.begin()) return;
    --it;
    if (it->first < at && it->second.end > at) {
      Seg tail = it->second;
      it->second.end = at;
      map_.emplace_hint(std::next(it), at, tail);
    }
  }
  void Coalesce(uint64_t begin, uint64_t end) {
    auto it = map_.lower_bound(begin);
    if (it != map_.begin()) --it;
    while (it != map_.end() && it->first <= end) {
      auto next = std::next(it);
      if (next == map_.end()) break;
      if (it->second.end == next->first && it->second.cell == next->second.cell) {
        it->second.end = next->second.end;
        map_.erase(next);
      } else {
        it = next;
      }
    }
  }
  std::map<uint64_t, Seg> map_;
};

// Device memory nothing wrote yet (aclrtMalloc without a copy): disjoint ranges begin -> end.
struct GmUninit {
  std::mutex mu;
  std::map<uintptr_t, uintptr_t> ranges;
  std::atomic<bool> empty{true};  // read without the lock on the fast path; written under it
};

GmUninit& Uninit() {
  static GmUninit* u = new GmUninit;  // leaked: memory may be freed from static destructors
  return *u;
}

void EraseRange(std::map<uintptr_t, uintptr_t>& m, uintptr_t b, uintptr_t e) {
  auto it = m.upper_bound(b);
  if (it != m.begin()) --it;
  while (it != m.end() && it->first < e) {
    const uintptr_t rb = it->first, re = it->second;
    if (re <= b) {
      ++it;
      continue;
    }
    it = m.erase(it);
    if (rb < b) m.emplace(rb, b);
    if (re > e) {
      m.emplace(e, re);
      break;
    }
  }
}

// The first never-written sub-range of [b, e), or false.
bool FirstUninit(uintptr_t b, uintptr_t e, uintptr_t* ub, uintptr_t* ue) {
  GmUninit& u = Uninit();
  std::lock_guard lock(u.mu);
  auto it = u.ranges.upper_bound(b);
  if (it != u.ranges.begin()) --it;
  for (; it != u.ranges.end() && it->first < e; ++it) {
    if (it->second <= b) continue;
    *ub = std::max(b, it->first);
    *ue = std::min(e, it->second);
    return true;
  }
  return false;
}

}  // namespace

struct BlockState {
  BlockState(uint32_t tools_in, bool auto_sync_in, bool vv_hw_in, int64_t block_in,
             const std::byte* ub_in, uint32_t ub_size_in)
      : tools(tools_in),
        auto_sync(auto_sync_in),
        vv_hardware(vv_hw_in),
        block(block_in),
        ub(ub_in),
        ub_size(ub_size_in) {
    epoch.fill(1);
    for (auto& row : known) row.fill(0);
  }

  uint32_t tools;
  bool auto_sync;
  bool vv_hardware;
  int64_t block;
  const std::byte* ub;
  uint32_t ub_size;

  std::array<uint32_t, kPipeCount> epoch{};
  std::array<std::array<uint32_t, kPipeCount>, kPipeCount> known{};
  uint32_t phase = 0;  // SyncAll calls so far
  // Cross-block order (Release/Acquire): this block's release epoch, what it acquired, and
  // every clock it had (GmSpan::clock indexes them).
  LaunchSanitizer* launch = nullptr;
  uint32_t xepoch = 1;
  CrossClock clock;
  std::vector<CrossClock> clocks{CrossClock{}};

  std::vector<Site> sites;
  std::map<std::tuple<const char*, const char*, int, int>, uint32_t> site_ids;
  ShadowMap ub_shadow;
  ShadowMap gm_shadow;
  std::vector<GmSpan> gm_spans;

  struct Flag {
    bool set = false;
    std::array<uint32_t, kPipeCount> snapshot{};
    std::array<uint32_t, kPipeCount> gm_snapshot{};  // queue flags: everything the producer knew
    SrcLoc loc;
  };
  std::map<std::pair<int, int>, Flag> flags;  // (HardEvent, id)
  std::map<std::tuple<const void*, int32_t, bool>, std::pair<Pipe, Flag>> queue_flags;
  std::map<std::pair<int, int>, SrcLoc> event_ids;  // allocated, not released
  // Knowledge the TQue framework gives per queue buffer: UB offset -> (end, known[P][Q]).
  using Known = std::array<std::array<uint32_t, kPipeCount>, kPipeCount>;
  std::map<uint64_t, std::pair<uint64_t, Known>> scoped;
  // What the queue flags order for GM: a DeQue or AllocTensor wait is a hardware WaitFlag, so
  // for GM bytes (which no queue buffer owns) its order is transitive, whatever buffer carried
  // it. (UB keeps the per-buffer contract above.)
  Known gm_known{};

  Known& ScopedEntry(const void* p, uint64_t bytes) {
    const auto b = static_cast<uint64_t>(static_cast<const std::byte*>(p) - ub);
    auto [it, fresh] = scoped.try_emplace(b);
    if (fresh) {
      it->second.first = b + bytes;
      for (auto& row : it->second.second) row.fill(0);
    }
    return it->second.second;
  }
  const Known* ScopedFor(const void* p, uint64_t bytes) const {
    const auto b = static_cast<uint64_t>(static_cast<const std::byte*>(p) - ub);
    return ScopedRange(b, b + bytes);
  }
  // The queue buffer holding UB bytes [b, e), if any has framework knowledge.
  const Known* ScopedRange(uint64_t b, uint64_t e) const {
    auto it = scoped.upper_bound(b);
    if (it == scoped.begin()) return nullptr;
    --it;
    return e <= it->second.first ? &it->second.second : nullptr;
  }

  std::map<std::tuple<int, uint32_t, uint32_t, int>, size_t> finding_index;
  std::vector<Finding> findings;
  size_t dropped = 0;

  uint32_t Intern(const char* api, SrcLoc loc, Pipe pipe) {
    const auto key = std::make_tuple(api, loc.file, loc.line, PipeIndex(pipe));
    auto it = site_ids.find(key);
    if (it != site_ids.end()) return it->second;
    const auto id = static_cast<uint32_t>(sites.size());
    sites.push_back({api, loc, pipe});
    site_ids.emplace(key, id);
    return id;
  }
  std::string SiteText(uint32_t id) const {
    const Site& s = sites[id];
    return std::string(PipeName(s.pipe)) + " " + s.api + " at " + Where(s.loc);
  }
  int Line(uint32_t id) const { return sites[id].loc.line; }

  // Records a finding unless this (kind, site, site) pair was reported already; `range` widens
  // the byte range of an existing one.
  void Report(uint32_t tool, int kind, uint32_t a, uint32_t b, const std::string& text) {
    const auto key = std::make_tuple(kind, a, b, static_cast<int>(tool));
    if (finding_index.count(key) != 0) return;
    if (findings.size() >= kMaxFindingsPerBlock) {
      ++dropped;
      return;
    }
    finding_index.emplace(key, findings.size());
    findings.push_back({tool, text});
  }

  // `scope`: the queue-buffer knowledge for the bytes in question (nullptr: none; GM).
  bool Ordered(Pipe earlier, const Stamp& e, Pipe later, bool later_auto,
               const Known* scope = nullptr) const {
    if (e.epoch == 0) return true;
    if (earlier == later) {
      if (earlier == Pipe::kS) return true;
      if (earlier == Pipe::kV && (vv_hardware || auto_sync)) return true;
    } else if (auto_sync &&
               ((earlier == Pipe::kS && e.auto_synced) || (later == Pipe::kS && later_auto))) {
      return true;
    }
    const int l = PipeIndex(later), q = PipeIndex(earlier);
    if (known[l][q] >= e.epoch) return true;
    return scope != nullptr && (*scope)[l][q] >= e.epoch;
  }

  std::string Fix(Pipe a, uint32_t site_a, Pipe b, uint32_t site_b, bool war) const {
    const int la = Line(site_a), lb = Line(site_b);
    std::ostringstream os;
    if (a == b) {
      os << "insert PipeBarrier<PIPE_" << PipeName(a) << ">() between line " << la << " and line "
         << lb;
      return os.str();
    }
    const std::string evt = EventName(a, b);
    os << "insert SetFlag<" << evt << ">(id) after line " << la << " and WaitFlag<" << evt
       << ">(id) before line " << lb;
    if (!war && ((a == Pipe::kMte2 && b == Pipe::kV) || (a == Pipe::kV && b == Pipe::kMte3) ||
                 (a == Pipe::kMte2 && b == Pipe::kMte3))) {
      os << ", or EnQue the tensor after line " << la << " and DeQue it before line " << lb;
    }
    if (war && ((a == Pipe::kV && b == Pipe::kMte2) || (a == Pipe::kMte3 && b == Pipe::kV) ||
                (a == Pipe::kMte3 && b == Pipe::kMte2))) {
      os << ", or FreeTensor the buffer only after line " << la << " (its next AllocTensor then "
         << "waits)";
    }
    if (a == Pipe::kS || b == Pipe::kS) {
      if (!auto_sync) {
        os << ", or build with cce-auto-sync on (the default; this launch's kernel was built with "
              "--cce-auto-sync=off)";
      } else {
        os << " (cce-auto-sync does not order this scalar access: only LocalTensor "
              "GetValue/SetValue/operator() and GlobalTensor GetValue/operator() are)";
      }
    }
    return os.str();
  }

  void Race(const char* space, uint64_t b, uint64_t e, const char* what, Pipe pa, uint32_t sa,
            Pipe pb, uint32_t sb, bool war) {
    std::ostringstream os;
    os << what << " hazard on " << space << " bytes [" << b << ", " << e << "): " << SiteText(sa)
       << (war ? " reads them, then " : " writes them, then ") << SiteText(sb)
       << (std::strcmp(what, "write-after-write") == 0 || war ? " writes them" : " reads them")
       << ", and nothing orders the two; " << Fix(pa, sa, pb, sb, war);
    // An in-place instruction both reads and overwrites what the other wrote: one finding.
    const int kind = war ? 2 : 0;
    Report(kRacecheck, kind, sa, sb, os.str());
  }

  void Access(Pipe pipe, uint32_t site, bool auto_synced, const void* p, uint64_t bytes,
              uint8_t kind) {
    if (bytes == 0) return;
    const auto* bp = static_cast<const std::byte*>(p);
    const bool in_ub = bp >= ub && bp < ub + ub_size;
    const uint64_t begin = in_ub ? static_cast<uint64_t>(bp - ub) : reinterpret_cast<uintptr_t>(p);
    const uint64_t end = begin + bytes;
    const char* space = in_ub ? "UB" : "GM";
    const bool write = kind != 0;
    const Stamp now{epoch[PipeIndex(pipe)], site, auto_synced};
    uint8_t atomic = 0;
    if (!in_ub && write && pipe == Pipe::kMte3) {
      const detail::DmaAtomic a = detail::CurrentDmaAtomic();
      if (a.type != detail::AtomicType::kOff) {
        atomic = static_cast<uint8_t>(1 + static_cast<int>(a.type) * 4 + static_cast<int>(a.op));
      }
    }
    if (!in_ub) {
      // Committed after the copy (Instr's destructor), so GM holds what the copy wrote.
      const bool hashed = kind == 1 && pipe == Pipe::kMte3 && atomic == 0;
      const auto clock_id = static_cast<uint32_t>(clocks.size() - 1);
      if (!gm_spans.empty() && gm_spans.back().site == site && gm_spans.back().write == write &&
          gm_spans.back().phase == phase && gm_spans.back().end == begin &&
          gm_spans.back().hashed == hashed && gm_spans.back().atomic == atomic &&
          gm_spans.back().xepoch == xepoch && gm_spans.back().clock == clock_id) {
        GmSpan& last = gm_spans.back();
        last.end = end;
        if (hashed) last.hash = Fingerprint(last.hash, bp, bytes);
      } else {
        gm_spans.push_back({begin, end, site, phase, write, hashed,
                            hashed ? Fingerprint(kFingerprintSeed, bp, bytes) : 0, atomic, xepoch,
                            clock_id});
      }
      if ((tools & kInitcheck) != 0 && !Uninit().empty.load(std::memory_order_relaxed)) {
        if (write && kind == 1) {
          GmMarkWritten(p, bytes);
        } else if (!write) {
          uintptr_t ub0 = 0, ue0 = 0;
          if (FirstUninit(begin, end, &ub0, &ue0)) {
            Report(kInitcheck, 3, site, site,
                   "read of device memory no one wrote: " + SiteText(site) + " reads GM bytes [" +
                       std::to_string(ub0 - begin) + ", " + std::to_string(ue0 - begin) +
                       ") of its range (address 0x" + Hex(ub0) +
                       "), which came from aclrtMalloc and no aclrtMemcpy, aclrtMemset or kernel "
                       "has written (device memory is not zeroed)");
          }
        }
      }
    }
    ShadowMap& shadow = in_ub ? ub_shadow : gm_shadow;
    const bool race = (tools & kRacecheck) != 0;
    const bool init = (tools & kInitcheck) != 0 && in_ub;
    shadow.Visit(begin, end, [&](uint64_t sb, uint64_t se, Cell& c) {
      const Known* scope = !in_ub ? &gm_known : !scoped.empty() ? ScopedRange(sb, se) : nullptr;
      if (!write) {
        if (init && !c.written) {
          Report(kInitcheck, 4, site, site,
                 "read of uninitialised UB: " + SiteText(site) + " reads UB bytes [" +
                     std::to_string(sb) + ", " + std::to_string(se) +
                     ") that no instruction of this block has written (on the device UB holds "
                     "whatever the previous kernel left there); copy data in or initialise it "
                     "(e.g. Duplicate) first");
        }
        if (race && !Ordered(c.write_pipe, c.write, pipe, auto_synced, scope)) {
          Race(space, sb, se, "read-after-write", c.write_pipe, c.write.site, pipe, site, false);
        }
        c.reads[PipeIndex(pipe)] = now;
        return;
      }
      if (race) {
        // Two atomic copies with the same operation combine in either order.
        const bool combine = atomic != 0 && c.write_atomic == atomic;
        if (!combine && !Ordered(c.write_pipe, c.write, pipe, auto_synced, scope)) {
          Race(space, sb, se, "write-after-write", c.write_pipe, c.write.site, pipe, site, false);
        }
        for (int q = 0; q < kPipeCount; ++q) {
          const Pipe qp = static_cast<Pipe>(q);
          if (qp == pipe) continue;
          if (!Ordered(qp, c.reads[q], pipe, auto_synced, scope)) {
            Race(space, sb, se, "write-after-read", qp, c.reads[q].site, pipe, site, true);
          }
        }
      }
      c.written = c.written || kind == 1;
      c.write_pipe = pipe;
      c.write_atomic = atomic;
      c.write = now;
      c.reads.fill(Stamp{});
    });
  }

  static std::string Hex(uintptr_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return buf;
  }

  std::array<uint32_t, kPipeCount> Snapshot(Pipe src) {
    std::array<uint32_t, kPipeCount> s = known[PipeIndex(src)];
    s[PipeIndex(src)] = epoch[PipeIndex(src)];
    ++epoch[PipeIndex(src)];
    return s;
  }
  void Join(Pipe dst, const std::array<uint32_t, kPipeCount>& s) {
    auto& row = known[PipeIndex(dst)];
    for (int q = 0; q < kPipeCount; ++q) row[q] = std::max(row[q], s[q]);
    uint32_t& e = epoch[PipeIndex(dst)];
    e = std::max(e, row[PipeIndex(dst)]) + 1;
  }

  bool CheckId(const char* api, AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
    if (id >= 0 && id < kEventIds) return true;
    if ((tools & kSynccheck) != 0) {
      Report(kSynccheck, 10, Intern(api, loc, Pipe::kS), 0,
             std::string(api) + "<HardEvent::" + EventText(evt) + ">(" + std::to_string(id) +
                 ") at " + Where(loc) + ": event ID " + std::to_string(id) +
                 " is out of range; the IDs are 0-" + std::to_string(kEventIds - 1) +
                 " (take them from TPipe::AllocEventID or FetchEventID)");
    }
    return false;
  }
};

bool ParseTools(const std::string& text, uint32_t* tools, std::string* error) {
  uint32_t t = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t comma = text.find(',', pos);
    const std::string word =
        text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (word == "racecheck") {
      t |= kRacecheck;
    } else if (word == "initcheck") {
      t |= kInitcheck;
    } else if (word == "synccheck") {
      t |= kSynccheck;
    } else if (word == "all") {
      t |= kAllTools;
    } else if (word == "none" || (word.empty() && text.empty())) {
    } else {
      if (error != nullptr) {
        *error = "unknown sanitizer tool '" + word +
                 "'; the tools are racecheck, initcheck, synccheck (comma separated), all or none";
      }
      return false;
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  *tools = t;
  return true;
}

uint32_t ToolsFromEnvironment() {
  static const uint32_t tools = [] {
    const char* env = std::getenv("LNGRAD_SANITIZE");
    if (env == nullptr) return 0u;
    uint32_t t = 0;
    std::string error;
    if (!ParseTools(env, &t, &error)) {
      std::fprintf(stderr, "lngrad: LNGRAD_SANITIZE: %s; running every tool\n", error.c_str());
      return static_cast<uint32_t>(kAllTools);
    }
    return t;
  }();
  return tools;
}

namespace {
std::atomic<int64_t> g_default_tools{-1};  // -1: the environment
}  // namespace

uint32_t DefaultTools() {
  const int64_t v = g_default_tools.load(std::memory_order_relaxed);
  return v >= 0 ? static_cast<uint32_t>(v) : ToolsFromEnvironment();
}
void SetDefaultTools(uint32_t tools) { g_default_tools.store(tools, std::memory_order_relaxed); }
void ClearDefaultTools() { g_default_tools.store(-1, std::memory_order_relaxed); }

std::string ToolsText(uint32_t tools) {
  std::string s;
  for (auto [bit, name] : {std::pair{kRacecheck, "racecheck"}, std::pair{kInitcheck, "initcheck"},
                           std::pair{kSynccheck, "synccheck"}}) {
    if ((tools & bit) == 0) continue;
    if (!s.empty()) s += ",";
    s += name;
  }
  return s.empty() ? "none" : s;
}

BlockState* Active() noexcept {
  BlockContext* ctx = CurrentBlockContext();
  return ctx != nullptr ? ctx->san : nullptr;
}

Instr::Instr(Pipe pipe, const char* api, SrcLoc loc) noexcept
    : state_(Active()), pipe_(pipe), api_(api), loc_(loc) {
  if (state_ != nullptr) uncaught_ = std::uncaught_exceptions();
}

Instr::~Instr() {
  if (state_ != nullptr && std::uncaught_exceptions() == uncaught_) {
    BlockState& s = *state_;
    const uint32_t site = s.Intern(api_, loc_, pipe_);
    const Range* r = heap_ != nullptr ? heap_ : inline_;
    // An instruction reads its sources before it writes its destination.
    for (int i = 0; i < count_; ++i) {
      if (r[i].kind == 0) s.Access(pipe_, site, auto_synced_, r[i].p, r[i].bytes, 0);
    }
    for (int i = 0; i < count_; ++i) {
      if (r[i].kind != 0) s.Access(pipe_, site, auto_synced_, r[i].p, r[i].bytes, r[i].kind);
    }
  }
  std::free(heap_);
}

void Instr::Add(const void* p, uint64_t bytes, uint8_t kind) {
  if (state_ == nullptr || bytes == 0) return;
  if (count_ == kInline && heap_ == nullptr) {
    heap_cap_ = 2 * kInline;
    heap_ = static_cast<Range*>(std::malloc(sizeof(Range) * heap_cap_));
    if (heap_ == nullptr) throw std::bad_alloc();
    std::memcpy(heap_, inline_, sizeof inline_);
  } else if (heap_ != nullptr && count_ == heap_cap_) {
    heap_cap_ *= 2;
    auto* grown = static_cast<Range*>(std::realloc(heap_, sizeof(Range) * heap_cap_));
    if (grown == nullptr) throw std::bad_alloc();
    heap_ = grown;
  }
  (heap_ != nullptr ? heap_ : inline_)[count_++] = {p, bytes, kind};
}

void Instr::Read(const void* p, uint64_t bytes) { Add(p, bytes, 0); }
void Instr::Write(const void* p, uint64_t bytes, bool initialises) {
  Add(p, bytes, initialises ? 1 : 2);
}
void Instr::ReadBlocks(const void* p, uint64_t count, uint64_t len, uint64_t pitch) {
  if (state_ == nullptr) return;
  if (pitch == len) return Add(p, count * len, 0);
  for (uint64_t i = 0; i < count; ++i) Add(static_cast<const std::byte*>(p) + i * pitch, len, 0);
}
void Instr::WriteBlocks(const void* p, uint64_t count, uint64_t len, uint64_t pitch,
                        bool initialises) {
  if (state_ == nullptr) return;
  const uint8_t kind = initialises ? 1 : 2;
  if (pitch == len) return Add(p, count * len, kind);
  for (uint64_t i = 0; i < count; ++i) Add(static_cast<const std::byte*>(p) + i * pitch, len, kind);
}

void SetFlag(AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
  BlockState* s = Active();
  if (s == nullptr) return;
  Pipe src, dst;
  if (!s->CheckId("SetFlag", evt, id, loc) || !EventPipes(evt, &src, &dst)) return;
  BlockState::Flag& f = s->flags[{static_cast<int>(evt), id}];
  // The flag is one bit: a second SetFlag before the WaitFlag changes nothing (the waiter may go
  // as soon as the first one fires).
  if (f.set) return;
  f.set = true;
  f.snapshot = s->Snapshot(src);
  f.loc = loc;
}

void WaitFlag(AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
  BlockState* s = Active();
  if (s == nullptr) return;
  Pipe src, dst;
  if (!s->CheckId("WaitFlag", evt, id, loc) || !EventPipes(evt, &src, &dst)) return;
  BlockState::Flag& f = s->flags[{static_cast<int>(evt), id}];
  if (!f.set) {
    if ((s->tools & kSynccheck) != 0) {
      s->Report(kSynccheck, 11, s->Intern("WaitFlag", loc, dst), 0,
                std::string("WaitFlag<HardEvent::") + EventText(evt) + ">(" + std::to_string(id) +
                    ") at " + Where(loc) +
                    " has no SetFlag before it with the same event and ID: on the device pipe " +
                    PipeName(dst) +
                    " waits forever (the kernel hangs); insert SetFlag<HardEvent::" +
                    EventText(evt) + ">(" + std::to_string(id) + ") before it");
    }
    return;
  }
  f.set = false;
  s->Join(dst, f.snapshot);
}

void Barrier(pipe_t pipe, SrcLoc) {
  BlockState* s = Active();
  if (s == nullptr) return;
  auto complete = [s](Pipe p) {
    auto& own = s->known[PipeIndex(p)][PipeIndex(p)];
    own = std::max(own, s->epoch[PipeIndex(p)]);
    ++s->epoch[PipeIndex(p)];
  };
  switch (pipe) {
    case PIPE_ALL: {
      std::array<uint32_t, kPipeCount> all = s->epoch;
      for (auto& row : s->known) {
        for (int q = 0; q < kPipeCount; ++q) row[q] = std::max(row[q], all[q]);
      }
      for (auto& e : s->epoch) ++e;
      break;
    }
    case PIPE_S:
      complete(Pipe::kS);
      break;
    case PIPE_V:
      complete(Pipe::kV);
      break;
    case PIPE_MTE2:
      complete(Pipe::kMte2);
      break;
    case PIPE_MTE3:
      complete(Pipe::kMte3);
      break;
    default:
      break;
  }
}

void AllocEventId(AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
  BlockState* s = Active();
  if (s == nullptr) return;
  if (id < 0) {
    if ((s->tools & kSynccheck) != 0) {
      s->Report(kSynccheck, 15, s->Intern("AllocEventID", loc, Pipe::kS), 0,
                std::string("AllocEventID<HardEvent::") + EventText(evt) + ">() at " + Where(loc) +
                    ": all " + std::to_string(kEventIds) +
                    " event IDs of this event are taken (returned -1); release one with "
                    "ReleaseEventID first");
    }
    return;
  }
  s->event_ids[{static_cast<int>(evt), id}] = loc;
}

void ReleaseEventId(AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
  BlockState* s = Active();
  if (s == nullptr) return;
  if (s->event_ids.erase({static_cast<int>(evt), id}) == 0 && (s->tools & kSynccheck) != 0) {
    s->Report(kSynccheck, 12, s->Intern("ReleaseEventID", loc, Pipe::kS), 0,
              std::string("ReleaseEventID<HardEvent::") + EventText(evt) + ">(" +
                  std::to_string(id) + ") at " + Where(loc) +
                  ": that ID is not allocated (AllocEventID did not hand it out, or it was "
                  "released already)");
  }
}

void QueueSignal(const void* queue, int32_t buffer, bool free_event, AscendC::HardEvent evt,
                 const void* p, uint64_t bytes) {
  BlockState* s = Active();
  if (s == nullptr) return;
  Pipe src, dst;
  if (!EventPipes(evt, &src, &dst)) return;
  auto& slot = s->queue_flags[{queue, buffer, free_event}];
  slot.first = dst;
  slot.second.set = true;
  // What the producer knows of this buffer, through the framework too.
  std::array<uint32_t, kPipeCount> snap = s->Snapshot(src);
  if (const auto* scoped = s->ScopedFor(p, bytes)) {
    for (int q = 0; q < kPipeCount; ++q) snap[q] = std::max(snap[q], (*scoped)[PipeIndex(src)][q]);
  }
  slot.second.snapshot = snap;
  for (int q = 0; q < kPipeCount; ++q) {
    snap[q] = std::max(snap[q], s->gm_known[PipeIndex(src)][q]);
    for (const auto& entry : s->scoped) {
      snap[q] = std::max(snap[q], entry.second.second[PipeIndex(src)][q]);
    }
  }
  slot.second.gm_snapshot = snap;
}

void QueueWait(const void* queue, int32_t buffer, bool free_event, const void* p, uint64_t bytes) {
  BlockState* s = Active();
  if (s == nullptr) return;
  auto it = s->queue_flags.find({queue, buffer, free_event});
  if (it == s->queue_flags.end()) return;
  const Pipe dst = it->second.first;
  if (p == nullptr) {  // a plain wait for the flag (TBufPool::Reset): it orders everything
    s->Join(dst, it->second.second.snapshot);
    s->queue_flags.erase(it);
    return;
  }
  auto& scoped = s->ScopedEntry(p, bytes);
  auto& gm = s->gm_known[PipeIndex(dst)];
  for (int q = 0; q < kPipeCount; ++q) {
    scoped[PipeIndex(dst)][q] = std::max(scoped[PipeIndex(dst)][q], it->second.second.snapshot[q]);
    gm[q] = std::max(gm[q], it->second.second.gm_snapshot[q]);
  }
  // Later accesses of the waiting pipe must not share an epoch with earlier ones (same-pipe
  // ordering of MTE2/MTE3 copies is epoch-based).
  ++s->epoch[PipeIndex(dst)];
  s->queue_flags.erase(it);
}

void OnSyncAll() {
  BlockState* s = Active();
  if (s == nullptr) return;
  ++s->phase;
}

void Release(uint64_t key) {
  BlockState* s = Active();
  if (s == nullptr || s->launch == nullptr) return;
  CrossClock c = s->clock;
  c[s->block] = s->xepoch;
  s->launch->Publish(key, c);
  ++s->xepoch;
}

void Acquire(uint64_t key) {
  BlockState* s = Active();
  if (s == nullptr || s->launch == nullptr) return;
  bool grew = false;
  for (const auto& [block, e] : s->launch->Fetch(key)) {
    if (block == s->block) continue;
    uint32_t& mine = s->clock[block];
    if (e > mine) {
      mine = e;
      grew = true;
    }
  }
  if (grew) s->clocks.push_back(s->clock);
}

void GmMarkUninitialised(const void* p, uint64_t bytes) {
  if (p == nullptr || bytes == 0) return;
  GmUninit& u = Uninit();
  std::lock_guard lock(u.mu);
  const auto b = reinterpret_cast<uintptr_t>(p);
  EraseRange(u.ranges, b, b + bytes);
  u.ranges.emplace(b, b + bytes);
  u.empty.store(false, std::memory_order_relaxed);
}

void GmMarkWritten(const void* p, uint64_t bytes) {
  GmUninit& u = Uninit();
  if (u.empty.load(std::memory_order_relaxed) || p == nullptr || bytes == 0) return;
  std::lock_guard lock(u.mu);
  const auto b = reinterpret_cast<uintptr_t>(p);
  EraseRange(u.ranges, b, b + bytes);
  u.empty.store(u.ranges.empty(), std::memory_order_relaxed);
}

void GmForget(const void* p, uint64_t bytes) { GmMarkWritten(p, bytes); }

void GmForgetUninitialised() {
  GmUninit& u = Uninit();
  if (u.empty.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(u.mu);
  u.ranges.clear();
  u.empty.store(true, std::memory_order_relaxed);
}

// ---------------------------------------------------------------------------------------------
// The launch.

LaunchSanitizer::LaunchSanitizer(uint32_t tools, bool cce_auto_sync, const Product& product)
    : tools_(tools), auto_sync_(cce_auto_sync), product_(product) {}

LaunchSanitizer::~LaunchSanitizer() = default;

void BlockStateDeleter::operator()(BlockState* s) const noexcept { delete s; }

BlockStatePtr LaunchSanitizer::BeginBlock(int64_t block, const std::byte* ub, uint32_t ub_size) {
  // 3510 orders V after V in hardware; 2201 and 2002 rely on the compiler's auto-sync.
  const bool vv_hw = IsRegBaseArch(product_.arch);
  BlockStatePtr s(new BlockState(tools_, auto_sync_, vv_hw, block, ub, ub_size));
  s->launch = this;
  return s;
}

void LaunchSanitizer::Publish(uint64_t key, const CrossClock& c) {
  std::lock_guard lock(clock_mu_);
  CrossClock& mine = released_[key];
  for (const auto& [block, e] : c) mine[block] = std::max(mine[block], e);
}

CrossClock LaunchSanitizer::Fetch(uint64_t key) {
  std::lock_guard lock(clock_mu_);
  auto it = released_.find(key);
  return it == released_.end() ? CrossClock{} : it->second;
}

void LaunchSanitizer::EndBlock(BlockStatePtr state, bool completed) {
  if (state == nullptr || !completed) return;
  BlockState& s = *state;
  if ((s.tools & kSynccheck) != 0) {
    for (const auto& [key, f] : s.flags) {
      if (!f.set) continue;
      const auto evt = static_cast<AscendC::HardEvent>(key.first);
      s.Report(kSynccheck, 13, s.Intern("SetFlag", f.loc, Pipe::kS), 0,
               std::string("SetFlag<HardEvent::") + EventText(evt) + ">(" +
                   std::to_string(key.second) + ") at " + Where(f.loc) +
                   " is still set when the kernel ends: no WaitFlag consumed it, and the flag "
                   "stays set into the next operator (which then does not wait where it should); "
                   "insert WaitFlag<HardEvent::" +
                   EventText(evt) + ">(" + std::to_string(key.second) + ") after it");
    }
    for (const auto& [key, loc] : s.event_ids) {
      const auto evt = static_cast<AscendC::HardEvent>(key.first);
      s.Report(kSynccheck, 14, s.Intern("AllocEventID", loc, Pipe::kS), 0,
               std::string("AllocEventID<HardEvent::") + EventText(evt) + ">() at " + Where(loc) +
                   " handed out event ID " + std::to_string(key.second) +
                   ", which is never released: call ReleaseEventID<HardEvent::" + EventText(evt) +
                   ">(id) when done with it (or use FetchEventID, which allocates nothing)");
    }
  }
  BlockSummary sum;
  sum.block = s.block;
  sum.spans = std::move(s.gm_spans);
  sum.site_names.reserve(s.sites.size());
  for (uint32_t i = 0; i < s.sites.size(); ++i) sum.site_names.push_back(s.SiteText(i));
  sum.findings = std::move(s.findings);
  sum.clocks = std::move(s.clocks);
  if (s.dropped > 0) {
    sum.findings.push_back(
        {0, std::to_string(s.dropped) + " more finding(s) in this block not shown"});
  }
  std::lock_guard lock(mu_);
  blocks_.push_back(std::move(sum));
}

void LaunchSanitizer::Finish(std::vector<BlockFailure>* failures) {
  std::sort(blocks_.begin(), blocks_.end(),
            [](const BlockSummary& a, const BlockSummary& b) { return a.block < b.block; });
  if ((tools_ & kRacecheck) != 0 && blocks_.size() > 1) {
    struct Ref {
      const GmSpan* span;
      size_t block;  // index into blocks_
    };
    std::vector<Ref> all;
    for (size_t i = 0; i < blocks_.size(); ++i) {
      for (const GmSpan& g : blocks_[i].spans) all.push_back({&g, i});
    }
    std::sort(all.begin(), all.end(),
              [](const Ref& a, const Ref& b) { return a.span->begin < b.span->begin; });
    std::vector<Ref> active_writes, active_reads;
    std::map<std::tuple<size_t, uint32_t, size_t, uint32_t>, bool> seen;
    auto report = [&](const Ref& x, const Ref& y) {
      const Ref& lo = blocks_[x.block].block <= blocks_[y.block].block ? x : y;
      const Ref& hi = &lo == &x ? y : x;
      const auto key = std::make_tuple(lo.block, lo.span->site, hi.block, hi.span->site);
      // One report per pair of sites, whichever blocks meet there first.
      const auto site_key = std::make_tuple(size_t{0}, lo.span->site, size_t{0}, hi.span->site);
      if (seen.count(key) != 0 || seen.count(site_key) != 0) return;
      seen[key] = true;
      seen[site_key] = true;
      const uintptr_t b = std::max(lo.span->begin, hi.span->begin);
      const uintptr_t e = std::min(lo.span->end, hi.span->end);
      const bool both = lo.span->write && hi.span->write;
      std::ostringstream os;
      os << "cross-block hazard on GM: block " << blocks_[lo.block].block << " ("
         << blocks_[lo.block].site_names[lo.span->site] << ") "
         << (lo.span->write ? "writes" : "reads") << " and block " << blocks_[hi.block].block
         << " (" << blocks_[hi.block].site_names[hi.span->site] << ") "
         << (hi.span->write ? "writes" : "reads") << " the same " << (e - b) << " bytes (address 0x"
         << BlockState::Hex(b) << "), and the blocks of a launch run in "
         << "no set order; "
         << (both ? "give each block its own range, combine the writes with SetAtomicAdd, or "
                  : "give each block its own range, or ")
         << "order them with SyncAll (or IBSet/IBWait, NotifyNextBlock/WaitPreBlock)";
      blocks_[lo.block].findings.push_back({kRacecheck, os.str()});
    };
    // x's block released after x, and y's block acquired that release before y.
    auto happens_before = [&](const Ref& x, const Ref& y) {
      const CrossClock& c = blocks_[y.block].clocks[y.span->clock];
      auto it = c.find(blocks_[x.block].block);
      return it != c.end() && it->second >= x.span->xepoch;
    };
    for (const Ref& r : all) {
      auto expire = [&](std::vector<Ref>& v) {
        v.erase(std::remove_if(v.begin(), v.end(),
                               [&](const Ref& a) { return a.span->end <= r.span->begin; }),
                v.end());
      };
      expire(active_writes);
      expire(active_reads);
      auto conflicts = [&](const Ref& a) {
        if (a.block == r.block || a.span->phase != r.span->phase) return false;
        const GmSpan& x = *a.span;
        const GmSpan& y = *r.span;
        const bool same_bytes = x.write && y.write && x.hashed && y.hashed && x.begin == y.begin &&
                                x.end == y.end && x.hash == y.hash;
        const bool combined = x.write && y.write && x.atomic != 0 && x.atomic == y.atomic;
        return !same_bytes && !combined && !happens_before(a, r) && !happens_before(r, a);
      };
      for (const Ref& w : active_writes) {
        if (conflicts(w)) report(w, r);
      }
      if (r.span->write) {
        for (const Ref& rd : active_reads) {
          if (conflicts(rd)) report(rd, r);
        }
        active_writes.push_back(r);
      } else {
        active_reads.push_back(r);
      }
    }
  }
  for (const BlockSummary& b : blocks_) {
    if (b.findings.empty()) continue;
    uint32_t first_tool = 0;
    for (uint32_t tool : {static_cast<uint32_t>(kRacecheck), static_cast<uint32_t>(kInitcheck),
                          static_cast<uint32_t>(kSynccheck)}) {
      const bool has = std::any_of(b.findings.begin(), b.findings.end(),
                                   [&](const Finding& f) { return f.tool == tool; });
      if (has) {
        first_tool = tool;
        break;
      }
    }
    std::string message = std::to_string(b.findings.size()) + " sanitizer finding(s):";
    for (const Finding& f : b.findings) {
      message += "\n    [" + ToolsText(f.tool == 0 ? first_tool : f.tool) + "] " + f.text;
    }
    const std::string check = ToolsText(first_tool);
    auto it = std::find_if(failures->begin(), failures->end(),
                           [&](const BlockFailure& f) { return f.block_idx == b.block; });
    if (it != failures->end()) continue;  // the block failed for another reason already
    failures->push_back({b.block, check, message,
                         std::make_exception_ptr(KernelCheckError(b.block, check, message))});
  }
}

}  // namespace san
}  // namespace lngrad::aicore
