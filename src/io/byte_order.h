// lngrad_io internal: files hold little-endian data; tensors hold the host's byte order.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace lngrad::io::detail {

// Copies `count` elements of `elem_size` bytes between little-endian (file) order and host
// order; the conversion is its own inverse, so it serves both directions.
inline void CopyLittleEndian(void* dst, const void* src, size_t count, size_t elem_size) {
  // Empty tensors have null data pointers; memcpy(nullptr, ..., 0) is undefined behaviour.
  if (count == 0) return;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(dst, src, count * elem_size);
  } else {
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    for (size_t i = 0; i < count; ++i) {
      std::reverse_copy(s + i * elem_size, s + (i + 1) * elem_size, d + i * elem_size);
    }
  }
}

inline uint32_t LoadLittle32(const unsigned char* p, size_t bytes) {
  uint32_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

}  // namespace lngrad::io::detail
