// lngrad Ascend C runtime: which sanitizer tools are on for the running block, for the layers
// above aicore that check accesses of their own (simt's race checker between threads).
#pragma once

#include <cstdint>

namespace lngrad::aicore::san {

// The tools on for the running block (Tool bits of sanitizer.h; 0 outside a block or with none).
uint32_t ActiveTools() noexcept;

}  // namespace lngrad::aicore::san
