// LayerNormGradBeta operator: the kernels (device code, written as for the NPU).
//
// pd_gamma and pd_beta are sums over all rows, so the work takes two launches, as it would on
// the device without inter-core synchronisation:
//  1. layernorm_grad_beta_op: each block walks its rows in tiles; each tile is one
//     LayerNormGradBeta call; the block adds the tiles' results (as float, in tile order) and
//     writes its partial sums [pd_gamma | pd_beta] to its row of a float GM workspace.
//  2. layernorm_grad_beta_combine (one block): adds the blocks' partial rows in block order and
//     converts to T.
// With one block and one tile the outputs are exactly the API's.
#include "kernel_operator.h"

#include "common/kernel_common.h"
#include "layernorm_grad_beta/layernorm_grad_beta_op_tiling.h"

using namespace AscendC;

namespace lngrad_example {

template <typename T, bool isReuseSource>
class KernelLayerNormGradBetaOp {
 public:
  __aicore__ inline KernelLayerNormGradBetaOp() {}

  __aicore__ inline void Init(GM_ADDR resForGamma, GM_ADDR inputDy, GM_ADDR workspace,
                              const LayerNormGradBetaOpHeader& head,
                              const LayerNormGradBetaOpBlock& block, uint32_t blockIdx) {
    head_ = head;
    block_ = block;
    hLength_ = head.hLength;
    const uint64_t rowOffset = uint64_t{block.rowStart} * hLength_;
    const uint64_t blockElems = uint64_t{block.rowCount} * hLength_;
    resForGammaGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(resForGamma) + rowOffset,
                                       blockElems);
    inputDyGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(inputDy) + rowOffset, blockElems);
    partialGlobal_.SetGlobalBuffer(
        reinterpret_cast<__gm__ float*>(workspace) + uint64_t{blockIdx} * 2 * hLength_,
        2 * hLength_);

    const uint32_t tileBytes = block.tileRows * hLength_ * sizeof(T);
    pipe_.InitBuffer(inQueueResForGamma_, 1, tileBytes);
    pipe_.InitBuffer(inQueueDy_, 1, tileBytes);
    pipe_.InitBuffer(outQueuePartial_, 1, 2 * hLength_ * sizeof(float));
    pipe_.InitBuffer(pdGammaBuf_, hLength_ * sizeof(T));
    pipe_.InitBuffer(pdBetaBuf_, hLength_ * sizeof(T));
    if constexpr (sizeof(T) == 2) {
      pipe_.InitBuffer(castBuf_, hLength_ * sizeof(float));
    }
    if (head.useSharedTmpBuffer != 0) {
      pipe_.InitBuffer(tmpBuffer_, head.tmpBufferBytes);
    }
  }

  __aicore__ inline void Process() {
    LocalTensor<float> partial = outQueuePartial_.AllocTensor<float>();
    uint32_t row = 0;
    bool first = true;
    for (uint32_t i = 0; i < block_.tileNum; ++i) {
      ProcessTile(partial, row, block_.tileRows, block_.tileTiling, first);
      row += block_.tileRows;
      first = false;
    }
    if (block_.tailRows != 0) {
      ProcessTile(partial, row, block_.tailRows, block_.tailTiling, first);
    }
    outQueuePartial_.EnQue(partial);
    CopyOut();
  }

 private:
  __aicore__ inline void ProcessTile(const LocalTensor<float>& partial, uint32_t row, uint32_t rows,
                                     const LayerNormGradBetaTiling& tiling, bool first) {
    CopyIn(row, rows);
    tiling_ = tiling;
    Compute(partial, first);
  }

  __aicore__ inline void CopyIn(uint32_t row, uint32_t rows) {
    LocalTensor<T> res = inQueueResForGamma_.AllocTensor<T>();
    LocalTensor<T> dy = inQueueDy_.AllocTensor<T>();
    const uint64_t offset = uint64_t{row} * hLength_;
    DataCopy(res, resForGammaGlobal_[offset], rows * hLength_);
    DataCopy(dy, inputDyGlobal_[offset], rows * hLength_);
    inQueueResForGamma_.EnQue(res);
    inQueueDy_.EnQue(dy);
  }

  __aicore__ inline void Compute(const LocalTensor<float>& partial, bool first) {
    LocalTensor<T> res = inQueueResForGamma_.DeQue<T>();
    LocalTensor<T> dy = inQueueDy_.DeQue<T>();
    LocalTensor<T> pdGamma = pdGammaBuf_.Get<T>();
    LocalTensor<T> pdBeta = pdBetaBuf_.Get<T>();
    if (head_.useSharedTmpBuffer != 0) {
      LocalTensor<uint8_t> sharedTmpBuffer = tmpBuffer_.Get<uint8_t>();
      LayerNormGradBeta<T, isReuseSource>(pdGamma, pdBeta, res, dy, sharedTmpBuffer, tiling_);
    } else {
      LayerNormGradBeta<T, isReuseSource>(pdGamma, pdBeta, res, dy, tiling_);
    }
    Accumulate(partial, pdGamma, first);
    Accumulate(partial[hLength_], pdBeta, first);
    inQueueResForGamma_.FreeTensor(res);
    inQueueDy_.FreeTensor(dy);
  }

  // acc = tile result (first tile) or acc + tile result, in float.
  __aicore__ inline void Accumulate(const LocalTensor<float>& acc, const LocalTensor<T>& tileSum,
                                    bool first) {
    if constexpr (sizeof(T) == 2) {
      LocalTensor<float> widened = castBuf_.Get<float>();
      Cast(widened, tileSum, RoundMode::CAST_NONE, hLength_);
      if (first) {
        DataCopy(acc, widened, hLength_);
      } else {
        Add(acc, acc, widened, hLength_);
      }
    } else {
      if (first) {
        DataCopy(acc, tileSum, hLength_);
      } else {
        Add(acc, acc, tileSum, hLength_);
      }
    }
  }

  __aicore__ inline void CopyOut() {
    LocalTensor<float> partial = outQueuePartial_.DeQue<float>();
    DataCopy(partialGlobal_, partial, 2 * hLength_);
    outQueuePartial_.FreeTensor(partial);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, 1> inQueueResForGamma_, inQueueDy_;
  TQue<TPosition::VECOUT, 1> outQueuePartial_;
  TBuf<TPosition::VECCALC> pdGammaBuf_, pdBetaBuf_, castBuf_, tmpBuffer_;
  GlobalTensor<T> resForGammaGlobal_, inputDyGlobal_;
  GlobalTensor<float> partialGlobal_;
  LayerNormGradBetaOpHeader head_{};
  LayerNormGradBetaOpBlock block_{};
  LayerNormGradBetaTiling tiling_{};
  uint32_t hLength_ = 0;
};

// Sums the blocks' partial rows in block order, combineCols columns at a time.
template <typename T>
class KernelLayerNormGradBetaCombine {
 public:
  __aicore__ inline void Init(GM_ADDR workspace, GM_ADDR outputPdGamma, GM_ADDR outputPdBeta,
                              const LayerNormGradBetaOpHeader& head) {
    head_ = head;
    hLength_ = head.hLength;
    partialGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace),
                                   uint64_t{head.blockNum} * 2 * hLength_);
    pdGammaGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(outputPdGamma), hLength_);
    pdBetaGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(outputPdBeta), hLength_);
    pipe_.InitBuffer(inQueuePartial_, 1, head.combineCols * sizeof(float));
    pipe_.InitBuffer(outQueueSum_, 1, head.combineCols * sizeof(T));
    pipe_.InitBuffer(accBuf_, head.combineCols * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint32_t part = 0; part < 2; ++part) {
      const GlobalTensor<T>& out = part == 0 ? pdGammaGlobal_ : pdBetaGlobal_;
      for (uint32_t col = 0; col < hLength_; col += head_.combineCols) {
        const uint32_t cols =
            hLength_ - col < head_.combineCols ? hLength_ - col : head_.combineCols;
        LocalTensor<float> acc = accBuf_.Get<float>();
        for (uint32_t blk = 0; blk < head_.blockNum; ++blk) {
          CopyIn(uint64_t{blk} * 2 * hLength_ + uint64_t{part} * hLength_ + col, cols);
          LocalTensor<float> row = inQueuePartial_.DeQue<float>();
          if (blk == 0) {
            DataCopy(acc, row, cols);
          } else {
            Add(acc, acc, row, cols);
          }
          inQueuePartial_.FreeTensor(row);
        }
        LocalTensor<T> sum = outQueueSum_.AllocTensor<T>();
        if constexpr (sizeof(T) == 2) {
          Cast(sum, acc, RoundMode::CAST_NONE, cols);
        } else {
          DataCopy(sum, acc, cols);
        }
        outQueueSum_.EnQue(sum);
        sum = outQueueSum_.DeQue<T>();
        DataCopy(out[col], sum, cols);
        outQueueSum_.FreeTensor(sum);
      }
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t offset, uint32_t cols) {
    LocalTensor<float> row = inQueuePartial_.AllocTensor<float>();
    DataCopy(row, partialGlobal_[offset], cols);
    inQueuePartial_.EnQue(row);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, 1> inQueuePartial_;
  TQue<TPosition::VECOUT, 1> outQueueSum_;
  TBuf<TPosition::VECCALC> accBuf_;
  GlobalTensor<float> partialGlobal_;
  GlobalTensor<T> pdGammaGlobal_, pdBetaGlobal_;
  LayerNormGradBetaOpHeader head_{};
  uint32_t hLength_ = 0;
};

template <typename T, bool isReuseSource>
__aicore__ inline void RunLayerNormGradBetaOp(GM_ADDR resForGamma, GM_ADDR inputDy,
                                              GM_ADDR workspace,
                                              const LayerNormGradBetaOpHeader& head,
                                              const LayerNormGradBetaOpBlock& block,
                                              uint32_t blockIdx) {
  KernelLayerNormGradBetaOp<T, isReuseSource> op;
  op.Init(resForGamma, inputDy, workspace, head, block, blockIdx);
  op.Process();
}

template <typename T>
__aicore__ inline void RunLayerNormGradBetaCombine(GM_ADDR workspace, GM_ADDR outputPdGamma,
                                                   GM_ADDR outputPdBeta,
                                                   const LayerNormGradBetaOpHeader& head) {
  KernelLayerNormGradBetaCombine<T> op;
  op.Init(workspace, outputPdGamma, outputPdBeta, head);
  op.Process();
}

}  // namespace lngrad_example

// Launch 1: partial sums. `workspace`: blockNum rows of 2*H floats. `tiling`: the header and
// blockNum block entries.
extern "C" __global__ __aicore__ void layernorm_grad_beta_op(GM_ADDR resForGamma, GM_ADDR inputDy,
                                                             GM_ADDR workspace, GM_ADDR tiling) {
  if ASCEND_IS_AIC {
    return;
  }
  using namespace lngrad_example;
  LayerNormGradBetaOpHeader head;
  CopyTiling(&head, tiling);
  const uint32_t blockIdx = static_cast<uint32_t>(GetBlockIdx());
  if (blockIdx >= head.blockNum) {
    return;
  }
  LayerNormGradBetaOpBlock block;
  CopyTiling(
      &block, tiling,
      sizeof(LayerNormGradBetaOpHeader) + uint64_t{blockIdx} * sizeof(LayerNormGradBetaOpBlock));
  if (head.dtype == 1) {
    if (head.isReuseSource != 0) {
      RunLayerNormGradBetaOp<half, true>(resForGamma, inputDy, workspace, head, block, blockIdx);
    } else {
      RunLayerNormGradBetaOp<half, false>(resForGamma, inputDy, workspace, head, block, blockIdx);
    }
  } else {
    if (head.isReuseSource != 0) {
      RunLayerNormGradBetaOp<float, true>(resForGamma, inputDy, workspace, head, block, blockIdx);
    } else {
      RunLayerNormGradBetaOp<float, false>(resForGamma, inputDy, workspace, head, block, blockIdx);
    }
  }
}

// Launch 2 (one block): outputs from the partial sums.
extern "C" __global__ __aicore__ void layernorm_grad_beta_combine(GM_ADDR workspace,
                                                                  GM_ADDR outputPdGamma,
                                                                  GM_ADDR outputPdBeta,
                                                                  GM_ADDR tiling) {
  if ASCEND_IS_AIC {
    return;
  }
  using namespace lngrad_example;
  LayerNormGradBetaOpHeader head;
  CopyTiling(&head, tiling);
  if (head.dtype == 1) {
    RunLayerNormGradBetaCombine<half>(workspace, outputPdGamma, outputPdBeta, head);
  } else {
    RunLayerNormGradBetaCombine<float>(workspace, outputPdGamma, outputPdBeta, head);
  }
}
