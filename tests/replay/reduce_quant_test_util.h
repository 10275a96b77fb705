// What reduce_quant_replay_test's two files share: the one-block launcher of the aicore tests,
// the product they run on and the bits of an element.
#pragma once

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "replay.h"
#include "replay_reduce_quant.h"

namespace lngrad_replay::testing {

using lngrad::aicore::test::Bits;
using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;

inline constexpr const char* k910B = "Ascend910B1";

}  // namespace lngrad_replay::testing
