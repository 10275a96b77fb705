// lngrad: the element-wise activation APIs of the Ascend C high-level API (Gelu, FasterGelu,
// FasterGeluV2, GeGLU, ReGlu, SwiGLU, Swish, Silu, Sigmoid), as kernel_operator.h includes them.
#pragma once

#include "lib/activation/gelu.h"
#include "lib/activation/glu.h"
#include "lib/activation/swish.h"
