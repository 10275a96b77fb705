// lngrad: the Ascend C high-level API Fill (the vendor's adv_api/utils/init_global_memory.h):
// sets `size` elements of a GlobalTensor to `value`, on the MTE3 pipe (the device stages the
// value in UB and copies it out; the staging is not modelled).
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
  gmWorkspaceAddr.Access(0, size, kApi);
  T* p = gmWorkspaceAddr.GetPhyAddr();
  {
    a::san::Instr in(a::Pipe::kMte3, kApi, loc);
    if (in) in.Write(p, size * sizeof(T));
  }
  for (uint64_t i = 0; i < size; ++i) p[i] = value;
}

}  // namespace AscendC
