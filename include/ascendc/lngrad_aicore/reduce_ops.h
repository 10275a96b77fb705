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

#include <algorithm>
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
#include "sanitizer.h"
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

struct BrcbRepeatParams {
  BrcbRepeatParams() = default;
  BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

}  // namespace AscendC

// The repeat machinery the reductions, comparisons and gathers share.
namespace lngrad::aicore::detail::rep {

// Names of the checks the repeat forms add (KernelCheckError::check()).
namespace op_checks {
inline constexpr const char* kRepeatTime = "repeat_time";      // repeatTime outside [0, 255]
inline constexpr const char* kStride = "stride";               // a stride outside [0, 65535]
inline constexpr const char* kMask = "mask";                   // mask outside the repeat's lanes
inline constexpr const char* kReduceOrder = "reduce_order";    // order not on this product
inline constexpr const char* kTmpBuffer = "tmp_buffer";        // sharedTmpBuffer too small
inline constexpr const char* kCmpMode = "cmp_mode";            // mode not defined for the type
inline constexpr const char* kSelMode = "sel_mode";            // SELMODE not valid here
inline constexpr const char* kGatherOffset = "gather_offset";  // offset misaligned / outside
inline constexpr const char* kBlockStride = "block_stride";    // a block stride of 0
}  // namespace op_checks

inline constexpr int64_t kMaxRepeat = 255;
inline constexpr uint32_t kBlockBytes = 32;
inline constexpr uint32_t kRepeatBytes = 256;

template <typename T>
inline constexpr uint32_t kLanes = kRepeatBytes / sizeof(T);
template <typename T>
inline constexpr uint32_t kPerBlock = kBlockBytes / sizeof(T);

// The active lanes of one repeat (bit i = lane i).
struct Lanes {
  uint64_t w[2] = {0, 0};
  static Lanes First(uint32_t n) {
    Lanes l;
    l.w[0] = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    l.w[1] = n >= 128 ? ~uint64_t{0} : n > 64 ? (uint64_t{1} << (n - 64)) - 1 : 0;
    return l;
  }
  bool Test(uint32_t i) const { return ((w[i >> 6] >> (i & 63)) & 1) != 0; }
  bool Any() const { return (w[0] | w[1]) != 0; }
};

[[noreturn]] void Raise(const char* check, const char* api, const std::string& message);
// repeatTime in [0, 255] (negative: always kInvalidCount; above 255: checked mode
// kRepeatTime, unchecked the instruction's low 8 bits). Returns the repeats to run.
int32_t CheckRepeat(const char* api, int64_t repeat, const char* name = "repeatTime");
// A stride in [0, 65535] (checked: kStride naming `name`; unchecked: the low 16 bits).
uint32_t CheckStride(const char* api, const char* name, int64_t stride);
// The lanes of a continuous mask (leading lanes, [0, lanes]) or a bit mask.
Lanes MaskLanes(const char* api, int64_t mask, uint32_t lanes);
Lanes MaskLanes(const char* api, const uint64_t mask[], uint32_t lanes);
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

// Byte geometry of a strided operand: element size, repeat and block strides in bytes.
struct Geo {
  uint32_t elem;
  uint64_t rep;
  uint64_t blk;
  uint64_t Off(uint32_t r, uint32_t lane) const {
    const uint32_t epb = kBlockBytes / elem;
    return r * rep + (lane / epb) * blk + (lane % epb) * elem;
  }
  // Bytes from the start up to the end of the furthest active lane of `repeats` repeats.
  uint64_t Extent(uint32_t repeats, const Lanes& lanes, uint32_t nlanes) const {
    if (repeats == 0 || !lanes.Any()) return 0;
    uint64_t far = 0;
    for (uint32_t i = 0; i < nlanes; ++i) {
      if (lanes.Test(i) && Off(0, i) + elem > far) far = Off(0, i) + elem;
    }
    return (repeats - 1) * rep + far;
  }
};

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

// The active lanes of `repeats` repeats of `g` from `base`, as read ranges.
inline void RecordLanes(san::Instr& in, bool write, const void* base, const Geo& g,
                        uint32_t repeats, const Lanes& lanes, uint32_t nlanes) {
  Runs runs(in, write);
  const auto* b = static_cast<const std::byte*>(base);
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t i = 0; i < nlanes; ++i) {
      if (lanes.Test(i)) runs.Add(b + g.Off(r, i), g.elem);
    }
  }
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
template <typename T>
uint32_t IndexOf(T v) {
  if constexpr (sizeof(T) == 2) {
    return std::bit_cast<uint16_t>(v);
  } else {
    return std::bit_cast<uint32_t>(v);
  }
}

enum class Kind { kSum, kMax, kMin };
inline const char* KindName(Kind k) {
  return k == Kind::kSum ? "sum" : k == Kind::kMax ? "max" : "min";
}

// One repeat's reduction over its active lanes: sum (tree) or max/min with the first index.
template <typename T>
void ReduceOneRepeat(Kind kind, const std::byte* src, const Geo& g, uint32_t r, const Lanes& lanes,
                     T* value, uint32_t* index) {
  constexpr uint32_t L = kLanes<T>;
  if (kind == Kind::kSum) {
    T v[L];
    for (uint32_t i = 0; i < L; ++i) v[i] = lanes.Test(i) ? Load<T>(src + g.Off(r, i)) : T(0.0f);
    *value = RepeatSum(v);
    *index = 0;
    return;
  }
  bool found = false;
  T best{};
  uint32_t at = 0;
  for (uint32_t i = 0; i < L; ++i) {
    if (!lanes.Test(i)) continue;
    const T x = Load<T>(src + g.Off(r, i));
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

// WholeReduceSum/Max/Min (ReduceRepeat): one result per repeat at dst + r * dstRepStride * unit.
template <typename T>
void WholeReduce(Kind kind, const char* api, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, Lanes lanes, int64_t repeat_in,
                 int64_t dst_rep_in, int64_t src_blk_in, int64_t src_rep_in,
                 AscendC::ReduceOrder order, SrcLoc loc) {
  static_assert(kIsReduceType<T>, "reductions: T must be half or float");
  const int32_t repeat = CheckRepeat(api, repeat_in);
  const uint32_t dst_rep = CheckStride(api, "dstRepStride", dst_rep_in);
  const uint32_t src_blk = CheckStride(api, "srcBlkStride", src_blk_in);
  const uint32_t src_rep = CheckStride(api, "srcRepStride", src_rep_in);
  if (kind != Kind::kSum && CheckedMode() && !OrderSupported(RunningArch(), order)) {
    Raise(op_checks::kReduceOrder, api,
          std::string("order ") + OrderName(order) + " is not available on this product");
  }
  if (repeat == 0 || !lanes.Any()) return;  // a NOP (A2/A3 documents)
  constexpr uint32_t L = kLanes<T>;
  const Geo g{sizeof(T), uint64_t{src_rep} * kBlockBytes, uint64_t{src_blk} * kBlockBytes};
  const OutShape os = WholeOutShape<T>(kind, order);
  const uint64_t out_pitch = uint64_t{dst_rep} * os.unit;
  const uint64_t src_extent = g.Extent(repeat, lanes, L);
  const uint64_t dst_extent = (repeat - 1) * out_pitch + os.width;
  CheckOperand(api, "src", src.View(), src_extent, kBlockBytes,
               "repeatTime " + std::to_string(repeat) + ", srcRepStride " +
                   std::to_string(src_rep) + ", srcBlkStride " + std::to_string(src_blk));
  CheckOperand(
      api, "dst", dst.View(), dst_extent, os.unit,
      "repeatTime " + std::to_string(repeat) + ", dstRepStride " + std::to_string(dst_rep));
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    RecordLanes(in, false, src.HostPtr(), g, repeat, lanes, L);
    in.WriteBlocks(dst.HostPtr(), repeat, os.width, out_pitch);
  }
  const auto* s = reinterpret_cast<const std::byte*>(src.HostPtr());
  auto* d = reinterpret_cast<std::byte*>(dst.HostPtr());
  for (int32_t r = 0; r < repeat; ++r) {
    T value;
    uint32_t index;
    ReduceOneRepeat(kind, s, g, r, lanes, &value, &index);
    StoreResult(kind, order, d + r * out_pitch, value, index);
  }
}

// BlockReduceSum/Max/Min (ReduceDataBlock): one result per data block, 8 per repeat, at
// dst[r * dstRepStride * 8 + b]. A block without active lanes is left as it is (A2/A3, 310P,
// training series) or gets the operation's identity (Atlas 200I/500 A2: 0, -65504 / -inf,
// 65504 / +inf; 950: 0, -inf, +inf), as documented.
template <typename T>
void BlockReduce(Kind kind, const char* api, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, Lanes lanes, int64_t repeat_in,
                 int64_t dst_rep_in, int64_t src_blk_in, int64_t src_rep_in, SrcLoc loc) {
  static_assert(kIsReduceType<T>, "reductions: T must be half or float");
  const int32_t repeat = CheckRepeat(api, repeat_in);
  const uint32_t dst_rep = CheckStride(api, "dstRepStride", dst_rep_in);
  const uint32_t src_blk = CheckStride(api, "srcBlkStride", src_blk_in);
  const uint32_t src_rep = CheckStride(api, "srcRepStride", src_rep_in);
  if (repeat == 0 || !lanes.Any()) return;
  constexpr uint32_t L = kLanes<T>;
  constexpr uint32_t E = kPerBlock<T>;
  const NpuArch arch = RunningArch();
  const bool fill = arch == NpuArch::k3002 || arch == NpuArch::k3510;
  bool block_active[8];
  uint32_t last_out = 0;
  for (uint32_t b = 0; b < 8; ++b) {
    block_active[b] = false;
    for (uint32_t j = 0; j < E; ++j) block_active[b] = block_active[b] || lanes.Test(b * E + j);
    if (block_active[b] || fill) last_out = b + 1;
  }
  const Geo g{sizeof(T), uint64_t{src_rep} * kBlockBytes, uint64_t{src_blk} * kBlockBytes};
  const uint64_t out_pitch = uint64_t{dst_rep} * 8 * sizeof(T);
  CheckOperand(api, "src", src.View(), g.Extent(repeat, lanes, L), kBlockBytes,
               "repeatTime " + std::to_string(repeat) + ", srcRepStride " +
                   std::to_string(src_rep) + ", srcBlkStride " + std::to_string(src_blk));
  CheckOperand(
      api, "dst", dst.View(), (repeat - 1) * out_pitch + last_out * sizeof(T), 8 * sizeof(T),
      "repeatTime " + std::to_string(repeat) + ", dstRepStride " + std::to_string(dst_rep));
  auto* d = reinterpret_cast<std::byte*>(dst.HostPtr());
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    RecordLanes(in, false, src.HostPtr(), g, repeat, lanes, L);
    Runs w(in, true);
    for (int32_t r = 0; r < repeat; ++r) {
      for (uint32_t b = 0; b < 8; ++b) {
        if (block_active[b] || fill) w.Add(d + r * out_pitch + b * sizeof(T), sizeof(T));
      }
    }
  }
  const auto* s = reinterpret_cast<const std::byte*>(src.HostPtr());
  for (int32_t r = 0; r < repeat; ++r) {
    T out[8] = {};
    for (uint32_t b = 0; b < 8; ++b) {
      if (!block_active[b]) {
        const bool h = std::is_same_v<T, half> && arch == NpuArch::k3002;
        const float big = h ? 65504.0f : INFINITY;
        out[b] = T(kind == Kind::kSum ? 0.0f : kind == Kind::kMax ? -big : big);
        continue;
      }
      if (kind == Kind::kSum) {
        T v[E];
        for (uint32_t j = 0; j < E; ++j) {
          v[j] = lanes.Test(b * E + j) ? Load<T>(s + g.Off(r, b * E + j)) : T(0.0f);
        }
        out[b] = PairTree(v, E);
      } else {
        bool found = false;
        for (uint32_t j = 0; j < E; ++j) {
          if (!lanes.Test(b * E + j)) continue;
          const T x = Load<T>(s + g.Off(r, b * E + j));
          if (!found || Better(kind == Kind::kMax, x, out[b])) out[b] = x;
          found = true;
        }
      }
    }
    for (uint32_t b = 0; b < 8; ++b) {
      if (block_active[b] || fill) Store(d + r * out_pitch + b * sizeof(T), out[b]);
    }
  }
}

// PairReduceSum (ReducePairElem<SUM>): lanes 2k and 2k+1 summed into dst[r * dstRepStride *
// L/2 + k]. A pair with both lanes masked off is left as it is (A2/A3, 310P) or set to +0
// (950, Atlas 200I/500 A2), as documented; a single masked lane enters as +0.
template <typename T>
void PairReduce(const char* api, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, Lanes lanes, int64_t repeat_in,
                int64_t dst_rep_in, int64_t src_blk_in, int64_t src_rep_in, SrcLoc loc) {
  static_assert(kIsReduceType<T>, "reductions: T must be half or float");
  const int32_t repeat = CheckRepeat(api, repeat_in);
  const uint32_t dst_rep = CheckStride(api, "dstRepStride", dst_rep_in);
  const uint32_t src_blk = CheckStride(api, "srcBlkStride", src_blk_in);
  const uint32_t src_rep = CheckStride(api, "srcRepStride", src_rep_in);
  if (repeat == 0 || !lanes.Any()) return;
  constexpr uint32_t L = kLanes<T>;
  const NpuArch arch = RunningArch();
  const bool fill = arch == NpuArch::k3002 || arch == NpuArch::k3510;
  uint32_t last_out = 0;
  for (uint32_t k = 0; k < L / 2; ++k) {
    if (fill || lanes.Test(2 * k) || lanes.Test(2 * k + 1)) last_out = k + 1;
  }
  const Geo g{sizeof(T), uint64_t{src_rep} * kBlockBytes, uint64_t{src_blk} * kBlockBytes};
  const uint64_t out_pitch = uint64_t{dst_rep} * (kRepeatBytes / 2);
  CheckOperand(api, "src", src.View(), g.Extent(repeat, lanes, L), kBlockBytes,
               "repeatTime " + std::to_string(repeat) + ", srcRepStride " +
                   std::to_string(src_rep) + ", srcBlkStride " + std::to_string(src_blk));
  CheckOperand(
      api, "dst", dst.View(), (repeat - 1) * out_pitch + last_out * sizeof(T), kBlockBytes,
      "repeatTime " + std::to_string(repeat) + ", dstRepStride " + std::to_string(dst_rep));
  auto* d = reinterpret_cast<std::byte*>(dst.HostPtr());
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    RecordLanes(in, false, src.HostPtr(), g, repeat, lanes, L);
    Runs w(in, true);
    for (int32_t r = 0; r < repeat; ++r) {
      for (uint32_t k = 0; k < L / 2; ++k) {
        if (fill || lanes.Test(2 * k) || lanes.Test(2 * k + 1)) {
          w.Add(d + r * out_pitch + k * sizeof(T), sizeof(T));
        }
      }
    }
  }
  const auto* s = reinterpret_cast<const std::byte*>(src.HostPtr());
  for (int32_t r = 0; r < repeat; ++r) {
    T out[L / 2];
    for (uint32_t k = 0; k < L / 2; ++k) {
      const T a = lanes.Test(2 * k) ? Load<T>(s + g.Off(r, 2 * k)) : T(0.0f);
      const T b = lanes.Test(2 * k + 1) ? Load<T>(s + g.Off(r, 2 * k + 1)) : T(0.0f);
      out[k] = Add(a, b);
    }
    for (uint32_t k = 0; k < L / 2; ++k) {
      if (fill || lanes.Test(2 * k) || lanes.Test(2 * k + 1)) {
        Store(d + r * out_pitch + k * sizeof(T), out[k]);
      }
    }
  }
}

// The elements of sharedTmpBuffer ReduceMax/Min need for `first` first-round repeats
// (ReduceMax.md, 关键特性说明), with and without the index.
uint64_t MaxMinTmpElems(uint64_t first, uint32_t elem, bool with_index);

// ReduceSum/Max/Min over the lanes of `repeats` repeats of `g` (srcBlkStride 1): the value,
// and for max/min the element offset of the first extreme (r * repeat pitch + lane). The
// first round's per-repeat results go to tmp (sum: tmp[r]; max/min: [value, index] pairs at
// tmp[2r]), the sum's second round to tmp[0..) as the device's ReduceSumImpl writes them.
template <typename T>
void ReduceAll(Kind kind, const std::byte* src, const Geo& g, uint32_t repeats, const Lanes& lanes,
               T* tmp, T* value, uint32_t* index) {
  constexpr uint32_t L = kLanes<T>;
  const uint32_t pitch_elems = static_cast<uint32_t>(g.rep / sizeof(T));
  if (kind == Kind::kSum) {
    for (uint32_t r = 0; r < repeats; ++r) {
      uint32_t unused;
      ReduceOneRepeat(kind, src, g, r, lanes, &tmp[r], &unused);
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
    ReduceOneRepeat(kind, src, g, r, lanes, &v, &i);
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

// The level-0 and level-2 ReduceSum/Max/Min: checks, records and runs. count >= 0 selects
// level 2 (count elements, repeats of L lanes and a tail); otherwise the repeat form.
template <typename T>
void ReduceWhole(Kind kind, const char* api, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& tmp,
                 Lanes lanes, int64_t repeat_in, int64_t src_rep_in, int64_t count, bool cal_index,
                 SrcLoc loc) {
  static_assert(kIsReduceType<T>, "reductions: T must be half or float");
  constexpr uint32_t L = kLanes<T>;
  const bool level2 = count >= 0;
  uint32_t repeats = 0;
  uint32_t tail = 0;
  uint32_t src_rep = 8;
  if (level2) {
    if (count == 0) return;
    repeats = static_cast<uint32_t>(count / L);
    tail = static_cast<uint32_t>(count % L);
    lanes = Lanes::First(L);
    if (repeats == 0) {
      lanes = Lanes::First(tail);
      repeats = 1;
      tail = 0;
    }
  } else {
    // The level-0 repeatTime may exceed 255 (ReduceMax.md): the API splits it into
    // instructions of 255 repeats.
    if (repeat_in < 0 || repeat_in > INT32_MAX) {
      Raise(checks::kInvalidCount, api,
            "repeatTime is " + std::to_string(repeat_in) + ", which must be in [0, 2^31-1]");
    }
    repeats = static_cast<uint32_t>(repeat_in);
    src_rep = CheckStride(api, "srcRepStride", src_rep_in);
    if (repeats == 0 || !lanes.Any()) return;
  }
  const Geo g{sizeof(T), uint64_t{src_rep} * kBlockBytes, kBlockBytes};
  const uint64_t src_extent =
      tail != 0 ? (uint64_t{repeats} * L + tail) * sizeof(T) : g.Extent(repeats, lanes, L);
  const bool index_out = kind != Kind::kSum && cal_index;
  // Elements of tmp written: the first round, and the tail's [body, tail] pair.
  uint64_t tmp_written = kind == Kind::kSum ? repeats : 2 * uint64_t{repeats};
  if (tail != 0 && tmp_written < 2) tmp_written = 2;
  if (kind != Kind::kSum && repeats == 1 && cal_index && tail == 0) tmp_written = 0;
  const uint64_t tmp_needed =
      kind == Kind::kSum
          ? tmp_written
          : std::max<uint64_t>(tmp_written, repeats == 1 && tail == 0
                                                ? (cal_index ? 0 : kPerBlock<T>)
                                                : MaxMinTmpElems(repeats, sizeof(T), cal_index));
  const std::string how = level2 ? "count " + std::to_string(count)
                                 : "repeatTime " + std::to_string(repeats) + ", srcRepStride " +
                                       std::to_string(src_rep);
  CheckOperand(api, "src", src.View(), src_extent, kBlockBytes, how);
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
    RecordLanes(in, false, src.HostPtr(), g, repeats, lanes, L);
    if (tail != 0) in.Read(src.HostPtr() + uint64_t{repeats} * L, uint64_t{tail} * sizeof(T));
    if (tmp_written != 0) in.Write(tmp.HostPtr(), tmp_written * sizeof(T));
    in.Write(dst.HostPtr(), (index_out ? 2 : 1) * sizeof(T));
  }
  const auto* s = reinterpret_cast<const std::byte*>(src.HostPtr());
  T* t = tmp.HostPtr();
  T scratch[2 * 2];
  // The repeat-1 max/min with index writes straight into dst, not into tmp.
  T* first_round = tmp_written == 0 ? scratch : t;
  T value;
  uint32_t index;
  ReduceAll(kind, s, g, repeats, lanes, first_round, &value, &index);
  if (tail != 0) {
    const Geo tg{sizeof(T), 0, kBlockBytes};
    T tv;
    uint32_t ti;
    ReduceOneRepeat(kind, s + uint64_t{repeats} * L * sizeof(T), tg, 0, Lanes::First(tail), &tv,
                    &ti);
    // The body's and the tail's results are reduced once more as two lanes.
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
}

}  // namespace lngrad::aicore::detail::rep

namespace AscendC {

namespace lngrad_rep = lngrad::aicore::detail::rep;

// ---- WholeReduceSum / WholeReduceMax / WholeReduceMin (ReduceRepeat) ----

template <typename T, bool isSetMask = true>
void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                    const int32_t repeatTime, const int32_t dstRepStride,
                    const int32_t srcBlkStride, const int32_t srcRepStride,
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_rep::WholeReduce(lngrad_rep::Kind::kSum, "WholeReduceSum", dst, src,
                          lngrad_rep::MaskLanes("WholeReduceSum", mask, lngrad_rep::kLanes<T>),
                          repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                          ReduceOrder::ORDER_VALUE_INDEX, loc);
}
template <typename T, bool isSetMask = true>
void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                    const int32_t repeatTime, const int32_t dstRepStride,
                    const int32_t srcBlkStride, const int32_t srcRepStride,
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_rep::WholeReduce(lngrad_rep::Kind::kSum, "WholeReduceSum", dst, src,
                          lngrad_rep::MaskLanes("WholeReduceSum", mask, lngrad_rep::kLanes<T>),
                          repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                          ReduceOrder::ORDER_VALUE_INDEX, loc);
}

#define LNGRAD_WHOLE_REDUCE_EXTREME(NAME, KIND)                                                    \
  template <typename T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,              \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,      \
            const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,        \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    lngrad_rep::WholeReduce(KIND, #NAME, dst, src,                                                 \
                            lngrad_rep::MaskLanes(#NAME, mask, lngrad_rep::kLanes<T>), repeatTime, \
                            dstRepStride, srcBlkStride, srcRepStride, order, loc);                 \
  }                                                                                                \
  template <typename T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],           \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,      \
            const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,        \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    lngrad_rep::WholeReduce(KIND, #NAME, dst, src,                                                 \
                            lngrad_rep::MaskLanes(#NAME, mask, lngrad_rep::kLanes<T>), repeatTime, \
                            dstRepStride, srcBlkStride, srcRepStride, order, loc);                 \
  }
LNGRAD_WHOLE_REDUCE_EXTREME(WholeReduceMax, lngrad_rep::Kind::kMax)
LNGRAD_WHOLE_REDUCE_EXTREME(WholeReduceMin, lngrad_rep::Kind::kMin)
#undef LNGRAD_WHOLE_REDUCE_EXTREME

// ---- BlockReduceSum / BlockReduceMax / BlockReduceMin (ReduceDataBlock), PairReduceSum ----
// Note the parameter order of these older names: repeatTime before mask.

#define LNGRAD_BLOCK_REDUCE(NAME, CALL)                                                          \
  template <typename T, bool isSetMask = true>                                                   \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,      \
            const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,          \
            const int32_t srcRepStride,                                                          \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                    \
    CALL(#NAME, dst, src, lngrad_rep::MaskLanes(#NAME, mask, lngrad_rep::kLanes<T>), repeatTime, \
         dstRepStride, srcBlkStride, srcRepStride, loc);                                         \
  }                                                                                              \
  template <typename T, bool isSetMask = true>                                                   \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,      \
            const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,       \
            const int32_t srcRepStride,                                                          \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                    \
    CALL(#NAME, dst, src, lngrad_rep::MaskLanes(#NAME, mask, lngrad_rep::kLanes<T>), repeatTime, \
         dstRepStride, srcBlkStride, srcRepStride, loc);                                         \
  }
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

// ---- The 2025 names: ReduceRepeat, ReduceDataBlock, ReducePairElem (mask before
// repeatTime). T and U must be the same type here (A2/A3 documents). ----

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask,
                  const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                  const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, U>, "ReduceRepeat: lngrad emulates T == U only");
  static_assert(reduceType != ReduceType::NONE, "ReduceRepeat: reduceType must be SUM, MAX or MIN");
  constexpr auto kind = reduceType == ReduceType::SUM   ? lngrad_rep::Kind::kSum
                        : reduceType == ReduceType::MAX ? lngrad_rep::Kind::kMax
                                                        : lngrad_rep::Kind::kMin;
  lngrad_rep::WholeReduce(kind, "ReduceRepeat", dst, src,
                          lngrad_rep::MaskLanes("ReduceRepeat", mask, lngrad_rep::kLanes<T>),
                          repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);
}

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M>
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask,
                     const int32_t repeatTime, const int32_t dstRepStride,
                     const int32_t srcBlkStride, const int32_t srcRepStride,
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, U>, "ReduceDataBlock: lngrad emulates T == U only");
  static_assert(reduceType != ReduceType::NONE,
                "ReduceDataBlock: reduceType must be SUM, MAX or MIN");
  constexpr auto kind = reduceType == ReduceType::SUM   ? lngrad_rep::Kind::kSum
                        : reduceType == ReduceType::MAX ? lngrad_rep::Kind::kMax
                                                        : lngrad_rep::Kind::kMin;
  lngrad_rep::BlockReduce(kind, "ReduceDataBlock", dst, src,
                          lngrad_rep::MaskLanes("ReduceDataBlock", mask, lngrad_rep::kLanes<T>),
                          repeatTime, dstRepStride, srcBlkStride, srcRepStride, loc);
}

template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M>
void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask,
                    const int32_t repeatTime, const int32_t dstRepStride,
                    const int32_t srcBlkStride, const int32_t srcRepStride,
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(std::is_same_v<T, U>, "ReducePairElem: lngrad emulates T == U only");
  static_assert(reduceType == ReduceType::SUM, "ReducePairElem: reduceType must be SUM");
  lngrad_rep::PairReduce("ReducePairElem", dst, src,
                         lngrad_rep::MaskLanes("ReducePairElem", mask, lngrad_rep::kLanes<T>),
                         repeatTime, dstRepStride, srcBlkStride, srcRepStride, loc);
}

// ---- ReduceSum / ReduceMax / ReduceMin: level 0 (mask, repeatTime, srcRepStride) and
// level 2 (count). dst[0] = the value; with calIndex, dst[1] = the index of its first
// occurrence, as the bits of a T (element offset from src: r * srcRepStride * epb + lane). ----

#define LNGRAD_REDUCE_ALL(NAME, KIND, INDEX_PARAM, INDEX_ARG)                                      \
  template <typename T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                  \
            const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime,   \
            const int32_t srcRepStride INDEX_PARAM,                                                \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    lngrad_rep::ReduceWhole(KIND, #NAME, dst, src, sharedTmpBuffer,                                \
                            lngrad_rep::MaskLanes(#NAME, mask, lngrad_rep::kLanes<T>), repeatTime, \
                            srcRepStride, -1, INDEX_ARG, loc);                                     \
  }                                                                                                \
  template <typename T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                  \
            const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],                          \
            const int32_t repeatTime, const int32_t srcRepStride INDEX_PARAM,                      \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    lngrad_rep::ReduceWhole(KIND, #NAME, dst, src, sharedTmpBuffer,                                \
                            lngrad_rep::MaskLanes(#NAME, mask, lngrad_rep::kLanes<T>), repeatTime, \
                            srcRepStride, -1, INDEX_ARG, loc);                                     \
  }
#define LNGRAD_COMMA ,
LNGRAD_REDUCE_ALL(ReduceSum, lngrad_rep::Kind::kSum, , false)
LNGRAD_REDUCE_ALL(ReduceMax, lngrad_rep::Kind::kMax, LNGRAD_COMMA bool calIndex = 0, calIndex)
LNGRAD_REDUCE_ALL(ReduceMin, lngrad_rep::Kind::kMin, LNGRAD_COMMA bool calIndex = 0, calIndex)
#undef LNGRAD_COMMA
#undef LNGRAD_REDUCE_ALL

template <typename T, bool isSetMask = true>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& sharedTmpBuffer, const int32_t count,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if (count < 0) {
    lngrad_rep::Raise(lngrad::aicore::checks::kInvalidCount, "ReduceSum",
                      "count is " + std::to_string(count) + ", which must be >= 0");
  }
  lngrad_rep::ReduceWhole(lngrad_rep::Kind::kSum, "ReduceSum", dst, src, sharedTmpBuffer, {}, 0, 8,
                          count, false, loc);
}
template <typename T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if (count < 0) {
    lngrad_rep::Raise(lngrad::aicore::checks::kInvalidCount, "ReduceMax",
                      "count is " + std::to_string(count) + ", which must be >= 0");
  }
  lngrad_rep::ReduceWhole(lngrad_rep::Kind::kMax, "ReduceMax", dst, src, sharedTmpBuffer, {}, 0, 8,
                          count, calIndex, loc);
}
template <typename T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if (count < 0) {
    lngrad_rep::Raise(lngrad::aicore::checks::kInvalidCount, "ReduceMin",
                      "count is " + std::to_string(count) + ", which must be >= 0");
  }
  lngrad_rep::ReduceWhole(lngrad_rep::Kind::kMin, "ReduceMin", dst, src, sharedTmpBuffer, {}, 0, 8,
                          count, calIndex, loc);
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
    r::Raise(r::op_checks::kBlockStride, api,
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
