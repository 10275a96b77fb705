// lngrad examples: kernel-side helpers (device code; needs only "kernel_operator.h").
#pragma once

#include "kernel_operator.h"

namespace lngrad_example {

// Copies a tiling struct from GM into kernel-local storage, one uint32 word at a time (tiling
// structs are made of 4-byte fields). `byteOffset` must be a multiple of 4.
template <typename T>
__aicore__ inline void CopyTiling(T* dst, GM_ADDR tiling, uint64_t byteOffset = 0) {
  static_assert(sizeof(T) % sizeof(uint32_t) == 0, "tiling structs are made of 4-byte words");
  auto* src = reinterpret_cast<__gm__ uint32_t*>(tiling + byteOffset);
  auto* out = reinterpret_cast<uint32_t*>(dst);
  for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
    out[i] = src[i];
  }
}

// Elements of T per 32-byte data block.
template <typename T>
__aicore__ inline constexpr uint32_t ElemsPerBlock() {
  return 32 / sizeof(T);
}

__aicore__ inline constexpr uint32_t AlignUp(uint32_t n, uint32_t unit) { return (n + unit - 1) / unit * unit; }

}  // namespace lngrad_example
