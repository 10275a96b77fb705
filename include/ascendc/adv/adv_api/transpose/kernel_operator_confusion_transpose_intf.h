// Forwarding header: the toolkit spells this path
// adv_api/transpose/kernel_operator_confusion_transpose_intf.h; the implementation is
// lib/transpose/confusion_transpose.h.
#pragma once

#include "../../lib/transpose/confusion_transpose.h"
