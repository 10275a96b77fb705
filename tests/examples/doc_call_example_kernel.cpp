// The call example of the LayerNormGrad documentation page, in the page's shape: a tiling struct
// `VecTiling` holding the global `LayerNormGradTiling` and epsilon, a kernel class with a TPipe,
// five VECIN and two VECOUT queues, CopyIn / Compute / CopyOut, the framework-scratch prototype
// called with `{DataFormat::ND}` unqualified, and an `extern "C" __global__ __aicore__` entry that
// returns on cube cores with `if ASCEND_IS_AIC { return; }`. Only "kernel_operator.h" is
// included; the page leaves `CopyTiling` to the sample, so it is the one helper added here.
#include "kernel_operator.h"

// Copies the tiling from GM word by word into the kernel's local struct. Each word is stored
// with memcpy: writing VecTiling's float member through a uint32_t* (as device samples do) is
// undefined behaviour in C++, and g++ -O2 then keeps the default `epsilon = 0`.
template <typename T>
__aicore__ inline void CopyTiling(T* tiling, GM_ADDR tilingGM) {
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGM);
  for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); i++) {
    const uint32_t word = src[i];
    __builtin_memcpy(reinterpret_cast<uint8_t*>(tiling) + i * sizeof(uint32_t), &word,
                     sizeof(word));
  }
}

namespace MyCustomKernel {

struct VecTiling {
  LayerNormGradTiling layernormGradTilingData;
  float epsilon = 0;
};

template <bool isReuseSource = false>
class KernelLayernormGrad {
 public:
  __aicore__ inline KernelLayernormGrad() {}
  __aicore__ inline void Init(GM_ADDR inputXGm, GM_ADDR inputDyGm, GM_ADDR inputVarianceGm,
                              GM_ADDR inputMeanGm, GM_ADDR inputGammaGm, GM_ADDR outputPdXGm,
                              GM_ADDR resForGammaGm, VecTiling tilingData) {
    epsilon_ = tilingData.epsilon;
    tiling_ = tilingData.layernormGradTilingData;
    bsLength_ = tiling_.bLength * tiling_.sLength;
    hLength_ = tiling_.hLength;
    bshLength_ = bsLength_ * hLength_;
    xGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(inputXGm), bshLength_);
    dyGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(inputDyGm), bshLength_);
    varianceGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(inputVarianceGm), bsLength_);
    meanGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(inputMeanGm), bsLength_);
    gammaGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(inputGammaGm), hLength_);
    pdXGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(outputPdXGm), bshLength_);
    resForGammaGlobal_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(resForGammaGm), bshLength_);
    pipe_.InitBuffer(inQueueX_, 1, sizeof(float) * bshLength_);
    pipe_.InitBuffer(inQueueDy_, 1, sizeof(float) * bshLength_);
    pipe_.InitBuffer(inQueueVariance_, 1, sizeof(float) * bsLength_);
    pipe_.InitBuffer(inQueueMean_, 1, sizeof(float) * bsLength_);
    pipe_.InitBuffer(inQueueGamma_, 1, sizeof(float) * hLength_);
    pipe_.InitBuffer(outQueuePdX_, 1, sizeof(float) * bshLength_);
    pipe_.InitBuffer(outQueueResForGamma_, 1, sizeof(float) * bshLength_);
  }
  __aicore__ inline void Process() {
    CopyIn();
    Compute();
    CopyOut();
  }

 private:
  __aicore__ inline void CopyIn() {
    AscendC::LocalTensor<float> x = inQueueX_.AllocTensor<float>();
    AscendC::LocalTensor<float> dy = inQueueDy_.AllocTensor<float>();
    AscendC::LocalTensor<float> variance = inQueueVariance_.AllocTensor<float>();
    AscendC::LocalTensor<float> mean = inQueueMean_.AllocTensor<float>();
    AscendC::LocalTensor<float> gamma = inQueueGamma_.AllocTensor<float>();
    AscendC::DataCopy(x, xGlobal_, bshLength_);
    AscendC::DataCopy(dy, dyGlobal_, bshLength_);
    AscendC::DataCopy(variance, varianceGlobal_, bsLength_);
    AscendC::DataCopy(mean, meanGlobal_, bsLength_);
    AscendC::DataCopy(gamma, gammaGlobal_, hLength_);
    inQueueX_.EnQue(x);
    inQueueDy_.EnQue(dy);
    inQueueVariance_.EnQue(variance);
    inQueueMean_.EnQue(mean);
    inQueueGamma_.EnQue(gamma);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> x = inQueueX_.DeQue<float>();
    AscendC::LocalTensor<float> dy = inQueueDy_.DeQue<float>();
    AscendC::LocalTensor<float> variance = inQueueVariance_.DeQue<float>();
    AscendC::LocalTensor<float> mean = inQueueMean_.DeQue<float>();
    AscendC::LocalTensor<float> gamma = inQueueGamma_.DeQue<float>();
    AscendC::LocalTensor<float> pdX = outQueuePdX_.AllocTensor<float>();
    AscendC::LocalTensor<float> resForGamma = outQueueResForGamma_.AllocTensor<float>();
    AscendC::LayerNormGrad<float, isReuseSource>(pdX, resForGamma, dy, x, variance, mean, gamma,
                                                 (float)epsilon_, tiling_, {DataFormat::ND});
    outQueuePdX_.EnQue(pdX);
    outQueueResForGamma_.EnQue(resForGamma);
    inQueueX_.FreeTensor(x);
    inQueueDy_.FreeTensor(dy);
    inQueueVariance_.FreeTensor(variance);
    inQueueMean_.FreeTensor(mean);
    inQueueGamma_.FreeTensor(gamma);
  }
  __aicore__ inline void CopyOut() {
    AscendC::LocalTensor<float> pdX = outQueuePdX_.DeQue<float>();
    AscendC::LocalTensor<float> resForGamma = outQueueResForGamma_.DeQue<float>();
    AscendC::DataCopy(pdXGlobal_, pdX, bshLength_);
    AscendC::DataCopy(resForGammaGlobal_, resForGamma, bshLength_);
    outQueuePdX_.FreeTensor(pdX);
    outQueueResForGamma_.FreeTensor(resForGamma);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueX_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueDy_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueVariance_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueMean_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueueGamma_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueuePdX_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueResForGamma_;
  AscendC::GlobalTensor<float> xGlobal_, dyGlobal_, varianceGlobal_, meanGlobal_, gammaGlobal_;
  AscendC::GlobalTensor<float> pdXGlobal_, resForGammaGlobal_;
  LayerNormGradTiling tiling_;
  float epsilon_ = 0;
  uint32_t bsLength_ = 0, hLength_ = 0, bshLength_ = 0;
};

}  // namespace MyCustomKernel

extern "C" __global__ __aicore__ void layernorm_grad_custom(
    GM_ADDR inputXGm, GM_ADDR inputDyGm, GM_ADDR inputVarianceGm, GM_ADDR inputMeanGm,
    GM_ADDR inputGammaGm, GM_ADDR outputPdXGm, GM_ADDR resForGammaGm, GM_ADDR workspace,
    GM_ADDR tiling) {
  if ASCEND_IS_AIC {
    return;
  }
  (void)workspace;
  MyCustomKernel::VecTiling tilingData;
  CopyTiling(&tilingData, tiling);
  MyCustomKernel::KernelLayernormGrad<false> op;
  op.Init(inputXGm, inputDyGm, inputVarianceGm, inputMeanGm, inputGammaGm, outputPdXGm,
          resForGammaGm, tilingData);
  op.Process();
}
