// Forwarding header: the toolkit spells this path kernel_operator_list_tensor_intf.h;
// the implementation is lngrad_aicore/list_tensor.h.
#pragma once

#include "lngrad_aicore/list_tensor.h"
