// The Fixpipe conversions lngrad runs (the vendor's Fixpipe page and 随路量化): the L0C type, the
// output type and the quantPre modes that select the conversion.
// LNGRAD_FIXPIPE_CONVERSIONS(X) calls X(src, dst, mode) once per accepted mode.
#pragma once

#define LNGRAD_FIXPIPE_CONVERSIONS(X) \
  X(kF32, kF32, NoQuant)              \
  X(kS32, kS32, NoQuant)              \
  X(kF32, kF16, F322F16)              \
  X(kF32, kF16, NoQuant)              \
  X(kF32, kBf16, F322BF16)            \
  X(kF32, kBf16, NoQuant)             \
  X(kF32, kF16, QF322F16_PRE)         \
  X(kF32, kF16, VQF322F16_PRE)        \
  X(kF32, kBf16, QF322BF16_PRE)       \
  X(kF32, kBf16, VQF322BF16_PRE)      \
  X(kF32, kS8, QF322B8_PRE)           \
  X(kF32, kU8, QF322B8_PRE)           \
  X(kF32, kS8, VQF322B8_PRE)          \
  X(kF32, kU8, VQF322B8_PRE)          \
  X(kS32, kF16, DEQF16)               \
  X(kS32, kF16, VDEQF16)              \
  X(kS32, kS8, REQ8)                  \
  X(kS32, kU8, REQ8)                  \
  X(kS32, kS8, VREQ8)                 \
  X(kS32, kU8, VREQ8)
