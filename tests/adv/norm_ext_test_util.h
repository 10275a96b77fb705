// Helpers of the RmsNorm / DeepNorm / Welford tests (norm_ext_api_test.cpp,
// norm_ext_welford_test.cpp): one block with buffers of given sizes, data, the float64 oracles'
// comparisons with a stated bound.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"

namespace norm_ext_test {

// The uint32 fields DeepNormTiling and GroupNormTiling share, in struct order: the tensor and
// mean/variance sizes, the LayerNorm chunk layout (LNGRAD_LAYERNORM_CHUNK_FIELDS) and the
// current lengths; appended to `fields` (the fields before them, which differ per struct).
template <typename Tiling>
std::vector<uint32_t> WithNormLayoutFields(std::vector<uint32_t> fields, const Tiling& t) {
  fields.insert(fields.end(), {t.inputXSize, t.meanVarSize, t.numberOfTmpBuf, t.meanTmpTensorPos,
                               t.meanTmpTensorSize});
#define LNGRAD_NORM_TEST_FIELD(type, name) fields.push_back(t.name);
  LNGRAD_LAYERNORM_CHUNK_FIELDS(LNGRAD_NORM_TEST_FIELD)
#undef LNGRAD_NORM_TEST_FIELD
  fields.insert(fields.end(), {t.bshCurLength, t.bsCurLength});
  return fields;
}

inline constexpr const char* k910B = "Ascend910B1";
inline constexpr const char* k950 = "Ascend950PR_9599";
inline constexpr const char* k310P = "Ascend310P1";  // arch 2002, supported
inline constexpr const char* k310B = "Ascend310B1";  // arch 3002, not supported
inline constexpr double kU = 0x1p-24;                // float unit roundoff
inline constexpr double kUh = 0x1p-11;               // half unit roundoff

// One block's UB operands: buffer i holds bytes[i] (rounded up to 32).
struct Bufs {
  AscendC::TPipe pipe;
  std::vector<AscendC::TBuf<>> buf;
  explicit Bufs(std::initializer_list<uint32_t> bytes) : buf(bytes.size()) {
    size_t i = 0;
    for (uint32_t b : bytes) pipe.InitBuffer(buf[i++], (b + 31) / 32 * 32);
  }
  template <typename T>
  AscendC::LocalTensor<T> Get(size_t i) {
    return buf[i].Get<T>();
  }
  template <typename T>
  void Put(size_t i, const std::vector<T>& v) {
    T* p = Get<T>(i).HostPtr();
    for (size_t k = 0; k < v.size(); ++k) p[k] = v[k];
  }
  template <typename T>
  std::vector<T> Take(size_t i, size_t n) {
    const T* p = Get<T>(i).HostPtr();
    return std::vector<T>(p, p + n);
  }
};

// Runs body on one block of soc; returns the check it raised ("" if none).
inline std::string RunBlock(const char* soc, const std::function<void()>& body) {
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  std::string check;
  const lngrad::Status s = lngrad::aicore::Launch(
      1,
      [&] {
        try {
          body();
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          check = e.check();
        }
      },
      o);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return check;
}

// Uniform values in [lo, hi) (the aicore tests' generator).
template <typename T>
std::vector<T> Random(uint32_t seed, size_t n, float lo = -2.0f, float hi = 2.0f) {
  return lngrad::aicore::test::RandomValues<T>(seed, n, lo, hi);
}

template <typename T>
double D(T v) {
  return static_cast<double>(static_cast<float>(v));
}

// |got - want| <= bound for each compared element; reports the first violation.
inline void ExpectWithin(double got, double want, double bound, const std::string& what) {
  EXPECT_LE(std::fabs(got - want), bound)
      << what << ": got " << got << ", float64 oracle " << want << ", bound " << bound;
}

inline int Log2Ceil(uint32_t n) {
  int k = 0;
  while ((1u << k) < n) ++k;
  return k;
}

}  // namespace norm_ext_test
