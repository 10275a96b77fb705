// Host side of the faithfulness tests: run AscendC::LayerNormGrad / LayerNormGradBeta once in a
// device-style kernel (harness_kernels.cpp) on a chosen simulated product, and run the
// independent replay (tests/replay) on the same inputs and tiling.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "harness_params.h"
#include "lngrad/half.h"
#include "lngrad/status.h"
#include "replay.h"

namespace faithful {

enum class Proto { kSharedTmpBuffer, kStack };

// Element storage of a float or half tensor.
struct Tensor {
  bool half = false;
  std::vector<uint8_t> bytes;
  size_t size() const { return bytes.size() / (half ? 2 : 4); }
  double At(size_t i) const {
    if (half) {
      uint16_t b;
      std::memcpy(&b, bytes.data() + 2 * i, 2);
      return lngrad::HalfBitsToFloat(b);
    }
    float f;
    std::memcpy(&f, bytes.data() + 4 * i, 4);
    return f;
  }
  bool operator==(const Tensor& o) const { return half == o.half && bytes == o.bytes; }
};
// Values rounded to float or half (round to nearest even).
Tensor MakeTensor(bool half, const std::vector<double>& values);
std::vector<double> Values(const Tensor& t);
// Index of the first differing element, or -1.
int64_t FirstDifference(const Tensor& a, const Tensor& b);

// What every case names: the simulated product, T, isReuseSource, the prototype and the shape
// [1, rows, h].
struct CaseBase {
  std::string soc;
  bool half = false;
  bool reuse = false;
  Proto proto = Proto::kSharedTmpBuffer;
  uint32_t rows = 0, h = 0;
};

struct GradCase : CaseBase {
  AscendC::tiling::LayerNormGradTiling tiling;
  uint32_t tmp_buffer_bytes = 0;  // kSharedTmpBuffer: the TBuf's size
  uint32_t scratch_bytes = 0;     // scratch bytes compared (a multiple of 32; <= the TBuf)
  Tensor dy, x, variance, mean, gamma;
  uint32_t epsilon_bits = 0;  // float bits, or half bits
  bool nd_format = true;      // false: shapeInfo.dataFormat = NZ
};

struct GradResult {
  Tensor pd_x, res_for_gamma;
  Tensor dy, x, variance, mean, gamma;  // the inputs after the call
  std::vector<float> scratch;           // scratch_bytes / 4 floats
};

// Runs the API in the harness kernel (checked mode on). Error: the launcher's status.
lngrad::Status RunGrad(const GradCase& c, GradResult* out);
// The replay on copies of the same inputs (arch 3510 algorithm for arch 3510 products).
GradResult ReplayGrad(const GradCase& c);

struct BetaCase : CaseBase {
  AscendC::tiling::LayerNormGradBetaTiling tiling;
  uint32_t tmp_buffer_bytes = 0;
  uint32_t scratch_bytes = 0;
  Tensor res_for_gamma, dy;
};

struct BetaResult {
  Tensor pd_gamma, pd_beta;
  Tensor res_for_gamma, dy;  // after the call
  std::vector<float> scratch;
};

lngrad::Status RunBeta(const BetaCase& c, BetaResult* out);
BetaResult ReplayBeta(const BetaCase& c);

// Whether the product runs the register-based (arch 3510) algorithm.
bool IsArch3510(const std::string& soc);

}  // namespace faithful
