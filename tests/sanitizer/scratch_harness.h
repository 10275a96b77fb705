// The scratch sanitizer tests' harness (scratch_test.cpp, scratch_softmax_test.cpp): four UB
// operands and a sharedTmpBuffer written first, the call, then a read, a write and read, or a
// copy out of the scratch's first kProbe bytes; ExpectLoud checks initcheck's report of it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "san_test_util.h"
#include "tiling/tiling_api.h"

namespace lngrad::aicore::san_test::scratch {

using namespace AscendC;  // NOLINT(google-build-using-namespace): the kit's names, as in kernels
namespace san = lngrad::aicore::san;
using lngrad::aicore::san_test::ExpectClean;
using lngrad::aicore::san_test::Gm;
using lngrad::aicore::san_test::LaunchSanitized;
using lngrad::aicore::san_test::LaunchSpec;
using lngrad::aicore::san_test::Result;

inline constexpr const char* k910 = "Ascend910B1";
inline constexpr const char* k950 = "Ascend950PR_9589";
inline constexpr uint32_t kOpBytes = 4096, kTmpBytes = 8192, kProbe = 256;

// The UB tensors a call may use: a is its destination, tmp its sharedTmpBuffer.
struct Ops {
  LocalTensor<uint8_t> a, b, c, d, tmp;
};
using Call = std::function<void(Ops&)>;

// What the kernel does with the scratch's first kProbe bytes after the call.
enum class Then { kRead, kWriteThenRead, kCopyOut };

struct Outcome {
  Result r;
  std::vector<uint8_t> bytes;  // the destination a, then what the kernel read from the scratch
};

// Every operand and the scratch written first (zeros), the call, then `then`.
inline Outcome RunScratch(const char* soc, uint32_t tools, Then then, const Call& call) {
  Outcome out;
  Gm g(kProbe / sizeof(float));
  LaunchSpec spec;
  spec.soc = soc;
  spec.tools = tools;
  out.r = LaunchSanitized(spec, [&] {
    TPipe pipe;
    TBuf<> ta, tb, tc, td, tt, tp;
    for (TBuf<>* t : {&ta, &tb, &tc, &td}) pipe.InitBuffer(*t, kOpBytes);
    pipe.InitBuffer(tt, kTmpBytes);
    pipe.InitBuffer(tp, kProbe);
    Ops ops{ta.Get<uint8_t>(), tb.Get<uint8_t>(), tc.Get<uint8_t>(), td.Get<uint8_t>(),
            tt.Get<uint8_t>()};
    for (LocalTensor<uint8_t>* t : {&ops.a, &ops.b, &ops.c, &ops.d, &ops.tmp}) {
      Duplicate(t->ReinterpretCast<uint16_t>(), uint16_t{0}, t->GetSize() / 2);
    }
    PipeBarrier<PIPE_V>();
    call(ops);
    PipeBarrier<PIPE_V>();
    LocalTensor<half> t16 = ops.tmp.ReinterpretCast<half>();
    LocalTensor<half> probe = tp.Get<half>();
    if (then == Then::kWriteThenRead) {
      Duplicate(t16, half(1.0f), kProbe / 2);
      PipeBarrier<PIPE_V>();
    }
    out.bytes.assign(ops.a.HostPtr(), ops.a.HostPtr() + kOpBytes);
    if (then == Then::kCopyOut) {
      GlobalTensor<float> gt;
      gt.SetGlobalBuffer(g.p, kProbe / sizeof(float));
      SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
      DataCopy(gt, ops.tmp.ReinterpretCast<float>(), kProbe / sizeof(float));
      const auto* p = reinterpret_cast<const uint8_t*>(g.p);
      out.bytes.insert(out.bytes.end(), p, p + kProbe);
    } else {
      Adds(probe, t16, half(0.0f), kProbe / 2);
      const auto* p = reinterpret_cast<const uint8_t*>(probe.HostPtr());
      out.bytes.insert(out.bytes.end(), p, p + kProbe);
    }
  });
  return out;
}

// initcheck reports the read of the scratch, naming `api` and the call's line in `file`, and
// nothing else; a write of the
// bytes before the read is clean; without initcheck (and without any tool) nothing is reported
// and the destination and the bytes read are those of the unsanitized run.
inline void ExpectLoudIn(const char* file, const char* soc, const char* api, const Call& call,
                         Then read = Then::kRead) {
  const Outcome loud = RunScratch(soc, san::kAllTools, read, call);
  ASSERT_EQ(loud.r.failures.size(), 1u) << loud.r.AllText();
  EXPECT_EQ(loud.r.failures[0].check, "initcheck");
  const std::string& m = loud.r.failures[0].message;
  EXPECT_NE(m.find(std::string("read of scratch ") + api + " left"), std::string::npos) << m;
  EXPECT_NE(m.find(std::string("that ") + api + " at " + file + ":"), std::string::npos) << m;
  EXPECT_NE(m.find("reads UB bytes [16384, 16640)"), std::string::npos) << m;  // tmp after a..d
  EXPECT_NE(m.find("which lngrad does not model"), std::string::npos) << m;
  EXPECT_NE(m.find("write them before reading"), std::string::npos) << m;

  ExpectClean(RunScratch(soc, san::kAllTools, Then::kWriteThenRead, call).r);

  const Outcome quiet = RunScratch(soc, san::kRacecheck | san::kSynccheck, read, call);
  ExpectClean(quiet.r);
  const Outcome off = RunScratch(soc, 0, read, call);
  ExpectClean(off.r);
  EXPECT_EQ(quiet.bytes, off.bytes);
  EXPECT_EQ(loud.bytes, off.bytes);
}

}  // namespace lngrad::aicore::san_test::scratch
