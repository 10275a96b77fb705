// lngrad register API: the whole-register kernels (lngrad_reg/simd.h), compiled once per
// Highway target by foreach_target. Every lane group is loaded before it is stored, so dst may
// be a or b (the same register); registers never overlap otherwise.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cstdint>

#include "lngrad_reg/registers.h"
#include "lngrad_reg/simd.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::reg::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void CopyVl(void* dst, const void* src) {
  const hn::ScalableTag<uint8_t> d;
  auto* out = static_cast<uint8_t*>(dst);
  const auto* in = static_cast<const uint8_t*>(src);
  for (size_t i = 0; i < kVectorBytes; i += hn::Lanes(d))
    hn::StoreU(hn::LoadU(d, in + i), d, out + i);
}

template <class F>
HWY_INLINE void EachBinary(float* dst, const float* a, const float* b, F f) {
  const hn::ScalableTag<float> d;
  for (size_t i = 0; i < kLanes<float>; i += hn::Lanes(d)) {
    hn::StoreU(f(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, dst + i);
  }
}
void AddVl(float* dst, const float* a, const float* b) {
  EachBinary(dst, a, b, [](auto x, auto y) HWY_ATTR { return hn::Add(x, y); });
}
void SubVl(float* dst, const float* a, const float* b) {
  EachBinary(dst, a, b, [](auto x, auto y) HWY_ATTR { return hn::Sub(x, y); });
}
void MulVl(float* dst, const float* a, const float* b) {
  EachBinary(dst, a, b, [](auto x, auto y) HWY_ATTR { return hn::Mul(x, y); });
}
void DivVl(float* dst, const float* a, const float* b) {
  EachBinary(dst, a, b, [](auto x, auto y) HWY_ATTR { return hn::Div(x, y); });
}
void SqrtVl(float* dst, const float* a) {
  const hn::ScalableTag<float> d;
  for (size_t i = 0; i < kLanes<float>; i += hn::Lanes(d)) {
    hn::StoreU(hn::Sqrt(hn::LoadU(d, a + i)), d, dst + i);
  }
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
  const hn::CappedTag<float, kLanes<float> > d;
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
SimdTable Table() { return SimdTable{CopyVl, {AddVl, SubVl, MulVl, DivVl}, {SqrtVl}, SumVl}; }

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::reg::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace lngrad::reg::detail {

HWY_EXPORT(Table);

constinit SimdTable g_simd{HWY_STATIC_DISPATCH(CopyVl),
                           {HWY_STATIC_DISPATCH(AddVl), HWY_STATIC_DISPATCH(SubVl),
                            HWY_STATIC_DISPATCH(MulVl), HWY_STATIC_DISPATCH(DivVl)},
                           {HWY_STATIC_DISPATCH(SqrtVl)},
                           HWY_STATIC_DISPATCH(SumVl)};

void ChooseSimd() {
  // The first caller fills the table; blocks starting at the same time wait for it.
  static const bool chosen = [] {
    g_simd = HWY_DYNAMIC_DISPATCH(Table)();
    return true;
  }();
  (void)chosen;
}

int64_t SimdTargets() { return HWY_TARGETS; }
void ChooseSimdForTest() { g_simd = HWY_DYNAMIC_DISPATCH(Table)(); }

}  // namespace lngrad::reg::detail
#endif  // HWY_ONCE
