// AscendAntiQuant's fallbacks with an offset tensor on arch 2201 (replay_antiquant_nt.h).
#include "replay_antiquant_nt.h"

#include <algorithm>
#include <cstring>

#include "replay.h"

namespace lngrad_replay::aqnt {

namespace {

// Source element e (int8_t: byte e; int4b_t: nibble e, low nibble first, two's complement).
float SourceValue(const std::vector<uint8_t>& src, bool int4, uint64_t e) {
  if (!int4) return static_cast<float>(static_cast<int8_t>(src[e]));
  const uint8_t byte = src[e / 2];
  const int nib = (e % 2 == 0) ? (byte & 0x0F) : (byte >> 4);
  return static_cast<float>(nib >= 8 ? nib - 16 : nib);
}

// The first element an operator[] at element `at` of a tensor of this type addresses: itself,
// or for a half-byte type the even element of the byte it lies in.
uint64_t Start(bool int4, uint64_t at) { return int4 ? at / 2 * 2 : at; }

void PutFloat(std::vector<uint8_t>& b, uint64_t i, float v) { std::memcpy(&b[4 * i], &v, 4); }

}  // namespace

bool TakesPerformancePath(const NtCall& c) {
  return uint64_t{c.tmpBytes} >= uint64_t{c.scaleSize} * 2 * 4 + uint64_t{64} * c.k * 4;
}

bool Bf16NoTransposeFallback(const NtCall& c, const std::vector<uint8_t>& src,
                             std::vector<uint8_t>& tmp, std::vector<uint16_t>& dst) {
  if (TakesPerformancePath(c) || c.k == 0 || c.groupCount == 0) return false;
  const uint64_t n = c.srcSize / c.k;         // N
  const uint64_t rows = c.k / c.groupCount;   // groupSize: the rows the loop runs
  const uint64_t chunk = c.tmpBytes / 2 / 4;  // tmpSize
  if (chunk == 0 || tmp.size() < c.tmpBytes || dst.size() < rows * n) return false;
  const uint64_t paramsRead = std::min(n, chunk);
  if (c.offset.size() < paramsRead || c.scale.size() < paramsRead) return false;
  // A start rounded down to an even nibble reads no further than the element count.
  if (src.size() < (c.int4 ? (rows * n + 1) / 2 : rows * n)) return false;
  for (uint64_t j = 0; j < rows; ++j) {
    const uint64_t callSrc = Start(c.int4, j * n);  // src[j N]
    for (uint64_t t = 0; t < n; t += chunk) {
      const uint64_t cnt = std::min(chunk, n - t);
      const uint64_t chunkSrc = callSrc + Start(c.int4, t);  // the chunk's src[t]
      // Cast to halves at byte 2 cnt, to floats at float 0: the values are small integers, so
      // the staging is exact; its bytes end under the products.
      std::vector<float> acc(cnt);
      for (uint64_t l = 0; l < cnt; ++l) acc[l] = SourceValue(src, c.int4, chunkSrc + l);
      for (uint64_t l = 0; l < cnt; ++l) acc[l] = acc[l] + Bf16ToFloat(Bf16{c.offset[l]});
      for (uint64_t l = 0; l < cnt; ++l) acc[l] = acc[l] * Bf16ToFloat(Bf16{c.scale[l]});
      for (uint64_t l = 0; l < cnt; ++l) {
        PutFloat(tmp, l, acc[l]);
        // floats [cnt, 2 cnt): the scale's floats, cast over the offset's.
        PutFloat(tmp, cnt + l, Bf16ToFloat(Bf16{c.scale[l]}));
        dst[j * n + t + l] = FloatToBf16Saturate(acc[l]).bits;
      }
    }
  }
  return true;
}

bool Bf16Performance(const PerfCall& c, const std::vector<uint8_t>& src,
                     std::vector<uint16_t>& dst) {
  if (c.k == 0) return false;
  const uint64_t n = c.srcSize / c.k, so = c.offset.size();
  // int8_t N a multiple of 16 (not 32) with K <= 255: the rows read 32 * (N / 32) bytes apart.
  const bool strided = !c.int4 && n % 32 != 0 && n % 16 == 0 && c.k <= 255;
  if (n == 0 || (n % (c.int4 ? 64 : 32) != 0 && !strided) || so < n || c.scale.size() < so) {
    return false;
  }
  const uint64_t rowRead = strided ? n / 32 * 32 : n;
  if (dst.size() < uint64_t{c.k} * n || src.size() < (c.int4 ? c.k * n / 2 : c.k * n)) return false;
  // The PreCast image: floats [0, So) the offset, [So, 2 So) the scale.
  const auto image = [&](uint64_t f) {
    return Bf16ToFloat(Bf16{f < so ? c.offset[f] : c.scale[f - so]});
  };
  for (uint64_t r = 0; r < c.k; ++r) {
    for (uint64_t col = 0; col < n; ++col) {
      const float x = SourceValue(src, c.int4, r * rowRead + col);  // through half: exact
      dst[r * n + col] = FloatToBf16Saturate((x + image(col)) * image(n + col)).bits;
    }
  }
  return true;
}

bool HalfTransposedFallback(const TCall& c, const std::vector<uint8_t>& src,
                            std::vector<uint16_t>& dst) {
  if (c.k == 0 || c.offsetGroups == 0 || c.offsetGroups > c.k) return false;
  const uint64_t n = c.srcSize / c.k;
  const uint64_t groupSize = c.k / c.offsetGroups;
  const uint64_t len = c.k / groupSize;  // L: the groups of a row (K / groupSize)
  if (c.offset.size() < n * len || c.scale.size() < n * len || dst.size() < n * c.k) return false;
  if (src.size() < (c.int4 ? (uint64_t{c.srcSize} + 1) / 2 : c.srcSize)) return false;
  for (uint64_t i = 0; i < n; ++i) {
    for (uint64_t j = 0; j < len; ++j) {
      const uint64_t at = i * c.k + j * groupSize;
      const uint64_t from = Start(c.int4, at);
      const float off = HalfToFloat(Half{c.offset[i * len + j]});
      const float sc = HalfToFloat(Half{c.scale[i * len + j]});
      for (uint64_t l = 0; l < groupSize; ++l) {
        const float x = SourceValue(src, c.int4, from + l);   // exact in half
        const float sum = HalfToFloat(FloatToHalf(x + off));  // Adds: one rounding
        dst[at + l] = FloatToHalf(sum * sc).bits;             // Muls: one rounding
      }
    }
  }
  return true;
}

}  // namespace lngrad_replay::aqnt
