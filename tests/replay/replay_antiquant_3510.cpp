// lngrad_replay: AscendAntiQuant's scale-only forms on arch 3510 (replay_antiquant_3510.h).
#include "replay_antiquant_3510.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "replay.h"

namespace lngrad_replay::aq3510 {

float ToBf16(float v) {
  if (std::isnan(v)) return 0.0f;
  uint32_t u = Bits(v);
  u += 0x7FFFu + ((u >> 16) & 1u);
  const float r = FromBits(u & 0xFFFF0000u);
  return std::isinf(r) ? std::copysign(FromBits(0x7F7F0000u), r) : r;
}

namespace {

float ToHalf(float v) { return HalfToFloat(FloatToHalf(v)); }

// One element: the widened source times the scale, rounded as the output type.
float Scaled(bool bf16, int8_t x, float s) {
  const float w = static_cast<float>(x);
  return bf16 ? ToBf16(w * s) : ToHalf(w * s);
}

void NotTransposed(const ScaleOnlyCall& c, const std::vector<int8_t>& src,
                   std::vector<float>& dst) {
  const uint32_t groups = c.scaleRows, groupSize = c.k / groups, n = c.scaleCols;
  const uint32_t tmpSize = c.tmpBytes / 2 / 4;
  for (uint32_t g = 0; g < groups; ++g) {
    for (uint32_t j = 0; j < groupSize; ++j) {
      const size_t row = (size_t{g} * groupSize + j) * n;
      for (uint32_t e = 0; e < n; ++e) {
        const uint32_t at = c.bf16 ? e % tmpSize : e;
        dst[row + e] = Scaled(c.bf16, src[row + e], c.scale[size_t{g} * n + at]);
      }
    }
  }
}

}  // namespace

bool ScaleOnly(const ScaleOnlyCall& c, const std::vector<int8_t>& src, std::vector<float>& dst) {
  if (c.scale.empty()) {
    for (uint32_t e = 0; e < c.srcSize; ++e) dst[e] = Scaled(c.bf16, src[e], c.scaleScalar);
    return true;
  }
  if (!c.transpose) {
    NotTransposed(c, src, dst);
    return true;
  }
  if (c.bf16) return false;
  const uint32_t rows = c.srcSize / c.k;
  const bool brcb = c.tmpBytes / 2 >= 16 * c.scaleRows && c.k < 4096;
  if (brcb) {
    if (c.k % 16 != 0 || c.scaleRows % 8 != 0 || rows > c.scaleRows) return false;
    for (uint32_t e = 0; e < c.srcSize; ++e) dst[e] = static_cast<float>(src[e]);
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t kk = 0; kk < c.k; ++kk) {
        const size_t e = size_t{r} * c.k + kk;
        dst[e] = ToHalf(dst[e] * c.scale[r]);
      }
    }
    return true;
  }
  const uint32_t groupSize = c.k / c.scaleCols, perRow = c.k / groupSize;
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < perRow; ++j) {
      const float s = c.scale[size_t{i} * perRow + j];
      for (uint32_t t = 0; t < groupSize; ++t) {
        const size_t e = size_t{i} * c.k + size_t{j} * groupSize + t;
        dst[e] = Scaled(false, src[e], s);
      }
    }
  }
  return true;
}

std::vector<int8_t> DecodeInt4(const std::vector<uint8_t>& bytes, size_t count) {
  std::vector<int8_t> v(count);
  for (size_t e = 0; e < count; ++e) {
    const unsigned nib = e % 2 == 0 ? bytes[e / 2] & 0xFu : bytes[e / 2] >> 4;
    v[e] = static_cast<int8_t>(nib >= 8 ? static_cast<int>(nib) - 16 : static_cast<int>(nib));
  }
  return v;
}

std::vector<int8_t> Int4AsRead(const ScaleOnlyCall& c, const std::vector<uint8_t>& bytes) {
  const std::vector<int8_t> nib = DecodeInt4(bytes, c.srcSize);
  std::vector<int8_t> v = nib;
  // One AntiQuantOuterLoop call: src[s], len elements.
  const auto call = [&](uint64_t s, uint64_t len) {
    const uint64_t tmpSize = c.bf16 ? c.tmpBytes / 8 : len;
    for (uint64_t t = 0; t < len; t += tmpSize) {
      const uint64_t count = std::min(tmpSize, len - t);
      for (uint64_t j = 0; j < count; ++j) v[s + t + j] = nib[2 * (s / 2) + 2 * (t / 2) + j];
    }
  };
  if (c.scale.empty()) {
    call(0, c.srcSize);
  } else if (!c.transpose) {
    const uint32_t groupSize = c.k / c.scaleRows, n = c.scaleCols;
    for (uint32_t i = 0; i < c.scaleRows; ++i) {
      for (uint32_t j = 0; j < groupSize; ++j) call((uint64_t{i} * groupSize + j) * n, n);
    }
  } else if (c.bf16 || c.tmpBytes / 2 < 16 * c.scaleRows || c.k >= 4096) {
    const uint32_t groupSize = c.k / c.scaleCols, perRow = c.k / groupSize;
    for (uint32_t i = 0; i < c.srcSize / c.k; ++i) {
      for (uint32_t j = 0; j < perRow; ++j)
        call(uint64_t{i} * c.k + uint64_t{j} * groupSize, groupSize);
    }
  }
  return v;
}

void ScaleOnlyScratch(const ScaleOnlyCall& c, const std::vector<int8_t>& src,
                      std::vector<uint8_t>& tmp) {
  const uint64_t tmpSize = c.tmpBytes / 8;
  if (!c.bf16 || tmpSize == 0 || (c.transpose && !c.scale.empty())) return;
  const auto setF = [&](uint64_t i, float v) { std::memcpy(tmp.data() + 4 * i, &v, 4); };
  // One AntiQuantOuterLoop call at s of len elements; row: the scale row (tensor form) or null.
  const auto call = [&](uint64_t s, uint64_t len, const float* row, float scalar) {
    for (uint64_t t = 0; t < len; t += tmpSize) {
      const uint64_t n = std::min(tmpSize, len - t);
      for (uint64_t l = 0; l < n; ++l) {
        setF(l, static_cast<float>(src[s + t + l]) * (row != nullptr ? row[l] : scalar));
      }
      for (uint64_t l = 0; row != nullptr && l < n; ++l) setF(n + l, row[l]);
    }
  };
  if (c.scale.empty()) return call(0, c.srcSize, nullptr, c.scaleScalar);
  const uint32_t groupSize = c.k / c.scaleRows, n = c.scaleCols;
  for (uint32_t g = 0; g < c.scaleRows; ++g) {
    for (uint32_t j = 0; j < groupSize; ++j) {
      call((uint64_t{g} * groupSize + j) * n, n, c.scale.data() + uint64_t{g} * n, 0.0f);
    }
  }
}

namespace {

uint16_t HalfBitsAt(const std::vector<uint8_t>& tmp, size_t halfIndex) {
  return static_cast<uint16_t>(tmp[2 * halfIndex] | (tmp[2 * halfIndex + 1] << 8));
}

float HalfValue(uint16_t bits) { return HalfToFloat(Half{bits}); }

uint16_t HalfOf(float v) { return FloatToHalf(v).bits; }

}  // namespace

bool BrcbPath(const BrcbCall& c, const std::vector<int8_t>& src, std::vector<uint8_t>& tmp,
              std::vector<uint16_t>& dst) {
  if (c.k == 0 || c.k % 16 != 0) return false;
  const uint32_t rows = c.srcSize / c.k;
  const uint32_t repeats = static_cast<uint8_t>(c.scaleN / 8);
  const size_t scaleAt = 0, offsetAt = size_t{16} * c.scaleN;  // in halves
  const size_t blocks = std::max<size_t>(rows, size_t{8} * repeats);
  const size_t need = (c.withOffset ? offsetAt : scaleAt) + 16 * blocks;
  if (tmp.size() < 2 * need) return false;
  // 1. the Cast
  for (uint32_t e = 0; e < c.srcSize; ++e) dst[e] = HalfOf(static_cast<float>(src[e]));
  // 2. the Brcb of scale, then of offset
  auto brcb = [&](const std::vector<uint16_t>& from, size_t at) {
    for (size_t b = 0; b < size_t{8} * repeats; ++b) {
      for (size_t l = 0; l < 16; ++l) {
        tmp[2 * (at + 16 * b + l)] = static_cast<uint8_t>(from[b] & 0xFFu);
        tmp[2 * (at + 16 * b + l) + 1] = static_cast<uint8_t>(from[b] >> 8);
      }
    }
  };
  brcb(c.scale, scaleAt);
  if (c.withOffset) brcb(c.offset, offsetAt);
  // 3. Add then Mul, row r against block r
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t col = 0; col < c.k; ++col) {
      const size_t e = size_t{r} * c.k + col;
      const size_t lane = 16 * size_t{r} + col % 16;
      if (c.withOffset) {
        dst[e] = HalfOf(HalfValue(dst[e]) + HalfValue(HalfBitsAt(tmp, offsetAt + lane)));
      }
      dst[e] = HalfOf(HalfValue(dst[e]) * HalfValue(HalfBitsAt(tmp, scaleAt + lane)));
    }
  }
  return true;
}

}  // namespace lngrad_replay::aq3510
