// Ascend C kernels written as for the device: this file includes only "kernel_operator.h".
// They are launched by runtime_test.cpp through ICPU_RUN_KF and lngrad::aicore::Launch.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;

// Tiling passed through GM, read word by word as device kernels do.
struct MixedTiling {
  uint32_t totalLength;
  uint32_t tileLength;
};

// z = half( sqrt( ((float(x) + y) * y / float(x) + 1.5) * 0.5 - 0.5 ) ), x half, y float, z half.
// Each block takes the slice [blockLength * GetBlockIdx(), +blockLength) and walks it in tiles
// through double-buffered queues.
class KernelMixed {
 public:
  __aicore__ inline KernelMixed() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const MixedTiling& tiling) {
    blockLength = tiling.totalLength / GetBlockNum();
    tileLength = tiling.tileLength;
    tileNum = blockLength / tileLength;
    xGm.SetGlobalBuffer((__gm__ half*)x + blockLength * GetBlockIdx(), blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + blockLength * GetBlockIdx(), blockLength);
    zGm.SetGlobalBuffer((__gm__ half*)z + blockLength * GetBlockIdx(), blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(half));
    pipe.InitBuffer(calcBuf, 2 * tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tileNum; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t progress) {
    LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
    LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    DataCopy(xLocal, xGm[progress * tileLength], tileLength);
    DataCopy(yLocal, yGm[progress * tileLength], tileLength);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<half> xLocal = inQueueX.DeQue<half>();
    LocalTensor<float> yLocal = inQueueY.DeQue<float>();
    LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
    LocalTensor<float> xf = calcBuf.Get<float>();
    LocalTensor<float> t = xf[tileLength];
    Cast(xf, xLocal, RoundMode::CAST_NONE, tileLength);
    Add(t, xf, yLocal, tileLength);
    Mul(t, t, yLocal, tileLength);
    Div(t, t, xf, tileLength);
    Adds(t, t, 1.5f, tileLength);
    Muls(t, t, 0.5f, tileLength);
    Duplicate(yLocal, 0.5f, tileLength);  // y is no longer needed: reuse its block
    Sub(t, t, yLocal, tileLength);
    Sqrt(t, t, tileLength);
    Cast(zLocal, t, RoundMode::CAST_RINT, tileLength);
    outQueueZ.EnQue<half>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t progress) {
    LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
    DataCopy(zGm[progress * tileLength], zLocal, tileLength);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  TBuf<TPosition::VECCALC> calcBuf;
  GlobalTensor<half> xGm;
  GlobalTensor<float> yGm;
  GlobalTensor<half> zGm;
  uint32_t blockLength = 0;
  uint32_t tileLength = 0;
  uint32_t tileNum = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void mixed_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                   GM_ADDR tiling) {
  if ASCEND_IS_AIC {
    return;
  }
  GlobalTensor<uint32_t> tilingGm;
  tilingGm.SetGlobalBuffer((__gm__ uint32_t*)tiling, sizeof(MixedTiling) / sizeof(uint32_t));
  MixedTiling t;
  t.totalLength = tilingGm.GetValue(0);
  t.tileLength = tilingGm.GetValue(1);
  KernelMixed op;
  op.Init(x, y, z, t);
  op.Process();
}

// out[b * 8 + 0] = GetBlockIdx(), out[b * 8 + 1] = GetBlockNum(), out[b * 8 + 2] = UB size,
// out[b * 8 + 3] = UB address of the first queue block, out[b * 8 + 4] = number of float
// elements PopStackBuffer hands out after a 1000-byte TBuf; one 32-byte row per block.
extern "C" __global__ __vector__ void block_info_custom(GM_ADDR out) {
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> q;
  TBuf<> buf;
  pipe.InitBuffer(q, 1, 32);
  pipe.InitBuffer(buf, 1000);
  LocalTensor<float> stack;
  const bool popped = PopStackBuffer<float, TPosition::LCM>(stack);
  LocalTensor<int32_t> row = q.AllocTensor<int32_t>();
  row.SetValue(0, static_cast<int32_t>(GetBlockIdx()));
  row.SetValue(1, static_cast<int32_t>(GetBlockNum()));
  row.SetValue(2, static_cast<int32_t>(GetUBSizeInBytes()));
  row.SetValue(3, static_cast<int32_t>(row.GetPhyAddr()));
  row.SetValue(4, popped ? static_cast<int32_t>(stack.GetSize()) : -1);
  row.SetValue(5, popped ? static_cast<int32_t>(stack.GetPhyAddr()) : -1);
  row.SetValue(6, 0);
  row.SetValue(7, 0);
  q.EnQue(row);
  LocalTensor<int32_t> outRow = q.DeQue<int32_t>();
  GlobalTensor<int32_t> outGm;
  outGm.SetGlobalBuffer((__gm__ int32_t*)out + 8 * GetBlockIdx(), 8);
  DataCopy(outGm, outRow, 8);
  q.FreeTensor(outRow);
}
