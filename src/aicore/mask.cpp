// The vector mask register and the operand rules of the mask/repeat instruction forms (mask.h).
#include "lngrad_aicore/mask.h"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "lngrad_aicore/data_copy.h"

namespace lngrad::aicore::detail {
namespace {

constexpr uint64_t kFull = ~uint64_t{0};
// Counter mode: larger counts cannot describe any UB (and would loop for ever with strides 0).
constexpr uint64_t kMaxCounterCount = uint64_t{1} << 32;

std::string Str(uint64_t v) { return std::to_string(v); }

// UB byte offset just past the last active element of `op`.
uint64_t ActiveEnd(const RepeatPlan& plan, const RepeatOperand& op) {
  uint64_t end = 0;
  // Offsets grow with the repeat and the position, so the last active element of the last
  // repeat is the farthest, except in Counter mode, where the last repeat may be partial and a
  // full repeat before it reach farther (block stride larger than repeat stride).
  for (uint32_t k = 0; k < 2 && k < plan.repeats; ++k) {
    const uint32_t r = plan.repeats - 1 - k;
    end = std::max(end, op.Offset(r, plan.LastActive(r)) + op.elem_size);
    if (!plan.counter) break;
  }
  return end;
}

// UB block indices (32-byte units from UB byte 0) of repeat r that hold an active element.
uint32_t ActiveBlocks(const RepeatPlan& plan, const RepeatOperand& op, uint32_t r, int64_t out[8]) {
  const uint32_t per = op.PerBlock();
  const int64_t first = (op.view.ptr - op.view.ub) / 32;
  uint32_t n = 0;
  for (uint32_t b = 0; b * per < plan.lanes && n < 8; ++b) {
    bool any = false;
    for (uint32_t p = b * per; p < (b + 1) * per && p < plan.lanes && !any; ++p) {
      any = plan.Active(r, p);
    }
    if (any) out[n++] = first + int64_t{r} * op.rep_stride + int64_t{b} * op.blk_stride;
  }
  return n;
}

std::string BlockBytes(int64_t block) {
  return "[" + std::to_string(block * 32) + ", " + std::to_string(block * 32 + 32) + ")";
}

void CheckPairOverlap(const char* api, const RepeatPlan& plan, const RepeatOperand& dst,
                      const RepeatOperand& src, bool accumulate_ok) {
  const std::byte* d0 = dst.view.ptr;
  const std::byte* s0 = src.view.ptr;
  const uint64_t d_end = ActiveEnd(plan, dst);
  const uint64_t s_end = ActiveEnd(plan, src);
  if (!(d0 < s0 + s_end && s0 < d0 + d_end)) return;
  const bool identical = d0 == s0 && dst.elem_size == src.elem_size &&
                         dst.blk_stride == src.blk_stride && dst.rep_stride == src.rep_stride;
  const uint32_t blocks = (plan.lanes + dst.PerBlock() - 1) / dst.PerBlock();
  const uint64_t span = uint64_t{blocks - 1} * dst.blk_stride + 1;
  // The usual in-place call: the same element mapping and repeats that do not meet.
  if (identical && (plan.repeats <= 1 || dst.rep_stride >= span)) return;

  int64_t db[8];
  int64_t sb[8];
  if (!identical) {
    for (uint32_t r = 0; r < plan.repeats; ++r) {
      const uint32_t nd = ActiveBlocks(plan, dst, r, db);
      const uint32_t ns = ActiveBlocks(plan, src, r, sb);
      for (uint32_t i = 0; i < nd; ++i) {
        for (uint32_t j = 0; j < ns; ++j) {
          if (db[i] != sb[j]) continue;
          RaiseKernelCheck(checks::kAddressOverlap,
                           std::string(api) + ": within repeat " + Str(r) + ", " + dst.name +
                               " and " + src.name + " both use UB bytes " + BlockBytes(db[i]) +
                               " with different element layouts; within one repeat a source "
                               "must be identical to the destination (same address and "
                               "strides) or disjoint from it");
        }
      }
    }
  }
  if (accumulate_ok) return;
  // Earliest repeat writing each block of the overlapping range; a later repeat must not read it.
  const int64_t lo = (std::min(d0, s0) - dst.view.ub) / 32;
  const int64_t hi = (std::max(d0 + d_end, s0 + s_end) - dst.view.ub + 31) / 32;
  std::vector<int32_t> first_write(static_cast<size_t>(hi - lo), INT32_MAX);
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    const uint32_t nd = ActiveBlocks(plan, dst, r, db);
    for (uint32_t i = 0; i < nd; ++i) {
      int32_t& w = first_write[static_cast<size_t>(db[i] - lo)];
      w = std::min(w, static_cast<int32_t>(r));
    }
  }
  for (uint32_t s = 1; s < plan.repeats; ++s) {
    const uint32_t ns = ActiveBlocks(plan, src, s, sb);
    for (uint32_t j = 0; j < ns; ++j) {
      const int32_t w = first_write[static_cast<size_t>(sb[j] - lo)];
      if (w >= static_cast<int32_t>(s)) continue;
      RaiseKernelCheck(checks::kAddressOverlap,
                       std::string(api) + ": repeat " + Str(s) + " reads " + src.name +
                           " at UB bytes " + BlockBytes(sb[j]) + ", which repeat " + Str(w) +
                           " wrote as " + dst.name + " (" + dst.rep_name + " " +
                           Str(dst.rep_stride) + ", " + src.rep_name + " " + Str(src.rep_stride) +
                           "); a repeat's destination must not be a later repeat's source");
    }
  }
}

}  // namespace

MaskBits ContinuousMaskBits(int64_t len, uint32_t elem_size) noexcept {
  const int64_t type_len = 256 / elem_size;
  if (len <= 0) return {0, 0};
  if (len == 64) return {0, kFull};
  if (len == type_len || len >= 128) return {kFull, kFull};
  if (len > 64) return {(uint64_t{1} << (len - 64)) - 1, kFull};
  return {0, (uint64_t{1} << len) - 1};
}

BlockContext& MaskContext(const char* api) { return RequireBlockContext(api); }

uint32_t RepeatPlan::LastActive(uint32_t r) const noexcept {
  if (counter) {
    const uint64_t left = count - uint64_t{r} * lanes;
    return left >= lanes ? lanes - 1 : static_cast<uint32_t>(left - 1);
  }
  if (bits[1] != 0) return 127u - static_cast<uint32_t>(std::countl_zero(bits[1]));
  return 63u - static_cast<uint32_t>(std::countl_zero(bits[0]));
}

RepeatPlan PlanRepeats(const char* api, uint32_t mask_elem_size, const MaskArg& mask,
                       int64_t repeat_time) {
  BlockContext& ctx = MaskContext(api);
  const bool checked = CheckedMode();
  if (checked && (repeat_time < 0 || repeat_time > AscendC::MAX_REPEAT_TIMES)) {
    RaiseKernelCheck(checks::kRepeatTimes,
                     std::string(api) + ": repeatTime is " + std::to_string(repeat_time) +
                         "; it must be in [0, 255] (the device's 8-bit operand would run " +
                         std::to_string(static_cast<uint64_t>(repeat_time) & 0xFFu) + " repeats)");
  }
  if (mask.kind == MaskArg::kLen) {
    const int32_t len = static_cast<int32_t>(mask.low);  // the vendor passes it as int32_t
    if (checked && len < 0) {
      RaiseKernelCheck(checks::kVectorMask,
                       std::string(api) + ": mask is " + std::to_string(len) +
                           " (as int32_t); the continuous mask must be >= 0 (negative is "
                           "undefined on the device)");
    }
    const MaskBits b = ContinuousMaskBits(len, mask_elem_size);
    ctx.mask_high = b.high;
    ctx.mask_low = b.low;
  } else if (mask.kind == MaskArg::kBits) {
    ctx.mask_high = mask.high;
    ctx.mask_low = mask.low;
  }
  RepeatPlan plan;
  plan.lanes = 256 / mask_elem_size;
  if (ctx.mask_counter) {
    plan.counter = true;
    plan.count = ctx.mask_low;
    if (plan.count > kMaxCounterCount) {
      RaiseKernelCheck(checks::kVectorMask,
                       std::string(api) + ": Counter mode with " + Str(plan.count) +
                           " elements (the mask register's low word); at most 2^32 are modelled");
    }
    plan.repeats = static_cast<uint32_t>((plan.count + plan.lanes - 1) / plan.lanes);
    return plan;
  }
  plan.bits[0] = ctx.mask_low;
  plan.bits[1] = plan.lanes > 64 ? ctx.mask_high : 0;
  if (plan.lanes < 64) plan.bits[0] &= (uint64_t{1} << plan.lanes) - 1;
  const bool any = (plan.bits[0] | plan.bits[1]) != 0;
  plan.repeats = any ? static_cast<uint32_t>(static_cast<uint64_t>(repeat_time) & 0xFFu) : 0;
  return plan;
}

void CheckRepeatOperands(const char* api, const RepeatPlan& plan, const RepeatOperand* ops,
                         uint32_t n_ops, bool accumulate_src1) {
  if (plan.Empty()) return;
  const bool checked = CheckedMode();
  for (uint32_t i = 0; i < n_ops; ++i) {
    const RepeatOperand& op = ops[i];
    const std::string where = std::string(api) + " " + op.name;
    if (op.view.ptr == nullptr) OnTensorOverrun(op.view, 0, 1, op.elem_size, where.c_str());
    const uint64_t end = ActiveEnd(plan, op);
    if (checked && end > op.view.size_bytes) {
      RaiseKernelCheck(checks::kTensorBounds,
                       where + ": the active elements of " + Str(plan.repeats) + " repeat(s) (" +
                           op.blk_name + " " + Str(op.blk_stride) + ", " + op.rep_name + " " +
                           Str(op.rep_stride) + ", mask " +
                           (plan.counter ? "count " + Str(plan.count) : "bits") + ") reach byte " +
                           Str(end) + " of the tensor, which has " + Str(op.view.size_bytes) +
                           " B (" + Str(op.view.size_bytes / op.elem_size) +
                           " elements) at UB address " + std::to_string(op.view.ptr - op.view.ub));
    }
    RequireInsideUb(op.view, op.view.ptr - op.view.ub, end, where.c_str());
    if (checked) CheckUbAligned(op.view, api, op.name);
  }
  if (!checked) return;
  if (ops[0].blk_stride == 0) {
    RaiseKernelCheck(checks::kVectorStride,
                     std::string(api) + ": " + ops[0].blk_name +
                         " is 0; the destination's block stride must be at least 1 (0 is "
                         "undefined on the device)");
  }
  for (uint32_t i = 1; i < n_ops; ++i) {
    const bool acc =
        accumulate_src1 && i == 2 && (ops[2].rep_stride == 0 || ops[0].rep_stride == 0);
    CheckPairOverlap(api, plan, ops[0], ops[i], acc);
  }
}

}  // namespace lngrad::aicore::detail
