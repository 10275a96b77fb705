// Found beside hand_op.asc through `#include "hand_config.h"`, although the compiler reads the
// driver's rewritten copy from a scratch directory.
#pragma once
#include <cstdint>
inline constexpr uint32_t kHandBlocks = 4;
