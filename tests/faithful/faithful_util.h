// Case builders shared by the faithfulness tests: data, tilings from the host tiling API for a
// given product, scratch sizes.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "harness.h"
#include "lngrad/product.h"
#include "enum_name.h"
#include "tiling/tiling_api.h"

namespace faithful {

// Products of the three algorithms' arches (spec §6.6, §7.2).
inline const char* const kA2 = "Ascend910B1";        // arch 2201
inline const char* const kInfer = "Ascend310P1";     // arch 2002
inline const char* const k950 = "Ascend950PR_9599";  // arch 3510
inline const std::vector<std::string> kProducts = {kA2, kInfer, k950};

// A GradCase or BetaCase of `rows` x `h` on `soc`; data and tiling unset.
template <class Case>
Case NewCase(const std::string& soc, bool half, bool reuse, uint32_t rows, uint32_t h,
             Proto proto = Proto::kSharedTmpBuffer) {
  Case c;
  static_cast<CaseBase&>(c) = CaseBase{soc, half, reuse, proto, rows, h};
  return c;
}

// A case on the [1,8,8] documentation examples (data/*_doc_example.txt), float, inputs unset.
template <class Case>
Case DocExampleCase(const std::string& soc, bool reuse, Proto proto) {
  return NewCase<Case>(soc, false, reuse, 8, 8, proto);
}

// A bitwise case: soc, half, reuse, index into the test's shape table.
using Param = std::tuple<std::string, bool, bool, int>;

// Every product x {float, half} x {reuse or not} x every shape of `shapes`.
template <class Shape, size_t N>
auto AllParams(const Shape (&)[N]) {
  return ::testing::Combine(::testing::ValuesIn(kProducts), ::testing::Bool(), ::testing::Bool(),
                            ::testing::Range(0, static_cast<int>(N)));
}

// Test names "<soc>_half|float[_reuse]_<shape name>".
template <class Shape, size_t N>
auto ParamNames(const Shape (&shapes)[N]) {
  return [&shapes](const ::testing::TestParamInfo<Param>& info) {
    const auto& [soc, half, reuse, index] = info.param;
    return soc + (half ? "_half" : "_float") + (reuse ? "_reuse_" : "_") + shapes[index].name;
  };
}

// The host tiling functions follow the current product; tests select it for one computation.
class SocScope {
 public:
  explicit SocScope(const std::string& soc) : previous_(lngrad::CurrentProduct().soc) {
    EXPECT_TRUE(lngrad::SetCurrentSoc(soc).ok()) << soc;
  }
  ~SocScope() { (void)lngrad::SetCurrentSoc(previous_); }

 private:
  std::string previous_;
};

inline uint64_t Mix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
inline std::vector<double> Uniform(size_t n, double lo, double hi, uint64_t seed) {
  std::vector<double> v(n);
  for (double& x : v) x = lo + (hi - lo) * static_cast<double>(Mix(seed) >> 11) * 0x1.0p-53;
  return v;
}

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline uint32_t EpsilonBits(bool half, double eps) {
  return half ? lngrad::FloatToHalfBits(static_cast<float>(eps))
              : FloatBits(static_cast<float>(eps));
}
inline double EpsilonValue(bool half, double eps) {
  return half ? lngrad::HalfBitsToFloat(lngrad::FloatToHalfBits(static_cast<float>(eps)))
              : static_cast<float>(eps);
}

// The same bits in both tensors (the first element that differs in the failure).
inline void ExpectSame(const char* what, const Tensor& got, const Tensor& want) {
  const int64_t i = FirstDifference(got, want);
  EXPECT_EQ(i, -1) << what << " differs first at element " << i << ": " << (i >= 0 ? got.At(i) : 0)
                   << " vs " << (i >= 0 && static_cast<size_t>(i) < want.size() ? want.At(i) : 0);
}

// The same scratch floats, bit for bit (the first that differs in the failure).
inline void ExpectSameScratch(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (FloatBits(got[i]) != FloatBits(want[i])) {
      ADD_FAILURE() << "scratch float " << i << " of " << got.size() << ": " << got[i] << " vs "
                    << want[i];
      return;
    }
  }
}

// Inputs of a LayerNormGrad case: dy, x, gamma uniform; mean and biased variance of the stored x
// (what a forward LayerNorm gives), stored as T.
inline void FillGradInputs(GradCase& c, uint64_t seed, double scale = 10.0) {
  const size_t rows = c.rows, h = c.h;
  c.dy = MakeTensor(c.half, Uniform(rows * h, -scale, scale, seed));
  c.x = MakeTensor(c.half, Uniform(rows * h, -scale, scale, seed + 1));
  c.gamma = MakeTensor(c.half, Uniform(h, -2, 2, seed + 2));
  const std::vector<double> x = Values(c.x);
  std::vector<double> mean(rows), var(rows);
  for (size_t r = 0; r < rows; ++r) {
    double s = 0, q = 0;
    for (size_t k = 0; k < h; ++k) s += x[r * h + k];
    mean[r] = s / static_cast<double>(h);
    for (size_t k = 0; k < h; ++k) q += (x[r * h + k] - mean[r]) * (x[r * h + k] - mean[r]);
    var[r] = q / static_cast<double>(h);
  }
  c.mean = MakeTensor(c.half, mean);
  c.variance = MakeTensor(c.half, var);
}

// Float buffers of the 2201/2002 layout (spec §2.4).
inline uint32_t BufNum(bool half, bool reuse) { return half ? 9 : (reuse ? 4 : 6); }

enum class TmpKind { kMin, kMax, kRows, kSingleChunk };
inline const char* TmpKindName(TmpKind k) {
  static constexpr lngrad::test::EnumLabel<TmpKind> kNames[] = {{TmpKind::kMin, "min"},
                                                                {TmpKind::kMax, "max"},
                                                                {TmpKind::kRows, "rows"},
                                                                {TmpKind::kSingleChunk, "single"}};
  return lngrad::test::EnumName(k, kNames);
}

// Tiling for the case's shape [1, rows, H, H] on its product:
//  kMin / kMax: GetLayerNormGradMaxMinTmpSize's values; kRows: a buffer for `unit_rows` rows per
//  loop (one 32-byte block of rows: 8 float / 16 half), so that the row loop runs several times
//  and ends with a tail; kSingleChunk (2201/2002 only, for rows the device layout cannot hold):
//  the API's tiling for exactly n*rows*H floats with nohCalSize left at `rows` (one chunk; the
//  upstream unit tests build their tilings the same way, spec §5.7).
// Sets tmp_buffer_bytes and scratch_bytes to cover stackBufferSize and the layout the kernel
// touches (spec §2.8).
inline void SetGradTiling(GradCase& c, TmpKind kind) {
  SocScope scope(c.soc);
  const uint32_t ts = c.half ? 2 : 4;
  const ge::Shape shape({1, c.rows, c.h, c.h});
  uint32_t max_v = 0, min_v = 0;
  ASSERT_TRUE(lngrad::tiling::LayerNormGradMaxMinTmpSize(shape, ts, c.reuse, max_v, min_v).ok());
  const uint32_t n = BufNum(c.half, c.reuse);
  uint32_t bytes = min_v;
  if (kind == TmpKind::kMax) bytes = max_v;
  if (kind == TmpKind::kRows) bytes = n * (c.half ? 16 : 8) * c.h * 4;
  if (kind == TmpKind::kSingleChunk) bytes = n * c.rows * c.h * 4;
  const lngrad::Status st =
      lngrad::tiling::LayerNormGradNDTilingInfo(shape, bytes, ts, c.reuse, c.tiling);
  ASSERT_TRUE(st.ok()) << st.ToString();
  uint64_t layout = lngrad::tiling::LayerNormGradScratchFloats(c.tiling, ts, c.reuse);
  if (kind == TmpKind::kSingleChunk && !IsArch3510(c.soc)) {
    AscendC::tiling::LayerNormGradTiling& t = c.tiling;
    const uint32_t old_one = t.oneCalSize, one = c.rows * c.h;
    for (uint32_t* pos :
         {&t.tmpTensorBSHPos, &t.pdVarTensorPos, &t.pdMeanTensorPos, &t.x1TensorPos, &t.x2TensorPos,
          &t.x3TensorPos, &t.tmpTensorPos, &t.tmpTensor1Pos, &t.tmpTensor2Pos}) {
      *pos = *pos / old_one * one;
    }
    for (uint32_t* size : {&t.tmpTensorBSHSize, &t.pdVarTensorSize, &t.pdMeanTensorSize,
                           &t.x1TensorSize, &t.x2TensorSize, &t.x3TensorSize, &t.tmpTensorSize,
                           &t.tmpTensor1Size, &t.tmpTensor2Size}) {
      *size = one;
    }
    t.oneCalSize = one;
    t.nohCalSize = c.rows;
    t.loopNum = 1;
    t.tailSize = 0;
    t.nohTailSize = 0;
    layout = uint64_t{n} * one;  // the layout is n consecutive buffers of one chunk
  }
  const uint64_t scratch = std::max<uint64_t>((layout * 4 + 31) / 32 * 32, 32);
  c.scratch_bytes = static_cast<uint32_t>(scratch);
  c.tmp_buffer_bytes =
      static_cast<uint32_t>(std::max<uint64_t>(scratch, (c.tiling.stackBufferSize + 31) / 32 * 32));
}

// LayerNormGradBeta tiling for [1, rows, H, H]: kMin / kMax from the API, kRows a buffer for
// three rows per chunk (so that the rows split into chunks and a tail).
inline void SetBetaTiling(BetaCase& c, TmpKind kind) {
  SocScope scope(c.soc);
  const uint32_t ts = c.half ? 2 : 4;
  const ge::Shape shape({1, c.rows, c.h, c.h});
  uint32_t max_v = 0, min_v = 0;
  ASSERT_TRUE(
      lngrad::tiling::LayerNormGradBetaMaxMinTmpSize(shape, ts, c.reuse, max_v, min_v).ok());
  uint32_t bytes = kind == TmpKind::kMax ? max_v : min_v;
  // half: two [H] float accumulators, then (dy, res) float copies of 3 rows each (spec §3.6).
  if (kind == TmpKind::kRows) bytes = (c.half ? 2 * c.h + 2 * 3 * c.h : 3 * c.h) * 4;
  const lngrad::Status st =
      lngrad::tiling::LayerNormGradBetaNDTilingInfo(shape, bytes, ts, c.reuse, c.tiling);
  ASSERT_TRUE(st.ok()) << st.ToString();
  c.scratch_bytes = std::max<uint32_t>((bytes + 31) / 32 * 32, 32);
  c.tmp_buffer_bytes = c.scratch_bytes;
}

}  // namespace faithful
