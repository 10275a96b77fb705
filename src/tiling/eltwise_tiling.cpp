// Host scratch sizes of the element-wise activation APIs (tiling/activation/eltwise_tiling.h);
// the values are the toolkit's (impl/adv_api/tiling/activation/*), written from the formulas
// listed in the header.
#include "tiling/activation/eltwise_tiling.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "tiling_common.h"

namespace {

using lngrad::Status;
namespace internal = lngrad::tiling::internal;

constexpr uint64_t kRepeatBytes = 256;

Status CheckTypeSize(const char* func, uint32_t typeSize) {
  if (typeSize == 2 || typeSize == 4) return Status::Ok();
  return Status::InvalidArgument(std::string("[") + func + "] typeSize " +
                                 std::to_string(typeSize) + " is not 2 (half) or 4 (float)");
}

// The toolkit's common checks: shape size > 0, typeSize 2 (half, bfloat16) or 4 (float).
Status CheckArgs(const char* func, const ge::Shape& shape, uint32_t typeSize) {
  if (shape.GetShapeSize() <= 0) {
    return Status::InvalidArgument(std::string("[") + func + "] srcShape size is " +
                                   std::to_string(shape.GetShapeSize()) + ", which must be > 0");
  }
  return CheckTypeSize(func, typeSize);
}

uint64_t Elems(const ge::Shape& shape) { return static_cast<uint64_t>(shape.GetShapeSize()); }

// min = 256k, max = k * max(n * typeSize, 256) (GeGLU, SwiGLU).
void ByFactor(const char* api, const char* func, const ge::Shape& shape, uint32_t typeSize,
              uint32_t k_float, uint32_t k_half, uint32_t& maxValue, uint32_t& minValue) {
  Status s = CheckArgs(func, shape, typeSize);
  if (s.ok()) {
    const uint64_t k = typeSize == 4 ? k_float : k_half;
    s = internal::StoreMaxMin(api, func, k * std::max(Elems(shape) * typeSize, kRepeatBytes),
                              k * kRepeatBytes, maxValue, minValue);
  }
  internal::Report(s);
}

void Factor(const char* func, uint32_t typeSize, uint32_t k_float, uint32_t k_half,
            uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  const Status s = CheckTypeSize(func, typeSize);
  if (s.ok()) {
    maxLiveNodeCount = typeSize == 4 ? k_float : k_half;
    extraBuf = 0;
  }
  internal::Report(s);
}

constexpr uint64_t kGeluMin = 3 * kRepeatBytes;

// Gelu's max, or 0 with the status set.
uint64_t GeluMax(const char* func, const ge::Shape& shape, uint32_t typeSize, Status* s) {
  *s = CheckArgs(func, shape, typeSize);
  return s->ok() ? std::max(3 * Elems(shape) * sizeof(float), kGeluMin) : 0;
}

}  // namespace

namespace AscendC {

uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  const Status s = CheckArgs("GetGeluMinTmpSize", srcShape, typeSize);
  internal::Report(s);
  return s.ok() ? static_cast<uint32_t>(kGeluMin) : 0;
}

uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  Status s;
  const uint64_t max = GeluMax("GetGeluMaxTmpSize", srcShape, typeSize, &s);
  uint32_t out = 0, unused = 0;
  if (s.ok()) s = internal::StoreMaxMin("Gelu", "GetGeluMaxTmpSize", max, kGeluMin, out, unused);
  internal::Report(s);
  return s.ok() ? out : 0;
}

void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                          uint32_t& minValue) {
  constexpr const char* kFunc = "GetGeluMaxMinTmpSize";
  Status s;
  const uint64_t max = GeluMax(kFunc, srcShape, typeSize, &s);
  if (s.ok()) s = internal::StoreMaxMin("Gelu", kFunc, max, kGeluMin, maxValue, minValue);
  internal::Report(s);
}

void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool,
                           uint32_t& maxValue, uint32_t& minValue) {
  ByFactor("GeGLU", "GetGeGLUMaxMinTmpSize", srcShape, typeSize, 0, 4, maxValue, minValue);
}
void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf) {
  Factor("GetGeGLUTmpBufferFactorSize", typeSize, 0, 4, maxLiveNodeCount, extraBuf);
}

void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                            uint32_t& minValue, const bool) {
  ByFactor("SwiGLU", "GetSwiGLUMaxMinTmpSize", srcShape, typeSize, 0, 6, maxValue, minValue);
}
void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                  uint32_t& extraBuffer) {
  Factor("GetSwiGLUTmpBufferFactorSize", typeSize, 0, 6, maxLiveNodeCount, extraBuffer);
}

void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool,
                             uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kFunc = "GetSigmoidMaxMinTmpSize";
  Status s = CheckArgs(kFunc, srcShape, typeSize);
  if (s.ok()) {
    s = internal::StoreMaxMin("Sigmoid", kFunc, std::max(Elems(srcShape) * typeSize, kRepeatBytes),
                              kRepeatBytes, maxValue, minValue);
  }
  internal::Report(s);
}

void GetReGluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kFunc = "GetReGluMaxMinTmpSize";
  Status s = CheckArgs(kFunc, srcShape, typeSize);
  if (s.ok() && isReuseSource) {
    s = Status::InvalidArgument(std::string("[") + kFunc +
                                "] isReuseSource must be false: ReGlu does not reuse its sources");
  }
  if (s.ok()) {
    const uint64_t min = typeSize == 4 ? kRepeatBytes : 6 * kRepeatBytes;
    const uint64_t max = typeSize == 4 ? kRepeatBytes : 6 * Elems(srcShape) * typeSize;
    s = internal::StoreMaxMin("ReGlu", kFunc, std::max(max, min), min, maxValue, minValue);
  }
  internal::Report(s);
}

void GetSiluTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue,
                    uint32_t& minValue) {
  maxValue = minValue = 0;
  internal::Report(Status::Ok());
}

void GetSwishTmpSize(const ge::Shape&, const uint32_t, const bool, uint32_t& maxValue,
                     uint32_t& minValue) {
  maxValue = minValue = 0;
  internal::Report(Status::Ok());
}

}  // namespace AscendC
