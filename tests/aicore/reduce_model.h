// Scalar models of the basic API's reductions for tests/aicore/reduce_ops_test.cpp, written from
// the vendor's documents (see that file's header): lane addresses of a repeat, masks (bits or a
// count), the adjacent-pair sum tree, max/min with the lowest index on ties.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "kernel_operator.h"

namespace lngrad::aicore::test::reduce_model {

using namespace AscendC;

template <typename T>
constexpr uint32_t Lanes() {
  return 256 / sizeof(T);
}
template <typename T>
constexpr uint32_t PerBlock() {
  return 32 / sizeof(T);
}

struct MaskModel {
  bool bits = false;
  uint32_t count = 0;
  uint64_t m[2] = {0, 0};
  bool On(uint32_t lane) const {
    return bits ? ((m[lane / 64] >> (lane % 64)) & 1) != 0 : lane < count;
  }
};

// Element index of repeat r, lane i (strides in blocks).
template <typename T>
size_t At(uint32_t r, uint32_t i, uint32_t rep, uint32_t blk) {
  return size_t{r} * rep * PerBlock<T>() + size_t{i / PerBlock<T>()} * blk * PerBlock<T>() +
         i % PerBlock<T>();
}

// The sum of v[lo, hi) as a balanced tree of halves: the same association as the level-by-level
// adjacent pairs, written the other way round.
template <typename T>
T TreeModel(const std::vector<T>& v, size_t lo, size_t hi) {
  if (hi - lo == 1) return v[lo];
  const size_t mid = lo + (hi - lo) / 2;
  return T(static_cast<float>(TreeModel(v, lo, mid)) + static_cast<float>(TreeModel(v, mid, hi)));
}

// Value and index of the max/min of the selected values: lowest index on ties, first NaN wins.
template <typename T>
std::pair<T, uint32_t> ExtremeModel(bool is_max, const std::vector<std::pair<T, uint32_t>>& xs) {
  std::pair<T, uint32_t> best = xs.at(0);
  for (const auto& x : xs) {
    const float b = static_cast<float>(best.first);
    const float c = static_cast<float>(x.first);
    if (std::isnan(b)) break;
    if (std::isnan(c) || (is_max ? c > b : c < b)) best = x;
  }
  return best;
}

template <typename T>
T IdxBits(uint32_t i) {
  if constexpr (sizeof(T) == 2) {
    return std::bit_cast<T>(static_cast<uint16_t>(i));
  } else {
    return std::bit_cast<T>(i);
  }
}

struct Shape {
  int32_t repeat;
  int32_t dst_rep;
  int32_t src_blk;
  int32_t src_rep;
};
const Shape kShapes[] = {{1, 1, 1, 8}, {3, 1, 1, 8},  {5, 2, 2, 16}, {4, 0, 1, 8},
                         {6, 3, 0, 1}, {2, 1, 3, 24}, {255, 1, 1, 4}};

template <typename T>
std::vector<MaskModel> Masks(uint32_t seed) {
  std::vector<MaskModel> ms;
  for (uint32_t c : {1u, 7u, Lanes<T>() / 2 + 3, Lanes<T>()}) {
    MaskModel m;
    m.count = c;
    ms.push_back(m);
  }
  std::mt19937_64 gen(seed);
  for (int k = 0; k < 3; ++k) {
    MaskModel m;
    m.bits = true;
    m.m[0] = gen() & (k == 0 ? 0x00FF00FF00FF00F0ull : ~0ull);
    m.m[1] = Lanes<T>() > 64 ? gen() : 0;
    ms.push_back(m);
  }
  return ms;
}

template <typename T, typename F>
void WithMask(const MaskModel& m, F&& f) {
  if (m.bits) {
    uint64_t arr[2] = {m.m[0], m.m[1]};
    f(arr);
  } else {
    f(static_cast<int32_t>(m.count));
  }
}

}  // namespace lngrad::aicore::test::reduce_model
