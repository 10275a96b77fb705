// Layer simt: a hybrid kernel's SIMT vector function in the pipeline sanitizer's record (state.h).
#include <algorithm>
#include <cstring>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sanitizer.h"
#include "state.h"

namespace lngrad::simt::detail {

thread_local VfUbLog* t_vf_log = nullptr;

void VfUbLog::Note(uintptr_t addr, size_t bytes, bool write) {
  const auto base = reinterpret_cast<uintptr_t>(ub);
  if (addr < base || addr >= base + ub_size) return;
  const size_t off = addr - base;
  const size_t n = std::min<size_t>(bytes, ub_size - off);
  for (size_t i = off; i < off + n; ++i) {
    if (write) {
      state[i] |= 1;
    } else if ((state[i] & 1) == 0) {
      state[i] |= 2;
    }
  }
}

namespace {

// The runs of bytes whose state has `bit`, each as one range of the instruction.
template <typename F>
void ForEachRun(const std::vector<uint8_t>& state, uint8_t bit, F f) {
  size_t i = 0;
  while (i < state.size()) {
    if ((state[i] & bit) == 0) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < state.size() && (state[i] & bit) != 0) ++i;
    f(start, i - start);
  }
}

}  // namespace

// By 32-byte UB blocks (the unit of the vector and MTE instructions): a block with a changed
// byte was written whole, so that a float whose low bytes kept their value still counts.
void VfUbLog::NoteChanges(const std::vector<std::byte>& before) {
  constexpr size_t kBlock = 32;
  const size_t n = std::min(before.size(), state.size());
  for (size_t b = 0; b < n; b += kBlock) {
    const size_t len = std::min(kBlock, n - b);
    if (std::memcmp(ub + b, before.data() + b, len) == 0) continue;
    for (size_t i = b; i < b + len; ++i) state[i] |= 1;
  }
}

// The vector function ran on the vector pipe: one V instruction that read what the threads read
// before writing it and wrote what they wrote (the instrumented build's log, exact), or, without
// the instrumentation, that wrote the 32-byte UB blocks whose value changed (lngrad cannot see the
// threads' plain accesses then: a store of the value a whole block already held is missed).
void RecordVectorFunction(const VfUbLog& log, aicore::SrcLoc loc) {
  aicore::san::Instr in(aicore::Pipe::kV, "asc_vf_call", loc);
  if (!in) return;
  ForEachRun(log.state, 2, [&](size_t start, size_t n) { in.Read(log.ub + start, n); });
  ForEachRun(log.state, 1, [&](size_t start, size_t n) { in.Write(log.ub + start, n); });
}

}  // namespace lngrad::simt::detail
