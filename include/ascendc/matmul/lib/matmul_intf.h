// The Matmul high-level API, as kernels include it: #include "lib/matmul_intf.h" (the vendor's
// path). lngrad's one implementation serves the cube-only (ASCENDC_CUBE_ONLY) and mixed forms.
#pragma once

#include "lngrad_matmul/matmul.h"
#include "lngrad_matmul/workspace.h"
