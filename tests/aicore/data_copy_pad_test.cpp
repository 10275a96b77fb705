// DataCopyPad and SetPadValue against a scalar model of the vendor's documentation (DataCopyPad
// GMToUB / UBToGM 非对齐数据搬运, SetPadValue): every field, both directions, both prototypes,
// the padding and dummy bytes, the Compact and loop modes of the 950, the vendor's sample, the
// pad value register and what the sanitizer sees. The model (data_copy_pad_test_util.h) is
// written from the documentation, byte by byte, and shares nothing with the implementation; the
// product table and the checked-mode rules are in data_copy_pad_checks_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
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
using lngrad::aicore::LaunchOptions;
using namespace lngrad::aicore::test;

// The structs as kernels spell them (the vendor's samples and documentation).
TEST(DataCopyPadStructs, VendorSpellingsAndDefaults) {
  constexpr uint32_t srcCols = 20;
  const DataCopyExtParams copyParams{1, srcCols * sizeof(half), 0, 0, 0};
  EXPECT_EQ(copyParams.blockCount, 1);
  EXPECT_EQ(copyParams.blockLen, 40u);
  const DataCopyExtParams defaults;
  EXPECT_EQ(defaults.blockCount, 1);  // DEFAULT_DATA_COPY_NBURST
  EXPECT_EQ(defaults.blockLen, 0u);
  EXPECT_EQ(defaults.srcStride, 0u);
  EXPECT_EQ(defaults.dstStride, 0u);
  EXPECT_EQ(defaults.rsv, 0u);
  const DataCopyPadExtParams<int8_t> minusOne{true, 0, 0, -1};
  EXPECT_TRUE(minusOne.isPad);
  EXPECT_EQ(minusOne.paddingValue, -1);
  DataCopyPadExtParams<half> padParams;
  EXPECT_FALSE(padParams.isPad);
  EXPECT_EQ(padParams.leftPadding, 0);
  EXPECT_EQ(padParams.rightPadding, 0);
  EXPECT_EQ(float(padParams.paddingValue), 0.0f);
  padParams.rightPadding = 12;
  DataCopyPadParams legacy;
  legacy.isPad = 1;
  legacy.rightPadding = 4;
  legacy.paddingValue = 0;
  EXPECT_EQ(legacy.rightPadding, 4);
  const DataCopyPadExtParams<half> halfPad{true, 0, 2, 0};
  EXPECT_EQ(halfPad.rightPadding, 2);
  EXPECT_EQ(float(halfPad.paddingValue), 0.0f);
  EXPECT_EQ(static_cast<int>(PaddingMode::Normal), 0);
  EXPECT_EQ(static_cast<int>(PaddingMode::Compact), 1);
}

template <typename T>
void GmToUbAllFields(const char* soc) {
  const bool is950 = std::string(soc) == k950;
  for (Case c : GmToUbCases<T>()) {
    c.is950 = is950;
    if (sizeof(T) == 8 && c.isPad) c.padBits = 0;                // the documented 64-bit rule
    if (c.registerKnown && std::string(soc) == k310B) continue;  // no SetPadValue there
    ExpectGmToUbMatchesModel<T>(soc, c);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(DataCopyPadGmToUb, Int8AllFields) { GmToUbAllFields<int8_t>(k910B); }
TEST(DataCopyPadGmToUb, Int16AllFields) { GmToUbAllFields<int16_t>(k910B); }
TEST(DataCopyPadGmToUb, HalfAllFields) { GmToUbAllFields<half>(k910B); }
TEST(DataCopyPadGmToUb, FloatAllFields) { GmToUbAllFields<float>(k910B); }
TEST(DataCopyPadGmToUb, Int32AllFields) { GmToUbAllFields<int32_t>(k910B); }
TEST(DataCopyPadGmToUb, Int64AllFields) { GmToUbAllFields<int64_t>(k910B); }
TEST(DataCopyPadGmToUb, HalfAllFieldsOn950) { GmToUbAllFields<half>(k950); }
TEST(DataCopyPadGmToUb, FloatAllFieldsOn310B) { GmToUbAllFields<float>(k310B); }

template <typename T>
void UbToGmAllFields(const char* soc) {
  constexpr uint32_t e = sizeof(T);
  for (uint32_t count : {1u, 4u}) {
    for (uint32_t len : {e, 5 * e, 32u, 96u + e}) {
      for (int64_t src_stride : {0, 1, 3}) {
        for (int64_t dst_stride : {0, 1, 33}) {
          ExpectUbToGmMatchesModel<T>(soc, {.blockCount = count,
                                            .blockLen = len,
                                            .srcStride = src_stride,
                                            .dstStride = dst_stride});
          if (testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(DataCopyPadUbToGm, Int8AllFields) { UbToGmAllFields<int8_t>(k910B); }
TEST(DataCopyPadUbToGm, Int16AllFields) { UbToGmAllFields<int16_t>(k910B); }
TEST(DataCopyPadUbToGm, HalfAllFields) { UbToGmAllFields<half>(k910B); }
TEST(DataCopyPadUbToGm, FloatAllFields) { UbToGmAllFields<float>(k910B); }
TEST(DataCopyPadUbToGm, Int32AllFields) { UbToGmAllFields<int32_t>(k910B); }
TEST(DataCopyPadUbToGm, Int64AllFields) { UbToGmAllFields<int64_t>(k910B); }
TEST(DataCopyPadUbToGm, FloatAllFieldsOn950) { UbToGmAllFields<float>(k950); }
TEST(DataCopyPadUbToGm, HalfAllFieldsOn310B) { UbToGmAllFields<half>(k310B); }

// The older prototype: the same fields in DataCopyParams (16-bit, blockLen in bytes) and
// DataCopyPadParams (paddingValue as the register's raw bits).
TEST(DataCopyPadLegacy, GmToUbAndUbToGmMatchTheModel) {
  for (Case c : GmToUbCases<half>()) {
    c.padBits = 0x3C00;  // 1.0 as half bits
    ExpectGmToUbMatchesModel<half>(k910B, c, /*legacy=*/true);
    if (testing::Test::HasFatalFailure()) return;
  }
  for (Case c : GmToUbCases<int8_t>()) {
    ExpectGmToUbMatchesModel<int8_t>(k910B, c, /*legacy=*/true);
    if (testing::Test::HasFatalFailure()) return;
  }
  Case c;
  c.blockCount = 3;
  c.blockLen = 46;
  c.srcStride = 2;
  c.dstStride = 5;
  ExpectUbToGmMatchesModel<int16_t>(k910B, c, /*legacy=*/true);
}

// Compact mode (950): rows packed back to back, one fill at the end; dstStride and the
// paddings are ignored.
TEST(DataCopyPadCompact, GmToUbPacksRowsAndFillsTheEnd) {
  for (Case c : GmToUbCases<half>()) {
    c.is950 = true;
    c.compact = true;
    ExpectGmToUbMatchesModel<half>(k950, c);
    if (testing::Test::HasFatalFailure()) return;
  }
  for (Case c : GmToUbCases<float>()) {
    c.is950 = true;
    c.compact = true;
    ExpectGmToUbMatchesModel<float>(k950, c, /*legacy=*/true);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(DataCopyPadCompact, UbToGmReadsPackedRows) {
  for (uint32_t count : {1u, 3u}) {
    for (uint32_t len : {4u, 20u, 48u}) {
      Case c;
      c.blockCount = count;
      c.blockLen = len;
      c.srcStride = 7;  // ignored
      c.dstStride = 3;
      c.compact = true;
      ExpectUbToGmMatchesModel<float>(k950, c);
      if (testing::Test::HasFatalFailure()) return;
    }
  }
}

#if __NPU_ARCH__ == 3510
// The 950's GM stride may step back, down to -blockLen (the same row again).
TEST(DataCopyPad950, NegativeGmStrides) {
  for (int64_t stride : {-48, -20, -1}) {
    Case c;
    c.blockCount = 4;
    c.blockLen = 48;
    c.srcStride = stride;
    c.isPad = true;
    c.is950 = true;
    c.dstStride = 1;
    ExpectGmToUbMatchesModel<int8_t>(k950, c);
  }
}

TEST(DataCopyPad950, UbToGmStridesAreNotNegative) {
  // The GM side of UB -> GM is documented as [0, 2^40 - 1] on the 950.
  CheckedModeScope mode(true);
  Case u;
  u.blockCount = 2;
  u.blockLen = 48;
  u.dstStride = -1;
  std::optional<KernelCheckError> e;
  UbToGm<int8_t>(k950, u, BytePattern(kUbBytes, 1), 256, &e);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->check(), lngrad::aicore::checks::kDataCopyPadParams);
  EXPECT_NE(e->message().find("dstStride (GM bytes) is -1, which must be in [0, 1099511627775]"),
            std::string::npos)
      << e->message();
  u.dstStride = int64_t{1} << 40;  // one row: only the range refuses it
  u.blockCount = 1;
  UbToGm<int8_t>(k950, u, BytePattern(kUbBytes, 1), 256, &e);
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message().find("dstStride (GM bytes) is 1099511627776"), std::string::npos)
      << e->message();
}

TEST(DataCopyPad950, StrideBelowMinusBlockLenIsAnErrorInBothModes) {
  for (bool checked : {true, false}) {
    CheckedModeScope mode(checked);
    Case c;
    c.blockCount = 2;
    c.blockLen = 32;
    c.srcStride = -33;
    const Outcome o = GmToUb<int8_t>(k950, c, BytePattern(256, 1));
    ASSERT_TRUE(o.error.has_value());
    EXPECT_EQ(o.error->check(), lngrad::aicore::checks::kDataCopyPadParams);
    EXPECT_NE(o.error->message().find("srcStride is -33"), std::string::npos) << o.error->message();
  }
}
#endif

// The vendor's data_copy_pad sample, scenarios 1-3, with the outputs its gen_data.py expects.
TEST(DataCopyPadSample, Scenario1SetPadValueFillsTheRightPadding) {
  // [1, 20] half -> [1, 32]: isPad false, rightPadding 12, SetPadValue(1).
  std::vector<uint16_t> x(20);
  for (int i = 0; i < 20; ++i) x[i] = static_cast<uint16_t>(0x4000 + i);
  std::vector<uint8_t> gm(64, 0);
  std::memcpy(gm.data(), x.data(), 40);
  Case c;
  c.blockLen = 40;
  c.rightPadding = 12;
  c.registerKnown = true;
  c.registerBits = 0x3C00;
  const Outcome o = GmToUb<half>(k910B, c, gm);
  ASSERT_FALSE(o.error.has_value()) << o.error->what();
  uint16_t y[32];
  std::memcpy(y, o.ub.data(), sizeof(y));
  for (int i = 0; i < 32; ++i) EXPECT_EQ(y[i], i < 20 ? x[i] : 0x3C00) << i;
}

TEST(DataCopyPadSample, Scenario2IsPadZeroFillsEveryRow) {
  // [32, 59] float -> [32, 64]: isPad true (paddingValue 0), rightPadding 5.
  std::vector<float> x(32 * 59);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.25f * static_cast<float>(i) + 1.0f;
  std::vector<uint8_t> gm(x.size() * 4);
  std::memcpy(gm.data(), x.data(), gm.size());
  Case c;
  c.blockCount = 32;
  c.blockLen = 59 * 4;
  c.rightPadding = 5;
  c.isPad = true;
  const Outcome o = GmToUb<float>(k910B, c, gm);
  ASSERT_FALSE(o.error.has_value()) << o.error->what();
  std::vector<float> y(32 * 64);
  std::memcpy(y.data(), o.ub.data(), y.size() * 4);
  for (int r = 0; r < 32; ++r) {
    for (int j = 0; j < 64; ++j) {
      ASSERT_EQ(y[r * 64 + j], j < 59 ? x[r * 59 + j] : 0.0f) << r << "," << j;
    }
  }
}

TEST(DataCopyPadSample, Scenario3CompactPacksThreeRowsOn950) {
  // [3, 24] half -> [1, 80]: Compact, isPad true (0): 72 elements, then 8 of padding.
  std::vector<uint16_t> x(72);
  for (int i = 0; i < 72; ++i) x[i] = static_cast<uint16_t>(0x4400 + 3 * i);
  std::vector<uint8_t> gm(160, 0);
  std::memcpy(gm.data(), x.data(), 144);
  Case c;
  c.blockCount = 3;
  c.blockLen = 48;
  c.rightPadding = 8;
  c.isPad = true;
  c.compact = true;
  const Outcome o = GmToUb<half>(k950, c, gm);
  ASSERT_FALSE(o.error.has_value()) << o.error->what();
  uint16_t y[80];
  std::memcpy(y, o.ub.data(), sizeof(y));
  for (int i = 0; i < 80; ++i) EXPECT_EQ(y[i], i < 72 ? x[i] : 0) << i;
}

// ---- The 950's loop mode (SetLoopModePara) ---------------------------------------------------

// The vendor sample's scenarios 4 and 5: 320 int8 in, two loops of two iterations (GM strides 80
// and 160, UB strides 128 and 288), each iteration a DataCopyPad of two 40-byte blocks with
// paddingValue -1: Compact packs the 80 bytes and pads to 96, Normal pads each block to 64.
std::vector<uint8_t> LoopModeExpected(const std::vector<uint8_t>& x, bool compact) {
  std::vector<uint8_t> ub(kUbBytes, kUbSentinel);
  for (int outer = 0; outer < 2; ++outer) {
    for (int inner = 0; inner < 2; ++inner) {
      const int dst = outer * 288 + inner * 128;
      const int src = outer * 160 + inner * 80;
      for (int block = 0; block < 2; ++block) {
        const int d = dst + block * (compact ? 40 : 64);
        for (int b = 0; b < 40; ++b) ub[d + b] = x[src + block * 40 + b];
        if (!compact) {
          for (int b = 40; b < 64; ++b) ub[d + b] = 0xFF;
        }
      }
      if (compact) {
        for (int b = 80; b < 96; ++b) ub[dst + b] = 0xFF;
      }
    }
  }
  return ub;
}

TEST(DataCopyPadLoopMode, SampleScenarios4And5) {
  const std::vector<uint8_t> x = BytePattern(320, 5);
  GmBuffer gm(320);
  std::memcpy(gm.p, x.data(), 320);
  for (bool compact : {true, false}) {
    SCOPED_TRACE(compact ? "Compact" : "Normal");
    const Outcome o = RunOn(k950, [&](LocalTensor<uint8_t>& ub) {
      GlobalTensor<int8_t> src;
      src.SetGlobalBuffer(reinterpret_cast<int8_t*>(gm.p), 320);
      LocalTensor<int8_t> t = ub.ReinterpretCast<int8_t>();
      const DataCopyExtParams copyParams{2, 40, 0, 0, 0};
      const DataCopyPadExtParams<int8_t> padParams{true, 0, 0, -1};
      const LoopModeParams loop{2, 2, 80, 128, 160, 288};
      SetLoopModePara(loop, DataCopyMVType::OUT_TO_UB);
      if (compact) {
        DataCopyPad<int8_t, PaddingMode::Compact>(t, src, copyParams, padParams);
      } else {
        DataCopyPad<int8_t>(t, src, copyParams, padParams);
      }
      ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
    });
    ASSERT_FALSE(o.error.has_value()) << o.error->what();
    ExpectSameBytes(o.ub, LoopModeExpected(x, compact), "UB");
  }
}

TEST(DataCopyPadLoopMode, SampleScenario6FiveDimensions) {
  // GM [2, 4, 3, 128, 126] int8 -> UB [512, 128]: rows [2, 2, 2, 64] of 126 bytes, each padded
  // with two zeros; loop1 over dimension 2, loop2 over dimension 1, a plain loop over dimension 0.
  constexpr int kD1 = 4, kD2 = 3, kD3 = 128, kD4 = 126;
  const std::vector<uint8_t> x = BytePattern(2 * kD1 * kD2 * kD3 * kD4, 9);
  GmBuffer gm(x.size());
  std::memcpy(gm.p, x.data(), x.size());
  std::vector<uint8_t> ub(512 * 128);
  LaunchOptions o;
  o.sequential = true;
  o.soc = k950;
  const lngrad::Status s = lngrad::aicore::Launch(
      1,
      [&] {
        LocalTensor<int8_t> t(TPosition::VECIN, 0, 512 * 128);
        std::memset(t.HostPtr(), kUbSentinel, 512 * 128);
        GlobalTensor<int8_t> src;
        src.SetGlobalBuffer(reinterpret_cast<int8_t*>(gm.p), x.size());
        SetLoopModePara({2, 2, kD3 * kD4, 64 * 128, kD2 * kD3 * kD4, 2 * 64 * 128},
                        DataCopyMVType::OUT_TO_UB);
        const DataCopyExtParams copyParams{64, kD4, 0, 0, 0};
        const DataCopyPadExtParams<int8_t> padParams{true, 0, 0, 0};
        for (uint32_t dim0 = 0; dim0 < 2; ++dim0) {
          DataCopyPad<int8_t>(t[dim0 * 2 * 2 * 64 * 128], src[dim0 * kD1 * kD2 * kD3 * kD4],
                              copyParams, padParams);
        }
        ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
        std::memcpy(ub.data(), t.HostPtr(), ub.size());
      },
      o);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::vector<uint8_t> expected(512 * 128, 0);
  int row = 0;
  for (int d0 = 0; d0 < 2; ++d0) {
    for (int d1 = 0; d1 < 2; ++d1) {
      for (int d2 = 0; d2 < 2; ++d2) {
        for (int d3 = 0; d3 < 64; ++d3, ++row) {
          const size_t from = (((static_cast<size_t>(d0) * kD1 + d1) * kD2 + d2) * kD3 + d3) * kD4;
          for (int b = 0; b < kD4; ++b) expected[row * 128 + b] = x[from + b];
        }
      }
    }
  }
  ExpectSameBytes(ub, expected, "UB");
}

TEST(DataCopyPadLoopMode, UbToGmAndReset) {
  // UB_TO_OUT: two iterations of one 20-byte row, UB 64 bytes and GM 20 bytes apart; after the
  // reset a copy runs once again.
  const std::vector<uint8_t> ub_bytes = BytePattern(kUbBytes, 3);
  GmBuffer gm(128);
  std::memset(gm.p, kGmSentinel, 128);
  const Outcome o = RunOn(k950, [&](LocalTensor<uint8_t>& ub) {
    std::memcpy(ub.HostPtr(), ub_bytes.data(), kUbBytes);
    GlobalTensor<uint8_t> dst;
    dst.SetGlobalBuffer(gm.p, 128);
    SetLoopModePara({2, 1, 64, 20, 0, 0}, DataCopyMVType::UB_TO_OUT);
    DataCopyPad(dst, ub, DataCopyExtParams(1, 20, 0, 0, 0));
    ResetLoopModePara(DataCopyMVType::UB_TO_OUT);
    DataCopyPad(dst[64], ub, DataCopyExtParams(1, 20, 0, 0, 0));
  });
  ASSERT_FALSE(o.error.has_value()) << o.error->what();
  std::vector<uint8_t> expected(128, kGmSentinel);
  for (int b = 0; b < 20; ++b) {
    expected[b] = ub_bytes[b];
    expected[20 + b] = ub_bytes[64 + b];
    expected[64 + b] = ub_bytes[b];
  }
  ExpectSameBytes(std::vector<uint8_t>(gm.p, gm.p + 128), expected, "GM");
}

TEST(DataCopyPadLoopMode, RulesAndProducts) {
  CheckedModeScope mode(true);
  const Outcome a2 = RunOn(k910B, [](LocalTensor<uint8_t>&) {
    SetLoopModePara({2, 1, 64, 128, 0, 0}, DataCopyMVType::OUT_TO_UB);
  });
  ASSERT_TRUE(a2.error.has_value());
  EXPECT_EQ(a2.error->check(), "SetLoopModePara.unsupported_product");
  EXPECT_NE(a2.error->message().find("Ascend910B1"), std::string::npos) << a2.error->message();
  for (uint64_t stride : {128u, 100u}) {
    const Outcome o = RunOn(k950, [&](LocalTensor<uint8_t>&) {
      SetLoopModePara({2, 1, 64, stride, 0, 0}, DataCopyMVType::OUT_TO_UB);
      ResetLoopModePara(DataCopyMVType::OUT_TO_UB);
    });
    ASSERT_NO_FATAL_FAILURE(ExpectFailsIf(o, stride == 100,
                                          lngrad::aicore::checks::kDataCopyPadParams,
                                          "loop1DstStride is 100, which must be below 2^21 and a "
                                          "multiple of 32 (UB side) for OUT_TO_UB"));
  }
}

// ---- The pad value register -----------------------------------------------------------------

TEST(DataCopyPadRegister, IsPadLoadsTheRegisterForLaterCopies) {
  // The vendor's isPad writes paddingValue into the register (set_mov_pad_val) before copying,
  // so a later isPad = false copy in the same block pads with it.
  std::vector<uint8_t> gm = BytePattern(256, 9);
  GmBuffer g(gm.size());
  std::memcpy(g.p, gm.data(), gm.size());
  const Outcome o = RunOn(k910B, [&](LocalTensor<uint8_t>& ub) {
    GlobalTensor<int16_t> src;
    src.SetGlobalBuffer(g.as<int16_t>(), 128);
    LocalTensor<int16_t> t = ub.ReinterpretCast<int16_t>();
    DataCopyPad(t, src, DataCopyExtParams(1, 0, 0, 0, 0),
                DataCopyPadExtParams<int16_t>(true, 0, 0, 0x1234));  // a no-op copy
    DataCopyPad(t, src, {1, 8, 0, 0, 0}, {false, 1, 2, 0});          // braced, as kernels write it
  });
  ASSERT_FALSE(o.error.has_value()) << o.error->what();
  int16_t y[16];
  std::memcpy(y, o.ub.data(), sizeof(y));
  int16_t x[4];
  std::memcpy(x, gm.data(), sizeof(x));
  const int16_t expected[16] = {0x1234, x[0],   x[1],   x[2],   x[3],   0x1234, 0x1234, 0x1234,
                                0x1234, 0x1234, 0x1234, 0x1234, 0x1234, 0x1234, 0x1234, 0x1234};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(y[i], expected[i]) << i;
  EXPECT_EQ(o.ub[32], kUbSentinel);
}

TEST(DataCopyPadRegister, UndefinedRegisterFillsAllOnesAndIsPerBlock) {
  // Each block starts with an undefined register, whatever an earlier block set.
  std::vector<uint8_t> gm = BytePattern(64, 1);
  Case set;
  set.blockLen = 4;
  set.rightPadding = 1;
  set.registerKnown = true;
  set.registerBits = 0x7;
  const Outcome first = GmToUb<float>(k910B, set, gm);
  ASSERT_FALSE(first.error.has_value());
  EXPECT_EQ(first.ub[4], 0x7);
  Case unset = set;
  unset.registerKnown = false;
  const Outcome o = GmToUb<float>(k910B, unset, gm);
  ASSERT_FALSE(o.error.has_value());
  for (int i = 4; i < 32; ++i) EXPECT_EQ(o.ub[i], kUndefined) << i;
}

TEST(DataCopyPadRegister, SetPadValueTakesVecinVecoutOrMaxOnly) {
  CheckedModeScope mode(true);
  const Outcome ok = RunOn(k910B, [](LocalTensor<uint8_t>&) {
    SetPadValue<float, TPosition::VECIN>(1.0f);
    SetPadValue<float, TPosition::VECOUT>(1.0f);
    SetPadValue(1.0f);
  });
  EXPECT_FALSE(ok.error.has_value());
  const Outcome bad =
      RunOn(k910B, [](LocalTensor<uint8_t>&) { SetPadValue<float, TPosition::VECCALC>(1.0f); });
  ASSERT_TRUE(bad.error.has_value());
  EXPECT_EQ(bad.error->check(), lngrad::aicore::checks::kDataCopyPadParams);
  EXPECT_NE(bad.error->message().find("pos is VECCALC"), std::string::npos) << bad.error->message();
}

// ---- What the sanitizer sees (lngrad_aicore/sanitizer.h) ---------------------------------------

namespace san = lngrad::aicore::san;

struct SanResult {
  std::vector<lngrad::aicore::BlockFailure> failures;
  std::string Text() const {
    std::string t;
    for (const auto& f : failures) t += "[" + f.check + "] " + f.message + "\n";
    return t;
  }
  // Exactly one finding, of `check` (any if null), whose message holds each of `parts`.
  void ExpectOne(const char* check, std::initializer_list<std::string> parts) const {
    ASSERT_EQ(failures.size(), 1u) << Text();
    if (check != nullptr) {
      EXPECT_EQ(failures[0].check, check);
    }
    for (const std::string& part : parts) {
      EXPECT_NE(failures[0].message.find(part), std::string::npos) << Text();
    }
  }
};

SanResult Sanitize(const char* soc, const std::function<void()>& kernel) {
  LaunchOptions o;
  o.sanitize = san::kAllTools;
  o.soc = soc;
  SanResult r;
  testing::internal::CaptureStderr();
  (void)lngrad::aicore::detail::RunBlocks("kernel", 1, kernel, o, &r.failures);
  testing::internal::GetCapturedStderr();
  return r;
}

std::string Here(int line) { return "data_copy_pad_test.cpp:" + std::to_string(line); }

// 20 bytes of floats in with `right` elements of padding, then `read` floats of the row out
// with DataCopyPad (MTE2 -> MTE3 synchronised unless `synced` is false). Only data movement, so
// every access is this file's.
struct PaddedRowKernel {
  const char* soc = k910B;
  bool isPad = true;
  bool setPadValue = false;
  uint8_t right = 3;
  uint32_t read = 8;
  bool synced = true;
  int copy_line = 0;

  void Run(float* x, float* z) {
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer(x, 16);
    zg.SetGlobalBuffer(z, 16);
    LocalTensor<float> t(TPosition::VECIN, 0, 16);
    if (setPadValue) SetPadValue(2.0f);
    copy_line = __LINE__ + 1;  // the call's first line is its call site
    DataCopyPad(t, xg, DataCopyExtParams(1, 20, 0, 0, 0),
                DataCopyPadExtParams<float>(isPad, 0, right, 0.0f));
    if (synced) {
      SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    }
    DataCopyPad(zg, t, DataCopyExtParams(1, read * 4, 0, 0, 0));
  }
};

SanResult SanitizePaddedRow(PaddedRowKernel& k) {
  GmBuffer x(64), z(64);
  for (int i = 0; i < 16; ++i) x.as<float>()[i] = static_cast<float>(i + 1);
  return Sanitize(k.soc, [&] { k.Run(x.as<float>(), z.as<float>()); });
}

TEST(DataCopyPadSanitizer, PaddingWithIsPadOrSetPadValueIsInitialised) {
  PaddedRowKernel k;  // 20 B + 12 B of padding: one aligned row, no dummy bytes
  SanResult r = SanitizePaddedRow(k);
  EXPECT_TRUE(r.failures.empty()) << r.Text();
  k.isPad = false;
  k.setPadValue = true;
  r = SanitizePaddedRow(k);
  EXPECT_TRUE(r.failures.empty()) << r.Text();
}

TEST(DataCopyPadSanitizer, PaddingFromAnUndefinedRegisterIsNot) {
  PaddedRowKernel k;
  k.isPad = false;
  const SanResult r = SanitizePaddedRow(k);
  r.ExpectOne("initcheck", {"UB bytes [20, 32)"});
}

TEST(DataCopyPadSanitizer, DummyBytesAreNotInitialised) {
  // No padding: UB bytes [20, 32) are dummy bytes (the row's first element); copying them out
  // is an initcheck finding, copying the 5 floats of data is not.
  PaddedRowKernel k;
  k.right = 0;
  SanResult r = SanitizePaddedRow(k);
  r.ExpectOne("initcheck", {"UB bytes [20, 32)"});
  k.read = 5;
  r = SanitizePaddedRow(k);
  EXPECT_TRUE(r.failures.empty()) << r.Text();
}

TEST(DataCopyPadSanitizer, On950IsPadFillsTheDummyBytes) {
  PaddedRowKernel k;
  k.soc = k950;
  k.right = 0;
  const SanResult r = SanitizePaddedRow(k);
  EXPECT_TRUE(r.failures.empty()) << r.Text();
}

TEST(DataCopyPadSanitizer, RecordsItsCallSiteOnMte2) {
  PaddedRowKernel k;
  k.synced = false;
  const SanResult r = SanitizePaddedRow(k);
  r.ExpectOne("racecheck", {"MTE2 DataCopyPad(GM->UB) at " + Here(k.copy_line)});
}

TEST(DataCopyPadSanitizer, UbToGmReadsOnlyTheRowsBytes) {
  // A 20-byte row in, its dummy bytes never written, the same 20 bytes out on MTE3: clean, and
  // an MTE2 -> MTE3 flag is needed.
  for (bool synced : {true, false}) {
    GmBuffer x(64), z(64);
    int out_line = 0;
    const SanResult r = Sanitize(k910B, [&] {
      GlobalTensor<float> xg, zg;
      xg.SetGlobalBuffer(x.as<float>(), 16);
      zg.SetGlobalBuffer(z.as<float>(), 16);
      LocalTensor<float> t(TPosition::VECIN, 0, 16);
      DataCopyPad(t, xg, DataCopyExtParams(1, 20, 0, 0, 0), DataCopyPadExtParams<float>());
      if (synced) {
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
      }
      DataCopyPad(zg, t, DataCopyExtParams(1, 20, 0, 0, 0));
      out_line = __LINE__ - 1;
    });
    if (synced) {
      EXPECT_TRUE(r.failures.empty()) << r.Text();
    } else {
      r.ExpectOne("racecheck",
                  {"MTE3 DataCopyPad(UB->GM) at " + Here(out_line), "UB bytes [0, 20)"});
    }
  }
}

// The plain DataCopy forms record on their pipes, block by block.
TEST(DataCopySanitizer, StridedCopyWritesOnlyItsBlocks) {
  // Two 32-byte blocks with a one-block gap in UB: the gap stays unwritten (initcheck when the
  // copy out reads it).
  GmBuffer x(256), z(256);
  int copy_line = 0;
  const SanResult r = Sanitize(k910B, [&] {
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer(x.as<float>(), 64);
    zg.SetGlobalBuffer(z.as<float>(), 64);
    LocalTensor<float> t(TPosition::VECIN, 0, 64);
    DataCopy(t, xg, DataCopyParams(2, 1, 0, 1));
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(zg, t, 24);
    copy_line = __LINE__ - 1;
  });
  r.ExpectOne("initcheck",
              {"MTE3 DataCopy(UB->GM) at " + Here(copy_line) + " reads UB bytes [32, 64)"});
}

TEST(DataCopySanitizer, UbToUbCopyIsOnV) {
  // UB -> UB DataCopy is a V instruction: after an MTE2 write it needs MTE2 -> V, before an
  // MTE3 read V -> MTE3.
  for (bool synced : {true, false}) {
    GmBuffer x(128), z(128);
    int copy_line = 0;
    const SanResult r = Sanitize(k910B, [&] {
      GlobalTensor<float> xg, zg;
      xg.SetGlobalBuffer(x.as<float>(), 32);
      zg.SetGlobalBuffer(z.as<float>(), 32);
      LocalTensor<float> a(TPosition::VECIN, 0, 32);
      LocalTensor<float> b(TPosition::VECCALC, 256, 32);
      DataCopy(a, xg, 32);
      if (synced) {
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
      }
      DataCopy(b, a, 32);
      copy_line = __LINE__ - 1;
      SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
      DataCopy(zg, b, 32);
    });
    if (synced) {
      EXPECT_TRUE(r.failures.empty()) << r.Text();
    } else {
      r.ExpectOne(nullptr, {"V DataCopy(UB->UB) at " + Here(copy_line)});
    }
  }
}

}  // namespace
