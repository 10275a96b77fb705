// The multi-dimensional copies (DataCopy with SliceInfo, the 950's NDDMA), GlobalTensor::
// SetL2CacheHint and custom TBufPools (EXTERN_IMPL_BUFPOOL), each against a scalar model of
// the vendor's documentation written here, element by element.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "checked_mode_scope.h"
#include "gm_buffer.h"
#include "kernel_operator.h"
#include "run_kernel.h"
#include "sanitizer_off.h"

namespace {

using namespace AscendC;
using lngrad::aicore::BlockFailure;
using lngrad::aicore::LaunchOptions;
using namespace lngrad::aicore::test;
namespace san = lngrad::aicore::san;

constexpr const char* k910B = "Ascend910B1";      // 2201
constexpr const char* k950 = "Ascend950PR_9599";  // 3510
constexpr const char* k310B = "Ascend310B1";      // 3002
constexpr const char* k310P = "Ascend310P1";      // 2002
constexpr const char* k910A = "Ascend910A";       // 1001

// The one failure of a one-block launch ("" when it passed).
BlockFailure Failure(const char* soc, const std::function<void()>& kernel) {
  const std::vector<BlockFailure> f = RunKernel(1, kernel, On(soc));
  return f.empty() ? BlockFailure{} : f[0];
}

void ExpectFailure(const BlockFailure& f, const std::string& check, const std::string& text) {
  EXPECT_EQ(f.check, check) << f.message;
  EXPECT_NE(f.message.find(text), std::string::npos) << f.message;
}

// The failures of a one-block launch with every sanitizer tool on (its report silenced).
std::vector<BlockFailure> Sanitized(const char* soc, const std::function<void()>& kernel) {
  LaunchOptions o = On(soc);
  o.sanitize = san::kAllTools;
  std::vector<BlockFailure> failures;
  testing::internal::CaptureStderr();
  (void)lngrad::aicore::detail::RunBlocks("k", 1, kernel, o, &failures);
  testing::internal::GetCapturedStderr();
  return failures;
}

// One block on soc: copy_in(t, xg) copies from x's first srcLen elements into t (dstLen elements
// at UB address 0, each -1 before the copy); returns t's elements afterwards.
template <typename T>
std::vector<T> CopyIntoUb(
    GmBuffer& x, uint64_t srcLen, uint64_t dstLen, const char* soc,
    const std::function<void(const LocalTensor<T>&, const GlobalTensor<T>&)>& copy_in) {
  std::vector<T> got(dstLen);
  EXPECT_TRUE(RunKernel(
                  1,
                  [&] {
                    GlobalTensor<T> xg;
                    xg.SetGlobalBuffer(x.as<T>(), srcLen);
                    LocalTensor<T> t(TPosition::VECIN, 0, static_cast<uint32_t>(dstLen));
                    for (uint64_t i = 0; i < dstLen; ++i) t.HostPtr()[i] = static_cast<T>(-1.0f);
                    copy_in(t, xg);
                    std::memcpy(got.data(), t.HostPtr(), dstLen * sizeof(T));
                  },
                  On(soc))
                  .empty());
  return got;
}

// A copy into UB and back under the sanitizer on soc: copy_in(t, xg) fills t (ub_floats at UB
// address 0) from x's 64 floats, then the first `out` floats of t go to y. Nothing is reported
// (gap nullptr) or one initcheck finding naming `gap`.
void ExpectCopyThroughUb(
    GmBuffer& x, GmBuffer& y, const char* soc, uint32_t ub_floats,
    const std::function<void(const LocalTensor<float>&, const GlobalTensor<float>&)>& copy_in,
    uint32_t out, const char* gap) {
  const std::vector<BlockFailure> failures = Sanitized(soc, [&] {
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(x.as<float>(), 64);
    yg.SetGlobalBuffer(y.as<float>(), 64);
    LocalTensor<float> t(TPosition::VECIN, 0, ub_floats);
    copy_in(t, xg);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yg, t, out);
  });
  if (gap == nullptr) {
    EXPECT_TRUE(failures.empty()) << failures[0].message;
  } else {
    ASSERT_EQ(failures.size(), 1u);
    ExpectFailure(failures[0], "initcheck", gap);
  }
}

// ---- DataCopy with SliceInfo -------------------------------------------------------------------

// The elements a SliceInfo list selects, in the order the documentation's example walks them
// (dimension 0 fastest): dimension 0 as N bursts of burstLen * 32 / elem elements, stride
// elements apart; dimension i >= 1 as every (stride + 1)-th index from startIndex to endIndex.
std::vector<uint64_t> SliceElements(const std::vector<SliceInfo>& s, uint32_t elem) {
  std::vector<uint64_t> out{0};
  uint64_t slab = 1;
  for (size_t i = 0; i < s.size(); ++i) {
    std::vector<uint64_t> idx;
    if (i == 0) {
      const uint64_t burst = uint64_t{s[0].burstLen} * 32 / elem;
      for (uint64_t b = s[0].startIndex; b + burst <= uint64_t{s[0].endIndex} + 1;
           b += burst + s[0].stride) {
        for (uint64_t e = 0; e < burst; ++e) idx.push_back(b + e);
      }
    } else {
      for (uint64_t k = s[i].startIndex; k <= s[i].endIndex; k += s[i].stride + 1) idx.push_back(k);
    }
    // Dimension 0 fastest: the lower dimensions' elements vary inside each index of this one.
    std::vector<uint64_t> next;
    for (uint64_t k : idx) {
      for (uint64_t lower : out) next.push_back(lower + k * slab);
    }
    out = next;
    slab *= s[i].shapeValue;
  }
  return out;
}

template <typename T>
T Value(uint64_t i) {
  return static_cast<T>(static_cast<float>(i % 1000) + 1.0f);
}

// GM -> UB then UB -> GM of one slice pair; returns what the model expects and what arrived.
template <typename T>
void CheckSliceRoundTrip(const std::vector<SliceInfo>& gmIn, const std::vector<SliceInfo>& ub,
                         const std::vector<SliceInfo>& gmOut, const char* soc) {
  uint64_t gmInLen = 1, ubLen = 1, gmOutLen = 1;
  for (size_t i = 0; i < gmIn.size(); ++i) {
    gmInLen *= gmIn[i].shapeValue;
    ubLen *= ub[i].shapeValue;
    gmOutLen *= gmOut[i].shapeValue;
  }
  GmBuffer x(gmInLen * sizeof(T)), y(gmOutLen * sizeof(T));
  for (uint64_t i = 0; i < gmInLen; ++i) x.as<T>()[i] = Value<T>(i);
  std::vector<T> ubAfter(ubLen);
  const T sentinel = static_cast<T>(-7.0f);
  for (uint64_t i = 0; i < gmOutLen; ++i) y.as<T>()[i] = sentinel;
  EXPECT_TRUE(RunKernel(
                  1,
                  [&] {
                    GlobalTensor<T> xg, yg;
                    xg.SetGlobalBuffer(x.as<T>(), gmInLen);
                    yg.SetGlobalBuffer(y.as<T>(), gmOutLen);
                    LocalTensor<T> t(TPosition::VECIN, 0, static_cast<uint32_t>(ubLen));
                    for (uint64_t i = 0; i < ubLen; ++i) t.HostPtr()[i] = sentinel;
                    DataCopy(t, xg, ub.data(), gmIn.data(), static_cast<uint32_t>(gmIn.size()));
                    std::memcpy(ubAfter.data(), t.HostPtr(), ubLen * sizeof(T));
                    DataCopy(yg, t, gmOut.data(), ub.data(), static_cast<uint32_t>(gmIn.size()));
                  },
                  On(soc))
                  .empty());
  // The model: the k-th selected element of one side goes to the k-th of the other.
  const std::vector<uint64_t> in = SliceElements(gmIn, sizeof(T));
  const std::vector<uint64_t> mid = SliceElements(ub, sizeof(T));
  const std::vector<uint64_t> out = SliceElements(gmOut, sizeof(T));
  ASSERT_EQ(in.size(), mid.size());
  ASSERT_EQ(in.size(), out.size());
  std::vector<T> ubModel(ubLen, sentinel), gmModel(gmOutLen, sentinel);
  for (size_t k = 0; k < in.size(); ++k) ubModel[mid[k]] = Value<T>(in[k]);
  for (size_t k = 0; k < in.size(); ++k) gmModel[out[k]] = ubModel[mid[k]];
  for (uint64_t i = 0; i < ubLen; ++i) {
    EXPECT_EQ(static_cast<float>(ubAfter[i]), static_cast<float>(ubModel[i])) << "UB element " << i;
  }
  for (uint64_t i = 0; i < gmOutLen; ++i) {
    EXPECT_EQ(static_cast<float>(y.as<T>()[i]), static_cast<float>(gmModel[i]))
        << "GM element " << i;
  }
}

TEST(DataCopySlice, TheVendorsExampleTwoRowsOfTwoBursts) {
  // [3, 87] floats: rows 0 and 2, bursts [16, 40) and [47, 71), into a dense [2, 48].
  const std::vector<SliceInfo> src = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
  const std::vector<SliceInfo> dst = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
  for (const char* soc : {k910B, k950, k310P}) CheckSliceRoundTrip<float>(src, dst, dst, soc);
}

TEST(DataCopySlice, ThreeDimensionsOfHalfWithGapsOnEverySide) {
  // GM [2, 4, 64] halves: dims 2 all, rows 1 and 3, two 16-element bursts 16 apart from 8.
  const std::vector<SliceInfo> gmIn = {{8, 55, 16, 1, 64}, {1, 3, 1, 1, 4}, {0, 1, 0, 1, 2}};
  // UB [2, 2, 48]: each row's two bursts one block (16 halves) apart.
  const std::vector<SliceInfo> ub = {{0, 47, 16, 1, 48}, {0, 1, 0, 1, 2}, {0, 1, 0, 1, 2}};
  // GM [2, 3, 40]: rows 0 and 2, bursts at 3 and 24 (a 5-element gap, not a whole block).
  const std::vector<SliceInfo> gmOut = {{3, 39, 5, 1, 40}, {0, 2, 1, 1, 3}, {0, 1, 0, 1, 2}};
  CheckSliceRoundTrip<half>(gmIn, ub, gmOut, k910B);
}

TEST(DataCopySlice, OneDimension) {
  const std::vector<SliceInfo> gm = {{4, 4 + 8 * 3 + 2 * 2 - 1, 2, 1, 40}};  // 3 bursts of 8
  const std::vector<SliceInfo> ub = {{0, 23, 0, 1, 24}};
  CheckSliceRoundTrip<int32_t>(gm, ub, {{0, 23, 0, 1, 24}}, k950);
}

TEST(DataCopySlice, ZeroShapeValueTakesTheTensorsShapeInfo) {
  GmBuffer x(3 * 87 * 4);
  for (int i = 0; i < 3 * 87; ++i) x.as<float>()[i] = static_cast<float>(i);
  std::vector<float> got(96);
  EXPECT_TRUE(RunKernel(1, [&] {
                GlobalTensor<float> xg;
                xg.SetGlobalBuffer(x.as<float>());
                uint32_t gs[] = {87, 3};
                xg.SetShapeInfo(ShapeInfo(2, gs));
                LocalTensor<float> t(TPosition::VECIN, 0, 96);
                uint32_t ls[] = {48, 2};
                t.SetShapeInfo(ShapeInfo(2, ls));
                const SliceInfo src[] = {{16, 70, 7, 3}, {0, 2, 1, 1}};
                const SliceInfo dst[] = {{0, 47, 0, 3}, {0, 1, 0, 1}};
                DataCopy(t, xg, dst, src, 2);
                std::memcpy(got.data(), t.HostPtr(), 96 * 4);
              }).empty());
  EXPECT_EQ(got[0], 16.0f);
  EXPECT_EQ(got[24], 47.0f);
  EXPECT_EQ(got[48], 2 * 87 + 16.0f);
  EXPECT_EQ(got[95], 2 * 87 + 70.0f);
}

// Runs a GM -> UB slice copy of floats with the given infos on a [4, 64] GM and a 512-float UB.
BlockFailure SliceFailure(std::vector<SliceInfo> src, std::vector<SliceInfo> dst, uint32_t dimValue,
                          const char* soc = k910B) {
  GmBuffer x(4 * 64 * 4);
  return Failure(soc, [&] {
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer(x.as<float>(), 256);
    LocalTensor<float> t(TPosition::VECIN, 0, 512);
    DataCopy(t, xg, dst.data(), src.data(), dimValue);
  });
}

TEST(DataCopySlice, CheckedModeNamesTheBrokenRule) {
  CheckedModeScope checked(true);
  const std::vector<SliceInfo> row = {{0, 15, 0, 2, 64}, {0, 1, 0, 1, 4}};
  const std::vector<SliceInfo> ub = {{0, 15, 0, 2, 16}, {0, 1, 0, 1, 2}};
  EXPECT_EQ(SliceFailure(row, ub, 2).check, "");
  ExpectFailure(SliceFailure(row, ub, 0), "slice_params", "dimValue is 0");
  std::vector<SliceInfo> s = row;
  s[0].startIndex = 15;
  ExpectFailure(SliceFailure(s, ub, 2), "slice_params",
                "srcSliceInfo[0].startIndex 15, srcSliceInfo[0].endIndex 15");
  s = row;
  s[0].endIndex = 14;  // 15 elements: not N bursts of 16
  ExpectFailure(SliceFailure(s, ub, 2), "slice_params", "srcSliceInfo[0].endIndex - startIndex");
  s = row;
  s[1].burstLen = 2;
  ExpectFailure(SliceFailure(s, ub, 2), "slice_params",
                "srcSliceInfo[1].burstLen is 2, which must be 1");
  std::vector<SliceInfo> u = ub;
  u[0] = {0, 31, 0, 4, 32};
  ExpectFailure(SliceFailure(row, u, 2), "slice_params",
                "srcSliceInfo[0].burstLen 2 differs from dstSliceInfo[0].burstLen 4");
  u = ub;
  u[1] = {0, 2, 0, 1, 3};  // three rows against two
  ExpectFailure(SliceFailure(row, u, 2), "slice_params", "dimension 1 selects 2 indices of src");
  // Two 8-float bursts 4 floats apart in UB: not a whole block.
  s = {{0, 31, 16, 1, 64}, {0, 1, 0, 1, 4}};
  u = {{0, 19, 4, 1, 32}, {0, 1, 0, 1, 2}};
  ExpectFailure(SliceFailure(s, u, 2), "slice_params", "dstSliceInfo[0].stride 4 elements");
}

TEST(DataCopySlice, UncheckedModeRoundsTheUbGapDownLikeTheDevice) {
  CheckedModeScope unchecked(false);
  GmBuffer x(64 * 4);
  for (int i = 0; i < 64; ++i) x.as<float>()[i] = static_cast<float>(i + 1);
  std::vector<float> got(32);
  EXPECT_TRUE(RunKernel(1, [&] {
                GlobalTensor<float> xg;
                xg.SetGlobalBuffer(x.as<float>(), 64);
                LocalTensor<float> t(TPosition::VECIN, 0, 32);
                for (int i = 0; i < 32; ++i) t.HostPtr()[i] = 0;
                const SliceInfo src[] = {{0, 31, 16, 1, 64}};
                const SliceInfo dst[] = {{0, 19, 4, 1, 32}};  // 16 B gap: rounds to 0
                DataCopy(t, xg, dst, src, 1);
                std::memcpy(got.data(), t.HostPtr(), 32 * 4);
              }).empty());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], i + 1.0f);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[8 + i], i + 25.0f);
  EXPECT_EQ(got[16], 0.0f);
}

TEST(DataCopySlice, ProductsWithoutItRefuseItInBothModes) {
  for (bool checked : {true, false}) {
    CheckedModeScope mode(checked);
    for (const char* soc : {k310B, k910A}) {
      ExpectFailure(SliceFailure({{0, 7, 0, 1, 64}}, {{0, 7, 0, 1, 8}}, 1, soc),
                    "DataCopy(SliceInfo).unsupported_product", soc);
    }
  }
}

TEST(DataCopySlice, SanitizerSeesEachBurstAndNotTheGaps) {
  // Two bursts one block apart in UB: reading the gap is an initcheck finding naming it.
  GmBuffer x(64 * 4), y(64 * 4);
  for (bool readGap : {false, true}) {
    ExpectCopyThroughUb(
        x, y, k910B, 32,
        [](const LocalTensor<float>& t, const GlobalTensor<float>& xg) {
          const SliceInfo src[] = {{0, 31, 16, 1, 64}};
          const SliceInfo dst[] = {{0, 23, 8, 1, 24}};
          DataCopy(t, xg, dst, src, 1);
        },
        readGap ? 24u : 8u, readGap ? "UB bytes [32, 64)" : nullptr);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// ---- NDDMA
// ---------------------------------------------------------------------------------------

// The documented element of an NDDMA destination index vector k, or nullopt-like `pad`.
template <uint8_t dim>
struct NdModel {
  NdDmaLoopInfo<dim> info;
  bool nearest = false;
  // Writes the model's result into dst (indexed by destination element offset).
  void Apply(const float* src, float pad, std::vector<float>& dst) const {
    uint64_t total[dim];
    uint64_t count = 1;
    for (int i = 0; i < dim; ++i) {
      total[i] = uint64_t{info.loopLpSize[i]} + info.loopSize[i] + info.loopRpSize[i];
      count *= total[i];
    }
    for (uint64_t n = 0; n < count; ++n) {
      uint64_t rest = n, d = 0, s = 0;
      bool inside = true;
      for (int i = 0; i < dim; ++i) {
        const int64_t k = static_cast<int64_t>(rest % total[i]);
        rest /= total[i];
        d += k * info.loopDstStride[i];
        int64_t j = k - info.loopLpSize[i];
        if (j < 0 || j >= static_cast<int64_t>(info.loopSize[i])) inside = false;
        j = std::max<int64_t>(0, std::min<int64_t>(j, info.loopSize[i] - 1));
        s += j * info.loopSrcStride[i];
      }
      dst.at(d) = inside || nearest ? src[s] : pad;
    }
  }
};

template <uint8_t dim, const NdDmaConfig& config = kDefaultNdDmaConfig>
void CheckNdDma(const NdDmaLoopInfo<dim>& info, uint64_t srcLen, uint64_t dstLen, float pad) {
  GmBuffer x(srcLen * 4);
  for (uint64_t i = 0; i < srcLen; ++i) x.as<float>()[i] = static_cast<float>(i + 1);
  const std::vector<float> got = CopyIntoUb<float>(
      x, srcLen, dstLen, k950, [&](const LocalTensor<float>& t, const GlobalTensor<float>& xg) {
        NdDmaParams<float, dim> params{info, pad};
        NdDmaDci();
        DataCopy<float, dim, config>(t, xg, params);
      });
  NdModel<dim> m{info, config.isNearestValueMode};
  if (config.loopLpSize != NdDmaConfig::unsetPad) {
    for (int i = 0; i < dim; ++i) m.info.loopLpSize[i] = static_cast<uint8_t>(config.loopLpSize);
  }
  if (config.loopRpSize != NdDmaConfig::unsetPad) {
    for (int i = 0; i < dim; ++i) m.info.loopRpSize[i] = static_cast<uint8_t>(config.loopRpSize);
  }
  std::vector<float> want(dstLen, -1.0f);
  m.Apply(x.as<float>(), pad, want);
  for (uint64_t i = 0; i < dstLen; ++i) EXPECT_EQ(got[i], want[i]) << "element " << i;
}

constexpr NdDmaConfig kNearest = {true};
constexpr NdDmaConfig kPadTwo = {false, 2, 1, false};

TEST(NdDma, PaddingWithAConstant) {
  CheckNdDma<2>({{1, 32}, {1, 64}, {32, 16}, {15, 13}, {17, 3}}, 16 * 32, 32 * 64, 0.0f);
  CheckNdDma<2>({{1, 8}, {1, 12}, {5, 3}, {2, 1}, {5, 2}}, 3 * 8, 6 * 12, 9.5f);
}

TEST(NdDma, NearestValuePadding) {
  CheckNdDma<2, kNearest>({{1, 15}, {1, 32}, {15, 28}, {11, 3}, {6, 1}}, 28 * 15, 32 * 32, 0.0f);
}

TEST(NdDma, TransposeBroadcastSliceAndThreeDimensions) {
  CheckNdDma<2>({{1, 64}, {16, 1}, {64, 16}, {0, 0}, {0, 0}}, 16 * 64, 64 * 16, 0.0f);
  CheckNdDma<2>({{1, 0}, {1, 16}, {16, 3}, {0, 0}, {0, 0}}, 16, 3 * 16, 0.0f);
  CheckNdDma<2>({{1, 64}, {1, 16}, {16, 16}, {0, 0}, {0, 0}}, 32 * 64, 16 * 16, 0.0f);
  CheckNdDma<3>({{2, 20, 100}, {1, 6, 30}, {3, 4, 2}, {1, 0, 1}, {2, 1, 0}}, 200, 90, 4.0f);
  CheckNdDma<1>({{3}, {2}, {5}, {1}, {2}}, 15, 16, 7.0f);
}

TEST(NdDma, ConfigPaddingReplacesEveryDimensionsOwn) {
  CheckNdDma<2, kPadTwo>({{1, 4}, {1, 7}, {4, 3}, {0, 0}, {0, 0}}, 12, 7 * 6, 3.0f);
}

BlockFailure NdDmaFailure(NdDmaLoopInfo<2> info, const char* soc = k950) {
  GmBuffer x(4096);
  return Failure(soc, [&] {
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer(x.as<float>(), 1024);
    LocalTensor<float> t(TPosition::VECIN, 0, 4096);
    DataCopy<float, 2>(t, xg, NdDmaParams<float, 2>{info, 0.0f});
  });
}

TEST(NdDma, CheckedModeNamesTheField) {
  CheckedModeScope checked(true);
  EXPECT_EQ(NdDmaFailure({{1, 8}, {1, 8}, {8, 4}, {0, 0}, {0, 0}}).check, "");
  ExpectFailure(NdDmaFailure({{1, 8}, {1, 8}, {0, 4}, {0, 0}, {0, 0}}), "nddma_params",
                "loopInfo.loopSize[0] is 0");
  ExpectFailure(NdDmaFailure({{1, 8}, {1, 1u << 20}, {8, 1}, {0, 0}, {0, 0}}), "nddma_params",
                "loopInfo.loopDstStride[1] is 1048576");
  // Ascending strides whose rows overlap: a row of 2 + 8 + 1 elements, rows 10 apart.
  ExpectFailure(NdDmaFailure({{1, 8}, {1, 10}, {8, 4}, {2, 0}, {1, 0}}), "nddma_params",
                "loopInfo.loopDstStride[1] is 10: with ascending destination strides it must be "
                "at least 11");
  GmBuffer x(64);
  ExpectFailure(
      Failure(k950,
              [&] {
                GlobalTensor<int64_t> xg;
                xg.SetGlobalBuffer(x.as<int64_t>(), 8);
                LocalTensor<int64_t> t(TPosition::VECIN, 0, 16);
                DataCopy<int64_t, 1>(t, xg, NdDmaParams<int64_t, 1>{{{1}, {1}, {4}, {1}, {0}}, 5});
              }),
      "nddma_params", "constantValue must be 0 for 8-byte elements");
}

TEST(NdDma, OnlyThe950HasIt) {
  for (bool checked : {true, false}) {
    CheckedModeScope mode(checked);
    ExpectFailure(NdDmaFailure({{1, 8}, {1, 8}, {8, 4}, {0, 0}, {0, 0}}, k910B),
                  "DataCopy(NdDmaParams).unsupported_product", "Ascend910B1");
  }
}

TEST(NdDma, SanitizerRecordsTheRowsItWritesAndReads) {
  // Transpose 2 x 8 into 8 x 2 (dst stride 2 in dimension 0): copying out all 16 floats reads
  // only written bytes; a 1 x 8 source (loopSize 1 in dimension 1) leaves every odd float
  // unwritten.
  GmBuffer x(64 * 4), y(64 * 4);
  for (uint32_t rows : {2u, 1u}) {
    ExpectCopyThroughUb(
        x, y, k950, 16,
        [&](const LocalTensor<float>& t, const GlobalTensor<float>& xg) {
          DataCopy<float, 2>(
              t, xg, NdDmaParams<float, 2>{{{1, 8}, {2, 1}, {8, rows}, {0, 0}, {0, 0}}, 0.0f});
        },
        16, rows == 2 ? nullptr : "UB bytes [4, 8)");
    if (testing::Test::HasFatalFailure()) return;
  }
}

// ---- ND2NZ
// ---------------------------------------------------------------------------------------

// The page's figure, element by element: row r of matrix m, element j < dValue, lands in chunk
// j / C0 at m * dstNzMatrixStride + (j / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + j % C0;
// the rest of the last chunk is 0.
template <typename T>
void CheckNd2Nz(const Nd2NzParams& p, uint64_t srcLen, uint64_t dstLen, const char* soc) {
  constexpr uint64_t c0 = 32 / sizeof(T);
  GmBuffer x(srcLen * sizeof(T));
  for (uint64_t i = 0; i < srcLen; ++i)
    x.as<T>()[i] = static_cast<T>(static_cast<float>(i % 97 + 1));
  const std::vector<T> got = CopyIntoUb<T>(
      x, srcLen, dstLen, soc,
      [&](const LocalTensor<T>& t, const GlobalTensor<T>& xg) { DataCopy(t, xg, p); });
  std::vector<T> want(dstLen, static_cast<T>(-1.0f));
  const uint64_t chunks = (p.dValue + c0 - 1) / c0;
  for (uint64_t m = 0; m < p.ndNum; ++m) {
    for (uint64_t r = 0; r < p.nValue; ++r) {
      for (uint64_t j = 0; j < chunks * c0; ++j) {
        const uint64_t d = m * p.dstNzMatrixStride + (j / c0) * p.dstNzC0Stride * c0 +
                           r * p.dstNzNStride * c0 + j % c0;
        want.at(d) = j < p.dValue ? x.as<T>()[m * p.srcNdMatrixStride + r * p.srcDValue + j]
                                  : static_cast<T>(0.0f);
      }
    }
  }
  for (uint64_t i = 0; i < dstLen; ++i) {
    EXPECT_EQ(static_cast<float>(got[i]), static_cast<float>(want[i])) << "element " << i;
  }
}

TEST(Nd2Nz, TheVendorsFigureAndOtherShapes) {
  // Two 2 x 24 half matrices 144 apart, rows 48 apart, into chunks 11 blocks apart.
  for (const char* soc : {k910B, k950, k310P}) {
    CheckNd2Nz<half>(Nd2NzParams(2, 2, 24, 144, 48, 11, 2, 96), 2 * 144, 96 + 11 * 16 + 2 * 16 + 16,
                     soc);
  }
  CheckNd2Nz<float>(Nd2NzParams(1, 5, 13, 0, 20, 6, 1, 1), 100, 2 * 6 * 8 + 8 * 8, k910B);
  CheckNd2Nz<int8_t>(Nd2NzParams(3, 2, 40, 90, 45, 2, 4, 300), 300, 3 * 300, k950);
}

TEST(Nd2Nz, CheckedModeRangesAndProducts) {
  GmBuffer x(4096);
  auto copy = [&x](Nd2NzParams p) {
    return [&x, p] {
      GlobalTensor<half> xg;
      xg.SetGlobalBuffer(x.as<half>(), 2048);
      LocalTensor<half> t(TPosition::VECIN, 0, 4096);
      DataCopy(t, xg, p);
    };
  };
  {
    CheckedModeScope checked(true);
    EXPECT_EQ(Failure(k910B, copy(Nd2NzParams(1, 2, 16, 0, 16, 2, 1, 1))).check, "");
    ExpectFailure(Failure(k910B, copy(Nd2NzParams(1, 2, 16, 0, 0, 2, 1, 1))), "nd2nz_params",
                  "intriParams.srcDValue is 0, which should be in [1, 65535]");
    ExpectFailure(Failure(k910B, copy(Nd2NzParams(1, 2, 16, 0, 16, 0, 1, 1))), "nd2nz_params",
                  "intriParams.dstNzC0Stride is 0");
    ExpectFailure(Failure(k910B, copy(Nd2NzParams(1, 16385, 16, 0, 16, 1, 1, 1))), "nd2nz_params",
                  "intriParams.nValue is 16385");
  }
  for (bool checked : {true, false}) {
    CheckedModeScope mode(checked);
    for (const char* soc : {k310B, k910A}) {
      ExpectFailure(Failure(soc, copy(Nd2NzParams(1, 2, 16, 0, 16, 2, 1, 1))),
                    "DataCopy(Nd2NzParams).unsupported_product", soc);
    }
  }
}

TEST(Nd2Nz, SanitizerSeesTheZeroFillAsWritten) {
  // One 2 x 5 float row pair: chunks at 0 and 64 (dstNzNStride 2); the 3 zero-filled floats of
  // each chunk count as written, the block between the chunks does not.
  GmBuffer x(64 * 4), y(64 * 4);
  for (uint32_t n : {8u, 24u}) {
    ExpectCopyThroughUb(
        x, y, k910B, 24,
        [](const LocalTensor<float>& t, const GlobalTensor<float>& xg) {
          DataCopy(t, xg, Nd2NzParams(1, 2, 5, 0, 5, 1, 2, 1));
        },
        n, n == 8 ? nullptr : "UB bytes [32, 64)");
    if (testing::Test::HasFatalFailure()) return;
  }
}

// ---- SetL2CacheHint
// ------------------------------------------------------------------------------

TEST(L2CacheHint, KeptAndCarriedByOperatorIndexCopiesUnchanged) {
  GmBuffer x(64 * 2);
  for (int i = 0; i < 64; ++i) x.as<half>()[i] = half(static_cast<float>(i));
  std::vector<float> got(16);
  EXPECT_TRUE(RunKernel(1, [&] {
                GlobalTensor<half> xg;
                xg.SetGlobalBuffer(x.as<half>(), 64);
                EXPECT_EQ(xg.GetL2CacheHint(), CacheMode::CACHE_MODE_NORMAL);
                xg.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
                EXPECT_EQ(xg[16].GetL2CacheHint(), CacheMode::CACHE_MODE_DISABLE);
                LocalTensor<half> t(TPosition::VECIN, 0, 16);
                DataCopy(t, xg[16], 16);
                for (int i = 0; i < 16; ++i) got[i] = static_cast<float>(t.GetValue(i));
              }).empty());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(got[i], 16.0f + i);
}

TEST(L2CacheHint, CheckedModeRefusesProductsWithoutItAndPersistentBeforeThe950) {
  CheckedModeScope checked(true);
  GmBuffer x(64);
  auto set = [&](CacheMode m) {
    return [&x, m] {
      GlobalTensor<float> xg;
      xg.SetGlobalBuffer(x.as<float>(), 16);
      xg.SetL2CacheHint(m);
    };
  };
  for (const char* soc : {k310P, k310B, k910A}) {
    ExpectFailure(Failure(soc, set(CacheMode::CACHE_MODE_DISABLE)),
                  "SetL2CacheHint.unsupported_product", soc);
  }
  ExpectFailure(Failure(k910B, set(CacheMode::CACHE_MODE_PERSISTENT)), "l2_cache_mode",
                "CACHE_MODE_PERSISTENT");
  EXPECT_EQ(Failure(k950, set(CacheMode::CACHE_MODE_PERSISTENT)).check, "");
  CheckedModeScope unchecked(false);
  EXPECT_EQ(Failure(k310P, set(CacheMode::CACHE_MODE_DISABLE)).check, "");
}

// ---- Custom TBufPool (EXTERN_IMPL_BUFPOOL)
// -------------------------------------------------------

// The vendor's pattern, except that blocks are placed back to front: the pool decides where
// each block goes.
class ReversePool {
 public:
  ReversePool() { Init(); }
  template <class T>
  bool InitBuffer(T& que, uint8_t num, uint32_t len) {
    len = (len + 31) / 32 * 32;
    auto ptr = GetBufHandle(GetCurBufSize());
    const uint32_t base = GetCurAddr();
    que.InitStartBufHandle(ptr, num, len);
    for (uint32_t i = 0; i < num; i++) {
      que.InitBufHandle(this, i, GetBufHandle(static_cast<uint8_t>(GetCurBufSize() + i)),
                        base + (num - 1 - i) * len, len);
    }
    SetCurAddr(base + num * len);
    SetCurBufSize(static_cast<uint8_t>(GetCurBufSize() + num));
    return true;
  }
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
    auto ptr = GetBufHandle(GetCurBufSize());
    buf.InitStartBufHandle(ptr, 1, len);
    buf.InitBufHandle(this, 0, ptr, GetCurAddr(), len);
    SetCurAddr(GetCurAddr() + (len + 31) / 32 * 32);
    SetCurBufSize(static_cast<uint8_t>(GetCurBufSize() + 1));
    return true;
  }
  EXTERN_IMPL_BUFPOOL(ReversePool, TPosition::VECCALC, 4);
};

TEST(CustomBufPool, BlocksGoWhereThePoolPlacesThem) {
  for (const char* soc : {k910B, k950}) {
    EXPECT_TRUE(RunKernel(
                    1,
                    [&] {
                      TPipe pipe;
                      TQue<TPosition::VECIN, 1> before;
                      pipe.InitBuffer(before, 1, 64);  // [0, 64)
                      ReversePool pool;
                      EXPECT_TRUE(ReversePool::isTbufPool);
                      pipe.InitBufPool(pool, 1000);  // [64, 1088)
                      EXPECT_EQ(pool.GetCurAddr(), 64u);
                      EXPECT_EQ(pool.GetCurBufSize(), 0);
                      TQue<TPosition::VECIN, 2> q;
                      pool.InitBuffer(q, 2, 100);  // blocks of 128: block 0 at 192, block 1 at 64
                      TBuf<TPosition::VECCALC> b;
                      pool.InitBuffer(b, 40);  // 64 at 320
                      EXPECT_EQ(pool.GetCurAddr(), 384u);
                      EXPECT_EQ(pool.GetCurBufSize(), 3);
                      LocalTensor<float> t0 = q.AllocTensor<float>();
                      LocalTensor<float> t1 = q.AllocTensor<float>();
                      EXPECT_EQ(t0.GetPhyAddr(), 192u);
                      EXPECT_EQ(t1.GetPhyAddr(), 64u);
                      EXPECT_EQ(t0.GetSize(), 32u);
                      EXPECT_EQ(b.Get<float>().GetPhyAddr(), 320u);
                      EXPECT_EQ(b.Get<float>().GetSize(), 16u);
                      q.FreeTensor(t0);
                      q.FreeTensor(t1);
                      pool.Reset();
                      EXPECT_EQ(pool.GetCurBufSize(), 0);
                      // 3510 keeps the pool's memory; elsewhere the vendor's Reset clears it.
                      EXPECT_EQ(pool.GetCurAddr(), std::string(soc) == k950 ? 64u : 0u);
                    },
                    On(soc))
                    .empty());
  }
}

TEST(CustomBufPool, CheckedModeRules) {
  CheckedModeScope checked(true);
  // The vendor's documented example passes the first slot for every block: with two blocks the
  // device would place block 0 twice and never block 1.
  ExpectFailure(Failure(k910B,
                        [] {
                          TPipe pipe;
                          ReversePool pool;
                          pipe.InitBufPool(pool, 1024);
                          TQue<TPosition::VECIN, 2> q;
                          auto ptr = pool.GetBufHandle(0);
                          q.InitStartBufHandle(ptr, 2, 64);
                          q.InitBufHandle(&pool, 0, ptr, 0, 64);
                          q.InitBufHandle(&pool, 1, ptr, 64, 64);
                        }),
                "init_buffer", "index is 1 but bufhandle is the slot of block 0");
  ExpectFailure(Failure(k910B,
                        [] {
                          TPipe pipe;
                          ReversePool pool;
                          pipe.InitBufPool(pool, 256);
                          TBuf<TPosition::VECCALC> b;
                          b.InitStartBufHandle(pool.GetBufHandle(0), 1, 64);
                          b.InitBufHandle(&pool, 0, pool.GetBufHandle(0), 224, 64);
                        }),
                "ub_overflow",
                "the block [224, 288) (curPoolAddr, len) is not inside the pool [0, 256)");
  ExpectFailure(Failure(k910B,
                        [] {
                          ReversePool pool;
                          (void)pool.GetBufHandle(4);
                        }),
                "init_buffer", "offset is 4, which should be less than BUFID_SIZE 4");
  ExpectFailure(Failure(k910B,
                        [] {
                          TPipe pipe;
                          ReversePool pool;
                          pipe.InitBufPool(pool, 1024);
                          TQue<TPosition::VECIN, 2> q;
                          q.InitStartBufHandle(pool.GetBufHandle(0), 2, 64);
                          q.InitBufHandle(&pool, 1, pool.GetBufHandle(1), 64, 64);
                          (void)q.AllocTensor<float>();
                        }),
                "init_buffer", "block 0 was announced by InitStartBufHandle but never placed");
}

}  // namespace
