// lngrad: the reduce patterns of the high-level reduce APIs (the vendor's
// adv_api/reduce/reduce_common.h): tag types naming which axes of the source are reduced (R) and
// which are kept (A), outermost first. The 2201 and 3510 implementations take AR and RA only.
#pragma once

namespace AscendC {
namespace Pattern {
namespace Reduce {

#define LNGRAD_REDUCE_PATTERN(Name, dims)   \
  struct Name {                             \
    static constexpr unsigned kDims = dims; \
  };
LNGRAD_REDUCE_PATTERN(R, 1)
LNGRAD_REDUCE_PATTERN(RA, 2)
LNGRAD_REDUCE_PATTERN(AR, 2)
LNGRAD_REDUCE_PATTERN(ARA, 3)
LNGRAD_REDUCE_PATTERN(ARAR, 4)
LNGRAD_REDUCE_PATTERN(ARARA, 5)
LNGRAD_REDUCE_PATTERN(ARARAR, 6)
LNGRAD_REDUCE_PATTERN(ARARARA, 7)
LNGRAD_REDUCE_PATTERN(ARARARAR, 8)
LNGRAD_REDUCE_PATTERN(ARARARARA, 9)
LNGRAD_REDUCE_PATTERN(RAR, 3)
LNGRAD_REDUCE_PATTERN(RARA, 4)
LNGRAD_REDUCE_PATTERN(RARAR, 5)
LNGRAD_REDUCE_PATTERN(RARARA, 6)
LNGRAD_REDUCE_PATTERN(RARARAR, 7)
LNGRAD_REDUCE_PATTERN(RARARARA, 8)
#undef LNGRAD_REDUCE_PATTERN

}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC
