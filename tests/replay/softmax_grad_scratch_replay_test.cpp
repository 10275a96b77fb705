// SoftmaxGrad (isFront false/true) and SoftmaxGradFront (not isBasicBlock), ND, half and float, on
// Ascend910B1 (2201) and Ascend310P1 (2002): the whole work buffer after the call against the
// replay of the kit's sequence (replay_softmax_grad_scratch.h), byte for byte, for the
// sharedTmpBuffer overloads and those that pop the stack buffer (a filler leaves it exactly the
// scratch's bytes): scratch sizes from the one-row minimum (one not a multiple of 32) to the whole
// maximum, the shape's host tiling and another shape's (the kernel's re-tile), tails of rows
// (tailM) and of columns (oriK % 64), rows past 255. dst bit for bit with 40 elements past it left
// alone, the sources unchanged. Two NaNs match (payloads are not promised), every other value bit
// for bit. The buffer starts as random bytes: a tail split reads the earlier split's sums, and a
// split without a whole 64-column chunk copies rows * 8 floats of which only `rows` were written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_softmax_grad_scratch.h"
#include "scratch_test_util.h"
#include "tiling/tiling_api.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using rp::scratch_test::Aligned32;

constexpr uint32_t kPast = 40;  // dst elements past the output (the sentinel)
constexpr const char* k910B = "Ascend910B1";
constexpr const char* k310P = "Ascend310P1";

template <class T>
using Dev = std::conditional_t<std::is_same_v<T, rp::Half>, half, float>;
template <class T>
using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

struct Case {
  uint32_t m, k, oriK;
  bool front, frontApi;
  uint32_t tmpBytes;  // the scratch given
  bool ownTiling;     // the tiling made for [m, k] with tmpBytes; else one for [1, k]
};

std::string Name(const Case& c, bool stack) {
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
  for (T& e : v) e = rp::FromFloat<T>(d(gen));
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
  std::vector<T> grad, src, dst;  // dst: the output and kPast elements past it
  std::vector<uint8_t> tmp;
};

// Runs the API on soc with `in` (dst and tmp: their contents before the call); returns
// dst, the sources and the scratch after it.
template <class T>
Io<T> RunKernel(const char* soc, const Case& c, const SoftMaxTiling& t, const Io<T>& in,
                bool stack) {
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
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, c.tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<Dev<T>> g = bg.Get<Dev<T>>(n), s = bs.Get<Dev<T>>(n), d = bd.Get<Dev<T>>(nd);
    std::memcpy(g.HostPtr(), in.grad.data(), n * sizeof(T));
    std::memcpy(s.HostPtr(), in.src.data(), n * sizeof(T));
    std::memcpy(d.HostPtr(), in.dst.data(), nd * sizeof(T));
    std::memcpy(tmp.HostPtr(), in.tmp.data(), c.tmpBytes);
    const AscendC::SoftMaxShapeInfo si{c.m, c.k, c.m, c.oriK};
    if (c.frontApi && stack) {
      AscendC::SoftmaxGradFront<Dev<T>>(d, g, s, t, si);
    } else if (c.frontApi) {
      AscendC::SoftmaxGradFront<Dev<T>>(d, g, s, tmp, t, si);
    } else if (stack) {
      AscendC::SoftmaxGrad<Dev<T>>(d, g, s, t, c.front, si);
    } else {
      AscendC::SoftmaxGrad<Dev<T>>(d, g, s, tmp, t, c.front, si);
    }
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

// NaN payloads are not promised (docs/ascendc_kernels.md §2: compilers may swap the operands of
// + and *); NaN-ness is: two NaNs match, every other value bit for bit.
bool IsNaN(uint32_t f32) { return (f32 & 0x7FFFFFFFu) > 0x7F800000u; }
bool IsNaN(uint16_t f16) { return (f16 & 0x7FFFu) > 0x7C00u; }

template <class T>
void ExpectBits(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    Bits<T> g, w;
    std::memcpy(&g, &got[i], sizeof g);
    std::memcpy(&w, &want[i], sizeof w);
    if (g != w && !(IsNaN(g) && IsNaN(w))) {
      ADD_FAILURE() << what << ": first difference at element " << i << " of " << got.size()
                    << ": lngrad 0x" << std::hex << g << ", replay 0x" << w;
      return;
    }
  }
}

uint32_t WordAt(const std::vector<uint8_t>& b, size_t i) {
  uint32_t w = 0;
  std::memcpy(&w, b.data() + 4 * i, 4);
  return w;
}

template <class T>
void Check(const char* soc, const Case& c0, uint32_t seed, bool specials = true) {
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
    const size_t nd = (c.front ? size_t{c.m} * (32 / sizeof(T)) : n) + kPast;
    in.grad = Values<T>(gen, n, specials);
    in.src = Values<T>(gen, n, specials);
    in.dst = Values<T>(gen, nd, false);
    in.tmp.resize(c.tmpBytes);
    for (uint8_t& b : in.tmp) b = static_cast<uint8_t>(gen());
    const Io<T> got = RunKernel<T>(soc, c, t, in, stack);
    if (::testing::Test::HasFailure()) return;
    Io<T> want = in;
    rp::SmxTiling kt;
    std::memcpy(&kt, &t, sizeof kt);
    if (!c.ownTiling) kt = rp::SmxGradTiling(c.tmpBytes / 4, c.m, c.k, sizeof(T), c.front, false);
    ASSERT_TRUE(rp::ReplaySoftmaxGradWork(kt, c.oriK, in.grad.data(), in.src.data(),
                                          want.dst.data(), want.tmp, c.front, c.frontApi,
                                          std::string(soc) == k310P));
    ExpectBits(got.dst, want.dst, "dst (and the elements past it)");
    ExpectBits(got.grad, in.grad, "gradTensor");
    ExpectBits(got.src, in.src, "srcTensor");
    for (size_t i = 0; i < got.tmp.size() / 4; ++i) {
      const uint32_t g = WordAt(got.tmp, i), w = WordAt(want.tmp, i);
      if (g != w && !(IsNaN(g) && IsNaN(w))) {
        ADD_FAILURE() << "the work buffer differs from the replay's: first at float " << i << " of "
                      << got.tmp.size() / 4 << ": lngrad 0x" << std::hex << g << ", replay 0x" << w;
        break;
      }
    }
    EXPECT_TRUE(std::equal(got.tmp.begin() + got.tmp.size() / 4 * 4, got.tmp.end(),
                           want.tmp.begin() + want.tmp.size() / 4 * 4));
  }
}

struct Shape {
  uint32_t m, k, oriK;
};

// Every API form on shape s at three scratch sizes: the one-row minimum, twice it plus 20 bytes
// (not a multiple of 32) and the maximum; the tiling made for s, then (minimum only) one made
// for [1, k] (the kernel re-tiles on the buffer).
template <class T>
void CheckShape(const Shape& s, uint32_t& seed, const char* soc = k910B) {
  for (const auto& [front, frontApi] : {std::pair{false, false}, {true, false}, {true, true}}) {
    const ge::Shape shape({s.m, s.k});
    const uint32_t lo = AscendC::GetSoftMaxGradMinTmpSize(shape, sizeof(T), front, false);
    const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(shape, sizeof(T), front, false);
    for (const uint32_t bytes : {lo, lo * 2 + 20, hi}) {
      Check<T>(soc, {s.m, s.k, s.oriK, front, frontApi, bytes, true}, seed++);
    }
    Check<T>(soc, {s.m, s.k, s.oriK, front, frontApi, lo * 3 + 4, false}, seed++);
  }
}

TEST(SoftmaxGradScratchReplay, FloatMatchesTheKitsBufferByteForByte) {
  uint32_t seed = 1900;
  for (const Shape& s : {Shape{1, 8, 8}, Shape{4, 40, 36}, Shape{3, 72, 72}, Shape{5, 200, 196},
                         Shape{2, 600, 600}, Shape{9, 192, 130}, Shape{13, 64, 64},
                         Shape{2, 1040, 1030}, Shape{37, 128, 100}, Shape{11, 24, 17}}) {
    CheckShape<float>(s, seed);
  }
}

TEST(SoftmaxGradScratchReplay, HalfMatchesTheKitsBufferByteForByte) {
  uint32_t seed = 1950;
  for (const Shape& s : {Shape{1, 16, 16}, Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520},
                         Shape{5, 80, 80}, Shape{19, 128, 77}, Shape{7, 32, 9}}) {
    CheckShape<rp::Half>(s, seed);
  }
}

// More than 255 rows in one split (the kit's WholeReduceSum runs in groups of 255 repeats).
TEST(SoftmaxGradScratchReplay, RowsPast255InOneSplit) {
  uint32_t seed = 1990;
  for (const bool front : {false, true}) {
    const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({260, 8}), 4, front, false);
    for (const char* soc : {k910B, k310P}) {
      Check<float>(soc, {260, 8, 5, front, false, hi, true}, seed++);
    }
  }
}

// Arch 2002 (membase/v200): ReduceSumLastNDImpl adds whole 64-lane WholeReduceSum trees chunk by
// chunk (not 2201's block sums), its BroadCastLastImpl is a scalar loop and the half casts round
// to nearest even. dst (the sums, for oriK > 64 not 2201's) and the buffer against the replay.
TEST(SoftmaxGradScratchReplay, Arch2002SumsChunkByChunkAndLeavesItsBuffer) {
  uint32_t seed = 2100;
  for (const Shape& s :
       {Shape{1, 8, 8}, Shape{4, 40, 36}, Shape{3, 72, 72}, Shape{5, 200, 196}, Shape{2, 600, 600},
        Shape{37, 128, 100}, Shape{2, 1040, 1030}, Shape{13, 64, 64}}) {
    CheckShape<float>(s, seed, k310P);
  }
  for (const Shape& s : {Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520},
                         Shape{19, 128, 77}, Shape{5, 80, 80}}) {
    CheckShape<rp::Half>(s, seed, k310P);
  }
}

}  // namespace
