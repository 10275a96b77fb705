// A host program whose kernel forgets its MTE2 -> V flag: `lngrad sanitize` must fail it under
// racecheck and let it pass under initcheck (tests/sanitizer/CMakeLists.txt). Exits 1 when the
// launch throws, 0 when it runs.
#include <cstdio>

#include "kernel_operator.h"

namespace {

constexpr uint32_t kN = 64;

void Unsynced(GM_ADDR x, GM_ADDR z) {
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kN);
  zg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), kN);
  AscendC::LocalTensor<float> t(AscendC::TPosition::VECCALC, 0, kN);
  AscendC::DataCopy(t, xg, kN);
  AscendC::Muls(t, t, 2.0f, kN);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::DataCopy(zg, t, kN);
}

}  // namespace

int main() {
  uint8_t* x = static_cast<uint8_t*>(AscendC::GmAlloc(kN * sizeof(float)));
  uint8_t* z = static_cast<uint8_t*>(AscendC::GmAlloc(kN * sizeof(float)));
  int rc = 0;
  try {
    ICPU_RUN_KF(Unsynced, 1, x, z);
  } catch (const lngrad::aicore::KernelCheckError& e) {
    std::printf("racy_demo: launch failed: [%s]\n", e.check().c_str());
    rc = 1;
  }
  AscendC::GmFree(x);
  AscendC::GmFree(z);
  return rc;
}
