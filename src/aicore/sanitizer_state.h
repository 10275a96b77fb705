// The sanitizer's per-block state (internal to sanitizer*.cpp): the pipes' vector clocks, the
// flags and queue knowledge that order them, the shadow state of UB and GM, the findings. The
// model is described at the top of sanitizer.cpp; the accesses are checked in
// sanitizer_access.cpp, the synchronisation that orders them is sanitizer_sync.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "lngrad_aicore/sanitizer.h"
#include "lngrad_aicore/sync.h"
#include "sanitizer_launch.h"
#include "sanitizer_shadow.h"
#include "sanitizer_strided.h"

namespace lngrad::aicore::san {

constexpr int kEventIds = 8;  // SetFlag/WaitFlag ids 0-7 on every product lngrad simulates
constexpr size_t kMaxFindingsPerBlock = 64;

inline int PipeIndex(Pipe p) { return static_cast<int>(p); }

// The pipes a HardEvent connects, for the four the sanitizer models (sync.h's EventBetween,
// read backwards). false for the cube pipes.
bool EventPipes(AscendC::HardEvent e, Pipe* src, Pipe* dst);
std::string EventName(Pipe src, Pipe dst);    // "HardEvent::V_MTE3"
const char* EventText(AscendC::HardEvent e);  // "V_MTE3"
std::string Where(SrcLoc loc);                // "add.asc:70"

struct Site {
  const char* api;
  SrcLoc loc;
  Pipe pipe;
};

// Device memory nothing wrote yet (sanitizer_gm_init.cpp): whether any is recorded (a lock-free
// test), and the first never-written sub-range of [b, e), or false.
bool GmHasUninitialised() noexcept;
bool FirstUninit(uintptr_t b, uintptr_t e, uintptr_t* ub, uintptr_t* ue);
// The same over s's bursts: the lowest burst with never-written bytes (*burst) and its first
// never-written sub-range; and s's bursts written.
bool FirstUninit(const Strided& s, uintptr_t* ub, uintptr_t* ue, uint64_t* burst);
// Every never-written sub-range of [b, e), in address order.
std::vector<std::pair<uintptr_t, uintptr_t>> UninitIn(uintptr_t b, uintptr_t e);
void GmMarkWritten(const Strided& s);

// Where the bytes a GM write wrote can be read back without a race: burst i at p + i * pitch
// (the copy's UB source, which only its block writes); p nullptr: the GM bytes themselves.
struct WrittenBytes {
  const std::byte* p = nullptr;
  uint64_t pitch = 0;
};

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
  // The data cache (sanitizer_dcache.cpp): scalar GM stores not cleaned yet (address -> bytes),
  // lines invalidated and not loaded since (line -> first byte the invalidate covered), whether
  // the whole cache was, and the lines loaded since then; the value keys this block acquires
  // (BlockSummary::late_acquires) and those it has asked for.
  std::map<uintptr_t, uint32_t> dirty;
  std::map<uintptr_t, uint32_t> fresh_lines;
  bool fresh_all = false;
  std::set<uintptr_t> loaded_lines;
  std::vector<std::pair<uint32_t, uint64_t>> late_acquires;
  std::set<uint64_t> late_keys;

  std::vector<Site> sites;
  std::map<std::tuple<const char*, const char*, int, int>, uint32_t> site_ids;
  ShadowMap ub_shadow;
  GmShadow gm_shadow;
  std::vector<GmSpan> gm_spans;
  std::vector<uint64_t> gm_hashes;  // GmSpan::hashes indexes this

  struct Flag {
    bool set = false;
    std::array<uint32_t, kPipeCount> snapshot{};
    SrcLoc loc;
  };
  std::map<std::pair<int, int>, Flag> flags;  // (HardEvent, id)
  std::map<std::tuple<const void*, int32_t, bool>, std::pair<Pipe, Flag>> queue_flags;
  // CrossCoreSetFlag: what the pipes of the block's own sets had issued (element-wise max);
  // its next CrossCoreWaitFlag orders every pipe after it.
  std::array<uint32_t, kPipeCount> cross_set{};
  std::map<std::pair<int, int>, SrcLoc> event_ids;  // allocated, not released
  // 3510's buffer IDs: (key, id) -> the pipe that released it last and what that pipe knew.
  std::map<std::pair<const void*, int32_t>, std::pair<Pipe, std::array<uint32_t, kPipeCount>>>
      buf_ids;

  std::map<std::tuple<int, uint32_t, uint32_t, int>, size_t> finding_index;
  std::vector<Finding> findings;
  size_t dropped = 0;
  // Write-only races (a write-after-write with no read of the first write, in the UB or in one of
  // the block's own cube memories, which nothing outside the block reads): a warning at the end
  // of the block unless a read of the bytes made it a finding first.
  struct PendingWaw {
    uint32_t site_a, site_b;
    std::string text;
    bool promoted = false;
  };
  std::vector<PendingWaw> pending_waw;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> pending_index;

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
  void Report(uint32_t tool, int kind, uint32_t a, uint32_t b, const std::string& text);

  bool Ordered(Pipe earlier, const Stamp& e, Pipe later, bool later_auto) const;

  std::string Fix(Pipe a, uint32_t site_a, Pipe b, uint32_t site_b, bool war) const;

  std::string RaceText(const char* space, uint64_t b, uint64_t e, const char* what, Pipe pa,
                       uint32_t sa, Pipe pb, uint32_t sb, bool war) const;
  void Race(const char* space, uint64_t b, uint64_t e, const char* what, Pipe pa, uint32_t sa,
            Pipe pb, uint32_t sb, bool war);
  // A write-only race between the writes at sites a and b of bytes [b, e) of `space` (RaceText's
  // naming): its pending index.
  uint32_t WriteOnlyRace(const char* space, uint64_t b, uint64_t e, Pipe pa, uint32_t sa, Pipe pb,
                         uint32_t sb);
  void PromoteWriteOnly(uint32_t index);

  // count bursts of `bytes` bytes at p + i * pitch (pitch > bytes when count > 1).
  void Access(Pipe pipe, uint32_t site, bool auto_synced, const void* p, uint64_t bytes,
              uint8_t kind, uint64_t count = 1, uint64_t pitch = 0, WrittenBytes written = {});
  // The GM side of an access: its cross-block span and the initcheck of device memory.
  void RecordGmSpan(uint32_t site, const std::byte* p, const Strided& s, bool write, bool hashed,
                    uint8_t atomic, WrittenBytes written = {});
  void GmInitcheck(uint32_t site, const std::byte* p, const Strided& s, uint8_t kind);
  // A copy from GM into UB carries "never written" along with the bytes: the UB bytes at
  // ub_offset.. that came from never-written device memory in [gm, gm + bytes) become unwritten,
  // and initcheck reports them where an instruction reads them, not at the copy.
  void CarryUnwritten(const std::byte* gm, uint64_t bytes, uint64_t ub_offset);
  // initcheck: the instruction at `site` reads UB bytes [b, e) that the API call at site `left`
  // left with unmodelled contents (Instr::WriteUnmodelled).
  void ReportUnmodelled(uint32_t site, uint32_t left, uint64_t b, uint64_t e);
  // Set while a GM-to-UB copy's GM read is recorded: its never-written bytes are carried.
  bool carry_gm_unwritten = false;

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

  bool CheckId(const char* api, AscendC::HardEvent evt, int32_t id, SrcLoc loc);
};

}  // namespace lngrad::aicore::san
