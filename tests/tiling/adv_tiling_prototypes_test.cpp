// Every free function the kit's host tiling headers declare for the high-level APIs (the
// toolkit's include/adv_api/<family>/*_tiling.h and *_tiling_intf.h, at mirror-cann/asc-devkit
// 82b89a15f; not the class members of the Matmul, Conv3D and HCCL tilings, which their own tests
// pin), taken by address with its exact prototype: a missing overload, or one whose parameter or
// return types differ from the kit's, fails to compile. The list was extracted from the kit's
// declarations (names and types only, the facts a caller compiles against).
#include <gtest/gtest.h>

#include <cstdint>

#include "kernel_tiling/reduce_pattern.h"
#include "kernel_tiling/sort_config.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;  // the kit declares these in namespace AscendC, their types unqualified

template <typename Ret, typename... Args>
bool Resolves(Ret (*fn)(Args...)) {
  return fn != nullptr;
}

// One prototype: `Ret name(Params)` resolved in namespace AscendC.
#define LNGRAD_PROTOTYPE(Ret, name, ...) Resolves(static_cast<Ret (*)(__VA_ARGS__)>(&AscendC::name))

TEST(AdvTilingPrototypes, Activation) {  // adv_api/activation/
  // geglu_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetGeGLUMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetGeGLUTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // gelu_tiling.h
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(uint32_t, GetGeluMinTmpSize, const AscendC::TensorShape&, const uint32_t));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(uint32_t, GetGeluMaxTmpSize, const AscendC::TensorShape&, const uint32_t));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetGeluMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, uint32_t&, uint32_t&));
  // logsoftmax_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetLogSoftMaxMaxTmpSize, const AscendC::TensorShape,
                               const uint32_t, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetLogSoftMaxMinTmpSize, const AscendC::TensorShape,
                               const uint32_t, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, LogSoftMaxTilingFunc, const AscendC::TensorShape,
                               const uint32_t, const uint32_t, optiling::LogSoftMaxTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, LogSoftMaxTilingFunc, const AscendC::TensorShape,
                               const uint32_t, const uint32_t, AscendC::tiling::LogSoftMaxTiling&));
  // reglu_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetReGluMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  // sigmoid_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSigmoidMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, bool, uint32_t&, uint32_t&));
  // silu_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSiluTmpSize, const AscendC::TensorShape&, const uint32_t,
                               const bool, uint32_t&, uint32_t&));
  // softmax_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSoftMaxMaxTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSoftMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, SoftMaxTilingFunc, const AscendC::TensorShape&, const uint32_t,
                               const uint32_t, optiling::SoftMaxTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, SoftMaxTilingFunc, const AscendC::TensorShape&, const uint32_t,
                               const uint32_t, AscendC::tiling::SoftMaxTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSoftMaxFlashV3MaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, uint32_t&, uint32_t&, const bool,
                               const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, SoftMaxFlashV3TilingFunc, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const uint32_t,
                               optiling::SoftMaxTiling&, const bool, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, SoftMaxFlashV3TilingFunc, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const uint32_t,
                               AscendC::tiling::SoftMaxTiling&, const bool, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSoftMaxFlashMaxTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSoftMaxFlashMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, SoftMaxFlashTilingFunc, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, optiling::SoftMaxTiling&,
                               const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, SoftMaxFlashTilingFunc, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, AscendC::tiling::SoftMaxTiling&,
                               const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSoftMaxGradMaxTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSoftMaxGradMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, SoftMaxGradTilingFunc, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, optiling::SoftMaxTiling&,
                               const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, SoftMaxGradTilingFunc, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, AscendC::tiling::SoftMaxTiling&,
                               const bool));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(bool, IsBasicBlockInSoftMax, optiling::SoftMaxTiling&, const uint32_t));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, IsBasicBlockInSoftMax, AscendC::tiling::SoftMaxTiling&,
                               const uint32_t));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSoftMaxFlashV2MinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool, const bool, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSoftMaxFlashV2MaxTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool, const bool, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, SoftMaxFlashV2TilingFunc, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const uint32_t,
                               optiling::SoftMaxTiling&, const bool, const bool, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, SoftMaxFlashV2TilingFunc, const AscendC::TensorShape&, const uint32_t, const uint32_t,
      const uint32_t, AscendC::tiling::SoftMaxTiling&, const bool, const bool, const bool));
  // swiglu_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSwiGLUMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, uint32_t&, uint32_t&, const bool));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetSwiGLUTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // swish_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSwishTmpSize, const AscendC::TensorShape&, const uint32_t,
                               const bool, uint32_t&, uint32_t&));
}

TEST(AdvTilingPrototypes, Filter) {  // adv_api/filter/
  // dropout_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetDropOutMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetDropOutMaxTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetDropOutMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
}

TEST(AdvTilingPrototypes, Index) {  // adv_api/index/
  // arithprogression_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetArithProgressionMaxMinTmpSize, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetArangeMaxMinTmpSize, uint32_t&, uint32_t&));
}

TEST(AdvTilingPrototypes, Math) {  // adv_api/math/
  // acos_tiling.h
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetAcosTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAcosMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  // acosh_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAcoshMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetAcoshTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // asin_tiling.h
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetAsinTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAsinMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  // asinh_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAsinhMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetAsinhTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // atan_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAtanMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetAtanTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // atanh_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAtanhMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetAtanhTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // axpy_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAxpyMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetAxpyTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // bitwise_and_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetBitwiseAndMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetBitwiseAndTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // bitwise_not_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetBitwiseNotMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetBitwiseNotTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // bitwise_or_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetBitwiseOrMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetBitwiseOrTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // bitwise_xor_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetBitwiseXorMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetBitwiseXorTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // ceil_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetCeilMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetCeilTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // clamp_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetClampMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetClampTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // cos_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetCosMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetCosTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetCosMaxMinTmpSize, const CosConfig&,
                               const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetCosTmpBufferFactorSize, const CosConfig&, const uint32_t,
                               uint32_t&, uint32_t&));
  // cosh_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetCoshMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetCoshTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // cumsum_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetCumSumMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, const bool, uint32_t&, uint32_t&));
  // digamma_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetDigammaMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetDigammaTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // erf_tiling.h
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetErfTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetErfMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  // erfc_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetErfcMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetErfcTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // exp_tiling.h
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetExpTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetExpMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  // floor_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetFloorMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetFloorTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // fma_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetFmaMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
                               const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetFmaTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // fmod_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetFmodMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetFmodTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // frac_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetFracMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetFracTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // hypot_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetHypotMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetHypotTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // is_inf_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetIsInfMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetIsInfTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // is_nan_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetIsNanMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetIsNanTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // lgamma_tiling.h
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetLgammaTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLgammaMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  // log_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLogMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetLogTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLog10MaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetLog10TmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLog2MaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetLog2TmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // logical_and_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetLogicalAndMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLogicalAndTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // logical_ands_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetLogicalAndsMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLogicalAndsTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // logical_not_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetLogicalNotMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLogicalNotTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // logical_or_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetLogicalOrMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLogicalOrTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // logical_ors_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetLogicalOrsMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLogicalOrsTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // logical_xor_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetLogicalXorMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLogicalXorTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // power_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetPowerMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const bool, const uint32_t, const bool,
                               uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetPowerTmpBufferFactorSize, const bool, const bool,
                               const bool, const uint32_t, uint32_t&, uint32_t&));
  // rint_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetRintMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
                               const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetRintTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // round_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetRoundMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetRoundTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // sign_tiling.h
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetSignTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSignMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  // sin_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSinMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetSinTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSinMaxMinTmpSize, const SinConfig&,
                               const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSinTmpBufferFactorSize, const SinConfig&, const uint32_t,
                               uint32_t&, uint32_t&));
  // sincos_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetSinCosMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSinCosTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // sinh_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSinhMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetSinhTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // tan_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetTanMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetTanTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // tanh_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetTanhMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetTanhTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // trunc_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetTruncMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetTruncTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // where_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      void, GetWhereMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetWhereTmpBufferFactorSize,
                               const platform_ascendc::PlatformAscendC&, const uint32_t, uint32_t&,
                               uint32_t&));
  // xor_tiling.h
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetXorTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetXorMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
}

TEST(AdvTilingPrototypes, Normalization) {  // adv_api/normalization/
  // batchnorm_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetBatchNormMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&,
                               uint32_t&, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetBatchNormNDTilingInfo, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t, const uint32_t,
                               const bool, optiling::BatchNormTiling&, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetBatchNormNDTilingInfo, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t, const uint32_t,
                               const bool, AscendC::tiling::BatchNormTiling&, const bool));
  // deepnorm_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetDeepNormMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetDeepNormTilingInfo, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t, const uint32_t,
                               const bool, const bool, optiling::DeepNormTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetDeepNormTilingInfo, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t, const uint32_t,
                               const bool, const bool, AscendC::tiling::DeepNormTiling&));
  // groupnorm_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetGroupNormMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetGroupNormNDTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool, const uint32_t,
                               optiling::GroupNormTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetGroupNormNDTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool, const uint32_t,
                               AscendC::tiling::GroupNormTiling&));
  // layernorm_grad_beta_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormGradBetaMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormGradBetaNDTilingInfo, const AscendC::TensorShape,
                               const uint32_t, const uint32_t, const bool,
                               optiling::LayerNormGradBetaTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormGradBetaNDTilingInfo, const AscendC::TensorShape,
                               const uint32_t, const uint32_t, const bool,
                               AscendC::tiling::LayerNormGradBetaTiling&));
  // layernorm_grad_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormGradMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormGradNDTilingInfo, const AscendC::TensorShape,
                               const uint32_t, const uint32_t, const bool,
                               optiling::LayerNormGradTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormGradNDTilingInfo, const AscendC::TensorShape,
                               const uint32_t, const uint32_t, const bool,
                               AscendC::tiling::LayerNormGradTiling&));
  // layernorm_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormNDTillingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool,
                               optiling::LayerNormTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormNDTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool,
                               optiling::LayerNormTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormNDTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool,
                               AscendC::tiling::LayerNormTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetWelfordUpdateMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool, const bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, const bool, const bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormNDTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool, const bool,
                               optiling::LayerNormSeparateTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetLayerNormNDTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool, const bool,
                               AscendC::tiling::LayerNormSeparateTiling&));
  // normalize_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetNormalizeMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const bool, const bool, const bool,
                               uint32_t&, uint32_t&));
  // rmsnorm_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetRmsNormMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, uint32_t&, uint32_t&, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetRmsNormTilingInfo, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t, const uint32_t,
                               optiling::RmsNormTiling&, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetRmsNormTilingInfo, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t, const uint32_t,
                               AscendC::tiling::RmsNormTiling&, const bool));
  // welfordfinalize_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetWelfordFinalizeMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
}

TEST(AdvTilingPrototypes, Pad) {  // adv_api/pad/
  // broadcast_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetBroadCastMaxMinTmpSize,
                               const platform_ascendc::PlatformAscendC&,
                               const AscendC::TensorShape&, const AscendC::TensorShape&, uint32_t,
                               const bool, uint32_t&, uint32_t&));
  // pad_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetPadMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, PadTilingFunc, const AscendC::TensorShape,
                               const AscendC::TensorShape, const uint32_t, const uint32_t,
                               optiling::PadTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, PadTilingFunc, const AscendC::TensorShape,
                               const AscendC::TensorShape, const uint32_t, const uint32_t,
                               AscendC::tiling::PadTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetUnPadMaxMinTmpSize,
                               const platform_ascendc::PlatformAscendC&,
                               const AscendC::TensorShape&, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, UnPadTilingFunc, const AscendC::TensorShape, const uint32_t,
                               const uint32_t, optiling::UnPadTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, UnPadTilingFunc, const AscendC::TensorShape, const uint32_t,
                               const uint32_t, AscendC::tiling::UnPadTiling&));
}

TEST(AdvTilingPrototypes, Quantization) {  // adv_api/quantization/
  // antiquantize_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAntiQuantizeMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, bool, AscendC::TensorDataType,
                               AscendC::TensorDataType, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAntiQuantizeTmpBufferFactorSize,
                               const AscendC::TensorShape&, const AscendC::TensorShape&,
                               AscendC::TensorDataType, AscendC::TensorDataType, uint32_t&,
                               uint32_t&));
  // ascend_antiquant_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetAscendAntiQuantMaxTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, bool, AscendC::TensorDataType,
                               AscendC::TensorDataType));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetAscendAntiQuantMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, bool, AscendC::TensorDataType,
                               AscendC::TensorDataType));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAscendAntiQuantMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, bool, AscendC::TensorDataType,
                               AscendC::TensorDataType, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAscendAntiQuantTmpBufferFactorSize,
                               const AscendC::TensorShape&, const AscendC::TensorShape&, bool,
                               AscendC::TensorDataType, AscendC::TensorDataType, uint32_t&,
                               uint32_t&));
  // ascend_dequant_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAscendDequantMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAscendDequantTmpBufferFactorSize,
                               const AscendC::TensorShape&, uint32_t&, uint32_t&));
  // ascend_quant_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAscendQuantMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetAscendQuantTmpBufferFactorSize, uint32_t&, uint32_t&));
  // dequantize_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetDequantizeMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetDequantizeTmpBufferFactorSize, const AscendC::TensorShape&,
                               uint32_t&, uint32_t&));
  // quantize_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetQuantizeMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetQuantizeTmpBufferFactorSize, uint32_t&, uint32_t&));
}

TEST(AdvTilingPrototypes, Reduce) {  // adv_api/reduce/
  // mean_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetMeanMaxMinTmpSize, const uint32_t, const uint32_t,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(
      LNGRAD_PROTOTYPE(void, GetMeanTmpBufferFactorSize, const uint32_t, uint32_t&, uint32_t&));
  // reduce_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetReduceProdMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorDataType, ReducePattern, bool, bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetReduceSumMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorDataType, ReducePattern, bool, bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetReduceMeanMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorDataType, ReducePattern, bool, bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetReduceMaxMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorDataType, ReducePattern, bool, bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetReduceMinMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorDataType, ReducePattern, bool, bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetReduceAnyMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorDataType, ReducePattern, bool, bool, uint32_t&,
                               uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetReduceAllMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorDataType, ReducePattern, bool, bool, uint32_t&,
                               uint32_t&));
  // reduce_xor_sum_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetReduceXorSumMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const bool, uint32_t&, uint32_t&));
  // sum_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSumMaxMinTmpSize, const uint32_t, const uint32_t,
                               const bool, uint32_t&, uint32_t&));
}

TEST(AdvTilingPrototypes, Select) {  // adv_api/select/
  // selectwithbytesmask_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSelectWithBytesMaskMinTmpSize,
                               const AscendC::TensorShape&, const AscendC::TensorShape&,
                               const uint32_t, const AscendC::TensorShape&, const uint32_t,
                               const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSelectMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t,
                               const AscendC::TensorShape&, const uint32_t, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSelectWithBytesMaskMaxTmpSize,
                               const AscendC::TensorShape&, const AscendC::TensorShape&,
                               const uint32_t, const AscendC::TensorShape&, const uint32_t,
                               const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSelectMaxTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t,
                               const AscendC::TensorShape&, const uint32_t, const bool));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSelectWithBytesMaskMaxMinTmpSize,
                               const AscendC::TensorShape&, const AscendC::TensorShape&,
                               const uint32_t, const AscendC::TensorShape&, const uint32_t,
                               const bool, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSelectMaxMinTmpSize, const AscendC::TensorShape&,
                               const AscendC::TensorShape&, const uint32_t,
                               const AscendC::TensorShape&, const uint32_t, const bool, uint32_t&,
                               uint32_t&));
}

TEST(AdvTilingPrototypes, Sort) {  // adv_api/sort/
  // sort_tiling_intf.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetConcatTmpSize, const platform_ascendc::PlatformAscendC&,
                               const uint32_t, const uint32_t));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(uint32_t, GetSortTmpSize, const platform_ascendc::PlatformAscendC&,
                               const uint32_t, const uint32_t));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetSortMaxMinTmpSize, const AscendC::TensorShape&,
                               AscendC::TensorDataType, AscendC::TensorDataType, bool,
                               const SortConfig&, uint32_t&, uint32_t&));
  // topk_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetTopKMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
                               const int32_t, const int32_t, const bool, const bool, TopKMode,
                               const bool, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, GetTopKMaxMinTmpSize, const int32_t, const int32_t,
                               const int32_t, const bool, const bool, TopKMode, const bool,
                               AscendC::TensorDataType, const TopKConfig&, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, TopKTilingFunc, const platform_ascendc::PlatformAscendC&,
                               const int32_t, const int32_t, const int32_t, const uint32_t,
                               const bool, TopKMode, const bool, optiling::TopkTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(bool, TopKTilingFunc, const platform_ascendc::PlatformAscendC&,
                               const int32_t, const int32_t, const int32_t, const uint32_t,
                               const bool, TopKMode, const bool, AscendC::tiling::TopkTiling&));
}

TEST(AdvTilingPrototypes, Transpose) {  // adv_api/transpose/
  // confusion_transpose_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetConfusionTransposeMaxMinTmpSize,
                               const AscendC::TensorShape&, const uint32_t, const uint32_t,
                               uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetTransposeMaxMinTmpSize, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, uint32_t&, uint32_t&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetConfusionTransposeTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const uint32_t,
                               optiling::ConfusionTransposeTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetTransposeTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const uint32_t,
                               optiling::ConfusionTransposeTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetConfusionTransposeOnlyTilingInfo,
                               const AscendC::TensorShape&, const uint32_t, const uint32_t,
                               optiling::ConfusionTransposeTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetConfusionTransposeTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const uint32_t,
                               AscendC::tiling::ConfusionTransposeTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetTransposeTilingInfo, const AscendC::TensorShape&,
                               const uint32_t, const uint32_t, const uint32_t,
                               AscendC::tiling::ConfusionTransposeTiling&));
  EXPECT_TRUE(LNGRAD_PROTOTYPE(void, GetConfusionTransposeOnlyTilingInfo,
                               const AscendC::TensorShape&, const uint32_t, const uint32_t,
                               AscendC::tiling::ConfusionTransposeTiling&));
  // transdata_tiling.h
  EXPECT_TRUE(LNGRAD_PROTOTYPE(
      bool, GetTransDataMaxMinTmpSize, const platform_ascendc::PlatformAscendC&,
      const AscendC::TensorShape&, const AscendC::TensorShape&, const AscendC::TensorDataType,
      const TransDataConfig&, uint32_t&, uint32_t&));
}

#undef LNGRAD_PROTOTYPE

}  // namespace
