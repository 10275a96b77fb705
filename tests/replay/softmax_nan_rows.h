// Rows with NaN, ±inf and signed zeros for the SoftmaxFlashV2 row-max replay tests
// (softmax_flash_nan_replay_test.cpp, softmax_flashv2_m1_nan_replay_test.cpp): r % 4 == 0 one
// quiet NaN; 1 a NaN and a negative NaN of another payload; 2 every value negative with -0 and +0
// (a zero tie); 3 +inf; positions moving with the seed and the row over the reduced columns. Any
// NaN matches any NaN (payloads are not promised); every other value bit for bit.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "softmax_replay_util.h"

namespace softmax_replay_test {

template <class T>
T Special(uint32_t f32, uint16_t f16) {
  if constexpr (std::is_same_v<T, Half>) {
    return Half{f16};
  } else {
    return lngrad_replay::FromBits(f32);
  }
}

template <class T>
std::vector<T> NanRows(uint32_t seed, const Shape& s) {
  std::vector<T> v = Inputs<T>(seed, s);
  const T nan = Special<T>(0x7FC00001u, 0x7E01u), negNan = Special<T>(0xFFC00002u, 0xFE02u);
  const T pz = Special<T>(0u, 0u), nz = Special<T>(0x80000000u, 0x8000u);
  const T inf = Special<T>(0x7F800000u, 0x7C00u);
  for (uint32_t r = 0; r < s.m; ++r) {
    T* row = v.data() + uint64_t{r} * s.k;
    const uint32_t a = (seed * 7 + r * 13 + 1) % s.oriK, b = (seed * 3 + r * 29 + 2) % s.oriK;
    if (r % 4 == 0) row[a] = nan;
    if (r % 4 == 1) {
      row[a] = negNan;
      row[b] = nan;
    }
    if (r % 4 == 2) {
      for (uint32_t c = 0; c < s.k; ++c) {
        row[c] = lngrad_replay::FromFloat<T>(-std::fabs(lngrad_replay::ToFloat(row[c])) - 1.0f);
      }
      row[a] = (seed + r) % 2 == 0 ? nz : pz;
      if (b != a) row[b] = (seed + r) % 2 == 0 ? pz : nz;
    }
    if (r % 4 == 3) row[a] = inf;
  }
  return v;
}

template <class T>
void ExpectNanAny(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    const float g = lngrad_replay::ToFloat(got[i]), w = lngrad_replay::ToFloat(want[i]);
    if (std::isnan(g) && std::isnan(w)) continue;
    if (BitsOf(got[i]) != BitsOf(want[i])) {
      ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad " << g << " (0x" << std::hex
                    << BitsOf(got[i]) << "), replay " << std::dec << w << " (0x" << std::hex
                    << BitsOf(want[i]) << ")";
      return;
    }
  }
}

}  // namespace softmax_replay_test
