// WelfordUpdate / WelfordFinalize host tiling (their scratch sizes). Formulas learned from the
// toolkit's layernorm_tiling_impl.cpp and welfordfinalize_tiling_impl.cpp (facts only); written
// here from that description.
#include "tiling/normalization/welford_tiling.h"

#include <string>

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

constexpr uint64_t kRepeatBytes = 256;
constexpr uint64_t kRepeatFloats = 64;

bool OnRegBase() { return lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch); }

}  // namespace

Status WelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSizeT,
                                  uint32_t /*typeSizeU*/, bool isReuseSource, bool /*isInplace*/,
                                  uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kApi = "WelfordUpdate";
  constexpr const char* kFunc = "GetWelfordUpdateMaxMinTmpSize";
  if (OnRegBase()) return internal::StoreMaxMin(kApi, kFunc, 0, 0, maxValue, minValue);
  if (srcShape.GetDimNum() != 2 || srcShape.GetDim(0) <= 0 || srcShape.GetDim(1) <= 0) {
    return Status::InvalidArgument(internal::Prefix(kApi, kFunc) +
                                   "srcShape dims must be 2 ([rnLength, abLength], each > 0).");
  }
  uint64_t buffers = 2;
  if (typeSizeT == 2) {
    buffers = 3;
  } else if (isReuseSource) {
    buffers = 1;
  }
  const uint64_t min = buffers * kRepeatBytes;
  const uint64_t n = static_cast<uint64_t>(srcShape.GetDim(0)) * srcShape.GetDim(1);
  const uint64_t max = (n + kRepeatFloats - 1) / kRepeatFloats * min;
  return internal::StoreMaxMin(kApi, kFunc, max, min, maxValue, minValue);
}

Status WelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, uint32_t /*typeSize*/,
                                    bool /*isReuseSource*/, uint32_t& maxValue,
                                    uint32_t& minValue) {
  constexpr const char* kApi = "WelfordFinalize";
  constexpr const char* kFunc = "GetWelfordFinalizeMaxMinTmpSize";
  if (srcShape.GetDimNum() == 0 || srcShape.GetDims().back() <= 0) {
    return Status::InvalidArgument(internal::Prefix(kApi, kFunc) + "srcShape must not be empty.");
  }
  if (OnRegBase()) {
    const uint64_t k = static_cast<uint64_t>(srcShape.GetDims().back());
    // The largest power of two not above k.
    uint64_t p = k;
    for (int sh = 1; sh < 64; sh <<= 1) p |= p >> sh;
    p = (p + 1) >> 1;
    const uint64_t reduce = internal::CeilTo(p / 64, 128);
    const uint64_t bytes = (k + reduce) * sizeof(float);
    return internal::StoreMaxMin(kApi, kFunc, bytes, bytes, maxValue, minValue);
  }
  if (srcShape.GetDimNum() != 1) {
    return Status::InvalidArgument(internal::Prefix(kApi, kFunc) + "srcShape dims must be 1.");
  }
  const uint64_t ab = static_cast<uint64_t>(srcShape.GetDim(0));
  if (ab % 8 != 0) {
    return Status::InvalidArgument(internal::Prefix(kApi, kFunc) +
                                   "abLength must be aligned to 32Bytes.");
  }
  const uint64_t min = kRepeatFloats * 4 * sizeof(float);
  const uint64_t max = ab <= kRepeatFloats ? min : (kRepeatFloats * 2 + ab * 2) * sizeof(float);
  return internal::StoreMaxMin(kApi, kFunc, max, min, maxValue, minValue);
}

}  // namespace lngrad::tiling

namespace AscendC {

void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT,
                                   const uint32_t typeSizeU, const bool isReuseSource,
                                   const bool isInplace, uint32_t& maxValue, uint32_t& minValue) {
  lngrad::tiling::internal::Report(lngrad::tiling::WelfordUpdateMaxMinTmpSize(
      srcShape, typeSizeT, typeSizeU, isReuseSource, isInplace, maxValue, minValue));
}

void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                     const bool isReuseSource, uint32_t& maxValue,
                                     uint32_t& minValue) {
  lngrad::tiling::internal::Report(lngrad::tiling::WelfordFinalizeMaxMinTmpSize(
      srcShape, typeSize, isReuseSource, maxValue, minValue));
}

}  // namespace AscendC
