// Power<float> on arch 2201 (Ascend910B1) and 2002 (Ascend310P1) against the replay of the
// kit's sequence (replay_math_scratch_power.h): tensor^tensor, tensor^scalar and scalar^tensor,
// the sharedTmpBuffer overload and the one that pops the stack buffer (the TPipe sized so that
// it leaves exactly the scratch's bytes), scratch sizes from the tiling minimum up (one no
// multiple of 32, a large one), counts 0, 1, tails no multiple of the chunk or of a repeat and a
// few thousand, inputs with NaN, +-inf, +-0, subnormals, +-1, integers and values past int32.
// dst is compared bit for bit (two NaNs match) with the elements past the count (the sentinel),
// the sources, and the whole scratch (bytes the kit's code does not write keep their 0xa5
// fill; the Compares' lanes past the count read the sources' following elements).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "math_replay_test_util.h"
#include "replay_math_scratch_power.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using lngrad_replay::test::IsNan;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;

constexpr uint8_t kFill = 0xa5;
constexpr uint32_t kPast = 128;  // dst and source elements past the count (covers a repeat)
const char* const kSocs[] = {"Ascend910B1", "Ascend310P1"};
const float kSentinel = [] {
  const uint32_t b = 0x5a5b5c5du;
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}();

struct Got {
  std::vector<float> dst, x, y;
  std::vector<uint8_t> tmp;
};

// form 0: x ^ y, 1: x ^ y[0], 2: x[0] ^ y.
Got RunKernel(const char* soc, int form, const std::vector<float>& x, const std::vector<float>& y,
              uint32_t count, uint32_t tmpBytes, bool stack) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bx, by, bd, bt, filler;
    const uint32_t ns = static_cast<uint32_t>(x.size());
    pipe.InitBuffer(bx, Aligned32(ns * 4));
    pipe.InitBuffer(by, Aligned32(ns * 4));
    pipe.InitBuffer(bd, Aligned32(ns * 4));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<float> sx = bx.Get<float>(ns), sy = by.Get<float>(ns), d = bd.Get<float>(ns);
    std::copy(x.begin(), x.end(), sx.HostPtr());
    std::copy(y.begin(), y.end(), sy.HostPtr());
    std::fill(d.HostPtr(), d.HostPtr() + ns, kSentinel);
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    if (form == 0) {
      if (stack)
        AscendC::Power<float>(d, sx, sy, count);
      else
        AscendC::Power<float>(d, sx, sy, tmp, count);
    } else if (form == 1) {
      if (stack)
        AscendC::Power<float>(d, sx, y[0], count);
      else
        AscendC::Power<float>(d, sx, y[0], tmp, count);
    } else {
      if (stack)
        AscendC::Power<float>(d, x[0], sy, count);
      else
        AscendC::Power<float>(d, x[0], sy, tmp, count);
    }
    g.dst.assign(d.HostPtr(), d.HostPtr() + ns);
    g.x.assign(sx.HostPtr(), sx.HostPtr() + ns);
    g.y.assign(sy.HostPtr(), sy.HostPtr() + ns);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// got == want word by word (two NaNs match), then the trailing bytes exactly.
void ExpectBytes(const uint8_t* got, const uint8_t* want, size_t n, const std::string& what) {
  for (size_t i = 0; i < n; i += 4) {
    const size_t len = std::min<size_t>(4, n - i);
    if (std::memcmp(got + i, want + i, len) == 0) continue;
    if (len == 4) {
      float a, b;
      std::memcpy(&a, got + i, 4);
      std::memcpy(&b, want + i, 4);
      if (IsNan(a) && IsNan(b)) continue;
    }
    uint32_t u = 0, v = 0;
    std::memcpy(&u, got + i, len);
    std::memcpy(&v, want + i, len);
    ADD_FAILURE() << what << ": bytes " << i << ".." << i + len - 1 << " of " << n
                  << " differ: lngrad 0x" << std::hex << u << ", replay 0x" << v;
    return;
  }
}

void Compare(const char* soc, int form, const std::vector<float>& x, const std::vector<float>& y,
             uint32_t count, uint32_t tmpBytes, bool stack) {
  const std::string what = std::string("Power<float> form ") + std::to_string(form) + " on " + soc +
                           ", count " + std::to_string(count) + ", scratch " +
                           std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  std::vector<float> want_dst(x.size(), kSentinel);
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  const bool is2002 = std::string(soc) == "Ascend310P1";
  ASSERT_TRUE(rp::ReplayPowerFloatScratch(is2002, form, x.data(), y.data(), want_dst.data(), count,
                                          want_tmp.data(), tmpBytes))
      << what;
  const Got got = RunKernel(soc, form, x, y, count, tmpBytes, stack);
  ASSERT_EQ(got.dst.size(), x.size()) << what;
  const auto bytes = [](const std::vector<float>& v) {
    return reinterpret_cast<const uint8_t*>(v.data());
  };
  ExpectBytes(bytes(got.dst), bytes(want_dst), x.size() * 4, what + " dst");
  ExpectBytes(bytes(got.x), bytes(x), x.size() * 4, what + " x");
  ExpectBytes(bytes(got.y), bytes(y), y.size() * 4, what + " y");
  ASSERT_EQ(got.tmp.size(), want_tmp.size()) << what;
  ExpectBytes(got.tmp.data(), want_tmp.data(), tmpBytes, what + " scratch");
}

// n values: most in [-8, 8) and integers in [-9, 9], specials at random places.
std::vector<float> Mixed(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-8.0f, 8.0f);
  std::uniform_int_distribution<int> whole(-9, 9);
  std::uniform_int_distribution<int> pick(0, 99);
  const float sp[] = {0.0f,  -0.0f,          kInf,  -kInf,  kNan,  1e-40f, -1e-40f,
                      1.0f,  -1.0f,          0.5f,  -0.5f,  2.5f,  3e9f,   -3e9f,
                      1e-9f, -2147483648.0f, 3e38f, -3e38f, 1e-8f, 4.5e9f};
  constexpr int kSp = sizeof(sp) / sizeof(sp[0]);
  std::vector<float> v(n);
  for (auto& e : v) {
    const int k = pick(gen);
    e = k < kSp ? sp[k] : (k < 60 ? static_cast<float>(whole(gen)) : u(gen));
  }
  return v;
}

const std::vector<uint32_t> kCounts = {0, 1, 37, 255, 257, 1000, 1537, 4099};

std::vector<uint32_t> Sizes(uint32_t min, bool stack) {
  std::vector<uint32_t> v = {min, min + 32, min + 416, 3 * min + 96, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

void Sweep(int form) {
  uint32_t seed = 7 + 1000 * static_cast<uint32_t>(form);
  const uint32_t min = form == 0 ? 1280 : 1536;  // GetPowerMaxMinTmpSize's minimum (2201)
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : Sizes(min, stack)) {
        for (uint32_t n : kCounts) {
          ++seed;
          std::vector<float> x = Mixed(seed, n + kPast), y = Mixed(seed * 31 + 5, n + kPast);
          Compare(soc, form, x, y, n, tmp, stack);
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
}

TEST(MathScratchPower, PowerFloatTensorTensor) { Sweep(0); }
TEST(MathScratchPower, PowerFloatTensorScalar) { Sweep(1); }
TEST(MathScratchPower, PowerFloatScalarTensor) { Sweep(2); }

// Every special as the scalar, against every special and a few ordinary values in the tensor.
TEST(MathScratchPower, PowerFloatScalarSpecials) {
  const std::vector<float> sp = {0.0f,  -0.0f, kInf,  -kInf, kNan, 1e-40f, -1e-40f,       1.0f,
                                 -1.0f, 2.0f,  -3.0f, 0.5f,  3e9f, -3e9f,  -2147483648.0f};
  std::vector<float> t = Mixed(99, 333 + kPast);
  for (size_t i = 0; i < sp.size(); ++i) t[i] = sp[i];
  for (const char* soc : kSocs) {
    for (float s : sp) {
      std::vector<float> one(t.size(), s);
      Compare(soc, 1, t, one, 333, 1536 + 44, false);
      Compare(soc, 2, one, t, 333, 1536, true);
    }
  }
}

// Power<half>: the same comparison with binary16 sources (every pattern in turn as x, random
// patterns as y), the result's halves, the whole scratch.
struct GotH {
  std::vector<half> dst, x, y;
  std::vector<uint8_t> tmp;
};

GotH RunHalf(const char* soc, int form, const std::vector<half>& x, const std::vector<half>& y,
             uint32_t count, uint32_t tmpBytes, bool stack) {
  GotH g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bx, by, bd, bt, filler;
    const uint32_t ns = static_cast<uint32_t>(x.size());
    pipe.InitBuffer(bx, Aligned32(ns * 2));
    pipe.InitBuffer(by, Aligned32(ns * 2));
    pipe.InitBuffer(bd, Aligned32(ns * 2));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<half> sx = bx.Get<half>(ns), sy = by.Get<half>(ns), d = bd.Get<half>(ns);
    std::copy(x.begin(), x.end(), sx.HostPtr());
    std::copy(y.begin(), y.end(), sy.HostPtr());
    const uint16_t sentinel = 0x5a5b;
    for (uint32_t i = 0; i < ns; ++i) std::memcpy(d.HostPtr() + i, &sentinel, 2);
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    if (form == 0) {
      if (stack)
        AscendC::Power<half>(d, sx, sy, count);
      else
        AscendC::Power<half>(d, sx, sy, tmp, count);
    } else if (form == 1) {
      if (stack)
        AscendC::Power<half>(d, sx, y[0], count);
      else
        AscendC::Power<half>(d, sx, y[0], tmp, count);
    } else {
      if (stack)
        AscendC::Power<half>(d, x[0], sy, count);
      else
        AscendC::Power<half>(d, x[0], sy, tmp, count);
    }
    g.dst.assign(d.HostPtr(), d.HostPtr() + ns);
    g.x.assign(sx.HostPtr(), sx.HostPtr() + ns);
    g.y.assign(sy.HostPtr(), sy.HostPtr() + ns);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// Halves bit for bit, except that two NaNs match.
void ExpectHalves(const std::vector<half>& got, const std::vector<half>& want,
                  const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    uint16_t a, b;
    std::memcpy(&a, &got[i], 2);
    std::memcpy(&b, &want[i], 2);
    const bool nans = (a & 0x7fff) > 0x7c00 && (b & 0x7fff) > 0x7c00;
    if (a == b || nans) continue;
    ADD_FAILURE() << what << ": element " << i << " differs: lngrad 0x" << std::hex << a
                  << ", replay 0x" << b;
    return;
  }
}

void CompareHalf(const char* soc, int form, const std::vector<half>& x, const std::vector<half>& y,
                 uint32_t count, uint32_t tmpBytes, bool stack) {
  const std::string what = std::string("Power<half> form ") + std::to_string(form) + " on " + soc +
                           ", count " + std::to_string(count) + ", scratch " +
                           std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  std::vector<half> want_dst(x.size());
  const uint16_t sentinel = 0x5a5b;
  for (auto& h : want_dst) std::memcpy(&h, &sentinel, 2);
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  const bool is2002 = std::string(soc) == "Ascend310P1";
  ASSERT_TRUE(rp::ReplayPowerHalfScratch(is2002, form, reinterpret_cast<const rp::Half*>(x.data()),
                                         reinterpret_cast<const rp::Half*>(y.data()),
                                         reinterpret_cast<rp::Half*>(want_dst.data()), count,
                                         want_tmp.data(), tmpBytes))
      << what;
  const GotH got = RunHalf(soc, form, x, y, count, tmpBytes, stack);
  ExpectHalves(got.dst, want_dst, what + " dst");
  ExpectHalves(got.x, x, what + " x");
  ExpectHalves(got.y, y, what + " y");
  ASSERT_EQ(got.tmp.size(), want_tmp.size()) << what;
  ExpectBytes(got.tmp.data(), want_tmp.data(), tmpBytes, what + " scratch");
}

std::vector<half> Halves(uint32_t seed, size_t n, bool every) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> bits(0, 65535);
  std::uniform_int_distribution<int> small(-6, 6);
  std::vector<half> v(n);
  for (size_t i = 0; i < n; ++i) {
    const int k = static_cast<int>(gen() % 4);
    uint16_t b = every ? static_cast<uint16_t>(seed * 4099u + i) : static_cast<uint16_t>(bits(gen));
    if (!every && k == 0) {  // small integers, so that the sign and parity paths are taken
      const half h(static_cast<float>(small(gen)));
      std::memcpy(&b, &h, 2);
    }
    std::memcpy(&v[i], &b, 2);
  }
  return v;
}

void SweepHalf(int form) {
  uint32_t seed = 17 + 100 * static_cast<uint32_t>(form);
  const uint32_t min = 2048;  // GetPowerMaxMinTmpSize's minimum for half (2201)
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : Sizes(min, stack)) {
        for (uint32_t n : kCounts) {
          ++seed;
          std::vector<half> x = Halves(seed, n + kPast, true);
          std::vector<half> y = Halves(seed * 7 + 3, n + kPast, false);
          if (form == 2) std::swap(x, y);
          CompareHalf(soc, form, x, y, n, tmp, stack);
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
  }
}

TEST(MathScratchPower, PowerHalfTensorTensor) { SweepHalf(0); }
TEST(MathScratchPower, PowerHalfTensorScalar) { SweepHalf(1); }
TEST(MathScratchPower, PowerHalfScalarTensor) { SweepHalf(2); }

// Every binary16 pattern as the tensor operand (four slices of 16384), on both socs.
TEST(MathScratchPower, PowerHalfEveryPattern) {
  constexpr uint32_t kSlice = 16384;
  for (const char* soc : kSocs) {
    for (uint32_t start = 0; start < 65536; start += kSlice) {
      std::vector<half> x(kSlice + kPast);
      for (uint32_t i = 0; i < x.size(); ++i) {
        const uint16_t b = static_cast<uint16_t>(start + i);
        std::memcpy(&x[i], &b, 2);
      }
      const std::vector<half> y = Halves(start + 5, x.size(), false);
      CompareHalf(soc, 0, x, y, kSlice, 49152, false);
      CompareHalf(soc, 0, y, x, kSlice, 20000, false);
      CompareHalf(soc, 1, x, std::vector<half>(x.size(), half(-3.0f)), kSlice, 2048 + 44, false);
      CompareHalf(soc, 2, std::vector<half>(x.size(), half(-2.0f)), x, kSlice, 2048, false);
    }
  }
}

}  // namespace
