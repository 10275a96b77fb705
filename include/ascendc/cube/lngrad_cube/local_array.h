// lngrad Ascend C cube: arrays a kernel declares in the cube's memories (layer cube).
//
// `__cbuf__ T name[N];` (L1), `__ca__` (L0A), `__cb__` (L0B), `__cc__` (L0C), `__biasbuf__`
// (BiasTable) and `__fbuf__` (Fixpipe Buffer) inside a kernel are arrays the device's compiler
// places in that memory. lngrad-asc rewrites each declaration into a call of LocalArray (see
// tools/asc_compiler/rewrite.h), which hands the running block one object per declaration,
// placed in the memory from byte 0 upward in the order the declarations first run (each at the
// memory's fractal alignment: 32 bytes in L1 and the BiasTable, 512 in L0A and L0B, 1024 in
// L0C, 64 in the Fixpipe Buffer), zero-filled when the block's memories are made. The arrays are
// plain host arrays inside the simulated memory: pointers to them are what the tensor API's
// MakeMemPtr and the C API take. Past the memory's size: cube.bounds (always).
#pragma once

#include <cstddef>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/tensor.h"

namespace lngrad::cube {

// The first byte of declaration `key`'s array of `bytes` bytes in pos's memory of the running
// block (the same on every call of the block).
void* LocalArrayBytes(AscendC::TPosition pos, const void* key, size_t bytes, const char* name,
                      aicore::SrcLoc loc);

// A key unique to one declaration: ArrayKey([] {}) (every lambda expression has its own type).
template <typename Tag>
const void* ArrayKey(Tag) {
  static const char key = 0;
  return &key;
}

template <typename T>
T& LocalArray(AscendC::TPosition pos, const void* key, const char* name,
              aicore::SrcLoc loc = aicore::SrcLoc::Current()) {
  return *static_cast<T*>(LocalArrayBytes(pos, key, sizeof(T), name, loc));
}

// The cube memory (or UB) that holds [p, p + bytes) in the running block: its position (A1 for
// L1, A2, B2, CO1, C2, C2PIPE2GM, VECCALC for the UB) and p's byte address in it. False: none
// (global memory, or outside a block).
bool LocateLocal(const void* p, AscendC::TPosition* pos, uint32_t* addr) noexcept;

}  // namespace lngrad::cube
