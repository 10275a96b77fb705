// lngrad register API: a vector function's UB accesses. Every register load and store is a
// PIPE_V instruction: the address is checked against the running block's UB (out-of-UB raises
// checks::kRegUbBounds in both modes: the host memory behind it is not the block's) and, in
// checked mode, against the instruction's alignment (checks::kRegAlign); the sanitizer records
// the bytes it reads or writes (racecheck and initcheck see a vector function's UB).
#pragma once

#include <cstdint>
#include <cstring>

#include "lngrad_aicore/sanitizer.h"
#include "lngrad_reg/registers.h"
#include "lngrad_reg/simd.h"

namespace lngrad::aicore::checks {
inline constexpr const char* kRegUbBounds = "reg_ub_bounds";  // a register access outside UB
inline constexpr const char* kRegAlign = "reg_align";         // an aligned access off its alignment
inline constexpr const char* kRegArgs = "reg_args";           // a C API argument out of its range
}  // namespace lngrad::aicore::checks

namespace lngrad::reg::detail {

// Inside a vector function (asc_vf_call, __VEC_SCOPE__) with no sanitizer tool on, the running
// block's UB, so that an access inside it and on its alignment is one copy (FastUb); elsewhere,
// or for any other access, the checked functions below run (the same bytes, or the error).
struct FastUbWindow {
  uintptr_t base;  // 0: no fast path
  uint64_t size;
};
extern thread_local constinit FastUbWindow t_fast_ub;
inline bool FastUb(const void* p, uint32_t bytes, uint32_t align) {
  const uintptr_t off = reinterpret_cast<uintptr_t>(p) - t_fast_ub.base;
  return t_fast_ub.base != 0 && off <= t_fast_ub.size && t_fast_ub.size - off >= bytes &&
         off % align == 0;
}

// Checks [p, p + bytes) and the alignment; records a PIPE_V read (Load) or writes them and
// records a PIPE_V write (Store).
void LoadBytesChecked(void* dst, const void* src, uint32_t bytes, uint32_t align, const char* api,
                      aicore::SrcLoc loc);
void StoreBytesChecked(void* dst, const void* src, uint32_t bytes, uint32_t align, const char* api,
                       aicore::SrcLoc loc);
// The copy between a register and UB (ub: the UB side): one copy on the fast path.
template <void (*checked)(void*, const void*, uint32_t, uint32_t, const char*, aicore::SrcLoc),
          bool store>
inline void CopyRegUb(void* dst, const void* src, uint32_t bytes, uint32_t align, const char* api,
                      aicore::SrcLoc loc) {
  if (FastUb(store ? dst : src, bytes, align)) {
    if (bytes == kVectorBytes) {
      g_simd.copy(dst, src);  // a whole register: the machine's widest vectors
    } else {
      std::memcpy(dst, src, bytes);
    }
  } else {
    checked(dst, src, bytes, align, api, loc);
  }
}
inline constexpr auto LoadBytes = CopyRegUb<LoadBytesChecked, false>;
inline constexpr auto StoreBytes = CopyRegUb<StoreBytesChecked, true>;
// The lanes the mask selects: lanes [0, n) inside the fast path's UB window are one copy (a
// tail's mask); otherwise checks their span, writes them and records the writes.
void StoreSomeLanes(void* dst, const void* src, uint32_t laneBytes, const MaskReg& mask,
                    uint32_t align, const char* api, aicore::SrcLoc loc);
// Every lane selected: one range (on the fast path one copy); else StoreSomeLanes.
inline void StoreLanes(void* dst, const void* src, uint32_t laneBytes, const MaskReg& mask,
                       uint32_t align, const char* api, aicore::SrcLoc loc) {
  const bool all = laneBytes == 4   ? mask.AllLanes<uint32_t>()
                   : laneBytes == 2 ? mask.AllLanes<uint16_t>()
                   : laneBytes == 1 ? mask.AllLanes<uint8_t>()
                                    : mask.AllLanes<uint64_t>();
  if (all) {
    StoreBytes(dst, src, kVectorBytes, align, api, loc);
  } else {
    StoreSomeLanes(dst, src, laneBytes, mask, align, api, loc);
  }
}
// The low half of each lane the mask selects, stored contiguously (lane i's half at byte
// i * laneBytes / 2), checked and recorded as StoreLanes.
void StorePacked(void* dst, const void* src, uint32_t laneBytes, const MaskReg& mask,
                 uint32_t align, const char* api, aicore::SrcLoc loc);
// How a register load places UB elements of `elem` bytes in the register (the C++ flavour's
// LoadDist): VL bytes as they are; one element broadcast; VL / 2 bytes, each element twice
// (upsample); 2 * VL bytes, every other element (downsample); VL / 2 (VL / 4) bytes, each
// element followed by one (three) zero elements (unpack); one 32-byte block repeated; VL / 32
// elements, each repeated over a 32-byte block.
enum class LoadShape : uint8_t {
  kNorm,
  kBroadcast,
  kUpsample,
  kDownsample,
  kUnpack,
  kUnpack4,
  kBlock,
  kElemToBlock
};
// Loads reg (VL bytes) from src in shape, with the reference's alignment for it (checked as
// LoadBytes).
void LoadShaped(void* reg, const void* src, LoadShape shape, uint32_t elem, const char* api,
                aicore::SrcLoc loc);
// The data-block forms: the register's 32-byte block b from / to UB at b * blockStride * 32
// bytes; only the blocks with a lane the mask selects are read or written (a load gives 0 in the
// lanes the mask does not select, a store writes the selected lanes only).
void LoadBlocks(void* reg, const void* src, uint32_t laneBytes, const MaskReg& mask,
                uint32_t blockStride, const char* api, aicore::SrcLoc loc);
void StoreBlocks(void* dst, const void* reg, uint32_t laneBytes, const MaskReg& mask,
                 uint32_t blockStride, const char* api, aicore::SrcLoc loc);
// Gather from UB: lane i (lanes of laneBytes, the mask selects by them) = the element of
// elemBytes (<= laneBytes) at base + index lane i * elemBytes, sign- (signedElem) or zero-extended;
// an unselected lane 0. index holds lanes of indexBytes. base is 32-byte aligned (checked mode).
void GatherElements(void* reg, uint32_t laneBytes, const void* base, uint32_t elemBytes,
                    bool signedElem, const void* index, uint32_t indexBytes, const MaskReg& mask,
                    const char* api, aicore::SrcLoc loc);
// Scatter to UB: for each selected lane i (lanes of laneBytes), its low elemBytes to base + index
// lane i * elemBytes.
void ScatterElements(void* base, uint32_t elemBytes, const void* reg, uint32_t laneBytes,
                     const void* index, uint32_t indexBytes, const MaskReg& mask, const char* api,
                     aicore::SrcLoc loc);
// Gather of 32-byte blocks: block b < 8 of reg = the block at base + index[b] bytes (a multiple of
// 32) where the mask's b32 lane b is set; the other blocks unchanged.
void GatherBlocks(void* reg, const void* base, const uint32_t* index, const MaskReg& mask,
                  const char* api, aicore::SrcLoc loc);
// An unaligned store of bytes from src to dst (element-aligned: elemBytes): the bytes up to the
// last 32-byte UB boundary they reach are written now (after ureg's pending bytes, which are
// written first where they do not continue at dst), the rest waits in ureg.
void StoreUnaligned(UnalignReg& ureg, void* dst, const void* src, uint32_t bytes,
                    uint32_t elemBytes, const char* api, aicore::SrcLoc loc);
// The Post store: writes ureg's pending bytes and empties it.
void FlushUnaligned(UnalignReg& ureg, const char* api, aicore::SrcLoc loc);
// The special-purpose register AR (the running byte offset of the stores that read it; one per
// block thread) and the byte count the last storing Squeeze left for them.
uint32_t& SpecialAr();
uint32_t& SqueezedBytes();
// The UB byte offset of [p, p + bytes) (checked as a load is, 32-byte alignment).
uint32_t UbOffset(const void* p, uint64_t bytes, const char* api, aicore::SrcLoc loc);
// checks::kRegArgs unless 1 <= count <= lanes (a C API's element count of one register).
void RequireCount(uint32_t count, uint32_t lanes, const char* api, aicore::SrcLoc loc);
// The SoC rule: register functions run on the Ascend 950 only (checked mode).
void RequireRegProduct(const char* api, aicore::SrcLoc loc);
// A vector function starts (asc_vf_call, __VEC_SCOPE__): the SoC rule, the loop counts of
// LoopIndex start again at 0 and the fast UB window opens (no sanitizer tool on); it ends with
// the scope.
void StartVectorFunction(const char* api, aicore::SrcLoc loc);
void EndVectorFunction() noexcept;
class VectorFunctionScope {
 public:
  VectorFunctionScope(const char* api, aicore::SrcLoc loc) { StartVectorFunction(api, loc); }
  ~VectorFunctionScope() { EndVectorFunction(); }
  VectorFunctionScope(const VectorFunctionScope&) = delete;
  VectorFunctionScope& operator=(const VectorFunctionScope&) = delete;
};
// The hardware loop's index for the call at loc (asc_update_addr_reg_bN, which the reference
// allows only in the innermost loop): how many times that call ran before in this vector
// function (per block thread). A loop entered again inside an outer loop is not told apart: the
// count goes on (the one-dimensional register only; see docs/ascendc_compat.md).
uint32_t LoopIndex(aicore::SrcLoc loc);

}  // namespace lngrad::reg::detail
