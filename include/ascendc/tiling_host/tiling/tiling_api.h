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
#include "tiling/matmul/matmul_tiling.h"
#include "tiling/activation/eltwise_tiling.h"
#include "tiling/activation/softmax_tiling.h"
#include "tiling/normalization/normalize_tiling.h"
#include "tiling/normalization/rmsnorm_tiling.h"
#include "tiling/normalization/batchnorm_tiling.h"
#include "tiling/normalization/groupnorm_tiling.h"
#include "tiling/normalization/deepnorm_tiling.h"
#include "tiling/normalization/welford_tiling.h"
#include "tiling/reduce/reduce_tiling.h"
#include "tiling/sort/sort_tiling.h"
#include "tiling/quantization/quant_tiling.h"
#include "tiling/tiling_data_def.h"
#include "tiling/tiling_status.h"
#include "tiling/transform/transform_tiling.h"
