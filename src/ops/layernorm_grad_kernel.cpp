// LayerNormGrad operator: the kernel (device code, written as for the NPU).
//
// Structure of the official sample (spec §5.3): a kernel class with a TPipe, five VECIN queues
// (x, dy, variance, mean, gamma) and two VECOUT queues (pdX, resForGamma), and CopyIn /
// Compute / CopyOut. Unlike the sample, which loads the whole [B,S,H] problem into one core's
// UB, each block takes a contiguous range of rows and walks it in row tiles sized by the host
// so that every tile fits the product's UB; gamma is loaded once per block.
//
// Any H: rows whose length is not a multiple of 32 bytes are padded to 32 bytes in UB
// (DataCopyPad; hLength = storage H, originalHLength = real H in the tiling). The API's sums
// run over the storage H (spec §1.11), so the padding must add 0 to each: dy and gamma are
// padded with 0 and x with its row's mean (x - mean = 0 there). Only the real columns of pdX and
// resForGamma are copied out.
#include "kernel_common.h"

namespace lngrad::ops::kernel {

template <typename T, bool isReuseSource>
class KernelLayerNormGradOp : BlockKernel<LayerNormGradTiling> {
 public:
  __aicore__ inline void Init(GM_ADDR inputX, GM_ADDR inputDy, GM_ADDR inputVariance,
                              GM_ADDR inputMean, GM_ADDR inputGamma, GM_ADDR outputPdX,
                              GM_ADDR resForGamma, const OpTilingHeader& head,
                              const LayerNormGradOpBlock& block) {
    InitBlock(head, block);
    SetBlockRows(inputXGlobal_, inputX, block, originalHLength_);
    SetBlockRows(inputDyGlobal_, inputDy, block, originalHLength_);
    SetBlockRows(outputPdXGlobal_, outputPdX, block, originalHLength_);
    SetBlockRows(resForGammaGlobal_, resForGamma, block, originalHLength_);
    SetBlockStats(inputVarianceGlobal_, inputVariance, head, block);
    SetBlockStats(inputMeanGlobal_, inputMean, head, block);
    SetGm(inputGammaGlobal_, inputGamma, 0, originalHLength_);

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
    CopyRowsInQue(inQueueGamma_, inputGammaGlobal_, 1, originalHLength_, hLength_);
    LocalTensor<T> gamma = inQueueGamma_.DeQue<T>();
    ForEachTile(block_, [&](uint32_t row, uint32_t rows, const LayerNormGradTiling& tiling, bool) {
      CopyIn(row, rows);
      tiling_ = tiling;
      Compute(gamma, rows);
      CopyOut(row, rows);
    });
    inQueueGamma_.FreeTensor(gamma);
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row, uint32_t rows) {
    const uint64_t offset = uint64_t{row} * originalHLength_;
    const uint32_t statCount = AlignUp(rows, ElemsPerBlock<T>());
    CopyRowsInQue(inQueueX_, inputXGlobal_[offset], rows, originalHLength_, hLength_);
    CopyRowsInQue(inQueueDy_, inputDyGlobal_[offset], rows, originalHLength_, hLength_);
    CopyInQue(inQueueVariance_, inputVarianceGlobal_[row], statCount);
    CopyInQue(inQueueMean_, inputMeanGlobal_[row], statCount);
  }

  __aicore__ inline void Compute(const LocalTensor<T>& gamma, uint32_t rows) {
    LocalTensor<T> x = inQueueX_.DeQue<T>();
    LocalTensor<T> dy = inQueueDy_.DeQue<T>();
    LocalTensor<T> variance = inQueueVariance_.DeQue<T>();
    LocalTensor<T> mean = inQueueMean_.DeQue<T>();
    PadWithMean(x, mean, rows);
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

  // x's padded columns (DataCopyPad wrote 0 there) get the row's mean: fewer than 32 bytes per
  // row, so scalar stores.
  __aicore__ inline void PadWithMean(const LocalTensor<T>& x, const LocalTensor<T>& mean,
                                     uint32_t rows) {
    if (originalHLength_ == hLength_) return;
    for (uint32_t r = 0; r < rows; ++r) {
      const T m = mean.GetValue(r);
      for (uint32_t c = originalHLength_; c < hLength_; ++c) x.SetValue(r * hLength_ + c, m);
    }
  }

  __aicore__ inline void CopyOut(uint32_t row, uint32_t rows) {
    const uint64_t offset = uint64_t{row} * originalHLength_;
    CopyRowsOutQue<T>(outputPdXGlobal_[offset], outQueuePdX_, rows, originalHLength_, hLength_);
    CopyRowsOutQue<T>(resForGammaGlobal_[offset], outQueueResForGamma_, rows, originalHLength_,
                      hLength_);
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
