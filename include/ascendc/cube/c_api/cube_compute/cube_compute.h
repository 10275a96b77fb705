// lngrad C API: the cube's compute (the vendor's c_api/cube_compute/cube_compute.h), the Ascend
// 950's forms: asc_mmad and asc_mmad_mx on the C++ API's Mmad and MmadMx (lngrad_cube/c_api.h).
#pragma once

#include <cstdint>

#include "lngrad_cube/c_api.h"
#include "lngrad_cube/mx.h"

namespace lngrad::cube::capi {
// The MmadParams of a C call: m (left_height), k (n_dim), n (right_width), disable_gemv.
inline AscendC::MmadParams MmadParamsOf(uint16_t left_height, uint16_t n_dim, uint16_t right_width,
                                        uint8_t unit_flag, bool disable_gemv, bool c_matrix_source,
                                        bool c_matrix_init_val) {
  AscendC::MmadParams p;
  p.m = left_height;
  p.k = n_dim;
  p.n = right_width;
  p.unitFlag = unit_flag;
#if __NPU_ARCH__ == 3510
  p.disableGemv = disable_gemv;
#else
  p.kDirectionAlign = disable_gemv;
#endif
  p.cmatrixSource = c_matrix_source;
  p.cmatrixInitVal = c_matrix_init_val;
  return p;
}
}  // namespace lngrad::cube::capi

// One row per C name: the C++ instruction it runs.
#define LNGRAD_CUBE_C_MMADS(X) \
  X(asc_mmad, Mmad)            \
  X(asc_mmad_mx, MmadMx)
#define LNGRAD_CUBE_C_MMAD(name, op)                                                          \
  template <typename T, typename U, typename S>                                               \
  void name(__cc__ T* c_matrix, __ca__ U* a_matrix, __cb__ S* b_matrix, uint16_t left_height, \
            uint16_t n_dim, uint16_t right_width, uint8_t unit_flag, bool disable_gemv,       \
            bool c_matrix_source, bool c_matrix_init_val,                                     \
            ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {             \
    namespace c = ::lngrad::cube::capi;                                                       \
    AscendC::op(c::Local<T>(c_matrix, AscendC::TPosition::CO1, #name),                        \
                c::Local<U>(a_matrix, AscendC::TPosition::A2, #name),                         \
                c::Local<S>(b_matrix, AscendC::TPosition::B2, #name),                         \
                c::MmadParamsOf(left_height, n_dim, right_width, unit_flag, disable_gemv,     \
                                c_matrix_source, c_matrix_init_val),                          \
                loc);                                                                         \
  }
LNGRAD_CUBE_C_MMADS(LNGRAD_CUBE_C_MMAD)
#undef LNGRAD_CUBE_C_MMAD
