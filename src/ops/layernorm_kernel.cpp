// Forward LayerNorm operator: the kernel (device code). Same structure as the LayerNormGrad
// operator: each block walks its rows in tiles; CopyIn x, Compute with AscendC::LayerNorm
// (output, mean, variance), CopyOut; gamma and beta are loaded once per block.
#include "kernel_common.h"

namespace lngrad::ops::kernel {

template <typename T, bool isReuseSource>
class KernelLayerNormOp : BlockKernel<LayerNormTiling> {
 public:
  __aicore__ inline void Init(GM_ADDR inputX, GM_ADDR gamma, GM_ADDR beta, GM_ADDR output,
                              GM_ADDR outputMean, GM_ADDR outputVariance,
                              const OpTilingHeader& head, const LayerNormOpBlock& block) {
    InitBlock(head, block);
    SetBlockRows(inputXGlobal_, inputX, block, hLength_);
    SetBlockRows(outputGlobal_, output, block, hLength_);
    SetBlockStats(meanGlobal_, outputMean, head, block);
    SetBlockStats(varianceGlobal_, outputVariance, head, block);
    SetGm(gammaGlobal_, gamma, 0, hLength_);
    SetGm(betaGlobal_, beta, 0, hLength_);

    const uint32_t tileBytes = block.tileRows * hLength_ * sizeof(T);
    pipe_.InitBuffer(inQueueX_, 1, tileBytes);
    pipe_.InitBuffer(inQueueGamma_, 1, hLength_ * sizeof(T));
    pipe_.InitBuffer(inQueueBeta_, 1, hLength_ * sizeof(T));
    pipe_.InitBuffer(outQueueY_, 1, tileBytes);
    pipe_.InitBuffer(outQueueMean_, 1, StatBytes<T>(block.tileRows));
    pipe_.InitBuffer(outQueueVariance_, 1, StatBytes<T>(block.tileRows));
    InitTmpBuffer();
  }

  __aicore__ inline void Process() {
    CopyInQue(inQueueGamma_, gammaGlobal_, hLength_);
    CopyInQue(inQueueBeta_, betaGlobal_, hLength_);
    LocalTensor<T> gamma = inQueueGamma_.DeQue<T>();
    LocalTensor<T> beta = inQueueBeta_.DeQue<T>();
    ForEachTile(block_, [&](uint32_t row, uint32_t rows, const LayerNormTiling& tiling, bool) {
      CopyInQue(inQueueX_, inputXGlobal_[uint64_t{row} * hLength_], rows * hLength_);
      tiling_ = tiling;
      Compute(gamma, beta, rows);
      CopyOut(row, rows);
    });
    inQueueGamma_.FreeTensor(gamma);
    inQueueBeta_.FreeTensor(beta);
  }

 private:
  __aicore__ inline void Compute(const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 uint32_t rows) {
    LocalTensor<T> x = inQueueX_.DeQue<T>();
    LocalTensor<T> y = outQueueY_.AllocTensor<T>();
    LocalTensor<T> mean = outQueueMean_.AllocTensor<T>();
    LocalTensor<T> variance = outQueueVariance_.AllocTensor<T>();
    // CopyOut moves whole 32-byte blocks of the statistics: the elements past the tile's rows
    // get defined contents (zeros) instead of whatever the UB held.
    const uint32_t statCount = AlignUp(rows, ElemsPerBlock<T>());
    if (statCount != rows) {
      Duplicate(mean, static_cast<T>(0.0f), static_cast<int32_t>(statCount));
      Duplicate(variance, static_cast<T>(0.0f), static_cast<int32_t>(statCount));
    }
    WithScratch([&](auto&... sharedTmpBuffer) {
      LayerNorm<T, isReuseSource>(y, mean, variance, x, gamma, beta, sharedTmpBuffer...,
                                  Epsilon<T>(), tiling_);
    });
    outQueueY_.EnQue(y);
    outQueueMean_.EnQue(mean);
    outQueueVariance_.EnQue(variance);
    inQueueX_.FreeTensor(x);
  }

  __aicore__ inline void CopyOut(uint32_t row, uint32_t rows) {
    CopyOutQue<T>(outputGlobal_[uint64_t{row} * hLength_], outQueueY_, rows * hLength_);
    // Whole 32-byte blocks: past the block's last row only on the last tile of the last block,
    // into the host's padding.
    const uint32_t statCount = AlignUp(rows, ElemsPerBlock<T>());
    CopyOutQue<T>(meanGlobal_[row], outQueueMean_, statCount);
    CopyOutQue<T>(varianceGlobal_[row], outQueueVariance_, statCount);
  }

  TQue<TPosition::VECIN, 1> inQueueX_, inQueueGamma_, inQueueBeta_;
  TQue<TPosition::VECOUT, 1> outQueueY_, outQueueMean_, outQueueVariance_;
  GlobalTensor<T> inputXGlobal_, gammaGlobal_, betaGlobal_, outputGlobal_, meanGlobal_,
      varianceGlobal_;
};

}  // namespace lngrad::ops::kernel

extern "C" __global__ __aicore__ void layernorm_op(GM_ADDR inputX, GM_ADDR gamma, GM_ADDR beta,
                                                   GM_ADDR output, GM_ADDR outputMean,
                                                   GM_ADDR outputVariance, GM_ADDR /*workspace*/,
                                                   GM_ADDR tiling) {
  lngrad::ops::kernel::RunBlock<lngrad::ops::kernel::KernelLayerNormOp, LayerNormTiling>(
      tiling, inputX, gamma, beta, output, outputMean, outputVariance);
}
