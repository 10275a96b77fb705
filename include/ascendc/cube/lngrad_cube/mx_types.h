// lngrad Ascend C cube: the MX forms' element types (the 950): fp8_e8m0_t, fp4x2_e2m1_t and
// fp4x2_e1m2_t, defined in lngrad_aicore/fp4.h (the vector Cast converts them too); the cube
// decodes them with lngrad::cube::MxValue.
#pragma once

#include "lngrad_aicore/fp4.h"  // the types and their IsFourBit (the vector Cast uses them too)
