// Spelling used by Ascend C host code for the tiling-data definition macros
// (BEGIN_TILING_DATA_DEF ...). Forwards to lngrad's implementation.
#pragma once

#include "tiling/tiling_data_def.h"
