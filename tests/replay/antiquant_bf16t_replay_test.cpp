// Session 15 (helper aqn2): AscendAntiQuant's transposed bfloat16 tensor forms on Ascend910B1
// against replay_antiquant_bf16t.h (any groups, with the scratch), the kit's check of k on every
// transposed form (2201/2002), and the 950's int4b_t scale-only forms (refused in checked mode,
// run as ascend_antiquant_3510_impl.h does otherwise, against replay_antiquant_3510.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "reduce_quant_test_util.h"
#include "replay_antiquant_3510.h"
#include "replay_antiquant_bf16t.h"

namespace {

using namespace AscendC;                 // NOLINT(build/namespaces)
using namespace lngrad_replay::testing;  // NOLINT(build/namespaces)
using lngrad::aicore::test::CheckedModeScope;
namespace bt = lngrad_replay::aqbf16t;
namespace aq = lngrad_replay::aq3510;

uint16_t Bits16(const void* p) {
  uint16_t b = 0;
  std::memcpy(&b, p, 2);
  return b;
}

struct Bf16Case {
  uint32_t k, n, groups;
  bool withOffset;
};

// src [n, k] at buffer 1's start (the whole buffer random: the rows past the source are what
// the Brcb path reads there), offset at buffer 2's start and scale at its element 8192 (each
// n * groups elements, the shape info [n, groups]), dst buffer 0 (a sentinel), the scratch buffer
// 3 filled with random floats first. dst and all of the scratch are compared.
// tmpBytes: sharedTmpBuffer's size (the rest of buffer 3 is compared too).
template <typename S>
void CheckBf16T(const Bf16Case& c, uint32_t seed, uint32_t tmpBytes = kUbBufBytes) {
  constexpr bool kInt4 = std::is_same_v<S, int4b_t>;
  SCOPED_TRACE(std::string(kInt4 ? "int4" : "int8") + " k " + std::to_string(c.k) + " n " +
               std::to_string(c.n) + " groups " + std::to_string(c.groups) +
               (c.withOffset ? " offset" : "") + " seed " + std::to_string(seed));
  const uint32_t total = c.k * c.n, params = c.n * c.groups;
  constexpr uint32_t kScaleAt = 8192;
  std::mt19937 gen(seed);
  std::vector<uint8_t> srcBytes(kUbBufBytes);
  for (uint8_t& b : srcBytes) b = static_cast<uint8_t>(gen());
  std::vector<float> before(kUbBufBytes / 4);
  std::uniform_real_distribution<float> d(-9.0f, 9.0f);
  for (float& f : before) f = d(gen);
  const std::vector<bfloat16_t> off = Params<bfloat16_t>(seed + 1, params, 300.0f);
  const std::vector<bfloat16_t> scl = Params<bfloat16_t>(seed + 2, params, 40.0f);
  const bfloat16_t sentinel = bfloat16_t(-77.0f);
  std::vector<bfloat16_t> got;
  std::vector<uint8_t> tmpAfter;
  OnBlock(
      [&](Ub& ub) {
        std::memcpy(ub.Get<uint8_t>(1).HostPtr(), srcBytes.data(), kUbBufBytes);
        std::fill_n(ub.Get<bfloat16_t>(0).HostPtr(), kUbBufBytes / 2, sentinel);
        ub.Put<float>(3, before);
        LocalTensor<bfloat16_t> o = ub.Get<bfloat16_t>(2), s = ub.Get<bfloat16_t>(2)[kScaleAt];
        std::copy(off.begin(), off.end(), o.HostPtr());
        std::copy(scl.begin(), scl.end(), s.HostPtr());
        o.SetSize(params);
        s.SetSize(params);
        LocalTensor<S> src = ub.Get<S>(1);
        src.SetSize(total);
        const AntiQuantShapeInfo info{c.n, c.groups, c.n, c.groups};
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(tmpBytes);
        if (c.withOffset) {
          AscendAntiQuant<S, bfloat16_t, true>(ub.Get<bfloat16_t>(0), src, o, s, tmp, c.k, info);
        } else {
          AscendAntiQuant<S, bfloat16_t, true>(ub.Get<bfloat16_t>(0), src, s, tmp, c.k, info);
        }
        got = ub.Take<bfloat16_t>(0);
        tmpAfter = ub.Take<uint8_t>(3);
      },
      k910B);
  ASSERT_FALSE(got.empty()) << "the kernel did not run";
  std::vector<int8_t> values;
  if constexpr (kInt4) {
    values = aq::DecodeInt4(srcBytes, size_t{kUbBufBytes} * 2);
  } else {
    values.assign(srcBytes.begin(), srcBytes.end());
  }
  bt::Call call;
  call.withOffset = c.withOffset;
  call.int4 = kInt4;
  call.k = c.k;
  call.srcSize = total;
  call.scaleSize = call.offsetSize = params;
  call.scaleRows = c.n;
  call.groups = c.groups;
  for (const bfloat16_t& v : scl) call.scale.push_back(Bits16(&v));
  for (const bfloat16_t& v : off) call.offset.push_back(Bits16(&v));
  std::vector<uint8_t> tmpWant(reinterpret_cast<const uint8_t*>(before.data()),
                               reinterpret_cast<const uint8_t*>(before.data()) + kUbBufBytes);
  std::vector<uint16_t> want(kUbBufBytes / 2, Bits16(&sentinel));
  std::vector<uint8_t> tmpIn(tmpWant.begin(), tmpWant.begin() + tmpBytes);
  ASSERT_TRUE(bt::Run(call, values, tmpIn, want)) << "a case the replay does not cover";
  std::copy(tmpIn.begin(), tmpIn.end(), tmpWant.begin());
  for (size_t e = 0; e < want.size(); ++e) {
    ASSERT_EQ(Bits16(&got[e]), want[e])
        << "element " << e << " (row " << e / c.k << "): lngrad " << static_cast<float>(got[e]);
  }
  for (size_t b = 0; b < kUbBufBytes; b += 4) {
    ASSERT_EQ(std::memcmp(tmpAfter.data() + b, tmpWant.data() + b, 4), 0)
        << "scratch float " << b / 4 << " differs from the replay's";
  }
}

}  // namespace

// The Brcb path (k a multiple of 64 up to 2040) takes element n of offset and scale for row n,
// whatever the groups; int8_t with groups casts n * groups source rows (those past the source
// too: unchecked mode, checked mode refuses the read). Scale sizes not a multiple of 8 and S <=
// 4 (the offset's blocks overwrite the cast scale: the scale blocks are scratch floats).
TEST(AntiQuantBf16TransposeReplay, BrcbPathTakesElementNWhateverTheGroups) {
  CheckedModeScope unchecked(false);
  uint32_t seed = 7000;
  for (const bool withOffset : {true, false}) {
    for (const Bf16Case& c : {Bf16Case{64, 16, 1, withOffset}, Bf16Case{128, 16, 2, withOffset},
                              Bf16Case{64, 13, 3, withOffset}, Bf16Case{192, 8, 4, withOffset},
                              Bf16Case{128, 24, 2, withOffset}, Bf16Case{64, 3, 1, withOffset},
                              Bf16Case{64, 2, 2, withOffset}, Bf16Case{128, 1, 1, withOffset},
                              Bf16Case{64, 5, 1, withOffset}}) {
      CheckBf16T<int8_t>(c, seed += 3);
    }
    for (const Bf16Case& c : {Bf16Case{64, 16, 1, withOffset}, Bf16Case{128, 16, 2, withOffset},
                              Bf16Case{64, 13, 4, withOffset}, Bf16Case{192, 3, 1, withOffset}}) {
      CheckBf16T<int4b_t>(c, seed += 3);
    }
  }
}

// The repeat counts of the casts are 8 bits: with 264 scale elements (one group) the source
// cast and the bfloat16 store cover 264 mod 256 = 8 rows per slice; the Add and Mul (counter mode)
// every row, the Brcb 33 repeats. dst rows from 8 on keep what they held. Its own buffers: the
// scratch is 80 * 264 floats.
TEST(AntiQuantBf16TransposeReplay, RowCountsPast255WrapInTheCasts) {
  constexpr uint32_t k = 64, n = 264, total = k * n;
  constexpr uint32_t tmpBytes = 80 * n * 4, dstBytes = total * 2;
  uint32_t seed = 7300;
  for (const bool withOffset : {true, false}) {
    std::mt19937 gen(++seed);
    std::vector<int8_t> src(total);
    for (int8_t& v : src) v = static_cast<int8_t>(gen());
    std::vector<float> before(tmpBytes / 4);
    std::uniform_real_distribution<float> d(-9.0f, 9.0f);
    for (float& f : before) f = d(gen);
    const std::vector<bfloat16_t> off = Params<bfloat16_t>(seed + 1, n, 300.0f);
    const std::vector<bfloat16_t> scl = Params<bfloat16_t>(seed + 2, n, 40.0f);
    const bfloat16_t sentinel = bfloat16_t(-77.0f);
    std::vector<bfloat16_t> got(total);
    std::vector<uint8_t> tmpAfter(tmpBytes);
    lngrad::aicore::LaunchOptions o;
    o.soc = k910B;
    const lngrad::Status st = lngrad::aicore::Launch(
        1,
        [&] {
          TPipe pipe;
          TBuf<> bs, bd, bp, bt;
          pipe.InitBuffer(bs, total);
          pipe.InitBuffer(bd, dstBytes);
          pipe.InitBuffer(bp, 2048);
          pipe.InitBuffer(bt, tmpBytes);
          std::copy(src.begin(), src.end(), bs.Get<int8_t>().HostPtr());
          std::fill_n(bd.Get<bfloat16_t>().HostPtr(), total, sentinel);
          std::memcpy(bt.Get<uint8_t>().HostPtr(), before.data(), tmpBytes);
          LocalTensor<bfloat16_t> ot = bp.Get<bfloat16_t>(), sc = ot[512];
          std::copy(off.begin(), off.end(), ot.HostPtr());
          std::copy(scl.begin(), scl.end(), sc.HostPtr());
          ot.SetSize(n);
          sc.SetSize(n);
          const AntiQuantShapeInfo info{n, 1, n, 1};
          if (withOffset) {
            AscendAntiQuant<int8_t, bfloat16_t, true>(bd.Get<bfloat16_t>(), bs.Get<int8_t>(), ot,
                                                      sc, bt.Get<uint8_t>(), k, info);
          } else {
            AscendAntiQuant<int8_t, bfloat16_t, true>(bd.Get<bfloat16_t>(), bs.Get<int8_t>(), sc,
                                                      bt.Get<uint8_t>(), k, info);
          }
          std::copy_n(bd.Get<bfloat16_t>().HostPtr(), total, got.begin());
          std::memcpy(tmpAfter.data(), bt.Get<uint8_t>().HostPtr(), tmpBytes);
        },
        o);
    ASSERT_TRUE(st.ok()) << st.ToString();
    bt::Call call;
    call.withOffset = withOffset;
    call.k = k;
    call.srcSize = total;
    call.scaleSize = call.offsetSize = n;
    call.scaleRows = n;
    call.groups = 1;
    for (const bfloat16_t& v : scl) call.scale.push_back(Bits16(&v));
    for (const bfloat16_t& v : off) call.offset.push_back(Bits16(&v));
    std::vector<uint8_t> tmpWant(reinterpret_cast<const uint8_t*>(before.data()),
                                 reinterpret_cast<const uint8_t*>(before.data()) + tmpBytes);
    std::vector<uint16_t> want(total, Bits16(&sentinel));
    ASSERT_TRUE(bt::Run(call, src, tmpWant, want));
    for (uint32_t e = 0; e < total; ++e) {
      ASSERT_EQ(Bits16(&got[e]), want[e]) << "element " << e << " (row " << e / k << ")";
    }
    EXPECT_EQ(Bits16(&got[8 * k]), Bits16(&sentinel)) << "row 8 was written";
    EXPECT_EQ(std::memcmp(tmpAfter.data(), tmpWant.data(), tmpBytes), 0) << "the scratch differs";
  }
}

// Other k (not a multiple of 64): AntiQuantImplScalar, by groups along k.
TEST(AntiQuantBf16TransposeReplay, FallbackTakesTheGroups) {
  uint32_t seed = 7100;
  for (const bool withOffset : {true, false}) {
    for (const Bf16Case& c : {Bf16Case{96, 16, 3, withOffset}, Bf16Case{32, 40, 2, withOffset},
                              Bf16Case{160, 8, 5, withOffset}}) {
      CheckBf16T<int8_t>(c, seed += 3);
    }
  }
}

// Session 16 (helper aqn3): the fallback's scratch in chunks. Each (row, group) call runs
// AntiQuantOuterLoop in chunks of sharedTmpBuffer / 8 elements, each leaving its float
// products at the scratch's start: sharedTmpBuffer of 40, 104 and 264 bytes (chunks of 5, 13
// and 33; below 2201's check, so unchecked), groups of 32, 16 and 20, with and without offset;
// dst and the whole scratch buffer against the replay.
TEST(AntiQuantBf16TransposeReplay, FallbackScratchInChunks) {
  CheckedModeScope unchecked(false);
  uint32_t seed = 7500;
  for (const bool withOffset : {true, false}) {
    for (const uint32_t tmpBytes : {40u, 104u, 264u}) {
      for (const Bf16Case& c : {Bf16Case{96, 16, 3, withOffset}, Bf16Case{32, 40, 2, withOffset},
                                Bf16Case{100, 8, 5, withOffset}}) {
        CheckBf16T<int8_t>(c, seed += 3, tmpBytes);
      }
    }
  }
}

// Session 16 (helper aqn4): int4b_t on the fallback. Each (row, group) call src[i K + j
// groupSize] and each chunk src[c tmpSize] of a half-byte type starts at the nibble below an
// odd element (the kit's operator[] moves the address by offset / 2 bytes): groups of 3 and 5
// (k 96 and 160 in 32 groups), chunks of 5 and 13 and one chunk a call, with and without
// offset; dst and the whole scratch against the replay (lngrad had read the element itself
// where an offset was given).
TEST(AntiQuantBf16TransposeReplay, FallbackInt4OddStarts) {
  CheckedModeScope unchecked(false);
  uint32_t seed = 7700;
  for (const bool withOffset : {true, false}) {
    for (const uint32_t tmpBytes : {40u, 104u, kUbBufBytes}) {
      for (const Bf16Case& c : {Bf16Case{96, 8, 32, withOffset}, Bf16Case{160, 5, 32, withOffset},
                                Bf16Case{96, 6, 3, withOffset}}) {
        CheckBf16T<int4b_t>(c, seed += 3, tmpBytes);
      }
    }
  }
}

// Checked mode: int8_t with groups reads source rows past the source (refused as an access
// beyond it); one group, or int4b_t (rows from the shape info), runs.
TEST(AntiQuantBf16TransposeReplay, CheckedModeRefusesTheReadPastTheSource) {
  CheckedModeScope checked(true);
  auto run = [](uint32_t groups, bool int4) {
    return lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          LocalTensor<bfloat16_t> s = ub.Get<bfloat16_t>(2);
          s.SetSize(16 * groups);
          const AntiQuantShapeInfo info{16, groups, 16, groups};
          if (int4) {
            LocalTensor<int4b_t> src = ub.Get<int4b_t>(1);
            src.SetSize(16 * 128);
            AscendAntiQuant<int4b_t, bfloat16_t, true>(ub.Get<bfloat16_t>(0), src, s,
                                                       ub.Get<uint8_t>(3), 128, info);
          } else {
            LocalTensor<int8_t> src = ub.Get<int8_t>(1);
            src.SetSize(16 * 128);
            AscendAntiQuant<int8_t, bfloat16_t, true>(ub.Get<bfloat16_t>(0), src, s,
                                                      ub.Get<uint8_t>(3), 128, info);
          }
        },
        k910B);
  };
  EXPECT_EQ(run(1, false).first, "");
  EXPECT_EQ(run(2, true).first, "");
  const auto r = run(2, false);
  EXPECT_EQ(r.first, "tensor_bounds") << r.second;
  EXPECT_NE(r.second.find("AscendAntiQuant src"), std::string::npos) << r.second;
}

namespace {

enum class Form { kTensors, kScaleTensor, kScalars, kScaleScalar };

// One transposed call of `form` on `soc` with k (src [16, k]); the check it raises.
template <typename S>
std::pair<std::string, std::string> TransposedCheck(Form form, uint32_t k, const char* soc) {
  return lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        LocalTensor<half> o = ub.Get<half>(2), s = ub.Get<half>(2)[8192];
        o.SetSize(16);
        s.SetSize(16);
        LocalTensor<S> src = ub.Get<S>(1);
        src.SetSize(16 * k);
        LocalTensor<half> dst = ub.Get<half>(0);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        const AntiQuantShapeInfo info{16, 1, 16, 1};
        switch (form) {
          case Form::kTensors:
            AscendAntiQuant<S, half, true>(dst, src, o, s, tmp, k, info);
            break;
          case Form::kScaleTensor:
            AscendAntiQuant<S, half, true>(dst, src, s, tmp, k, info);
            break;
          case Form::kScalars:
            AscendAntiQuant<S, half, true>(dst, src, half(0.5f), half(2.0f), tmp, k, info);
            break;
          case Form::kScaleScalar:
            AscendAntiQuant<S, half, true>(dst, src, half(2.0f), tmp, k, info);
            break;
        }
      },
      soc);
}

}  // namespace

// The kit's check of 2201/2002 (antiquant_check_common.h) on every transposed form: k *
// sizeof(InputDataType) a multiple of 32, sizeof(int4b_t) being 1 (int4b_t k 32 passes, 16
// does not); not transposed, or on the 950 (whose checks assert nothing), the scalar forms run.
TEST(AntiQuantTransposedK, KitCheckOnEveryTransposedForm) {
  CheckedModeScope checked(true);
  for (const Form f : {Form::kTensors, Form::kScaleTensor, Form::kScalars, Form::kScaleScalar}) {
    SCOPED_TRACE(static_cast<int>(f));
    for (const char* soc : {k910B, "Ascend310P1"}) {
      const auto bad = TransposedCheck<int8_t>(f, 40, soc);
      EXPECT_EQ(bad.first, "quant_filter_arg") << bad.second;
      EXPECT_NE(bad.second.find("K * sizeof(InputDataType) cannot be 40"), std::string::npos)
          << bad.second;
      EXPECT_EQ(TransposedCheck<int8_t>(f, 64, soc).first, "") << soc;
    }
    const auto bad4 = TransposedCheck<int4b_t>(f, 16, k910B);
    EXPECT_EQ(bad4.first, "quant_filter_arg") << bad4.second;
    EXPECT_NE(bad4.second.find("cannot be 16"), std::string::npos) << bad4.second;
    EXPECT_EQ(TransposedCheck<int4b_t>(f, 32, k910B).second, "");
  }
  EXPECT_EQ(TransposedCheck<int8_t>(Form::kScalars, 40, k950).second, "");
  EXPECT_EQ(TransposedCheck<int8_t>(Form::kScaleScalar, 40, k950).second, "");
}

namespace {

struct Int4Case {
  bool tensor, transpose;
  uint32_t k, n, groups, tmpBytes;
};

// The 950's scale-only forms from an int4b_t source (src [k, n], transposed [n, k]; the scale
// [groups, n] or [n, groups]), unchecked, against replay_antiquant_3510.h's ScaleOnly fed the
// decoded nibbles; dst past the source keeps its sentinel.
template <typename D>
void CheckInt4On950(const Int4Case& c, uint32_t seed) {
  SCOPED_TRACE(std::string(std::is_same_v<D, half> ? "half" : "bf16") +
               (c.tensor ? " tensor" : " scalar") + (c.transpose ? " transposed" : "") + " k " +
               std::to_string(c.k) + " n " + std::to_string(c.n) + " seed " + std::to_string(seed));
  const uint32_t total = c.k * c.n;
  std::mt19937 gen(seed);
  std::vector<uint8_t> bytes((total + 1) / 2);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(gen());
  const uint32_t rows = c.transpose ? c.n : c.groups, cols = c.transpose ? c.groups : c.n;
  const std::vector<D> scale = Params<D>(seed + 1, size_t{rows} * cols, 40.0f);
  const D scalar = D(-2.75f), sentinel = D(-77.0f);
  std::vector<D> got;
  CheckedModeScope unchecked(false);
  OnBlock(
      [&](Ub& ub) {
        std::memcpy(ub.Get<uint8_t>(1).HostPtr(), bytes.data(), bytes.size());
        std::fill_n(ub.Get<D>(0).HostPtr(), total + 64, sentinel);
        LocalTensor<D> s = ub.Get<D>(2);
        std::copy(scale.begin(), scale.end(), s.HostPtr());
        s.SetSize(rows * cols);
        LocalTensor<int4b_t> src = ub.Get<int4b_t>(1);
        src.SetSize(total);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(c.tmpBytes);
        const AntiQuantShapeInfo info{rows, cols, rows, cols};
        LocalTensor<D> dst = ub.Get<D>(0);
        if (c.tensor && c.transpose) {
          AscendAntiQuant<int4b_t, D, true>(dst, src, s, tmp, c.k, info);
        } else if (c.tensor) {
          AscendAntiQuant<int4b_t, D, false>(dst, src, s, tmp, c.k, info);
        } else if (c.transpose) {
          AscendAntiQuant<int4b_t, D, true>(dst, src, scalar, tmp, c.k, info);
        } else {
          AscendAntiQuant<int4b_t, D, false>(dst, src, scalar, tmp, c.k, info);
        }
        const D* p = ub.Get<D>(0).HostPtr();
        got.assign(p, p + total + 64);
      },
      k950);
  aq::ScaleOnlyCall call{
      c.transpose, std::is_same_v<D, bfloat16_t>, c.k, total, rows, cols, c.tmpBytes,
      {},          static_cast<float>(scalar)};
  if (c.tensor) call.scale.assign(scale.begin(), scale.end());
  std::vector<float> want(total + 64, static_cast<float>(sentinel));
  ASSERT_TRUE(aq::ScaleOnly(call, aq::DecodeInt4(bytes, total), want)) << "not replayed";
  ASSERT_EQ(got.size(), want.size()) << "the kernel did not run";
  for (size_t e = 0; e < want.size(); ++e) {
    const float g = static_cast<float>(got[e]);
    if (std::isnan(g) && std::isnan(want[e])) continue;
    const uint32_t w = std::is_same_v<D, half> ? lngrad_replay::FloatToHalf(want[e]).bits
                                               : lngrad_replay::Bits(want[e]) >> 16;
    ASSERT_EQ(Bits16(&got[e]), w) << "element " << e << ": lngrad " << g << ", replay " << want[e];
  }
}

}  // namespace

// Unchecked mode: the 950's scale-only forms take int4b_t as ascend_antiquant_3510_impl.h does
// (the common sequence, the half Brcb path, 3510's bfloat16 chunks with the SAT Cast).
TEST(AntiQuantInt4On950, UncheckedRunsTheKitsCode) {
  uint32_t seed = 7200;
  for (const Int4Case& c :
       {Int4Case{true, false, 64, 64, 1, 4096}, Int4Case{true, false, 64, 64, 4, 4096},
        Int4Case{true, true, 128, 16, 1, 4096}, Int4Case{true, true, 128, 16, 2, 256},
        Int4Case{false, true, 64, 48, 1, 4096}, Int4Case{false, false, 33, 64, 1, 4096}}) {
    CheckInt4On950<half>(c, seed += 3);
  }
  for (const Int4Case& c :
       {Int4Case{true, false, 64, 64, 2, 4096}, Int4Case{true, false, 32, 128, 1, 320},
        Int4Case{false, false, 33, 64, 1, 256}, Int4Case{false, true, 64, 48, 1, 4096}}) {
    CheckInt4On950<bfloat16_t>(c, seed += 3);
  }
}

// Checked mode: every scale-only form refuses int4b_t on the 950 (the page's source list);
// int8_t runs.
TEST(AntiQuantInt4On950, CheckedModeRefusesInt4) {
  CheckedModeScope checked(true);
  for (const Form f : {Form::kScaleTensor, Form::kScaleScalar}) {
    const auto r = TransposedCheck<int4b_t>(f, 64, k950);
    EXPECT_EQ(r.first, "quant_filter_arg") << r.second;
    EXPECT_NE(r.second.find("int4b_t is not a source of Ascend 950"), std::string::npos)
        << r.second;
    EXPECT_NE(r.second.find("fp4x2_e1m2_t"), std::string::npos) << r.second;
    EXPECT_EQ(TransposedCheck<int8_t>(f, 64, k950).first, "");
  }
  const auto plain = lngrad::aicore::test::CheckOf(
      [](Ub& ub) {
        LocalTensor<int4b_t> src = ub.Get<int4b_t>(1);
        src.SetSize(64 * 64);
        LocalTensor<bfloat16_t> s = ub.Get<bfloat16_t>(2);
        s.SetSize(64);
        AscendAntiQuant<int4b_t, bfloat16_t, false>(ub.Get<bfloat16_t>(0), src, s,
                                                    ub.Get<uint8_t>(3), 64, {1, 64, 1, 64});
        AscendAntiQuant<int4b_t, bfloat16_t, false>(ub.Get<bfloat16_t>(0), src, bfloat16_t(2.0f),
                                                    ub.Get<uint8_t>(3), 64, {});
      },
      k950);
  EXPECT_EQ(plain.first, "quant_filter_arg") << plain.second;
}
