// lngrad: AscendC::BatchNorm over [B, S, H] (the toolkit's adv_api/normalization/batchnorm.h):
// per column of S*H, mean and variance over the B rows, y = gamma[b] * (x - mean) * rstd +
// beta[b]; gamma and beta have B elements, outputMean and outputVariance S*H. Both prototypes:
//
//   BatchNorm<T, isReuseSource, isBasicBlock>(output, outputMean, outputVariance, inputX, gamm,
//                                             beta, sharedTmpBuffer, epsilon, tiling);
//   BatchNorm<T, isReuseSource, isBasicBlock>(..., beta, epsilon, tiling);  // PopStackBuffer
//
// T = half or float; tiling from GetBatchNormNDTilingInfo. Arch 2201/2002
// (batchnorm_common_impl.h), column chunk by column chunk (shCurLength columns, B rows, float
// buffers A, B, C of the scratch; half: x cast into A, mean and variance staged in float):
//   C = x * (1/B); mean = C[0] + C[1] + ... (row by row, in order);
//   C = x - mean; var = sum over rows of ((C * C) * (1/B));
//   rstd = Exp(Ln(var + eps) * -0.5); y = beta[b] + gamma[b] * (C * rstd)
// (half: gamma and beta cast to float, y cast back; mean and variance cast per chunk). A tail
// chunk leaves bshCurLength / shCurLength / shCurLengthBlockNum in the caller's tiling.
// isBasicBlock broadcasts gamma[b] and beta[b] over a chunk row as BrcFirstDim does: 2201's Brcb
// (batchnorm_v220_impl.h) writes the value into columns [0, 8), 2002's TransDataTo5HD
// (batchnorm_v200_impl.h) into [0, 16), and Adds(+0) copies the rest (a -0 becomes +0 there);
// the generic path's Duplicate writes the value everywhere.
// Arch 3510 (batchnorm_3510_impl.h), 64 columns at a time over all S*H: mean = 0 + x*(1/B) row by
// row; var = (0 + (x - mean)^2 row by row) * (1/B); y = ((rstd * (x - mean)) * gamma[b]) +
// beta[b], rstd as above; the float mean and variance in the scratch (2 * S*H floats).
//
// Always raised: operands shorter than the tiling's sizes, a scratch below tmpBufSize / the
// layout, a basic-block call with B % 8 or S*H % 64 != 0. Checked mode adds the tensor checks.
#pragma once

#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/norm_ext_common.h"

namespace lngrad::adv::ext {

struct BatchNormBuffers {
  float* a;
  float* b;
  float* c;
  float* mean;  // the call's float mean / variance (the outputs for float)
  float* var;
};

// Row r of the gamma / beta broadcast: w columns of v, those from rawCols on passed through
// Adds(+0) (rawCols 0: none, the generic path's Duplicate).
inline void BroadcastRow(const Ops& ops, float* row, float v, uint32_t w, uint32_t rawCols) {
  ops.Fill(row, v, w);
  if (rawCols != 0 && w > rawCols) ops.Adds(row + rawCols, row + rawCols, 0.0f, w - rawCols);
}

// One column chunk of the vector path: columns [c0, c0 + w) of every row. rawCols: the basic
// block's broadcast (8 on 2201, 16 on 2002), 0 for the generic path.
template <typename D>
void BatchNormVectorChunk(const BatchNormTiling& t, const BatchNormBuffers& m, const D* x,
                          const D* gamma, const D* beta, D* y, D* outMean, D* outVar, float eps,
                          uint32_t c0, uint32_t rawCols) {
  using lngrad::aicore::UnaryOp;
  const Ops& ops = StepOps();
  const uint32_t rows = t.originalBLength;
  const uint32_t w = t.shCurLength;
  const uint64_t f = t.meanVarSize;
  const uint64_t n = uint64_t{rows} * w;
  float* mean = m.mean + c0;
  float* var = m.var + c0;
  const float* xs = nullptr;  // the rows' floats: x itself (row stride f) or A (stride w)
  uint64_t xstride = f;
  if constexpr (std::is_same_v<D, float>) {
    xs = x + c0;
  } else {
    for (uint32_t r = 0; r < rows; ++r) ToFloat(m.a + uint64_t{r} * w, x + r * f + c0, w);
    xs = m.a;
    xstride = w;
  }
  for (uint32_t r = 0; r < rows; ++r) {
    ops.Muls(m.c + uint64_t{r} * w, xs + r * xstride, t.firstDimValueBack, w);
  }
  std::memmove(mean, m.c, uint64_t{w} * 4);
  for (uint32_t r = 1; r < rows; ++r) ops.Add(mean, mean, m.c + uint64_t{r} * w, w);
  if constexpr (!std::is_same_v<D, float>) FromFloat(outMean + c0, mean, w);
  for (uint32_t r = 0; r < rows; ++r) ops.Sub(m.c + uint64_t{r} * w, xs + r * xstride, mean, w);
  ops.Mul(m.b, m.c, m.c, n);
  ops.Muls(m.a, m.b, t.firstDimValueBack, n);
  std::memmove(var, m.a, uint64_t{w} * 4);
  for (uint32_t r = 1; r < rows; ++r) ops.Add(var, var, m.a + uint64_t{r} * w, w);
  if constexpr (!std::is_same_v<D, float>) FromFloat(outVar + c0, var, w);
  ops.Adds(m.a, var, eps, w);
  ops.Unary(UnaryOp::kLn, m.b, m.a, w);
  ops.Muls(m.a, m.b, -0.5f, w);
  ops.Unary(UnaryOp::kExp, m.b, m.a, w);
  for (uint32_t r = 0; r < rows; ++r) ops.Mul(m.c + uint64_t{r} * w, m.c + uint64_t{r} * w, m.b, w);
  float g[1];
  for (uint32_t r = 0; r < rows; ++r) {
    ToFloat(g, gamma + r, 1);
    BroadcastRow(ops, m.b + uint64_t{r} * w, g[0], w, rawCols);
  }
  ops.Mul(m.c, m.b, m.c, n);
  for (uint32_t r = 0; r < rows; ++r) {
    ToFloat(g, beta + r, 1);
    BroadcastRow(ops, m.b + uint64_t{r} * w, g[0], w, rawCols);
  }
  if constexpr (std::is_same_v<D, float>) {
    for (uint32_t r = 0; r < rows; ++r) {
      ops.Add(y + r * f + c0, m.b + uint64_t{r} * w, m.c + uint64_t{r} * w, w);
    }
  } else {
    ops.Add(m.b, m.b, m.c, n);
    for (uint32_t r = 0; r < rows; ++r) FromFloat(y + r * f + c0, m.b + uint64_t{r} * w, w);
  }
}

template <typename D>
void BatchNormRegAll(const BatchNormTiling& t, const D* x, const D* gamma, const D* beta, D* y,
                     D* outMean, D* outVar, float* tmp, float eps) {
  using lngrad::aicore::UnaryOp;
  const Ops& ops = StepOps();
  const uint32_t rows = t.originalBLength;
  const uint64_t f = t.meanVarSize;
  float* mean = tmp;
  float* var = tmp + f;
  float v[kLanes], d[kLanes], r[kLanes], g[1], b[1];
  for (uint64_t j = 0; j < f; j += kLanes) {
    const uint32_t m = static_cast<uint32_t>(std::min<uint64_t>(kLanes, f - j));
    ops.Fill(mean + j, 0.0f, m);
    ops.Fill(var + j, 0.0f, m);
    for (uint32_t row = 0; row < rows; ++row) {
      ToFloat(v, x + row * f + j, m);
      ops.Muls(v, v, t.firstDimValueBack, m);
      ops.Add(mean + j, mean + j, v, m);
    }
    FromFloat(outMean + j, mean + j, m);
    for (uint32_t row = 0; row < rows; ++row) {
      ToFloat(v, x + row * f + j, m);
      ops.Sub(d, v, mean + j, m);
      ops.Mul(d, d, d, m);
      ops.Add(var + j, var + j, d, m);
    }
    ops.Muls(var + j, var + j, t.firstDimValueBack, m);
    FromFloat(outVar + j, var + j, m);
  }
  for (uint64_t j = 0; j < f; j += kLanes) {
    const uint32_t m = static_cast<uint32_t>(std::min<uint64_t>(kLanes, f - j));
    for (uint32_t row = 0; row < rows; ++row) {
      ToFloat(g, gamma + row, 1);
      ToFloat(b, beta + row, 1);
      ToFloat(v, x + row * f + j, m);
      ops.Adds(r, var + j, eps, m);
      ops.Unary(UnaryOp::kLn, r, r, m);
      ops.Muls(r, r, -0.5f, m);
      ops.Unary(UnaryOp::kExp, r, r, m);
      ops.Sub(d, v, mean + j, m);
      ops.Mul(r, r, d, m);
      ops.Muls(r, r, g[0], m);
      ops.Adds(r, r, b[0], m);
      FromFloat(y + row * f + j, r, m);
    }
  }
}

// Floats of scratch the call uses.
inline uint64_t BatchNormScratchFloats(const BatchNormTiling& t, bool reg) {
  if (reg) return 2ull * t.meanVarSize;
  return std::max<uint64_t>(t.tmpBufSize, uint64_t{t.thirdTmpStartPos} + t.oneTmpSize);
}

}  // namespace lngrad::adv::ext

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                                 BatchNormTiling& tiling,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "BatchNorm only support data type: float/half");
  namespace ne = lngrad::adv::ext;
  namespace nd = lngrad::adv::detail;
  constexpr const char* kApi = "BatchNorm";
  if ASCEND_IS_AIC {
    return;
  }
  ne::RequireProduct(kApi);
  BatchNormTiling& t = tiling;
  const bool reg = ne::RegBase();
  if (lngrad::aicore::CheckedMode()) {
    nd::CheckTensors(kApi, "output", output, "outputMean", outputMean, "outputVariance",
                     outputVariance, "inputX", inputX, "gamm", gamm, "beta", beta,
                     "sharedTmpBuffer", sharedTmpBuffer);
  }
  const uint64_t f = t.meanVarSize;
  const uint64_t bsh = uint64_t{t.originalBLength} * f;
  ne::Require(t.originalBLength > 0 && f > 0, kApi, "tiling",
              "originalBLength and S*H must be > 0");
  if (isBasicBlock) {
    ne::Require(t.originalBLength % 8 == 0 && f % 64 == 0, kApi, "basic_block",
                "isBasicBlock needs originalBLength % 8 == 0 and S*H % 64 == 0");
  }
  if (!reg) {
    ne::Require(
        t.shCurLength > 0 &&
            uint64_t{t.loopRound} * t.shCurLength + t.inputTailSize / t.originalBLength == f,
        kApi, "tiling", "the tiling's column chunks do not cover S*H");
  }
  ne::CheckHolds(kApi, "inputX", inputX, bsh);
  ne::CheckHolds(kApi, "output", output, bsh);
  ne::CheckHolds(kApi, "outputMean", outputMean, f);
  ne::CheckHolds(kApi, "outputVariance", outputVariance, f);
  ne::CheckHolds(kApi, "gamm", gamm, t.originalBLength);
  ne::CheckHolds(kApi, "beta", beta, t.originalBLength);
  const uint64_t scratch = ne::BatchNormScratchFloats(t, reg) * 4;
  ne::CheckScratch(kApi, sharedTmpBuffer, scratch, reg ? "2 * S*H floats" : "tiling.tmpBufSize");
  ne::Record(kApi, loc,
             {{inputX.HostPtr(), bsh * sizeof(T), false},
              {gamm.HostPtr(), uint64_t{t.originalBLength} * sizeof(T), false},
              {beta.HostPtr(), uint64_t{t.originalBLength} * sizeof(T), false},
              {sharedTmpBuffer.HostPtr(), scratch, true},
              {output.HostPtr(), bsh * sizeof(T), true},
              {outputMean.HostPtr(), f * sizeof(T), true},
              {outputVariance.HostPtr(), f * sizeof(T), true}});
  const auto* x = ne::Ptr(inputX);
  const auto* g = ne::Ptr(gamm);
  const auto* b = ne::Ptr(beta);
  auto* y = ne::Ptr(output);
  auto* om = ne::Ptr(outputMean);
  auto* ov = ne::Ptr(outputVariance);
  float* stack = reinterpret_cast<float*>(sharedTmpBuffer.HostPtr());
  const float eps = ne::ScalarOf(epsilon);
  if (reg) {
    ne::BatchNormRegAll(t, x, g, b, y, om, ov, stack, eps);
    return;
  }
  ne::BatchNormBuffers m{stack + t.firstTmpStartPos, stack + t.secondTmpStartPos,
                         stack + t.thirdTmpStartPos, nullptr, nullptr};
  if constexpr (std::is_same_v<T, float>) {
    m.mean = om;
    m.var = ov;
  } else {
    m.mean = stack + t.meanTmpTensorPos;
    m.var = stack + t.varianceTmpTensorPos;
  }
  const bool arch2002 = lngrad::aicore::CurrentBlockProduct().arch == lngrad::NpuArch::k2002;
  const uint32_t rawCols = !isBasicBlock ? 0 : (arch2002 ? 16 : 8);
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    ne::BatchNormVectorChunk(t, m, x, g, b, y, om, ov, eps, i * t.shCurLength, rawCols);
  }
  if (t.inputTailSize > 0) {
    t.bshCurLength = t.inputTailSize;
    t.shCurLength = t.meanVarTailSize;
    t.shCurLengthBlockNum = t.shCurLength / 8;
    ne::BatchNormVectorChunk(t, m, x, g, b, y, om, ov, eps, t.inputTailPos, rawCols);
  }
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
                                 const T epsilon, BatchNormTiling& tiling,
                                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if ASCEND_IS_AIC {
    return;
  }
  const LocalTensor<uint8_t> stack = lngrad::adv::detail::PopStackBufferFor("BatchNorm");
  BatchNorm<T, isReuseSource, isBasicBlock>(output, outputMean, outputVariance, inputX, gamm, beta,
                                            stack, epsilon, tiling, loc);
}

}  // namespace AscendC
