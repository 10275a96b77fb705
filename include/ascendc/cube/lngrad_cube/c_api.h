// lngrad Ascend C cube: what the cube's C API (c_api/cube_datamove, c_api/cube_compute) builds on.
// A C-API pointer into a cube memory (an array lngrad-asc placed with CubeArray, or a pointer
// derived from one) becomes the LocalTensor at its address, so that every asc_* function runs
// the C++ API's instruction with the same checks, the same numbers and the same sanitizer
// records (docs/ascendc_compat.md, "The cube's C API").
#pragma once

#include <cstdint>
#include <type_traits>

#include "lngrad_cube/cube.h"

namespace lngrad::cube::capi {

// The byte offset of p in the memory of pos and, in *rest, the bytes from p to its end; raises
// cube.position when p is not in that memory.
uint64_t OffsetIn(const void* p, AscendC::TPosition pos, const char* api, uint64_t* rest);

// The tensor at p (of type T) up to the end of its memory.
template <typename T>
AscendC::LocalTensor<T> Local(const void* p, AscendC::TPosition pos, const char* api) {
  uint64_t rest = 0;
  const uint64_t offset = OffsetIn(p, pos, api, &rest);
  const uint64_t count = rest * 8 / aicore::kElemBits<T>;
  return AscendC::LocalTensor<T>(pos, static_cast<uint32_t>(offset), static_cast<uint32_t>(count));
}
template <typename T>
AscendC::GlobalTensor<T> Global(T* p) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(p);
  return g;
}

// The byte address in MX buffer `side` (0: L0A_MX) of a C call's dst: the kernel computes it as
// its L0A/L0B pointer / 16, a host pointer here, whose offset in L0A/L0B / 16 it becomes; a value
// below 4 KiB is taken as the buffer's address itself.
uint64_t MxAddress(uint64_t dst, int side, const char* api);

// The C API's ND2NZ/DN2NZ register (asc_set_gm2l1_nz_para): bits 0-15 the matrix count, 16-31
// the destination's row stride, 32-47 its C0 stride (32-byte units), 48-63 its matrix stride.
void SetNzPara(uint64_t config);
uint64_t NzPara(const char* api);
// Raises cube.params naming the C API function when a parameter lngrad does not emulate is set.
void RequireZero(const char* api, const char* name, uint64_t value);

// asc_copy_l0c2gm: the Fixpipe arguments of the 950's form (strides as its intrinsic takes them:
// dst_stride in elements, src_stride in 16-element rows) with the block's FIX registers.
struct CopyOut {
  uint16_t n_size, m_size;
  uint32_t dst_stride;
  uint16_t src_stride;
  uint64_t quant_pre;
  uint8_t relu_pre;
  bool channel_split, nz2nd, nz2dn;
};
FixArgs CopyOutArgs(const CopyOut& c, const View** quant);
// asc_set_l0c2gm_config: the vector quantisation values at Fixpipe Buffer address
// quant_addr x 128 (the address an array's host pointer gives: lngrad aligns them to 128).
void SetQuantAddress(uint64_t quant_addr, const char* api);

}  // namespace lngrad::cube::capi
