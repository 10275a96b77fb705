// Helpers of the math family's bitwise tests (math_replay_test.cpp, math_replay_power_test.cpp):
// one-block kernel runs on Ascend910B1 and the bit comparison (two NaNs match whatever their
// payloads, docs/ascendc_kernels.md §2; integers and every other bit pattern exactly).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "replay.h"
#include "replay_math.h"

namespace lngrad_replay::test {

using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;

inline constexpr const char* kSoc = "Ascend910B1";
inline constexpr uint32_t kFull = kUbBufBytes / sizeof(float);  // 10240 floats per buffer
inline constexpr float kInf = std::numeric_limits<float>::infinity();
inline constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

// Forms: 0 (tmp, count), 1 (tmp, whole tensor), 2 (count, framework scratch), 3 (whole tensor).
#define LNGRAD_MATH_FORMS(Name, Reuse)               \
  [](int form, auto d, auto s, auto t, uint32_t n) { \
    using TT = typename decltype(d)::PrimType;       \
    if (form == 0) Name<TT, Reuse>(d, s, t, n);      \
    if (form == 1) Name<TT, Reuse>(d, s, t);         \
    if (form == 2) Name<TT, Reuse>(d, s, n);         \
    if (form == 3) Name<TT, Reuse>(d, s);            \
  }

template <typename T>
uint32_t BitsOf(T v) {
  uint32_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

template <typename T>
bool IsNan(T v) {
  if constexpr (std::is_integral_v<T>) return false;
  const uint32_t b = BitsOf(v);
  if constexpr (sizeof(T) == 4) return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0;
  if constexpr (std::is_same_v<T, bfloat16_t>) return (b & 0x7f80u) == 0x7f80u && (b & 0x7fu) != 0;
  return (b & 0x7c00u) == 0x7c00u && (b & 0x3ffu) != 0;
}

// An element of T (float, half, bfloat16_t) widened to float, and a float stored as T rounded to
// nearest even, by the replay's own conversions (FloatToHalf; FloatToBf16 of replay.h:
// overflow to infinity, no saturation), not lngrad's.
template <typename T>
float ReplayWiden(T v) {
  if constexpr (sizeof(T) == 4) {
    return v;
  } else {
    uint16_t b = 0;
    std::memcpy(&b, &v, 2);
    if constexpr (std::is_same_v<T, bfloat16_t>) return lngrad_replay::Bf16ToFloat({b});
    return lngrad_replay::HalfToFloat({b});
  }
}
template <typename T>
T ReplayRound(float r) {
  if constexpr (sizeof(T) == 4) {
    return r;
  } else {
    const uint16_t b = std::is_same_v<T, bfloat16_t> ? lngrad_replay::FloatToBf16(r).bits
                                                     : lngrad_replay::FloatToHalf(r).bits;
    T v;
    std::memcpy(&v, &b, 2);
    return v;
  }
}

// got == want bit for bit over [0, n) (two NaNs match); the first mismatch is reported with
// both values and, when `in` is given, the input's bits.
template <typename T>
void ExpectBitsEqual(const T* got, const T* want, size_t n, const std::string& what,
                     const T* in = nullptr) {
  for (size_t i = 0; i < n; ++i) {
    if (BitsOf(got[i]) == BitsOf(want[i]) || (IsNan(got[i]) && IsNan(want[i]))) continue;
    ADD_FAILURE() << what << ": first mismatch at " << i << std::hex << " (input bits 0x"
                  << (in ? BitsOf(in[i]) : 0u) << "): lngrad 0x" << BitsOf(got[i]) << ", replay 0x"
                  << BitsOf(want[i]);
    return;
  }
}

template <typename T>
std::vector<T> As(const std::vector<float>& v) {
  std::vector<T> r;
  for (float x : v) r.push_back(T(x));
  return r;
}

// api(dst, src, tmp, n) on one block: src in buffer 0, dst buffer 1, the first tmpBytes of
// buffer 2 as sharedTmpBuffer. Returns dst and src (whole buffers) after the call.
template <typename T, typename Api>
std::pair<std::vector<T>, std::vector<T>> RunApi(const std::vector<T>& in, uint32_t n,
                                                 uint32_t tmpBytes, Api api,
                                                 const char* soc = kSoc) {
  std::pair<std::vector<T>, std::vector<T>> r;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(tmpBytes);
        api(ub.Get<T>(1), ub.Get<T>(0), tmp, n);
        r = {ub.Take<T>(1), ub.Take<T>(0)};
      },
      soc);
  return r;
}

}  // namespace lngrad_replay::test
