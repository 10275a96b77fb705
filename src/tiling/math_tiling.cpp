// Host scratch sizes of the high-level math and index APIs (tiling/math/math_tiling.h); the
// values are the toolkit's (impl/adv_api/tiling/math/*_tiling_impl.cpp), written from the
// formulas listed in the header.
#include "tiling/math/math_tiling.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "tiling_common.h"

namespace {

using lngrad::NpuArch;
using lngrad::Status;

constexpr uint64_t kRepeatBytes = 256;

Status ShapeNonEmpty(const char* func, const ge::Shape& shape) {
  if (shape.GetShapeSize() > 0) return Status::Ok();
  return Status::InvalidArgument(std::string("[") + func + "] srcShape size is " +
                                 std::to_string(shape.GetShapeSize()) + ", which must be > 0");
}

Status TypeSizeIn(const char* func, uint32_t typeSize, std::initializer_list<uint32_t> sizes) {
  if (std::find(sizes.begin(), sizes.end(), typeSize) != sizes.end()) return Status::Ok();
  return Status::InvalidArgument(std::string("[") + func + "] typeSize " +
                                 std::to_string(typeSize) + " is not one the API takes");
}

// The toolkit's common shape: k * 256 minimum, k * max(n * typeSize, 256) maximum. api: the
// name the messages give the API.
void ByFactor(const char* func, const ge::Shape& shape, uint32_t typeSize, uint32_t k,
              uint32_t& maxValue, uint32_t& minValue, const char* api = "Math") {
  Status s = ShapeNonEmpty(func, shape);
  if (s.ok()) {
    const uint64_t bytes = static_cast<uint64_t>(shape.GetShapeSize()) * typeSize;
    s = lngrad::tiling::internal::StoreMaxMin(api, func, k * std::max(bytes, kRepeatBytes),
                                              k * kRepeatBytes, maxValue, minValue);
  }
  lngrad::tiling::internal::Report(s);
}

void Factor(uint32_t k, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = k;
  lngrad::tiling::internal::Report(Status::Ok());
}

uint32_t CeilK(uint32_t typeSize) { return typeSize == 4 ? 1 : 2; }
uint32_t FloorK(uint32_t typeSize) { return typeSize == 4 ? 0 : 2; }
uint32_t FracK(uint32_t typeSize) { return typeSize == 4 ? 0 : 4; }
uint32_t FmodK(uint32_t typeSize) { return CeilK(typeSize) + (typeSize == 4 ? 0 : 6); }

NpuArch ArchOf(const platform_ascendc::PlatformAscendC& p) { return p.SimulatedProduct().arch; }

// The APIs whose tiling answers 0 and 0 on the arches they exist on and refuses the others.
Status ZeroOnArch(const char* func, const platform_ascendc::PlatformAscendC& p, bool also5102,
                  std::initializer_list<uint32_t> sizes, uint32_t typeSize) {
  (void)also5102;  // lngrad simulates no 5102 product
  LNGRAD_RETURN_IF_ERROR(TypeSizeIn(func, typeSize, sizes));
  if (ArchOf(p) == NpuArch::k3510) return Status::Ok();
  return Status::Unsupported(std::string("[") + func + "] the API exists on arch 3510 only; " +
                             std::string(p.SimulatedProduct().soc) + " is arch " +
                             std::to_string(static_cast<uint32_t>(ArchOf(p))));
}

void ZeroMaxMin(const char* func, const platform_ascendc::PlatformAscendC& p, bool also5102,
                std::initializer_list<uint32_t> sizes, const ge::Shape& shape, uint32_t typeSize,
                uint32_t& maxValue, uint32_t& minValue) {
  Status s = ShapeNonEmpty(func, shape);
  if (s.ok()) s = ZeroOnArch(func, p, also5102, sizes, typeSize);
  if (s.ok()) maxValue = minValue = 0;
  lngrad::tiling::internal::Report(s);
}

void ZeroFactor(const char* func, const platform_ascendc::PlatformAscendC& p, bool also5102,
                std::initializer_list<uint32_t> sizes, uint32_t typeSize,
                uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  const Status s = ZeroOnArch(func, p, also5102, sizes, typeSize);
  if (s.ok()) maxLiveNodeCount = extraBuf = 0;
  lngrad::tiling::internal::Report(s);
}

}  // namespace

namespace AscendC {

#define LNGRAD_BY_FACTOR(Name, K)                                                               \
  void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool, \
                                uint32_t& maxValue, uint32_t& minValue) {                       \
    ByFactor("Get" #Name "MaxMinTmpSize", srcShape, typeSize, K(typeSize), maxValue, minValue); \
  }                                                                                             \
  void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,      \
                                      uint32_t& extraBuf) {                                     \
    Factor(K(typeSize), maxLiveNodeCount, extraBuf);                                            \
  }

LNGRAD_BY_FACTOR(Ceil, CeilK)
LNGRAD_BY_FACTOR(Trunc, CeilK)
LNGRAD_BY_FACTOR(Floor, FloorK)
LNGRAD_BY_FACTOR(Frac, FracK)
LNGRAD_BY_FACTOR(Fmod, FmodK)
#undef LNGRAD_BY_FACTOR

void GetAxpyMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                          uint32_t& maxValue, uint32_t& minValue) {
  ByFactor("GetAxpyMaxMinTmpSize", srcShape, typeSize, typeSize == 4 ? 0 : 4, maxValue, minValue,
           "Axpy");
}
void GetAxpyTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuf) {
  Factor(typeSize == 4 ? 1 : 4, maxLiveNodeCount, extraBuf);
}

void GetXorMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                         uint32_t& maxValue, uint32_t& minValue) {
  ByFactor("GetXorMaxMinTmpSize", srcShape, typeSize, 1, maxValue, minValue, "Xor");
}
void GetXorTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  Factor(1, maxLiveNodeCount, extraBuf);
}

void GetClampMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kFunc = "GetClampMaxMinTmpSize";
  Status s = ShapeNonEmpty(kFunc, srcShape);
  if (s.ok()) {
    const uint64_t min = typeSize == 4 ? 64 : 128;
    s = lngrad::tiling::internal::StoreMaxMin(
        "Clamp", kFunc, std::max<uint64_t>(srcShape.GetShapeSize(), min), min, maxValue, minValue);
  }
  lngrad::tiling::internal::Report(s);
}
void GetClampTmpBufferFactorSize(const uint32_t, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  Factor(1, maxLiveNodeCount, extraBuf);
}

void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                           const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  const NpuArch arch = ArchOf(ascendcPlatform);
  uint32_t k = 0;
  if (arch == NpuArch::k2201) {
    k = typeSize == 4 ? 0 : 1;
  } else if (arch == NpuArch::k2002) {
    k = typeSize == 4 ? 1 : 2;
  } else {
    // The toolkit sets nothing on other arches.
    lngrad::tiling::internal::Report(ShapeNonEmpty("GetRoundMaxMinTmpSize", srcShape));
    return;
  }
  ByFactor("GetRoundMaxMinTmpSize", srcShape, typeSize, k, maxValue, minValue);
}
void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                 const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf) {
  const NpuArch arch = ArchOf(ascendcPlatform);
  extraBuf = 0;
  if (arch == NpuArch::k2201) {
    maxLiveNodeCount = typeSize == 4 ? 0 : 1;
  } else if (arch == NpuArch::k2002) {
    maxLiveNodeCount = typeSize == 4 ? 1 : 2;
  }
  lngrad::tiling::internal::Report(Status::Ok());
}

#define LNGRAD_ZERO_ON_3510(Name, Also5102, ...)                                                \
  void Get##Name##MaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,       \
                                const ge::Shape& srcShape, const uint32_t typeSize, const bool, \
                                uint32_t& maxValue, uint32_t& minValue) {                       \
    ZeroMaxMin("Get" #Name "MaxMinTmpSize", ascendcPlatform, Also5102, {__VA_ARGS__}, srcShape, \
               typeSize, maxValue, minValue);                                                   \
  }                                                                                             \
  void Get##Name##TmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, \
                                      const uint32_t typeSize, uint32_t& maxLiveNodeCount,      \
                                      uint32_t& extraBuf) {                                     \
    ZeroFactor("Get" #Name "TmpBufferFactorSize", ascendcPlatform, Also5102, {__VA_ARGS__},     \
               typeSize, maxLiveNodeCount, extraBuf);                                           \
  }

LNGRAD_ZERO_ON_3510(Rint, true, 2, 4)
LNGRAD_ZERO_ON_3510(Fma, true, 2, 4)
LNGRAD_ZERO_ON_3510(IsInf, true, 2, 4)
LNGRAD_ZERO_ON_3510(IsNan, true, 2, 4)
LNGRAD_ZERO_ON_3510(Where, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(BitwiseAnd, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(BitwiseOr, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(BitwiseXor, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(BitwiseNot, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(LogicalAnd, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(LogicalOr, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(LogicalXor, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(LogicalNot, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(LogicalAnds, false, 1, 2, 4, 8)
LNGRAD_ZERO_ON_3510(LogicalOrs, false, 1, 2, 4, 8)
#undef LNGRAD_ZERO_ON_3510

void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
  lngrad::tiling::internal::Report(Status::Ok());
}
void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
  GetArangeMaxMinTmpSize(maxValue, minValue);
}

}  // namespace AscendC
