// Test helpers for the repeat-form instructions (reduce_ops_test, compare_select_test,
// gather_test): one block with four UB buffers, host data in and out, the check a kernel body
// raises, random operands and bit-exact comparisons.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernel_operator.h"

namespace lngrad::aicore::test {

inline constexpr uint32_t kUbBufBytes = 40960;  // bytes per buffer

// Four UB buffers of kUbBufBytes, zero-filled by the runtime's UB or by Put.
struct Ub {
  AscendC::TPipe pipe;
  AscendC::TBuf<> buf[4];
  Ub() {
    for (auto& b : buf) pipe.InitBuffer(b, kUbBufBytes);
  }
  template <typename T>
  AscendC::LocalTensor<T> Get(int i) {
    return buf[i].Get<T>();
  }
  // Fills buffer i with v, then `fill` up to its end.
  template <typename T>
  void Put(int i, const std::vector<T>& v, T fill = T{}) {
    T* p = Get<T>(i).HostPtr();
    const size_t n = kUbBufBytes / sizeof(T);
    for (size_t k = 0; k < n; ++k) p[k] = k < v.size() ? v[k] : fill;
  }
  template <typename T>
  std::vector<T> Take(int i) {
    const T* p = Get<T>(i).HostPtr();
    return std::vector<T>(p, p + kUbBufBytes / sizeof(T));
  }
};

// Runs body on one block of `soc` (the launch must succeed).
inline void OnBlock(const std::function<void(Ub&)>& body, const char* soc = "Ascend910B1") {
  LaunchOptions o;
  o.soc = soc;
  const Status s = Launch(
      1,
      [&] {
        Ub ub;
        body(ub);
      },
      o);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// The check a kernel body raises ("" if none) and its message.
inline std::pair<std::string, std::string> CheckOf(const std::function<void(Ub&)>& body,
                                                   const char* soc = "Ascend910B1") {
  std::pair<std::string, std::string> r;
  OnBlock(
      [&](Ub& ub) {
        try {
          body(ub);
        } catch (const KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);  // handled here: not the launch's failure
          r = {e.check(), e.message()};
        }
      },
      soc);
  return r;
}

template <typename T>
uint32_t Bits(T v) {
  if constexpr (sizeof(T) == 1) {
    return std::bit_cast<uint8_t>(v);
  } else if constexpr (sizeof(T) == 2) {
    return std::bit_cast<uint16_t>(v);
  } else {
    return std::bit_cast<uint32_t>(v);
  }
}

template <typename T>
std::vector<T> RandomValues(uint32_t seed, size_t n, float lo = -4.0f, float hi = 4.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = T(d(gen));
  return v;
}

// Small integers: many ties and equal pairs.
template <typename T>
std::vector<T> TieValues(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(-3, 3);
  std::vector<T> v(n);
  for (auto& x : v) x = T(static_cast<float>(d(gen)));
  return v;
}

// A whole buffer of RandomValues from `seed` and one of TieValues from seed + 1: the sources of
// a reduction's sum and of its max / min.
template <typename T>
std::pair<std::vector<T>, std::vector<T>> RandomAndTieBuffers(uint32_t seed) {
  return {RandomValues<T>(seed, kUbBufBytes / sizeof(T)),
          TieValues<T>(seed + 1, kUbBufBytes / sizeof(T))};
}

template <typename T>
void ExpectSameBits(const std::vector<T>& got, const std::vector<T>& want,
                    const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (Bits(got[i]) != Bits(want[i])) {
      ADD_FAILURE() << what << ": element " << i << " is " << static_cast<double>(got[i]) << " (0x"
                    << std::hex << Bits(got[i]) << "), expected " << static_cast<double>(want[i])
                    << " (0x" << Bits(want[i]) << std::dec << ")";
      return;
    }
  }
}

// Runs body in checked mode and expects check `check` ("" for none) with `needle` in its
// message.
inline void ExpectCheck(const std::function<void(Ub&)>& body, const std::string& check,
                        const std::string& needle, const char* soc = "Ascend910B1") {
  const bool was = CheckedMode();
  SetCheckedMode(true);
  const auto [c, msg] = CheckOf(body, soc);
  SetCheckedMode(was);
  EXPECT_EQ(c, check) << msg;
  EXPECT_NE(msg.find(needle), std::string::npos) << msg;
}

}  // namespace lngrad::aicore::test

namespace lngrad::aicore::test {

// The findings of a one-block launch of `kernel` under the sanitizer's `tools` ("" if none):
// "[check] message" lines.
inline std::string SanitizerFindings(const std::function<void()>& kernel, uint32_t tools) {
  LaunchOptions o;
  o.sanitize = tools;
  o.soc = "Ascend910B1";
  std::vector<BlockFailure> failures;
  (void)detail::RunBlocks("kernel", 1, kernel, o, &failures);
  std::string s;
  for (const BlockFailure& f : failures) s += "[" + f.check + "] " + f.message + "\n";
  return s;
}

}  // namespace lngrad::aicore::test
