// The sweep the SoftmaxGrad / SoftmaxGradFront scratch tests share
// (softmax_grad_scratch_replay_test.cpp, softmax_grad_basic_scratch_replay_test.cpp): one case
// on Ascend910B1 or Ascend310P1 with the tiling made for the shape or for [1, k] (the kernel's
// re-tile), both overloads (sharedTmpBuffer; the stack buffer left at the scratch's bytes rounded
// down to 32), random sources with NaN, +-inf, +-0 and subnormals, dst with elements past its
// rows, the work buffer starting as random bytes; lngrad's dst, sources and whole work buffer
// against the replay's, bit for bit (two NaNs match: payloads are not promised,
// docs/ascendc_kernels.md §2).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_softmax.h"
#include "scratch_ub_harness.h"
#include "tiling/tiling_api.h"

namespace lngrad_replay::softmax_grad_sweep {

template <class T>
using Dev = std::conditional_t<std::is_same_v<T, Half>, half, float>;

struct Case {
  uint32_t m, k, oriK;
  bool front, frontApi;  // isFront; SoftmaxGradFront
  uint32_t tmpBytes;     // the scratch given
  bool ownTiling;        // the tiling made for [m, k] with tmpBytes; else one for [1, k]
};

inline std::string Name(const Case& c, bool stack) {
  return "m " + std::to_string(c.m) + " k " + std::to_string(c.k) + " oriK " +
         std::to_string(c.oriK) + " front " + std::to_string(c.front) + " frontApi " +
         std::to_string(c.frontApi) + " tmp " + std::to_string(c.tmpBytes) + " ownTiling " +
         std::to_string(c.ownTiling) + " stack " + std::to_string(stack);
}

// Values of magnitude up to 4, with +-0, subnormals, +-inf and the quiet NaN on some rows.
template <class T>
std::vector<T> Values(std::mt19937& gen, size_t n, bool specials) {
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<T> v(n);
  for (T& e : v) e = FromFloat<T>(d(gen));
  if (!specials) return v;
  const uint32_t f32[] = {0x80000000u, 0x00000000u, 0x00000003u, 0x807FFFFFu,
                          0x7F800000u, 0xFF800000u, 0x7FC00000u};
  const uint16_t f16[] = {0x8000u, 0x0000u, 0x0001u, 0x83FFu, 0x7C00u, 0xFC00u, 0x7E00u};
  for (size_t i = 0; i < n; ++i) {
    if (gen() % 97 != 0) continue;
    const uint32_t pick = gen() % 7;
    if constexpr (sizeof(T) == 2) {
      std::memcpy(&v[i], &f16[pick], 2);
    } else {
      std::memcpy(&v[i], &f32[pick], 4);
    }
  }
  return v;
}

template <class T>
struct Io {
  std::vector<T> grad, src, dst;  // dst: the output and the elements past it
  std::vector<uint8_t> tmp;
};

// Runs api(dst, grad, src, tmp, tiling, shapeInfo, stack) on soc with `in` (dst and tmp: their
// contents before the call); returns dst, the sources and the scratch after it.
template <class T, class Api>
Io<T> RunKernel(const char* soc, const Case& c, const SoftMaxTiling& t, const Io<T>& in, bool stack,
                const Api& api) {
  using scratch_test::Aligned32;
  Io<T> out;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  opts.sequential = true;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bg, bs, bd, bt, filler;
    const auto n = static_cast<uint32_t>(in.grad.size()), nd = static_cast<uint32_t>(in.dst.size());
    pipe.InitBuffer(bg, Aligned32(n * sizeof(T)));
    pipe.InitBuffer(bs, Aligned32(n * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(nd * sizeof(T)));
    AscendC::LocalTensor<uint8_t> tmp;
    scratch_test::TakeScratch(pipe, bt, filler, stack, c.tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    AscendC::LocalTensor<Dev<T>> g = bg.Get<Dev<T>>(n), s = bs.Get<Dev<T>>(n),
                                 d = bd.Get<Dev<T>>(nd);
    std::memcpy(g.HostPtr(), in.grad.data(), n * sizeof(T));
    std::memcpy(s.HostPtr(), in.src.data(), n * sizeof(T));
    std::memcpy(d.HostPtr(), in.dst.data(), nd * sizeof(T));
    std::memcpy(tmp.HostPtr(), in.tmp.data(), c.tmpBytes);
    api(d, g, s, tmp, t, AscendC::SoftMaxShapeInfo{c.m, c.k, c.m, c.oriK}, stack);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    out.grad.resize(n);
    out.src.resize(n);
    out.dst.resize(nd);
    std::memcpy(out.grad.data(), g.HostPtr(), n * sizeof(T));
    std::memcpy(out.src.data(), s.HostPtr(), n * sizeof(T));
    std::memcpy(out.dst.data(), d.HostPtr(), nd * sizeof(T));
    out.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + c.tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

// One case, both overloads: dst of `past` elements past its rows (c.front: m blocks of T, else
// m * k), the tiling of the shape or [1, k] (then the replay's tiling is the kernel's re-tile,
// isBasicBlock `basic`); api(...) as RunKernel's, replay(kt, in, want, on310P) fills want.dst and
// want.tmp (false: the replay refuses).
template <class T, class Api, class Replay>
void Check(const char* soc, const Case& c0, uint32_t seed, bool specials, bool basic, uint32_t past,
           const Api& api, const Replay& replay) {
  // The stack buffer comes in whole 32-byte blocks: there the scratch is rounded down.
  for (const bool stack : {false, true}) {
    Case c = c0;
    if (stack) c.tmpBytes = c.tmpBytes / 32 * 32;
    SCOPED_TRACE(std::string(soc) + " " + Name(c, stack) + " seed " + std::to_string(seed));
    SoftMaxTiling t;
    AscendC::SoftMaxGradTilingFunc(ge::Shape({c.ownTiling ? c.m : 1u, c.k}), sizeof(T), c.tmpBytes,
                                   t, c.front);
    std::mt19937 gen(seed);
    Io<T> in;
    const size_t n = size_t{c.m} * c.k;
    const size_t nd = (c.front ? size_t{c.m} * (32 / sizeof(T)) : n) + past;
    in.grad = Values<T>(gen, n, specials);
    in.src = Values<T>(gen, n, specials);
    in.dst = Values<T>(gen, nd, false);
    in.tmp.resize(c.tmpBytes);
    for (uint8_t& b : in.tmp) b = static_cast<uint8_t>(gen());
    const Io<T> got = RunKernel<T>(soc, c, t, in, stack, api);
    if (::testing::Test::HasFailure()) return;
    Io<T> want = in;
    SmxTiling kt;
    std::memcpy(&kt, &t, sizeof kt);
    if (!c.ownTiling) kt = SmxGradTiling(c.tmpBytes / 4, c.m, c.k, sizeof(T), c.front, basic);
    ASSERT_TRUE(replay(kt, in, want, std::string(soc) == "Ascend310P1"));
    scratch_test::ExpectSameValues(got.dst, want.dst, "dst (and the elements past it)");
    scratch_test::ExpectSameValues(got.grad, in.grad, "gradTensor");
    scratch_test::ExpectSameValues(got.src, in.src, "srcTensor");
    scratch_test::ExpectSameImage(got.tmp, want.tmp, 4, "the work buffer (floats)");
  }
}

}  // namespace lngrad_replay::softmax_grad_sweep
