// The SoftMax family's work buffer on 2201, the constant-shape config's paths (split from
// scratch_softmax_test.cpp, whose harness it shares: scratch_harness.h): the paths lngrad models
// read clean after the call.
#include <gtest/gtest.h>

#include <cstdint>

#include "../aicore/checked_mode_scope.h"
#include "kernel_operator.h"
#include "scratch_harness.h"
#include "scratch_softmax_ops.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;                            // NOLINT(google-build-using-namespace)
using namespace lngrad::aicore::san_test::scratch;  // NOLINT(google-build-using-namespace)

constexpr SoftmaxConfig kCfg8x60{true, kSmM, 60}, kCfg8x56{true, kSmM, 56};

// SoftMax<half> without statistics, the config's generic path with a tiling of reduceK 8 (made
// with float statistics for the shape, or the kernel's re-tile of one made for another shape;
// unchecked: checked mode refuses it, softmax_device_defect): the reductions' 16 floats a row run
// past the statistics block into the accumulators, which lngrad writes as the kit leaves them
// (softmax_work.h SpillsStats; replay.SoftMaxConfigScratchReplay.HalfWithoutStatisticsReTile-
// SpillsIntoTheAccumulatorsUnchecked; marked before session 25): no mark.
TEST(ScratchInitcheck, SoftMaxConfigHalfWithoutStatisticsOnReduceK8IsModelledNotMarked) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMax<half, false, false, kCfg8x60>(H(o.a), H(o.b), o.tmp, SmTiling(4), kSmShape);
              }).r);
  ExpectClean(RunScratch(k910, san::kAllTools, Then::kRead, [](Ops& o) {
                SoftMaxTiling other;  // another shape's: the kernel re-tiles it
                SoftMaxTilingFunc(ge::Shape({2 * kSmM, kSmK}), 2, kTmpBytes, other);
                SoftMax<half, false, false, kCfg8x56>(H(o.a), H(o.b), o.tmp, other, kSmShape);
              }).r);
}

}  // namespace
