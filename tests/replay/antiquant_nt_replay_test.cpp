// Session 17 (helper aqn5): AscendAntiQuant's fallbacks with an offset tensor on Ascend910B1
// against replay_antiquant_nt.h (and, for the transposed bfloat16 one, replay_antiquant_bf16t.h):
// the bfloat16 fallback without transpose (AntiQuantNoTransposeImplScalar: the first k / groups
// rows, with the offset's and scale's first elements, in chunks, with the scratch) and the
// transposed fallback (AntiQuantImplScalar) whose scale index follows the offset's group count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "reduce_quant_test_util.h"
#include "replay_antiquant_3510.h"
#include "replay_antiquant_bf16t.h"
#include "replay_antiquant_nt.h"

namespace {

using namespace AscendC;                 // NOLINT(build/namespaces)
using namespace lngrad_replay::testing;  // NOLINT(build/namespaces)
using lngrad::aicore::test::CheckedModeScope;
namespace nt = lngrad_replay::aqnt;
namespace bt = lngrad_replay::aqbf16t;
namespace aq = lngrad_replay::aq3510;

constexpr uint32_t kScaleAt = 8192;  // the scale's first element in buffer 2

template <typename T>
std::vector<uint16_t> BitsOf(const std::vector<T>& v) {
  std::vector<uint16_t> b(v.size());
  if (!v.empty()) std::memcpy(b.data(), v.data(), 2 * v.size());
  return b;
}

struct Inputs {
  std::vector<uint8_t> src, tmp;  // whole buffers 1 and 3
};

Inputs RandomInputs(uint32_t seed) {
  std::mt19937 gen(seed);
  Inputs in{std::vector<uint8_t>(kUbBufBytes), std::vector<uint8_t>(kUbBufBytes)};
  for (uint8_t& b : in.src) b = static_cast<uint8_t>(gen());
  std::uniform_real_distribution<float> d(-9.0f, 9.0f);
  for (size_t i = 0; i < kUbBufBytes; i += 4) {
    const float f = d(gen);
    std::memcpy(&in.tmp[i], &f, 4);
  }
  return in;
}

// One call on Ascend910B1: src [rows, cols] at buffer 1 (all of it random), offset at buffer
// 2's start, scale at its element kScaleAt, dst buffer 0 (a sentinel), the scratch buffer 3
// (random floats) of tmpBytes bytes. Returns dst's and the scratch's buffers after the call.
template <typename S, typename D, bool isTranspose>
void RunCall(const Inputs& in, const std::vector<D>& off, const std::vector<D>& scl,
             uint32_t srcSize, uint32_t k, uint32_t tmpBytes, const AntiQuantShapeInfo& info,
             D sentinel, std::vector<D>& dst, std::vector<uint8_t>& tmpAfter) {
  OnBlock(
      [&](Ub& ub) {
        std::memcpy(ub.Get<uint8_t>(1).HostPtr(), in.src.data(), kUbBufBytes);
        std::memcpy(ub.Get<uint8_t>(3).HostPtr(), in.tmp.data(), kUbBufBytes);
        std::fill_n(ub.Get<D>(0).HostPtr(), kUbBufBytes / 2, sentinel);
        LocalTensor<D> o = ub.Get<D>(2), s = ub.Get<D>(2)[kScaleAt];
        std::copy(off.begin(), off.end(), o.HostPtr());
        std::copy(scl.begin(), scl.end(), s.HostPtr());
        o.SetSize(static_cast<uint32_t>(off.size()));
        s.SetSize(static_cast<uint32_t>(scl.size()));
        LocalTensor<S> src = ub.Get<S>(1);
        src.SetSize(srcSize);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(tmpBytes);
        AscendAntiQuant<S, D, isTranspose>(ub.Get<D>(0), src, o, s, tmp, k, info);
        dst = ub.Take<D>(0);
        tmpAfter = ub.Take<uint8_t>(3);
      },
      k910B);
}

template <typename D>
void CompareAll(const std::vector<D>& got, const std::vector<uint16_t>& want,
                const std::vector<uint8_t>& tmpGot, const std::vector<uint8_t>& tmpWant,
                uint32_t cols) {
  ASSERT_EQ(got.size(), want.size()) << "the kernel did not run";
  for (size_t e = 0; e < want.size(); ++e) {
    uint16_t b = 0;
    std::memcpy(&b, &got[e], 2);
    ASSERT_EQ(b, want[e]) << "element " << e << " (row " << e / cols << ", column " << e % cols
                          << "): lngrad " << static_cast<float>(got[e]);
  }
  for (size_t b = 0; b < tmpWant.size(); b += 4) {
    ASSERT_EQ(std::memcmp(tmpGot.data() + b, tmpWant.data() + b, 4), 0)
        << "scratch float " << b / 4 << " differs from the replay's";
  }
}

struct NtCase {
  uint32_t k, n, groups, tmpBytes;
};

// bfloat16, not transposed, offset and scale [groups, n] (their shape info), sharedTmpBuffer of
// tmpBytes (below the performance path's 8 * groups * n + 256 * k; 0: the 32-byte multiple just
// below it): dst and the whole scratch buffer against the replay.
template <typename S>
void CheckNt(NtCase c, uint32_t seed) {
  constexpr bool kInt4 = std::is_same_v<S, int4b_t>;
  if (c.tmpBytes == 0) c.tmpBytes = (8 * c.groups * c.n + 256 * c.k - 1) / 32 * 32;  // just below
  SCOPED_TRACE(std::string(kInt4 ? "int4" : "int8") + " k " + std::to_string(c.k) + " n " +
               std::to_string(c.n) + " groups " + std::to_string(c.groups) + " tmp " +
               std::to_string(c.tmpBytes) + " seed " + std::to_string(seed));
  const Inputs in = RandomInputs(seed);
  const uint32_t params = c.groups * c.n;
  const std::vector<bfloat16_t> off = Params<bfloat16_t>(seed + 1, params, 300.0f);
  const std::vector<bfloat16_t> scl = Params<bfloat16_t>(seed + 2, params, 40.0f);
  const bfloat16_t sentinel = bfloat16_t(-77.0f);
  std::vector<bfloat16_t> got;
  std::vector<uint8_t> tmpGot;
  RunCall<S, bfloat16_t, false>(in, off, scl, c.k * c.n, c.k, c.tmpBytes,
                                AntiQuantShapeInfo{c.groups, c.n, c.groups, c.n}, sentinel, got,
                                tmpGot);
  nt::NtCall call;
  call.int4 = kInt4;
  call.k = c.k;
  call.srcSize = c.k * c.n;
  call.scaleSize = params;
  call.groupCount = c.groups;
  call.tmpBytes = c.tmpBytes;
  call.offset = BitsOf(off);
  call.scale = BitsOf(scl);
  ASSERT_FALSE(nt::TakesPerformancePath(call)) << "the case takes the performance path";
  std::vector<uint16_t> want(kUbBufBytes / 2, BitsOf(std::vector<bfloat16_t>{sentinel})[0]);
  std::vector<uint8_t> tmpWant = in.tmp;
  std::vector<uint8_t> tmpIn(tmpWant.begin(), tmpWant.begin() + c.tmpBytes);
  ASSERT_TRUE(nt::Bf16NoTransposeFallback(call, in.src, tmpIn, want)) << "not replayed";
  std::copy(tmpIn.begin(), tmpIn.end(), tmpWant.begin());
  CompareAll(got, want, tmpGot, tmpWant, c.n);
}

}  // namespace

// Item 1: the bfloat16 fallback without transpose runs rows j < k / groups only, each with the
// offset's and scale's first n elements, in chunks of sharedTmpBuffer / 8 elements that take
// them from element 0 again (lngrad had computed every row by its group). Below 2201's minimum
// sharedTmpBuffer (the performance path's need): unchecked mode. int8_t and int4b_t (odd n:
// the odd rows start at the nibble below), 1, 2, 3 and 4 groups, chunks of 5, 13, 33 and the
// largest sharedTmpBuffer below the performance path's (chunks longer than a row).
TEST(AntiQuantFallbackReplay, Bf16NoTransposeRunsTheFirstRowsWithRowZero) {
  CheckedModeScope unchecked(false);
  uint32_t seed = 9100;
  for (const uint32_t tmpBytes : {40u, 104u, 264u, 0u}) {
    for (const NtCase& c : {NtCase{8, 32, 1, tmpBytes}, NtCase{8, 32, 2, tmpBytes},
                            NtCase{12, 40, 3, tmpBytes}, NtCase{16, 64, 4, tmpBytes}}) {
      CheckNt<int8_t>(c, seed += 3);
    }
    for (const NtCase& c : {NtCase{8, 33, 2, tmpBytes}, NtCase{12, 35, 3, tmpBytes},
                            NtCase{16, 64, 4, tmpBytes}, NtCase{6, 21, 1, tmpBytes}}) {
      CheckNt<int4b_t>(c, seed += 3);
    }
  }
}

namespace {

struct TCase {
  uint32_t k, n, offGroups, scaleGroups;
  uint32_t readGroups = 0;  // the parameters a row the fallback reads (k / (k / G)), if more
};

// Half, transposed, sharedTmpBuffer of 32 bytes (below the Brcb path's 64 per scale row): the
// fallback. Offset [n, offGroups], scale [n, scaleGroups] in the shape info, the scale tensor
// holding n * max(offGroups, scaleGroups) elements (what the fallback reads).
template <typename S>
void CheckHalfT(const TCase& c, uint32_t seed) {
  constexpr bool kInt4 = std::is_same_v<S, int4b_t>;
  SCOPED_TRACE(std::string(kInt4 ? "int4" : "int8") + " k " + std::to_string(c.k) + " n " +
               std::to_string(c.n) + " offset groups " + std::to_string(c.offGroups) +
               " scale groups " + std::to_string(c.scaleGroups) + " seed " + std::to_string(seed));
  const Inputs in = RandomInputs(seed);
  const std::vector<half> off =
      Params<half>(seed + 1, c.n * std::max(c.offGroups, c.readGroups), 300.0f);
  const std::vector<half> scl =
      Params<half>(seed + 2, c.n * std::max({c.offGroups, c.scaleGroups, c.readGroups}), 40.0f);
  const half sentinel = half(-77.0f);
  std::vector<half> got;
  std::vector<uint8_t> tmpGot;
  RunCall<S, half, true>(in, off, scl, c.k * c.n, c.k, 32,
                         AntiQuantShapeInfo{c.n, c.offGroups, c.n, c.scaleGroups}, sentinel, got,
                         tmpGot);
  nt::TCall call;
  call.int4 = kInt4;
  call.k = c.k;
  call.srcSize = c.k * c.n;
  call.offsetGroups = c.offGroups;
  call.offset = BitsOf(off);
  call.scale = BitsOf(scl);
  std::vector<uint16_t> want(kUbBufBytes / 2, BitsOf(std::vector<half>{sentinel})[0]);
  ASSERT_TRUE(nt::HalfTransposedFallback(call, in.src, want)) << "not replayed";
  CompareAll(got, want, tmpGot, in.tmp, c.k);  // the half fallback leaves the scratch alone
}

// bfloat16, transposed, k not a multiple of 64 (the fallback), against replay_antiquant_bf16t.h
// (its groups: the offset's width), dst and the scratch.
template <typename S>
void CheckBf16T(const TCase& c, uint32_t seed, uint32_t tmpBytes) {
  constexpr bool kInt4 = std::is_same_v<S, int4b_t>;
  SCOPED_TRACE(std::string(kInt4 ? "int4" : "int8") + " k " + std::to_string(c.k) + " n " +
               std::to_string(c.n) + " offset groups " + std::to_string(c.offGroups) +
               " scale groups " + std::to_string(c.scaleGroups) + " tmp " +
               std::to_string(tmpBytes) + " seed " + std::to_string(seed));
  const Inputs in = RandomInputs(seed);
  const std::vector<bfloat16_t> off =
      Params<bfloat16_t>(seed + 1, c.n * std::max(c.offGroups, c.readGroups), 300.0f);
  const std::vector<bfloat16_t> scl = Params<bfloat16_t>(
      seed + 2, c.n * std::max({c.offGroups, c.scaleGroups, c.readGroups}), 40.0f);
  const bfloat16_t sentinel = bfloat16_t(-77.0f);
  std::vector<bfloat16_t> got;
  std::vector<uint8_t> tmpGot;
  RunCall<S, bfloat16_t, true>(in, off, scl, c.k * c.n, c.k, tmpBytes,
                               AntiQuantShapeInfo{c.n, c.offGroups, c.n, c.scaleGroups}, sentinel,
                               got, tmpGot);
  bt::Call call;
  call.withOffset = true;
  call.int4 = kInt4;
  call.k = c.k;
  call.srcSize = c.k * c.n;
  call.scaleSize = static_cast<uint32_t>(scl.size());
  call.offsetSize = static_cast<uint32_t>(off.size());
  call.scaleRows = c.n;
  call.groups = c.offGroups;
  call.scale = BitsOf(scl);
  call.offset = BitsOf(off);
  std::vector<int8_t> values;
  if constexpr (kInt4) {
    values = aq::DecodeInt4(in.src, size_t{kUbBufBytes} * 2);
  } else {
    values.assign(in.src.begin(), in.src.end());
  }
  std::vector<uint16_t> want(kUbBufBytes / 2, BitsOf(std::vector<bfloat16_t>{sentinel})[0]);
  std::vector<uint8_t> tmpWant = in.tmp;
  std::vector<uint8_t> tmpIn(tmpWant.begin(), tmpWant.begin() + tmpBytes);
  ASSERT_FALSE(bt::TakesBrcb(call)) << "the case takes the Brcb path";
  ASSERT_TRUE(bt::Run(call, values, tmpIn, want)) << "not replayed";
  std::copy(tmpIn.begin(), tmpIn.end(), tmpWant.begin());
  CompareAll(got, want, tmpGot, tmpWant, c.k);
}

}  // namespace

// Item 2: AntiQuantImplScalar (the transposed fallback with an offset) reads offset and scale
// at the offset's index i * L + j (L = k / (k / offsetWidth)): the scale's width is not read
// (lngrad had grouped the scale by its own width). Half (checked mode: the scale holds what is
// read) and bfloat16 (unchecked below 2201's minimum scratch, with chunks of 13; checked with the
// whole buffer), int8_t and int4b_t (odd groups of 3), offset width above and below the scale's.
TEST(AntiQuantFallbackReplay, TransposedFallbackScaleFollowsTheOffsetsGroups) {
  uint32_t seed = 9500;
  {
    CheckedModeScope checked(true);
    for (const TCase& c :
         {TCase{64, 8, 4, 2}, TCase{64, 8, 2, 4}, TCase{96, 5, 3, 1}, TCase{128, 3, 1, 8}}) {
      CheckHalfT<int8_t>(c, seed += 3);
    }
    for (const TCase& c : {TCase{96, 6, 32, 3}, TCase{64, 7, 2, 8}}) {
      CheckHalfT<int4b_t>(c, seed += 3);
    }
    for (const TCase& c : {TCase{96, 8, 4, 2}, TCase{96, 8, 2, 3}}) {
      CheckBf16T<int8_t>(c, seed += 3, kUbBufBytes);
    }
  }
  CheckedModeScope unchecked(false);
  for (const TCase& c : {TCase{96, 8, 4, 2}, TCase{96, 6, 32, 3}}) {
    CheckBf16T<int8_t>(c, seed += 3, 104);
    CheckBf16T<int4b_t>(c, seed += 3, 104);
  }
}

// Checked mode: with an offset width above the scale's, the fallback reads the scale up to
// n * offsetWidth elements; a scale tensor of n * scaleWidth is refused as a read past it.
TEST(AntiQuantFallbackReplay, CheckedModeRefusesTheScaleReadPastIt) {
  CheckedModeScope checked(true);
  auto run = [](uint32_t scaleElems) {
    return lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          LocalTensor<half> o = ub.Get<half>(2), s = ub.Get<half>(2)[kScaleAt];
          o.SetSize(8 * 4);
          s.SetSize(scaleElems);
          LocalTensor<int8_t> src = ub.Get<int8_t>(1);
          src.SetSize(8 * 64);
          LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
          tmp.SetSize(32);
          AscendAntiQuant<int8_t, half, true>(ub.Get<half>(0), src, o, s, tmp, 64,
                                              AntiQuantShapeInfo{8, 4, 8, 2});
        },
        k910B);
  };
  EXPECT_EQ(run(8 * 4).first, "");
  const auto r = run(8 * 2);
  EXPECT_EQ(r.first, "tensor_bounds") << r.second;
  EXPECT_NE(r.second.find("AscendAntiQuant scale"), std::string::npos) << r.second;
}

// Item 3: 2201's bfloat16 performance path (not transposed, offset tensor, enough scratch) with
// an int4b_t source strides the source rows by N / 64 blocks (truncated), stages its tail rows
// with the default 8-block repeat stride (256 bytes apart, past the staging the path sizes) and,
// for k above 255, starts slices at addresses that are not 32-byte aligned: not followed, so
// checked mode refuses N not a multiple of 64 there (int8_t, and N a multiple of 64, run).
TEST(AntiQuantFallbackReplay, CheckedModeRefusesInt4PerformancePathRowsNotWholeBlocks) {
  CheckedModeScope checked(true);
  auto run = [](uint32_t n, bool int4) {
    return lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          LocalTensor<bfloat16_t> o = ub.Get<bfloat16_t>(2), s = ub.Get<bfloat16_t>(2)[kScaleAt];
          o.SetSize(n);
          s.SetSize(n);
          const AntiQuantShapeInfo info{1, n, 1, n};
          if (int4) {
            LocalTensor<int4b_t> src = ub.Get<int4b_t>(1);
            src.SetSize(8 * n);
            AscendAntiQuant<int4b_t, bfloat16_t, false>(ub.Get<bfloat16_t>(0), src, o, s,
                                                        ub.Get<uint8_t>(3), 8, info);
          } else {
            LocalTensor<int8_t> src = ub.Get<int8_t>(1);
            src.SetSize(8 * n);
            AscendAntiQuant<int8_t, bfloat16_t, false>(ub.Get<bfloat16_t>(0), src, o, s,
                                                       ub.Get<uint8_t>(3), 8, info);
          }
        },
        k910B);
  };
  EXPECT_EQ(run(64, true).first, "");
  EXPECT_EQ(run(128, true).first, "");
  EXPECT_EQ(run(96, false).first, "");
  for (const uint32_t n : {33u, 96u, 32u}) {
    const auto r = run(n, true);
    EXPECT_EQ(r.first, "quant_filter_arg") << n << ": " << r.second;
    EXPECT_NE(r.second.find("multiple of 64"), std::string::npos) << r.second;
  }
}

namespace {

struct PerfCase {
  uint32_t k, n, groups, offsetElems;  // offsetElems: offset.GetSize() (and the scale's)
};

// bfloat16, not transposed, the performance path (sharedTmpBuffer the whole buffer): offset and
// scale [groups, n] in the shape info, each tensor of offsetElems elements; dst against the
// replay (the path's scratch is not modelled).
template <typename S>
void CheckPerf(const PerfCase& c, uint32_t seed) {
  constexpr bool kInt4 = std::is_same_v<S, int4b_t>;
  SCOPED_TRACE(std::string(kInt4 ? "int4" : "int8") + " k " + std::to_string(c.k) + " n " +
               std::to_string(c.n) + " groups " + std::to_string(c.groups) + " offset size " +
               std::to_string(c.offsetElems) + " seed " + std::to_string(seed));
  const Inputs in = RandomInputs(seed);
  const std::vector<bfloat16_t> off = Params<bfloat16_t>(seed + 1, c.offsetElems, 300.0f);
  const std::vector<bfloat16_t> scl = Params<bfloat16_t>(seed + 2, c.offsetElems, 40.0f);
  const bfloat16_t sentinel = bfloat16_t(-77.0f);
  std::vector<bfloat16_t> got;
  std::vector<uint8_t> tmpGot;
  RunCall<S, bfloat16_t, false>(in, off, scl, c.k * c.n, c.k, kUbBufBytes,
                                AntiQuantShapeInfo{c.groups, c.n, c.groups, c.n}, sentinel, got,
                                tmpGot);
  nt::PerfCall call;
  call.int4 = kInt4;
  call.k = c.k;
  call.srcSize = c.k * c.n;
  call.offset = BitsOf(off);
  call.scale = BitsOf(scl);
  std::vector<uint16_t> want(kUbBufBytes / 2, BitsOf(std::vector<bfloat16_t>{sentinel})[0]);
  ASSERT_TRUE(nt::Bf16Performance(call, in.src, want)) << "not replayed";
  CompareAll(got, want, tmpGot, {}, c.n);
}

}  // namespace

// The bfloat16 performance path places the scale's floats after offset.GetSize() of the
// offset's (PreCast) but reads them from float n: an offset of more than n elements (groups, or
// a larger tensor) hands column c the multiplier offset[n + c] (lngrad had taken scale[c]).
// int8_t (n 32 and 64, with the 64-column tail) and int4b_t (n 64, 128), one to three groups, an
// offset 16 elements longer than n; checked mode.
TEST(AntiQuantFallbackReplay, Bf16PerformancePathOffsetSizePlacesTheScale) {
  CheckedModeScope checked(true);
  uint32_t seed = 9900;
  for (const PerfCase& c :
       {PerfCase{8, 64, 1, 64}, PerfCase{8, 64, 2, 128}, PerfCase{6, 96, 3, 288},
        PerfCase{40, 32, 1, 48}, PerfCase{16, 32, 2, 64}}) {
    CheckPerf<int8_t>(c, seed += 3);
  }
  for (const PerfCase& c :
       {PerfCase{8, 64, 1, 64}, PerfCase{8, 128, 2, 256}, PerfCase{12, 64, 3, 192}}) {
    CheckPerf<int4b_t>(c, seed += 3);
  }
}

// Session 17, helper aqn6. The transposed fallback (AntiQuantImplScalar) calls k / L groups of
// L = k / G columns a row (G the offset's width), parameter j of row n at n * (k / L) + j: with G
// not dividing k the columns from (k / L) * L keep what dst held (lngrad had written them with
// the groups) and the parameters lie k / L a row. Unchecked mode against the replays: half and
// bfloat16 (chunks of 13), int8_t and int4b_t; k 40 with G 3 (L 13: column 39 unwritten), G 6
// (L 6: columns 36 to 39), G 7 (L 5: 8 calls a row, every column, 8 parameters a row), k 96 with
// G 5 (L 19: column 95).
TEST(AntiQuantFallbackReplay, TransposedFallbackLeavesTheColumnsPastTheGroups) {
  CheckedModeScope unchecked(false);
  uint32_t seed = 9700;
  for (const TCase& c :
       {TCase{40, 5, 3, 3}, TCase{40, 4, 6, 6}, TCase{40, 3, 7, 7, 8}, TCase{96, 3, 5, 5}}) {
    CheckHalfT<int8_t>(c, seed += 3);
    CheckHalfT<int4b_t>(c, seed += 3);
    CheckBf16T<int8_t>(c, seed += 3, 104);
    CheckBf16T<int4b_t>(c, seed += 3, 104);
  }
}

// Checked mode refuses a group count that does not divide k on the transposed fallback (the
// page's groups), half and bfloat16.
TEST(AntiQuantFallbackReplay, CheckedModeRefusesGroupsNotDividingK) {
  CheckedModeScope checked(true);
  auto run = [](uint32_t k, uint32_t g, bool bf16) {
    return lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          LocalTensor<int8_t> src = ub.Get<int8_t>(1);
          src.SetSize(4 * k);
          const AntiQuantShapeInfo info{4, g, 4, g};
          LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
          tmp.SetSize(bf16 ? kUbBufBytes : 32);  // half: below the Brcb path's scratch
          if (bf16) {
            LocalTensor<bfloat16_t> o = ub.Get<bfloat16_t>(2), s = o[kScaleAt];
            o.SetSize(4 * g);
            s.SetSize(4 * g);
            AscendAntiQuant<int8_t, bfloat16_t, true>(ub.Get<bfloat16_t>(0), src, o, s, tmp, k,
                                                      info);
          } else {
            LocalTensor<half> o = ub.Get<half>(2), s = o[kScaleAt];
            o.SetSize(4 * g);
            s.SetSize(4 * g);
            AscendAntiQuant<int8_t, half, true>(ub.Get<half>(0), src, o, s, tmp, k, info);
          }
        },
        k910B);
  };
  for (const bool bf16 : {false, true}) {
    EXPECT_EQ(run(96, 3, bf16).first, "") << bf16;
    for (const auto& [k, g] : {std::pair{96u, 5u}, std::pair{32u, 3u}}) {
      const auto r = run(k, g, bf16);
      EXPECT_EQ(r.first, "quant_filter_arg") << bf16 << " k " << k << ": " << r.second;
      EXPECT_NE(r.second.find("group count must divide k"), std::string::npos) << r.second;
    }
  }
}

// The half path without transpose with an offset tensor steps its Add and Mul rows by N * 2 / 32
// blocks: for N not a multiple of 16 the rows overlap, each repeat reading what the one before
// wrote (unsupported by the pages): checked mode refuses it; the bfloat16 performance path's
// int8_t rows, N not a multiple of 32 (its source stride N / 32 blocks), likewise.
TEST(AntiQuantFallbackReplay, CheckedModeRefusesRowStridesThatTruncate) {
  CheckedModeScope checked(true);
  auto run = [](uint32_t n, bool bf16) {
    return lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          LocalTensor<int8_t> src = ub.Get<int8_t>(1);
          src.SetSize(8 * n);
          const AntiQuantShapeInfo info{1, n, 1, n};
          if (bf16) {
            LocalTensor<bfloat16_t> o = ub.Get<bfloat16_t>(2), s = o[kScaleAt];
            o.SetSize(n);
            s.SetSize(n);
            AscendAntiQuant<int8_t, bfloat16_t, false>(ub.Get<bfloat16_t>(0), src, o, s,
                                                       ub.Get<uint8_t>(3), 8, info);
          } else {
            LocalTensor<half> o = ub.Get<half>(2), s = o[kScaleAt];
            o.SetSize(n);
            s.SetSize(n);
            AscendAntiQuant<int8_t, half, false>(ub.Get<half>(0), src, o, s, ub.Get<uint8_t>(3), 8,
                                                 info);
          }
        },
        k910B);
  };
  for (const uint32_t n : {16u, 48u, 128u}) EXPECT_EQ(run(n, false).first, "") << n;
  for (const uint32_t n : {32u, 96u}) EXPECT_EQ(run(n, true).first, "") << n;
  for (const auto& [n, bf16] : {std::pair{40u, false}, std::pair{8u, false}, std::pair{200u, false},
                                std::pair{48u, true}, std::pair{40u, true}}) {
    const auto r = run(n, bf16);
    EXPECT_EQ(r.first, "quant_filter_arg") << n << ": " << r.second;
    EXPECT_NE(r.second.find(bf16 ? "multiple of 32" : "multiple of 16"), std::string::npos)
        << r.second;
  }
}

// Unchecked mode follows the bfloat16 performance path's int8_t rows for N a multiple of 16 but
// not of 32 and k up to 255: row r reads the source from byte r * 32 * (N / 32) (inside the
// source; lngrad had read row r), against the replay.
TEST(AntiQuantFallbackReplay, Bf16PerformancePathInt8RowsReadWithTheTruncatedStride) {
  CheckedModeScope unchecked(false);
  uint32_t seed = 9800;
  for (const PerfCase& c : {PerfCase{8, 48, 1, 48}, PerfCase{40, 80, 2, 160},
                            PerfCase{100, 16, 1, 16}, PerfCase{12, 112, 1, 128}}) {
    CheckPerf<int8_t>(c, seed += 3);
  }
}
