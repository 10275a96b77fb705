// Helpers of the activation replay tests (activation_replay_test.cpp on 2201/2002,
// activation_3510_replay_test.cpp on the 950): the replay's storage type of a kernel element type,
// conversions through the replay's own functions (no lngrad conversion), the special inputs and
// the bit-for-bit comparison.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "replay_activation.h"

namespace activation_replay_test {

namespace rp = lngrad_replay;

// The replay's storage type for a kernel element type.
template <class T>
struct ReplayOf {
  using type = float;
};
template <>
struct ReplayOf<half> {
  using type = rp::Half;
};
template <>
struct ReplayOf<bfloat16_t> {
  using type = rp::Bf16;
};
template <class T>
using R = typename ReplayOf<T>::type;

// A float as T through the replay's own conversions (bits copied, no lngrad conversion).
template <class T>
inline T Make(float f) {
  T out;
  if constexpr (std::is_same_v<T, half>) {
    const rp::Half h = rp::FloatToHalf(f);
    std::memcpy(&out, &h, 2);
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    const rp::Bf16 b = rp::FloatToBf16(f);
    std::memcpy(&out, &b, 2);
  } else {
    out = f;
  }
  return out;
}

template <class T>
inline float Value(T v) {
  R<T> r;
  std::memcpy(&r, &v, sizeof(T));
  if constexpr (std::is_same_v<T, half>) {
    return rp::HalfToFloat(r);
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return rp::Bf16ToFloat(r);
  } else {
    return r;
  }
}

template <class T>
uint32_t BitsOf(T v) {
  if constexpr (sizeof(T) == 2) {
    return std::bit_cast<uint16_t>(v);
  } else {
    return std::bit_cast<uint32_t>(v);
  }
}

template <class T>
T Sentinel() {
  return Make<T>(-7.25f);
}

// Values the sequences branch on: zeros, infinities, NaN, subnormals, the exp overflow of half
// (|x| > 11.09) and float (|x| > 88.72), FasterGeluV2's clip (|0.7071 x| = 1.769), large values.
inline const std::vector<float>& Specials() {
  static const std::vector<float> v = {0.0f,
                                       -0.0f,
                                       std::numeric_limits<float>::infinity(),
                                       -std::numeric_limits<float>::infinity(),
                                       std::numeric_limits<float>::quiet_NaN(),
                                       1.0f,
                                       -1.0f,
                                       1e-40f,
                                       -1e-40f,
                                       6e-8f,
                                       -6e-8f,
                                       2.5017f,
                                       -2.5017f,
                                       2.5018f,
                                       -2.5018f,
                                       11.0f,
                                       -11.0f,
                                       11.2f,
                                       -11.2f,
                                       20.0f,
                                       -20.0f,
                                       88.7f,
                                       -88.7f,
                                       89.0f,
                                       -89.0f,
                                       200.0f,
                                       -200.0f,
                                       65504.0f,
                                       -65504.0f,
                                       1e30f,
                                       -1e30f,
                                       0.5f,
                                       -0.5f,
                                       3.0f,
                                       -3.0f};
  return v;
}

// count inputs of T: the specials (rotated by the seed) then uniform values in [-range, range]
// and log-uniform magnitudes 2^-20 .. 2^7 with random signs.
template <class T>
std::vector<T> Inputs(uint32_t seed, uint32_t count, float range) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> uni(-range, range);
  std::uniform_real_distribution<float> expo(-20.0f, 7.0f);
  std::bernoulli_distribution coin(0.5);
  const std::vector<float>& sp = Specials();
  std::vector<T> v(count);
  for (uint32_t i = 0; i < count; ++i) {
    float f = 0.0f;
    if (i < sp.size()) {
      f = sp[(i + seed) % sp.size()];
    } else if (coin(gen)) {
      f = uni(gen);
    } else {
      f = (coin(gen) ? 1.0f : -1.0f) * std::exp2(expo(gen));
    }
    v[i] = Make<T>(f);
  }
  return v;
}

// got[0, count) equals want[0, count) bit for bit (any NaN equals any NaN: payloads are not
// promised), got[count, ...) is the sentinel.
template <class T>
void ExpectBits(const std::vector<T>& got, const std::vector<T>& want, uint32_t count,
                const std::string& what) {
  ASSERT_GE(got.size(), count) << what;
  for (uint32_t i = 0; i < count; ++i) {
    const bool bothNan = std::isnan(Value(got[i])) && std::isnan(Value(want[i]));
    if (BitsOf(got[i]) != BitsOf(want[i]) && !bothNan) {
      ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad " << Value(got[i]) << " (0x"
                    << std::hex << BitsOf(got[i]) << "), replay " << std::dec << Value(want[i])
                    << " (0x" << std::hex << BitsOf(want[i]) << ")";
      return;
    }
  }
  for (size_t i = count; i < got.size(); ++i) {
    if (BitsOf(got[i]) != BitsOf(Sentinel<T>())) {
      ADD_FAILURE() << what << ": element " << i << " past the count was written";
      return;
    }
  }
}

// Every half input, in launches of kSlice: the slice of the 65536 patterns from `first`, and the
// shapes of a unary API call and of its replay over n elements.
inline constexpr uint32_t kSlice = 8192;

inline std::vector<half> HalfSlice(uint32_t first) {
  std::vector<half> v(kSlice);
  for (uint32_t i = 0; i < kSlice; ++i) {
    v[i] = std::bit_cast<half>(static_cast<uint16_t>(first + i));
  }
  return v;
}

using UnaryCall =
    std::function<void(const AscendC::LocalTensor<half>&, const AscendC::LocalTensor<half>&,
                       const AscendC::LocalTensor<uint8_t>&, uint32_t)>;
using UnaryReplay = std::function<void(const rp::Half*, rp::Half*, uint32_t)>;

}  // namespace activation_replay_test
