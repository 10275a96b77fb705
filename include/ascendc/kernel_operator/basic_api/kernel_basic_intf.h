// lngrad: the vendor's "basic_api/kernel_basic_intf.h", which kernels of the tensor API samples
// include beside "tensor_api/tensor.h": here the whole kernel header (kernel_operator.h).
#pragma once

#include "kernel_operator.h"
