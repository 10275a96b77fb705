// SimpleSoftMax isBasicBlock with half data (half or float statistics) on Ascend910B1 (2201) and
// Ascend310P1 (2002) with hand-made tilings whose counts pass SimpleSoftMaxBasicBlock's uint8_t
// casts (session 24, sbb): splitSize / 64 past 255 (the Casts and the Exp cover the first rows
// only, the Sub and Div all rows, reading what the buffer holds past them), splitM past 255 (its
// repeats wrap too), the half statistics' ceil(reduceSize / 64) past 255 (their Cast covers fewer
// floats, or none: the Sub and Div read what the buffer holds). Checked mode refuses each
// (softmax_device_defect, nothing written); unchecked the work buffer, dst and src after the call
// against ReplaySimpleSoftMaxHalfWork's basic form (replay_softmax_basic_scratch.h), bit for bit
// (two NaNs match).
#include <gtest/gtest.h>

#include <algorithm>
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
#include "tiling/tiling_api.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;

template <class S>
using Dev = std::conditional_t<std::is_same_v<S, rp::Half>, half, float>;

struct Mem {
  std::vector<uint16_t> src, dst;      // half bits
  std::vector<uint8_t> sum, max, tmp;  // the statistics' bytes, the work buffer's
};

// m / rows splits of `rows` rows of k, reduceSize as given (0: reduceK a row).
SoftMaxTiling Tiling(uint32_t m, uint32_t k, uint32_t rows, uint32_t statType, uint32_t reduce) {
  SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), statType, 1024 * 1024, t);
  t.splitM = rows;
  t.splitK = k;
  t.splitSize = rows * k;
  t.reduceM = rows;
  t.reduceSize = reduce != 0 ? reduce : rows * t.reduceK;
  t.rangeM = m / rows;
  t.tailM = t.tailSplitSize = t.tailReduceSize = 0;
  return t;
}

template <class S>
Mem Run(const char* soc, uint32_t m, uint32_t k, const SoftMaxTiling& t, const Mem& in,
        std::string* check, std::string* msg = nullptr) {
  Mem out = in;
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  const auto body = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt;
    const auto n = static_cast<uint32_t>(in.src.size() * 2);
    const auto ns = static_cast<uint32_t>(in.sum.size()), nt = static_cast<uint32_t>(in.tmp.size());
    pipe.InitBuffer(bs, n);
    pipe.InitBuffer(bd, n);
    pipe.InitBuffer(bsum, ns);
    pipe.InitBuffer(bmax, ns);
    pipe.InitBuffer(bt, nt);
    const LocalTensor<half> s = bs.Get<half>(), d = bd.Get<half>();
    const LocalTensor<Dev<S>> sm = bsum.Get<Dev<S>>(), mx = bmax.Get<Dev<S>>();
    const LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    std::memcpy(s.HostPtr(), in.src.data(), n);
    std::memcpy(d.HostPtr(), in.dst.data(), n);
    std::memcpy(sm.HostPtr(), in.sum.data(), ns);
    std::memcpy(mx.HostPtr(), in.max.data(), ns);
    std::memcpy(tmp.HostPtr(), in.tmp.data(), nt);
    try {
      // The shape given where the kernel check's basic shape admits it (srcK >= 128 for half).
      const AscendC::SoftMaxShapeInfo si =
          k >= 128 ? AscendC::SoftMaxShapeInfo{m, k, m, k} : AscendC::SoftMaxShapeInfo{};
      AscendC::SimpleSoftMax<half, false, true>(d, sm, mx, s, tmp, t, si);
    } catch (const lngrad::aicore::KernelCheckError& e) {
      lngrad::aicore::DismissKernelCheck(e);
      *check = e.check();
      if (msg != nullptr) *msg = e.message();
    }
    std::memcpy(out.src.data(), s.HostPtr(), n);
    std::memcpy(out.dst.data(), d.HostPtr(), n);
    std::memcpy(out.sum.data(), sm.HostPtr(), ns);
    std::memcpy(out.max.data(), mx.HostPtr(), ns);
    std::memcpy(out.tmp.data(), tmp.HostPtr(), nt);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, body, o);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

bool SameBits(uint32_t g, uint32_t w, bool f32) {
  const bool nan = f32 ? ((g & 0x7FFFFFFFu) > 0x7F800000u && (w & 0x7FFFFFFFu) > 0x7F800000u)
                       : ((g & 0x7FFFu) > 0x7C00u && (w & 0x7FFFu) > 0x7C00u);
  return g == w || nan;
}

void ExpectHalves(const std::vector<uint16_t>& got, const std::vector<uint16_t>& want,
                  const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (!SameBits(got[i], want[i], false)) {
      ADD_FAILURE() << what << ": first difference at element " << i << ": lngrad 0x" << std::hex
                    << got[i] << ", replay 0x" << want[i];
      return;
    }
  }
}

void ExpectFloats(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size() / 4; ++i) {
    uint32_t g, w;
    std::memcpy(&g, got.data() + 4 * i, 4);
    std::memcpy(&w, want.data() + 4 * i, 4);
    if (!SameBits(g, w, true)) {
      ADD_FAILURE() << "work buffer: first difference at float " << i << ": lngrad 0x" << std::hex
                    << g << ", replay 0x" << w;
      return;
    }
  }
}

struct Wrap {
  uint32_t m, k, rows, reduce;  // reduce: the tiling's reduceSize (0: 16 or 8 a row)
  const char* named;            // the wrapping count the refusal names
  bool halfStatOnly;
};

template <class S>
void Check(const char* soc, const Wrap& c, uint32_t seed) {
  constexpr uint32_t kStat = sizeof(Dev<S>);
  SCOPED_TRACE(std::string(soc) + " " + std::to_string(c.m) + "x" + std::to_string(c.k) +
               " splitM " + std::to_string(c.rows) + " reduceSize " + std::to_string(c.reduce) +
               (kStat == 2 ? " half" : " float") + " statistics");
  const SoftMaxTiling t = Tiling(c.m, c.k, c.rows, kStat, c.reduce);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> x(-4.0f, 4.0f), pos(0.5f, 40.0f), any(-9.0f, 9.0f);
  Mem in;
  const size_t n = size_t{c.m} * c.k;
  // The statistics: every split's reads (the half Cast's wrapped repeats, rows at 16 or 8).
  const size_t ns = (size_t{t.rangeM} * (kStat == 2 ? t.reduceSize : t.reduceM * 8) + 1024) * kStat;
  in.src.resize(n);
  in.dst.resize(n);
  for (uint16_t& v : in.src) v = rp::FloatToHalf(x(gen)).bits;
  for (uint16_t& v : in.dst) v = rp::FloatToHalf(any(gen)).bits;
  in.sum.resize(ns);
  in.max.resize(ns);
  for (size_t i = 0; i < ns / kStat; ++i) {
    const float a = pos(gen), b = x(gen);
    if constexpr (kStat == 2) {
      const uint16_t ha = rp::FloatToHalf(a).bits, hb = rp::FloatToHalf(b).bits;
      std::memcpy(&in.sum[2 * i], &ha, 2);
      std::memcpy(&in.max[2 * i], &hb, 2);
    } else {
      std::memcpy(&in.sum[4 * i], &a, 4);
      std::memcpy(&in.max[4 * i], &b, 4);
    }
  }
  // The work buffer: splitSize floats, the half statistics' copy after them; bytes of small
  // floats (the Sub and Div read them where no Cast wrote).
  in.tmp.resize((size_t{t.splitSize} +
                 std::max<size_t>(2560, static_cast<uint8_t>((t.reduceSize + 63) / 64) * 64)) *
                4);
  for (size_t i = 0; i < in.tmp.size() / 4; ++i) {
    const float v = x(gen);
    std::memcpy(&in.tmp[4 * i], &v, 4);
  }
  std::string check, msg;
  const Mem refused = Run<S>(soc, c.m, c.k, t, in, &check, &msg);
  // srcK not a multiple of 64: the kernel check's own refusal comes first.
  EXPECT_EQ(check, c.k % 64 != 0 ? "invalid_count" : "softmax_device_defect") << msg;
  EXPECT_NE(msg.find(c.named), std::string::npos) << msg;
  if (c.k % 64 == 0) {
    EXPECT_NE(msg.find("SimpleSoftMaxBasicBlock"), std::string::npos) << msg;
  }
  EXPECT_TRUE(refused.dst == in.dst && refused.tmp == in.tmp && refused.sum == in.sum &&
              refused.max == in.max)
      << "the refused call wrote its tensors or buffer";
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  check.clear();
  const Mem got = Run<S>(soc, c.m, c.k, t, in, &check);
  EXPECT_EQ(check, "");
  Mem want = in;
  rp::SmxTiling kt;
  std::memcpy(&kt, &t, sizeof kt);
  const auto* sum = reinterpret_cast<const S*>(in.sum.data());
  const auto* max = reinterpret_cast<const S*>(in.max.data());
  ASSERT_TRUE(rp::ReplaySimpleSoftMaxHalfWork<S>(
      kt, true, std::string(soc) == "Ascend310P1", reinterpret_cast<const rp::Half*>(in.src.data()),
      reinterpret_cast<rp::Half*>(want.dst.data()), sum, max, ns / kStat, want.tmp));
  ExpectFloats(got.tmp, want.tmp);
  ExpectHalves(got.dst, want.dst, "dst");
  ExpectHalves(got.src, in.src, "src");
}

TEST(SimpleSoftMaxHalfScratchReplay, BasicBlockWrappedCountsFollowTheDeviceUnchecked) {
  const Wrap cases[] = {
      {136, 128, 136, 0, "splitSize / 64 = 272", false},         // Casts and Exp: 16 repeats
      {264, 64, 264, 0, "splitM = 264", false},                  // 8 rows; the Sub's 8 repeats
      {16, 128, 8, 16512, "ceil(reduceSize / 64) = 258", true},  // the statistics' Cast: 2
      {16, 128, 8, 16384, "ceil(reduceSize / 64) = 256", true},  // none: the buffer's floats
      {8, 128, 8, 16448, "ceil(reduceSize / 64) = 257", true},   // 1: rows 4..7 the buffer's
  };
  uint32_t seed = 9400;
  for (const char* soc : {"Ascend910B1", "Ascend310P1"}) {
    for (const Wrap& c : cases) {
      Check<rp::Half>(soc, c, seed++);
      if (!c.halfStatOnly) Check<float>(soc, c, seed++);
    }
  }
}

// srcK not a multiple of 64 (session 25, sbw; unchecked: SimpleBasicRowsMembase): the Sub and
// Div cover splitK / 64 whole chunks a row at the stride uint8(8 * (splitK / 64)) blocks, so with
// wrapped Cast repeats they reach past the floats the Cast wrote (lngrad read them from a vector
// of the Cast's floats only, past its end) and read what the buffer holds there.
TEST(SimpleSoftMaxHalfScratchReplay, BasicBlockWrappedCountsWithSrcKNotWholeChunksFollowTheDevice) {
  const Wrap cases[] = {
      {147, 112, 147, 0, "srcK (112)", false},  // splitSize / 64 = 257: the Casts' 1 repeat
      {160, 112, 160, 0, "srcK (112)", false},  // 280: 24 repeats, the Sub's 160 rows past them
      {80, 208, 80, 0, "srcK (208)", false},    // 3 chunks a row at 192 floats; 260: 4 repeats
  };
  uint32_t seed = 9500;
  for (const char* soc : {"Ascend910B1", "Ascend310P1"}) {
    for (const Wrap& c : cases) {
      Check<rp::Half>(soc, c, seed++);
      Check<float>(soc, c, seed++);
    }
  }
}

}  // namespace
