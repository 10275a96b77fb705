// The whole-tensor operator forms of the binary vector instructions (dst = src0 + src1, -, *, /,
// &, |; tensor_expr.h) on a standalone block, against a scalar model of the reference's
// formulas (dst_i = src0_i OP src1_i for each of dst's GetSize() elements), written out here.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

#include "kernel_operator.h"

namespace {

constexpr uint32_t kLen = 160;  // not a whole repeat: the count form

template <typename T>
void Check(const std::function<void(AscendC::LocalTensor<T>&, const AscendC::LocalTensor<T>&,
                                    const AscendC::LocalTensor<T>&)>& assign,
           const std::function<T(T, T)>& model) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 3 * kLen * sizeof(T));
  AscendC::LocalTensor<T> all = buf.Get<T>();
  AscendC::LocalTensor<T> a = all, b = all[kLen], d = all[2 * kLen];
  a.SetSize(kLen);
  b.SetSize(kLen);
  for (uint32_t i = 0; i < kLen; ++i) {
    a.SetValue(i, static_cast<T>(static_cast<int32_t>(i % 23) - 7));
    b.SetValue(i, static_cast<T>(static_cast<int32_t>(i % 5) + 1));
    d.SetValue(i, static_cast<T>(99));
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  assign(d, a, b);
  AscendC::PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < kLen; ++i)
    ASSERT_EQ(d.GetValue(i), model(a.GetValue(i), b.GetValue(i))) << i;
}

TEST(TensorOperators, ArithmeticOnFloat) {
  using L = AscendC::LocalTensor<float>;
  Check<float>([](L& d, const L& a, const L& b) { d = a + b; },
               [](float x, float y) { return x + y; });
  Check<float>([](L& d, const L& a, const L& b) { d = a - b; },
               [](float x, float y) { return x - y; });
  Check<float>([](L& d, const L& a, const L& b) { d = a * b; },
               [](float x, float y) { return x * y; });
  Check<float>([](L& d, const L& a, const L& b) { d = a / b; },
               [](float x, float y) { return x / y; });
}

TEST(TensorOperators, BitwiseOnInt16) {
  using L = AscendC::LocalTensor<int16_t>;
  Check<int16_t>([](L& d, const L& a, const L& b) { d = a & b; },
                 [](int16_t x, int16_t y) { return static_cast<int16_t>(x & y); });
  Check<int16_t>([](L& d, const L& a, const L& b) { d = a | b; },
                 [](int16_t x, int16_t y) { return static_cast<int16_t>(x | y); });
}

// The accumulation the kit's matmul_partial_output writes: c = c + t, in place.
TEST(TensorOperators, InPlaceAccumulation) {
  using L = AscendC::LocalTensor<float>;
  Check<float>(
      [](L& d, const L& a, const L& b) {
        d = a + b;
        d = d + b;
      },
      [](float x, float y) { return (x + y) + y; });
}

}  // namespace
