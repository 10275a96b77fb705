// The gated activation APIs GeGLU, ReGlu and SwiGLU (lib/activation/glu.h) on Atlas A2 (arch
// 2201), Atlas inference AI Core (arch 2002) and the 950 (arch 3510): every overload, half and
// float (ReGlu also bfloat16_t, not on 2002), against the independent replay of the vendor's
// sequences (bit-exact) and a float64 oracle (bounded).
#include <gtest/gtest.h>

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

const char* const kSocs[] = {k910B, k310P, k950};

// The replays: float arithmetic of Dbl (sources widened exactly, one rounding to T at the end).
float ReGeGlu(float x0, float x1, bool arch3510) {
  using A = Dbl<float>;
  const float ka = arch3510 ? 22.36386f : 22.363860002236f;
  const float kb = arch3510 ? -0.071354814f : -0.0713548162726f;
  float t = A::Mul(x1, x1);
  t = A::Mul(A::Add(t, ka), x1);
  t = A::Add(A::Exp(A::Mul(t, kb)), 1.0f);
  return A::Mul(x0, A::Div(x1, t));
}
// ReGlu: the vector Maxs (a NaN gives the scalar) on 2201, the register Maxs of reglu_3510_impl.h
// on the 950 (a NaN stays, the scalar replaces only a strictly smaller element: -0 stays).
float ReReGlu(float x0, float x1, bool arch3510) {
  if (!arch3510) return Dbl<float>::Mul(x0, Dbl<float>::Maxs(x1, 0.0));
  const float m = std::isnan(x1) || !(0.0f > x1) ? x1 : 0.0f;
  return Dbl<float>::Mul(x0, m);
}
float ReSwiGlu(float x0, float x1, float beta) {
  using A = Dbl<float>;
  const float e = A::Add(A::Exp(A::Mul(x1, -1.0f * beta)), 1.0f);
  return A::Mul(x0, A::Div(x1, e));
}

double OGelu(double x) { return x * Sigma(1.5957691216057308 * (x + 0.044715 * x * x * x)); }

enum class Glu { kGeGlu, kReGlu, kSwiGlu };

template <Glu G, typename T>
void Call(int mode, LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b,
          const LocalTensor<uint8_t>& t, uint32_t n, float beta) {
  if constexpr (G == Glu::kGeGlu) {
    if (mode == 0) GeGLU<T, false>(d, a, b, t, n);
    if (mode == 1) GeGLU<T, false>(d, a, b, n);
    if (mode == 2) GeGLU<T, false>(d, a, b, t);
    if (mode == 3) GeGLU<T, false>(d, a, b);
  } else if constexpr (G == Glu::kReGlu) {
    if (mode == 0 || mode == 2) ReGlu<T, false>(d, a, b, t, n);
    if (mode == 1 || mode == 3) ReGlu<T, false>(d, a, b, n);
  } else {
    LocalTensor<T> a2 = a, b2 = b;
    if (mode == 0) SwiGLU<T, false>(d, a, b, beta, t, n);
    if (mode == 1) SwiGLU<T, false>(d, a, b, beta, n);
    if (mode == 2) SwiGLU<T, false>(d, a, b, beta, t);
    if (mode == 3) SwiGLU<T, false>(d, a2, b2, beta);
  }
}

template <Glu G>
float ReplayOf(float x0, float x1, bool arch3510, float beta) {
  if constexpr (G == Glu::kGeGlu) return ReGeGlu(x0, x1, arch3510);
  if constexpr (G == Glu::kReGlu) return ReReGlu(x0, x1, arch3510);
  return ReSwiGlu(x0, x1, beta);
}

template <Glu G>
double OracleOf(double x0, double x1, double beta) {
  if constexpr (G == Glu::kGeGlu) return x0 * OGelu(x1);
  if constexpr (G == Glu::kReGlu) return x0 * std::max(x1, 0.0);
  return x0 * x1 * Sigma(beta * x1);
}

// Bounds: |got - f| <= c eps_T |x0 x1| + floor, c = 0.5 for ReGlu (one rounding), 2 for GeGLU
// and SwiGLU (measured worst: below 1.2 for float, 0.6 for half, whose float result is rounded
// once).
template <Glu G, typename T>
void CheckGlu(const char* soc, const std::string& name) {
  const bool arch3510 = std::string(soc) == k950;
  const float beta = 1.25f;
  const std::vector<T> in0 = Inputs<T>(41, kN, 8.0f), in1 = Inputs<T>(42, kN, 8.0f);
  const std::vector<T> f0 = Finite<T>(43, kN, 8.0f), f1 = Finite<T>(44, kN, 8.0f);
  for (int mode = 0; mode < 4; ++mode) {
    const bool whole = mode >= 2 && G != Glu::kReGlu;
    const uint32_t count = whole ? kBytes / sizeof(T) : (mode == 0 ? kN : kTail);
    const std::string what = name + " " + soc + " overload " + std::to_string(mode);
    const Binary<T> call = [&](LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b,
                               const LocalTensor<uint8_t>& t) {
      Call<G, T>(mode, d, a, b, t, count, beta);
    };
    std::vector<T> a(in0), b(in1);
    a.resize(count, T(0.5f));
    b.resize(count, T(-1.5f));
    std::vector<T> want(count);
    for (uint32_t i = 0; i < count; ++i) {
      want[i] = T(ReplayOf<G>(static_cast<float>(a[i]), static_cast<float>(b[i]), arch3510, beta));
    }
    ExpectReplay(RunBinary<T>(soc, a, b, call), want, count, what);
    if (mode != 0) continue;
    const std::vector<T> got = RunBinary<T>(soc, f0, f1, call);
    std::vector<double> oracle(count), scale(count);
    for (uint32_t i = 0; i < count; ++i) {
      oracle[i] = OracleOf<G>(D(f0[i]), D(f1[i]), beta);
      scale[i] = std::fabs(D(f0[i]) * D(f1[i]));
    }
    const double c = G == Glu::kReGlu ? 0.5 : 2.0;
    ExpectWithin(got, oracle, scale, c, std::is_same_v<T, float> ? 1e-37 : 1e-7, what);
  }
}

TEST(ActivationGlu, GeGluEveryOverloadMatchesReplayAndOracle) {
  for (const char* soc : kSocs) {
    CheckGlu<Glu::kGeGlu, float>(soc, "GeGLU");
    CheckGlu<Glu::kGeGlu, half>(soc, "GeGLU");
  }
}

TEST(ActivationGlu, ReGluEveryTypeMatchesReplayAndOracle) {
  for (const char* soc : kSocs) {
    CheckGlu<Glu::kReGlu, float>(soc, "ReGlu");
    CheckGlu<Glu::kReGlu, half>(soc, "ReGlu");
    if (std::string(soc) != k310P) CheckGlu<Glu::kReGlu, bfloat16_t>(soc, "ReGlu");
  }
}

TEST(ActivationGlu, SwiGluEveryOverloadMatchesReplayAndOracle) {
  for (const char* soc : kSocs) {
    CheckGlu<Glu::kSwiGlu, float>(soc, "SwiGLU");
    CheckGlu<Glu::kSwiGlu, half>(soc, "SwiGLU");
  }
}

}  // namespace
