// lngrad: the SoftMax family in the NZ data format (isDataFormatNZ = true) — the toolkit's
// membase/common/softmax_impl/softmax_generic_nz_impl.h (SoftMaxNZImpl) with the row reductions
// of membase/common/softmax_common_nz_reduce.h, the 2201 instruction order.
//
// Layout: src/dst are [srcK / 16, M, 16] fractals; element (row r, column c) is at
// ((c / 16) * M + r) * 16 + c % 16. M (the fractal stride) is the tiling's srcM when the tiling
// matches the shape (srcK == tiling.srcK and oriSrcM == tiling.srcM), else the shape's srcM (the
// kernel re-tiles). Rows 0 .. oriSrcM - 1 are computed, every one the same way whatever the
// split. Of the last fractal, the first oriSrcK % 16 columns are valid (all 16 when 0); the
// other fractals are valid in full (the source masks the last fractal only).
// Per row: the max and the sum of the valid columns in the NZ reduction order (a 16-lane
// accumulator over the fractals, lane i with lane i + 8, then the 8-lane tree, the max's first
// NaN lane winning; one partial fractal: the WholeReduce of its valid lanes), x - max, Exp,
// x / sum on the valid columns.
// float dst: the last fractal's other columns are not written; half dst: they get src's values
// back (the source casts the whole work buffer, which kept them). Statistics [oriSrcM, 32 B].
// On 3510 SoftMax, LogSoftMax, SoftmaxFlashV2 without update and SoftmaxGrad/Front follow the
// register code instead (SoftMaxNzRowsReg, GradNzRowsReg: regbase/3510's NZ order, exactly the
// first oriSrcK columns, the shape's srcM as the fractal's M).
#pragma once

#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

inline constexpr uint32_t kNzCols = 16;  // columns of one fractal (SOFTMAX_SHAPE_NZ_BASIC_COUNT)

// m: rows computed (oriSrcM); stride: the fractal's row count M; k: srcK; validK: columns of
// the row that the source's masks let through.
struct NzDims {
  uint32_t m = 0, stride = 0, k = 0, validK = 0;
  uint64_t At(uint32_t r, uint32_t c) const {
    return (uint64_t{c / kNzCols} * stride + r) * kNzCols + c % kNzCols;
  }
};

// simple: SimpleSoftMax's dims (SimpleSoftMaxBaseImpl re-tiles when srcM or srcK differ from
// the tiling's; a kept tiling computes its rangeM * splitM + tailM rows, a new one oriSrcM).
inline NzDims NzDimsOf(const AscendC::SoftMaxShapeInfo& s, const AscendC::tiling::SoftMaxTiling& t,
                       bool simple = false) {
  NzDims d;
  const uint32_t srcM = s.srcM != 0 ? s.srcM : t.srcM;
  d.k = s.srcK != 0 ? s.srcK : t.srcK;
  d.m = s.oriSrcM != 0 ? s.oriSrcM : srcM;
  const uint32_t oriK = s.oriSrcK != 0 ? s.oriSrcK : d.k;
  d.stride = (d.k == t.srcK && d.m == t.srcM) ? t.srcM : srcM;
  if (simple) {
    const bool kept = d.k == t.srcK && srcM == t.srcM;
    d.stride = srcM;
    if (kept) d.m = t.rangeM * t.splitM + t.tailM;
    d.validK = d.k;  // no mask
    return d;
  }
  const uint32_t len = oriK % kNzCols != 0 ? oriK % kNzCols : kNzCols;
  d.validK = d.k >= kNzCols ? d.k - kNzCols + len : 0;
  return d;
}

// Checked mode: srcK a positive multiple of 16, oriSrcM <= srcM, oriSrcK <= srcK.
inline void CheckNzShape(const char* api, const AscendC::SoftMaxShapeInfo& s, const NzDims& d) {
  if (!CheckedMode()) return;
  if (d.k == 0 || d.k % kNzCols != 0 || d.m > d.stride || s.oriSrcK > d.k) {
    RaiseKernelCheck(checks::kInvalidCount,
                     std::string(api) + ": NZ srcK = " + std::to_string(d.k) +
                         " must be a positive multiple of 16 and at least oriSrcK, oriSrcM " +
                         std::to_string(d.m) + " at most the fractal's M " +
                         std::to_string(d.stride));
  }
}

// The row reduction of Reduce{Max,Sum}LastNZImpl over x[0 .. validK) (fractal j = columns
// [16j, 16j + 16)). op(acc, next) keeps the source's operand order (the Max instruction: src1 for
// a NaN). The max's last step, BlockReduceMax (one partial fractal: WholeReduceMax), takes the
// first NaN lane, else the first maximum (LaneMax), so a NaN that reaches the 8-lane fold wins.
template <typename Op>
float NzRowReduce(const std::vector<float>& x, uint32_t validK, bool isMax, Op op) {
  const uint32_t fractals = (validK + kNzCols - 1) / kNzCols;
  const uint32_t len = validK - (fractals - 1) * kNzCols;
  if (fractals == 1 && len != kNzCols) {  // WholeReduce{Max,Sum} of the first len lanes
    return isMax ? LaneMax(x.data(), len) : ScalarTree64(x.data(), len);
  }
  float acc[kNzCols];
  for (uint32_t l = 0; l < kNzCols; ++l) acc[l] = x[l];
  for (uint32_t j = 1; j < fractals; ++j) {
    const uint32_t n = j + 1 == fractals ? len : kNzCols;
    for (uint32_t l = 0; l < n; ++l) acc[l] = op(acc[l], x[j * kNzCols + l]);
  }
  float half8[kNzCols / 2];  // Reduce{Max,Sum}BlockNZImpl: Max/Add of the two halves, BlockReduce
  for (uint32_t l = 0; l < kNzCols / 2; ++l) half8[l] = op(acc[l], acc[l + kNzCols / 2]);
  return isMax ? LaneMax(half8, kNzCols / 2) : Tree8(half8);
}

template <typename T>
void LoadNzRow(std::vector<float>& x, const T* p, const NzDims& d, uint32_t r) {
  x.resize(d.k);
  for (uint32_t c = 0; c < d.k; ++c) x[c] = Widen(p[d.At(r, c)]);
}

// SoftMax with statistics, NZ (SoftMaxNZImpl). flash: SoftmaxFlashV2 without update
// (SoftMaxGenericNZImpl<isFlashV2>): no Div, every column of dst from the work buffer (the last
// fractal's masked columns: src's values).
template <typename T, typename U>
void SoftMaxNzRows(const char* api, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<U>& sum, const AscendC::LocalTensor<U>& max,
                   const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
                   const AscendC::SoftMaxShapeInfo& shape, const NzDims& d, SrcLoc loc,
                   bool flash = false) {
  CheckNzShape(api, shape, d);
  const uint64_t n = uint64_t{d.stride} * d.k, s = uint64_t{d.m} * Lanes<U>();
  CheckRows(api, {math_detail::Op(dst, "dstTensor"), math_detail::Op(src, "srcTensor")}, {n, n});
  CheckRows(api, {math_detail::Op(sum, "sumTensor"), math_detail::Op(max, "maxTensor")}, {s, s});
  CheckTmp(api, tmp, (uint64_t{kNzCols} * (flash ? 3 : 1) + d.k) * 4);
  RecordCall(api, loc, {Rd(src, n), Wr(dst, n), Wr(sum, s), Wr(max, s)});
  std::vector<float> x;
  auto maxOp = [](float a, float b) { return a > b ? a : b; };
  auto addOp = [](float a, float b) { return a + b; };
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadNzRow(x, src.HostPtr(), d, r);
    std::vector<float> valid(x.begin(), x.begin() + d.validK);
    const float mx = NzRowReduce(valid, d.validK, true, maxOp);
    for (float& v : valid) v = v - mx;
    ExpInPlace(valid);
    const float sm = NzRowReduce(valid, d.validK, false, addOp);
    if (!flash) {
      for (float& v : valid) v = v / sm;
    }
    PutStat(max.HostPtr(), r, mx);
    PutStat(sum.HostPtr(), r, sm);
    std::copy(valid.begin(), valid.end(), x.begin());
    const uint32_t written = std::is_same_v<T, half> || flash ? d.k : d.validK;
    for (uint32_t c = 0; c < written; ++c) dst.HostPtr()[d.At(r, c)] = Narrow<T>(x[c]);
  }
}

// The 3510 NZ row reductions (regbase/3510/softmax_impl.h SoftMaxGenericNZ[WithTail]VFImpl): a
// 16-lane accumulator over the row's first oriK columns (Max from -inf or Add from 0, lane c % 16),
// the tree of each 8-lane half (Reduce{Max,Sum}WithDataBlock), the halves combined (Max or Add
// of the DINTLV fold, the first half first).
inline float RegNzRowReduce(const std::vector<float>& x, bool isMax) {
  float acc[kNzCols];
  for (float& a : acc) a = isMax ? -INFINITY : 0.0f;
  for (size_t c = 0; c < x.size(); ++c) {
    float& a = acc[c % kNzCols];
    a = isMax ? RegMax(a, x[c]) : a + x[c];
  }
  if (!isMax) return Tree8(acc) + Tree8(acc + kNzCols / 2);
  float h[kNzCols / 2];
  for (uint32_t i = 0; i < kNzCols / 2; ++i) h[i] = RegMax(acc[2 * i], acc[2 * i + 1]);
  const float a = RegMax(RegMax(h[0], h[1]), RegMax(h[2], h[3]));
  const float b = RegMax(RegMax(h[4], h[5]), RegMax(h[6], h[7]));
  return RegMax(a, b);
}

// What follows Exp in the 3510 NZ softmax: the Div (SoftMax), the Div and Log10 (LogSoftMax),
// or nothing (SoftmaxFlashV2 without update, SoftmaxFlashV2NZ[WithTail]NoUpdateVFImpl).
enum class NzFinish { kDiv, kLog, kNone };

// SoftMax (fin: LogSoftMax, SoftmaxFlashV2) with statistics, NZ, on 3510: the first oriSrcK
// columns of rows 0 .. oriSrcM - 1 (fractal M: the shape's srcM) are computed and stored, the
// other columns of dst keep their contents; statistics for rows below min(oriSrcM, 8 * (srcM /
// 8)) (the register code's E2B stores run srcM / 8 times).
// The 3510 NZ dims: the fractal's M the shape's srcM (the register code re-tiles to it), rows
// oriSrcM, columns oriSrcK.
inline NzDims RegNzDims(const char* api, const AscendC::SoftMaxShapeInfo& shape,
                        const AscendC::tiling::SoftMaxTiling& t) {
  NzDims d;
  d.k = shape.srcK != 0 ? shape.srcK : t.srcK;
  d.stride = shape.srcM != 0 ? shape.srcM : t.srcM;
  d.m = shape.oriSrcM != 0 ? shape.oriSrcM : d.stride;
  d.validK = shape.oriSrcK != 0 ? shape.oriSrcK : d.k;
  CheckNzShape(api, shape, d);
  return d;
}
// The rows whose statistics (or SoftmaxGradFront's dst) the 3510 NZ code stores: its E2B stores
// run srcM / 8 times, 8 rows each, masked to oriSrcM.
inline uint32_t RegNzStatRows(const NzDims& d) {
  return d.m < d.stride / 8 * 8 ? d.m : d.stride / 8 * 8;
}

template <typename T, typename U>
void SoftMaxNzRowsReg(const char* api, NzFinish fin, const AscendC::LocalTensor<T>& dst,
                      const AscendC::LocalTensor<U>& sum, const AscendC::LocalTensor<U>& max,
                      const AscendC::LocalTensor<T>& src, const AscendC::SoftMaxShapeInfo& shape,
                      const AscendC::tiling::SoftMaxTiling& t, SrcLoc loc) {
  const NzDims d = RegNzDims(api, shape, t);
  const uint64_t n = uint64_t{d.stride} * d.k, s = uint64_t{d.m} * Lanes<U>();
  CheckRows(api, {math_detail::Op(dst, "dstTensor"), math_detail::Op(src, "srcTensor")}, {n, n});
  CheckRows(api, {math_detail::Op(sum, "sumTensor"), math_detail::Op(max, "maxTensor")}, {s, s});
  RecordCall(api, loc, {Rd(src, n), Wr(dst, n), Wr(sum, s), Wr(max, s)});
  const uint32_t statRows = RegNzStatRows(d);
  std::vector<float> x;
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadNzRow(x, src.HostPtr(), d, r);
    x.resize(d.validK);
    const float mx = RegNzRowReduce(x, true);
    for (float& v : x) v = v - mx;
    ExpInPlace(x);
    const float sm = RegNzRowReduce(x, false);
    if (fin != NzFinish::kNone) {
      for (float& v : x) v = v / sm;
    }
    if (fin == NzFinish::kLog) Log10InPlace(x);
    if (r < statRows) {
      PutStat(max.HostPtr(), r, mx);
      PutStat(sum.HostPtr(), r, sm);
    }
    for (uint32_t c = 0; c < d.validK; ++c) dst.HostPtr()[d.At(r, c)] = Narrow<T>(x[c]);
  }
}

// AdjustSoftMaxRes, NZ, on 3510 (regbase/3510/softmax_impl.h AdjustSoftMaxResNZImpl): register i
// (256 bytes: 64 float or 128 half elements) of every fractal, rows i * 4 .. i * 4 + 3 of float
// data or i * 8 .. i * 8 + 7 of half, is set to `to` when the max of row i (its first element, at
// i * 32 bytes; not the maxima of the register's own rows) has the bits `from` (16 bits for half
// statistics), for i < ceil(srcM * 16 / elements per register), stepSizeMode aside. A fractal
// whose M is not a multiple of 4 (float) or 8 (half) has its last register run into the next
// fractal's first rows, and the last fractal's past m * k: past softMaxRes checked mode names it
// (tensor_bounds); unchecked it proceeds inside the UB, as on the device. True when some row i
// matched.
template <typename T, typename U>
bool AdjustNzReg(const AscendC::LocalTensor<T>& res, const AscendC::LocalTensor<U>& max,
                 uint32_t from, T to, uint32_t m, uint32_t k, SrcLoc loc) {
  const char* api = "AdjustSoftMaxRes";
  const uint32_t per = 256 / sizeof(T), block = m * kNzCols;
  const uint32_t regs = (block + per - 1) / per, fractals = k / kNzCols;
  const uint64_t n = uint64_t{m} * k;
  const uint64_t ext = fractals == 0 ? 0 : uint64_t{fractals - 1} * block + uint64_t{regs} * per;
  const uint64_t s = regs == 0 ? 0 : uint64_t{regs - 1} * Lanes<U>() + 1;
  namespace md = math_detail;
  CheckRows(api, {md::Op(res, "softMaxRes"), md::Op(max, "maxTensor")}, {n, s});
  if (ext > n) {
    const std::string why = std::string(api) + " (NZ M = " + std::to_string(m) +
                            ": the last register of each fractal is stored whole, to element " +
                            std::to_string(ext) + ")";
    CheckRows(why.c_str(), {md::Op(res, "softMaxRes")}, {ext});
    const detail::TensorView v = res.View();
    detail::RequireInsideUb(v, v.ptr - v.ub, ext * sizeof(T), why.c_str());
  }
  RecordCall(api, loc, {Rd(max, s), Rd(res, ext), Wr(res, ext)});
  const uint32_t want = sizeof(U) == 2 ? (from & 0xFFFFu) : from;
  bool any = false;
  for (uint32_t i = 0; i < regs; ++i) {
    uint32_t bits = 0;
    std::memcpy(&bits, max.HostPtr() + uint64_t{i} * Lanes<U>(), sizeof(U));
    if (bits != want) continue;
    any = true;
    for (uint32_t j = 0; j < fractals; ++j) {
      T* p = res.HostPtr() + uint64_t{i} * per + uint64_t{j} * block;
      for (uint32_t l = 0; l < per; ++l) p[l] = to;
    }
  }
  return any;
}

// SimpleSoftMax, NZ (SimpleSoftMaxNZImpl): every column, no mask; column c reads lane
// (c % 16) % Lanes<U>() of its row's statistics (half: cast lane for lane into the 16-lane work
// row; float: the row's 8 lanes copied twice).
template <typename T, typename U>
void SimpleNzRows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& inSum,
                  const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<uint8_t>& tmp, const AscendC::SoftMaxShapeInfo& shape,
                  const NzDims& d, SrcLoc loc) {
  const char* api = "SimpleSoftMax";
  CheckNzShape(api, shape, d);
  const uint64_t n = uint64_t{d.stride} * d.k, s = uint64_t{d.m} * Lanes<U>();
  namespace md = math_detail;
  CheckRows(api,
            {md::Op(dst, "dstTensor"), md::Op(src, "srcTensor"), md::Op(inSum, "inSumTensor"),
             md::Op(inMax, "inMaxTensor")},
            {n, n, s, s});
  CheckTmp(api, tmp, (uint64_t{kNzCols} + d.k) * 4);
  RecordCall(api, loc, {Rd(src, n), Rd(inSum, s), Rd(inMax, s), Wr(dst, n)});
  // 3510 (regbase/3510/simple_softmax_impl.h SimpleSoftMaxGenericNZImpl): the rows below
  // originalSrcShape.m (the UpdateMask of oriSrcM * 16 per fractal), whatever the tiling's split;
  // float statistics Interleave(v, v)-ed against the data, so column c reads lane (c % 16) / 2.
  const uint32_t rows =
      RegBase() ? (shape.srcM != 0 && shape.srcK != 0 ? shape.oriSrcM : d.stride) : d.m;
  const auto lane = [](uint32_t c) {
    return RegBase() && sizeof(U) == 4 ? (c % kNzCols) / 2 : (c % kNzCols) % Lanes<U>();
  };
  std::vector<float> x;
  for (uint32_t r = 0; r < rows; ++r) {
    LoadNzRow(x, src.HostPtr(), d, r);
    const U* mx = inMax.HostPtr() + uint64_t{r} * Lanes<U>();
    const U* sm = inSum.HostPtr() + uint64_t{r} * Lanes<U>();
    for (uint32_t c = 0; c < d.k; ++c) x[c] = x[c] - Widen(mx[lane(c)]);
    ExpInPlace(x);
    for (uint32_t c = 0; c < d.k; ++c) x[c] = x[c] / Widen(sm[lane(c)]);
    for (uint32_t c = 0; c < d.k; ++c) dst.HostPtr()[d.At(r, c)] = Narrow<T>(x[c]);
  }
}

// SoftmaxFlashV2's NZ dims (SoftmaxFlashV2NZNoUpdateImpl): the kernel always re-tiles
// (SoftMaxFlashV2TilingFuncImpl, NZ: rows per split tmp floats / (48 + srcK), multiples of 8);
// the last split drops the srcM - oriSrcM padding rows when it holds more rows than that, so
// oriSrcM rows are computed then, else all srcM.
inline NzDims FlashV2NzDimsOf(const AscendC::SoftMaxShapeInfo& s,
                              const AscendC::tiling::SoftMaxTiling& t, uint64_t tmpBytes) {
  NzDims d = NzDimsOf(s, t, true);
  const uint32_t srcM = d.stride, oriM = s.oriSrcM != 0 ? s.oriSrcM : srcM;
  const uint32_t oriK = s.oriSrcK != 0 ? s.oriSrcK : d.k;
  const uint32_t len = oriK % kNzCols != 0 ? oriK % kNzCols : kNzCols;
  d.validK = d.k >= kNzCols ? d.k - kNzCols + len : 0;
  uint64_t m = tmpBytes / 4 / (uint64_t{kNzCols} * 3 + d.k);
  if (m < srcM && m > 8) m = m / 8 * 8;
  m = m < srcM ? m : srcM;
  const uint32_t pad = srcM > oriM ? srcM - oriM : 0;
  const uint64_t lastRows = m == 0 ? 0 : (srcM % m != 0 ? srcM % m : m);
  d.m = lastRows > pad ? srcM - pad : srcM;
  return d;
}

// The rows SoftmaxGrad/Front NZ computes and its splits: the tiling when it matches the shape
// (srcK and srcM), else SoftMaxGradTilingFunc's NZ rows per split from the tmp buffer (half:
// 2 blocks + 3 rows + 64 floats per row; float: a row + 2 blocks + 64), multiples of 8.
struct NzSplits {
  uint32_t splitM = 0, rangeM = 0, tailM = 0;
};
inline NzSplits GradNzSplits(const AscendC::tiling::SoftMaxTiling& t, uint32_t srcM, uint32_t k,
                             uint32_t typeSize, uint64_t tmpBytes) {
  if (k == t.srcK && srcM == t.srcM && t.splitM != 0) return {t.splitM, t.rangeM, t.tailM};
  const uint64_t blk = 32 / typeSize;
  const uint64_t row = typeSize == 2 ? blk * 2 + uint64_t{k} * 3 + kLanes : k + blk * 2 + kLanes;
  uint64_t m = tmpBytes / 4 / row;
  if (m < srcM && m > 8) m = m / 8 * 8;
  m = m < srcM ? m : srcM;
  if (m == 0) return {};
  return {static_cast<uint32_t>(m), static_cast<uint32_t>(srcM / m),
          static_cast<uint32_t>(srcM % m)};
}

// SoftmaxGrad / SoftmaxGradFront, NZ (softmax_grad_nz_impl.h): s = the NZ row sum of src * grad;
// front: dst = s as [rows, 32 B]; else dst = (grad - s) * src on every column. The last
// fractal's lanes summed: all 16 for front (its reduction takes originalSrcK = splitK); for
// SoftmaxGrad the first oriSrcK % 16 only on the split's last rows % 4 rows (the masked tail
// repeat of BinaryComputeWithSpecialMask, whose whole repeats get the all-lane mask) or with a
// single fractal (the WholeReduceSum branch).
template <typename T>
void GradNzRowsReg(const char* api, bool front, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                   const AscendC::SoftMaxShapeInfo& shape, const AscendC::tiling::SoftMaxTiling& t,
                   SrcLoc loc);  // below: 3510
template <typename T>
void GradNzRows(const char* api, bool front, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<uint8_t>& tmp, const AscendC::SoftMaxShapeInfo& shape,
                const AscendC::tiling::SoftMaxTiling& t, SrcLoc loc) {
  if (RegBase()) return GradNzRowsReg(api, front, dst, grad, src, shape, t, loc);
  NzDims d = NzDimsOf(shape, t, true);
  const uint32_t srcM = d.stride;
  const NzSplits sp = GradNzSplits(t, srcM, d.k, sizeof(T), tmp.View().size_bytes);
  d.m = sp.rangeM * sp.splitM + sp.tailM;
  CheckNzShape(api, shape, d);
  const uint64_t blk = Lanes<T>();
  CheckTmp(api, tmp, (sizeof(T) == 2 ? blk * 2 + d.k * 3 + kLanes : d.k + blk * 2 + kLanes) * 4);
  const uint64_t n = uint64_t{srcM} * d.k, out = front ? uint64_t{d.m} * blk : n;
  namespace md = math_detail;
  CheckRows(api, {md::Op(dst, "dstTensor"), md::Op(grad, "gradTensor"), md::Op(src, "srcTensor")},
            {out, n, n});
  RecordCall(api, loc, {Rd(grad, n), Rd(src, n), Wr(dst, out)});
  const uint32_t oriK = shape.oriSrcK != 0 ? shape.oriSrcK : d.k;
  const uint32_t lenOri = front || oriK % kNzCols == 0 ? kNzCols : oriK % kNzCols;
  std::vector<float> g, y, p;
  for (uint32_t r = 0; r < d.m; ++r) {
    const uint32_t rows = r / sp.splitM < sp.rangeM ? sp.splitM : sp.tailM;
    const bool tailRepeat = r % sp.splitM >= rows / 4 * 4;
    const uint32_t len = (tailRepeat || d.k == kNzCols) ? lenOri : kNzCols;
    LoadNzRow(g, grad.HostPtr(), d, r);
    LoadNzRow(y, src.HostPtr(), d, r);
    p.resize(d.k);
    for (uint32_t c = 0; c < d.k; ++c) p[c] = y[c] * g[c];
    const float s =
        NzRowReduce(p, d.k - kNzCols + len, false, [](float a, float b) { return a + b; });
    if (front) {
      PutStat(dst.HostPtr(), r, s);
      continue;
    }
    for (uint32_t c = 0; c < d.k; ++c) dst.HostPtr()[d.At(r, c)] = Narrow<T>((g[c] - s) * y[c]);
  }
}

// SoftmaxGrad / SoftmaxGradFront, NZ, on 3510 (regbase/3510/softmax_grad_impl.h
// SoftmaxGradGenericNZ[WithTail]VFImpl): s = RegNzRowReduce of grad * src over the first
// oriSrcK columns; front: s (rounded to T) for the RegNzStatRows rows; else (grad - s) * src on
// the first oriSrcK columns of rows 0 .. oriSrcM - 1, the other columns kept.
template <typename T>
void GradNzRowsReg(const char* api, bool front, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                   const AscendC::SoftMaxShapeInfo& shape, const AscendC::tiling::SoftMaxTiling& t,
                   SrcLoc loc) {
  const NzDims d = RegNzDims(api, shape, t);
  const uint64_t n = uint64_t{d.stride} * d.k, out = front ? uint64_t{d.m} * Lanes<T>() : n;
  namespace md = math_detail;
  CheckRows(api, {md::Op(dst, "dstTensor"), md::Op(grad, "gradTensor"), md::Op(src, "srcTensor")},
            {out, n, n});
  RecordCall(api, loc, {Rd(grad, n), Rd(src, n), Wr(dst, out)});
  const uint32_t statRows = RegNzStatRows(d);
  std::vector<float> g, y, p(d.validK);
  for (uint32_t r = 0; r < d.m; ++r) {
    LoadNzRow(g, grad.HostPtr(), d, r);
    LoadNzRow(y, src.HostPtr(), d, r);
    for (uint32_t c = 0; c < d.validK; ++c) p[c] = g[c] * y[c];
    const float s = RegNzRowReduce(p, false);
    if (front) {
      if (r < statRows) PutStat(dst.HostPtr(), r, s);
      continue;
    }
    for (uint32_t c = 0; c < d.validK; ++c) {
      dst.HostPtr()[d.At(r, c)] = Narrow<T>(y[c] * (g[c] - s));
    }
  }
}

}  // namespace lngrad::aicore::softmax_detail
