// lngrad: the dump functions of the vendor's "utils/debug/asc_dump.h": asc_dump_ubuf, asc_dump_gm
// and asc_dump on a UB or GM pointer, asc_dump_reg and asc_dump on a register (inside a vector
// function, Ascend 950). Each prints one message through the kernel's printf
// (utils/debug/asc_printf.h: the same formatter, the block prefix outside a vector function,
// none inside one, ASCENDC_DUMP=0 silences it) in the form of the reference's DumpTensor:
//   DumpTensor: desc=<desc>, addr=<UB byte address or GM address>, data_type=<float16, float32,
//   bfloat16, int8 ... uint64, bool>, position=<UB, GM or REG>, dump_size=<n>
//   [v0, v1, ...]
// The cube's memories print as the vendor's position names: L1 (asc_dump_l1buf), L0C
// (asc_dump_cbuf), BIAS and FIXBUF (asc_dump on a __biasbuf__ / __fbuf__ pointer, the 950), with
// addr the byte address in that memory; AscendC::DumpTensor (basic_api/
// kernel_operator_dump_tensor_intf.h) prints the same form for a LocalTensor or GlobalTensor. A
// memory dump is a PIPE_ALL barrier before and after, as the device's (its dump copies through
// every pipe).
// The first dump_size elements (a register: at most its lanes): floats with %f (half, bfloat16_t
// and hifloat8_t widened), integers in decimal. The reference's limits on the dump buffer (30 KB
// per core, 2 KB per vector function call) are not modelled: everything is printed.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "lngrad_aicore/bfloat16.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/defs.h"
#include "lngrad_aicore/fp8.h"
#include "lngrad_aicore/half.h"
#include "lngrad_aicore/local_memory.h"
#include "lngrad_aicore/sync.h"
#include "lngrad_reg/registers.h"
#include "utils/debug/asc_printf.h"

namespace lngrad::reg::detail {

template <typename T>
constexpr const char* DumpTypeName() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  if constexpr (std::is_same_v<T, half>) return "float16";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
  if constexpr (std::is_same_v<T, float>) return "float32";
  if constexpr (std::is_same_v<T, hifloat8_t>) return "hifloat8";
  if constexpr (std::is_integral_v<T>) {
    constexpr const char* kSigned[] = {"int8", "int16", "", "int32", "", "", "", "int64"};
    constexpr const char* kUnsigned[] = {"uint8", "uint16", "", "uint32", "", "", "", "uint64"};
    return std::is_signed_v<T> ? kSigned[sizeof(T) - 1] : kUnsigned[sizeof(T) - 1];
  }
  return "unknown";
}

template <typename T>
std::string DumpElement(T v) {
  namespace d = ::lngrad::aicore::debug_detail;
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "1" : "0";
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return d::Format("%lld", static_cast<long long>(v));
  } else if constexpr (std::is_integral_v<T>) {
    return d::Format("%llu", static_cast<unsigned long long>(v));
  } else {
    return d::Format("%f", static_cast<double>(static_cast<float>(v)));
  }
}

// The message for n elements of T at p.
template <typename T>
void Dump(const T* p, uint32_t n, uint32_t desc, uint32_t dump_size, const char* position,
          uint64_t addr) {
  namespace d = ::lngrad::aicore::debug_detail;
  std::string text = d::Format(
      "DumpTensor: desc=%u, addr=%llu, data_type=%s, position=%s, "
      "dump_size=%u\n[",
      desc, static_cast<unsigned long long>(addr), DumpTypeName<T>(), position, dump_size);
  for (uint32_t i = 0; i < n; ++i) text += (i == 0 ? "" : ", ") + DumpElement(p[i]);
  d::KernelPrint(text + "]\n", d::kAscendcDump);
}

// Where p lies: the name of the block's memory that holds it (UB, or one of the cube's) and the
// byte address in it; GM and p's address otherwise.
struct DumpPlace {
  const char* position;
  uint64_t addr;
};
DumpPlace PlaceOf(const void* p);

// As on the device, a dump of memory waits for every pipe before and after it (PIPE_ALL), which
// the pipeline sanitizer sees.
template <typename T>
void DumpMemory(const T* p, uint32_t desc, uint32_t dump_size) {
  const bool in_block = ::lngrad::aicore::CurrentBlockContext() != nullptr;
  if (in_block) AscendC::PipeBarrier<PIPE_ALL>();
  const DumpPlace at = PlaceOf(p);
  Dump(p, dump_size, desc, dump_size, at.position, at.addr);
  if (in_block) AscendC::PipeBarrier<PIPE_ALL>();
}

}  // namespace lngrad::reg::detail

// The memory forms, one per memory the vendor names (UB, GM, L1, L0C; asc_dump takes any of
// them): the place is found from the pointer.
#define LNGRAD_ASC_DUMP_MEMORY_FORM(name, space)                        \
  template <typename T>                                                 \
  inline void name(space T* input, uint32_t desc, uint32_t dump_size) { \
    ::lngrad::reg::detail::DumpMemory<T>(input, desc, dump_size);       \
  }
LNGRAD_ASC_DUMP_MEMORY_FORM(asc_dump_ubuf, __ubuf__)
LNGRAD_ASC_DUMP_MEMORY_FORM(asc_dump_gm, __gm__)
LNGRAD_ASC_DUMP_MEMORY_FORM(asc_dump_l1buf, __cbuf__)
LNGRAD_ASC_DUMP_MEMORY_FORM(asc_dump_cbuf, __cc__)
LNGRAD_ASC_DUMP_MEMORY_FORM(asc_dump, )
#undef LNGRAD_ASC_DUMP_MEMORY_FORM
// A register of lanes of T (RegTensor<T>, vector_T).
template <typename T, typename U>
requires(sizeof(U::lane) ==
         ::lngrad::reg::kVectorBytes) inline void asc_dump_reg(U& input, uint32_t desc,
                                                               uint32_t dump_size) {
  const uint32_t lanes = ::lngrad::reg::kVectorBytes / sizeof(T);
  ::lngrad::reg::detail::Dump(reinterpret_cast<const T*>(input.lane),
                              dump_size < lanes ? dump_size : lanes, desc, dump_size, "REG", 0);
}
template <typename T, typename U>
requires(sizeof(U::lane) == ::lngrad::reg::kVectorBytes) inline void asc_dump(U& input,
                                                                              uint32_t desc,
                                                                              uint32_t dump_size) {
  asc_dump_reg<T>(input, desc, dump_size);
}
