// lngrad: the high-level sort family (issue 28), one include for kernel_operator.h.
#pragma once

#include "lib/sort/sort.h"
#include "lib/sort/topk.h"
