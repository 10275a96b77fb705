// lngrad: the Ascend C high-level logic APIs LogicalAnd, LogicalOr, LogicalXor, LogicalNot,
// LogicalAnds and LogicalOrs (the vendor's adv_api/math/logical_{and,or,xor,not,ands,ors}.h;
// Ascend 950 only). LogicalAnds / LogicalOrs take a vector and a scalar in either order: the
// scalar a value of the vector's element type, or element 0 of a LocalTensor (when both are
// tensors, config.scalarTensorIndex names the scalar one: 0 src0, 1 src1, the default). dst is
// bool; a source element is false when it is zero (+0 or -0 for floating types) and true otherwise
// (NaN included), as the vendor documents (零被视为False，非零数据被视为True); a bool source is
// its byte (the 950's logical_template.h compares the bytes NE 0, so 2 is true). Exact; the
// 950's loops (logical_template.h, logical_xor_3510_impl.h) write count bytes of 1 or 0.
// Sources: bool, 8- to 64-bit integers, half, bfloat16_t, float (the kit's static_assert).
//
// Checked mode: count within every operand (a scalar tensor: one element), 32-byte aligned
// operands, dst disjoint from the sources, the product.
#pragma once

#include <cstdint>
#include <type_traits>

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
    static_assert(m::kLogicalSource<U>, #Name                                                    \
                  ": U must be bool, an integer, half, bfloat16_t "                              \
                  "or float");                                                                   \
    m::BinaryPass(#Name, m::Products::kOnly3510, m::Overlap::kNone, dst, src0, src1, nullptr, 0, \
                  count, loc, [](m::Loaded<U> x, m::Loaded<U> y) {                               \
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
  static_assert(m::kLogicalSource<U>,
                "LogicalNot: U must be bool, an integer, half, bfloat16_t or float");
  m::UnaryPass("LogicalNot", m::Products::kOnly3510, m::Overlap::kNone, dst, src, nullptr, 0, count,
               loc, [](m::Loaded<U> x) { return !m::Truthy(x); });
}

}  // namespace AscendC

namespace lngrad::aicore::math_detail {

template <typename X>
inline constexpr bool kIsLocalTensor = false;
template <typename V>
inline constexpr bool kIsLocalTensor<AscendC::LocalTensor<V>> = true;

// dst[i] = op(Truthy(vec[i]), Truthy(scalar)); `scalar_t` the LocalTensor holding the scalar
// at element 0, or null for a value.
template <typename V, typename F>
void LogicalScalarPass(const char* api, const AscendC::LocalTensor<bool>& dst,
                       const AscendC::LocalTensor<V>& vec, V scalar,
                       const AscendC::LocalTensor<V>* scalar_t, uint32_t count, SrcLoc loc, F op) {
  const Operand d = Op(dst, "dst"), v = Op(vec, "src");
  CheckElementwise(api, count, Products::kOnly3510, Overlap::kNone, {d, v});
  Loaded<V> scalar_elem = scalar;
  if (scalar_t != nullptr) {
    const Operand st = Op(*scalar_t, "scalar tensor");
    CheckElementwise(api, 1, Products::kOnly3510, Overlap::kNone, {st});
    if (CheckedMode() && Overlaps(d.view, count, st.view, sizeof(V))) {
      RaiseOverlap(api, "dst", "the scalar tensor");
    }
    scalar_elem = LoadElem(scalar_t->HostPtr(), 0);
  }
  detail::RestoreMaskAfterCount(detail::MaskContext(api));
  if (san::Instr in(Pipe::kV, api, loc); in) {
    in.Read(v.view.ptr, uint64_t{count} * sizeof(V));
    if (scalar_t != nullptr) in.Read(scalar_t->View().ptr, sizeof(V));
    in.Write(d.view.ptr, count);
  }
  const bool b = Truthy(scalar_elem);
  bool* out = dst.HostPtr();
  const V* in = vec.HostPtr();
  for (uint32_t i = 0; i < count; ++i) StoreElem(out, i, op(Truthy(LoadElem(in, i)), b));
}

// The operand forms of LogicalAnds / LogicalOrs: tensor and scalar in either order, or two
// tensors with the scalar one named by `index`.
template <int8_t index, typename U, typename S, typename F>
void LogicalScalarForms(const char* api, const AscendC::LocalTensor<bool>& dst, const U& src0,
                        const S& src1, uint32_t count, SrcLoc loc, F op) {
  static_assert(kIsLocalTensor<U> || kIsLocalTensor<S>, "one of src0 and src1 must be a tensor");
  if constexpr (kIsLocalTensor<U> && kIsLocalTensor<S>) {
    static_assert(std::is_same_v<U, S>, "src0 and src1 must have the same element type");
    using V = typename U::PrimType;
    const U& vec = index == 0 ? src1 : src0;
    const U& sc = index == 0 ? src0 : src1;
    LogicalScalarPass<V>(api, dst, vec, V{}, &sc, count, loc, op);
  } else if constexpr (kIsLocalTensor<U>) {
    static_assert(std::is_same_v<typename U::PrimType, S>, "the scalar must have src0's type");
    LogicalScalarPass<S>(api, dst, src0, src1, nullptr, count, loc, op);
  } else {
    static_assert(std::is_same_v<typename S::PrimType, U>, "the scalar must have src1's type");
    LogicalScalarPass<U>(api, dst, src1, src0, nullptr, count, loc, op);
  }
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

// The config (isReuseSource reserved; scalarTensorIndex: which tensor operand is the scalar
// when both are tensors) and the API of LogicalAnds / LogicalOrs.
#define LNGRAD_LOGICAL_SCALAR(Name, Config, Default, Expr)                                 \
  struct Config {                                                                          \
    bool isReuseSource;                                                                    \
    int8_t scalarTensorIndex;                                                              \
  };                                                                                       \
  constexpr Config Default = {false, 1};                                                   \
  template <const Config& config = Default, typename T, typename U, typename S>            \
  void Name(const LocalTensor<T>& dst, const U& src0, const S& src1, const uint32_t count, \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {              \
    static_assert(std::is_same_v<T, bool>, #Name ": dst must be bool");                    \
    lngrad::aicore::math_detail::LogicalScalarForms<config.scalarTensorIndex>(             \
        #Name, dst, src0, src1, count, loc,                                                \
        [](bool a, bool b) { return static_cast<bool>(Expr); });                           \
  }

LNGRAD_LOGICAL_SCALAR(LogicalAnds, LogicalAndsConfig, DEFAULT_LOGICAL_ANDS_CONFIG, a&& b)
LNGRAD_LOGICAL_SCALAR(LogicalOrs, LogicalOrsConfig, DEFAULT_LOGICAL_ORS_CONFIG, a || b)
#undef LNGRAD_LOGICAL_SCALAR

}  // namespace AscendC
