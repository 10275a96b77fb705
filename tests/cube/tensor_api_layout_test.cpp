// The tensor API's frame layouts (AscendC::Te::MakeFrameLayout) against a separate reading of the
// reference: each pattern written as the vendor's pages describe it, a nested (shape, stride)
// pair per dimension, and the index of a coordinate computed from that description by splitting
// the row and the column over their nested shapes (no code shared with src/cube/tensor_api.cpp).
// Slice: origins, extents and the tensor_api.slice check.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tensor_api/tensor.h"

namespace {

namespace te = AscendC::Te;

uint64_t Ceil(uint64_t x, uint64_t a) { return (x + a - 1) / a; }

// One dimension of a pattern: an inner (size, stride) and an outer (size, stride) mode; a
// coordinate x splits as x % inner size (inner) and x / inner size (outer).
struct Mode {
  uint64_t inner_size, inner_stride, outer_size, outer_stride;
  uint64_t Index(uint64_t x) const {
    return (x % inner_size) * inner_stride + (x / inner_size) * outer_stride;
  }
};
struct Described {
  Mode row, col;
  uint64_t Index(uint64_t r, uint64_t c) const { return row.Index(r) + col.Index(c); }
  uint64_t Size() const {
    return row.inner_size * row.outer_size * col.inner_size * col.outer_size;
  }
};

// The reference's patterns (rows r, columns c, c0 elements per 32-byte fractal row).
Described Nz(uint64_t r, uint64_t c, uint64_t c0) {
  return {{16, c0, Ceil(r, 16), c0 * 16}, {c0, 1, Ceil(c, c0), c0 * Ceil(r, 16) * 16}};
}
Described Zn(uint64_t r, uint64_t c, uint64_t c0) {
  return {{c0, 1, Ceil(r, c0), c0 * Ceil(c, 16) * 16}, {16, c0, Ceil(c, 16), c0 * 16}};
}
Described Zz(uint64_t r, uint64_t c, uint64_t c0) {
  return {{16, c0, Ceil(r, 16), 16 * Ceil(c, c0) * c0}, {c0, 1, Ceil(c, c0), c0 * 16}};
}
Described Nd(uint64_t r, uint64_t c) { return {{1, 0, r, c}, {1, 0, c, 1}}; }
Described Dn(uint64_t r, uint64_t c) { return {{1, 0, r, 1}, {1, 0, c, r}}; }

void ExpectSame(const te::FrameLayout& l, const Described& d, uint32_t rows, uint32_t cols,
                const std::string& what) {
  ASSERT_EQ(l.Capacity(), d.Size()) << what;
  for (uint32_t b = 0; b < l.batch; ++b) {
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < cols; ++c) {
        ASSERT_EQ(l.Index(b, r, c), b * d.Size() + d.Index(r, c))
            << what << " b " << b << " r " << r << " c " << c;
      }
    }
  }
}

TEST(TensorApiLayout, FractalPatternsFollowTheReference) {
  for (const auto& [r, c] :
       std::vector<std::pair<uint32_t, uint32_t>>{{16, 16}, {32, 64}, {20, 40}, {1, 7}, {48, 24}}) {
    ExpectSame(te::MakeFrameLayout<te::NZLayoutPtn>(r, c), Nz(r, c, 16), r, c, "NZ default");
    ExpectSame(te::MakeFrameLayout<te::NZLayoutPtn, float>(r, c), Nz(r, c, 8), r, c, "NZ float");
    ExpectSame(te::MakeFrameLayout<te::NZLayoutPtn, int8_t>(r, c), Nz(r, c, 32), r, c, "NZ s8");
    ExpectSame(te::MakeFrameLayout<te::ZNLayoutPtn, half>(r, c), Zn(r, c, 16), r, c, "ZN half");
    ExpectSame(te::MakeFrameLayout<te::ZNLayoutPtn, float>(r, c), Zn(r, c, 8), r, c, "ZN float");
    ExpectSame(te::MakeFrameLayout<te::ZZLayoutPtn, half>(r, c), Zz(r, c, 16), r, c, "ZZ half");
    ExpectSame(te::MakeFrameLayout<te::NZLayoutPtn, 32>(r, c), Nz(r, c, 32), r, c, "NZ C0 32");
  }
}

// The MX scales' patterns (c0 2 by default: e8m0 scales in K pairs); rows even where c0 splits
// them, as the reference requires.
TEST(TensorApiLayout, ScalePatternsFollowTheReference) {
  constexpr uint64_t kC0 = 2;
  for (const auto& [r, c] : std::vector<std::pair<uint32_t, uint32_t>>{{4, 16}, {8, 40}, {2, 6}}) {
    const Described nn{{kC0, 1, r / kC0, kC0 * 16}, {16, kC0, Ceil(c, 16), uint64_t{r} * 16}};
    ExpectSame(te::MakeFrameLayout<te::NNLayoutPtn>(r, c), nn, r, c, "NN");
    ExpectSame(te::MakeFrameLayout<te::ScaleANDLayoutPtn>(r, c), Nd(r, c), r, c, "ScaleAND");
    ExpectSame(te::MakeFrameLayout<te::ScaleBDNLayoutPtn>(r, c), Dn(r, c), r, c, "ScaleBDN");
    const Described adn{{1, 0, r, kC0}, {kC0, 1, c / kC0, kC0 * r}};
    ExpectSame(te::MakeFrameLayout<te::ScaleADNLayoutPtn>(r, c), adn, r, c, "ScaleADN");
    const Described bnd{{kC0, 1, r / kC0, kC0 * c}, {1, 0, c, kC0}};
    ExpectSame(te::MakeFrameLayout<te::ScaleBNDLayoutPtn>(r, c), bnd, r, c, "ScaleBND");
  }
}

TEST(TensorApiLayout, PlainPatternsAndBatches) {
  ExpectSame(te::MakeFrameLayout<te::NDExtLayoutPtn>(5, 7), Nd(5, 7), 5, 7, "NDExt");
  ExpectSame(te::MakeFrameLayout<te::NDLayoutPtn>(5, 7), Nd(5, 7), 5, 7, "ND");
  ExpectSame(te::MakeFrameLayout<te::DNExtLayoutPtn>(5, 7), Dn(5, 7), 5, 7, "DNExt");
  const te::FrameLayout nd = te::MakeFrameLayout<te::NDExtLayoutPtn>(3, 5, 7);
  ASSERT_EQ(nd.batch, 3u);
  ExpectSame(nd, Nd(5, 7), 5, 7, "batched ND");
  const te::FrameLayout nz = te::MakeFrameLayout<te::NZLayoutPtn, half>(2, 20, 40);
  ASSERT_EQ(nz.batch, 2u);
  ExpectSame(nz, Nz(20, 40, 16), 20, 40, "batched NZ");
}

// The feature-map patterns: row-major in their own dimension order; as matrices, h x w rows and
// c columns. NC1HWC0 (n, c1, h, w, c0): channel ch at (ch / c0, ..., ch % c0).
TEST(TensorApiLayout, FeatureMapPatterns) {
  constexpr uint32_t kN = 2, kC1 = 2, kH = 3, kW = 5, kC0 = 16, kC = kC1 * kC0;
  const te::FrameLayout nc1 = te::MakeFrameLayout<te::NC1HWC0LayoutPtn>(kN, kC1, kH, kW, kC0);
  const te::FrameLayout nchw = te::MakeFrameLayout<te::NCHWLayoutPtn>(kN, kC, kH, kW);
  const te::FrameLayout nhwc = te::MakeFrameLayout<te::NHWCLayoutPtn>(kN, kH, kW, kC);
  for (uint32_t n = 0; n < kN; ++n) {
    for (uint32_t h = 0; h < kH; ++h) {
      for (uint32_t w = 0; w < kW; ++w) {
        for (uint32_t ch = 0; ch < kC; ++ch) {
          const uint32_t row = h * kW + w;
          ASSERT_EQ(nc1.Index(n, row, ch),
                    (((uint64_t{n} * kC1 + ch / kC0) * kH + h) * kW + w) * kC0 + ch % kC0);
          ASSERT_EQ(nchw.Index(n, row, ch), ((uint64_t{n} * kC + ch) * kH + h) * kW + w);
          ASSERT_EQ(nhwc.Index(n, row, ch), ((uint64_t{n} * kH + h) * kW + w) * kC + ch);
        }
      }
    }
  }
}

TEST(TensorApiSlice, OriginAndExtentKeepTheLayout) {
  std::vector<half> data(64 * 64);
  auto t = te::MakeTensor(te::MakeMemPtr(data.data()),
                          te::MakeFrameLayout<te::NZLayoutPtn, half>(64, 64));
  auto s = t.Slice(te::MakeCoord(16, 32), te::MakeShape(32, 16))
               .Slice(te::MakeCoord(16, 0), te::MakeShape(16, 16));
  EXPECT_EQ(s.Origin().r, 32u);
  EXPECT_EQ(s.Origin().c, 32u);
  EXPECT_EQ(s.Extent().r, 16u);
  EXPECT_EQ(s.Extent().c, 16u);
  EXPECT_EQ(s.IndexOf(0, 3, 5), Nz(64, 64, 16).Index(35, 37));
  auto b =
      te::MakeTensor(te::MakeMemPtr(data.data()), te::MakeFrameLayout<te::NDExtLayoutPtn>(4, 8, 8));
  auto bs = b.Slice(te::MakeCoord(2, te::MakeCoord(1, 2)), te::MakeShape(2, te::MakeShape(3, 4)));
  EXPECT_EQ(bs.Extent().b, 2u);
  EXPECT_EQ(bs.IndexOf(1, 0, 0), 3u * 64 + 1 * 8 + 2);
}

TEST(TensorApiSlice, PastTheTensorIsNamed) {
  std::vector<float> data(32 * 32);
  auto t =
      te::MakeTensor(te::MakeMemPtr(data.data()), te::MakeFrameLayout<te::NDExtLayoutPtn>(32, 32));
  try {
    (void)t.Slice(te::MakeCoord(16, 8), te::MakeShape(17, 8));
    FAIL() << "a slice past the rows passed";
  } catch (const lngrad::aicore::KernelCheckError& e) {
    EXPECT_EQ(e.check(), "tensor_api.slice");
    EXPECT_NE(e.message().find("(0, 16, 8) + shape (1, 17, 8)"), std::string::npos) << e.message();
    lngrad::aicore::DismissKernelCheck(e);
  }
  lngrad::aicore::SetCheckedMode(false);  // the device does not check
  EXPECT_EQ(t.Slice(te::MakeCoord(16, 8), te::MakeShape(17, 8)).Extent().r, 17u);
  lngrad::aicore::SetCheckedMode(true);
}

}  // namespace
