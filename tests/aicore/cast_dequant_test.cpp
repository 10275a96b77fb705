// CastDequant and SetDeqScale's three forms (lngrad_aicore/cast_dequant.h, ctrl.h): the DEQSCALE
// words the vendor's MakeDeqScaleConfig packs, the page's example (the halfBlock placement), the
// int32_t -> half path as Cast with CAST_RINT (on the 950 its float steps and its own half scale
// register), an in-place call, and checked mode's named checks
// for the page's restrictions (products, the SetDeqScale form each call needs, signMode against
// the destination type, the vdeq tensor, operand extents, masks). The arithmetic is compared bit
// for bit with the replay in tests/replay/cast_dequant_replay_test.cpp.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "checked_mode_scope.h"
#include "kernel_operator.h"
#include "repeat_test_util.h"
#include "sanitizer_off.h"

namespace {

using namespace AscendC;
using lngrad::aicore::test::CheckedModeScope;
using lngrad::aicore::test::CheckOf;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;

TEST(CastDequant, SetDeqScaleWritesTheDocumentedWords) {
  OnBlock([](Ub& ub) {
    SetDeqScale(1.5f, static_cast<int16_t>(-3), true);
    EXPECT_EQ(lngrad::aicore::DeqScaleRegister(),
              (uint64_t{1} << 46) | (uint64_t{0x1fd} << 37) | std::bit_cast<uint32_t>(1.5f));
    EXPECT_EQ(lngrad::aicore::DeqScaleForm(), lngrad::aicore::DeqForm::kScalar);
    float scale[16];
    int16_t offset[16];
    bool sign[16];
    for (int i = 0; i < 16; ++i) {
      scale[i] = 0.25f * static_cast<float>(i);
      offset[i] = static_cast<int16_t>(1000 - 100 * i);  // only the low 9 bits are kept
      sign[i] = (i % 2) == 0;
    }
    LocalTensor<uint64_t> vdeq = ub.Get<uint64_t>(2)[64];  // UB address 512 B into buffer 2
    SetDeqScale(vdeq, VdeqInfo(scale, offset, sign));
    for (uint32_t i = 0; i < 16; ++i) {
      const uint64_t want = (uint64_t{sign[i] ? 1u : 0u} << 46) |
                            (uint64_t{static_cast<uint16_t>(offset[i]) & 0x1ffu} << 37) |
                            std::bit_cast<uint32_t>(scale[i]);
      EXPECT_EQ(vdeq.GetValue(i), want) << i;
    }
    EXPECT_EQ(lngrad::aicore::DeqScaleRegister(), vdeq.GetPhyAddr() / 32);
    EXPECT_EQ(lngrad::aicore::DeqScaleForm(), lngrad::aicore::DeqForm::kVector);
  });
}

// CastDequant.md's example: 256 inputs 0..99, scale 1, offset 0, unsigned, halfBlock = true, the
// continuous mask 128 with 2 repeats: each block's 16 results in its upper 16 bytes, the lower 16
// untouched.
TEST(CastDequant, PageExampleHalfBlockPlacement) {
  for (int form = 0; form < 3; ++form) {
    std::vector<uint8_t> out;
    std::vector<int16_t> in(256);
    for (int i = 0; i < 256; ++i) in[i] = static_cast<int16_t>((i * 37) % 100);
    OnBlock([&](Ub& ub) {
      ub.Put<int16_t>(0, in);
      ub.Put<uint8_t>(1, {}, 0);
      float scale[16];
      int16_t offset[16] = {};
      bool sign[16] = {};
      for (float& s : scale) s = 1.0f;
      SetDeqScale(ub.Get<uint64_t>(2), VdeqInfo(scale, offset, sign));
      LocalTensor<uint8_t> dst = ub.Get<uint8_t>(1);
      LocalTensor<int16_t> src = ub.Get<int16_t>(0);
      const uint64_t mask[2] = {UINT64_MAX, UINT64_MAX};
      if (form == 0)
        CastDequant<uint8_t, int16_t, true, true, true>(dst, src, 128, 2, {1, 1, 8, 8});
      if (form == 1)
        CastDequant<uint8_t, int16_t, true, true, true>(dst, src, mask, 2, {1, 1, 8, 8});
      if (form == 2) CastDequant<uint8_t, int16_t, true, true>(dst, src, 256);
      out = ub.Take<uint8_t>(1);
    });
    for (int b = 0; b < 16; ++b) {
      for (int j = 0; j < 16; ++j) {
        EXPECT_EQ(out[b * 32 + j], 0) << form << " " << b << " " << j;
        EXPECT_EQ(out[b * 32 + 16 + j], in[b * 16 + j]) << form << " " << b << " " << j;
      }
    }
  }
}

// The A2/A3 implementation runs int32_t -> half as Cast(..., CAST_RINT, ...): the same bits.
TEST(CastDequant, Int32ToHalfIsCastWithRint) {
  std::vector<int32_t> in(200);
  for (int i = 0; i < 200; ++i) in[i] = (i - 100) * 40961 + (i % 7);
  std::vector<uint16_t> a, b;
  OnBlock([&](Ub& ub) {
    ub.Put<int32_t>(0, in);
    SetDeqScale(half(0.0999755859375f));
    CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 200);
    CastDequant<half, int32_t, true, false, false>(ub.Get<half>(3), ub.Get<int32_t>(0), 64, 2,
                                                   {1, 1, 4, 8});
    Cast(ub.Get<half>(2), ub.Get<int32_t>(0), RoundMode::CAST_RINT, 200);
    a = ub.Take<uint16_t>(1);
    b = ub.Take<uint16_t>(2);
    const std::vector<uint16_t> c = ub.Take<uint16_t>(3);
    EXPECT_TRUE(std::equal(c.begin(), c.begin() + 128, b.begin()));
  });
  EXPECT_EQ(a, b);
}

// In place (dst is the source's buffer): every input is read before a result is stored.
TEST(CastDequant, InPlaceReadsTheInputs) {
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9589"}) {
    std::vector<int16_t> in(512);
    for (int i = 0; i < 512; ++i) in[i] = static_cast<int16_t>(i % 200 - 100);
    std::vector<uint8_t> apart, inplace;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<int16_t>(0, in);
          ub.Put<int16_t>(1, in);
          SetDeqScale(0.75f, static_cast<int16_t>(3), true);
          CastDequant<int8_t, int16_t, false, true>(ub.Get<int8_t>(2), ub.Get<int16_t>(0), 512);
          CastDequant<int8_t, int16_t, false, true>(ub.Get<int8_t>(1), ub.Get<int16_t>(1), 512);
          apart = ub.Take<uint8_t>(2);
          inplace = ub.Take<uint8_t>(1);
        },
        soc);
    apart.resize(1024);
    inplace.resize(1024);
    for (int b = 0; b < 32; ++b) {
      for (int j = 16; j < 32; ++j) EXPECT_EQ(inplace[b * 32 + j], apart[b * 32 + j]) << soc;
    }
  }
}

using Body = std::function<void(Ub&)>;
std::string Check(const Body& body, const char* soc = "Ascend910B1") {
  CheckedModeScope checked(true);
  return CheckOf(body, soc).first;
}

void ScalarS8(Ub&) { SetDeqScale(1.0f, 0, true); }

TEST(CastDequant, CheckedModeProducts) {
  const Body s16 = [](Ub& ub) {
    ScalarS8(ub);
    CastDequant<int8_t, int16_t, false, true>(ub.Get<int8_t>(1), ub.Get<int16_t>(0), 128);
  };
  EXPECT_EQ(Check(s16, "Ascend310B1"), "unsupported_on_product");  // Atlas 200I/500 A2
  EXPECT_EQ(Check(s16, "Ascend910A"), "unsupported_on_product");   // Atlas training series
  EXPECT_EQ(Check(s16, "Ascend310P3"), "");
  EXPECT_EQ(Check(s16, "Ascend950PR_9589"), "");
  const Body s32 = [](Ub& ub) {
    SetDeqScale(half(1.0f));
    CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 64);
  };
  EXPECT_EQ(Check(s32, "Ascend310P3"), "unsupported_on_product");  // no s322fp16 there
  EXPECT_EQ(Check(s32, "Ascend910B1"), "");
}

TEST(CastDequant, CheckedModeNeedsTheMatchingSetDeqScale) {
  auto s8 = [](Ub& ub, bool vec) {
    if (vec) {
      CastDequant<int8_t, int16_t, true, true>(ub.Get<int8_t>(1), ub.Get<int16_t>(0), 128);
    } else {
      CastDequant<int8_t, int16_t, false, true>(ub.Get<int8_t>(1), ub.Get<int16_t>(0), 128);
    }
  };
  EXPECT_EQ(Check([&](Ub& ub) { s8(ub, false); }), "cast_dequant");  // no SetDeqScale
  EXPECT_EQ(Check([&](Ub& ub) {
              ScalarS8(ub);
              s8(ub, true);
            }),
            "cast_dequant");
  EXPECT_EQ(Check([&](Ub& ub) {
              SetDeqScale(ub.Get<uint64_t>(2), VdeqInfo{});
              s8(ub, false);
            }),
            "cast_dequant");
  EXPECT_EQ(Check([&](Ub& ub) {
              SetDeqScale(half(1.0f));
              s8(ub, false);
            }),
            "cast_dequant");
  EXPECT_EQ(Check([&](Ub& ub) {
              ScalarS8(ub);
              CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 64);
            }),
            "cast_dequant");
  EXPECT_EQ(Check([&](Ub& ub) {
              SetDeqScale(ub.Get<uint64_t>(2), VdeqInfo{});
              s8(ub, true);
            }),
            "");
  // Unchecked: the register as it is (0: scale 0, offset 0, unsigned), nothing refused.
  CheckedModeScope unchecked(false);
  std::vector<uint8_t> out;
  OnBlock([&](Ub& ub) {
    ub.Put<int16_t>(0, std::vector<int16_t>(128, 77));
    ub.Put<uint8_t>(1, {}, 9);
    CastDequant<uint8_t, int16_t, false, false>(ub.Get<uint8_t>(1), ub.Get<int16_t>(0), 16);
    out = ub.Take<uint8_t>(1);
  });
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[16], 9);
}

TEST(CastDequant, CheckedModeSignModeMatchesTheType) {
  EXPECT_EQ(Check([](Ub& ub) {
              SetDeqScale(1.0f, 0, true);
              CastDequant<uint8_t, int16_t, false, true>(ub.Get<uint8_t>(1), ub.Get<int16_t>(0),
                                                         16);
            }),
            "cast_dequant");
  EXPECT_EQ(Check([](Ub& ub) {
              SetDeqScale(1.0f, 0, false);
              CastDequant<int8_t, int16_t, true, false, false>(
                  ub.Get<int8_t>(1), ub.Get<int16_t>(0), 16, 1, {1, 1, 8, 8});
            }),
            "cast_dequant");
}

TEST(CastDequant, CheckedModeVdeqTensor) {
  EXPECT_EQ(Check([](Ub& ub) {
              LocalTensor<uint64_t> v = ub.Get<uint64_t>(2);
              v.SetSize(8);  // 64 B: the page asks for at least 128
              SetDeqScale(v, VdeqInfo{});
            }),
            "cast_dequant");
  EXPECT_EQ(Check([](Ub& ub) { SetDeqScale(ub.Get<uint64_t>(2)[1], VdeqInfo{}); }), "ub_alignment");
}

TEST(CastDequant, CheckedModeOperands) {
  // The destination is checked as half (count * 2 bytes), as the vendor's CPU checks view it.
  EXPECT_EQ(Check([](Ub& ub) {
              ScalarS8(ub);
              LocalTensor<int8_t> d = ub.Get<int8_t>(1);
              d.SetSize(256);
              CastDequant<int8_t, int16_t, false, true>(d, ub.Get<int16_t>(0), 256);
            }),
            "tensor_bounds");
  EXPECT_EQ(Check([](Ub& ub) {
              ScalarS8(ub);
              CastDequant<int8_t, int16_t, false, true>(ub.Get<int8_t>(1)[32], ub.Get<int16_t>(0),
                                                        16);
            }),
            "");
  EXPECT_EQ(Check([](Ub& ub) {
              ScalarS8(ub);
              CastDequant<int8_t, int16_t, false, true>(ub.Get<int8_t>(1)[16], ub.Get<int16_t>(0),
                                                        16);
            }),
            "ub_alignment");
  EXPECT_EQ(Check([](Ub& ub) {
              ScalarS8(ub);
              CastDequant<int8_t, int16_t, true, false, true>(ub.Get<int8_t>(1), ub.Get<int16_t>(0),
                                                              -1, 1, {1, 1, 8, 8});
            }),
            "vector_mask");
  EXPECT_EQ(Check([](Ub& ub) {
              ScalarS8(ub);
              CastDequant<int8_t, int16_t, true, false, true>(ub.Get<int8_t>(1), ub.Get<int16_t>(0),
                                                              128, 1, {0, 1, 8, 8});
            }),
            "vector_stride");
  EXPECT_EQ(Check([](Ub& ub) {
              ScalarS8(ub);
              CastDequant<int8_t, int16_t, false, true>(ub.Get<int8_t>(0)[64], ub.Get<int16_t>(0),
                                                        128);
            }),
            "address_overlap");
}

// x = 2^24 + 2^13 + 1 with the half scale 2^-14: exactly 1024.5 + 2^-14. The A2/A3 rounds that
// once (1025, 0x6401); the 950's file converts x to float first (a tie, to even: 2^24 + 2^13),
// multiplies by 2^-17, the scale and 2^17 (exact here: 1024.5) and rounds to half: a tie, to
// even, 1024 (0x6400). Cast int32_t -> half runs the same steps there.
TEST(CastDequant, Int32ToHalfRunsThe950sFloatSteps) {
  const std::vector<int32_t> in = {(1 << 24) + (1 << 13) + 1, -((1 << 24) + (1 << 13) + 1)};
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9589"}) {
    const bool is950 = std::string(soc) == "Ascend950PR_9589";
    std::vector<uint16_t> deq, cast;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<int32_t>(0, in);
          SetDeqScale(half::FromBits(0x0400));  // 2^-14
          CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 2);
          Cast(ub.Get<half>(2), ub.Get<int32_t>(0), RoundMode::CAST_RINT, 2);
          deq = ub.Take<uint16_t>(1);
          cast = ub.Take<uint16_t>(2);
        },
        soc);
    ASSERT_FALSE(deq.empty() || cast.empty()) << soc << ": the launch failed";
    EXPECT_EQ(deq[0], is950 ? 0x6400 : 0x6401) << soc;
    EXPECT_EQ(deq[1], is950 ? 0xe400 : 0xe401) << soc;
    EXPECT_EQ(cast[0], deq[0]) << soc;
    EXPECT_EQ(cast[1], deq[1]) << soc;
  }
}

// On the 950 SetDeqScale(half) writes g_deqValue only and the scalar form g_deqScale only: each
// conversion reads its own (checked mode accepts both calls). g_deqValue is 1 at the start and
// after InitSocState. The A2/A3 has one register: the later SetDeqScale replaces the earlier.
TEST(CastDequant, The950KeepsTheHalfScaleApart) {
  std::vector<uint16_t> h;
  std::vector<uint8_t> b;
  const auto body = [&](Ub& ub) {
    ub.Put<int32_t>(0, {3, -7});
    ub.Put<int16_t>(3, {3, -7});
    Cast(ub.Get<half>(2), ub.Get<int32_t>(0), RoundMode::CAST_RINT, 2);  // g_deqValue = 1
    SetDeqScale(half(2.0f));
    SetDeqScale(1.0f, 0, true);
    CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 2);
    CastDequant<int8_t, int16_t, false, true>(ub.Get<int8_t>(3)[64], ub.Get<int16_t>(3), 2);
    InitSocState();
    Cast(ub.Get<half>(1)[16], ub.Get<int32_t>(0), RoundMode::CAST_RINT, 2);
    h = ub.Take<uint16_t>(1);
    b = ub.Take<uint8_t>(3);
    const std::vector<uint16_t> plain = ub.Take<uint16_t>(2);
    EXPECT_EQ(plain[0], 0x4200);  // 3
    EXPECT_EQ(plain[1], 0xc700);  // -7
  };
  {
    CheckedModeScope checked(true);
    OnBlock(body, "Ascend950PR_9589");
  }
  ASSERT_FALSE(h.empty() || b.empty()) << "the launch failed";
  EXPECT_EQ(h[0], 0x4600);  // 6
  EXPECT_EQ(h[1], 0xcb00);  // -14
  EXPECT_EQ(h[16], 0x4200);
  EXPECT_EQ(h[17], 0xc700);
  EXPECT_EQ(b[64 + 16], 3);
  EXPECT_EQ(b[64 + 17], static_cast<uint8_t>(-7));
  // A2: the scalar word's bits 0..15 (1.0f: 0) are the half scale now.
  EXPECT_EQ(Check([](Ub& ub) {
              SetDeqScale(half(2.0f));
              ScalarS8(ub);
              CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 64);
            }),
            "cast_dequant");
  CheckedModeScope unchecked(false);
  h.clear();
  OnBlock(
      [&](Ub& ub) {
        ub.Put<int32_t>(0, {3, -7});
        SetDeqScale(half(2.0f));
        SetDeqScale(1.0f, 0, true);
        CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 2);
        h = ub.Take<uint16_t>(1);
      },
      "Ascend910B1");
  ASSERT_FALSE(h.empty()) << "the launch failed";
  EXPECT_EQ(h[0], 0x0000);
  EXPECT_EQ(h[1], 0x8000);
}

// The 950's check for int32_t -> half asks for SetDeqScale(half) in the block, whatever the
// scalar or vdeq form wrote since.
TEST(CastDequant, CheckedModeOn950AsksForSetDeqScaleHalf) {
  const auto s32 = [](Ub& ub) {
    CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 64);
  };
  EXPECT_EQ(Check(s32, "Ascend950PR_9589"), "cast_dequant");
  EXPECT_EQ(Check(
                [&](Ub& ub) {
                  ScalarS8(ub);
                  s32(ub);
                },
                "Ascend950PR_9589"),
            "cast_dequant");
  EXPECT_EQ(Check(
                [&](Ub& ub) {
                  SetDeqScale(half(1.0f));
                  SetDeqScale(ub.Get<uint64_t>(2), VdeqInfo{});
                  s32(ub);
                  CastDequant<int8_t, int16_t, true, true>(ub.Get<int8_t>(1), ub.Get<int16_t>(0),
                                                           128);
                },
                "Ascend950PR_9589"),
            "");
}

// The continuous-mask forms: the kit's CastDequant runs CheckMaskValue<the wider type> on the
// mask (CPU debug: an assertion), [0, 128] for int16_t -> b8 and [0, 64] for int32_t -> half in
// Normal mask mode; checked mode refuses a larger one (cast_dequant). Unchecked, the kit's
// SetMask(len) sets a full repeat for it, as lngrad runs it. (In Counter mode the kit checks
// [0, INT32_MAX] only, mask.h's vector_mask.)
TEST(CastDequant, CheckedModeRefusesAContinuousMaskAboveARepeat) {
  const auto s16 = [](int32_t mask) {
    return [mask](Ub& ub) {
      ScalarS8(ub);
      CastDequant<int8_t, int16_t, true, false, true>(ub.Get<int8_t>(1), ub.Get<int16_t>(0), mask,
                                                      1, {1, 1, 8, 8});
    };
  };
  const auto s32 = [](int32_t mask) {
    return [mask](Ub& ub) {
      SetDeqScale(half(1.0f));
      CastDequant<half, int32_t, true, false, true>(ub.Get<half>(1), ub.Get<int32_t>(0), mask, 1,
                                                    {1, 1, 4, 8});
    };
  };
  EXPECT_EQ(Check(s16(128)), "");
  EXPECT_EQ(Check(s16(129)), "cast_dequant");
  EXPECT_EQ(Check(s16(129), "Ascend950PR_9589"), "cast_dequant");
  EXPECT_EQ(Check(s32(64)), "");
  EXPECT_EQ(Check(s32(65)), "cast_dequant");
  EXPECT_EQ(Check(s32(128), "Ascend950PR_9589"), "cast_dequant");
  {
    CheckedModeScope checked(true);
    const auto [c, msg] = CheckOf(s16(200));
    EXPECT_NE(msg.find("the continuous mask is 200; in Normal mask mode it must be in [0, 128]"),
              std::string::npos)
        << msg;
  }
  // isSetMask = false: the mask argument is a placeholder, not checked.
  EXPECT_EQ(Check([](Ub& ub) {
              ScalarS8(ub);
              SetVectorMask<int16_t>(~uint64_t{0}, ~uint64_t{0});
              CastDequant<int8_t, int16_t, false, false, true>(
                  ub.Get<int8_t>(1), ub.Get<int16_t>(0), 300, 1, {1, 1, 8, 8});
            }),
            "");
  // Unchecked, a mask above 128 runs the full repeat (the kit's SetMask(len)).
  CheckedModeScope unchecked(false);
  std::vector<uint8_t> full, over;
  for (int32_t mask : {128, 200}) {
    OnBlock([&](Ub& ub) {
      std::vector<int16_t> in(128);
      for (int i = 0; i < 128; ++i) in[i] = static_cast<int16_t>(i - 64);
      ub.Put<int16_t>(0, in);
      s16(mask)(ub);
      (mask == 128 ? full : over) = ub.Take<uint8_t>(1);
    });
  }
  ASSERT_FALSE(full.empty() || over.empty()) << "the launch failed";
  EXPECT_EQ(full, over);
}

// The 950's g_deqValue is a [[block_local]] half with no initialiser in the kit: TPipe's
// constructor (InitSocState) sets it to 1, as do InitSocState and SetDeqScale(half). A kernel
// without a TPipe (LocalMemAllocator) that reads it first (Cast int32_t -> half) reads what the
// kit leaves undefined: checked mode names the read (cast_dequant); unchecked lngrad reads 1.
TEST(CastDequant, The950sHalfScaleUnsetBeforeAnyTPipe) {
  const auto run = [](bool checked, int setup, std::string* check, std::vector<uint16_t>* out) {
    CheckedModeScope mode(checked);
    lngrad::aicore::LaunchOptions o;
    o.soc = "Ascend950PR_9589";
    const lngrad::Status st = lngrad::aicore::Launch(
        1,
        [&] {
          LocalMemAllocator<Hardware::UB> a;
          LocalTensor<int32_t> x = a.Alloc<int32_t, 64>();
          LocalTensor<half> y = a.Alloc<half, 64>();
          for (int i = 0; i < 64; ++i) x.SetValue(i, i - 32);
          if (setup == 1) InitSocState();
          if (setup == 2) SetDeqScale(half(2.0f));
          try {
            Cast(y, x, RoundMode::CAST_RINT, 64);
          } catch (const lngrad::aicore::KernelCheckError& e) {
            lngrad::aicore::DismissKernelCheck(e);
            *check = e.check() + ": " + e.message();
            return;
          }
          for (int i = 0; i < 64; ++i) out->push_back(y.GetValue(i).bits);
        },
        o);
    EXPECT_TRUE(st.ok()) << st.ToString();
  };
  std::string check;
  std::vector<uint16_t> out;
  run(true, 0, &check, &out);
  EXPECT_EQ(check.rfind("cast_dequant: Cast int32_t->half on the 950 reads the half scale "
                        "g_deqValue, which nothing has set in this block",
                        0),
            0u)
      << check;
  for (int setup : {1, 2}) {
    check.clear();
    out.clear();
    run(true, setup, &check, &out);
    EXPECT_EQ(check, "") << "setup " << setup;
    ASSERT_EQ(out.size(), 64u);
    EXPECT_EQ(out[33], setup == 2 ? 0x4000 : 0x3c00) << "setup " << setup;  // 1 * scale
  }
  check.clear();
  out.clear();
  run(false, 0, &check, &out);
  EXPECT_EQ(check, "");
  ASSERT_EQ(out.size(), 64u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], half(static_cast<float>(i - 32)).bits) << i;
}

}  // namespace
