// lngrad: what SoftMax with statistics and isBasicBlock (membase/common/softmax_impl/
// softmax_basic_block_impl.h SoftMaxBasicBlock, its __NPU_ARCH__ == 2002 branches) leaves on 2002
// in its work buffer, dst and statistics (sharedTmpBuffer, or the stack buffer the overload
// without one pops).
//
// The steps are 2201's (softmax_basic_work.h: per full split the Cast of half data, the
// reductions into t1 and the group results g, Sub, Exp, Div, the half statistics' Cast of
// ceil(reduceSize / 64) repeats of t1) but each broadcast of g is AlignedBrcbImpl, group by group:
// it reads group j's 8 values g[8 j, 8 j + 8) as scalars, then Duplicates value b over brcbCount
// floats at brcbCount b. Float statistics (brcbCount 8, into the statistics tensor at 64 j) store
// what 2201's Brcb does. Half statistics (brcbCount 16, into t1[128 j]): row r's 16 lanes all hold
// its value; with one row g lies at t1 + 64, inside the group's 128 floats, which the scalar reads
// precede (2201's second Brcb reads what its first wrote there).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "lib/activation/softmax_basic_work.h"
#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

// SoftMaxBasicPrepare on 2002 (t: the tiling the kernel runs): the same checks (stores past
// sumTensor or maxTensor refused in checked mode), SoftMaxBasicSeq's splits with 2002's
// broadcasts; empty where not modelled (the buffer stays marked, also where the splits reach
// past it). SoftMaxBasicStore stores what it computed.
template <typename T, typename U>
std::optional<SoftMaxBasicLeave<T, U>> SoftMaxBasicPrepareV200(
    const char* api, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
    const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
    const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<T>& src,
    const AscendC::LocalTensor<uint8_t>& tmp) {
  if (detail::rep::RunningArch() != NpuArch::k2002 || t.srcK != d.k || t.splitK != d.k ||
      d.k % kLanes != 0) {
    return std::nullopt;
  }
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{t.rangeM} * t.splitSize;
  namespace md = math_detail;
  CheckRows(api, {md::Op(dst, "dstTensor"), md::Op(src, "srcTensor")}, {n, n});
  const SoftMaxBasicSeq<T, U> seq(t);
  const uint64_t se = seq.StatEnd();
  CheckRows(api, {md::Op(sum, "sumTensor"), md::Op(max, "maxTensor")}, {se, se});
  SoftMaxBasicLeave<T, U> out{BasicImage(tmp), {}, {}, {}};
  if (tmp.HostPtr() == nullptr || !seq.Covered() || seq.Reach() > out.work.Floats() ||
      n * sizeof(T) > dst.View().size_bytes || n * sizeof(T) > src.View().size_bytes ||
      se * sizeof(U) > sum.View().size_bytes || se * sizeof(U) > max.View().size_bytes) {
    return std::nullopt;
  }
  out.dst.assign(dst.HostPtr(), dst.HostPtr() + n);
  out.sum.assign(sum.HostPtr(), sum.HostPtr() + se);
  out.max.assign(max.HostPtr(), max.HostPtr() + se);
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    seq.Split(i, out.work, src.HostPtr(), out.dst.data(), out.sum.data(), out.max.data());
  }
  return out;
}

}  // namespace lngrad::aicore::softmax_detail
