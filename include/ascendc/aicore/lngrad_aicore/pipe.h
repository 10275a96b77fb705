// lngrad Ascend C runtime: TPipe, TQue/TQueBind, TBuf and PopStackBuffer.
//
// Memory model: each block owns one UB (the product's ub_bytes). A TPipe hands out UB
// sequentially from address 0, every request rounded up to 32 bytes, and refuses (kUbOverflow)
// anything past ub_bytes. The cube's positions (A1, B1, C1: L1; A2: L0A; B2: L0B; C2: BiasTable;
// CO1: L0C) come from the memories a layer above serves (local_memory.h), each with a cursor of
// its own from address 0 and the product's capacity. Queue misuse is always an error: on the device
// it hangs or loses a tensor, which cannot be emulated usefully.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "check.h"
#include "local_memory.h"
#include "sync.h"
#include "tensor.h"

namespace lngrad::aicore::detail {
// A text built only when a message needs it (TPipe::Allocate names its request in errors only):
// the address of a callable returning std::string, which must outlive the LazyText.
class LazyText {
 public:
  template <typename F>
  explicit LazyText(const F& f)
      : f_(&f), call_([](const void* g) -> std::string { return (*static_cast<const F*>(g))(); }) {}
  std::string operator()() const { return call_(f_); }

 private:
  const void* f_;
  std::string (*call_)(const void*);
};
}  // namespace lngrad::aicore::detail

namespace AscendC {

template <TPosition pos>
class TBuf;

inline constexpr int32_t QBUF_MAX_LEN = 64;   // buffers one TPipe can manage (device limit)
inline constexpr uint32_t ONE_BLK_SIZE = 32;  // bytes per data block

// A custom TBufPool's buffer slot (EXTERN_IMPL_BUFPOOL's GetBufHandle), as the vendor types it.
using TBufHandle = uint8_t*;

// The position of the tensors a queue from src to dst hands out.
constexpr TPosition GetPosition(TPosition src, TPosition dst) {
  if (src == TPosition::GM) return dst;
  return src;
}

namespace detail_rt {
// The flag a queue's EnQue sets and its DeQue waits for (forward), and the one FreeTensor sets
// and the next AllocTensor of the buffer waits for (backward), as the device's TQue inserts
// them: VECIN (GM -> UB) MTE2_V / V_MTE2, VECOUT (UB -> GM) V_MTE3 / MTE3_V, VECIN -> VECOUT
// MTE2_MTE3 / MTE3_MTE2; the cube's: A1, B1, C1 (GM -> L1) MTE2_MTE1 / MTE1_MTE2, A2, B2, C2
// (L1 -> L0A, L0B, BiasTable) MTE1_M / M_MTE1, CO1 (L0C) M_FIX / FIX_M. MAX: none.
constexpr HardEvent QueueEvent(TPosition src, TPosition dst, bool forward) {
  if (src == dst && (src == TPosition::A1 || src == TPosition::B1 || src == TPosition::C1)) {
    return forward ? HardEvent::MTE2_MTE1 : HardEvent::MTE1_MTE2;
  }
  if (src == dst && (src == TPosition::A2 || src == TPosition::B2 || src == TPosition::C2)) {
    return forward ? HardEvent::MTE1_M : HardEvent::M_MTE1;
  }
  if (src == dst && src == TPosition::CO1) return forward ? HardEvent::M_FIX : HardEvent::FIX_M;
  if (src == dst && src == TPosition::VECIN) return forward ? HardEvent::MTE2_V : HardEvent::V_MTE2;
  if (src == dst && src == TPosition::VECOUT)
    return forward ? HardEvent::V_MTE3 : HardEvent::MTE3_V;
  if (src == TPosition::VECIN && dst == TPosition::VECOUT) {
    return forward ? HardEvent::MTE2_MTE3 : HardEvent::MTE3_MTE2;
  }
  return HardEvent::MAX;
}
}  // namespace detail_rt

class TPipe {
 public:
  // Becomes the running block's current pipe (GetTPipePtr); allocation starts at UB address 0.
  TPipe();
  ~TPipe();
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  // Resets the allocator to UB address 0 and makes this the current pipe again.
  void Init();
  // Releases all buffers (the allocator restarts at 0); the pipe stops being current. Ends with
  // PipeBarrier<PIPE_ALL>, as the vendor's does (the sanitizer sees it), and so does the
  // destructor of a pipe not destroyed before.
  void Destroy(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current());
  void Reset() { Init(); }

  // num blocks of len bytes (len rounded up to 32) for a queue. Raises kUbOverflow when the UB is
  // exhausted, kInitBuffer for num == 0, len == 0 or more than 64 buffers in this pipe, kPosition
  // for a non-UB position. file/line name the buffer in messages.
  template <class Que>
  bool InitBuffer(Que& que, uint8_t num, uint32_t len, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE());
  // One buffer of len bytes (rounded up to 32) for a TBuf.
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE());
  // A TBufPool of len bytes (rounded up to 32) from this pipe's UB (buf_pool.h); it counts as
  // one of the pipe's 64 buffers.
  template <class T>
  bool InitBufPool(T& bufPool, uint32_t len,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current());
  // bufPool reuses shareBuf's memory: same start address and length (len <= that length).
  template <class T, class U>
  bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current());

  // Event IDs for SetFlag/WaitFlag, 8 per HardEvent as on the device: AllocEventID hands out
  // the lowest free one (and -1 when all 8 are taken: the device has none left either; the
  // sanitizer's synccheck reports it), ReleaseEventID returns it, FetchEventID tells which one
  // AllocEventID would hand out without taking it.
  template <HardEvent evt>
  TEventID AllocEventID(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    const TEventID id = FetchEventID(evt);
    if (id >= 0) event_ids_[static_cast<size_t>(evt)] |= static_cast<uint8_t>(1u << id);
    lngrad::aicore::san::AllocEventId(evt, id, loc);
    return id;
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    if (id >= 0 && id < 8)
      event_ids_[static_cast<size_t>(evt)] &= static_cast<uint8_t>(~(1u << id));
    lngrad::aicore::san::ReleaseEventId(evt, id, loc);
  }
  TEventID FetchEventID(HardEvent evt) const {
    const uint8_t used = event_ids_[static_cast<size_t>(evt)];
    for (int i = 0; i < 8; ++i) {
      if ((used & (1u << i)) == 0) return static_cast<TEventID>(i);
    }
    return -1;
  }

  // lngrad extension: UB bytes allocated so far (where PopStackBuffer starts).
  uint32_t AllocatedBytes() const { return alloc_end_[0]; }

  // Allocates num * round32(len) bytes in pos's memory (*mem); returns the address of the first
  // block there. what() names the request in an error.
  uint32_t Allocate(const lngrad::aicore::detail::LazyText& what, TPosition pos, uint32_t num,
                    uint32_t len, const char* file, int line,
                    lngrad::aicore::LocalMemory* mem = nullptr);

 private:
  lngrad::aicore::BlockContext* ctx_ = nullptr;
  std::array<uint32_t, lngrad::aicore::kMaxLocalMemories> alloc_end_{};  // per memory
  int32_t buffer_count_ = 0;
  std::array<uint8_t, static_cast<size_t>(HardEvent::MAX)> event_ids_{};  // bit i: ID i taken
};

// The current block's pipe (nullptr before a TPipe is constructed).
TPipe* GetTPipePtr();

namespace detail_rt {
enum class BufState : uint8_t { kFree, kOccupied, kEnQue, kDeQue };
const char* BufStateName(BufState s) noexcept;
}  // namespace detail_rt

}  // namespace AscendC

namespace lngrad::aicore::detail {
struct BufPoolState;
// A block that InitStartBufHandle announced and InitBufHandle has not placed yet.
inline constexpr uint32_t kUnplacedBlock = 0xFFFFFFFFu;
// Custom TBufPool (EXTERN_IMPL_BUFPOOL): checks InitStartBufHandle's arguments (num <= limit,
// a handle) for `what`.
void CheckStartBufHandle(const std::string& what, AscendC::TBufHandle start, uint32_t num,
                         uint32_t limit, uint32_t len, SrcLoc loc);
// InitBufHandle: the block the handle names (its offset from the start handle, < num), after
// the checks (pool initialised, index equal to that offset in checked mode, the block inside the
// UB and, in checked mode, inside the pool and 32-byte aligned). Registers `queue` (nullptr: a
// TBuf) with the pool for its Reset.
uint32_t PlaceCustomBlock(BufPoolState& pool, const std::string& what, AscendC::TBufHandle start,
                          uint32_t num, uint32_t index, AscendC::TBufHandle handle, uint32_t addr,
                          uint32_t len, const void* queue, SrcLoc loc);
[[noreturn]] void RaiseUnplacedBlock(const std::string& what, int32_t index);
// InitBufHandle of a TQueBind or (queue nullptr) a TBuf: PlaceCustomBlock in bufPool's pool,
// whose block context becomes the caller's `ctx`. Returns the block's index.
template <typename P>
uint32_t PlaceInBufPool(P* bufPool, const std::string& what, AscendC::TBufHandle start,
                        uint32_t num, uint32_t index, AscendC::TBufHandle handle, uint32_t addr,
                        uint32_t len, const void* queue, SrcLoc loc, BlockContext*& ctx) {
  static_assert(P::isTbufPool, "InitBufHandle takes a TBufPool");
  auto& pool = bufPool->PoolState();
  const uint32_t k = PlaceCustomBlock(pool, what, start, num, index, handle, addr, len, queue, loc);
  ctx = pool.ctx;
  return k;
}
}  // namespace lngrad::aicore::detail

namespace AscendC {

// A queue of UB buffer blocks between two positions (TQue<pos, depth> is TQueBind<pos, pos,
// depth>). depth: how many tensors may be enqueued at once.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
  static_assert(depth >= 1,
                "lngrad: queues of depth 0 (in-place AllocTensor/DeQue) are not emulated");

 public:
  static constexpr TPosition srcPosition = src;
  static constexpr TPosition dstPosition = dst;
  static constexpr int32_t queDepth = depth;
  static constexpr bool isTQue = true;

  TQueBind() = default;
  TQueBind(const TQueBind&) = delete;
  TQueBind& operator=(const TQueBind&) = delete;

  // A free block as a tensor of (block bytes / sizeof(T)) elements (4-bit types: two a byte).
  template <typename T>
  LocalTensor<T> AllocTensor();
  // Returns the tensor's block to the free list.
  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor);
  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor);
  // The oldest enqueued tensor, viewed as T.
  template <typename T>
  LocalTensor<T> DeQue();

  bool VacantInQue() const { return used_count_ < depth; }
  bool HasTensorInQue() const { return used_count_ > 0; }
  int32_t GetTensorCountInQue() const { return used_count_; }
  bool HasIdleBuffer() const { return buf_used_count_ < num_; }
  void FreeAllEvent() {}

  // lngrad: called by TPipe::InitBuffer (mem: the position's memory; nullptr: the UB).
  void InitBlocks(lngrad::aicore::BlockContext* ctx, uint32_t first_addr, uint8_t num, uint32_t len,
                  const lngrad::aicore::LocalMemory* mem = nullptr) {
    ResetBlocks(ctx, num, len);
    if (mem != nullptr) memory_ = *mem;
    for (uint32_t i = 0; i < num && i < addr_.size(); ++i) addr_[i] = first_addr + i * len;
  }

  // Custom TBufPool (EXTERN_IMPL_BUFPOOL): num blocks of len bytes (rounded up to 32) whose
  // slots start at startBufhandle; InitBufHandle places each one.
  void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len,
                          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::detail::CheckStartBufHandle(Name() + "::InitStartBufHandle", startBufhandle,
                                                num, QBUF_MAX_LEN, len, loc);
    ResetBlocks(nullptr, num, (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE);
    addr_.fill(lngrad::aicore::detail::kUnplacedBlock);
    start_handle_ = startBufhandle;
  }
  // Places the block whose slot is bufhandle at UB address curPoolAddr. As on the device the
  // slot, not index, selects the block; checked mode requires index to name the same one.
  template <typename P>
  void InitBufHandle(P* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                     uint32_t len, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    const uint32_t k = lngrad::aicore::detail::PlaceInBufPool(bufPool, Name() + "::InitBufHandle",
                                                              start_handle_, num_, index, bufhandle,
                                                              curPoolAddr, len, this, loc, ctx_);
    addr_[k] = curPoolAddr;
  }
  // lngrad: the hardware buffer IDs of the num blocks (3510, TBufPool queues): the pool's ID set
  // `key`, block i's ID ids[i]. By default each block has an ID of its own.
  void SetBufIds(const void* key, const uint8_t* ids, uint8_t num) {
    sync_key_ = key;
    for (uint8_t i = 0; i < num && i < QBUF_MAX_LEN; ++i) sync_id_[i] = ids[i];
  }

 private:
  static std::string Name();
  [[noreturn]] void Raise(const char* check, const std::string& msg) const;
  int32_t BlockOf(const lngrad::aicore::detail::TensorBuffer& b, const char* api) const;
  template <typename T>
  LocalTensor<T> BlockTensor(int32_t index) const;
  // The device's hidden synchronisation of block i for the sanitizer: EnQue (forward, signal),
  // DeQue (forward), FreeTensor (signal), AllocTensor (neither).
  void SanSync(int32_t i, bool forward, bool signal) const;
  void ResetBlocks(lngrad::aicore::BlockContext* ctx, uint8_t num, uint32_t len) {
    ctx_ = ctx;
    memory_ = {};
    num_ = num;
    len_ = len;
    cursor_ = 0;
    head_ = 0;
    used_count_ = 0;
    buf_used_count_ = 0;
    state_.fill(detail_rt::BufState::kFree);
    sync_key_ = this;
    for (int i = 0; i < QBUF_MAX_LEN; ++i) sync_id_[i] = static_cast<uint8_t>(i);
  }

  lngrad::aicore::BlockContext* ctx_ = nullptr;
  lngrad::aicore::LocalMemory memory_{};       // base nullptr: the UB of ctx_
  std::array<uint32_t, QBUF_MAX_LEN> addr_{};  // address of each block in its memory
  TBufHandle start_handle_ = nullptr;          // custom pools: the first block's slot
  uint32_t len_ = 0;
  uint8_t num_ = 0;
  uint8_t cursor_ = 0;
  uint8_t head_ = 0;
  int32_t used_count_ = 0;
  int32_t buf_used_count_ = 0;
  std::array<detail_rt::BufState, QBUF_MAX_LEN> state_{};
  std::array<int8_t, QBUF_MAX_LEN> fifo_{};
  const void* sync_key_ = this;                  // 3510: the buffer IDs' set (SetBufIds)
  std::array<uint8_t, QBUF_MAX_LEN> sync_id_{};  // 3510: each block's buffer ID in it
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};
// A queue into the L1 the cube reads (TSCM) from GM or VECIN (an AIV filling a Matmul operand).
template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

// A plain UB buffer without queue semantics.
template <TPosition pos = TPosition::LCM>
class TBuf {
 public:
  static constexpr bool isTQue = false;
  TBuf() = default;
  TBuf(const TBuf&) = delete;
  TBuf& operator=(const TBuf&) = delete;

  // The whole buffer as T (buffer bytes / sizeof(T) elements; two a byte for the 4-bit types).
  template <typename T>
  LocalTensor<T> Get() {
    return GetWithOffset<T>(static_cast<uint32_t>(lngrad::aicore::ElemCount<T>(len_)), 0,
                            "TBuf::Get");
  }
  // The first len elements. Checked mode: len * sizeof(T) <= buffer bytes.
  template <typename T>
  LocalTensor<T> Get(uint32_t len) {
    return GetWithOffset<T>(len, 0, "TBuf::Get(len)");
  }
  // size elements starting bufOffset bytes into the buffer.
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
    return GetWithOffset<T>(size, bufOffset, "TBuf::GetWithOffset");
  }

  // The whole buffer, as Get<T>(). A TBuf has no queue state: AllocTensor/FreeTensor hand out
  // and take back nothing, and synchronise nothing (the framework's hidden flags are TQue's).
  template <typename T>
  LocalTensor<T> AllocTensor() {
    return GetWithOffset<T>(static_cast<uint32_t>(lngrad::aicore::ElemCount<T>(len_)), 0,
                            "TBuf::AllocTensor");
  }
  // Does nothing, as on the device. Checked mode: the tensor must come from this TBuf.
  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor) {
    if (lngrad::aicore::CheckedMode() && tensor.Buffer().owner != this) {
      lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kQueueForeignTensor,
                                       std::string("TBuf<") + PositionName(pos) +
                                           ">::FreeTensor: the tensor was not handed out by this "
                                           "TBuf (AllocTensor/Get)");
    }
  }

  // lngrad: called by TPipe::InitBuffer (mem: the position's memory; nullptr: the UB).
  void InitBlock(lngrad::aicore::BlockContext* ctx, uint32_t addr, uint32_t len,
                 const lngrad::aicore::LocalMemory* mem = nullptr) {
    ctx_ = ctx;
    memory_ = mem != nullptr ? *mem : lngrad::aicore::LocalMemory{};
    addr_ = addr;
    len_ = len;
  }

  // Custom TBufPool (EXTERN_IMPL_BUFPOOL): the TBuf's one slot (num must be 1) and length.
  void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len,
                          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::detail::CheckStartBufHandle(
        std::string("TBuf<") + PositionName(pos) + ">::InitStartBufHandle", startBufhandle, num, 1,
        len, loc);
    ctx_ = nullptr;
    len_ = (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    start_handle_ = startBufhandle;
  }
  template <typename P>
  void InitBufHandle(P* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                     uint32_t len, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::detail::PlaceInBufPool(
        bufPool, std::string("TBuf<") + PositionName(pos) + ">::InitBufHandle", start_handle_, 1,
        index, bufhandle, curPoolAddr, len, nullptr, loc, ctx_);
    addr_ = curPoolAddr;
  }

 private:
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, const char* api);

  lngrad::aicore::BlockContext* ctx_ = nullptr;
  lngrad::aicore::LocalMemory memory_{};  // base nullptr: the UB of ctx_
  uint32_t addr_ = 0;
  uint32_t len_ = 0;
  TBufHandle start_handle_ = nullptr;
};

// A tensor over the UB that no TPipe buffer uses: [end of the current TPipe's allocations,
// product stack_end_bytes). Returns false when nothing is left (checked mode raises
// kStackBuffer instead). pos must be a UB position.
template <typename T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& popBuffer);

}  // namespace AscendC

// ---------------------------------------------------------------------------------------------
// Implementation.

namespace lngrad::aicore::detail {
std::string QueueName(AscendC::TPosition src, AscendC::TPosition dst, int32_t depth);
// [stack start, stack end) of the running block; start > end when the pipe used more.
void StackRange(const char* api, BlockContext*& ctx, uint32_t& start, uint32_t& end);
[[noreturn]] void RaiseNoStack(uint32_t start, uint32_t end);
[[noreturn]] void RaiseBadPosition(const char* api, AscendC::TPosition pos);
inline const int kStackOwnerTag = 0;
}  // namespace lngrad::aicore::detail

namespace AscendC {

template <class Que>
bool TPipe::InitBuffer(Que& que, uint8_t num, uint32_t len, const char* file, int line) {
  static_assert(
      Que::isTQue,
      "TPipe::InitBuffer(que, num, len) takes a TQue/TQueBind; use InitBuffer(buf, len) for TBuf");
  constexpr TPosition pos = GetPosition(Que::srcPosition, Que::dstPosition);
  const auto what = [&] {
    return "InitBuffer(" +
           lngrad::aicore::detail::QueueName(Que::srcPosition, Que::dstPosition, Que::queDepth) +
           ", num " + std::to_string(num) + ", len " + std::to_string(len) + ")";
  };
  lngrad::aicore::LocalMemory mem;
  const uint32_t addr =
      Allocate(lngrad::aicore::detail::LazyText(what), pos, num, len, file, line, &mem);
  que.InitBlocks(ctx_, addr, num, (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE, &mem);
  return true;
}

template <TPosition pos>
bool TPipe::InitBuffer(TBuf<pos>& buf, uint32_t len, const char* file, int line) {
  const auto what = [&] {
    return std::string("InitBuffer(TBuf<") + PositionName(pos) + ">, len " + std::to_string(len) +
           ")";
  };
  lngrad::aicore::LocalMemory mem;
  const uint32_t addr =
      Allocate(lngrad::aicore::detail::LazyText(what), pos, 1, len, file, line, &mem);
  buf.InitBlock(ctx_, addr, (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE, &mem);
  return true;
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
std::string TQueBind<src, dst, depth, mask>::Name() {
  return lngrad::aicore::detail::QueueName(src, dst, depth);
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
void TQueBind<src, dst, depth, mask>::Raise(const char* check, const std::string& msg) const {
  lngrad::aicore::RaiseKernelCheck(check, Name() + "::" + msg);
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
int32_t TQueBind<src, dst, depth, mask>::BlockOf(const lngrad::aicore::detail::TensorBuffer& b,
                                                 const char* api) const {
  if (b.owner != this || b.index < 0 || b.index >= num_) {
    Raise(lngrad::aicore::checks::kQueueForeignTensor,
          std::string(api) + ": the tensor was not allocated from this queue (" +
              (b.owner == nullptr
                   ? std::string("it has no queue buffer")
                   : std::string("it belongs to another queue, TBuf or the stack buffer")) +
              ")");
  }
  return b.index;
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
void TQueBind<src, dst, depth, mask>::SanSync(int32_t i, bool forward, bool signal) const {
  constexpr HardEvent kEnQueEvent = detail_rt::QueueEvent(src, dst, true);
  constexpr HardEvent kFreeEvent = detail_rt::QueueEvent(src, dst, false);
  if constexpr (kEnQueEvent != HardEvent::MAX) {
    if (lngrad::aicore::san::Active() == nullptr) return;
    if (lngrad::IsRegBaseArch(ctx_->product->arch)) {
      // The 950's buffer IDs: AllocTensor and EnQue on the producer pipe, DeQue and FreeTensor
      // on the consumer's.
      lngrad::aicore::san::BufIdSync(sync_key_, sync_id_[i], kEnQueEvent, forward == signal);
    } else if (signal) {
      lngrad::aicore::san::QueueSignal(this, i, !forward, forward ? kEnQueEvent : kFreeEvent);
    } else {
      lngrad::aicore::san::QueueWait(this, i, !forward);
    }
  }
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
template <typename T>
LocalTensor<T> TQueBind<src, dst, depth, mask>::BlockTensor(int32_t index) const {
  std::byte* const base = memory_.base != nullptr ? memory_.base : ctx_->ub;
  std::byte* host = base + addr_[index];
  return lngrad::aicore::detail::TensorAccess::Make<T>(
      host, static_cast<uint32_t>(lngrad::aicore::ElemCount<T>(len_)), GetPosition(src, dst),
      {host, host + len_, this, index}, base,
      memory_.base != nullptr ? memory_.size : ctx_->ub_size);
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
template <typename T>
LocalTensor<T> TQueBind<src, dst, depth, mask>::AllocTensor() {
  if (num_ == 0) {
    Raise(lngrad::aicore::checks::kQueueNoFreeBuffer,
          "AllocTensor: bufNum is 0, which must be larger than 0 (TPipe::InitBuffer was not called "
          "for this queue)");
  }
  for (int32_t probe = 0; probe < num_; ++probe) {
    const uint8_t i = cursor_;
    if (num_ != 1) cursor_ = static_cast<uint8_t>((cursor_ + 1) % num_);
    if (state_[i] == detail_rt::BufState::kFree) {
      if (addr_[i] == lngrad::aicore::detail::kUnplacedBlock) [[unlikely]] {
        lngrad::aicore::detail::RaiseUnplacedBlock(Name() + "::AllocTensor", i);
      }
      state_[i] = detail_rt::BufState::kOccupied;
      ++buf_used_count_;
      SanSync(i, false, false);
      return BlockTensor<T>(i);
    }
  }
  Raise(lngrad::aicore::checks::kQueueNoFreeBuffer,
        "AllocTensor: all " + std::to_string(num_) + " buffers are in use (size is " +
            std::to_string(num_ + 1) + ", which exceed limits " + std::to_string(num_) +
            "); FreeTensor one before allocating again");
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
template <typename T>
void TQueBind<src, dst, depth, mask>::FreeTensor(const LocalTensor<T>& tensor) {
  const int32_t i = BlockOf(tensor.Buffer(), "FreeTensor");
  if (state_[i] == detail_rt::BufState::kFree) {
    Raise(lngrad::aicore::checks::kQueueState,
          "FreeTensor: buffer " + std::to_string(i) +
              " is already free (ptr state is FREE, which can not be FREE)");
  }
  if (state_[i] == detail_rt::BufState::kEnQue) {
    // The device would free a block that is still in the FIFO; a later DeQue then hands out a
    // buffer that may already be reused.
    Raise(lngrad::aicore::checks::kQueueState,
          "FreeTensor: buffer " + std::to_string(i) +
              " is still enqueued; DeQue it before FreeTensor");
  }
  state_[i] = detail_rt::BufState::kFree;
  --buf_used_count_;
  SanSync(i, false, true);
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
template <typename T>
bool TQueBind<src, dst, depth, mask>::EnQue(const LocalTensor<T>& tensor) {
  const int32_t i = BlockOf(tensor.Buffer(), "EnQue");
  if (used_count_ >= depth) {
    Raise(lngrad::aicore::checks::kQueueFull, "EnQue: usedCount is " + std::to_string(used_count_) +
                                                  ", which exceed depth limits " +
                                                  std::to_string(depth));
  }
  if (state_[i] != detail_rt::BufState::kOccupied && state_[i] != detail_rt::BufState::kDeQue) {
    Raise(lngrad::aicore::checks::kQueueState, "EnQue: buffer " + std::to_string(i) + " state is " +
                                                   detail_rt::BufStateName(state_[i]) +
                                                   ", which should be OCCUPIED / DEQUE");
  }
  fifo_[(head_ + used_count_) % QBUF_MAX_LEN] = static_cast<int8_t>(i);
  ++used_count_;
  state_[i] = detail_rt::BufState::kEnQue;
  SanSync(i, true, true);
  return true;
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
template <typename T>
LocalTensor<T> TQueBind<src, dst, depth, mask>::DeQue() {
  if (used_count_ <= 0) {
    Raise(lngrad::aicore::checks::kQueueEmpty,
          "DeQue: usedCount is 0, which can only larger than 0 (nothing is enqueued)");
  }
  const int32_t i = fifo_[head_];
  head_ = static_cast<uint8_t>((head_ + 1) % QBUF_MAX_LEN);
  --used_count_;
  state_[i] = detail_rt::BufState::kDeQue;
  SanSync(i, true, false);
  return BlockTensor<T>(i);
}

template <TPosition pos>
template <typename T>
LocalTensor<T> TBuf<pos>::GetWithOffset(uint32_t size, uint32_t bufOffset, const char* api) {
  if (ctx_ == nullptr) {
    lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kInitBuffer,
                                     std::string(api) +
                                         ": TPipe::InitBuffer was not called for this TBuf<" +
                                         PositionName(pos) + ">");
  }
  const uint64_t end = uint64_t{bufOffset} + lngrad::aicore::ElemBytes<T>(size);
  if (lngrad::aicore::CheckedMode()) {
    if (end > len_) {
      lngrad::aicore::RaiseKernelCheck(
          lngrad::aicore::checks::kTensorBounds,
          std::string(api) + ": " + std::to_string(size) + " elements of " +
              std::to_string(lngrad::aicore::kElemBits<T>) + " bits at byte offset " +
              std::to_string(bufOffset) + " need " + std::to_string(end) + " B, but the TBuf<" +
              PositionName(pos) + "> has " + std::to_string(len_) + " B");
    }
    if (bufOffset % ONE_BLK_SIZE != 0) {
      lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kUbAlignment,
                                       std::string(api) + ": bufOffset " +
                                           std::to_string(bufOffset) +
                                           " is not a multiple of 32 B");
    }
  }
  std::byte* const mem = memory_.base != nullptr ? memory_.base : ctx_->ub;
  const uint32_t mem_size = memory_.base != nullptr ? memory_.size : ctx_->ub_size;
  lngrad::aicore::detail::TensorView ub_view{mem, 0, mem, mem_size, pos};
  lngrad::aicore::detail::RequireInsideUb(ub_view, int64_t{addr_} + bufOffset, end - bufOffset,
                                          api);
  std::byte* base = mem + addr_;
  return lngrad::aicore::detail::TensorAccess::Make<T>(base + bufOffset, size, pos,
                                                       {base, base + len_, this, 0}, mem, mem_size);
}

template <typename T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& popBuffer) {
  if constexpr (!IsUbPosition(pos)) {
    lngrad::aicore::detail::RaiseBadPosition("PopStackBuffer", pos);
  }
  lngrad::aicore::BlockContext* ctx = nullptr;
  uint32_t start = 0;
  uint32_t end = 0;
  lngrad::aicore::detail::StackRange("PopStackBuffer", ctx, start, end);
  if (start >= end) {
    if (lngrad::aicore::CheckedMode()) lngrad::aicore::detail::RaiseNoStack(start, end);
    return false;
  }
  std::byte* host = ctx->ub + start;
  popBuffer = lngrad::aicore::detail::TensorAccess::Make<T>(
      host, static_cast<uint32_t>(lngrad::aicore::ElemCount<T>(end - start)), pos,
      {host, ctx->ub + end, &lngrad::aicore::detail::kStackOwnerTag, 0}, ctx->ub, ctx->ub_size);
  return true;
}

}  // namespace AscendC

// The vendor declares GetTPipePtr in the global namespace (kernels call it unqualified, with or
// without `using namespace AscendC`); a using-declaration names the same function, so neither
// spelling is ambiguous.
using AscendC::GetTPipePtr;

// TBufPool and TPipe::InitBufPool.
#include "buf_pool.h"
