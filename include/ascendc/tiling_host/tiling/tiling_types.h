// What every host tiling header declares its API with: ge::Shape (also AscendC::TensorShape),
// the kernel tiling structs, the host-side optiling tiling classes, lngrad::Status and
// lngrad::tiling::LastTilingStatus().
#pragma once

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lngrad/status.h"
#include "tiling/tiling_data_def.h"
#include "tiling/tiling_status.h"

namespace AscendC {
using TensorShape = ge::Shape;
}  // namespace AscendC

namespace optiling {

// The host-side TilingDef classes, one per kernel struct and built from its field list, so that
// each SaveToBuffer image is the AscendC::tiling struct of the same name.
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(LayerNormGradTiling, LNGRAD_LAYERNORM_GRAD_TILING_FIELDS);
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(LayerNormGradBetaTiling,
                                   LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS);
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(LayerNormTiling, LNGRAD_LAYERNORM_TILING_FIELDS);
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(LayerNormSeparateTiling,
                                   LNGRAD_LAYERNORM_SEPARATE_TILING_FIELDS);
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(TopkTiling, LNGRAD_TOPK_TILING_FIELDS);

}  // namespace optiling
