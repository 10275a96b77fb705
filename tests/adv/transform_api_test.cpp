// The tensor-transform APIs (lib/pad, lib/broadcast, lib/transpose) on the simulated device,
// against oracles written here from the documented element moves (index maps, no library code):
// every result is exact, so each comparison is bit for bit (bound 0). Shapes are not the
// samples' (tails that are not multiples of 16 or 32 bytes), half and float (and the other
// types of each page where they differ), on Ascend910B1 (arch 2201) and Ascend950PR (3510).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "math_api_test_util.h"
#include "transform_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

const auto& kSocs = kTransformSocs;

// ----------------------------------------------------------------------------------------------
// Pad / UnPad

template <typename T>
void CheckPadUnaligned(const char* soc, uint32_t h, uint32_t w, uint16_t l, uint16_t r,
                       bool with_tmp) {
  SCOPED_TRACE(::testing::Message() << soc << " Pad unaligned " << h << "x" << w << " l=" << l
                                    << " r=" << r << " tmp=" << with_tmp);
  const std::vector<T> src = Iota<T>(h * w);
  const uint32_t ow = w + l + r;
  std::vector<T> want(h * ow);
  for (uint32_t i = 0; i < h; ++i) {
    for (uint32_t j = 0; j < ow; ++j) {
      want[i * ow + j] = j < l || j >= l + w ? static_cast<T>(-7.0f) : src[i * w + j - l];
    }
  }
  uint32_t mx = 0, mn = 0;
  GetPadMaxMinTmpSize(ge::Shape({h, w}), sizeof(T), mx, mn);
  tiling::PadTiling t;
  PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, w}), mn, sizeof(T), t);
  // 2201 (pad_base_impl.h) loads src in chunks of brcbTiling elements with Brcb, 8 a repeat:
  // the last chunk's final n % 8 elements (n = its size) are not loaded, and the rows keep the
  // previous chunk's elements there (every case here has one).
  const uint32_t n = h * w % t.brcbTiling;
  if (std::string(soc) == k910B && n % 8 != 0 && t.brcbFractal != 0) {
    for (uint32_t q = n / 8 * 8; q < n; ++q) {
      const uint32_t at = t.brcbFractal * t.brcbTiling + q;
      want[at / w * ow + l + at % w] = src[at - t.brcbTiling];
    }
  }
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        PadParams p(l, r, -7);
        LocalTensor<T> d = ub.Get<T>(1);
        if (with_tmp) {
          Pad(d, ub.Get<T>(0), p, ub.Get<uint8_t>(2), t);
        } else {
          Pad(d, ub.Get<T>(0), p, t);
        }
        ExpectSame(Prefix(ub.Take<T>(1), want.size()), want, "Pad");
      },
      soc);
}

// On 2201 the last chunk's elements past a multiple of 8 come from the chunk before (above).
TEST(TransformPad, UnalignedRowsGetBothPadsOnEveryProduct) {
  for (const char* soc : kSocs) {
    CheckPadUnaligned<float>(soc, 5, 13, 1, 2, true);
    CheckPadUnaligned<float>(soc, 300, 7, 0, 1, false);  // more than one tmp fractal
    CheckPadUnaligned<half>(soc, 9, 29, 2, 1, true);
    CheckPadUnaligned<int16_t>(soc, 3, 45, 0, 3, false);
    CheckPadUnaligned<int32_t>(soc, 4, 5, 3, 0, true);
  }
}

template <typename T>
void CheckPadAligned(const char* soc, uint32_t h, uint32_t w, uint32_t ori, uint16_t r) {
  SCOPED_TRACE(::testing::Message() << soc << " Pad aligned " << h << "x" << w << " ori=" << ori);
  const std::vector<T> src = Iota<T>(h * w);
  std::vector<T> want = src;
  for (uint32_t i = 0; i < h; ++i) {
    for (uint32_t j = ori; j < ori + r; ++j) want[i * w + j] = static_cast<T>(5.0f);
  }
  tiling::PadTiling t;
  PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, ori}), 0, sizeof(T), t);
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        PadParams p(0, r, 5);
        Pad(ub.Get<T>(1), ub.Get<T>(0), p, t);
        ExpectSame(Prefix(ub.Take<T>(1), want.size()), want, "Pad");
      },
      soc);
}

TEST(TransformPad, AlignedRowsPadFromTheOriginalWidth) {
  for (const char* soc : kSocs) {
    CheckPadAligned<float>(soc, 7, 24, 21, 3);
    CheckPadAligned<half>(soc, 260, 32, 17, 15);  // more than 255 rows: two Duplicate rounds
    CheckPadAligned<uint16_t>(soc, 3, 16, 15, 1);
  }
}

template <typename T>
void CheckUnPad(const char* soc, uint32_t h, uint32_t w, uint16_t r) {
  SCOPED_TRACE(::testing::Message() << soc << " UnPad " << h << "x" << w << " r=" << r);
  const std::vector<T> src = Iota<T>(h * w);
  const uint32_t ow = w - r;
  std::vector<T> want(h * ow);
  for (uint32_t i = 0; i < h; ++i) {
    for (uint32_t j = 0; j < ow; ++j) want[i * ow + j] = src[i * w + j];
  }
  tiling::UnPadTiling t;
  UnPadTilingFunc(ge::Shape({h, w}), 0, sizeof(T), t);
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        UnPadParams p(1, r);  // leftPad is not used, as on the device
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        UnPad(ub.Get<T>(1), ub.Get<T>(0), p, tmp, t);
        ExpectSame(Prefix(ub.Take<T>(1), want.size()), want, "UnPad");
        UnPad(ub.Get<T>(3), ub.Get<T>(0), p, t);
        ExpectSame(Prefix(ub.Take<T>(3), want.size()), want, "UnPad (no scratch)");
      },
      soc);
}

TEST(TransformPad, UnPadKeepsTheFirstColumnsOfEveryRow) {
  for (const char* soc : kSocs) {
    CheckUnPad<float>(soc, 7, 24, 5);
    CheckUnPad<half>(soc, 11, 48, 13);
    CheckUnPad<int32_t>(soc, 2, 8, 7);
  }
}

// Arch 2002 (pad_v200_impl.h) streams the output through groups of 16 * tmpBuffer1BlockNum
// elements and copies the last group out in whole 16-element units (4-byte T: and one block of
// 8 for a remainder): half 1 x 32, rightPad 5 with the minimum scratch (groups of 16) writes
// the first 16 of its 27 elements and leaves 11 as they were; float 3 x 8, rightPad 3 (15
// elements, one group of 15) writes 8 and leaves 7; float 1 x 8, rightPad 3 (5) writes 8,
// 3 past the count (what tmp2's rows 5..7 held: the scratch's bytes from before the call).
template <typename T>
void CheckUnPad2002(uint32_t h, uint32_t w, uint16_t r, uint32_t written) {
  SCOPED_TRACE(::testing::Message() << "UnPad 2002 " << h << "x" << w << " r=" << r);
  const std::vector<T> src = Iota<T>(h * w);
  const uint32_t mn = 16 * 32 * 2;  // GetUnPadMaxMinTmpSize's minimum on arch 2002
  tiling::UnPadTiling t;
  UnPadTilingFunc(ge::Shape({h, w}), mn, sizeof(T), t);
  const uint32_t n = h * (w - r);
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        ub.Put<T>(1, {}, static_cast<T>(-3.0f));
        ub.Put<T>(2, {}, static_cast<T>(5.0f));
        UnPadParams p(0, r);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        UnPad(ub.Get<T>(1), ub.Get<T>(0), p, tmp, t);
        const std::vector<T> got = Prefix(ub.Take<T>(1), std::max(n, written) + 8);
        for (uint32_t k = 0; k < got.size(); ++k) {
          const T want = k < std::min(n, written) ? src[k / (w - r) * w + k % (w - r)]
                         : k < written            ? static_cast<T>(5.0f)
                                                  : static_cast<T>(-3.0f);
          EXPECT_EQ(static_cast<float>(got[k]), static_cast<float>(want)) << "element " << k;
        }
      },
      "Ascend310P1");
}

TEST(TransformPad, UnPadOn2002WritesTheLastGroupInWholeUnits) {
  CheckUnPad2002<half>(1, 32, 5, 16);
  CheckUnPad2002<float>(3, 8, 3, 8);
  CheckUnPad2002<float>(1, 8, 3, 8);
}

// Arch 2002's sequence divides by tmpBuffer1RowNum: checked mode refuses a tiling without a
// scratch layout, and a scratch smaller than it.
TEST(TransformPad, UnPadOn2002NeedsTheScratchLayout) {
  tiling::UnPadTiling none, some;
  UnPadTilingFunc(ge::Shape({4, 16}), 0, sizeof(float), none);
  UnPadTilingFunc(ge::Shape({4, 16}), 2048, sizeof(float), some);
  ExpectCheck(
      [&](Ub& ub) {
        UnPadParams p(0, 3);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        UnPad(ub.Get<float>(1), ub.Get<float>(0), p, tmp, none);
      },
      "transform_params", "tmpBuffer1BlockNum is 0", "Ascend310P1");
  ExpectCheck(
      [&](Ub& ub) {
        UnPadParams p(0, 3);
        LocalTensor<uint8_t> small = ub.Get<uint8_t>(2);
        small.SetSize(1024);
        UnPad(ub.Get<float>(1), ub.Get<float>(0), p, small, some);
      },
      "transform_params", "the tiling lays out", "Ascend310P1");
}

TEST(TransformPad, CheckedModeRefusals) {
  tiling::PadTiling un;
  PadTilingFunc(ge::Shape({4, 13}), ge::Shape({4, 13}), 1024, 4, un);
  ExpectCheck(
      [&](Ub& ub) {
        PadParams p(1, 1, 0);  // 13 + 2 floats is not 32-byte aligned
        Pad(ub.Get<float>(1), ub.Get<float>(0), p, ub.Get<uint8_t>(2), un);
      },
      "transform_params", "multiple of 32");
  ExpectCheck(
      [&](Ub& ub) {
        PadParams p(1, 2, 0);
        LocalTensor<uint8_t> small = ub.Get<uint8_t>(2);
        small.SetSize(512);
        Pad(ub.Get<float>(1), ub.Get<float>(0), p, small, un);
      },
      "transform_params", "the tiling lays out");
  tiling::PadTiling al;
  PadTilingFunc(ge::Shape({4, 16}), ge::Shape({4, 12}), 0, 4, al);
  ExpectCheck(
      [&](Ub& ub) {
        PadParams p(1, 2, 0);
        Pad(ub.Get<float>(1), ub.Get<float>(0), p, al);
      },
      "transform_params", "leftPad == 0");
  ExpectCheck(
      [&](Ub& ub) {
        PadParams p(0, 8, 0);
        Pad(ub.Get<float>(1), ub.Get<float>(0), p, al);
      },
      "transform_params", "below 32");
}

// The last group of an unaligned row holds tiling.widthFractalTailAlingned rows
// (pad_base_impl.h): srcWidth % G + leftPad + rightPad past it (G = 16 * tmpBuffer1BlockNum)
// leaves the kit's tmp2NeedRow short, and where leftPad (a row of one group) and rightPad alone
// pass it the count wraps. Checked mode refuses both; the wrap is refused unchecked too.
std::pair<std::string, std::string> PadCheckOf(const char* soc, bool checked, uint32_t w,
                                               uint16_t l, uint16_t r, uint32_t typeSize) {
  tiling::PadTiling t;
  uint32_t mx = 0, mn = 0;
  GetPadMaxMinTmpSize(ge::Shape({2, w}), typeSize, mx, mn);
  PadTilingFunc(ge::Shape({2, w}), ge::Shape({2, w}), mn, typeSize, t);
  lngrad::aicore::test::CheckedModeScope mode(checked);
  return lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        PadParams p(l, r, 0);
        if (typeSize == 2) {
          Pad(ub.Get<half>(1), ub.Get<half>(0), p, ub.Get<uint8_t>(2), t);
        } else {
          Pad(ub.Get<float>(1), ub.Get<float>(0), p, ub.Get<uint8_t>(2), t);
        }
      },
      soc);
}

TEST(TransformPad, LastGroupPastWidthFractalTailAlingnedIsRefused) {
  for (const char* soc : {k910B, k310P}) {
    SCOPED_TRACE(soc);
    EXPECT_EQ(PadCheckOf(soc, true, 29, 2, 1, 2).first, "");  // 32 rows in 32: fits
    // half, width 18, pads 15 and 15: 48 rows, the last group holds 16 or 32 (short).
    auto r = PadCheckOf(soc, true, 18, 15, 15, 2);
    EXPECT_EQ(r.first, "transform_params") << r.second;
    EXPECT_NE(r.second.find("widthFractalTailAlingned"), std::string::npos) << r.second;
    EXPECT_EQ(PadCheckOf(soc, false, 18, 15, 15, 2).first, "");  // unchecked: the kit's rows
    // float, width 3, pads 7 and 6: 13 pad rows in a last (and first) group of 8: wraps.
    for (bool checked : {true, false}) {
      r = PadCheckOf(soc, checked, 3, 7, 6, 4);
      EXPECT_EQ(r.first, "transform_params") << r.second;
      EXPECT_NE(r.second.find("widthFractalTailAlingned 8"), std::string::npos) << r.second;
    }
  }
}

// ----------------------------------------------------------------------------------------------
// Broadcast

template <typename T, int dim, int axis>
void CheckBroadcast(const char* soc, uint32_t rows, uint32_t cols) {
  SCOPED_TRACE(::testing::Message() << soc << " Broadcast dim " << dim << " axis " << axis << " "
                                    << rows << "x" << cols << " size " << sizeof(T));
  const uint32_t dst_shape[2] = {rows, cols};
  uint32_t src_shape[2] = {rows, cols};
  src_shape[axis] = 1;
  const uint32_t src_n = dim == 1 ? 1 : src_shape[0] * src_shape[1];
  const std::vector<T> src = Iota<T>(src_n, 3);
  const uint32_t dst_n = dim == 1 ? rows : rows * cols;
  std::vector<T> want(dst_n);
  for (uint32_t i = 0; i < dst_n; ++i) {
    const uint32_t r = dim == 1 ? 0 : i / cols, c = dim == 1 ? 0 : i % cols;
    want[i] = dim == 1 ? src[0] : (axis == 0 ? src[c] : src[r]);
  }
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        Broadcast<T, dim, axis>(ub.Get<T>(1), ub.Get<T>(0), dst_shape, src_shape, tmp);
        ExpectSame(Prefix(ub.Take<T>(1), want.size()), want, "Broadcast");
        Broadcast<T, dim, axis, true>(ub.Get<T>(3), ub.Get<T>(0), dst_shape, src_shape);
        ExpectSame(Prefix(ub.Take<T>(3), want.size()), want, "Broadcast (stack tmp, reuse)");
      },
      soc);
}

TEST(TransformBroadcast, OneAndTwoDimsAlongEitherAxis) {
  for (const char* soc : kSocs) {
    CheckBroadcast<float, 2, 0>(soc, 13, 40);
    CheckBroadcast<float, 2, 1>(soc, 21, 37);
    CheckBroadcast<half, 2, 0>(soc, 9, 48);
    CheckBroadcast<half, 2, 1>(soc, 17, 255);
    CheckBroadcast<int8_t, 2, 1>(soc, 20, 33);
    CheckBroadcast<int32_t, 1, 0>(soc, 77, 1);
  }
}

TEST(TransformBroadcast, CheckedModeRefusals) {
  ExpectCheck(
      [](Ub& ub) {
        const uint32_t d[2] = {4, 13}, s[2] = {1, 13};  // 13 floats: not 32-byte rows
        Broadcast<float, 2, 0>(ub.Get<float>(1), ub.Get<float>(0), d, s);
      },
      "transform_params", "multiple of 32");
  ExpectCheck(
      [](Ub& ub) {
        const uint32_t d[2] = {4, 16}, s[2] = {2, 16};
        Broadcast<float, 2, 0>(ub.Get<float>(1), ub.Get<float>(0), d, s);
      },
      "transform_params", "cannot broadcast");
  ExpectCheck(
      [](Ub& ub) {
        const uint32_t d[2] = {64, 16}, s[2] = {64, 1};
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(32);
        Broadcast<float, 2, 1>(ub.Get<float>(1), ub.Get<float>(0), d, s, tmp);
      },
      "transform_params", "minimum");
}

}  // namespace
