// The operands the SoftMax family's work-buffer tests share (scratch_softmax_test.cpp,
// scratch_softmax_flashv2_test.cpp): an 8 x 64 shape, its SoftMaxTilingFunc tiling and the UB
// buffers of scratch_harness.h seen as float or half.
#pragma once

#include <cstdint>

#include "kernel_operator.h"
#include "scratch_harness.h"
#include "tiling/tiling_api.h"

namespace lngrad::aicore::san_test::scratch {

inline constexpr uint32_t kSmM = 8, kSmK = 64;
inline ::SoftMaxTiling SmTiling(uint32_t type_size) {
  ::SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(ge::Shape({kSmM, kSmK}), type_size, kTmpBytes, t);
  return t;
}
inline AscendC::LocalTensor<float> F(const AscendC::LocalTensor<uint8_t>& t) {
  return t.ReinterpretCast<float>();
}
inline AscendC::LocalTensor<half> H(const AscendC::LocalTensor<uint8_t>& t) {
  return t.ReinterpretCast<half>();
}
inline const AscendC::SoftMaxShapeInfo kSmShape{kSmM, kSmK, kSmM, kSmK};

}  // namespace lngrad::aicore::san_test::scratch
