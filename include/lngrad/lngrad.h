// lngrad native API: LayerNorm forward and backward on the CPU.
//
// Tensors are row-major and contiguous: [rows, h] with rows = B*S, per-row vectors [rows],
// per-column vectors [h]. Any h >= 1 (no alignment rule on this path). dtype float or Half
// (IEEE binary16, RNE conversions, float arithmetic inside). Every function returns a Status;
// on error nothing is written. Outputs may not overlap each other or any input.
//
// Formulas (spec §1.4, reduce axis = h, N = h, x1 = dy*gamma, x2 = x - mean, v = var + eps):
//   pd_var        = sum_h(-0.5 * x1 * x2 * v^-1.5)
//   pd_mean       = sum_h(-x1 * v^-0.5) + pd_var * (1/N) * sum_h(-2 * x2)
//   pd_x          = x1 * v^-0.5 + pd_var * (2/N) * x2 + pd_mean * (1/N)
//   res_for_gamma = x2 * v^-0.5
//   dgamma[c]     = sum_rows(dy * res_for_gamma),   dbeta[c] = sum_rows(dy)
// The sum_h(-2*x2) term is kept: it is not zero when the given mean is not the row mean.
// The native path may reorder sums for speed and accuracy (error bounds in docs/math.md §6);
// the bit-faithful Ascend C order lives in the ascendc layer.
//
// Common rules: shape.rows, shape.h >= 1, rows*h*sizeof(T) addressable; no null pointer; outputs
// overlap neither each other nor any input (inputs may alias each other); epsilon finite and
// >= 0. Violations return InvalidArgument (OutOfRange for sizes), naming the argument, before
// anything is written. Tensor values are not checked: var + eps <= 0 gives inf/NaN (IEEE).
// Results are bitwise identical for every thread count (fixed row blocks, docs/math.md §7),
// but differ slightly between implementations/targets (each within the documented bound).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lngrad/environment.h"
#include "lngrad/half.h"
#include "lngrad/status.h"

namespace lngrad {

// Shape of a LayerNorm problem: `rows` = B*S rows of `h` elements.
struct RowShape {
  int64_t rows = 0;
  int64_t h = 0;
};

// Implementation choice: lngrad::Impl (kAuto, kSimd, kScalar), ImplName, ParseImpl and
// ImplFromEnvironment are declared in lngrad/environment.h, shared with the simulated AI core.
// A call's Options::impl, or for kAuto the LNGRAD_IMPL environment variable (read once per
// process; "auto", "simd" or "scalar", anything else is an InvalidArgument error of the call),
// is offered to the implementations in ListImpls() order, fastest first; each accepts the call
// or refuses it with a reason, and the first that accepts runs.

// What ran (filled when Options::info is set).
struct RunInfo {
  Impl impl = Impl::kAuto;  // kSimd or kScalar
  std::string target;       // Highway target name ("AVX3", "AVX2", "SSE4", "SSSE3", "EMU128",
                            // "SCALAR") for kSimd, "scalar" for kScalar
  int threads = 1;          // threads actually used (1 for problems under 64K elements)
  // The implementations ahead of `impl` in ListImpls() order that refused the call, in that
  // order, one "<name>: <reason>" line each (e.g. "simd: not requested (LNGRAD_IMPL=scalar)");
  // empty when the first one ran.
  std::vector<std::string> refused;
};

// How the half LayerNormGrad and LayerNormBackward evaluate pd_x / dx (docs/math.md §3, §6.4).
//  kFast:             the float evaluation (float sums and coefficients, as for float data),
//                     rounded once to half: memory-bound, within the bound of docs/math.md §6.4
//                     (the float bound of §6.1 plus the half rounding). The default.
//  kCorrectlyRounded: sums and pd_x in double (or certified in float), rounded once: every
//                     output within 1 half ulp of the exact value rounded to half, at least
//                     99.9 % of them equal to it; about twice the time per element.
// Float data, LayerNormGradBeta and the LayerNorm forward do not depend on it.
enum class HalfEval { kFast, kCorrectlyRounded };

struct Options {
  int num_threads = 0;  // 0 = DefaultThreadCount(); 1 = calling thread only; capped at
                        // 256 and at the number of row blocks; must be >= 0
  Impl impl = Impl::kAuto;
  RunInfo* info = nullptr;  // optional: reports the path taken
  HalfEval half_eval = HalfEval::kFast;
};

// One line per implementation, in the order they are offered a call: fastest first, reference
// last; `available` false with a reason when it cannot run on this machine/build.
struct ImplDescription {
  Impl impl;
  std::string name;
  bool available;
  std::string detail;  // chosen SIMD target, or why it is unavailable
};
std::vector<ImplDescription> ListImpls();
// "fast" and "correctly-rounded"; ParseHalfEval: InvalidArgument for anything else.
const char* HalfEvalName(HalfEval eval);
Status ParseHalfEval(const std::string& text, HalfEval* out);

// LayerNormGrad: pd_x[rows,h] and res_for_gamma[rows,h] from dy, x [rows,h], mean,
// variance [rows], gamma [h]. Overwrites pd_x and res_for_gamma only.
// Error (float, to first order): |pd_x - exact| <= (2*ceil(h/16) + 24) * 2^-24 * mag, mag = the
// formula with absolute values (docs/math.md §6.1); res_for_gamma within 3 * 2^-24 relative.
// Half: res_for_gamma in float, pd_x as Options::half_eval says (the default kFast: in float;
// kCorrectlyRounded: in double, every element within 1 half ulp of the exact value rounded to
// half), each output rounded once (RNE) (docs/math.md §6.4).
Status LayerNormGrad(RowShape shape, const float* dy, const float* x, const float* mean,
                     const float* variance, const float* gamma, float epsilon, float* pd_x,
                     float* res_for_gamma, const Options& options = {});
Status LayerNormGrad(RowShape shape, const Half* dy, const Half* x, const Half* mean,
                     const Half* variance, const Half* gamma, float epsilon, Half* pd_x,
                     Half* res_for_gamma, const Options& options = {});

// LayerNormGradBeta: dgamma[h] = sum over rows of dy*res_for_gamma, dbeta[h] = sum of dy,
// from dy, res_for_gamma [rows,h]. Overwrites dgamma and dbeta only. Float accumulation over
// fixed row blocks combined in a fixed order (bitwise identical for every thread count); error
// <= rows * 2^-24 * sum|term|. Half: float sums, rounded once at the end.
Status LayerNormGradBeta(RowShape shape, const float* dy, const float* res_for_gamma, float* dgamma,
                         float* dbeta, const Options& options = {});
Status LayerNormGradBeta(RowShape shape, const Half* dy, const Half* res_for_gamma, Half* dgamma,
                         Half* dbeta, const Options& options = {});

// LayerNormBackward: dx [rows,h], dgamma, dbeta [h] fused in one pass over dy and x
// (res_for_gamma is kept in float, never written). Overwrites dx, dgamma, dbeta only.
// Float: bitwise equal to LayerNormGrad followed by LayerNormGradBeta. Half: dx and dbeta
// bitwise equal, dgamma slightly more accurate (no half rounding of res; docs/math.md §6.5).
// rows may be 0 (an empty batch, as in PyTorch): dgamma and dbeta become 0, and the empty tensors
// dy, x, mean, variance and dx may be null. The other functions need rows >= 1.
Status LayerNormBackward(RowShape shape, const float* dy, const float* x, const float* mean,
                         const float* variance, const float* gamma, float epsilon, float* dx,
                         float* dgamma, float* dbeta, const Options& options = {});
Status LayerNormBackward(RowShape shape, const Half* dy, const Half* x, const Half* mean,
                         const Half* variance, const Half* gamma, float epsilon, Half* dx,
                         Half* dgamma, Half* dbeta, const Options& options = {});
// Half data with float statistics (mean, variance [rows] of float), as PyTorch keeps them for
// half data: the same evaluation at the float statistics, so no half rounding of the statistics
// adds to the error (the same bounds, with mean and variance exact as given). Its own name, so
// that LayerNormBackward(..., nullptr, nullptr, ...) for an empty batch stays unambiguous.
Status LayerNormBackwardFloatStats(RowShape shape, const Half* dy, const Half* x, const float* mean,
                                   const float* variance, const Half* gamma, float epsilon,
                                   Half* dx, Half* dgamma, Half* dbeta,
                                   const Options& options = {});

// LayerNorm forward: y = (x - mean) / sqrt(variance + eps) * gamma + beta, with
// mean[rows] and variance[rows] (biased: divided by h) as outputs; x [rows,h], gamma, beta [h].
// Overwrites y, mean, variance only. Half: statistics and y evaluated in double, each output
// rounded once (within 1 half ulp of the exact value rounded). Float bounds: docs/math.md §6.6.
Status LayerNorm(RowShape shape, const float* x, const float* gamma, const float* beta,
                 float epsilon, float* y, float* mean, float* variance,
                 const Options& options = {});
Status LayerNorm(RowShape shape, const Half* x, const Half* gamma, const Half* beta, float epsilon,
                 Half* y, Half* mean, Half* variance, const Options& options = {});
// Half data, float statistics: mean and variance rounded once from double to float.
Status LayerNormFloatStats(RowShape shape, const Half* x, const Half* gamma, const Half* beta,
                           float epsilon, Half* y, float* mean, float* variance,
                           const Options& options = {});

// bfloat16 data (lngrad::BFloat16): every function above for bfloat16 tensors, float statistics
// too (LayerNormBackwardFloatStats, LayerNormFloatStats, as PyTorch keeps them for bfloat16
// data). One evaluation, the fast one: the float evaluation (as for float data), each output
// rounded once to bfloat16 (RNE); Options::half_eval plays no part. Bounds: docs/math.md §6.6b.
Status LayerNormGrad(RowShape shape, const BFloat16* dy, const BFloat16* x, const BFloat16* mean,
                     const BFloat16* variance, const BFloat16* gamma, float epsilon, BFloat16* pd_x,
                     BFloat16* res_for_gamma, const Options& options = {});
Status LayerNormGradBeta(RowShape shape, const BFloat16* dy, const BFloat16* res_for_gamma,
                         BFloat16* dgamma, BFloat16* dbeta, const Options& options = {});
Status LayerNormBackward(RowShape shape, const BFloat16* dy, const BFloat16* x,
                         const BFloat16* mean, const BFloat16* variance, const BFloat16* gamma,
                         float epsilon, BFloat16* dx, BFloat16* dgamma, BFloat16* dbeta,
                         const Options& options = {});
Status LayerNormBackwardFloatStats(RowShape shape, const BFloat16* dy, const BFloat16* x,
                                   const float* mean, const float* variance, const BFloat16* gamma,
                                   float epsilon, BFloat16* dx, BFloat16* dgamma, BFloat16* dbeta,
                                   const Options& options = {});
Status LayerNorm(RowShape shape, const BFloat16* x, const BFloat16* gamma, const BFloat16* beta,
                 float epsilon, BFloat16* y, BFloat16* mean, BFloat16* variance,
                 const Options& options = {});
Status LayerNormFloatStats(RowShape shape, const BFloat16* x, const BFloat16* gamma,
                           const BFloat16* beta, float epsilon, BFloat16* y, float* mean,
                           float* variance, const Options& options = {});

// Statistics conventions. PyTorch saves (mean, rstd) with rstd = 1/sqrt(var + eps); lngrad and
// Ascend C take (mean, variance). These convert n per-row values (in place allowed):
//   variance = 1/rstd^2 - eps      rstd = 1/sqrt(variance + eps)
// rstd must be finite and > 0; variance + eps must be > 0; n >= 1; epsilon finite and >= 0.
// Computed in double, rounded once; a variance below 0 (rounding of a zero variance) becomes 0.
// Values are checked before any is written; exact in-place is allowed, partial overlap is not.
Status RstdToVariance(int64_t n, const float* rstd, float epsilon, float* variance);
Status VarianceToRstd(int64_t n, const float* variance, float epsilon, float* rstd);

// Number of threads that num_threads = 0 means on this machine (hardware concurrency, >= 1).
int DefaultThreadCount();

}  // namespace lngrad
