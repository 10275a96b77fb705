// lngrad Ascend C runtime: TBufPool, a part of the UB that a kernel divides into queue and TBuf
// buffers itself and reuses between stages (TPipe::InitBufPool, TBufPool::InitBufPool with a
// shared pool: the same start address and length).
//
// A pool hands out its bytes sequentially from its start, each request rounded up to 32 bytes;
// a request past the pool's end raises ub_overflow and too many buffers raise init_buffer, in
// both modes (the device would overlap buffers or overrun its buffer table). The buffer limit is
// the vendor's per architecture: on 3510 bufIDSize buffer IDs, which queue blocks, TBufs and the
// bufIDSize of every sub-pool take (checked mode, as the vendor's CPU-debug build; the device
// does not check, and unchecked mode allows 16); elsewhere 16 queue blocks and TBufs
// (QBUFPOOL_MAX_LEN), sub-pools taking none. Reset() makes the whole pool free again (the buffers
// stay usable, their contents do not) after what the device waits for: on 3510 the MTE2, MTE3 and V
// pipes (PipeBarrier on each), elsewhere the pending FreeTensor events of the pool's queue buffers.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "pipe.h"
#include "sanitizer.h"

namespace lngrad::aicore::detail {

struct BufPoolState {
  BlockContext* ctx = nullptr;  // nullptr: not initialised
  uint32_t start = 0;           // UB address
  uint32_t len = 0;             // bytes (multiple of 32)
  uint32_t cur = 0;             // next free UB address
  uint32_t ids = 0;             // buffers (3510: buffer IDs) used
  uint32_t max_ids = 0;         // bufIDSize
  AscendC::TPosition pos = AscendC::TPosition::VECCALC;
  // The queues given buffers, for Reset's FreeTensor waits (at most 16 buffers, so 16 queues).
  struct Queue {
    const void* queue;
    uint8_t num;
  };
  std::array<Queue, 16> queues{};
  uint8_t queue_count = 0;
  // 3510's buffer IDs: the set they come from (the root pool's state; pools sharing IDs share
  // it), the pool's IDs in it (bit i: ID i) and those not handed out yet.
  const void* id_set = nullptr;
  uint32_t id_mask = 0;
  uint32_t id_avail = 0;
};

// A pool of len bytes at addr, or sharing `share` (share != nullptr: same start and length,
// len <= its length).
void InitPoolState(BufPoolState& pool, AscendC::TPosition pos, uint32_t max_ids, BlockContext* ctx,
                   uint32_t addr, uint32_t len, const BufPoolState* share, const char* api,
                   SrcLoc loc);
// num * round32(len) bytes from the pool for num buffers of `queue` (nullptr: a TBuf), or for a
// sub-pool of sub_pool_ids buffer IDs (num 1); returns the UB address.
uint32_t TakeFromPool(BufPoolState& pool, AscendC::TPosition buf_pos, const std::string& what,
                      uint32_t num, uint32_t len, uint32_t sub_pool_ids, const void* queue,
                      SrcLoc loc);
void ResetPool(BufPoolState& pool, SrcLoc loc);
// 3510: the pool takes the IDs `from` has not handed out (a sub-pool from its parent, a pool
// from its shareBuf), as the vendor's does.
void InheritBufIds(BufPoolState& pool, const BufPoolState& from);
// 3510: hands out num buffer IDs (the lowest available first, as the device) into ids and
// returns their set; nullptr elsewhere, or when the pool has too few left (each block then keeps
// an ID of its own).
const void* TakeBufIds(BufPoolState& pool, uint32_t num, uint8_t* ids);

// A custom pool's buffer slot (what its TBufHandles point to): the block's UB address and length.
struct BufHandleSlot {
  uint32_t addr = 0;
  uint32_t len = 0;
};
// GetBufHandle: the slot at offset (< size, else init_buffer in both modes).
AscendC::TBufHandle CustomPoolHandle(BufHandleSlot* slots, uint32_t offset, uint32_t size);
// A custom pool's Reset: TBufPool's waits; outside 3510 the pool then has no memory until
// TPipe::InitBufPool again (the vendor's Reset clears its start and length).
void ResetCustomPool(BufPoolState& pool, SrcLoc loc);
// Its destructor's Reset; reports nothing (a destructor cannot throw).
void DestroyCustomPool(BufPoolState& pool) noexcept;
constexpr uint32_t RoundUpToBlock(uint32_t len) {
  return static_cast<uint32_t>((uint64_t{len} + 31) / 32 * 32);
}

}  // namespace lngrad::aicore::detail

namespace AscendC {

inline constexpr uint32_t defaultBufIDSize = 4;

template <TPosition pos, uint32_t bufIDSize = defaultBufIDSize>
class TBufPool {
  static_assert(bufIDSize >= 1 && bufIDSize <= 16, "TBufPool: bufIDSize must be in [1, 16]");
  static_assert(IsUbPosition(pos),
                "lngrad models the UB only: a TBufPool position must be VECIN, VECOUT or VECCALC");

 public:
  static constexpr TPosition poolPos = pos;
  static constexpr uint32_t bufSize = bufIDSize;
  static constexpr bool isTbufPool = true;

  TBufPool() = default;
  TBufPool(const TBufPool&) = delete;
  TBufPool& operator=(const TBufPool&) = delete;

  // num blocks of len bytes (rounded up to 32) for a TQue/TQueBind, from the pool.
  template <class T>
  bool InitBuffer(T& que, uint8_t num, uint32_t len,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    static_assert(T::isTQue, "TBufPool::InitBuffer(que, num, len) takes a TQue/TQueBind");
    constexpr TPosition qpos = GetPosition(T::srcPosition, T::dstPosition);
    const uint32_t block = RoundUp(len);
    const uint32_t addr = lngrad::aicore::detail::TakeFromPool(
        state_, qpos,
        "TBufPool::InitBuffer(" +
            lngrad::aicore::detail::QueueName(T::srcPosition, T::dstPosition, T::queDepth) +
            ", num " + std::to_string(num) + ", len " + std::to_string(len) + ")",
        num, len, 0, &que, loc);
    que.InitBlocks(state_.ctx, addr, num, block);
    uint8_t ids[16];
    if (const void* set = lngrad::aicore::detail::TakeBufIds(state_, num, ids)) {
      que.SetBufIds(set, ids, num);
    }
    return true;
  }
  // One buffer of len bytes (rounded up to 32) for a TBuf, from the pool.
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, uint32_t len,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    const uint32_t addr = lngrad::aicore::detail::TakeFromPool(
        state_, bufPos,
        std::string("TBufPool::InitBuffer(TBuf<") + PositionName(bufPos) + ">, len " +
            std::to_string(len) + ")",
        1, len, 0, nullptr, loc);
    buf.InitBlock(state_.ctx, addr, RoundUp(len));
    return true;
  }
  // A sub-pool of len bytes (rounded up to 32) from this pool; it takes T::bufSize of this
  // pool's buffer IDs.
  template <class T>
  bool InitBufPool(T& bufPool, uint32_t len,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    static_assert(T::isTbufPool, "TBufPool::InitBufPool takes a TBufPool");
    const uint32_t addr = lngrad::aicore::detail::TakeFromPool(
        state_, T::poolPos, "TBufPool::InitBufPool(len " + std::to_string(len) + ")", 1, len,
        T::bufSize, nullptr, loc);
    lngrad::aicore::detail::InitPoolState(bufPool.PoolState(), T::poolPos, T::bufSize, state_.ctx,
                                          addr, RoundUp(len), nullptr, "TBufPool::InitBufPool",
                                          loc);
    lngrad::aicore::detail::InheritBufIds(bufPool.PoolState(), state_);
    return true;
  }
  // bufPool reuses shareBuf's memory (same start address and length; len <= that length).
  template <class T, class U>
  bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    static_assert(T::isTbufPool && U::isTbufPool, "TBufPool::InitBufPool takes TBufPools");
    static_assert(T::bufSize <= U::bufSize,
                  "InitBufPool: bufPool's bufIDSize cannot be larger than shareBuf's");
    lngrad::aicore::detail::InitPoolState(bufPool.PoolState(), T::poolPos, T::bufSize, state_.ctx,
                                          0, RoundUp(len), &shareBuf.PoolState(),
                                          "TBufPool::InitBufPool", loc);
    return true;
  }
  // Frees the whole pool for reuse (see the header comment).
  void Reset(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::detail::ResetPool(state_, loc);
  }

  // lngrad: the pool's bookkeeping (start, length, next free address, IDs used).
  lngrad::aicore::detail::BufPoolState& PoolState() { return state_; }
  const lngrad::aicore::detail::BufPoolState& PoolState() const { return state_; }

 private:
  static constexpr uint32_t RoundUp(uint32_t len) {
    return lngrad::aicore::detail::RoundUpToBlock(len);
  }
  lngrad::aicore::detail::BufPoolState state_;
};

template <class T>
bool TPipe::InitBufPool(T& bufPool, uint32_t len, lngrad::aicore::SrcLoc loc) {
  static_assert(T::isTbufPool, "TPipe::InitBufPool takes a TBufPool");
  const auto what = [&] { return "InitBufPool(len " + std::to_string(len) + ")"; };
  const uint32_t addr = Allocate(lngrad::aicore::detail::LazyText(what), T::poolPos, 1, len,
                                 loc.file == nullptr ? "?" : loc.file, loc.line);
  lngrad::aicore::detail::InitPoolState(bufPool.PoolState(), T::poolPos, T::bufSize, ctx_, addr,
                                        lngrad::aicore::detail::RoundUpToBlock(len), nullptr,
                                        "TPipe::InitBufPool", loc);
  return true;
}

template <class T, class U>
bool TPipe::InitBufPool(T& bufPool, uint32_t len, U& shareBuf, lngrad::aicore::SrcLoc loc) {
  static_assert(T::isTbufPool && U::isTbufPool, "TPipe::InitBufPool takes TBufPools");
  static_assert(T::bufSize <= U::bufSize,
                "InitBufPool: bufPool's bufIDSize cannot be larger than shareBuf's");
  lngrad::aicore::detail::InitPoolState(bufPool.PoolState(), T::poolPos, T::bufSize, ctx_, 0,
                                        lngrad::aicore::detail::RoundUpToBlock(len),
                                        &shareBuf.PoolState(), "TPipe::InitBufPool", loc);
  return true;
}

}  // namespace AscendC

// A user-defined TBufPool: the class places its TQue/TBuf blocks itself (InitStartBufHandle and
// InitBufHandle of each), from GetCurAddr on, counting them with Get/SetCurBufSize; TPipe::
// InitBufPool gives it its memory. BUFID_SIZE: slots for GetBufHandle (at most 16, as the
// vendor recommends and lngrad's pool bookkeeping holds). Reset as TBufPool::Reset; outside 3510
// it also takes the pool's memory away (see ResetCustomPool).
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                             \
 public:                                                                                   \
  /* [[maybe_unused]]: a pool class of internal linkage need not read them (clang's     */ \
  /* -Wunused-const-variable).                                                          */ \
  [[maybe_unused]] static constexpr ::AscendC::TPosition poolPos = POSITION;               \
  [[maybe_unused]] static constexpr uint32_t bufSize = BUFID_SIZE;                         \
  [[maybe_unused]] static constexpr uint32_t bufIDSize = BUFID_SIZE;                       \
  [[maybe_unused]] static constexpr bool isTbufPool = true;                                \
  static_assert(                                                                           \
      ::AscendC::IsUbPosition(POSITION),                                                   \
      "lngrad models the UB only: a TBufPool position must be VECIN, VECOUT or VECCALC");  \
  static_assert(BUFID_SIZE >= 1 && BUFID_SIZE <= 16,                                       \
                "EXTERN_IMPL_BUFPOOL: BUFID_SIZE in [1, 16]");                             \
  ~EXT_BUFPOOL() { ::lngrad::aicore::detail::DestroyCustomPool(lngradPool_); }             \
  void Reset(::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {         \
    ::lngrad::aicore::detail::ResetCustomPool(lngradPool_, loc);                           \
  }                                                                                        \
  void Init() { lngradPool_ = ::lngrad::aicore::detail::BufPoolState{}; }                  \
  ::AscendC::TBufHandle GetBufHandle(uint8_t offset) {                                     \
    return ::lngrad::aicore::detail::CustomPoolHandle(lngradSlots_, offset, BUFID_SIZE);   \
  }                                                                                        \
  void SetCurAddr(uint32_t curAddr) { lngradPool_.cur = curAddr; }                         \
  uint32_t GetCurAddr() const { return lngradPool_.cur; }                                  \
  void SetCurBufSize(uint8_t curBufSize) { lngradPool_.ids = curBufSize; }                 \
  uint8_t GetCurBufSize() const { return static_cast<uint8_t>(lngradPool_.ids); }          \
  ::lngrad::aicore::detail::BufPoolState& PoolState() { return lngradPool_; }              \
  const ::lngrad::aicore::detail::BufPoolState& PoolState() const { return lngradPool_; }  \
                                                                                           \
 private:                                                                                  \
  ::lngrad::aicore::detail::BufPoolState lngradPool_;                                      \
  ::lngrad::aicore::detail::BufHandleSlot lngradSlots_[BUFID_SIZE] = {}
