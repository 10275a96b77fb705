// lngrad: AscendC::DeepNorm over [B, S, H] (the toolkit's adv_api/normalization/deepnorm.h):
// LayerNorm(alpha * x + gx) with mean and variance outputs. Both prototypes:
//
//   DeepNorm<T, isReuseSrc, isBasicBlock>(dst, mean, rstd, src, gx, beta, gamma,
//                                          sharedTmpBuffer, alpha, epsilon, tiling);
//   DeepNorm<T, isReuseSrc, isBasicBlock>(dst, mean, rstd, src, gx, beta, gamma, alpha,
//                                          epsilon, tiling);  // scratch from PopStackBuffer
//
// T = half or float; tiling from GetDeepNormTilingInfo (the third output is the variance).
// Arch 2201/2002 (deepnorm_common_impl.h), chunk by chunk as the tiling says, in float buffers
// A, B, C of the scratch (float + isReuseSrc: A is src itself, overwritten with x1):
//   x1 = gx + x * alpha (half: both cast to float first);
//   mean = tree(x1 * (1/H)); variance = tree(((x1 - mean)^2) * (1/H)) — repeated 64-lane trees
//   over originalHLength per row (isBasicBlock: 64-column blocks added first, one tree);
//   rstd = 1 / sqrt(variance + eps); y = ((x1 - mean) * rstd) * gamma + beta (half: gamma and
//   beta cast to float, y cast back; mean and variance staged in float, cast at the end).
// A tail chunk leaves its lengths in tiling.bshCurLength / bsCurLength, as the device does.
// Arch 3510 (deepnorm_3510_impl.h), row by row over hLength columns, x1 = fma(x, alpha, gx)
// (the register Axpy, rounded once): lane sums of x1 / H, one tree (mean); lane sums of
// ((x1 - mean)^2) / H, one tree (variance); y = ((x1 - mean) / sqrt(variance + eps)) * gamma
// + beta; no scratch.
//
// Always raised: operands shorter than the tiling's sizes, oneTmpSize == 0, a scratch below
// tmpBufSize or the layout, isReuseSrc with half, a basic-block call with H or originalH % 64 or
// B*S % 8 != 0. Checked mode also raises the CPU-debug tensor checks.
#pragma once

#include <cmath>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/norm_ext_common.h"

namespace lngrad::adv::ext {

struct DeepNormBuffers {
  float* a;
  float* b;
  float* c;
  float* mean;  // float mean / variance for the whole call (outputs for float)
  float* var;
};

// Row sums of src (bs rows of h) into out[r]; the partial sums in src.
template <bool isBasicBlock>
void DeepNormReduce(float* out, float* src, uint32_t bs, uint32_t h, uint32_t origH) {
  for (uint32_t r = 0; r < bs; ++r) {
    float* row = src + uint64_t{r} * h;
    out[r] = isBasicBlock ? BlockFoldTree(row, h) : PassTrees(row, origH);
  }
}

template <typename D, bool isBasicBlock>
void DeepNormVectorChunk(const DeepNormTiling& t, const DeepNormBuffers& w, const D* x, const D* gx,
                         const D* gamma, const D* beta, D* y, float alpha, float eps,
                         uint64_t bs0) {
  using lngrad::aicore::BinaryOp;
  using lngrad::aicore::ScalarOp;
  const Ops& ops = StepOps();
  const uint32_t h = t.hLength;
  const uint64_t n = t.bshCurLength;
  const uint32_t bs = t.bsCurLength;
  if constexpr (std::is_same_v<D, float>) {
    ops.Muls(w.b, x, alpha, n);
    ops.Add(w.a, gx, w.b, n);
  } else {
    ToFloat(w.a, x, n);
    ToFloat(w.c, gx, n);
    ops.Muls(w.a, w.a, alpha, n);
    ops.Add(w.a, w.c, w.a, n);
  }
  float* mean = w.mean + bs0;
  float* var = w.var + bs0;
  ops.Muls(w.c, w.a, t.lastDimValueBack, n);
  DeepNormReduce<isBasicBlock>(mean, w.c, bs, h, t.originalHLength);
  for (uint32_t r = 0; r < bs; ++r) {
    // Adds with the negated mean, as the device does (x + (-m) == x - m in IEEE).
    ops.Adds(w.b + uint64_t{r} * h, w.a + uint64_t{r} * h, -mean[r], h);
  }
  ops.Mul(w.c, w.b, w.b, n);
  ops.Muls(w.a, w.c, t.lastDimValueBack, n);
  DeepNormReduce<isBasicBlock>(var, w.a, bs, h, t.originalHLength);
  ops.Adds(w.a, var, eps, bs);
  ops.Fill(w.c, 1.0f, bs);
  ops.Sqrt(w.a, w.a, bs);
  ops.Div(w.a, w.c, w.a, bs);
  RowScalar(ScalarOp::kMuls, w.c, w.b, w.a, bs, h);
  if (isBasicBlock && t.oneTmpSize % (h * 8) == 0 && bs > h / kLanes) {
    // deepnorm_v220_impl.h's Brcb path (a scratch of 8·H·k floats, more rows than 64-blocks):
    // the product goes to A and reaches C through Adds(+0), which turns -0 into +0.
    ops.Adds(w.c, w.c, 0.0f, n);
  }
  if constexpr (std::is_same_v<D, float>) {
    RowVector(BinaryOp::kMul, w.a, w.c, gamma, bs, h);
    RowVector(BinaryOp::kAdd, y, w.a, beta, bs, h);
  } else {
    ToFloat(w.a, gamma, h);
    RowVector(BinaryOp::kMul, w.b, w.c, w.a, bs, h);
    ToFloat(w.c, beta, h);
    RowVector(BinaryOp::kAdd, w.a, w.b, w.c, bs, h);
    FromFloat(y, w.a, n);
  }
}

// x1 = gx + x * alpha as the 950's register Axpy: one fused multiply-add, rounded once (the
// choice every API on that instruction shares: Axpy, Power, LayerNorm's 3510 utils).
inline void RegAxpy(float* x, const float* gx, float alpha, uint32_t m) {
  for (uint32_t i = 0; i < m; ++i) x[i] = std::fma(x[i], alpha, gx[i]);
}

// Lane sums of f(x1 chunk) over one row (inactive tail lanes add +0), then one tree.
template <typename D, class F>
float DeepNormLaneSum(const D* x, const D* gx, uint32_t h, float alpha, F&& f) {
  const Ops& ops = StepOps();
  float acc[kLanes], v[kLanes], g[kLanes];
  std::fill(acc, acc + kLanes, 0.0f);
  for (uint32_t j = 0; j < h; j += kLanes) {
    const uint32_t m = std::min(kLanes, h - j);
    std::fill(v, v + kLanes, 0.0f);
    ToFloat(v, x + j, m);
    ToFloat(g, gx + j, m);
    RegAxpy(v, g, alpha, m);
    f(v, m);
    ops.Add(acc, acc, v, kLanes);
  }
  return Tree(acc, kLanes);
}

template <typename D>
void DeepNormRegRows(const DeepNormTiling& t, const D* x, const D* gx, const D* gamma,
                     const D* beta, D* y, D* outMean, D* outVar, float alpha, float eps) {
  const Ops& ops = StepOps();
  const uint32_t h = t.hLength;
  const float hDim = static_cast<float>(h);
  const uint64_t rows = uint64_t{t.bLength} * t.sLength;
  float v[kLanes], g[kLanes], sd[kLanes];
  for (uint64_t r = 0; r < rows; ++r) {
    const D* xr = x + r * h;
    const D* gr = gx + r * h;
    const float mean =
        DeepNormLaneSum(xr, gr, h, alpha, [&](float* a, uint32_t m) { ops.Divs(a, a, hDim, m); });
    FromFloat(outMean + r, &mean, 1);
    const float var = DeepNormLaneSum(xr, gr, h, alpha, [&](float* a, uint32_t m) {
      ops.Subs(a, a, mean, m);
      ops.Mul(a, a, a, m);
      ops.Divs(a, a, hDim, m);
    });
    FromFloat(outVar + r, &var, 1);
    std::fill(sd, sd + kLanes, var);
    ops.Adds(sd, sd, eps, kLanes);
    ops.Sqrt(sd, sd, kLanes);
    for (uint32_t j = 0; j < h; j += kLanes) {
      const uint32_t m = std::min(kLanes, h - j);
      ToFloat(v, xr + j, m);
      ToFloat(g, gr + j, m);
      RegAxpy(v, g, alpha, m);
      ops.Subs(v, v, mean, m);
      ops.Div(v, v, sd, m);
      ToFloat(g, gamma + j, m);
      ops.Mul(v, v, g, m);
      ToFloat(g, beta + j, m);
      ops.Add(v, v, g, m);
      FromFloat(y + r * h + j, v, m);
    }
  }
}

// Floats of scratch the tiling's layout reaches (vector path).
inline uint64_t DeepNormScratchFloats(const DeepNormTiling& t, bool half, bool reuse) {
  uint64_t end =
      uint64_t{(half || !reuse) ? t.thirdTmpStartPos : t.secondTmpStartPos} + t.oneTmpSize;
  if (half) {
    end = std::max(end, uint64_t{t.meanTmpTensorPos} + t.meanVarSize);
    end = std::max(end, uint64_t{t.varianceTmpTensorPos} + t.meanVarSize);
  }
  return end;
}

}  // namespace lngrad::adv::ext

namespace AscendC {

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T alpha,
                                const T epsilon, DeepNormTiling& tiling,
                                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "DeepNorm only support data type: float/half");
  namespace ne = lngrad::adv::ext;
  namespace nd = lngrad::adv::detail;
  constexpr const char* kApi = "DeepNorm";
  constexpr bool kHalf = std::is_same_v<T, half>;
  if ASCEND_IS_AIC {
    return;
  }
  ne::RequireProduct(kApi);
  DeepNormTiling& t = tiling;
  const bool reg = ne::RegBase();
  if (reg && isReuseSrc) {
    ne::Require(!kHalf, kApi, "reuse_source", "isReuseSrc is only supported for float");
  }
  if (lngrad::aicore::CheckedMode()) {
    nd::CheckTensors(kApi, "dstLocal", dstLocal, "meanLocal", meanLocal, "rstdLocal", rstdLocal,
                     "srcLocal", srcLocal, "gxLocal", gxLocal, "betaLocal", betaLocal, "gammaLocal",
                     gammaLocal);
    if (!reg) nd::CheckTensor(kApi, "sharedTmpBuffer", sharedTmpBuffer);
  }
  ne::Require(t.oneTmpSize > 0, kApi, "tiling", "tiling.oneTmpSize must > 0!");
  ne::Require(t.hLength > 0 && t.originalHLength <= t.hLength, kApi, "tiling",
              "tiling needs 0 < originalHLength <= hLength");
  if (isBasicBlock) {
    ne::Require(t.hLength % 64 == 0 && t.originalHLength % 64 == 0 &&
                    (uint64_t{t.bLength} * t.sLength) % 8 == 0,
                kApi, "basic_block",
                "when isBasicBlock is true, input must have hLength % 64 = 0, originalHLength % "
                "64 = 0 and (bLength * sLength) % 8 = 0");
  }
  const uint64_t bs = uint64_t{t.bLength} * t.sLength;
  const uint64_t bsh = bs * t.hLength;
  ne::CheckHolds(kApi, "srcLocal", srcLocal, bsh);
  ne::CheckHolds(kApi, "gxLocal", gxLocal, bsh);
  ne::CheckHolds(kApi, "dstLocal", dstLocal, bsh);
  ne::CheckHolds(kApi, "meanLocal", meanLocal, bs);
  ne::CheckHolds(kApi, "rstdLocal", rstdLocal, bs);
  ne::CheckHolds(kApi, "gammaLocal", gammaLocal, t.hLength);
  ne::CheckHolds(kApi, "betaLocal", betaLocal, t.hLength);
  uint64_t scratch = 0;
  if (!reg) {
    ne::Require(t.inputXSize == bsh && t.meanVarSize == bs &&
                    uint64_t{t.loopRound} * t.inputRoundSize + t.inputTailSize == bsh,
                kApi, "tiling", "the tiling's sizes do not match B*S*H");
    ne::CheckScratch(kApi, sharedTmpBuffer, uint64_t{t.tmpBufSize} * 4, "tiling.tmpBufSize");
    scratch = ne::DeepNormScratchFloats(t, kHalf, isReuseSrc) * 4;
    ne::CheckScratch(kApi, sharedTmpBuffer, scratch, "the tiling's layout");
  }
  ne::Record(kApi, loc,
             {{srcLocal.HostPtr(), bsh * sizeof(T), false},
              {gxLocal.HostPtr(), bsh * sizeof(T), false},
              {gammaLocal.HostPtr(), uint64_t{t.hLength} * sizeof(T), false},
              {betaLocal.HostPtr(), uint64_t{t.hLength} * sizeof(T), false},
              {sharedTmpBuffer.HostPtr(), scratch, true},
              {srcLocal.HostPtr(), isReuseSrc && !kHalf && !reg ? bsh * sizeof(T) : 0, true},
              {dstLocal.HostPtr(), bsh * sizeof(T), true},
              {meanLocal.HostPtr(), bs * sizeof(T), true},
              {rstdLocal.HostPtr(), bs * sizeof(T), true}});
  auto* x = ne::Ptr(srcLocal);
  const auto* gx = ne::Ptr(gxLocal);
  const auto* gamma = ne::Ptr(gammaLocal);
  const auto* beta = ne::Ptr(betaLocal);
  auto* y = ne::Ptr(dstLocal);
  const float a = ne::ScalarOf(alpha);
  const float eps = ne::ScalarOf(epsilon);
  if (reg) {
    ne::DeepNormRegRows(t, x, gx, gamma, beta, y, ne::Ptr(meanLocal), ne::Ptr(rstdLocal), a, eps);
    return;
  }
  float* stack = reinterpret_cast<float*>(sharedTmpBuffer.HostPtr());
  ne::DeepNormBuffers w{};
  if constexpr (kHalf) {
    w = {stack + t.firstTmpStartPos, stack + t.secondTmpStartPos, stack + t.thirdTmpStartPos,
         stack + t.meanTmpTensorPos, stack + t.varianceTmpTensorPos};
  } else if constexpr (isReuseSrc) {
    w = {reinterpret_cast<float*>(x), stack + t.firstTmpStartPos, stack + t.secondTmpStartPos,
         ne::Ptr(meanLocal), ne::Ptr(rstdLocal)};
  } else {
    w = {stack + t.firstTmpStartPos, stack + t.secondTmpStartPos, stack + t.thirdTmpStartPos,
         ne::Ptr(meanLocal), ne::Ptr(rstdLocal)};
  }
  using D = ne::Dev<T>;
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    const uint64_t off = uint64_t{i} * t.inputRoundSize;
    ne::DeepNormVectorChunk<D, isBasicBlock>(t, w, x + off, gx + off, gamma, beta, y + off, a, eps,
                                             uint64_t{i} * t.meanVarRoundSize);
  }
  if (t.inputTailSize > 0) {
    t.bshCurLength = t.inputTailSize;
    t.bsCurLength = t.meanVarTailSize;
    ne::DeepNormVectorChunk<D, isBasicBlock>(t, w, x + t.inputTailPos, gx + t.inputTailPos, gamma,
                                             beta, y + t.inputTailPos, a, eps, t.meanVarTailPos);
  }
  if constexpr (kHalf) {
    ne::FromFloat(ne::Ptr(meanLocal), w.mean, t.meanVarSize);
    ne::FromFloat(ne::Ptr(rstdLocal), w.var, t.meanVarSize);
  }
}

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
                                DeepNormTiling& tiling,
                                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if ASCEND_IS_AIC {
    return;
  }
  const LocalTensor<uint8_t> stack = lngrad::adv::detail::PopStackBufferFor("DeepNorm");
  DeepNorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal,
                                        betaLocal, gammaLocal, stack, alpha, epsilon, tiling, loc);
}

}  // namespace AscendC
