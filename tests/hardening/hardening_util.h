// Helpers of the hardening tests: problem data, the native and the simulated-device
// LayerNormGrad on the same inputs, and element access for float and Half alike.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "element.h"
#include "row_stats.h"
#include "ops/layernorm_grad_op.h"
#include "lngrad/half.h"
#include "lngrad/lngrad.h"

namespace lngrad::hardening {

inline constexpr double kU = 0x1p-24;

using test::FromDouble;
using test::ToDouble;

// One LayerNormGrad problem [rows, h] with its outputs.
template <typename T>
struct Problem {
  int64_t rows, h;
  std::vector<T> dy, x, mean, var, gamma, pd_x, res;

  Problem(int64_t r, int64_t hh, uint32_t seed) : rows(r), h(hh) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    dy.resize(rows * h);
    x.resize(rows * h);
    mean.resize(rows);
    var.resize(rows);
    gamma.resize(h);
    for (auto& v : dy) v = FromDouble<T>(u(rng));
    for (auto& v : x) v = FromDouble<T>(u(rng));
    for (auto& v : gamma) v = FromDouble<T>(u(rng));
    test::RowStats(x.data(), rows, h, mean.data(), var.data());
    ClearOutputs();
  }
  void ClearOutputs() {
    pd_x.assign(rows * h, FromDouble<T>(-7.0));
    res.assign(rows * h, FromDouble<T>(-7.0));
  }
  Status RunNative(float epsilon, const Options& options = {}) {
    return LayerNormGrad({rows, h}, dy.data(), x.data(), mean.data(), var.data(), gamma.data(),
                         epsilon, pd_x.data(), res.data(), options);
  }
  // Through the example operator's kernel (AscendC::LayerNormGrad on the simulated device).
  // rows = b*s with b = 1. The kernel passes epsilon to the API as T.
  Status RunDevice(float epsilon, uint32_t blocks = 2, const std::string& soc = "Ascend910B1",
                   bool sequential = false) {
    ops::LayerNormGradOpArgs a;
    a.SetShape(sizeof(T) == 2 ? ops::OpDType::kFloat16 : ops::OpDType::kFloat32, 1, rows, h);
    a.SetTensors(dy.data(), x.data(), mean.data(), var.data(), gamma.data(), pd_x.data(),
                 res.data());
    a.epsilon = epsilon;
    a.launch.blocks = blocks;
    a.launch.soc = soc;
    a.launch.sequential = sequential;
    return ops::RunLayerNormGradOp(a);
  }
};

template <typename T>
bool SameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace lngrad::hardening
