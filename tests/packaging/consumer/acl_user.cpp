// Uses the installed ACL host runtime: vendor-style host code with one <<<>>> launch, written as
// lngrad's compiler driver rewrites it (the header is force-included there; included here).
#include <cstdio>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "lngrad_acl/launch.h"

__global__ __aicore__ void fill_kernel(GM_ADDR dst, float value) {
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst) + AscendC::GetBlockIdx() * 8, 8);
  for (int i = 0; i < 8; ++i) g.SetValue(i, value);
}

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 1;
  void* dev = nullptr;
  if (aclrtMalloc(&dev, 32 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
  ::lngrad::acl::LaunchKernel(
      "fill_kernel", __FILE__, __LINE__, (4), (nullptr), (stream),
      [&](auto&&... lngrad_args) { fill_kernel(lngrad_args...); }, dev, 2.5f);
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return 1;
  float host[32] = {};
  if (aclrtMemcpy(host, sizeof host, dev, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
    return 1;
  }
  for (float v : host) {
    if (v != 2.5f) return 1;
  }
  // Misuse is an error code, not a crash.
  if (aclrtFree(dev) != ACL_SUCCESS || aclrtFree(dev) != ACL_ERROR_RT_PARAM_INVALID) return 1;
  if (aclGetRecentErrMsg() == nullptr) return 1;
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::puts("acl_user: ok");
  return 0;
}
