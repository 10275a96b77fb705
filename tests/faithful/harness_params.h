// Parameters that the faithfulness tests hand their harness kernels in GM (plain 4-byte words;
// shared by the device-style kernels and the host side of the tests).
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

namespace faithful {

// LayerNormGrad harness: the whole problem in one block's UB, one API call.
struct GradParams {
  LayerNormGradTiling tiling;
  uint32_t rows;
  uint32_t h;
  uint32_t statCount;  // elements copied for mean/variance (rows rounded up to 32 bytes)
  uint32_t
      tmpBufferBytes;  // > 0: sharedTmpBuffer prototype with a TBuf of this size; 0: PopStackBuffer
  uint32_t scratchCopyBytes;  // bytes of the scratch region copied back (multiple of 32)
  uint32_t epsilonBits;       // the T epsilon's bits (float, or half in the low 16 bits)
  uint32_t dataFormat;        // shapeInfo.dataFormat (AscendC::DataFormat's value; 0 = ND)
};

// LayerNormGradBeta harness.
struct BetaParams {
  LayerNormGradBetaTiling tiling;
  uint32_t rows;
  uint32_t h;
  uint32_t tmpBufferBytes;  // > 0: sharedTmpBuffer prototype; 0: PopStackBuffer
  uint32_t scratchCopyBytes;
};

}  // namespace faithful
