// The replay of CastDequant (replay_cast_dequant.h says what was read and what it models).
#include "replay_cast_dequant.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace lngrad_replay {
namespace {

constexpr uint32_t kScaleKeep = 0xffffe000u;  // GetCastDeqScale: 1 sign, 8 exponent, 10 mantissa
constexpr int kOffsetShift = 37;
constexpr uint64_t kOffsetBits = 0x1ffu;
constexpr int kSignShift = 46;

float ScaleOf(uint64_t word) {
  const uint32_t bits = static_cast<uint32_t>(word & 0xffffffffu) & kScaleKeep;
  float s;
  std::memcpy(&s, &bits, sizeof s);
  return s;
}

int32_t OffsetOf(uint64_t word, CdqArch arch) {
  const int32_t raw = static_cast<int32_t>((word >> kOffsetShift) & kOffsetBits);
  if (arch == CdqArch::k3510) return raw;  // zero-extended, as the 3510 file reads it
  return raw >= 256 ? raw - 512 : raw;     // the page's signed 9-bit integer
}

// f32 -> s16, nearest even, saturated (f322s16CastTrait: SAT, CAST_RINT). A NaN (only from an
// infinite or NaN scale) gives 0 [inference: the source does not show the hardware's NaN rule].
int32_t ToS16(float f) {
  if (std::isnan(f)) return 0;
  const float r = std::nearbyint(f);
  if (r >= 32767.0f) return 32767;
  if (r <= -32768.0f) return -32768;
  return static_cast<int32_t>(r);
}

// 0: unsigned, 1: signed, 2: neither (a vdeq entry on 3510 with other bits above bit 46).
int SignKind(uint64_t word, CdqArch arch, bool vec) {
  if (vec && arch == CdqArch::k3510) {
    const uint64_t s = (word >> kSignShift) & 0xffffu;  // packed to 16 bits before the compare
    return s == 1 ? 1 : (s == 0 ? 0 : 2);
  }
  if (arch == CdqArch::k3510) return (word >> kSignShift) != 0 ? 1 : 0;  // static_cast<bool>
  return ((word >> kSignShift) & 1u) != 0 ? 1 : 0;
}

uint8_t Element(int16_t x, uint64_t word, CdqArch arch, bool vec) {
  const float f = static_cast<float>(x) * ScaleOf(word);
  int32_t r = ToS16(f);
  if (r < -256) r = -256;
  if (r > 255) r = 255;
  const int32_t v = r + OffsetOf(word, arch);
  switch (SignKind(word, arch, vec)) {
    case 1:
      return static_cast<uint8_t>(static_cast<int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v)));
    case 0:
      return static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
    default:
      return 0;
  }
}

uint64_t WordFor(const uint64_t* params, bool vec, uint32_t place) {
  return vec ? params[place % 16] : params[0];
}

// A double rounded once to binary16, nearest even (any finite double; the callers' values are
// exact products or floats). Overflow: +-65504 when saturating, else +-inf.
uint16_t DoubleToHalfBits(double d, bool saturate) {
  const uint16_t sign = std::signbit(d) ? 0x8000u : 0u;
  const uint16_t over = saturate ? 0x7bffu : 0x7c00u;
  if (std::isnan(d)) return saturate ? 0u : static_cast<uint16_t>(0x7e00u | sign);
  const double a = std::fabs(d);
  if (std::isinf(a)) return static_cast<uint16_t>(sign | over);
  if (a == 0.0) return sign;
  int e = 0;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  int ex = e - 1 < -14 ? -14 : e - 1;
  // The quantum of the binade (subnormals: 2^-24); q is exact, a power-of-two scaling.
  const double q = std::nearbyint(std::ldexp(a, 10 - ex));
  uint32_t m = static_cast<uint32_t>(q);
  if (m == 2048u) {  // rounded up into the next binade
    m = 1024u;
    ++ex;
  }
  if (m < 1024u) return static_cast<uint16_t>(sign | m);  // subnormal (ex is -14)
  if (ex > 15) return static_cast<uint16_t>(sign | over);
  return static_cast<uint16_t>(sign | ((ex + 15) << 10) | (m - 1024u));
}

// binary16 bits -> float, exact.
float HalfBitsToFloat(uint16_t h) {
  const int ex = (h >> 10) & 0x1f;
  const uint32_t m = h & 0x3ffu;
  float v;
  if (ex == 0x1f) {
    v = m != 0 ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else if (ex == 0) {
    v = std::ldexp(static_cast<float>(m), -24);
  } else {
    v = std::ldexp(static_cast<float>(m + 1024u), ex - 25);
  }
  return (h & 0x8000u) != 0 ? -v : v;
}

}  // namespace

uint16_t CdqS32Half(int32_t x, uint16_t scaleBits, CdqArch arch, bool saturate) {
  const float scale = HalfBitsToFloat(scaleBits);
  if (arch == CdqArch::k2201) {
    // int32 (31 bits) times a half (11 significant bits): exact in a double.
    return DoubleToHalfBits(static_cast<double>(x) * static_cast<double>(scale), saturate);
  }
  const float kRight = 1.0f / 131072.0f;  // DEQ_SHIFT_RIGHT_17_BIT, exact
  const float kLeft = 131072.0f;          // DEQ_SHIFT_LEFT_17_BIT as the float Muls takes it
  float f = static_cast<float>(static_cast<double>(x));  // s32 -> f32, CAST_RINT
  f = f * kRight;
  f = f * scale;
  f = f * kLeft;
  return DoubleToHalfBits(static_cast<double>(f), saturate);  // f32 -> f16, CAST_RINT
}

void CdqRegs::SetHalf(uint16_t scaleBits) {
  if (arch == CdqArch::k3510) {
    deqValue = scaleBits;  // SetDeqScaleImpl(T config): g_deqValue only
  } else {
    deqScale = scaleBits;  // set_deqscale(config): the half's bits in the 64-bit register
  }
}

void CdqRegs::SetScalar(float scale, int16_t offset, bool signMode) {
  deqScale = CdqConfig(scale, offset, signMode);  // both: set_deqscale / g_deqScale
}

void CdqRegs::SetVdeqAddr(uint64_t ubAddr) {
  deqScale = arch == CdqArch::k3510 ? ubAddr : ubAddr >> 5;
}

uint16_t CdqRegs::S32Scale() const {
  return arch == CdqArch::k3510 ? deqValue : static_cast<uint16_t>(deqScale & 0xffffu);
}

uint64_t CdqRegs::S16Word() const { return deqScale; }

uint64_t CdqConfig(float scale, int16_t offset, bool signMode) {
  uint32_t bits;
  std::memcpy(&bits, &scale, sizeof bits);
  const uint64_t off = static_cast<uint64_t>(static_cast<int64_t>(offset)) & kOffsetBits;
  return (uint64_t{signMode ? 1u : 0u} << kSignShift) | (off << kOffsetShift) | bits;
}

uint8_t CdqOne(int16_t x, uint64_t word, CdqArch arch, bool vec) {
  return Element(x, word, arch, vec);
}

void CdqCount(uint8_t* dst, const int16_t* src, uint32_t count, const uint64_t* params, bool vec,
              bool halfBlock, CdqArch arch) {
  const uint32_t half = halfBlock ? 16u : 0u;
  if (arch == CdqArch::k3510) {
    // CastDeqImplVF / CastVecDeqImplVF: StoreAlign of the whole register (fullMask) per repeat.
    const uint32_t repeats = (count + 127u) / 128u;
    std::memset(dst, 0, size_t{repeats} * 256u);
  }
  for (uint32_t e = 0; e < count; ++e) {
    dst[(e / 16u) * 32u + half + e % 16u] = Element(src[e], WordFor(params, vec, e), arch, vec);
  }
}

void CdqRepeat(uint8_t* dst, const int16_t* src, const uint64_t bits[2], uint32_t repeatTime,
               uint32_t dstBlk, uint32_t srcBlk, uint32_t dstRep, uint32_t srcRep,
               const uint64_t* params, bool vec, bool halfBlock, CdqArch arch) {
  const uint32_t half = halfBlock ? 16u : 0u;
  for (uint32_t r = 0; r < repeatTime; ++r) {
    for (uint32_t p = 0; p < 128u; ++p) {
      if (((bits[p / 64u] >> (p % 64u)) & 1u) == 0) continue;
      const uint32_t blk = p / 16u;
      const uint32_t at = p % 16u;
      const uint64_t s = (uint64_t{r} * srcRep + uint64_t{blk} * srcBlk) * 16u + at;
      const uint64_t d = (uint64_t{r} * dstRep + uint64_t{blk} * dstBlk) * 32u + half + at;
      dst[d] = Element(src[s], WordFor(params, vec, at), arch, vec);
    }
  }
}

}  // namespace lngrad_replay
