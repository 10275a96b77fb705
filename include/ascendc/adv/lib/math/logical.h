// lngrad: the Ascend C high-level logic APIs LogicalAnd, LogicalOr, LogicalXor and LogicalNot
// (the vendor's adv_api/math/logical_{and,or,xor,not}.h; Ascend 950 only). dst is bool; a
// source element is false when it is zero (+0 or -0 for floating types) and true otherwise
// (NaN included), as the vendor documents (零被视为False，非零数据被视为True). Exact.
//
// Checked mode: count within every operand, 32-byte aligned operands, dst disjoint from the
// sources, the product.
#pragma once

#include <cstdint>

#include "lib/math/math_common.h"

namespace AscendC {

LNGRAD_MATH_CONFIG(LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG)
LNGRAD_MATH_CONFIG(LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG)
LNGRAD_MATH_CONFIG(LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG)
LNGRAD_MATH_CONFIG(LogicalNotConfig, DEFAULT_LOGICAL_NOT_CONFIG)

#define LNGRAD_LOGICAL_BINARY(Name, Config, Default, Expr)                                       \
  template <const Config& config = Default, typename T, typename U>                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,   \
            const uint32_t count,                                                                \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                    \
    namespace m = lngrad::aicore::math_detail;                                                   \
    static_assert(std::is_same_v<T, bool>, #Name ": dst must be bool");                          \
    m::BinaryPass(#Name, m::Products::kOnly3510, m::Overlap::kNone, dst, src0, src1, nullptr, 0, \
                  count, loc, [](U x, U y) {                                                     \
                    const bool a = m::Truthy(x), b = m::Truthy(y);                               \
                    return static_cast<bool>(Expr);                                              \
                  });                                                                            \
  }

LNGRAD_LOGICAL_BINARY(LogicalAnd, LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG, a&& b)
LNGRAD_LOGICAL_BINARY(LogicalOr, LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG, a || b)
LNGRAD_LOGICAL_BINARY(LogicalXor, LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG, a != b)
#undef LNGRAD_LOGICAL_BINARY

template <const LogicalNotConfig& config = DEFAULT_LOGICAL_NOT_CONFIG, typename T, typename U>
void LogicalNot(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(std::is_same_v<T, bool>, "LogicalNot: dst must be bool");
  m::UnaryPass("LogicalNot", m::Products::kOnly3510, m::Overlap::kNone, dst, src, nullptr, 0, count,
               loc, [](U x) { return !m::Truthy(x); });
}

}  // namespace AscendC
