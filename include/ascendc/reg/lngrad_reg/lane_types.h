// lngrad register API: the lane types of the register table (lngrad_reg/op_table.h) as bits, and
// the type sets its rows name.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lngrad_aicore/bfloat16.h"
#include "lngrad_aicore/half.h"

namespace lngrad::reg {

// Lane types as bits, for the table's type column.
enum TypeBit : uint32_t {
  kI8 = 1u << 0,
  kU8 = 1u << 1,
  kI16 = 1u << 2,
  kU16 = 1u << 3,
  kI32 = 1u << 4,
  kU32 = 1u << 5,
  kI64 = 1u << 6,
  kU64 = 1u << 7,
  kF32 = 1u << 8,
  kF16 = 1u << 9,    // half
  kBF16 = 1u << 10,  // bfloat16_t
};
template <typename T>
inline constexpr uint32_t kTypeBit = std::is_same_v<T, int8_t>       ? kI8
                                     : std::is_same_v<T, uint8_t>    ? kU8
                                     : std::is_same_v<T, int16_t>    ? kI16
                                     : std::is_same_v<T, uint16_t>   ? kU16
                                     : std::is_same_v<T, int32_t>    ? kI32
                                     : std::is_same_v<T, uint32_t>   ? kU32
                                     : std::is_same_v<T, int64_t>    ? kI64
                                     : std::is_same_v<T, uint64_t>   ? kU64
                                     : std::is_same_v<T, float>      ? kF32
                                     : std::is_same_v<T, half>       ? kF16
                                     : std::is_same_v<T, bfloat16_t> ? kBF16
                                                                     : 0u;
template <uint32_t types, typename T>
inline constexpr bool kAllows = (kTypeBit<T> & types) != 0;

inline constexpr uint32_t kB8 = kI8 | kU8;
inline constexpr uint32_t kB16 = kI16 | kU16 | kF16;
inline constexpr uint32_t kB32 = kI32 | kU32 | kF32;
inline constexpr uint32_t kB64 = kI64 | kU64;
inline constexpr uint32_t kArith = kB8 | kB16 | kB32;  // add, sub, mul, and ... (bf16: none)
inline constexpr uint32_t kFloat = kF16 | kF32;        // exp, ln, sqrt, ...
inline constexpr uint32_t kFloatAll = kFloat | kBF16;  // floor, ceil, ...
inline constexpr uint32_t kSigned = kI8 | kI16 | kI32 | kFloat;  // abs, neg
inline constexpr uint32_t kAnyLane = kArith | kBF16 | kB64;      // copy, select, gather
inline constexpr uint32_t kArith64 = kArith | kB64;    // add, sub, adds, muls, not (b64 too)
inline constexpr uint32_t kSigned64 = kSigned | kI64;  // abs, neg (int64_t too)

// half, bfloat16_t and float: computed in float (half: each operation rounded once, which is the
// correctly rounded half operation, as lngrad's vector instructions do).
template <typename T>
inline constexpr bool kIsFloat = (kTypeBit<T> & kFloatAll) != 0;

enum class MaskMode : uint8_t { kZeroing, kMerging };

}  // namespace lngrad::reg
