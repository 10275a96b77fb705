// libFuzzer target: argument validation of the native API (include/lngrad/lngrad.h).
// Every tensor argument is null or a place in one byte arena, so shapes, null pointers,
// aliasing and overlaps are all reachable. The fuzzer predicts, from the documented rules
// alone, whether the call must succeed, and checks (abort on violation):
//  - the call returns a Status whose ok() matches the prediction, with a message on error;
//  - on error not one byte of the arena changed ("on error nothing is written");
//  - on success only the output tensors' bytes changed (inputs are never written).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "lngrad/lngrad.h"

namespace {

void Fail(const char* what, const lngrad::Status& s) {
  std::fprintf(stderr, "fuzz_native_args invariant broken: %s (status: %s)\n", what,
               s.ToString().c_str());
  std::abort();
}

constexpr size_t kArenaBytes = 1 << 14;

struct Arg {
  bool null = false;
  size_t offset = 0;  // bytes into the arena
  size_t bytes = 0;
  bool output = false;
};

// rows, h: mostly small valid values, sometimes anything (zero, negative, overflowing).
int64_t PickExtent(FuzzedDataProvider& p) {
  switch (p.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      return p.ConsumeIntegral<int64_t>();
    case 1:
      return p.PickValueInArray<int64_t>({0, -1, std::numeric_limits<int64_t>::max(),
                                          std::numeric_limits<int64_t>::min(), int64_t{1} << 31,
                                          int64_t{1} << 32, int64_t{1} << 62});
    default:
      return p.ConsumeIntegralInRange<int64_t>(1, 40);
  }
}

float PickEpsilon(FuzzedDataProvider& p) {
  switch (p.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return p.ConsumeFloatingPoint<float>();
    case 1:
      return p.PickValueInArray<float>({0.0f, -0.0f, -1e-5f, 1e-5f, INFINITY, -INFINITY, NAN,
                                        std::numeric_limits<float>::denorm_min()});
    default:
      return p.ConsumeFloatingPointInRange<float>(0.0f, 1.0f);
  }
}

bool Overlap(const Arg& a, const Arg& b) {
  if (a.null || b.null || a.bytes == 0 || b.bytes == 0) return false;
  return a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

template <typename T>
T* At(std::vector<unsigned char>& arena, const Arg& a) {
  return a.null ? nullptr : reinterpret_cast<T*>(arena.data() + a.offset);
}

// Arguments per function: {matrix=0, per_row=1, per_col=2}, input or output.
struct Spec {
  int kind;
  bool output;
};

std::vector<Spec> SpecsOf(int fn) {
  switch (fn) {
    case 0:  // LayerNormGrad: dy x mean variance gamma | pd_x res
      return {{0, false}, {0, false}, {1, false}, {1, false}, {2, false}, {0, true}, {0, true}};
    case 1:  // LayerNormGradBeta: dy res | dgamma dbeta
      return {{0, false}, {0, false}, {2, true}, {2, true}};
    case 2:  // LayerNormBackward: dy x mean variance gamma | dx dgamma dbeta
      return {{0, false}, {0, false}, {1, false}, {1, false},
              {2, false}, {0, true},  {2, true},  {2, true}};
    default:  // LayerNorm: x gamma beta | y mean variance
      return {{0, false}, {2, false}, {2, false}, {0, true}, {1, true}, {1, true}};
  }
}

// Function `fn` on the arguments laid out in `arena`.
template <typename T>
lngrad::Status Call(int fn, const lngrad::RowShape& shape, std::vector<unsigned char>& arena,
                    const std::vector<Arg>& args, float eps, const lngrad::Options& opt) {
  auto A = [&](size_t i) { return At<T>(arena, args[i]); };
  switch (fn) {
    case 0:
      return lngrad::LayerNormGrad(shape, A(0), A(1), A(2), A(3), A(4), eps, A(5), A(6), opt);
    case 1:
      return lngrad::LayerNormGradBeta(shape, A(0), A(1), A(2), A(3), opt);
    case 2:
      return lngrad::LayerNormBackward(shape, A(0), A(1), A(2), A(3), A(4), eps, A(5), A(6), A(7),
                                       opt);
    default:
      return lngrad::LayerNorm(shape, A(0), A(1), A(2), eps, A(3), A(4), A(5), opt);
  }
}

// The call's status matches `valid`; a failed call wrote nothing, a successful one only its
// outputs.
void CheckEffects(const lngrad::Status& s, bool valid, const lngrad::Options& opt,
                  const std::vector<Arg>& args, const std::vector<unsigned char>& arena,
                  const std::vector<unsigned char>& before) {
  if (s.ok() != valid) {
    if (!s.ok() && s.code() == lngrad::StatusCode::kUnsupported && opt.impl == lngrad::Impl::kSimd)
      return;  // the build may lack the SIMD path
    Fail(valid ? "valid call refused" : "invalid call accepted", s);
  }
  if (!s.ok()) {
    if (s.message().empty()) Fail("error without a message", s);
    if (arena != before) Fail("memory written by a call that failed", s);
    return;
  }
  // Success: bytes outside every output are untouched.
  std::vector<bool> is_out(kArenaBytes, false);
  for (const Arg& a : args) {
    if (!a.output) continue;
    for (size_t k = 0; k < a.bytes; ++k) is_out[a.offset + k] = true;
  }
  for (size_t k = 0; k < kArenaBytes; ++k) {
    if (!is_out[k] && arena[k] != before[k]) Fail("bytes outside the outputs written", s);
  }
}

template <typename T>
void RunOne(FuzzedDataProvider& p, int fn) {
  const lngrad::RowShape shape{PickExtent(p), PickExtent(p)};
  const float eps = PickEpsilon(p);
  lngrad::Options opt;
  opt.num_threads =
      p.ConsumeBool() ? p.ConsumeIntegralInRange<int>(0, 4) : p.ConsumeIntegral<int>();
  const int impl_value = p.ConsumeIntegralInRange<int>(-1, 3);
  opt.impl = static_cast<lngrad::Impl>(impl_value);

  // Sizes as the rules define them; "fits" false when rows*h*sizeof(T) is not addressable.
  // LayerNormBackward alone takes an empty batch (rows = 0), whose empty tensors may be null.
  const int64_t min_rows = fn == 2 ? 0 : 1;
  bool shape_ok = shape.rows >= min_rows && shape.h >= 1;
  bool fits = true;
  int64_t matrix = 0;
  if (shape_ok) {
    int64_t bytes = 0;
    fits = !__builtin_mul_overflow(shape.rows, shape.h, &matrix) &&
           !__builtin_mul_overflow(matrix, static_cast<int64_t>(sizeof(T)), &bytes) &&
           !__builtin_mul_overflow(shape.rows, static_cast<int64_t>(sizeof(T)), &bytes) &&
           !__builtin_mul_overflow(shape.h, static_cast<int64_t>(sizeof(T)), &bytes);
  }
  const std::vector<Spec> specs = SpecsOf(fn);
  const bool small =
      shape_ok && fits && static_cast<uint64_t>(matrix) * sizeof(T) * 8 <= kArenaBytes;
  // A valid shape too big for the arena cannot be given memory; only invalid calls are made then.
  std::vector<Arg> args(specs.size());
  bool any_null = false;
  const bool packed = p.ConsumeBool();  // disjoint layout, else fuzzer-chosen offsets
  size_t next = 0;
  for (size_t i = 0; i < specs.size(); ++i) {
    Arg& a = args[i];
    a.output = specs[i].output;
    a.null = p.ConsumeIntegralInRange<int>(0, 15) == 0;
    const int64_t n = specs[i].kind == 0 ? matrix : specs[i].kind == 1 ? shape.rows : shape.h;
    any_null |= a.null && !(shape_ok && fits && n == 0);  // an empty tensor may be null
    a.bytes = small ? static_cast<size_t>(n) * sizeof(T) : 0;
    const size_t max_off = kArenaBytes - std::min(a.bytes, kArenaBytes);
    size_t off =
        packed ? next : p.ConsumeIntegralInRange<size_t>(0, max_off / sizeof(T)) * sizeof(T);
    off = std::min(off, max_off);
    a.offset = off;
    next = std::min(next + a.bytes, kArenaBytes);
  }
  bool overlap = false;
  for (size_t i = 0; i < args.size(); ++i) {
    for (size_t j = i + 1; j < args.size(); ++j) {
      if ((args[i].output || args[j].output) && Overlap(args[i], args[j])) overlap = true;
    }
  }
  const bool eps_ok = std::isfinite(eps) && eps >= 0.0f;
  const bool opt_ok = opt.num_threads >= 0 && impl_value >= 0 && impl_value <= 2;
  const bool uses_eps = fn != 1;
  const bool valid = shape_ok && fits && !any_null && !overlap && (!uses_eps || eps_ok) && opt_ok;
  if (valid && !small) return;  // would need more memory than the arena has

  std::vector<unsigned char> arena(kArenaBytes);
  // Half-ish and float-ish bit patterns alike; any value is allowed (values are not checked).
  for (auto& b : arena) b = p.ConsumeIntegral<unsigned char>();
  const std::vector<unsigned char> before = arena;

  const lngrad::Status s = Call<T>(fn, shape, arena, args, eps, opt);
  CheckEffects(s, valid, opt, args, arena, before);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::unsetenv("LNGRAD_IMPL");  // kAuto would honour it
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider p(data, size);
  const int fn = p.ConsumeIntegralInRange<int>(0, 3);
  if (p.ConsumeBool()) {
    RunOne<float>(p, fn);
  } else {
    RunOne<lngrad::Half>(p, fn);
  }
  return 0;
}
