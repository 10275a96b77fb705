// The cube's memories per block (L1, L0A, L0B, L0C, BiasTable, Fixpipe Buffer) and the copy
// L1 -> BiasTable, served to aicore through its hooks.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cube_internal.h"
#include "lngrad_aicore/cores.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/local_memory.h"
#include "lngrad_cube/cube.h"
#include "lngrad_cube/local_array.h"

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

// The memory (row of kMemories) of each cube position; -1: none.
int MemoryRowOf(AscendC::TPosition pos) {
  using P = AscendC::TPosition;
  switch (pos) {
    case P::A1:
    case P::B1:
    case P::C1:
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

// One array of LocalArray: its declaration's key and its byte offset in the memory.
struct LocalArraySlot {
  const void* key;
  uint32_t offset;
};

struct BlockMemories {
  std::vector<std::byte> bytes[kMemoryCount];
  std::vector<LocalArraySlot> arrays[kMemoryCount];
  uint32_t arrays_end[kMemoryCount] = {};
  CubeRegisters registers;
  // The L1 of a launch whose AI cores have an AIC and AIVs: one per AI core, which its AIVs
  // write (DataCopy UB -> L1) and its AIC reads; nullptr: bytes[0].
  std::shared_ptr<std::vector<std::byte>> shared_l1;
  bool shared_l1_looked = false;
};

std::vector<std::byte>& L1Of(BlockMemories& state, uint32_t capacity) {
  if (!state.shared_l1_looked) {
    state.shared_l1_looked = true;
    state.shared_l1 = std::static_pointer_cast<std::vector<std::byte>>(aicore::AiCoreShared(
        [capacity] { return std::make_shared<std::vector<std::byte>>(capacity, std::byte{0}); }));
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
  const uint32_t capacity = ctx.product->cube.*kMemories[row].bytes;
  if (capacity == 0) return false;
  auto& state = StateOf(ctx);
  std::vector<std::byte>& bytes = row == 0 ? L1Of(state, capacity) : state.bytes[row];
  if (bytes.size() < capacity) bytes.assign(capacity, std::byte{0});
  *mem = {bytes.data(), capacity, capacity, static_cast<uint32_t>(1 + row), kMemories[row].name};
  return true;
}

// The alignment of LocalArray's arrays per memory (row of kMemories): the fractal grid.
constexpr uint32_t kArrayAlign[kMemoryCount] = {32, 512, 512, 1024, 32, 64};

}  // namespace

void* LocalArrayBytes(AscendC::TPosition pos, const void* key, size_t bytes, const char* name,
                      aicore::SrcLoc loc) {
  constexpr const char* kApi = "cube local array";
  aicore::BlockContext& ctx = aicore::RequireBlockContext(kApi);
  const aicore::LocalMemory mem = aicore::MemoryOf(ctx, pos, kApi);
  const int row = MemoryRowOf(pos);
  BlockMemories& state = StateOf(ctx);
  for (const LocalArraySlot& a : state.arrays[row]) {
    if (a.key == key) return mem.base + a.offset;
  }
  const uint64_t align = kArrayAlign[row];
  const uint64_t offset = (state.arrays_end[row] + align - 1) / align * align;
  if (offset + bytes > mem.capacity) {
    aicore::RaiseKernelCheck(checks::kBounds,
                             std::string(kApi) + " " + name + " (" + loc.file + ":" +
                                 std::to_string(loc.line) + "): " + std::to_string(bytes) +
                                 " bytes from byte " + std::to_string(offset) + " of " + mem.name +
                                 " pass its " + std::to_string(mem.capacity) + " bytes");
  }
  state.arrays[row].push_back({key, static_cast<uint32_t>(offset)});
  state.arrays_end[row] = static_cast<uint32_t>(offset + bytes);
  return mem.base + offset;
}

bool LocateLocal(const void* p, AscendC::TPosition* pos, uint32_t* addr) noexcept {
  using P = AscendC::TPosition;
  aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  if (ctx == nullptr) return false;
  const auto* b = static_cast<const std::byte*>(p);
  for (const P candidate : {P::VECCALC, P::A1, P::A2, P::B2, P::CO1, P::C2, P::C2PIPE2GM}) {
    aicore::LocalMemory mem;
    if (!aicore::FindMemory(*ctx, candidate, &mem)) continue;
    if (b >= mem.base && b < mem.base + mem.size) {
      *pos = candidate;
      *addr = static_cast<uint32_t>(b - mem.base);
      return true;
    }
  }
  return false;
}

bool Install() noexcept {
  aicore::SetLocalMemoryHook(&ServePosition);
  aicore::detail::SetLocalCopyHook(&CopyToBiasTable);
  return true;
}

CubeRegisters& Registers(const char* api) {
  return StateOf(aicore::RequireBlockContext(api)).registers;
}

const char* MemoryName(AscendC::TPosition pos) noexcept {
  const int row = MemoryRowOf(pos);
  return row < 0 ? (AscendC::IsUbPosition(pos) ? "UB" : "GM") : kMemories[row].name;
}

}  // namespace lngrad::cube
