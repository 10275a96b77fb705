// Device-style harness kernels of the faithfulness tests: they include only "kernel_operator.h"
// (plus the plain parameter struct), load one problem into UB, call the high-level API once and
// copy back the outputs, every input (to see what the API overwrote) and the scratch region.
// They synchronise as a device kernel must (clean under the pipeline sanitizer): the loads
// before the API (MTE2 -> V), the API before the stores (V -> MTE3), and the scratch region is
// zeroed before the API, so the bytes it does not write read back defined.
#include "kernel_operator.h"

#include "harness_params.h"

using namespace AscendC;

namespace faithful {
namespace {

// Word-by-word copy from GM (memcpy per word: no uint32_t stores into other member types).
template <typename P>
__aicore__ inline void CopyParams(P* dst, GM_ADDR src) {
  auto* words = reinterpret_cast<__gm__ uint32_t*>(src);
  for (uint32_t i = 0; i < sizeof(P) / sizeof(uint32_t); ++i) {
    const uint32_t word = words[i];
    __builtin_memcpy(reinterpret_cast<uint8_t*>(dst) + i * sizeof(uint32_t), &word, sizeof(word));
  }
}

__aicore__ inline uint32_t Round32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

template <typename T>
__aicore__ inline T EpsilonFromBits(uint32_t bits) {
  if constexpr (sizeof(T) == 2) {
    return half::FromBits(static_cast<uint16_t>(bits));
  } else {
    float f;
    __builtin_memcpy(&f, &bits, sizeof(f));
    return f;
  }
}

// A GM tensor of `count` elements copied into a fresh UB buffer of the given position.
template <typename T, TPosition pos>
__aicore__ inline LocalTensor<T> Load(TPipe& pipe, TBuf<pos>& buf, GM_ADDR src, uint32_t count) {
  pipe.InitBuffer(buf, Round32(count * sizeof(T)));
  LocalTensor<T> t = buf.template Get<T>();
  GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src), Round32(count * sizeof(T)) / sizeof(T));
  DataCopy(t, g, Round32(count * sizeof(T)) / sizeof(T));
  return t;
}

// Zeroes the first `bytes` (a multiple of 32) of a scratch tensor.
__aicore__ inline void ZeroScratch(const LocalTensor<uint8_t>& t, uint32_t bytes) {
  if (bytes != 0) Duplicate(t.ReinterpretCast<uint32_t>(), 0u, static_cast<int32_t>(bytes / 4));
}

// The call's scratch, its first `zeroBytes` (rounded up to 32) zeroed: a tmpBuf of `tmpBytes`,
// or with tmpBytes 0 the region the API pops (everything after the pipe's buffers).
__aicore__ inline LocalTensor<uint8_t> Scratch(TPipe& pipe, TBuf<TPosition::VECCALC>& tmpBuf,
                                               uint32_t tmpBytes, uint32_t zeroBytes) {
  LocalTensor<uint8_t> scratch;
  if (tmpBytes != 0) {
    pipe.InitBuffer(tmpBuf, tmpBytes);
    scratch = tmpBuf.Get<uint8_t>();
  } else {
    PopStackBuffer<uint8_t, TPosition::LCM>(scratch);
  }
  ZeroScratch(scratch, Round32(zeroBytes));
  return scratch;
}

__aicore__ inline void LoadsBeforeCompute() {
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
}

__aicore__ inline void ComputeBeforeStores() {
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
}

template <typename T>
__aicore__ inline void Store(GM_ADDR dst, const LocalTensor<T>& t, uint32_t count) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst), Round32(count * sizeof(T)) / sizeof(T));
  DataCopy(g, t, Round32(count * sizeof(T)) / sizeof(T));
}

template <typename T, bool isReuseSource>
__aicore__ inline void GradHarness(GM_ADDR dy, GM_ADDR x, GM_ADDR variance, GM_ADDR mean,
                                   GM_ADDR gamma, GM_ADDR pdX, GM_ADDR resForGamma,
                                   GM_ADDR inputsOut, GM_ADDR scratchOut, GM_ADDR params) {
  GradParams p;
  CopyParams(&p, params);
  const uint32_t bsh = p.rows * p.h;
  TPipe pipe;
  TBuf<TPosition::VECIN> dyBuf, xBuf, varBuf, meanBuf, gammaBuf;
  TBuf<TPosition::VECOUT> pdXBuf, resBuf;
  TBuf<TPosition::VECCALC> tmpBuf;
  LocalTensor<T> dyL = Load<T>(pipe, dyBuf, dy, bsh);
  LocalTensor<T> xL = Load<T>(pipe, xBuf, x, bsh);
  LocalTensor<T> varL = Load<T>(pipe, varBuf, variance, p.statCount);
  LocalTensor<T> meanL = Load<T>(pipe, meanBuf, mean, p.statCount);
  LocalTensor<T> gammaL = Load<T>(pipe, gammaBuf, gamma, p.h);
  pipe.InitBuffer(pdXBuf, bsh * sizeof(T));
  pipe.InitBuffer(resBuf, bsh * sizeof(T));
  LocalTensor<T> pdXL = pdXBuf.Get<T>();
  LocalTensor<T> resL = resBuf.Get<T>();
  const T epsilon = EpsilonFromBits<T>(p.epsilonBits);
  LocalTensor<uint8_t> scratch = Scratch(pipe, tmpBuf, p.tmpBufferBytes, p.scratchCopyBytes);
  // The outputs read back defined where the API does not write them (a non-ND call on arch
  // 2201/2002 writes nothing).
  ZeroScratch(pdXL.template ReinterpretCast<uint8_t>(), Round32(bsh * sizeof(T)));
  ZeroScratch(resL.template ReinterpretCast<uint8_t>(), Round32(bsh * sizeof(T)));
  LoadsBeforeCompute();
  if (p.tmpBufferBytes != 0) {
    LayerNormGrad<T, isReuseSource>(pdXL, resL, dyL, xL, varL, meanL, gammaL, scratch, epsilon,
                                    p.tiling, {static_cast<DataFormat>(p.dataFormat)});
  } else {
    LayerNormGrad<T, isReuseSource>(pdXL, resL, dyL, xL, varL, meanL, gammaL, epsilon, p.tiling,
                                    {static_cast<DataFormat>(p.dataFormat)});
  }
  ComputeBeforeStores();
  Store(pdX, pdXL, bsh);
  Store(resForGamma, resL, bsh);
  // inputsOut: dy | x | variance | mean | gamma, each at a 32-byte rounded offset.
  uint64_t offset = 0;
  Store(inputsOut + offset, dyL, bsh);
  offset += Round32(bsh * sizeof(T));
  Store(inputsOut + offset, xL, bsh);
  offset += Round32(bsh * sizeof(T));
  Store(inputsOut + offset, varL, p.statCount);
  offset += Round32(p.statCount * sizeof(T));
  Store(inputsOut + offset, meanL, p.statCount);
  offset += Round32(p.statCount * sizeof(T));
  Store(inputsOut + offset, gammaL, p.h);
  if (p.scratchCopyBytes != 0) Store(scratchOut, scratch, p.scratchCopyBytes);
}

template <typename T, bool isReuseSource>
__aicore__ inline void BetaHarness(GM_ADDR resForGamma, GM_ADDR dy, GM_ADDR pdGamma, GM_ADDR pdBeta,
                                   GM_ADDR inputsOut, GM_ADDR scratchOut, GM_ADDR params) {
  BetaParams p;
  CopyParams(&p, params);
  const uint32_t bsh = p.rows * p.h;
  TPipe pipe;
  TBuf<TPosition::VECIN> resBuf, dyBuf;
  TBuf<TPosition::VECOUT> gammaBuf, betaBuf;
  TBuf<TPosition::VECCALC> tmpBuf;
  LocalTensor<T> resL = Load<T>(pipe, resBuf, resForGamma, bsh);
  LocalTensor<T> dyL = Load<T>(pipe, dyBuf, dy, bsh);
  pipe.InitBuffer(gammaBuf, p.h * sizeof(T));
  pipe.InitBuffer(betaBuf, p.h * sizeof(T));
  LocalTensor<T> gammaL = gammaBuf.Get<T>();
  LocalTensor<T> betaL = betaBuf.Get<T>();
  LocalTensor<uint8_t> scratch = Scratch(pipe, tmpBuf, p.tmpBufferBytes, p.scratchCopyBytes);
  LoadsBeforeCompute();
  if (p.tmpBufferBytes != 0) {
    LayerNormGradBeta<T, isReuseSource>(gammaL, betaL, resL, dyL, scratch, p.tiling);
  } else {
    LayerNormGradBeta<T, isReuseSource>(gammaL, betaL, resL, dyL, p.tiling);
  }
  ComputeBeforeStores();
  Store(pdGamma, gammaL, p.h);
  Store(pdBeta, betaL, p.h);
  Store(inputsOut, resL, bsh);
  Store(inputsOut + Round32(bsh * sizeof(T)), dyL, bsh);
  if (p.scratchCopyBytes != 0) Store(scratchOut, scratch, p.scratchCopyBytes);
}

}  // namespace

// Entries by (dtype, isReuseSource): the host picks one.
#define FAITHFUL_GRAD_ENTRY(name, T, reuse)                                                       \
  void name(GM_ADDR dy, GM_ADDR x, GM_ADDR variance, GM_ADDR mean, GM_ADDR gamma, GM_ADDR pdX,    \
            GM_ADDR res, GM_ADDR inputsOut, GM_ADDR scratchOut, GM_ADDR params) {                 \
    GradHarness<T, reuse>(dy, x, variance, mean, gamma, pdX, res, inputsOut, scratchOut, params); \
  }
FAITHFUL_GRAD_ENTRY(GradFloat, float, false)
FAITHFUL_GRAD_ENTRY(GradFloatReuse, float, true)
FAITHFUL_GRAD_ENTRY(GradHalf, half, false)
FAITHFUL_GRAD_ENTRY(GradHalfReuse, half, true)
#undef FAITHFUL_GRAD_ENTRY

#define FAITHFUL_BETA_ENTRY(name, T, reuse)                                              \
  void name(GM_ADDR res, GM_ADDR dy, GM_ADDR pdGamma, GM_ADDR pdBeta, GM_ADDR inputsOut, \
            GM_ADDR scratchOut, GM_ADDR params) {                                        \
    BetaHarness<T, reuse>(res, dy, pdGamma, pdBeta, inputsOut, scratchOut, params);      \
  }
FAITHFUL_BETA_ENTRY(BetaFloat, float, false)
FAITHFUL_BETA_ENTRY(BetaFloatReuse, float, true)
FAITHFUL_BETA_ENTRY(BetaHalf, half, false)
FAITHFUL_BETA_ENTRY(BetaHalfReuse, half, true)
#undef FAITHFUL_BETA_ENTRY

}  // namespace faithful
