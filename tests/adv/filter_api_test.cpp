// DropOut (lib/filter/dropout.h) and the bytes-mask Select (lib/select/selectwithbytesmask.h)
// against the documented sequences (bit exact; DropOut's float64 oracle: two roundings of T),
// every mode, the checked-mode refusals and the host scratch sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "quant_api_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace lngrad::adv::testing {
namespace {

// A DropOutShapeInfo or SelectWithBytesMaskShapeInfo.
template <typename Info>
Info Axes(uint32_t firstAxis, uint32_t srcLastAxis, uint32_t maskLastAxis) {
  Info info;
  info.firstAxis = firstAxis;
  info.srcLastAxis = srcLastAxis;
  info.maskLastAxis = maskLastAxis;
  return info;
}

// One DropOut call on a [rows, srcLast] source with a [rows, maskLast] mask.
template <typename T>
std::vector<T> RunDropOut(const char* soc, uint32_t rows, uint32_t srcLast, uint32_t maskLast,
                          const std::vector<T>& x, const std::vector<uint8_t>& mask, float keep,
                          bool withTmp, std::vector<uint8_t>* maskAfter = nullptr) {
  std::vector<T> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, x);
        ub.Put<uint8_t>(2, mask);
        const auto info = Axes<AscendC::DropOutShapeInfo>(rows, srcLast, maskLast);
        if (withTmp) {
          AscendC::DropOut(ub.Get<T>(0), ub.Get<T>(1), ub.Get<uint8_t>(2), ub.Get<uint8_t>(3), keep,
                           info);
        } else {
          AscendC::DropOut(ub.Get<T>(0), ub.Get<T>(1), ub.Get<uint8_t>(2), keep, info);
        }
        got = ub.Take<T>(0);
        if (maskAfter != nullptr) *maskAfter = ub.Take<uint8_t>(2);
      },
      soc);
  return got;
}

template <typename T>
void DropOutModes(const char* soc, bool withTmp) {
  constexpr uint32_t rows = 3;
  const float keep = 0.7f;
  const T div = T(1.0f / keep);
  const std::vector<T> x = As<T>(Uniform(21, 4096, -100.0f, 100.0f));
  std::mt19937 gen(22);
  std::vector<uint8_t> mask(4096);
  for (uint8_t& b : mask) b = static_cast<uint8_t>(gen() % 4 == 0 ? 0 : gen() % 3);  // 0, 1, 2
  // {srcLast, maskLast}: byte misaligned, byte, bit, bit misaligned.
  const uint32_t shapes[4][2] = {{48, 64}, {80, 80}, {256, 32}, {128, 32}};
  for (const auto& sh : shapes) {
    std::vector<uint8_t> after;
    const std::vector<T> got = RunDropOut(soc, rows, sh[0], sh[1], x, mask, keep, withTmp, &after);
    const bool bits = sh[0] > sh[1];
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < sh[0]; ++c) {
        const uint32_t e = r * sh[0] + c;
        T v;
        if (bits) {
          const uint8_t byte = mask[r * sh[1] + c / 8];
          v = (byte >> (c % 8)) & 1 ? x[e] : T(0.0f);
        } else {
          v = T(static_cast<float>(mask[r * sh[1] + c]) * static_cast<float>(x[e]));
        }
        const T want = T(static_cast<float>(v) * static_cast<float>(div));
        ASSERT_EQ(Bits(got[e]), Bits(want)) << soc << " " << sh[0] << " " << e;
        const double m = bits ? (static_cast<float>(v) != 0.0f ? 1.0 : 0.0)
                              : static_cast<double>(mask[r * sh[1] + c]);
        const double exact = m * static_cast<float>(x[e]) / keep;
        const double rel = std::is_same_v<T, half> ? std::ldexp(1.0, -9) : std::ldexp(1.0, -22);
        ASSERT_LE(std::fabs(static_cast<float>(got[e]) - exact), rel * std::fabs(exact) + 1e-30);
      }
    }
    if (sh[0] != sh[1] && sh[0] != sh[1] * 8) {
      // 2201 packs the misaligned rows in place; 2002 (row by row) and 3510 leave the mask as it
      // was.
      const bool packed = std::string(soc) == k910B;
      const uint32_t keepBytes = bits ? sh[0] / 8 : sh[0];
      for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t b = 0; b < keepBytes; ++b) {
          const uint32_t at = packed ? r * keepBytes + b : r * sh[1] + b;
          ASSERT_EQ(after[at], mask[r * sh[1] + b]) << soc;
        }
      }
    }
  }
}

TEST(FilterDropOut, EveryModeHalfAndFloatEveryProduct) {
  for (const char* soc : {k910B, "Ascend310P1", k950}) {
    for (bool tmp : {true, false}) {
      DropOutModes<float>(soc, tmp);
      DropOutModes<half>(soc, tmp);
    }
  }
}

TEST(FilterDropOut, CheckedModeRules) {
  ExpectCheck(
      [](Ub& ub) {
        const auto info = Axes<AscendC::DropOutShapeInfo>(2, 64, 8);
        AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(256);
        AscendC::DropOut(ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(2), tmp, 0.5f, info);
      },
      "tmp_buffer", "512");
  ExpectCheck(
      [](Ub& ub) {
        const auto info = Axes<AscendC::DropOutShapeInfo>(2, 60, 32);
        AscendC::DropOut(ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(2), ub.Get<uint8_t>(3),
                         0.5f, info);
      },
      "quant_filter_arg", "multiple of 8");
}

// Select: a zero mask element takes the first operand, any other the second.
template <typename T, typename U>
void SelectCase(const char* soc, bool scalarFirst, uint32_t srcLast, uint32_t maskLast) {
  constexpr uint32_t rows = 4;
  const std::vector<T> x = As<T>(Uniform(31, rows * srcLast, -5.0f, 5.0f));
  std::vector<U> mask(rows * maskLast);
  for (size_t i = 0; i < mask.size(); ++i)
    mask[i] = U(static_cast<float>((i * 7) % 3 == 0 ? 0 : 1));
  // A 4-byte mask of 0x80000000 (-0.0f read as float) counts as zero on 2201/2002, whose Cast
  // reads it as float; the 950 compares it as an integer (nonzero).
  if constexpr (sizeof(U) == 4) mask[1] = static_cast<U>(0x80000000u);
  const bool arch3510 = std::string(soc) == k950;
  const T scalar = T(1.234f);
  std::vector<T> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, x);
        ub.Put<U>(2, mask);
        const auto info = Axes<AscendC::SelectWithBytesMaskShapeInfo>(rows, srcLast, maskLast);
        AscendC::LocalTensor<T> src = ub.Get<T>(1);
        src.SetSize(rows * srcLast);
        AscendC::LocalTensor<U> m = ub.Get<U>(2);
        m.SetSize(rows * maskLast);  // the 950 asserts the mask's size
        if (scalarFirst) {
          AscendC::Select<T, U, false>(ub.Get<T>(0), scalar, src, m, ub.Get<uint8_t>(3), info);
        } else {
          AscendC::Select(ub.Get<T>(0), src, scalar, m, ub.Get<uint8_t>(3), info);
        }
        got = ub.Take<T>(0);
      },
      soc);
  for (uint32_t e = 0; e < rows * srcLast; ++e) {
    const U m = mask[(e / srcLast) * maskLast + e % srcLast];
    bool zero = m == U(0);
    if constexpr (sizeof(U) == 4) {
      float f;
      std::memcpy(&f, &m, sizeof(f));
      if (!arch3510) zero = f == 0.0f;
    }
    const T want = zero != scalarFirst ? x[e] : scalar;
    ASSERT_EQ(Bits(got[e]), Bits(want)) << e;
  }
}

TEST(FilterSelect, BothOperandOrdersMaskTypesAndPaddedMaskRows) {
  for (bool sf : {false, true}) {
    // Every product asserts rows of whole 32-byte blocks, mask rows of 16·k elements and
    // integer masks (2201/2002: the kit's kernel check; 950: its 3510 file).
    SelectCase<float, uint8_t>(k910B, sf, 32, 32);
    SelectCase<half, uint8_t>(k910B, sf, 48, 64);
    SelectCase<float, uint32_t>(k910B, sf, 32, 32);
    SelectCase<half, int16_t>(k910B, sf, 48, 64);
    SelectCase<float, int32_t>(k310P, sf, 8, 16);
    SelectCase<half, uint8_t>(k310P, sf, 32, 64);
    SelectCase<float, uint8_t>(k950, sf, 32, 32);
    SelectCase<half, uint8_t>(k950, sf, 48, 64);
    SelectCase<float, int32_t>(k950, sf, 24, 32);
    SelectCase<half, int16_t>(k950, sf, 48, 64);
  }
}

// What the kit's kernel check (selectwithbytesmaskcheck_common.h) refuses on 2201/2002, as the
// 950's file does: the shapes filter_api_test used before, a float mask, sizes off the axes.
template <typename T, typename U>
void ExpectSelectRefused(const char* soc, uint32_t first, uint32_t srcLast, uint32_t maskLast,
                         uint32_t srcSize, uint32_t maskSize, const std::string& needle) {
  SCOPED_TRACE(std::string(soc) + " " + std::to_string(srcLast) + "/" + std::to_string(maskLast));
  ExpectCheck(
      [=](Ub& ub) {
        const auto info = Axes<AscendC::SelectWithBytesMaskShapeInfo>(first, srcLast, maskLast);
        AscendC::LocalTensor<T> src = ub.Get<T>(1);
        src.SetSize(srcSize);
        AscendC::LocalTensor<U> m = ub.Get<U>(2);
        m.SetSize(maskSize);
        AscendC::Select(ub.Get<T>(0), src, T(1.0f), m, ub.Get<uint8_t>(3), info);
      },
      "quant_filter_arg", needle, soc);
}

TEST(FilterSelect, CheckedModeRefusesTheKitsRejectedShapesOnEveryProduct) {
  for (const char* soc : {k910B, k310P, k950}) {
    ExpectSelectRefused<float, uint8_t>(soc, 4, 40, 40, 160, 160, "maskLastAxis 40");
    ExpectSelectRefused<half, uint8_t>(soc, 4, 40, 64, 160, 256, "srcLastAxis 40");
    ExpectSelectRefused<float, float>(soc, 4, 24, 24, 96, 96, "mask type");
    ExpectSelectRefused<float, uint8_t>(soc, 4, 32, 32, 160, 128, "tensor source holds 160");
    ExpectSelectRefused<float, uint8_t>(soc, 4, 32, 32, 128, 160, "mask holds 160");
    ExpectSelectRefused<half, int16_t>(soc, 2, 64, 48, 128, 96, "at least srcLastAxis");
  }
}

TEST(FilterSelect, CheckedModeTmpBuffer) {
  ExpectCheck(
      [](Ub& ub) {
        const auto info = Axes<AscendC::SelectWithBytesMaskShapeInfo>(1, 64, 64);
        AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(512);
        AscendC::LocalTensor<float> src = ub.Get<float>(1);
        src.SetSize(64);
        AscendC::LocalTensor<uint8_t> mask = ub.Get<uint8_t>(2);
        mask.SetSize(64);
        AscendC::Select(ub.Get<float>(0), src, 1.0f, mask, tmp, info);
      },
      "tmp_buffer", "1024");
}

TEST(FilterTiling, DropOutAndSelectSizes) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetDropOutMaxMinTmpSize(ge::Shape({4, 256, 32}), 4, false, mx, mn);
  EXPECT_EQ(mn, 512u);
  EXPECT_EQ(mx, 2u * 4 * 256 * 32 * 4);
  AscendC::GetDropOutMaxMinTmpSize(ge::Shape({10}), 2, false, mx, mn);
  EXPECT_EQ(mx, 512u);
  AscendC::GetSelectMaxMinTmpSize(ge::Shape({2, 32}), ge::Shape({1}), 4, ge::Shape({2, 32}), 1,
                                  false, mx, mn);
  EXPECT_EQ(mx, 1024u);
  EXPECT_EQ(mn, 1024u);
  AscendC::GetSelectMaxMinTmpSize(ge::Shape({100, 100}), ge::Shape({1}), 4, ge::Shape({100, 128}),
                                  2, false, mx, mn);
  EXPECT_EQ(mx, 10016u * 2 + 512 + 20000);  // align32(10000) * 2 + 512 + align32(10000 * 2)
  EXPECT_EQ(mn, 4096u * 2 + 512 + 20000);
  EXPECT_EQ(AscendC::GetSelectWithBytesMaskMinTmpSize(ge::Shape({1}), ge::Shape({100, 100}), 4,
                                                      ge::Shape({100, 128}), 2, true),
            4096u * 2 + 512);
}

}  // namespace
}  // namespace lngrad::adv::testing
