// Ascend C host tiling API, as host code includes it: #include "tiling/tiling_api.h".
// Provides ge::Shape (AscendC::TensorShape), the TilingDef macros, the optiling:: tiling classes,
// the plain AscendC::tiling:: structs, and the LayerNormGrad / LayerNormGradBeta / LayerNorm
// tiling functions. lngrad additions: lngrad::tiling::* Status variants and LastTilingStatus().
#pragma once

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/normalization/layernorm_grad_beta_tiling.h"
#include "tiling/normalization/layernorm_grad_tiling.h"
#include "tiling/normalization/layernorm_tiling.h"
#include "tiling/math/math_tiling.h"
#include "tiling/normalization/normalize_tiling.h"
#include "tiling/tiling_data_def.h"
#include "tiling/tiling_status.h"
#include "tiling/transform/transform_tiling.h"
