// lngrad: the device's numbers, in unchecked mode, for the splits the 2201 generic ND loops
// compute wrongly (softmax_v200_work.h V220Defect; checked mode refuses them before anything is
// written, CheckV220Defect, softmax_device_defect).
//
// The 2201 row reductions (membase/v220/softmax_common_impl/softmax_common_nd_reduce.h
// NewReduce{Max,Sum}LastNDImpl) pass uint8_t operands that wrap: the [128, 512) branch's first
// Max/Add takes (uint8_t)originalSrcM repeats and a repeat stride of (uint8_t)(srcK / 8) blocks,
// as does NextBlock*Impl (softmax_common_arithmetic.h) when the split has more rows than chunks;
// BigBlockReduce* (softmax_common_reduce.h) adds (uint8_t)(oriSrcK / 64 - 8) chunks after its
// first 8. Those are 2002's operands (softmax_v200_work.h V200Acc follows them); 2201 differs
// only in the [64, 128) branch (FirstBlockCopyImpl is a Copy, uint16_t strides: never wrong),
// which V220Acc takes as that Copy (softmax_v200_work.h NdAcc). From the accumulators on, the 2201
// sequence is the one softmax_work.h models (BasicBlockReduce*Impl, AlignedBroadCastImpl; the Sub
// with each row's max, Exp, the sum pass, GenericDivNDImpl; LogSoftMax's Ln and Muls), so
// SoftMaxWorkV220 runs SoftMaxWork with V220Acc's accumulators: the work buffer, and the rows' max,
// exponentials and sum (RowExps) that SoftMaxRows turns into dst and the statistics. Callers:
// SoftMax (both overloads), LogSoftMax, SoftmaxFlash without update.
//
// Reads of a wrapped operand land inside the split's rows (the stride is at most srcK), except
// that rows from splitM mod 256 on (splits of more than 255 rows, oriSrcK in [128, 512): not
// reachable in 192 KiB of UB) keep what the simulated UB holds in the accumulators (the
// buffer's bytes, or the previous pass's).
//
// SoftmaxFlashV2's generic loop: softmax_flashv2_v220_device.h (V220Pass on V220Acc); its
// WITHOUT_BRC loop: softmax_flashv2_nobrc_device.h (M1ReduceRows on V220Acc, session 25). Not
// followed (still lngrad's rows unchecked): SoftmaxFlashV3, and the constant-shape config paths
// with splitK below srcK (ConfigRows, FlashV2ConfigSplits).
#pragma once

#include <cstdint>

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax_v200_work.h"
#include "lib/activation/softmax_work.h"

namespace lngrad::aicore::softmax_detail {

// The accumulators A[64 r + l] of a split of m rows (x: rows of stride k; oriK >= 64) on 2201
// with the kit's uint8_t operands as they wrap: from oriK 128 the 2002 steps' (the same
// instructions), below it FirstBlockCopyImpl's Copy (softmax_v200_work.h NdAcc, in the kit's
// order: x and a may overlap).
inline void V220Acc(WorkOp op, const float* x, uint32_t k, uint32_t m, uint32_t oriK, float* a) {
  NdAcc(true, op, x, k, m, oriK, a);
}

// SoftMaxWork (same arguments) that, in unchecked mode on 2201 for a tiling V220Defect names,
// follows the device's wrapped reductions (header): the buffer as the device leaves it and pre
// (RowExps, required for that) the device's rows. pre's redK set (the config's reductions): not
// followed (SoftMaxWork as it stands).
template <typename T, typename U>
bool SoftMaxWorkV220(const char* api, SrcLoc loc, const AscendC::tiling::SoftMaxTiling& t,
                     const Dims& d, const AscendC::LocalTensor<T>& srcT,
                     const AscendC::LocalTensor<U>* sumT, const AscendC::LocalTensor<U>* maxT,
                     const AscendC::LocalTensor<uint8_t>& tmp, bool log, RowExps* pre) {
  const bool device = pre != nullptr && pre->redK == 0 && !CheckedMode() &&
                      detail::rep::RunningArch() == NpuArch::k2201 && t.splitM != 0 &&
                      d.oriK != 0 && t.splitK == d.k && !V220Defect(t, d).empty();
  return SoftMaxWork<T, U>(api, loc, t, d, srcT, sumT, maxT, tmp, log, pre,
                           device ? &V220Acc : nullptr);
}

}  // namespace lngrad::aicore::softmax_detail
