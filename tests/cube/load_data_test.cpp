// LoadData and LoadDataWithTranspose against their documented definitions (the vendor's
// pseudo-code: load2d.py, load_data_with_transpose.py): fractal placement, the transposed square.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_operator.h"

namespace {

using AscendC::TPosition;

template <typename T>
T* Host(const AscendC::LocalTensor<T>& t) {
  return static_cast<T*>(t.GetPhyAddr());
}

// Fill (the reference's Fill page): repeatTimes rows of blockNum blocks (32 B in L1, 512 B in
// L0A/L0B) with dstGap blocks between rows; the gaps keep what they held.
TEST(Fill, RowsOfBlocksWithGaps) {
  AscendC::LocalTensor<half> l1(TPosition::A1, 0, 16 * 9);
  for (int i = 0; i < 16 * 9; ++i) Host(l1)[i] = half(-2.0f);
  AscendC::Fill(l1, AscendC::InitConstValueParams<half>(3, 2, 1, half(1.5f)));
  for (int i = 0; i < 16 * 9; ++i) {
    const bool filled = (i / 16) % 3 != 2;  // blocks of 16 halves: 2 filled, 1 gap, per row
    ASSERT_EQ(static_cast<float>(Host(l1)[i]), filled ? 1.5f : -2.0f) << i;
  }
  AscendC::LocalTensor<float> l0a(TPosition::A2, 0, 128 * 3);
  AscendC::InitConstValue(l0a, AscendC::InitConstValueParams<float>(1, 3, 0, 7.0f));
  for (int i = 0; i < 128 * 3; ++i) ASSERT_EQ(Host(l0a)[i], 7.0f) << i;
}

TEST(LoadData, TwoDPlacesFractalsByStrideAndGap) {
  AscendC::LocalTensor<int16_t> src(TPosition::A1, 0, 256 * 8);
  AscendC::LocalTensor<int16_t> dst(TPosition::A2, 0, 256 * 8);
  for (int i = 0; i < 256 * 8; ++i) Host(src)[i] = static_cast<int16_t>(i);
  AscendC::LoadData2DParams p;
  p.startIndex = 1;
  p.repeatTimes = 3;
  p.srcStride = 2;
  p.dstGap = 1;
  AscendC::LoadData(dst, src, p);
  for (int r = 0; r < 3; ++r) {
    for (int e = 0; e < 256; ++e) ASSERT_EQ(Host(dst)[r * 2 * 256 + e], (1 + 2 * r) * 256 + e);
  }
  p = {};
  p.repeatTimes = 1;
  p.ifTranspose = true;
  AscendC::LoadData(dst, src, p);
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) ASSERT_EQ(Host(dst)[r * 16 + c], c * 16 + r);
  }
}

// One repeat of LoadDataWithTranspose for T: element (r, c) of the transposed square equals
// element (c, r) of the source square, each stored in its own form.
template <typename T>
void ExpectSquareTransposed(uint32_t side, bool column_blocks) {
  const uint32_t n = side * side;
  AscendC::LocalTensor<T> src(TPosition::B1, 0, n);
  AscendC::LocalTensor<T> dst(TPosition::B2, 0, n * 2);
  for (uint32_t i = 0; i < n; ++i) Host(src)[i] = static_cast<T>(i % 127);
  const auto at = [&](uint32_t r, uint32_t c) {
    return column_blocks ? (c / 8) * 128 + r * 8 + c % 8 : r * side + c;
  };
  AscendC::LoadData2dTransposeParams p;
  p.repeatTimes = 1;
  AscendC::LoadDataWithTranspose(dst, src, p);
  for (uint32_t r = 0; r < side; ++r) {
    for (uint32_t c = 0; c < side; ++c) ASSERT_EQ(Host(dst)[at(r, c)], Host(src)[at(c, r)]);
  }
}

TEST(LoadData, WithTransposeSquares) {
  ExpectSquareTransposed<half>(16, false);
  ExpectSquareTransposed<int8_t>(32, false);
  ExpectSquareTransposed<float>(16, true);
}

TEST(LoadData, ChecksPositionsAndAlignment) {
  AscendC::LocalTensor<half> l1(TPosition::A1, 0, 256);
  AscendC::LocalTensor<half> l0a(TPosition::A2, 0, 512);
  AscendC::LoadData2DParams p;
  p.repeatTimes = 1;
  EXPECT_THROW(AscendC::LoadData(l1, l0a, p), lngrad::aicore::KernelCheckError);      // reversed
  EXPECT_THROW(AscendC::LoadData(l0a[16], l1, p), lngrad::aicore::KernelCheckError);  // 32 B
  p.repeatTimes = 2;
  p.srcStride = 1;
  EXPECT_THROW(AscendC::LoadData(l0a, l1, p), lngrad::aicore::KernelCheckError);  // past src
}

}  // namespace
