// What the sanitizer's test files share: GM buffers from GmAlloc, one launch under the
// sanitizer with its findings, the check that a launch was clean, and the queue kernel of the
// vendor's counter-example 2.
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

// Where QueueAdd issues x's copy and x's DeQue. On the device y's EnQue is a SetFlag<MTE2_V>
// that fires once every earlier MTE2 instruction is complete, so it orders x's copy when that
// copy comes first (the vendor's counter-example 2 as printed); x's own DeQue orders it always.
struct QueueAddOrder {
  bool copy_x_before_y_enque = false;  // else after y's EnQue
  bool dequeue_x_before_add = false;   // else only after the Add (x used without its DeQue)
};

// z = x + y over n floats in the vendor's style: x and y through VECIN queues, z through a
// VECOUT queue, x's copy and DeQue placed as `order` says. *add_line (when given) receives the
// Add's line in this file.
inline void QueueAdd(float* x, float* y, float* z, uint32_t n, QueueAddOrder order,
                     int* add_line = nullptr) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inX, inY;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outZ;
  pipe.InitBuffer(inX, 1, n * sizeof(float));
  pipe.InitBuffer(inY, 1, n * sizeof(float));
  pipe.InitBuffer(outZ, 1, n * sizeof(float));
  AscendC::GlobalTensor<float> xg, yg, zg;
  xg.SetGlobalBuffer(x, n);
  yg.SetGlobalBuffer(y, n);
  zg.SetGlobalBuffer(z, n);
  AscendC::LocalTensor<float> xl = inX.AllocTensor<float>();
  AscendC::LocalTensor<float> yl = inY.AllocTensor<float>();
  if (order.copy_x_before_y_enque) AscendC::DataCopy(xl, xg, n);
  AscendC::DataCopy(yl, yg, n);
  inY.EnQue(yl);
  if (!order.copy_x_before_y_enque) AscendC::DataCopy(xl, xg, n);
  inX.EnQue(xl);
  if (order.dequeue_x_before_add) xl = inX.DeQue<float>();
  yl = inY.DeQue<float>();
  AscendC::LocalTensor<float> zl = outZ.AllocTensor<float>();
  AscendC::Add(zl, xl, yl, n);
  if (add_line != nullptr) *add_line = __LINE__ - 1;
  outZ.EnQue(zl);
  if (!order.dequeue_x_before_add) xl = inX.DeQue<float>();
  inX.FreeTensor(xl);
  inY.FreeTensor(yl);
  zl = outZ.DeQue<float>();
  AscendC::DataCopy(zg, zl, n);
  outZ.FreeTensor(zl);
}

}  // namespace lngrad::aicore::san_test
