// Out-of-line checks of the kernel API's vector instructions (vector_ops.h).
#include "lngrad_aicore/vector_ops.h"

#include <string>

namespace lngrad::aicore::detail {

void CheckCastMode(const char* pair, uint32_t allowed, AscendC::RoundMode mode) {
  if ((allowed >> static_cast<int>(mode)) & 1u) return;
  std::string list;
  for (int m = 0; m <= static_cast<int>(AscendC::RoundMode::CAST_ODD); ++m) {
    if (((allowed >> m) & 1u) == 0) continue;
    if (!list.empty()) list += ", ";
    list += RoundModeName(static_cast<AscendC::RoundMode>(m));
  }
  RaiseKernelCheck(checks::kCastRoundMode,
                   std::string("Cast ") + pair + ": roundMode " + RoundModeName(mode) +
                       " is not in the vendor's Cast table for this pair (allowed: " + list + ")");
}

}  // namespace lngrad::aicore::detail
