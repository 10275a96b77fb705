// Layer simt: fibers, the execution contexts of SIMT threads.
//
// A fiber is a stack and a saved set of callee-saved registers. Switching saves the running
// context and resumes another one on the same host thread; nothing is preempted. On x86-64 and
// AArch64 the switch is a few instructions of assembly (no signal-mask system call, unlike
// swapcontext); elsewhere it falls back to <ucontext.h>. Under AddressSanitizer every switch is
// announced to it (__sanitizer_start_switch_fiber), so that its view of the stack follows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lngrad::simt::detail {

// A fiber's stack: mapped memory with an inaccessible guard page below it, so that a thread that
// overflows it faults instead of writing into another thread's stack.
class FiberStack {
 public:
  static constexpr size_t kBytes = size_t{256} << 10;  // usable bytes, the guard page excluded

  FiberStack();
  ~FiberStack();
  FiberStack(const FiberStack&) = delete;
  FiberStack& operator=(const FiberStack&) = delete;

  std::byte* Bottom() const { return base_ + guard_; }  // lowest usable address
  std::byte* Top() const { return base_ + guard_ + kBytes; }

 private:
  std::byte* base_ = nullptr;
  size_t guard_ = 0;
};

// A stack pool per host thread: the stacks of finished fibers are reused by the next ones.
FiberStack* TakeStack();
void ReturnStack(FiberStack* stack);

// One execution context. Start() prepares it to run entry(arg) on `stack`; SwitchTo() saves the
// caller's context in `from` and resumes `to`. entry must never return: its last act is a switch
// away (the fiber is then finished and may be started again).
struct Fiber {
  using Entry = void (*)(void* arg);

  void Start(FiberStack* stack, Entry entry, void* arg);
  static void SwitchTo(Fiber& from, Fiber& to);

  void* sp = nullptr;           // the saved stack pointer (assembly switch)
  void* ucontext = nullptr;     // the saved context (ucontext fallback), owned
  FiberStack* stack = nullptr;  // nullptr: the host thread's own stack
  // AddressSanitizer's record of the fiber's stack while it is switched out.
  void* asan_fake_stack = nullptr;

  Fiber() = default;
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;
};

}  // namespace lngrad::simt::detail
