// Host tiling of the tensor-transform high-level APIs: Pad / UnPad, Broadcast, ConfusionTranspose
// and TransData.
#pragma once

#include "tiling/transform/broadcast_tiling.h"
#include "tiling/transform/confusion_transpose_tiling.h"
#include "tiling/transform/pad_tiling.h"
#include "tiling/transform/transdata_tiling.h"
