// SimpleSoftMax's shapes that the device computes wrongly (docs/ascendc_kernels.md, the project's
// policy): the default config's generic form with a host tiling made for the other statistics
// type (simplesoftmax.h SimpleDefaultStatRows: GenericSub/DivNDImpl read row r's statistics at
// r * reduceK, the statistics holding 32 bytes a row). Checked mode refuses the rows that read
// other rows' statistics (softmax_device_defect) before the call writes anything; the tiling made
// for the statistics' type, one row, and 2002's half data with float statistics (its branch reads
// 8 floats a row) run; unchecked runs them (the device's numbers are pinned by
// replay.SimpleSoftMaxHalfScratchReplay.GenericLoopWithAnotherReduceKMatchesTheKit and
// replay.SimpleSoftMaxFloatReplay.AnotherReduceKFollowsTheDeviceUnchecked). SoftMax isBasicBlock
// with a tiling whose counts pass SoftMaxBasicBlock's uint8_t: refused the same way; so is
// SimpleSoftMax<float> isBasicBlock whose row stride srcK / 8 passes SimpleSoftMaxBasicBlock's
// uint8_t, unchecked dst as the device's (session 24).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_operator.h"
#include "softmax_defect_outcome.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using AscendC::LocalTensor;

constexpr const char* k310P = "Ascend310P1";  // 2002
constexpr const char* k910B = "Ascend910B1";  // 2201

// The bytes of the given (pointer, size) spans, one after another: every operand of a call, to
// tell whether a refused call wrote any of them.
std::vector<uint8_t> Concat(std::initializer_list<std::pair<const void*, uint64_t>> spans) {
  std::vector<uint8_t> v;
  for (const auto& [p, n] : spans) {
    const auto* b = static_cast<const uint8_t*>(p);
    v.insert(v.end(), b, b + n);
  }
  return v;
}

using softmax_defect_test::Outcome;
using softmax_defect_test::RecordCall;

// SimpleSoftMax<D> with U statistics over m x k, a 16 KiB work buffer and the host tiling made
// with dataTypeSize `type`.
template <typename D, typename U>
Outcome RunSimple(const char* soc, uint32_t m, uint32_t k, uint32_t type, bool checked) {
  Outcome r;
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(checked);
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  constexpr uint32_t kWork = 16384;
  SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), type, kWork, t);
  const auto body = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt;
    const uint32_t bytes = m * k * sizeof(D), stat = m * 32;
    pipe.InitBuffer(bs, bytes);
    pipe.InitBuffer(bd, bytes);
    pipe.InitBuffer(bsum, stat);
    pipe.InitBuffer(bmax, stat);
    pipe.InitBuffer(bt, kWork);
    const LocalTensor<D> src = bs.Get<D>(), dst = bd.Get<D>();
    const LocalTensor<U> sum = bsum.Get<U>(), max = bmax.Get<U>();
    const LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    for (uint32_t i = 0; i < m * k; ++i) src.HostPtr()[i] = D(static_cast<float>(i % 13) * 0.25f);
    for (uint32_t i = 0; i < m * 32 / sizeof(U); ++i) {
      sum.HostPtr()[i] = U(2.0f + static_cast<float>(i / (32 / sizeof(U))));
      max.HostPtr()[i] = U(static_cast<float>(i / (32 / sizeof(U))) * 0.125f);
    }
    std::memset(dst.HostPtr(), 0x5a, bytes);
    std::memset(tmp.HostPtr(), 0x5a, kWork);
    const auto all = [&] {
      return Concat({{src.HostPtr(), bytes},
                     {dst.HostPtr(), bytes},
                     {sum.HostPtr(), stat},
                     {max.HostPtr(), stat},
                     {tmp.HostPtr(), kWork}});
    };
    RecordCall(r, all, [&] {
      AscendC::SimpleSoftMax<D>(dst, sum, max, src, tmp, t, {m, k, m, k});
    });
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, body, o);
  EXPECT_TRUE(st.ok()) << st.ToString();
  lngrad::aicore::SetCheckedMode(was);
  return r;
}

// m rows with the other type's tiling are refused (nothing written, the message naming reduceK),
// the statistics' own tiling and one row run, and unchecked runs.
template <typename D, typename U>
void ExpectRefused(const char* soc, uint32_t m, uint32_t k) {
  const uint32_t other = sizeof(U) == 2 ? 4 : 2, reduceK = 32 / other;
  SCOPED_TRACE(std::string(soc) + " " + std::to_string(m) + "x" + std::to_string(k) +
               (sizeof(D) == 2 ? " half" : " float") + (sizeof(U) == 2 ? ", half" : ", float") +
               " statistics");
  const Outcome b = RunSimple<D, U>(soc, m, k, other, true);
  EXPECT_EQ(b.check, "softmax_device_defect") << b.msg;
  EXPECT_NE(b.msg.find("reduceK is " + std::to_string(reduceK)), std::string::npos) << b.msg;
  EXPECT_NE(b.msg.find("SoftMaxTilingFunc(shape, " + std::to_string(sizeof(U))), std::string::npos)
      << b.msg;
  EXPECT_TRUE(b.kept) << "the refused call wrote its tensors or buffer";
  for (const auto& [rows, type] : {std::pair{m, uint32_t{sizeof(U)}}, {1u, other}}) {
    const Outcome g = RunSimple<D, U>(soc, rows, k, type, true);
    EXPECT_EQ(g.check, "") << rows << " rows, dataTypeSize " << type << ": " << g.msg;
    EXPECT_FALSE(g.kept) << rows << " rows: wrote nothing";
  }
  const Outcome u = RunSimple<D, U>(soc, m, k, other, false);
  EXPECT_EQ(u.check, "") << "unchecked: " << u.msg;
  EXPECT_FALSE(u.kept) << "unchecked: wrote nothing";
}

TEST(SimpleSoftMaxDefectApi, TilingOfTheOtherStatisticsTypeIsRefused) {
  for (const char* soc : {k910B, k310P}) {
    ExpectRefused<half, half>(soc, 3, 48);
    ExpectRefused<float, float>(soc, 3, 48);
    ExpectRefused<float, float>(soc, 20, 256);
  }
  ExpectRefused<half, half>(k910B, 40, 64);
  ExpectRefused<half, float>(k910B, 3, 48);
}

// SoftMax isBasicBlock (softmax_basic_work.h SoftMaxBasicSeq::Wrapped) with a tiling whose
// splits pass SoftMaxBasicBlock's uint8_t counts: 256 rows of 64 (splitSize / 64 = 256, splitM =
// 256) on 2201 and 2002. Checked mode refuses it, nothing written; the host tiling runs; unchecked
// runs (lngrad's rows).
Outcome RunBasic(const char* soc, bool wrap, bool checked) {
  constexpr uint32_t m = 256, k = 64, kWork = 24576, bytes = m * k * 4, stat = m * 32;
  Outcome r;
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(checked);
  SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), 4, kWork, t);
  if (wrap) {
    t.splitM = t.reduceM = m;
    t.splitSize = m * k;
    t.reduceSize = m * t.reduceK;
    t.rangeM = 1;
    t.tailM = t.tailSplitSize = t.tailReduceSize = 0;
  }
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  const auto body = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt;
    pipe.InitBuffer(bs, bytes);
    pipe.InitBuffer(bd, bytes);
    pipe.InitBuffer(bsum, stat);
    pipe.InitBuffer(bmax, stat);
    pipe.InitBuffer(bt, kWork);
    const LocalTensor<float> src = bs.Get<float>(), dst = bd.Get<float>();
    const LocalTensor<float> sum = bsum.Get<float>(), max = bmax.Get<float>();
    const LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    for (uint32_t i = 0; i < m * k; ++i) src.HostPtr()[i] = static_cast<float>(i % 13) * 0.25f;
    std::memset(dst.HostPtr(), 0x5a, bytes);
    std::memset(sum.HostPtr(), 0x5a, stat);
    std::memset(max.HostPtr(), 0x5a, stat);
    std::memset(tmp.HostPtr(), 0x5a, kWork);
    const auto all = [&] {
      return Concat({{src.HostPtr(), bytes},
                     {dst.HostPtr(), bytes},
                     {sum.HostPtr(), stat},
                     {max.HostPtr(), stat},
                     {tmp.HostPtr(), kWork}});
    };
    RecordCall(r, all, [&] {
      AscendC::SoftMax<float, false, true>(dst, sum, max, src, tmp, t, {m, k, m, k});
    });
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, body, o);
  EXPECT_TRUE(st.ok()) << st.ToString();
  lngrad::aicore::SetCheckedMode(was);
  return r;
}

TEST(SoftMaxBasicDefectApi, Uint8CountsPast255AreRefused) {
  for (const char* soc : {k910B, k310P}) {
    SCOPED_TRACE(soc);
    const Outcome b = RunBasic(soc, true, true);
    EXPECT_EQ(b.check, "softmax_device_defect") << b.msg;
    EXPECT_NE(b.msg.find("splitSize / 64 = 256, splitM = 256"), std::string::npos) << b.msg;
    EXPECT_TRUE(b.kept) << "the refused call wrote its tensors or buffer";
    const Outcome g = RunBasic(soc, false, true);
    EXPECT_EQ(g.check, "") << g.msg;
    EXPECT_FALSE(g.kept);
    const Outcome u = RunBasic(soc, true, false);
    EXPECT_EQ(u.check, "") << u.msg;
    EXPECT_FALSE(u.kept);
  }
}

// SimpleSoftMax<float> isBasicBlock over [8, 2048] without the shape info (the kernel check's
// basic shape, srcK < 2048, asks it only where given): SimpleSoftMaxBasicBlock's device branch
// casts the Sub's and the Div's repeat stride srcK / 8 = 256 to uint8_t, 0, so every row's
// repeats land on row 0's columns. Checked mode refuses it (softmax_device_defect), nothing
// written; unchecked dst is the device's: columns below 2048 get src - max of row 7 (the last
// Sub), then exp, then divided by the sums of rows 0..7 in turn; the rest exp of what dst held.
// Exp as the replays take it: exp in double, rounded once.
float Exp(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

TEST(SimpleSoftMaxDefectApi, BasicBlockFloatStrideWrapFollowsTheDevice) {
  constexpr uint32_t m = 8, k = 2048, n = m * k;
  for (const char* soc : {k910B, k310P}) {
    for (const bool checked : {true, false}) {
      SCOPED_TRACE(std::string(soc) + (checked ? " checked" : " unchecked"));
      const bool was = lngrad::aicore::CheckedMode();
      lngrad::aicore::SetCheckedMode(checked);
      SoftMaxTiling t;
      AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), 4, 16384, t);
      lngrad::aicore::LaunchOptions o;
      o.soc = soc;
      Outcome r;
      std::vector<float> src(n), old(n), sum(m * 8), max(m * 8), got(n);
      for (uint32_t i = 0; i < n; ++i) {
        src[i] = static_cast<float>(i % 13) * 0.25f;
        old[i] = static_cast<float>(i % 7) * -0.5f;
      }
      for (uint32_t i = 0; i < m * 8; ++i) {
        sum[i] = 2.0f + static_cast<float>(i / 8) + static_cast<float>(i % 8) * 0.125f;
        max[i] = static_cast<float>(i / 8) * 0.5f - static_cast<float>(i % 8) * 0.25f;
      }
      const auto body = [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<> bs, bd, bsum, bmax, bt;
        pipe.InitBuffer(bs, n * 4);
        pipe.InitBuffer(bd, n * 4);
        pipe.InitBuffer(bsum, m * 32);
        pipe.InitBuffer(bmax, m * 32);
        pipe.InitBuffer(bt, 16384);
        const LocalTensor<float> s = bs.Get<float>(), d = bd.Get<float>();
        const LocalTensor<float> sm = bsum.Get<float>(), mx = bmax.Get<float>();
        std::memcpy(s.HostPtr(), src.data(), n * 4);
        std::memcpy(d.HostPtr(), old.data(), n * 4);
        std::memcpy(sm.HostPtr(), sum.data(), m * 32);
        std::memcpy(mx.HostPtr(), max.data(), m * 32);
        try {
          AscendC::SimpleSoftMax<float, false, true>(d, sm, mx, s, bt.Get<uint8_t>(), t);
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          r.check = e.check();
          r.msg = e.message();
        }
        std::memcpy(got.data(), d.HostPtr(), n * 4);
      };
      const lngrad::Status st = lngrad::aicore::Launch(1, body, o);
      EXPECT_TRUE(st.ok()) << st.ToString();
      lngrad::aicore::SetCheckedMode(was);
      if (checked) {
        EXPECT_EQ(r.check, "softmax_device_defect") << r.msg;
        EXPECT_NE(r.msg.find("srcK / 8 = 256"), std::string::npos) << r.msg;
        EXPECT_TRUE(got == old) << "the refused call wrote dst";
        continue;
      }
      EXPECT_EQ(r.check, "") << r.msg;
      for (uint32_t e = 0; e < n; ++e) {
        float want = 0.0f;
        if (e < k) {
          want = Exp(src[e] - max[7 * 8 + e % 8]);
          for (uint32_t row = 0; row < m; ++row) want = want / sum[row * 8 + e % 8];
        } else {
          want = Exp(old[e]);
        }
        ASSERT_EQ(got[e], want) << "element " << e;
      }
    }
  }
}

}  // namespace
