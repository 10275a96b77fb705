// CumSum on arch 2201/2002 with what it leaves in sharedTmpBuffer (replay_cumsum_reduce_scratch.h,
// ReplayCumSumScratch). Provenance: a separate reading, by the helper (t1) who then changed
// lngrad to match, of the toolkit's impl/adv_api/detail/math/cumsum/cumsum_common_impl.h (the
// file 2201, 2002 and 5102 build; mirror commit 82b89a15f), written before lngrad's 2201 scratch
// code and only then compared with it. It runs the source's instructions, the transposes as
// TransDataTo5HD on the address lists the source builds (with its repeat counts and strides):
// - CumSumImpl, last axis: minTmp = (half: inner * 16 * 2) + 16 * inner * sizeof(T) * 2, chunks of
//   oneRepeatSize = tmpBytes / minTmp * 16 rows then the rest, each through CumSumLastDim with
//   the scratch as T from its start;
// - CumSumLastDim (half): rows transposed into tempBuffer as [inner][a] (a = rows rounded up to
//   16; past the rows, source row i * 16 + n % (rows - i * 16)), a float copy at element a *
//   inner (Cast, count a * inner), the rows added in it (mask a), cast back over tempBuffer, the
//   transpose back into tempBuffer2 = element a * inner, then dst = tempBuffer2 + 0 (Adds);
//   float: the same without the casts (the sums in tempBuffer itself);
// - CumSumFirstDim: half widens src into the scratch as floats, adds the rows there and casts
//   back to dst; float runs in dst (Adds 0 on row 0, then Add(dst row - 1, src row)), scratch
//   untouched; the last row is dst's last row + 0.
// TransDataTo5HD as the kit's comments describe it: 16 source blocks of 32 bytes in, their
// transpose out (b16: block j gets element j of every source block; b32: the 16 x 8 floats as
// 8 x 16, row j split over blocks 2j and 2j + 1), each repeat moving the lists by the strides in
// 32-byte blocks.
#include <cstdint>
#include <cstring>

#include "replay_cumsum_reduce_scratch.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kList = 16;  // NCHW_CONV_ADDR_LIST_SIZE
constexpr uint32_t kBlock = 32;

template <class T>
void Trans5HD(uint8_t* const* dst, const uint8_t* const* src, uint8_t repeat, uint32_t dstStride,
              uint32_t srcStride) {
  constexpr uint32_t kPer = kBlock / sizeof(T);  // elements a block
  for (uint32_t r = 0; r < repeat; ++r) {
    T in[kList][kPer];
    for (uint32_t k = 0; k < kList; ++k)
      std::memcpy(in[k], src[k] + r * srcStride * kBlock, kBlock);
    for (uint32_t j = 0; j < kPer; ++j) {
      T col[kList];
      for (uint32_t k = 0; k < kList; ++k) col[k] = in[k][j];
      if constexpr (sizeof(T) == 2) {
        std::memcpy(dst[j] + r * dstStride * kBlock, col, kBlock);
      } else {
        std::memcpy(dst[2 * j] + r * dstStride * kBlock, col, kBlock);
        std::memcpy(dst[2 * j + 1] + r * dstStride * kBlock, col + kPer, kBlock);
      }
    }
  }
}

template <class T>
const uint8_t* B(const T* p) {
  return reinterpret_cast<const uint8_t*>(p);
}
template <class T>
uint8_t* B(T* p) {
  return reinterpret_cast<uint8_t*>(p);
}

// The forward transpose of CumSumLastDim: src (m rows of inner) into t as [inner][a].
void ForwardHalf(const Half* src, Half* t, uint32_t m, uint32_t inner, uint32_t a) {
  const uint8_t* sl[kList];
  uint8_t* dl[kList];
  if (m == a && a > inner) {
    const uint8_t rep = static_cast<uint8_t>(a / kList);
    const uint32_t ds = rep > 1 ? 1 : 0, ss = rep > 1 ? inner : 0;
    for (uint32_t i = 0; i < inner / 16; ++i) {
      for (uint32_t n = 0; n < kList; ++n) {
        sl[n] = B(src + i * 16 + n * inner);
        dl[n] = B(t + i * 16 * a + a * n);
      }
      Trans5HD<Half>(dl, sl, rep, ds, ss);
    }
    return;
  }
  const uint8_t rep = static_cast<uint8_t>(inner / 16);
  const uint32_t ds = rep > 1 ? a : 0, ss = rep > 1 ? 1 : 0;
  for (uint32_t i = 0; i < a / kList; ++i) {
    for (uint32_t n = 0; n < kList; ++n) {
      sl[n] = B(src + (i * kList + n % (m - i * kList)) * inner);
      dl[n] = B(t + i * kList + a * n);
    }
    Trans5HD<Half>(dl, sl, rep, ds, ss);
  }
}

void BackHalf(const Half* t, Half* t2, uint32_t inner, uint32_t a) {
  const uint8_t* sl[kList];
  uint8_t* dl[kList];
  if (a > inner) {
    const uint8_t rep = static_cast<uint8_t>(a / 16);
    const uint32_t ds = rep > 1 ? inner : 0, ss = rep > 1 ? 1 : 0;
    for (uint32_t i = 0; i < inner / kList; ++i) {
      for (uint32_t n = 0; n < kList; ++n) {
        sl[n] = B(t + (i * kList + n) * a);
        dl[n] = B(t2 + i * kList + n * inner);
      }
      Trans5HD<Half>(dl, sl, rep, ds, ss);
    }
    return;
  }
  // The source passes (srcRepStride, dstRepStride) = (1, a) as (dst, src) strides.
  const uint8_t rep = static_cast<uint8_t>(inner / 16);
  const uint32_t ds = rep > 1 ? 1 : 0, ss = rep > 1 ? a : 0;
  for (uint32_t i = 0; i < a / kList; ++i) {
    for (uint32_t n = 0; n < kList; ++n) {
      sl[n] = B(t + i * kList + a * n);
      dl[n] = B(t2 + (i * kList + n) * inner);
    }
    Trans5HD<Half>(dl, sl, rep, ds, ss);
  }
}

void ForwardFloat(const float* src, float* t, uint32_t m, uint32_t inner, uint32_t a) {
  const uint8_t* sl[kList];
  uint8_t* dl[kList];
  if (m == a && a > inner) {
    const uint8_t rep = static_cast<uint8_t>(a / kList);
    const uint32_t ds = rep > 1 ? 2 : 0, ss = rep > 1 ? inner * 2 : 0;
    for (uint32_t i = 0; i < inner / 8; ++i) {
      for (uint32_t n = 0; n < kList; ++n) sl[n] = B(src + i * 8 + n * inner);
      for (uint32_t n = 0; n < kList / 2; ++n) {
        dl[n * 2] = B(t + (i * 8 + n) * a);
        dl[n * 2 + 1] = B(t + (i * 8 + n) * a + 8);
      }
      Trans5HD<float>(dl, sl, rep, ds, ss);
    }
    return;
  }
  const uint8_t rep = static_cast<uint8_t>(inner / 8);
  const uint32_t ds = rep > 1 ? a : 0, ss = rep > 1 ? 1 : 0;
  for (uint32_t i = 0; i < a / kList; ++i) {
    for (uint32_t n = 0; n < kList; ++n) {
      sl[n] = B(src + (i * kList + n % (m - i * kList)) * inner);
    }
    for (uint32_t n = 0; n < kList / 2; ++n) {
      dl[n * 2] = B(t + i * kList + n * a);
      dl[n * 2 + 1] = B(t + i * kList + n * a + 8);
    }
    Trans5HD<float>(dl, sl, rep, ds, ss);
  }
}

void BackFloat(const float* t, float* t2, uint32_t inner, uint32_t a) {
  const uint8_t* sl[kList];
  uint8_t* dl[kList];
  if (a > inner) {
    const uint8_t rep = static_cast<uint8_t>(a / kList);
    const uint32_t ds = rep > 1 ? inner * 2 : 0, ss = rep > 1 ? 2 : 0;
    for (uint32_t i = 0; i < inner / 8; ++i) {
      for (uint32_t n = 0; n < kList / 2; ++n) {
        sl[n] = B(t + i * 8 * a + n * a);
        sl[n + kList / 2] = B(t + i * 8 * a + n * a + 8);
        dl[n * 2] = B(t2 + i * 8 + n * inner);
        dl[n * 2 + 1] = B(t2 + i * 8 + (n + 8) * inner);
      }
      Trans5HD<float>(dl, sl, rep, ds, ss);
    }
    return;
  }
  const uint8_t rep = static_cast<uint8_t>(inner / 8);
  const uint32_t ds = rep > 1 ? 1 : 0, ss = rep > 1 ? a : 0;  // swapped as in the source
  for (uint32_t i = 0; i < a / kList; ++i) {
    for (uint32_t n = 0; n < kList / 2; ++n) {
      sl[n] = B(t + i * kList + n * a);
      sl[n + kList / 2] = B(t + i * kList + n * a + 8);
    }
    for (uint32_t n = 0; n < kList / 2; ++n) {
      dl[n * 2] = B(t2 + (i * kList + n) * inner);
      dl[n * 2 + 1] = B(t2 + (i * kList + n + kList / 2) * inner);
    }
    Trans5HD<float>(dl, sl, rep, ds, ss);
  }
}

// Add(f[row], f[row - 1], f[row]) for row 1 .. inner - 1, `a` floats a row.
void AddRows(float* f, uint32_t inner, uint32_t a) {
  for (uint32_t row = 1; row < inner; ++row) {
    for (uint32_t k = 0; k < a; ++k) f[row * a + k] = f[(row - 1) * a + k] + f[row * a + k];
  }
}

void LastDim(const Half* src, Half* dst, uint8_t* scratch, uint32_t m, uint32_t inner) {
  const uint32_t a = (m + kList - 1) / kList * kList;
  Half* t = reinterpret_cast<Half*>(scratch);
  ForwardHalf(src, t, m, inner, a);
  float* f = reinterpret_cast<float*>(t + a * inner);
  for (uint32_t k = 0; k < a * inner; ++k) f[k] = HalfToFloat(t[k]);
  AddRows(f, inner, a);
  for (uint32_t k = 0; k < a * inner; ++k) t[k] = FloatToHalf(f[k]);
  Half* t2 = t + a * inner;
  BackHalf(t, t2, inner, a);
  for (uint32_t k = 0; k < m * inner; ++k) dst[k] = FloatToHalf(HalfToFloat(t2[k]) + 0.0f);
}

void LastDim(const float* src, float* dst, uint8_t* scratch, uint32_t m, uint32_t inner) {
  const uint32_t a = (m + kList - 1) / kList * kList;
  float* t = reinterpret_cast<float*>(scratch);
  ForwardFloat(src, t, m, inner, a);
  AddRows(t, inner, a);
  float* t2 = t + a * inner;
  BackFloat(t, t2, inner, a);
  for (uint32_t k = 0; k < m * inner; ++k) dst[k] = t2[k] + 0.0f;
}

bool FirstDim(const Half* src, Half* dst, uint32_t outer, uint32_t inner, uint8_t* scratch,
              uint32_t tmpBytes) {
  if (tmpBytes < outer * inner * 4) return false;  // the source's assert
  float* f = reinterpret_cast<float*>(scratch);
  for (uint32_t k = 0; k < outer * inner; ++k) f[k] = HalfToFloat(src[k]);
  for (uint32_t row = 1; row < outer; ++row) {
    for (uint32_t k = 0; k < inner; ++k) {
      f[row * inner + k] = f[(row - 1) * inner + k] + f[row * inner + k];
    }
  }
  for (uint32_t k = 0; k < outer * inner; ++k) dst[k] = FloatToHalf(f[k]);
  return true;
}

bool FirstDim(const float* src, float* dst, uint32_t outer, uint32_t inner, uint8_t*, uint32_t) {
  for (uint32_t k = 0; k < inner; ++k) dst[k] = src[k] + 0.0f;
  for (uint32_t row = 1; row < outer; ++row) {
    for (uint32_t k = 0; k < inner; ++k) {
      dst[row * inner + k] = dst[(row - 1) * inner + k] + src[row * inner + k];
    }
  }
  return true;
}

template <class T>
bool CumSumImpl(const T* src, T* dst, T* lastRow, uint32_t outer, uint32_t inner, bool lastAxis,
                uint8_t* scratch, uint32_t tmpBytes) {
  if (lastAxis) {
    const uint32_t cast = sizeof(T) == 2 ? inner * kList * 2 : 0;
    const uint32_t minTmp = cast + kList * inner * static_cast<uint32_t>(sizeof(T)) * 2;
    if (tmpBytes < minTmp) return false;  // the source's assert
    const uint32_t chunk = tmpBytes / minTmp * kList;
    const uint32_t range = outer / chunk, tail = outer - chunk * range;
    uint32_t off = 0;
    for (uint32_t i = 0; i < range; ++i, off += inner * chunk) {
      LastDim(src + off, dst + off, scratch, chunk, inner);
    }
    if (tail != 0) LastDim(src + off, dst + off, scratch, tail, inner);
  } else if (!FirstDim(src, dst, outer, inner, scratch, tmpBytes)) {
    return false;
  }
  if (lastRow != nullptr) {
    for (uint32_t k = 0; k < inner; ++k) {
      lastRow[k] = FromFloat<T>(ToFloat(dst[(outer - 1) * inner + k]) + 0.0f);
    }
  }
  return true;
}

}  // namespace

bool ReplayCumSumScratch(const float* src, float* dst, float* lastRow, uint32_t outer,
                         uint32_t inner, bool lastAxis, uint8_t* scratch, uint32_t tmpBytes) {
  return CumSumImpl(src, dst, lastRow, outer, inner, lastAxis, scratch, tmpBytes);
}

bool ReplayCumSumScratch(const Half* src, Half* dst, Half* lastRow, uint32_t outer, uint32_t inner,
                         bool lastAxis, uint8_t* scratch, uint32_t tmpBytes) {
  return CumSumImpl(src, dst, lastRow, outer, inner, lastAxis, scratch, tmpBytes);
}

}  // namespace lngrad_replay
