// Layer simt: fibers (fiber.h).
#include "fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define LNGRAD_SIMT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LNGRAD_SIMT_ASAN 1
#endif
#endif
#ifndef LNGRAD_SIMT_ASAN
#define LNGRAD_SIMT_ASAN 0
#endif

#if LNGRAD_SIMT_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__x86_64__) && !defined(LNGRAD_SIMT_UCONTEXT)
#define LNGRAD_SIMT_ASM_SWITCH 1
#else
#define LNGRAD_SIMT_ASM_SWITCH 0
#include <ucontext.h>
#endif

#if LNGRAD_SIMT_ASM_SWITCH
// lngrad_simt_switch(void** save_sp, void* new_sp): pushes the callee-saved registers and the
// floating-point control words on the running stack, stores the stack pointer in *save_sp, loads
// new_sp and pops the same layout from it. lngrad_simt_trampoline is where a new fiber "returns"
// to: it calls r13(r12), which never returns.
extern "C" {
void lngrad_simt_switch(void** save_sp, void* new_sp);
void lngrad_simt_trampoline();
}
asm(R"(
    .text
    .p2align 4
    .globl lngrad_simt_switch
    .hidden lngrad_simt_switch
    .type lngrad_simt_switch, @function
lngrad_simt_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size lngrad_simt_switch, .-lngrad_simt_switch

    .p2align 4
    .globl lngrad_simt_trampoline
    .hidden lngrad_simt_trampoline
    .type lngrad_simt_trampoline, @function
lngrad_simt_trampoline:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    callq *%r13
    ud2
    .cfi_endproc
    .size lngrad_simt_trampoline, .-lngrad_simt_trampoline
    .section .note.GNU-stack,"",@progbits
    .text
)");
#endif

namespace lngrad::simt::detail {
namespace {

#if LNGRAD_SIMT_ASAN
// The host thread's own stack as AddressSanitizer reported it when the first fiber started.
thread_local const void* t_host_stack_bottom = nullptr;
thread_local size_t t_host_stack_size = 0;
#endif

struct StartRecord {
  Fiber::Entry entry;
  void* arg;
};

// Every fiber starts here: tells AddressSanitizer the switch finished, then runs the entry.
void FiberMain(void* record) {
  const StartRecord start = *static_cast<StartRecord*>(record);
#if LNGRAD_SIMT_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &t_host_stack_bottom, &t_host_stack_size);
#endif
  start.entry(start.arg);
  std::abort();  // an entry never returns (fiber.h)
}

#if !LNGRAD_SIMT_ASM_SWITCH
thread_local StartRecord* t_ucontext_start = nullptr;
void UcontextMain() { FiberMain(t_ucontext_start); }
#endif

// The stacks of finished fibers on this host thread. Kept for the thread's lifetime: a launch's
// blocks reuse the stacks of the previous launch.
struct StackPool {
  std::vector<FiberStack*> free;
  ~StackPool() {
    for (FiberStack* s : free) delete s;
  }
};
thread_local StackPool t_pool;

}  // namespace

FiberStack::FiberStack() {
  guard_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* p = mmap(nullptr, guard_ + kBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  base_ = static_cast<std::byte*>(p);
  mprotect(base_, guard_, PROT_NONE);
}

FiberStack::~FiberStack() { munmap(base_, guard_ + kBytes); }

FiberStack* TakeStack() {
  if (t_pool.free.empty()) return new FiberStack();
  FiberStack* s = t_pool.free.back();
  t_pool.free.pop_back();
  return s;
}

void ReturnStack(FiberStack* stack) {
  if (stack != nullptr) t_pool.free.push_back(stack);
}

Fiber::~Fiber() {
#if !LNGRAD_SIMT_ASM_SWITCH
  delete static_cast<ucontext_t*>(ucontext);
#endif
}

void Fiber::Start(FiberStack* s, Entry entry, void* arg) {
  stack = s;
  // The start record lives at the top of the fiber's own stack.
  auto top = reinterpret_cast<uintptr_t>(s->Top());
  top = (top - sizeof(StartRecord)) & ~uintptr_t{63};
  auto* record = new (reinterpret_cast<void*>(top)) StartRecord{entry, arg};
#if LNGRAD_SIMT_ASM_SWITCH
  // The frame lngrad_simt_switch pops: control words, r15, r14, r13, r12, rbx, rbp, the return
  // address. After the return the stack pointer is 16-byte aligned, as a call expects.
  auto* frame = reinterpret_cast<uint64_t*>(top - 16) - 8;
  uint32_t mxcsr = 0;
  uint16_t fpucw = 0;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpucw));
  frame[0] = uint64_t{mxcsr} | (uint64_t{fpucw} << 32);
  frame[1] = 0;                                       // r15
  frame[2] = 0;                                       // r14
  frame[3] = reinterpret_cast<uint64_t>(&FiberMain);  // r13
  frame[4] = reinterpret_cast<uint64_t>(record);      // r12
  frame[5] = 0;                                       // rbx
  frame[6] = 0;                                       // rbp
  frame[7] = reinterpret_cast<uint64_t>(&lngrad_simt_trampoline);
  sp = frame;
#else
  auto* uc = static_cast<ucontext_t*>(ucontext);
  if (uc == nullptr) {
    uc = new ucontext_t();
    ucontext = uc;
  }
  getcontext(uc);
  uc->uc_stack.ss_sp = s->Bottom();
  uc->uc_stack.ss_size = static_cast<size_t>(reinterpret_cast<std::byte*>(top) - s->Bottom());
  uc->uc_link = nullptr;
  makecontext(uc, &UcontextMain, 0);
  sp = record;
#endif
}

void Fiber::SwitchTo(Fiber& from, Fiber& to) {
#if LNGRAD_SIMT_ASAN
  const void* bottom =
      to.stack != nullptr ? static_cast<const void*>(to.stack->Bottom()) : t_host_stack_bottom;
  const size_t size = to.stack != nullptr ? FiberStack::kBytes : t_host_stack_size;
  __sanitizer_start_switch_fiber(&from.asan_fake_stack, bottom, size);
#endif
#if LNGRAD_SIMT_ASM_SWITCH
  lngrad_simt_switch(&from.sp, to.sp);
#else
  auto* from_uc = static_cast<ucontext_t*>(from.ucontext);
  if (from_uc == nullptr) {
    from_uc = new ucontext_t();
    from.ucontext = from_uc;
  }
  if (to.stack != nullptr && to.sp != nullptr) {
    // A fresh fiber: its start record is handed over once.
    t_ucontext_start = static_cast<StartRecord*>(to.sp);
    to.sp = nullptr;
  }
  swapcontext(from_uc, static_cast<ucontext_t*>(to.ucontext));
#endif
#if LNGRAD_SIMT_ASAN
  __sanitizer_finish_switch_fiber(from.asan_fake_stack, nullptr, nullptr);
#endif
}

}  // namespace lngrad::simt::detail
