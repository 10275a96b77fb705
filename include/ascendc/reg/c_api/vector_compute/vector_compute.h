// lngrad C API: the UB vector instructions (the vendor's c_api/vector_compute/vector_compute.h),
// count forms: dst[i] = op(src0[i], src1[i]) for i < count on the simulated AI core's vector
// instructions (lngrad_aicore/vector_ops.h: the same element functions, operand checks and
// sanitizer records). The _sync forms also wait for the instruction (PipeBarrier<PIPE_ALL>).
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
}  // namespace lngrad::reg::detail

// X(C API name, AscendC instruction).
#define LNGRAD_C_VECTOR_BINARY_TABLE(X) \
  X(asc_add, Add)                       \
  X(asc_sub, Sub)                       \
  X(asc_mul, Mul)                       \
  X(asc_div, Div)                       \
  X(asc_max, Max)                       \
  X(asc_min, Min)

#define LNGRAD_C_VECTOR_BINARY(name, instr)                                                     \
  template <typename T>                                                                         \
  inline void name(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count,         \
                   ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {        \
    using ::lngrad::reg::detail::UbTensor;                                                      \
    AscendC::instr(UbTensor(dst, count, #name, loc), UbTensor(src0, count, #name, loc),         \
                   UbTensor(src1, count, #name, loc), static_cast<int32_t>(count), loc);        \
  }                                                                                             \
  template <typename T>                                                                         \
  inline void name##_sync(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t count,  \
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) { \
    name(dst, src0, src1, count, loc);                                                          \
    ::lngrad::aicore::san::Barrier(PIPE_ALL, loc);                                              \
  }
LNGRAD_C_VECTOR_BINARY_TABLE(LNGRAD_C_VECTOR_BINARY)
#undef LNGRAD_C_VECTOR_BINARY
