// Operand helpers shared by the lngrad_adv APIs: the capacity check of a call's operands
// against its footprint, and lane loads from float or half operands.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "common.h"

namespace lngrad::adv::detail {

// One operand of a call: its name, its buffer (data and capacity) and the elements the
// footprint says the call touches.
struct OperandUse {
  const char* name;
  Buffer<const void> buffer;
  uint64_t need;
};

template <typename T>
OperandUse Use(const char* name, const Buffer<T>& b, uint64_t need) {
  return OperandUse{name, Buffer<const void>{b.data, b.capacity}, need};
}

// The first failing CheckCapacity over `uses`, in order; Ok when every operand is large enough.
inline Status CheckCapacities(const char* api, std::initializer_list<OperandUse> uses) {
  for (const OperandUse& u : uses)
    LNGRAD_RETURN_IF_ERROR(CheckCapacity(api, u.name, u.buffer, u.need));
  return Status::Ok();
}

// n lanes of src (float, or half widened exactly) into the float lanes dst.
template <typename T>
void LoadLanes(const Ops& ops, float* dst, const T* src, uint32_t n) {
  if constexpr (std::is_same_v<T, float>) {
    std::copy(src, src + n, dst);
  } else {
    ops.CastHalfToFloat(dst, src, n);
  }
}

}  // namespace lngrad::adv::detail
