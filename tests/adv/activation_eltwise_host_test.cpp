// The element-wise activation APIs' host scratch sizes (tiling/activation/eltwise_tiling.h),
// pinned value by value against the toolkit's formulas, and their checked-mode rules (the tmp
// minimum per arch, overlap, alignment, counts).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "math_api_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

bool TilingOk() { return lngrad::tiling::LastTilingStatus().ok(); }

TEST(ActivationTiling, GeluSizes) {
  const ge::Shape s({10, 100});  // n = 1000
  EXPECT_EQ(GetGeluMinTmpSize(s, 2), 768u);
  EXPECT_EQ(GetGeluMinTmpSize(s, 4), 768u);
  EXPECT_EQ(GetGeluMaxTmpSize(s, 2), 12000u);  // 3 * n * sizeof(float) for half too
  EXPECT_EQ(GetGeluMaxTmpSize(s, 4), 12000u);
  EXPECT_EQ(GetGeluMaxTmpSize(ge::Shape({7}), 4), 768u);  // never below the minimum
  uint32_t mx = 1, mn = 1;
  GetGeluMaxMinTmpSize(ge::Shape({1024}), 4, mx, mn);
  EXPECT_EQ(mx, 12288u);
  EXPECT_EQ(mn, 768u);
  EXPECT_TRUE(TilingOk());
  mx = mn = 5;
  GetGeluMaxMinTmpSize(s, 8, mx, mn);
  EXPECT_FALSE(TilingOk());
  EXPECT_EQ(mx + mn, 10u);  // untouched
  EXPECT_EQ(GetGeluMinTmpSize(ge::Shape({0}), 4), 0u);
  EXPECT_FALSE(TilingOk());
}

TEST(ActivationTiling, GluSigmoidSwishSizes) {
  const ge::Shape s({1000});
  uint32_t mx = 1, mn = 1, k = 1, extra = 1;
  GetGeGLUMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetGeGLUMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 8000u);  // 4 * 2000
  EXPECT_EQ(mn, 1024u);
  GetGeGLUMaxMinTmpSize(ge::Shape({100}), 2, false, mx, mn);
  EXPECT_EQ(mx, 1024u);  // 4 * max(200, 256)
  GetGeGLUTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 4u);
  EXPECT_EQ(extra, 0u);
  GetGeGLUTmpBufferFactorSize(4, k, extra);
  EXPECT_EQ(k, 0u);
  GetSwiGLUMaxMinTmpSize(s, 2, mx, mn, false);
  EXPECT_EQ(mx, 12000u);  // 6 * 2000
  EXPECT_EQ(mn, 1536u);
  GetSwiGLUMaxMinTmpSize(s, 4, mx, mn, false);
  EXPECT_EQ(mx + mn, 0u);
  GetSwiGLUTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 6u);
  GetSigmoidMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx, 4000u);
  EXPECT_EQ(mn, 256u);
  GetSigmoidMaxMinTmpSize(ge::Shape({64}), 2, false, mx, mn);
  EXPECT_EQ(mx, 256u);
  GetReGluMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx, 256u);
  EXPECT_EQ(mn, 256u);
  GetReGluMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 12000u);  // 6 * n * 2
  EXPECT_EQ(mn, 1536u);
  GetReGluMaxMinTmpSize(ge::Shape({16}), 2, false, mx, mn);
  EXPECT_EQ(mx, 1536u);
  EXPECT_TRUE(TilingOk());
  GetReGluMaxMinTmpSize(s, 2, true, mx, mn);
  EXPECT_FALSE(TilingOk());
  GetSwiGLUTmpBufferFactorSize(3, k, extra);
  EXPECT_FALSE(TilingOk());
  mx = mn = 9;
  GetSiluTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  mx = mn = 9;
  GetSwishTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  EXPECT_TRUE(TilingOk());
}

// A tmp of `bytes` bytes from buffer 2.
LocalTensor<uint8_t> Tmp(Ub& ub, uint32_t bytes) {
  LocalTensor<uint8_t> t = ub.Get<uint8_t>(2);
  t.SetSize(bytes);
  return t;
}

TEST(ActivationChecks, TmpMinimumOn2201NoneOn3510) {
  ExpectCheck([](Ub& ub) { Gelu(ub.Get<float>(1), ub.Get<float>(0), Tmp(ub, 512), 64); },
              "tmp_buffer", "sharedTmpBuffer holds 512 bytes, less than the 768");
  ExpectCheck([](Ub& ub) { Gelu(ub.Get<float>(1), ub.Get<float>(0), Tmp(ub, 0), 64); }, "", "",
              k950);
  ExpectCheck(
      [](Ub& ub) { Sigmoid<half, false>(ub.Get<half>(1), ub.Get<half>(0), Tmp(ub, 224), 64); },
      "tmp_buffer", "less than the 256");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<half> d = ub.Get<half>(1);
        SwiGLU<half, false>(d, ub.Get<half>(0), ub.Get<half>(3), 1.0f, Tmp(ub, 1024), 64);
      },
      "tmp_buffer", "less than the 1536");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<float> d = ub.Get<float>(1);
        SwiGLU<float, false>(d, ub.Get<float>(0), ub.Get<float>(3), 1.0f, Tmp(ub, 0), 64);
      },
      "", "");
  ExpectCheck(
      [](Ub& ub) {
        GeGLU<half, false>(ub.Get<half>(1), ub.Get<half>(0), ub.Get<half>(3), Tmp(ub, 992), 64);
      },
      "tmp_buffer", "less than the 1024");
  ExpectCheck(
      [](Ub& ub) {
        ReGlu<bfloat16_t, false>(ub.Get<bfloat16_t>(1), ub.Get<bfloat16_t>(0),
                                 ub.Get<bfloat16_t>(3), Tmp(ub, 1024), 64);
      },
      "tmp_buffer", "less than the 1536");
  ExpectCheck(
      [](Ub& ub) {
        ReGlu<half, false>(ub.Get<half>(1), ub.Get<half>(0), ub.Get<half>(3), Tmp(ub, 0), 64);
      },
      "", "", k950);
  ExpectCheck(
      [](Ub& ub) {
        ReGlu<bfloat16_t, false>(ub.Get<bfloat16_t>(1), ub.Get<bfloat16_t>(0),
                                 ub.Get<bfloat16_t>(3), ub.Get<uint8_t>(2), 64);
      },
      "product", "ReGlu: bfloat16_t is not supported on arch 2002", k310P);
}

TEST(ActivationChecks, OverlapAlignmentAndCount) {
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> a = ub.Get<float>(0);
        Sigmoid<float, false>(a, a, ub.Get<uint8_t>(2), 64);
      },
      "address_overlap", "dst and src");
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> a = ub.Get<float>(0);
        Gelu(a[8], a, ub.Get<uint8_t>(2), 64);
      },
      "address_overlap", "dst and src");
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> a = ub.Get<float>(0);
        Silu<float, false>(a, a, 64);
      },
      "address_overlap", "dst and src");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<float> d = ub.Get<float>(1);
        SwiGLU<float, false>(d, d, ub.Get<float>(3), 1.0f, 64);
      },
      "address_overlap", "dst and src0");
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> s = ub.Get<float>(0);
        FasterGelu(ub.Get<float>(1), s, s.ReinterpretCast<uint8_t>()[128], 64);
      },
      "address_overlap", "sharedTmpBuffer and src");
  ExpectCheck(
      [](Ub& ub) {
        GeGLU<float, false>(ub.Get<float>(1)[4], ub.Get<float>(0), ub.Get<float>(3), 16);
      },
      "ub_alignment", "dst");
  ExpectCheck([](Ub& ub) { Swish(ub.Get<float>(1)[8], ub.Get<float>(0), 10240, 1.0f); },
              "tensor_bounds", "Swish dst");
}

// GeGLU and SwiGLU take two sources of one size (the kit asserts it on 2201 and 3510); ReGlu
// does not ask it.
LocalTensor<float> Shortened(Ub& ub, int i, uint32_t elements) {
  LocalTensor<float> t = ub.Get<float>(i);
  t.SetSize(elements);
  return t;
}

TEST(ActivationChecks, GatedSourcesOfOneSize) {
  const std::string sizes = "srcTensor0 holds 10240 elements and srcTensor1 128";
  for (const char* soc : {k910B, k950}) {
    ExpectCheck(
        [](Ub& ub) {
          GeGLU<float, false>(ub.Get<float>(1), ub.Get<float>(0), Shortened(ub, 3, 128), 64);
        },
        "tensor_bounds", sizes, soc);
    ExpectCheck(
        [](Ub& ub) {
          LocalTensor<float> d = ub.Get<float>(1);
          SwiGLU<float, false>(d, ub.Get<float>(0), Shortened(ub, 3, 128), 1.0f, 64);
        },
        "tensor_bounds", sizes, soc);
    ExpectCheck(
        [](Ub& ub) {
          ReGlu<float, false>(ub.Get<float>(1), ub.Get<float>(0), Shortened(ub, 3, 128), 64);
        },
        "", "", soc);
  }
}

// With every UB byte given to the TPipe, the overloads without sharedTmpBuffer still run on
// 3510 (its sequences pop no stack buffer); on 2201 they need the stack buffer.
void FillUbThen(Ub& ub, const std::function<void(Ub&)>& body) {
  LocalTensor<uint8_t> rest;
  ASSERT_TRUE((PopStackBuffer<uint8_t, TPosition::VECCALC>(rest)));
  TBuf<> all;
  ub.pipe.InitBuffer(all, rest.GetSize());
  body(ub);
}

void FrameworkOverloads(Ub& ub) {
  LocalTensor<float> d = ub.Get<float>(1);
  Gelu(d, ub.Get<float>(0), 64);
  Sigmoid<float, false>(d, ub.Get<float>(0), 64);
  GeGLU<float, false>(d, ub.Get<float>(0), ub.Get<float>(3), 64);
  ReGlu<float, false>(d, ub.Get<float>(0), ub.Get<float>(3), 64);
  SwiGLU<float, false>(d, ub.Get<float>(0), ub.Get<float>(3), 1.0f, 64);
}

TEST(ActivationChecks, FrameworkScratchOnlyWhereTheSequenceTakesIt) {
  ExpectCheck([](Ub& ub) { FillUbThen(ub, FrameworkOverloads); }, "", "", k950);
  ExpectCheck([](Ub& ub) { FillUbThen(ub, FrameworkOverloads); }, "stack_buffer", "no UB is left");
}

}  // namespace
