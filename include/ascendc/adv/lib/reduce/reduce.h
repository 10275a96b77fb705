// lngrad: the Ascend C high-level reduce APIs over a 2-dim source (the vendor's
// adv_api/reduce/reduce.h): ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceAny,
// ReduceAll, each with and without sharedTmpBuffer. srcShape = {first, last}; the source is
// `first` rows of `last` elements, each row padded to 32 bytes when srcInnerPad. Pattern AR
// reduces the last axis (dst gets `first` values), RA the first (dst gets `last` values).
//
// Types: half/float (Max, Min, Mean), float (Sum, Prod), float/uint8_t (Any, All) on arch 2201;
// arch 3510 adds the integer types of ReduceMax/ReduceMin/ReduceSum and takes float only for
// ReduceMean. Arch 3510 reads row r at r * last whatever srcInnerPad says. The trees:
// reduce_model.h (2201) and reduce_3510.h (the 950's register orders, Runs3510; Folds3510 adds
// the integer types, the 8-byte ones with the B64 functions' 8-register folds). isReuseSource lets
// the API overwrite src with partial results: on 2201 lngrad writes those of the RA fold and of
// the AR sequences (reduce_ar_2201.h: float ReduceSum/Mean/Max/Min/Prod/Any/All, half
// ReduceMax/Min, uint8_t ReduceAny/All; reduce_ar_mean_half_2201.h: half ReduceMean), and
// without it their rows in the scratch; arch 2002 has no
// implementation (refused; unchecked a no-op); where the 950's order runs, src and the scratch are
// left as the 950's register code leaves them (reduce_3510_mem.h: its folds with isReuseSource and
// its unaligned paths in src, the others in the scratch).
//
// Checked mode: srcShape without zero dimensions, srcInnerPad true (except ReduceMax/Min/Sum on
// 3510), the type on the running product (checks::kProduct), on 3510 ReduceMean/Prod/Any/All
// rows of whole 32-byte blocks (the kit's 3510 checks), 32-byte aligned operands, dst disjoint
// from src, sharedTmpBuffer at least the GetReduceXxxMaxMinTmpSize minimum; on 2201 no AR shape
// whose sequence the device computes wrongly (reduce_ar_defects.h, checks::kReduceDeviceDefect;
// unchecked mode follows the device there).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "lib/reduce/reduce_3510.h"
#include "lib/reduce/reduce_ar_2201.h"
#include "lib/reduce/reduce_ar_defects.h"
#include "lib/reduce/reduce_ar_mean_half_2201.h"
#include "lib/reduce/reduce_3510_mem.h"
#include "lib/reduce/reduce_common.h"
#include "lib/reduce/reduce_model.h"

namespace lngrad::aicore::reduce_detail {

// True when the 950's order runs (reduce_3510.h) on arch 3510: ReduceMax/Min (float, half,
// bfloat16_t) and float ReduceSum/ReduceMean/ReduceProd/ReduceAny/ReduceAll, every row (the 950
// reads them unpadded, Check). Integer types are exact whatever the order: they run the 950's
// folds too (Folds3510, for what they leave in src and the scratch; 8 bytes: the B64 folds).
template <typename T>
bool Runs3510(Op op) {
  constexpr bool f = std::is_same_v<T, float>;
  constexpr bool fp = f || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
  return ((op == Op::kMax || op == Op::kMin) ? fp : f) && On3510();
}

// True where the 950's folds run on src and the scratch (reduce_3510_mem.h): Runs3510, and the
// integer types, whose code is the float code's up to 4 bytes and the B64 functions' for 8 bytes
// (64-element register pairs, 8 folded a pass, strided); their values are exact in any order, so
// the 950's order gives the 2201 model's values.
template <typename T>
bool Folds3510(Op op) {
  return Runs3510<T>(op) || (std::is_integral_v<T> && On3510());
}

// The AR rows of one reduce API (2201 order, or the 950's where Runs3510: rows longer than a
// register fold in `sm` (src) or `tm` (the scratch), reduce_3510_mem.h).
template <typename T>
void RunAr(Op op, bool reuse, bool on3510, const Shape& s, const T* x, T* out, Mem<T>& sm,
           Mem<T>& tm) {
  std::vector<T> row(s.last);
  const Op fold = op == Op::kMean ? Op::kSum : op;
  const bool unaligned = s.last % (32 / sizeof(T)) != 0 && SplitsUnaligned(fold);
  const bool long_row = unaligned ? s.last >= kLanes3510<T> : s.last > kLanes3510<T>;
  for (uint32_t r = 0; r < s.first; ++r) {
    const T* xr = x + uint64_t{r} * s.pad;
    if (on3510) {
      const T v = long_row ? ArLongRowMem(sm, uint64_t{r} * s.last, tm,
                                          uint64_t{r} * MainPart(s.last, false), s.last, fold,
                                          reuse, unaligned)
                           : ArRow3510(xr, s.last, fold, reuse);
      out[r] = op == Op::kMean ? Scale(v, s.last) : v;
      continue;
    }
    if (op == Op::kSum || op == Op::kMean) {
      const T v = ArSumRow(xr, s.last);
      out[r] = op == Op::kMean ? Scale(v, s.last) : v;
      continue;
    }
    if (op == Op::kMax || op == Op::kMin) {
      out[r] = ArMaxMinRow(xr, s.last, op, reuse);
      continue;
    }
    if constexpr (!std::is_integral_v<T>) {  // float ReduceAny/All: the Max/Min sequence
      if (op == Op::kAny || op == Op::kAll) {
        out[r] = ArMaxMinRow(xr, s.last, op == Op::kAny ? Op::kMax : Op::kMin, reuse);
        continue;
      }
    }
    std::copy(xr, xr + s.last, row.begin());
    FoldRows(row.data(), s.last, 1, op, false);
    out[r] = op == Op::kProd ? PlusZero(row[0]) : row[0];  // ReduceProd ends with Adds 0
  }
}

// True where lngrad runs the 2201 AR sequence itself over dst, src and the scratch
// (reduce_ar_2201.h, reduce_ar_mean_half_2201.h): ReduceSum, ReduceMean and ReduceProd on float,
// ReduceMean, ReduceMax and ReduceMin on half and float, ReduceAny and ReduceAll on float and
// uint8_t.
template <typename T>
bool ArModelled2201(Op op) {
  constexpr bool f = std::is_same_v<T, float>, h = std::is_same_v<T, half>;
  if (std::is_same_v<T, uint8_t> && (op == Op::kAny || op == Op::kAll)) return true;
  if (op == Op::kSum || op == Op::kMean || op == Op::kAny || op == Op::kAll || op == Op::kProd) {
    return f || (h && op == Op::kMean);
  }
  return (op == Op::kMax || op == Op::kMin) && (f || h);
}

// The 2201 AR sequences of reduce_ar_2201.h; returns the scratch bytes they store to (past a
// scratch too small, unchecked, into the UB as the device does; without a scratch the work runs
// aside).
// The scratch as the sequence's element type W (a sequence too long for it, unchecked, runs
// on into the UB as the device does; without a scratch the work runs aside in `local`).
template <typename W>
W* ArWork(const AscendC::LocalTensor<uint8_t>& tmp, uint64_t reach, std::vector<W>& local) {
  if (reach * sizeof(W) > tmp.View().size_bytes && tmp.HostPtr() != nullptr) {
    detail::OnTensorOverrun(tmp.View(), 0, reach, sizeof(W), "sharedTmpBuffer");
  }
  if (reach == 0) return nullptr;
  if (tmp.HostPtr() != nullptr) return reinterpret_cast<W*>(tmp.HostPtr());
  local.resize(reach);
  return local.data();
}

// uint8_t ReduceAny/ReduceAll<AR> on 2201 (reduce_ar_2201.h); returns the scratch bytes stored.
inline uint64_t RunArU8(Op op, const Shape& s, const AscendC::LocalTensor<uint8_t>& src,
                        uint8_t* out, const AscendC::LocalTensor<uint8_t>& tmp) {
  src.Access(0, uint64_t{s.first} * ((s.last + 31) / 32 * 32), Name(op));
  const uint64_t reach = ArAnyAllU8WorkReach(s.first, s.last);
  std::vector<half> local;
  half* h = ArWork<half>(tmp, reach, local);
  RunArAnyAllU8_2201(op == Op::kAny, s.first, s.last, src.HostPtr(), h, out);
  return tmp.HostPtr() != nullptr ? reach * sizeof(half) : 0;
}

// ReduceMean<half, AR> on 2201 (reduce_ar_mean_half_2201.h): src is read (and, reusing it,
// written) up to the rows 2r its work rows copy, past the shape's rows as on the device (past the
// tensor: refused in checked mode, the UB unchecked); returns the scratch bytes stored.
inline uint64_t RunArMeanHalf(bool reuse, const Shape& s, const AscendC::LocalTensor<half>& src,
                              half* out, const AscendC::LocalTensor<uint8_t>& tmp) {
  const ArMeanHalfPlan q = PlanArMeanHalf(s.first, s.last);
  src.Access(0, ArMeanHalfReach(q, reuse, true), Name(Op::kMean));
  const uint64_t reach = ArMeanHalfReach(q, reuse, false);
  std::vector<half> local;
  half* w = ArWork<half>(tmp, reach, local);
  RunArMeanHalf2201(reuse, q, src.HostPtr(), w, out);
  return tmp.HostPtr() != nullptr ? reach * sizeof(half) : 0;
}

template <typename T>
uint64_t RunAr2201(Op op, bool reuse, const Shape& s, const AscendC::LocalTensor<T>& src, T* out,
                   const AscendC::LocalTensor<uint8_t>& tmp) {
  if constexpr (std::is_same_v<T, half>) {
    if (op == Op::kMean) return RunArMeanHalf(reuse, s, src, out, tmp);
  }
  const bool sum = op == Op::kSum || op == Op::kMean;
  const ArSumPlan q = PlanArSum(s.first, s.last);
  constexpr uint32_t blk = 32 / sizeof(T);
  // The kit pads the rows to 32 bytes whatever srcInnerPad says (unchecked: false reads past).
  src.Access(0, uint64_t{s.first} * ((s.last + blk - 1) / blk * blk), Name(op));
  const bool prod = op == Op::kProd;
  uint64_t reach = ArMaxMinWorkReach<T>(s.first, s.last, reuse);
  if (sum) reach = reuse ? 0 : ArSumWorkReach(q, false);
  if (prod) reach = ArProdWorkReach(s.first, s.last, reuse);
  const uint64_t bytes = reach * sizeof(T);
  std::vector<T> local;
  T* w = ArWork<T>(tmp, reach, local);
  if (!sum && !prod) {
    const bool is_max = op == Op::kMax || op == Op::kAny;
    RunArMaxMin2201<T>(is_max, reuse, s.first, s.last, src.HostPtr(), w, out);
  } else if constexpr (std::is_same_v<T, float>) {
    if (prod) {
      RunArProd2201(reuse, s.first, s.last, src.HostPtr(), w, out);
    } else {
      RunArSum2201(op == Op::kMean, reuse, q, src.HostPtr(), w, out);
    }
  }
  return tmp.HostPtr() != nullptr ? bytes : 0;
}

// The RA columns of one reduce API. 2201: BinaryReduceByFirstAxis's fold, the result row moved
// to dst with Adds 0 (uint8 Any/All: RaOutCount bytes), the fold's partial rows left in src with
// isReuseSource, else in the scratch (FoldRowsInto; returns the scratch bytes it wrote; without
// a scratch, unchecked, the fold runs aside); 3510: the 950's order, in src or the scratch as
// the 950 folds (reduce_3510_mem.h).
template <typename T>
uint64_t RunRa(Op op, bool reuse, bool on3510, const Shape& s, T* x, T* out, Mem<T>& sm, Mem<T>& tm,
               const AscendC::LocalTensor<uint8_t>& tmp) {
  const bool mean = op == Op::kMean;
  if (on3510) {
    RaColsMem(sm, tm, s.first, s.last, mean ? Op::kSum : op, reuse, out);
    for (uint32_t c = 0; c < s.last && mean; ++c) out[c] = Scale(out[c], s.first);
    return 0;
  }
  // uint8 ReduceAny/All: Or/And on 2201; the 950 runs Reg::Max/Min (ReduceRAImpl).
  const bool bitwise = RaBitwise<T>(op);
  uint64_t written = 0;
  const T* row = x;
  std::vector<T> local;
  if (reuse) {
    FoldRows(x, s.first, s.pad, op, bitwise);
  } else {
    // The scratch's rows as the kit's fold leaves them (an overrun, unchecked, inside the UB).
    const uint64_t rows = s.first > 1 ? HalfK(s.first, true) : 0;
    written = rows * s.pad * sizeof(T);
    if (written > tmp.View().size_bytes && tmp.HostPtr() != nullptr) {
      detail::OnTensorOverrun(tmp.View(), 0, rows * s.pad, sizeof(T), "sharedTmpBuffer");
    }
    T* t = written != 0 && tmp.HostPtr() != nullptr ? reinterpret_cast<T*>(tmp.HostPtr()) : nullptr;
    if (t == nullptr && written != 0) {
      local.resize(rows * s.pad);
      t = local.data();
    }
    row = FoldRowsInto(x, t, s.first, s.pad, op, bitwise) == 0 ? x : t;
  }
  for (uint64_t c = 0; c < RaOutCount<T>(op, s.last); ++c) {
    out[c] = mean ? Scale(PlusZero(row[c]), s.first) : PlusZero(row[c]);
  }
  return tmp.HostPtr() != nullptr ? written : 0;
}

// Runs one reduce API: dst gets the reduction of src ([first, pad] row-major) over the last axis
// (ar) or the first.
template <typename T>
void Run(Op op, bool ar, bool reuse, const AscendC::LocalTensor<T>& dst,
         const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
         const uint32_t srcShape[], bool srcInnerPad, SrcLoc loc) {
  const Shape s = Check(op, ar, reuse, dst, src, tmp, srcShape, srcInnerPad);
  // Arch 2002 (unchecked): the kit's reduce.h has no implementation there; the call does nothing.
  if (detail::rep::RunningArch() == NpuArch::k2002) return;
  const bool on3510 = Folds3510<T>(op);
  const bool ar_modelled = ar && !on3510 && ArModelled2201<T>(op);
  if (ar_modelled && CheckedMode()) CheckArDeviceDefect<T>(op, reuse, s.first, s.last);
  detail::RestoreMaskAfterCount(detail::MaskContext(Name(op)));
  const uint64_t in = uint64_t{s.first} * s.pad;
  // The operands as the 950's folds address them (and the UB after each): src's elements and
  // the scratch as T, each with room for a register past the fold's extent.
  auto* sb = reinterpret_cast<uint8_t*>(src.HostPtr());
  Mem<T> sm = on3510 ? Mem<T>::Of(src, in + 2 * kLanes3510<T>) : Mem<T>(nullptr, 0, 0);
  Mem<T> tm =
      on3510 ? Mem<T>::Of(tmp, ScratchNeed<T>(ar, reuse, s.first, s.last)) : Mem<T>(nullptr, 0, 0);
  uint64_t ra_tmp = 0;  // the scratch bytes the 2201 RA fold (or modelled AR sequence) writes
  if (ar_modelled) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half>) {
      ra_tmp = RunAr2201(op, reuse, s, src, dst.HostPtr(), tmp);
    } else if constexpr (std::is_same_v<T, uint8_t>) {
      ra_tmp = RunArU8(op, s, src, dst.HostPtr(), tmp);
    }
  } else if (ar) {
    RunAr(op, reuse, on3510, s, src.HostPtr(), dst.HostPtr(), sm, tm);
  } else {
    ra_tmp = RunRa(op, reuse, on3510, s, src.HostPtr(), dst.HostPtr(), sm, tm, tmp);
  }
  CheckReach(sm, Name(op), "srcTensor");
  CheckReach(tm, Name(op), "sharedTmpBuffer");
  sm.Commit();
  tm.Commit();
  san::Instr rec(Pipe::kV, Name(op), loc);
  if (rec) {
    // Half ReduceMean's AR rows on 2201 read (reusing: write) src past the shape's rows.
    uint64_t src_elems = in;
    if constexpr (std::is_same_v<T, half>) {
      if (ar_modelled && op == Op::kMean) {
        src_elems = ArMeanHalfReach(PlanArMeanHalf(s.first, s.last), reuse, true);
      }
    }
    rec.Read(src.HostPtr(), src_elems * sizeof(T));
    if (reuse && !on3510) rec.Write(src.HostPtr(), src_elems * sizeof(T));
    if (sm.WrittenBytes() != 0) rec.Write(sb, sm.WrittenBytes());
    if (tm.WrittenBytes() != 0) rec.Write(tmp.HostPtr(), tm.WrittenBytes());
    if (ra_tmp != 0) rec.Write(tmp.HostPtr(), ra_tmp);
    rec.Write(dst.HostPtr(), (ar ? s.first : RaOutCount<T>(op, s.last)) * sizeof(T));
  }
  // 2201's other AR sequences work in the scratch (not modelled): initcheck reports later
  // reads. The RA fold's scratch and the modelled AR ones (ArModelled2201) are written above.
  if (ar && !ar_modelled && detail::rep::RunningArch() != NpuArch::k3510) {
    math_detail::LeaveScratch(Name(op), loc, tmp.View());
  }
}

}  // namespace lngrad::aicore::reduce_detail

namespace AscendC {

#define LNGRAD_HIGH_LEVEL_REDUCE(NAME, OP)                                                         \
  template <class T, class pattern, bool isReuseSource = false>                                    \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],                \
            bool srcInnerPad, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {    \
    static_assert(std::is_same_v<pattern, Pattern::Reduce::AR> ||                                  \
                      std::is_same_v<pattern, Pattern::Reduce::RA>,                                \
                  #NAME ": only the AR and RA patterns are supported");                            \
    lngrad::aicore::reduce_detail::Run(OP, std::is_same_v<pattern, Pattern::Reduce::AR>,           \
                                       isReuseSource, dstTensor, srcTensor, sharedTmpBuffer,       \
                                       srcShape, srcInnerPad, loc);                                \
  }                                                                                                \
  template <class T, class pattern, bool isReuseSource = false>                                    \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
            const uint32_t srcShape[], bool srcInnerPad,                                           \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    NAME<T, pattern, isReuseSource>(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), \
                                    srcShape, srcInnerPad, loc);                                   \
  }

LNGRAD_HIGH_LEVEL_REDUCE(ReduceSum, lngrad::aicore::reduce_detail::Op::kSum)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceMean, lngrad::aicore::reduce_detail::Op::kMean)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceMax, lngrad::aicore::reduce_detail::Op::kMax)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceMin, lngrad::aicore::reduce_detail::Op::kMin)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceProd, lngrad::aicore::reduce_detail::Op::kProd)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceAny, lngrad::aicore::reduce_detail::Op::kAny)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceAll, lngrad::aicore::reduce_detail::Op::kAll)
#undef LNGRAD_HIGH_LEVEL_REDUCE

}  // namespace AscendC
