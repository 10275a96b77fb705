// The element-wise activation APIs (lib/activation/eltwise.h) on the simulated device, on
// Atlas A2 (Ascend910B1, arch 2201), Atlas inference AI Core (Ascend310P1, arch 2002, which runs
// the 2201 sequences) and the 950 (arch 3510): every overload, half and float, counts that are no
// multiple of a repeat, against
//  - an independent replay of the vendor's instruction sequences (impl/adv_api/detail/
//    activation/..., per arch), each step in double rounded once to the compute type: bit-exact;
//  - a float64 oracle of the function the API computes, within a stated bound.
// Checked-mode rules and the host scratch sizes are in activation_eltwise_host_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "activation_eltwise_test_util.h"
#include "kernel_operator.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

// ----------------------------------------------------------------------------------------------
// Replays (written from the vendor's sequences; Dbl's arithmetic).

template <typename C>
C ReDiv(C x, C d, bool recip) {
  using A = Dbl<C>;
  return recip ? A::Mul(x, A::Rec(d)) : A::Div(x, d);
}

template <typename C>
C ReGelu(C x, bool recip) {
  using A = Dbl<C>;
  C t = A::Mul(x, x);
  t = A::Mul(x, t);
  t = A::Mul(t, C(0.044715));
  t = A::Add(x, t);
  const C y = A::Mul(t, C(1.5957691216057308));
  const C e1 = A::Exp(A::Mins(y, 0.0));
  C e2 = A::Mul(A::Abs(y), C(-1.0));
  e2 = A::Add(A::Exp(e2), C(1.0));
  return A::Mul(ReDiv(x, e2, recip), e1);
}

template <typename C>
C ReFasterGelu(C x, bool recip) {
  using A = Dbl<C>;
  const C e = A::Add(A::Exp(A::Mul(x, C(-1.702))), C(1.0));
  return ReDiv(x, e, recip);
}

template <typename C>
C ReFasterGeluV2(C x, bool recip) {
  using A = Dbl<C>;
  C a = A::Mul(x, C(0.7071));
  a = A::Mins(A::Abs(a), static_cast<double>(static_cast<float>(C(1.769))));
  a = A::Add(a, C(-1.769));
  a = A::Mul(a, a);
  a = A::Add(A::Mul(a, C(-0.1444)), C(0.5));
  const C b = A::Add(x, C(0.000000000001));
  const C s = ReDiv(b, A::Abs(b), recip);
  return A::Mul(x, A::Add(A::Mul(a, s), C(0.5)));
}

template <typename C>
C ReSwish(C x, C negBeta) {
  using A = Dbl<C>;
  return A::Div(x, A::Add(A::Exp(A::Mul(x, negBeta)), C(1.0)));
}

template <typename C>
C ReSigmoid(C x) {
  using A = Dbl<C>;
  return A::Div(C(1.0), A::Add(A::Exp(A::Mul(x, C(-1.0))), C(1.0)));
}

// ----------------------------------------------------------------------------------------------
// Oracles (float64 functions) and bounds.

double OGelu(double x) { return x * Sigma(1.5957691216057308 * (x + 0.044715 * x * x * x)); }
double OFasterGelu(double x) { return x * Sigma(1.702 * x); }
double OFasterGeluV2(double x) {
  const double t = std::min(std::fabs(0.7071 * x), 1.769) - 1.769;
  return x * ((x < 0 ? -1.0 : 1.0) * (-0.1444 * t * t + 0.5) + 0.5);
}

// The bound of the Gelu family: |got - f(x)| <= 2 eps_T |x| + floor (|f(x)| <= |x|); the worst
// measured is 1.31 eps_T |x| (FasterGeluV2 with highPerformance).
template <typename T>
double Floor() {
  return std::is_same_v<T, float> ? 1e-37 : std::ldexp(1.0, -24);
}

const char* const kSocs[] = {k910B, k310P, k950};

enum class Kind { kGelu, kFaster, kFasterV2 };

template <Kind K, typename T, bool P, bool Q>
void CallGelu(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
              uint32_t n, bool with_tmp) {
  if constexpr (K == Kind::kGelu) {
    with_tmp ? Gelu<T, P, Q>(d, s, t, n) : Gelu<T, P, Q>(d, s, n);
  } else if constexpr (K == Kind::kFaster) {
    with_tmp ? FasterGelu<T, P, Q>(d, s, t, n) : FasterGelu<T, P, Q>(d, s, n);
  } else {
    with_tmp ? FasterGeluV2<T, P, Q>(d, s, t, n) : FasterGeluV2<T, P, Q>(d, s, n);
  }
}

template <Kind K, typename C>
C ReplayOf(C x, bool recip) {
  if constexpr (K == Kind::kGelu) return ReGelu(x, recip);
  if constexpr (K == Kind::kFaster) return ReFasterGelu(x, recip);
  return ReFasterGeluV2(x, recip);
}

template <Kind K>
double OracleOf(double x) {
  if constexpr (K == Kind::kGelu) return OGelu(x);
  if constexpr (K == Kind::kFaster) return OFasterGelu(x);
  return OFasterGeluV2(x);
}

template <Kind K, typename T, bool P, bool Q>
void CheckGeluOne(const char* soc, const std::string& name) {
  const bool arch3510 = std::string(soc) == k950;
  const bool recip = Q && !arch3510;
  const std::vector<T> in = Inputs<T>(11, kN, 12.0f);
  const std::vector<T> fin = Finite<T>(12, kN, 12.0f);
  for (uint32_t count : {kN, kTail}) {
    for (bool with_tmp : {true, false}) {
      const std::string what = name + " P=" + std::to_string(P) + " Q=" + std::to_string(Q) + " " +
                               soc + " count " + std::to_string(count) +
                               (with_tmp ? " tmp" : " stack");
      const Unary<T> call = [&](const LocalTensor<T>& d, const LocalTensor<T>& s,
                                const LocalTensor<uint8_t>& t) {
        CallGelu<K, T, P, Q>(d, s, t, count, with_tmp);
      };
      std::vector<T> want(count);
      for (uint32_t i = 0; i < count; ++i) {
        want[i] = P ? T(ReplayOf<K>(static_cast<float>(in[i]), recip)) : ReplayOf<K>(in[i], recip);
      }
      ExpectReplay(RunUnary<T>(soc, in, call), want, count, what);
      const std::vector<T> got = RunUnary<T>(soc, fin, call);
      std::vector<double> oracle(count), scale(count);
      for (uint32_t i = 0; i < count; ++i) {
        oracle[i] = OracleOf<K>(D(fin[i]));
        scale[i] = std::fabs(D(fin[i]));
      }
      // half FasterGeluV2 without highPrecision: 1e-12 rounds to 0 in half and x = 0 gives NaN.
      if (K == Kind::kFasterV2 && !P && std::is_same_v<T, half>) {
        EXPECT_TRUE(std::isnan(D(got[0]))) << what;
        oracle[0] = oracle[1] = 0;
        std::vector<T> g(got.begin() + 2, got.begin() + count);
        ExpectWithin(g, std::vector<double>(oracle.begin() + 2, oracle.end()),
                     std::vector<double>(scale.begin() + 2, scale.end()), 2.0, Floor<T>(), what);
        continue;
      }
      ExpectWithin(got, oracle, scale, 2.0, Floor<T>(), what);
    }
  }
}

template <Kind K, typename T>
void CheckGeluAll(const char* soc, const std::string& name) {
  CheckGeluOne<K, T, false, false>(soc, name);
  CheckGeluOne<K, T, true, false>(soc, name);
  CheckGeluOne<K, T, false, true>(soc, name);
  CheckGeluOne<K, T, true, true>(soc, name);
}

TEST(ActivationGelu, EveryModeAndOverloadMatchesReplayAndOracle) {
  for (const char* soc : kSocs) {
    CheckGeluAll<Kind::kGelu, float>(soc, "Gelu");
    CheckGeluAll<Kind::kGelu, half>(soc, "Gelu");
  }
}

TEST(ActivationGelu, FasterGeluMatchesReplayAndOracle) {
  for (const char* soc : kSocs) {
    CheckGeluAll<Kind::kFaster, float>(soc, "FasterGelu");
    CheckGeluAll<Kind::kFaster, half>(soc, "FasterGelu");
  }
}

TEST(ActivationGelu, FasterGeluV2MatchesReplayAndOracle) {
  for (const char* soc : kSocs) {
    CheckGeluAll<Kind::kFasterV2, float>(soc, "FasterGeluV2");
    CheckGeluAll<Kind::kFasterV2, half>(soc, "FasterGeluV2");
  }
}

TEST(ActivationGelu, InPlaceGivesTheSameBits) {
  const std::vector<float> in = Inputs<float>(5, kN, 12.0f);
  std::vector<float> out;
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, in);
    Gelu(ub.Get<float>(0), ub.Get<float>(0), ub.Get<uint8_t>(2), kN);
    out = ub.Take<float>(0);
  });
  std::vector<float> want(in);
  for (uint32_t i = 0; i < kN; ++i) want[i] = ReGelu(in[i], false);
  ExpectSame(out, want, "Gelu in place");
}

// Every half input (all 65536 bit patterns, kN at a time, then a tail) through the half steps
// (several elements at once in the library) against the replay, element by element.
template <Kind K, bool Q>
void CheckGeluEveryHalf(const std::string& name) {
  const std::string what = name + " Q=" + std::to_string(Q) + " every half";
  for (uint32_t first = 0; first < 0x10000u; first += kN) {
    const uint32_t count = std::min(kN, 0x10000u - first);
    std::vector<half> in(kN);
    for (uint32_t i = 0; i < kN; ++i) in[i].bits = static_cast<uint16_t>(first + i);
    const Unary<half> call = [&](const LocalTensor<half>& d, const LocalTensor<half>& s,
                                 const LocalTensor<uint8_t>& t) {
      CallGelu<K, half, false, Q>(d, s, t, count, true);
    };
    std::vector<half> want(count);
    for (uint32_t i = 0; i < count; ++i) want[i] = ReplayOf<K>(in[i], Q);
    ExpectReplay(RunUnary<half>(k910B, in, call), want, count,
                 what + " from " + std::to_string(first));
  }
}

TEST(ActivationGelu, HalfStepsMatchReplayForEveryInput) {
  CheckGeluEveryHalf<Kind::kGelu, false>("Gelu");
  CheckGeluEveryHalf<Kind::kGelu, true>("Gelu");
  CheckGeluEveryHalf<Kind::kFaster, false>("FasterGelu");
  CheckGeluEveryHalf<Kind::kFaster, true>("FasterGelu");
  CheckGeluEveryHalf<Kind::kFasterV2, false>("FasterGeluV2");
  CheckGeluEveryHalf<Kind::kFasterV2, true>("FasterGeluV2");
}

// ----------------------------------------------------------------------------------------------
// Sigmoid, Swish, Silu.

template <typename T>
void CheckSigmoid(const char* soc) {
  const bool arch3510 = std::string(soc) == k950;
  const std::vector<T> in = Inputs<T>(21, kN, 20.0f);
  const std::vector<T> fin = Finite<T>(22, kN, 20.0f);
  for (int mode = 0; mode < 4; ++mode) {
    const uint32_t count = mode < 2 ? kTail : kBytes / sizeof(T);
    const std::string what = std::string("Sigmoid ") + soc + " overload " + std::to_string(mode);
    const Unary<T> call = [&](const LocalTensor<T>& d, const LocalTensor<T>& s,
                              const LocalTensor<uint8_t>& t) {
      if (mode == 0) Sigmoid<T, false>(d, s, t, count);
      if (mode == 1) Sigmoid<T, false>(d, s, count);
      if (mode == 2) Sigmoid<T, false>(d, s, t);
      if (mode == 3) Sigmoid<T, false>(d, s);
    };
    std::vector<T> big_in(in);
    big_in.resize(count, T(0.25f));
    std::vector<T> want(count);
    for (uint32_t i = 0; i < count; ++i) {
      want[i] = arch3510 ? T(ReSigmoid(static_cast<float>(big_in[i]))) : ReSigmoid(big_in[i]);
    }
    ExpectReplay(RunUnary<T>(soc, big_in, call), want, count, what);
  }
  // The bound: |got - sigma(x)| <= 2 eps_T sigma(x) + floor; floor: 2^-126 for float, for half
  // 2^-24 on 3510 (one rounding into the subnormals) and 2^-15 on 2201, where e^-x overflows
  // half below x = -11.09 and the result flushes to 0 (sigma(-11.09) = 1.5e-5).
  const std::vector<T> got =
      RunUnary<T>(soc, fin,
                  [&](const LocalTensor<T>& d, const LocalTensor<T>& s,
                      const LocalTensor<uint8_t>& t) { Sigmoid<T, false>(d, s, t, kN); });
  std::vector<double> oracle(kN), scale(kN);
  for (uint32_t i = 0; i < kN; ++i) scale[i] = oracle[i] = Sigma(D(fin[i]));
  const double floor = std::is_same_v<T, float> ? std::ldexp(1.0, -126)
                       : arch3510               ? std::ldexp(1.0, -24)
                                                : std::ldexp(1.0, -15);
  ExpectWithin(got, oracle, scale, 2.0, floor, std::string("Sigmoid oracle ") + soc);
}

TEST(ActivationSigmoid, EveryOverloadMatchesReplayAndOracle) {
  for (const char* soc : kSocs) {
    CheckSigmoid<float>(soc);
    CheckSigmoid<half>(soc);
  }
}

// Swish(beta) and Silu (beta 1): dst = x * sigma(beta x), -beta rounded to T, every step in T.
template <typename T>
void CheckSwish(const char* soc) {
  const std::vector<T> in = Inputs<T>(31, kN, 12.0f);
  const std::vector<T> fin = Finite<T>(32, kN, 12.0f);
  for (const float beta : {1.702f, 1.0f, 0.5f}) {
    for (const bool silu : {false, true}) {
      if (silu && beta != 1.0f) continue;
      const T b = T(beta);
      const std::string what = std::string(silu ? "Silu " : "Swish ") + soc;
      const Unary<T> call = [&](const LocalTensor<T>& d, const LocalTensor<T>& s,
                                const LocalTensor<uint8_t>&) {
        silu ? Silu<T, false>(d, s, kTail) : Swish(d, s, kTail, b);
      };
      std::vector<T> want(kTail);
      for (uint32_t i = 0; i < kTail; ++i) want[i] = ReSwish(in[i], T(-1.0f * beta));
      ExpectReplay(RunUnary<T>(soc, in, call), want, kTail, what);
      const std::vector<T> got = RunUnary<T>(soc, fin, call);
      std::vector<double> oracle(kTail), scale(kTail);
      for (uint32_t i = 0; i < kTail; ++i) {
        const double x = D(fin[i]);
        oracle[i] = x * Sigma(D(b) * x);
        scale[i] = std::fabs(x);
      }
      ExpectWithin(got, oracle, scale, 2.0, Floor<T>(), what + " oracle");
    }
  }
}

TEST(ActivationSwish, SwishAndSiluMatchReplayAndOracle) {
  for (const char* soc : kSocs) {
    CheckSwish<float>(soc);
    CheckSwish<half>(soc);
  }
}

}  // namespace
