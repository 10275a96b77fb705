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
  X(kS4, kS4, kS32)
