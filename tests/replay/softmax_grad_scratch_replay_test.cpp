// SoftmaxGrad (isFront false/true) and SoftmaxGradFront (not isBasicBlock), ND, half and float, on
// Ascend910B1 (2201) and Ascend310P1 (2002): the whole work buffer after the call against the
// replay of the kit's sequence (replay_softmax_grad_scratch.h), byte for byte, for the
// sharedTmpBuffer overloads and those that pop the stack buffer (a filler leaves it exactly the
// scratch's bytes): scratch sizes from the one-row minimum (one not a multiple of 32) to the whole
// maximum, the shape's host tiling and another shape's (the kernel's re-tile), tails of rows
// (tailM) and of columns (oriK % 64), rows past 255. dst bit for bit with 40 elements past it left
// alone, the sources unchanged. Two NaNs match (payloads are not promised), every other value bit
// for bit. The buffer starts as random bytes: a tail split reads the earlier split's sums, and a
// split without a whole 64-column chunk copies rows * 8 floats of which only `rows` were written.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_softmax_grad_scratch.h"
#include "softmax_grad_sweep.h"
#include "tiling/tiling_api.h"

namespace {

namespace rp = lngrad_replay;
namespace gs = lngrad_replay::softmax_grad_sweep;
using AscendC::LocalTensor;
using gs::Case;

constexpr uint32_t kPast = 40;  // dst elements past the output (the sentinel)
constexpr const char* k910B = "Ascend910B1";
constexpr const char* k310P = "Ascend310P1";

template <class T>
void Check(const char* soc, const Case& c, uint32_t seed, bool specials = true) {
  gs::Check<T>(
      soc, c, seed, specials, false, kPast,
      [&](const LocalTensor<gs::Dev<T>>& d, const LocalTensor<gs::Dev<T>>& g,
          const LocalTensor<gs::Dev<T>>& s, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& t,
          const AscendC::SoftMaxShapeInfo& si, bool stack) {
        if (c.frontApi && stack) {
          AscendC::SoftmaxGradFront<gs::Dev<T>>(d, g, s, t, si);
        } else if (c.frontApi) {
          AscendC::SoftmaxGradFront<gs::Dev<T>>(d, g, s, tmp, t, si);
        } else if (stack) {
          AscendC::SoftmaxGrad<gs::Dev<T>>(d, g, s, t, c.front, si);
        } else {
          AscendC::SoftmaxGrad<gs::Dev<T>>(d, g, s, tmp, t, c.front, si);
        }
      },
      [&](const rp::SmxTiling& kt, const gs::Io<T>& in, gs::Io<T>& want, bool on310P) {
        return rp::ReplaySoftmaxGradWork(kt, c.oriK, in.grad.data(), in.src.data(), want.dst.data(),
                                         want.tmp, c.front, c.frontApi, on310P);
      });
}

struct Shape {
  uint32_t m, k, oriK;
};

// Every API form on shape s at three scratch sizes: the one-row minimum, twice it plus 20 bytes
// (not a multiple of 32) and the maximum; the tiling made for s, then (minimum only) one made
// for [1, k] (the kernel re-tiles on the buffer).
template <class T>
void CheckShape(const Shape& s, uint32_t& seed, const char* soc = k910B) {
  for (const auto& [front, frontApi] : {std::pair{false, false}, {true, false}, {true, true}}) {
    const ge::Shape shape({s.m, s.k});
    const uint32_t lo = AscendC::GetSoftMaxGradMinTmpSize(shape, sizeof(T), front, false);
    const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(shape, sizeof(T), front, false);
    for (const uint32_t bytes : {lo, lo * 2 + 20, hi}) {
      Check<T>(soc, {s.m, s.k, s.oriK, front, frontApi, bytes, true}, seed++);
    }
    Check<T>(soc, {s.m, s.k, s.oriK, front, frontApi, lo * 3 + 4, false}, seed++);
  }
}

TEST(SoftmaxGradScratchReplay, FloatMatchesTheKitsBufferByteForByte) {
  uint32_t seed = 1900;
  for (const Shape& s : {Shape{1, 8, 8}, Shape{4, 40, 36}, Shape{3, 72, 72}, Shape{5, 200, 196},
                         Shape{2, 600, 600}, Shape{9, 192, 130}, Shape{13, 64, 64},
                         Shape{2, 1040, 1030}, Shape{37, 128, 100}, Shape{11, 24, 17}}) {
    CheckShape<float>(s, seed);
  }
}

TEST(SoftmaxGradScratchReplay, HalfMatchesTheKitsBufferByteForByte) {
  uint32_t seed = 1950;
  for (const Shape& s : {Shape{1, 16, 16}, Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520},
                         Shape{5, 80, 80}, Shape{19, 128, 77}, Shape{7, 32, 9}}) {
    CheckShape<rp::Half>(s, seed);
  }
}

// More than 255 rows in one split (the kit's WholeReduceSum runs in groups of 255 repeats).
TEST(SoftmaxGradScratchReplay, RowsPast255InOneSplit) {
  uint32_t seed = 1990;
  for (const bool front : {false, true}) {
    const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({260, 8}), 4, front, false);
    for (const char* soc : {k910B, k310P}) {
      Check<float>(soc, {260, 8, 5, front, false, hi, true}, seed++);
    }
  }
}

// Arch 2002 (membase/v200): ReduceSumLastNDImpl adds whole 64-lane WholeReduceSum trees chunk by
// chunk (not 2201's block sums), its BroadCastLastImpl is a scalar loop and the half casts round
// to nearest even. dst (the sums, for oriK > 64 not 2201's) and the buffer against the replay.
TEST(SoftmaxGradScratchReplay, Arch2002SumsChunkByChunkAndLeavesItsBuffer) {
  uint32_t seed = 2100;
  for (const Shape& s :
       {Shape{1, 8, 8}, Shape{4, 40, 36}, Shape{3, 72, 72}, Shape{5, 200, 196}, Shape{2, 600, 600},
        Shape{37, 128, 100}, Shape{2, 1040, 1030}, Shape{13, 64, 64}}) {
    CheckShape<float>(s, seed, k310P);
  }
  for (const Shape& s : {Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520},
                         Shape{19, 128, 77}, Shape{5, 80, 80}}) {
    CheckShape<rp::Half>(s, seed, k310P);
  }
}

}  // namespace
