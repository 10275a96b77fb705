// lngrad Ascend C runtime: the toolkit's named constants that kernel code uses without defining
// them (`typeSize == B16_BYTE_SIZE`, `tiling.numberOfTmpBuf = TWO_OF_STACK_BUFFER`).
//
// Names, types and values are the vendor's (namespace AscendC, the same on every architecture
// modelled here). ONE_BLK_SIZE and K_MAX_SHAPE_DIM live with the types that use them
// (pipe.h, tensor.h).
#pragma once

#include <cstdint>

#include "pipe.h"

namespace AscendC {

// Element sizes.
inline constexpr uint8_t B64_BYTE_SIZE = 8;
inline constexpr uint8_t B32_BYTE_SIZE = 4;
inline constexpr uint8_t B16_BYTE_SIZE = 2;
inline constexpr uint8_t B8_BYTE_SIZE = 1;
inline constexpr int32_t ONE_BYTE_BIT_SIZE = 8;
inline constexpr int32_t B32_BIT_SIZE = 32;

// Elements per 32-byte data block and per 256-byte repeat.
inline constexpr uint8_t B32_DATA_NUM_PER_BLOCK = 8;
inline constexpr uint8_t B16_DATA_NUM_PER_BLOCK = 16;
inline constexpr int32_t B16_DATA_NUM_PER_REPEAT = 128;
inline constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
inline constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
inline constexpr uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
inline constexpr uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
inline constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
inline constexpr uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
inline constexpr uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / B16_BYTE_SIZE;
inline constexpr uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / B32_BYTE_SIZE;
// Bytes of one fractal row of the cube (C0 of 32 bytes).
inline constexpr int32_t DEFAULT_C0_SIZE = 32;

// Repeat parameters of the vector instructions.
inline constexpr int32_t DEFAULT_BLK_NUM = 8;
inline constexpr int32_t DEFAULT_BLK_STRIDE = 1;
inline constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
inline constexpr uint8_t HALF_DEFAULT_REPEAT_STRIDE = 4;
inline constexpr uint8_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
inline constexpr int32_t MAX_REPEAT_TIMES = 255;
inline constexpr int32_t MIN_REPEAT_TIMES = 0;
inline constexpr uint32_t MAX_REPEAT_FLOAT_SIZE = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES;
inline constexpr uint32_t MAX_REPEAT_HALF_SIZE = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES;
inline constexpr uint64_t FULL_MASK = 0xffffffffffffffff;
inline constexpr int32_t FULL_MASK_LEN = 128;
inline constexpr int32_t HALF_MASK_LEN = 64;
inline constexpr int32_t HALF_FACTOR = 2;
inline constexpr int32_t DOUBLE_FACTOR = 2;
inline constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;
inline constexpr uint32_t BRCB_MAX_REPEAT_SIZE = BRCB_BROADCAST_NUMBER * MAX_REPEAT_TIMES;

// How many temporary buffers the high-level APIs cut their stack buffer into.
inline constexpr uint32_t TWO_OF_STACK_BUFFER = 2;
inline constexpr uint32_t THREE_OF_STACK_BUFFER = 3;

}  // namespace AscendC
