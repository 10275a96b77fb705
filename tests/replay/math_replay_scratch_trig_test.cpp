// What Sin, Cos and Tan leave in their scratch, dst and source on arch 2201 (Ascend910B1) and
// 2002 (Ascend310P1) against the replay of the kit's loops (replay_math_scratch_trig.h), as
// math_scratch_sweep.h compares them: both overloads, float (Sin and Cos also with
// isReuseSource, the source then as the replay leaves it) and half.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_scratch_sweep.h"
#include "replay_math_scratch_trig.h"

namespace {

namespace rp = lngrad_replay;
namespace sw = lngrad_replay::scratch_sweep;
using AscendC::LocalTensor;

template <class T, bool kReuse, bool kCos>
void CallSinCos(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
                uint32_t n, bool stack) {
  if constexpr (kCos) {
    stack ? AscendC::Cos<T, kReuse>(d, s, n) : AscendC::Cos<T, kReuse>(d, s, t, n);
  } else {
    stack ? AscendC::Sin<T, kReuse>(d, s, n) : AscendC::Sin<T, kReuse>(d, s, t, n);
  }
}

// Sin or Cos on float without and with isReuseSource (minimum 768 and 512 bytes) and on half
// (2048 bytes).
template <bool kCos>
void SinCosCases(const char* api) {
  sw::Sweep<float>(
      api, 768, CallSinCos<float, false, kCos>,
      [](bool a2002, float* src, float* dst, uint32_t n, uint8_t* sc, uint32_t b) {
        return rp::ReplaySinCosScratch(kCos, false, a2002, src, dst, n, sc, b);
      },
      -100.0f, 100.0f);
  sw::Sweep<float>(
      std::string(api) + " reuse", 512, CallSinCos<float, true, kCos>,
      [](bool a2002, float* src, float* dst, uint32_t n, uint8_t* sc, uint32_t b) {
        return rp::ReplaySinCosScratch(kCos, true, a2002, src, dst, n, sc, b);
      },
      -100.0f, 100.0f);
  sw::Sweep<half>(
      api, 2048, CallSinCos<half, false, kCos>,
      [](bool a2002, rp::Half* src, rp::Half* dst, uint32_t n, uint8_t* sc, uint32_t b) {
        return rp::ReplaySinCosScratch(kCos, a2002, src, dst, n, sc, b);
      });
}

TEST(MathScratch, Sin) { SinCosCases<false>("Sin"); }

TEST(MathScratch, Cos) { SinCosCases<true>("Cos"); }

template <class T>
void CallTan(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
             uint32_t n, bool stack) {
  stack ? AscendC::Tan<T, false>(d, s, n) : AscendC::Tan<T, false>(d, s, t, n);
}

// Tan: minimum 1024 bytes (float), 2560 (half); the tail's temp tensors at its count rounded up
// to 32.
TEST(MathScratch, Tan) {
  sw::Sweep<float>(
      "Tan", 1024, CallTan<float>,
      [](bool a2002, float* src, float* dst, uint32_t n, uint8_t* sc, uint32_t b) {
        return rp::ReplayTanScratch(a2002, src, dst, n, sc, b);
      },
      -100.0f, 100.0f);
  sw::Sweep<half>("Tan", 2560, CallTan<half>,
                  [](bool a2002, rp::Half* src, rp::Half* dst, uint32_t n, uint8_t* sc,
                     uint32_t b) { return rp::ReplayTanScratch(a2002, src, dst, n, sc, b); });
}

// The 2002 files' casts (sin_v200_impl.h, cos_v200_impl.h, tan_v200_impl.h): k through int32,
// saturating past 2^31 (|x| beyond about 6.7e9, +-inf) and 0 for NaN, so Sin(+-inf) is +-inf on
// 2002 where 2201's Cast<float, float> keeps k infinite and gives NaN. Both socs against the
// replay, and Sin(+-inf) itself.
TEST(MathScratch, SinCosTanOn2002CastThroughInt32) {
  const float inf = lngrad_replay::test::kInf, nan = lngrad_replay::test::kNan;
  std::vector<float> in = {inf,    -inf,  nan,    1e10f, -1e10f, 7e9f,   -7e9f,   6.7e9f,
                           6.8e9f, 3e38f, -3e38f, 2.5f,  -0.0f,  1e-40f, 6.75e9f, -6.75e9f};
  const auto n = static_cast<uint32_t>(in.size());
  for (const char* soc : sw::kSocs) {
    sw::Compare<float>(soc, "Sin", in, n, 4096, false, CallSinCos<float, false, false>,
                       [](bool a2002, float* src, float* dst, uint32_t k, uint8_t* sc, uint32_t b) {
                         return rp::ReplaySinCosScratch(false, false, a2002, src, dst, k, sc, b);
                       });
    sw::Compare<float>(soc, "Cos", in, n, 4096, false, CallSinCos<float, false, true>,
                       [](bool a2002, float* src, float* dst, uint32_t k, uint8_t* sc, uint32_t b) {
                         return rp::ReplaySinCosScratch(true, false, a2002, src, dst, k, sc, b);
                       });
    sw::Compare<float>(soc, "Tan", in, n, 4096, false, CallTan<float>,
                       [](bool a2002, float* src, float* dst, uint32_t k, uint8_t* sc, uint32_t b) {
                         return rp::ReplayTanScratch(a2002, src, dst, k, sc, b);
                       });
    const sw::Got g =
        sw::RunKernel<float>(soc, in, n, 4096, false, CallSinCos<float, false, false>);
    float r[2];
    std::memcpy(r, g.dst.data(), sizeof(r));
    if (std::string(soc) == "Ascend310P1") {
      EXPECT_EQ(r[0], inf);
      EXPECT_EQ(r[1], -inf);
    } else {
      EXPECT_TRUE(std::isnan(r[0]) && std::isnan(r[1])) << r[0] << " " << r[1];
    }
  }
}

}  // namespace
