// What the sanitizer's test files share: GM buffers from GmAlloc, one launch under the
// sanitizer with its findings, and the check that a launch was clean.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace lngrad::aicore::san_test {

// `floats` floats of GM, element i holding i % 17 (small integers: sums stay exact).
struct Gm {
  explicit Gm(size_t floats) : p(static_cast<float*>(AscendC::GmAlloc(floats * sizeof(float)))) {
    for (size_t i = 0; i < floats; ++i) p[i] = static_cast<float>(i % 17);
  }
  ~Gm() { AscendC::GmFree(p); }
  Gm(const Gm&) = delete;
  Gm& operator=(const Gm&) = delete;
  float* p;
};

struct Result {
  lngrad::Status status = lngrad::Status::Ok();
  std::vector<BlockFailure> failures;
  std::string AllText() const {
    std::string s;
    for (const BlockFailure& f : failures) s += "[" + f.check + "] " + f.message + "\n";
    return s;
  }
};

struct LaunchSpec {
  const char* soc = "Ascend910B1";
  uint32_t blocks = 1;
  uint32_t tools = san::kAllTools;
  bool auto_sync = true;  // LaunchOptions::cce_auto_sync
};

inline Result LaunchSanitized(const LaunchSpec& spec, const std::function<void()>& kernel) {
  LaunchOptions o;
  o.sanitize = spec.tools;
  o.cce_auto_sync = spec.auto_sync;
  o.soc = spec.soc;
  Result r;
  r.status = RunBlocks("kernel", spec.blocks, kernel, o, &r.failures);
  return r;
}

inline void ExpectClean(const Result& r) {
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(r.failures.empty()) << r.AllText();
}

}  // namespace lngrad::aicore::san_test
