// CumSum on arch 3510 with what it leaves in sharedTmpBuffer (replay_math.h,
// ReplayCumSum3510Scratch). Provenance: a separate reading, by the helper who also changed lngrad
// to match, of the toolkit's impl/adv_api/detail/math/cumsum/regbase/3510/cumsum_3510_impl.h and
// cumsum_c310_utils.h (mirror commit 82b89a15f), written before lngrad's scratch code and only
// then compared with it (the helper had read lngrad's cumsum.h, which had no scratch code). What it
// follows:
// - first axis, float: the sums run in dst (CumSumCopyOut, then CumSumFirstDimBasic or
//   CumSumFirstDimSklansky on dst); the scratch is not touched.
// - first axis, half: CumSumCopyWithCast widens src into the scratch as floats [outer][inner],
//   the sums run there, and the Cast back (to nearest even, not saturating) writes dst: the
//   scratch keeps the float sums.
// - last axis: chunks of oneRepeatSize = tmpBytes / minTmp * 16 rows (minTmp the asserted
//   minimum), then the rest; each chunk of m rows, A = m rounded up to 16, transposes its rows
//   into the scratch as [inner][A] (Transpose5HDAB, TransDataTo5HD: the columns past m, in the
//   last group of 16, repeat the group's rows cyclically, row g + (r - g) % (m - g)), sums along
//   the inner axis there, and transposes back (Transpose5HDBA, all A rows) into
//   tempBuffer2 = element A * inner of the scratch, from which m rows are copied to dst. Half:
//   the transposed halves at the scratch's start, the float copy at byte 2 * A * inner
//   (CumSumCopyWithCast), the sums there, cast back over the halves; the transpose back goes
//   straight to dst when m and inner are multiples of 16, else to tempBuffer2, which is the
//   float copy's start (the kit's tempBuffer2 and floatTempBuffer are the same element offset).
// - Basic's addition is Add(src row, running register); Sklansky's Add(row line0, row line1)
//   over rows padded to a power of two, lines past the end skipped.
// No code shared with lngrad.
#include <cstdint>
#include <cstring>
#include <vector>

#include "replay_math.h"

namespace lngrad_replay {
namespace {

// Prefix sums down `rows` rows of `width` floats at v, in the kit's order.
void SumRows(float* v, uint32_t rows, uint32_t width, bool sklansky) {
  if (!sklansky) {
    for (uint32_t i = 1; i < rows; ++i) {
      for (uint32_t k = 0; k < width; ++k) {
        v[i * width + k] = v[i * width + k] + v[(i - 1) * width + k];
      }
    }
    return;
  }
  uint32_t padded = 0;
  for (uint32_t i = 0; i < 16; ++i) {
    if (rows <= (1u << i)) {
      padded = 1u << i;
      break;
    }
  }
  for (uint32_t level = 1, round = padded / 2; round >= 1; round /= 2, ++level) {
    const uint32_t lower = 1u << (level - 1), block = 1u << level;
    for (uint32_t index = 0; index < padded / block; ++index) {
      const uint32_t line0 = lower - 1 + index * block;
      for (uint32_t j = 0; j < lower; ++j) {
        const uint32_t line1 = line0 + j + 1;
        if (line1 > rows - 1) continue;
        for (uint32_t k = 0; k < width; ++k) {
          v[line1 * width + k] = v[line0 * width + k] + v[line1 * width + k];
        }
      }
    }
  }
}

// One chunk of m rows along the last axis (src and dst at the chunk's first row).
template <class T>
void LastAxisChunk(const T* src, T* dst, uint32_t m, uint32_t inner, bool sklansky,
                   uint8_t* scratch) {
  constexpr bool kHalf = sizeof(T) == 2;
  const uint32_t a = (m + 15) / 16 * 16;
  const auto row_of = [m](uint32_t r) {
    const uint32_t g = r / 16 * 16;
    return g + (r - g) % (m - g);
  };
  T* t = reinterpret_cast<T*>(scratch);  // [inner][a]
  for (uint32_t c = 0; c < inner; ++c) {
    for (uint32_t r = 0; r < a; ++r) t[c * a + r] = src[row_of(r) * inner + c];
  }
  float* f = reinterpret_cast<float*>(scratch + (kHalf ? 2 * a * inner : 0));
  if constexpr (kHalf) {
    for (uint32_t i = 0; i < a * inner; ++i) f[i] = HalfToFloat(t[i]);
  }
  SumRows(f, inner, a, sklansky);
  if constexpr (kHalf) {
    for (uint32_t i = 0; i < a * inner; ++i) t[i] = FloatToHalf(f[i]);
  }
  if (kHalf && m % 16 == 0 && inner % 16 == 0) {
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t c = 0; c < inner; ++c) dst[r * inner + c] = t[c * a + r];
    }
    return;
  }
  T* back = t + a * inner;  // tempBuffer2: [a][inner]
  for (uint32_t r = 0; r < a; ++r) {
    for (uint32_t c = 0; c < inner; ++c) back[r * inner + c] = t[c * a + r];
  }
  std::memcpy(dst, back, sizeof(T) * m * inner);
}

template <class T>
void CumSumScratch(const T* src, T* dst, uint32_t outer, uint32_t inner, bool lastAxis,
                   bool sklansky, uint8_t* scratch, uint32_t tmpBytes) {
  constexpr bool kHalf = sizeof(T) == 2;
  if (!lastAxis) {
    if constexpr (kHalf) {
      float* f = reinterpret_cast<float*>(scratch);
      for (uint32_t i = 0; i < outer * inner; ++i) f[i] = HalfToFloat(src[i]);
      SumRows(f, outer, inner, sklansky);
      for (uint32_t i = 0; i < outer * inner; ++i) dst[i] = FloatToHalf(f[i]);
    } else {
      std::memcpy(dst, src, sizeof(T) * outer * inner);
      SumRows(reinterpret_cast<float*>(dst), outer, inner, sklansky);
    }
    return;
  }
  const uint32_t min_tmp = (kHalf ? inner * 16 * 2 : 0) + 16 * inner * sizeof(T) * 2;
  const uint32_t chunk = tmpBytes / min_tmp * 16;
  if (chunk == 0) return;
  uint32_t row = 0;
  for (; row + chunk <= outer; row += chunk) {
    LastAxisChunk(src + row * inner, dst + row * inner, chunk, inner, sklansky, scratch);
  }
  if (row < outer) {
    LastAxisChunk(src + row * inner, dst + row * inner, outer - row, inner, sklansky, scratch);
  }
}

}  // namespace

void ReplayCumSum3510Scratch(const float* src, float* dst, uint32_t outer, uint32_t inner,
                             bool lastAxis, bool sklansky, uint8_t* scratch, uint32_t tmpBytes) {
  CumSumScratch(src, dst, outer, inner, lastAxis, sklansky, scratch, tmpBytes);
}

void ReplayCumSum3510Scratch(const Half* src, Half* dst, uint32_t outer, uint32_t inner,
                             bool lastAxis, bool sklansky, uint8_t* scratch, uint32_t tmpBytes) {
  CumSumScratch(src, dst, outer, inner, lastAxis, sklansky, scratch, tmpBytes);
}

}  // namespace lngrad_replay
