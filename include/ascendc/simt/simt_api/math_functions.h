// lngrad SIMT API: the maths of SIMT kernels (the vendor's simt_api/math_functions.h): the float
// functions, the integer intrinsics, min/max and the type conversion functions.
//
// The float functions the C library has (sqrtf, expf, logf, sinf, cosf, sincosf, fmodf, floorf,
// fmaxf, ..., isnan/isinf/isfinite/signbit) are the C library's, declared in the global namespace
// by <cmath> and <math.h>; lngrad_simt/math_float.h adds the others. Every function is pure: it
// works inside a SIMT thread and in plain host code alike.
#pragma once

#include <cmath>
#include <cstdlib>
#include <math.h>

#include "lngrad_simt/math_convert.h"
#include "lngrad_simt/math_float.h"
#include "lngrad_simt/math_integer.h"
#include "simt_api/device_types.h"
#include "simt_api/math_constants.h"
