// SoftmaxFlashV2 in SOFTMAX_OUTPUT_WITHOUT_BRC mode through lngrad's Ascend C API, as the M1
// replay tests call it (softmax_flashv2_m1_nan_replay_test.cpp,
// softmax_flashv2_m1_work_replay_test.cpp): the operands' places in the test UB and the call of
// either overload, with and without update.
#pragma once

#include <cstdint>

#include "softmax_replay_util.h"

namespace softmax_replay_test {

inline constexpr AscendC::SoftmaxConfig kNoBrc = {true, 0, 0,
                                                  AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
template <class S>
inline constexpr uint32_t kInAt = kUbBufBytes / 4 / sizeof(S);  // inExpSum, in buffer 2
template <class T>
inline constexpr uint32_t kEmAt = kUbBufBytes / 2 / sizeof(T);  // expMax, in buffer 3
template <class S>
inline constexpr uint32_t kRmAt = kUbBufBytes * 3 / 4 / sizeof(S);  // outReduceMax, in buffer 3

// One call on f's tensors: inExpSum at kInAt of buffer 2, inMax kInAt after the max (kMaxAt),
// outReduceMax (reduceMaxForm) at kRmAt of buffer 3.
template <class T, class S, bool reduceMaxForm>
void CallM1(Ub& ub, const FlashTensors<T, S>& f, bool update, const SoftMaxTiling& t,
            const AscendC::SoftMaxShapeInfo& si) {
  const auto inS = ub.Get<Dev<S>>(2)[kInAt<S>];
  const auto inM = ub.Get<Dev<S>>(2)[kMaxAt<S> + kInAt<S>];
  const auto rm = ub.Get<Dev<S>>(3)[kRmAt<S>];
  if constexpr (reduceMaxForm) {
    if (update) {
      AscendC::SoftmaxFlashV2<Dev<T>, true, false, false, false, kNoBrc>(
          f.dst, rm, f.sum, f.max, f.src, f.em, inS, inM, f.tmp, t, si);
    } else {
      AscendC::SoftmaxFlashV2<Dev<T>, false, false, false, false, kNoBrc>(
          f.dst, rm, f.sum, f.max, f.src, f.em, inS, inM, f.tmp, t, si);
    }
  } else if (update) {
    AscendC::SoftmaxFlashV2<Dev<T>, true, false, false, false, kNoBrc>(
        f.dst, f.sum, f.max, f.src, f.em, inS, inM, f.tmp, t, si);
  } else {
    AscendC::SoftmaxFlashV2<Dev<T>, false, false, false, false, kNoBrc>(
        f.dst, f.sum, f.max, f.src, f.em, inS, inM, f.tmp, t, si);
  }
}

}  // namespace softmax_replay_test
