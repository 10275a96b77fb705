// The computations behind `lngrad run`: LayerNormGrad followed by LayerNormGradBeta, on the
// native library or on the simulated Ascend device. Inputs are validated by run.cpp first.
#pragma once

#include <cstdint>
#include <string>

#include "io/json.h"
#include "io/tensor.h"
#include "lngrad/lngrad.h"
#include "lngrad/product.h"
#include "lngrad/status.h"

namespace lngrad::cli {

class Progress;

enum class RunImpl { kAscendc, kNative };

// How much scratch the device path gives LayerNormGrad / LayerNormGradBeta: the minimum or
// maximum from Get*MaxMinTmpSize, or a byte count.
struct TmpChoice {
  enum Kind { kMin, kMax, kBytes } kind = kMin;
  uint32_t bytes = 0;
};

// Validated inputs: every tensor has `dtype` (float16 or float32); dy and x hold b*s rows of h
// elements, mean and variance b*s values, gamma h values.
struct RunInputs {
  io::DType dtype = io::DType::kFloat32;
  int64_t b = 0, s = 0, h = 0;
  io::Tensor dy, x, mean, variance, gamma;
  float epsilon = 0;
};

struct RunConfig {
  RunImpl impl = RunImpl::kAscendc;
  const lngrad::Product* product = nullptr;  // device path: the simulated product
  bool reuse_source = false;                 // device path: isReuseSource
  TmpChoice tmp;                             // device path: scratch size
  int blocks = 1;                            // device path: AI cores the rows are split over
  Progress* progress = nullptr;              // optional
  HalfEval half_eval = HalfEval::kFast;      // native path, half data
};

// Outputs in the input dtype: pd_x and res_for_gamma [b*s*h], dgamma and dbeta [h] (flat; the
// caller gives them their file shapes). `details` describes the path taken (for the report).
struct RunOutputs {
  io::Tensor pd_x, res_for_gamma, dgamma, dbeta;
  io::Json details = io::Json::object();

  // Zeroed outputs for `in`.
  static RunOutputs For(const RunInputs& in) {
    RunOutputs o;
    const int64_t n = in.b * in.s * in.h;
    o.pd_x = io::Tensor(in.dtype, {n});
    o.res_for_gamma = io::Tensor(in.dtype, {n});
    o.dgamma = io::Tensor(in.dtype, {in.h});
    o.dbeta = io::Tensor(in.dtype, {in.h});
    return o;
  }
};

// lngrad::LayerNormGrad then lngrad::LayerNormGradBeta on res_for_gamma (any h >= 1).
Status RunNative(const RunInputs& in, const RunConfig& config, RunOutputs* out);

// AscendC::LayerNormGrad then AscendC::LayerNormGradBeta through the operator sample on the
// simulated product `config.product`. run.cpp has already checked that the product supports
// both APIs and that h * sizeof(dtype) is a multiple of 32 bytes.
Status RunAscendc(const RunInputs& in, const RunConfig& config, RunOutputs* out);

}  // namespace lngrad::cli
