// lngrad Ascend C tensor API (AscendC::Te): the vendor's "tensor_api/tensor.h", on lngrad's cube.
//
// Layouts, tensors and slices (tensor_api/tensor/), the copy and Mmad atoms and Copy / Mmad
// (tensor_api/atom/atom.h; the MX scales' copies: tensor_api/atom/mx_atom.h). The semantics and
// what is not emulated: docs/ascendc_kernels.md, "The tensor API".
#pragma once

#include "lngrad_cube/cube.h"
#include "lngrad_cube/local_array.h"
#include "tensor_api/atom/atom.h"
#include "tensor_api/atom/mx_atom.h"
#include "tensor_api/tensor/layout.h"
#include "tensor_api/tensor/tensor.h"
