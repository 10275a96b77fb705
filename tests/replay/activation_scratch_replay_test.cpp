// The scratch of lngrad's element-wise activations on arch 2201 (Ascend910B1) and 2002
// (Ascend310P1) against the replay of the kit's loops (replay_activation.h, Replay*Scratch):
// Gelu, FasterGelu, FasterGeluV2 (all four highPrecision/highPerformance configurations, in place
// too), Sigmoid, GeGLU, ReGlu (bfloat16 on 2201) and SwiGLU, half and float, the sharedTmpBuffer
// overloads and those that pop the stack buffer (the TPipe sized so that it leaves the scratch's
// bytes), scratch sizes from the tiling minimum to one chunk for every count, counts whose tails
// are no multiple of the chunk or of a repeat. The whole scratch is compared byte for byte after
// the call (the bytes the loops leave unwritten keep their 0xa5 fill), dst bit for bit with the
// elements past the count untouched, and the sources unchanged. Swish and Silu take no scratch
// on these arches (they compute in dst): their stack buffer must stay untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "scratch_test_util.h"
#include "activation_replay_test_util.h"
#include "replay_activation.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using namespace activation_replay_test;  // NOLINT(google-build-using-namespace)

constexpr uint8_t kFill = 0xa5;  // the scratch's bytes before the call
constexpr uint32_t kPast = 40;   // dst elements past the count (the sentinel)

const char* const kSocs[] = {"Ascend910B1", "Ascend310P1"};

using lngrad_replay::scratch_test::Aligned32;

// What the call is given: dst, src0, src1 (src1 empty for a unary API: unused), the scratch
// (sharedTmpBuffer, or the stack buffer the overload without it pops) and the count.
template <class T>
using Call = std::function<void(LocalTensor<T>& dst, LocalTensor<T>& src0, LocalTensor<T>& src1,
                                const LocalTensor<uint8_t>& tmp, uint32_t count)>;

template <class T>
struct Result {
  std::vector<T> dst, src0, src1;
  std::vector<uint8_t> tmp;
  bool ran = false;
};

// One block of `soc`: the sources, dst (count + kPast elements, the sentinel; or src0 itself
// when inPlace) and a scratch of tmpBytes filled with kFill: a TBuf (stack false) or the stack
// buffer, with a filler buffer so that exactly tmpBytes are left to it.
template <class T>
Result<T> RunKernel(const char* soc, const std::vector<T>& in0, const std::vector<T>& in1,
                    uint32_t count, uint32_t tmpBytes, bool stack, bool inPlace,
                    const Call<T>& call) {
  Result<T> res;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  opts.sequential = true;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> b0, b1, bd, bt, filler;
    const auto n0 = std::max<uint32_t>(static_cast<uint32_t>(in0.size()), 1);
    const auto n1 = std::max<uint32_t>(static_cast<uint32_t>(in1.size()), 1);
    const uint32_t nd = count + kPast;
    pipe.InitBuffer(b0, Aligned32(n0 * sizeof(T)));
    pipe.InitBuffer(b1, Aligned32(n1 * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(nd * sizeof(T)));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<T> s0 = b0.Get<T>(n0), s1 = b1.Get<T>(n1), d = bd.Get<T>(nd);
    std::copy(in0.begin(), in0.end(), s0.HostPtr());
    std::copy(in1.begin(), in1.end(), s1.HostPtr());
    std::fill(d.HostPtr(), d.HostPtr() + nd, Sentinel<T>());
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    LocalTensor<T>& out = inPlace ? s0 : d;
    call(out, s0, s1, tmp, count);
    res.dst.assign(out.HostPtr(), out.HostPtr() + (inPlace ? in0.size() : nd));
    res.src0.assign(s0.HostPtr(), s0.HostPtr() + in0.size());
    res.src1.assign(s1.HostPtr(), s1.HostPtr() + in1.size());
    // The stack buffer popped again: the same bytes the call's PopStackBuffer gave it.
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    res.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
    res.ran = true;
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return res;
}

// The replay's side: dst (the sentinel past the count; src0's copy when in place) and the
// scratch image, filled as the kernel's.
template <class T>
struct Want {
  std::vector<T> dst;
  std::vector<uint8_t> tmp;
  bool ok = false;
};

template <class T>
using ReplayFn = std::function<bool(const R<T>* src0, const R<T>* src1, R<T>* dst, uint32_t count,
                                    uint8_t* tmp, uint32_t tmpBytes)>;

template <class T>
Want<T> Replayed(const std::vector<T>& in0, const std::vector<T>& in1, uint32_t count,
                 uint32_t tmpBytes, bool inPlace, const ReplayFn<T>& replay) {
  Want<T> w;
  w.dst = inPlace ? in0 : std::vector<T>(count + kPast, Sentinel<T>());
  w.tmp.assign(tmpBytes, kFill);
  const auto* s0 = reinterpret_cast<const R<T>*>(inPlace ? w.dst.data() : in0.data());
  const auto* s1 = reinterpret_cast<const R<T>*>(in1.empty() ? nullptr : in1.data());
  w.ok = replay(s0, s1, reinterpret_cast<R<T>*>(w.dst.data()), count, w.tmp.data(), tmpBytes);
  return w;
}

// The scratch read as elements of elemBytes (4: float, 2: half), compared bit for bit except
// that any NaN equals any NaN (payloads are not promised, as for dst); kFill's bytes are no NaN
// of either type, so a byte left unwritten still has to match exactly. Bytes past the last whole
// element compare as bytes.
void ExpectScratch(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                   uint32_t elemBytes, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const auto isNan = [elemBytes](const uint8_t* p) {
    if (elemBytes == 2) {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return (b & 0x7FFFu) > 0x7C00u;
    }
    uint32_t b;
    std::memcpy(&b, p, 4);
    return (b & 0x7FFFFFFFu) > 0x7F800000u;
  };
  const size_t whole = got.size() / elemBytes * elemBytes;
  for (size_t i = 0; i < got.size(); i += (i < whole ? elemBytes : 1)) {
    const size_t len = i < whole ? elemBytes : 1;
    if (std::memcmp(&got[i], &want[i], len) == 0) continue;
    if (len == elemBytes && isNan(&got[i]) && isNan(&want[i])) continue;
    ADD_FAILURE() << what << ": scratch bytes " << i << ".." << i + len - 1 << " of " << got.size()
                  << " differ, first: lngrad 0x" << std::hex << int{got[i]} << ", replay 0x"
                  << int{want[i]};
    return;
  }
}

template <class T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, half>) return "half";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
  return "float";
}

// One comparison: lngrad's kernel against the replay on the same inputs and scratch size.
template <class T>
void Compare(const char* soc, const std::string& api, const std::vector<T>& in0,
             const std::vector<T>& in1, uint32_t count, uint32_t tmpBytes, bool stack, bool inPlace,
             uint32_t elemBytes, const Call<T>& call, const ReplayFn<T>& replay) {
  const std::string what = api + "<" + TypeName<T>() + "> on " + soc + ", count " +
                           std::to_string(count) + ", scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack buffer)" : " (sharedTmpBuffer)") +
                           (inPlace ? ", in place" : "");
  const Want<T> want = Replayed(in0, in1, count, tmpBytes, inPlace, replay);
  ASSERT_TRUE(want.ok) << what << ": the replay refused the scratch size";
  const Result<T> got = RunKernel(soc, in0, in1, count, tmpBytes, stack, inPlace, call);
  ASSERT_TRUE(got.ran) << what;
  if (inPlace) {
    ExpectBits(got.dst, want.dst, static_cast<uint32_t>(want.dst.size()), what + " dst");
  } else {
    ExpectBits(got.dst, want.dst, count, what + " dst");
    // (memcmp of an empty vector's null data() is undefined)
    EXPECT_TRUE(in0.empty() ||
                std::memcmp(got.src0.data(), in0.data(), in0.size() * sizeof(T)) == 0)
        << what << ": src0 changed";
  }
  EXPECT_TRUE(in1.empty() || std::memcmp(got.src1.data(), in1.data(), in1.size() * sizeof(T)) == 0)
      << what << ": src1 changed";
  ExpectScratch(got.tmp, want.tmp, elemBytes, what);
}

// Counts: none, one, below a repeat, tails that are no multiple of 8, 16, 32 or a chunk.
const std::vector<uint32_t> kCounts = {0, 1, 37, 100, 257, 1000, 1537, 2049, 4099};

// Scratch sizes from the API's minimum: the minimum, one block more, six blocks more (chunks
// that a rounding to 16 elements instead of 32 would change), an odd multiple plus odd blocks,
// five times plus five blocks, a size that is no multiple of 32 (sharedTmpBuffer only) and one
// chunk for every count.
std::vector<uint32_t> Sizes(uint32_t min, bool stack) {
  std::vector<uint32_t> v = {min, min + 32, min + 192, 3 * min + 96, 5 * min + 160, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Gelu family

template <class T, bool P, bool Q>
void CallGelu(rp::GeluForm f, LocalTensor<T>& d, LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
              uint32_t n, bool stack) {
  using AscendC::FasterGelu;
  using AscendC::FasterGeluV2;
  using AscendC::Gelu;
  if (f == rp::GeluForm::kGelu) stack ? Gelu<T, P, Q>(d, s, n) : Gelu<T, P, Q>(d, s, t, n);
  if (f == rp::GeluForm::kFasterGelu) {
    stack ? FasterGelu<T, P, Q>(d, s, n) : FasterGelu<T, P, Q>(d, s, t, n);
  }
  if (f == rp::GeluForm::kFasterGeluV2) {
    stack ? FasterGeluV2<T, P, Q>(d, s, n) : FasterGeluV2<T, P, Q>(d, s, t, n);
  }
}

template <class T, bool P, bool Q>
void GeluCase(const char* soc, rp::GeluForm form, const std::vector<T>& in, uint32_t count,
              uint32_t tmpBytes, bool stack, bool inPlace) {
  static const char* const kNames[] = {"Gelu", "FasterGelu", "FasterGeluV2"};
  const std::string api = std::string(kNames[static_cast<int>(form)]) +
                          (P ? " highPrecision" : "") + (Q ? " highPerformance" : "");
  const Call<T> call = [form, stack](LocalTensor<T>& d, LocalTensor<T>& s0, LocalTensor<T>&,
                                     const LocalTensor<uint8_t>& t,
                                     uint32_t n) { CallGelu<T, P, Q>(form, d, s0, t, n, stack); };
  const ReplayFn<T> replay = [form](const R<T>* s0, const R<T>*, R<T>* d, uint32_t n, uint8_t* t,
                                    uint32_t b) {
    return rp::ReplayGeluScratch(form, P, Q, s0, d, n, t, b);
  };
  const uint32_t elem = P ? 4 : sizeof(T);  // highPrecision half: float temp tensors
  Compare<T>(soc, api, in, {}, count, tmpBytes, stack, inPlace, elem, call, replay);
}

template <class T>
void GeluAllConfigs(const char* soc, rp::GeluForm form, const std::vector<T>& in, uint32_t count,
                    uint32_t tmpBytes, bool stack, bool inPlace) {
  GeluCase<T, false, false>(soc, form, in, count, tmpBytes, stack, inPlace);
  GeluCase<T, false, true>(soc, form, in, count, tmpBytes, stack, inPlace);
  GeluCase<T, true, false>(soc, form, in, count, tmpBytes, stack, inPlace);
  GeluCase<T, true, true>(soc, form, in, count, tmpBytes, stack, inPlace);
}

template <class T>
void GeluFamilySweep(const char* soc, bool stack) {
  for (const rp::GeluForm form :
       {rp::GeluForm::kGelu, rp::GeluForm::kFasterGelu, rp::GeluForm::kFasterGeluV2}) {
    for (const uint32_t bytes : Sizes(768, stack)) {
      for (const uint32_t count : kCounts) {
        const std::vector<T> in = Inputs<T>(count + bytes, count, 12.0f);
        GeluAllConfigs<T>(soc, form, in, count, bytes, stack, false);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(ActivationScratchReplay, GeluFamilySharedTmpBuffer) {
  for (const char* soc : kSocs) {
    GeluFamilySweep<float>(soc, false);
    GeluFamilySweep<half>(soc, false);
  }
}

TEST(ActivationScratchReplay, GeluFamilyStackBuffer) {
  for (const char* soc : kSocs) {
    GeluFamilySweep<float>(soc, true);
    GeluFamilySweep<half>(soc, true);
  }
}

TEST(ActivationScratchReplay, GeluFamilyInPlace) {
  for (const rp::GeluForm form :
       {rp::GeluForm::kGelu, rp::GeluForm::kFasterGelu, rp::GeluForm::kFasterGeluV2}) {
    for (const uint32_t count : {257u, 2049u}) {
      GeluAllConfigs<float>("Ascend910B1", form, Inputs<float>(count, count, 12.0f), count, 800,
                            false, true);
      GeluAllConfigs<half>("Ascend910B1", form, Inputs<half>(count, count, 12.0f), count, 800,
                           false, true);
    }
  }
}

// Every half input in one chunk, so the scratch holds every element's temp values.
TEST(ActivationScratchReplay, GeluFamilyEveryHalf) {
  for (const rp::GeluForm form :
       {rp::GeluForm::kGelu, rp::GeluForm::kFasterGelu, rp::GeluForm::kFasterGeluV2}) {
    for (uint32_t first = 0; first < 65536; first += kSlice) {
      SCOPED_TRACE("halves from " + std::to_string(first));
      const std::vector<half> in = HalfSlice(first);
      GeluAllConfigs<half>("Ascend910B1", form, in, kSlice, 4 * 4 * kSlice, false, false);
      if (HasFatalFailure()) return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sigmoid; Swish and Silu (no scratch)

template <class T>
void SigmoidSweep(const char* soc, bool stack) {
  const Call<T> call = [stack](LocalTensor<T>& d, LocalTensor<T>& s0, LocalTensor<T>&,
                               const LocalTensor<uint8_t>& t, uint32_t n) {
    stack ? AscendC::Sigmoid<T>(d, s0, n) : AscendC::Sigmoid<T>(d, s0, t, n);
  };
  const ReplayFn<T> replay = [](const R<T>* s0, const R<T>*, R<T>* d, uint32_t n, uint8_t* t,
                                uint32_t b) { return rp::ReplaySigmoidScratch(s0, d, n, t, b); };
  for (const uint32_t bytes : Sizes(256, stack)) {
    for (const uint32_t count : kCounts) {
      Compare<T>(soc, "Sigmoid", Inputs<T>(count + bytes, count, 30.0f), {}, count, bytes, stack,
                 false, sizeof(T), call, replay);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(ActivationScratchReplay, Sigmoid) {
  for (const char* soc : kSocs) {
    for (const bool stack : {false, true}) {
      SigmoidSweep<float>(soc, stack);
      SigmoidSweep<half>(soc, stack);
    }
  }
}

// Swish and Silu compute in dst on 2201/2002 and take no scratch: the stack buffer (what a
// kernel would pass to another API) keeps its bytes.
template <class T>
void SwishSiluKeepStack(const char* soc) {
  const ReplayFn<T> silu = [](const R<T>* s0, const R<T>*, R<T>* d, uint32_t n, uint8_t*,
                              uint32_t) {
    rp::ReplaySilu(s0, d, n);
    return true;
  };
  const T beta = Make<T>(1.5f);
  R<T> rbeta;
  std::memcpy(&rbeta, &beta, sizeof(T));
  const ReplayFn<T> swish = [rbeta](const R<T>* s0, const R<T>*, R<T>* d, uint32_t n, uint8_t*,
                                    uint32_t) {
    rp::ReplaySwish(s0, d, n, rbeta);
    return true;
  };
  for (const uint32_t count : kCounts) {
    const std::vector<T> in = Inputs<T>(count, count, 30.0f);
    Compare<T>(
        soc, "Silu", in, {}, count, 4096, true, false, 4,
        [](LocalTensor<T>& d, LocalTensor<T>& s0, LocalTensor<T>&, const LocalTensor<uint8_t>&,
           uint32_t n) { AscendC::Silu<T>(d, s0, n); },
        silu);
    Compare<T>(
        soc, "Swish", in, {}, count, 4096, true, false, 4,
        [beta](LocalTensor<T>& d, LocalTensor<T>& s0, LocalTensor<T>&, const LocalTensor<uint8_t>&,
               uint32_t n) { AscendC::Swish<T>(d, s0, n, beta); },
        swish);
  }
}

TEST(ActivationScratchReplay, SwishSiluTakeNoScratch) {
  for (const char* soc : kSocs) {
    SwishSiluKeepStack<float>(soc);
    SwishSiluKeepStack<half>(soc);
  }
}

// ---------------------------------------------------------------------------------------------
// GeGLU, ReGlu, SwiGLU

enum class Glu { kGeGLU, kReGlu, kSwiGLU };

constexpr float kBeta = 1.25f;

template <class T>
Call<T> GluCall(Glu g, bool stack) {
  return [g, stack](LocalTensor<T>& d, LocalTensor<T>& s0, LocalTensor<T>& s1,
                    const LocalTensor<uint8_t>& t, uint32_t n) {
    if constexpr (!std::is_same_v<T, bfloat16_t>) {
      if (g == Glu::kGeGLU) {
        stack ? AscendC::GeGLU<T>(d, s0, s1, n) : AscendC::GeGLU<T>(d, s0, s1, t, n);
      }
      if (g == Glu::kSwiGLU) {
        stack ? AscendC::SwiGLU<T>(d, s0, s1, kBeta, n)
              : AscendC::SwiGLU<T>(d, s0, s1, kBeta, t, n);
      }
    }
    if (g == Glu::kReGlu) {
      stack ? AscendC::ReGlu<T>(d, s0, s1, n) : AscendC::ReGlu<T>(d, s0, s1, t, n);
    }
  };
}

template <class T>
ReplayFn<T> GluReplay(Glu g) {
  return [g](const R<T>* s0, const R<T>* s1, R<T>* d, uint32_t n, uint8_t* t, uint32_t b) {
    (void)g;  // bfloat16: ReGlu only
    if constexpr (!std::is_same_v<T, bfloat16_t>) {
      if (g == Glu::kGeGLU) return rp::ReplayGeGLUScratch(s0, s1, d, n, t, b);
      if (g == Glu::kSwiGLU) return rp::ReplaySwiGLUScratch(s0, s1, d, n, kBeta, t, b);
    }
    return rp::ReplayReGluScratch(s0, s1, d, n, t, b);
  };
}

// The GetXxxMaxMinTmpSize minimum on 2201 (float GeGLU and SwiGLU: none, given 256 here).
template <class T>
uint32_t GluMin(Glu g) {
  if (sizeof(T) == 4) return 256;
  return g == Glu::kGeGLU ? 1024 : 1536;
}

template <class T>
void GluSweep(const char* soc, Glu g, bool stack) {
  static const char* const kNames[] = {"GeGLU", "ReGlu", "SwiGLU"};
  for (const uint32_t bytes : Sizes(GluMin<T>(g), stack)) {
    for (const uint32_t count : kCounts) {
      const std::vector<T> in0 = Inputs<T>(count + bytes, count, 8.0f);
      const std::vector<T> in1 = Inputs<T>(count + bytes + 7, count, 12.0f);
      Compare<T>(soc, kNames[static_cast<int>(g)], in0, in1, count, bytes, stack, false, 4,
                 GluCall<T>(g, stack), GluReplay<T>(g));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(ActivationScratchReplay, GeGLUAndSwiGLU) {
  for (const char* soc : kSocs) {
    for (const bool stack : {false, true}) {
      for (const Glu g : {Glu::kGeGLU, Glu::kSwiGLU}) {
        GluSweep<float>(soc, g, stack);
        GluSweep<half>(soc, g, stack);
      }
    }
  }
}

TEST(ActivationScratchReplay, ReGlu) {
  for (const char* soc : kSocs) {
    for (const bool stack : {false, true}) {
      GluSweep<float>(soc, Glu::kReGlu, stack);
      GluSweep<half>(soc, Glu::kReGlu, stack);
    }
  }
  for (const bool stack : {false, true}) GluSweep<bfloat16_t>("Ascend910B1", Glu::kReGlu, stack);
}

// Every half as the gate in one chunk: the float buffers hold every element's values.
TEST(ActivationScratchReplay, GluEveryHalfGate) {
  for (const Glu g : {Glu::kGeGLU, Glu::kReGlu, Glu::kSwiGLU}) {
    for (uint32_t first = 0; first < 65536; first += kSlice) {
      SCOPED_TRACE("gates from " + std::to_string(first));
      const std::vector<half> gate = HalfSlice(first);
      const std::vector<half> x0 = Inputs<half>(first, kSlice, 4.0f);
      Compare<half>("Ascend910B1", "GLU every half", x0, gate, kSlice, 3 * 4 * kSlice + 1024, false,
                    false, 4, GluCall<half>(g, false), GluReplay<half>(g));
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
