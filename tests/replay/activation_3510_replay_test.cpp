// lngrad's element-wise activations on the 950 (Ascend950PR_9589, arch 3510): Gelu, FasterGelu,
// FasterGeluV2, Sigmoid, Swish, Silu, GeGLU and SwiGLU run as kernels and compared bit for bit
// with the independent replay of the toolkit's 3510 register sequences
// (replay_activation_3510.h, a separate reading of the *_3510_impl.h files): every overload, every
// config the 3510 code takes (highPrecision; highPerformance, which it ignores; isReuseSource),
// float and half, counts that leave a partial last register (tails of 1 to 127 lanes), inputs with
// NaN, +-inf, +-0, subnormals and values whose steps overflow, random float bit patterns, and every
// half input. Nothing past the count is written and the sources are kept.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "activation_replay_test_util.h"
#include "kernel_operator.h"
#include "replay_activation_3510.h"
#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace activation_replay_test;  // NOLINT(google-build-using-namespace)
using AscendC::LocalTensor;
using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::Ub;

constexpr const char* kSoc = "Ascend950PR_9589";

// Counts around the register's 64 float / 128 half lanes and several repeats with a tail.
const std::vector<uint32_t> kCounts = {1, 63, 64, 65, 127, 128, 129, 1000, 2049};

template <class T>
constexpr uint32_t kWhole = kUbBufBytes / sizeof(T);  // a whole-tensor form's count

template <class T>
struct Io {
  std::vector<T> dst, src0, src1;
};

// One block of the 950: src0 and src1 in UB buffers 0 and 1 (the sentinel after the inputs), dst
// in buffer 2 (all sentinel), buffer 3 the scratch; body sees tensors of the whole buffers.
template <class T>
Io<T> On950(const std::vector<T>& in0, const std::vector<T>& in1,
            const std::function<void(LocalTensor<T>&, LocalTensor<T>&, LocalTensor<T>&,
                                     const LocalTensor<uint8_t>&)>& body) {
  Io<T> io;
  lngrad::aicore::test::OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in0, Sentinel<T>());
        ub.Put<T>(1, in1, Sentinel<T>());
        ub.Put<T>(2, {}, Sentinel<T>());
        LocalTensor<T> d = ub.Get<T>(2), s0 = ub.Get<T>(0), s1 = ub.Get<T>(1);
        body(d, s0, s1, ub.Get<uint8_t>(3));
        io = {ub.Take<T>(2), ub.Take<T>(0), ub.Take<T>(1)};
      },
      kSoc);
  return io;
}

// The replay on the inputs' bits, its result as T.
template <class T, class F>
std::vector<T> Want(const std::vector<T>& in0, const std::vector<T>& in1, uint32_t count,
                    const F& replay) {
  std::vector<T> out(count, Sentinel<T>());
  const auto* a = reinterpret_cast<const R<T>*>(in0.data());
  const auto* b = in1.empty() ? nullptr : reinterpret_cast<const R<T>*>(in1.data());
  replay(a, b, reinterpret_cast<R<T>*>(out.data()));
  return out;
}

template <class T>
void ExpectKept(const std::vector<T>& got, const std::vector<T>& in, const std::string& what) {
  EXPECT_EQ(std::memcmp(got.data(), in.data(), in.size() * sizeof(T)), 0) << what << ": changed";
}

// Inputs: the specials and random values (Inputs), and for float every fourth a random bit
// pattern (subnormals, NaN payloads, huge magnitudes of both signs).
template <class T>
std::vector<T> Operands(uint32_t seed, uint32_t count, float range) {
  std::vector<T> v = Inputs<T>(seed, count, range);
  if constexpr (std::is_same_v<T, float>) {
    std::mt19937 gen(seed + 12345);
    for (size_t i = Specials().size(); i < v.size(); i += 4)
      v[i] = std::bit_cast<float>(static_cast<uint32_t>(gen()));
  }
  return v;
}

std::string Label(const char* api, const char* type, uint32_t count, int form) {
  return std::string(api) + "<" + type + "> on 950, count " + std::to_string(count) + " form " +
         std::to_string(form);
}

template <class T>
const char* TypeName() {
  return std::is_same_v<T, half> ? "half" : "float";
}

// ---------------------------------------------------------------------------------------------
// Gelu family: forms 0 (sharedTmpBuffer), 1 (none); in place or not.

template <class T, bool P, bool Q>
void CallGelu(rp::GeluForm f, const LocalTensor<T>& d, const LocalTensor<T>& s,
              const LocalTensor<uint8_t>& t, uint32_t n, bool withTmp) {
  using AscendC::FasterGelu;
  using AscendC::FasterGeluV2;
  using AscendC::Gelu;
  if (f == rp::GeluForm::kGelu) withTmp ? Gelu<T, P, Q>(d, s, t, n) : Gelu<T, P, Q>(d, s, n);
  if (f == rp::GeluForm::kFasterGelu)
    withTmp ? FasterGelu<T, P, Q>(d, s, t, n) : FasterGelu<T, P, Q>(d, s, n);
  if (f == rp::GeluForm::kFasterGeluV2)
    withTmp ? FasterGeluV2<T, P, Q>(d, s, t, n) : FasterGeluV2<T, P, Q>(d, s, n);
}

template <class T, bool P, bool Q>
void CheckGeluConfig(rp::GeluForm form, bool inPlace) {
  for (uint32_t count : kCounts) {
    for (int withTmp = 0; withTmp < 2; ++withTmp) {
      const auto seed = count * 3 + static_cast<uint32_t>(form) + 17u * withTmp;
      const std::vector<T> in = Operands<T>(seed, count, 8.0f);
      const Io<T> io = On950<T>(in, {}, [&](auto& d, auto& s0, auto&, auto& t) {
        CallGelu<T, P, Q>(form, inPlace ? s0 : d, s0, t, count, withTmp != 0);
      });
      const std::vector<T> want = Want<T>(in, {}, count, [&](auto* a, auto*, auto* out) {
        rp::ReplayGelu3510(form, P, a, out, count);
      });
      const std::string what = Label("Gelu", TypeName<T>(), count, withTmp) + " kind " +
                               std::to_string(static_cast<int>(form)) + " highPrecision " +
                               std::to_string(P) + " highPerformance " + std::to_string(Q) +
                               (inPlace ? " in place" : "");
      ExpectBits(inPlace ? io.src0 : io.dst, want, count, what);
      if (!inPlace) ExpectKept(io.src0, in, what);
    }
  }
}

template <class T>
void CheckGeluForm(rp::GeluForm form, bool inPlace) {
  CheckGeluConfig<T, false, false>(form, inPlace);
  CheckGeluConfig<T, true, false>(form, inPlace);
  CheckGeluConfig<T, false, true>(form, inPlace);
  CheckGeluConfig<T, true, true>(form, inPlace);
}

TEST(ActivationReplay3510, GeluFamilyBitwise) {
  for (rp::GeluForm form :
       {rp::GeluForm::kGelu, rp::GeluForm::kFasterGelu, rp::GeluForm::kFasterGeluV2}) {
    for (const bool inPlace : {false, true}) {
      CheckGeluForm<float>(form, inPlace);
      CheckGeluForm<half>(form, inPlace);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sigmoid (four overloads), Swish and Silu.

template <class T, bool reuse>
void CheckSigmoid() {
  for (uint32_t count : kCounts) {
    for (int form = 0; form < 4; ++form) {
      const uint32_t n = form >= 2 ? kWhole<T> : count;  // the whole-tensor forms
      const std::vector<T> in = Operands<T>(count * 4 + static_cast<uint32_t>(form), n, 20.0f);
      const Io<T> io = On950<T>(in, {}, [&](auto& d, auto& s, auto&, auto& t) {
        if (form == 0) AscendC::Sigmoid<T, reuse>(d, s, t, n);
        if (form == 1) AscendC::Sigmoid<T, reuse>(d, s, n);
        if (form == 2) AscendC::Sigmoid<T, reuse>(d, s, t);
        if (form == 3) AscendC::Sigmoid<T, reuse>(d, s);
      });
      const std::vector<T> want =
          Want<T>(in, {}, n, [&](auto* a, auto*, auto* out) { rp::ReplaySigmoid3510(a, out, n); });
      const std::string what = Label("Sigmoid", TypeName<T>(), n, form);
      ExpectBits(io.dst, want, n, what);
      ExpectKept(io.src0, in, what);
    }
  }
}

TEST(ActivationReplay3510, SigmoidBitwise) {
  CheckSigmoid<float, false>();
  CheckSigmoid<half, false>();
  CheckSigmoid<float, true>();
  CheckSigmoid<half, true>();
}

template <class T, bool reuse>
void CheckSwishSilu(float betaF) {
  const T beta = Make<T>(betaF);
  for (uint32_t count : kCounts) {
    for (const bool silu : {false, true}) {
      const std::vector<T> in = Operands<T>(count * 2 + (silu ? 1u : 0u), count, 16.0f);
      const Io<T> io = On950<T>(in, {}, [&](auto& d, auto& s, auto&, auto&) {
        silu ? AscendC::Silu<T, reuse>(d, s, count) : AscendC::Swish<T, reuse>(d, s, count, beta);
      });
      const std::vector<T> want = Want<T>(in, {}, count, [&](auto* a, auto*, auto* out) {
        R<T> b;
        std::memcpy(&b, &beta, sizeof(T));
        silu ? rp::ReplaySilu3510(a, out, count) : rp::ReplaySwish3510(a, out, count, b);
      });
      const std::string what = Label(silu ? "Silu" : "Swish", TypeName<T>(), count, 0) + " beta " +
                               std::to_string(betaF);
      ExpectBits(io.dst, want, count, what);
      ExpectKept(io.src0, in, what);
    }
  }
}

TEST(ActivationReplay3510, SwishSiluBitwise) {
  for (float beta : {1.0f, 1.702f, 0.5f, -0.75f, 2.3f, 0.0f, 1e-30f}) {
    CheckSwishSilu<float, false>(beta);
    CheckSwishSilu<half, false>(beta);
  }
  CheckSwishSilu<float, true>(1.25f);
  CheckSwishSilu<half, true>(1.25f);
}

// ---------------------------------------------------------------------------------------------
// GeGLU and SwiGLU: forms 0 (tmp, count), 1 (count), 2 whole tensor with tmp, 3 whole tensor.

template <class T, bool reuse>
void CallGlu(bool swiglu, int form, float beta, LocalTensor<T>& d, LocalTensor<T>& a,
             LocalTensor<T>& b, const LocalTensor<uint8_t>& t, uint32_t n) {
  if (!swiglu) {
    if (form == 0) AscendC::GeGLU<T, reuse>(d, a, b, t, n);
    if (form == 1) AscendC::GeGLU<T, reuse>(d, a, b, n);
    if (form == 2) AscendC::GeGLU<T, reuse>(d, a, b, t);
    if (form == 3) AscendC::GeGLU<T, reuse>(d, a, b);
    return;
  }
  if (form == 0) AscendC::SwiGLU<T, reuse>(d, a, b, beta, t, n);
  if (form == 1) AscendC::SwiGLU<T, reuse>(d, a, b, beta, n);
  if (form == 2) AscendC::SwiGLU<T, reuse>(d, a, b, beta, t);
  if (form == 3) AscendC::SwiGLU<T, reuse>(d, a, b, beta);
}

template <class T>
void ReplayGlu(bool swiglu, float beta, const R<T>* a, const R<T>* b, R<T>* out, uint32_t n) {
  swiglu ? rp::ReplaySwiGLU3510(a, b, out, n, beta) : rp::ReplayGeGLU3510(a, b, out, n);
}

template <class T, bool reuse>
void CheckGlu(bool swiglu, float beta, float range) {
  for (uint32_t count : kCounts) {
    for (int form = 0; form < 4; ++form) {
      const uint32_t n = form >= 2 ? kWhole<T> : count;
      const uint32_t seed = count * 8 + static_cast<uint32_t>(form) + (swiglu ? 100u : 0u);
      const std::vector<T> in0 = Operands<T>(seed, n, range);
      const std::vector<T> in1 = Operands<T>(seed + 7, n, range);
      const Io<T> io = On950<T>(in0, in1, [&](auto& d, auto& s0, auto& s1, auto& t) {
        CallGlu<T, reuse>(swiglu, form, beta, d, s0, s1, t, n);
      });
      const std::vector<T> want = Want<T>(in0, in1, n, [&](auto* a, auto* b, auto* out) {
        ReplayGlu<T>(swiglu, beta, a, b, out, n);
      });
      const std::string what = Label(swiglu ? "SwiGLU" : "GeGLU", TypeName<T>(), n, form) +
                               " beta " + std::to_string(beta) + " reuse " + std::to_string(reuse);
      ExpectBits(io.dst, want, n, what);
      ExpectKept(io.src0, in0, what);
      ExpectKept(io.src1, in1, what);
    }
  }
}

TEST(ActivationReplay3510, GeGLUBitwise) {
  for (float range : {4.0f, 40.0f, 300.0f}) {
    CheckGlu<float, false>(false, 0.0f, range);
    CheckGlu<half, false>(false, 0.0f, range);
  }
  CheckGlu<float, true>(false, 0.0f, 8.0f);
  CheckGlu<half, true>(false, 0.0f, 8.0f);
}

TEST(ActivationReplay3510, SwiGLUBitwise) {
  for (float beta : {1.0f, 1.702f, -0.5f, 0.0f}) {
    CheckGlu<float, false>(true, beta, 16.0f);
    CheckGlu<half, false>(true, beta, 300.0f);
  }
  CheckGlu<float, true>(true, 1.0f, 16.0f);
  CheckGlu<half, true>(true, 1.0f, 16.0f);
}

// ---------------------------------------------------------------------------------------------
// Every half input (the 65536 patterns in slices of 8192): a rounding that differs from the
// replay's on a few inputs (Exp rounded once instead of through float, a constant, a cast) shows
// here.

void CheckAllHalves(const std::string& what, const UnaryCall& call, const UnaryReplay& replay) {
  for (uint32_t first = 0; first < 0x10000u; first += kSlice) {
    const std::vector<half> in = HalfSlice(first);
    const Io<half> io =
        On950<half>(in, {}, [&](auto& d, auto& s, auto&, auto& t) { call(d, s, t, kSlice); });
    const std::vector<half> want =
        Want<half>(in, {}, kSlice, [&](auto* a, auto*, auto* out) { replay(a, out, kSlice); });
    ExpectBits(io.dst, want, kSlice, what + " half inputs from " + std::to_string(first));
  }
}

template <bool P, bool Q>
void CheckGeluAllHalves(rp::GeluForm form) {
  CheckAllHalves(
      "Gelu kind " + std::to_string(static_cast<int>(form)) + " highPrecision " +
          std::to_string(P) + " highPerformance " + std::to_string(Q),
      [&](auto& d, auto& s, auto& t, uint32_t n) { CallGelu<half, P, Q>(form, d, s, t, n, true); },
      [&](auto* a, auto* out, uint32_t n) { rp::ReplayGelu3510(form, P, a, out, n); });
}

TEST(ActivationReplay3510, GeluFamilyEveryHalf) {
  for (rp::GeluForm form :
       {rp::GeluForm::kGelu, rp::GeluForm::kFasterGelu, rp::GeluForm::kFasterGeluV2}) {
    CheckGeluAllHalves<false, false>(form);
    CheckGeluAllHalves<true, false>(form);
    CheckGeluAllHalves<false, true>(form);
    CheckGeluAllHalves<true, true>(form);
  }
}

TEST(ActivationReplay3510, SigmoidSwishSiluEveryHalf) {
  CheckAllHalves(
      "Sigmoid", [](auto& d, auto& s, auto& t, uint32_t n) { AscendC::Sigmoid(d, s, t, n); },
      [](auto* a, auto* out, uint32_t n) { rp::ReplaySigmoid3510(a, out, n); });
  CheckAllHalves(
      "Silu", [](auto& d, auto& s, auto&, uint32_t n) { AscendC::Silu(d, s, n); },
      [](auto* a, auto* out, uint32_t n) { rp::ReplaySilu3510(a, out, n); });
  for (float betaF : {1.702f, 0.3f}) {
    const half beta = Make<half>(betaF);
    const auto rbeta = std::bit_cast<rp::Half>(beta);
    CheckAllHalves(
        "Swish beta " + std::to_string(betaF),
        [&](auto& d, auto& s, auto&, uint32_t n) { AscendC::Swish(d, s, n, beta); },
        [&](auto* a, auto* out, uint32_t n) { rp::ReplaySwish3510(a, out, n, rbeta); });
  }
}

// GeGLU and SwiGLU with every half as src1 (the gate), src0 random.
TEST(ActivationReplay3510, GluEveryHalfGate) {
  for (const bool swiglu : {false, true}) {
    for (uint32_t first = 0; first < 0x10000u; first += kSlice) {
      std::vector<half> in0 = Operands<half>(first + 3, kSlice, 8.0f);
      std::vector<half> in1 = HalfSlice(first);
      const Io<half> io = On950<half>(in0, in1, [&](auto& d, auto& s0, auto& s1, auto& t) {
        CallGlu<half, false>(swiglu, 0, 1.5f, d, s0, s1, t, kSlice);
      });
      const std::vector<half> want = Want<half>(in0, in1, kSlice, [&](auto* a, auto* b, auto* out) {
        ReplayGlu<half>(swiglu, 1.5f, a, b, out, kSlice);
      });
      ExpectBits(io.dst, want, kSlice,
                 std::string(swiglu ? "SwiGLU" : "GeGLU") + " gates from " + std::to_string(first));
    }
  }
}

// The docs' reason why lngrad's single rounding of a half Exp gives the register sequences' bits:
// e^x rounded once to half and rounded through float differ on two half arguments only, both
// positive (Gelu's two Exps take arguments <= 0), and the Adds 1 that follows every other Exp of
// these sequences gives the same half from both.
TEST(ActivationReplay3510, HalfExpRoundingsMeetAfterAddsOne) {
  std::vector<float> differ;
  for (uint32_t b = 0; b < 0x10000u; ++b) {
    const float x = rp::HalfToFloat(rp::Half{static_cast<uint16_t>(b)});
    if (std::isnan(x)) continue;
    const double e = std::exp(static_cast<double>(x));
    const rp::Half once = rp::DoubleToHalf(e);
    const rp::Half viaFloat = rp::FloatToHalf(static_cast<float>(e));
    if (once.bits == viaFloat.bits) continue;
    differ.push_back(x);
    const auto plusOne = [](rp::Half h) { return rp::FloatToHalf(rp::HalfToFloat(h) + 1.0f).bits; };
    EXPECT_GT(x, 0.0f);
    EXPECT_EQ(plusOne(once), plusOne(viaFloat)) << x;
  }
  EXPECT_EQ(differ.size(), 2u);
}

}  // namespace
