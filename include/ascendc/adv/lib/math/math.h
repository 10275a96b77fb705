// lngrad: every high-level math, index and GM-initialisation API lngrad provides (included by
// kernel_operator.h): docs/ascendc_compat.md, "Advanced math APIs"; the transcendental ones
// (Exp with scratch, Log, Erf, Acosh, Power, CumSum, ...): docs/ascendc_kernels.md, "Math".
#pragma once

#include "lib/index/arithprogression.h"
#include "lib/math/acosh.h"
#include "lib/math/asin.h"
#include "lib/math/atan.h"
#include "lib/math/bitwise.h"
#include "lib/math/classify.h"
#include "lib/math/cumsum.h"
#include "lib/math/erf.h"
#include "lib/math/exp.h"
#include "lib/math/fma.h"
#include "lib/math/fmod.h"
#include "lib/math/hyperbolic.h"
#include "lib/math/hypot.h"
#include "lib/math/log.h"
#include "lib/math/logical.h"
#include "lib/math/power.h"
#include "lib/math/rounding.h"
#include "lib/math/select.h"
#include "lib/math/sign.h"
#include "lib/math/sin.h"
#include "lib/math/tan.h"
#include "lib/math/tanh.h"
#include "lib/utils/init_global_memory.h"
