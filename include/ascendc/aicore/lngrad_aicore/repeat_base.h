// lngrad Ascend C runtime: the repeat machinery of the reductions, comparisons and gathers
// (reduce_ops.h includes it; reduce_ops.h's header says how the repeat forms run): the
// ReduceType/ReduceOrder types, lanes, plans and operands of a repeat form,
// the sanitizer's record of them, and the per-repeat sum/max/min with their result layouts.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "check.h"
#include "constants.h"
#include "half.h"
#include "instructions.h"
#include "mask.h"
#include "sanitizer.h"
#include "sys.h"
#include "tensor.h"

namespace AscendC {

enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };

// Where WholeReduceMax/Min (ReduceRepeat<MAX/MIN>) put a repeat's value and index.
enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX = 0,  // [value, index]
  ORDER_INDEX_VALUE,      // [index, value]
  ORDER_ONLY_VALUE,       // [value]
  ORDER_ONLY_INDEX,       // [index] as uint32_t
};

}  // namespace AscendC

// The repeat machinery the reductions, comparisons and gathers share (on top of mask.h's
// RepeatPlan, which decides which positions of which repeats run).
namespace lngrad::aicore::detail::rep {

// Names of the checks these forms add (KernelCheckError::check()); repeatTime, the mask and
// block strides use mask.h's checks::kRepeatTimes, kVectorMask and kVectorStride.
namespace op_checks {
inline constexpr const char* kReduceOrder = "reduce_order";  // order not on this product
inline constexpr const char* kTmpBuffer = "tmp_buffer";      // sharedTmpBuffer too small
inline constexpr const char* kReduceSpr = "reduce_spr";  // max/min register read after a form it
                                                         // is not documented for
inline constexpr const char* kCmpMode = "cmp_mode";      // mode not defined for the type
inline constexpr const char* kSelMode = "sel_mode";      // SELMODE not valid here
inline constexpr const char* kGatherOffset = "gather_offset";  // offset misaligned / outside
inline constexpr const char* kCount = "count_alignment";       // count not whole repeats
}  // namespace op_checks

inline constexpr uint32_t kBlockBytes = 32;
inline constexpr uint32_t kRepeatBytes = 256;

template <typename T>
inline constexpr uint32_t kLanes = kRepeatBytes / sizeof(T);
template <typename T>
inline constexpr uint32_t kPerBlock = kBlockBytes / sizeof(T);

// The plan of a count form (Select, Gather, Scatter): count elements in Counter mode over full
// repeats; the mask register is left full and Normal, as mask.h's count forms leave it.
template <typename T>
RepeatPlan CountPlan(const char* api, uint32_t count) {
  RestoreMaskAfterCount(MaskContext(api));
  RepeatPlan plan;
  plan.lanes = kLanes<T>;
  plan.counter = true;
  plan.count = count;
  plan.repeats = static_cast<uint32_t>((uint64_t{count} + plan.lanes - 1) / plan.lanes);
  return plan;
}

// The active lanes of one repeat (bit i = lane i).
struct Lanes {
  uint64_t w[2] = {0, 0};
  static Lanes First(uint64_t n) {
    Lanes l;
    l.w[0] = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    l.w[1] = n >= 128 ? ~uint64_t{0} : n > 64 ? (uint64_t{1} << (n - 64)) - 1 : 0;
    return l;
  }
  bool Test(uint32_t i) const { return ((w[i >> 6] >> (i & 63)) & 1) != 0; }
  bool Any() const { return (w[0] | w[1]) != 0; }
};

// The lanes of repeat r of a plan (Counter mode: full repeats, then the rest).
inline Lanes LanesOf(const RepeatPlan& p, uint32_t r) {
  if (!p.counter) {
    Lanes l;
    l.w[0] = p.bits[0];
    l.w[1] = p.lanes > 64 ? p.bits[1] : 0;
    return l;
  }
  const uint64_t done = uint64_t{r} * p.lanes;
  return Lanes::First(p.count - done >= p.lanes ? p.lanes : p.count - done);
}

// The plan of a mask/repeat form: the continuous (integer) or bit-wise (array) mask,
// isSetMask as mask.h describes, repeatTime in [0, 255].
template <typename T, bool isSetMask, typename M>
RepeatPlan Plan(const char* api, const M& mask, int64_t repeat) {
  if constexpr (std::is_integral_v<M>) {
    return PlanRepeats(api, sizeof(T),
                       LenMaskArg(static_cast<uint64_t>(static_cast<int64_t>(mask)), isSetMask),
                       repeat);
  } else {
    return PlanRepeats(api, sizeof(T), BitsMaskArg(mask, isSetMask), repeat);
  }
}

// A plan of `repeats` repeats with the same lanes, outside the mask register (the level-0/2
// reductions, which set the mask themselves and may run more than 255 repeats).
inline RepeatPlan FixedPlan(uint32_t lanes_per_repeat, uint32_t repeats, const Lanes& lanes) {
  RepeatPlan p;
  p.lanes = lanes_per_repeat;
  p.bits[0] = lanes.w[0];
  p.bits[1] = lanes.w[1];
  p.repeats = lanes.Any() ? repeats : 0;
  return p;
}

[[noreturn]] void Raise(const char* check, const char* api, const std::string& message);
// A stride parameter in [0, 65535] (checked: kVectorStride naming `name`; unchecked: the low
// 16 bits, the instruction's field).
uint32_t CheckStride(const char* api, const char* name, int64_t stride);
// An operand accessed in [0, extent) bytes from its start: checked mode, inside the tensor
// (kTensorBounds, `how` says which parameters reach that far) and aligned to `align` bytes
// (kUbAlignment); both modes, inside the UB (kUbBounds).
void CheckOperand(const char* api, const char* name, const TensorView& v, uint64_t extent,
                  uint32_t align, const std::string& how);
// Checked mode: kAddressOverlap if the two ranges share a byte.
void CheckDisjoint(const char* api, const char* dst_name, const TensorView& dst,
                   uint64_t dst_extent, const char* src_name, const TensorView& src,
                   uint64_t src_extent);
NpuArch RunningArch();

// Bytes from a strided operand's start to the end of its furthest active element: the last
// repeat's furthest lane (Counter mode: or the full repeat before it), every lane looked at,
// since with a block stride of 0 a later lane may lie lower.
inline uint64_t ActiveExtent(const RepeatPlan& plan, const RepeatOperand& op) {
  uint64_t end = 0;
  for (uint32_t k = 0; k < 2 && k < plan.repeats; ++k) {
    const uint32_t r = plan.repeats - 1 - k;
    for (uint32_t p = 0; p < plan.lanes; ++p) {
      if (plan.Active(r, p)) end = std::max<uint64_t>(end, op.Offset(r, p) + op.elem_size);
    }
  }
  return end;
}
// The rules of a strided source (mask.h's CheckRepeatOperands treats its first operand as a
// destination, with dstBlkStride >= 1; a reduction's source may have block stride 0).
inline void CheckSource(const char* api, const RepeatPlan& plan, const RepeatOperand& op) {
  CheckOperand(api, op.name, op.view, ActiveExtent(plan, op), kBlockBytes,
               std::to_string(plan.repeats) + " repeat(s), " + op.blk_name + " " +
                   std::to_string(op.blk_stride) + ", " + op.rep_name + " " +
                   std::to_string(op.rep_stride));
}

// A strided operand (mask.h's RepeatOperand).
inline RepeatOperand Operand(const TensorView& v, uint32_t elem, uint32_t blk, uint32_t rep,
                             const char* name, const char* blk_name, const char* rep_name,
                             bool is_dst = false) {
  return RepeatOperand{v, elem, blk, rep, name, blk_name, rep_name, is_dst};
}
template <typename T>
RepeatOperand SrcOperand(const AscendC::LocalTensor<T>& src, uint32_t blk, uint32_t rep,
                         const char* name = "src", const char* blk_name = "srcBlkStride",
                         const char* rep_name = "srcRepStride") {
  return Operand(src.View(), sizeof(T), blk, rep, name, blk_name, rep_name);
}

// Records byte ranges into an Instr, merging adjacent ones (used only while a tool is on).
class Runs {
 public:
  Runs(san::Instr& in, bool write) : in_(in), write_(write) {}
  ~Runs() { Flush(); }
  Runs(const Runs&) = delete;
  Runs& operator=(const Runs&) = delete;
  void Add(const void* p, uint64_t bytes) {
    const auto* b = static_cast<const std::byte*>(p);
    if (b == start_ + len_ && start_ != nullptr) {
      len_ += bytes;
      return;
    }
    Flush();
    start_ = b;
    len_ = bytes;
  }
  void Flush() {
    if (start_ != nullptr && len_ != 0) write_ ? in_.Write(start_, len_) : in_.Read(start_, len_);
    start_ = nullptr;
    len_ = 0;
  }

 private:
  san::Instr& in_;
  bool write_;
  const std::byte* start_ = nullptr;
  uint64_t len_ = 0;
};

// The active elements of a plan in an operand, as read (or write) ranges.
inline void RecordActive(san::Instr& in, bool write, const RepeatPlan& plan,
                         const RepeatOperand& op) {
  ForEachRun<1>(plan, {&op}, [&](const std::array<std::byte*, 1>& p, uint64_t n) {
    write ? in.Write(p[0], n * op.elem_size) : in.Read(p[0], n * op.elem_size);
  });
}

template <typename T>
inline constexpr bool kIsReduceType = std::is_same_v<T, float> || std::is_same_v<T, half>;

template <typename T>
T Load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
void Store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// One addition in T: float, or half computed in float and rounded once (the correctly
// rounded half sum).
template <typename T>
T Add(T a, T b) {
  if constexpr (std::is_same_v<T, half>) {
    return half(static_cast<float>(a) + static_cast<float>(b));
  } else {
    return a + b;
  }
}

// The adjacent-pair tree over v[0..n), n a power of two; v is overwritten.
template <typename T>
T PairTree(T* v, uint32_t n) {
  for (uint32_t w = n; w > 1; w /= 2) {
    for (uint32_t j = 0; j < w / 2; ++j) v[j] = Add(v[2 * j], v[2 * j + 1]);
  }
  return v[0];
}

// The sum of a full repeat image (kLanes<T> values, masked lanes already +0).
template <typename T>
T RepeatSum(T* v) {
  if constexpr (std::is_same_v<T, float>) {
    return ScalarTree64(v, kLanes<float>);
  } else {
    return PairTree(v, kLanes<T>);
  }
}

// True when `cand` replaces `best` as the maximum (is_max) or minimum: strictly greater
// (less); a NaN replaces any number, nothing replaces a NaN.
template <typename T>
bool Better(bool is_max, T cand, T best) {
  const float c = static_cast<float>(cand);
  const float b = static_cast<float>(best);
  if (std::isnan(b)) return false;
  if (std::isnan(c)) return true;
  return is_max ? c > b : c < b;
}

// An index as the bits of a T (the device stores the index of a value/index pair in the
// value's type).
template <typename T>
T IndexAsT(uint32_t index) {
  if constexpr (sizeof(T) == 2) {
    return std::bit_cast<T>(static_cast<uint16_t>(index));
  } else {
    return std::bit_cast<T>(index);
  }
}

enum class Kind { kSum, kMax, kMin };

// One repeat's reduction over its active lanes: sum (tree) or max/min with the first index.
template <typename T>
void ReduceOneRepeat(Kind kind, const RepeatOperand& op, uint32_t r, const Lanes& lanes, T* value,
                     uint32_t* index) {
  constexpr uint32_t L = kLanes<T>;
  const std::byte* src = op.view.ptr;
  if (kind == Kind::kSum) {
    T v[L];
    for (uint32_t i = 0; i < L; ++i)
      v[i] = lanes.Test(i) ? Load<T>(src + op.Offset(r, i)) : T(0.0f);
    *value = RepeatSum(v);
    *index = 0;
    return;
  }
  bool found = false;
  T best{};
  uint32_t at = 0;
  for (uint32_t i = 0; i < L; ++i) {
    if (!lanes.Test(i)) continue;
    const T x = Load<T>(src + op.Offset(r, i));
    if (!found || Better(kind == Kind::kMax, x, best)) {
      best = x;
      at = i;
      found = true;
    }
  }
  *value = best;
  *index = at;
}

// Bytes of one repeat's result in dst and the dstRepStride unit (ReduceRepeat.md table 3).
struct OutShape {
  uint32_t width;
  uint32_t unit;
};
template <typename T>
OutShape WholeOutShape(Kind kind, AscendC::ReduceOrder order) {
  if (kind == Kind::kSum) return {sizeof(T), sizeof(T)};
  switch (order) {
    case AscendC::ReduceOrder::ORDER_ONLY_VALUE:
      return {sizeof(T), sizeof(T)};
    case AscendC::ReduceOrder::ORDER_ONLY_INDEX:
      return {4, 4};
    default:
      return {2 * sizeof(T), 2 * sizeof(T)};
  }
}

// The products' ReduceOrder support (ReduceRepeat.md).
inline bool OrderSupported(NpuArch arch, AscendC::ReduceOrder o) {
  using O = AscendC::ReduceOrder;
  switch (arch) {
    case NpuArch::k2201:
    case NpuArch::k3510:
      return true;
    case NpuArch::k3002:
      return o == O::ORDER_VALUE_INDEX || o == O::ORDER_ONLY_VALUE;
    case NpuArch::k2002:
      return o == O::ORDER_VALUE_INDEX || o == O::ORDER_INDEX_VALUE;
    default:
      return o == O::ORDER_VALUE_INDEX;
  }
}
const char* OrderName(AscendC::ReduceOrder o);

// Writes one repeat's result at `out` in the order's layout.
template <typename T>
void StoreResult(Kind kind, AscendC::ReduceOrder order, std::byte* out, T value, uint32_t index) {
  using O = AscendC::ReduceOrder;
  if (kind == Kind::kSum || order == O::ORDER_ONLY_VALUE) {
    Store(out, value);
  } else if (order == O::ORDER_ONLY_INDEX) {
    Store(out, index);
  } else if (order == O::ORDER_INDEX_VALUE) {
    Store(out, IndexAsT<T>(index));
    Store(out + sizeof(T), value);
  } else {
    Store(out, value);
    Store(out + sizeof(T), IndexAsT<T>(index));
  }
}

// The source of the repeat-form reductions, its strides checked.
template <typename T>
RepeatOperand ReduceSource(const char* api, const AscendC::LocalTensor<T>& src, int64_t blk,
                           int64_t rep) {
  static_assert(kIsReduceType<T>, "reductions: T must be half or float");
  return SrcOperand(src, CheckStride(api, "srcBlkStride", blk),
                    CheckStride(api, "srcRepStride", rep));
}

inline std::string RepeatHow(const RepeatPlan& plan, const char* stride_name, uint32_t stride) {
  return std::to_string(plan.repeats) + " repeat(s), " + stride_name + " " + std::to_string(stride);
}

}  // namespace lngrad::aicore::detail::rep
