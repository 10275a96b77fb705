// Shared by the benchmark programs (bench_native, bench_stream, bench_check, bench_dnnl,
// bench_ascendc): the one allocation policy of every contender and ceiling, the benchmark shapes,
// the deterministic float32 inputs every peer gets, and the agreement check against lngrad.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lngrad/lngrad.h"

namespace lngrad::bench {

// The allocation policy of every contender and ceiling (issue 19; bench/README.md, "Recipe"):
// every buffer starts on a 64-byte boundary (one AVX-512 vector, one cache line); a buffer of
// kHugePageBytes or more starts on a 2 MiB boundary, its size is rounded up to whole 2 MiB, and it
// is madvise(MADV_HUGEPAGE)d before anything touches it, so that it gets transparent huge pages
// where the kernel's THP mode is "madvise" or "always" (NumPy and PyTorch 2.x with
// THP_MEM_ALLOC_ENABLE=1 do the same for their large arrays; bench_torch.py gives PyTorch's
// tensors this policy itself). The allocator zero-fills what it allocates, so a Vector is first
// touched when it is made, never inside a timed loop.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;
inline constexpr size_t kVectorAlign = 64;

template <class T>
struct BenchAllocator {
  using value_type = T;
  BenchAllocator() = default;
  template <class U>
  BenchAllocator(const BenchAllocator<U>&) noexcept {}  // NOLINT: implicit by the Allocator rules

  static size_t Alignment(size_t bytes) {
    return bytes >= kHugePageBytes ? kHugePageBytes : kVectorAlign;
  }
  static size_t Rounded(size_t bytes) {
    const size_t a = Alignment(bytes);
    return (std::max<size_t>(bytes, 1) + a - 1) / a * a;
  }
  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    void* p = std::aligned_alloc(Alignment(bytes), Rounded(bytes));
    if (p == nullptr) {
      std::fprintf(stderr, "bench: out of memory allocating %zu bytes\n", bytes);
      throw std::bad_alloc();
    }
    // Advice, not a requirement: where THP is "never" (or the call fails) the buffer stays on
    // 4 KiB pages, as every other contender's then does.
    if (bytes >= kHugePageBytes) (void)madvise(p, Rounded(bytes), MADV_HUGEPAGE);
    // First touch here, for element types whose default constructor leaves memory untouched.
    std::memset(p, 0, Rounded(bytes));
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) noexcept { std::free(p); }
  template <class U>
  bool operator==(const BenchAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const BenchAllocator<U>&) const noexcept {
    return false;
  }
};

// A buffer under the policy above.
template <class T>
using Vector = std::vector<T, BenchAllocator<T>>;

// rows x h of issue 6.
inline const std::vector<std::pair<int64_t, int64_t>>& Shapes() {
  static const std::vector<std::pair<int64_t, int64_t>> shapes = {
      {64, 16}, {4096, 768}, {8192, 1024}, {16384, 4096}, {2048, 12288}};
  return shapes;
}

// The shapes of `all` that LNGRAD_BENCH_SHAPES selects ("ROWSxH,ROWSxH,...", e.g.
// "16384x4096,4096x768"; bench/compare --quick), all of them where it is unset or empty. A
// malformed list or a shape not in `all` prints why and returns false.
inline bool SelectedShapes(const std::vector<std::pair<int64_t, int64_t>>& all,
                           std::vector<std::pair<int64_t, int64_t>>* selected) {
  const char* env = std::getenv("LNGRAD_BENCH_SHAPES");
  selected->clear();
  if (env == nullptr || *env == '\0') {
    *selected = all;
    return true;
  }
  const std::string list(env);
  size_t pos = 0;
  while (pos <= list.size()) {
    const size_t end = std::min(list.find(',', pos), list.size());
    const std::string item = list.substr(pos, end - pos);
    long long rows = 0, h = 0;
    char tail = 0;
    if (std::sscanf(item.c_str(), "%lldx%lld%c", &rows, &h, &tail) != 2) {
      std::fprintf(stderr, "LNGRAD_BENCH_SHAPES: \"%s\" is not ROWSxH (in \"%s\")\n", item.c_str(),
                   env);
      return false;
    }
    const std::pair<int64_t, int64_t> shape{rows, h};
    if (std::find(all.begin(), all.end(), shape) == all.end()) {
      std::fprintf(stderr, "LNGRAD_BENCH_SHAPES: %lldx%lld is not one of this program's shapes\n",
                   rows, h);
      return false;
    }
    selected->push_back(shape);
    pos = end + 1;
  }
  return true;
}

inline constexpr float kEpsilon = 1e-5f;

// The benchmark name of one problem: "<prefix>/rows:<rows>/h:<h>/threads:<threads>" (bench/compare
// parses it).
inline std::string BenchmarkName(const char* prefix, int64_t rows, int64_t h, int threads) {
  return std::string(prefix) + "/rows:" + std::to_string(rows) + "/h:" + std::to_string(h) +
         "/threads:" + std::to_string(threads);
}

// LayerNorm backward inputs. mean and variance are the true row statistics of x (from lngrad's
// forward), so peers that assume it (oneDNN, PyTorch) compute the same function; rstd is the
// PyTorch convention of the same statistics.
struct Inputs {
  int64_t rows = 0, h = 0;
  Vector<float> dy, x, gamma, mean, variance, rstd;
};

inline Inputs MakeInputs(int64_t rows, int64_t h) {
  Inputs in;
  in.rows = rows;
  in.h = h;
  const auto n = static_cast<size_t>(rows * h);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  in.dy.resize(n);
  in.x.resize(n);
  for (auto& v : in.dy) v = u(rng);
  for (auto& v : in.x) v = 2.0f * u(rng) + 0.5f;
  in.gamma.resize(static_cast<size_t>(h));
  for (auto& v : in.gamma) v = 1.0f + 0.5f * u(rng);
  const Vector<float> beta(static_cast<size_t>(h), 0.0f);
  Vector<float> y(n);
  in.mean.resize(static_cast<size_t>(rows));
  in.variance.resize(static_cast<size_t>(rows));
  in.rstd.resize(static_cast<size_t>(rows));
  if (!LayerNorm({rows, h}, in.x.data(), in.gamma.data(), beta.data(), kEpsilon, y.data(),
                 in.mean.data(), in.variance.data())
           .ok() ||
      !VarianceToRstd(rows, in.variance.data(), kEpsilon, in.rstd.data()).ok()) {
    std::fprintf(stderr, "MakeInputs: lngrad failed\n");
    std::abort();
  }
  return in;
}

// MakeInputs(rows, h), made once per shape and kept until another shape is asked for (one
// problem's memory at a time): Google Benchmark calls a benchmark's function once per repetition
// and once more to size the iteration count, and drawing 2 x 64 Mi random floats each time would
// make most of a run's wall time.
inline const Inputs& SharedInputs(int64_t rows, int64_t h) {
  static Inputs cached;
  if (cached.rows != rows || cached.h != h) {
    cached = Inputs();  // frees the old shape's buffers before the new ones are made
    cached = MakeInputs(rows, h);
  }
  return cached;
}

struct Outputs {
  Vector<float> dx, dgamma, dbeta;
};

// Zero-filled outputs of the right sizes for in.
inline Outputs AllocateOutputs(const Inputs& in) {
  Outputs out;
  out.dx.resize(in.dy.size());
  out.dgamma.resize(in.gamma.size());
  out.dbeta.resize(in.gamma.size());
  return out;
}

inline Outputs LngradBackward(const Inputs& in, int threads) {
  Outputs out = AllocateOutputs(in);
  Options o;
  o.num_threads = threads;
  if (!LayerNormBackward({in.rows, in.h}, in.dy.data(), in.x.data(), in.mean.data(),
                         in.variance.data(), in.gamma.data(), kEpsilon, out.dx.data(),
                         out.dgamma.data(), out.dbeta.data(), o)
           .ok()) {
    std::fprintf(stderr, "LngradBackward: lngrad failed\n");
    std::abort();
  }
  return out;
}

// Largest |peer - ours| relative to the largest |ours| of the tensor. Different but correct
// float evaluations differ by a few ulps of the row magnitudes, so 1e-4 separates "same work"
// from "different function" (a wrong formula or a missing term gives O(1)).
inline double RelDiff(const Vector<float>& peer, const Vector<float>& ours) {
  double diff = 0, mag = 0;
  for (size_t i = 0; i < ours.size(); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(peer[i]) - ours[i]));
    mag = std::max(mag, std::fabs(static_cast<double>(ours[i])));
  }
  return mag > 0 ? diff / mag : diff;
}

inline constexpr double kAgreeLimit = 1e-4;
// bfloat16 outputs (8 significant bits): each side rounds once or twice to bfloat16, so correct
// evaluations differ by up to about one bfloat16 spacing of the largest value, 2^-7 relative.
inline constexpr double kAgreeLimitBf16 = 0x1p-7;

// Prints one line "agree <peer> <rows>x<h> dx=.. dgamma=.. dbeta=.. OK|MISMATCH"; returns ok.
inline bool ReportAgreement(const char* peer, const Inputs& in, const Outputs& got,
                            const Outputs& ours) {
  const double dx = RelDiff(got.dx, ours.dx), dg = RelDiff(got.dgamma, ours.dgamma),
               db = RelDiff(got.dbeta, ours.dbeta);
  const bool ok = dx <= kAgreeLimit && dg <= kAgreeLimit && db <= kAgreeLimit;
  std::printf("agree %s %lldx%lld dx=%.2e dgamma=%.2e dbeta=%.2e %s\n", peer,
              static_cast<long long>(in.rows), static_cast<long long>(in.h), dx, dg, db,
              ok ? "OK" : "MISMATCH");
  return ok;
}

}  // namespace lngrad::bench
