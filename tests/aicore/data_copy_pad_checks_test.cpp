// DataCopyPad and SetPadValue: the product table (产品支持情况) and each checked-mode rule of the
// vendor's documentation, on the model and runners of data_copy_pad_test_util.h.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "checked_mode_scope.h"
#include "data_copy_pad_test_util.h"
#include "gm_buffer.h"

namespace {

using namespace AscendC;
using lngrad::aicore::KernelCheckError;
using namespace lngrad::aicore::test;

// ---- The product table (产品支持情况) ---------------------------------------------------------

std::optional<KernelCheckError> PadErrorOn(const char* soc, bool compact, bool set_pad_value,
                                           bool ub_to_gm = false) {
  GmBuffer g(256);
  return RunOn(soc,
               [&](LocalTensor<uint8_t>& ub) {
                 GlobalTensor<half> src;
                 src.SetGlobalBuffer(g.as<half>(), 128);
                 LocalTensor<half> t = ub.ReinterpretCast<half>();
                 if (set_pad_value) SetPadValue(half(1.0f));
                 const DataCopyExtParams p(1, 20, 0, 0, 0);
                 if (ub_to_gm) {
                   if (compact) {
                     DataCopyPad<half, PaddingMode::Compact>(src, t, p);
                   } else {
                     DataCopyPad(src, t, p);
                   }
                 } else if (compact) {
                   DataCopyPad<half, PaddingMode::Compact>(t, src, p, DataCopyPadExtParams<half>());
                 } else {
                   DataCopyPad(t, src, p, DataCopyPadExtParams<half>());
                 }
               })
      .error;
}

TEST(DataCopyPadProducts, WhereEachPrototypeExists) {
  struct Row {
    const char* soc;
    bool pad;      // DataCopyPad without mode
    bool compact;  // PaddingMode::Compact
    bool set_pad;  // SetPadValue
  };
  for (const Row& r : {Row{k910B, true, false, true}, Row{"Ascend910_9391", true, false, true},
                       Row{k310B, true, false, false}, Row{k950, true, true, true},
                       Row{k310P, false, false, false}, Row{k910A, false, false, false}}) {
    SCOPED_TRACE(r.soc);
    for (bool checked : {true, false}) {
      CheckedModeScope mode(checked);
      for (bool ub_to_gm : {false, true}) {
        const auto plain = PadErrorOn(r.soc, false, false, ub_to_gm);
        EXPECT_EQ(plain.has_value(), !r.pad);
        if (plain) {
          EXPECT_EQ(plain->check(), "DataCopyPad.unsupported_product");
          EXPECT_NE(plain->message().find(r.soc), std::string::npos) << plain->message();
        }
        const auto compact = PadErrorOn(r.soc, true, false, ub_to_gm);
        EXPECT_EQ(compact.has_value(), !r.compact);
        if (compact && r.pad) {
          EXPECT_NE(compact->message().find("PaddingMode::Compact"), std::string::npos)
              << compact->message();
        }
      }
      const auto set_pad = PadErrorOn(r.soc, false, true);
      if (!r.set_pad) {
        ASSERT_TRUE(set_pad.has_value());
        EXPECT_EQ(set_pad->check(), "SetPadValue.unsupported_product");
        EXPECT_NE(set_pad->message().find(r.soc), std::string::npos) << set_pad->message();
      } else {
        EXPECT_FALSE(set_pad.has_value()) << set_pad->what();
      }
    }
  }
}

// ---- Checked-mode rules -----------------------------------------------------------------------

// Runs a GM -> UB (or UB -> GM) copy of `c` on float data in checked mode, once legal (`good`)
// and once breaking a rule (`bad`), and returns the error of the bad one.
KernelCheckError ExpectRule(const char* soc, const Case& good, const Case& bad, const char* check,
                            const std::string& message_part, bool ub_to_gm = false,
                            uint32_t bad_ub_offset = 0) {
  CheckedModeScope mode(true);
  std::optional<KernelCheckError> e;
  if (ub_to_gm) {
    std::optional<KernelCheckError> g;
    UbToGm<float>(soc, good, BytePattern(kUbBytes, 1), 2048, &g);
    EXPECT_FALSE(g.has_value()) << g->what();
    UbToGm<float>(soc, bad, BytePattern(kUbBytes, 1), 2048, &e);
  } else {
    const Outcome g = GmToUb<float>(soc, good, BytePattern(2048, 1));
    EXPECT_FALSE(g.error.has_value()) << g.error->what();
    e = GmToUb<float>(soc, bad, BytePattern(2048, 1), false, bad_ub_offset).error;
  }
  if (!e) {
    ADD_FAILURE() << "no " << check;
    return KernelCheckError(-2, "", "");
  }
  EXPECT_EQ(e->check(), check) << e->what();
  EXPECT_NE(e->message().find(message_part), std::string::npos) << e->message();
  return *e;
}

Case Rows(uint32_t count, uint32_t len) {
  Case c;
  c.blockCount = count;
  c.blockLen = len;
  return c;
}

TEST(DataCopyPadChecks, BlockLenMustBeAMultipleOfTheElementSize) {
  ExpectRule(k910B, Rows(1, 20), Rows(1, 22), lngrad::aicore::checks::kDataCopyPadParams,
             "blockLen is 22 B, which must be a multiple of sizeof(T) = 4");
  ExpectRule(k910B, Rows(1, 20), Rows(1, 22), lngrad::aicore::checks::kDataCopyPadParams,
             "blockLen is 22 B", /*ub_to_gm=*/true);
}

TEST(DataCopyPadChecks, BlockCountAtMost4095) {
  // blockLen 1 on a UB tensor large enough for 4096 rows of 32 bytes: only the documented range
  // refuses the 4096th.
  CheckedModeScope mode(true);
  GmBuffer gm(4096);
  for (uint32_t n : {4095u, 4096u}) {
    const Outcome o = RunOn(k910B, [&](LocalTensor<uint8_t>&) {
      LocalTensor<uint8_t> big(TPosition::VECOUT, kUbBytes, 4096 * 32);
      GlobalTensor<uint8_t> dst;
      dst.SetGlobalBuffer(gm.p, 4096);
      DataCopyPad(dst, big, DataCopyExtParams(static_cast<uint16_t>(n), 1, 0, 0, 0));
    });
    SCOPED_TRACE(::testing::Message() << n);
    ASSERT_NO_FATAL_FAILURE(ExpectFailsIf(o, n == 4096, lngrad::aicore::checks::kDataCopyPadParams,
                                          "blockCount is 4096, which must be in [0, 4095]"));
  }
}

TEST(DataCopyPadChecks, BlockLenAtMost2097151) {
  ExpectRule(k910B, Rows(1, 20), Rows(1, 2097152), lngrad::aicore::checks::kDataCopyPadParams,
             "blockLen is 2097152 B, which must be in [0, 2097151]");
}

TEST(DataCopyPadChecks, PaddingAtMost32Bytes) {
  Case good = Rows(2, 20);
  good.leftPadding = 8;  // 32 B of float
  good.rightPadding = 8;
  Case bad = good;
  bad.leftPadding = 9;
  ExpectRule(k910B, good, bad, lngrad::aicore::checks::kDataCopyPadParams,
             "leftPadding is 9 elements = 36 B, which must be at most 32 B");
  bad = good;
  bad.rightPadding = 9;
  ExpectRule(k910B, good, bad, lngrad::aicore::checks::kDataCopyPadParams,
             "rightPadding is 9 elements = 36 B");
}

TEST(DataCopyPadChecks, UncheckedModeCopiesLargerPaddingsLikeAsked) {
  CheckedModeScope mode(false);
  Case c = Rows(2, 20);
  c.leftPadding = 9;
  c.isPad = true;
  c.padBits = 0x3F800000;
  ExpectGmToUbMatchesModel<float>(k910B, c);
}

TEST(DataCopyPadChecks, UbStrideRangeOf950) {
  // One row: the stride moves nothing, so only the 950's range [0, 65535] refuses 65536 (the
  // A2's is [0, 2^32 - 1]).
  CheckedModeScope mode(true);
  for (const char* soc : {k910B, k950}) {
    for (uint32_t stride : {65535u, 65536u}) {
      const bool bad = stride == 65536 && soc == k950;
      Case c = Rows(1, 20);
      c.dstStride = stride;
      const Outcome o = GmToUb<float>(soc, c, BytePattern(64, 1));
      SCOPED_TRACE(::testing::Message() << soc << " " << stride);
      ASSERT_NO_FATAL_FAILURE(ExpectFailsIf(o, bad, lngrad::aicore::checks::kDataCopyPadParams,
                                            "dstStride (UB 32-byte blocks) is 65536, which must be "
                                            "in [0, 65535] on Ascend950PR_9599"));
      Case u = Rows(1, 20);
      u.srcStride = stride;
      std::optional<KernelCheckError> e;
      UbToGm<float>(soc, u, BytePattern(kUbBytes, 1), 64, &e);
      ASSERT_EQ(e.has_value(), bad) << soc << " " << stride;
      if (e) {
        EXPECT_NE(e->message().find("srcStride (UB 32-byte blocks) is 65536"), std::string::npos)
            << e->message();
      }
    }
  }
}

TEST(DataCopyPadChecks, SixtyFourBitPaddingValueMustBeZero) {
  CheckedModeScope mode(true);
  Case c = Rows(1, 16);
  c.rightPadding = 2;
  c.isPad = true;
  for (uint64_t bits : {uint64_t{0}, uint64_t{1}}) {
    c.padBits = bits;
    const Outcome o = GmToUb<int64_t>(k910B, c, BytePattern(64, 1));
    ASSERT_NO_FATAL_FAILURE(ExpectFailsIf(o, bits != 0, lngrad::aicore::checks::kDataCopyPadParams,
                                          "paddingValue must be 0 for 64-bit"));
  }
}

TEST(DataCopyPadChecks, SixtyFourBitTypesNotOn310B) {
  CheckedModeScope mode(true);
  const Outcome ok = GmToUb<int32_t>(k310B, Rows(1, 16), BytePattern(64, 1));
  EXPECT_FALSE(ok.error.has_value());
  const Outcome o = GmToUb<int64_t>(k310B, Rows(1, 16), BytePattern(64, 1));
  ASSERT_TRUE(o.error.has_value());
  EXPECT_EQ(o.error->check(), lngrad::aicore::checks::kDataCopyPadParams);
  EXPECT_NE(o.error->message().find("64-bit element types are not supported on Ascend310B1"),
            std::string::npos)
      << o.error->message();
}

TEST(DataCopyPadChecks, UbOperandMustBe32ByteAligned) {
  CheckedModeScope mode(true);
  for (uint32_t offset : {32u, 16u}) {
    const Outcome o = GmToUb<float>(k910B, Rows(1, 20), BytePattern(64, 1), false, offset);
    ASSERT_NO_FATAL_FAILURE(
        ExpectFailsIf(o, offset == 16, lngrad::aicore::checks::kUbAlignment, "dst UB address 16"));
  }
  GmBuffer gm(64);
  for (uint32_t offset : {32u, 16u}) {
    const Outcome o = RunOn(k910B, [&](LocalTensor<uint8_t>& ub) {
      GlobalTensor<float> dst;
      dst.SetGlobalBuffer(gm.as<float>(), 16);
      DataCopyPad(dst, ub.ReinterpretCast<float>()[offset / 4], DataCopyExtParams(1, 20, 0, 0, 0));
    });
    ASSERT_NO_FATAL_FAILURE(
        ExpectFailsIf(o, offset == 16, lngrad::aicore::checks::kUbAlignment, "src UB address 16"));
  }
}

TEST(DataCopyPadChecks, GmAddressNeedsNoAlignment) {
  // GM operands are 1-byte aligned: a float GlobalTensor may start at an odd address.
  CheckedModeScope mode(true);
  GmBuffer gm(128);
  for (uint32_t i = 0; i < 128; ++i) gm.p[i] = static_cast<uint8_t>(i);
  const Outcome o = RunOn(k910B, [&](LocalTensor<uint8_t>& ub) {
    GlobalTensor<float> src;
    src.SetGlobalBuffer(reinterpret_cast<float*>(gm.p + 1), 16);
    DataCopyPad(ub.ReinterpretCast<float>(), src, DataCopyExtParams(1, 12, 0, 0, 0),
                DataCopyPadExtParams<float>(true, 0, 0, 0.0f));
  });
  ASSERT_FALSE(o.error.has_value()) << o.error->what();
  for (int i = 0; i < 12; ++i) EXPECT_EQ(o.ub[i], i + 1) << i;
}

TEST(DataCopyPadChecks, UbExtentIncludesTheDummyBytes) {
  // 10 floats = 40 B of data fill 64 B of UB: a 10-element tensor is too small, a 16-element one
  // is not (the vendor's CPU-debug check counts the aligned rows too).
  GmBuffer gm(64);
  for (bool checked : {true, false}) {
    CheckedModeScope mode(checked);
    for (uint32_t size : {16u, 10u}) {
      const Outcome o = RunOn(k910B, [&](LocalTensor<uint8_t>& ub) {
        GlobalTensor<float> src;
        src.SetGlobalBuffer(gm.as<float>(), 16);
        LocalTensor<float> t = ub.ReinterpretCast<float>();
        t.SetSize(size);
        DataCopyPad(t, src, DataCopyExtParams(1, 40, 0, 0, 0), DataCopyPadExtParams<float>());
      });
      SCOPED_TRACE(::testing::Message() << checked << " " << size);
      ASSERT_NO_FATAL_FAILURE(ExpectFailsIf(
          o, checked && size == 10, lngrad::aicore::checks::kTensorBounds, "DataCopyPad(GM->UB)"));
    }
  }
}

TEST(DataCopyPadChecks, GmExtentWithinTheGlobalTensor) {
  // Two rows of 20 B, 4 B apart: 44 B of GM; a GlobalTensor of 10 floats (40 B) is too small.
  Case c = Rows(2, 20);
  c.srcStride = 4;
  GmBuffer gm(64);
  CheckedModeScope mode(true);
  for (uint32_t size : {11u, 10u}) {
    const Outcome o = RunOn(k910B, [&](LocalTensor<uint8_t>& ub) {
      GlobalTensor<float> src;
      src.SetGlobalBuffer(gm.as<float>(), size);
      DataCopyPad(ub.ReinterpretCast<float>(), src, ExtParams(c), DataCopyPadExtParams<float>());
    });
    ASSERT_NO_FATAL_FAILURE(ExpectFailsIf(o, size == 10, lngrad::aicore::checks::kGmBounds));
  }
  for (uint32_t size : {11u, 10u}) {
    const Outcome o = RunOn(k910B, [&](LocalTensor<uint8_t>& ub) {
      GlobalTensor<float> dst;
      dst.SetGlobalBuffer(gm.as<float>(), size);
      DataCopyExtParams p = ExtParams(c);
      p.srcStride = 0;
      p.dstStride = 4;
      DataCopyPad(dst, ub.ReinterpretCast<float>(), p);
    });
    ASSERT_NO_FATAL_FAILURE(ExpectFailsIf(o, size == 10, lngrad::aicore::checks::kGmBounds));
  }
}

TEST(DataCopyPadChecks, ZeroBlockCountOrLengthIsANoOp) {
  CheckedModeScope mode(true);
  for (const Case& c : {Rows(0, 20), Rows(3, 0)}) {
    Case p = c;
    p.rightPadding = 3;
    p.isPad = true;
    const Outcome o = GmToUb<float>(k910B, p, BytePattern(64, 1));
    ASSERT_FALSE(o.error.has_value()) << o.error->what();
    EXPECT_EQ(o.ub, std::vector<uint8_t>(kUbBytes, kUbSentinel));
    const std::vector<uint8_t> gm = UbToGm<float>(k910B, c, BytePattern(kUbBytes, 1), 128);
    EXPECT_EQ(gm, std::vector<uint8_t>(128, kGmSentinel));
  }
}

}  // namespace
