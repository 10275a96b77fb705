// lngrad Ascend C runtime: the reductions of the basic API (WholeReduceSum/Max/Min,
// BlockReduceSum/Max/Min, PairReduceSum, ReduceSum/Max/Min at levels 0 and 2, and their 2025
// names ReduceRepeat, ReduceDataBlock, ReducePairElem) and Brcb; half and float.
//
// Repeat forms: a repeat reads 256 bytes, 8 data blocks of 32 B; repeat r, lane i (i < 256 /
// sizeof(T)) is at src + r * srcRepStride * 32 + (i / epb) * srcBlkStride * 32 + (i % epb) *
// sizeof(T) (epb = elements per block). The mask selects the lanes of every repeat: a count of
// leading lanes, or bits (mask[0] lanes 0..63, mask[1] lanes 64..127). Masked-off lanes are
// neither read nor, where an output belongs to them alone, written. Repeats run one after the
// other; each reads its lanes before it writes its result, so in-place forms (dst == src)
// behave as on the device.
//
// Sums are binary trees of adjacent pairs (ReduceDataBlock.md: "二叉树"), every addition one
// rounding in T, masked-off lanes entering as +0; for float repeats this is
// lngrad::aicore::ScalarTree64, the tree of spec §1.8. Max and min: the first lane (lowest
// index) holding the extreme value wins ties (documented), +0 and -0 tie, and a NaN lane wins
// over every number (the first NaN; lngrad's choice, the documents do not say).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "check.h"
#include "half.h"
#include "instructions.h"
#include "mask.h"
#include "repeat_base.h"
#include "sanitizer.h"
#include "sys.h"
#include "tensor.h"

namespace AscendC {

// The fields and constructor: DstStrideParams (mask.h).
struct BrcbRepeatParams : lngrad::aicore::detail::DstStrideParams<uint16_t, uint16_t, uint16_t> {
  using DstStrideParams::DstStrideParams;
};

}  // namespace AscendC

namespace lngrad::aicore::detail::rep {

// The register ReduceRepeat<MAX/MIN> (WholeReduceMax/Min) and ReduceMax/Min leave their
// extreme in (GetReduceRepeatMaxMinSpr, GetReduceMaxMinCount): per block, the value's bits, the
// element index from src's start, and whether the reduction was one the vendor documents the
// register for (Normal mask mode, srcBlkStride 1, srcRepStride 8). [inference] The index of
// ReduceRepeat is the first extreme's element index over all repeats (r * L + lane); the
// vendor documents only that it is "the index within all repeats".
struct MaxMinSpr {
  uint64_t value_bits = 0;
  uint32_t index = 0;
  bool documented = true;
};
void SetMaxMinRegister(const MaxMinSpr& spr);
MaxMinSpr MaxMinRegister();
// The register for a Get* API: product check (checked mode), then reduce_spr when the last
// reduction is not one the register is documented for.
MaxMinSpr ReadMaxMinRegister(const char* api, uint32_t archs, const char* products, SrcLoc loc);

template <typename T>
MaxMinSpr MakeMaxMinSpr(T value, uint32_t index, const RepeatPlan& plan, const RepeatOperand& s) {
  MaxMinSpr spr;
  std::memcpy(&spr.value_bits, &value, sizeof(T));
  spr.index = index;
  spr.documented = !plan.counter && s.blk_stride == 1 && s.rep_stride == 8;
  return spr;
}

// WholeReduceSum/Max/Min (ReduceRepeat): one result per repeat at dst + r * dstRepStride * unit.
template <typename T>
void WholeReduce(Kind kind, const char* api, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const RepeatPlan& plan, int64_t dst_rep_in,
                 int64_t src_blk_in, int64_t src_rep_in, AscendC::ReduceOrder order, SrcLoc loc) {
  const uint32_t dst_rep = CheckStride(api, "dstRepStride", dst_rep_in);
  const RepeatOperand s = ReduceSource(api, src, src_blk_in, src_rep_in);
  if (kind != Kind::kSum && CheckedMode() && !OrderSupported(RunningArch(), order)) {
    Raise(op_checks::kReduceOrder, api,
          std::string("order ") + OrderName(order) + " is not available on this product");
  }
  if (plan.Empty()) return;  // a NOP (A2/A3 documents)
  const OutShape os = WholeOutShape<T>(kind, order);
  const uint64_t out_pitch = uint64_t{dst_rep} * os.unit;
  CheckSource(api, plan, s);
  CheckOperand(api, "dst", dst.View(), (plan.repeats - 1) * out_pitch + os.width, os.unit,
               RepeatHow(plan, "dstRepStride", dst_rep));
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    RecordActive(in, false, plan, s);
    in.WriteBlocks(dst.HostPtr(), plan.repeats, os.width, out_pitch);
  }
  auto* d = reinterpret_cast<std::byte*>(dst.HostPtr());
  bool found = false;
  T best{};
  uint32_t best_at = 0;
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    T value;
    uint32_t index;
    ReduceOneRepeat(kind, s, r, LanesOf(plan, r), &value, &index);
    StoreResult(kind, order, d + r * out_pitch, value, index);
    if (kind != Kind::kSum && (!found || Better(kind == Kind::kMax, value, best))) {
      best = value;
      best_at = r * kLanes<T> + index;
      found = true;
    }
  }
  if (kind != Kind::kSum) SetMaxMinRegister(MakeMaxMinSpr(best, best_at, plan, s));
}

// Whether an output of an empty block / pair is written (with the identity) rather than left
// alone: the 950 and Atlas 200I/500 A2 documents say so.
inline bool FillsEmptyOutputs(NpuArch arch) {
  return arch == NpuArch::k3002 || arch == NpuArch::k3510;
}

// The reductions with N outputs per repeat at dst + r * out_pitch + k * sizeof(T): output k of
// repeat r is written iff written(lanes, k). Checks src and dst, records, then for every repeat
// compute(r, lanes, out) fills out[0..N) from the repeat's lanes (all read before any write).
template <typename T, uint32_t N, typename Written, typename Compute>
void PerRepeatOutputs(const char* api, const AscendC::LocalTensor<T>& dst, const RepeatOperand& s,
                      const RepeatPlan& plan, uint32_t dst_rep, uint64_t out_pitch,
                      uint32_t dst_align, Written written, Compute compute, SrcLoc loc) {
  // The furthest output: the last repeat's (Counter mode: it may have fewer outputs, so the
  // one before it may reach further).
  uint64_t dst_extent = 0;
  for (uint32_t k = 0; k < 2 && k < plan.repeats; ++k) {
    const uint32_t r = plan.repeats - 1 - k;
    for (uint32_t q = 0; q < N; ++q) {
      if (written(LanesOf(plan, r), q)) {
        dst_extent = std::max<uint64_t>(dst_extent, r * out_pitch + (q + 1) * sizeof(T));
      }
    }
  }
  CheckSource(api, plan, s);
  CheckOperand(api, "dst", dst.View(), dst_extent, dst_align,
               RepeatHow(plan, "dstRepStride", dst_rep));
  auto* d = reinterpret_cast<std::byte*>(dst.HostPtr());
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    RecordActive(in, false, plan, s);
    Runs w(in, true);
    for (uint32_t r = 0; r < plan.repeats; ++r) {
      const Lanes l = LanesOf(plan, r);
      for (uint32_t q = 0; q < N; ++q) {
        if (written(l, q)) w.Add(d + r * out_pitch + q * sizeof(T), sizeof(T));
      }
    }
  }
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    const Lanes l = LanesOf(plan, r);
    T out[N] = {};
    compute(r, l, out);
    for (uint32_t q = 0; q < N; ++q) {
      if (written(l, q)) Store(d + r * out_pitch + q * sizeof(T), out[q]);
    }
  }
}

// BlockReduceSum/Max/Min (ReduceDataBlock): one result per data block, 8 per repeat, at
// dst[r * dstRepStride * 8 + b]. A block without active lanes is left as it is (A2/A3, 310P,
// training series) or gets the operation's identity (Atlas 200I/500 A2: 0, -65504 / -inf,
// 65504 / +inf; 950: 0, -inf, +inf), as documented.
template <typename T>
void BlockReduce(Kind kind, const char* api, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const RepeatPlan& plan, int64_t dst_rep_in,
                 int64_t src_blk_in, int64_t src_rep_in, SrcLoc loc) {
  const uint32_t dst_rep = CheckStride(api, "dstRepStride", dst_rep_in);
  const RepeatOperand s = ReduceSource(api, src, src_blk_in, src_rep_in);
  if (plan.Empty()) return;
  constexpr uint32_t E = kPerBlock<T>;
  const NpuArch arch = RunningArch();
  const bool fill = FillsEmptyOutputs(arch);
  const auto active = [](const Lanes& l, uint32_t b) {
    for (uint32_t j = 0; j < E; ++j) {
      if (l.Test(b * E + j)) return true;
    }
    return false;
  };
  const float big = std::is_same_v<T, half> && arch == NpuArch::k3002 ? 65504.0f : INFINITY;
  const T identity = T(kind == Kind::kSum ? 0.0f : kind == Kind::kMax ? -big : big);
  PerRepeatOutputs<T, 8>(
      api, dst, s, plan, dst_rep, uint64_t{dst_rep} * 8 * sizeof(T), 8 * sizeof(T),
      [&](const Lanes& l, uint32_t b) { return fill || active(l, b); },
      [&](uint32_t r, const Lanes& l, T* out) {
        for (uint32_t b = 0; b < 8; ++b) {
          out[b] = identity;
          bool found = false;
          T v[E];
          for (uint32_t j = 0; j < E; ++j) {
            const bool on = l.Test(b * E + j);
            v[j] = on ? Load<T>(s.view.ptr + s.Offset(r, b * E + j)) : T(0.0f);
            if (on && kind != Kind::kSum && (!found || Better(kind == Kind::kMax, v[j], out[b]))) {
              out[b] = v[j];
              found = true;
            }
          }
          if (kind == Kind::kSum && active(l, b)) out[b] = PairTree(v, E);
        }
      },
      loc);
}

// PairReduceSum (ReducePairElem<SUM>): lanes 2k and 2k+1 summed into dst[r * dstRepStride *
// L/2 + k]. A pair with both lanes masked off is left as it is (A2/A3, 310P) or set to +0
// (950, Atlas 200I/500 A2), as documented; a single masked lane enters as +0.
template <typename T>
void PairReduce(const char* api, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, const RepeatPlan& plan, int64_t dst_rep_in,
                int64_t src_blk_in, int64_t src_rep_in, SrcLoc loc) {
  const uint32_t dst_rep = CheckStride(api, "dstRepStride", dst_rep_in);
  const RepeatOperand s = ReduceSource(api, src, src_blk_in, src_rep_in);
  if (plan.Empty()) return;
  constexpr uint32_t P = kLanes<T> / 2;
  const bool fill = FillsEmptyOutputs(RunningArch());
  PerRepeatOutputs<T, P>(
      api, dst, s, plan, dst_rep, uint64_t{dst_rep} * (kRepeatBytes / 2), kBlockBytes,
      [&](const Lanes& l, uint32_t k) { return fill || l.Test(2 * k) || l.Test(2 * k + 1); },
      [&](uint32_t r, const Lanes& l, T* out) {
        for (uint32_t k = 0; k < P; ++k) {
          const T a = l.Test(2 * k) ? Load<T>(s.view.ptr + s.Offset(r, 2 * k)) : T(0.0f);
          const T b = l.Test(2 * k + 1) ? Load<T>(s.view.ptr + s.Offset(r, 2 * k + 1)) : T(0.0f);
          out[k] = Add(a, b);
        }
      },
      loc);
}

// The register the level-2 ReduceSum leaves its sum in (GetReduceRepeatSumSpr): per block,
// its value's bits; 0 before any ReduceSum of the running block.
void SetReduceSumRegister(uint64_t bits);
uint64_t ReduceSumRegister();

// The elements of sharedTmpBuffer ReduceMax/Min need for `first` first-round repeats
// (ReduceMax.md, 关键特性说明), with and without the index.
uint64_t MaxMinTmpElems(uint64_t first, uint32_t elem, bool with_index);

// ReduceSum/Max/Min over the repeats of `plan` in `s`: the value, and for max/min the element
// offset of the first extreme (r * repeat pitch + lane). The first round's per-repeat results
// go to tmp (sum: tmp[r]; max/min: [value, index] pairs at tmp[2r]), the sum's second round to
// tmp[0..), as the device's ReduceSumImpl writes them.
template <typename T>
void ReduceAll(Kind kind, const RepeatOperand& s, const RepeatPlan& plan, T* tmp, T* value,
               uint32_t* index) {
  constexpr uint32_t L = kLanes<T>;
  const uint32_t repeats = plan.repeats;
  const uint32_t pitch_elems = s.rep_stride * kPerBlock<T>;
  if (kind == Kind::kSum) {
    for (uint32_t r = 0; r < repeats; ++r) {
      uint32_t unused;
      ReduceOneRepeat(kind, s, r, LanesOf(plan, r), &tmp[r], &unused);
    }
    *index = 0;
    if (repeats == 1) {
      *value = tmp[0];
      return;
    }
    // Second round: trees over groups of L repeat sums, in place; then one tree over those.
    const uint32_t groups = (repeats + L - 1) / L;
    for (uint32_t j = 0; j < groups; ++j) {
      T v[L];
      for (uint32_t i = 0; i < L; ++i) v[i] = j * L + i < repeats ? tmp[j * L + i] : T(0.0f);
      tmp[j] = RepeatSum(v);
    }
    if (groups == 1) {
      *value = tmp[0];
      return;
    }
    T v[L];
    for (uint32_t i = 0; i < L; ++i) v[i] = i < groups ? tmp[i] : T(0.0f);
    *value = RepeatSum(v);
    return;
  }
  bool found = false;
  T best{};
  uint32_t at = 0;
  for (uint32_t r = 0; r < repeats; ++r) {
    T v;
    uint32_t i;
    ReduceOneRepeat(kind, s, r, LanesOf(plan, r), &v, &i);
    tmp[2 * r] = v;
    tmp[2 * r + 1] = IndexAsT<T>(i);
    if (!found || Better(kind == Kind::kMax, v, best)) {
      best = v;
      at = r * pitch_elems + i;
      found = true;
    }
  }
  *value = best;
  *index = at;
}

// The elements of sharedTmpBuffer that ReduceWhole writes (the first round, and the level-2
// tail's [body, tail] pair; none for the one-repeat max/min with the index, which writes dst
// directly) and the elements it needs (max/min keep room for their later rounds).
struct TmpElems {
  uint64_t written;
  uint64_t needed;
};

template <typename T>
TmpElems WholeTmpElems(Kind kind, uint32_t repeats, uint32_t tail, bool cal_index) {
  uint64_t written = kind == Kind::kSum ? repeats : 2 * uint64_t{repeats};
  if (tail != 0 && written < 2) written = 2;
  if (kind != Kind::kSum && repeats == 1 && cal_index && tail == 0) written = 0;
  uint64_t needed = written;
  if (kind != Kind::kSum && (repeats > 1 || tail != 0)) {
    needed = std::max(needed, MaxMinTmpElems(repeats, sizeof(T), cal_index));
  }
  return {written, needed};
}

// The level-0 and level-2 ReduceSum/Max/Min: checks, records and runs. count >= 0 selects
// level 2 (count elements: count / L full repeats, or one of count lanes, and a tail reduced
// on its own and combined with the body as two lanes, as the vendor's level 2 does);
// otherwise the repeat form with `lanes`.
template <typename T>
void ReduceWhole(Kind kind, const char* api, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& tmp,
                 Lanes lanes, int64_t repeat_in, int64_t src_rep_in, int64_t count, bool cal_index,
                 SrcLoc loc) {
  static_assert(kIsReduceType<T>, "reductions: T must be half or float");
  constexpr uint32_t L = kLanes<T>;
  const bool level2 = count >= 0;
  uint32_t tail = 0;
  RepeatPlan body;     // the repeats of the first round
  RepeatPlan touched;  // every element read (for the operand rules)
  uint32_t src_rep = 8;
  if (level2) {
    if (count == 0) return;
    if (count < L) {
      body = FixedPlan(L, 1, Lanes::First(static_cast<uint64_t>(count)));
    } else {
      body = FixedPlan(L, static_cast<uint32_t>(count / L), Lanes::First(L));
      tail = static_cast<uint32_t>(count % L);
    }
    touched.lanes = L;
    touched.counter = true;
    touched.count = static_cast<uint64_t>(count);
    touched.repeats = static_cast<uint32_t>((count + L - 1) / L);
    // The level-2 form runs in Counter mode and leaves the register full and Normal (mask.h).
    RestoreMaskAfterCount(MaskContext(api));
  } else {
    // The level-0 repeatTime may exceed 255 (ReduceMax.md): the API splits it into
    // instructions of 255 repeats.
    if (repeat_in < 0 || repeat_in > INT32_MAX) {
      Raise(checks::kInvalidCount, api,
            "repeatTime is " + std::to_string(repeat_in) + ", which must be in [0, 2^31-1]");
    }
    src_rep = CheckStride(api, "srcRepStride", src_rep_in);
    body = FixedPlan(L, static_cast<uint32_t>(repeat_in), lanes);
    touched = body;
    if (body.Empty()) return;
  }
  const uint32_t repeats = body.repeats;
  const RepeatOperand s = SrcOperand(src, 1, src_rep);
  const bool index_out = kind != Kind::kSum && cal_index;
  const auto [tmp_written, tmp_needed] = WholeTmpElems<T>(kind, repeats, tail, cal_index);
  const std::string how = level2 ? "count " + std::to_string(count)
                                 : "repeatTime " + std::to_string(repeats) + ", srcRepStride " +
                                       std::to_string(src_rep);
  CheckSource(api, touched, s);
  CheckOperand(api, "dst", dst.View(), (index_out ? 2 : 1) * sizeof(T),
               index_out ? 2 * sizeof(T) : sizeof(T), "the result");
  if (CheckedMode() && tmp_needed > tmp.GetSize()) {
    Raise(op_checks::kTmpBuffer, api,
          "sharedTmpBuffer has " + std::to_string(tmp.GetSize()) + " elements; " + how + " needs " +
              std::to_string(tmp_needed));
  }
  CheckOperand(api, "sharedTmpBuffer", tmp.View(), tmp_written * sizeof(T), kBlockBytes, how);
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    RecordActive(in, false, touched, s);
    if (tmp_written != 0) in.Write(tmp.HostPtr(), tmp_written * sizeof(T));
    in.Write(dst.HostPtr(), (index_out ? 2 : 1) * sizeof(T));
  }
  T* t = tmp.HostPtr();
  T scratch[2];
  // The one-repeat max/min with the index writes straight into dst, not into tmp.
  T value;
  uint32_t index;
  ReduceAll(kind, s, body, tmp_written == 0 ? scratch : t, &value, &index);
  if (tail != 0) {
    T tv;
    uint32_t ti;
    ReduceOneRepeat(kind, s, repeats, Lanes::First(tail), &tv, &ti);
    t[0] = value;
    t[1] = tv;
    if (kind == Kind::kSum) {
      value = Add(value, tv);
    } else if (Better(kind == Kind::kMax, tv, value)) {
      value = tv;
      index = repeats * L + ti;
    }
  }
  T* d = dst.HostPtr();
  d[0] = value;
  if (index_out) d[1] = IndexAsT<T>(index);
  if (level2 && kind == Kind::kSum) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    SetReduceSumRegister(bits);
  }
  if (kind != Kind::kSum) {
    // The level-2 form runs Normal mode internally; its index is exact here (the vendor's is
    // documented as unreliable, so no kernel can depend on it).
    RepeatPlan normal = body;
    normal.counter = false;
    SetMaxMinRegister(MakeMaxMinSpr(value, index, level2 ? normal : body, s));
  }
}

}  // namespace lngrad::aicore::detail::rep

namespace AscendC {

namespace lngrad_rep = lngrad::aicore::detail::rep;

// ---- WholeReduceSum / WholeReduceMax / WholeReduceMin (ReduceRepeat) ----
// M: int32_t (continuous mask) or uint64_t[2] (bit-wise mask), as in the vendor's overloads.

// One form per mask type (MASK); the variadic tail is the order parameter, when the name has one.
#define LNGRAD_WHOLE_REDUCE_FORM(NAME, KIND, ORDER_ARG, MASK, ...)                                 \
  template <typename T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, MASK, const int32_t repeatTime,  \
            const int32_t dstRepStride, const int32_t srcBlkStride,                                \
            const int32_t srcRepStride __VA_ARGS__,                                                \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    lngrad_rep::WholeReduce(KIND, #NAME, dst, src,                                                 \
                            lngrad_rep::Plan<T, isSetMask>(#NAME, mask, repeatTime), dstRepStride, \
                            srcBlkStride, srcRepStride, ORDER_ARG, loc);                           \
  }
#define LNGRAD_WHOLE_REDUCE(NAME, KIND, ORDER_PARAM, ORDER_ARG)                    \
  LNGRAD_WHOLE_REDUCE_FORM(NAME, KIND, ORDER_ARG, const int32_t mask, ORDER_PARAM) \
  LNGRAD_WHOLE_REDUCE_FORM(NAME, KIND, ORDER_ARG, const uint64_t mask[], ORDER_PARAM)
#define LNGRAD_COMMA ,
LNGRAD_WHOLE_REDUCE(WholeReduceSum, lngrad_rep::Kind::kSum, , ReduceOrder::ORDER_VALUE_INDEX)
LNGRAD_WHOLE_REDUCE(WholeReduceMax, lngrad_rep::Kind::kMax,
                    LNGRAD_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
LNGRAD_WHOLE_REDUCE(WholeReduceMin, lngrad_rep::Kind::kMin,
                    LNGRAD_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
#undef LNGRAD_WHOLE_REDUCE
#undef LNGRAD_WHOLE_REDUCE_FORM

// ---- BlockReduceSum / BlockReduceMax / BlockReduceMin (ReduceDataBlock), PairReduceSum ----
// The parameter order of these older names: repeatTime before mask.

#define LNGRAD_BLOCK_REDUCE_FORM(NAME, CALL, MASK)                                                \
  template <typename T, bool isSetMask = true>                                                    \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, MASK, \
            const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,   \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                     \
    CALL(#NAME, dst, src, lngrad_rep::Plan<T, isSetMask>(#NAME, mask, repeatTime), dstRepStride,  \
         srcBlkStride, srcRepStride, loc);                                                        \
  }
#define LNGRAD_BLOCK_REDUCE(NAME, CALL)                    \
  LNGRAD_BLOCK_REDUCE_FORM(NAME, CALL, const int32_t mask) \
  LNGRAD_BLOCK_REDUCE_FORM(NAME, CALL, const uint64_t mask[])
#define LNGRAD_BLOCK_SUM(...) lngrad_rep::BlockReduce(lngrad_rep::Kind::kSum, __VA_ARGS__)
#define LNGRAD_BLOCK_MAX(...) lngrad_rep::BlockReduce(lngrad_rep::Kind::kMax, __VA_ARGS__)
#define LNGRAD_BLOCK_MIN(...) lngrad_rep::BlockReduce(lngrad_rep::Kind::kMin, __VA_ARGS__)
LNGRAD_BLOCK_REDUCE(BlockReduceSum, LNGRAD_BLOCK_SUM)
LNGRAD_BLOCK_REDUCE(BlockReduceMax, LNGRAD_BLOCK_MAX)
LNGRAD_BLOCK_REDUCE(BlockReduceMin, LNGRAD_BLOCK_MIN)
LNGRAD_BLOCK_REDUCE(PairReduceSum, lngrad_rep::PairReduce)
#undef LNGRAD_BLOCK_SUM
#undef LNGRAD_BLOCK_MAX
#undef LNGRAD_BLOCK_MIN
#undef LNGRAD_BLOCK_REDUCE
#undef LNGRAD_BLOCK_REDUCE_FORM

// ---- The 2025 names ReduceRepeat, ReduceDataBlock, ReducePairElem (mask before repeatTime;
// M: int32_t or uint64_t[2]). T and U must be the same type (the A2/A3 documents). ----

template <ReduceType reduceType>
inline constexpr lngrad_rep::Kind kReduceKind =
    reduceType == ReduceType::SUM   ? lngrad_rep::Kind::kSum
    : reduceType == ReduceType::MAX ? lngrad_rep::Kind::kMax
                                    : lngrad_rep::Kind::kMin;

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask,
                  const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                  const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, U>, "ReduceRepeat: lngrad emulates T == U only");
  static_assert(reduceType != ReduceType::NONE, "ReduceRepeat: reduceType must be SUM/MAX/MIN");
  lngrad_rep::WholeReduce(kReduceKind<reduceType>, "ReduceRepeat", dst, src,
                          lngrad_rep::Plan<T, isSetMask>("ReduceRepeat", mask, repeatTime),
                          dstRepStride, srcBlkStride, srcRepStride, order, loc);
}

// ReduceDataBlock and ReducePairElem: BlockReduceSum/Max/Min and PairReduceSum with mask first.
#define LNGRAD_REDUCE_2025(NAME, KINDS, KINDS_TEXT, CALL)                                         \
  template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M> \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask,                  \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
            const int32_t srcRepStride,                                                           \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                     \
    static_assert(std::is_same_v<T, U>, #NAME ": lngrad emulates T == U only");                   \
    static_assert(KINDS, #NAME ": reduceType must be " KINDS_TEXT);                               \
    CALL(#NAME, dst, src, lngrad_rep::Plan<T, isSetMask>(#NAME, mask, repeatTime), dstRepStride,  \
         srcBlkStride, srcRepStride, loc);                                                        \
  }
#define LNGRAD_BLOCK_KIND(...) lngrad_rep::BlockReduce(kReduceKind<reduceType>, __VA_ARGS__)
LNGRAD_REDUCE_2025(ReduceDataBlock, reduceType != ReduceType::NONE, "SUM/MAX/MIN",
                   LNGRAD_BLOCK_KIND)
LNGRAD_REDUCE_2025(ReducePairElem, reduceType == ReduceType::SUM, "SUM", lngrad_rep::PairReduce)
#undef LNGRAD_BLOCK_KIND
#undef LNGRAD_REDUCE_2025

// ---- ReduceSum / ReduceMax / ReduceMin: level 0 (mask, repeatTime, srcRepStride) and
// level 2 (count). dst[0] = the value; with calIndex, dst[1] = the index of its first
// occurrence, as the bits of a T (element offset from src: r * srcRepStride * epb + lane).
// Level 0 sets its masks itself and leaves the mask register as it was; level 2 leaves it
// full and in Normal mode, like the count forms (mask.h). ----

namespace lngrad_rep_detail {
// The lanes a level-0 mask selects (the register's rules, mask.h: a continuous mask sets the
// first `mask` lanes; a 4-byte type reads mask[0] only).
template <typename T>
lngrad_rep::Lanes Level0Lanes(int64_t mask) {
  const lngrad::aicore::detail::MaskBits b =
      lngrad::aicore::detail::ContinuousMaskBits(mask, sizeof(T));
  lngrad_rep::Lanes l;
  l.w[0] = b.low;
  l.w[1] = lngrad_rep::kLanes<T> > 64 ? b.high : 0;
  return l;
}
template <typename T>
lngrad_rep::Lanes Level0Lanes(const uint64_t mask[]) {
  lngrad_rep::Lanes l;
  l.w[0] = mask[0];
  l.w[1] = lngrad_rep::kLanes<T> > 64 ? mask[1] : 0;
  return l;
}
}  // namespace lngrad_rep_detail

#define LNGRAD_REDUCE_ALL_FORM(NAME, KIND, INDEX_ARG, MASK, ...)                                   \
  template <typename T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                  \
            const LocalTensor<T>& sharedTmpBuffer, MASK, const int32_t repeatTime,                 \
            const int32_t srcRepStride __VA_ARGS__,                                                \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    lngrad_rep::ReduceWhole(KIND, #NAME, dst, src, sharedTmpBuffer,                                \
                            lngrad_rep_detail::Level0Lanes<T>(mask), repeatTime, srcRepStride, -1, \
                            INDEX_ARG, loc);                                                       \
  }
#define LNGRAD_REDUCE_ALL(NAME, KIND, INDEX_PARAM, INDEX_ARG)                    \
  LNGRAD_REDUCE_ALL_FORM(NAME, KIND, INDEX_ARG, const int32_t mask, INDEX_PARAM) \
  LNGRAD_REDUCE_ALL_FORM(NAME, KIND, INDEX_ARG, const uint64_t mask[], INDEX_PARAM)
LNGRAD_REDUCE_ALL(ReduceSum, lngrad_rep::Kind::kSum, , false)
LNGRAD_REDUCE_ALL(ReduceMax, lngrad_rep::Kind::kMax, LNGRAD_COMMA bool calIndex = 0, calIndex)
LNGRAD_REDUCE_ALL(ReduceMin, lngrad_rep::Kind::kMin, LNGRAD_COMMA bool calIndex = 0, calIndex)
#undef LNGRAD_COMMA
#undef LNGRAD_REDUCE_ALL
#undef LNGRAD_REDUCE_ALL_FORM

#define LNGRAD_REDUCE_COUNT(NAME, KIND, TEMPLATE_EXTRA, INDEX_PARAM, INDEX_ARG)                 \
  template <typename T TEMPLATE_EXTRA>                                                          \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                               \
            const LocalTensor<T>& sharedTmpBuffer, const int32_t count INDEX_PARAM,             \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                   \
    if (count < 0) {                                                                            \
      lngrad_rep::Raise(lngrad::aicore::checks::kInvalidCount, #NAME,                           \
                        "count is " + std::to_string(count) + ", which must be >= 0");          \
    }                                                                                           \
    lngrad_rep::ReduceWhole(KIND, #NAME, dst, src, sharedTmpBuffer, {}, 0, 8, count, INDEX_ARG, \
                            loc);                                                               \
  }
#define LNGRAD_COMMA ,
LNGRAD_REDUCE_COUNT(ReduceSum, lngrad_rep::Kind::kSum, LNGRAD_COMMA bool isSetMask = true, , false)
LNGRAD_REDUCE_COUNT(ReduceMax, lngrad_rep::Kind::kMax, , LNGRAD_COMMA bool calIndex = 0, calIndex)
LNGRAD_REDUCE_COUNT(ReduceMin, lngrad_rep::Kind::kMin, , LNGRAD_COMMA bool calIndex = 0, calIndex)
#undef LNGRAD_COMMA
#undef LNGRAD_REDUCE_COUNT

// The sum of the last level-2 ReduceSum of this block (ReduceSum's register; half, float).
template <typename T>
T GetReduceRepeatSumSpr() {
  static_assert(lngrad_rep::kIsReduceType<T>, "GetReduceRepeatSumSpr: T must be half or float");
  const uint64_t bits = lngrad_rep::ReduceSumRegister();
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

namespace lngrad_rep_detail {
// The register as the A2/A3 forms read it (GetReduceRepeatMaxMinSpr, GetReduceMaxMinCount).
template <typename T>
lngrad_rep::MaxMinSpr ReadA2A3MaxMin(const char* api, lngrad::aicore::SrcLoc loc) {
  static_assert(lngrad_rep::kIsReduceType<T>,
                "GetReduceRepeatMaxMinSpr, GetReduceMaxMinCount: T must be half or float");
  return lngrad_rep::ReadMaxMinRegister(api, lngrad::aicore::detail::ArchBit::k2201, "Atlas A2/A3",
                                        loc);
}
}  // namespace lngrad_rep_detail

// The extreme of the last ReduceRepeat<MAX/MIN> / WholeReduceMax/Min / ReduceMax/Min of this
// block, and its index as the bits of a T (reinterpret as uint16_t/uint32_t to read it), as the
// vendor's A2/A3 implementation returns them; the one-argument form is the Atlas inference
// series' (value only). Checked mode: unsupported_on_product elsewhere, and reduce_spr after a
// reduction the register is not documented for (Counter mode, srcBlkStride != 1 or
// srcRepStride != 8).
template <typename T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex,
                              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  const lngrad_rep::MaxMinSpr spr =
      lngrad_rep_detail::ReadA2A3MaxMin<T>("GetReduceRepeatMaxMinSpr", loc);
  std::memcpy(&maxMinValue, &spr.value_bits, sizeof(T));
  maxMinIndex = lngrad_rep::IndexAsT<T>(spr.index);
}
template <typename T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue,
                              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(lngrad_rep::kIsReduceType<T>, "GetReduceRepeatMaxMinSpr: T must be half or float");
  const lngrad_rep::MaxMinSpr spr = lngrad_rep::ReadMaxMinRegister(
      "GetReduceRepeatMaxMinSpr", lngrad::aicore::detail::ArchBit::k2002,
      "the Atlas inference series", loc);
  std::memcpy(&maxMinValue, &spr.value_bits, sizeof(T));
}
// The older name (A2/A3): the same register, as bits (uint32_t) or as T.
template <typename T>
void GetReduceMaxMinCount(uint32_t& maxMinValue, uint32_t& maxMinIndex,
                          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  const lngrad_rep::MaxMinSpr spr =
      lngrad_rep_detail::ReadA2A3MaxMin<T>("GetReduceMaxMinCount", loc);
  maxMinValue = static_cast<uint32_t>(spr.value_bits);
  maxMinIndex = spr.index;
}
template <typename T>
void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex,
                          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  GetReduceRepeatMaxMinSpr<T>(maxMinValue, maxMinIndex, loc);
}

// ---- Brcb: src[i*8 + j] fills data block (i * dstRepStride + j * dstBlkStride) of dst. ----

template <typename T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
          const BrcbRepeatParams& repeatParams,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: T must be a 2- or 4-byte type");
  namespace r = lngrad_rep;
  const char* api = "Brcb";
  if (repeatParams.dstBlkStride == 0 && lngrad::aicore::CheckedMode()) {
    r::Raise(lngrad::aicore::checks::kVectorStride, api,
             "repeatParams.dstBlkStride is 0, which the device leaves undefined");
  }
  if (repeatTime == 0) return;
  const uint64_t blk =
      uint64_t{repeatParams.dstBlkStride == 0 ? 1u : repeatParams.dstBlkStride} * r::kBlockBytes;
  const uint64_t rep = uint64_t{repeatParams.dstRepStride} * r::kBlockBytes;
  const uint64_t dst_extent = (repeatTime - 1) * rep + 7 * blk + r::kBlockBytes;
  const uint64_t src_bytes = uint64_t{repeatTime} * 8 * sizeof(T);
  r::CheckOperand(api, "src", src.View(), src_bytes, r::kBlockBytes,
                  "repeatTime " + std::to_string(repeatTime) + " reads 8 elements each");
  r::CheckOperand(api, "dst", dst.View(), dst_extent, r::kBlockBytes,
                  "repeatTime " + std::to_string(repeatTime) + ", dstRepStride " +
                      std::to_string(repeatParams.dstRepStride) + ", dstBlkStride " +
                      std::to_string(repeatParams.dstBlkStride));
  r::CheckDisjoint(api, "dst", dst.View(), dst_extent, "src", src.View(), src_bytes);
  auto* d = reinterpret_cast<std::byte*>(dst.HostPtr());
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, api, loc);
  if (in) {
    in.Read(src.HostPtr(), src_bytes);
    r::Runs w(in, true);
    for (uint32_t i = 0; i < repeatTime; ++i) {
      for (uint32_t j = 0; j < 8; ++j) w.Add(d + i * rep + j * blk, 32);
    }
  }
  const T* s = src.HostPtr();
  for (uint32_t i = 0; i < repeatTime; ++i) {
    T v[8];
    std::memcpy(v, s + i * 8, sizeof v);
    for (uint32_t j = 0; j < 8; ++j) {
      std::byte* out = d + i * rep + j * blk;
      for (uint32_t k = 0; k < r::kPerBlock<T>; ++k) r::Store(out + k * sizeof(T), v[j]);
    }
  }
}

}  // namespace AscendC
