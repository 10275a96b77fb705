// The math family's replay: CumSum on arch 2201 (replay_math.h), from the toolkit's
// impl/adv_api/detail/math/cumsum/cumsum_common_impl.h (CumSumLastDim: transposes around
// float row additions, then Adds 0; CumSumFirstDim: Adds 0 on row 0 and row additions for
// float, a float copy summed and cast back for half; the last row copied with Adds 0).
#include "replay_math.h"

namespace lngrad_replay {
namespace {

float Widen(float v) { return v; }
float Widen(Half v) { return HalfToFloat(v); }
template <class T>
T Store(float v) {
  return FromFloat<T>(v);
}

// T + 0 in T (an Adds of 0: -0 becomes +0).
template <class T>
T PlusZero(T v) {
  return Store<T>(Widen(v) + 0.0f);
}

template <class T>
void CumSumAny(const T* src, T* dst, T* lastRow, uint32_t outer, uint32_t inner, bool lastAxis) {
  constexpr bool kHalf = sizeof(T) == 2;
  if (lastAxis) {
    for (uint32_t r = 0; r < outer; ++r) {
      float acc = Widen(src[r * inner]);
      dst[r * inner] = PlusZero(Store<T>(acc));
      for (uint32_t j = 1; j < inner; ++j) {
        acc = acc + Widen(src[r * inner + j]);
        dst[r * inner + j] = PlusZero(Store<T>(acc));
      }
    }
  } else {
    for (uint32_t j = 0; j < inner; ++j) {
      float acc = Widen(src[j]);
      dst[j] = kHalf ? Store<T>(acc) : PlusZero(Store<T>(acc));
      for (uint32_t r = 1; r < outer; ++r) {
        // float: the previous stored row plus the source; half: the float running sum.
        acc = (kHalf ? acc : Widen(dst[(r - 1) * inner + j])) + Widen(src[r * inner + j]);
        dst[r * inner + j] = Store<T>(acc);
      }
    }
  }
  if (lastRow != nullptr) {
    for (uint32_t j = 0; j < inner; ++j) lastRow[j] = PlusZero(dst[(outer - 1) * inner + j]);
  }
}

// CumSum on arch 3510, LINEBYLINE (regbase/3510/cumsum_3510_impl.h): the values moved by plain
// loads and stores (CumSumCopyOut, the 5HD transposes of the last axis) or cast to float
// (CumSumCopyWithCast, half), CumSumFirstDimBasic's running register Add(src, acc) along the
// summed axis, the result cast back to nearest even (half) or stored; lastRow a plain copy.
template <class T>
void CumSum3510Any(const T* src, T* dst, T* lastRow, uint32_t outer, uint32_t inner,
                   bool lastAxis) {
  const uint32_t lines = lastAxis ? outer : inner, len = lastAxis ? inner : outer;
  for (uint32_t l = 0; l < lines; ++l) {
    const auto at = [&](uint32_t k) { return lastAxis ? l * inner + k : k * inner + l; };
    float acc = Widen(src[at(0)]);
    dst[at(0)] = Store<T>(acc);
    for (uint32_t k = 1; k < len; ++k) {
      acc = Widen(src[at(k)]) + acc;
      dst[at(k)] = Store<T>(acc);
    }
  }
  if (lastRow != nullptr) {
    for (uint32_t j = 0; j < inner; ++j) lastRow[j] = dst[(outer - 1) * inner + j];
  }
}

}  // namespace

void ReplayCumSum(const float* src, float* dst, float* lastRow, uint32_t outer, uint32_t inner,
                  bool lastAxis) {
  CumSumAny(src, dst, lastRow, outer, inner, lastAxis);
}

void ReplayCumSum(const Half* src, Half* dst, Half* lastRow, uint32_t outer, uint32_t inner,
                  bool lastAxis) {
  CumSumAny(src, dst, lastRow, outer, inner, lastAxis);
}

void ReplayCumSum3510(const float* src, float* dst, float* lastRow, uint32_t outer, uint32_t inner,
                      bool lastAxis) {
  CumSum3510Any(src, dst, lastRow, outer, inner, lastAxis);
}

void ReplayCumSum3510(const Half* src, Half* dst, Half* lastRow, uint32_t outer, uint32_t inner,
                      bool lastAxis) {
  CumSum3510Any(src, dst, lastRow, outer, inner, lastAxis);
}

}  // namespace lngrad_replay
