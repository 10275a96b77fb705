// What the SoftmaxFlashV2 and SoftmaxFlashV3 scratch tests (softmax_flash_scratch_replay_test.cpp,
// softmax_flashv3_scratch_replay_test.cpp) share: their operands' staging in the UB and their
// inputs; the comparison is the UB harness's (scratch_ub_harness.h: values and the scratch's
// floats bit for bit, two NaNs match).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "replay.h"
#include "scratch_ub_harness.h"

namespace lngrad_replay::flash_scratch_test {

inline uint32_t Al(uint64_t bytes) { return scratch_test::Aligned32(static_cast<uint32_t>(bytes)); }

// v's values into the tensor's start, and back.
template <class V, class D>
void Load(const AscendC::LocalTensor<D>& t, const std::vector<V>& v) {
  if (!v.empty()) std::memcpy(t.HostPtr(), v.data(), v.size() * sizeof(V));
}
template <class V, class D>
void Store(const AscendC::LocalTensor<D>& t, std::vector<V>& v) {
  if (!v.empty()) std::memcpy(v.data(), t.HostPtr(), v.size() * sizeof(V));
}

inline std::vector<float> Uniform(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& e : v) e = d(gen);
  return v;
}

template <class T>
std::vector<float> Widened(const std::vector<T>& v) {
  std::vector<float> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = ToFloat(v[i]);
  return r;
}

}  // namespace lngrad_replay::flash_scratch_test
