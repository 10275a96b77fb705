// What the rounding APIs (Ceil, Floor, Trunc, Round, Frac), Sign and ClampMin / ClampMax leave in
// their scratch and dst on arch 2201 (Ascend910B1) and 2002 (Ascend310P1), against the replay of
// the kit's loops (replay_math_scratch_rounding.h): the sharedTmpBuffer overloads and those that
// pop the stack buffer (the TPipe sized so that it leaves exactly the scratch's bytes), scratch
// sizes from the tiling minimum to one chunk for every count (and one no multiple of 32),
// counts 0, 1, tails no multiple of the chunk or of a repeat and a few thousand, inputs with
// NaN, +-inf, +-0, subnormals, ties and values past int32 (every binary16 pattern for half).
// The whole scratch is compared (the bytes the kit's code does not write keep their 0xa5
// fill; two NaNs match, as for dst), dst bit for bit with the elements past the count (the
// sentinel), and the source unchanged.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "math_scratch_sweep.h"
#include "replay_math_scratch_rounding.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace sw = lngrad_replay::scratch_sweep;
using AscendC::LocalTensor;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;
using sw::Call;
using sw::R;
using sw::ReplayFn;

constexpr uint32_t kPast = 128;  // dst and src elements past the count (a half repeat)

// The specials of the float inputs (in [-300, 300)): +-0, +-inf, NaN, subnormals, ties and
// values past int32.
const std::vector<float> kSpecials = {
    0.0f, -0.0f, kInf, -kInf, kNan,          1e-40f,         -1e-40f, 2.5f,   -2.5f,
    0.5f, -0.5f, 3e9f, -3e9f, 2147483520.0f, -2147483648.0f, 1.5e38f, -7.25f, -0.25f};

// The sweep of math_scratch_sweep.h (min2002: the minimum there) with kPast source and dst
// elements past the count; then every binary16 pattern.
template <class T>
void Sweep(const std::string& api, uint32_t min, uint32_t min2002, const Call<T>& call,
           const ReplayFn<T>& replay) {
  sw::Case<T> c =
      sw::UnaryCase<T>(api, min, call, replay, sw::MixedIn(-300.0f, 300.0f, kSpecials), kPast);
  c.min2002 = min2002;
  c.dstPast = kPast;
  sw::SweepAll(c);
}

// ---------------------------------------------------------------------------------------------

#define ROUNDING_CALL(Name)                                                                        \
  template <class T>                                                                               \
  void Call##Name(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t, \
                  uint32_t n, bool stack) {                                                        \
    stack ? AscendC::Name<T, false>(d, s, n) : AscendC::Name<T, false>(d, s, t, n);                \
  }
ROUNDING_CALL(Ceil)
ROUNDING_CALL(Floor)
ROUNDING_CALL(Trunc)
ROUNDING_CALL(Round)
ROUNDING_CALL(Frac)
#undef ROUNDING_CALL

template <class T>
ReplayFn<T> RoundingReplay(rp::RoundingOp op) {
  return [op](bool arch2002, const R<T>* src, R<T>* dst, uint32_t n, uint8_t* scratch,
              uint32_t tmpBytes) {
    return rp::ReplayRoundingScratch(op, arch2002, src, dst, n, scratch, tmpBytes);
  };
}

// The GetXxxMaxMinTmpSize minimums (float 32 bytes where the minimum is 0: the sweep needs a
// buffer; the float paths that take none are then checked to leave it alone).
TEST(MathScratchRounding, Ceil) {
  Sweep<float>("Ceil", 256, 256, CallCeil<float>, RoundingReplay<float>(rp::RoundingOp::kCeil));
  Sweep<half>("Ceil", 512, 512, CallCeil<half>, RoundingReplay<half>(rp::RoundingOp::kCeil));
}

TEST(MathScratchRounding, Floor) {
  Sweep<float>("Floor", 32, 32, CallFloor<float>, RoundingReplay<float>(rp::RoundingOp::kFloor));
  Sweep<half>("Floor", 512, 512, CallFloor<half>, RoundingReplay<half>(rp::RoundingOp::kFloor));
}

TEST(MathScratchRounding, Trunc) {
  Sweep<float>("Trunc", 256, 256, CallTrunc<float>, RoundingReplay<float>(rp::RoundingOp::kTrunc));
  Sweep<half>("Trunc", 512, 512, CallTrunc<half>, RoundingReplay<half>(rp::RoundingOp::kTrunc));
}

TEST(MathScratchRounding, Round) {
  Sweep<float>("Round", 32, 256, CallRound<float>, RoundingReplay<float>(rp::RoundingOp::kRound));
  Sweep<half>("Round", 256, 512, CallRound<half>, RoundingReplay<half>(rp::RoundingOp::kRound));
}

TEST(MathScratchRounding, Frac) {
  Sweep<float>("Frac", 32, 32, CallFrac<float>, RoundingReplay<float>(rp::RoundingOp::kFrac));
  Sweep<half>("Frac", 1024, 1024, CallFrac<half>, RoundingReplay<half>(rp::RoundingOp::kFrac));
}

// ClampMin / ClampMax with a scalar in the sources' range, then +-0 and NaN as the scalar.
template <class T, bool kMax>
void ClampCases() {
  const float scalars[] = {-3.5f, 0.0f, -0.0f, kNan, 100.0f};
  for (const float sf : scalars) {
    const T scalar = T(sf);
    const Call<T> call = [scalar](const LocalTensor<T>& d, const LocalTensor<T>& s,
                                  const LocalTensor<uint8_t>& t, uint32_t n, bool stack) {
      if constexpr (kMax) {
        stack ? AscendC::ClampMax<T, false>(d, s, scalar, n)
              : AscendC::ClampMax<T, false>(d, s, t, scalar, n);
      } else {
        stack ? AscendC::ClampMin<T, false>(d, s, scalar, n)
              : AscendC::ClampMin<T, false>(d, s, t, scalar, n);
      }
    };
    const ReplayFn<T> replay = [scalar](bool, const R<T>* src, R<T>* dst, uint32_t n, uint8_t*,
                                        uint32_t) {
      R<T> rs;
      std::memcpy(&rs, &scalar, sizeof(T));
      rp::ReplayClampScratch(kMax, src, dst, rs, n);
      return true;
    };
    const uint32_t min = sizeof(T) == 4 ? 64 : 128;
    Sweep<T>(kMax ? "ClampMax" : "ClampMin", min, min, call, replay);
  }
}

TEST(MathScratchRounding, ClampMinMax) {
  ClampCases<float, false>();
  ClampCases<float, true>();
  ClampCases<half, false>();
  ClampCases<half, true>();
}

// Sign: the Compares' lanes past the count read the source's and dst's padding (kPast).
template <class T>
void CallSign(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
              uint32_t n, bool stack) {
  stack ? AscendC::Sign<T, false>(d, s, n) : AscendC::Sign<T, false>(d, s, t, n);
}

TEST(MathScratchRounding, Sign) {
  const auto replay = [](bool, const auto* src, auto* dst, uint32_t n, uint8_t* scratch,
                         uint32_t tmpBytes) {
    return rp::ReplaySignScratch(src, dst, n, scratch, tmpBytes);
  };
  Sweep<float>("Sign", 768, 768, CallSign<float>, replay);
  Sweep<half>("Sign", 768, 768, CallSign<half>, replay);
}

}  // namespace
