// What the math APIs leave in their scratch on arch 2201 (Ascend910B1) and 2002 (Ascend310P1)
// against the replay of the kit's loops (replay_math_scratch.h): the sharedTmpBuffer overloads
// and those that pop the stack buffer (the TPipe sized so that it leaves exactly the scratch's
// bytes), scratch sizes from the tiling minimum to one chunk for every count, counts 0, 1 and tails
// no multiple of the chunk or of a repeat, inputs with NaN, +-inf, +-0 and subnormals (every
// binary16 pattern for the half paths). The whole scratch is compared after the call (the bytes
// the kit's code does not write keep their 0xa5 fill; two NaNs match, as for dst), dst bit for
// bit with the elements past the count untouched, and the source unchanged (Exp<float> with
// isReuseSource: as the replay leaves it).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "math_scratch_sweep.h"
#include "replay_math_scratch.h"

namespace {

namespace rp = lngrad_replay;
namespace sw = lngrad_replay::scratch_sweep;
using AscendC::LocalTensor;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;
using sw::R;

// The specials of these APIs' float inputs (in [-12, 12)): +-0, +-inf, NaN, subnormals, 8.8
// and values past int32.
const std::vector<float> kSpecials = {0.0f,   -0.0f,   kInf, -kInf, kNan,
                                      1e-40f, -1e-40f, 8.8f, -3e9f, 3e9f};

// The sweep of math_scratch_sweep.h with these specials, then (half) every binary16 pattern.
template <class T>
void Sweep(const std::string& api, uint32_t min, const sw::Call<T>& call,
           const sw::ReplayFn<T>& replay) {
  sw::SweepAll(sw::UnaryCase<T>(api, min, call, replay, sw::MixedIn(-12.0f, 12.0f, kSpecials)));
}

// ---------------------------------------------------------------------------------------------

// The API's two overloads: (dst, src, tmp, count) or, `stack`, (dst, src, count).
#define LNGRAD_SCRATCH_CALL(Name)                                                                  \
  template <class T>                                                                               \
  void Call##Name(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t, \
                  uint32_t n, bool stack) {                                                        \
    stack ? AscendC::Name<T, false>(d, s, n) : AscendC::Name<T, false>(d, s, t, n);                \
  }
LNGRAD_SCRATCH_CALL(Tanh)
LNGRAD_SCRATCH_CALL(Log2)
LNGRAD_SCRATCH_CALL(Erf)
LNGRAD_SCRATCH_CALL(Erfc)
LNGRAD_SCRATCH_CALL(Sinh)
LNGRAD_SCRATCH_CALL(Cosh)
#undef LNGRAD_SCRATCH_CALL

TEST(MathScratch, Tanh) {
  Sweep<float>("Tanh", 256, CallTanh<float>,
               [](bool, auto... a) { return rp::ReplayTanhScratch(a...); });
  Sweep<half>("Tanh", 1024, CallTanh<half>,
              [](bool, auto... a) { return rp::ReplayTanhScratch(a...); });
}

// Log2<half> with its scratch (Log2<float>, Log and Log10 take none on these arches).
TEST(MathScratch, Log2Half) {
  Sweep<half>("Log2", 256, CallLog2<half>,
              [](bool, auto... a) { return rp::ReplayLog2HalfScratch(a...); });
}

// Exp<T, level, reuse> (level >= 1): levels 1, 3 and 10; float also with isReuseSource (the
// source then compared with the replay's, not unchanged).
template <class T, uint8_t L, bool kReuse>
void CallExp(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
             uint32_t n, bool stack) {
  stack ? AscendC::Exp<T, L, kReuse>(d, s, n) : AscendC::Exp<T, L, kReuse>(d, s, t, n);
}

template <class T, uint8_t L, bool kReuse>
void ExpCases() {
  const uint32_t min = sizeof(T) == 2 ? 1024 : (kReuse ? 512 : 768);
  Sweep<T>("Exp" + std::to_string(L) + (kReuse ? " reuse" : ""), min, CallExp<T, L, kReuse>,
           [](bool is2002, R<T>* src, R<T>* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
             if constexpr (sizeof(T) == 2) {
               return rp::ReplayExpScratch(L, is2002, src, dst, n, scratch, tmpBytes);
             } else {
               return rp::ReplayExpScratch(L, kReuse, is2002, src, dst, n, scratch, tmpBytes);
             }
           });
}

TEST(MathScratch, ExpFloat) {
  ExpCases<float, 1, false>();
  ExpCases<float, 3, false>();
  ExpCases<float, 10, false>();
  ExpCases<float, 10, true>();
  ExpCases<float, 2, true>();
}

TEST(MathScratch, ExpHalf) {
  ExpCases<half, 1, false>();
  ExpCases<half, 10, false>();
}

// Erf (ErfConfig default; off the 950 the 2201 sequence): half cast CAST_ROUND on 2201 only.
TEST(MathScratch, Erf) {
  Sweep<float>("Erf", 768, CallErf<float>,
               [](bool, auto... a) { return rp::ReplayErfScratch(a...); });
  Sweep<half>("Erf", 2048, CallErf<half>,
              [](bool is2002, auto... a) { return rp::ReplayErfScratch(a..., !is2002); });
}

TEST(MathScratch, Erfc) {
  Sweep<float>("Erfc", 1792, CallErfc<float>,
               [](bool, auto... a) { return rp::ReplayErfcScratch(a...); });
  Sweep<half>("Erfc", 4096, CallErfc<half>,
              [](bool is2002, auto... a) { return rp::ReplayErfcScratch(a..., !is2002); });
}

TEST(MathScratch, Sinh) {
  Sweep<float>("Sinh", 256, CallSinh<float>,
               [](bool, auto... a) { return rp::ReplaySinhScratch(a...); });
  Sweep<half>("Sinh", 1024, CallSinh<half>,
              [](bool, auto... a) { return rp::ReplaySinhScratch(a...); });
}

// Cosh: half cast CAST_ROUND on 2201 only.
TEST(MathScratch, Cosh) {
  Sweep<float>("Cosh", 512, CallCosh<float>,
               [](bool, auto... a) { return rp::ReplayCoshScratch(a...); });
  Sweep<half>("Cosh", 1536, CallCosh<half>,
              [](bool is2002, auto... a) { return rp::ReplayCoshScratch(a..., !is2002); });
}

// Erfc<half> on 2002 rounds its float result to nearest even (GetErfcCastType: CAST_ROUND on
// 2201 only): every binary16 input against the replay's float Erfc rounded so.
TEST(MathScratch, ErfcHalfOn2002CastsToNearestEven) {
  for (uint32_t start = 0; start < 65536; start += 8192) {
    const std::vector<half> in = sw::AllHalves(start, 8192);
    std::vector<half> got;
    lngrad_replay::test::OnBlock(
        [&](lngrad_replay::test::Ub& ub) {
          ub.Put<half>(0, in);
          AscendC::Erfc<half, false>(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(2), 8192);
          got = ub.Take<half>(1);
        },
        "Ascend310P1");
    std::vector<half> want(8192);
    for (uint32_t i = 0; i < 8192; ++i) {
      const float r =
          rp::ReplayMathFloat(rp::MathOp::kErfc, lngrad_replay::test::ReplayWiden(in[i]));
      want[i] = lngrad_replay::test::ReplayRound<half>(r);
    }
    lngrad_replay::test::ExpectBitsEqual(got.data(), want.data(), 8192, "Erfc<half> on 2002",
                                         in.data());
  }
}

}  // namespace
