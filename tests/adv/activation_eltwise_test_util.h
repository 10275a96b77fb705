// Helpers of the element-wise activation API tests (activation_eltwise_test.cpp,
// activation_eltwise_host_test.cpp): one block running an API on UB buffers, the independent
// replay arithmetic and the bound check against float64 oracles.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "math_api_test_util.h"

namespace lngrad::adv::testing {

// Unit roundoff-sized epsilon of T (2^-23 float, 2^-10 half, 2^-7 bfloat16).
template <typename T>
double Eps() {
  if constexpr (std::is_same_v<T, float>) return std::ldexp(1.0, -23);
  if constexpr (std::is_same_v<T, half>) return std::ldexp(1.0, -10);
  return std::ldexp(1.0, -7);
}

// One instruction of a replayed sequence: the operation in double, rounded once to C. For + - * /
// of float or half operands this equals the correctly rounded operation of C (double has more
// than 2p + 2 bits), exp is rounded once from double, as docs/ascendc_kernels.md §2 chooses. The
// code shares nothing with the library's eltwise_detail::Ar.
template <typename C>
struct Dbl {
  static double V(C a) { return static_cast<double>(static_cast<float>(a)); }
  static C Of(double d) { return C(d); }
  static C Add(C a, C b) { return Of(V(a) + V(b)); }
  static C Mul(C a, C b) { return Of(V(a) * V(b)); }
  static C Div(C a, C b) { return Of(V(a) / V(b)); }
  static C Rec(C a) { return Of(1.0 / V(a)); }
  static C Abs(C a) { return Of(std::fabs(V(a))); }
  static C Mins(C a, double s) { return V(a) < s ? a : Of(s); }
  static C Maxs(C a, double s) { return V(a) > s ? a : Of(s); }
  static C Exp(C a) { return Of(std::exp(V(a))); }
};

inline constexpr uint32_t kTail = 77;  // a count that is no multiple of a repeat or a block

template <typename T>
using Unary =
    std::function<void(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::LocalTensor<uint8_t>& tmp)>;
template <typename T>
using Binary = std::function<void(AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                                  const AscendC::LocalTensor<T>& src1,
                                  const AscendC::LocalTensor<uint8_t>& tmp)>;

// The sentinel dst holds before a call: elements past the count must keep it.
template <typename T>
T Sentinel() {
  return T(-7.25f);
}

// Runs call(dst = buffer 1, src = buffer 0, tmp = buffer 2) on one block of soc; returns dst.
template <typename T>
std::vector<T> RunUnary(const char* soc, const std::vector<T>& in, const Unary<T>& call) {
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        ub.Put<T>(1, {}, Sentinel<T>());
        call(ub.Get<T>(1), ub.Get<T>(0), ub.Get<uint8_t>(2));
        out = ub.Take<T>(1);
      },
      soc);
  return out;
}

// Runs call(dst = buffer 1, src0 = buffer 0, src1 = buffer 3, tmp = buffer 2); returns dst.
template <typename T>
std::vector<T> RunBinary(const char* soc, const std::vector<T>& in0, const std::vector<T>& in1,
                         const Binary<T>& call) {
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in0);
        ub.Put<T>(3, in1);
        ub.Put<T>(1, {}, Sentinel<T>());
        AscendC::LocalTensor<T> dst = ub.Get<T>(1);
        call(dst, ub.Get<T>(0), ub.Get<T>(3), ub.Get<uint8_t>(2));
        out = ub.Take<T>(1);
      },
      soc);
  return out;
}

// out[0, count) equals want[0, count) bit for bit (NaN equal to NaN), out[count, ...) is the
// sentinel.
template <typename T>
void ExpectReplay(const std::vector<T>& out, const std::vector<T>& want, uint32_t count,
                  const std::string& what) {
  ExpectSame(std::vector<T>(out.begin(), out.begin() + count),
             std::vector<T>(want.begin(), want.begin() + count), what);
  for (size_t i = count; i < out.size(); ++i) {
    if (!SameValue(out[i], Sentinel<T>())) {
      ADD_FAILURE() << what << ": element " << i << " past the count was written";
      return;
    }
  }
}

// |got - oracle| <= c * Eps<T>() * scale + floor for every element; reports the worst ratio.
template <typename T>
void ExpectWithin(const std::vector<T>& got, const std::vector<double>& oracle,
                  const std::vector<double>& scale, double c, double floor,
                  const std::string& what) {
  for (size_t i = 0; i < oracle.size(); ++i) {
    const double g = D(got[i]);
    const double bound = c * Eps<T>() * scale[i] + floor;
    if (!(std::fabs(g - oracle[i]) <= bound)) {
      ADD_FAILURE() << what << ": element " << i << " is " << g << ", the oracle " << oracle[i]
                    << ", beyond the bound " << bound;
      return;
    }
  }
}

// Finite random inputs of T in [-range, range], zeros first.
template <typename T>
std::vector<T> Finite(uint32_t seed, uint32_t n, float range) {
  std::vector<T> v(n);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-range, range);
  for (uint32_t i = 0; i < n; ++i) v[i] = i < 2 ? T(i == 0 ? 0.0f : -0.0f) : T(d(gen));
  return v;
}

inline double Sigma(double z) { return 1.0 / (1.0 + std::exp(-z)); }

}  // namespace lngrad::adv::testing
