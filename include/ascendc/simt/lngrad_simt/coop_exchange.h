// lngrad SIMT runtime: the exchanges behind cooperative groups (simt_api/cooperative_groups.h).
//
// A group of at most one warp is a lane mask of the calling thread's warp: a thread_block_tile of
// Size <= 32 is the aligned run of Size lanes holding the thread, a coalesced_group the lanes that
// were active together where it was made. Its ranks number its lanes from the lowest. Its
// functions are one warp rendezvous (simt::WarpSync at the caller's source line): every lane of
// the warp waiting there contributes a 64-bit value, and each member reads its group's.
//
// A tile of more than one warp (64 ... 2048 threads) has no warp rendezvous: as on the device it
// synchronises through the block_tile_memory its thread_block was made with, read here as one
// 64-bit slot per warp of the block. Its barrier is a counter (low 32 bits: threads arrived,
// high: generation) in the slot of its last warp; shfl's value and any/all's count live in the
// slot of its first warp. Tiles that share a slot overlap, so they cannot be inside a function at
// the same time (on the device either, all of a tile's threads must be there). A waiting thread
// polls the counter at a simt::AtomicPoint, which lets the other threads of its block run.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "lngrad_aicore/check.h"
#include "lngrad_simt/runtime.h"

namespace lngrad::simt::coop {

// The check raised for a misuse the device leaves undefined (a multi-warp tile without
// block_tile_memory, a tile size that is not one of the documented).
inline constexpr const char* kCheckCoop = "simt_coop";

// A value exchanged through a warp rendezvous: the documented types (half, int32_t, uint32_t,
// float, half2, int64_t, uint64_t, bfloat16_t, bfloat16x2_t) and anything else of at most
// 8 bytes that copies bit for bit.
template <typename T>
concept Exchangeable = std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(uint64_t);

template <Exchangeable T>
uint64_t ToBits(const T& v) noexcept {
  uint64_t bits = 0;
  std::memcpy(&bits, static_cast<const void*>(&v), sizeof(T));
  return bits;
}
template <Exchangeable T>
T FromBits(uint64_t bits) noexcept {
  T v;
  std::memcpy(static_cast<void*>(&v), &bits, sizeof(T));
  return v;
}

inline uint32_t Lane(const char* what) { return detail::CurrentThread(what).lane; }
inline uint32_t LinearRank(const char* what) { return detail::CurrentThread(what).linear; }

// Ranks of a lane mask (bit i: lane i).
inline uint32_t RankOf(uint32_t mask, uint32_t lane) {
  return static_cast<uint32_t>(std::popcount(mask & ((uint32_t{1} << lane) - 1)));
}
inline uint32_t LaneOfRank(uint32_t mask, uint32_t rank) {
  for (uint32_t i = 0; i < rank; ++i) mask &= mask - 1;
  return static_cast<uint32_t>(std::countr_zero(mask));
}
// The aligned run of `size` lanes (a power of two <= 32) holding `lane`.
inline uint32_t TileMask(uint32_t size, uint32_t lane) {
  const uint32_t run = size >= kWarpSize ? ~uint32_t{0} : (uint32_t{1} << size) - 1;
  return size >= kWarpSize ? run : run << (lane / size * size);
}

// A function of a group of at most one warp (`mask`), as seen by the calling lane.
class LaneGroup {
 public:
  explicit LaneGroup(uint32_t mask) : mask_(mask) {}
  uint32_t Size() const { return static_cast<uint32_t>(std::popcount(mask_)); }
  uint32_t Rank() const { return RankOf(mask_, Lane("cooperative_groups")); }

  void Sync(Site loc) const { (void)WarpSync(0, loc); }
  // The value of the member of rank `rank` (own value when that rank is outside the group or
  // its lane is not at the rendezvous).
  uint64_t Read(uint64_t own, uint64_t rank, bool valid, Site loc) const {
    const WarpExchange& ex = WarpSync(own, loc);
    if (!valid || rank >= Size()) return own;
    const uint32_t lane = LaneOfRank(mask_, static_cast<uint32_t>(rank));
    return (ex.active >> lane & 1u) != 0 ? ex.values[lane] : own;
  }
  uint64_t Shfl(uint64_t own, int src_rank, Site loc) const {
    return Read(own, static_cast<uint32_t>(src_rank) % Size(), true, loc);
  }
  uint64_t ShflUp(uint64_t own, unsigned delta, Site loc) const {
    const uint32_t r = Rank();
    return Read(own, r - delta, delta <= r, loc);
  }
  uint64_t ShflDown(uint64_t own, unsigned delta, Site loc) const {
    return Read(own, uint64_t{Rank()} + delta, true, loc);
  }
  uint64_t ShflXor(uint64_t own, unsigned lane_mask, Site loc) const {
    return Read(own, Rank() ^ lane_mask, true, loc);
  }
  // Bit r: the member of rank r is at the rendezvous with a nonzero predicate.
  uint32_t Ballot(int predicate, Site loc) const { return Vote(predicate, loc).ones; }
  int Any(int predicate, Site loc) const { return Vote(predicate, loc).ones != 0; }
  int All(int predicate, Site loc) const {
    const VoteResult v = Vote(predicate, loc);
    return v.ones == v.present;
  }
  // The members (lanes) whose predicate is nonzero, at one rendezvous.
  uint32_t LanesWith(bool predicate, Site loc) const {
    const WarpExchange& ex = WarpSync(predicate ? 1 : 0, loc);
    uint32_t lanes = 0;
    for (uint32_t m = mask_ & ex.active; m != 0; m &= m - 1) {
      const int lane = std::countr_zero(m);
      if (ex.values[lane] != 0) lanes |= uint32_t{1} << lane;
    }
    return lanes;
  }

 private:
  struct VoteResult {
    uint32_t ones = 0;     // by rank
    uint32_t present = 0;  // by rank
  };
  VoteResult Vote(int predicate, Site loc) const {
    const WarpExchange& ex = WarpSync(predicate != 0 ? 1 : 0, loc);
    VoteResult v;
    for (uint32_t m = mask_ & ex.active; m != 0; m &= m - 1) {
      const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
      const uint32_t bit = uint32_t{1} << RankOf(mask_, lane);
      v.present |= bit;
      if (ex.values[lane] != 0) v.ones |= bit;
    }
    return v;
  }
  uint32_t mask_;
};

// A tile of `size` (64 ... 2048) threads, seen by the calling thread, over the block_tile_memory
// slots at `slots` (see the header comment).
class MultiWarpTile {
 public:
  MultiWarpTile(uint64_t* slots, uint32_t size) : size_(size) {
    if (slots == nullptr) {
      aicore::RaiseKernelCheck(kCheckCoop, "a thread_block_tile of " + std::to_string(size) +
                                               " threads needs a thread_block made by "
                                               "this_thread_block(block_tile_memory&)");
    }
    const uint32_t first = LinearRank("thread_block_tile") / size * size;
    if (first + size > detail::CurrentBlock("thread_block_tile").threads) {
      aicore::RaiseKernelCheck(kCheckCoop, "a thread_block_tile of " + std::to_string(size) +
                                               " threads in a block of fewer");
    }
    value_ = &slots[first / kWarpSize];
    barrier_ = &slots[(first + size) / kWarpSize - 1];
  }

  void Sync() const {
    std::atomic_ref<uint64_t> word(*barrier_);
    const uint64_t before = word.fetch_add(1);
    const uint64_t generation = before >> 32;
    if ((before & 0xffffffffu) + 1 == size_) {
      word.store((generation + 1) << 32);
      return;
    }
    while (word.load() >> 32 == generation) AtomicPoint();
  }
  uint64_t Shfl(uint64_t own, int src_rank) const {
    const uint32_t rank = LinearRank("thread_block_tile") % size_;
    Sync();  // the previous user of the slot is done
    if (rank == static_cast<uint32_t>(src_rank) % size_) *value_ = own;
    Sync();
    return *value_;  // the next function's first Sync keeps the slot until every thread read
  }
  // The number of the tile's threads whose predicate is nonzero.
  uint32_t Count(int predicate) const {
    Sync();
    if (LinearRank("thread_block_tile") % size_ == 0) *value_ = 0;
    Sync();
    if (predicate != 0) std::atomic_ref<uint64_t>(*value_).fetch_add(1);
    Sync();
    return static_cast<uint32_t>(*value_);
  }

 private:
  uint32_t size_;
  uint64_t* value_ = nullptr;
  uint64_t* barrier_ = nullptr;
};

}  // namespace lngrad::simt::coop
