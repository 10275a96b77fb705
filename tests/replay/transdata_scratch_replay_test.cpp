// TransData's four conversions on Ascend910B1 (2201) and the 950 (the same transdata_impl.h)
// against the replay of the kit's sequences (replay_transdata_scratch.h): dst with 40 elements
// past it, src and the whole scratch byte for byte, with a sharedTmpBuffer (GetTransDataMax-
// MinTmpSize's size, that plus 44 bytes, that plus 4 KiB) or the stack buffer left at exactly
// that size, shapes with tails in n, c and h * w and aligned ones, half, bfloat16_t, uint16_t
// and int16_t, random bits with NaN, infinities, zeros and subnormals. The scratch and dst hold
// a fill pattern before the call (the sequence reads stale scratch bytes into dst's padding).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "replay_transdata_scratch.h"
#include "scratch_ub_harness.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rd = lngrad_replay::transdata_scratch;
namespace st = lngrad_replay::scratch_test;
using namespace AscendC;

constexpr uint32_t kPast = 40;

struct Shape5 {
  uint32_t n, c, d, h, w;
  uint32_t Hw() const { return h * w; }
  uint32_t Pad() const { return (Hw() + 15) / 16 * 16; }
  uint32_t N1() const { return (n + 15) / 16; }
  uint32_t C1() const { return (c + 15) / 16; }
  size_t NcElems() const { return size_t{n} * c * d * Pad(); }
  size_t FzElems() const { return size_t{N1()} * 16 * C1() * 16 * d * Hw(); }
  size_t HdElems() const { return size_t{n} * C1() * 16 * d * Hw(); }
};

constexpr TransDataConfig kToFz = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
constexpr TransDataConfig kFromFz = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
constexpr TransDataConfig kTo6Hd = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
constexpr TransDataConfig kFrom6Hd = {DataFormat::NDC1HWC0, DataFormat::NCDHW};

uint32_t HostScratch(const char* soc, const Shape5& s, const TransDataConfig& config) {
  const auto& p = *platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  const bool from_nc = config.srcFormat == DataFormat::NCDHW;
  const bool fz = (from_nc ? config.dstFormat : config.srcFormat) == DataFormat::FRACTAL_Z_3D;
  const ge::Shape nc({s.n, s.c, s.d, s.h, s.w});
  const ge::Shape packed = fz ? ge::Shape({s.d, s.C1(), s.h, s.w, s.N1(), 16, 16})
                              : ge::Shape({s.n, s.d, s.C1(), s.h, s.w, 16});
  uint32_t mx = 0, mn = 0;
  EXPECT_TRUE(GetTransDataMaxMinTmpSize(p, from_nc ? nc : packed, from_nc ? packed : nc,
                                        ge::DT_FLOAT16, config, mx, mn));
  return mn;
}

template <class T>
std::vector<uint16_t> Inputs(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<uint16_t> v(n);
  for (uint16_t& x : v) x = static_cast<uint16_t>(gen());
  const uint16_t half_s[] = {0x7E00, 0xFC00, 0x7C00, 0x8000, 0x0000, 0x0001, 0x83FF, 0x7C01};
  const uint16_t bf_s[] = {0x7FC0, 0xFF80, 0x7F80, 0x8000, 0x0000, 0x0001, 0x807F, 0x7F81};
  for (size_t i = 0; i < 8 && i < n; ++i) {
    v[i] = std::is_same_v<T, bfloat16_t> ? bf_s[i] : half_s[i];
  }
  return v;
}

// One conversion: the replay's images, then lngrad's, compared.
template <const TransDataConfig& config, class T, class L1, class L2>
void Case(const char* soc, const Shape5& s, size_t src_n, size_t dst_n, uint32_t tmp_bytes,
          bool stack, const L1& src_l, const L2& dst_l, bool (*replay)(const rd::Dims&, rd::Ub&),
          const char* name) {
  SCOPED_TRACE(::testing::Message()
               << name << " on " << soc << " n" << s.n << " c" << s.c << " d" << s.d << " h" << s.h
               << " w" << s.w << " scratch " << tmp_bytes << (stack ? " (stack)" : ""));
  const std::vector<uint16_t> src = Inputs<T>(src_n, s.n * 131 + s.c * 17 + s.d + s.h * s.w);
  const st::UbImages in = st::StartImages(st::BytesOf(src), (dst_n + kPast) * 2, tmp_bytes);
  st::UbImages want = in;
  rd::Ub ub(want.src.data(), want.src.size(), want.dst.data(), dst_n * 2, want.tmp.data(),
            tmp_bytes);
  const rd::Dims m{static_cast<int32_t>(s.n), static_cast<int32_t>(s.c), static_cast<int32_t>(s.d),
                   static_cast<int32_t>(s.h), static_cast<int32_t>(s.w)};
  ASSERT_TRUE(replay(m, ub)) << "the replay left its buffers";
  const st::UbImages got = st::RunOnUb<T>(
      soc, in, stack,
      [&](LocalTensor<T>& d, LocalTensor<T>& sr, LocalTensor<uint8_t>& tmp, bool on_stack) {
        TransDataParams<L1, L2> params = {src_l, dst_l};
        if (on_stack) {
          TransData<config>(d, sr, params);
        } else {
          TransData<config>(d, sr, tmp, params);
        }
      });
  st::ExpectUbImages(got, want, 1, name);
}

template <class T>
void Sweep(const char* soc, const Shape5& s) {
  auto nc_l = MakeLayout(MakeShape(s.n, s.c, s.d, s.h, s.w), MakeStride());
  auto fz_l = MakeLayout(MakeShape(s.d, s.C1(), s.h, s.w, s.N1(), 16u, 16u), MakeStride());
  auto hd_l = MakeLayout(MakeShape(s.n, s.d, s.C1(), s.h, s.w, 16u), MakeStride());
  for (const bool stack : {false, true}) {
    for (const uint32_t extra : {0u, 44u, 4096u}) {
      if (stack && extra % 32 != 0) continue;
      const uint32_t a = HostScratch(soc, s, kToFz) + extra;
      Case<kToFz, T>(soc, s, s.NcElems(), s.FzElems(), a, stack, nc_l, fz_l, rd::NcdhwToFractal,
                     "NCDHW -> FRACTAL_Z_3D");
      const uint32_t b = HostScratch(soc, s, kFromFz) + extra;
      Case<kFromFz, T>(soc, s, s.FzElems(), s.NcElems(), b, stack, fz_l, nc_l, rd::FractalToNcdhw,
                       "FRACTAL_Z_3D -> NCDHW");
      const uint32_t c = HostScratch(soc, s, kTo6Hd) + extra;
      Case<kTo6Hd, T>(soc, s, s.NcElems(), s.HdElems(), c, stack, nc_l, hd_l, rd::NcdhwTo6Hd,
                      "NCDHW -> NDC1HWC0");
      const uint32_t e = HostScratch(soc, s, kFrom6Hd) + extra;
      Case<kFrom6Hd, T>(soc, s, s.HdElems(), s.NcElems(), e, stack, hd_l, nc_l, rd::SixHdToNcdhw,
                        "NDC1HWC0 -> NCDHW");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// Tails in n, c and h * w (one of each alone), n and c multiples of 16 (FRACTAL_Z_3D -> NCDHW's
// aligned path), h * w a multiple of 16 (NCDHW -> FRACTAL_Z_3D straight into dst), one of
// everything, several d.
const Shape5 kShapes[] = {{20, 19, 1, 2, 5}, {16, 16, 2, 2, 5}, {17, 3, 2, 3, 3},
                          {1, 1, 1, 1, 1},   {16, 32, 1, 4, 4}, {3, 5, 3, 4, 8},
                          {32, 16, 2, 1, 7}, {5, 40, 2, 4, 4}};

template <class T>
void All() {
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9589"}) {
    for (const Shape5& s : kShapes) {
      Sweep<T>(soc, s);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(TransDataScratch, Half) { All<half>(); }
TEST(TransDataScratch, Bfloat16) { All<bfloat16_t>(); }
TEST(TransDataScratch, Uint16AndInt16) {
  All<uint16_t>();
  All<int16_t>();
}

}  // namespace
