// Device-style kernels for the Ascend C API tests: they include only "kernel_operator.h" and use
// the toolkit's structure (TPipe, queues, CopyIn / Compute / CopyOut). One block processes the
// whole [B,S,H] problem described by its tiling.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

// Kernel parameters after the tensors: tmpBytes (0 = framework scratch via PopStackBuffer,
// else a TBuf of that many bytes passed as sharedTmpBuffer) and the epsilon as float.
struct GradParams {
  uint32_t tmpBytes;
  float epsilon;
};

template <typename T>
__aicore__ inline void CopyTilingFromGm(T* dst, GM_ADDR src) {
  auto* words = reinterpret_cast<__gm__ uint32_t*>(src);
  auto* out = reinterpret_cast<uint32_t*>(dst);
  for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) out[i] = words[i];
}

// A GM tensor of `count` elements at `addr` and the one-buffer queue that stages it in UB.
template <typename T, TPosition pos>
__aicore__ inline void BindQueued(TPipe& pipe, GlobalTensor<T>& gm, TQue<pos, 1>& queue,
                                  GM_ADDR addr, uint32_t count) {
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(addr), count);
  pipe.InitBuffer(queue, 1, count * sizeof(T));
}

// CopyIn's step for one input: a tensor of `queue` filled with `count` elements of `gm`, enqueued.
template <typename T>
__aicore__ inline void CopyInQueued(TQue<TPosition::VECIN, 1>& queue, const GlobalTensor<T>& gm,
                                    uint32_t count) {
  LocalTensor<T> local = queue.AllocTensor<T>();
  DataCopy(local, gm, count);
  queue.EnQue(local);
}

// CopyOut's step for one output: the tensor dequeued from `queue` copied to `gm`, then freed.
template <typename T>
__aicore__ inline void CopyOutQueued(const GlobalTensor<T>& gm, TQue<TPosition::VECOUT, 1>& queue,
                                     uint32_t count) {
  LocalTensor<T> local = queue.DeQue<T>();
  DataCopy(gm, local, count);
  queue.FreeTensor(local);
}
template <typename T, bool isReuseSource>
class KernelLayerNormGrad {
 public:
  __aicore__ inline void Init(GM_ADDR dy, GM_ADDR x, GM_ADDR var, GM_ADDR mean, GM_ADDR gamma,
                              GM_ADDR pdx, GM_ADDR res, GM_ADDR tiling, GM_ADDR params) {
    CopyTilingFromGm(&tiling_, tiling);
    CopyTilingFromGm(&params_, params);
    bsh_ = tiling_.bLength * tiling_.sLength * tiling_.hLength;
    bs_ = tiling_.bLength * tiling_.sLength;
    h_ = tiling_.hLength;
    BindQueued(pipe_, dyGm_, inDy_, dy, bsh_);
    BindQueued(pipe_, xGm_, inX_, x, bsh_);
    BindQueued(pipe_, varGm_, inVar_, var, bs_);
    BindQueued(pipe_, meanGm_, inMean_, mean, bs_);
    BindQueued(pipe_, gammaGm_, inGamma_, gamma, h_);
    BindQueued(pipe_, pdxGm_, outPdx_, pdx, bsh_);
    BindQueued(pipe_, resGm_, outRes_, res, bsh_);
    if (params_.tmpBytes != 0) pipe_.InitBuffer(tmpBuf_, params_.tmpBytes);
  }
  __aicore__ inline void Process() {
    CopyIn();
    Compute();
    CopyOut();
  }

 private:
  __aicore__ inline void CopyIn() {
    CopyInQueued(inDy_, dyGm_, bsh_);
    CopyInQueued(inX_, xGm_, bsh_);
    CopyInQueued(inVar_, varGm_, bs_);
    CopyInQueued(inMean_, meanGm_, bs_);
    CopyInQueued(inGamma_, gammaGm_, h_);
  }
  __aicore__ inline void Compute() {
    LocalTensor<T> dy = inDy_.DeQue<T>();
    LocalTensor<T> x = inX_.DeQue<T>();
    LocalTensor<T> var = inVar_.DeQue<T>();
    LocalTensor<T> mean = inMean_.DeQue<T>();
    LocalTensor<T> gamma = inGamma_.DeQue<T>();
    LocalTensor<T> pdx = outPdx_.AllocTensor<T>();
    LocalTensor<T> res = outRes_.AllocTensor<T>();
    const T eps = static_cast<T>(params_.epsilon);
    if (params_.tmpBytes == 0) {
      LayerNormGrad<T, isReuseSource>(pdx, res, dy, x, var, mean, gamma, eps, tiling_);
    } else {
      LocalTensor<uint8_t> tmp = tmpBuf_.Get<uint8_t>();
      LayerNormGradShapeInfo shapeInfo{DataFormat::ND};
      LayerNormGrad<T, isReuseSource>(pdx, res, dy, x, var, mean, gamma, tmp, eps, tiling_,
                                      shapeInfo);
    }
    outPdx_.EnQue(pdx);
    outRes_.EnQue(res);
    inDy_.FreeTensor(dy);
    inX_.FreeTensor(x);
    inVar_.FreeTensor(var);
    inMean_.FreeTensor(mean);
    inGamma_.FreeTensor(gamma);
  }
  __aicore__ inline void CopyOut() {
    CopyOutQueued(pdxGm_, outPdx_, bsh_);
    CopyOutQueued(resGm_, outRes_, bsh_);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, 1> inDy_, inX_, inVar_, inMean_, inGamma_;
  TQue<TPosition::VECOUT, 1> outPdx_, outRes_;
  TBuf<TPosition::VECCALC> tmpBuf_;
  GlobalTensor<T> dyGm_, xGm_, varGm_, meanGm_, gammaGm_, pdxGm_, resGm_;
  LayerNormGradTiling tiling_;
  GradParams params_;
  uint32_t bsh_ = 0, bs_ = 0, h_ = 0;
};

template <typename T>
class KernelLayerNormGradBeta {
 public:
  __aicore__ inline void Run(GM_ADDR dy, GM_ADDR res, GM_ADDR gammaOut, GM_ADDR betaOut,
                             GM_ADDR tiling, GM_ADDR tmpBytes) {
    CopyTilingFromGm(&tiling_, tiling);
    uint32_t tmp = 0;
    CopyTilingFromGm(&tmp, tmpBytes);
    const uint32_t bsh = tiling_.bshLength;
    const uint32_t h = tiling_.hLength;
    BindQueued(pipe_, dyGm_, inDy_, dy, bsh);
    BindQueued(pipe_, resGm_, inRes_, res, bsh);
    BindQueued(pipe_, gammaGm_, outGamma_, gammaOut, h);
    BindQueued(pipe_, betaGm_, outBeta_, betaOut, h);
    if (tmp != 0) pipe_.InitBuffer(tmpBuf_, tmp);
    CopyInQueued(inDy_, dyGm_, bsh);
    CopyInQueued(inRes_, resGm_, bsh);
    LocalTensor<T> dyL = inDy_.DeQue<T>();
    LocalTensor<T> resL = inRes_.DeQue<T>();
    LocalTensor<T> g = outGamma_.AllocTensor<T>();
    LocalTensor<T> b = outBeta_.AllocTensor<T>();
    // Defined where the API does not write (the padded columns of a padded-H tiling).
    Duplicate(g, static_cast<T>(0.0f), static_cast<int32_t>(h));
    Duplicate(b, static_cast<T>(0.0f), static_cast<int32_t>(h));
    if (tmp == 0) {
      LayerNormGradBeta<T, false>(g, b, resL, dyL, tiling_);
    } else {
      LocalTensor<uint8_t> t = tmpBuf_.Get<uint8_t>();
      LayerNormGradBeta<T, false>(g, b, resL, dyL, t, tiling_);
    }
    outGamma_.EnQue(g);
    outBeta_.EnQue(b);
    CopyOutQueued(gammaGm_, outGamma_, h);
    CopyOutQueued(betaGm_, outBeta_, h);
  }

 private:
  TPipe pipe_;
  TQue<TPosition::VECIN, 1> inDy_, inRes_;
  TQue<TPosition::VECOUT, 1> outGamma_, outBeta_;
  TBuf<TPosition::VECCALC> tmpBuf_;
  GlobalTensor<T> dyGm_, resGm_, gammaGm_, betaGm_;
  LayerNormGradBetaTiling tiling_;
};

template <typename T>
class KernelLayerNorm {
 public:
  __aicore__ inline void Run(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR out, GM_ADDR mean,
                             GM_ADDR var, GM_ADDR tiling, GM_ADDR params) {
    CopyTilingFromGm(&tiling_, tiling);
    GradParams p;
    CopyTilingFromGm(&p, params);
    const uint32_t bsh = tiling_.bLength * tiling_.sLength * tiling_.hLength;
    const uint32_t bs = tiling_.bLength * tiling_.sLength;
    const uint32_t h = tiling_.hLength;
    GlobalTensor<T> xGm, gGm, bGm, oGm, mGm, vGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), bsh);
    gGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gamma), h);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(beta), h);
    oGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out), bsh);
    mGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(mean), bs);
    vGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(var), bs);
    TBuf<TPosition::VECIN> xb, gb, bb;
    TBuf<TPosition::VECOUT> ob, mb, vb;
    pipe_.InitBuffer(xb, bsh * sizeof(T));
    pipe_.InitBuffer(gb, h * sizeof(T));
    pipe_.InitBuffer(bb, h * sizeof(T));
    pipe_.InitBuffer(ob, bsh * sizeof(T));
    pipe_.InitBuffer(mb, bs * sizeof(T));
    pipe_.InitBuffer(vb, bs * sizeof(T));
    LocalTensor<T> xl = xb.Get<T>(), gl = gb.Get<T>(), bl = bb.Get<T>();
    LocalTensor<T> ol = ob.Get<T>(), ml = mb.Get<T>(), vl = vb.Get<T>();
    DataCopy(xl, xGm, bsh);
    DataCopy(gl, gGm, h);
    DataCopy(bl, bGm, h);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (p.tmpBytes == 0) {
      LayerNorm<T, false>(ol, ml, vl, xl, gl, bl, static_cast<T>(p.epsilon), tiling_);
    } else {
      TBuf<TPosition::VECCALC> tb;
      pipe_.InitBuffer(tb, p.tmpBytes);
      LocalTensor<uint8_t> tl = tb.Get<uint8_t>();
      LayerNorm<T, false>(ol, ml, vl, xl, gl, bl, tl, static_cast<T>(p.epsilon), tiling_);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(oGm, ol, bsh);
    DataCopy(mGm, ml, bs);
    DataCopy(vGm, vl, bs);
    // The tiling as the kernel holds it afterwards (the device may have written it).
    auto* back = reinterpret_cast<__gm__ uint32_t*>(tiling);
    const auto* words = reinterpret_cast<const uint32_t*>(&tiling_);
    for (uint32_t i = 0; i < sizeof(tiling_) / sizeof(uint32_t); ++i) back[i] = words[i];
  }

 private:
  TPipe pipe_;
  LayerNormTiling tiling_;
};

}  // namespace

extern "C" __global__ __aicore__ void lngrad_test_lng_float(GM_ADDR dy, GM_ADDR x, GM_ADDR var,
                                                            GM_ADDR mean, GM_ADDR gamma,
                                                            GM_ADDR pdx, GM_ADDR res,
                                                            GM_ADDR tiling, GM_ADDR params) {
  if ASCEND_IS_AIC {
    return;
  }
  KernelLayerNormGrad<float, false> op;
  op.Init(dy, x, var, mean, gamma, pdx, res, tiling, params);
  op.Process();
}

extern "C" __global__ __aicore__ void lngrad_test_lng_float_reuse(GM_ADDR dy, GM_ADDR x,
                                                                  GM_ADDR var, GM_ADDR mean,
                                                                  GM_ADDR gamma, GM_ADDR pdx,
                                                                  GM_ADDR res, GM_ADDR tiling,
                                                                  GM_ADDR params) {
  KernelLayerNormGrad<float, true> op;
  op.Init(dy, x, var, mean, gamma, pdx, res, tiling, params);
  op.Process();
}

extern "C" __global__ __aicore__ void lngrad_test_lng_half(GM_ADDR dy, GM_ADDR x, GM_ADDR var,
                                                           GM_ADDR mean, GM_ADDR gamma, GM_ADDR pdx,
                                                           GM_ADDR res, GM_ADDR tiling,
                                                           GM_ADDR params) {
  KernelLayerNormGrad<half, false> op;
  op.Init(dy, x, var, mean, gamma, pdx, res, tiling, params);
  op.Process();
}

extern "C" __global__ __aicore__ void lngrad_test_lngbeta_float(GM_ADDR dy, GM_ADDR res,
                                                                GM_ADDR gammaOut, GM_ADDR betaOut,
                                                                GM_ADDR tiling, GM_ADDR tmpBytes) {
  KernelLayerNormGradBeta<float> op;
  op.Run(dy, res, gammaOut, betaOut, tiling, tmpBytes);
}

extern "C" __global__ __aicore__ void lngrad_test_ln_float(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                           GM_ADDR out, GM_ADDR mean, GM_ADDR var,
                                                           GM_ADDR tiling, GM_ADDR params) {
  KernelLayerNorm<float> op;
  op.Run(x, gamma, beta, out, mean, var, tiling, params);
}
