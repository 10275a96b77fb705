// What CumSum leaves in its scratch on arch 2201 (Ascend910B1) and 2002 (Ascend310P1) against the
// replay of the kit's cumsum_common_impl.h (replay_cumsum_reduce_scratch.h): both axes, float and
// half, the sharedTmpBuffer overload and the one that pops the stack buffer (the TPipe sized so
// that it leaves exactly the scratch's bytes), scratch sizes from the minimum (one chunk of 16
// rows) to many chunks, one no multiple of 32, row counts whose tail is no multiple of the chunk or
// of 16, inputs with NaN, +-inf, +-0 and subnormals. Compared bit for bit: the whole scratch (the
// bytes the kit's code does not write keep their 0xa5 fill), dst with 40 elements past it, lastRow
// with 40 past it, and src (unchanged). Zero rows: checked mode refuses them (kInvalidCount), as
// the kit's tiling does, so no count 0 is run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_cumsum_reduce_scratch.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::CumSumConfig;
using AscendC::CumSumInfo;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;

constexpr uint8_t kFill = 0xa5;
constexpr uint32_t kPast = 40;
const char* const kSocs[] = {"Ascend910B1", "Ascend310P1"};

template <class T>
using R = std::conditional_t<sizeof(T) == 2, rp::Half, float>;

template <class T>
T Sentinel() {
  const uint32_t bits = sizeof(T) == 2 ? 0x5a5bu : 0x5a5b5c5du;
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

template <class T>
std::vector<uint8_t> Bytes(const T* p, size_t n) {
  const auto* b = reinterpret_cast<const uint8_t*>(p);
  return std::vector<uint8_t>(b, b + n * sizeof(T));
}

struct Got {
  std::vector<uint8_t> dst, last, src, tmp;
};

template <class T, const CumSumConfig& kCfg>
Got RunKernel(const char* soc, const std::vector<T>& in, CumSumInfo info, uint32_t tmpBytes,
              bool stack) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const uint32_t n = info.outter * info.inner, nd = n + kPast, nl = info.inner + kPast;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bl, bt, filler;
    pipe.InitBuffer(bs, Aligned32(n * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(nd * sizeof(T)));
    pipe.InitBuffer(bl, Aligned32(nl * sizeof(T)));
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<T> s = bs.Get<T>(n), d = bd.Get<T>(nd), l = bl.Get<T>(nl);
    std::copy(in.begin(), in.end(), s.HostPtr());
    std::fill(d.HostPtr(), d.HostPtr() + nd, Sentinel<T>());
    std::fill(l.HostPtr(), l.HostPtr() + nl, Sentinel<T>());
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    if (stack) {
      AscendC::CumSum<T, kCfg>(d, l, s, info);
    } else {
      AscendC::CumSum<T, kCfg>(d, l, s, tmp, info);
    }
    g.dst = Bytes(d.HostPtr(), nd);
    g.last = Bytes(l.HostPtr(), nl);
    g.src = Bytes(s.HostPtr(), n);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

void ExpectSame(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const auto at = std::mismatch(got.begin(), got.end(), want.begin());
  if (at.first == got.end()) return;
  const size_t i = static_cast<size_t>(at.first - got.begin());
  ADD_FAILURE() << what << ": byte " << i << " of " << got.size() << " differs: lngrad 0x"
                << std::hex << int{got[i]} << ", replay 0x" << int{want[i]};
}

// outer x inner values in [-4, 4) with the specials at random places (about one in 200).
template <class T>
std::vector<T> Mixed(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  std::uniform_int_distribution<int> pick(0, 1999);
  const float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -1e-40f, 3e-6f, -6e-8f, 6e4f};
  std::vector<T> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    x = T(k < 10 ? sp[k] : u(gen));
  }
  for (size_t i = 0; i < n; i += 7) v[i] = T(-0.0f);  // row starts and others
  return v;
}

template <class T, const CumSumConfig& kCfg>
void Compare(const char* soc, CumSumInfo info, uint32_t tmpBytes, bool stack, uint32_t seed) {
  const std::string what = std::string("CumSum<") + (sizeof(T) == 2 ? "half" : "float") + ", " +
                           (kCfg.isLastAxis ? "last" : "first") + " axis> on " + soc + ", [" +
                           std::to_string(info.outter) + ", " + std::to_string(info.inner) +
                           "], scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : " (sharedTmpBuffer)");
  const uint32_t n = info.outter * info.inner;
  const std::vector<T> in = Mixed<T>(seed, n);
  std::vector<T> want_dst(n + kPast, Sentinel<T>()), want_last(info.inner + kPast, Sentinel<T>());
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  ASSERT_TRUE(rp::ReplayCumSumScratch(reinterpret_cast<const R<T>*>(in.data()),
                                      reinterpret_cast<R<T>*>(want_dst.data()),
                                      reinterpret_cast<R<T>*>(want_last.data()), info.outter,
                                      info.inner, kCfg.isLastAxis, want_tmp.data(), tmpBytes))
      << what;
  const Got got = RunKernel<T, kCfg>(soc, in, info, tmpBytes, stack);
  ExpectSame(got.dst, Bytes(want_dst.data(), want_dst.size()), what + " dst");
  ExpectSame(got.last, Bytes(want_last.data(), want_last.size()), what + " lastRow");
  ExpectSame(got.src, Bytes(in.data(), in.size()), what + " src");
  ExpectSame(got.tmp, want_tmp, what + " scratch");
}

constexpr CumSumConfig kLast = {true, false, true};
constexpr CumSumConfig kFirst = {false, false, true};

// The kit's minimum (GetCumSumMaxMinTmpSize's) for the shape.
uint32_t MinTmp(uint32_t size, bool last, CumSumInfo info) {
  if (!last) return size == 2 ? info.outter * info.inner * 4 : 0;
  return (size == 2 ? info.inner * 32 : 0) + 32 * info.inner * size;
}

template <class T, const CumSumConfig& kCfg>
void Sweep(const std::vector<CumSumInfo>& shapes) {
  uint32_t seed = 7;
  for (const char* soc : kSocs) {
    for (const CumSumInfo& info : shapes) {
      const uint32_t min = std::max<uint32_t>(MinTmp(sizeof(T), kCfg.isLastAxis, info), 32);
      for (bool stack : {false, true}) {
        std::vector<uint32_t> sizes = {min, 3 * min + 96, 40000};
        if (!stack) sizes.push_back(2 * min + 44);
        for (uint32_t tmp : sizes) Compare<T, kCfg>(soc, info, tmp, stack, ++seed);
      }
    }
  }
}

TEST(CumSumScratchReplay, LastAxisFloat) {
  Sweep<float, kLast>(
      {{1, 8}, {5, 24}, {16, 8}, {17, 64}, {37, 16}, {100, 8}, {7, 200}, {300, 16}});
}

TEST(CumSumScratchReplay, LastAxisHalf) {
  Sweep<half, kLast>(
      {{1, 16}, {5, 32}, {16, 16}, {17, 64}, {37, 16}, {100, 16}, {7, 208}, {300, 16}});
}

TEST(CumSumScratchReplay, FirstAxisFloat) {
  Sweep<float, kFirst>({{1, 8}, {5, 24}, {37, 16}, {300, 16}});
}

TEST(CumSumScratchReplay, FirstAxisHalf) {
  Sweep<half, kFirst>({{1, 16}, {5, 32}, {37, 16}, {300, 16}});
}

}  // namespace
