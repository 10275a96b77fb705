// lngrad: every high-level math, index and GM-initialisation API lngrad provides (included by
// kernel_operator.h). Transcendental ones (Exp with scratch, Log, Erf, Acosh, Power, ...) are not
// provided: docs/ascendc_compat.md, "Advanced math APIs".
#pragma once

#include "lib/index/arithprogression.h"
#include "lib/math/bitwise.h"
#include "lib/math/classify.h"
#include "lib/math/fma.h"
#include "lib/math/fmod.h"
#include "lib/math/logical.h"
#include "lib/math/rounding.h"
#include "lib/math/select.h"
#include "lib/utils/init_global_memory.h"
