// LogicalAnds and LogicalOrs (lib/math/logical.h; Ascend 950 only): a vector against a scalar in
// every operand form (scalar value after or before the tensor, element 0 of a LocalTensor named
// by scalarTensorIndex), zero (either sign) false and everything else true, NaN included; the
// checked-mode rules and the host sizes (0 and 0 on the 950, refused elsewhere).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "math_api_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

constexpr AscendC::LogicalAndsConfig kAndsScalarFirst = {false, 0};
constexpr AscendC::LogicalOrsConfig kOrsScalarFirst = {false, 0};

// The five forms of LogicalAnds (ors = false) or LogicalOrs on the vector `v` and scalar `s`:
// value after, value before, tensor element after (default index 1), tensor element before
// (index 0); each result against the truth table.
template <typename U>
void CheckForms(const std::vector<U>& v, U s, bool ors) {
  const uint32_t n = static_cast<uint32_t>(v.size());
  const bool b = D(s) != 0.0;
  for (int form = 0; form < 4; ++form) {
    std::vector<bool> got(n);
    OnBlock(
        [&](Ub& ub) {
          ub.Put<U>(0, v);
          ub.Put<U>(1, std::vector<U>{s, U{}});
          const LocalTensor<U> vec = ub.Get<U>(0), st = ub.Get<U>(1);
          const LocalTensor<bool> d = ub.Get<bool>(2);
          if (ors) {
            if (form == 0) LogicalOrs(d, vec, s, n);
            if (form == 1) LogicalOrs(d, s, vec, n);
            if (form == 2) LogicalOrs(d, vec, st, n);
            if (form == 3) LogicalOrs<kOrsScalarFirst>(d, st, vec, n);
          } else {
            if (form == 0) LogicalAnds(d, vec, s, n);
            if (form == 1) LogicalAnds(d, s, vec, n);
            if (form == 2) LogicalAnds(d, vec, st, n);
            if (form == 3) LogicalAnds<kAndsScalarFirst>(d, st, vec, n);
          }
          for (uint32_t i = 0; i < n; ++i) {
            got[i] = reinterpret_cast<const uint8_t*>(d.HostPtr())[i] == 1;
          }
        },
        k950);
    for (uint32_t i = 0; i < n; ++i) {
      const bool x = D(v[i]) != 0.0;  // NaN != 0
      ASSERT_EQ(got[i], ors ? (x || b) : (x && b)) << "form " << form << " element " << i;
    }
  }
}

TEST(MathLogicalScalar, AndsOrsEveryFormAndType) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> f = {0.0f, -0.0f, 1.0f, nan, -2.0f, 1e-40f};
  for (int i = 0; i < 200; ++i) f.push_back(static_cast<float>(i % 3));  // a tail past 64
  for (const float s : {0.0f, -0.0f, 3.0f, nan}) {
    CheckForms(f, s, false);
    CheckForms(f, s, true);
  }
  std::vector<half> h;
  for (float x : f) h.push_back(half(x));
  CheckForms(h, half(2.0f), false);
  CheckForms(h, half(-0.0f), true);
  std::vector<int64_t> l(150);
  for (size_t i = 0; i < l.size(); ++i) l[i] = static_cast<int64_t>(i % 4) << 40;
  CheckForms(l, int64_t{1} << 33, false);
  CheckForms(l, int64_t{0}, true);
  std::vector<uint8_t> u(100);
  for (size_t i = 0; i < u.size(); ++i) u[i] = static_cast<uint8_t>(i % 2);
  CheckForms(u, uint8_t{0}, true);
  CheckForms(u, uint8_t{7}, false);
}

TEST(MathLogicalScalar, CheckedModeRules) {
  ExpectCheck([](Ub& ub) { LogicalAnds(ub.Get<bool>(2), ub.Get<float>(0), 1.0f, 8); }, "product",
              "LogicalAnds");
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<uint8_t> a = ub.Get<uint8_t>(0);
        LogicalOrs(a.ReinterpretCast<bool>(), a, uint8_t{1}, 64);
      },
      "address_overlap", "dst and src", k950);
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<uint8_t> a = ub.Get<uint8_t>(0);
        LogicalOrs(a.ReinterpretCast<bool>(), ub.Get<uint8_t>(1), a[32], 64);
      },
      "address_overlap", "scalar tensor", k950);
}

TEST(MathLogicalScalar, HostSizes) {
  const platform_ascendc::PlatformAscendC& p950 =
      *platform_ascendc::PlatformAscendCManager::GetInstance(k950);
  const platform_ascendc::PlatformAscendC& a2 =
      *platform_ascendc::PlatformAscendCManager::GetInstance(k910B);
  const ge::Shape s({1000});
  uint32_t mx = 7, mn = 7, k = 7, extra = 7;
  GetLogicalAndsMaxMinTmpSize(p950, s, 8, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetLogicalOrsTmpBufferFactorSize(p950, 1, k, extra);
  EXPECT_EQ(k + extra, 0u);
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok());
  mx = 7;
  GetLogicalOrsMaxMinTmpSize(a2, s, 4, false, mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
  EXPECT_EQ(mx, 7u);
  GetLogicalAndsMaxMinTmpSize(p950, s, 3, false, mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

// The sanitizer sees the scalar tensor's read: left uninitialised (the vector initialised by a
// Duplicate), initcheck reports it at the API.
TEST(MathLogicalScalar, ScalarTensorReadIsRecorded) {
  using namespace lngrad::aicore;
  LaunchOptions o;
  o.sanitize = san::kInitcheck;
  o.soc = k950;
  std::vector<BlockFailure> failures;
  (void)detail::RunBlocks(
      "kernel", 1,
      [] {
        TPipe pipe;
        TBuf<> a, b, d;
        pipe.InitBuffer(a, 1024);
        pipe.InitBuffer(b, 1024);
        pipe.InitBuffer(d, 1024);
        Duplicate(a.Get<float>(), 1.0f, 64);
        PipeBarrier<PIPE_V>();
        LogicalAnds(d.Get<bool>(), a.Get<float>(), b.Get<float>(), 64);
      },
      o, &failures);
  std::string f;
  for (const BlockFailure& b : failures) f += "[" + b.check + "] " + b.message + "\n";
  EXPECT_NE(f.find("initcheck"), std::string::npos) << f;
  EXPECT_NE(f.find("LogicalAnds"), std::string::npos) << f;
}

}  // namespace
