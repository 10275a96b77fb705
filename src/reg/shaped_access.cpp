// lngrad register API: the shaped register loads and the data-block loads and stores
// (lngrad_reg/ub_access.h), on top of LoadBytes and StoreLanes.
#include <cstring>

#include "lngrad_reg/lane_init.h"
#include "lngrad_reg/ub_access.h"

namespace lngrad::reg::detail {
namespace {

struct ShapeSpan {
  uint32_t bytes;  // read from UB
  uint32_t align;  // the reference's alignment of the address
};
ShapeSpan SpanOf(LoadShape shape, uint32_t elem) {
  switch (shape) {
    case LoadShape::kBroadcast:
      return {elem, elem};
    case LoadShape::kUpsample:
    case LoadShape::kUnpack:
      return {kVectorBytes / 2, 32};
    case LoadShape::kDownsample:
      return {2 * kVectorBytes, 32};
    case LoadShape::kUnpack4:
      return {kVectorBytes / 4, 32};
    case LoadShape::kBlock:
      return {32, 32};
    case LoadShape::kElemToBlock:
      return {kVectorBytes / 32 * elem, kVectorBytes / 32 * elem};
    default:
      return {kVectorBytes, 32};
  }
}

// The loaded element that register element k gets, or -1 for a zero element.
int64_t SourceOf(LoadShape shape, uint32_t k, uint32_t elem) {
  switch (shape) {
    case LoadShape::kBroadcast:
      return 0;
    case LoadShape::kUpsample:
      return k / 2;
    case LoadShape::kDownsample:
      return 2 * int64_t{k};
    case LoadShape::kUnpack:
      return k % 2 == 0 ? int64_t{k / 2} : -1;
    case LoadShape::kUnpack4:
      return k % 4 == 0 ? int64_t{k / 4} : -1;
    case LoadShape::kBlock:
      return k % (32 / elem);
    case LoadShape::kElemToBlock:
      return k / (32 / elem);
    default:
      return k;
  }
}

}  // namespace

void LoadShaped(void* reg, const void* src, LoadShape shape, uint32_t elem, const char* api,
                aicore::SrcLoc loc) {
  if (t_unwritten_regs != 0) ForgetLanes(reg);  // the register is written
  const ShapeSpan span = SpanOf(shape, elem);
  std::byte loaded[2 * kVectorBytes];
  LoadBytes(loaded, src, span.bytes, span.align, api, loc);
  auto* out = static_cast<std::byte*>(reg);
  for (uint32_t k = 0; k < kVectorBytes / elem; ++k) {
    const int64_t from = SourceOf(shape, k, elem);
    if (from < 0) {
      std::memset(out + k * elem, 0, elem);
    } else {
      std::memcpy(out + k * elem, loaded + from * elem, elem);
    }
  }
}

namespace {
// The lanes of block b of mask, moved to lanes 0 ... 32 / laneBytes - 1.
MaskReg BlockMask(const MaskReg& mask, uint32_t b) {
  MaskReg m;
  for (uint32_t k = 0; k < 32; ++k) m.SetBit(k, mask.Bit(b * 32 + k));
  return m;
}
bool AnyLane(const MaskReg& m, uint32_t laneBytes) {
  for (uint32_t i = 0; i < 32 / laneBytes; ++i) {
    if (m.Bit(i * laneBytes)) return true;
  }
  return false;
}
}  // namespace

void LoadBlocks(void* reg, const void* src, uint32_t laneBytes, const MaskReg& mask,
                uint32_t blockStride, const char* api, aicore::SrcLoc loc) {
  if (t_unwritten_regs != 0) ForgetLanes(reg);  // the register is written
  auto* out = static_cast<std::byte*>(reg);
  std::memset(out, 0, kVectorBytes);
  for (uint32_t b = 0; b < kVectorBytes / 32; ++b) {
    const MaskReg m = BlockMask(mask, b);
    if (!AnyLane(m, laneBytes)) continue;
    std::byte block[32];
    LoadBytes(block, static_cast<const std::byte*>(src) + uint64_t{b} * blockStride * 32, 32, 32,
              api, loc);
    for (uint32_t i = 0; i < 32 / laneBytes; ++i) {
      if (m.Bit(i * laneBytes))
        std::memcpy(out + b * 32 + i * laneBytes, block + i * laneBytes, laneBytes);
    }
  }
}

void StoreBlocks(void* dst, const void* reg, uint32_t laneBytes, const MaskReg& mask,
                 uint32_t blockStride, const char* api, aicore::SrcLoc loc) {
  if (t_unwritten_regs != 0) CheckLaneUse(reg, laneBytes, &mask);
  const auto* in = static_cast<const std::byte*>(reg);
  for (uint32_t b = 0; b < kVectorBytes / 32; ++b) {
    const MaskReg m = BlockMask(mask, b);
    if (!AnyLane(m, laneBytes)) continue;
    std::byte block[kVectorBytes] = {};
    std::memcpy(block, in + b * 32, 32);
    StoreLanes(static_cast<std::byte*>(dst) + uint64_t{b} * blockStride * 32, block, laneBytes, m,
               32, api, loc);
  }
}

}  // namespace lngrad::reg::detail
