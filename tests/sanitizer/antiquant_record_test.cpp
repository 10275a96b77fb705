// The sanitizer record of AscendAntiQuant's transposed fallback (2201, AntiQuantImplScalar) with
// a group count G not dividing k: its k / L calls of L = k / G columns a row write the columns
// below (k / L)·L only, and lngrad's record names only those (it had named all of dst), so
// initcheck reports a later read of an unwritten column of a dst nothing wrote before.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "kernel_operator.h"
#include "san_test_util.h"

namespace {

using AscendC::AntiQuantShapeInfo;
using AscendC::LocalTensor;
using lngrad::aicore::san_test::ExpectClean;
using lngrad::aicore::san_test::LaunchSanitized;
using lngrad::aicore::san_test::LaunchSpec;
using lngrad::aicore::san_test::Result;

constexpr uint32_t kK = 40, kRows = 5;  // k 40, G 3: L 13, columns 0..38 written, 39 not

// The call on an unwritten dst (src, offset, scale and the scratch written first), then a V
// read of dst row 0 from column `from`, `count` halves.
Result RunFallback(uint32_t groups, uint32_t from, uint32_t count) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);  // checked mode refuses G not dividing k
  LaunchSpec spec;
  spec.tools = lngrad::aicore::san::kInitcheck;
  const Result r = LaunchSanitized(spec, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> td, ts, to, tc, tt, tp;
    for (AscendC::TBuf<>* t : {&td, &ts, &to, &tc, &tt, &tp}) pipe.InitBuffer(*t, 1024);
    for (AscendC::TBuf<>* t : {&ts, &to, &tc, &tt}) {
      AscendC::Duplicate(t->Get<uint16_t>(), uint16_t{0x3c00}, 512);  // half 1.0
    }
    AscendC::PipeBarrier<PIPE_V>();
    LocalTensor<int8_t> src = ts.Get<int8_t>();
    src.SetSize(kK * kRows);
    LocalTensor<half> off = to.Get<half>(kRows * groups), scl = tc.Get<half>(kRows * groups);
    LocalTensor<uint8_t> tmp = tt.Get<uint8_t>(32);
    AscendC::AscendAntiQuant<int8_t, half, true>(td.Get<half>(), src, off, scl, tmp, kK,
                                                 AntiQuantShapeInfo{kRows, groups, kRows, groups});
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(tp.Get<half>(), td.Get<half>()[from], half(0.0f), count);
  });
  lngrad::aicore::SetCheckedMode(was);
  return r;
}

TEST(AntiQuantRecord, TransposedFallbackRecordsOnlyTheColumnsItWrites) {
  ExpectClean(RunFallback(3, 0, 39));       // columns 0..38 of row 0: written
  const Result r = RunFallback(3, 32, 16);  // columns 32..47: 39 is not written
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "initcheck");
  EXPECT_NE(r.failures[0].message.find("read of uninitialised UB: V Adds"), std::string::npos)
      << r.AllText();
  ExpectClean(RunFallback(5, 32, 16));  // G 5 divides 40: every column written
}

}  // namespace
