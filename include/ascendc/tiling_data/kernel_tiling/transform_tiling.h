// Kernel-side tiling structs of the tensor-transform high-level APIs (Pad, UnPad,
// ConfusionTranspose / Transpose), included by kernel_tiling.h. Same conventions as there:
// X-macro field lists (X(type, name), in the toolkit's order), plain structs, every field 0.
#pragma once

#include <cstdint>

// clang-format off
#define LNGRAD_UNPAD_TILING_FIELDS(X) \
  X(uint32_t, srcHeight)              \
  X(uint32_t, srcWidth)               \
  X(uint32_t, tmpBuffer1BlockNum)     \
  X(uint32_t, tmpBuffer1RowNum)       \
  X(uint32_t, tmpBuffer2Offset)       \
  X(uint32_t, widthTiling)            \
  X(uint32_t, widthFractal)           \
  X(uint32_t, widthFractalTail)

#define LNGRAD_PAD_TILING_FIELDS(X)        \
  X(uint32_t, srcHeight)                   \
  X(uint32_t, srcWidth)                    \
  X(uint32_t, srcOriWidth)                 \
  X(uint32_t, widthWithoutLastBlock)       \
  X(uint32_t, blocksPerRow)                \
  X(uint32_t, heightTiling)                \
  X(uint32_t, heightFractal)               \
  X(uint32_t, heightFractalTail)           \
  X(uint32_t, mainLoopOffset)              \
  X(uint32_t, tailBlockOffset)             \
  X(uint32_t, tmpBuffer1BlockNum)          \
  X(uint32_t, tmpBuffer1RowNum)            \
  X(uint32_t, tmpBuffer2Offset)            \
  X(uint32_t, widthTiling)                 \
  X(uint32_t, widthFractal)                \
  X(uint32_t, widthFractalTail)            \
  X(uint32_t, widthFractalTailAlingned)    \
  X(uint32_t, brcbTiling)                  \
  X(uint32_t, brcbFractal)                 \
  X(uint32_t, brcbFractalTail)             \
  X(uint32_t, maxRepeatTimes)              \
  X(uint32_t, brcbTilingRepeatTimes)       \
  X(uint32_t, brcbTilingRepeatTimesTail)   \
  X(uint32_t, brcbFractalTailRepeatTimes)  \
  X(uint32_t, brcbFractalTailRepeatTimesTail) \
  X(uint32_t, reserved)

// The toolkit names the fields param0..param17; their meaning depends on the TransposeType
// (lib/transpose/confusion_transpose.h reads them per type).
#define LNGRAD_CONFUSION_TRANSPOSE_TILING_FIELDS(X) \
  X(uint32_t, param0)  X(uint32_t, param1)  X(uint32_t, param2)  X(uint32_t, param3)  \
  X(uint32_t, param4)  X(uint32_t, param5)  X(uint32_t, param6)  X(uint32_t, param7)  \
  X(uint32_t, param8)  X(uint32_t, param9)  X(uint32_t, param10) X(uint32_t, param11) \
  X(uint32_t, param12) X(uint32_t, param13) X(uint32_t, param14) X(uint32_t, param15) \
  X(uint32_t, param16) X(uint32_t, param17)
// clang-format on

#define LNGRAD_TRANSFORM_TILING_FIELD(type, name) type name = 0;

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)

// UnPad: 8 x uint32, 32 bytes.
struct UnPadTiling {
  LNGRAD_UNPAD_TILING_FIELDS(LNGRAD_TRANSFORM_TILING_FIELD)
};

// Pad: 26 x uint32, 104 bytes (the last one reserved).
struct PadTiling {
  LNGRAD_PAD_TILING_FIELDS(LNGRAD_TRANSFORM_TILING_FIELD)
};

// ConfusionTranspose / Transpose: 18 x uint32, 72 bytes.
struct ConfusionTransposeTiling {
  LNGRAD_CONFUSION_TRANSPOSE_TILING_FIELDS(LNGRAD_TRANSFORM_TILING_FIELD)
};

#pragma pack(pop)

}  // namespace tiling
}  // namespace AscendC

#undef LNGRAD_TRANSFORM_TILING_FIELD

static_assert(sizeof(AscendC::tiling::UnPadTiling) == 32);
static_assert(sizeof(AscendC::tiling::PadTiling) == 104);
static_assert(sizeof(AscendC::tiling::ConfusionTransposeTiling) == 72);

using AscendC::tiling::ConfusionTransposeTiling;
using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;
