// lngrad: AscendC::RmsNorm over [B, S, H] (the toolkit's adv_api/normalization/rmsnorm.h), both
// prototypes:
//
//   RmsNorm<T, isBasicBlock>(dst, src, gamma, sharedTmpBuffer, epsilon, tiling);
//   RmsNorm<T, isBasicBlock>(dst, src, gamma, epsilon, tiling);  // scratch from PopStackBuffer
//
// T = half or float; tiling from GetRmsNormTilingInfo. y = x * rsqrt(mean(x^2) + eps) * gamma,
// the reciprocal square root as exp(-0.5 * ln(.)), as the device computes it.
// Arch 2201/2002 (rmsnorm_common_impl.h), chunk by chunk of mainBsLength rows: x (half: cast to
// float in the scratch) squared, row sums by repeated 64-lane trees over originalHLength
// (isBasicBlock: the 64-column blocks added onto the first, then one tree), * (1/H), + eps, Ln,
// * -0.5, Exp, x * that per row, * gamma (half: gamma cast to float, the result cast back).
// Scratch: [mainBsLengthAlign sums][mainBshLength work][mainBshLength float x, half only].
// Arch 3510 (rmsnorm_3510_impl.h), row by row: lane sums of x^2 over the 64-column chunks (the
// tail chunk's inactive lanes kept), one tree, then per column ((sum * (1/H) + eps) -> Ln ->
// * -0.5 -> Exp) * x * gamma over originalHLength columns; the row sums in the scratch.
//
// Always raised: operands shorter than the tiling's B*S*H (H for gamma), a scratch below what
// the tiling uses, a basic-block call with H % 64 or B*S % 8 != 0. Checked mode also raises the
// CPU-debug tensor checks (position, size, alignment).
#pragma once

#include <type_traits>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/norm_ext_common.h"

namespace lngrad::adv::ext {

struct RmsChunk {
  uint64_t offset;  // first element
  uint32_t rows;
};

template <typename D, bool isBasicBlock>
void RmsNormVectorChunk(D* dst, const D* src, const D* gamma, float* tmp, float eps,
                        const RmsNormTiling& t, RmsChunk c) {
  using lngrad::aicore::ScalarOp;
  using lngrad::aicore::UnaryOp;
  const Ops& ops = StepOps();
  const uint32_t h = t.hLength;
  const uint64_t n = uint64_t{c.rows} * h;
  float* reduced = tmp;
  float* work = tmp + t.mainBsLengthAlign;
  float* xf = work + t.mainBshLength;
  const float* x = nullptr;
  if constexpr (std::is_same_v<D, float>) {
    x = src + c.offset;
  } else {
    ToFloat(xf, src + c.offset, n);
    x = xf;
  }
  ops.Mul(work, x, x, n);
  for (uint32_t r = 0; r < c.rows; ++r) {
    float* row = work + uint64_t{r} * h;
    reduced[r] = isBasicBlock ? BlockFoldTree(row, h) : PassTrees(row, t.originalHLength);
  }
  ops.Muls(reduced, reduced, t.reciprocalOfHLength, c.rows);
  ops.Adds(reduced, reduced, eps, c.rows);
  ops.Unary(UnaryOp::kLn, reduced, reduced, c.rows);
  ops.Muls(reduced, reduced, -0.5f, c.rows);
  ops.Unary(UnaryOp::kExp, reduced, reduced, c.rows);
  RowScalar(ScalarOp::kMuls, work, x, reduced, c.rows, h);
  if constexpr (std::is_same_v<D, float>) {
    RowVector(lngrad::aicore::BinaryOp::kMul, dst + c.offset, work, gamma, c.rows, h);
  } else {
    ToFloat(xf, gamma, h);
    RowVector(lngrad::aicore::BinaryOp::kMul, work, work, xf, c.rows, h);
    FromFloat(dst + c.offset, work, n);
  }
}

template <typename D>
void RmsNormRegChunk(D* dst, const D* src, const D* gamma, float* tmp, float eps,
                     const RmsNormTiling& t, RmsChunk c) {
  using lngrad::aicore::UnaryOp;
  const Ops& ops = StepOps();
  const uint32_t h = t.hLength;
  const uint32_t oh = t.originalHLength;
  const uint32_t tail = oh % kLanes;
  float acc[kLanes], v[kLanes], g[kLanes], r[kLanes];
  for (uint32_t row = 0; row < c.rows; ++row) {
    const D* x = src + c.offset + uint64_t{row} * h;
    std::fill(acc, acc + kLanes, 0.0f);
    for (uint32_t j = 0; j + kLanes <= oh; j += kLanes) {
      ToFloat(v, x + j, kLanes);
      ops.Mul(v, v, v, kLanes);
      ops.Add(acc, acc, v, kLanes);
    }
    if (tail > 0) {
      ToFloat(v, x + (oh - tail), tail);
      ops.Mul(v, v, v, tail);
      ops.Add(acc, acc, v, tail);  // inactive lanes keep acc (Select)
    }
    tmp[row] = Tree(acc, kLanes);
  }
  for (uint32_t row = 0; row < c.rows; ++row) {
    const D* x = src + c.offset + uint64_t{row} * h;
    D* y = dst + c.offset + uint64_t{row} * h;
    for (uint32_t j = 0; j < oh; j += kLanes) {
      const uint32_t m = std::min(kLanes, oh - j);
      std::fill(r, r + m, tmp[row]);
      ops.Muls(r, r, t.reciprocalOfHLength, m);
      ops.Adds(r, r, eps, m);
      ops.Unary(UnaryOp::kLn, r, r, m);
      ops.Muls(r, r, -0.5f, m);
      ops.Unary(UnaryOp::kExp, r, r, m);
      ToFloat(v, x + j, m);
      ToFloat(g, gamma + j, m);
      ops.Mul(r, v, r, m);
      ops.Mul(r, r, g, m);
      FromFloat(y + j, r, m);
    }
  }
}

// Floats of scratch the tiling makes the call use.
inline uint64_t RmsNormScratchFloats(const RmsNormTiling& t, bool half, bool reg) {
  if (reg) return std::max(t.mainBsLength, t.tailBsLength);
  return uint64_t{t.mainBsLengthAlign} + uint64_t{t.mainBshLength} * (half ? 2 : 1);
}

}  // namespace lngrad::adv::ext

namespace AscendC {

template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                               const RmsNormTiling& tiling,
                               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "RmsNorm only support data type: float/half");
  namespace ne = lngrad::adv::ext;
  namespace nd = lngrad::adv::detail;
  constexpr const char* kApi = "RmsNorm";
  if ASCEND_IS_AIC {
    return;
  }
  ne::RequireProduct(kApi);
  const RmsNormTiling& t = tiling;
  const bool reg = ne::RegBase();
  const uint64_t bsh = uint64_t{t.bLength} * t.sLength * t.hLength;
  if (lngrad::aicore::CheckedMode()) {
    nd::CheckTensors(kApi, "dstLocal", dstLocal, "srcLocal", srcLocal, "gammaLocal", gammaLocal,
                     "sharedTmpBuffer", sharedTmpBuffer);
  }
  ne::Require(t.hLength > 0 && t.originalHLength > 0 && t.originalHLength <= t.hLength, kApi,
              "tiling", "tiling needs 0 < originalHLength <= hLength");
  ne::Require(t.mainBsLength > 0 || t.loopRound == 0, kApi, "tiling", "mainBsLength is 0");
  if (isBasicBlock) {
    ne::Require(t.hLength % 64 == 0 && (uint64_t{t.bLength} * t.sLength) % 8 == 0, kApi,
                "basic_block", "isBasicBlock needs hLength % 64 == 0 and B*S % 8 == 0");
  }
  ne::CheckHolds(kApi, "srcLocal", srcLocal, bsh);
  ne::CheckHolds(kApi, "dstLocal", dstLocal, bsh);
  ne::CheckHolds(kApi, "gammaLocal", gammaLocal, t.hLength);
  const uint64_t scratch = ne::RmsNormScratchFloats(t, std::is_same_v<T, half>, reg) * 4;
  ne::CheckScratch(kApi, sharedTmpBuffer, scratch, "the tiling's layout");
  ne::Record(kApi, loc,
             {{srcLocal.HostPtr(), bsh * sizeof(T), false},
              {gammaLocal.HostPtr(), uint64_t{t.hLength} * sizeof(T), false},
              {sharedTmpBuffer.HostPtr(), scratch, true},
              {dstLocal.HostPtr(), bsh * sizeof(T), true}});
  auto* dst = ne::Ptr(dstLocal);
  const auto* src = ne::Ptr(srcLocal);
  const auto* gamma = ne::Ptr(gammaLocal);
  float* tmp = reinterpret_cast<float*>(sharedTmpBuffer.HostPtr());
  const float eps = ne::ScalarOf(epsilon);
  auto run = [&](ne::RmsChunk c) {
    if (reg) {
      ne::RmsNormRegChunk(dst, src, gamma, tmp, eps, t, c);
    } else {
      ne::RmsNormVectorChunk<ne::Dev<T>, isBasicBlock>(dst, src, gamma, tmp, eps, t, c);
    }
  };
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    run({uint64_t{i} * t.mainBshLength, t.mainBsLength});
  }
  if (t.tailBsLength != 0) run({t.inputTailPos, t.tailBsLength});
}

template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const T epsilon,
                               const RmsNormTiling& tiling,
                               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if ASCEND_IS_AIC {
    return;
  }
  const LocalTensor<uint8_t> stack = lngrad::adv::detail::PopStackBufferFor("RmsNorm");
  RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, stack, epsilon, tiling, loc);
}

}  // namespace AscendC
