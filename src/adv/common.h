// Internal helpers shared by the lngrad_adv kernels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "lngrad_adv/normalization.h"
#include "vector_ops.h"

namespace lngrad::adv::detail {

inline constexpr uint32_t kRepeatLanes = 64;  // floats per 256-byte repeat / register

inline Ops MakeOps(Impl impl) {
  const Impl r = ResolveImpl(impl);
  return Ops{r != Impl::kScalar, r == Impl::kSimd};
}

inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
inline uint64_t Ceil8(uint64_t a) { return CeilDiv(a, 8) * 8; }

// Highest element index + 1 that ReduceSumRows(dst, src, calSize, h) writes in dst.
uint64_t ReduceSumRowsExtent(uint64_t calSize, uint64_t h);

// OutOfRange naming the API, the operand and both sizes, when `need` exceeds the capacity.
template <typename T>
Status CheckCapacity(const char* api, const char* operand, const Buffer<T>& b, uint64_t need) {
  if (need == 0) return Status::Ok();
  if (b.data == nullptr) {
    return Status::InvalidArgument(std::string(api) + ": operand " + operand + " is null but " +
                                   std::to_string(need) + " elements are accessed");
  }
  if (need > b.capacity) {
    return Status::OutOfRange(std::string(api) + ": operand " + operand + " needs " +
                              std::to_string(need) + " elements for this tiling but only " +
                              std::to_string(b.capacity) + " are addressable");
  }
  return Status::Ok();
}

}  // namespace lngrad::adv::detail
