// lngrad Ascend C runtime: the memories of a block that positions name.
//
// aicore models the Unified Buffer (VECIN, VECOUT, VECCALC). The memories of the other positions
// (the cube's L1, L0A, L0B, L0C, BiasTable) belong to a layer above aicore, which serves them
// through a hook: TPipe, TQue, TBuf and LocalTensor(pos, addr, size) ask MemoryOf for the memory
// of a position, and aicore keeps knowing nothing of the cube.
#pragma once

#include <cstddef>
#include <cstdint>

#include "check.h"

namespace AscendC {
enum class TPosition : uint8_t;
}

namespace lngrad::aicore {

// One memory of the running block: the host address of its byte 0, the bytes a TPipe may hand
// out (capacity, the product's size) and backed on the host (size >= capacity), its name in
// messages and its index among the block's memories (0: the UB; < kMaxLocalMemories), under
// which TPipe keeps one allocation cursor per memory.
struct LocalMemory {
  std::byte* base = nullptr;
  uint32_t size = 0;
  uint32_t capacity = 0;
  uint32_t index = 0;
  const char* name = "UB";
};
inline constexpr uint32_t kMaxLocalMemories = 8;

// A layer's server of positions: fills *mem for the positions it models in ctx's block and
// returns true; false for the others.
using LocalMemoryHook = bool (*)(BlockContext& ctx, AscendC::TPosition pos, LocalMemory* mem);
// Installs the hook (one, process-wide; the cube's is installed before main).
void SetLocalMemoryHook(LocalMemoryHook hook) noexcept;

// The memory of pos in ctx's block: the UB for VECIN/VECOUT/VECCALC, the hook's otherwise.
// Raises checks::kPosition naming api for a position no layer models.
LocalMemory MemoryOf(BlockContext& ctx, AscendC::TPosition pos, const char* api);
// The same without the error: false when no layer models pos.
bool FindMemory(BlockContext& ctx, AscendC::TPosition pos, LocalMemory* mem);

}  // namespace lngrad::aicore
