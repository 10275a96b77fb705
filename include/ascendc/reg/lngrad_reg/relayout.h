// lngrad register API: the engines that move lanes between registers (gather by index, squeeze,
// interleave, pack, histograms), shared by the C flavour (asc_gather, asc_squeeze, asc_intlv,
// asc_pack_to_low, asc_frequency_histogram_bin0, ...) and the C++ flavour (Gather, Squeeze,
// Interleave, Pack, Histograms), as engine.h's are. Each follows the reference's page of the
// same name; where it is silent, the choice is said here and in docs/ascendc_compat.md.
#pragma once

#include <cstdint>
#include <cstring>

#include "lngrad_reg/lane_init.h"
#include "lngrad_reg/lane_types.h"
#include "lngrad_reg/registers.h"

namespace lngrad::reg {

// dst lane i = src lane (index lane i mod lanes) (the index lanes have the data's width).
template <typename T, typename I>
void GatherLanes(VecReg<T>& dst, const VecReg<T>& src, const VecReg<I>& index) {
  detail::LaneRead(nullptr, src, index);
  detail::LaneWrite(dst);
  static_assert(sizeof(T) == sizeof(I), "the index lanes have the data lanes' width");
  VecReg<T> out;
  for (uint32_t i = 0; i < kLanes<T>; ++i) out.lane[i] = src.lane[index.lane[i] % kLanes<T>];
  dst = out;
}

// The lanes the mask selects, in order, from lane 0 up; the other lanes 0. Returns how many.
template <typename T>
uint32_t Squeeze(VecReg<T>& dst, const VecReg<T>& src, const MaskReg& mask) {
  detail::LaneRead(nullptr, src);
  detail::LaneWrite(dst);
  VecReg<T> out;
  uint32_t n = 0;
  for (uint32_t i = 0; i < kLanes<T>; ++i) {
    if (mask.Lane<T>(i)) out.lane[n++] = src.lane[i];
  }
  dst = out;
  return n;
}

// Interleave: (dst0, dst1) = a0 b0 a1 b1 ... (dst0 the lower half of the 2 * lanes sequence);
// DeInterleave, its inverse: dst0 the even lanes of the sequence a, b, dst1 the odd ones.
struct Interleave {
  template <typename T>
  static void Apply(VecReg<T>& dst0, VecReg<T>& dst1, const VecReg<T>& a, const VecReg<T>& b) {
    T seq[2 * kLanes<T>];
    for (uint32_t i = 0; i < kLanes<T>; ++i) {
      seq[2 * i] = a.lane[i];
      seq[2 * i + 1] = b.lane[i];
    }
    std::memcpy(dst0.lane, seq, kVectorBytes);
    std::memcpy(dst1.lane, seq + kLanes<T>, kVectorBytes);
  }
};
struct DeInterleave {
  template <typename T>
  static void Apply(VecReg<T>& dst0, VecReg<T>& dst1, const VecReg<T>& a, const VecReg<T>& b) {
    T seq[2 * kLanes<T>];
    std::memcpy(seq, a.lane, kVectorBytes);
    std::memcpy(seq + kLanes<T>, b.lane, kVectorBytes);
    for (uint32_t i = 0; i < kLanes<T>; ++i) {
      dst0.lane[i] = seq[2 * i];
      dst1.lane[i] = seq[2 * i + 1];
    }
  }
};

// Pack: the low half of each lane of src (D half S's width), in order, into the lower (high ==
// false) or upper half of dst; the other half 0 (lngrad's choice: the reference does not say).
template <typename D, typename S>
void PackHalf(VecReg<D>& dst, const VecReg<S>& src, bool high) {
  detail::LaneRead(nullptr, src);
  detail::LaneWrite(dst);
  static_assert(2 * sizeof(D) == sizeof(S), "Pack halves the lane width");
  VecReg<D> out;
  const uint32_t base = high ? kLanes<S> : 0;
  for (uint32_t i = 0; i < kLanes<S>; ++i) {
    std::memcpy(&out.lane[base + i], &src.lane[i], sizeof(D));  // little-endian: the low half
  }
  dst = out;
}

// Histograms of uint8 lanes into uint16 counters (the bin's 128 values: [128 * bin, 128 * bin +
// 128)): frequency adds to counter n the selected lanes equal to 128 * bin + n; cumulative adds
// those in [128 * bin, 128 * bin + n]. Counters wrap at 2^16.
template <bool cumulative>
void Histogram(VecReg<uint16_t>& dst, const VecReg<uint8_t>& src, const MaskReg& mask,
               uint32_t bin) {
  detail::LaneRead(&mask, src);
  detail::LaneWrite(dst);
  uint32_t count[kLanes<uint16_t>] = {};
  for (uint32_t i = 0; i < kLanes<uint8_t>; ++i) {
    const uint32_t v = src.lane[i];
    if (mask.Lane<uint8_t>(i) && v / kLanes<uint16_t> == bin) ++count[v % kLanes<uint16_t>];
  }
  uint32_t running = 0;
  for (uint32_t n = 0; n < kLanes<uint16_t>; ++n) {
    running += count[n];
    dst.lane[n] = static_cast<uint16_t>(dst.lane[n] + (cumulative ? running : count[n]));
  }
}

// A mask from register bits: block `offset` of src (32 / sizeof(T) bytes: 256 bits), bit k
// (bit k % 8 of the block's byte k / 8) broadcast to the sizeof(T) mask bits of lane k.
template <typename T>
void MaskFromBits(MaskReg& dst, const VecReg<T>& src, uint32_t offset) {
  detail::LaneRead(nullptr, src);
  constexpr uint32_t blockBytes = kMaskBytes / sizeof(T);
  uint8_t block[blockBytes];
  std::memcpy(block, reinterpret_cast<const uint8_t*>(src.lane) + offset * blockBytes, blockBytes);
  MaskReg out;
  for (uint32_t k = 0; k < 8 * blockBytes; ++k) {
    const bool on = ((block[k / 8] >> (k % 8)) & 1u) != 0;
    for (uint32_t b = 0; b < sizeof(T); ++b) out.SetBit(k * sizeof(T) + b, on);
  }
  dst = out;
}

}  // namespace lngrad::reg

// The two-in, two-out rearrangements: X(C name, C++ name, engine), lane types kAnyLane.
#define LNGRAD_REG_PAIR_TABLE(X)                      \
  X(asc_intlv, Interleave, ::lngrad::reg::Interleave) \
  X(asc_deintlv, DeInterleave, ::lngrad::reg::DeInterleave)
// The histograms: X(C name, bin, cumulative?); the C++ flavour's Histograms<..., BINn,
// FREQUENCY/ACCUMULATE> is the row of its bin and type.
#define LNGRAD_REG_HISTOGRAM_TABLE(X)       \
  X(asc_frequency_histogram_bin0, 0, false) \
  X(asc_frequency_histogram_bin1, 1, false) \
  X(asc_cumulative_histogram_bin0, 0, true) \
  X(asc_cumulative_histogram_bin1, 1, true)
