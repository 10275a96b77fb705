// Fmod's and Xor's scratch on arch 2201/2002 (replay_math_scratch_fmod_xor.h). Provenance: written
// by helper mth3 (session 18) from the toolkit's sources (asc-devkit, the mirror's HEAD), read
// for this file: fmod/fmod_common_impl.h (FmodImpl: stackSize from the buffer, clamped to
// src0Tensor's size, the rounds; FmodCompute for float: Div, Trunc with the whole buffer, Mul,
// Sub over calCount; FmodCompute for half: the float temps at 0, stackSize and 2 stackSize, the
// Casts, the buffer from 3 stackSize floats on for Trunc, the CAST_NONE cast back),
// fmod/fmod.h (the 2201/2002 overloads), trunc/trunc_common_impl.h (TruncImpl's splitCount and
// rounds, TruncCompute for float), trunc_v220_impl.h (Cast<float, float> CAST_TRUNC) and
// trunc_v200_impl.h (Cast<int32_t, float> CAST_TRUNC into the buffer, Cast<float, int32_t>
// CAST_NONE back), xor/xor_common_impl.h and xor/xor_membase_impl.h (XorImpl's stackSize and
// rounds, XorCalcSimplified's And, Or into the buffer, Not, And). Written before lngrad's Fmod
// and Xor scratch code, without reading lngrad's implementation of them; a separate reading by
// the same helper who then changed lngrad (include/ascendc/adv/lib/math/fmod.h, bitwise.h).
// Each instruction is one operation per element, in the source's order, on the round's elements
// only (counter mode). The float to int32 Cast saturates and gives 0 for a NaN (the convention
// of this library's other int32 casts, replay_math_scratch.cpp's FloorThroughInt32).
// ReplayPowerFloat2002: written from power/power_float_impl.h (InitTmpScalar, InitDst,
// DetermineSign, GenMaskForSign, GenMaskForOne, GenMaskForNan, CommonPowerF),
// power_common_utils.h (VselPowerTensorScalar) and power_v200_impl.h (CastFloat2Float,
// GrepSignBit), one element at a time (each mask's bit of that element), with Exp and Ln as
// replay_math_ops.h has them; before lngrad's 2002 Power was changed.
#include "replay_math_scratch_fmod_xor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

float LoadF(const uint8_t* p, uint32_t word) {
  float v;
  std::memcpy(&v, p + 4 * static_cast<size_t>(word), 4);
  return v;
}
void StoreF(uint8_t* p, uint32_t word, float v) {
  std::memcpy(p + 4 * static_cast<size_t>(word), &v, 4);
}

// Cast<int32_t, float> CAST_TRUNC.
int32_t TruncToInt32(float x) {
  if (std::isnan(x)) return 0;
  const double t = std::trunc(static_cast<double>(x));
  return static_cast<int32_t>(std::clamp(t, -2147483648.0, 2147483647.0));
}

// TruncImpl<float>(v, v, buf, count), v the float tensor at byte pointer `v`, buf holding
// bufBytes: rounds of bufBytes / 4 down to 32 floats; 2201 truncates in place, 2002 through
// int32 words at buf's start.
bool TruncRounds(uint8_t* v, uint32_t count, uint8_t* buf, uint32_t bufBytes, bool arch2002) {
  const uint32_t split = bufBytes / 4 / 32 * 32;
  if (split == 0) return false;
  for (uint32_t off = 0; off < count; off += split) {
    const uint32_t len = std::min(split, count - off);
    if (!arch2002) {
      for (uint32_t j = 0; j < len; ++j) StoreF(v, off + j, std::trunc(LoadF(v, off + j)));
      continue;
    }
    for (uint32_t j = 0; j < len; ++j) {
      const int32_t w = TruncToInt32(LoadF(v, off + j));
      std::memcpy(buf + 4 * static_cast<size_t>(j), &w, 4);
    }
    for (uint32_t j = 0; j < len; ++j) {
      int32_t w;
      std::memcpy(&w, buf + 4 * static_cast<size_t>(j), 4);
      StoreF(v, off + j, static_cast<float>(w));
    }
  }
  return true;
}

}  // namespace

bool ReplayFmodScratch(const float* a, const float* b, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes, bool arch2002) {
  uint8_t* d = reinterpret_cast<uint8_t*>(dst);
  for (uint32_t j = 0; j < n; ++j) dst[j] = a[j] / b[j];
  if (n != 0 && !TruncRounds(d, n, scratch, tmpBytes, arch2002)) return false;
  for (uint32_t j = 0; j < n; ++j) dst[j] = dst[j] * b[j];
  for (uint32_t j = 0; j < n; ++j) dst[j] = a[j] - dst[j];
  return true;
}

bool ReplayFmodScratch(const Half* a, const Half* b, Half* dst, uint32_t n, uint32_t src0Size,
                       uint8_t* scratch, uint32_t tmpBytes, bool arch2002) {
  uint32_t stack = tmpBytes / 2 / 8 / 32 * 32;
  if (stack == 0) return false;
  stack = std::min(stack, src0Size);
  if (n == 0) return true;
  uint8_t* truncBuf = scratch + 12 * static_cast<size_t>(stack);
  const uint32_t truncBytes = tmpBytes - 12 * stack;
  for (uint32_t off = 0; off < n; off += stack) {
    const uint32_t len = std::min(stack, n - off);
    for (uint32_t j = 0; j < len; ++j) StoreF(scratch, stack + j, HalfToFloat(a[off + j]));
    for (uint32_t j = 0; j < len; ++j) StoreF(scratch, 2 * stack + j, HalfToFloat(b[off + j]));
    for (uint32_t j = 0; j < len; ++j) {
      StoreF(scratch, j, LoadF(scratch, stack + j) / LoadF(scratch, 2 * stack + j));
    }
    if (!TruncRounds(scratch, len, truncBuf, truncBytes, arch2002)) return false;
    for (uint32_t j = 0; j < len; ++j) {
      StoreF(scratch, j, LoadF(scratch, j) * LoadF(scratch, 2 * stack + j));
    }
    for (uint32_t j = 0; j < len; ++j) {
      StoreF(scratch, j, LoadF(scratch, stack + j) - LoadF(scratch, j));
    }
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(LoadF(scratch, j));
  }
  return true;
}

namespace {

// power_v200_impl.h's CastFloat2Float: Cast<int32_t, float> in `mode` (saturating, NaN to 0),
// then Cast<float, int32_t> CAST_NONE (nearest even).
float ViaInt32(float v, bool floorMode) {
  if (std::isnan(v)) return 0.0f;
  const double d = static_cast<double>(v);
  const double r = floorMode ? std::floor(d) : std::nearbyint(d);
  return static_cast<float>(static_cast<int32_t>(std::clamp(r, -2147483648.0, 2147483647.0)));
}

uint32_t BitsF(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}
float FloatOfBits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}

}  // namespace

float ReplayPowerFloat2002(float x, float y) {
  const float inf = std::numeric_limits<float>::infinity();
  // InitDst.
  float d = std::fabs(x);
  d = math_ops::LnF(d);
  d = y * d;
  d = math_ops::ExpF(d);
  // DetermineSign into tmpTensor1.
  float t1 = std::fabs(y);
  t1 = ViaInt32(t1, false);
  float t2 = t1 * 0.5f;
  t2 = ViaInt32(t2, true);
  t2 = t2 * 2.0f;
  t1 = t1 - t2;
  t1 = t1 * -2.0f;
  t1 = t1 + 1.0f;
  t1 = ViaInt32(t1, false);
  // GenMaskForSign: GrepSignBit's halves And 0x8000 0000, Or 0x3f80 0000, then < 0.
  const uint32_t g = (BitsF(x) & 0x80000000u) | 0x3f800000u;
  bool m1 = FloatOfBits(g) < 0.0f;
  t2 = std::fabs(y);
  float t3 = ViaInt32(t2, false);
  t3 = t2 - t3;
  t3 = std::fabs(t3);
  const bool fiy = t3 < 0.00000001f;
  m1 = fiy && m1;
  t2 = m1 ? t1 : 1.0f;  // Select with the CMPMASK scalar 1.0
  d = t2 * d;
  // GenMaskForOne.
  t1 = std::fabs(y);
  m1 = t1 != 0.0f;
  bool m2 = x != 1.0f;
  m1 = m2 && m1;
  m2 = x != -1.0f;
  bool m3 = t1 != inf;
  m2 = m3 || m2;
  m1 = m2 && m1;
  d = m1 ? d : 1.0f;
  // GenMaskForNan.
  t1 = std::fabs(y);
  m1 = t1 == inf;
  m1 = fiy || m1;
  m2 = x >= 0.0f;
  m3 = x == -inf;
  m2 = m3 || m2;
  m1 = m2 || m1;
  return m1 ? d : std::numeric_limits<float>::quiet_NaN();
}

bool ReplayXorScratch(const uint16_t* a, const uint16_t* b, uint16_t* dst, uint32_t n,
                      uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t stack = tmpBytes / 2 / 32 * 32;
  if (stack == 0) return false;
  for (uint32_t off = 0; off < n; off += stack) {
    const uint32_t len = std::min(stack, n - off);
    for (uint32_t j = 0; j < len; ++j)
      dst[off + j] = static_cast<uint16_t>(a[off + j] & b[off + j]);
    for (uint32_t j = 0; j < len; ++j) {
      const uint16_t o = static_cast<uint16_t>(a[off + j] | b[off + j]);
      std::memcpy(scratch + 2 * static_cast<size_t>(j), &o, 2);
    }
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = static_cast<uint16_t>(~dst[off + j]);
    for (uint32_t j = 0; j < len; ++j) {
      uint16_t o;
      std::memcpy(&o, scratch + 2 * static_cast<size_t>(j), 2);
      dst[off + j] = static_cast<uint16_t>(o & dst[off + j]);
    }
  }
  return true;
}

}  // namespace lngrad_replay
