// lngrad Ascend C runtime: the vector mask register and the repeat ("tensor 高维切分") forms of
// the vector instructions: BinaryRepeatParams, UnaryRepeatParams, SetVectorMask, SetMaskCount,
// SetMaskNorm, ResetMask, MASK_PLACEHOLDER, and the one place that decides, for every repeat,
// which elements of each operand an instruction touches (detail::RepeatPlan, ForEachRun).
//
// The model (vendor docs, SIMD 计算说明 → 掩码 / 高维切分, and the 2201 implementation):
// - One repeat reads 8 data blocks of 32 B per operand. Element position p of a repeat
//   (p < lanes = 256 / sizeof(mask type)) lies in block p / (32 / sizeof(T)) of its operand, at
//   base + (r * repStride + block * blkStride) * 32 B. Strides are in 32-byte blocks.
// - Each block has one mask register (128 bits, maskHigh:maskLow) and a mode. Normal mode: bit p
//   enables position p of every repeat (16-bit types use all 128 bits, 32-bit types maskLow
//   only); repeatTime repeats run. Counter mode: maskLow is the number of elements of the whole
//   instruction; repeatTime is ignored and the elements fill repeat after repeat.
// - A mask/repeat form with isSetMask = true writes its mask into the register first (and it
//   stays there, as on the device); with isSetMask = false it uses the register as it is (the
//   mask argument is MASK_PLACEHOLDER). The continuous form (uint64_t mask) sets the first `mask`
//   bits (at most one repeat), the bit-wise form (uint64_t mask[2]) sets maskHigh = mask[1],
//   maskLow = mask[0].
// - Count forms (Add(dst, a, b, count)) run in Counter mode and leave the register full and the
//   mode Normal, as the vendor's implementation does.
// - A mask of 0 (Normal) or a count of 0 (Counter) or repeatTime 0 is a no-op.
// - Masked-off lanes are neither read nor written.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "check.h"
#include "constants.h"
#include "sanitizer.h"
#include "tensor.h"

namespace lngrad::aicore::checks {
inline constexpr const char* kRepeatTimes = "repeat_times";    // repeatTime outside [0, 255]
inline constexpr const char* kVectorStride = "vector_stride";  // a forbidden block stride
inline constexpr const char* kVectorMask = "vector_mask";      // a mask outside its range
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::detail {
// The fields of the two-source repeat parameters (BinaryRepeatParams, GatherRepeatParams,
// BrcbRepeatParams), strides in 32-byte blocks; the three differ in the widths of dstBlkStride
// (DstBlk) and dstRepStride (DstRep). blockNumber, repeatStrideMode and strideSizeMode are the
// vendor's fields; the instructions modelled here do not read them.
template <typename DstBlk, typename DstRep>
struct BinaryStrideFields {
  BinaryStrideFields() = default;
  BinaryStrideFields(const DstBlk dstBlkStrideIn, const uint8_t src0BlkStrideIn,
                     const uint8_t src1BlkStrideIn, const DstRep dstRepStrideIn,
                     const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        src0BlkStride(src0BlkStrideIn),
        src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn),
        src0RepStride(src0RepStrideIn),
        src1RepStride(src1RepStrideIn) {}

  uint32_t blockNumber = AscendC::DEFAULT_BLK_NUM;
  DstBlk dstBlkStride = AscendC::DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = AscendC::DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = AscendC::DEFAULT_BLK_STRIDE;
  DstRep dstRepStride = AscendC::DEFAULT_REPEAT_STRIDE;
  uint8_t src0RepStride = AscendC::DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = AscendC::DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};
// GatherRepeatParams and BrcbRepeatParams: the same fields, constructed from the destination's
// strides alone (Arg: the constructor's parameter type).
template <typename DstBlk, typename DstRep, typename Arg>
struct DstStrideParams : BinaryStrideFields<DstBlk, DstRep> {
  DstStrideParams() = default;
  DstStrideParams(const Arg dstBlkStrideIn, const Arg dstRepStrideIn) {
    this->dstBlkStride = dstBlkStrideIn;
    this->dstRepStride = dstRepStrideIn;
  }
};
}  // namespace lngrad::aicore::detail

namespace AscendC {

inline constexpr uint64_t MASK_PLACEHOLDER = 0;
inline constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

// Strides of a two-source instruction, in 32-byte blocks (the fields: BinaryStrideFields).
struct BinaryRepeatParams : lngrad::aicore::detail::BinaryStrideFields<uint8_t, uint8_t> {
  using BinaryStrideFields::BinaryStrideFields;
};

// Strides of a one-source instruction (and of the scalar forms), in 32-byte blocks. halfBlock
// is the vendor's field; not read here.
struct UnaryRepeatParams {
  UnaryRepeatParams() {}
  UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                    const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn)
      : UnaryRepeatParams(dstBlkStrideIn, srcBlkStrideIn, dstRepStrideIn, srcRepStrideIn, false) {}
  UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                    const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn,
                    const bool halfBlockIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn),
        halfBlock(halfBlockIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
  bool halfBlock = false;
};

}  // namespace AscendC

namespace lngrad::aicore::detail {

// The register bits the continuous form `mask = len` sets for elements of `elem_size` bytes
// (the vendor's AscendCUtils::SetMask(len)): the first len bits, a whole repeat from
// 256 / elem_size or 128 on. len < 0 is undefined on the device: no bits here.
struct MaskBits {
  uint64_t high = 0;
  uint64_t low = 0;
};
MaskBits ContinuousMaskBits(int64_t len, uint32_t elem_size) noexcept;

// The running block's mask register (raises kOutsideLaunch like every kernel API).
BlockContext& MaskContext(const char* api);
// After a count form: full mask, Normal mode.
inline void RestoreMaskAfterCount(BlockContext& ctx) noexcept {
  ctx.mask_low = ~uint64_t{0};
  ctx.mask_high = ~uint64_t{0};
  ctx.mask_counter = false;
}

// How a mask/repeat form got its mask.
struct MaskArg {
  enum Kind : uint8_t { kBits, kLen, kRegister } kind = kRegister;
  uint64_t high = 0;  // kBits: mask[1]
  uint64_t low = 0;   // kBits: mask[0]; kLen: the continuous mask
};
inline MaskArg BitsMaskArg(const uint64_t mask[], bool is_set_mask) {
  if (!is_set_mask) return {};
  return {MaskArg::kBits, mask[1], mask[0]};
}
inline MaskArg LenMaskArg(uint64_t mask, bool is_set_mask) {
  if (!is_set_mask) return {};
  return {MaskArg::kLen, 0, mask};
}

// Which positions of which repeats run.
struct RepeatPlan {
  uint32_t lanes = 0;    // positions per repeat: 256 / sizeof(mask type)
  uint32_t repeats = 0;  // repeats that touch anything
  bool counter = false;
  uint64_t bits[2] = {0, 0};  // Normal mode: position p runs iff bit p (p < lanes)
  uint64_t count = 0;         // Counter mode: elements in all

  bool Empty() const noexcept { return repeats == 0; }
  bool Active(uint32_t r, uint32_t p) const noexcept {
    if (counter) return uint64_t{r} * lanes + p < count;
    return (bits[p >> 6] >> (p & 63)) & 1u;
  }
  // Highest active position of repeat r (the repeat must have one).
  uint32_t LastActive(uint32_t r) const noexcept;
};

// Reads (isSetMask = true: first writes) the block's mask register and resolves what runs.
// mask_elem_size: the element size the mask counts (the wider operand of a Cast). Checks
// repeatTime in [0, 255] (checks::kRepeatTimes, naming `repeatTime`) in checked mode; unchecked
// it is taken modulo 256 like the device's 8-bit operand. Checks a continuous mask < 0 or a
// count above 2^32 the same way (kVectorMask).
RepeatPlan PlanRepeats(const char* api, uint32_t mask_elem_size, const MaskArg& mask,
                       int64_t repeat_time);

// One operand of a mask/repeat instruction.
struct RepeatOperand {
  TensorView view;
  uint32_t elem_size = 0;
  uint32_t blk_stride = 1;  // 32-byte blocks between the blocks of one repeat
  uint32_t rep_stride = 8;  // 32-byte blocks between the starts of consecutive repeats
  const char* name = "";    // "dst", "src0", ...
  const char* blk_name = "";
  const char* rep_name = "";
  bool is_dst = false;

  uint32_t PerBlock() const noexcept { return 32 / elem_size; }
  // Byte offset of position p of repeat r from the operand's element 0.
  uint64_t Offset(uint32_t r, uint32_t p) const noexcept {
    const uint32_t per = PerBlock();
    return (uint64_t{r} * rep_stride + uint64_t{p / per} * blk_stride) * 32u +
           uint64_t{p % per} * elem_size;
  }
};

// The rules of a mask/repeat form (raise KernelCheckError naming the parameter):
// - always: every active element lies inside the block's UB (kUbBounds);
// - checked mode: every active element lies inside its tensor (kTensorBounds); operands 32-byte
//   aligned (kUbAlignment); dstBlkStride != 0 (kVectorStride); address overlap (kAddressOverlap):
//   within one repeat a source and the destination are identical or disjoint, and no repeat
//   reads what an earlier repeat wrote, except (accumulate_src1) src1 and dst when src1RepStride
//   or dstRepStride is 0 (the vendor's exception for Add, Sub, Mul, Max, Min on half, float and
//   int32). Overlap is judged by 32-byte blocks holding active elements.
// ops[0] is the destination.
void CheckRepeatOperands(const char* api, const RepeatPlan& plan, const RepeatOperand* ops,
                         uint32_t n_ops, bool accumulate_src1 = false);

// Calls f(ptrs, n) for runs of active elements in execution order (repeat by repeat, position
// by position): ptrs[i] = host address of the run's first element in operand i, n elements,
// each operand's run contiguous in memory. Neighbouring runs that continue every operand
// contiguously are merged, so a full mask with dense strides gives one call.
template <size_t N, class F>
void ForEachRun(const RepeatPlan& plan, const std::array<const RepeatOperand*, N>& ops, F&& f) {
  if (plan.Empty()) return;
  // Split runs where a block ends in an operand whose blocks are not back to back.
  uint32_t split = plan.lanes;
  for (const RepeatOperand* op : ops) {
    if (op->blk_stride != 1 && op->PerBlock() < split) split = op->PerBlock();
  }
  std::array<std::byte*, N> pend{};
  uint64_t pend_n = 0;
  auto emit = [&](uint32_t r, uint32_t p0, uint32_t n) {
    std::array<std::byte*, N> at;
    bool extends = pend_n != 0;
    for (size_t i = 0; i < N; ++i) {
      at[i] = const_cast<std::byte*>(ops[i]->view.ptr) + ops[i]->Offset(r, p0);
      if (extends && at[i] != pend[i] + pend_n * ops[i]->elem_size) extends = false;
    }
    if (extends) {
      pend_n += n;
      return;
    }
    if (pend_n != 0) f(pend, pend_n);
    pend = at;
    pend_n = n;
  };
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    uint32_t p = 0;
    while (p < plan.lanes) {
      if (!plan.Active(r, p)) {
        ++p;
        continue;
      }
      uint32_t q = p + 1;
      const uint32_t limit = std::min((p / split + 1) * split, plan.lanes);
      while (q < limit && plan.Active(r, q)) ++q;
      emit(r, p, q - p);
      p = q;
    }
  }
  if (pend_n != 0) f(pend, pend_n);
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

// Sets the mask register. Normal mode: the bit-wise mask (16-bit types: all 128 bits; 32-bit
// types: maskLow). Counter mode: maskLow is the element count, maskHigh must be 0.
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(
    const uint64_t maskHigh, const uint64_t maskLow,
    [[maybe_unused]] lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::BlockContext& ctx = lngrad::aicore::detail::MaskContext("SetVectorMask");
  ctx.mask_high = maskHigh;
  ctx.mask_low = maskLow;
}

// Normal mode (mode NORMAL): the first len elements of each repeat; Counter mode (mode COUNTER):
// len elements in all.
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(
    int32_t len, [[maybe_unused]] lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::BlockContext& ctx = lngrad::aicore::detail::MaskContext("SetVectorMask");
  if constexpr (mode == MaskMode::COUNTER) {
    ctx.mask_high = 0;
    ctx.mask_low = static_cast<uint64_t>(static_cast<int64_t>(len));
  } else {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                  "SetVectorMask: lngrad models the mask of 2- and 4-byte types");
    const lngrad::aicore::detail::MaskBits b =
        lngrad::aicore::detail::ContinuousMaskBits(len, sizeof(T));
    ctx.mask_high = b.high;
    ctx.mask_low = b.low;
  }
}

// Every bit set (every element of a repeat runs).
inline void ResetMask(
    [[maybe_unused]] lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::BlockContext& ctx = lngrad::aicore::detail::MaskContext("ResetMask");
  ctx.mask_high = ~uint64_t{0};
  ctx.mask_low = ~uint64_t{0};
}

inline void SetMaskCount(
    [[maybe_unused]] lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::MaskContext("SetMaskCount").mask_counter = true;
}

inline void SetMaskNorm(
    [[maybe_unused]] lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::MaskContext("SetMaskNorm").mask_counter = false;
}

}  // namespace AscendC
