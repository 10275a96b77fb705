// lngrad C API: the UB vector instructions (the vendor's c_api/vector_compute/vector_compute.h),
// count forms: dst[i] = op(src0[i], src1[i]) for i < count on the simulated AI core's vector
// instructions (lngrad_aicore/vector_ops.h: the same element functions, operand checks and
// sanitizer records). The _sync forms also wait for the instruction (PipeBarrier<PIPE_ALL>). The
// repeat forms (repeat, then each operand's block and repeat strides in 32-byte blocks) run the
// instruction's mask/repeat form under the block's vector mask register as it stands
// (isSetMask = false: the count forms leave it full).
#pragma once

#include <cstdint>

#include "c_api/utils_intf.h"
#include "lngrad_aicore/sanitizer.h"
#include "lngrad_aicore/tensor.h"
#include "lngrad_aicore/vector_ops.h"
#include "lngrad_reg/ub_access.h"

namespace lngrad::reg::detail {
// The LocalTensor of count elements of T at a UB pointer.
template <typename T>
AscendC::LocalTensor<T> UbTensor(T* p, uint32_t count, const char* api, aicore::SrcLoc loc) {
  return AscendC::LocalTensor<T>(AscendC::TPosition::VECCALC,
                                 UbOffset(p, uint64_t{count} * sizeof(T), api, loc), count);
}
// The LocalTensor a repeat form reaches at p: repeat repeats of 8 blocks of 32 bytes, block b of
// repeat r at (r * repStride + b * blkStride) blocks (at least one block).
template <typename T>
AscendC::LocalTensor<T> UbRepeatTensor(T* p, uint8_t repeat, uint8_t blkStride, uint8_t repStride,
                                       const char* api, aicore::SrcLoc loc) {
  const uint32_t blocks = repeat == 0 ? 1 : (uint32_t{repeat} - 1) * repStride + 7u * blkStride + 1;
  return UbTensor(p, blocks * 32 / static_cast<uint32_t>(sizeof(T)), api, loc);
}
}  // namespace lngrad::reg::detail

// X(C API name, AscendC instruction).
#define LNGRAD_C_VECTOR_BINARY_TABLE(X) \
  X(asc_add, Add)                       \
  X(asc_sub, Sub)                       \
  X(asc_mul, Mul)                       \
  X(asc_div, Div)                       \
  X(asc_max, Max)                       \
  X(asc_min, Min)

#define LNGRAD_C_VECTOR_BINARY(name, instr)                                                        \
  template <typename T>                                                                            \
  inline void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count,            \
                   ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {           \
    using ::lngrad::reg::detail::UbTensor;                                                         \
    AscendC::instr(UbTensor(dst, count, #name, loc), UbTensor(src0, count, #name, loc),            \
                   UbTensor(src1, count, #name, loc), static_cast<int32_t>(count), loc);           \
  }                                                                                                \
  template <typename T>                                                                            \
  inline void name##_sync(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count,     \
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {    \
    name(dst, src0, src1, count, loc);                                                             \
    ::lngrad::aicore::san::Barrier(PIPE_ALL, loc);                                                 \
  }                                                                                                \
  template <typename T>                                                                            \
  inline void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat,            \
                   uint8_t dst_block_stride, uint8_t src0_block_stride, uint8_t src1_block_stride, \
                   uint8_t dst_repeat_stride, uint8_t src0_repeat_stride,                          \
                   uint8_t src1_repeat_stride,                                                     \
                   ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {           \
    using ::lngrad::reg::detail::UbRepeatTensor;                                                   \
    AscendC::instr<T, false>(                                                                      \
        UbRepeatTensor(dst, repeat, dst_block_stride, dst_repeat_stride, #name, loc),              \
        UbRepeatTensor(src0, repeat, src0_block_stride, src0_repeat_stride, #name, loc),           \
        UbRepeatTensor(src1, repeat, src1_block_stride, src1_repeat_stride, #name, loc),           \
        AscendC::MASK_PLACEHOLDER, repeat,                                                         \
        AscendC::BinaryRepeatParams(dst_block_stride, src0_block_stride, src1_block_stride,        \
                                    dst_repeat_stride, src0_repeat_stride, src1_repeat_stride),    \
        loc);                                                                                      \
  }
LNGRAD_C_VECTOR_BINARY_TABLE(LNGRAD_C_VECTOR_BINARY)
#undef LNGRAD_C_VECTOR_BINARY
