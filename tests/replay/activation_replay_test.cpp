// lngrad's element-wise activations (Gelu, FasterGelu, FasterGeluV2, Sigmoid, Swish, Silu, GeGLU,
// ReGlu, SwiGLU) run as kernels on Ascend910B1 (arch 2201) and compared bit for bit with the
// independent replay of the toolkit's sequences (replay_activation.h): every overload, float and
// half (bfloat16 for ReGlu), counts from 1 to beyond the scratch's chunk, inputs over the ranges
// the sequences branch on (exp overflow, the clip of FasterGeluV2, signed zeros, inf, NaN).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "activation_replay_test_util.h"
#include "replay_activation.h"
#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;

// The product the kernels run on: Ascend910B1 (arch 2201); the 310P test switches it to
// Ascend310P1 (arch 2002, whose sources take the same sequences).
const char* g_soc = "Ascend910B1";

using namespace activation_replay_test;  // NOLINT(google-build-using-namespace)

template <class T>
using Body = std::function<void(LocalTensor<T>& dst, LocalTensor<T>& src0, LocalTensor<T>& src1,
                                const LocalTensor<uint8_t>& tmp)>;

uint32_t Aligned32(uint32_t bytes) { return (bytes + 31u) / 32u * 32u; }

template <class T>
struct Io {
  std::vector<T> dst, src0, src1;
};

template <class T>
std::vector<T> Take(const LocalTensor<T>& t, size_t n) {
  const T* p = t.HostPtr();
  return std::vector<T>(p, p + n);
}

// One block of Ascend910B1: src0, src1 and dst (dstLen elements, the sentinel) in UB buffers of
// their exact sizes, a tmpBytes scratch (0: none, the overloads without it take the stack
// buffer); returns the three tensors after body.
template <class T>
Io<T> RunKernel(const std::vector<T>& in0, const std::vector<T>& in1, uint32_t dstLen,
                uint32_t tmpBytes, const Body<T>& body) {
  Io<T> io;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = g_soc;
  opts.sequential = true;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> b0, b1, bd, bt;
    const auto n0 = static_cast<uint32_t>(in0.size());
    const auto n1 = static_cast<uint32_t>(in1.size());
    pipe.InitBuffer(b0, Aligned32(n0 * sizeof(T)));
    pipe.InitBuffer(b1, Aligned32(std::max<uint32_t>(n1, 1) * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(dstLen * sizeof(T)));
    pipe.InitBuffer(bt, std::max<uint32_t>(tmpBytes, 32));
    LocalTensor<T> s0 = b0.Get<T>(n0), s1 = b1.Get<T>(std::max<uint32_t>(n1, 1));
    LocalTensor<T> d = bd.Get<T>(dstLen);
    std::copy(in0.begin(), in0.end(), s0.HostPtr());
    std::copy(in1.begin(), in1.end(), s1.HostPtr());
    std::fill(d.HostPtr(), d.HostPtr() + dstLen, Sentinel<T>());
    body(d, s0, s1, bt.Get<uint8_t>(std::max<uint32_t>(tmpBytes, 32)));
    io = {Take(d, dstLen), Take(s0, n0), Take(s1, n1)};
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return io;
}

// The replay on copies of the inputs, its result as T.
template <class T, class F>
std::vector<T> Replayed(const std::vector<T>& in0, const std::vector<T>& in1, uint32_t count,
                        const F& replay) {
  std::vector<T> out(count, Sentinel<T>());
  replay(reinterpret_cast<const R<T>*>(in0.data()), reinterpret_cast<const R<T>*>(in1.data()),
         reinterpret_cast<R<T>*>(out.data()));
  return out;
}

template <class T>
void ExpectSourcesKept(const Io<T>& io, const std::vector<T>& in0, const std::vector<T>& in1,
                       const std::string& what) {
  // (memcmp of an empty vector's null data() is undefined: a unary API has no src1)
  const auto same = [](const std::vector<T>& got, const std::vector<T>& want) {
    return want.empty() || (got.size() >= want.size() &&
                            std::memcmp(got.data(), want.data(), want.size() * sizeof(T)) == 0);
  };
  EXPECT_TRUE(same(io.src0, in0)) << what << ": src0 changed";
  EXPECT_TRUE(same(io.src1, in1)) << what << ": src1 changed";
}

// Counts: one element, a tail below a repeat, repeats plus a tail, beyond the chunk of the small
// scratch (several chunks and a tail chunk).
const std::vector<uint32_t> kCounts = {1, 37, 77, 256, 1000, 2049};
// Scratch sizes: near the tiling minimum (many chunks) and large (one chunk).
const std::vector<uint32_t> kTmpBytes = {1536, 32768};

std::string Name(const char* api, const char* type, uint32_t count, uint32_t tmp, int form) {
  return std::string(api) + "<" + type + "> count " + std::to_string(count) + " tmp " +
         std::to_string(tmp) + " form " + std::to_string(form);
}

template <class T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, half>) return "half";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
  return "float";
}

// ---------------------------------------------------------------------------------------------
// Gelu family

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
    for (uint32_t tmp : {0u, kTmpBytes[0], kTmpBytes[1]}) {
      const std::vector<T> in = Inputs<T>(count + tmp + static_cast<uint32_t>(form), count, 6.0f);
      const Io<T> io = RunKernel<T>(in, {}, count, tmp, [&](auto& d, auto& s0, auto&, auto& t) {
        CallGelu<T, P, Q>(form, inPlace ? s0 : d, s0, t, count, tmp != 0);
      });
      const std::vector<T> want = Replayed<T>(in, in, count, [&](auto* a, auto*, auto* out) {
        rp::ReplayGelu(form, P, Q, a, out, count);
      });
      const std::string what = Name("Gelu", TypeName<T>(), count, tmp, static_cast<int>(form)) +
                               " highPrecision " + std::to_string(P) + " highPerformance " +
                               std::to_string(Q) + (inPlace ? " in place" : "");
      if (inPlace) {
        ExpectBits(io.src0, want, count, what);
      } else {
        ExpectBits(io.dst, want, count, what);
        ExpectSourcesKept(io, in, {}, what);
      }
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

TEST(ActivationReplay, GeluBitwise) {
  CheckGeluForm<float>(rp::GeluForm::kGelu, false);
  CheckGeluForm<half>(rp::GeluForm::kGelu, false);
}

TEST(ActivationReplay, FasterGeluBitwise) {
  CheckGeluForm<float>(rp::GeluForm::kFasterGelu, false);
  CheckGeluForm<half>(rp::GeluForm::kFasterGelu, false);
}

TEST(ActivationReplay, FasterGeluV2Bitwise) {
  CheckGeluForm<float>(rp::GeluForm::kFasterGeluV2, false);
  CheckGeluForm<half>(rp::GeluForm::kFasterGeluV2, false);
}

// dst identical to src: the sequences write dst last, after their final read of src.
TEST(ActivationReplay, GeluFamilyInPlace) {
  for (rp::GeluForm form :
       {rp::GeluForm::kGelu, rp::GeluForm::kFasterGelu, rp::GeluForm::kFasterGeluV2}) {
    CheckGeluForm<float>(form, true);
    CheckGeluForm<half>(form, true);
  }
}

// ---------------------------------------------------------------------------------------------
// Sigmoid, Swish, Silu

// Sigmoid's four overloads: (tmp, count), (count), whole tensor with tmp, whole tensor.
template <class T, bool reuse>
void CallSigmoid(int form, const LocalTensor<T>& d, const LocalTensor<T>& s,
                 const LocalTensor<uint8_t>& t, uint32_t n) {
  if (form == 0) AscendC::Sigmoid<T, reuse>(d, s, t, n);
  if (form == 1) AscendC::Sigmoid<T, reuse>(d, s, n);
  if (form == 2) AscendC::Sigmoid<T, reuse>(d, s, t);
  if (form == 3) AscendC::Sigmoid<T, reuse>(d, s);
}

template <class T, bool reuse>
void CheckSigmoid() {
  for (uint32_t count : kCounts) {
    for (int form = 0; form < 4; ++form) {
      const uint32_t tmp = (form == 1 || form == 3) ? 0 : kTmpBytes[count % 2];
      const std::vector<T> in = Inputs<T>(count * 4 + static_cast<uint32_t>(form), count, 20.0f);
      // The whole-tensor forms compute src.GetSize() elements: dst as long as src.
      const Io<T> io = RunKernel<T>(in, {}, count, tmp, [&](auto& d, auto& s0, auto&, auto& t) {
        CallSigmoid<T, reuse>(form, d, s0, t, count);
      });
      const std::vector<T> want = Replayed<T>(
          in, in, count, [&](auto* a, auto*, auto* out) { rp::ReplaySigmoid(a, out, count); });
      const std::string what = Name("Sigmoid", TypeName<T>(), count, tmp, form);
      ExpectBits(io.dst, want, count, what);
      ExpectSourcesKept(io, in, {}, what);
    }
  }
}

TEST(ActivationReplay, SigmoidBitwise) {
  CheckSigmoid<float, false>();
  CheckSigmoid<half, false>();
  CheckSigmoid<float, true>();
  CheckSigmoid<half, true>();
}

// Swish (beta as T) and Silu; both have the one (dst, src, count[, beta]) overload.
template <class T, bool reuse>
void CheckSwishSilu(float betaF) {
  const T beta = Make<T>(betaF);
  for (uint32_t count : kCounts) {
    for (const bool silu : {false, true}) {
      const std::vector<T> in = Inputs<T>(count * 2 + (silu ? 1u : 0u), count, 16.0f);
      const Io<T> io = RunKernel<T>(in, {}, count, 0, [&](auto& d, auto& s0, auto&, auto&) {
        silu ? AscendC::Silu<T, reuse>(d, s0, count) : AscendC::Swish<T, reuse>(d, s0, count, beta);
      });
      const std::vector<T> want = Replayed<T>(in, in, count, [&](auto* a, auto*, auto* out) {
        if (silu) {
          rp::ReplaySilu(a, out, count);
        } else {
          R<T> b;
          std::memcpy(&b, &beta, sizeof(T));
          rp::ReplaySwish(a, out, count, b);
        }
      });
      const std::string what = Name(silu ? "Silu" : "Swish", TypeName<T>(), count, 0, 0) +
                               " beta " + std::to_string(betaF);
      ExpectBits(io.dst, want, count, what);
      ExpectSourcesKept(io, in, {}, what);
    }
  }
}

TEST(ActivationReplay, SwishSiluBitwise) {
  for (float beta : {1.0f, 1.702f, 0.5f, -0.75f, 2.3f, 0.0f}) {
    CheckSwishSilu<float, false>(beta);
    CheckSwishSilu<half, false>(beta);
  }
  CheckSwishSilu<float, true>(1.25f);
  CheckSwishSilu<half, true>(1.25f);
}

// ---------------------------------------------------------------------------------------------
// GeGLU, ReGlu, SwiGLU

enum class Glu { kGeGlu, kReGlu, kSwiGlu };

// Forms: 0 (tmp, count), 1 (count), 2 whole tensor with tmp, 3 whole tensor; ReGlu has only the
// count forms (2 and 3 call them).
template <class T, bool reuse>
void CallGlu(Glu api, int form, float beta, LocalTensor<T>& d, const LocalTensor<T>& a,
             const LocalTensor<T>& b, const LocalTensor<uint8_t>& t, uint32_t n) {
  if (api == Glu::kReGlu) {
    if (form == 0 || form == 2) AscendC::ReGlu<T, reuse>(d, a, b, t, n);
    if (form == 1 || form == 3) AscendC::ReGlu<T, reuse>(d, a, b, n);
    return;
  }
  if constexpr (std::is_same_v<T, bfloat16_t>) {
    ADD_FAILURE() << "bfloat16 is ReGlu's only";
  } else if (api == Glu::kGeGlu) {
    if (form == 0) AscendC::GeGLU<T, reuse>(d, a, b, t, n);
    if (form == 1) AscendC::GeGLU<T, reuse>(d, a, b, n);
    if (form == 2) AscendC::GeGLU<T, reuse>(d, a, b, t);
    if (form == 3) AscendC::GeGLU<T, reuse>(d, a, b);
  } else {
    if (form == 0) AscendC::SwiGLU<T, reuse>(d, a, b, beta, t, n);
    if (form == 1) AscendC::SwiGLU<T, reuse>(d, a, b, beta, n);
    if (form == 2) AscendC::SwiGLU<T, reuse>(d, a, b, beta, t);
    if (form == 3) {
      LocalTensor<T> a1 = a, b1 = b;
      AscendC::SwiGLU<T, reuse>(d, a1, b1, beta);
    }
  }
}

template <class T>
void ReplayGlu(Glu api, float beta, const R<T>* a, const R<T>* b, R<T>* out, uint32_t n) {
  if (api == Glu::kGeGlu) {
    if constexpr (!std::is_same_v<T, bfloat16_t>) rp::ReplayGeGLU(a, b, out, n);
  } else if (api == Glu::kReGlu) {
    rp::ReplayReGlu(a, b, out, n);
  } else {
    if constexpr (!std::is_same_v<T, bfloat16_t>) rp::ReplaySwiGLU(a, b, out, n, beta);
  }
}

template <class T, bool reuse>
void CheckGlu(Glu api, float beta, float range) {
  const char* names[] = {"GeGLU", "ReGlu", "SwiGLU"};
  for (uint32_t count : kCounts) {
    for (int form = 0; form < 4; ++form) {
      const uint32_t tmp = (form == 1 || form == 3) ? 0 : kTmpBytes[count % 2];
      const uint32_t seed =
          count * 8 + static_cast<uint32_t>(form) + 100 * static_cast<uint32_t>(api);
      const std::vector<T> in0 = Inputs<T>(seed, count, range);
      const std::vector<T> in1 = Inputs<T>(seed + 7, count, range);
      const Io<T> io =
          RunKernel<T>(in0, in1, count, tmp, [&](auto& d, auto& s0, auto& s1, auto& t) {
            CallGlu<T, reuse>(api, form, beta, d, s0, s1, t, count);
          });
      const std::vector<T> want = Replayed<T>(in0, in1, count, [&](auto* a, auto* b, auto* out) {
        ReplayGlu<T>(api, beta, a, b, out, count);
      });
      const std::string what = Name(names[static_cast<int>(api)], TypeName<T>(), count, tmp, form) +
                               " beta " + std::to_string(beta) + " reuse " + std::to_string(reuse);
      ExpectBits(io.dst, want, count, what);
      ExpectSourcesKept(io, in0, in1, what);
    }
  }
}

TEST(ActivationReplay, GeGLUBitwise) {
  for (float range : {4.0f, 40.0f}) {
    CheckGlu<float, false>(Glu::kGeGlu, 0.0f, range);
    CheckGlu<half, false>(Glu::kGeGlu, 0.0f, range);
  }
  CheckGlu<float, true>(Glu::kGeGlu, 0.0f, 8.0f);
  CheckGlu<half, true>(Glu::kGeGlu, 0.0f, 8.0f);
}

TEST(ActivationReplay, ReGluBitwise) {
  CheckGlu<float, false>(Glu::kReGlu, 0.0f, 100.0f);
  CheckGlu<half, false>(Glu::kReGlu, 0.0f, 300.0f);
  CheckGlu<bfloat16_t, false>(Glu::kReGlu, 0.0f, 1e20f);
  CheckGlu<float, true>(Glu::kReGlu, 0.0f, 10.0f);
  CheckGlu<half, true>(Glu::kReGlu, 0.0f, 10.0f);
  CheckGlu<bfloat16_t, true>(Glu::kReGlu, 0.0f, 10.0f);
}

TEST(ActivationReplay, SwiGLUBitwise) {
  for (float beta : {1.0f, 1.702f, -0.5f, 0.0f}) {
    CheckGlu<float, false>(Glu::kSwiGlu, beta, 16.0f);
    CheckGlu<half, false>(Glu::kSwiGlu, beta, 16.0f);
  }
  CheckGlu<float, true>(Glu::kSwiGlu, 1.0f, 16.0f);
  CheckGlu<half, true>(Glu::kSwiGlu, 1.0f, 16.0f);
}

// ---------------------------------------------------------------------------------------------
// Every half input (all 65536 patterns, in launches of kSlice): a rounding choice that differs
// from the replay's on a few inputs only (Exp rounded twice, a constant rounded differently)
// shows here.

void CheckAllHalves(const std::string& what, const UnaryCall& call, const UnaryReplay& replay) {
  for (uint32_t first = 0; first < 0x10000u; first += kSlice) {
    const std::vector<half> in = HalfSlice(first);
    const Io<half> io =
        RunKernel<half>(in, {}, kSlice, kTmpBytes[1],
                        [&](auto& d, auto& s0, auto&, auto& t) { call(d, s0, t, kSlice); });
    const std::vector<half> want =
        Replayed<half>(in, in, kSlice, [&](auto* a, auto*, auto* out) { replay(a, out, kSlice); });
    ExpectBits(io.dst, want, kSlice, what + " half inputs from 0x" + std::to_string(first));
  }
}

template <bool P, bool Q>
void CheckGeluAllHalves(rp::GeluForm form) {
  CheckAllHalves(
      "Gelu form " + std::to_string(static_cast<int>(form)) + " highPrecision " +
          std::to_string(P) + " highPerformance " + std::to_string(Q),
      [&](auto& d, auto& s, auto& t, uint32_t n) { CallGelu<half, P, Q>(form, d, s, t, n, true); },
      [&](auto* a, auto* out, uint32_t n) { rp::ReplayGelu(form, P, Q, a, out, n); });
}

TEST(ActivationReplay, GeluFamilyEveryHalf) {
  for (rp::GeluForm form :
       {rp::GeluForm::kGelu, rp::GeluForm::kFasterGelu, rp::GeluForm::kFasterGeluV2}) {
    CheckGeluAllHalves<false, false>(form);
    CheckGeluAllHalves<true, false>(form);
    CheckGeluAllHalves<false, true>(form);
    CheckGeluAllHalves<true, true>(form);
  }
}

TEST(ActivationReplay, SigmoidSwishSiluEveryHalf) {
  CheckAllHalves(
      "Sigmoid", [](auto& d, auto& s, auto& t, uint32_t n) { AscendC::Sigmoid(d, s, t, n); },
      [](auto* a, auto* out, uint32_t n) { rp::ReplaySigmoid(a, out, n); });
  CheckAllHalves(
      "Silu", [](auto& d, auto& s, auto&, uint32_t n) { AscendC::Silu(d, s, n); },
      [](auto* a, auto* out, uint32_t n) { rp::ReplaySilu(a, out, n); });
  for (float betaF : {1.702f, 0.3f}) {
    const half beta = Make<half>(betaF);
    rp::Half rbeta;
    std::memcpy(&rbeta, &beta, 2);
    CheckAllHalves(
        "Swish beta " + std::to_string(betaF),
        [&](auto& d, auto& s, auto&, uint32_t n) { AscendC::Swish(d, s, n, beta); },
        [&](auto* a, auto* out, uint32_t n) { rp::ReplaySwish(a, out, n, rbeta); });
  }
}

// The GLU family with every half as src1 (the gate), random src0.
TEST(ActivationReplay, GluEveryHalfGate) {
  for (Glu api : {Glu::kGeGlu, Glu::kReGlu, Glu::kSwiGlu}) {
    for (uint32_t first = 0; first < 0x10000u; first += kSlice) {
      const std::vector<half> in0 = Inputs<half>(first + 3, kSlice, 8.0f);
      const std::vector<half> in1 = HalfSlice(first);
      const Io<half> io = RunKernel<half>(
          in0, in1, kSlice, kTmpBytes[1], [&](auto& d, auto& s0, auto& s1, auto& t) {
            CallGlu<half, false>(api, 0, 1.5f, d, s0, s1, t, kSlice);
          });
      const std::vector<half> want = Replayed<half>(
          in0, in1, kSlice,
          [&](auto* a, auto* b, auto* out) { ReplayGlu<half>(api, 1.5f, a, b, out, kSlice); });
      ExpectBits(io.dst, want, kSlice,
                 "GLU " + std::to_string(static_cast<int>(api)) + " gates from 0x" +
                     std::to_string(first));
    }
  }
}

// Arch 2002 includes the same files (gelu_impl.h, sigmoid_impl.h, the 2201/2002 branch of Silu
// and Swish, geglu/swiglu_common_impl.h; ReGlu's reglu_v200_impl.h stores half with CAST_NONE,
// the same rounding): float and half on Ascend310P1 against the same replay.
TEST(ActivationReplay, Ascend310PTakesTheSameSequences) {
  g_soc = "Ascend310P1";
  for (rp::GeluForm form :
       {rp::GeluForm::kGelu, rp::GeluForm::kFasterGelu, rp::GeluForm::kFasterGeluV2}) {
    CheckGeluForm<float>(form, false);
    CheckGeluForm<half>(form, false);
  }
  CheckSigmoid<float, false>();
  CheckSigmoid<half, false>();
  CheckSwishSilu<float, false>(1.702f);
  CheckSwishSilu<half, false>(1.702f);
  for (Glu api : {Glu::kGeGlu, Glu::kReGlu, Glu::kSwiGlu}) {
    CheckGlu<float, false>(api, 1.0f, 16.0f);
    CheckGlu<half, false>(api, 1.0f, 16.0f);
  }
  g_soc = "Ascend910B1";
}

// ---------------------------------------------------------------------------------------------
// The replay's own conversions

// DoubleToHalf rounds once: every half is a fixed point, and the midpoints between neighbours go
// to the even one (just below / above them to the nearer one).
TEST(ActivationReplay, DoubleToHalfRoundsOnce) {
  for (uint32_t b = 0; b < 0x7C00u; ++b) {
    const rp::Half h{static_cast<uint16_t>(b)};
    const double v = rp::HalfToFloat(h);
    ASSERT_EQ(rp::DoubleToHalf(v).bits, b);
    ASSERT_EQ(rp::DoubleToHalf(-v).bits, b | 0x8000u);
    const double next = b + 1 == 0x7C00u ? 65536.0 : rp::HalfToFloat(rp::Half{uint16_t(b + 1)});
    const double mid = (v + next) / 2;
    ASSERT_EQ(rp::DoubleToHalf(mid).bits, (b & 1u) ? b + 1 : b) << b;
    ASSERT_EQ(rp::DoubleToHalf(std::nextafter(mid, 0.0)).bits, b) << b;
    ASSERT_EQ(rp::DoubleToHalf(std::nextafter(mid, 1e9)).bits, b + 1) << b;
  }
  EXPECT_EQ(rp::DoubleToHalf(1e300).bits, 0x7C00u);
  EXPECT_TRUE(std::isnan(rp::HalfToFloat(rp::DoubleToHalf(std::nan("")))));
}

// The constants of the half sequences written `const half c = <double>`: one rounding to half
// and a rounding through float give the same half, so the compiler's path does not matter.
TEST(ActivationReplay, HalfConstantsHaveOneRounding) {
  for (double c : {0.044715, 1.5957691216057308, -1.702, -0.1444, -1.769, 1.769, 0.7071, 0.5,
                   0.000000000001, -0.0713548162726, 2.2363860002236e1}) {
    EXPECT_EQ(rp::DoubleToHalf(c).bits, rp::FloatToHalf(static_cast<float>(c)).bits) << c;
  }
}

TEST(ActivationReplay, Bf16Conversions) {
  EXPECT_EQ(rp::FloatToBf16(1.0f).bits, 0x3F80u);
  EXPECT_EQ(rp::FloatToBf16(rp::FromBits(0x3F808000u)).bits, 0x3F80u);  // tie to even
  EXPECT_EQ(rp::FloatToBf16(rp::FromBits(0x3F818000u)).bits, 0x3F82u);  // tie to even, up
  EXPECT_EQ(rp::FloatToBf16(rp::FromBits(0x3F808001u)).bits, 0x3F81u);
  EXPECT_EQ(rp::FloatToBf16(rp::FromBits(0x7F7FFFFFu)).bits, 0x7F80u);  // overflow -> inf
  EXPECT_EQ(rp::Bf16ToFloat(rp::Bf16{0xC0E8u}), -7.25f);
}

// ReGlu on the 950 (reglu_3510_impl.h): the register Maxs keeps a NaN x1 (2201's vector Maxs
// gives 0) and a -0 x1; float and half, the specials against each other and random operands.
template <typename T>
void CheckReGluOn950() {
  const float sp[] = {0.0f,
                      -0.0f,
                      1.0f,
                      -1.0f,
                      2.5f,
                      -3.0f,
                      1e-40f,
                      -1e-40f,
                      std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity(),
                      std::numeric_limits<float>::quiet_NaN()};
  std::mt19937 gen(71);
  std::uniform_real_distribution<float> u(-50.0f, 50.0f);
  constexpr uint32_t kN = 1000;
  std::vector<T> a(kN), b(kN), want(kN), got;
  for (uint32_t i = 0; i < kN; ++i) {
    a[i] = T(i < 121 ? sp[i / 11] : u(gen));
    b[i] = T(i < 121 ? sp[i % 11] : u(gen));
    const float r = rp::ReplayReGlu3510(static_cast<float>(a[i]), static_cast<float>(b[i]));
    if constexpr (std::is_same_v<T, float>) {
      want[i] = r;
    } else {
      const uint16_t bits = rp::FloatToHalf(r).bits;
      std::memcpy(&want[i], &bits, 2);
    }
  }
  lngrad::aicore::test::OnBlock(
      [&](lngrad::aicore::test::Ub& ub) {
        ub.Put<T>(0, a);
        ub.Put<T>(1, b);
        AscendC::ReGlu<T>(ub.Get<T>(2), ub.Get<T>(0), ub.Get<T>(1), ub.Get<uint8_t>(3), kN);
        got = ub.Take<T>(2);
      },
      "Ascend950PR_9589");
  for (uint32_t i = 0; i < kN; ++i) {
    uint32_t g = 0, w = 0;
    std::memcpy(&g, &got[i], sizeof(T));
    std::memcpy(&w, &want[i], sizeof(T));
    const bool both_nan =
        std::isnan(static_cast<float>(got[i])) && std::isnan(static_cast<float>(want[i]));
    ASSERT_TRUE(g == w || both_nan) << "ReGlu 950 element " << i << ": " << static_cast<float>(a[i])
                                    << " * max(" << static_cast<float>(b[i]) << ", 0)";
  }
  EXPECT_TRUE(std::isnan(static_cast<float>(got[2 * 11 + 10])));  // 1 * max(NaN, 0)
}

TEST(ActivationReplay, ReGluOn950KeepsNaN) {
  CheckReGluOn950<float>();
  CheckReGluOn950<half>();
}

}  // namespace
