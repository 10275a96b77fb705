// lngrad: the normalization APIs of issue 28 beside the LayerNorm family (RmsNorm, DeepNorm,
// BatchNorm, WelfordUpdate, WelfordFinalize), included by kernel_operator.h.
#pragma once

#include "lib/normalization/batchnorm.h"
#include "lib/normalization/deepnorm.h"
#include "lib/normalization/groupnorm.h"
#include "lib/normalization/rmsnorm.h"
#include "lib/normalization/welfordfinalize.h"
#include "lib/normalization/welfordupdate.h"
