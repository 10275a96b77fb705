// SimpleSoftMax with float data and the default config on Ascend910B1 (2201) and Ascend310P1
// (2002) with a host tiling made for half statistics (reduceK 16; session 23, sx2): the device's
// GenericSub/DivNDImpl read row r's statistics at 16 r, another row's. Checked mode refuses it
// (softmax_device_defect, nothing written); unchecked dst against ReplaySimpleSoftMaxFloat
// (replay_softmax_basic_scratch.h), bit for bit (two NaNs match).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
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

// Runs SimpleSoftMax<float> over src with the statistics tensors holding `stat` floats (the rows'
// 8 and those past them that the device reads); returns dst, the check raised ("" if none).
std::vector<float> RunFloat(const char* soc, uint32_t m, uint32_t k, const SoftMaxTiling& t,
                            const std::vector<float>& src, const std::vector<float>& sum,
                            const std::vector<float>& max, std::string* check) {
  std::vector<float> out(src.size());
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  const auto body = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt;
    const auto n = static_cast<uint32_t>(src.size()), ns = static_cast<uint32_t>(sum.size());
    pipe.InitBuffer(bs, n * 4);
    pipe.InitBuffer(bd, n * 4);
    pipe.InitBuffer(bsum, ns * 4);
    pipe.InitBuffer(bmax, ns * 4);
    pipe.InitBuffer(bt, 4096);
    const LocalTensor<float> s = bs.Get<float>(), d = bd.Get<float>();
    const LocalTensor<float> sm = bsum.Get<float>(), mx = bmax.Get<float>();
    std::memcpy(s.HostPtr(), src.data(), n * 4);
    std::memset(d.HostPtr(), 0x5a, n * 4);
    std::memcpy(sm.HostPtr(), sum.data(), ns * 4);
    std::memcpy(mx.HostPtr(), max.data(), ns * 4);
    try {
      AscendC::SimpleSoftMax<float>(d, sm, mx, s, bt.Get<uint8_t>(), t, {m, k, m, k});
    } catch (const lngrad::aicore::KernelCheckError& e) {
      lngrad::aicore::DismissKernelCheck(e);
      *check = e.check();
    }
    std::memcpy(out.data(), d.HostPtr(), n * 4);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, body, o);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

TEST(SimpleSoftMaxFloatReplay, AnotherReduceKFollowsTheDeviceUnchecked) {
  struct Shape {
    uint32_t m, k;
  };
  uint32_t seed = 9100;
  for (const char* soc : {"Ascend910B1", "Ascend310P1"}) {
    for (const Shape s : {Shape{2, 16}, {3, 48}, {9, 64}, {20, 256}, {5, 1024}}) {
      SCOPED_TRACE(std::string(soc) + " " + std::to_string(s.m) + "x" + std::to_string(s.k));
      SoftMaxTiling t;
      AscendC::SoftMaxTilingFunc(ge::Shape({s.m, s.k}), 2, 4096, t);
      ASSERT_EQ(t.reduceK, 16u);
      std::mt19937 gen(seed++);
      std::uniform_real_distribution<float> x(-4.0f, 4.0f), pos(0.5f, 40.0f);
      std::vector<float> src(size_t{s.m} * s.k), sum(size_t{s.m} * 16), max(sum.size());
      for (float& v : src) v = x(gen);
      for (float& v : sum) v = pos(gen);
      for (float& v : max) v = x(gen);
      std::string check;
      const std::vector<float> refused = RunFloat(soc, s.m, s.k, t, src, sum, max, &check);
      EXPECT_EQ(check, "softmax_device_defect");
      for (const float v : refused) {
        uint32_t b;
        std::memcpy(&b, &v, 4);
        ASSERT_EQ(b, 0x5a5a5a5au) << "the refused call wrote dst";
      }
      const lngrad::aicore::test::CheckedModeScope unchecked(false);
      check.clear();
      const std::vector<float> got = RunFloat(soc, s.m, s.k, t, src, sum, max, &check);
      EXPECT_EQ(check, "");
      rp::SmxTiling kt;
      std::memcpy(&kt, &t, sizeof kt);
      std::vector<float> want(src.size());
      ASSERT_TRUE(rp::ReplaySimpleSoftMaxFloat(kt, src.data(), want.data(), sum.data(), max.data(),
                                               sum.size()));
      for (size_t i = 0; i < got.size(); ++i) {
        uint32_t g, w;
        std::memcpy(&g, &got[i], 4);
        std::memcpy(&w, &want[i], 4);
        if (g != w && !(std::isnan(got[i]) && std::isnan(want[i]))) {
          ADD_FAILURE() << "dst: first difference at element " << i << ": lngrad 0x" << std::hex
                        << g << ", replay 0x" << w;
          break;
        }
      }
    }
  }
}

}  // namespace
