// lngrad register API: a whole-register load's sanitizer record, lane by lane
// (lngrad_reg/lane_init.h).
#include "lngrad_reg/lane_init.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace lngrad::reg::detail {
namespace {

// A register whose load is not (wholly) recorded yet.
struct Note {
  const void* lanes;
  const std::byte* ub;                        // the UB address of byte 0
  std::array<uint8_t, kVectorBytes> pending;  // 1: the byte's read is not recorded yet
  std::array<uint8_t, kVectorBytes> loaded;   // the register's bytes after the load
  const char* api;
  aicore::SrcLoc loc;
};

// At most kMaxNotes registers; one more records the oldest note's pending bytes at once (as a
// load without notes does).
constexpr size_t kMaxNotes = 64;
thread_local std::vector<Note> t_notes;

std::vector<Note>::iterator Find(const void* lanes) {
  return std::find_if(t_notes.begin(), t_notes.end(),
                      [&](const Note& n) { return n.lanes == lanes; });
}

void Erase(std::vector<Note>::iterator it) {
  t_notes.erase(it);
  t_unwritten_regs = static_cast<uint32_t>(t_notes.size());
}

// Whether the register's pending bytes still hold what the load put there.
bool StillLoaded(const Note& n) {
  const auto* now = static_cast<const uint8_t*>(n.lanes);
  for (uint32_t i = 0; i < kVectorBytes; ++i) {
    if (n.pending[i] != 0 && now[i] != n.loaded[i]) return false;
  }
  return true;
}

// Records the load's read of the pending bytes in `use` (1: used), in runs, and clears them.
void Record(Note& n, const std::array<uint8_t, kVectorBytes>& use) {
  aicore::san::Instr instr(aicore::Pipe::kV, n.api, n.loc);
  for (uint32_t i = 0; i < kVectorBytes;) {
    if (n.pending[i] == 0 || use[i] == 0) {
      ++i;
      continue;
    }
    uint32_t end = i + 1;
    while (end < kVectorBytes && n.pending[end] != 0 && use[end] != 0) ++end;
    if (instr) instr.Read(n.ub + i, end - i);
    std::fill(n.pending.begin() + i, n.pending.begin() + end, 0);
    i = end;
  }
}

}  // namespace

thread_local constinit uint32_t t_unwritten_regs = 0;

void NoteLoad(const void* lanes, const void* ub, const char* api, aicore::SrcLoc loc) {
  auto it = Find(lanes);
  if (it != t_notes.end()) Erase(it);
  if (t_notes.size() == kMaxNotes) {
    std::array<uint8_t, kVectorBytes> all;
    all.fill(1);
    Record(t_notes.front(), all);
    Erase(t_notes.begin());
  }
  Note n{lanes, static_cast<const std::byte*>(ub), {}, {}, api, loc};
  n.pending.fill(1);
  std::memcpy(n.loaded.data(), lanes, kVectorBytes);
  t_notes.push_back(n);
  t_unwritten_regs = static_cast<uint32_t>(t_notes.size());
}

void CheckLaneUse(const void* lanes, uint32_t laneBytes, const MaskReg* mask) {
  const auto it = Find(lanes);
  if (it == t_notes.end()) return;
  if (!StillLoaded(*it)) {
    Erase(it);
    return;
  }
  std::array<uint8_t, kVectorBytes> use{};
  for (uint32_t i = 0; i < kVectorBytes; ++i) {
    use[i] = mask == nullptr || mask->Bit(i - i % laneBytes) ? 1 : 0;
  }
  Record(*it, use);
  if (std::all_of(it->pending.begin(), it->pending.end(), [](uint8_t p) { return p == 0; })) {
    Erase(it);
  }
}

void ForgetLanes(const void* lanes) {
  const auto it = Find(lanes);
  if (it != t_notes.end()) Erase(it);
}

void UseAllLanes(const void* lanes) { CheckLaneUse(lanes, 1, nullptr); }

void ForgetAllLanes() noexcept {
  t_notes.clear();
  t_unwritten_regs = 0;
}

}  // namespace lngrad::reg::detail
