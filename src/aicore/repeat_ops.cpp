// The operand and parameter rules shared by the repeat-form reductions, comparisons and gathers
// (lngrad_aicore/reduce_ops.h, compare_ops.h, gather_ops.h): out of line, so that the messages
// are built once and the headers stay light.
#include <string>

#include "lngrad_aicore/compare_ops.h"
#include "lngrad_aicore/gather_ops.h"
#include "lngrad_aicore/reduce_ops.h"
#include "name_table.h"

namespace lngrad::aicore::detail::rep {

void Raise(const char* check, const char* api, const std::string& message) {
  RaiseKernelCheck(check, std::string(api) + ": " + message);
}

uint32_t CheckStride(const char* api, const char* name, int64_t stride) {
  if (stride < 0 || stride > 0xFFFF) {
    if (CheckedMode()) {
      Raise(checks::kVectorStride, api,
            std::string(name) + " is " + std::to_string(stride) + ", which must be in [0, 65535]");
    }
    return static_cast<uint32_t>(stride & 0xFFFF);
  }
  return static_cast<uint32_t>(stride);
}

void CheckOperand(const char* api, const char* name, const TensorView& v, uint64_t extent,
                  uint32_t align, const std::string& how) {
  if (extent == 0) return;
  const bool checked = CheckedMode();
  if (v.ptr == nullptr) {
    Raise(checks::kTensorBounds, api, std::string(name) + " is an empty tensor");
  }
  if (checked && extent > v.size_bytes) {
    Raise(checks::kTensorBounds, api,
          std::string(name) + " is accessed up to byte " + std::to_string(extent) + " (" + how +
              "), past its " + std::to_string(v.size_bytes) + " bytes");
  }
  const int64_t addr = v.ptr - v.ub;
  if (checked && align > 1 && addr % align != 0) {
    Raise(checks::kUbAlignment, api,
          std::string(name) + " is at UB address " + std::to_string(addr) +
              ", which must be aligned to " + std::to_string(align) + " bytes");
  }
  RequireInsideUb(v, addr, extent, api);
}

void CheckDisjoint(const char* api, const char* dst_name, const TensorView& dst,
                   uint64_t dst_extent, const char* src_name, const TensorView& src,
                   uint64_t src_extent) {
  if (!CheckedMode() || dst_extent == 0 || src_extent == 0) return;
  if (dst.ptr < src.ptr + src_extent && src.ptr < dst.ptr + dst_extent) {
    Raise(checks::kAddressOverlap, api,
          std::string(dst_name) + " (UB " + std::to_string(dst.ptr - dst.ub) + ", " +
              std::to_string(dst_extent) + " B) overlaps " + src_name + " (UB " +
              std::to_string(src.ptr - src.ub) + ", " + std::to_string(src_extent) +
              " B), which this instruction does not allow");
  }
}

void CheckGatherOffset(const char* api, const char* what, const TensorView& src, uint64_t offset,
                       uint32_t bytes, uint32_t align, uint64_t i) {
  if (CheckedMode()) {
    const std::string at = std::string(what) + " of element " + std::to_string(i) + " is " +
                           std::to_string(offset) + " B";
    if (offset % align != 0) {
      Raise(op_checks::kGatherOffset, api,
            at + ", which must be a multiple of " + std::to_string(align) + " B");
    }
    if (offset + bytes > src.size_bytes) {
      Raise(op_checks::kGatherOffset, api,
            at + ", which reaches past src's " + std::to_string(src.size_bytes) + " B");
    }
  }
  RequireInsideUb(src, (src.ptr - src.ub) + static_cast<int64_t>(offset), bytes, api);
}

namespace {
// The register of the block that last ran a level-2 ReduceSum on this thread (a block runs on
// one thread at a time; another block's value reads as 0).
struct SumRegister {
  const BlockContext* block = nullptr;
  uint64_t bits = 0;
};
thread_local SumRegister sum_register;
}  // namespace

void SetReduceSumRegister(uint64_t bits) { sum_register = {CurrentBlockContext(), bits}; }

uint64_t ReduceSumRegister() {
  return sum_register.block == CurrentBlockContext() ? sum_register.bits : 0;
}

namespace {
struct MaxMinRegisterState {
  const BlockContext* block = nullptr;
  MaxMinSpr spr;
};
thread_local MaxMinRegisterState max_min_register;
}  // namespace

void SetMaxMinRegister(const MaxMinSpr& spr) { max_min_register = {CurrentBlockContext(), spr}; }

MaxMinSpr MaxMinRegister() {
  return max_min_register.block == CurrentBlockContext() ? max_min_register.spr : MaxMinSpr{};
}

MaxMinSpr ReadMaxMinRegister(const char* api, uint32_t archs, const char* products, SrcLoc loc) {
  RequireProduct(api, archs, products, loc);
  const MaxMinSpr spr = MaxMinRegister();
  if (CheckedMode() && !spr.documented) {
    Raise(op_checks::kReduceSpr, api,
          "the last ReduceRepeat<MAX/MIN> / ReduceMax / ReduceMin ran in Counter mode or with "
          "srcBlkStride != 1 or srcRepStride != 8; the register holds a defined result only for "
          "contiguous Normal-mode reductions");
  }
  return spr;
}

namespace {
struct CmpMask {
  const BlockContext* block = nullptr;
  uint8_t bytes[kCmpMaskBytes] = {};
};
thread_local CmpMask cmp_mask;
}  // namespace

uint8_t* CmpMaskRegister() {
  if (cmp_mask.block != CurrentBlockContext()) cmp_mask = {CurrentBlockContext(), {}};
  return cmp_mask.bytes;
}

NpuArch RunningArch() { return CurrentBlockProduct().arch; }

const char* OrderName(AscendC::ReduceOrder o) {
  static constexpr const char* kNames[] = {"ORDER_VALUE_INDEX", "ORDER_INDEX_VALUE",
                                           "ORDER_ONLY_VALUE", "ORDER_ONLY_INDEX"};
  return NameAt(kNames, o, "?");
}

const char* CmpModeName(AscendC::CMPMODE m) {
  static constexpr const char* kNames[] = {"LT", "GT", "EQ", "LE", "GE", "NE"};
  return NameAt(kNames, m, "?");
}

const char* SelModeName(AscendC::SELMODE m) {
  static constexpr const char* kNames[] = {"VSEL_CMPMASK_SPR", "VSEL_TENSOR_SCALAR_MODE",
                                           "VSEL_TENSOR_TENSOR_MODE"};
  return NameAt(kNames, m, "?");
}

uint64_t MaxMinTmpElems(uint64_t first, uint32_t elem, bool with_index) {
  // ReduceMax.md's formulas: every round's output, [value, index] pairs, rounded up to whole
  // data blocks; without the index later rounds reuse the first round's space.
  const uint64_t per_block = kBlockBytes / elem;
  const uint64_t per_repeat = kRepeatBytes / elem;
  const auto blocks = [&](uint64_t n) { return (n + per_block - 1) / per_block * per_block; };
  const uint64_t iter1 = first * 2;
  if (!with_index) return blocks(iter1);
  const uint64_t iter2_start = blocks(iter1);
  const uint64_t iter2 = (iter1 + per_repeat - 1) / per_repeat * 2;
  const uint64_t iter2_end = blocks(iter2);
  if (iter2 <= 2) return iter2_start + iter2_end;
  const uint64_t iter3 = (iter2 + per_repeat - 1) / per_repeat * 2;
  return iter2_start + iter2_end + blocks(iter3);
}

}  // namespace lngrad::aicore::detail::rep
