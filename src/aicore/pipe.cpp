// TPipe: the sequential UB allocator of one block.
#include <exception>
#include <string>

#include "lngrad_aicore/pipe.h"
#include "lngrad_aicore/static_tensor.h"
#include "lngrad_aicore/sys.h"
#include "name_table.h"

namespace AscendC {
namespace {

// A TPipe lives in one block's UB: using it from another block (a launch's pipe kept past the
// launch, a standalone block's pipe inside a launch) would hand out another core's memory.
void RequireOwnBlock(const lngrad::aicore::BlockContext* owner, const char* api) {
  const lngrad::aicore::BlockContext* running = lngrad::aicore::CurrentBlockContext();
  if (running != owner) {
    lngrad::aicore::RaiseKernelCheck(
        lngrad::aicore::checks::kForeignBlock,
        std::string(api) +
            ": this TPipe was made by another block (or by a launch that has ended); a TPipe "
            "serves only the block that constructed it");
  }
}

}  // namespace

TPipe::TPipe() : ctx_(&lngrad::aicore::RequireBlockContext("TPipe")) {
  ctx_->pipe = this;
  // The kit's constructor runs InitSocState; of its state lngrad's blocks start at the defaults
  // but for the 950's g_deqValue, which has no initialiser (ctrl.h): it sets it to 1.
  if (lngrad::aicore::CurrentBlockProduct().arch == lngrad::NpuArch::k3510) {
    lngrad::aicore::ResetDeqValue();
  }
}

TPipe::~TPipe() {
  if (ctx_ != nullptr && lngrad::aicore::CurrentBlockContext() == ctx_ && ctx_->pipe == this) {
    lngrad::aicore::san::Barrier(PIPE_ALL, {});
    ctx_->pipe = nullptr;
  }
}

void TPipe::Init() {
  RequireOwnBlock(ctx_, "TPipe::Init");
  alloc_end_.fill(0);
  buffer_count_ = 0;
  ctx_->pipe = this;
}

void TPipe::Destroy(lngrad::aicore::SrcLoc loc) {
  RequireOwnBlock(ctx_, "TPipe::Destroy");
  alloc_end_.fill(0);
  buffer_count_ = 0;
  if (ctx_->pipe == this) ctx_->pipe = nullptr;
  lngrad::aicore::san::Barrier(PIPE_ALL, loc);
}

uint32_t TPipe::Allocate(const lngrad::aicore::detail::LazyText& what, TPosition pos, uint32_t num,
                         uint32_t len, const char* file, int line,
                         lngrad::aicore::LocalMemory* mem) {
  namespace checks = lngrad::aicore::checks;
  // Built only for a message: a kernel's InitBuffer calls run in every block of every launch.
  const auto at = [&] { return what() + " at " + file + ":" + std::to_string(line); };
  if (lngrad::aicore::CurrentBlockContext() != ctx_) RequireOwnBlock(ctx_, at().c_str());
  if (lngrad::aicore::CheckedMode() && lngrad::aicore::detail::CurrentBlockSys().live_allocators) {
    lngrad::aicore::RaiseKernelCheck(checks::kLocalMemAllocator,
                                     at() +
                                         ": this block has a LocalMemAllocator; TPipe may not "
                                         "be mixed with static tensors (both allocate the UB "
                                         "from address 0, so their buffers would overlap)");
  }
  lngrad::aicore::LocalMemory memory;
  if (!lngrad::aicore::FindMemory(*ctx_, pos, &memory)) {
    memory = lngrad::aicore::MemoryOf(*ctx_, pos, at().c_str());
  }
  if (mem != nullptr) *mem = memory;
  if (num == 0 || num > static_cast<uint32_t>(QBUF_MAX_LEN)) {
    lngrad::aicore::RaiseKernelCheck(checks::kInitBuffer, at() + ": num is " + std::to_string(num) +
                                                              ", which should be in range [1, 64]");
  }
  if (len == 0) {
    lngrad::aicore::RaiseKernelCheck(checks::kInitBuffer,
                                     at() + ": buffer length is 0, which should be larger than 0");
  }
  if (buffer_count_ + static_cast<int32_t>(num) > QBUF_MAX_LEN) {
    lngrad::aicore::RaiseKernelCheck(checks::kInitBuffer,
                                     at() + ": Total buffer num managed by TPipe is " +
                                         std::to_string(buffer_count_ + num) +
                                         ", should be in range (0, 64]");
  }
  const uint64_t block = (uint64_t{len} + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const uint64_t total = block * num;
  const lngrad::Product& product = *ctx_->product;
  uint32_t& end = alloc_end_[memory.index];
  const uint64_t limit = memory.capacity;
  const uint64_t left = limit > end ? limit - end : 0;
  if (total > left) {
    lngrad::aicore::RaiseKernelCheck(
        checks::kUbOverflow,
        at() + ": needs " + std::to_string(total) + " B (" + std::to_string(num) + " x " +
            std::to_string(block) + " B) at " + memory.name + " address " + std::to_string(end) +
            ", but only " + std::to_string(left) + " B of the " + std::to_string(limit) + " B " +
            memory.name + " of " + std::string(product.soc) + " are left (buffer size is " +
            std::to_string(total) + ", exceeds the limit " + std::to_string(left) + ")");
  }
  const uint32_t addr = end;
  end = static_cast<uint32_t>(end + total);
  if (memory.base == ctx_->ub) lngrad::aicore::NoteUbWritten(*ctx_, end);
  buffer_count_ += static_cast<int32_t>(num);
  return addr;
}

TPipe* GetTPipePtr() { return lngrad::aicore::RequireBlockContext("GetTPipePtr").pipe; }

namespace detail_rt {
const char* BufStateName(BufState s) noexcept {
  static constexpr const char* kNames[] = {"FREE", "OCCUPIED", "ENQUE", "DEQUE"};
  return lngrad::aicore::detail::NameAt(kNames, s, "?");
}
}  // namespace detail_rt

}  // namespace AscendC

namespace lngrad::aicore::detail {

std::string QueueName(AscendC::TPosition src, AscendC::TPosition dst, int32_t depth) {
  if (src == dst)
    return std::string("TQue<") + AscendC::PositionName(src) + ", " + std::to_string(depth) + ">";
  return std::string("TQueBind<") + AscendC::PositionName(src) + ", " + AscendC::PositionName(dst) +
         ", " + std::to_string(depth) + ">";
}

}  // namespace lngrad::aicore::detail

namespace lngrad::aicore::detail {

// A TBufPool's buffers outside arch 3510 (the vendor's QBUFPOOL_MAX_LEN).
constexpr uint32_t kPoolMaxBuffers = 16;

void InitPoolState(BufPoolState& pool, AscendC::TPosition pos, uint32_t max_ids, BlockContext* ctx,
                   uint32_t addr, uint32_t len, const BufPoolState* share, const char* api,
                   SrcLoc loc) {
  const std::string at = WithLoc(api, loc);
  if (ctx == nullptr) {
    RaiseKernelCheck(checks::kInitBuffer, at + ": the pool it is carved from was not initialised");
  }
  AscendC::RequireOwnBlock(ctx, at.c_str());
  if (len == 0) {
    RaiseKernelCheck(checks::kInitBuffer,
                     at + ": buffer length is 0, which should be larger than 0");
  }
  if (share != nullptr) {
    if (share->ctx == nullptr) {
      RaiseKernelCheck(checks::kInitBuffer, at + ": shareBuf was not initialised");
    }
    if (len > share->len) {
      RaiseKernelCheck(checks::kInitBuffer,
                       at + ": len " + std::to_string(len) +
                           " B: the length of bufPool should be no longer than the length of "
                           "shareBuf, which is " +
                           std::to_string(share->len) + " B");
    }
    addr = share->start;
    len = share->len;
  }
  pool = BufPoolState{};
  pool.ctx = ctx;
  pool.start = pool.cur = addr;
  pool.len = len;
  pool.max_ids = max_ids;
  pool.pos = pos;
  pool.id_set = &pool;
  pool.id_mask = pool.id_avail = max_ids >= 32 ? ~0u : (1u << max_ids) - 1;
  if (share != nullptr) InheritBufIds(pool, *share);
}

void InheritBufIds(BufPoolState& pool, const BufPoolState& from) {
  pool.id_set = from.id_set;
  pool.id_mask = pool.id_avail = from.id_mask & from.id_avail;
}

const void* TakeBufIds(BufPoolState& pool, uint32_t num, uint8_t* ids) {
  if (pool.ctx == nullptr || !IsRegBaseArch(pool.ctx->product->arch)) return nullptr;
  if (static_cast<uint32_t>(__builtin_popcount(pool.id_avail)) < num) return nullptr;
  for (uint32_t i = 0; i < num; ++i) {
    ids[i] = static_cast<uint8_t>(__builtin_ctz(pool.id_avail));
    pool.id_avail &= pool.id_avail - 1;
  }
  return pool.id_set;
}

uint32_t TakeFromPool(BufPoolState& pool, AscendC::TPosition buf_pos, const std::string& what,
                      uint32_t num, uint32_t len, uint32_t sub_pool_ids, const void* queue,
                      SrcLoc loc) {
  const std::string at = WithLoc(what.c_str(), loc);
  if (pool.ctx == nullptr) {
    RaiseKernelCheck(checks::kInitBuffer,
                     at + ": the TBufPool was not initialised (TPipe::InitBufPool or "
                          "TBufPool::InitBufPool)");
  }
  AscendC::RequireOwnBlock(pool.ctx, at.c_str());
  if (!AscendC::IsUbPosition(buf_pos)) {
    RaiseKernelCheck(checks::kPosition, at + ": position " + AscendC::PositionName(buf_pos) +
                                            " is not modelled; only VECIN/VECOUT/VECCALC (UB) "
                                            "are (buffer pos should be same as pos of TBufPool)");
  }
  if (num == 0) {
    RaiseKernelCheck(checks::kInitBuffer, at + ": num is 0, which should be larger than 0");
  }
  if (len == 0) {
    RaiseKernelCheck(checks::kInitBuffer,
                     at + ": buffer length is 0, which should be larger than 0");
  }
  // On 3510 the device does not check bufIDSize (the vendor's CPU-debug build asserts it), so
  // only checked mode enforces it there; unchecked mode allows 16, as every other arch.
  const bool ids_per_pool = pool.ctx->product->arch == NpuArch::k3510 && CheckedMode();
  const uint32_t ids = sub_pool_ids != 0 ? (ids_per_pool ? sub_pool_ids : 0) : num;
  const uint32_t max_ids = ids_per_pool ? pool.max_ids : kPoolMaxBuffers;
  if (pool.ids + ids > max_ids) {
    RaiseKernelCheck(checks::kInitBuffer,
                     at + ": the pool's buffers would number " + std::to_string(pool.ids + ids) +
                         ", which exceeds the limit " + std::to_string(max_ids) +
                         (ids_per_pool ? std::string(" (its bufIDSize; checked mode)")
                                       : std::string(" (QBUFPOOL_MAX_LEN)")));
  }
  const uint64_t bytes = uint64_t{num} * RoundUpToBlock(len);
  const uint64_t end = uint64_t{pool.start} + pool.len;
  if (pool.cur + bytes > end) {
    RaiseKernelCheck(checks::kUbOverflow,
                     at + ": needs " + std::to_string(bytes) + " B at UB address " +
                         std::to_string(pool.cur) + ", but only " + std::to_string(end - pool.cur) +
                         " B of the pool [" + std::to_string(pool.start) + ", " +
                         std::to_string(end) +
                         ") are left (Buffer Init length exceeds limit of BufPool. Max Length of "
                         "BufPool is " +
                         std::to_string(pool.len) + ")");
  }
  const uint32_t addr = pool.cur;
  pool.cur = static_cast<uint32_t>(pool.cur + bytes);
  pool.ids += ids;
  if (queue != nullptr) pool.queues[pool.queue_count++] = {queue, static_cast<uint8_t>(num)};
  return addr;
}

void ResetPool(BufPoolState& pool, SrcLoc loc) {
  if (pool.ctx == nullptr) return;
  AscendC::RequireOwnBlock(pool.ctx, "TBufPool::Reset");
  if (pool.ctx->product->arch == NpuArch::k3510) {
    san::Barrier(PIPE_MTE2, loc);
    san::Barrier(PIPE_MTE3, loc);
    san::Barrier(PIPE_V, loc);
  } else {
    for (uint8_t q = 0; q < pool.queue_count; ++q) {
      for (int32_t i = 0; i < pool.queues[q].num; ++i) {
        san::QueueWait(pool.queues[q].queue, i, /*free_event=*/true);
      }
    }
  }
  pool.cur = pool.start;
  pool.ids = 0;
  pool.queue_count = 0;
}

// Custom TBufPools (EXTERN_IMPL_BUFPOOL).

void CheckStartBufHandle(const std::string& what, AscendC::TBufHandle start, uint32_t num,
                         uint32_t limit, uint32_t len, SrcLoc loc) {
  const std::string at = WithLoc(what.c_str(), loc);
  if (start == nullptr) {
    RaiseKernelCheck(checks::kInitBuffer,
                     at + ": startBufhandle is nullptr (take it from the pool's GetBufHandle)");
  }
  if (num == 0 || num > limit) {
    RaiseKernelCheck(checks::kInitBuffer, at + ": num is " + std::to_string(num) +
                                              ", which should be in [1, " + std::to_string(limit) +
                                              "]");
  }
  if (len == 0) {
    RaiseKernelCheck(checks::kInitBuffer,
                     at + ": buffer length is 0, which should be larger than 0");
  }
}

uint32_t PlaceCustomBlock(BufPoolState& pool, const std::string& what, AscendC::TBufHandle start,
                          uint32_t num, uint32_t index, AscendC::TBufHandle handle, uint32_t addr,
                          uint32_t len, const void* queue, SrcLoc loc) {
  const std::string at = WithLoc(what.c_str(), loc);
  if (pool.ctx == nullptr) {
    RaiseKernelCheck(checks::kInitBuffer,
                     at + ": the custom TBufPool was not initialised (TPipe::InitBufPool)");
  }
  AscendC::RequireOwnBlock(pool.ctx, at.c_str());
  if (start == nullptr) {
    RaiseKernelCheck(checks::kInitBuffer, at + ": InitStartBufHandle was not called first");
  }
  // The device writes the slot bufhandle points to, so a handle outside [start, start + num)
  // would corrupt another buffer's slot: an error in both modes.
  const ptrdiff_t diff = handle - start;
  constexpr ptrdiff_t kSlot = sizeof(BufHandleSlot);
  if (handle == nullptr || diff < 0 || diff % kSlot != 0 || diff / kSlot >= ptrdiff_t{num}) {
    RaiseKernelCheck(checks::kInitBuffer, at + ": bufhandle is not the slot of one of the " +
                                              std::to_string(num) +
                                              " blocks announced by InitStartBufHandle");
  }
  const auto k = static_cast<uint32_t>(diff / kSlot);
  if (CheckedMode() && index != k) {
    RaiseKernelCheck(checks::kInitBuffer, at + ": index is " + std::to_string(index) +
                                              " but bufhandle is the slot of "
                                              "block " +
                                              std::to_string(k) +
                                              "; the device places the block bufhandle names (pass "
                                              "GetBufHandle(first + index))");
  }
  if (len == 0) {
    RaiseKernelCheck(checks::kInitBuffer,
                     at + ": buffer length is 0, which should be larger than 0");
  }
  const uint32_t bytes = RoundUpToBlock(len);
  if (CheckedMode()) {
    if (addr % 32 != 0) {
      RaiseKernelCheck(checks::kUbAlignment,
                       at + ": curPoolAddr " + std::to_string(addr) + " is not a multiple of 32 B");
    }
    const uint64_t end = uint64_t{pool.start} + pool.len;
    if (addr < pool.start || uint64_t{addr} + bytes > end) {
      RaiseKernelCheck(checks::kUbOverflow, at + ": the block [" + std::to_string(addr) + ", " +
                                                std::to_string(uint64_t{addr} + bytes) +
                                                ") (curPoolAddr, len) is not inside the pool [" +
                                                std::to_string(pool.start) + ", " +
                                                std::to_string(end) + ")");
    }
  }
  TensorView ub_view{pool.ctx->ub, 0, pool.ctx->ub, pool.ctx->ub_size, pool.pos};
  RequireInsideUb(ub_view, addr, bytes, at.c_str());
  NoteUbWritten(*pool.ctx, uint64_t{addr} + bytes);
  auto* slot = reinterpret_cast<BufHandleSlot*>(handle);
  slot->addr = addr;
  slot->len = bytes;
  if (queue != nullptr) {
    bool known = false;
    for (uint8_t q = 0; q < pool.queue_count; ++q) known = known || pool.queues[q].queue == queue;
    if (!known && pool.queue_count < pool.queues.size()) {
      pool.queues[pool.queue_count++] = {queue, static_cast<uint8_t>(num)};
    }
  }
  return k;
}

void RaiseUnplacedBlock(const std::string& what, int32_t index) {
  RaiseKernelCheck(checks::kInitBuffer, what + ": block " + std::to_string(index) +
                                            " was announced by InitStartBufHandle but never "
                                            "placed by InitBufHandle");
}

AscendC::TBufHandle CustomPoolHandle(BufHandleSlot* slots, uint32_t offset, uint32_t size) {
  if (offset >= size) {
    RaiseKernelCheck(checks::kInitBuffer, "GetBufHandle: offset is " + std::to_string(offset) +
                                              ", which should be less than BUFID_SIZE " +
                                              std::to_string(size));
  }
  return reinterpret_cast<AscendC::TBufHandle>(slots + offset);
}

void ResetCustomPool(BufPoolState& pool, SrcLoc loc) {
  if (pool.ctx == nullptr) return;
  ResetPool(pool, loc);
  // Outside 3510 the vendor's Reset also clears the pool's start and length: the pool and its
  // buffers cannot be used again until TPipe::InitBufPool gives it memory anew.
  if (pool.ctx->product->arch != NpuArch::k3510) {
    pool.start = 0;
    pool.cur = 0;
    pool.len = 0;
  }
}

void DestroyCustomPool(BufPoolState& pool) noexcept {
  if (std::uncaught_exceptions() != 0 || CurrentBlockContext() != pool.ctx) return;
  try {
    ResetCustomPool(pool, SrcLoc{});
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor cannot report; Reset() can
  }
}

}  // namespace lngrad::aicore::detail
