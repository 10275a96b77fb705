// lngrad: the Ascend C high-level API Fill (the vendor's adv_api/utils/init_global_memory.h) and
// the basic API's deprecated InitOutput:
// sets `size` elements of a GlobalTensor to `value`, on the MTE3 pipe (the device stages the
// value in UB and copies it out; the staging is not modelled); on 2002 the elements past the
// last whole 32-byte block by scalar stores (FillGlobal).
//
// Types: uint16_t, int16_t, half, uint32_t, int32_t, float; arch 3510 also uint8_t, int8_t,
// uint64_t, int64_t. Checked mode: the elements within the GlobalTensor and its GM region,
// the type on the running product, and the vendor's rule that Fill runs before the TPipe hands
// out any UB (该接口仅支持在程序内存分配InitBuffer接口前使用), since the device's staging
// buffer would otherwise overwrite it.
#pragma once

#include <cstdint>
#include <string>

#include "lib/math/math_common.h"

namespace lngrad::aicore::detail {

// size elements of gm set to value, recorded as one MTE3 write; with `scalarTail` (Fill on
// 2002, init_global_memory_v200_impl.h) the elements past the last whole 32-byte block are
// written as the kit does, by GlobalTensor::SetValue: scalar stores on the S pipe through the
// data cache, which the kit does not clean (san::DcacheStore). Its rounds of popSize =
// MAX_REPEAT_TIMES * 256 bytes (the stack buffer, the whole UB before any InitBuffer, is
// larger) are whole blocks, so only the tail's last size * sizeof(T) % 32 bytes go that way.
template <typename T>
void FillGlobal(AscendC::GlobalTensor<T>& gm, uint64_t size, T value, const char* api, SrcLoc loc,
                bool scalarTail = false) {
  gm.Access(0, size, api);
  T* p = gm.GetPhyAddr();
  constexpr uint64_t kPop = 255 * 256 / sizeof(T);
  const uint64_t scalar = scalarTail ? size % kPop * sizeof(T) % 32 / sizeof(T) : 0;
  const uint64_t copied = size - scalar;
  {
    san::Instr in(Pipe::kMte3, api, loc);
    if (in && copied != 0) in.Write(p, copied * sizeof(T));
  }
  for (uint64_t i = 0; i < copied; ++i) p[i] = value;
  for (uint64_t i = copied; i < size; ++i) {
    RecordScalarAccess(api, p + i, sizeof(T), true, false, loc);
    p[i] = value;
    san::DcacheStore(p + i, sizeof(T));
  }
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

template <typename T>
void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace a = lngrad::aicore;
  constexpr bool kEveryProduct = std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ||
                                 std::is_same_v<T, half> || std::is_same_v<T, uint32_t> ||
                                 std::is_same_v<T, int32_t> || std::is_same_v<T, float>;
  constexpr bool k950 = std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> ||
                        std::is_same_v<T, uint64_t> || std::is_same_v<T, int64_t>;
  static_assert(kEveryProduct || k950, "Fill: unsupported type");
  constexpr const char* kApi = "Fill";
  a::BlockContext& ctx = a::RequireBlockContext(kApi);
  if (a::CheckedMode()) {
    if (!kEveryProduct && a::detail::rep::RunningArch() != lngrad::NpuArch::k3510) {
      a::RaiseKernelCheck(a::checks::kProduct,
                          "Fill: this type of gmWorkspaceAddr exists on arch 3510 only");
    }
    if (ctx.pipe != nullptr && ctx.pipe->AllocatedBytes() != 0) {
      a::RaiseKernelCheck(a::checks::kFillOrder,
                          "Fill: called after TPipe::InitBuffer handed out " +
                              std::to_string(ctx.pipe->AllocatedBytes()) +
                              " UB bytes; the API may only run before any InitBuffer");
    }
  }
  lngrad::aicore::detail::FillGlobal(gmWorkspaceAddr, size, value, kApi, loc,
                                     a::detail::rep::RunningArch() == lngrad::NpuArch::k2002);
}

// InitOutput, the deprecated basic-API predecessor of Fill (kernel_operator_common_intf): the
// same result on A2/A3 and the 950, staged in the core's stack buffer rather than the TPipe's
// UB (so no InitBuffer rule); elsewhere the vendor's version compiles to nothing, which checked
// mode reports as unsupported_on_product instead of leaving the output unset.
template <typename T>
void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "InitOutput: T must be a 2- or 4-byte type");
  constexpr const char* kApi = "InitOutput";
  lngrad::aicore::RequireBlockContext(kApi);
  lngrad::aicore::detail::RequireProduct(
      kApi, lngrad::aicore::detail::ArchBit::k2201 | lngrad::aicore::detail::ArchBit::k3510,
      "Atlas A2/A3 and Ascend 950", loc);
  const lngrad::NpuArch arch = lngrad::aicore::detail::rep::RunningArch();
  if (arch != lngrad::NpuArch::k2201 && arch != lngrad::NpuArch::k3510) return;
  lngrad::aicore::detail::FillGlobal(gmWorkspaceAddr, size, value, kApi, loc);
}

}  // namespace AscendC
