// TransData (lib/transpose/transdata.h) and GetTransDataMaxMinTmpSize
// (tiling/transform/transdata_tiling.h): the four conversions' element maps on several shapes,
// both overloads, the scratch size the host function gives (exactly enough; one byte less is
// refused in checked mode), the host function's sizes and errors, and a Layout at a coordinate.
// The host header comes first here (the other transform tests include the kernel's first): the
// types both sides declare (DataFormat, TransDataConfig) must compile in either order.
#include "tiling/tiling_api.h"

#include "kernel_operator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "math_api_test_util.h"
#include "transform_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

struct TdShape {
  uint32_t n, c, d, h, w;
  uint32_t Hw() const { return h * w; }
  uint32_t Pad() const { return (Hw() + 15) / 16 * 16; }
  uint32_t N1() const { return (n + 15) / 16; }
  uint32_t C1() const { return (c + 15) / 16; }
  size_t NcElems() const { return size_t{n} * c * d * Pad(); }
  size_t FzElems() const { return size_t{N1()} * 16 * C1() * 16 * d * Hw(); }
  size_t HdElems() const { return size_t{n} * C1() * 16 * d * Hw(); }
  ge::Shape Ncdhw() const { return ge::Shape({n, c, d, h, w}); }
  ge::Shape Fz() const { return ge::Shape({d, C1(), h, w, N1(), 16, 16}); }
  ge::Shape Hd() const { return ge::Shape({n, d, C1(), h, w, 16}); }
};

// Tails in n, c and h * w; n and c multiples of 16 (FRACTAL_Z_3D -> NCDHW's smaller scratch);
// one of everything.
const TdShape kShapes[] = {{20, 19, 1, 2, 5}, {16, 16, 2, 2, 5}, {17, 3, 2, 3, 3}, {1, 1, 1, 1, 1}};

constexpr TransDataConfig kToFz = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
constexpr TransDataConfig kFromFz = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
constexpr TransDataConfig kTo6Hd = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
constexpr TransDataConfig kFrom6Hd = {DataFormat::NDC1HWC0, DataFormat::NCDHW};

// Offsets of element (n, c, d, hw) in each format, written from the formats' definitions.
size_t NcAt(const TdShape& s, uint32_t n, uint32_t c, uint32_t d, uint32_t hw) {
  return ((size_t{n} * s.c + c) * s.d + d) * s.Pad() + hw;
}
size_t FzAt(const TdShape& s, uint32_t n, uint32_t c, uint32_t d, uint32_t hw) {
  return (((size_t{d} * s.C1() + c / 16) * s.Hw() + hw) * s.N1() + n / 16) * 256 + n % 16 * 16 +
         c % 16;
}
size_t HdAt(const TdShape& s, uint32_t n, uint32_t c, uint32_t d, uint32_t hw) {
  return (((size_t{n} * s.d + d) * s.C1() + c / 16) * s.Hw() + hw) * 16 + c % 16;
}

uint32_t HostScratch(const char* soc, const TdShape& s, const TransDataConfig& config) {
  const auto& p = *platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  const bool from_nc = config.srcFormat == DataFormat::NCDHW;
  const DataFormat other = from_nc ? config.dstFormat : config.srcFormat;
  const ge::Shape packed = other == DataFormat::FRACTAL_Z_3D ? s.Fz() : s.Hd();
  uint32_t mx = 0, mn = 0;
  EXPECT_TRUE(GetTransDataMaxMinTmpSize(p, from_nc ? s.Ncdhw() : packed,
                                        from_nc ? packed : s.Ncdhw(), ge::DT_FLOAT16, config, mx,
                                        mn));
  EXPECT_EQ(mx, mn);
  return mn;
}

struct TdRun {
  std::string check, message;
  std::vector<uint16_t> out;
};

// One TransData<config> on one block: src of `in_n` elements, dst of `out_n` (pre-filled with
// 0x7777 to show what is left), and a sharedTmpBuffer of tmp_bytes (0: the overload without).
template <const TransDataConfig& config, typename T, typename L1, typename L2>
TdRun RunTd(const char* soc, const std::vector<T>& in, size_t out_n, uint32_t tmp_bytes,
            const L1& src_l, const L2& dst_l) {
  TdRun r;
  auto round = [](size_t bytes) { return static_cast<uint32_t>((bytes + 31) / 32 * 32); };
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        TPipe pipe;
        TBuf<> src_b, dst_b, tmp_b;
        pipe.InitBuffer(src_b, round(in.size() * sizeof(T)));
        pipe.InitBuffer(dst_b, round(out_n * sizeof(T)));
        if (tmp_bytes != 0) pipe.InitBuffer(tmp_b, round(tmp_bytes));
        LocalTensor<T> src = src_b.Get<T>(), dst = dst_b.Get<T>();
        std::copy(in.begin(), in.end(), src.HostPtr());
        std::fill_n(reinterpret_cast<uint16_t*>(dst.HostPtr()), out_n, uint16_t{0x7777});
        TransDataParams<L1, L2> params = {src_l, dst_l};
        try {
          if (tmp_bytes != 0) {
            LocalTensor<uint8_t> tmp = tmp_b.Get<uint8_t>();
            tmp.SetSize(tmp_bytes);
            TransData<config>(dst, src, tmp, params);
          } else {
            TransData<config>(dst, src, params);
          }
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          r.check = e.check();
          r.message = e.message();
        }
        const auto* o16 = reinterpret_cast<const uint16_t*>(dst.HostPtr());
        r.out.assign(o16, o16 + out_n);
      },
      o);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return r;
}

template <typename T>
std::vector<uint16_t> Bits16(const std::vector<T>& v) {
  std::vector<uint16_t> b(v.size());
  std::memcpy(b.data(), v.data(), v.size() * 2);
  return b;
}

template <typename T>
void CheckShape(const char* soc, const TdShape& s, bool with_tmp) {
  SCOPED_TRACE(::testing::Message() << soc << " n" << s.n << " c" << s.c << " d" << s.d << " h"
                                    << s.h << " w" << s.w << (with_tmp ? " tmp" : " stack"));
  const std::vector<T> nc = Iota<T>(s.NcElems());
  std::vector<T> fz(s.FzElems(), T(0)), hd(s.HdElems(), T(0));
  // FRACTAL_Z_3D -> NCDHW writes 0 in the P - HW columns of each row (the kit pads the fractal
  // with zeros first); NDC1HWC0 -> NCDHW writes there what its scratch held (stale bytes,
  // compared in replay.TransDataScratch.*), so only the real elements are compared for it.
  std::vector<uint16_t> back(s.NcElems(), 0);
  for (uint32_t n = 0; n < s.n; ++n) {
    for (uint32_t c = 0; c < s.c; ++c) {
      for (uint32_t d = 0; d < s.d; ++d) {
        for (uint32_t hw = 0; hw < s.Hw(); ++hw) {
          fz[FzAt(s, n, c, d, hw)] = nc[NcAt(s, n, c, d, hw)];
          hd[HdAt(s, n, c, d, hw)] = nc[NcAt(s, n, c, d, hw)];
          std::memcpy(&back[NcAt(s, n, c, d, hw)], &nc[NcAt(s, n, c, d, hw)], 2);
        }
      }
    }
  }
  auto nc_l = MakeLayout(MakeShape(s.n, s.c, s.d, s.h, s.w), MakeStride());
  auto fz_l = MakeLayout(MakeShape(s.d, s.C1(), s.h, s.w, s.N1(), 16u, 16u), MakeStride());
  auto hd_l = MakeLayout(MakeShape(s.n, s.d, s.C1(), s.h, s.w, 16u), MakeStride());
  auto tmp = [&](const TransDataConfig& c) { return with_tmp ? HostScratch(soc, s, c) : 0u; };
  TdRun r = RunTd<kToFz>(soc, nc, fz.size(), tmp(kToFz), nc_l, fz_l);
  EXPECT_EQ(r.check, "") << r.message;
  EXPECT_EQ(r.out, Bits16(fz)) << "NCDHW -> FRACTAL_Z_3D";
  r = RunTd<kFromFz>(soc, fz, back.size(), tmp(kFromFz), fz_l, nc_l);
  EXPECT_EQ(r.check, "") << r.message;
  EXPECT_EQ(r.out, back) << "FRACTAL_Z_3D -> NCDHW (the P - HW columns 0)";
  r = RunTd<kTo6Hd>(soc, nc, hd.size(), tmp(kTo6Hd), nc_l, hd_l);
  EXPECT_EQ(r.check, "") << r.message;
  EXPECT_EQ(r.out, Bits16(hd)) << "NCDHW -> NDC1HWC0";
  r = RunTd<kFrom6Hd>(soc, hd, back.size(), tmp(kFrom6Hd), hd_l, nc_l);
  EXPECT_EQ(r.check, "") << r.message;
  for (size_t i = 0; i < back.size() && i < r.out.size(); ++i) {
    if (i % s.Pad() < s.Hw()) {
      ASSERT_EQ(r.out[i], back[i]) << "NDC1HWC0 -> NCDHW, element " << i;
    }
  }
}

TEST(TransformTransData, AllFourConversions) {
  for (const char* soc : kTransformSocs) {
    for (const TdShape& s : kShapes) {
      CheckShape<half>(soc, s, true);
      CheckShape<int16_t>(soc, s, false);
    }
    CheckShape<bfloat16_t>(soc, kShapes[0], true);
    CheckShape<uint16_t>(soc, kShapes[2], false);
  }
}

// Checked mode: a sharedTmpBuffer one byte short of GetTransDataMaxMinTmpSize is refused, and
// so is a stack buffer too small for the conversion; the output is not touched.
TEST(TransformTransData, ScratchTooSmallIsRefused) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  const TdShape& s = kShapes[0];
  const std::vector<half> nc = Iota<half>(s.NcElems());
  auto nc_l = MakeLayout(MakeShape(s.n, s.c, s.d, s.h, s.w), MakeStride());
  auto fz_l = MakeLayout(MakeShape(s.d, s.C1(), s.h, s.w, s.N1(), 16u, 16u), MakeStride());
  for (const char* soc : kTransformSocs) {
    SCOPED_TRACE(soc);
    const uint32_t need = HostScratch(soc, s, kToFz);
    const TdRun r = RunTd<kToFz>(soc, nc, s.FzElems(), need - 1, nc_l, fz_l);
    EXPECT_EQ(r.check, "transform_params");
    EXPECT_NE(r.message.find("TransData: the scratch holds " + std::to_string(need - 1) +
                             " bytes, less than the " + std::to_string(need)),
              std::string::npos)
        << r.message;
    EXPECT_EQ(r.out, std::vector<uint16_t>(s.FzElems(), 0x7777));
  }
  // The whole UB is 192 KiB on the 910B: a scratch of 2 * 2 * 16 * 2 * 16 * 4 * 16 * 2 * 2 bytes
  // (FRACTAL_Z_3D -> NCDHW, n and c with tails) cannot come from the stack buffer.
  const TdShape big{20, 19, 4, 2, 5};
  std::vector<half> fz(big.FzElems(), half(1.0f));
  auto big_nc = MakeLayout(MakeShape(big.n, big.c, big.d, big.h, big.w), MakeStride());
  auto big_fz =
      MakeLayout(MakeShape(big.d, big.C1(), big.h, big.w, big.N1(), 16u, 16u), MakeStride());
  const TdRun r = RunTd<kFromFz>(k910B, fz, big.NcElems(), 0, big_fz, big_nc);
  EXPECT_EQ(r.check, "transform_params");
  EXPECT_NE(r.message.find("less than the 262144 this conversion lays out"), std::string::npos)
      << r.message;
  lngrad::aicore::SetCheckedMode(was);
}

// The page lists the 950 and Atlas A2/A3 only; elsewhere the kit compiles TransData to nothing:
// checked mode refuses it (naming the products), unchecked the output stays as it was.
TEST(TransformTransData, OtherProductsAreRefusedAndLeaveTheOutput) {
  const TdShape& s = kShapes[0];
  const std::vector<half> nc = Iota<half>(s.NcElems());
  auto nc_l = MakeLayout(MakeShape(s.n, s.c, s.d, s.h, s.w), MakeStride());
  auto fz_l = MakeLayout(MakeShape(s.d, s.C1(), s.h, s.w, s.N1(), 16u, 16u), MakeStride());
  const bool was = lngrad::aicore::CheckedMode();
  for (const char* soc : {k310P, "Ascend910A", "Ascend310B1"}) {
    SCOPED_TRACE(soc);
    lngrad::aicore::SetCheckedMode(true);
    TdRun r = RunTd<kToFz>(soc, nc, s.FzElems(), 1 << 16, nc_l, fz_l);
    EXPECT_EQ(r.check, "transform_params");
    EXPECT_NE(r.message.find("TransData: exists on Ascend 950 and Atlas A2/A3 (arch 3510, 2201)"),
              std::string::npos)
        << r.message;
    lngrad::aicore::SetCheckedMode(false);
    r = RunTd<kToFz>(soc, nc, s.FzElems(), 1 << 16, nc_l, fz_l);
    EXPECT_EQ(r.check, "") << r.message;
    EXPECT_EQ(r.out, std::vector<uint16_t>(s.FzElems(), 0x7777));
  }
  lngrad::aicore::SetCheckedMode(was);
}

// ----------------------------------------------------------------------------------------------
// GetTransDataMaxMinTmpSize: n = 20, c = 19, d = 2, h = 2, w = 5: N1 = C1 = 2, HW = 10, P = 16.

TEST(TransformTiling, TransDataSizes) {
  const TdShape s{20, 19, 2, 2, 5};
  for (const char* soc : kTransformSocs) {
    SCOPED_TRACE(soc);
    // 2*D*P + 2*D*C1*16*P
    EXPECT_EQ(HostScratch(soc, s, kTo6Hd), 2u * 2 * 16 + 2u * 2 * 2 * 16 * 16);
    // 2*D*C1*16*P + 512
    EXPECT_EQ(HostScratch(soc, s, kFrom6Hd), 2u * 2 * 2 * 16 * 16 + 512);
    // max(2*C*D*P = 1216, 2*D*HW*N1*16 = 1280) + 2*N1*16*D*C1*16*P
    EXPECT_EQ(HostScratch(soc, s, kToFz), 1280u + 2u * 2 * 16 * 2 * 2 * 16 * 16);
    // 2*N1*16*C1*16*D*P, doubled: n and c are not multiples of 16
    EXPECT_EQ(HostScratch(soc, s, kFromFz), 2u * (2u * 2 * 16 * 2 * 16 * 2 * 16));
    EXPECT_EQ(HostScratch(soc, {32, 16, 2, 2, 5}, kFromFz), 2u * 2 * 16 * 1 * 16 * 2 * 16);
  }
}

TEST(TransformTiling, TransDataErrors) {
  const auto& a2 = *platform_ascendc::PlatformAscendCManager::GetInstance(k910B);
  const TdShape s{20, 19, 2, 2, 5};
  struct Case {
    const char* soc;
    ge::Shape src, dst;
    ge::DataType type;
    TransDataConfig config;
    const char* needle;
  };
  const Case cases[] = {
      {k910B, s.Ncdhw(), s.Fz(), ge::DT_FLOAT, kToFz, "only supports DT_FLOAT16/DT_BF16"},
      {k910B,
       s.Ncdhw(),
       s.Fz(),
       ge::DT_FLOAT16,
       {DataFormat::ND, DataFormat::NZ},
       "srcFormat/dstFormat only supports"},
      {k310P, s.Ncdhw(), s.Fz(), ge::DT_INT16, kToFz, "Unsupported NpuArch for TransData API"},
      {k910B, s.Ncdhw(), s.Hd(), ge::DT_BF16, kToFz, "input shapes are not matched"},
      {k910B, s.Ncdhw(), ge::Shape({3, 2, 2, 5, 2, 16, 16}), ge::DT_FLOAT16, kToFz,
       "d,h,w is not matched"},
      {k910B, s.Ncdhw(), ge::Shape({2, 3, 2, 5, 2, 16, 16}), ge::DT_FLOAT16, kToFz,
       "c0, c1 is not able to be converted to c"},
      {k910B, s.Fz(), ge::Shape({33, 19, 2, 2, 5}), ge::DT_UINT16, kFromFz,
       "n0, n1 is not able to be converted to n"},
      {k910B, s.Hd(), ge::Shape({21, 19, 2, 2, 5}), ge::DT_FLOAT16, kFrom6Hd,
       "n,d,h,w is not matched"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.needle);
    const auto& p = *platform_ascendc::PlatformAscendCManager::GetInstance(c.soc);
    uint32_t mx = 7, mn = 9;
    ::testing::internal::CaptureStderr();
    EXPECT_FALSE(GetTransDataMaxMinTmpSize(p, c.src, c.dst, c.type, c.config, mx, mn));
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(std::string("[TransData][GetTransDataMaxMinTmpSize] ")), std::string::npos)
        << err;
    EXPECT_NE(err.find(c.needle), std::string::npos) << err;
    EXPECT_EQ(mx, 7u);
    EXPECT_EQ(mn, 9u);
    EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
  }
  uint32_t mx = 0, mn = 0;
  EXPECT_TRUE(GetTransDataMaxMinTmpSize(a2, s.Ncdhw(), s.Hd(), ge::DT_BF16, kTo6Hd, mx, mn));
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok());
}

// Coord, MakeCoord and a Layout at a coordinate (lib/transpose/coord.h; the kit's
// matmul_l2cache): the flat index sum of coord_i x stride_i, written out here.
TEST(TransformLayout, LayoutMapsAFlatCoordinateToItsIndex) {
  const auto layout = AscendC::MakeLayout(AscendC::MakeShape(int64_t{30}, int64_t{40}),
                                          AscendC::MakeStride(int64_t{40}, int64_t{1}));
  const AscendC::Coord<int64_t, int64_t> c = AscendC::MakeCoord(int64_t{7}, int64_t{11});
  EXPECT_EQ(layout(c), 7 * 40 + 11);
  static_assert(AscendC::Crd2Idx(AscendC::MakeCoord(2, 3, 4), std::make_tuple(100, 10, 1)) == 234);
  EXPECT_EQ(AscendC::MakeLayout(AscendC::MakeShape(4, 5),
                                AscendC::MakeStride(1, 4))(AscendC::MakeCoord(3, 2)),
            3 + 2 * 4);
}

}  // namespace
