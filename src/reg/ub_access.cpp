// lngrad register API: a vector function's UB accesses (lngrad_reg/ub_access.h).
#include "lngrad_reg/ub_access.h"

#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sanitizer_tools.h"
#include "lngrad_reg/lane_init.h"
#include "utils/debug/asc_printf.h"
#include "lngrad_aicore/sys.h"

namespace lngrad::reg::detail {
namespace {

std::string Where(const char* api, aicore::SrcLoc loc) { return aicore::detail::WithLoc(api, loc); }

// The UB byte offset of [p, p + bytes); raises kRegUbBounds unless it lies in the block's UB and
// (checked mode) kRegAlign unless p is a multiple of align.
uint64_t RequireUb(const void* p, uint64_t bytes, uint32_t align, const char* api,
                   aicore::SrcLoc loc) {
  aicore::BlockContext& ctx = aicore::RequireBlockContext(api);
  const auto base = reinterpret_cast<uintptr_t>(ctx.ub);
  const auto addr = reinterpret_cast<uintptr_t>(p);
  if (addr < base || addr - base > ctx.ub_size || ctx.ub_size - (addr - base) < bytes) {
    aicore::RaiseKernelCheck(aicore::checks::kRegUbBounds,
                             Where(api, loc) + ": " + std::to_string(bytes) +
                                 " bytes at a pointer that is not inside the block's UB");
  }
  const uint64_t offset = addr - base;
  aicore::NoteUbWritten(ctx, offset + bytes);
  if (aicore::CheckedMode() && align > 1 && offset % align != 0) {
    aicore::RaiseKernelCheck(aicore::checks::kRegAlign,
                             Where(api, loc) + ": UB address " + std::to_string(offset) +
                                 " is not " + std::to_string(align) + "-byte aligned");
  }
  return offset;
}

}  // namespace

namespace {

// One checked, recorded copy between a register and UB (ub: the UB side, dst or src).
void CopyBytes(void* dst, const void* src, const void* ub, bool write, uint32_t bytes,
               uint32_t align, const char* api, aicore::SrcLoc loc) {
  RequireUb(ub, bytes, align, api, loc);
  aicore::san::Instr instr(aicore::Pipe::kV, api, loc);
  if (instr) write ? instr.Write(dst, bytes) : instr.Read(src, bytes);
  std::memcpy(dst, src, bytes);
}

}  // namespace

thread_local constinit FastUbWindow t_fast_ub{0, 0};

void LoadBytesChecked(void* dst, const void* src, uint32_t bytes, uint32_t align, const char* api,
                      aicore::SrcLoc loc) {
  if (bytes == kVectorBytes && aicore::san::ActiveTools() != 0) {
    RequireUb(src, bytes, align, api, loc);  // recorded lane by lane as it is used
    std::memcpy(dst, src, bytes);
    NoteLoad(dst, src, api, loc);
    return;
  }
  CopyBytes(dst, src, src, false, bytes, align, api, loc);
}

void StoreBytesChecked(void* dst, const void* src, uint32_t bytes, uint32_t align, const char* api,
                       aicore::SrcLoc loc) {
  if (t_unwritten_regs != 0 && bytes == kVectorBytes) CheckLaneUse(src, 1, nullptr);
  CopyBytes(dst, src, dst, true, bytes, align, api, loc);
}

void StoreSomeLanes(void* dst, const void* src, uint32_t laneBytes, const MaskReg& mask,
                    uint32_t align, const char* api, aicore::SrcLoc loc) {
  if (t_unwritten_regs != 0) CheckLaneUse(src, laneBytes, &mask);
  const int32_t prefix = mask.SelectedPrefix(laneBytes);
  if (prefix >= 0 && FastUb(dst, prefix * laneBytes, align)) {
    std::memcpy(dst, src, prefix * laneBytes);
    return;
  }
  const uint32_t lanes = kVectorBytes / laneBytes;
  uint32_t last = 0;  // one past the last selected lane
  for (uint32_t i = 0; i < lanes; ++i) {
    if (mask.Bit(i * laneBytes)) last = i + 1;
  }
  RequireUb(dst, uint64_t{last} * laneBytes, align, api, loc);
  aicore::san::Instr instr(aicore::Pipe::kV, api, loc);
  auto* out = static_cast<std::byte*>(dst);
  const auto* in = static_cast<const std::byte*>(src);
  for (uint32_t i = 0; i < last;) {
    if (!mask.Bit(i * laneBytes)) {
      ++i;
      continue;
    }
    uint32_t end = i + 1;  // a run of selected lanes: one range for the sanitizer
    while (end < last && mask.Bit(end * laneBytes)) ++end;
    const uint64_t begin_byte = uint64_t{i} * laneBytes, run = uint64_t{end - i} * laneBytes;
    if (instr) instr.Write(out + begin_byte, run);
    std::memcpy(out + begin_byte, in + begin_byte, run);
    i = end;
  }
}

void StorePacked(void* dst, const void* src, uint32_t laneBytes, const MaskReg& mask,
                 uint32_t align, const char* api, aicore::SrcLoc loc) {
  if (t_unwritten_regs != 0) CheckLaneUse(src, laneBytes, &mask);
  const uint32_t lanes = kVectorBytes / laneBytes, half = laneBytes / 2;
  std::byte packed[kVectorBytes] = {};
  MaskReg packedMask;
  const auto* in = static_cast<const std::byte*>(src);
  for (uint32_t i = 0; i < lanes; ++i) {
    std::memcpy(packed + i * half, in + i * laneBytes, half);  // little-endian: the low half
    packedMask.SetBit(i * half, mask.Bit(i * laneBytes));
  }
  StoreLanes(dst, packed, half, packedMask, align, api, loc);
}

uint32_t UbOffset(const void* p, uint64_t bytes, const char* api, aicore::SrcLoc loc) {
  return static_cast<uint32_t>(RequireUb(p, bytes, 32, api, loc));
}

void RequireCount(uint32_t count, uint32_t lanes, const char* api, aicore::SrcLoc loc) {
  if (count < 1 || count > lanes) {
    aicore::RaiseKernelCheck(aicore::checks::kRegArgs,
                             Where(api, loc) + ": count " + std::to_string(count) +
                                 " is outside [1, " + std::to_string(lanes) +
                                 "] (the lanes of one register)");
  }
}

void RequireRegProduct(const char* api, aicore::SrcLoc loc) {
  aicore::detail::RequireProduct(api, aicore::detail::ArchBit::k3510, "Ascend 950", loc);
}

namespace {
// Per call site, the times it ran in the block thread's running vector function.
std::map<std::pair<const char*, int>, uint32_t>& LoopCounts() {
  thread_local std::map<std::pair<const char*, int>, uint32_t> counts;
  return counts;
}
}  // namespace

void StartVectorFunction(const char* api, aicore::SrcLoc loc) {
  RequireRegProduct(api, loc);
  LoopCounts().clear();
  aicore::debug_detail::InSimdVf() = true;
  aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  if (ctx != nullptr) aicore::NoteUbWritten(*ctx, ctx->ub_size);  // its stores go unrecorded
  t_fast_ub = ctx == nullptr || aicore::san::ActiveTools() != 0
                  ? FastUbWindow{0, 0}
                  : FastUbWindow{reinterpret_cast<uintptr_t>(ctx->ub), ctx->ub_size};
}

void EndVectorFunction() noexcept {
  t_fast_ub = FastUbWindow{0, 0};
  ForgetAllLanes();
  aicore::debug_detail::InSimdVf() = false;
}

uint32_t LoopIndex(aicore::SrcLoc loc) { return LoopCounts()[{loc.file, loc.line}]++; }

}  // namespace lngrad::reg::detail
