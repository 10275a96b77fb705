// lngrad_replay: ReduceXorSum and SelectWithBytesMask on arch 2002 beside 2201 (replay_v200.h).
// Built with -ffp-contract=off (lngrad_strict_fp).
#include "replay_v200.h"

#include <cmath>
#include <cstring>

namespace lngrad_replay {

int16_t ReplayReduceXorSum2002(const std::vector<int16_t>& a, const std::vector<int16_t>& b,
                               uint32_t calCount) {
  double sum = 0.0;  // exact under the header's condition
  for (uint32_t i = 0; i < calCount; ++i) {
    const int16_t both = static_cast<int16_t>(a[i] & b[i]);
    const int16_t either = static_cast<int16_t>(a[i] | b[i]);
    const int16_t x = static_cast<int16_t>(static_cast<int16_t>(~both) & either);
    sum += static_cast<double>(HalfToFloat(FloatToHalf(static_cast<float>(x))));
  }
  const float h = HalfToFloat(FloatToHalf(static_cast<float>(sum)));
  if (h >= 32767.0f) return 32767;  // +inf or a large half: saturated
  if (h <= -32768.0f) return -32768;
  return static_cast<int16_t>(std::nearbyint(h));  // RINT; h is an integer here anyway
}

namespace {

bool MaskElemIsZero(const uint8_t* p, uint32_t bytes, bool nanIsZero) {
  if (bytes == 1) return p[0] == 0;
  if (bytes == 2) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v == 0;
  }
  uint32_t v;
  std::memcpy(&v, p, 4);
  const bool nan = (v & 0x7F800000u) == 0x7F800000u && (v & 0x007FFFFFu) != 0;
  return (v & 0x7FFFFFFFu) == 0 || (nan && nanIsZero);
}

}  // namespace

template <class T>
size_t ReplaySelectBytes(const SelectBytesCall& c, const std::vector<T>& tensor, T scalar,
                         std::vector<uint8_t>& mask, std::vector<T>& dst) {
  const uint32_t mb = c.maskBytes;
  const bool differ = c.srcLastAxis != c.maskLastAxis;
  std::vector<uint8_t> packed;  // 2201's GatherMask result
  const uint8_t* maskRead = mask.data();
  if (differ && !c.arch2002) {
    const size_t rowWords = size_t{c.srcLastAxis} * mb / 2;
    const size_t maskRow = size_t{c.maskLastAxis} * mb;
    packed.assign(mask.begin(), mask.end());
    // GatherMask pattern 7 in counter mode: each repeat copies the row's first rowWords words
    // to the next free words of the destination (the rows only move down: in place is safe).
    for (uint32_t r = 0; r < c.firstAxis; ++r) {
      std::memmove(packed.data() + r * rowWords * 2, packed.data() + r * maskRow, rowWords * 2);
    }
    if (c.isReuseMask) {
      mask = packed;
      maskRead = mask.data();
    } else {
      maskRead = packed.data();
    }
  }
  const auto pick = [&](size_t e, size_t m) {
    const bool zero = MaskElemIsZero(maskRead + m * mb, mb, c.nanIsZero);
    dst[e] = zero != c.scalarFirst ? tensor[e] : scalar;
  };
  if (differ && c.arch2002) {
    for (uint32_t r = 0; r < c.firstAxis; ++r) {
      for (uint32_t j = 0; j < c.srcLastAxis; ++j) {
        pick(size_t{r} * c.srcLastAxis + j, size_t{r} * c.maskLastAxis + j);
      }
    }
    return size_t{c.firstAxis} * c.srcLastAxis;
  }
  for (size_t e = 0; e < tensor.size(); ++e) pick(e, e);
  return tensor.size();
}

template size_t ReplaySelectBytes<uint16_t>(const SelectBytesCall&, const std::vector<uint16_t>&,
                                            uint16_t, std::vector<uint8_t>&,
                                            std::vector<uint16_t>&);
template size_t ReplaySelectBytes<uint32_t>(const SelectBytesCall&, const std::vector<uint32_t>&,
                                            uint32_t, std::vector<uint8_t>&,
                                            std::vector<uint32_t>&);

}  // namespace lngrad_replay
