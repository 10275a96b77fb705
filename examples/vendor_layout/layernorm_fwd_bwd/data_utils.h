// Host file I/O and the comparison with the goldens of scripts/gen_data.py for
// layernorm_fwd_bwd.asc, as the vendor's samples keep them in data_utils.h: ReadFile, WriteFile
// and CompareResult (the rule of `lngrad verify`, with the magnitude rule's optional bounds).
#pragma once

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"

inline bool ReadFile(const std::string& path, void* buf, size_t bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in || static_cast<size_t>(in.tellg()) != bytes) {
    std::printf("%s: missing or not %zu bytes (run scripts/gen_data.py with the same dtype)\n",
                path.c_str(), bytes);
    return false;
  }
  in.seekg(0);
  return static_cast<bool>(in.read(static_cast<char*>(buf), static_cast<std::streamsize>(bytes)));
}

inline bool WriteFile(const std::string& path, const void* buf, size_t bytes) {
  std::ofstream out(path, std::ios::binary);
  return static_cast<bool>(
      out.write(static_cast<const char*>(buf), static_cast<std::streamsize>(bytes)));
}

// The rule of `lngrad verify` (docs/cli.md): an element fails when both its absolute and its
// relative error exceed the dtype's tolerance (float 1e-4, half 1e-3), unless `bound` is given
// and the absolute error is within bound[i] (the magnitude rule, for sums that cancel).
template <typename T>
bool CompareResult(const void* output, size_t bytes, const std::string& name,
                   const std::vector<double>* bound = nullptr) {
  void* golden = nullptr;
  aclrtMallocHost(&golden, bytes);
  if (!ReadFile("./output/golden_" + name + ".bin", golden, bytes)) {
    aclrtFreeHost(golden);
    return false;
  }
  const double tolerance = sizeof(T) == 2 ? 1e-3 : 1e-4;
  size_t wrong = 0;
  size_t byMagnitude = 0;
  for (size_t i = 0; i < bytes / sizeof(T); ++i) {
    const double a = static_cast<float>(static_cast<const T*>(output)[i]);
    const double b = static_cast<float>(static_cast<const T*>(golden)[i]);
    const double ae = std::fabs(a - b);
    if (ae > tolerance && ae > tolerance * std::fabs(b)) {
      if (bound != nullptr && ae <= (*bound)[i]) {
        ++byMagnitude;
        continue;
      }
      if (wrong < 5) {
        std::printf("golden_%s.bin[%zu]: output %g, golden %g\n", name.c_str(), i, a, b);
      }
      ++wrong;
    }
  }
  aclrtFreeHost(golden);
  std::printf("CompareResult golden_%s.bin: %zu of %zu wrong", name.c_str(), wrong,
              bytes / sizeof(T));
  if (bound != nullptr) std::printf(" (%zu right only by the magnitude rule)", byMagnitude);
  std::printf("\n");
  return wrong == 0;
}
