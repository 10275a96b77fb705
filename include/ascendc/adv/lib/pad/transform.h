// lngrad: the tensor-transform high-level APIs (issue 28): Pad, UnPad, Broadcast,
// ConfusionTranspose / Transpose.
#pragma once

#include "lib/broadcast/broadcast.h"
#include "lib/pad/pad.h"
#include "lib/transpose/confusion_transpose.h"
#include "lib/transpose/transdata.h"
