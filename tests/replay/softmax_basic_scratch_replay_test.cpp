// SoftMax with statistics and isBasicBlock (float, half with half or float statistics) and
// SimpleSoftMax with half data (half or float statistics; the generic loop and isBasicBlock) on
// Ascend910B1 (2201): the whole work buffer, dst and the statistics with 64 elements past them,
// and src after the call against the replay of the kit's sequence
// (replay_softmax_basic_scratch.h), byte for byte, for the sharedTmpBuffer overloads and those
// that pop the stack buffer: scratch sizes from the minimum to a large one (one not a multiple of
// 32), the host tiling and the kernel's re-tile (splits of fewer than 8 rows: the statistics'
// stores past the split's rows), tails, NaN, +-inf, +-0 and subnormals. Two NaNs match (payloads
// are not promised), every other value bit for bit. The basic block's row max with NaN and ±0 ties
// follows BasicBlockMaxImpl's order (also on Ascend310P1: the 2002 file's SoftMaxBasicBlock runs
// the same reductions, its AlignedBrcbImpl storing the same float statistics). Half statistics in
// one-row splits whose Brcbs write past the buffer: refused in checked mode, compared unchecked
// with the UB bytes after the buffer. SoftMax with isBasicBlock on Ascend310P1 (2002) against
// replay_softmax_basic_v200_scratch.h, the same way. SimpleSoftMax's config path with a tiling of
// the other statistics type (2201, 2002): half statistics refused in checked mode, then compared
// unchecked; the default config's generic loop with such a tiling the same way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_softmax_basic_scratch.h"
#include "replay_softmax_basic_v200_scratch.h"
#include "replay_softmax_scratch.h"
#include "scratch_test_util.h"
#include "tiling/tiling_api.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using rp::scratch_test::Aligned32;

constexpr uint32_t kPast = 64;  // elements past dst and the statistics
constexpr const char* k910B = "Ascend910B1";
constexpr const char* k310P = "Ascend310P1";

template <class T>
using Dev = std::conditional_t<std::is_same_v<T, rp::Half>, half, float>;
template <class T>
using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

enum class Api { kSoftMax, kSimple };

struct Case {
  uint32_t m, k, oriK;
  uint32_t tmpBytes;
  bool hostTiling;   // the host SoftMaxTilingFunc for [m, k]; else one for another shape (re-tile)
  bool basic;        // isBasicBlock (SimpleSoftMax; SoftMax here always, or its config)
  bool cfg = false;  // SoftMax with kCfg16x128 (isBasicBlock false): its basic shape
  uint32_t tilingBytes = 0;  // the host tiling's buffer size (0: tmpBytes)
  uint32_t tilingType = 0;   // the host tiling's dataTypeSize (0: the statistics')
};

// The constant-shape config whose shape passes SoftMaxNDImpl's basic-block test (oriSrcK % 64,
// below 2048, oriSrcM % 8): SoftMaxBasicBlock runs whatever isBasicBlock says.
constexpr AscendC::SoftmaxConfig kCfg16x128{true, 16, 128};
// SimpleSoftMax's config path (SimpleSoftMaxGenericNDImpl: splitK and 32-byte statistics rows,
// the host tiling's own values).
constexpr AscendC::SoftmaxConfig kCfg8x36{true, 8, 36};

template <class T, class S>
struct Mem {
  std::vector<T> src, dst;
  std::vector<S> sum, max;
  std::vector<uint8_t> tmp;
};

template <class T>
T Special(uint32_t pick) {
  const uint32_t f32[] = {0x80000000u, 0x00000000u, 0x00000003u, 0x807FFFFFu,
                          0x7F800000u, 0xFF800000u, 0x7FC00000u};
  const uint16_t f16[] = {0x8000u, 0x0000u, 0x0001u, 0x83FFu, 0x7C00u, 0xFC00u, 0x7E00u};
  T v;
  if constexpr (sizeof(T) == 2) {
    std::memcpy(&v, &f16[pick % 7], 2);
  } else {
    std::memcpy(&v, &f32[pick % 7], 4);
  }
  return v;
}

// Values in [lo, hi), specials on about one in 97 (none when `specials` is false).
template <class T>
std::vector<T> Values(std::mt19937& gen, size_t n, float lo, float hi, bool specials) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<T> v(n);
  for (T& e : v) e = rp::FromFloat<T>(d(gen));
  for (size_t i = 0; specials && i < n; ++i) {
    if (gen() % 97 == 0) v[i] = Special<T>(gen());
  }
  return v;
}

// The call under test: SoftMax (isBasicBlock, or the config's basic shape) or SimpleSoftMax half,
// with sharedTmpBuffer or the stack buffer.
template <class T, class S, Api kApi>
void Call(const Case& c, const SoftMaxTiling& t, const AscendC::SoftMaxShapeInfo& si,
          const LocalTensor<Dev<T>>& d, const LocalTensor<Dev<S>>& sm,
          const LocalTensor<Dev<S>>& mx, const LocalTensor<Dev<T>>& s,
          const LocalTensor<uint8_t>& tmp, bool stack) {
  if constexpr (kApi == Api::kSoftMax) {
    if (c.cfg && stack) {
      AscendC::SoftMax<Dev<T>, false, false, false, kCfg16x128>(d, sm, mx, s, t, si);
    } else if (c.cfg) {
      AscendC::SoftMax<Dev<T>, false, false, false, kCfg16x128>(d, sm, mx, s, tmp, t, si);
    } else if (stack) {
      AscendC::SoftMax<Dev<T>, false, true>(d, sm, mx, s, t, si);
    } else {
      AscendC::SoftMax<Dev<T>, false, true>(d, sm, mx, s, tmp, t, si);
    }
  } else if (c.cfg) {  // kCfg8x36, the generic path's config form
    if (stack) {
      AscendC::SimpleSoftMax<half, false, false, false, kCfg8x36>(d, sm, mx, s, t, si);
    } else {
      AscendC::SimpleSoftMax<half, false, false, false, kCfg8x36>(d, sm, mx, s, tmp, t, si);
    }
  } else if (c.basic) {
    if (stack) {
      AscendC::SimpleSoftMax<half, false, true>(d, sm, mx, s, t, si);
    } else {
      AscendC::SimpleSoftMax<half, false, true>(d, sm, mx, s, tmp, t, si);
    }
  } else if (stack) {
    AscendC::SimpleSoftMax<half>(d, sm, mx, s, t, si);
  } else {
    AscendC::SimpleSoftMax<half>(d, sm, mx, s, tmp, t, si);
  }
}

// in.tmp: the work buffer's c.tmpBytes and the UB bytes after it (own buffer only). check: where
// given, a check the call raises is caught and named there (the memory read after it).
template <class T, class S, Api kApi>
Mem<T, S> RunKernel(const char* soc, const Case& c, const SoftMaxTiling& t, const Mem<T, S>& in,
                    bool stack, std::string* check = nullptr) {
  Mem<T, S> out;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  opts.sequential = true;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt, filler;
    const auto n = static_cast<uint32_t>(in.src.size()), nd = static_cast<uint32_t>(in.dst.size());
    const auto ns = static_cast<uint32_t>(in.sum.size());
    pipe.InitBuffer(bs, Aligned32(n * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(nd * sizeof(T)));
    pipe.InitBuffer(bsum, Aligned32(ns * sizeof(S)));
    pipe.InitBuffer(bmax, Aligned32(ns * sizeof(S)));
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, c.tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<Dev<T>> s = bs.Get<Dev<T>>(n), d = bd.Get<Dev<T>>(nd);
    LocalTensor<Dev<S>> sm = bsum.Get<Dev<S>>(ns), mx = bmax.Get<Dev<S>>(ns);
    std::memcpy(s.HostPtr(), in.src.data(), n * sizeof(T));
    std::memcpy(d.HostPtr(), in.dst.data(), nd * sizeof(T));
    std::memcpy(sm.HostPtr(), in.sum.data(), ns * sizeof(S));
    std::memcpy(mx.HostPtr(), in.max.data(), ns * sizeof(S));
    std::memcpy(tmp.HostPtr(), in.tmp.data(), in.tmp.size());
    const AscendC::SoftMaxShapeInfo si{c.m, c.k, c.m, c.oriK};
    try {
      Call<T, S, kApi>(c, t, si, d, sm, mx, s, tmp, stack);
    } catch (const lngrad::aicore::KernelCheckError& e) {
      if (check == nullptr) throw;
      lngrad::aicore::DismissKernelCheck(e);
      *check = e.check();
    }
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    out.src.resize(n);
    out.dst.resize(nd);
    out.sum.resize(ns);
    out.max.resize(ns);
    std::memcpy(out.src.data(), s.HostPtr(), n * sizeof(T));
    std::memcpy(out.dst.data(), d.HostPtr(), nd * sizeof(T));
    std::memcpy(out.sum.data(), sm.HostPtr(), ns * sizeof(S));
    std::memcpy(out.max.data(), mx.HostPtr(), ns * sizeof(S));
    out.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + in.tmp.size());
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

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

void ExpectWork(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size() / 4; ++i) {
    uint32_t g, w;
    std::memcpy(&g, got.data() + 4 * i, 4);
    std::memcpy(&w, want.data() + 4 * i, 4);
    if (g != w && !(IsNaN(g) && IsNaN(w))) {
      ADD_FAILURE() << "the work buffer differs from the replay's: first at float " << i << " of "
                    << got.size() / 4 << ": lngrad 0x" << std::hex << g << ", replay 0x" << w;
      return;
    }
  }
  EXPECT_TRUE(
      std::equal(got.begin() + got.size() / 4 * 4, got.end(), want.begin() + want.size() / 4 * 4));
}

// The tiling the kernel runs: the host one for [m, k] (statistics' type size), or the kernel's
// re-tile of a tiling made for another shape (the replay library's SmxKernelTiling).
template <class T, class S>
void Tilings(const Case& c, SoftMaxTiling* given, rp::SmxTiling* kt) {
  if (c.hostTiling) {
    const uint32_t bytes = c.tilingBytes != 0 ? c.tilingBytes : c.tmpBytes;
    const uint32_t type = c.tilingType != 0 ? c.tilingType : sizeof(S);
    AscendC::SoftMaxTilingFunc(ge::Shape({c.m, c.k}), type, bytes, *given);
    std::memcpy(kt, given, sizeof *kt);
    return;
  }
  const uint32_t other = c.m == 8 ? 16 : 8;
  AscendC::SoftMaxTilingFunc(ge::Shape({other, c.k}), sizeof(S), c.tmpBytes, *given);
  *kt = rp::SmxKernelTiling(c.tmpBytes / 4, c.m, c.k, c.m, sizeof(T), sizeof(S), c.basic && !c.cfg);
}

// Returns the cases compared: a tiling leaving rows (refused in checked mode) is not run; one
// whose sequence the replay does not cover is run, not compared (lngrad leaves its buffer marked;
// Sweep asks that most cases are compared). With c0.tilingType set, a call checked mode refuses
// (softmax_device_defect, nothing written) is compared unchecked and counted in *refused.
template <class T, class S, Api kApi>
int Check(const char* soc, const Case& c0, uint32_t seed, int* refused = nullptr) {
  int compared = 0;
  for (const bool stack : {false, true}) {
    Case c = c0;
    if (stack) c.tmpBytes = c.tmpBytes / 32 * 32;  // the stack buffer comes in 32-byte blocks
    SCOPED_TRACE(std::string(soc) + (kApi == Api::kSoftMax ? " SoftMax" : " SimpleSoftMax") +
                 (sizeof(T) == 2 ? "<half" : "<float") + (sizeof(S) == 2 ? ", half" : ", float") +
                 " statistics> m " + std::to_string(c.m) + " k " + std::to_string(c.k) + " oriK " +
                 std::to_string(c.oriK) + " tmp " + std::to_string(c.tmpBytes) +
                 (c.hostTiling ? " host tiling" : " re-tile") + (c.basic ? " basic" : "") +
                 (c.cfg ? (kApi == Api::kSimple ? " config 8x36" : " config 16x128") : "") +
                 (stack ? " stack" : "") + " seed " + std::to_string(seed));
    SoftMaxTiling given;
    rp::SmxTiling kt;
    Tilings<T, S>(c, &given, &kt);
    // The basic forms compute rangeM full splits: a tiling leaving rows is refused (checked mode).
    if (c.basic && uint64_t{kt.rangeM} * kt.splitM != c.m) {
      continue;
    }
    std::mt19937 gen(seed);
    Mem<T, S> in;
    const size_t n = size_t{c.m} * c.k, ns = size_t{c.m} * (32 / sizeof(S)) + kPast;
    in.src = Values<T>(gen, n, -4.0f, 4.0f, true);
    in.dst = Values<T>(gen, n + kPast, -9.0f, 9.0f, false);
    const bool simple = kApi == Api::kSimple;
    in.sum = Values<S>(gen, ns, simple ? 0.5f : -9.0f, simple ? 40.0f : 9.0f, simple);
    in.max = Values<S>(gen, ns, simple ? -4.0f : -9.0f, simple ? 4.0f : 9.0f, simple);
    in.tmp.resize(c.tmpBytes);
    for (uint8_t& b : in.tmp) b = static_cast<uint8_t>(gen());
    std::string check;
    Mem<T, S> got =
        RunKernel<T, S, kApi>(soc, c, given, in, stack, c.tilingType != 0 ? &check : nullptr);
    if (!check.empty()) {
      EXPECT_EQ(check, "softmax_device_defect");
      ExpectWork(got.tmp, in.tmp);  // refused before anything is written
      ExpectBits(got.dst, in.dst, "dst of the refused call");
      if (refused != nullptr) ++*refused;
      const lngrad::aicore::test::CheckedModeScope unchecked(false);
      got = RunKernel<T, S, kApi>(soc, c, given, in, stack);
    }
    if (::testing::Test::HasFailure()) return compared;
    Mem<T, S> want = in;
    bool covered = false;
    if constexpr (kApi == Api::kSoftMax) {
      const auto replay = std::string(soc) == k310P ? rp::ReplaySoftMaxBasicWorkV200<T, S>
                                                    : rp::ReplaySoftMaxBasicWork<T, S>;
      covered = replay(kt, in.src.data(), want.dst.data(), want.dst.size(), want.sum.data(),
                       want.max.data(), ns, want.tmp);
    } else {
      covered = rp::ReplaySimpleSoftMaxHalfWork<S>(kt, c.basic, std::string(soc) == k310P,
                                                   in.src.data(), want.dst.data(), in.sum.data(),
                                                   in.max.data(), ns, want.tmp, c.cfg);
    }
    if (!covered) {
      continue;
    }
    ++compared;
    ExpectWork(got.tmp, want.tmp);
    ExpectBits(got.dst, want.dst, "dst (and the elements past it)");
    ExpectBits(got.sum, want.sum, "sum (and the elements past it)");
    ExpectBits(got.max, want.max, "max (and the elements past it)");
    ExpectBits(got.src, in.src, "src");
  }
  return compared;
}

struct Shape {
  uint32_t m, k, oriK;
};

// Scratch sizes: splits of 1 row (float statistics; half ones: 2), 2 rows plus 12 bytes (no
// multiple of 32), 4 rows, and a large buffer (GetSoftMaxMaxTmpSize, at least 8 rows).
template <class T, class S>
std::vector<uint32_t> Sizes(const Shape& s) {
  const uint32_t row = (32 / sizeof(T) + s.k + 64) * 4;  // the one-row minimum
  const uint32_t max = AscendC::GetSoftMaxMaxTmpSize(ge::Shape({s.m, s.k}), sizeof(T), false);
  return {row * (sizeof(S) == 2 ? 2 : 1), row * 2 + 12, row * 4, std::max(max, row * 8)};
}

// Every shape and size; most cases must be compared (both overloads, both tilings).
// tilingType: the host tiling's dataTypeSize (0: the statistics'); returns the refused cases.
template <class T, class S, Api kApi>
int Sweep(const std::vector<Shape>& shapes, bool basic, uint32_t seed, bool cfg = false,
          const char* soc = k910B, uint32_t tilingType = 0) {
  int compared = 0, cases = 0, refused = 0;
  for (const Shape& s : shapes) {
    for (const uint32_t bytes : Sizes<T, S>(s)) {
      for (const bool host : {true, false}) {
        const Case c{s.m, s.k, s.oriK, bytes, host, basic, cfg, 0, tilingType};
        compared += Check<T, S, kApi>(soc, c, seed++, &refused);
        cases += 2;
      }
    }
  }
  EXPECT_GE(compared * 4, cases * 3) << compared << " of " << cases << " cases compared";
  return refused;
}

// isBasicBlock's shapes (srcM a multiple of 8, srcK a multiple of 64 below 2048; oriK is not read).
const std::vector<Shape> kBasicFloat = {{8, 64, 64},  {16, 128, 100},  {8, 192, 192},
                                        {24, 64, 64}, {8, 512, 500},   {32, 256, 256},
                                        {64, 64, 64}, {8, 1984, 1984}, {40, 320, 320}};
const std::vector<Shape> kBasicHalf = {{8, 128, 128},  {16, 192, 150},  {8, 256, 256},
                                       {24, 128, 128}, {8, 1024, 1000}, {32, 384, 384},
                                       {64, 128, 128}, {8, 1920, 1920}};

TEST(SoftMaxBasicScratchReplay, FloatMatchesTheKitsBufferAndStatisticsByteForByte) {
  Sweep<float, float, Api::kSoftMax>(kBasicFloat, true, 6100);
}

TEST(SoftMaxBasicScratchReplay, HalfMatchesTheKitsBufferAndStatisticsByteForByte) {
  Sweep<rp::Half, rp::Half, Api::kSoftMax>(kBasicHalf, true, 6300);
}

TEST(SoftMaxBasicScratchReplay, HalfWithFloatStatisticsMatchesTheKitsBufferByteForByte) {
  Sweep<rp::Half, float, Api::kSoftMax>(kBasicHalf, true, 6500);
}

// On 2002 (Ascend310P1) against the 2002 replay (replay_softmax_basic_v200_scratch.h): the same
// reductions, AlignedBrcbImpl's broadcasts (half statistics: 16 copies of a row's value from
// group results read before the group is written), the Casts to half rounding to nearest even.
TEST(SoftMaxBasicScratchReplay, On2002MatchesTheKitsBufferAndStatisticsByteForByte) {
  Sweep<float, float, Api::kSoftMax>(kBasicFloat, true, 7600, false, k310P);
  Sweep<rp::Half, rp::Half, Api::kSoftMax>(kBasicHalf, true, 7700, false, k310P);
  Sweep<rp::Half, float, Api::kSoftMax>(kBasicHalf, true, 7800, false, k310P);
  // Half statistics in one-row splits (the host tiling for a one-row buffer, run with one that
  // holds the broadcast's 128 floats): the group results lie inside the broadcast's first 128
  // floats, 2201's second Brcb reads the first's overwrite there.
  for (const uint32_t k : {128u, 256u}) {
    const uint32_t row = (16 + k + 64) * 4;
    const Case c{8, k, k, row + 256, true, true, false, row};
    EXPECT_EQ((Check<rp::Half, rp::Half, Api::kSoftMax>(k310P, c, 7900 + k)), 2);
  }
}

// The constant-shape config's basic shape [16, 128] (isBasicBlock false) runs SoftMaxBasicBlock.
TEST(SoftMaxBasicScratchReplay, ConfigBasicShapeMatchesTheKitsBufferByteForByte) {
  const std::vector<Shape> shape = {{16, 128, 128}};
  Sweep<float, float, Api::kSoftMax>(shape, true, 7300, true);
  Sweep<rp::Half, rp::Half, Api::kSoftMax>(shape, true, 7400, true);
  Sweep<rp::Half, float, Api::kSoftMax>(shape, true, 7500, true);
}

// SimpleSoftMax, half data: the generic loop (tails, any srcK a multiple of 16) and isBasicBlock.
const std::vector<Shape> kSimpleHalf = {{1, 16, 16},  {3, 48, 40},   {13, 128, 128},
                                        {40, 64, 64}, {7, 320, 300}, {2, 2048, 2048},
                                        {33, 16, 16}, {9, 208, 208}};

TEST(SimpleSoftMaxHalfScratchReplay, GenericLoopMatchesTheKitsBufferByteForByte) {
  Sweep<rp::Half, rp::Half, Api::kSimple>(kSimpleHalf, false, 6700);
  Sweep<rp::Half, float, Api::kSimple>(kSimpleHalf, false, 6800);
}

TEST(SimpleSoftMaxHalfScratchReplay, BasicBlockMatchesTheKitsBufferByteForByte) {
  Sweep<rp::Half, rp::Half, Api::kSimple>(kBasicHalf, true, 6900);
  Sweep<rp::Half, float, Api::kSimple>(kBasicHalf, true, 7000);
}

// The constant-shape config's generic path (2201) with the host tiling, whose reduceK is the
// config's 32-byte rows: the default loop's buffer (marked before session 22). The kernel's
// re-tile of another shape's tiling gives the same reduceK here.
TEST(SimpleSoftMaxHalfScratchReplay, ConstantShapeConfigMatchesTheKitsBufferByteForByte) {
  Sweep<rp::Half, rp::Half, Api::kSimple>(kSimpleHalf, false, 8100, true);
  Sweep<rp::Half, float, Api::kSimple>(kSimpleHalf, false, 8200, true);
}

// The config's generic path with a host tiling made for the other statistics type (reduceK 16
// with float statistics, 8 with half ones; marked before session 23), on 2201 and 2002 (the same
// membase/common code): its Sub and Div read 32-byte statistics rows whatever reduceK. Float
// statistics: every row its own, dst and the buffer as lngrad computes them. Half statistics: the
// float copy holds curSplitM * 8 values, so rows past half the split read what the buffer held
// (and later splits other rows): refused in checked mode (softmax_device_defect, nothing
// written), unchecked dst and the buffer as the replay's.
TEST(SimpleSoftMaxHalfScratchReplay, ConstantShapeConfigWithAnotherReduceKMatchesTheKit) {
  for (const char* soc : {k910B, k310P}) {
    EXPECT_EQ((Sweep<rp::Half, float, Api::kSimple>(kSimpleHalf, false, 8500, true, soc, 2)), 0);
    EXPECT_GT((Sweep<rp::Half, rp::Half, Api::kSimple>(kSimpleHalf, false, 8600, true, soc, 4)),
              10);
  }
}

// The default config's generic loop with a host tiling made for the other statistics type
// (session 23, sx2): GenericSub/DivNDImpl read row r's statistics at r * reduceK (2002's
// float-statistics branch at 8 r). Rows reading others' statistics are refused in checked mode
// (softmax_device_defect, nothing written), then compared unchecked; 2002 with float statistics
// reads its own rows and runs.
TEST(SimpleSoftMaxHalfScratchReplay, GenericLoopWithAnotherReduceKMatchesTheKit) {
  EXPECT_GT((Sweep<rp::Half, rp::Half, Api::kSimple>(kSimpleHalf, false, 8700, false, k910B, 4)),
            10);
  EXPECT_GT((Sweep<rp::Half, float, Api::kSimple>(kSimpleHalf, false, 8800, false, k910B, 2)), 10);
  EXPECT_GT((Sweep<rp::Half, rp::Half, Api::kSimple>(kSimpleHalf, false, 8900, false, k310P, 4)),
            10);
  EXPECT_EQ((Sweep<rp::Half, float, Api::kSimple>(kSimpleHalf, false, 9000, false, k310P, 2)), 0);
}

// isBasicBlock on 2002 (Ascend310P1): SimpleSoftMaxBasicBlock is membase/common's, its buffer the
// 2201 steps (marked before session 22).
TEST(SimpleSoftMaxHalfScratchReplay, BasicBlockOn2002MatchesTheKitsBufferByteForByte) {
  Sweep<rp::Half, rp::Half, Api::kSimple>(kBasicHalf, true, 8300, false, k310P);
  Sweep<rp::Half, float, Api::kSimple>(kBasicHalf, true, 8400, false, k310P);
}

// BasicBlockMaxImpl's order for NaN and ±0 ties (lngrad folded the row left to right before,
// keeping a NaN only at column 0 and the first of tied zeros): float [8, k] in one split of 8
// rows, every Max `a > b ? a : b`. k = 256: 8 rows > 4 chunks, Max(acc, chunk) from chunk 2, so
// a NaN survives only in the last chunk; k = 1024: 8 <= 16 chunks, Max(chunk, acc), so a NaN
// survives only in chunk 0 + chunk 1's accumulator. Row 0: NaN at column 0 (Max(chunk 0, chunk 1)
// drops it); row 1: NaN at column 64 (k = 1024: NaN); row 2: NaN at column 130; row 3: -0 at 0,
// +0 at 64 and 190, the rest negative: +0; row 4: +0 at 0, -0 at 64: -0; row 5: NaN at column
// k - 57 (k = 256: NaN). On Ascend910B1 and Ascend310P1 (the 2002 SoftMaxBasicBlock runs the same
// reductions; its AlignedBrcbImpl stores the same float statistics).
TEST(SoftMaxBasicScratchReplay, RowMaxFollowsBasicBlockMaxImplForNanAndSignedZeros) {
  for (const uint32_t k : {256u, 1024u}) {
    for (const char* soc : {k910B, k310P}) {
      SCOPED_TRACE(std::string(soc) + " k " + std::to_string(k));
      constexpr uint32_t kM = 8;
      const uint32_t bytes = AscendC::GetSoftMaxMaxTmpSize(ge::Shape({kM, k}), 4, false);
      const Case c{kM, k, k, bytes, true, true};
      SoftMaxTiling given;
      rp::SmxTiling kt;
      Tilings<float, float>(c, &given, &kt);
      ASSERT_EQ(kt.splitM, kM);
      std::mt19937 gen(7100 + k);
      Mem<float, float> in;
      in.src = Values<float>(gen, size_t{kM} * k, -4.0f, -1.0f, false);
      in.src[0] = NAN;
      in.src[k + 64] = NAN;
      in.src[2 * k + 130] = NAN;
      in.src[3 * k] = -0.0f;
      in.src[3 * k + 64] = 0.0f;
      in.src[3 * k + 190] = 0.0f;
      in.src[4 * k] = 0.0f;
      in.src[4 * k + 64] = -0.0f;
      in.src[5 * k + k - 57] = NAN;
      in.dst.assign(size_t{kM} * k + kPast, 0.0f);
      in.sum.assign(kM * 8 + kPast, 0.0f);
      in.max = in.sum;
      in.tmp.assign(bytes, 0);
      const Mem<float, float> got =
          RunKernel<float, float, Api::kSoftMax>(soc, c, given, in, false);
      ASSERT_FALSE(::testing::Test::HasFailure());
      Mem<float, float> want = in;
      ASSERT_TRUE((rp::ReplaySoftMaxBasicWork<float, float>(
          kt, in.src.data(), want.dst.data(), want.dst.size(), want.sum.data(), want.max.data(),
          in.sum.size(), want.tmp)));
      EXPECT_FALSE(std::isnan(got.max[0])) << "row 0: the NaN at column 0 is dropped";
      EXPECT_EQ(std::isnan(got.max[8]), k == 1024) << "row 1";
      EXPECT_FALSE(std::isnan(got.max[16])) << "row 2";
      EXPECT_EQ(std::isnan(got.max[40]), k == 256) << "row 5";
      EXPECT_EQ(got.max[24], 0.0f);
      EXPECT_FALSE(std::signbit(got.max[24])) << "row 3: +0";
      EXPECT_TRUE(std::signbit(got.max[32])) << "row 4: -0";
      ExpectBits(got.dst, want.dst, "dst");
      ExpectBits(got.sum, want.sum, "sum");
      ExpectBits(got.max, want.max, "max");
    }
  }
}

// Splits of one row store 8 float statistics rows each (Brcb of ceil(1 / 8) groups): the last
// split's reach 7 rows past the call's. Checked mode refuses them past sumTensor and maxTensor of
// exactly the call's rows (tensor_bounds, as any overrun), before anything is written; the kit
// does not assert, its stores land past the tensors (the sweep above compares them).
TEST(SoftMaxBasicScratchReplay, CheckedModeRefusesStatisticsStoresPastTheTensors) {
  constexpr uint32_t kM = 8, kK = 64;
  const uint32_t bytes = (8 + kK + 64) * 4;  // one row a split
  SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(ge::Shape({kM, kK}), 4, bytes, t);
  ASSERT_EQ(t.splitM, 1u);
  lngrad::aicore::LaunchOptions opts;
  opts.soc = k910B;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<> bs, bd, bsum, bmax, bt;
        pipe.InitBuffer(bs, kM * kK * 4);
        pipe.InitBuffer(bd, kM * kK * 4);
        pipe.InitBuffer(bsum, kM * 8 * 4);
        pipe.InitBuffer(bmax, kM * 8 * 4);
        pipe.InitBuffer(bt, Aligned32(bytes));
        LocalTensor<float> s = bs.Get<float>(), d = bd.Get<float>();
        LocalTensor<float> sm = bsum.Get<float>(), mx = bmax.Get<float>();
        for (uint32_t i = 0; i < kM * kK; ++i) s.SetValue(i, 0.25f * static_cast<float>(i % 7));
        AscendC::SoftMax<float, false, true>(d, sm, mx, s, bt.Get<uint8_t>(bytes), t,
                                             {kM, kK, kM, kK});
      },
      opts);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("tensor_bounds"), std::string::npos) << st.ToString();
  EXPECT_NE(st.ToString().find("sumTensor"), std::string::npos) << st.ToString();
}

// Every byte of src, dst, the statistics and the work buffer (and the UB after it) the same.
template <class T, class S>
bool SameMem(const Mem<T, S>& a, const Mem<T, S>& b) {
  const auto same = [](const auto& x, const auto& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof x[0]) == 0;
  };
  return same(a.src, b.src) && same(a.dst, b.dst) && same(a.sum, b.sum) && same(a.max, b.max) &&
         same(a.tmp, b.tmp);
}

// Half data with half statistics in splits of one row (buffers of k + 80 to k + 127 floats: the
// host tiling's and the kernel's re-tile's one row, GetSoftMaxMinTmpSize's minimum included):
// SoftMaxBasicBlock's two Brcbs write 128 floats from tmpBuffer1 at splitSize, up to 48 past the
// buffer. Checked mode refuses the call before writing anything (tensor_bounds, the Brcbs
// named); unchecked, the buffer and the UB bytes after it, dst and the statistics (lanes 8..15:
// the group result the first Brcb left at tmpBuffer1 + 64) match the replay byte for byte. A
// buffer of k + 128 floats (the same splits) is not refused.
TEST(SoftMaxBasicScratchReplay, HalfStatisticsOneRowSplitsWritePastTheBufferAsTheKit) {
  using H = rp::Half;
  constexpr uint32_t kWindow = 256;  // UB bytes compared after the buffer
  uint32_t seed = 900;
  for (const Shape& sh : {Shape{8, 128, 128}, {16, 192, 150}, {8, 1024, 1000}, {8, 1920, 1920}}) {
    for (const uint32_t extra : {80u, 101u, 127u, 128u}) {  // the buffer's floats past splitSize
      for (const bool host : {true, false}) {
        const Case c{sh.m, sh.k, sh.oriK, (sh.k + extra) * 4, host, true};
        SCOPED_TRACE("k " + std::to_string(sh.k) + " tmp " + std::to_string(c.tmpBytes) +
                     (host ? " host tiling" : " re-tile"));
        SoftMaxTiling given;
        rp::SmxTiling kt;
        Tilings<H, H>(c, &given, &kt);
        ASSERT_EQ(kt.splitM, 1u);
        const bool past = rp::SoftMaxBasicWorkReach(kt, true, true) * 4 > c.tmpBytes;
        ASSERT_EQ(past, extra < 128);
        std::mt19937 gen(seed++);
        Mem<H, H> in;
        const size_t n = size_t{c.m} * c.k, ns = size_t{c.m} * 16 + kPast;
        in.src = Values<H>(gen, n, -4.0f, 4.0f, true);
        in.dst = Values<H>(gen, n + kPast, -9.0f, 9.0f, false);
        in.sum = Values<H>(gen, ns, -9.0f, 9.0f, false);
        in.max = Values<H>(gen, ns, -9.0f, 9.0f, false);
        in.tmp.resize(c.tmpBytes + kWindow);
        for (uint8_t& b : in.tmp) b = static_cast<uint8_t>(gen());
        std::string check;
        const Mem<H, H> kept = RunKernel<H, H, Api::kSoftMax>(k910B, c, given, in, false, &check);
        EXPECT_EQ(check, past ? "tensor_bounds" : "");
        if (past) {
          EXPECT_TRUE(SameMem(kept, in)) << "the refused call wrote";
        }
        const lngrad::aicore::test::CheckedModeScope mode(false);
        const Mem<H, H> got = RunKernel<H, H, Api::kSoftMax>(k910B, c, given, in, false);
        Mem<H, H> want = in;
        ASSERT_TRUE(
            (rp::ReplaySoftMaxBasicWork<H, H>(kt, in.src.data(), want.dst.data(), want.dst.size(),
                                              want.sum.data(), want.max.data(), ns, want.tmp)));
        ExpectWork(got.tmp, want.tmp);
        ExpectBits(got.dst, want.dst, "dst (and the elements past it)");
        ExpectBits(got.sum, want.sum, "sum (and the elements past it)");
        ExpectBits(got.max, want.max, "max (and the elements past it)");
        ExpectBits(got.src, in.src, "src");
      }
    }
  }
}

// The stack buffer's overloads: the buffer ends where the UB does, so the Brcbs' blocks past it
// lie past the UB: refused in either mode (tensor_bounds checked, ub_bounds unchecked).
TEST(SoftMaxBasicScratchReplay, HalfStatisticsOneRowSplitsPastTheUbAreRefused) {
  using H = rp::Half;
  const Case c{8, 128, 128, (128 + 96) * 4, true, true};
  SoftMaxTiling given;
  rp::SmxTiling kt;
  Tilings<H, H>(c, &given, &kt);
  ASSERT_EQ(kt.splitM, 1u);
  Mem<H, H> in;
  std::mt19937 gen(77);
  in.src = Values<H>(gen, size_t{c.m} * c.k, -4.0f, 4.0f, false);
  in.dst = in.src;
  in.sum = Values<H>(gen, size_t{c.m} * 16 + kPast, -9.0f, 9.0f, false);
  in.max = in.sum;
  in.tmp.resize(c.tmpBytes);
  for (const bool checked : {true, false}) {
    const lngrad::aicore::test::CheckedModeScope mode(checked);
    std::string check;
    const Mem<H, H> kept = RunKernel<H, H, Api::kSoftMax>(k910B, c, given, in, true, &check);
    EXPECT_EQ(check, checked ? "tensor_bounds" : "ub_bounds");
    EXPECT_TRUE(SameMem(kept, in)) << "the refused call wrote";
  }
}

// The constant-shape config's generic path whose reductions take the tiling's parameters
// (config.oriSrcK rounded up to 8 equal to srcK, the tiling's reduceK the statistics' 8 floats):
// membase/v220/softmax_impl.h's SoftMaxNDImpl runs SoftMaxNDExtImpl (SingleSoftMaxImpl's loop
// without statistics) with reduceParam {splitM, oriSrcK, splitM, splitK, reduceM, 8}, the default
// loop's with oriK = config.oriSrcK, so the generic work replay (replay_softmax_scratch.h, sm1)
// with that oriK gives the kit's buffer. Float, with and without statistics, both overloads.
// With config.oriSrcK rounded up to 8 (splitK) below srcK (unchecked: checked mode refuses the
// rows the device mixes) the reductions read row i of a split at i * splitK: the replay's
// reductions take their row stride from the tiling's splitK field (Rows{splitM, oriK, splitK}),
// so it is given the config's splitK (session 22; marked before).
template <const AscendC::SoftmaxConfig& kCfg>
void CheckConfigGeneric(uint32_t m, uint32_t k, uint32_t bytes, uint32_t seed) {
  const uint32_t splitK = (kCfg.oriSrcK + 7) / 8 * 8;
  const lngrad::aicore::test::CheckedModeScope mode(splitK == k);
  for (const bool stats : {true, false}) {
    for (const bool stack : {false, true}) {
      const uint32_t tmpBytes = stack ? bytes / 32 * 32 : bytes;
      SCOPED_TRACE("config " + std::to_string(kCfg.oriSrcM) + "x" + std::to_string(kCfg.oriSrcK) +
                   " [" + std::to_string(m) + ", " + std::to_string(k) + "] tmp " +
                   std::to_string(tmpBytes) + (stats ? " statistics" : "") +
                   (stack ? " stack" : ""));
      SoftMaxTiling t;
      AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), 4, tmpBytes, t);
      std::mt19937 gen(seed++);
      Mem<float, float> in;
      in.src = Values<float>(gen, size_t{m} * k, -4.0f, 4.0f, false);
      in.dst = Values<float>(gen, size_t{m} * k + kPast, -9.0f, 9.0f, false);
      in.sum = Values<float>(gen, size_t{m} * 8 + kPast, -9.0f, 9.0f, false);
      in.max = Values<float>(gen, in.sum.size(), -9.0f, 9.0f, false);
      in.tmp.resize(tmpBytes);
      for (uint8_t& b : in.tmp) b = static_cast<uint8_t>(gen());
      Mem<float, float> got;
      lngrad::aicore::LaunchOptions opts;
      opts.soc = k910B;
      const lngrad::Status st = lngrad::aicore::Launch(
          1,
          [&] {
            AscendC::TPipe pipe;
            AscendC::TBuf<> bs, bd, bsum, bmax, bt, filler;
            pipe.InitBuffer(bs, Aligned32(in.src.size() * 4));
            pipe.InitBuffer(bd, Aligned32(in.dst.size() * 4));
            pipe.InitBuffer(bsum, Aligned32(in.sum.size() * 4));
            pipe.InitBuffer(bmax, Aligned32(in.sum.size() * 4));
            LocalTensor<uint8_t> tmp;
            rp::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
            if (::testing::Test::HasFatalFailure()) return;
            LocalTensor<float> s = bs.Get<float>(in.src.size()), d = bd.Get<float>(in.dst.size());
            LocalTensor<float> sm = bsum.Get<float>(in.sum.size());
            LocalTensor<float> mx = bmax.Get<float>(in.sum.size());
            std::memcpy(s.HostPtr(), in.src.data(), in.src.size() * 4);
            std::memcpy(d.HostPtr(), in.dst.data(), in.dst.size() * 4);
            std::memcpy(sm.HostPtr(), in.sum.data(), in.sum.size() * 4);
            std::memcpy(mx.HostPtr(), in.max.data(), in.max.size() * 4);
            std::memcpy(tmp.HostPtr(), in.tmp.data(), tmpBytes);
            const AscendC::SoftMaxShapeInfo si{m, k, m, k};
            if (stats && stack) {
              AscendC::SoftMax<float, false, false, false, kCfg>(d, sm, mx, s, t, si);
            } else if (stats) {
              AscendC::SoftMax<float, false, false, false, kCfg>(d, sm, mx, s, tmp, t, si);
            } else if (stack) {
              AscendC::SoftMax<float, false, false, kCfg>(d, s, t, si);
            } else {
              AscendC::SoftMax<float, false, false, kCfg>(d, s, tmp, t, si);
            }
            if (stack) {
              ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
            }
            got.dst.assign(d.HostPtr(), d.HostPtr() + in.dst.size());
            got.sum.assign(sm.HostPtr(), sm.HostPtr() + in.sum.size());
            got.max.assign(mx.HostPtr(), mx.HostPtr() + in.sum.size());
            got.src.assign(s.HostPtr(), s.HostPtr() + in.src.size());
            got.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
          },
          opts);
      ASSERT_TRUE(st.ok()) << st.ToString();
      Mem<float, float> want = in;
      rp::SmxTiling kt;
      std::memcpy(&kt, &t, sizeof kt);
      kt.splitK = splitK;
      rp::ReplaySoftMaxFloatWork(
          kt, kCfg.oriSrcK,
          {want.src.data(), want.dst.data(), stats ? want.sum.data() : nullptr,
           stats ? want.max.data() : nullptr, reinterpret_cast<float*>(want.tmp.data()), false});
      ExpectWork(got.tmp, want.tmp);
      ExpectBits(got.dst, want.dst, "dst (and the elements past it)");
      ExpectBits(got.sum, want.sum, "sum (and the elements past it)");
      ExpectBits(got.max, want.max, "max (and the elements past it)");
      ExpectBits(got.src, in.src, "src");
    }
  }
}

constexpr AscendC::SoftmaxConfig kCfg13x130{true, 13, 130};
constexpr AscendC::SoftmaxConfig kCfg8x20{true, 8, 20}, kCfg8x130{true, 8, 130};

TEST(SoftMaxConfigScratchReplay, GenericPathWithTheTilingsParametersMatchesTheKitsBuffer) {
  for (const uint32_t bytes : {(8u + 40 + 64) * 4 * 3 + 12, 20000u}) {
    CheckConfigGeneric<kCfg8x36>(8, 40, bytes, 7600);
  }
  for (const uint32_t bytes : {(8u + 136 + 64) * 4 * 5, (8u + 136 + 64) * 4 * 2 + 12, 40000u}) {
    CheckConfigGeneric<kCfg13x130>(13, 136, bytes, 7700);
  }
}

// splitK below srcK (unchecked): the reductions at i * splitK over the buffer, [128, 512) and
// below 64 columns, tail splits (ConfigRows through softmax_work.h SoftMaxWork's redK).
TEST(SoftMaxConfigScratchReplay, SplitKBelowSrcKMatchesTheKitsBufferUnchecked) {
  for (const uint32_t bytes : {(8u + 32 + 64) * 4 * 3 + 12, 20000u}) {
    CheckConfigGeneric<kCfg8x20>(10, 32, bytes, 7800);
  }
  for (const uint32_t bytes : {(8u + 144 + 64) * 4 * 4, (8u + 144 + 64) * 4 * 2 + 12, 40000u}) {
    CheckConfigGeneric<kCfg8x130>(9, 144, bytes, 7900);
  }
}

}  // namespace
