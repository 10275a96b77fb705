// lngrad register API (Ascend 950): the register model both flavours share (the C API's
// vector_float / vector_bool, later the C++ API's RegTensor<T> / MaskReg).
//
// A vector register holds VL = 256 bytes: 256 / sizeof(T) lanes of T. The mask register holds
// VL / 8 = 256 bits, one per byte of a vector register: for a b8 type lane i owns bit i, for b16
// bits 2i..2i+1 and for b32 bits 4i..4i+3, of which only the lowest (bit i * sizeof(T)) counts.
// Operations that write a mask for b16/b32 lanes set only that lowest bit and clear the others.
// Registers live in the vector function's frame, so each host thread (block) has its own.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

// A vector function (__simd_vf__) and the functions it calls (__simd_callee__) are plain
// functions on the host; both flavours' kernels name them.
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif

namespace lngrad::reg {

namespace detail {
// lngrad_reg/lane_init.h (sanitizer only): how many registers hold a load not wholly recorded;
// a register written whole drops its note, one copied records the load's read of every lane.
extern thread_local constinit uint32_t t_unwritten_regs;
void ForgetLanes(const void* lanes);
void UseAllLanes(const void* lanes);
}  // namespace detail

inline constexpr uint32_t kVectorBytes = 256;             // VL
inline constexpr uint32_t kMaskBytes = kVectorBytes / 8;  // 256 bits
template <typename T>
inline constexpr uint32_t kLanes = kVectorBytes / sizeof(T);  // lanes of T in one register

// A vector data register of lanes of T (zero-filled when declared).
template <typename T>
struct VecReg {
  static_assert(kVectorBytes % sizeof(T) == 0, "lane types divide the 256-byte register");
  alignas(32) T lane[kLanes<T>] = {};

  VecReg() = default;
  VecReg(const VecReg& other) {
    if (detail::t_unwritten_regs != 0) detail::UseAllLanes(other.lane);
    std::memcpy(lane, other.lane, kVectorBytes);
  }
  VecReg& operator=(const VecReg& other) {
    if (this == &other) return *this;
    if (detail::t_unwritten_regs != 0) {
      detail::UseAllLanes(other.lane);
      detail::ForgetLanes(lane);
    }
    std::memcpy(lane, other.lane, kVectorBytes);
    return *this;
  }

  // (vector_U)reg: the same 256 bytes read as lanes of U (the device's register cast).
  template <typename U>
  explicit operator VecReg<U>() const {
    VecReg<U> r;
    std::memcpy(r.lane, lane, kVectorBytes);
    return r;
  }
};

// The mask register: 256 bits, bit k in byte k / 8 at position k % 8.
struct MaskReg {
  // The bits as two 16-byte halves of two 64-bit words each (bit k: word k / 64, bit k % 64).
  using Words = uint64_t __attribute__((vector_size(16)));
  union {
    alignas(32) uint8_t bits[kMaskBytes] = {};
    // The fast path's view (AllLanes, FirstLanes): whole halves, so that a mask built and
    // tested, or copied and tested, stays in vector registers or is read as it was written (a
    // load wider than the stores it reads right after waits for them to reach the cache).
    Words words[2];
  };

  bool Bit(uint32_t k) const { return ((bits[k >> 3] >> (k & 7)) & 1u) != 0; }
  void SetBit(uint32_t k, bool on) {
    const auto b = static_cast<uint8_t>(1u << (k & 7));
    bits[k >> 3] =
        on ? static_cast<uint8_t>(bits[k >> 3] | b) : static_cast<uint8_t>(bits[k >> 3] & ~b);
  }
  // Lane i of a register of T: the lane's lowest bit.
  template <typename T>
  bool Lane(uint32_t i) const {
    return Bit(i * static_cast<uint32_t>(sizeof(T)));
  }
  // Sets lane i of T (its lowest bit; the lane's other bits are cleared).
  template <typename T>
  void SetLane(uint32_t i, bool on) {
    for (uint32_t k = 0; k < sizeof(T); ++k)
      SetBit(i * static_cast<uint32_t>(sizeof(T)) + k, false);
    SetBit(i * static_cast<uint32_t>(sizeof(T)), on);
  }
  // The byte of a mask whose every lane of laneBytes (1, 2, 4, 8) is selected, other bits clear.
  static constexpr uint8_t LanePattern(uint32_t laneBytes) {
    return laneBytes == 1 ? 0xFF : laneBytes == 2 ? 0x55 : laneBytes == 4 ? 0x11 : 0x01;
  }
  // Whether every lane of T is selected (the engines' fast path).
  template <typename T>
  bool AllLanes() const {
    constexpr Words pat = {Pattern64(sizeof(T)), Pattern64(sizeof(T))};
    const Words missing = (pat & ~words[0]) | (pat & ~words[1]);
    return (missing[0] | missing[1]) == 0;
  }
  // n when the lanes of laneBytes selected are exactly [0, n) (the lanes' lowest bits; their
  // other bits do not matter), else -1.
  int32_t SelectedPrefix(uint32_t laneBytes) const {
    const uint64_t pat = Pattern64(laneBytes);
    uint32_t end = 0;  // one past the highest selected lane bit
    for (uint32_t k = 0; k < kMaskBytes / 8; ++k) {
      const uint64_t w = words[k / 2][k % 2] & pat;
      if (w != 0) end = 64 * k + 64 - static_cast<uint32_t>(std::countl_zero(w));
    }
    const uint32_t n = (end + laneBytes - 1) / laneBytes;
    const MaskReg want = FirstLanes(n, laneBytes);
    const Words diff = (words[0] ^ want.words[0]) | (words[1] ^ want.words[1]);
    const Words lane_bits = {pat, pat};
    const Words wrong = diff & lane_bits;
    return (wrong[0] | wrong[1]) == 0 ? static_cast<int32_t>(n) : -1;
  }
  // Lanes [0, n) of laneBytes selected, every other bit clear.
  static MaskReg FirstLanes(uint32_t n, uint32_t laneBytes) {
    const uint32_t end = n * laneBytes;  // the bits below end hold the selected lanes' bits
    const uint64_t all = Pattern64(laneBytes);
    const auto word = [&](uint32_t k) {
      const uint32_t below = end > 64 * k ? end - 64 * k : 0;  // bits of word k below end
      return below >= 64 ? all : all & ((uint64_t{1} << below) - 1);
    };
    MaskReg m;
    m.words[0] = Words{word(0), word(1)};
    m.words[1] = Words{word(2), word(3)};
    return m;
  }

 private:
  static constexpr uint64_t Pattern64(uint32_t laneBytes) {
    return uint64_t{LanePattern(laneBytes)} * 0x0101010101010101ull;
  }
};

// The unaligned-access register (the C++ flavour's UnalignRegForLoad / UnalignRegForStore, the C
// flavour's vector_load_unalign / vector_store_unalign): for stores, the bytes past the last
// 32-byte boundary an unaligned store reached, not yet written, and where they go (written by
// the next contiguous store or the Post store). Loads keep nothing in it here.
struct UnalignReg {
  alignas(32) uint8_t pending[32] = {};
  uint8_t* at = nullptr;  // UB address of pending[0]
  uint32_t bytes = 0;     // pending bytes
};

// The C flavour's address register (addr_reg, asc_update_addr_reg_bN): a byte offset the aligned
// loads and stores add to their UB address.
struct AddrRegBytes {
  uint32_t bytes = 0;
};

}  // namespace lngrad::reg
