// The sanitizer's check of one access (lngrad_aicore/sanitizer.h; the model is described at the
// top of sanitizer.cpp): racecheck against the shadow state of the bytes, initcheck of UB and of
// device memory, and the wording of each finding with its fix.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

#include "lngrad_aicore/atomic.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/local_memory.h"
#include "lngrad_aicore/tensor.h"
#include "sanitizer_state.h"

namespace lngrad::aicore::san {

bool EventPipes(AscendC::HardEvent e, Pipe* src, Pipe* dst) {
  namespace ds = AscendC::detail_sync;
  if (e == AscendC::HardEvent::MAX) return false;
  for (int s = 0; s < kPipeCount; ++s) {
    for (int d = 0; d < kPipeCount; ++d) {
      if (ds::EventBetween(ds::kModelledPipes[s], ds::kModelledPipes[d]) == e) {
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

void BlockState::Report(uint32_t tool, int kind, uint32_t a, uint32_t b, const std::string& text) {
  const auto key = std::make_tuple(kind, a, b, static_cast<int>(tool));
  if (finding_index.count(key) != 0) return;
  if (findings.size() >= kMaxFindingsPerBlock) {
    ++dropped;
    return;
  }
  finding_index.emplace(key, findings.size());
  findings.push_back({tool, text});
}

bool BlockState::Ordered(Pipe earlier, const Stamp& e, Pipe later, bool later_auto) const {
  if (e.epoch == 0) return true;
  if (earlier == later) {
    if (earlier == Pipe::kS) return true;
    if (earlier == Pipe::kV && (vv_hardware || auto_sync)) return true;
    // The cube runs its Mmads in order: one accumulates onto the L0C another wrote.
    if (earlier == Pipe::kM) return true;
    // FIX too: the vendor's own Fixpipe fills the Fixpipe Buffer (L1 -> FB) and converts from it
    // with no barrier between the two.
    if (earlier == Pipe::kFix) return true;
  } else if (auto_sync &&
             ((earlier == Pipe::kS && e.auto_synced) || (later == Pipe::kS && later_auto))) {
    return true;
  }
  const int l = PipeIndex(later), q = PipeIndex(earlier);
  return known[l][q] >= e.epoch;
}

std::string BlockState::Fix(Pipe a, uint32_t site_a, Pipe b, uint32_t site_b, bool war) const {
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

namespace {
// Bytes outside the UB that lie in one of the running block's other memories (the cube's L1, L0A,
// L0B, BiasTable, L0C): that memory's name, and b and e as its addresses.
// Whether [p, p + 1) lies in one of the running block's own memories besides the UB (the
// cube's L0A, L0B, BiasTable, L0C, and L1 unless its AI core's cores share it): no other block
// reaches them, so they take no part in the cross-block check (another block's memory may later
// sit at the same host address).
bool InPrivateMemory(const std::byte* p) {
  using P = AscendC::TPosition;
  BlockContext* ctx = CurrentBlockContext();
  // No layer above made memories for the block yet (FindMemory would make them).
  if (ctx == nullptr || ctx->upper_state == nullptr) return false;
  const bool shared_l1 = ctx->split.aic > 0 && ctx->split.aiv > 0;
  for (const P pos : {P::A1, P::A2, P::B2, P::C2, P::CO1, P::C2PIPE2GM}) {
    LocalMemory m;
    if ((pos != P::A1 || !shared_l1) && FindMemory(*ctx, pos, &m) && p >= m.base &&
        p < m.base + m.size) {
      return true;
    }
  }
  return false;
}

const char* LocalMemoryName(uint64_t* b, uint64_t* e) {
  using P = AscendC::TPosition;
  BlockContext* ctx = CurrentBlockContext();
  if (ctx == nullptr) return nullptr;
  for (const P pos : {P::A1, P::A2, P::B2, P::C2, P::CO1, P::C2PIPE2GM}) {
    LocalMemory m;
    if (FindMemory(*ctx, pos, &m) && *b >= reinterpret_cast<uintptr_t>(m.base) &&
        *b < reinterpret_cast<uintptr_t>(m.base) + m.size) {
      *b -= reinterpret_cast<uintptr_t>(m.base);
      *e -= reinterpret_cast<uintptr_t>(m.base);
      return m.name;
    }
  }
  return nullptr;
}
}  // namespace

std::string BlockState::RaceText(const char* space, uint64_t b, uint64_t e, const char* what,
                                 Pipe pa, uint32_t sa, Pipe pb, uint32_t sb, bool war) const {
  std::ostringstream os;
  if (std::strcmp(space, "GM") == 0) {
    if (const char* name = LocalMemoryName(&b, &e)) space = name;
  }
  os << what << " hazard on " << space << " bytes [" << b << ", " << e << "): " << SiteText(sa)
     << (war ? " reads them, then " : " writes them, then ") << SiteText(sb)
     << (std::strcmp(what, "write-after-write") == 0 || war ? " writes them" : " reads them")
     << ", and nothing orders the two; " << Fix(pa, sa, pb, sb, war);
  return os.str();
}

void BlockState::Race(const char* space, uint64_t b, uint64_t e, const char* what, Pipe pa,
                      uint32_t sa, Pipe pb, uint32_t sb, bool war) {
  // An in-place instruction both reads and overwrites what the other wrote: one finding.
  const int kind = war ? 2 : 0;
  Report(kRacecheck, kind, sa, sb, RaceText(space, b, e, what, pa, sa, pb, sb, war));
}

uint32_t BlockState::WriteOnlyRace(const char* space, uint64_t b, uint64_t e, Pipe pa, uint32_t sa,
                                   Pipe pb, uint32_t sb) {
  auto [it, fresh] = pending_index.try_emplace({sa, sb}, static_cast<uint32_t>(pending_waw.size()));
  if (fresh) {
    pending_waw.push_back(
        {sa, sb, RaceText(space, b, e, "write-after-write", pa, sa, pb, sb, false), false});
  }
  return it->second;
}

void BlockState::PromoteWriteOnly(uint32_t index) {
  PendingWaw& w = pending_waw[index];
  if (w.promoted) return;
  w.promoted = true;
  Report(kRacecheck, 0, w.site_a, w.site_b, w.text);
}

void BlockState::RecordGmSpan(uint32_t site, const std::byte* p, const Strided& s, bool write,
                              bool hashed, uint8_t atomic, WrittenBytes written) {
  if (InPrivateMemory(p)) return;
  const auto clock_id = static_cast<uint32_t>(clocks.size() - 1);
  // The fingerprints read the bytes written from their source when it is known: GM itself may
  // already hold another block's bytes (a concurrent copy into the same range).
  const std::byte* hp = written.p != nullptr ? written.p : p;
  const uint64_t hpitch = written.p != nullptr ? written.pitch : s.pitch;
  if (s.count > 1) {
    // One span for the strided copy, with each burst's fingerprint (as the bursts' own spans
    // would have had).
    const auto first = static_cast<uint32_t>(gm_hashes.size());
    uint64_t whole = 0;
    if (hashed) {
      for (uint64_t i = 0; i < s.count; ++i) {
        gm_hashes.push_back(Fingerprint(kFingerprintSeed, hp + i * hpitch, s.len));
        whole = whole * 0x100000001b3ull ^ gm_hashes.back();
      }
    }
    gm_spans.push_back({s.begin, s.End(), s.len, s.pitch, s.count, site, phase, write, hashed,
                        whole, first, atomic, xepoch, clock_id});
    return;
  }
  if (!gm_spans.empty() && gm_spans.back().count == 1 && gm_spans.back().site == site &&
      gm_spans.back().write == write && gm_spans.back().phase == phase &&
      gm_spans.back().end == s.begin && gm_spans.back().hashed == hashed &&
      gm_spans.back().atomic == atomic && gm_spans.back().xepoch == xepoch &&
      gm_spans.back().clock == clock_id) {
    GmSpan& last = gm_spans.back();
    last.end = s.End();
    last.len = last.end - last.begin;
    if (hashed) last.hash = Fingerprint(last.hash, hp, s.len);
  } else {
    gm_spans.push_back({s.begin, s.End(), s.len, s.len, 1, site, phase, write, hashed,
                        hashed ? Fingerprint(kFingerprintSeed, hp, s.len) : 0, 0, atomic, xepoch,
                        clock_id});
  }
}

void BlockState::GmInitcheck(uint32_t site, const std::byte* p, const Strided& s, uint8_t kind) {
  if (kind == 1) {
    if (s.count == 1) return GmMarkWritten(p, s.len);
    return GmMarkWritten(s);
  }
  uintptr_t ub0 = 0, ue0 = 0;
  uint64_t burst = 0;
  if (kind != 0 || !FirstUninit(s, &ub0, &ue0, &burst)) return;
  // Bytes counted from the burst's start, as a copy of that burst alone would report them.
  const uintptr_t begin = s.At(burst);
  Report(kInitcheck, 3, site, site,
         "read of device memory no one wrote: " + SiteText(site) + " reads GM bytes [" +
             std::to_string(ub0 - begin) + ", " + std::to_string(ue0 - begin) +
             ") of its range (address 0x" + Hex(ub0) +
             "), which came from aclrtMalloc and no aclrtMemcpy, aclrtMemset or kernel has "
             "written (device memory is not zeroed)");
}

void ForeignUbWrite(uint64_t ub_offset, uint64_t bytes) {
  BlockState* s = Active();
  if (s == nullptr) return;
  s->ub_shadow.Visit(ub_offset, ub_offset + bytes, [](uint64_t, uint64_t, Cell& c) {
    c = Cell{};
    c.written = true;
  });
}

void BlockState::CarryUnwritten(const std::byte* gm, uint64_t bytes, uint64_t ub_offset) {
  const auto b = reinterpret_cast<uintptr_t>(gm);
  for (const auto& [ub0, ue0] : UninitIn(b, b + bytes)) {
    ub_shadow.Visit(ub_offset + (ub0 - b), ub_offset + (ue0 - b), [](uint64_t, uint64_t, Cell& c) {
      c.written = false;
      c.from_unwritten_gm = true;
      c.left_by = 0;
    });
  }
}

void BlockState::ReportUnmodelled(uint32_t site, uint32_t left, uint64_t b, uint64_t e) {
  const Site& api = sites[left];
  Report(kInitcheck, 5, site, left,
         "read of scratch " + std::string(api.api) + " left: " + SiteText(site) +
             " reads UB bytes [" + std::to_string(b) + ", " + std::to_string(e) + ") that " +
             api.api + " at " + Where(api.loc) +
             " left in its scratch (sharedTmpBuffer or the stack buffer): their contents after "
             "the call are the device's intermediates, which lngrad does not model (the "
             "simulator leaves the bytes as they were); write them before reading");
}

void BlockState::Access(Pipe pipe, uint32_t site, bool auto_synced, const void* p, uint64_t bytes,
                        uint8_t kind, uint64_t count, uint64_t pitch, WrittenBytes written) {
  if (bytes == 0 || count == 0) return;
  const auto* bp = static_cast<const std::byte*>(p);
  const bool in_ub = bp >= ub && bp < ub + ub_size;
  const uint64_t begin = in_ub ? static_cast<uint64_t>(bp - ub) : reinterpret_cast<uintptr_t>(p);
  const Strided shape{begin, bytes, count > 1 ? pitch : bytes, count};
  const char* space = in_ub ? "UB" : "GM";
  const bool write = kind != 0;
  const Stamp now{epoch[PipeIndex(pipe)], site, auto_synced};
  uint8_t atomic = 0;
  // Fixpipe's L0C -> GM writes take the DMA atomic mode too (the Matmul's enAtomic).
  if (!in_ub && write && (pipe == Pipe::kMte3 || pipe == Pipe::kFix)) {
    const detail::DmaAtomic a = detail::CurrentDmaAtomic();
    if (a.type != detail::AtomicType::kOff) {
      atomic = static_cast<uint8_t>(1 + static_cast<int>(a.type) * 4 + static_cast<int>(a.op));
    }
  }
  // The block's own memories (UB, and the cube's unless shared): nothing outside it reads them.
  const bool own = in_ub || InPrivateMemory(bp);
  if (!own) {
    // Committed after the copy (Instr's destructor), so GM holds what the copy wrote.
    RecordGmSpan(site, bp, shape, write, kind == 1 && pipe == Pipe::kMte3 && atomic == 0, atomic,
                 written);
    const bool carried = kind == 0 && carry_gm_unwritten;
    if ((tools & kInitcheck) != 0 && GmHasUninitialised() && !carried) {
      GmInitcheck(site, bp, shape, kind);
    }
  }
  const bool race = (tools & kRacecheck) != 0;
  const bool init = (tools & kInitcheck) != 0 && in_ub;
  const auto update = [&](uint64_t sb, uint64_t se, Cell& c) {
    if (!write) {
      if (init && !c.written && c.left_by != 0) {
        ReportUnmodelled(site, c.left_by - 1, sb, se);
      } else if (init && !c.written) {
        const char* why = c.from_unwritten_gm
                              ? "that a copy brought in from device memory no one wrote (it came "
                                "from aclrtMalloc and no aclrtMemcpy, aclrtMemset or kernel has "
                                "written it; device memory is not zeroed)"
                              : "that no instruction of this block has written (on the device UB "
                                "holds whatever the previous kernel left there); copy data in or "
                                "initialise it (e.g. Duplicate) first";
        Report(kInitcheck, 4, site, site,
               "read of uninitialised UB: " + SiteText(site) + " reads UB bytes [" +
                   std::to_string(sb) + ", " + std::to_string(se) + ") " + why);
      }
      if (race && !Ordered(c.write_pipe, c.write, pipe, auto_synced)) {
        Race(space, sb, se, "read-after-write", c.write_pipe, c.write.site, pipe, site, false);
      }
      // The read sees one of two racing writes: the write-only race was not harmless.
      if (c.waw != 0) PromoteWriteOnly(c.waw - 1);
      c.reads[PipeIndex(pipe)] = now;
      return;
    }
    uint32_t waw = 0;
    if (race) {
      // Two atomic copies with the same operation combine in either order.
      const bool combine = atomic != 0 && c.write_atomic == atomic;
      if (!combine && !Ordered(c.write_pipe, c.write, pipe, auto_synced)) {
        const bool unread = std::all_of(c.reads.begin(), c.reads.end(),
                                        [](const Stamp& r) { return r.epoch == 0; });
        if (own && unread) {
          // Nothing read the first write: the race matters only if the bytes are read later.
          waw = 1 + WriteOnlyRace(space, sb, se, c.write_pipe, c.write.site, pipe, site);
        } else {
          Race(space, sb, se, "write-after-write", c.write_pipe, c.write.site, pipe, site, false);
        }
      }
      for (int q = 0; q < kPipeCount; ++q) {
        const Pipe qp = static_cast<Pipe>(q);
        if (qp == pipe) continue;
        if (!Ordered(qp, c.reads[q], pipe, auto_synced)) {
          Race(space, sb, se, "write-after-read", qp, c.reads[q].site, pipe, site, true);
        }
      }
    }
    c.written = kind == 3 ? false : c.written || kind == 1;
    if (kind == 1 || kind == 3) c.from_unwritten_gm = false;
    if (kind != 2) c.left_by = kind == 3 && init ? site + 1 : 0;
    c.write_pipe = pipe;
    c.write_atomic = atomic;
    c.write = now;
    c.reads.fill(Stamp{});
    c.waw = waw;
  };
  if (!in_ub) return gm_shadow.Visit(shape, update);
  for (uint64_t i = 0; i < count; ++i) ub_shadow.Visit(shape.At(i), shape.At(i) + bytes, update);
}

bool BlockState::CheckId(const char* api, AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
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

}  // namespace lngrad::aicore::san
