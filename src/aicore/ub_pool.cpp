#include "ub_pool.h"

#include <cstdio>

namespace lngrad::aicore::detail {

UbPool& Ubs() {
  // Leaked on purpose: launches from static destructors may still return memory.
  static UbPool* pool = new UbPool;
  return *pool;
}

// Debug builds: every UB byte at or above what a checked block recorded as written
// (BlockContext::ub_written_end) is still zero, which the next block's partial zeroing relies on;
// a write that no NoteUbWritten covered stops the process here.
void CheckUbWrittenEnd([[maybe_unused]] const std::byte* ub, [[maybe_unused]] uint32_t from,
                       [[maybe_unused]] uint32_t size, [[maybe_unused]] uint32_t block) {
#ifndef NDEBUG
  for (uint32_t i = from; i < size; ++i) {
    if (ub[i] != std::byte{0}) {
      std::fprintf(stderr,
                   "lngrad internal error: UB byte %u is nonzero after block %u, above the %u "
                   "bytes recorded as written (a write NoteUbWritten missed, or a byte the "
                   "zeroing missed)\n",
                   i, block, from);
      std::abort();
    }
  }
#endif
}

}  // namespace lngrad::aicore::detail
