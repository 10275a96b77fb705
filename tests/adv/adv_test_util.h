// Helpers for the lngrad_adv tests: tilings written straight from the spec (§2.5, §3.6),
// independent of the library's host tiling code, plus data loading and comparisons.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/bits_test_util.h"
#include "lngrad_adv/normalization.h"

namespace lngrad::adv::testing {

// The four shape fields every tiling struct begins with.
template <class Tiling>
void SetShapeFields(Tiling& t, uint32_t b, uint32_t s, uint32_t h, uint32_t orig_h) {
  t.bLength = b;
  t.sLength = s;
  t.hLength = h;
  t.originalHLength = orig_h;
}

// GetLayerNormGradNDTilingInfo, non-3510 (spec §2.5). stack_bytes is in bytes.
inline LayerNormGradTiling MakeGradTiling(uint32_t b, uint32_t s, uint32_t h, uint32_t orig_h,
                                          uint32_t stack_bytes, uint32_t type_size, bool reuse) {
  const bool is_float = type_size == 4;
  const uint32_t n = !is_float ? 9 : (reuse ? 4 : 6);
  uint32_t one = stack_bytes / 4 / n;
  one = (one / h) * h;
  uint32_t noh = one / h;
  const uint32_t block = is_float ? 8 : 16;
  noh = (noh + block - 1) / block * block;
  one = noh * h;
  LayerNormGradTiling t;
  t.stackBufferSize = stack_bytes;
  SetShapeFields(t, b, s, h, orig_h);
  const uint32_t bsh = b * s * h;
  t.oneCalSize = one;
  t.nohCalSize = noh;
  t.loopNum = bsh / one;
  t.tailSize = bsh % one;
  t.nohTailSize = t.tailSize / h;
  t.tmpTensorBSHPos = 0;
  t.pdVarTensorPos = one;
  t.pdMeanTensorPos = 2 * one;
  const bool float_reuse = is_float && reuse;
  t.x1TensorPos = float_reuse ? 0 : 3 * one;
  t.x2TensorPos = float_reuse ? 0 : 4 * one;
  t.x3TensorPos = float_reuse ? 3 * one : 5 * one;
  t.tmpTensorPos = is_float ? 0 : t.x3TensorPos + one;
  t.tmpTensor1Pos = is_float ? 0 : 7 * one;
  t.tmpTensor2Pos = is_float ? 0 : 8 * one;
  t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = t.x1TensorSize = one;
  t.x2TensorSize = t.x3TensorSize = t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = one;
  t.lastDimValueBack = std::bit_cast<uint32_t>(1.0f / static_cast<float>(orig_h));
  t.lastDimValueBackMulTwo = std::bit_cast<uint32_t>(2.0f / static_cast<float>(orig_h));
  return t;
}

// GetLayerNormGradMaxMinTmpSize, non-3510 (spec §2.4).
inline void GradMaxMin(uint32_t b, uint32_t s, uint32_t h, uint32_t type_size, bool reuse,
                       uint32_t* max_bytes, uint32_t* min_bytes) {
  const uint32_t n = type_size == 2 ? 9 : (reuse ? 4 : 6);
  const uint32_t base = b * s * h;
  const uint32_t sq = h * h;
  *max_bytes = n * std::max(base, sq) * type_size;
  *min_bytes = n * std::min(base, sq) * type_size;
}

// GetLayerNormGradBetaNDTilingInfo (spec §3.6). stack_bytes in bytes.
inline LayerNormGradBetaTiling MakeBetaTiling(uint32_t b, uint32_t s, uint32_t h, uint32_t orig_h,
                                              uint32_t stack_bytes, bool is_half) {
  LayerNormGradBetaTiling t;
  SetShapeFields(t, b, s, h, orig_h);
  t.bshLength = b * s * h;
  t.bsLength = b * s;
  const uint32_t st = stack_bytes / 4;
  t.stackBufferSize = st;
  uint32_t one = st;
  t.numberOfTmpBuf = 1;
  if (is_half) {
    t.numberOfTmpBuf = 2;
    one = (st - 2 * h) / 2;
  }
  one = (one / h) * h;
  one = std::min(one, t.bshLength);
  t.oneCalSize = one;
  t.loopRound = t.bshLength / one;
  t.inputTailSize = t.bshLength % one;
  t.inputTailPos = t.bshLength - t.inputTailSize;
  t.bsTailSize = t.inputTailSize / h;
  t.bshCurLength = one;
  t.bsCurLength = one / h;
  if (is_half) {
    t.gammaTempTensorPos = 0;
    t.betaTempTensorPos = h;
    t.inputDyTmpTensorPos = 2 * h;
    t.resForGammaTmpTensorPos = 2 * h + one;
  }
  return t;
}

// A LayerNorm (forward) tiling with `rows_per_chunk` rows per chunk and three working buffers
// of one chunk each (plus float mean/variance buffers for half), laid out back to back.
inline LayerNormTiling MakeLayerNormTiling(uint32_t b, uint32_t s, uint32_t h,
                                           uint32_t rows_per_chunk, bool is_half, bool reuse) {
  LayerNormTiling t;
  SetShapeFields(t, b, s, h, h);
  t.inputXSize = b * s * h;
  t.meanVarSize = b * s;
  const uint32_t one = rows_per_chunk * h;
  const uint32_t bufs = (!is_half && reuse) ? 2 : 3;
  t.numberOfTmpBuf = bufs;
  t.oneTmpSize = one;
  t.firstTmpStartPos = 0;
  t.secondTmpStartPos = one;
  t.thirdTmpStartPos = bufs == 3 ? 2 * one : 0;
  const uint32_t mv_pos = bufs * one;
  t.meanTmpTensorPos = is_half ? mv_pos : 0;
  t.meanTmpTensorSize = is_half ? b * s : 0;
  t.varianceTmpTensorPos = is_half ? mv_pos + (b * s + 7) / 8 * 8 : 0;
  t.varianceTmpTensorSize = is_half ? b * s : 0;
  t.tmpBufSize = is_half ? t.varianceTmpTensorPos + (b * s + 7) / 8 * 8 : bufs * one;
  const uint32_t bs = b * s;
  t.loopRound = bs / rows_per_chunk;
  t.inputRoundSize = one;
  t.meanVarRoundSize = rows_per_chunk;
  t.meanVarTailSize = bs % rows_per_chunk;
  t.inputTailSize = t.meanVarTailSize * h;
  t.inputTailPos = t.loopRound * one;
  t.meanVarTailPos = t.loopRound * rows_per_chunk;
  t.bshCurLength = one;
  t.bsCurLength = rows_per_chunk;
  t.lastDimValueBack = 1.0f / static_cast<float>(h);
  return t;
}

// Sections of the data/*.txt documentation examples: a name line, then one line of values.
inline std::map<std::string, std::vector<float>> LoadExample(const std::string& file) {
  std::ifstream in(std::string(LNGRAD_DATA_DIR) + "/" + file);
  std::map<std::string, std::vector<float>> out;
  std::string line, name;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (name.empty()) {
      std::istringstream ss(line);
      ss >> name;
      continue;
    }
    std::istringstream ss(line);
    std::vector<float> v;
    float f;
    while (ss >> f) v.push_back(f);
    out[name] = v;
    name.clear();
  }
  return out;
}

inline std::vector<Half> ToHalf(const std::vector<float>& v) {
  std::vector<Half> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) h[i] = Half(v[i]);
  return h;
}

// v as an operand of type T: float as it is, Half rounded to nearest (ToHalf).
template <typename T>
std::vector<T> AsType(const std::vector<float>& v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    return ToHalf(v);
  }
}

// Row means and biased variances of x (as the sample's gen_data.py: float32 inputs, computed in
// float64 and rounded once).
inline void RowStats(const std::vector<float>& x, size_t rows, size_t h, std::vector<float>* mean,
                     std::vector<float>* var) {
  mean->assign(rows, 0.0f);
  var->assign(rows, 0.0f);
  for (size_t r = 0; r < rows; ++r) {
    double m = 0;
    for (size_t c = 0; c < h; ++c) m += x[r * h + c];
    m /= static_cast<double>(h);
    double v = 0;
    for (size_t c = 0; c < h; ++c) v += (x[r * h + c] - m) * (x[r * h + c] - m);
    (*mean)[r] = static_cast<float>(m);
    (*var)[r] = static_cast<float>(v / static_cast<double>(h));
  }
}

// Bit comparisons and Uniform: the instruction-set tests' (tests/aicore/bits_test_util.h).
using aicore::testing::FirstBitDifference;
using aicore::testing::SameBits;
using aicore::testing::Uniform;

// The whole of `v` as an operand; WholeIn for the operands the API only reads.
template <typename T>
Buffer<T> Whole(std::vector<T>& v) {
  return {v.data(), v.size()};
}
template <typename T>
Buffer<const T> WholeIn(const std::vector<T>& v) {
  return {v.data(), v.size()};
}

// Owns every buffer of one LayerNorm call: x in [-100, 100], gamma and beta in [-2, 2] (seeds
// seed, +1, +2), the outputs zeroed, `scratch_floats` floats of scratch filled with 7.
template <typename T>
struct NormCase {
  uint32_t b, s, h;
  std::vector<T> x, gamma, beta, out, mean, var;
  std::vector<float> scratch;
  NormCase(uint32_t b_, uint32_t s_, uint32_t h_, uint32_t seed, size_t scratch_floats)
      : b(b_), s(s_), h(h_) {
    x = AsType<T>(Uniform(size_t{b} * s * h, -100.0f, 100.0f, seed));
    gamma = AsType<T>(Uniform(h, -2.0f, 2.0f, seed + 1));
    beta = AsType<T>(Uniform(h, -2.0f, 2.0f, seed + 2));
    out.assign(x.size(), T{});
    mean.assign(size_t{b} * s, T{});
    var.assign(size_t{b} * s, T{});
    scratch.assign(scratch_floats, 7.0f);
  }
  LayerNormOperands<T> Operands() {
    return {.output = Whole(out),
            .outputMean = Whole(mean),
            .outputVariance = Whole(var),
            .inputX = Whole(x),
            .gamma = WholeIn(gamma),
            .beta = WholeIn(beta),
            .scratch = Whole(scratch)};
  }
};

}  // namespace lngrad::adv::testing
