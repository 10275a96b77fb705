// The SoftMax family's work buffer on 2201, the constant-shape config's paths (split from
// scratch_softmax_test.cpp, whose harness it shares: scratch_harness.h): the paths lngrad models
// read clean after the call.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

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

// SoftmaxFlashV2's constant-shape config with config.oriSrcK rounded up to 8 below srcK (here 56
// of 64; unchecked: checked mode refuses it, softmax_device_defect) on 2201: the generic loop's
// buffer with the reductions' rows at i * 56 (softmax_flashv2_paths.h FlashV2ConfigScratch;
// replay.SoftmaxFlashV2ScratchReplay.ConstantShapeConfigSplitKBelowSrcKUncheckedOn2201; marked
// before session 25): float, half, half with float statistics, without and with update: no mark.
constexpr SoftmaxConfig kFlashCfg56{true, 1, 56};
template <typename T, typename U>
void FlashV2ConfigSplitsReadClean(const char* soc, bool update) {
  ExpectClean(RunScratch(soc, san::kAllTools, Then::kRead, [update](Ops& o) {
                const lngrad::aicore::test::CheckedModeScope unchecked(false);
                const auto d = [](const LocalTensor<uint8_t>& t) { return t.ReinterpretCast<T>(); };
                const auto u = [](const LocalTensor<uint8_t>& t) { return t.ReinterpretCast<U>(); };
                SoftMaxTiling t;
                SoftMaxFlashV2TilingFunc(ge::Shape({kSmM, kSmK}), sizeof(T), sizeof(U), kTmpBytes,
                                         t, update);
                if (update) {
                  SoftmaxFlashV2<T, true, false, false, false, kFlashCfg56>(
                      d(o.a), u(o.c), u(o.d), d(o.b), d(o.c)[2048 / sizeof(T)], u(o.c)[256],
                      u(o.d)[256], o.tmp, t, kSmShape);
                } else {
                  SoftmaxFlashV2<T, false, false, false, false, kFlashCfg56>(
                      d(o.a), u(o.c), u(o.d), d(o.b), d(o.c)[2048 / sizeof(T)], u(o.c), u(o.d),
                      o.tmp, t, kSmShape);
                }
              }).r);
}
TEST(ScratchInitcheck, SoftmaxFlashV2ConfigSplitKBelowSrcKIsModelledNotMarked) {
  for (const char* soc : {k910}) {  // 2002 (FlashV2DeviceV200 for the wrapping splits): marked
    for (const bool update : {false, true}) {
      SCOPED_TRACE(std::string(soc) + (update ? " update" : " no update"));
      FlashV2ConfigSplitsReadClean<float, float>(soc, update);
      FlashV2ConfigSplitsReadClean<half, half>(soc, update);
      FlashV2ConfigSplitsReadClean<half, float>(soc, update);
    }
  }
}

}  // namespace
