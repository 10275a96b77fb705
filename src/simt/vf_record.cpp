// Layer simt: a hybrid kernel's SIMT vector function in the pipeline sanitizer's record (state.h).
#include <algorithm>

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

// The vector function ran on the vector pipe: one V instruction that read what the threads read
// before writing it and wrote what they wrote (the instrumented build's log), or, without the
// instrumentation, that wrote the block's __ubuf__ arrays (dynamic and static): lngrad cannot see
// the threads' plain accesses then, and takes the arrays as the vector function's output.
void RecordVectorFunction(const BlockRuntime& block, const VfUbLog* log, aicore::SrcLoc loc) {
  aicore::san::Instr in(aicore::Pipe::kV, "asc_vf_call", loc);
  if (!in) return;
  const aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  if (ctx == nullptr) return;
  if (log != nullptr) {
    ForEachRun(log->state, 2, [&](size_t start, size_t n) { in.Read(ctx->ub + start, n); });
    ForEachRun(log->state, 1, [&](size_t start, size_t n) { in.Write(ctx->ub + start, n); });
    return;
  }
  const uint64_t dynamic = std::min<uint64_t>(block.dynamic_bytes, ctx->ub_size);
  if (dynamic > 0) in.Write(ctx->ub, dynamic);
  for (const BlockRuntime::Static& s : block.statics) in.Write(ctx->ub + s.offset, s.bytes);
}

}  // namespace lngrad::simt::detail
