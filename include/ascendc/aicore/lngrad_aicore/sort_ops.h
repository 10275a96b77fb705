// lngrad Ascend C runtime: the sorting instructions of the basic API (排序组合): Sort32, MrgSort,
// GetMrgSortResult (A2/A3, 950), and the region-proposal family of the training series
// (dav-2002): ProposalConcat, ProposalExtract, RpSort16, MrgSort4.
//
// Element layouts (vendor docs):
// - Sort32 / MrgSort work on 8-byte (score, index) pairs: float: score in bytes [0, 4), index
//   (uint32_t) in [4, 8); half: score in [0, 2), [2, 4) reserved (lngrad writes 0), index in
//   [4, 8).
// - A region proposal is 8 elements of T: [x1, y1, x2, y2, score, label, reserved, reserved].
// Sorting is by score, descending; equal scores keep their order (the earlier element first;
// in a merge the earlier queue first). Scores compare as IEEE floats (-0 equals +0); a NaN
// compares false with everything (lngrad's choice: the docs do not say), so in Sort32 and
// RpSort16 a NaN keeps its place and nothing passes it (the scores between two NaNs sort among
// themselves: an insertion in which a structure moves before its neighbour only when its score
// is greater), and a merge scans the queues' heads in queue order, keeps the first, replaces
// the kept head by a later one only when the later score is greater, and takes the kept head
// (a NaN head once kept is taken; a NaN head after a kept number is passed over).
// - Sort32(dst, score, index, repeatTime): each repeat sorts 32 pairs; src0 and src1 advance
//   32 elements, dst 256 bytes per repeat.
// - MrgSort(dst, {src1..src4}, info) / MrgSort4: merges the queues validBit selects (3, 7 or
//   15: the first 2, 3 or 4), elementLengths[k] structures each, into dst. With
//   ifExhaustedSuspension the merge stops when a queue runs out, and GetMrgSortResult tells how
//   many structures of each queue it took. repeatTimes > 1 repeats the merge on the next 4
//   queues (sources and dst advance by the 4 lengths), which the docs allow only for 4
//   contiguous queues of one length, validBit 15, no suspension.
// - ProposalConcat / ProposalExtract: element `modeNumber` (0 x1 .. 5 label) of 16 proposals
//   per repeat from / to 16 consecutive elements. RpSort16: each repeat sorts 16 proposals.
//
// Checked-mode rules: repeatTime in [0, 255] (checks::kRepeatTimes); the documented alignments
// (kUbAlignment) and extents (kTensorBounds); validBit, elementLengths <= 4095, modeNumber in
// [0, 5] and the repeatTimes conditions (checks::kSortParams); MrgSort's sources and dst
// disjoint (kAddressOverlap).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "mask.h"
#include "reduce_ops.h"
#include "sanitizer.h"
#include "tensor.h"

namespace lngrad::aicore::checks {
inline constexpr const char* kSortParams = "sort_params";  // validBit, lengths, mode, repeats
}  // namespace lngrad::aicore::checks

namespace AscendC {

inline constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
  MrgSort4Info() {}
  MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN],
               const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
               const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn),
        validBit(validBitIn),
        repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
    for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint8_t repeatTimes = 1;
};

template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() {}
  MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In,
                 const LocalTensor<T>& src3In, const LocalTensor<T>& src4In)
      : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

}  // namespace AscendC

namespace lngrad::aicore::detail::sort {

// What the last MrgSort / MrgSort4 of this block (thread) took from each queue.
struct MrgSortResult {
  uint16_t taken[4] = {0, 0, 0, 0};
};
inline thread_local MrgSortResult last_merge;

inline float Score(half v) { return static_cast<float>(v); }
inline float Score(float v) { return v; }

inline uint32_t CheckRepeat(const char* api, const char* name, int64_t r) {
  if (r < 0 || r > 255) {
    if (CheckedMode()) {
      rep::Raise(checks::kRepeatTimes, api,
                 std::string(name) + " is " + std::to_string(r) + ", which must be in [0, 255]");
    }
    return static_cast<uint32_t>(r & 0xFF);
  }
  return static_cast<uint32_t>(r);
}
inline void ParamError(const char* api, const std::string& message) {
  if (CheckedMode()) rep::Raise(checks::kSortParams, api, message);
}

// A stable descending sort of `n` structures of `elems` T each (score at element `score_at`):
// the insertion described above (the same order as any stable sort when no score is a NaN).
template <typename T>
void SortStructs(T* p, uint32_t n, uint32_t elems, uint32_t score_at) {
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) {
    const float s = Score(p[i * elems + score_at]);
    uint32_t at = i;
    while (at > 0 && s > Score(p[order[at - 1] * elems + score_at])) {
      order[at] = order[at - 1];
      --at;
    }
    order[at] = i;
  }
  std::vector<T> copy(p, p + uint64_t{n} * elems);
  for (uint32_t i = 0; i < n; ++i) {
    std::memcpy(p + uint64_t{i} * elems, copy.data() + uint64_t{order[i]} * elems,
                elems * sizeof(T));
  }
}

template <typename T>
void Sort32(SrcLoc loc, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
            const AscendC::LocalTensor<uint32_t>& src1, int32_t repeat_time) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Sort32: T must be half or float");
  const char* api = "Sort32";
  const uint32_t r = CheckRepeat(api, "repeatTime", repeat_time);
  const std::string how = std::to_string(r) + " repeats";
  // Starts 32-byte aligned, as Sort32's parameter table says; its "src0 128 B, src1 128 B, dst
  // 256 B per iteration" is the step between iterations: the kit's own TopK on the 950
  // (topk_3510_impl.h, the topk sample) passes srcIndexLocal at UB address 1056 as src1.
  rep::CheckOperand(api, "src0", src0.View(), uint64_t{r} * 32 * sizeof(T), 32, how);
  rep::CheckOperand(api, "src1", src1.View(), uint64_t{r} * 128, 32, how);
  rep::CheckOperand(api, "dst", dst.View(), uint64_t{r} * 256, 32, how);
  if (r == 0) return;
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    in.Read(src0.HostPtr(), uint64_t{r} * 32 * sizeof(T));
    in.Read(src1.HostPtr(), uint64_t{r} * 128);
    in.Write(dst.HostPtr(), uint64_t{r} * 256);
  }
  constexpr uint32_t kElems = 8 / sizeof(T);
  std::vector<T> out(uint64_t{r} * 32 * kElems);
  for (uint32_t k = 0; k < r; ++k) {
    T* o = out.data() + uint64_t{k} * 32 * kElems;
    for (uint32_t i = 0; i < 32; ++i) {
      std::byte* pair = reinterpret_cast<std::byte*>(o + i * kElems);
      std::memset(pair, 0, 8);
      std::memcpy(pair, src0.HostPtr() + k * 32 + i, sizeof(T));
      std::memcpy(pair + 4, src1.HostPtr() + k * 32 + i, 4);
    }
    SortStructs(o, 32, kElems, 0);
  }
  std::memcpy(dst.HostPtr(), out.data(), out.size() * sizeof(T));
}

// The merge of MrgSort (elems = 8 / sizeof(T), score at 0) and MrgSort4 (elems = 8, score at
// 4). align: the sources' and dst's documented alignment.
template <typename T>
void Merge(const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
           const AscendC::MrgSortSrcList<T>& list, const AscendC::MrgSort4Info& info,
           uint32_t elems, uint32_t score_at, uint32_t src_align, uint32_t dst_align) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "MrgSort: T must be half or float");
  const AscendC::LocalTensor<T>* src[4] = {&list.src1, &list.src2, &list.src3, &list.src4};
  uint32_t queues = 0;
  switch (info.validBit) {
    case 3:
      queues = 2;
      break;
    case 7:
      queues = 3;
      break;
    case 15:
      queues = 4;
      break;
    default:
      ParamError(api,
                 "validBit is " + std::to_string(info.validBit) + ", which must be 3, 7 or 15");
      queues = static_cast<uint32_t>(std::popcount(static_cast<uint32_t>(info.validBit & 15u)));
      break;
  }
  const uint32_t repeats = info.repeatTimes;
  uint64_t total = 0;
  for (uint32_t k = 0; k < queues; ++k) {
    if (info.elementLengths[k] > 4095) {
      ParamError(api, "elementLengths[" + std::to_string(k) + "] is " +
                          std::to_string(info.elementLengths[k]) + ", above 4095");
    }
    total += info.elementLengths[k];
  }
  const uint64_t sbytes = elems * sizeof(T);  // bytes per structure
  if (repeats > 1) {
    bool ok = queues == 4 && !info.ifExhaustedSuspension;
    for (uint32_t k = 1; ok && k < 4; ++k) {
      ok = info.elementLengths[k] == info.elementLengths[0] &&
           src[k]->HostPtr() == src[k - 1]->HostPtr() + uint64_t{info.elementLengths[0]} * elems;
    }
    if (!ok) {
      ParamError(api, "repeatTimes is " + std::to_string(repeats) +
                          "; more than 1 needs 4 contiguous queues of one length, validBit 15 "
                          "and ifExhaustedSuspension false");
    }
  }
  const std::string how = std::to_string(repeats) + " repeats";
  for (uint32_t k = 0; k < queues; ++k) {
    const uint64_t extent =
        ((repeats == 0 ? 0 : uint64_t{repeats - 1} * total) + info.elementLengths[k]) * sbytes;
    const char* names[4] = {"src.src1", "src.src2", "src.src3", "src.src4"};
    rep::CheckOperand(api, names[k], src[k]->View(), extent, src_align, how);
    rep::CheckDisjoint(api, "dst", dst.View(), uint64_t{repeats} * total * sbytes, names[k],
                       src[k]->View(), extent);
  }
  rep::CheckOperand(api, "dst", dst.View(), uint64_t{repeats} * total * sbytes, dst_align, how);
  last_merge = {};
  if (repeats == 0 || queues == 0) return;
  san::Instr in(Pipe::kV, api, loc);
  std::vector<T> out;
  out.reserve(repeats * total * elems);
  for (uint32_t r = 0; r < repeats; ++r) {
    uint32_t pos[4] = {0, 0, 0, 0};
    const T* base[4];
    for (uint32_t k = 0; k < queues; ++k) base[k] = src[k]->HostPtr() + uint64_t{r} * total * elems;
    while (true) {
      int best = -1;
      for (uint32_t k = 0; k < queues; ++k) {
        if (pos[k] >= info.elementLengths[k]) continue;
        if (best < 0 || Score(base[k][pos[k] * elems + score_at]) >
                            Score(base[best][pos[best] * elems + score_at])) {
          best = static_cast<int>(k);
        }
      }
      if (best < 0) break;
      const T* s = base[best] + uint64_t{pos[best]} * elems;
      out.insert(out.end(), s, s + elems);
      ++pos[best];
      if (info.ifExhaustedSuspension && pos[best] == info.elementLengths[best]) break;
    }
    if (in) {
      for (uint32_t k = 0; k < queues; ++k) in.Read(base[k], pos[k] * sbytes);
    }
    for (uint32_t k = 0; k < queues; ++k) last_merge.taken[k] = static_cast<uint16_t>(pos[k]);
  }
  if (in) in.Write(dst.HostPtr(), out.size() * sizeof(T));
  std::memcpy(dst.HostPtr(), out.data(), out.size() * sizeof(T));
}

template <typename T>
void ProposalMove(const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, int32_t repeat_time, int32_t mode,
                  bool concat) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "ProposalConcat/ProposalExtract: T must be half or float");
  const uint32_t r = CheckRepeat(api, "repeatTime", repeat_time);
  if (mode < 0 || mode > 5) {
    ParamError(api, "modeNumber is " + std::to_string(mode) + ", which must be in [0, 5]");
    mode = mode < 0 ? 0 : 5;
  }
  const uint64_t n = uint64_t{r} * 16;
  const std::string how = std::to_string(r) + " repeats";
  const AscendC::LocalTensor<T>& props = concat ? dst : src;
  const AscendC::LocalTensor<T>& flat = concat ? src : dst;
  const uint64_t prop_extent =
      n == 0 ? 0 : ((n - 1) * 8 + static_cast<uint64_t>(mode) + 1) * sizeof(T);
  rep::CheckOperand(api, concat ? "dst" : "src", props.View(), prop_extent, 32, how);
  rep::CheckOperand(api, concat ? "src" : "dst", flat.View(), n * sizeof(T), 32, how);
  if (n == 0) return;
  san::Instr in(Pipe::kV, api, loc);
  T* p = props.HostPtr();
  T* f = flat.HostPtr();
  for (uint64_t i = 0; i < n; ++i) {
    T* slot = p + i * 8 + mode;
    if (in) {
      if (concat) {
        in.Read(f + i, sizeof(T));
        in.Write(slot, sizeof(T));
      } else {
        in.Read(slot, sizeof(T));
        in.Write(f + i, sizeof(T));
      }
    }
    if (concat) {
      *slot = f[i];
    } else {
      f[i] = *slot;
    }
  }
}

}  // namespace lngrad::aicore::detail::sort

#define LNGRAD_SRCLOC_ARG lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()

namespace AscendC {

template <typename T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<uint32_t>& src1, const int32_t repeatTime, LNGRAD_SRCLOC_ARG) {
  lngrad::aicore::detail::sort::Sort32(loc, dst, src0, src1, repeatTime);
}

template <typename T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params,
             LNGRAD_SRCLOC_ARG) {
  lngrad::aicore::detail::sort::Merge("MrgSort", loc, dst, src, params, 8 / sizeof(T), 0, 8, 32);
}

// The queue lengths the last MrgSort / MrgSort4 of this block took (meaningful with
// ifExhaustedSuspension).
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4) {
  const auto& r = lngrad::aicore::detail::sort::last_merge;
  mrgSortList1 = r.taken[0];
  mrgSortList2 = r.taken[1];
  mrgSortList3 = r.taken[2];
  mrgSortList4 = r.taken[3];
}

template <typename T>
void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params,
              LNGRAD_SRCLOC_ARG) {
  constexpr uint32_t kAlign = sizeof(T) == 2 ? 16 : 32;
  lngrad::aicore::detail::sort::Merge("MrgSort4", loc, dst, src, params, 8, 4, kAlign, kAlign);
}

template <typename T>
void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                    const int32_t modeNumber, LNGRAD_SRCLOC_ARG) {
  lngrad::aicore::detail::sort::ProposalMove("ProposalConcat", loc, dst, src, repeatTime,
                                             modeNumber, true);
}

template <typename T>
void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                     const int32_t modeNumber, LNGRAD_SRCLOC_ARG) {
  lngrad::aicore::detail::sort::ProposalMove("ProposalExtract", loc, dst, src, repeatTime,
                                             modeNumber, false);
}

// dst may be src (the kit's sample sorts in place).
template <typename T>
void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
              LNGRAD_SRCLOC_ARG) {
  namespace s = lngrad::aicore::detail::sort;
  namespace r = lngrad::aicore::detail::rep;
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "RpSort16: T must be half or float");
  const uint32_t n = s::CheckRepeat("RpSort16", "repeatTime", repeatTime);
  const uint64_t bytes = uint64_t{n} * 16 * 8 * sizeof(T);
  const std::string how = std::to_string(n) + " repeats";
  r::CheckOperand("RpSort16", "src", src.View(), bytes, 32, how);
  r::CheckOperand("RpSort16", "dst", dst.View(), bytes, 32, how);
  if (dst.HostPtr() != src.HostPtr()) {
    r::CheckDisjoint("RpSort16", "dst", dst.View(), bytes, "src", src.View(), bytes);
  }
  if (n == 0) return;
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "RpSort16", loc);
  if (in) {
    in.Read(src.HostPtr(), bytes);
    in.Write(dst.HostPtr(), bytes);
  }
  std::vector<T> buf(src.HostPtr(), src.HostPtr() + bytes / sizeof(T));
  for (uint32_t k = 0; k < n; ++k) s::SortStructs(buf.data() + uint64_t{k} * 128, 16, 8, 4);
  std::memcpy(dst.HostPtr(), buf.data(), bytes);
}

}  // namespace AscendC

#undef LNGRAD_SRCLOC_ARG
