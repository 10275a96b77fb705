// lngrad: the SoftMax family's headers in one include (kernel_operator.h includes it).
#pragma once

#include "lib/activation/logsoftmax.h"
#include "lib/activation/simplesoftmax.h"
#include "lib/activation/softmax.h"
#include "lib/activation/softmaxflash.h"
#include "lib/activation/softmaxflashv2.h"
#include "lib/activation/softmaxflashv3.h"
#include "lib/activation/softmaxgrad.h"
