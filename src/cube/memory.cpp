// The cube's memories per block (L1, L0A, L0B, L0C, BiasTable, Fixpipe Buffer) and the copy
// L1 -> BiasTable, served to aicore through its hooks.
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cube_internal.h"
#include "lngrad_aicore/cores.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/local_memory.h"
#include "lngrad_cube/cube.h"

namespace lngrad::cube {
namespace {

// One row per memory: its name, its index among the block's memories (aicore's UB is 0) and its
// size in the product's CubeBuffers.
struct MemoryRow {
  const char* name;
  uint32_t CubeBuffers::*bytes;
};
constexpr MemoryRow kMemories[] = {
    {"L1", &CubeBuffers::l1_bytes},        {"L0A", &CubeBuffers::l0a_bytes},
    {"L0B", &CubeBuffers::l0b_bytes},      {"L0C", &CubeBuffers::l0c_bytes},
    {"BiasTable", &CubeBuffers::bt_bytes}, {"FixpipeBuffer", &CubeBuffers::fb_bytes}};
constexpr int kMemoryCount = static_cast<int>(std::size(kMemories));
constexpr uintptr_t kHostAlign = 1024;
constexpr uint32_t kTscmIndex = static_cast<uint32_t>(kMemoryCount) + 1;
static_assert(kTscmIndex < aicore::kMaxLocalMemories);

// The memory (row of kMemories) of each cube position; -1: none.
int MemoryRowOf(AscendC::TPosition pos) {
  using P = AscendC::TPosition;
  switch (pos) {
    case P::A1:
    case P::B1:
    case P::C1:
    case P::TSCM:  // the L1 an AIV fills for the cube (TSCM queues, Matmul operands)
      return 0;
    case P::A2:
      return 1;
    case P::B2:
      return 2;
    case P::CO1:
      return 3;
    case P::C2:
      return 4;
    case P::C2PIPE2GM:
      return 5;
    default:
      return -1;
  }
}

struct BlockMemories {
  std::vector<std::byte> bytes[kMemoryCount];
  // The C API's arrays (`__cbuf__ T name[N];` ...): per memory, the offset of each declaration
  // (its key) and the end of the last.
  std::vector<std::pair<const void*, uint64_t>> arrays[kMemoryCount];
  uint64_t arrays_end[kMemoryCount] = {};
  CubeRegisters registers;
  // The L1 of a launch whose AI cores have an AIC and AIVs: one per AI core, which its AIVs
  // write (DataCopy UB -> L1) and its AIC reads; nullptr: bytes[0].
  std::shared_ptr<std::vector<std::byte>> shared_l1;
  bool shared_l1_looked = false;
};

std::vector<std::byte>& L1Of(BlockMemories& state, uint32_t capacity) {
  if (!state.shared_l1_looked) {
    state.shared_l1_looked = true;
    state.shared_l1 =
        std::static_pointer_cast<std::vector<std::byte>>(aicore::AiCoreShared([capacity] {
          return std::make_shared<std::vector<std::byte>>(capacity + kHostAlign, std::byte{0});
        }));
  }
  return state.shared_l1 != nullptr ? *state.shared_l1 : state.bytes[0];
}

BlockMemories& StateOf(aicore::BlockContext& ctx) {
  if (ctx.upper_state == nullptr) ctx.upper_state = std::make_shared<BlockMemories>();
  return *static_cast<BlockMemories*>(ctx.upper_state.get());
}

bool ServePosition(aicore::BlockContext& ctx, AscendC::TPosition pos, aicore::LocalMemory* mem) {
  const int row = MemoryRowOf(pos);
  if (row < 0 || ctx.product == nullptr) return false;
  uint32_t capacity = ctx.product->cube.*kMemories[row].bytes;
  if (capacity == 0) return false;
  // A mixed kernel's L1 ends where the framework's reserve begins; a cube-only one has it all.
  if (row == 0 && ctx.split.aic > 0 && ctx.split.aiv > 0)
    capacity -= ctx.product->cube.l1_mix_reserve_bytes;
  auto& state = StateOf(ctx);
  std::vector<std::byte>& bytes = row == 0 ? L1Of(state, capacity) : state.bytes[row];
  // The memory starts at a host address that is a multiple of kHostAlign, so that an address a
  // C-API kernel computes from a pointer (asc_set_l0c2gm_config's / 128, the MX buffers' / 16)
  // keeps its low bits.
  if (bytes.size() < capacity + kHostAlign) bytes.assign(capacity + kHostAlign, std::byte{0});
  const auto at = reinterpret_cast<uintptr_t>(bytes.data());
  std::byte* base = bytes.data() + ((kHostAlign - at % kHostAlign) % kHostAlign);
  *mem = {base, capacity, capacity, static_cast<uint32_t>(1 + row), kMemories[row].name};
  if (pos == AscendC::TPosition::TSCM) {
    // TSCM queues have their own allocation cursor; the two AIVs of a 1:2 AI core fill
    // separate halves of its L1 (the reference's TSCM mask bit 2 at 0: their places differ).
    mem->index = kTscmIndex;
    if (ctx.core_type == 2 && ctx.split.aic > 0 && ctx.split.aiv == 2) {
      mem->capacity = capacity / 2;
      mem->base += uint64_t{mem->capacity} * static_cast<uint32_t>(ctx.sub_idx);
      mem->size = mem->capacity;
    }
  }
  return true;
}

}  // namespace

bool Install() noexcept {
  aicore::SetLocalMemoryHook(&ServePosition);
  aicore::detail::SetLocalCopyHook(&CopyToBiasTable);
  return true;
}

void* CubeStatic(const void* key, uint64_t bytes, AscendC::TPosition pos, const char* name,
                 aicore::SrcLoc loc) {
  (void)loc;
  const std::string api = std::string("the C API array ") + name;
  aicore::BlockContext& ctx = aicore::RequireBlockContext(api.c_str());
  const aicore::LocalMemory mem = aicore::MemoryOf(ctx, pos, api.c_str());
  BlockMemories& state = StateOf(ctx);
  const int row = MemoryRowOf(pos);
  for (const auto& [k, offset] : state.arrays[row]) {
    if (k == key) return mem.base + offset;
  }
  // Each array on its own fractal grid: 1024 bytes in L0C, 512 elsewhere.
  const uint64_t align = pos == AscendC::TPosition::CO1 ? 1024 : 512;
  const uint64_t offset = (state.arrays_end[row] + align - 1) / align * align;
  if (offset + bytes > mem.capacity) {
    Raise(checks::kBounds, api.c_str(),
          std::to_string(bytes) + " B from byte " + std::to_string(offset) + " exceed the " +
              mem.name + " of " + std::to_string(mem.capacity) + " B (the block's arrays there)");
  }
  state.arrays[row].emplace_back(key, offset);
  state.arrays_end[row] = offset + bytes;
  return mem.base + offset;
}

CubeRegisters& Registers(const char* api) {
  return StateOf(aicore::RequireBlockContext(api)).registers;
}

const char* MemoryName(AscendC::TPosition pos) noexcept {
  const int row = MemoryRowOf(pos);
  return row < 0 ? (AscendC::IsUbPosition(pos) ? "UB" : "GM") : kMemories[row].name;
}

}  // namespace lngrad::cube
