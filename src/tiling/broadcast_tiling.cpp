// Host tiling of Broadcast (tiling/transform/broadcast_tiling.h); the formulas are listed there.
#include "tiling/transform/broadcast_tiling.h"

#include <cstdint>
#include <string>

#include "tiling_common.h"

namespace {

using lngrad::NpuArch;
using lngrad::Status;
namespace in = lngrad::tiling::internal;

constexpr uint64_t kBlock = 32;

Status Bad(const char* rule) {
  return Status::InvalidArgument(in::Prefix("Broadcast", "GetBroadCastMaxMinTmpSize") + rule);
}

Status CheckShapes(const ge::Shape& src, const ge::Shape& dst, uint32_t typeSize) {
  if (typeSize != 1 && typeSize != 2 && typeSize != 4) {
    return Bad("The value of typeSize should be 1 or 2 or 4.");
  }
  const size_t n = dst.GetDimNum();
  if (n != 1 && n != 2) return Bad("Now only support dim = 1 or 2.");
  if (src.GetDimNum() != n) return Bad("SrcShape dim num and dstShape dim num should be same.");
  for (size_t i = 0; i < n; ++i) {
    if (src.GetDim(i) != dst.GetDim(i) && src.GetDim(i) != 1) {
      return Bad("SrcShape cannot broadcast to dstShape.");
    }
  }
  if (src.GetShapeSize() <= 0) return Bad("SrcSize must be greater than 0.");
  return Status::Ok();
}

struct Sizes {
  uint64_t min = 0, max = 0;
};

Sizes Axis1On2201(uint64_t d0, uint64_t d1, uint64_t ts, uint64_t cast) {
  const uint64_t e = kBlock / ts, d0a = (d0 + 7) / 8 * 8, brcb_min = e * e * ts;
  const uint64_t brcb_max = d0a * e * ts;
  if (d1 % e == 0) return {brcb_min + cast, brcb_max + cast};
  const uint64_t d1a = (d1 + e - 1) / e * e;
  return {brcb_min + e * d1a * ts + cast, brcb_max + d0 * d1a * ts + cast};
}

}  // namespace

namespace lngrad::tiling {

Status BroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform,
                              const ge::Shape& srcShape, const ge::Shape& dstShape,
                              uint32_t typeSize, bool isReuseSource, uint32_t& maxValue,
                              uint32_t& minValue) {
  (void)isReuseSource;  // the toolkit warns that it may have no effect
  LNGRAD_RETURN_IF_ERROR(CheckShapes(srcShape, dstShape, typeSize));
  const uint64_t src_n = static_cast<uint64_t>(srcShape.GetShapeSize());
  const uint64_t dst_n = static_cast<uint64_t>(dstShape.GetShapeSize());
  const uint64_t ts = typeSize == 1 ? 2 : typeSize;
  const uint64_t cast = typeSize == 1 ? ((src_n + 15) / 16 + (dst_n + 15) / 16) * 16 * ts : 0;
  const char* func = "GetBroadCastMaxMinTmpSize";
  if (src_n == dst_n || src_n == 1) {
    const uint64_t v = typeSize == 1 ? cast + kBlock : 0;
    return in::StoreMaxMin("Broadcast", func, v, v, maxValue, minValue);
  }
  const NpuArch arch = platform.SimulatedProduct().arch;
  const bool axis1 = srcShape.GetDim(1) == 1;
  const uint64_t d0 = static_cast<uint64_t>(dstShape.GetDim(0));
  const uint64_t d1 = static_cast<uint64_t>(dstShape.GetDim(1));
  if (arch == NpuArch::k3510) return Status::Ok();
  if (!axis1) {
    if (d1 % (kBlock / ts) != 0) return Bad("dim[1] is not 32-byte aligned.");
    return in::StoreMaxMin("Broadcast", func, kBlock + cast, kBlock + cast, maxValue, minValue);
  }
  if (arch == NpuArch::k2201) {
    const Sizes s = Axis1On2201(d0, d1, ts, cast);
    return in::StoreMaxMin("Broadcast", func, s.max, s.min, maxValue, minValue);
  }
  const uint64_t e = kBlock / ts;
  if (d0 % e != 0) return Bad("dim[0] is not 32-byte aligned.");
  return in::StoreMaxMin("Broadcast", func, kBlock + cast + d0 * d1 * ts,
                         kBlock + cast + e * ((d1 + 7) / 8) * ts, maxValue, minValue);
}

}  // namespace lngrad::tiling

namespace AscendC {

void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                               const ge::Shape& srcShape, const ge::Shape& dstShape,
                               uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue) {
  lngrad::tiling::internal::Report(lngrad::tiling::BroadCastMaxMinTmpSize(
      ascendcPlatform, srcShape, dstShape, typeSize, isReuseSource, maxValue, minValue));
}

}  // namespace AscendC
