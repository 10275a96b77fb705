// A kernel that uses only the Ascend C include root: LayerNormGrad, then LayerNormGradBeta on
// its resForGamma, in one block. Nothing from lngrad is named or included here (CTest checks the
// includes: examples.ascendc_only_includes). Both header spellings found in the wild are used.
#include "kernel_operator.h"
#include "adv_api/normalization/layernormgradbeta.h"
#include "lib/normalization/layernormgrad.h"

namespace {

struct GradAndBetaTiling {
  LayerNormGradTiling grad;
  LayerNormGradBetaTiling beta;
  float epsilon;
  uint32_t dtypeSize;  // 4: float, 2: half
};

// Word-by-word copy from GM; memcpy per word keeps the float member well defined (no store
// through a uint32_t* into a float).
template <typename T>
__aicore__ inline void CopyWords(T* dst, GM_ADDR src) {
  auto words = reinterpret_cast<__gm__ uint32_t*>(src);
  for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
    const uint32_t word = words[i];
    __builtin_memcpy(reinterpret_cast<uint8_t*>(dst) + i * sizeof(uint32_t), &word, sizeof(word));
  }
}

// One input's copy-in: a tensor of `queue` filled with `count` elements of `gm`, enqueued.
template <typename T>
__aicore__ inline void CopyInQueued(AscendC::TQue<AscendC::TPosition::VECIN, 1>& queue,
                                    const AscendC::GlobalTensor<T>& gm, uint32_t count) {
  AscendC::LocalTensor<T> local = queue.AllocTensor<T>();
  AscendC::DataCopy(local, gm, count);
  queue.EnQue(local);
}

// One output's copy-out: the tensor dequeued from `queue` written to `gm`, then freed.
template <typename T>
__aicore__ inline void CopyOutQueued(const AscendC::GlobalTensor<T>& gm,
                                     AscendC::TQue<AscendC::TPosition::VECOUT, 1>& queue,
                                     uint32_t count) {
  AscendC::LocalTensor<T> local = queue.DeQue<T>();
  AscendC::DataCopy(gm, local, count);
  queue.FreeTensor(local);
}

template <typename T>
class KernelGradAndBeta {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR dy, GM_ADDR variance, GM_ADDR mean, GM_ADDR gamma,
                              GM_ADDR pdX, GM_ADDR resForGamma, GM_ADDR pdGamma, GM_ADDR pdBeta,
                              const GradAndBetaTiling& t) {
    gradTiling_ = t.grad;
    betaTiling_ = t.beta;
    epsilon_ = static_cast<T>(t.epsilon);
    bs_ = t.grad.bLength * t.grad.sLength;
    h_ = t.grad.hLength;
    bsh_ = bs_ * h_;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), bsh_);
    dyGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dy), bsh_);
    varianceGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(variance), bs_);
    meanGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(mean), bs_);
    gammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gamma), h_);
    pdXGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(pdX), bsh_);
    resGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(resForGamma), bsh_);
    pdGammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(pdGamma), h_);
    pdBetaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(pdBeta), h_);
    pipe_.InitBuffer(inX_, 1, bsh_ * sizeof(T));
    pipe_.InitBuffer(inDy_, 1, bsh_ * sizeof(T));
    pipe_.InitBuffer(inVariance_, 1, bs_ * sizeof(T));
    pipe_.InitBuffer(inMean_, 1, bs_ * sizeof(T));
    pipe_.InitBuffer(inGamma_, 1, h_ * sizeof(T));
    pipe_.InitBuffer(outPdX_, 1, bsh_ * sizeof(T));
    pipe_.InitBuffer(outRes_, 1, bsh_ * sizeof(T));
    pipe_.InitBuffer(outPdGamma_, 1, h_ * sizeof(T));
    pipe_.InitBuffer(outPdBeta_, 1, h_ * sizeof(T));
  }

  __aicore__ inline void Process() {
    CopyInQueued(inX_, xGm_, bsh_);
    CopyInQueued(inDy_, dyGm_, bsh_);
    CopyInQueued(inVariance_, varianceGm_, bs_);
    CopyInQueued(inMean_, meanGm_, bs_);
    CopyInQueued(inGamma_, gammaGm_, h_);

    AscendC::LocalTensor<T> x = inX_.DeQue<T>();
    AscendC::LocalTensor<T> dy = inDy_.DeQue<T>();
    AscendC::LocalTensor<T> variance = inVariance_.DeQue<T>();
    AscendC::LocalTensor<T> mean = inMean_.DeQue<T>();
    AscendC::LocalTensor<T> gamma = inGamma_.DeQue<T>();
    AscendC::LocalTensor<T> pdX = outPdX_.AllocTensor<T>();
    AscendC::LocalTensor<T> res = outRes_.AllocTensor<T>();
    AscendC::LocalTensor<T> pdGamma = outPdGamma_.AllocTensor<T>();
    AscendC::LocalTensor<T> pdBeta = outPdBeta_.AllocTensor<T>();
    // dy feeds LayerNormGradBeta next, so LayerNormGrad must not reuse it.
    AscendC::LayerNormGrad<T, false>(pdX, res, dy, x, variance, mean, gamma, epsilon_, gradTiling_);
    AscendC::LayerNormGradBeta<T, false>(pdGamma, pdBeta, res, dy, betaTiling_);
    outPdX_.EnQue(pdX);
    outRes_.EnQue(res);
    outPdGamma_.EnQue(pdGamma);
    outPdBeta_.EnQue(pdBeta);
    inX_.FreeTensor(x);
    inDy_.FreeTensor(dy);
    inVariance_.FreeTensor(variance);
    inMean_.FreeTensor(mean);
    inGamma_.FreeTensor(gamma);

    CopyOutQueued(pdXGm_, outPdX_, bsh_);
    CopyOutQueued(resGm_, outRes_, bsh_);
    CopyOutQueued(pdGammaGm_, outPdGamma_, h_);
    CopyOutQueued(pdBetaGm_, outPdBeta_, h_);
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inX_, inDy_, inVariance_, inMean_, inGamma_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outPdX_, outRes_, outPdGamma_, outPdBeta_;
  AscendC::GlobalTensor<T> xGm_, dyGm_, varianceGm_, meanGm_, gammaGm_, pdXGm_, resGm_, pdGammaGm_,
      pdBetaGm_;
  LayerNormGradTiling gradTiling_;
  LayerNormGradBetaTiling betaTiling_;
  T epsilon_;
  uint32_t bs_ = 0, h_ = 0, bsh_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void layernorm_grad_and_beta_custom(
    GM_ADDR x, GM_ADDR dy, GM_ADDR variance, GM_ADDR mean, GM_ADDR gamma, GM_ADDR pdX,
    GM_ADDR resForGamma, GM_ADDR pdGamma, GM_ADDR pdBeta, GM_ADDR tiling) {
  if ASCEND_IS_AIC {
    return;
  }
  GradAndBetaTiling t;
  CopyWords(&t, tiling);
  if (t.dtypeSize == 2) {
    KernelGradAndBeta<half> op;
    op.Init(x, dy, variance, mean, gamma, pdX, resForGamma, pdGamma, pdBeta, t);
    op.Process();
  } else {
    KernelGradAndBeta<float> op;
    op.Init(x, dy, variance, mean, gamma, pdX, resForGamma, pdGamma, pdBeta, t);
    op.Process();
  }
}
