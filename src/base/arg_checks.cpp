#include "lngrad/arg_checks.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lngrad {

std::string ShortestDouble(double v) {
  char buf[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

Status CheckEpsilon(double eps, std::string_view what, bool as_half) {
  const std::string name(what);
  if (!(eps >= 0) || std::isinf(eps)) {
    return Status::InvalidArgument(name + " must be finite and >= 0 (got " + ShortestDouble(eps) +
                                   ")");
  }
  constexpr double kHalfMax = 65504;
  if (as_half && eps > kHalfMax) {
    return Status::InvalidArgument(
        name + " " + ShortestDouble(eps) +
        " is too large: for half data the device kernels take epsilon as half, so it must be at "
        "most 65504 (the largest finite half)");
  }
  if (!std::isfinite(static_cast<float>(eps))) {
    return Status::InvalidArgument(name + " " + ShortestDouble(eps) +
                                   " is too large: the kernels take epsilon as a float, so it "
                                   "must be at most 3.40282347e+38 (the largest finite float)");
  }
  return Status::Ok();
}

Status CheckedProduct(const int64_t* dims, size_t n, std::string_view what, uint64_t* product) {
  uint64_t p = 1;
  bool overflow = false;
  for (size_t i = 0; i < n; ++i) {
    if (dims[i] < 0) {
      return Status::InvalidArgument(std::string(what) + ": extent " + std::to_string(dims[i]) +
                                     " is negative");
    }
    overflow = overflow || __builtin_mul_overflow(p, static_cast<uint64_t>(dims[i]), &p);
  }
  // A zero extent makes the product 0 whatever the others are; otherwise it must fit in int64.
  bool zero = false;
  for (size_t i = 0; i < n; ++i) zero = zero || dims[i] == 0;
  if (zero) p = 0;
  if (!zero && (overflow || p > static_cast<uint64_t>(INT64_MAX))) {
    return Status::InvalidArgument(std::string(what) +
                                   " overflows: the product of the extents exceeds 2^63 - 1");
  }
  *product = p;
  return Status::Ok();
}

}  // namespace lngrad
