// The set-up the scratch tests share (activation_scratch_replay_test.cpp,
// math_replay_scratch_test.cpp): buffer sizes and the scratch an API is given, either a
// sharedTmpBuffer of its own or the stack buffer that the overloads without it pop, left at
// exactly `bytes` by a filler buffer.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "kernel_operator.h"

namespace lngrad_replay::scratch_test {

inline uint32_t Aligned32(uint32_t bytes) { return (bytes + 31u) / 32u * 32u; }

// *tmp: `bytes` of scratch from `own` (stack false) or the stack buffer, after `filler` took
// the rest of it. A fatal gtest failure if the stack buffer does not come out at `bytes`.
inline void TakeScratch(AscendC::TPipe& pipe, AscendC::TBuf<>& own, AscendC::TBuf<>& filler,
                        bool stack, uint32_t bytes, AscendC::LocalTensor<uint8_t>* tmp) {
  if (!stack) {
    pipe.InitBuffer(own, Aligned32(bytes));
    *tmp = own.Get<uint8_t>(bytes);
    return;
  }
  AscendC::LocalTensor<uint8_t> left;
  ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(left)));
  ASSERT_GT(left.GetSize(), bytes);
  pipe.InitBuffer(filler, left.GetSize() - bytes);
  ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(*tmp)));
  ASSERT_EQ(tmp->GetSize(), bytes);
}

}  // namespace lngrad_replay::scratch_test
