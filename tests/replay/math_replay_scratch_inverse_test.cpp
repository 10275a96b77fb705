// What Atan, Asin, Acos, Acosh, Asinh and Atanh leave in their scratch on arch 2201
// (Ascend910B1) and 2002 (Ascend310P1, the same kit file) against the replay of the kit's loops
// (replay_math_scratch_inverse.h): the sharedTmpBuffer overloads and those that pop the stack
// buffer (the TPipe sized so that it leaves exactly the scratch's bytes), scratch sizes from the
// tiling minimum to one chunk for every count, a size that is no multiple of 32, counts 0, 1 and
// tails that are no multiple of the chunk or of a repeat, inputs with NaN, +-inf, +-0,
// subnormals and values past the clips (every binary16 pattern on both arches for the half
// paths). The whole scratch is compared after the call (the bytes the kit's code does not write
// keep their 0xa5 fill; two NaNs match, as for dst; Asin's and Acos's half tensors as halves),
// dst bit for bit with the 40 elements past the count untouched, and the source unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "math_scratch_sweep.h"
#include "replay_math_scratch_inverse.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace sw = lngrad_replay::scratch_sweep;
using AscendC::LocalTensor;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;
using sw::R;

// The specials of these APIs' float inputs: +-0, +-inf, NaN, subnormals, +-1 and values past
// the clips.
const std::vector<float> kSpecials = {0.0f, -0.0f, kInf,  -kInf, kNan,    1e-40f, -1e-40f,
                                      1.0f, -1.0f, -3e9f, 3e9f,  12000.f, 1e20f,  -3.4e38f};

// The sweep of math_scratch_sweep.h (float inputs Mixed over [lo, hi) with these specials),
// then (half) every binary16 pattern on both socs; halvesFrom(bytes): where the scratch holds
// half elements from (bytes: nowhere).
template <class T>
void Sweep(sw::Case<T> c, float lo, float hi,
           const std::function<uint32_t(uint32_t)>& halvesFrom = nullptr) {
  c.make = sw::UnarySources<T>(sw::MixedIn(lo, hi, kSpecials));
  if (halvesFrom) {
    c.check = [halvesFrom](const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                           const std::string& what) {
      const auto bytes = static_cast<uint32_t>(got.size());
      const uint32_t halves = std::min(halvesFrom(bytes), bytes);
      sw::ExpectWords<float>(got, want, what, 0, halves);
      sw::ExpectWords<half>(got, want, what + " (half tensors)", halves);
    };
  }
  sw::SweepAll(c);
}

#define LNGRAD_SCRATCH_CALL(Name)                                                                  \
  template <class T>                                                                               \
  void Call##Name(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t, \
                  uint32_t n, bool stack) {                                                        \
    stack ? AscendC::Name<T, false>(d, s, n) : AscendC::Name<T, false>(d, s, t, n);                \
  }                                                                                                \
  template <class T>                                                                               \
  sw::Case<T> Name##Case(uint32_t min) {                                                           \
    return sw::UnaryCase<T>(#Name, min, Call##Name<T>,                                             \
                            [](bool, R<T>* src, R<T>* dst, uint32_t n, uint8_t* sc, uint32_t b) {  \
                              return rp::Replay##Name##Scratch(src, dst, n, sc, b);                \
                            });                                                                    \
  }

LNGRAD_SCRATCH_CALL(Atan)
LNGRAD_SCRATCH_CALL(Asin)
LNGRAD_SCRATCH_CALL(Acos)
LNGRAD_SCRATCH_CALL(Acosh)
LNGRAD_SCRATCH_CALL(Asinh)
LNGRAD_SCRATCH_CALL(Atanh)
#undef LNGRAD_SCRATCH_CALL

TEST(MathScratchInverse, Atan) {
  Sweep(AtanCase<float>(1280), -12.0f, 12.0f);
  Sweep(AtanCase<half>(3072), 0, 0);
}

// Asin and Acos: half keeps two half tensors after its two float ones (4 calSize halves on).
uint32_t AsinHalvesFrom(uint32_t bytes) { return bytes / 2 / 6 / 32 * 32 * 8; }

TEST(MathScratchInverse, Asin) {
  Sweep(AsinCase<float>(512), -1.25f, 1.25f);
  Sweep(AsinCase<half>(1536), 0, 0, AsinHalvesFrom);
}

TEST(MathScratchInverse, Acos) {
  Sweep(AcosCase<float>(512), -1.25f, 1.25f);
  Sweep(AcosCase<half>(1536), 0, 0, AsinHalvesFrom);
}

TEST(MathScratchInverse, Acosh) {
  Sweep(AcoshCase<float>(256), 0.5f, 40.0f);
  Sweep(AcoshCase<half>(512), 0, 0);
}

TEST(MathScratchInverse, Asinh) {
  Sweep(AsinhCase<float>(768), -40.0f, 40.0f);
  Sweep(AsinhCase<half>(768), 0, 0);
}

TEST(MathScratchInverse, Atanh) {
  Sweep(AtanhCase<float>(256), -1.25f, 1.25f);
  Sweep(AtanhCase<half>(1024), 0, 0);
}

}  // namespace
