// lngrad: SimpleSoftMax — the toolkit's adv_api/activation/simplesoftmax.h: SoftMax with the
// row sum and max given (no reduction). Algorithm of membase/common/simple_softmax_common_impl.h,
// in float: dst = exp(x - inMax) / inSum (Sub, Exp, Div; half statistics widened, half data
// rounded once at the end). inSum/inMax are [rows, 32 B]; column c of a row uses lane c % 8 of
// the row's statistics on 2201/2002 (GenericSub/DivNDImpl's block strides read the row's first
// 8 lanes block by block), lane 0 on 3510 (ColumnLane); the other APIs write them equal.
// isDataFormatNZ: softmax_nz.h SimpleNzRows (SimpleSoftMaxNZImpl's order, on every arch; on
// 2201/2002 the work buffer as softmax_nz_work.h writes it).
// On 3510 (regbase/3510/simple_softmax_impl.h SimpleSoftMaxNDImpl) the function is chosen as the
// register code chooses it (SimpleWholeRegisters): with srcK not a multiple of 64 the
// whole-register SimpleSoftMaxGenericNDImpl runs past each row (SimpleWholeRows). Checked mode
// refuses isBasicBlock with srcK not a multiple of 64 (invalid_count: the 2201/2002 kernel check
// asserts it, and 3510's whole registers mix rows) and names the last row's store past dstTensor
// (tensor_bounds); unchecked, 2201/2002 run SimpleSoftMaxBasicBlock's strides
// (SimpleBasicRowsMembase: half data's buffer and dst as the device leaves them). Half data with
// isBasicBlock on 2201/2002 computes only the tiling's rangeM full splits (BasicSplitRows): checked
// mode refuses a tiling that leaves rows (invalid_count, naming them); unchecked, those rows of dst
// are left as the device leaves them. The constant-shape config's generic path with half statistics
// and a tiling whose reduceK is not 16 reads statistics the split's copy did not write
// (CfgHalfStatsRight): refused in checked mode (softmax_device_defect); unchecked, dst and the work
// buffer as the device leaves them. The default config's generic path on 2201/2002 reads row r's
// statistics at r * reduceK (SimpleDefaultStatRows): a tiling made for the other statistics type
// (reduceK 8 with half, 16 with float statistics) gives rows other rows' statistics, refused in
// checked mode (softmax_device_defect); unchecked SimpleRows reads where the device reads (past the
// tensors inside the UB: what the simulated UB holds there). 2002's half data with float statistics
// reads 8 floats a row whatever reduceK: its own rows. isBasicBlock with a tiling whose counts
// pass SimpleSoftMaxBasicBlock's uint8_t casts (SimpleBasicWrapped): refused in checked mode
// (softmax_device_defect); unchecked, half data's dst and work buffer as the device's wrapped
// repeats leave them (SimpleHalfPrepare), float data's SimpleBasicRowsMembase (stride srcK / 8).
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax.h"

namespace lngrad::aicore::softmax_detail {

// Whether 3510's SimpleSoftMaxNDImpl runs SimpleSoftMaxGenericNDImpl (ceil(srcK / 64) whole
// registers per row under the full mask) where it differs from the WithTail function (srcK not a
// multiple of 64): with isBasicBlock; else, with config.oriSrcM and config.oriSrcK both set (the
// constant shape), when config.oriSrcK is a multiple of 64 whatever srcK; never with the default
// config (it picks WithTail by srcK % 64). Not on 2201/2002.
inline bool SimpleWholeRegisters(bool basic, uint32_t cfgOriSrcM, uint32_t cfgOriSrcK, uint32_t k) {
  if (!RegBase() || k % kLanes == 0) return false;
  if (basic) return true;
  return cfgOriSrcM != 0 && cfgOriSrcK != 0 && cfgOriSrcK % kLanes == 0;
}

// The elements of src read and of dst written by SimpleWholeRows: the last row's registers end
// past m * srcK.
inline uint64_t SimpleWholeExtent(const Dims& d) {
  const uint64_t reps = (d.k + kLanes - 1) / kLanes;
  return d.m == 0 ? 0 : uint64_t{d.m - 1} * d.k + reps * kLanes;
}

// SimpleSoftMaxGenericNDImpl with srcK not a multiple of 64: row by row, each 64-lane register at
// r * srcK + j * 64 loaded, computed (Sub, Exp, Div under the full mask) and stored before the
// next, so a row's last register reads the next row's first columns of src and stores over the
// next row's first columns of dst (which that row then rewrites; with dst = src it reads what was
// stored there), and the last row's runs past the tensors.
template <typename T, typename U>
void SimpleWholeRows(T* dst, const U* inSum, const U* inMax, const T* src, const Dims& d) {
  std::vector<float> x;
  const uint32_t reps = (d.k + kLanes - 1) / kLanes;
  for (uint32_t r = 0; r < d.m; ++r) {
    const float mx = Widen(inMax[uint64_t{r} * Lanes<U>()]);
    const float sm = Widen(inSum[uint64_t{r} * Lanes<U>()]);
    for (uint32_t j = 0; j < reps; ++j) {
      const uint64_t at = uint64_t{r} * d.k + uint64_t{j} * kLanes;
      LoadRow(x, src + at, kLanes);
      for (float& v : x) v = v - mx;
      ExpInPlace(x);
      for (float& v : x) v = v / sm;
      StoreRow(dst + at, x);
    }
  }
}

// isBasicBlock on 2201/2002 with srcK not a multiple of 64, outside checked mode
// (SimpleSoftMaxBasicBlock of membase/common/simple_softmax_common_impl.h; the kernel check
// asserts srcK % 64 == 0, so checked mode refuses it first): its Sub and Div repeat over
// 64 * (splitK / 64) columns (a uint8 stride in blocks), so they step through the data at that
// stride, not srcK. Float data (the device branch): the Sub of rows r < srcM, chunks j < srcK / 64
// at r * 8 * uint8(srcK / 8) + 64 j into dst (statistics lane l % 8 of row r), Exp over srcSize
// elements of dst (the others hold dst's old contents), the Div on the Sub's elements: every
// index below srcSize. Half data: SimpleHalfPrepare's basic form over an image of the work
// buffer (per split i < rangeM, the tail split not computed: uint8(splitSize / 64) * 64 elements
// cast, the Sub and Div over uint8(splitM) repeats at the uint8 stride, reading what the buffer
// holds past the Cast's repeats where the counts wrap, the statistics from the buffer's float
// copy or the float statistics), dst and the buffer as the device leaves them: returns true
// (the buffer modelled). Where that image is not modelled (a buffer smaller than the split and
// the statistics' copy, or a read past the tensors), lngrad's splits from their own elements:
// where the wrapped counts make the Sub or Div reach past the Cast's repeats, or the statistics
// rows past inSumTensor or inMaxTensor, the call is refused (softmax_device_defect: not
// followed). t: the tiling the kernel runs (SoftMaxKernelTiling; one it would run unchanged for
// another shape is refused).
template <typename T, typename U>
bool SimpleBasicRowsMembase(const AscendC::LocalTensor<T>& dst,
                            const AscendC::LocalTensor<U>& inSum,
                            const AscendC::LocalTensor<U>& inMax,
                            const AscendC::LocalTensor<T>& src,
                            const AscendC::LocalTensor<uint8_t>& tmp,
                            const AscendC::tiling::SoftMaxTiling& t, const Dims& d, SrcLoc loc) {
  const char* api = "SimpleSoftMax";
  if (t.srcM != d.m || t.srcK != d.k || t.splitK != t.srcK ||
      t.srcSize != uint64_t{t.srcM} * t.srcK || t.splitSize != uint64_t{t.splitM} * t.splitK) {
    RaiseKernelCheck(checks::kInvalidCount,
                     std::string(api) +
                         ": isBasicBlock with srcK not a multiple of 64 is followed only with a "
                         "tiling for the shape (srcSize and splitSize of its srcM, splitM, srcK)");
  }
  constexpr bool isFloat = std::is_same_v<T, float>;
  const uint32_t chunks = (isFloat ? t.srcK : t.splitK) / kLanes;
  const uint32_t stride =
      isFloat ? static_cast<uint8_t>(t.srcK / 8) * 8u : static_cast<uint8_t>(8 * chunks) * 8u;
  const uint32_t parts = isFloat ? 1 : t.rangeM;
  const uint32_t rows = isFloat ? t.srcM : static_cast<uint8_t>(t.splitM);
  const uint64_t n = isFloat ? t.srcSize : static_cast<uint8_t>(t.splitSize / kLanes) * kLanes;
  const uint32_t statStride = sizeof(U) == 4 ? 8 : 16;
  const uint64_t reach = parts == 0 ? 0 : uint64_t{parts - 1} * (isFloat ? 0 : t.splitSize) + n;
  const uint64_t sreach = uint64_t{t.srcM} * Lanes<U>();
  namespace md = math_detail;
  CheckRows(api,
            {md::Op(dst, "dstTensor"), md::Op(src, "srcTensor"), md::Op(inSum, "inSumTensor"),
             md::Op(inMax, "inMaxTensor")},
            {reach, reach, sreach, sreach});
  RecordCall(api, loc, {Rd(src, reach), Rd(inSum, sreach), Rd(inMax, sreach), Wr(dst, reach)});
  const auto statAt = [&](uint64_t i) {
    return sizeof(U) == 4 ? i * t.reduceM * 8 : i * t.reduceSize;
  };
  if constexpr (!isFloat) {
    const uint64_t nd =
        std::min<uint64_t>(uint64_t{t.rangeM} * t.splitSize, dst.View().size_bytes / sizeof(T));
    std::vector<half> out(dst.HostPtr(), dst.HostPtr() + nd);
    if (auto w = SimpleHalfPrepare<U>(t, true, d, inSum, inMax, src, tmp, false, &out)) {
      std::memcpy(dst.HostPtr(), out.data(), out.size() * sizeof(T));
      w->Store(api, loc);
      return true;
    }
  }
  // lngrad's splits from their own elements: every index inside w and the statistics tensors.
  const uint64_t eEnd =
      rows == 0 || chunks == 0 ? 0 : uint64_t{rows - 1} * stride + chunks * kLanes;
  const uint64_t sEnd =
      parts == 0 || rows == 0 ? 0 : statAt(parts - 1) + uint64_t{rows - 1} * statStride + 8;
  const uint64_t sHeld = std::min(inSum.View().size_bytes, inMax.View().size_bytes) / sizeof(U);
  if (eEnd > n || sEnd > sHeld) {
    RaiseKernelCheck(
        checks::kSoftmaxDeviceDefect,
        std::string(api) + " isBasicBlock [" + std::to_string(d.m) + ", " + std::to_string(d.k) +
            "] (unchecked) with a tiling of splits of " + std::to_string(t.splitM) +
            " rows: SimpleSoftMaxBasicBlock's wrapped uint8_t counts make its Sub and Div reach "
            "element " +
            std::to_string(eEnd) + " of a split whose Cast covers " + std::to_string(n) +
            ", statistics element " + std::to_string(sEnd) +
            ": not followed without the work buffer's image (a sharedTmpBuffer holding the "
            "split and the statistics' float copy); use the host tiling");
  }
  for (uint32_t i = 0; i < parts; ++i) {
    const uint64_t o1 = uint64_t{i} * t.splitSize, o2 = statAt(i);
    std::vector<float> w;
    // float: dst is the work buffer (the Sub writes it from src, the Exp runs over all of it)
    if (isFloat) {
      LoadRow(w, dst.HostPtr(), static_cast<uint32_t>(n));
    } else {
      LoadRow(w, src.HostPtr() + o1, static_cast<uint32_t>(n));
    }
    const auto pass = [&](const U* stat, bool div) {
      for (uint32_t j = 0; j < chunks; ++j) {
        for (uint32_t r = 0; r < rows; ++r) {
          for (uint32_t l = 0; l < kLanes; ++l) {
            const uint64_t e = uint64_t{r} * stride + j * kLanes + l;
            const float v = Widen(stat[o2 + uint64_t{r} * statStride + l % 8]);
            const float x = div || !isFloat ? w[e] : Widen(src.HostPtr()[e]);
            w[e] = div ? x / v : x - v;
          }
        }
      }
    };
    pass(inMax.HostPtr(), false);
    ExpInPlace(w);
    pass(inSum.HostPtr(), true);
    StoreRow(dst.HostPtr() + o1, w);
  }
  return false;
}

// SimpleSoftMaxBasicBlock's counts (membase/common/simple_softmax_common_impl.h, 2201 and 2002)
// that it casts to uint8_t and that pass 255, so the device's repeats and strides wrap. Half
// data: the Casts' and the Exp's splitSize / 64 repeats, the Sub's and the Div's splitM repeats
// and their repeat stride splitK / 8 (blocks), with half statistics their Cast's
// ceil(reduceSize / 64) repeats; float data (its device branch, counter mode over srcM rows): the
// Sub's and the Div's repeat stride srcK / 8. Empty where none wraps (or splitK is not whole
// 64-float chunks: SimpleBasicRowsMembase's path).
template <typename D, typename U>
std::string SimpleBasicWrapped(const AscendC::tiling::SoftMaxTiling& t) {
  std::string w;
  const auto add = [&w](const char* what, uint64_t v) {
    if (v > 255) w += std::string(w.empty() ? "" : ", ") + what + " = " + std::to_string(v);
  };
  if constexpr (sizeof(D) == 4) {
    add("srcK / 8", t.srcK / 8);
  } else {
    if (t.rangeM == 0 || t.splitK % kLanes != 0) return "";
    add("splitSize / 64", t.splitSize / kLanes);
    add("splitM", t.splitM);
    add("splitK / 8", t.splitK / 8);
    if (sizeof(U) == 2)
      add("ceil(reduceSize / 64)", (uint64_t{t.reduceSize} + kLanes - 1) / kLanes);
  }
  return w;
}

// Checked mode refuses SimpleSoftMax isBasicBlock where SimpleSoftMaxBasicBlock's uint8_t counts
// wrap (softmax_device_defect), before anything is written.
inline void RefuseSimpleBasicWrapped(const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                                     const std::string& wrapped) {
  if (!CheckedMode() || wrapped.empty()) return;
  RaiseKernelCheck(
      checks::kSoftmaxDeviceDefect,
      "SimpleSoftMax isBasicBlock [" + std::to_string(d.m) + ", " + std::to_string(d.k) +
          "] with a tiling of splits of " + std::to_string(t.splitM) +
          " rows (splitM): SimpleSoftMaxBasicBlock casts its repeat counts and strides to "
          "uint8_t and " +
          wrapped +
          " pass 255, so on the device they wrap and rows are left uncomputed or wrong; use the "
          "host tiling (SoftMaxTilingFunc keeps splitM * splitK below 64 * 256), splits of fewer "
          "rows, or srcK below 2048");
}

// Whether SimpleSoftMaxGenericNDImpl's constant-shape config path (config.oriSrcM and oriSrcK
// set: Sub and Div at the tiling's splitK, statistics at 32 bytes a row) takes the default
// loop's parameters: the default config, or a tiling whose reduceK is 32 bytes of U (its splitK
// is checked by the work models).
template <typename U>
bool CfgMatchesTiling(uint32_t cfgM, uint32_t cfgK, const AscendC::tiling::SoftMaxTiling& t) {
  return cfgM == 0 || cfgK == 0 || t.reduceK == Lanes<U>();
}

// SimpleSoftMaxGenericNDImpl's config path with half statistics (2201 and 2002): split i casts
// curSplitM * reduceK statistics from i * reduceSize and its Sub and Div read row r's at 16 r of
// that copy. Whether every row gets its own: a reduceK of 16, or each split's copy covering its
// rows (16 (curSplitM - 1) + 8 floats) from the split's rows (one split, or reduceSize =
// 16 splitM). Float statistics are read in place at i * reduceM * 8 + 8 r: always their own.
template <typename U>
bool CfgHalfStatsRight(const AscendC::tiling::SoftMaxTiling& t) {
  if (sizeof(U) == 4 || t.reduceK == Lanes<U>()) return true;
  const auto covers = [&](uint64_t m) { return m == 0 || 16 * (m - 1) + 8 <= m * t.reduceK; };
  const uint32_t splits = t.rangeM + (t.tailM != 0 ? 1 : 0);
  return covers(t.rangeM != 0 ? t.splitM : 0) && covers(t.tailM) &&
         (splits <= 1 || t.reduceSize == uint64_t{16} * t.splitM);
}

// Checked mode refuses the config path where its rows take other rows' statistics or stale
// floats (softmax_device_defect), before anything is written.
template <typename U>
void RefuseCfgHalfStats(const AscendC::tiling::SoftMaxTiling& t, uint32_t cfgK, const Dims& d) {
  if (!CheckedMode() || CfgHalfStatsRight<U>(t)) return;
  RaiseKernelCheck(
      checks::kSoftmaxDeviceDefect,
      "SimpleSoftMax [" + std::to_string(d.m) + ", " + std::to_string(d.k) +
          "] with the constant-shape config (config.oriSrcK = " + std::to_string(cfgK) +
          ") and a tiling whose reduceK is " + std::to_string(t.reduceK) +
          ": SimpleSoftMaxGenericNDImpl's config path casts curSplitM * reduceK half statistics "
          "from split i * reduceSize (" +
          std::to_string(t.reduceSize) +
          ") and its Sub and Div read row r's at 16 r of that copy, so on the device rows take "
          "floats the copy did not write or another row's statistics; pass a tiling made with "
          "the statistics' type size (SoftMaxTilingFunc(shape, sizeof(half), ...)) or the "
          "default config");
}

// SimpleSoftMaxGenericNDImpl's default-config form on 2201 and 2002 (membase/common/
// simple_softmax_common_impl.h): GenericSubNDImpl and GenericDivNDImpl (softmax_common/
// softmax_common_arithmetic.h) give split i's row r the statistics (lanes 0..7) at element
// base(i) + r * srcReduceK of inMaxTensor and inSumTensor. srcReduceK is the tiling's reduceK,
// except in the half-data overload with float statistics on 2002 (its __NPU_ARCH__ == 2002
// branch passes 8); base is 0 for float data (one pass over the rows), i * reduceSize for half
// statistics (their float copy of curSplitM * reduceK values keeps the indices), i * reduceM * 8
// for float statistics. Returns row g's element offset for the `rows` rows the call computes; a
// row's own statistics are at g * Lanes<U>() (32 bytes a row), so a tiling made for the other
// statistics type (reduceK 8 with half statistics, 16 with float ones) reads other rows'.
template <typename D, typename U>
std::vector<uint64_t> SimpleDefaultStatRows(const AscendC::tiling::SoftMaxTiling& t,
                                            uint32_t rows) {
  constexpr bool kFloatData = sizeof(D) == 4;
  const bool eight = !kFloatData && sizeof(U) == 4 && detail::rep::RunningArch() == NpuArch::k2002;
  const uint64_t stride = eight ? 8 : t.reduceK;
  std::vector<uint64_t> at(rows);
  for (uint32_t g = 0; g < rows; ++g) {
    const uint64_t i = kFloatData || t.splitM == 0 ? 0 : g / t.splitM;
    const uint64_t r = g - i * t.splitM;
    const uint64_t base = kFloatData ? 0 : sizeof(U) == 2 ? i * t.reduceSize : i * t.reduceM * 8;
    at[g] = base + r * stride;
  }
  return at;
}

// Checked mode refuses the default-config form where a row reads statistics not its own
// (softmax_device_defect), before anything is written.
template <typename U>
void RefuseDefaultStats(const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                        const std::vector<uint64_t>& at) {
  if (!CheckedMode()) return;
  for (uint64_t g = 0; g < at.size(); ++g) {
    if (at[g] == g * Lanes<U>()) continue;
    RaiseKernelCheck(
        checks::kSoftmaxDeviceDefect,
        "SimpleSoftMax [" + std::to_string(d.m) + ", " + std::to_string(d.k) +
            "] with a tiling whose reduceK is " + std::to_string(t.reduceK) +
            " while the statistics hold 32 bytes (" + std::to_string(Lanes<U>()) +
            " elements) a row: SimpleSoftMaxGenericNDImpl's GenericSubNDImpl and "
            "GenericDivNDImpl read row r's statistics at r * reduceK from the split's offset, so "
            "on the device row " +
            std::to_string(g) + " reads the statistics at element " + std::to_string(at[g]) +
            " (its own are at " + std::to_string(g * Lanes<U>()) +
            "); pass the tiling made for the statistics' dataTypeSize (SoftMaxTilingFunc(shape, " +
            std::to_string(sizeof(U)) + ", ...): reduceK " + std::to_string(Lanes<U>()) + ")");
  }
}

// whole: SimpleWholeRegisters' path. statAt (where given): row r's statistics at that element
// (SimpleDefaultStatRows, the device's reads, past the tensors inside the UB included), else at
// 32 bytes a row.
template <typename T, typename U>
void SimpleRows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& inSum,
                const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<uint8_t>* tmp, const Dims& d, SrcLoc loc,
                bool whole = false, const std::vector<uint64_t>* statAt = nullptr) {
  const char* api = "SimpleSoftMax";
  CheckShape<T>(api, d);
  const uint64_t n = uint64_t{d.m} * d.k, s = uint64_t{d.m} * Lanes<U>();
  namespace md = math_detail;
  CheckRows(api,
            {md::Op(dst, "dstTensor"), md::Op(src, "srcTensor"), md::Op(inSum, "inSumTensor"),
             md::Op(inMax, "inMaxTensor")},
            {n, n, s, s});
  if (tmp != nullptr) CheckTmp(api, *tmp, (uint64_t{Lanes<T>()} + d.k + kLanes) * 4);
  if (whole) {
    // The last row's store past dstTensor is the device's overrun: checked mode names it
    // (tensor_bounds); its loads past srcTensor read what the UB holds there.
    const uint64_t ext = SimpleWholeExtent(d);
    const std::string why = std::string(api) + " (srcK = " + std::to_string(d.k) +
                            ": the whole-register path stores the last row's last register "
                            "whole, to element " +
                            std::to_string(ext) + ")";
    CheckRows(why.c_str(), {md::Op(dst, "dstTensor")}, {ext});
    const detail::TensorView sv = src.View();
    detail::RequireInsideUb(sv, sv.ptr - sv.ub, ext * sizeof(T), why.c_str());
    RecordCall(api, loc, {Rd(src, ext), Rd(inSum, s), Rd(inMax, s), Wr(dst, ext)});
    SimpleWholeRows(dst.HostPtr(), inSum.HostPtr(), inMax.HostPtr(), src.HostPtr(), d);
    return;
  }
  uint64_t sr = s;  // the statistics elements read
  if (statAt != nullptr) {
    for (const uint64_t a : *statAt) sr = std::max<uint64_t>(sr, a + 8);
    const std::string why = std::string(api) + " (the statistics rows at the tiling's reduceK)";
    for (const detail::TensorView& v : {inSum.View(), inMax.View()}) {
      detail::RequireInsideUb(v, v.ptr - v.ub, sr * sizeof(U), why.c_str());
    }
  }
  RecordCall(api, loc, {Rd(src, n), Rd(inSum, sr), Rd(inMax, sr), Wr(dst, n)});
  std::vector<float> x;
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadRow(x, src.HostPtr() + uint64_t{r} * d.k, d.k);
    const uint64_t at = statAt != nullptr ? (*statAt)[r] : uint64_t{r} * Lanes<U>();
    const U* mx = inMax.HostPtr() + at;
    const U* sm = inSum.HostPtr() + at;
    for (uint32_t c = 0; c < d.k; ++c) x[c] = x[c] - Widen(mx[ColumnLane(c)]);
    ExpInPlace(x);
    for (uint32_t c = 0; c < d.k; ++c) x[c] = x[c] / Widen(sm[ColumnLane(c)]);
    StoreRow(dst.HostPtr() + uint64_t{r} * d.k, x);
  }
}

}  // namespace lngrad::aicore::softmax_detail

namespace AscendC {

// D = T and U = T, or D = half with U = float statistics (the toolkit's two overloads).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename D, typename U>
void SimpleSoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<U>& inSumTensor,
                   const LocalTensor<U>& inMaxTensor, const LocalTensor<D>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {},
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace sd = lngrad::aicore::softmax_detail;
  sd::LeaveWorkBuffer leave("SimpleSoftMax", loc, sharedTmpBuffer);
  // Float data in ND on 2201/2002 (simple_softmax_common_impl.h: SimpleSoftMaxGenericNDImpl's
  // float overload, SimpleSoftMaxBasicBlock's, either config) never touches the work buffer: its
  // Sub, Exp and Div run from src to dst. Nothing to mark.
  if constexpr (std::is_same_v<D, float> && !isDataFormatNZ) leave.Modelled();
  sd::CheckTypes<D, U>("SimpleSoftMax");
  if constexpr (isDataFormatNZ) {
    sd::SimpleNzCall<D, U>(dstTensor, inSumTensor, inMaxTensor, srcTensor, sharedTmpBuffer,
                           softmaxShapeInfo, tiling, loc, leave);
    return;
  }
  sd::Dims d = sd::DimsOf(softmaxShapeInfo, srcTensor, tiling.srcM, tiling.srcK, false);
  if (isBasicBlock) sd::RefuseBasicK("SimpleSoftMax", d);
  if (isBasicBlock) sd::RefuseBasicShape<D>("SimpleSoftMax", softmaxShapeInfo);
  // The tiling the kernel runs (its re-tile for another shape's tiling included).
  const SoftMaxTiling kt =
      isBasicBlock || sizeof(D) == 2
          ? sd::SoftMaxKernelTiling("SimpleSoftMax", tiling, d, softmaxShapeInfo, sharedTmpBuffer,
                                    sizeof(D), sizeof(U), isBasicBlock)
          : tiling;
  const std::string wrapped =
      isBasicBlock && !sd::RegBase() ? sd::SimpleBasicWrapped<D, U>(kt) : "";
  sd::RefuseSimpleBasicWrapped(kt, d, wrapped);
  if (isBasicBlock && !sd::RegBase() &&
      (d.k % sd::kLanes != 0 || (sizeof(D) == 4 && !wrapped.empty()))) {
    if (sd::SimpleBasicRowsMembase<D, U>(dstTensor, inSumTensor, inMaxTensor, srcTensor,
                                         sharedTmpBuffer, kt, d, loc)) {
      leave.Modelled();
    }
    return;
  }
  // SimpleSoftMaxBasicBlock for half data (srcK a multiple of 64 too) computes the rangeM full
  // splits only (BasicSplitRows); float data (counter mode over srcM rows) every row.
  if (isBasicBlock && !sd::RegBase() && sizeof(D) == 2 &&
      sd::BasicSplitRows("SimpleSoftMax", "SimpleSoftMaxBasicBlock", "dstTensor", kt, d) < d.m) {
    if (sd::SimpleBasicRowsMembase<D, U>(dstTensor, inSumTensor, inMaxTensor, srcTensor,
                                         sharedTmpBuffer, kt, d, loc)) {
      leave.Modelled();
    }
    return;
  }
  // The generic loop for half data runs the splits (the re-tile's cover oriSrcM rows); float data
  // one pass over srcM rows.
  if (!isBasicBlock && sizeof(D) == 2) {
    d.m = sd::GenericSplitRows("SimpleSoftMax", "dstTensor", tiling, kt, d);
  }
  // The default config's generic form on 2201/2002 reads the statistics rows at the tiling's
  // reduceK (SimpleDefaultStatRows): checked mode refuses rows reading others' statistics;
  // unchecked, SimpleRows reads them there. (A tiling for another shape is re-tiled with the
  // statistics' reduceK: half data's kt; float data's own rows.)
  std::vector<uint64_t> statAt;
  if (!isBasicBlock && !sd::RegBase() && (config.oriSrcM == 0 || config.oriSrcK == 0) &&
      (sizeof(D) == 2 || (tiling.srcM == d.m && tiling.srcK == d.k))) {
    statAt = sd::SimpleDefaultStatRows<D, U>(kt, d.m);
    sd::RefuseDefaultStats<U>(kt, d, statAt);
  }
  bool v200Work = false;
  if (!isBasicBlock && sizeof(D) == 2) {
    if constexpr (config.oriSrcM != 0 && config.oriSrcK != 0) {
      sd::RefuseCfgHalfStats<U>(kt, config.oriSrcK, d);
    }
    // Its work buffer on 2002 (softmax_v200_work.h); elsewhere marked. The constant-shape
    // config's generic path (SimpleSoftMaxGenericNDImpl) swaps srcK for the tiling's splitK and
    // the statistics stride for 32 bytes a row: the default loop's steps where the tiling has
    // splitK = srcK (SimpleSoftMaxWorkV200 asks it) and reduceK = 32 bytes (CfgMatchesTiling).
    if constexpr (std::is_same_v<D, half> && !isDataFormatNZ) {
      if (sd::CfgMatchesTiling<U>(config.oriSrcM, config.oriSrcK, kt) &&
          sd::SimpleSoftMaxWorkV200<U>("SimpleSoftMax", loc, kt, d, srcTensor, inSumTensor,
                                       inMaxTensor, sharedTmpBuffer)) {
        v200Work = true;
        leave.Modelled();
      }
    }
  }
  // Half data on 2201 (and isBasicBlock on 2002: SimpleSoftMaxBasicBlock is membase/common's):
  // the work buffer as the kit leaves it (softmax_basic_work.h SimpleHalfPrepare); the config as
  // above (isBasicBlock does not read it). The config path with a tiling whose reduceK is not the
  // statistics' 32 bytes (2201 and 2002): SimpleHalfPrepare's cfg form; where its half
  // statistics' rows are not their own (unchecked: CfgHalfStatsRight), dst as the device's.
  std::optional<sd::BasicImage> sw;
  std::vector<D> devDst;
  if constexpr (std::is_same_v<D, half>) {
    const bool own = !isBasicBlock && config.oriSrcM != 0 && config.oriSrcK != 0 &&
                     !sd::CfgMatchesTiling<U>(config.oriSrcM, config.oriSrcK, kt);
    if (!v200Work &&
        (isBasicBlock || own || sd::CfgMatchesTiling<U>(config.oriSrcM, config.oriSrcK, kt))) {
      const bool wrong = (own && !sd::CfgHalfStatsRight<U>(kt)) || !wrapped.empty();
      // Wrapped counts leave dst's other elements as the call found them.
      const uint64_t nd = std::min<uint64_t>(uint64_t{kt.rangeM} * kt.splitSize,
                                             dstTensor.View().size_bytes / sizeof(D));
      if (!wrapped.empty()) devDst.assign(dstTensor.HostPtr(), dstTensor.HostPtr() + nd);
      sw = sd::SimpleHalfPrepare<U>(kt, isBasicBlock, d, inSumTensor, inMaxTensor, srcTensor,
                                    sharedTmpBuffer, own, wrong ? &devDst : nullptr);
    }
  }
  sd::SimpleRows<D, U>(dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer, d, loc,
                       sd::SimpleWholeRegisters(isBasicBlock, config.oriSrcM, config.oriSrcK, d.k),
                       statAt.empty() ? nullptr : &statAt);
  if (sw && !devDst.empty()) {
    std::memcpy(dstTensor.HostPtr(), devDst.data(), devDst.size() * sizeof(D));
  }
  if (sw) {
    sw->Store("SimpleSoftMax", loc);
    leave.Modelled();
  }
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename D, typename U>
void SimpleSoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<U>& inSumTensor,
                   const LocalTensor<U>& inMaxTensor, const LocalTensor<D>& srcTensor,
                   const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, inSumTensor, inMaxTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(),
      tiling, softmaxShapeInfo, loc);
}

}  // namespace AscendC
