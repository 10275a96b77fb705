// The pipeline sanitizer (lngrad_aicore/sanitizer.h, docs/ascendc_compat.md "The pipeline
// sanitizer").
//
// Model. Each pipe P of a block has an epoch counter; an access is stamped with its pipe's
// current epoch. known[P][Q] is the highest epoch of pipe Q whose accesses are complete before
// P's next access starts (a vector clock). SetFlag<A_B> snapshots A's knowledge plus A's own
// current epoch and starts a new epoch of A; WaitFlag<A_B> joins the snapshot into B's
// knowledge; PipeBarrier<P> completes P's own epochs; PIPE_ALL completes everything. The TQue
// framework's EnQue/DeQue and FreeTensor/AllocTensor are such flags, one per queue buffer (on
// 3510 gets and releases of the buffer's hardware ID: a get joins the last release's snapshot
// when another pipe made it); like every flag they order the whole pipe, not one buffer.
// Two accesses to the same bytes, one a write, are ordered when the later pipe knows the
// earlier epoch, or when both are on S, or both on V with the compiler's V-V syncs (2201 with
// cce-auto-sync) or the hardware's (3510), or when one is an auto-synced S access and the other
// is on V, MTE2 or MTE3 (cce-auto-sync's S syncs). MTE2 (MTE3) copies are not ordered among
// themselves without a barrier. Shadow state is kept per byte range (an interval map), per
// block for UB and for the GM the block touches; GM shared by blocks is checked at the end of
// the launch.
//
// Files: sanitizer.cpp (tool selection, the instruction record Instr), sanitizer_state.h (the
// per-block state), sanitizer_shadow.h (the shadow state of the bytes), sanitizer_strided.h (a
// strided copy's bursts as one record, for GM's shadow state and the cross-block check),
// sanitizer_access.cpp (racecheck and initcheck of one access), sanitizer_sync.cpp (the
// synchronisation that orders accesses), sanitizer_gm_init.cpp (device memory nothing wrote
// yet), sanitizer_launch.cpp (the launch: blocks, the cross-block check, the failures).
#include "lngrad_aicore/sanitizer.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sanitizer_tools.h"
#include "lngrad_aicore/launch.h"
#include "sanitizer_state.h"

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
    case Pipe::kMte1:
      return "MTE1";
    case Pipe::kM:
      return "M";
    case Pipe::kFix:
      return "FIX";
  }
  return "?";
}

namespace san {

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

uint32_t ActiveTools() noexcept {
  const BlockState* s = Active();
  return s != nullptr ? s->tools : 0;
}

Instr::Instr(Pipe pipe, const char* api, SrcLoc loc) noexcept
    : state_(Active()), pipe_(pipe), api_(api), loc_(loc) {
  if (state_ != nullptr) uncaught_ = std::uncaught_exceptions();
}

namespace {

// A copy from UB to GM (one UB source, one GM destination of the same bursts, or a contiguous
// source of all of them) wrote its source's bytes: where to read them back (the block's own UB,
// which no other block writes). Anything else: {} (GM is read back).
template <class Range>
WrittenBytes WrittenFromUb(const BlockState& s, const Range* r, int n) {
  if (n != 2) return {};
  const Range& src = r[0].kind == 0 ? r[0] : r[1];
  const Range& dst = r[0].kind == 0 ? r[1] : r[0];
  const auto in_ub = [&](const void* p) {
    const auto* b = static_cast<const std::byte*>(p);
    return b >= s.ub && b < s.ub + s.ub_size;
  };
  if (src.kind != 0 || dst.kind != 1 || !in_ub(src.p) || in_ub(dst.p)) return {};
  const auto* p = static_cast<const std::byte*>(src.p);
  if (src.count == dst.count && src.bytes == dst.bytes) {
    return {p, src.count > 1 ? src.pitch : src.bytes};
  }
  if (src.count == 1 && src.bytes == dst.bytes * dst.count) return {p, dst.bytes};
  return {};
}

// A copy from GM into UB (one GM source, one UB destination, the same bytes burst for burst):
// n bursts of len bytes, burst j from gm + j * gm_pitch to UB offset ub + j * ub_pitch.
struct GmToUb {
  int src = -1;
  const std::byte* gm = nullptr;
  uint64_t ub = 0, len = 0, n = 0, gm_pitch = 0, ub_pitch = 0;
};

template <class Range>
GmToUb MapGmToUb(const BlockState& s, const Range* r, int n) {
  if (n != 2) return {};
  const int si = r[0].kind == 0 ? 0 : 1;
  const Range& src = r[si];
  const Range& dst = r[1 - si];
  const auto in_ub = [&](const void* p) {
    const auto* b = static_cast<const std::byte*>(p);
    return b >= s.ub && b < s.ub + s.ub_size;
  };
  if (src.kind != 0 || dst.kind != 1 || in_ub(src.p) || !in_ub(dst.p)) return {};
  const uint64_t sp = src.count > 1 ? src.pitch : src.bytes;
  const uint64_t dp = dst.count > 1 ? dst.pitch : dst.bytes;
  GmToUb m{si, static_cast<const std::byte*>(src.p),
           static_cast<uint64_t>(static_cast<const std::byte*>(dst.p) - s.ub)};
  if (src.count == dst.count && src.bytes == dst.bytes) {
    m.len = src.bytes, m.n = src.count, m.gm_pitch = sp, m.ub_pitch = dp;
  } else if (src.count == 1 && src.bytes == dst.bytes * dst.count) {
    m.len = dst.bytes, m.n = dst.count, m.gm_pitch = dst.bytes, m.ub_pitch = dp;
  } else if (dst.count == 1 && dst.bytes == src.bytes * src.count) {
    m.len = src.bytes, m.n = src.count, m.gm_pitch = sp, m.ub_pitch = src.bytes;
  } else {
    return {};
  }
  return m;
}

// The never-written device bytes a GM-to-UB copy brought in stay unwritten in UB.
void CarryUnwritten(BlockState& s, const GmToUb& m) {
  if (m.src < 0 || (s.tools & kInitcheck) == 0 || !GmHasUninitialised()) return;
  uintptr_t b = 0, e = 0;
  uint64_t burst = 0;
  const Strided shape{reinterpret_cast<uintptr_t>(m.gm), m.len, m.gm_pitch, m.n};
  if (!FirstUninit(shape, &b, &e, &burst)) return;
  for (uint64_t j = burst; j < m.n; ++j) {
    s.CarryUnwritten(m.gm + j * m.gm_pitch, m.len, m.ub + j * m.ub_pitch);
  }
}

}  // namespace

Instr::~Instr() {
  if (state_ != nullptr && std::uncaught_exceptions() == uncaught_) {
    BlockState& s = *state_;
    const uint32_t site = s.Intern(api_, loc_, pipe_);
    const Range* r = heap_ != nullptr ? heap_ : inline_;
    const GmToUb in = MapGmToUb(s, r, count_);
    // An instruction reads its sources before it writes its destination.
    for (int i = 0; i < count_; ++i) {
      if (r[i].kind == 0) {
        s.carry_gm_unwritten = i == in.src;
        s.Access(pipe_, site, auto_synced_, r[i].p, r[i].bytes, 0, r[i].count, r[i].pitch);
        s.carry_gm_unwritten = false;
      }
    }
    const WrittenBytes written = WrittenFromUb(s, r, count_);
    for (int i = 0; i < count_; ++i) {
      if (r[i].kind != 0) {
        s.Access(pipe_, site, auto_synced_, r[i].p, r[i].bytes, r[i].kind, r[i].count, r[i].pitch,
                 written);
      }
    }
    CarryUnwritten(s, in);
  }
  std::free(heap_);
}

void Instr::Add(const void* p, uint64_t bytes, uint8_t kind, uint64_t count, uint64_t pitch) {
  if (state_ == nullptr || bytes == 0 || count == 0) return;
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
  (heap_ != nullptr ? heap_ : inline_)[count_++] = {p, bytes, count, pitch, kind};
}

void Instr::Read(const void* p, uint64_t bytes) { Add(p, bytes, 0); }
void Instr::Write(const void* p, uint64_t bytes, bool initialises) {
  Add(p, bytes, initialises ? 1 : 2);
}
void Instr::WriteUnmodelled(const void* p, uint64_t bytes) { Add(p, bytes, 3); }

void LeaveScratchUnmodelled(const char* api, SrcLoc loc, const void* p, uint64_t bytes) {
  Instr in(Pipe::kV, api, loc);
  if (in) in.WriteUnmodelled(p, bytes);
}

// One strided record when the bursts are apart (checked as the bursts one by one would be,
// sanitizer_strided.h); overlapping bursts (pitch < len) one by one.
void Instr::ReadBlocks(const void* p, uint64_t count, uint64_t len, uint64_t pitch) {
  if (state_ == nullptr) return;
  if (pitch == len || count == 1) return Add(p, count * len, 0);
  if (pitch > len) return Add(p, len, 0, count, pitch);
  for (uint64_t i = 0; i < count; ++i) Add(static_cast<const std::byte*>(p) + i * pitch, len, 0);
}
void Instr::WriteBlocks(const void* p, uint64_t count, uint64_t len, uint64_t pitch,
                        bool initialises) {
  if (state_ == nullptr) return;
  const uint8_t kind = initialises ? 1 : 2;
  if (pitch == len || count == 1) return Add(p, count * len, kind);
  if (pitch > len) return Add(p, len, kind, count, pitch);
  for (uint64_t i = 0; i < count; ++i) Add(static_cast<const std::byte*>(p) + i * pitch, len, kind);
}

}  // namespace san
}  // namespace lngrad::aicore
