// RmsNorm host tiling. Formulas learned from the toolkit's rmsnorm_tiling_impl.cpp (facts only:
// the sizes, the search for the rows per chunk, the checks); written here from that description.
#include "tiling/normalization/rmsnorm_tiling.h"

#include <string>

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

constexpr const char* kApi = "RmsNorm";
constexpr uint32_t kFloatsPerBlock = 8;
constexpr uint32_t kBasicH = 64;
constexpr uint32_t kBasicBs = 8;
constexpr uint32_t kBasicMaxH = 2048;
constexpr uint32_t kMaxRepeat = 255;

struct Dims {
  uint32_t b = 0, s = 0, h = 0;
};

Status DimsOf(const char* func, const char* what, const ge::Shape& shape, Dims* d) {
  if (shape.GetDimNum() != 3) {
    return Status::InvalidArgument(internal::Prefix(kApi, func) + what +
                                   " must have 3 dims ([B, S, H]); it has " +
                                   std::to_string(shape.GetDimNum()));
  }
  uint64_t bsh = 1;
  for (size_t i = 0; i < 3; ++i) {
    if (shape.GetDim(i) <= 0) {
      return Status::InvalidArgument(internal::Prefix(kApi, func) + what + "[" + std::to_string(i) +
                                     "] must be greater than 0.");
    }
    bsh *= static_cast<uint64_t>(shape.GetDim(i));
  }
  if (bsh > UINT32_MAX) {
    return Status::OutOfRange(internal::Prefix(kApi, func) + "B*S*H does not fit in uint32");
  }
  *d = {static_cast<uint32_t>(shape.GetDim(0)), static_cast<uint32_t>(shape.GetDim(1)),
        static_cast<uint32_t>(shape.GetDim(2))};
  return Status::Ok();
}

bool BasicBlockShapeBad(const Dims& d) {
  return d.h % kBasicH != 0 || (d.b * d.s) % kBasicBs != 0 || d.h >= kBasicMaxH;
}

uint32_t Coeff(uint32_t typeSize) { return typeSize == 2 ? 2 : 1; }

uint64_t MinBytes(const Dims& d, uint32_t typeSize) {
  return 4 * (uint64_t{Coeff(typeSize)} * d.h + kFloatsPerBlock);
}

}  // namespace

Status RmsNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                            uint32_t& minValue, bool isBasicBlock) {
  constexpr const char* kFunc = "GetRmsNormMaxMinTmpSize";
  Dims d;
  LNGRAD_RETURN_IF_ERROR(DimsOf(kFunc, "srcShape", srcShape, &d));
  if (isBasicBlock && BasicBlockShapeBad(d)) {
    return Status::InvalidArgument(internal::Prefix(kApi, kFunc) +
                                   "isBasicBlock needs H % 64 == 0, B*S % 8 == 0 and H < 2048");
  }
  // ceil to a 32-byte block of typeSize elements, as the toolkit aligns B*S.
  const uint64_t unit = 32 / (typeSize == 0 ? 1 : typeSize);
  const uint64_t bs = internal::CeilTo(uint64_t{d.b} * d.s, unit);
  const uint64_t max = 4 * (uint64_t{Coeff(typeSize)} * d.b * d.s * d.h + bs);
  return internal::StoreMaxMin(kApi, kFunc, max, MinBytes(d, typeSize), maxValue, minValue);
}

Status RmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                         uint32_t stackBufferByteSize, uint32_t typeSize,
                         AscendC::tiling::RmsNormTiling& tiling, bool isBasicBlock) {
  constexpr const char* kFunc = "GetRmsNormTilingInfo";
  const std::string prefix = internal::Prefix(kApi, kFunc);
  Dims d, o;
  LNGRAD_RETURN_IF_ERROR(DimsOf(kFunc, "srcShape", srcShape, &d));
  LNGRAD_RETURN_IF_ERROR(DimsOf(kFunc, "originSrcShape", originSrcShape, &o));
  if (d.b != o.b || d.s != o.s || d.h < o.h) {
    return Status::InvalidArgument(prefix +
                                   "originSrcShape must have srcShape's B and S and an "
                                   "H in (0, srcShape's H]");
  }
  if (typeSize == 0 || (uint64_t{d.h} * typeSize) % 32 != 0) {
    return Status::InvalidArgument(prefix + "H * typeSize must be a multiple of 32 bytes");
  }
  if (isBasicBlock && BasicBlockShapeBad(d)) {
    return Status::InvalidArgument(prefix +
                                   "isBasicBlock needs H % 64 == 0, B*S % 8 == 0 and H < 2048");
  }
  if (stackBufferByteSize < MinBytes(d, typeSize)) {
    return Status::InvalidArgument(prefix + "stackBufferByteSize " +
                                   std::to_string(stackBufferByteSize) + " is below the minimum " +
                                   std::to_string(MinBytes(d, typeSize)));
  }
  AscendC::tiling::RmsNormTiling t;
  t.bLength = d.b;
  t.sLength = d.s;
  t.hLength = d.h;
  t.originalHLength = o.h;
  t.reciprocalOfHLength = static_cast<float>(1.0 / static_cast<float>(o.h));
  const uint64_t total = stackBufferByteSize / 4;
  const uint64_t coeff = Coeff(typeSize);
  // The most rows whose float work buffers (coeff rows of H each) and the block-aligned
  // reduction slots fit in the scratch.
  uint64_t bs = 1;
  while (total >= (bs + 1) * d.h * coeff + internal::CeilTo(bs + 1, kFloatsPerBlock)) ++bs;
  const uint64_t bsh_all = uint64_t{d.b} * d.s * d.h;
  uint64_t one = bs * d.h;
  if (one > bsh_all) one = bsh_all;
  bs = one / d.h;
  if (isBasicBlock) {
    if (bs >= kBasicBs) bs = bs / kBasicBs * kBasicBs;
  } else if (bs > kMaxRepeat) {
    bs = kMaxRepeat;
  }
  one = bs * d.h;
  t.mainBshLength = static_cast<uint32_t>(one);
  t.mainBsLength = static_cast<uint32_t>(bs);
  t.mainBsLengthAlign = static_cast<uint32_t>(internal::CeilTo(bs, kFloatsPerBlock));
  t.loopRound = static_cast<uint32_t>(bsh_all / one);
  const uint64_t tail = bsh_all % one;
  t.tailBshLength = static_cast<uint32_t>(tail);
  t.inputTailPos = static_cast<uint32_t>(bsh_all - tail);
  t.tailBsLength = static_cast<uint32_t>(tail / d.h);
  tiling = t;
  return Status::Ok();
}

}  // namespace lngrad::tiling

namespace AscendC {

bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                             uint32_t& minValue, const bool isBasicBlock) {
  return lngrad::tiling::internal::ReportOk(
      lngrad::tiling::RmsNormMaxMinTmpSize(srcShape, typeSize, maxValue, minValue, isBasicBlock));
}

bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                          const uint32_t stackBufferByteSize, const uint32_t typeSize,
                          AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock) {
  return lngrad::tiling::internal::ReportOk(lngrad::tiling::RmsNormTilingInfo(
      srcShape, originSrcShape, stackBufferByteSize, typeSize, tiling, isBasicBlock));
}

bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                          const uint32_t stackBufferByteSize, const uint32_t typeSize,
                          optiling::RmsNormTiling& tiling, const bool isBasicBlock) {
  AscendC::tiling::RmsNormTiling plain;
  return lngrad::tiling::internal::ReportTilingOk(
      lngrad::tiling::RmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize,
                                        plain, isBasicBlock),
      plain, tiling);
}

}  // namespace AscendC
