// lngrad examples: kernel-side helpers (device code; needs only "kernel_operator.h").
#pragma once

#include "kernel_operator.h"

namespace lngrad_example {

// Copies a tiling struct from GM into kernel-local storage, one uint32 word at a time (tiling
// structs are made of 4-byte fields). `byteOffset` must be a multiple of 4. Each word is stored
// with memcpy: storing through a uint32_t* into a struct with float members (the usual device
// idiom) is undefined behaviour in C++, and an optimising host compiler may then keep stale
// float values.
template <typename T>
__aicore__ inline void CopyTiling(T* dst, GM_ADDR tiling, uint64_t byteOffset = 0) {
  static_assert(sizeof(T) % sizeof(uint32_t) == 0, "tiling structs are made of 4-byte words");
  auto* src = reinterpret_cast<__gm__ uint32_t*>(tiling + byteOffset);
  for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
    const uint32_t word = src[i];
    __builtin_memcpy(reinterpret_cast<uint8_t*>(dst) + i * sizeof(uint32_t), &word, sizeof(word));
  }
}

// Elements of T per 32-byte data block.
template <typename T>
__aicore__ inline constexpr uint32_t ElemsPerBlock() {
  return 32 / sizeof(T);
}

__aicore__ inline constexpr uint32_t AlignUp(uint32_t n, uint32_t unit) {
  return (n + unit - 1) / unit * unit;
}

}  // namespace lngrad_example
