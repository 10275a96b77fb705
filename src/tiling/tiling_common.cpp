#include "tiling_common.h"

#include <cstdio>
#include <limits>

namespace lngrad::tiling {
namespace {
thread_local Status t_last_status;
}  // namespace

const Status& LastTilingStatus() { return t_last_status; }

namespace internal {

std::string Prefix(const char* api, const char* func) {
  return std::string("[") + api + "][" + func + "] ";
}

Status CheckProductSupports(const char* api, const char* func, bool supported) {
  if (supported) return Status::Ok();
  const lngrad::Product& p = lngrad::CurrentProduct();
  return Status::Unsupported(Prefix(api, func) + api + " is not supported on " +
                             std::string(p.soc) + " (arch " + lngrad::NpuArchName(p.arch) + ", " +
                             std::string(p.product_line) +
                             "); supported: arch 2201, 2002 and 3510 (spec §7.1)");
}

Status CheckBshShape(const char* api, const char* func, bool supported, const ge::Shape& shape,
                     uint32_t typeSize, CheckOrder order, Bsh* out) {
  LNGRAD_RETURN_IF_ERROR(CheckProductSupports(api, func, supported));
  // Built only for a message: operators call the tiling for every tile size they try.
  const auto prefix = [&] { return Prefix(api, func); };
  const auto check_type = [&]() -> Status {
    if (typeSize != 2 && typeSize != 4) {
      return Status::InvalidArgument(
          prefix() + "Type size " + std::to_string(typeSize) +
          " is unsupported! (typeSize must be 2 for half or 4 for float)");
    }
    return Status::Ok();
  };
  if (order == CheckOrder::kTypeSizeFirst) LNGRAD_RETURN_IF_ERROR(check_type());
  if (shape.GetShapeSize() <= 0) {
    return Status::InvalidArgument(prefix() +
                                   "Input Shape size must be greater than 0. (srcShape has " +
                                   std::to_string(shape.GetDimNum()) + " dims, product " +
                                   std::to_string(shape.GetShapeSize()) + ")");
  }
  if (shape.GetDimNum() != 4) {
    return Status::InvalidArgument(prefix() + "The dims of srcShape is " +
                                   std::to_string(shape.GetDimNum()) +
                                   ", should be 4 (e.g. [B, S, storageHLength, originHLength])!");
  }
  if (order == CheckOrder::kTypeSizeLast) LNGRAD_RETURN_IF_ERROR(check_type());
  uint32_t dims[4];
  for (size_t i = 0; i < 4; ++i) {
    const int64_t d = shape.GetDim(i);
    if (d <= 0) {
      return Status::InvalidArgument(prefix() + "srcShape[" + std::to_string(i) +
                                     "] must be greater than 0. (it is " + std::to_string(d) + ")");
    }
    if (d > static_cast<int64_t>(std::numeric_limits<uint32_t>::max())) {
      return Status::OutOfRange(prefix() + "srcShape[" + std::to_string(i) +
                                "] = " + std::to_string(d) +
                                " does not fit in uint32 (the tiling fields are uint32)");
    }
    dims[i] = static_cast<uint32_t>(d);
  }
  Bsh r;
  r.b = dims[0];
  r.s = dims[1];
  r.h = dims[2];
  r.orig_h = dims[3];
  LNGRAD_RETURN_IF_ERROR(FitU32(api, func, "B*S", uint64_t{r.b} * r.s, &r.bs));
  LNGRAD_RETURN_IF_ERROR(FitU32(api, func, "B*S*H", uint64_t{r.bs} * r.h, &r.bsh));
  *out = r;
  return Status::Ok();
}

Status FitU32(const char* api, const char* func, const char* what, uint64_t value, uint32_t* out) {
  if (value > std::numeric_limits<uint32_t>::max()) {
    return Status::OutOfRange(Prefix(api, func) + what + " = " + std::to_string(value) +
                              " does not fit in uint32 (the toolkit would wrap it silently)");
  }
  *out = static_cast<uint32_t>(value);
  return Status::Ok();
}

Status ArDims(const char* api, const char* func, const ge::Shape& shape, uint32_t* a, uint32_t* r) {
  for (size_t i = 0; i < 2; ++i) {
    const int64_t v = shape.GetDim(i);
    if (v <= 0) {
      return Status::InvalidArgument(Prefix(api, func) + "srcShape[" + std::to_string(i) +
                                     "] must be greater than 0. (it is " + std::to_string(v) + ")");
    }
    LNGRAD_RETURN_IF_ERROR(
        FitU32(api, func, i == 0 ? "A" : "R", static_cast<uint64_t>(v), i == 0 ? a : r));
  }
  return Status::Ok();
}

Status StoreMaxMin(const char* api, const char* func, uint64_t max_bytes, uint64_t min_bytes,
                   uint32_t& maxValue, uint32_t& minValue) {
  uint32_t max32 = 0;
  uint32_t min32 = 0;
  LNGRAD_RETURN_IF_ERROR(FitU32(api, func, "maxValue", max_bytes, &max32));
  LNGRAD_RETURN_IF_ERROR(FitU32(api, func, "minValue", min_bytes, &min32));
  maxValue = max32;
  minValue = min32;
  return Status::Ok();
}

void Report(const Status& status) {
  t_last_status = status;
  if (!status.ok()) std::fprintf(stderr, "%s\n", status.message().c_str());
}

}  // namespace internal
}  // namespace lngrad::tiling

namespace optiling {

void TilingDef::SaveToBuffer(void* pData, size_t capacity) const {
  if (pData == nullptr || capacity < data_.size()) {
    lngrad::tiling::internal::Report(lngrad::Status::OutOfRange(
        "[TilingDef][SaveToBuffer] " +
        std::string(pData == nullptr ? "pData is null" : "capacity too small") + ": capacity " +
        std::to_string(capacity) + " bytes, the tiling data needs " + std::to_string(data_.size()) +
        " bytes; nothing written"));
    return;
  }
  WriteImage(static_cast<uint8_t*>(pData));
  lngrad::tiling::internal::Report(lngrad::Status::Ok());
}

}  // namespace optiling
