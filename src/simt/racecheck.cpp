// Layer simt: the race checker between the threads of a block (racecheck.h).
#include "racecheck.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
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

bool RaceChecker::Watched(uintptr_t addr) const {
  return (addr >= ub_begin_ && addr < ub_end_) ||
         aicore::detail::IsLiveGm(reinterpret_cast<const void*>(addr));
}

RaceChecker::Cell& RaceChecker::CellAt(uintptr_t addr) {
  std::unique_ptr<Page>& page = pages_[addr / kPageBytes];
  if (!page) page = std::make_unique<Page>();
  return (*page)[addr % kPageBytes];
}

void RaceChecker::Access(uint32_t tid, uintptr_t addr, size_t bytes, bool write, const void* pc) {
  if (!Watched(addr)) return;
  const uint32_t now = Clock(tid)[tid];
  for (size_t i = 0; i < bytes; ++i) {
    Cell& c = CellAt(addr + i);
    if (!write && c.unwritten && init_) {
      Report("uninitialised read", tid, pc, kNone, nullptr, addr + i);
      c.unwritten = false;  // once per byte
    }
    if (races_ && !Ordered(c.w_tid, c.w_clock, tid)) {
      Report(write ? "write-write" : "write-read", c.w_tid, c.w_pc, tid, pc, addr + i);
    }
    if (write) {
      OnWrite(c, tid, now, pc, addr + i);
    } else {
      OnRead(c, tid, now, pc);
    }
  }
}

// A read replaces the last one when that one is ordered before it (every later write ordered
// after this read is then ordered after both); concurrent reads are kept as a set.
void RaceChecker::OnRead(Cell& c, uint32_t tid, uint32_t now, const void* pc) {
  if (c.readers != kNone) {
    std::vector<Read>& set = reads_[c.readers];
    for (Read& r : set) {
      if (r.tid == tid) {
        r.clock = now;
        r.pc = pc;
        return;
      }
    }
    set.push_back({tid, now, pc});
    return;
  }
  if (c.r_tid == kNone || Ordered(c.r_tid, c.r_clock, tid)) {
    c.r_tid = tid;
    c.r_clock = now;
    c.r_pc = pc;
    return;
  }
  c.readers = static_cast<uint32_t>(reads_.size());
  reads_.push_back({{c.r_tid, c.r_clock, c.r_pc}, {tid, now, pc}});
}

void RaceChecker::OnWrite(Cell& c, uint32_t tid, uint32_t now, const void* pc, uintptr_t addr) {
  if (races_) {
    if (c.readers != kNone) {
      for (const Read& r : reads_[c.readers]) {
        if (!Ordered(r.tid, r.clock, tid)) Report("read-write", r.tid, r.pc, tid, pc, addr);
      }
    } else if (!Ordered(c.r_tid, c.r_clock, tid)) {
      Report("read-write", c.r_tid, c.r_pc, tid, pc, addr);
    }
  }
  c.w_tid = tid;
  c.w_clock = now;
  c.w_pc = pc;
  c.r_tid = kNone;
  c.readers = kNone;
  c.unwritten = false;
}

void RaceChecker::VolatileAccess(uint32_t tid, uintptr_t addr, size_t bytes, bool write,
                                 const void* pc) {
  if (!Watched(addr)) return;
  uint32_t* mine = Clock(tid);
  for (size_t i = 0; i < bytes; ++i) {
    Cell& c = CellAt(addr + i);
    if (!write && c.unwritten && init_) {
      Report("uninitialised read", tid, pc, kNone, nullptr, addr + i);
      c.unwritten = false;
    }
    if (write) {
      c.w_tid = tid;
      c.w_clock = mine[tid];
      c.w_pc = pc;
      c.r_tid = kNone;
      c.readers = kNone;
      c.unwritten = false;
      continue;
    }
    if (c.w_tid == kNone || c.w_tid == tid) continue;
    const auto published = fenced_.find(c.w_tid);
    if (published == fenced_.end()) continue;
    for (uint32_t t = 0; t < threads_; ++t) mine[t] = std::max(mine[t], published->second[t]);
  }
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
  Cell& c = CellAt(addr);
  c.unwritten = false;
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
  const auto base = reinterpret_cast<uintptr_t>(p);
  for (size_t i = 0; i < bytes; ++i) {
    Cell& c = CellAt(base + i);
    if (c.w_tid == kNone) c.unwritten = true;
  }
}

void RaceChecker::Report(const std::string& kind, uint32_t a, const void* pc_a, uint32_t b,
                         const void* pc_b, uintptr_t addr) {
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

void RaceChecker::RaiseFindings() const {
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
