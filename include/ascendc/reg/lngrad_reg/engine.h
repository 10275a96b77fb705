// lngrad register API: the engines behind every register operation, shared by the C flavour
// (asc_*) and the C++ flavour (AscendC::Reg). Lane i of a register of T is governed by the mask
// register's lane bit (registers.h); the operation's mode says what masked-off lanes get.
#pragma once

#include <algorithm>
#include <type_traits>
#include <cstdint>

#include "lngrad_reg/lane_init.h"
#include "lngrad_reg/op_table.h"
#include "lngrad_reg/registers.h"
#include "lngrad_reg/simd.h"

namespace lngrad::reg {

namespace detail {
// The operations on every float lane with a whole-register kernel (lngrad_reg/simd.h: IEEE
// +, -, *, /, sqrt; exp and ln in double rounded once, as ops:: computes them), each giving the
// bits of the element function of Op: its index in the kernel table, or -1.
template <class Op>
inline constexpr int kVlBinary = -1;
template <class Op>
inline constexpr int kVlUnary = -1;
#define LNGRAD_REG_KERNEL(kind, op) \
  template <>                       \
  inline constexpr int kVl##kind<ops::op> = static_cast<int>(Vl##kind::k##op);
#define LNGRAD_REG_VL_BINARY(op) LNGRAD_REG_KERNEL(Binary, op)
#define LNGRAD_REG_VL_UNARY(op) LNGRAD_REG_KERNEL(Unary, op)
LNGRAD_REG_VL_BINARY_OPS(LNGRAD_REG_VL_BINARY)
LNGRAD_REG_VL_UNARY_OPS(LNGRAD_REG_VL_UNARY)
#undef LNGRAD_REG_VL_BINARY
#undef LNGRAD_REG_VL_UNARY
#undef LNGRAD_REG_KERNEL
}  // namespace detail

// Every engine has a fast path for a mask that selects every lane: float +, -, *, /, sqrt, exp
// and ln run the whole-register kernels (on the machine's widest vectors; LNGRAD_IMPL is not
// consulted), the others one loop without a branch, which the compiler vectorises where the
// element function allows; the same bits either way.
template <class Op, MaskMode mode, typename T>
void Binary(VecReg<T>& dst, const VecReg<T>& a, const VecReg<T>& b, const MaskReg& mask) {
  detail::LaneRead(&mask, a, b);
  detail::LaneWrite(dst);
  if (mask.AllLanes<T>()) {
    if constexpr (std::is_same_v<T, float> && detail::kVlBinary<Op> >= 0) {
      detail::g_simd.binary[detail::kVlBinary<Op>](dst.lane, a.lane, b.lane);
    } else {
      for (uint32_t i = 0; i < kLanes<T>; ++i) dst.lane[i] = Op::Apply(a.lane[i], b.lane[i]);
    }
    return;
  }
  for (uint32_t i = 0; i < kLanes<T>; ++i) {
    if (mask.Lane<T>(i)) {
      dst.lane[i] = Op::Apply(a.lane[i], b.lane[i]);
    } else if constexpr (mode == MaskMode::kZeroing) {
      dst.lane[i] = T{};
    }
  }
}

template <class Op, MaskMode mode, typename T>
void Unary(VecReg<T>& dst, const VecReg<T>& a, const MaskReg& mask) {
  detail::LaneRead(&mask, a);
  detail::LaneWrite(dst);
  if (mask.AllLanes<T>()) {
    if constexpr (std::is_same_v<T, float> && detail::kVlUnary<Op> >= 0) {
      detail::g_simd.unary[detail::kVlUnary<Op>](dst.lane, a.lane);
    } else {
      for (uint32_t i = 0; i < kLanes<T>; ++i) dst.lane[i] = Op::Apply(a.lane[i]);
    }
    return;
  }
  for (uint32_t i = 0; i < kLanes<T>; ++i) {
    if (mask.Lane<T>(i)) {
      dst.lane[i] = Op::Apply(a.lane[i]);
    } else if constexpr (mode == MaskMode::kZeroing) {
      dst.lane[i] = T{};
    }
  }
}

// The binary tree over lanes [begin, begin + n) (n a power of two): pairs of neighbours first,
// then pairs of those, ... An unselected lane takes no part (a pair with one selected lane is
// that lane); returns false when no lane is selected.
template <class Op, typename T>
bool Tree(const VecReg<T>& a, const MaskReg& mask, uint32_t begin, uint32_t n, T* out) {
  T val[kLanes<T>];
  bool on[kLanes<T>];
  for (uint32_t i = 0; i < n; ++i) {
    val[i] = a.lane[begin + i];
    on[i] = mask.Lane<T>(begin + i);
  }
  for (uint32_t width = n; width > 1; width /= 2) {
    for (uint32_t i = 0; i < width / 2; ++i) {
      const uint32_t l = 2 * i, r = 2 * i + 1;
      val[i] = on[l] && on[r] ? Op::Apply(val[l], val[r]) : on[l] ? val[l] : val[r];
      on[i] = on[l] || on[r];
    }
  }
  *out = val[0];
  return on[0];
}

// dst lane k = the tree of group k (the whole register, or 32-byte block k), and a group without
// a selected lane gives 0; the other lanes 0 (kZeroing) or unchanged (kMerging).
// Tree with every lane selected: the same pairs, no lane to skip.
template <class Op, typename T>
T TreeAll(const T* src, uint32_t n) {
  T val[kLanes<T>];
  for (uint32_t i = 0; i < n / 2; ++i) val[i] = Op::Apply(src[2 * i], src[2 * i + 1]);
  for (uint32_t width = n / 2; width > 1; width /= 2) {
    for (uint32_t i = 0; i < width / 2; ++i) val[i] = Op::Apply(val[2 * i], val[2 * i + 1]);
  }
  return val[0];
}

// The tree of lanes [begin, begin + n), 0 when none is selected; every lane selected: the float
// sum of the whole register on the widest vectors (the same pairs), else TreeAll.
template <class Op, typename T>
T GroupTree(const VecReg<T>& a, const MaskReg& mask, bool all, uint32_t begin, uint32_t n) {
  if constexpr (std::is_same_v<T, float> && std::is_same_v<Op, ops::Add>) {
    if (all && n == kLanes<T>) return detail::g_simd.sum(a.lane);
  }
  if (all) return TreeAll<Op>(a.lane + begin, n);
  T r;
  return Tree<Op>(a, mask, begin, n, &r) ? r : T{};
}

template <class Op, bool perBlock, MaskMode mode = MaskMode::kZeroing, typename T>
void Reduce(VecReg<T>& dst, const VecReg<T>& a, const MaskReg& mask) {
  detail::LaneRead(&mask, a);
  detail::LaneWrite(dst);
  constexpr uint32_t group = perBlock ? 32 / sizeof(T) : kLanes<T>;
  constexpr uint32_t groups = kLanes<T> / group;
  T r[groups];  // every group read before dst (which may be a) is written
  const bool all = mask.AllLanes<T>();
  for (uint32_t g = 0; g < groups; ++g) r[g] = GroupTree<Op>(a, mask, all, g * group, group);
  if constexpr (mode == MaskMode::kZeroing) dst = VecReg<T>{};
  std::copy(r, r + groups, dst.lane);
}

// A reduction over two registers of lanes [0, n) and [n, 2n) (RegTraitNumTwo): the tree's top
// level combines the two registers' trees; the result in lane 0 of dst[0], the other lanes 0
// (kZeroing) or unchanged (kMerging).
template <class Op, MaskMode mode, typename T>
void ReduceTwo(VecReg<T> (&dst)[2], const VecReg<T> (&a)[2], const MaskReg& mask0,
               const MaskReg& mask1) {
  detail::LaneRead(&mask0, a[0]);
  detail::LaneRead(&mask1, a[1]);
  detail::LaneWrite(dst[0]);
  detail::LaneWrite(dst[1]);
  T r0{}, r1{};
  const bool on0 = Tree<Op>(a[0], mask0, 0, kLanes<T>, &r0);
  const bool on1 = Tree<Op>(a[1], mask1, 0, kLanes<T>, &r1);
  if constexpr (mode == MaskMode::kZeroing) dst[0] = VecReg<T>{}, dst[1] = VecReg<T>{};
  dst[0].lane[0] = on0 && on1 ? Op::Apply(r0, r1) : on0 ? r0 : on1 ? r1 : T{};
}

// dst lane i (i < lanes / 2) = src[2i] + src[2i + 1], an unselected lane counting as 0; the
// upper half 0.
template <typename T>
void PairReduceSum(VecReg<T>& dst, const VecReg<T>& a, const MaskReg& mask) {
  detail::LaneRead(&mask, a);
  detail::LaneWrite(dst);
  VecReg<T> out;
  for (uint32_t i = 0; i < kLanes<T> / 2; ++i) {
    const bool l = mask.Lane<T>(2 * i), r = mask.Lane<T>(2 * i + 1);
    out.lane[i] = l && r ? ops::Add::Apply(a.lane[2 * i], a.lane[2 * i + 1])
                  : l    ? a.lane[2 * i]
                  : r    ? a.lane[2 * i + 1]
                         : T{};
  }
  dst = out;
}

template <class Op, MaskMode mode, typename T>
void WithScalar(VecReg<T>& dst, const VecReg<T>& a, T value, const MaskReg& mask) {
  VecReg<T> b;
  std::fill(b.lane, b.lane + kLanes<T>, value);
  Binary<Op, mode>(dst, a, b, mask);
}

template <class Op, typename T>
void Compare(MaskReg& dst, const VecReg<T>& a, const VecReg<T>& b, const MaskReg& mask) {
  detail::LaneRead(&mask, a, b);
  MaskReg out;
  for (uint32_t i = 0; i < kLanes<T>; ++i)
    out.SetLane<T>(i, mask.Lane<T>(i) && Op::Apply(a.lane[i], b.lane[i]));
  dst = out;
}

// Bit by bit over the 256 bits: op where mask is set, 0 elsewhere.
template <class Op>
void MaskBinary(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& mask) {
  MaskReg out;
  for (uint32_t k = 0; k < kMaskBytes * 8; ++k)
    out.SetBit(k, mask.Bit(k) && Op::Bit(a.Bit(k), b.Bit(k)));
  dst = out;
}

// dst = mask ? a : b, every lane (no lane is zeroed).
template <typename T>
void Select(VecReg<T>& dst, const VecReg<T>& a, const VecReg<T>& b, const MaskReg& mask) {
  detail::LaneRead(&mask, a);
  detail::LaneRead(nullptr, b);  // b's lanes where the mask is clear: every lane counted
  detail::LaneWrite(dst);
  for (uint32_t i = 0; i < kLanes<T>; ++i) dst.lane[i] = mask.Lane<T>(i) ? a.lane[i] : b.lane[i];
}
inline void SelectBits(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& mask) {
  MaskReg out;
  for (uint32_t k = 0; k < kMaskBytes * 8; ++k) out.SetBit(k, mask.Bit(k) ? a.Bit(k) : b.Bit(k));
  dst = out;
}

// value in the lanes the mask selects; the others 0 (kZeroing) or unchanged (kMerging).
template <MaskMode mode = MaskMode::kZeroing, typename T>
void Duplicate(VecReg<T>& dst, T value, const MaskReg& mask) {
  detail::LaneWrite(dst);
  for (uint32_t i = 0; i < kLanes<T>; ++i) {
    if (mask.Lane<T>(i)) {
      dst.lane[i] = value;
    } else if constexpr (mode == MaskMode::kZeroing) {
      dst.lane[i] = T{};
    }
  }
}

// The first min(count, lanes) lanes of a bN type (N = 8 * laneBytes) set; count decreases by
// that many (to 0 at most).
inline MaskReg UpdateMask(uint32_t& count, uint32_t laneBytes) {
  const uint32_t lanes = kVectorBytes / laneBytes;
  const uint32_t on = std::min(count, lanes);
  count -= on;
  return MaskReg::FirstLanes(on, laneBytes);
}

}  // namespace lngrad::reg

namespace lngrad::reg {

// The lanes a mask pattern selects (asc_create_mask_bN; the reference's PAT_* names, values as
// the reference lists them): every lane, the lowest 1, 2, 3, 4, 8, ..., 128 lanes, the lanes
// whose index is a multiple of 3 or 4, the lower half or quarter, none.
enum class Pattern : uint8_t {
  kAll = 0,
  kVl1,
  kVl2,
  kVl3,
  kVl4,
  kVl8,
  kVl16,
  kVl32,
  kVl64,
  kVl128,
  kM3,
  kM4,
  kH,
  kQ,
  kNone = 15
};
inline bool PatternSelects(Pattern p, uint32_t i, uint32_t lanes) {
  constexpr uint32_t kFirst[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128};
  const auto v = static_cast<uint8_t>(p);
  if (p == Pattern::kAll) return true;
  if (v < 10) return i < kFirst[v];
  switch (p) {
    case Pattern::kM3:
      return i % 3 == 0;
    case Pattern::kM4:
      return i % 4 == 0;
    case Pattern::kH:
      return i < lanes / 2;
    case Pattern::kQ:
      return i < lanes / 4;
    default:
      return false;
  }
}
inline MaskReg CreateMask(Pattern p, uint32_t laneBytes) {
  const uint32_t lanes = kVectorBytes / laneBytes;
  MaskReg m;
  for (uint32_t i = 0; i < lanes; ++i) m.SetBit(i * laneBytes, PatternSelects(p, i, lanes));
  return m;
}

// lane i = value + i (descend: value + lanes - 1 - i); integers wrap, floats are rounded once.
template <typename T>
void Arange(VecReg<T>& dst, T value, bool descend) {
  detail::LaneWrite(dst);
  for (uint32_t i = 0; i < kLanes<T>; ++i) {
    const uint32_t k = descend ? kLanes<T> - 1 - i : i;
    if constexpr (std::is_integral_v<T>) {
      dst.lane[i] = static_cast<T>(static_cast<uint64_t>(value) + k);
    } else {
      dst.lane[i] = static_cast<T>(static_cast<float>(value) + static_cast<float>(k));
    }
  }
}

}  // namespace lngrad::reg
