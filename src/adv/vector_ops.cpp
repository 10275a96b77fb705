// Element-wise primitives: scalar loops and their Highway versions (compiled once per target by
// foreach_target, chosen at run time). Built with -ffp-contract=off: a Mul followed by an Add
// stays two roundings, in both paths.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "vector_ops.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "half_lanes-inl.h"
#include "vector_ops.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::adv::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The scalar tail after the last full vector performs the same single operation per element,
// so it cannot change the bits.
template <class F, class G>
inline void BinaryLoop(float* dst, const float* a, const float* b, size_t n, F vec_op, G scalar_op) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(vec_op(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, dst + i);
  }
  for (; i < n; ++i) dst[i] = scalar_op(a[i], b[i]);
}

void BinarySimd(int op, float* dst, const float* a, const float* b, size_t n) {
  switch (static_cast<BinaryOp>(op)) {
    case BinaryOp::kAdd:
      BinaryLoop(dst, a, b, n, [](auto x, auto y) { return hn::Add(x, y); },
                 [](float x, float y) { return x + y; });
      break;
    case BinaryOp::kSub:
      BinaryLoop(dst, a, b, n, [](auto x, auto y) { return hn::Sub(x, y); },
                 [](float x, float y) { return x - y; });
      break;
    case BinaryOp::kMul:
      BinaryLoop(dst, a, b, n, [](auto x, auto y) { return hn::Mul(x, y); },
                 [](float x, float y) { return x * y; });
      break;
    case BinaryOp::kDiv:
      BinaryLoop(dst, a, b, n, [](auto x, auto y) { return hn::Div(x, y); },
                 [](float x, float y) { return x / y; });
      break;
  }
}

template <class F, class G>
inline void ScalarLoop(float* dst, const float* a, float s, size_t n, F vec_op, G scalar_op) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto vs = hn::Set(d, s);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(vec_op(hn::LoadU(d, a + i), vs), d, dst + i);
  for (; i < n; ++i) dst[i] = scalar_op(a[i], s);
}

void ScalarSimd(int op, float* dst, const float* a, float s, size_t n) {
  switch (static_cast<ScalarOp>(op)) {
    case ScalarOp::kAdds:
      ScalarLoop(dst, a, s, n, [](auto x, auto y) { return hn::Add(x, y); },
                 [](float x, float y) { return x + y; });
      break;
    case ScalarOp::kSubs:
      ScalarLoop(dst, a, s, n, [](auto x, auto y) { return hn::Sub(x, y); },
                 [](float x, float y) { return x - y; });
      break;
    case ScalarOp::kMuls:
      ScalarLoop(dst, a, s, n, [](auto x, auto y) { return hn::Mul(x, y); },
                 [](float x, float y) { return x * y; });
      break;
    case ScalarOp::kDivs:
      ScalarLoop(dst, a, s, n, [](auto x, auto y) { return hn::Div(x, y); },
                 [](float x, float y) { return x / y; });
      break;
  }
}

void UnarySimd(int op, float* dst, const float* a, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  if (static_cast<UnaryOp>(op) == UnaryOp::kSqrt) {
    for (; i + lanes <= n; i += lanes) hn::StoreU(hn::Sqrt(hn::LoadU(d, a + i)), d, dst + i);
    for (; i < n; ++i) dst[i] = __builtin_sqrtf(a[i]);
  } else {
    const auto one = hn::Set(d, 1.0f);
    for (; i + lanes <= n; i += lanes) hn::StoreU(hn::Div(one, hn::LoadU(d, a + i)), d, dst + i);
    for (; i < n; ++i) dst[i] = 1.0f / a[i];
  }
}

void FillSimd(float* dst, float value, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto v = hn::Set(d, value);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(v, d, dst + i);
  for (; i < n; ++i) dst[i] = value;
}

void BroadcastRowsSimd(float* dst, const float* src, size_t rows, size_t h) {
  for (size_t r = 0; r < rows; ++r) FillSimd(dst + r * h, src[r], h);
}

// F16C conversions (half_lanes-inl.h); targets without F16C keep the scalar loop.
void CastHalfToFloatSimd(float* dst, const Half* src, size_t n) {
  size_t i = 0;
#ifdef LNGRAD_DEVMATH_F16C
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  for (; i + lanes <= n; i += lanes) hn::StoreU(LoadHalfAsFloat(src + i), df, dst + i);
#endif
  for (; i < n; ++i) dst[i] = HalfBitsToFloat(src[i].bits);
}

void CastFloatToHalfSimd(Half* dst, const float* src, size_t n) {
  size_t i = 0;
#ifdef LNGRAD_DEVMATH_F16C
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  for (; i + lanes <= n; i += lanes) StoreFloatAsHalf(hn::LoadU(df, src + i), dst + i);
#endif
  for (; i < n; ++i) dst[i] = Half::FromBits(FloatToHalfBits(src[i]));
}

#undef LNGRAD_DEVMATH_F16C

const char* TargetNameSimd() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::adv::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cmath>
#include <cstring>

namespace lngrad::adv::detail {

HWY_EXPORT(BinarySimd);
HWY_EXPORT(ScalarSimd);
HWY_EXPORT(UnarySimd);
HWY_EXPORT(TargetNameSimd);
HWY_EXPORT(FillSimd);
HWY_EXPORT(BroadcastRowsSimd);
HWY_EXPORT(CastHalfToFloatSimd);
HWY_EXPORT(CastFloatToHalfSimd);

namespace {

// True when [a, a+n) and [b, b+n) share memory but do not start at the same element: the
// vector loop would then read elements that an earlier lane group already wrote.
bool PartialOverlap(const float* a, const float* b, size_t n) {
  if (a == b || n == 0) return false;
  const auto pa = reinterpret_cast<uintptr_t>(a);
  const auto pb = reinterpret_cast<uintptr_t>(b);
  const uintptr_t bytes = n * sizeof(float);
  return pa < pb + bytes && pb < pa + bytes;
}

}  // namespace

void Ops::Binary(BinaryOp op, float* dst, const float* a, const float* b, size_t n) const {
  if (simd && !PartialOverlap(dst, a, n) && !PartialOverlap(dst, b, n)) {
    HWY_DYNAMIC_DISPATCH(BinarySimd)(static_cast<int>(op), dst, a, b, n);
    return;
  }
  switch (op) {
    case BinaryOp::kAdd: for (size_t i = 0; i < n; ++i) dst[i] = a[i] + b[i]; break;
    case BinaryOp::kSub: for (size_t i = 0; i < n; ++i) dst[i] = a[i] - b[i]; break;
    case BinaryOp::kMul: for (size_t i = 0; i < n; ++i) dst[i] = a[i] * b[i]; break;
    case BinaryOp::kDiv: for (size_t i = 0; i < n; ++i) dst[i] = a[i] / b[i]; break;
  }
}

void Ops::Scalar(ScalarOp op, float* dst, const float* a, float s, size_t n) const {
  if (simd && !PartialOverlap(dst, a, n)) {
    HWY_DYNAMIC_DISPATCH(ScalarSimd)(static_cast<int>(op), dst, a, s, n);
    return;
  }
  switch (op) {
    case ScalarOp::kAdds: for (size_t i = 0; i < n; ++i) dst[i] = a[i] + s; break;
    case ScalarOp::kSubs: for (size_t i = 0; i < n; ++i) dst[i] = a[i] - s; break;
    case ScalarOp::kMuls: for (size_t i = 0; i < n; ++i) dst[i] = a[i] * s; break;
    case ScalarOp::kDivs: for (size_t i = 0; i < n; ++i) dst[i] = a[i] / s; break;
  }
}

void Ops::Unary(UnaryOp op, float* dst, const float* a, size_t n) const {
  if (simd && !PartialOverlap(dst, a, n)) {
    HWY_DYNAMIC_DISPATCH(UnarySimd)(static_cast<int>(op), dst, a, n);
    return;
  }
  if (op == UnaryOp::kSqrt) {
    for (size_t i = 0; i < n; ++i) dst[i] = std::sqrt(a[i]);
  } else {
    for (size_t i = 0; i < n; ++i) dst[i] = 1.0f / a[i];
  }
}

void Fill(float* dst, float value, size_t n, bool simd) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(FillSimd)(dst, value, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) dst[i] = value;
}

void BroadcastRows(float* dst, const float* src, size_t rows, size_t h, bool simd) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(BroadcastRowsSimd)(dst, src, rows, h);
    return;
  }
  for (size_t r = 0; r < rows; ++r) {
    // Row by row in increasing order, each value read just before its row is written.
    const float v = src[r];
    for (size_t i = 0; i < h; ++i) dst[r * h + i] = v;
  }
}

void CastHalfToFloat(float* dst, const Half* src, size_t n, bool simd) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(CastHalfToFloatSimd)(dst, src, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) dst[i] = HalfBitsToFloat(src[i].bits);
}

void CastFloatToHalf(Half* dst, const float* src, size_t n, bool simd) {
  if (simd) {
    HWY_DYNAMIC_DISPATCH(CastFloatToHalfSimd)(dst, src, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) dst[i] = Half::FromBits(FloatToHalfBits(src[i]));
}


void Ops::Fill(float* d, float v, size_t n) const { detail::Fill(d, v, n, simd); }
void Ops::BroadcastRows(float* d, const float* src, size_t rows, size_t h) const {
  detail::BroadcastRows(d, src, rows, h, simd);
}
void Ops::CastHalfToFloat(float* d, const Half* s, size_t n) const {
  detail::CastHalfToFloat(d, s, n, simd);
}
void Ops::CastFloatToHalf(Half* d, const float* s, size_t n) const {
  detail::CastFloatToHalf(d, s, n, simd);
}
float Ops::Tree(const float* src, uint32_t n) const {
  float out;
  TreeSums(simd, src, 0, n, 1, &out);
  return out;
}
void Ops::ReduceSumRows(float* dst, const float* src, uint32_t cal, uint32_t h) const {
  ReduceSumRowsWith(simd, dst, src, cal, h);
}

Half FloatToHalfSaturate(float f) {
  uint16_t bits = FloatToHalfBits(f);
  if ((bits & 0x7FFFu) == 0x7C00u) bits = static_cast<uint16_t>((bits & 0x8000u) | 0x7BFFu);
  return Half::FromBits(bits);
}

const char* DispatchedTargetName() { return HWY_DYNAMIC_DISPATCH(TargetNameSimd)(); }

}  // namespace lngrad::adv::detail
#endif  // HWY_ONCE
