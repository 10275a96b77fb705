// Public native API: validation, implementation choice, row blocks over the thread pool and the
// fixed-order combination of the dgamma/dbeta block partials.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <type_traits>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "impl_list.h"
#include "kernels.h"
#include "thread_pool.h"
#include "validate.h"
#include "lngrad/lngrad.h"

namespace lngrad {
namespace core {
namespace {
std::atomic<size_t> g_stream_threshold{kStreamElements};
}  // namespace
size_t StreamThresholdElements() { return g_stream_threshold.load(std::memory_order_relaxed); }
void SetStreamThresholdElementsForTesting(size_t elements) {
  g_stream_threshold.store(elements, std::memory_order_relaxed);
}
}  // namespace core

namespace {

using core::BufferArg;
using core::TensorBytes;

// Problems below this many elements run on the calling thread: waking workers costs more.
constexpr int64_t kInlineElements = 64 * 1024;
// A row block holds at least this many elements (when the rows allow), so a task is worth
// handing to a thread.
constexpr int64_t kMinBlockElements = 16 * 1024;
// dgamma/dbeta use at most this many row blocks: bounds the partial buffers to
// 2 * kMaxReductionBlocks * h floats and the combination tree to 6 levels.
constexpr int64_t kMaxReductionBlocks = 64;
// Columns per task of the dgamma/dbeta combination (64 blocks x 2 x 1024 floats = 512 KiB).
constexpr int64_t kCombineColumns = 1024;

int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

// Rows are cut into blocks of rows_per_block (the last one shorter). The cut is a function of
// the shape only, never of the thread count: that makes the dgamma/dbeta sums reproducible.
struct BlockPlan {
  int64_t rows_per_block;
  int64_t num_blocks;
};

BlockPlan MakePlan(RowShape shape, int64_t max_blocks) {
  int64_t rows_per_block = CeilDiv(kMinBlockElements, shape.h);
  if (max_blocks > 0) rows_per_block = std::max(rows_per_block, CeilDiv(shape.rows, max_blocks));
  rows_per_block = std::min(rows_per_block, shape.rows);
  return {rows_per_block, CeilDiv(shape.rows, rows_per_block)};
}
BlockPlan RowPlan(RowShape shape) { return MakePlan(shape, 0); }
BlockPlan ReductionPlan(RowShape shape) { return MakePlan(shape, kMaxReductionBlocks); }

// Runs f(block) for every block, in parallel when the problem is large enough; returns the
// number of threads used.
template <class F>
int ForEachBlock(const Options& options, RowShape shape, int64_t num_blocks, F& f) {
  if (shape.rows * shape.h < kInlineElements) {
    for (int64_t b = 0; b < num_blocks; ++b) f(b);
    return 1;
  }
  const int threads = options.num_threads == 0 ? DefaultThreadCount() : options.num_threads;
  return core::ThreadPool::Global().Run(
      threads, num_blocks, [](void* context, int64_t block) { (*static_cast<F*>(context))(block); },
      &f);
}

struct Selection {
  const core::KernelTable* table;
  RunInfo info;
};

Status Select(const char* fn, const Options& options, Selection* out) {
  core::ImplChoice choice;
  LNGRAD_RETURN_IF_ERROR(core::ChooseImpl(fn, options, &choice));
  out->table = choice.table;
  out->info.impl = choice.impl;
  out->info.target = std::move(choice.target);
  out->info.refused = std::move(choice.refused);
  return Status::Ok();
}

void Report(const Options& options, Selection& sel, int threads) {
  if (options.info != nullptr) {
    sel.info.threads = threads;
    *options.info = sel.info;
  }
}

template <class T>
const core::KernelSet<T>& KernelsFor(const core::KernelTable& table) {
  if constexpr (std::is_same_v<T, float>) {
    return table.f32;
  } else if constexpr (std::is_same_v<T, Half>) {
    return table.f16;
  } else {
    return table.bf16;
  }
}

// Partial sums of dgamma and dbeta, one pair of h-float rows per block.
class Partials {
 public:
  Status Allocate(const char* fn, int64_t num_blocks, int64_t h) {
    h_ = h;
    num_blocks_ = num_blocks;
    try {
      // Not zeroed: every kernel overwrites its block's partials.
      data_ = std::make_unique_for_overwrite<float[]>(static_cast<size_t>(2 * num_blocks * h));
    } catch (const std::bad_alloc&) {
      return Status::OutOfRange(std::string(fn) + ": cannot allocate " +
                                std::to_string(2 * num_blocks * h) +
                                " floats of dgamma/dbeta partial sums");
    }
    return Status::Ok();
  }
  float* g(int64_t block) { return data_.get() + 2 * block * h_; }
  float* b(int64_t block) { return data_.get() + (2 * block + 1) * h_; }

  // Adds the blocks pairwise (block 0 += block 1, block 2 += block 3, ..., then 0 += 2, ...):
  // a fixed tree, so the result depends on the shape only. Then rounds once into the outputs.
  // Columns [c0, c1) only: each column's tree is independent of the others, so column ranges
  // can run on different threads without changing a bit.
  template <class T>
  void CombineInto(T* dgamma, T* dbeta, int64_t c0, int64_t c1) {
    for (int64_t step = 1; step < num_blocks_; step *= 2) {
      for (int64_t blk = 0; blk + step < num_blocks_; blk += 2 * step) {
        float* g0 = g(blk);
        float* b0 = b(blk);
        const float* g1 = g(blk + step);
        const float* b1 = b(blk + step);
        for (int64_t c = c0; c < c1; ++c) {
          g0[c] = g0[c] + g1[c];
          b0[c] = b0[c] + b1[c];
        }
      }
    }
    const float* gs = g(0);
    const float* bs = b(0);
    for (int64_t c = c0; c < c1; ++c) {
      core::PutFloat(dgamma + c, gs[c]);
      core::PutFloat(dbeta + c, bs[c]);
    }
  }

  // CombineInto over all columns, in column ranges on the pool for large problems: the tree
  // reads 2 * num_blocks * h floats (6 MiB at 2048 x 12288), too much to leave the other
  // threads idle for.
  template <class T>
  void Combine(const Options& options, RowShape shape, T* dgamma, T* dbeta) {
    const int64_t chunks = CeilDiv(h_, kCombineColumns);
    auto run = [&](int64_t t) {
      CombineInto(dgamma, dbeta, t * kCombineColumns, std::min(h_, (t + 1) * kCombineColumns));
    };
    ForEachBlock(options, shape, chunks, run);
  }

 private:
  int64_t h_ = 0;
  int64_t num_blocks_ = 0;
  std::unique_ptr<float[]> data_;
};

// Runs kernel(args, r0, r1) over the row blocks of RowPlan and reports the path taken.
template <class Kernel, class Args>
void RunRowBlocks(const Options& options, RowShape shape, Selection& sel, Kernel kernel,
                  const Args& args) {
  const BlockPlan plan = RowPlan(shape);
  auto run = [&](int64_t block) {
    const int64_t r0 = block * plan.rows_per_block;
    kernel(args, r0, std::min(shape.rows, r0 + plan.rows_per_block));
  };
  Report(options, sel, ForEachBlock(options, shape, plan.num_blocks, run));
}

// Runs kernel(args, r0, r1, g, b) over the row blocks of ReductionPlan into per-block dgamma/dbeta
// partials, combines them into dgamma and dbeta and reports the path taken.
template <class T, class Kernel, class Args>
Status RunReductionBlocks(const char* fn, const Options& options, RowShape shape, Selection& sel,
                          Kernel kernel, const Args& args, T* dgamma, T* dbeta) {
  const BlockPlan plan = ReductionPlan(shape);
  Partials parts;
  LNGRAD_RETURN_IF_ERROR(parts.Allocate(fn, plan.num_blocks, shape.h));
  auto run = [&](int64_t block) {
    const int64_t r0 = block * plan.rows_per_block;
    kernel(args, r0, std::min(shape.rows, r0 + plan.rows_per_block), parts.g(block),
           parts.b(block));
  };
  const int threads = ForEachBlock(options, shape, plan.num_blocks, run);
  parts.Combine(options, shape, dgamma, dbeta);
  Report(options, sel, threads);
  return Status::Ok();
}

// kPerRowFloat: one float per row whatever the call's element type (float statistics of half
// data).
enum class Extent { kMatrix, kPerRow, kPerCol, kPerRowFloat };

// A tensor argument with the extent its byte size follows from.
struct Operand {
  const char* name;
  const void* ptr;
  Extent extent;
};

// The checks of every entry point, in this order: the shape, null pointers (inputs first),
// epsilon (where the call takes one), the options and overlapping outputs; then the path.
// min_rows is 0 where an empty batch is allowed (its empty tensors may be null).
template <size_t kInputs, size_t kOutputs>
Status CheckCall(const char* fn, RowShape shape, size_t elem_size, const Operand (&inputs)[kInputs],
                 const Operand (&outputs)[kOutputs], std::optional<float> epsilon,
                 const Options& options, TensorBytes* n, Selection* sel, int64_t min_rows = 1) {
  LNGRAD_RETURN_IF_ERROR(core::CheckShape(fn, shape, elem_size, n, min_rows));
  auto buffer = [n, elem_size](const Operand& o) {
    const size_t bytes = o.extent == Extent::kMatrix        ? n->matrix
                         : o.extent == Extent::kPerRow      ? n->per_row
                         : o.extent == Extent::kPerRowFloat ? n->per_row / elem_size * sizeof(float)
                                                            : n->per_col;
    return core::BufferArg{o.name, o.ptr, bytes};
  };
  std::array<core::BufferArg, kInputs + kOutputs> args;  // inputs, then outputs
  for (size_t i = 0; i < kInputs; ++i) args[i] = buffer(inputs[i]);
  for (size_t i = 0; i < kOutputs; ++i) args[kInputs + i] = buffer(outputs[i]);
  const std::span<const core::BufferArg> all(args);
  LNGRAD_RETURN_IF_ERROR(core::CheckNotNull(fn, all));
  if (epsilon) LNGRAD_RETURN_IF_ERROR(core::CheckEpsilon(fn, *epsilon));
  LNGRAD_RETURN_IF_ERROR(core::CheckOptions(fn, options));
  LNGRAD_RETURN_IF_ERROR(core::CheckNoOverlap(fn, all.last(kOutputs), all.first(kInputs)));
  return Select(fn, options, sel);
}

// CheckCall with the inputs LayerNormGrad and LayerNormBackward share. S, the statistics' type,
// is T or float.
template <class T, class S, size_t kOutputs>
Status CheckGradCall(const char* fn, RowShape shape, const T* dy, const T* x, const S* mean,
                     const S* variance, const T* gamma, float epsilon,
                     const Operand (&outputs)[kOutputs], const Options& options, TensorBytes* n,
                     Selection* sel, int64_t min_rows = 1) {
  constexpr Extent kM = Extent::kMatrix, kC = Extent::kPerCol;
  constexpr Extent kR = std::is_same_v<S, T> ? Extent::kPerRow : Extent::kPerRowFloat;
  return CheckCall(fn, shape, sizeof(T),
                   {{"dy", dy, kM},
                    {"x", x, kM},
                    {"mean", mean, kR},
                    {"variance", variance, kR},
                    {"gamma", gamma, kC}},
                   outputs, epsilon, options, n, sel, min_rows);
}

template <class T>
Status GradImpl(RowShape shape, const T* dy, const T* x, const T* mean, const T* variance,
                const T* gamma, float epsilon, T* pd_x, T* res_for_gamma, const Options& options) {
  constexpr const char* kFn = "LayerNormGrad";
  constexpr Extent kM = Extent::kMatrix;
  TensorBytes n;
  Selection sel;
  LNGRAD_RETURN_IF_ERROR(CheckGradCall(kFn, shape, dy, x, mean, variance, gamma, epsilon,
                                       {{"pd_x", pd_x, kM}, {"res_for_gamma", res_for_gamma, kM}},
                                       options, &n, &sel));

  core::GradArgs<T> args{
      dy,      x,       mean, variance,      gamma,
      epsilon, shape.h, pd_x, res_for_gamma, n.matrix >= core::StreamThresholdElements()};
  args.correctly_rounded = options.half_eval == HalfEval::kCorrectlyRounded;
  RunRowBlocks(options, shape, sel, KernelsFor<T>(*sel.table).grad, args);
  return Status::Ok();
}

template <class T>
Status BetaImpl(RowShape shape, const T* dy, const T* res_for_gamma, T* dgamma, T* dbeta,
                const Options& options) {
  constexpr const char* kFn = "LayerNormGradBeta";
  constexpr Extent kM = Extent::kMatrix, kC = Extent::kPerCol;
  TensorBytes n;
  Selection sel;
  LNGRAD_RETURN_IF_ERROR(
      CheckCall(kFn, shape, sizeof(T), {{"dy", dy, kM}, {"res_for_gamma", res_for_gamma, kM}},
                {{"dgamma", dgamma, kC}, {"dbeta", dbeta, kC}}, std::nullopt, options, &n, &sel));

  const core::BetaArgs<T> args{dy, res_for_gamma, shape.h};
  return RunReductionBlocks(kFn, options, shape, sel, KernelsFor<T>(*sel.table).beta, args, dgamma,
                            dbeta);
}

// The statistics of GradArgs or ForwardArgs: `mean`/`variance` when they have the data's type,
// else (half data, float statistics) `mean_f32`/`variance_f32`.
template <class Args, class S>
void SetStatistics(Args& args, S* mean, S* variance) {
  if constexpr (std::is_assignable_v<decltype((args.mean)), S*>) {
    args.mean = mean;
    args.variance = variance;
  } else {
    args.mean_f32 = mean;
    args.variance_f32 = variance;
  }
}

// S: the statistics' type, T or (half data, PyTorch's convention) float.
template <class T, class S>
Status BackwardImpl(RowShape shape, const T* dy, const T* x, const S* mean, const S* variance,
                    const T* gamma, float epsilon, T* dx, T* dgamma, T* dbeta,
                    const Options& options) {
  constexpr const char* kFn = "LayerNormBackward";
  constexpr Extent kM = Extent::kMatrix, kC = Extent::kPerCol;
  TensorBytes n;
  Selection sel;
  // An empty batch is allowed, as in PyTorch: dx is empty and the sums over no rows are 0.
  LNGRAD_RETURN_IF_ERROR(CheckGradCall(
      kFn, shape, dy, x, mean, variance, gamma, epsilon,
      {{"dx", dx, kM}, {"dgamma", dgamma, kC}, {"dbeta", dbeta, kC}}, options, &n, &sel,
      /*min_rows=*/0));
  if (shape.rows == 0) {
    std::fill_n(dgamma, shape.h, T(0.0f));
    std::fill_n(dbeta, shape.h, T(0.0f));
    return Status::Ok();
  }

  core::GradArgs<T> args;
  args.dy = dy;
  args.x = x;
  args.gamma = gamma;
  args.epsilon = epsilon;
  args.h = shape.h;
  args.pd_x = dx;
  args.stream = n.matrix >= core::StreamThresholdElements();
  args.correctly_rounded = options.half_eval == HalfEval::kCorrectlyRounded;
  SetStatistics(args, mean, variance);
  return RunReductionBlocks(kFn, options, shape, sel, KernelsFor<T>(*sel.table).backward, args,
                            dgamma, dbeta);
}

template <class T, class S>
Status ForwardImpl(RowShape shape, const T* x, const T* gamma, const T* beta, float epsilon, T* y,
                   S* mean, S* variance, const Options& options) {
  constexpr const char* kFn = "LayerNorm";
  constexpr Extent kM = Extent::kMatrix, kC = Extent::kPerCol;
  constexpr Extent kR = std::is_same_v<S, T> ? Extent::kPerRow : Extent::kPerRowFloat;
  TensorBytes n;
  Selection sel;
  LNGRAD_RETURN_IF_ERROR(CheckCall(
      kFn, shape, sizeof(T), {{"x", x, kM}, {"gamma", gamma, kC}, {"beta", beta, kC}},
      {{"y", y, kM}, {"mean", mean, kR}, {"variance", variance, kR}}, epsilon, options, &n, &sel));

  core::ForwardArgs<T> args{x, gamma, beta, epsilon, shape.h, y};
  SetStatistics(args, mean, variance);
  RunRowBlocks(options, shape, sel, KernelsFor<T>(*sel.table).forward, args);
  return Status::Ok();
}

}  // namespace

// The enum with a text form (Impl's is in src/base): one list for the printer and the parser.
constexpr std::pair<HalfEval, const char*> kHalfEvalNames[] = {
    {HalfEval::kFast, "fast"}, {HalfEval::kCorrectlyRounded, "correctly-rounded"}};

template <class E, size_t N>
const char* NameIn(const std::pair<E, const char*> (&names)[N], E value) {
  for (const auto& [v, name] : names) {
    if (v == value) return name;
  }
  return "unknown";
}

// Sets *out to the value named `text` in `names`; `fn` words the errors ("fn: argument ...").
template <class E, size_t N>
Status ParseIn(const char* fn, const std::pair<E, const char*> (&names)[N], const std::string& text,
               E* out) {
  if (out == nullptr) return Status::InvalidArgument(std::string(fn) + ": argument 'out' is null");
  std::string all;
  for (size_t i = 0; i < N; ++i) {
    if (text == names[i].second) {
      *out = names[i].first;
      return Status::Ok();
    }
    all += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i].second;
  }
  return Status::InvalidArgument(std::string(fn) + ": argument 'text' must be " + all + " (got '" +
                                 text + "')");
}

const char* HalfEvalName(HalfEval eval) { return NameIn(kHalfEvalNames, eval); }
Status ParseHalfEval(const std::string& text, HalfEval* out) {
  return ParseIn("ParseHalfEval", kHalfEvalNames, text, out);
}

int DefaultThreadCount() {
  // hardware_concurrency() reads /sys on every call in glibc; the answer does not change.
  static const int count = static_cast<int>(
      std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, core::ThreadPool::kMaxThreads));
  return count;
}

Status LayerNormGrad(RowShape shape, const float* dy, const float* x, const float* mean,
                     const float* variance, const float* gamma, float epsilon, float* pd_x,
                     float* res_for_gamma, const Options& options) {
  return GradImpl(shape, dy, x, mean, variance, gamma, epsilon, pd_x, res_for_gamma, options);
}
Status LayerNormGrad(RowShape shape, const Half* dy, const Half* x, const Half* mean,
                     const Half* variance, const Half* gamma, float epsilon, Half* pd_x,
                     Half* res_for_gamma, const Options& options) {
  return GradImpl(shape, dy, x, mean, variance, gamma, epsilon, pd_x, res_for_gamma, options);
}

Status LayerNormGradBeta(RowShape shape, const float* dy, const float* res_for_gamma, float* dgamma,
                         float* dbeta, const Options& options) {
  return BetaImpl(shape, dy, res_for_gamma, dgamma, dbeta, options);
}
Status LayerNormGradBeta(RowShape shape, const Half* dy, const Half* res_for_gamma, Half* dgamma,
                         Half* dbeta, const Options& options) {
  return BetaImpl(shape, dy, res_for_gamma, dgamma, dbeta, options);
}

Status LayerNormBackward(RowShape shape, const float* dy, const float* x, const float* mean,
                         const float* variance, const float* gamma, float epsilon, float* dx,
                         float* dgamma, float* dbeta, const Options& options) {
  return BackwardImpl(shape, dy, x, mean, variance, gamma, epsilon, dx, dgamma, dbeta, options);
}
Status LayerNormBackward(RowShape shape, const Half* dy, const Half* x, const Half* mean,
                         const Half* variance, const Half* gamma, float epsilon, Half* dx,
                         Half* dgamma, Half* dbeta, const Options& options) {
  return BackwardImpl(shape, dy, x, mean, variance, gamma, epsilon, dx, dgamma, dbeta, options);
}

Status LayerNormBackwardFloatStats(RowShape shape, const Half* dy, const Half* x, const float* mean,
                                   const float* variance, const Half* gamma, float epsilon,
                                   Half* dx, Half* dgamma, Half* dbeta, const Options& options) {
  return BackwardImpl(shape, dy, x, mean, variance, gamma, epsilon, dx, dgamma, dbeta, options);
}

Status LayerNorm(RowShape shape, const float* x, const float* gamma, const float* beta,
                 float epsilon, float* y, float* mean, float* variance, const Options& options) {
  return ForwardImpl(shape, x, gamma, beta, epsilon, y, mean, variance, options);
}
Status LayerNorm(RowShape shape, const Half* x, const Half* gamma, const Half* beta, float epsilon,
                 Half* y, Half* mean, Half* variance, const Options& options) {
  return ForwardImpl(shape, x, gamma, beta, epsilon, y, mean, variance, options);
}
Status LayerNormFloatStats(RowShape shape, const Half* x, const Half* gamma, const Half* beta,
                           float epsilon, Half* y, float* mean, float* variance,
                           const Options& options) {
  return ForwardImpl(shape, x, gamma, beta, epsilon, y, mean, variance, options);
}

Status LayerNormGrad(RowShape shape, const BFloat16* dy, const BFloat16* x, const BFloat16* mean,
                     const BFloat16* variance, const BFloat16* gamma, float epsilon, BFloat16* pd_x,
                     BFloat16* res_for_gamma, const Options& options) {
  return GradImpl(shape, dy, x, mean, variance, gamma, epsilon, pd_x, res_for_gamma, options);
}
Status LayerNormGradBeta(RowShape shape, const BFloat16* dy, const BFloat16* res_for_gamma,
                         BFloat16* dgamma, BFloat16* dbeta, const Options& options) {
  return BetaImpl(shape, dy, res_for_gamma, dgamma, dbeta, options);
}
Status LayerNormBackward(RowShape shape, const BFloat16* dy, const BFloat16* x,
                         const BFloat16* mean, const BFloat16* variance, const BFloat16* gamma,
                         float epsilon, BFloat16* dx, BFloat16* dgamma, BFloat16* dbeta,
                         const Options& options) {
  return BackwardImpl(shape, dy, x, mean, variance, gamma, epsilon, dx, dgamma, dbeta, options);
}
Status LayerNormBackwardFloatStats(RowShape shape, const BFloat16* dy, const BFloat16* x,
                                   const float* mean, const float* variance, const BFloat16* gamma,
                                   float epsilon, BFloat16* dx, BFloat16* dgamma, BFloat16* dbeta,
                                   const Options& options) {
  return BackwardImpl(shape, dy, x, mean, variance, gamma, epsilon, dx, dgamma, dbeta, options);
}
Status LayerNorm(RowShape shape, const BFloat16* x, const BFloat16* gamma, const BFloat16* beta,
                 float epsilon, BFloat16* y, BFloat16* mean, BFloat16* variance,
                 const Options& options) {
  return ForwardImpl(shape, x, gamma, beta, epsilon, y, mean, variance, options);
}
Status LayerNormFloatStats(RowShape shape, const BFloat16* x, const BFloat16* gamma,
                           const BFloat16* beta, float epsilon, BFloat16* y, float* mean,
                           float* variance, const Options& options) {
  return ForwardImpl(shape, x, gamma, beta, epsilon, y, mean, variance, options);
}

namespace {

// The argument checks of the two statistics conversions, n values from `in` to `out`. Exact
// in-place use is allowed; any other overlap is not.
Status CheckConversion(const char* fn, int64_t n, const char* in_name, const float* in,
                       float epsilon, const char* out_name, const float* out) {
  size_t bytes = 0;
  LNGRAD_RETURN_IF_ERROR(core::CheckCount(fn, "n", n, sizeof(float), &bytes));
  const core::BufferArg args[] = {{in_name, in, bytes}, {out_name, out, bytes}};
  LNGRAD_RETURN_IF_ERROR(core::CheckNotNull(fn, args));
  LNGRAD_RETURN_IF_ERROR(core::CheckEpsilon(fn, epsilon));
  if (out == in) return Status::Ok();
  return core::CheckNoOverlap(fn, std::span(args).last(1), std::span(args).first(1));
}

}  // namespace

Status RstdToVariance(int64_t n, const float* rstd, float epsilon, float* variance) {
  constexpr const char* kFn = "RstdToVariance";
  LNGRAD_RETURN_IF_ERROR(CheckConversion(kFn, n, "rstd", rstd, epsilon, "variance", variance));
  // Check every value before writing any (in place, a later check would read a result).
  for (int64_t i = 0; i < n; ++i) {
    const float r = rstd[i];
    if (!std::isfinite(r) || r <= 0.0f) {
      return Status::InvalidArgument(std::string(kFn) + ": argument 'rstd' element " +
                                     std::to_string(i) + " must be finite and > 0 (got " +
                                     core::FormatValue(r) + ")");
    }
    // 1/r^2 exceeds the float range only for r below about 5.4e-20: the division is made only
    // there (it is per element, and this conversion is on the Python binding's call path).
    if (r < 1e-19f && 1.0 / (static_cast<double>(r) * r) > std::numeric_limits<float>::max()) {
      return Status::OutOfRange(std::string(kFn) + ": argument 'rstd' element " +
                                std::to_string(i) + " = " + core::FormatValue(r) +
                                " gives a variance beyond the float range");
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    const double r = rstd[i];
    // 1/rstd^2 - eps is slightly negative only through rounding of a zero variance.
    variance[i] = static_cast<float>(std::max(0.0, 1.0 / (r * r) - epsilon));
  }
  return Status::Ok();
}

Status VarianceToRstd(int64_t n, const float* variance, float epsilon, float* rstd) {
  constexpr const char* kFn = "VarianceToRstd";
  LNGRAD_RETURN_IF_ERROR(CheckConversion(kFn, n, "variance", variance, epsilon, "rstd", rstd));
  for (int64_t i = 0; i < n; ++i) {
    const float v = variance[i];
    if (!std::isfinite(v) || !(static_cast<double>(v) + epsilon > 0.0)) {
      return Status::InvalidArgument(std::string(kFn) + ": argument 'variance' element " +
                                     std::to_string(i) +
                                     " must be finite with variance + "
                                     "epsilon > 0 (got " +
                                     core::FormatValue(v) + ")");
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    rstd[i] = static_cast<float>(1.0 / std::sqrt(static_cast<double>(variance[i]) + epsilon));
  }
  return Status::Ok();
}

}  // namespace lngrad
