// Forward LayerNorm operator: the kernel (device code). Same structure as the LayerNormGrad
// operator: each block walks its rows in tiles; CopyIn x, Compute with AscendC::LayerNorm
// (output, mean, variance), CopyOut; gamma and beta are loaded once per block.
#include "kernel_operator.h"

#include "common/kernel_common.h"
#include "layernorm_fwd_bwd/layernorm_op_tiling.h"

using namespace AscendC;

namespace lngrad_example {

template <typename T, bool isReuseSource>
class KernelLayerNormOp {
 public:
  __aicore__ inline KernelLayerNormOp() {}

  __aicore__ inline void Init(GM_ADDR inputX, GM_ADDR gamma, GM_ADDR beta, GM_ADDR output,
                              GM_ADDR outputMean, GM_ADDR outputVariance,
                              const LayerNormOpHeader& head, const LayerNormOpBlock& block) {
    head_ = head;
    block_ = block;
    hLength_ = head.hLength;
    const uint64_t rowOffset = uint64_t{block.rowStart} * hLength_;
    const uint64_t blockElems = uint64_t{block.rowCount} * hLength_;
    inputXGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputX) + rowOffset, blockElems);
    outputGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(output) + rowOffset, blockElems);
    const uint32_t statElems = head.statLength - block.rowStart;
    meanGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(outputMean) + block.rowStart,
                                statElems);
    varianceGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(outputVariance) + block.rowStart,
                                    statElems);
    gammaGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gamma), hLength_);
    betaGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(beta), hLength_);

    const uint32_t tileBytes = block.tileRows * hLength_ * sizeof(T);
    const uint32_t statBytes = AlignUp(block.tileRows, ElemsPerBlock<T>()) * sizeof(T);
    pipe_.InitBuffer(inQueueX_, 1, tileBytes);
    pipe_.InitBuffer(inQueueGamma_, 1, hLength_ * sizeof(T));
    pipe_.InitBuffer(inQueueBeta_, 1, hLength_ * sizeof(T));
    pipe_.InitBuffer(outQueueY_, 1, tileBytes);
    pipe_.InitBuffer(outQueueMean_, 1, statBytes);
    pipe_.InitBuffer(outQueueVariance_, 1, statBytes);
    if (head.useSharedTmpBuffer != 0) {
      pipe_.InitBuffer(tmpBuffer_, head.tmpBufferBytes);
    }
  }

  __aicore__ inline void Process() {
    LocalTensor<T> gamma = inQueueGamma_.AllocTensor<T>();
    LocalTensor<T> beta = inQueueBeta_.AllocTensor<T>();
    DataCopy(gamma, gammaGlobal_, hLength_);
    DataCopy(beta, betaGlobal_, hLength_);
    inQueueGamma_.EnQue(gamma);
    inQueueBeta_.EnQue(beta);
    gamma = inQueueGamma_.DeQue<T>();
    beta = inQueueBeta_.DeQue<T>();
    uint32_t row = 0;
    for (uint32_t i = 0; i < block_.tileNum; ++i) {
      ProcessTile(gamma, beta, row, block_.tileRows, block_.tileTiling);
      row += block_.tileRows;
    }
    if (block_.tailRows != 0) {
      ProcessTile(gamma, beta, row, block_.tailRows, block_.tailTiling);
    }
    inQueueGamma_.FreeTensor(gamma);
    inQueueBeta_.FreeTensor(beta);
  }

 private:
  __aicore__ inline void ProcessTile(const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                     uint32_t row, uint32_t rows, const LayerNormTiling& tiling) {
    CopyIn(row, rows);
    // LayerNorm writes its tail lengths into the tiling it is given: start every tile afresh.
    tiling_ = tiling;
    Compute(gamma, beta);
    CopyOut(row, rows);
  }

  __aicore__ inline void CopyIn(uint32_t row, uint32_t rows) {
    LocalTensor<T> x = inQueueX_.AllocTensor<T>();
    DataCopy(x, inputXGlobal_[uint64_t{row} * hLength_], rows * hLength_);
    inQueueX_.EnQue(x);
  }

  __aicore__ inline void Compute(const LocalTensor<T>& gamma, const LocalTensor<T>& beta) {
    LocalTensor<T> x = inQueueX_.DeQue<T>();
    LocalTensor<T> y = outQueueY_.AllocTensor<T>();
    LocalTensor<T> mean = outQueueMean_.AllocTensor<T>();
    LocalTensor<T> variance = outQueueVariance_.AllocTensor<T>();
    const T epsilon = static_cast<T>(head_.epsilon);
    if (head_.useSharedTmpBuffer != 0) {
      LocalTensor<uint8_t> sharedTmpBuffer = tmpBuffer_.Get<uint8_t>();
      LayerNorm<T, isReuseSource>(y, mean, variance, x, gamma, beta, sharedTmpBuffer, epsilon,
                                  tiling_);
    } else {
      LayerNorm<T, isReuseSource>(y, mean, variance, x, gamma, beta, epsilon, tiling_);
    }
    outQueueY_.EnQue(y);
    outQueueMean_.EnQue(mean);
    outQueueVariance_.EnQue(variance);
    inQueueX_.FreeTensor(x);
  }

  __aicore__ inline void CopyOut(uint32_t row, uint32_t rows) {
    LocalTensor<T> y = outQueueY_.DeQue<T>();
    LocalTensor<T> mean = outQueueMean_.DeQue<T>();
    LocalTensor<T> variance = outQueueVariance_.DeQue<T>();
    DataCopy(outputGlobal_[uint64_t{row} * hLength_], y, rows * hLength_);
    // Whole 32-byte blocks: past the block's last row only on the last tile of the last block,
    // into the host's padding.
    const uint32_t statCount = AlignUp(rows, ElemsPerBlock<T>());
    DataCopy(meanGlobal_[row], mean, statCount);
    DataCopy(varianceGlobal_[row], variance, statCount);
    outQueueY_.FreeTensor(y);
    outQueueMean_.FreeTensor(mean);
    outQueueVariance_.FreeTensor(variance);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, 1> inQueueX_, inQueueGamma_, inQueueBeta_;
  TQue<TPosition::VECOUT, 1> outQueueY_, outQueueMean_, outQueueVariance_;
  TBuf<TPosition::VECCALC> tmpBuffer_;
  GlobalTensor<T> inputXGlobal_, gammaGlobal_, betaGlobal_, outputGlobal_, meanGlobal_,
      varianceGlobal_;
  LayerNormOpHeader head_{};
  LayerNormOpBlock block_{};
  LayerNormTiling tiling_{};
  uint32_t hLength_ = 0;
};

template <typename T, bool isReuseSource>
__aicore__ inline void RunLayerNormOp(GM_ADDR inputX, GM_ADDR gamma, GM_ADDR beta, GM_ADDR output,
                                      GM_ADDR outputMean, GM_ADDR outputVariance,
                                      const LayerNormOpHeader& head,
                                      const LayerNormOpBlock& block) {
  KernelLayerNormOp<T, isReuseSource> op;
  op.Init(inputX, gamma, beta, output, outputMean, outputVariance, head, block);
  op.Process();
}

}  // namespace lngrad_example

extern "C" __global__ __aicore__ void layernorm_op(GM_ADDR inputX, GM_ADDR gamma, GM_ADDR beta,
                                                   GM_ADDR output, GM_ADDR outputMean,
                                                   GM_ADDR outputVariance, GM_ADDR workspace,
                                                   GM_ADDR tiling) {
  (void)workspace;
  if ASCEND_IS_AIC {
    return;
  }
  using namespace lngrad_example;
  LayerNormOpHeader head;
  CopyTiling(&head, tiling);
  const uint32_t blockIdx = static_cast<uint32_t>(GetBlockIdx());
  if (blockIdx >= head.blockNum) {
    return;
  }
  LayerNormOpBlock block;
  CopyTiling(&block, tiling,
             sizeof(LayerNormOpHeader) + uint64_t{blockIdx} * sizeof(LayerNormOpBlock));
  if (head.dtype == 1) {
    if (head.isReuseSource != 0) {
      RunLayerNormOp<half, true>(inputX, gamma, beta, output, outputMean, outputVariance, head,
                                 block);
    } else {
      RunLayerNormOp<half, false>(inputX, gamma, beta, output, outputMean, outputVariance, head,
                                  block);
    }
  } else {
    if (head.isReuseSource != 0) {
      RunLayerNormOp<float, true>(inputX, gamma, beta, output, outputMean, outputVariance, head,
                                  block);
    } else {
      RunLayerNormOp<float, false>(inputX, gamma, beta, output, outputMean, outputVariance, head,
                                   block);
    }
  }
}
