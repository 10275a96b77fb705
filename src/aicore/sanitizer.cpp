// The pipeline sanitizer (lngrad_aicore/sanitizer.h). Work in progress: the recording interface
// is in place; the analysis follows.
#include "lngrad_aicore/sanitizer.h"

#include <cstdlib>

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
  }
  return "?";
}

namespace san {

bool ParseTools(const std::string& text, uint32_t* tools, std::string* error) {
  (void)error;
  *tools = text.empty() ? 0u : static_cast<uint32_t>(kAllTools);
  return true;
}
uint32_t ToolsFromEnvironment() { return 0; }
std::string ToolsText(uint32_t) { return ""; }
BlockState* Active() noexcept { return nullptr; }

Instr::Instr(Pipe pipe, const char* api, SrcLoc loc) noexcept : pipe_(pipe), api_(api), loc_(loc) {}
Instr::~Instr() { std::free(heap_); }
void Instr::Read(const void*, uint64_t) {}
void Instr::Write(const void*, uint64_t, bool) {}
void Instr::ReadBlocks(const void*, uint64_t, uint64_t, uint64_t) {}
void Instr::WriteBlocks(const void*, uint64_t, uint64_t, uint64_t, bool) {}
void Instr::Add(const void*, uint64_t, uint8_t) {}

void SetFlag(AscendC::HardEvent, int32_t, SrcLoc) {}
void WaitFlag(AscendC::HardEvent, int32_t, SrcLoc) {}
void Barrier(pipe_t, SrcLoc) {}
void AllocEventId(AscendC::HardEvent, int32_t, SrcLoc) {}
void ReleaseEventId(AscendC::HardEvent, int32_t, SrcLoc) {}
void QueueSignal(const void*, int32_t, bool, AscendC::HardEvent) {}
void QueueWait(const void*, int32_t, bool) {}
void OnSyncAll() {}
void GmMarkUninitialised(const void*, uint64_t) {}
void GmMarkWritten(const void*, uint64_t) {}
void GmForget(const void*, uint64_t) {}

}  // namespace san
}  // namespace lngrad::aicore
