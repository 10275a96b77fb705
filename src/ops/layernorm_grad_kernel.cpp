// LayerNormGrad operator: the kernel (device code, written as for the NPU).
//
// Structure of the official sample (spec §5.3): a kernel class with a TPipe, five VECIN queues
// (x, dy, variance, mean, gamma) and two VECOUT queues (pdX, resForGamma), and CopyIn /
// Compute / CopyOut. Unlike the sample, which loads the whole [B,S,H] problem into one core's
// UB, each block takes a contiguous range of rows and walks it in row tiles sized by the host
// so that every tile fits the product's UB; gamma is loaded once per block.
#include "kernel_operator.h"

#include "common/kernel_common.h"
#include "layernorm_grad/layernorm_grad_op_tiling.h"

using namespace AscendC;

namespace lngrad_example {

template <typename T, bool isReuseSource>
class KernelLayerNormGradOp {
 public:
  __aicore__ inline KernelLayerNormGradOp() {}

  __aicore__ inline void Init(GM_ADDR inputX, GM_ADDR inputDy, GM_ADDR inputVariance,
                              GM_ADDR inputMean, GM_ADDR inputGamma, GM_ADDR outputPdX,
                              GM_ADDR resForGamma, const LayerNormGradOpHeader& head,
                              const LayerNormGradOpBlock& block) {
    head_ = head;
    block_ = block;
    hLength_ = head.hLength;
    const uint64_t rowOffset = uint64_t{block.rowStart} * hLength_;
    const uint64_t blockElems = uint64_t{block.rowCount} * hLength_;
    inputXGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputX) + rowOffset, blockElems);
    inputDyGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputDy) + rowOffset, blockElems);
    outputPdXGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(outputPdX) + rowOffset,
                                     blockElems);
    resForGammaGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(resForGamma) + rowOffset,
                                       blockElems);
    // The per-row tensors are read in whole 32-byte blocks; the host pads them past the last row.
    const uint32_t statElems = head.statLength - block.rowStart;
    inputVarianceGlobal_.SetGlobalBuffer(
        reinterpret_cast<__gm__ T*>(inputVariance) + block.rowStart, statElems);
    inputMeanGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputMean) + block.rowStart,
                                     statElems);
    inputGammaGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputGamma), hLength_);

    const uint32_t tileBytes = block.tileRows * hLength_ * sizeof(T);
    const uint32_t statBytes = AlignUp(block.tileRows, ElemsPerBlock<T>()) * sizeof(T);
    pipe_.InitBuffer(inQueueX_, 1, tileBytes);
    pipe_.InitBuffer(inQueueDy_, 1, tileBytes);
    pipe_.InitBuffer(inQueueVariance_, 1, statBytes);
    pipe_.InitBuffer(inQueueMean_, 1, statBytes);
    pipe_.InitBuffer(inQueueGamma_, 1, hLength_ * sizeof(T));
    pipe_.InitBuffer(outQueuePdX_, 1, tileBytes);
    pipe_.InitBuffer(outQueueResForGamma_, 1, tileBytes);
    if (head.useSharedTmpBuffer != 0) {
      pipe_.InitBuffer(tmpBuffer_, head.tmpBufferBytes);
    }
  }

  __aicore__ inline void Process() {
    CopyInGamma();
    LocalTensor<T> gamma = inQueueGamma_.DeQue<T>();
    uint32_t row = 0;
    for (uint32_t i = 0; i < block_.tileNum; ++i) {
      ProcessTile(gamma, row, block_.tileRows, block_.tileTiling);
      row += block_.tileRows;
    }
    if (block_.tailRows != 0) {
      ProcessTile(gamma, row, block_.tailRows, block_.tailTiling);
    }
    inQueueGamma_.FreeTensor(gamma);
  }

 private:
  __aicore__ inline void CopyInGamma() {
    LocalTensor<T> gamma = inQueueGamma_.AllocTensor<T>();
    DataCopy(gamma, inputGammaGlobal_, hLength_);
    inQueueGamma_.EnQue(gamma);
  }

  __aicore__ inline void ProcessTile(const LocalTensor<T>& gamma, uint32_t row, uint32_t rows,
                                     const LayerNormGradTiling& tiling) {
    CopyIn(row, rows);
    // LayerNormGrad takes the tiling by non-const reference.
    tiling_ = tiling;
    Compute(gamma);
    CopyOut(row, rows);
  }

  __aicore__ inline void CopyIn(uint32_t row, uint32_t rows) {
    LocalTensor<T> x = inQueueX_.AllocTensor<T>();
    LocalTensor<T> dy = inQueueDy_.AllocTensor<T>();
    LocalTensor<T> variance = inQueueVariance_.AllocTensor<T>();
    LocalTensor<T> mean = inQueueMean_.AllocTensor<T>();
    const uint64_t offset = uint64_t{row} * hLength_;
    const uint32_t count = rows * hLength_;
    const uint32_t statCount = AlignUp(rows, ElemsPerBlock<T>());
    DataCopy(x, inputXGlobal_[offset], count);
    DataCopy(dy, inputDyGlobal_[offset], count);
    DataCopy(variance, inputVarianceGlobal_[row], statCount);
    DataCopy(mean, inputMeanGlobal_[row], statCount);
    inQueueX_.EnQue(x);
    inQueueDy_.EnQue(dy);
    inQueueVariance_.EnQue(variance);
    inQueueMean_.EnQue(mean);
  }

  __aicore__ inline void Compute(const LocalTensor<T>& gamma) {
    LocalTensor<T> x = inQueueX_.DeQue<T>();
    LocalTensor<T> dy = inQueueDy_.DeQue<T>();
    LocalTensor<T> variance = inQueueVariance_.DeQue<T>();
    LocalTensor<T> mean = inQueueMean_.DeQue<T>();
    LocalTensor<T> pdX = outQueuePdX_.AllocTensor<T>();
    LocalTensor<T> resForGamma = outQueueResForGamma_.AllocTensor<T>();
    const T epsilon = static_cast<T>(head_.epsilon);
    if (head_.useSharedTmpBuffer != 0) {
      LocalTensor<uint8_t> sharedTmpBuffer = tmpBuffer_.Get<uint8_t>();
      LayerNormGrad<T, isReuseSource>(pdX, resForGamma, dy, x, variance, mean, gamma,
                                      sharedTmpBuffer, epsilon, tiling_, {DataFormat::ND});
    } else {
      LayerNormGrad<T, isReuseSource>(pdX, resForGamma, dy, x, variance, mean, gamma, epsilon,
                                      tiling_);
    }
    outQueuePdX_.EnQue(pdX);
    outQueueResForGamma_.EnQue(resForGamma);
    inQueueX_.FreeTensor(x);
    inQueueDy_.FreeTensor(dy);
    inQueueVariance_.FreeTensor(variance);
    inQueueMean_.FreeTensor(mean);
  }

  __aicore__ inline void CopyOut(uint32_t row, uint32_t rows) {
    LocalTensor<T> pdX = outQueuePdX_.DeQue<T>();
    LocalTensor<T> resForGamma = outQueueResForGamma_.DeQue<T>();
    const uint64_t offset = uint64_t{row} * hLength_;
    DataCopy(outputPdXGlobal_[offset], pdX, rows * hLength_);
    DataCopy(resForGammaGlobal_[offset], resForGamma, rows * hLength_);
    outQueuePdX_.FreeTensor(pdX);
    outQueueResForGamma_.FreeTensor(resForGamma);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, 1> inQueueX_, inQueueDy_, inQueueVariance_, inQueueMean_, inQueueGamma_;
  TQue<TPosition::VECOUT, 1> outQueuePdX_, outQueueResForGamma_;
  TBuf<TPosition::VECCALC> tmpBuffer_;
  GlobalTensor<T> inputXGlobal_, inputDyGlobal_, inputVarianceGlobal_, inputMeanGlobal_,
      inputGammaGlobal_;
  GlobalTensor<T> outputPdXGlobal_, resForGammaGlobal_;
  LayerNormGradOpHeader head_{};
  LayerNormGradOpBlock block_{};
  LayerNormGradTiling tiling_{};
  uint32_t hLength_ = 0;
};

template <typename T, bool isReuseSource>
__aicore__ inline void RunLayerNormGradOp(GM_ADDR inputX, GM_ADDR inputDy, GM_ADDR inputVariance,
                                          GM_ADDR inputMean, GM_ADDR inputGamma, GM_ADDR outputPdX,
                                          GM_ADDR resForGamma, const LayerNormGradOpHeader& head,
                                          const LayerNormGradOpBlock& block) {
  KernelLayerNormGradOp<T, isReuseSource> op;
  op.Init(inputX, inputDy, inputVariance, inputMean, inputGamma, outputPdX, resForGamma, head,
          block);
  op.Process();
}

}  // namespace lngrad_example

// Kernel entry, argument order of the official sample. `workspace` is unused (kept for the
// sample's signature). `tiling`: LayerNormGradOpHeader followed by blockNum LayerNormGradOpBlock.
extern "C" __global__ __aicore__ void layernorm_grad_op(GM_ADDR inputX, GM_ADDR inputDy,
                                                        GM_ADDR inputVariance, GM_ADDR inputMean,
                                                        GM_ADDR inputGamma, GM_ADDR outputPdX,
                                                        GM_ADDR resForGamma, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  (void)workspace;
  if ASCEND_IS_AIC {
    return;
  }
  using namespace lngrad_example;
  LayerNormGradOpHeader head;
  CopyTiling(&head, tiling);
  const uint32_t blockIdx = static_cast<uint32_t>(GetBlockIdx());
  if (blockIdx >= head.blockNum) {
    return;
  }
  LayerNormGradOpBlock block;
  CopyTiling(&block, tiling,
             sizeof(LayerNormGradOpHeader) + uint64_t{blockIdx} * sizeof(LayerNormGradOpBlock));
  if (block.rowCount == 0) {
    return;
  }
  if (head.dtype == 1) {
    if (head.isReuseSource != 0) {
      RunLayerNormGradOp<half, true>(inputX, inputDy, inputVariance, inputMean, inputGamma,
                                     outputPdX, resForGamma, head, block);
    } else {
      RunLayerNormGradOp<half, false>(inputX, inputDy, inputVariance, inputMean, inputGamma,
                                      outputPdX, resForGamma, head, block);
    }
  } else {
    if (head.isReuseSource != 0) {
      RunLayerNormGradOp<float, true>(inputX, inputDy, inputVariance, inputMean, inputGamma,
                                      outputPdX, resForGamma, head, block);
    } else {
      RunLayerNormGradOp<float, false>(inputX, inputDy, inputVariance, inputMean, inputGamma,
                                       outputPdX, resForGamma, head, block);
    }
  }
}
