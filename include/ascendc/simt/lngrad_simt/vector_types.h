// lngrad SIMT runtime: the vector types of SIMT kernels (half2, bfloat16x2_t, float2, int4, ...).
// To be filled (issue 33).
#pragma once
