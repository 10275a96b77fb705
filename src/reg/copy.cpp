// lngrad C API: the GM <-> UB copies' plan (lngrad_reg/copy.h) and the pipe pairs of the sync
// functions (c_api/sync/sync.h).
#include "lngrad_reg/copy.h"

#include <string>

#include "c_api/sync/sync.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sys.h"

namespace lngrad::reg::detail {
namespace {

constexpr uint64_t kBlock = 32;

uint64_t RoundUp(uint64_t a, uint64_t b) { return (a + b - 1) / b * b; }

[[noreturn]] void BadArgs(const char* api, aicore::SrcLoc loc, const std::string& what) {
  aicore::RaiseKernelCheck(aicore::checks::kRegArgs,
                           aicore::detail::WithLoc(api, loc) + ": " + what);
}

// The UB pitch (start to start) of rows of row_bytes (a multiple of 32) for the given stride.
uint64_t UbPitch(const CopyShape& s, uint64_t row_bytes, const char* api, aicore::SrcLoc loc) {
  if (s.n_burst <= 1 || s.ub_stride == 0 || s.ub_stride == s.len_burst) return row_bytes;
  if (s.ub_stride % kBlock != 0 || s.ub_stride < row_bytes) {
    BadArgs(api, loc,
            "the UB stride " + std::to_string(s.ub_stride) +
                " is neither the row length nor a multiple of 32 bytes of at least the "
                "padded row (" +
                std::to_string(row_bytes) + " bytes)");
  }
  return s.ub_stride;
}

}  // namespace

CopyPlan PlanCopy(const void* ub, uint32_t elem_bytes, const CopyShape& s, const char* api,
                  aicore::SrcLoc loc) {
  if (s.n_burst == 0 || s.len_burst == 0)
    BadArgs(api, loc, "n_burst and len_burst must be at least 1");
  aicore::BlockContext& ctx = aicore::RequireBlockContext(api);
  const auto offset = reinterpret_cast<uintptr_t>(ub) - reinterpret_cast<uintptr_t>(ctx.ub);
  if (reinterpret_cast<uintptr_t>(ub) < reinterpret_cast<uintptr_t>(ctx.ub) ||
      offset >= ctx.ub_size) {
    aicore::RaiseKernelCheck(
        aicore::checks::kRegUbBounds,
        aicore::detail::WithLoc(api, loc) + ": the UB pointer is not inside the block's UB");
  }
  const uint64_t pads = uint64_t{s.left_pad} + s.right_pad;
  const uint64_t row_bytes = RoundUp(s.len_burst + pads * elem_bytes, kBlock);
  const uint64_t ub_pitch = UbPitch(s, row_bytes, api, loc);
  const uint64_t gm_pitch = (s.n_burst <= 1 || s.gm_stride == 0) ? s.len_burst : s.gm_stride;
  if (gm_pitch < s.len_burst) BadArgs(api, loc, "the GM stride is shorter than a row");
  const uint64_t ub_bytes = (s.n_burst - 1) * ub_pitch + row_bytes;
  aicore::NoteUbWritten(ctx, offset + ub_bytes);
  return CopyPlan{static_cast<uint32_t>(offset),
                  static_cast<uint32_t>(RoundUp(ub_bytes, elem_bytes) / elem_bytes),
                  gm_pitch - s.len_burst, (ub_pitch - row_bytes) / kBlock};
}

void RequireWholeBlocks(uint32_t size, const char* api, aicore::SrcLoc loc) {
  if (size == 0 || size % kBlock != 0) {
    BadArgs(api, loc, "size " + std::to_string(size) + " must be a positive multiple of 32 bytes");
  }
}

AscendC::HardEvent EventOf(pipe_t src, pipe_t dst, const char* api, aicore::SrcLoc loc) {
  const AscendC::HardEvent e = AscendC::detail_sync::EventBetween(src, dst);
  if (e == AscendC::HardEvent::MAX) {
    BadArgs(api, loc,
            "the vector core has no flag from pipe " + std::to_string(int(src)) + " to pipe " +
                std::to_string(int(dst)));
  }
  return e;
}

}  // namespace lngrad::reg::detail
