// Power<int32_t> on arch 2201 (Ascend910B1) and 2002 (Ascend310P1) against the replay of the
// kit's whole sequence (replay_power_int.h's ReplayPowerIntScratch: every instruction of every
// round, the loops run until the float sums are 0): tensor^tensor, tensor^scalar and
// scalar^tensor, the sharedTmpBuffer overload and the one that pops the stack buffer (the TPipe
// sized to leave exactly the scratch), scratch sizes from the tiling minimum up, counts 0, 1,
// tails no multiple of the chunk or of a repeat. Exponents whose loops end (not INT_MIN, on 2002
// none that its float halvings overshoot) and stay short (small ones, 2^k + d for d in 0..3):
// the replay runs every round. dst is compared bit for bit with 128 elements past the count
// (random, zeros among them: 2201's last CompareScalar reads them), and the whole scratch (its
// first contents random words, zeros, 1.0f and -0.0f among them: the Compares' lanes past the
// round read them), byte for byte; the scratch's UB address goes to the replay (tmpScalar keeps
// the select mask's address).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "math_scratch_sweep.h"
#include "replay_power_int.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace sw = lngrad_replay::scratch_sweep;
using AscendC::LocalTensor;

constexpr uint32_t kPast = 128;

struct In {
  std::vector<int32_t> x, y, dst;  // dst: count + kPast elements
  std::vector<uint8_t> tmp;
};

In Make(uint32_t seed, uint32_t n, uint32_t bytes) {
  std::mt19937 gen(seed);
  const auto pick = [&](int k) { return static_cast<int>(gen() % static_cast<uint32_t>(k)); };
  const int32_t small_x[] = {0, 1, -1, 2, -2, 3, -3, INT32_MIN, INT32_MAX, 65536};
  In in;
  in.x.resize(std::max<uint32_t>(n, 1));
  in.y.resize(in.x.size());
  for (auto& v : in.x) {
    const int k = pick(10);
    v = k < 3 ? small_x[pick(10)] : k < 7 ? pick(19) - 9 : static_cast<int32_t>(gen());
  }
  for (auto& v : in.y) {
    const int k = pick(20);
    if (k < 15) {
      v = pick(25) - 12;
    } else if (k < 19) {
      const int32_t a = (1 << pick(31)) + pick(4);
      v = pick(2) == 0 ? a : -a;
    } else {
      const int32_t sp[] = {0, 1 << 30, -(1 << 30), 1 << 26, (1 << 26) + 2};
      v = sp[pick(5)];
    }
  }
  in.dst.resize(n + kPast);
  for (auto& v : in.dst) v = pick(3) == 0 ? 0 : static_cast<int32_t>(gen());
  in.tmp.resize(bytes);
  for (uint32_t i = 0; i + 4 <= bytes; i += 4) {
    const uint32_t sp[] = {0u, 0x3f800000u, 0x80000000u, 0xa5a5a5a5u, 0xbf800000u};
    const uint32_t w = pick(3) == 0 ? static_cast<uint32_t>(gen()) : sp[pick(5)];
    std::memcpy(&in.tmp[i], &w, 4);
  }
  for (uint32_t i = bytes / 4 * 4; i < bytes; ++i) in.tmp[i] = 0x5a;
  return in;
}

struct Got {
  std::vector<int32_t> dst;
  std::vector<uint8_t> tmp;
  uint32_t addr = 0;
};

Got Run(const char* soc, int form, const In& in, uint32_t n, bool stack) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto bytes = static_cast<uint32_t>(in.tmp.size());
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<> bx, by, bd, bt, filler;
        const auto ns = static_cast<uint32_t>(in.x.size());
        pipe.InitBuffer(bx, rp::scratch_test::Aligned32(ns * 4));
        pipe.InitBuffer(by, rp::scratch_test::Aligned32(ns * 4));
        pipe.InitBuffer(bd, rp::scratch_test::Aligned32((n + kPast) * 4));
        LocalTensor<uint8_t> t;
        rp::scratch_test::TakeScratch(pipe, bt, filler, stack, bytes, &t);
        if (::testing::Test::HasFatalFailure()) return;
        const LocalTensor<int32_t> x = bx.Get<int32_t>(ns), y = by.Get<int32_t>(ns),
                                   d = bd.Get<int32_t>(n + kPast);
        std::copy(in.x.begin(), in.x.end(), x.HostPtr());
        std::copy(in.y.begin(), in.y.end(), y.HostPtr());
        std::copy(in.dst.begin(), in.dst.end(), d.HostPtr());
        std::memcpy(t.HostPtr(), in.tmp.data(), bytes);
        const lngrad::aicore::detail::TensorView tv = t.View();
        g.addr = static_cast<uint32_t>(tv.ptr - tv.ub);
        if (form == 0) {
          stack ? AscendC::Power(d, x, y, n) : AscendC::Power(d, x, y, t, n);
        } else if (form == 1) {
          stack ? AscendC::Power(d, x, in.y[0], n) : AscendC::Power(d, x, in.y[0], t, n);
        } else {
          stack ? AscendC::Power(d, in.x[0], y, n) : AscendC::Power(d, in.x[0], y, t, n);
        }
        g.dst.assign(d.HostPtr(), d.HostPtr() + n + kPast);
        if (stack) {
          ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(t)));
        }
        g.tmp.assign(t.HostPtr(), t.HostPtr() + bytes);
      },
      opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

void Compare(const char* soc, int form, const In& in, uint32_t n, bool stack) {
  const auto bytes = static_cast<uint32_t>(in.tmp.size());
  const std::string what = std::string("Power<int32_t> form ") + std::to_string(form) + " on " +
                           soc + ", count " + std::to_string(n) + ", scratch " +
                           std::to_string(bytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  const Got got = Run(soc, form, in, n, stack);
  In want = in;
  ASSERT_TRUE(rp::ReplayPowerIntScratch(sw::Is2002(soc), form, want.x.data(), want.y.data(),
                                        want.dst.data(), n, n + kPast, want.tmp.data(), bytes,
                                        got.addr))
      << what;
  sw::ExpectWords<int32_t>(sw::BytesOf(got.dst), sw::BytesOf(want.dst), what + " dst");
  sw::ExpectWords<uint8_t>(got.tmp, want.tmp, what + " scratch");
}

void Sweep(int form) {
  uint32_t seed = 500 + 1000 * static_cast<uint32_t>(form);
  const uint32_t min = form == 0 ? 1536 : 1792;
  for (const char* soc : sw::kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t bytes : sw::SizesWide(min, stack)) {
        for (uint32_t n : {0u, 1u, 37u, 255u, 257u, 1000u, 1537u, 4099u}) {
          Compare(soc, form, Make(++seed, n, bytes), n, stack);
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
}

TEST(MathScratchPower, PowerInt32TensorTensor) { Sweep(0); }
TEST(MathScratchPower, PowerInt32TensorScalar) { Sweep(1); }
TEST(MathScratchPower, PowerInt32ScalarTensor) { Sweep(2); }

}  // namespace
