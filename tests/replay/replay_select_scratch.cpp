// lngrad_replay: SelectWithBytesMask's scratch on 2201/2002 (see replay_select_scratch.h for
// what was read and how).
#include "replay_select_scratch.h"

#include <algorithm>
#include <cstring>

#include "replay.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kRepeatBytes = 256;

uint32_t AlignUp32(uint32_t v) { return (v + 31) / 32 * 32; }

// float -> half rounding to odd: truncate toward zero, then set the last bit when inexact;
// saturation mode: NaN -> +0, infinity -> +-65504 (an overflow rounds to odd = 65504 anyway).
uint16_t FloatToHalfOdd(uint32_t f) {
  const uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000u);
  const uint32_t mag = f & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) return 0;                                       // NaN
  if (mag >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7BFFu);  // >= 65520, inf
  if (mag == 0) return sign;
  const int32_t exp = static_cast<int32_t>(mag >> 23);  // biased, float
  uint64_t sig = mag & 0x7FFFFFu;
  if (exp != 0) sig |= 0x800000u;
  // value = sig * 2^(e2), e2 = max(exp,1) - 150; the half's unit (subnormal or normal).
  const int32_t e2 = std::max(exp, 1) - 150;
  // half exponent: unbiased of the value's leading bit
  int32_t lead = 63;
  while (((sig >> lead) & 1u) == 0) --lead;
  const int32_t unb = lead + e2;                    // value in [2^unb, 2^(unb+1))
  const int32_t unitExp = std::max(unb, -14) - 10;  // weight of the half's last bit
  const int32_t shift = unitExp - e2;               // bits of sig dropped
  uint64_t q;
  bool inexact;
  if (shift <= 0) {
    q = sig << -shift;
    inexact = false;
  } else if (shift >= 64) {
    q = 0;
    inexact = true;
  } else {
    q = sig >> shift;
    inexact = (sig & ((uint64_t{1} << shift) - 1)) != 0;
  }
  if (inexact) q |= 1u;
  // q: the significand in units of 2^unitExp (< 2^11); assemble
  uint16_t bits;
  if (unb < -14) {
    bits = static_cast<uint16_t>(q);  // subnormal (q < 2^10)
  } else {
    bits = static_cast<uint16_t>(((unb + 15) << 10) | (q & 0x3FFu));
  }
  return static_cast<uint16_t>(sign | bits);
}

uint16_t MaskToHalf(const uint8_t* p, uint32_t bytes) {
  if (bytes == 1) return FloatToHalf(static_cast<float>(p[0])).bits;
  if (bytes == 2) {
    int16_t v;
    std::memcpy(&v, p, 2);
    return FloatToHalf(static_cast<float>(v)).bits;
  }
  uint32_t v;
  std::memcpy(&v, p, 4);
  return FloatToHalfOdd(v);
}

// One round of SelectWithBytesMaskPerAxisImpl at `work` (`len` mask elements at `m`).
void Round(const uint8_t* m, uint32_t len, uint32_t maskBytes, bool ne, uint8_t* work) {
  for (uint32_t j = 0; j < len; ++j) {
    const uint16_t h = MaskToHalf(m + size_t{j} * maskBytes, maskBytes);
    std::memcpy(work + 2 * j, &h, 2);
  }
  const uint32_t lanes = kRepeatBytes / 2;
  const uint32_t rep = (len + lanes - 1) / lanes;
  std::vector<uint8_t> bits(size_t{rep} * lanes / 8, 0);
  for (uint32_t k = 0; k < rep * lanes; ++k) {
    uint16_t h;
    std::memcpy(&h, work + 2 * k, 2);
    const bool nan = (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0;
    const bool zero = (h & 0x7FFFu) == 0;
    const bool bit = ne ? !zero || nan : zero && !nan;
    if (bit) bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
  }
  std::memcpy(work, bits.data(), bits.size());
}

}  // namespace

void ReplaySelectBytesScratch(const SelectScratchCall& c, const std::vector<uint8_t>& mask,
                              const uint8_t* scalar, std::vector<uint8_t>& scratch) {
  uint32_t bufferSize = static_cast<uint32_t>(scratch.size());
  for (uint32_t b = 0; b < kRepeatBytes; b += c.elemBytes) {
    std::memcpy(scratch.data() + b, scalar, c.elemBytes);
  }
  const bool differ = c.srcLastAxis != c.maskLastAxis;
  std::vector<uint8_t> used = mask;  // the mask the rounds read
  uint32_t offset = 0;
  if (differ && !c.arch2002) {
    const size_t row = size_t{c.srcLastAxis} * c.maskBytes;
    const size_t pitch = size_t{c.maskLastAxis} * c.maskBytes;
    std::vector<uint8_t> packed(size_t{c.firstAxis} * row);
    for (uint32_t r = 0; r < c.firstAxis; ++r) {
      std::memcpy(packed.data() + r * row, mask.data() + r * pitch, row);
    }
    std::copy(packed.begin(), packed.end(), used.begin());
    if (!c.isReuseMask) {
      std::copy(packed.begin(), packed.end(), scratch.begin());
      offset = AlignUp32(c.tensorSize * c.maskBytes);
      bufferSize -= offset;
    }
  }
  bufferSize -= kRepeatBytes;
  uint32_t loopSize = bufferSize / 2 / 32 * 32;
  loopSize = std::min<uint32_t>(loopSize, 255 * kRepeatBytes / 2);
  uint8_t* work = scratch.data() + offset;
  const auto run = [&](uint32_t total, size_t maskBase) {
    for (uint32_t off = 0; off < total; off += loopSize) {
      const uint32_t len = std::min(loopSize, total - off);
      Round(used.data() + (maskBase + off) * c.maskBytes, len, c.maskBytes, c.scalarFirst, work);
    }
  };
  if (differ && c.arch2002) {
    for (uint32_t r = 0; r < c.firstAxis; ++r) run(c.srcLastAxis, size_t{r} * c.maskLastAxis);
  } else {
    run(c.tensorSize, 0);
  }
}

}  // namespace lngrad_replay
