// lngrad_replay: DropOut's dst, mask and scratch on 2201/2002 (see replay_dropout_scratch.h for
// what was read and how).
#include "replay_dropout_scratch.h"

#include <cstring>

#include "replay.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kBlock = 32;
constexpr uint32_t kRepeatBytes = 256;

template <class T>
T Mul(T a, T b) {
  return FromFloat<T>(ToFloat(a) * ToFloat(b));
}

// The byte mode's chunk (elements) for a scratch of `bytes`.
uint32_t ByteChunk(uint32_t elemBytes, uint64_t bytes) {
  if (elemBytes == 2) return static_cast<uint32_t>(bytes / 2 / kBlock * kBlock);
  return static_cast<uint32_t>(bytes / 6 / kBlock * kBlock);
}

// DropOutByteMode over n elements at dst/src, the mask bytes at m.
template <class T>
void ByteMode(const DropOutScratchCall& c, T div, const T* src, T* dst, const uint8_t* m,
              uint32_t n, std::vector<uint8_t>& scratch) {
  const uint32_t chunk = ByteChunk(c.elemBytes, scratch.size());
  for (uint32_t off = 0; off < n; off += chunk) {
    const uint32_t len = n - off < chunk ? n - off : chunk;
    for (uint32_t j = 0; j < len; ++j) {
      const Half h = FloatToHalf(static_cast<float>(m[off + j]));
      std::memcpy(&scratch[2 * size_t{j}], &h, 2);
      if (c.elemBytes == 4) {
        const float f = HalfToFloat(h);
        std::memcpy(&scratch[2 * size_t{chunk} + 4 * size_t{j}], &f, 4);
      }
      const T mv = FromFloat<T>(HalfToFloat(h));
      dst[off + j] = Mul(Mul(mv, src[off + j]), div);
    }
  }
}

// GatherMask mode 7 in counter mode: `rows` repeats of `keep` bytes from pitch `pitch`, packed.
void Gather(std::vector<uint8_t>& mask, uint32_t rows, uint32_t keep, uint32_t pitch) {
  for (uint32_t r = 0; r < rows; ++r) {
    std::memmove(&mask[size_t{r} * keep], &mask[size_t{r} * pitch], keep);
  }
}

template <class T>
T SelectBit(const uint8_t* m, uint32_t e, T v) {
  return ((m[e / 8] >> (e % 8)) & 1u) != 0 ? v : FromFloat<T>(0.0f);
}

}  // namespace

uint32_t DropOutScratchMode(const DropOutScratchCall& c) {
  if (c.dropOutMode != 0) return c.dropOutMode;
  if (c.srcLastAxis < c.maskLastAxis) return 1;
  if (c.srcLastAxis == c.maskLastAxis) return 2;
  if (c.srcLastAxis == c.maskLastAxis * 8) return 3;
  return 4;
}

template <class T>
bool ReplayDropOutScratch(const DropOutScratchCall& c, float keepProb, const T* src, T* dst,
                          std::vector<uint8_t>& mask, std::vector<uint8_t>& scratch) {
  const uint32_t mode = DropOutScratchMode(c);
  const T div = FromFloat<T>(1.0f / keepProb);
  const uint32_t n = c.firstAxis * c.srcLastAxis;
  if (mode == 1 || mode == 2) {
    if (ByteChunk(c.elemBytes, scratch.size()) == 0) return false;
    if (mode == 2) {
      ByteMode(c, div, src, dst, mask.data(), n, scratch);
    } else if (!c.arch2002) {
      Gather(mask, c.firstAxis, c.srcLastAxis, c.maskLastAxis);
      ByteMode(c, div, src, dst, mask.data(), n, scratch);
    } else {
      for (uint32_t i = 0; i < c.firstAxis; ++i) {
        const size_t o = size_t{i} * c.srcLastAxis;
        ByteMode(c, div, src + o, dst + o, &mask[size_t{i} * c.maskLastAxis], c.srcLastAxis,
                 scratch);
      }
    }
    return true;
  }
  if (!c.isInitBitMode) {
    for (size_t b = 0; b < kRepeatBytes && b < scratch.size(); ++b) scratch[b] = 0;
  }
  if (mode == 4 && c.arch2002) {
    for (uint32_t i = 0; i < c.firstAxis; ++i) {
      const uint8_t* row = &mask[size_t{i} * c.maskLastAxis];
      for (uint32_t k = 0; k < c.srcLastAxis; ++k) {
        const size_t e = size_t{i} * c.srcLastAxis + k;
        dst[e] = SelectBit(row, k, src[e]);
      }
    }
  } else {
    if (mode == 4) Gather(mask, c.firstAxis, c.srcLastAxis / 8, c.maskLastAxis);
    for (uint32_t e = 0; e < n; ++e) dst[e] = SelectBit(mask.data(), e, src[e]);
  }
  for (uint32_t e = 0; e < n; ++e) dst[e] = Mul(dst[e], div);
  return true;
}

template bool ReplayDropOutScratch<float>(const DropOutScratchCall&, float, const float*, float*,
                                          std::vector<uint8_t>&, std::vector<uint8_t>&);
template bool ReplayDropOutScratch<Half>(const DropOutScratchCall&, float, const Half*, Half*,
                                         std::vector<uint8_t>&, std::vector<uint8_t>&);

}  // namespace lngrad_replay
