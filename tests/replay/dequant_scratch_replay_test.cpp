// What AscendDequant leaves in its scratch on arch 2201 (Ascend910B1) and 2002 (Ascend310P1)
// against the replay of the kit's loops (replay_quant_scratch.h): the DequantParams forms
// (scale tensor or scalar), the calCount and whole-source forms, every type pair the arch
// allows, the sharedTmpBuffer overloads and those that pop the stack buffer, scratch sizes from
// the one-row minimum to several rounds (one not a multiple of 32), rows wider than 2040
// floats, DEQUANT_WITH_SINGLE_ROW's reshaping, destinations padded to 32 bytes, and counts that
// end inside a row. Compared bit for bit after the call: the whole scratch (bytes the kit does
// not write keep their 0xa5 fill), dst with 40 elements past it, the source and the scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_quant_scratch.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace qs = lngrad_replay::qscr;
using AscendC::DeQuantMode;
using AscendC::DequantParams;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using qs::DqDst;
using qs::DqScale;

constexpr uint8_t kFill = 0xa5, kSentinel = 0x5a;
constexpr uint32_t kPast = 40;
constexpr const char* k910 = "Ascend910B1";
constexpr const char* k310 = "Ascend310P1";

// The kernel's operands as bytes (exact sizes: the forms without DequantParams read them).
struct Tensors {
  LocalTensor<uint8_t> dst, src, scale, tmp;
};
using Call = std::function<void(const Tensors&, bool stack)>;

qs::DequantMem RunKernel(const char* soc, const qs::DequantMem& in, bool stack, const Call& call) {
  qs::DequantMem g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const uint32_t tmpBytes = static_cast<uint32_t>(in.tmp.size());
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsc, bt, filler;
    const auto size = [](const std::vector<uint8_t>& v) { return static_cast<uint32_t>(v.size()); };
    pipe.InitBuffer(bs, Aligned32(size(in.src)));
    pipe.InitBuffer(bd, Aligned32(size(in.dst)));
    pipe.InitBuffer(bsc, Aligned32(std::max<uint32_t>(size(in.scale), 32)));
    Tensors t;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &t.tmp);
    if (::testing::Test::HasFatalFailure()) return;
    t.src = bs.Get<uint8_t>(size(in.src));
    t.dst = bd.Get<uint8_t>(size(in.dst));
    t.scale = bsc.Get<uint8_t>(size(in.scale));
    std::memcpy(t.src.HostPtr(), in.src.data(), in.src.size());
    std::memcpy(t.dst.HostPtr(), in.dst.data(), in.dst.size());
    if (!in.scale.empty()) std::memcpy(t.scale.HostPtr(), in.scale.data(), in.scale.size());
    std::fill(t.tmp.HostPtr(), t.tmp.HostPtr() + tmpBytes, kFill);
    call(t, stack);
    const auto take = [](const LocalTensor<uint8_t>& x, size_t n) {
      return std::vector<uint8_t>(x.HostPtr(), x.HostPtr() + n);
    };
    g.src = take(t.src, in.src.size());
    g.dst = take(t.dst, in.dst.size());
    g.scale = take(t.scale, in.scale.size());
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(t.tmp)));
    }
    g.tmp = take(t.tmp, tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

std::string FirstDiff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  if (got.size() != want.size()) return "sizes differ";
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      return "byte " + std::to_string(i) + " of " + std::to_string(got.size()) + ": lngrad " +
             std::to_string(int{got[i]}) + ", replay " + std::to_string(int{want[i]});
    }
  }
  return "";
}

// int32 sources: small and large values, the extremes, odd values past 2^24 (the Cast rounds).
std::vector<uint8_t> Ints(uint32_t seed, uint32_t n) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> small(-300, 300);
  std::uniform_int_distribution<int32_t> any(std::numeric_limits<int32_t>::min(),
                                             std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int> pick(0, 9);
  std::vector<uint8_t> b(size_t{n} * 4);
  for (uint32_t i = 0; i < n; ++i) {
    const int p = pick(gen);
    int32_t v = p < 5 ? small(gen) : any(gen);
    if (p == 9) v = (i % 2) ? std::numeric_limits<int32_t>::min() : 16777217;
    std::memcpy(&b[size_t{i} * 4], &v, 4);
  }
  return b;
}

// Scale bit patterns: floats with NaN, +-inf, +-0 and subnormals mixed in, bfloat16 the top
// halves of such floats, uint64_t such a float in its low word and noise in the high word.
std::vector<uint8_t> Scales(uint32_t seed, uint32_t n, DqScale s) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  std::uniform_int_distribution<int> pick(0, 29);
  const float sp[] = {0.0f,
                      -0.0f,
                      std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity(),
                      std::numeric_limits<float>::quiet_NaN(),
                      1e-40f,
                      -2e-39f,
                      3e38f};
  const size_t width = s == DqScale::kU64                                     ? 8
                       : (s == DqScale::kFloat || s == DqScale::kScalarFloat) ? 4
                                                                              : 2;
  std::vector<uint8_t> b(size_t{n} * width);
  for (uint32_t i = 0; i < n; ++i) {
    const int k = pick(gen);
    const float f = k < 8 ? sp[k] : u(gen);
    uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    if (width == 2) {
      const uint16_t top = static_cast<uint16_t>(bits >> 16);
      std::memcpy(&b[i * width], &top, 2);
    } else if (width == 4) {
      std::memcpy(&b[i * width], &bits, 4);
    } else {
      const uint64_t w = (uint64_t{gen()} << 32) | bits;
      std::memcpy(&b[i * width], &w, 8);
    }
  }
  return b;
}

template <class D>
constexpr DqDst DstKind() {
  return std::is_same_v<D, float> ? DqDst::kFloat
                                  : (std::is_same_v<D, half> ? DqDst::kHalf : DqDst::kBf16);
}
template <class S, bool scalar = false>
constexpr DqScale ScaleKind() {
  if constexpr (std::is_same_v<S, uint64_t>) return DqScale::kU64;
  if constexpr (std::is_same_v<S, float>) return scalar ? DqScale::kScalarFloat : DqScale::kFloat;
  return scalar ? DqScale::kScalarBf16 : DqScale::kBf16;
}

enum class Form { kParams, kScalar, kCalCount, kWhole };

// One comparison: D/S the types, {m, n, calCount} the params (kCalCount / kWhole: m * n
// elements with a scale tensor of n, `count` the calCount argument).
template <class D, class S, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void Compare(const char* soc, Form form, DequantParams p, uint32_t count, uint32_t tmpBytes,
             bool stack, uint32_t seed) {
  const bool tensorless = form == Form::kCalCount || form == Form::kWhole;
  qs::DequantCall c;
  c.scale = ScaleKind<S, false>();
  if (form == Form::kScalar) c.scale = ScaleKind<S, true>();
  c.dst = DstKind<D>();
  c.m = p.m;
  c.n = p.n;
  c.calCount = tensorless ? p.n : p.calCount;
  c.pure = !tensorless;
  c.count = form == Form::kCalCount ? count : p.m * p.n;
  c.singleRow = mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW;
  c.tmpBytes = tmpBytes;
  const uint32_t perBlock = 32 / sizeof(D);
  const uint32_t dstElems = p.m * ((p.n + perBlock - 1) / perBlock * perBlock) + kPast;
  qs::DequantMem in;
  in.src = Ints(seed, p.m * p.n);
  in.scale = Scales(seed + 1, form == Form::kScalar ? 1 : c.calCount, c.scale);
  in.dst.assign(size_t{dstElems} * sizeof(D), kSentinel);
  in.tmp.assign(tmpBytes, kFill);
  qs::DequantMem want = in;
  const std::string what =
      std::string(soc) + " form " + std::to_string(int(form)) + " {" + std::to_string(p.m) + ", " +
      std::to_string(p.n) + ", " + std::to_string(p.calCount) + "} count " + std::to_string(count) +
      " dst " + std::to_string(sizeof(D)) + "B scale " + std::to_string(int(c.scale)) +
      ", scratch " + std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  ASSERT_TRUE(qs::ReplayDequant(c, want)) << what;
  const qs::DequantMem got = RunKernel(soc, in, stack, [&](const Tensors& t, bool st) {
    const LocalTensor<D> d = t.dst.ReinterpretCast<D>();
    const LocalTensor<int32_t> s = t.src.ReinterpretCast<int32_t>();
    const LocalTensor<S> sc = t.scale.ReinterpretCast<S>();
    S scalar{};
    std::memcpy(&scalar, in.scale.data(), sizeof(S));
    switch (form) {
      case Form::kParams:
        st ? AscendC::AscendDequant<D, S, mode>(d, s, sc, p)
           : AscendC::AscendDequant<D, S, mode>(d, s, sc, t.tmp, p);
        break;
      case Form::kScalar:
        if constexpr (!std::is_same_v<S, uint64_t>) {  // no scalar uint64_t form
          st ? AscendC::AscendDequant<D, S, mode>(d, s, scalar, p)
             : AscendC::AscendDequant<D, S, mode>(d, s, scalar, t.tmp, p);
        }
        break;
      case Form::kCalCount:
        st ? AscendC::AscendDequant<D, S, mode>(d, s, sc, count)
           : AscendC::AscendDequant<D, S, mode>(d, s, sc, t.tmp, count);
        break;
      case Form::kWhole:
        st ? AscendC::AscendDequant<D, S, mode>(d, s, sc)
           : AscendC::AscendDequant<D, S, mode>(d, s, sc, t.tmp);
        break;
    }
  });
  EXPECT_EQ(FirstDiff(got.dst, want.dst), "") << what << " dst";
  EXPECT_EQ(FirstDiff(got.tmp, want.tmp), "") << what << " scratch";
  EXPECT_EQ(FirstDiff(got.src, want.src), "") << what << " src";
  EXPECT_EQ(FirstDiff(got.scale, want.scale), "") << what << " scale";
}

// The one-row minimum (align8(calCount) + n floats), one block more, one not a multiple of 32
// (sharedTmpBuffer only), about two and a half rows, and large.
std::vector<uint32_t> Sizes(const DequantParams& p, bool stack) {
  const uint32_t min = ((p.calCount + 7) / 8 * 8 + p.n) * 4;
  std::vector<uint32_t> v = {min, min + 32, Aligned32(min + p.n * 4 * 3 / 2), 40960};
  if (!stack) v.push_back(min + 44);
  return v;
}

// Shapes: one row, columns past calCount, a 64-lane tail, a 136-float row (17 blocks), a row
// wider than 2040 floats, rows of 24 (half / bfloat16 rows padded to 32), and m 1 with n a
// multiple of calCount (DEQUANT_WITH_SINGLE_ROW reshapes it).
const DequantParams kShapes[] = {{1, 8, 8},   {3, 64, 40},     {5, 72, 72}, {4, 136, 100},
                                 {7, 24, 24}, {2, 2048, 2000}, {1, 64, 16}};

template <class D, class S>
void SweepParams(const char* soc, Form form, uint32_t& seed) {
  for (bool stack : {false, true}) {
    for (const DequantParams& p : kShapes) {
      for (uint32_t tmp : Sizes(p, stack)) {
        Compare<D, S>(soc, form, p, 0, tmp, stack, ++seed);
      }
    }
  }
  Compare<D, S, DeQuantMode::DEQUANT_WITH_MULTI_ROW>(soc, form, {1, 64, 16}, 0, 512, false, ++seed);
}

TEST(DequantScratchReplay, ParamsFormsEveryPairAndScratch) {
  uint32_t seed = 3;
  SweepParams<half, uint64_t>(k910, Form::kParams, seed);
  SweepParams<float, float>(k910, Form::kParams, seed);
  SweepParams<float, bfloat16_t>(k910, Form::kParams, seed);
  SweepParams<bfloat16_t, bfloat16_t>(k910, Form::kParams, seed);
  SweepParams<bfloat16_t, float>(k910, Form::kParams, seed);
  SweepParams<half, uint64_t>(k310, Form::kParams, seed);
  SweepParams<float, float>(k310, Form::kParams, seed);
}

TEST(DequantScratchReplay, ScalarFormsEveryPairAndScratch) {
  uint32_t seed = 1003;
  SweepParams<float, float>(k910, Form::kScalar, seed);
  SweepParams<float, bfloat16_t>(k910, Form::kScalar, seed);
  SweepParams<bfloat16_t, bfloat16_t>(k910, Form::kScalar, seed);
  SweepParams<bfloat16_t, float>(k910, Form::kScalar, seed);
  SweepParams<float, float>(k310, Form::kScalar, seed);
}

// The forms without DequantParams: [size / n, n] with calCount = n; the calCount form converts
// `count` elements (ending inside a row: the tail's partial row is scaled by its own Mul).
template <class D, class S>
void SweepTensorless(const char* soc, uint32_t& seed) {
  const uint32_t shapes[][3] = {{5, 40, 123}, {3, 64, 192}, {9, 24, 100}, {2, 2048, 3001}};
  for (bool stack : {false, true}) {
    for (const auto& sh : shapes) {
      const DequantParams p{sh[0], sh[1], sh[1]};
      for (uint32_t tmp : Sizes(p, stack)) {
        Compare<D, S>(soc, Form::kCalCount, p, sh[2], tmp, stack, ++seed);
        Compare<D, S>(soc, Form::kWhole, p, 0, tmp, stack, ++seed);
      }
    }
  }
}

TEST(DequantScratchReplay, CalCountAndWholeFormsEveryScratch) {
  uint32_t seed = 2003;
  SweepTensorless<half, uint64_t>(k910, seed);
  SweepTensorless<float, float>(k910, seed);
  SweepTensorless<bfloat16_t, bfloat16_t>(k910, seed);
  SweepTensorless<float, bfloat16_t>(k910, seed);
  SweepTensorless<half, uint64_t>(k310, seed);
  SweepTensorless<float, float>(k310, seed);
}

}  // namespace
