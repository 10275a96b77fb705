// The Mmad type combinations lngrad runs (the vendor's Mmad page): A, B and the L0C result.
// LNGRAD_MMAD_TYPES(X) calls X(a, b, c) once per row.
#pragma once

#define LNGRAD_MMAD_TYPES(X) \
  X(kF16, kF16, kF32)        \
  X(kBf16, kBf16, kF32)      \
  X(kF32, kF32, kF32)        \
  X(kS8, kS8, kS32)          \
  X(kU8, kU8, kS32)          \
  X(kU8, kS8, kS32)          \
  X(kS4, kS4, kS32)          \
  X(kHif8, kHif8, kF32)

// The MmadMx combinations (the 950): fp4 or fp8 A and B (any pairing within a size), float C.
#define LNGRAD_MMAD_MX_TYPES(X) \
  X(kF4E1M2, kF4E1M2, kF32)     \
  X(kF4E2M1, kF4E1M2, kF32)     \
  X(kF4E1M2, kF4E2M1, kF32)     \
  X(kF4E2M1, kF4E2M1, kF32)     \
  X(kF8E4M3, kF8E4M3, kF32)     \
  X(kF8E4M3, kF8E5M2, kF32)     \
  X(kF8E5M2, kF8E4M3, kF32)     \
  X(kF8E5M2, kF8E5M2, kF32)
