// Layer simt: the race checker between the threads of a block (racecheck.h).
#include "racecheck.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/gm.h"
#include "state.h"

namespace lngrad::simt::detail {

thread_local RaceChecker* t_race = nullptr;
thread_local bool t_in_checker = false;

namespace {

bool g_instrumented = false;

// The shadow memory of every checker in the process, and its budget: half the host's memory, or
// LNGRAD_RACECHECK_SHADOW_MIB (GM pages past it go unchecked, with a warning; UB pages are always
// made).
std::atomic<size_t> g_shadow_bytes{0};
size_t ShadowBudget() {
  if (const char* mib = std::getenv("LNGRAD_RACECHECK_SHADOW_MIB");
      mib != nullptr && *mib != '\0') {
    return static_cast<size_t>(std::strtoull(mib, nullptr, 10)) << 20;
  }
  static const size_t half_memory = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(size) / 2
                                 : size_t{4} << 30;
  }();
  return half_memory;
}

constexpr size_t kMaxFindings = 16;

// "file:line (function)" of a code address from addr2line, or the module and offset.
std::string CodeText(const void* pc) {
  if (pc == nullptr) return "?";
  Dl_info info{};
  if (dladdr(pc, &info) == 0 || info.dli_fname == nullptr) return "?";
  // The return address is the instruction after the call: step back into the call.
  const uintptr_t offset =
      reinterpret_cast<uintptr_t>(pc) - reinterpret_cast<uintptr_t>(info.dli_fbase) - 1;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%zx", static_cast<size_t>(offset));
  const std::string command =
      std::string("addr2line -C -f -i -e '") + info.dli_fname + "' " + hex + " 2>/dev/null";
  std::string out;
  if (FILE* f = popen(command.c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, f) != nullptr) out += buf;
    pclose(f);
  }
  // Pairs of lines (function, file:line) from the innermost inlined frame outwards: the first
  // frame outside the system's headers is the kernel's line.
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl = out.find('\n'); nl != std::string::npos; nl = out.find('\n', start)) {
    lines.push_back(out.substr(start, nl - start));
    start = nl + 1;
  }
  for (size_t i = 0; i + 1 < lines.size(); i += 2) {
    std::string where = lines[i + 1];
    const size_t cut = where.find(" (discriminator");
    if (cut != std::string::npos) where.resize(cut);
    if (where.rfind("??", 0) == 0 || where.rfind("/usr/", 0) == 0) continue;
    return where + " (" + lines[i] + ")";
  }
  return lines.size() >= 2 ? lines[1] + " (" + lines[0] + ")"
                           : std::string(info.dli_fname) + "+" + hex;
}

}  // namespace

bool InstrumentedCodeLoaded() noexcept {
  return __atomic_load_n(&g_instrumented, __ATOMIC_RELAXED);
}
void MarkInstrumentedCodeLoaded() noexcept {
  __atomic_store_n(&g_instrumented, true, __ATOMIC_RELAXED);
}

RaceChecker::RaceChecker(const BlockInfo& block, bool races, bool init)
    : block_(block),
      threads_(block.threads),
      races_(races),
      init_(init),
      clocks_(size_t{block.threads} * block.threads, 0) {
  for (uint32_t t = 0; t < threads_; ++t) Clock(t)[t] = 1;
  if (const aicore::BlockContext* ctx = aicore::CurrentBlockContext()) {
    ub_begin_ = reinterpret_cast<uintptr_t>(ctx->ub);
    ub_end_ = ub_begin_ + ctx->ub_size;
  }
}

RaceChecker::~RaceChecker() { g_shadow_bytes.fetch_sub(shadow_bytes_, std::memory_order_relaxed); }

bool RaceChecker::Watched(uintptr_t addr) const {
  return InUb(addr) || aicore::detail::IsLiveGm(reinterpret_cast<const void*>(addr));
}

RaceChecker::Page* RaceChecker::PageAt(uintptr_t addr, bool gm) {
  const uintptr_t key = addr / kPageBytes;
  if (key == last_page_key_) return last_page_;
  std::unique_ptr<Page>& page = pages_[key];
  if (!page) {
    // UB pages always (at most 64 a block); GM pages while the process's shadow fits its budget.
    if (gm && g_shadow_bytes.load(std::memory_order_relaxed) + sizeof(Page) > ShadowBudget()) {
      pages_.erase(key);
      return nullptr;
    }
    page = std::make_unique<Page>();
    shadow_bytes_ += sizeof(Page);
    g_shadow_bytes.fetch_add(sizeof(Page), std::memory_order_relaxed);
  }
  last_page_key_ = key;
  last_page_ = page.get();
  return last_page_;
}

template <typename F>
void RaceChecker::ForCells(uintptr_t addr, size_t bytes, F&& f) {
  const uintptr_t end = addr + bytes;
  const bool gm = !InUb(addr);
  for (uintptr_t g = addr & ~uintptr_t{kGranule - 1}; g < end; g += kGranule) {
    const uintptr_t lo = std::max(g, addr), hi = std::min(g + kGranule, end);
    Page* page = PageAt(g, gm);
    if (page == nullptr) {
      unchecked_bytes_ += hi - lo;
      continue;
    }
    const size_t i = g % kPageBytes / kGranule;
    uint32_t& split = page->split[i];
    if (split == kNone && lo == g && hi == g + kGranule) {
      f(page->cells[i], lo);
      continue;
    }
    if (split == kNone) {  // the granule's bytes part ways: one cell each from now on
      split = static_cast<uint32_t>(splits_.size());
      splits_.push_back({page->cells[i], page->cells[i], page->cells[i], page->cells[i]});
      shadow_bytes_ += sizeof(splits_.back());
      g_shadow_bytes.fetch_add(sizeof(splits_.back()), std::memory_order_relaxed);
    }
    for (uintptr_t b = lo; b < hi; ++b) f(splits_[split][b - g], b);
  }
}

uint32_t RaceChecker::SiteOf(const void* pc) {
  auto& slot = site_cache_[(reinterpret_cast<uintptr_t>(pc) >> 2) % site_cache_.size()];
  if (slot.first == pc && pc != nullptr) return slot.second;
  if (pc == nullptr) return 0;
  const auto [it, added] = site_ids_.try_emplace(pc, static_cast<uint32_t>(sites_.size()));
  if (added) sites_.push_back(pc);
  slot = {pc, it->second};
  return it->second;
}

void RaceChecker::Access(uint32_t tid, uintptr_t addr, size_t bytes, bool write, const void* pc) {
  if (!Watched(addr)) return;
  const uint32_t now = Clock(tid)[tid];
  const uint32_t site = SiteOf(pc);
  ForCells(addr, bytes, [&](Cell& c, uintptr_t at) { OnByte(c, tid, now, site, write, at); });
}

void RaceChecker::OnByte(Cell& c, uint32_t tid, uint32_t now, uint32_t site, bool write,
                         uintptr_t addr) {
  if (!write && c.w_tid == kUnwritten) {
    if (init_) Report("uninitialised read", tid, site, kNone, 0, addr);
    c.w_tid = kNoThread;  // once per byte
  }
  if (races_ && !Ordered(c.w_tid, c.w_clock, tid)) {
    Report(write ? "write-write" : "write-read", c.w_tid, c.w_site, tid, site, addr);
  }
  if (write) {
    OnWrite(c, tid, now, site, addr);
  } else {
    OnRead(c, tid, now, site);
  }
}

// A read replaces the last one when that one is ordered before it (every later write ordered
// after this read is then ordered after both); concurrent reads are kept as a set.
void RaceChecker::OnRead(Cell& c, uint32_t tid, uint32_t now, uint32_t site) {
  if (c.readers != kNone) {
    std::vector<Read>& set = reads_[c.readers];
    for (Read& r : set) {
      if (r.tid == tid) {
        r.clock = now;
        r.site = site;
        return;
      }
    }
    set.push_back({tid, now, site});
    return;
  }
  if (c.r_tid == kNoThread || Ordered(c.r_tid, c.r_clock, tid)) {
    c.r_tid = static_cast<uint16_t>(tid);
    c.r_clock = now;
    c.r_site = site;
    return;
  }
  c.readers = static_cast<uint32_t>(reads_.size());
  reads_.push_back({{c.r_tid, c.r_clock, c.r_site}, {tid, now, site}});
}

void RaceChecker::OnWrite(Cell& c, uint32_t tid, uint32_t now, uint32_t site, uintptr_t addr) {
  if (races_) {
    if (c.readers != kNone) {
      for (const Read& r : reads_[c.readers]) {
        if (!Ordered(r.tid, r.clock, tid)) Report("read-write", r.tid, r.site, tid, site, addr);
      }
    } else if (!Ordered(c.r_tid, c.r_clock, tid)) {
      Report("read-write", c.r_tid, c.r_site, tid, site, addr);
    }
  }
  c.w_tid = static_cast<uint16_t>(tid);
  c.w_clock = now;
  c.w_site = site;
  c.r_tid = kNoThread;
  c.readers = kNone;
}

void RaceChecker::VolatileAccess(uint32_t tid, uintptr_t addr, size_t bytes, bool write,
                                 const void* pc) {
  if (!Watched(addr)) return;
  uint32_t* mine = Clock(tid);
  const uint32_t site = SiteOf(pc);
  ForCells(addr, bytes, [&](Cell& c, uintptr_t at) {
    if (!write && c.w_tid == kUnwritten) {
      if (init_) Report("uninitialised read", tid, site, kNone, 0, at);
      c.w_tid = kNoThread;
    }
    if (write) {
      c.w_tid = static_cast<uint16_t>(tid);
      c.w_clock = mine[tid];
      c.w_site = site;
      c.r_tid = kNoThread;
      c.readers = kNone;
      return;
    }
    if (c.w_tid >= kUnwritten || c.w_tid == tid) return;
    const auto published = fenced_.find(c.w_tid);
    if (published == fenced_.end()) return;
    for (uint32_t t = 0; t < threads_; ++t) mine[t] = std::max(mine[t], published->second[t]);
  });
}

void RaceChecker::Fence(uint32_t tid) {
  uint32_t* mine = Clock(tid);
  fenced_[tid].assign(mine, mine + threads_);
  ++mine[tid];
}

void RaceChecker::Atomic(uint32_t tid, uintptr_t addr) {
  if (!Watched(addr)) return;
  std::vector<uint32_t>& sync = sync_[addr & ~uintptr_t{7}];
  if (sync.empty()) sync.assign(threads_, 0);
  uint32_t* mine = Clock(tid);
  for (uint32_t t = 0; t < threads_; ++t) {
    mine[t] = std::max(mine[t], sync[t]);  // acquire
    sync[t] = mine[t];                     // release
  }
  ++mine[tid];
  // The atomic's own bytes are no plain accesses: they stop counting as unwritten.
  ForCells(addr, 1, [](Cell& c, uintptr_t) {
    if (c.w_tid == kUnwritten) c.w_tid = kNoThread;
  });
}

void RaceChecker::Barrier() { Join(0, 0); }

// mask 0: every thread; else the threads first + i for the bits i of mask.
void RaceChecker::Join(uint32_t first, uint32_t mask) {
  std::vector<uint32_t> all(threads_, 0);
  auto member = [&](uint32_t t) {
    return mask == 0 || (t >= first && t < first + 32 && ((mask >> (t - first)) & 1u) != 0);
  };
  for (uint32_t t = 0; t < threads_; ++t) {
    if (!member(t)) continue;
    const uint32_t* c = Clock(t);
    for (uint32_t u = 0; u < threads_; ++u) all[u] = std::max(all[u], c[u]);
  }
  for (uint32_t t = 0; t < threads_; ++t) {
    if (!member(t)) continue;
    std::copy(all.begin(), all.end(), Clock(t));
    ++Clock(t)[t];
  }
}

void RaceChecker::MarkUnwritten(const void* p, size_t bytes) {
  if (!init_) return;
  ForCells(reinterpret_cast<uintptr_t>(p), bytes, [](Cell& c, uintptr_t) {
    if (c.w_tid == kNoThread) c.w_tid = kUnwritten;
  });
}

void RaceChecker::Report(const std::string& kind, uint32_t a, uint32_t site_a, uint32_t b,
                         uint32_t site_b, uintptr_t addr) {
  const void* pc_a = sites_[site_a];
  const void* pc_b = sites_[site_b];
  for (const Finding& f : findings_) {
    if (f.kind == kind && f.pc_a == pc_a && f.pc_b == pc_b) return;
  }
  if (findings_.size() >= kMaxFindings) {
    ++dropped_;
    return;
  }
  findings_.push_back({kind, a, b, pc_a, pc_b, addr});
}

std::string RaceChecker::ThreadText(uint32_t tid) const {
  const dim3 d = block_.block_dim;
  return "thread (" + std::to_string(tid % d.x) + "," + std::to_string(tid / d.x % d.y) + "," +
         std::to_string(tid / (d.x * d.y)) + ")";
}

void RaceChecker::WarnUnchecked() const {
  if (unchecked_bytes_ == 0) return;
  std::fprintf(
      stderr,
      "lngrad racecheck: block (%u,%u,%u): the race checker's shadow memory reached its "
      "budget (%zu MiB: half the host's memory, or LNGRAD_RACECHECK_SHADOW_MIB); %llu bytes "
      "of GM accessed after that were not checked\n",
      block_.block_idx.x, block_.block_idx.y, block_.block_idx.z, ShadowBudget() >> 20,
      static_cast<unsigned long long>(unchecked_bytes_));
}

void RaceChecker::RaiseFindings() const {
  WarnUnchecked();
  if (findings_.empty()) return;
  std::string races;
  std::string uninit;
  const std::string block = "block (" + std::to_string(block_.block_idx.x) + "," +
                            std::to_string(block_.block_idx.y) + "," +
                            std::to_string(block_.block_idx.z) + ")";
  for (const Finding& f : findings_) {
    char where[64];
    std::snprintf(where, sizeof where, "0x%zx", static_cast<size_t>(f.addr));
    if (f.kind == "uninitialised read") {
      uninit += "\n  " + block + " " + ThreadText(f.tid_a) + " reads __ubuf__ byte " + where +
                " that no thread wrote, at " + CodeText(f.pc_a);
      continue;
    }
    const bool second_writes = f.kind != "write-read";
    races += "\n  " + f.kind + " race on byte " + where + " in " + block + ": " +
             ThreadText(f.tid_a) + (f.kind == "read-write" ? " reads" : " writes") + " at " +
             CodeText(f.pc_a) + ", " + ThreadText(f.tid_b) +
             (second_writes ? " writes" : " reads") + " at " + CodeText(f.pc_b) +
             ", with no asc_syncthreads, warp function or atomic between them";
  }
  const std::string more =
      dropped_ > 0 ? "\n  ... and " + std::to_string(dropped_) + " more" : std::string();
  if (!races.empty()) {
    aicore::RaiseKernelCheck(aicore::checks::kRacecheck,
                             "SIMT threads race" + races + uninit + more);
  }
  aicore::RaiseKernelCheck(aicore::checks::kInitcheck,
                           "SIMT threads read uninitialised UB" + uninit + more);
}

}  // namespace lngrad::simt::detail
