// The call the transpose scratch tests (transpose012_scratch_replay_test.cpp,
// transform_scratch_replay_test.cpp) make: ConfusionTranspose or Transpose, with the
// sharedTmpBuffer or the overload that pops the stack buffer.
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace lngrad_replay::scratch_test {

template <class T>
void CallTranspose(bool confusion, const AscendC::LocalTensor<T>& d,
                   const AscendC::LocalTensor<T>& s, const AscendC::LocalTensor<uint8_t>& tmp,
                   bool stack, AscendC::TransposeType type,
                   AscendC::tiling::ConfusionTransposeTiling& t) {
  if (stack && confusion) {
    AscendC::ConfusionTranspose(d, s, type, t);
  } else if (stack) {
    AscendC::Transpose(d, s, type, t);
  } else if (confusion) {
    AscendC::ConfusionTranspose(d, s, tmp, type, t);
  } else {
    AscendC::Transpose(d, s, tmp, type, t);
  }
}

}  // namespace lngrad_replay::scratch_test
