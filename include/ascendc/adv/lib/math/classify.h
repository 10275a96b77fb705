// lngrad: the Ascend C high-level classification APIs IsFinite, IsInf and IsNan (the vendor's
// adv_api/math/{is_finite,is_inf,is_nan}.h; Ascend 950 only). src is half or float; dst is the
// source type (1 where the test holds, else +0) or bool. Exact.
//
// Checked mode: calCount within every operand, 32-byte aligned operands, dst disjoint from
// src, the product.
#pragma once

#include <cmath>
#include <cstdint>

#include "lib/math/math_common.h"

namespace lngrad::aicore::math_detail {

template <typename D, typename S, typename Test>
void Classify(const char* api, const AscendC::LocalTensor<D>& dst,
              const AscendC::LocalTensor<S>& src, int64_t count, SrcLoc loc, Test test) {
  static_assert(kHalfOrFloat<S>, "src must be half or float");
  static_assert(std::is_same_v<D, S> || std::is_same_v<D, bool>,
                "dst must have the source type or be bool");
  UnaryPass(api, Products::kOnly3510, Overlap::kNone, dst, src, nullptr, 0, count, loc,
            [test](S x) {
              const bool hit = test(static_cast<float>(x));
              if constexpr (std::is_same_v<D, bool>) {
                return hit;
              } else {
                return D(hit ? 1.0f : 0.0f);
              }
            });
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

LNGRAD_MATH_CONFIG(IsInfConfig, DEFAULT_IS_INF_CONFIG)
LNGRAD_MATH_CONFIG(IsNanConfig, DEFAULT_IS_NAN_CONFIG)

// Neither NaN nor ±inf.
template <typename T, typename U>
void IsFinite(const LocalTensor<U>& dst, const LocalTensor<T>& src, uint32_t calCount,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::math_detail::Classify("IsFinite", dst, src, calCount, loc,
                                        [](float x) { return std::isfinite(x); });
}

// IsInf and IsNan: with sharedTmpBuffer (0 bytes needed: GetIsInfMaxMinTmpSize) or without.
#define LNGRAD_CLASSIFY_WITH_CONFIG(Name, Config, Default, Test)                        \
  template <const Config& config = Default, typename T, typename U>                     \
  void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count, \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {           \
    lngrad::aicore::math_detail::Classify(#Name, dst, src, count, loc, Test);           \
  }                                                                                     \
  template <const Config& config = Default, typename T, typename U>                     \
  void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src,                       \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count,          \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {           \
    (void)sharedTmpBuffer;                                                              \
    Name<config>(dst, src, count, loc);                                                 \
  }

LNGRAD_CLASSIFY_WITH_CONFIG(IsInf, IsInfConfig, DEFAULT_IS_INF_CONFIG,
                            [](float x) { return std::isinf(x); })
LNGRAD_CLASSIFY_WITH_CONFIG(IsNan, IsNanConfig, DEFAULT_IS_NAN_CONFIG,
                            [](float x) { return std::isnan(x); })
#undef LNGRAD_CLASSIFY_WITH_CONFIG

}  // namespace AscendC
