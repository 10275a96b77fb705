// lngrad Ascend C cube: the MX forms' element types (the 950), in the global namespace as the
// device compiler's built-ins. fp8_e8m0_t is a scale 2^(bits - 127) (0xFF: NaN); fp4x2_e2m1_t and
// fp4x2_e1m2_t hold two 4-bit floats in one byte, the first in the low nibble, and their tensors
// count 4-bit elements as int4b_t's do (offsets, sizes; DataCopy moves their bytes). Storage only:
// the cube decodes them (lngrad::cube::MxValue).
#pragma once

#include <cstdint>
#include <type_traits>

#include "lngrad_aicore/defs.h"

#define LNGRAD_CUBE_MX_TYPE(name)                        \
  struct name {                                          \
    uint8_t bits;                                        \
    static constexpr name FromBits(uint8_t b) noexcept { \
      name v{};                                          \
      v.bits = b;                                        \
      return v;                                          \
    }                                                    \
  };                                                     \
  static_assert(sizeof(name) == 1);
LNGRAD_CUBE_MX_TYPE(fp8_e8m0_t)
LNGRAD_CUBE_MX_TYPE(fp4x2_e2m1_t)
LNGRAD_CUBE_MX_TYPE(fp4x2_e1m2_t)
#undef LNGRAD_CUBE_MX_TYPE

template <>
struct lngrad::aicore::IsFourBit<fp4x2_e2m1_t> : std::true_type {};
template <>
struct lngrad::aicore::IsFourBit<fp4x2_e1m2_t> : std::true_type {};
