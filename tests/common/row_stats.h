// The statistics LayerNormGrad takes, of the stored x: for each row of h elements its mean and
// (biased) variance, computed in double and rounded to T once.
//
// Templates only, no lngrad header (see element.h); shared by tests/hardening and
// fuzz/fuzz_kernel_launch.cpp.
#pragma once

#include <cstdint>

#include "element.h"

namespace lngrad::test {

// x holds rows·h elements; mean and var receive rows each.
template <typename T>
void RowStats(const T* x, int64_t rows, int64_t h, T* mean, T* var) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = x + r * h;
    double m = 0, q = 0;
    for (int64_t c = 0; c < h; ++c) m += ToDouble(row[c]);
    m /= static_cast<double>(h);
    for (int64_t c = 0; c < h; ++c) q += (ToDouble(row[c]) - m) * (ToDouble(row[c]) - m);
    mean[r] = FromDouble<T>(m);
    var[r] = FromDouble<T>(q / static_cast<double>(h));
  }
}

}  // namespace lngrad::test
