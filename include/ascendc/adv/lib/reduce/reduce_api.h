// lngrad: the high-level reduce family (issue 28), one include for kernel_operator.h.
#pragma once

#include "lib/reduce/mean.h"
#include "lib/reduce/reduce.h"
#include "lib/reduce/reduce_xor_sum.h"
#include "lib/reduce/sum.h"
