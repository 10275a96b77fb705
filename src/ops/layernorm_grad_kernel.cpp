// LayerNormGrad operator: the kernel (device code, written as for the NPU).
//
// Structure of the official sample (spec §5.3): a kernel class with a TPipe, five VECIN queues
// (x, dy, variance, mean, gamma) and two VECOUT queues (pdX, resForGamma), and CopyIn /
// Compute / CopyOut. Unlike the sample, which loads the whole [B,S,H] problem into one core's
// UB, each block takes a contiguous range of rows and walks it in row tiles sized by the host
// so that every tile fits the product's UB; gamma is loaded once per block.
#include "ops/kernel_common.h"

namespace lngrad::ops::kernel {

template <typename T, bool isReuseSource>
class KernelLayerNormGradOp : BlockKernel<LayerNormGradTiling> {
 public:
  __aicore__ inline void Init(GM_ADDR inputX, GM_ADDR inputDy, GM_ADDR inputVariance,
                              GM_ADDR inputMean, GM_ADDR inputGamma, GM_ADDR outputPdX,
                              GM_ADDR resForGamma, const OpTilingHeader& head,
                              const LayerNormGradOpBlock& block) {
    InitBlock(head, block);
    SetBlockRows(inputXGlobal_, inputX, block, hLength_);
    SetBlockRows(inputDyGlobal_, inputDy, block, hLength_);
    SetBlockRows(outputPdXGlobal_, outputPdX, block, hLength_);
    SetBlockRows(resForGammaGlobal_, resForGamma, block, hLength_);
    SetBlockStats(inputVarianceGlobal_, inputVariance, head, block);
    SetBlockStats(inputMeanGlobal_, inputMean, head, block);
    SetGm(inputGammaGlobal_, inputGamma, 0, hLength_);

    const uint32_t tileBytes = block.tileRows * hLength_ * sizeof(T);
    pipe_.InitBuffer(inQueueX_, 1, tileBytes);
    pipe_.InitBuffer(inQueueDy_, 1, tileBytes);
    pipe_.InitBuffer(inQueueVariance_, 1, StatBytes<T>(block.tileRows));
    pipe_.InitBuffer(inQueueMean_, 1, StatBytes<T>(block.tileRows));
    pipe_.InitBuffer(inQueueGamma_, 1, hLength_ * sizeof(T));
    pipe_.InitBuffer(outQueuePdX_, 1, tileBytes);
    pipe_.InitBuffer(outQueueResForGamma_, 1, tileBytes);
    InitTmpBuffer();
  }

  __aicore__ inline void Process() {
    CopyInQue(inQueueGamma_, inputGammaGlobal_, hLength_);
    LocalTensor<T> gamma = inQueueGamma_.DeQue<T>();
    ForEachTile(block_, [&](uint32_t row, uint32_t rows, const LayerNormGradTiling& tiling, bool) {
      CopyIn(row, rows);
      tiling_ = tiling;
      Compute(gamma);
      CopyOut(row, rows);
    });
    inQueueGamma_.FreeTensor(gamma);
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row, uint32_t rows) {
    const uint64_t offset = uint64_t{row} * hLength_;
    const uint32_t statCount = AlignUp(rows, ElemsPerBlock<T>());
    CopyInQue(inQueueX_, inputXGlobal_[offset], rows * hLength_);
    CopyInQue(inQueueDy_, inputDyGlobal_[offset], rows * hLength_);
    CopyInQue(inQueueVariance_, inputVarianceGlobal_[row], statCount);
    CopyInQue(inQueueMean_, inputMeanGlobal_[row], statCount);
  }

  __aicore__ inline void Compute(const LocalTensor<T>& gamma) {
    LocalTensor<T> x = inQueueX_.DeQue<T>();
    LocalTensor<T> dy = inQueueDy_.DeQue<T>();
    LocalTensor<T> variance = inQueueVariance_.DeQue<T>();
    LocalTensor<T> mean = inQueueMean_.DeQue<T>();
    LocalTensor<T> pdX = outQueuePdX_.AllocTensor<T>();
    LocalTensor<T> resForGamma = outQueueResForGamma_.AllocTensor<T>();
    WithScratch([&](auto&... sharedTmpBuffer) {
      LayerNormGrad<T, isReuseSource>(pdX, resForGamma, dy, x, variance, mean, gamma,
                                      sharedTmpBuffer..., Epsilon<T>(), tiling_, {DataFormat::ND});
    });
    outQueuePdX_.EnQue(pdX);
    outQueueResForGamma_.EnQue(resForGamma);
    inQueueX_.FreeTensor(x);
    inQueueDy_.FreeTensor(dy);
    inQueueVariance_.FreeTensor(variance);
    inQueueMean_.FreeTensor(mean);
  }

  __aicore__ inline void CopyOut(uint32_t row, uint32_t rows) {
    const uint64_t offset = uint64_t{row} * hLength_;
    CopyOutQue<T>(outputPdXGlobal_[offset], outQueuePdX_, rows * hLength_);
    CopyOutQue<T>(resForGammaGlobal_[offset], outQueueResForGamma_, rows * hLength_);
  }

  TQue<TPosition::VECIN, 1> inQueueX_, inQueueDy_, inQueueVariance_, inQueueMean_, inQueueGamma_;
  TQue<TPosition::VECOUT, 1> outQueuePdX_, outQueueResForGamma_;
  GlobalTensor<T> inputXGlobal_, inputDyGlobal_, inputVarianceGlobal_, inputMeanGlobal_,
      inputGammaGlobal_;
  GlobalTensor<T> outputPdXGlobal_, resForGammaGlobal_;
};

}  // namespace lngrad::ops::kernel

// Kernel entry, argument order of the official sample. `workspace` is unused (kept for the
// sample's signature). `tiling`: OpTilingHeader followed by blockNum LayerNormGradOpBlock.
extern "C" __global__ __aicore__ void layernorm_grad_op(GM_ADDR inputX, GM_ADDR inputDy,
                                                        GM_ADDR inputVariance, GM_ADDR inputMean,
                                                        GM_ADDR inputGamma, GM_ADDR outputPdX,
                                                        GM_ADDR resForGamma, GM_ADDR /*workspace*/,
                                                        GM_ADDR tiling) {
  lngrad::ops::kernel::RunBlock<lngrad::ops::kernel::KernelLayerNormGradOp, LayerNormGradTiling>(
      tiling, inputX, inputDy, inputVariance, inputMean, inputGamma, outputPdX, resForGamma);
}
