// lngrad: the SoftMax family's generic ND loops on 2002 (membase/v200): where their results differ
// from 2201's, and (below) what they leave in the work buffer.
//
// Results: SoftMax's generic loop (SingleSoftMaxImpl without statistics, SoftMaxGenericNDImpl
// with them) ends on 2002 with TransDivToMulImpl, not GenericDivNDImpl: Duplicate 1.0 and a Div
// give the row's reciprocal 1 / sum (one rounding), and the Mul x * (1 / sum) a second; and its
// SingleSoftMaxImpl has no isReuseSource branch, so src is only read. LogSoftMax and the
// basic-block path keep the Div.
//
// Work buffer (SoftMaxWorkV200; SimpleSoftMaxWorkV200 for SimpleSoftMax<half>): each split runs
// over the buffer in place. Where the pieces lie: as 2201 (softmax_work.h WorkLayoutOf: half
// data's float copy at 0, the statistics block (no statistics tensors, or half ones) of
// [splitM, reduceK] floats, then the 64-lane accumulators A). A reduction pass (the max, then the
// sum over the exponentials) on 2002 (membase/v200 NewReduce{Max,Sum}LastNDImpl):
// - oriK < 64: one masked WholeReduce per row, broadcast over the row's reduceK lanes (A not
//   touched);
// - else A[64 r + l] as on 2201 (softmax_work.h WorkLanes; [64, 128): FirstBlockCopyImpl's
//   Adds 0, so -0 lanes are +0; V200Acc: the kit's uint8_t operands as they wrap), then one row:
//   WholeReduce of its lanes, Duplicate over reduceK; more rows (BasicBlockReduce*Impl):
//   BlockReduce in place (A[8 r + b] the block extremes or sums of row r), a second BlockReduce
//   into the block's first m floats, BroadCastNDImpl over A[0, 128 ceil(m / 8)): the Muls by 1.0 of
//   the block's first 8 ceil(m / 8) floats (those past m are what the block held: the statistics'
//   bytes, or the previous pass's) and the in-place TransDataTo5HD, which leaves float j of each
//   group of 8 at A[128 g + 16 j, + 16) [inference: the 32-bit layout is documented only by a
//   figure; the kit's Adds reads row j's value at 16 j, which only that layout gives]; then Adds 0
//   from A into the block (reduceK 8: block r from A's block 2 r; 16: the first 16 m floats).
// SoftMax then writes 1 / sum over A[0, m reduceK) (TransDivToMulImpl's Duplicate and Div);
// LogSoftMax divides (A keeps the sum's pass). Half data leaves the split's final floats in its
// copy. Later splits overwrite the start of what earlier ones left.
//
// Shapes the device computes wrongly (V200Defect: splits of more than 255 rows with oriSrcK in
// [128, 512), srcK / 8 above 255 with oriSrcK in [64, 512) and splits of several rows, oriSrcK
// from 16896): checked mode refuses them (softmax_device_defect) before anything is written;
// unchecked, the steps above with the wrapped operands give the results too (V200Device,
// V200Store), rows the steps skip reducing what the simulated UB holds in A. SoftmaxFlash
// without update runs this (SoftMaxNDImpl) the same way; SoftmaxFlashV2's generic loop and its
// config path run the same reductions: refused in checked mode (CheckFlashV2V200Defect; the config
// path's, at the config's row stride cfgK, CheckConfigDefect); unchecked both follow the device
// (FlashV2DeviceV200, V200Store; the config path with cfgK below srcK as well); every split's
// work buffer, wrapping or not: softmax_flashv2_v200_work.h. The 2201
// reductions wrap the same way but for oriSrcK in [64, 128) (V220Defect, one rule with
// NdReduceDefect): refused in checked mode (CheckV220Defect; SoftMax's and SoftmaxFlashV2's
// constant-shape config paths CheckConfigDefect); unchecked, SoftMax, LogSoftMax and SoftmaxFlash
// without update follow the device (softmax_v220_device.h), so do SoftmaxFlashV2's generic loop
// (softmax_flashv2_v220_device.h, through FlashV2DeviceOn below) and its WITHOUT_BRC loop
// (softmax_flashv2_nobrc_device.h, session 25); SoftmaxFlashV3 and SoftMax's config path not
// (open).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <type_traits>
#include <vector>

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax_work.h"

namespace lngrad::aicore::softmax_detail {

// Whether SoftMax's generic quotients are x * (1 / sum) (2002), not x / sum.
inline bool V200Reciprocal() { return detail::rep::RunningArch() == NpuArch::k2002; }

// Whether the float SoftMax without statistics writes exp(x - max) into src for isReuseSource
// (membase/v220's SingleSoftMaxImpl; not membase/v200's).
inline bool ReusesSource() { return detail::rep::RunningArch() != NpuArch::k2002; }

// The accumulators A[64 r + l] of a split of m rows (x: rows of stride k; oriK >= 64) as the
// kit's steps write them, their uint8_t operands included: the steps that take a row a repeat
// (the first Max/Add of chunks 0 and 1, NextBlock*Impl's repeats over the rows, 2002's
// FirstBlockCopyImpl Adds) read row r at r * step, step = 8 ((k / 8) mod 256) floats; where oriK
// is in [128, 512) the first Max/Add and NextBlock*Impl run m mod 256 rows (the rows past them
// keep what A held: the buffer's bytes or the previous pass's); BigBlockReduce*'s repeats after
// its first 8 chunks are (oriK / 64 - 8) mod 256. Tail*Impl adds the tail of every row at r * k.
// copy: [64, 128) takes 2201's FirstBlockCopyImpl (a Copy, uint16_t strides: row r at r * k), not
// 2002's Adds 0 (-0 lanes become +0). Each instruction in the kit's order, repeat by repeat and a
// repeat's elements in increasing order (a BlockReduce's repeat read before it is written), so x
// and a may overlap (SoftmaxFlashV2's WITHOUT_BRC work buffer inside half data's float copy).
inline void NdAcc(bool copy, WorkOp op, const float* x, uint32_t k, uint32_t m, uint32_t oriK,
                  float* a) {
  const uint32_t chunks = oriK / kLanes, tail = oriK % kLanes;
  const uint64_t step = uint64_t{(k / 8) & 255u} * 8;
  if (oriK >= 8 * kLanes) {
    // BigBlockReduce*: BlockReduce (8 repeats a row, the lane rule as lngrad runs it), then
    // Op(chunk, acc) for the chunks after the first 8.
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t q = 0; q < 8; ++q) {
        float b[8];
        for (uint32_t j = 0; j < 8; ++j)
          b[j] = WorkBlock(op, x + uint64_t{r} * k + 8 * (8 * q + j));
        std::copy(b, b + 8, a + uint64_t{r} * kLanes + 8 * q);
      }
    }
    const uint32_t last = 8 + ((chunks - 8) & 255u);
    for (uint32_t r = 0; r < m; ++r) {
      const float* row = x + uint64_t{r} * k;
      float* acc = a + uint64_t{r} * kLanes;
      for (uint32_t c = 8; c < last; ++c) {
        for (uint32_t l = 0; l < kLanes; ++l) acc[l] = WorkApply(op, row[c * kLanes + l], acc[l]);
      }
    }
  } else if (oriK >= 2 * kLanes) {
    const uint32_t mw = m & 255u;
    for (uint32_t r = 0; r < mw; ++r) {  // Op(chunk 0, chunk 1)
      for (uint32_t l = 0; l < kLanes; ++l) {
        a[r * kLanes + l] = WorkApply(op, x[r * step + l], x[r * step + kLanes + l]);
      }
    }
    if (mw > chunks) {  // NextBlock*Impl: a chunk's repeats over the rows
      for (uint32_t c = 2; c < chunks; ++c) {
        for (uint32_t r = 0; r < mw; ++r) {
          for (uint32_t l = 0; l < kLanes; ++l) {
            float& acc = a[r * kLanes + l];
            acc = WorkApply(op, acc, x[r * step + c * kLanes + l]);
          }
        }
      }
    } else {  // a row's repeats over its chunks
      for (uint32_t r = 0; r < mw; ++r) {
        for (uint32_t c = 2; c < chunks; ++c) {
          for (uint32_t l = 0; l < kLanes; ++l) {
            float& acc = a[r * kLanes + l];
            acc = WorkApply(op, x[uint64_t{r} * k + c * kLanes + l], acc);
          }
        }
      }
    }
  } else {  // FirstBlockCopyImpl
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t l = 0; l < kLanes; ++l) {
        a[r * kLanes + l] = copy ? x[uint64_t{r} * k + l] : x[r * step + l] + 0.0f;
      }
    }
  }
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t l = 0; l < tail; ++l) {
      float& acc = a[uint64_t{r} * kLanes + l];
      acc = WorkApply(op, acc, x[uint64_t{r} * k + chunks * kLanes + l]);
    }
  }
}

// The 2002 steps' accumulators (membase/v200 NewReduce{Max,Sum}LastNDImpl): NdAcc with
// FirstBlockCopyImpl's Adds.
inline void V200Acc(WorkOp op, const float* x, uint32_t k, uint32_t m, uint32_t oriK, float* a) {
  NdAcc(false, op, x, k, m, oriK, a);
}

// One reduction pass of a split of m rows (x: rows of stride k, oriK reduced) over the statistics
// block st (dstK floats a row) and the accumulators a; hw: how far into a the pass wrote.
inline void V200Pass(WorkOp op, const float* x, uint32_t k, uint32_t m, uint32_t oriK,
                     uint32_t dstK, float* st, float* a, uint64_t& hw) {
  const auto lanes = [op](const float* v, uint32_t n) {
    return op == WorkOp::kSum ? ScalarTree64(v, n) : LaneMax(v, n);
  };
  if (oriK < kLanes) {
    for (uint32_t r = 0; r < m; ++r) {
      const float v = lanes(x + uint64_t{r} * k, oriK);
      std::fill(st + uint64_t{r} * dstK, st + uint64_t{r} * dstK + dstK, v);
    }
    return;
  }
  V200Acc(op, x, k, m, oriK, a);
  // The rows the steps wrote (the skipped ones keep their bytes unless a tail is added), then
  // the block reductions' 8 m floats and the broadcast's 128 ceil(m / 8).
  const bool skips = oriK >= 2 * kLanes && oriK < 8 * kLanes && m > 255 && oriK % kLanes == 0;
  hw = std::max<uint64_t>(hw, uint64_t{skips ? m & 255u : m} * kLanes);
  if (m == 1) {
    std::fill(st, st + dstK, lanes(a, kLanes));
    return;
  }
  hw = std::max<uint64_t>(hw, (uint64_t{m} + 7) / 8 * 128);
  for (uint32_t r = 0; r < m; ++r) {  // BlockReduce in place, row by row
    float b[8];
    for (uint32_t q = 0; q < 8; ++q) {
      b[q] = op == WorkOp::kSum ? Tree8(a + uint64_t{r} * kLanes + 8 * q)
                                : LaneMax(a + uint64_t{r} * kLanes + 8 * q, 8);
    }
    std::copy(b, b + 8, a + uint64_t{r} * 8);
  }
  for (uint32_t r = 0; r < m; ++r) {
    st[r] = op == WorkOp::kSum ? Tree8(a + uint64_t{r} * 8) : LaneMax(a + uint64_t{r} * 8, 8);
  }
  const uint32_t groups = (m + 7) / 8;
  for (uint32_t g = 0; g < groups; ++g) {  // BroadCastNDImpl: Muls 1.0, TransDataTo5HD
    for (uint32_t j = 0; j < 8; ++j) {
      const float v = st[8 * g + j] * 1.0f;
      std::fill(a + 128 * g + 16 * j, a + 128 * g + 16 * j + 16, v);
    }
  }
  for (uint32_t r = 0; r < m; ++r) {  // Adds 0
    const float* from = a + (dstK == 8 ? 16 * uint64_t{r} : uint64_t{r} * dstK);
    for (uint32_t e = 0; e < dstK; ++e) st[uint64_t{r} * dstK + e] = from[e] + 0.0f;
  }
}

// Why NewReduce{Max,Sum}LastNDImpl get the splits of t wrong on the device (their uint8_t
// operands wrap); empty when they do not. One rule for both arches, their thresholds apart:
// strideFrom, the oriSrcK from which the repeat stride srcK / 8 is a uint8_t operand (2002: 64,
// its FirstBlockCopyImpl's Adds take it; 2201: 128, its FirstBlockCopyImpl is a Copy whose
// strides are uint16_t, 255 rows a repeat). The rest is common (softmax_common_arithmetic.h
// NextBlock*Impl, softmax_common_reduce.h BigBlockReduce*, and the first Max/Add of the
// [128, 512) branch in either arch's softmax_common_nd_reduce / softmax_common_impl).
inline std::string NdReduceDefect(const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                                  uint32_t strideFrom) {
  const std::string ms = std::to_string(t.splitM);
  if (d.oriK >= 2 * kLanes && d.oriK < 8 * kLanes && t.splitM > 255) {
    return "NewReduce{Max,Sum}LastNDImpl run their first Max/Add and NextBlock*Impl with a " +
           std::string("uint8_t repeat count (") + ms +
           " mod 256 = " + std::to_string(t.splitM & 255u) +
           " rows), so the later rows of a split take " +
           "their max and sum from what the work buffer held; give a work buffer (tiling) of " +
           "at most 255 rows a split";
  }
  if (d.oriK >= strideFrom && d.oriK < 8 * kLanes && d.k / 8 > 255 && t.splitM > 1) {
    return "srcK / 8 = " + std::to_string(d.k / 8) + " blocks is the uint8_t repeat stride of " +
           (d.oriK < 2 * kLanes ? "FirstBlockCopyImpl's Adds" : "the first Max/Add") +
           " in NewReduce{Max,Sum}LastNDImpl (" + std::to_string((d.k / 8) & 255u) +
           " here), so rows after a split's first read other rows' values; pad the rows to at " +
           "most 2040 elements, or call it one row at a time";
  }
  if (d.oriK >= (8 + 256) * kLanes) {
    return "oriSrcK / 64 - 8 = " + std::to_string(d.oriK / kLanes - 8) +
           " is BigBlockReduce{Max,Sum}'s uint8_t repeat count (" +
           std::to_string((d.oriK / kLanes - 8) & 255u) + " here), so only the first " +
           std::to_string((8 + ((d.oriK / kLanes - 8) & 255u)) * kLanes) + " columns and the " +
           "last oriSrcK % 64 are reduced; reduce at most " +
           std::to_string((8 + 256) * kLanes - 1) + " columns";
  }
  return {};
}

// The 2002 reductions (membase/v200 NewReduce{Max,Sum}LastNDImpl; V200Acc follows them).
inline std::string V200Defect(const AscendC::tiling::SoftMaxTiling& t, const Dims& d) {
  return NdReduceDefect(t, d, kLanes);
}

// The 2201 reductions (membase/v220/softmax_common_impl/softmax_common_nd_reduce.h). Reachable
// with 192 KiB of UB: the stride (srcK from 2048, oriSrcK in [128, 512), two rows a split: 16 KiB
// of float source) and BigBlockReduce's count (oriSrcK from 16896: one float row is 66 KiB).
// Splits of 256 rows with oriSrcK in [128, 512) are not: src alone is 128 KiB (float, srcK >=
// 128; half data needs the float copy of the split as well) and the split's accumulators 64 KiB,
// with statistics (8 KiB in the buffer, or 16 KiB of tensors) past 192 KiB.
inline std::string V220Defect(const AscendC::tiling::SoftMaxTiling& t, const Dims& d) {
  return NdReduceDefect(t, d, 2 * kLanes);
}

// Checked mode on arch (2002 or 2201): refuses a call of api whose generic loop reduces the
// kernel tiling t's splits with NewReduce{Max,Sum}LastNDImpl over ReduceLastND {splitM, oriSrcK,
// splitM, srcK, ...} (srcK: cfgK, or t.splitK where cfgK is 0; the tail split: tailM rows, fewer)
// that the arch's rule names (softmax_device_defect), before anything is written. generic: the
// call takes that loop.
inline void CheckNdReduceDefect(const char* api, NpuArch arch, bool generic,
                                const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                                uint32_t cfgK = 0) {
  if (!generic || !CheckedMode() || detail::rep::RunningArch() != arch) return;
  const uint32_t srcK = cfgK != 0 ? cfgK : t.splitK;
  if (t.splitM == 0 || srcK == 0 || d.oriK == 0) return;
  const Dims run{d.m, srcK, d.oriK};
  const bool v200 = arch == NpuArch::k2002;
  const std::string defect = v200 ? V200Defect(t, run) : V220Defect(t, run);
  if (defect.empty()) return;
  RaiseKernelCheck(
      checks::kSoftmaxDeviceDefect,
      std::string(api) + ": srcShape {" + std::to_string(d.m) + ", " + std::to_string(d.k) +
          "}, oriSrcK " + std::to_string(d.oriK) +
          (cfgK != 0 ? " (config, rows reduced at a stride of " + std::to_string(cfgK) + ")" : "") +
          " with splits of " + std::to_string(t.splitM) + " rows (splitK " +
          std::to_string(t.splitK) + ") is computed wrongly by the device's " +
          (v200 ? "2002" : "2201") + " generic sequence: " + defect);
}

// SoftmaxFlashV2's generic split loop on 2002 (membase/common/softmax_flashv2_impl/
// softmax_flashv2_{no_update,update}_impl.h) reduces each split with NewReduce{Max,Sum}LastNDImpl
// over ReduceLastND {splitM, oriSrcK, splitM, srcK, reduceM, reduceK} (the tail split: tailM
// rows), SoftMax's operands with srcK = splitK: CheckNdReduceDefect. generic: the call takes
// those reductions (not isBasicBlock or the M1 mode; the constant-shape config's path:
// CheckConfigDefect).
inline void CheckFlashV2V200Defect(bool generic, const AscendC::tiling::SoftMaxTiling& t,
                                   const Dims& d) {
  CheckNdReduceDefect("SoftmaxFlashV2", NpuArch::k2002, generic, t, d);
}

// The 2201 generic loops (SoftMax, LogSoftMax, SoftmaxFlashV2's generic and WITHOUT_BRC loops,
// SoftmaxFlashV3): CheckNdReduceDefect with V220Defect. Unchecked, SoftMax, LogSoftMax and
// SoftmaxFlash without update follow the device's wrapped sequence (softmax_v220_device.h
// SoftMaxWorkV220), as does SoftmaxFlashV2's generic loop (softmax_flashv2_v220_device.h
// FlashV2WorkV220) and its WITHOUT_BRC loop (softmax_flashv2_nobrc_device.h FlashV2M1Device);
// SoftmaxFlashV3 keeps lngrad's rows (open).
inline void CheckV220Defect(const char* api, bool generic, const AscendC::tiling::SoftMaxTiling& t,
                            const Dims& d, uint32_t cfgK = 0) {
  CheckNdReduceDefect(api, NpuArch::k2201, generic, t, d, cfgK);
}

// The constant-shape config's generic path (config {cfgM, cfgOriK} set, not its basic block):
// SoftMax's on 2201 (membase/v220 softmax_impl.h SoftMaxNDImpl, SingleSoftMaxImpl's loop) and
// SoftmaxFlashV2's on 2201 and 2002 (with2002; membase/common softmax_flashv2_common_impl.h
// SoftmaxFlashV2NoUpdate, SoftmaxFlashV2NDImpl) reduce with ReduceLastND {splitM, cfgOriK, splitM,
// cfgK, reduceM, 32 B}, cfgK = cfgOriK rounded up to 8, whether cfgK is srcK (the generic rows)
// or below it (softmax.h ConfigRows, softmaxflashv2.h FlashV2ConfigSplits). cfgK stays below 512
// where cfgOriK is in [128, 512), so only splits of more than 255 rows there and cfgOriK from
// 16896 wrap: refused in checked mode before anything is written, ahead of the config's other
// refusals (a cfgK below srcK names the rows it mixes, not these wraps). t: the kernel's tiling.
inline void CheckConfigDefect(const char* api, bool with2002, bool generic,
                              const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                              uint32_t cfgOriK) {
  const Dims cfgD{d.m, d.k, cfgOriK};
  const uint32_t cfgK = (cfgOriK + 7) / 8 * 8;
  CheckNdReduceDefect(api, NpuArch::k2201, generic, t, cfgD, cfgK);
  if (with2002) CheckNdReduceDefect(api, NpuArch::k2002, generic, t, cfgD, cfgK);
}

// The device's results of a call V200Defect names, as SoftMaxWorkV200 computes them (unchecked
// mode): dst's float values and the statistics blocks, (offset, values) per split; V200Store
// writes them over SoftMaxRows's.
struct V200Device {
  using Runs = std::vector<std::pair<uint64_t, std::vector<float>>>;
  bool set = false;
  Runs dst, max, sum;
  Runs expMax;  // SoftmaxFlashV2's update (FlashV2DeviceV200)
};

template <typename T, typename U>
void V200Store(const V200Device& dev, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<U>* sum, const AscendC::LocalTensor<U>* max,
               const AscendC::LocalTensor<T>* expMax = nullptr) {
  if (!dev.set) return;
  for (const auto& [at, v] : dev.dst) StoreRow(dst.HostPtr() + at, v);
  for (const auto& [at, v] : dev.expMax) StoreRow(expMax->HostPtr() + at, v);
  for (size_t i = 0; sum != nullptr && i < dev.sum.size(); ++i) {
    StoreRow(max->HostPtr() + dev.max[i].first, dev.max[i].second);
    StoreRow(sum->HostPtr() + dev.sum[i].first, dev.sum[i].second);
  }
}

// A reduction pass of FlashV2DeviceOn (V200Pass; 2201: softmax_flashv2_v220_device.h V220Pass).
using FlashPassFn = void (*)(WorkOp op, const float* x, uint32_t k, uint32_t m, uint32_t oriK,
                             uint32_t dstK, float* st, float* a, uint64_t& hw);

// SoftmaxFlashV2's generic loop on arch (2002, or 2201 with pass V220Pass; the kit's loop and
// steps are common to both: membase/common) over the tiling t, rows reduced at a stride of rk
// (srcK, or the config's cfgK on 2002): the device's
// dst, max, expSum and (update) expMax into dev, split by split, from SoftmaxFlashV2NoUpdateImpl /
// SoftmaxFlashV2UpdateImpl of membase/common/softmax_flashv2_impl/softmax_flashv2_{no_update,
// update}_impl.h, and what they leave in the work buffer (written at the end). Per split: the
// max pass (pass, row i of the split read at i * rk) into a statistics block st, the Sub
// (GenericSubNDImpl, column c: lane c % 8 of its row) and Exp over the split's rows of srcK
// columns, the sum pass (at i * rk again) into st. Where st and the
// accumulators A lie (floats of the buffer; s = splitSize, r = reduceSize, a = splitM * 64; half
// data: its float copy at 0, the final exponentials):
// - float, no update: st the max / expSum tensor's block, A at 0; with update st at 0, A at r:
//   Max(inMax, st) lane by lane, inMax - max into A's first m * 8 floats (the Sub into
//   tmpBuffer1) and its Exp as expMax, max = st + 0 (2002's Adds; 2201's DataCopy: st), expSum =
//   expMax * inExpSum + sum;
// - half data, float statistics: no update as float with A at s; update: st at s + r + a, A at
//   s + r, max = Max(inMax, st) into the tensor (the Sub's), exp(inMax + 0 - max) at s, its
//   lane 0 (2201: lane l % 8) over each row's 16 floats at 0 for tiling.reduceM rows
//   (BroadCastLastImpl) and over expMax's 16 halves, expSum = that exp * inExpSum (left at s) +
//   sum;
// - half data and statistics (blocks of 16): no update st at s, A at s + r, max and expSum cast
//   from st; update as float with inMax's float copy at s (left: exp(inMax - max) * inExpSum),
//   st at s + r + a and A at s + r, expSum's floats (the Add into tmpBuffer2) left at A's start.
// st and A are read as they stand (the tensors' and buffer's bytes, then what earlier splits and
// passes left). False where not modelled (lngrad's rows stand, the buffer stays marked): a
// tiling not of the shape, a buffer short of the pieces. On 2201 only the tilings V220Defect
// names run it (oriSrcK >= 128: A's footprint below 64 columns is 2002's).
template <typename T, typename U>
bool FlashV2DeviceOn(NpuArch arch, FlashPassFn pass, bool update,
                     const AscendC::tiling::SoftMaxTiling& t, const Dims& d, const T* src,
                     const U* inMax, const U* inSum, const U* maxT, const U* sumT,
                     const AscendC::LocalTensor<uint8_t>& tmp, V200Device& dev, SrcLoc loc,
                     uint32_t rk) {
  constexpr bool kHalf = std::is_same_v<T, half>, kHalfStats = std::is_same_v<U, half>;
  const uint32_t dstK = kHalfStats ? 16 : 8;
  const bool v200 = arch == NpuArch::k2002;
  if (detail::rep::RunningArch() != arch || t.splitM == 0 || t.splitK != d.k || t.srcK != d.k ||
      t.reduceK != dstK || d.oriK == 0 || d.oriK > rk || rk > d.k) {
    return false;
  }
  const uint64_t s = kHalf ? t.splitSize : 0, r = t.reduceSize, a = uint64_t{t.splitM} * kLanes;
  const bool stIn = update || kHalfStats;  // st in the buffer
  uint64_t stAt = s, accAt = s;
  if (update && kHalf) {
    stAt = s + r + a;
    accAt = s + r;
  } else if (stIn) {
    accAt = s + r;
  }
  // A's footprint: none below 64 reduced columns (one WholeReduce a row), one row's 64 lanes,
  // else 64 a row or the broadcast's 128 a group of 8 rows; the float update's Sub and the half
  // statistics' Add write m * dstK floats at A's start.
  const uint64_t rows = t.splitM, nst = update && (!kHalf || kHalfStats) ? rows * dstK : 0;
  const uint64_t accN = d.oriK < kLanes ? 0
                        : rows == 1     ? kLanes
                                        : std::max(a, (rows + 7) / 8 * 128);
  const uint64_t accEnd = accAt + std::max(accN, nst);
  const uint64_t need = std::max(accEnd, stIn ? stAt + r : 0);
  if (tmp.HostPtr() == nullptr || tmp.View().size_bytes < need * 4) return false;
  std::vector<float> w(std::max<uint64_t>(need, 1));
  std::memcpy(w.data(), tmp.HostPtr(), need * 4);
  float* acc = w.data() + accAt;
  std::vector<float> x, mx, sm, em;
  uint64_t hw = 0;
  ForEachSplit(t, [&](uint64_t o1, uint64_t o2, uint32_t m) {
    const uint64_t n = uint64_t{m} * d.k, nr = uint64_t{m} * dstK;
    LoadRow(x, src + o1, static_cast<uint32_t>(n));
    float* st = w.data() + stAt;
    if (!stIn) {
      LoadRow(mx, maxT + o2, static_cast<uint32_t>(nr));
      st = mx.data();
    }
    pass(WorkOp::kMax, x.data(), rk, m, d.oriK, dstK, st, acc, hw);
    std::vector<float> mo(st, st + nr);  // the max the Sub takes, then the stored one
    if (update) {
      em.resize(nr);
      for (uint64_t j = 0; j < nr; ++j) {
        const float im = Widen(inMax[o2 + j]);
        mo[j] = im > st[j] ? im : st[j];
        em[j] = im - mo[j];
      }
      if (!kHalf || kHalfStats) std::copy(mo.begin(), mo.end(), st);
      if (!kHalf) std::copy(em.begin(), em.end(), acc);  // tmpBuffer1 is A's start
      ExpInPlace(em);
    }
    for (uint64_t j = 0; j < n; ++j) x[j] = x[j] - mo[j / d.k * dstK + j % d.k % 8];
    ExpInPlace(x);
    if (kHalf) std::copy(x.begin(), x.end(), w.begin());  // tmpBuffer0, the split's float copy
    dev.dst.emplace_back(o1, x);
    if (update && !kHalf && v200) {
      for (float& v : mo) v = v + 0.0f;  // Adds
    }
    dev.max.emplace_back(o2, std::move(mo));
    if (!stIn) {
      LoadRow(sm, sumT + o2, static_cast<uint32_t>(nr));
      st = sm.data();
    }
    pass(WorkOp::kSum, x.data(), rk, m, d.oriK, dstK, st, acc, hw);
    std::vector<float> out(st, st + nr);
    if (update) {
      for (uint64_t j = 0; j < nr; ++j) out[j] = em[j] * Widen(inSum[o2 + j]) + out[j];
      if (kHalf && kHalfStats) std::copy(out.begin(), out.end(), acc);  // tmpBuffer2
      if (kHalf && !kHalfStats) {  // BroadCastLastImpl: lane BrcLane (0; 2201: l % 8) of each row
        std::vector<float> b(uint64_t{m} * 16);
        for (uint64_t j = 0; j < b.size(); ++j) b[j] = em[j / 16 * 8 + BrcLane(j % 8)];
        dev.expMax.emplace_back(o2 * 2, std::move(b));
        // Into tmpBuffer0 over tiling.reduceM rows (past m: what tmpBuffer1 held there).
        for (uint64_t q = 0; q < t.reduceM * 16; ++q) {
          const uint64_t at = q / 16 * 8 + BrcLane(q % 8);
          w[q] = q / 16 < m ? em[at] : w[s + at];
        }
      } else {
        dev.expMax.emplace_back(o2, em);
      }
      for (uint64_t j = 0; kHalf && j < nr; ++j) w[s + j] = em[j] * Widen(inSum[o2 + j]);
    }
    dev.sum.emplace_back(o2, std::move(out));
  });
  std::memcpy(tmp.HostPtr(), w.data(), need * 4);
  san::Instr rec(Pipe::kV, "SoftmaxFlashV2", loc);
  if (rec) rec.Write(tmp.View().ptr, need * 4);
  dev.set = true;
  return true;
}

// FlashV2DeviceOn on 2002 (d.oriK the config's and redK its cfgK on the config path: srcK, or below
// it for FlashV2ConfigSplits), unchecked, for a tiling V200Defect names with srcK = redK. every:
// any tiling, either mode (the splits that do not wrap too; softmax_flashv2_v200_work.h
// FlashV2WorkV200 keeps the buffer only).
template <typename T, typename U>
bool FlashV2DeviceV200(bool update, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                       const T* src, const U* inMax, const U* inSum, const U* maxT, const U* sumT,
                       const AscendC::LocalTensor<uint8_t>& tmp, V200Device& dev, SrcLoc loc,
                       uint32_t redK = 0, bool every = false) {
  const uint32_t rk = redK != 0 ? redK : d.k;
  if (!every && (CheckedMode() || V200Defect(t, Dims{d.m, rk, d.oriK}).empty())) return false;
  return FlashV2DeviceOn<T, U>(NpuArch::k2002, &V200Pass, update, t, d, src, inMax, inSum, maxT,
                               sumT, tmp, dev, loc, rk);
}

// SoftMax (log: LogSoftMax) on 2002: writes what the kit's splits of t leave in the work buffer
// (header); sum/max: the statistics tensors (nullptr: none), read as they stand (the Muls reads
// their blocks past a split's rows). False (nothing written, the buffer stays marked) on other
// arches and where not modelled (SoftMaxWork's conditions). A tiling V200Defect names is refused
// in checked mode (softmax_device_defect, before anything is written); unchecked, dev gets the
// device's results for V200Store (dev nullptr: not modelled).
template <typename T, typename U>
bool SoftMaxWorkV200(const char* api, SrcLoc loc, const AscendC::tiling::SoftMaxTiling& t,
                     const Dims& d, const AscendC::LocalTensor<T>& srcT,
                     const AscendC::LocalTensor<U>* sumT, const AscendC::LocalTensor<U>* maxT,
                     const AscendC::LocalTensor<uint8_t>& tmp, bool log = false,
                     V200Device* dev = nullptr) {
  const bool stats = sumT != nullptr;
  const WorkLayout w = WorkLayoutOf<T, U>(t, stats);
  const bool k16 = t.reduceK == 16 && std::is_same_v<T, half> && w.statIn;
  if (detail::rep::RunningArch() != NpuArch::k2002 || (t.reduceK != 8 && !k16) || t.splitM == 0 ||
      tmp.View().ptr == nullptr || d.k == 0 || d.oriK == 0 || d.oriK > d.k || t.splitK != d.k ||
      t.srcK != d.k) {
    return false;
  }
  CheckShape<T>(api, d);
  const std::string defect = V200Defect(t, d);
  if (!defect.empty() && CheckedMode()) {
    RaiseKernelCheck(checks::kSoftmaxDeviceDefect,
                     std::string(api) + ": srcK " + std::to_string(d.k) + ", oriSrcK " +
                         std::to_string(d.oriK) + " with splits of " + std::to_string(t.splitM) +
                         " rows is computed wrongly by the device's 2002 sequence: " + defect +
                         " (unchecked mode gives the device's numbers)");
  }
  if (!defect.empty() && dev == nullptr) return false;
  const uint32_t dstK = t.reduceK;
  // oriK < 64 leaves A alone but for TransDivToMulImpl's m * reduceK floats.
  const uint64_t accFloats = d.oriK < kLanes
                                 ? uint64_t{t.splitM} * dstK
                                 : std::max<uint64_t>(uint64_t{t.splitM} * kLanes, t.splitM * dstK);
  if (!WorkFits(t, d, w.tmpAt + accFloats, srcT, sumT, maxT, tmp)) return false;
  auto* work = reinterpret_cast<float*>(tmp.HostPtr());
  float* acc = work + w.tmpAt;
  std::vector<float> x, statMax, statSum;
  uint64_t hw = 0;
  ForEachSplit(t, [&](uint64_t o1, uint64_t o2, uint32_t m) {
    const uint64_t n = uint64_t{m} * d.k, nr = uint64_t{m} * dstK;
    LoadRow(x, srcT.HostPtr() + o1, static_cast<uint32_t>(n));
    float* maxAt = work + w.statAt;
    float* sumAt = work + w.statAt;
    if (!w.statIn) {  // the float statistics tensors' blocks, as they stand
      LoadRow(statMax, maxT->HostPtr() + o2, static_cast<uint32_t>(nr));
      LoadRow(statSum, sumT->HostPtr() + o2, static_cast<uint32_t>(nr));
      maxAt = statMax.data();
      sumAt = statSum.data();
    }
    V200Pass(WorkOp::kMax, x.data(), d.k, m, d.oriK, dstK, maxAt, acc, hw);
    if (!defect.empty() && stats) dev->max.emplace_back(o2, std::vector<float>(maxAt, maxAt + nr));
    for (uint64_t j = 0; j < n; ++j) x[j] = x[j] - maxAt[j / d.k * dstK + j % d.k % 8];
    ExpInPlace(x);
    V200Pass(WorkOp::kSum, x.data(), d.k, m, d.oriK, dstK, sumAt, acc, hw);
    if (!defect.empty() && stats) dev->sum.emplace_back(o2, std::vector<float>(sumAt, sumAt + nr));
    if (log) {
      for (uint64_t j = 0; j < n; ++j) x[j] = x[j] / sumAt[j / d.k * dstK + j % d.k % 8];
      Log10InPlace(x);
    } else {  // TransDivToMulImpl
      for (uint64_t j = 0; j < nr; ++j) acc[j] = 1.0f / sumAt[j];
      hw = std::max(hw, nr);
      for (uint64_t j = 0; j < n; ++j) x[j] = x[j] * acc[j / d.k * dstK + j % d.k % 8];
    }
    if (w.copy) std::copy(x.begin(), x.end(), work);
    if (!defect.empty()) dev->dst.emplace_back(o1, x);
  });
  san::Instr rec(Pipe::kV, api, loc);
  if (rec) {
    const std::byte* base = tmp.View().ptr;
    if (w.copy) rec.Write(base, uint64_t{t.splitSize} * 4);
    if (w.statIn) rec.Write(base + w.statAt * 4, uint64_t{t.splitM} * dstK * 4);
    if (hw != 0) rec.Write(base + w.tmpAt * 4, hw * 4);
  }
  if (dev != nullptr) dev->set = !defect.empty();
  return true;
}

// SimpleSoftMax<half> on 2002 (simple_softmax_common_impl.h SimpleSoftMaxNDImpl, the generic
// loop): per split the float copy of its rows at 0 and, with half statistics, the float copy of
// inMax then of inSum at splitSize ([m, 16]); x - max, Exp, / sum lane by lane (column c: lane
// c % 8 of its row; float statistics at the 2002 branch's row stride 8). The Exp runs over the
// split's elements with half statistics, over tiling.splitSize with float ones (a tail split's
// rows past tailM: the exponential of what the last full split left there). False (marked) on
// other arches and where not modelled (half statistics with a reduceK not 16, a tiling not of the
// shape, tensors or buffer short of the splits).
template <typename U>
bool SimpleSoftMaxWorkV200(const char* api, SrcLoc loc, const AscendC::tiling::SoftMaxTiling& t,
                           const Dims& d, const AscendC::LocalTensor<half>& srcT,
                           const AscendC::LocalTensor<U>& inSum,
                           const AscendC::LocalTensor<U>& inMax,
                           const AscendC::LocalTensor<uint8_t>& tmp) {
  constexpr bool kHalfStats = std::is_same_v<U, half>;
  constexpr uint32_t kStride = kHalfStats ? 16 : 8;
  // Float statistics: the 2002 branch reads 8 floats a row whatever the tiling's reduceK.
  if (detail::rep::RunningArch() != NpuArch::k2002 || (kHalfStats && t.reduceK != kStride) ||
      t.splitM == 0 || tmp.View().ptr == nullptr || d.k == 0 || t.splitK != d.k || t.srcK != d.k ||
      t.splitSize != t.splitM * d.k) {
    return false;
  }
  const uint64_t need = t.splitSize + (kHalfStats ? uint64_t{t.splitM} * kStride : 0);
  AscendC::tiling::SoftMaxTiling read = t;  // the statistics read: kStride a row
  read.reduceK = kStride;
  if (!WorkFits(read, d, need, srcT, &inSum, &inMax, tmp)) return false;
  auto* x = reinterpret_cast<float*>(tmp.HostPtr());
  float* st = x + t.splitSize;
  std::vector<float> v, mx, sm;
  const auto split = [&](uint64_t o1, uint64_t o2, uint32_t m) {
    const uint64_t n = uint64_t{m} * d.k, nr = uint64_t{m} * kStride;
    for (uint64_t j = 0; j < n; ++j) x[j] = Widen(srcT.HostPtr()[o1 + j]);
    LoadRow(mx, inMax.HostPtr() + o2, static_cast<uint32_t>(nr));
    LoadRow(sm, inSum.HostPtr() + o2, static_cast<uint32_t>(nr));
    if (kHalfStats) std::copy(mx.begin(), mx.end(), st);
    for (uint64_t j = 0; j < n; ++j) x[j] = x[j] - mx[j / d.k * kStride + j % d.k % 8];
    v.assign(x, x + (kHalfStats ? n : t.splitSize));
    ExpInPlace(v);
    std::copy(v.begin(), v.end(), x);
    if (kHalfStats) std::copy(sm.begin(), sm.end(), st);
    for (uint64_t j = 0; j < n; ++j) x[j] = x[j] / sm[j / d.k * kStride + j % d.k % 8];
  };
  const uint64_t step2 = kHalfStats ? t.reduceSize : uint64_t{t.reduceM} * 8;
  for (uint32_t i = 0; i < t.rangeM; ++i) split(uint64_t{i} * t.splitSize, i * step2, t.splitM);
  if (t.tailM != 0) split(uint64_t{t.rangeM} * t.splitSize, t.rangeM * step2, t.tailM);
  san::Instr rec(Pipe::kV, api, loc);
  if (rec) rec.Write(tmp.View().ptr, need * 4);
  return true;
}

}  // namespace lngrad::aicore::softmax_detail
