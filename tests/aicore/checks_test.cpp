// Every kernel check of the runtime: each test makes one block of a multi-block launch break one
// rule (the others do the same thing legally) and asserts the check name and the block index.
// Also: what unchecked mode does instead (device behaviour), and how launches report failures.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "checked_mode_scope.h"
#include "gm_buffer.h"

namespace {

using namespace AscendC;
namespace checks = lngrad::aicore::checks;
using lngrad::aicore::KernelCheckError;

constexpr uint32_t kBlocks = 4;
constexpr int64_t kBadBlock = 2;

using namespace lngrad::aicore::test;

// Runs body(bad) in kBlocks blocks through ICPU_RUN_KF, bad == (block == kBadBlock), and
// returns the error it must raise. The launcher's stderr report must name the bad block.
KernelCheckError ExpectKernelCheck(const std::string& check,
                                   const std::function<void(bool)>& body) {
  auto kernel = [&] { body(GetBlockIdx() == kBadBlock); };
  testing::internal::CaptureStderr();
  try {
    ICPU_RUN_KF(kernel, kBlocks);
  } catch (const KernelCheckError& e) {
    const std::string report = testing::internal::GetCapturedStderr();
    EXPECT_EQ(e.check(), check) << e.what();
    EXPECT_EQ(e.block_idx(), kBadBlock) << e.what();
    EXPECT_NE(std::string(e.what()).find("block 2"), std::string::npos) << e.what();
    EXPECT_NE(report.find("block 2: [" + check + "]"), std::string::npos) << report;
    EXPECT_EQ(report.find("block 1:"), std::string::npos) << report;
    return e;
  }
  testing::internal::GetCapturedStderr();
  ADD_FAILURE() << "no KernelCheckError for " << check;
  return KernelCheckError(-2, "", "");
}

// A pipe with one 256 B VECCALC buffer (64 floats) and a 2-block VECIN queue of 64 B blocks.
struct Fixture {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  TQue<TPosition::VECIN, 1> que;
  Fixture() {
    pipe.InitBuffer(buf, 256);
    pipe.InitBuffer(que, 2, 64);
  }
  LocalTensor<float> Floats() { return buf.Get<float>(); }
};

TEST(AscendcChecks, GetValueBeyondTensor) {
  ExpectKernelCheck(checks::kTensorBounds, [](bool bad) {
    Fixture f;
    LocalTensor<float> t = f.buf.Get<float>(16);
    (void)t.GetValue(bad ? 16 : 15);
  });
}

TEST(AscendcChecks, SetValueBeyondTensor) {
  const KernelCheckError e = ExpectKernelCheck(checks::kTensorBounds, [](bool bad) {
    Fixture f;
    f.Floats()[8].SetValue(bad ? 56 : 55, 1.0f);
  });
  EXPECT_NE(e.message().find("can not be larger than data len 56"), std::string::npos)
      << e.message();
}

TEST(AscendcChecks, SubTensorOffsetBeyondTensor) {
  ExpectKernelCheck(checks::kTensorBounds, [](bool bad) {
    Fixture f;
    LocalTensor<float> t = f.Floats();
    LocalTensor<float> s = t[bad ? 64 : 56];
    (void)s;
  });
}

TEST(AscendcChecks, VectorCountBeyondTensor) {
  ExpectKernelCheck(checks::kTensorBounds, [](bool bad) {
    Fixture f;
    LocalTensor<float> a = f.buf.Get<float>(32);
    LocalTensor<float> b = f.Floats()[32];
    Add(a, a, b, bad ? 40 : 32);
  });
}

TEST(AscendcChecks, SetSizeBeyondBuffer) {
  ExpectKernelCheck(checks::kTensorBounds, [](bool bad) {
    Fixture f;
    LocalTensor<float> a = f.que.AllocTensor<float>();  // 64 B block: 16 floats
    a.SetSize(bad ? 17 : 16);
    f.que.FreeTensor(a);
  });
}

TEST(AscendcChecks, TBufGetBeyondBuffer) {
  ExpectKernelCheck(checks::kTensorBounds, [](bool bad) {
    Fixture f;
    (void)f.buf.Get<float>(bad ? 65 : 64);
  });
}

TEST(AscendcChecks, TensorWithoutBuffer) {
  ExpectKernelCheck(checks::kTensorBounds, [](bool bad) {
    Fixture f;
    LocalTensor<float> t = bad ? LocalTensor<float>() : f.Floats();
    (void)t.GetValue(0);
  });
}

TEST(AscendcChecks, MisalignedVectorOperand) {
  const KernelCheckError e = ExpectKernelCheck(checks::kUbAlignment, [](bool bad) {
    Fixture f;
    LocalTensor<float> t = f.Floats();
    Muls(t[bad ? 3 : 8], t[bad ? 3 : 8], 2.0f, 16);
  });
  EXPECT_NE(e.message().find("UB address 12"), std::string::npos) << e.message();
}

TEST(AscendcChecks, MisalignedDataCopyDestination) {
  GmBuffer gm(256);
  ExpectKernelCheck(checks::kUbAlignment, [&](bool bad) {
    Fixture f;
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm.as<float>(), 64);
    DataCopy(f.Floats()[bad ? 4 : 8], g, 8);
  });
}

TEST(AscendcChecks, DataCopyLengthNotMultipleOf32Bytes) {
  GmBuffer gm(256);
  for (int direction = 0; direction < 3; ++direction) {
    SCOPED_TRACE(direction);
    const KernelCheckError e = ExpectKernelCheck(checks::kDataCopyLength, [&](bool bad) {
      Fixture f;
      GlobalTensor<float> g;
      g.SetGlobalBuffer(gm.as<float>(), 64);
      const uint32_t count = bad ? 12 : 16;  // 48 B would be rounded down to 32 B
      if (direction == 0) DataCopy(f.Floats(), g, count);
      if (direction == 1) DataCopy(g, f.Floats(), count);
      if (direction == 2) DataCopy(f.Floats(), f.Floats()[32], count);
    });
    EXPECT_NE(e.message().find("48 B is not a multiple of 32 B"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("copy only 32 B"), std::string::npos) << e.message();
  }
}

TEST(AscendcChecks, MisalignedGmAddress) {
  GmBuffer gm(512);
  ExpectKernelCheck(checks::kGmAlignment, [&](bool bad) {
    Fixture f;
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<float*>(gm.p + (bad ? 2 : 4)), 32);
    DataCopy(f.Floats(), g, 8);
  });
}

TEST(AscendcChecks, DataCopyBeyondGlobalTensor) {
  GmBuffer gm(1024);
  ExpectKernelCheck(checks::kGmBounds, [&](bool bad) {
    Fixture f;
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm.as<float>(), 16);
    DataCopy(f.Floats(), g, bad ? 24 : 16);
  });
}

TEST(AscendcChecks, GlobalGetValueBeyondGlobalTensor) {
  GmBuffer gm(1024);
  ExpectKernelCheck(checks::kGmBounds, [&](bool bad) {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(gm.as<int32_t>(), 16);
    (void)g.GetValue(bad ? 16 : 15);
  });
}

TEST(AscendcChecks, DataCopyBeyondGmAllocBlockEvenWithoutSize) {
  for (bool checked : {true, false}) {
    CheckedModeScope guard(checked);
    GmBuffer gm(64);  // 16 floats
    ExpectKernelCheck(checks::kGmBounds, [&](bool bad) {
      Fixture f;
      GlobalTensor<float> g;
      g.SetGlobalBuffer(gm.as<float>());  // size unknown: the GmAlloc block still bounds it
      DataCopy(f.Floats(), g, bad ? 24 : 16);
    });
  }
}

TEST(AscendcChecks, DeQueOnEmptyQueue) {
  ExpectKernelCheck(checks::kQueueEmpty, [](bool bad) {
    Fixture f;
    LocalTensor<float> t = f.que.AllocTensor<float>();
    if (!bad) f.que.EnQue(t);
    LocalTensor<float> d = f.que.DeQue<float>();
    f.que.FreeTensor(d);
  });
}

TEST(AscendcChecks, EnQueBeyondDepth) {
  const KernelCheckError e = ExpectKernelCheck(checks::kQueueFull, [](bool bad) {
    Fixture f;  // depth 1, 2 blocks
    LocalTensor<float> a = f.que.AllocTensor<float>();
    LocalTensor<float> b = f.que.AllocTensor<float>();
    f.que.EnQue(a);
    if (!bad) f.que.FreeTensor(f.que.DeQue<float>());
    f.que.EnQue(b);
  });
  EXPECT_NE(e.message().find("usedCount is 1, which exceed depth limits 1"), std::string::npos)
      << e.message();
  EXPECT_NE(e.message().find("TQue<VECIN, 1>"), std::string::npos) << e.message();
}

TEST(AscendcChecks, AllocTensorWithoutFreeBlock) {
  ExpectKernelCheck(checks::kQueueNoFreeBuffer, [](bool bad) {
    Fixture f;
    LocalTensor<float> a = f.que.AllocTensor<float>();
    LocalTensor<float> b = f.que.AllocTensor<float>();
    if (!bad) f.que.FreeTensor(a);
    LocalTensor<float> c = f.que.AllocTensor<float>();
    (void)b;
    (void)c;
  });
}

TEST(AscendcChecks, AllocTensorOnQueueWithoutInitBuffer) {
  ExpectKernelCheck(checks::kQueueNoFreeBuffer, [](bool bad) {
    Fixture f;
    TQue<TPosition::VECOUT, 1> other;
    if (!bad) f.pipe.InitBuffer(other, 1, 32);
    (void)other.AllocTensor<float>();
  });
}

TEST(AscendcChecks, FreeTensorOfForeignTensor) {
  ExpectKernelCheck(checks::kQueueForeignTensor, [](bool bad) {
    Fixture f;
    TQue<TPosition::VECOUT, 1> other;
    f.pipe.InitBuffer(other, 1, 64);
    LocalTensor<float> mine = f.que.AllocTensor<float>();
    LocalTensor<float> theirs = other.AllocTensor<float>();
    f.que.FreeTensor(bad ? theirs : mine);
  });
  ExpectKernelCheck(checks::kQueueForeignTensor, [](bool bad) {
    Fixture f;
    LocalTensor<float> mine = f.que.AllocTensor<float>();
    f.que.FreeTensor(bad ? f.Floats() : mine);  // a TBuf tensor
  });
}

TEST(AscendcChecks, EnQueOfForeignTensor) {
  ExpectKernelCheck(checks::kQueueForeignTensor, [](bool bad) {
    Fixture f;
    LocalTensor<float> mine = f.que.AllocTensor<float>();
    f.que.EnQue(bad ? f.Floats() : mine);
  });
}

TEST(AscendcChecks, DoubleFreeAndFreeWhileEnqueued) {
  ExpectKernelCheck(checks::kQueueState, [](bool bad) {
    Fixture f;
    LocalTensor<float> a = f.que.AllocTensor<float>();
    f.que.FreeTensor(a);
    if (bad) f.que.FreeTensor(a);
  });
  ExpectKernelCheck(checks::kQueueState, [](bool bad) {
    Fixture f;
    LocalTensor<float> a = f.que.AllocTensor<float>();
    f.que.EnQue(a);
    if (!bad) a = f.que.DeQue<float>();
    f.que.FreeTensor(a);
  });
}

TEST(AscendcChecks, EnQueOfAFreedBlock) {
  ExpectKernelCheck(checks::kQueueState, [](bool bad) {
    Fixture f;
    LocalTensor<float> a = f.que.AllocTensor<float>();
    if (bad) f.que.FreeTensor(a);
    f.que.EnQue(a);
  });
}

TEST(AscendcChecks, TBufOffsetNotMultipleOf32Bytes) {
  ExpectKernelCheck(checks::kUbAlignment, [](bool bad) {
    Fixture f;
    (void)f.buf.GetWithOffset<float>(8, bad ? 16 : 32);
  });
}

TEST(AscendcChecks, GlobalTensorWithoutBuffer) {
  GmBuffer gm(64);
  ExpectKernelCheck(checks::kGmBounds, [&](bool bad) {
    GlobalTensor<float> g;
    if (!bad) g.SetGlobalBuffer(gm.as<float>(), 16);
    (void)g.GetValue(0);
  });
}

TEST(AscendcChecks, PartialOverlapOfOperands) {
  ExpectKernelCheck(checks::kAddressOverlap, [](bool bad) {
    Fixture f;
    LocalTensor<float> t = f.Floats();
    Add(t[bad ? 8 : 32], t, t, 32);
  });
}

TEST(AscendcChecks, NegativeCount) {
  for (bool checked : {true, false}) {
    CheckedModeScope guard(checked);
    ExpectKernelCheck(checks::kInvalidCount, [](bool bad) {
      Fixture f;
      LocalTensor<float> t = f.Floats();
      Sub(t, t, t, bad ? -1 : 8);
    });
  }
}

TEST(AscendcChecks, UbOverflowNamesBufferRequestAndWhatIsLeft) {
  const uint32_t ub = lngrad::CurrentProduct().ub_bytes;
  const std::string soc(lngrad::CurrentProduct().soc);
  const KernelCheckError e = ExpectKernelCheck(checks::kUbOverflow, [&](bool bad) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> first;
    TQue<TPosition::VECIN, 2> big;
    pipe.InitBuffer(first, 1000);  // 1024 B
    pipe.InitBuffer(big, 2, bad ? (ub - 1024) / 2 + 32 : (ub - 1024) / 2);
  });
  const std::string& m = e.message();
  const uint32_t block = (ub - 1024) / 2 + 32;
  EXPECT_NE(m.find("InitBuffer(TQue<VECIN, 2>, num 2, len " + std::to_string(block) + ")"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("checks_test.cpp:"), std::string::npos) << m;  // where the buffer was declared
  EXPECT_NE(m.find("needs " + std::to_string(2 * block) + " B"), std::string::npos) << m;
  EXPECT_NE(m.find("at UB address 1024"), std::string::npos) << m;
  EXPECT_NE(m.find("only " + std::to_string(ub - 1024) + " B of the " + std::to_string(ub) +
                   " B UB of " + soc),
            std::string::npos)
      << m;
}

TEST(AscendcChecks, BadInitBufferArguments) {
  ExpectKernelCheck(checks::kInitBuffer, [](bool bad) {
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, bad ? 0 : 32);
  });
  ExpectKernelCheck(checks::kInitBuffer, [](bool bad) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, bad ? 0 : 1, 32);
  });
  ExpectKernelCheck(checks::kInitBuffer, [](bool bad) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q1;
    TQue<TPosition::VECIN, 1> q2;
    pipe.InitBuffer(q1, 60, 32);
    pipe.InitBuffer(q2, bad ? 5 : 4, 32);  // 65 buffers in one TPipe
  });
}

// SPM is not modelled (the cube's A1 ... CO1 and TSCM are, through the cube layer's hook).
TEST(AscendcChecks, UnmodelledPosition) {
  ExpectKernelCheck(checks::kPosition, [](bool bad) {
    TPipe pipe;
    TQue<TPosition::SPM, 1> spm;
    TQue<TPosition::VECIN, 1> ub;
    if (bad) {
      pipe.InitBuffer(spm, 1, 512);
    } else {
      pipe.InitBuffer(ub, 1, 512);
    }
  });
}

TEST(AscendcChecks, CastRoundModeUndefinedForWidening) {
  ExpectKernelCheck(checks::kCastRoundMode, [](bool bad) {
    Fixture f;
    LocalTensor<float> dst = f.buf.Get<float>(32);
    LocalTensor<half> src = f.Floats()[32].ReinterpretCast<half>();
    Cast(dst, src, bad ? RoundMode::CAST_RINT : RoundMode::CAST_NONE, 16);
  });
}

TEST(AscendcChecks, PopStackBufferWithNoUbLeft) {
  const uint32_t ub = lngrad::CurrentProduct().ub_bytes;
  ExpectKernelCheck(checks::kStackBuffer, [&](bool bad) {
    TPipe pipe;
    TBuf<> all;
    pipe.InitBuffer(all, bad ? ub : 1024);
    LocalTensor<uint8_t> stack;
    EXPECT_TRUE((PopStackBuffer<uint8_t, TPosition::LCM>(stack)));
  });
}

// With standalone blocks switched off (they are on by default: compat_test.cpp).
TEST(AscendcChecks, KernelApiOutsideALaunch) {
  lngrad::aicore::ResetStandaloneBlock();
  const bool was = lngrad::aicore::StandaloneBlocks();
  lngrad::aicore::SetStandaloneBlocks(false);
  try {
    (void)GetBlockIdx();
    ADD_FAILURE() << "GetBlockIdx outside a launch did not raise";
  } catch (const KernelCheckError& e) {
    EXPECT_EQ(e.check(), checks::kOutsideLaunch);
    EXPECT_EQ(e.block_idx(), -1);
  }
  EXPECT_THROW(TPipe pipe, KernelCheckError);
  lngrad::aicore::SetStandaloneBlocks(was);
}

TEST(AscendcChecks, RaiseKernelCheckCarriesTheRunningBlock) {
  const KernelCheckError e = ExpectKernelCheck("MyApi.rule", [](bool bad) {
    if (bad) lngrad::aicore::RaiseKernelCheck("MyApi.rule", "broken");
  });
  EXPECT_EQ(e.message(), "broken");
}

// ---- Unchecked mode: device behaviour ----------------------------------------------------

TEST(AscendcUnchecked, DataCopyRoundsLengthDownLikeTheDevice) {
  CheckedModeScope guard(false);
  GmBuffer in(64 * sizeof(float));
  GmBuffer out(64 * sizeof(float));
  for (int i = 0; i < 64; ++i) {
    in.as<float>()[i] = static_cast<float>(i + 1);
    out.as<float>()[i] = -7.0f;
  }
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    Fixture f;
    LocalTensor<float> t = f.Floats();
    Duplicate(t, -1.0f, 64);
    GlobalTensor<float> gi;
    GlobalTensor<float> go;
    gi.SetGlobalBuffer(in.as<float>(), 64);
    go.SetGlobalBuffer(out.as<float>(), 64);
    DataCopy(t, gi, 12);      // 48 B -> 32 B: elements 8..11 are not copied
    DataCopy(go, t, 16);      // aligned: shows what reached the UB
    DataCopy(go[16], t, 12);  // 48 B -> 32 B again, GM side
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out.as<float>()[i], static_cast<float>(i + 1)) << i;
  for (int i = 8; i < 16; ++i) EXPECT_EQ(out.as<float>()[i], -1.0f) << i;
  for (int i = 16; i < 24; ++i) EXPECT_EQ(out.as<float>()[i], static_cast<float>(i - 15)) << i;
  for (int i = 24; i < 28; ++i) EXPECT_EQ(out.as<float>()[i], -7.0f) << i;
}

TEST(AscendcUnchecked, ReadsPastATensorSeeNeighbouringUb) {
  CheckedModeScope guard(false);
  float seen = 0.0f;
  uint32_t sub_size = 99;
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    Fixture f;
    LocalTensor<float> all = f.Floats();
    all.SetValue(20, 4.25f);
    LocalTensor<float> small = f.buf.Get<float>(16);
    seen = small.GetValue(20);  // beyond the 16-element tensor, still inside the TBuf
    sub_size = small[40].GetSize();
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(seen, 4.25f);
  EXPECT_EQ(sub_size, 0u);
}

TEST(AscendcUnchecked, AccessOutsideTheUbIsStillAnError) {
  CheckedModeScope guard(false);
  const uint32_t ub = lngrad::CurrentProduct().ub_bytes;
  ExpectKernelCheck(checks::kUbBounds, [&](bool bad) {
    Fixture f;
    LocalTensor<uint8_t> t = f.buf.Get<uint8_t>();
    (void)t.GetValue(bad ? ub + 4096 : 100);
  });
}

TEST(AscendcUnchecked, PopStackBufferReturnsFalseWithNoUbLeft) {
  CheckedModeScope guard(false);
  bool popped = true;
  const uint32_t ub = lngrad::CurrentProduct().ub_bytes;
  ASSERT_TRUE(lngrad::aicore::Launch(1, [&] {
                TPipe pipe;
                TBuf<> all;
                pipe.InitBuffer(all, ub);
                LocalTensor<uint8_t> stack;
                popped = PopStackBuffer<uint8_t, TPosition::LCM>(stack);
              }).ok());
  EXPECT_FALSE(popped);
}

TEST(AscendcUnchecked, QueueMisuseIsStillAnError) {
  CheckedModeScope guard(false);
  ExpectKernelCheck(checks::kQueueEmpty, [](bool bad) {
    Fixture f;
    if (!bad) f.que.EnQue(f.que.AllocTensor<float>());
    (void)f.que.DeQue<float>();
  });
}

// LNGRAD_CHECKED is read once, at first use, so the test runs itself as a child process.
TEST(AscendcUnchecked, EnvironmentSelectsCheckedMode) {
  if (const char* child = std::getenv("LNGRAD_TEST_EXPECT_CHECKED")) {
    EXPECT_EQ(lngrad::aicore::CheckedMode(), std::strcmp(child, "1") == 0);
    return;
  }
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string filter =
      " --gtest_filter=AscendcUnchecked.EnvironmentSelectsCheckedMode > /dev/null 2>&1";
  EXPECT_EQ(std::system(("LNGRAD_CHECKED=0 LNGRAD_TEST_EXPECT_CHECKED=0 " + self + filter).c_str()),
            0);
  EXPECT_EQ(std::system(("LNGRAD_CHECKED=1 LNGRAD_TEST_EXPECT_CHECKED=1 " + self + filter).c_str()),
            0);
  EXPECT_EQ(
      std::system(("env -u LNGRAD_CHECKED LNGRAD_TEST_EXPECT_CHECKED=1 " + self + filter).c_str()),
      0);  // default: on
  // The child's verdict must be able to fail: a wrong expectation makes it exit non-zero.
  EXPECT_NE(std::system(("LNGRAD_CHECKED=0 LNGRAD_TEST_EXPECT_CHECKED=1 " + self + filter).c_str()),
            0);
}

// ---- How launches report failures ----------------------------------------------------------

TEST(AscendcLaunchReport, EveryFailedBlockIsReportedAndTheFirstIsRethrown) {
  auto kernel = [] {
    if (GetBlockIdx() % 2 == 1) {
      lngrad::aicore::RaiseKernelCheck("test.odd_block",
                                       "block " + std::to_string(GetBlockIdx()) + " refuses");
    }
  };
  testing::internal::CaptureStderr();
  try {
    ICPU_RUN_KF(kernel, 6);
    ADD_FAILURE() << "no exception";
  } catch (const KernelCheckError& e) {
    EXPECT_EQ(e.block_idx(), 1);
  }
  const std::string report = testing::internal::GetCapturedStderr();
  EXPECT_NE(report.find("failed in 3 of 6 block(s)"), std::string::npos) << report;
  for (int b : {1, 3, 5}) {
    EXPECT_NE(report.find("block " + std::to_string(b) + ": [test.odd_block] block " +
                          std::to_string(b) + " refuses"),
              std::string::npos)
        << report;
  }
  for (int b : {0, 2, 4})
    EXPECT_EQ(report.find("block " + std::to_string(b) + ":"), std::string::npos) << report;

  std::vector<lngrad::aicore::BlockFailure> failures;
  testing::internal::CaptureStderr();
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks("k", 6, kernel, {}, &failures);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(s.code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("first: block 1 [test.odd_block]"), std::string::npos) << s.message();
  ASSERT_EQ(failures.size(), 3u);
  EXPECT_EQ(failures[0].block_idx, 1);
  EXPECT_EQ(failures[2].block_idx, 5);
}

TEST(AscendcLaunchReport, OtherExceptionsAreInternalErrors) {
  testing::internal::CaptureStderr();
  const lngrad::Status s = lngrad::aicore::Launch(3, [] {
    if (GetBlockIdx() == 0) throw std::runtime_error("boom");
  });
  const std::string report = testing::internal::GetCapturedStderr();
  EXPECT_EQ(s.code(), lngrad::StatusCode::kInternal);
  EXPECT_NE(report.find("block 0: [exception] boom"), std::string::npos) << report;
}

}  // namespace
