// Test helper: a GmAlloc'd buffer released at scope exit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernel_operator.h"

namespace lngrad::aicore::test {

struct GmBuffer {
  explicit GmBuffer(size_t bytes)
      : p(static_cast<uint8_t*>(AscendC::GmAlloc(bytes))), size(bytes) {}
  ~GmBuffer() { AscendC::GmFree(p); }
  GmBuffer(const GmBuffer&) = delete;
  GmBuffer& operator=(const GmBuffer&) = delete;
  template <typename T>
  T* as() const {
    return reinterpret_cast<T*>(p);
  }
  uint8_t* p;
  size_t size;
};

}  // namespace lngrad::aicore::test
