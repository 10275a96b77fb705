// SoftmaxFlashV2 with isBasicBlock on Ascend910B1 (2201): the basic-block tilings the device
// computes wrongly (softmax_device_defect, softmax_flashv2_paths.h FlashV2BasicDefect) are refused
// in checked mode before anything is written (dst, src and the statistics keep their bytes), the
// nearest good tiling is accepted, and unchecked mode runs. The device's numbers there are
// compared with the replay in replay.SoftmaxFlashV2BasicScratchReplay.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "softmax_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;

struct Outcome {
  std::string check, msg;
  bool kept = false;  // dst, src and the statistics keep their bytes
};

uint32_t Align32(uint64_t bytes) { return static_cast<uint32_t>((bytes + 31) / 32 * 32); }

// One call on [m, k] in splits of `rows` rows (T data, float statistics when T is float, half
// data with float statistics otherwise), the scratch of 8 rows more than the split needs; the
// operands filled with distinct bytes.
template <typename T, bool update>
Outcome Run(uint32_t m, uint32_t k, uint32_t rows, bool checked) {
  SoftMaxTiling t;
  const uint32_t tmpBytes = (rows + 8) * (sizeof(T) == 2 ? k + 72 : 72) * 4;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({m, k}), sizeof(T), 4, tmpBytes, t, update, true);
  t.splitM = t.reduceM = rows;
  t.reduceSize = rows * 8;
  t.splitSize = rows * k;
  t.rangeM = m / rows;
  t.tailM = m % rows;
  t.tailSplitSize = t.tailM * k;
  t.tailReduceSize = t.tailM * 8;
  Outcome r;
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(checked);
  lngrad::aicore::LaunchOptions o;
  o.soc = softmax_test::k910B;
  const auto body = [&] {
    TPipe pipe;
    TBuf<> b[7], bt;
    const uint32_t data = Align32(uint64_t{m} * k * sizeof(T)), stat = Align32(uint64_t{m} * 32);
    const uint32_t sizes[7] = {data, data, stat, stat, Align32(uint64_t{m} * 32), stat, stat};
    for (int i = 0; i < 7; ++i) pipe.InitBuffer(b[i], sizes[i]);
    pipe.InitBuffer(bt, tmpBytes);
    for (int i = 0; i < 7; ++i) {
      auto* p = b[i].Get<uint8_t>().HostPtr();
      for (uint32_t j = 0; j < sizes[i]; ++j) p[j] = static_cast<uint8_t>(0x31 + i + (j % 5));
    }
    std::vector<std::vector<uint8_t>> before(7);
    for (int i = 0; i < 7; ++i) {
      const auto* p = b[i].Get<uint8_t>().HostPtr();
      before[i].assign(p, p + sizes[i]);
    }
    const LocalTensor<T> src = b[0].Get<T>(), dst = b[1].Get<T>(), expMax = b[4].Get<T>();
    const LocalTensor<float> sum = b[2].Get<float>(), max = b[3].Get<float>();
    const LocalTensor<float> inSum = b[5].Get<float>(), inMax = b[6].Get<float>();
    try {
      AscendC::SoftmaxFlashV2<T, update, false, true>(dst, sum, max, src, expMax, inSum, inMax,
                                                      bt.Get<uint8_t>(), t, {m, k, m, k});
    } catch (const lngrad::aicore::KernelCheckError& e) {
      lngrad::aicore::DismissKernelCheck(e);
      r.check = e.check();
      r.msg = e.message();
    }
    r.kept = true;
    for (int i = 0; i < 7; ++i) {
      r.kept =
          r.kept && std::memcmp(before[i].data(), b[i].Get<uint8_t>().HostPtr(), sizes[i]) == 0;
    }
  };
  const lngrad::Status s = lngrad::aicore::Launch(1, body, o);
  lngrad::aicore::SetCheckedMode(was);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return r;
}

// Checked mode refuses [m, k] in splits of `rows` (naming `needle`) before writing, accepts the
// nearest good tiling ([okM, okK] in splits of okRows), and unchecked mode runs the bad one.
template <typename T, bool update>
void ExpectDefect(uint32_t m, uint32_t k, uint32_t rows, uint32_t okM, uint32_t okK,
                  uint32_t okRows, const std::string& needle) {
  const std::string what = std::to_string(m) + "x" + std::to_string(k) + " in splits of " +
                           std::to_string(rows) + (update ? ", update" : "");
  const Outcome bad = Run<T, update>(m, k, rows, true);
  EXPECT_EQ(bad.check, "softmax_device_defect") << what << ": " << bad.msg;
  EXPECT_NE(bad.msg.find(needle), std::string::npos) << bad.msg;
  EXPECT_TRUE(bad.kept) << what << ": the refused call wrote an operand";
  const Outcome good = Run<T, update>(okM, okK, okRows, true);
  EXPECT_EQ(good.check, "") << okM << "x" << okK << " in splits of " << okRows << ": " << good.msg;
  EXPECT_FALSE(good.kept) << okM << "x" << okK << ": wrote no result";
  const Outcome raw = Run<T, update>(m, k, rows, false);
  EXPECT_EQ(raw.check, "") << what << " unchecked: " << raw.msg;
  EXPECT_FALSE(raw.kept) << what << " unchecked: wrote no result";
}

TEST(SoftmaxFlashV2Api, BasicBlockTilingsTheDeviceComputesWronglyAreRefusedInCheckedMode) {
  // splitK 1024: SpecialBasicBlock{Max,Add}Impl reduce 8 rows, whatever splitM.
  ExpectDefect<float, false>(16, 1024, 16, 16, 1024, 8, "8 rows");
  ExpectDefect<float, true>(16, 1024, 16, 16, 1024, 8, "8 rows");
  ExpectDefect<half, true>(16, 1024, 16, 16, 1024, 8, "8 rows");
  // The uint8_t repeatTimes splitSize / 64: 256 for [32, 512] in one split, 288 for [24, 768].
  ExpectDefect<float, false>(32, 512, 32, 32, 512, 16, "splitSize / 64 = 256");
  ExpectDefect<float, true>(24, 768, 24, 24, 768, 8, "splitSize / 64 = 288");
  ExpectDefect<half, false>(24, 768, 24, 24, 768, 8, "splitSize / 64 = 288");
  // 8 rows of K = 2048 (as of 4096, which do not fit the UB with their dst): the Sub's repeat
  // stride K / 8 = 256 blocks wraps too (and the Exp's 256 repeats); K = 1984 fits both.
  ExpectDefect<float, false>(8, 2048, 8, 8, 1984, 8, "repeat stride");
  // Splits not a multiple of 8 rows (session 23): ceil(splitM / 8) * 8 rows of statistics.
  ExpectDefect<float, false>(32, 64, 12, 32, 64, 8, "not a multiple of 8");
  ExpectDefect<float, true>(32, 256, 12, 32, 256, 16, "not a multiple of 8");
  ExpectDefect<half, true>(32, 256, 12, 32, 256, 16, "not a multiple of 8");
}

}  // namespace
