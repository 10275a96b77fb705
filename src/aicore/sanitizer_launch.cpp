// The launcher's side of the sanitizer (sanitizer_launch.h): one BlockState per block, the
// end-of-block synccheck, the cross-block check of GM at the end of the launch and the failures
// it reports.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "lngrad_aicore/check.h"
#include "sanitizer_state.h"

namespace lngrad::aicore::san {

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

void LaunchSanitizer::ResolveLateAcquires() {
  for (BlockSummary& b : blocks_) {
    for (const auto& [first, key] : b.late_acquires) {
      const CrossClock c = Fetch(key);
      for (size_t i = first; i < b.clocks.size(); ++i) {
        for (const auto& [block, e] : c) {
          if (block == b.block) continue;
          uint32_t& mine = b.clocks[i][block];
          mine = std::max(mine, e);
        }
      }
    }
  }
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
  sum.hashes = std::move(s.gm_hashes);
  sum.site_names.reserve(s.sites.size());
  for (uint32_t i = 0; i < s.sites.size(); ++i) sum.site_names.push_back(s.SiteText(i));
  sum.findings = std::move(s.findings);
  for (const BlockState::PendingWaw& w : s.pending_waw) {
    if (w.promoted) continue;
    sum.warnings.push_back(
        {kRacecheck, "write-only race (a warning; the launch does not fail): " + w.text +
                         ". Nothing reads these bytes before they are overwritten or the kernel "
                         "ends, so no result depends on the order; the device may still run the "
                         "two writes in either order"});
  }
  sum.clocks = std::move(s.clocks);
  sum.late_acquires = std::move(s.late_acquires);
  if (s.dropped > 0) {
    sum.findings.push_back(
        {0, std::to_string(s.dropped) + " more finding(s) in this block not shown"});
  }
  std::lock_guard lock(mu_);
  blocks_.push_back(std::move(sum));
}

namespace {

// One GM span of one block, for the cross-block sweep.
struct SpanRef {
  const GmSpan* span;
  size_t block;  // index into the launch's blocks
};

// (block, site, block, site) pairs reported so far; (0, site, 0, site): that pair of sites.
using SeenPairs = std::map<std::tuple<size_t, uint32_t, size_t, uint32_t>, bool>;

// Words the cross-block hazard between x and y into the lower block's findings, once per pair
// of sites, whichever blocks meet there first.
void ReportCrossBlock(std::vector<BlockSummary>& blocks, const SpanRef& x, const SpanRef& y,
                      uintptr_t b, uintptr_t e, SeenPairs& seen) {
  const SpanRef& lo = blocks[x.block].block <= blocks[y.block].block ? x : y;
  const SpanRef& hi = &lo == &x ? y : x;
  const auto key = std::make_tuple(lo.block, lo.span->site, hi.block, hi.span->site);
  const auto site_key = std::make_tuple(size_t{0}, lo.span->site, size_t{0}, hi.span->site);
  if (seen.count(key) != 0 || seen.count(site_key) != 0) return;
  seen[key] = true;
  seen[site_key] = true;
  const bool both = lo.span->write && hi.span->write;
  std::ostringstream os;
  os << "cross-block hazard on GM: block " << blocks[lo.block].block << " ("
     << blocks[lo.block].site_names[lo.span->site] << ") " << (lo.span->write ? "writes" : "reads")
     << " and block " << blocks[hi.block].block << " ("
     << blocks[hi.block].site_names[hi.span->site] << ") " << (hi.span->write ? "writes" : "reads")
     << " the same " << (e - b) << " bytes (address 0x" << BlockState::Hex(b)
     << "), and the blocks of a launch run in "
     << "no set order; "
     << (both ? "give each block its own range, combine the writes with SetAtomicAdd, or "
              : "give each block its own range, or ")
     << "order them with SyncAll (or IBSet/IBWait, NotifyNextBlock/WaitPreBlock)";
  blocks[lo.block].findings.push_back({kRacecheck, os.str()});
}

// x's block released after x, and y's block acquired that release before y.
bool HappensBefore(const std::vector<BlockSummary>& blocks, const SpanRef& x, const SpanRef& y) {
  const CrossClock& c = blocks[y.block].clocks[y.span->clock];
  auto it = c.find(blocks[x.block].block);
  return it != c.end() && it->second >= x.span->xepoch;
}

Strided Shape(const GmSpan& g) { return {g.begin, g.len, g.pitch, g.count}; }

uint64_t BurstHash(const std::vector<BlockSummary>& blocks, const SpanRef& r, uint64_t i) {
  return r.span->count == 1 ? r.span->hash : blocks[r.block].hashes[r.span->hashes + i];
}

// Two spans of different blocks in one SyncAll phase that nothing orders, and where their bytes
// meet: the lowest such bytes [*b, *e), not counting two writes of the same bytes (a burst or
// a contiguous span, with the same fingerprint) and not two atomic writes with one operation.
bool Conflicts(const std::vector<BlockSummary>& blocks, const SpanRef& a, const SpanRef& r,
               uintptr_t* b, uintptr_t* e) {
  if (a.block == r.block || a.span->phase != r.span->phase) return false;
  const GmSpan& x = *a.span;
  const GmSpan& y = *r.span;
  const bool combined = x.write && y.write && x.atomic != 0 && x.atomic == y.atomic;
  if (combined || HappensBefore(blocks, a, r) || HappensBefore(blocks, r, a)) return false;
  const Strided sx = Shape(x), sy = Shape(y);
  uint64_t ob = 0, oe = 0;
  if (!FirstOverlap(sx, sy, &ob, &oe)) return false;
  if (!(x.write && y.write && x.hashed && y.hashed)) {
    *b = ob;
    *e = oe;
    return true;
  }
  // Both fingerprinted: burst by burst, in address order, skipping identical bursts.
  uint64_t i0 = 0, i1 = 0;
  if (!BurstsMeeting(sx, sy.begin, sy.End(), &i0, &i1)) return false;
  for (uint64_t i = i0; i <= i1; ++i) {
    const uint64_t x0 = sx.At(i), x1 = x0 + sx.len;
    uint64_t lo = 0, hi = 0;
    if (!BurstsMeeting(sy, x0, x1, &lo, &hi)) continue;
    for (uint64_t j = lo; j <= hi; ++j) {
      const uint64_t y0 = sy.At(j), y1 = y0 + sy.len;
      if (x0 == y0 && x1 == y1 && BurstHash(blocks, a, i) == BurstHash(blocks, r, j)) continue;
      *b = std::max(x0, y0);
      *e = std::min(x1, y1);
      return true;
    }
  }
  return false;
}

// The cross-block check: a sweep over every block's GM spans in address order, each span
// checked against the earlier spans it overlaps (writes against reads and writes).
void CheckCrossBlock(std::vector<BlockSummary>& blocks) {
  std::vector<SpanRef> all;
  for (size_t i = 0; i < blocks.size(); ++i) {
    for (const GmSpan& g : blocks[i].spans) all.push_back({&g, i});
  }
  std::sort(all.begin(), all.end(),
            [](const SpanRef& a, const SpanRef& b) { return a.span->begin < b.span->begin; });
  std::vector<SpanRef> active_writes, active_reads;
  SeenPairs seen;
  for (const SpanRef& r : all) {
    auto expire = [&](std::vector<SpanRef>& v) {
      v.erase(std::remove_if(v.begin(), v.end(),
                             [&](const SpanRef& a) { return a.span->end <= r.span->begin; }),
              v.end());
    };
    expire(active_writes);
    expire(active_reads);
    uintptr_t b = 0, e = 0;
    for (const SpanRef& w : active_writes) {
      if (Conflicts(blocks, w, r, &b, &e)) ReportCrossBlock(blocks, w, r, b, e, seen);
    }
    if (r.span->write) {
      for (const SpanRef& rd : active_reads) {
        if (Conflicts(blocks, rd, r, &b, &e)) ReportCrossBlock(blocks, rd, r, b, e, seen);
      }
      active_writes.push_back(r);
    } else {
      active_reads.push_back(r);
    }
  }
}

// One failure for a block with findings (check: the first tool in racecheck, initcheck,
// synccheck order that has one), unless the block failed for another reason already.
void AppendFailure(const BlockSummary& b, std::vector<BlockFailure>* failures) {
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
  if (it != failures->end()) return;  // the block failed for another reason already
  failures->push_back({b.block, check, message,
                       std::make_exception_ptr(KernelCheckError(b.block, check, message))});
}

}  // namespace

void LaunchSanitizer::Finish(std::vector<BlockFailure>* failures) {
  std::sort(blocks_.begin(), blocks_.end(),
            [](const BlockSummary& a, const BlockSummary& b) { return a.block < b.block; });
  if ((tools_ & kRacecheck) != 0 && blocks_.size() > 1) {
    ResolveLateAcquires();
    CheckCrossBlock(blocks_);
  }
  // Each warning once, with the first block that has it and how many more do.
  std::vector<std::pair<const Finding*, std::pair<int64_t, size_t>>> warnings;
  std::map<std::string, size_t> warning_index;
  for (const BlockSummary& b : blocks_) {
    for (const Finding& w : b.warnings) {
      auto [it, fresh] = warning_index.try_emplace(w.text, warnings.size());
      if (fresh) {
        warnings.push_back({&w, {b.block, 0}});
      } else {
        ++warnings[it->second].second.second;
      }
    }
    if (!b.findings.empty()) AppendFailure(b, failures);
  }
  for (const auto& [w, where] : warnings) {
    const std::string more =
        where.second == 0 ? "" : " (and " + std::to_string(where.second) + " more block(s))";
    std::fprintf(stderr, "lngrad: block %lld%s: [racecheck warning] %s\n",
                 static_cast<long long>(where.first), more.c_str(), w->text.c_str());
  }
}

}  // namespace lngrad::aicore::san
