// Checked mode, the per-block context and the check helpers shared by the runtime headers.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <string>

#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/pipe.h"
#include "lngrad_aicore/vector_ops.h"
#include "name_table.h"

namespace lngrad::aicore {
namespace {

// -1: not read yet; 0/1: off/on.
std::atomic<int> g_checked{-1};

thread_local BlockContext* t_block_ctx = nullptr;

// -1: not read yet; 0/1: off/on.
std::atomic<int> g_standalone{-1};

// The simulated AI core behind a thread's standalone block.
struct StandaloneBlock {
  explicit StandaloneBlock(const Product& product) {
    const uint32_t need = std::max(product.ub_bytes, product.stack_end_bytes);
    const uint32_t bytes = (need + 31) / 32 * 32;
    ub = static_cast<std::byte*>(std::aligned_alloc(64, bytes));
    if (ub == nullptr) throw std::bad_alloc();
    std::memset(ub, 0, bytes);
    ctx.block_idx = 0;
    ctx.block_num = 1;
    ctx.standalone = true;
    ctx.product = &product;
    ctx.ub = ub;
    ctx.ub_size = bytes;
  }
  ~StandaloneBlock() {
    if (t_block_ctx == &ctx) t_block_ctx = nullptr;
    std::free(ub);
  }
  StandaloneBlock(const StandaloneBlock&) = delete;
  StandaloneBlock& operator=(const StandaloneBlock&) = delete;
  BlockContext ctx;
  std::byte* ub = nullptr;
};

thread_local std::unique_ptr<StandaloneBlock> t_standalone;

std::string Describe(int64_t block_idx, const std::string& check, const std::string& message) {
  std::string where;
  if (block_idx < 0) {
    where = "outside a launch";
  } else if (t_block_ctx != nullptr && t_block_ctx->standalone) {
    where = "standalone block 0 (outside a launch)";
  } else {
    where = "block " + std::to_string(block_idx);
  }
  return where + ": [" + check + "] " + message;
}

std::string TensorDescription(const detail::TensorView& v) {
  return "tensor at UB address " + std::to_string(v.ptr - v.ub) + ", " +
         AscendC::PositionName(v.pos) + ", " + std::to_string(v.size_bytes) + " B";
}

// The values an LNGRAD_* switch accepts (EnvSwitch); anything else is an error.
constexpr const char* kSwitchOn[] = {"1", "on", "true", "yes"};
constexpr const char* kSwitchOff[] = {"0", "off", "false", "no"};
constexpr const char* kSwitchValues = "1, on, true, yes (on) or 0, off, false, no (off)";

// A switch's environment value that was not one of those: the first such message, kept for
// every later launch to fail with (RequireValidEnvSwitches).
std::atomic<const std::string*> g_env_error{nullptr};

// -1: unset or empty (the default), 0/1: off/on, 2: not a value a switch accepts.
int ParseSwitch(const char* env) {
  if (env == nullptr || *env == '\0') return -1;
  for (const char* v : kSwitchOn) {
    if (std::strcmp(env, v) == 0) return 1;
  }
  for (const char* v : kSwitchOff) {
    if (std::strcmp(env, v) == 0) return 0;
  }
  return 2;
}

// A switch that is on unless the environment variable `name` turns it off, read once (the
// first caller's value stays) unless set before: state is -1 until then, else 0 or 1. An
// unknown value takes the default (on), is printed to stderr once, and fails every launch.
bool EnvSwitch(std::atomic<int>& state, const char* name) {
  int v = state.load(std::memory_order_relaxed);
  if (v < 0) {
    const char* env = std::getenv(name);
    const int parsed = ParseSwitch(env);
    int expected = -1;
    if (state.compare_exchange_strong(expected, parsed == 0 ? 0 : 1, std::memory_order_relaxed) &&
        parsed == 2) {
      auto* what = new std::string(std::string("environment variable ") + name + " is '" + env +
                                   "'; it must be " + kSwitchValues +
                                   " (unset or empty: on); every launch fails until it is fixed");
      const std::string* none = nullptr;
      if (!g_env_error.compare_exchange_strong(none, what)) delete what;
      std::fprintf(stderr, "lngrad: %s\n", what->c_str());
    }
    v = state.load(std::memory_order_relaxed);
  }
  return v == 1;
}

// Numbers the checks RaiseKernelCheck throws, so that DismissKernelCheck finds its own.
std::atomic<uint64_t> g_check_serial{0};

}  // namespace

KernelCheckError::KernelCheckError(int64_t block_idx, std::string check, std::string message)
    : std::runtime_error(Describe(block_idx, check, message)),
      block_idx_(block_idx),
      check_(std::move(check)),
      message_(std::move(message)) {}

bool CheckedMode() { return EnvSwitch(g_checked, "LNGRAD_CHECKED"); }

void SetCheckedMode(bool on) { g_checked.store(on ? 1 : 0, std::memory_order_relaxed); }

void RaiseKernelCheck(std::string check, std::string message) {
  BlockContext* const ctx = t_block_ctx;
  KernelCheckError e(ctx != nullptr ? ctx->block_idx : -1, std::move(check), std::move(message));
  e.serial_ = g_check_serial.fetch_add(1, std::memory_order_relaxed) + 1;
  // A launch's block keeps it: the launch fails with it even if the kernel catches it.
  if (ctx != nullptr && !ctx->standalone) {
    if (ctx->raised.size() < BlockContext::kMaxRaised) {
      ctx->raised.emplace_back(e.serial_, std::make_exception_ptr(e));
    } else {
      ++ctx->raised_unrecorded;
    }
  }
  throw e;
}

void DismissKernelCheck(const KernelCheckError& e) noexcept {
  BlockContext* const ctx = t_block_ctx;
  if (ctx == nullptr || e.serial_ == 0) return;
  auto& raised = ctx->raised;
  for (auto it = raised.begin(); it != raised.end(); ++it) {
    if (it->first == e.serial_) {
      raised.erase(it);
      return;
    }
  }
  if (ctx->raised_unrecorded > 0) --ctx->raised_unrecorded;
}

const Product& CurrentBlockProduct() {
  if (t_block_ctx != nullptr && t_block_ctx->product != nullptr) return *t_block_ctx->product;
  return CurrentProduct();
}

BlockContext* CurrentBlockContext() noexcept { return t_block_ctx; }

BlockContext& RequireBlockContext(std::string_view api) {
  if (t_block_ctx == nullptr || t_block_ctx->standalone) [[unlikely]] {
    if (!StandaloneBlocks()) {
      RaiseKernelCheck(checks::kOutsideLaunch,
                       std::string(api) +
                           " needs a running block; call kernels through ICPU_RUN_KF or "
                           "lngrad::aicore::Launch (standalone blocks are switched off)");
    }
    if (t_standalone == nullptr) t_standalone = std::make_unique<StandaloneBlock>(CurrentProduct());
    t_block_ctx = &t_standalone->ctx;
  }
  return *t_block_ctx;
}

bool StandaloneBlocks() { return EnvSwitch(g_standalone, "LNGRAD_STANDALONE_BLOCK"); }

void SetStandaloneBlocks(bool on) { g_standalone.store(on ? 1 : 0, std::memory_order_relaxed); }

void ResetStandaloneBlock() noexcept {
  if (t_block_ctx != nullptr && !t_block_ctx->standalone) return;
  t_standalone.reset();
  t_block_ctx = nullptr;
}

namespace detail {

void SetBlockContext(BlockContext* ctx) noexcept { t_block_ctx = ctx; }

std::exception_ptr FirstRaisedCheck(const BlockContext& ctx) {
  if (!ctx.raised.empty()) return ctx.raised.front().second;
  if (ctx.raised_unrecorded == 0) return nullptr;
  return std::make_exception_ptr(KernelCheckError(
      ctx.block_idx, "exception",
      std::to_string(ctx.raised_unrecorded) +
          " check(s) raised in this block were caught by the kernel and not reported"));
}

void RequireValidEnvSwitches() {
  (void)CheckedMode();
  (void)StandaloneBlocks();
  if (const std::string* what = g_env_error.load()) RaiseKernelCheck(checks::kEnvironment, *what);
}

void OnTensorOverrun(const TensorView& v, uint64_t elem_offset, uint64_t count, uint32_t elem_size,
                     const char* api) {
  if (v.ptr == nullptr) {
    RaiseKernelCheck(
        checks::kTensorBounds,
        std::string(api) +
            ": the LocalTensor has no buffer (get it from AllocTensor, DeQue, TBuf::Get or "
            "PopStackBuffer)");
  }
  const uint64_t size = v.size_bytes / elem_size;
  if (CheckedMode()) {
    RaiseKernelCheck(checks::kTensorBounds,
                     std::string(api) + ": elements [" + std::to_string(elem_offset) + ", " +
                         std::to_string(elem_offset + count) + ") are outside the tensor of " +
                         std::to_string(size) + " elements (offset is " +
                         std::to_string(elem_offset + (count > 0 ? count - 1 : 0)) +
                         ", which can not be larger than data len " + std::to_string(size) + "); " +
                         TensorDescription(v));
  }
  RequireInsideUb(v, (v.ptr - v.ub) + static_cast<int64_t>(elem_offset * elem_size),
                  count * elem_size, api);
}

void RequireInsideUb(const TensorView& v, int64_t ub_offset, uint64_t bytes, const char* api) {
  if (v.ub == nullptr) {
    RaiseKernelCheck(checks::kUbBounds, std::string(api) + ": the tensor is not in a block's UB");
  }
  if (ub_offset < 0 || static_cast<uint64_t>(ub_offset) + bytes > v.ub_size) {
    RaiseKernelCheck(checks::kUbBounds,
                     std::string(api) + ": UB bytes [" + std::to_string(ub_offset) + ", " +
                         std::to_string(ub_offset + static_cast<int64_t>(bytes)) +
                         ") are outside the block's UB of " + std::to_string(v.ub_size) + " B");
  }
}

void CheckUbAligned(const TensorView& v, const char* api, const char* operand) {
  if (!CheckedMode() || v.ptr == nullptr) return;
  const int64_t addr = v.ptr - v.ub;
  if (addr % 32 != 0) {
    RaiseKernelCheck(checks::kUbAlignment,
                     std::string(api) + ": " + operand + " UB address " + std::to_string(addr) +
                         " is not 32-byte aligned (UB operands must start on a 32 B "
                         "boundary)");
  }
}

void CheckGmAligned(const void* p, uint32_t elem_size, const char* api) {
  if (!CheckedMode() || p == nullptr) return;
  if (reinterpret_cast<uintptr_t>(p) % elem_size != 0) {
    RaiseKernelCheck(checks::kGmAlignment, std::string(api) +
                                               ": GM address is not aligned to the element size " +
                                               std::to_string(elem_size) + " B");
  }
}

void CheckNoPartialOverlap(const TensorView& dst, uint64_t dst_bytes, const TensorView& src,
                           uint64_t src_bytes, const char* api) {
  if (!CheckedMode() || dst_bytes == 0 || src_bytes == 0) return;
  const std::byte* d0 = dst.ptr;
  const std::byte* s0 = src.ptr;
  const bool overlap = d0 < s0 + src_bytes && s0 < d0 + dst_bytes;
  if (overlap && !(d0 == s0 && dst_bytes == src_bytes)) {
    RaiseKernelCheck(checks::kAddressOverlap,
                     std::string(api) + ": dst UB bytes [" + std::to_string(d0 - dst.ub) + ", " +
                         std::to_string(d0 - dst.ub + static_cast<int64_t>(dst_bytes)) +
                         ") and src UB bytes [" + std::to_string(s0 - src.ub) + ", " +
                         std::to_string(s0 - src.ub + static_cast<int64_t>(src_bytes)) +
                         ") overlap partially; operands must be identical or disjoint");
  }
}

uint64_t DataCopyBytes(const char* api, uint64_t count, uint32_t elem_size) {
  const uint64_t bytes = count * elem_size;
  const uint64_t copied = bytes / 32 * 32;
  if (copied != bytes && CheckedMode()) {
    RaiseKernelCheck(checks::kDataCopyLength,
                     std::string(api) + ": count " + std::to_string(count) + " x " +
                         std::to_string(elem_size) + " B = " + std::to_string(bytes) +
                         " B is not a multiple of 32 B; the device would copy only " +
                         std::to_string(copied) + " B and silently drop the last " +
                         std::to_string(bytes - copied) +
                         " B (use a 32-byte multiple, or DataCopyPad for rows that are not)");
  }
  return copied;
}

void CheckVectorOperands(const char* api, int64_t count,
                         std::initializer_list<VecOperand> operands) {
  if (count < 0) {
    RaiseKernelCheck(checks::kInvalidCount, std::string(api) + ": count is " +
                                                std::to_string(count) + ", which must be >= 0");
  }
  const bool checked = CheckedMode();
  for (const VecOperand& op : operands) {
    const std::string where = std::string(api) + " " + op.name;
    if (static_cast<uint64_t>(count) * op.elem_size > op.view.size_bytes ||
        op.view.ptr == nullptr) {
      OnTensorOverrun(op.view, 0, static_cast<uint64_t>(count), op.elem_size, where.c_str());
    }
    if (checked) CheckUbAligned(op.view, api, op.name);
  }
  if (checked && operands.size() > 1) {
    const VecOperand& dst = *operands.begin();
    for (auto it = operands.begin() + 1; it != operands.end(); ++it) {
      CheckNoPartialOverlap(dst.view, static_cast<uint64_t>(count) * dst.elem_size, it->view,
                            static_cast<uint64_t>(count) * it->elem_size, api);
    }
  }
}

void StackRange(const char* api, BlockContext*& ctx, uint32_t& start, uint32_t& end) {
  ctx = &RequireBlockContext(api);
  start = ctx->pipe != nullptr ? ctx->pipe->AllocatedBytes() : 0;
  end = ctx->product->stack_end_bytes;
  NoteUbWritten(*ctx, end);
}

void RaiseNoStack(uint32_t start, uint32_t end) {
  RaiseKernelCheck(checks::kStackBuffer,
                   "PopStackBuffer: no UB is left for the stack buffer: the TPipe buffers end at "
                   "UB address " +
                       std::to_string(start) + " and the stack ends at " + std::to_string(end));
}

void RaiseBadPosition(const char* api, AscendC::TPosition pos) {
  RaiseKernelCheck(checks::kPosition, std::string(api) + ": position " +
                                          AscendC::PositionName(pos) +
                                          " is not modelled; only VECIN/VECOUT/VECCALC (UB) are");
}

}  // namespace detail
}  // namespace lngrad::aicore

namespace AscendC {

const char* PositionName(TPosition p) noexcept {
  // In the enum's order (LCM and SHM are other names of VECCALC and SPM).
  static constexpr const char* kNames[] = {
      "GM",    "A1",     "A2",      "B1",  "B2",   "C1",        "C2",           "CO1", "CO2",
      "VECIN", "VECOUT", "VECCALC", "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL", "MAX"};
  static_assert(std::size(kNames) == static_cast<size_t>(TPosition::MAX) + 1);
  return lngrad::aicore::detail::NameAt(kNames, p, "?");
}

}  // namespace AscendC
