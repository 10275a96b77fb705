// Internal helpers shared by the lngrad_adv kernels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

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

// The full rounds of a chunked row loop: f(C{element offset, row offset, elements, rows}) for
// rounds 0 .. rounds - 1, the offsets advancing by elem_step and row_step. C is the caller's
// chunk struct of those four fields. Returns the offsets after the last round.
template <class C, class F>
std::pair<uint64_t, uint64_t> ForFullChunks(uint32_t rounds, uint64_t elem_step, uint64_t row_step,
                                            uint32_t elems, uint32_t rows, F f) {
  uint64_t elem_off = 0;
  uint64_t row_off = 0;
  for (uint32_t k = 0; k < rounds; ++k) {
    f(C{elem_off, row_off, elems, rows});
    elem_off += elem_step;
    row_off += row_step;
  }
  return {elem_off, row_off};
}

// The Process loop of LayerNorm's two families (LayerNormTiling, LayerNormSeparateTiling): the
// full rounds, then the tail, whose lengths the device stores into the (non-const, or
// const-cast) tiling's cur_elems and cur_rows fields and leaves there.
template <class C, class Tiling, class F>
void ForEachRoundAndTail(Tiling& t, uint32_t Tiling::*cur_elems, uint32_t Tiling::*cur_rows, F f) {
  ForFullChunks<C>(t.loopRound, t.inputRoundSize, t.meanVarRoundSize, t.*cur_elems, t.*cur_rows, f);
  if (t.inputTailSize > 0) {
    t.*cur_elems = t.inputTailSize;
    t.*cur_rows = t.meanVarTailSize;
    f(C{t.inputTailPos, t.meanVarTailPos, t.*cur_elems, t.*cur_rows});
  }
}

// The chunks of that loop whose extents bound all others: the last full round (full rounds
// share their sizes, so it reaches furthest) and the tail.
template <class C, class Tiling, class F>
void ForBoundingRoundAndTail(const Tiling& t, uint32_t Tiling::*cur_elems,
                             uint32_t Tiling::*cur_rows, F f) {
  if (t.loopRound > 0) {
    const uint64_t k = t.loopRound - 1;
    f(C{k * t.inputRoundSize, k * t.meanVarRoundSize, t.*cur_elems, t.*cur_rows});
  }
  if (t.inputTailSize > 0) {
    f(C{t.inputTailPos, t.meanVarTailPos, t.inputTailSize, t.meanVarTailSize});
  }
}

}  // namespace lngrad::adv::detail
