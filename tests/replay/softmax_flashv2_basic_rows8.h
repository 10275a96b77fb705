// Session 24 (bb2): SoftmaxFlashV2 isBasicBlock in splits not a multiple of 8 rows, for the
// replay tests of softmax_basic_replay_test.cpp (OtherShapesTilingIsReTiled, MatchesBitForBit).
// The kit runs such splits through the basic-block path (the host's AdjustToBasicBlockBaseM and
// the kernel's re-tile, CalculateNDSplitM, round splitM down to a multiple of 8 only above 8;
// isBasicBlock is the template's, so 3-, 5- and 6-row splits reach SoftmaxFlashV2[NoUpdate]
// BasicBlock[Impl]), whose last BlockReduce, Brcbs and reduceCeilValue repeats cover
// ceil(splitM / 8) * 8 rows: the statistics rows past each split come from stale work-buffer
// floats (the last split's into the tail rows), and with update the next split reads an
// inMax / inExpSum its predecessor wrote. lngrad's checked mode refuses them
// (softmax_device_defect); unchecked, float data is compared with ReplayFlashV2BasicScratch
// (replay_softmax_flashv2_paths.h, the kit's instruction sequence over the work buffer's bytes),
// half data (session 25, bbu) with ReplayFlashV2BasicScratchHalf where it covers the tiling,
// elsewhere with replay_softmax_basic.cpp's rows (lngrad's rows there, not the device's).
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "replay_softmax_flashv2_paths.h"
#include "softmax_replay_util.h"

namespace softmax_replay_test {

// SoftmaxFlashV2<isBasicBlock> with tiling t on a work buffer of tmpBytes in checked mode: the
// call is refused, naming the split's rows.
template <class T, class S, const AscendC::SoftmaxConfig& cfg>
void ExpectV2BasicRowsRefused(const Shape& s, bool update, const AscendC::tiling::SoftMaxTiling& t,
                              uint32_t tmpBytes) {
  const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        const FlashTensors<T, S> f(ub);
        AscendC::LocalTensor<uint8_t> tmp = f.tmp;
        tmp.SetSize(tmpBytes);
        if (update) {
          AscendC::SoftmaxFlashV2<Dev<T>, true, false, true, false, cfg>(
              f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max, tmp, t, si);
        } else {
          AscendC::SoftmaxFlashV2<Dev<T>, false, false, true, false, cfg>(
              f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max, tmp, t, si);
        }
      },
      k910B);
  EXPECT_EQ(r.first, "softmax_device_defect") << r.second;
  EXPECT_NE(r.second.find("is not a multiple of 8"), std::string::npos) << r.second;
}

// Compares got (float data's operands after the call) with want (their copy before it) replayed
// as the device computes them over a copy of the work buffer's floats at the call; io aliased as
// the call passes it (max is inMax, sum is inSum unless separate). Half data: false (nothing
// compared) where ReplayFlashV2BasicScratchHalf does not cover the tiling.
template <class Ops>
bool ExpectV2BasicRowsAsTheDevice(const SmxTiling& t, bool update, Ops want,
                                  std::vector<float> scratch, const Ops& got) {
  const auto io = want.Io();
  auto* bytes = reinterpret_cast<uint8_t*>(scratch.data());
  const auto n = static_cast<uint32_t>(scratch.size() * 4);
  if constexpr (std::is_same_v<std::decay_t<decltype(*io.src)>, float>) {
    const bool covered = lngrad_replay::ReplayFlashV2BasicScratch(
        t, update, {io.src, io.dst, io.sum, io.max, io.expMax, io.inSum, io.inMax}, bytes, n);
    EXPECT_TRUE(covered) << "the scratch replay covers the tiling";
  } else {
    using S = std::decay_t<decltype(*io.sum)>;
    if (!lngrad_replay::ReplayFlashV2BasicScratchHalf<S>(
            t, update, {io.src, io.dst, io.sum, io.max, io.expMax, io.inSum, io.inMax}, bytes, n)) {
      return false;
    }
  }
  got.Expect(want);
  return true;
}

}  // namespace softmax_replay_test
