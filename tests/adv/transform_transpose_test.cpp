// ConfusionTranspose / Transpose and ListTensorDesc on the simulated device, against
// oracles written here from the documented element moves (bit for bit, bound 0), on Ascend910B1
// and Ascend950PR; and their checked-mode refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
#include "math_api_test_util.h"
#include "transform_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

const auto& kSocs = kTransformSocs;

// ----------------------------------------------------------------------------------------------
// The 0213 types: src per (b, a1) an NZ matrix [alignA2 rows, alignA3 columns].

template <typename T>
void Check0213(const char* soc, TransposeType type, uint32_t b, uint32_t a1, uint32_t a2,
               uint32_t a3, bool with_tmp) {
  SCOPED_TRACE(::testing::Message() << soc << " type " << static_cast<int>(type) << " " << b << "x"
                                    << a1 << "x" << a2 << "x" << a3);
  const uint32_t al2 = (a2 + 15) / 16 * 16, al3 = (a3 + 15) / 16 * 16;
  const size_t n = size_t{b} * a1 * al2 * al3;
  const std::vector<T> src = Iota<T>(n);
  std::vector<T> want(n);
  for (uint32_t k = 0; k < b; ++k) {
    for (uint32_t i = 0; i < a1; ++i) {
      for (uint32_t r = 0; r < al2; ++r) {
        for (uint32_t col = 0; col < al3; ++col) {
          const uint32_t j = col / 16, c = col % 16;
          const size_t from = size_t{k} * a1 * al2 * al3 + size_t{i} * al2 * al3 +
                              size_t{j} * al2 * 16 + r * 16 + c;
          const size_t row = size_t{k} * a1 * al2 * al3 + size_t{r} * a1 * al3;
          const size_t to = type == TransposeType::TRANSPOSE_NZ2ND_0213
                                ? row + i * al3 + col
                                : row + (size_t{j} * a1 + i) * 16 + c;
          want[to] = src[from];
        }
      }
    }
  }
  uint32_t mx = 0, mn = 0;
  const ge::Shape shape({b, a1, a2, a3});
  GetTransposeMaxMinTmpSize(shape, sizeof(T), static_cast<uint32_t>(type), mx, mn);
  tiling::ConfusionTransposeTiling t;
  GetTransposeTilingInfo(shape, mn, sizeof(T), static_cast<uint32_t>(type), t);
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        if (with_tmp) {
          ConfusionTranspose(ub.Get<T>(1), ub.Get<T>(0), ub.Get<uint8_t>(2), type, t);
        } else {
          Transpose(ub.Get<T>(1), ub.Get<T>(0), type, t);
        }
        ExpectSame(Prefix(ub.Take<T>(1), n), want, "0213");
      },
      soc);
}

TEST(TransformTranspose, Nz0213ToNdAndNz) {
  for (const char* soc : kSocs) {
    for (TransposeType type :
         {TransposeType::TRANSPOSE_NZ2ND_0213, TransposeType::TRANSPOSE_NZ2NZ_0213}) {
      Check0213<half>(soc, type, 2, 3, 20, 24, true);
      Check0213<float>(soc, type, 1, 2, 33, 16, false);
      Check0213<int16_t>(soc, type, 1, 1, 16, 40, true);
    }
  }
}

template <typename T>
void CheckNd(const char* soc, TransposeType type, std::vector<uint32_t> dims) {
  SCOPED_TRACE(::testing::Message() << soc << " type " << static_cast<int>(type));
  const bool two = dims.size() == 2;
  const uint32_t d0 = two ? 1 : dims[0], d1 = dims[two ? 0 : 1], d2 = dims[two ? 1 : 2];
  const size_t n = size_t{d0} * d1 * d2;
  const std::vector<T> src = Iota<T>(n);
  std::vector<T> want(n);
  for (uint32_t i = 0; i < d0; ++i) {
    for (uint32_t j = 0; j < d1; ++j) {
      for (uint32_t k = 0; k < d2; ++k) {
        size_t to = 0;
        if (type == TransposeType::TRANSPOSE_ND2ND_102) {
          to = (size_t{j} * d0 + i) * d2 + k;
        } else if (type == TransposeType::TRANSPOSE_ND2ND_210) {
          to = (size_t{k} * d1 + j) * d0 + i;
        } else {
          to = (size_t{i} * d2 + k) * d1 + j;  // 021 and ND2ND_ONLY
        }
        want[to] = src[(size_t{i} * d1 + j) * d2 + k];
      }
    }
  }
  std::vector<int64_t> shape(dims.begin(), dims.end());
  tiling::ConfusionTransposeTiling t;
  GetTransposeTilingInfo(ge::Shape(shape), 0, sizeof(T), static_cast<uint32_t>(type), t);
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        Transpose(ub.Get<T>(1), ub.Get<T>(0), ub.Get<uint8_t>(2), type, t);
        ExpectSame(Prefix(ub.Take<T>(1), n), want, "ND transpose");
      },
      soc);
}

TEST(TransformTranspose, NdTypes) {
  for (const char* soc : kSocs) {
    CheckNd<half>(soc, TransposeType::TRANSPOSE_ND2ND_ONLY, {32, 48});
    CheckNd<float>(soc, TransposeType::TRANSPOSE_ND2ND_ONLY, {16, 24});
  }
  CheckNd<float>(k950, TransposeType::TRANSPOSE_ND2ND_021, {3, 7, 13});
  CheckNd<half>(k950, TransposeType::TRANSPOSE_ND2ND_021, {5, 9});
  CheckNd<int32_t>(k950, TransposeType::TRANSPOSE_ND2ND_102, {4, 6, 11});
  CheckNd<half>(k950, TransposeType::TRANSPOSE_ND2ND_210, {3, 5, 17});
}

TEST(TransformTranspose, CheckedModeRefusals) {
  tiling::ConfusionTransposeTiling t;
  GetTransposeTilingInfo(ge::Shape({2, 3, 4}), 0, 4, 13, t);
  ExpectCheck(
      [&](Ub& ub) {
        Transpose(ub.Get<float>(1), ub.Get<float>(0), TransposeType::TRANSPOSE_ND2ND_021, t);
      },
      "transform_params", "arch 3510 only");
  tiling::ConfusionTransposeTiling t3;
  GetTransposeTilingInfo(ge::Shape({1, 2, 16, 16}), 1024, 2, 3, t3);
  ExpectCheck(
      [&](Ub& ub) {
        Transpose(ub.Get<half>(1), ub.Get<half>(0), TransposeType::TRANSPOSE_ND2NZ_WITH_INTLV, t3);
      },
      "transform_params", "takes int8_t or uint8_t (the page's T for scene 16)");
  tiling::ConfusionTransposeTiling t0;
  GetTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 1024, 2, 1, t0);
  ExpectCheck(
      [&](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(256);
        Transpose(ub.Get<half>(1), ub.Get<half>(0), tmp, TransposeType::TRANSPOSE_NZ2ND_0213, t0);
      },
      "transform_params", "newPopSize");
}

// The 0213 passes' TransDataTo5HD repeatTimes is a uint8_t in the kit: a tiling whose main
// passes (newPopSize / 256, mainBlocks > 0) or tail (tailSize / 256) take more than 255 repeats
// is refused in checked mode (no tiling of operands that fit the UB gets there: A2 of 4096 rows
// or more). 255 repeats (A2 = 4080, the scratch the whole column block) pass that check.
TEST(TransformTranspose, CheckedMode0213RefusesARepeatCountPast255) {
  const auto nd = static_cast<uint32_t>(TransposeType::TRANSPOSE_NZ2ND_0213);
  tiling::ConfusionTransposeTiling main_wraps, tail_wraps, at_255;
  GetTransposeTilingInfo(ge::Shape({1, 1, 4096, 16}), 4096 * 16 * 2, 2, nd, main_wraps);
  ASSERT_EQ(main_wraps.param9, 1u);  // one main block of 256 repeats
  GetTransposeTilingInfo(ge::Shape({1, 1, 4112, 16}), 8192 * 16 * 2, 2, nd, tail_wraps);
  ASSERT_EQ(tail_wraps.param9, 0u);  // the tail alone: 257 repeats
  ASSERT_EQ(tail_wraps.param10, 4112u * 16);
  GetTransposeTilingInfo(ge::Shape({1, 1, 4080, 16}), 4080 * 16 * 2, 2, nd, at_255);
  for (tiling::ConfusionTransposeTiling* t : {&main_wraps, &tail_wraps}) {
    ExpectCheck(
        [&](Ub& ub) {
          Transpose(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(2),
                    TransposeType::TRANSPOSE_NZ2ND_0213, *t);
        },
        "transform_params", "uint8_t repeatTimes");
  }
  // 255 repeats: the next check (the scratch smaller than newPopSize) is the one that refuses.
  ExpectCheck(
      [&](Ub& ub) {
        Transpose(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(2),
                  TransposeType::TRANSPOSE_NZ2ND_0213, at_255);
      },
      "transform_params", "newPopSize");
}

// The Transpose page's T per scene and its products: checked mode refuses the rest, naming the
// rule (bfloat16_t and 1-byte T in scenes 1 to 7, a 2-byte T in scene 16, arch 1001 / 3002);
// the listed ones run (scenes 13 to 15 with bfloat16_t and int8_t against the index oracle).
TEST(TransformTranspose, CheckedModeRefusesWhatThePageDoesNotList) {
  tiling::ConfusionTransposeTiling t0;
  GetTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 1024, 2, 1, t0);
  const std::string scenes_1_7 =
      "takes int16_t, uint16_t, half, int32_t, uint32_t or float (the page's T for scenes 1 to 7)";
  for (const char* soc : {k910B, k950, k310P}) {
    ExpectCheck(
        [&](Ub& ub) {
          Transpose(ub.Get<bfloat16_t>(1), ub.Get<bfloat16_t>(0), ub.Get<uint8_t>(2),
                    TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N, t0);
        },
        "transform_params", "TransposeType 3 " + scenes_1_7, soc);
    ExpectCheck(
        [&](Ub& ub) {
          ConfusionTranspose(ub.Get<bfloat16_t>(1), ub.Get<bfloat16_t>(0),
                             TransposeType::TRANSPOSE_NZ2ND_0213, t0);
        },
        "transform_params", "TransposeType 1 " + scenes_1_7, soc);
    ExpectCheck(
        [&](Ub& ub) {
          Transpose(ub.Get<int8_t>(1), ub.Get<int8_t>(0), ub.Get<uint8_t>(2),
                    TransposeType::TRANSPOSE_ND2ND_ONLY, t0);
        },
        "transform_params", "TransposeType 7 " + scenes_1_7, soc);
  }
  for (const char* soc : {"Ascend910A", "Ascend310B1"}) {
    ExpectCheck(
        [&](Ub& ub) {
          Transpose(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(2),
                    TransposeType::TRANSPOSE_NZ2ND_0213, t0);
        },
        "transform_params", "exists on Ascend 950, Atlas A2/A3 and Atlas inference AI Core", soc);
  }
  CheckNd<bfloat16_t>(k950, TransposeType::TRANSPOSE_ND2ND_021, {3, 5, 7});
  CheckNd<int8_t>(k950, TransposeType::TRANSPOSE_ND2ND_102, {4, 6, 5});
  CheckNd<uint8_t>(k950, TransposeType::TRANSPOSE_ND2ND_210, {3, 4, 9});
}

// ----------------------------------------------------------------------------------------------
// ListTensorDesc: the GM list of the kit's layout, two tensors of dim 3.

TEST(TransformListTensor, DecodesPointersAndShapes) {
  std::vector<float> a(6), b(6);
  std::vector<uint64_t> list = {8 * (1 + 2 * 4),  // the data pointers' byte offset
                                3 | (uint64_t{2} << 32),
                                2,
                                3,
                                4,  // dim 3, count 2
                                3 | (uint64_t{1} << 32),
                                5,
                                6,
                                7,  // the last description's index
                                reinterpret_cast<uint64_t>(a.data()),
                                reinterpret_cast<uint64_t>(b.data())};
  OnBlock([&](Ub&) {
    ListTensorDesc l(list.data(), static_cast<uint32_t>(list.size() * 8), 2);
    EXPECT_EQ(l.GetSize(), 2u);
    EXPECT_EQ(l.GetDataPtr<float>(1), b.data());
    uint64_t shape[3] = {};
    TensorDesc<float> desc;
    desc.SetShapeAddr(shape);
    l.GetDesc(desc, 1);
    EXPECT_EQ(desc.GetDim(), 3u);
    EXPECT_EQ(desc.GetIndex(), 1u);
    EXPECT_EQ(desc.GetShape(2), 7u);
    EXPECT_EQ(desc.GetDataPtr(), b.data());
    list[5] = 3;  // count 0 in the first description: the last one's index + 1
    ListTensorDesc l2;
    l2.Init(list.data());
    EXPECT_EQ(l2.GetSize(), 2u);
  });
  ExpectCheck(
      [&](Ub&) {
        ListTensorDesc l(list.data());
        (void)l.GetDataPtr<float>(2);
      },
      "list_tensor", "not below the tensor count");
}

// ----------------------------------------------------------------------------------------------
// Host tiling pinned to the toolkit's formulas (pad_tiling_impl.cpp,
// confusion_transpose_tiling_impl.cpp, broadcast_tiling.cpp), field by field.

TEST(TransformTiling, PadAndUnPad) {
  uint32_t mx = 0, mn = 0;
  GetPadMaxMinTmpSize(ge::Shape({16, 31}), 4, mx, mn);  // the pad sample's call
  EXPECT_EQ(mx, 31744u);                                // ceil16(496) * 8 * 2 * 4
  EXPECT_EQ(mn, 1024u);                                 // 16 * 8 * 2 * 4
  tiling::PadTiling t;
  PadTilingFunc(ge::Shape({300, 45}), ge::Shape({300, 40}), 3000, 2, t);
  const uint32_t want[] = {300, 45, 40, 29, 2,  255, 1,  45,  11475, 11504, 2, 32, 512,
                           32,  1,  13, 16, 32, 421, 28, 254, 0,     4,     0, 3,  0};
  const uint32_t* got = &t.srcHeight;
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); ++i) EXPECT_EQ(got[i], want[i]) << i;
  const auto& a2 = *platform_ascendc::PlatformAscendCManager::GetInstance(k910B);
  mx = mn = 9;
  GetUnPadMaxMinTmpSize(a2, ge::Shape({8, 8}), 4, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  tiling::UnPadTiling u;
  UnPadTilingFunc(ge::Shape({8, 40}), 2048, 4, u);
  const uint32_t uwant[] = {8, 40, 2, 32, 256, 32, 2, 8};
  const uint32_t* ugot = &u.srcHeight;
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(ugot[i], uwant[i]) << i;
  optiling::PadTiling o;
  PadTilingFunc(ge::Shape({16, 31}), ge::Shape({16, 31}), 31744, 4, o);
  EXPECT_EQ(o.get_tmpBuffer1BlockNum(), 31u);
  EXPECT_EQ(o.get_widthFractalTailAlingned(), 32u);
  GetPadMaxMinTmpSize(ge::Shape({16, 31, 2}), 4, mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

TEST(TransformTiling, Transpose) {
  uint32_t mx = 0, mn = 0;
  const ge::Shape s({1, 2, 64, 32});  // the transpose sample's call
  GetTransposeMaxMinTmpSize(s, 2, 1, mx, mn);
  EXPECT_EQ(mx, 2048u);  // 64 * 16 * 2
  EXPECT_EQ(mn, 512u);
  tiling::ConfusionTransposeTiling t;
  GetTransposeTilingInfo(s, mn, 2, 1, t);
  const uint32_t want[] = {16, 1, 2, 32, 64, 2, 256, 16, 1024, 4, 0, 2048, 4096, 64, 32, 4096};
  const uint32_t* got = &t.param0;
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(got[i], want[i]) << i;
  GetTransposeTilingInfo(ge::Shape({2, 4, 40, 24}), 0, 4, 4, t);  // NZ2ND_012_WITH_N
  const uint32_t w4[] = {8, 2, 4, 24, 96, 6, 3, 2, 32, 8, 768, 8, 1536, 512, 256, 6144, 4608, 2};
  for (size_t i = 0; i < 18; ++i) EXPECT_EQ(got[i], w4[i]) << i;
  GetTransposeTilingInfo(ge::Shape({48, 24}), 0, 2, 7, t);  // ND2ND_ONLY
  const uint32_t w7[] = {16, 48, 24, 3, 48, 1};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(got[i], w7[i]) << i;
  GetTransposeMaxMinTmpSize(s, 4, 5, mx, mn);
  EXPECT_EQ(mx, 2048u);
  EXPECT_EQ(mn, 2048u);
}

TEST(TransformTiling, Broadcast) {
  const auto& a2 = *platform_ascendc::PlatformAscendCManager::GetInstance(k910B);
  uint32_t mx = 0, mn = 0;
  GetBroadCastMaxMinTmpSize(a2, ge::Shape({1, 48}), ge::Shape({96, 48}), 4, false, mx, mn);
  EXPECT_EQ(mx, 32u);
  EXPECT_EQ(mn, 32u);
  GetBroadCastMaxMinTmpSize(a2, ge::Shape({20, 1}), ge::Shape({20, 255}), 2, false, mx, mn);
  EXPECT_EQ(mn, 512u + 16u * 256u * 2u);  // E*E*2 + E*D1'*2
  EXPECT_EQ(mx, 24u * 16u * 2u + 20u * 256u * 2u);
  GetBroadCastMaxMinTmpSize(a2, ge::Shape({20, 1}), ge::Shape({20, 256}), 1, false, mx, mn);
  EXPECT_EQ(mn, 512u + (32u + 5120u) * 2u);  // int8 counted as int16 plus the cast buffer
}

}  // namespace
