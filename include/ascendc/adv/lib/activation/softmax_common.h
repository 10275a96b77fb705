// lngrad: what the SoftMax family (softmax*.h, logsoftmax.h) shares: SoftMaxShapeInfo and
// SoftmaxConfig, the row reductions in the order of the toolkit's 2201 implementation, the
// half/float row staging, the [rows, 32 B] broadcast statistics and the checks.
//
// Each API computes in float (half widened exactly; half results rounded as HalfRounding says),
// one float operation per element and step,
// as the device's vector instructions do (Exp and Ln: lngrad's choice, double rounded once;
// docs/ascendc_kernels.md). Row sums follow membase/v220/softmax_common_impl (the 64-lane
// accumulator, then the adjacent-pair tree); a row max is exact. On 3510 (RegBase) the ND APIs
// follow regbase/3510's register code: RegRowSum, RegRowMax, StoredColumns, ExpMaxLane. The result
// does not depend on how the tiling splits the rows (the tree of one row is the same for one row or
// many).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/math/math_common.h"
#include "lngrad_aicore/instructions.h"

namespace lngrad::aicore::checks {
// A SoftMax family shape whose kit instruction sequence gives another result than the softmax
// (the device computes it wrongly and silently; unchecked mode follows the device).
inline constexpr const char* kSoftmaxDeviceDefect = "softmax_device_defect";
}  // namespace lngrad::aicore::checks

namespace AscendC {

enum class SoftmaxMode {
  SOFTMAX_NORMAL = 0,
  SOFTMAX_OUTPUT_WITHOUT_BRC = 1,
};

struct SoftmaxConfig {
  constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
  constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn,
                          const uint32_t oriSrcKIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
  constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn,
                          const uint32_t oriSrcKIn, const SoftmaxMode modeIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

struct SoftMaxParams {
  uint32_t srcM{0};
  uint32_t srcK{0};
  uint32_t oriSrcM{0};
  uint32_t oriSrcK{0};
  uint32_t loopCnt{1};
  uint32_t splitMeanCnt{8};
  float alpha{0.9375};
};

struct SoftMaxShapeInfo {
  uint32_t srcM{0};
  uint32_t srcK{0};
  uint32_t oriSrcM{0};
  uint32_t oriSrcK{0};
};

}  // namespace AscendC

namespace lngrad::aicore::softmax_detail {

inline constexpr uint32_t kLanes = 64;

// Arch 3510 runs the toolkit's register implementation (regbase/3510/softmax_*_impl.h).
inline bool RegBase() { return detail::rep::RunningArch() == NpuArch::k3510; }

// The rows: m rows of k stored elements, the first oriK of which are reduced.
struct Dims {
  uint32_t m = 0, k = 0, oriK = 0;
  // The kernel tiling's splits (WithSplits; splitM 0: one split of m rows), which the 2201/2002
  // row max reads (NdRowMax's rows).
  uint32_t splitM = 0, rangeM = 0, tailM = 0;
};

// oriRows: the 3510 register code computes originalSrcShape.m rows (oriSrcM when given; the
// 2201 path and 3510's SimpleSoftMax, oriRows = false, compute srcM).
template <typename T>
Dims DimsOf(const AscendC::SoftMaxShapeInfo& s, const AscendC::LocalTensor<T>& src,
            uint32_t tilingM, uint32_t tilingK, bool oriRows = true) {
  if (s.srcM != 0 && s.srcK != 0) {
    const uint32_t m = RegBase() && oriRows && s.oriSrcM != 0 ? s.oriSrcM : s.srcM;
    return {m, s.srcK, s.oriSrcK != 0 ? s.oriSrcK : s.srcK};
  }
  const AscendC::ShapeInfo info = src.GetShapeInfo();
  if (info.shapeDim >= 2) {
    const uint32_t k = info.shape[info.shapeDim - 1];
    const uint32_t m = static_cast<uint32_t>(AscendC::GetShapeSize(info) / k);
    const uint32_t ok =
        info.originalShapeDim >= 1 ? info.originalShape[info.originalShapeDim - 1] : k;
    return {m, k, ok != 0 ? ok : k};
  }
  return {tilingM, tilingK, tilingK};
}

// The adjacent-pair tree over 8 values (one BlockReduceSum block).
inline float Tree8(const float* v) {
  float a[8];
  for (int i = 0; i < 4; ++i) a[i] = v[2 * i] + v[2 * i + 1];
  a[0] = a[0] + a[1];
  a[1] = a[2] + a[3];
  return a[0] + a[1];
}

// A row sum there: a 64-lane accumulator started at zero (Duplicate), every 64-element chunk of
// x[0..k) added (Add; the lanes past k add 0, the masked Exp/Mul having zeroed them), then
// ReduceSum's adjacent-pair tree over the 64 lanes (lngrad's register ReduceSum, the same tree).
// k <= 64 (the masked ReduceSum of SingleSoftMaxGenericNDImpl, or the data-block trees of the
// srcK = 8 and 16 paths) gives the same values.
inline float RegRowSum(const float* x, uint32_t k) {
  float acc[kLanes] = {};
  for (uint32_t b = 0; b < k; b += kLanes) {
    const uint32_t n = k - b < kLanes ? k - b : kLanes;
    for (uint32_t j = 0; j < kLanes; ++j) acc[j] = acc[j] + (j < n ? x[b + j] : 0.0f);
  }
  return ScalarTree64(acc, kLanes);
}

// The register Max(a, b) (lngrad's register engine): a NaN operand gives that NaN (a first),
// else a < b ? b : a.
inline float RegMax(float a, float b) {
  if (a != a) return a;
  if (b != b) return b;
  return a < b ? b : a;
}

// A row max there: a 64-lane accumulator of -inf, Max with every chunk (lanes past k Max with
// -inf, the tail's Select), then ReduceMax's adjacent-pair tree.
inline float RegRowMax(const float* x, uint32_t k) {
  float acc[kLanes];
  for (float& a : acc) a = -INFINITY;
  for (uint32_t b = 0; b < k; b += kLanes) {
    const uint32_t n = k - b < kLanes ? k - b : kLanes;
    for (uint32_t j = 0; j < n; ++j) acc[j] = RegMax(acc[j], x[b + j]);
  }
  for (uint32_t w = kLanes / 2; w >= 1; w /= 2) {
    for (uint32_t i = 0; i < w; ++i) acc[i] = RegMax(acc[2 * i], acc[2 * i + 1]);
  }
  return acc[0];
}

// The columns of a row the ND APIs store: on 3510 the register stores are masked to the first
// oriSrcK (the padding columns of dst keep their contents); the 2201 path writes all srcK.
inline uint32_t StoredColumns(const Dims& d) { return RegBase() ? d.oriK : d.k; }

// The rows as 3510's basic-block forms (isBasicBlock: SoftMaxGenericNDVFImpl, the flash updates
// without a tail) see them: those functions run ceil(oriSrcK / 64) whole registers under the full
// mask, so they read, reduce and store the first ceil(oriSrcK / 64) * 64 columns of each row
// (padding included). Only for srcK a multiple of 64 (checked mode refuses the others,
// RefuseBasicK; lngrad runs the generic order there); elsewhere d unchanged.
inline Dims RegBasicDims(bool basic, Dims d) {
  if (basic && RegBase() && d.k % kLanes == 0) d.oriK = (d.oriK + kLanes - 1) / kLanes * kLanes;
  return d;
}

// The sum of x[0..k) as NewReduceSumLastNDImpl (and, basic = true, the basic-block
// BasicBlockAddImpl) forms it: a 64-lane accumulator, then the tree over the 64 lanes
// (WholeReduceSum for one row, BlockReduceSum twice for several: the same additions).
// On 3510: RegRowSum.
inline float RowSum(const float* x, uint32_t k, bool basic) {
  if (RegBase()) return RegRowSum(x, k);
  if (k < kLanes) return ScalarTree64(x, k);
  float acc[kLanes];
  const uint32_t blocks = k / kLanes, tail = k % kLanes;
  uint32_t next = 1;
  if (k >= 512 && !basic) {
    for (uint32_t i = 0; i < kLanes; ++i) acc[i] = Tree8(x + 8 * i);
    next = 8;
  } else {
    for (uint32_t j = 0; j < kLanes; ++j) acc[j] = x[j];
  }
  for (uint32_t b = next; b < blocks; ++b) {
    for (uint32_t j = 0; j < kLanes; ++j) acc[j] = acc[j] + x[b * kLanes + j];
  }
  for (uint32_t j = 0; j < tail; ++j) acc[j] = acc[j] + x[blocks * kLanes + j];
  return ScalarTree64(acc, kLanes);
}

// The same sum on 2002 (membase/v200/softmax_common_impl.h ReduceSumLastNDImpl, which SoftmaxGrad
// and SoftmaxFlash run there): k <= 64, one masked WholeReduceSum tree; else each whole 64-element
// chunk's tree, added chunk by chunk (the first copied), then the tail's masked tree added.
inline float GradRowSumV200(const float* x, uint32_t k) {
  if (k <= kLanes) return ScalarTree64(x, k);
  float s = ScalarTree64(x, kLanes);
  for (uint32_t first = kLanes; first < k; first += kLanes) {
    s = s + ScalarTree64(x + first, k - first < kLanes ? k - first : kLanes);
  }
  return s;
}

// The sum of ReduceSumLastNDImpl (SoftmaxGrad): the eight block sums of each full 64-lane chunk
// added chunk by chunk, their tree, then the tail's WholeReduceSum added (membase/v220). On 2002:
// GradRowSumV200. On 3510: RegRowSum (SoftMaxGradGenericNDVFImpl).
inline float GradRowSum(const float* x, uint32_t k) {
  if (RegBase()) return RegRowSum(x, k);
  if (detail::rep::RunningArch() == NpuArch::k2002) return GradRowSumV200(x, k);
  const uint32_t blocks = k / kLanes, tail = k % kLanes;
  float total = 0.0f;
  if (blocks > 0) {
    float b8[8];
    for (uint32_t b = 0; b < blocks; ++b) {
      for (uint32_t j = 0; j < 8; ++j) {
        const float s = Tree8(x + b * kLanes + 8 * j);
        b8[j] = b == 0 ? s : b8[j] + s;
      }
    }
    total = Tree8(b8);
  }
  if (tail == 0) return total;
  const float t = ScalarTree64(x + blocks * kLanes, tail);
  return blocks > 0 ? total + t : t;
}

// The device's Max (a > b ? a : b) folded over the row. Not inlined: inside SoftMaxRows the
// running max would live in memory across the row (it outlives calls there).
// On 3510: RegRowMax.
[[gnu::noinline]] inline float RowMax(const float* x, uint32_t k) {
  if (RegBase()) return RegRowMax(x, k);
  float m = x[0];
  for (uint32_t j = 1; j < k; ++j) m = x[j] > m ? x[j] : m;
  return m;
}

// WholeReduceMax / BlockReduceMax's lane reduction as lngrad runs them (reduce_ops.h Better): the
// first NaN lane, else the first lane holding the maximum (+0 and -0 tie).
inline float LaneMax(const float* v, uint32_t n) {
  float best = v[0];
  for (uint32_t j = 1; j < n && best == best; ++j) {
    if (v[j] != v[j] || v[j] > best) best = v[j];
  }
  return best;
}

// The row max of NewReduceMaxLastNDImpl on 2201 and 2002 (membase/v220 softmax_common_nd_reduce.h,
// membase/v200 softmax_common_impl.h: the same instructions) for a row of a split of `rows` rows,
// every binary Max as the device's (a > b ? a : b) with the source's operand order, so NaN and
// signed zeros come out as on the device: k < 64 one masked WholeReduceMax; else a 64-lane
// accumulator: k >= 512 BlockReduceMax of the first 512 then Max(chunk, acc); [128, 512)
// Max(chunk 0, chunk 1), then NextBlockMaxImpl's Max(acc, chunk) for rows > k / 64 and
// Max(chunk, acc) otherwise; [64, 128) chunk 0 (2002: Adds 0, so -0 lanes become +0); the tail
// Max(acc, tail); then the lane reduction (2002 with rows > 1: Muls 1, Adds 0 after it).
inline float NdRowMax(const float* x, uint32_t k, uint32_t rows) {
  const bool v200 = detail::rep::RunningArch() == NpuArch::k2002;
  if (k < kLanes) return LaneMax(x, k);
  const auto max = [](float a, float b) { return a > b ? a : b; };
  const uint32_t chunks = k / kLanes, tail = k % kLanes;
  float acc[kLanes];
  if (k >= 8 * kLanes) {
    for (uint32_t j = 0; j < kLanes; ++j) acc[j] = LaneMax(x + 8 * j, 8);
    for (uint32_t b = 8; b < chunks; ++b) {
      for (uint32_t j = 0; j < kLanes; ++j) acc[j] = max(x[b * kLanes + j], acc[j]);
    }
  } else if (k >= 2 * kLanes) {
    for (uint32_t j = 0; j < kLanes; ++j) acc[j] = max(x[j], x[kLanes + j]);
    for (uint32_t b = 2; b < chunks; ++b) {
      for (uint32_t j = 0; j < kLanes; ++j) {
        const float v = x[b * kLanes + j];
        acc[j] = rows > chunks ? max(acc[j], v) : max(v, acc[j]);
      }
    }
  } else {
    for (uint32_t j = 0; j < kLanes; ++j) acc[j] = v200 ? x[j] + 0.0f : x[j];
  }
  for (uint32_t j = 0; j < tail; ++j) acc[j] = max(acc[j], x[chunks * kLanes + j]);
  const float m = LaneMax(acc, kLanes);
  return v200 && rows > 1 ? m * 1.0f + 0.0f : m;
}

// d with the splits of the tiling the kernel runs.
inline Dims WithSplits(Dims d, const AscendC::tiling::SoftMaxTiling& kt) {
  d.splitM = kt.splitM;
  d.rangeM = kt.rangeM;
  d.tailM = kt.tailM;
  return d;
}
// The rows of the split holding row r.
inline uint32_t SplitRowsAt(const Dims& d, uint32_t r) {
  if (d.splitM == 0) return d.m;
  return uint64_t{r} < uint64_t{d.rangeM} * d.splitM ? d.splitM : d.tailM;
}

inline void ExpInPlace(std::vector<float>& v) {
  Ops{false}.Unary(UnaryOp::kExp, v.data(), v.data(), v.size());
}
// LogSoftMax's base-10 logarithm: on 2201/2002 Ln then Muls by 0.4342944819f (two roundings,
// logsoftmax_common_impl.h GenericLogNDImpl); on 3510 the register Log10, taken as log10 in
// double rounded once (lngrad's choice for a transcendental instruction).
inline constexpr float kLog10OfE = 0.4342944819f;
inline void Log10InPlace(std::vector<float>& v) {
  if (detail::rep::RunningArch() == NpuArch::k3510) {
    for (float& x : v) x = static_cast<float>(std::log10(static_cast<double>(x)));
    return;
  }
  Ops{false}.Unary(UnaryOp::kLn, v.data(), v.data(), v.size());
  for (float& x : v) x = x * kLog10OfE;
}
inline float ExpOf(float x) {
  float r = 0.0f;
  Ops{false}.Unary(UnaryOp::kExp, &r, &x, 1);
  return r;
}

template <typename T>
float Widen(T v) {
  return static_cast<float>(v);
}
// The family's float -> half casts (FLOAT2HALF_ROUND_MODE): CAST_ROUND (to nearest, ties away
// from zero) in membase/v220 (arch 2201), CAST_NONE (RNE) in membase/v200 (2002) and the 3510
// register Cast's CAST_RINT (RNE).
inline AscendC::RoundMode HalfRounding() {
  return detail::rep::RunningArch() == NpuArch::k2201 ? AscendC::RoundMode::CAST_ROUND
                                                      : AscendC::RoundMode::CAST_RINT;
}
template <typename T>
T Narrow(float v) {
  if constexpr (std::is_same_v<T, half>) {
    return half(FloatToHalf(v, HalfRounding()));
  } else {
    return v;
  }
}

template <typename T>
void LoadRow(std::vector<float>& out, const T* p, uint32_t n) {
  out.resize(n);
  for (uint32_t j = 0; j < n; ++j) out[j] = Widen(p[j]);
}
// The first n values of v (all of them by default).
template <typename T>
void StoreRow(T* p, const std::vector<float>& v, size_t n = SIZE_MAX) {
  for (size_t j = 0; j < v.size() && j < n; ++j) p[j] = Narrow<T>(v[j]);
}

// Row r of src past the tiling's rows (the 950's whole-register overrun), as a row of the block
// path: x = exp(row - max), max over the first oriK columns, Sub and Exp on every column; returns
// the max. Nothing is written (SoftMax's ReuseTailRows, SoftmaxFlashV2's M1TailStats).
template <typename T>
float TailRowExp(const AscendC::LocalTensor<T>& src, const Dims& d, uint32_t r,
                 std::vector<float>& x) {
  LoadRow(x, src.HostPtr() + uint64_t{r} * d.k, d.k);
  const float mx = RowMax(x.data(), d.oriK);
  for (float& v : x) v = v - mx;
  ExpInPlace(x);
  return mx;
}

// The statistics lane column c of a row reads: c % 8 on 2201/2002 (GenericSub/DivNDImpl and
// 2201's BroadCastLastImpl read the row's first 8 lanes block by block; 2002's: BrcLane), lane
// 0 on 3510 (the register implementation broadcasts element 0 with Reg::Duplicate).
inline uint32_t ColumnLane(uint32_t c) {
  return detail::rep::RunningArch() == NpuArch::k3510 ? 0 : c % 8;
}

// The statistics lane that the kit's BroadCastLastImpl gives column (or entry) c of a row: on
// 2002 its scalar loop (membase/v200 BroadCastLastImpl, BroadCastLastCompute's GetValue(0) of
// each source row) spreads lane 0; on 2201 its Copy repeats the row's first 8 lanes (c % 8);
// 3510: lane 0 (ColumnLane).
inline uint32_t BrcLane(uint32_t c) {
  return detail::rep::RunningArch() == NpuArch::k2002 ? 0 : ColumnLane(c);
}

// The lane of a row's le expMax entries that entry l takes from the ls statistics lanes: lane
// l % ls (membase); on 3510 the half expMax of float statistics is Interleave(v, v): lane l / 2.
// brc: the kit widens the ls lanes to le with BroadCastLastImpl (the generic updates of half data
// with float statistics: SoftmaxFlashV2's softmax_flashv2_update_impl.h, SoftmaxFlash's
// softmax_flash_nd_process_impl.h): lane BrcLane(l), so lane 0 on 2002 (the basic-block path
// copies the 8 lanes twice on either arch: brc false).
inline uint32_t ExpMaxLane(uint32_t l, uint32_t ls, uint32_t le, bool brc = false) {
  if (RegBase()) return l * ls / le;
  return brc && ls != le ? BrcLane(l) % ls : l % ls;
}

// Elements per row of a statistics tensor of U: one 32-byte block.
template <typename U>
constexpr uint32_t Lanes() {
  return 32 / sizeof(U);
}
// lanes: the values per row (Lanes<U>() broadcast; 1 in SOFTMAX_OUTPUT_WITHOUT_BRC mode).
template <typename U>
void PutStat(U* stats, uint32_t row, float v, uint32_t lanes = Lanes<U>()) {
  for (uint32_t j = 0; j < lanes; ++j) stats[row * lanes + j] = Narrow<U>(v);
}
template <typename U>
float GetStat(const U* stats, uint32_t row, uint32_t lanes = Lanes<U>()) {
  return Widen(stats[row * lanes]);
}

// Operand size checks (always) and, in checked mode, 32-byte alignment and the product.
inline void CheckRows(const char* api, std::initializer_list<math_detail::Operand> ops,
                      std::initializer_list<uint64_t> counts) {
  auto c = counts.begin();
  for (const math_detail::Operand& op : ops) {
    const uint64_t n = *c++;
    if (n * op.elem_size > op.view.size_bytes || op.view.ptr == nullptr) {
      const std::string where = std::string(api) + " " + op.name;
      detail::OnTensorOverrun(op.view, 0, n, op.elem_size, where.c_str());
    }
    if (CheckedMode()) detail::CheckUbAligned(op.view, api, op.name);
  }
}

// Checked mode: k * sizeof(T) a multiple of 32 bytes, oriK <= k.
template <typename T>
void CheckShape(const char* api, const Dims& d) {
  if (!CheckedMode()) return;
  if ((uint64_t{d.k} * sizeof(T)) % 32 != 0 || d.oriK > d.k || d.k == 0) {
    RaiseKernelCheck(checks::kInvalidCount,
                     std::string(api) + ": srcK = " + std::to_string(d.k) + " (oriSrcK " +
                         std::to_string(d.oriK) +
                         ") must be > 0, 32-byte aligned and at least oriSrcK");
  }
}

// Checked mode: isBasicBlock needs srcK a multiple of 64, the documented basic block. The
// toolkit's basic-block code takes any srcK but then leaves its rows: membase steps rows by
// 64 * (srcK / 64) columns (its Sub's repeat stride), regbase/3510 loads whole 64-lane registers
// past srcK into the next row.
inline void RefuseBasicK(const char* api, const Dims& d) {
  if (!CheckedMode() || d.k % kLanes == 0) return;
  RaiseKernelCheck(checks::kInvalidCount,
                   std::string(api) + ": isBasicBlock needs srcK (" + std::to_string(d.k) +
                       ") a multiple of 64; the basic-block code reads other rows otherwise");
}

// Checked mode, SoftMax and SimpleSoftMax with isBasicBlock on 2201/2002: the kernel check's
// basic-block shape (softmax_check_common.h, simple_softmax_check_common.h: with softmaxShapeInfo
// srcK or srcM set, 256 / sizeof(T) <= srcK < 2048 and srcM a multiple of 8; srcK % 64 is
// RefuseBasicK's).
template <typename T>
void RefuseBasicShape(const char* api, const AscendC::SoftMaxShapeInfo& s) {
  if (!CheckedMode() || RegBase() || (s.srcK == 0 && s.srcM == 0)) return;
  if (s.srcK < 256 / sizeof(T) || s.srcK >= 2048 || s.srcM % 8 != 0) {
    RaiseKernelCheck(checks::kInvalidCount,
                     std::string(api) + ": isBasicBlock needs " + std::to_string(256 / sizeof(T)) +
                         " <= srcK < 2048 (srcK = " + std::to_string(s.srcK) +
                         ") and srcM a multiple of 8 (srcM = " + std::to_string(s.srcM) +
                         "), the kernel check's basic block");
  }
}

// CalculateNDSplitM's basic-block rows (softmax_common_shape_process.h), for m above 8 rows and
// srcM a multiple of 8: the largest multiple of 8 up to m dividing srcM, halved while a split
// reaches 64 repeats of 256 elements. Shared by the kernels' re-tiles and SoftmaxFlashV2's tiling.
constexpr uint64_t BasicBlockRows(uint64_t m, uint64_t srcM, uint64_t srcK) {
  m = m / 8 * 8;
  while (srcM % m != 0) m -= 8;
  while (m * srcK >= 64 * 256) m /= 2;
  return m;
}

// t re-tiled for [d.m, d.k] in splits of `rows` rows (the kernels' SoftMaxTilingFunc and
// SoftMaxGradTilingFunc fill): reductions of blk elements a row, rangeM whole splits and tailM
// rows over the first `cover` rows (none when rows is 0).
inline AscendC::tiling::SoftMaxTiling SplitTiling(const AscendC::tiling::SoftMaxTiling& t,
                                                  const Dims& d, uint32_t rows, uint32_t blk,
                                                  uint32_t cover) {
  AscendC::tiling::SoftMaxTiling r = t;
  r.srcM = d.m;
  r.srcK = d.k;
  r.srcSize = d.m * d.k;
  r.outMaxM = d.m;
  r.outMaxK = blk;
  r.outMaxSize = d.m * blk;
  r.reduceM = r.splitM = rows;
  r.reduceK = blk;
  r.reduceSize = rows * blk;
  r.splitK = d.k;
  r.splitSize = rows * d.k;
  r.rangeM = rows == 0 ? 0 : cover / rows;
  r.tailM = rows == 0 ? 0 : cover % rows;
  r.tailSplitSize = r.tailM * d.k;
  r.tailReduceSize = r.tailM * blk;
  return r;
}

// The tiling the 2201/2002 kernels of SoftMax and SimpleSoftMax run (softmax_base_impl.h
// SoftMaxImpl, softmax_common_simple.h SimpleSoftMaxBaseImpl): the caller's when made for the
// shape (srcM and srcK), else the kernel's SoftMaxTilingFunc (softmax_tiling_func.h) with the work
// buffer's floats w, blocks of blk = 32 / typeSize2: rows per split CalculateNDSplitM (half data
// w / (blk + srcK + 64), float w / (blk + 64), at most srcM; isBasicBlock with srcM % 8 == 0 and
// more than 8 rows: a multiple of 8 dividing srcM, halved while rows * srcK >= 64 * 256), then cut
// to a multiple of 8 when between 8 and oriSrcM, at most oriSrcM; the splits cover oriSrcM rows.
// No row per split asserts (refused in any mode). On 3510 lngrad takes no split from it.
inline AscendC::tiling::SoftMaxTiling SoftMaxKernelTiling(
    const char* api, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
    const AscendC::SoftMaxShapeInfo& s, const AscendC::LocalTensor<uint8_t>& tmp,
    uint32_t typeSize1, uint32_t typeSize2, bool basic) {
  if (RegBase() || (t.srcM == d.m && t.srcK == d.k)) return t;
  const uint32_t oriM = s.srcM != 0 && s.srcK != 0 && s.oriSrcM != 0 ? s.oriSrcM : d.m;
  const uint64_t w = tmp.View().size_bytes / 4, blk = 32 / typeSize2;
  uint64_t m = typeSize1 == 2 ? w / (blk + d.k + kLanes) : w / (blk + kLanes);
  m = m < d.m ? m : d.m;
  if (basic && m > 8 && d.m % 8 == 0) {
    m = BasicBlockRows(m, d.m, d.k);
  }
  if (m < oriM && m > 8) m = m / 8 * 8;
  m = m < oriM ? m : oriM;
  if (m == 0) {
    RaiseKernelCheck(checks::kTmpBuffer,
                     std::string(api) +
                         ": the kernel re-tiles a tiling made for another shape "
                         "and the work buffer (" +
                         std::to_string(w) + " floats) holds no row (SoftMaxTilingFunc asserts)");
  }
  return SplitTiling(t, d, static_cast<uint32_t>(m), static_cast<uint32_t>(blk), oriM);
}

// The membase basic-block functions (SoftMaxBasicBlock; SimpleSoftMaxBasicBlock for half data)
// compute the tiling's rangeM full splits and have no tail-split step: with t the tiling the
// kernel runs (SoftMaxKernelTiling: the caller's or the kernel's re-tile; on 3510 a tiling for
// another shape: every row) and
// rangeM * splitM < srcM the later rows of `outs` are left as they were. The host
// SoftMaxTilingFunc gives such a tiling for shapes the basic-block check accepts when the scratch
// holds fewer than 8 rows and that count does not divide srcM ([16, 128] half with 3 rows: rangeM
// 5, tailM 1); IsBasicBlockInSoftMax refuses it (tailM != 0), the kernel check does not. Checked
// mode stops there (invalid_count, naming the rows: lngrad is loud where the device is silent);
// unchecked, returns the first row left (d.m: every row computed).
inline uint32_t BasicSplitRows(const char* api, const char* fn, const char* outs,
                               const AscendC::tiling::SoftMaxTiling& t, const Dims& d) {
  if (t.srcM != d.m || t.srcK != d.k) return d.m;
  const uint64_t rows = uint64_t{t.rangeM} * t.splitM;
  if (rows >= d.m) return d.m;
  if (CheckedMode()) {
    RaiseKernelCheck(
        checks::kInvalidCount,
        std::string(api) + ": isBasicBlock computes only the tiling's rangeM (" +
            std::to_string(t.rangeM) + ") full splits of splitM (" + std::to_string(t.splitM) +
            ") rows (" + fn + " has no tail split, tailM = " + std::to_string(t.tailM) +
            "): rows " + std::to_string(rows) + " .. " + std::to_string(d.m - 1) + " of " + outs +
            " would be left unwritten on the device; use a tiling whose splitM divides srcM "
            "(IsBasicBlockInSoftMax) or isBasicBlock = false");
  }
  return static_cast<uint32_t>(rows);
}

// The generic split loops on 2201/2002 (SoftMaxNDExtImpl and SoftMaxNDImpl's `i <= rangeM` with
// its tail, LogSoftMaxNDImpl's, SimpleSoftMaxNDImpl's for half data) compute rangeM * splitM +
// tailM rows. A tiling the kernel re-tiles (another shape's: `given` differs from the shape;
// LogSoftMax always re-tiles) covers oriSrcM rows (SoftMaxKernelTiling), so with oriSrcM below
// srcM the device leaves the later rows of `outs`. Checked mode names them (invalid_count);
// unchecked, returns the rows computed (d.m: every row).
inline uint32_t GenericSplitRows(const char* api, const char* outs,
                                 const AscendC::tiling::SoftMaxTiling& given,
                                 const AscendC::tiling::SoftMaxTiling& t, const Dims& d) {
  if (RegBase() || (given.srcM == d.m && given.srcK == d.k)) return d.m;
  const uint64_t rows = uint64_t{t.rangeM} * t.splitM + t.tailM;
  if (rows >= d.m) return d.m;
  if (CheckedMode()) {
    RaiseKernelCheck(checks::kInvalidCount,
                     std::string(api) + ": the kernel re-tiles a tiling made for another shape " +
                         "over oriSrcM = " + std::to_string(rows) +
                         " of srcM = " + std::to_string(d.m) + " rows (rangeM " +
                         std::to_string(t.rangeM) + ", splitM " + std::to_string(t.splitM) +
                         ", tailM " + std::to_string(t.tailM) + "): rows " + std::to_string(rows) +
                         " .. " + std::to_string(d.m - 1) + " of " + outs +
                         " would be left unwritten on the device; pass the shape's own tiling "
                         "or oriSrcM = srcM");
  }
  return static_cast<uint32_t>(rows);
}

// Checked mode: sharedTmpBuffer of at least `need` bytes on 2201/2002 (the register-based 3510
// implementation sizes its scratch differently; not checked there).
inline void CheckTmp(const char* api, const AscendC::LocalTensor<uint8_t>& tmp, uint64_t need) {
  if (!CheckedMode() || detail::rep::RunningArch() == NpuArch::k3510) return;
  if (tmp.View().size_bytes < need) {
    RaiseKernelCheck(checks::kTmpBuffer, std::string(api) + ": sharedTmpBuffer holds " +
                                             std::to_string(tmp.View().size_bytes) +
                                             " bytes, less than the " + std::to_string(need) +
                                             " one row needs (the Get*MinTmpSize minimum)");
  }
}

// The sanitizer record of one call: the sources read, the destinations written.
struct Access {
  const std::byte* ptr;
  uint64_t bytes;
  bool write;
};
inline void RecordCall(const char* api, SrcLoc loc, std::initializer_list<Access> acc) {
  san::Instr in(Pipe::kV, api, loc);
  if (!in) return;
  for (const Access& a : acc) {
    if (!a.write) in.Read(a.ptr, a.bytes);
  }
  for (const Access& a : acc) {
    if (a.write) in.Write(a.ptr, a.bytes);
  }
}
template <typename T>
Access Rd(const AscendC::LocalTensor<T>& t, uint64_t n) {
  return {t.View().ptr, n * sizeof(T), false};
}
template <typename T>
Access Wr(const AscendC::LocalTensor<T>& t, uint64_t n) {
  return {t.View().ptr, n * sizeof(T), true};
}

// The work buffer (sharedTmpBuffer, or the stack buffer the overloads without one pass) on
// 2201/2002: the kit's sequences keep their row maxima, sums, exponentials and casts there, which
// lngrad computes in host vectors and does not write back (except where softmax_work.h writes
// them, or the kit leaves the buffer untouched: the entry point calls Modelled() and nothing is
// marked). An entry point holds one of these from
// its start; when it returns (not when a check refuses the call) the whole buffer is left marked,
// so that initcheck reports a later read (math_detail::LeaveScratch). lngrad's softmax APIs never
// read the buffer, so a call after another on the same buffer stays clean. Not on 3510.
class LeaveWorkBuffer {
 public:
  LeaveWorkBuffer(const char* api, SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp)
      : api_(api), loc_(loc), tmp_(tmp.View()), pending_(std::uncaught_exceptions()) {}
  LeaveWorkBuffer(const LeaveWorkBuffer&) = delete;
  LeaveWorkBuffer& operator=(const LeaveWorkBuffer&) = delete;
  ~LeaveWorkBuffer() {
    if (std::uncaught_exceptions() == pending_ && !RegBase() && !modelled_) {
      math_detail::LeaveScratch(api_, loc_, tmp_);
    }
  }
  // The call wrote what the kit leaves in the buffer (softmax_work.h): no mark.
  void Modelled() { modelled_ = true; }

 private:
  bool modelled_ = false;
  const char* api_;
  SrcLoc loc_;
  detail::TensorView tmp_;
  int pending_;
};

}  // namespace lngrad::aicore::softmax_detail
