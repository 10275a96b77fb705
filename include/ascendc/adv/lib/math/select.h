// lngrad: the Ascend C high-level selection APIs Where and Clamp (Ascend 950 only), ClampMin and
// ClampMax (every product) — the vendor's adv_api/math/{where,clamp}.h. Exact.
//
// Where: dst[i] = condition[i] ? src0[i] : src1[i], each source a LocalTensor<T> or a scalar of
// type T, condition bool (a nonzero byte selects src0); T bool, 8- to 64-bit integers, half,
// bfloat16_t or float (where_3510_impl.h's static_asserts); the element's bits are copied (the
// register Select), only count elements are written. Clamp: dst = Min(Max(src,
// min), max) with min and max each a LocalTensor<T> or a scalar; ClampMin = Max(src, scalar),
// ClampMax = Min(src, scalar) — the device's Maxs/Mins, with its convention that a NaN source
// yields the bound (lngrad_aicore/instructions.h), on 2201/2002; the 950 (clamp_3510_impl.h,
// and Clamp, which only it has) takes the register Max/Min/Maxs/Mins: a NaN operand gives NaN,
// a +-0 tie keeps src (math_common.h RegMaxOf / RegMinOf).
//
// Checked mode: count within every tensor operand, 32-byte aligned operands, dst disjoint from
// every source tensor, the product; ClampMin/ClampMax: sharedTmpBuffer at least 64 bytes
// (float) or 128 (half) on 2201/2002 (GetClampMaxMinTmpSize) and disjoint from the operands.
// ClampMin/ClampMax leave the scratch alone on every product, as the kit's (clamp_common_impl.h
// runs one Maxs / Mins on the sources; clamp_3510_impl.h works in registers).
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_common.h"

namespace lngrad::aicore::math_detail {

template <typename X>
struct IsLocalTensor : std::false_type {};
template <typename E>
struct IsLocalTensor<AscendC::LocalTensor<E>> : std::true_type {};

// Element i of an operand that is a tensor or a scalar (a bool element as its byte).
template <typename T, typename X>
Loaded<T> At(const X& x, uint64_t i) {
  if constexpr (IsLocalTensor<X>::value) {
    return LoadElem(x.HostPtr(), i);
  } else {
    return static_cast<T>(x);
  }
}

// Checks, records and runs dst[i] = f(a_i, b_i, c_i) where a, b, c are tensors or scalars.
template <typename T, typename A, typename B, typename C, typename F>
void TernaryPass(const char* api, Products products, const AscendC::LocalTensor<T>& dst,
                 const char* na, const A& a, const char* nb, const B& b, const char* nc, const C& c,
                 int64_t count, SrcLoc loc, F&& f) {
  Operands all({Op(dst, "dst")});
  if constexpr (IsLocalTensor<A>::value) all.ops[all.n++] = Op(a, na);
  if constexpr (IsLocalTensor<B>::value) all.ops[all.n++] = Op(b, nb);
  if constexpr (IsLocalTensor<C>::value) all.ops[all.n++] = Op(c, nc);
  CheckElementwise(api, count, products, Overlap::kNone, all);
  detail::RestoreMaskAfterCount(detail::MaskContext(api));
  const uint64_t n = static_cast<uint64_t>(count);
  Record(api, loc, n, all);
  T* out = dst.HostPtr();
  for (uint64_t i = 0; i < n; ++i) StoreElem(out, i, f(i));
}

// GetClampMaxMinTmpSize's minimum, on the products whose sequence uses the buffer.
template <typename T>
uint64_t ClampTmpMin() {
  if (detail::rep::RunningArch() == NpuArch::k3510) return 0;
  return sizeof(T) == 4 ? 64 : 128;
}

template <typename T>
inline constexpr bool kClampType = kBitwiseInt<T> || kHalfOrFloat<T>;

// Where's element types (where_3510_impl.h's static_assert).
template <typename T>
inline constexpr bool kWhereType =
    kBitwiseInt<T> || kHalfOrFloat<T> || std::is_same_v<T, bool> || std::is_same_v<T, bfloat16_t>;

// The operand kinds where_3510_impl.h asserts: a tensor source holds T, a scalar is a T.
template <typename T, typename X>
constexpr bool WhereOperandOf() {
  if constexpr (IsLocalTensor<X>::value) {
    return std::is_same_v<typename X::PrimType, T>;
  } else {
    return std::is_same_v<X, T>;
  }
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

LNGRAD_MATH_CONFIG(ClampConfig, DEFAULT_CLAMP_CONFIG)

template <typename T, typename U, typename S, typename V>
void Where(const LocalTensor<T>& dst, const U& src0, const S& src1, const LocalTensor<V>& condition,
           const uint32_t count, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kWhereType<T>,
                "Where: T must be bool, an 8- to 64-bit integer, half, bfloat16_t or float");
  static_assert(std::is_same_v<V, bool>, "Where: condition must be bool");
  static_assert(m::WhereOperandOf<T, U>() && m::WhereOperandOf<T, S>(),
                "Where: src0 and src1 must be LocalTensor<T> or T");
  m::TernaryPass("Where", m::Products::kOnly3510, dst, "src0", src0, "src1", src1, "condition",
                 condition, count, loc, [&](uint64_t i) {
                   const bool c = m::LoadElem(condition.HostPtr(), i) != 0;
                   return c ? m::At<T>(src0, i) : m::At<T>(src1, i);
                 });
}

template <const ClampConfig& config = DEFAULT_CLAMP_CONFIG, typename T, typename U, typename S>
void Clamp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& min, const S& max,
           const uint32_t count, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kClampType<T>, "Clamp: T must be an integer of 8 to 64 bits, half or float");
  m::TernaryPass("Clamp", m::Products::kOnly3510, dst, "src", src, "min", min, "max", max, count,
                 loc, [&](uint64_t i) {
                   const T lo = m::RegMaxOf(src.HostPtr()[i], m::At<T>(min, i));
                   return m::RegMinOf(lo, m::At<T>(max, i));
                 });
}

#define LNGRAD_CLAMP_SCALAR(Name, Fn)                                                             \
  template <typename T, bool isReuseSource = false>                                               \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                     \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount, \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                     \
    namespace m = lngrad::aicore::math_detail;                                                    \
    static_assert(m::kHalfOrFloat<T>, #Name ": T must be half or float");                         \
    const uint64_t tmp_min = m::ClampTmpMin<T>();                                                 \
    m::UnaryPass<m::PassScratch::kModelled>(                                                      \
        #Name, m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer,      \
        tmp_min, calCount, loc, [scalar](T x) { return m::Fn(x, scalar); });                      \
  }                                                                                               \
  template <typename T, bool isReuseSource = false>                                               \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,     \
            const uint32_t calCount,                                                              \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                     \
    Name<T, isReuseSource>(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), scalar, \
                           calCount, loc);                                                        \
  }

// dst = Max(src, scalar).
LNGRAD_CLAMP_SCALAR(ClampMin, ClampMaxOf)
// dst = Min(src, scalar).
LNGRAD_CLAMP_SCALAR(ClampMax, ClampMinOf)
#undef LNGRAD_CLAMP_SCALAR

}  // namespace AscendC
