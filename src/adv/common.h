// Internal helpers shared by the lngrad_adv kernels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "lngrad_adv/normalization.h"
#include "lngrad_aicore/instructions.h"
#include "row_kernels.h"

namespace lngrad::adv::detail {

// The device's instructions (lngrad_aicore/instructions.h), as the algorithms name them.
using aicore::BinaryOp;
using aicore::BroadcastRows;
using aicore::CastFloatToHalf;
using aicore::CastHalfToFloat;
using aicore::Fill;
using aicore::FloatToHalfSaturate;
using aicore::kRepeatLanes;
using aicore::MakeOps;
using aicore::Ops;
using aicore::ReduceRow;
using aicore::ReduceSumRowsExtent;
using aicore::ReduceSumRowsWith;
using aicore::ScalarOp;
using aicore::ScalarReduceSumRows;
using aicore::ScalarTree64;
using aicore::TreeSums;
using aicore::UnaryOp;

inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
inline uint64_t Ceil8(uint64_t a) { return CeilDiv(a, 8) * 8; }

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
