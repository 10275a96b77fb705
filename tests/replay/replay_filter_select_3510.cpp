// DropOut and SelectWithBytesMask on the 950 (replay_filter_select_3510.h), walked register by
// register as dropout_3510_impl.h and selectwithbytesmask_3510_impl.h run them: 256-byte
// registers (64 float or 128 half lanes), UpdateMask's running count, the mask loads at the
// source's byte offsets.
#include "replay_filter_select_3510.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace lngrad_replay {
namespace {

constexpr uint32_t kVecBytes = 256;

template <class T>
float Widen(T v) {
  if constexpr (std::is_same_v<T, Bf16>) {
    return Bf16ToFloat(v);
  } else {
    return ToFloat(v);
  }
}

template <class T>
T Narrow(float v) {
  if constexpr (std::is_same_v<T, Bf16>) {
    return FloatToBf16(v);
  } else {
    return FromFloat<T>(v);
  }
}

// One lane of the register Mul: the exact product (exact in float for half and bfloat16 lanes)
// rounded once to T.
template <class T>
T MulLane(T a, T b) {
  return Narrow<T>(Widen(a) * Widen(b));
}

// UpdateMask<T>(sreg): min(sreg, lanes) lanes active, sreg reduced by them.
uint32_t UpdateMask(uint32_t& sreg, uint32_t lanes) {
  const uint32_t n = std::min(sreg, lanes);
  sreg -= n;
  return n;
}

// Bit k of the bytes from `base` (the mask register's lane order).
bool BitAt(const uint8_t* base, uint64_t k) { return ((base[k / 8] >> (k % 8)) & 1u) != 0; }

// One register of the byte mode: the mask bytes from `m` cast to T (exact), Mul by the source,
// Mul by div, stored on the first `active` lanes.
template <class T>
void ByteRegister(const T* src, const uint8_t* m, T div, uint32_t active, T* dst) {
  for (uint32_t l = 0; l < active; ++l) {
    const T mv = Narrow<T>(static_cast<float>(m[l]));
    const T v = MulLane(mv, src[l]);
    dst[l] = MulLane(div, v);
  }
}

// One register of the bit mode: Select(src, 0, bit) then Mul by div under the bit (ZEROING:
// +0 where the bit is clear), stored on the first `active` lanes; bits from `m`, lane l at bit l.
template <class T>
void BitRegister(const T* src, const uint8_t* m, T div, uint32_t active, T* dst) {
  for (uint32_t l = 0; l < active; ++l) {
    dst[l] = BitAt(m, l) ? MulLane(src[l], div) : Narrow<T>(0.0f);
  }
}

// VFDropOutByteModeCalc (rows == 1, width == dataSize) and VFDropOutByteModeCalcInfo: per row,
// per register of the row.
template <class T>
void ByteMode(const T* src, const uint8_t* mask, T div, uint32_t rows, uint32_t width,
              uint32_t maskStride, T* dst) {
  constexpr uint32_t lanes = kVecBytes / sizeof(T);
  const uint32_t repeats = (width + lanes - 1) / lanes;
  for (uint64_t h = 0; h < rows; ++h) {
    uint32_t sreg = width;
    for (uint64_t i = 0; i < repeats; ++i) {
      const uint32_t active = UpdateMask(sreg, lanes);
      const uint64_t at = h * width + i * lanes;
      ByteRegister(src + at, mask + h * maskStride + i * lanes, div, active, dst + at);
    }
  }
}

// The bit mode. Half / bfloat16: a register of 128 lanes per 16 mask bytes. Float
// (DropOutBitModeFP32Main, then the tail): pairs of 64-lane registers per 16 mask bytes
// (MaskInterleave with all-ones puts bits [0, 64) in the first, [64, 128) in the second), then an
// odd last register from the next 16 bytes (MaskUnPack of the lower 64 bits). Each row's bits
// start at byte rowBytes * h.
template <class T>
void BitMode(const T* src, const uint8_t* mask, T div, uint32_t rows, uint32_t width,
             uint64_t rowBytes, T* dst) {
  constexpr uint32_t lanes = kVecBytes / sizeof(T);
  const uint32_t repeats = (width + lanes - 1) / lanes;
  if constexpr (sizeof(T) == 2) {
    for (uint64_t h = 0; h < rows; ++h) {
      uint32_t sreg = width;
      for (uint64_t i = 0; i < repeats; ++i) {
        const uint32_t active = UpdateMask(sreg, lanes);
        const uint64_t at = h * width + i * lanes;
        BitRegister(src + at, mask + h * rowBytes + i * 16, div, active, dst + at);
      }
    }
  } else {
    const uint32_t pairs = repeats >> 1;
    for (uint64_t h = 0; h < rows; ++h) {
      uint32_t sreg = width;
      for (uint64_t i = 0; i < pairs; ++i) {
        const uint8_t* m = mask + h * rowBytes + i * 16;
        const uint64_t at = h * width + i * 2 * lanes;
        uint32_t active = UpdateMask(sreg, lanes);
        BitRegister(src + at, m, div, active, dst + at);
        active = UpdateMask(sreg, lanes);
        BitRegister(src + at + lanes, m + 8, div, active, dst + at + lanes);
      }
    }
    if ((repeats & 1) != 0) {
      const uint64_t offset = uint64_t{pairs} * 2 * lanes;
      for (uint64_t h = 0; h < rows; ++h) {
        uint32_t sreg = static_cast<uint32_t>(width - offset);
        const uint32_t active = UpdateMask(sreg, lanes);
        const uint64_t at = h * width + offset;
        BitRegister(src + at, mask + h * rowBytes + pairs * 16, div, active, dst + at);
      }
    }
  }
}

}  // namespace

uint32_t DropOutMode3510(const DropOutShape& s, uint32_t dropOutMode) {
  if (dropOutMode != 0) return dropOutMode;
  if (s.srcLastAxis < s.maskLastAxis) return 1;
  if (s.srcLastAxis == s.maskLastAxis) return 2;
  if (s.srcLastAxis == s.maskLastAxis * 8) return 3;
  return 4;
}

template <class T>
uint32_t ReplayDropOut3510(const DropOutShape& s, uint32_t dropOutMode, const T* src,
                           const uint8_t* mask, float keepProb, T* dst) {
  float divValue = 1.0f;
  divValue = divValue / keepProb;
  const T div = Narrow<T>(divValue);
  const uint32_t mode = DropOutMode3510(s, dropOutMode);
  const uint32_t dataSize = s.firstAxis * s.srcLastAxis;  // uint32 product, as the source's
  switch (mode) {
    case 1:
      ByteMode(src, mask, div, s.firstAxis, s.srcLastAxis, s.maskLastAxis, dst);
      break;
    case 2:
      ByteMode(src, mask, div, 1, dataSize, 0, dst);
      break;
    case 3:
      BitMode(src, mask, div, 1, dataSize, 0, dst);
      break;
    default:
      BitMode(src, mask, div, s.firstAxis, s.srcLastAxis, uint64_t{s.maskLastAxis >> 2} * 4, dst);
      break;
  }
  return mode;
}

template <class T, class U>
void ReplaySelectWithBytesMask3510(uint32_t firstAxis, uint32_t srcLastAxis, uint32_t maskLastAxis,
                                   const T* tensor, T scalar, const U* mask, bool scalarFirst,
                                   T* dst) {
  constexpr uint32_t lanes = kVecBytes / sizeof(T);
  const uint32_t repeats = (srcLastAxis + lanes - 1) / lanes;
  for (uint64_t h = 0; h < firstAxis; ++h) {
    uint32_t sreg = srcLastAxis;
    for (uint64_t i = 0; i < repeats; ++i) {
      const uint32_t active = UpdateMask(sreg, lanes);
      const uint64_t at = h * srcLastAxis + i * lanes;
      const U* m = mask + h * maskLastAxis + i * lanes;
      for (uint32_t l = 0; l < active; ++l) {
        // CompareScalar EQ 0 (tensor, scalar) or NE 0 (scalar, tensor): the Select's condition
        // takes the tensor's lane.
        const bool zero = m[l] == U{0};
        const bool takeTensor = scalarFirst ? !zero : zero;
        dst[at + l] = takeTensor ? tensor[at + l] : scalar;
      }
    }
  }
}

#define LNGRAD_REPLAY_DROPOUT(T)                                                                  \
  template uint32_t ReplayDropOut3510<T>(const DropOutShape&, uint32_t, const T*, const uint8_t*, \
                                         float, T*);
LNGRAD_REPLAY_DROPOUT(float)
LNGRAD_REPLAY_DROPOUT(Half)
LNGRAD_REPLAY_DROPOUT(Bf16)
#undef LNGRAD_REPLAY_DROPOUT

#define LNGRAD_REPLAY_SELECT(T, U)                                                             \
  template void ReplaySelectWithBytesMask3510<T, U>(uint32_t, uint32_t, uint32_t, const T*, T, \
                                                    const U*, bool, T*);
#define LNGRAD_REPLAY_SELECT_ALL(T) \
  LNGRAD_REPLAY_SELECT(T, uint8_t)  \
  LNGRAD_REPLAY_SELECT(T, int8_t)   \
  LNGRAD_REPLAY_SELECT(T, uint16_t) \
  LNGRAD_REPLAY_SELECT(T, int16_t)  \
  LNGRAD_REPLAY_SELECT(T, uint32_t) \
  LNGRAD_REPLAY_SELECT(T, int32_t)
LNGRAD_REPLAY_SELECT_ALL(float)
LNGRAD_REPLAY_SELECT_ALL(Half)
#undef LNGRAD_REPLAY_SELECT_ALL
#undef LNGRAD_REPLAY_SELECT

}  // namespace lngrad_replay
