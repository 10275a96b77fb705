// lngrad: the SoftMax family's generic ND loops on 2002 (membase/v200): where their results differ
// from 2201's, and (below) what they leave in the work buffer.
//
// Results: SoftMax's generic loop (SingleSoftMaxImpl without statistics, SoftMaxGenericNDImpl
// with them) ends on 2002 with TransDivToMulImpl, not GenericDivNDImpl: Duplicate 1.0 and a Div
// give the row's reciprocal 1 / sum (one rounding), and the Mul x * (1 / sum) a second; and its
// SingleSoftMaxImpl has no isReuseSource branch, so src is only read. LogSoftMax and the
// basic-block path keep the Div.
#pragma once

#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

// Whether SoftMax's generic quotients are x * (1 / sum) (2002), not x / sum.
inline bool V200Reciprocal() { return detail::rep::RunningArch() == NpuArch::k2002; }

// Whether the float SoftMax without statistics writes exp(x - max) into src for isReuseSource
// (membase/v220's SingleSoftMaxImpl; not membase/v200's).
inline bool ReusesSource() { return detail::rep::RunningArch() != NpuArch::k2002; }

}  // namespace lngrad::aicore::softmax_detail
