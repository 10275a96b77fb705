// LoadData 3Dv2 against an img2col written here from the vendor's definition (load3d.py): an
// NC1HWC0 feature map with padding, strides and dilation, into L0A (A = E, or E^T with
// enTranspose) and L0B (B = E), read back through the layouts of docs/ascendc_kernels.md.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"

namespace {

using AscendC::TPosition;

struct Conv {
  uint32_t c1 = 2, h = 9, w = 10;  // feature map: C1 x H x W x C0 (C0 = 16 halves)
  uint8_t pad[4] = {1, 0, 2, 1};   // left, right, top, bottom
  uint32_t kh = 2, kw = 3, sh = 2, sw = 1, dh = 1, dw = 2;
};
constexpr uint32_t kC0 = 16;
constexpr int16_t kPad = -7;

int16_t Feature(uint32_t c1, uint32_t y, uint32_t x, uint32_t c) {
  return static_cast<int16_t>((c1 * 31 + y * 7 + x * 3 + c) % 97 - 40);
}

// E(m, k) of the definition: m = ho * Wout + wo, k = (c1, kernel point, c0).
int16_t Img2col(const Conv& v, uint32_t m, uint32_t k, uint32_t wout) {
  const uint32_t points = v.kh * v.kw, c1 = k / (points * kC0), pt = k / kC0 % points;
  const int64_t y = int64_t{m / wout} * v.sh + int64_t{pt / v.kw} * v.dh - v.pad[2];
  const int64_t x = int64_t{m % wout} * v.sw + int64_t{pt % v.kw} * v.dw - v.pad[0];
  if (y < 0 || x < 0 || y >= v.h || x >= v.w) return kPad;
  return Feature(c1, static_cast<uint32_t>(y), static_cast<uint32_t>(x), k % kC0);
}

AscendC::LoadData3DParamsV2<int16_t> Params(const Conv& v, uint32_t m_ext, uint32_t k_ext) {
  AscendC::LoadData3DParamsV2<int16_t> p;
  for (int i = 0; i < 4; ++i) p.padList[i] = v.pad[i];
  p.l1H = static_cast<uint16_t>(v.h);
  p.l1W = static_cast<uint16_t>(v.w);
  p.channelSize = static_cast<uint16_t>(v.c1 * kC0);
  p.kExtension = static_cast<uint16_t>(k_ext);
  p.mExtension = static_cast<uint16_t>(m_ext);
  p.strideW = static_cast<uint8_t>(v.sw);
  p.strideH = static_cast<uint8_t>(v.sh);
  p.filterW = static_cast<uint8_t>(v.kw);
  p.filterH = static_cast<uint8_t>(v.kh);
  p.dilationFilterW = static_cast<uint8_t>(v.dw);
  p.dilationFilterH = static_cast<uint8_t>(v.dh);
  p.padValue = kPad;
  return p;
}

TEST(LoadData3d, Img2colIntoL0aAndL0b) {
  const Conv v;
  const uint32_t hout = (v.h + v.pad[2] + v.pad[3] - ((v.kh - 1) * v.dh + 1)) / v.sh + 1;
  const uint32_t wout = (v.w + v.pad[0] + v.pad[1] - ((v.kw - 1) * v.dw + 1)) / v.sw + 1;
  const uint32_t m_ext = 32, k_ext = v.c1 * v.kh * v.kw * kC0;  // 192
  ASSERT_GE(hout * wout, m_ext);
  AscendC::LocalTensor<int16_t> fm(TPosition::A1, 0, v.c1 * v.h * v.w * kC0);
  int16_t* f = static_cast<int16_t*>(fm.GetPhyAddr());
  for (uint32_t c1 = 0; c1 < v.c1; ++c1)
    for (uint32_t y = 0; y < v.h; ++y)
      for (uint32_t x = 0; x < v.w; ++x)
        for (uint32_t c = 0; c < kC0; ++c)
          f[((c1 * v.h + y) * v.w + x) * kC0 + c] = Feature(c1, y, x, c);
  AscendC::LocalTensor<int16_t> a(TPosition::A2, 0, m_ext * k_ext);
  AscendC::LoadData(a, fm, Params(v, m_ext, k_ext));
  const int16_t* pa = static_cast<int16_t*>(a.GetPhyAddr());
  const uint32_t kc = k_ext / kC0, mc = m_ext / 16;
  for (uint32_t m = 0; m < m_ext; ++m) {
    for (uint32_t k = 0; k < k_ext; ++k) {
      ASSERT_EQ(pa[((m / 16) * kc + k / kC0) * 256 + (m % 16) * kC0 + k % kC0],
                Img2col(v, m, k, wout))
          << m << "," << k;
    }
  }
  auto p = Params(v, m_ext, k_ext);
  p.enTranspose = true;  // A = E^T: rows k, columns m
  AscendC::LoadData(a, fm, p);
  for (uint32_t k = 0; k < k_ext; ++k) {
    for (uint32_t m = 0; m < m_ext; ++m) {
      ASSERT_EQ(pa[((k / 16) * mc + m / 16) * 256 + (k % 16) * 16 + m % 16],
                Img2col(v, m, k, wout));
    }
  }
  AscendC::LocalTensor<int16_t> b(TPosition::B2, 0, m_ext * k_ext);
  AscendC::LoadData(b, fm, Params(v, m_ext, k_ext));  // B = E: B's k is E's m
  const int16_t* pb = static_cast<int16_t*>(b.GetPhyAddr());
  const uint32_t nb = k_ext / 16;
  for (uint32_t m = 0; m < m_ext; ++m) {
    for (uint32_t k = 0; k < k_ext; ++k) {
      ASSERT_EQ(pb[((m / kC0) * nb + k / 16) * 256 + (k % 16) * kC0 + m % kC0],
                Img2col(v, m, k, wout));
    }
  }
}

TEST(LoadData3d, FmatrixAndPaddingFromTheirSetters) {
  const Conv v;
  AscendC::LocalTensor<int16_t> fm(TPosition::B1, 0, v.c1 * v.h * v.w * kC0);
  AscendC::LocalTensor<int16_t> a(TPosition::A2, 0, 32 * 192);
  auto p = Params(v, 32, 192);
  AscendC::SetFmatrix(static_cast<uint16_t>(v.h), static_cast<uint16_t>(v.w), v.pad,
                      AscendC::FmatrixMode::FMATRIX_LEFT);
  AscendC::SetLoadDataPaddingValue<int16_t>(5);
  p.l1H = 1;  // ignored: the config takes the feature map from SetFmatrix
  p.padValue = 0;
  static constexpr AscendC::IsResetLoad3dConfig kFromSetters = {false, false};
  AscendC::LoadData<int16_t, kFromSetters>(a, fm, p);
  EXPECT_EQ(static_cast<int16_t*>(a.GetPhyAddr())[0], 5);  // (0, 0) lies in the top padding
}

// The packed form: the same img2col with the feature map and pad value from their setters and the
// extensions, starts, filter and strides packed into extConfig and filterConfig (the reference's
// bit layout, written out here field by field).
TEST(LoadData3d, PackedParamsV2ProMatchTheDefinition) {
  const Conv v;
  const uint32_t wout = (v.w + v.pad[0] + v.pad[1] - ((v.kw - 1) * v.dw + 1)) / v.sw + 1;
  AscendC::LocalTensor<int16_t> fm(TPosition::A1, 0, v.c1 * v.h * v.w * kC0);
  int16_t* f = static_cast<int16_t*>(fm.GetPhyAddr());
  for (uint32_t i = 0; i < v.c1 * v.h * v.w * kC0; ++i) {
    f[i] = Feature(i / (v.h * v.w * kC0), i / (v.w * kC0) % v.h, i / kC0 % v.w, i % kC0);
  }
  AscendC::SetFmatrix(static_cast<uint16_t>(v.h), static_cast<uint16_t>(v.w), v.pad,
                      AscendC::FmatrixMode::FMATRIX_LEFT);
  AscendC::SetLoadDataPaddingValue<int16_t>(kPad);
  const uint64_t m_start = 5, k_start = 32, m_ext = 32, k_ext = 64;
  AscendC::LoadData3DParamsV2Pro p;
  p.channelSize = static_cast<uint16_t>(v.c1 * kC0);
  p.extConfig = m_start << 48 | k_start << 32 | m_ext << 16 | k_ext;
  p.filterConfig = uint64_t{v.dh} << 40 | uint64_t{v.dw} << 32 | uint64_t{v.kh} << 24 |
                   uint64_t{v.kw} << 16 | uint64_t{v.sh} << 8 | v.sw;
  AscendC::LocalTensor<int16_t> a(TPosition::A2, 0, m_ext * k_ext);
  AscendC::LoadData(a, fm, p);
  const int16_t* pa = static_cast<int16_t*>(a.GetPhyAddr());
  for (uint32_t m = 0; m < m_ext; ++m) {
    for (uint32_t k = 0; k < k_ext; ++k) {
      ASSERT_EQ(pa[((m / 16) * (k_ext / kC0) + k / kC0) * 256 + (m % 16) * kC0 + k % kC0],
                Img2col(v, m + m_start, k + k_start, wout))
          << m << "," << k;
    }
  }
}

// SetLoadDataBoundary (Atlas A2/A3): a read at or past the boundary continues at L1's start. A
// 1x1 kernel over C1 = 2 channel blocks of 32 x 1 x 16 halves (1024 bytes each) with the
// boundary at 1024: the second block's columns read the first block's bytes.
TEST(LoadData3d, BoundaryWrapsReadsToTheStartOfL1) {
  AscendC::LocalTensor<int16_t> fm(TPosition::A1, 0, 2 * 32 * kC0);
  int16_t* f = static_cast<int16_t*>(fm.GetPhyAddr());
  for (uint32_t i = 0; i < 2 * 32 * kC0; ++i) f[i] = static_cast<int16_t>(i);
  const uint8_t pad[4] = {0, 0, 0, 0};
  AscendC::SetFmatrix(32, 1, pad, AscendC::FmatrixMode::FMATRIX_LEFT);
  AscendC::LoadData3DParamsV2Pro p;
  p.channelSize = 32;
  p.extConfig = uint64_t{32} << 16 | 32;
  AscendC::LocalTensor<int16_t> a(TPosition::A2, 0, 32 * 32);
  const int16_t* pa = static_cast<int16_t*>(a.GetPhyAddr());
  for (const uint32_t boundary : {1024u, 0u}) {
    AscendC::SetLoadDataRepeat({0, 1, 0});
    AscendC::SetLoadDataBoundary(boundary);
    AscendC::LoadData(a, fm, p);
    for (uint32_t m = 0; m < 32; ++m) {
      for (uint32_t k = 0; k < 32; ++k) {
        const uint32_t byte = ((k / kC0) * 32 + m) * kC0 * 2 + (k % kC0) * 2;  // E(m, k) in L1
        const uint32_t read = boundary != 0 ? byte % boundary : byte;
        ASSERT_EQ(pa[((m / 16) * 2 + k / kC0) * 256 + (m % 16) * kC0 + k % kC0], read / 2)
            << boundary << ": " << m << "," << k;
      }
    }
  }
  EXPECT_NE(lngrad::cube::test::RunOn("Ascend910B1", [] { AscendC::SetLoadDataBoundary(512); })
                .find("[cube.params] SetLoadDataBoundary: boundaryValue 512 is below 1024"),
            std::string::npos);
  EXPECT_NE(lngrad::cube::test::RunOn("Ascend950PR_9599", [] { AscendC::SetLoadDataBoundary(0); })
                .find("not on the Ascend 950"),
            std::string::npos);
}

}  // namespace
