// Host tiling of TransData (tiling/transform/transdata_tiling.h); the formulas are listed there.
#include "tiling/transform/transdata_tiling.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tiling_common.h"

namespace {

using AscendC::DataFormat;
using lngrad::NpuArch;
using lngrad::Status;
namespace in = lngrad::tiling::internal;

constexpr int64_t kC0 = 16;  // C0 and N0 of the 16-bit formats
constexpr uint64_t kElem = 2;
const char* const kApi = "TransData";
const char* const kFunc = "GetTransDataMaxMinTmpSize";

Status Bad(const char* rule) { return Status::InvalidArgument(in::Prefix(kApi, kFunc) + rule); }

int64_t Ceil16(int64_t v) { return (v + kC0 - 1) / kC0; }

struct Ncdhw {
  int64_t n = 0, c = 0, d = 0, h = 0, w = 0;
};

enum class Pair { kToNdc1hwc0, kFromNdc1hwc0, kToFz3d, kFromFz3d, kNone };

Pair PairOf(const AscendC::TransDataConfig& c) {
  if (c.srcFormat == DataFormat::NCDHW && c.dstFormat == DataFormat::NDC1HWC0) {
    return Pair::kToNdc1hwc0;
  }
  if (c.srcFormat == DataFormat::NDC1HWC0 && c.dstFormat == DataFormat::NCDHW) {
    return Pair::kFromNdc1hwc0;
  }
  if (c.srcFormat == DataFormat::NCDHW && c.dstFormat == DataFormat::FRACTAL_Z_3D) {
    return Pair::kToFz3d;
  }
  if (c.srcFormat == DataFormat::FRACTAL_Z_3D && c.dstFormat == DataFormat::NCDHW) {
    return Pair::kFromFz3d;
  }
  return Pair::kNone;
}

// NCDHW side {N, C, D, H, W}, matched against the packed side of `pair`.
Status ReadShapes(Pair pair, const std::vector<int64_t>& plain, const std::vector<int64_t>& packed,
                  Ncdhw* out) {
  const bool fz = pair == Pair::kToFz3d || pair == Pair::kFromFz3d;
  if (plain.size() != 5 || packed.size() != (fz ? 7u : 6u)) {
    return Bad("input shapes are not matched with DataFormat.");
  }
  const Ncdhw s{plain[0], plain[1], plain[2], plain[3], plain[4]};
  if (fz) {  // {D, C1, H, W, N1, N0, C0}
    if (s.d != packed[0] || s.h != packed[2] || s.w != packed[3]) {
      return Bad("shapeInfo d,h,w is not matched.");
    }
    if (packed[6] != kC0 || packed[1] != Ceil16(s.c)) {
      return Bad("c0, c1 is not able to be converted to c.");
    }
    if (packed[5] != kC0 || packed[4] != Ceil16(s.n)) {
      return Bad("n0, n1 is not able to be converted to n.");
    }
  } else {  // {N, D, C1, H, W, C0}
    if (s.n != packed[0] || s.d != packed[1] || s.h != packed[3] || s.w != packed[4]) {
      return Bad("shapeInfo n,d,h,w is not matched.");
    }
    if (packed[5] != kC0 || packed[2] != Ceil16(s.c)) {
      return Bad("c0, c1 is not able to be converted to c.");
    }
  }
  *out = s;
  return Status::Ok();
}

uint64_t ScratchBytes(Pair pair, const Ncdhw& s) {
  const auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  const uint64_t c1 = u(Ceil16(s.c)), n1 = u(Ceil16(s.n)), d = u(s.d);
  const uint64_t hw = u(s.h) * u(s.w), p = (hw + 15) / 16 * 16, c0 = kC0;
  switch (pair) {
    case Pair::kToNdc1hwc0:
      return d * p * kElem + d * c1 * c0 * p * kElem;
    case Pair::kFromNdc1hwc0:
      return d * c1 * c0 * p * kElem + 512;
    case Pair::kToFz3d:
      return std::max(u(s.c) * d * p * kElem, d * hw * n1 * c0 * kElem) +
             n1 * c0 * d * c1 * c0 * p * kElem;
    case Pair::kFromFz3d: {
      const uint64_t once = n1 * c0 * c1 * c0 * d * p * kElem;
      return u(s.n) % kC0 == 0 && u(s.c) % kC0 == 0 ? once : 2 * once;
    }
    case Pair::kNone:
      break;
  }
  return 0;
}

}  // namespace

namespace lngrad::tiling {

Status TransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform,
                              const ge::Shape& srcShape, const ge::Shape& dstShape,
                              ge::DataType dataType, const AscendC::TransDataConfig& config,
                              uint32_t& maxValue, uint32_t& minValue) {
  if (dataType != ge::DT_FLOAT16 && dataType != ge::DT_BF16 && dataType != ge::DT_UINT16 &&
      dataType != ge::DT_INT16) {
    return Bad("it only supports DT_FLOAT16/DT_BF16/DT_UINT16/DT_INT16 data type");
  }
  const Pair pair = PairOf(config);
  if (pair == Pair::kNone) {
    return Bad(
        "The parameter config srcFormat/dstFormat only supports (NCDHW, FRACTAL_Z_3D)/"
        "(FRACTAL_Z_3D, NCDHW)/(NCDHW, NDC1HWC0)/(NDC1HWC0, NCDHW)!");
  }
  const lngrad::Product& product = platform.SimulatedProduct();
  if (product.arch != NpuArch::k2201 && product.arch != NpuArch::k3510) {
    return Status::Unsupported(in::Prefix(kApi, kFunc) + "Unsupported NpuArch for TransData API: " +
                               std::string(product.soc) + " is arch " +
                               lngrad::NpuArchName(product.arch) + "; supported: 2201 and 3510.");
  }
  const bool from_plain = pair == Pair::kToNdc1hwc0 || pair == Pair::kToFz3d;
  Ncdhw s;
  LNGRAD_RETURN_IF_ERROR(ReadShapes(pair, (from_plain ? srcShape : dstShape).GetDims(),
                                    (from_plain ? dstShape : srcShape).GetDims(), &s));
  for (const int64_t v : {s.n, s.c, s.d, s.h, s.w}) {
    if (v <= 0) return Bad("every dim of the NCDHW shape must be greater than 0.");
  }
  const uint64_t bytes = ScratchBytes(pair, s);
  return in::StoreMaxMin(kApi, kFunc, bytes, bytes, maxValue, minValue);
}

}  // namespace lngrad::tiling

namespace AscendC {

bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform,
                               const ge::Shape& srcShape, const ge::Shape& dstShape,
                               ge::DataType dataType, const TransDataConfig& config,
                               uint32_t& maxValue, uint32_t& minValue) {
  const Status status = lngrad::tiling::TransDataMaxMinTmpSize(
      platform, srcShape, dstShape, dataType, config, maxValue, minValue);
  lngrad::tiling::internal::Report(status);
  return status.ok();
}

}  // namespace AscendC
