// lngrad Ascend C runtime: the language extensions of Ascend C, mapped onto plain C++.
//
// Device code is written with BuiltIn qualifiers (__aicore__, __global__, __gm__, ...) that the
// device compiler understands. On the CPU they carry no meaning, so they are defined away, as the
// CANN CPU-debug mode does. Consequence (same as CANN): two functions that differ only in these
// qualifiers clash.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
// The kernel parameter that carries the system workspace (GetSysWorkSpacePtr's on the device).
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif
// __mix__(aic, aiv): a mixed kernel (lngrad-asc reads the ratio at the definition).
#ifndef __mix__
#define __mix__(aic, aiv)
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
// The device compiler's branch hints (function-like: the [[likely]] attribute is untouched).
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __biasbuf__
#define __biasbuf__
#endif
#ifndef __inout_pipe__
#define __inout_pipe__(pipe)
#endif
#ifndef __in_pipe__
#define __in_pipe__(pipe)
#endif
#ifndef __out_pipe__
#define __out_pipe__(pipe)
#endif
#ifndef __sync_alias__
#define __sync_alias__
#endif
#ifndef __sync_noalias__
#define __sync_noalias__
#endif

// The kernel's compile-time architecture. The device compiler sets it from --npu-arch; a CPU
// build may pass -D__NPU_ARCH__=<nnnn>. Without it we assume Atlas A2/A3 (dav-2201), the default
// of the CANN CPU-debug flow. Note: the runtime product (LNGRAD_SOC / SetCurrentSoc) is chosen
// independently; see docs/ascendc_compat.md.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

// Kernel parameters pointing to global memory.
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif

namespace AscendC {

// Core types. The running core's (cores.h): AIV outside a launch and in vector kernels, AIC in
// cube kernels and on the cube side of mixed ones; set by the launcher per block.
enum CoreType : int32_t { MIX = 0, AIC = 1, AIV = 2 };
extern thread_local int32_t g_coreType;

// The packed signed 4-bit integer of Cast (the vendor's int4b_t): two elements per byte, element
// 2k in the low nibble of byte k. One object holds one value in its low nibble; tensors of it
// count elements, not bytes (lngrad::aicore::kElemBits), and are made by ReinterpretCast from a
// tensor of bytes, as the vendor's documentation says.
struct int4b_t {
  uint8_t storage;

  int4b_t() = default;
  constexpr int4b_t(int32_t v) noexcept : storage(static_cast<uint8_t>(v & 0xF)) {}
  constexpr int4b_t(uint32_t v) noexcept : storage(static_cast<uint8_t>(v & 0xFu)) {}
  // Sign-extended from bit 3.
  constexpr operator int8_t() const noexcept {
    return static_cast<int8_t>((storage & 0x8u) != 0 ? (storage | 0xF0u) : storage);
  }
  constexpr bool operator==(const int4b_t& o) const noexcept {
    return (storage & 0xFu) == (o.storage & 0xFu);
  }
};

// The vendor's type test (IsSameType<T, U>::value), as kernels spell it.
template <typename T, typename U>
struct IsSameType : std::is_same<T, U> {};

}  // namespace AscendC

// The device compiler's built-in that reads a constant struct from the bytes of a constant
// array (AOT-compiled tilings: `static constexpr T value = convert_from_bytes<T>(bytes)`): the
// first sizeof(T) bytes, as memcpy would, but in a constant expression.
template <typename T>
constexpr T convert_from_bytes(const uint8_t* bytes) noexcept {
  static_assert(std::is_trivially_copyable_v<T>,
                "convert_from_bytes: T must be trivially copyable");
  struct Bytes {
    uint8_t b[sizeof(T)];
  } raw{};
  for (std::size_t i = 0; i < sizeof(T); ++i) raw.b[i] = bytes[i];
  return std::bit_cast<T>(raw);
}

// Used as `if ASCEND_IS_AIC { return; }` in kernels, hence the parentheses.
#ifndef ASCEND_IS_AIC
#define ASCEND_IS_AIC (::AscendC::g_coreType == ::AscendC::AIC)
#endif
#ifndef ASCEND_IS_AIV
#define ASCEND_IS_AIV (::AscendC::g_coreType == ::AscendC::AIV)
#endif

namespace lngrad::aicore {

// Whether tensors of T count 4-bit elements: int4b_t (the cube specialises it for its fp4x2 types).
template <typename T>
struct IsFourBit : std::is_same<T, AscendC::int4b_t> {};
// Bits one element of T occupies in memory (the 4-bit types: 4, every other type 8 * sizeof).
template <typename T>
inline constexpr uint32_t kElemBits = IsFourBit<std::remove_cv_t<T>>::value ? 4u : 8u * sizeof(T);
// Bytes n elements of T occupy (a half-filled last byte counts).
template <typename T>
constexpr uint64_t ElemBytes(uint64_t n) noexcept {
  return (n * kElemBits<T> + 7) / 8;
}
// Elements of T that `bytes` bytes hold (the 4-bit types: two a byte, as the vendor's
// TBuf::Get and LocalTensor::GetSize count int4b_t).
template <typename T>
constexpr uint64_t ElemCount(uint64_t bytes) noexcept {
  return bytes * 8 / kElemBits<T>;
}

}  // namespace lngrad::aicore
