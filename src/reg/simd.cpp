// lngrad register API: the whole-register kernels (lngrad_reg/simd.h), compiled once per
// Highway target by foreach_target. Every lane group is loaded before it is stored, so dst may
// be a or b (the same register); registers never overlap otherwise.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "hwy/contrib/math/math-inl.h"

#include <cmath>
#include <cstdint>

#include "lngrad_reg/registers.h"
#include "lngrad_reg/simd.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::reg::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void CopyVl(void* dst, const void* src) {
  const hn::CappedTag<uint8_t, kVectorBytes> d;
  auto* out = static_cast<uint8_t*>(dst);
  const auto* in = static_cast<const uint8_t*>(src);
  for (size_t i = 0; i < kVectorBytes; i += hn::Lanes(d))
    hn::StoreU(hn::LoadU(d, in + i), d, out + i);
}

template <class F>
HWY_INLINE void EachBinary(float* dst, const float* a, const float* b, F f) {
  const hn::CappedTag<float, kLanes<float>> d;
  for (size_t i = 0; i < kLanes<float>; i += hn::Lanes(d)) {
    hn::StoreU(f(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, dst + i);
  }
}
// AddVl, SubVl, MulVl, DivVl.
#define LNGRAD_REG_BINARY_KERNEL(op)                                             \
  void op##Vl(float* dst, const float* a, const float* b) {                      \
    EachBinary(dst, a, b, [](auto x, auto y) HWY_ATTR { return hn::op(x, y); }); \
  }
LNGRAD_REG_VL_BINARY_OPS(LNGRAD_REG_BINARY_KERNEL)
#undef LNGRAD_REG_BINARY_KERNEL
void SqrtVl(float* dst, const float* a) {
  const hn::CappedTag<float, kLanes<float>> d;
  for (size_t i = 0; i < kLanes<float>; i += hn::Lanes(d)) {
    hn::StoreU(hn::Sqrt(hn::LoadU(d, a + i)), d, dst + i);
  }
}

// The element functions computed in double and rounded once to float (ops::Exp, ops::Ln: glibc's
// double exp and log). Highway's double Exp and Log are within a few double ulps of the exact
// value (glibc's within one); where every double within a relative 2^-40 of Highway's result
// rounds to the same float (checked: both ends round to it), the exact value and glibc's result
// do too, so that float is the element function's bits. Elsewhere (a rounding boundary nearby,
// about one lane in 2^15; x outside [lo, hi], where the result would be subnormal, infinite or
// NaN) all the vector's lanes call the element function's own scalar_fn. Exhaustively checked
// (tests/reg/fast_path_test.cpp, every float on every target, in place too).
template <class VecFn, class ScalarFn>
HWY_INLINE void RoundedFromDouble(float* dst, const float* a, double lo, double hi, VecFn vec_fn,
                                  ScalarFn scalar_fn) {
  size_t i = 0;
#if HWY_HAVE_FLOAT64
  const hn::CappedTag<double, kLanes<float>> d;
  const hn::Rebind<float, decltype(d)> df;
  const auto below = hn::Set(d, 1.0 - 0x1p-40), above = hn::Set(d, 1.0 + 0x1p-40);
  const auto rounded = [&](auto v) HWY_ATTR { return hn::PromoteTo(d, hn::DemoteTo(df, v)); };
  for (; i < kLanes<float>; i += hn::Lanes(d)) {
    const auto x = hn::PromoteTo(d, hn::LoadU(df, a + i));
    const auto in_range = hn::And(hn::Ge(x, hn::Set(d, lo)), hn::Le(x, hn::Set(d, hi)));
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
    // The emulated targets convert in C++, undefined for NaN: lanes out of range take lo (their
    // results are not used). The others' instructions give some value (7 % faster without).
    const auto y = vec_fn(d, hn::IfThenElse(in_range, x, hn::Set(d, lo)));
#else
    const auto y = vec_fn(d, x);
#endif
    const auto f = hn::DemoteTo(df, y);
    const auto fd = hn::PromoteTo(d, f);
    const auto sure = hn::And(
        hn::And(hn::Eq(rounded(hn::Mul(y, below)), fd), hn::Eq(rounded(hn::Mul(y, above)), fd)),
        in_range);
    if (hn::AllTrue(d, sure)) {
      hn::StoreU(f, df, dst + i);
      continue;
    }
    // Rare: this vector's lanes one by one (each read before it is written: dst may be a).
    for (size_t k = i; k < i + hn::Lanes(d); ++k) {
      dst[k] = static_cast<float>(scalar_fn(static_cast<double>(a[k])));
    }
  }
#endif
  for (; i < kLanes<float>; ++i) dst[i] = static_cast<float>(scalar_fn(static_cast<double>(a[i])));
}
void ExpVl(float* dst, const float* a) {
  RoundedFromDouble(
      dst, a, -100.0, 88.0, [](auto d, auto x) HWY_ATTR { return hn::Exp(d, x); },
      [](double x) { return std::exp(x); });
}
void LnVl(float* dst, const float* a) {
  RoundedFromDouble(
      dst, a, 0x1p-126, 0x1.fffffep127, [](auto d, auto x) HWY_ATTR { return hn::Log(d, x); },
      [](double x) { return std::log(x); });
}

// Level by level: lanes 2i and 2i + 1 summed into i. While more than a vector's worth remain,
// the even and odd lanes of a pair of vectors, added, are a vector of the pair sums in order;
// the last vector's levels stay in it (the pair sums in its lower half).
float SumVl(const float* a) {
  uint32_t n = kLanes<float>;
#if HWY_TARGET == HWY_SCALAR
  float buf[kLanes<float>];
  const float* in = a;
  for (; n > 1; n /= 2, in = buf) {
    for (uint32_t i = 0; i < n / 2; ++i) buf[i] = in[2 * i] + in[2 * i + 1];
  }
  return in[0];
#else
  const hn::CappedTag<float, kLanes<float>> d;
  const size_t lanes = hn::Lanes(d);
  HWY_ALIGN float buf[kLanes<float>];
  const float* in = a;
  for (; n > lanes; n /= 2, in = buf) {
    for (size_t i = 0; i < n; i += 2 * lanes) {  // buf[i / 2, ...) is read before it is written
      const auto lo = hn::LoadU(d, in + i), hi = hn::LoadU(d, in + i + lanes);
      hn::StoreU(hn::Add(hn::ConcatEven(d, hi, lo), hn::ConcatOdd(d, hi, lo)), d, buf + i / 2);
    }
  }
  auto v = hn::LoadU(d, in);
  for (; n > 1; n /= 2) v = hn::Add(hn::ConcatEven(d, v, v), hn::ConcatOdd(d, v, v));
  return hn::GetLane(v);
#endif
}

// This target's table.
#define LNGRAD_REG_KERNEL_OF(op) op##Vl,
SimdTable Table() {
  return SimdTable{CopyVl,
                   {LNGRAD_REG_VL_BINARY_OPS(LNGRAD_REG_KERNEL_OF)},
                   {LNGRAD_REG_VL_UNARY_OPS(LNGRAD_REG_KERNEL_OF)},
                   SumVl};
}
#undef LNGRAD_REG_KERNEL_OF

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::reg::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace lngrad::reg::detail {

HWY_EXPORT(Table);

#define LNGRAD_REG_STATIC_KERNEL(op) HWY_STATIC_DISPATCH(op##Vl),
constinit SimdTable g_simd{HWY_STATIC_DISPATCH(CopyVl),
                           {LNGRAD_REG_VL_BINARY_OPS(LNGRAD_REG_STATIC_KERNEL)},
                           {LNGRAD_REG_VL_UNARY_OPS(LNGRAD_REG_STATIC_KERNEL)},
                           HWY_STATIC_DISPATCH(SumVl)};
#undef LNGRAD_REG_STATIC_KERNEL

// The machine's best target, chosen while the program starts, before any block thread runs
// (a register operation in an earlier static initialiser gets the baseline's: the same bits).
[[maybe_unused]] const bool g_simd_chosen = [] {
  g_simd = HWY_DYNAMIC_DISPATCH(Table)();
  return true;
}();

int64_t SimdTargets() { return HWY_TARGETS; }
void ChooseSimdForTest() { g_simd = HWY_DYNAMIC_DISPATCH(Table)(); }

}  // namespace lngrad::reg::detail
#endif  // HWY_ONCE
