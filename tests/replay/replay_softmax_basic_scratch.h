// lngrad_replay: what SoftMax with statistics and isBasicBlock (SoftMaxBasicBlock; also the
// constant-shape config whose shape passes the basic-block test) and SimpleSoftMax with half data
// leave in their work buffer, dst and statistics on arch 2201. A separate reading, by the helper
// who then made lngrad follow it (sbb, session 20), of the toolkit's
// impl/adv_api/detail/activation/softmax/: membase/common/softmax_impl/softmax_basic_block_impl.h
// (the three SoftMaxBasicBlock overloads: Cast, BasicBlockMaxImpl / BlockReduceMax, the second
// BlockReduceMax over ceil(splitM / 8) groups, 2201's Brcbs, the half statistics' Cast of
// ceil(reduceSize / 64) repeats, the Sub / Div block strides, Exp over splitSize),
// softmax_common/softmax_common_arithmetic.h (BasicBlockMaxImpl, BasicBlockAddImpl: chunk 0 op
// chunk 1, then op(acc, chunk) when splitM > splitBlock, else op(chunk, acc) row by row;
// GenericSubNDImpl / GenericDivNDImpl), membase/v220/softmax_impl.h (SoftMaxNDImpl: the config's
// localIsBasicBlock), membase/common/simple_softmax_common_impl.h (SimpleSoftMaxBasicBlock and
// SimpleSoftMaxGenericNDImpl for half data with half or float statistics, SimpleSoftMaxNDImpl's
// split loop; 2201's Exp over tiling.splitSize in the half-with-float-statistics generic form),
// softmax_common/softmax_common_utils.h (the constants). Written before comparing with lngrad;
// no code shared with src/ or include/. The lane reductions of BlockReduceMax take the first NaN
// lane, else the first lane holding the maximum (the instruction as the session-19 replay
// SmxKitRowMax takes it); a binary Max is `a > b ? a : b` in the source's operand order.
// Session 23 (sx, who also changed lngrad's SimpleHalfPrepare after it): SimpleSoftMaxGeneric-
// NDImpl's config branches re-read for ReplaySimpleSoftMaxHalfWork's cfg form. Session 23 (sx2,
// who also changed lngrad's SimpleRows after it): the default form's GenericSub/DivNDImpl row
// stride re-read (2002's half-data overload with float statistics: 8) and the float overload
// (ReplaySimpleSoftMaxFloat). Session 24 (sbb, who also changed lngrad's SimpleHalfPrepare and
// SimpleSoftMax after it): SimpleSoftMaxBasicBlock's uint8_t casts re-read (its counts past 255
// wrap: ReplaySimpleSoftMaxHalfWork's basic form follows them). Session 25 (sbw, who also changed
// lngrad's SimpleBasicRowsMembase and SimpleHalfPrepare after it): the basic form's Sub and Div
// loops re-read for splitK not a multiple of 64 (splitK / 64 whole chunks a row).
#pragma once

#include <cstdint>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {

// SoftMaxBasicBlock over the tiling's rangeM full splits (no tail split). T = float or Half; S =
// T, or float with T = Half. work: the bytes from the work buffer's start (before the call,
// updated in place): the buffer and, where the sequence reaches past its end, the UB bytes after
// it, which the device writes as it writes the buffer (SoftMaxBasicWorkReach); dst: dstLen
// elements (what it held, updated); sum/max: statLen elements each (updated; the float
// statistics' Brcb writes 8 * ceil(splitM / 8) rows, the half statistics' Cast
// ceil(reduceSize / 64) * 64 halves, per split). False, nothing changed, where the sequence is
// outside what this replay covers: splitK not a whole number of 64-float chunks, a count the
// kit casts to uint8_t past 255, a write past `work`, dstLen or statLen.
template <class T, class S>
bool ReplaySoftMaxBasicWork(const SmxTiling& t, const T* src, T* dst, uint64_t dstLen, S* sum,
                            S* max, uint64_t statLen, std::vector<uint8_t>& work);

// The floats from the work buffer's start that SoftMaxBasicBlock's splits write (0 without a
// split): half data its float copy of the split (splitSize floats), then tmpBuffer1 (64 a row)
// and the group results (8 a group of 8 rows); half statistics also the two Brcbs' 128 floats a
// group from tmpBuffer1 (with one row, 48 past the group results: past the buffer for the
// one-row minimum of GetSoftMaxMinTmpSize, splitSize + 80 floats).
uint64_t SoftMaxBasicWorkReach(const SmxTiling& t, bool halfData, bool halfStat);

// SimpleSoftMax with half data (S = Half or float statistics): basic — SimpleSoftMaxBasicBlock's
// rangeM full splits; else SimpleSoftMaxNDImpl's loop (rangeM splits, then the tail). inSum /
// inMax: statLen elements (the half basic form's Cast reads ceil(reduceSize / 64) * 64 of them
// per split). False, nothing changed, where not covered (the generic form's splitK not a
// multiple of 16, the basic form's splitSize not splitM * splitK, a read or write past `work`, a
// read past statLen). The basic form's counts are the kit's uint8_t casts: past 255 they wrap
// (fewer repeats, a smaller row stride), the Sub and Div then reading what `work` holds where no
// Cast wrote, dst keeping what it held past the Cast's repeats. v200: 2002 (basic, or cfg; session
// 22: SimpleSoftMaxBasicBlock is membase/common's, dst's Cast FLOAT2HALF_ROUND_MODE rounds to
// nearest even there). cfg (session 23, sx): the generic loop's constant-shape config form
// (SimpleSoftMaxGenericNDImpl with config.oriSrcM and oriSrcK set, the same on 2201 and 2002): the
// Sub and Div read row r's statistics at 16 r of the half statistics' float copy (curSplitM *
// reduceK floats cast from i * reduceSize; rows past that copy read what the buffer held) or at 8 r
// of the float statistics, whatever the tiling's reduceK.
template <class S>
bool ReplaySimpleSoftMaxHalfWork(const SmxTiling& t, bool basic, bool v200, const Half* src,
                                 Half* dst, const S* inSum, const S* inMax, uint64_t statLen,
                                 std::vector<uint8_t>& work, bool cfg = false);

// SimpleSoftMax with float data and the default config (SimpleSoftMaxGenericNDImpl's float
// overload, one pass over srcM rows, the same on 2201 and 2002): row r, column c gets
// exp(x - inMax[r * reduceK + c % 8]) / inSum[r * reduceK + c % 8], whatever the statistics'
// 32-byte rows (a tiling made for half statistics, reduceK 16, reads row 2 r's). dst: srcM * srcK
// floats. False where a read passes statLen.
bool ReplaySimpleSoftMaxFloat(const SmxTiling& t, const float* src, float* dst, const float* inSum,
                              const float* inMax, uint64_t statLen);

}  // namespace lngrad_replay
