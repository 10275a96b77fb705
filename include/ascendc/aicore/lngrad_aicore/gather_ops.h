// lngrad Ascend C runtime: Gather, Gatherb and GatherMask of the basic API.
//
// Gather: dst[i] = the T at byte srcBaseAddr + srcOffset[i] of src (Gather.md's model), for
// i < count (count form) or, in the repeat forms, for the active positions p of repeat r with
// i = r * L + p, dst element at byte r * dstRepStride * 32 + p * sizeof(T) (L = 256 /
// sizeof(T)). Offsets must keep the element aligned and inside the UB (always) and, in checked
// mode, inside src.
// Gatherb: for i < repeatTime, j < 8, the 32-byte block at byte offset[i * 8 + j] of src goes
// to data block i * dstRepStride + j * dstBlkStride of dst (dstBlkStride 0 counts as 1).
// Scatter (950, 310B, 310P AI Core; Scatter(ISASI).md): the element i of src goes to the byte
// dstBaseAddr + dstOffset[i] of dst, i < count (count form) or, in the repeat forms, i = r * L +
// p for the active positions p of repeat r, the src element at byte r * srcRepStride * 32 +
// p * sizeof(T). Offsets keep the element aligned and inside the UB (always); checked mode
// also keeps them inside dst, within the product's offset range (8-bit: < 2^16, 16-bit:
// < 2^17 on 950/310B) and pairwise different (duplicates are undefined on the device).
// GatherMask: the elements of src0 whose pattern bit is 1 are packed into dst in order; the
// pattern is a built-in one (1..7, the same for every repeat) or a tensor of bits, the bits of
// repeat r at src1Pattern + r * src1RepeatStride * 32 B. Normal mode (reduceMode false):
// repeatTimes repeats of L elements, and dst[kept, repeatTimes * L) is zeroed (the vendor's
// sample golden); Counter mode (true): repeatTimes repeats of `mask` elements each (the A2/A3
// "配置方式一"; more than L run on into the following blocks), nothing written past the kept
// ones. dst may be src0 (in place). rsvdCnt = the elements kept. Afterwards the mask register
// holds (0, mask) in Normal mode, as the vendor's implementation leaves it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mask.h"
#include "reduce_ops.h"
#include "sys.h"

namespace AscendC {

// The fields and constructor: DstStrideParams (mask.h).
struct GatherRepeatParams : lngrad::aicore::detail::DstStrideParams<uint8_t, uint16_t, uint8_t> {
  using DstStrideParams::DstStrideParams;
};

// Reserved by the vendor ("预留参数"); lngrad reads neither version.
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
inline constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;
inline constexpr GatherMaskMode defaultGahterMaskMode = defaultGatherMaskMode;

struct GatherMaskParams {
  GatherMaskParams() {}
  GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                   const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC

namespace lngrad::aicore::detail::rep {

namespace op_checks {
inline constexpr const char* kGatherPattern = "gather_pattern";  // built-in pattern not 1..7
}  // namespace op_checks

// Checks that `bytes` bytes at byte `offset` of src (offset = srcBaseAddr + srcOffset[i]) are
// an aligned element inside the UB (always) and inside src (checked mode).
void CheckGatherOffset(const char* api, const char* what, const TensorView& src, uint64_t offset,
                       uint32_t bytes, uint32_t align, uint64_t i);

template <typename T>
void GatherRun(const char* api, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint32_t>& offs,
               uint32_t base, const RepeatPlan& plan, uint32_t dst_rep, SrcLoc loc) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "Gather: T must be a 2-, 4- or 8-byte type");
  if (plan.Empty()) return;
  constexpr uint32_t L = kLanes<T>;
  // Offsets are consumed one per position: up to the last active one.
  const uint64_t elems = uint64_t{plan.repeats - 1} * L + plan.LastActive(plan.repeats - 1) + 1;
  const RepeatOperand d = SrcOperand(dst, 1, dst_rep, "dst", "dstBlkStride", "dstRepStride");
  CheckSource(api, plan, d);
  CheckOperand(api, "srcOffset", offs.View(), elems * 4, kBlockBytes,
               std::to_string(elems) + " offsets");
  CheckOperand(api, "src", src.View(), sizeof(T), kBlockBytes, "its first element");
  if (CheckedMode() && src.HostPtr() == dst.HostPtr()) {
    Raise(checks::kAddressOverlap, api, "dst and src are the same tensor, which Gather forbids");
  }
  const uint32_t* o = offs.HostPtr();
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    for (uint32_t p = 0; p < L; ++p) {
      if (plan.Active(r, p)) {
        const uint64_t i = uint64_t{r} * L + p;
        CheckGatherOffset(api, "srcBaseAddr + srcOffset", src.View(), uint64_t{base} + o[i],
                          sizeof(T), sizeof(T), i);
      }
    }
  }
  const auto* s = reinterpret_cast<const std::byte*>(src.HostPtr());
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    in.Read(offs.HostPtr(), elems * 4);
    Runs rd(in, false);
    for (uint32_t r = 0; r < plan.repeats; ++r) {
      for (uint32_t p = 0; p < L; ++p) {
        if (plan.Active(r, p)) rd.Add(s + base + o[uint64_t{r} * L + p], sizeof(T));
      }
    }
    rd.Flush();
    RecordActive(in, true, plan, d);
  }
  auto* out = const_cast<std::byte*>(d.view.ptr);
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    for (uint32_t p = 0; p < L; ++p) {
      if (!plan.Active(r, p)) continue;
      std::memcpy(out + d.Offset(r, p), s + base + o[uint64_t{r} * L + p], sizeof(T));
    }
  }
}

template <typename T>
void ScatterRun(const char* api, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint32_t>& offs,
                uint32_t base, const RepeatPlan& plan, uint32_t src_rep, SrcLoc loc) {
  RequireProduct(api, ArchBit::k2002 | ArchBit::k3002 | ArchBit::k3510,
                 "Ascend 950PR/950DT, Atlas 200I/500 A2 and the Atlas inference series AI Core",
                 loc);
  if (plan.Empty()) return;
  constexpr uint32_t L = kLanes<T>;
  const uint64_t elems = uint64_t{plan.repeats - 1} * L + plan.LastActive(plan.repeats - 1) + 1;
  const RepeatOperand s_op = SrcOperand(src, 1, src_rep);
  CheckSource(api, plan, s_op);
  CheckOperand(api, "dstOffset", offs.View(), elems * 4, kBlockBytes,
               std::to_string(elems) + " offsets");
  CheckOperand(api, "dst", dst.View(), sizeof(T), kBlockBytes, "its first element");
  const uint32_t* o = offs.HostPtr();
  const NpuArch arch = RunningArch();
  const uint64_t limit =
      sizeof(T) > 2 || arch == NpuArch::k2002 ? uint64_t{1} << 32 : uint64_t{1} << (15 + sizeof(T));
  std::vector<std::pair<uint64_t, uint64_t>> seen;  // (offset, element) for the duplicate rule
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    for (uint32_t p = 0; p < L; ++p) {
      if (!plan.Active(r, p)) continue;
      const uint64_t i = uint64_t{r} * L + p;
      if (CheckedMode() && o[i] >= limit) {
        Raise(op_checks::kGatherOffset, api,
              "dstOffset of element " + std::to_string(i) + " is " + std::to_string(o[i]) +
                  " B; for " + std::to_string(8 * sizeof(T)) +
                  "-bit operands on this product it must be below " + std::to_string(limit));
      }
      CheckGatherOffset(api, "dstBaseAddr + dstOffset", dst.View(), uint64_t{base} + o[i],
                        sizeof(T), sizeof(T), i);
      if (CheckedMode()) seen.emplace_back(o[i], i);
    }
  }
  if (CheckedMode()) {
    std::sort(seen.begin(), seen.end());
    for (size_t k = 1; k < seen.size(); ++k) {
      if (seen[k].first == seen[k - 1].first) {
        Raise(op_checks::kGatherOffset, api,
              "dstOffset of elements " + std::to_string(seen[k - 1].second) + " and " +
                  std::to_string(seen[k].second) + " are both " + std::to_string(seen[k].first) +
                  " B; the device's result is undefined when offsets repeat");
      }
    }
  }
  auto* d = reinterpret_cast<std::byte*>(const_cast<T*>(dst.HostPtr()));
  const auto* sp = s_op.view.ptr;
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    in.Read(offs.HostPtr(), elems * 4);
    RecordActive(in, false, plan, s_op);
    Runs wr(in, true);
    for (uint32_t r = 0; r < plan.repeats; ++r) {
      for (uint32_t p = 0; p < L; ++p) {
        if (plan.Active(r, p)) wr.Add(d + base + o[uint64_t{r} * L + p], sizeof(T));
      }
    }
    wr.Flush();
  }
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    for (uint32_t p = 0; p < L; ++p) {
      if (plan.Active(r, p)) {
        std::memcpy(d + base + o[uint64_t{r} * L + p], sp + s_op.Offset(r, p), sizeof(T));
      }
    }
  }
}

// The pattern bit of element p of repeat r: a built-in pattern (1..7) or the bits of the
// tensor pattern.
inline bool PatternBit(uint8_t builtin, const uint8_t* bits, uint64_t pitch, uint32_t r,
                       uint32_t p) {
  if (bits != nullptr) return ((bits[r * pitch + p / 8] >> (p % 8)) & 1u) != 0;
  switch (builtin) {
    case 1:
      return p % 2 == 0;
    case 2:
      return p % 2 == 1;
    case 3:
    case 4:
    case 5:
    case 6:
      return p % 4 == static_cast<uint32_t>(builtin - 3);
    default:
      return true;
  }
}

template <typename T, typename U>
void GatherMaskRun(const char* api, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<U>* pattern,
                   uint8_t builtin, bool reduce_mode, uint32_t mask,
                   const AscendC::GatherMaskParams& gp, uint64_t& rsvd_cnt, SrcLoc loc) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask: T must be a 2- or 4-byte type");
  constexpr uint32_t L = kLanes<T>;
  BlockContext& ctx = MaskContext(api);
  const bool checked = CheckedMode();
  if (pattern == nullptr && (builtin < 1 || builtin > 7)) {
    Raise(op_checks::kGatherPattern, api,
          "src1Pattern is " + std::to_string(builtin) + ", which must be in [1, 7]");
  }
  if (reduce_mode && mask == 0) {
    Raise(checks::kVectorMask, api, "mask is 0 in Counter mode (reduceMode true); it must be >= 1");
  }
  if (checked && gp.repeatTimes > 255) {
    Raise(checks::kRepeatTimes, api,
          "gatherMaskParams.repeatTimes is " + std::to_string(gp.repeatTimes) +
              ", which must be in [0, 255]");
  }
  // Elements per repeat: a whole repeat (Normal), or `mask` (Counter), which may run past 256 B
  // into the blocks that follow (the vendor's sample: mask 70 for uint32_t).
  const uint32_t per_repeat = reduce_mode ? mask : L;
  const uint32_t repeats = gp.repeatTimes;
  const RepeatOperand s = SrcOperand(src0, gp.src0BlockStride, gp.src0RepeatStride, "src0",
                                     "src0BlockStride", "src0RepeatStride");
  uint64_t src_extent = 0;
  if (repeats != 0) {
    for (uint32_t p = 0; p < per_repeat; ++p) {
      src_extent = std::max<uint64_t>(src_extent, s.Offset(repeats - 1, p) + sizeof(T));
    }
  }
  CheckOperand(api, "src0", src0.View(), src_extent, kBlockBytes,
               std::to_string(repeats) + " repeat(s) of " + std::to_string(per_repeat) +
                   " elements, src0BlockStride " + std::to_string(gp.src0BlockStride) +
                   ", src0RepeatStride " + std::to_string(gp.src0RepeatStride));
  const uint64_t pitch = uint64_t{gp.src1RepeatStride} * kBlockBytes;
  const uint8_t* bits = nullptr;
  const uint64_t pattern_row = (uint64_t{per_repeat} + 7) / 8;
  if (pattern != nullptr && repeats != 0) {
    CheckOperand(api, "src1Pattern", pattern->View(), (repeats - 1) * pitch + pattern_row,
                 kBlockBytes,
                 std::to_string(repeats) + " repeat(s), src1RepeatStride " +
                     std::to_string(gp.src1RepeatStride));
    bits = reinterpret_cast<const uint8_t*>(pattern->HostPtr());
  }
  uint64_t kept = 0;
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t p = 0; p < per_repeat; ++p) kept += PatternBit(builtin, bits, pitch, r, p);
  }
  // Normal mode writes the whole processed range: the kept elements, then zeros (the vendor's
  // sample golden); Counter mode writes the kept elements only.
  const uint64_t written = reduce_mode ? kept : std::max<uint64_t>(kept, uint64_t{repeats} * L);
  CheckOperand(api, "dst", dst.View(), written * sizeof(T), kBlockBytes,
               std::to_string(kept) + " elements kept" + (reduce_mode ? "" : ", zeros after"));
  // In place (dst == src0) works: element k is written after every element up to k is read.
  if (dst.HostPtr() != src0.HostPtr()) {
    CheckDisjoint(api, "dst", dst.View(), written * sizeof(T), "src0", src0.View(), src_extent);
  }
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    Runs rd(in, false);
    for (uint32_t r = 0; r < repeats; ++r) {
      for (uint32_t p = 0; p < per_repeat; ++p) rd.Add(s.view.ptr + s.Offset(r, p), sizeof(T));
    }
    rd.Flush();
    if (bits != nullptr) in.ReadBlocks(bits, repeats, pattern_row, pitch);
    in.Write(dst.HostPtr(), written * sizeof(T));
  }
  auto* out = reinterpret_cast<std::byte*>(dst.HostPtr());
  uint64_t k = 0;
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t p = 0; p < per_repeat; ++p) {
      if (!PatternBit(builtin, bits, pitch, r, p)) continue;
      std::memmove(out + k * sizeof(T), s.view.ptr + s.Offset(r, p), sizeof(T));
      ++k;
    }
  }
  if (written > kept) std::memset(out + kept * sizeof(T), 0, (written - kept) * sizeof(T));
  rsvd_cnt = kept;
  ctx.mask_high = 0;
  ctx.mask_low = mask;
  ctx.mask_counter = false;
}

}  // namespace lngrad::aicore::detail::rep

namespace AscendC {

// ---- Gather, Scatter ----

// The count form, then the bit-wise and continuous mask forms of Gather and Scatter: they differ
// in the run, the names of the offset operands and the type and name of the repeat stride.
// MIN_BYTES: the smallest element size the mask forms take (Scatter: 8-bit operands have only
// the count form, Scatter(ISASI).md).
#define LNGRAD_OFFSET_MASK_FORM(NAME, RUN, OFFSET, BASE, STRIDE_TYPE, STRIDE, MIN_BYTES,           \
                                MASK_TYPE)                                                         \
  template <typename T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                  \
            const LocalTensor<uint32_t>& OFFSET, const uint32_t BASE, MASK_TYPE,                   \
            const uint8_t repeatTime, const STRIDE_TYPE STRIDE,                                    \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    static_assert(sizeof(T) >= MIN_BYTES, #NAME ": 8-bit operands have only the count form");      \
    namespace r = lngrad::aicore::detail::rep;                                                     \
    r::RUN(#NAME, dst, src, OFFSET, BASE, r::Plan<T, true>(#NAME, mask, repeatTime), STRIDE, loc); \
  }
#define LNGRAD_OFFSET_FORMS(NAME, RUN, OFFSET, BASE, STRIDE_TYPE, STRIDE, MIN_BYTES)        \
  template <typename T>                                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                           \
            const LocalTensor<uint32_t>& OFFSET, const uint32_t BASE, const uint32_t count, \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {               \
    namespace r = lngrad::aicore::detail::rep;                                              \
    const lngrad::aicore::detail::RepeatPlan plan = r::CountPlan<T>(#NAME, count);          \
    r::RUN(#NAME, dst, src, OFFSET, BASE, plan, 8, loc);                                    \
  }                                                                                         \
  LNGRAD_OFFSET_MASK_FORM(NAME, RUN, OFFSET, BASE, STRIDE_TYPE, STRIDE, MIN_BYTES,          \
                          const uint64_t mask[])                                            \
  LNGRAD_OFFSET_MASK_FORM(NAME, RUN, OFFSET, BASE, STRIDE_TYPE, STRIDE, MIN_BYTES,          \
                          const uint64_t mask)
LNGRAD_OFFSET_FORMS(Gather, GatherRun, srcOffset, srcBaseAddr, uint16_t, dstRepStride, 1)
LNGRAD_OFFSET_FORMS(Scatter, ScatterRun, dstOffset, dstBaseAddr, uint8_t, srcRepStride, 2)
#undef LNGRAD_OFFSET_FORMS
#undef LNGRAD_OFFSET_MASK_FORM

// ---- Gatherb ----

template <typename T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
             const GatherRepeatParams& repeatParams,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace r = lngrad::aicore::detail::rep;
  const char* api = "Gatherb";
  if (repeatTime == 0) return;
  const uint64_t blk =
      uint64_t{repeatParams.dstBlkStride == 0 ? 1u : repeatParams.dstBlkStride} * r::kBlockBytes;
  const uint64_t rep = uint64_t{repeatParams.dstRepStride} * r::kBlockBytes;
  const uint64_t n = uint64_t{repeatTime} * 8;
  r::CheckOperand(api, "offset", offset.View(), n * 4, r::kBlockBytes,
                  "repeatTime " + std::to_string(repeatTime) + ", 8 offsets each");
  r::CheckOperand(api, "dst", dst.View(), (repeatTime - 1) * rep + 7 * blk + r::kBlockBytes,
                  r::kBlockBytes,
                  "repeatTime " + std::to_string(repeatTime) + ", dstRepStride " +
                      std::to_string(repeatParams.dstRepStride) + ", dstBlkStride " +
                      std::to_string(repeatParams.dstBlkStride));
  r::CheckOperand(api, "src", src.View(), r::kBlockBytes, r::kBlockBytes, "its first block");
  if (lngrad::aicore::CheckedMode() && src.HostPtr() == dst.HostPtr()) {
    r::Raise(lngrad::aicore::checks::kAddressOverlap, api,
             "dst and src are the same tensor, which Gatherb forbids");
  }
  const uint32_t* o = offset.HostPtr();
  for (uint64_t i = 0; i < n; ++i) r::CheckGatherOffset(api, "offset", src.View(), o[i], 32, 32, i);
  const auto* s = reinterpret_cast<const std::byte*>(src.HostPtr());
  auto* d = reinterpret_cast<std::byte*>(dst.HostPtr());
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, api, loc);
  if (in) {
    in.Read(offset.HostPtr(), n * 4);
    r::Runs rd(in, false);
    for (uint64_t i = 0; i < n; ++i) rd.Add(s + o[i], 32);
    rd.Flush();
    r::Runs wr(in, true);
    for (uint32_t i = 0; i < repeatTime; ++i) {
      for (uint32_t j = 0; j < 8; ++j) wr.Add(d + i * rep + j * blk, 32);
    }
  }
  for (uint32_t i = 0; i < repeatTime; ++i) {
    for (uint32_t j = 0; j < 8; ++j) std::memcpy(d + i * rep + j * blk, s + o[i * 8 + j], 32);
  }
}

// ---- GatherMask ----

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(sizeof(U) == sizeof(T),
                "GatherMask: src1Pattern's type must have T's size (uint16_t / uint32_t)");
  lngrad::aicore::detail::rep::GatherMaskRun("GatherMask", dst, src0, &src1Pattern, 0, reduceMode,
                                             mask, gatherMaskParams, rsvdCnt, loc);
}

template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::rep::GatherMaskRun<T, T>("GatherMask", dst, src0, nullptr, src1Pattern,
                                                   reduceMode, mask, gatherMaskParams, rsvdCnt,
                                                   loc);
}

}  // namespace AscendC
