// lngrad register API, the C++ flavour (AscendC::Reg): the register types and the enums of the
// reference's "Reg矢量计算" pages (the vendor's
// basic_api/reg_compute/kernel_reg_compute_struct_intf.h, kernel_reg_compute_common_intf.h and
// kernel_reg_compute_utils.h; names and values as the reference lists them). A RegTensor<T> is
// lngrad's 256-byte vector register (lngrad_reg/registers.h), the C flavour's vector_T; MaskReg is
// the C flavour's vector_bool.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lngrad_aicore/compare_ops.h"
#include "lngrad_aicore/instructions.h"
#include "lngrad_aicore/repeat_base.h"
#include "lngrad_reg/element_ops.h"
#include "lngrad_reg/lane_types.h"
#include "lngrad_reg/registers.h"
#include "lngrad_reg/ub_access.h"

#ifndef __local_mem__
#define __local_mem__ __ubuf__
#endif
// __VEC_SCOPE__ { ... }: a vector function written inline; its body runs in program order, as
// asc_vf_call runs a __simd_vf__ function (950 only in checked mode).
#ifndef __VEC_SCOPE__
#define __VEC_SCOPE__                                                    \
  if (const ::lngrad::reg::detail::VectorFunctionScope lngrad_vec_scope{ \
          "__VEC_SCOPE__", ::lngrad::aicore::SrcLoc::Current()};         \
      true)
#endif

namespace AscendC {

// VL, the vector register's length in bytes.
constexpr uint32_t GetVecLen() { return ::lngrad::reg::kVectorBytes; }

// The precision choices of the math functions. lngrad computes each as the vector instruction
// of the same name does (correctly rounded, subnormals kept) whatever the choice.
#define LNGRAD_REG_ALGO(Name, Config, Default)                                          \
  enum class Name { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE }; \
  struct Config {                                                                       \
    Name algo = Name::INTRINSIC;                                                        \
  };                                                                                    \
  constexpr Config Default = {Name::INTRINSIC};
LNGRAD_REG_ALGO(ExpAlgo, ExpConfig, DEFAULT_EXP_CONFIG)
LNGRAD_REG_ALGO(LnAlgo, LnConfig, DEFAULT_LN_CONFIG)
LNGRAD_REG_ALGO(LogAlgo, LogConfig, DEFAULT_Log_CONFIG)
LNGRAD_REG_ALGO(ReciprocalAlgo, ReciprocalConfig, DEFAULT_RECIPROCAL_CONFIG)
#undef LNGRAD_REG_ALGO
enum class DivAlgo {
  INTRINSIC = 0,
  DIFF_COMPENSATION,
  PRECISION_1ULP_FTZ_TRUE,
  PRECISION_0ULP_FTZ_TRUE,
  PRECISION_0ULP_FTZ_FALSE,
  PRECISION_1ULP_FTZ_FALSE
};
enum class SqrtAlgo {
  INTRINSIC = 0,
  FAST_INVERSE,
  PRECISION_1ULP_FTZ_TRUE,
  PRECISION_0ULP_FTZ_FALSE,
  PRECISION_1ULP_FTZ_FALSE
};

namespace Reg {

using MaskReg = ::lngrad::reg::MaskReg;
using ::AscendC::ReduceType;  // Reg::ReduceType::SUM, as kernels spell it

enum class RegLayout { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT, SAT };
enum class IndexOrder { INCREASE_ORDER, DECREASE_ORDER };
enum class MaskMergeMode { UNKNOWN, MERGING, ZEROING };
enum class HighLowPart { LOWEST, HIGHEST };
enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class MaskPattern {
  ALL,
  VL1,
  VL2,
  VL3,
  VL4,
  VL8,
  VL16,
  VL32,
  VL64,
  VL128,
  M3,
  M4,
  H,
  Q,
  ALLF = 15
};
enum class LoadDist {
  DIST_NORM,
  DIST_BRC_B8,
  DIST_BRC_B16,
  DIST_BRC_B32,
  DIST_US_B8 = 6,
  DIST_US_B16,
  DIST_DS_B8,
  DIST_DS_B16,
  DIST_BDINTLV,
  DIST_DINTLV_B8,
  DIST_DINTLV_B16,
  DIST_UNPACK_B8,
  DIST_UNPACK_B16,
  DIST_BLK,
  DIST_E2B_B16,
  DIST_E2B_B32,
  DIST_UNPACK_B32,
  DIST_DINTLV_B32,
  DIST_UNPACK4_B8,
  DIST_SPLT4CHN_B8,
  DIST_SPLT2CHN_B8,
  DIST_SPLT2CHN_B16,
};
enum class MaskDist { DIST_NORM, DIST_US = 1, DIST_DS = 2, DIST_PACK = 1 };
enum class StoreDist {
  DIST_NORM_B8,
  DIST_NORM_B16,
  DIST_NORM_B32,
  DIST_FIRST_ELEMENT_B8,
  DIST_FIRST_ELEMENT_B16,
  DIST_FIRST_ELEMENT_B32,
  DIST_PACK_B16,
  DIST_PACK_B32,
  DIST_INTLV_B8,
  DIST_INTLV_B16,
  DIST_PACK_B64,
  DIST_INTLV_B32,
  DIST_PACK4_B32,
  DIST_MRG4CHN_B8,
  DIST_MRG2CHN_B8,
  DIST_MRG2CHN_B16,
  DIST_NORM
};
enum class MemType { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
enum class DataCopyMode { DATA_BLOCK_COPY };
enum class PairReduce { SUM = 0 };
struct DefaultType {};

struct CastTrait {
  RegLayout layoutMode = RegLayout::UNKNOWN;
  SatMode satMode = SatMode::UNKNOWN;
  MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
  RoundMode roundMode = RoundMode::UNKNOWN;
};
constexpr CastTrait castTrait = {};

// The math functions' template argument `mode`: a MaskMergeMode, or one of these (passed by
// address, as the reference's examples do).
#define LNGRAD_REG_SPECIFIC(Name, Algo)             \
  struct Name {                                     \
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING; \
    Algo algo = Algo::INTRINSIC;                    \
  };
LNGRAD_REG_SPECIFIC(ExpSpecificMode, ExpAlgo)
LNGRAD_REG_SPECIFIC(LnSpecificMode, LnAlgo)
LNGRAD_REG_SPECIFIC(LogSpecificMode, LogAlgo)
#undef LNGRAD_REG_SPECIFIC
struct DivSpecificMode {
  MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
  bool precisionMode = false;
  DivAlgo algo = DivAlgo::INTRINSIC;
};
struct SqrtSpecificMode {
  MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
  bool precisionMode = false;
  SqrtAlgo algo = SqrtAlgo::INTRINSIC;
};

struct RegTrait {
  int REG_NUM = 1;
};
constexpr RegTrait RegTraitNumOne = {1};
constexpr RegTrait RegTraitNumTwo = {2};

// RegTensor<T>: one vector register of lanes of T, the same 256 bytes as the C flavour's
// vector_T (it is one: every engine of lngrad_reg takes it as its VecReg<T>).
template <typename T, const RegTrait& regTrait = RegTraitNumOne>
struct RegTensor : ::lngrad::reg::VecReg<T> {
  using ActualT = T;
  static constexpr RegTrait trait = regTrait;
  static constexpr int REG_NUM = regTrait.REG_NUM;
};
// RegTraitNumTwo: 2 * VL / sizeof(T) lanes of a b64 type in two registers (part[0]: lanes
// [0, VL / sizeof(T)), part[1]: the rest); its masks are b32 masks (lane i: bit 4i). Each
// function runs the one-register engine on both parts (lngrad's layout: the device splits the
// lanes' low and high words between the registers, which only a reinterpretation would show).
template <typename T>
struct RegTensor<T, RegTraitNumTwo> {
  static_assert(sizeof(T) == 8, "lngrad: RegTraitNumTwo is modelled for b64 lanes");
  using ActualT = T;
  static constexpr RegTrait trait = RegTraitNumTwo;
  static constexpr int REG_NUM = 2;
  ::lngrad::reg::VecReg<T> part[2];
};

// The address register: an offset in elements (CreateAddrReg).
struct AddrReg {
  uint32_t offset = 0;
};
template <typename T>
__simd_callee__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0) {
  return AddrReg{static_cast<uint32_t>(index0) * stride0};
}
template <typename T>
__simd_callee__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1,
                                             uint32_t stride1) {
  return AddrReg{static_cast<uint32_t>(index0) * stride0 + static_cast<uint32_t>(index1) * stride1};
}

// LocalMemBar<src, dst>: orders a vector function's UB accesses; lngrad runs them in program
// order, so it orders nothing further.
template <MemType src, MemType dst>
__simd_callee__ inline void LocalMemBar() {}

}  // namespace Reg

namespace MicroAPI = Reg;  // the API's earlier name, which kernels still spell

}  // namespace AscendC

namespace lngrad::reg::detail {

// The engines' mask mode of a MaskMergeMode (UNKNOWN: zeroing, the reference's default) or of a
// math function's specific mode (its mrgMode), passed by value or by address.
template <auto mode>
constexpr MaskMode ToMaskMode() {
  using M = std::remove_cvref_t<std::remove_pointer_t<decltype(mode)>>;
  if constexpr (std::is_same_v<M, AscendC::Reg::MaskMergeMode>) {
    return mode == AscendC::Reg::MaskMergeMode::MERGING ? MaskMode::kMerging : MaskMode::kZeroing;
  } else if constexpr (std::is_pointer_v<decltype(mode)>) {
    return mode->mrgMode == AscendC::Reg::MaskMergeMode::MERGING ? MaskMode::kMerging
                                                                 : MaskMode::kZeroing;
  } else {
    return mode.mrgMode == AscendC::Reg::MaskMergeMode::MERGING ? MaskMode::kMerging
                                                                : MaskMode::kZeroing;
  }
}

// Whether a specific mode's precision choice flushes subnormals (PRECISION_*_FTZ_TRUE); the
// engines then run the row's element function inside ops::FlushToZero.
template <typename A>
constexpr bool IsFtz(A a) {
  if constexpr (std::is_same_v<A, AscendC::DivAlgo>) {
    return a == A::PRECISION_1ULP_FTZ_TRUE || a == A::PRECISION_0ULP_FTZ_TRUE;
  } else {
    return a == A::PRECISION_1ULP_FTZ_TRUE;
  }
}
template <auto mode>
constexpr bool FlushesToZero() {
  if constexpr (std::is_pointer_v<decltype(mode)>) {
    if constexpr (requires { mode->algo; }) return IsFtz(mode->algo);
  }
  return false;
}
template <class Op, auto mode>
using OpOf = std::conditional_t<FlushesToZero<mode>(), ops::FlushToZero<Op>, Op>;

// A data register (the overloads that take a MaskReg are the mask register's).
template <typename U>
concept DataReg = !std::is_same_v<std::remove_cvref_t<U>, MaskReg>;
using Loc = aicore::SrcLoc;

// A two-register tensor (RegTraitNumTwo), and the mask of its part h: the b32 mask's lanes
// [h * lanes, h * lanes + lanes) in T's one-register layout.
template <typename U>
inline constexpr bool kTwoRegs = requires {
  requires std::remove_cvref_t<U>::REG_NUM == 2;
};
template <typename T>
MaskReg PartMask(const MaskReg& mask, uint32_t h) {
  MaskReg out;
  for (uint32_t i = 0; i < kLanes<T>; ++i)
    out.SetLane<T>(i, mask.Lane<uint32_t>(h * kLanes<T> + i));
  return out;
}

// f(dst, src, mask) on the register, or on each part of a RegTraitNumTwo register with its
// part of the b32 mask (a one-operand function on two registers: two one-register calls).
template <typename T, typename F, typename U>
void ForEachPart(F f, U& dst, const U& src, const MaskReg& mask) {
  if constexpr (kTwoRegs<U>) {
    for (uint32_t h = 0; h < 2; ++h) f(dst.part[h], src.part[h], PartMask<T>(mask, h));
  } else {
    f(dst, src, mask);
  }
}

// The lane type of a call: T when the kernel names it, else the register's.
template <typename T, typename U>
using LaneOf = std::conditional_t<std::is_same_v<T, AscendC::Reg::DefaultType>,
                                  typename std::remove_cvref_t<U>::ActualT, T>;

}  // namespace lngrad::reg::detail
