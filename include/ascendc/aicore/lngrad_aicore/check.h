// lngrad Ascend C runtime: kernel checks, checked mode and the per-block execution context.
//
// A kernel-side rule violation throws KernelCheckError; the launcher (ICPU_RUN_KF / Launch)
// catches it per block, reports every failed block and then rethrows or returns an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lngrad/product.h"

namespace AscendC {
class TPipe;
}
namespace lngrad::aicore::san {
struct BlockState;
}

namespace lngrad::aicore {

// Names of the checks made by the runtime (KernelCheckError::check()). Other layers (the
// high-level APIs) use their own names, e.g. "LayerNormGrad.gamma_alignment".
namespace checks {
inline constexpr const char* kOutsideLaunch =
    "outside_launch";  // kernel API with no running block (standalone blocks switched off)
inline constexpr const char* kForeignBlock =
    "foreign_block";  // a TPipe used by another block than the one that made it
inline constexpr const char* kUbOverflow =
    "ub_overflow";  // TPipe::InitBuffer beyond the product's UB
inline constexpr const char* kInitBuffer =
    "init_buffer";  // bad InitBuffer arguments (len 0, num 0, > 64 buffers)
inline constexpr const char* kPosition = "position";  // a TPosition the simulator does not model
inline constexpr const char* kTensorBounds =
    "tensor_bounds";  // access beyond a LocalTensor's size / buffer
inline constexpr const char* kUbBounds =
    "ub_bounds";  // access outside the block's UB (always checked)
inline constexpr const char* kUbAlignment = "ub_alignment";  // UB operand not 32-byte aligned
inline constexpr const char* kGmAlignment = "gm_alignment";  // GM operand not aligned to sizeof(T)
inline constexpr const char* kGmBounds =
    "gm_bounds";  // GM access beyond a GlobalTensor / GmAlloc block
inline constexpr const char* kGmFreed =
    "gm_freed";  // GM access inside a GmAlloc / aclrtMalloc / pooled block freed earlier
inline constexpr const char* kEnvironment =
    "environment";  // an LNGRAD_* switch with a value it does not accept
inline constexpr const char* kDataCopyLength =
    "datacopy_length";  // DataCopy bytes % 32 != 0 (device rounds down)
inline constexpr const char* kInvalidCount = "invalid_count";      // negative element count
inline constexpr const char* kAddressOverlap = "address_overlap";  // operands overlap partially
inline constexpr const char* kQueueEmpty = "queue_empty";          // DeQue with nothing enqueued
inline constexpr const char* kQueueFull = "queue_full";            // EnQue beyond the queue depth
inline constexpr const char* kQueueNoFreeBuffer =
    "queue_no_free_buffer";  // AllocTensor with every block in use
inline constexpr const char* kQueueForeignTensor =
    "queue_foreign_tensor";  // tensor not owned by this queue
inline constexpr const char* kQueueState =
    "queue_state";  // EnQue/FreeTensor of a block in the wrong state
inline constexpr const char* kCastRoundMode =
    "cast_round_mode";                                 // round mode not defined for the type pair
inline constexpr const char* kCastPair = "cast_pair";  // Cast pair the running product lacks
inline constexpr const char* kCastDequant =
    "cast_dequant";  // CastDequant without the SetDeqScale form it needs, signMode vs type, vdeq
inline constexpr const char* kCastInt4 =
    "cast_int4";  // int4b_t count or mask that splits the two nibbles of a byte
inline constexpr const char* kVectorType =
    "vector_type";  // element type the running product's instruction lacks
inline constexpr const char* kStackBuffer = "stack_buffer";  // PopStackBuffer with no UB left
// The sanitizer's tools (lngrad_aicore/sanitizer.h): a launch with findings fails with one of
// these, the first tool (in this order) that found something.
inline constexpr const char* kRacecheck = "racecheck";  // unsynchronised conflicting accesses
inline constexpr const char* kInitcheck = "initcheck";  // read of never-written UB / device memory
inline constexpr const char* kSynccheck = "synccheck";  // unmatched flags, leaked event IDs
}  // namespace checks

class KernelCheckError;
[[noreturn]] void RaiseKernelCheck(std::string check, std::string message);  // below
void DismissKernelCheck(const KernelCheckError& e) noexcept;                 // below

// A kernel broke a rule that the device (or its CPU-debug model) checks, or one that lngrad's
// checked mode adds. block_idx() is -1 when raised outside any block (standalone blocks are
// block 0).
class KernelCheckError : public std::runtime_error {
 public:
  KernelCheckError(int64_t block_idx, std::string check, std::string message);
  int64_t block_idx() const noexcept { return block_idx_; }
  const std::string& check() const noexcept { return check_; }
  const std::string& message() const noexcept { return message_; }

 private:
  friend void RaiseKernelCheck(std::string check, std::string message);
  friend void DismissKernelCheck(const KernelCheckError& e) noexcept;
  int64_t block_idx_;
  std::string check_;
  std::string message_;
  uint64_t serial_ = 0;  // RaiseKernelCheck's number for it (0: constructed elsewhere)
};

// Checked mode (default on; LNGRAD_CHECKED=0 in the environment turns it off at start-up;
// detail::RequireValidEnvSwitches
// lists the values the switches accept).
// On: the extra checks (tensor bounds, alignment, DataCopy round-down, overlap) are errors.
// Off: the runtime behaves like the device (reads past a tensor into neighbouring UB, DataCopy
// rounds its length down), but never touches memory outside the block's UB or a GM block.
bool CheckedMode();
void SetCheckedMode(bool on);

// Throws KernelCheckError carrying the running block's index (-1 outside any block). Inside a
// launch the block also records it: the launch fails with the first check its block raised
// even when the kernel catches the exception (catch (...) cannot turn a failed check into a
// successful launch).
[[noreturn]] void RaiseKernelCheck(std::string check, std::string message);
// For code that raises a check on purpose and handles it (lngrad's own tests of the checks):
// forgets `e`, caught in the block that raised it, so that it no longer fails the launch. Does
// nothing for a check raised elsewhere or outside a launch.
void DismissKernelCheck(const KernelCheckError& e) noexcept;

// The product the running launch simulates; outside a launch, CurrentProduct().
const Product& CurrentBlockProduct();

// State of one simulated AI core while it runs a block (thread-local).
// The AI core's split of a launch (docs/ascendc_kernels.md, "Mixed kernels"): each of the
// launch's numBlocks AI cores runs `aic` cube cores (AIC) and `aiv` vector cores (AIV); `mix`:
// a KERNEL_TYPE_MIX_* kernel (__mix__), whose cores may use CrossCoreSetFlag/CrossCoreWaitFlag.
// The default is a vector-only kernel (one AIV per block).
struct CoreSplit {
  uint8_t aic = 0;
  uint8_t aiv = 1;
  bool mix = false;
  constexpr uint32_t PerCore() const noexcept { return uint32_t{aic} + aiv; }
};

struct BlockContext {
  int64_t block_idx = 0;  // the launch's host block (one per core of every AI core)
  int64_t block_num = 1;
  // The core this block runs: AscendC::CoreType (1 AIC, 2 AIV), GetBlockIdx/GetBlockNum of its
  // type, GetSubBlockIdx (its place among its AI core's AIVs), its AI core and the split.
  int32_t core_type = 2;
  int64_t core_idx = 0, core_num = 1;
  int32_t sub_idx = 0;
  int64_t ai_core = 0;
  CoreSplit split;
  bool standalone = false;          // the thread's standalone block (kernel code outside a launch)
  bool device_memory_only = false;  // LaunchOptions::device_memory_only of the launch
  const Product* product = nullptr;
  std::byte* ub = nullptr;  // host address of UB byte 0 (32-byte aligned)
  uint32_t ub_size = 0;     // bytes backed on the host (covers ub_bytes and stack_end_bytes)
  // The UB holds what an earlier block of the host thread left (unchecked mode, a UB of its own):
  // `__ubuf__` arrays are zero-filled when declared. false where the launch zeroed it for this
  // block, and for an AIV of a mixed kernel, whose UB its AIC may write before it declares them.
  bool ub_left_over = false;
  // UB bytes [0, ub_written_end) hold every UB byte this block may have written in checked mode
  // (its TPipe, TBufPool and stack buffers, its static tensors; a vector function or a SIMT run
  // counts the whole UB): the next block's zeroing needs to clear no more (NoteUbWritten).
  uint32_t ub_written_end = 0;
  AscendC::TPipe* pipe = nullptr;  // the TPipe constructed last (GetTPipePtr)
  uint32_t pipe_alloc_end = 0;     // UB bytes allocated by the current TPipe
  san::BlockState* san = nullptr;  // the sanitizer's record of this block (nullptr: no tool on)
  // DataCopyPad's pad value register (SetPadValue, or DataCopyPad with isPad): undefined until
  // one of them sets it in this block.
  bool pad_value_set = false;
  uint64_t pad_value = 0;
  // The vector mask register and mode (mask.h): full mask, Normal mode at block start.
  uint64_t mask_low = ~uint64_t{0};
  uint64_t mask_high = ~uint64_t{0};
  bool mask_counter = false;
  // SetLoopModePara (950) per direction, [0] UB -> GM, [1] GM -> UB: loop1Size, loop2Size,
  // loop1SrcStride, loop1DstStride, loop2SrcStride, loop2DstStride; all 0 when reset.
  uint64_t loop_mode[2][6] = {};
  // Checks RaiseKernelCheck raised in this block and DismissKernelCheck did not forget, in the
  // order raised (serial, error); at most kMaxRaised, the others only counted.
  static constexpr size_t kMaxRaised = 16;
  std::vector<std::pair<uint64_t, std::exception_ptr>> raised;
  uint64_t raised_unrecorded = 0;
  // The per-block state of the layers above aicore (the cube's L1 and L0 buffers), made on first
  // use by their LocalMemoryHook (local_memory.h) and freed with the block.
  std::shared_ptr<void> upper_state;
};

// Records that the block may have written UB bytes below `end` (clamped to its UB).
inline void NoteUbWritten(BlockContext& ctx, uint64_t end) noexcept {
  const uint64_t e = end < ctx.ub_size ? end : ctx.ub_size;
  if (e > ctx.ub_written_end) ctx.ub_written_end = static_cast<uint32_t>(e);
}

// The running block: a launch's block, or the thread's standalone block once kernel code has
// run outside a launch; nullptr before that.
BlockContext* CurrentBlockContext() noexcept;
// The running block's context. Outside a launch: the calling thread's standalone block, made on
// first use, or (standalone blocks switched off) raises checks::kOutsideLaunch naming `api`.
BlockContext& RequireBlockContext(std::string_view api);

// Standalone blocks: kernel code called directly, outside any launch (the toolkit's unit tests
// call kernel functions from a test body), runs as block 0 of 1 of its own simulated AI core,
// one per host thread. It is made on first use with a zeroed UB of the product in force then
// (CurrentProduct()), and keeps its UB, like a device core between kernels, until the thread
// ends or ResetStandaloneBlock. On by default; LNGRAD_STANDALONE_BLOCK=0 in the environment (read
// at first use) or SetStandaloneBlocks(false) makes kernel APIs outside a launch an error again.
bool StandaloneBlocks();
void SetStandaloneBlocks(bool on);
// Drops the calling thread's standalone block (its TPipe and tensors must not be used again);
// the next kernel API outside a launch starts a fresh one. Does nothing inside a launch.
void ResetStandaloneBlock() noexcept;

namespace detail {
// Installs `ctx` as the running block's context for the current thread (nullptr clears it).
void SetBlockContext(BlockContext* ctx) noexcept;
// The first check `ctx`'s block raised and did not dismiss (a KernelCheckError; for checks
// beyond BlockContext::kMaxRaised one naming their number), or nullptr when there is none.
std::exception_ptr FirstRaisedCheck(const BlockContext& ctx);
// The LNGRAD_CHECKED and LNGRAD_STANDALONE_BLOCK switches (LNGRAD_CHECKED=0: unchecked mode).
// Each accepts 1, on, true, yes and 0, off, false, no (lowercase); unset or empty keeps the
// default (on). Any other value is an error: the first read prints it to stderr and takes the
// default, and every launch fails (check `environment` naming the variable and the values it
// accepts) until the process is started with a valid value. Raises that check now if either
// switch read from the environment was invalid.
void RequireValidEnvSwitches();
}  // namespace detail

}  // namespace lngrad::aicore
