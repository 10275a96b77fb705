// The shared recipe of the NumPy interoperability files (see numpy_files.py): names, shapes,
// and value(i) = (((i*37) % 201) - 100) / 8, exact in every dtype.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace lngrad::io::samples {

inline double Value(int64_t i) { return static_cast<double>((i * 37) % 201 - 100) / 8.0; }

inline const std::vector<std::pair<std::string, std::vector<int64_t>>>& Shapes() {
  static const std::vector<std::pair<std::string, std::vector<int64_t>>> kShapes = {
      {"scalar", {}}, {"vec7", {7}}, {"b2s3h16", {2, 3, 16}}, {"one5", {1, 5}}, {"empty", {0, 3}}};
  return kShapes;
}

inline std::vector<double> Specials(const std::string& dt) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (dt == "f2") return {0.0, -0.0, inf, -inf, nan, std::ldexp(1.0, -24), 65504.0};
  return {0.0, -0.0, inf, -inf, nan, std::ldexp(1.0, -149), 3.4028234663852886e38};
}

}  // namespace lngrad::io::samples
