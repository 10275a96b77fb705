// End to end, as the vendor's samples are written: the kernel and a host main that uses only
// ACL calls and a <<<>>> launch, here written the way lngrad's compiler driver emits it
// (::lngrad::acl::LaunchKernel; this file is compiled with `-include lngrad_acl/launch.h` and
// the driver's definitions, like an .asc source). Prints the sample's pass line, returns 0 on
// success.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

#define CHECK_ACL(x)                                                          \
  do {                                                                        \
    aclError __ret = x;                                                       \
    if (__ret != ACL_ERROR_NONE) {                                            \
      std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, __ret); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

struct AddCustomTilingData {
  uint32_t totalLength;
  uint32_t tileNum;
};

template <typename T, uint32_t BUFFER_NUM>
class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                              uint32_t tileNum) {
    blockLength = totalLength / AscendC::GetBlockNum();
    this->tileNum = tileNum;
    tileLength = blockLength / tileNum / BUFFER_NUM;
    const int64_t off = blockLength * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ T*)x + off, blockLength);
    yGm.SetGlobalBuffer((__gm__ T*)y + off, blockLength);
    zGm.SetGlobalBuffer((__gm__ T*)z + off, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
  }
  __aicore__ inline void Process() {
    const int32_t loopCount = tileNum * BUFFER_NUM;
    for (int32_t i = 0; i < loopCount; i++) {
      CopyIn(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    AscendC::LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
    AscendC::LocalTensor<T> yLocal = inQueueY.template AllocTensor<T>();
    AscendC::DataCopy(xLocal, xGm[progress * tileLength], tileLength);
    AscendC::DataCopy(yLocal, yGm[progress * tileLength], tileLength);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(int32_t) {
    AscendC::LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
    AscendC::LocalTensor<T> yLocal = inQueueY.template DeQue<T>();
    AscendC::LocalTensor<T> zLocal = outQueueZ.template AllocTensor<T>();
    AscendC::Add(zLocal, xLocal, yLocal, tileLength);
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    AscendC::LocalTensor<T> zLocal = outQueueZ.template DeQue<T>();
    AscendC::DataCopy(zGm[progress * tileLength], zLocal, tileLength);
    outQueueZ.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::GlobalTensor<T> xGm, yGm, zGm;
  uint32_t blockLength = 0, tileNum = 0, tileLength = 0;
};

template <typename T, uint32_t BUFFER_NUM>
__global__ __vector__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddCustomTilingData tiling) {
  KernelAdd<T, BUFFER_NUM> op;
  op.Init(x, y, z, tiling.totalLength, tiling.tileNum);
  op.Process();
}

template <typename T>
int RunCase(const char* name, aclrtStream stream) {
  constexpr uint32_t numBlocks = 8;
  constexpr uint32_t totalLength = 8 * 2048;
  const size_t totalByteSize = totalLength * sizeof(T);
  AddCustomTilingData tiling = {totalLength, 8};
  std::vector<T> x(totalLength), y(totalLength);
  for (uint32_t i = 0; i < totalLength; ++i) {
    x[i] = static_cast<T>(static_cast<float>(i % 100) * 0.5f);
    y[i] = static_cast<T>(static_cast<float>(i % 7) - 3.0f);
  }
  uint8_t *zHost = nullptr, *xDevice = nullptr, *yDevice = nullptr, *zDevice = nullptr;
  CHECK_ACL(aclrtMallocHost((void**)(&zHost), totalByteSize));
  CHECK_ACL(aclrtMalloc((void**)&xDevice, totalByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc((void**)&yDevice, totalByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc((void**)&zDevice, totalByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(
      aclrtMemcpy(xDevice, totalByteSize, x.data(), totalByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(
      aclrtMemcpy(yDevice, totalByteSize, y.data(), totalByteSize, ACL_MEMCPY_HOST_TO_DEVICE));

  // add_custom<T, 2><<<numBlocks, nullptr, stream>>>(xDevice, yDevice, zDevice, tiling);
  ::lngrad::acl::LaunchKernel(
      "add_custom<T, 2>", __FILE__, __LINE__, (numBlocks), (nullptr), (stream),
      [&](auto&&... lngrad_args) { add_custom<T, 2>(lngrad_args...); }, xDevice, yDevice, zDevice,
      tiling);
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(zHost, totalByteSize, zDevice, totalByteSize, ACL_MEMCPY_DEVICE_TO_HOST));

  int wrong = 0;
  const T* z = reinterpret_cast<const T*>(zHost);
  for (uint32_t i = 0; i < totalLength; ++i) {
    const T golden = static_cast<T>(static_cast<float>(x[i]) + static_cast<float>(y[i]));
    if (std::memcmp(&z[i], &golden, sizeof(T)) != 0 && wrong++ < 5) {
      std::printf("%s: z[%u] = %f, golden %f\n", name, i, static_cast<float>(z[i]),
                  static_cast<float>(golden));
    }
  }
  CHECK_ACL(aclrtFree(xDevice));
  CHECK_ACL(aclrtFree(yDevice));
  CHECK_ACL(aclrtFree(zDevice));
  CHECK_ACL(aclrtFreeHost(zHost));
  std::printf("%s: %s\n", name, wrong == 0 ? "match" : "MISMATCH");
  return wrong == 0 ? 0 : 1;
}

int32_t main(int32_t, char*[]) {
  int32_t deviceId = 0;
  aclrtStream stream = nullptr;
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(deviceId));
  CHECK_ACL(aclrtCreateStream(&stream));
  // The driver's -DLNGRAD_DEFAULT_SOC selects the product before main.
  std::printf("soc: %s\n", aclrtGetSocName());
  if (std::string(aclrtGetSocName()) != LNGRAD_DEFAULT_SOC) return 1;
  int failed = RunCase<float>("float", stream);
  failed += RunCase<half>("half", stream);
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
  if (failed == 0) {
    std::printf("[Success] Case accuracy is verification passed.\n");
    return 0;
  }
  std::printf("[Failed] Case accuracy is verification failed!\n");
  return 1;
}
