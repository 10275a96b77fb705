// The 950's register ReduceSum (replay.h), as lngrad's register API defines it
// (docs/ascendc_kernels.md §3): not from lngrad's code.
#include <algorithm>
#include <vector>

#include "replay.h"

namespace lngrad_replay {

float RegReduceSum(const float* lanes, uint32_t active, uint32_t width, bool isHalf) {
  std::vector<float> v(width, 0.0f);
  std::vector<char> on(width);
  std::copy_n(lanes, std::min(active, width), v.begin());
  for (uint32_t i = 0; i < width; ++i) on[i] = i < active;
  for (uint32_t w = width; w > 1; w /= 2) {
    for (uint32_t j = 0; j < w / 2; ++j) {
      const bool a = on[2 * j], b = on[2 * j + 1];
      const float sum = v[2 * j] + v[2 * j + 1];
      v[j] =
          a && b ? (isHalf ? HalfToFloat(FloatToHalf(sum)) : sum) : (a ? v[2 * j] : v[2 * j + 1]);
      on[j] = a || b;
    }
  }
  return on[0] ? v[0] : 0.0f;
}

}  // namespace lngrad_replay
