// lngrad register API: the gather and scatter accesses and the unaligned stores
// (lngrad_reg/ub_access.h), on top of LoadBytes and StoreBytes (each element checked against the
// block's UB and recorded by the sanitizer).
#include <algorithm>
#include <cstring>

#include "lngrad_aicore/check.h"
#include "lngrad_reg/lane_init.h"
#include "lngrad_reg/ub_access.h"

namespace lngrad::reg::detail {
namespace {

// Lane i of a register of lanes of `bytes` bytes, as an unsigned integer.
uint64_t LaneValue(const void* reg, uint32_t bytes, uint32_t i) {
  uint64_t v = 0;
  std::memcpy(&v, static_cast<const uint8_t*>(reg) + uint64_t{i} * bytes, bytes);
  return v;
}

// v of `from` bytes, sign-extended to 64 bits.
uint64_t SignExtend(uint64_t v, uint32_t from) {
  const uint32_t shift = 64 - 8 * from;
  return from >= 8 ? v : static_cast<uint64_t>(static_cast<int64_t>(v << shift) >> shift);
}

// The base address of a gather or scatter: inside UB, 32-byte aligned (checked mode).
void RequireBase(const void* base, const char* api, aicore::SrcLoc loc) {
  uint8_t none = 0;
  LoadBytes(&none, base, 0, 32, api, loc);
}

}  // namespace

void GatherElements(void* reg, uint32_t laneBytes, const void* base, uint32_t elemBytes,
                    bool signedElem, const void* index, uint32_t indexBytes, const MaskReg& mask,
                    const char* api, aicore::SrcLoc loc) {
  if (t_unwritten_regs != 0) ForgetLanes(reg);  // the register is written
  RequireBase(base, api, loc);
  uint8_t out[kVectorBytes] = {};
  for (uint32_t i = 0; i < kVectorBytes / laneBytes; ++i) {
    if (!mask.Bit(i * laneBytes)) continue;
    const auto* at =
        static_cast<const uint8_t*>(base) + LaneValue(index, indexBytes, i) * elemBytes;
    uint64_t v = 0;
    LoadBytes(&v, at, elemBytes, elemBytes, api, loc);
    if (signedElem) v = SignExtend(v, elemBytes);
    std::memcpy(out + uint64_t{i} * laneBytes, &v, laneBytes);  // little-endian: the low bytes
  }
  std::memcpy(reg, out, kVectorBytes);
}

void ScatterElements(void* base, uint32_t elemBytes, const void* reg, uint32_t laneBytes,
                     const void* index, uint32_t indexBytes, const MaskReg& mask, const char* api,
                     aicore::SrcLoc loc) {
  if (t_unwritten_regs != 0) CheckLaneUse(reg, laneBytes, &mask);
  RequireBase(base, api, loc);
  for (uint32_t i = 0; i < kVectorBytes / laneBytes; ++i) {
    if (!mask.Bit(i * laneBytes)) continue;
    auto* at = static_cast<uint8_t*>(base) + LaneValue(index, indexBytes, i) * elemBytes;
    StoreBytes(at, static_cast<const uint8_t*>(reg) + uint64_t{i} * laneBytes, elemBytes, elemBytes,
               api, loc);
  }
}

void GatherBlocks(void* reg, const void* base, const uint32_t* index, const MaskReg& mask,
                  const char* api, aicore::SrcLoc loc) {
  if (t_unwritten_regs != 0) ForgetLanes(reg);  // the register is written
  RequireBase(base, api, loc);
  for (uint32_t b = 0; b < 8; ++b) {
    if (!mask.Lane<uint32_t>(b)) continue;
    LoadBytes(static_cast<uint8_t*>(reg) + 32 * b, static_cast<const uint8_t*>(base) + index[b], 32,
              32, api, loc);
  }
}

void FlushUnaligned(UnalignReg& ureg, const char* api, aicore::SrcLoc loc) {
  if (ureg.bytes != 0) StoreBytes(ureg.at, ureg.pending, ureg.bytes, 1, api, loc);
  ureg.bytes = 0;
  ureg.at = nullptr;
}

void StoreUnaligned(UnalignReg& ureg, void* dst, const void* src, uint32_t bytes,
                    uint32_t elemBytes, const char* api, aicore::SrcLoc loc) {
  auto* at = static_cast<uint8_t*>(dst);
  if (ureg.bytes != 0 && ureg.at + ureg.bytes != at) FlushUnaligned(ureg, api, loc);
  // The pending bytes and the new ones, from start.
  uint8_t* start = ureg.bytes != 0 ? ureg.at : at;
  uint8_t all[32 + kVectorBytes];
  std::memcpy(all, ureg.pending, ureg.bytes);
  std::memcpy(all + ureg.bytes, src, bytes);
  const uint32_t total = ureg.bytes + bytes;
  // Bytes up to the last 32-byte boundary of the UB that [start, start + total) reaches.
  const uintptr_t ub = reinterpret_cast<uintptr_t>(aicore::RequireBlockContext(api).ub);
  const uintptr_t endAddr = reinterpret_cast<uintptr_t>(start) - ub + total;
  const uint32_t tail = static_cast<uint32_t>(endAddr % 32);
  const uint32_t now = total >= tail ? total - tail : 0;
  if (now != 0) StoreBytes(start, all, now, elemBytes, api, loc);
  ureg.bytes = total - now;
  std::memcpy(ureg.pending, all + now, ureg.bytes);
  ureg.at = start + now;
}

uint32_t& SpecialAr() {
  thread_local uint32_t ar = 0;
  return ar;
}
uint32_t& SqueezedBytes() {
  thread_local uint32_t bytes = 0;
  return bytes;
}

}  // namespace lngrad::reg::detail
