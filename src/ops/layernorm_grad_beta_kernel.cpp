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
//
// Any H: rows that are not a multiple of 32 bytes are padded to 32 bytes in UB with 0
// (DataCopyPad), and the API gets hLength = originalHLength = the storage H: its vector path
// strides rows by originalHLength (spec §3.3). The padded columns' sums (0) are never copied out.
#include "kernel_common.h"

namespace lngrad::ops::kernel {

template <typename T, bool isReuseSource>
class KernelLayerNormGradBetaOp : BlockKernel<LayerNormGradBetaTiling> {
 public:
  // `workspace`: blockNum rows of 2*H floats; this block writes row GetBlockIdx().
  __aicore__ inline void Init(GM_ADDR resForGamma, GM_ADDR inputDy, GM_ADDR workspace,
                              const OpTilingHeader& head, const LayerNormGradBetaOpBlock& block) {
    InitBlock(head, block);
    const uint64_t blockIdx = static_cast<uint64_t>(GetBlockIdx());
    SetBlockRows(resForGammaGlobal_, resForGamma, block, originalHLength_);
    SetBlockRows(inputDyGlobal_, inputDy, block, originalHLength_);
    SetGm(partialGlobal_, workspace, blockIdx * 2 * hLength_, 2 * hLength_);

    const uint32_t tileBytes = block.tileRows * hLength_ * sizeof(T);
    pipe_.InitBuffer(inQueueResForGamma_, 1, tileBytes);
    pipe_.InitBuffer(inQueueDy_, 1, tileBytes);
    pipe_.InitBuffer(outQueuePartial_, 1, 2 * hLength_ * sizeof(float));
    pipe_.InitBuffer(pdGammaBuf_, hLength_ * sizeof(T));
    pipe_.InitBuffer(pdBetaBuf_, hLength_ * sizeof(T));
    if constexpr (sizeof(T) == 2) {
      pipe_.InitBuffer(castBuf_, hLength_ * sizeof(float));
    }
    InitTmpBuffer();
  }

  __aicore__ inline void Process() {
    LocalTensor<float> partial = outQueuePartial_.AllocTensor<float>();
    ForEachTile(block_, [&](uint32_t row, uint32_t rows, const LayerNormGradBetaTiling& tiling,
                            bool first) {
      const uint64_t offset = uint64_t{row} * originalHLength_;
      CopyRowsInQue(inQueueResForGamma_, resForGammaGlobal_[offset], rows, originalHLength_,
                    hLength_);
      CopyRowsInQue(inQueueDy_, inputDyGlobal_[offset], rows, originalHLength_, hLength_);
      tiling_ = tiling;
      Compute(partial, first);
    });
    outQueuePartial_.EnQue(partial);
    CopyOutQue<float>(partialGlobal_, outQueuePartial_, 2 * hLength_);
  }

 private:
  __aicore__ inline void Compute(const LocalTensor<float>& partial, bool first) {
    LocalTensor<T> res = inQueueResForGamma_.DeQue<T>();
    LocalTensor<T> dy = inQueueDy_.DeQue<T>();
    LocalTensor<T> pdGamma = pdGammaBuf_.Get<T>();
    LocalTensor<T> pdBeta = pdBetaBuf_.Get<T>();
    WithScratch([&](auto&... sharedTmpBuffer) {
      LayerNormGradBeta<T, isReuseSource>(pdGamma, pdBeta, res, dy, sharedTmpBuffer..., tiling_);
    });
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

  TQue<TPosition::VECIN, 1> inQueueResForGamma_, inQueueDy_;
  TQue<TPosition::VECOUT, 1> outQueuePartial_;
  TBuf<TPosition::VECCALC> pdGammaBuf_, pdBetaBuf_, castBuf_;
  GlobalTensor<T> resForGammaGlobal_, inputDyGlobal_;
  GlobalTensor<float> partialGlobal_;
};

// Sums the blocks' partial rows (storage H) in block order, combineCols columns at a time, and
// writes the real H columns.
template <typename T>
class KernelLayerNormGradBetaCombine {
 public:
  __aicore__ inline void Init(GM_ADDR workspace, GM_ADDR outputPdGamma, GM_ADDR outputPdBeta,
                              const OpTilingHeader& head) {
    head_ = head;
    hLength_ = head.hLength;
    originalHLength_ = head.originalHLength;
    combineCols_ =
        hLength_ < kLayerNormGradBetaCombineCols ? hLength_ : kLayerNormGradBetaCombineCols;
    SetGm(partialGlobal_, workspace, 0, uint64_t{head.blockNum} * 2 * hLength_);
    SetGm(pdGammaGlobal_, outputPdGamma, 0, originalHLength_);
    SetGm(pdBetaGlobal_, outputPdBeta, 0, originalHLength_);
    pipe_.InitBuffer(inQueuePartial_, 1, combineCols_ * sizeof(float));
    pipe_.InitBuffer(outQueueSum_, 1, combineCols_ * sizeof(T));
    pipe_.InitBuffer(accBuf_, combineCols_ * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint32_t part = 0; part < 2; ++part) {
      const GlobalTensor<T>& out = part == 0 ? pdGammaGlobal_ : pdBetaGlobal_;
      for (uint32_t col = 0; col < hLength_; col += combineCols_) {
        const uint32_t cols = hLength_ - col < combineCols_ ? hLength_ - col : combineCols_;
        LocalTensor<float> acc = accBuf_.Get<float>();
        for (uint32_t blk = 0; blk < head_.blockNum; ++blk) {
          CopyInQue(inQueuePartial_,
                    partialGlobal_[uint64_t{blk} * 2 * hLength_ + uint64_t{part} * hLength_ + col],
                    cols);
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
        // Only the last step holds padded columns (fewer than 32 bytes).
        const uint32_t real = originalHLength_ - col < cols ? originalHLength_ - col : cols;
        CopyRowsOutQue<T>(out[col], outQueueSum_, 1, real, cols);
      }
    }
  }

 private:
  TPipe pipe_;
  TQue<TPosition::VECIN, 1> inQueuePartial_;
  TQue<TPosition::VECOUT, 1> outQueueSum_;
  TBuf<TPosition::VECCALC> accBuf_;
  GlobalTensor<float> partialGlobal_;
  GlobalTensor<T> pdGammaGlobal_, pdBetaGlobal_;
  OpTilingHeader head_{};
  uint32_t hLength_ = 0;
  uint32_t originalHLength_ = 0;
  uint32_t combineCols_ = 0;
};

}  // namespace lngrad::ops::kernel

// Launch 1: partial sums. `workspace`: blockNum rows of 2*H floats. `tiling`: the header and
// blockNum block entries.
extern "C" __global__ __aicore__ void layernorm_grad_beta_op(GM_ADDR resForGamma, GM_ADDR inputDy,
                                                             GM_ADDR workspace, GM_ADDR tiling) {
  // inf/NaN mode: an inf or NaN tile sum must reach the outputs as it is, not saturate in the
  // casts (the CTRL default).
  AscendC::AscendCUtils::SetOverflow(1);
  lngrad::ops::kernel::RunBlock<lngrad::ops::kernel::KernelLayerNormGradBetaOp,
                                LayerNormGradBetaTiling>(tiling, resForGamma, inputDy, workspace);
}

// Launch 2 (one block): outputs from the partial sums.
extern "C" __global__ __aicore__ void layernorm_grad_beta_combine(GM_ADDR workspace,
                                                                  GM_ADDR outputPdGamma,
                                                                  GM_ADDR outputPdBeta,
                                                                  GM_ADDR tiling) {
  if ASCEND_IS_AIC {
    return;
  }
  AscendC::AscendCUtils::SetOverflow(1);  // as in launch 1
  using namespace lngrad::ops;
  OpTilingHeader head;
  kernel::CopyTiling(&head, tiling);
  if (head.dtype == 1) {
    kernel::KernelLayerNormGradBetaCombine<half> op;
    op.Init(workspace, outputPdGamma, outputPdBeta, head);
    op.Process();
  } else {
    kernel::KernelLayerNormGradBetaCombine<float> op;
    op.Init(workspace, outputPdGamma, outputPdBeta, head);
    op.Process();
  }
}
