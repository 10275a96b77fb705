// lngrad: the quantization, filter, select and random high-level APIs (issue 28), the one header
// kernel_operator.h includes for them.
#pragma once

#include "lib/filter/dropout.h"
#include "lib/quantization/ascend_antiquant.h"
#include "lib/quantization/ascend_dequant.h"
#include "lib/quantization/ascend_quant.h"
#include "lib/random/philox.h"
#include "lib/select/selectwithbytesmask.h"
