// lngrad register API: the engines behind every register operation, shared by the C flavour
// (asc_*) and the C++ flavour (AscendC::Reg). Lane i of a register of T is governed by the mask
// register's lane bit (registers.h); the operation's mode says what masked-off lanes get.
#pragma once

#include <algorithm>
#include <cstdint>

#include "lngrad_reg/op_table.h"
#include "lngrad_reg/registers.h"

namespace lngrad::reg {

template <class Op, MaskMode mode, typename T>
void Binary(VecReg<T>& dst, const VecReg<T>& a, const VecReg<T>& b, const MaskReg& mask) {
  for (uint32_t i = 0; i < kLanes<T>; ++i) {
    if (mask.Lane<T>(i)) {
      dst.lane[i] = Op::Apply(a.lane[i], b.lane[i]);
    } else if constexpr (mode == MaskMode::kZeroing) {
      dst.lane[i] = T{};
    }
  }
}

template <class Op, MaskMode mode, typename T>
void WithScalar(VecReg<T>& dst, const VecReg<T>& a, T value, const MaskReg& mask) {
  VecReg<T> b;
  std::fill(b.lane, b.lane + kLanes<T>, value);
  Binary<Op, mode>(dst, a, b, mask);
}

template <class Op, typename T>
void Compare(MaskReg& dst, const VecReg<T>& a, const VecReg<T>& b, const MaskReg& mask) {
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
  for (uint32_t i = 0; i < kLanes<T>; ++i) dst.lane[i] = mask.Lane<T>(i) ? a.lane[i] : b.lane[i];
}
inline void SelectBits(MaskReg& dst, const MaskReg& a, const MaskReg& b, const MaskReg& mask) {
  MaskReg out;
  for (uint32_t k = 0; k < kMaskBytes * 8; ++k) out.SetBit(k, mask.Bit(k) ? a.Bit(k) : b.Bit(k));
  dst = out;
}

// value in the lanes the mask selects, 0 in the others.
template <typename T>
void Duplicate(VecReg<T>& dst, T value, const MaskReg& mask) {
  for (uint32_t i = 0; i < kLanes<T>; ++i) dst.lane[i] = mask.Lane<T>(i) ? value : T{};
}

// The first min(count, lanes) lanes of a bN type (N = 8 * laneBytes) set; count decreases by
// that many (to 0 at most).
inline MaskReg UpdateMask(uint32_t& count, uint32_t laneBytes) {
  const uint32_t lanes = kVectorBytes / laneBytes;
  const uint32_t on = std::min(count, lanes);
  MaskReg m;
  for (uint32_t i = 0; i < on; ++i) m.SetBit(i * laneBytes, true);
  count -= on;
  return m;
}

}  // namespace lngrad::reg
