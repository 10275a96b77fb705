// Uses the installed Ascend C include root: a one-block kernel that doubles 64 floats.
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void double_kernel(GM_ADDR src, GM_ADDR dst) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> in_q;
  pipe.InitBuffer(in_q, 1, 64 * sizeof(float));
  GlobalTensor<float> src_gm, dst_gm;
  src_gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src), 64);
  dst_gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), 64);
  LocalTensor<float> t = in_q.AllocTensor<float>();
  DataCopy(t, src_gm, 64);
  Muls(t, t, 2.0f, 64);
  DataCopy(dst_gm, t, 64);
  in_q.FreeTensor(t);
}

int main() {
  auto* src = static_cast<uint8_t*>(AscendC::GmAlloc(64 * sizeof(float)));
  auto* dst = static_cast<uint8_t*>(AscendC::GmAlloc(64 * sizeof(float)));
  float* s = reinterpret_cast<float*>(src);
  for (int i = 0; i < 64; ++i) s[i] = static_cast<float>(i);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);  // spelled as in CANN's CPU-debug samples
  ICPU_RUN_KF(double_kernel, 1, src, dst);
  const float* d = reinterpret_cast<const float*>(dst);
  for (int i = 0; i < 64; ++i) {
    if (d[i] != 2.0f * static_cast<float>(i)) return 1;
  }
  AscendC::GmFree(src);
  AscendC::GmFree(dst);
  std::puts("kernel_user: ok");
  return 0;
}
