// Host tiling of the tensor-transform high-level APIs: Pad / UnPad and ConfusionTranspose.
#pragma once

#include "tiling/transform/broadcast_tiling.h"
#include "tiling/transform/confusion_transpose_tiling.h"
#include "tiling/transform/pad_tiling.h"
