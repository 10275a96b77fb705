// lngrad SIMT API: cooperative groups (the vendor's simt_api/cooperative_groups.h): thread_block,
// thread_block_tile<Size>, coalesced_group, this_thread_block, coalesced_threads,
// tiled_partition, binary_partition.
//
// Groups of at most one warp exchange through warp rendezvous at the caller's source line; tiles
// of 64 ... 2048 threads through the block_tile_memory of their thread_block
// (lngrad_simt/coop_exchange.h says how). The functions that wait (sync, shfl*, any, all, ballot,
// coalesced_threads, binary_partition) take a trailing SrcLoc, so that lanes waiting at different
// lines stay apart as on the device. What the documents leave undefined and lngrad catches:
// a tile of more than 32 threads without block_tile_memory, or in a block too small for it, and a
// run-time tile size other than 1, 2, 4, ..., 32, raise the check simt_coop.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "lngrad_simt/coop_exchange.h"
#include "simt_api/device_functions.h"

namespace cooperative_groups {

namespace details {

inline constexpr unsigned int warp_size = 32;
inline constexpr unsigned int max_thread_block_size = 2048;
// block_tile_memory: a header of 40 bytes (unused here), then one 8-byte slot per warp.
inline constexpr unsigned int scratch_header_bytes = 40;
constexpr unsigned int scratch_size_needed(unsigned int max_block_size) {
  return scratch_header_bytes + max_block_size / warp_size * 8;
}
constexpr bool is_power_of_two(unsigned int v) { return v != 0 && (v & (v - 1)) == 0; }

// What a group object holds (every group type, so that a thread_group can stand for any).
struct group_info {
  unsigned int type = 0;      // group_type
  uint32_t mask = 0;          // its lanes (groups of at most one warp)
  uint32_t threads = 0;       // tiles: Size or tilesz
  uint32_t meta_rank = 0;     // meta_group_rank
  uint32_t meta_size = 1;     // meta_group_size
  uint64_t* slots = nullptr;  // block_tile_memory's slots (thread_block and its tiles)
};

}  // namespace details

template <unsigned int MaxBlockSize = 1024>
struct alignas(8) block_tile_memory {
  static_assert(MaxBlockSize > 0 && MaxBlockSize <= details::max_thread_block_size,
                "MaxBlockSize must be in 1..2048");
  static_assert(MaxBlockSize % details::warp_size == 0, "MaxBlockSize must be a multiple of 32");
  unsigned char storage[details::scratch_size_needed(MaxBlockSize)];
};

enum class group_type : unsigned int {
  thread_block_type,
  tiled_group_type,
  coalesced_group_type,
};

class thread_group {
 public:
  using SrcLoc = ::lngrad::aicore::SrcLoc;

  unsigned long long size() const;
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const;
  void sync(SrcLoc loc = SrcLoc::Current()) const;
  group_type get_type() const { return static_cast<group_type>(info_.type); }

  const details::group_info& _info() const { return info_; }
  static thread_group _make(const details::group_info& info) { return thread_group(info); }

 protected:
  explicit thread_group(const details::group_info& info) : info_(info) {}
  details::group_info info_;
};

class thread_block : public thread_group {
 public:
  static void sync(SrcLoc loc = SrcLoc::Current()) { ::lngrad::simt::SyncThreads(loc); }
  static unsigned int thread_rank() { return ::lngrad::simt::coop::LinearRank("thread_block"); }
  static dim3 group_index() { return Block().block_idx; }
  static dim3 thread_index() {
    return ::lngrad::simt::detail::CurrentThread("thread_block").thread_idx;
  }
  static dim3 dim_threads() { return Block().block_dim; }
  static unsigned int num_threads() { return Block().threads; }
  static unsigned int size() { return Block().threads; }
  static dim3 group_dim() { return Block().block_dim; }

  static thread_block _make(uint64_t* slots) {
    details::group_info info;
    info.type = static_cast<unsigned int>(group_type::thread_block_type);
    info.slots = slots;
    return thread_block(info);
  }

 private:
  explicit thread_block(const details::group_info& info) : thread_group(info) {}
  static const ::lngrad::simt::BlockInfo& Block() {
    return ::lngrad::simt::detail::CurrentBlock("thread_block");
  }
};

inline thread_block this_thread_block() { return thread_block::_make(nullptr); }
template <unsigned int MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize>& scratch) {
  auto* slots = scratch.storage + details::scratch_header_bytes;
  return thread_block::_make(reinterpret_cast<uint64_t*>(slots));
}

// The functions of a group of at most one warp, on top of its lane mask (coalesced_group and
// thread_block_tile<Size <= 32>).
template <typename Derived>
class lane_group_functions {
 public:
  using SrcLoc = ::lngrad::aicore::SrcLoc;

  template <::lngrad::simt::coop::Exchangeable T>
  T shfl(T var, int src_rank, SrcLoc loc = SrcLoc::Current()) const {
    return Bits<T>(Group().Shfl(::lngrad::simt::coop::ToBits(var), src_rank, loc));
  }
  template <::lngrad::simt::coop::Exchangeable T>
  T shfl_up(T var, unsigned int delta, SrcLoc loc = SrcLoc::Current()) const {
    return Bits<T>(Group().ShflUp(::lngrad::simt::coop::ToBits(var), delta, loc));
  }
  template <::lngrad::simt::coop::Exchangeable T>
  T shfl_down(T var, unsigned int delta, SrcLoc loc = SrcLoc::Current()) const {
    return Bits<T>(Group().ShflDown(::lngrad::simt::coop::ToBits(var), delta, loc));
  }
  int any(int predicate, SrcLoc loc = SrcLoc::Current()) const {
    return Group().Any(predicate, loc);
  }
  int all(int predicate, SrcLoc loc = SrcLoc::Current()) const {
    return Group().All(predicate, loc);
  }
  unsigned int ballot(int predicate, SrcLoc loc = SrcLoc::Current()) const {
    return Group().Ballot(predicate, loc);
  }

 protected:
  ::lngrad::simt::coop::LaneGroup Group() const {
    return ::lngrad::simt::coop::LaneGroup(static_cast<const Derived&>(*this)._info().mask);
  }
  template <typename T>
  static T Bits(uint64_t bits) {
    return ::lngrad::simt::coop::FromBits<T>(bits);
  }
};

class coalesced_group : public thread_group, public lane_group_functions<coalesced_group> {
 public:
  using thread_group::SrcLoc;

  void sync(SrcLoc loc = SrcLoc::Current()) const { Group().Sync(loc); }
  unsigned long long num_threads() const { return Group().Size(); }
  unsigned long long size() const { return Group().Size(); }
  unsigned long long thread_rank() const { return Group().Rank(); }
  unsigned long long meta_group_rank() const { return info_.meta_rank; }
  unsigned long long meta_group_size() const { return info_.meta_size; }

  static coalesced_group _make(uint32_t mask, uint32_t meta_rank, uint32_t meta_size) {
    details::group_info info;
    info.type = static_cast<unsigned int>(group_type::coalesced_group_type);
    info.mask = mask;
    info.meta_rank = meta_rank;
    info.meta_size = meta_size;
    return coalesced_group(info);
  }

 private:
  explicit coalesced_group(const details::group_info& info) : thread_group(info) {}
};

inline coalesced_group coalesced_threads(
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  return coalesced_group::_make(::lngrad::simt::WarpSync(0, loc).active, 0, 1);
}

template <unsigned int Size, typename ParentT = void>
class thread_block_tile : public thread_group,
                          public lane_group_functions<thread_block_tile<Size, ParentT>> {
  static_assert(details::is_power_of_two(Size) && Size <= details::max_thread_block_size,
                "Size must be one of 1, 2, 4, ..., 2048");
  static constexpr bool kMultiWarp = Size > details::warp_size;
  using Lanes = lane_group_functions<thread_block_tile<Size, ParentT>>;

 public:
  using thread_group::SrcLoc;

  // thread_block_tile<Size> from any thread_block_tile<Size, ParentT>.
  template <typename P>
  requires(std::is_void_v<ParentT> && !std::is_void_v<P>)
      thread_block_tile(const thread_block_tile<Size, P>& g)
      : thread_group(g._info()) {}

  static constexpr unsigned long long num_threads() { return Size; }
  static constexpr unsigned long long size() { return Size; }
  unsigned long long thread_rank() const {
    return ::lngrad::simt::coop::LinearRank("thread_block_tile") % Size;
  }
  unsigned long long meta_group_rank() const { return info_.meta_rank; }
  unsigned long long meta_group_size() const { return info_.meta_size; }

  void sync(SrcLoc loc = SrcLoc::Current()) const {
    if constexpr (kMultiWarp) {
      MultiWarp().Sync();
    } else {
      Lanes::Group().Sync(loc);
    }
  }
  template <::lngrad::simt::coop::Exchangeable T>
  T shfl(T var, int src_rank, SrcLoc loc = SrcLoc::Current()) const {
    if constexpr (kMultiWarp) {
      return Lanes::template Bits<T>(MultiWarp().Shfl(::lngrad::simt::coop::ToBits(var), src_rank));
    } else {
      return Lanes::shfl(var, src_rank, loc);
    }
  }
  template <::lngrad::simt::coop::Exchangeable T>
  T shfl_xor(T var, unsigned int lane_mask, SrcLoc loc = SrcLoc::Current()) const
      requires(!kMultiWarp) {
    return Lanes::template Bits<T>(
        Lanes::Group().ShflXor(::lngrad::simt::coop::ToBits(var), lane_mask, loc));
  }
  int any(int predicate, SrcLoc loc = SrcLoc::Current()) const {
    if constexpr (kMultiWarp) {
      return MultiWarp().Count(predicate) != 0;
    } else {
      return Lanes::any(predicate, loc);
    }
  }
  int all(int predicate, SrcLoc loc = SrcLoc::Current()) const {
    if constexpr (kMultiWarp) {
      return MultiWarp().Count(predicate) == Size;
    } else {
      return Lanes::all(predicate, loc);
    }
  }
  // Tiles of one warp only, as documented.
  template <::lngrad::simt::coop::Exchangeable T>
  T shfl_up(T var, unsigned int delta, SrcLoc loc = SrcLoc::Current()) const requires(!kMultiWarp) {
    return Lanes::shfl_up(var, delta, loc);
  }
  template <::lngrad::simt::coop::Exchangeable T>
  T shfl_down(T var, unsigned int delta, SrcLoc loc = SrcLoc::Current()) const
      requires(!kMultiWarp) {
    return Lanes::shfl_down(var, delta, loc);
  }
  unsigned int ballot(int predicate, SrcLoc loc = SrcLoc::Current()) const requires(!kMultiWarp) {
    return Lanes::ballot(predicate, loc);
  }

  static thread_block_tile _make(const details::group_info& info) {
    return thread_block_tile(info);
  }

 private:
  explicit thread_block_tile(const details::group_info& info) : thread_group(info) {}
  ::lngrad::simt::coop::MultiWarpTile MultiWarp() const {
    return ::lngrad::simt::coop::MultiWarpTile(info_.slots, Size);
  }
};

namespace details {

// A tile of `threads` (a power of two) of a parent whose calling thread has rank `rank` among
// `parent_size` threads.
inline group_info tile_info(uint32_t threads, uint64_t rank, uint64_t parent_size,
                            uint64_t* slots) {
  group_info info;
  info.type = static_cast<unsigned int>(group_type::tiled_group_type);
  info.threads = threads;
  info.mask = threads <= warp_size
                  ? ::lngrad::simt::coop::TileMask(threads, ::lngrad::simt::coop::Lane("tile"))
                  : 0;
  info.meta_rank = static_cast<uint32_t>(rank / threads);
  info.meta_size = static_cast<uint32_t>((parent_size + threads - 1) / threads);
  info.slots = slots;
  return info;
}

inline void require_dynamic_tile(unsigned int tilesz) {
  if (!is_power_of_two(tilesz) || tilesz > warp_size) {
    ::lngrad::aicore::RaiseKernelCheck(
        ::lngrad::simt::coop::kCheckCoop,
        "tiled_partition(parent, " + std::to_string(tilesz) +
            "): the run-time tile size must be one of 1, 2, 4, 8, 16, 32");
  }
}

}  // namespace details

template <unsigned int Size, typename ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT& g) {
  if constexpr (!std::is_same_v<ParentT, thread_block>) {
    static_assert(ParentT::size() > Size, "a tile of a thread_block_tile is smaller than it");
  }
  return thread_block_tile<Size, ParentT>::_make(
      details::tile_info(Size, g.thread_rank(), g.size(), g._info().slots));
}

inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned int tilesz) {
  details::require_dynamic_tile(tilesz);
  const uint32_t mask = parent._info().mask;
  const uint32_t rank = static_cast<uint32_t>(parent.thread_rank());
  const uint32_t first = rank / tilesz * tilesz;
  uint32_t tile = 0;
  for (uint32_t r = first; r < first + tilesz && r < parent.size(); ++r) {
    tile |= uint32_t{1} << ::lngrad::simt::coop::LaneOfRank(mask, r);
  }
  const uint32_t meta_size = static_cast<uint32_t>((parent.size() + tilesz - 1) / tilesz);
  return coalesced_group::_make(tile, rank / tilesz, meta_size);
}

inline thread_group tiled_partition(const thread_group& parent, unsigned int tilesz) {
  details::require_dynamic_tile(tilesz);
  if (parent.get_type() == group_type::coalesced_group_type) {
    return tiled_partition(static_cast<const coalesced_group&>(parent), tilesz);
  }
  return thread_group::_make(
      details::tile_info(tilesz, parent.thread_rank(), parent.size(), parent._info().slots));
}
inline thread_group tiled_partition(const thread_block& parent, unsigned int tilesz) {
  return tiled_partition(static_cast<const thread_group&>(parent), tilesz);
}

inline coalesced_group binary_partition(
    const coalesced_group& g, bool pred,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  const uint32_t mask = g._info().mask;
  const uint32_t with = ::lngrad::simt::coop::LaneGroup(mask).LanesWith(pred, loc);
  return coalesced_group::_make(pred ? with : mask & ~with, pred ? 1 : 0, 2);
}
template <unsigned int Size, typename ParentT>
coalesced_group binary_partition(
    const thread_block_tile<Size, ParentT>& g, bool pred,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  static_assert(Size <= details::warp_size, "binary_partition of a tile of at most 32 threads");
  const uint32_t mask = g._info().mask;
  const uint32_t with = ::lngrad::simt::coop::LaneGroup(mask).LanesWith(pred, loc);
  return coalesced_group::_make(pred ? with : mask & ~with, pred ? 1 : 0, 2);
}

// thread_group's functions, by the group it stands for.
inline unsigned long long thread_group::size() const {
  switch (get_type()) {
    case group_type::thread_block_type:
      return thread_block::size();
    case group_type::tiled_group_type:
      return info_.threads;
    default:
      return ::lngrad::simt::coop::LaneGroup(info_.mask).Size();
  }
}
inline unsigned long long thread_group::thread_rank() const {
  switch (get_type()) {
    case group_type::thread_block_type:
      return thread_block::thread_rank();
    case group_type::tiled_group_type:
      return ::lngrad::simt::coop::LinearRank("thread_group") % info_.threads;
    default:
      return ::lngrad::simt::coop::LaneGroup(info_.mask).Rank();
  }
}
inline void thread_group::sync(SrcLoc loc) const {
  if (get_type() == group_type::thread_block_type) {
    ::lngrad::simt::SyncThreads(loc);
  } else if (get_type() == group_type::tiled_group_type && info_.threads > details::warp_size) {
    ::lngrad::simt::coop::MultiWarpTile(info_.slots, info_.threads).Sync();
  } else {
    ::lngrad::simt::coop::LaneGroup(info_.mask).Sync(loc);
  }
}

}  // namespace cooperative_groups
