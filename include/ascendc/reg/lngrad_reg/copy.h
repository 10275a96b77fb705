// lngrad C API: the GM <-> UB copies' plan on the simulated AI core's DataCopyPad. The C API
// gives strides start to start in bytes; DataCopyPad takes gaps (GM: bytes; UB: 32-byte blocks)
// and a LocalTensor at a UB address: PlanCopy converts and checks (checks::kRegArgs for a UB
// stride that is neither the row's length nor a whole number of 32-byte blocks past the padded
// row, checks::kRegUbBounds for a UB pointer outside the block's UB).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/tensor.h"
#include "lngrad_reg/ub_access.h"

namespace lngrad::reg {

template <typename T>
inline constexpr bool kCopyable = std::is_trivially_copyable_v<T> &&
                                  (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4);

// An L2 cache mode argument: the enumeration, or a number (the deprecated prototypes).
template <typename Mode, typename Enum>
inline constexpr bool kL2Mode = std::is_same_v<Mode, Enum> || std::is_integral_v<Mode>;

namespace detail {

// One C API copy: n_burst rows of len_burst bytes; pads in elements (GM -> UB only); strides
// start to start in bytes (0, or n_burst == 1: rows back to back).
struct CopyShape {
  uint16_t n_burst;
  uint32_t len_burst;
  uint8_t left_pad;
  uint8_t right_pad;
  bool constant_pad;
  uint64_t gm_stride;
  uint32_t ub_stride;
};

// Plain fields: DataCopyExtParams's stride type depends on __NPU_ARCH__, which the kernel's
// translation unit defines and the library's does not.
struct CopyPlan {
  uint32_t ub_addr;   // UB byte offset of the UB pointer
  uint32_t ub_elems;  // the LocalTensor's elements: every UB byte the copy touches
  uint64_t gm_gap;    // bytes from the end of one GM row to the start of the next
  uint64_t ub_gap;    // 32-byte blocks from the end of one UB row to the start of the next
};

inline AscendC::DataCopyExtParams ExtParams(const CopyShape& s, const CopyPlan& p, bool gm_to_ub) {
  using Stride = AscendC::DataCopyExtStride;
  const auto gm = static_cast<Stride>(p.gm_gap), ub = static_cast<Stride>(p.ub_gap);
  return AscendC::DataCopyExtParams(s.n_burst, s.len_burst, gm_to_ub ? gm : ub, gm_to_ub ? ub : gm,
                                    0);
}

CopyPlan PlanCopy(const void* ub, uint32_t elem_bytes, const CopyShape& shape, const char* api,
                  aicore::SrcLoc loc);
// The size forms: size must be a whole number of 32-byte blocks (checks::kRegArgs).
void RequireWholeBlocks(uint32_t size, const char* api, aicore::SrcLoc loc);

template <typename T>
void CopyIn(T* dst, T* src, const CopyShape& shape, aicore::SrcLoc loc) {
  const CopyPlan plan = PlanCopy(dst, sizeof(T), shape, "asc_copy_gm2ub_align", loc);
  AscendC::LocalTensor<T> ub(AscendC::TPosition::VECIN, plan.ub_addr, plan.ub_elems);
  AscendC::GlobalTensor<T> gm;
  gm.SetGlobalBuffer(src);
  const bool padded = shape.left_pad != 0 || shape.right_pad != 0;
  // Not constant: the pads repeat the data's first element (isPad with that value); constant:
  // the pad register (isPad false).
  const bool own_value = padded && !shape.constant_pad;
  AscendC::DataCopyPadExtParams<T> pad(own_value, shape.left_pad, shape.right_pad,
                                       own_value ? src[0] : T{});
  AscendC::DataCopyPad(ub, gm, ExtParams(shape, plan, true), pad, loc);
}

template <typename T>
void CopyOut(T* dst, T* src, const CopyShape& shape, aicore::SrcLoc loc) {
  const CopyPlan plan = PlanCopy(src, sizeof(T), shape, "asc_copy_ub2gm_align", loc);
  AscendC::LocalTensor<T> ub(AscendC::TPosition::VECOUT, plan.ub_addr, plan.ub_elems);
  AscendC::GlobalTensor<T> gm;
  gm.SetGlobalBuffer(dst);
  AscendC::DataCopyPad(gm, ub, ExtParams(shape, plan, false), loc);
}

}  // namespace detail
}  // namespace lngrad::reg
