// Host scratch sizes of the transcendental high-level math APIs
// (tiling/math/math_transcendental_tiling.h; Digamma, Lgamma, SinCos: math_gamma_tiling.h); the
// values are the toolkit's (impl/adv_api/tiling/math/*_tiling*.cpp), written from the formulas
// listed in the header.
#include "tiling/math/math_transcendental_tiling.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "tiling/math/math_gamma_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling_common.h"

namespace {

using lngrad::NpuArch;
using lngrad::Status;

constexpr uint64_t kRepeat = 256;

uint64_t Elements(const ge::Shape& shape) {
  return static_cast<uint64_t>(std::max<int64_t>(shape.GetShapeSize(), 0));
}

// Stores max and min after the shape check (when `check_shape`), reporting the outcome.
void Store(const char* api, const char* func, bool check_shape, const ge::Shape& shape,
           uint64_t max_bytes, uint64_t min_bytes, uint32_t& maxValue, uint32_t& minValue) {
  Status s = Status::Ok();
  if (check_shape && shape.GetShapeSize() <= 0) {
    s = Status::InvalidArgument(std::string("[") + func + "] the input shape size must be > 0");
  } else {
    s = lngrad::tiling::internal::StoreMaxMin(api, func, max_bytes, min_bytes, maxValue, minValue);
  }
  lngrad::tiling::internal::Report(s);
}

void Factor(uint32_t k, uint32_t extra, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  maxLiveNodeCount = k;
  extraBuf = extra;
  lngrad::tiling::internal::Report(Status::Ok());
}

uint32_t ExpK(uint32_t typeSize, bool isReuseSource) {
  if (typeSize != 4) return 4;
  return isReuseSource ? 2 : 3;
}

// A shape of one dim of 1 stands for Power's scalar operand.
bool IsTensor(const ge::Shape& shape) { return !(shape.GetDimNum() == 1 && shape.GetDim(0) == 1); }

struct PowerK {
  uint32_t intK, floatK, halfK;
};
constexpr PowerK kPowerTensorTensor{6, 4, 14};
constexpr PowerK kPowerWithScalar{7, 5, 14};

NpuArch CurrentArch() {
  return platform_ascendc::PlatformAscendCManager::GetInstance()->SimulatedProduct().arch;
}

// The 2201 sequences' k * max(n * typeSize, 256) and k * 256.
uint64_t ByK(uint64_t k, const ge::Shape& shape, uint32_t typeSize) {
  return k * std::max(Elements(shape) * typeSize, kRepeat);
}

uint32_t DigammaK(uint32_t typeSize, bool isReuseSource) {
  if (typeSize != 4) return 16;
  return isReuseSource ? 6 : 7;
}

uint32_t LgammaK(uint32_t typeSize, bool isReuseSource) {
  if (typeSize != 4) return 26;
  return isReuseSource ? 7 : 8;
}

// The APIs and forms that exist on the 950 only: an error naming the simulated product elsewhere.
Status OnlyOn3510(const char* func, const char* api, const platform_ascendc::PlatformAscendC& p) {
  if (p.SimulatedProduct().arch == NpuArch::k3510) return Status::Ok();
  return Status::Unsupported(std::string("[") + func + "] " + api + " exists on arch 3510 only; " +
                             std::string(p.SimulatedProduct().soc) + " is arch " +
                             std::to_string(static_cast<uint32_t>(p.SimulatedProduct().arch)));
}

Status SinCosArgs(const char* func, const platform_ascendc::PlatformAscendC& p, uint32_t typeSize) {
  if (typeSize != 2 && typeSize != 4) {
    return Status::InvalidArgument(std::string("[") + func + "] typeSize " +
                                   std::to_string(typeSize) + ": only half (2) and float (4)");
  }
  return OnlyOn3510(func, "SinCos", p);
}

// The 950's radian-reduction scratch (SinCos, and Sin and Cos with RADIAN_REDUCTION): two float
// planes of the element count rounded up to 32, and 32 bytes.
uint64_t RadianReductionBytes(const ge::Shape& shape) {
  const uint64_t rounded = (Elements(shape) + 31) / 32 * 32;
  return 4 * rounded * 2 + 32;
}

// Its factor form: 2 float planes per float element and 32 bytes; 4 per 2-byte element.
void RadianReductionFactor(uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  if (typeSize == 4) return Factor(2, 32, maxLiveNodeCount, extraBuf);
  Factor(4, 0, maxLiveNodeCount, extraBuf);
}

// Sin's and Cos's config-taking forms (arch 3510): nothing for POLYNOMIAL_APPROXIMATION, the
// radian-reduction scratch for RADIAN_REDUCTION.
void ConfigMaxMin(const char* api, const char* func, bool radian, const ge::Shape& srcShape,
                  uint32_t& maxValue, uint32_t& minValue) {
  const Status s = OnlyOn3510(func, api, *platform_ascendc::PlatformAscendCManager::GetInstance());
  if (!s.ok()) return lngrad::tiling::internal::Report(s);
  const uint64_t v = radian ? RadianReductionBytes(srcShape) : 0;
  Store(api, func, false, srcShape, v, v, maxValue, minValue);
}
void ConfigFactor(const char* api, const char* func, bool radian, uint32_t typeSize,
                  uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  const Status s = OnlyOn3510(func, api, *platform_ascendc::PlatformAscendCManager::GetInstance());
  if (!s.ok()) return lngrad::tiling::internal::Report(s);
  if (!radian) return Factor(0, 0, maxLiveNodeCount, extraBuf);
  RadianReductionFactor(typeSize, maxLiveNodeCount, extraBuf);
}

}  // namespace

namespace AscendC {

bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  const uint64_t k = ExpK(typeSize, isReuseSource);
  Store("Exp", "GetExpMaxMinTmpSize", false, srcShape,
        k * std::max(Elements(srcShape) * 4, kRepeat), k * kRepeat, maxValue, minValue);
  return true;
}
void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuffer) {
  Factor(typeSize == 4 ? 3 : 8, 0, maxLiveNodeCount, extraBuffer);
}

void GetLogMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t, const bool, uint32_t& maxValue,
                         uint32_t& minValue) {
  Store("Log", "GetLogMaxMinTmpSize", false, srcShape, 0, 0, maxValue, minValue);
}
void GetLogTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  Factor(0, 0, maxLiveNodeCount, extraBuf);
}
void GetLog10MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  Store("Log10", "GetLog10MaxMinTmpSize", false, srcShape, 0, 0, maxValue, minValue);
}
void GetLog10TmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  Factor(0, 0, maxLiveNodeCount, extraBuf);
}
void GetLog2MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                          uint32_t& maxValue, uint32_t& minValue) {
  const bool half = typeSize == 2;
  Store("Log2", "GetLog2MaxMinTmpSize", true, srcShape,
        half ? std::max(Elements(srcShape) * 4, kRepeat) : 0, half ? kRepeat : 0, maxValue,
        minValue);
}
void GetLog2TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuf) {
  Factor(typeSize == 4 ? 0 : 2, 0, maxLiveNodeCount, extraBuf);
}

// The APIs sized k * max(n * typeSize, 256) (minimum 256k), k by the type.
#define LNGRAD_BY_TYPE_FACTOR(Name, KFloat, KHalf)                                              \
  void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool, \
                                uint32_t& maxValue, uint32_t& minValue) {                       \
    const uint64_t k = typeSize == 4 ? KFloat : KHalf;                                          \
    Store(#Name, "Get" #Name "MaxMinTmpSize", true, srcShape,                                   \
          k* std::max(Elements(srcShape) * typeSize, kRepeat), k* kRepeat, maxValue, minValue); \
  }                                                                                             \
  void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,      \
                                      uint32_t& extraBuf) {                                     \
    Factor(typeSize == 4 ? KFloat : KHalf, 0, maxLiveNodeCount, extraBuf);                      \
  }
LNGRAD_BY_TYPE_FACTOR(Erf, 3, 8)
LNGRAD_BY_TYPE_FACTOR(Tanh, 1, 4)
LNGRAD_BY_TYPE_FACTOR(Cosh, 2, 6)
LNGRAD_BY_TYPE_FACTOR(Sinh, 1, 4)
LNGRAD_BY_TYPE_FACTOR(Asinh, 3, 3)
LNGRAD_BY_TYPE_FACTOR(Atanh, 1, 4)
LNGRAD_BY_TYPE_FACTOR(Atan, 5, 12)
LNGRAD_BY_TYPE_FACTOR(Asin, 2, 6)
LNGRAD_BY_TYPE_FACTOR(Acos, 2, 6)
LNGRAD_BY_TYPE_FACTOR(Tan, 4, 10)
LNGRAD_BY_TYPE_FACTOR(Erfc, 7, 16)
#undef LNGRAD_BY_TYPE_FACTOR

void GetAcoshMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  const uint64_t k = typeSize == 4 ? 1 : 2;
  Store("Acosh", "GetAcoshMaxMinTmpSize", true, srcShape,
        std::max(k * Elements(srcShape), kRepeat) * typeSize, k * kRepeat, maxValue, minValue);
}
void GetAcoshTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf) {
  Factor(typeSize == 4 ? 1 : 2, 0, maxLiveNodeCount, extraBuf);
}

// Sin and Cos: k = 8 (half), 3 (float), 2 (float with isReuseSource).
#define LNGRAD_BY_REUSE_FACTOR(Name)                                                       \
  void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,        \
                                const bool isReuseSource, uint32_t& maxValue,              \
                                uint32_t& minValue) {                                      \
    const uint64_t k = typeSize == 4 ? (isReuseSource ? 2 : 3) : 8;                        \
    Store(#Name, "Get" #Name "MaxMinTmpSize", true, srcShape,                              \
          std::max(Elements(srcShape) * k * typeSize, k * kRepeat), k* kRepeat, maxValue,  \
          minValue);                                                                       \
  }                                                                                        \
  void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, \
                                      uint32_t& extraBuf) {                                \
    Factor(typeSize == 4 ? 3 : 8, 0, maxLiveNodeCount, extraBuf);                          \
  }
LNGRAD_BY_REUSE_FACTOR(Sin)
LNGRAD_BY_REUSE_FACTOR(Cos)
#undef LNGRAD_BY_REUSE_FACTOR

void GetSinMaxMinTmpSize(const SinConfig& config, const ge::Shape& srcShape, const uint32_t,
                         const bool, uint32_t& maxValue, uint32_t& minValue) {
  ConfigMaxMin("Sin", "GetSinMaxMinTmpSize", config.algo == SinAlgo::RADIAN_REDUCTION, srcShape,
               maxValue, minValue);
}
void GetSinTmpBufferFactorSize(const SinConfig& config, const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  ConfigFactor("Sin", "GetSinTmpBufferFactorSize", config.algo == SinAlgo::RADIAN_REDUCTION,
               typeSize, maxLiveNodeCount, extraBuf);
}
void GetCosMaxMinTmpSize(const CosConfig& config, const ge::Shape& srcShape, const uint32_t,
                         const bool, uint32_t& maxValue, uint32_t& minValue) {
  ConfigMaxMin("Cos", "GetCosMaxMinTmpSize", config.algo == CosAlgo::RADIAN_REDUCTION, srcShape,
               maxValue, minValue);
}
void GetCosTmpBufferFactorSize(const CosConfig& config, const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  ConfigFactor("Cos", "GetCosTmpBufferFactorSize", config.algo == CosAlgo::RADIAN_REDUCTION,
               typeSize, maxLiveNodeCount, extraBuf);
}

void GetSignMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                          uint32_t& maxValue, uint32_t& minValue) {
  const uint64_t min = 3 * kRepeat;
  Store("Sign", "GetSignMaxMinTmpSize", false, srcShape,
        std::max(3 * Elements(srcShape) * typeSize, min), min, maxValue, minValue);
}
void GetSignTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  Factor(3, 0, maxLiveNodeCount, extraBuf);
}

void GetHypotMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  Store("Hypot", "GetHypotMaxMinTmpSize", true, srcShape, 0, 0, maxValue, minValue);
}
void GetHypotTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  extraBuf = 0;
  if (CurrentArch() == NpuArch::k3510) maxLiveNodeCount = 0;
  lngrad::tiling::internal::Report(Status::Ok());
}

void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2,
                           const bool typeIsInt, const uint32_t typeSize, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kFunc = "GetPowerMaxMinTmpSize";
  const bool t1 = IsTensor(srcShape1), t2 = IsTensor(srcShape2);
  const uint64_t n = Elements(t1 ? srcShape1 : srcShape2);
  if (CurrentArch() == NpuArch::k3510) {
    const uint64_t v = typeIsInt ? 0 : 4 * n * 3;
    Store("Power", kFunc, false, srcShape1, v, v, maxValue, minValue);
    return;
  }
  const PowerK& p = t1 && t2 ? kPowerTensorTensor : kPowerWithScalar;
  uint64_t max = 0, min = 0;
  if (typeIsInt) {
    min = kRepeat * p.intK;
    max = std::max(n * typeSize, kRepeat) * p.intK;
  } else if (typeSize == 4) {
    min = kRepeat * p.floatK + kRepeat;
    max = std::max(n * typeSize, kRepeat) * p.floatK + kRepeat;
  } else {
    min = kRepeat * p.halfK / 2 + kRepeat;
    max = std::max(n * typeSize, kRepeat / 2) * p.halfK + kRepeat;
  }
  Store("Power", kFunc, false, srcShape1, max, min, maxValue, minValue);
}
void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor,
                                 const bool typeIsInt, const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  if (CurrentArch() == NpuArch::k3510) {
    Factor(typeIsInt ? 0 : (typeSize == 4 ? 3 : 6), 0, maxLiveNodeCount, extraBuffer);
    return;
  }
  const PowerK& p = baseIsTensor && expIsTensor ? kPowerTensorTensor : kPowerWithScalar;
  if (typeIsInt) return Factor(p.intK, 0, maxLiveNodeCount, extraBuffer);
  Factor(typeSize == 4 ? p.floatK : p.halfK, kRepeat, maxLiveNodeCount, extraBuffer);
}

void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                            const bool isLastAxis, const bool, uint32_t& maxValue,
                            uint32_t& minValue) {
  constexpr const char* kFunc = "GetCumSumMaxMinTmpSize";
  Status s = Status::Ok();
  if (srcShape.GetDimNum() != 2) {
    s = Status::InvalidArgument(std::string("[") + kFunc + "] srcShape has " +
                                std::to_string(srcShape.GetDimNum()) + " dims; only 2 supported");
  } else if (typeSize != 2 && typeSize != 4) {
    s = Status::InvalidArgument(std::string("[") + kFunc + "] typeSize " +
                                std::to_string(typeSize) + ": only half (2) and float (4)");
  } else if (srcShape.GetDim(1) <= 0 || (srcShape.GetDim(1) * typeSize) % 32 != 0) {
    s = Status::InvalidArgument(std::string("[") + kFunc +
                                "] the inner dim * typeSize must be a positive multiple of 32");
  }
  if (!s.ok()) return lngrad::tiling::internal::Report(s);
  const uint64_t outter = static_cast<uint64_t>(std::max<int64_t>(srcShape.GetDim(0), 0));
  const uint64_t inner = static_cast<uint64_t>(srcShape.GetDim(1));
  const bool half = typeSize == 2;
  if (!isLastAxis) {
    const uint64_t v = half ? outter * inner * 4 : 0;
    return Store("CumSum", kFunc, false, srcShape, v, v, maxValue, minValue);
  }
  const uint64_t aligned = (outter + 15) / 16 * 16;
  const uint64_t min = (half ? inner * 16 * 2 : 0) + 16 * inner * typeSize * 2;
  const uint64_t max = (half ? inner * aligned * 2 : 0) + aligned * inner * typeSize * 2;
  Store("CumSum", kFunc, false, srcShape, max, min, maxValue, minValue);
}

// Digamma, Lgamma, SinCos (tiling/math/math_gamma_tiling.h).

void GetDigammaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kFunc = "GetDigammaMaxMinTmpSize";
  if (CurrentArch() == NpuArch::k3510) {
    const uint64_t v = typeSize == 2 ? ByK(4, srcShape, typeSize) : 0;
    return Store("Digamma", kFunc, true, srcShape, v, v, maxValue, minValue);
  }
  const uint32_t k = DigammaK(typeSize, isReuseSource);
  Store("Digamma", kFunc, true, srcShape, ByK(k, srcShape, typeSize), k * kRepeat, maxValue,
        minValue);
}
void GetDigammaTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                   uint32_t& extraBuffer) {
  const bool f = typeSize == 4;
  if (CurrentArch() == NpuArch::k3510) return Factor(f ? 0 : 4, 0, maxLiveNodeCount, extraBuffer);
  Factor(f ? 7 : 16, 0, maxLiveNodeCount, extraBuffer);
}

void GetLgammaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kFunc = "GetLgammaMaxMinTmpSize";
  if (CurrentArch() == NpuArch::k3510) {
    const uint64_t v = Elements(srcShape) * 4;
    return Store("Lgamma", kFunc, true, srcShape, v, v, maxValue, minValue);
  }
  const uint32_t k = LgammaK(typeSize, isReuseSource);
  const uint64_t min = k * kRepeat;
  Store("Lgamma", kFunc, true, srcShape, std::max(ByK(k, srcShape, typeSize), min), min, maxValue,
        minValue);
}
void GetLgammaTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                  uint32_t& extraBuffer) {
  Factor(typeSize == 4 ? 8 : 13, 0, maxLiveNodeCount, extraBuffer);
}

void GetSinCosMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                            const ge::Shape& srcShape, const uint32_t typeSize,
                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kFunc = "GetSinCosMaxMinTmpSize";
  Status s = SinCosArgs(kFunc, ascendcPlatform, typeSize);
  if (s.ok() && isReuseSource) {
    s = Status::InvalidArgument(std::string("[") + kFunc + "] isReuseSource must be false");
  }
  if (!s.ok()) return lngrad::tiling::internal::Report(s);
  const uint64_t v = RadianReductionBytes(srcShape);
  Store("SinCos", kFunc, true, srcShape, v, v, maxValue, minValue);
}
void GetSinCosTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                  const uint32_t typeSize, uint32_t& maxLivedNodeCount,
                                  uint32_t& extraBuf) {
  const Status s = SinCosArgs("GetSinCosTmpBufferFactorSize", ascendcPlatform, typeSize);
  if (!s.ok()) return lngrad::tiling::internal::Report(s);
  RadianReductionFactor(typeSize, maxLivedNodeCount, extraBuf);
}

}  // namespace AscendC
