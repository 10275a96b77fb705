// The place a dump names (utils/debug/asc_dump.h): the block's memory that holds a pointer, by the
// vendor's position names, and the byte address in it.
#include <cstdint>

#include "lngrad_aicore/local_memory.h"
#include "lngrad_aicore/tensor.h"
#include "utils/debug/asc_dump.h"

namespace lngrad::reg::detail {
namespace {

struct NamedMemory {
  AscendC::TPosition pos;
  const char* name;
};
// The memories in the order they are looked at; the cube's exist where a layer serves them.
constexpr NamedMemory kMemories[] = {
    {AscendC::TPosition::VECCALC, "UB"},      {AscendC::TPosition::A1, "L1"},
    {AscendC::TPosition::A2, "L0A"},          {AscendC::TPosition::B2, "L0B"},
    {AscendC::TPosition::CO1, "L0C"},         {AscendC::TPosition::C2, "BIAS"},
    {AscendC::TPosition::C2PIPE2GM, "FIXBUF"}};

}  // namespace

DumpPlace PlaceOf(const void* p) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  if (ctx == nullptr) return {"GM", at};
  for (const NamedMemory& m : kMemories) {
    aicore::LocalMemory mem;
    if (!aicore::FindMemory(*ctx, m.pos, &mem)) continue;
    const auto base = reinterpret_cast<uintptr_t>(mem.base);
    if (at >= base && at - base < mem.size) return {m.name, at - base};
  }
  return {"GM", at};
}

}  // namespace lngrad::reg::detail
